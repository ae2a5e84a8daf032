// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/pool_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/kernels/pool.h"
#include "core/util/scratch.h"

namespace onnxtool::ops::nn {

// ---- geometry --------------------------------------------------------------------------------

// Per output index along one axis: where its window starts in the input, the kernel offsets
// [lo, hi) that land inside the input, and how many land inside the padded input (what
// AveragePool divides by with count_include_pad; windows that ceil_mode lets run past the end
// padding do not count the overhang).
struct AxisWindows {
  int64_t in = 1, out = 1, dilation = 1, stride = 1, kernel = 1;
  std::vector<int64_t> start, lo, hi, padded;
};

// Spatial ranks 1 and 2 seen as 3-D with leading axes of size 1. (These two are outside the
// unnamed namespace: PoolPlan, declared in the header, holds them.)
struct Geometry3 {
  AxisWindows axis[3];
};

namespace {

int64_t count_below(int64_t limit, int64_t start, int64_t dilation, int64_t kernel) {
  // Offsets k in [0, kernel) with start + k * dilation < limit.
  if (limit <= start) return 0;
  return std::min(kernel, (limit - 1 - start) / dilation + 1);
}

AxisWindows axis_windows(const Window& w, std::size_t a) {
  AxisWindows aw;
  aw.in = w.in[a];
  aw.out = w.out[a];
  aw.dilation = w.dilation[a];
  aw.stride = w.stride[a];
  aw.kernel = w.kernel[a];
  for (int64_t o = 0; o < aw.out; ++o) {
    const int64_t start = o * w.stride[a] - w.pad_begin[a];
    const int64_t lo =
        start >= 0 ? 0 : std::min(w.kernel[a], (-start + aw.dilation - 1) / aw.dilation);
    aw.start.push_back(start);
    aw.lo.push_back(lo);
    aw.hi.push_back(std::max(lo, count_below(aw.in, start, aw.dilation, w.kernel[a])));
    aw.padded.push_back(count_below(aw.in + w.pad_end[a], start, aw.dilation, w.kernel[a]));
  }
  return aw;
}

Geometry3 geometry3(const Window& w) {
  Geometry3 g;
  const std::size_t skip = 3 - w.rank();
  for (std::size_t a = 0; a < w.rank(); ++a) g.axis[skip + a] = axis_windows(w, a);
  for (std::size_t a = 0; a < skip; ++a) {
    AxisWindows& aw = g.axis[a];
    aw.start = {0};
    aw.lo = {0};
    aw.hi = {1};
    aw.padded = {1};
  }
  return g;
}

// ---- the direct loops ------------------------------------------------------------------------

struct PlaneJob {
  const Geometry3* g;
  PoolOptions options;
  bool column_major = false;  // MaxPool's storage_order 1
  int64_t* indices = nullptr;
  // Output columns [first, last) whose window is whole along the width (whole_columns).
  std::pair<int64_t, int64_t> whole{0, 0};
  // A float AveragePool's divisors for a whole small 2-D output plane (out_h x out_w), the same
  // for every plane, worked out once per run (plane_divisors); set exactly where
  // sum_plane_padded applies.
  const float* divisors = nullptr;
  // A float MaxPool's planes as kernels::separable_max_plane takes them (but for src), worked
  // out once per run (separable_max_of); set exactly where max_plane_separable applies.
  const kernels::SeparableMax* separable = nullptr;
};

template <class T>
void max_plane(const PlaneJob& job, int64_t plane, const T* x, T* y) {
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const int64_t in_size = d.in * h.in * w.in;
  const T* src = x + plane * in_size;
  int64_t at = plane * d.out * h.out * w.out;
  for (int64_t od = 0; od < d.out; ++od)
    for (int64_t oh = 0; oh < h.out; ++oh)
      for (int64_t ow = 0; ow < w.out; ++ow, ++at) {
        acc_t<T> best = -std::numeric_limits<acc_t<T>>::infinity();
        int64_t arg = -1;
        for (int64_t kd = d.lo[od]; kd < d.hi[od]; ++kd) {
          const int64_t id = d.start[od] + kd * d.dilation;
          for (int64_t kh = h.lo[oh]; kh < h.hi[oh]; ++kh) {
            const int64_t row = (id * h.in + h.start[oh] + kh * h.dilation) * w.in;
            for (int64_t kw = w.lo[ow]; kw < w.hi[ow]; ++kw) {
              const int64_t i = row + w.start[ow] + kw * w.dilation;
              const acc_t<T> v = load<T>(src[i]);
              if (v > best || arg < 0) {
                best = v;
                arg = i;
              }
            }
          }
        }
        y[at] = store<T>(best);
        if (!job.indices) continue;
        if (arg >= 0 && job.column_major) {
          const int64_t iw = arg % w.in, ih = arg / w.in % h.in, id = arg / (w.in * h.in);
          arg = id + ih * d.in + iw * d.in * h.in;
        }
        job.indices[at] = plane * in_size + std::max<int64_t>(arg, 0);
      }
}

// MaxPool without the Indices output: no argmax to track, so the window loop is a plain running
// maximum (the first element seeds it, so a leading NaN stays, as in max_plane).
// Output columns [skip_first, skip_last) are left alone (the row loops below computed them).
template <class T>
void max_plane_values(const PlaneJob& job, int64_t plane, const T* x, T* y, int64_t skip_first = 0,
                      int64_t skip_last = 0) {
  using A = acc_t<T>;
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const T* src = x + plane * d.in * h.in * w.in;
  int64_t at = plane * d.out * h.out * w.out;
  for (int64_t od = 0; od < d.out; ++od)
    for (int64_t oh = 0; oh < h.out; ++oh)
      for (int64_t ow = 0; ow < w.out; ++ow, ++at) {
        if (ow == skip_first && skip_last > skip_first) {  // the row loops did these
          at += skip_last - 1 - ow;
          ow = skip_last - 1;
          continue;
        }
        A best = -std::numeric_limits<A>::infinity();
        bool seeded = false;
        for (int64_t kd = d.lo[od]; kd < d.hi[od]; ++kd) {
          const int64_t id = d.start[od] + kd * d.dilation;
          for (int64_t kh = h.lo[oh]; kh < h.hi[oh]; ++kh) {
            const T* row = src + (id * h.in + h.start[oh] + kh * h.dilation) * w.in + w.start[ow];
            int64_t kw = w.lo[ow];
            if (!seeded && kw < w.hi[ow]) {
              best = load<T>(row[kw * w.dilation]);
              seeded = true;
              ++kw;
            }
            for (; kw < w.hi[ow]; ++kw) {
              const A v = load<T>(row[kw * w.dilation]);
              best = v > best ? v : best;
            }
          }
        }
        y[at] = store<T>(best);
      }
}

// ---- 2-D planes, row by row -------------------------------------------------------------------
// One output row at a time: each window row is folded into a row of running values for all the
// output columns whose window lies inside the input along the width (the others go through
// `edge`). Every output still takes its window's elements in the order of the loops of
// max_plane_values and sum_plane (window row, then column), so the results have the same bits;
// the inner loop runs along the output columns and vectorises.

// The output columns whose window is whole along the width: [first, last).
std::pair<int64_t, int64_t> whole_columns(const AxisWindows& w) {
  int64_t first = 0, last = w.out;
  while (first < last && (w.lo[first] != 0 || w.hi[first] != w.kernel)) ++first;
  while (last > first && (w.lo[last - 1] != 0 || w.hi[last - 1] != w.kernel)) --last;
  for (int64_t o = first; o < last; ++o)
    if (w.lo[o] != 0 || w.hi[o] != w.kernel) return {0, 0};
  return {first, last};
}

// fold(acc, v, first) over window rows [h.lo, h.hi) of output row oh into acc[first, last);
// float rows go through `fold_floats(out, row, window, seed)` (core/kernels/pool.h), which takes
// a window row's values in the same order and gives the same bits (nullptr: none; float
// MaxPool rows take kernels::max_rows instead).
template <class T, class A, class Fold, class FloatFold>
void fold_rows(const AxisWindows& h, const AxisWindows& w, int64_t oh, const T* src, int64_t first,
               int64_t last, A* acc, const Fold& fold, const FloatFold& fold_floats) {
  bool seed = true;
  const int64_t n = last - first, step = w.stride;
  for (int64_t kh = h.lo[oh]; kh < h.hi[oh]; ++kh) {
    const T* row = src + (h.start[oh] + kh * h.dilation) * w.in + w.start[first];
    A* out = acc + first;
    if constexpr (std::is_same_v<T, float> && std::is_same_v<A, float> &&
                  !std::is_null_pointer_v<FloatFold>) {
      fold_floats(out, row, kernels::RowWindow{n, step, w.kernel, w.dilation}, seed);
      seed = false;
      continue;
    }
    for (int64_t kw = 0; kw < w.kernel; ++kw, seed = false) {
      const T* base = row + kw * w.dilation;
      if (step == 1) {
        for (int64_t o = 0; o < n; ++o) out[o] = fold(out[o], load<T>(base[o]), seed);
      } else {
        for (int64_t o = 0; o < n; ++o) out[o] = fold(out[o], load<T>(base[o * step]), seed);
      }
    }
  }
}

// A 3x3 window's axis at stride 2, undilated.
bool is_3x3_stride2(const AxisWindows& a) {
  return a.kernel == 3 && a.stride == 2 && a.dilation == 1;
}

template <class T>
bool max_plane_rows(const PlaneJob& job, int64_t plane, const T* x, T* y) {
  using A = acc_t<T>;
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const auto [first, last] = job.whole;
  if (d.out != 1 || d.in != 1 || last <= first) return false;
  const T* src = x + plane * h.in * w.in;
  if constexpr (std::is_same_v<T, float>) {
    // Float rows straight into the output, each output row in one call, or a run of whole 3x3
    // windows at stride 2 in one call (their shared input rows read once).
    const kernels::RowWindow window{last - first, w.stride, w.kernel, w.dilation};
    const bool three_by_two = is_3x3_stride2(h) && is_3x3_stride2(w);
    for (int64_t oh = 0; oh < h.out; ++oh) {
      float* out = y + (plane * h.out + oh) * w.out + first;
      if (three_by_two && h.lo[oh] == 0 && h.hi[oh] == 3) {
        int64_t end = oh + 1;
        while (end < h.out && h.lo[end] == 0 && h.hi[end] == 3) ++end;
        const float* row0 = src + h.start[oh] * w.in + w.start[first];
        if (kernels::max_rows_3x3_stride2(out, w.out, row0, w.in, end - oh, window.n)) {
          oh = end - 1;
          continue;
        }
      }
      const int64_t rows = h.hi[oh] - h.lo[oh];
      if (rows == 0) {
        std::fill(out, out + window.n, -std::numeric_limits<float>::infinity());
        continue;
      }
      const float* row0 = src + (h.start[oh] + h.lo[oh] * h.dilation) * w.in + w.start[first];
      kernels::max_rows(out, row0, h.dilation * w.in, rows, window);
    }
    return true;
  }
  thread_local std::vector<A> acc;
  scratch_of(acc, static_cast<std::size_t>(w.out));
  for (int64_t oh = 0; oh < h.out; ++oh) {
    T* out = y + (plane * h.out + oh) * w.out;
    if (h.lo[oh] == h.hi[oh]) {
      std::fill(acc.begin() + first, acc.begin() + last, -std::numeric_limits<A>::infinity());
    } else {
      fold_rows(
          h, w, oh, src, first, last, acc.data(),
          [](A best, A v, bool seed) { return seed ? v : (v > best ? v : best); }, nullptr);
    }
    for (int64_t o = first; o < last; ++o) out[o] = store<T>(acc[static_cast<std::size_t>(o)]);
  }
  return true;
}

// AveragePool's divisors for output row oh, columns [first, last) of a 2-D plane (the depth
// axis of size 1): the window's elements inside the input, or with count_include_pad those
// inside the padded input; as the type the sums are divided in.
template <class A>
void average_divisors(const PlaneJob& job, int64_t oh, int64_t first, int64_t last, A* divisor) {
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const bool include_pad = job.options.count_include_pad;
  const int64_t rows = include_pad ? d.padded[0] * h.padded[oh] : h.hi[oh] - h.lo[oh];
  for (int64_t o = first; o < last; ++o)
    divisor[o] = static_cast<A>(rows * (include_pad ? w.padded[o] : w.hi[o] - w.lo[o]));
}

template <class T>
bool sum_plane_rows(const PlaneJob& job, int64_t plane, const T* x, T* y) {
  using A = acc_t<T>;
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const auto [first, last] = job.whole;
  if (job.options.kind != PoolKind::average || d.out != 1 || d.in != 1 || last <= first)
    return false;
  const T* src = x + plane * h.in * w.in;
  thread_local std::vector<A> acc, divisor;
  scratch_of(acc, static_cast<std::size_t>(w.out));
  scratch_of(divisor, static_cast<std::size_t>(w.out));
  for (int64_t oh = 0; oh < h.out; ++oh) {
    T* out = y + (plane * h.out + oh) * w.out;
    std::fill(acc.begin() + first, acc.begin() + last, A(0));
    fold_rows(
        h, w, oh, src, first, last, acc.data(), [](A sum, A v, bool) { return sum + v; },
        [](float* dst, const float* row, const kernels::RowWindow& window, bool) {
          kernels::fold_sum(dst, row, window);
        });
    // The row's divisors first, so that the divisions run as one vector loop.
    average_divisors(job, oh, first, last, divisor.data());
    for (int64_t o = first; o < last; ++o) {
      const auto i = static_cast<std::size_t>(o);
      out[o] = store<T>(acc[i] / divisor[i]);
    }
  }
  return true;
}

// The padding a plane's windows reach into: before and after the input along one axis.
std::pair<int64_t, int64_t> reach(const AxisWindows& a) {
  const int64_t end = a.start.back() + (a.kernel - 1) * a.dilation + 1;
  return {std::max<int64_t>(0, -a.start.front()), std::max<int64_t>(0, end - a.in)};
}

// Planes up to this many elements go through a zero-padded copy (sum_plane_padded).
constexpr int64_t kPaddedPlaneMax = int64_t{1} << 16;

// Planes up to this wide take MaxPool's bordered copy at stride 2 too (max_plane_padded).
constexpr int64_t kNarrowPlane = 32;

// A thread's copy of one plane inside a border of `fill`, for the small-plane paths below. The
// border is written only when the layout or the fill changes: planes of one node (and of the
// next nodes of the same shape) overwrite the same inner rectangle, and filling the whole copy
// for each 14x14 plane took as long as summing it.
class BorderedPlane {
 public:
  // The copy's first element (rows of pw); `src`'s in_h rows of in_w start at (top, left).
  const float* copy(const float* src, int64_t in_h, int64_t in_w, int64_t top, int64_t left,
                    int64_t ph, int64_t pw, float fill) {
    const Layout layout{in_h, in_w, top, left, ph, pw, fill};
    if (!(layout == layout_)) {
      data_.assign(static_cast<std::size_t>(ph * pw), fill);
      layout_ = layout;
    }
    float* inner = data_.data() + top * pw + left;
    for (int64_t r = 0; r < in_h; ++r)
      std::copy(src + r * in_w, src + (r + 1) * in_w, inner + r * pw);
    return data_.data();
  }

