/*
 * The task analyst: network -> intra-layer workloads (one generic loop nest
 * per layer and phase) and inter-layer workloads (preprocessing, caching).
 * docs/model.md, "Workloads", gives every phase's loop nest. Tensors and the
 * zero-MAC count are lib/workload/tensors.c; trim_workloads_create, the
 * accessors and the reports lib/workload/api.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network/network_int.h"
#include "util/handle.h"
#include "util/util.h"
#include "workload_int.h"
#include "workload_build_int.h"

/* ---- building intra workloads -------------------------------------------- */

/* Checked product of n counts. On overflow it records `what` (sticky, the
 * first one wins) and returns INT64_MAX; trim__wl_analyse() turns the record
 * into an error naming the layer (trim__wl_overflow_error). */
int64_t trim__wl_checked_product(builder *b, const char *what, int n, const int64_t *f)
{
	int64_t r = 1;
	for (int k = 0; k < n; k++)
		if (__builtin_mul_overflow(r, f[k], &r)) {
			if (!b->overflow)
				b->overflow = what;
			return INT64_MAX;
		}
	return r;
}

/* The error for a count that does not fit in 64 bits, naming the network
 * file, the line of layer li (the network input for TRIM__NET_INPUT) and the layer. */
int trim__wl_overflow_error(const struct trim_network *net, int li, const char *what, int64_t N)
{
	char path[96];
	if (li < 0 || li >= net->nlayers)
		return trim__error_at(TRIM_ERANGE, net->file, 0, 0, "network.input",
		                      "%s overflow 64 bits at batch %lld", what, (long long)N);
	const trim__layer *L = &net->layers[li];
	snprintf(path, sizeof path, "layers[%d]", li);
	return trim__error_at(TRIM_ERANGE, net->file, L->line, L->col, path,
	                      "layer '%s': %s overflow 64 bits at batch %lld", L->name, what,
	                      (long long)N);
}

trim__intra *trim__wl_new_intra(builder *b, const trim__layer *L, int li, int phase, int kind)
{
	struct trim_workloads *w = b->w;
	if (trim__grow((void **)&w->intra, &w->capintra, w->nintra + 1, sizeof *w->intra))
		return NULL;
	trim__intra *x = &w->intra[w->nintra++];
	memset(x, 0, sizeof *x);
	snprintf(x->layer, sizeof x->layer, "%s", L->name);
	x->layer_index = li;
	x->phase = phase;
	x->kind = kind;
	x->pre_index = -1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		x->bound[d] = 1;
	x->stride[0] = L->stride[0];
	x->stride[1] = L->stride[1];
	x->dilation[0] = L->dilation[0];
	x->dilation[1] = L->dilation[1];
	return x;
}

void trim__wl_finish_intra(builder *b, trim__intra *x)
{
	static const char *const what[2][3] = {
		{"the FW workload's MACs", "the BW workload's MACs", "the WG workload's MACs"},
		{"the FW workload's tensors", "the BW workload's tensors", "the WG workload's tensors"},
	};
	x->macs = trim__wl_checked_product(b, what[0][x->phase], TRIM_NDIMS, x->bound);
	for (int k = 0; k < 3; k++) {
		trim__tensor *t = &x->t[k];
		if (t->present)
			(void)trim__wl_checked_product(b, what[1][x->phase], t->ndims, t->extent);
		trim__tensor_finish(t);
	}
	if (b->overflow)
		return; /* the workload is dropped with an error */
	x->zero_macs = trim__intra_zero_macs(x);
	trim__intra_act_zero_macs_cache(x); /* the analyst's count, once per workload */
}

