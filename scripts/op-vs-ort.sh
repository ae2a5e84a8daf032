#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One-node models of the operators real exports lean on, each run by onnxtool and by ONNX Runtime
# (../shared/tools/ort/bench.mjs) in turn: the minimum per run of each and their ratio, the worst
# first. A survey for kernels that fell behind (a loop left scalar, a message built per element),
# not a benchmark of whole models: ORT's figure includes its per-run output allocation, so
# ratios well under 1 mean little; ratios over 1 point at something to look at.
#
#   scripts/op-vs-ort.sh [--threads N] [--runs N] [--only REGEX]
#
# Needs build/onnxtool and node with the harness (bash ../shared/tools/ort/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${ONNXTOOL:-$root/build/onnxtool}
bench=$root/../shared/tools/ort/bench.mjs
threads=1 runs=20 only=.
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: $0 [--threads N] [--runs N] [--only REGEX]" >&2; exit 2 ;;
  esac
done
[ -x "$tool" ] || { echo "$0: no $tool (build first)" >&2; exit 1; }
[ -f "$bench" ] || { echo "$0: no $bench" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|opset|inputs|outputs|node(s)
cases=(
  "tanh|13|float[1,128,3072] x|float[1,128,3072] y|y = Tanh (x)"
  "exp|13|float[1,128,3072] x|float[1,128,3072] y|y = Exp (x)"
  "erf|13|float[1,128,3072] x|float[1,128,3072] y|y = Erf (x)"
  "gelu|20|float[1,128,3072] x|float[1,128,3072] y|y = Gelu (x)"
  "gelu_tanh|20|float[1,128,3072] x|float[1,128,3072] y|y = Gelu <approximate = \"tanh\"> (x)"
  "sigmoid|13|float[1,64,112,112] x|float[1,64,112,112] y|y = Sigmoid (x)"
  "softmax|13|float[12,128,128] x|float[12,128,128] y|y = Softmax <axis = -1> (x)"
  "logsoftmax|13|float[128,3072] x|float[128,3072] y|y = LogSoftmax <axis = -1> (x)"
  "layernorm|17|float[1,128,768] x, float[768] g, float[768] b|float[1,128,768] y|y = LayerNormalization <axis = -1> (x, g, b)"
  "reducemean_last|13|float[1,128,768] x|float[1,128,1] y|y = ReduceMean <axes = [-1]> (x)"
  "reducemax_all|13|float[1,192,28,28] x|float y|y = ReduceMax <keepdims = 0> (x)"
  "einsum_scores|12|float[1,12,128,64] a, float[1,12,128,64] b|float[1,12,128,128] y|y = Einsum <equation = \"bhid,bhjd->bhij\"> (a, b)"
  "matmul_batched|13|float[12,128,64] a, float[12,64,128] b|float[12,128,128] y|y = MatMul (a, b)"
  "transpose_heads|13|float[1,128,12,64] x|float[1,12,128,64] y|y = Transpose <perm = [0, 2, 1, 3]> (x)"
  "gather_elements|13|float[64,1024] x, int64[64,1024] i|float[64,1024] y|y = GatherElements <axis = 1> (x, i)"
  "resize_linear|13|float[1,64,56,56] x|float[1,64,112,112] y|s = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()\n  y = Resize <mode = \"linear\"> (x, \"\", s)"
  "maxpool_3x3_s1|13|float[1,1024,7,7] x|float[1,1024,7,7] y|y = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x)"
  "avgpool_3x3_s1|13|float[1,256,28,28] x|float[1,256,28,28] y|y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x)"
  "maxpool_3x3_s2|13|float[1,64,112,112] x|float[1,64,56,56] y|y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x)"
  "concat|13|float[1,64,56,56] a, float[1,64,56,56] b|float[1,128,56,56] y|y = Concat <axis = 1> (a, b)"
  "where|13|bool[1,12,128,128] c, float[1,12,128,128] a, float[1,1,1,128] b|float[1,12,128,128] y|y = Where (c, a, b)"
  "argmax_last|13|float[128,3072] x|int64[128,1] y|y = ArgMax <axis = -1> (x)"
  "topk|13|float[64,8192] x|float[64,100] v, int64[64,100] i|k = Constant <value = int64[1] {100}> ()\n  v, i = TopK <axis = -1> (x, k)"
  "cumsum|13|float[64,8192] x|float[64,8192] y|a = Constant <value = int64 {1}> ()\n  y = CumSum (x, a)"
  "depth_to_space|13|float[1,256,56,56] x|float[1,64,112,112] y|y = DepthToSpace <blocksize = 2> (x)"
  "instance_norm|13|float[1,64,112,112] x, float[64] g, float[64] b|float[1,64,112,112] y|y = InstanceNormalization (x, g, b)"
  "mvn|13|float[1,64,56,56] x|float[1,64,56,56] y|y = MeanVarianceNormalization (x)"
  "grid_sample|16|float[1,64,56,56] x, float[1,56,56,2] g|float[1,64,56,56] y|y = GridSample (x, g)"
)

printf '%-18s %10s %10s %7s\n' operator "onnxtool" "ORT" ratio
for c in "${cases[@]}"; do
  IFS='|' read -r name opset ins outs body <<<"$c"
  [[ $name =~ $only ]] || continue
  ir=8 # the IR version IR.md pairs with the opset: 8 up to opset 18, 9 for 19 and 20
  ((opset >= 19)) && ir=9
  printf '<ir_version: %s, opset_import: ["" : %s]>\ng (%s) => (%s) {\n  %b\n}\n' \
    "$ir" "$opset" "$ins" "$outs" "$body" >"$work/$name.onnxtxt"
  if ! "$tool" -q convert "$work/$name.onnxtxt" "$work/$name.onnx" 2>"$work/err"; then
    printf '%-18s %s\n' "$name" "not converted: $(head -1 "$work/err")"
    continue
  fi
  ours=$("$tool" --threads "$threads" run "$work/$name.onnx" --random-inputs --bench "$runs" 2>&1 |
    sed -n 's/^bench:.* min \([0-9.]*\) ms.*/\1/p')
  theirs=$(node "$bench" "$work/$name.onnx" --warmup 3 --runs "$runs" --threads "$threads" 2>/dev/null |
    tail -1 | sed -n 's/.*"min_ms":\([0-9.]*\).*/\1/p')
  awk -v n="$name" -v o="${ours:-nan}" -v t="${theirs:-nan}" \
    'BEGIN { r = (t + 0 > 0 && o + 0 > 0) ? o / t : 0; printf "%-18s %10s %10s %7.2f\n", n, o, t, r }'
done | sort -k4 -n -r
