// SPDX-License-Identifier: Apache-2.0
// What one version of one operator is: its signature (inputs, outputs, attributes, type
// constraints, straight from the spec's Changelog) and the behaviours its file attaches
// (type/shape inference, kernel, version adapters, function body).
//
// Nothing here knows a specific operator; each operator's file under ops/ fills an OpDef.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace onnxtool {

class InferContext;    // core/infer/context.h
class KernelContext;   // core/exec/kernel.h
class PrepareContext;  // core/exec/kernel.h
class AdapterContext;  // core/convert/adapter.h
class AttrView;        // core/registry/attrs.h

// Values match onnx::AttributeProto::AttributeType.
enum class AttrType : int {
  undefined = 0,
  f = 1,
  i = 2,
  s = 3,
  t = 4,
  g = 5,
  floats = 6,
  ints = 7,
  strings = 8,
  tensors = 9,
  graphs = 10,
  sparse_tensor = 11,
  sparse_tensors = 12,
  tp = 13,
  type_protos = 14,
};

// As the spec writes it: "int", "list of ints", "graph", "sparse_tensor", "type_proto", ...
const char* attr_type_name(AttrType t);

// The default of an attribute, for the kinds the spec gives defaults to.
using AttrValue = std::variant<std::monostate, int64_t, float, std::string, std::vector<int64_t>,
                               std::vector<float>, std::vector<std::string>>;

struct AttrDef {
  std::string name;
  AttrType type = AttrType::undefined;
  bool required = false;
  AttrValue default_value;  // monostate: no default
  bool has_default() const { return !std::holds_alternative<std::monostate>(default_value); }
};

enum class ParamOption { single, optional, variadic };
enum class Differentiability { unspecified, differentiable, non_differentiable };

// The types a type constraint (or a formal parameter's literal type) allows, resolved once when
// the operator is registered: every type by its canonical string, tensor element types also as
// bits, so that nothing parses type strings per node.
class TypeSet {
 public:
  TypeSet() = default;
  explicit TypeSet(std::vector<std::string> canonical_types);

  // In the order the spec lists them (for messages).
  const std::vector<std::string>& names() const { return names_; }
  bool empty() const { return names_.empty(); }
  // `canonical` as canonical_type_string() writes it.
  bool allows(const std::string& canonical) const;
  // The element types of tensors (plain or optional) it allows, bit (1 << DataType): what a
  // tensor value at run time is checked against. 0 when it allows no tensor.
  uint64_t tensor_elements() const { return tensor_bits_; }

 private:
  std::vector<std::string> names_;
  uint64_t plain_tensor_bits_ = 0;  // "tensor(T)" only
  uint64_t tensor_bits_ = 0;        // "tensor(T)" and "optional(tensor(T))"
};

// One formal input or output.
struct FormalParam {
  std::string name;
  // A type-constraint name ("T") or a literal type ("tensor(int64)").
  std::string type;
  bool is_literal_type() const { return type.find('(') != std::string::npos; }
  TypeSet literal;  // the literal type as a set (empty for a constraint name)
  ParamOption option = ParamOption::single;
  bool homogeneous = true;  // variadic only: every actual has the same type
  int min_arity = 1;        // variadic only: fewest actuals
  Differentiability differentiable = Differentiability::unspecified;
};

struct TypeConstraint {
  TypeConstraint() = default;
  TypeConstraint(std::string constraint_name, std::vector<std::string> allowed_types);

  std::string name;
  // Canonical type strings, see canonical_type_string(): "tensor(float)", "seq(tensor(int64))",
  // "map(int64,tensor(float))", "optional(seq(tensor(bool)))", "sparse_tensor(float)".
  std::vector<std::string> allowed;
  TypeSet types;  // `allowed`, resolved
};

// Normalises a type as the spec writes it ("map(string, int64)", "seq(map(int64, float))") to the
// canonical form above (map values become tensors, no spaces).
std::string canonical_type_string(const std::string& spec_type);

using InferFn = std::function<void(InferContext&)>;
using KernelFn = std::function<void(KernelContext&)>;

