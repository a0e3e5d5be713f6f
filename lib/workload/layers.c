/*
 * The task analyst for the layer types of transformers and decoders:
 * matmul of two activations, conv2d_transpose, upsample, layernorm,
 * softmax, embedding, transpose and split. docs/model.md, "Workloads",
 * gives every nest.
 *
 * A conv2d_transpose is the adjoint of a convolution: its FW is the BW nest
 * of the convolution that maps its output shape to its input shape (zero
 * insertion and padding of its input, rotated filters), its BW that
 * convolution's FW nest, its WG that convolution's WG with the roles of
 * input and gradient exchanged. An upsample is the same with a fixed
 * per-channel kernel (a pool-like nest): bilinear FW as a zero-inserted
 * 2s - s%2 kernel, BW of both modes as the strided sum of dY over the
 * kernel; nearest FW moves data only.
 */
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "workload_build_int.h"

static int grad_needed(const builder *b, int producer)
{
	if (producer == TRIM__NET_INPUT)
		return 0;
	const trim__layer *P = &b->net->layers[producer];
	return b->needs_grad[producer] || trim__wl_has_weights(P) || P->type == TRIM__L_EMBEDDING ||
	       P->type == TRIM__L_PARAMETER;
}

/* The convolution (or, pool != 0, the per-channel fixed-kernel window) that
 * maps L's output shape to its input shape. */
static void adjoint(const trim__layer *L, trim__layer *A, int pool)
{
	*A = *L;
	memcpy(A->in, L->out, sizeof A->in);
	memcpy(A->out, L->in, sizeof A->out);
	A->flat = 0;
	A->dilation[0] = A->dilation[1] = 1;
	if (pool) {
		A->type = TRIM__L_AVGPOOL;
		A->groups = L->in[2];
		A->filters = L->in[2];
		for (int a = 0; a < 2; a++) {
			int64_t s = L->scale[a];
			A->stride[a] = s;
			if (L->interp == 1) { /* bilinear: kernel 2s - s%2, padding s/2 each side */
				A->kernel[a] = 2 * s - s % 2;
				A->pad[2 * a] = A->pad[2 * a + 1] = s / 2;
			} else { /* nearest: each input covers an s x s block */
				A->kernel[a] = s;
				A->pad[2 * a] = A->pad[2 * a + 1] = 0;
			}
		}
	} else {
		A->type = TRIM__L_CONV;
		A->filters = L->in[2];
	}
}

/* Give intra workload wi (built from an adjoint) the phase, kind and tensor
 * names of the layer it stands for; so too the preprocessing built for it
 * (inter workloads from index inter0 on). */
static void relabel(builder *b, size_t wi, size_t inter0, int phase, int kind,
                    const char *const names[3], const char *pre_tensor)
{
	trim__intra *x = &b->w->intra[wi];
	x->phase = phase;
	x->kind = kind;
	for (int k = 0; k < 3; k++)
		if (x->t[k].present && names[k])
			snprintf(x->t[k].name, sizeof x->t[k].name, "%s", names[k]);
	for (size_t j = inter0; j < b->w->ninter; j++) {
		trim__inter *y = &b->w->inter[j];
		if (y->before_intra != (int)wi)
			continue;
		y->phase = phase;
		if (y->op == TRIM__OP_PAD || y->op == TRIM__OP_UPSAMPLE_PAD)
			snprintf(y->tensor, sizeof y->tensor, "%s", pre_tensor);
	}
}

/* Build phase `as` of the adjoint A (FW, BW or WG nest) with its
 * preprocessing, and relabel it as `phase` of layer li; *index gets its
 * intra index. */
static int adjoint_nest(builder *b, const trim__layer *A, int li, int as, int phase, int kind,
                        const char *const names[3], const char *pre_tensor, int *index)
{
	size_t inter0 = b->w->ninter;
	int rc = as == TRIM_PHASE_FW   ? trim__wl_build_fw(b, A, li)
	         : as == TRIM_PHASE_BW ? trim__wl_build_bw(b, A, li)
	                               : trim__wl_build_wg(b, A, li);
	if (rc)
		return rc;
	int wi = (int)b->w->nintra - 1;
	if ((rc = trim__wl_add_preprocessing(b, A, li, wi)) != 0)
		return rc;
	relabel(b, (size_t)wi, inter0, phase, kind, names, pre_tensor);
	*index = wi;
	return 0;
}

