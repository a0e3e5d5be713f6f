/*
 * The task analyst: network -> intra-layer workloads (one generic loop nest
 * per layer and phase) and inter-layer workloads (preprocessing, caching).
 * docs/model.md, "Workloads", gives every phase's loop nest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity_int.h"
#include "network_int.h"
#include "util/handle.h"
#include "util/util.h"
#include "workload_int.h"
#include "workload_build_int.h"


static const char *const dim_names[TRIM_NDIMS] = {"N", "G", "M", "C", "E", "F", "R", "S"};
static const char *const phase_names[] = {"FW", "BW", "WG"};
static const char *const kind_names[] = {"conv",    "depthwise", "fc",     "maxpool",
                                         "avgpool", "eltwise",   "matmul", "upsample"};
static const char *const inter_names[] = {"pad", "upsample_pad", "transpose", "cache",
                                          "shortcut", "concat", "batchnorm", "layernorm",
                                          "softmax", "move", "lookup"};

const char *trim_dim_name(int d) { return d >= 0 && d < TRIM_NDIMS ? dim_names[d] : NULL; }
const char *trim_phase_name(int p) { return p >= 0 && p < 3 ? phase_names[p] : NULL; }
const char *trim_mode_name(int m)
{
	return m == TRIM_MODE_INFERENCE ? "inference" : m == TRIM_MODE_TRAINING ? "training" : NULL;
}
const char *trim_workload_kind_name(int k)
{
	return k >= 0 && k < (int)TRIM__ARRAY_LEN(kind_names) ? kind_names[k] : NULL;
}
const char *trim_inter_op_name(int op)
{
	return op >= 0 && op < (int)TRIM__ARRAY_LEN(inter_names) ? inter_names[op] : NULL;
}

/* ---- tensors ------------------------------------------------------------ */

void trim__tensor_finish(trim__tensor *t)
{
	t->elems = t->present ? 1 : 0;
	t->relevant = 0;
	if (!t->present)
		return;
	for (int k = 0; k < t->ndims; k++) {
		/* saturates: the task analyst reports an overflow before it matters */
		if (__builtin_mul_overflow(t->elems, t->extent[k], &t->elems))
			t->elems = INT64_MAX;
		for (int j = 0; j < t->idx[k].nterms; j++)
			if (t->idx[k].coef[j] != 0)
				t->relevant |= 1u << t->idx[k].dim[j];
	}
}

/* Append index expression `d` (coef 1), or `a*d1 + b*d2`. */
void trim__wl_ix1(trim__tensor *t, int d, int64_t extent)
{
	trim__iexpr *e = &t->idx[t->ndims];
	e->nterms = 1;
	e->dim[0] = d;
	e->coef[0] = 1;
	t->extent[t->ndims++] = extent;
}

void trim__wl_ix2(trim__tensor *t, int d1, int64_t c1, int d2, int64_t c2, int64_t extent)
{
	trim__iexpr *e = &t->idx[t->ndims];
	e->nterms = 2;
	e->dim[0] = d1;
	e->coef[0] = c1;
	e->dim[1] = d2;
	e->coef[1] = c2;
	t->extent[t->ndims++] = extent;
}

