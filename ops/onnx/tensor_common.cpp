// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/tensor_common.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>

#include "core/infer/helpers.h"
#include "core/kernels/transpose.h"

namespace onnxtool::ops {

// ---- moving elements ------------------------------------------------------------------------

std::size_t elem_width(DataType t) {
  return t == DataType::string ? 0 : static_cast<std::size_t>(type_info(t).mem_bytes);
}

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
  return s;
}

int64_t shape_product(const Shape& shape, std::size_t from, std::size_t to) {
  const std::size_t end = std::min(to, shape.size());
  if (from >= end) return 1;
  return std::accumulate(shape.begin() + static_cast<std::ptrdiff_t>(from),
                         shape.begin() + static_cast<std::ptrdiff_t>(end), int64_t{1},
                         std::multiplies<>());
}

void copy_elements(const Tensor& src, int64_t src_at, Tensor& dst, int64_t dst_at, int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DataType::string) {
    const auto& from = src.strings();
    auto& to = dst.mutable_strings();
    std::copy_n(from.begin() + src_at, n, to.begin() + dst_at);
    return;
  }
  const std::size_t w = elem_width(src.dtype());
  std::memcpy(dst.mutable_raw() + static_cast<std::size_t>(dst_at) * w,
              src.raw() + static_cast<std::size_t>(src_at) * w, static_cast<std::size_t>(n) * w);
}

