// SPDX-License-Identifier: Apache-2.0
// proto/onnx.proto is wire-compatible with the ONNX specification's onnx.proto (and
// onnx_data.proto with onnx-data.proto): every message, field number, type, label and enum value
// of the spec's file exists in ours, and the field names agree too (they are what the protobuf
// JSON mapping writes). The spec's file is compiled here with protoc into a descriptor set.
#include <doctest/doctest.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "onnx.pb.h"
#include "onnx_data.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;
namespace gp = google::protobuf;

namespace {

// Compiles the spec's .proto files into one descriptor set. onnx-data.proto imports
// "onnx/onnx-ml.proto", so the spec's onnx.proto is staged under that name.
gp::FileDescriptorSet compile_spec(const fs::path& spec, const test::TempDir& tmp) {
  fs::create_directories(tmp / "onnx");
  fs::copy_file(spec / "onnx.proto", tmp / "onnx" / "onnx-ml.proto");
  fs::copy_file(spec / "onnx-data.proto", tmp / "onnx" / "onnx-data.proto");
  const std::string out = (tmp / "spec.desc").string();
  const std::string cmd = "protoc --include_imports -I " + tmp.path().string() +
                          " --descriptor_set_out=" + out + " onnx/onnx-data.proto";
  REQUIRE(std::system(cmd.c_str()) == 0);
  gp::FileDescriptorSet set;
  REQUIRE(set.ParseFromString(test::read_file(out)));
  return set;
}

void compare_enum(const gp::EnumDescriptor& spec, const gp::EnumDescriptor* ours) {
  CAPTURE(spec.full_name());
  REQUIRE(ours != nullptr);
  for (int i = 0; i < spec.value_count(); ++i) {
    const auto* v = spec.value(i);
    const auto* mine = ours->FindValueByName(v->name());
    REQUIRE_MESSAGE(mine != nullptr, v->name());
    CHECK(mine->number() == v->number());
  }
}

int compare_message(const gp::Descriptor& spec, const gp::Descriptor* ours) {
  CAPTURE(spec.full_name());
  REQUIRE(ours != nullptr);
  int fields = 0;
  for (int i = 0; i < spec.field_count(); ++i) {
    const gp::FieldDescriptor* f = spec.field(i);
    const gp::FieldDescriptor* mine = ours->FindFieldByNumber(f->number());
    CAPTURE(f->name());
    REQUIRE(mine != nullptr);
    CHECK(mine->name() == f->name());
    CHECK(mine->type() == f->type());
    CHECK(mine->label() == f->label());
    CHECK(mine->is_packed() == f->is_packed());
    if (f->containing_oneof())
      CHECK((mine->containing_oneof() &&
             mine->containing_oneof()->name() == f->containing_oneof()->name()));
    if (f->message_type())
      CHECK(mine->message_type()->full_name() == f->message_type()->full_name());
    if (f->enum_type()) CHECK(mine->enum_type()->full_name() == f->enum_type()->full_name());
    ++fields;
  }
  // Nothing extra on our side either: same number of fields.
  CHECK(ours->field_count() == spec.field_count());
  for (int i = 0; i < spec.nested_type_count(); ++i)
    fields += compare_message(*spec.nested_type(i),
                              ours->FindNestedTypeByName(spec.nested_type(i)->name()));
  for (int i = 0; i < spec.enum_type_count(); ++i)
    compare_enum(*spec.enum_type(i), ours->FindEnumTypeByName(spec.enum_type(i)->name()));
  return fields;
}

}  // namespace

TEST_CASE("proto/onnx.proto matches the specification's schema field for field") {
  const fs::path spec = test::require_shared_dir("proto compatibility") / "onnx-spec";
  test::TempDir tmp;
  gp::DescriptorPool pool;
  const gp::FileDescriptorSet set = compile_spec(spec, tmp);
  for (const auto& file : set.file()) REQUIRE(pool.BuildFile(file) != nullptr);

  const gp::DescriptorPool* ours = gp::DescriptorPool::generated_pool();
  // Make sure both generated files are linked in.
  CHECK(onnx::ModelProto::descriptor() != nullptr);
  CHECK(onnx::SequenceProto::descriptor() != nullptr);
  int messages = 0, fields = 0;
  for (const char* name : {"onnx/onnx-ml.proto", "onnx/onnx-data.proto"}) {
    const gp::FileDescriptor* file = pool.FindFileByName(name);
    REQUIRE(file != nullptr);
    for (int i = 0; i < file->message_type_count(); ++i) {
      const auto* m = file->message_type(i);
      fields += compare_message(*m, ours->FindMessageTypeByName(m->full_name()));
      ++messages;
    }
    for (int i = 0; i < file->enum_type_count(); ++i) {
      const auto* e = file->enum_type(i);
      compare_enum(*e, ours->FindEnumTypeByName(e->full_name()));
    }
  }
  std::cout << "proto compatibility: " << messages << " top-level messages, " << fields
            << " fields compared\n";
  CHECK(messages == 23);  // 20 in onnx.proto, 3 in onnx-data.proto
}
