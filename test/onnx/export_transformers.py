#!/usr/bin/python3
"""Export transformers the way users do, with Debian's python3-torch (and
python3-torchvision for ViT), for test/check_onnx_torch.c: each is exported by
torch.onnx.export in training mode (TrainingMode.PRESERVE, docs/onnx.md) with
the shape arithmetic the exporter writes left in the graph
(do_constant_folding=False), so the importer's folding is what makes the
shapes static. Exit status 77 when PyTorch is not installed (the test is
skipped); torchvision's ViT-B/16 is left out (and said so) without
torchvision.

The weights are not exported (export_params=False makes them graph inputs);
they are turned back into initializers whose data is external and never
written, so every file is a few hundred kB: the importer reads shapes only.

    /usr/bin/python3 test/onnx/export_transformers.py OUTDIR

Models (hand counts in test/check_onnx_torch.c):
  torch_vit_b_16.onnx          torchvision vit_b_16 at 224 x 224
  torch_encoder_bf.onnx        nn.TransformerEncoder, BERT-base layers (2 of them: 768,
                               12 heads, 3072), 128 tokens, batch_first=True, batch 2
  torch_encoder_sf.onnx        the same with batch_first=False ([T, N, F] input)
  torch_mha_tiny.onnx          nn.TransformerEncoderLayer(16, 4 heads, 32), [5, 2, 16] input
  torch_gpt_block.onnx         a GPT-style block from torch.nn (768, 12 heads, 64 tokens),
                               q k v by split, the scale traced from k.size(-1),
                               a causal mask by masked_fill
  torch_hf_bert_layer.onnx     a BERT layer written like Hugging Face's BertLayer (768,
                               12 heads, 128 tokens): view / permute of heads,
                               an additive attention mask
  torch_hf_gpt2_attn.onnx      GPT-2 attention written like Hugging Face's GPT2Attention
                               (Conv1D as addmm on [N T, F], split, torch.where causal mask)
  torch_timm_attn.onnx         ViT-B attention written like timm's Attention (768, 12 heads,
                               197 tokens): q k v by qkv.unbind(0) (Split then Squeeze), q scaled
  torch_timm_attn_tiny.onnx    the same at 16 features, 4 heads, 5 tokens, then an unsqueeze
                               and a squeeze of the result (kept in test/data/onnx)
"""
import math
import os
import sys
import warnings

try:
    import torch
    from torch import nn
except ImportError:
    sys.exit(77)
import onnx
from onnx import TensorProto


def strip_weights(path, keep):
    """Graph inputs after the first `keep` become initializers of external data."""
    m = onnx.load(path)
    g = m.graph
    weights = list(g.input)[keep:]
    for w in weights:
        t = TensorProto()
        t.name = w.name
        t.dims.extend(d.dim_value for d in w.type.tensor_type.shape.dim)
        t.data_type = w.type.tensor_type.elem_type
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key, e.value = 'location', 'weights.bin'
        g.initializer.append(t)
        g.input.remove(w)
    onnx.save(m, path)


def export(model, x, path, **kw):
    torch.onnx.export(model, x, path, opset_version=14, export_params=False,
                      do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE,
                      input_names=['x'], **kw)
    strip_weights(path, 1)


