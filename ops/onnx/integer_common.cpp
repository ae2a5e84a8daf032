// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/integer_common.h"

#include "core/kernels/quantize.h"
#include "core/types/float_formats.h"
#include "ops/onnx/im2col.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::integer {

const Tensor* optional_input(const KernelContext& ctx, std::size_t i) {
  return ctx.num_inputs() > i && ctx.has_input(i) ? &ctx.input(i) : nullptr;
}

// ---- zero points and scales --------------------------------------------------------------------

ParamIndex::ParamIndex(const NodeInfo& ctx, const Shape& target, const Shape& param, ParamAxis axis,
                       const char* what) {
  int64_t count = 1;
  for (int64_t d : param) count *= d;
  if (count == 1) return;  // one value, whatever its rank: per tensor
  scalar_ = false;
  Shape p = param;
  // A 1-D parameter names the rows of a matrix ([M] means [M, 1]) or a conv weight's dim 0.
  if (p.size() == 1 && axis == ParamAxis::rows) p.push_back(1);
  if (p.size() == 1 && axis == ParamAxis::channel) p.insert(p.end(), target.size() - 1, 1);
  const std::string bad = std::string(what) + " has shape " + shape_to_string(param) +
                          ", which does not fit its operand " + shape_to_string(target);
  if (p.size() > target.size()) ctx.fail(bad);
  p.insert(p.begin(), target.size() - p.size(), 1);
  const std::size_t r = target.size();
  // The reduced axis (K of a matrix, the weight's input channels and kernel) must be 1.
  for (std::size_t i = 0; i < r; ++i) {
    const bool reduced = (axis == ParamAxis::rows && i + 1 == r) ||
                         (axis == ParamAxis::columns && i + 2 == r) ||
                         (axis == ParamAxis::channel && i > 0);
    if ((p[i] != 1 && p[i] != target[i]) || (reduced && p[i] != 1)) ctx.fail(bad);
  }
  target_.assign(target.begin(), target.end());
  strides_.assign(r, 0);
  for (std::size_t i = r, s = 1; i-- > 0;) {
    strides_[i] = p[i] == 1 ? 0 : static_cast<int64_t>(s);
    s *= static_cast<std::size_t>(p[i]);
  }
}

int64_t ParamIndex::operator()(int64_t i) const {
  if (scalar_) return 0;
  int64_t at = 0;
  for (std::size_t d = target_.size(); d-- > 0;) {
    at += (i % target_[d]) * strides_[d];
    i /= target_[d];
  }
  return at;
}

