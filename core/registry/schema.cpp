// SPDX-License-Identifier: Apache-2.0
#include "core/registry/schema.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/types/dtype.h"

namespace onnxtool {

const char* attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::undefined:
      return "undefined";
    case AttrType::f:
      return "float";
    case AttrType::i:
      return "int";
    case AttrType::s:
      return "string";
    case AttrType::t:
      return "tensor";
    case AttrType::g:
      return "graph";
    case AttrType::floats:
      return "list of floats";
    case AttrType::ints:
      return "list of ints";
    case AttrType::strings:
      return "list of strings";
    case AttrType::tensors:
      return "list of tensors";
    case AttrType::graphs:
      return "list of graphs";
    case AttrType::sparse_tensor:
      return "sparse_tensor";
    case AttrType::sparse_tensors:
      return "list of sparse_tensors";
    case AttrType::tp:
      return "type_proto";
    case AttrType::type_protos:
      return "list of type_protos";
  }
  return "undefined";
}

namespace {

// Recursive descent over "kind(args)" with the spaces already removed.
std::string canonical(const std::string& s, std::size_t& pos);

std::string read_word(const std::string& s, std::size_t& pos) {
  std::size_t start = pos;
  while (pos < s.size() && s[pos] != '(' && s[pos] != ')' && s[pos] != ',') ++pos;
  return s.substr(start, pos - start);
}

std::string canonical_value(const std::string& s, std::size_t& pos) {
  std::size_t probe = pos;
  std::string word = read_word(s, probe);
  if (probe < s.size() && s[probe] == '(') return canonical(s, pos);
  pos = probe;
  return "tensor(" + word + ")";  // map values written as a bare element type
}

std::string canonical(const std::string& s, std::size_t& pos) {
  std::string word = read_word(s, pos);
  if (pos >= s.size() || s[pos] != '(') return word;
  ++pos;  // '('
  std::string out = word + "(";
  if (word == "map") {
    out += read_word(s, pos);
    if (pos < s.size() && s[pos] == ',') ++pos;
    out += "," + canonical_value(s, pos);
  } else if (word == "tensor" || word == "sparse_tensor") {
    out += read_word(s, pos);
  } else {
    out += canonical(s, pos);
  }
  if (pos < s.size() && s[pos] == ')') ++pos;
  return out + ")";
}

}  // namespace

std::string canonical_type_string(const std::string& spec_type) {
  std::string s;
  for (char c : spec_type)
    if (c != ' ' && c != '\t') s += c;
  std::size_t pos = 0;
  return canonical(s, pos);
}

// ---- TypeSet -------------------------------------------------------------------------------

namespace {

// The element type of "tensor(T)", or of "optional(tensor(T))" when through_optional.
std::optional<DataType> tensor_element(const std::string& canonical, bool through_optional) {
  std::string inner = canonical;
  const std::string optional = "optional(";
  if (through_optional && inner.rfind(optional, 0) == 0 && inner.back() == ')')
    inner = inner.substr(optional.size(), inner.size() - optional.size() - 1);
  const std::string tensor = "tensor(";
  if (inner.rfind(tensor, 0) != 0 || inner.back() != ')') return std::nullopt;
  return data_type_from_name(inner.substr(tensor.size(), inner.size() - tensor.size() - 1));
}

uint64_t bit_of(DataType t) {
  return uint64_t{1} << static_cast<int>(t);
}

}  // namespace

TypeSet::TypeSet(std::vector<std::string> canonical_types) : names_(std::move(canonical_types)) {
  for (const auto& n : names_) {
    if (auto t = tensor_element(n, false)) plain_tensor_bits_ |= bit_of(*t);
    if (auto t = tensor_element(n, true)) tensor_bits_ |= bit_of(*t);
  }
}

bool TypeSet::allows(const std::string& canonical) const {
  if (auto t = tensor_element(canonical, false)) return (plain_tensor_bits_ & bit_of(*t)) != 0;
  return std::find(names_.begin(), names_.end(), canonical) != names_.end();
}

TypeConstraint::TypeConstraint(std::string constraint_name, std::vector<std::string> allowed_types)
    : name(std::move(constraint_name)), allowed(std::move(allowed_types)), types(allowed) {}

