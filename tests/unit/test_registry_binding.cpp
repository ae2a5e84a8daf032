// SPDX-License-Identifier: Apache-2.0
// Binding a node to what it calls (core/registry/binding.h): opset maps, operator resolution,
// formal parameters (optional, variadic), type sets resolved at registration and the type
// binder the checker and shape inference share.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/types/dtype.h"
#include "onnx.pb.h"

using namespace onnxtool;

namespace {

uint64_t bit(DataType t) {
  return uint64_t{1} << static_cast<int>(t);
}

// Concat-like (one homogeneous variadic), a mixed-variadic op, an op with a literal output type
// and an optional input, and an op that exists only from version 5.
std::unique_ptr<Registry> registry() {
  auto r = std::make_unique<Registry>();
  r->add("", "Join")
      .since(1)
      .input_variadic("inputs", "T", 1)
      .output("out", "T")
      .constraint("T", {"tensor(float)", "tensor(int64)"});
  r->add("", "Pack")
      .since(1)
      .input("first", "T")
      .input_variadic("rest", "V", 1, /*homogeneous=*/false)
      .output("out", "seq(tensor(float))")
      .constraint("T", {"tensor(float)", "optional(tensor(int8))"})
      .constraint("V", {"tensor(float)", "tensor(bool)", "seq(tensor(float))"});
  r->add("", "Shape2")
      .since(1)
      .input("data", "T")
      .input_optional("start", "tensor(int64)")
      .output("shape", "tensor(int64)")
      .constraint("T", {"tensor(float)", "tensor(double)"});
  r->add("", "Late").since(5).input("x", "T").output("y", "T").constraint("T", {"tensor(float)"});
  r->add("", "Late").since(9).input("x", "T").output("y", "T").constraint("T", {"tensor(double)"});
  r->add("custom.known", "Thing").since(1).output("y", "tensor(float)");
  return r;
}

onnx::NodeProto node(const std::string& op, const std::string& domain = "") {
  onnx::NodeProto n;
  n.set_op_type(op);
  if (!domain.empty()) n.set_domain(domain);
  return n;
}

}  // namespace

TEST_CASE("opset maps: first import of a domain wins, ai.onnx is the default domain") {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* a = m.add_opset_import();
  a->set_domain("ai.onnx");
  a->set_version(13);
  auto* b = m.add_opset_import();
  b->set_version(17);  // the same domain again: invalid, and ignored here
  auto* c = m.add_opset_import();
  c->set_domain("ai.onnx.ml");
  c->set_version(3);
  const OpsetMap opsets = model_opsets(m);
  CHECK(opsets.size() == 2);
  CHECK(opsets.at("") == 13);
  CHECK(opsets.at("ai.onnx.ml") == 3);

  onnx::ModelProto old;
  old.set_ir_version(2);  // before IR 3 there was no opset_import: version 1 of ai.onnx
  CHECK(model_opsets(old).at("") == 1);

  onnx::FunctionProto fn;
  auto* own = fn.add_opset_import();
  own->set_version(18);
  const OpsetMap body = function_opsets(fn, opsets);
  CHECK(body.at("") == 18);           // the function's own import
  CHECK(body.at("ai.onnx.ml") == 3);  // the caller's for the rest
}

TEST_CASE("resolving a node: imported or not, version in effect, local functions") {
  auto r = registry();
  OpsetMap opsets{{"", 7}, {"local", 1}};
  onnx::ModelProto m;
  auto* fn = m.add_functions();
  fn->set_domain("local");
  fn->set_name("F");
  const LocalFunctions functions(m);

  const OpResolution late7 = resolve_operator(*r, opsets, &functions, node("Late"));
  CHECK(late7.imported);
  CHECK(late7.opset == 7);
  REQUIRE(late7.schema != nullptr);
  CHECK(late7.schema->since == 5);

  const OpResolution late3 = resolve_operator(*r, {{"", 3}}, &functions, node("Late"));
  CHECK(late3.schema == nullptr);
  CHECK(late3.op_known);
  CHECK(late3.first_version == 5);

  const OpResolution unknown = resolve_operator(*r, opsets, &functions, node("Nope"));
  CHECK_FALSE(unknown.op_known);
  CHECK(unknown.domain_known);

  const OpResolution not_imported =
      resolve_operator(*r, opsets, &functions, node("Thing", "custom.known"));
  CHECK_FALSE(not_imported.imported);
  CHECK(not_imported.domain_known);
  CHECK(not_imported.schema == nullptr);

  const OpResolution local = resolve_operator(*r, opsets, &functions, node("F", "local"));
  CHECK(local.function == fn);
  CHECK(local.schema == nullptr);
  CHECK(functions.has_name("local", "F"));
  CHECK_FALSE(functions.has_name("local", "G"));

  onnx::NodeProto overloaded = node("F", "local");
  overloaded.set_overload("other");
  CHECK(resolve_operator(*r, opsets, &functions, overloaded).function == nullptr);
}

