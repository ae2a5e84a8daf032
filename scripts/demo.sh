#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds onnxtool and runs its main job on the bundled sample model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
model=testdata/models/sample.onnxtxt
echo "\$ build/onnxtool info $model"
build/onnxtool info "$model"
