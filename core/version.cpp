// SPDX-License-Identifier: Apache-2.0
#include "core/version.h"

#include <array>

namespace onnxtool {

namespace {

constexpr std::array<OpsetDomainRange, 4> kDomains = {{
    {"", 1, 28},
    {"ai.onnx.ml", 1, 5},
    {"ai.onnx.preview.training", 1, 1},
    {"ai.onnx.preview", 1, 1},
}};

struct IrStep {
  int64_t first_opset;
  int64_t ir;
};

// The IR version that shipped with each default-domain opset (Versioning.md's release table;
// opset 28 came with IR 14).
constexpr std::array<IrStep, 12> kDefaultDomainIr = {{{1, 3},
                                                      {9, 4},
                                                      {10, 5},
                                                      {11, 6},
                                                      {12, 7},
                                                      {15, 8},
                                                      {19, 9},
                                                      {21, 10},
                                                      {23, 11},
                                                      {24, 12},
                                                      {25, 13},
                                                      {28, 14}}};
constexpr std::array<IrStep, 5> kMlDomainIr = {{{1, 3}, {2, 6}, {3, 8}, {4, 9}, {5, 10}}};

template <std::size_t N>
int64_t lookup(const std::array<IrStep, N>& table, int64_t version) {
  int64_t ir = table.front().ir;
  for (const auto& step : table)
    if (version >= step.first_opset) ir = step.ir;
  return ir;
}

}  // namespace

std::span<const OpsetDomainRange> known_opset_domains() {
  return kDomains;
}

const OpsetDomainRange* find_opset_domain(std::string_view domain) {
  if (domain == "ai.onnx") domain = "";
  for (const auto& d : kDomains)
    if (d.domain == domain) return &d;
  return nullptr;
}

int64_t min_ir_for_opset(std::string_view domain, int64_t version) {
  if (domain.empty() || domain == "ai.onnx") return lookup(kDefaultDomainIr, version);
  if (domain == "ai.onnx.ml") return lookup(kMlDomainIr, version);
  if (domain == "ai.onnx.preview.training") return 7;
  if (domain == "ai.onnx.preview") return 13;
  return 1;
}

}  // namespace onnxtool
