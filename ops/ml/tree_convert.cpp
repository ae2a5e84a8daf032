// SPDX-License-Identifier: Apache-2.0
#include "ops/ml/tree_convert.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/convert/adapter.h"
#include "core/infer/type.h"
#include "core/types/dtype.h"
#include "core/types/tensor.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"
#include "ops/ml/ml_common.h"

namespace onnxtool::ops::ml {

namespace {

// The element types a step must know: the input's (and so the new operator's T).
constexpr int kFloat = static_cast<int>(DataType::float32);
constexpr int kDouble = static_cast<int>(DataType::float64);

// Operators inserted around TreeEnsemble (Cast, Add with numpy broadcasting, ArgMax, Gather,
// Sigmoid, Softmax) exist in this form from ai.onnx 7.
constexpr int64_t kMinDefaultOpset = 7;

std::vector<int64_t> ints_of(const AdapterContext& ctx, const char* name) {
  return ctx.ints_attribute(name).value_or(std::vector<int64_t>{});
}

std::vector<std::string> strings_of(const AdapterContext& ctx, const char* name) {
  const onnx::AttributeProto* a = ctx.attribute(name);
  if (!a) return {};
  return {a->strings().begin(), a->strings().end()};
}

// A float or double tensor attribute as doubles; empty when absent.
std::vector<double> tensor_doubles(const AdapterContext& ctx, const std::string& name) {
  const onnx::AttributeProto* a = ctx.attribute(name);
  if (!a || !a->has_t()) return {};
  const Tensor t = tensor_from_proto(a->t());
  if (t.dtype() == DataType::float64) return {t.data<double>(), t.data<double>() + t.numel()};
  if (t.dtype() == DataType::float32) return {t.data<float>(), t.data<float>() + t.numel()};
  ctx.refuse(name + " is neither float nor double");
}

// A list of floats, or its *_as_tensor twin (double precision), as doubles.
std::vector<double> doubles_of(const AdapterContext& ctx, const std::string& name) {
  if (auto f = ctx.floats_attribute(name)) return {f->begin(), f->end()};
  return tensor_doubles(ctx, name + "_as_tensor");
}

template <std::size_t N>
int64_t code_of(const AdapterContext& ctx, const std::string& value,
                const std::array<std::string_view, N>& names, const char* what) {
  const int i = name_index(names, value);
  if (i < 0) ctx.refuse(std::string(what) + " \"" + value + "\" is not one it knows");
  return i;
}

std::string name_of(std::span<const std::string_view> names, int64_t code) {
  return std::string(names[static_cast<std::size_t>(code)]);
}

constexpr int64_t kAverage = 0, kMin = 2, kMax = 3;
constexpr int64_t kPostNone = 0, kPostSoftmax = 1, kPostLogistic = 2;

struct Vote {
  int64_t target = 0;
  double weight = 0;
};

// The legacy trees: nodes_* lists in which LEAF nodes carry votes (prefix_* lists).
struct LegacyTrees {
  std::vector<int64_t> tree, feature, true_id, false_id, missing;
  std::vector<std::string> modes;
  std::vector<double> values;
  std::map<std::pair<int64_t, int64_t>, std::size_t> index;  // (tree, node id) -> position
  std::vector<std::vector<Vote>> votes;                      // by position (leaves only)
  std::vector<std::size_t> roots;                            // by tree, in order of appearance
  std::size_t max_votes = 0;
  bool leaf_without_vote = false;
  int64_t max_target = -1;
};

std::size_t find_node(const AdapterContext& ctx, const LegacyTrees& t, int64_t tree, int64_t id) {
  auto it = t.index.find({tree, id});
  if (it == t.index.end())
    ctx.refuse("tree " + std::to_string(tree) + " names node " + std::to_string(id) +
               ", which it does not have");
  return it->second;
}

LegacyTrees read_legacy(const AdapterContext& ctx, const std::string& prefix) {
  LegacyTrees t;
  t.tree = ints_of(ctx, "nodes_treeids");
  const std::vector<int64_t> ids = ints_of(ctx, "nodes_nodeids");
  t.feature = ints_of(ctx, "nodes_featureids");
  t.true_id = ints_of(ctx, "nodes_truenodeids");
  t.false_id = ints_of(ctx, "nodes_falsenodeids");
  t.missing = ints_of(ctx, "nodes_missing_value_tracks_true");
  t.modes = strings_of(ctx, "nodes_modes");
  t.values = doubles_of(ctx, "nodes_values");
  const std::size_t n = t.tree.size();
  if (n == 0) ctx.refuse("the ensemble has no nodes");
  if (ids.size() != n || t.feature.size() != n || t.true_id.size() != n || t.false_id.size() != n ||
      t.modes.size() != n || (!t.values.empty() && t.values.size() != n) ||
      (!t.missing.empty() && t.missing.size() != n))
    ctx.refuse("the nodes_* attributes do not all have " + std::to_string(n) + " entries");
  for (std::size_t i = 0; i < n; ++i)
    if (!t.index.emplace(std::make_pair(t.tree[i], ids[i]), i).second)
      ctx.refuse("tree " + std::to_string(t.tree[i]) + " has node " + std::to_string(ids[i]) +
                 " twice");
  // Votes, on the leaves they name.
  const std::vector<int64_t> vtree = ints_of(ctx, (prefix + "_treeids").c_str());
  const std::vector<int64_t> vnode = ints_of(ctx, (prefix + "_nodeids").c_str());
  const std::vector<int64_t> vid = ints_of(ctx, (prefix + "_ids").c_str());
  const std::vector<double> vweight = doubles_of(ctx, prefix + "_weights");
  if (vnode.size() != vtree.size() || vid.size() != vtree.size() || vweight.size() != vtree.size())
    ctx.refuse("the " + prefix + "_* attributes do not all have the same length");
  t.votes.resize(n);
  for (std::size_t i = 0; i < vtree.size(); ++i) {
    t.votes[find_node(ctx, t, vtree[i], vnode[i])].push_back({vid[i], vweight[i]});
    t.max_target = std::max(t.max_target, vid[i]);
  }
  // Roots: per tree, its first node no other node of the tree points to (as the kernel reads it).
  std::vector<char> is_child(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (t.modes[i] == "LEAF") {
      t.max_votes = std::max(t.max_votes, t.votes[i].size());
      t.leaf_without_vote = t.leaf_without_vote || t.votes[i].empty();
      continue;
    }
    is_child[find_node(ctx, t, t.tree[i], t.true_id[i])] = 1;
    is_child[find_node(ctx, t, t.tree[i], t.false_id[i])] = 1;
  }
  std::set<int64_t> seen;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_child[i] && seen.insert(t.tree[i]).second) t.roots.push_back(i);
  return t;
}

// TreeEnsemble-5's attributes.
struct Ensemble5 {
  std::vector<int64_t> roots, features, true_ids, false_ids, true_leafs, false_leafs, missing;
  std::vector<uint8_t> modes;
  std::vector<double> splits;
  std::vector<int64_t> leaf_targets;
  std::vector<double> leaf_weights;
};

// One copy of every tree, whose leaves hold vote `copy` of each legacy leaf (weight 0 where a
// leaf has fewer), the weights scaled by `scale`.
void add_copy(const AdapterContext& ctx, const LegacyTrees& t, std::size_t copy, double scale,
              Ensemble5& e) {
  const auto leaf_entry = [&](std::size_t legacy) {
    const auto& v = t.votes[legacy];
    e.leaf_targets.push_back(copy < v.size() ? v[copy].target : 0);
    e.leaf_weights.push_back(copy < v.size() ? v[copy].weight * scale : 0.0);
    return static_cast<int64_t>(e.leaf_targets.size() - 1);
  };
  const auto add_interior = [&](uint8_t mode, int64_t feature, double split, bool missing) {
    e.modes.push_back(mode);
    e.features.push_back(feature);
    e.splits.push_back(split);
    e.missing.push_back(missing ? 1 : 0);
    e.true_ids.push_back(0), e.false_ids.push_back(0);
    e.true_leafs.push_back(0), e.false_leafs.push_back(0);
    return e.modes.size() - 1;
  };
  for (const std::size_t root : t.roots) {
    if (t.modes[root] == "LEAF") {
      // A one-leaf tree: an interior node whose branches both reach the leaf.
      const std::size_t at = add_interior(0, 0, 0, false);
      const int64_t leaf = leaf_entry(root);
      e.true_ids[at] = e.false_ids[at] = leaf;
      e.true_leafs[at] = e.false_leafs[at] = 1;
      e.roots.push_back(static_cast<int64_t>(at));
      continue;
    }
    std::map<std::size_t, std::size_t> placed;  // legacy position -> new interior position
    std::vector<std::size_t> stack = {root};
    placed[root] =
        add_interior(static_cast<uint8_t>(code_of(ctx, t.modes[root], kBranchNames, "node mode")),
                     t.feature[root], t.values.empty() ? 0 : t.values[root],
                     !t.missing.empty() && t.missing[root] != 0);
    e.roots.push_back(static_cast<int64_t>(placed[root]));
    while (!stack.empty()) {
      const std::size_t legacy = stack.back();
      stack.pop_back();
      const std::size_t at = placed[legacy];
      for (const bool branch : {true, false}) {
        const std::size_t child =
            find_node(ctx, t, t.tree[legacy], branch ? t.true_id[legacy] : t.false_id[legacy]);
        int64_t target;
        bool is_leaf = t.modes[child] == "LEAF";
        if (is_leaf) {
          target = leaf_entry(child);
        } else {
          if (placed.count(child))
            ctx.refuse("tree " + std::to_string(t.tree[legacy]) +
                       " is not a tree (a node is reached twice)");
          placed[child] = add_interior(
              static_cast<uint8_t>(code_of(ctx, t.modes[child], kBranchNames, "node mode")),
              t.feature[child], t.values.empty() ? 0 : t.values[child],
              !t.missing.empty() && t.missing[child] != 0);
          target = static_cast<int64_t>(placed[child]);
          stack.push_back(child);
        }
        (branch ? e.true_ids : e.false_ids)[at] = target;
        (branch ? e.true_leafs : e.false_leafs)[at] = is_leaf ? 1 : 0;
      }
    }
  }
}

// A tensor of the ensemble's T (float or double) from doubles; a value float cannot hold is an
// approximation.
Tensor real_tensor(AdapterContext& ctx, int elem, const std::vector<double>& v, const char* what) {
  const Shape shape = {static_cast<int64_t>(v.size())};
  if (elem == kDouble) return Tensor::from_vector<double>(shape, v);
  std::vector<float> f(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); ++i)
    if (static_cast<double>(f[i]) != v[i] && v[i] == v[i]) {
      ctx.approximate(std::string(what) + " given in double precision are rounded to float");
      break;
    }
  return Tensor::from_vector<float>(shape, f);
}

