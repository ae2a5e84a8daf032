// SPDX-License-Identifier: Apache-2.0
#include "app/cli_trace.h"

#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/util/atomic_file.h"
#include "core/version.h"

namespace onnxtool::app {

namespace {

// A JSON string (quoted and escaped).
std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump();
}

// Microseconds, the unit of the format, to the nanosecond.
std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1000.0);
  return buf;
}

// The node's label, made once: its location names the graph, the node and its operator.
struct NodeLabel {
  std::string name, args;  // both JSON
};

std::vector<NodeLabel> node_labels(const std::vector<NodeProfile>& nodes) {
  std::vector<NodeLabel> labels;
  labels.reserve(nodes.size());
  for (const auto& n : nodes) labels.push_back({quoted(n.location), "\"op\":" + quoted(n.op_type)});
  return labels;
}

std::string metadata(const char* what, int tid, const std::string& name) {
  return std::string("{\"ph\":\"M\",\"pid\":1,\"tid\":") + std::to_string(tid) + ",\"name\":\"" +
         what + "\",\"args\":{\"name\":" + quoted(name) + "}}";
}

// One complete event ("X"): a run, a node, or a chunk of a node's loop.
std::string event(const TraceSpan& s, const std::vector<NodeLabel>& labels, int64_t run) {
  const bool is_node = s.node >= 0 && static_cast<std::size_t>(s.node) < labels.size();
  std::string e = "{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(s.thread) +
                  ",\"ts\":" + micros(s.begin_ns) + ",\"dur\":" + micros(s.end_ns - s.begin_ns) +
                  ",";
  if (!is_node) return e + "\"cat\":\"run\",\"name\":\"run " + std::to_string(run) + "\"}";
  const NodeLabel& label = labels[static_cast<std::size_t>(s.node)];
  e += std::string("\"cat\":\"") + (s.chunk ? "chunk" : "node") + "\",\"name\":" + label.name +
       ",\"args\":{" + label.args;
  if (s.chunk)
    e += ",\"items\":[" + std::to_string(s.first_item) + "," + std::to_string(s.end_item) + "]";
  return e + "}}";
}

}  // namespace

TraceSummary write_profile_trace(const Session& session, const std::string& model_name,
                                 const std::filesystem::path& target) {
  const std::vector<TraceSpan> spans = session.trace();
  const std::vector<NodeLabel> labels = node_labels(session.profile());
  TraceSummary summary{spans.size(), session.trace_truncated()};
  std::string out =
      "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tool\":" +
      quoted("onnxtool " + std::string(kOnnxtoolVersion)) + ",\"model\":" + quoted(model_name) +
      ",\"threads\":" + std::to_string(session.threads()) +
      ",\"truncated\":" + (summary.truncated ? "true" : "false") + "},\n\"traceEvents\":[\n";
  out += metadata("process_name", 0, "onnxtool run " + model_name);
  for (int t = 0; t < session.threads(); ++t)
    out += ",\n" + metadata("thread_name", t,
                            t == 0 ? std::string("calling thread") : "worker " + std::to_string(t));
  int64_t runs = 0;
  for (const auto& s : spans) out += ",\n" + event(s, labels, s.node < 0 ? ++runs : runs);
  out += "\n]}\n";
  write_file_atomically(target, out);
  return summary;
}

}  // namespace onnxtool::app