const AttrDef* OpVersion::find_attribute(const std::string& attr) const {
  for (const auto& a : attributes)
    if (a.name == attr) return &a;
  return nullptr;
}

const TypeConstraint* OpVersion::find_constraint(const std::string& constraint) const {
  for (const auto& c : constraints)
    if (c.name == constraint) return &c;
  return nullptr;
}

std::string OpVersion::id() const {
  return (domain.empty() ? "" : domain + ".") + name + "-" + std::to_string(since);
}

// ---- VersionBuilder ----------------------------------------------------------------------

namespace {

// What the formal parameters imply, as ONNX computes it: optional parameters before a variadic
// one still take a position.
void implied_arity(const std::vector<FormalParam>& ps, int& lo, int& hi) {
  lo = 0;
  hi = 0;
  for (const auto& p : ps) {
    if (p.option == ParamOption::variadic) {
      lo = hi + p.min_arity;
      hi = kUnbounded;
      return;
    }
    ++hi;
    if (p.option == ParamOption::single) lo = hi;
  }
}

FormalParam param(std::string_view name, std::string_view type, ParamOption option,
                  Differentiability d, int min_arity = 1, bool homogeneous = true) {
  FormalParam p;
  p.name = name;
  p.type = type.find('(') == std::string_view::npos ? std::string(type)
                                                    : canonical_type_string(std::string(type));
  if (p.is_literal_type()) p.literal = TypeSet({p.type});
  p.option = option;
  p.homogeneous = homogeneous;
  p.min_arity = min_arity;
  p.differentiable = d;
  return p;
}

}  // namespace

// Only the side that changed: an explicit input_range() survives the outputs that follow it.
void VersionBuilder::add_input(FormalParam p) {
  v_->inputs.push_back(std::move(p));
  implied_arity(v_->inputs, v_->min_inputs, v_->max_inputs);
}

void VersionBuilder::add_output(FormalParam p) {
  v_->outputs.push_back(std::move(p));
  implied_arity(v_->outputs, v_->min_outputs, v_->max_outputs);
}

VersionBuilder& VersionBuilder::deprecated() {
  v_->deprecated = true;
  return *this;
}

VersionBuilder& VersionBuilder::experimental() {
  v_->experimental = true;
  return *this;
}

VersionBuilder& VersionBuilder::trait(Trait t) {
  v_->traits |= static_cast<uint32_t>(t);
  return *this;
}

VersionBuilder& VersionBuilder::is_function(std::initializer_list<int> function_opsets) {
  v_->is_function = true;
  v_->function_opsets.assign(function_opsets.begin(), function_opsets.end());
  if (v_->function_body.empty() && function_opsets.size() > 0)
    v_->function_opset = v_->function_opsets.back();
  return *this;
}

VersionBuilder& VersionBuilder::attr(std::string_view name, AttrType type, AttrValue value) {
  v_->attributes.push_back({std::string(name), type, false, std::move(value)});
  return *this;
}

VersionBuilder& VersionBuilder::attr_required(std::string_view name, AttrType type) {
  v_->attributes.push_back({std::string(name), type, true, {}});
  return *this;
}

VersionBuilder& VersionBuilder::attr_optional(std::string_view name, AttrType type) {
  v_->attributes.push_back({std::string(name), type, false, {}});
  return *this;
}

VersionBuilder& VersionBuilder::input(std::string_view name, std::string_view type,
                                      Differentiability d) {
  add_input(param(name, type, ParamOption::single, d));
  return *this;
}

VersionBuilder& VersionBuilder::input_optional(std::string_view name, std::string_view type,
                                               Differentiability d) {
  add_input(param(name, type, ParamOption::optional, d));
  return *this;
}

VersionBuilder& VersionBuilder::input_variadic(std::string_view name, std::string_view type,
                                               int min_arity, bool homogeneous,
                                               Differentiability d) {
  add_input(param(name, type, ParamOption::variadic, d, min_arity, homogeneous));
  return *this;
}

VersionBuilder& VersionBuilder::output(std::string_view name, std::string_view type,
                                       Differentiability d) {
  add_output(param(name, type, ParamOption::single, d));
  return *this;
}

