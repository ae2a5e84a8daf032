// SPDX-License-Identifier: Apache-2.0
#include "core/convert/adapters.h"

#include <algorithm>

#include "core/convert/adapter.h"
#include "core/infer/type.h"
#include "core/types/element.h"
#include "core/types/float_formats.h"
#include "core/types/tensor.h"
#include "onnx.pb.h"

namespace onnxtool::convert {

namespace {

std::string list_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// The integers of a constant int64 (or int32) tensor.
std::optional<std::vector<int64_t>> integers(const Tensor& t) {
  std::vector<int64_t> out;
  if (t.dtype() == DataType::int64) {
    out.assign(t.data<int64_t>(), t.data<int64_t>() + t.numel());
  } else if (t.dtype() == DataType::int32) {
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.data<int32_t>()[i]);
  } else {
    return std::nullopt;
  }
  return out;
}

// The element type of input 0 as inference found it; float when unknown.
DataType element_type_of_input0(const AdapterContext& ctx) {
  const Type* t = ctx.input_type(0);
  if (t && t->kind == Type::Kind::tensor && t->elem > 0) return static_cast<DataType>(t->elem);
  return DataType::float32;
}

// A scalar of the element type Clip's input has (the attribute was a float).
std::optional<Tensor> scalar_of(DataType type, float value) {
  switch (type) {
    case DataType::float32:
      return Tensor::scalar<float>(value);
    case DataType::float64:
      return Tensor::scalar<double>(value);
    case DataType::float16:
      return Tensor::scalar<Float16>(to_float16(value));
    case DataType::bfloat16:
      return Tensor::scalar<BFloat16>(to_bfloat16(value));
    default:
      return std::nullopt;
  }
}

// A constant float scalar of any float width, as float.
std::optional<float> float_value(const Tensor& t) {
  if (t.numel() != 1) return std::nullopt;
  switch (t.dtype()) {
    case DataType::float32:
      return t.data<float>()[0];
    case DataType::float64:
      return static_cast<float>(t.data<double>()[0]);
    case DataType::float16:
      return to_float(t.data<Float16>()[0]);
    case DataType::bfloat16:
      return to_float(t.data<BFloat16>()[0]);
    default:
      return std::nullopt;
  }
}

std::string base_name(const AdapterContext& ctx, const std::string& what) {
  return ctx.name_base() + "_" + what;
}

}  // namespace

AdapterFn attribute_to_input(std::string attribute, std::size_t index) {
  return [attribute, index](AdapterContext& ctx) {
    auto values = ctx.ints_attribute(attribute);
    if (!values) return;
    const Tensor t = Tensor::from_vector<int64_t>({static_cast<int64_t>(values->size())}, *values);
    const std::string name = ctx.add_constant(base_name(ctx, attribute), t);
    ctx.remove_attribute(attribute);
    ctx.set_input(index, name);
    ctx.describe(attribute + " " + list_text(*values) + ": attribute -> input");
  };
}

AdapterFn input_to_attribute(std::string attribute, std::size_t index, bool scalar) {
  return [attribute, index, scalar](AdapterContext& ctx) {
    if (!ctx.has_input(index)) {
      if (ctx.num_inputs() > index) ctx.truncate_inputs(index);
      return;
    }
    const auto t = ctx.constant_input(index);
    const auto values = t ? integers(*t) : std::nullopt;
    if (!values)
      ctx.refuse(attribute + " (input " + std::to_string(index) + ") is computed when the model " +
                 "runs, and " + ctx.to().id() + " takes it as an attribute");
    if (scalar && values->size() != 1)
      ctx.refuse(attribute + " holds " + std::to_string(values->size()) +
                 " values, and the attribute of " + ctx.to().id() + " takes one");
    if (scalar)
      ctx.set_attribute(attribute, values->front());
    else
      ctx.set_attribute(attribute, *values);
    ctx.truncate_inputs(index);
    ctx.describe(attribute + " " + list_text(*values) + ": input -> attribute");
  };
}

