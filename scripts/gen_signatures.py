#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes every standard operator's signatures into ops/ from the ONNX spec's Changelogs.

    scripts/gen_signatures.py [--spec DIR] [--check]

Reads Changelog.md and Changelog-ml.md (every version of every operator: attributes, inputs,
outputs, type constraints, deprecation) and the function tables of Operators.md and
Operators-ml.md. For each operator it rewrites the block between the markers

    // clang-format off
    // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
    ...
    // END SIGNATURES
    // clang-format on

inside `void define_<symbol>(OpDef& op)` wherever that function lives under ops/, creating
ops/<onnx|ml|preview|training>/<snake_case>.cpp when it does not exist yet, and regenerates the
list in ops/ops.def. Nothing outside the markers is touched (ops.def keeps its header comment and
any line for an operator that is not in the Changelogs).

--check writes nothing; it lists what regenerating would change and exits 1 if anything would.
Developer tool only: Python 3 standard library, never needed to build or test onnxtool.
"""

import argparse
import ast
import difflib
import os
import re
import struct
import sys
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Changelog name prefix -> (domain as the registry stores it, symbol prefix, ops/ subdirectory).
# Longest prefix first.
DOMAINS = [
    ("ai.onnx.preview.training.", "ai.onnx.preview.training", "training_", "training"),
    ("ai.onnx.preview.", "ai.onnx.preview", "preview_", "preview"),
    ("ai.onnx.ml.", "ai.onnx.ml", "ml_", "ml"),
    ("", "", "", "onnx"),
]
DOMAIN_DISPLAY = {"": "ai.onnx", "ai.onnx.ml": "ai.onnx.ml", "ai.onnx.preview": "ai.onnx.preview",
                  "ai.onnx.preview.training": "ai.onnx.preview.training"}

ATTR_TYPES = {
    "float": "f", "int": "i", "string": "s", "tensor": "t", "graph": "g",
    "list of floats": "floats", "list of ints": "ints", "list of strings": "strings",
    "list of tensors": "tensors", "list of graphs": "graphs", "sparse_tensor": "sparse_tensor",
    "list of sparse_tensors": "sparse_tensors", "type_proto": "tp",
    "list of type_protos": "type_protos",
}

INF = None  # an unbounded arity
BEGIN = ("  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py;"
         " do not edit")
END = "  // END SIGNATURES"
OFF = "  // clang-format off"
ON = "  // clang-format on"


class SpecError(Exception):
    pass


@dataclass
class Param:
    name: str
    type: str
    option: str = "single"  # single | optional | variadic
    homogeneous: bool = True
    min_arity: int = 1
    diff: str = ""  # "" | differentiable | non_differentiable


@dataclass
class Attr:
    name: str
    type: str  # AttrType enumerator
    required: bool = False
    default: str = ""  # the spec's text, "" when none


@dataclass
class Version:
    domain: str
    name: str
    since: int
    where: str
    deprecated: bool = False
    experimental: bool = False
    attrs: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    constraints: list = field(default_factory=list)  # (name, [types])
    input_range: tuple = None  # as printed: (min, max), max INF for infinity; None: not printed
    output_range: tuple = None
    function_opsets: list = field(default_factory=list)


# ---- parsing the Changelog --------------------------------------------------------------------

HEADER = re.compile(r'^### <a name="([^"]+)"></a>\*\*([^*]+)\*\*( \(deprecated\))?</a>$')
VERSION_LINE = re.compile(
    r"^This version of the operator has been (available|deprecated) since version (\d+) of "
    r"(?:the default ONNX operator set|the '([^']+)' operator set)\.$")
EXPERIMENTAL_LINE = "No versioning maintained for experimental ops."
SUBSECTION = re.compile(r"^#### (.*)$")
RANGE = re.compile(r"^(Inputs|Outputs)(?: \((\d+) - (\d+|&#8734;)\))?$")
DT_ATTR = re.compile(r"^<dt><tt>([^<]+)</tt> : (.+?)(?: \((required|default is (.*))\))?</dt>$")
DT_PARAM = re.compile(r"^<dt><tt>([^<]+)</tt>(?: \(([^)]*)\))? : (.+)</dt>$")
DT_CONSTRAINT = re.compile(r"^<dt><tt>([^<]+)</tt> : (.+)</dt>$")


def split_domain(qualified):
    for prefix, domain, _, _ in DOMAINS:
        if qualified.startswith(prefix):
            return domain, qualified[len(prefix):]
    raise AssertionError(qualified)


def split_types(text):
    """'tensor(a), map(string, int64)' -> ['tensor(a)', 'map(string, int64)']"""
    out, depth, cur = [], 0, ""
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if depth != 0:
        raise SpecError("unbalanced parentheses in " + text)
    out.append(cur.strip())
    return out


def parse_param(m, where):
    name, flags, typ = m.group(1), m.group(2), m.group(3)
    p = Param(name=name, type=typ.strip())
    for flag in [f.strip() for f in flags.split(",")] if flags else []:
        if flag == "optional":
            p.option = "optional"
        elif flag == "variadic":
            p.option = "variadic"
        elif flag == "heterogeneous":
            p.homogeneous = False
        elif flag in ("differentiable", "non-differentiable"):
            p.diff = flag.replace("-", "_")
        else:
            raise SpecError(f"{where}: unknown flag {flag!r} on {name}")
    if not p.homogeneous and p.option != "variadic":
        raise SpecError(f"{where}: heterogeneous but not variadic: {name}")
    return p


def parse_changelog(path):
    versions = []
    cur = None
    section = None
    in_dd = False
    file_domain = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for lineno, line in enumerate(lines, 1):
        where = f"{os.path.basename(path)}:{lineno}"
        if in_dd:
            if "</dd>" in line:
                in_dd = False
            continue
        if line.startswith("<dd>"):
            in_dd = "</dd>" not in line
            continue
        if line.startswith("# "):
            file_domain = line[2:].split(" ")[0]
            file_domain = "" if file_domain == "ai.onnx" else file_domain
            section = None
            continue
        m = HEADER.match(line)
        if m:
            anchor, bold, dep = m.groups()
            if anchor != bold:
                raise SpecError(f"{where}: anchor {anchor} differs from title {bold}")
            qualified, _, since = anchor.rpartition("-")
            domain, name = split_domain(qualified)
            if domain != file_domain:
                raise SpecError(f"{where}: {anchor} under domain {file_domain!r}")
            cur = Version(domain=domain, name=name, since=int(since), where=where,
                          deprecated=bool(dep))
            versions.append(cur)
            section = None
            continue
        if line.startswith("## "):
            cur, section = None, None
            continue
        m = SUBSECTION.match(line)
        if m and cur is not None:
            section = m.group(1)
            r = RANGE.match(section)
            if r:
                section = r.group(1)
                if r.group(2) is not None:
                    hi = INF if r.group(3) == "&#8734;" else int(r.group(3))
                    rng = (int(r.group(2)), hi)
                    if section == "Inputs":
                        cur.input_range = rng
                    else:
                        cur.output_range = rng
            elif section not in ("Version", "Attributes", "Type Constraints"):
                raise SpecError(f"{where}: unknown section {section!r}")
            continue
        if cur is None:
            continue
        if section == "Version":
            m = VERSION_LINE.match(line)
            if m:
                state, since, dom = m.groups()
                if int(since) != cur.since or (state == "deprecated") != cur.deprecated or \
                        (dom or "") != cur.domain:
                    raise SpecError(f"{where}: version line disagrees with the header")
            elif line == EXPERIMENTAL_LINE:
                cur.experimental = True
            continue
        if not line.startswith("<dt>"):
            continue
        if section == "Attributes":
            m = DT_ATTR.match(line)
            if not m or m.group(2) not in ATTR_TYPES:
                raise SpecError(f"{where}: cannot read attribute {line!r}")
            a = Attr(name=m.group(1), type=ATTR_TYPES[m.group(2)])
            if m.group(3) == "required":
                a.required = True
            elif m.group(3) is not None:
                a.default = m.group(4)
            cur.attrs.append(a)
        elif section in ("Inputs", "Outputs"):
            m = DT_PARAM.match(line)
            if not m:
                raise SpecError(f"{where}: cannot read parameter {line!r}")
            (cur.inputs if section == "Inputs" else cur.outputs).append(parse_param(m, where))
        elif section == "Type Constraints":
            m = DT_CONSTRAINT.match(line)
            if not m:
                raise SpecError(f"{where}: cannot read type constraint {line!r}")
            cur.constraints.append((m.group(1), split_types(m.group(2))))
        else:
            raise SpecError(f"{where}: <dt> outside a known section")
    if in_dd:
        raise SpecError(f"{path}: unterminated <dd>")
    return versions


def implied_range(params):
    """What the formal parameters imply, as ONNX computes it (and VersionBuilder does)."""
    lo = hi = 0
    for p in params:
        if p.option == "variadic":
            return hi + p.min_arity, INF
        hi += 1
        if p.option == "single":
            lo = hi
    return lo, hi


def settle_arity(v, params, stated, what):
    """Derives the variadic minimum arity from the printed range (the Changelog never prints it
    directly); returns the range to declare explicitly, or None when the parameters imply it."""
    for i, p in enumerate(params):
        if p.option == "variadic":
            if i != len(params) - 1:
                raise SpecError(f"{v.where}: variadic {what} {p.name} is not the last")
            if stated is None:
                raise SpecError(f"{v.where}: variadic {what} without a printed range")
            p.min_arity = stated[0] - i
            if p.min_arity < 0:
                raise SpecError(f"{v.where}: {what} range {stated} below the fixed parameters")
    implied = implied_range(params)
    if stated is None:
        # Not printed: min == max. Only the parameters can say what they are.
        if implied[0] != implied[1]:
            raise SpecError(f"{v.where}: no {what} range printed but parameters imply {implied}")
        return None
    return None if stated == implied else stated


# ---- the function tables of Operators.md -----------------------------------------------------

FUNC_ROW = re.compile(r'^\|(?:<sub>experimental</sub> )?<a href="#([^"]+)">([^<]+)</a>\|(.*)\|'
                      r"([0-9, ]+)\|$")
LINK = re.compile(r'<a href="Changelog(?:-ml)?\.md#([^"]+)">(\d+)</a>')


def parse_function_tables(path):
    """{(domain, op): (latest since, [function opsets])} from the '**Function**' tables."""
    out = {}
    in_table = False
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line == "|**Function**|**Since version**|**Function version**|":
                in_table = True
                continue
            if not in_table:
                continue
            if not line.startswith("|"):
                in_table = False
                continue
            m = FUNC_ROW.match(line)
            if not m or m.group(1) != m.group(2):
                raise SpecError(f"{os.path.basename(path)}:{lineno}: cannot read {line!r}")
            domain, name = split_domain(m.group(1))
            sinces = [int(s) for _, s in LINK.findall(m.group(3))]
            if not sinces:
                raise SpecError(f"{os.path.basename(path)}:{lineno}: no versions in {line!r}")
            opsets = [int(x) for x in m.group(4).split(",")]
            out[(domain, name)] = (max(sinces), sorted(sinces), opsets)
    return out


# ---- C++ text --------------------------------------------------------------------------------

def cpp_string(s):
    out = '"'
    for c in s:
        if c in '"\\':
            out += "\\" + c
        elif " " <= c <= "~":
            out += c
        else:
            out += "\\x%02x" % ord(c)
    return out + '"'


FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]


def cpp_float(text, where):
    """A float default as the spec prints it -> (C++ literal, comment)."""
    t = text.strip()
    comment = ""
    if t.startswith("(") and t.endswith(")"):
        # Clip-6 prints numeric_limits<float>::max()/lowest() as (3.402823e+38)/(-3.402823e+38).
        v = float(t[1:-1])
        if "%.7g" % abs(v) != "%.7g" % FLT_MAX:
            raise SpecError(f"{where}: unexpected parenthesised float {t}")
        lit = ("-" if v < 0 else "") + "3.40282347e+38f"
        return lit, f"the spec prints {'lowest' if v < 0 else 'max'}() of float as {t}"
    if not re.fullmatch(r"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", t):
        raise SpecError(f"{where}: not a float: {t!r}")
    if not re.search(r"[.eE]", t):
        t += ".0"
    return t + "f", comment


def cpp_default(a, where):
    """(expression, comment) for an attribute default."""
    t = a.default
    if a.type == "i":
        if not re.fullmatch(r"-?\d+", t):
            raise SpecError(f"{where}: not an int: {t!r}")
        return f"int64_t{{{int(t)}}}", ""
    if a.type == "f":
        return cpp_float(t, where)
    if a.type == "s":
        return cpp_string(t), ""
    if a.type in ("ints", "floats", "strings"):
        try:
            values = ast.literal_eval(t)
        except (ValueError, SyntaxError):
            raise SpecError(f"{where}: cannot read list default {t!r}")
        if not isinstance(values, list):
            raise SpecError(f"{where}: not a list: {t!r}")
        if a.type == "ints":
            # Printed as ['0', '2', '3'] (strings) for BatchNormalization's list of ints.
            return "std::vector<int64_t>{" + ", ".join(str(int(x)) for x in values) + "}", ""
        if a.type == "floats":
            return "std::vector<float>{" + ", ".join(cpp_float(str(x), where)[0]
                                                     for x in values) + "}", ""
        return "std::vector<std::string>{" + ", ".join(cpp_string(str(x))
                                                       for x in values) + "}", ""
    raise SpecError(f"{where}: a default for an attribute of type {a.type}")


def param_call(kind, p):
    diff = f", D::{p.diff}" if p.diff else ""
    if p.option == "single":
        return f".{kind}({cpp_string(p.name)}, {cpp_string(p.type)}{diff})"
    if p.option == "optional":
        return f".{kind}_optional({cpp_string(p.name)}, {cpp_string(p.type)}{diff})"
    homo = "" if p.homogeneous and not diff else (", true" if p.homogeneous else ", false")
    return f".{kind}_variadic({cpp_string(p.name)}, {cpp_string(p.type)}, {p.min_arity}{homo}{diff})"


def bound(n):
    return "kUnbounded" if n is INF else str(n)


CALL_INDENT = " " * 6


def wrapped_constraint(name, types):
    head = f"{CALL_INDENT}.constraint({cpp_string(name)}, {{"
    items = [cpp_string(t) for t in types]
    lines, cur = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else "})")
        if cur != head and len(cur) + 1 + len(piece) > 100:
            lines.append(cur)
            cur = " " * len(head) + piece
        else:
            cur += ("" if cur == head else " ") + piece
    lines.append(cur)
    return lines


def version_block(v):
    """The builder statement for one version, as lines of C++."""
    where = f"{v.where} ({v.name}-{v.since})"
    calls = []  # (line, comment)
    if v.deprecated:
        calls.append((f"{CALL_INDENT}.deprecated()", ""))
    if v.experimental:
        calls.append((f"{CALL_INDENT}.experimental()", ""))
    if v.function_opsets:
        calls.append((f"{CALL_INDENT}.is_function({{{', '.join(map(str, v.function_opsets))}}})",
                      ""))
    for a in v.attrs:
        if a.required:
            calls.append((f"{CALL_INDENT}.attr_required({cpp_string(a.name)}, AttrType::{a.type})",
                          ""))
        elif a.default:
            expr, comment = cpp_default(a, where)
            calls.append((f"{CALL_INDENT}.attr({cpp_string(a.name)}, AttrType::{a.type}, {expr})",
                          comment))
        else:
            calls.append((f"{CALL_INDENT}.attr_optional({cpp_string(a.name)}, AttrType::{a.type})",
                          ""))
    in_range = settle_arity(v, v.inputs, v.input_range, "input") if not v.deprecated else None
    out_range = settle_arity(v, v.outputs, v.output_range, "output") if not v.deprecated else None
    for p in v.inputs:
        calls.append((CALL_INDENT + param_call("input", p), ""))
    if in_range:
        calls.append((f"{CALL_INDENT}.input_range({bound(in_range[0])}, {bound(in_range[1])})", ""))
    for p in v.outputs:
        calls.append((CALL_INDENT + param_call("output", p), ""))
    if out_range:
        calls.append((f"{CALL_INDENT}.output_range({bound(out_range[0])}, {bound(out_range[1])})",
                      ""))
    lines = [(f"  op.since({v.since})", "")]
    for name, types in v.constraints:
        wrapped = wrapped_constraint(name, types)
        calls.extend((line, "") for line in wrapped)
    if not calls:
        return [f"  op.since({v.since});"]
    if len(calls) == 1 and len(lines[0][0]) + len(calls[0][0].strip()) < 100 and \
            not calls[0][1]:
        return [lines[0][0] + calls[0][0].strip() + ";"]
    lines.extend(calls)
    out = []
    for i, (code, comment) in enumerate(lines):
        if i + 1 == len(lines):
            code += ";"
        out.append(code + (f"  // {comment}" if comment else ""))
    return out


def signature_block(versions):
    lines = [OFF, BEGIN]
    for v in versions:
        lines.extend(version_block(v))
    lines.extend([END, ON])
    return lines


# ---- ops/ files ------------------------------------------------------------------------------

def symbol_of(domain, name):
    for _, d, prefix, _ in DOMAINS:
        if d == domain:
            return prefix + name
    raise AssertionError(domain)


def subdir_of(domain):
    for _, d, _, sub in DOMAINS:
        if d == domain:
            return sub
    raise AssertionError(domain)


# Words kept whole in file names (is_nan.cpp rather than is_na_n.cpp).
WHOLE_WORDS = {"MatMul": "Matmul", "NaN": "Nan", "SwiGLU": "Swiglu", "PRelu": "Prelu",
               "Col2Im": "Col2im", "QLinear": "Qlinear", "TfIdf": "Tfidf"}


def snake_case(name):
    for word, simple in WHOLE_WORDS.items():
        name = name.replace(word, simple)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


DEFINE = re.compile(r"^void define_(\w+)\(OpDef& op\)", re.M)


def read_ops_sources(ops_dir):
    """{relative path: text} of every .cpp under ops/."""
    files = {}
    for root, dirs, names in os.walk(ops_dir):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".cpp"):
                p = os.path.join(root, n)
                with open(p, encoding="utf-8") as f:
                    files[os.path.relpath(p, REPO)] = f.read()
    return files


def new_file_text(domain, name, symbol, block):
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0",
        f"// {name}: the {DOMAIN_DISPLAY[domain]} operator.",
        '#include "ops/op.h"',
        "",
        "namespace onnxtool::ops {",
        "",
        f"void define_{symbol}(OpDef& op) {{",
        *block,
        "}",
        "",
        "}  // namespace onnxtool::ops",
        "",
    ])


def replace_block(text, symbol, block, path):
    """Puts `block` into define_<symbol> in `text`, replacing the old block or, when there is
    none, right after the function's opening brace."""
    lines = text.split("\n")
    starts = [i for i, l in enumerate(lines) if re.match(rf"^void define_{symbol}\(OpDef& op\)", l)]
    if len(starts) != 1:
        raise SpecError(f"{path}: define_{symbol} found {len(starts)} times")
    start = starts[0]
    nxt = next((i for i in range(start + 1, len(lines)) if DEFINE.match(lines[i])), len(lines))
    begin = next((i for i in range(start, nxt) if lines[i] == BEGIN), None)
    if begin is not None:
        end = next((i for i in range(begin, nxt) if lines[i] == END), None)
        if end is None or lines[begin - 1] != OFF or end + 1 >= len(lines) or \
                lines[end + 1] != ON:
            raise SpecError(f"{path}: define_{symbol}: signature markers are damaged")
        return "\n".join(lines[:begin - 1] + block + lines[end + 2:])
    brace = next((i for i in range(start, nxt) if lines[i].rstrip().endswith("{")), None)
    if brace is None:
        raise SpecError(f"{path}: define_{symbol}: no opening brace")
    return "\n".join(lines[:brace + 1] + block + lines[brace + 1:])


