// SPDX-License-Identifier: Apache-2.0
// NonMaxSuppression: the ai.onnx operator. Per batch and class, greedily keeps the
// highest-scoring boxes (above score_threshold), dropping those whose IoU with a kept box is
// above iou_threshold, at most max_output_boxes_per_class of them. Output rows are
// (batch, class, box), batch-major, then class, then in the order kept.
#include <algorithm>
#include <numeric>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_non_max_suppression(InferContext& ctx) {
  const Dims* boxes = misc::input_dims(ctx, 0);
  const Dims* scores = misc::input_dims(ctx, 1);
  if (boxes && boxes->size() != 3) infer_fail("boxes must be 3-D (batches, boxes, 4)");
  if (scores && scores->size() != 3) infer_fail("scores must be 3-D (batches, classes, boxes)");
  if (boxes) ctx.unify_dims((*boxes)[2], Dim::value(4), "boxes' last dim");
  if (boxes && scores) {
    ctx.unify_dims((*boxes)[0], (*scores)[0], "the number of batches");
    ctx.unify_dims((*boxes)[1], (*scores)[2], "the number of boxes");
  }
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::int64), Dims{Dim(), Dim::value(3)});
  ctx.explain(0, "the number of boxes kept depends on the scores and overlaps");
}

struct Box {
  float y1, x1, y2, x2;  // corners, y1 <= y2 and x1 <= x2
};

Box read_box(const float* p, bool center) {
  if (center) {
    const float xc = p[0], yc = p[1], w = p[2] / 2, h = p[3] / 2;
    return {yc - h, xc - w, yc + h, xc + w};
  }
  return {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]), std::max(p[1], p[3])};
}

float iou(const Box& a, const Box& b) {
  const float area_a = (a.y2 - a.y1) * (a.x2 - a.x1);
  const float area_b = (b.y2 - b.y1) * (b.x2 - b.x1);
  if (area_a <= 0 || area_b <= 0) return 0;
  const float ih = std::max(0.0f, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
  const float iw = std::max(0.0f, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
  const float inter = ih * iw;
  return inter / (area_a + area_b - inter);
}

float optional_float(const KernelContext& ctx, std::size_t i, float fallback) {
  if (ctx.num_inputs() <= i || !ctx.has_input(i)) return fallback;
  const Tensor& t = ctx.input(i);
  if (t.numel() != 1) ctx.fail("input " + std::to_string(i) + " must hold one value");
  return misc::value_at<float>(ctx, t, 0, "threshold");
}

void non_max_suppression_kernel(KernelContext& ctx) {
  const Tensor& boxes = ctx.input(0);
  const Tensor& scores = ctx.input(1);
  if (boxes.rank() != 3 || boxes.shape()[2] != 4)
    ctx.fail("boxes has shape " + shape_to_string(boxes.shape()) +
             ", expected (batches, boxes, 4)");
  if (scores.rank() != 3 || scores.shape()[0] != boxes.shape()[0] ||
      scores.shape()[2] != boxes.shape()[1])
    ctx.fail("scores has shape " + shape_to_string(scores.shape()) + ", expected (" +
             std::to_string(boxes.shape()[0]) + ", classes, " + std::to_string(boxes.shape()[1]) +
             ")");
  int64_t max_out = 0;
  if (ctx.num_inputs() > 2 && ctx.has_input(2))
    max_out = misc::value_at<int64_t>(ctx, ctx.input(2), 0, "max_output_boxes_per_class");
  const float iou_threshold = optional_float(ctx, 3, 0.0f);
  const bool has_score_threshold = ctx.num_inputs() > 4 && ctx.has_input(4);
  const float score_threshold = optional_float(ctx, 4, 0.0f);
  if (iou_threshold < 0 || iou_threshold > 1)
    ctx.fail("iou_threshold must be in [0, 1], got " + std::to_string(iou_threshold));
  const bool center = ctx.attrs().get_int("center_point_box", 0) != 0;
  const std::vector<float> bv = misc::values_as<float>(ctx, boxes, "boxes");
  const std::vector<float> sv = misc::values_as<float>(ctx, scores, "scores");
  const int64_t batches = boxes.shape()[0], count = boxes.shape()[1], classes = scores.shape()[1];
  std::vector<int64_t> out;
  for (int64_t b = 0; b < batches && max_out > 0; ++b) {
    std::vector<Box> bx(static_cast<std::size_t>(count));
    for (int64_t i = 0; i < count; ++i)
      bx[static_cast<std::size_t>(i)] = read_box(bv.data() + (b * count + i) * 4, center);
    for (int64_t c = 0; c < classes; ++c) {
      const float* s = sv.data() + (b * classes + c) * count;
      std::vector<int64_t> order;
      for (int64_t i = 0; i < count; ++i)
        if (!has_score_threshold || s[i] > score_threshold) order.push_back(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t l, int64_t r) { return s[l] > s[r]; });
      std::vector<int64_t> kept;
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int64_t k) {
          return iou(bx[static_cast<std::size_t>(k)], bx[static_cast<std::size_t>(i)]) >
                 iou_threshold;
        });
        if (!suppressed) kept.push_back(i);
      }
      for (int64_t k : kept) out.insert(out.end(), {b, c, k});
    }
  }
  ctx.set_output(0, Tensor::from_vector<int64_t>({static_cast<int64_t>(out.size() / 3), 3}, out));
}

}  // namespace

void define_NonMaxSuppression(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("center_point_box", AttrType::i, int64_t{0})
      .input("boxes", "tensor(float)")
      .input("scores", "tensor(float)")
      .input_optional("max_output_boxes_per_class", "tensor(int64)")
      .input_optional("iou_threshold", "tensor(float)")
      .input_optional("score_threshold", "tensor(float)")
      .output("selected_indices", "tensor(int64)");
  op.since(11)
      .attr("center_point_box", AttrType::i, int64_t{0})
      .input("boxes", "tensor(float)")
      .input("scores", "tensor(float)")
      .input_optional("max_output_boxes_per_class", "tensor(int64)")
      .input_optional("iou_threshold", "tensor(float)")
      .input_optional("score_threshold", "tensor(float)")
      .output("selected_indices", "tensor(int64)");
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_non_max_suppression).kernel(non_max_suppression_kernel);
}

}  // namespace onnxtool::ops