const char* const kLegacyAttributes[] = {"aggregate_function",
                                         "base_values",
                                         "base_values_as_tensor",
                                         "n_targets",
                                         "nodes_falsenodeids",
                                         "nodes_featureids",
                                         "nodes_hitrates",
                                         "nodes_hitrates_as_tensor",
                                         "nodes_missing_value_tracks_true",
                                         "nodes_modes",
                                         "nodes_nodeids",
                                         "nodes_treeids",
                                         "nodes_truenodeids",
                                         "nodes_values",
                                         "nodes_values_as_tensor",
                                         "post_transform",
                                         "target_ids",
                                         "target_nodeids",
                                         "target_treeids",
                                         "target_weights",
                                         "target_weights_as_tensor",
                                         "class_ids",
                                         "class_nodeids",
                                         "class_treeids",
                                         "class_weights",
                                         "class_weights_as_tensor",
                                         "classlabels_int64s",
                                         "classlabels_strings"};

void write_ensemble(AdapterContext& ctx, const Ensemble5& e, int elem, int64_t targets,
                    int64_t aggregate, int64_t post) {
  for (const char* name : kLegacyAttributes) ctx.remove_attribute(name);
  ctx.set_op_type("TreeEnsemble");
  ctx.set_attribute("aggregate_function", aggregate);
  ctx.set_attribute("post_transform", post);
  ctx.set_attribute("n_targets", targets);
  ctx.set_attribute("tree_roots", e.roots);
  ctx.set_attribute("nodes_featureids", e.features);
  ctx.set_attribute("nodes_truenodeids", e.true_ids);
  ctx.set_attribute("nodes_falsenodeids", e.false_ids);
  ctx.set_attribute("nodes_trueleafs", e.true_leafs);
  ctx.set_attribute("nodes_falseleafs", e.false_leafs);
  if (std::any_of(e.missing.begin(), e.missing.end(), [](int64_t m) { return m != 0; }))
    ctx.set_attribute("nodes_missing_value_tracks_true", e.missing);
  ctx.set_attribute("nodes_modes",
                    Tensor::from_vector<uint8_t>({static_cast<int64_t>(e.modes.size())}, e.modes));
  ctx.set_attribute("nodes_splits", real_tensor(ctx, elem, e.splits, "thresholds"));
  ctx.set_attribute("leaf_targetids", e.leaf_targets);
  ctx.set_attribute("leaf_weights", real_tensor(ctx, elem, e.leaf_weights, "weights"));
}

