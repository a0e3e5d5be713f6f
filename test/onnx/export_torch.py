#!/usr/bin/python3
"""Export torchvision's ResNet-18, ResNet-50, MobileNetV2, MobileNetV3-large and EfficientNet-B0, and two tiny networks, to
ONNX with Debian's python3-torch and python3-torchvision (test/check_onnx.c
imports and maps them). Exit status 77 when PyTorch is not installed (the test
is skipped).

The tiny ones (a few kB: Conv-BN-ReLU-Pool-Conv-ReLU-GlobalAvgPool-Flatten-Linear,
and a depthwise-separable block with ReLU6 and a residual add) are kept in
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


warnings.filterwarnings('ignore')  # the exporter's notes on training-mode BatchNorm: expected
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
for name, net in (('tiny_cnn', TinyCNN()), ('tiny_mobile', TinyMobile())):
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
# squeeze-excitation networks (no shipped YAML: their MACs against the published
# figures; their gates need --passthrough)
for name in ('mobilenet_v3_large', 'efficientnet_b0'):
    torch.onnx.export(getattr(torchvision.models, name)().eval(), torch.zeros(1, 3, 224, 224),
                      os.path.join(out, 'torch_%s.onnx' % name), opset_version=13)
