// SPDX-License-Identifier: Apache-2.0
// `info --cost` against hand counts of three light models: the multiply-accumulates of every
// convolution (output elements x input channels per group x kernel size) and fully connected
// layer (inputs x outputs), written out layer by layer from the architectures, at the 224x224
// inputs the models declare.
#include <doctest/doctest.h>

#include "core/infer/cost.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/registry/registry.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

double model_macs(const std::string& name) {
  const fs::path path = test::require_shared_dir("info --cost on the light models") /
                        "onnx-backend-tests" / "light" / ("light_" + name + ".onnx");
  DiagSink sink;
  const Model m = load_model(path.string(), {}, sink);
  DiagSink infer_sink;
  const InferResult types = infer_model(m, {}, infer_sink);
  const ModelCost c = estimate_cost(m, types, Registry::standard());
  CHECK(c.unknown_nodes == 0);
  return c.macs;
}

// MACs of a KxK convolution producing hw x hw x cout from cin channels (per group).
double conv(double hw, double cout, double cin, double k) {
  return hw * hw * cout * cin * k * k;
}

// ResNet-50 (stride in the 3x3 of each bottleneck), 224x224: stem, 16 bottlenecks, classifier.
double resnet50_hand_count() {
  double macs = conv(112, 64, 3, 7);
  double cin = 64, hw = 56;
  const double stages[4][3] = {{64, 256, 3}, {128, 512, 4}, {256, 1024, 6}, {512, 2048, 3}};
  for (int s = 0; s < 4; ++s)
    for (int b = 0; b < stages[s][2]; ++b) {
      const double mid = stages[s][0], out = stages[s][1];
      const double ohw = (b == 0 && s > 0) ? hw / 2 : hw;
      macs += conv(hw, mid, cin, 1) + conv(ohw, mid, mid, 3) + conv(ohw, out, mid, 1);
      if (b == 0) macs += conv(ohw, out, cin, 1);  // the projection shortcut
      cin = out, hw = ohw;
    }
  return macs + 2048.0 * 1000;
}

}  // namespace

TEST_CASE("info --cost: MACs of ResNet-50, VGG-19 and AlexNet against hand counts") {
  const double resnet = resnet50_hand_count();
  CHECK(resnet == 4089184256.0);
  CHECK(model_macs("resnet50") == doctest::Approx(resnet).epsilon(0.01));

  // VGG-19: sixteen 3x3 convolutions in five blocks, then three fully connected layers.
  const double vgg = conv(224, 64, 3, 3) + conv(224, 64, 64, 3) + conv(112, 128, 64, 3) +
                     conv(112, 128, 128, 3) + conv(56, 256, 128, 3) + 3 * conv(56, 256, 256, 3) +
                     conv(28, 512, 256, 3) + 3 * conv(28, 512, 512, 3) + 4 * conv(14, 512, 512, 3) +
                     25088.0 * 4096 + 4096.0 * 4096 + 4096.0 * 1000;
  CHECK(model_macs("vgg19") == doctest::Approx(vgg).epsilon(0.01));

  // AlexNet (BVLC, grouped conv2/4/5, 224x224 input: 54, 26, 12 and 6 pixels wide).
  const double alexnet = conv(54, 96, 3, 11) + conv(26, 256, 48, 5) + conv(12, 384, 256, 3) +
                         conv(12, 384, 192, 3) + conv(12, 256, 192, 3) + 9216.0 * 4096 +
                         4096.0 * 4096 + 4096.0 * 1000;
  CHECK(model_macs("bvlc_alexnet") == doctest::Approx(alexnet).epsilon(0.01));
}