// The element type TreeEnsemble runs in: the input's when float or double; integers are read as
// double (as the legacy operators read them), through a Cast.
int ensemble_type(AdapterContext& ctx) {
  const Type* in = ctx.input_type(0);
  const int elem = in && in->is_tensor() ? in->elem : 0;
  if (elem == kFloat || elem == kDouble) return elem;
  if (elem == static_cast<int>(DataType::int64) || elem == static_cast<int>(DataType::int32))
    return kDouble;
  if (elem == 0) ctx.refuse("the input's element type is not known (TreeEnsemble's T follows it)");
  ctx.refuse("TreeEnsemble takes no " + type_name_or_number(elem) + " input");
}

// The ai.onnx opset released with each ai.onnx.ml opset (onnx 1.2, 1.5, 1.11, 1.15, 1.16): what a
// model that imports only ai.onnx.ml is given when an adapter adds ai.onnx nodes to it.
int64_t default_opset_beside_ml(int64_t ml) {
  static const int64_t paired[] = {7, 7, 10, 16, 20, 21};
  return paired[std::clamp<int64_t>(ml, 0, 5)];
}

void require_default_opset(AdapterContext& ctx, const std::string& why) {
  const int64_t v = ctx.import_opset("", default_opset_beside_ml(ctx.to_opset()));
  if (v < kMinDefaultOpset)
    ctx.refuse(why + " needs ai.onnx " + std::to_string(kMinDefaultOpset) +
               " or later; the model imports " + std::to_string(v));
}

