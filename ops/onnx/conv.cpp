// SPDX-License-Identifier: Apache-2.0
// Conv: the ai.onnx operator.
//
// The kernel lowers a convolution to matrix products: for each batch item and group,
// Y_g [M/G, out positions] = W_g [M/G, C/G*kernel] x col [C/G*kernel, out positions], where col
// (im2col) holds for every output position the input values under the window. col is built one
// tile of output positions at a time, so it stays in cache and the tiles run in parallel, each
// with its own single-threaded GEMM. A 1x1 convolution without padding or stride is the matrix
// product on X itself; a depthwise convolution (one input channel per group) runs directly; a
// stride-1 3x3 convolution with a constant float W takes Winograd's F(4x4, 3x3)
// (core/kernels/winograd.h), a quarter of the multiply-adds, or on planes too small for it
// F(2x2, 3x3), four ninths.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/infer/helpers.h"
#include "core/kernels/depthwise.h"
#include "core/kernels/im2col.h"
#include "core/kernels/quantize.h"
#include "core/kernels/transpose.h"
#include "core/kernels/vmath.h"
#include "core/kernels/winograd.h"
#include "core/registry/fusion.h"
#include "core/util/scratch.h"
#include "onnx.pb.h"
#include "ops/onnx/im2col.h"
#include "ops/onnx/integer_common.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/nn_reference.h"
#include "ops/onnx/phase_planes.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

using nn::ConvGeometry;
using nn::piece_bounds;
using nn::Window;

// ---- inference -------------------------------------------------------------------------------

// Kernel spatial dims from W's shape when all are known.
std::optional<std::vector<int64_t>> kernel_from_weights(const std::optional<Dims>& w) {
  if (!w || w->size() < 2) return std::nullopt;
  std::vector<int64_t> k;
  for (std::size_t i = 2; i < w->size(); ++i) {
    if (!(*w)[i].is_known()) return std::nullopt;
    k.push_back((*w)[i].value());
  }
  return k;
}

void check_conv_channels(InferContext& ctx, const Dim& c, const Dim& w1, const Dim& m,
                         int64_t group) {
  if (group <= 0) ctx.fail("group " + std::to_string(group) + " is not positive");
  if (c.is_known() && w1.is_known() && c.value() != w1.value() * group)
    ctx.fail("X has " + std::to_string(c.value()) + " channels but W expects " +
             std::to_string(w1.value()) + " per group x " + std::to_string(group) + " groups");
  if (m.is_known() && m.value() % group != 0)
    ctx.fail("W has " + std::to_string(m.value()) + " output channels, not a multiple of group " +
             std::to_string(group));
}

void infer_conv(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const auto x = nn::shape_with_min_rank(ctx, 0, 3);
  const auto w = ctx.input_type(1).shape;
  if (!x) {
    set_output_tensor(ctx, 0, elem,
                      w ? std::optional<Dims>(Dims(w->size())) : std::optional<Dims>());
    return;
  }
  if (w && w->size() != x->size())
    ctx.fail("W has rank " + std::to_string(w->size()) + " but X has rank " +
             std::to_string(x->size()) + " (expected equal)");
  const std::size_t spatial = x->size() - 2;
  const Dim m = w ? (*w)[0] : Dim();
  check_conv_channels(ctx, (*x)[1], w ? (*w)[1] : Dim(), m, ctx.attrs().get_int("group", 1));
  if (ctx.has_input(2)) {
    const Type& b = ctx.input_type(2);
    if (b.has_shape() && b.rank() != 1) ctx.fail("B must be 1-D");
    if (b.has_shape()) unify_dim((*b.shape)[0], m, "B's length and W's output channels");
  }
  Dims y{(*x)[0], m};
  const auto kernel = kernel_from_weights(w);
  const auto attr_kernel = ctx.attrs().opt_ints("kernel_shape");
  if (kernel && attr_kernel && !attr_kernel->empty() && *kernel != *attr_kernel)
    ctx.fail("kernel_shape does not match W's spatial dims");
  if (kernel || (attr_kernel && !attr_kernel->empty())) {
    const Dims in(x->begin() + 2, x->end());
    for (const Dim& d : window_output_dims(in, window_params(ctx.attrs(), spatial, kernel)))
      y.push_back(d);
  } else {
    y.resize(x->size());
  }
  set_output_tensor(ctx, 0, elem, y);
}

// ---- the three paths -------------------------------------------------------------------------

// What the paths read besides X and B: W (the group's rows), and, when W is a constant, the same
// rows packed at planning (one PackedA per group), which the products then use instead; and
// what fusions gave the node, applied to each block of Y as soon as it is computed: a summand of
// Y's shape (a residual Add), then the epilogue.
template <class F>
struct Operands {
  const F* w = nullptr;
  const std::vector<kernels::PackedA<F>>* packed = nullptr;
  kernels::Epilogue epilogue;
  const F* residual = nullptr;
  // W transformed for Winograd's F(4x4, 3x3) or F(2x2, 3x3), one per group, when prepare chose
  // it.
  const std::vector<kernels::WinogradFilter>* winograd = nullptr;
  // Or W_g transposed and packed as a product's B (conv_transposed), one per group.
  const std::vector<kernels::PackedB>* packed_t = nullptr;
  // X's per-channel transform (a fusion), for the paths that apply it as they pack X: the
  // packed products of a pointwise convolution and conv_transposed's. Null: none, or applied.
  const InputTransform* input = nullptr;
};

// After a product with beta 0, rows [0, rows) x columns [p0, p1) of y (row stride ld): adds
// the bias, then the residual r (laid out as y, or null), and applies the epilogue, one row at a
// time while it is in cache. acc + b[m] is what the product would give with C prefilled with
// the bias and beta 1 (the same bits), without the copy of C that such a product needs when k
// spans several blocks.
template <class F>
void finish_rows(const F* b, const kernels::Epilogue& epilogue, const F* r, int64_t rows,
                 int64_t p0, int64_t p1, F* y, int64_t ld) {
  for (int64_t m = 0; m < rows; ++m) {
    F* row = y + m * ld + p0;
    if (b) {
      const F bias = b[m];
      for (int64_t j = 0; j < p1 - p0; ++j) row[j] += bias;
    }
    epilogue.apply(row, p1 - p0, r ? r + m * ld + p0 : nullptr);
  }
}

// The window of a 1-D or 2-D convolution as kernels::PlaneWindow (1-D: a plane of height 1).
kernels::PlaneWindow plane_window_of(const Window& w) {
  const bool two = w.rank() == 2;
  // An axis's value along the height (`flat` for 1-D) and along the width.
  auto h = [&](const std::vector<int64_t>& v, int64_t flat) { return two ? v[0] : flat; };
  auto x = [&](const std::vector<int64_t>& v) { return v[two ? 1 : 0]; };
  return {h(w.in, 1),       x(w.in),       h(w.out, 1),       x(w.out),
          h(w.kernel, 1),   x(w.kernel),   h(w.stride, 1),    x(w.stride),
          h(w.dilation, 1), x(w.dilation), h(w.pad_begin, 0), x(w.pad_begin)};
}

// A depthwise convolution (one output channel per input channel, 2-D) by blocks of channels:
// planar X and Y go through the blocks' transposes, channels-last ones (x_last, y_last: see
// core/exec/passes/channels_last.h) by copies of the positions (kernels::ChannelBlock's
// x_positions and y_positions).
void conv_depthwise_blocks(const KernelContext& ctx, const ConvGeometry& g, const float* x,
                           const Operands<float>& ops, const float* b, float* y, bool x_last,
                           bool y_last) {
  const kernels::PlaneWindow p = plane_window_of(g.window);
  const int64_t channels = g.out_channels, ihw = p.in_h * p.in_w, ohw = p.out_h * p.out_w;
  const int64_t lanes = kernels::kDepthwiseChannels, kernel = p.kernel_h * p.kernel_w;
  const int64_t blocks = (channels + lanes - 1) / lanes;
  ctx.parallel_for(g.batch * blocks, 1, [&](int64_t lo, int64_t hi) {
    thread_local std::vector<float> scratch;
    scratch_of(scratch, static_cast<std::size_t>(kernels::depthwise_channels_scratch(p)));
    for (int64_t task = lo; task < hi; ++task) {
      const int64_t n = task / blocks, c0 = task % blocks * lanes;
      kernels::ChannelBlock block;
      block.count = std::min(lanes, channels - c0);
      block.w = ops.w + c0 * kernel;
      block.bias = b ? b + c0 : nullptr;
      if (x_last) {
        block.x = x + n * ihw * channels + c0;
        block.x_positions = channels;
      } else {
        block.x = x + (n * channels + c0) * ihw;
        block.x_stride = ihw;
      }
      if (y_last) {
        block.y = y + n * ohw * channels + c0;
        block.y_positions = channels;
      } else {
        block.y = y + (n * channels + c0) * ohw;
        block.y_stride = ohw;
      }
      // A residual (planar Y only: the caller sees to it) comes before the activation; kinds
      // the kernel does not apply in registers go after it.
      const float* residual = ops.residual ? ops.residual + (n * channels + c0) * ohw : nullptr;
      const bool after = residual || !ops.epilogue.in_registers();
      kernels::depthwise_channels(p, block, scratch.data(),
                                  after ? kernels::Epilogue{} : ops.epilogue);
      if (!after) continue;
      if (!y_last) {
        ops.epilogue.apply(block.y, block.count * ohw, residual);
        continue;
      }
      for (int64_t q = 0; q < ohw; ++q) ops.epilogue.apply(block.y + q * channels, block.count);
    }
  });
}

// One input channel per group: each output plane is a weighted sum of shifted input planes.
// Spatial rank 1 or 2 (1-D is 2-D with height 1).
template <class F>
void conv_depthwise(const KernelContext& ctx, const ConvGeometry& g, const F* x,
                    const Operands<F>& ops, const F* b, F* y) {
  const F* w = ops.w;
  const kernels::PlaneWindow p = plane_window_of(g.window);
  const int64_t ih = p.in_h, iw = p.in_w, oh = p.out_h, ow = p.out_w, kh = p.kernel_h,
                kw = p.kernel_w, sh = p.stride_h, sw = p.stride_w, dh = p.dilation_h,
                dw = p.dilation_w, ph = p.pad_top, pw = p.pad_left;
  const int64_t mg = g.out_channels / g.group;
  const int64_t planes = g.batch * g.out_channels;
  if constexpr (std::is_same_v<F, float>) {
    // Small planes, one output channel per input channel: blocks of channels at a time.
    if (mg == 1 && kernels::depthwise_by_channels(p))
      return conv_depthwise_blocks(ctx, g, x, ops, b, y, false, false);
    if (mg == 1) {
      // A task's planes of one image at once: their input and output planes are consecutive.
      ctx.parallel_for(planes, nn::grain_for(oh * ow * kh * kw), [&](int64_t lo, int64_t hi) {
        thread_local std::vector<float> scratch;
        scratch_of(scratch, static_cast<std::size_t>(kernels::depthwise_scratch(p)));
        for (int64_t first = lo; first < hi;) {
          const int64_t n = first / g.out_channels, m = first % g.out_channels;
          const int64_t last = std::min(hi, (n + 1) * g.out_channels);
          kernels::ChannelBlock block;
          block.count = last - first;
          block.x = x + (n * g.in_channels + m) * ih * iw;
          block.x_stride = ih * iw;
          block.w = w + m * kh * kw;
          block.bias = b ? b + m : nullptr;
          block.y = y + first * oh * ow;
          block.y_stride = oh * ow;
          // The activation goes with the sums' copy-out, unless a residual must come first (or
          // the kernel applies clamps only).
          const float* residual = ops.residual ? ops.residual + first * oh * ow : nullptr;
          const bool after = residual || !ops.epilogue.in_registers();
          kernels::depthwise_planes(p, block, scratch.data(),
                                    after ? kernels::Epilogue{} : ops.epilogue);
          if (after) ops.epilogue.apply(block.y, block.count * oh * ow, residual);
          first = last;
        }
      });
      return;
    }
    ctx.parallel_for(planes, nn::grain_for(oh * ow * kh * kw), [&](int64_t lo, int64_t hi) {
      thread_local std::vector<float> scratch;
      scratch_of(scratch, static_cast<std::size_t>(kernels::depthwise_scratch(p)));
      for (int64_t plane = lo; plane < hi; ++plane) {
        const int64_t n = plane / g.out_channels, m = plane % g.out_channels;
        float* dst = y + plane * oh * ow;
        // The activation goes with the sums' copy-out, unless a residual must come first (or
        // the kernel applies clamps only).
        const float* residual = ops.residual ? ops.residual + plane * oh * ow : nullptr;
        const bool after = residual || !ops.epilogue.in_registers();
        kernels::depthwise_plane(p, x + (n * g.in_channels + m / mg) * ih * iw, w + m * kh * kw,
                                 b ? b[m] : 0.0f, dst, scratch.data(),
                                 after ? kernels::Epilogue{} : ops.epilogue);
        if (after) ops.epilogue.apply(dst, oh * ow, residual);
      }
    });
    return;
  }
  ctx.parallel_for(planes, nn::grain_for(oh * ow * kh * kw), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const int64_t n = plane / g.out_channels, m = plane % g.out_channels;
      const F* src = x + (n * g.in_channels + m / mg) * ih * iw;
      F* dst = y + plane * oh * ow;
      std::fill(dst, dst + oh * ow, b ? b[m] : F(0));
      for (int64_t a = 0; a < kh; ++a)
        for (int64_t c = 0; c < kw; ++c) {
          const F wv = w[(m * kh + a) * kw + c];
          const int64_t off = c * dw - pw;
          const int64_t first = std::clamp<int64_t>((-off + sw - 1) / sw, 0, ow);
          const int64_t last =
              std::clamp<int64_t>(iw - 1 - off < 0 ? 0 : (iw - 1 - off) / sw + 1, first, ow);
          for (int64_t r = 0; r < oh; ++r) {
            const int64_t i = r * sh + a * dh - ph;
            if (i < 0 || i >= ih) continue;
            const F* s = src + i * iw + off;
            F* d = dst + r * ow;
            if (sw == 1)
              for (int64_t j = first; j < last; ++j) d[j] += wv * s[j];
            else
              for (int64_t j = first; j < last; ++j) d[j] += wv * s[j * sw];
          }
        }
      ops.epilogue.apply(dst, oh * ow, ops.residual ? ops.residual + plane * oh * ow : nullptr);
    }
  });
}