void trim__wl_tname(trim__tensor *t, const char *name)
{
	snprintf(t->name, sizeof t->name, "%s", name);
	t->present = 1;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Integers x in [a, b] with x = m (mod step), step >= 1. */
static int64_t count_congruent(int64_t a, int64_t b, int64_t m, int64_t step)
{
	if (a > b)
		return 0;
	int64_t k0 = -floor_div(m - a, step), k1 = floor_div(b - m, step);
	return k1 >= k0 ? k1 - k0 + 1 : 0;
}

/* Number of real positions p in [0, extent) of a zero axis (closed form). */
static int64_t axis_real(const trim__zaxis *z, int64_t extent)
{
	int64_t a = z->lo > 0 ? z->lo : 0, b = z->hi < extent - 1 ? z->hi : extent - 1;
	return count_congruent(a, b, z->lo, z->step);
}

/* Number of (e, r) pairs with p = ce*e + cr*r a real position: for each r, the
 * e in closed form (ce = 1: BW's zero-inserted dY; step 1: padding), so a
 * window of 2^16 rows over 2^31 outputs costs 2^16 steps, not 2^47. */
static int64_t axis_valid_pairs(const trim__zaxis *z, int64_t E, int64_t ce, int64_t R, int64_t cr)
{
	int64_t n = 0;
	for (int64_t r = 0; r < R; r++) {
		int64_t q = cr * r;
		if (ce == 1) {
			int64_t a = z->lo - q > 0 ? z->lo - q : 0;
			int64_t b = z->hi - q < E - 1 ? z->hi - q : E - 1;
			n += count_congruent(a, b, z->lo - q, z->step);
		} else if (z->step == 1 && ce > 1) {
			int64_t a = -floor_div(q - z->lo, ce), b = floor_div(z->hi - q, ce);
			if (a < 0)
				a = 0;
			if (b > E - 1)
				b = E - 1;
			n += b >= a ? b - a + 1 : 0;
		} else {
			for (int64_t e = 0; e < E; e++) {
				int64_t p = ce * e + q;
				if (p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0)
					n++;
			}
		}
	}
	return n;
}

int64_t trim__intra_zero_macs(const trim__intra *w)
{
	const trim__tensor *t = &w->t[0];
	if (!t->present || !t->has_zeros)
		return 0;
	int64_t nonzero = w->macs;
	for (int a = 0; a < 2; a++) {
		const trim__iexpr *ex = &t->idx[t->ndims - 2 + a];
		int64_t E = w->bound[ex->dim[0]], R = w->bound[ex->dim[1]];
		nonzero = nonzero / (E * R) *
		          axis_valid_pairs(&t->zaxis[a], E, ex->coef[0], R, ex->coef[1]);
	}
	return w->macs - nonzero;
}

/* ---- building intra workloads -------------------------------------------- */


/* Checked product of n counts. On overflow it records `what` (sticky, the
 * first one wins) and returns INT64_MAX; analyse() turns the record into an
 * error naming the layer (trim__wl_overflow_error). */
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
	trim__activity_zero_macs_cache(x); /* the analyst's count, once per workload */
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

/* Layers whose work workload_layers.c builds. */
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
	case TRIM__L_SPLIT: return 1;
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
		int64_t rh = axis_real(&dy->zaxis[0], eh), rw = axis_real(&dy->zaxis[1], ew);
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

static int analyse(builder *b)
{
	const struct trim_network *net = b->net;
	struct trim_workloads *w = b->w;
	int training = w->mode == TRIM_MODE_TRAINING;
	int n = net->nlayers;
	int rc = 0;

	/* which layers need the gradient w.r.t. their input: some trainable layer upstream */
	for (int i = 0; i < n; i++) {
		const trim__layer *L = &net->layers[i];
		for (int k = 0; k < L->ninputs; k++) {
			int j = L->inputs[k];
			if (j != TRIM__NET_INPUT && (trainable(&net->layers[j]) || b->needs_grad[j]))
				b->needs_grad[i] = 1;
		}
	}

	/* forward */
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
	if (rc)
		return rc;
	int nfw = (int)w->nintra;

	/* backward, last layer first: BW (if its input gradient is needed), then WG */
	if (training) {
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
	}
	if (rc)
		return rc;

	/* caching of intermediate activations (training) and shortcuts (both) */
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
	(void)nfw;
	return rc;
}

int trim_workloads_create(trim_workloads **out, const trim_network *net, int mode,
                          int64_t batch, int word_bits)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	if (!out || !net)
		return trim__error(TRIM_EINVAL, "trim_workloads_create: NULL argument");
	*out = NULL;
	if (mode != TRIM_MODE_DEFAULT && mode != TRIM_MODE_INFERENCE && mode != TRIM_MODE_TRAINING)
		return trim__error(TRIM_EINVAL, "trim_workloads_create: unknown mode %d", mode);
	if (batch < 0 || batch > (1 << 24))
		return trim__error(TRIM_ERANGE, "batch %lld out of range [1, %d]", (long long)batch,
		                   1 << 24);
	if (word_bits < 0 || word_bits > 64)
		return trim__error(TRIM_ERANGE, "word_bits %d out of range [1, 64]", word_bits);

	struct trim_workloads *w = trim__calloc(1, sizeof *w);
	builder b = {0};
	int n = net->nlayers, rc = TRIM_ENOMEM;
	if (!w)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(w, WORKLOADS);
	snprintf(w->network, sizeof w->network, "%s", net->name);
	memcpy(w->origin, net->digest, sizeof w->origin);
	w->mode = mode == TRIM_MODE_DEFAULT ? net->mode : mode;
	w->batch = batch ? batch : net->batch;
	w->word_bits = word_bits ? word_bits : net->word_bits;
	w->params = net->params;
	w->network_macs = net->macs;
	b.w = w;
	b.net = net;
	b.N = w->batch;
	int *ints = calloc((size_t)n * 7, sizeof *ints);
	if (!ints)
		goto out;
	if (net->nwarnings) {
		w->warnings = trim__calloc((size_t)net->nwarnings, sizeof *w->warnings);
		if (!w->warnings)
			goto out;
		for (int k = 0; k < net->nwarnings; k++) {
			if (!(w->warnings[k] = trim__strdup(net->warnings[k])))
				goto out;
			w->nwarnings++;
		}
	}
	b.fw_index = ints;
	b.last_fw = ints + n;
	b.bw_index = ints + 2 * n;
	b.wg_index = ints + 3 * n;
	b.bw_done = ints + 4 * n;
	b.needs_grad = ints + 5 * n;
	for (int i = 0; i < 5 * n; i++)
		ints[i] = -1;
	b.bw2_index = ints + 6 * n;
	for (int i = 6 * n; i < 7 * n; i++)
		ints[i] = -1;
	rc = analyse(&b);
	if (rc)
		goto out;

	/* live cached bytes over the intra sequence */
	w->cached = trim__calloc(w->nintra ? w->nintra : 1, sizeof *w->cached);
	if (!w->cached) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		if (y->op != TRIM__OP_CACHE && y->op != TRIM__OP_SHORTCUT)
			continue;
		int64_t bytes;
		int bad = __builtin_mul_overflow(y->elems, (int64_t)w->word_bits, &bytes);
		bytes = bytes / 8 + (bytes % 8 != 0);
		for (int i = y->created; !bad && i <= y->freed && i < (int)w->nintra; i++)
			bad = __builtin_add_overflow(w->cached[i], bytes, &w->cached[i]);
		if (bad) {
			rc = trim__wl_overflow_error(net, y->layer_index, "the cached bytes", w->batch);
			goto out;
		}
	}
	for (size_t i = 0; i < w->nintra; i++) {
		if (__builtin_add_overflow(w->total_macs, w->intra[i].macs, &w->total_macs) ||
		    __builtin_add_overflow(w->total_zero_macs, w->intra[i].zero_macs,
		                           &w->total_zero_macs)) {
			rc = trim__wl_overflow_error(net, w->intra[i].layer_index,
			                    "the total MACs of the network's workloads", w->batch);
			goto out;
		}
	}
	for (size_t i = 0; i < w->nintra; i++)
		if (w->cached[i] > w->peak_cached)
			w->peak_cached = w->cached[i];
	*out = w;
	w = NULL;
