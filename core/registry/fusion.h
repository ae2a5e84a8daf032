// SPDX-License-Identifier: Apache-2.0
// What an operator tells the executor's fusion passes about itself (core/exec/passes/), so that
// those passes rewrite a graph without naming an operator.
//
// Channel-affine folding: a node Q that computes y[:, c, ...] = scale[c] * x[:, c, ...] +
// shift[c] from its input 0 (inference-mode BatchNormalization with constant statistics; Mul,
// Add or Sub by a constant that varies along the channel axis at most) folds
// into the node P producing x when P's output channel c is linear in P's constant weights (Conv):
// P's weights and bias are rewritten once, at planning, and Q disappears.
//
// Epilogues: a node Q that is an element-wise function of its input 0 alone (Relu, LeakyRelu,
// Clip with constant bounds) folds into the node P producing that input when P's kernel can
// apply it to its output while that is in cache (Conv): P then carries the epilogue in two
// attributes of its own (kEpilogueAttribute, read back with epilogue_of), and Q disappears.
//
// Residual adds: a node Q that is y = a + b of two inputs of one shape (Add, Sum of two), one
// of them made by P alone, folds into P when P's kernel can add a tensor to its output before
// its epilogue: the other summand becomes an extra input of P (its index in the attribute
// kResidualInputAttribute, read back with residual_input_of), and Q disappears. An activation
// after Q then folds as P's epilogue, applied after the add, as the nodes did.
//
// Dequantized operands: when P's inputs 0 and 1 are both made by dequantizations D (y = (x -
// zero) * scale of 8-bit integers x, in float32: DequantizeLinear), and P's kernel can multiply
// the integers themselves and scale the integer sums (Conv, in a model quantized in QDQ form),
// P reads each D's x instead of its y, and the scales and zero points as four extra inputs (the
// first's index in kDequantizedInputsAttribute, read back with dequantized_inputs_of). A D that
// nothing else reads disappears. The sums are then exact, so the results change by the float
// rounding of the sums the dequantized values gave.
//
// Scaled integer outputs: a node P whose kernel sums integers into int32 (ConvInteger) and can
// finish its output in float takes, one node at a time, the conversion Q to float32 after it
// (Cast), then a product by one value (Mul by a scalar: the dequantization scale of a
// dynamically quantized model), then a per-channel constant shift (Add of a bias). P then
// writes float32 sum * scale + bias, reading the scale and bias as two extra inputs (the first's
// index in kScaledOutputAttribute; either may be "", meaning 1 and none). Each step is the
// node's own float operation in the nodes' order, so the results keep their bits.
//
// Input transforms: a node P that is y = act(scale[c] * x + shift[c]) of its input 0 per channel
// (inference-mode BatchNormalization, with the activation an epilogue gave it) folds into the
// node Q reading y when Q's kernel can apply the transform to its input as it reads it (a 1x1
// Conv packs its input for the products anyway): Q carries scale, shift and activation in
// attributes of its own (kInputScaleAttribute..., read back with input_transform_of), reads x,
// and P disappears. The transform is P's own float arithmetic: the results keep their bits.
//
// Element-wise regions: a node whose output 0 is, element by element, a float32 function of some
// of its inputs (its operands, broadcast as numpy does) gives that function as a step
// (ElementwiseStep): one call computes n results from n values of each operand. The executor
// then runs a connected set of such nodes whose outputs have one shape as one node that makes
// each block of the output, through every step, while the block is in cache, instead of one
// pass over memory per node (fuse-elementwise). Each step is the node's own float arithmetic,
// so the results keep their bits. Nodes that give an epilogue (above) are steps too.
//
// Channels-last values: a value between a node P and its only reader Q may be held with each
// position's channels together (NHWC for a 4-D value, in place of ONNX's NCHW) when P's kernel
// can write its output 0 so and Q's can read its input 0 so, and one of the two gains from it
// (ChannelsLast::gains: a depthwise convolution, whose vectors then run along the channels with
// no transposes in or out). P then carries kChannelsLastOutputAttribute, Q
// kChannelsLastInputAttribute (INT 1). The value's shape stays the ONNX one; only its layout in
// memory changes, and only P and Q see it. Every element is computed as before: the same bits.
//
// Widened narrow floats: nodes whose operators compute the same arithmetic in every float type
// (Trait::float_generic) compute their float16 and bfloat16 values in float32 instead; a node
// that converts its input element by element (its `conversion` hook gives the type: Cast)
// marks where such a region starts or ends, and the operator whose version has a
// `make_conversion` hook makes the conversions the pass inserts at the other edges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/kernels/epilogue.h"
#include "core/types/tensor.h"