AdapterFn int_attribute_to_input(std::string attribute, std::size_t index) {
  return [attribute, index](AdapterContext& ctx) {
    auto value = ctx.int_attribute(attribute);
    if (!value) return;
    const std::string name =
        ctx.add_constant(base_name(ctx, attribute), Tensor::from_vector<int64_t>({1}, {*value}));
    ctx.remove_attribute(attribute);
    ctx.set_input(index, name);
    ctx.describe(attribute + " " + std::to_string(*value) + ": attribute -> input");
  };
}

AdapterFn nonnegative_axes(std::string attribute, int64_t rank_extra, bool per_axis,
                           std::size_t input) {
  return [attribute, rank_extra, per_axis, input](AdapterContext& ctx) {
    std::vector<int64_t> axes;
    bool single = false;
    if (!attribute.empty()) {
      const onnx::AttributeProto* a = ctx.attribute(attribute);
      if (!a) return;
      single = a->type() == onnx::AttributeProto::INT;
      if (single)
        axes = {a->i()};
      else
        axes.assign(a->ints().begin(), a->ints().end());
    } else {
      const auto t = ctx.constant_input(input);
      if (!ctx.has_input(input)) return;
      const auto v = t ? integers(*t) : std::nullopt;
      if (!v) {
        ctx.refuse("the axes (input " + std::to_string(input) + ") are computed when the model " +
                   "runs, and " + ctx.to().id() + " takes only non-negative axes");
      }
      axes = *v;
    }
    if (std::none_of(axes.begin(), axes.end(), [](int64_t a) { return a < 0; })) return;
    const Type* t = ctx.input_type(0);
    if (!t || t->rank() < 0)
      ctx.refuse(attribute + " " + list_text(axes) + " counts from the end, which " +
                 ctx.to().id() + " does not allow, and the rank of input 0 is not known");
    const int64_t rank =
        t->rank() + rank_extra + (per_axis ? static_cast<int64_t>(axes.size()) : 0);
    std::vector<int64_t> fixed = axes;
    for (auto& a : fixed)
      if (a < 0) a += rank;
    if (!attribute.empty()) {
      if (single)
        ctx.set_attribute(attribute, fixed.front());
      else
        ctx.set_attribute(attribute, fixed);
    } else {
      const std::string name = ctx.add_constant(
          base_name(ctx, "axes"),
          Tensor::from_vector<int64_t>({static_cast<int64_t>(fixed.size())}, fixed));
      ctx.set_input(input, name);
    }
    ctx.describe((attribute.empty() ? "axes" : attribute) + " " + list_text(axes) + " -> " +
                 list_text(fixed) + " (counted from the start)");
  };
}

AdapterFn rename_attribute(std::string from, std::string to) {
  return [from, to](AdapterContext& ctx) {
    if (!ctx.has_attribute(from)) return;
    ctx.rename_attribute(from, to);
    ctx.describe("attribute " + from + " renamed " + to);
  };
}

AdapterFn refuse_values(std::string attribute, std::vector<std::string> values) {
  return [attribute, values](AdapterContext& ctx) {
    const auto v = ctx.string_attribute(attribute);
    if (v && std::find(values.begin(), values.end(), *v) != values.end())
      ctx.refuse(attribute + " \"" + *v + "\" does not exist in " + ctx.to().id());
  };
}

AdapterFn float_attribute_to_input(std::string attribute, std::size_t index) {
  return [attribute, index](AdapterContext& ctx) {
    auto value = ctx.float_attribute(attribute);
    if (!value) return;
    const DataType type = element_type_of_input0(ctx);
    const auto t = scalar_of(type, *value);
    if (!t)
      ctx.refuse(attribute + " is a float, and input 0 is " + std::string(type_name(type)) +
                 ", which " + ctx.to().id() + " would need " + attribute + " as");
    const std::string name = ctx.add_constant(base_name(ctx, attribute), *t);
    ctx.remove_attribute(attribute);
    ctx.set_input(index, name);
    ctx.describe(attribute + " " + std::to_string(*value) + ": attribute -> input");
  };
}

