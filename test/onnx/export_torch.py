#!/usr/bin/python3
"""Export torchvision's ResNet-18, ResNet-50, MobileNetV2, MobileNetV3-large, EfficientNet-B0 and ConvNeXt-T, and three tiny networks, to
ONNX with Debian's python3-torch and python3-torchvision (test/check_onnx.c
imports and maps them). Exit status 77 when PyTorch is not installed (the test
is skipped).

The tiny ones (a few kB: Conv-BN-ReLU-Pool-Conv-ReLU-GlobalAvgPool-Flatten-Linear,
a depthwise-separable block with ReLU6 and a residual add, and a ConvNeXt block
written as torchvision's CNBlock: Permute to channels last, LayerNorm and Linear
over the channels, Permute back) are kept in
test/data/onnx/ as real exports for the ONNX fuzz harness's seeds and the tests
that run without PyTorch; torchvision is needed for the large ones only.

    /usr/bin/python3 test/onnx/export_torch.py OUTDIR [--tiny]"""
import os
import sys
import warnings

try:
    import torch
    from torch import nn
except ImportError:
    sys.exit(77)


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


class TinyMobile(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU6())
        self.block = nn.Sequential(
            nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False), nn.BatchNorm2d(8), nn.ReLU6(),
            nn.Conv2d(8, 8, 1, bias=False), nn.BatchNorm2d(8))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = self.stem(x)
        y = y + self.block(y)
        return self.fc(torch.flatten(self.pool(y), 1))


class Permute(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.dims = dims

    def forward(self, x):
        return torch.permute(x, self.dims)


class LayerNorm2d(nn.LayerNorm):
    """torchvision's: LayerNorm over the channels of [N, C, H, W], through [N, H, W, C]."""
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = nn.functional.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class TinyConvNeXt(nn.Module):
    """torchvision's ConvNeXt in small: a 4x4/4 stem and LayerNorm2d, one CNBlock (7x7
    depthwise, Permute, LayerNorm, Linear 4C, GELU, Linear C, Permute, layer scale,
    residual), a LayerNorm2d + 2x2/2 downsampling, the classifier's LayerNorm2d."""
    def __init__(self, C=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, C, 4, stride=4), LayerNorm2d(C, eps=1e-6))
        self.block = nn.Sequential(
            nn.Conv2d(C, C, 7, padding=3, groups=C), Permute([0, 2, 3, 1]), nn.LayerNorm(C, eps=1e-6),
            nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C), Permute([0, 3, 1, 2]))
        self.layer_scale = nn.Parameter(torch.full((C, 1, 1), 1e-6))
        self.down = nn.Sequential(LayerNorm2d(C, eps=1e-6), nn.Conv2d(C, 2 * C, 2, stride=2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Sequential(LayerNorm2d(2 * C, eps=1e-6), nn.Flatten(1), nn.Linear(2 * C, 5))

    def forward(self, x):
        y = self.stem(x)
        y = self.layer_scale * self.block(y) + y
        return self.head(self.pool(self.down(y)))


warnings.filterwarnings('ignore')  # the exporter's notes on training-mode BatchNorm: expected
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
for name, net in (('tiny_cnn', TinyCNN()), ('tiny_mobile', TinyMobile()), ('tiny_convnext', TinyConvNeXt())):
    torch.onnx.export(net.eval(), torch.zeros(1, 3, 16, 16), os.path.join(out, 'torch_%s.onnx' % name),
                      opset_version=13, input_names=['input'], output_names=['logits'],
                      dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}})
if '--tiny' in sys.argv[2:]:
    sys.exit(0)
try:
    import torchvision
except ImportError:
    sys.exit(77)
# in training mode (docs/onnx.md, "From PyTorch"): BatchNormalization and Dropout
# stay as they are; an export in eval mode folds BatchNorm into the convolutions
# (the same MACs, but other training workloads), which test/check_onnx.c checks too
for name, make in (('resnet18', torchvision.models.resnet18), ('resnet50', torchvision.models.resnet50),
                   ('mobilenet_v2', torchvision.models.mobilenet_v2)):
    torch.onnx.export(make(), torch.zeros(1, 3, 224, 224), os.path.join(out, 'torch_%s.onnx' % name),
                      opset_version=13, training=torch.onnx.TrainingMode.PRESERVE)
torch.onnx.export(torchvision.models.resnet18().eval(), torch.zeros(1, 3, 224, 224),
                  os.path.join(out, 'torch_resnet18_eval.onnx'), opset_version=13)
# ConvNeXt-T (eval mode: StochasticDepth is the identity): channels-last Linear and
# LayerNorm between Permutes, against torchvision's 4.456 GFLOPS (MACs)
torch.onnx.export(torchvision.models.convnext_tiny().eval(), torch.zeros(1, 3, 224, 224),
                  os.path.join(out, 'torch_convnext_tiny.onnx'), opset_version=13)
# squeeze-excitation networks (no shipped YAML: their MACs against the published
# figures; their gates need --passthrough)
for name in ('mobilenet_v3_large', 'efficientnet_b0'):
    torch.onnx.export(getattr(torchvision.models, name)().eval(), torch.zeros(1, 3, 224, 224),
                      os.path.join(out, 'torch_%s.onnx' % name), opset_version=13)
