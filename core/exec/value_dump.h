// SPDX-License-Identifier: Apache-2.0
// Value dumps and the sets of values `onnxtool compare` holds against each other.
//
// A dump (`run --dump-values DIR`) is one .npy per value a run produced, in DIR, and
// DIR/values.json listing them in the order they were produced:
//   {"format": "onnxtool-values", "version": 1, "model": M,
//    "values": [{"order", "name", "graph", "node", "op", "inputs", "type", "shape", "file"}]}
// "graph" is "" for the main graph, else the location of the subgraph (a Loop body's values
// come once per iteration, the same name again); "file" is null for a value that is not a
// tensor .npy can hold (a sequence, a map, none), with "skipped" saying why.
//
// A value set is what compare reads on either side: a dump, a directory of NAME.npy, an .npz,
// a backend test_data_set directory (output_K.pb, named from the model), or the outputs.json
// that ../shared/tools/ort/run_npy.mjs writes (ONNX Runtime's answer).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/observer.h"
#include "core/types/value.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace onnxtool {

// Writes each value as it is produced (nothing is held back), values.json at finish(). Files
// are named after the values, made safe and unique inside the directory; nothing is written
// outside it.
class ValueDumpWriter {
 public:
  // Creates `dir` when it does not exist. Throws Error(io) when it cannot.
  explicit ValueDumpWriter(std::filesystem::path dir);
  void add(const ProducedValue& v);
  // values.json, atomically.
  void finish(const std::string& model);
  int values() const { return static_cast<int>(records_.size()); }
  int files() const { return files_; }

 private:
  std::string file_for(const std::string& name, const std::string& graph);

  std::filesystem::path dir_;
  std::vector<std::string> records_;  // one JSON object each, in order of production
  std::map<std::string, int> taken_;  // file stem -> times used
  int files_ = 0;
};

// One value of a set.
struct SetValue {
  std::string name;
  std::string graph;   // "" for the main graph
  int occurrence = 0;  // 0 for the first value of that name in that graph, 1 for the next...
  int order = -1;      // order of production, when the set says (a dump)
  std::string node, op;
  std::vector<std::string> inputs;  // the producing node's inputs, when the set says
  std::filesystem::path file;       // .npy or .pb; empty for a member of an .npz
  std::optional<Value> held;        // loaded already (.npz members)
  std::string skipped;              // why there is no value (a dump's non-tensor)

  // "name", or "graph: name#k" for a subgraph's or a repeated value.
  std::string key() const;
};

struct ValueSet {
  std::string source;  // the path given
  std::string kind;    // "dump", "npy directory", "npz", "test data set", "run_npy outputs"
  std::vector<SetValue> values;
};

// Reads what `path` holds (see above); `model` names a test data set's outputs (nullptr: named
// output_K). Values are loaded on demand (load_value), except .npz members. Throws Error naming
// the path and what is wrong.
ValueSet read_value_set(const std::filesystem::path& path, const onnx::ModelProto* model);
Value load_value(const SetValue& v);

}  // namespace onnxtool