// What a kernel's prepare step builds once per node at planning and every run then reads
// (decoded attributes, validated geometry, packed weights, the chosen variant). Immutable once
// built, so runs on several threads share it; see prepared_kernel() in core/exec/kernel.h.
struct KernelState {
  virtual ~KernelState() = default;
};
using PrepareFn = std::function<std::shared_ptr<const KernelState>(PrepareContext&)>;
// A kernel together with the prepare step whose state it reads.
struct PreparedKernel {
  PrepareFn prepare;
  KernelFn run;
};
using AdapterFn = std::function<void(AdapterContext&)>;
// Fusion hooks (core/registry/fusion.h): false when the node does not qualify here.
struct ChannelAffine;
struct FusionNode;
struct ReplacedInputs;
using ChannelAffineFn = std::function<bool(const FusionNode&, ChannelAffine&)>;
using AbsorbChannelAffineFn =
    std::function<bool(const FusionNode&, const ChannelAffine&, ReplacedInputs&)>;
namespace kernels {
struct Epilogue;
}
using EpilogueFn = std::function<bool(const FusionNode&, kernels::Epilogue&)>;
using TakesEpilogueFn = std::function<bool(const FusionNode&)>;
using ResidualAddFn = std::function<bool(const FusionNode&)>;
// The multiply-accumulates one run of a node does, from the shapes of its inputs and outputs
// (nullptr for an absent one) and its attributes: what --profile divides by the time to give
// GFLOP/s (two operations per multiply-accumulate).
struct WorkShapes {
  std::vector<const std::vector<int64_t>*> inputs, outputs;
  const std::vector<int64_t>* input(std::size_t i) const {
    return i < inputs.size() ? inputs[i] : nullptr;
  }
  const std::vector<int64_t>* output(std::size_t i) const {
    return i < outputs.size() ? outputs[i] : nullptr;
  }
};
using MacsFn = std::function<double(const WorkShapes&, const AttrView&)>;
// The floating-point operations of one run, for an operator whose work is neither products
// (MacsFn) nor one operation per output element: pooling windows, reductions, normalisations.
using FlopsFn = std::function<double(const WorkShapes&, const AttrView&)>;
// Whether the node gives its first input back unchanged as its first output (Identity, Dropout
// in inference mode, Cast to the type it already has), from its attributes, which inputs are
// named, and the first input's element type (a TensorProto::DataType; 0 when unknown): what
// `simplify` removes. Its other outputs must be unused for that (the caller checks).
using PassesThroughFn =
    std::function<bool(const AttrView&, const std::vector<bool>& input_named, int32_t input_elem)>;
using TakesResidualFn = std::function<bool(const FusionNode&)>;
struct OpVersion;
// The axis (in [0, rank)) along which the node's output 0 joins all its inputs, in their
// order, for inputs of this rank; nullopt when the attributes say no valid axis.
using ConcatenatesFn =
    std::function<std::optional<int64_t>(const OpVersion&, const AttrView&, int64_t rank)>;
struct Dequantization;
struct DequantizedOperand;
using DequantizeFn = std::function<bool(const FusionNode&, Dequantization&)>;
using ConversionFn = std::function<int32_t(const FusionNode&)>;
using MakeConversionFn = std::function<void(onnx::NodeProto&, int32_t)>;
using MultipliesFn = std::function<bool(const FusionNode&)>;
using TakesScaledOutputFn = std::function<bool(const FusionNode&)>;
struct InputTransform;
using TransformsInputFn = std::function<bool(const FusionNode&, InputTransform&)>;
using TakesInputTransformFn = std::function<bool(const FusionNode&, const InputTransform&)>;
struct ChannelsLast;
using ChannelsLastFn = std::function<ChannelsLast(const FusionNode&)>;
// permutes: the node's output 0 is its input 0 with the axes permuted; gives the permutation
// for an input of this rank (nullopt: not a valid one). make_permutation: sets the attributes
// that make a node of this operator version permute its input by the given permutation.
using PermutesFn =
    std::function<std::optional<std::vector<int64_t>>(const FusionNode&, int64_t rank)>;
using MakePermutationFn = std::function<void(onnx::NodeProto&, const std::vector<int64_t>&)>;
struct ElementwiseStep;
using ElementwiseStepFn = std::function<bool(const FusionNode&, ElementwiseStep&)>;
using TakesDequantizedFn =
    std::function<bool(const FusionNode&, const DequantizedOperand&, const DequantizedOperand&)>;

// What an operator's structure check sees (the checker's part that knows the operator): the
// node as stored and where it is; `report(rule, message)` records a finding at the node.
struct StructureContext {
  const onnx::NodeProto& node;
  const std::string& location;
  std::function<void(const std::string& rule, const std::string& message)> report;
};
using StructureCheckFn = std::function<void(const StructureContext&)>;

