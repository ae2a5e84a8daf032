// SPDX-License-Identifier: Apache-2.0
#include "core/infer/helpers.h"

#include <algorithm>
#include <climits>

#include "core/ir/type_text.h"
#include "core/types/dtype.h"
#include "core/types/tensor.h"

namespace onnxtool {

void infer_fail(const std::string& message) {
  throw InferFailure{message};
}

// ---- ready-made inference functions --------------------------------------------------------

InferFn same_as_input(std::size_t in, std::size_t out) {
  return [in, out](InferContext& ctx) {
    if (ctx.has_input(in) && ctx.has_output(out)) ctx.set_output_type(out, ctx.input_type(in));
  };
}

InferFn same_as_input_all_outputs(std::size_t in) {
  return [in](InferContext& ctx) {
    if (!ctx.has_input(in)) return;
    for (std::size_t o = 0; o < ctx.num_outputs(); ++o)
      if (ctx.has_output(o)) ctx.set_output_type(o, ctx.input_type(in));
  };
}

namespace {
void broadcast_into(InferContext& ctx, int32_t elem, char values_op) {
  set_output_tensor(ctx, 0, elem, broadcast_input_shapes(ctx));
  if (values_op && ctx.num_inputs() == 2) propagate_binary_values(ctx, values_op);
}
}  // namespace

InferFn broadcast_elementwise(char values_op) {
  return [values_op](InferContext& ctx) {
    broadcast_into(ctx, unify_all_input_elem_types(ctx), values_op);
  };
}

InferFn broadcast_elementwise_to(int32_t elem, char values_op) {
  return [elem, values_op](InferContext& ctx) {
    unify_all_input_elem_types(ctx);
    broadcast_into(ctx, elem, values_op);
  };
}

// ---- types ---------------------------------------------------------------------------------

void set_output_tensor(InferContext& ctx, std::size_t i, int32_t elem, std::optional<Dims> shape) {
  if (ctx.has_output(i)) ctx.set_output_type(i, Type::tensor(elem, std::move(shape)));
}

void propagate_elem_type(InferContext& ctx, std::size_t in, std::size_t out) {
  if (!ctx.has_input(in) || !ctx.has_output(out)) return;
  const Type& src = ctx.input_type(in);
  if (src.is_unknown()) return;
  const Type& cur = ctx.output_type(out);
  if (src.kind == Type::Kind::tensor || src.kind == Type::Kind::sparse_tensor) {
    Type t = cur.kind == src.kind ? cur : Type::tensor(0);
    t.kind = src.kind;
    t.elem = src.elem;
    ctx.set_output_type(out, std::move(t));
    return;
  }
  ctx.set_output_type(out, src);  // sequences, maps, optionals: the type is the element type
}

void propagate_shape(InferContext& ctx, std::size_t in, std::size_t out, int32_t elem) {
  if (!ctx.has_input(in) || !ctx.has_output(out)) return;
  const Type& src = ctx.input_type(in);
  set_output_tensor(ctx, out, elem ? elem : ctx.input_elem_type(in), src.shape);
}

namespace {
std::string input_label(std::size_t i) {
  return "input " + std::to_string(i);
}

int32_t unify_elem_of(const InferContext& ctx, std::size_t i, int32_t elem, std::size_t& from) {
  if (!ctx.has_input(i)) return elem;
  const int32_t e = ctx.input_elem_type(i);
  if (e == 0) return elem;
  if (elem != 0 && e != elem)
    infer_fail(input_label(from) + " has element type " + elem_type_to_string(elem) + " but " +
               input_label(i) + " has " + elem_type_to_string(e) +
               " (expected the same element type)");
  if (elem == 0) from = i;
  return e;
}
}  // namespace

int32_t unify_input_elem_types(const InferContext& ctx, std::initializer_list<std::size_t> inputs) {
  int32_t elem = 0;
  std::size_t from = 0;
  for (std::size_t i : inputs)
    if (i < ctx.num_inputs()) elem = unify_elem_of(ctx, i, elem, from);
  return elem;
}

int32_t unify_all_input_elem_types(const InferContext& ctx, std::size_t first) {
  int32_t elem = 0;
  std::size_t from = first;
  for (std::size_t i = first; i < ctx.num_inputs(); ++i) elem = unify_elem_of(ctx, i, elem, from);
  return elem;
}

Dim unify_dim(const Dim& a, const Dim& b, const std::string& what) {
  if (a.is_unknown()) return b;
  if (b.is_unknown()) return a;
  if (a.is_known() && b.is_known() && a.value() != b.value())
    infer_fail(what + " is " + a.to_string() + " in one place and " + b.to_string() +
               " in another (expected equal)");
  return b.is_known() ? b : a;
}

std::optional<Dims> unify_shapes(const std::optional<Dims>& a, const std::optional<Dims>& b,
                                 const std::string& what) {
  if (!a) return b;
  if (!b) return a;
  if (a->size() != b->size())
    infer_fail(what + " has rank " + std::to_string(a->size()) + " in one place and " +
               std::to_string(b->size()) + " in another");
  Dims out(a->size());
  for (std::size_t i = 0; i < a->size(); ++i)
    out[i] = unify_dim((*a)[i], (*b)[i], what + " dim " + std::to_string(i));
  return out;
}

namespace {
bool is_tensorish(const Type& t) {
  return t.kind == Type::Kind::tensor || t.kind == Type::Kind::sparse_tensor;
}
}  // namespace

Type unify_types(const Type& a, const Type& b, const std::string& what) {
  if (a.is_unknown()) return b;
  if (b.is_unknown()) return a;
  if (a.kind != b.kind)
    infer_fail(what + " is " + a.to_string() + " in one place and " + b.to_string() +
               " in another");
  Type out = a;
  if (is_tensorish(a)) {
    if (a.elem && b.elem && a.elem != b.elem)
      infer_fail(what + " has element type " + elem_type_to_string(a.elem) + " in one place and " +
                 elem_type_to_string(b.elem) + " in another");
    out.elem = a.elem ? a.elem : b.elem;
    out.shape = unify_shapes(a.shape, b.shape, what);
    return out;
  }
  if (a.kind == Type::Kind::map && a.elem && b.elem && a.elem != b.elem)
    infer_fail(what + " has map key type " + elem_type_to_string(a.elem) + " in one place and " +
               elem_type_to_string(b.elem) + " in another");
  if (a.kind == Type::Kind::map && !out.elem) out.elem = b.elem;
  if (a.inner || b.inner)
    out.inner = std::make_shared<const Type>(unify_types(a.element(), b.element(), what));
  return out;
}

Dim join_dim(const Dim& a, const Dim& b) {
  return a.same_as(b) ? a : Dim();
}

Type join_types(const Type& a, const Type& b) {
  if (a.is_unknown() || b.is_unknown() || a.kind != b.kind) return Type();
  Type out = a;
  if (a.elem != b.elem) out.elem = 0;
  if (is_tensorish(a)) {
    if (!a.shape || !b.shape || a.shape->size() != b.shape->size()) {
      out.shape.reset();
      return out;
    }
    for (std::size_t i = 0; i < a.shape->size(); ++i)
      (*out.shape)[i] = join_dim((*a.shape)[i], (*b.shape)[i]);
    return out;
  }
  if (a.inner || b.inner)
    out.inner = std::make_shared<const Type>(join_types(a.element(), b.element()));
  return out;
}

// ---- shapes --------------------------------------------------------------------------------

int64_t normalize_axis(int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    infer_fail(what + " " + std::to_string(axis) + " is out of range for rank " +
               std::to_string(rank) + " (expected " + std::to_string(-rank) + ".." +
               std::to_string(rank - 1) + ")");
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> normalize_axes(std::span<const int64_t> axes, int64_t rank,
                                    const std::string& what) {
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = normalize_axis(axes[i], rank, what + "[" + std::to_string(i) + "]");
    if (std::find(out.begin(), out.end(), a) != out.end())
      infer_fail(what + " names axis " + std::to_string(a) + " twice");
    out.push_back(a);
  }
  return out;
}

Dim broadcast_dim(const Dim& a, const Dim& b) {
  if (a.is_known() && a.value() == 1) return b;
  if (b.is_known() && b.value() == 1) return a;
  if (a.is_known() && b.is_known()) {
    if (a.value() != b.value())
      infer_fail("dims " + a.to_string() + " and " + b.to_string() +
                 " do not broadcast (expected equal, or one of them 1)");
    return a;
  }
  // A known dim other than 1 decides: the other is either equal or 1.
  if (a.is_known()) return a;
  if (b.is_known()) return b;
  return a.same_as(b) ? a : Dim();
}

Dims broadcast_shapes(const Dims& a, const Dims& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::size_t from_end = rank - 1 - i;
    const Dim x = from_end < a.size() ? a[a.size() - 1 - from_end] : Dim::value(1);
    const Dim y = from_end < b.size() ? b[b.size() - 1 - from_end] : Dim::value(1);
    out[i] = broadcast_dim(x, y);
  }
  return out;
}

