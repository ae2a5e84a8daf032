// SPDX-License-Identifier: Apache-2.0
// LabelEncoder: the ai.onnx.ml operator. Maps each element through keys -> values, the default
// for elements not among the keys. Version 1 maps strings to their index in classes_strings and
// integers back to the strings; version 2 takes keys_* and values_* lists (floats, int64s,
// strings); version 4 also tensors (keys_tensor, values_tensor, default_tensor) of more types.
// Float keys: NaN matches NaN; a repeated key: the last one wins.
#include <cmath>
#include <map>

#include "core/convert/adapter.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

// A key or value of any supported type: a number (as double; int64 kept exact) or a string.
struct Item {
  bool is_string = false;
  std::string s;
  double d = 0;
  int64_t i = 0;
  bool operator<(const Item& o) const {
    if (is_string) return s < o.s;
    // NaN keys sort together after every number.
    const bool na = std::isnan(d), nb = std::isnan(o.d);
    if (na || nb) return !na && nb;
    return d < o.d || (d == o.d && i < o.i);
  }
};

struct Column {
  DataType type = DataType::undefined;
  std::vector<Item> items;
};

Column column_from_tensor(const KernelContext& ctx, const Tensor& t) {
  Column c;
  c.type = t.dtype();
  if (t.dtype() == DataType::string) {
    for (const std::string& s : t.strings()) c.items.push_back({true, s, 0, 0});
    return c;
  }
  const std::vector<double> d = misc::values_as<double>(ctx, t, "label encoder tensor");
  const bool integral = is_integer(t.dtype());
  const std::vector<int64_t> i = integral ? misc::values_as<int64_t>(ctx, t, "label encoder tensor")
                                          : std::vector<int64_t>(d.size(), 0);
  for (std::size_t k = 0; k < d.size(); ++k) c.items.push_back({false, "", d[k], i[k]});
  return c;
}

// keys_* or values_* (version 2+): whichever list or tensor is set.
std::optional<Column> column(const KernelContext& ctx, const std::string& what) {
  if (ctx.attrs().has(what + "_strings")) {
    Column c{DataType::string, {}};
    for (const std::string& s : ctx.attrs().get_strings(what + "_strings"))
      c.items.push_back({true, s, 0, 0});
    return c;
  }
  if (ctx.attrs().has(what + "_int64s")) {
    Column c{DataType::int64, {}};
    for (int64_t v : ctx.attrs().get_ints(what + "_int64s"))
      c.items.push_back({false, "", static_cast<double>(v), v});
    return c;
  }
  if (ctx.attrs().has(what + "_floats")) {
    Column c{DataType::float32, {}};
    for (float v : ctx.attrs().get_floats(what + "_floats")) c.items.push_back({false, "", v, 0});
    return c;
  }
  if (const auto t = ml::tensor_attr(ctx.attrs(), (what + "_tensor").c_str()))
    return column_from_tensor(ctx, *t);
  return std::nullopt;
}

Item default_item(const KernelContext& ctx, DataType values) {
  if (const auto t = ml::tensor_attr(ctx.attrs(), "default_tensor")) {
    const Column c = column_from_tensor(ctx, *t);
    if (c.items.size() != 1) ctx.fail("default_tensor must hold one value");
    return c.items[0];
  }
  if (values == DataType::string)
    return {true, ctx.attrs().get_string("default_string", "_Unused"), 0, 0};
  if (values == DataType::float32 || values == DataType::float64)
    return {false, "", ctx.attrs().get_float("default_float", -0.0f), 0};
  const int64_t i = ctx.attrs().get_int("default_int64", -1);
  return {false, "", static_cast<double>(i), i};
}

struct Mapping {
  DataType key_type = DataType::undefined, value_type = DataType::undefined;
  std::map<Item, Item> map;
  Item fallback;
};

