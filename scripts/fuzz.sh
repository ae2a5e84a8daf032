#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the libFuzzer targets (tests/fuzz; built by the sanitize preset, clang with AddressSanitizer
# and UBSan, in build-asan/) for a bounded time each, two at a time (one per core; the text
# parser, fuzzed the longest, for half the time beside the last two). Corpora are
# seeded with testdata/ and, when ../shared is there, with the backend models (those up to
# 64 KiB: node, pytorch-*, simple). Exits non-zero when a fuzzer finds a crash, a hang, a
# sanitizer report or a broken property; the input that did it is left in
# build-asan/fuzz/TARGET/ (crash-*, timeout-*), the fuzzer's output in build-asan/fuzz/TARGET.log.
# Inputs that once found a bug live in tests/fuzz/regressions/TARGET/ (add each new one there with
# its fix): every run starts from them.
#
# The fuzzers take a fixed seed (FUZZ_SEED, default 1), so that CI gives the same verdict for the
# same commit; FUZZ_SEED=random lets libFuzzer pick one, for longer runs that look for new bugs:
#   FUZZ_SEED=random scripts/fuzz.sh 1800 executor
#   scripts/fuzz.sh [SECONDS] [TARGET...]   (default 60 s; targets: text_parser model_check
#                                            shape_infer convert executor, default all)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model_check shape_infer convert executor text_parser)

scripts/need-clang.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize --target "${targets[@]/#/fuzz_}"

work=build-asan/fuzz
mkdir -p "$work/seeds-text" "$work/seeds-models"
cp testdata/text/*.onnxtxt testdata/models/*.onnxtxt testdata/bad/text/*.onnxtxt "$work/seeds-text/"
find testdata -name '*.onnx' -size -64k -exec cp {} "$work/seeds-models/" \;
backend=../shared/onnx-backend-tests
if [ -d "$backend" ]; then
  # One cp per model and no other process: names from parameter expansion (seconds, not 40).
  while IFS= read -r -d '' f; do
    test_dir=${f%/model.onnx}
    suite_dir=${test_dir%/*}
    cp "$f" "$work/seeds-models/${suite_dir##*/}-${test_dir##*/}.onnx"
  done < <(find "$backend/node" "$backend/pytorch-converted" "$backend/pytorch-operator" \
    "$backend/simple" -name model.onnx -size -64k -print0 2>/dev/null)
else
  echo "fuzz: $backend not found: model corpora seeded with testdata/ only; fuzz_executor skipped"
fi
echo "fuzz: seeds: $(ls "$work/seeds-text" | wc -l) text, $(ls "$work/seeds-models" | wc -l) binary models"

# The text parser has been fuzzed since issue 4: half the time, beside the last pair.
seconds_for() {
  if [ "$1" = text_parser ]; then echo $(((seconds + 1) / 2)); else echo "$seconds"; fi
}

seed_args=()
[ "${FUZZ_SEED:-1}" = random ] || seed_args=(-seed="${FUZZ_SEED:-1}")

run_target() {
  local target=$1 seeds=() extra=()
  case $target in
    text_parser) seeds=("$work/seeds-text"); extra=(-dict=tests/fuzz/text.dict -max_len=16384) ;;
    executor) extra=(-max_len=512 -len_control=0) ;;
    *) seeds=("$work/seeds-models"); extra=(-max_len=65536) ;;
  esac
  [ -d "tests/fuzz/regressions/$target" ] && seeds+=("tests/fuzz/regressions/$target")
  mkdir -p "$work/$target/corpus"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "build-asan/tests/fuzz/fuzz_$target" -max_total_time="$(seconds_for "$target")" -timeout=20 \
    -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$work/$target/" "${seed_args[@]}" \
    "${extra[@]}" \
    "$work/$target/corpus" "${seeds[@]}" >"$work/$target.log" 2>&1
}

summary() {
  local target=$1 status=$2 runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log" | tail -1)
  printf '  %-12s %-6s %10s executions in %s s\n' "$target" "$status" "${runs:-?}" \
    "$(seconds_for "$target")"
}

skip_executor=0
[ -d "$backend/node" ] || skip_executor=1
failed=0
results=()
pending=("${targets[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  batch=("${pending[@]:0:2}")
  pending=("${pending[@]:2}")
  # The text parser's half-length run joins the last pair rather than taking a round alone.
  if [ ${#pending[@]} -eq 1 ] && [ "${pending[0]}" = text_parser ]; then
    batch+=(text_parser)
    pending=()
  fi
  pids=()
  for t in "${batch[@]}"; do
    if [ "$t" = executor ] && [ $skip_executor = 1 ]; then
      results+=("$(printf '  %-12s skipped (no backend node tests)' "$t")")
      continue
    fi
    run_target "$t" &
    pids+=("$t:$!")
  done
  for entry in "${pids[@]}"; do
    t=${entry%%:*}
    if wait "${entry#*:}"; then
      results+=("$(summary "$t" ok)")
    else
      failed=1
      results+=("$(summary "$t" FAILED)")
      echo "== fuzz_$t failed; the end of $work/$t.log:"
      tail -40 "$work/$t.log"
    fi
  done
done
echo "== fuzz"
printf '%s\n' "${results[@]}"
exit $failed
