// SPDX-License-Identifier: Apache-2.0
#include "core/types/value.h"

#include <cstring>

#include "core/diag/error.h"
#include "core/types/tensor_proto.h"
#include "core/util/mapped_file.h"
#include "onnx.pb.h"
#include "onnx_data.pb.h"

namespace onnxtool {

Value::Value(Tensor t) : kind_(Kind::tensor), tensor_(std::move(t)) {}

Value Value::sequence(std::vector<Value> items, DataType elem_type) {
  Value v;
  v.kind_ = Kind::sequence;
  if (elem_type == DataType::undefined)
    for (const auto& item : items)
      if (item.is_tensor()) elem_type = item.tensor().dtype();
  v.seq_elem_ = elem_type;
  v.items_ = std::make_shared<const std::vector<Value>>(std::move(items));
  return v;
}

Value Value::map(Tensor keys, Tensor values) {
  Value v;
  v.kind_ = Kind::map;
  v.tensor_ = std::move(keys);
  v.map_values_ = std::move(values);
  return v;
}

const std::vector<Value>& Value::items() const {
  static const std::vector<Value> kEmpty;
  return items_ ? *items_ : kEmpty;
}

std::string Value::describe() const {
  auto tensor_text = [](const Tensor& t) {
    return "tensor(" + std::string(type_name(t.dtype())) + ")" + shape_to_string(t.shape());
  };
  switch (kind_) {
    case Kind::none:
      return "none";
    case Kind::tensor:
      return tensor_text(tensor_);
    case Kind::sequence:
      return "seq(tensor(" + std::string(type_name(seq_elem_)) + ")) of " +
             std::to_string(items().size());
    case Kind::map:
      return "map(" + std::string(type_name(tensor_.dtype())) + "," +
             std::string(type_name(map_values_.dtype())) + ") of " +
             std::to_string(tensor_.numel());
  }
  return "none";
}

namespace {

// A map's values arrive as a sequence of tensors (one per key, or one 1-D tensor).
Tensor stack_map_values(const Value& seq, const std::string& where) {
  const auto& items = seq.items();
  if (items.size() == 1 && items[0].is_tensor() && items[0].tensor().rank() == 1)
    return items[0].tensor();
  if (items.empty()) return Tensor(DataType::float32, {0});
  const DataType t = items[0].tensor().dtype();
  Tensor out(t, {static_cast<int64_t>(items.size())});
  const std::size_t width = static_cast<std::size_t>(type_info(t).mem_bytes);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Tensor& x = items[i].tensor();
    if (!items[i].is_tensor() || x.numel() != 1 || x.dtype() != t)
      throw_invalid("value.bad-map", where, "", "map values must be scalars of one type");
    if (t == DataType::string)
      out.mutable_strings()[i] = x.strings()[0];
    else
      std::memcpy(out.mutable_raw() + i * width, x.raw(), width);
  }
  return out;
}

}  // namespace

Value value_from_proto(const onnx::SequenceProto& p) {
  std::vector<Value> items;
  DataType elem = DataType::undefined;
  switch (p.elem_type()) {
    case onnx::SequenceProto::TENSOR:
      for (const auto& t : p.tensor_values()) {
        Tensor x = tensor_from_proto(t);
        elem = x.dtype();
        items.emplace_back(std::move(x));
      }
      break;
    case onnx::SequenceProto::SEQUENCE:
      for (const auto& s : p.sequence_values()) items.push_back(value_from_proto(s));
      break;
    case onnx::SequenceProto::MAP:
      for (const auto& m : p.map_values()) items.push_back(value_from_proto(m));
      break;
    case onnx::SequenceProto::OPTIONAL:
      for (const auto& o : p.optional_values()) items.push_back(value_from_proto(o));
      break;
    default:
      if (p.tensor_values_size() == 0 && p.sequence_values_size() == 0) break;
      throw_invalid("value.unsupported", "", "",
                    "sequence element type " + std::to_string(p.elem_type()) + " is not supported");
  }
  return Value::sequence(std::move(items), elem);
}

Value value_from_proto(const onnx::MapProto& p) {
  Tensor keys;
  if (p.key_type() == onnx::TensorProto::STRING) {
    keys = Tensor::from_strings({p.string_keys_size()},
                                {p.string_keys().begin(), p.string_keys().end()});
  } else {
    keys = Tensor::from_vector<int64_t>({p.keys_size()}, {p.keys().begin(), p.keys().end()});
  }
  Tensor values = stack_map_values(value_from_proto(p.values()), p.name());
  return Value::map(std::move(keys), std::move(values));
}

Value value_from_proto(const onnx::OptionalProto& p) {
  switch (p.elem_type()) {
    case onnx::OptionalProto::TENSOR:
      if (p.has_tensor_value()) return Value(tensor_from_proto(p.tensor_value()));
      break;
    case onnx::OptionalProto::SEQUENCE:
      if (p.has_sequence_value()) return value_from_proto(p.sequence_value());
      break;
    case onnx::OptionalProto::MAP:
      if (p.has_map_value()) return value_from_proto(p.map_value());
      break;
    case onnx::OptionalProto::OPTIONAL:
      if (p.has_optional_value()) return value_from_proto(p.optional_value());
      break;
    default:
      break;
  }
  return Value();
}

Value read_value_pb(const std::string& path, const std::string& hint) {
  auto file = MappedFile::open(path);
  const auto bytes = file->view();
  const int n = static_cast<int>(bytes.size());
  auto bad = [&](const char* what) {
    throw_invalid("value.bad-pb", path, "", std::string("cannot parse as a ") + what);
  };
  try {
    if (hint == "sequence") {
      onnx::SequenceProto p;
      if (!p.ParseFromArray(bytes.data(), n)) bad("SequenceProto");
      return value_from_proto(p);
    }
    if (hint == "map") {
      onnx::MapProto p;
      if (!p.ParseFromArray(bytes.data(), n)) bad("MapProto");
      return value_from_proto(p);
    }
    if (hint == "optional") {
      onnx::OptionalProto p;
      if (!p.ParseFromArray(bytes.data(), n)) bad("OptionalProto");
      return value_from_proto(p);
    }
    auto proto = std::make_shared<onnx::TensorProto>();
    if (!proto->ParseFromArray(bytes.data(), n)) bad("TensorProto");
    TensorSource src;
    src.owner = proto;
    src.file = path;
    return Value(tensor_from_proto(*proto, src));
  } catch (const Error& e) {
    throw e.with_file(path);
  }
}

}  // namespace onnxtool