OPS_DEF_LINE = re.compile(r'^ONNXTOOL_OP\((\w+), "([^"]*)", "([^"]+)"\)$')


def ops_def_text(old, entries):
    """ops.def: its header comment kept, the list regenerated (lines for operators that are not
    in the Changelogs kept too), sorted by domain then op type."""
    header, rows = [], {}
    for line in old.split("\n"):
        m = OPS_DEF_LINE.match(line)
        if m:
            rows[(m.group(2) if m.group(2) != "ai.onnx" else "", m.group(3))] = m.group(1)
        elif line.startswith("//") and not rows:
            header.append(line)
        elif line.strip():
            raise SpecError(f"ops/ops.def: unexpected line {line!r}")
    for domain, name, symbol in entries:
        rows[(domain, name)] = symbol
    body = [f'ONNXTOOL_OP({sym}, "{d}", "{n}")' for (d, n), sym in sorted(rows.items())]
    return "\n".join(header + body) + "\n"


# ---- main ------------------------------------------------------------------------------------

def load_spec(spec_dir):
    versions = []
    for name in ("Changelog.md", "Changelog-ml.md"):
        versions += parse_changelog(os.path.join(spec_dir, name))
    seen = set()
    for v in versions:
        key = (v.domain, v.name, v.since)
        if key in seen:
            raise SpecError(f"{v.where}: {v.name}-{v.since} twice")
        seen.add(key)
    by_op = {}
    for v in versions:
        by_op.setdefault((v.domain, v.name), []).append(v)
    for vs in by_op.values():
        vs.sort(key=lambda x: x.since)
    functions = {}
    for name in ("Operators.md", "Operators-ml.md"):
        functions.update(parse_function_tables(os.path.join(spec_dir, name)))
    for key, (latest, sinces, opsets) in sorted(functions.items()):
        if key not in by_op:
            raise SpecError(f"function table names unknown operator {key}")
        if sinces != [v.since for v in by_op[key]]:
            raise SpecError(f"function table versions of {key} disagree with the Changelog")
        # The table's function versions belong to the operator's newest version (the one it
        # documents); the spec documents says nothing about older versions.
        by_op[key][-1].function_opsets = opsets
    return by_op