void fill_elements(Tensor& dst, int64_t at, int64_t n, const Tensor& value) {
  if (n <= 0) return;
  if (dst.dtype() == DataType::string) {
    auto& to = dst.mutable_strings();
    std::fill_n(to.begin() + at, n, value.strings().at(0));
    return;
  }
  const std::size_t w = elem_width(dst.dtype());
  std::byte* out = dst.mutable_raw() + static_cast<std::size_t>(at) * w;
  const std::byte* v = value.raw();
  // A zero pattern (the common constant) is one memset.
  if (std::all_of(v, v + w, [](std::byte b) { return b == std::byte{0}; })) {
    std::memset(out, 0, static_cast<std::size_t>(n) * w);
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(out + static_cast<std::size_t>(i) * w, v, w);
}

namespace {

// An iteration over a shape with two layouts, simplified: size-1 dims dropped and dims that are
// contiguous in both layouts merged, so the innermost dim is as long as possible.
struct CopyPlan {
  Shape shape;
  std::vector<int64_t> src, dst;
};

CopyPlan simplify(const Shape& shape, const std::vector<int64_t>& s,
                  const std::vector<int64_t>& d) {
  CopyPlan p;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;
    if (!p.shape.empty() && p.src.back() == s[k] * shape[k] && p.dst.back() == d[k] * shape[k]) {
      p.shape.back() *= shape[k];
      p.src.back() = s[k];
      p.dst.back() = d[k];
    } else {
      p.shape.push_back(shape[k]);
      p.src.push_back(s[k]);
      p.dst.push_back(d[k]);
    }
  }
  if (p.shape.empty()) p = CopyPlan{{1}, {1}, {1}};
  return p;
}

// Copies n elements of W bytes with element strides ss and ds.
template <std::size_t W>
void copy_run(const std::byte* src, int64_t ss, std::byte* dst, int64_t ds, int64_t n) {
  const auto sstep = static_cast<std::ptrdiff_t>(ss) * static_cast<std::ptrdiff_t>(W);
  const auto dstep = static_cast<std::ptrdiff_t>(ds) * static_cast<std::ptrdiff_t>(W);
  for (int64_t i = 0; i < n; ++i, src += sstep, dst += dstep) std::memcpy(dst, src, W);
}

using RunFn = void (*)(const std::byte*, int64_t, std::byte*, int64_t, int64_t);

RunFn run_for_width(std::size_t w) {
  switch (w) {
    case 1:
      return copy_run<1>;
    case 2:
      return copy_run<2>;
    case 4:
      return copy_run<4>;
    case 8:
      return copy_run<8>;
    default:
      return copy_run<16>;
  }
}

// Walks the outer dims of a plan (all but the innermost) for rows [begin, end), calling
// row(src_offset, dst_offset) for each; offsets are in elements.
template <class Row>
void walk_rows(const CopyPlan& p, int64_t src0, int64_t dst0, int64_t begin, int64_t end,
               Row&& row) {
  const std::size_t outer = p.shape.size() - 1;
  std::vector<int64_t> idx(outer);
  int64_t so = src0, dso = dst0, rem = begin;
  for (std::size_t k = outer; k-- > 0;) {
    idx[k] = rem % p.shape[k];
    rem /= p.shape[k];
    so += idx[k] * p.src[k];
    dso += idx[k] * p.dst[k];
  }
  for (int64_t r = begin; r < end; ++r) {
    row(so, dso);
    for (std::size_t k = outer; k-- > 0;) {
      so += p.src[k];
      dso += p.dst[k];
      if (++idx[k] < p.shape[k]) break;
      so -= p.src[k] * p.shape[k];
      dso -= p.dst[k] * p.shape[k];
      idx[k] = 0;
    }
  }
}

constexpr int64_t kParallelBytes = int64_t{1}
                                   << 18;  // below this, threads cost more than they save
constexpr int64_t kChunkBytes = int64_t{1} << 15;
// Contiguous rows copied in pieces of about this many bytes when they are too few to keep the
// threads busy one row each (a batch-1 Concat's channel blocks, a Split's parts).
constexpr int64_t kPieceBytes = int64_t{1} << 16;

// A contiguous copy of few long rows: each row cut into pieces, all shared out at once.
// Returns false where rows alone spread well enough, or the copy is too small to split.
bool copy_row_pieces(const CopyPlan& p, int64_t src0, int64_t dst0, int64_t rows, int64_t inner,
                     std::size_t w, const std::byte* s, std::byte* d, const KernelContext* ctx) {
  const int64_t row_bytes = inner * static_cast<int64_t>(w);
  if (!ctx || ctx->threads() <= 1 || rows >= 2 * ctx->threads() ||
      rows * row_bytes < kParallelBytes || row_bytes < 2 * kPieceBytes)
    return false;
  const int64_t pieces = row_bytes / kPieceBytes;
  const auto iw = static_cast<int64_t>(w);
  ctx->parallel_for(rows * pieces, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t row = t / pieces, k = t % pieces;
      const int64_t e0 = k * inner / pieces, e1 = (k + 1) * inner / pieces;
      walk_rows(p, src0, dst0, row, row + 1, [&](int64_t so, int64_t dso) {
        std::memcpy(d + (dso + e0) * iw, s + (so + e0) * iw, static_cast<std::size_t>(e1 - e0) * w);
      });
    }
  });
  return true;
}

// Output rows of a float copy cut into pieces of at least this many when they are few.
constexpr int64_t kTransposePieceRows = 64;

