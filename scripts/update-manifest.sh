#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the conformance manifests (tests/conformance/*.manifest) from the current build:
# every test of ../shared/onnx-backend-tests/{node,simple,pytorch-converted,pytorch-operator,light}
# is run as `onnxtool test` runs it, and its line becomes "NAME pass" or "NAME xfail: REASON".
# Run it after adding kernels (the conformance suite fails when an xfail starts passing), then
# review `git diff tests/conformance`. BUILD_DIR (default build) picks the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake --build "$build" -j2 --target test_conformance onnxtool >/dev/null
ONNXTOOL_UPDATE_MANIFEST=1 "$build/tests/test_conformance" --test-case='conformance:*' |
  grep -E '^[a-z-]+: [0-9]+ passed'
git status --short tests/conformance