def render(by_op, sources):
    """{relative path: new text} for every file that regenerating produces."""
    out = {}
    def_files = {}
    for path, text in sources.items():
        for m in DEFINE.finditer(text):
            if m.group(1) in def_files:
                raise SpecError(f"define_{m.group(1)} in {def_files[m.group(1)]} and {path}")
            def_files[m.group(1)] = path
    taken = {}
    entries = []
    for (domain, name), vs in sorted(by_op.items()):
        symbol = symbol_of(domain, name)
        entries.append((domain, name, symbol))
        block = signature_block(vs)
        path = def_files.get(symbol)
        if path is None:
            path = os.path.join("ops", subdir_of(domain), snake_case(name) + ".cpp")
            if path in taken or path in sources:
                raise SpecError(f"{path} would hold both {taken.get(path)} and {symbol}")
            taken[path] = symbol
            out[path] = new_file_text(domain, name, symbol, block)
        else:
            text = out.get(path, sources[path])
            out[path] = replace_block(text, symbol, block, path)
    def_path = os.path.join("ops", "ops.def")
    with open(os.path.join(REPO, def_path), encoding="utf-8") as f:
        out[def_path] = ops_def_text(f.read(), entries)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default=os.path.join(REPO, "..", "shared", "onnx-spec"),
                    help="the ONNX spec folder (default: ../shared/onnx-spec beside the repo)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 and list the differences if any file would change")
    args = ap.parse_args()
    try:
        by_op = load_spec(args.spec)
        sources = read_ops_sources(os.path.join(REPO, "ops"))
        files = render(by_op, sources)
    except (SpecError, OSError) as e:
        print(f"gen_signatures: error: {e}", file=sys.stderr)
        return 2
    changed = []
    for path, text in sorted(files.items()):
        full = os.path.join(REPO, path)
        try:
            with open(full, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old == text:
            continue
        changed.append(path)
        if args.check:
            diff = difflib.unified_diff((old or "").splitlines(True), text.splitlines(True),
                                        "a/" + path, "b/" + path, n=1)
            sys.stdout.writelines(diff)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            tmp = full + ".tmp"
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.replace(tmp, full)
    versions = sum(len(vs) for vs in by_op.values())
    counts = {}
    for (domain, _), vs in by_op.items():
        ops, vers = counts.get(domain, (0, 0))
        counts[domain] = (ops + 1, vers + len(vs))
    summary = ", ".join(f"{DOMAIN_DISPLAY[d]} {o} operators/{n} versions"
                        for d, (o, n) in sorted(counts.items()))
    if args.check:
        if changed:
            print(f"gen_signatures: {len(changed)} file(s) out of date: " + " ".join(changed),
                  file=sys.stderr)
            return 1
        print(f"gen_signatures: up to date ({len(by_op)} operators, {versions} versions: "
              f"{summary})")
        return 0
    print(f"gen_signatures: {len(by_op)} operators, {versions} versions ({summary}); "
          f"{len(changed)} file(s) written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
