// SPDX-License-Identifier: Apache-2.0
// ImageDecoder: the ai.onnx operator. Decodes an encoded image (JPEG, PNG, BMP, ...) into an
// (H, W, C) uint8 tensor: C is 3 for RGB/BGR, 1 for Grayscale. Inference only: decoding needs
// image codecs onnxtool does not carry, so there is no kernel (H and W depend on the bytes).
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_image_decoder(InferContext& ctx) {
  const Dims* x = misc::input_dims(ctx, 0);
  if (x && x->size() != 1) infer_fail("encoded_stream must be 1-D");
  const std::string format = ctx.attrs().get_string("pixel_format", "RGB");
  if (format != "RGB" && format != "BGR" && format != "Grayscale")
    infer_fail("pixel_format must be RGB, BGR or Grayscale, got \"" + format + "\"");
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::uint8),
                    Dims{Dim(), Dim(), Dim::value(format == "Grayscale" ? 1 : 3)});
  ctx.explain(0, "the image's height and width are in the encoded bytes");
}

}  // namespace

void define_ImageDecoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr("pixel_format", AttrType::s, "RGB")
      .input("encoded_stream", "T1", D::non_differentiable)
      .output("image", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(uint8)"})
      .constraint("T2", {"tensor(uint8)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_image_decoder);
}

}  // namespace onnxtool::ops