int trim__wl_kind_of(const trim__layer *L)
{
	switch (L->type) {
	case TRIM__L_CONV:
	case TRIM__L_CONV1D:
	case TRIM__L_CONV_T: return TRIM_WL_CONV;
	case TRIM__L_MATMUL: return TRIM_WL_MATMUL;
	case TRIM__L_UPSAMPLE: return TRIM_WL_UPSAMPLE;
	case TRIM__L_DEPTHWISE: return TRIM_WL_DEPTHWISE;
	case TRIM__L_DENSE: return TRIM_WL_FC;
	case TRIM__L_MAXPOOL: return TRIM_WL_MAXPOOL;
	case TRIM__L_AVGPOOL:
	case TRIM__L_GLOBAL_AVGPOOL: return TRIM_WL_AVGPOOL;
	case TRIM__L_ADD: return TRIM_WL_ELTWISE;
	default: return -1;
	}
}

static int is_pool(const trim__layer *L)
{
	return L->type == TRIM__L_MAXPOOL || L->type == TRIM__L_AVGPOOL ||
	       L->type == TRIM__L_GLOBAL_AVGPOOL;
}

int trim__wl_has_weights(const trim__layer *L)
{
	return L->type == TRIM__L_CONV || L->type == TRIM__L_DEPTHWISE || L->type == TRIM__L_DENSE ||
	       L->type == TRIM__L_CONV1D || L->type == TRIM__L_CONV_T;
}

/* Layers whose work layers.c builds. */
static int built_elsewhere(const trim__layer *L)
{
	switch (L->type) {
	case TRIM__L_MATMUL:
	case TRIM__L_LAYERNORM:
	case TRIM__L_SOFTMAX:
	case TRIM__L_UPSAMPLE:
	case TRIM__L_CONV_T:
	case TRIM__L_EMBEDDING:
	case TRIM__L_TRANSPOSE:
	case TRIM__L_SPLIT:
	case TRIM__L_ZEROPAD:
	case TRIM__L_CROP: return 1;
	default: return 0;
	}
}

/* Layers with trained parameters whose gradient flows back through their inputs' layers. */
static int trainable(const trim__layer *L)
{
	return trim__wl_has_weights(L) || L->type == TRIM__L_EMBEDDING || L->type == TRIM__L_PARAMETER;
}

/* A dense layer over [H, W, C] (tokens x features): its H x W positions fold
 * into the batch loop; the layer is seen as a dense over flat [C] at batch
 * N x H x W (the caller restores b->N with restore_batch). */
static const trim__layer *fold_tokens(builder *b, const trim__layer *L, trim__layer *view,
                                      int64_t *saved_n)
{
	*saved_n = b->N;
	if (L->type != TRIM__L_DENSE || L->tokens <= 1)
		return L;
	*view = *L;
	view->in[0] = view->in[1] = view->out[0] = view->out[1] = 1;
	int64_t f[2] = {b->N, L->tokens};
	b->N = trim__wl_checked_product(b, "the batch x tokens of a dense layer", 2, f);
	return view;
}

/* Loop bounds shared by FW and WG of a sliding-window layer. Pools and
 * depthwise: one group per channel. */
static void window_dims(const trim__layer *L, int64_t N, int64_t *G, int64_t *M, int64_t *C)
{
	if (is_pool(L)) {
		*G = L->in[2];
		*M = *C = 1;
	} else {
		*G = L->groups;
		*M = L->filters / L->groups;
		*C = L->in[2] / L->groups;
	}
	(void)N;
}

/* The sliding-window operand of FW / WG: the padded input. */
static void padded_input(trim__tensor *t, const trim__layer *L, int64_t N, int64_t G, int64_t C,
                         int pool)
{
	trim__wl_tname(t, "ifmap");
	trim__wl_ix1(t, TRIM_DIM_N, N);
	trim__wl_ix1(t, TRIM_DIM_G, G);
	if (!pool)
		trim__wl_ix1(t, TRIM_DIM_C, C);
	int64_t Hp = L->in[0] + L->pad[0] + L->pad[1];
	int64_t Wp = L->in[1] + L->pad[2] + L->pad[3];
	trim__wl_ix2(t, TRIM_DIM_E, L->stride[0], TRIM_DIM_R, L->dilation[0], Hp);
	trim__wl_ix2(t, TRIM_DIM_F, L->stride[1], TRIM_DIM_S, L->dilation[1], Wp);
	if (L->pad[0] || L->pad[1] || L->pad[2] || L->pad[3]) {
		t->has_zeros = 1;
		t->zaxis[0] = (trim__zaxis){L->pad[0], L->pad[0] + L->in[0] - 1, 1};
		t->zaxis[1] = (trim__zaxis){L->pad[2], L->pad[2] + L->in[1] - 1, 1};
	}
}

