// SPDX-License-Identifier: Apache-2.0
#include "core/check/rules.h"

#include <array>
#include <vector>

namespace onnxtool {

namespace {

constexpr Severity E = Severity::error;
constexpr Severity W = Severity::warning;
constexpr Severity N = Severity::note;

// clang-format off
constexpr std::array kRules = {
    // ---- model
    CheckRule{"model.no-graph", E, false, "the model has no graph"},
    CheckRule{"model.ir-version-missing", E, false, "ir_version is absent or 0"},
    CheckRule{"model.ir-version-unknown", E, false, "ir_version is negative or newer than this build knows"},
    CheckRule{"model.ir-version-too-old", E, false, "a field or type is used that needs a newer ir_version than the model declares"},
    CheckRule{"model.opset-missing", E, false, "ir_version >= 3 but no opset_import"},
    CheckRule{"model.opset-before-ir3", E, false, "ir_version < 3 cannot have opset_import"},
    CheckRule{"model.opset-duplicate", E, false, "a domain is imported twice (\"\" and \"ai.onnx\" are the same domain)"},
    CheckRule{"model.opset-unknown-version", E, false, "a standard domain is imported at a version that does not exist"},
    CheckRule{"model.opset-newer-than-ir", W, true, "an opset was released with a newer IR version than the model declares"},
    CheckRule{"model.too-deep", E, false, "subgraphs or types nest deeper than the checker follows"},
    CheckRule{"metadata.duplicate-key", E, false, "metadata_props has the same key twice"},
    // ---- graph: names, scopes, order
    CheckRule{"graph.missing-name", E, false, "a graph has no name"},
    CheckRule{"value.missing-name", E, false, "a graph input, output or value_info has no name"},
    CheckRule{"graph.duplicate-input", E, false, "two graph inputs have the same name"},
    CheckRule{"graph.initializer-missing-name", E, false, "an initializer or sparse initializer has no name"},
    CheckRule{"graph.duplicate-initializer", E, false, "two initializers (dense or sparse) have the same name"},
    CheckRule{"graph.initializer-not-input", E, false, "ir_version <= 3: an initializer is not also a graph input"},
    CheckRule{"graph.subgraph-initializer-is-input", E, false, "ir_version >= 4: a subgraph initializer has the name of a subgraph input"},
    CheckRule{"graph.initializer-type-mismatch", E, false, "an initializer does not match the declared type of the input of the same name"},
    CheckRule{"graph.ssa", E, false, "a value is assigned twice in one graph (single static assignment)"},
    CheckRule{"graph.shadows-outer", E, false, "a subgraph input, initializer or node output reuses a name visible from an outer graph"},
    CheckRule{"graph.undefined-input", E, false, "a node input is not a graph input, initializer, outer value or node output"},
    CheckRule{"graph.not-topological", E, false, "a node uses a value that a later node produces"},
    CheckRule{"graph.cycle", E, false, "nodes depend on each other in a cycle"},
    CheckRule{"graph.output-not-produced", E, false, "a graph or function output is never produced"},
    CheckRule{"graph.value-info-mismatch", E, false, "value_info contradicts another declaration of the same value"},
    CheckRule{"graph.duplicate-value-info", W, true, "two value_info entries describe the same value"},
    CheckRule{"graph.value-info-unknown", W, true, "value_info names a value the graph does not have"},
    CheckRule{"graph.duplicate-node-name", W, true, "two nodes of one graph have the same (non-empty) name"},
    // ---- types of values
    CheckRule{"type.missing", E, false, "a main-graph input or output has no type"},
    CheckRule{"type.missing-elem-type", E, false, "a main-graph input or output type lacks its element type"},
    CheckRule{"type.missing-shape", E, false, "a main-graph tensor input or output has no shape (rank)"},
    CheckRule{"type.unknown-elem-type", E, false, "an element type number is not a known data type"},
    CheckRule{"type.bad-map-key", E, false, "a map key type is not an integer type or string"},
    CheckRule{"type.negative-dim", E, false, "a dim_value is negative"},
    // ---- nodes against their operator
    CheckRule{"node.missing-op-type", E, false, "a node has no op_type"},
    CheckRule{"node.no-outputs", E, false, "a node has no outputs"},
    CheckRule{"node.domain-not-imported", E, false, "a node's domain is not in the opset_import in effect"},
    CheckRule{"node.unknown-op", E, false, "no such operator in the domain at the imported version (nor model-local function)"},
    CheckRule{"node.deprecated-op", E, false, "the operator is deprecated at the imported version"},
    CheckRule{"node.experimental-op", W, true, "the operator is experimental"},
    CheckRule{"node.custom-domain", N, false, "a domain the registry does not know: its nodes are checked structurally only"},
    CheckRule{"node.input-arity", E, false, "the number of inputs is outside what the operator accepts"},
    CheckRule{"node.output-arity", E, false, "the number of outputs is outside what the operator produces"},
    CheckRule{"subgraph.arity", E, false, "a control-flow body's inputs or outputs do not fit its node (If branches, Loop and Scan bodies)"},
    CheckRule{"subgraph.branch-types", E, false, "an If's two branches declare one output with different element types"},
    CheckRule{"node.missing-input", E, false, "a required (single) input is given as an empty name"},
    CheckRule{"node.missing-output", E, false, "a required (single) output is given as an empty name"},
    CheckRule{"node.type-not-allowed", E, false, "a known input or output type is not allowed by the operator's type constraint"},
    CheckRule{"node.type-inconsistent", E, false, "one type constraint is bound to different types within a node"},
    // ---- attributes
    CheckRule{"attr.missing-name", E, false, "an attribute has no name"},
    CheckRule{"attr.duplicate", E, false, "a node has two attributes of the same name"},
    CheckRule{"attr.missing-type", E, false, "an attribute has no type (ir_version >= 2)"},
    CheckRule{"attr.multiple-values", E, false, "an attribute sets more than one value field"},
    CheckRule{"attr.no-value", E, false, "an attribute of a single-value type sets no value field"},
    CheckRule{"attr.value-type-mismatch", E, false, "an attribute's value field does not match its own type"},
    CheckRule{"attr.unknown", E, false, "the operator (or function) has no attribute of that name"},
    CheckRule{"attr.type-mismatch", E, false, "an attribute's type differs from the operator's"},
    CheckRule{"attr.missing-required", E, false, "a required attribute is absent"},
    CheckRule{"attr.ref-outside-function", E, false, "ref_attr_name is used outside a function body"},
    CheckRule{"attr.ref-with-value", E, false, "an attribute has ref_attr_name and a value"},
    CheckRule{"attr.ref-unknown", E, false, "ref_attr_name names no attribute of the enclosing function"},
    // ---- tensors (the codec's rules, reported where the tensor sits)
    CheckRule{"tensor.unknown-type", E, false, "data_type is unset or not a known data type"},
    CheckRule{"tensor.bad-dims", E, false, "a dim is negative, or the element count overflows"},
    CheckRule{"tensor.multiple-storage", E, false, "elements are stored in more than one field"},
    CheckRule{"tensor.missing-data", E, false, "a tensor with elements stores none"},
    CheckRule{"tensor.wrong-field-for-type", E, false, "the storage field cannot hold the element type (e.g. raw_data for strings)"},
    CheckRule{"tensor.size-mismatch", E, false, "the stored data does not match dims and type"},
    CheckRule{"tensor.bad-bool", E, false, "a bool tensor's raw_data holds a byte other than 0 or 1"},
    CheckRule{"tensor.bad-data-location", E, false, "data_location is neither DEFAULT (0) nor EXTERNAL (1)"},
    CheckRule{"tensor.value-out-of-range", E, false, "an int32_data/uint64_data entry is outside the element type"},
    CheckRule{"string.not-utf8", E, false, "a name, string attribute or string element is not valid UTF-8"},
    // ---- sparse tensors
    CheckRule{"sparse.missing-values", E, false, "a sparse tensor has no values"},
    CheckRule{"sparse.values-rank", E, false, "sparse values are not a rank-1 tensor"},
    CheckRule{"sparse.bad-dims", E, false, "a sparse tensor has no dims or a dim that is not positive"},
    CheckRule{"sparse.missing-indices", E, false, "a sparse tensor with values has no indices"},
    CheckRule{"sparse.indices-type", E, false, "sparse indices are not int64"},
    CheckRule{"sparse.indices-shape", E, false, "sparse indices are not [NNZ] or [NNZ, rank]"},
    CheckRule{"sparse.index-out-of-range", E, false, "a sparse index lies outside the dense shape"},
    CheckRule{"sparse.indices-unsorted", E, false, "sparse indices are not strictly increasing"},
    // ---- functions
    CheckRule{"function.missing-name", E, false, "a function has no name"},
    CheckRule{"function.missing-domain", E, false, "ir_version >= 8: a function has no domain"},
    CheckRule{"function.duplicate", E, false, "two functions share (domain, name, overload)"},
    CheckRule{"function.duplicate-input", E, false, "a function lists an input twice"},
    CheckRule{"function.duplicate-output", E, false, "a function lists an output twice"},
    CheckRule{"function.duplicate-attribute", E, false, "a function lists an attribute twice"},
    CheckRule{"function.attribute-overlap", E, false, "a name is both in attribute and attribute_proto"},
    CheckRule{"function.recursive", E, false, "functions call themselves, directly or through others"},
    CheckRule{"function.opset-mismatch", E, false, "a function imports a version whose operator differs from the model's import"},
    // ---- training info
    CheckRule{"training.missing-initialization", E, false, "initialization_binding without an initialization graph"},
    CheckRule{"training.duplicate-binding", E, false, "a binding key appears twice"},
    CheckRule{"training.binding-unknown-key", E, false, "a binding key is not an initializer of the main or algorithm graph"},
    CheckRule{"training.binding-unknown-value", E, false, "a binding value is not an output of its graph"},
    // ---- multi-device (IR 11)
    CheckRule{"device.missing-name", E, false, "a device configuration has no name"},
    CheckRule{"device.duplicate-name", E, false, "two device configurations have the same name"},
    CheckRule{"device.bad-num-devices", E, false, "num_devices is absent or not positive"},
    CheckRule{"device.device-count", E, false, "the device list is not num_devices long"},
    CheckRule{"device.unknown-configuration", E, false, "a node's configuration_id names no device configuration"},
    CheckRule{"sharding.unknown-tensor", E, false, "a sharding spec names no input or output of its node"},
    CheckRule{"sharding.device-out-of-range", E, false, "a sharding device is neither a device index nor a group key"},
    CheckRule{"sharding.bad-axis", E, false, "a sharded axis is absent or outside [-rank, rank-1]"},
    CheckRule{"sharding.bad-num-shards", E, false, "num_shards is absent or not positive"},
    CheckRule{"sharding.shard-count", E, false, "the shards do not match the number of devices listed"},
    // ---- names
    CheckRule{"name.not-c-identifier", W, true, "a name is not a C90 identifier (IR.md: SHOULD)"},
};
// clang-format on

// What `check` can report besides the checker's own rules: reading the file (binary, text or
// JSON), its external data, and inference under --full. Load problems that stop the reading
// are fatal whatever the rule configuration says; the table gives them ids and help all the same.
// clang-format off
constexpr std::array kLoadAndInferenceRules = {
    // ---- reading the model
    CheckRule{"io.not-found", E, false, "the model file does not exist"},
    CheckRule{"io.is-directory", E, false, "the model path is a directory"},
    CheckRule{"io.open", E, false, "the model file cannot be opened"},
    CheckRule{"io.stat", E, false, "the model file's size or kind cannot be read"},
    CheckRule{"io.read", E, false, "reading the model file failed"},
    CheckRule{"io.mmap", E, false, "the model file cannot be memory-mapped"},
    CheckRule{"model.empty", E, false, "the file is empty"},
    CheckRule{"model.not-protobuf", E, false, "the bytes are not a protobuf message (or it is truncated)"},
    CheckRule{"model.not-a-model", E, false, "the protobuf is not a ModelProto (a tensor .pb, for instance)"},
    CheckRule{"model.too-large", E, false, "the model is over protobuf's 2 GiB limit: weights must be external"},
    CheckRule{"model.unknown-fields", W, false, "the model has fields this onnxtool does not know (kept, ignored)"},
    CheckRule{"text.syntax", E, false, "the textual syntax does not parse"},
    CheckRule{"text.unexpected-end", E, false, "the text ends inside a construct"},
    CheckRule{"text.unterminated-string", E, false, "a string literal is not closed"},
    CheckRule{"text.unterminated-annotation", E, false, "an annotation is not closed"},
    CheckRule{"text.bad-escape", E, false, "a string has an unknown escape"},
    CheckRule{"text.bad-utf8", E, false, "the text is not valid UTF-8"},
    CheckRule{"text.bad-number", E, false, "a number does not parse"},
    CheckRule{"text.number-range", E, false, "a number does not fit its type"},
    CheckRule{"text.bad-base64", E, false, "a base64 tensor payload does not decode"},
    CheckRule{"text.bad-annotation", E, false, "a value annotation is malformed"},
    CheckRule{"text.unknown-type", E, false, "an element type name is unknown"},
    CheckRule{"text.tensor-type", E, false, "a tensor literal does not fit its declared type"},
    CheckRule{"text.value-count", E, false, "a tensor literal has the wrong number of values"},
    CheckRule{"text.attribute-type", E, false, "an attribute value does not fit its declared type"},
    CheckRule{"text.duplicate-name", E, false, "a name is declared twice where the syntax forbids it"},
    CheckRule{"text.unknown-key", E, false, "a header key is unknown"},
    CheckRule{"text.too-deep", E, false, "the text nests deeper than the parser follows"},
    CheckRule{"text.sidecar", E, false, "the weights file beside a text model is unusable"},
    CheckRule{"text.sidecar-missing", E, false, "a tensor refers to the weights file beside the text model, which is missing"},
    CheckRule{"json.syntax", E, false, "the JSON does not parse"},
    CheckRule{"json.not-utf8", E, false, "the JSON is not valid UTF-8"},
    CheckRule{"json.not-a-model", E, false, "the JSON is not a ModelProto in protobuf's JSON mapping"},
    CheckRule{"json.unknown-fields", E, false, "the model has fields JSON cannot carry"},
    // ---- external data (ExternalData.md), validated without reading it
    CheckRule{"external-data.missing-location", E, false, "an external reference has no location"},
    CheckRule{"external-data.duplicate-key", E, false, "an external_data key appears twice"},
    CheckRule{"external-data.bad-offset", E, false, "offset is not a non-negative integer"},
    CheckRule{"external-data.bad-length", E, false, "length is not a non-negative integer"},
    CheckRule{"external-data.bad-checksum", E, false, "checksum is not a SHA1 digest"},
    CheckRule{"external-data.bad-location", E, false, "the location is empty or not a usable path"},
    CheckRule{"external-data.unknown-key", W, false, "an external_data key is not one ExternalData.md defines"},
    CheckRule{"external-data.inline-data", E, false, "a tensor has inline data beside its external reference"},
    CheckRule{"external-data.string-tensor", E, false, "a string tensor is marked external"},
    CheckRule{"external-data.not-marked-external", E, false, "external_data is set but data_location is not EXTERNAL"},
    CheckRule{"external-data.absolute-path", E, false, "the location is an absolute path"},
    CheckRule{"external-data.escapes-model-dir", E, false, "the location leaves the model's directory (..)"},
    CheckRule{"external-data.symlink", E, false, "a component of the location is a symbolic link"},
    CheckRule{"external-data.hardlink", E, false, "the data file has several hard links"},
    CheckRule{"external-data.is-directory", E, false, "the location is a directory"},
    CheckRule{"external-data.not-a-file", E, false, "the location is not a regular file"},
    CheckRule{"external-data.missing-dir", E, false, "the data directory does not exist"},
    CheckRule{"external-data.missing-file", E, false, "the data file does not exist"},
    CheckRule{"external-data.offset-past-end", E, false, "offset lies past the end of the data file"},
    CheckRule{"external-data.range-past-end", E, false, "offset + length lies past the end of the data file"},
    CheckRule{"external-data.length-mismatch", E, false, "length does not fit the tensor's dims and type"},
    CheckRule{"external-data.open", E, false, "the data file cannot be opened"},
    CheckRule{"external-data.changed", E, false, "the data file changed while it was read"},
    CheckRule{"external-data.invalid", E, false, "the external data is unusable"},
    CheckRule{"external-data.checksum-mismatch", E, false, "--verify-data: the data's SHA1 differs from the checksum"},
    // ---- inference (check --full)
    CheckRule{"infer.failed", E, false, "an operator's inference finds the node's inputs impossible"},
    CheckRule{"infer.type-not-allowed", E, false, "an inferred type is not allowed by the operator's type constraint"},
    CheckRule{"infer.type-mismatch", E, false, "inferred types bound to one type constraint differ"},
    CheckRule{"infer.undefined-input", E, false, "a node input has no producer inference can see"},
    CheckRule{"infer.declared-conflict", W, true, "an inferred type or shape contradicts a declared one"},
    CheckRule{"infer.symbol-conflict", W, true, "one symbolic dim is bound to different sizes"},
    CheckRule{"infer.unknown-op", W, false, "no inference for the operator: its outputs stay untyped"},
    CheckRule{"infer.function", W, false, "a function body could not be inferred"},
    CheckRule{"infer.warning", W, false, "an operator's inference has a warning"},
    CheckRule{"infer.internal", E, false, "inference itself failed (a bug: please report it)"},
};
// clang-format on

// Every id once, for rule configuration and the machine formats.
std::vector<CheckRule> all_reported_rules() {
  std::vector<CheckRule> all(kRules.begin(), kRules.end());
  all.insert(all.end(), kLoadAndInferenceRules.begin(), kLoadAndInferenceRules.end());
  return all;
}

}  // namespace

std::span<const CheckRule> check_rules() {
  return kRules;
}

std::span<const CheckRule> reported_rules() {
  static const std::vector<CheckRule> all = all_reported_rules();
  return all;
}

const CheckRule* find_check_rule(std::string_view id) {
  for (const auto& r : kRules)
    if (r.id == id) return &r;
  return nullptr;
}

const CheckRule* find_reported_rule(std::string_view id) {
  for (const auto& r : reported_rules())
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace onnxtool