VersionBuilder& VersionBuilder::output_optional(std::string_view name, std::string_view type,
                                                Differentiability d) {
  add_output(param(name, type, ParamOption::optional, d));
  return *this;
}

VersionBuilder& VersionBuilder::output_variadic(std::string_view name, std::string_view type,
                                                int min_arity, bool homogeneous,
                                                Differentiability d) {
  add_output(param(name, type, ParamOption::variadic, d, min_arity, homogeneous));
  return *this;
}

VersionBuilder& VersionBuilder::constraint(std::string_view name,
                                           std::vector<std::string> allowed) {
  for (auto& a : allowed) a = canonical_type_string(a);
  v_->constraints.push_back({std::string(name), std::move(allowed)});
  return *this;
}

VersionBuilder& VersionBuilder::constraint(std::string_view name,
                                           std::initializer_list<const char*> allowed) {
  std::vector<std::string> types;
  types.reserve(allowed.size());
  for (const char* a : allowed) types.push_back(canonical_type_string(a));
  v_->constraints.push_back({std::string(name), std::move(types)});
  return *this;
}

VersionBuilder& VersionBuilder::input_range(int min, int max) {
  v_->min_inputs = min;
  v_->max_inputs = max;
  return *this;
}

VersionBuilder& VersionBuilder::output_range(int min, int max) {
  v_->min_outputs = min;
  v_->max_outputs = max;
  return *this;
}

VersionBuilder& VersionBuilder::function(std::string body_text, int body_opset) {
  v_->is_function = true;
  v_->function_body = std::move(body_text);
  v_->function_opset = body_opset;
  return *this;
}

VersionBuilder& VersionBuilder::function_note(std::string why) {
  v_->function_body_note = std::move(why);
  return *this;
}

VersionBuilder& VersionBuilder::infer(InferFn f) {
  v_->infer = std::move(f);
  return *this;
}

VersionBuilder& VersionBuilder::kernel(KernelFn f) {
  v_->kernel = std::move(f);
  v_->prepare = nullptr;
  return *this;
}

VersionBuilder& VersionBuilder::kernel(PreparedKernel k) {
  v_->kernel = std::move(k.run);
  v_->prepare = std::move(k.prepare);
  return *this;
}

VersionBuilder& VersionBuilder::upgrade(AdapterFn f) {
  v_->upgrade = std::move(f);
  return *this;
}

VersionBuilder& VersionBuilder::refuse_upgrade(std::string why) {
  v_->upgrade_refusal = std::move(why);
  return *this;
}

VersionBuilder& VersionBuilder::refuse_downgrade(std::string why) {
  v_->downgrade_refusal = std::move(why);
  return *this;
}

VersionBuilder& VersionBuilder::downgrade(AdapterFn f) {
  v_->downgrade = std::move(f);
  return *this;
}

VersionRange& VersionRange::infer(const InferFn& f) {
  for (auto* v : versions_) v->infer = f;
  return *this;
}

VersionRange& VersionRange::kernel(const KernelFn& f) {
  for (auto* v : versions_) {
    v->kernel = f;
    v->prepare = nullptr;
  }
  return *this;
}

VersionRange& VersionRange::kernel(const PreparedKernel& k) {
  for (auto* v : versions_) {
    v->kernel = k.run;
    v->prepare = k.prepare;
  }
  return *this;
}

VersionRange& VersionRange::trait(Trait t) {
  for (auto* v : versions_) v->traits |= static_cast<uint32_t>(t);
  return *this;
}

VersionRange& VersionRange::channel_affine(const ChannelAffineFn& f) {
  for (auto* v : versions_) v->channel_affine = f;
  return *this;
}

VersionRange& VersionRange::absorb_channel_affine(const AbsorbChannelAffineFn& f) {
  for (auto* v : versions_) v->absorb_channel_affine = f;
  return *this;
}

VersionRange& VersionRange::epilogue(const EpilogueFn& f) {
  for (auto* v : versions_) v->epilogue = f;
  return *this;
}

VersionRange& VersionRange::takes_epilogue(const TakesEpilogueFn& f) {
  for (auto* v : versions_) v->takes_epilogue = f;
  return *this;
}

VersionRange& VersionRange::residual_add(const ResidualAddFn& f) {
  for (auto* v : versions_) v->residual_add = f;
  return *this;
}

