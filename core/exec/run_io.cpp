// SPDX-License-Identifier: Apache-2.0
#include "core/exec/run_io.h"

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "core/diag/error.h"
#include "core/exec/compare.h"
#include "core/ir/location.h"
#include "core/ir/type_text.h"
#include "core/types/float_formats.h"
#include "core/types/npy.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

// The element as double for statistics (complex: its magnitude; sub-byte ints: their value).
template <class T>
double stat_value(const T& v) {
  if constexpr (is_narrow_float_v<T>)
    return static_cast<double>(to_float(v));
  else if constexpr (is_complex<T>::value)
    return static_cast<double>(std::abs(v));
  else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                     std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>)
    return static_cast<double>(v.value);
  else
    return static_cast<double>(v);
}

// Floats uniform in [lo, hi); integers uniform in [lo, hi] when a range is given (else 0, a
// valid index anywhere); bools false unless the range reaches 1; strings empty.
void fill_random(Tensor& t, std::mt19937& rng, const std::optional<ValueRange>& range) {
  const double lo = range ? range->lo : 0.0, hi = range ? range->hi : 1.0;
  std::uniform_real_distribution<double> uniform(lo, hi);
  const int64_t n = t.numel();
  switch (t.dtype()) {
    case DataType::float32:
      for (auto& x : t.mutable_span<float>()) x = static_cast<float>(uniform(rng));
      return;
    case DataType::float64:
      for (auto& x : t.mutable_span<double>()) x = uniform(rng);
      return;
    case DataType::float16:
      for (int64_t i = 0; i < n; ++i)
        t.mutable_data<Float16>()[i] = to_float16(static_cast<float>(uniform(rng)));
      return;
    case DataType::bfloat16:
      for (int64_t i = 0; i < n; ++i)
        t.mutable_data<BFloat16>()[i] = to_bfloat16(static_cast<float>(uniform(rng)));
      return;
    default:
      break;
  }
  if (!range) return;  // integers 0, bools false, strings empty: zero-filled already
  std::uniform_int_distribution<int64_t> ints(static_cast<int64_t>(std::ceil(lo)),
                                              static_cast<int64_t>(std::floor(hi)));
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) {
      T* data = t.mutable_data<T>();
      for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(ints(rng));
    }
  });
}

}  // namespace

const char* pb_value_hint(const onnx::TypeProto* type) {
  if (!type) return "";
  switch (type->value_case()) {
    case onnx::TypeProto::kSequenceType:
      return "sequence";
    case onnx::TypeProto::kOptionalType:
      return "optional";
    case onnx::TypeProto::kMapType:
      return "map";
    default:
      return "";
  }
}

Value read_input_file(const std::filesystem::path& path, const onnx::TypeProto* type) {
  const std::string ext = path.extension().string();
  if (ext == ".npy") return Value(read_npy(path));
  if (ext == ".pb") return read_value_pb(path.string(), pb_value_hint(type));
  throw_usage("cannot read " + path.string() + ": use a .npy file or a TensorProto .pb file");
}

Value random_input(const Session::Port& port, const std::map<std::string, int64_t>& dims,
                   std::mt19937& rng, const RandomSpec& spec) {
  if (!port.type || !port.type->has_tensor_type())
    throw_usage("input " + quoted_name(port.name) +
                " is not a tensor: --random-inputs cannot make it; give it with --input");
  const auto& tt = port.type->tensor_type();
  auto dt = data_type_from_int(tt.elem_type());
  if (!dt)
    throw_usage("input " + quoted_name(port.name) + " has no element type: give it with --input");
  Shape shape;
  if (spec.shape) {
    if (tt.has_shape() && static_cast<std::size_t>(tt.shape().dim_size()) != spec.shape->size())
      throw_usage("--input-shape " + port.name + ": rank " + std::to_string(spec.shape->size()) +
                  ", but the input is " + type_to_string(*port.type));
    for (int i = 0; tt.has_shape() && i < tt.shape().dim_size(); ++i) {
      const auto& d = tt.shape().dim(i);
      if (d.has_dim_value() && d.dim_value() != (*spec.shape)[static_cast<std::size_t>(i)])
        throw_usage("--input-shape " + port.name + ": dim " + std::to_string(i) + " is " +
                    std::to_string(d.dim_value()) + " in the model, not " +
                    std::to_string((*spec.shape)[static_cast<std::size_t>(i)]));
    }
    shape = *spec.shape;
  } else {
    for (const auto& d : tt.shape().dim()) {
      int64_t v = 1;
      if (d.has_dim_value()) {
        v = d.dim_value();
      } else if (d.has_dim_param()) {
        auto it = dims.find(d.dim_param());
        if (it != dims.end()) v = it->second;
      }
      shape.push_back(v);
    }
  }
  Tensor t(*dt, shape);
  fill_random(t, rng, spec.range);
  return Value(std::move(t));
}

TensorStats tensor_stats(const Tensor& t, int first_count) {
  TensorStats s;
  for (int64_t i = 0; i < t.numel() && i < first_count; ++i)
    s.first += (i ? ", " : "") + element_text(t, i, 6);
  if (t.numel() > first_count) s.first += ", ...";
  if (t.dtype() == DataType::string) return s;
  s.numeric = true;
  double sum = 0;
  int64_t counted = 0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -std::numeric_limits<double>::infinity();
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, std::string>) {
      for (int64_t i = 0; i < t.numel(); ++i) {
        const double v = stat_value(t.data<T>()[i]);
        if (i < first_count) s.first_numbers.push_back(v);
        if (std::isnan(v)) {
          ++s.nan_count;
          continue;
        }
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += v;
        ++counted;
      }
    }
  });
  if (counted == 0) s.min = s.max = std::nan("");
  s.mean = counted ? sum / static_cast<double>(counted) : std::nan("");
  return s;
}

std::string value_type_text(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::none:
      return "none";
    case Value::Kind::tensor:
      return std::string(type_name(v.tensor().dtype())) + shape_to_string(v.tensor().shape());
    case Value::Kind::sequence:
      return "seq(" + std::string(type_name(v.sequence_elem_type())) + ") of " +
             std::to_string(v.items().size());
    case Value::Kind::map:
      return "map(" + std::string(type_name(v.map_keys().dtype())) + "," +
             std::string(type_name(v.map_values().dtype())) + ") of " +
             std::to_string(v.map_keys().numel());
  }
  return "none";
}

std::string safe_file_name(const std::string& name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (name.empty()) return "%";  // no value has an empty name; still a file name, and distinct
  if (name == ".") return "%2E";
  if (name == "..") return "%2E%2E";
  std::string s;
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '%' || c == '/' || c == '\\' || b < 0x20 || b == 0x7F) {
      s += '%';
      s += kHex[b >> 4];
      s += kHex[b & 15];
    } else {
      s += c;
    }
  }
  return s;
}

}  // namespace onnxtool