// Rows [r0, r1) by columns [c0, c1) of Y_g = W_g x B on the calling thread, then the group's
// bias (bias_g, or null), residual (residual_g, laid out as Y_g, or null) and epilogue on that
// block. B: kdim x len, row stride ldb; Y_g's rows ldy apart. With W packed, r0 is a multiple
// of its panels' rows, and the product applies the rest to each register tile as it is done.
// B may instead come packed (b_packed: kernels::packed_b_layout(kdim, b_packed_cols) of W's
// level, built by im2col_packed), then b is not read.
template <class F>
void block_product(const Operands<F>& w, int64_t grp, int64_t mg, int64_t kdim, int64_t r0,
                   int64_t r1, int64_t c0, int64_t c1, const F* b, int64_t ldb, F* y, int64_t ldy,
                   const F* bias_g, const F* residual_g, const F* b_packed = nullptr,
                   int64_t b_packed_cols = 0) {
  if constexpr (std::is_same_v<F, float>) {
    if (w.packed) {
      kernels::PackedGemmArgs<float> g;
      g.a = &(*w.packed)[static_cast<std::size_t>(grp)];
      g.row0 = r0;
      g.m = r1 - r0;
      g.n = c1 - c0;
      if (b_packed) {
        g.b_packed = b_packed;
        g.b_packed_cols = b_packed_cols;
        g.b_col0 = c0;
      } else {
        g.b = b + c0;
        g.ldb = ldb;
        if (w.input) {  // B is X itself: its rows are the channels
          g.b_row_scale = w.input->scale.data();
          g.b_row_shift = w.input->shift.data();
          g.b_activation = w.input->activation;
        }
      }
      g.c = y + r0 * ldy + c0;
      g.ldc = ldy;
      g.row_bias = bias_g ? bias_g + r0 : nullptr;
      g.residual = residual_g ? residual_g + r0 * ldy + c0 : nullptr;
      g.ldr = ldy;
      g.activation = w.epilogue;
      kernels::gemm_packed(g);
      return;
    }
  }
  const F* wg = w.w + (grp * mg + r0) * kdim;
  nn::gemm<F>(false, false, r1 - r0, c1 - c0, kdim, F(1), wg, kdim, b + c0, ldb, F(0),
              y + r0 * ldy + c0, ldy);
  finish_rows(bias_g ? bias_g + r0 : nullptr, w.epilogue,
              residual_g ? residual_g + r0 * ldy : nullptr, r1 - r0, c0, c1, y + r0 * ldy, ldy);
}

// How one group's product is cut into tasks for the threads: column tiles when there are
// columns enough, else (late layers: 7x7 positions) blocks of rows. Pieces are whole units
// (register tiles: the packed panels' columns and rows at W's level) shared out as evenly as
// units allow. With AVX2's 16-column panels a 14x14 plane goes to two threads as 112 + 84
// columns, where units of AVX-512's 32 made it 128 + 68 and sent MobileNetV2's 384 -> 64 and
// 576 -> 96 layers to row blocks (each reading all of a B packed by both threads): those
// layers' in-model minimum 0.091-0.169 -> 0.071-0.154 ms, two threads.
struct ProductGrid {
  int64_t row_blocks = 1, col_tiles = 1, row_unit = 1, col_unit = 1;
  int64_t tasks() const { return row_blocks * col_tiles; }
};

// Columns below which a tile makes the products inefficient.
constexpr int64_t kMinTile = 64;

// Tasks a thread should get, so that the pool's dynamic hand-out evens out uneven tasks.
constexpr int64_t kTasksPerThread = 4;

// Tile widths are multiples of this where the products' panels are not known: the widest
// register tile (AVX-512's 32 columns), so that only a product's last tile has a partial one.
constexpr int64_t kColumnQuantum = 32;

// `parts` near-equal pieces of `extent`, each a multiple of `quantum` (but the last): the piece.
int64_t even_piece(int64_t extent, int64_t parts, int64_t quantum) {
  const int64_t piece = (extent + parts - 1) / parts;
  return std::min(extent, (piece + quantum - 1) / quantum * quantum);
}

// The share of the threads' time spent working when `units` equal units go out as `pieces`
// pieces cut as piece_bounds cuts them, each taken by the thread with the least work so far,
// largest first (the pool's hand-out evens the threads out so): units over threads x the
// busiest's units. (Counting every piece as the largest made 25 units in 8 pieces look 78 %
// busy, not 96 %, and sent a 192 -> 32 layer on 28x28 to row blocks that each stream all of
// its input: 0.112 ms alone, against 0.064-0.085 by columns.)
double balance(int64_t units, int64_t pieces, int64_t threads) {
  if (units <= 0 || pieces <= 0 || threads <= 0) return 0;
  // piece_bounds' pieces take two sizes: `large` of them one unit more than the rest. Each run
  // plans this, so the threads' loads live in a buffer kept between calls.
  const int64_t small = units / pieces, large = units % pieces;
  thread_local std::vector<int64_t> load;
  load.assign(static_cast<std::size_t>(threads), 0);
  for (int64_t i = 0; i < pieces; ++i)
    *std::min_element(load.begin(), load.end()) += small + (i < large ? 1 : 0);
  const int64_t busiest = *std::max_element(load.begin(), load.end());
  return static_cast<double>(units) / static_cast<double>(threads * std::max<int64_t>(1, busiest));
}

// Busy enough: a 56x56 plane's 98 register tiles in 8 column tiles keep the threads 94 % busy,
// and columns measured 2-5 % faster there than rows (ResNet-50, DenseNet-121, Inception v2
// whole), so the bar sits below that.
constexpr double kEvenThreads = 0.90;

// Column tiles read all of W each (W's bytes again per extra tile); row blocks read all of B
// each (where it lies, in blocks short enough: many_row_blocks; else packed by each). Of the two,
// the split that keeps the threads evenly busy wins (a 14x14 plane is 7 register tiles wide: 4 and
// 3 on two threads), and where both do, the one that repeats fewer bytes: columns for early layers
// (few filters, many positions), rows for late ones (7x7 positions, big filters).
ProductGrid product_grid(int64_t threads, int64_t rows, int64_t cols, int64_t row_align,
                         int64_t col_align) {
  ProductGrid grid{1, 1, row_align, col_align};
  if (threads <= 1) return grid;
  const int64_t col_units = (cols + col_align - 1) / col_align;
  const int64_t row_units = (rows + row_align - 1) / row_align;
  // Tiles a multiple of the threads, at least kMinTile wide where the columns allow.
  const int64_t fit = std::max<int64_t>(1, std::min(kTasksPerThread, cols / kMinTile / threads));
  const int64_t tiles = std::min(col_units, fit * threads);
  const int64_t blocks = std::min(threads, row_units);
  const double by_cols = tiles >= threads ? balance(col_units, tiles, threads) : 0;
  const double by_rows = blocks >= threads ? balance(row_units, blocks, threads) : 0;
  // Both repeat kdim-long runs: W has `rows` of them, the columns `cols`.
  const bool fewer_bytes_by_cols = rows <= cols && cols >= 2 * kMinTile;
  bool use_cols = fewer_bytes_by_cols ? by_cols >= std::min(kEvenThreads, by_rows)
                                      : by_rows < kEvenThreads && by_cols > by_rows;
  if (by_cols == 0 && by_rows == 0) return grid;
  if (use_cols)
    grid.col_tiles = tiles;
  else
    grid.row_blocks = blocks;
  return grid;
}

// Row blocks for a product split by rows whose B nobody packs per block: B packed already
// (b_packed), or plain and read where it lies by blocks of at most in_place_b_max_rows() rows.
// Several blocks a thread, handed out as the threads free up (two static halves waited for the
// slower thread: on a shared host one core often runs a third slower). B was packed once by all
// threads for such blocks before; reading it in place instead, 1x1 layers on 14x14, two threads,
// AVX-512 (Zen 4): 384 -> 64 channels 0.081 -> 0.053 ms, 576 -> 96 0.160 -> 0.112, 1024 -> 256
// 0.57 -> 0.51, 512 -> 1024 1.15 -> 1.00.
int64_t many_row_blocks(int64_t threads, int64_t rows, int64_t align, bool b_packed) {
  const int64_t units = (rows + align - 1) / align;
  int64_t blocks = threads * kTasksPerThread;
  if (!b_packed) {
    const int64_t block_units = std::max<int64_t>(1, kernels::in_place_b_max_rows() / align);
    blocks = std::max(blocks, (units + block_units - 1) / block_units);
  }
  return std::min(units, blocks);
}

// Y_g = W_g x B, then bias, residual and epilogue on each block while it is in cache, split
// across the node's threads (`parallel`) or on the calling thread. B: kdim x len, row stride ldb;
// y_offset: where Y_g starts in Y (the residual has Y's layout).
template <class F>
void group_forward(const KernelContext& ctx, bool parallel, const Operands<F>& w, const F* b,
                   int64_t grp, int64_t mg, int64_t kdim, int64_t len, const F* bmat, int64_t ldb,
                   F* y, int64_t y_offset, const F* b_packed = nullptr) {
  int64_t align = 8, col_align = kColumnQuantum;
  if constexpr (std::is_same_v<F, float>) {
    if (w.packed) {
      const kernels::PackedA<float>& packed = (*w.packed)[static_cast<std::size_t>(grp)];
      align = packed.row_align();
      col_align = kernels::packed_b_layout(kdim, len, packed.level()).panel;
    }
  }
  ProductGrid grid = product_grid(parallel ? ctx.threads() : 1, mg, len, align, col_align);
  if constexpr (std::is_same_v<F, float>)
    if (grid.row_blocks > 1 && w.packed && (b_packed || !w.input))
      grid.row_blocks = many_row_blocks(ctx.threads(), mg, align, b_packed != nullptr);
  F* yg = y + y_offset;
  const F* bias = b ? b + grp * mg : nullptr;
  const F* residual = w.residual ? w.residual + y_offset : nullptr;
  auto task = [&](int64_t t) {
    const auto [r0, r1] = piece_bounds(mg, grid.row_blocks, grid.row_unit, t / grid.col_tiles);
    const auto [c0, c1] = piece_bounds(len, grid.col_tiles, grid.col_unit, t % grid.col_tiles);
    block_product(w, grp, mg, kdim, r0, r1, c0, c1, bmat, ldb, yg, len, bias, residual, b_packed,
                  len);
  };
  if (grid.tasks() == 1) {
    task(0);
    return;
  }
  ctx.parallel_for(grid.tasks(), 1, [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t) task(t);
  });
}

// 1x1, no padding, stride 1: Y_g = W_g x X_g directly.
template <class F>
void conv_pointwise(const KernelContext& ctx, const ConvGeometry& g, const F* x,
                    const Operands<F>& w, const F* b, F* y) {
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t hw = g.window.out_size();
  auto one = [&](int64_t item, bool parallel) {
    const int64_t n = item / g.group, grp = item % g.group;
    const F* xg = x + (n * g.in_channels + grp * cg) * hw;
    group_forward(ctx, parallel, w, b, grp, mg, cg, hw, xg, hw, y,
                  (n * g.out_channels + grp * mg) * hw);
  };
  nn::for_each_product(ctx, g.batch * g.group, 1, one);
}

// Bytes of col one tile may use: about what one core's L2 holds.
constexpr int64_t kColTileBytes = int64_t{1} << 20;

// im2col of channels [c0, c1) for positions [p0, p1) of a 1-D or 2-D window straight into the
// packed layout the products read (column j = p - p0), so that no product packs them again.
void im2col_packed(const Window& win, const float* xg, int64_t c0, int64_t c1, int64_t p0,
                   int64_t p1, const kernels::PackedBLayout& layout, float* out) {
  const kernels::PlaneWindow p = plane_window_of(win);
  thread_local std::vector<float> scratch;
  scratch_of(scratch, static_cast<std::size_t>(kernels::im2col_packed_scratch(p, p0, p1)));
  kernels::im2col_packed(p, xg, c0, c1, p0, p1, layout, out, scratch.data());
}

