// SPDX-License-Identifier: Apache-2.0
#include "core/exec/backend_test.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/diag/error.h"
#include "core/exec/run_io.h"
#include "core/exec/session.h"
#include "core/model/model.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace fs = std::filesystem;

// ---- finding tests ------------------------------------------------------------------------------

namespace {

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// input_0.pb, input_1.pb, ... in numeric order (input_10 after input_9).
std::vector<fs::path> numbered_files(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (int k = 0;; ++k) {
    fs::path p = dir / (prefix + std::to_string(k) + ".pb");
    if (!fs::exists(p)) break;
    out.push_back(p);
  }
  return out;
}

BackendTestCase standard_layout(const fs::path& dir) {
  BackendTestCase t{dir.filename().string(), dir / "model.onnx", {}};
  for (const auto& p : sorted_entries(dir)) {
    const std::string name = p.filename().string();
    if (!fs::is_directory(p) || name.rfind("test_data_set_", 0) != 0) continue;
    t.data_sets.push_back({name, numbered_files(p, "input_"), numbered_files(p, "output_")});
  }
  // test_data_set_10 sorts before test_data_set_2 as text; order by number.
  std::sort(t.data_sets.begin(), t.data_sets.end(), [](const auto& a, const auto& b) {
    return std::stoi(a.name.substr(14)) < std::stoi(b.name.substr(14));
  });
  return t;
}

void find_in(const fs::path& dir, std::vector<BackendTestCase>& out) {
  if (fs::exists(dir / "model.onnx")) {
    out.push_back(standard_layout(dir));
    return;
  }
  for (const auto& p : sorted_entries(dir)) {
    if (fs::is_directory(p)) {
      find_in(p, out);
      continue;
    }
    if (p.extension() != ".onnx") continue;
    const std::string stem = p.stem().string();
    const fs::path base = p.parent_path();
    auto outputs = numbered_files(base, stem + "_output_");
    if (outputs.empty()) continue;
    out.push_back({stem, p, {{"", numbered_files(base, stem + "_input_"), outputs}}});
  }
}

}  // namespace

std::vector<BackendTestCase> find_backend_tests(const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(root, ec)) throw_io("io.not-found", root.string(), "no such file or directory");
  std::vector<BackendTestCase> out;
  if (!fs::is_directory(root)) {
    // A model file given directly: the light layout around it.
    if (root.extension() == ".onnx") {
      const std::string stem = root.stem().string();
      const fs::path base = root.parent_path().empty() ? "." : root.parent_path();
      out.push_back({stem,
                     root,
                     {{"", numbered_files(base, stem + "_input_"),
                       numbered_files(base, stem + "_output_")}}});
    }
    return out;
  }
  find_in(root, out);
  return out;
}

// ---- running one test ---------------------------------------------------------------------------

namespace {

// A zero tensor of the declared type and shape (unknown dims: 1).
Value zeros_for(const Session::Port& port) {
  if (!port.type || !port.type->has_tensor_type())
    throw_invalid("test.bad-input", "", "",
                  "input " + port.name + " has no file and is not a tensor with a known type");
  const auto& tt = port.type->tensor_type();
  auto dt = data_type_from_int(tt.elem_type());
  if (!dt) throw_invalid("test.bad-input", "", "", "input " + port.name + " has no element type");
  Shape shape;
  for (const auto& d : tt.shape().dim()) shape.push_back(d.has_dim_value() ? d.dim_value() : 1);
  return Value(Tensor(*dt, shape));
}

// The suite writes bfloat16 data as uint16 tensors (numpy has no bfloat16): the same bits, taken
// as the bfloat16 the model declares.
Value as_declared_bfloat16(Value v, const onnx::TypeProto* type) {
  const auto bf16 = static_cast<int32_t>(DataType::bfloat16);
  if (!type || !type->has_tensor_type() || type->tensor_type().elem_type() != bf16 ||
      !v.is_tensor() || v.tensor().dtype() != DataType::uint16)
    return v;
  const Tensor& t = v.tensor();
  Tensor b(DataType::bfloat16, t.shape());
  if (t.nbytes() > 0) std::memcpy(b.mutable_raw(), t.raw(), t.nbytes());
  return Value(std::move(b));
}

// Positional test inputs go to the inputs without initializers first (old models list their
// weights as inputs too), then to the rest.
std::vector<std::size_t> input_order(const Session& s) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < s.inputs().size(); ++i)
    if (!s.inputs()[i].has_initializer) order.push_back(i);
  for (std::size_t i = 0; i < s.inputs().size(); ++i)
    if (s.inputs()[i].has_initializer) order.push_back(i);
  return order;
}

