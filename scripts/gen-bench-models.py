#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark models with real architectures and seeded random weights, written in the ONNX
textual syntax (weights in an .npz sidecar, as `onnxtool convert m.onnx m.onnxtxt` writes them)
and turned into binary .onnx by `onnxtool convert`. Python 3.9+ standard library only.

    scripts/gen-bench-models.py OUT_DIR [--onnxtool PATH] [--only NAME,...] [--keep-text]

Models (every input float32, batch 1):
  resnet50_fp32          ResNet-50 (torchvision layout), Conv + BatchNormalization + Relu, opset 13
  resnet50_int8_dynamic  the same net as ORT's quantize_dynamic makes it (ConvInteger), BN folded
  resnet50_qdq           the same net as ORT's quantize_static makes it in QDQ format, BN folded
  resnet50_fp16          the same net in float16 inside, float32 at its edges, BN folded
  mobilenetv2            MobileNetV2 (torchvision layout), BN folded into Conv biases, opset 13
  bert_base              BERT-base encoder (12 layers, 768 hidden, 12 heads) as exported at opset 17

Weights. Every weight tensor is a grid of 255 levels, -127..127, drawn uniformly from a seeded
random byte string and scaled per output channel (`level * scale`). This lets the standard library
make 85 M weights in about a second (a byte-to-bytes table per channel applied with
bytes.translate, no Python call per element) and keeps the variants of ResNet-50 the same
function: the QDQ model's int8 weights are the very levels (the dynamic model's are them
requantized to one scale per tensor), the folded and float16 weights the same levels times the
folded scales. Scales are He-like (std sqrt(2/fan_in)) for convolutions, 0.02
for BERT. BatchNormalization statistics are those the layer would see on the benchmark's input
(uniform [0,1)), tracked analytically layer by layer, so activations stay of order one and no
channel is constant; the QDQ model's activation scales come from the same tracking.

Each model is written into a temporary directory inside OUT_DIR and renamed into place when
`onnxtool convert` succeeded, so OUT_DIR only ever holds complete models. Same output every run.
"""
import argparse
import math
import operator
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = "onnxtool-bench-v1"  # string seeds are hashed with SHA-512: stable across runs and versions
# What `onnxtool convert --inline-limit` defaults to: larger tensors go to the .npz sidecar.
INLINE_LIMIT = 64
BN_EPS = 1e-5

# ---- random weights --------------------------------------------------------------------------

# A random byte b stands for the level b % 255 - 127: uniform on -127..127 except that -127 is
# twice as likely (b = 0 and b = 255), which is of no consequence and keeps the map one table.
LEVELS = [b % 255 - 127 for b in range(256)]
LEVEL_RMS = math.sqrt(sum(v * v for v in LEVELS) / 256.0)
# Tables that turn the bytes into level + 127 and |level|, so that per-channel sums and maxima
# are C-speed sum()/max() over bytes.
TO_OFFSET = bytes(b % 255 for b in range(256))
TO_ABS = bytes(abs(v) for v in LEVELS)


def rng_for(key):
    """A generator private to one tensor (or layer): weights do not shift when others change."""
    return random.Random(f"{SEED}/{key}")


def map_rows(q, rows, width, row_table):
    """Encodes the level bytes q row by row: row_table(r) is 256 encoded values of `width` bytes
    each (the value of every level for that row); each byte plane is one bytes.translate."""
    k = len(q) // rows
    out = bytearray(len(q) * width)
    for r in range(rows):
        table = row_table(r)
        seg = q[r * k:(r + 1) * k]
        base = r * k * width
        for j in range(width):
            out[base + j:base + k * width:width] = seg.translate(table[j::width])
    return bytes(out)


def float_table(fmt, scale):
    """The 256 levels times scale, packed as float32 ('f') or float16 ('e')."""
    return struct.pack("<256" + fmt, *[v * scale for v in LEVELS])


def int8_table(ratio):
    """The 256 levels requantized by ratio (round half to even, as numpy.round), as int8."""
    return struct.pack("<256b", *[max(-127, min(127, round(v * ratio))) for v in LEVELS])


def uint8_table(ratio):
    """int8_table's values moved by 128, as uint8 (zero point 128)."""
    return bytes((b + 128) % 256 for b in int8_table(ratio))


def uniform(rng, n, lo, hi):
    return [rng.uniform(lo, hi) for _ in range(n)]


# ---- tensors, .npy and .npz -----------------------------------------------------------------

DTYPES = {  # ONNX text type: (numpy descr, struct code, bytes per element)
    "float": ("<f4", "f", 4),
    "float16": ("<f2", "e", 2),
    "int8": ("|i1", "b", 1),
    "uint8": ("|u1", "B", 1),
    "int32": ("<i4", "i", 4),
    "int64": ("<i8", "q", 8),
}


def pack(dtype, values):
    return struct.pack("<%d%s" % (len(values), DTYPES[dtype][1]), *values)