Mapping mapping_v1(const KernelContext& ctx, DataType input) {
  Mapping m;
  const std::vector<std::string> classes = ctx.attrs().get_strings("classes_strings", {});
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const Item s{true, classes[i], 0, 0};
    const Item n{false, "", static_cast<double>(i), static_cast<int64_t>(i)};
    if (input == DataType::string)
      m.map[s] = n;
    else
      m.map[n] = s;
  }
  m.key_type = input;
  m.value_type = input == DataType::string ? DataType::int64 : DataType::string;
  if (m.value_type == DataType::string)
    m.fallback = {true, ctx.attrs().get_string("default_string", "_Unused"), 0, 0};
  else
    m.fallback = {false, "", static_cast<double>(ctx.attrs().get_int("default_int64", -1)),
                  ctx.attrs().get_int("default_int64", -1)};
  return m;
}

Mapping mapping(const KernelContext& ctx, DataType input) {
  if (ctx.schema().since < 2) return mapping_v1(ctx, input);
  const std::optional<Column> keys = column(ctx, "keys");
  const std::optional<Column> values = column(ctx, "values");
  if (!keys || !values) ctx.fail("one keys_* and one values_* attribute must be set");
  if (keys->items.size() != values->items.size())
    ctx.fail("keys and values differ in length: " + std::to_string(keys->items.size()) + " and " +
             std::to_string(values->items.size()));
  Mapping m;
  m.key_type = keys->type;
  m.value_type = values->type;
  for (std::size_t i = 0; i < keys->items.size(); ++i) m.map[keys->items[i]] = values->items[i];
  m.fallback = default_item(ctx, m.value_type);
  return m;
}

// Version 1: by the input type; later: by the values_* attribute (or values_tensor's type).
int32_t output_elem(const InferContext& ctx) {
  const AttrView& a = ctx.attrs();
  if (ctx.schema().since < 2) {
    const int32_t in = ctx.input_elem_type(0);
    if (in == 0) return 0;
    return static_cast<int32_t>(in == static_cast<int32_t>(DataType::string) ? DataType::int64
                                                                             : DataType::string);
  }
  if (a.has("values_strings")) return static_cast<int32_t>(DataType::string);
  if (a.has("values_int64s")) return static_cast<int32_t>(DataType::int64);
  if (a.has("values_floats")) return static_cast<int32_t>(DataType::float32);
  if (const onnx::TensorProto* t = a.tensor("values_tensor"))
    return tensor_from_proto(*t).defined() ? static_cast<int32_t>(tensor_from_proto(*t).dtype())
                                           : 0;
  infer_fail("one values_* attribute must be set");
}

void infer_label_encoder(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, output_elem(ctx));
}

void label_encoder_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Mapping m = mapping(ctx, x.dtype());
  const bool x_string = x.dtype() == DataType::string;
  if (x_string != (m.key_type == DataType::string) ||
      (!x_string && is_float(x.dtype()) != is_float(m.key_type) && ctx.schema().since < 4))
    ctx.fail("X's element type " + std::string(type_name(x.dtype())) +
             " does not match the keys' " + std::string(type_name(m.key_type)));
  Column in = column_from_tensor(ctx, x);
  std::vector<std::string> strings;
  std::vector<double> numbers;
  for (const Item& k : in.items) {
    const auto it = m.map.find(k);
    const Item& v = it == m.map.end() ? m.fallback : it->second;
    if (m.value_type == DataType::string)
      strings.push_back(v.s);
    else
      numbers.push_back(is_integer(m.value_type) ? static_cast<double>(v.i) : v.d);
  }
  if (m.value_type == DataType::string) {
    ctx.set_output(0, Tensor::from_strings(x.shape(), std::move(strings)));
  } else if (m.value_type == DataType::int64) {
    std::vector<int64_t> ints;
    for (const Item& k : in.items) {
      const auto it = m.map.find(k);
      ints.push_back(it == m.map.end() ? m.fallback.i : it->second.i);
    }
    ctx.set_output(0, Tensor::from_vector<int64_t>(x.shape(), ints));
  } else {
    misc::write_output<double>(ctx, 0, m.value_type, x.shape(), numbers);
  }
}

// ---- version adapters --------------------------------------------------------------------

void set_strings(AdapterContext& ctx, const char* name, const std::vector<std::string>& values) {
  ctx.set_attribute(name, values);
}

