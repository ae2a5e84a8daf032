#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates completions/ from the command tree of build/onnxtool.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j2 --target onnxtool >/dev/null
build/onnxtool completions bash > completions/onnxtool.bash
build/onnxtool completions zsh > completions/_onnxtool
build/onnxtool completions fish > completions/onnxtool.fish
git status --short completions
