#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Latency of the light models (../shared/onnx-backend-tests/light), onnxtool beside ONNX Runtime,
# measured in the same run, model by model (absolute times on a shared machine drift by 10-30 %
# between runs; the ratio is what to read). Prints a table; asserts nothing.
#
#   scripts/bench.sh                      # 3 warm-up + 10 timed runs, 2 threads
#   RUNS=20 THREADS=1 scripts/bench.sh
#
# BUILD_DIR (default build) picks onnxtool; ONNXTOOL_SHARED (default ../shared) the shared folder.
# ONNX Runtime comes from ../shared/tools/ort (set up once with its setup.sh, done here if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
shared=${ONNXTOOL_SHARED:-../shared}
runs=${RUNS:-10}
warmup=${WARMUP:-3}
threads=${THREADS:-2}
ort="$shared/tools/ort"
[ -d "$ort/node_modules" ] || "$ort/setup.sh" >&2

# The median from JSON on stdin: onnxtool's document {bench: {median_ms}}, or the last line of
# bench.mjs's output {median_ms}. Fails (no output) when there is none: the model did not run.
median() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    let j;
    try { j = JSON.parse(s); } catch { j = JSON.parse(s.trim().split("\n").pop()); }
    console.log((j.bench ? j.bench.median_ms : j.median_ms).toFixed(2)); })' 2>/dev/null
}

"$build/onnxtool" -v --threads "$threads" run "$shared/onnx-backend-tests/light/light_squeezenet.onnx" \
  --random-inputs 2>&1 >/dev/null | grep -m1 'blas:' || true
printf '%-24s %14s %14s %8s\n' model "onnxtool ms" "ORT ms" ratio
for model in "$shared"/onnx-backend-tests/light/light_*.onnx; do
  name=$(basename "$model" .onnx)
  ours=$("$build/onnxtool" --json --threads "$threads" run "$model" --random-inputs \
           --bench "$runs" --warmup "$warmup" | median) || ours=failed
  theirs=$(node "$ort/bench.mjs" "$model" --warmup "$warmup" --runs "$runs" \
             --threads "$threads" --seed 0 2>/dev/null | median) || theirs=failed
  ratio=$(node -e 'const [a, b] = process.argv.slice(1).map(Number);
    console.log(a > 0 && b > 0 ? (a / b).toFixed(2) + "x" : "-")' "$ours" "$theirs")
  printf '%-24s %14s %14s %8s\n' "${name#light_}" "$ours" "$theirs" "$ratio"
done