// A float copy whose innermost output dim walks the source with a stride while another dim is
// contiguous in the source (NCHW -> NHWC, a key's [seq, heads, dim] -> [heads, dim, seq]): 2-D
// transposes of that dim against the innermost one, in kernels::transpose_f32's blocks, rather
// than a float at a time at a stride. Returns false where the copy is not such a one.
bool copy_as_transposes(const CopyPlan& p, int64_t src0, int64_t dst0, const float* s, float* d,
                        const KernelContext* ctx) {
  const std::size_t last = p.shape.size() - 1;
  if (last == 0 || p.dst[last] != 1 || p.src[last] == 1) return false;
  std::size_t k = last;
  for (std::size_t i = 0; i < last; ++i)
    if (p.src[i] == 1) k = i;
  if (k == last || p.shape[k] < 8 || p.shape[last] < 8) return false;
  // The plan without dim k: each of its rows one transpose, of p.shape[last] source rows
  // (p.src[last] apart) by p.shape[k] columns.
  CopyPlan q = p;
  q.shape.erase(q.shape.begin() + static_cast<std::ptrdiff_t>(k));
  q.src.erase(q.src.begin() + static_cast<std::ptrdiff_t>(k));
  q.dst.erase(q.dst.begin() + static_cast<std::ptrdiff_t>(k));
  const int64_t inner = p.shape[last], cols = p.shape[k], src_ld = p.src[last], dst_ld = p.dst[k];
  const int64_t blocks = shape_product(q.shape) / inner;
  const int64_t threads = ctx ? ctx->threads() : 1;
  const int64_t pieces =
      blocks >= 2 * threads
          ? 1
          : std::max<int64_t>(1, std::min(2 * threads, inner / kTransposePieceRows));
  auto rows_of = [&](int64_t j0, int64_t j1) {
    return [=](int64_t so, int64_t dso) {
      kernels::transpose_f32(s + so + j0 * src_ld, src_ld, j1 - j0, cols, d + dso + j0, dst_ld);
    };
  };
  parallel_rows(ctx, blocks * pieces, inner / pieces * cols * 4, [&](int64_t b, int64_t e) {
    if (pieces == 1) return walk_rows(q, src0, dst0, b, e, rows_of(0, inner));  // one walk
    for (int64_t t = b; t < e; ++t) {
      const int64_t piece = t % pieces;
      walk_rows(q, src0, dst0, t / pieces, t / pieces + 1,
                rows_of(piece * inner / pieces, (piece + 1) * inner / pieces));
    }
  });
  return true;
}

}  // namespace

void parallel_rows(const KernelContext* ctx, int64_t n, int64_t cost,
                   const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  const int64_t c = std::max<int64_t>(cost, 1);
  if (!ctx || ctx->threads() <= 1 || n < 2 || n * c < kParallelBytes) {
    fn(0, n);
    return;
  }
  ctx->parallel_for(n, std::max<int64_t>(1, kChunkBytes / c), fn);
}

void copy_runs(const KernelContext& ctx, const std::vector<ByteRun>& runs) {
  std::vector<ByteRun> pieces;  // the runs cut at kPieceBytes
  int64_t total = 0;
  for (const ByteRun& r : runs) {
    for (int64_t b = 0; b < r.bytes; b += kPieceBytes)
      pieces.push_back({r.src + b, r.dst + b, std::min(kPieceBytes, r.bytes - b)});
    total += r.bytes;
  }
  if (pieces.empty()) return;
  const auto n = static_cast<int64_t>(pieces.size());
  parallel_rows(&ctx, n, total / n, [&](int64_t lo, int64_t hi) {
    for (int64_t k = lo; k < hi; ++k) {
      const ByteRun& p = pieces[static_cast<std::size_t>(k)];
      std::memcpy(p.dst, p.src, static_cast<std::size_t>(p.bytes));
    }
  });
}

void strided_copy(const Tensor& src, const Layout& from, Tensor& dst, const Layout& to,
                  const Shape& shape, const KernelContext* ctx) {
  if (shape_product(shape) == 0) return;
  const CopyPlan p = simplify(shape, from.strides, to.strides);
  const int64_t inner = p.shape.back();
  const int64_t rows = shape_product(p.shape) / inner;
  const int64_t ss = p.src.back(), ds = p.dst.back();
  if (src.dtype() == DataType::string) {
    const std::string* s = src.strings().data();
    std::string* d = dst.mutable_strings().data();
    parallel_rows(ctx, rows, inner * 32, [&](int64_t b, int64_t e) {
      walk_rows(p, from.offset, to.offset, b, e, [&](int64_t so, int64_t dso) {
        for (int64_t i = 0; i < inner; ++i) d[dso + i * ds] = s[so + i * ss];
      });
    });
    return;
  }
  const std::size_t w = elem_width(src.dtype());
  const std::byte* s = src.raw();
  std::byte* d = dst.mutable_raw();
  const auto iw = static_cast<int64_t>(w);
  const RunFn run = run_for_width(w);
  const bool contiguous = ss == 1 && ds == 1;
  if (contiguous && copy_row_pieces(p, from.offset, to.offset, rows, inner, w, s, d, ctx)) return;
  if (src.dtype() == DataType::float32 &&
      copy_as_transposes(p, from.offset, to.offset, src.data<float>(), dst.mutable_data<float>(),
                         ctx))
    return;
  parallel_rows(ctx, rows, inner * iw, [&](int64_t b, int64_t e) {
    walk_rows(p, from.offset, to.offset, b, e, [&](int64_t so, int64_t dso) {
      if (contiguous)
        std::memcpy(d + dso * iw, s + so * iw, static_cast<std::size_t>(inner) * w);
      else
        run(s + so * iw, ss, d + dso * iw, ds, inner);
    });
  });
}

