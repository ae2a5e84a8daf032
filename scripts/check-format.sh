#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when a C++ file differs from what clang-format (Debian 12's clang-format-14) makes of it.
#   scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$fmt" ]; then
  apt-get install -y -qq clang-format-14 >/dev/null
  fmt=clang-format-14
fi
mapfile -t listed < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h' 2>/dev/null || find app core ops tests -name '*.cpp' -o -name '*.h')
files=()
for f in "${listed[@]}"; do [ -f "$f" ] && files+=("$f"); done  # not files deleted but not yet committed
if [ "${1:-}" = "--fix" ]; then
  "$fmt" -i "${files[@]}"
  exit 0
fi
"$fmt" --dry-run --Werror "${files[@]}"
echo "format: ${#files[@]} files clean"
