// SPDX-License-Identifier: Apache-2.0
#include "core/text/printer.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

#include "core/diag/error.h"
#include "core/ir/type_text.h"
#include "core/text/residual.h"
#include "core/text/syntax.h"
#include "core/text/values.h"
#include "core/types/tensor_proto.h"
#include "core/types/zip.h"
#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

using onnx::AttributeProto;
using onnx::FunctionProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;
using onnx::TypeProto;
using onnx::ValueInfoProto;
using StringPairs = google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>;

// Lists longer than this (counted from the start of the line) are broken one item per line.
constexpr std::size_t kLineWidth = 100;

std::string name(const std::string& s) {
  return prints_bare(s) ? s : text_string_literal(s);
}

std::string spaces(int n) {
  return std::string(static_cast<std::size_t>(n), ' ');
}

std::size_t column(const std::string& out) {
  const auto nl = out.rfind('\n');
  return nl == std::string::npos ? out.size() : out.size() - nl - 1;
}

bool spans_lines(const std::vector<std::string>& items) {
  return std::any_of(items.begin(), items.end(),
                     [](const std::string& i) { return i.find('\n') != std::string::npos; });
}

std::size_t joined_width(const std::vector<std::string>& items) {
  std::size_t width = 2;
  for (const auto& item : items) width += item.size() + 2;
  return width;
}

// `(a, b)` on one line, or with `multiline` one item per line, indented.
void append_list(std::string& out, char open, const std::vector<std::string>& items, char close,
                 int indent, bool multiline) {
  out += open;
  if (!multiline || items.empty()) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += items[i];
    }
    out += close;
    return;
  }
  out += '\n';
  for (std::size_t i = 0; i < items.size(); ++i) {
    out.append(static_cast<std::size_t>(indent + 2), ' ');
    out += items[i];
    out += i + 1 < items.size() ? ",\n" : "\n";
  }
  out += spaces(indent) + close;
}

void append_list(std::string& out, char open, const std::vector<std::string>& items, char close,
                 int indent) {
  append_list(out, open, items, close, indent,
              spans_lines(items) || column(out) + joined_width(items) > kLineWidth);
}

std::string names(const google::protobuf::RepeatedPtrField<std::string>& ids) {
  std::string s;
  for (int i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + name(ids.Get(i));
  return s;
}

bool pairs_exact(const StringPairs& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const auto& p) {
    return p.has_key() && p.has_value() && p.unknown_fields().empty();
  });
}

std::string pairs_text(const StringPairs& pairs) {
  std::string s = "[";
  for (int i = 0; i < pairs.size(); ++i)
    s += (i ? ", " : "") + text_string_literal(pairs.Get(i).key()) + ": " +
         text_string_literal(pairs.Get(i).value());
  return s + "]";
}

bool opsets_exact(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opsets) {
  return std::all_of(opsets.begin(), opsets.end(),
                     [](const auto& o) { return o.has_version() && o.unknown_fields().empty(); });
}

// ["" : 17, "ai.onnx.ml" : 3]; an entry without a domain is just its version (extension).
std::string opsets_text(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& ops) {
  std::string s = "[";
  for (int i = 0; i < ops.size(); ++i) {
    if (i) s += ", ";
    if (ops.Get(i).has_domain()) s += text_string_literal(ops.Get(i).domain()) + " : ";
    s += std::to_string(ops.Get(i).version());
  }
  return s + "]";
}

