// SPDX-License-Identifier: Apache-2.0
// binary -> text -> binary and binary -> JSON -> binary are exact for any ModelProto, not only for
// the ones exporters write: random messages set every field of every message type (with empty,
// odd and keyword-like strings, NaN payloads, unknown element types, inconsistent tensors), and
// tensors of every element type go inline, to the sidecar, and to and from both storage forms.
#include <doctest/doctest.h>
#include <google/protobuf/descriptor.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "core/diag/error.h"
#include "core/text/json.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/text/values.h"
#include "core/types/float_formats.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace pb = google::protobuf;

namespace {

// Fills every field of a message at random, recursing into sub-messages up to a depth.
class RandomFiller {
 public:
  // json: only what protobuf's JSON mapping can carry (UTF-8 strings, NaN without sign or
  // payload).
  RandomFiller(uint32_t seed, bool json) : rng_(seed), json_(json) {}

  void fill(pb::Message& m, int depth) {
    const pb::Descriptor* d = m.GetDescriptor();
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* f = d->field(i);
      if (rng_() % 3 == 0) continue;  // leave some fields absent
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE && depth <= 0) continue;
      if (f->is_repeated()) {
        const int n = static_cast<int>(rng_() % 3);
        for (int k = 0; k < n; ++k) add(m, f, depth);
      } else {
        set(m, f, depth);
      }
    }
  }

 private:
  int64_t integer() {
    static constexpr int64_t kValues[] = {0,
                                          1,
                                          -1,
                                          7,
                                          17,
                                          255,
                                          65535,
                                          -129,
                                          1LL << 40,
                                          std::numeric_limits<int64_t>::min(),
                                          std::numeric_limits<int64_t>::max()};
    return kValues[rng_() % std::size(kValues)];
  }
  double real() {
    static const double kValues[] = {0.0,
                                     -0.0,
                                     1.5,
                                     -2.25,
                                     1e-40,
                                     3.4028234663852886e38,
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     -std::numeric_limits<double>::quiet_NaN(),
                                     std::bit_cast<double>(0x7ff0000000000123ull),
                                     0.1};
    const double v = kValues[rng_() % std::size(kValues)];
    return json_ && std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v;
  }
  float real32() {
    if (!json_ && rng_() % 6 == 0) return std::bit_cast<float>(0xffc00001u);  // NaN, payload
    return static_cast<float>(real());
  }
  std::string text() {
    static const char* kValues[] = {"",           "x", "a b",         "float",       "nan",
                                    "seq",        "0", "caf\xc3\xa9", "line\nbreak", "q\"uote\\",
                                    "%{x}",       "}", "#hash",       "\t",          "ai.onnx",
                                    "com.example"};
    if (!json_ && rng_() % 8 == 0) return std::string("\xff\xfe", 2);
    return kValues[rng_() % std::size(kValues)];
  }
  int enum_value(const pb::FieldDescriptor* f) {
    const pb::EnumDescriptor* e = f->enum_type();
    return e->value(static_cast<int>(rng_() % static_cast<uint32_t>(e->value_count())))->number();
  }
  int32_t int32_for(const pb::FieldDescriptor* f) {
    // Element types: mostly valid ones, sometimes 0 or an unknown number.
    if (f->name() == "data_type" || f->name() == "elem_type" || f->name() == "key_type") {
      const uint32_t r = rng_() % 30;
      return r < 27 ? static_cast<int32_t>(r) : 99;
    }
    return static_cast<int32_t>(integer());
  }

  void set(pb::Message& m, const pb::FieldDescriptor* f, int depth) {
    const pb::Reflection* r = m.GetReflection();
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        return r->SetInt32(&m, f, int32_for(f));
      case pb::FieldDescriptor::CPPTYPE_INT64:
        return r->SetInt64(&m, f,
                           f->name() == "dims" ? static_cast<int64_t>(rng_() % 4) : integer());
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        return r->SetUInt32(&m, f, static_cast<uint32_t>(integer()));
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        return r->SetUInt64(&m, f, static_cast<uint64_t>(integer()));
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return r->SetFloat(&m, f, real32());
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return r->SetDouble(&m, f, real());
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        return r->SetBool(&m, f, rng_() % 2);
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        return r->SetEnumValue(&m, f, enum_value(f));
      case pb::FieldDescriptor::CPPTYPE_STRING:
        return r->SetString(&m, f, text());
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return fill(*r->MutableMessage(&m, f), depth - 1);
    }
  }
  void add(pb::Message& m, const pb::FieldDescriptor* f, int depth) {
    const pb::Reflection* r = m.GetReflection();
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        return r->AddInt32(&m, f, int32_for(f));
      case pb::FieldDescriptor::CPPTYPE_INT64:
        return r->AddInt64(&m, f,
                           f->name() == "dims" ? static_cast<int64_t>(rng_() % 4) : integer());
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        return r->AddUInt32(&m, f, static_cast<uint32_t>(integer()));
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        return r->AddUInt64(&m, f, static_cast<uint64_t>(integer()));
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return r->AddFloat(&m, f, real32());
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return r->AddDouble(&m, f, real());
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        return r->AddBool(&m, f, rng_() % 2);
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        return r->AddEnumValue(&m, f, enum_value(f));
      case pb::FieldDescriptor::CPPTYPE_STRING:
        return r->AddString(&m, f, text());
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return fill(*r->AddMessage(&m, f), depth - 1);
    }
  }

  std::mt19937 rng_;
  bool json_;
};

