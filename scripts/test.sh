#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, as CI runs it:
# Both builds put the library and command-line files eight to a translation unit
# (ONNXTOOL_UNITY: a third of the build time); a plain cmake build compiles them one by one.
#   1. release build, every CTest test (unit, golden, conformance against ../shared when present);
#   2. the same answers under two BLAS cores and two thread counts (scripts/determinism.sh);
#   3. AddressSanitizer + UBSan build (clang-14 at -O1 -g1, which builds in two thirds of GCC's
#      time; the release build already holds the code to GCC's warnings), the same tests
#      (hostile inputs included) under the sanitizers; it builds the libFuzzer targets too;
#   4. the five libFuzzer targets (scripts/fuzz.sh), FUZZ_SECONDS each (default 45; the text
#      parser half of it), two at a time;
#   5. formatting check.
# Each step's time is printed at the end. Whatever OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE say in the
# environment, every step must pass: the tests that depend on them set them for their children.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
times=()
step_start=$start
step_done() {
  local now
  now=$(date +%s)
  times+=("$(printf '%-34s %5d s' "$1" $((now - step_start)))")
  step_start=$now
}

# Tools the tests call: xmllint reads the JUnit XML back, groff renders the man pages, Graphviz
# reads the DOT pictures back and draws the SVG ones (optional for onnxtool itself).
missing=()
for p in libxml2-utils groff-base graphviz; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; }
fi
scripts/setup.sh -DONNXTOOL_WERROR=ON -DONNXTOOL_UNITY=ON
cmake --build build -j2
step_done "release build"
echo "== release tests"
ctest --test-dir build -j2 --output-on-failure
step_done "release tests"

echo "== determinism (BLAS cores x threads)"
scripts/determinism.sh
step_done "determinism"

echo "== sanitizer tests (AddressSanitizer + UBSan)"
scripts/need-clang.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
step_done "sanitizer build"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j2 --output-on-failure
step_done "sanitizer tests"

echo "== fuzz (five targets, ${FUZZ_SECONDS:-45} s each)"
scripts/fuzz.sh "${FUZZ_SECONDS:-45}"
step_done "fuzz"

echo "== format"
scripts/check-format.sh
step_done "format"

echo "== time per step"
printf '  %s\n' "${times[@]}"
echo "all tests passed in $(( $(date +%s) - start )) s"
