#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what onnxtool builds with (Debian 12 packages; idempotent) and builds the program,
# build/onnxtool, and its man pages (build/man). The tests are scripts/test.sh's to build.
#   scripts/setup.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make libprotobuf-dev protobuf-compiler libcli11-dev nlohmann-json3-dev
          libspdlog-dev libopenblas-dev doctest-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j2 --target onnxtool man_pages