int trim__wl_build_fw(builder *b, const trim__layer *L, int li)
{
	int kind = trim__wl_kind_of(L);
	trim__intra *x = trim__wl_new_intra(b, L, li, TRIM_PHASE_FW, kind);
	if (!x)
		return TRIM_ENOMEM;
	int64_t N = b->N;
	if (kind == TRIM_WL_ELTWISE) {
		/* out[n][g][e][f] = a[n][g][e][f] + b[r][n][g][e][f], r over the k-1 other inputs */
		int64_t *B = x->bound;
		B[TRIM_DIM_N] = N;
		B[TRIM_DIM_G] = L->out[2];
		B[TRIM_DIM_E] = L->out[0];
		B[TRIM_DIM_F] = L->out[1];
		B[TRIM_DIM_R] = L->ninputs - 1;
		x->stride[0] = x->stride[1] = 1;
		trim__tensor *a = &x->t[0], *bb = &x->t[1], *o = &x->t[2];
		trim__wl_tname(a, "a");
		trim__wl_tname(bb, "b");
		trim__wl_tname(o, "ofmap");
		trim__wl_ix1(bb, TRIM_DIM_R, L->ninputs - 1);
		trim__tensor *ts[3] = {a, bb, o};
		for (int k = 0; k < 3; k++) {
			trim__wl_ix1(ts[k], TRIM_DIM_N, N);
			trim__wl_ix1(ts[k], TRIM_DIM_G, L->out[2]);
			trim__wl_ix1(ts[k], TRIM_DIM_E, L->out[0]);
			trim__wl_ix1(ts[k], TRIM_DIM_F, L->out[1]);
		}
		trim__wl_finish_intra(b, x);
		return 0;
	}
	int64_t G, M, C;
	int pool = is_pool(L);
	window_dims(L, N, &G, &M, &C);
	int64_t *B = x->bound;
	B[TRIM_DIM_N] = N;
	B[TRIM_DIM_G] = G;
	B[TRIM_DIM_M] = M;
	B[TRIM_DIM_C] = C;
	B[TRIM_DIM_E] = L->out[0];
	B[TRIM_DIM_F] = L->out[1];
	B[TRIM_DIM_R] = L->kernel[0];
	B[TRIM_DIM_S] = L->kernel[1];
	padded_input(&x->t[0], L, N, G, C, pool);
	if (!pool) {
		trim__tensor *wt = &x->t[1];
		trim__wl_tname(wt, "weight");
		trim__wl_ix1(wt, TRIM_DIM_G, G);
		trim__wl_ix1(wt, TRIM_DIM_M, M);
		trim__wl_ix1(wt, TRIM_DIM_C, C);
		trim__wl_ix1(wt, TRIM_DIM_R, L->kernel[0]);
		trim__wl_ix1(wt, TRIM_DIM_S, L->kernel[1]);
	}
	trim__tensor *o = &x->t[2];
	trim__wl_tname(o, "ofmap");
	trim__wl_ix1(o, TRIM_DIM_N, N);
	trim__wl_ix1(o, TRIM_DIM_G, G);
	if (!pool)
		trim__wl_ix1(o, TRIM_DIM_M, M);
	trim__wl_ix1(o, TRIM_DIM_E, L->out[0]);
	trim__wl_ix1(o, TRIM_DIM_F, L->out[1]);
	trim__wl_finish_intra(b, x);
	return 0;
}

/* BW in TRIM's form: dX = conv(upsampled + padded dY, transposed rotated W),
 * stride 1. Pools: the same nest with the max-pool switches as second operand. */