out:
	free(ints);
	trim_workloads_free(w);
	return rc;
}

void trim_workloads_free(trim_workloads *w)
{
	TRIM__HANDLE_CHECK_VOID(w, WORKLOADS);
	if (!w)
		return;
	for (int k = 0; k < w->nwarnings; k++)
		free(w->warnings[k]);
	free(w->warnings);
	free(w->intra);
	free(w->inter);
	free(w->cached);
	TRIM__HANDLE_POISON(w, WORKLOADS);
	free(w);
}

/* ---- accessors ----------------------------------------------------------- */

#define INTRA_OR(w, i, bad)                                                  \
	do {                                                                      \
		if (!(w) || (i) >= (w)->nintra) {                                     \
			trim__error(TRIM_EINVAL, "no intra workload %zu", (size_t)(i));  \
			return bad;                                                       \
		}                                                                     \
	} while (0)
#define INTER_OR(w, j, bad)                                                  \
	do {                                                                      \
		if (!(w) || (j) >= (w)->ninter) {                                     \
			trim__error(TRIM_EINVAL, "no inter workload %zu", (size_t)(j));  \
			return bad;                                                       \
		}                                                                     \
	} while (0)

int trim_workloads_mode(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->mode : TRIM_EINVAL;
}
int64_t trim_workloads_batch(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->batch : TRIM_EINVAL;
}
int trim_workloads_word_bits(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->word_bits : TRIM_EINVAL;
}
size_t trim_workloads_intra_count(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->nintra : 0;
}
size_t trim_workloads_inter_count(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->ninter : 0;
}