inline constexpr int kUnbounded = INT_MAX;

// What core/ may ask about an operator instead of naming it (DESIGN: "traits, not names"). The
// operator's own file declares them; a pass or a check that needs a new kind of fact adds a
// trait here and sets it in the files of the operators it applies to.
enum class Trait : uint32_t {
  // Outputs vary between runs with the same inputs (random draws): never folded at load.
  nondeterministic = 1u << 0,
  // The node's only output is the value one of its attributes holds (Constant): the checker
  // takes the output's type from that attribute.
  attribute_value = 1u << 1,
  // Each output element depends only on the input elements at the same (broadcast) index.
  elementwise = 1u << 2,
  // The same arithmetic in every floating type it takes, each output rounded once to its type
  // (or only moving data): run with its float16 and bfloat16 inputs and outputs made float32,
  // it gives the values those outputs round from. The executor computes chains of such nodes
  // in float32 (widen-float16).
  float_generic = 1u << 3,
};

struct OpVersion {
  std::string domain;  // "" for the default domain
  std::string name;
  int since = 0;
  bool deprecated = false;    // removed from this version on
  bool experimental = false;  // "No versioning maintained for experimental ops."
  std::vector<FormalParam> inputs, outputs;
  std::vector<AttrDef> attributes;
  std::vector<TypeConstraint> constraints;
  int min_inputs = 0, max_inputs = 0, min_outputs = 0, max_outputs = 0;
  uint32_t traits = 0;  // Trait bits
  bool has(Trait t) const { return (traits & static_cast<uint32_t>(t)) != 0; }

  // The spec defines this version as a function (Operators.md's "Function" table):
  // function_opsets lists the opsets the spec gives it a body for (LogSoftmax-13: 13 and 18).
  // The body itself in the ONNX textual syntax (a FunctionProto without the name line), and the
  // opset of the ops that body uses; empty until written.
  bool is_function = false;
  std::vector<int> function_opsets;
  std::string function_body;
  int function_opset = 0;
  // Why no fixed body is written when the spec's body is built per call site (its nodes depend
  // on the caller's input types, on graph attributes, or on an optional attribute that a body in
  // the textual syntax cannot both detect and read); empty otherwise.
  std::string function_body_note;

  // Behaviours, attached by the operator's file; empty when not (yet) provided.
  InferFn infer;  // type and shape inference, and data propagation
  // DESIGN: work a kernel can do once per node (decode attributes, check geometry, pack
  // constant weights, pick a SIMD variant from core/kernels) goes in its prepare step; see
  // prepared_kernel() in core/exec/kernel.h.
  KernelFn kernel;    // the reference executor's kernel
  PrepareFn prepare;  // per-node state for the kernel, built once at planning (may be empty)
  // DESIGN: an adapter for one version step lives in the operator's own file, beside the two
  // versions' signatures: op.at(13).upgrade(f) rewrites a node of the version before 13 into
  // 13, op.at(13).downgrade(g) the reverse. Steps where the signatures say nothing changed need
  // none.
  AdapterFn upgrade;    // rewrites a node of the previous version into this one
  AdapterFn downgrade;  // rewrites a node of this version into the previous one
  // Why a step has no adapter because none can exist (the converter refuses every node that
  // needs it, with this reason); empty otherwise.
  std::string upgrade_refusal, downgrade_refusal;

