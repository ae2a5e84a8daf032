// SPDX-License-Identifier: Apache-2.0
// Unique: the ai.onnx operator.
#include <numeric>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Y is 1-D without axis, else the input's shape with an unknown axis dim; indices and counts
// have one entry per unique item, inverse_indices one per input item.
void infer_unique(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const auto int64 = dtype_code(DataType::int64);
  const Dims* in = input_shape(ctx, 0);
  Dim items;
  if (!ctx.attrs().has("axis")) {
    set_output_tensor(ctx, 0, elem, Dims{Dim()});
    if (in) items = product(*in);
  } else if (in) {
    const auto axis = static_cast<std::size_t>(
        normalize_axis(ctx.attrs().get_int("axis"), static_cast<int64_t>(in->size())));
    Dims out = *in;
    items = out[axis];
    out[axis] = Dim();
    set_output_tensor(ctx, 0, elem, out);
  } else {
    set_output_tensor(ctx, 0, elem);
  }
  ctx.explain(0, "the number of unique items depends on the input's values");
  set_output_tensor(ctx, 1, int64, Dims{Dim()});
  set_output_tensor(ctx, 2, int64, Dims{items});
  set_output_tensor(ctx, 3, int64, Dims{Dim()});
}

// The input seen as items along one axis: item i is x[o, i, j] for every outer o and inner j.
struct Items {
  int64_t outer = 1, count = 0, inner = 1;
  int64_t at(int64_t o, int64_t i, int64_t j) const { return (o * count + i) * inner + j; }
};

template <class T>
bool less_value(const T& a, const T& b) {
  if constexpr (is_complex_v<T>)
    return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag();
  else if constexpr (std::is_same_v<T, std::string>)
    return a < b;
  else
    return load(a) < load(b);
}

// -1, 0 or 1: items compared element by element in row-major order.
template <class T>
int compare_items(const T* p, const Items& it, int64_t a, int64_t b) {
  for (int64_t o = 0; o < it.outer; ++o)
    for (int64_t j = 0; j < it.inner; ++j) {
      const T& x = p[it.at(o, a, j)];
      const T& y = p[it.at(o, b, j)];
      if (less_value(x, y)) return -1;
      if (less_value(y, x)) return 1;
    }
  return 0;
}

// Groups of equal items: each group's items in input order; groups sorted by value, or by
// first occurrence when !sorted.
template <class T>
std::vector<std::vector<int64_t>> group_items(const T* p, const Items& it, bool sorted) {
  std::vector<int64_t> order(static_cast<std::size_t>(it.count));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return compare_items(p, it, a, b) < 0; });
  std::vector<std::vector<int64_t>> groups;
  for (int64_t i : order) {
    if (groups.empty() || compare_items(p, it, groups.back().front(), i) != 0)
      groups.emplace_back();
    groups.back().push_back(i);
  }
  if (!sorted)
    std::sort(groups.begin(), groups.end(),
              [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return groups;
}

void write_outputs(KernelContext& ctx, const Tensor& x, const Items& it, std::size_t axis,
                   const std::vector<std::vector<int64_t>>& groups) {
  const auto u = static_cast<int64_t>(groups.size());
  Shape yshape = x.shape();
  yshape[axis] = u;
  Tensor& y = ctx.output(0, x.dtype(), yshape);
  for (int64_t g = 0; g < u; ++g)
    for (int64_t o = 0; o < it.outer; ++o)
      copy_elements(x, it.at(o, groups[static_cast<std::size_t>(g)].front(), 0), y,
                    (o * u + g) * it.inner, it.inner);
  Tensor indices(DataType::int64, {u}), counts(DataType::int64, {u});
  Tensor inverse(DataType::int64, {it.count});
  for (int64_t g = 0; g < u; ++g) {
    const auto& grp = groups[static_cast<std::size_t>(g)];
    indices.mutable_data<int64_t>()[g] = grp.front();
    counts.mutable_data<int64_t>()[g] = static_cast<int64_t>(grp.size());
    for (int64_t i : grp) inverse.mutable_data<int64_t>()[i] = g;
  }
  if (ctx.num_outputs() > 1 && ctx.has_output(1)) ctx.set_output(1, Value(indices));
  if (ctx.num_outputs() > 2 && ctx.has_output(2)) ctx.set_output(2, Value(inverse));
  if (ctx.num_outputs() > 3 && ctx.has_output(3)) ctx.set_output(3, Value(counts));
}

void unique_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const bool has_axis = ctx.attrs().has("axis");
  const Tensor x = has_axis ? in : in.reshaped({in.numel()});
  if (x.rank() == 0) ctx.fail("cannot take unique slices of a scalar");
  const auto axis = static_cast<std::size_t>(
      has_axis ? kernel_axis(ctx, ctx.attrs().get_int("axis"), x.rank()) : 0);
  const Items it{shape_product(x.shape(), 0, axis), x.shape()[axis],
                 shape_product(x.shape(), axis + 1)};
  const bool sorted = ctx.attrs().get_int("sorted", 1) != 0;
  std::vector<std::vector<int64_t>> groups;
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>)
      groups = group_items<std::string>(x.strings().data(), it, sorted);
    else
      groups = group_items<T>(x.data<T>(), it, sorted);
  });
  write_outputs(ctx, x, it, axis, groups);
}

}  // namespace

void define_Unique(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_optional("axis", AttrType::i)
      .attr("sorted", AttrType::i, int64_t{1})
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .output_optional("indices", "tensor(int64)", D::non_differentiable)
      .output_optional("inverse_indices", "tensor(int64)", D::non_differentiable)
      .output_optional("counts", "tensor(int64)", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_unique).kernel(unique_kernel);
}

}  // namespace onnxtool::ops
