// SPDX-License-Identifier: Apache-2.0
// core/ without ops/: this suite links onnxtool_core alone. The registry is built and used by
// hand, the executor asks an operator's traits (never its name) whether it may fold it, and no
// file under core/ names a standard operator.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/session.h"
#include "core/model/model.h"
#include "core/registry/registry.h"
#include "core/text/parser.h"
#include "onnx.pb.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

std::atomic<int> g_draws{0}, g_fixed{0};

// Two source operators: "Draw" declares itself nondeterministic, "Fixed" declares nothing.
std::unique_ptr<Registry> source_ops() {
  auto r = std::make_unique<Registry>();
  auto scalar_kernel = [](std::atomic<int>& calls) {
    return [&calls](KernelContext& ctx) {
      ++calls;
      ctx.set_output(0, Value(Tensor::scalar<float>(1.5f)));
    };
  };
  r->add("", "Draw")
      .since(1)
      .output("Y", "T")
      .constraint("T", {"tensor(float)"})
      .trait(Trait::nondeterministic)
      .kernel(scalar_kernel(g_draws));
  r->add("", "Fixed")
      .since(1)
      .output("Y", "T")
      .constraint("T", {"tensor(float)"})
      .kernel(scalar_kernel(g_fixed));
  return r;
}

Model model_from_text(const std::string& text) {
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(text, *proto);
  return model_from_proto(proto, "core_only.onnx", {});
}

// The op types ops/ops.def registers (its ONNXTOOL_OP(symbol, "domain", "OpType") lines).
std::set<std::string> standard_op_types() {
  std::ifstream in(fs::path(ONNXTOOL_SOURCE_DIR) / "ops" / "ops.def");
  REQUIRE(in.good());
  const std::regex line(R"re(^ONNXTOOL_OP\(\s*\w+\s*,\s*"[^"]*"\s*,\s*"([^"]+)"\s*\))re");
  std::set<std::string> names;
  std::string text;
  while (std::getline(in, text)) {
    std::smatch m;
    if (std::regex_search(text, m, line)) names.insert(m[1]);
  }
  return names;
}

}  // namespace

TEST_CASE("without ops/ the standard registry is empty; a hand-built one resolves versions") {
  CHECK(Registry::standard().all().empty());
  auto r = source_ops();
  r->add("", "Fixed").since(7).output("Y", "T").constraint("T", {"tensor(float)"});
  CHECK(r->lookup("", "Fixed", 6)->since == 1);
  CHECK(r->lookup("ai.onnx", "Fixed", 9)->since == 7);
  CHECK(r->lookup("", "Draw", 1)->has(Trait::nondeterministic));
  CHECK(!r->lookup("", "Fixed", 1)->has(Trait::nondeterministic));
  CHECK(r->lookup("", "Nope", 1) == nullptr);
}

TEST_CASE("the executor folds by traits: a nondeterministic source runs every time") {
  auto r = source_ops();
  Model m = model_from_text(R"(<ir_version: 8, opset_import: ["" : 1]>
g () => (float y, float z) {
  y = Draw ()
  z = Fixed ()
}
)");
  SessionOptions so;
  so.registry = r.get();
  so.threads = 1;
  g_draws = 0;
  g_fixed = 0;
  Session s(m, so);
  CHECK(g_fixed == 1);  // folded at load
  s.run({});
  s.run({});
  CHECK(g_draws == 2);  // once per run
  CHECK(g_fixed == 1);
}

TEST_CASE("no file under core/ names a standard operator") {
  const auto names = standard_op_types();
  REQUIRE(names.size() > 200);
  const std::regex literal(R"re("([A-Za-z][A-Za-z0-9]*)")re");
  std::vector<std::string> found;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(ONNXTOOL_SOURCE_DIR) / "core")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".inc")) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int no = 1; std::getline(in, line); ++no)
      for (std::sregex_iterator it(line.begin(), line.end(), literal), end; it != end; ++it)
        if (names.count((*it)[1]))
          found.push_back(entry.path().lexically_relative(ONNXTOOL_SOURCE_DIR).string() + ":" +
                          std::to_string(no) + " \"" + (*it)[1].str() + "\"");
  }
  std::ostringstream all;
  for (const auto& f : found) all << f << "\n";
  INFO(all.str());
  CHECK(found.empty());
}