onnx::ModelProto via_text(const onnx::ModelProto& m, int64_t inline_limit,
                          std::string* text_out = nullptr) {
  text::TextPrintOptions po;
  po.inline_limit = inline_limit;
  po.sidecar_name = "m.npz";
  const text::PrintedText printed = text::print_model_text(m, po);
  if (text_out) *text_out = printed.text;
  const std::string npz = serialize_npz(printed.sidecar, false);
  text::TextParseOptions opt;
  opt.load_sidecar = [&](const std::string& name) { return parse_npz(npz, name); };
  onnx::ModelProto back;
  text::parse_model_text(printed.text, back, opt);
  return back;
}

void check_text_round_trip(const onnx::ModelProto& m, int64_t inline_limit) {
  std::string text, diff;
  onnx::ModelProto back;
  try {
    back = via_text(m, inline_limit, &text);
  } catch (const Error& e) {
    FAIL_CHECK("the printed text does not parse: " << e.what() << "\n" << text);
    return;
  }
  const bool same = exactly_equal(m, back, &diff);
  CHECK_MESSAGE(same, diff << "\n" << text);
}

}  // namespace

TEST_CASE("random messages with every field set survive text exactly") {
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    onnx::ModelProto m;
    RandomFiller(seed, false).fill(m, 5);
    check_text_round_trip(m, 64);
    check_text_round_trip(m, 0);  // every tensor that can goes to the sidecar
  }
}

TEST_CASE("random messages within the JSON mapping survive JSON exactly") {
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    onnx::ModelProto m;
    RandomFiller(seed, true).fill(m, 5);
    onnx::ModelProto back;
    text::model_from_json(text::model_to_json(m), "m.json", back);
    std::string diff;
    CHECK_MESSAGE(exactly_equal(m, back, &diff), diff);
  }
}