void strided_copy_reference(const Tensor& src, const Layout& from, Tensor& dst, const Layout& to,
                            const Shape& shape) {
  const int64_t n = shape_product(shape);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rem = flat, so = from.offset, dso = to.offset;
    for (std::size_t k = shape.size(); k-- > 0;) {
      const int64_t i = rem % shape[k];
      rem /= shape[k];
      so += i * from.strides[k];
      dso += i * to.strides[k];
    }
    copy_elements(src, so, dst, dso, 1);
  }
}

// ---- numbers -------------------------------------------------------------------------------

double element_as_double(const Tensor& t, int64_t i) {
  return visit_type(t.dtype(), [&](auto tag) -> double {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>)
      return 0;
    else
      return to_double<T>(t.data<T>()[i]);
  });
}

void store_double(Tensor& t, int64_t i, double v) {
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, std::string>) t.mutable_data<T>()[i] = from_double<T>(v);
  });
}

Tensor scalar_of(DataType type, double v) {
  Tensor t(type, {});
  store_double(t, 0, v);
  return t;
}

Reduction read_reduction(const KernelContext& ctx) {
  const std::string r = ctx.attrs().get_string("reduction", "none");
  if (r == "none") return Reduction::none;
  if (r == "add") return Reduction::add;
  if (r == "mul") return Reduction::mul;
  if (r == "max" && since(ctx) >= 18) return Reduction::max;
  if (r == "min" && since(ctx) >= 18) return Reduction::min;
  ctx.fail("reduction \"" + r + "\" is not one this version knows (none, add, mul" +
           std::string(since(ctx) >= 18 ? ", max, min)" : ")"));
}

namespace {

template <class T>
T reduce_pair(const KernelContext& ctx, T a, T b, Reduction r) {
  if constexpr (std::is_same_v<T, bool>) {
    return (r == Reduction::add || r == Reduction::max) ? (a || b) : (a && b);
  } else if constexpr (is_complex_v<T>) {
    if (r == Reduction::max || r == Reduction::min) ctx.fail("max and min do not apply to complex");
    return r == Reduction::add ? a + b : a * b;
  } else {
    using A = arith_t<T>;
    const A x = load(a), y = load(b);
    switch (r) {
      case Reduction::add:
        return store<T>(static_cast<A>(x + y));
      case Reduction::mul:
        return store<T>(static_cast<A>(x * y));
      case Reduction::max:
        return store<T>(std::max(x, y));
      default:
        return store<T>(std::min(x, y));
    }
  }
}

}  // namespace

void apply_moves(const KernelContext& ctx, Tensor& dst, const Tensor& src,
                 const std::vector<Move>& moves, Reduction r) {
  if (r == Reduction::none) {
    for (const Move& m : moves) copy_elements(src, m.src, dst, m.dst, m.n);
    return;
  }
  visit_type(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      ctx.fail("a reduction does not apply to strings");
    } else {
      T* d = dst.mutable_data<T>();
      const T* s = src.data<T>();
      for (const Move& m : moves)
        for (int64_t i = 0; i < m.n; ++i)
          d[m.dst + i] = reduce_pair<T>(ctx, d[m.dst + i], s[m.src + i], r);
    }
  });
}