std::optional<Dims> broadcast_shapes(std::span<const std::optional<Dims>> shapes) {
  Dims out;
  for (const auto& s : shapes) {
    if (!s) return std::nullopt;
    out = broadcast_shapes(out, *s);
  }
  return out;
}

std::optional<Dims> broadcast_input_shapes(const InferContext& ctx) {
  std::vector<std::optional<Dims>> shapes;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    const Type& t = ctx.input_type(i);
    if (!t.has_shape()) return std::nullopt;
    shapes.push_back(t.shape);
  }
  if (shapes.empty()) return std::nullopt;
  return broadcast_shapes(shapes);
}

Dims broadcast_to(const Dims& a, const Dims& b) {
  if (b.size() > a.size())
    infer_fail("a shape of rank " + std::to_string(b.size()) + " cannot broadcast to rank " +
               std::to_string(a.size()));
  for (std::size_t i = 0; i < b.size(); ++i) {
    const Dim& x = a[a.size() - b.size() + i];
    const Dim& y = b[i];
    if (y.is_known() && y.value() != 1 && x.is_known() && x.value() != y.value())
      infer_fail("dim " + y.to_string() + " does not broadcast to " + x.to_string() +
                 " (expected equal, or 1)");
  }
  return a;
}

Dims reduce_shape(const Dims& in, std::span<const int64_t> axes, bool keepdims,
                  bool noop_with_empty_axes) {
  if (axes.empty() && noop_with_empty_axes) return in;
  Dims out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const bool reduced =
        axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
    if (!reduced)
      out.push_back(in[i]);
    else if (keepdims)
      out.push_back(Dim::value(1));
  }
  return out;
}