onnx::NodeProto make_node(const char* op, std::vector<std::string> inputs, std::string output) {
  onnx::NodeProto n;
  n.set_op_type(op);
  for (auto& i : inputs) n.add_input(std::move(i));
  n.add_output(std::move(output));
  return n;
}

void set_int(onnx::NodeProto& n, const char* name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

// Integer features are read as doubles through a Cast before the node.
void cast_input(AdapterContext& ctx, int elem) {
  const Type* in = ctx.input_type(0);
  if (!in || in->elem == elem) return;
  const std::string cast = ctx.fresh_name(ctx.input(0) + "_as_double");
  onnx::NodeProto n = make_node("Cast", {ctx.input(0)}, cast);
  set_int(n, "to", elem);
  ctx.insert_before(std::move(n));
  ctx.set_input(0, cast);
}

// Nodes to put after TreeEnsemble, in order; each reads the previous one's output.
using Chain = std::vector<onnx::NodeProto>;

// The post-transform as an operator on [N, targets] scores; false when there is none.
bool add_post(AdapterContext& ctx, int64_t post, const std::string& in, const std::string& out,
              Chain& chain) {
  if (post == kPostNone) return false;
  if (post == kPostLogistic) {
    chain.push_back(make_node("Sigmoid", {in}, out));
    return true;
  }
  if (post == kPostSoftmax) {
    onnx::NodeProto n = make_node("Softmax", {in}, out);
    set_int(n, "axis", 1);
    chain.push_back(std::move(n));
    return true;
  }
  ctx.refuse("post_transform " + name_of(kPostNames, post) +
             " after base_values has no operator to express it");
}

void insert_chain(AdapterContext& ctx, Chain& chain) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) ctx.insert_after(std::move(*it));
}

Ensemble5 translate(AdapterContext& ctx, const LegacyTrees& t, int64_t aggregate) {
  const bool min_or_max = aggregate == kMin || aggregate == kMax;
  if (min_or_max && (t.max_votes > 1 || t.leaf_without_vote || t.max_target > 0))
    ctx.refuse(
        "with MIN or MAX, leaves that vote for several targets (or none) have no TreeEnsemble "
        "form: its leaves hold one weight each");
  // Leaves with several votes: one copy of the trees per vote (SUM and AVERAGE add them up; an
  // average over the copies is scaled back).
  const std::size_t copies = std::max<std::size_t>(t.max_votes, 1);
  const double scale = aggregate == kAverage ? static_cast<double>(copies) : 1.0;
  Ensemble5 e;
  for (std::size_t c = 0; c < copies; ++c) add_copy(ctx, t, c, scale, e);
  return e;
}