// ---- indices --------------------------------------------------------------------------------

std::string indexed(const std::string& what, std::size_t i) {
  return what + "[" + std::to_string(i) + "]";
}

std::vector<int64_t> read_ints(const NodeInfo& ctx, const Tensor& t, const std::string& what) {
  return visit_type(t.dtype(), [&](auto tag) -> std::vector<int64_t> {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      std::vector<int64_t> out(static_cast<std::size_t>(t.numel()));
      const T* p = t.data<T>();
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int64_t>(p[i]);
      return out;
    } else {
      ctx.fail(what + " must be an integer tensor, got " + std::string(type_name(t.dtype())));
    }
  });
}

int64_t read_scalar_int(const NodeInfo& ctx, const Tensor& t, const std::string& what) {
  if (t.numel() != 1)
    ctx.fail(what + " must hold exactly one value, got shape " + shape_to_string(t.shape()));
  return read_ints(ctx, t, what)[0];
}

int64_t checked_index(const NodeInfo& ctx, int64_t index, int64_t dim, const std::string& what,
                      const std::string& where) {
  if (index < -dim || index >= dim)
    ctx.fail(what + " = " + std::to_string(index) + " is out of range for " + where + " of size " +
             std::to_string(dim) + " (expected " + std::to_string(-dim) + " to " +
             std::to_string(dim - 1) + ")");
  return index < 0 ? index + dim : index;
}

int64_t kernel_axis(const KernelContext& ctx, int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    ctx.fail(what + " " + std::to_string(axis) + " is out of range for rank " +
             std::to_string(rank) + " (expected " + std::to_string(-rank) + " to " +
             std::to_string(rank - 1) + ")");
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> kernel_axes(const KernelContext& ctx, const std::vector<int64_t>& axes,
                                 int64_t rank, bool allow_negative) {
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!allow_negative && axes[i] < 0)
      ctx.fail(indexed("axes", i) + " = " + std::to_string(axes[i]) +
               " is negative, which this version of the operator does not accept");
    const int64_t a = kernel_axis(ctx, axes[i], rank, indexed("axes", i));
    if (!seen.insert(a).second) ctx.fail("axis " + std::to_string(a) + " appears twice in axes");
    out.push_back(a);
  }
  return out;
}

// ---- inference ------------------------------------------------------------------------------

Dims dims_of(const std::vector<int64_t>& shape) {
  Dims out;
  out.reserve(shape.size());
  for (int64_t d : shape) out.push_back(Dim::value(d));
  return out;
}

const Dims* input_shape(const InferContext& ctx, std::size_t i) {
  if (i >= ctx.num_inputs() || !ctx.has_input(i)) return nullptr;
  const Type& t = ctx.input_type(i);
  return t.shape ? &*t.shape : nullptr;
}

AxesArg axes_attr_or_input(const InferContext& ctx, bool from_input, std::size_t input,
                           const char* attr) {
  AxesArg a;
  if (!from_input) {
    a.given = ctx.attrs().has(attr);
    if (a.given) a.values = ctx.attrs().get_ints(attr);
    return a;
  }
  a.given = input < ctx.num_inputs() && ctx.has_input(input);
  if (a.given) a.values = input_ints(ctx, input);
  return a;
}

std::vector<int64_t> infer_axes(const std::vector<int64_t>& axes, int64_t rank,
                                bool allow_negative) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!allow_negative && axes[i] < 0)
      infer_fail(indexed("axes", i) + " = " + std::to_string(axes[i]) +
                 " is negative, which this version of the operator does not accept");
  return normalize_axes(axes, rank);
}

void set_values(InferContext& ctx, std::size_t out, Dims values, bool scalar) {
  if (!ctx.has_output(out)) return;
  ctx.set_output_values(out, std::move(values), scalar);
}

int since(const InferContext& ctx) {
  return ctx.schema().since;
}

int since(const KernelContext& ctx) {
  return ctx.schema().since;
}

}  // namespace onnxtool::ops