int trim__wl_build_bw(builder *b, const trim__layer *L, int li)
{
	trim__intra *x = trim__wl_new_intra(b, L, li, TRIM_PHASE_BW, trim__wl_kind_of(L));
	if (!x)
		return TRIM_ENOMEM;
	int64_t N = b->N, G, M, C;
	int pool = is_pool(L);
	window_dims(L, N, &G, &M, &C);
	int64_t H = L->in[0], W = L->in[1], R = L->kernel[0], S = L->kernel[1];
	int64_t Dr = L->dilation[0], Ds = L->dilation[1];
	int64_t *B = x->bound;
	B[TRIM_DIM_N] = N;
	B[TRIM_DIM_G] = G;
	B[TRIM_DIM_M] = C; /* result channels: the layer's input channels */
	B[TRIM_DIM_C] = M; /* reduction: the layer's output channels */
	B[TRIM_DIM_E] = H;
	B[TRIM_DIM_F] = W;
	B[TRIM_DIM_R] = R;
	B[TRIM_DIM_S] = S;
	x->stride[0] = x->stride[1] = 1;

	trim__tensor *dy = &x->t[0];
	trim__wl_tname(dy, "dY");
	trim__wl_ix1(dy, TRIM_DIM_N, N);
	trim__wl_ix1(dy, TRIM_DIM_G, G);
	if (!pool)
		trim__wl_ix1(dy, TRIM_DIM_C, M);
	trim__wl_ix2(dy, TRIM_DIM_E, 1, TRIM_DIM_R, Dr, H + Dr * (R - 1));
	trim__wl_ix2(dy, TRIM_DIM_F, 1, TRIM_DIM_S, Ds, W + Ds * (S - 1));
	dy->has_zeros = 1;
	int64_t lo_h = Dr * (R - 1) - L->pad[0], lo_w = Ds * (S - 1) - L->pad[2];
	dy->zaxis[0] = (trim__zaxis){lo_h, lo_h + L->stride[0] * (L->out[0] - 1), L->stride[0]};
	dy->zaxis[1] = (trim__zaxis){lo_w, lo_w + L->stride[1] * (L->out[1] - 1), L->stride[1]};

	trim__tensor *wt = &x->t[1];
	if (!pool) {
		trim__wl_tname(wt, "weight_t");
		trim__wl_ix1(wt, TRIM_DIM_G, G);
		trim__wl_ix1(wt, TRIM_DIM_C, M);
		trim__wl_ix1(wt, TRIM_DIM_M, C);
		trim__wl_ix1(wt, TRIM_DIM_R, R);
		trim__wl_ix1(wt, TRIM_DIM_S, S);
	} else if (L->type == TRIM__L_MAXPOOL) {
		trim__wl_tname(wt, "switches");
		trim__wl_ix1(wt, TRIM_DIM_N, N);
		trim__wl_ix1(wt, TRIM_DIM_G, G);
		trim__wl_ix1(wt, TRIM_DIM_E, H);
		trim__wl_ix1(wt, TRIM_DIM_F, W);
	}
	trim__tensor *dx = &x->t[2];
	trim__wl_tname(dx, "dX");
	trim__wl_ix1(dx, TRIM_DIM_N, N);
	trim__wl_ix1(dx, TRIM_DIM_G, G);
	if (!pool)
		trim__wl_ix1(dx, TRIM_DIM_M, C);
	trim__wl_ix1(dx, TRIM_DIM_E, H);
	trim__wl_ix1(dx, TRIM_DIM_F, W);
	trim__wl_finish_intra(b, x);
	return 0;
}