Dims concat_shapes(std::span<const Dims> shapes, int64_t axis) {
  if (shapes.empty()) infer_fail("nothing to concatenate");
  Dims out = shapes[0];
  for (std::size_t k = 1; k < shapes.size(); ++k) {
    const Dims& s = shapes[k];
    if (s.size() != out.size())
      infer_fail("input " + std::to_string(k) + " has rank " + std::to_string(s.size()) +
                 " but input 0 has rank " + std::to_string(out.size()) + " (expected equal)");
    for (std::size_t i = 0; i < s.size(); ++i)
      out[i] =
          static_cast<int64_t>(i) == axis
              ? out[i] + s[i]
              : unify_dim(out[i], s[i], "input " + std::to_string(k) + " dim " + std::to_string(i));
  }
  return out;
}

Dims matmul_shape(const Dims& a, const Dims& b) {
  if (a.empty() || b.empty()) infer_fail("MatMul operands must have rank >= 1, not 0");
  Dims x = a, y = b;
  const bool a_vector = x.size() == 1, b_vector = y.size() == 1;
  if (a_vector) x.insert(x.begin(), Dim::value(1));
  if (b_vector) y.push_back(Dim::value(1));
  unify_dim(x.back(), y[y.size() - 2], "the inner dimension (a's last, b's second-to-last)");
  Dims out = broadcast_shapes(Dims(x.begin(), x.end() - 2), Dims(y.begin(), y.end() - 2));
  if (!a_vector) out.push_back(x[x.size() - 2]);
  if (!b_vector) out.push_back(y.back());
  return out;
}

namespace {
// Slice's clamping (Slice-10+): negative indices count from the end; start and end clamp to
// [0, len] for a positive step and to [-1, len-1] for a negative one.
void clamp_slice(int64_t len, int64_t step, int64_t& start, int64_t& end) {
  if (start < 0) start = start < -len ? (step > 0 ? 0 : -1) : start + len;
  if (end < 0) end = end < -len ? -1 : end + len;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, len);
    end = std::clamp<int64_t>(end, 0, len);
  } else {
    start = std::clamp<int64_t>(start, -1, len - 1);
    end = std::clamp<int64_t>(end, -1, len - 1);
  }
}