int trim__workloads_check_origin(const trim_workloads *w, const trim_network *net, const char *fn)
{
	if (!memcmp(w->origin, net->digest, sizeof w->origin))
		return 0;
	if (!strcmp(w->network, net->name))
		return trim__error(TRIM_EINVAL, "%s: the workloads were made from another description of "
		                   "network '%s' (its content differs): make them from this network "
		                   "with trim_workloads_create", fn, net->name);
	return trim__error(TRIM_EINVAL, "%s: the workloads were made from network '%s', not from "
	                   "'%s': make them from this network with trim_workloads_create", fn,
	                   w->network, net->name);
}

const trim__intra *trim__workloads_intra(const trim_workloads *w, size_t i)
{
	return w && i < w->nintra ? &w->intra[i] : NULL;
}

const trim__inter *trim__workloads_inter(const trim_workloads *w, size_t j)
{
	return w && j < w->ninter ? &w->inter[j] : NULL;
}

int trim_workloads_find(const trim_workloads *w, const char *layer, int phase, size_t *index)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !layer || !index)
		return trim__error(TRIM_EINVAL, "trim_workloads_find: NULL argument");
	for (size_t i = 0; i < w->nintra; i++) {
		if (!strcmp(w->intra[i].layer, layer) && w->intra[i].phase == phase) {
			*index = i;
			return 0;
		}
	}
	return trim__error(TRIM_ENOTFOUND, "no %s workload for layer '%s'%s",
	                   trim_phase_name(phase) ? trim_phase_name(phase) : "?", layer,
	                   w->mode == TRIM_MODE_INFERENCE && phase != TRIM_PHASE_FW
	                       ? " (inference has FW only)"
	                       : "");
}

