// SPDX-License-Identifier: Apache-2.0
// Stored tensors, dense and sparse. In-model data is validated by the codec itself
// (tensor_from_proto: one storage form, sizes, value ranges), which allocates only after the
// stored data has been found to match dims, so a tensor declaring 2^40 elements with no data
// costs nothing. External data is never read: load_model validated each reference, and here
// only its data_type and dims are checked.
#include <google/protobuf/unknown_field_set.h>

#include "core/check/context.h"
#include "core/diag/error.h"
#include "core/ir/location.h"
#include "core/types/dtype.h"
#include "core/types/tensor_proto.h"

namespace onnxtool {

namespace {

bool is_external(const onnx::TensorProto& t) {
  return t.data_location() == onnx::TensorProto::EXTERNAL;
}

// The checks that need no data: a known type, sane dims. True when both hold.
bool check_type_and_dims(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc) {
  bool ok = true;
  const DataTypeInfo* info = find_type_info(t.data_type());
  if (!info) {
    ctx.report("tensor.unknown-type", loc,
               t.data_type() == 0 ? "data_type is not set (0, undefined); expected one of 1.." +
                                        std::to_string(kMaxDataType)
                                  : "data_type " + std::to_string(t.data_type()) +
                                        " is not a known type; expected one of 1.." +
                                        std::to_string(kMaxDataType));
    ok = false;
  }
  for (int i = 0; i < t.dims_size(); ++i)
    if (t.dims(i) < 0) {
      ctx.report(
          "tensor.bad-dims", loc,
          "dim " + std::to_string(i) + " is " + std::to_string(t.dims(i)) + "; expected dims >= 0");
      return false;
    }
  if (!element_count({t.dims().data(), static_cast<std::size_t>(t.dims_size())})) {
    ctx.report("tensor.bad-dims", loc, "the dims hold more than 2^63-1 elements");
    return false;
  }
  return ok;
}

// A source whose owner only marks raw_data as safe to view in place: the proto outlives the
// decoded tensor, which is dropped at once. Saves copying large in-model weights.
TensorSource view_source(const onnx::TensorProto& t, const std::string& loc) {
  TensorSource src;
  src.owner = std::shared_ptr<const void>(std::shared_ptr<const void>(), &t);
  src.location = loc;
  return src;
}

// Decodes the tensor and reports the codec's findings; returns it when it decodes.
std::optional<Tensor> decode(CheckContext& ctx, const onnx::TensorProto& t,
                             const std::string& loc) {
  try {
    return tensor_from_proto(t, view_source(t, loc));
  } catch (const Error& e) {
    ctx.report_foreign(e.rule(), loc, e.message());
    return std::nullopt;
  }
}

// A bool element is stored as one byte, 0 or 1; any other byte has no meaning.
void check_bool_bytes(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc) {
  if (t.data_type() != onnx::TensorProto::BOOL || !t.has_raw_data()) return;
  const std::string& raw = t.raw_data();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto byte = static_cast<unsigned char>(raw[i]);
    if (byte <= 1) continue;
    ctx.report("tensor.bad-bool", loc,
               "raw_data byte " + std::to_string(i) + " is " + std::to_string(byte) +
                   "; a bool element is stored as 0 or 1");
    return;
  }
}

// data_location is a closed enum: protobuf keeps a value outside it as an unknown field 14.
void check_data_location(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc) {
  constexpr int kDataLocationField = 14;
  const auto& unknown = t.unknown_fields();
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() != kDataLocationField) continue;
    const std::string value = f.type() == google::protobuf::UnknownField::TYPE_VARINT
                                  ? std::to_string(static_cast<int64_t>(f.varint()))
                                  : std::string("not a number");
    ctx.report("tensor.bad-data-location", loc,
               "data_location is " + value + "; expected 0 (DEFAULT) or 1 (EXTERNAL)");
    return;
  }
}

void check_strings(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc) {
  for (int i = 0; i < t.string_data_size(); ++i)
    if (!is_valid_utf8(t.string_data(i))) {
      check_utf8(ctx, t.string_data(i), loc, ("string_data[" + std::to_string(i) + "]").c_str());
      return;  // one is enough to reject the tensor
    }
}

// ---- sparse ----------------------------------------------------------------------------------

// Checks the dense shape; returns its element count, or nullopt when it is unusable.
std::optional<int64_t> sparse_dense_size(CheckContext& ctx, const onnx::SparseTensorProto& s,
                                         const std::string& loc) {
  if (s.dims_size() == 0) {
    ctx.report("sparse.bad-dims", loc, "the sparse tensor has no dims; expected its dense shape");
    return std::nullopt;
  }
  for (int i = 0; i < s.dims_size(); ++i)
    if (s.dims(i) <= 0) {
      ctx.report("sparse.bad-dims", loc,
                 "dim " + std::to_string(i) + " is " + std::to_string(s.dims(i)) +
                     "; expected positive dims");
      return std::nullopt;
    }
  auto n = element_count({s.dims().data(), static_cast<std::size_t>(s.dims_size())});
  if (!n) ctx.report("sparse.bad-dims", loc, "the dims hold more than 2^63-1 elements");
  return n;
}

