// SPDX-License-Identifier: Apache-2.0
// What an operator's file includes: the schema builder, and the contexts its inference and
// kernels work with.
#pragma once

#include "core/convert/adapters.h"
#include "core/exec/kernel.h"
#include "core/infer/context.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnxtool::ops {

using onnxtool::AttrType;
using onnxtool::AttrView;
using onnxtool::DataType;
using onnxtool::Differentiability;
using onnxtool::Dim;
using onnxtool::Dims;
using onnxtool::InferContext;
using onnxtool::KernelContext;
using onnxtool::kUnbounded;
using onnxtool::NodeInfo;
using onnxtool::OpDef;
using onnxtool::PrepareContext;
using onnxtool::prepared_kernel;
using onnxtool::Shape;
using onnxtool::Tensor;
using onnxtool::Type;
using onnxtool::Value;
using onnxtool::VersionBuilder;
using D = onnxtool::Differentiability;

}  // namespace onnxtool::ops
