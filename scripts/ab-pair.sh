#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Paired A/B timing of two onnxtool binaries (or one binary under two environments) on the same
# models: each round runs A and B once each (`run --bench`), the side that goes first
# alternating by round, and the result is the median over rounds of B's median / A's median.
# On a shared host whose speed drifts over seconds, a pair measures the change where separate
# runs measure the host; with one side always first, a null change (the same binary twice)
# measured 0.92-1.05 on whole models here.
#
#   scripts/ab-pair.sh [--rounds 8] [--runs 30] [--threads 2] A B MODEL.onnx...
#
# A and B are onnxtool binaries; either may be given as "ENV=VALUE...:BINARY" to run it with
# those variables set (one binary under two settings). Asserts nothing; a development aid.
set -euo pipefail

rounds=8 runs=30 threads=2
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a count}; shift 2 ;;
    --runs) runs=${2:?--runs needs a count}; shift 2 ;;
    --threads) threads=${2:?--threads needs a count}; shift 2 ;;
    -h | --help) sed -n '3,13p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [[ $# -lt 3 ]]; then
  echo "usage: scripts/ab-pair.sh [--rounds N] [--runs N] [--threads N] A B MODEL..." >&2
  exit 2
fi
side_a=$1 side_b=$2
shift 2

# The median of one side's `run --bench` on a model, in ms.
median_of_side() {
  local side=$1 model=$2 vars=() binary=$1
  if [[ $side == *:* ]]; then
    read -r -a vars <<<"${side%%:*}"
    binary=${side#*:}
  fi
  env "${vars[@]}" "$binary" --json --threads "$threads" run "$model" --random-inputs \
    --bench "$runs" --warmup 3 |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () =>
      console.log(JSON.parse(s).bench.median_ms))'
}

# The median of the numbers on stdin.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                                      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for model in "$@"; do
  ratios=() a_ms=() b_ms=()
  for ((round = 0; round < rounds; ++round)); do
    if ((round % 2 == 0)); then
      a=$(median_of_side "$side_a" "$model")
      b=$(median_of_side "$side_b" "$model")
    else
      b=$(median_of_side "$side_b" "$model")
      a=$(median_of_side "$side_a" "$model")
    fi
    a_ms+=("$a") b_ms+=("$b")
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')")
  done
  printf '%s: B/A %.3f (median of %d alternated pairs); A median %.3f ms, B median %.3f ms\n' \
    "$(basename "$model")" "$(printf '%s\n' "${ratios[@]}" | median)" "$rounds" \
    "$(printf '%s\n' "${a_ms[@]}" | median)" "$(printf '%s\n' "${b_ms[@]}" | median)"
done