/* WG: dW[g][m][c][r][s] += X[n][g][c][U e + D r][V f + D s] * dY[n][g][m][e][f]. */
int trim__wl_build_wg(builder *b, const trim__layer *L, int li)
{
	trim__intra *x = trim__wl_new_intra(b, L, li, TRIM_PHASE_WG, trim__wl_kind_of(L));
	if (!x)
		return TRIM_ENOMEM;
	int64_t N = b->N, G, M, C;
	window_dims(L, N, &G, &M, &C);
	int64_t *B = x->bound;
	B[TRIM_DIM_N] = N;
	B[TRIM_DIM_G] = G;
	B[TRIM_DIM_M] = M;
	B[TRIM_DIM_C] = C;
	B[TRIM_DIM_E] = L->out[0];
	B[TRIM_DIM_F] = L->out[1];
	B[TRIM_DIM_R] = L->kernel[0];
	B[TRIM_DIM_S] = L->kernel[1];
	padded_input(&x->t[0], L, N, G, C, 0);
	trim__tensor *dy = &x->t[1];
	trim__wl_tname(dy, "dY");
	trim__wl_ix1(dy, TRIM_DIM_N, N);
	trim__wl_ix1(dy, TRIM_DIM_G, G);
	trim__wl_ix1(dy, TRIM_DIM_M, M);
	trim__wl_ix1(dy, TRIM_DIM_E, L->out[0]);
	trim__wl_ix1(dy, TRIM_DIM_F, L->out[1]);
	trim__tensor *dw = &x->t[2];
	trim__wl_tname(dw, "dW");
	trim__wl_ix1(dw, TRIM_DIM_G, G);
	trim__wl_ix1(dw, TRIM_DIM_M, M);
	trim__wl_ix1(dw, TRIM_DIM_C, C);
	trim__wl_ix1(dw, TRIM_DIM_R, L->kernel[0]);
	trim__wl_ix1(dw, TRIM_DIM_S, L->kernel[1]);
	trim__wl_finish_intra(b, x);
	return 0;
}

/* ---- inter-layer workloads ------------------------------------------------ */

trim__inter *trim__wl_new_inter(builder *b, int op, const trim__layer *L, int li, int phase,
                              const char *tensor)
{
	struct trim_workloads *w = b->w;
	if (trim__grow((void **)&w->inter, &w->capinter, w->ninter + 1, sizeof *w->inter))
		return NULL;
	trim__inter *y = &w->inter[w->ninter++];
	memset(y, 0, sizeof *y);
	y->op = op;
	snprintf(y->layer, sizeof y->layer, "%s", L->name);
	snprintf(y->tensor, sizeof y->tensor, "%s", tensor);
	y->layer_index = li;
	y->phase = phase;
	y->before_intra = -1;
	y->created = y->freed = -1;
	return y;
}

void trim__wl_shape4(int64_t *s, int64_t n, int64_t c, int64_t h, int64_t w)
{
	s[0] = n;
	s[1] = c;
	s[2] = h;
	s[3] = w;
}

int64_t trim__wl_prod4(builder *b, const int64_t *s)
{
	return trim__wl_checked_product(b, "the elements of an inter-layer workload", 4, s);
}

