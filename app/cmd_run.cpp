// SPDX-License-Identifier: Apache-2.0
// onnxtool run: runs a model with the reference executor on inputs from files or random ones,
// summarises the outputs, writes them, compares them with expected values, and benchmarks.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>

#include <unistd.h>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "app/cli_formats.h"
#include "app/cli_progress.h"
#include "app/cli_trace.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/exec/blas.h"
#include "core/exec/compare.h"
#include "core/exec/run_io.h"
#include "core/exec/session.h"
#include "core/exec/value_dump.h"
#include "core/exec/verbose_log.h"
#include "core/infer/type.h"
#include "core/ir/location.h"
#include "core/kernels/gemm.h"
#include "core/model/model.h"
#include "core/types/float_formats.h"
#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/types/tensor.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Feeds = std::vector<std::pair<std::string, Value>>;

struct RunOptions {
  std::string model;
  std::vector<std::string> files;   // positional inputs, in the model's input order
  std::vector<std::string> inputs;  // NAME=FILE
  std::string inputs_npz;
  bool random_inputs = false;
  unsigned seed = 0;
  std::vector<std::string> dims;          // NAME=VALUE
  std::vector<std::string> input_shapes;  // NAME=1,3,224,224 (--random-inputs)
  std::vector<std::string> val_ranges;    // [NAME=]LO,HI (--random-inputs)
  std::string output_dir, npz, expect, data_dir, dump_values;
  std::string junit;          // --junit FILE: the --expect comparison as JUnit XML
  std::string profile_trace;  // --profile-trace FILE: the profiled runs as a Chrome trace
  std::string max_memory;     // BYTES, with an optional K, M, G or T (powers of 1024)
  double timeout = 0;         // seconds; 0: none
  double rtol = 1e-3, atol = 1e-7;
  int bench = 0, warmup = 3;
  bool profile = false, no_fold = false, no_fuse = false;
  bool allow_missing = false;  // --expect: outputs without an expected value are not an error
  std::vector<std::string> disabled_passes;
  std::size_t top = 10;
};