 private:
  struct Layout {
    int64_t in_h = -1, in_w = -1, top = 0, left = 0, ph = 0, pw = 0;
    float fill = 0;
    // The fills compared by value: 0 and -infinity here, never NaN.
    bool operator==(const Layout&) const = default;
  };
  Layout layout_;
  std::vector<float> data_;
};

// A float average over a small 2-D plane: where windows reach into the padding, the plane
// copied into a zero border, so that every window is whole; then, with a stride of 1 or 2 along
// the width, each output's window is summed and divided in one pass
// (kernels::average_padded_plane), else each window row is one fold_sum over all output columns.
// The zeros change no bit: the sums start at +0, so none is -0, and x + 0
// == x for every other x, NaN and infinities included. The divisors are those of the unpadded
// windows.
bool sum_plane_padded(const PlaneJob& job, int64_t plane, const float* x, float* y) {
  const AxisWindows &h = job.g->axis[1], &w = job.g->axis[2];
  if (!job.divisors) return false;  // not a small 2-D average plane
  const auto [top, bottom] = reach(h);
  const auto [left, right] = reach(w);
  // Windows of stride 1 or 2 along the width: each window summed, divided and stored in one
  // pass (DenseNet's 2x2 stride-2 transitions ran 5 times slower through the row loops).
  const bool one_pass = w.stride <= 2;
  kernels::PaddedAverage a;
  a.out_h = h.out;
  a.out_w = w.out;
  a.stride_h = h.stride;
  a.stride_w = w.stride;
  a.kernel_h = h.kernel;
  a.kernel_w = w.kernel;
  a.dilation_h = h.dilation;
  a.dilation_w = w.dilation;
  a.divisors = job.divisors;
  float* out = y + plane * h.out * w.out;
  const float* src = x + plane * h.in * w.in;
  if (top + bottom + left + right == 0) {
    if (!one_pass) return false;  // the row loops need no edges
    a.padded = src + h.start[0] * w.in + w.start[0];
    a.padded_w = w.in;
    kernels::average_padded_plane(out, a);
    return true;
  }
  const int64_t ph = top + h.in + bottom, pw = left + w.in + right;
  thread_local BorderedPlane bordered;
  thread_local std::vector<float> acc;
  const float* padded = bordered.copy(src, h.in, w.in, top, left, ph, pw, 0.0f);
  if (one_pass) {
    a.padded = padded + (h.start[0] + top) * pw + w.start[0] + left;
    a.padded_w = pw;
    kernels::average_padded_plane(out, a);
    return true;
  }
  // Wider strides: a row of sums per output row (w.out apart), then the divisions.
  acc.assign(static_cast<std::size_t>(h.out * w.out), 0.0f);
  const float* origin = padded + (h.start[0] + top) * pw + w.start[0] + left;
  const kernels::RowWindow row{w.out, w.stride, w.kernel, w.dilation};
  for (int64_t kh = 0; kh < h.kernel; ++kh) {
    const float* base = origin + kh * h.dilation * pw;
    for (int64_t oh = 0; oh < h.out; ++oh)
      kernels::fold_sum(acc.data() + oh * w.out, base + oh * h.stride * pw, row);
  }
  for (int64_t oh = 0; oh < h.out; ++oh) {
    const float* divisors = job.divisors + oh * w.out;
    float* dst = out + oh * w.out;
    const float* sums = acc.data() + oh * w.out;
    for (int64_t o = 0; o < w.out; ++o) dst[o] = sums[o] / divisors[o];
  }
  return true;
}

// A float MaxPool over a small 2-D plane with padding where windows begin, stride 1, without
// the Indices output: the plane copied into a border of -infinity, so that every window is
// whole and one max_rows call covers all output rows (laid end to end at the padded width). Each
// window then takes its padded values in max_plane_values's order (row, then column), which differs
// from the input's values alone only where a window begins in the padding: it is seeded by a
// -infinity there instead of its first input value. That changes nothing unless the first input
// value is NaN (a first NaN stays, a later one is passed over), so those outputs take their first
// input value when it is NaN.
bool max_plane_padded(const PlaneJob& job, int64_t plane, const float* x, float* y) {
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  if (d.out != 1 || d.in != 1 || h.in * w.in > kPaddedPlaneMax) return false;
  const auto [top, bottom] = reach(h);
  const auto [left, right] = reach(w);
  // Stride 1 with windows that begin in the padding, or stride 2 on narrow planes: the copy
  // pays where one pass covers every output row. Windows that only end in the padding leave
  // the row loops few edges on wide planes (a stride-2 pool with pads at the end went twice as
  // fast through them), and wide strided planes go faster through the row loops too (64 planes
  // of 112x112, stride 2, pads 1: 0.24 ms there, 0.35 through the copy); on 14x14 planes the
  // row loops' scalar last column took as long as the vectors (576 of them, stride 2, pads at
  // the end: 0.45-0.54 s of user time for 3000 runs, 0.34-0.36 through the copy).
  if (h.stride != w.stride || top + bottom + left + right == 0) return false;
  const bool narrow_strided = h.stride == 2 && w.in <= kNarrowPlane;
  if (!(h.stride == 1 && top + left > 0) && !narrow_strided) return false;
  const int64_t ph = top + h.in + bottom, pw = left + w.in + right;
  thread_local BorderedPlane bordered;
  thread_local std::vector<float> acc;
  const float* src = x + plane * h.in * w.in;
  const float* padded =
      bordered.copy(src, h.in, w.in, top, left, ph, pw, -std::numeric_limits<float>::infinity());
  const float* origin = padded + (h.start[0] + top) * pw + w.start[0] + left;
  float* out = y + plane * h.out * w.out;
  // 3x3 windows at stride 2 (Inception's reductions, with pads at the end) straight into Y, an
  // input row two output rows share read once: 320 planes of 28x28 to 14x14, 14 -> 7.6 us per
  // 40 planes (Inception v2 in the model, two threads: 0.066 -> 0.037 ms).
  const bool three_by_two = is_3x3_stride2(h) && is_3x3_stride2(w);
  if (!three_by_two || !kernels::max_rows_3x3_stride2(out, w.out, origin, pw, h.out, w.out)) {
    const int64_t n = (h.out - 1) * pw + w.out;
    scratch_of(acc, static_cast<std::size_t>(n));
    // Output (oh, ow) at oh * pw + ow: its window begins stride times further into the copy.
    kernels::max_rows(acc.data(), origin, h.dilation * pw, h.kernel,
                      {n, h.stride, w.kernel, w.dilation});
    for (int64_t oh = 0; oh < h.out; ++oh)
      std::copy(acc.begin() + oh * pw, acc.begin() + oh * pw + w.out, out + oh * w.out);
  }
  // The windows that begin in the padding: whole rows at the top, the first columns of the
  // others (lo falls as the windows move right and down).
  for (int64_t oh = 0; oh < h.out; ++oh)
    for (int64_t ow = 0; ow < w.out && (h.lo[oh] > 0 || w.lo[ow] > 0); ++ow) {
      if (h.lo[oh] == h.hi[oh] || w.lo[ow] == w.hi[ow]) continue;  // no input value
      const float first =
          src[(h.start[oh] + h.lo[oh] * h.dilation) * w.in + w.start[ow] + w.lo[ow] * w.dilation];
      if (std::isnan(first)) out[oh * w.out + ow] = first;
    }
  return true;
}

// Whether every window along an axis at stride 1 reaches the input as stride-1 windows from
// start 0 - pad do (start[o] = o - reach's before) and holds at least one input element.
bool stride1_windows(const AxisWindows& a) {
  if (a.stride != 1 || a.dilation != 1 || a.out < 1 || a.in < 1) return false;
  const int64_t before = reach(a).first;
  for (int64_t o = 0; o < a.out; ++o)
    if (a.start[o] != o - before || a.hi[o] <= a.lo[o]) return false;
  return true;
}

// A float MaxPool's planes at stride 1 whose windows all hold input and whose rows keep their
// width (3x3 with pads of 1, 5x5 with 2...), without the Indices output, as
// kernels::separable_max_plane takes them; else nullopt.
std::optional<kernels::SeparableMax> separable_max_of(const PlaneJob& job, DataType type) {
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const bool float_planes =
      type == DataType::float32 || type == DataType::float16 || type == DataType::bfloat16;
  if (job.options.kind != PoolKind::max || job.indices || !float_planes || d.out != 1 ||
      d.in != 1 || w.out != w.in || h.kernel > kernels::kMaxSeparableKernel ||
      w.kernel > kernels::kMaxSeparableKernel || !stride1_windows(h) || !stride1_windows(w))
    return std::nullopt;
  kernels::SeparableMax p;
  p.in_h = h.in;
  p.in_w = w.in;
  p.out_h = h.out;
  p.out_w = w.out;
  p.top = reach(h).first;
  p.left = reach(w).first;
  p.kernel_h = h.kernel;
  p.kernel_w = w.kernel;
  return p;
}

// Plane `plane` of a float MaxPool through kernels::separable_max_plane (each row's window
// maxima, then the window rows': the bits of the row loops), where the job has it; false where
// it has not, or the plane holds a NaN.
bool max_plane_separable(const PlaneJob& job, int64_t plane, const float* x, float* y,
                         std::vector<float>& scratch) {
  if (!job.separable) return false;
  kernels::SeparableMax p = *job.separable;
  p.src = x + plane * p.in_h * p.in_w;
  return kernels::separable_max_plane(y + plane * p.out_h * p.out_w, p, scratch.data());
}

// The divisors of every output of a small 2-D plane (the depth axis of size 1), row after row,
// for sum_plane_padded: AveragePools of float32 and of the types widened to it; else none.
std::vector<float> plane_divisors(const PlaneJob& job, DataType type) {
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const bool float_planes =
      type == DataType::float32 || type == DataType::float16 || type == DataType::bfloat16;
  if (job.options.kind != PoolKind::average || !float_planes || d.out != 1 || d.in != 1 ||
      h.in * w.in > kPaddedPlaneMax)
    return {};
  std::vector<float> divisors(static_cast<std::size_t>(h.out * w.out));
  for (int64_t oh = 0; oh < h.out; ++oh)
    average_divisors(job, oh, 0, w.out, divisors.data() + oh * w.out);
  return divisors;
}

template <class T>
void sum_plane(const PlaneJob& job, int64_t plane, const T* x, T* y, int64_t skip_first = 0,
               int64_t skip_last = 0) {
  using A = acc_t<T>;
  const AxisWindows &d = job.g->axis[0], &h = job.g->axis[1], &w = job.g->axis[2];
  const T* src = x + plane * d.in * h.in * w.in;
  const bool lp = job.options.kind == PoolKind::lp;
  const A p = static_cast<A>(job.options.p);
  int64_t at = plane * d.out * h.out * w.out;
  for (int64_t od = 0; od < d.out; ++od)
    for (int64_t oh = 0; oh < h.out; ++oh)
      for (int64_t ow = 0; ow < w.out; ++ow, ++at) {
        if (ow == skip_first && skip_last > skip_first) {  // the row loops did these
          at += skip_last - 1 - ow;
          ow = skip_last - 1;
          continue;
        }
        A sum = 0;
        for (int64_t kd = d.lo[od]; kd < d.hi[od]; ++kd) {
          const int64_t id = d.start[od] + kd * d.dilation;
          for (int64_t kh = h.lo[oh]; kh < h.hi[oh]; ++kh) {
            const T* row = src + (id * h.in + h.start[oh] + kh * h.dilation) * w.in + w.start[ow];
            if (!lp) {
              for (int64_t kw = w.lo[ow]; kw < w.hi[ow]; ++kw) sum += load<T>(row[kw * w.dilation]);
            } else {
              for (int64_t kw = w.lo[ow]; kw < w.hi[ow]; ++kw)
                sum += std::pow(std::abs(load<T>(row[kw * w.dilation])), p);
            }
          }
        }
        if (lp) {
          y[at] = store<T>(std::pow(sum, A(1) / p));
          continue;
        }
        const int64_t count =
            job.options.count_include_pad
                ? d.padded[od] * h.padded[oh] * w.padded[ow]
                : (d.hi[od] - d.lo[od]) * (h.hi[oh] - h.lo[oh]) * (w.hi[ow] - w.lo[ow]);
        y[at] = store<T>(sum / static_cast<A>(count));
      }
}

template <class T>
void pool_direct(const KernelContext& ctx, const Window& win, const PlaneJob& job, int64_t planes,
                 const T* x, T* y) {
  const int64_t work = win.out_size() * win.kernel_size();
  ctx.parallel_for(planes, grain_for(work), [&](int64_t lo, int64_t hi) {
    thread_local std::vector<float> separable_scratch;
    if (job.separable)
      scratch_of(separable_scratch,
                 static_cast<std::size_t>(kernels::separable_max_scratch(*job.separable)));
    for (int64_t plane = lo; plane < hi; ++plane) {
      if (job.options.kind == PoolKind::max && job.indices) {
        max_plane(job, plane, x, y);
      } else if (job.options.kind == PoolKind::max) {
        if constexpr (std::is_same_v<T, float>)
          if (max_plane_separable(job, plane, x, y, separable_scratch) ||
              max_plane_padded(job, plane, x, y))
            continue;
        const auto [first, last] = job.whole;
        if (max_plane_rows(job, plane, x, y))
          max_plane_values(job, plane, x, y, first, last);
        else
          max_plane_values(job, plane, x, y);
      } else {
        const auto [first, last] = job.whole;
        if constexpr (std::is_same_v<T, float>)
          if (sum_plane_padded(job, plane, x, y)) continue;
        if (sum_plane_rows(job, plane, x, y))
          sum_plane(job, plane, x, y, first, last);
        else
          sum_plane(job, plane, x, y);
      }
    }
  });
}

// Ranks above 3: the reference loop in double.
template <class T>
void pool_general(const Window& win, const PoolOptions& o, int64_t planes, const T* x, T* y) {
  std::vector<double> xd(static_cast<std::size_t>(planes * win.in_size()));
  std::vector<double> yd(static_cast<std::size_t>(planes * win.out_size()));
  for (std::size_t i = 0; i < xd.size(); ++i) xd[i] = static_cast<double>(load<T>(x[i]));
  pool_reference(win, planes, o, xd.data(), yd.data());
  for (std::size_t i = 0; i < yd.size(); ++i) y[i] = store<T>(static_cast<acc_t<T>>(yd[i]));
}

// Calls f(T{}) for the element types pools take: the float types, and int8/uint8 for MaxPool.
template <class F>
void visit_pool_type(const KernelContext& ctx, DataType t, PoolKind kind, F&& f) {
  if (kind == PoolKind::max && t == DataType::int8) return f(int8_t{});
  if (kind == PoolKind::max && t == DataType::uint8) return f(uint8_t{});
  visit_float(ctx, t, f);
}

// LpPool-1 and GlobalLpPool-1 take p as a float, later versions as an int.
double lp_order_attribute(const NodeInfo& ctx) {
  const AttrDef* def = ctx.schema().find_attribute("p");
  return def && def->type == AttrType::f ? ctx.attrs().get_float("p", 2.0f)
                                         : static_cast<double>(ctx.attrs().get_int("p", 2));
}

double lp_norm_order(const KernelContext& ctx, double p) {
  if (!(p > 0)) ctx.fail("p must be positive, got " + std::to_string(p));
  return p;
}

}  // namespace

// What pool_kernel works out from X's shape before the loops.
struct PoolPlan {
  Shape x;  // the input shape it was made for
  Window win;
  Geometry3 g;                              // ranks up to 3
  std::pair<int64_t, int64_t> whole{0, 0};  // whole_columns of g's last axis
};

namespace {

// Fails (KernelFailure) where X's shape (of rank 3 or more) does not suit the node.
PoolPlan plan_pool(const NodeInfo& ctx, const PoolState& s, const Shape& x) {
  const std::span<const int64_t> spatial = std::span(x).subspan(2);
  if (!s.kernel_shape) ctx.fail("attribute kernel_shape is required");
  if (s.kernel_shape->size() != spatial.size())
    ctx.fail("kernel_shape has " + std::to_string(s.kernel_shape->size()) +
             " values but the input has " + std::to_string(spatial.size()) + " spatial dims");
  PoolPlan plan;
  plan.x = x;
  plan.win = make_window(ctx, s.window, spatial, *s.kernel_shape, s.ceil_mode);
  if (plan.win.rank() <= 3) {
    plan.g = geometry3(plan.win);
    plan.whole = whole_columns(plan.g.axis[2]);
  }
  return plan;
}

}  // namespace

// ---- kernels ---------------------------------------------------------------------------------

PoolState prepare_pool(PrepareContext& ctx) {
  PoolState s;
  s.window = window_attrs(ctx);
  s.kernel_shape = ctx.attrs().opt_ints("kernel_shape");
  s.ceil_mode = ctx.attrs().opt_int("ceil_mode").value_or(0) != 0;
  s.count_include_pad = ctx.attrs().opt_int("count_include_pad").value_or(0) != 0;
  s.column_major = ctx.attrs().opt_int("storage_order").value_or(0) != 0;
  if (ctx.schema().find_attribute("p")) s.p = lp_order_attribute(ctx);
  // X's rank is checked at run (require_spatial_input).
  if (const std::optional<Shape> x = ctx.static_shape(0); x && x->size() >= 3 && s.kernel_shape) {
    try {
      s.planned = std::make_shared<const PoolPlan>(plan_pool(ctx, s, *x));
    } catch (const KernelFailure&) {
      // The run reports what is wrong with the shape.
    }
  }
  return s;
}

GlobalPoolState prepare_global_pool(PrepareContext& ctx) {
  GlobalPoolState s;
  if (ctx.schema().find_attribute("p")) s.p = lp_order_attribute(ctx);
  return s;
}

namespace {

template <class T>
void global_plane(PoolKind kind, double p, const T* src, int64_t n, T* dst) {
  using A = acc_t<T>;
  A acc = kind == PoolKind::max ? -std::numeric_limits<A>::infinity() : A(0);
  if (kind == PoolKind::max) {
    for (int64_t i = 0; i < n; ++i) acc = std::max(acc, load<T>(src[i]));
  } else if (kind == PoolKind::average) {
    for (int64_t i = 0; i < n; ++i) acc += load<T>(src[i]);
    acc /= static_cast<A>(n);
  } else if (p == 2) {
    for (int64_t i = 0; i < n; ++i) acc += load<T>(src[i]) * load<T>(src[i]);
    acc = std::sqrt(acc);
  } else {
    for (int64_t i = 0; i < n; ++i) acc += std::pow(std::abs(load<T>(src[i])), static_cast<A>(p));
    acc = std::pow(acc, A(1) / static_cast<A>(p));
  }
  *dst = store<T>(acc);
}

// Planes' averages, kAveragedAtOnce planes at a time: each plane's sum from +0 in element order,
// divided by its element count (global_plane's arithmetic, and AveragePool's over a window that
// is its whole plane). A plane's adds depend on one another; summing several planes together
// keeps the adder busy (ResNet-50's last AveragePool, 2048 planes of 7x7, a plane at a time was
// bound by the latency of its 49 adds).
constexpr int64_t kAveragedAtOnce = 8;

template <class T>
void average_planes(const T* src, int64_t size, int64_t first, int64_t last, T* dst) {
  using A = acc_t<T>;
  int64_t plane = first;
  for (; plane + kAveragedAtOnce <= last; plane += kAveragedAtOnce) {
    A acc[kAveragedAtOnce] = {};
    const T* x = src + plane * size;
    for (int64_t i = 0; i < size; ++i)
      for (int64_t j = 0; j < kAveragedAtOnce; ++j) acc[j] += load<T>(x[j * size + i]);
    for (int64_t j = 0; j < kAveragedAtOnce; ++j)
      dst[plane + j] = store<T>(acc[j] / static_cast<A>(size));
  }
  for (; plane < last; ++plane)
    global_plane(PoolKind::average, 2.0, src + plane * size, size, dst + plane);
}

// Whether each output is the average of one whole input plane: one output per plane, the window
// the plane itself (no padding inside it, undilated).
bool averages_whole_planes(const Window& w) {
  for (std::size_t a = 0; a < w.rank(); ++a)
    if (w.out[a] != 1 || w.kernel[a] != w.in[a] || w.pad_begin[a] != 0 || w.dilation[a] != 1)
      return false;
  return true;
}

// Y's planes each the average of X's, split across the threads.
template <class T>
void average_whole_planes(const KernelContext& ctx, const T* x, int64_t planes, int64_t size,
                          T* y) {
  ctx.parallel_for(planes, grain_for(size),
                   [&](int64_t lo, int64_t hi) { average_planes(x, size, lo, hi, y); });
}

}  // namespace

void pool_kernel(KernelContext& ctx, const PoolState& s, PoolKind kind) {
  const Tensor& x = ctx.input(0);
  require_spatial_input(ctx, x);
  std::optional<PoolPlan> made;
  if (!s.planned || s.planned->x != x.shape()) made = plan_pool(ctx, s, x.shape());
  const PoolPlan& plan = made ? *made : *s.planned;
  const Window& win = plan.win;
  PlaneJob job;
  job.options.kind = kind;
  job.options.count_include_pad = s.count_include_pad;
  if (kind == PoolKind::lp) job.options.p = lp_norm_order(ctx, s.p);
  job.column_major = s.column_major;
  Shape shape{x.shape()[0], x.shape()[1]};
  shape.insert(shape.end(), win.out.begin(), win.out.end());
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), shape);
  if (kind == PoolKind::max && ctx.num_outputs() > 1 && ctx.has_output(1))
    job.indices = ctx.output(1, DataType::int64, shape).mutable_data<int64_t>();
  if (y.numel() == 0) return;
  const int64_t planes = x.shape()[0] * x.shape()[1];
  if (kind == PoolKind::average && win.rank() <= 3 && averages_whole_planes(win)) {
    visit_float(ctx, x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      average_whole_planes(ctx, x.data<T>(), planes, win.in_size(), y.mutable_data<T>());
    });
    return;
  }
  if (win.rank() > 3 && job.indices)
    ctx.fail("MaxPool's Indices output is supported for up to 3 spatial dims");
  job.g = &plan.g;
  job.whole = plan.whole;
  std::vector<float> divisors;
  if (win.rank() <= 3) divisors = plane_divisors(job, x.dtype());
  if (!divisors.empty()) job.divisors = divisors.data();
  std::optional<kernels::SeparableMax> separable;
  if (win.rank() <= 3) separable = separable_max_of(job, x.dtype());
  if (separable) job.separable = &*separable;
  const bool narrow = x.dtype() == DataType::float16 || x.dtype() == DataType::bfloat16;
  if (narrow && win.rank() <= 3 && kind != PoolKind::lp) {
    // The float32 loops on the widened planes (one vector conversion each way): the same
    // values, since those loops widen each element too and sum in float32 in the same order.
    const Tensor x32 = to_float32(x);
    Tensor y32 = Tensor::uninitialized(DataType::float32, shape);
    pool_direct(ctx, win, job, planes, x32.data<float>(), y32.mutable_data<float>());
    store_float32(y32.data<float>(), y);
    return;
  }
  visit_pool_type(ctx, x.dtype(), kind, [&](auto tag) {
    using T = decltype(tag);
    if (win.rank() <= 3)
      pool_direct(ctx, win, job, planes, x.data<T>(), y.mutable_data<T>());
    else
      pool_general(win, job.options, planes, x.data<T>(), y.mutable_data<T>());
  });
}