namespace {

bool is_int8(DataType t) {
  return t == DataType::int8 || t == DataType::uint8;
}

int32_t element(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::int8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

}  // namespace

std::vector<double> scale_values(const KernelContext& ctx, const Tensor& s, const char* what) {
  if (!misc::is_float_type(s.dtype()))
    ctx.fail(std::string(what) + " must be a float tensor, not " +
             std::string(type_name(s.dtype())));
  return misc::values_as<double>(ctx, s, what);
}

double scale_product(double a, double b, double c, DataType type) {
  auto round = [type](double v) -> double {
    switch (type) {
      case DataType::float16:
        return to_float(to_float16(v));
      case DataType::bfloat16:
        return to_float(to_bfloat16(v));
      case DataType::float64:
        return v;
      default:
        return static_cast<double>(static_cast<float>(v));
    }
  };
  return round(round(a * b) / c);
}

bool integer_range(DataType t, double& lo, double& hi) {
  if (t == DataType::int8) {
    lo = -128, hi = 127;
    return true;
  }
  if (t == DataType::uint8) {
    lo = 0, hi = 255;
    return true;
  }
  return false;
}

void store_q(const KernelContext& ctx, const std::vector<double>& q, Tensor& y) {
  misc::store_values<double>(ctx, y, q);
}

// ---- matrix products -------------------------------------------------------------------------

MatmulPlan plan_matmul(const KernelContext& ctx, const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) ctx.fail("matrix operands must have rank >= 1");
  MatmulPlan p;
  p.a = a;
  p.b = b;
  if (p.a.size() == 1) p.a.insert(p.a.begin(), 1);
  if (p.b.size() == 1) p.b.push_back(1);
  p.m = p.a[p.a.size() - 2];
  p.k = p.a.back();
  p.n = p.b.back();
  if (p.b[p.b.size() - 2] != p.k)
    ctx.fail("A " + shape_to_string(a) + " and B " + shape_to_string(b) +
             " do not multiply (A's last dim must equal B's second-to-last)");
  Shape ba(p.a.begin(), p.a.end() - 2), bb(p.b.begin(), p.b.end() - 2);
  const std::size_t rank = std::max(ba.size(), bb.size());
  ba.insert(ba.begin(), rank - ba.size(), 1);
  bb.insert(bb.begin(), rank - bb.size(), 1);
  Shape batch(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    if (ba[i] != bb[i] && ba[i] != 1 && bb[i] != 1)
      ctx.fail("the batch dims of A " + shape_to_string(a) + " and B " + shape_to_string(b) +
               " do not broadcast");
    batch[i] = ba[i] == 1 ? bb[i] : ba[i];
  }
  // Each operand's batch strides (0 where it is broadcast), then every item's offsets.
  std::vector<int64_t> sa(rank), sb(rank);
  int64_t ea = p.m * p.k, eb = p.k * p.n, items = 1;
  for (std::size_t i = rank; i-- > 0;) {
    sa[i] = ba[i] == 1 ? 0 : ea;
    sb[i] = bb[i] == 1 ? 0 : eb;
    ea *= ba[i];
    eb *= bb[i];
    items *= batch[i];
  }
  for (int64_t it = 0; it < items; ++it) {
    int64_t oa = 0, ob = 0;
    for (std::size_t i = rank, rest = static_cast<std::size_t>(it); i-- > 0;) {
      const auto idx = static_cast<int64_t>(rest % static_cast<std::size_t>(batch[i]));
      rest /= static_cast<std::size_t>(batch[i]);
      oa += idx * sa[i];
      ob += idx * sb[i];
    }
    p.a_offset.push_back(oa);
    p.b_offset.push_back(ob);
  }
  p.full = batch;
  p.full.push_back(p.m);
  p.full.push_back(p.n);
  p.out = batch;
  if (a.size() > 1) p.out.push_back(p.m);
  if (b.size() > 1) p.out.push_back(p.n);
  return p;
}