// TreeEnsemble-5's modes, uint8.
std::vector<uint8_t> tensor_bytes(const AdapterContext& ctx, const char* name) {
  const onnx::AttributeProto* a = ctx.attribute(name);
  if (!a || !a->has_t()) return {};
  const Tensor t = tensor_from_proto(a->t());
  if (t.dtype() != DataType::uint8) ctx.refuse(std::string(name) + " is not uint8");
  return {t.data<uint8_t>(), t.data<uint8_t>() + t.numel()};
}

constexpr uint8_t kMember = 6;

// The legacy encoding being written: one entry per node, votes on the leaves.
struct LegacyOut {
  std::vector<int64_t> tree, id, feature, true_id, false_id, missing;
  std::vector<std::string> modes;
  std::vector<double> values;
  std::vector<int64_t> vtree, vnode, vtarget;
  std::vector<double> vweight;

  int64_t add(int64_t tree_id, int64_t node_id, const std::string& mode, int64_t feat, double value,
              bool miss) {
    tree.push_back(tree_id), id.push_back(node_id), modes.push_back(mode);
    feature.push_back(feat), values.push_back(value), missing.push_back(miss ? 1 : 0);
    true_id.push_back(0), false_id.push_back(0);
    return static_cast<int64_t>(tree.size() - 1);
  }
};

}  // namespace

