// SPDX-License-Identifier: Apache-2.0
// Constant: the ai.onnx operator.
#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"
#include "ops/onnx/tensor_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

template <class T>
void constant_list(InferContext& ctx, DataType type, std::vector<T> values, bool scalar) {
  const auto n = static_cast<int64_t>(values.size());
  set_output_tensor(ctx, 0, static_cast<int32_t>(type), scalar ? Dims{} : Dims{Dim::value(n)});
  ctx.set_output_constant(0, Tensor::from_vector<T>(scalar ? Shape{} : Shape{n}, values));
}

// Constant: the type of whichever value attribute is set; its value is published so that later
// nodes (Reshape's shape, Slice's starts...) see it.
void infer_constant(InferContext& ctx) {
  const AttrView& a = ctx.attrs();
  if (auto t = ctx.tensor_attribute("value")) {
    Dims dims;
    for (int64_t d : t->shape()) dims.push_back(Dim::value(d));
    set_output_tensor(ctx, 0, static_cast<int32_t>(t->dtype()), dims);
    ctx.set_output_constant(0, *t);
  } else if (const auto* st = a.sparse_tensor("sparse_value")) {
    Dims dims;
    for (int64_t d : st->dims()) dims.push_back(Dim::value(d));
    set_output_tensor(ctx, 0, st->values().data_type(), dims);
  } else if (a.has("value_int")) {
    constant_list<int64_t>(ctx, DataType::int64, {a.get_int("value_int")}, true);
  } else if (a.has("value_ints")) {
    constant_list<int64_t>(ctx, DataType::int64, a.get_ints("value_ints"), false);
  } else if (a.has("value_float")) {
    constant_list<float>(ctx, DataType::float32, {a.get_float("value_float")}, true);
  } else if (a.has("value_floats")) {
    constant_list<float>(ctx, DataType::float32, a.get_floats("value_floats"), false);
  } else if (a.has("value_string")) {
    constant_list<std::string>(ctx, DataType::string, {a.get_string("value_string")}, true);
  } else if (a.has("value_strings")) {
    constant_list<std::string>(ctx, DataType::string, a.get_strings("value_strings"), false);
  } else if (a.has("value")) {
    ctx.fail("attribute value holds a tensor that cannot be decoded");
  } else {
    ctx.fail("none of value, sparse_value or value_* is set (expected exactly one)");
  }
}

}  // namespace