/* matmul nests (heads g as G, rows of a as E, N the batch):
 *   FW  out[n][g][m][e] += a[n][g][c][e] * b[n][g][m][c]   (M = out width, C = K)
 *   dA  dA[n][g][m][e]  += dY[n][g][c][e] * b[n][g][c][m]  (M = K, C = out width)
 *   dB  dB[n][g][m][c]  += a[n][g][c][e] * dY[n][g][m][e]  (M = out width, C = K, E reduced) */
static int matmul_nest(builder *b, const trim__layer *L, int li, int which)
{
	trim__intra *x = trim__wl_new_intra(b, L, li, which ? TRIM_PHASE_BW : TRIM_PHASE_FW,
	                                    TRIM_WL_MATMUL);
	if (!x)
		return TRIM_ENOMEM;
	int64_t rows[2] = {L->in[0], L->in[1]};
	int64_t N = b->N, G = L->heads, K = L->mm_k, Mo = L->mm_m;
	int64_t E = trim__wl_checked_product(b, "the rows of a matmul", 2, rows);
	int64_t M = which == 1 ? K : Mo, C = which == 1 ? Mo : K;
	int64_t *B = x->bound;
	B[TRIM_DIM_N] = N;
	B[TRIM_DIM_G] = G;
	B[TRIM_DIM_M] = M;
	B[TRIM_DIM_C] = C;
	B[TRIM_DIM_E] = E;
	static const char *const names[3][3] = {
		{"a", "b", "ofmap"}, {"dY", "b", "dA"}, {"a", "dY", "dB"}};
	trim__tensor *t0 = &x->t[0], *t1 = &x->t[1], *t2 = &x->t[2];
	for (int k = 0; k < 3; k++) {
		trim__wl_tname(&x->t[k], names[which][k]);
		trim__wl_ix1(&x->t[k], TRIM_DIM_N, N);
		trim__wl_ix1(&x->t[k], TRIM_DIM_G, G);
	}
	trim__wl_ix1(t0, TRIM_DIM_C, C);
	trim__wl_ix1(t0, TRIM_DIM_E, E);
	if (which == 2) {
		trim__wl_ix1(t1, TRIM_DIM_M, M);
		trim__wl_ix1(t1, TRIM_DIM_E, E);
		trim__wl_ix1(t2, TRIM_DIM_M, M);
		trim__wl_ix1(t2, TRIM_DIM_C, C);
	} else {
		trim__wl_ix1(t1, which == 1 ? TRIM_DIM_C : TRIM_DIM_M, which == 1 ? C : M);
		trim__wl_ix1(t1, which == 1 ? TRIM_DIM_M : TRIM_DIM_C, which == 1 ? M : C);
		trim__wl_ix1(t2, TRIM_DIM_M, M);
		trim__wl_ix1(t2, TRIM_DIM_E, E);
	}
	trim__wl_finish_intra(b, x);
	return 0;
}

/* An inter-layer workload over a [N, C, H, W] tensor of layer L (moved or
 * processed whole), run before the next intra workload. */
static int vector_op(builder *b, int op, const trim__layer *L, int li, int phase,
                     const char *tensor, const int64_t *shape, int64_t in_elems)
{
	trim__inter *y = trim__wl_new_inter(b, op, L, li, phase, tensor);
	if (!y)
		return TRIM_ENOMEM;
	trim__wl_shape4(y->out_shape, b->N, shape[2], shape[0], shape[1]);
	memcpy(y->in_shape, y->out_shape, sizeof y->in_shape);
	y->out_elems = y->elems = trim__wl_prod4(b, y->out_shape);
	y->in_elems = in_elems < 0 ? y->out_elems : in_elems;
	y->before_intra = (int)b->w->nintra;
	return 0;
}

/* A map's borders padded with zeros (TRIM__OP_PAD) or cut off (TRIM__OP_MOVE):
 * [H, W, C] `from` into `to`, all of `to` written. */
static int border_op(builder *b, int op, const trim__layer *L, int li, int phase, const char *tensor,
                     const int64_t *from, const int64_t *to)
{
	trim__inter *y = trim__wl_new_inter(b, op, L, li, phase, tensor);
	if (!y)
		return TRIM_ENOMEM;
	trim__wl_shape4(y->in_shape, b->N, from[2], from[0], from[1]);
	trim__wl_shape4(y->out_shape, b->N, to[2], to[0], to[1]);
	y->in_elems = trim__wl_prod4(b, y->in_shape);
	y->out_elems = y->elems = trim__wl_prod4(b, y->out_shape);
	y->zeros = op == TRIM__OP_PAD ? y->out_elems - y->in_elems : 0;
	y->before_intra = (int)b->w->nintra;
	return 0;
}