const char *trim_workloads_intra_layer(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTRA_OR(w, i, NULL);
	return w->intra[i].layer;
}
int trim_workloads_intra_phase(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].phase;
}
int trim_workloads_intra_kind(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].kind;
}
int trim_workloads_intra_bounds(const trim_workloads *w, size_t i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (!out || n < TRIM_NDIMS)
		return trim__error(TRIM_EINVAL, "bounds need room for %d values", TRIM_NDIMS);
	memcpy(out, w->intra[i].bound, TRIM_NDIMS * sizeof *out);
	return 0;
}
int trim_workloads_intra_strides(const trim_workloads *w, size_t i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (!out || n < 4)
		return trim__error(TRIM_EINVAL, "strides need room for 4 values");
	out[0] = w->intra[i].stride[0];
	out[1] = w->intra[i].stride[1];
	out[2] = w->intra[i].dilation[0];
	out[3] = w->intra[i].dilation[1];
	return 0;
}
int64_t trim_workloads_intra_macs(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].macs;
}
int64_t trim_workloads_intra_zero_macs(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].zero_macs;
}
const char *trim_workloads_tensor_name(const trim_workloads *w, size_t i, int slot)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTRA_OR(w, i, NULL);
	if (slot < 0 || slot > 2 || !w->intra[i].t[slot].present)
		return NULL;
	return w->intra[i].t[slot].name;
}
int64_t trim_workloads_tensor_elems(const trim_workloads *w, size_t i, int slot)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (slot < 0 || slot > 2 || !w->intra[i].t[slot].present)
		return -1;
	return w->intra[i].t[slot].elems;
}
int trim_workloads_inter_op(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	return w->inter[j].op;
}
const char *trim_workloads_inter_layer(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTER_OR(w, j, NULL);
	return w->inter[j].layer;
}
int64_t trim_workloads_inter_zeros(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	return w->inter[j].zeros;
}
int64_t trim_workloads_inter_bytes(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	const trim__inter *y = &w->inter[j];
	if (y->op != TRIM__OP_CACHE && y->op != TRIM__OP_SHORTCUT)
		return 0;
	return y->elems / 8 * w->word_bits + (y->elems % 8 * w->word_bits + 7) / 8;
}
int trim_workloads_inter_lifetime(const trim_workloads *w, size_t j, int64_t *created,
                                  int64_t *freed)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	if (!created || !freed)
		return trim__error(TRIM_EINVAL, "NULL output");
	*created = w->inter[j].created;
	*freed = w->inter[j].freed;
	return 0;
}
int trim_workloads_cached_bytes(const trim_workloads *w, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !out || n < w->nintra)
		return trim__error(TRIM_EINVAL, "cached bytes need room for %zu values",
		                   w ? w->nintra : 0);
	memcpy(out, w->cached, w->nintra * sizeof *out);
	return 0;
}
int64_t trim_workloads_peak_cached_bytes(const trim_workloads *w)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	return w ? w->peak_cached : TRIM_EINVAL;
}
int64_t trim_workloads_total_macs(const trim_workloads *w)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	return w ? w->total_macs : TRIM_EINVAL;
}

/* ---- reports --------------------------------------------------------------- */

static void json_shape(trim__sb *sb, const int64_t *s)
{
	trim__sb_printf(sb, "[%lld, %lld, %lld, %lld]", (long long)s[0], (long long)s[1],
	                (long long)s[2], (long long)s[3]);
}

static int64_t total_zero_macs(const trim_workloads *w) { return w->total_zero_macs; }

