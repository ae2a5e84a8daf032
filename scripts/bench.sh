#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Latency and peak memory, onnxtool beside ONNX Runtime, measured in the same run, model by model
# (absolute times on a shared machine drift by 10-30 % between runs; the ratio is what to read).
# By default the light models (../shared/onnx-backend-tests/light); with MODELS_DIR or --models,
# every .onnx of a directory, such as those scripts/gen-bench-models.py writes. Prints a table;
# asserts nothing.
#
#   scripts/bench.sh                      # 3 rounds of 3 warm-up + 10 timed runs, 2 threads
#   RUNS=20 ROUNDS=5 THREADS=1 scripts/bench.sh
#   scripts/bench.sh --models DIR         # or MODELS_DIR=DIR scripts/bench.sh
#
# Peak RSS (MB) is /usr/bin/time's %M around one separate run of each, outside the timed runs:
# `onnxtool run` once, and bench.mjs with one run and no warm-up (session creation included).
# ORT's figure is the whole Node.js process, so it includes Node.js's own baseline (and the
# loading of onnxruntime-node); that baseline, node running an empty script, is measured once
# and printed above the table. Both feed random inputs (floats uniform [0,1), integers 0).
#
# BUILD_DIR (default build) picks onnxtool; ONNXTOOL_SHARED (default ../shared) the shared folder.
# ONNX Runtime comes from ../shared/tools/ort (set up once with its setup.sh, done here if needed).
set -euo pipefail
models_dir=${MODELS_DIR:-}
while [ $# -gt 0 ]; do
  case $1 in
    --models) models_dir=${2:?--models needs a directory}; shift 2 ;;
    --models=*) models_dir=${1#--models=}; shift ;;
    -h | --help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
# The directory as given, before the cd below: relative to where the script was called from.
if [ -n "$models_dir" ]; then
  [ -d "$models_dir" ] || { echo "bench.sh: $models_dir is not a directory" >&2; exit 2; }
  models_dir=$(cd "$models_dir" && pwd)
fi
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
shared=${ONNXTOOL_SHARED:-../shared}
runs=${RUNS:-10}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-3}
threads=${THREADS:-2}
ort="$shared/tools/ort"
[ -d "$ort/node_modules" ] || "$ort/setup.sh" >&2

if [ -n "$models_dir" ]; then
  models=("$models_dir"/*.onnx)
  [ -e "${models[0]}" ] || { echo "bench.sh: no .onnx in $models_dir" >&2; exit 2; }
else
  models=("$shared"/onnx-backend-tests/light/light_*.onnx)
fi

# The median from JSON on stdin: onnxtool's document {bench: {median_ms}}, or the last line of
# bench.mjs's output {median_ms}. Fails (no output) when there is none: the model did not run.
median() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    let j;
    try { j = JSON.parse(s); } catch { j = JSON.parse(s.trim().split("\n").pop()); }
    console.log((j.bench ? j.bench.median_ms : j.median_ms).toFixed(2)); })' 2>/dev/null
}

# The median of the figures given, or "failed" when any is (a model that fails once fails).
median_of() {
  printf '%s\n' "$@" | sort -g | awk '/failed/ { bad = 1 } { v[NR] = $1 }
    END { if (bad || NR == 0) print "failed"; else if (NR % 2) print v[(NR + 1) / 2];
          else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Peak RSS in MB of one run of the command given, or "failed" when it fails. Its own output is
# dropped: this run is only measured.
rss_file=$(mktemp)
trap 'rm -f "$rss_file"' EXIT
peak_rss() {
  if /usr/bin/time -f %M -o "$rss_file" "$@" >/dev/null 2>&1; then
    awk '{ printf "%.0f\n", $1 / 1024 }' "$rss_file"
  else
    echo failed
  fi
}

"$build/onnxtool" -v --threads "$threads" run "$shared/onnx-backend-tests/light/light_squeezenet.onnx" \
  --random-inputs 2>&1 >/dev/null | grep -m1 'blas:' || true
echo "node.js baseline peak RSS (empty script): $(peak_rss node -e '') MB, included in ORT MB"
# One round's median of each side ("failed" when the model did not run).
run_ours() {
  "$build/onnxtool" --json --threads "$threads" run "$1" --random-inputs --bench "$runs" \
    --warmup "$warmup" | median || echo failed
}
run_theirs() {
  node "$ort/bench.mjs" "$1" --warmup "$warmup" --runs "$runs" --threads "$threads" --seed 0 \
    2>/dev/null | median || echo failed
}

printf '%-24s %14s %14s %8s %12s %12s\n' model "onnxtool ms" "ORT ms" ratio "onnxtool MB" "ORT MB"
for model in "${models[@]}"; do
  name=$(basename "$model" .onnx)
  # Rounds alternate the two, and each side's figure is the median of its round medians: a burst
  # of load from elsewhere on the host (it lasts seconds here) then falls on both sides' rounds
  # rather than on one side's only. Which side goes first alternates too: paired runs that
  # always ran one side first measured a null change (the same binary twice) at 0.92-1.05 on
  # whole models here, and 0.98 with the order alternated.
  ours_rounds=() theirs_rounds=()
  for ((round = 0; round < rounds; ++round)); do
    if ((round % 2 == 0)); then
      ours_rounds+=("$(run_ours "$model")")
      theirs_rounds+=("$(run_theirs "$model")")
    else
      theirs_rounds+=("$(run_theirs "$model")")
      ours_rounds+=("$(run_ours "$model")")
    fi
  done
  ours=$(median_of "${ours_rounds[@]}")
  theirs=$(median_of "${theirs_rounds[@]}")
  ratio=$(node -e 'const [a, b] = process.argv.slice(1).map(Number);
    console.log(a > 0 && b > 0 ? (a / b).toFixed(2) + "x" : "-")' "$ours" "$theirs")
  ours_mb=$(peak_rss "$build/onnxtool" --threads "$threads" run "$model" --random-inputs)
  theirs_mb=$(peak_rss node "$ort/bench.mjs" "$model" --warmup 0 --runs 1 --threads "$threads" \
                --seed 0)
  printf '%-24s %14s %14s %8s %12s %12s\n' "${name#light_}" "$ours" "$theirs" "$ratio" \
    "$ours_mb" "$theirs_mb"
done