bool check_indices_shape(CheckContext& ctx, const onnx::SparseTensorProto& s, int64_t nnz,
                         const std::string& loc) {
  const auto& ix = s.indices();
  const bool ok = (ix.dims_size() == 1 && ix.dims(0) == nnz) ||
                  (ix.dims_size() == 2 && ix.dims(0) == nnz && ix.dims(1) == s.dims_size());
  if (!ok) {
    std::string have = "[";
    for (int i = 0; i < ix.dims_size(); ++i) have += (i ? "," : "") + std::to_string(ix.dims(i));
    ctx.report("sparse.indices-shape", loc + " indices",
               "indices have shape " + have + "]; expected [" + std::to_string(nnz) + "] or [" +
                   std::to_string(nnz) + "," + std::to_string(s.dims_size()) + "]");
  }
  return ok;
}

// Linear position of entry k, or nullopt (reported) when a coordinate is out of range.
std::optional<int64_t> linear_index(CheckContext& ctx, const onnx::SparseTensorProto& s,
                                    const int64_t* ix, int64_t k, bool coordinates,
                                    int64_t dense_size, const std::string& loc) {
  if (!coordinates) {
    const int64_t v = ix[k];
    if (v >= 0 && v < dense_size) return v;
    ctx.report("sparse.index-out-of-range", loc + " indices",
               "index " + std::to_string(k) + " is " + std::to_string(v) + "; expected 0.." +
                   std::to_string(dense_size - 1));
    return std::nullopt;
  }
  int64_t linear = 0;
  const int rank = s.dims_size();
  for (int j = 0; j < rank; ++j) {
    const int64_t v = ix[k * rank + j];
    if (v < 0 || v >= s.dims(j)) {
      ctx.report("sparse.index-out-of-range", loc + " indices",
                 "index [" + std::to_string(k) + "," + std::to_string(j) + "] is " +
                     std::to_string(v) + "; expected 0.." + std::to_string(s.dims(j) - 1));
      return std::nullopt;
    }
    linear = linear * s.dims(j) + v;  // < dense_size, which fits in int64
  }
  return linear;
}

void check_index_values(CheckContext& ctx, const onnx::SparseTensorProto& s, int64_t nnz,
                        int64_t dense_size, const std::string& loc) {
  if (is_external(s.indices())) return;  // never read here
  std::optional<Tensor> decoded;
  try {
    decoded = tensor_from_proto(s.indices(), view_source(s.indices(), loc));
  } catch (const Error&) {
    return;  // check_tensor has reported why
  }
  const int64_t* ix = decoded->data<int64_t>();
  const bool coordinates = s.indices().dims_size() == 2;
  int64_t previous = -1;
  for (int64_t k = 0; k < nnz; ++k) {
    auto linear = linear_index(ctx, s, ix, k, coordinates, dense_size, loc);
    if (!linear) return;
    if (*linear <= previous) {
      ctx.report("sparse.indices-unsorted", loc + " indices",
                 "index " + std::to_string(k) +
                     " does not come after the one before it; expected strictly increasing "
                     "(row-major) indices");
      return;
    }
    previous = *linear;
  }
}

}  // namespace

void check_tensor(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc) {
  if (const DataTypeInfo* info = find_type_info(t.data_type()))
    ctx.require_ir(info->min_ir_version, "element type " + std::string(info->name), loc);
  check_utf8(ctx, t.name(), loc, "tensor name");
  if (t.metadata_props_size()) check_metadata(ctx, t.metadata_props(), loc + " ");
  check_data_location(ctx, t, loc);
  // Segments are legal but cannot be decoded; external data was validated at load.
  if (is_external(t) || t.has_segment()) {
    check_type_and_dims(ctx, t, loc);
    return;
  }
  if (!decode(ctx, t, loc)) return;
  check_strings(ctx, t, loc);
  check_bool_bytes(ctx, t, loc);
}

void check_sparse_tensor(CheckContext& ctx, const onnx::SparseTensorProto& s,
                         const std::string& loc) {
  ctx.require_ir(6, "a sparse tensor", loc);
  if (!s.has_values()) {
    ctx.report("sparse.missing-values", loc, "the sparse tensor has no values tensor");
    return;
  }
  check_tensor(ctx, s.values(), loc + " values");
  if (s.values().dims_size() != 1 || s.values().dims(0) < 0) {
    ctx.report("sparse.values-rank", loc + " values",
               "values have rank " + std::to_string(s.values().dims_size()) +
                   "; expected a rank-1 tensor [NNZ]");
    return;
  }
  const int64_t nnz = s.values().dims(0);
  const auto dense_size = sparse_dense_size(ctx, s, loc);
  if (!dense_size) return;
  if (!s.has_indices()) {
    if (nnz > 0)
      ctx.report("sparse.missing-indices", loc,
                 "the sparse tensor has " + std::to_string(nnz) + " values but no indices");
    return;
  }
  check_tensor(ctx, s.indices(), loc + " indices");
  if (s.indices().data_type() != onnx::TensorProto::INT64) {
    ctx.report("sparse.indices-type", loc + " indices",
               "indices are " + std::string(type_name_or_number(s.indices().data_type())) +
                   "; expected int64");
    return;
  }
  if (!check_indices_shape(ctx, s, nnz, loc)) return;
  check_index_values(ctx, s, nnz, *dense_size, loc);
}

}  // namespace onnxtool
