// SPDX-License-Identifier: Apache-2.0
// RotaryEmbedding: the ai.onnx operator. Rotates the first rotary_embedding_dim values of each
// head by position-dependent angles: pairs (x1, x2), taken as the two halves or (interleaved) as
// even/odd elements, become (cos*x1 - sin*x2, sin*x1 + cos*x2). cos/sin come from the caches,
// indexed by position_ids when given.
#include <algorithm>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_rotary_embedding(InferContext& ctx) {
  const Dims* x = misc::input_dims(ctx, 0);
  if (x && x->size() != 3 && x->size() != 4) infer_fail("X must be 3-D or 4-D");
  if (x && x->size() == 3 && !ctx.attrs().opt_int("num_heads"))
    infer_fail("a 3-D X needs the num_heads attribute");
  const Dims* pos = misc::input_dims(ctx, 3);
  if (pos && pos->size() != 2) infer_fail("position_ids must be 2-D (batch, sequence)");
  for (std::size_t c = 1; c <= 2; ++c) {
    const Dims* cache = misc::input_dims(ctx, c);
    if (!cache) continue;
    const bool with_ids = ctx.num_inputs() > 3 && ctx.has_input(3);
    if (cache->size() != (with_ids ? 2u : 3u))
      infer_fail(std::string(c == 1 ? "cos_cache" : "sin_cache") + " must be " +
                 (with_ids ? "2-D with position_ids" : "3-D without position_ids"));
  }
  ctx.set_output_type(0, ctx.input_type(0));
}

struct RotaryLayout {
  int64_t batch = 0, heads = 0, seq = 0, head_size = 0, rot = 0;
  bool four_d = false;
  // Offset of element d of (b, h, s) in X.
  int64_t at(int64_t b, int64_t h, int64_t s) const {
    return four_d ? ((b * heads + h) * seq + s) * head_size
                  : ((b * seq + s) * heads + h) * head_size;
  }
};

RotaryLayout rotary_layout(const KernelContext& ctx, const Tensor& x) {
  RotaryLayout l;
  if (x.rank() == 4) {
    l.four_d = true;
    l.batch = x.shape()[0], l.heads = x.shape()[1], l.seq = x.shape()[2],
    l.head_size = x.shape()[3];
  } else if (x.rank() == 3) {
    const int64_t heads = ctx.attrs().get_int("num_heads", 0);
    if (heads <= 0 || x.shape()[2] % heads != 0)
      ctx.fail("a 3-D X needs num_heads dividing its hidden size " + std::to_string(x.shape()[2]));
    l.batch = x.shape()[0], l.seq = x.shape()[1], l.heads = heads,
    l.head_size = x.shape()[2] / heads;
  } else {
    ctx.fail("X must be 3-D or 4-D, got " + shape_to_string(x.shape()));
  }
  l.rot = ctx.attrs().get_int("rotary_embedding_dim", 0);
  if (l.rot == 0) l.rot = l.head_size;
  if (l.rot < 0 || l.rot > l.head_size || l.rot % 2 != 0)
    ctx.fail("rotary_embedding_dim " + std::to_string(l.rot) +
             " must be even and at most the head size " + std::to_string(l.head_size));
  return l;
}

// The cache row (rot/2 values) for batch b, position s: through position_ids when given.
int64_t cache_row(const KernelContext& ctx, const RotaryLayout& l, const Tensor& cache,
                  const std::vector<int64_t>& ids, int64_t b, int64_t s) {
  if (ids.empty()) return b * l.seq + s;
  const int64_t p = ids[static_cast<std::size_t>(b * l.seq + s)];
  if (p < 0 || p >= cache.shape()[0])
    ctx.fail("position id " + std::to_string(p) + " is outside the cache's " +
             std::to_string(cache.shape()[0]) + " rows");
  return p;
}

void check_cache(const KernelContext& ctx, const Tensor& cache, const RotaryLayout& l,
                 bool with_ids, const char* what) {
  // The spec gives the cache rot/2 columns; the backend suite's rotary_dim tests pass head_size/2
  // of them and the reference uses the first rot/2, so any width of at least rot/2 is taken.
  const int64_t width = cache.rank() > 0 ? std::max(cache.shape().back(), l.rot / 2) : l.rot / 2;
  const Shape want = with_ids ? Shape{cache.rank() == 2 ? cache.shape()[0] : -1, width}
                              : Shape{l.batch, l.seq, width};
  if (cache.shape() != want)
    ctx.fail(std::string(what) + " has shape " + shape_to_string(cache.shape()) + ", expected " +
             (with_ids ? "(max_position + 1, " + std::to_string(l.rot / 2) + ")"
                       : shape_to_string(want)));
}