namespace {

kernels::ByteKind byte_kind(const KernelContext& ctx, const Tensor& x, const Tensor* zero,
                            const char* what) {
  if (!is_int8(x.dtype()))
    ctx.fail(std::string(what) + " has element type " + std::string(type_name(x.dtype())) +
             "; only int8 and uint8 are supported");
  if (zero && zero->numel() > 0 && zero->dtype() != x.dtype())
    ctx.fail(std::string(what) + "'s zero point must have its element type " +
             std::string(type_name(x.dtype())));
  return x.dtype() == DataType::int8 ? kernels::ByteKind::s8 : kernels::ByteKind::u8;
}

// The zero point of each of `count` positions of x (seen as `target`), position i at flat index
// flat(i); one value when the zero point is per tensor.
template <class Flat>
std::vector<int32_t> zero_points(const NodeInfo& ctx, const Tensor* zero, const Shape& target,
                                 ParamAxis axis, const char* what, int64_t count, Flat&& flat) {
  if (!zero || zero->numel() == 0) return {0};
  const ParamIndex index(ctx, target, zero->shape(), axis, what);
  if (index.scalar()) return {element(*zero, 0)};
  std::vector<int32_t> v(static_cast<std::size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    v[static_cast<std::size_t>(i)] = element(*zero, index(flat(i)));
  return v;
}

// How the products of `items` matrices of rows x cols are cut into tasks for the threads: column
// blocks of whole 32-column tiles (at most max_cols wide), and, where that leaves too few tasks to
// even the threads out, row blocks of whole register tiles too (a convolution's then share one
// packed B: shared_b_grid; a matrix product's pack theirs, little next to the product where the
// columns are few). Column blocks of 32 alone cut a 7x7 plane into
// two tasks of 32 and 17 columns (one thread idle a third of the time), a 14x14 one into
// 64 + 64 + 64 + 4 (loads 128 and 68).
struct IntGrid {
  int64_t row_blocks = 1, col_blocks = 1;
  int64_t per_item() const { return row_blocks * col_blocks; }
};

constexpr int64_t kIntColumnUnit = 32;
// Tasks per thread: the pool hands them out as threads free up, which evens out uneven tasks and
// a core that runs slower for a while.
constexpr int64_t kIntTasksPerThread = 4;

IntGrid int_grid(int64_t items, int64_t rows, int64_t cols, int64_t threads, int64_t max_cols) {
  const int64_t col_units = (cols + kIntColumnUnit - 1) / kIntColumnUnit;
  const int64_t row_units = (rows + kernels::int_row_align() - 1) / kernels::int_row_align();
  const int64_t wanted = threads > 1 ? kIntTasksPerThread * threads : 1;
  const int64_t per_item = std::max<int64_t>(1, (wanted + items - 1) / items);
  IntGrid grid;
  const int64_t fewest = (cols + max_cols - 1) / max_cols;
  grid.col_blocks = std::clamp<int64_t>(per_item, fewest, std::max<int64_t>(1, col_units));
  // A multiple of the threads where the columns allow: 13 blocks of a 56x56 plane (256 columns
  // at most each) kept one thread busy for a block longer than the other.
  if (threads > 1 && items % threads != 0) {
    const int64_t even = (grid.col_blocks + threads - 1) / threads * threads;
    if (even <= col_units) grid.col_blocks = even;
  }
  if (grid.col_blocks < per_item)
    grid.row_blocks = std::min(row_units, (per_item + grid.col_blocks - 1) / grid.col_blocks);
  return grid;
}

// The grid of products whose row blocks share one B packed once (kernels::PackedInt8B): all
// columns in one block, the rows in about kIntTasksPerThread blocks a thread.
IntGrid shared_b_grid(int64_t rows, int64_t threads) {
  const int64_t row_units = (rows + kernels::int_row_align() - 1) / kernels::int_row_align();
  return {std::min(row_units, kIntTasksPerThread * threads), 1};
}

// Rows and columns of task t of an item cut by `grid`.
struct IntPiece {
  int64_t r0, r1, c0, c1;
};
IntPiece int_piece(const IntGrid& grid, int64_t rows, int64_t cols, int64_t t) {
  const auto [r0, r1] =
      nn::piece_bounds(rows, grid.row_blocks, kernels::int_row_align(), t / grid.col_blocks);
  const auto [c0, c1] =
      nn::piece_bounds(cols, grid.col_blocks, kIntColumnUnit, t % grid.col_blocks);
  return {r0, r1, c0, c1};
}

}  // namespace

void matmul_int32(const KernelContext& ctx, const MatmulPlan& p, const Tensor& a,
                  const Tensor* a_zero, const Tensor& b, const Tensor* b_zero, int32_t* y) {
  const kernels::ByteKind ka = byte_kind(ctx, a, a_zero, "A");
  const kernels::ByteKind kb = byte_kind(ctx, b, b_zero, "B");
  const auto items = static_cast<int64_t>(p.a_offset.size());
  const int64_t m = p.m, n = p.n, k = p.k;
  if (items * m * n == 0) return;
  if (k == 0) {
    std::fill(y, y + items * m * n, 0);
    return;
  }
  // Zero points as the kernels take them: per row of each of A's matrices (per column of B's),
  // one value when per tensor.
  const int64_t a_matrices = a.numel() / (m * k), b_matrices = b.numel() / (k * n);
  const auto za = zero_points(ctx, a_zero, p.a, ParamAxis::rows, "A's zero point", a_matrices * m,
                              [k](int64_t i) { return i * k; });
  const auto zb = zero_points(ctx, b_zero, p.b, ParamAxis::columns, "B's zero point",
                              b_matrices * n, [k, n](int64_t i) { return i / n * k * n + i % n; });
  auto slice = [](const std::vector<int32_t>& z, int64_t at, int64_t len) {
    return z.size() == 1 ? std::span<const int32_t>(z)
                         : std::span<const int32_t>(z).subspan(static_cast<std::size_t>(at),
                                                               static_cast<std::size_t>(len));
  };
  // A packed once per item (every column block of the item multiplies it), on the pool.
  const auto* a_bytes = a.data<uint8_t>();
  const auto* b_bytes = b.data<uint8_t>();
  std::vector<kernels::PackedInt8A> packed(static_cast<std::size_t>(items));
  ctx.parallel_for(items, nn::grain_for(m * k), [&](int64_t lo, int64_t hi) {
    for (int64_t it = lo; it < hi; ++it) {
      const int64_t ao = p.a_offset[static_cast<std::size_t>(it)];
      packed[static_cast<std::size_t>(it)] =
          kernels::PackedInt8A(m, k, a_bytes + ao, k, ka, slice(za, ao / k, m));
    }
  });
  const IntGrid grid = int_grid(items, m, n, ctx.threads(), n);
  const int64_t per_item = grid.per_item();
  ctx.parallel_for(items * per_item, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t task = lo; task < hi; ++task) {
      const int64_t it = task / per_item;
      const IntPiece piece = int_piece(grid, m, n, task % per_item);
      const int64_t bo = p.b_offset[static_cast<std::size_t>(it)];
      kernels::Int8B src;
      src.kind = kb;
      src.k = k;
      src.n = n;
      src.data = b_bytes + bo;
      src.ldb = n;
      src.zero = slice(zb, bo / (k * n) * n, n);
      kernels::igemm_rows(packed[static_cast<std::size_t>(it)], src, piece.r0, piece.r1, piece.c0,
                          piece.c1, y + it * m * n, n);
    }
  });
}

