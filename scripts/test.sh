#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, as CI runs it:
#   1. release build, every CTest test (unit, golden, conformance against ../shared when present);
#   2. AddressSanitizer + UBSan build, the same tests (hostile inputs included) under the sanitizers;
#   3. the textual syntax parser's libFuzzer target for a bounded time (FUZZ_SECONDS, default 60);
#   4. formatting check.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

scripts/setup.sh -DONNXTOOL_WERROR=ON
echo "== release tests"
ctest --test-dir build -j2 --output-on-failure

echo "== sanitizer tests (AddressSanitizer + UBSan)"
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j2 --output-on-failure

echo "== fuzz (text parser, ${FUZZ_SECONDS:-60} s)"
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"

echo "== format"
scripts/check-format.sh

echo "all tests passed in $(( $(date +%s) - start )) s"