void rotary_embedding_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "X");
  const RotaryLayout l = rotary_layout(ctx, x);
  const bool with_ids = ctx.num_inputs() > 3 && ctx.has_input(3);
  const Tensor& cos_t = ctx.input(1);
  const Tensor& sin_t = ctx.input(2);
  check_cache(ctx, cos_t, l, with_ids, "cos_cache");
  check_cache(ctx, sin_t, l, with_ids, "sin_cache");
  std::vector<int64_t> ids;
  if (with_ids) {
    const Tensor& p = ctx.input(3);
    if (p.shape() != Shape{l.batch, l.seq})
      ctx.fail("position_ids has shape " + shape_to_string(p.shape()) + ", expected " +
               shape_to_string(Shape{l.batch, l.seq}));
    ids = misc::values_as<int64_t>(ctx, p, "position_ids");
  }
  const bool interleaved = ctx.attrs().get_int("interleaved", 0) != 0;
  std::vector<float> v = misc::values_as<float>(ctx, x, "X");
  const std::vector<float> cs = misc::values_as<float>(ctx, cos_t, "cos_cache");
  const std::vector<float> sn = misc::values_as<float>(ctx, sin_t, "sin_cache");
  const int64_t half = l.rot / 2;
  const int64_t cos_width = cos_t.shape().back(), sin_width = sin_t.shape().back();
  for (int64_t b = 0; b < l.batch; ++b)
    for (int64_t s = 0; s < l.seq; ++s) {
      const int64_t at = cache_row(ctx, l, cos_t, ids, b, s);
      const int64_t row = at * cos_width, sin_row = at * sin_width;
      for (int64_t h = 0; h < l.heads; ++h) {
        float* e = v.data() + l.at(b, h, s);
        for (int64_t i = 0; i < half; ++i) {
          float& x1 = interleaved ? e[2 * i] : e[i];
          float& x2 = interleaved ? e[2 * i + 1] : e[half + i];
          const float c = cs[static_cast<std::size_t>(row + i)],
                      sv = sn[static_cast<std::size_t>(sin_row + i)];
          const float a = x1, bb = x2;
          x1 = c * a - sv * bb;
          x2 = sv * a + c * bb;
        }
      }
    }
  misc::write_output<float>(ctx, 0, x.dtype(), x.shape(), v);
}