/* Preprocessing that feeds the intra workload just built (index wi). */
int trim__wl_add_preprocessing(builder *b, const trim__layer *L, int li, int wi)
{
	trim__intra *x = &b->w->intra[wi];
	int64_t N = b->N;
	if (x->kind == TRIM_WL_ELTWISE)
		return 0;
	int padded = L->pad[0] || L->pad[1] || L->pad[2] || L->pad[3];
	if ((x->phase == TRIM_PHASE_FW || x->phase == TRIM_PHASE_WG) && padded) {
		trim__inter *y = trim__wl_new_inter(b, TRIM__OP_PAD, L, li, x->phase, "ifmap");
		if (!y)
			return TRIM_ENOMEM;
		trim__wl_shape4(y->in_shape, N, L->in[2], L->in[0], L->in[1]);
		trim__wl_shape4(y->out_shape, N, L->in[2], L->in[0] + L->pad[0] + L->pad[1],
		       L->in[1] + L->pad[2] + L->pad[3]);
		y->in_elems = trim__wl_prod4(b, y->in_shape);
		y->out_elems = trim__wl_prod4(b, y->out_shape);
		y->zeros = y->out_elems - y->in_elems;
		y->before_intra = wi;
		b->w->intra[wi].pre_index = (int)b->w->ninter - 1;
	}
	if (x->phase == TRIM_PHASE_BW) {
		const trim__tensor *dy = &x->t[0];
		int64_t eh = dy->extent[dy->ndims - 2], ew = dy->extent[dy->ndims - 1];
		int64_t rh = trim__wl_axis_real(&dy->zaxis[0], eh);
		int64_t rw = trim__wl_axis_real(&dy->zaxis[1], ew);
		int identity = eh == L->out[0] && ew == L->out[1] && rh == eh && rw == ew &&
		               dy->zaxis[0].lo == 0 && dy->zaxis[1].lo == 0;
		if (!identity) {
			trim__inter *y = trim__wl_new_inter(b, TRIM__OP_UPSAMPLE_PAD, L, li, x->phase, "dY");
			if (!y)
				return TRIM_ENOMEM;
			trim__wl_shape4(y->in_shape, N, L->out[2], L->out[0], L->out[1]);
			trim__wl_shape4(y->out_shape, N, L->out[2], eh, ew);
			y->in_elems = trim__wl_prod4(b, y->in_shape);
			y->out_elems = trim__wl_prod4(b, y->out_shape);
			int64_t real[4] = {N, L->out[2], rh, rw};
			y->zeros = y->out_elems - trim__wl_checked_product(b, "the elements of dY", 4, real);
			y->before_intra = wi;
			b->w->intra[wi].pre_index = (int)b->w->ninter - 1;
		}
		if (trim__wl_has_weights(L)) {
			trim__inter *y = trim__wl_new_inter(b, TRIM__OP_TRANSPOSE, L, li, x->phase, "weight");
			if (!y)
				return TRIM_ENOMEM;
			int64_t G = L->groups, M = L->filters / G, C = L->in[2] / G;
			trim__wl_shape4(y->in_shape, G * M, C, L->kernel[0], L->kernel[1]);
			trim__wl_shape4(y->out_shape, G * C, M, L->kernel[0], L->kernel[1]);
			y->in_elems = y->out_elems = trim__wl_prod4(b, y->in_shape);
			y->before_intra = wi;
			if (b->w->intra[wi].pre_index < 0)
				b->w->intra[wi].pre_index = (int)b->w->ninter - 1;
		}
	}
	return 0;
}

int64_t trim__wl_out_elems(builder *b, int li)
{
	const int64_t *o = li == TRIM__NET_INPUT ? b->net->input : b->net->layers[li].out;
	int64_t f[4] = {b->N, o[0], o[1], o[2]};
	return trim__wl_checked_product(b, "the cached activations", 4, f);
}

/* Intra index at which the output of layer li exists (its producer's FW, or
 * the last FW before it; -1 -> the network input, available from 0). */
int trim__wl_created_at(const builder *b, int li)
{
	if (li == TRIM__NET_INPUT)
		return 0;
	return b->last_fw[li] < 0 ? 0 : b->last_fw[li];
}

int trim__wl_add_cache(builder *b, int op, int producer, const trim__layer *user, int user_index,
                     const char *tensor, int64_t elems, int created, int freed)
{
	/* one entry per (op, producer) tensor, extended to its last use */
	for (size_t j = 0; j < b->w->ninter; j++) {
		trim__inter *y = &b->w->inter[j];
		if (y->op == op && y->layer_index == producer && !strcmp(y->tensor, tensor)) {
			if (freed > y->freed)
				y->freed = freed;
			return 0;
		}
	}
	const trim__layer *P = producer == TRIM__NET_INPUT ? user : &b->net->layers[producer];
	trim__inter *y = trim__wl_new_inter(b, op, P, producer, TRIM_PHASE_FW, tensor);
	if (!y)
		return TRIM_ENOMEM;
	if (producer == TRIM__NET_INPUT)
		snprintf(y->layer, sizeof y->layer, "input");
	y->elems = elems;
	y->created = created;
	y->freed = freed < created ? created : freed;
	(void)user_index;
	return 0;
}

/* ---- the analysis ---------------------------------------------------------- */

/* Which layers need the gradient w.r.t. their input: some trainable layer
 * upstream. */
