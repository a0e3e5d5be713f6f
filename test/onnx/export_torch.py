#!/usr/bin/python3
"""Export torchvision's ResNet-18 and MobileNetV2 to ONNX with Debian's
python3-torch and python3-torchvision (test/check_network.c imports and maps
them). Exit status 77 when PyTorch is not installed (the test is skipped).

    /usr/bin/python3 test/onnx/export_torch.py OUTDIR"""
import os
import sys

try:
    import torch
    import torchvision
except ImportError:
    sys.exit(77)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, make in (('resnet18', torchvision.models.resnet18), ('mobilenet_v2', torchvision.models.mobilenet_v2)):
    torch.onnx.export(make().eval(), torch.zeros(1, 3, 224, 224),
                      os.path.join(out, 'torch_%s.onnx' % name), opset_version=13)
