// SPDX-License-Identifier: Apache-2.0
// Exact comparison of protobuf messages for the text/JSON round-trip tests.
//
// MessageDifferencer::Equals is the definition of "equal", with one change: floats and doubles
// compare by bit pattern. Plain Equals calls a message holding a NaN unequal to itself (NaN !=
// NaN), and treat_nan_as_equal would hide a changed NaN payload; bits catch both.
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace onnxtool::test {

class BitwiseFloatComparator : public google::protobuf::util::FieldComparator {
 public:
  ComparisonResult Compare(const google::protobuf::Message& m1, const google::protobuf::Message& m2,
                           const google::protobuf::FieldDescriptor* field, int i1, int i2,
                           const google::protobuf::util::FieldContext* context) override {
    using FD = google::protobuf::FieldDescriptor;
    const auto* r1 = m1.GetReflection();
    const auto* r2 = m2.GetReflection();
    if (field->cpp_type() == FD::CPPTYPE_FLOAT) {
      const float a =
          field->is_repeated() ? r1->GetRepeatedFloat(m1, field, i1) : r1->GetFloat(m1, field);
      const float b =
          field->is_repeated() ? r2->GetRepeatedFloat(m2, field, i2) : r2->GetFloat(m2, field);
      return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b) ? SAME : DIFFERENT;
    }
    if (field->cpp_type() == FD::CPPTYPE_DOUBLE) {
      const double a =
          field->is_repeated() ? r1->GetRepeatedDouble(m1, field, i1) : r1->GetDouble(m1, field);
      const double b =
          field->is_repeated() ? r2->GetRepeatedDouble(m2, field, i2) : r2->GetDouble(m2, field);
      return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) ? SAME : DIFFERENT;
    }
    return fallback_.Compare(m1, m2, field, i1, i2, context);
  }

 private:
  google::protobuf::util::DefaultFieldComparator fallback_;
};

// Equal field for field (presence, order and unknown fields included), floats by their bits.
// On a difference, `diff` (when given) says where.
inline bool exactly_equal(const google::protobuf::Message& a, const google::protobuf::Message& b,
                          std::string* diff = nullptr) {
  BitwiseFloatComparator cmp;
  google::protobuf::util::MessageDifferencer d;
  d.set_field_comparator(&cmp);
  if (diff) d.ReportDifferencesToString(diff);
  return d.Compare(a, b);
}

// Every .onnx file of the backend suite below `shared`, sorted.
inline std::vector<std::filesystem::path> backend_models(const std::filesystem::path& shared) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(shared / "onnx-backend-tests"))
    if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The message's bytes with map entries sorted (the same message always gives the same bytes).
inline std::string deterministic_bytes(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

inline double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace onnxtool::test