// The function body: the input is brought to (batch, sequence, heads, head_size), the first
// rotary_embedding_dim values of each head (all when 0) are rotated by the cached angles, picked
// by position_ids when given, either as two halves or as even/odd pairs (interleaved), and the
// result goes back to the input's layout. A 3-D input needs num_heads, an optional attribute
// without a default that a 4-D input does not use; so that one fixed body serves both, its value
// is read from EyeLike <k = num_heads> over a (1, hidden + 1) row: the 1 sits at column
// num_heads (at least 1), and only where that attribute is used.
constexpr const char kRotaryEmbeddingBody[] = R"onnx(
<domain: "", opset_import: ["" : 23]>
RotaryEmbedding <interleaved, num_heads, rotary_embedding_dim> (X, cos_cache, sin_cache, position_ids) => (Y) {
  x_shape = Shape (X)
  rank = Size (x_shape)
  four = Constant <value_int = 4> ()
  is_4d = Equal (rank, four)
  zero_1d = Constant <value_ints = [0]> ()
  one_1d = Constant <value_ints = [1]> ()
  two_1d = Constant <value_ints = [2]> ()
  three_1d = Constant <value_ints = [3]> ()
  minus_one_1d = Constant <value_ints = [-1]> ()
  last_1d = Constant <value_ints = [9223372036854775807]> ()
  heads_layout = If (is_4d) <
    then_branch = from_4d () => (x_bshd) {
      x_bshd = Transpose <perm = [0, 2, 1, 3]> (X)
    },
    else_branch = from_3d () => (x_split) {
      hidden_1d = Slice (x_shape, two_1d, three_1d)
      row_len = Add (hidden_1d, one_1d)
      row_shape = Concat <axis = 0> (one_1d, row_len)
      row = ConstantOfShape <value = float[1] {0}> (row_shape)
      marked = EyeLike <k: int = @num_heads> (row)
      heads_1d = ArgMax <axis = 1, keepdims = 0> (marked)
      batch_seq = Slice (x_shape, zero_1d, two_1d)
      split_shape = Concat <axis = 0> (batch_seq, heads_1d, minus_one_1d)
      x_split = Reshape (X, split_shape)
    }
  >
  head_size = Shape <start = 3> (heads_layout)
  rd_attr = Constant <value_int: int = @rotary_embedding_dim> ()
  rd_attr_1d = Reshape (rd_attr, one_1d)
  zero = Constant <value_int = 0> ()
  partial = Greater (rd_attr_1d, zero)
  rd = Where (partial, rd_attr_1d, head_size)
  half = Div (rd, two_1d)
  x_rot = Slice (heads_layout, zero_1d, rd, three_1d)
  x_keep = Slice (heads_layout, rd, last_1d, three_1d)
  has_ids = OptionalHasElement (position_ids)
  cos_picked, sin_picked = If (has_ids) <
    then_branch = by_ids () => (cos_by_ids, sin_by_ids) {
      cos_by_ids = Gather (cos_cache, position_ids)
      sin_by_ids = Gather (sin_cache, position_ids)
    },
    else_branch = as_given () => (cos_as_given, sin_as_given) {
      cos_as_given = Identity (cos_cache)
      sin_as_given = Identity (sin_cache)
    }
  >
  cos_half = Slice (cos_picked, zero_1d, half, two_1d)
  sin_half = Slice (sin_picked, zero_1d, half, two_1d)
  cos = Unsqueeze (cos_half, two_1d)
  sin = Unsqueeze (sin_half, two_1d)
  interleaved_i = Constant <value_int: int = @interleaved> ()
  is_interleaved = Cast <to = 9> (interleaved_i)
  x1, x2 = If (is_interleaved) <
    then_branch = pairs () => (x_even, x_odd) {
      x_even = Slice (x_rot, zero_1d, rd, three_1d, two_1d)
      x_odd = Slice (x_rot, one_1d, rd, three_1d, two_1d)
    },
    else_branch = halves () => (x_front, x_back) {
      x_front = Slice (x_rot, zero_1d, half, three_1d)
      x_back = Slice (x_rot, half, rd, three_1d)
    }
  >
  cos_x1 = Mul (cos, x1)
  sin_x2 = Mul (sin, x2)
  real = Sub (cos_x1, sin_x2)
  sin_x1 = Mul (sin, x1)
  cos_x2 = Mul (cos, x2)
  imag = Add (sin_x1, cos_x2)
  rotated = If (is_interleaved) <
    then_branch = weave () => (woven) {
      real_e = Unsqueeze (real, minus_one_1d)
      imag_e = Unsqueeze (imag, minus_one_1d)
      pairs_out = Concat <axis = -1> (real_e, imag_e)
      rot_shape = Shape (x_rot)
      woven = Reshape (pairs_out, rot_shape)
    },
    else_branch = join () => (joined) {
      joined = Concat <axis = -1> (real, imag)
    }
  >
  full = Concat <axis = -1> (rotated, x_keep)
  Y = If (is_4d) <
    then_branch = to_4d () => (y_4d) {
      y_4d = Transpose <perm = [0, 2, 1, 3]> (full)
    },
    else_branch = to_3d () => (y_3d) {
      y_3d = Reshape (full, x_shape)
    }
  >
}
)onnx";

}  // namespace

void define_RotaryEmbedding(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .is_function({23})
      .attr("interleaved", AttrType::i, int64_t{0})
      .attr_optional("num_heads", AttrType::i)
      .attr("rotary_embedding_dim", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("cos_cache", "T")
      .input("sin_cache", "T")
      .input_optional("position_ids", "M")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("M", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.at(23).function(kRotaryEmbeddingBody, 23);
  op.all().infer(infer_rotary_embedding).kernel(rotary_embedding_kernel);
}

}  // namespace onnxtool::ops
