#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the checker's invalid fixtures and their valid twins.

Each fixture is a directory named after the rule it breaks, holding CASE.textproto (the model in
protobuf text format, every field explicit) and CASE.onnx (its bytes), with the valid twin beside
it as CASE.ok.textproto / CASE.ok.onnx. tests/unit/test_check_fixtures.cpp asserts that every
CASE.onnx is rejected with exactly that rule and every twin is accepted, and that the .onnx files
are what the .textproto files say.

The faults here are about exact proto fields (two value fields in one attribute, a tensor with
two storage forms, sparse indices, training bindings, sharding specs, ...) or about the bytes
themselves (a truncated file, a field given twice on the wire, external data); hence protobuf
text format rather than the ONNX textual syntax.

Where the ONNX textual syntax (Syntax.md) can express a fault, the fixture is written in it
instead: with --onnxtool PATH, each model is printed by `onnxtool convert` and kept as
CASE.onnxtxt / CASE.ok.onnxtxt when the text needs none of onnxtool's '%' extensions and parses
back to exactly the same model; otherwise the protobuf text and bytes stay.

Run from anywhere: testdata/bad/check/make_fixtures.py --onnxtool build/onnxtool  (needs protoc)
"""
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PROTO_DIR = os.path.join(ROOT, "proto")

FIXTURES = []  # (rule, case, bad, ok, options)


def fixture(rule, case, bad, ok, **options):
    FIXTURES.append((rule, case, bad, ok, options))


# ---- building blocks ---------------------------------------------------------------------------


def dims_text(dims):
    out = []
    for d in dims:
        if isinstance(d, str):
            out.append('dim { dim_param: "%s" }' % d)
        elif d is None:
            out.append("dim { }")
        else:
            out.append("dim { dim_value: %d }" % d)
    return " ".join(out)


def ttype(elem=1, dims=(2,)):
    if dims is None:
        return "type { tensor_type { elem_type: %d } }" % elem
    return "type { tensor_type { elem_type: %d shape { %s } } }" % (elem, dims_text(dims))


def vi(kind, name, elem=1, dims=(2,)):
    return '  %s { name: "%s" %s }\n' % (kind, name, ttype(elem, dims))


def node(op, inputs, outputs, name=None, domain=None, attrs="", extra=""):
    parts = []
    if name is not None:
        parts.append('name: "%s"' % name)
    if domain is not None:
        parts.append('domain: "%s"' % domain)
    parts.append('op_type: "%s"' % op)
    parts += ['input: "%s"' % i for i in inputs]
    parts += ['output: "%s"' % o for o in outputs]
    body = " ".join(parts)
    if attrs:
        body += " " + attrs
    if extra:
        body += " " + extra
    return "  node { %s }\n" % body


def header(ir=10, opsets=(("", 21),)):
    s = "ir_version: %d\n" % ir if ir is not None else ""
    for d, v in opsets:
        s += 'opset_import { domain: "%s" version: %d }\n' % (d, v)
    return s


def model(body, ir=10, opsets=(("", 21),), extra="", name="g"):
    g = 'graph {\n  name: "%s"\n%s}\n' % (name, body) if name is not None else "graph {\n%s}\n" % body
    return header(ir, opsets) + extra + g


RELU = vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"])
VALID = model(RELU)


def attr(name, kind, value):
    return 'attribute { name: "%s" type: %s %s }' % (name, kind, value)


def graph_attr(name, body, gname="body"):
    return 'attribute { name: "%s" type: GRAPH g { name: "%s"\n%s } }' % (name, gname, body)


def if_model(then_body, else_body=None, outer="", ir=10):
    """If(c) -> Y whose branches output r; then_body fills the then-branch."""
    if else_body is None:
        else_body = '  output { name: "r" }\n' + node("Neg", ["X"], ["r"])
    body = (vi("input", "c", 9, ()) + vi("input", "X") + vi("output", "Y") + outer +
            node("If", ["c"], ["Y"], name="if",
                 attrs=graph_attr("then_branch", then_body, "then") + " " +
                 graph_attr("else_branch", else_body, "else")))
    return model(body, ir=ir)


def tensor(name, elem, dims, data):
    d = " ".join("dims: %d" % x for x in dims)
    n = 'name: "%s" ' % name if name is not None else ""
    return "%sdata_type: %d %s %s" % (n, elem, d, data)


def init_model(t, out_elem=1, out_dims=(2,), ir=10, opsets=(("", 21),)):
    """An initializer W returned as the graph output."""
    return model("  initializer { %s }\n" % t + vi("output", "W", out_elem, out_dims), ir=ir,
                 opsets=opsets)


def fn(name, body, domain="local", inputs=("a",), outputs=("b",), extra="",
       opsets=(("", 21), ("local", 1))):
    s = 'functions {\n  name: "%s"\n' % name if name is not None else "functions {\n"
    if domain is not None:
        s += '  domain: "%s"\n' % domain
    s += "".join('  input: "%s"\n' % i for i in inputs)
    s += "".join('  output: "%s"\n' % o for o in outputs)
    s += "".join('  opset_import { domain: "%s" version: %d }\n' % o for o in opsets)
    s += extra + body + "}\n"
    return s


def fn_model(functions, call="F", ir=10, call_extra=""):
    body = vi("input", "X") + vi("output", "Y") + node(call, ["X"], ["Y"], domain="local",
                                                       extra=call_extra)
    return model(body, ir=ir, opsets=(("", 21), ("local", 1)), extra=functions)


F_RELU = node("Relu", ["a"], ["b"])

# ---- model -------------------------------------------------------------------------------------

fixture("model.no-graph", "no-graph", header(), VALID)
fixture("model.ir-version-missing", "no-ir-version", model(RELU, ir=None), VALID)
fixture("model.ir-version-unknown", "future-ir", model(RELU, ir=99), VALID)
OPT = "type { optional_type { elem_type { tensor_type { elem_type: 1 shape { } } } } }"
OPT_IO = '  input { name: "X" %s }\n  output { name: "X" %s }\n' % (OPT, OPT)
fixture("model.ir-version-too-old", "optional-type-ir7", model(OPT_IO, ir=7, opsets=(("", 13),)),
        model(OPT_IO, ir=8, opsets=(("", 15),)))
fixture("model.ir-version-too-old", "float8-ir8",
        init_model(tensor("W", 17, [2], "int32_data: 1 int32_data: 2"), out_elem=17, ir=8,
                   opsets=(("", 17),)),
        init_model(tensor("W", 17, [2], "int32_data: 1 int32_data: 2"), out_elem=17, ir=9,
                   opsets=(("", 19),)))
fixture("model.ir-version-too-old", "functions-ir7",
        fn_model(fn("F", F_RELU, opsets=(("", 13),)), ir=7).replace("version: 21", "version: 13"),
        fn_model(fn("F", F_RELU, opsets=(("", 13),)), ir=8).replace("version: 21", "version: 13"))
fixture("model.ir-version-too-old", "configuration-ir10",
        model(RELU, extra='configuration { name: "c" num_devices: 2 }\n'),
        model(RELU, ir=11, opsets=(("", 23),), extra='configuration { name: "c" num_devices: 2 }\n'))
fixture("model.ir-version-too-old", "int4-value-ir9",
        model(vi("input", "X", 22) + vi("output", "X", 22), ir=9, opsets=(("", 20),)),
        model(vi("input", "X", 22) + vi("output", "X", 22), ir=10, opsets=(("", 21),)))
fixture("model.opset-missing", "no-opset-import", model(RELU, opsets=()), VALID)
fixture("model.opset-before-ir3", "opset-at-ir2",
        model(vi("input", "X") + vi("output", "Y") + node("Neg", ["X"], ["Y"]), ir=2, opsets=(("", 1),)),
        model(vi("input", "X") + vi("output", "Y") + node("Neg", ["X"], ["Y"]), ir=2, opsets=()))
fixture("model.opset-duplicate", "default-domain-twice",
        model(RELU, opsets=(("", 21), ("ai.onnx", 21))), VALID)
fixture("model.opset-duplicate", "ml-twice",
        model(RELU, opsets=(("", 21), ("ai.onnx.ml", 5), ("ai.onnx.ml", 4))),
        model(RELU, opsets=(("", 21), ("ai.onnx.ml", 5))))
fixture("model.opset-unknown-version", "opset-29", model(RELU, opsets=(("", 29),)), VALID)
fixture("model.opset-unknown-version", "opset-0", model(RELU, opsets=(("", 0),)), VALID)
fixture("model.opset-newer-than-ir", "opset21-ir8", model(RELU, ir=8), VALID, strict=True)


def deep_model(depth):
    """Ifs nested so that the innermost branch is `depth` graphs below the main graph. Each
    else-branch is trivial, so the size grows linearly."""
    g = '  output { name: "r0" }\n' + node("Neg", ["X"], ["r0"])
    for k in range(1, depth + 1):
        out = "Y" if k == depth else "r%d" % k
        els = '  output { name: "q%d" }\n' % k + node("Neg", ["X"], ["q%d" % k])
        n = node("If", ["c"], [out], attrs=graph_attr("then_branch", g, "t%d" % k) + " " +
                 graph_attr("else_branch", els, "e%d" % k))
        g = n if k == depth else '  output { name: "r%d" }\n' % k + n
    return model(vi("input", "c", 9, ()) + vi("input", "X") + vi("output", "Y") + g)


fixture("model.too-deep", "subgraphs-31-deep", deep_model(31), deep_model(30))
fixture("metadata.duplicate-key", "model-metadata",
        model(RELU, extra='metadata_props { key: "k" value: "1" }\nmetadata_props { key: "k" value: "2" }\n'),
        model(RELU, extra='metadata_props { key: "k" value: "1" }\nmetadata_props { key: "j" value: "2" }\n'))

# ---- graph ---------------------------------------------------------------------------------------

fixture("graph.missing-name", "main-graph", model(RELU, name=None), VALID)
fixture("graph.missing-name", "subgraph",
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["r"])).replace('g { name: "then"\n', "g {\n"),
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["r"])))
fixture("value.missing-name", "output-without-name",
        model(vi("input", "X") + '  output { %s }\n' % ttype() + vi("output", "Y") + node("Relu", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"])))
fixture("graph.duplicate-input", "input-twice",
        model(vi("input", "X") + vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"])),
        model(vi("input", "X") + vi("input", "Z") + vi("output", "Y") + node("Relu", ["X"], ["Y"])))
W = tensor("W", 1, [2], "float_data: 1 float_data: 2")
fixture("graph.initializer-missing-name", "nameless",
        model(vi("input", "X") + vi("output", "Y") + "  initializer { %s }\n" % tensor(None, 1, [2], "float_data: 1 float_data: 2") + node("Relu", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + "  initializer { %s }\n" % W + node("Relu", ["X"], ["Y"])))
fixture("graph.duplicate-initializer", "dense-twice",
        init_model(W + " } initializer { " + W), init_model(W))
fixture("graph.duplicate-initializer", "dense-and-sparse",
        model("  initializer { %s }\n" % W + vi("output", "W") +
              '  sparse_initializer { values { name: "W" data_type: 1 dims: 1 float_data: 1 } '
              'indices { data_type: 7 dims: 1 int64_data: 0 } dims: 2 }\n'),
        model("  initializer { %s }\n" % W + vi("output", "W") +
              '  sparse_initializer { values { name: "V" data_type: 1 dims: 1 float_data: 1 } '
              'indices { data_type: 7 dims: 1 int64_data: 0 } dims: 2 }\n'))
fixture("graph.initializer-not-input", "ir3-constant",
        model("  initializer { %s }\n" % W + vi("output", "W"), ir=3, opsets=(("", 8),)),
        model(vi("input", "W") + "  initializer { %s }\n" % W + vi("output", "W"), ir=3, opsets=(("", 8),)))
K = 'initializer { name: "k" data_type: 1 dims: 2 float_data: 1 float_data: 2 }'
fixture("graph.subgraph-initializer-is-input", "then-branch",
        if_model('  input { name: "k" }\n  %s\n  output { name: "r" }\n' % K + node("Add", ["X", "k"], ["r"])),
        if_model('  %s\n  output { name: "r" }\n' % K + node("Add", ["X", "k"], ["r"])))
fixture("graph.initializer-type-mismatch", "element-type",
        model(vi("input", "W", 7) + "  initializer { %s }\n" % W + vi("output", "W", 7)),
        model(vi("input", "W", 1) + "  initializer { %s }\n" % W + vi("output", "W", 1)))
fixture("graph.initializer-type-mismatch", "rank",
        model(vi("input", "W", 1, (2, 1)) + "  initializer { %s }\n" % W + vi("output", "W", 1, (2, 1))),
        model(vi("input", "W", 1, ("N",)) + "  initializer { %s }\n" % W + vi("output", "W", 1, ("N",))))
fixture("graph.initializer-type-mismatch", "dim",
        model(vi("input", "W", 1, (3,)) + "  initializer { %s }\n" % W + vi("output", "W", 1, (3,))),
        model(vi("input", "W", 1, (2,)) + "  initializer { %s }\n" % W + vi("output", "W", 1, (2,))))
fixture("graph.ssa", "two-producers",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"]) + node("Neg", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["T"]) + node("Neg", ["T"], ["Y"])))
fixture("graph.ssa", "output-is-input",
        model(vi("input", "X") + vi("output", "X") + node("Relu", ["X"], ["X"])),
        model(vi("input", "X") + vi("output", "X2") + node("Relu", ["X"], ["X2"])).replace('"X2" type', '"X2" type'))
fixture("graph.ssa", "output-is-initializer",
        model(vi("input", "X") + vi("output", "W") + "  initializer { %s }\n" % W + node("Relu", ["X"], ["W"])),
        model(vi("input", "X") + vi("output", "V") + "  initializer { %s }\n" % W + node("Add", ["X", "W"], ["V"])))
fixture("graph.shadows-outer", "subgraph-output",
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["X"]) + node("Neg", ["X"], ["r"])),
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["X1"]) + node("Neg", ["X1"], ["r"])))
fixture("graph.shadows-outer", "subgraph-input",
        if_model('  input { name: "X" }\n  output { name: "r" }\n' + node("Neg", ["X"], ["r"])),
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["r"])))
fixture("graph.shadows-outer", "subgraph-initializer",
        if_model('  initializer { name: "X" data_type: 1 dims: 2 float_data: 1 float_data: 2 }\n  output { name: "r" }\n' + node("Neg", ["X"], ["r"])),
        if_model('  initializer { name: "X3" data_type: 1 dims: 2 float_data: 1 float_data: 2 }\n  output { name: "r" }\n' + node("Neg", ["X3"], ["r"])))
fixture("graph.undefined-input", "no-such-value",
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "nope"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "X"], ["Y"])))
fixture("graph.undefined-input", "subgraph",
        if_model('  output { name: "r" }\n' + node("Neg", ["nope"], ["r"])),
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["r"])))
fixture("graph.not-topological", "swapped",
        model(vi("input", "X") + vi("output", "Y") + node("Neg", ["T"], ["Y"], name="b") + node("Relu", ["X"], ["T"], name="a")),
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["T"], name="a") + node("Neg", ["T"], ["Y"], name="b")))


def late_value_model(late):
    relu = node("Relu", ["X"], ["L"], name="late")
    branch = '  output { name: "r" }\n' + node("Neg", ["L"], ["r"])
    iff = node("If", ["c"], ["Y"], name="if",
               attrs=graph_attr("then_branch", branch, "then") + " " +
               graph_attr("else_branch", branch, "else"))
    body = vi("input", "c", 9, ()) + vi("input", "X") + vi("output", "Y") + vi("output", "L")
    return model(body + (iff + relu if late else relu + iff))


fixture("graph.not-topological", "subgraph-uses-later-value", late_value_model(True),
        late_value_model(False))
fixture("graph.cycle", "two-nodes",
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "B"], ["A"], name="a") + node("Neg", ["A"], ["B"], name="b") + node("Relu", ["B"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "X"], ["A"], name="a") + node("Neg", ["A"], ["B"], name="b") + node("Relu", ["B"], ["Y"])))
fixture("graph.cycle", "self-loop",
        model(vi("input", "X") + vi("output", "A") + node("Add", ["X", "A"], ["A"])),
        model(vi("input", "X") + vi("output", "A") + node("Add", ["X", "X"], ["A"])))
fixture("graph.output-not-produced", "main",
        model(vi("input", "X") + vi("output", "Y") + vi("output", "Z") + node("Relu", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + vi("output", "Z") + node("Relu", ["X"], ["Y"]) + node("Neg", ["X"], ["Z"])))
fixture("graph.output-not-produced", "subgraph",
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["s"])),
        if_model('  output { name: "r" }\n' + node("Neg", ["X"], ["r"])))
fixture("graph.output-not-produced", "function",
        fn_model(fn("F", node("Relu", ["a"], ["c"]))), fn_model(fn("F", node("Relu", ["a"], ["b"]))))
fixture("graph.value-info-mismatch", "value-info-vs-input",
        model(RELU + vi("value_info", "X", 7)), model(RELU + vi("value_info", "X", 1)))
fixture("graph.value-info-mismatch", "value-info-vs-constant",
        model(vi("output", "C", 1, (3,)) + node("Constant", [], ["C"], attrs=attr("value_floats", "FLOATS", "floats: 1 floats: 2"))),
        model(vi("output", "C", 1, (2,)) + node("Constant", [], ["C"], attrs=attr("value_floats", "FLOATS", "floats: 1 floats: 2"))))
fixture("graph.duplicate-value-info", "twice",
        model(vi("input", "X") + vi("output", "Y") + vi("value_info", "T") + vi("value_info", "T") + node("Relu", ["X"], ["T"]) + node("Neg", ["T"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + vi("value_info", "T") + node("Relu", ["X"], ["T"]) + node("Neg", ["T"], ["Y"])),
        strict=True)
fixture("graph.value-info-unknown", "stray",
        model(RELU + vi("value_info", "Q")), model(RELU), strict=True)
fixture("graph.duplicate-node-name", "same-name",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["T"], name="n") + node("Neg", ["T"], ["Y"], name="n")),
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["T"], name="n") + node("Neg", ["T"], ["Y"], name="m")),
        strict=True)

# ---- types ---------------------------------------------------------------------------------------

fixture("type.missing", "input-without-type",
        model('  input { name: "X" }\n' + vi("output", "Y") + node("Relu", ["X"], ["Y"])), VALID)
fixture("type.missing-elem-type", "input",
        model('  input { name: "X" type { tensor_type { shape { dim { dim_value: 2 } } } } }\n' + vi("output", "Y") + node("Relu", ["X"], ["Y"])), VALID)
fixture("type.missing-elem-type", "sequence-output",
        model(vi("input", "X") + '  output { name: "S" type { sequence_type { } } }\n' + node("SequenceConstruct", ["X"], ["S"])),
        model(vi("input", "X") + '  output { name: "S" type { sequence_type { elem_type { tensor_type { elem_type: 1 } } } } }\n' + node("SequenceConstruct", ["X"], ["S"])))
fixture("type.missing-shape", "tensor-input",
        model(vi("input", "X", 1, None) + vi("output", "Y") + node("Relu", ["X"], ["Y"])), VALID)
fixture("type.missing-shape", "scalar-is-not-unknown",
        model(vi("input", "X", 1, ()) + vi("output", "Y", 1, None) + node("Relu", ["X"], ["Y"])),
        model(vi("input", "X", 1, ()) + vi("output", "Y", 1, ()) + node("Relu", ["X"], ["Y"])))
fixture("type.unknown-elem-type", "elem-type-99",
        model(vi("input", "X", 99) + vi("output", "X", 99)), model(vi("input", "X", 1) + vi("output", "X", 1)))
fixture("type.bad-map-key", "float-key",
        model('  input { name: "M" type { map_type { key_type: 1 value_type { tensor_type { elem_type: 1 } } } } }\n  output { name: "M" type { map_type { key_type: 1 value_type { tensor_type { elem_type: 1 } } } } }\n'),
        model('  input { name: "M" type { map_type { key_type: 7 value_type { tensor_type { elem_type: 1 } } } } }\n  output { name: "M" type { map_type { key_type: 7 value_type { tensor_type { elem_type: 1 } } } } }\n'))
fixture("type.negative-dim", "dim-minus-one",
        model(vi("input", "X", 1, (-1,)) + vi("output", "X", 1, (-1,))),
        model(vi("input", "X", 1, (None,)) + vi("output", "X", 1, (None,))))

# ---- nodes ---------------------------------------------------------------------------------------

fixture("node.missing-op-type", "empty-op-type",
        model(vi("input", "X") + vi("output", "Y") + '  node { input: "X" output: "Y" }\n'), VALID)
fixture("node.no-outputs", "custom-op-without-outputs",
        model(vi("input", "X") + vi("output", "X") + node("Log", ["X"], [], domain="com.example"),
              opsets=(("", 21), ("com.example", 1))),
        model(vi("input", "X") + vi("output", "X") + node("Log", ["X"], ["L"], domain="com.example"),
              opsets=(("", 21), ("com.example", 1))))
fixture("node.domain-not-imported", "ml-not-imported",
        model(vi("input", "X") + vi("output", "Y") + node("Normalizer", ["X"], ["Y"], domain="ai.onnx.ml")),
        model(vi("input", "X") + vi("output", "Y") + node("Normalizer", ["X"], ["Y"], domain="ai.onnx.ml"),
              opsets=(("", 21), ("ai.onnx.ml", 5))))
fixture("node.unknown-op", "misspelled",
        model(vi("input", "X") + vi("output", "Y") + node("Rellu", ["X"], ["Y"])), VALID)
fixture("node.unknown-op", "newer-than-opset",
        model(vi("input", "X") + vi("output", "Y") + node("Gelu", ["X"], ["Y"]), opsets=(("", 17),)),
        model(vi("input", "X") + vi("output", "Y") + node("Gelu", ["X"], ["Y"]), opsets=(("", 20),)))
fixture("node.unknown-op", "unknown-overload",
        fn_model(fn("F", F_RELU), call_extra='overload: "v2"'), fn_model(fn("F", F_RELU)))
fixture("node.deprecated-op", "upsample-10",
        model(vi("input", "X", 1, (1, 1, 2, 2)) + vi("input", "S", 1, (4,)) + vi("output", "Y", 1, (1, 1, 4, 4)) + node("Upsample", ["X", "S"], ["Y"]), opsets=(("", 10),)),
        model(vi("input", "X", 1, (1, 1, 2, 2)) + vi("input", "S", 1, (4,)) + vi("output", "Y", 1, (1, 1, 4, 4)) + node("Upsample", ["X", "S"], ["Y"]), opsets=(("", 9),)))
fixture("node.experimental-op", "upsample-1",
        model(vi("input", "X", 1, (1, 1, 2, 2)) + vi("output", "Y", 1, (1, 1, 4, 4)) + node("Upsample", ["X"], ["Y"], attrs=attr("height_scale", "FLOAT", "f: 2") + " " + attr("width_scale", "FLOAT", "f: 2")), ir=3, opsets=(("", 1),)),
        model(vi("input", "X", 1, (1, 1, 2, 2)) + vi("input", "S", 1, (4,)) + vi("output", "Y", 1, (1, 1, 4, 4)) + node("Upsample", ["X", "S"], ["Y"]), ir=4, opsets=(("", 9),)),
        strict=True)
fixture("node.input-arity", "relu-two-inputs",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X", "X"], ["Y"])), VALID)
fixture("node.input-arity", "add-one-input",
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "X"], ["Y"])))
fixture("node.input-arity", "function-call",
        fn_model(fn("F", F_RELU)).replace('input: "X" output: "Y"', 'input: "X" input: "X" output: "Y"'),
        fn_model(fn("F", F_RELU)))
fixture("node.output-arity", "relu-two-outputs",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y", "Z"])), VALID)
fixture("node.missing-input", "add-first-empty",
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["", "X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y") + node("Add", ["X", "X"], ["Y"])))
fixture("node.missing-output", "relu-empty-output",
        model(vi("input", "X") + vi("output", "X") + node("Relu", ["X"], [""])),
        model(vi("input", "X") + vi("output", "X") + node("Relu", ["X"], ["Z"])))
fixture("node.type-not-allowed", "sqrt-int64",
        model(vi("input", "X", 7) + vi("output", "Y", 1) + node("Sqrt", ["X"], ["Y"])),
        model(vi("input", "X", 1) + vi("output", "Y", 1) + node("Sqrt", ["X"], ["Y"])))
fixture("node.type-not-allowed", "reshape-float-shape",
        model(vi("input", "X", 1, (2, 2)) + vi("input", "S", 1, (1,)) + vi("output", "Y", 1, (4,)) + node("Reshape", ["X", "S"], ["Y"])),
        model(vi("input", "X", 1, (2, 2)) + vi("input", "S", 7, (1,)) + vi("output", "Y", 1, (4,)) + node("Reshape", ["X", "S"], ["Y"])))
fixture("node.type-not-allowed", "constant-float-shape",
        model(vi("input", "X", 1, (2, 2)) + vi("output", "Y", 1, (4,)) + node("Constant", [], ["S"], attrs=attr("value_floats", "FLOATS", "floats: 4")) + node("Reshape", ["X", "S"], ["Y"])),
        model(vi("input", "X", 1, (2, 2)) + vi("output", "Y", 1, (4,)) + node("Constant", [], ["S"], attrs=attr("value_ints", "INTS", "ints: 4")) + node("Reshape", ["X", "S"], ["Y"])))
fixture("node.type-inconsistent", "add-float-double",
        model(vi("input", "A", 1) + vi("input", "B", 11) + vi("output", "Y", 1) + node("Add", ["A", "B"], ["Y"])),
        model(vi("input", "A", 1) + vi("input", "B", 1) + vi("output", "Y", 1) + node("Add", ["A", "B"], ["Y"])))
fixture("node.type-inconsistent", "output-differs",
        model(vi("input", "X", 1) + vi("output", "Y", 11) + node("Relu", ["X"], ["Y"])), VALID)

# ---- attributes ----------------------------------------------------------------------------------

LEAKY_OK = model(vi("input", "X") + vi("output", "Y") + node("LeakyRelu", ["X"], ["Y"], attrs=attr("alpha", "FLOAT", "f: 0.5")))


def leaky(a):
    return model(vi("input", "X") + vi("output", "Y") + node("LeakyRelu", ["X"], ["Y"], attrs=a))


fixture("attr.missing-name", "nameless", leaky("attribute { type: FLOAT f: 0.5 }"), LEAKY_OK)
fixture("attr.duplicate", "alpha-twice",
        leaky(attr("alpha", "FLOAT", "f: 0.5") + " " + attr("alpha", "FLOAT", "f: 0.5")), LEAKY_OK)
fixture("attr.missing-type", "untyped", leaky('attribute { name: "alpha" f: 0.5 }'), LEAKY_OK)
fixture("attr.multiple-values", "f-and-i", leaky(attr("alpha", "FLOAT", "f: 0.5 i: 1")), LEAKY_OK)
fixture("attr.no-value", "float-without-f", leaky(attr("alpha", "FLOAT", "")), LEAKY_OK)
fixture("attr.value-type-mismatch", "float-in-i", leaky(attr("alpha", "FLOAT", "i: 1")), LEAKY_OK)
fixture("attr.unknown", "beta", leaky(attr("beta", "FLOAT", "f: 0.5")), LEAKY_OK)
fixture("attr.unknown", "function-call",
        fn_model(fn("F", F_RELU), call_extra=attr("k", "INT", "i: 1")),
        fn_model(fn("F", F_RELU, extra='  attribute: "k"\n'), call_extra=attr("k", "INT", "i: 1")))
fixture("attr.type-mismatch", "alpha-as-int", leaky(attr("alpha", "INT", "i: 1")), LEAKY_OK)
fixture("attr.type-mismatch", "perm-as-floats",
        model(vi("input", "X", 1, (2, 3)) + vi("output", "Y", 1, (3, 2)) + node("Transpose", ["X"], ["Y"], attrs=attr("perm", "FLOATS", "floats: 1 floats: 0"))),
        model(vi("input", "X", 1, (2, 3)) + vi("output", "Y", 1, (3, 2)) + node("Transpose", ["X"], ["Y"], attrs=attr("perm", "INTS", "ints: 1 ints: 0"))))
fixture("attr.missing-required", "cast-without-to",
        model(vi("input", "X") + vi("output", "Y", 7) + node("Cast", ["X"], ["Y"])),
        model(vi("input", "X") + vi("output", "Y", 7) + node("Cast", ["X"], ["Y"], attrs=attr("to", "INT", "i: 7"))))
fixture("attr.ref-outside-function", "main-graph",
        leaky('attribute { name: "alpha" type: FLOAT ref_attr_name: "a" }'), LEAKY_OK)
FN_LEAKY = node("LeakyRelu", ["a"], ["b"], attrs='attribute { name: "alpha" type: FLOAT ref_attr_name: "k" }')
fixture("attr.ref-with-value", "ref-and-f",
        fn_model(fn("F", FN_LEAKY.replace("ref_attr_name", "f: 1 ref_attr_name"), extra='  attribute: "k"\n')),
        fn_model(fn("F", FN_LEAKY, extra='  attribute: "k"\n')))
fixture("attr.ref-unknown", "undeclared",
        fn_model(fn("F", FN_LEAKY)), fn_model(fn("F", FN_LEAKY, extra='  attribute: "k"\n')))

# ---- tensors -------------------------------------------------------------------------------------

W_OK = init_model(W)
fixture("tensor.unknown-type", "unset", init_model(tensor("W", 0, [2], "float_data: 1 float_data: 2")), W_OK)
fixture("tensor.unknown-type", "type-99", init_model(tensor("W", 99, [2], "float_data: 1 float_data: 2")), W_OK)
fixture("tensor.bad-dims", "negative", init_model(tensor("W", 1, [-2], ""), out_dims=(None,)), W_OK)
fixture("tensor.bad-dims", "overflow",
        init_model(tensor("W", 1, [4294967296, 4294967296, 4], ""), out_dims=(None, None, None)), W_OK)
fixture("tensor.multiple-storage", "float-and-raw",
        init_model(tensor("W", 1, [2], 'float_data: 1 float_data: 2 raw_data: "\\000\\000\\000\\000\\000\\000\\000\\000"')), W_OK)
fixture("tensor.missing-data", "no-data", init_model(tensor("W", 1, [2], "")), W_OK)
fixture("tensor.missing-data", "2-pow-40-elements",
        init_model(tensor("W", 1, [1099511627776], ""), out_dims=(1099511627776,)),
        init_model(tensor("W", 1, [0], ""), out_dims=(0,)))
fixture("tensor.wrong-field-for-type", "int64-in-float-data",
        init_model(tensor("W", 7, [2], "float_data: 1 float_data: 2"), out_elem=7),
        init_model(tensor("W", 7, [2], "int64_data: 1 int64_data: 2"), out_elem=7))
fixture("tensor.wrong-field-for-type", "string-in-raw-data",
        init_model(tensor("W", 8, [1], 'raw_data: "a"'), out_elem=8, out_dims=(1,)),
        init_model(tensor("W", 8, [1], 'string_data: "a"'), out_elem=8, out_dims=(1,)))
fixture("tensor.size-mismatch", "float-data-short", init_model(tensor("W", 1, [2], "float_data: 1")), W_OK)
fixture("tensor.size-mismatch", "raw-data-short", init_model(tensor("W", 1, [2], 'raw_data: "\\000\\000\\200?"')),
        init_model(tensor("W", 1, [2], 'raw_data: "\\000\\000\\200?\\000\\000\\200?"')))
fixture("tensor.size-mismatch", "int4-packing",
        init_model(tensor("W", 22, [3], "int32_data: 1 int32_data: 2 int32_data: 3"), out_elem=22, out_dims=(3,)),
        init_model(tensor("W", 22, [3], "int32_data: 33 int32_data: 3"), out_elem=22, out_dims=(3,)))
fixture("tensor.size-mismatch", "attribute-tensor",
        model(vi("output", "C") + node("Constant", [], ["C"], attrs=attr("value", "TENSOR", "t { %s }" % tensor(None, 1, [2], "float_data: 1")))),
        model(vi("output", "C") + node("Constant", [], ["C"], attrs=attr("value", "TENSOR", "t { %s }" % tensor(None, 1, [2], "float_data: 1 float_data: 2")))))
fixture("tensor.value-out-of-range", "uint8-300",
        init_model(tensor("W", 2, [2], "int32_data: 1 int32_data: 300"), out_elem=2),
        init_model(tensor("W", 2, [2], "int32_data: 1 int32_data: 255"), out_elem=2))
fixture("string.not-utf8", "string-data",
        init_model(tensor("W", 8, [1], 'string_data: "\\377"'), out_elem=8, out_dims=(1,)),
        init_model(tensor("W", 8, [1], 'string_data: "\\303\\251"'), out_elem=8, out_dims=(1,)))
fixture("string.not-utf8", "attribute-string",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"], domain="com.example", attrs=attr("s", "STRING", 's: "\\300\\200"')),
              opsets=(("", 21), ("com.example", 1))),
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"], domain="com.example", attrs=attr("s", "STRING", 's: "ok"')),
              opsets=(("", 21), ("com.example", 1))))
fixture("string.not-utf8", "node-name",
        model(vi("input", "X") + vi("output", "Y") + node("Relu", ["X"], ["Y"], name="\\355\\240\\200")), VALID)


# ---- control flow: how a body fits its node (plain check, no inference) ---------------------

NEG_R = '  output { name: "r" %s }\n' % ttype() + node("Neg", ["X"], ["r"])
fixture("subgraph.arity", "if-branch-counts",
        if_model(NEG_R, NEG_R + '  output { name: "s" %s }\n' % ttype() + node("Abs", ["X"], ["s"])),
        if_model(NEG_R, NEG_R))
fixture("subgraph.arity", "if-more-outputs",
        if_model(NEG_R, NEG_R).replace('output: "Y"', 'output: "Y" output: "Z"').replace(
            vi("output", "Y"), vi("output", "Y") + vi("output", "Z")),
        if_model(NEG_R, NEG_R))


def loop_model(body_inputs):
    """Loop(M, c, X) -> Y; the body takes body_inputs and gives the condition and r."""
    body = "".join('  input { name: "%s" %s }\n' % (n, ttype(e, d)) for n, e, d in body_inputs)
    body += '  output { name: "co" %s }\n' % ttype(9, ()) + '  output { name: "r" %s }\n' % ttype()
    body += node("Identity", ["ci"], ["co"]) + node("Neg", ["v"], ["r"])
    return model(vi("input", "M", 7, ()) + vi("input", "c", 9, ()) + vi("input", "X") +
                 vi("output", "Y") +
                 node("Loop", ["M", "c", "X"], ["Y"], name="loop", attrs=graph_attr("body", body)))


LOOP_INPUTS = [("i", 7, ()), ("ci", 9, ()), ("v", 1, (2,))]
fixture("subgraph.arity", "loop-body-inputs", loop_model(LOOP_INPUTS + [("extra", 1, (2,))]),
        loop_model(LOOP_INPUTS))


def scan_model(extra_output):
    """Scan-16 over X [3,2] with one state S: the body gives the state and one scan output."""
    body = ('  input { name: "s" %s }\n  input { name: "x" %s }\n' % (ttype(1, (2,)), ttype(1, (2,))) +
            '  output { name: "so" %s }\n  output { name: "y" %s }\n' % (ttype(1, (2,)), ttype(1, (2,))) +
            node("Add", ["s", "x"], ["so"]) + node("Identity", ["so"], ["y"]))
    if extra_output:
        body += '  output { name: "z" %s }\n' % ttype(1, (2,)) + node("Neg", ["x"], ["z"])
    return model(vi("input", "S") + vi("input", "X", 1, (3, 2)) + vi("output", "SF") +
                 vi("output", "YS", 1, (3, 2)) +
                 node("Scan", ["S", "X"], ["SF", "YS"], name="scan",
                      attrs=attr("num_scan_inputs", "INT", "i: 1") + " " + graph_attr("body", body)))


fixture("subgraph.arity", "scan-body-outputs", scan_model(True), scan_model(False))
NEG_R_INT = '  output { name: "r" %s }\n' % ttype(7) + node("Shape", ["X"], ["r"])
fixture("subgraph.branch-types", "float-and-int64", if_model(NEG_R, NEG_R_INT), if_model(NEG_R, NEG_R))
fixture("tensor.bad-bool", "raw-byte-2",
        init_model(tensor("W", 9, [2], 'raw_data: "\\001\\002"'), out_elem=9),
        init_model(tensor("W", 9, [2], 'raw_data: "\\001\\000"'), out_elem=9))
# The text format cannot spell an enum value outside the enum: the DEFAULT (0) of the tensor's
# data_location field (tag 0x70) is replaced by 5 in the bytes.
fixture("tensor.bad-data-location", "five",
        init_model(tensor("W", 7, [2], "int64_data: 1 int64_data: 2 data_location: DEFAULT"), out_elem=7),
        init_model(tensor("W", 7, [2], "int64_data: 1 int64_data: 2 data_location: DEFAULT"), out_elem=7),
        patch=(b"\x70\x00", b"\x70\x05"))


def sparse_model(s, out_dims=(None,)):
    return model("  sparse_initializer { %s }\n" % s + vi("output", "S", 1, out_dims))


SV = 'values { name: "S" data_type: 1 dims: 2 float_data: 1 float_data: 2 }'
SI = "indices { data_type: 7 dims: 2 int64_data: 0 int64_data: 3 }"
SPARSE_OK = sparse_model(SV + " " + SI + " dims: 4")


def sparse_constant(s):
    return model(vi("output", "C", 1, (None,)) +
                 node("Constant", [], ["C"], attrs="attribute { name: \"sparse_value\" type: SPARSE_TENSOR sparse_tensor { %s } }" % s))


fixture("sparse.missing-values", "no-values", sparse_constant(SI + " dims: 4"),
        sparse_constant(SV + " " + SI + " dims: 4"))
fixture("sparse.values-rank", "rank-2",
        sparse_model('values { name: "S" data_type: 1 dims: 2 dims: 1 float_data: 1 float_data: 2 } ' + SI + " dims: 4"), SPARSE_OK)
fixture("sparse.bad-dims", "no-dims", sparse_model(SV + " " + SI), SPARSE_OK)
fixture("sparse.bad-dims", "zero-dim", sparse_model(SV + " " + SI + " dims: 0"), SPARSE_OK)
fixture("sparse.missing-indices", "no-indices", sparse_model(SV + " dims: 4"), SPARSE_OK)
fixture("sparse.indices-type", "int32-indices",
        sparse_model(SV + " indices { data_type: 6 dims: 2 int32_data: 0 int32_data: 3 } dims: 4"), SPARSE_OK)
fixture("sparse.indices-shape", "wrong-count",
        sparse_model(SV + " indices { data_type: 7 dims: 3 int64_data: 0 int64_data: 1 int64_data: 3 } dims: 4"), SPARSE_OK)
fixture("sparse.indices-shape", "wrong-rank",
        sparse_model(SV + " indices { data_type: 7 dims: 2 dims: 2 int64_data: 0 int64_data: 0 int64_data: 0 int64_data: 1 } dims: 4"), SPARSE_OK)
fixture("sparse.index-out-of-range", "linear",
        sparse_model(SV + " indices { data_type: 7 dims: 2 int64_data: 0 int64_data: 4 } dims: 4"), SPARSE_OK)
fixture("sparse.index-out-of-range", "coordinates",
        sparse_model(SV + " indices { data_type: 7 dims: 2 dims: 2 int64_data: 0 int64_data: 0 int64_data: 1 int64_data: 2 } dims: 2 dims: 2", out_dims=(None, None)),
        sparse_model(SV + " indices { data_type: 7 dims: 2 dims: 2 int64_data: 0 int64_data: 0 int64_data: 1 int64_data: 1 } dims: 2 dims: 2", out_dims=(None, None)))
fixture("sparse.indices-unsorted", "descending",
        sparse_model(SV + " indices { data_type: 7 dims: 2 int64_data: 3 int64_data: 0 } dims: 4"), SPARSE_OK)
fixture("sparse.indices-unsorted", "repeated",
        sparse_model(SV + " indices { data_type: 7 dims: 2 int64_data: 1 int64_data: 1 } dims: 4"), SPARSE_OK)

# ---- functions -----------------------------------------------------------------------------------

F_OK = fn_model(fn("F", F_RELU))
fixture("function.missing-name", "nameless", fn_model(fn("F", F_RELU) + fn(None, F_RELU)), F_OK)
fixture("function.missing-domain", "no-domain",
        fn_model(fn("F", F_RELU) + fn("G", F_RELU, domain=None)), fn_model(fn("F", F_RELU) + fn("G", F_RELU)))
fixture("function.duplicate", "same-identity", fn_model(fn("F", F_RELU) + fn("F", F_RELU)),
        fn_model(fn("F", F_RELU) + fn("F", F_RELU, extra='  overload: "v2"\n')))
fixture("function.duplicate-input", "a-twice", fn_model(fn("F", F_RELU, inputs=("a", "a"))), F_OK)
fixture("function.duplicate-output", "b-twice", fn_model(fn("F", F_RELU, outputs=("b", "b"))), F_OK)
fixture("function.duplicate-attribute", "k-twice",
        fn_model(fn("F", F_RELU, extra='  attribute: "k"\n  attribute: "k"\n')),
        fn_model(fn("F", F_RELU, extra='  attribute: "k"\n')))
fixture("function.attribute-overlap", "k-in-both",
        fn_model(fn("F", F_RELU, extra='  attribute: "k"\n  attribute_proto { name: "k" type: INT i: 1 }\n')),
        fn_model(fn("F", F_RELU, extra='  attribute_proto { name: "k" type: INT i: 1 }\n')))
fixture("function.recursive", "self",
        fn_model(fn("F", node("F", ["a"], ["b"], domain="local"))), F_OK)
fixture("function.recursive", "mutual",
        fn_model(fn("F", node("G", ["a"], ["b"], domain="local")) + fn("G", node("F", ["a"], ["b"], domain="local"))),
        fn_model(fn("F", node("G", ["a"], ["b"], domain="local")) + fn("G", F_RELU)))
fixture("function.opset-mismatch", "relu-12-vs-21",
        fn_model(fn("F", F_RELU, opsets=(("", 12), ("local", 1)))),
        fn_model(fn("F", F_RELU, opsets=(("", 14), ("local", 1)))))

# ---- training info -------------------------------------------------------------------------------

TRAIN_MAIN = (vi("input", "X", 1, (1,)) + vi("output", "Y", 1, (1,)) +
              '  initializer { name: "W" data_type: 1 dims: 1 float_data: 1 }\n' + node("Add", ["X", "W"], ["Y"]))
INIT_G = ('initialization { name: "init" output { name: "W0" } node { op_type: "Constant" output: "W0" '
          'attribute { name: "value_floats" type: FLOATS floats: 0 } } }')
ALGO_G = ('algorithm { name: "algo" output { name: "W1" } node { op_type: "Add" input: "W" input: "Y" output: "W1" } }')


def training(info):
    return model(TRAIN_MAIN) + "training_info { %s }\n" % info


TRAIN_OK = training(INIT_G + " " + ALGO_G + ' initialization_binding { key: "W" value: "W0" } update_binding { key: "W" value: "W1" }')
fixture("training.missing-initialization", "binding-without-graph",
        training(ALGO_G + ' initialization_binding { key: "W" value: "W0" } update_binding { key: "W" value: "W1" }'), TRAIN_OK)
fixture("training.duplicate-binding", "w-twice",
        training(INIT_G + " " + ALGO_G + ' initialization_binding { key: "W" value: "W0" } update_binding { key: "W" value: "W1" } update_binding { key: "W" value: "W1" }'),
        TRAIN_OK)
fixture("training.binding-unknown-key", "input-not-initializer",
        training(INIT_G + " " + ALGO_G + ' initialization_binding { key: "X" value: "W0" } update_binding { key: "W" value: "W1" }'), TRAIN_OK)
fixture("training.binding-unknown-value", "not-an-output",
        training(INIT_G + " " + ALGO_G + ' initialization_binding { key: "W" value: "W0" } update_binding { key: "W" value: "W9" }'), TRAIN_OK)
fixture("training.binding-unknown-value", "no-algorithm",
        training(INIT_G + ' initialization_binding { key: "W" value: "W0" } update_binding { key: "W" value: "W1" }'),
        training(INIT_G + ' initialization_binding { key: "W" value: "W0" }'))

# ---- devices -------------------------------------------------------------------------------------

DEV_IO = vi("input", "X", 1, (4, 4)) + vi("output", "Y", 1, (4, 4))
TWO = 'configuration { name: "two" num_devices: 2 }\n'


def dev_model(configs, node_config=""):
    return model(DEV_IO + node("Relu", ["X"], ["Y"], extra=node_config), ir=11, opsets=(("", 23),), extra=configs)


def spec(body, cid="two", tensor_name="X"):
    return ('device_configurations { configuration_id: "%s" sharding_spec { tensor_name: "%s" %s } }' % (cid, tensor_name, body))


SPLIT = "device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 2 } }"
DEV_OK = dev_model(TWO, spec(SPLIT))
fixture("device.missing-name", "nameless", dev_model('configuration { num_devices: 2 }\n'), dev_model(TWO))
fixture("device.duplicate-name", "two-twice", dev_model(TWO + TWO), dev_model(TWO))
fixture("device.bad-num-devices", "zero", dev_model('configuration { name: "two" num_devices: 0 }\n'), dev_model(TWO))
fixture("device.bad-num-devices", "absent", dev_model('configuration { name: "two" }\n'), dev_model(TWO))
fixture("device.device-count", "one-name-two-devices",
        dev_model('configuration { name: "two" num_devices: 2 device: "gpu0" }\n'),
        dev_model('configuration { name: "two" num_devices: 2 device: "gpu0" device: "gpu1" }\n'))
fixture("device.unknown-configuration", "three", dev_model(TWO, spec(SPLIT, cid="three")), DEV_OK)
fixture("sharding.unknown-tensor", "not-an-io", dev_model(TWO, spec(SPLIT, tensor_name="Q")), DEV_OK)
fixture("sharding.device-out-of-range", "device-5",
        dev_model(TWO, spec("device: 0 device: 5 sharded_dim { axis: 0 simple_sharding { num_shards: 2 } }")), DEV_OK)
fixture("sharding.device-out-of-range", "group-member",
        dev_model(TWO, spec("device: -1 index_to_device_group_map { key: -1 value: 0 value: 2 }")),
        dev_model(TWO, spec("device: -1 index_to_device_group_map { key: -1 value: 0 value: 1 }")))
fixture("sharding.bad-axis", "axis-2-of-rank-2",
        dev_model(TWO, spec("device: 0 device: 1 sharded_dim { axis: 2 simple_sharding { num_shards: 2 } }")), DEV_OK)
fixture("sharding.bad-axis", "no-axis",
        dev_model(TWO, spec("device: 0 device: 1 sharded_dim { simple_sharding { num_shards: 2 } }")), DEV_OK)
fixture("sharding.bad-num-shards", "zero",
        dev_model(TWO, spec("device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 0 } }")), DEV_OK)
fixture("sharding.shard-count", "four-shards-two-devices",
        dev_model(TWO, spec("device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 4 } }")), DEV_OK)

# ---- names ---------------------------------------------------------------------------------------

fixture("name.not-c-identifier", "value-name",
        model(vi("input", "x.1") + vi("output", "Y") + node("Relu", ["x.1"], ["Y"])),
        model(vi("input", "x_1") + vi("output", "Y") + node("Relu", ["x_1"], ["Y"])), strict=True)
fixture("name.not-c-identifier", "dim-param",
        model(vi("input", "X", 1, ("batch size",)) + vi("output", "X", 1, ("batch size",))),
        model(vi("input", "X", 1, ("batch_size",)) + vi("output", "X", 1, ("batch_size",))), strict=True)

# ---- the bytes themselves ------------------------------------------------------------------------

fixture("model.not-protobuf", "truncated", VALID, VALID, truncate=7)
fixture("model.empty", "empty", VALID, VALID, truncate=-1)
# `graph` given twice on the wire: protobuf merges the two messages, so the inputs repeat.
fixture("graph.duplicate-input", "graph-field-twice", VALID, VALID,
        append='graph { input { name: "X" %s } }' % ttype())
fixture("external-data.missing-file", "no-such-file",
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "absent.bin" }'),
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" }'),
        data={"w.bin": b"\0\0\x80?\0\0\0@"})
fixture("external-data.absolute-path", "absolute",
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "/tmp/w.bin" }'),
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" }'),
        data={"w.bin": b"\0\0\x80?\0\0\0@"})
fixture("external-data.escapes-model-dir", "dot-dot",
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "../external-data.escapes-model-dir/w.bin" }'),
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" }'),
        data={"w.bin": b"\0\0\x80?\0\0\0@"})
fixture("external-data.length-mismatch", "three-floats-in-two",
        init_model('name: "W" data_type: 1 dims: 3 data_location: EXTERNAL external_data { key: "location" value: "w.bin" }', out_dims=(3,)),
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" }'),
        data={"w.bin": b"\0\0\x80?\0\0\0@"})
W_SHA1 = hashlib.sha1(b"\0\0\x80?\0\0\0@").hexdigest()
fixture("external-data.checksum-mismatch", "wrong-sha1",
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" } external_data { key: "checksum" value: "%s" }' % ("0" * 40)),
        init_model('name: "W" data_type: 1 dims: 2 data_location: EXTERNAL external_data { key: "location" value: "w.bin" } external_data { key: "checksum" value: "%s" }' % W_SHA1),
        data={"w.bin": b"\0\0\x80?\0\0\0@"})


# ---- writing -------------------------------------------------------------------------------------


def encode(text):
    r = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I", PROTO_DIR, "onnx.proto"],
                       input=text.encode(), capture_output=True, cwd=PROTO_DIR)
    if r.returncode != 0:
        sys.exit("protoc failed on:\n%s\n%s" % (text, r.stderr.decode()))
    return r.stdout


def directives(options):
    lines = []
    if "truncate" in options:
        n = options["truncate"]
        lines.append("# bytes: empty file" if n < 0 else "# bytes: the last %d bytes cut off" % n)
    if "append" in options:
        lines.append("# bytes: followed by the encoding of: %s" % options["append"])
    if "patch" in options:
        old, new = options["patch"]
        lines.append("# bytes: %s replaced by %s" % (old.hex(), new.hex()))
    if options.get("strict"):
        lines.append("# checked with --strict")
    return "".join(l + "\n" for l in lines)


def write(path, text, data):
    with open(path + ".textproto", "w") as f:
        f.write(text)
    with open(path + ".onnx", "wb") as f:
        f.write(data)


def as_syntax(onnxtool, onnx_path, expected):
    """The model printed in the textual syntax, or None when that needs an extension or does not
    give back the same bytes."""
    if not onnxtool:
        return None
    txt = onnx_path[:-5] + ".tmp.onnxtxt"
    back = onnx_path[:-5] + ".tmp.onnx"
    try:
        r = subprocess.run([onnxtool, "convert", onnx_path, txt], capture_output=True)
        if r.returncode != 0:
            return None
        with open(txt) as f:
            text = f.read()
        if "%" in text:
            return None
        r = subprocess.run([onnxtool, "convert", txt, back], capture_output=True)
        if r.returncode != 0:
            return None
        with open(back, "rb") as f:
            if f.read() != expected:
                return None
        return text
    finally:
        for p in (txt, back):
            if os.path.exists(p):
                os.remove(p)


def main():
    onnxtool = None
    if len(sys.argv) == 3 and sys.argv[1] == "--onnxtool":
        onnxtool = os.path.abspath(sys.argv[2])
    seen = set()
    texts = 0
    for d in os.listdir(HERE):
        if os.path.isdir(os.path.join(HERE, d)):
            shutil.rmtree(os.path.join(HERE, d))
    for rule, case, bad, ok, options in FIXTURES:
        if (rule, case) in seen:
            sys.exit("fixture %s/%s defined twice" % (rule, case))
        seen.add((rule, case))
        d = os.path.join(HERE, rule)
        os.makedirs(d, exist_ok=True)
        note = "# Invalid: breaks %s.\n" % rule + directives(options)
        data = encode(bad)
        if "truncate" in options:
            n = options["truncate"]
            data = b"" if n < 0 else data[:-n]
        if "append" in options:
            data += encode(options["append"])
        if "patch" in options:
            old, new = options["patch"]
            if data.count(old) != 1:
                sys.exit("%s/%s: the bytes to patch occur %d times" % (rule, case, data.count(old)))
            data = data.replace(old, new)
        write(os.path.join(d, case), note + bad, data)
        ok_note = "# Valid twin of %s.onnx.\n" % case + ("# checked with --strict\n" if options.get("strict") else "")
        ok_data = encode(ok)
        write(os.path.join(d, case + ".ok"), ok_note + ok, ok_data)
        for name, content in options.get("data", {}).items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(content)
        if "truncate" in options or "append" in options or "patch" in options:
            continue
        bad_text = as_syntax(onnxtool, os.path.join(d, case + ".onnx"), data)
        ok_text = as_syntax(onnxtool, os.path.join(d, case + ".ok.onnx"), ok_data)
        if bad_text is None or ok_text is None:
            continue
        for stem, head, text in ((case, note, bad_text), (case + ".ok", ok_note, ok_text)):
            with open(os.path.join(d, stem + ".onnxtxt"), "w") as f:
                f.write(head + text)
            os.remove(os.path.join(d, stem + ".onnx"))
            os.remove(os.path.join(d, stem + ".textproto"))
        texts += 1
    print("%d invalid fixtures in %d rule directories, %d in the textual syntax" %
          (len(FIXTURES), len({f[0] for f in FIXTURES}), texts))


if __name__ == "__main__":
    main()
