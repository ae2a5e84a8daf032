#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs clang-14 and its runtime libraries (libFuzzer, the sanitizers) from Debian's packages
# when they are missing. Used by the sanitizer build (scripts/test.sh) and scripts/fuzz.sh.
set -euo pipefail
for p in clang-14 libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
    break
  fi
done