// W_g as packed for the products (float W packed at planning), or null.
template <class F>
const kernels::PackedA<float>* packed_columns_for(const Operands<F>& w, int64_t grp) {
  if constexpr (std::is_same_v<F, float>)
    if (w.packed) return &(*w.packed)[static_cast<std::size_t>(grp)];
  return nullptr;
}

template <class F>
void conv_im2col(const KernelContext& ctx, const ConvGeometry& g, const F* x, const Operands<F>& w,
                 const F* b, F* y) {
  const Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kdim = cg * win.kernel_size(), ohw = win.out_size(), ihw = win.in_size();
  const int64_t threads = ctx.threads();
  const int64_t items = g.batch * g.group;
  // Tiles of positions whose columns fit about one core's L2, as many in all as a multiple of
  // the threads (each task reads all of W: few, wide tiles), cut at register tiles.
  const int64_t l2_columns = std::max<int64_t>(
      1, kColTileBytes / static_cast<int64_t>(sizeof(F)) / std::max<int64_t>(kdim, 1));
  const int64_t l2_tiles = (ohw + l2_columns - 1) / l2_columns;
  const int64_t units = (ohw + kColumnQuantum - 1) / kColumnQuantum;
  int64_t tiles = l2_tiles;
  if (threads > 1) {
    const int64_t per_item = (threads + items - 1) / items;
    tiles = (std::max(tiles, per_item) + per_item - 1) / per_item * per_item;
  }
  tiles = std::min(tiles, units);
  // Per-task columns suit filters smaller than the columns they meet (each task reads all of
  // W) and tiles of at least kMinTile columns; otherwise the columns are built once and the
  // product split by product_grid.
  const bool tiled = mg <= ohw && units / tiles * kColumnQuantum >= kMinTile;
  const int64_t tile = (units + tiles - 1) / tiles * kColumnQuantum;  // the widest
  auto group_input = [&](int64_t item) {
    return x + ((item / g.group) * g.in_channels + (item % g.group) * cg) * ihw;
  };
  auto y_offset = [&](int64_t item) {
    return ((item / g.group) * g.out_channels + (item % g.group) * mg) * ohw;
  };
  // Columns built straight in the products' packed layout where W is packed (1-D and 2-D
  // windows; others are packed by the products).
  const bool packed = win.rank() <= 2 && packed_columns_for(w, 0) != nullptr;
  auto layout_of = [&](int64_t grp, int64_t n) {
    return kernels::packed_b_layout(kdim, n, packed_columns_for(w, grp)->level());
  };
  // Channels [c0, c1) of group item's columns for positions [p0, p1) into col; returns col
  // where they are packed (block_product's b_packed), else null.
  auto build_columns = [&](int64_t item, int64_t c0, int64_t c1, int64_t p0, int64_t p1,
                           F* col) -> const F* {
    if constexpr (std::is_same_v<F, float>) {
      if (packed) {
        im2col_packed(win, group_input(item), c0, c1, p0, p1, layout_of(item % g.group, p1 - p0),
                      col);
        return col;
      }
    }
    const int64_t kernel = win.kernel_size(), ld = p1 - p0;
    im2col_rows(win, group_input(item), c0 * kernel, c1 * kernel, p0, p1, col + c0 * kernel * ld,
                ld);
    return nullptr;
  };
  if (tiled) {
    // Each task its own tile of positions: its columns built and consumed while in cache.
    const int64_t col_size = packed ? layout_of(0, tile).size() : kdim * tile;
    ctx.parallel_for(items * tiles, 1, [&](int64_t lo, int64_t hi) {
      thread_local std::vector<F> col;
      scratch_of(col, static_cast<std::size_t>(col_size));
      for (int64_t t = lo; t < hi; ++t) {
        const int64_t item = t / tiles, grp = item % g.group;
        const auto [p0, p1] = piece_bounds(ohw, tiles, kColumnQuantum, t % tiles);
        const int64_t len = p1 - p0, at = y_offset(item) + p0;
        const F* b_packed = build_columns(item, 0, cg, p0, p1, col.data());
        block_product(w, grp, mg, kdim, 0, mg, 0, len, col.data(), len, y + at, ohw,
                      b ? b + grp * mg : nullptr, w.residual ? w.residual + at : nullptr, b_packed,
                      len);
      }
    });
    return;
  }
  // Few positions: all columns of a group at once (built on every thread), then its product
  // split across the threads.
  // The calling thread's buffer, kept between runs: no allocation, zeroing or page faults. The
  // workers reach it through this reference (naming the thread_local there would be theirs).
  thread_local std::vector<F> caller_col;
  std::vector<F>& col = caller_col;
  scratch_of(col, static_cast<std::size_t>(packed ? layout_of(0, ohw).size() : kdim * ohw));
  for (int64_t item = 0; item < items; ++item) {
    ctx.parallel_for(
        cg, 1, [&](int64_t c0, int64_t c1) { build_columns(item, c0, c1, 0, ohw, col.data()); });
    group_forward(ctx, threads > 1, w, b, item % g.group, mg, kdim, ohw, col.data(), ohw, y,
                  y_offset(item), packed ? col.data() : nullptr);
  }
}

// ---- few input channels: the product reads the input in place ------------------------------

// Input channels up to which a 2-D convolution reads its input where it lies (phase_planes.h)
// rather than through im2col: a network's stem on the image's 3 channels. There the columns are
// the kernel's size times the output's (ResNet-50's 7x7 stride-2 stem: 147 x 12544 floats,
// 7 MB) and building them took a quarter of the layer. In-model, two threads, AVX2 (Zen 3):
// ResNet-50's stem 2.1-2.4 -> 1.6-1.9 ms, ShuffleNet's 0.31 -> 0.21, Inception v2's 1.9 -> 1.6.
// With more channels the product's many short windows read slower than packed columns
// (all 3x3 stride-2 layers in place: Inception v2 1.19x, SqueezeNet 1.37x slower).
constexpr int64_t kInPlaceMaxChannels = 4;

// Strides up to which it does: each of sy x sx phases is a plane (and strides from a hostile
// file could make their count overflow).
constexpr int64_t kInPlaceMaxStride = 8;

bool reads_input_in_place(const ConvGeometry& g, const Operands<float>& w) {
  const Window& win = g.window;
  if (win.rank() != 2 || g.group != 1 || g.in_channels > kInPlaceMaxChannels || !w.packed ||
      w.input || win.stride[0] > kInPlaceMaxStride || win.stride[1] > kInPlaceMaxStride)
    return false;
  // The planes hold about the padded input (more where the stride skips input the kernel never
  // reads): never more than the columns im2col would build.
  const nn::PhasePlanes planes = nn::phase_planes_of(win, g.in_channels, kColumnQuantum);
  const int64_t columns =
      g.in_channels * win.kernel_size() * std::max(win.out_size(), kColumnQuantum);
  return planes.size() <= columns;
}

// Y = W x B, B's rows read from the input's phase planes: for each image the planes (built by
// all threads), then its output rows shared out, each a product of all output channels.
void conv_in_place(const KernelContext& ctx, const ConvGeometry& g, const float* x,
                   const Operands<float>& w, const float* b, float* y) {
  const Window& win = g.window;
  const int64_t oh = win.out[0], ow = win.out[1], ohw = win.out_size();
  const nn::PhasePlanes planes = nn::phase_planes_of(win, g.in_channels, kColumnQuantum);
  // The calling thread's buffers, kept between runs; the workers read them through these
  // references.
  thread_local std::vector<float> caller_planes;
  thread_local std::vector<int64_t> caller_offsets;
  std::vector<float>& buf = caller_planes;
  const std::vector<int64_t>& offsets = caller_offsets;
  nn::phase_plane_offsets(planes, win, caller_offsets);
  scratch_of(buf, static_cast<std::size_t>(planes.size()));
  const int64_t plane_rows = planes.planes() * planes.height;
  for (int64_t item = 0; item < g.batch; ++item) {
    const float* xi = x + item * g.in_channels * win.in_size();
    const int64_t at = item * g.out_channels * ohw;
    ctx.parallel_for(plane_rows, nn::grain_for(planes.width), [&](int64_t r0, int64_t r1) {
      nn::fill_phase_plane_rows(planes, win, xi, r0, r1, buf.data());
    });
    ctx.parallel_for(oh, 1, [&](int64_t r0, int64_t r1) {
      for (int64_t oy = r0; oy < r1; ++oy) {
        kernels::PackedGemmArgs<float> p;
        p.a = &(*w.packed)[0];
        p.m = g.out_channels;
        p.n = ow;
        p.b = buf.data() + oy * planes.width;
        p.b_row_offsets = offsets.data();
        p.c = y + at + oy * ow;
        p.ldc = ohw;
        p.row_bias = b;
        p.residual = w.residual ? w.residual + at + oy * ow : nullptr;
        p.ldr = ohw;
        p.activation = w.epilogue;
        kernels::gemm_packed(p);
      }
    });
  }
}

// Input channels from which a 2-D convolution reads its input's phase planes in products over
// bands of whole output rows (conv_phase_product) rather than through im2col's columns: the
// columns are the kernel's size over the stride's square times the input (3x3 at stride 2:
// 2.25 times, 5x5 at stride 1: 25 times), and building them took a third of Inception v2's 3x3
// stride-2 layers. Eight such layers side by side, one thread: 96 -> 96 on 28x28 4.29 -> 3.73
// ms, 128 -> 160 on 28x28 8.38 -> 7.95, 16 -> 32 5x5 on 28x28 3.15 -> 2.24; AlexNet whole 0.94
// of its time (two threads). Below this many channels (a stem's 3) conv_in_place's product per
// output row does it.
constexpr int64_t kPhaseProductMinChannels = 16;

// Bytes of product one band of output rows may take in its thread's scratch: with the band's
// phase-plane rows, within a core's L2.
constexpr int64_t kPhaseBandBytes = int64_t{256} << 10;

// Bands of output rows conv_phase_product cuts a plane into, `width` columns a row: as many as
// the threads, or more where a band's product would outgrow kPhaseBandBytes.
int64_t phase_bands(const ConvGeometry& g, int64_t width, int64_t threads) {
  const int64_t oh = g.window.out[0];
  const int64_t bytes = g.out_channels * oh * width * static_cast<int64_t>(sizeof(float));
  const int64_t bands = std::max<int64_t>(threads, (bytes + kPhaseBandBytes - 1) / kPhaseBandBytes);
  return std::min(oh, (bands + threads - 1) / threads * threads);
}

// Columns a product of n columns computes: whole panels, a last partial one of up to half a
// panel as a half-width tile.
int64_t computed_columns(int64_t n, int64_t panel) {
  const int64_t rest = n % panel;
  return n - rest + (rest == 0 ? 0 : rest <= panel / 2 ? panel / 2 : panel);
}

// The phase product's columns over im2col's: each band computes the plane's padding columns
// between its rows and ends in a partial register tile, where im2col's columns are the
// positions alone. On a small plane that is most of the difference: 48 -> 192 channels on 13x13
// (SqueezeNet's late expand layers), two bands of 15-column rows, computed 224 columns for 169
// and ran 0.189 ms against im2col's 0.167 (two threads; one: 0.318 against 0.286).
double phase_column_overhead(const ConvGeometry& g, int64_t threads, int64_t panel) {
  const kernels::PlaneWindow pw = plane_window_of(g.window);
  const int64_t oh = g.window.out[0], ow = g.window.out[1];
  const int64_t width = kernels::phase_plane_width(pw);
  const int64_t bands = phase_bands(g, width, threads);
  int64_t phase = 0;
  for (int64_t t = 0; t < bands; ++t) {
    const auto [oy0, oy1] = piece_bounds(oh, bands, 1, t);
    if (oy0 < oy1) phase += computed_columns((oy1 - oy0 - 1) * width + ow, panel);
  }
  return static_cast<double>(phase) / static_cast<double>(computed_columns(oh * ow, panel));
}

// What building im2col's columns costs, in rows of product: the phase product computes its
// extra columns for every output channel, im2col builds each of its columns once, so the phase
// product's bar is 1 + this over the output channels. Measured: on 13x13, 48 -> 192 channels
// (27-33 % more columns), im2col was 10-13 % faster; on 14x14, 128 -> 32 (23 % more), 15 %
// slower; on 56x56, 32 -> 32 (3 % more), 20 % slower (one thread).
constexpr double kIm2colColumnRows = 24;