std::string pass_list() {
  std::string s;
  for (const auto& name : executor_pass_names()) s += (s.empty() ? "" : ", ") + name;
  return s;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string fixed(double v, const char* format = "%.3g") {
  if (std::isnan(v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + ' ' : s + std::string(width - s.size(), ' ');
}

std::pair<std::string, std::string> split_pair(const std::string& text, const char* option) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw_usage(std::string(option) + " takes NAME=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// ---- inputs -------------------------------------------------------------------------------------

// numpy saves float64 by default: such a file for a float or float16 input is cast, with a
// note, rather than refused.
Value cast_double_input(Value v, const Session::Port& p, DiagSink& sink) {
  if (!v.is_tensor() || v.tensor().dtype() != DataType::float64 || !p.type ||
      !p.type->has_tensor_type())
    return v;
  const int32_t want = p.type->tensor_type().elem_type();
  const auto target = data_type_from_int(want);
  if (!target || (*target != DataType::float32 && *target != DataType::float16)) return v;
  const Tensor& d = v.tensor();
  Tensor t(*target, d.shape());
  const double* src = d.data<double>();
  for (int64_t i = 0; i < d.numel(); ++i) {
    if (*target == DataType::float32)
      t.mutable_data<float>()[i] = static_cast<float>(src[i]);
    else
      t.mutable_data<Float16>()[i] = to_float16(static_cast<float>(src[i]));
  }
  sink.note("run.input-cast", "input " + quoted_name(p.name),
            "float64 values cast to " + std::string(type_name(*target)) + ", the model's type");
  return Value(std::move(t));
}

// Every input error has one form: the model file, then what is wrong and what the model
// expects, as the session's own checks of types and shapes write it.
[[noreturn]] void input_error(const std::string& model, const std::string& message) {
  throw Error(ErrorKind::usage, "exec.bad-input", model, "", message);
}

class FeedBuilder {
 public:
  FeedBuilder(const Session& s, DiagSink& sink, std::string model)
      : session_(s), sink_(sink), model_(std::move(model)) {}

  void add(const std::string& name, Value v) {
    const Session::Port* p = port(name);
    if (!p)
      input_error(model_, "the model has no input " + quoted_name(name) + "; it expects " +
                              describe_ports(session_.inputs()));
    if (!given_.insert(name).second)
      input_error(model_, "input " + quoted_name(name) + " is given twice");
    feeds_.emplace_back(name, cast_double_input(std::move(v), *p, sink_));
  }
  const Session::Port* port(const std::string& name) const {
    for (const auto& p : session_.inputs())
      if (p.name == name) return &p;
    return nullptr;
  }
  bool given(const std::string& name) const { return given_.count(name) > 0; }
  Feeds take() { return std::move(feeds_); }

 private:
  const Session& session_;
  DiagSink& sink_;
  std::string model_;
  std::set<std::string> given_;
  Feeds feeds_;
};

void add_positional(const RunOptions& opt, const Session& s, FeedBuilder& fb) {
  std::vector<const Session::Port*> order;
  for (const auto& p : s.inputs())
    if (!p.has_initializer) order.push_back(&p);
  if (opt.files.size() > order.size())
    input_error(opt.model, std::to_string(opt.files.size()) +
                               " input files given, the model takes " +
                               std::to_string(order.size()) + ": " + describe_ports(s.inputs()));
  for (std::size_t i = 0; i < opt.files.size(); ++i)
    fb.add(order[i]->name, read_input_file(opt.files[i], order[i]->type));
}

// Whether a random input of this type gets a dim of 1 nobody asked for.
bool has_unset_dims(const onnx::TypeProto& type, const std::map<std::string, int64_t>& dims) {
  if (!type.has_tensor_type()) return false;
  for (const auto& d : type.tensor_type().shape().dim())
    if (!d.has_dim_value() && !(d.has_dim_param() && dims.count(d.dim_param()))) return true;
  return false;
}

ValueRange parse_range(const std::string& arg, const std::string& text) {
  const auto comma = text.find(',');
  try {
    std::size_t used_lo = 0, used_hi = 0;
    if (comma == std::string::npos) throw std::invalid_argument("no comma");
    const double lo = std::stod(text.substr(0, comma), &used_lo);
    const double hi = std::stod(text.substr(comma + 1), &used_hi);
    if (used_lo != comma || used_hi != text.size() - comma - 1 || !(lo <= hi) ||
        !std::isfinite(lo) || !std::isfinite(hi))
      throw std::invalid_argument("bad");
    return {lo, hi};
  } catch (const std::exception&) {
    throw_usage("--val-range " + arg + ": expected [NAME=]LO,HI with LO <= HI");
  }
}

// --input-shape and --val-range per input name; a --val-range without a name applies to all.
std::map<std::string, RandomSpec> random_specs(const RunOptions& opt, const Session& s) {
  std::map<std::string, RandomSpec> specs;
  auto known = [&](const std::string& name, const char* option) {
    for (const auto& p : s.inputs())
      if (p.name == name) return;
    throw_usage(std::string(option) + " " + name + ": the model has no input " + quoted_name(name) +
                "; it expects " + describe_ports(s.inputs()));
  };
  std::optional<ValueRange> all;
  for (const auto& arg : opt.val_ranges) {
    const auto eq = arg.rfind('=');
    if (eq == std::string::npos) {
      all = parse_range(arg, arg);
      continue;
    }
    const std::string name = arg.substr(0, eq);
    known(name, "--val-range");
    specs[name].range = parse_range(arg, arg.substr(eq + 1));
  }
  if (all)
    for (const auto& p : s.inputs())
      if (!specs[p.name].range) specs[p.name].range = all;
  for (const auto& arg : opt.input_shapes) {
    auto [name, dims] = parse_input_shape(arg);
    known(name, "--input-shape");
    specs[name].shape = Shape(dims.begin(), dims.end());
  }
  return specs;
}

void add_random(const RunOptions& opt, const Session& s, FeedBuilder& fb) {
  std::map<std::string, int64_t> dims;
  for (const auto& d : opt.dims) {
    auto [name, value] = split_pair(d, "--dim");
    try {
      dims[name] = std::stoll(value);
    } catch (const std::exception&) {
      throw_usage("--dim " + name + ": '" + value + "' is not a number");
    }
  }
  // A name no input declares would be ignored: say so instead.
  std::set<std::string> symbols;
  for (const auto& p : s.inputs())
    if (p.type) collect_dim_params(*p.type, symbols);
  for (const auto& [name, value] : dims)
    if (!symbols.count(name)) {
      std::string known;
      for (const auto& sym : symbols) known += (known.empty() ? "" : ", ") + sym;
      throw_usage("--dim " + name + ": no input of the model has a symbolic dimension named " +
                  quoted_name(name) +
                  (known.empty() ? " (they have none)" : " (they have: " + known + ")"));
    }
  const auto specs = random_specs(opt, s);
  std::mt19937 rng(opt.seed);
  for (const auto& p : s.inputs()) {
    if (p.has_initializer || fb.given(p.name)) continue;
    auto it = specs.find(p.name);
    Value v = random_input(p, dims, rng, it == specs.end() ? RandomSpec{} : it->second);
    // -v says what was made: a symbolic dim silently 1 is where real models then fail.
    spdlog::info("random input {}: {}{}", p.name, value_type_text(v),
                 p.type && has_unset_dims(*p.type, dims) && it == specs.end()
                     ? " (unset symbolic dims are 1: --dim NAME=V or --input-shape)"
                     : "");
    fb.add(p.name, std::move(v));
  }
}

Feeds gather_feeds(const RunOptions& opt, const Session& s, DiagSink& sink) {
  FeedBuilder fb(s, sink, opt.model);
  add_positional(opt, s, fb);
  for (const auto& pair : opt.inputs) {
    auto [name, file] = split_pair(pair, "--input");
    const Session::Port* p = fb.port(name);
    // The name first: a typo is the problem, whatever the file holds.
    if (!p)
      input_error(opt.model, "the model has no input " + quoted_name(name) + "; it expects " +
                                 describe_ports(s.inputs()));
    fb.add(name, read_input_file(file, p->type));
  }
  if (!opt.inputs_npz.empty())
    for (auto& nt : read_npz(opt.inputs_npz)) fb.add(nt.name, Value(std::move(nt.tensor)));
  if (opt.random_inputs) add_random(opt, s, fb);
  return fb.take();
}

// ---- running and benchmarking -------------------------------------------------------------------

struct BenchResult {
  int warmup = 0, runs = 0;
  double min = 0, median = 0, p90 = 0, mean = 0;
};

// Linear interpolation between the closest ranks, as ../shared/tools/ort/bench.mjs does.
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = static_cast<double>(sorted.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

// Progress (on a terminal) counts the warm-up and the timed runs, each drawn between runs so
// that drawing is never inside a timed one.
BenchResult bench(Session& s, const Feeds& feeds, int warmup, int runs, std::vector<Value>& outputs,
                  Progress& progress) {
  for (int i = 0; i < warmup; ++i) {
    progress.start(static_cast<std::size_t>(i), "warm-up");
    outputs = s.run(feeds);
  }
  // --profile then describes the runs the bench times, not the first ones, which fault in
  // fresh memory.
  s.reset_profile();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    progress.start(static_cast<std::size_t>(warmup + i), "timed run");
    const auto start = Clock::now();
    outputs = s.run(feeds);
    times.push_back(ms_since(start));
  }
  progress.clear();
  std::sort(times.begin(), times.end());
  BenchResult b{warmup, runs, times.front(), quantile(times, 0.5), quantile(times, 0.9), 0};
  for (double t : times) b.mean += t / static_cast<double>(times.size());
  return b;
}

// ---- outputs ------------------------------------------------------------------------------------

struct OutputRow {
  std::string name, type;
  std::optional<TensorStats> stats;
};

void add_rows(const std::string& name, const Value& v, std::vector<OutputRow>& rows) {
  rows.push_back({name, value_type_text(v), std::nullopt});
  if (v.is_tensor()) rows.back().stats = tensor_stats(v.tensor());
  if (v.is_sequence())
    for (std::size_t i = 0; i < v.items().size(); ++i)
      add_rows("  [" + std::to_string(i) + "]", v.items()[i], rows);
}

void print_outputs(std::ostream& out, const std::vector<OutputRow>& rows) {
  std::size_t name_w = 6, type_w = 4;
  for (const auto& r : rows) {
    name_w = std::max(name_w, std::min<std::size_t>(r.name.size(), 32));
    type_w = std::max(type_w, std::min<std::size_t>(r.type.size(), 28));
  }
  out << pad("output", name_w + 1) << pad("type", type_w + 1) << pad("min", 11) << pad("max", 11)
      << pad("mean", 11) << "first values\n";
  for (const auto& r : rows) {
    out << pad(r.name, name_w + 1) << pad(r.type, type_w + 1);
    if (r.stats && r.stats->numeric)
      out << pad(fixed(r.stats->min, "%.4g"), 11) << pad(fixed(r.stats->max, "%.4g"), 11)
          << pad(fixed(r.stats->mean, "%.4g"), 11);
    else if (r.stats)
      out << std::string(33, ' ');
    out << (r.stats ? r.stats->first : "") << '\n';
  }
}

nlohmann::json output_json(const std::string& name, const Value& v) {
  nlohmann::json j = {{"name", name}, {"type", value_type_text(v)}};
  if (v.is_tensor()) {
    const TensorStats s = tensor_stats(v.tensor());
    j["element_type"] = type_name(v.tensor().dtype());
    j["shape"] = v.tensor().shape();
    if (s.numeric) {
      j["min"] = s.min;
      j["max"] = s.max;
      j["mean"] = s.mean;
      j["nan_count"] = s.nan_count;
    }
    // Numbers, not text (NaN and infinities, which JSON lacks, as null); strings as strings.
    if (s.numeric) {
      nlohmann::json first = nlohmann::json::array();
      for (double x : s.first_numbers)
        first.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json());
      j["first"] = first;
    } else {
      nlohmann::json first = nlohmann::json::array();
      const Tensor& t = v.tensor();
      for (int64_t k = 0; k < t.numel() && k < 5; ++k) first.push_back(t.data<std::string>()[k]);
      j["first"] = first;
    }
  }
  if (v.is_sequence()) {
    j["items"] = nlohmann::json::array();
    for (const auto& item : v.items()) j["items"].push_back(output_json("", item));
  }
  return j;
}

// The key an output is written under: its name, and for item K of a sequence output
// "NAME[K]". The .npz member is the key; the --output-dir file is the key made a file name
// (safe_file_name, lossless) + ".npy".
std::string item_key(const std::string& name, std::size_t k) {
  return name + "[" + std::to_string(k) + "]";
}

std::vector<NamedTensor> tensors_to_write(const Session& s, const std::vector<Value>& outs,
                                          DiagSink& sink) {
  std::vector<NamedTensor> keyed;
  std::set<std::string> keys;
  auto add = [&](std::string key, const Tensor& t) {
    // Only an output literally named like another's sequence item ("s[0]") can collide.
    if (!keys.insert(key).second)
      throw_usage("outputs would be written under one name twice, " + quoted_name(key) +
                  " (an output and a sequence item of another); nothing was written");
    keyed.push_back({std::move(key), t});
  };
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::string& name = s.outputs()[i].name;
    if (outs[i].is_tensor()) add(name, outs[i].tensor());
    bool any = outs[i].is_tensor();
    for (std::size_t k = 0; outs[i].is_sequence() && k < outs[i].items().size(); ++k)
      if (outs[i].items()[k].is_tensor()) {
        add(item_key(name, k), outs[i].items()[k].tensor());
        any = true;
      }
    if (!any)
      sink.warning("run.output-not-written", "output " + quoted_name(name),
                   "is " + value_type_text(outs[i]) + ": not written");
  }
  return keyed;
}

void write_outputs(const RunOptions& opt, const Session& s, const std::vector<Value>& outs,
                   DiagSink& sink, Io& io) {
  if (opt.output_dir.empty() && opt.npz.empty()) return;
  const std::vector<NamedTensor> keyed = tensors_to_write(s, outs, sink);
  if (!opt.output_dir.empty()) {
    std::error_code ec;
    if (fs::exists(opt.output_dir, ec) && !fs::is_directory(opt.output_dir, ec))
      throw_io("io.not-a-directory", opt.output_dir,
               "--output-dir names a file that exists; give a folder (it is made when missing)");
    for (const auto& t : keyed)
      write_npy(fs::path(opt.output_dir) / (safe_file_name(t.name) + ".npy"), t.tensor);
  }
  if (opt.npz == "-") {
    // `-` is stdout, as everywhere else; the summary then goes to stderr (execute).
    const std::string bytes = serialize_npz(keyed, false);
    io.out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    io.out.flush();
  } else if (!opt.npz.empty()) {
    write_npz(opt.npz, keyed, false);
  }
}

// ---- expected outputs ---------------------------------------------------------------------------

// A sequence output's items as written: NAME[0], NAME[1], ... until one is missing; none when
// there is no NAME[0].
std::optional<Value> read_sequence(
    const std::function<std::optional<Tensor>(const std::string&)>& find, const std::string& name) {
  std::vector<Value> items;
  for (std::size_t k = 0;; ++k) {
    auto t = find(item_key(name, k));
    if (!t) break;
    items.emplace_back(std::move(*t));
  }
  if (items.empty()) return std::nullopt;
  return Value::sequence(std::move(items));
}

// The expected value per output index (none when there is nothing to compare with): from an
// .npz (members named as run --npz writes them), a folder (as --output-dir writes it, or
// output_K.pb as the backend tests have it), or one TensorProto .pb for a one-output model.
std::vector<std::optional<Value>> read_expected(const RunOptions& opt, const Session& s) {
  const auto& outputs = s.outputs();
  std::vector<std::optional<Value>> want(outputs.size());
  const fs::path expect(opt.expect);
  std::error_code ec;
  if (expect.extension() == ".npz") {
    std::map<std::string, Tensor> members;
    std::set<std::string> used;
    for (auto& nt : read_npz(expect)) members.emplace(nt.name, std::move(nt.tensor));
    auto find = [&](const std::string& key) -> std::optional<Tensor> {
      auto it = members.find(key);
      if (it == members.end()) return std::nullopt;
      used.insert(key);
      return it->second;
    };
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (auto t = find(outputs[i].name))
        want[i] = Value(std::move(*t));
      else
        want[i] = read_sequence(find, outputs[i].name);
    }
    for (const auto& [key, t] : members)
      if (!used.count(key))
        throw_usage("--expect " + opt.expect + ": " + quoted_name(key) +
                    " is not an output of the model (nor an item of a sequence output)");
    return want;
  }
  if (fs::is_regular_file(expect, ec) && expect.extension() == ".pb") {
    if (outputs.size() != 1)
      throw_usage("--expect " + opt.expect + ": one .pb file holds one output, and the model has " +
                  std::to_string(outputs.size()) + "; give a folder or an .npz");
    want[0] = read_input_file(expect, outputs[0].type);
    return want;
  }
  if (!fs::is_directory(expect, ec))
    throw_io("io.not-found", opt.expect,
             "--expect needs a folder, an .npz file, or one .pb for a one-output model");
  auto find = [&](const std::string& key) -> std::optional<Tensor> {
    const fs::path npy = expect / (safe_file_name(key) + ".npy");
    if (!fs::exists(npy, ec)) return std::nullopt;
    return read_npy(npy);
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    const fs::path pb = expect / ("output_" + std::to_string(i) + ".pb");
    if (auto t = find(outputs[i].name))
      want[i] = Value(std::move(*t));
    else if (fs::exists(pb, ec))
      want[i] = read_input_file(pb, outputs[i].type);
    else
      want[i] = read_sequence(find, outputs[i].name);
  }
  return want;
}

struct ExpectRow {
  std::string name;
  std::optional<Comparison> result;  // none: no expected value
};

std::vector<ExpectRow> compare_expected(const RunOptions& opt, const Session& s,
                                        const std::vector<Value>& outs) {
  const auto want = read_expected(opt, s);
  std::vector<ExpectRow> rows;
  bool any = false;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    rows.push_back({s.outputs()[i].name, std::nullopt});
    if (!want[i]) continue;
    any = true;
    rows.back().result = compare_values(outs[i], *want[i], {opt.rtol, opt.atol});
  }
  if (!any) throw_usage("--expect " + opt.expect + ": no expected value for any output");
  if (!opt.allow_missing) {
    std::string missing;
    for (const auto& r : rows)
      if (!r.result) missing += (missing.empty() ? "" : ", ") + quoted_name(r.name);
    if (!missing.empty())
      throw Error(ErrorKind::invalid, "run.expect-missing", opt.expect, "",
                  "no expected value for output " + missing +
                      "; --allow-missing compares only the outputs that have one");
  }
  return rows;
}

