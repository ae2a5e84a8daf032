// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the executor. Each input picks one of the backend node tests whose model
// is a single deterministic node (../shared/onnx-backend-tests/node, or $ONNXTOOL_FUZZ_NODE_TESTS)
// and rewrites elements of its floating-point inputs with values the input chooses: ordinary
// values in [-7.8, 7.8] and, when the input asks, NaN, infinities, -0 and extremes. Then:
//   - the kernels with one thread and with two must give the same bits (a result that changes
//     with the thread count is a bug);
//   - where the operator has a function body, the body (one thread) must agree with the kernel
//     within the suite's relative tolerance, on moderate inputs (finite, |x| in [1e-30, 1e4] or
//     0: the two may compute at different precisions, and NaN and infinity propagate through a
//     body's steps as the spec's formula does not say).
// A node that refuses the data (an Error) is a clean outcome.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/exec/backend_test.h"
#include "core/exec/compare.h"
#include "core/exec/session.h"
#include "onnx.pb.h"
#include "tests/fuzz/fuzz_support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

using Feeds = std::vector<std::pair<std::string, Value>>;

struct Template {
  BackendTestCase test;
  std::optional<Model> model;
  Feeds feeds;  // test_data_set_0, read on first use
  bool tried = false;
};

std::vector<Template> g_templates;

// Operators whose outputs are random draws (or a random mask, Dropout in training mode): two
// runs need not agree.
bool random_node(const onnx::NodeProto& n) {
  static const char* const kRandom[] = {"Bernoulli",        "Multinomial",   "RandomNormal",
                                        "RandomNormalLike", "RandomUniform", "RandomUniformLike"};
  for (const char* op : kRandom)
    if (n.op_type() == op) return true;
  return n.op_type() == "Dropout" && n.input_size() > 2;
}

fs::path node_tests_root() {
  if (const char* env = std::getenv("ONNXTOOL_FUZZ_NODE_TESTS")) return env;
  return fs::path(ONNXTOOL_SHARED_DIR) / "onnx-backend-tests" / "node";
}

void load_templates() {
  const fs::path root = node_tests_root();
  if (!fs::is_directory(root)) {
    std::fprintf(stderr, "fuzz_executor: %s not found; nothing to fuzz\n", root.c_str());
    return;
  }
  for (BackendTestCase& test : find_backend_tests(root)) {
    if (test.data_sets.empty()) continue;
    DiagSink sink;
    try {
      Model m = load_model(test.model.string(), {}, sink);
      const auto& nodes = m.proto->graph().node();
      if (nodes.size() != 1 || random_node(nodes[0])) continue;
      g_templates.push_back({std::move(test), std::move(m), {}, false});
    } catch (const Error&) {
    }
  }
  std::fprintf(stderr, "fuzz_executor: %zu single-node backend tests from %s\n", g_templates.size(),
               root.c_str());
}

const Feeds* feeds_of(Template& t) {
  if (!t.tried) {
    t.tried = true;
    try {
      SessionOptions opts;
      opts.threads = 1;
      const Session s(*t.model, opts);
      t.feeds = backend_feeds(s, t.test.data_sets.front());
    } catch (const Error&) {
      t.model.reset();
    }
  }
  return t.model ? &t.feeds : nullptr;
}

double decode(uint8_t byte, bool specials) {
  if (specials) {
    switch (byte) {
      case 250:
        return std::numeric_limits<double>::quiet_NaN();
      case 251:
        return std::numeric_limits<double>::infinity();
      case 252:
        return -std::numeric_limits<double>::infinity();
      case 253:
        return -0.0;
      case 254:
        return 3e38;
      case 255:
        return 1e-40;
      default:
        break;
    }
  }
  return (static_cast<int>(byte) - 125) / 16.0;
}

// Up to 16 elements of each float or double input take values the input chooses.
Feeds mutate(const Feeds& feeds, FuzzedDataProvider& fdp, bool specials) {
  Feeds out = feeds;
  for (auto& [name, value] : out) {
    if (!value.is_tensor() || value.tensor().numel() == 0) continue;
    const DataType type = value.tensor().dtype();
    if (type != DataType::float32 && type != DataType::float64) continue;
    Tensor t = value.tensor().clone();
    const int edits = fdp.ConsumeIntegralInRange<int>(0, 16);
    for (int e = 0; e < edits && fdp.remaining_bytes() >= 3; ++e) {
      const auto index = static_cast<int64_t>(fdp.ConsumeIntegral<uint16_t>()) % t.numel();
      const double v = decode(fdp.ConsumeIntegral<uint8_t>(), specials);
      if (type == DataType::float32)
        t.mutable_data<float>()[index] = static_cast<float>(v);
      else
        t.mutable_data<double>()[index] = v;
    }
    value = Value(std::move(t));
  }
  return out;
}