AdapterFn input_to_float_attribute(std::string attribute, std::size_t index) {
  return [attribute, index](AdapterContext& ctx) {
    if (!ctx.has_input(index)) {
      if (ctx.num_inputs() > index) ctx.truncate_inputs(index);
      return;
    }
    const auto t = ctx.constant_input(index);
    const auto value = t ? float_value(*t) : std::nullopt;
    if (!value)
      ctx.refuse(attribute + " (input " + std::to_string(index) + ") is not a constant float " +
                 "scalar, and " + ctx.to().id() + " takes it as a float attribute");
    const float v = *value;
    ctx.set_attribute(attribute, v);
    // Later inputs shift down only if this was the last one given.
    if (ctx.num_inputs() == index + 1)
      ctx.truncate_inputs(index);
    else
      ctx.set_input(index, "");
    ctx.describe(attribute + " " + std::to_string(v) + ": input -> attribute");
  };
}

AdapterFn drop_attribute(std::string attribute) {
  return [attribute](AdapterContext& ctx) {
    if (!ctx.has_attribute(attribute)) return;
    ctx.remove_attribute(attribute);
    ctx.describe(attribute + " dropped (it no longer exists)");
  };
}

AdapterFn drop_attribute_if(std::string attribute, int64_t keeps_meaning, std::string why) {
  return [attribute, keeps_meaning, why](AdapterContext& ctx) {
    auto v = ctx.int_attribute(attribute);
    if (!v) return;
    if (*v != keeps_meaning)
      ctx.refuse(attribute + "=" + std::to_string(*v) + " has no equivalent in " + ctx.to().id() +
                 (why.empty() ? "" : ": " + why));
    ctx.remove_attribute(attribute);
    ctx.describe(attribute + "=" + std::to_string(*v) + " dropped (it no longer exists)");
  };
}

AdapterFn remove_attribute_if(std::string attribute, int64_t neutral) {
  return [attribute, neutral](AdapterContext& ctx) {
    auto v = ctx.int_attribute(attribute);
    if (!v) return;
    if (*v != neutral)
      ctx.refuse(attribute + "=" + std::to_string(*v) + " has no equivalent in " + ctx.to().id());
    ctx.remove_attribute(attribute);
    ctx.describe(attribute + "=" + std::to_string(*v) + " dropped (the only value " +
                 ctx.to().id() + " knows)");
  };
}

AdapterFn set_attribute_if_absent(std::string attribute, int64_t value) {
  return [attribute, value](AdapterContext& ctx) {
    if (ctx.has_attribute(attribute)) return;
    ctx.set_attribute(attribute, value);
    ctx.describe(attribute + "=" + std::to_string(value) + " made explicit");
  };
}

AdapterFn unchanged(std::string note) {
  return [note](AdapterContext& ctx) { ctx.describe(note); };
}

void bridge_dropped_attribute(OpDef& op, const std::string& attribute) {
  const auto& versions = op.versions();
  for (std::size_t i = 1; i < versions.size(); ++i) {
    const AttrDef* before = versions[i - 1].find_attribute(attribute);
    if (!before || before->required || versions[i].find_attribute(attribute)) continue;
    VersionBuilder v = op.at(versions[i].since);
    if (!v.get().upgrade) v.upgrade(drop_attribute(attribute));
    if (!v.get().downgrade) v.downgrade(drop_attribute(attribute));
  }
}

AdapterFn all_of(std::vector<AdapterFn> adapters) {
  return [adapters](AdapterContext& ctx) {
    for (const auto& a : adapters)
      if (a) a(ctx);
  };
}

}  // namespace onnxtool::convert