void print_expected(std::ostream& out, const std::vector<ExpectRow>& rows) {
  out << "\ncompared with expected outputs\n";
  for (const auto& r : rows) {
    out << "  " << pad(r.result ? (r.result->ok ? "ok" : "MISMATCH") : "-", 9) << pad(r.name, 16);
    if (!r.result)
      out << "no expected value\n";
    else
      out << r.result->summary() << '\n';
  }
}

nlohmann::json expected_json(const std::vector<ExpectRow>& rows) {
  nlohmann::json arr = nlohmann::json::array();
  bool passed = true;
  for (const auto& r : rows) {
    nlohmann::json j = {{"name", r.name}, {"compared", r.result.has_value()}};
    if (r.result) {
      const Comparison& c = *r.result;
      passed = passed && c.ok;
      j.update({{"ok", c.ok},
                {"max_abs_err", c.max_abs_err},
                {"max_rel_err", c.max_rel_err},
                {"mismatches", c.mismatches},
                {"elements", c.elements},
                {"message", c.summary()}});
    }
    arr.push_back(std::move(j));
  }
  return {{"passed", passed}, {"outputs", arr}};
}

// ---- profile ------------------------------------------------------------------------------------

// --profile-trace: the spans of the runs the profile counts (core/exec/trace.h).
void write_trace(const RunOptions& opt, const Session& session, const std::string& model_name,
                 DiagSink& sink) {
  const TraceSummary t = write_profile_trace(session, model_name, opt.profile_trace);
  spdlog::info("trace: {} spans written to {}", t.spans, opt.profile_trace);
  if (t.truncated)
    sink.note("run.trace-truncated", opt.profile_trace,
              "the trace stopped after " + std::to_string(Session::kMaxTraceSpans) +
                  " spans: later runs are not in it (fewer --bench runs keep them all)");
}