// "" when every expected output matches, else the first problem.
std::string check_outputs(const Session& s, const std::vector<Value>& got, const BackendDataSet& ds,
                          const Tolerance& tol) {
  for (std::size_t k = 0; k < ds.outputs.size(); ++k) {
    const std::string label = "output " + std::to_string(k) +
                              (k < s.outputs().size() ? " \"" + s.outputs()[k].name + "\"" : "");
    if (k >= got.size()) return label + ": the model has only " + std::to_string(got.size());
    const auto* type = s.outputs()[k].type;
    const Value want =
        as_declared_bfloat16(read_value_pb(ds.outputs[k].string(), pb_value_hint(type)), type);
    const Comparison c = compare_values(got[k], want, tol);
    if (!c.ok) return "mismatch in " + label + ": " + c.summary();
  }
  return "";
}

std::string error_text(const Error& e) {
  return e.location().empty() ? e.message() : e.location() + ": " + e.message();
}

std::string run_data_sets(const BackendTestCase& test, const BackendTestOptions& opt, int& count) {
  DiagSink sink;
  Model model = load_model(test.model.string(), {}, sink);
  for (const auto& d : sink.diagnostics())
    if (d.severity == Severity::error) return "cannot load the model: " + d.message;
  SessionOptions so;
  so.threads = opt.threads;
  so.registry = opt.registry;
  so.prefer_function_bodies = opt.prefer_function_bodies;
  so.fuse = opt.fuse;
  Session session(model, so);
  for (const auto& ds : test.data_sets) {
    std::vector<Value> got = session.run(backend_feeds(session, ds));
    std::string problem = check_outputs(session, got, ds, opt.tolerance);
    ++count;
    if (!problem.empty()) return (ds.name.empty() ? "" : ds.name + ": ") + problem;
  }
  return "";
}

}  // namespace

std::vector<std::pair<std::string, Value>> backend_feeds(const Session& s,
                                                         const BackendDataSet& ds) {
  std::vector<std::pair<std::string, Value>> feeds;
  const auto order = input_order(s);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& port = s.inputs()[order[k]];
    if (k < ds.inputs.size())
      feeds.emplace_back(port.name, as_declared_bfloat16(read_value_pb(ds.inputs[k].string(),
                                                                       pb_value_hint(port.type)),
                                                         port.type));
    else if (ds.name.empty() && !port.has_initializer)
      feeds.emplace_back(port.name, zeros_for(port));
  }
  return feeds;
}

BackendTestResult run_backend_test(const BackendTestCase& test, const BackendTestOptions& opt) {
  auto in_process = [&]() {
    BackendTestResult r{test.name, test.model.string(), false, "", 0, 0};
    const auto start = std::chrono::steady_clock::now();
    try {
      r.reason = run_data_sets(test, opt, r.data_sets);
      if (test.data_sets.empty()) r.reason = "no test data sets";
    } catch (const PlanError& e) {
      r.reason = e.summary();
    } catch (const Error& e) {
      r.reason = error_text(e);
    } catch (const std::bad_alloc&) {
      r.reason = "out of memory";
    } catch (const std::exception& e) {
      r.reason = std::string("internal error: ") + e.what();
    }
    r.passed = r.reason.empty();
    r.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  if (!opt.isolate) return in_process();
  return run_isolated(test, in_process, opt.timeout_seconds);
}

// ---- isolation ----------------------------------------------------------------------------------

namespace {

nlohmann::json to_json(const BackendTestResult& r) {
  return {{"passed", r.passed}, {"reason", r.reason}, {"data_sets", r.data_sets}, {"ms", r.ms}};
}

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Reads until EOF or the deadline; false on timeout.
bool read_until_eof(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1000)));
    if (ready < 0 && errno != EINTR) return true;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace

BackendTestResult run_isolated(const BackendTestCase& test,
                               const std::function<BackendTestResult()>& fn,
                               double timeout_seconds) {
  BackendTestResult failed{test.name, test.model.string(), false, "", 0, 0};
  int fds[2];
  if (::pipe(fds) != 0) throw_io("io.pipe", "", std::strerror(errno));
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw_io("io.fork", "", std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    // Die of the signal, so the parent can name it, rather than run a test framework's handler.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
    std::string text;
    try {
      text = to_json(fn()).dump();
    } catch (...) {
      text = to_json({test.name, "", false, "internal error in the test runner", 0, 0}).dump();
    }
    write_all(fds[1], text);
    ::_exit(0);  // no atexit handlers or buffered output of the parent's
  }
  ::close(fds[1]);
  std::string text;
  const auto deadline =
      start + std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1000));
  const bool finished = read_until_eof(fds[0], text, deadline);
  ::close(fds[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  failed.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!finished) {
    failed.reason = "timed out after " + std::to_string(static_cast<int>(timeout_seconds)) + " s";
    return failed;
  }
  if (WIFSIGNALED(status)) {
    failed.reason = "crashed (" + signal_text(WTERMSIG(status)) + ")";
    return failed;
  }
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    failed.reason = "the test process exited with status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                    " without a result";
    return failed;
  }
  BackendTestResult r{test.name,
                      test.model.string(),
                      j.value("passed", false),
                      j.value("reason", std::string()),
                      j.value("data_sets", 0),
                      j.value("ms", 0.0)};
  return r;
}

}  // namespace onnxtool
