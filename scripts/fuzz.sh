#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the textual syntax parser's fuzz target with clang (libFuzzer, AddressSanitizer, UBSan)
# in build-fuzz/ and runs it for a bounded time on a corpus seeded with testdata/. Exits
# non-zero when the fuzzer finds a crash, a hang, a sanitizer report or a round trip that
# changes a model; the input that did it is left in build-fuzz/ (crash-*, timeout-*).
#   scripts/fuzz.sh [SECONDS]        (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/need-clang.sh
cxx=clang++-14
cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER="$cxx" -DONNXTOOL_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" >/dev/null
cmake --build build-fuzz -j2
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp testdata/text/*.onnxtxt testdata/models/*.onnxtxt testdata/bad/text/*.onnxtxt "$corpus"/
cd build-fuzz
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ./fuzz_text_parser -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict=../tests/fuzz/text.dict -print_final_stats=1 corpus