def npy_bytes(dtype, dims, raw):
    """An .npy (format 1.0) file: the header padded so the data starts on a 64-byte boundary."""
    shape = "(%d,)" % dims[0] if len(dims) == 1 else "(%s)" % ", ".join(str(d) for d in dims)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (DTYPES[dtype][0], shape)
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + raw


class Sidecar:
    """The .npz beside the text: members are written as the tensors are made (memory stays flat),
    stored uncompressed (random weights do not compress) with a fixed date (same bytes each run)."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True)

    def add(self, member, dtype, dims, raw):
        info = zipfile.ZipInfo(member + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
        self.zip.writestr(info, npy_bytes(dtype, dims, raw))

    def close(self):
        self.zip.close()


# ---- the textual syntax ----------------------------------------------------------------------

KEYWORDS = set(DTYPES) | {"double", "bool", "string", "uint16", "uint32", "uint64", "int16",
                          "bfloat16", "complex64", "complex128", "seq", "map", "optional",
                          "sparse_tensor", "opaque", "inf", "nan"}


def name_text(name):
    """Names print bare when they are identifiers and not keywords, else quoted (as the printer)."""
    ident = name and (name[0].isalpha() or name[0] == "_") and all(
        c.isalnum() or c == "_" for c in name) and name.isascii()
    return name if ident and name not in KEYWORDS else '"%s"' % name


def type_text(dtype, dims):
    return dtype + ("[%s]" % ",".join(str(d) for d in dims) if dims else "")


def value_text(v, code="f"):
    """Integers as they are; a float (float32 'f' or float16 'e' read back from its bytes) in the
    fewest digits that give back the same value, with a '.' or exponent, as the printer does."""
    if not isinstance(v, float):
        return str(v)
    for digits in range(1, 18):
        s = "%.*g" % (digits, v)
        if struct.unpack("<" + code, struct.pack("<" + code, float(s)))[0] == v:
            break
    return s if any(c in s for c in ".en") else s + ".0"


def attr_text(v):
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, str):
        return '"%s"' % v
    return value_text(v)


class Graph:
    """Collects initializers and nodes of one graph and prints the model in the textual syntax."""

    def __init__(self, name, sidecar):
        self.name = name
        self.sidecar = sidecar
        self.inits = []  # printed initializer entries
        self.nodes = []  # printed node lines
        self.used = set()
        self.params = 0

    def fresh(self, base):
        """A value or node name not used yet (SSA: every value is assigned once)."""
        name, k = base, 1
        while name in self.used:
            name, k = "%s_%d" % (base, k), k + 1
        self.used.add(name)
        return name

    def init(self, name, dtype, dims, raw):
        """An initializer from its raw little-endian bytes: small ones inline, as the printer does
        (%raw: the values are in raw_data), larger ones as a member of the sidecar."""
        name = self.fresh(name)
        n = math.prod(dims)
        assert len(raw) == n * DTYPES[dtype][2], name
        self.params += n
        if n > INLINE_LIMIT:
            self.sidecar.add(name, dtype, dims, raw)
            data = '%%npz "%s"' % name
        else:
            values = struct.unpack("<%d%s" % (n, DTYPES[dtype][1]), raw)
            data = ", ".join(value_text(v, DTYPES[dtype][1]) for v in values)
        self.inits.append("%s %s = %%raw {%s}" % (type_text(dtype, dims), name_text(name), data))
        return name

    def const(self, name, dtype, dims, values):
        return self.init(name, dtype, dims, pack(dtype, values))

    def node(self, op, inputs, outputs=None, label=None, **attrs):
        """Adds a node named label; its outputs are the given names, or one named after the node
        (node and value names are separate namespaces). Returns the output name, or the list."""
        label = self.fresh(label or op)
        outs = [label] if outputs is None else [self.fresh(o) for o in outputs]
        attr = ""
        if attrs:
            attr = " <%s>" % ", ".join("%s = %s" % (k, attr_text(v)) for k, v in attrs.items())
        self.nodes.append("  [%s] %s = %s%s (%s)" % (
            name_text(label), ", ".join(name_text(o) for o in outs), op, attr,
            ", ".join(name_text(i) for i in inputs)))
        return outs[0] if len(outs) == 1 else outs

    def text(self, header, inputs, outputs, npz_name):
        """The whole model: header (with the sidecar's name), signature, initializers, nodes."""
        head = ["  %s: %s" % kv for kv in header] + ['  %%npz: "%s"' % npz_name]
        sig_in = ",\n".join("  %s %s" % (type_text(t, d), name_text(n)) for n, t, d in inputs)
        sig_out = ",\n".join("  %s %s" % (type_text(t, d), name_text(n)) for n, t, d in outputs)
        return "<\n%s\n>\n%s (\n%s\n) => (\n%s\n)\n  <\n%s\n  >\n{\n%s\n}\n" % (
            ",\n".join(head), name_text(self.name), sig_in, sig_out,
            ",\n".join("    " + i for i in self.inits), "\n".join(self.nodes))


# ---- activation statistics (to set BatchNormalization and QDQ scales) -----------------------

class Act:
    """What a value holds on the benchmark's input, channel by channel: means and variances
    (modelling each channel as a Gaussian, its elements independent), and hi, the largest value
    a calibration would keep (the QDQ range)."""

    def __init__(self, mean, var, hi):
        self.mean, self.var, self.hi = mean, var, hi


def gaussian_hi(a):
    """The top of a Gaussian channel's values over a feature map: mean + 5 std, the largest."""
    return max(m + 5.0 * math.sqrt(v) for m, v in zip(a.mean, a.var))


def relu_act(a):
    """Moments of max(0, z) for z Gaussian with a's moments, per channel. Clip(0, 6) is the same
    to this precision: 6 is in the far tail of these unit-scale activations."""
    mean, var = [], []
    for m, v in zip(a.mean, a.var):
        s = math.sqrt(v)
        t = m / s
        cdf = 0.5 * (1.0 + math.erf(t / math.sqrt(2.0)))
        pdf = math.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)
        m1 = m * cdf + s * pdf
        m2 = (m * m + v) * cdf + m * s * pdf
        mean.append(m1)
        var.append(max(m2 - m1 * m1, 1e-6))
    return Act(mean, var, max(a.hi, gaussian_hi(a)))


