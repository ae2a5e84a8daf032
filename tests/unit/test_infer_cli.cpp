// SPDX-License-Identifier: Apache-2.0
// `onnxtool shape-infer`: writing the annotated model (to a file, in place, to stdout), the JSON
// report, and the usage errors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/support/support.h"

using namespace onnxtool;

namespace {

onnx::ModelProto read_model(const std::filesystem::path& p) {
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(test::read_file(p)));
  return m;
}

}  // namespace

TEST_CASE("shape-infer writes value_info for intermediate values, atomically, anywhere") {
  test::TempDir dir;
  const auto in = dir / "tiny.onnx";
  test::write_file(in, test::serialize(test::tiny_model()));

  auto r = test::run_onnxtool({"shape-infer", in.string(), (dir / "out.onnx").string()});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  const auto out = read_model(dir / "out.onnx");
  REQUIRE(out.graph().value_info_size() == 1);
  CHECK(out.graph().value_info(0).type().tensor_type().elem_type() == onnx::TensorProto::FLOAT);
  CHECK(r.out.find("values in 1 graph") != std::string::npos);

  r = test::run_onnxtool({"shape-infer", "--in-place", in.string()});
  CHECK(r.exit_code == 0);
  CHECK(read_model(in).graph().value_info_size() == 1);

  r = test::run_onnxtool({"shape-infer", in.string(), "-"});
  CHECK(r.exit_code == 0);
  onnx::ModelProto piped;
  CHECK(piped.ParseFromString(r.out));
  CHECK(piped.graph().value_info_size() == 1);
}

TEST_CASE("shape-infer --json reports every value; --dim and --input-shape apply") {
  test::TempDir dir;
  const auto in = dir / "tiny.onnx";
  test::write_file(in, test::serialize(test::tiny_model()));
  auto r = test::run_onnxtool({"--json", "shape-infer", in.string(), "--dim", "N=2"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["bindings"]["N"] == 2);
  CHECK(j["values"][0]["name"] == "X");
  CHECK(j["values"][0]["type"] == "float[2,4]");
  CHECK(j["values"][0]["kind"] == "input");
  CHECK(j["diagnostics"].empty());

  r = test::run_onnxtool({"--json", "shape-infer", in.string(), "--input-shape", "X=5,4"});
  CHECK(nlohmann::json::parse(r.out)["bindings"]["N"] == 5);

  // The written model's input says what the outputs were inferred for.
  const auto out = dir / "fixed.onnxtxt";
  r = test::run_onnxtool({"shape-infer", in.string(), out.string(), "--input-shape", "X=5,4"});
  REQUIRE(r.exit_code == 0);
  CHECK(test::read_file(out).find("(float[5,4] X") != std::string::npos);
  // Without --dim or --input-shape the inputs are written as declared.
  r = test::run_onnxtool({"shape-infer", in.string(), out.string()});
  CHECK(test::read_file(out).find("(float[N,4] X") != std::string::npos);
}

TEST_CASE("shape-infer usage errors") {
  test::TempDir dir;
  const auto in = dir / "tiny.onnx";
  test::write_file(in, test::serialize(test::tiny_model()));
  const std::string p = in.string();
  // No OUT: inference and the summary only.
  const auto report = test::run_onnxtool({"shape-infer", p});
  CHECK(report.exit_code == 0);
  CHECK(report.out.find("values in 1 graph") != std::string::npos);
  CHECK(report.out.find("nothing written") != std::string::npos);
  CHECK(test::run_onnxtool({"shape-infer", p, "o.onnx", "--in-place"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", "-", "--in-place"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", p, "--dim", "N=x", "--json"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", p, "--input-shape", "X=1", "--json"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", p, "--input-shape", "Q=1", "--json"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", p, "-", "--json"}).exit_code == 2);
  CHECK(test::run_onnxtool({"shape-infer", (dir / "none.onnx").string(), "x.onnx"}).exit_code == 3);
  // Names the model does not have are typos, not answers.
  const auto typo = test::run_onnxtool({"shape-infer", p, "--dim", "typo=640", "--json"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("--dim typo: the model has no symbolic dimension named") !=
        std::string::npos);
  CHECK(typo.err.find("(it has: N)") != std::string::npos);
  const auto explain = test::run_onnxtool({"shape-infer", p, "--explain", "nosuch"});
  CHECK(explain.exit_code == 2);
  CHECK(explain.out.empty());
  CHECK(explain.err.find("--explain: the model has no value named") != std::string::npos);
}
