#!/usr/bin/python3
"""Make the ONNX models the tests import (test/check_network.c), with Debian's
python3-onnx helper API: the shipped ResNet-18, MobileNet-v1 and BERT-base
written as ONNX graphs node for node (node names = the YAML's layer names, so
the imported workloads can be compared with the shipped YAML's exactly), one
small model per supported operator and pattern, and bad models.

    /usr/bin/python3 test/onnx/make_models.py OUTDIR

Weights are zero-filled (only their shapes matter). Needs python3-onnx and
python3-yaml (make deps)."""
import os
import sys

import numpy as np
import onnx
import yaml
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def pads_of(L, k, s, d, hw):
    p = L.get('padding', 'valid')
    if p == 'valid':
        return [0, 0, 0, 0]
    if p == 'same':
        out = []
        for a in range(2):
            o = (hw[a] + s[a] - 1) // s[a]
            total = max((o - 1) * s[a] + d[a] * (k[a] - 1) + 1 - hw[a], 0)
            out.append((total // 2, total - total // 2))
        return [out[0][0], out[1][0], out[0][1], out[1][1]]
    if isinstance(p, int):
        return [p, p, p, p]
    if isinstance(p[0], int):
        return [p[0], p[1], p[0], p[1]]
    return [p[0][0], p[1][0], p[0][1], p[1][1]]


def pair(v, dflt):
    if v is None:
        return [dflt, dflt]
    return [v, v] if isinstance(v, int) else list(v)


class G:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def w(self, name, shape, dtype=np.float32, value=None):
        self.inits.append(W(name, shape, value, dtype))
        return name

    def node(self, op, ins, name, outs=None, **attrs):
        outs = outs or [name + ':out' if op != 'Split' else None]
        self.nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        return outs[0]

    def tmp(self, base):
        self.n += 1
        return '%s#%d' % (base, self.n)


ACT = {'relu': 'Relu', 'sigmoid': 'Sigmoid', 'tanh': 'Tanh', 'hardswish': 'HardSwish'}


def act(g, x, a, name):
    if a in (None, 'linear'):
        return x
    if a == 'softmax':
        return g.node('Softmax', [x], name + '.softmax', axis=-1)
    if a == 'relu6':
        return g.node('Clip', [x, g.w(g.tmp('zero'), [], value=0.0), g.w(g.tmp('six'), [], value=6.0)], name + '.relu6')
    if a == 'gelu':  # Erf form, as PyTorch exports nn.GELU()
        d = g.node('Div', [x, g.w(g.tmp('sqrt2'), [], value=2 ** 0.5)], g.tmp(name + '.div'))
        e = g.node('Erf', [d], g.tmp(name + '.erf'))
        p = g.node('Add', [e, g.w(g.tmp('one'), [], value=1.0)], g.tmp(name + '.add'))
        m = g.node('Mul', [x, p], g.tmp(name + '.mul'))
        return g.node('Mul', [m, g.w(g.tmp('half'), [], value=0.5)], g.tmp(name + '.half'))
    return g.node(ACT[a], [x], name + '.' + a)


def from_yaml(path):
    """An ONNX model equal, layer for layer, to a shipped network YAML."""
    doc = yaml.safe_load(open(path))
    net, layers = doc['network'], doc['layers']
    g = G()
    inp = net['input']
    out = {}      # layer name -> (onnx tensor, shape: ('nchw', C, H, W) | ('ntf', T, F) | ('nf', F))
    if len(inp) == 3:
        x = helper.make_tensor_value_info('input', TensorProto.FLOAT, ['batch', inp[2], inp[0], inp[1]])
        cur = ('input', ('nchw', inp[2], inp[0], inp[1]))
    else:
        x = helper.make_tensor_value_info('input', TensorProto.INT64, ['batch', inp[0]])
        cur = ('input', ('ids', inp[0]))
    out['input'] = cur
    prev = 'input'
    for i, L in enumerate(layers):
        name, ty = L['name'], L['type']
        ins = [out[n] for n in L.get('inputs', [prev])]
        t, sh = ins[0]
        a = L.get('activation')
        if ty in ('conv2d', 'depthwise_conv2d'):
            C, H, W = sh[1:]
            k, s, d = pair(L['kernel'], 1), pair(L.get('strides'), 1), pair(L.get('dilation'), 1)
            pads = pads_of(L, k, s, d, (H, W))
            if ty == 'conv2d':
                M, grp = L['filters'], L.get('groups', 1)
            else:
                grp = C
                M = C * L.get('depth_multiplier', 1)
            wts = [t, g.w(name + '.weight', [M, C // grp, k[0], k[1]])]
            if L.get('use_bias', True):
                wts.append(g.w(name + '.bias', [M]))
            y = g.node('Conv', wts, name, kernel_shape=k, strides=s, dilations=d, pads=pads, group=grp)
            Ho = (H + pads[0] + pads[2] - d[0] * (k[0] - 1) - 1) // s[0] + 1
            Wo = (W + pads[1] + pads[3] - d[1] * (k[1] - 1) - 1) // s[1] + 1
            y, sh = act(g, y, a, name), ('nchw', M, Ho, Wo)
        elif ty == 'batchnorm':
            C = sh[1] if sh[0] == 'nchw' else sh[-1]
            y = g.node('BatchNormalization', [t] + [g.w(name + '.' + p, [C]) for p in ('scale', 'bias', 'mean', 'var')], name)
            y = act(g, y, a, name)
        elif ty == 'activation':
            y = act(g, t, a, name)
            g.nodes[-1].name = name
        elif ty in ('maxpool2d', 'avgpool2d'):
            C, H, W = sh[1:]
            k = pair(L['pool'], 1)
            s = pair(L.get('strides'), None) if L.get('strides') else k
            pads = pads_of(L, k, s, (1, 1), (H, W))
            y = g.node('MaxPool' if ty == 'maxpool2d' else 'AveragePool', [t], name, kernel_shape=k, strides=s, pads=pads)
            sh = ('nchw', C, (H + pads[0] + pads[2] - k[0]) // s[0] + 1, (W + pads[1] + pads[3] - k[1]) // s[1] + 1)
        elif ty == 'global_avgpool':
            y = g.node('GlobalAveragePool', [t], name)
            y = g.node('Flatten', [y], name + '.flatten', axis=1)
            sh = ('nf', sh[1])
        elif ty == 'dense':
            F = sh[-1]
            if sh[0] == 'nf':
                wts = [t, g.w(name + '.weight', [L['units'], F])]
                if L.get('use_bias', True):
                    wts.append(g.w(name + '.bias', [L['units']]))
                y = g.node('Gemm', wts, name, transB=1)
            else:  # over tokens: MatMul + Add, as PyTorch exports nn.Linear on 3-D input
                y = g.node('MatMul', [t, g.w(name + '.weight', [F, L['units']])], name)
                if L.get('use_bias', True):
                    y = g.node('Add', [y, g.w(name + '.bias', [L['units']])], name + '.bias')
            sh = sh[:-1] + (L['units'],)
            y = act(g, y, a, name)
        elif ty == 'add':
            y = ins[0][0]
            for k2, (t2, _) in enumerate(ins[1:]):
                y = g.node('Add', [y, t2], name if k2 == 0 else g.tmp(name))
            y = act(g, y, a, name)
        elif ty == 'dropout':
            y = g.node('Dropout', [t, g.w(g.tmp('ratio'), [], value=L.get('rate', 0.5))], name)
        elif ty == 'embedding':
            y = g.node('Gather', [g.w(name + '.weight', [L['vocab'], L['units']]), t], name)
            sh = ('ntf', sh[1], L['units'])
        elif ty == 'layernorm':
            F = sh[-1]
            y = g.node('LayerNormalization', [t, g.w(name + '.weight', [F]), g.w(name + '.bias', [F])], name, axis=-1)
        elif ty == 'softmax':
            y = g.node('Softmax', [t], name, axis=-1)
        elif ty == 'matmul':
            h = L.get('heads', 1)
            (ta, sa), (tb, sb) = ins
            heads = lambda tt, s2, perm: g.node('Transpose', [g.node('Reshape', [tt, g.w(g.tmp('shape'), [4], np.int64, [0, s2[1], h, s2[2] // h])], g.tmp(name + '.split'))], g.tmp(name + '.perm'), perm=perm)
            # operands in per-head form; a matmul's output is kept per head until a dense reads it
            A = ta if sa[0] == 'heads' else heads(ta, sa, [0, 2, 1, 3])
            if L.get('transpose_b'):
                B = heads(tb, sb, [0, 2, 3, 1])
                y = g.node('MatMul', [A, B], name)
                sh = ('heads', sa[1], h, sb[1])
            else:
                B = heads(tb, sb, [0, 2, 1, 3])
                y = g.node('MatMul', [A, B], name)
                y = g.node('Transpose', [y], g.tmp(name + '.merge'), perm=[0, 2, 1, 3])
                y = g.node('Reshape', [y, g.w(g.tmp('shape'), [3], np.int64, [0, 0, -1])], g.tmp(name + '.merge'))
                sh = ('ntf', sa[1], h * (sb[2] // h))
        elif ty == 'split' and L.get('axis') == 1 and L['sizes'][L['index']] == 1:
            y = g.node('Gather', [t, g.w(g.tmp('index'), [], np.int64, sum(L['sizes'][:L['index']]))], name, axis=1)
            sh = ('nf', sh[-1])
        else:
            raise SystemExit('%s: layer type %s not written as ONNX here' % (path, ty))
        if ty == 'softmax' and sh[0] == 'heads':
            pass
        out[name] = (y, sh)
        prev = name
    y, sh = out[prev]
    outs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, None)]
    graph = helper.make_graph(g.nodes, net['name'], [x], outs, g.inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', OPSET)], producer_name='make_models.py')


def small(nodes, inputs, inits, name, opset=OPSET, outputs=None):
    outputs = outputs or [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, None)]
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)], producer_name='make_models.py')


def W(name, shape, value=None, dtype=np.float32):
    """An initializer; a weight (no value given) is stored as external data that
    is never written: the importer reads shapes only, and the files stay small."""
    if value is None and int(np.prod(shape)) > 64:
        t = TensorProto()
        t.name = name
        t.dims.extend(shape)
        t.data_type = TensorProto.INT64 if np.dtype(dtype) == np.int64 else TensorProto.FLOAT
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key, e.value = 'location', 'weights.bin'
        return t
    a = np.zeros(shape, dtype) if value is None else np.array(value, dtype)
    return numpy_helper.from_array(a, name)


def image(c, h, w, name='x'):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, ['N', c, h, w])


def N(op, ins, out, name=None, **a):
    return helper.make_node(op, ins, [out], name=name or out, **a)


def operator_models():
    m = {}
    x = image(4, 8, 8)
    m['conv'] = small([N('Conv', ['x', 'w', 'b'], 'c', kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
                       N('Relu', ['c'], 'r')], [x], [W('w', [6, 4, 3, 3]), W('b', [6])], 'conv')
    m['depthwise'] = small([N('Conv', ['x', 'w'], 'c', kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=4)], [x], [W('w', [8, 1, 3, 3])], 'dw')
    m['convtranspose'] = small([N('ConvTranspose', ['x', 'w'], 'c', kernel_shape=[2, 2], strides=[2, 2])], [x], [W('w', [4, 3, 2, 2])], 'ct')
    m['pools'] = small([N('MaxPool', ['x'], 'p', kernel_shape=[2, 2], strides=[2, 2]),
                        N('AveragePool', ['p'], 'q', kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]),
                        N('GlobalAveragePool', ['q'], 'g'), N('Flatten', ['g'], 'f', axis=1),
                        N('Gemm', ['f', 'w', 'b'], 'fc', transB=1), N('Softmax', ['fc'], 'sm', axis=-1)],
                       [x], [W('w', [10, 4]), W('b', [10])], 'pools')
    m['activations'] = small([N('Conv', ['x', 'w'], 'c', kernel_shape=[1, 1]),
                              N('BatchNormalization', ['c', 's', 'bb', 'mu', 'var'], 'bn'),
                              N('Clip', ['bn', 'lo', 'hi'], 'r6'), N('Sigmoid', ['r6'], 'sg'),
                              N('Tanh', ['sg'], 'th'), N('HardSwish', ['th'], 'hs'),
                              N('Sigmoid', ['hs'], 'sw.sig'), N('Mul', ['hs', 'sw.sig'], 'swish'),
                              N('Identity', ['swish'], 'id'), N('Dropout', ['id'], 'do')],
                             [x], [W('w', [4, 4, 1, 1])] + [W(n, [4]) for n in ('s', 'bb', 'mu', 'var')] +
                             [W('lo', [], 0.0), W('hi', [], 6.0)], 'acts')
    m['resize'] = small([N('Constant', [], 'scales', value=numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32))),
                         N('Resize', ['x', '', 'scales'], 'up', mode='nearest'),
                         N('Resize', ['x', '', 'scales'], 'bil', mode='linear'),
                         N('Concat', ['up', 'bil'], 'cat', axis=1),
                         N('Split', ['cat', 'sizes'], 's0', axis=1)],
                        [x], [W('sizes', [2], [4, 4], np.int64)], 'resize',
                        outputs=None)
    m['resize'].graph.node[-1].output.append('s1')
    # an empty 'split' tensor: split evenly among the outputs (found by the
    # fuzz harness: the empty tensor has no data pointer)
    m['split_empty'] = small([N('Conv', ['x', 'w'], 'c', kernel_shape=[1, 1]),
                              N('Split', ['c', 'sizes'], 's0', axis=1),
                              N('Add', ['s0', 's1'], 'y')],
                             [x], [W('w', [4, 4, 1, 1]), W('sizes', [0], [], np.int64)], 'split_empty')
    m['split_empty'].graph.node[1].output.append('s1')
    seq = helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 4, 16])
    m['conv1d'] = small([N('Conv', ['x', 'w', 'b'], 'c1', kernel_shape=[3], pads=[1, 1], strides=[2]),
                         N('Relu', ['c1'], 'r'), N('BatchNormalization', ['r', 's', 'bb', 'mu', 'var'], 'bn'),
                         N('Transpose', ['bn'], 't', perm=[0, 2, 1]), N('MatMul', ['t', 'w2'], 'fc')],
                        [seq], [W('w', [6, 4, 3]), W('b', [6]), W('w2', [6, 5])] +
                        [W(n, [6]) for n in ('s', 'bb', 'mu', 'var')], 'conv1d')
    m['upsample9'] = small([N('Upsample', ['x', 'sc'], 'up', mode='nearest')], [x], [W('sc', [4], [1, 1, 2, 2])], 'up9', opset=9)
    m['transpose'] = small([N('Transpose', ['x'], 't', perm=[0, 1, 3, 2]), N('Flatten', ['t'], 'f', axis=1)], [image(2, 4, 6)], [], 'tr')
    # ScatterND folded (Swin's mask is written so): the shape [1, 4, 1] with its last
    # entry set to 64 by indices [[2]], then a Reshape of the map to [1, 4, 64]
    m['scatter'] = small([N('ScatterND', ['tmpl', 'where', 'what'], 'shape3', name='scatter'),
                          N('Reshape', ['x', 'shape3'], 'flat'), N('Transpose', ['flat'], 'tok', perm=[0, 2, 1])],
                         [x], [W('tmpl', [3], [1, 4, 1], np.int64), W('where', [1, 1], [2], np.int64),
                               W('what', [1], [64], np.int64)], 'sc')
    tok = helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 'seq', 8])
    # LayerNorm in its decomposed form, GELU with Tanh, a dense over tokens
    ln = [N('ReduceMean', ['x'], 'mean', axes=[-1]), N('Sub', ['x', 'mean'], 'd'),
          N('Pow', ['d', 'two'], 'sq'), N('ReduceMean', ['sq'], 'var', axes=[-1]),
          N('Add', ['var', 'eps'], 've'), N('Sqrt', ['ve'], 'std'), N('Div', ['d', 'std'], 'ln'),
          N('Mul', ['ln', 'gamma'], 'lng'), N('Add', ['lng', 'beta'], 'lnb'),
          N('MatMul', ['lnb', 'w1'], 'fc'), N('Add', ['fc', 'b1'], 'fcb'),
          N('Pow', ['fcb', 'three'], 'cube'), N('Mul', ['cube', 'c1'], 'cube2'),
          N('Add', ['fcb', 'cube2'], 'inner'), N('Mul', ['inner', 'c2'], 'inner2'),
          N('Tanh', ['inner2'], 'th'), N('Add', ['th', 'one'], 'th1'), N('Mul', ['fcb', 'half'], 'xh'),
          N('Mul', ['xh', 'th1'], 'gelu')]
    m['decomposed'] = small(ln, [tok], [W('two', [], 2.0), W('eps', [], 1e-5), W('gamma', [8]), W('beta', [8]),
                                        W('w1', [8, 16]), W('b1', [16]), W('three', [], 3.0), W('c1', [], 0.044715),
                                        W('c2', [], 0.7978845608), W('one', [], 1.0), W('half', [], 0.5)], 'decomposed')
    # SAME padding of an odd total (kernel 4 x 2 on 8 x 10): SAME_UPPER puts the
    # extra row and column at the end, SAME_LOWER at the beginning; explicit
    # pads [top, left, bottom, right], all four different
    m['conv_pads'] = small([N('Conv', ['x', 'wu'], 'upper', kernel_shape=[4, 2], auto_pad='SAME_UPPER'),
                            N('Conv', ['upper', 'wl'], 'lower', kernel_shape=[4, 2], auto_pad='SAME_LOWER'),
                            N('Conv', ['lower', 'we'], 'explicit', kernel_shape=[1, 1], pads=[1, 0, 2, 3])],
                           [image(4, 8, 10)], [W('wu', [4, 4, 4, 2]), W('wl', [4, 4, 4, 2]), W('we', [4, 4, 1, 1])],
                           'conv_pads')
    # Conv-BN-ReLU-Pool-Conv-ReLU-GlobalAvgPool-Flatten-Gemm (convolutions without
    # bias): Flatten's output is the 17th value, where the importer's array of
    # values grows (8 -> 16 -> 32); a chain of Flattens crosses the next ones
    cnn = [N('Conv', ['x', 'w1'], 'c1', kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
           N('BatchNormalization', ['c1', 's', 'bb', 'mu', 'var'], 'bn'), N('Relu', ['bn'], 'r1'),
           N('MaxPool', ['r1'], 'p', kernel_shape=[2, 2], strides=[2, 2]),
           N('Conv', ['p', 'w2'], 'c2', kernel_shape=[3, 3], pads=[1, 1, 1, 1]), N('Relu', ['c2'], 'r2'),
           N('GlobalAveragePool', ['r2'], 'g'), N('Flatten', ['g'], 'f', axis=1),
           N('Gemm', ['f', 'w3', 'b3'], 'fc', transB=1)]
    m['cnn'] = small(cnn, [image(3, 16, 16)], [W('w1', [8, 3, 3, 3])] + [W(n, [8]) for n in ('s', 'bb', 'mu', 'var')] +
                     [W('w2', [16, 8, 3, 3]), W('w3', [10, 16]), W('b3', [10])], 'cnn')
    chain = [N('GlobalAveragePool', ['x'], 'f0')] + [N('Flatten', ['f%d' % k], 'f%d' % (k + 1), axis=1) for k in range(70)]
    m['flatten_chain'] = small(chain + [N('Gemm', ['f70', 'w', 'b'], 'fc', transB=1)], [x], [W('w', [10, 4]), W('b', [10])],
                               'flatten_chain')
    m['fold'] = fold_model()
    return m


def fold_model():
    """Shape arithmetic as exporters write it, folded at import (lib/network/onnx/fold.c):
    a class token expanded through ConstantOfShape / Equal / Where / Expand, the
    head split computed from Shape / Gather / Add / Div (7 / 3 = 2, truncated) /
    Unsqueeze / Concat, the keys
    transposed in torch.nn's order, a causal mask made by Range / Unsqueeze /
    Less / Where, and a dropout ratio sqrt(F) / T computed by Cast / Sqrt / Div
    (sqrt(6) / 5: what the test reads back)."""
    I = lambda name, v: W(name, np.array(v).shape, v, np.int64)
    tok = helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 4, 6])
    nodes = [
        # the class token [1, 1, 6] expanded to [N, 1, 6] and put first: [N, 5, 6]
        N('Shape', ['x'], 'sx'), N('Gather', ['sx', 'i0'], 'n', axis=0), N('Unsqueeze', ['n', 'ax0'], 'n1'),
        N('Concat', ['n1', 'm1', 'm1'], 'want', axis=0), N('Shape', ['want'], 'swant'),
        N('ConstantOfShape', ['swant'], 'ones', value=numpy_helper.from_array(np.array([1], np.int64))),
        N('Mul', ['ones', 'm1'], 'neg'), N('Equal', ['want', 'neg'], 'eq'), N('Where', ['eq', 'ones', 'want'], 'shp'),
        N('Expand', ['cls', 'shp'], 'clsx'), N('Concat', ['clsx', 'x'], 'tokens', axis=1),
        # heads: [N, T, h, d] with h = (F + 1) / 3 (integer division), d = F / h, from the tokens' shape
        N('Shape', ['tokens'], 'st'), N('Gather', ['st', 'i1'], 'T', axis=0), N('Gather', ['st', 'i2'], 'F', axis=0),
        N('Add', ['F', 'one'], 'F1'), N('Div', ['F1', 'three'], 'h'), N('Div', ['F', 'h'], 'd'),  # 7 / 3 = 2
        N('Unsqueeze', ['T', 'ax0'], 'T1'), N('Unsqueeze', ['h', 'ax0'], 'h1'), N('Unsqueeze', ['d', 'ax0'], 'd1'),
        N('Concat', ['n1', 'T1', 'h1', 'd1'], 'heads', axis=0),
        N('MatMul', ['tokens', 'wq'], 'q'), N('MatMul', ['tokens', 'wk'], 'k'), N('MatMul', ['tokens', 'wv'], 'v'),
        N('Reshape', ['q', 'heads'], 'qh'), N('Transpose', ['qh'], 'qt', perm=[0, 2, 1, 3]),
        N('Reshape', ['k', 'heads'], 'kh'), N('Transpose', ['kh'], 'kt', perm=[0, 2, 3, 1]),
        N('Reshape', ['v', 'heads'], 'vh'), N('Transpose', ['vh'], 'vt', perm=[0, 2, 1, 3]),
        N('MatMul', ['qt', 'kt'], 'scores'),
        # the causal mask: key j > query i is masked
        N('Range', ['zero', 'T', 'one'], 'r'), N('Unsqueeze', ['r', 'ax1'], 'rows'), N('Unsqueeze', ['r', 'ax0'], 'cols'),
        N('Less', ['rows', 'cols'], 'future'), N('Where', ['future', 'ninf', 'scores'], 'masked'),
        N('Softmax', ['masked'], 'probs', axis=-1),
        N('Cast', ['F'], 'Ff', to=TensorProto.FLOAT), N('Cast', ['T'], 'Tf', to=TensorProto.FLOAT),
        N('Sqrt', ['Ff'], 'sF'), N('Div', ['sF', 'Tf'], 'ratio'), N('Dropout', ['probs', 'ratio'], 'drop'),
        N('MatMul', ['drop', 'vt'], 'ctx'), N('Transpose', ['ctx'], 'ct', perm=[0, 2, 1, 3]),
        N('Shape', ['ct'], 'sc'), N('Slice', ['sc', 'i0', 'i2', 'ax0'], 'nt'), N('Concat', ['nt', 'mf'], 'merge', axis=0),
        N('Reshape', ['ct', 'merge'], 'y')]
    inits = [I('i0', 0), I('i1', 1), I('i2', 2), I('ax0', [0]), I('ax1', [1]), I('m1', [-1]), I('three', 3),
             I('zero', 0), I('one', 1), I('mf', [-1]), W('cls', [1, 1, 6]), W('wq', [6, 6]), W('wk', [6, 6]),
             W('wv', [6, 6]), W('ninf', [], -1e9)]
    return small(nodes, [tok], inits, 'fold')


def bad_models(out):
    x = image(4, 8, 8)
    conv = [N('Conv', ['x', 'w'], 'c', kernel_shape=[1, 1])]
    wts = [W('w', [4, 4, 1, 1])]
    bad = {}
    bad['unknown_op'] = small(conv + [N('NonMaxSuppression', ['c'], 'nms', name='my_nms')], [x], wts, 'u')
    bad['opset'] = small(conv, [x], wts, 'o', opset=3)
    # a squeeze-excitation gate (MobileNetV3's): HardSigmoid cannot be costed,
    # and the Mul reads the [1, 4, 1, 1] gate first, the [1, 4, 8, 8] activation
    # second; --passthrough must pass the activation on (after's MACs: 4 x 4 x 64)
    bad['se_gate'] = small(conv + [N('GlobalAveragePool', ['c'], 'g'), N('HardSigmoid', ['g'], 'h', name='gate'),
                                   N('Mul', ['h', 'c'], 'm', name='scale'),
                                   N('Conv', ['m', 'w2'], 'out', kernel_shape=[1, 1], name='after')],
                           [x], wts + [W('w2', [4, 4, 1, 1])], 'se')
    # a shape computed from a tensor whose elements are not there (external data)
    bad['fold_unknown'] = small(conv + [N('Gather', ['big', 'idx'], 'shape4', axis=0),
                                        N('Expand', ['w', 'shape4'], 'wide', name='expand'),
                                        N('Add', ['c', 'wide'], 'y')],
                                [x], wts + [W('big', [100], dtype=np.int64), W('idx', [4], [0, 1, 2, 3], np.int64)], 'fu')
    # an operator that cannot be costed or folded and reads no activation: --passthrough cannot help
    bad['const_unknown_op'] = small(conv + [N('NonMaxSuppression', ['w'], 'nms', name='const_nms'),
                                            N('Add', ['c', 'nms'], 'y')], [x], wts, 'cu')
    cyc = small([N('Relu', ['b'], 'a', name='first'), N('Relu', ['a'], 'b', name='second')], [x], [], 'cyc')
    bad['cycle'] = cyc
    noshape = helper.make_tensor_value_info('x', TensorProto.FLOAT, None)
    bad['no_shape'] = small(conv, [noshape], wts, 'ns')
    vi = small(conv, [x], wts, 'vi')
    vi.graph.value_info.append(helper.make_tensor_value_info('c', TensorProto.FLOAT, ['N', 4, 7, 8]))
    bad['value_info'] = vi
    bad['unknown_dim'] = small(conv, [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 4, 'height', 8])], wts, 'ud')
    # what onnx.checker refuses: a tensor assigned twice (single static
    # assignment), an input made nowhere; and a graph output made by no node
    bad['rewrites_input'] = small(conv + [N('Relu', ['c'], 'c', name='relu_in_place')], [x], wts, 'ri')
    bad['two_writers'] = small(conv + [N('Relu', ['c'], 'r', name='r1'), N('Sigmoid', ['c'], 'r', name='r2')], [x], wts, 'tw')
    bad['writes_graph_input'] = small(conv + [N('Relu', ['c'], 'x', name='rx')], [x], wts, 'wgi')
    bad['writes_initializer'] = small(conv + [N('Relu', ['c'], 'w', name='rw')], [x], wts, 'wi')
    bad['initializer_twice'] = small(conv, [x], wts + [W('w', [4, 4, 1, 1])], 'it')
    bad['undefined_input'] = small(conv + [N('Add', ['c', 'nowhere'], 'sum', name='add')], [x], wts, 'ui')
    bad['no_output'] = small(conv, [x], wts, 'no', outputs=[helper.make_tensor_value_info('y', TensorProto.FLOAT, None)])
    # a weight for other input channels than the input has (4): plain, grouped, 1-D
    bad['conv_channels'] = small([N('Conv', ['x', 'w3'], 'conv', kernel_shape=[3, 3])], [x], [W('w3', [6, 3, 3, 3])], 'cc')
    bad['conv_group_channels'] = small([N('Conv', ['x', 'wg'], 'gconv', kernel_shape=[3, 3], group=2)], [x],
                                       [W('wg', [6, 1, 3, 3])], 'cg')
    bad['conv1d_channels'] = small([N('Conv', ['x', 'w1'], 'c1d', kernel_shape=[3])],
                                   [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 4, 16])],
                                   [W('w1', [6, 3, 3])], 'c1')
    # a MatMul without its second input (found by the fuzzer: it read before the values)
    bad['matmul_one_input'] = small([N('GlobalAveragePool', ['x'], 'g'), N('Flatten', ['g'], 'f', axis=1),
                                     N('MatMul', ['f'], 'mm')], [x], [], 'mm')
    # a Concat with an empty input name (it read before the values too)
    bad['concat_empty_input'] = small(conv + [N('Concat', ['c', '', 'c'], 'cat', axis=1)], [x], wts, 'ce')
    # found by the network loader after the translation: the error names the node
    bad['concat_shape'] = small(conv + [N('MaxPool', ['x'], 'p', kernel_shape=[2, 2], strides=[2, 2]),
                                        N('Concat', ['c', 'p'], 'cat', axis=1)], [x], wts, 'cs')
    # Swin's constructs out of their patterns (windows.c): a Pad that pads, a Slice of
    # rows of a channels-last map read by a Relu, two pieces that are no cyclic shift
    nhwc = conv + [N('Transpose', ['c'], 't', perm=[0, 2, 3, 1])]
    i64 = lambda name, v: W(name, [len(v)], v, np.int64)
    bad['pad_nonzero'] = small(nhwc + [N('Pad', ['t', 'pads'], 'p', name='pad')], [x],
                               wts + [i64('pads', [0, 0, 0, 1, 0, 0, 0, 1])], 'pn')  # the channels
    bad['pad_reflect'] = small(nhwc + [N('Pad', ['t', 'pads'], 'p', name='pad', mode='reflect')], [x],
                               wts + [i64('pads', [0, 1, 0, 0, 0, 1, 0, 0])], 'pr')
    bad['rows_read'] = small(nhwc + [N('Slice', ['t', 's0', 's3', 'ax1', 'st2'], 'rows', name='rows'),
                                     N('Relu', ['rows'], 'r', name='relu_rows')], [x],
                             wts + [i64('s0', [0]), i64('s3', [8]), i64('ax1', [1]), i64('st2', [2])], 'rr')
    bad['rows_no_roll'] = small(nhwc + [N('Slice', ['t', 's0', 's3', 'ax1'], 'a'), N('Slice', ['t', 's0', 's3', 'ax1'], 'b'),
                                        N('Concat', ['a', 'b'], 'cat', name='not_a_roll', axis=1)], [x],
                                wts + [i64('s0', [0]), i64('s3', [3]), i64('ax1', [1])], 'nr')
    # a Squeeze of an activation's axis that is not of size 1 (axis 1: 4 channels)
    bad['squeeze_not_one'] = small(conv + [N('Squeeze', ['c', 'ax1'], 'sq', name='squeeze')], [x],
                                   wts + [i64('ax1', [1])], 'sq')
    # integers at the edge of int64 (found by the fuzzer: undefined conversions and
    # overflows): a Gather of a shape at index 2^63 - 1 is refused; a Slice of the shape
    # with a step of 2^63 - 1 takes its first element (N = 1) and a Reshape to it
    # cannot hold the map
    big = 2 ** 63 - 1
    bad['gather_index_huge'] = small(conv + [N('Shape', ['c'], 's'), N('Gather', ['s', 'ib'], 'g', axis=0,
                                                                     name='gather_huge'),
                                             N('Reshape', ['c', 'g'], 'y')], [x], wts + [i64('ib', [big])], 'gh')
    bad['slice_step_huge'] = small(conv + [N('Shape', ['c'], 's'), N('Slice', ['s', 's0', 'e4', 'ax0', 'sb'], 'sl'),
                                           N('Reshape', ['c', 'sl'], 'y', name='reshape_one')], [x],
                                   wts + [i64('s0', [0]), i64('e4', [4]), i64('ax0', [0]), i64('sb', [big])], 'sh')
    # dimensions the model gives that are no size
    for k, dims in (('dim_negative', ['N', 4, -5, 8]), ('dim_huge', ['N', 4, 2 ** 40, 8]),
                    ('batch_negative', [-5, 4, 8, 8])):
        bad[k] = small(conv, [helper.make_tensor_value_info('x', TensorProto.FLOAT, dims)], wts, k)
    for k, mdl in bad.items():
        onnx.save(mdl, os.path.join(out, 'bad_%s.onnx' % k))
    good = open(os.path.join(out, 'op_conv.onnx'), 'rb').read()
    open(os.path.join(out, 'bad_truncated.onnx'), 'wb').write(good[:len(good) // 2])
    rng = np.random.default_rng(7)
    open(os.path.join(out, 'bad_random.onnx'), 'wb').write(rng.integers(0, 256, 4096, dtype=np.uint8).tobytes())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, mdl in operator_models().items():

        onnx.save(mdl, os.path.join(out, 'op_%s.onnx' % name))
    for net in ('resnet18', 'mobilenet-v1', 'bert-base'):
        mdl = from_yaml(os.path.join('models/networks', net + '.yaml'))

        onnx.save(mdl, os.path.join(out, net + '.onnx'))
    bad_models(out)


if __name__ == '__main__':
    main()
