// SPDX-License-Identifier: Apache-2.0
// Shape inference against the ONNX backend test data.
//
// Node tests: strip value_info and the graph outputs' types, infer, and compare with the
// declared outputs (which the test generator wrote from the real outputs).
//   - sound: the inferred type never contradicts the declared one (element type, rank, every
//     concrete dim), except the tests listed with a reason in infer_exceptions.txt; a new
//     contradiction fails, and so does a listed test that no longer contradicts;
//   - precise: the share of declared concrete dims that inference also gets concrete, over all
//     tests and over those of opset <= 17 (the range of onnx 1.12's figure, 74.3 %); failing
//     below the floor in infer_precision_floor.txt.
// Models (light/, pytorch-converted/, simple/): every value gets an element type and a rank with
// no errors, except the gaps listed in infer_model_gaps.txt (a model may not get worse).
// ONNXTOOL_REGEN_INFER=1 rewrites the floor and the gaps list from the current figures.
// Also prints how long a generated 10,000-node model takes (no assert).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "core/infer/engine.h"
#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = test::source_dir() / "tests" / "conformance";

bool regen() {
  const char* v = std::getenv("ONNXTOOL_REGEN_INFER");
  return v && *v == '1';
}

// "name: reason" or "name value" lines; '#' starts a comment.
std::map<std::string, std::string> read_list(const fs::path& p, char sep) {
  std::map<std::string, std::string> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto at = line.find(sep);
    if (at == std::string::npos) continue;
    std::string value = line.substr(at + 1);
    value.erase(0, value.find_first_not_of(' '));
    out[line.substr(0, at)] = value;
  }
  return out;
}

Model load(const fs::path& p, onnx::ModelProto** proto) {
  DiagSink sink;
  Model m = load_model(p.string(), LoadOptions{}, sink);
  *proto = m.proto.get();
  return m;
}

int64_t default_opset(const onnx::ModelProto& m) {
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

// ---- node tests ----------------------------------------------------------------------------

struct Compare {
  std::vector<std::string> contradictions;
  int64_t concrete = 0, matched = 0;
};

void compare(const Type& inferred, const Type& declared, const std::string& what, Compare& c) {
  if (declared.is_unknown()) return;
  if (declared.kind == Type::Kind::tensor || declared.kind == Type::Kind::sparse_tensor) {
    const int64_t concrete = declared.shape
                                 ? std::count_if(declared.shape->begin(), declared.shape->end(),
                                                 [](const Dim& d) { return d.is_known(); })
                                 : 0;
    c.concrete += concrete;
    if (inferred.is_unknown()) return;
    if (inferred.kind != declared.kind)
      return c.contradictions.push_back(what + ": inferred " + inferred.to_string() +
                                        ", declared " + declared.to_string());
    if (inferred.elem && declared.elem && inferred.elem != declared.elem)
      c.contradictions.push_back(what + ": element type " + inferred.to_string() + " vs declared " +
                                 declared.to_string());
    if (!inferred.shape || !declared.shape) return;
    if (inferred.shape->size() != declared.shape->size())
      return c.contradictions.push_back(what + ": rank of " + inferred.to_string() +
                                        " vs declared " + declared.to_string());
    for (std::size_t i = 0; i < declared.shape->size(); ++i) {
      const Dim& d = (*declared.shape)[i];
      const Dim& x = (*inferred.shape)[i];
      if (!d.is_known() || !x.is_known()) continue;
      if (d.value() != x.value())
        c.contradictions.push_back(what + ": dim " + std::to_string(i) + " of " +
                                   inferred.to_string() + " vs declared " + declared.to_string());
      else
        ++c.matched;
    }
    return;
  }
  if (inferred.is_unknown()) return;
  if (inferred.kind != declared.kind)
    return c.contradictions.push_back(what + ": inferred " + inferred.to_string() + ", declared " +
                                      declared.to_string());
  if (declared.kind == Type::Kind::map && inferred.elem && declared.elem &&
      inferred.elem != declared.elem)
    c.contradictions.push_back(what + ": map key of " + inferred.to_string());
  compare(inferred.element(), declared.element(), what, c);
}

struct Figures {
  int64_t concrete = 0, matched = 0;
  double percent() const { return concrete ? 100.0 * matched / concrete : 100.0; }
};

struct NodeTestOutcome {
  Compare cmp;
  int64_t opset = 0;
  std::size_t errors = 0;
};

NodeTestOutcome run_node_test(const fs::path& model_path) {
  NodeTestOutcome out;
  onnx::ModelProto* proto = nullptr;
  Model model = load(model_path, &proto);
  out.opset = default_opset(*proto);
  std::vector<Type> declared;
  auto* g = proto->mutable_graph();
  for (auto& o : *g->mutable_output()) {
    declared.push_back(o.has_type() ? type_from_proto(o.type()) : Type());
    o.clear_type();
  }
  g->clear_value_info();
  DiagSink sink;
  const InferResult r = infer_model(model, InferOptions{}, sink);
  out.errors = sink.errors();
  const GraphResult& main = r.graphs.front();
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const Type inferred = i < main.output_types.size() ? main.output_types[i] : Type();
    compare(inferred, declared[i], "output " + g->output(static_cast<int>(i)).name(), out.cmp);
  }
  return out;
}