bool reads_phase_planes(const ConvGeometry& g, const Operands<float>& w, int64_t threads) {
  const Window& win = g.window;
  if (win.rank() != 2 || g.group != 1 || g.in_channels < kPhaseProductMinChannels || !w.packed ||
      w.input || win.stride[0] > kInPlaceMaxStride || win.stride[1] > kInPlaceMaxStride ||
      win.is_pointwise())
    return false;
  const kernels::PackedA<float>& packed = w.packed->front();
  const int64_t panel = kernels::packed_b_layout(packed.k(), 1, packed.level()).panel;
  const double bar =
      1 + kIm2colColumnRows / static_cast<double>(std::max<int64_t>(1, g.out_channels));
  return phase_column_overhead(g, threads, panel) <= bar;
}

// Y = W x B over bands of whole output rows, B's rows read from the input's phase planes
// (kernels::fill_phase_planes): in a band's product, column (oy - oy0) * width + ox is output
// (oy, ox), tap (kh, kw) of channel c reading its phase plane at one offset for all of them;
// the columns between rows fall in the planes' padding and are dropped. The band's product goes
// to its thread's scratch with the bias (and the activation where no residual follows), then
// into Y row by row; a residual and its activation come after, in the epilogue's order. (One
// product a band reads W once, where conv_in_place's product a row read all of it for each row:
// cheap for a stem's 3 channels, not for 96.)
void conv_phase_product(const KernelContext& ctx, const ConvGeometry& g, const float* x,
                        const Operands<float>& w, const float* b, float* y) {
  const Window& win = g.window;
  const int64_t oh = win.out[0], ow = win.out[1], ohw = win.out_size(), mg = g.out_channels;
  const kernels::PlaneWindow pw = plane_window_of(win);
  const int64_t floats = kernels::phase_planes_size(pw), width = kernels::phase_plane_width(pw);
  const kernels::PackedA<float>& packed = w.packed->front();
  const int64_t col_align = kernels::packed_b_layout(packed.k(), width, packed.level()).panel;
  const int64_t bands = phase_bands(g, width, ctx.threads());
  // The calling thread's buffers, kept between runs; the workers read them through these
  // references.
  thread_local std::vector<float> caller_planes;
  thread_local std::vector<int64_t> caller_offsets;
  std::vector<float>& buf = caller_planes;
  std::vector<int64_t>& offsets = caller_offsets;
  offsets.clear();
  for (int64_t c = 0; c < g.in_channels; ++c)
    for (int64_t kh = 0; kh < pw.kernel_h; ++kh)
      for (int64_t kw = 0; kw < pw.kernel_w; ++kw)
        offsets.push_back(c * floats + kernels::phase_tap_offset(pw, kh, kw));
  // A product reads whole register tiles past its last position: what lies there is finite
  // (zeros where the buffer grew, else earlier planes) and its results are dropped.
  scratch_of(buf, static_cast<std::size_t>(g.in_channels * floats + col_align));
  for (int64_t item = 0; item < g.batch; ++item) {
    const float* xi = x + item * g.in_channels * win.in_size();
    const int64_t at = item * mg * ohw;
    ctx.parallel_for(g.in_channels, 1, [&](int64_t c0, int64_t c1) {
      kernels::fill_phase_planes(pw, xi, c0, c1, buf.data() + c0 * floats);
    });
    ctx.parallel_for(bands, 1, [&](int64_t lo, int64_t hi) {
      thread_local std::vector<float> band;
      for (int64_t t = lo; t < hi; ++t) {
        const auto [oy0, oy1] = piece_bounds(oh, bands, 1, t);
        if (oy0 >= oy1) continue;
        const int64_t n = (oy1 - oy0 - 1) * width + ow;
        scratch_of(band, static_cast<std::size_t>(mg * n));
        kernels::PackedGemmArgs<float> p;
        p.a = &packed;
        p.m = mg;
        p.n = n;
        p.b = buf.data() + oy0 * width;
        p.b_row_offsets = offsets.data();
        p.c = band.data();
        p.ldc = n;
        p.row_bias = b;
        if (!w.residual) p.activation = w.epilogue;
        kernels::gemm_packed(p);
        for (int64_t m = 0; m < mg; ++m)
          for (int64_t oy = oy0; oy < oy1; ++oy) {
            const float* src = band.data() + m * n + (oy - oy0) * width;
            std::copy(src, src + ow, y + at + m * ohw + oy * ow);
          }
        if (w.residual)
          finish_rows<float>(nullptr, w.epilogue, w.residual + at, mg, oy0 * ow, oy1 * ow, y + at,
                             ohw);
      }
    });
  }
}

// ---- planes of few positions: the product transposed ----------------------------------------

// Output positions per image up to which a constant W is packed for conv_transposed (a 7x7
// plane; an 8x8 one still fills its register tiles as columns). ResNet-50's 7x7 layers: a 3x3
// 512 -> 512 layer on one thread took 1.62 ms as W x cols, 1.40 ms transposed.
constexpr int64_t kTransposedMaxPositions = 49;

// Positions per thread from which a transposed product is split by rows (positions) rather
// than columns (channels): each row piece reads all of W^T.
constexpr int64_t kTransposedRowsPerThread = 128;

// One image's transposed products' tasks: pieces of rows (positions) and of columns (output
// channels), whole register tiles each. Output channels in pieces where the positions are few;
// where there are fewer column tiles than threads (DenseNet's 3x3 layers of 32 channels on 7x7:
// one tile, one thread busy), the positions are split too. Several pieces a thread, handed out
// as threads free up: with one static half each, the node waited for whichever core the host
// slowed (MobileNetV2's 320 -> 1280 layer).
struct TransposedGrid {
  int64_t row_pieces = 1, col_pieces = 1, row_unit = 1, col_unit = 1;
};

// The share of the threads' time spent working on a grid of units (col_units x row_units)
// cut into col_pieces x row_pieces pieces as piece_bounds cuts them, task t the piece of
// columns t % col_pieces and rows t / col_pieces, handed out as the pool does: each thread
// its own run of consecutive tasks first, then the last ones left of the others'. Units over
// threads x the busiest's units.
double grid_balance(int64_t col_units, int64_t col_pieces, int64_t row_units, int64_t row_pieces,
                    int64_t threads) {
  const int64_t tasks = col_pieces * row_pieces;
  auto size_of = [&](int64_t t) {
    const auto [c0, c1] = piece_bounds(col_units, col_pieces, 1, t % col_pieces);
    const auto [r0, r1] = piece_bounds(row_units, row_pieces, 1, t / col_pieces);
    return (c1 - c0) * (r1 - r0);
  };
  // Each run plans this: buffers kept between calls. next[i], end[i]: thread i's tasks left.
  thread_local std::vector<int64_t> load, next, end;
  load.assign(static_cast<std::size_t>(threads), 0);
  next.resize(static_cast<std::size_t>(threads));
  end.resize(static_cast<std::size_t>(threads));
  for (int64_t i = 0; i < threads; ++i) {
    next[static_cast<std::size_t>(i)] = i * tasks / threads;
    end[static_cast<std::size_t>(i)] = (i + 1) * tasks / threads;
  }
  for (int64_t taken = 0; taken < tasks; ++taken) {
    // The thread that frees up first takes its next task, or another's last.
    const auto self =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    int64_t task = -1;
    if (next[self] < end[self]) {
      task = next[self]++;
    } else {
      for (int64_t k = 1; k < threads && task < 0; ++k) {
        const auto other = (self + static_cast<std::size_t>(k)) % static_cast<std::size_t>(threads);
        if (next[other] < end[other]) task = --end[other];
      }
    }
    load[self] += size_of(task);
  }
  const int64_t busiest = std::max<int64_t>(1, *std::max_element(load.begin(), load.end()));
  return static_cast<double>(col_units * row_units) / static_cast<double>(threads * busiest);
}

TransposedGrid transposed_grid(const KernelContext& ctx, int64_t positions, int64_t channels,
                               int64_t row_unit, int64_t col_unit) {
  TransposedGrid grid{1, 1, row_unit, col_unit};
  const int64_t threads = ctx.threads();
  const int64_t row_units = (positions + row_unit - 1) / row_unit;
  const int64_t col_units = (channels + col_unit - 1) / col_unit;
  if (positions >= kTransposedRowsPerThread * threads) {
    grid.row_pieces = std::min(threads * kTasksPerThread, row_units);
    return grid;
  }
  // Pieces a thread at most (the pool cuts more into chunks of several, unevenly), as few row
  // pieces (each reads its columns' W^T again) as keep the threads evenly busy: MobileNetV2's
  // 960 -> 160 layers on 7x7 are five column tiles, three on one thread and two on the other
  // as column pieces alone (21 and 14 units of 7 rows x 32 columns), 4 x 2 pieces 20 and 15
  // (0.101 -> 0.096 ms alone, two threads).
  const int64_t cap = threads * kTasksPerThread;
  double best = -1;
  for (int64_t rows = 1; rows <= std::min(row_units, cap); ++rows) {
    const int64_t cols = std::min(col_units, cap / rows);
    const double even = grid_balance(col_units, cols, row_units, rows, threads);
    if (even > best + 1e-9) {
      best = even;
      grid.row_pieces = rows;
      grid.col_pieces = cols;
    }
    if (best >= kEvenThreads) break;
  }
  return grid;
}

// What one image's (and group's) transposed product Y^T (hw x mg) = X^T x W^T takes: X^T
// (hw x kdim) packed as `layout`, W^T packed (wt), and the cut of Y^T into tasks.
struct TransposedProduct {
  TransposedProduct(const KernelContext& ctx, int64_t depth, int64_t channels, int64_t positions,
                    const kernels::PackedB& w_t)
      : kdim(depth),
        mg(channels),
        hw(positions),
        wt(w_t),
        layout(kernels::packed_a_layout(kdim, hw, wt.level())),
        grid(transposed_grid(ctx, hw, mg, layout.panel, wt.col_align())) {}
  // A 1x1 convolution of one group.
  TransposedProduct(const KernelContext& ctx, const ConvGeometry& g, const Operands<float>& w)
      : TransposedProduct(ctx, g.in_channels, g.out_channels, g.window.out_size(),
                          w.packed_t->front()) {}
  int64_t kdim, mg, hw;
  const kernels::PackedB& wt;
  kernels::PackedBLayout layout;
  TransposedGrid grid;
};

// One image's products Y^T (hw positions x mg channels) = X^T x W^T from a packed X^T, a piece
// of rows by columns per task: fn(args, r0, r1, c0) with args set for the piece but for C and
// its finish.
template <class Fn>
void for_each_piece(const KernelContext& ctx, const TransposedProduct& tp, const float* packed,
                    const Fn& fn) {
  const TransposedGrid& grid = tp.grid;
  const int64_t hw = tp.hw, mg = tp.mg;
  ctx.parallel_for(grid.row_pieces * grid.col_pieces, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t) {
      const auto [c0, c1] = piece_bounds(mg, grid.col_pieces, grid.col_unit, t % grid.col_pieces);
      const auto [r0, r1] = piece_bounds(hw, grid.row_pieces, grid.row_unit, t / grid.col_pieces);
      if (r0 >= r1 || c0 >= c1) continue;
      kernels::PackedBGemmArgs args;
      args.m = r1 - r0;
      args.col0 = c0;
      args.n = c1 - c0;
      args.a_packed = packed;
      args.a_row0 = r0;
      args.a_rows = hw;
      args.b = &tp.wt;
      fn(args, r0, r1, c0);
    }
  });
}

// Y_g^T = cols^T x W_g^T for planes of few positions: the positions are the product's rows (49
// of them take 56 in register tiles, where as columns they took 64) and W, by far the larger
// operand, is the packed B, each thread streaming the part for its own output channels once.
// The columns are built by the threads together straight into the product's packed A (each
// thread packing all of them took 40 % more time on two threads than on one). Every element is
// the same fmas in the same order as in Y_g = W_g x cols, so the bits are those of the other
// paths. The result goes through a scratch Y_g^T, transposed into Y with the bias, residual and
// epilogue (finish_rows).
void conv_transposed(const KernelContext& ctx, const ConvGeometry& g, const float* x,
                     const Operands<float>& w, const float* b, float* y) {
  const Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), kdim = cg * kernel;
  const int64_t ohw = win.out_size(), ihw = win.in_size();
  // The calling thread's buffers, kept between runs; the workers reach them by reference.
  thread_local std::vector<float> caller_packed, caller_yt;
  std::vector<float>&packed = caller_packed, &yt = caller_yt;
  const bool pointwise = win.is_pointwise();
  for (int64_t item = 0; item < g.batch * g.group; ++item) {
    const int64_t grp = item % g.group;
    const TransposedProduct tp(ctx, kdim, mg, ohw, (*w.packed_t)[static_cast<std::size_t>(grp)]);
    const kernels::PackedBLayout& layout = tp.layout;
    scratch_of(yt, static_cast<std::size_t>(ohw * mg));
    scratch_of(packed, static_cast<std::size_t>(layout.size()));
    const float* xg = x + ((item / g.group) * g.in_channels + grp * cg) * ihw;
    const int64_t y_offset = ((item / g.group) * g.out_channels + grp * mg) * ohw;
    ctx.parallel_for(cg, 1, [&](int64_t c0, int64_t c1) {
      if (pointwise) {
        kernels::RowTransform transform;
        if (w.input) {
          transform.scale = w.input->scale.data() + grp * cg;
          transform.shift = w.input->shift.data() + grp * cg;
          transform.activation = w.input->activation;
        }
        kernels::pack_b_rows(layout, xg + c0 * ihw, ihw, c0, c1, packed.data(), transform);
        return;
      }
      thread_local std::vector<float> cols;  // this chunk's columns, plain
      scratch_of(cols, static_cast<std::size_t>((c1 - c0) * kernel * ohw));
      if (win.rank() == 2)
        im2col_rows_padded(win, xg, c0 * kernel, c1 * kernel, cols.data(), ohw, 0.0f);
      else
        im2col_rows(win, xg, c0 * kernel, c1 * kernel, 0, ohw, cols.data(), ohw);
      kernels::pack_b_rows(layout, cols.data(), ohw, c0 * kernel, c1 * kernel, packed.data());
    });
    for_each_piece(ctx, tp, packed.data(),
                   [&](kernels::PackedBGemmArgs& args, int64_t r0, int64_t r1, int64_t c0) {
                     args.c = yt.data() + r0 * mg + c0;
                     args.ldc = mg;
                     kernels::gemm_packed_b(args);
                     const int64_t cols = args.n;
                     float* yg = y + y_offset + c0 * ohw;
                     kernels::transpose_f32(args.c, mg, r1 - r0, cols, yg + r0, ohw);
                     finish_rows(b ? b + grp * mg + c0 : nullptr, w.epilogue,
                                 w.residual ? w.residual + y_offset + c0 * ohw : nullptr, cols, r0,
                                 r1, yg, ohw);
                   });
  }
}