// An end index that means "to the end" whatever the (plausible) dim.
bool is_open_end(int64_t end, int64_t step) {
  return step > 0 ? end >= INT32_MAX : end <= -static_cast<int64_t>(INT32_MAX);
}
}  // namespace

std::vector<int64_t> slice_indices(int64_t length, int64_t start, int64_t end, int64_t step) {
  if (step == 0) infer_fail("slice step is 0");
  clamp_slice(length, step, start, end);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) out.push_back(i);
  return out;
}

Dim slice_length(const Dim& dim, int64_t start, int64_t end, int64_t step) {
  if (step == 0) infer_fail("slice step is 0");
  if (dim.is_known()) {
    int64_t s = start, e = end;
    clamp_slice(dim.value(), step, s, e);
    const int64_t span = step > 0 ? e - s : s - e;
    const int64_t mag = step > 0 ? step : -step;
    return Dim::value(span <= 0 ? 0 : (span + mag - 1) / mag);
  }
  if (!dim.is_symbolic()) return Dim();
  // Symbolic: only slices whose length follows from N alone (assuming they are in range).
  if (step > 0 && start >= 0 && is_open_end(end, step))
    return ceil_div(dim - Dim::value(start), Dim::value(step));
  if (step > 0 && start >= 0 && end < 0 && end > -static_cast<int64_t>(INT32_MAX))
    return ceil_div(dim + Dim::value(end) - Dim::value(start), Dim::value(step));
  if (step > 0 && start < 0 && is_open_end(end, step) && start > -INT32_MAX)
    return step == 1 ? min_dim(dim, Dim::value(-start)) : Dim();
  if (step > 0 && start == 0 && end >= 0) return step == 1 ? min_dim(dim, Dim::value(end)) : Dim();
  if (step == -1 && start == -1 && is_open_end(end, step)) return dim;
  if (step < 0 && start >= INT32_MAX && is_open_end(end, step))
    return ceil_div(dim, Dim::value(-step));
  return Dim();
}

Dims reshape_shape(const std::optional<Dims>& in, const Dims& target, bool allowzero) {
  Dims out(target.size());
  std::optional<std::size_t> infer_at;
  for (std::size_t i = 0; i < target.size(); ++i) {
    const Dim& t = target[i];
    if (!t.is_known()) {
      out[i] = t;
      continue;
    }
    const int64_t v = t.value();
    if (v == -1) {
      if (infer_at) infer_fail("the target shape has more than one -1");
      infer_at = i;
    } else if (v == 0 && !allowzero) {
      if (in && i >= in->size())
        infer_fail("target shape dim " + std::to_string(i) +
                   " is 0 (copy) but the input has rank " + std::to_string(in->size()));
      out[i] = in ? (*in)[i] : Dim();
    } else if (v < 0) {
      infer_fail("target shape dim " + std::to_string(i) + " is " + std::to_string(v) +
                 " (expected >= -1)");
    } else {
      out[i] = t;
    }
  }
  if (!infer_at) return out;
  out[*infer_at] = Dim();
  if (!in) return out;
  Dims others = out;
  others.erase(others.begin() + static_cast<std::ptrdiff_t>(*infer_at));
  const Dim total = product(*in), rest = product(others);
  if (total.is_known() && rest.is_known() && rest.value() != 0 && total.value() % rest.value())
    infer_fail("cannot reshape " + std::to_string(total.value()) + " elements into a shape with " +
               std::to_string(rest.value()) + " elements per -1 step");
  if (auto q = exact_div(total, rest)) out[*infer_at] = *q;
  return out;
}

// ---- convolution and pooling windows ------------------------------------------------------

namespace {
std::vector<int64_t> ints_or(const AttrView& attrs, const char* name, std::size_t n, int64_t fill) {
  auto v = attrs.opt_ints(name);
  if (!v || v->empty()) return std::vector<int64_t>(n, fill);
  return *v;
}

void check_length(const std::vector<int64_t>& v, std::size_t n, const char* name) {
  if (v.size() != n)
    infer_fail(std::string("attribute ") + name + " has " + std::to_string(v.size()) +
               " values, expected " + std::to_string(n));
}
}  // namespace

