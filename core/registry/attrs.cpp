// SPDX-License-Identifier: Apache-2.0
#include "core/registry/attrs.h"

#include "core/diag/error.h"
#include "core/registry/schema.h"
#include "onnx.pb.h"

namespace onnxtool {

AttrView::AttrView(const onnx::NodeProto& node, const OpVersion* schema)
    : node_(&node), schema_(schema) {}

const onnx::AttributeProto* AttrView::find(std::string_view name) const {
  for (const auto& a : node_->attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

void AttrView::missing(std::string_view name) const {
  throw_invalid("attr.missing", "", "",
                "node " + node_->op_type() + " " +
                    (node_->name().empty() ? "" : "\"" + node_->name() + "\" ") +
                    "has no attribute " + std::string(name) + " and the operator gives no default");
}

namespace {

template <class T>
std::optional<T> schema_default(const OpVersion* schema, std::string_view name) {
  if (!schema) return std::nullopt;
  for (const auto& a : schema->attributes)
    if (a.name == name)
      if (const T* v = std::get_if<T>(&a.default_value)) return *v;
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> AttrView::opt_int(std::string_view name) const {
  if (const auto* a = find(name)) return a->i();
  return schema_default<int64_t>(schema_, name);
}

std::optional<float> AttrView::opt_float(std::string_view name) const {
  if (const auto* a = find(name)) return a->f();
  return schema_default<float>(schema_, name);
}

std::optional<std::string> AttrView::opt_string(std::string_view name) const {
  if (const auto* a = find(name)) return a->s();
  return schema_default<std::string>(schema_, name);
}

std::optional<std::vector<int64_t>> AttrView::opt_ints(std::string_view name) const {
  if (const auto* a = find(name)) return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  return schema_default<std::vector<int64_t>>(schema_, name);
}

std::optional<std::vector<float>> AttrView::opt_floats(std::string_view name) const {
  if (const auto* a = find(name)) return std::vector<float>(a->floats().begin(), a->floats().end());
  return schema_default<std::vector<float>>(schema_, name);
}

int64_t AttrView::get_int(std::string_view name, int64_t fallback) const {
  return opt_int(name).value_or(fallback);
}
int64_t AttrView::get_int(std::string_view name) const {
  if (auto v = opt_int(name)) return *v;
  missing(name);
}
float AttrView::get_float(std::string_view name, float fallback) const {
  return opt_float(name).value_or(fallback);
}
float AttrView::get_float(std::string_view name) const {
  if (auto v = opt_float(name)) return *v;
  missing(name);
}
std::string AttrView::get_string(std::string_view name, const std::string& fallback) const {
  return opt_string(name).value_or(fallback);
}
std::string AttrView::get_string(std::string_view name) const {
  if (auto v = opt_string(name)) return *v;
  missing(name);
}
std::vector<int64_t> AttrView::get_ints(std::string_view name,
                                        std::vector<int64_t> fallback) const {
  if (auto v = opt_ints(name)) return *v;
  return fallback;
}
std::vector<int64_t> AttrView::get_ints(std::string_view name) const {
  if (auto v = opt_ints(name)) return *v;
  missing(name);
}
std::vector<float> AttrView::get_floats(std::string_view name, std::vector<float> fallback) const {
  if (auto v = opt_floats(name)) return *v;
  return fallback;
}
std::vector<float> AttrView::get_floats(std::string_view name) const {
  if (auto v = opt_floats(name)) return *v;
  missing(name);
}

std::vector<std::string> AttrView::get_strings(std::string_view name,
                                               std::vector<std::string> fallback) const {
  if (const auto* a = find(name)) return {a->strings().begin(), a->strings().end()};
  if (auto v = schema_default<std::vector<std::string>>(schema_, name)) return *v;
  return fallback;
}
std::vector<std::string> AttrView::get_strings(std::string_view name) const {
  if (const auto* a = find(name)) return {a->strings().begin(), a->strings().end()};
  if (auto v = schema_default<std::vector<std::string>>(schema_, name)) return *v;
  missing(name);
}

const onnx::TensorProto* AttrView::tensor(std::string_view name) const {
  const auto* a = find(name);
  return a && a->has_t() ? &a->t() : nullptr;
}

const onnx::SparseTensorProto* AttrView::sparse_tensor(std::string_view name) const {
  const auto* a = find(name);
  return a && a->has_sparse_tensor() ? &a->sparse_tensor() : nullptr;
}

const onnx::GraphProto* AttrView::graph(std::string_view name) const {
  const auto* a = find(name);
  return a && a->has_g() ? &a->g() : nullptr;
}

std::vector<const onnx::GraphProto*> AttrView::graphs(std::string_view name) const {
  std::vector<const onnx::GraphProto*> out;
  if (const auto* a = find(name))
    for (const auto& g : a->graphs()) out.push_back(&g);
  return out;
}

const onnx::TypeProto* AttrView::type_proto(std::string_view name) const {
  const auto* a = find(name);
  return a && a->has_tp() ? &a->tp() : nullptr;
}

}  // namespace onnxtool