// ---- channels-last values (core/exec/passes/channels_last.h) ---------------------------------

// Input positions per plane up to which a depthwise convolution gains from channels-last
// neighbours (its channel blocks then need no transposes in or out): up to 28x28. 56x56 planes
// go faster by planes (the blocks' padded planes outgrow L2, and the 1x1 layer before, writing
// a transposed product, ran slower). MobileNetV2 whole, alternated minima: 1.3-1.5 % faster
// (one thread), 0.2-1.7 % (two); without the 28x28 planes at stride 1, 1-7 % slower than that.
constexpr int64_t kChannelsLastMaxInputs = 784;

// A 1x1 convolution (one group, no stride or padding) whose Y is channels-last: per image,
// Y^T = X^T x W^T straight into Y, X^T packed by the threads together (conv_transposed's
// product without its transpose), the bias (one per column) and the activation applied by the
// product. The same fmas in the same order as Y = W x X, and the same finish.
void conv_pointwise_to_channels_last(const KernelContext& ctx, const ConvGeometry& g,
                                     const float* x, const Operands<float>& w, const float* b,
                                     float* y) {
  const TransposedProduct tp(ctx, g, w);
  thread_local std::vector<float> caller_packed;
  std::vector<float>& packed = caller_packed;
  scratch_of(packed, static_cast<std::size_t>(tp.layout.size()));
  for (int64_t n = 0; n < g.batch; ++n) {
    const float* xn = x + n * tp.kdim * tp.hw;
    float* yn = y + n * tp.hw * tp.mg;
    ctx.parallel_for(tp.kdim, 1, [&](int64_t c0, int64_t c1) {
      kernels::RowTransform transform;
      if (w.input) {
        transform.scale = w.input->scale.data();
        transform.shift = w.input->shift.data();
        transform.activation = w.input->activation;
      }
      kernels::pack_b_rows(tp.layout, xn + c0 * tp.hw, tp.hw, c0, c1, packed.data(), transform);
    });
    for_each_piece(ctx, tp, packed.data(),
                   [&](kernels::PackedBGemmArgs& args, int64_t r0, int64_t, int64_t c0) {
                     args.c = yn + r0 * tp.mg + c0;
                     args.ldc = tp.mg;
                     args.col_bias = b ? b + c0 : nullptr;
                     args.activation = w.epilogue;
                     kernels::gemm_packed_b(args);
                   });
  }
}

// A 1x1 convolution (one group, no stride or padding) whose X is channels-last: per image,
// Y^T = X^T x W^T with X^T read as it is (its rows are the positions), through a scratch
// Y^T transposed into Y with the bias, residual and epilogue (as conv_transposed finishes).
void conv_pointwise_from_channels_last(const KernelContext& ctx, const ConvGeometry& g,
                                       const float* x, const Operands<float>& w, const float* b,
                                       float* y) {
  const TransposedProduct tp(ctx, g, w);
  thread_local std::vector<float> caller_yt, caller_packed;
  std::vector<float>&yt = caller_yt, &packed = caller_packed;
  scratch_of(yt, static_cast<std::size_t>(tp.hw * tp.mg));
  scratch_of(packed, static_cast<std::size_t>(tp.layout.size()));
  const int64_t panels = (tp.hw + tp.layout.panel - 1) / tp.layout.panel;
  for (int64_t n = 0; n < g.batch; ++n) {
    const float* xn = x + n * tp.hw * tp.kdim;
    float* yn = y + n * tp.mg * tp.hw;
    const float* residual = w.residual ? w.residual + n * tp.mg * tp.hw : nullptr;
    // X^T packed once by the threads together (each product packing its own rows of it took
    // all of it again for every column piece).
    ctx.parallel_for(panels, 1, [&](int64_t lo, int64_t hi) {
      const int64_t r0 = lo * tp.layout.panel, r1 = std::min(tp.hw, hi * tp.layout.panel);
      kernels::pack_a_rows(tp.layout, xn + r0 * tp.kdim, tp.kdim, r0, r1, packed.data());
    });
    for_each_piece(
        ctx, tp, packed.data(),
        [&](kernels::PackedBGemmArgs& args, int64_t r0, int64_t r1, int64_t c0) {
          args.c = yt.data() + r0 * tp.mg + c0;
          args.ldc = tp.mg;
          kernels::gemm_packed_b(args);
          const int64_t cols = args.n;
          kernels::transpose_f32(args.c, tp.mg, r1 - r0, cols, yn + c0 * tp.hw + r0, tp.hw);
          finish_rows(b ? b + c0 : nullptr, w.epilogue, residual ? residual + c0 * tp.hw : nullptr,
                      cols, r0, r1, yn + c0 * tp.hw, tp.hw);
        });
  }
}

// Each of `batch` images of rows x cols transposed (channels-last hw x c to planar c x hw, or
// back), an image a task.
void transpose_images(const KernelContext& ctx, const float* src, int64_t batch, int64_t rows,
                      int64_t cols, float* dst) {
  ctx.parallel_for(batch, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t n = lo; n < hi; ++n)
      kernels::transpose_f32(src + n * rows * cols, cols, rows, cols, dst + n * rows * cols, rows);
  });
}

// ---- Winograd F(4x4, 3x3) and F(2x2, 3x3) ------------------------------------------------------

// Bytes of transformed input (36 x channels x tiles) one block of tiles may take, and of
// products (36 x rows x tiles) one row chunk may: together about one core's L2.
constexpr int64_t kWinogradInputBytes = int64_t{512} << 10;
constexpr int64_t kWinogradProductBytes = int64_t{384} << 10;

// A 2-D window's plane as the Winograd kernels take it (a 3x3 window, stride 1, undilated), in
// tiles of `tile` outputs a side.
kernels::WinogradPlane winograd_plane_of(const Window& w, int64_t tile) {
  return {w.in[0], w.in[1], w.out[0], w.out[1], w.pad_begin[0], w.pad_begin[1], tile};
}

// How a Winograd convolution is cut: per image and group (an item), blocks of `block` tiles;
// each block's channels [0, mg) in chunks of `rows` for the products. A block's transformed
// input takes v_xi_stride floats per position (at least the filter's input_layout(block)), a
// chunk's products m_xi_stride (at least rows x block).
struct WinogradSplit {
  int64_t tiles = 0, block = 0, blocks = 0, rows = 0, v_xi_stride = 0, m_xi_stride = 0;
};

// A stride between the positions' matrices of at least `floats` that spreads the transforms'
// 16 or 36 streams (one per position) over the L1 cache's sets: an odd number of 64-byte lines.
// A stride of a multiple of 4 KiB (32 channels x 32 tiles) put every stream in one set, and the
// transforms then ran from L2.
int64_t spread_stride(int64_t floats) {
  constexpr int64_t kLine = 64 / int64_t{sizeof(float)};
  const int64_t lines = (floats + kLine - 1) / kLine;
  return (lines % 2 == 0 ? lines + 1 : lines) * kLine;
}

// At least `min_blocks` blocks where the tiles make that many register tiles wide: a block per
// thread keeps each thread's transform, products and output on its own core (one 49-tile block
// of a 32 -> 128 channel layer on a 27x27 plane, transformed together and multiplied in pieces
// of rows, ran no faster on two threads than on one; as two blocks, 1.6 times faster).
WinogradSplit winograd_split(const kernels::WinogradFilter& f, int64_t tiles, int64_t min_blocks) {
  const int64_t positions = f.positions();
  const int64_t quantum = f.col_quantum(), align = f.row_align();
  WinogradSplit s;
  s.tiles = tiles;
  const int64_t per_tile = positions * f.in_channels() * int64_t{sizeof(float)};
  const int64_t fit =
      std::max<int64_t>(quantum, kWinogradInputBytes / per_tile / quantum * quantum);
  const int64_t register_tiles = (tiles + quantum - 1) / quantum;
  s.blocks = std::max((tiles + fit - 1) / fit, std::min(min_blocks, register_tiles));
  // Equal blocks where their register tiles add up to no more than the tiles need (49 tiles:
  // 25 + 24, not 32 + 17; the products cover two register tiles either way, and the transforms
  // and outputs are then shared out evenly); else blocks of whole register tiles.
  const int64_t equal = (tiles + s.blocks - 1) / s.blocks;
  const bool no_wider = s.blocks * ((equal + quantum - 1) / quantum) <= register_tiles;
  s.block = no_wider ? equal : even_piece(tiles, s.blocks, quantum);
  s.blocks = (tiles + s.block - 1) / s.block;
  const int64_t per_row = positions * s.block * int64_t{sizeof(float)};
  const int64_t rows = std::max<int64_t>(align, kWinogradProductBytes / per_row / align * align);
  s.rows = std::min(f.out_channels(), rows);
  s.v_xi_stride = spread_stride(f.input_layout(s.block).size());
  s.m_xi_stride = spread_stride(s.rows * s.block);
  return s;
}

// Rows [r0, r1) of one block's output from its transformed input v (36 x split.v_xi_stride),
// the products through m (36 x split.rows x block), a chunk of rows at a time.
void winograd_rows(const kernels::WinogradFilter& f, const kernels::WinogradPlane& plane,
                   const WinogradSplit& split, int64_t t0, int64_t t1, const float* v, int64_t r0,
                   int64_t r1, const kernels::WinogradFinish& finish, float* m, float* y) {
  const int64_t cols = t1 - t0;
  const int64_t m_stride = split.m_xi_stride;
  for (int64_t c0 = r0; c0 < r1; c0 += split.rows) {
    const int64_t c1 = std::min(r1, c0 + split.rows);
    f.multiply(c0, c1, v, split.v_xi_stride, cols, m, m_stride, split.block);
    kernels::winograd_output(plane, m, m_stride, split.block, c0, c1, t0, t1, finish, y);
  }
}

// Transformed filters (U, all positions) from this size up are split by rows between the
// threads when the blocks of tiles are few, each thread transforming all of them itself: a
// thread then reads its share of U instead of all of it, for a transform it repeats. Standalone
// 3x3 layers, two threads, two blocks: 256 -> 256 and 512 -> 512 channels on a 14x14 plane
// (U of 4 and 16 MiB) ran 13 % faster split by rows than a block per thread; 256 -> 256 on
// 28x28 (9 MiB) and 192 -> 192 on 14x14 (2.3 MiB) ran the same either way; 160 -> 160 on 14x14,
// 128 -> 128 and 96 -> 96 on 28x28 (1.6, 2.3 and 1.3 MiB) 10-30 % slower.
constexpr int64_t kWinogradRowSplitFilterBytes = int64_t{3} << 20;

// One Winograd convolution as its schedules see it: the geometry, the cut, and per unit (an
// item's block of tiles) where its input, filter and output are.
struct WinogradJob {
  // One unit: an item's block of tiles.
  struct Unit {
    const kernels::WinogradFilter* filter;
    const float* x;
    float* y;
    kernels::WinogradFinish finish;
    int64_t t0, t1;
  };

  WinogradJob(const ConvGeometry& geometry, int64_t threads, const float* x_,
              const Operands<float>& w_, const float* b_, float* y_)
      : g(geometry), w(w_), x(x_), b(b_), y(y_) {
    const kernels::WinogradFilter& f = w.winograd->front();
    const int64_t items = g.batch * g.group;
    plane = winograd_plane_of(g.window, f.tile());
    split = winograd_split(f, plane.tiles(), (threads + items - 1) / items);
    cg = g.in_channels / g.group;
    mg = g.out_channels / g.group;
    units = items * split.blocks;
    v_size = f.positions() * split.v_xi_stride;
    m_size = f.positions() * split.m_xi_stride;
    u_bytes = f.positions() * f.out_channels() * f.in_channels() * int64_t{sizeof(float)};
  }

