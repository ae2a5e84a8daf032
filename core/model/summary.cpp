// SPDX-License-Identifier: Apache-2.0
#include "core/model/summary.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/ir/type_text.h"
#include "core/ir/walk.h"
#include "core/types/dtype.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

std::string first_line(const std::string& s) {
  auto end = s.find('\n');
  std::string line = s.substr(0, end);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

uint64_t stored_bytes(const onnx::TensorProto& t) {
  if (t.data_type() == onnx::TensorProto::STRING) {
    uint64_t n = 0;
    for (const auto& s : t.string_data()) n += s.size();
    return n;
  }
  return expected_wire_bytes(t).value_or(0);
}

void summarize_header(const onnx::ModelProto& p, ModelSummary& s) {
  s.ir_version = p.ir_version();
  for (const auto& o : p.opset_import()) s.opset_import.push_back({o.domain(), o.version()});
  s.producer_name = p.producer_name();
  s.producer_version = p.producer_version();
  s.domain = p.domain();
  s.model_version = p.model_version();
  s.doc_string = first_line(p.doc_string());
  for (const auto& kv : p.metadata_props()) s.metadata_props.emplace_back(kv.key(), kv.value());
  s.graph_name = p.graph().name();
  s.training_info = p.training_info_size();
  for (const auto& c : p.configuration())
    s.device_configurations.push_back(
        {c.name(), c.num_devices(), {c.device().begin(), c.device().end()}});
}

void summarize_interface(const onnx::GraphProto& g, ModelSummary& s) {
  std::set<std::string> init_names;
  for (const auto& t : g.initializer()) init_names.insert(t.name());
  for (const auto& v : g.input())
    s.inputs.push_back({v.name(), type_to_string(v.type()), init_names.count(v.name()) > 0});
  for (const auto& v : g.output()) s.outputs.push_back({v.name(), type_to_string(v.type()), false});
  s.value_info = g.value_info_size();
}

void summarize_weights(const Model& m, ModelSummary& s) {
  const auto& g = m.proto->graph();
  std::map<int32_t, ModelSummary::TypeBytes> by_type;
  for (const auto& t : g.initializer()) {
    const uint64_t elements = static_cast<uint64_t>(
        element_count(std::vector<int64_t>(t.dims().begin(), t.dims().end())).value_or(0));
    const uint64_t bytes = stored_bytes(t);
    auto& row = by_type[t.data_type()];
    row.type = type_name_or_number(t.data_type());
    row.tensors += 1;
    row.elements += elements;
    row.bytes += bytes;
    s.parameters += elements;
    s.initializer_bytes += bytes;
  }
  s.initializers = g.initializer_size();
  s.sparse_initializers = g.sparse_initializer_size();
  for (auto& [type, row] : by_type) s.bytes_by_type.push_back(row);
  std::stable_sort(s.bytes_by_type.begin(), s.bytes_by_type.end(),
                   [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  // External tensors anywhere in the model (initializers of subgraphs too), and the weights
  // that sit in node attributes.
  for_each_tensor(*m.proto, [&](const onnx::TensorProto& t, const std::string&, TensorRole role) {
    if (role == TensorRole::attribute) {
      s.constant_tensors += 1;
      s.constant_parameters += static_cast<uint64_t>(
          element_count(std::vector<int64_t>(t.dims().begin(), t.dims().end())).value_or(0));
      s.constant_bytes += stored_bytes(t);
    }
    if (t.data_location() != onnx::TensorProto::EXTERNAL) return;
    s.external_tensors += 1;
    s.external_bytes += stored_bytes(t);
  });
  if (m.external) s.external_files = m.external->file_uses();
}

void summarize_nodes(const onnx::ModelProto& p, ModelSummary& s) {
  s.nodes_top_level = p.graph().node_size();
  std::map<std::pair<std::string, std::string>, int64_t> histogram;
  for_each_graph(p, [&](const GraphVisit& v) {
    if (v.depth > 0) s.subgraphs += 1;
    s.max_subgraph_depth = std::max<int64_t>(s.max_subgraph_depth, v.depth);
    s.nodes_total += v.graph.node_size();
    for (const auto& n : v.graph.node())
      histogram[{n.domain() == "ai.onnx" ? "" : n.domain(), n.op_type()}] += 1;
  });
  for (const auto& [key, count] : histogram)
    s.op_histogram.push_back({key.first, key.second, count});
  std::stable_sort(s.op_histogram.begin(), s.op_histogram.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  for (const auto& f : p.functions())
    s.functions.push_back({f.name(), f.domain(), f.overload(), f.node_size()});
}

}  // namespace

ModelSummary summarize(const Model& m) {
  ModelSummary s;
  s.file = m.name;
  s.file_size = m.file_size;
  summarize_header(*m.proto, s);
  summarize_interface(m.proto->graph(), s);
  summarize_weights(m, s);
  summarize_nodes(*m.proto, s);
  return s;
}

nlohmann::json to_json(const ModelSummary& s) {
  using nlohmann::json;
  json opsets = json::array();
  for (const auto& o : s.opset_import)
    opsets.push_back({{"domain", o.domain.empty() ? "ai.onnx" : o.domain}, {"version", o.version}});
  json metadata = json::object();
  for (const auto& [k, v] : s.metadata_props) metadata[k] = v;
  auto values = [](const std::vector<ModelSummary::Value>& vs, bool inputs) {
    json arr = json::array();
    for (const auto& v : vs) {
      json j = {{"name", v.name}, {"type", v.type}};
      if (inputs) j["initializer"] = v.is_initializer;
      arr.push_back(j);
    }
    return arr;
  };
  json by_type = json::array();
  for (const auto& r : s.bytes_by_type)
    by_type.push_back(
        {{"type", r.type}, {"tensors", r.tensors}, {"elements", r.elements}, {"bytes", r.bytes}});
  json files = json::array();
  for (const auto& f : s.external_files)
    files.push_back({{"location", f.location},
                     {"file_size", f.file_size},
                     {"tensors", f.tensors},
                     {"bytes", f.bytes}});
  json ops = json::array();
  for (const auto& o : s.op_histogram)
    ops.push_back({{"domain", o.domain.empty() ? "ai.onnx" : o.domain},
                   {"op_type", o.op_type},
                   {"count", o.count}});
  json fns = json::array();
  for (const auto& f : s.functions)
    fns.push_back(
        {{"name", f.name}, {"domain", f.domain}, {"overload", f.overload}, {"nodes", f.nodes}});
  json devices = json::array();
  for (const auto& d : s.device_configurations)
    devices.push_back({{"name", d.name}, {"num_devices", d.num_devices}, {"devices", d.devices}});
  return {
      {"file", s.file},
      {"file_size", s.file_size},
      {"ir_version", s.ir_version},
      {"opset_import", opsets},
      {"producer_name", s.producer_name},
      {"producer_version", s.producer_version},
      {"domain", s.domain},
      {"model_version", s.model_version},
      {"doc_string", s.doc_string},
      {"metadata_props", metadata},
      {"graph_name", s.graph_name},
      {"inputs", values(s.inputs, true)},
      {"outputs", values(s.outputs, false)},
      {"value_info", s.value_info},
      {"initializers",
       {{"count", s.initializers},
        {"sparse_count", s.sparse_initializers},
        {"parameters", s.parameters},
        {"bytes", s.initializer_bytes},
        {"by_type", by_type},
        {"external",
         {{"tensors", s.external_tensors}, {"bytes", s.external_bytes}, {"files", files}}}}},
      {"constants",
       {{"tensors", s.constant_tensors},
        {"parameters", s.constant_parameters},
        {"bytes", s.constant_bytes}}},
      {"nodes",
       {{"top_level", s.nodes_top_level},
        {"total", s.nodes_total},
        {"subgraphs", s.subgraphs},
        {"max_subgraph_depth", s.max_subgraph_depth},
        {"op_histogram", ops}}},
      {"functions", fns},
      {"training_info", s.training_info},
      {"device_configurations", devices},
  };
}

}  // namespace onnxtool
