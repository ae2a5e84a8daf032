// SPDX-License-Identifier: Apache-2.0
// Col2Im: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// [N, C * prod(block_shape), L] -> [N, C, image_shape...].
void infer_col2im(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (in && in->size() != 3) infer_fail("the input must be 3-D, got " + dims_to_string(*in));
  const auto image = input_dims_values(ctx, 1);
  const auto block = input_ints(ctx, 2);
  if (!image) {
    const Dims* s = input_shape(ctx, 1);
    if (s && s->size() == 1 && (*s)[0].is_known())
      set_output_tensor(ctx, 0, elem, Dims(static_cast<std::size_t>((*s)[0].value()) + 2));
    else
      set_output_tensor(ctx, 0, elem);
    return;
  }
  Dims out{in ? (*in)[0] : Dim(), Dim()};
  if (in && block) {
    int64_t k = 1;
    for (int64_t b : *block) k *= b;
    if (k > 0) out[1] = exact_div((*in)[1], Dim::value(k)).value_or(Dim());
  }
  out.insert(out.end(), image->begin(), image->end());
  set_output_tensor(ctx, 0, elem, out);
}

// The per-axis geometry of the sliding blocks.
struct Geometry {
  std::vector<int64_t> image, block, dil, pads, strides, blocks;  // blocks: positions per axis
};

Geometry geometry(const KernelContext& ctx) {
  Geometry g;
  g.image = read_ints(ctx, ctx.input(1), "image_shape");
  g.block = read_ints(ctx, ctx.input(2), "block_shape");
  const std::size_t n = g.image.size();
  if (g.block.size() != n) ctx.fail("image_shape and block_shape must have the same length");
  g.dil = ctx.attrs().get_ints("dilations", std::vector<int64_t>(n, 1));
  g.pads = ctx.attrs().get_ints("pads", std::vector<int64_t>(2 * n, 0));
  g.strides = ctx.attrs().get_ints("strides", std::vector<int64_t>(n, 1));
  if (g.dil.size() != n || g.strides.size() != n || g.pads.size() != 2 * n)
    ctx.fail("dilations and strides need " + std::to_string(n) + " entries and pads " +
             std::to_string(2 * n));
  for (std::size_t i = 0; i < n; ++i) {
    if (g.block[i] < 1 || g.dil[i] < 1 || g.strides[i] < 1 || g.image[i] < 0)
      ctx.fail("block_shape, dilations and strides must be positive");
    const int64_t span = g.image[i] + g.pads[i] + g.pads[n + i] - (g.dil[i] * (g.block[i] - 1) + 1);
    g.blocks.push_back(span < 0 ? 0 : span / g.strides[i] + 1);
  }
  return g;
}

template <class T>
void add_into(T& acc, const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    acc = acc || v;
  else if constexpr (is_complex_v<T>)
    acc += v;
  else
    acc = store<T>(static_cast<arith_t<T>>(load(acc) + load(v)));
}

// Every (channel, kernel offset, block position) adds its value at the image position it
// covers; positions in the padding are dropped.
template <class T>
void col2im_typed(const Tensor& x, Tensor& y, const Geometry& g, int64_t channels) {
  const std::size_t n = g.image.size();
  const Shape kshape(g.block.begin(), g.block.end()), lshape(g.blocks.begin(), g.blocks.end());
  const int64_t kn = shape_product(kshape), ln = shape_product(lshape);
  const int64_t image_size = shape_product(Shape(g.image.begin(), g.image.end()));
  const auto istrides = contiguous_strides(Shape(g.image.begin(), g.image.end()));
  const T* src = x.data<T>();
  T* dst = y.mutable_data<T>();
  std::vector<int64_t> kidx(n), lidx(n);
  for (int64_t b = 0; b < x.shape()[0] * channels; ++b)
    for (int64_t k = 0; k < kn; ++k) {
      for (int64_t r = k, i = static_cast<int64_t>(n); i-- > 0;
           r /= kshape[static_cast<std::size_t>(i)])
        kidx[static_cast<std::size_t>(i)] = r % kshape[static_cast<std::size_t>(i)];
      for (int64_t l = 0; l < ln; ++l) {
        int64_t off = 0;
        bool inside = true;
        for (int64_t r = l, i = static_cast<int64_t>(n); i-- > 0;
             r /= lshape[static_cast<std::size_t>(i)]) {
          const auto a = static_cast<std::size_t>(i);
          const int64_t p = r % lshape[a] * g.strides[a] - g.pads[a] + kidx[a] * g.dil[a];
          inside = inside && p >= 0 && p < g.image[a];
          off += p * istrides[a];
        }
        if (inside) add_into<T>(dst[b * image_size + off], src[(b * kn + k) * ln + l]);
      }
    }
}

void col2im_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 3) ctx.fail("the input must be 3-D, got " + shape_to_string(x.shape()));
  const Geometry g = geometry(ctx);
  const int64_t kn = shape_product(Shape(g.block.begin(), g.block.end()));
  const int64_t ln = shape_product(Shape(g.blocks.begin(), g.blocks.end()));
  if (x.shape()[1] % kn != 0)
    ctx.fail("input dim 1 (" + std::to_string(x.shape()[1]) +
             ") is not a multiple of the block size " + std::to_string(kn));
  if (x.shape()[2] != ln)
    ctx.fail("input dim 2 is " + std::to_string(x.shape()[2]) + " but the image holds " +
             std::to_string(ln) + " blocks");
  const int64_t channels = x.shape()[1] / kn;
  Shape out{x.shape()[0], channels};
  out.insert(out.end(), g.image.begin(), g.image.end());
  Tensor& y = ctx.output(0, x.dtype(), out);
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>)
      ctx.fail("Col2Im adds overlapping blocks, which strings cannot do");
    else
      col2im_typed<T>(x, y, g, channels);
  });
}

}  // namespace

void define_Col2Im(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .attr_optional("dilations", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("input", "T", D::differentiable)
      .input("image_shape", "tensor(int64)", D::non_differentiable)
      .input("block_shape", "tensor(int64)", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_col2im).kernel(col2im_kernel);
}

}  // namespace onnxtool::ops