  const ConvGeometry& g;
  const Operands<float>& w;
  const float* x;
  const float* b;
  float* y;
  kernels::WinogradPlane plane;
  WinogradSplit split;
  int64_t cg = 0, mg = 0, units = 0, v_size = 0, m_size = 0;
  int64_t u_bytes = 0;  // the transformed filters of a group, all positions

  Unit unit(int64_t u) const {
    const int64_t item = u / split.blocks, block = u % split.blocks;
    const int64_t grp = item % g.group, n = item / g.group;
    const int64_t y_offset = (n * g.out_channels + grp * mg) * plane.out_h * plane.out_w;
    return {&(*w.winograd)[static_cast<std::size_t>(grp)],
            x + (n * g.in_channels + grp * cg) * plane.in_h * plane.in_w,
            y + y_offset,
            {b ? b + grp * mg : nullptr, w.residual ? w.residual + y_offset : nullptr, w.epilogue},
            block * split.block,
            std::min(split.tiles, (block + 1) * split.block)};
  }
  // Channels [c0, c1) of unit r's transformed input into v.
  void transform(const Unit& r, int64_t c0, int64_t c1, float* v) const {
    kernels::winograd_input(plane, r.x, c0, c1, r.t0, r.t1, r.filter->input_layout(r.t1 - r.t0), v,
                            split.v_xi_stride);
  }
  // Rows [r0, r1) of unit r's output from its transformed input v, through m.
  void rows(const Unit& r, const float* v, int64_t r0, int64_t r1, float* m) const {
    winograd_rows(*r.filter, plane, split, r.t0, r.t1, v, r0, r1, r.finish, m, r.y);
  }
  int64_t row_align() const { return w.winograd->front().row_align(); }
};

// Each task transforms its units and does all of their rows, in cache: for enough units, or as
// many as the threads. (Units a thread transforms for another thread's products arrive from the
// other core's cache: a 28x28 plane's two blocks of tiles, one per thread, ran 1.2 times faster
// this way than transformed together and multiplied in pieces of rows.)
void winograd_by_units(const KernelContext& ctx, const WinogradJob& job) {
  ctx.parallel_for(job.units, 1, [&](int64_t lo, int64_t hi) {
    thread_local std::vector<float> v, m;
    scratch_of(v, static_cast<std::size_t>(job.v_size));
    scratch_of(m, static_cast<std::size_t>(job.m_size));
    for (int64_t u = lo; u < hi; ++u) {
      const WinogradJob::Unit r = job.unit(u);
      job.transform(r, 0, job.cg, v.data());
      job.rows(r, v.data(), 0, job.mg, m.data());
    }
  });
}

// Each thread transforms every unit itself and takes its share of the rows: it reads only its
// rows of U and nothing another thread wrote (kWinogradRowSplitFilterBytes).
void winograd_by_rows(const KernelContext& ctx, const WinogradJob& job) {
  const int64_t align = job.row_align();
  const int64_t pieces = std::min<int64_t>(ctx.threads(), (job.mg + align - 1) / align);
  ctx.parallel_for(pieces, 1, [&](int64_t lo, int64_t hi) {
    thread_local std::vector<float> v, m;
    scratch_of(v, static_cast<std::size_t>(job.units * job.v_size));
    scratch_of(m, static_cast<std::size_t>(job.m_size));
    for (int64_t u = 0; u < job.units; ++u)
      job.transform(job.unit(u), 0, job.cg, v.data() + u * job.v_size);
    for (int64_t t = lo; t < hi; ++t) {
      const auto [r0, r1] = piece_bounds(job.mg, pieces, align, t);
      for (int64_t u = 0; u < job.units; ++u)
        job.rows(job.unit(u), v.data() + u * job.v_size, r0, r1, m.data());
    }
  });
}

// Few units, not one per thread (small planes of small filters): every unit transformed first,
// its channels shared out, then its rows shared out, in pieces of whole panels of rows.
void winograd_shared_units(const KernelContext& ctx, const WinogradJob& job) {
  // The calling thread's buffer, kept between runs; the workers reach it through this
  // reference.
  thread_local std::vector<float> caller_v;
  std::vector<float>& v = caller_v;
  scratch_of(v, static_cast<std::size_t>(job.units * job.v_size));
  const int64_t cg = job.cg;
  ctx.parallel_for(job.units * cg, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi;) {
      const int64_t u = i / cg, c0 = i % cg, c1 = std::min(cg, c0 + (hi - i));
      job.transform(job.unit(u), c0, c1, v.data() + u * job.v_size);
      i += c1 - c0;
    }
  });
  const int64_t align = job.row_align();
  const int64_t wanted =
      std::max<int64_t>(1, (kTasksPerThread * ctx.threads() + job.units - 1) / job.units);
  const int64_t pieces = std::min(wanted, (job.mg + align - 1) / align);
  ctx.parallel_for(job.units * pieces, 1, [&](int64_t lo, int64_t hi) {
    thread_local std::vector<float> m;
    scratch_of(m, static_cast<std::size_t>(job.m_size));
    for (int64_t t = lo; t < hi; ++t) {
      const auto [r0, r1] = piece_bounds(job.mg, pieces, align, t % pieces);
      job.rows(job.unit(t / pieces), v.data() + (t / pieces) * job.v_size, r0, r1, m.data());
    }
  });
}

void conv_winograd(const KernelContext& ctx, const ConvGeometry& g, const float* x,
                   const Operands<float>& w, const float* b, float* y) {
  const int64_t threads = ctx.threads();
  const WinogradJob job(g, threads, x, w, b, y);
  const bool few_units = threads > 1 && job.units < 2 * threads;
  if (few_units && job.u_bytes >= kWinogradRowSplitFilterBytes) return winograd_by_rows(ctx, job);
  if (few_units && job.units % threads != 0) return winograd_shared_units(ctx, job);
  winograd_by_units(ctx, job);
}

// Input channels below which the transforms cost more than the products save (the products'
// depth is the input channels), and output channels below which the products are too thin.
// With AVX-512, standalone 3x3 layers at 56x56: 16 and 24 channels in were 5-15 % slower than
// the direct path, 32 were 15 % faster. With AVX2 (AMD Zen 3), one thread: 8 -> 32 channels at
// 56x56 0.28 -> 0.20 ms (median, min), 12 -> 48 0.51 -> 0.33, 16 -> 64 at 55x55 0.84 -> 0.48,
// 24 -> 64 1.30 -> 0.64 (the direct path's short products went no faster on two threads).
int64_t winograd_min_input_channels() {
  return kernels::simd_level() == kernels::SimdLevel::avx512 ? 32 : 8;
}
constexpr int64_t kWinogradMinOutputChannels = 8;
// F(2x2, 3x3) saves less per product (16 multiplications for 36, not 36 for 144) for the same
// transforms, so it needs deeper and taller products. Standalone layers on a 14x14 plane, two
// threads: 96 -> 128, 128 -> 128, 160 -> 160 and 512 -> 512 channels were 11, 9, 18 and 37 %
// faster than the direct path; 64 -> 128 even; 64 -> 64, 128 -> 64 and 128 -> 32 13-35 % slower.
constexpr int64_t kWinograd2MinInputChannels = 64;
constexpr int64_t kWinograd2MinOutputChannels = 128;
// Tiles per image below which the transformed filters (four times W's bytes for F(4x4, 3x3),
// 16/9 for F(2x2, 3x3), streamed once per image) cost more to read than the products save: the
// products' panel width, 16 columns with AVX2 and 32 with AVX-512, so that the tiles fill at
// least one register tile's columns. Fewer fill a narrower tile, whose loads of the packed A
// (broadcasts) outnumber its multiply-adds. With AVX-512, a ResNet-50 layer of 256 channels on
// a 14x14 plane (16 F(4x4, 3x3) tiles) was 7 % slower than the direct path, and 28x28 (49
// tiles) 30 % faster. With AVX2 (AMD Zen 3), one thread: 256 -> 256 channels at 14x14 1.61
// (F(2x2, 3x3)) -> 1.07 ms, 64 -> 64 0.36 (direct) -> 0.16; at 7x7 (16 F(2x2, 3x3) tiles)
// 512 -> 512 3.10 (direct) -> 1.82 ms, 192 -> 384 0.85 -> 0.50, 64 -> 128 0.109 -> 0.076.
// The tile chosen thus depends on the vector width for planes of 16 to 31 tiles, and the
// results there differ by rounding between the two.
int64_t winograd_min_tiles() {
  return kernels::packed_b_layout(1, 1, kernels::simd_level()).panel;
}
// F(2x2, 3x3) where F(4x4, 3x3) takes too few tiles, with at least this many: AVX-512's bar
// was measured at 36 (a 14x14 plane has 49 tiles), AVX2's at a 7x7 plane's 16.
int64_t winograd2_min_tiles() {
  const int64_t panel = winograd_min_tiles();
  return panel >= 32 ? 36 : panel;
}

// The Winograd tile a convolution of this window takes (0: none, the direct path): 2-D, 3x3,
// stride 1, undilated, and planes of enough tiles.
int64_t winograd_tile(const Window& win) {
  if (win.rank() != 2) return 0;
  for (std::size_t a = 0; a < 2; ++a)
    if (win.kernel[a] != 3 || win.stride[a] != 1 || win.dilation[a] != 1) return 0;
  if (winograd_plane_of(win, kernels::kWinogradTile4).tiles() >= winograd_min_tiles())
    return kernels::kWinogradTile4;
  if (winograd_plane_of(win, kernels::kWinogradTile2).tiles() >= winograd2_min_tiles())
    return kernels::kWinogradTile2;
  return 0;
}

// One input channel per group, up to 2 spatial dims: the depthwise path, not a product.
bool is_depthwise(int64_t channels_per_group, int64_t group, std::size_t spatial_rank) {
  return channels_per_group == 1 && group > 1 && spatial_rank <= 2;
}

template <class F>
void conv_forward(const KernelContext& ctx, const ConvGeometry& g, const F* x, const Operands<F>& w,
                  const F* b, F* y) {
  if constexpr (std::is_same_v<F, float>) {
    // The tile W was transformed for, where this run's plane takes it.
    if (w.winograd && winograd_tile(g.window) == w.winograd->front().tile())
      return conv_winograd(ctx, g, x, w, b, y);
    if (w.packed_t && g.window.rank() <= 2 && g.window.out_size() <= kTransposedMaxPositions)
      return conv_transposed(ctx, g, x, w, b, y);
    if (reads_input_in_place(g, w)) return conv_in_place(ctx, g, x, w, b, y);
    if (reads_phase_planes(g, w, ctx.threads())) return conv_phase_product(ctx, g, x, w, b, y);
  }
  if (is_depthwise(g.in_channels / g.group, g.group, g.window.rank()))
    conv_depthwise(ctx, g, x, w, b, y);
  else if (g.window.is_pointwise())
    conv_pointwise(ctx, g, x, w, b, y);
  else
    conv_im2col(ctx, g, x, w, b, y);
}

// ---- kernel ----------------------------------------------------------------------------------

// What Conv decodes and checks once per node (see prepare_conv).
struct ConvState {
  int64_t group = 1;
  std::optional<std::vector<int64_t>> kernel_shape;
  nn::WindowAttrs window;
  // float16/bfloat16 W and B given as constants, converted to float32 at planning.
  std::optional<Tensor> w32, b32;
  nn::ShapePlan<ConvGeometry> geometry;
  // A constant float W packed for the products, one matrix per group (empty: not packed).
  std::vector<kernels::PackedA<float>> packed_w;
  // Or transformed for Winograd's F(4x4, 3x3) or F(2x2, 3x3), one per group (empty: not).
  std::vector<kernels::WinogradFilter> winograd;
  // Or, where planning knows the plane has few positions, W_g^T packed as a product's B, one
  // per group (conv_transposed; empty: not).
  std::vector<kernels::PackedB> packed_wt;
  kernels::Epilogue epilogue;   // from a fusion (core/exec/passes/fuse_epilogue.h)
  int64_t residual_input = -1;  // from a fusion (core/exec/passes/fuse_residual.h)
  // From a fusion (core/exec/passes/fuse_dequantized.h): where X's scale and zero point, then
  // W's, are (X and W being their integers), and W's integers packed at planning.
  int64_t dequantized = -1;
  integer::PackedConvWeights int_weights;
  // From a fusion (core/exec/passes/fuse_input_transform.h): X's per-channel transform.
  InputTransform input;
  // From core/exec/passes/channels_last.h: X, Y held with each position's channels together.
  bool x_last = false, y_last = false;
};