namespace {

// sparse_value made dense: zeros with the values at the indices, which are either linear
// ([NNZ]) or one coordinate row per value ([NNZ, rank]).
Tensor dense_from_sparse(const NodeInfo& ctx, const onnx::SparseTensorProto& sp) {
  const Tensor values = tensor_from_proto(sp.values());
  const Tensor indices = tensor_from_proto(sp.indices());
  const Shape shape(sp.dims().begin(), sp.dims().end());
  Tensor dense(values.dtype(), shape);
  const std::vector<int64_t> idx = read_ints(ctx, indices, "sparse_value indices");
  const int64_t nnz = values.numel(), total = dense.numel();
  const bool linear = indices.rank() == 1;
  if (values.rank() != 1 || (linear ? indices.numel() != nnz
                                    : indices.rank() != 2 || indices.shape()[0] != nnz ||
                                          indices.shape()[1] != dense.rank()))
    ctx.fail("sparse_value: indices " + shape_to_string(indices.shape()) + " do not fit values " +
             shape_to_string(values.shape()) + " and dims " + shape_to_string(shape));
  const auto strides = contiguous_strides(shape);
  for (int64_t i = 0; i < nnz; ++i) {
    int64_t at = 0;
    if (linear) {
      at = idx[static_cast<std::size_t>(i)];
      if (at < 0 || at >= total)
        ctx.fail("sparse_value: index " + std::to_string(at) + " is out of range for " +
                 std::to_string(total) + " elements");
    } else {
      for (std::size_t k = 0; k < shape.size(); ++k) {
        const int64_t c = idx[static_cast<std::size_t>(i) * shape.size() + k];
        if (c < 0 || c >= shape[k])
          ctx.fail("sparse_value: coordinate " + std::to_string(c) + " is out of range for dim " +
                   std::to_string(k) + " of size " + std::to_string(shape[k]));
        at += c * strides[k];
      }
    }
    copy_elements(values, i, dense, at, 1);
  }
  return dense;
}

template <class T>
Tensor list_tensor(const std::vector<T>& v, bool scalar) {
  return Tensor::from_vector<T>(scalar ? Shape{} : Shape{static_cast<int64_t>(v.size())}, v);
}

// Whichever value attribute is set, as a tensor.
Tensor constant_value(const NodeInfo& ctx) {
  const AttrView& a = ctx.attrs();
  if (const auto* t = a.tensor("value")) return tensor_from_proto(*t);
  if (const auto* st = a.sparse_tensor("sparse_value")) return dense_from_sparse(ctx, *st);
  if (a.has("value_int")) return list_tensor<int64_t>({a.get_int("value_int")}, true);
  if (a.has("value_ints")) return list_tensor<int64_t>(a.get_ints("value_ints"), false);
  if (a.has("value_float")) return list_tensor<float>({a.get_float("value_float")}, true);
  if (a.has("value_floats")) return list_tensor<float>(a.get_floats("value_floats"), false);
  if (a.has("value_string")) return list_tensor<std::string>({a.get_string("value_string")}, true);
  if (a.has("value_strings"))
    return list_tensor<std::string>(a.get_strings("value_strings"), false);
  ctx.fail("none of value, sparse_value or value_* is set (expected exactly one)");
}

// Decoded once per node and shared (tensors are copy-on-write) on every run.
Tensor prepare_constant(PrepareContext& ctx) {
  return constant_value(ctx);
}

void constant_kernel(KernelContext& ctx, const Tensor& value) {
  ctx.set_output(0, Value(value));
}

// ---- version adapters --------------------------------------------------------------------

void constant_dense_only(AdapterContext& ctx) {
  if (ctx.has_attribute("sparse_value"))
    ctx.refuse("sparse_value has no equivalent in " + ctx.to().id() +
               ", which holds a dense value");
  if (!ctx.has_attribute("value")) ctx.refuse(ctx.to().id() + " requires value");
}

void constant_shorthand_to_value(AdapterContext& ctx) {
  std::optional<Tensor> t;
  std::string which;
  if (const auto v = ctx.float_attribute("value_float")) {
    t = Tensor::scalar<float>(*v);
    which = "value_float";
  } else if (const auto vs = ctx.floats_attribute("value_floats")) {
    t = Tensor::from_vector<float>({static_cast<int64_t>(vs->size())}, *vs);
    which = "value_floats";
  } else if (const auto i = ctx.int_attribute("value_int")) {
    t = Tensor::scalar<int64_t>(*i);
    which = "value_int";
  } else if (const auto is = ctx.ints_attribute("value_ints")) {
    t = Tensor::from_vector<int64_t>({static_cast<int64_t>(is->size())}, *is);
    which = "value_ints";
  } else if (const auto str = ctx.string_attribute("value_string")) {
    t = Tensor::from_strings({}, {*str});
    which = "value_string";
  } else if (const auto* a = ctx.attribute("value_strings")) {
    t = Tensor::from_strings({a->strings_size()}, {a->strings().begin(), a->strings().end()});
    which = "value_strings";
  }
  if (!t) return;
  ctx.remove_attribute(which);
  ctx.set_attribute("value", *t);
  ctx.describe(which + " -> value");
}

}  // namespace

void define_Constant(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("value", AttrType::t)
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .attr_required("value", AttrType::t)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(12)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(19)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_optional("sparse_value", AttrType::sparse_tensor)
      .attr_optional("value", AttrType::t)
      .attr_optional("value_float", AttrType::f)
      .attr_optional("value_floats", AttrType::floats)
      .attr_optional("value_int", AttrType::i)
      .attr_optional("value_ints", AttrType::ints)
      .attr_optional("value_string", AttrType::s)
      .attr_optional("value_strings", AttrType::strings)
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  // The checker types the output from the value attribute (before inference runs).
  op.all()
      .infer(infer_constant)
      .kernel(prepared_kernel(prepare_constant, constant_kernel))
      .trait(Trait::attribute_value);
  // Version 11 adds sparse_value (and makes value optional); 12 the value_* shorthands, which
  // going down become the value tensor they stand for.
  op.at(11).upgrade(convert::unchanged("")).downgrade(constant_dense_only);
  op.at(12).downgrade(constant_shorthand_to_value);
}

}  // namespace onnxtool::ops