// ---- convolution -----------------------------------------------------------------------------

nn::ConvGeometry conv_geometry(const KernelContext& ctx, const Shape& x, const Shape& w) {
  if (x.size() < 3) ctx.fail("x must have rank >= 3 ([N, C, D1, ...]), not " + shape_to_string(x));
  if (w.size() != x.size())
    ctx.fail("w has shape " + shape_to_string(w) + " but x has shape " + shape_to_string(x) +
             " (expected equal ranks)");
  nn::ConvGeometry g;
  g.batch = x[0];
  g.in_channels = x[1];
  g.out_channels = w[0];
  g.group = ctx.attrs().get_int("group", 1);
  if (g.group <= 0) ctx.fail("group " + std::to_string(g.group) + " is not positive");
  if (g.in_channels != w[1] * g.group)
    ctx.fail("x has " + std::to_string(g.in_channels) + " channels but w " + shape_to_string(w) +
             " with group " + std::to_string(g.group) + " expects " +
             std::to_string(w[1] * g.group));
  if (g.out_channels % g.group != 0)
    ctx.fail("w's " + std::to_string(g.out_channels) + " output channels are not a multiple of " +
             "group " + std::to_string(g.group));
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (auto ks = ctx.attrs().opt_ints("kernel_shape"); ks && !ks->empty() && *ks != kernel)
    ctx.fail("kernel_shape does not match w's spatial dims " + shape_to_string(kernel));
  g.window = nn::make_window(ctx, std::span(x).subspan(2), kernel);
  return g;
}

Shape conv_output_shape(const nn::ConvGeometry& g) {
  Shape y{g.batch, g.out_channels};
  y.insert(y.end(), g.window.out.begin(), g.window.out.end());
  return y;
}

namespace {

// W [M, C/group, kernel...] as `group` packed matrices of mg rows, with their zero points (one,
// or one per output channel).
PackedConvWeights pack_groups(const Tensor& w, const std::vector<int32_t>& zw, int64_t group) {
  const auto kind = w.dtype() == DataType::int8 ? kernels::ByteKind::s8 : kernels::ByteKind::u8;
  const int64_t m = w.shape()[0], mg = m / group, kdim = w.numel() / m;
  PackedConvWeights packed;
  for (int64_t grp = 0; grp < group; ++grp) {
    const auto zeros = zw.size() == 1
                           ? std::span<const int32_t>(zw)
                           : std::span<const int32_t>(zw).subspan(
                                 static_cast<std::size_t>(grp * mg), static_cast<std::size_t>(mg));
    packed.groups.emplace_back(mg, kdim, w.data<uint8_t>() + grp * mg * kdim, kdim, kind, zeros);
  }
  return packed;
}

// W's zero point per output channel (one value when per tensor); fails the node when it does
// not fit W.
std::vector<int32_t> weight_zero_points(const NodeInfo& ctx, const Tensor& w, const Tensor* zero) {
  const int64_t m = w.shape()[0], kdim = m > 0 ? w.numel() / m : 0;
  return zero_points(ctx, zero, w.shape(), ParamAxis::channel, "w's zero point", m,
                     [kdim](int64_t i) { return i * kdim; });
}

}  // namespace

