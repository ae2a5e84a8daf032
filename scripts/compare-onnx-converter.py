#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Side by side: onnxtool convert --opset and Debian's onnx (python3-onnx, 1.12) version converter,
on every passing backend node test whose own opset is at most 17 (what onnx 1.12 knows), to every
target opset from 7 to 17. A conversion counts as correct when the converted model passes
`onnxtool check` and `onnxtool test` gives the test's expected outputs on it. onnx's converter
runs in a child process per test, so that a crash (a signal) is counted, not fatal.

A measurement, not a test: the product and its tests never need Python.
    scripts/compare-onnx-converter.py [--every N] [--build build]
"""
import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = os.path.join(ROOT, "..", "shared", "onnx-backend-tests", "node")
TARGETS = list(range(7, 18))

ONNX_CHILD = r"""
import sys, onnx
from onnx import version_converter
model = onnx.load(sys.argv[1])
out_dir = sys.argv[2]
for t in [int(x) for x in sys.argv[3:]]:
    try:
        converted = version_converter.convert_version(model, t)
        onnx.save(converted, f"{out_dir}/{t}.onnx")
        print(f"{t} ok", flush=True)
    except Exception as e:
        print(f"{t} error {type(e).__name__}", flush=True)
"""


def passing_tests():
    names = []
    with open(os.path.join(ROOT, "tests", "conformance", "node.manifest")) as f:
        for line in f:
            parts = line.split(" ", 1)
            if len(parts) == 2 and parts[1].strip() == "pass":
                names.append(parts[0])
    return names


def own_opset(onnxtool, model):
    r = subprocess.run([onnxtool, "--json", "info", model], capture_output=True, text=True)
    try:
        for o in json.loads(r.stdout)["opset_import"]:
            if o["domain"] in ("", "ai.onnx"):
                return o["version"]
    except (ValueError, KeyError):
        pass
    return None


def correct(onnxtool, test_dir, model, work):
    """Whether `model` checks clean and reproduces the test's expected outputs."""
    if subprocess.run([onnxtool, "-q", "check", model], capture_output=True).returncode != 0:
        return False
    case = os.path.join(work, "case")
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    shutil.copy(model, os.path.join(case, "model.onnx"))
    for d in os.listdir(test_dir):
        if d.startswith("test_data_set"):
            os.symlink(os.path.join(test_dir, d), os.path.join(case, d))
    r = subprocess.run([onnxtool, "test", case, "--timeout", "60"], capture_output=True)
    return r.returncode == 0


def compare_one(args):
    name, onnxtool = args
    test_dir = os.path.join(NODE, name)
    model = os.path.join(test_dir, "model.onnx")
    home = own_opset(onnxtool, model)
    if home is None or home > 17:
        return name, None
    result = {"onnx": {}, "ours": {}, "onnx_crash": False}
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "onnx")
        os.makedirs(out)
        r = subprocess.run([sys.executable, "-c", ONNX_CHILD, model, out] + [str(t) for t in TARGETS],
                           capture_output=True, text=True, timeout=600)
        done = {}
        for line in r.stdout.splitlines():
            t, status = line.split(" ", 1)
            done[int(t)] = status
        if r.returncode < 0:
            result["onnx_crash"] = True
        for t in TARGETS:
            status = done.get(t, "crash" if r.returncode < 0 else "error")
            if status == "ok":
                ok = correct(onnxtool, test_dir, os.path.join(out, f"{t}.onnx"), work)
                result["onnx"][t] = "correct" if ok else "wrong"
            else:
                result["onnx"][t] = "crash" if status == "crash" else "refused"
            mine = os.path.join(work, f"ours_{t}.onnx")
            c = subprocess.run([onnxtool, "-q", "convert", model, mine, "--opset", str(t)],
                               capture_output=True)
            if c.returncode < 0 or c.returncode == 4:
                result["ours"][t] = "crash"
            elif c.returncode != 0:
                result["ours"][t] = "refused"
            else:
                result["ours"][t] = "correct" if correct(onnxtool, test_dir, mine, work) else "wrong"
    return name, result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--every", type=int, default=1, help="take every Nth passing test")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = p.parse_args()
    onnxtool = os.path.join(a.build, "onnxtool")
    tests = passing_tests()[:: a.every]
    with multiprocessing.Pool(2) as pool:
        results = [r for r in pool.imap_unordered(compare_one, [(t, onnxtool) for t in tests])
                   if r[1] is not None]
    print(f"{len(results)} node tests with opset <= 17, targets 7-17 "
          f"(correct = passes check and the test's expected outputs)")
    print(f"{'target':>6} {'onnx correct':>13} {'ours correct':>13} {'onnx wrong':>11} "
          f"{'ours wrong':>11} {'onnx crash':>11} {'ours crash':>11}")
    totals = [0] * 6
    for t in TARGETS:
        row = [sum(1 for _, r in results if r[k][t] == v)
               for v, k in (("correct", "onnx"), ("correct", "ours"), ("wrong", "onnx"),
                            ("wrong", "ours"), ("crash", "onnx"), ("crash", "ours"))]
        totals = [x + y for x, y in zip(totals, row)]
        print(f"{t:>6} " + " ".join(f"{v:>{w}}" for v, w in zip(row, (13, 13, 11, 11, 11, 11))))
    print(f"{'all':>6} " + " ".join(f"{v:>{w}}" for v, w in zip(totals, (13, 13, 11, 11, 11, 11))))
    crashed = sorted(n for n, r in results if r["onnx_crash"])
    print(f"tests where onnx's converter crashed the process: {len(crashed)}")
    for n in crashed[:20]:
        print("  " + n)


if __name__ == "__main__":
    main()