namespace {

// A tensor of `type` with values spread over the type's range, specials included.
Tensor sample_tensor(DataType type, int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  if (type == DataType::string) {
    std::vector<std::string> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(i % 3 ? "s" + std::to_string(i) : "");
    return Tensor::from_strings({n}, v);
  }
  Tensor t(type, {n});
  auto* bytes = t.mutable_data<uint8_t>();
  const std::size_t size = t.nbytes();
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(rng());
  // Keep every element a valid value of its type: bools 0/1, sub-byte values in range.
  if (type == DataType::boolean)
    for (std::size_t i = 0; i < size; ++i) bytes[i] &= 1;
  if (is_packed(type)) {
    const int bits = type_info(type).bits;
    const bool is_signed = type_info(type).cls == TypeClass::signed_int;
    for (std::size_t i = 0; i < size; ++i) {
      int v = bytes[i] & ((1 << bits) - 1);
      if (is_signed && v >= (1 << (bits - 1))) v -= 1 << bits;
      bytes[i] = static_cast<uint8_t>(v);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("tensors of every element type print exactly, inline and in the sidecar") {
  for (const auto& info : all_type_infos()) {
    CAPTURE(info.name);
    onnx::ModelProto m;
    m.set_ir_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g");
    for (int64_t n : {0, 1, 5, 300}) {
      const Tensor t = sample_tensor(info.type, n, static_cast<uint32_t>(n) + 7);
      onnx::TensorProto raw;
      tensor_to_proto(t, raw);
      raw.set_name(std::string(info.name) + "_raw_" + std::to_string(n));
      *g->add_initializer() = raw;
      onnx::TensorProto typed;
      text::encode_typed(t, typed);
      for (int64_t d : t.shape()) typed.add_dims(d);
      typed.set_name(std::string(info.name) + "_typed_" + std::to_string(n));
      *g->add_initializer() = typed;
      auto* node = g->add_node();
      node->set_op_type("Constant");
      auto* a = node->add_attribute();
      a->set_name("value");
      a->set_type(onnx::AttributeProto::TENSOR);
      *a->mutable_t() = raw;
    }
    check_text_round_trip(m, 64);
    check_text_round_trip(m, 0);
    check_text_round_trip(m, INT64_MAX);
  }
}

TEST_CASE("every bit pattern of the 8- and 16-bit float types prints and parses back") {
  for (DataType type : {DataType::float16, DataType::bfloat16, DataType::float8e4m3fn,
                        DataType::float8e4m3fnuz, DataType::float8e5m2, DataType::float8e5m2fnuz,
                        DataType::float8e8m0, DataType::float4e2m1}) {
    CAPTURE(type_name(type));
    const int bits = type_info(type).bits;
    const int64_t n = int64_t{1} << bits;
    Tensor t(type, {n});
    for (int64_t i = 0; i < n; ++i) {
      if (bits == 16)
        t.mutable_data<uint16_t>()[i] = static_cast<uint16_t>(i);
      else
        t.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(i);
    }
    onnx::ModelProto m;
    auto* init = m.mutable_graph()->add_initializer();
    tensor_to_proto(t, *init);
    init->set_name("all");
    check_text_round_trip(m, INT64_MAX);
  }
}

TEST_CASE("bytes the values cannot show stay exact as base64") {
  onnx::ModelProto m;
  auto* g = m.mutable_graph();
  auto* b = g->add_initializer();  // a bool byte that is neither 0 nor 1
  b->set_name("b");
  b->set_data_type(onnx::TensorProto::BOOL);
  b->add_dims(2);
  b->set_raw_data(std::string("\x01\x02", 2));
  auto* p = g->add_initializer();  // padding bits set in the last int4 byte
  p->set_name("p");
  p->set_data_type(onnx::TensorProto::INT4);
  p->add_dims(3);
  p->set_raw_data(std::string("\x21\xf3", 2));
  auto* s = g->add_initializer();  // raw_data whose size does not fit the dims
  s->set_name("s");
  s->set_data_type(onnx::TensorProto::FLOAT);
  s->add_dims(2);
  s->set_raw_data("abc");
  std::string text;
  via_text(m, 64, &text);
  CHECK(text.find("%raw \"AQI=\"") != std::string::npos);
  check_text_round_trip(m, 64);
}

TEST_CASE("fields of a newer onnx.proto (unknown here) survive the text form as bytes") {
  onnx::ModelProto m = [] {
    onnx::ModelProto p;
    p.set_ir_version(99);
    auto* g = p.mutable_graph();
    g->set_name("g");
    auto* n = g->add_node();
    n->set_op_type("Relu");
    auto* in = g->add_input();
    in->set_name("x");
    in->mutable_type()->mutable_tensor_type()->set_elem_type(1);
    auto* o = p.add_opset_import();
    o->set_version(21);
    return p;
  }();
  m.mutable_unknown_fields()->AddVarint(1000, 7);
  m.mutable_graph()->mutable_unknown_fields()->AddLengthDelimited(1001, "graph");
  m.mutable_graph()->mutable_node(0)->mutable_unknown_fields()->AddFixed32(1002, 3);
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_unknown_fields()->AddVarint(1003, 1);
  m.mutable_opset_import(0)->mutable_unknown_fields()->AddVarint(1004, 2);
  std::string text;
  via_text(m, 64, &text);
  CHECK(text.find("%{\"") != std::string::npos);  // carried as base64 bytes
  check_text_round_trip(m, 64);
}