class GPTBlock(nn.Module):
    """nanoGPT's block: the scale is traced from k.size(-1) (Pow of constants)."""
    def __init__(self, C=768, h=12, T=64):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.fc, self.fc2 = nn.Linear(C, 4 * C), nn.Linear(4 * C, C)
        self.register_buffer('mask', torch.tril(torch.ones(T, T)).view(1, 1, T, T))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (z.view(B, T, self.h, C // self.h).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (k.size(-1) ** 0.5))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float('-inf'))
        y = (torch.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)
        return x + self.fc2(nn.functional.gelu(self.fc(self.ln2(x))))


class HFBertLayer(nn.Module):
    """Hugging Face's BertSelfAttention + BertSelfOutput + BertIntermediate + BertOutput."""
    def __init__(self, E=768, h=12, T=128):
        super().__init__()
        self.h, self.d = h, E // h
        self.query, self.key, self.value = nn.Linear(E, E), nn.Linear(E, E), nn.Linear(E, E)
        self.dropout = nn.Dropout(0.1)
        self.dense, self.ln = nn.Linear(E, E), nn.LayerNorm(E)
        self.inter, self.out, self.ln2 = nn.Linear(E, 4 * E), nn.Linear(4 * E, E), nn.LayerNorm(E)
        self.register_buffer('attention_mask', torch.zeros(1, 1, 1, T))  # the extended mask

    def heads(self, x):
        return x.view(x.size()[:-1] + (self.h, self.d)).permute(0, 2, 1, 3)

    def forward(self, x):
        q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        probs = self.dropout(nn.functional.softmax(scores + self.attention_mask, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(ctx.size()[:-2] + (self.h * self.d,))
        a = self.ln(self.dropout(self.dense(ctx)) + x)
        return self.ln2(self.dropout(self.out(nn.functional.gelu(self.inter(a)))) + a)


class Conv1D(nn.Module):
    """Hugging Face's Conv1D: addmm on the tokens as rows."""
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight, self.bias = nn.Parameter(torch.zeros(nx, nf)), nn.Parameter(torch.zeros(nf))

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(size_out)


class HFGPT2Attention(nn.Module):
    def __init__(self, E=768, h=12, T=64):
        super().__init__()
        self.h, self.E = h, E
        self.c_attn, self.c_proj = Conv1D(3 * E, E), Conv1D(E, E)
        self.register_buffer('bias', torch.tril(torch.ones(T, T, dtype=torch.bool)).view(1, 1, T, T))

    def split_heads(self, x):
        return x.view(x.size()[:-1] + (self.h, self.E // self.h)).permute(0, 2, 1, 3)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(self.E, dim=2)
        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)
        w = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5)
        T = q.size(-2)
        causal = self.bias[:, :, :T, :T]
        w = torch.where(causal, w, torch.full([], torch.finfo(w.dtype).min))
        a = torch.matmul(nn.functional.softmax(w, dim=-1), v).permute(0, 2, 1, 3).contiguous()
        return self.c_proj(a.view(a.size()[:-2] + (self.E,)))


class TimmAttention(nn.Module):
    """timm's Attention (fused_attn off): the fused projection viewed as
    [N, T, 3, h, d], permuted to [3, N, h, T, d] and unbound into q, k and v."""
    def __init__(self, C=768, h=12, views=False):
        super().__init__()
        self.h, self.views, self.scale = h, views, (C // h) ** -0.5
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        a = ((q * self.scale) @ k.transpose(-2, -1)).softmax(dim=-1)
        y = self.proj((a @ v).transpose(1, 2).reshape(B, N, C))
        return y.unsqueeze(2).squeeze(2) if self.views else y


warnings.filterwarnings('ignore')  # the tracer's notes on traced sizes: expected here
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
for bf, name, shape in ((True, 'torch_encoder_bf', (2, 128, 768)), (False, 'torch_encoder_sf', (128, 2, 768))):
    layer = nn.TransformerEncoderLayer(768, 12, 3072, batch_first=bf)
    export(nn.TransformerEncoder(layer, 2, enable_nested_tensor=False), torch.zeros(*shape),
           os.path.join(out, name + '.onnx'))
# a tiny torch.nn layer with the tokens first (kept in test/data/onnx: imported without PyTorch)
export(nn.TransformerEncoderLayer(16, 4, 32), torch.zeros(5, 2, 16), os.path.join(out, 'torch_mha_tiny.onnx'))
export(GPTBlock(), torch.zeros(1, 64, 768), os.path.join(out, 'torch_gpt_block.onnx'))
export(HFBertLayer(), torch.zeros(1, 128, 768), os.path.join(out, 'torch_hf_bert_layer.onnx'))
export(HFGPT2Attention(), torch.zeros(1, 64, 768), os.path.join(out, 'torch_hf_gpt2_attn.onnx'))
export(TimmAttention(), torch.zeros(1, 197, 768), os.path.join(out, 'torch_timm_attn.onnx'))
export(TimmAttention(16, 4, True), torch.zeros(1, 5, 16), os.path.join(out, 'torch_timm_attn_tiny.onnx'))
try:
    import torchvision
except ImportError:
    print('export_transformers.py: python3-torchvision not installed: vit_b_16 left out')
    sys.exit(0)
export(torchvision.models.vit_b_16(), torch.zeros(1, 3, 224, 224), os.path.join(out, 'torch_vit_b_16.onnx'))