void tree_ensemble_to_regressor(AdapterContext& ctx) {
  const Type* in = ctx.input_type(0);
  const int elem = in && in->is_tensor() ? in->elem : 0;
  if (elem != kFloat && elem != kDouble)
    ctx.refuse(elem == 0
                   ? "the input's element type is not known"
                   : "TreeEnsembleRegressor takes no " + type_name_or_number(elem) + " input");
  const std::vector<int64_t> roots = ints_of(ctx, "tree_roots");
  const std::vector<int64_t> features = ints_of(ctx, "nodes_featureids");
  const std::vector<int64_t> tids = ints_of(ctx, "nodes_truenodeids");
  const std::vector<int64_t> fids = ints_of(ctx, "nodes_falsenodeids");
  const std::vector<int64_t> tleaf = ints_of(ctx, "nodes_trueleafs");
  const std::vector<int64_t> fleaf = ints_of(ctx, "nodes_falseleafs");
  const std::vector<int64_t> missing = ints_of(ctx, "nodes_missing_value_tracks_true");
  const std::vector<uint8_t> modes = tensor_bytes(ctx, "nodes_modes");
  const std::vector<double> splits = tensor_doubles(ctx, "nodes_splits");
  const std::vector<double> members = tensor_doubles(ctx, "membership_values");
  const std::vector<int64_t> leaf_targets = ints_of(ctx, "leaf_targetids");
  const std::vector<double> leaf_weights = tensor_doubles(ctx, "leaf_weights");
  const std::size_t n = features.size();
  if (tids.size() != n || fids.size() != n || tleaf.size() != n || fleaf.size() != n ||
      modes.size() != n || splits.size() != n || (!missing.empty() && missing.size() != n))
    ctx.refuse("the nodes_* attributes do not all have " + std::to_string(n) + " entries");
  if (leaf_targets.size() != leaf_weights.size())
    ctx.refuse("leaf_targetids and leaf_weights differ in length");
  // The member sets, in the order of the BRANCH_MEMBER nodes, NaN-delimited.
  std::vector<std::vector<double>> sets(1);
  for (double m : members) {
    if (m != m)
      sets.emplace_back();
    else
      sets.back().push_back(m);
  }
  std::map<std::size_t, std::size_t> set_of;
  for (std::size_t i = 0, k = 0; i < n; ++i)
    if (modes[i] == kMember) set_of[i] = k++;

  LegacyOut out;
  for (std::size_t tree = 0; tree < roots.size(); ++tree) {
    const auto t = static_cast<int64_t>(tree);
    int64_t next_id = 0;
    // (position in out to fill, which branch, the child: v5 node or leaf)
    struct Pending {
      std::vector<int64_t> parents;  // every branch that reaches the child
      bool branch;
      int64_t child;
      bool leaf;
    };
    std::vector<Pending> todo;
    std::set<int64_t> seen;
    const auto emit = [&](int64_t v5, bool leaf) -> int64_t {
      if (leaf) {
        if (v5 < 0 || v5 >= static_cast<int64_t>(leaf_targets.size()))
          ctx.refuse("a branch names leaf " + std::to_string(v5) + ", which does not exist");
        const int64_t at = out.add(t, next_id++, "LEAF", 0, 0, false);
        out.vtree.push_back(t), out.vnode.push_back(out.id[static_cast<std::size_t>(at)]);
        out.vtarget.push_back(leaf_targets[static_cast<std::size_t>(v5)]);
        out.vweight.push_back(leaf_weights[static_cast<std::size_t>(v5)]);
        return at;
      }
      if (v5 < 0 || v5 >= static_cast<int64_t>(n))
        ctx.refuse("a branch names node " + std::to_string(v5) + ", which does not exist");
      if (!seen.insert(v5).second) ctx.refuse("tree " + std::to_string(tree) + " is not a tree");
      const auto i = static_cast<std::size_t>(v5);
      const bool miss = !missing.empty() && missing[i] != 0;
      if (modes[i] < kMember) {
        const int64_t at =
            out.add(t, next_id++, name_of(kBranchNames, modes[i]), features[i], splits[i], miss);
        todo.push_back({{at}, true, tids[i], tleaf[i] != 0});
        todo.push_back({{at}, false, fids[i], fleaf[i] != 0});
        return at;
      }
      if (modes[i] > kMember) ctx.refuse("node mode " + std::to_string(modes[i]) + " is unknown");
      // x in {a, b, ...}: x == a, else x == b, ..., the last one's false branch the node's.
      const std::vector<double>& set = sets.at(set_of.count(i) ? set_of[i] : 0);
      if (set.empty()) ctx.refuse("a BRANCH_MEMBER node has an empty set");
      std::vector<int64_t> chain;
      for (double member : set) {
        const int64_t at = out.add(t, next_id++, "BRANCH_EQ", features[i], member, miss);
        if (!chain.empty())
          out.false_id[static_cast<std::size_t>(chain.back())] =
              out.id[static_cast<std::size_t>(at)];
        chain.push_back(at);
      }
      todo.push_back({chain, true, tids[i], tleaf[i] != 0});
      todo.push_back({{chain.back()}, false, fids[i], fleaf[i] != 0});
      return chain.front();
    };
    if (sets.size() < set_of.size()) ctx.refuse("membership_values has fewer sets than nodes");
    (void)emit(roots[tree], false);
    while (!todo.empty()) {
      const Pending p = todo.back();
      todo.pop_back();
      const int64_t child = emit(p.child, p.leaf);
      for (const int64_t parent : p.parents)
        (p.branch ? out.true_id : out.false_id)[static_cast<std::size_t>(parent)] =
            out.id[static_cast<std::size_t>(child)];
    }
  }
  const int64_t aggregate = ctx.int_attribute("aggregate_function").value_or(1);
  const int64_t post = ctx.int_attribute("post_transform").value_or(0);
  if (aggregate < 0 || aggregate > 3) ctx.refuse("aggregate_function is not 0 to 3");
  if (post < 0 || post > 4) ctx.refuse("post_transform is not 0 to 4");
  const std::optional<int64_t> targets = ctx.int_attribute("n_targets");
  for (const char* name :
       {"aggregate_function", "post_transform", "tree_roots", "nodes_featureids",
        "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs",
        "nodes_missing_value_tracks_true", "nodes_modes", "nodes_splits", "nodes_hitrates",
        "membership_values", "leaf_targetids", "leaf_weights"})
    ctx.remove_attribute(name);
  ctx.set_op_type("TreeEnsembleRegressor");
  ctx.set_attribute("aggregate_function", name_of(kAggregateNames, aggregate));
  ctx.set_attribute("post_transform", name_of(kPostNames, post));
  if (targets) ctx.set_attribute("n_targets", *targets);
  ctx.set_attribute("nodes_treeids", out.tree);
  ctx.set_attribute("nodes_nodeids", out.id);
  ctx.set_attribute("nodes_featureids", out.feature);
  ctx.set_attribute("nodes_modes", out.modes);
  ctx.set_attribute("nodes_truenodeids", out.true_id);
  ctx.set_attribute("nodes_falsenodeids", out.false_id);
  if (!missing.empty()) ctx.set_attribute("nodes_missing_value_tracks_true", out.missing);
  ctx.set_attribute("target_treeids", out.vtree);
  ctx.set_attribute("target_nodeids", out.vnode);
  ctx.set_attribute("target_ids", out.vtarget);
  // Float lists where the ensemble is float; the *_as_tensor forms keep a double one exact.
  const Shape nodes_shape = {static_cast<int64_t>(out.values.size())};
  const Shape votes_shape = {static_cast<int64_t>(out.vweight.size())};
  if (elem == kFloat) {
    ctx.set_attribute("nodes_values", std::vector<float>(out.values.begin(), out.values.end()));
    ctx.set_attribute("target_weights", std::vector<float>(out.vweight.begin(), out.vweight.end()));
  } else {
    ctx.set_attribute("nodes_values_as_tensor",
                      Tensor::from_vector<double>(nodes_shape, out.values));
    ctx.set_attribute("target_weights_as_tensor",
                      Tensor::from_vector<double>(votes_shape, out.vweight));
  }
  ctx.describe("TreeEnsemble -> TreeEnsembleRegressor (" + std::to_string(roots.size()) +
               " trees, " + std::to_string(out.tree.size()) + " nodes)");
  if (elem == kFloat) return;
  // The legacy operator's scores are float: back to double after it, rounded.
  ctx.approximate("TreeEnsembleRegressor's scores are float: the double scores are rounded");
  require_default_opset(ctx, "the Cast back to double");
  const std::string y = ctx.output(0);
  const std::string scores = ctx.fresh_name(y + "_float");
  ctx.rename_output(0, scores);
  onnx::NodeProto cast = make_node("Cast", {scores}, y);
  set_int(cast, "to", kDouble);
  ctx.insert_after(std::move(cast));
}