WindowParams window_params(const AttrView& attrs, std::size_t spatial_rank,
                           const std::optional<std::vector<int64_t>>& kernel) {
  WindowParams p;
  auto ks = attrs.opt_ints("kernel_shape");
  if (ks && !ks->empty())
    p.kernel = *ks;
  else if (kernel)
    p.kernel = *kernel;
  else
    infer_fail("the kernel shape is unknown (no kernel_shape attribute)");
  check_length(p.kernel, spatial_rank, "kernel_shape");
  p.strides = ints_or(attrs, "strides", spatial_rank, 1);
  check_length(p.strides, spatial_rank, "strides");
  p.dilations = ints_or(attrs, "dilations", spatial_rank, 1);
  check_length(p.dilations, spatial_rank, "dilations");
  p.pads = ints_or(attrs, "pads", 2 * spatial_rank, 0);
  check_length(p.pads, 2 * spatial_rank, "pads");
  if (auto ap = attrs.opt_string("auto_pad"); ap && !ap->empty()) p.auto_pad = *ap;
  p.ceil_mode = attrs.opt_int("ceil_mode").value_or(0) != 0;
  return p;
}

Dim window_output_dim(const Dim& in, int64_t kernel, int64_t stride, int64_t dilation,
                      int64_t pad_begin, int64_t pad_end, const std::string& auto_pad,
                      bool ceil_mode) {
  if (stride <= 0) infer_fail("stride " + std::to_string(stride) + " is not positive");
  const Dim s = Dim::value(stride);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") return ceil_div(in, s);
  const Dim effective = Dim::value(dilation * (kernel - 1) + 1);
  if (auto_pad == "VALID") return floor_div(in - effective, s) + Dim::value(1);
  const Dim padded = in + Dim::value(pad_begin + pad_end);
  if (!ceil_mode) return floor_div(padded - effective, s) + Dim::value(1);
  Dim out = ceil_div(padded - effective, s) + Dim::value(1);
  // The last window must start inside the input or its left padding.
  if (out.is_known() && in.is_known() && (out.value() - 1) * stride >= in.value() + pad_begin)
    out = Dim::value(out.value() - 1);
  return out;
}

Dims window_output_dims(const Dims& spatial_in, const WindowParams& p) {
  const std::size_t n = spatial_in.size();
  if (p.kernel.size() != n)
    infer_fail("the kernel has " + std::to_string(p.kernel.size()) +
               " spatial dims but the input " + std::to_string(n));
  Dims out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = window_output_dim(spatial_in[i], p.kernel[i], p.strides[i], p.dilations[i], p.pads[i],
                               p.pads[i + n], p.auto_pad, p.ceil_mode);
  return out;
}

Dim conv_transpose_output_dim(const Dim& in, int64_t kernel, int64_t stride, int64_t dilation,
                              int64_t pad_begin, int64_t pad_end, int64_t output_padding,
                              const std::string& auto_pad) {
  const Dim s = Dim::value(stride);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") return in * s;
  return s * (in - Dim::value(1)) +
         Dim::value(output_padding + (kernel - 1) * dilation + 1 - pad_begin - pad_end);
}

// ---- data propagation ---------------------------------------------------------------------

namespace {
template <class T>
std::vector<int64_t> to_int64(const Tensor& t) {
  std::vector<int64_t> out;
  for (T v : t.span<T>()) out.push_back(static_cast<int64_t>(v));
  return out;
}

std::optional<std::vector<int64_t>> tensor_ints(const Tensor& t) {
  switch (t.dtype()) {
    case DataType::int64:
      return to_int64<int64_t>(t);
    case DataType::int32:
      return to_int64<int32_t>(t);
    case DataType::int16:
      return to_int64<int16_t>(t);
    case DataType::int8:
      return to_int64<int8_t>(t);
    case DataType::uint8:
      return to_int64<uint8_t>(t);
    case DataType::uint16:
      return to_int64<uint16_t>(t);
    case DataType::uint32:
      return to_int64<uint32_t>(t);
    case DataType::boolean:
      return to_int64<uint8_t>(t);
    default:
      return std::nullopt;
  }
}
}  // namespace

std::optional<std::vector<int64_t>> known_values(const Dims& values) {
  std::vector<int64_t> out;
  out.reserve(values.size());
  for (const auto& d : values) {
    if (!d.is_known()) return std::nullopt;
    out.push_back(d.value());
  }
  return out;
}

std::optional<std::vector<int64_t>> input_ints(const InferContext& ctx, std::size_t i) {
  if (i >= ctx.num_inputs() || !ctx.has_input(i)) return std::nullopt;
  if (const Dims* v = ctx.input_values(i)) return known_values(*v);
  if (const Tensor* t = ctx.input_constant(i)) return tensor_ints(*t);
  return std::nullopt;
}