int trim__wl_forward_more(builder *b, const trim__layer *L, int li)
{
	static const char *const fw_names[3] = {"ifmap", "weight", "ofmap"};
	trim__layer A;
	int rc = 0;
	switch (L->type) {
	case TRIM__L_MATMUL:
		rc = matmul_nest(b, L, li, 0);
		b->fw_index[li] = (int)b->w->nintra - 1;
		return rc;
	case TRIM__L_CONV_T:
		adjoint(L, &A, 0);
		return adjoint_nest(b, &A, li, TRIM_PHASE_BW, TRIM_PHASE_FW, TRIM_WL_CONV, fw_names,
		                    "ifmap", &b->fw_index[li]);
	case TRIM__L_UPSAMPLE:
		if (L->interp == 0) { /* nearest: copies */
			int64_t in[4];
			trim__wl_shape4(in, b->N, L->in[2], L->in[0], L->in[1]);
			return vector_op(b, TRIM__OP_MOVE, L, li, TRIM_PHASE_FW, "ofmap", L->out,
			                 trim__wl_prod4(b, in));
		}
		adjoint(L, &A, 1);
		return adjoint_nest(b, &A, li, TRIM_PHASE_BW, TRIM_PHASE_FW, TRIM_WL_UPSAMPLE, fw_names,
		                    "ifmap", &b->fw_index[li]);
	case TRIM__L_LAYERNORM:
		return vector_op(b, TRIM__OP_LAYERNORM, L, li, TRIM_PHASE_FW, "ofmap", L->out, -1);
	case TRIM__L_SOFTMAX:
		return vector_op(b, TRIM__OP_SOFTMAX, L, li, TRIM_PHASE_FW, "ofmap", L->out, -1);
	case TRIM__L_EMBEDDING: {
		int64_t ids[4];
		trim__wl_shape4(ids, b->N, 1, L->in[0], L->in[1]);
		if ((rc = vector_op(b, TRIM__OP_LOOKUP, L, li, TRIM_PHASE_FW, "ofmap", L->out,
		                    trim__wl_prod4(b, ids))) == 0)
			b->w->inter[b->w->ninter - 1].in_shape[1] = 1;
		return rc;
	}
	case TRIM__L_TRANSPOSE:
	case TRIM__L_SPLIT:
		return vector_op(b, TRIM__OP_MOVE, L, li, TRIM_PHASE_FW, "ofmap", L->out, -1);
	case TRIM__L_ZEROPAD:
		return border_op(b, TRIM__OP_PAD, L, li, TRIM_PHASE_FW, "ofmap", L->in, L->out);
	case TRIM__L_CROP:
		return border_op(b, TRIM__OP_MOVE, L, li, TRIM_PHASE_FW, "ofmap", L->in, L->out);
	default:
		return 0;
	}
}

