// SPDX-License-Identifier: Apache-2.0
#include "core/exec/set_compare.h"

#include <algorithm>
#include <map>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "core/ir/location.h"
#include "core/ir/order.h"
#include "core/types/element.h"
#include "core/types/float_formats.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

// Where a value sits in the run and what produced it.
struct Producer {
  int rank = 0;  // execution order
  std::string node, op;
  std::vector<std::string> inputs;
};

using Producers = std::unordered_map<std::string, Producer>;

// The main graph's inputs, then its node outputs by the order of the data.
Producers from_model(const onnx::ModelProto& m) {
  Producers out;
  const auto& nodes = m.graph().node();
  int rank = 0;
  for (const auto& in : m.graph().input()) out.emplace(in.name(), Producer{rank++, "", "", {}});
  for (int i : order_or_stored(nodes)) {
    const auto& n = nodes.Get(i);
    Producer p;
    p.node = node_location(kMainGraphPrefix, i, n);
    p.op = n.domain().empty() ? n.op_type() : n.domain() + "." + n.op_type();
    p.inputs.assign(n.input().begin(), n.input().end());
    for (const auto& o : n.output())
      if (!o.empty()) {
        p.rank = rank++;
        out.emplace(o, p);
      }
  }
  return out;
}

// What a set says of its values' order and nodes (a dump says both; others only their order).
Producers from_set(const ValueSet& s) {
  Producers out;
  int rank = 0;
  for (const auto& v : s.values) out.emplace(v.key(), Producer{rank++, v.node, v.op, v.inputs});
  return out;
}

bool is_real_float(DataType t) {
  return t == DataType::float16 || t == DataType::bfloat16 || t == DataType::float32 ||
         t == DataType::float64;
}

// A real floating tensor as float64: a float32 or float16 result meets a float64 reference
// (a run of the same model in double precision) element by element.
Tensor widened(const Tensor& t) {
  Tensor out(DataType::float64, t.shape());
  double* o = out.mutable_data<double>();
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
      for (int64_t i = 0; i < t.numel(); ++i) o[i] = to_float(t.data<T>()[i]);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      for (int64_t i = 0; i < t.numel(); ++i) o[i] = t.data<T>()[i];
    }
  });
  return out;
}

// The two as compared: real floating tensors of different widths both as float64.
std::pair<Value, Value> comparable(Value a, Value b) {
  if (a.is_tensor() && b.is_tensor() && a.tensor().dtype() != b.tensor().dtype() &&
      is_real_float(a.tensor().dtype()) && is_real_float(b.tensor().dtype()))
    return {Value(widened(a.tensor())), Value(widened(b.tensor()))};
  return {std::move(a), std::move(b)};
}

bool knows_nodes(const ValueSet& s) {
  return std::any_of(s.values.begin(), s.values.end(),
                     [](const SetValue& v) { return !v.node.empty(); });
}

}  // namespace

const ValueDiff* SetComparison::find(const std::string& key) const {
  for (const auto& v : values)
    if (v.key == key) return &v;
  return nullptr;
}

SetComparison compare_sets(const ValueSet& a, const ValueSet& b, const SetCompareOptions& o) {
  const Producers listed = knows_nodes(b) && !knows_nodes(a) ? from_set(b) : from_set(a);
  const Producers modelled = o.model ? from_model(*o.model) : Producers{};
  std::map<std::string, const SetValue*> in_b;
  for (const auto& v : b.values) in_b.emplace(v.key(), &v);
  // (model rank or past it, set rank) orders the common values.
  struct Pending {
    std::pair<int, int> rank;
    const SetValue *a, *b;
    const Producer* by;
  };
  std::vector<Pending> common;
  SetComparison out;
  const int past_model = static_cast<int>(modelled.size());
  for (const auto& v : a.values) {
    auto other = in_b.find(v.key());
    if (other == in_b.end()) {
      out.only_a.push_back(v.key());
      continue;
    }
    auto m = v.graph.empty() && v.occurrence == 0 ? modelled.find(v.name) : modelled.end();
    auto l = listed.find(v.key());
    const Producer* by = m != modelled.end() ? &m->second
                         : l != listed.end() ? &l->second
                                             : nullptr;
    common.push_back({{m != modelled.end() ? m->second.rank : past_model,
                       l != listed.end() ? l->second.rank : 0},
                      &v,
                      other->second,
                      by});
    in_b.erase(other);
  }
  for (const auto& [key, v] : in_b) out.only_b.push_back(key);
  std::stable_sort(common.begin(), common.end(),
                   [](const Pending& x, const Pending& y) { return x.rank < y.rank; });
  for (const auto& c : common) {
    if (!c.a->skipped.empty() || !c.b->skipped.empty()) {
      out.skipped.push_back(c.a->key());
      continue;
    }
    ValueDiff d;
    d.key = c.a->key();
    if (c.by) {
      d.node = c.by->node;
      d.op = c.by->op;
      d.inputs = c.by->inputs;
    }
    const auto [va, vb] = comparable(load_value(*c.a), load_value(*c.b));
    d.cmp = compare_values(va, vb, o.tolerance);
    if (!d.cmp.ok) {
      ++out.divergent;
      if (out.first_divergent < 0) out.first_divergent = static_cast<int>(out.values.size());
    }
    out.values.push_back(std::move(d));
  }
  return out;
}

}  // namespace onnxtool