VersionRange& VersionRange::concatenates(const ConcatenatesFn& f) {
  for (auto* v : versions_) v->concatenates = f;
  return *this;
}

VersionRange& VersionRange::check_structure(const StructureCheckFn& f) {
  for (auto* v : versions_) v->check_structure = f;
  return *this;
}

VersionRange& VersionRange::macs(const MacsFn& f) {
  for (auto* v : versions_) v->macs = f;
  return *this;
}

VersionRange& VersionRange::flops(const FlopsFn& f) {
  for (auto* v : versions_) v->flops = f;
  return *this;
}

VersionRange& VersionRange::passes_through(const PassesThroughFn& f) {
  for (auto* v : versions_) v->passes_through = f;
  return *this;
}

VersionRange& VersionRange::takes_residual(const TakesResidualFn& f) {
  for (auto* v : versions_) v->takes_residual = f;
  return *this;
}

VersionRange& VersionRange::dequantize(const DequantizeFn& f) {
  for (auto* v : versions_) v->dequantize = f;
  return *this;
}

VersionRange& VersionRange::takes_dequantized(const TakesDequantizedFn& f) {
  for (auto* v : versions_) v->takes_dequantized = f;
  return *this;
}

VersionRange& VersionRange::conversion(const ConversionFn& f) {
  for (auto* v : versions_) v->conversion = f;
  return *this;
}

VersionRange& VersionRange::make_conversion(const MakeConversionFn& f) {
  for (auto* v : versions_) v->make_conversion = f;
  return *this;
}

VersionRange& VersionRange::permutes(const PermutesFn& f) {
  for (auto* v : versions_) v->permutes = f;
  return *this;
}

VersionRange& VersionRange::make_permutation(const MakePermutationFn& f) {
  for (auto* v : versions_) v->make_permutation = f;
  return *this;
}

VersionRange& VersionRange::elementwise_step(const ElementwiseStepFn& f) {
  for (auto* v : versions_) v->elementwise_step = f;
  return *this;
}

VersionRange& VersionRange::multiplies(const MultipliesFn& f) {
  for (auto* v : versions_) v->multiplies = f;
  return *this;
}

VersionRange& VersionRange::takes_scaled_output(const TakesScaledOutputFn& f) {
  for (auto* v : versions_) v->takes_scaled_output = f;
  return *this;
}

VersionRange& VersionRange::transforms_input(const TransformsInputFn& f) {
  for (auto* v : versions_) v->transforms_input = f;
  return *this;
}

VersionRange& VersionRange::takes_input_transform(const TakesInputTransformFn& f) {
  for (auto* v : versions_) v->takes_input_transform = f;
  return *this;
}

VersionRange& VersionRange::channels_last(const ChannelsLastFn& f) {
  for (auto* v : versions_) v->channels_last = f;
  return *this;
}

// ---- OpDef ---------------------------------------------------------------------------------

VersionBuilder OpDef::since(int since_version) {
  for (const auto& v : versions_)
    if (v.since == since_version)
      throw std::logic_error(name_ + "-" + std::to_string(since_version) + " declared twice");
  OpVersion v;
  v.domain = domain_;
  v.name = name_;
  v.since = since_version;
  auto it = std::upper_bound(versions_.begin(), versions_.end(), since_version,
                             [](int s, const OpVersion& x) { return s < x.since; });
  it = versions_.insert(it, std::move(v));
  return VersionBuilder(*it);
}

VersionBuilder OpDef::at(int since_version) {
  for (auto& v : versions_)
    if (v.since == since_version) return VersionBuilder(v);
  throw std::logic_error(name_ + "-" + std::to_string(since_version) + " is not declared");
}

VersionRange OpDef::from(int v, int until) {
  std::vector<OpVersion*> out;
  for (auto& x : versions_)
    if (x.since >= v && x.since <= until && !x.deprecated) out.push_back(&x);
  return VersionRange(std::move(out));
}

const OpVersion* OpDef::lookup(int64_t opset) const {
  const OpVersion* best = nullptr;
  for (const auto& v : versions_)
    if (v.since <= opset) best = &v;
  return best;
}

}  // namespace onnxtool