PackedConvWeights pack_conv_weights(const PrepareContext& ctx, std::size_t w_index,
                                    std::size_t zero_index) {
  const Tensor* w = ctx.constant_tensor(w_index);
  const bool has_zero = ctx.num_inputs() > zero_index && ctx.has_input(zero_index);
  const Tensor* zero = has_zero ? ctx.constant_tensor(zero_index) : nullptr;
  const int64_t group = ctx.attrs().get_int("group", 1);
  if (!w || !is_int8(w->dtype()) || w->rank() < 3 || (has_zero && !zero) || group <= 0) return {};
  const int64_t m = w->shape()[0];
  if (m == 0 || m % group != 0 || (zero && zero->dtype() != w->dtype())) return {};
  return pack_groups(*w, weight_zero_points(ctx, *w, zero), group);
}

void conv_int32(const KernelContext& ctx, const nn::ConvGeometry& g, const Tensor& x,
                const Tensor* x_zero, const Tensor& w, const Tensor* w_zero, int32_t* y,
                const PackedConvWeights& prepared, const ConvBlockFinish& finish) {
  const kernels::ByteKind kx = byte_kind(ctx, x, x_zero, "x");
  byte_kind(ctx, w, w_zero, "w");
  const nn::Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), ohw = win.out_size(), ihw = win.in_size();
  const int64_t kdim = cg * kernel;
  if (g.batch * g.out_channels * ohw == 0) return;
  const auto zx = zero_points(ctx, x_zero, x.shape(), ParamAxis::channel, "x's zero point", 1,
                              [](int64_t) { return int64_t{0}; });
  const auto zw = weight_zero_points(ctx, w, w_zero);
  const auto* x_bytes = x.data<uint8_t>();
  const bool fits = static_cast<int64_t>(prepared.groups.size()) == g.group &&
                    prepared.groups[0].m() == mg && prepared.groups[0].k() == kdim;
  const PackedConvWeights packed_here = fits ? PackedConvWeights{} : pack_groups(w, zw, g.group);
  const auto& packed = fits ? prepared.groups : packed_here.groups;
  // The padding holds x's zero point, as stored: it then adds nothing to the sums.
  const auto pad = static_cast<uint8_t>(zx[0]);
  const bool pointwise = win.is_pointwise();
  // Planes of few positions are made whole (the products that pack B once): through a padded
  // copy of each channel, whose runs need no edge tests.
  const bool padded_rows = win.rank() == 2 && ohw <= kernels::int_packed_b_max_cols();
  auto item_b = [&](int64_t item) {
    const uint8_t* xg = x_bytes + ((item / g.group) * g.in_channels + (item % g.group) * cg) * ihw;
    kernels::Int8B src;
    src.kind = kx;
    src.k = kdim;
    src.n = ohw;
    src.zero = zx;
    if (pointwise) {
      src.data = xg;
      src.ldb = ihw;
    } else {
      src.produce = [&win, xg, pad, padded_rows, ohw](int64_t k0, int64_t k1, int64_t n0,
                                                      int64_t n1, uint8_t* out, int64_t ld) {
        if (padded_rows && n0 == 0 && n1 == ohw)
          nn::im2col_rows_padded(win, xg, k0, k1, out, ld, pad);
        else
          nn::im2col_rows(win, xg, k0, k1, n0, n1, out, ld, pad);
      };
    }
    return src;
  };
  auto item_y = [&](int64_t item) {
    return y + ((item / g.group) * g.out_channels + (item % g.group) * mg) * ohw;
  };
  const int64_t items = g.batch * g.group;
  // Blocks whose sums a finish reads back while they are in L2 (256 KiB of them at 256
  // channels).
  constexpr int64_t kFinishedColumns = 256;
  const IntGrid grid = int_grid(items, mg, ohw, ctx.threads(), finish ? kFinishedColumns : ohw);
  if (grid.row_blocks > 1 && ohw <= kernels::int_packed_b_max_cols()) {
    // Few positions: each item's B made and packed once, by all threads, then its row blocks.
    const IntGrid rows_grid = shared_b_grid(mg, ctx.threads());
    for (int64_t item = 0; item < items; ++item) {
      const kernels::Int8B src = item_b(item);
      const auto& a = packed[static_cast<std::size_t>(item % g.group)];
      thread_local std::vector<uint8_t> caller_storage;  // reached by the workers by reference
      kernels::PackedInt8B b(a, src, 0, ohw, caller_storage);
      ctx.parallel_for(b.depth_blocks(), 1, [&](int64_t lo, int64_t hi) {
        for (int64_t block = lo; block < hi; ++block) b.pack_block(block);
      });
      ctx.parallel_for(rows_grid.row_blocks, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
          const IntPiece piece = int_piece(rows_grid, mg, ohw, t);
          b.multiply(piece.r0, piece.r1, item_y(item), ohw);
          if (finish) finish(item / g.group, item % g.group, piece.r0, piece.r1, 0, ohw);
        }
      });
    }
    return;
  }
  const int64_t per_item = grid.per_item();
  ctx.parallel_for(items * per_item, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t task = lo; task < hi; ++task) {
      const int64_t item = task / per_item;
      const IntPiece piece = int_piece(grid, mg, ohw, task % per_item);
      kernels::igemm_rows(packed[static_cast<std::size_t>(item % g.group)], item_b(item), piece.r0,
                          piece.r1, piece.c0, piece.c1, item_y(item), ohw);
      if (finish) finish(item / g.group, item % g.group, piece.r0, piece.r1, piece.c0, piece.c1);
    }
  });
}

