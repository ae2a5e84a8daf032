// SPDX-License-Identifier: Apache-2.0
// The model's header: ir_version, opset_import and metadata_props.
#include "core/check/context.h"
#include "core/ir/location.h"
#include "core/registry/registry.h"
#include "core/version.h"

namespace onnxtool {

namespace {

void check_ir_version(CheckContext& ctx) {
  const auto& m = ctx.model();
  if (!m.has_ir_version() || m.ir_version() == 0) {
    ctx.report("model.ir-version-missing", "ir_version",
               "ir_version is not set; expected the IR version the model was written for (1.." +
                   std::to_string(kNewestIrVersion) + ")");
    return;
  }
  if (m.ir_version() < 0 || m.ir_version() > kNewestIrVersion)
    ctx.report("model.ir-version-unknown", "ir_version",
               "ir_version " + std::to_string(m.ir_version()) + " is not one this build knows; " +
                   "expected 1.." + std::to_string(kNewestIrVersion));
}

// A standard domain's version must exist; the IR it shipped with should not be newer than the
// model's (a warning: the backend test data itself has IR 3 models importing opset 9).
void check_opset_version(CheckContext& ctx, const std::string& domain, int64_t version,
                         const std::string& loc) {
  const OpsetDomainRange* range = find_opset_domain(domain);
  if (!range) return;  // a custom domain: any version is the domain owner's business
  if (version < range->min_version || version > range->max_version) {
    ctx.report("model.opset-unknown-version", loc,
               domain_display_name(domain) + " version " + std::to_string(version) +
                   " does not exist; expected " + std::to_string(range->min_version) + ".." +
                   std::to_string(range->max_version));
    return;
  }
  const int64_t needs = min_ir_for_opset(domain, version);
  if (ctx.ir_version() > 0 && ctx.ir_version() < needs)
    ctx.report("model.opset-newer-than-ir", loc,
               domain_display_name(domain) + " opset " + std::to_string(version) +
                   " was released with IR version " + std::to_string(needs) +
                   ", the model declares " + std::to_string(ctx.ir_version()));
}

}  // namespace

OpsetMap read_opsets(CheckContext& ctx,
                     const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports,
                     const std::string& prefix) {
  OpsetMap out;
  for (int i = 0; i < imports.size(); ++i) {
    const auto& o = imports.Get(i);
    const std::string domain = normalize_domain(o.domain());
    const std::string loc = item_location(prefix, "opset_import", i, domain_display_name(domain));
    check_utf8(ctx, o.domain(), loc, "domain");
    if (out.count(domain)) {
      ctx.report("model.opset-duplicate", loc,
                 "domain " + domain_display_name(domain) +
                     " is imported more than once; expected one version per domain");
      continue;
    }
    out[domain] = o.version();
    check_opset_version(ctx, domain, o.version(), loc);
  }
  return out;
}

void check_model_header(CheckContext& ctx) {
  const auto& m = ctx.model();
  check_ir_version(ctx);
  OpsetMap opsets = read_opsets(ctx, m.opset_import(), "");
  const int64_t ir = ctx.ir_version();
  if (ir >= 3 && m.opset_import_size() == 0)
    ctx.report("model.opset-missing", "opset_import",
               "no opset_import; ir_version >= 3 requires the operator sets to be imported "
               "explicitly (e.g. ai.onnx 21)");
  if (ir > 0 && ir < 3) {
    if (m.opset_import_size() > 0)
      ctx.report("model.opset-before-ir3", "opset_import",
                 "ir_version " + std::to_string(ir) +
                     " predates opset_import (IR 3); expected no opset_import, or ir_version >= 3");
    // Before IR 3 every model implicitly used version 1 of the default domain.
    opsets.emplace("", 1);
  }
  ctx.set_model_opsets(std::move(opsets));
  check_metadata(ctx, m.metadata_props(), "");
}

}  // namespace onnxtool
