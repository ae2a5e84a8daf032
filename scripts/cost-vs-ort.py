#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""`info --cost` against a count made from ONNX Runtime's own shapes: every value of each light
model is made a graph output (`onnxtool convert --expose-values`), ORT runs it
(../shared/tools/ort/run_npy.mjs), and the multiply-accumulates of every Conv and Gemm are counted
from the shapes ORT computed: Conv  numel(Y) x W[1] x prod(W[2:]);  Gemm  numel(Y) x K, K the
inner dimension of A (transA honoured). No shape comes from onnxtool's inference.

A measurement, not a test: the product and its tests never need Python or ORT.
    scripts/cost-vs-ort.py [--build build]      (needs python3-onnx and ../shared/tools/ort/setup.sh)
"""
import argparse
import json
import os
import struct
import subprocess
import tempfile

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIGHT = os.path.join(ROOT, "..", "shared", "onnx-backend-tests", "light")
RUN_NPY = os.path.join(ROOT, "..", "shared", "tools", "ort", "run_npy.mjs")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def ort_shapes(model, out_dir):
    subprocess.run(["node", RUN_NPY, model, out_dir], check=True, capture_output=True)
    with open(os.path.join(out_dir, "outputs.json")) as f:
        return {o["name"]: o["dims"] for o in json.load(f)["outputs"]}


def hand_count(model_path, shapes):
    m = onnx.load(model_path)
    inits = {t.name: list(t.dims) for t in m.graph.initializer}
    for v in m.graph.input:
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        shapes.setdefault(v.name, dims)

    def shape(name):
        return shapes.get(name, inits.get(name))

    macs = 0
    for n in m.graph.node:
        if n.op_type == "Conv":
            y, w = shape(n.output[0]), shape(n.input[1])
            macs += prod(y) * w[1] * prod(w[2:])
        elif n.op_type == "Gemm":
            a, y = shape(n.input[0]), shape(n.output[0])
            trans_a = any(at.name == "transA" and at.i for at in n.attribute)
            macs += prod(y) * (a[0] if trans_a else a[-1])
    return macs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    tool = os.path.join(args.build, "onnxtool")
    print("| model | info --cost MACs | from ORT's shapes | difference |")
    print("|---|---|---|---|")
    for name in sorted(os.listdir(LIGHT)):
        if not name.endswith(".onnx"):
            continue
        path = os.path.join(LIGHT, name)
        with tempfile.TemporaryDirectory() as tmp:
            exposed = os.path.join(tmp, "exposed.onnx")
            subprocess.run([tool, "-q", "convert", path, exposed, "--expose-values"], check=True)
            reference = hand_count(path, ort_shapes(exposed, os.path.join(tmp, "ort")))
        cost = json.loads(subprocess.run([tool, "--json", "info", "--cost", path], check=True,
                                         capture_output=True, text=True).stdout)["cost"]["macs"]
        diff = (cost - reference) / reference * 100 if reference else float("nan")
        print("| %s | %d | %d | %+.3f %% |" % (name[6:-5], cost, reference, diff))


if __name__ == "__main__":
    main()
