// SPDX-License-Identifier: Apache-2.0
#include "core/exec/value_dump.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/diag/error.h"
#include "core/exec/run_io.h"
#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/util/atomic_file.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// ---- writing --------------------------------------------------------------------------------

namespace {

constexpr const char* kDumpFormat = "onnxtool-values";
constexpr int kDumpVersion = 1;
// File stems are cut to this many bytes (a file name may hold 255), before the ~N that keeps
// them unique.
constexpr std::size_t kMaxStem = 120;

Json shape_json(const Shape& s) {
  Json j = Json::array();
  for (int64_t d : s) j.push_back(d);
  return j;
}

}  // namespace

ValueDumpWriter::ValueDumpWriter(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw_io("run.dump-dir", dir_.string(),
             "cannot create the directory for --dump-values: " +
                 (ec ? ec.message() : std::string("not a directory")));
}

std::string ValueDumpWriter::file_for(const std::string& name, const std::string& graph) {
  std::string stem = safe_file_name(name.empty() ? "value" : name);
  // A subgraph's values come after the main graph's of the same name.
  if (!graph.empty()) stem = "sub_" + stem;
  if (stem.size() > kMaxStem) stem.resize(kMaxStem);
  const int used = taken_[stem]++;
  return used == 0 ? stem + ".npy" : stem + "~" + std::to_string(used) + ".npy";
}

void ValueDumpWriter::add(const ProducedValue& v) {
  Json r = {{"order", records_.size()}, {"name", v.name}, {"graph", v.graph},
            {"node", v.node},           {"op", v.op},     {"inputs", Json::array()}};
  if (v.proto)
    for (const auto& in : v.proto->input()) r["inputs"].push_back(in);
  if (v.value.is_tensor()) {
    const Tensor& t = v.value.tensor();
    r["type"] = std::string(type_name(t.dtype()));
    r["shape"] = shape_json(t.shape());
    const std::string file = file_for(v.name, v.graph);
    write_npy(dir_ / file, t);
    r["file"] = file;
    ++files_;
  } else {
    r["type"] = v.value.describe();
    r["file"] = nullptr;
    r["skipped"] = "not a tensor";
  }
  records_.push_back(r.dump());
}

void ValueDumpWriter::finish(const std::string& model) {
  std::string text = "{\"format\": \"" + std::string(kDumpFormat) +
                     "\", \"version\": " + std::to_string(kDumpVersion) +
                     ", \"model\": " + Json(model).dump() + ",\n \"values\": [";
  for (std::size_t i = 0; i < records_.size(); ++i) text += (i ? ",\n  " : "\n  ") + records_[i];
  text += "\n]}\n";
  write_file_atomically(dir_ / "values.json", text);
}

// ---- reading --------------------------------------------------------------------------------

std::string SetValue::key() const {
  std::string k = graph.empty() ? name : graph + name;
  if (occurrence > 0) k += "#" + std::to_string(occurrence);
  return k;
}

namespace {

[[noreturn]] void bad_set(const fs::path& p, const std::string& message) {
  throw_invalid("compare.bad-input", p.string(), "", message);
}

Json read_json(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw_io("compare.unreadable", p.string(), "cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return Json::parse(ss.str());
  } catch (const Json::exception& e) {
    bad_set(p, std::string("is not JSON: ") + e.what());
  }
}

// A file a listing names, which must sit in the listing's directory (no path, no ..).
fs::path listed_file(const fs::path& listing, const Json& file) {
  if (!file.is_string()) bad_set(listing, "a \"file\" is not a string");
  const std::string f = file.get<std::string>();
  if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos ||
      f.find('\\') != std::string::npos)
    bad_set(listing, "file " + Json(f).dump() + " is not a plain file name in its directory");
  return listing.parent_path() / f;
}