struct OpTypeTime {
  std::string op;
  double ms = 0;
  int nodes = 0;
  int64_t ns = 0, macs = 0;  // over the nodes that count their arithmetic
};

// Two operations per multiply-accumulate, over the time taken; 0 when nothing was counted.
double gflops(int64_t macs, int64_t ns) {
  return macs > 0 && ns > 0 ? 2.0 * static_cast<double>(macs) / static_cast<double>(ns) : 0.0;
}

// "  95.1 GFLOP/s   27% of peak" for a node or op type that counts its arithmetic.
std::string rate_text(double rate, double peak) {
  if (rate <= 0) return "";
  std::string s = pad(fixed(rate, "%.1f") + " GFLOP/s", 16);
  if (peak > 0) s += fixed(100.0 * rate / peak, "%.0f") + "% of peak";
  return s;
}

void profile_report(const Session& s, std::size_t top, std::ostream* out, nlohmann::json* j) {
  auto nodes = s.profile();
  // Runs profiled: what the main graph's nodes were called. A body's node is called once per
  // iteration; its time per run is its total over those runs.
  int64_t runs = 0;
  bool nested = false;
  for (const auto& n : nodes) {
    if (n.depth == 0) runs = std::max(runs, n.calls);
    nested = nested || n.depth > 0;
  }
  auto per_run = [&](const NodeProfile& n) {
    return runs ? static_cast<double>(n.total_ns) / 1e6 / static_cast<double>(runs) : 0.0;
  };
  double total = 0;
  for (const auto& n : nodes)
    if (n.depth == 0) total += per_run(n);
  // Operator types count the nodes that compute (those inside If, Loop and Scan bodies
  // included), not the control-flow nodes, whose time is their bodies'.
  std::map<std::string, OpTypeTime> by_op;
  for (const auto& n : nodes) {
    if (n.has_subgraphs) continue;
    auto& o = by_op[n.op_type];
    o.op = n.op_type;
    o.ms += per_run(n);
    ++o.nodes;
    if (n.macs > 0) {
      o.ns += n.total_ns;
      o.macs += n.macs;
    }
  }
  // The machine's peak for this many threads: measured only when something counts its work.
  bool counted = false;
  for (const auto& n : nodes) counted = counted || n.macs > 0;
  const double peak =
      counted ? kernels::peak_gflops_per_thread() * static_cast<double>(s.threads()) : 0.0;
  std::vector<OpTypeTime> ops;
  for (auto& [k, v] : by_op) ops.push_back(v);
  std::sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
  std::sort(nodes.begin(), nodes.end(),
            [&](const auto& a, const auto& b) { return per_run(a) > per_run(b); });
  if (nodes.size() > top) nodes.resize(top);
  auto share = [&](double ms) { return total > 0 ? 100.0 * ms / total : 0.0; };
  if (j) {
    nlohmann::json op_rows = nlohmann::json::array(), node_rows = nlohmann::json::array();
    auto add_rate = [&](nlohmann::json& row, int64_t macs, int64_t ns) {
      const double rate = gflops(macs, ns);
      if (rate <= 0) return;
      row["gflops"] = rate;
      if (peak > 0) row["peak_share"] = rate / peak;
    };
    for (const auto& o : ops) {
      nlohmann::json row = {
          {"op_type", o.op}, {"ms", o.ms}, {"share", share(o.ms)}, {"nodes", o.nodes}};
      add_rate(row, o.macs, o.ns);
      op_rows.push_back(std::move(row));
    }
    for (const auto& n : nodes) {
      nlohmann::json row = {{"node", n.location},
                            {"op_type", n.op_type},
                            {"ms", per_run(n)},
                            {"depth", n.depth},
                            {"calls_per_run", runs ? n.calls / runs : 0}};
      if (n.macs > 0 && n.calls > 0) row["macs"] = n.macs / n.calls;
      add_rate(row, n.macs, n.total_ns);
      node_rows.push_back(std::move(row));
    }
    *j = {{"total_ms", total}, {"op_types", op_rows}, {"nodes", node_rows}};
    if (peak > 0) (*j)["peak_gflops"] = peak;
    return;
  }
  *out << "\nprofile (per run, main graph " << fixed(total, "%.2f") << " ms";
  if (peak > 0)
    *out << "; peak " << fixed(peak, "%.0f") << " GFLOP/s: " << s.threads()
         << " thread(s) x fmas measured on this machine";
  *out << ")\n";
  if (nested)
    *out << "  (operator types count the nodes inside If, Loop and Scan bodies; the control-flow "
            "nodes themselves are in the node list)\n";
  for (const auto& o : ops)
    *out << "  " << pad(o.op, 24) << pad(fixed(o.ms, "%.3f") + " ms", 14)
         << pad(fixed(share(o.ms), "%.1f") + "%", 8)
         << pad(std::to_string(o.nodes) + (o.nodes == 1 ? " node" : " nodes"), 12)
         << rate_text(gflops(o.macs, o.ns), peak) << '\n';
  *out << "top " << nodes.size() << " nodes\n";
  for (const auto& n : nodes) {
    const std::string rate = rate_text(gflops(n.macs, n.total_ns), peak);
    *out << "  " << pad(fixed(per_run(n), "%.3f") + " ms", 14)
         << (rate.empty() ? "" : pad(rate, 32)) << n.location << '\n';
  }
}