  // DESIGN: what the executor's fusion passes ask an operator (core/registry/fusion.h), set in
  // its own file. channel_affine: the node is y = scale[c] * x + shift[c] per channel of its
  // input 0, given its constant inputs. absorb_channel_affine: the node's output channel c is
  // linear in its constant weights; gives the weights that compute scale[c] * y + shift[c].
  ChannelAffineFn channel_affine;
  AbsorbChannelAffineFn absorb_channel_affine;
  // epilogue: the node is an element-wise function of its input 0 that a producer can apply
  // (gives it). takes_epilogue: the node's kernel applies an epilogue to its output 0.
  EpilogueFn epilogue;
  TakesEpilogueFn takes_epilogue;
  // residual_add: the node is y = a + b, element by element, of its two inputs (when the
  // pass has found their shapes equal). takes_residual: the node's kernel can add a tensor of
  // its output 0's shape (an extra input, see kResidualInputAttribute) before its epilogue.
  ResidualAddFn residual_add;
  TakesResidualFn takes_residual;
  // concatenates: the node's output 0 is its inputs joined along one axis (gives the axis): the
  // executor may then have the inputs' producers write straight into the output (Assembly).
  ConcatenatesFn concatenates;
  // dequantize: the node is a dequantization of 8-bit integers to float32 (gives where its
  // operands are). takes_dequantized: the node's kernel can take its inputs 0 and 1 as the
  // integers, scales and zero points of these two dequantizations (see
  // kDequantizedInputsAttribute).
  DequantizeFn dequantize;
  TakesDequantizedFn takes_dequantized;
  // conversion: the node is y = x converted element by element to the element type (a
  // TensorProto::DataType) it returns, rounding to nearest; 0 when it is not one.
  // make_conversion: sets the attributes that make a node of this operator version convert
  // its input to the given element type (its operator, inputs and outputs are the caller's).
  // multiplies: the node is y = a * b of its two inputs, with numpy broadcasting.
  // takes_scaled_output: the node's kernel can write float32 sum * scale + bias in place of its
  // int32 sums (see kScaledOutputAttribute).
  ConversionFn conversion;
  MakeConversionFn make_conversion;
  MultipliesFn multiplies;
  TakesScaledOutputFn takes_scaled_output;
  // transforms_input: the node is act(scale[c] * x + shift[c]) of its input 0 per channel, in
  // float32 (gives it). takes_input_transform: the node's kernel can apply that transform to
  // its input 0 as it reads it (see kInputScaleAttribute).
  TransformsInputFn transforms_input;
  TakesInputTransformFn takes_input_transform;
  // channels_last: which channels-last values the node's kernel reads and writes (see
  // kChannelsLastInputAttribute).
  ChannelsLastFn channels_last;

  // elementwise_step: the node's output 0 is a float32 function of some of its inputs, element
  // by element with numpy broadcasting (gives it as a step of an element-wise region).
  ElementwiseStepFn elementwise_step;
  // permutes, make_permutation: see PermutesFn (Transpose): what cancel-transposes asks.
  PermutesFn permutes;
  MakePermutationFn make_permutation;
  // The arithmetic of one run, for --profile (the matrix products and convolutions give it).
  MacsFn macs;
  FlopsFn flops;  // info --cost, where macs is not given (default: one per output element)
  PassesThroughFn passes_through;
  // Rules of the node's structure that its signature cannot say, checked by plain `check`
  // without inference (control flow: how a body's inputs and outputs fit the node).
  StructureCheckFn check_structure;

  const AttrDef* find_attribute(const std::string& attr) const;
  const TypeConstraint* find_constraint(const std::string& constraint) const;
  // "Abs-13", "ai.onnx.ml.Scaler-1"
  std::string id() const;
};

// Builder for one version, used by the generated signature blocks and by hand-written code.
class VersionBuilder {
 public:
  explicit VersionBuilder(OpVersion& v) : v_(&v) {}

  VersionBuilder& deprecated();
  VersionBuilder& experimental();
  VersionBuilder& trait(Trait t);
  // The spec defines this version as a function with bodies for these opsets (ascending);
  // function_opset becomes the last of them until function() says otherwise.
  VersionBuilder& is_function(std::initializer_list<int> function_opsets);
  VersionBuilder& attr(std::string_view name, AttrType type, AttrValue default_value);
  VersionBuilder& attr_required(std::string_view name, AttrType type);
  VersionBuilder& attr_optional(std::string_view name, AttrType type);  // no default
  VersionBuilder& input(std::string_view name, std::string_view type,
                        Differentiability d = Differentiability::unspecified);
  VersionBuilder& input_optional(std::string_view name, std::string_view type,
                                 Differentiability d = Differentiability::unspecified);
  VersionBuilder& input_variadic(std::string_view name, std::string_view type, int min_arity,
                                 bool homogeneous = true,
                                 Differentiability d = Differentiability::unspecified);
  VersionBuilder& output(std::string_view name, std::string_view type,
                         Differentiability d = Differentiability::unspecified);
  VersionBuilder& output_optional(std::string_view name, std::string_view type,
                                  Differentiability d = Differentiability::unspecified);
  VersionBuilder& output_variadic(std::string_view name, std::string_view type, int min_arity,
                                  bool homogeneous = true,
                                  Differentiability d = Differentiability::unspecified);
  VersionBuilder& constraint(std::string_view name, std::vector<std::string> allowed);
  // The same for a list of literals (what the generated blocks use: cheap to compile).
  VersionBuilder& constraint(std::string_view name, std::initializer_list<const char*> allowed);
  // The spec's "Inputs (a - b)" / "Outputs (a - b)" when they differ from what the formal
  // parameters imply (kUnbounded for infinity).
  VersionBuilder& input_range(int min, int max);
  VersionBuilder& output_range(int min, int max);
  // The function body (also sets is_function).
  VersionBuilder& function(std::string body_text, int body_opset);
  // Records why the body depends on the call site instead of giving one (function_body_note).
  VersionBuilder& function_note(std::string why);