std::vector<fs::path> node_tests(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(root / "node"))
    if (fs::exists(e.path() / "model.onnx")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void check_floor(const char* key, const Figures& f, std::map<std::string, std::string>& floors) {
  const double floor = floors.count(key) ? std::stod(floors[key]) : 0.0;
  CHECK_MESSAGE(f.percent() + 1e-9 >= floor,
                key << " precision " << f.percent() << " % fell below the floor " << floor << " %");
  if (f.percent() > floor + 0.5)
    std::cout << "note: " << key << " precision " << f.percent() << " % is above the floor "
              << floor << " %: raise it (ONNXTOOL_REGEN_INFER=1)\n";
}

// ---- whole models --------------------------------------------------------------------------

// Values without an element type or a rank, and errors.
std::pair<int64_t, std::size_t> model_gaps(const fs::path& p, std::string& first_gap) {
  onnx::ModelProto* proto = nullptr;
  Model model = load(p, &proto);
  DiagSink sink;
  const InferResult r = infer_model(model, InferOptions{}, sink);
  int64_t gaps = 0;
  for (const auto& g : r.graphs)
    for (const auto& v : g.values) {
      const bool untyped = type_spec(v.type).empty();
      const bool unranked = (v.type.is_tensor() && !v.type.has_shape());
      if (!untyped && !unranked) continue;
      if (first_gap.empty())
        first_gap = v.name + " " + v.type.to_string() + " from " + v.provenance.node;
      ++gaps;
    }
  if (!sink.ok()) first_gap += "; first error: " + sink.diagnostics().front().message;
  return {gaps, sink.errors()};
}

std::vector<fs::path> whole_models(const fs::path& root) {
  std::vector<fs::path> out;
  for (const char* dir : {"light", "pytorch-converted", "simple"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir))
      if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// ---- a generated large model ---------------------------------------------------------------

onnx::ModelProto chain_model(int nodes) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  auto* in = g->add_input();
  in->set_name("x");
  auto* t = in->mutable_type()->mutable_tensor_type();
  t->set_elem_type(1);
  t->mutable_shape()->add_dim()->set_dim_param("N");
  t->mutable_shape()->add_dim()->set_dim_value(64);
  std::string prev = "x";
  // Relu, Add, Shape, Reshape(to that shape), repeated: shape data flows through the chain.
  for (int i = 0; i < nodes; ++i) {
    auto* n = g->add_node();
    const std::string next = "v" + std::to_string(i);
    switch (i % 4) {
      case 0:
        n->set_op_type("Relu");
        break;
      case 1:
        n->set_op_type("Add");
        break;
      case 2:
        n->set_op_type("Shape");
        break;
      default:
        n->set_op_type("Reshape");
        break;
    }
    if (i % 4 == 3) n->add_input("v" + std::to_string(i - 2));
    n->add_input(prev);
    if (i % 4 == 1) n->add_input("x");
    n->add_output(next);
    prev = next;
  }
  g->add_output()->set_name(prev);
  return m;
}

}  // namespace