def add_act(a, b):
    """A sum of two independent values. Its top: a residual stream (a Relu output plus a
    Gaussian) has a heavier tail than the Gaussian of the same moments, so hi is the larger of
    that Gaussian's top and the quadrature sum of the two tops (which measures closer)."""
    s = Act([x + y for x, y in zip(a.mean, b.mean)], [x + y for x, y in zip(a.var, b.var)], 0.0)
    s.hi = max(gaussian_hi(s), math.hypot(a.hi, b.hi))
    return s


def maxpool_act(pre):
    """After Relu and a 3x3 max pool, from the Gaussian before the Relu: the maximum of nine
    such values (neighbours, but at stride 2 of a 7x7 conv close to independent) has mean
    mu + 1.485 sigma and variance 0.357 sigma^2, and is positive: the Relu does not touch it."""
    return Act([m + 1.485 * math.sqrt(v) for m, v in zip(pre.mean, pre.var)],
               [0.357 * v for v in pre.var], pre.hi)


# ---- convolution parameters, shared by every variant of a network --------------------------

class ConvBN:
    """A Conv's weights (levels times a He scale) and the BatchNormalization after it, whose
    running statistics are what the conv's output has, channel by channel, on the input x:
    as in a trained network, BN centres and scales every channel, and activations stay of
    order one through the whole depth."""

    _cache = {}

    @classmethod
    def get(cls, key, cin, cout, k, group, x, gamma):
        """The parameters of one layer, made once for all the variants of a network."""
        if key not in cls._cache:
            cls._cache[key] = cls(key, cin, cout, k, group, x, gamma)
        return cls._cache[key]

    def __init__(self, key, cin, cout, k, group, x, gamma):
        rng = rng_for(key)
        self.cout, self.k = cout, k
        self.fan_in = f = cin // group * k * k
        self.dims = [cout, cin // group, k, k]
        self.q = rng.randbytes(cout * f)
        self.scale = math.sqrt(2.0 / f) / LEVEL_RMS
        self.qmax = [max(self.q[c * f:(c + 1) * f].translate(TO_ABS)) for c in range(cout)]
        mean_y, var_y = self.output_moments(x, cin // group, cout // group, k * k)
        self.mean = [m + rng.gauss(0.0, 0.05) * math.sqrt(v) for m, v in zip(mean_y, var_y)]
        self.var = [v * rng.uniform(0.9, 1.1) for v in var_y]
        self.gamma = uniform(rng, cout, 0.8 * gamma, 1.2 * gamma)
        self.beta = uniform(rng, cout, -0.1, 0.1)
        # What the BN then outputs: N(beta + gamma (E[y] - mean) / sqrt(var), gamma^2 var(y) / var)
        self.out = Act([b + g * (my - m) / math.sqrt(v + BN_EPS) for b, g, my, m, v in zip(
            self.beta, self.gamma, mean_y, self.mean, self.var)],
            [g * g * vy / (v + BN_EPS) for g, vy, v in zip(self.gamma, var_y, self.var)], 0.0)
        self.out.hi = gaussian_hi(self.out)

    def output_moments(self, x, cin_g, cout_g, kk):
        """Per output channel c: E[y_c] = sum over its inputs i and taps of w * mean(x_i), exact
        (a C-speed sum over the level bytes; without it each channel keeps a random offset that
        compounds with depth), and var(y_c) = E[w^2] * taps * sum of var(x_i) (its expectation
        over the weights, close enough for a sum of 9 or more terms)."""
        f, s = self.fan_in, self.scale
        mean, var, group = [], [], None
        for c in range(self.cout):
            if c // cout_g != group:  # the input channels this output channel reads
                group = c // cout_g
                m_in = x.mean[group * cin_g:(group + 1) * cin_g]
                taps = [m for m in m_in for _ in range(kk)]  # weights are [cin_g, k, k]
                v_sum = kk * sum(x.var[group * cin_g:(group + 1) * cin_g])
            row = self.q[c * f:(c + 1) * f].translate(TO_OFFSET)  # level + 127, one byte each
            mean.append(s * (sum(map(operator.mul, row, taps)) - 127.0 * sum(taps)))
            var.append((s * LEVEL_RMS) ** 2 * v_sum)
        return mean, var

    def fold(self):
        """BatchNormalization folded into the conv: per channel a weight scale and a bias."""
        mul = [g / math.sqrt(v + BN_EPS) for g, v in zip(self.gamma, self.var)]
        bias = [b - m * s for b, m, s in zip(self.beta, self.mean, mul)]
        return [self.scale * s for s in mul], bias

    def weight(self, fmt, channel_scale):
        """The weights as float32/float16 bytes, level * channel_scale[c] in channel c."""
        width = 4 if fmt == "f" else 2
        return map_rows(self.q, self.cout, width, lambda c: float_table(fmt, channel_scale[c]))


class Dense:
    """A fully connected layer: weight of the given dims (levels times one scale) and bias."""

    def __init__(self, key, dims, std, bias_len, bias_range):
        rng = rng_for(key)
        self.dims = dims
        self.q = rng.randbytes(math.prod(dims))
        self.scale = std / LEVEL_RMS
        self.bias = uniform(rng, bias_len, -bias_range, bias_range)

    def weight(self, fmt="f"):
        return map_rows(self.q, 1, 4 if fmt == "f" else 2, lambda _: float_table(fmt, self.scale))


# ---- emitters: how one Conv (with its BN and activation) is written in each variant --------

def conv_attrs(p, stride, pad, group):
    return dict(dilations=[1, 1], group=group, kernel_shape=[p.k, p.k], pads=[pad] * 4,
                strides=[stride, stride])


class FloatEmitter:
    """Float graphs. bn=True: Conv without bias, then BatchNormalization (as in the model zoo's
    ResNet-50, or torch.onnx.export with training=TrainingMode.PRESERVE); else BN folded into
    the Conv's weights and bias (what an eval-mode export usually gives)."""

    head_output = "output"  # the Gemm head writes the graph output itself

    def __init__(self, g, bn=False, fmt="f"):
        self.g, self.bn, self.fmt = g, bn, fmt
        self.ftype = "float" if fmt == "f" else "float16"
        self.clip = None

    def conv(self, name, x, xa, p, stride, pad, group, act):
        attrs = conv_attrs(p, stride, pad, group)
        if self.bn:
            w = self.weight(name + "_weight", p, [p.scale] * p.cout)
            y = self.g.node("Conv", [x, w], label=name, **attrs)
            bn = [self.g.const(name + "_bn_" + n, "float", [p.cout], v) for n, v in (
                ("weight", p.gamma), ("bias", p.beta), ("running_mean", p.mean),
                ("running_var", p.var))]
            y = self.g.node("BatchNormalization", [y] + bn, label=name + "_bn",
                            epsilon=BN_EPS, momentum=0.9)
        else:
            scales, bias = p.fold()
            w = self.weight(name + "_weight", p, scales)
            b = self.g.const(name + "_bias", self.ftype, [p.cout], bias)
            y = self.g.node("Conv", [self.conv_input(x, xa), w, b], label=name, **attrs)
        return self.activation(name, y, act)

    def weight(self, name, p, scales):
        return self.g.init(name, self.ftype, p.dims, p.weight(self.fmt, scales))

    def conv_input(self, x, xa):
        return x

    def activation(self, name, y, act):
        if act == "relu":
            return self.g.node("Relu", [y], label=name + "_relu")
        if act == "clip6":
            if self.clip is None:  # PyTorch's ReLU6 at opset >= 11: Clip with constant bounds
                self.clip = (self.g.const("clip_min", self.ftype, [], [0.0]),
                             self.g.const("clip_max", self.ftype, [], [6.0]))
            return self.g.node("Clip", [y, *self.clip], label=name + "_relu6")
        return y

    def begin(self, x):
        """The value the network starts from: the graph input (float16 graphs cast it first)."""
        return x

    def end(self, y):
        return y


class Fp16Emitter(FloatEmitter):
    """As onnxconverter-common's convert_float_to_float16(keep_io_types=True) leaves a model:
    float16 weights and values inside, a Cast after the float32 input, one before the output."""

    head_output = None

    def __init__(self, g):
        super().__init__(g, fmt="e")

    def begin(self, x):
        return self.g.node("Cast", [x], label="graph_input_cast_0", to=10)

    def end(self, y):
        return self.g.node("Cast", [y], ["output"], label="graph_output_cast_0", to=1)


class DynamicEmitter(FloatEmitter):
    """As onnxruntime.quantization.quantize_dynamic writes a Conv (operators/conv.py ConvInteger):
    DynamicQuantizeLinear of the input (one per tensor, shared by the convs reading it),
    ConvInteger with int8 weights (symmetric per tensor, zero point 0, quantize_dynamic's default
    QInt8), Cast to float, Mul by x_scale * w_scale, the bias Reshaped to [1,-1,1,1] and Added.
    Relu, Add, the pools and the Gemm head stay float, as ORT leaves them (Gemm is not among its
    dynamic integer ops). ORT 1.30's CPU ConvInteger runs int8 weights (checked: same output as
    onnxtool), so no uint8-with-zero-point-128 work-around is needed; but it runs them about 5x
    slower than uint8 weights (measured on this net), which its figure for this model shows."""

    def __init__(self, g, unsigned_weights=False):
        super().__init__(g)
        self.quantized = {}
        self.zero = None
        self.bias_shape = None
        # quantize_dynamic's QUInt8 weights: the same levels moved by 128, zero point 128 (the
        # form ORT runs fastest).
        self.unsigned = unsigned_weights

    def conv(self, name, x, xa, p, stride, pad, group, act):
        g = self.g
        scales, bias = p.fold()
        # w_scale = max|W| / 127 over the tensor; each channel's levels requantized to it.
        w_scale = max(m * s for m, s in zip(p.qmax, scales)) / 127.0
        table = int8_table if not self.unsigned else uint8_table
        wq = g.init(name + "_weight_quantized", "uint8" if self.unsigned else "int8", p.dims,
                    map_rows(p.q, p.cout, 1, lambda c: table(scales[c] / w_scale)))
        ws = g.const(name + "_weight_scale", "float", [], [w_scale])
        if self.zero is None:
            self.zero = (g.const("weight_zero_point", "uint8", [], [128]) if self.unsigned else
                         g.const("weight_zero_point", "int8", [], [0]))
            # ORT makes one such shape per conv; one shared initializer is the same graph.
            self.bias_shape = g.const("bias_reshape_shape", "int64", [4], [1, -1, 1, 1])
        if x not in self.quantized:
            self.quantized[x] = g.node("DynamicQuantizeLinear", [x], [
                x + "_quantized", x + "_scale", x + "_zero_point"], label=x + "_QuantizeLinear")
        xq, xs, xz = self.quantized[x]
        y = g.node("ConvInteger", [xq, wq, xz, self.zero], label=name + "_quant",
                   **conv_attrs(p, stride, pad, group))
        y = g.node("Cast", [y], label=name + "_output_quantized_cast", to=1)
        s = g.node("Mul", [xs, ws], label=name + "_quant_scales_mul")
        y = g.node("Mul", [y, s], label=name + "_quant_output_scale_mul")
        b = g.const(name + "_bias", "float", [p.cout], bias)
        b = g.node("Reshape", [b, self.bias_shape], label=name + "_bias_reshape")
        y = g.node("Add", [y, b], label=name + "_bias_add")
        return self.activation(name, y, act)


class QdqEmitter(FloatEmitter):
    """As onnxruntime.quantization.quantize_static writes a Conv in QuantFormat.QDQ with
    per_channel=True: its input through QuantizeLinear + DequantizeLinear (uint8, one pair per
    tensor), its weight as int8 with a per-channel DequantizeLinear (axis 0, symmetric: scale
    max|W_c| / 127, zero point 0), its bias float. Activation scales are fixed from the tracked
    statistics, as a calibration on the benchmark's input would give them."""

    def __init__(self, g):
        super().__init__(g)
        self.dequantized = {}

    def conv_input(self, x, xa):
        if x not in self.dequantized:
            s = self.g.const(x + "_scale", "float", [], [xa.hi / 255.0])
            z = self.g.const(x + "_zero_point", "uint8", [], [0])  # every conv input is >= 0
            q = self.g.node("QuantizeLinear", [x, s, z], label=x + "_QuantizeLinear")
            self.dequantized[x] = self.g.node("DequantizeLinear", [q, s, z],
                                              label=x + "_DequantizeLinear")
        return self.dequantized[x]

    def weight(self, name, p, scales):
        # Each channel's levels stretched to the full int8 range (a no-op when it holds +-127).
        ratio = [127.0 / m for m in p.qmax]
        wq = self.g.init(name + "_quantized", "int8", p.dims,
                         map_rows(p.q, p.cout, 1, lambda c: int8_table(ratio[c])))
        ws = self.g.const(name + "_scale", "float", [p.cout],
                          [s * m / 127.0 for s, m in zip(scales, p.qmax)])
        wz = self.g.const(name + "_zero_point", "int8", [p.cout], [0] * p.cout)
        return self.g.node("DequantizeLinear", [wq, ws, wz], label=name + "_DequantizeLinear",
                           axis=0)


# ---- architectures ---------------------------------------------------------------------------

INPUT_ACT = Act([0.5] * 3, [1.0 / 12.0] * 3, 1.0)  # uniform [0,1): what both harnesses feed


def classifier_head(em, x, key, channels):
    """GlobalAveragePool, Flatten, Gemm to 1000 classes (PyTorch's Linear init, U(+-1/sqrt(n)));
    then whatever the emitter ends the graph with."""
    g = em.g
    x = g.node("GlobalAveragePool", [x], label="global_pool")
    x = g.node("Flatten", [x], label="flatten", axis=1)
    fc = Dense(key, [1000, channels], 1.0 / math.sqrt(3.0 * channels), 1000,
               1.0 / math.sqrt(channels))
    w = g.init("fc_weight", em.ftype, fc.dims, fc.weight(em.fmt))
    b = g.const("fc_bias", em.ftype, [1000], fc.bias)
    out = [em.head_output] if em.head_output else None
    return em.end(g.node("Gemm", [x, w, b], out, label="fc", alpha=1.0, beta=1.0, transB=1))


def conv_layer(em, prefix, name, x, a, cin, cout, k, stride, group, act, gamma=1.0):
    """One Conv + BN (+ activation) in the emitter's form; returns its output and statistics."""
    p = ConvBN.get(prefix + name, cin, cout, k, group, a, gamma)
    y = em.conv(name, x, a, p, stride, k // 2, group, act)
    return y, (relu_act(p.out) if act else p.out)


def resnet50(em):
    """torchvision's resnet50: 7x7/2 stem, 3x3/2 max pool, 3-4-6-3 bottlenecks (stride on the 3x3
    conv, a 1x1 conv + BN downsample in each stage's first block), global average pool, fc.
    Each bottleneck's last BN gets gamma ~0.5 so the residual stream grows slowly."""
    g = em.g

    def conv(name, x, a, cin, cout, k, stride, act, gamma=1.0):
        return conv_layer(em, "resnet50/", name, x, a, cin, cout, k, stride, 1, act, gamma)

    x, _ = conv("conv1", em.begin("data"), INPUT_ACT, 3, 64, 7, 2, "relu")
    x = g.node("MaxPool", [x], label="maxpool", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
               strides=[2, 2])
    a = maxpool_act(ConvBN.get("resnet50/conv1", 3, 64, 7, 1, INPUT_ACT, 1.0).out)  # cached
    cin = 64
    for stage, (width, blocks, stride) in enumerate(
            [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], start=1):
        for b in range(blocks):
            n, s = "layer%d_%d_" % (stage, b), stride if b == 0 else 1
            y, ya = conv(n + "conv1", x, a, cin, width, 1, 1, "relu")
            y, ya = conv(n + "conv2", y, ya, width, width, 3, s, "relu")
            y, ya = conv(n + "conv3", y, ya, width, width * 4, 1, 1, None, gamma=0.5)
            if b == 0:
                x, a = conv(n + "downsample", x, a, cin, width * 4, 1, s, None)
            x = g.node("Relu", [g.node("Add", [y, x], label=n + "add")], label=n + "relu")
            a = relu_act(add_act(a, ya))
            cin = width * 4
    return classifier_head(em, x, "resnet50/fc", 2048)


# torchvision's MobileNetV2 table: expansion t, channels c, repeats n, first stride s.
MBV2_TABLE = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
              (6, 160, 3, 2), (6, 320, 1, 1)]


def mobilenetv2(em):
    """torchvision's mobilenet_v2 as exported in eval mode (BN folded into Conv biases, ReLU6 as
    Clip): 3x3/2 stem to 32, inverted residual blocks (1x1 expand + ReLU6 unless t = 1, 3x3
    depthwise + ReLU6, 1x1 linear projection, Add when stride 1 and channels match), 1x1 conv
    to 1280, global average pool, fc (Dropout is gone in eval mode)."""
    g = em.g

    def conv(name, x, a, cin, cout, k, stride, group, act, gamma=1.0):
        return conv_layer(em, "mobilenetv2/", name, x, a, cin, cout, k, stride, group, act, gamma)

    x, a = conv("features_0", em.begin("data"), INPUT_ACT, 3, 32, 3, 2, 1, "clip6")
    cin, idx = 32, 1
    for t, c, n, s in MBV2_TABLE:
        for i in range(n):
            name, stride, hidden = "features_%d_" % idx, s if i == 0 else 1, cin * t
            y, ya = x, a
            if t != 1:
                y, ya = conv(name + "expand", y, ya, cin, hidden, 1, 1, 1, "clip6")
            y, ya = conv(name + "depthwise", y, ya, hidden, hidden, 3, stride, hidden, "clip6")
            y, ya = conv(name + "project", y, ya, hidden, c, 1, 1, 1, None, gamma=0.5)
            if stride == 1 and cin == c:
                y, ya = g.node("Add", [x, y], label=name + "add"), add_act(a, ya)
            x, a, cin, idx = y, ya, c, idx + 1
    x, a = conv("features_%d" % idx, x, a, cin, 1280, 1, 1, 1, "clip6")
    return classifier_head(em, x, "mobilenetv2/classifier", 1280)


BERT = dict(layers=12, hidden=768, heads=12, intermediate=3072, seq=128)


def bert_base(g):
    """A BERT-base encoder as torch.onnx.export writes HuggingFace's BertModel at opset 17, from
    the embeddings on. The input is the embedding output, float32 [1,128,768], not input_ids:
    both benchmark harnesses feed integer inputs as zeros (every token id 0) and float inputs
    as uniform [0,1), so only a float input gets varied data; and the encoder is the cost."""
    h, heads, inter, seq = BERT["hidden"], BERT["heads"], BERT["intermediate"], BERT["seq"]
    d = h // heads
    split = g.const("split_heads_shape", "int64", [4], [1, seq, heads, d])
    merge = g.const("merge_heads_shape", "int64", [3], [1, seq, h])
    sqrt_d = g.const("attention_scale", "float", [], [math.sqrt(d)])
    sqrt2 = g.const("gelu_sqrt2", "float", [], [math.sqrt(2.0)])
    one = g.const("gelu_one", "float", [], [1.0])
    half = g.const("gelu_half", "float", [], [0.5])

    def linear(name, x, rows, cols):
        """nn.Linear as exported: MatMul by the transposed weight [in, out], Add of the bias."""
        p = Dense("bert/" + name, [rows, cols], 0.02, cols, 0.02)  # BERT's initializer_range
        w = g.init(name + "_weight", "float", p.dims, p.weight())
        b = g.const(name + "_bias", "float", [cols], p.bias)
        return g.node("Add", [g.node("MatMul", [x, w], label=name + "_MatMul"), b],
                      label=name + "_Add")

    def layer_norm(name, x, out=None):
        rng = rng_for("bert/" + name)
        gamma = g.const(name + "_weight", "float", [h], uniform(rng, h, 0.9, 1.1))
        beta = g.const(name + "_bias", "float", [h], uniform(rng, h, -0.05, 0.05))
        return g.node("LayerNormalization", [x, gamma, beta], out, label=name, axis=-1,
                      epsilon=1e-12)

    def heads_of(name, x, perm):
        x = g.node("Reshape", [x, split], label=name + "_Reshape")
        return g.node("Transpose", [x], label=name + "_Transpose", perm=perm)

    x = "embeddings"
    for i in range(BERT["layers"]):
        n, last = "layer%d_" % i, i == BERT["layers"] - 1
        q = heads_of(n + "query", linear(n + "query", x, h, h), [0, 2, 1, 3])
        k = heads_of(n + "key", linear(n + "key", x, h, h), [0, 2, 3, 1])  # K transposed
        v = heads_of(n + "value", linear(n + "value", x, h, h), [0, 2, 1, 3])
        s = g.node("Div", [g.node("MatMul", [q, k], label=n + "scores_MatMul"), sqrt_d],
                   label=n + "scores_Div")
        s = g.node("Softmax", [s], label=n + "Softmax", axis=-1)
        c = g.node("MatMul", [s, v], label=n + "context_MatMul")
        c = g.node("Transpose", [c], label=n + "context_Transpose", perm=[0, 2, 1, 3])
        c = g.node("Reshape", [c, merge], label=n + "context_Reshape")
        a = linear(n + "attention_output", c, h, h)
        a = layer_norm(n + "attention_LayerNorm",
                       g.node("Add", [a, x], label=n + "attention_residual"))
        f = linear(n + "intermediate", a, h, inter)
        # gelu(f) = f * 0.5 * (1 + erf(f / sqrt(2))), node by node as the exporter writes it
        e = g.node("Erf", [g.node("Div", [f, sqrt2], label=n + "gelu_Div")], label=n + "gelu_Erf")
        e = g.node("Add", [e, one], label=n + "gelu_Add")
        f = g.node("Mul", [g.node("Mul", [f, e], label=n + "gelu_Mul"), half],
                   label=n + "gelu_Mul_half")
        o = linear(n + "output", f, inter, h)
        x = layer_norm(n + "output_LayerNorm", g.node("Add", [o, a], label=n + "output_residual"),
                       ["last_hidden_state"] if last else None)
    return x


# ---- the model set ---------------------------------------------------------------------------

IMAGE_IO = ([("data", "float", [1, 3, 224, 224])], [("output", "float", [1, 1000])])
BERT_IO = ([("embeddings", "float", [1, 128, 768])],
           [("last_hidden_state", "float", [1, 128, 768])])

# name: (opset, inputs and outputs, builder, one-line description)
MODELS = {
    "resnet50_fp32": (13, IMAGE_IO, lambda g: resnet50(FloatEmitter(g, bn=True)),
                      "ResNet-50, Conv + BatchNormalization + Relu"),
    "resnet50_int8_dynamic": (13, IMAGE_IO, lambda g: resnet50(DynamicEmitter(g)),
                              "ResNet-50 as ORT quantize_dynamic writes it (ConvInteger)"),
    "resnet50_int8_dynamic_u8w": (13, IMAGE_IO,
                                  lambda g: resnet50(DynamicEmitter(g, unsigned_weights=True)),
                                  "the same with uint8 weights (zero point 128), ORT's fast path"),
    "resnet50_qdq": (13, IMAGE_IO, lambda g: resnet50(QdqEmitter(g)),
                     "ResNet-50 as ORT quantize_static writes it in QDQ format, per channel"),
    "resnet50_fp16": (13, IMAGE_IO, lambda g: resnet50(Fp16Emitter(g)),
                      "ResNet-50 in float16, float32 input and output (keep_io_types)"),
    "mobilenetv2": (13, IMAGE_IO, lambda g: mobilenetv2(FloatEmitter(g)),
                    "MobileNetV2, BN folded, ReLU6 as Clip"),
    "bert_base": (17, BERT_IO, bert_base,
                  "BERT-base encoder (12 x 768, 12 heads, 3072), from the embeddings"),
}
IR_VERSION = {13: 7, 17: 8}  # the IR version each opset came with


def write_text(path, name, opset, io, g):
    header = [("ir_version", IR_VERSION[opset]), ("opset_import", '["" : %d]' % opset),
              ("producer_name", '"onnxtool gen-bench-models"'),
              ("doc_string", '"%s; random weights"' % MODELS[name][3])]
    with open(path, "w") as f:
        f.write(g.text(header, io[0], io[1], name + ".npz"))


def build(name, out_dir, onnxtool, keep_text):
    """Writes NAME.onnxtxt and NAME.npz in a temporary directory of out_dir, converts them, and
    renames the results into out_dir. Returns (nodes, parameters, bytes of the .onnx)."""
    opset, io, builder, _ = MODELS[name]
    tmp = tempfile.mkdtemp(prefix="." + name + ".", dir=out_dir)
    try:
        text, npz, onnx = (os.path.join(tmp, name + ext) for ext in (".onnxtxt", ".npz", ".onnx"))
        sidecar = Sidecar(npz)
        g = Graph(name, sidecar)
        g.used.update(n for n, _, _ in io[0])  # the outputs are made by the last node
        out = builder(g)
        sidecar.close()
        assert out == io[1][0][0], "%s: the graph ends in %s" % (name, out)
        write_text(text, name, opset, io, g)
        run = subprocess.run([onnxtool, "convert", text, onnx], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError("%s: onnxtool convert failed (exit %d):\n%s" % (
                name, run.returncode, run.stderr.strip()))
        size = os.path.getsize(onnx)
        if keep_text:
            os.replace(npz, os.path.join(out_dir, name + ".npz"))
            os.replace(text, os.path.join(out_dir, name + ".onnxtxt"))
        os.replace(onnx, os.path.join(out_dir, name + ".onnx"))
        return len(g.nodes), g.params, size
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="models: " + ", ".join(MODELS))
    ap.add_argument("out_dir", help="directory to write NAME.onnx into (created if needed)")
    ap.add_argument("--onnxtool", default=os.path.join(ROOT, "build", "onnxtool"),
                    help="the onnxtool binary (default: build/onnxtool of this checkout)")
    ap.add_argument("--only", help="comma-separated model names (default: all)")
    ap.add_argument("--keep-text", action="store_true",
                    help="also keep NAME.onnxtxt and NAME.npz, the source of each model")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        ap.error("unknown model %s; models: %s" % (", ".join(unknown), ", ".join(MODELS)))
    if not os.access(args.onnxtool, os.X_OK):
        ap.error("no onnxtool at %s (build it, or give --onnxtool)" % args.onnxtool)
    os.makedirs(args.out_dir, exist_ok=True)
    print("%-24s %7s %12s %10s %8s" % ("model", "nodes", "parameters", "MB", "seconds"))
    start = time.monotonic()
    for name in names:
        t0 = time.monotonic()
        try:
            nodes, params, size = build(name, args.out_dir, args.onnxtool, args.keep_text)
        except (RuntimeError, OSError) as e:
            print("error: %s" % e, file=sys.stderr)
            return 1
        print("%-24s %7d %12d %10.1f %8.1f" % (name, nodes, params, size / 1e6,
                                                time.monotonic() - t0), flush=True)
    print("%d models in %s, %.1f s" % (len(names), args.out_dir, time.monotonic() - start))
    return 0


if __name__ == "__main__":
    if sys.version_info < (3, 9):
        sys.exit("gen-bench-models.py needs Python 3.9 or later (random.randbytes)")
    sys.exit(main())
