#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Same answers whatever the BLAS core and the thread count (issue 9). With build/onnxtool:
#   1. the light models and a fixed slice of the node tests (the families that run through the
#      matrix products: convolutions, GEMM, MatMul, the recurrent ops, pools, normalisations,
#      Softmax, Einsum, the integer products) must all pass under each configuration:
#      OPENBLAS_CORETYPE unset (OPENBLAS_L2_SIZE too) or Haswell, times --threads 1 or 2;
#   2. every light model's outputs, for the same random inputs, must be the same bytes under
#      every configuration.
# Skips, saying so, when ../shared/onnx-backend-tests is absent.
#   scripts/determinism.sh [ONNXTOOL]      (default build/onnxtool)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-build/onnxtool}
data=../shared/onnx-backend-tests
if [ ! -d "$data/light" ] || [ ! -d "$data/node" ]; then
  echo "determinism: skipped: $data not found"
  exit 0
fi

# The families that run through the matrix products, as far as the manifest says they pass.
families='^test_(conv|gemm|matmul|lstm|gru|rnn|maxpool|averagepool|batchnorm|softmax|einsum|layer_normalization|instancenorm|lrn|qlinear|convinteger)'
slice=()
while read -r name status; do
  [ "$status" = pass ] && [ -d "$data/node/$name" ] && slice+=("$data/node/$name")
done < <(grep -E "$families" tests/conformance/node.manifest)
echo "determinism: ${#slice[@]} node tests in the slice, 9 light models"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
reference=""
for core in auto Haswell; do
  for threads in 1 2; do
    config="OPENBLAS_CORETYPE=$core --threads $threads"
    if [ "$core" = auto ]; then
      envs=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE)
    else
      envs=(env OPENBLAS_CORETYPE="$core")
    fi
    for suite in light node; do
      if [ "$suite" = light ]; then dirs=("$data/light"); else dirs=("${slice[@]}"); fi
      if line=$("${envs[@]}" "$tool" --threads "$threads" test "${dirs[@]}" 2>&1 | tail -n 1) &&
        [[ "$line" == *" 0 failed"* ]]; then
        echo "  $config, $suite: $line"
      else
        echo "  $config, $suite: FAILED: $line"
        failed=1
      fi
    done
    out="$work/$core-$threads"
    mkdir -p "$out"
    for model in "$data"/light/*.onnx; do
      name=$(basename "$model" .onnx)
      "${envs[@]}" "$tool" -q --threads "$threads" run "$model" --random-inputs --seed 7 \
        --npz "$out/$name.npz" >/dev/null
    done
    if [ -z "$reference" ]; then
      reference=$out
    elif ! diff -r -q "$reference" "$out" >/dev/null; then
      echo "  $config: outputs differ from $(basename "$reference"):"
      diff -r -q "$reference" "$out" | sed 's/^/    /' || true
      failed=1
    fi
  done
done
if [ "$failed" -ne 0 ]; then
  echo "determinism: FAILED"
  exit 1
fi
echo "determinism: every configuration passed, light model outputs identical byte for byte"