// ---- the command --------------------------------------------------------------------------------

struct Report {
  std::vector<Value> outputs;
  std::optional<BenchResult> bench;
  std::vector<ExpectRow> expected;
  double run_ms = 0;
};

void print_text(const RunOptions& opt, const Session& s, const Report& r, Io& io) {
  std::vector<OutputRow> rows;
  for (std::size_t i = 0; i < r.outputs.size(); ++i)
    add_rows(s.outputs()[i].name, r.outputs[i], rows);
  print_outputs(io.out, rows);
  if (r.bench)
    io.out << "\nbench: " << r.bench->runs << " runs after " << r.bench->warmup << " warm-up, "
           << s.threads() << " threads: min " << fixed(r.bench->min, "%.3f") << " ms, median "
           << fixed(r.bench->median, "%.3f") << " ms, p90 " << fixed(r.bench->p90, "%.3f")
           << " ms\n";
  if (!r.expected.empty()) print_expected(io.out, r.expected);
  if (opt.profile) profile_report(s, opt.top, &io.out, nullptr);
}

nlohmann::json report_json(const RunOptions& opt, const Session& s, const Report& r) {
  nlohmann::json j = {{"model", opt.model}, {"threads", s.threads()}, {"run_ms", r.run_ms}};
  j["outputs"] = nlohmann::json::array();
  for (std::size_t i = 0; i < r.outputs.size(); ++i)
    j["outputs"].push_back(output_json(s.outputs()[i].name, r.outputs[i]));
  if (r.bench)
    j["bench"] = {{"warmup", r.bench->warmup}, {"runs", r.bench->runs},
                  {"min_ms", r.bench->min},    {"median_ms", r.bench->median},
                  {"p90_ms", r.bench->p90},    {"mean_ms", r.bench->mean}};
  if (!r.expected.empty()) j["expect"] = expected_json(r.expected);
  if (opt.profile) profile_report(s, opt.top, nullptr, &j["profile"]);
  const auto& b = blas::info();
  j["blas"] = {{"gemm", b.gemm},
               {"simd", b.simd},
               {"library", b.library},
               {"core", b.core},
               {"detected_core", b.detected},
               {"cpu_best_core", b.cpu_best},
               {"corrected", b.corrected},
               {"user_coretype", b.user_coretype},
               {"user_core_slower", b.user_core_slower}};
  return j;
}