namespace onnxtool {

struct OpVersion;
class AttrView;

// y[:, c, ...] = scale[c] * x[:, c, ...] + shift[c], in double (the folding rounds once).
// scale and shift have one entry per channel, or one for all of them.
struct ChannelAffine {
  std::vector<double> scale, shift;
  // Where the channel is: 0, axis 1 of x whatever its rank (BatchNormalization); k > 0, axis -k
  // of x (a broadcast constant's only axis longer than 1, counted from the end).
  int64_t axis_from_end = 0;
  // The rank of that broadcast constant (it must not exceed x's, or y would gain axes).
  int64_t operand_rank = 0;

  // Whether it applies to an x of this rank (-1: unknown) with `channels` channels on axis 1:
  // the channel axis is axis 1, x gains no axes, and scale and shift have one value per channel
  // or one for all.
  bool fits(int64_t channels, int64_t rank) const {
    const auto sized = [channels](const std::vector<double>& v) {
      return static_cast<int64_t>(v.size()) == channels || v.size() == 1;
    };
    if (axis_from_end != 0 && axis_from_end != rank - 1) return false;
    if (operand_rank > 0 && (rank < 0 || operand_rank > rank)) return false;
    return channels > 0 && sized(scale) && sized(shift);
  }
  double scale_at(int64_t c) const { return at(scale, c); }
  double shift_at(int64_t c) const { return at(shift, c); }

