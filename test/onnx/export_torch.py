#!/usr/bin/python3
"""Export torchvision's ResNet-18, ResNet-50, MobileNetV2, MobileNetV3-large, EfficientNet-B0, ConvNeXt-T
and Swin-T, and four tiny networks, to
ONNX with Debian's python3-torch and python3-torchvision (test/check_onnx_torch.c
imports and maps them). Exit status 77 when PyTorch is not installed (the test
is skipped).

The tiny ones (a few kB: Conv-BN-ReLU-Pool-Conv-ReLU-GlobalAvgPool-Flatten-Linear,
a depthwise-separable block with ReLU6 and a residual add, and a ConvNeXt block
written as torchvision's CNBlock: Permute to channels last, LayerNorm and Linear
over the channels, Permute back, and a Swin stage written as torchvision's
shifted_window_attention: windows, a cyclic shift, the mask, a relative position
bias, patch merging) are kept in
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


def window_attention(x, qkv, proj, table, index, ws, heads, shift):
    """torchvision 0.14's shifted_window_attention, as written there: the map padded
    to whole windows (the attention on the padded map), then cut back to H x W."""
    B, H, W, C = x.shape
    x = nn.functional.pad(x, (0, 0, 0, (ws - W % ws) % ws, 0, (ws - H % ws) % ws))
    _, pH, pW, _ = x.shape
    if shift > 0:
        x = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
    nw = (pH // ws) * (pW // ws)
    x = x.view(B, pH // ws, ws, pW // ws, ws, C).permute(0, 1, 3, 2, 4, 5).reshape(B * nw, ws * ws, C)
    qkv = qkv(x).reshape(x.size(0), x.size(1), 3, heads, C // heads).permute(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = q * (C // heads) ** -0.5
    attn = q.matmul(k.transpose(-2, -1))
    bias = table[index].view(ws * ws, ws * ws, -1).permute(2, 0, 1).contiguous().unsqueeze(0)
    attn = attn + bias
    if shift > 0:
        mask = x.new_zeros((pH, pW))
        count = 0
        for h in ((0, -ws), (-ws, -shift), (-shift, None)):
            for w in ((0, -ws), (-ws, -shift), (-shift, None)):
                mask[h[0]:h[1], w[0]:w[1]] = count
                count += 1
        mask = mask.view(pH // ws, ws, pW // ws, ws).permute(0, 2, 1, 3).reshape(nw, ws * ws)
        mask = mask.unsqueeze(1) - mask.unsqueeze(2)
        mask = mask.masked_fill(mask != 0, float(-100.0)).masked_fill(mask == 0, float(0.0))
        attn = attn.view(x.size(0) // nw, nw, heads, x.size(1), x.size(1)) + mask.unsqueeze(1).unsqueeze(0)
        attn = attn.view(-1, heads, x.size(1), x.size(1))
    x = nn.functional.softmax(attn, dim=-1).matmul(v).transpose(1, 2).reshape(x.size(0), x.size(1), C)
    x = proj(x).view(B, pH // ws, pW // ws, ws, ws, C).permute(0, 1, 3, 2, 4, 5).reshape(B, pH, pW, C)
    if shift > 0:
        x = torch.roll(x, shifts=(shift, shift), dims=(1, 2))
    return x[:, :H, :W, :].contiguous()


class SwinBlock(nn.Module):
    def __init__(self, C, heads, ws, shift):
        super().__init__()
        self.heads, self.ws, self.shift = heads, ws, shift
        self.norm1, self.norm2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.table = nn.Parameter(torch.zeros((2 * ws - 1) ** 2, heads))
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing='ij')).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + ws - 1
        self.register_buffer('index', (rel[:, :, 0] * (2 * ws - 1) + rel[:, :, 1]).flatten())
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x):
        x = x + window_attention(self.norm1(x), self.qkv, self.proj, self.table, self.index, self.ws,
                                 self.heads, self.shift)
        return x + self.mlp(self.norm2(x))


class TinySwin(nn.Module):
    """torchvision's Swin in small: a 4x4/4 patch stem to channels last, a block and a
    shifted block (windows of 2 x 2, shift 1: the cyclic shift, the mask), patch
    merging (every other row and column, LayerNorm, Linear 4C -> 2C), the head."""
    def __init__(self, C=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, C, 4, stride=4), Permute([0, 2, 3, 1]), nn.LayerNorm(C))
        self.blocks = nn.Sequential(SwinBlock(C, 2, 2, 0), SwinBlock(C, 2, 2, 1))
        self.merge_norm, self.reduction = nn.LayerNorm(4 * C), nn.Linear(4 * C, 2 * C, bias=False)
        self.norm, self.head = nn.LayerNorm(2 * C), nn.Linear(2 * C, 5)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        H, W = x.shape[1], x.shape[2]  # PatchMerging pads to an even size
        x = nn.functional.pad(x, (0, 0, 0, W % 2, 0, H % 2))
        x = torch.cat([x[..., 0::2, 0::2, :], x[..., 1::2, 0::2, :], x[..., 0::2, 1::2, :],
                       x[..., 1::2, 1::2, :]], -1)
        x = self.norm(self.reduction(self.merge_norm(x))).permute(0, 3, 1, 2)
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


warnings.filterwarnings('ignore')  # the exporter's notes on training-mode BatchNorm: expected
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
for name, net in (('tiny_cnn', TinyCNN()), ('tiny_mobile', TinyMobile()), ('tiny_convnext', TinyConvNeXt())):
    torch.onnx.export(net.eval(), torch.zeros(1, 3, 16, 16), os.path.join(out, 'torch_%s.onnx' % name),
                      opset_version=13, input_names=['input'], output_names=['logits'],
                      dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}})
# the shape arithmetic left in (do_constant_folding=False): the importer folds the
# mask's ScatterND, the bias table's Gather and the window sizes itself
torch.onnx.export(TinySwin().eval(), torch.zeros(1, 3, 16, 16), os.path.join(out, 'torch_tiny_swin.onnx'),
                  opset_version=13, input_names=['input'], output_names=['logits'], do_constant_folding=False,
                  dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}})
# at 20 x 20 (a 5 x 5 map): padded to whole windows of 2 x 2 and to an even size
# before patch merging, the attention's map cut back to 5 x 5
torch.onnx.export(TinySwin().eval(), torch.zeros(1, 3, 20, 20), os.path.join(out, 'torch_tiny_swin_pad.onnx'),
                  opset_version=13, input_names=['input'], output_names=['logits'], do_constant_folding=False,
                  dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}})
if '--tiny' in sys.argv[2:]:
    sys.exit(0)
try:
    import torchvision
except ImportError:
    sys.exit(77)
# in training mode (docs/onnx.md, "From PyTorch"): BatchNormalization and Dropout
# stay as they are; an export in eval mode folds BatchNorm into the convolutions
# (the same MACs, but other training workloads), which test/check_onnx_torch.c checks too
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
# Swin-T (eval mode): windows, shifted windows, patch merging, against torchvision's
# 4.491 GFLOPS (MACs)
torch.onnx.export(torchvision.models.swin_t().eval(), torch.zeros(1, 3, 224, 224),
                  os.path.join(out, 'torch_swin_t.onnx'), opset_version=13)
# Swin-T at 256 x 256: maps of 64, 32, 16 and 8 that its 7 x 7 windows do not divide
torch.onnx.export(torchvision.models.swin_t().eval(), torch.zeros(1, 3, 256, 256),
                  os.path.join(out, 'torch_swin_t_256.onnx'), opset_version=13)
# the same two in training mode (TrainingMode.PRESERVE, as docs/onnx.md's recipe):
# PyTorch cannot export StochasticDepth's random Bernoulli in training mode, so its
# drop probability is set to 0 first (a cost model counts every residual branch);
# with no BatchNorm to fold, the import equals the eval-mode one
from torchvision.ops import StochasticDepth
for name in ('convnext_tiny', 'swin_t'):
    net = getattr(torchvision.models, name)()
    for m in net.modules():
        if isinstance(m, StochasticDepth):
            m.p = 0.0
    torch.onnx.export(net.train(), torch.zeros(1, 3, 224, 224), os.path.join(out, 'torch_%s_train.onnx' % name),
                      opset_version=13, training=torch.onnx.TrainingMode.PRESERVE)
# squeeze-excitation networks (no shipped YAML: their MACs against the published
# figures; their gates need --passthrough)
for name in ('mobilenet_v3_large', 'efficientnet_b0'):
    torch.onnx.export(getattr(torchvision.models, name)().eval(), torch.zeros(1, 3, 224, 224),
                      os.path.join(out, 'torch_%s.onnx' % name), opset_version=13)