int trim__wl_backward_more(builder *b, const trim__layer *L, int li)
{
	static const char *const bw_names[3] = {"dY", "weight", "dX"};
	static const char *const wg_names[3] = {"dY", "ifmap", "dW"};
	trim__layer A;
	int rc = 0, need = b->needs_grad[li] > 0;
	switch (L->type) {
	case TRIM__L_MATMUL: {
		int da = grad_needed(b, L->inputs[0]), db = grad_needed(b, L->inputs[1]);
		if (da && (rc = matmul_nest(b, L, li, 1)) == 0)
			b->bw_index[li] = (int)b->w->nintra - 1;
		if (rc == 0 && db && (rc = matmul_nest(b, L, li, 2)) == 0) {
			if (b->bw_index[li] < 0)
				b->bw_index[li] = (int)b->w->nintra - 1;
			else
				b->bw2_index[li] = (int)b->w->nintra - 1;
		}
		return rc;
	}
	case TRIM__L_CONV_T:
		adjoint(L, &A, 0);
		if (need && (rc = adjoint_nest(b, &A, li, TRIM_PHASE_FW, TRIM_PHASE_BW, TRIM_WL_CONV,
		                               bw_names, "dY", &b->bw_index[li])) != 0)
			return rc;
		return adjoint_nest(b, &A, li, TRIM_PHASE_WG, TRIM_PHASE_WG, TRIM_WL_CONV, wg_names, "dY",
		                    &b->wg_index[li]);
	case TRIM__L_UPSAMPLE:
		if (!need)
			return 0;
		adjoint(L, &A, 1);
		return adjoint_nest(b, &A, li, TRIM_PHASE_FW, TRIM_PHASE_BW, TRIM_WL_UPSAMPLE, bw_names,
		                    "dY", &b->bw_index[li]);
	case TRIM__L_LAYERNORM:
		return need ? vector_op(b, TRIM__OP_LAYERNORM, L, li, TRIM_PHASE_BW, "dY", L->out, -1) : 0;
	case TRIM__L_SOFTMAX:
		return need ? vector_op(b, TRIM__OP_SOFTMAX, L, li, TRIM_PHASE_BW, "dY", L->out, -1) : 0;
	case TRIM__L_EMBEDDING: /* the rows of the table that the batch looked up are updated */
		return vector_op(b, TRIM__OP_LOOKUP, L, li, TRIM_PHASE_WG, "dW", L->out, -1);
	case TRIM__L_TRANSPOSE:
	case TRIM__L_SPLIT:
		return need ? vector_op(b, TRIM__OP_MOVE, L, li, TRIM_PHASE_BW, "dY", L->out, -1) : 0;
	case TRIM__L_ZEROPAD: /* the gradient of the padded map, its borders cut off */
		return need ? border_op(b, TRIM__OP_MOVE, L, li, TRIM_PHASE_BW, "dY", L->out, L->in) : 0;
	case TRIM__L_CROP: /* zeros where the borders were */
		return need ? border_op(b, TRIM__OP_PAD, L, li, TRIM_PHASE_BW, "dY", L->out, L->in) : 0;
	default:
		return 0;
	}
}

/* The first intra workload after the layer's backward work (its vector
 * work runs just before it), or its last one. */
static int after_backward(const builder *b, int li)
{
	int at = b->bw_done[li] + 1;
	return at < (int)b->w->nintra ? at : b->bw_done[li];
}

int trim__wl_cache_more(builder *b, const trim__layer *L, int li)
{
	int rc = 0;
	int p = L->inputs[0];
	switch (L->type) {
	case TRIM__L_MATMUL: {
		/* dA needs b; dB needs a */
		int q = L->inputs[1];
		int da = b->bw_index[li], db = b->bw2_index[li] >= 0 ? b->bw2_index[li] : -1;
		if (db < 0 && da >= 0 && !grad_needed(b, L->inputs[0]))
			db = da, da = -1; /* the only BW is dB */
		if (da >= 0)
			rc = trim__wl_add_cache(b, TRIM__OP_CACHE, q, L, li, "activation",
			                        trim__wl_out_elems(b, q), trim__wl_created_at(b, q), da);
		if (rc == 0 && db >= 0)
			rc = trim__wl_add_cache(b, TRIM__OP_CACHE, p, L, li, "activation",
			                        trim__wl_out_elems(b, p), trim__wl_created_at(b, p), db);
		return rc;
	}
	case TRIM__L_CONV_T: /* WG needs the layer's input */
		return trim__wl_add_cache(b, TRIM__OP_CACHE, p, L, li, "activation",
		                          trim__wl_out_elems(b, p), trim__wl_created_at(b, p),
		                          b->wg_index[li]);
	case TRIM__L_LAYERNORM: /* its BW needs the normalised input */
		if (!b->needs_grad[li])
			return 0;
		return trim__wl_add_cache(b, TRIM__OP_CACHE, p, L, li, "activation",
		                          trim__wl_out_elems(b, p), trim__wl_created_at(b, p),
		                          after_backward(b, li));
	case TRIM__L_SOFTMAX: /* its BW needs its output */
		if (!b->needs_grad[li])
			return 0;
		return trim__wl_add_cache(b, TRIM__OP_CACHE, li, L, li, "activation",
		                          trim__wl_out_elems(b, li), trim__wl_created_at(b, li),
		                          after_backward(b, li));
	case TRIM__L_EMBEDDING: /* the row updates need the token ids */
		return trim__wl_add_cache(b, TRIM__OP_CACHE, p, L, li, "activation",
		                          trim__wl_out_elems(b, p), trim__wl_created_at(b, p),
		                          after_backward(b, li));
	default:
		return 0;
	}
}