// The run, with --dump-values writing every value it produces (the first run only: --bench's
// runs are not dumped).
std::vector<Value> run_dumping(const RunOptions& opt, const Model& model, Session& session,
                               const Feeds& feeds, DiagSink& sink) {
  if (opt.dump_values.empty()) return session.run(feeds);
  ValueDumpWriter dump(opt.dump_values);
  const ValueObserver observer = [&](const ProducedValue& v) { dump.add(v); };
  std::vector<Value> outs = session.run(feeds, &observer);
  dump.finish(model.name);
  sink.note("run.dumped", "",
            "wrote " + std::to_string(dump.files()) + " of " + std::to_string(dump.values()) +
                " values to " + opt.dump_values + " (values.json lists them)");
  return outs;
}

// --max-memory: "4G", "512M", "1048576"; the default is three quarters of the machine's RAM.
int64_t memory_limit(const std::string& text) {
  if (text.empty()) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page / 4 * 3 : 0;
  }
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  // Nothing after the number, or one unit letter: K, M, G, T (powers of 1024).
  const std::string units = "KMGT";
  const std::size_t unit =
      used + 1 == text.size()
          ? units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(text[used]))))
          : std::string::npos;
  const double scale = unit == std::string::npos ? 1 : std::pow(1024.0, double(unit + 1));
  const bool parsed = used > 0 && (used == text.size() || unit != std::string::npos);
  if (!parsed || !(value > 0) || value * scale > 9e18)
    throw_usage("--max-memory " + text + ": expected a size in bytes, like 512M, 4G or 1048576");
  return static_cast<int64_t>(value * scale);
}