static void report_json(const trim_workloads *w, trim__sb *sb)
{
	trim__sb_puts(sb, "{\n  \"network\": ");
	trim__sb_json_str(sb, w->network);
	trim__sb_printf(sb, ",\n  \"mode\": \"%s\",\n  \"batch\": %lld,\n  \"word_bits\": %d,\n",
	                trim_mode_name(w->mode), (long long)w->batch, w->word_bits);
	trim__sb_puts(sb, "  \"intra\": [");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"layer\": ", i ? "," : "", i);
		trim__sb_json_str(sb, x->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"kind\": \"%s\", \"bounds\": {",
		                phase_names[x->phase], kind_names[x->kind]);
		for (int d = 0; d < TRIM_NDIMS; d++)
			trim__sb_printf(sb, "%s\"%s\": %lld", d ? ", " : "", dim_names[d],
			                (long long)x->bound[d]);
		trim__sb_printf(sb,
		                "}, \"strides\": [%lld, %lld], \"dilation\": [%lld, %lld], \"macs\": "
		                "%lld, \"zero_macs\": %lld, \"tensors\": [",
		                (long long)x->stride[0], (long long)x->stride[1],
		                (long long)x->dilation[0], (long long)x->dilation[1],
		                (long long)x->macs, (long long)x->zero_macs);
		int first = 1;
		for (int k = 0; k < 3; k++) {
			if (!x->t[k].present)
				continue;
			trim__sb_printf(sb, "%s{\"slot\": %d, \"name\": ", first ? "" : ", ", k);
			trim__sb_json_str(sb, x->t[k].name);
			trim__sb_printf(sb, ", \"elems\": %lld}", (long long)x->t[k].elems);
			first = 0;
		}
		trim__sb_printf(sb, "], \"preprocessing\": %d, \"cached_bytes\": %lld}", x->pre_index,
		                (long long)w->cached[i]);
	}
	trim__sb_puts(sb, "\n  ],\n  \"inter\": [");
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"op\": \"%s\", \"layer\": ", j ? "," : "",
		                j, inter_names[y->op]);
		trim__sb_json_str(sb, y->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"tensor\": ", phase_names[y->phase]);
		trim__sb_json_str(sb, y->tensor);
		if (y->op == TRIM__OP_CACHE || y->op == TRIM__OP_SHORTCUT) {
			trim__sb_printf(sb, ", \"elems\": %lld, \"bytes\": %lld, \"created\": %d, \"freed\": %d}",
			                (long long)y->elems, (long long)trim_workloads_inter_bytes(w, j),
			                y->created, y->freed);
		} else {
			trim__sb_puts(sb, ", \"in_shape\": ");
			json_shape(sb, y->in_shape);
			trim__sb_puts(sb, ", \"out_shape\": ");
			json_shape(sb, y->out_shape);
			trim__sb_printf(sb, ", \"zeros\": %lld, \"before_intra\": %d}", (long long)y->zeros,
			                y->before_intra);
		}
	}
	trim__sb_printf(sb,
	                "\n  ],\n  \"totals\": {\"macs\": %lld, \"zero_macs\": %lld, "
	                "\"network_macs\": %lld, \"params\": %lld, \"intra_count\": %zu, "
	                "\"inter_count\": %zu, \"peak_cached_bytes\": %lld}\n}\n",
	                (long long)trim_workloads_total_macs(w), (long long)total_zero_macs(w),
	                (long long)w->network_macs, (long long)w->params, w->nintra, w->ninter,
	                (long long)w->peak_cached);
	if (w->nwarnings) { /* reopen the object: the warnings of the network */
		sb->len -= 3; /* "}\n" of the object and the newline */
		trim__sb_puts(sb, ",\n  \"warnings\": [");
		for (int k = 0; k < w->nwarnings; k++) {
			trim__sb_puts(sb, k ? ", " : "");
			trim__sb_json_str(sb, w->warnings[k]);
		}
		trim__sb_puts(sb, "]\n}\n");
	}
}

static void report_csv(const trim_workloads *w, trim__sb *sb)
{
	trim__sb_puts(sb, "kind,index,layer,phase,op,N,G,M,C,E,F,R,S,U,V,macs,zero_macs,zeros,"
	                  "bytes,created,freed,cached_bytes\n");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		trim__sb_printf(sb, "intra,%zu,", i);
		trim__sb_csv_str(sb, x->layer);
		trim__sb_printf(sb, ",%s,%s", phase_names[x->phase], kind_names[x->kind]);
		for (int d = 0; d < TRIM_NDIMS; d++)
			trim__sb_printf(sb, ",%lld", (long long)x->bound[d]);
		trim__sb_printf(sb, ",%lld,%lld,%lld,%lld,,,,,%lld\n", (long long)x->stride[0],
		                (long long)x->stride[1], (long long)x->macs, (long long)x->zero_macs,
		                (long long)w->cached[i]);
	}
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "inter,%zu,", j);
		trim__sb_csv_str(sb, y->layer);
		trim__sb_printf(sb, ",%s,%s,,,,,,,,,,,,,%lld,%lld,%d,%d,\n", phase_names[y->phase],
		                inter_names[y->op], (long long)y->zeros,
		                (long long)trim_workloads_inter_bytes(w, j), y->created, y->freed);
	}
}

