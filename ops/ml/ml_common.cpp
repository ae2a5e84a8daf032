// SPDX-License-Identifier: Apache-2.0
#include "ops/ml/ml_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/types/tensor_proto.h"

namespace onnxtool::ops::ml {

Features read_features(const KernelContext& ctx, const Tensor& x) {
  Features f;
  if (x.rank() == 1) {
    f.rows = 1;
    f.cols = x.shape()[0];
  } else if (x.rank() == 2) {
    f.rows = x.shape()[0];
    f.cols = x.shape()[1];
  } else {
    ctx.fail("X must have shape [N, C] or [C], got " + shape_to_string(x.shape()));
  }
  f.values = misc::values_as<double>(ctx, x, "X");
  return f;
}

Post post_from_name(const KernelContext& ctx, const std::string& name) {
  const int i = name_index(kPostNames, name);
  if (i < 0)
    ctx.fail("post_transform must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, got \"" +
             name + "\"");
  return static_cast<Post>(i);
}

Post post_from_int(const KernelContext& ctx, int64_t v) {
  if (v < 0 || v > 4) ctx.fail("post_transform must be 0 to 4, got " + std::to_string(v));
  return static_cast<Post>(v);
}

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

namespace {

// erf^-1 by a closed-form first guess refined with Newton steps on erf.
double erfinv(double y) {
  if (y <= -1) return -std::numeric_limits<double>::infinity();
  if (y >= 1) return std::numeric_limits<double>::infinity();
  const double w = std::log((1 - y) * (1 + y));
  const double a = 0.147, t = 2 / (M_PI * a) + w / 2;
  double x = std::copysign(std::sqrt(std::sqrt(t * t - w / a) - t), y);
  for (int i = 0; i < 3; ++i) x -= (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}

}  // namespace

double probit(double p) {
  return std::sqrt(2.0) * erfinv(2 * p - 1);
}

void apply_post(Post p, double* s, int64_t n) {
  if (n <= 0) return;
  switch (p) {
    case Post::none:
      return;
    case Post::logistic:
      for (int64_t i = 0; i < n; ++i) s[i] = logistic(s[i]);
      return;
    case Post::probit:
      for (int64_t i = 0; i < n; ++i) s[i] = probit(s[i]);
      return;
    case Post::softmax: {
      const double m = *std::max_element(s, s + n);
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += (s[i] = std::exp(s[i] - m));
      for (int64_t i = 0; i < n; ++i) s[i] /= sum;
      return;
    }
    case Post::softmax_zero: {
      // As softmax, but zero scores stay zero (they stand for "no score").
      const double m = *std::max_element(s, s + n);
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (std::abs(s[i]) > 1e-7) {
          s[i] = std::exp(s[i] - m);
          sum += s[i];
        } else {
          s[i] *= std::exp(-m);
        }
      }
      for (int64_t i = 0; i < n; ++i) s[i] = sum > 0 ? s[i] / sum : 0;
      return;
    }
  }
}

std::optional<Tensor> tensor_attr(const AttrView& attrs, const char* name) {
  const onnx::TensorProto* t = attrs.tensor(name);
  if (!t) return std::nullopt;
  return tensor_from_proto(*t);
}

std::vector<double> doubles_attr(const KernelContext& ctx, const char* floats, const char* tensor) {
  if (ctx.attrs().has(floats)) {
    const std::vector<float> v = ctx.attrs().get_floats(floats);
    return {v.begin(), v.end()};
  }
  if (const auto t = tensor_attr(ctx.attrs(), tensor))
    return misc::values_as<double>(ctx, *t, tensor);
  return {};
}

Labels read_labels(const KernelContext& ctx, const char* ints_name, const char* strings_name) {
  Labels l;
  const bool has_ints = ctx.attrs().has(ints_name), has_strings = ctx.attrs().has(strings_name);
  if (has_ints && has_strings)
    ctx.fail(std::string("only one of ") + ints_name + " and " + strings_name + " may be set");
  if (has_strings) {
    l.is_string = true;
    l.strings = ctx.attrs().get_strings(strings_name);
  } else if (has_ints) {
    l.ints = ctx.attrs().get_ints(ints_name);
  }
  return l;
}

void write_labels(KernelContext& ctx, std::size_t output, const Labels& labels,
                  const std::vector<int64_t>& index, const Shape& shape) {
  if (labels.is_string) {
    std::vector<std::string> out;
    for (int64_t i : index) out.push_back(labels.strings[static_cast<std::size_t>(i)]);
    ctx.set_output(output, Tensor::from_strings(shape, std::move(out)));
    return;
  }
  std::vector<int64_t> out;
  for (int64_t i : index)
    out.push_back(labels.ints.empty() ? i : labels.ints[static_cast<std::size_t>(i)]);
  ctx.set_output(output, Tensor::from_vector<int64_t>(shape, out));
}

Dim batch_dim(const InferContext& ctx, std::size_t i) {
  const Dims* x = misc::input_dims(ctx, i);
  if (!x) return Dim();
  if (x->size() == 1) return Dim::value(1);
  if (x->size() == 2) return (*x)[0];
  infer_fail("X must have shape [N, C] or [C]");
}

int32_t label_elem(const InferContext& ctx, const char* strings_name) {
  return static_cast<int32_t>(ctx.attrs().has(strings_name) ? DataType::string : DataType::int64);
}

// ---- tree ensembles -----------------------------------------------------------------------------

namespace {

Branch branch_from_name(const KernelContext& ctx, const std::string& m) {
  if (m == "LEAF") return Branch::leaf;
  const int i = name_index(kBranchNames, m);
  if (i < 0) ctx.fail("unknown node mode " + m);
  return static_cast<Branch>(i);
}

bool goes_true(const TreeNode& n, double x) {
  if (std::isnan(x) && n.missing_true) return true;
  switch (n.mode) {
    case Branch::leq:
      return x <= n.split;
    case Branch::lt:
      return x < n.split;
    case Branch::gte:
      return x >= n.split;
    case Branch::gt:
      return x > n.split;
    case Branch::eq:
      return x == n.split;
    case Branch::neq:
      return x != n.split;
    case Branch::member:
      return std::find(n.members.begin(), n.members.end(), x) != n.members.end();
    case Branch::leaf:
      return false;
  }
  return false;
}

// The leaf a row reaches from node `at`.
int64_t find_leaf(const KernelContext& ctx, const Ensemble& e, int64_t at, const double* row,
                  int64_t cols) {
  for (std::size_t steps = 0; steps <= e.nodes.size(); ++steps) {
    const TreeNode& n = e.nodes[static_cast<std::size_t>(at)];
    if (n.mode == Branch::leaf) return at;
    if (n.feature < 0 || n.feature >= cols)
      ctx.fail("a node tests feature " + std::to_string(n.feature) + ", X has " +
               std::to_string(cols));
    const bool t = goes_true(n, row[n.feature]);
    const int64_t next = t ? n.true_child : n.false_child;
    if (t ? n.true_leaf : n.false_leaf) return next;
    if (next < 0 || next >= static_cast<int64_t>(e.nodes.size()))
      ctx.fail("a node's child is out of range");
    at = next;
  }
  ctx.fail("the trees contain a cycle");
}

std::vector<int64_t> ints_or_empty(const KernelContext& ctx, const std::string& name) {
  return ctx.attrs().get_ints(name, {});
}

}  // namespace

Ensemble ensemble_v5(const KernelContext& ctx) {
  Ensemble e;
  const std::vector<int64_t> features = ctx.attrs().get_ints("nodes_featureids");
  const std::size_t n = features.size();
  const auto modes_t = tensor_attr(ctx.attrs(), "nodes_modes");
  const auto splits_t = tensor_attr(ctx.attrs(), "nodes_splits");
  if (!modes_t || !splits_t) ctx.fail("nodes_modes and nodes_splits are required");
  const std::vector<int64_t> modes = misc::values_as<int64_t>(ctx, *modes_t, "nodes_modes");
  const std::vector<double> splits = misc::values_as<double>(ctx, *splits_t, "nodes_splits");
  const std::vector<int64_t> tids = ctx.attrs().get_ints("nodes_truenodeids");
  const std::vector<int64_t> fids = ctx.attrs().get_ints("nodes_falsenodeids");
  const std::vector<int64_t> tleaf = ctx.attrs().get_ints("nodes_trueleafs");
  const std::vector<int64_t> fleaf = ctx.attrs().get_ints("nodes_falseleafs");
  const std::vector<int64_t> missing = ints_or_empty(ctx, "nodes_missing_value_tracks_true");
  if (modes.size() != n || splits.size() != n || tids.size() != n || fids.size() != n ||
      tleaf.size() != n || fleaf.size() != n || (!missing.empty() && missing.size() != n))
    ctx.fail("the nodes_* attributes must all have " + std::to_string(n) + " entries");
  std::vector<double> members;
  if (const auto m = tensor_attr(ctx.attrs(), "membership_values"))
    members = misc::values_as<double>(ctx, *m, "membership_values");
  std::size_t member_at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    TreeNode t;
    if (modes[i] < 0 || modes[i] > 6)
      ctx.fail("node mode " + std::to_string(modes[i]) + " is not 0 to 6");
    t.mode = static_cast<Branch>(modes[i]);
    t.feature = features[i];
    t.split = splits[i];
    t.missing_true = !missing.empty() && missing[i] != 0;
    t.true_child = tids[i], t.false_child = fids[i];
    t.true_leaf = tleaf[i] != 0, t.false_leaf = fleaf[i] != 0;
    if (t.mode == Branch::member) {
      // This node's set: the membership values up to the next NaN.
      while (member_at < members.size() && !std::isnan(members[member_at]))
        t.members.push_back(members[member_at++]);
      ++member_at;
    }
    e.nodes.push_back(std::move(t));
  }
  e.roots = ctx.attrs().get_ints("tree_roots");
  const std::vector<int64_t> targets = ctx.attrs().get_ints("leaf_targetids");
  const auto weights_t = tensor_attr(ctx.attrs(), "leaf_weights");
  if (!weights_t) ctx.fail("leaf_weights is required");
  const std::vector<double> weights = misc::values_as<double>(ctx, *weights_t, "leaf_weights");
  if (weights.size() != targets.size())
    ctx.fail("leaf_targetids and leaf_weights differ in length");
  e.targets = ctx.attrs().get_int("n_targets", 1);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i] < 0 || targets[i] >= e.targets)
      ctx.fail("leaf target " + std::to_string(targets[i]) + " is outside [0, n_targets)");
    e.leaves.push_back({LeafWeight{targets[i], weights[i]}});
  }
  for (const TreeNode& t : e.nodes)
    if ((t.true_leaf &&
         (t.true_child < 0 || t.true_child >= static_cast<int64_t>(e.leaves.size()))) ||
        (t.false_leaf &&
         (t.false_child < 0 || t.false_child >= static_cast<int64_t>(e.leaves.size()))))
      ctx.fail("a node refers to a leaf out of range");
  e.aggregate = static_cast<int>(ctx.attrs().get_int("aggregate_function", 1));
  return e;
}