TEST_CASE("formal parameters: a variadic last formal takes every remaining position") {
  auto r = registry();
  const OpVersion& join = *r->lookup("", "Join", 1);
  CHECK(formal_input(join, 0)->name == "inputs");
  CHECK(formal_input(join, 5)->name == "inputs");
  CHECK(formal_output(join, 0)->name == "out");
  CHECK(formal_output(join, 1) == nullptr);

  const OpVersion& shape = *r->lookup("", "Shape2", 1);
  CHECK(formal_input(shape, 1)->name == "start");
  CHECK(formal_input(shape, 2) == nullptr);  // past the end, no variadic
}

TEST_CASE("type sets are resolved when the operator is registered") {
  auto r = registry();
  const OpVersion& pack = *r->lookup("", "Pack", 1);
  const TypeSet* t = allowed_types(pack, *formal_input(pack, 0));
  REQUIRE(t != nullptr);
  CHECK(t->allows("tensor(float)"));
  CHECK_FALSE(t->allows("tensor(int8)"));  // only as an optional
  CHECK(t->allows("optional(tensor(int8))"));
  // What a tensor value at run time is checked against: plain and optional tensors.
  CHECK(t->tensor_elements() == (bit(DataType::float32) | bit(DataType::int8)));

  const TypeSet* v = allowed_types(pack, *formal_input(pack, 3));
  REQUIRE(v != nullptr);
  CHECK(v->allows("seq(tensor(float))"));
  CHECK_FALSE(v->allows("seq(tensor(bool))"));
  CHECK(v->names().size() == 3);

  const OpVersion& shape = *r->lookup("", "Shape2", 1);
  const TypeSet* literal = allowed_types(shape, *formal_input(shape, 1));
  REQUIRE(literal != nullptr);
  CHECK(formal_input(shape, 1)->is_literal_type());
  CHECK(literal->allows("tensor(int64)"));
  CHECK_FALSE(literal->allows("tensor(int32)"));
  CHECK(literal->tensor_elements() == bit(DataType::int64));
}

TEST_CASE("the type binder: allowed, bound once, heterogeneous variadics and literal types") {
  auto r = registry();
  using Outcome = TypeBinder::Outcome;

  TypeBinder join(*r->lookup("", "Join", 1));
  CHECK(join.bind_input(0, "tensor(float)", "input 0").outcome == Outcome::ok);
  const auto clash = join.bind_input(1, "tensor(int64)", "input 1");
  CHECK(clash.outcome == Outcome::inconsistent);
  CHECK(clash.bound_type == "tensor(float)");
  CHECK(clash.bound_by == "input 0");
  const auto bad = join.bind_input(2, "tensor(bool)", "input 2");
  CHECK(bad.outcome == Outcome::not_allowed);
  REQUIRE(bad.allowed != nullptr);
  CHECK(bad.allowed->names().size() == 2);
  // Outputs bind to the same constraints as the inputs.
  CHECK(join.bind_output(0, "tensor(int64)", "output 0").outcome == Outcome::inconsistent);

  TypeBinder pack(*r->lookup("", "Pack", 1));
  CHECK(pack.bind_input(1, "tensor(float)", "a").outcome == Outcome::ok);
  CHECK(pack.bind_input(2, "tensor(bool)", "b").outcome == Outcome::ok);  // heterogeneous
  CHECK(pack.bind_output(0, "seq(tensor(float))", "o").outcome == Outcome::ok);
  CHECK(pack.bind_output(0, "seq(tensor(int64))", "o").outcome == Outcome::not_allowed);
  CHECK(pack.bind_output(1, "tensor(float)", "o2").outcome == Outcome::unchecked);

  TypeBinder shape(*r->lookup("", "Shape2", 1));
  CHECK(shape.bind_input(1, "tensor(int64)", "s").outcome == Outcome::ok);
  CHECK(shape.bind_input(1, "tensor(int32)", "s").outcome == Outcome::not_allowed);
}