static void report_table(const trim_workloads *w, trim__sb *sb)
{
	trim__sb_printf(sb, "network %s, %s, batch %lld, %d-bit words\n\n", w->network,
	                trim_mode_name(w->mode), (long long)w->batch, w->word_bits);
	int lw = 5, tw = 6; /* columns as wide as the longest layer and tensor names */
	for (size_t i = 0; i < w->nintra; i++) {
		size_t l = strlen(w->intra[i].layer);
		lw = l > (size_t)lw && l < 256 ? (int)l : lw;
	}
	for (size_t j = 0; j < w->ninter; j++) {
		size_t l = strlen(w->inter[j].layer), t = strlen(w->inter[j].tensor);
		lw = l > (size_t)lw && l < 256 ? (int)l : lw;
		tw = t > (size_t)tw && t < 256 ? (int)t : tw;
	}
	trim__sb_printf(sb, "%-4s %-*s %-5s %-9s %6s %5s %5s %5s %5s %5s %3s %3s %2s %16s %14s %12s\n",
	                "#", lw, "layer", "phase", "kind", "N", "G", "M", "C", "E", "F", "R", "S", "U",
	                "MACs", "zero MACs", "cached B");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		const int64_t *B = x->bound;
		trim__sb_printf(sb,
		                "%-4zu %-*s %-5s %-9s %6lld %5lld %5lld %5lld %5lld %5lld %3lld %3lld "
		                "%2lld %16lld %14lld %12lld\n",
		                i, lw, x->layer, phase_names[x->phase], kind_names[x->kind], (long long)B[0],
		                (long long)B[1], (long long)B[2], (long long)B[3], (long long)B[4],
		                (long long)B[5], (long long)B[6], (long long)B[7], (long long)x->stride[0],
		                (long long)x->macs, (long long)x->zero_macs, (long long)w->cached[i]);
	}
	trim__sb_printf(sb, "\n%-4s %-12s %-*s %-5s %-*s %14s %12s %s\n", "#", "op", lw, "layer", "phase",
	                tw, "tensor", "zeros", "bytes", "lifetime / feeds");
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "%-4zu %-12s %-*s %-5s %-*s %14lld %12lld ", j,
		                inter_names[y->op], lw, y->layer, phase_names[y->phase], tw, y->tensor,
		                (long long)y->zeros, (long long)trim_workloads_inter_bytes(w, j));
		if (y->op == TRIM__OP_CACHE || y->op == TRIM__OP_SHORTCUT)
			trim__sb_printf(sb, "[%d, %d]\n", y->created, y->freed);
		else
			trim__sb_printf(sb, "-> #%d\n", y->before_intra);
	}
	trim__sb_printf(sb,
	                "\ntotals: %zu intra, %zu inter workloads; %lld MACs (%lld with a "
	                "predictable zero operand); network: %lld MACs/sample, %lld parameters; "
	                "peak cached %lld bytes\n",
	                w->nintra, w->ninter, (long long)trim_workloads_total_macs(w),
	                (long long)total_zero_macs(w), (long long)w->network_macs,
	                (long long)w->params, (long long)w->peak_cached);
	for (int k = 0; k < w->nwarnings; k++)
		trim__sb_printf(sb, "warning: %s\n", w->warnings[k]);
}

int trim_workloads_report(const trim_workloads *w, int format, char **out)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !out)
		return trim__error(TRIM_EINVAL, "trim_workloads_report: NULL argument");
	*out = NULL;
	trim__sb sb;
	trim__sb_init(&sb);
	switch (format) {
	case TRIM_FORMAT_JSON: report_json(w, &sb); break;
	case TRIM_FORMAT_CSV: report_csv(w, &sb); break;
	case TRIM_FORMAT_TABLE: report_table(w, &sb); break;
	default:
		return trim__error(TRIM_EINVAL, "trim_workloads_report: unsupported format %d", format);
	}
	return trim__sb_take(&sb, out);
}