struct Outcome {
  std::vector<Value> outputs;
  int64_t function_calls = 0;
};

std::optional<Outcome> run(const Model& m, const Feeds& feeds, int threads, bool bodies) {
  SessionOptions opts;
  opts.threads = threads;
  opts.prefer_function_bodies = bodies;
  try {
    Session s(m, opts);
    Outcome out{s.run(feeds), s.stats().function_calls};
    return out;
  } catch (const Error&) {
    return std::nullopt;
  }
}

double max_abs(const Value& v) {
  if (!v.is_tensor()) return 0;
  const Tensor& t = v.tensor();
  double m = 0;
  if (t.dtype() == DataType::float32)
    for (float x : t.span<float>()) m = std::max(m, std::fabs(static_cast<double>(x)));
  else if (t.dtype() == DataType::float64)
    for (double x : t.span<double>()) m = std::max(m, std::fabs(x));
  return m;
}

void same_bits(const Template& t, const Outcome& one, const Outcome& two) {
  if (one.outputs.size() != two.outputs.size())
    fuzz::fail(t.test.name + ": one and two threads give different output counts");
  for (std::size_t i = 0; i < one.outputs.size(); ++i) {
    const Comparison c = compare_values(two.outputs[i], one.outputs[i], {0, 0});
    if (!c.ok)
      fuzz::fail(
          t.test.name + ": output " + std::to_string(i) + " differs between one and two threads",
          c.summary());
  }
}

void body_agrees(const Template& t, const Outcome& kernel, const Outcome& body) {
  if (kernel.outputs.size() != body.outputs.size())
    fuzz::fail(t.test.name + ": the body and the kernel give different output counts");
  for (std::size_t i = 0; i < kernel.outputs.size(); ++i) {
    // Relative to the output's scale: a body that subtracts a mean rounds near zero differently.
    const Tolerance tol{1e-3, 1e-5 * (1 + max_abs(kernel.outputs[i]))};
    const Comparison c = compare_values(body.outputs[i], kernel.outputs[i], tol);
    if (!c.ok)
      fuzz::fail(
          t.test.name + ": output " + std::to_string(i) + ": the body disagrees with the kernel",
          c.summary());
  }
}

// Finite and far from float's limits: a body computes in the stash type the spec names where a
// kernel may use double, so squares of 3e38 overflow in one and not the other
// (RMSNormalization), and subnormals round differently.
bool moderate(double x) {
  return std::isfinite(x) && std::fabs(x) <= 1e4 && (x == 0 || std::fabs(x) >= 1e-30);
}

bool all_moderate(const Feeds& feeds) {
  for (const auto& [name, v] : feeds) {
    if (!v.is_tensor()) continue;
    const Tensor& t = v.tensor();
    if (t.dtype() == DataType::float32) {
      for (float x : t.span<float>())
        if (!moderate(x)) return false;
    } else if (t.dtype() == DataType::float64) {
      for (double x : t.span<double>())
        if (!moderate(x)) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init();
  load_templates();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (g_templates.empty()) return 0;
  FuzzedDataProvider fdp(data, size);
  Template& t = g_templates[fdp.ConsumeIntegralInRange<std::size_t>(0, g_templates.size() - 1)];
  const bool specials = fdp.ConsumeBool();
  const Feeds* base = feeds_of(t);
  if (!base) return 0;
  const Feeds feeds = mutate(*base, fdp, specials);
  const std::optional<Outcome> one = run(*t.model, feeds, 1, false);
  if (!one) return 0;
  const std::optional<Outcome> two = run(*t.model, feeds, 2, false);
  if (!two) fuzz::fail(t.test.name + ": two threads refuse what one thread runs");
  same_bits(t, *one, *two);
  if (!all_moderate(feeds)) return 0;
  const std::optional<Outcome> body = run(*t.model, feeds, 1, true);
  if (body && body->function_calls > 0) body_agrees(t, *one, *body);
  return 0;
}