int execute(const RunOptions& opt, const GlobalOptions& g, Io& io, DiagSink& sink,
            nlohmann::json& doc, std::vector<ExpectRow>& expected) {
  set_storage_limit(memory_limit(opt.max_memory));
  blas::log_choice();
  auto start = Clock::now();
  LoadOptions lo;
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
  Model model = load_model(opt.model, lo, sink);
  if (!sink.ok()) return sink.exit_code();
  spdlog::info("loaded {} in {:.1f} ms", opt.model, ms_since(start));
  SessionOptions so;
  so.threads = g.threads;
  // A dump shows every value the graph names: nothing folded away at load or fused.
  const bool dumping = !opt.dump_values.empty();
  so.fold_constants = !opt.no_fold && !dumping;
  so.fuse = !opt.no_fuse && !dumping;
  so.disabled_passes = opt.disabled_passes;
  so.profile = opt.profile || !opt.profile_trace.empty();
  so.trace = !opt.profile_trace.empty();
  so.timeout_seconds = opt.timeout;
  Session session(model, so);
  for (const auto& w : session.warnings()) sink.report(w);
  spdlog::info(
      "planned: {} nodes to run, {} folded at load, {} concatenations made in place ({} inputs "
      "written there), {} threads, {:.1f} ms",
      session.stats().nodes, session.stats().folded_nodes, session.stats().assembled,
      session.stats().placed_inputs, session.threads(), session.stats().plan_ms);
  const Feeds feeds = gather_feeds(opt, session, sink);
  Report r;
  start = Clock::now();
  const StorageCounters before = storage_counters();
  try {
    r.outputs = run_dumping(opt, model, session, feeds, sink);
  } catch (const Error& e) {
    // Generated inputs are the usual cause when a kernel refuses: say how to make them fit.
    if (!opt.random_inputs || e.kind() != ErrorKind::invalid) throw;
    sink.report(e.diagnostic());
    sink.note("run.random-inputs", "",
              "the inputs were generated (unset symbolic and unnamed dims are 1, values in [0,1)): "
              "give real sizes with --dim NAME=V or --input-shape NAME=1,3,640,640, values with "
              "--val-range, or real inputs");
    return exit_code_for(e.kind());
  }
  r.run_ms = ms_since(start);
  const StorageCounters after = storage_counters();
  spdlog::info("ran in {:.2f} ms", r.run_ms);
  spdlog::info("allocations in the run: {} blocks, {:.1f} MiB (tensors and kernels' scratch)",
               after.allocations - before.allocations,
               static_cast<double>(after.bytes - before.bytes) / (1 << 20));
  if (opt.bench > 0) {
    Progress progress(io, g, static_cast<std::size_t>(opt.warmup + opt.bench));
    r.bench = bench(session, feeds, opt.warmup, opt.bench, r.outputs, progress);
  } else if (so.profile && opt.warmup > 0 && opt.dump_values.empty()) {
    // A profile of the first run measures page faults and first-touch allocation: the first
    // run counts as one warm-up, then the rest, then one profiled run (--warmup 0: the first).
    for (int i = 1; i < opt.warmup; ++i) session.run(feeds);
    session.reset_profile();
    r.outputs = session.run(feeds);
  }
  if (!opt.profile_trace.empty()) write_trace(opt, session, model.name, sink);
  write_outputs(opt, session, r.outputs, sink, io);
  if (!opt.expect.empty()) r.expected = compare_expected(opt, session, r.outputs);
  expected = r.expected;
  if (g.json) {
    doc = report_json(opt, session, r);
  } else if (opt.npz == "-") {
    Io to_stderr{io.err, io.err, io.err_is_terminal};
    print_text(opt, session, r, to_stderr);
  } else {
    print_text(opt, session, r, io);
  }
  for (const auto& e : r.expected)
    if (e.result && !e.result->ok) return 1;
  return 0;
}