void global_pool_kernel(KernelContext& ctx, const GlobalPoolState& s, PoolKind kind) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("X has shape " + shape_to_string(x.shape()) + "; expected [N, C, D1, ...]");
  Shape shape = x.shape();
  for (std::size_t i = 2; i < shape.size(); ++i) shape[i] = 1;
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), shape);
  const int64_t planes = shape[0] * shape[1];
  const int64_t size = product(x.shape(), 2, x.shape().size());
  if (planes == 0) return;
  if (size == 0 && kind == PoolKind::average) ctx.fail("cannot average over empty spatial dims");
  const double p = kind == PoolKind::lp ? lp_norm_order(ctx, s.p) : 2.0;
  visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.mutable_data<T>();
    if (kind == PoolKind::average) return average_whole_planes(ctx, src, planes, size, dst);
    ctx.parallel_for(planes, grain_for(size), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) global_plane(kind, p, src + i * size, size, dst + i);
    });
  });
}

// ---- reference -------------------------------------------------------------------------------

void pool_reference(const Window& w, int64_t planes, const PoolOptions& o, const double* x,
                    double* y) {
  const std::size_t r = w.rank();
  const int64_t kernel = w.kernel_size(), outs = w.out_size(), ins = w.in_size();
  for (int64_t plane = 0; plane < planes; ++plane)
    for (int64_t p = 0; p < outs; ++p) {
      double acc = o.kind == PoolKind::max ? -std::numeric_limits<double>::infinity() : 0.0;
      int64_t valid = 0, padded = 0;
      for (int64_t kk = 0; kk < kernel; ++kk) {
        bool inside = true, in_pad = true;
        int64_t index = 0;
        for (std::size_t a = 0; a < r; ++a) {
          int64_t stride_p = 1, stride_k = 1;
          for (std::size_t b = a + 1; b < r; ++b) {
            stride_p *= w.out[b];
            stride_k *= w.kernel[b];
          }
          const int64_t oa = p / stride_p % w.out[a], ka = kk / stride_k % w.kernel[a];
          const int64_t i = oa * w.stride[a] - w.pad_begin[a] + ka * w.dilation[a];
          inside = inside && i >= 0 && i < w.in[a];
          in_pad = in_pad && i < w.in[a] + w.pad_end[a];
          index = index * w.in[a] + i;
        }
        padded += in_pad ? 1 : 0;
        if (!inside) continue;
        ++valid;
        const double v = x[plane * ins + index];
        if (o.kind == PoolKind::max)
          acc = std::max(acc, v);
        else if (o.kind == PoolKind::average)
          acc += v;
        else
          acc += std::pow(std::abs(v), o.p);
      }
      if (o.kind == PoolKind::average)
        acc /= static_cast<double>(o.count_include_pad ? padded : valid);
      else if (o.kind == PoolKind::lp)
        acc = std::pow(acc, 1.0 / o.p);
      y[plane * outs + p] = acc;
    }
}

}  // namespace onnxtool::ops::nn