// "com.microsoft" prints as the dotted prefix of an op type when every part is an identifier.
bool dotted_identifiers(const std::string& s) {
  std::size_t start = 0;
  while (true) {
    const auto dot = s.find('.', start);
    if (!is_text_identifier(std::string_view(s).substr(start, dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

bool has_subgraph(const AttributeProto& a) {
  return a.has_g() || a.graphs_size() > 0;
}

int typed_size(const TensorProto& t, int field) {
  switch (field) {
    case TensorProto::kFloatDataFieldNumber:
      return t.float_data_size();
    case TensorProto::kDoubleDataFieldNumber:
      return t.double_data_size();
    case TensorProto::kInt64DataFieldNumber:
      return t.int64_data_size();
    case TensorProto::kUint64DataFieldNumber:
      return t.uint64_data_size();
    case TensorProto::kStringDataFieldNumber:
      return t.string_data_size();
    default:
      return t.int32_data_size();
  }
}

// Typed fields other than `except` that hold entries.
bool other_typed_fields_used(const TensorProto& t, int except) {
  for (int f : {TensorProto::kFloatDataFieldNumber, TensorProto::kDoubleDataFieldNumber,
                TensorProto::kInt64DataFieldNumber, TensorProto::kUint64DataFieldNumber,
                TensorProto::kStringDataFieldNumber, TensorProto::kInt32DataFieldNumber})
    if (f != except && typed_size(t, f) > 0) return true;
  return false;
}

template <class R, class F>
void join_into(std::string& out, const R& values, F&& each) {
  bool first = true;
  for (const auto& v : values) {
    if (!first) out += ", ";
    first = false;
    each(v);
  }
}

// The entries of a typed field exactly as stored.
std::string typed_entries(const TensorProto& t, int field) {
  std::string s;
  switch (field) {
    case TensorProto::kFloatDataFieldNumber:
      join_into(s, t.float_data(), [&](float v) { append_float(s, v); });
      break;
    case TensorProto::kDoubleDataFieldNumber:
      join_into(s, t.double_data(), [&](double v) { append_double(s, v); });
      break;
    case TensorProto::kInt64DataFieldNumber:
      join_into(s, t.int64_data(), [&](int64_t v) { s += std::to_string(v); });
      break;
    case TensorProto::kUint64DataFieldNumber:
      join_into(s, t.uint64_data(), [&](uint64_t v) { s += std::to_string(v); });
      break;
    case TensorProto::kStringDataFieldNumber:
      join_into(s, t.string_data(), [&](const std::string& v) { s += text_string_literal(v); });
      break;
    default:
      join_into(s, t.int32_data(), [&](int32_t v) { s += std::to_string(v); });
      break;
  }
  return s;
}

class Printer {
 public:
  Printer(const TextPrintOptions& options, std::shared_ptr<const void> owner)
      : options_(options), owner_(std::move(owner)) {}

  std::string model(const ModelProto& m);
  void graph(std::string& out, const GraphProto& g, int indent);
  std::vector<NamedTensor> take_sidecar() { return std::move(sidecar_); }

 private:
  std::string header(const ModelProto& m);
  void function(std::string& out, const FunctionProto& f);
  void training_info(std::string& out, const onnx::TrainingInfoProto& ti);
  void node(std::string& out, const NodeProto& n, int indent);
  std::string attribute(const AttributeProto& a, int indent, std::set<std::string>& seen);
  std::string attribute_value(const AttributeProto& a, int indent, Covered& cov);
  std::string graph_list(const google::protobuf::RepeatedPtrField<GraphProto>& gs, int indent);
  std::string tensor(const TensorProto& t, bool as_value);
  std::string tensor_data(const TensorProto& t, Covered& cov);
  std::string raw_data(const TensorProto& t);
  std::string typed_data(const TensorProto& t, int field);
  std::string sparse(const onnx::SparseTensorProto& s);
  std::string value_info(const ValueInfoProto& v);
  std::string type(const TypeProto& t);
  std::vector<std::string> locals(const GraphProto& g);
  std::optional<Tensor> decode(const TensorProto& t);
  bool to_sidecar(int64_t count) const {
    return !options_.sidecar_name.empty() && count > options_.inline_limit;
  }
  std::string sidecar_ref(const TensorProto& t, Tensor value);

  const TextPrintOptions& options_;
  std::shared_ptr<const void> owner_;
  std::vector<NamedTensor> sidecar_;
  std::unordered_set<std::string> members_;
};

std::optional<Tensor> Printer::decode(const TensorProto& t) {
  try {
    TensorSource src;
    src.owner = owner_;
    return tensor_from_proto(t, src);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Adds the tensor to the sidecar under a unique, archive-safe member name.
std::string Printer::sidecar_ref(const TensorProto& t, Tensor value) {
  std::string base = t.name();
  if (base.empty() || unsafe_zip_name(base + ".npy")) base = "tensor";
  std::string member = base;
  for (int k = 1; !members_.insert(member).second; ++k) member = base + "_" + std::to_string(k);
  sidecar_.push_back({member, std::move(value)});
  return "%npz " + text_string_literal(member);
}

// ---- types and values -----------------------------------------------------------------------

std::string Printer::type(const TypeProto& t) {
  return text_type_is_exact(t) ? type_to_string(t) : raw_entity("type", t);
}

std::string Printer::value_info(const ValueInfoProto& v) {
  if (!v.has_type() && !v.has_name()) return raw_entity("value_info", v);
  Covered cov;
  std::string s;
  if (v.has_type()) {
    s += type(v.type());
    cov.push_back(ValueInfoProto::kTypeFieldNumber);
  }
  if (v.has_name()) {
    s += (s.empty() ? "" : " ") + name(v.name());
    cov.push_back(ValueInfoProto::kNameFieldNumber);
  }
  return s + annotation_for(v, cov);
}

// `%raw {values}` when the bytes decode to values that encode back to the same bytes (bool
// bytes other than 0/1 and padding bits of 4/2-bit types do not), else `%raw "base64"`.
std::string Printer::raw_data(const TensorProto& t) {
  auto bytes64 = [&] { return "%raw " + text_string_literal(base64_encode(t.raw_data())); };
  if (t.data_type() == TensorProto::STRING || other_typed_fields_used(t, -1)) return bytes64();
  auto value = decode(t);
  if (!value) return bytes64();
  if (value->dtype() == DataType::boolean || is_packed(value->dtype())) {
    TensorProto back;
    tensor_to_proto(*value, back);
    if (back.raw_data() != t.raw_data()) return bytes64();
  }
  if (to_sidecar(value->numel())) return "%raw {" + sidecar_ref(t, std::move(*value)) + "}";
  std::string s = "%raw {";
  append_elements(s, *value);
  s += '}';
  return s;
}

// `{entries}` as stored; a large field goes to the sidecar when encode_typed reproduces it.
std::string Printer::typed_data(const TensorProto& t, int field) {
  if (t.data_type() != TensorProto::STRING && to_sidecar(typed_size(t, field)) &&
      !other_typed_fields_used(t, field)) {
    auto value = decode(t);
    if (value && typed_field_equals(t, *value))
      return "{" + sidecar_ref(t, std::move(*value)) + "}";
  }
  std::string s = "{";
  s += typed_entries(t, field);
  s += '}';
  return s;
}

// The data part, and the fields it covers. Official forms first: `[external refs]` for
// EXTERNAL tensors, `{...}` for the typed field; `%raw` for raw_data.
std::string Printer::tensor_data(const TensorProto& t, Covered& cov) {
  if (t.has_data_location() && t.data_location() == TensorProto::EXTERNAL &&
      pairs_exact(t.external_data())) {
    cov.push_back(TensorProto::kDataLocationFieldNumber);
    cov.push_back(TensorProto::kExternalDataFieldNumber);
    return pairs_text(t.external_data());
  }
  if (t.has_raw_data()) {
    cov.push_back(TensorProto::kRawDataFieldNumber);
    return raw_data(t);
  }
  const int field = typed_field_number(static_cast<DataType>(t.data_type()));
  cov.push_back(field);
  return typed_data(t, field);
}

// TYPE[dims] name = DATA %{rest}; as a value (attribute, sparse part) the data follows the name
// directly, as the official syntax writes tensor constants.
std::string Printer::tensor(const TensorProto& t, bool as_value) {
  if (!t.has_data_type() || !find_type_info(t.data_type())) return raw_entity("tensor", t);
  Covered cov = {TensorProto::kDimsFieldNumber, TensorProto::kDataTypeFieldNumber};
  std::string s(type_name(static_cast<DataType>(t.data_type())));
  if (t.dims_size() > 0) {
    s += '[';
    for (int i = 0; i < t.dims_size(); ++i) s += (i ? "," : "") + std::to_string(t.dims(i));
    s += ']';
  }
  if (t.has_name()) {
    s += ' ' + name(t.name());
    cov.push_back(TensorProto::kNameFieldNumber);
  }
  const std::string data = tensor_data(t, cov);
  // As a value the data follows directly, except `[external data]`, which would read as dims.
  s += as_value && data[0] != '[' ? " " : " = ";
  s += data;
  s += annotation_for(t, cov);
  return s;
}

std::string Printer::sparse(const onnx::SparseTensorProto& sp) {
  std::string s = "%sparse[";
  for (int i = 0; i < sp.dims_size(); ++i) s += (i ? "," : "") + std::to_string(sp.dims(i));
  s += "] {";
  if (sp.has_values()) s += "values: " + tensor(sp.values(), true);
  if (sp.has_indices())
    s += std::string(sp.has_values() ? ", " : "") + "indices: " + tensor(sp.indices(), true);
  using SP = onnx::SparseTensorProto;
  return s + "}" +
         annotation_for(sp,
                        {SP::kValuesFieldNumber, SP::kIndicesFieldNumber, SP::kDimsFieldNumber});
}

// ---- attributes -----------------------------------------------------------------------------

bool known_attribute_type(const AttributeProto& a) {
  return a.has_type() && a.type() != AttributeProto::UNDEFINED &&
         AttributeProto::AttributeType_IsValid(a.type());
}

// The single value (or list) the attribute's type selects is present.
bool value_present(const AttributeProto& a) {
  switch (a.type()) {
    case AttributeProto::FLOAT:
      return a.has_f();
    case AttributeProto::INT:
      return a.has_i();
    case AttributeProto::STRING:
      return a.has_s();
    case AttributeProto::TENSOR:
      return a.has_t();
    case AttributeProto::GRAPH:
      return a.has_g();
    case AttributeProto::SPARSE_TENSOR:
      return a.has_sparse_tensor();
    case AttributeProto::TYPE_PROTO:
      return a.has_tp();
    default:
      return true;  // lists: any length
  }
}

bool attribute_exact(const AttributeProto& a) {
  if (!a.has_name()) return false;
  if (a.has_ref_attr_name()) return !a.has_type() || known_attribute_type(a);
  return known_attribute_type(a) && value_present(a);
}

// Whether the value as printed lets the parser infer the type, so `: type` can be left out.
bool type_inferable(const AttributeProto& a) {
  switch (a.type()) {
    case AttributeProto::FLOAT:
      return !float_needs_hex(a.f());
    case AttributeProto::FLOATS:
      return a.floats_size() > 0 && std::none_of(a.floats().begin(), a.floats().end(),
                                                 [](float v) { return float_needs_hex(v); });
    case AttributeProto::INTS:
      return a.ints_size() > 0;
    case AttributeProto::STRINGS:
      return a.strings_size() > 0;
    case AttributeProto::TENSORS:
      return a.tensors_size() > 0;
    case AttributeProto::GRAPHS:
      return a.graphs_size() > 0;
    case AttributeProto::SPARSE_TENSORS:
      return a.sparse_tensors_size() > 0;
    case AttributeProto::TYPE_PROTOS:
      return a.type_protos_size() > 0;
    default:
      return true;
  }
}

std::string Printer::graph_list(const google::protobuf::RepeatedPtrField<GraphProto>& gs,
                                int indent) {
  std::string s = "[\n";
  for (int i = 0; i < gs.size(); ++i) {
    s += spaces(indent + 2);
    graph(s, gs.Get(i), indent + 2);
    s += i + 1 < gs.size() ? ",\n" : "\n";
  }
  return s + spaces(indent) + "]";
}

std::string Printer::attribute_value(const AttributeProto& a, int indent, Covered& cov) {
  std::string s;
  auto list = [&](int field, auto&& each, const auto& values) {
    cov.push_back(field);
    s = "[";
    join_into(s, values, each);
    return s + "]";
  };
  switch (a.type()) {
    case AttributeProto::FLOAT:
      cov.push_back(AttributeProto::kFFieldNumber);
      return format_float(a.f());
    case AttributeProto::INT:
      cov.push_back(AttributeProto::kIFieldNumber);
      return std::to_string(a.i());
    case AttributeProto::STRING:
      cov.push_back(AttributeProto::kSFieldNumber);
      return text_string_literal(a.s());
    case AttributeProto::TENSOR:
      cov.push_back(AttributeProto::kTFieldNumber);
      return tensor(a.t(), true);
    case AttributeProto::GRAPH:
      cov.push_back(AttributeProto::kGFieldNumber);
      graph(s, a.g(), indent);
      return s;
    case AttributeProto::SPARSE_TENSOR:
      cov.push_back(AttributeProto::kSparseTensorFieldNumber);
      return sparse(a.sparse_tensor());
    case AttributeProto::TYPE_PROTO:
      cov.push_back(AttributeProto::kTpFieldNumber);
      return type(a.tp());
    case AttributeProto::FLOATS:
      return list(
          AttributeProto::kFloatsFieldNumber, [&](float v) { append_float(s, v); }, a.floats());
    case AttributeProto::INTS:
      return list(
          AttributeProto::kIntsFieldNumber, [&](int64_t v) { s += std::to_string(v); }, a.ints());
    case AttributeProto::STRINGS:
      return list(
          AttributeProto::kStringsFieldNumber,
          [&](const std::string& v) { s += text_string_literal(v); }, a.strings());
    case AttributeProto::TENSORS:
      return list(
          AttributeProto::kTensorsFieldNumber, [&](const TensorProto& t) { s += tensor(t, true); },
          a.tensors());
    case AttributeProto::GRAPHS:
      cov.push_back(AttributeProto::kGraphsFieldNumber);
      return a.graphs_size() ? graph_list(a.graphs(), indent) : "[]";
    case AttributeProto::SPARSE_TENSORS:
      return list(
          AttributeProto::kSparseTensorsFieldNumber,
          [&](const onnx::SparseTensorProto& t) { s += sparse(t); }, a.sparse_tensors());
    case AttributeProto::TYPE_PROTOS:
      return list(
          AttributeProto::kTypeProtosFieldNumber, [&](const TypeProto& t) { s += type(t); },
          a.type_protos());
    default:
      throw_internal("attribute_value: unexpected attribute type");
  }
}

// name[: type] %{rest} = value. A second attribute of the same name is written whole as
// %attr{...}, since the readable form refuses duplicates.
std::string Printer::attribute(const AttributeProto& a, int indent, std::set<std::string>& seen) {
  if (!attribute_exact(a) || !seen.insert(a.name()).second) return raw_entity("attr", a);
  Covered cov = {AttributeProto::kNameFieldNumber};
  std::string head = name(a.name());
  if (a.has_type()) cov.push_back(AttributeProto::kTypeFieldNumber);
  std::string value;
  if (a.has_ref_attr_name()) {
    cov.push_back(AttributeProto::kRefAttrNameFieldNumber);
    if (a.has_type()) head += ": " + attribute_type_name(a.type());
    value = "@" + name(a.ref_attr_name());
  } else {
    if (!type_inferable(a)) head += ": " + attribute_type_name(a.type());
    value = attribute_value(a, indent, cov);
  }
  return head + annotation_for(a, cov) + " = " + value;
}

// ---- nodes and graphs -----------------------------------------------------------------------

void Printer::node(std::string& out, const NodeProto& n, int indent) {
  Covered cov = {NodeProto::kInputFieldNumber, NodeProto::kOutputFieldNumber,
                 NodeProto::kAttributeFieldNumber};
  out += spaces(indent);
  if (n.has_name()) {
    out += "[" + name(n.name()) + "] ";
    cov.push_back(NodeProto::kNameFieldNumber);
  }
  out += names(n.output()) + (n.output_size() ? " = " : "= ");
  if (!n.has_op_type()) out.pop_back();  // "= (x)": no operator
  if (n.has_op_type()) {
    cov.push_back(NodeProto::kOpTypeFieldNumber);
    if (n.has_domain() && dotted_identifiers(n.domain())) {
      out += n.domain() + ".";
      cov.push_back(NodeProto::kDomainFieldNumber);
    }
    out += is_text_identifier(n.op_type()) ? n.op_type() : text_string_literal(n.op_type());
    if (n.has_overload() && is_text_identifier(n.overload())) {
      out += ":" + n.overload();
      cov.push_back(NodeProto::kOverloadFieldNumber);
    }
  }
  const bool graphs = std::any_of(n.attribute().begin(), n.attribute().end(), has_subgraph);
  std::set<std::string> seen;
  std::vector<std::string> attrs;
  for (const auto& a : n.attribute()) attrs.push_back(attribute(a, indent + 2, seen));
  if (!graphs && !attrs.empty()) {
    out += " <";
    for (std::size_t i = 0; i < attrs.size(); ++i) out += (i ? ", " : "") + attrs[i];
    out += ">";
  }
  out += " (" + names(n.input()) + ")";
  if (graphs) {
    out += " <\n";
    for (std::size_t i = 0; i < attrs.size(); ++i)
      out += spaces(indent + 2) + attrs[i] + (i + 1 < attrs.size() ? ",\n" : "\n");
    out += spaces(indent) + ">";
  }
  out += annotation_for(n, cov) + "\n";
}

// Initializers, sparse initializers and value_info, in that order (each keeps its own order).
std::vector<std::string> Printer::locals(const GraphProto& g) {
  std::vector<std::string> items;
  std::set<std::string> names_seen;
  for (const auto& t : g.initializer()) {
    const bool duplicate = t.has_name() && !names_seen.insert(t.name()).second;
    items.push_back(duplicate ? raw_entity("tensor", t) : tensor(t, false));
  }
  for (const auto& s : g.sparse_initializer()) items.push_back(sparse(s));
  for (const auto& v : g.value_info()) items.push_back(value_info(v));
  return items;
}

void Printer::graph(std::string& out, const GraphProto& g, int indent) {
  Covered cov = {GraphProto::kNodeFieldNumber,
                 GraphProto::kInitializerFieldNumber,
                 GraphProto::kSparseInitializerFieldNumber,
                 GraphProto::kInputFieldNumber,
                 GraphProto::kOutputFieldNumber,
                 GraphProto::kValueInfoFieldNumber};
  if (g.has_name()) {
    out += name(g.name()) + " ";
    cov.push_back(GraphProto::kNameFieldNumber);
  }
  std::vector<std::string> inputs, outputs;
  for (const auto& v : g.input()) inputs.push_back(value_info(v));
  for (const auto& v : g.output()) outputs.push_back(value_info(v));
  // The signature stays on one line when it fits; otherwise both lists go one value per line.
  const bool multiline =
      spans_lines(inputs) || spans_lines(outputs) ||
      column(out) + joined_width(inputs) + joined_width(outputs) + 4 > kLineWidth;
  append_list(out, '(', inputs, ')', indent, multiline);
  out += " => ";
  append_list(out, '(', outputs, ')', indent, multiline);
  const std::vector<std::string> items = locals(g);
  if (!items.empty()) {
    out += "\n" + spaces(indent + 2);
    append_list(out, '<', items, '>', indent + 2);
    out += "\n" + spaces(indent) + "{\n";
  } else {
    out += " {\n";
  }
  for (const auto& n : g.node()) node(out, n, indent + 2);
  out += spaces(indent) + "}" + annotation_for(g, cov);
}

// ---- functions, training info, the model ----------------------------------------------------

void Printer::function(std::string& out, const FunctionProto& f) {
  if (!f.has_name()) {
    out += raw_entity("function", f) + "\n";
    return;
  }
  Covered cov = {FunctionProto::kNameFieldNumber,           FunctionProto::kInputFieldNumber,
                 FunctionProto::kOutputFieldNumber,         FunctionProto::kAttributeFieldNumber,
                 FunctionProto::kAttributeProtoFieldNumber, FunctionProto::kNodeFieldNumber,
                 FunctionProto::kValueInfoFieldNumber};
  std::vector<std::string> entries;
  auto entry = [&](int field, const std::string& text) {
    cov.push_back(field);
    entries.push_back(text);
  };
  if (f.has_domain())
    entry(FunctionProto::kDomainFieldNumber, "domain: " + text_string_literal(f.domain()));
  if (f.opset_import_size() && opsets_exact(f.opset_import()))
    entry(FunctionProto::kOpsetImportFieldNumber, "opset_import: " + opsets_text(f.opset_import()));
  if (f.has_overload())
    entry(FunctionProto::kOverloadFieldNumber, "overload: " + text_string_literal(f.overload()));
  if (f.has_doc_string())
    entry(FunctionProto::kDocStringFieldNumber,
          "doc_string: " + text_string_literal(f.doc_string()));
  const std::string rest = annotation_for(f, cov);
  if (!rest.empty()) entries.push_back(rest.substr(1));
  if (!entries.empty()) {
    out += "<\n";
    for (std::size_t i = 0; i < entries.size(); ++i)
      out += "  " + entries[i] + (i + 1 < entries.size() ? ",\n" : "\n");
    out += ">\n";
  }
  out += name(f.name());
  std::vector<std::string> attrs;
  for (const auto& a : f.attribute()) attrs.push_back(name(a));
  std::set<std::string> seen;
  for (const auto& a : f.attribute_proto()) attrs.push_back(attribute(a, 0, seen));
  if (!attrs.empty()) {
    out += " <";
    for (std::size_t i = 0; i < attrs.size(); ++i) out += (i ? ", " : "") + attrs[i];
    out += ">";
  }
  out += " (" + names(f.input()) + ") => (" + names(f.output()) + ")";
  std::vector<std::string> infos;
  for (const auto& v : f.value_info()) infos.push_back(value_info(v));
  if (!infos.empty()) {
    out += "\n  ";
    append_list(out, '<', infos, '>', 2);
    out += "\n{\n";
  } else {
    out += " {\n";
  }
  for (const auto& n : f.node()) node(out, n, 2);
  out += "}\n";
}

void Printer::training_info(std::string& out, const onnx::TrainingInfoProto& ti) {
  using TI = onnx::TrainingInfoProto;
  Covered cov;
  std::vector<std::string> entries;
  if (ti.has_initialization()) {
    std::string s = "initialization: ";
    graph(s, ti.initialization(), 2);
    entries.push_back(s);
    cov.push_back(TI::kInitializationFieldNumber);
  }
  if (ti.has_algorithm()) {
    std::string s = "algorithm: ";
    graph(s, ti.algorithm(), 2);
    entries.push_back(s);
    cov.push_back(TI::kAlgorithmFieldNumber);
  }
  if (ti.initialization_binding_size() && pairs_exact(ti.initialization_binding())) {
    entries.push_back("initialization_binding: " + pairs_text(ti.initialization_binding()));
    cov.push_back(TI::kInitializationBindingFieldNumber);
  }
  if (ti.update_binding_size() && pairs_exact(ti.update_binding())) {
    entries.push_back("update_binding: " + pairs_text(ti.update_binding()));
    cov.push_back(TI::kUpdateBindingFieldNumber);
  }
  const std::string rest = annotation_for(ti, cov);
  if (!rest.empty()) entries.push_back(rest.substr(1));
  out += "%training_info {\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    out += "  " + entries[i] + (i + 1 < entries.size() ? ",\n" : "\n");
  out += "}\n";
}

std::string Printer::header(const ModelProto& m) {
  Covered cov = {ModelProto::kGraphFieldNumber, ModelProto::kFunctionsFieldNumber,
                 ModelProto::kTrainingInfoFieldNumber};
  std::vector<std::string> entries;
  auto entry = [&](int field, const std::string& text) {
    cov.push_back(field);
    entries.push_back(text);
  };
  if (m.has_ir_version())
    entry(ModelProto::kIrVersionFieldNumber, "ir_version: " + std::to_string(m.ir_version()));
  if (m.opset_import_size() && opsets_exact(m.opset_import()))
    entry(ModelProto::kOpsetImportFieldNumber, "opset_import: " + opsets_text(m.opset_import()));
  if (m.has_producer_name())
    entry(ModelProto::kProducerNameFieldNumber,
          "producer_name: " + text_string_literal(m.producer_name()));
  if (m.has_producer_version())
    entry(ModelProto::kProducerVersionFieldNumber,
          "producer_version: " + text_string_literal(m.producer_version()));
  if (m.has_domain())
    entry(ModelProto::kDomainFieldNumber, "domain: " + text_string_literal(m.domain()));
  if (m.has_model_version())
    entry(ModelProto::kModelVersionFieldNumber,
          "model_version: " + std::to_string(m.model_version()));
  if (m.has_doc_string())
    entry(ModelProto::kDocStringFieldNumber, "doc_string: " + text_string_literal(m.doc_string()));
  if (m.metadata_props_size() && pairs_exact(m.metadata_props()))
    entry(ModelProto::kMetadataPropsFieldNumber,
          "metadata_props: " + pairs_text(m.metadata_props()));
  if (!sidecar_.empty()) entries.push_back("%npz: " + text_string_literal(options_.sidecar_name));
  const std::string rest = annotation_for(m, cov);
  if (!rest.empty()) entries.push_back(rest.substr(1));
  if (entries.empty()) return "";
  std::string s = "<\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    s += "  " + entries[i] + (i + 1 < entries.size() ? ",\n" : "\n");
  return s + ">\n";
}

std::string Printer::model(const ModelProto& m) {
  std::string body;
  if (m.has_graph())
    graph(body, m.graph(), 0);
  else
    body += "%no_graph";
  body += "\n";
  // A second function with the same identity is written whole: the readable form refuses it.
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const auto& f : m.functions()) {
    body += "\n";
    if (f.has_name() && !seen.emplace(f.domain(), f.name(), f.overload()).second)
      body += raw_entity("function", f) + "\n";
    else
      function(body, f);
  }
  for (const auto& ti : m.training_info()) {
    body += "\n";
    training_info(body, ti);
  }
  // The header names the sidecar, which is known only once the tensors are printed.
  body.insert(0, header(m));
  return body;
}

}  // namespace

bool prints_bare(const std::string& s) {
  return is_text_identifier(s) && !is_keyword(s);
}

PrintedText print_model_text(const ModelProto& model, const TextPrintOptions& options,
                             std::shared_ptr<const void> owner) {
  Printer p(options, std::move(owner));
  PrintedText out;
  out.text = p.model(model);
  out.sidecar = p.take_sidecar();
  return out;
}

std::string print_graph_text(const GraphProto& graph) {
  TextPrintOptions options;
  Printer p(options, nullptr);
  std::string out;
  p.graph(out, graph, 0);
  return out + "\n";
}

}  // namespace onnxtool::text