std::optional<int64_t> input_int(const InferContext& ctx, std::size_t i) {
  auto v = input_ints(ctx, i);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

std::optional<Dims> input_dims_values(const InferContext& ctx, std::size_t i) {
  if (i >= ctx.num_inputs() || !ctx.has_input(i)) return std::nullopt;
  if (const Dims* v = ctx.input_values(i)) return *v;
  return std::nullopt;
}

Dims dims_from_values(const Dims& values) {
  Dims out = values;
  for (auto& d : out)
    if (d.is_known() && d.value() < 0) d = Dim();
  return out;
}

namespace {
// Integer Div truncates toward zero; shapes hold non-negative sizes, where it is floor.
Dim divide_values(const Dim& x, const Dim& y) {
  if (x.is_known() && y.is_known()) {
    if (y.value() == 0 || (x.value() == INT64_MIN && y.value() == -1)) return Dim();
    return Dim::value(x.value() / y.value());
  }
  return floor_div(x, y);
}

Dim combine(const Dim& x, const Dim& y, char op) {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return divide_values(x, y);
    case 'm':
      return min_dim(x, y);
    case 'M':
      return max_dim(x, y);
    default:
      return Dim();
  }
}
}  // namespace

std::optional<Dims> combine_values(const Dims& a, const Dims& b, char op) {
  const std::size_t n = std::max(a.size(), b.size());
  if ((a.size() != n && a.size() != 1) || (b.size() != n && b.size() != 1)) return std::nullopt;
  Dims out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = combine(a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i], op);
  return out;
}

bool propagate_binary_values(InferContext& ctx, char op) {
  if (ctx.num_inputs() < 2 || !ctx.has_output(0)) return false;
  const Dims* a = ctx.input_values(0);
  const Dims* b = ctx.input_values(1);
  if (!a || !b) return false;
  auto r = combine_values(*a, *b, op);
  if (!r) return false;
  const bool scalar = ctx.input_type(0).rank() == 0 && ctx.input_type(1).rank() == 0;
  ctx.set_output_values(0, std::move(*r), scalar);
  return true;
}

std::optional<Dims> gather_values(const Dims& data, std::span<const int64_t> indices) {
  const auto n = static_cast<int64_t>(data.size());
  Dims out;
  for (int64_t i : indices) {
    if (i < -n || i >= n) return std::nullopt;
    out.push_back(data[static_cast<std::size_t>(i < 0 ? i + n : i)]);
  }
  return out;
}

Dims slice_values(const Dims& data, int64_t start, int64_t end, int64_t step) {
  Dims out;
  for (int64_t i : slice_indices(static_cast<int64_t>(data.size()), start, end, step))
    out.push_back(data[static_cast<std::size_t>(i)]);
  return out;
}

Dim range_length(const Dim& start, const Dim& limit, const Dim& delta) {
  if (delta.is_known() && delta.value() == 0) infer_fail("Range's delta is 0");
  const Dim span = limit - start;
  if (span.is_known() && delta.is_known()) {
    const Dim n = ceil_div(span, delta);
    return n.is_known() && n.value() < 0 ? Dim::value(0) : n;
  }
  if (delta.is_known() && delta.value() > 0) return ceil_div(span, delta);
  return Dim();
}

bool propagate_values(InferContext& ctx, std::size_t in, std::size_t out) {
  if (!ctx.has_output(out)) return false;
  const Dims* v = ctx.input_values(in);
  if (!v) return false;
  ctx.set_output_values(out, *v, ctx.output_type(out).rank() == 0);
  return true;
}

// ---- element types ------------------------------------------------------------------------

int32_t elem_type_from_name(const std::string& name) {
  auto t = data_type_from_name(name);
  return t ? static_cast<int32_t>(*t) : 0;
}

int32_t single_allowed_elem_type(const TypeConstraint& c) {
  if (c.allowed.size() != 1) return 0;
  const std::string& s = c.allowed[0];
  const std::string prefix = "tensor(";
  if (s.rfind(prefix, 0) != 0 || s.back() != ')') return 0;
  return elem_type_from_name(s.substr(prefix.size(), s.size() - prefix.size() - 1));
}

}  // namespace onnxtool