 private:
  static double at(const std::vector<double>& v, int64_t c) {
    return v.size() == 1 ? v[0] : v[static_cast<std::size_t>(c)];
  }
};

// A node as a fusion hook sees it: its attributes (with the schema's defaults), which inputs it
// lists and names, the values of those that are constants (nullptr for an input that is not, or
// is omitted; one entry per listed input), and whether it writes more than its first output.
struct FusionNode {
  const OpVersion& schema;
  const AttrView& attrs;
  std::vector<bool> input_named;
  std::vector<const Tensor*> constants;
  bool writes_other_outputs = false;
  // What shape inference knows of output 0: its rank (-1: unknown) and element type (a
  // TensorProto::DataType; 0: unknown).
  int64_t output_rank = -1;
  int32_t output_elem = 0;
  // Output 0's dims as inference found them (-1 where unknown; empty where the rank is).
  std::vector<int64_t> output_dims;
};

// Constants for some of a node's inputs, by input index (an index past the listed inputs adds
// the input, and the ones between are left omitted).
struct ReplacedInputs {
  std::vector<std::pair<std::size_t, Tensor>> inputs;
};

// Every attribute the executor's passes add starts so (a name no ONNX attribute can have).
inline constexpr const char* kExecutorAttributePrefix = "onnxtool.";

// The attributes that carry an epilogue on the node that applies it: kind, then lo, hi, alpha.
// Names no ONNX attribute can clash with.
inline constexpr const char* kEpilogueKindAttribute = "onnxtool.epilogue";
inline constexpr const char* kEpilogueParamsAttribute = "onnxtool.epilogue_params";

// The epilogue a fusion gave this node (kind none when it has none, or a malformed one).
kernels::Epilogue epilogue_of(const AttrView& attrs);

// The input index of the summand a residual fusion gave this node; -1 when it has none.
inline constexpr const char* kResidualInputAttribute = "onnxtool.residual_input";
int64_t residual_input_of(const AttrView& attrs);

// A dequantization as the node D doing it describes itself: its input indices (the zero point
// may be omitted: 0), and the axis of x its scale runs along when it has more than one value.
struct Dequantization {
  std::size_t x = 0, scale = 1, zero = 2;
  int64_t axis = 1;  // may be negative: from the end of x's dims
};

// One operand of P as a dequantization gives it, for P's hook to judge: the integers' element
// type (a TensorProto::DataType) and dims as inference found them, the integers themselves when
// they are a constant (else nullptr), the scale and zero point (constants; zero nullptr when
// omitted) and the axis, made non-negative.
struct DequantizedOperand {
  int32_t elem = 0;
  std::vector<int64_t> dims;
  const Tensor* values = nullptr;
  const Tensor* scale = nullptr;
  const Tensor* zero = nullptr;
  int64_t axis = 0;
};

// The index of the first of the four inputs a dequantized-operands fusion gave this node
// (input 0's scale and zero point, then input 1's); -1 when it has none.
inline constexpr const char* kDequantizedInputsAttribute = "onnxtool.dequantized_inputs";
int64_t dequantized_inputs_of(const AttrView& attrs);

// What a node's kernel can do with channels-last values (see above): read its input 0 so,
// write its output 0 so, both at once, and whether it gains from them.
struct ChannelsLast {
  bool reads = false, writes = false, both = false, gains = false;
};
inline constexpr const char* kChannelsLastInputAttribute = "onnxtool.channels_last_input";
inline constexpr const char* kChannelsLastOutputAttribute = "onnxtool.channels_last_output";
// Whether a fusion gave this node a channels-last input 0 (output 0).
bool channels_last_input_of(const AttrView& attrs);
bool channels_last_output_of(const AttrView& attrs);

// The index of the scale input (the bias input follows it) of a node whose int32 output became
// float32 through a scaled-output fusion; -1 when it has none.
inline constexpr const char* kScaledOutputAttribute = "onnxtool.scaled_output";

// A node's output 0 as a transform of its input 0 per channel (axis 1): act(scale[c] * x +
// shift[c]), each element a float32 product, then a float32 sum, then the activation. Empty
// scale: none.
struct InputTransform {
  std::vector<float> scale, shift;
  kernels::Epilogue activation;
  explicit operator bool() const { return !scale.empty(); }
};

// The attributes that carry an input transform on the node applying it: scale and shift
// (FLOATS, one per channel), the activation's kind (INT) and its lo, hi, alpha (FLOATS).
inline constexpr const char* kInputScaleAttribute = "onnxtool.input_scale";
inline constexpr const char* kInputShiftAttribute = "onnxtool.input_shift";
inline constexpr const char* kInputActivationAttribute = "onnxtool.input_activation";
inline constexpr const char* kInputActivationParamsAttribute = "onnxtool.input_activation_params";
// The transform a fusion gave this node (none when it has none, or a malformed one).
InputTransform input_transform_of(const AttrView& attrs);

// One node's arithmetic as a step of an element-wise region (see above).
struct ElementwiseStep {
  // out[i] = f(operands[0][i], ..., operands[k-1][i]) for i in [0, n), the same arithmetic as
  // the node's float32 kernel; params are the node's own (decoded once, by the hook). out
  // never overlaps an operand.
  using Fn = void (*)(const float* const* operands, float* out, int64_t n, const float* params);
  Fn fn = nullptr;
  // Which of the node's inputs the step reads, in the order fn takes them. Inputs not listed
  // must be constants whose values the hook read into params (the region does not read them).
  std::vector<std::size_t> operands;
  std::vector<float> params;
};

// Each of the passes' attributes lives under kExecutorAttributePrefix (run's unknown-attribute
// warning skips them by it).
static_assert(
    std::string_view(kEpilogueKindAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kEpilogueParamsAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kResidualInputAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kDequantizedInputsAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kScaledOutputAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kInputScaleAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kInputShiftAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kInputActivationAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kChannelsLastInputAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kChannelsLastOutputAttribute).starts_with(kExecutorAttributePrefix) &&
    std::string_view(kInputActivationParamsAttribute).starts_with(kExecutorAttributePrefix));
int64_t scaled_output_of(const AttrView& attrs);

}  // namespace onnxtool
