#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Side by side: node counts after `onnxtool simplify`, and after Debian's onnx 1.12
`onnx.shape_inference.infer_shapes` (python3-onnx) followed by the same simplify, on the light,
pytorch-converted and pytorch-operator backend models and on the models of a directory
(scripts/gen-bench-models.py OUT). The second column shows what onnx's own shape inference adds
to our folding: shapes it writes into value_info that our inference alone would not know.

A measurement, not a test: the product and its tests never need Python.
    scripts/compare-simplify-onnx.py [--build build] [--models DIR] [--check N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES = ["light", "pytorch-converted", "pytorch-operator"]


def backend_models():
    base = os.path.join(ROOT, "..", "shared", "onnx-backend-tests")
    for suite in SUITES:
        folder = os.path.join(base, suite)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if suite == "light" and name.endswith(".onnx"):
                yield suite, name[:-5], path
            elif os.path.isfile(os.path.join(path, "model.onnx")):
                yield suite, name, os.path.join(path, "model.onnx")


def simplify(tool, model, out, check):
    cmd = [tool, "--json", "simplify", model, out]
    if check:
        cmd += ["--check", str(check)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
    return json.loads(r.stdout), ""


def onnx_inferred(model, out):
    import onnx
    from onnx import shape_inference
    try:
        m = onnx.load(model)
        onnx.save(shape_inference.infer_shapes(m), out)
        return ""
    except Exception as e:  # onnx 1.12 refuses newer opsets and some models
        return type(e).__name__ + ": " + str(e).splitlines()[0][:80]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", help="a directory of .onnx models (scripts/gen-bench-models.py)")
    ap.add_argument("--check", type=int, default=1)
    args = ap.parse_args()
    tool = os.path.join(args.build, "onnxtool")
    models = list(backend_models())
    if args.models:
        models += [("bench", n[:-5], os.path.join(args.models, n))
                   for n in sorted(os.listdir(args.models)) if n.endswith(".onnx")]
    print("| suite | model | nodes | simplify | onnx 1.12 infer_shapes + simplify |")
    print("|---|---|---|---|---|")
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for suite, name, path in models:
            ours, why = simplify(tool, path, os.path.join(tmp, "a.onnx"), args.check)
            inferred = os.path.join(tmp, "inferred.onnx")
            onnx_why = onnx_inferred(path, inferred)
            theirs, why2 = (None, onnx_why) if onnx_why else simplify(
                tool, inferred, os.path.join(tmp, "b.onnx"), args.check)
            before = ours["nodes_before"] if ours else "?"
            a = ours["nodes_after"] if ours else "failed: " + why
            b = theirs["nodes_after"] if theirs else "(" + why2 + ")"
            print("| %s | %s | %s | %s | %s |" % (suite, name, before, a, b))
            if ours and theirs:
                totals[0] += ours["nodes_before"]
                totals[1] += ours["nodes_after"]
                totals[2] += theirs["nodes_after"]
            sys.stdout.flush()
    print("| all | (where both ran) | %d | %d | %d |" % tuple(totals))


if __name__ == "__main__":
    main()
