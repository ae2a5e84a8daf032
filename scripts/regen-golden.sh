#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rewrites the golden CLI transcripts (tests/golden/transcripts/*.txt) from the current build.
# To add one: create NAME.txt holding just the line "$ onnxtool ARGS...", then run this.
# Review `git diff tests/golden` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j2 --target test_golden onnxtool >/dev/null
ONNXTOOL_REGEN_GOLDEN=1 build/tests/test_golden >/dev/null
git status --short tests/golden