ConvGeometry conv_geometry(const NodeInfo& ctx, const ConvState& s, const Shape& x,
                           const Shape& w) {
  nn::require_conv_operands(ctx, x, w);
  ConvGeometry g;
  g.batch = x[0];
  g.in_channels = x[1];
  g.out_channels = w[0];
  g.group = s.group;
  if (g.group <= 0) ctx.fail("group " + std::to_string(g.group) + " is not positive");
  if (g.in_channels != w[1] * g.group)
    ctx.fail("X has " + std::to_string(g.in_channels) + " channels but W " + shape_to_string(w) +
             " with group " + std::to_string(g.group) + " expects " +
             std::to_string(w[1] * g.group));
  if (g.out_channels % g.group != 0)
    ctx.fail("W's " + std::to_string(g.out_channels) + " output channels are not a multiple of " +
             "group " + std::to_string(g.group));
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (s.kernel_shape && !s.kernel_shape->empty() && *s.kernel_shape != kernel)
    ctx.fail("kernel_shape does not match W's spatial dims " + shape_to_string(kernel));
  g.window = nn::make_window(ctx, s.window, std::span(x).subspan(2), kernel);
  return g;
}

// Packs a constant W once, so that no run packs it again (each tile of each run did). Only
// float W (given as float, or converted at planning) whose products run on onnxtool's SIMD
// kernels, and not for depthwise convolutions, which do not multiply matrices.
void pack_weights(const PrepareContext& ctx, ConvState& s) {
  const Tensor* w = ctx.constant_tensor(1);
  if (s.w32) w = &*s.w32;
  if (!w || w->dtype() != DataType::float32 || w->rank() < 3 || !blas::packed_products()) return;
  const Shape& ws = w->shape();
  const int64_t m = ws[0], group = s.group;
  if (group <= 0 || m % group != 0 || is_depthwise(ws[1], group, ws.size() - 2)) return;
  const int64_t mg = m / group, kdim = w->numel() / std::max<int64_t>(m, 1);
  if (mg < 2 || kdim <= 0) return;
  const float* data = w->data<float>();
  const ConvGeometry* planned = s.geometry.planned();
  const bool pointwise_last = (s.x_last || s.y_last) && group == 1 && w->numel() == m * ws[1];
  if (pointwise_last || (planned && planned->window.rank() <= 2 &&
                         planned->window.out_size() <= kTransposedMaxPositions)) {
    for (int64_t grp = 0; grp < group; ++grp)
      s.packed_wt.emplace_back(true, kdim, mg, data + grp * mg * kdim, kdim);
    return;
  }
  for (int64_t grp = 0; grp < group; ++grp)
    s.packed_w.emplace_back(false, mg, kdim, data + grp * mg * kdim, kdim);
}

bool all_ones(const std::optional<std::vector<int64_t>>& v) {
  return !v || std::all_of(v->begin(), v->end(), [](int64_t e) { return e == 1; });
}

bool all_zeros(const std::optional<std::vector<int64_t>>& v) {
  return !v || std::all_of(v->begin(), v->end(), [](int64_t e) { return e == 0; });
}

// Transforms a constant float 3x3 W for Winograd (the tile winograd_tile picks) when the node has
// stride 1 and no dilation and enough channels, and the run will take that path: where planning
// knows the geometry, the same test conv_forward makes (winograd_tile), so that a W transformed is
// a W used and every other constant W is packed.
void prepare_winograd(const PrepareContext& ctx, ConvState& s) {
  const Tensor* w = ctx.constant_tensor(1);
  if (s.w32) w = &*s.w32;
  if (!kernels::winograd_enabled() || !w || w->dtype() != DataType::float32 || w->rank() != 4)
    return;
  const Shape& ws = w->shape();
  if (ws[2] != 3 || ws[3] != 3 || !all_ones(s.window.strides) || !all_ones(s.window.dilations))
    return;
  // Without a planned geometry (symbolic dims), F(4x4, 3x3), which larger planes take.
  const ConvGeometry* planned = s.geometry.planned();
  const int64_t tile = planned ? winograd_tile(planned->window) : kernels::kWinogradTile4;
  if (tile == 0) return;
  const int64_t m = ws[0], group = s.group;
  if (group <= 0 || m % group != 0) return;
  const int64_t mg = m / group, cg = ws[1];
  if (mg < kWinogradMinOutputChannels || cg < winograd_min_input_channels()) return;
  if (tile == kernels::kWinogradTile2 &&
      (mg < kWinograd2MinOutputChannels || cg < kWinograd2MinInputChannels))
    return;
  const float* data = w->data<float>();
  for (int64_t grp = 0; grp < group; ++grp)
    s.winograd.emplace_back(mg, cg, data + grp * mg * 9 * cg, kernels::simd_level(), tile);
}

// For the executor's fusion (core/registry/fusion.h): a per-channel y' = scale[c] * y +
// shift[c] after the convolution, folded into a constant float W (each output channel's
// filter scaled) and B (scaled and shifted; made when there was none). Rounded once, to float.
bool conv_absorb_channel_affine(const FusionNode& n, const ChannelAffine& affine,
                                ReplacedInputs& out) {
  const Tensor* w = n.constants.size() > 1 ? n.constants[1] : nullptr;
  if (!w || w->dtype() != DataType::float32 || w->rank() < 3) return false;
  const int64_t m = w->shape()[0];
  if (!affine.fits(m, w->rank())) return false;  // Y's rank is W's
  const bool has_bias = n.input_named.size() > 2 && n.input_named[2];
  const Tensor* b = has_bias ? n.constants[2] : nullptr;
  if (has_bias && (!b || b->dtype() != DataType::float32 || b->numel() != m)) return false;
  const int64_t per_filter = w->numel() / m;
  Tensor w2 = Tensor::uninitialized(DataType::float32, w->shape());
  Tensor b2 = Tensor::uninitialized(DataType::float32, {m});
  const float* src = w->data<float>();
  float* dst = w2.mutable_data<float>();
  float* bias = b2.mutable_data<float>();
  for (int64_t c = 0; c < m; ++c) {
    const double scale = affine.scale_at(c);
    for (int64_t i = c * per_filter; i < (c + 1) * per_filter; ++i)
      dst[i] = static_cast<float>(src[i] * scale);
    const double old = b ? b->data<float>()[c] : 0.0;
    bias[c] = static_cast<float>(old * scale + affine.shift_at(c));
  }
  out.inputs.emplace_back(1, std::move(w2));
  out.inputs.emplace_back(2, std::move(b2));
  return true;
}

// Epilogues (core/registry/fusion.h) for a constant float W: the kernel computes in float32
// and applies it before rounding to Y's type (the fusion pass takes only clamps for float16
// and bfloat16, where that gives the nodes' values).
bool conv_takes_epilogue(const FusionNode& n) {
  if (dequantized_inputs_of(n.attrs) >= 0) return true;  // computes in float32 after the sums
  const Tensor* w = n.constants.size() > 1 ? n.constants[1] : nullptr;
  return w && (w->dtype() == DataType::float32 || w->dtype() == DataType::float16 ||
               w->dtype() == DataType::bfloat16);
}

// A residual summand for a constant float W: in float32 the kernel adds it before the
// activation; in float16 and bfloat16 it rounds the convolution first and then adds, as the
// nodes do (store_float32_plus).
bool conv_takes_residual(const FusionNode& n) {
  return conv_takes_epilogue(n);
}

// For the executor's fusion (core/registry/fusion.h): a per-channel transform of X applied as X
// is packed for the products, which a 1x1 convolution without stride, padding or groups reads
// as it is (its columns are X's rows): float32, a constant float W of shape [M, C, 1, 1] and
// one scale per channel. Other geometries would apply it once per tap.
bool conv_takes_input_transform(const FusionNode& n, const InputTransform& t) {
  if (n.output_elem != onnx::TensorProto::FLOAT || dequantized_inputs_of(n.attrs) >= 0)
    return false;
  const Tensor* w = n.constants.size() > 1 ? n.constants[1] : nullptr;
  if (!w || w->dtype() != DataType::float32 || w->rank() != 4) return false;
  const Shape& ws = w->shape();
  if (ws[2] != 1 || ws[3] != 1 || n.attrs.get_int("group", 1) != 1) return false;
  if (!all_ones(n.attrs.opt_ints("strides")) || !all_zeros(n.attrs.opt_ints("pads"))) return false;
  return static_cast<int64_t>(t.scale.size()) == ws[1] && t.shift.size() == t.scale.size();
}

// For the executor's channels-last values (core/registry/fusion.h): a float32 Conv of a
// constant float W, 2-D. A depthwise one (one output channel per input channel) reads and
// writes them, gaining on planes of up to kChannelsLastMaxPositions; a 1x1 one (one group, no
// stride or padding) writes them (without a residual, laid out as ONNX's) or, on planes small
// enough for its transposed product anyway, reads them (without an input transform, applied
// per plane), one of the two.
ChannelsLast conv_channels_last(const FusionNode& n) {
  ChannelsLast c;
  if (n.output_elem != onnx::TensorProto::FLOAT || n.output_rank != 4 ||
      dequantized_inputs_of(n.attrs) >= 0)
    return c;
  const Tensor* w = n.constants.size() > 1 ? n.constants[1] : nullptr;
  if (!w || w->dtype() != DataType::float32 || w->rank() != 4) return c;
  const Shape& ws = w->shape();
  const int64_t group = n.attrs.get_int("group", 1);
  const bool residual = residual_input_of(n.attrs) >= 0;
  if (group > 1 && ws[0] == group && ws[1] == 1) {
    c.reads = true;
    c.writes = !residual;
    c.both = true;
    // Its input's positions, about: the output's times the strides.
    const std::vector<int64_t>& d = n.output_dims;
    const std::vector<int64_t> strides =
        n.attrs.opt_ints("strides").value_or(std::vector<int64_t>{});
    int64_t inputs = d.size() == 4 && d[2] > 0 && d[3] > 0 ? d[2] * d[3] : -1;
    for (int64_t st : strides) inputs *= std::max<int64_t>(st, 1);
    c.gains = inputs > 0 && inputs <= kChannelsLastMaxInputs;
    return c;
  }
  if (group != 1 || ws[2] != 1 || ws[3] != 1 || !all_ones(n.attrs.opt_ints("strides")) ||
      !all_zeros(n.attrs.opt_ints("pads")))
    return c;
  // Reading one costs a 1x1 product a pass over X (its transposed product packs X^T, where
  // the planar one reads X in place) unless its plane is small enough for that product anyway.
  const std::vector<int64_t>& d = n.output_dims;
  const bool small =
      d.size() == 4 && d[2] > 0 && d[3] > 0 && d[2] * d[3] <= kTransposedMaxPositions;
  c.reads = small && !input_transform_of(n.attrs);
  c.writes = !residual;
  return c;
}

bool is_byte_type(int32_t elem) {
  return elem == onnx::TensorProto::INT8 || elem == onnx::TensorProto::UINT8;
}

// A scale of one value, or (when `channels` > 0) one per channel along `axis` 0; its zero
// point absent or of the integers' type and the scale's size.
bool fits_dequantized(const DequantizedOperand& d, int64_t channels) {
  if (!is_byte_type(d.elem) || d.scale->rank() > 1) return false;
  const int64_t n = d.scale->numel();
  if (n != 1 && (channels <= 0 || n != channels || d.axis != 0)) return false;
  return !d.zero || (static_cast<int32_t>(d.zero->dtype()) == d.elem && d.zero->numel() == n);
}

// Products shallower than this (each output the sum of fewer products) stay in float: their
// int32 sums' conversion to float costs about what the integer product saves. Measured on
// ResNet-50's QDQ layers, two threads: depths 64, 128 (1x1 layers widening 4x) and 147 (the 7x7
// first layer on 3 channels) were 25-60 % slower on the integers; 256 and deeper 15-50 % faster.
constexpr int64_t kMinDequantizedDepth = 192;

// For the executor's fusion (core/registry/fusion.h): a float32 Conv of a dequantized X (one
// scale) and a dequantized constant W (one scale, or one per output channel) computes on the
// integers: exact int32 sums, then scaled in float. Depthwise convolutions stay in float (the
// integer kernels multiply matrices).
bool conv_takes_dequantized(const FusionNode& n, const DequantizedOperand& x,
                            const DequantizedOperand& w) {
  if (n.output_elem != onnx::TensorProto::FLOAT || !w.values || w.values->rank() < 3) return false;
  if (static_cast<int64_t>(x.dims.size()) != w.values->rank()) return false;
  const int64_t m = w.values->shape()[0], group = n.attrs.get_int("group", 1);
  if (m <= 0 || group <= 0 || m % group != 0) return false;
  if (is_depthwise(w.values->shape()[1], group, w.values->shape().size() - 2)) return false;
  const Tensor* b = n.constants.size() > 2 ? n.constants[2] : nullptr;
  if (n.input_named.size() > 2 && n.input_named[2] && (!b || b->dtype() != DataType::float32))
    return false;
  if (w.values->numel() / m < kMinDequantizedDepth) return false;
  return fits_dequantized(x, 0) && fits_dequantized(w, m);
}

