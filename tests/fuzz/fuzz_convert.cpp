// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for `convert` on binary models:
//   - binary -> text -> binary and binary -> JSON -> binary give back the same bytes (the
//     printers promise an exact round trip, unknown fields included; JSON refuses those, and
//     keeps no NaN's sign or payload, so NaNs are compared as NaN there);
//   - sorting the nodes by data (--toposort) keeps every node, and a sorted model stays put when
//     sorted again;
//   - a model that checks clean converts one to three opsets down or up as `convert --opset`
//     does, and what a conversion writes checks clean (convert refuses nodes it cannot take; an
//     invalid result is onnxtool's bug).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/convert/ir_version.h"
#include "core/convert/opset_convert.h"
#include "core/convert/value_info.h"
#include "core/diag/error.h"
#include "core/exec/function_body.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/ir/order.h"
#include "core/registry/registry.h"
#include "core/text/json.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "tests/fuzz/fuzz_support.h"

using namespace onnxtool;

namespace {

namespace pb = google::protobuf;

// Every NaN in a float or double field made the one quiet NaN: JSON writes each NaN as "NaN", a
// limit of the mapping that core/text/json.h documents.
void canonical_nans(pb::Message& m) {
  const pb::Reflection* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      switch (f->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_FLOAT: {
          const float v = f->is_repeated() ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f);
          if (!std::isnan(v)) break;
          const float q = std::numeric_limits<float>::quiet_NaN();
          f->is_repeated() ? r->SetRepeatedFloat(&m, f, i, q) : r->SetFloat(&m, f, q);
          break;
        }
        case pb::FieldDescriptor::CPPTYPE_DOUBLE: {
          const double v = f->is_repeated() ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f);
          if (!std::isnan(v)) break;
          const double q = std::numeric_limits<double>::quiet_NaN();
          f->is_repeated() ? r->SetRepeatedDouble(&m, f, i, q) : r->SetDouble(&m, f, q);
          break;
        }
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
          canonical_nans(f->is_repeated() ? *r->MutableRepeatedMessage(&m, f, i)
                                          : *r->MutableMessage(&m, f));
          break;
        default:
          break;
      }
    }
  }
}

// Through text and through JSON, as convert writes and reads them; a writer's refusal (a
// tensor whose bytes do not match its type, a string JSON cannot carry) is allowed.
void round_trips(const onnx::ModelProto& model) {
  try {
    fuzz::expect_text_round_trip(model);
  } catch (const Error&) {
  }
  try {
    fuzz::expect_round_trip(
        model, "JSON", [](const onnx::ModelProto& m) { return text::model_to_json(m); },
        [](const std::string& j, onnx::ModelProto& back) {
          text::model_from_json(j, "printed.json", back);
        },
        [](onnx::ModelProto& m) { canonical_nans(m); });
  } catch (const Error&) {
  }
}

int node_count(const onnx::ModelProto& model) {
  return model.graph().node_size();
}

void sort_twice(const onnx::ModelProto& model) {
  onnx::ModelProto sorted = model;
  const NodeSortReport first = sort_model_nodes(sorted);
  if (node_count(sorted) != node_count(model)) fuzz::fail("--toposort lost or added nodes");
  if (!first.cycles.empty()) return;
  const std::string once = fuzz::deterministic_bytes(sorted);
  const NodeSortReport second = sort_model_nodes(sorted);
  if (second.graphs_reordered != 0 || fuzz::deterministic_bytes(sorted) != once)
    fuzz::fail("sorting a sorted model moved its nodes");
}

// The steps of `convert --opset V` (app/cmd_convert.cpp) on a model that checks clean.
void convert_to(const Model& original, int64_t target) {
  Model m = original;
  m.proto = std::make_shared<onnx::ModelProto>(*original.proto);
  DiagSink infer_sink;
  const InferResult types = infer_model(m, {}, infer_sink);
  convert::Options co;
  co.targets[""] = target;
  co.parse_body = default_function_body_parser();
  co.type_of = [&types](const std::string& name) -> const Type* {
    const ValueRecord* r = types.find(name);
    return r ? &r->type : nullptr;
  };
  ir::ModelGraph graph = ir::ModelGraph::from_proto(*m.proto);
  const convert::Report report = convert::convert_opsets(graph, Registry::standard(), co);
  if (!report.ok()) return;
  onnx::ModelProto converted = graph.to_proto();
  bool went_down = false;
  for (const auto& d : report.domains) went_down = went_down || d.to < d.from;
  if (!convert::restamp_ir(converted, std::nullopt, went_down, m.name).empty()) return;
  *m.proto = std::move(converted);
  (void)convert::refresh_value_info(m);
  const std::vector<Diagnostic> broken = convert::check_errors(*m.proto, m.name);
  if (!broken.empty())
    fuzz::fail("converting to opset " + std::to_string(target) + " made an invalid model",
               broken.front().message + "\n" + text::print_model_text(*m.proto).text);
}

int64_t default_opset(const onnx::ModelProto& model) {
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  DiagSink sink;
  const std::optional<Model> model = fuzz::load_binary(data, size, sink);
  if (!model) return 0;
  round_trips(*model->proto);
  try {
    sort_twice(*model->proto);
    const int64_t opset = default_opset(*model->proto);
    if (opset <= 0 || !convert::check_errors(*model->proto, model->name).empty()) return 0;
    // The direction and the step come from the input's size, so that the corpus covers near
    // and far targets both ways (one conversion per input keeps the fuzzer fast).
    const int64_t step = 1 + static_cast<int64_t>(size / 2 % 3);
    convert_to(*model, size % 2 == 0 ? opset - step : opset + step);
  } catch (const Error&) {
    // refusals (an opset that does not exist, a node that cannot be converted) are allowed
  }
  return 0;
}