// One <testcase> per output compared with --expect (skipped when it has no expected value), or
// one <error> case when the model did not run as far as the comparison.
JUnitSuite expect_suite(const RunOptions& opt, const std::vector<ExpectRow>& rows, int code,
                        const DiagSink& sink, double seconds) {
  JUnitSuite suite{opt.model, seconds, {}};
  for (const auto& row : rows) {
    JUnitCase c{row.name, "onnxtool.run", 0, JUnitCase::Outcome::passed, {}, {}, {}};
    if (!row.result) {
      c.outcome = JUnitCase::Outcome::skipped;
      c.message = "no expected value";
    } else if (!row.result->ok) {
      c.outcome = JUnitCase::Outcome::failed;
      c.message = row.result->summary();
    }
    suite.cases.push_back(std::move(c));
  }
  if (rows.empty()) {
    JUnitCase c{"run", "onnxtool.run", seconds, JUnitCase::Outcome::error, {}, {}, {}};
    c.message = "the model did not run (exit code " + std::to_string(code) + ")";
    RenderOptions plain;
    c.details = render_text(sink.diagnostics(), plain);
    if (!c.details.empty()) c.message = c.details.substr(0, c.details.find('\n'));
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

int run_run(const RunOptions& opt, const GlobalOptions& g, Io& io) {
  ScopedVerboseLog log(io.err, g.verbose);
  if (opt.npz == "-" && g.json) {
    io.err << "onnxtool: error: --npz - and --json both want stdout [usage]\n";
    return 2;
  }
  if (!opt.junit.empty() && opt.expect.empty()) {
    io.err << "onnxtool: error: --junit needs --expect: it reports the comparison [usage]\n";
    return 2;
  }
  DiagSink sink;
  nlohmann::json doc = nlohmann::json::object();
  std::vector<ExpectRow> expected;
  const auto start = Clock::now();
  int code = guarded(g, io, [&] {
    try {
      return execute(opt, g, io, sink, doc, expected);
    } catch (const PlanError& e) {
      // Every node that cannot run, one line each.
      for (const auto& d : e.problems()) sink.report(d);
      return 1;
    } catch (const Error& e) {
      if (!g.json) throw;
      sink.report(e.diagnostic());
      return exit_code_for(e.kind());
    }
  });
  if (g.json) {
    doc["diagnostics"] = to_json(sink.diagnostics());
    print_json(doc, io);
  } else {
    print_diagnostics(sink.diagnostics(), g, io);
  }
  if (!opt.junit.empty()) {
    const double seconds = ms_since(start) / 1000;
    code = std::max(code, guarded(g, io, [&] {
                      write_junit_file({expect_suite(opt, expected, code, sink, seconds)},
                                       "onnxtool run", opt.junit);
                      return 0;
                    }));
  }
  return code;
}

}  // namespace

Command add_run(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<RunOptions>();
  Command c;
  c.app = app.add_subcommand("run", "run a model with the reference executor");
  c.app->add_option("model", opt->model, "the model file")->required();
  c.app->add_option("files", opt->files, "input files (.npy, .pb) in the model's input order");
  c.app->add_option("--input", opt->inputs, "an input from a file (.npy or TensorProto .pb)")
      ->type_name("NAME=FILE");
  c.app->add_option("--inputs", opt->inputs_npz, "inputs from an .npz archive (member = input)")
      ->type_name("FILE.npz");
  c.app->add_flag("--random-inputs", opt->random_inputs,
                  "generate inputs not given (floats uniform in [0,1), integers 0)");
  c.app->add_option("--seed", opt->seed, "seed for --random-inputs (default 0)");
  c.app->add_option("--dim", opt->dims, "value of a symbolic dimension for --random-inputs")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  c.app
      ->add_option("--input-shape", opt->input_shapes,
                   "whole shape of a generated input, unnamed dims too: NAME=1,3,640,640")
      ->type_name("NAME=DIMS")
      ->allow_extra_args(false);
  c.app
      ->add_option("--val-range", opt->val_ranges,
                   "value range of generated inputs: floats in [LO,HI), integers in [LO,HI]; "
                   "NAME=LO,HI for one input")
      ->type_name("[NAME=]LO,HI")
      ->allow_extra_args(false);
  c.app
      ->add_option("--output-dir", opt->output_dir,
                   "write each output to DIR/NAME.npy (NAME with %, /, \\ and control "
                   "characters as %XX; sequence items as NAME[K].npy)")
      ->type_name("DIR");
  c.app
      ->add_option("--npz", opt->npz,
                   "write the outputs to an .npz archive, members named as the outputs (- for "
                   "stdout)")
      ->type_name("FILE");
  c.app->add_option("--expect", opt->expect,
                    "compare with expected outputs: DIR (as --output-dir writes it, or "
                    "output_K.pb), FILE.npz (as --npz writes it), or FILE.pb for a one-output "
                    "model");
  c.app->add_flag("--allow-missing", opt->allow_missing,
                  "with --expect: outputs that have no expected value are skipped, not an error");
  c.app
      ->add_option("--junit", opt->junit,
                   "write the --expect comparison as JUnit XML to FILE (a testcase per output)")
      ->type_name("FILE");
  c.app->add_option("--rtol", opt->rtol, "relative tolerance for --expect (default 1e-3)");
  c.app->add_option("--atol", opt->atol, "absolute tolerance for --expect (default 1e-7)");
  c.app->add_option("--bench", opt->bench, "time N runs after the warm-up: min, median, p90")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  c.app->add_option("--warmup", opt->warmup, "untimed runs before --bench or --profile (default 3)")
      ->check(CLI::NonNegativeNumber);
  c.app->add_flag("--profile", opt->profile,
                  "time per operator type and per node, of a run after the warm-up (--warmup), "
                  "or of the --bench runs");
  c.app->add_option("--top", opt->top, "nodes to list with --profile (default 10)");
  c.app
      ->add_option("--profile-trace", opt->profile_trace,
                   "write the runs --profile times as a Chrome trace to FILE (Perfetto, "
                   "chrome://tracing): each node, and its parallel chunks on every thread")
      ->type_name("FILE");
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  c.app
      ->add_option("--dump-values", opt->dump_values,
                   "write every value the run produces to DIR as .npy, listed in "
                   "DIR/values.json (runs unfolded and unfused)")
      ->type_name("DIR");
  c.app
      ->add_option("--max-memory", opt->max_memory,
                   "stop when tensors would hold more than this (512M, 4G; default 3/4 of RAM)")
      ->type_name("BYTES");
  c.app
      ->add_option("--timeout", opt->timeout,
                   "stop a run that takes longer than this many seconds (each --bench run too)")
      ->type_name("S")
      ->check(CLI::NonNegativeNumber);
  c.app->add_flag("--no-fold", opt->no_fold,
                  "do not fold constant subgraphs at load (--disable-pass fold-constants)");
  c.app->add_flag("--no-fuse", opt->no_fuse,
                  "do not rewrite the graph for speed (fusions: results differ by rounding)");
  c.app
      ->add_option("--disable-pass", opt->disabled_passes,
                   "leave out an executor pass (repeatable): " + pass_list())
      ->type_name("NAME");
  c.action = [opt](const GlobalOptions& g, Io& io) { return run_run(*opt, g, io); };
  return c;
}

}  // namespace onnxtool::app
