// SPDX-License-Identifier: Apache-2.0
// Multi-device annotations (IR 11): the model's device configurations, and each node's
// configuration references and sharding specs. Whether a sharding suits an operator is the
// operator's business (ShardingFormalism.md); what is checked here is what IR.md requires of
// every spec.
#include <set>

#include "core/check/context.h"
#include "core/ir/location.h"

namespace onnxtool {

namespace {

bool names_io(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& n : node.input())
    if (n == name) return true;
  for (const auto& n : node.output())
    if (n == name) return true;
  return false;
}

int known_rank(const Scope& scope, const std::string& name) {
  const onnx::TypeProto* t = scope.type_of(name);
  if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape()) return -1;
  return t->tensor_type().shape().dim_size();
}

// Devices are indices below num_devices, or keys of index_to_device_group_map (whose values
// are indices). Unknown num_devices (a bad configuration) skips the range checks.
void check_devices(CheckContext& ctx, const onnx::ShardingSpecProto& spec, int64_t num_devices,
                   const std::string& loc) {
  if (num_devices < 0) return;
  std::set<int64_t> groups;
  auto in_range = [&](int64_t d, const std::string& what) {
    if (d >= 0 && d < num_devices) return;
    ctx.report("sharding.device-out-of-range", loc,
               what + " " + std::to_string(d) + " is not a device of the configuration; expected " +
                   "0.." + std::to_string(num_devices - 1) +
                   " or a key of index_to_device_group_map");
  };
  for (const auto& g : spec.index_to_device_group_map()) {
    groups.insert(g.key());
    for (int64_t d : g.value()) in_range(d, "device group member");
  }
  for (int64_t d : spec.device())
    if (!groups.count(d)) in_range(d, "device");
}

void check_sharded_dims(CheckContext& ctx, const onnx::ShardingSpecProto& spec, int rank,
                        const std::string& loc) {
  int64_t shards = 1;
  bool counted = true;
  for (int i = 0; i < spec.sharded_dim_size(); ++i) {
    const auto& dim = spec.sharded_dim(i);
    const std::string dloc = loc + " sharded_dim[" + std::to_string(i) + "]";
    if (!dim.has_axis())
      ctx.report("sharding.bad-axis", dloc, "has no axis; expected the tensor axis it shards");
    else if (rank >= 0 && (dim.axis() < -rank || dim.axis() >= rank))
      ctx.report("sharding.bad-axis", dloc,
                 "axis " + std::to_string(dim.axis()) + " is outside [" + std::to_string(-rank) +
                     ", " + std::to_string(rank - 1) + "] for a tensor of rank " +
                     std::to_string(rank));
    for (const auto& s : dim.simple_sharding()) {
      if (!s.has_num_shards() || s.num_shards() <= 0) {
        ctx.report(
            "sharding.bad-num-shards", dloc,
            "num_shards is " +
                (s.has_num_shards() ? std::to_string(s.num_shards()) : std::string("absent")) +
                "; expected a positive number of shards");
        counted = false;
      } else if (shards <= (int64_t{1} << 40)) {
        shards *= s.num_shards();
      }
    }
  }
  if (counted && spec.device_size() > 0 && shards != spec.device_size())
    ctx.report("sharding.shard-count", loc,
               "splits the tensor into " + std::to_string(shards) + " shards but lists " +
                   std::to_string(spec.device_size()) + " devices; expected one per shard");
}

void check_spec(CheckContext& ctx, const onnx::NodeProto& node, const onnx::ShardingSpecProto& spec,
                int64_t num_devices, const std::string& loc, const Scope& scope) {
  if (spec.tensor_name().empty() || !names_io(node, spec.tensor_name()))
    ctx.report("sharding.unknown-tensor", loc,
               spec.tensor_name().empty()
                   ? std::string("has no tensor_name; expected an input or output of the node")
                   : quoted_name(spec.tensor_name()) + " is not an input or output of the node");
  check_devices(ctx, spec, num_devices, loc);
  check_sharded_dims(ctx, spec, known_rank(scope, spec.tensor_name()), loc);
}

}  // namespace

void check_device_configurations(CheckContext& ctx) {
  const auto& configs = ctx.model().configuration();
  if (configs.empty()) return;
  ctx.require_ir(11, "device configurations", "configuration[0]");
  for (int i = 0; i < configs.size(); ++i) {
    const auto& c = configs.Get(i);
    const std::string loc = item_location("", "configuration", i, c.name());
    if (c.name().empty())
      ctx.report("device.missing-name", loc, "the device configuration has no name");
    else if (ctx.device_configs().count(c.name()))
      ctx.report("device.duplicate-name", loc,
                 "another device configuration is also named " + quoted_name(c.name()));
    const bool count_ok = c.has_num_devices() && c.num_devices() > 0;
    if (!count_ok)
      ctx.report(
          "device.bad-num-devices", loc,
          "num_devices is " +
              (c.has_num_devices() ? std::to_string(c.num_devices()) : std::string("absent")) +
              "; expected a positive number");
    if (count_ok && c.device_size() > 0 && c.device_size() != c.num_devices())
      ctx.report("device.device-count", loc,
                 "names " + std::to_string(c.device_size()) + " devices but num_devices is " +
                     std::to_string(c.num_devices()));
    if (!c.name().empty()) ctx.device_configs().emplace(c.name(), count_ok ? c.num_devices() : -1);
  }
}

void check_node_devices(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                        const Scope& scope) {
  if (node.device_configurations_size() == 0) return;
  ctx.require_ir(11, "node device configurations", loc);
  for (int k = 0; k < node.device_configurations_size(); ++k) {
    const auto& c = node.device_configurations(k);
    const std::string cloc = loc + " device_configurations[" + std::to_string(k) + "]";
    auto it = ctx.device_configs().find(c.configuration_id());
    if (it == ctx.device_configs().end())
      ctx.report("device.unknown-configuration", cloc,
                 "configuration_id " + quoted_name(c.configuration_id()) +
                     " names no device configuration of the model");
    const int64_t num = it == ctx.device_configs().end() ? -1 : it->second;
    for (int j = 0; j < c.sharding_spec_size(); ++j)
      check_spec(ctx, node, c.sharding_spec(j), num,
                 cloc + " sharding_spec[" + std::to_string(j) + "]", scope);
  }
}

}  // namespace onnxtool