  VersionBuilder& infer(InferFn f);
  VersionBuilder& kernel(KernelFn f);
  VersionBuilder& kernel(PreparedKernel k);
  VersionBuilder& upgrade(AdapterFn f);
  VersionBuilder& downgrade(AdapterFn f);
  // The step into (out of) this version cannot be made, for this reason.
  VersionBuilder& refuse_upgrade(std::string why);
  VersionBuilder& refuse_downgrade(std::string why);

  OpVersion& get() { return *v_; }

 private:
  void add_input(FormalParam p);
  void add_output(FormalParam p);
  OpVersion* v_;
};

// Applies behaviours to several versions at once (op.from(13).infer(f)).
class VersionRange {
 public:
  explicit VersionRange(std::vector<OpVersion*> versions) : versions_(std::move(versions)) {}
  VersionRange& infer(const InferFn& f);
  VersionRange& kernel(const KernelFn& f);
  VersionRange& kernel(const PreparedKernel& k);
  VersionRange& trait(Trait t);
  VersionRange& channel_affine(const ChannelAffineFn& f);
  VersionRange& absorb_channel_affine(const AbsorbChannelAffineFn& f);
  VersionRange& epilogue(const EpilogueFn& f);
  VersionRange& takes_epilogue(const TakesEpilogueFn& f);
  VersionRange& residual_add(const ResidualAddFn& f);
  VersionRange& concatenates(const ConcatenatesFn& f);
  VersionRange& macs(const MacsFn& f);
  VersionRange& flops(const FlopsFn& f);
  VersionRange& passes_through(const PassesThroughFn& f);
  VersionRange& check_structure(const StructureCheckFn& f);
  VersionRange& takes_residual(const TakesResidualFn& f);
  VersionRange& dequantize(const DequantizeFn& f);
  VersionRange& takes_dequantized(const TakesDequantizedFn& f);
  VersionRange& conversion(const ConversionFn& f);
  VersionRange& make_conversion(const MakeConversionFn& f);
  VersionRange& multiplies(const MultipliesFn& f);
  VersionRange& takes_scaled_output(const TakesScaledOutputFn& f);
  VersionRange& transforms_input(const TransformsInputFn& f);
  VersionRange& takes_input_transform(const TakesInputTransformFn& f);
  VersionRange& channels_last(const ChannelsLastFn& f);
  VersionRange& elementwise_step(const ElementwiseStepFn& f);
  VersionRange& permutes(const PermutesFn& f);
  VersionRange& make_permutation(const MakePermutationFn& f);
  std::size_t size() const { return versions_.size(); }

 private:
  std::vector<OpVersion*> versions_;
};

// Every version of one operator in one domain.
class OpDef {
 public:
  OpDef(std::string domain, std::string name)
      : domain_(std::move(domain)), name_(std::move(name)) {}

  // Declares the version first published in opset `since_version` (signature blocks).
  VersionBuilder since(int since_version);
  // The version declared with exactly this since_version (must exist).
  VersionBuilder at(int since_version);
  // All declared versions with since >= v (and <= until when given).
  VersionRange from(int v, int until = kUnbounded);
  VersionRange all() { return from(0); }

  const std::string& domain() const { return domain_; }
  const std::string& name() const { return name_; }
  // Sorted by since.
  const std::vector<OpVersion>& versions() const { return versions_; }
  // The greatest version with since <= opset, or nullptr.
  const OpVersion* lookup(int64_t opset) const;

 private:
  std::string domain_, name_;
  std::vector<OpVersion> versions_;
};

}  // namespace onnxtool