Ensemble ensemble_legacy(const KernelContext& ctx, const char* prefix) {
  Ensemble e;
  const std::vector<int64_t> trees = ctx.attrs().get_ints("nodes_treeids", {});
  const std::vector<int64_t> ids = ctx.attrs().get_ints("nodes_nodeids", {});
  const std::size_t n = trees.size();
  const std::vector<int64_t> features = ctx.attrs().get_ints("nodes_featureids", {});
  const std::vector<std::string> modes = ctx.attrs().get_strings("nodes_modes", {});
  const std::vector<double> values = doubles_attr(ctx, "nodes_values", "nodes_values_as_tensor");
  const std::vector<int64_t> tids = ctx.attrs().get_ints("nodes_truenodeids", {});
  const std::vector<int64_t> fids = ctx.attrs().get_ints("nodes_falsenodeids", {});
  const std::vector<int64_t> missing = ctx.attrs().get_ints("nodes_missing_value_tracks_true", {});
  if (ids.size() != n || features.size() != n || modes.size() != n || tids.size() != n ||
      fids.size() != n || (!values.empty() && values.size() != n) ||
      (!missing.empty() && missing.size() != n))
    ctx.fail("the nodes_* attributes must all have " + std::to_string(n) + " entries");
  std::map<std::pair<int64_t, int64_t>, int64_t> index;
  for (std::size_t i = 0; i < n; ++i) index[{trees[i], ids[i]}] = static_cast<int64_t>(i);
  auto find = [&](int64_t tree, int64_t id) {
    const auto it = index.find({tree, id});
    if (it == index.end())
      ctx.fail("tree " + std::to_string(tree) + " has no node " + std::to_string(id));
    return it->second;
  };
  std::map<int64_t, std::vector<char>> referenced;
  for (std::size_t i = 0; i < n; ++i) {
    TreeNode t;
    t.mode = branch_from_name(ctx, modes[i]);
    t.feature = features[i];
    t.split = values.empty() ? 0 : values[i];
    t.missing_true = !missing.empty() && missing[i] != 0;
    if (t.mode != Branch::leaf) {
      t.true_child = find(trees[i], tids[i]);
      t.false_child = find(trees[i], fids[i]);
    }
    e.nodes.push_back(t);
  }
  // Each tree's root: its node no other node of the tree points to (the first one if several).
  std::vector<char> is_child(n, 0);
  for (const TreeNode& t : e.nodes)
    if (t.mode != Branch::leaf)
      is_child[static_cast<std::size_t>(t.true_child)] =
          is_child[static_cast<std::size_t>(t.false_child)] = 1;
  std::vector<int64_t> seen;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_child[i] && std::find(seen.begin(), seen.end(), trees[i]) == seen.end()) {
      seen.push_back(trees[i]);
      e.roots.push_back(static_cast<int64_t>(i));
    }
  const std::string p = prefix;
  const std::vector<int64_t> ltrees = ctx.attrs().get_ints(p + "_treeids", {});
  const std::vector<int64_t> lnodes = ctx.attrs().get_ints(p + "_nodeids", {});
  const std::vector<int64_t> lids = ctx.attrs().get_ints(p + "_ids", {});
  const std::vector<double> lweights =
      doubles_attr(ctx, (p + "_weights").c_str(), (p + "_weights_as_tensor").c_str());
  if (lnodes.size() != ltrees.size() || lids.size() != ltrees.size() ||
      lweights.size() != ltrees.size())
    ctx.fail("the " + p + "_* attributes must all have the same length");
  e.leaves.resize(n);
  int64_t max_target = -1;
  for (std::size_t i = 0; i < ltrees.size(); ++i) {
    const int64_t at = find(ltrees[i], lnodes[i]);
    e.leaves[static_cast<std::size_t>(at)].push_back({lids[i], lweights[i]});
    max_target = std::max(max_target, lids[i]);
  }
  e.targets = std::max<int64_t>(max_target + 1, 1);
  e.base = doubles_attr(ctx, "base_values", "base_values_as_tensor");
  return e;
}

