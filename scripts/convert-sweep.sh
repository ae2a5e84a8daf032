#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole opset conversion sweep: every backend node test that passes as stored, converted to
# every ai.onnx opset from 7 to 28 and back, checked and run against its expected outputs
# (tests/conformance/test_convert_sweep.cpp; CI runs every 24th test). Prints the table of
# converted (a), refused as impossible (b), refused as approximate or for want of an adapter
# (n) and failed (c) per target; c must be 0.
#   scripts/convert-sweep.sh            # BUILD_DIR=build by default; about 15 minutes here
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
ONNXTOOL_CONVERT_SWEEP=full "$build/tests/test_conformance" \
  -tc="every passing backend node test converts*" "$@"