void conv_int32_to_float(const KernelContext& ctx, const nn::ConvGeometry& g, const Tensor& x,
                         const Tensor* x_zero, const Tensor& w, const Tensor* w_zero,
                         const PackedConvWeights& packed, const FloatOutput& out, float* y) {
  const int64_t mg = g.out_channels / g.group, ohw = g.window.out_size();
  auto* bytes = reinterpret_cast<unsigned char*>(y);
  auto finish = [&](int64_t n, int64_t grp, int64_t r0, int64_t r1, int64_t p0, int64_t p1) {
    for (int64_t c = grp * mg + r0; c < grp * mg + r1; ++c) {
      const int64_t at = (n * g.out_channels + c) * ohw + p0;
      kernels::dequantize_sums(bytes + at * 4, p1 - p0, out.scales[c], out.bias != nullptr,
                               out.bias ? out.bias[c] : 0.0f,
                               out.residual ? out.residual + at : nullptr, out.epilogue);
    }
  };
  conv_int32(ctx, g, x, x_zero, w, w_zero, reinterpret_cast<int32_t*>(bytes), packed, finish);
}

// ---- inference -------------------------------------------------------------------------------

std::optional<Dims> infer_matmul_shape(InferContext& ctx, std::size_t a, std::size_t b) {
  const auto sa = ctx.input_type(a).shape, sb = ctx.input_type(b).shape;
  if (!sa || !sb) return std::nullopt;
  return matmul_shape(*sa, *sb);
}

std::optional<Dims> infer_conv_shape(InferContext& ctx, std::size_t xi, std::size_t wi) {
  const auto x = ctx.input_type(xi).shape, w = ctx.input_type(wi).shape;
  if (x && x->size() < 3)
    infer_fail("x has rank " + std::to_string(x->size()) + ", expected at least 3");
  if (!x) return w ? std::optional<Dims>(Dims(w->size())) : std::nullopt;
  if (w && w->size() != x->size())
    infer_fail("w has rank " + std::to_string(w->size()) + " but x has rank " +
               std::to_string(x->size()) + " (expected equal)");
  const int64_t group = ctx.attrs().get_int("group", 1);
  if (group <= 0) infer_fail("group " + std::to_string(group) + " is not positive");
  const Dim m = w ? (*w)[0] : Dim();
  const Dim c = (*x)[1], w1 = w ? (*w)[1] : Dim();
  if (c.is_known() && w1.is_known() && c.value() != w1.value() * group)
    infer_fail("x has " + std::to_string(c.value()) + " channels but w expects " +
               std::to_string(w1.value()) + " per group x " + std::to_string(group) + " groups");
  Dims y{(*x)[0], m};
  std::optional<std::vector<int64_t>> kernel;
  if (w) {
    kernel.emplace();
    for (std::size_t i = 2; i < w->size() && kernel; ++i) {
      if (!(*w)[i].is_known())
        kernel.reset();
      else
        kernel->push_back((*w)[i].value());
    }
  }
  const auto attr_kernel = ctx.attrs().opt_ints("kernel_shape");
  if (kernel && attr_kernel && !attr_kernel->empty() && *kernel != *attr_kernel)
    infer_fail("kernel_shape does not match w's spatial dims");
  if (kernel || (attr_kernel && !attr_kernel->empty())) {
    const Dims in(x->begin() + 2, x->end());
    for (const Dim& d : window_output_dims(in, window_params(ctx.attrs(), x->size() - 2, kernel)))
      y.push_back(d);
  } else {
    y.resize(x->size());
  }
  return y;
}

}  // namespace onnxtool::ops::integer