ConvState prepare_conv(PrepareContext& ctx) {
  ConvState s;
  s.group = ctx.attrs().get_int("group", 1);
  s.kernel_shape = ctx.attrs().opt_ints("kernel_shape");
  s.window = nn::window_attrs(ctx);
  s.w32 = nn::prepared_float32(ctx, 1);
  s.b32 = nn::prepared_float32(ctx, 2);
  s.geometry.prepare(ctx,
                     [&](const Shape& x, const Shape& w) { return conv_geometry(ctx, s, x, w); });
  s.epilogue = epilogue_of(ctx.attrs());
  s.residual_input = residual_input_of(ctx.attrs());
  s.dequantized = dequantized_inputs_of(ctx.attrs());
  s.input = input_transform_of(ctx.attrs());
  s.x_last = channels_last_input_of(ctx.attrs());
  s.y_last = channels_last_output_of(ctx.attrs());
  if (s.dequantized >= 0) {
    s.int_weights = integer::pack_conv_weights(ctx, 1, static_cast<std::size_t>(s.dequantized) + 3);
    return s;
  }
  prepare_winograd(ctx, s);
  if (s.winograd.empty()) pack_weights(ctx, s);
  return s;
}

Shape conv_output_shape(const ConvGeometry& g) {
  Shape y{g.batch, g.out_channels};
  y.insert(y.end(), g.window.out.begin(), g.window.out.end());
  return y;
}

// ---- dequantized operands --------------------------------------------------------------------

// Each output channel's scale: X's times W's (W's one or per channel), rounded to float once.
std::vector<float> channel_scales(const KernelContext& ctx, const ConvState& s, int64_t channels) {
  const auto at = static_cast<std::size_t>(s.dequantized);
  const Tensor& xs = ctx.input(at);
  const Tensor& ws = ctx.input(at + 2);
  if (xs.dtype() != DataType::float32 || xs.numel() != 1)
    ctx.fail("X's fused scale must be one float, not " + std::string(type_name(xs.dtype())) + " " +
             shape_to_string(xs.shape()));
  if (ws.dtype() != DataType::float32 || (ws.numel() != 1 && ws.numel() != channels))
    ctx.fail("W's fused scale must be float, one value or one per output channel, not " +
             std::string(type_name(ws.dtype())) + " " + shape_to_string(ws.shape()));
  std::vector<float> scales(static_cast<std::size_t>(channels));
  const float x_scale = xs.data<float>()[0];
  for (int64_t c = 0; c < channels; ++c)
    scales[static_cast<std::size_t>(c)] = x_scale * ws.data<float>()[ws.numel() == 1 ? 0 : c];
  return scales;
}

// X and W as integers (a dequantized-operands fusion): the exact int32 sums of integer::
// conv_int32, written where Y's floats go, each block then turned in place, while in cache, into
// sum * scale + bias, plus the residual, through the epilogue.
void conv_dequantized(KernelContext& ctx, const ConvState& s, const ConvGeometry& g,
                      const Tensor* b, const Tensor* residual, Tensor& y) {
  if (b && b->dtype() != DataType::float32) ctx.fail("B must be float with fused X and W integers");
  const auto at = static_cast<std::size_t>(s.dequantized);
  const std::vector<float> scales = channel_scales(ctx, s, g.out_channels);
  integer::FloatOutput out;
  out.scales = scales.data();
  out.bias = b ? b->data<float>() : nullptr;
  out.residual = residual ? residual->data<float>() : nullptr;
  out.epilogue = s.epilogue;
  integer::conv_int32_to_float(ctx, g, ctx.input(0), integer::optional_input(ctx, at + 1),
                               ctx.input(1), integer::optional_input(ctx, at + 3), s.int_weights,
                               out, y.mutable_data<float>());
}

// ---- fused input transform -------------------------------------------------------------------

// Whether this run's path packs X itself for its products, so that a fused input transform is
// applied on the way (the order of conv_forward's choices, for a 1x1 geometry): the transposed
// product of a small plane, or the packed products of a pointwise convolution.
bool packs_input(const ConvState& s, const ConvGeometry& g) {
  if (!s.packed_wt.empty())
    return g.window.rank() <= 2 && g.window.out_size() <= kTransposedMaxPositions;
  return !s.packed_w.empty() && g.window.is_pointwise() &&
         !is_depthwise(g.in_channels / g.group, g.group, g.window.rank());
}

// X with the fused transform applied, for the paths that do not pack X: what the node that was
// fused computed (kernels::affine_f32 per plane, its activation included).
Tensor transformed_input(const KernelContext& ctx, const InputTransform& t, const Tensor& x) {
  const int64_t channels = x.shape()[1];  // t's size (conv_kernel checked)
  const int64_t inner = nn::product(x.shape(), 2, x.shape().size());
  Tensor out = Tensor::uninitialized(DataType::float32, x.shape());
  const float* src = x.data<float>();
  float* dst = out.mutable_data<float>();
  ctx.parallel_for(x.shape()[0] * channels, nn::grain_for(inner), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const auto c = static_cast<std::size_t>(plane % channels);
      kernels::affine_f32(src + plane * inner, t.scale[c], t.shift[c], dst + plane * inner, inner,
                          t.activation);
    }
  });
  return out;
}

// A node given channels-last X or Y (s.x_last, s.y_last): the depthwise and 1x1 paths that
// read and write them; anything else (a model spelling the attributes itself, W not packed
// here) runs the planar path between transposes.
void conv_forward_channels_last(const KernelContext& ctx, const ConvState& s, const ConvGeometry& g,
                                const float* x, const Operands<float>& ops, const float* b,
                                float* y) {
  const bool depthwise = is_depthwise(g.in_channels / g.group, g.group, g.window.rank()) &&
                         g.out_channels == g.group && g.window.rank() == 2;
  const bool pointwise =
      g.group == 1 && g.window.is_pointwise() && ops.packed_t && ops.packed_t->size() == 1;
  // (A residual is laid out as ONNX's Y: not with a channels-last one.)
  if (depthwise && !(s.y_last && ops.residual))
    return conv_depthwise_blocks(ctx, g, x, ops, b, y, s.x_last, s.y_last);
  if (pointwise && s.y_last && !s.x_last && !ops.residual)
    return conv_pointwise_to_channels_last(ctx, g, x, ops, b, y);
  if (pointwise && s.x_last && !s.y_last && !ops.input)
    return conv_pointwise_from_channels_last(ctx, g, x, ops, b, y);
  const int64_t ihw = g.window.in_size(), ohw = g.window.out_size();
  // Scratch of the calling thread, kept between runs (conv_forward uses thread_local buffers of
  // its own, not these).
  thread_local std::vector<float> planar_x, planar_y;
  if (s.x_last) {
    scratch_of(planar_x, static_cast<std::size_t>(g.batch * g.in_channels * ihw));
    transpose_images(ctx, x, g.batch, ihw, g.in_channels, planar_x.data());
    x = planar_x.data();
  }
  if (!s.y_last) return conv_forward<float>(ctx, g, x, ops, b, y);
  scratch_of(planar_y, static_cast<std::size_t>(g.batch * g.out_channels * ohw));
  conv_forward<float>(ctx, g, x, ops, b, planar_y.data());
  transpose_images(ctx, planar_y.data(), g.batch, g.out_channels, ohw, y);
}

void conv_kernel(KernelContext& ctx, const ConvState& s) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const ConvGeometry g = s.geometry.get(
      x.shape(), w.shape(),
      [&](const Shape& xs, const Shape& ws) { return conv_geometry(ctx, s, xs, ws); });
  const Tensor* b = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  if (b && (b->rank() != 1 || b->numel() != g.out_channels))
    ctx.fail("B has shape " + shape_to_string(b->shape()) + ", expected [" +
             std::to_string(g.out_channels) + "]");
  // The fusion gives a transform only to such nodes; a model may still spell the attributes.
  if (s.input && (s.dequantized >= 0 || x.dtype() != DataType::float32 || g.group != 1 ||
                  static_cast<int64_t>(s.input.scale.size()) != g.in_channels))
    ctx.fail("a fused input transform needs float32 X of " + std::to_string(s.input.scale.size()) +
             " channels, one group and no fused integers");
  if (s.dequantized >= 0) {
    Tensor& y = ctx.output_uninitialized(0, DataType::float32, conv_output_shape(g));
    if (y.numel() > 0)
      conv_dequantized(ctx, s, g, b, nn::residual_summand(ctx, s.residual_input, y), y);
    return;
  }
  if (x.dtype() != w.dtype() || (b && b->dtype() != x.dtype()))
    ctx.fail("X, W and B must have the same element type");
  // Every path writes every element of Y (a product with beta 0, or the bias, first).
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), conv_output_shape(g));
  if (y.numel() == 0) return;
  const Tensor* residual = nn::residual_summand(ctx, s.residual_input, y);
  if (x.dtype() == DataType::float64) {
    conv_forward<double>(ctx, g, x.data<double>(), {w.data<double>(), nullptr, s.epilogue},
                         b ? b->data<double>() : nullptr, y.mutable_data<double>());
    return;
  }
  // A fused input transform rides on the packing of X where the path packs X, else is applied
  // to a copy of X first.
  const bool transform = static_cast<bool>(s.input);
  const bool transform_in_packing = transform && packs_input(s, g);
  // float32 as is; float16 and bfloat16 through float32.
  const Tensor x32 = transform && !transform_in_packing ? transformed_input(ctx, s.input, x)
                                                        : nn::to_float32(ctx, x);
  const Tensor w32 = nn::float32_of(s.w32, w);
  const Tensor b32 = b ? nn::float32_of(s.b32, *b) : Tensor();
  const float* bias = b ? b32.data<float>() : nullptr;
  const bool narrow = y.dtype() != DataType::float32;
  // A narrow Y rounds before its residual is added: the summand and what follows it are
  // store_float32_plus's, after the product.
  const Operands<float> operands{w32.data<float>(),
                                 s.packed_w.empty() ? nullptr : &s.packed_w,
                                 narrow && residual ? kernels::Epilogue{} : s.epilogue,
                                 residual && !narrow ? residual->data<float>() : nullptr,
                                 s.winograd.empty() ? nullptr : &s.winograd,
                                 s.packed_wt.empty() ? nullptr : &s.packed_wt,
                                 transform_in_packing ? &s.input : nullptr};
  if (s.x_last || s.y_last) {
    if (narrow || (s.input && s.x_last))
      ctx.fail("channels-last values need float32 Y and no input transform on a channels-last X");
    conv_forward_channels_last(ctx, s, g, x32.data<float>(), operands, bias,
                               y.mutable_data<float>());
    return;
  }
  if (!narrow) {
    conv_forward<float>(ctx, g, x32.data<float>(), operands, bias, y.mutable_data<float>());
    return;
  }
  Tensor y32 = Tensor::uninitialized(DataType::float32, y.shape());  // every path writes it all
  conv_forward<float>(ctx, g, x32.data<float>(), operands, bias, y32.mutable_data<float>());
  if (residual)
    nn::store_float32_plus(ctx, y32.data<float>(), *residual, s.epilogue, y);
  else
    nn::store_float32(ctx, y32.data<float>(), y);
}

}  // namespace

// ---- reference -------------------------------------------------------------------------------

namespace nn {

// Input offset of output position p under kernel offset kk, or -1 in the padding.
int64_t window_input_index(const Window& w, int64_t p, int64_t kk) {
  int64_t index = 0, stride = 1;
  for (std::size_t a = w.rank(); a-- > 0;) {
    const int64_t o = p % w.out[a], k = kk % w.kernel[a];
    p /= w.out[a];
    kk /= w.kernel[a];
    const int64_t i = o * w.stride[a] - w.pad_begin[a] + k * w.dilation[a];
    if (i < 0 || i >= w.in[a]) return -1;
    index += i * stride;
    stride *= w.in[a];
  }
  return index;
}

template <class F>
void conv_reference(const ConvGeometry& g, const F* x, const F* w, const F* b, F* y) {
  const Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), ohw = win.out_size(), ihw = win.in_size();
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t m = 0; m < g.out_channels; ++m)
      for (int64_t p = 0; p < ohw; ++p) {
        double acc = b ? static_cast<double>(b[m]) : 0.0;
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t kk = 0; kk < kernel; ++kk) {
            const int64_t i = window_input_index(win, p, kk);
            if (i < 0) continue;
            acc += static_cast<double>(w[(m * cg + c) * kernel + kk]) *
                   static_cast<double>(x[(n * g.in_channels + (m / mg) * cg + c) * ihw + i]);
          }
        y[(n * g.out_channels + m) * ohw + p] = static_cast<F>(acc);
      }
}

template void conv_reference<float>(const ConvGeometry&, const float*, const float*, const float*,
                                    float*);
template void conv_reference<double>(const ConvGeometry&, const double*, const double*,
                                     const double*, double*);

}  // namespace nn

void define_Conv(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input_optional("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_conv)
      .kernel(prepared_kernel(prepare_conv, conv_kernel))
      .absorb_channel_affine(conv_absorb_channel_affine)
      .takes_epilogue(conv_takes_epilogue)
      .takes_residual(conv_takes_residual)
      .takes_dequantized(conv_takes_dequantized)
      .takes_input_transform(conv_takes_input_transform)
      .channels_last(conv_channels_last)
      .macs([](const WorkShapes& s, const AttrView&) { return nn::filter_macs(s, 0, 1); });
}

}  // namespace onnxtool::ops