TEST_CASE("shape inference on every backend node test: sound, and how precise") {
  const fs::path root =
      test::require_shared_dir("shape inference on the backend tests") / "onnx-backend-tests";
  const auto exceptions = read_list(kDir / "infer_exceptions.txt", ':');
  auto floors = read_list(kDir / "infer_precision_floor.txt", ' ');
  Figures all, upto17;
  int tests = 0, with_errors = 0, upto17_tests = 0;
  std::vector<std::string> fresh, stale;
  for (const auto& dir : node_tests(root)) {
    const std::string name = dir.filename().string();
    CAPTURE(name);
    const NodeTestOutcome o = run_node_test(dir / "model.onnx");
    ++tests;
    with_errors += o.errors ? 1 : 0;
    all.concrete += o.cmp.concrete;
    all.matched += o.cmp.matched;
    if (o.opset <= 17) {
      ++upto17_tests;
      upto17.concrete += o.cmp.concrete;
      upto17.matched += o.cmp.matched;
    }
    const bool listed = exceptions.count(name) != 0;
    if (!o.cmp.contradictions.empty() && !listed)
      fresh.push_back(name + ": " + o.cmp.contradictions.front());
    if (o.cmp.contradictions.empty() && listed) stale.push_back(name);
  }
  std::printf("node tests: %d (%d with inference errors)\n", tests, with_errors);
  std::printf("precision, all %d tests: %lld of %lld declared concrete dims inferred (%.1f %%)\n",
              tests, static_cast<long long>(all.matched), static_cast<long long>(all.concrete),
              all.percent());
  std::printf("precision, %d tests of opset <= 17: %lld of %lld (%.1f %%; onnx 1.12: 74.3 %%)\n",
              upto17_tests, static_cast<long long>(upto17.matched),
              static_cast<long long>(upto17.concrete), upto17.percent());
  std::printf("soundness: %zu listed exceptions, %zu new contradictions\n", exceptions.size(),
              fresh.size());
  for (const auto& f : fresh) std::printf("  contradiction: %s\n", f.c_str());
  for (const auto& s : stale)
    std::printf("  no longer contradicts (remove from the list): %s\n", s.c_str());
  CHECK(tests > 1400);
  CHECK(fresh.empty());
  CHECK(stale.empty());
  if (regen()) {
    std::ofstream out(kDir / "infer_precision_floor.txt");
    out << "# Ratchet for tests/conformance/test_infer_suite.cpp: precision (%) may not drop\n"
        << "# below these; ONNXTOOL_REGEN_INFER=1 rewrites them from the current figures.\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", all.percent() - 0.05);
    out << "all " << buf << '\n';
    std::snprintf(buf, sizeof buf, "%.1f", upto17.percent() - 0.05);
    out << "opset17 " << buf << '\n';
    return;
  }
  check_floor("all", all, floors);
  check_floor("opset17", upto17, floors);
}

TEST_CASE("shape inference on whole models: every value typed and ranked, no errors") {
  const fs::path root =
      test::require_shared_dir("shape inference on the backend models") / "onnx-backend-tests";
  const auto known = read_list(kDir / "infer_model_gaps.txt", ' ');
  std::ostringstream regen_list;
  int models = 0, clean = 0;
  for (const auto& p : whole_models(root)) {
    const std::string rel = fs::relative(p, root).string();
    CAPTURE(rel);
    std::string first;
    const auto counts = model_gaps(p, first);
    const auto gaps = counts.first;
    const auto errors = counts.second;
    ++models;
    CHECK_MESSAGE(errors == 0, rel << ": " << first);
    if (gaps == 0) {
      ++clean;
      continue;
    }
    regen_list << rel << ' ' << gaps << '\n';
    const int64_t allowed = known.count(rel) ? std::stoll(known.at(rel)) : 0;
    CHECK_MESSAGE(gaps <= allowed, rel << ": " << gaps << " values lack a type or rank (listed: "
                                       << allowed << "), e.g. " << first);
  }
  std::printf("whole models: %d, %d with every value typed and ranked\n", models, clean);
  if (regen()) {
    std::ofstream out(kDir / "infer_model_gaps.txt");
    out << "# Known gaps of shape inference on whole models (tests/conformance/test_infer_suite"
           ".cpp):\n# model, values without an element type or rank. May only go down;\n"
           "# ONNXTOOL_REGEN_INFER=1 rewrites it.\n"
        << regen_list.str();
  }
}

TEST_CASE("shape inference on a generated 10,000-node model (timing, no assert)") {
  auto proto = std::make_shared<onnx::ModelProto>(chain_model(10000));
  Model model = model_from_proto(proto, "chain.onnx", ".");
  DiagSink sink;
  const auto start = std::chrono::steady_clock::now();
  const InferResult r = infer_model(model, InferOptions{}, sink);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("10,000-node model: inferred in %.1f ms (%zu values)\n", ms,
              r.graphs.front().values.size());
  CHECK(r.graphs.front().values.size() == 10001);
}
