// SPDX-License-Identifier: Apache-2.0
// Model-local functions (IR 8; attribute defaults IR 9; overloads and value_info IR 10): their
// identity, signature, opset imports against the model's, body, and calls between them.
#include <functional>
#include <set>
#include <tuple>

#include "core/check/context.h"
#include "core/ir/location.h"
#include "core/registry/registry.h"

namespace onnxtool {

namespace {

std::string function_id(const onnx::FunctionProto& fn) {
  std::string id = (fn.domain().empty() ? "" : fn.domain() + ".") + fn.name();
  return fn.overload().empty() ? id : id + ":" + fn.overload();
}

void check_identity(CheckContext& ctx, const onnx::FunctionProto& fn, const std::string& loc,
                    std::set<std::tuple<std::string, std::string, std::string>>& seen) {
  if (fn.name().empty()) ctx.report("function.missing-name", loc, "the function has no name");
  check_name(ctx, fn.name(), loc, "function name");
  if (ctx.ir_version() >= 8 && !fn.has_domain())
    ctx.report("function.missing-domain", loc,
               "the function has no domain; from ir_version 8 a function names its domain");
  if (!fn.overload().empty()) ctx.require_ir(10, "a function overload", loc);
  if (!seen.insert({normalize_domain(fn.domain()), fn.name(), fn.overload()}).second)
    ctx.report("function.duplicate", loc,
               "another function is also " + quoted_name(function_id(fn)) +
                   "; (domain, name, overload) must be unique");
}

void check_unique(CheckContext& ctx, const google::protobuf::RepeatedPtrField<std::string>& names,
                  const std::string& prefix, const char* kind, const char* rule) {
  std::set<std::string> seen;
  for (int i = 0; i < names.size(); ++i) {
    const std::string loc = item_location(prefix, kind, i, names.Get(i));
    if (!seen.insert(names.Get(i)).second)
      ctx.report(rule, loc,
                 std::string(kind) + " " + quoted_name(names.Get(i)) + " is listed more than once");
  }
}

void check_signature(CheckContext& ctx, const onnx::FunctionProto& fn, const std::string& prefix) {
  check_unique(ctx, fn.input(), prefix, "input", "function.duplicate-input");
  check_unique(ctx, fn.output(), prefix, "output", "function.duplicate-output");
  check_unique(ctx, fn.attribute(), prefix, "attribute", "function.duplicate-attribute");
  for (int i = 0; i < fn.input_size(); ++i)
    check_name(ctx, fn.input(i), item_location(prefix, "input", i, fn.input(i)), "input");
  if (fn.attribute_proto_size()) ctx.require_ir(9, "function attribute defaults", prefix);
  std::set<std::string> plain(fn.attribute().begin(), fn.attribute().end()), defaults;
  for (int i = 0; i < fn.attribute_proto_size(); ++i) {
    const auto& a = fn.attribute_proto(i);
    const std::string loc = item_location(prefix, "attribute_proto", i, a.name());
    check_attribute_value(ctx, a, loc, nullptr);
    if (!defaults.insert(a.name()).second)
      ctx.report("function.duplicate-attribute", loc,
                 "attribute " + quoted_name(a.name()) + " is listed more than once");
    if (plain.count(a.name()))
      ctx.report("function.attribute-overlap", loc,
                 "attribute " + quoted_name(a.name()) +
                     " is in both attribute and attribute_proto; expected one of them");
  }
}

// ONNX's rule: where the function and the model import one domain at different versions, an
// operator the function uses must resolve to the same schema under both.
void check_opset_compatibility(CheckContext& ctx, const onnx::FunctionProto& fn,
                               const OpsetMap& fn_opsets, const std::string& prefix) {
  std::set<std::string> reported;
  for (int i = 0; i < fn.node_size(); ++i) {
    const auto& node = fn.node(i);
    const std::string domain = normalize_domain(node.domain());
    auto f = fn_opsets.find(domain);
    auto m = ctx.model_opsets().find(domain);
    if (f == fn_opsets.end() || m == ctx.model_opsets().end() || f->second == m->second) continue;
    const OpVersion* in_fn = ctx.registry().lookup(domain, node.op_type(), f->second);
    const OpVersion* in_model = ctx.registry().lookup(domain, node.op_type(), m->second);
    if (!in_fn && !in_model) continue;  // custom operators: nothing to compare
    if (in_fn && in_model && in_fn->since == in_model->since) continue;
    if (!reported.insert(domain + "." + node.op_type()).second) continue;
    ctx.report("function.opset-mismatch", node_location(prefix, i, node),
               "the function imports " + (domain.empty() ? std::string("ai.onnx") : domain) +
                   " version " + std::to_string(f->second) + ", the model version " +
                   std::to_string(m->second) + ", and " + node.op_type() +
                   " differs between them; expected compatible imports");
  }
}

void check_body(CheckContext& ctx, const onnx::FunctionProto& fn, const std::string& prefix,
                const OpsetMap& fn_opsets) {
  Scope scope;
  for (const auto& in : fn.input())
    if (!in.empty()) scope.defined.insert(in);
  for (int i = 0; i < fn.value_info_size(); ++i) {
    const auto& v = fn.value_info(i);
    const std::string loc = item_location(prefix, "value_info", i, v.name());
    ctx.require_ir(10, "value_info in a function", loc);
    if (v.has_type()) {
      check_type(ctx, v.type(), loc, {});
      scope.types.emplace(v.name(), &v.type());
    }
  }
  walk_nodes(ctx, fn.node(), prefix, scope, NodeEnv{&fn_opsets, &fn, 0});
  for (int i = 0; i < fn.output_size(); ++i)
    if (!fn.output(i).empty() && !scope.visible(fn.output(i)))
      ctx.report("graph.output-not-produced", item_location(prefix, "output", i, fn.output(i)),
                 "output " + quoted_name(fn.output(i)) +
                     " is not produced by any node of the function, nor one of its inputs");
}

// ---- calls between functions -----------------------------------------------------------------

// Indices of the functions that nodes (at any depth, within the depth limit) call.
void collect_calls(CheckContext& ctx,
                   const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                   const std::map<const onnx::FunctionProto*, int>& index, std::set<int>& out,
                   int depth) {
  if (depth > kMaxCheckDepth) return;
  for (const auto& node : nodes) {
    if (const auto* fn = ctx.find_function(node.domain(), node.op_type(), node.overload())) {
      auto it = index.find(fn);
      if (it != index.end()) out.insert(it->second);
    }
    for (const auto& a : node.attribute()) {
      if (a.has_g()) collect_calls(ctx, a.g().node(), index, out, depth + 1);
      for (const auto& g : a.graphs()) collect_calls(ctx, g.node(), index, out, depth + 1);
    }
  }
}

// Reports each function that can reach itself through calls.
void check_recursion(CheckContext& ctx) {
  const auto& fns = ctx.model().functions();
  std::map<const onnx::FunctionProto*, int> index;
  for (int i = 0; i < fns.size(); ++i) {
    const auto* fn =
        ctx.find_function(fns.Get(i).domain(), fns.Get(i).name(), fns.Get(i).overload());
    if (fn == &fns.Get(i)) index.emplace(fn, i);  // duplicates are reported elsewhere
  }
  std::vector<std::set<int>> calls(static_cast<std::size_t>(fns.size()));
  for (const auto& [fn, i] : index)
    collect_calls(ctx, fn->node(), index, calls[static_cast<std::size_t>(i)], 0);
  for (const auto& [fn, start] : index) {
    // Breadth-first from the callees of `start`: does any path lead back?
    std::set<int> seen;
    std::vector<int> todo(calls[static_cast<std::size_t>(start)].begin(),
                          calls[static_cast<std::size_t>(start)].end());
    bool recursive = false;
    while (!todo.empty() && !recursive) {
      const int f = todo.back();
      todo.pop_back();
      if (f == start) recursive = true;
      if (!seen.insert(f).second) continue;
      for (int g : calls[static_cast<std::size_t>(f)]) todo.push_back(g);
    }
    if (recursive)
      ctx.report("function.recursive", function_location(start, *fn),
                 "the function calls itself (directly or through other functions); expected "
                 "no recursion");
  }
}

}  // namespace

void check_functions(CheckContext& ctx) {
  const auto& fns = ctx.model().functions();
  if (fns.empty()) return;
  ctx.require_ir(8, "model-local functions", function_location(0, fns.Get(0)));
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (int i = 0; i < fns.size(); ++i) {
    const auto& fn = fns.Get(i);
    const std::string loc = function_location(i, fn);
    const std::string prefix = loc + ": ";
    check_identity(ctx, fn, loc, seen);
    if (fn.metadata_props_size()) {
      ctx.require_ir(10, "metadata_props on a function", loc);
      check_metadata(ctx, fn.metadata_props(), prefix);
    }
    check_signature(ctx, fn, prefix);
    const OpsetMap fn_opsets = read_opsets(ctx, fn.opset_import(), prefix);
    check_opset_compatibility(ctx, fn, fn_opsets, prefix);
    check_body(ctx, fn, prefix, fn_opsets);
  }
  check_recursion(ctx);
}

}  // namespace onnxtool