std::vector<double> evaluate(const KernelContext& ctx, const Ensemble& e, const Features& x,
                             std::vector<char>* touched) {
  const int64_t t = e.targets;
  std::vector<double> out(static_cast<std::size_t>(x.rows * t));
  std::vector<char> hit(out.size(), 0);
  for (const int64_t root : e.roots)
    if (root < 0 || root >= static_cast<int64_t>(e.nodes.size()))
      ctx.fail("a tree root is out of range");
  ctx.parallel_for(x.rows, 16, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      double* o = out.data() + r * t;
      char* h = hit.data() + r * t;
      if (e.aggregate == 2) std::fill(o, o + t, std::numeric_limits<double>::max());
      if (e.aggregate == 3) std::fill(o, o + t, std::numeric_limits<double>::lowest());
      for (const int64_t root : e.roots) {
        const int64_t leaf = find_leaf(ctx, e, root, x.row(r), x.cols);
        for (const LeafWeight& w : e.leaves[static_cast<std::size_t>(leaf)]) {
          if (w.target < 0 || w.target >= t) continue;
          double& v = o[w.target];
          if (e.aggregate == 2)
            v = std::min(v, w.weight);
          else if (e.aggregate == 3)
            v = std::max(v, w.weight);
          else
            v += w.weight;
          h[w.target] = 1;
        }
      }
      if (e.aggregate == 0 && !e.roots.empty())
        for (int64_t k = 0; k < t; ++k) o[k] /= static_cast<double>(e.roots.size());
    }
  });
  if (touched) *touched = std::move(hit);
  return out;
}

}  // namespace onnxtool::ops::ml