void label_encoder_classes_to_keys(AdapterContext& ctx) {
  const auto* classes = ctx.attribute("classes_strings");
  std::vector<std::string> names;
  if (classes) names.assign(classes->strings().begin(), classes->strings().end());
  std::vector<int64_t> positions;
  for (std::size_t i = 0; i < names.size(); ++i) positions.push_back(static_cast<int64_t>(i));
  const Type* in = ctx.input_type(0);
  if (!in || in->elem <= 0) ctx.refuse("the input's type is not known: which way the map goes");
  const bool from_strings = static_cast<DataType>(in->elem) == DataType::string;
  ctx.remove_attribute("classes_strings");
  if (from_strings) {
    set_strings(ctx, "keys_strings", names);
    ctx.set_attribute("values_int64s", positions);
  } else {
    ctx.set_attribute("keys_int64s", positions);
    set_strings(ctx, "values_strings", names);
  }
  ctx.describe("classes_strings -> keys and values");
}

void label_encoder_keys_to_classes(AdapterContext& ctx) {
  const auto* ks = ctx.attribute("keys_strings");
  const auto* vs = ctx.attribute("values_strings");
  const auto ki = ctx.ints_attribute("keys_int64s");
  const auto vi = ctx.ints_attribute("values_int64s");
  auto counts_up = [](const std::vector<int64_t>& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] != static_cast<int64_t>(i)) return false;
    return true;
  };
  const onnx::AttributeProto* names = nullptr;
  if (ks && vi && !vs && !ki && counts_up(*vi) &&
      vi->size() == static_cast<std::size_t>(ks->strings_size()))
    names = ks;
  else if (vs && ki && !ks && !vi && counts_up(*ki) &&
           ki->size() == static_cast<std::size_t>(vs->strings_size()))
    names = vs;
  if (!names || ctx.has_attribute("keys_floats") || ctx.has_attribute("values_floats"))
    ctx.refuse(ctx.to().id() + " maps strings to their position in a list (or back), and this " +
               "node maps other keys or values");
  const std::vector<std::string> list(names->strings().begin(), names->strings().end());
  for (const char* a :
       {"keys_strings", "values_strings", "keys_int64s", "values_int64s", "default_float"})
    ctx.remove_attribute(a);
  set_strings(ctx, "classes_strings", list);
  ctx.describe("keys and values -> classes_strings");
}

}  // namespace

void define_ml_LabelEncoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classes_strings", AttrType::strings)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  op.since(2)
      .attr("default_float", AttrType::f, -0.0f)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .attr_optional("keys_floats", AttrType::floats)
      .attr_optional("keys_int64s", AttrType::ints)
      .attr_optional("keys_strings", AttrType::strings)
      .attr_optional("values_floats", AttrType::floats)
      .attr_optional("values_int64s", AttrType::ints)
      .attr_optional("values_strings", AttrType::strings)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)", "tensor(float)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)", "tensor(float)"});
  op.since(4)
      .attr("default_float", AttrType::f, -0.0f)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .attr_optional("default_tensor", AttrType::t)
      .attr_optional("keys_floats", AttrType::floats)
      .attr_optional("keys_int64s", AttrType::ints)
      .attr_optional("keys_strings", AttrType::strings)
      .attr_optional("keys_tensor", AttrType::t)
      .attr_optional("values_floats", AttrType::floats)
      .attr_optional("values_int64s", AttrType::ints)
      .attr_optional("values_strings", AttrType::strings)
      .attr_optional("values_tensor", AttrType::t)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)", "tensor(float)", "tensor(int32)",
                         "tensor(int16)", "tensor(double)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)", "tensor(float)", "tensor(int32)",
                         "tensor(int16)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_label_encoder).kernel(label_encoder_kernel);
  // Version 1 mapped strings to their position in classes_strings (or back); version 2 has
  // explicit keys and values.
  op.at(2).upgrade(label_encoder_classes_to_keys).downgrade(label_encoder_keys_to_classes);
}

}  // namespace onnxtool::ops