void regressor_to_tree_ensemble(AdapterContext& ctx) {
  const LegacyTrees t = read_legacy(ctx, "target");
  const int64_t aggregate = code_of(ctx, ctx.string_attribute("aggregate_function").value_or("SUM"),
                                    kAggregateNames, "aggregate");
  const int64_t post = code_of(ctx, ctx.string_attribute("post_transform").value_or("NONE"),
                               kPostNames, "transform");
  const int64_t targets = std::max(ctx.int_attribute("n_targets").value_or(1), t.max_target + 1);
  std::vector<double> base = doubles_of(ctx, "base_values");
  if (!base.empty() && static_cast<int64_t>(base.size()) != targets)
    ctx.refuse("base_values does not have one value per target");
  const bool has_base = std::any_of(base.begin(), base.end(), [](double b) { return b != 0; });
  const int elem = ensemble_type(ctx);
  const Ensemble5 e = translate(ctx, t, aggregate);
  const bool cast_out = elem != kFloat;
  if (has_base || cast_out || ctx.input_type(0)->elem != elem)
    require_default_opset(ctx, "the Cast or Add put beside TreeEnsemble");

  cast_input(ctx, elem);
  Chain chain;
  const std::string y = ctx.output(0);
  std::string cur = ctx.fresh_name(y + "_scores");
  const bool chained = has_base || cast_out;
  if (has_base) {
    const std::string with_base = ctx.fresh_name(y + "_with_base");
    const std::string base_name =
        ctx.add_constant(ctx.name_base() + "_base_values", real_tensor(ctx, elem, base, "base"));
    chain.push_back(make_node("Add", {cur, base_name}, with_base));
    cur = with_base;
    const std::string posted = ctx.fresh_name(y + "_transformed");
    if (add_post(ctx, post, cur, posted, chain)) cur = posted;
  }
  if (cast_out) {
    onnx::NodeProto n = make_node("Cast", {cur}, y);
    set_int(n, "to", kFloat);
    chain.push_back(std::move(n));
  } else if (chained) {
    chain.back().set_output(0, y);
  }
  write_ensemble(ctx, e, elem, targets, aggregate, has_base ? kPostNone : post);
  if (chained) {
    ctx.rename_output(0, chain.front().input(0));
    insert_chain(ctx, chain);
  }
  ctx.describe("TreeEnsembleRegressor -> TreeEnsemble (" + std::to_string(e.roots.size()) +
               " trees" + (has_base ? ", base_values as an Add" : "") +
               (cast_out ? ", scores cast to float" : "") + ")");
}