static void mark_needs_grad(builder *b)
{
	const struct trim_network *net = b->net;
	int n = net->nlayers;
	for (int i = 0; i < n; i++) {
		const trim__layer *L = &net->layers[i];
		for (int k = 0; k < L->ninputs; k++) {
			int j = L->inputs[k];
			if (j != TRIM__NET_INPUT && (trainable(&net->layers[j]) || b->needs_grad[j]))
				b->needs_grad[i] = 1;
		}
	}
}

/* The forward workloads, first layer first. */
static int analyse_forward(builder *b)
{
	const struct trim_network *net = b->net;
	struct trim_workloads *w = b->w;
	int n = net->nlayers;
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		const trim__layer *L = &net->layers[i];
		trim__layer view;
		int64_t N0;
		if (built_elsewhere(L)) {
			rc = trim__wl_forward_more(b, L, i);
		} else if (trim__wl_kind_of(L) >= 0) {
			const trim__layer *V = fold_tokens(b, L, &view, &N0);
			rc = trim__wl_build_fw(b, V, i);
			if (rc == 0) {
				b->fw_index[i] = (int)w->nintra - 1;
				rc = trim__wl_add_preprocessing(b, V, i, (int)w->nintra - 1);
			}
			b->N = N0;
		} else if (L->type == TRIM__L_BATCHNORM) {
			trim__inter *y = trim__wl_new_inter(b, TRIM__OP_BATCHNORM, L, i, TRIM_PHASE_FW, "ofmap");
			if (!y)
				return TRIM_ENOMEM;
			trim__wl_shape4(y->in_shape, b->N, L->in[2], L->in[0], L->in[1]);
			memcpy(y->out_shape, y->in_shape, sizeof y->out_shape);
			y->in_elems = y->out_elems = y->elems = trim__wl_prod4(b, y->in_shape);
			y->before_intra = (int)w->nintra; /* runs before the next intra workload */
		} else if (L->type == TRIM__L_CONCAT) {
			trim__inter *y = trim__wl_new_inter(b, TRIM__OP_CONCAT, L, i, TRIM_PHASE_FW, "ofmap");
			if (!y)
				return TRIM_ENOMEM;
			trim__wl_shape4(y->in_shape, b->N, L->out[2], L->out[0], L->out[1]);
			memcpy(y->out_shape, y->in_shape, sizeof y->out_shape);
			y->in_elems = y->out_elems = y->elems = trim__wl_prod4(b, y->in_shape);
			y->before_intra = (int)w->nintra;
		}
		b->last_fw[i] = (int)w->nintra - 1;
		if (rc == 0 && b->overflow)
			rc = trim__wl_overflow_error(net, i, b->overflow, b->N);
	}
	return rc;
}

/* The backward workloads (training), last layer first: BW (if its input
 * gradient is needed), then WG. */
static int analyse_backward(builder *b)
{
	const struct trim_network *net = b->net;
	struct trim_workloads *w = b->w;
	int n = net->nlayers;
	int rc = 0;

	for (int i = n - 1; i >= 0 && rc == 0; i--) {
		const trim__layer *L = &net->layers[i];
		int k = trim__wl_kind_of(L);
		trim__layer view;
		int64_t N0;
		const trim__layer *V = fold_tokens(b, L, &view, &N0);
		if (built_elsewhere(L)) {
			rc = trim__wl_backward_more(b, L, i);
		} else {
			if ((k >= 0 && k != TRIM_WL_ELTWISE) && b->needs_grad[i]) {
				rc = trim__wl_build_bw(b, V, i);
				if (rc == 0) {
					b->bw_index[i] = (int)w->nintra - 1;
					rc = trim__wl_add_preprocessing(b, V, i, (int)w->nintra - 1);
				}
			}
			if (rc == 0 && trim__wl_has_weights(L)) {
				rc = trim__wl_build_wg(b, V, i);
				if (rc == 0) {
					b->wg_index[i] = (int)w->nintra - 1;
					rc = trim__wl_add_preprocessing(b, V, i, (int)w->nintra - 1);
				}
			}
		}
		b->N = N0;
		if (rc == 0 && L->type == TRIM__L_BATCHNORM && b->needs_grad[i]) {
			trim__inter *y = trim__wl_new_inter(b, TRIM__OP_BATCHNORM, L, i, TRIM_PHASE_BW, "dY");
			if (!y)
				return TRIM_ENOMEM;
			trim__wl_shape4(y->in_shape, b->N, L->in[2], L->in[0], L->in[1]);
			memcpy(y->out_shape, y->in_shape, sizeof y->out_shape);
			y->in_elems = y->out_elems = y->elems = trim__wl_prod4(b, y->in_shape);
			y->before_intra = (int)w->nintra;
		}
		b->bw_done[i] = (int)w->nintra - 1;
		if (rc == 0 && b->overflow)
			rc = trim__wl_overflow_error(net, i, b->overflow, b->N);
	}
	return rc;
}

