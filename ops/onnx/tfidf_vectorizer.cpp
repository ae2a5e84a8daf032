// SPDX-License-Identifier: Apache-2.0
// TfIdfVectorizer: the ai.onnx operator. Counts, per row of X ([C] or [N, C], integers or
// strings), the n-grams of the pool (min_gram_length..max_gram_length items, taken with 0 up to
// max_skip_count items skipped between consecutive ones; 1-grams once per position) and writes
// each count at its ngram_indexes coordinate: as is (TF), capped at 1 and weighted (IDF), or
// weighted (TFIDF).
#include <map>
#include <variant>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

int64_t output_width(const AttrView& attrs) {
  int64_t width = 0;
  for (int64_t i : attrs.get_ints("ngram_indexes", {})) width = std::max(width, i + 1);
  return width;
}

void infer_tfidf_vectorizer(InferContext& ctx) {
  const auto f = static_cast<int32_t>(DataType::float32);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dim width = Dim::value(output_width(ctx.attrs()));
  if (!x) {
    set_output_tensor(ctx, 0, f);
    return;
  }
  if (x->size() == 1)
    set_output_tensor(ctx, 0, f, Dims{width});
  else if (x->size() == 2)
    set_output_tensor(ctx, 0, f, Dims{(*x)[0], width});
  else
    infer_fail("X must be 1-D or 2-D");
}

// The pool: n-grams (as item sequences) to their position in the pool.
template <class Item>
using Pool = std::map<std::vector<Item>, std::size_t>;

struct Config {
  int64_t min_n = 0, max_n = 0, max_skip = 0, width = 0;
  std::string mode;
  std::vector<int64_t> indexes;
  std::vector<float> weights;
};

template <class Item>
Pool<Item> read_pool(const KernelContext& ctx, const std::vector<Item>& items, const Config& c) {
  const std::vector<int64_t> starts = ctx.attrs().get_ints("ngram_counts");
  Pool<Item> pool;
  std::size_t ngram = 0;
  for (std::size_t level = 0; level < starts.size(); ++level) {
    const auto n = static_cast<int64_t>(level + 1);
    const int64_t begin = starts[level];
    const int64_t end =
        level + 1 < starts.size() ? starts[level + 1] : static_cast<int64_t>(items.size());
    if (begin < 0 || end > static_cast<int64_t>(items.size()) || begin > end || (end - begin) % n)
      ctx.fail("ngram_counts " + misc::ints_text(starts) + " do not split the pool of " +
               std::to_string(items.size()) + " items into whole n-grams");
    for (int64_t at = begin; at < end; at += n, ++ngram)
      pool.emplace(std::vector<Item>(items.begin() + at, items.begin() + at + n), ngram);
  }
  if (ngram != c.indexes.size())
    ctx.fail("the pool holds " + std::to_string(ngram) + " n-grams, ngram_indexes has " +
             std::to_string(c.indexes.size()));
  return pool;
}

template <class Item>
void count_row(const std::vector<Item>& row, const Pool<Item>& pool, const Config& c,
               std::vector<double>& counts) {
  const auto len = static_cast<int64_t>(row.size());
  std::vector<Item> gram;
  for (int64_t n = std::max<int64_t>(c.min_n, 1); n <= c.max_n; ++n) {
    const int64_t skips = n == 1 ? 0 : c.max_skip;
    for (int64_t skip = 0; skip <= skips; ++skip)
      for (int64_t start = 0; start + (n - 1) * (skip + 1) < len; ++start) {
        gram.clear();
        for (int64_t k = 0; k < n; ++k)
          gram.push_back(row[static_cast<std::size_t>(start + k * (skip + 1))]);
        const auto it = pool.find(gram);
        if (it != pool.end()) counts[it->second] += 1;
      }
  }
}

