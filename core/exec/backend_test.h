// SPDX-License-Identifier: Apache-2.0
// Running tests in the ONNX backend test layout: what `onnxtool test` and the conformance suite
// share (one code path).
//
// Layouts found:
//   DIR/model.onnx + DIR/test_data_set_N/{input_K,output_K}.pb        (node, simple, pytorch-*)
//   DIR/NAME.onnx + DIR/NAME_output_K.pb [+ NAME_input_K.pb]           (light models)
// Inputs without a file (light models) are zeros of the declared shape: those models' outputs
// do not depend on their input.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/compare.h"
#include "core/types/value.h"

namespace onnxtool {

class Registry;
class Session;

struct BackendDataSet {
  std::string name;  // test_data_set_0, or "" for the light layout
  std::vector<std::filesystem::path> inputs, outputs;
};

struct BackendTestCase {
  std::string name;  // the folder's name (or NAME for the light layout)
  std::filesystem::path model;
  std::vector<BackendDataSet> data_sets;
};

// The tests at `root`: root itself when it is a test, else every test below it (recursively),
// sorted by path. Throws Error(io) when root does not exist.
std::vector<BackendTestCase> find_backend_tests(const std::filesystem::path& root);

struct BackendTestOptions {
  Tolerance tolerance;
  int threads = 0;
  const Registry* registry = nullptr;  // nullptr: Registry::standard()
  // Run each test in a child process, so a crash or a hang fails that test only.
  bool isolate = true;
  // SessionOptions::prefer_function_bodies: run spec functions through their bodies.
  bool prefer_function_bodies = false;
  // SessionOptions::fuse: the executor's fusions (off: the graph as written, bit for bit).
  bool fuse = true;
  double timeout_seconds = 300;  // per test, when isolated
};

struct BackendTestResult {
  std::string name;
  std::string model;  // path
  bool passed = false;
  // Why it failed, naming the missing piece: "no kernel for Foo-13", "output 0 "y": 3 of 10
  // elements differ (...)", "graph.node[2] ... : kernel failed: ...", "crashed (SIGSEGV)".
  std::string reason;
  int data_sets = 0;
  double ms = 0;  // load, plan and run
};

BackendTestResult run_backend_test(const BackendTestCase& test, const BackendTestOptions& options);

// A data set's inputs as feeds for the session's model: input_K.pb to the K-th input without an
// initializer (then those with one); the light layout's absent inputs as zeros.
std::vector<std::pair<std::string, Value>> backend_feeds(const Session& s,
                                                         const BackendDataSet& ds);

// Runs fn in a forked child and returns its result; a crash, a non-zero exit or a timeout in
// the child becomes a failed result naming the signal or the time limit.
BackendTestResult run_isolated(const BackendTestCase& test,
                               const std::function<BackendTestResult()>& fn,
                               double timeout_seconds);

}  // namespace onnxtool