/* The caching of intermediate activations (training) and shortcuts (both). */
static int analyse_caches(builder *b)
{
	const struct trim_network *net = b->net;
	struct trim_workloads *w = b->w;
	int n = net->nlayers;
	int rc = 0;
	int training = w->mode == TRIM_MODE_TRAINING;

	for (int i = 0; i < n && rc == 0; i++) {
		const trim__layer *L = &net->layers[i];
		if (training) {
			int use = -1;
			if (trim__wl_has_weights(L))
				use = b->wg_index[i]; /* WG needs the layer's input */
			else if (L->type == TRIM__L_MAXPOOL && b->bw_index[i] >= 0)
				use = b->bw_index[i]; /* max-pool BW needs the switch positions */
			else if (L->type == TRIM__L_BATCHNORM && b->needs_grad[i])
				use = b->bw_done[i] + 1 < (int)w->nintra ? b->bw_done[i] + 1 : b->bw_done[i];
			if (built_elsewhere(L)) {
				use = -1;
				rc = trim__wl_cache_more(b, L, i);
			}
			if (use >= 0) {
				int p = L->inputs[0];
				rc = trim__wl_add_cache(b, TRIM__OP_CACHE, p, L, i, "activation", trim__wl_out_elems(b, p),
				               trim__wl_created_at(b, p), use);
			}
			/* ReLU: its derivative needs the sign of its output until the layer's
			 * backward work (BW / WG) has consumed the masked gradient */
			if (rc == 0 && L->activation != TRIM__ACT_LINEAR && b->needs_grad[i] + trim__wl_has_weights(L) &&
			    b->bw_done[i] >= 0) {
				int last = b->bw_index[i] > b->wg_index[i] ? b->bw_index[i] : b->wg_index[i];
				if (last < 0)
					last = b->bw_done[i];
				rc = trim__wl_add_cache(b, TRIM__OP_CACHE, i, L, i, "activation", trim__wl_out_elems(b, i),
				               trim__wl_created_at(b, i), last);
			}
		}
		if (rc == 0 && (L->type == TRIM__L_ADD || L->type == TRIM__L_CONCAT ||
		                L->type == TRIM__L_MATMUL)) {
			int at = L->type != TRIM__L_CONCAT ? b->fw_index[i]
			                                   : (b->last_fw[i] < 0 ? 0 : b->last_fw[i]);
			for (int k = 0; k < L->ninputs && rc == 0; k++) {
				int p = L->inputs[k];
				if (p == i - 1 && p != TRIM__NET_INPUT)
					continue; /* consumed as soon as it is made */
				rc = trim__wl_add_cache(b, TRIM__OP_SHORTCUT, p, L, i, "ofmap", trim__wl_out_elems(b, p),
				               trim__wl_created_at(b, p), at);
			}
		}
		if (rc == 0 && b->overflow)
			rc = trim__wl_overflow_error(net, i, b->overflow, b->N);
	}
	return rc;
}

int trim__wl_analyse(builder *b)
{
	mark_needs_grad(b);
	int rc = analyse_forward(b);
	if (rc == 0 && b->w->mode == TRIM_MODE_TRAINING)
		rc = analyse_backward(b);
	if (rc == 0)
		rc = analyse_caches(b);
	return rc;
}
