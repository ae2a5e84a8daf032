#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds onnxtool (the program only: scripts/setup.sh) and shows its main job on the bundled
# sample model, briefly: check, info, shape-infer, run with an .npy input, convert to text.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
model=testdata/models/sample.onnxtxt
input=testdata/models/sample_input.npy
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
show() {
  echo
  echo "\$ onnxtool $*"
  build/onnxtool "$@"
}
show check "$model"
show info "$model"
show shape-infer "$model" "$out/sample.inferred.onnx"
show run "$model" "$input"
show convert "$model" "$out/sample.onnx"
show convert "$out/sample.onnx" -