std::string string_field(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ValueSet read_dump(const fs::path& listing) {
  const Json doc = read_json(listing);
  if (!doc.is_object() || string_field(doc, "format") != kDumpFormat || !doc.contains("values") ||
      !doc["values"].is_array())
    bad_set(listing, "is not a values.json of `onnxtool run --dump-values`");
  ValueSet set{listing.string(), "dump", {}};
  for (const Json& r : doc["values"]) {
    if (!r.is_object()) bad_set(listing, "a value is not an object");
    SetValue v;
    v.name = string_field(r, "name");
    v.graph = string_field(r, "graph");
    v.node = string_field(r, "node");
    v.op = string_field(r, "op");
    v.order = r.value("order", -1);
    if (auto in = r.find("inputs"); in != r.end() && in->is_array())
      for (const Json& i : *in)
        if (i.is_string()) v.inputs.push_back(i.get<std::string>());
    if (auto f = r.find("file"); f != r.end() && !f->is_null())
      v.file = listed_file(listing, *f);
    else
      v.skipped = string_field(r, "skipped").empty() ? "no file" : string_field(r, "skipped");
    set.values.push_back(std::move(v));
  }
  return set;
}

ValueSet read_run_npy(const fs::path& listing) {
  const Json doc = read_json(listing);
  if (!doc.is_object() || !doc.contains("outputs") || !doc["outputs"].is_array())
    bad_set(listing, "has no \"outputs\" list (run_npy.mjs's outputs.json)");
  ValueSet set{listing.string(), "run_npy outputs", {}};
  for (const Json& r : doc["outputs"]) {
    if (!r.is_object() || !r.contains("file")) bad_set(listing, "an output has no \"file\"");
    SetValue v;
    v.name = string_field(r, "name");
    v.file = listed_file(listing, r["file"]);
    set.values.push_back(std::move(v));
  }
  return set;
}

ValueSet read_test_data_set(const fs::path& dir, const onnx::ModelProto* model) {
  ValueSet set{dir.string(), "test data set", {}};
  for (int k = 0;; ++k) {
    const fs::path f = dir / ("output_" + std::to_string(k) + ".pb");
    if (!fs::exists(f)) break;
    SetValue v;
    v.name = model && k < model->graph().output_size() ? model->graph().output(k).name()
                                                       : "output_" + std::to_string(k);
    v.file = f;
    set.values.push_back(std::move(v));
  }
  return set;
}

ValueSet read_npy_dir(const fs::path& dir) {
  ValueSet set{dir.string(), "npy directory", {}};
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".npy") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    SetValue v;
    v.name = f.stem().string();
    v.file = f;
    set.values.push_back(std::move(v));
  }
  return set;
}

ValueSet read_npz_set(const fs::path& file) {
  ValueSet set{file.string(), "npz", {}};
  for (auto& m : read_npz(file)) {
    SetValue v;
    v.name = m.name;
    v.held = Value(std::move(m.tensor));
    set.values.push_back(std::move(v));
  }
  return set;
}

// Numbers repeats of a (graph, name) in set order.
void number_occurrences(ValueSet& set) {
  std::map<std::pair<std::string, std::string>, int> seen;
  for (auto& v : set.values) v.occurrence = seen[{v.graph, v.name}]++;
}

ValueSet read_any(const fs::path& p, const onnx::ModelProto* model) {
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    if (fs::exists(p / "values.json")) return read_dump(p / "values.json");
    if (fs::exists(p / "outputs.json")) return read_run_npy(p / "outputs.json");
    if (fs::exists(p / "output_0.pb")) return read_test_data_set(p, model);
    ValueSet s = read_npy_dir(p);
    if (s.values.empty())
      bad_set(p, "holds no values.json, outputs.json, output_0.pb or .npy file");
    return s;
  }
  if (!fs::exists(p, ec)) throw_io("compare.missing", p.string(), "no such file or directory");
  const std::string name = p.filename().string();
  if (p.extension() == ".npz") return read_npz_set(p);
  if (name == "values.json") return read_dump(p);
  if (p.extension() == ".json") return read_run_npy(p);
  bad_set(p, "is not a directory, an .npz or a .json listing of values");
}

}  // namespace

ValueSet read_value_set(const fs::path& path, const onnx::ModelProto* model) {
  ValueSet set = read_any(path, model);
  number_occurrences(set);
  return set;
}

Value load_value(const SetValue& v) {
  if (v.held) return *v.held;
  if (v.file.extension() == ".pb") return read_value_pb(v.file.string());
  return Value(read_npy(v.file));
}

}  // namespace onnxtool