void classifier_to_tree_ensemble(AdapterContext& ctx) {
  const LegacyTrees t = read_legacy(ctx, "class");
  const std::vector<int64_t> int_labels = ints_of(ctx, "classlabels_int64s");
  const std::vector<std::string> string_labels = strings_of(ctx, "classlabels_strings");
  const bool strings = int_labels.empty();
  const auto classes = static_cast<int64_t>(strings ? string_labels.size() : int_labels.size());
  if (classes == 0) ctx.refuse("the classifier has no class labels");
  if (t.max_target >= classes) ctx.refuse("a class id is not below the number of labels");
  std::set<int64_t> weighted;
  for (const auto& votes : t.votes)
    for (const Vote& v : votes) weighted.insert(v.target);
  if (classes == 2 && weighted.size() == 1)
    ctx.refuse(
        "the binary form (one weighted class, the other's score derived from it) has no "
        "TreeEnsemble equivalent");
  const int64_t post = code_of(ctx, ctx.string_attribute("post_transform").value_or("NONE"),
                               kPostNames, "transform");
  std::vector<double> base = doubles_of(ctx, "base_values");
  if (static_cast<int64_t>(base.size()) > classes)
    ctx.refuse("base_values has more values than there are classes");
  const bool has_base = std::any_of(base.begin(), base.end(), [](double b) { return b != 0; });
  base.resize(static_cast<std::size_t>(classes), 0.0);
  const int elem = ensemble_type(ctx);
  require_default_opset(ctx, "the ArgMax and Gather that pick the label");
  const Ensemble5 e = translate(ctx, t, 1);
  const Tensor labels = strings ? Tensor::from_strings({classes}, string_labels)
                                : Tensor::from_vector<int64_t>({classes}, int_labels);

  cast_input(ctx, elem);
  const std::string y = ctx.output(0);
  const bool want_scores = ctx.num_outputs() > 1 && ctx.has_output(1) && ctx.output_used(1);
  const std::string z = want_scores ? ctx.output(1) : "";
  Chain chain;
  const std::string scores = ctx.fresh_name(ctx.name_base() + "_scores");
  std::string cur = scores;
  if (has_base) {
    const std::string with_base = ctx.fresh_name(ctx.name_base() + "_with_base");
    const std::string base_name =
        ctx.add_constant(ctx.name_base() + "_base_values", real_tensor(ctx, elem, base, "base"));
    chain.push_back(make_node("Add", {cur, base_name}, with_base));
    cur = with_base;
  }
  // The label: the class with the highest score (the first of equals), before the transform.
  const std::string best = ctx.fresh_name(ctx.name_base() + "_best");
  onnx::NodeProto argmax = make_node("ArgMax", {cur}, best);
  set_int(argmax, "axis", 1);
  set_int(argmax, "keepdims", 0);
  chain.push_back(std::move(argmax));
  const std::string label_name = ctx.add_constant(ctx.name_base() + "_labels", labels);
  chain.push_back(make_node("Gather", {label_name, best}, y));
  if (want_scores) {
    const std::string posted = ctx.fresh_name(ctx.name_base() + "_transformed");
    if (add_post(ctx, post, cur, elem == kFloat ? z : posted, chain))
      cur = elem == kFloat ? z : posted;
    if (elem != kFloat) {
      onnx::NodeProto n = make_node("Cast", {cur}, z);
      set_int(n, "to", kFloat);
      chain.push_back(std::move(n));
    } else if (cur != z) {
      chain.push_back(make_node("Identity", {cur}, z));
    }
  }
  write_ensemble(ctx, e, elem, classes, 1, kPostNone);
  if (ctx.num_outputs() > 1) {
    ctx.set_output(1, "");  // Z's readers now read what the chain makes
    ctx.truncate_outputs(1);
  }
  ctx.rename_output(0, scores);
  insert_chain(ctx, chain);
  ctx.describe("TreeEnsembleClassifier -> TreeEnsemble (" + std::to_string(e.roots.size()) +
               " trees) + ArgMax + Gather of the labels" +
               (has_base ? ", base_values as an Add" : ""));
}

}  // namespace onnxtool::ops::ml