template <class Item>
void vectorize(KernelContext& ctx, const std::vector<Item>& x, const std::vector<Item>& pool_items,
               const Config& c, int64_t rows, int64_t cols, const Shape& out_shape) {
  const Pool<Item> pool = read_pool(ctx, pool_items, c);
  std::vector<float> out(static_cast<std::size_t>(rows * c.width), 0.0f);
  std::vector<double> counts(c.indexes.size());
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(counts.begin(), counts.end(), 0.0);
    count_row(std::vector<Item>(x.begin() + r * cols, x.begin() + (r + 1) * cols), pool, c, counts);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == 0) continue;
      const double w = c.weights.empty() ? 1.0 : c.weights[i];
      const double v = c.mode == "TF" ? counts[i] : c.mode == "IDF" ? w : counts[i] * w;
      out[static_cast<std::size_t>(r * c.width + c.indexes[i])] = static_cast<float>(v);
    }
  }
  ctx.set_output(0, Tensor::from_vector<float>(out_shape, out));
}

Config read_config(const KernelContext& ctx) {
  Config c;
  c.min_n = ctx.attrs().get_int("min_gram_length");
  c.max_n = ctx.attrs().get_int("max_gram_length");
  c.max_skip = ctx.attrs().get_int("max_skip_count");
  c.mode = ctx.attrs().get_string("mode");
  c.indexes = ctx.attrs().get_ints("ngram_indexes");
  c.weights = ctx.attrs().get_floats("weights", {});
  c.width = output_width(ctx.attrs());
  if (c.mode != "TF" && c.mode != "IDF" && c.mode != "TFIDF")
    ctx.fail("mode must be TF, IDF or TFIDF, got \"" + c.mode + "\"");
  if (c.min_n < 1 || c.max_n < c.min_n || c.max_skip < 0)
    ctx.fail("the gram lengths and skip count must satisfy 1 <= min <= max and skip >= 0");
  if (!c.weights.empty() && c.weights.size() != c.indexes.size())
    ctx.fail("weights has " + std::to_string(c.weights.size()) + " values, ngram_indexes " +
             std::to_string(c.indexes.size()));
  for (int64_t i : c.indexes)
    if (i < 0) ctx.fail("ngram_indexes must be >= 0");
  return c;
}

void tfidf_vectorizer_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 1 && x.rank() != 2)
    ctx.fail("X must be 1-D or 2-D, got " + shape_to_string(x.shape()));
  const Config c = read_config(ctx);
  const int64_t rows = x.rank() == 2 ? x.shape()[0] : 1, cols = x.shape().back();
  const Shape out_shape = x.rank() == 2 ? Shape{rows, c.width} : Shape{c.width};
  const bool has_strings = ctx.attrs().has("pool_strings"),
             has_ints = ctx.attrs().has("pool_int64s");
  if (has_strings == has_ints)
    ctx.fail("exactly one of pool_strings and pool_int64s must be given");
  if (has_strings) {
    if (x.dtype() != DataType::string) ctx.fail("pool_strings needs a string input");
    vectorize<std::string>(ctx, x.strings(), ctx.attrs().get_strings("pool_strings"), c, rows, cols,
                           out_shape);
    return;
  }
  if (x.dtype() != DataType::int32 && x.dtype() != DataType::int64)
    ctx.fail("pool_int64s needs an int32 or int64 input");
  vectorize<int64_t>(ctx, misc::values_as<int64_t>(ctx, x, "X"),
                     ctx.attrs().get_ints("pool_int64s"), c, rows, cols, out_shape);
}

}  // namespace

void define_TfIdfVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_required("max_gram_length", AttrType::i)
      .attr_required("max_skip_count", AttrType::i)
      .attr_required("min_gram_length", AttrType::i)
      .attr_required("mode", AttrType::s)
      .attr_required("ngram_counts", AttrType::ints)
      .attr_required("ngram_indexes", AttrType::ints)
      .attr_optional("pool_int64s", AttrType::ints)
      .attr_optional("pool_strings", AttrType::strings)
      .attr_optional("weights", AttrType::floats)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T1", D::non_differentiable)
      .constraint("T", {"tensor(string)", "tensor(int32)", "tensor(int64)"})
      .constraint("T1", {"tensor(float)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_tfidf_vectorizer).kernel(tfidf_vectorizer_kernel);
}

}  // namespace onnxtool::ops
