/*
 * Tensors of tokens whatever the order of their axes (docs/onnx.md,
 * "Attention"). Exporters split and merge attention heads in many ways:
 * Hugging Face-style code views [N, T, F] as [N, T, h, d] and permutes it to
 * [N, h, T, d]; torch.nn's MultiheadAttention puts the tokens first ([T, N,
 * F]), views [T, N h, d], transposes to [N h, T, d] and merges back through
 * [T N, F]. Each axis of such a tensor is written as a product of atoms (N
 * the batch, T the tokens, U the keys, F the features, h the heads, d a
 * head's features: translate_int.h), so a Reshape regroups the atoms and a
 * Transpose permutes the axes, both at no cost, and a MatMul of two of them
 * is told from its atoms: Q K^T (the shared axis d, the keys T of b) or A V
 * (the shared axis the keys U, the tokens T of b), with the heads and the
 * batch as its outer axes. The common orders keep their named layouts
 * (LY_NTF, LY_NTHD, LY_HEADS, LY_HEADS_T, LY_NF); the others are LY_TOK.
 */
#include <stdio.h>
#include <string.h>

#include "translate_int.h"

static int atom_index(char c)
{
	const char *p = strchr(TOK_ATOMS, c);
	return p && c ? (int)(p - TOK_ATOMS) : -1;
}

int trim__ox_tok_size(const tok_atoms *a, char atom)
{
	for (int k = 0; k < a->nax; k++)
		if (strchr(a->ax[k], atom))
			return (int)a->size[atom_index(atom)];
	return 0;
}

static void set_axes(tok_atoms *a, const char *const *axes, int n)
{
	a->nax = n;
	for (int k = 0; k < n; k++)
		snprintf(a->ax[k], sizeof a->ax[k], "%s", axes[k]);
}

int trim__ox_tok_of(const val *x, tok_atoms *a)
{
	const int64_t *d = x->d;
	memset(a, 0, sizeof *a);
	a->size[0] = d[0]; /* N */
	switch (x->layout) {
	case LY_TOK: *a = x->at; return 0;
	case LY_NF: set_axes(a, (const char *const[]){"N", "F"}, 2), a->size[3] = d[1]; return 0;
	case LY_NTF:
		set_axes(a, (const char *const[]){"N", "T", "F"}, 3), a->size[1] = d[1], a->size[3] = d[2];
		return 0;
	case LY_NTHD:
		set_axes(a, (const char *const[]){"N", "T", "h", "d"}, 4);
		a->size[1] = d[1], a->size[4] = d[2], a->size[5] = d[3];
		return 0;
	case LY_HEADS: /* the scores [N, h, T, U] read as heads too: U as d */
		set_axes(a, (const char *const[]){"N", "h", "T", "d"}, 4);
		a->size[4] = d[1], a->size[1] = d[2], a->size[5] = d[3];
		return 0;
	case LY_HEADS_T:
		set_axes(a, (const char *const[]){"N", "h", "d", "T"}, 4);
		a->size[4] = d[1], a->size[5] = d[2], a->size[1] = d[3];
		return 0;
	default: return -1;
	}
}

/* Merges "hd" into "F" and names the common orders. */
int trim__ox_tok_layout(tok_atoms *a)
{
	for (int k = 0; k < a->nax; k++) {
		char *hd = strstr(a->ax[k], "hd");
		if (hd && !trim__ox_tok_size(a, 'F')) {
			a->size[3] = a->size[4] * a->size[5];
			hd[0] = 'F';
			memmove(hd + 1, hd + 2, strlen(hd + 2) + 1);
			a->size[4] = a->size[5] = 0;
		}
	}
	static const struct { const char *axes; int layout; } named[] = {
		{"N|F", LY_NF}, {"N|T|F", LY_NTF}, {"N|T|h|d", LY_NTHD}, {"N|h|T|d", LY_HEADS},
		{"N|h|T|U", LY_HEADS}, {"N|h|d|T", LY_HEADS_T}};
	char all[80] = "";
	for (int k = 0; k < a->nax; k++) {
		strcat(all, k ? "|" : "");
		strcat(all, a->ax[k]);
	}
	for (size_t q = 0; q < sizeof named / sizeof *named; q++)
		if (!strcmp(all, named[q].axes))
			return named[q].layout;
	return LY_TOK;
}

void trim__ox_tok_lt_shape(const val *x, int64_t *s)
{
	const tok_atoms *a = &x->at;
	int map = a->map[0] && !a->win_form; /* windows of a map, as the map (windows.c) */
	int64_t f = 1;
	for (int k = 0; k < a->nax; k++)
		for (const char *c = a->ax[k]; *c; c++)
			if (*c != 'N' && *c != 'T' && !(map && *c == 'w'))
				f *= a->size[atom_index(*c)];
	int64_t rows = trim__ox_tok_size(a, 'T');
	s[0] = rows ? rows : 1, s[1] = 1, s[2] = f;
	if (map)
		s[0] = a->map[0], s[1] = a->map[1];
}

/* A view of x (no layer, no cost) with atoms a and ONNX dims d. */
static int tok_view(tr *t, int x, tok_atoms *a, const int64_t *d)
{
	int layout = trim__ox_tok_layout(a), vi = -1;
	val copy = t->v[x];
	copy.layout = layout;
	copy.nd = a->nax;
	memcpy(copy.d, d, (size_t)a->nax * sizeof *d);
	copy.at = *a;
	int rc = trim__ox_out_like(t, 0, copy.layer, &copy, &vi);
	if (rc == 0)
		t->v[vi].base = copy.base;
	return rc;
}

/* Regroups x's atoms (in order) into the dims d: whole atoms, or F split into h
 * and d where a dimension ends inside it. *done = 0 when they do not regroup. */
int trim__ox_tok_reshape(tr *t, int x, size_t n, const int64_t *d, int *done)
{
	tok_atoms in, out;
	*done = 0;
	if (trim__ox_tok_of(&t->v[x], &in) || n < 1 || n > 8)
		return 0;
	char seq[48];
	int64_t sz[48];
	int m = 0;
	for (int k = 0; k < in.nax; k++)
		for (const char *c = in.ax[k]; *c && m < 47; c++)
			seq[m] = *c, sz[m] = in.size[atom_index(*c)], m++;
	memset(&out, 0, sizeof out);
	memcpy(out.size, in.size, sizeof out.size);
	memcpy(out.map, in.map, sizeof out.map);
	out.win_form = in.win_form;
	out.nax = (int)n;
	int i = 0, split_f = 0;
	for (size_t k = 0; k < n; k++) {
		char *ax = out.ax[k];
		int64_t prod = 1;
		size_t len = 0;
		/* atoms of size 1 (a batch of 1) go with the next dimension */
		while (i < m && sz[i] == 1 && (d[k] == 1 || prod < d[k]) && len < 7)
			ax[len++] = seq[i++];
		while (prod < d[k] && i < m && len < 7) {
			if (d[k] % (prod * sz[i]) == 0) {
				prod *= sz[i];
				ax[len++] = seq[i++];
			} else if (seq[i] == 'F' && sz[i] % (d[k] / prod) == 0 && d[k] % prod == 0) {
				int64_t heads = d[k] / prod; /* F = h d splits here */
				ax[len++] = 'h';
				seq[i] = 'd', sz[i] /= heads;
				out.size[4] = heads, out.size[5] = sz[i];
				prod = d[k];
				split_f = 1;
			} else if (seq[i] == 'd' && split_f == 1 && sz[i] % (d[k] / prod) == 0 &&
			           d[k] % prod == 0) {
				/* F = S h d: the heads split off before are the stacked q, k, v */
				for (size_t q = 0; q < k; q++) {
					char *h = strchr(out.ax[q], 'h');
					if (h)
						*h = 'S';
				}
				int64_t heads = d[k] / prod;
				out.size[7] = out.size[4];
				ax[len++] = 'h';
				sz[i] /= heads;
				out.size[4] = heads, out.size[5] = sz[i];
				prod = d[k];
				split_f = 2;
			} else {
				return 0;
			}
		}
		if (prod != d[k])
			return 0;
		ax[len] = '\0';
	}
	for (; i < m && sz[i] == 1; i++) { /* trailing atoms of size 1 */
		size_t len = strlen(out.ax[n - 1]);
		if (len < 7)
			out.ax[n - 1][len] = seq[i], out.ax[n - 1][len + 1] = '\0';
	}
	if (i != m)
		return 0;
	*done = 1;
	return tok_view(t, x, &out, d);
}

int trim__ox_tok_transpose(tr *t, int x, const int64_t *p, size_t n, int *done)
{
	tok_atoms in, out;
	*done = 0;
	if (trim__ox_tok_of(&t->v[x], &in) || (int)n != in.nax)
		return 0;
	out = in;
	int64_t d[8];
	for (size_t k = 0; k < n; k++) {
		memcpy(out.ax[k], in.ax[p[k]], sizeof out.ax[k]);
		d[k] = t->v[x].d[p[k]];
	}
	*done = 1;
	return tok_view(t, x, &out, d);
}

/* The atoms of axis k with those of size 1 left out (the tokens aside): "NF" of a
 * batch of 1 is "F". */
void trim__ox_tok_axis(const tok_atoms *a, int k, char *out)
{
	size_t len = 0;
	for (const char *c = a->ax[k]; *c; c++)
		if (a->size[atom_index(*c)] != 1 || *c == 'T' || *c == 'U')
			out[len++] = *c;
	out[len] = '\0';
}

int trim__ox_tok_matmul(tr *t, int a, int b, int *done)
{
	tok_atoms A, B;
	*done = 0;
	if (trim__ox_tok_of(&t->v[a], &A) || trim__ox_tok_of(&t->v[b], &B) || A.nax < 3 || B.nax < 3)
		return 0;
	char rows[8], ka[8], kb[8], cols[8];
	trim__ox_tok_axis(&A, A.nax - 2, rows);
	trim__ox_tok_axis(&A, A.nax - 1, ka);
	trim__ox_tok_axis(&B, B.nax - 2, kb);
	trim__ox_tok_axis(&B, B.nax - 1, cols);
	int64_t heads = trim__ox_tok_size(&A, 'h'), batch = trim__ox_tok_size(&A, 'N');
	if (strchr(rows, 'N') && batch > 1 && (t->batch_rows = 1))
		return trim__ox_node_err(t, TRIM_ESHAPE, "the rows of this product are the batch (the "
		                         "graph input's first axis): a model whose input has the tokens "
		                         "first (torch.nn without batch_first) needs them second");
	int qk = !strcmp(rows, "T") && !strcmp(ka, "d") && !strcmp(kb, "d") && !strcmp(cols, "T");
	int av = !strcmp(rows, "T") && (!strcmp(ka, "U") || !strcmp(ka, "d")) && !strcmp(kb, "T") &&
	         !strcmp(cols, "d") && trim__ox_tok_size(&A, ka[0]) == trim__ox_tok_size(&B, 'T');
	if ((!qk && !av) || heads < 1 || heads != trim__ox_tok_size(&B, 'h'))
		return 0;
	/* the outer axes: the heads, the windows (Swin: a product per window) and the batch */
	int64_t windows = trim__ox_tok_size(&A, 'w');
	if (windows != trim__ox_tok_size(&B, 'w') || (windows && A.map[0] != B.map[0]))
		return 0;
	for (int k = 0; k < A.nax - 2; k++)
		for (const char *c = A.ax[k]; *c; c++)
			if (*c != 'N' && *c != 'h' && *c != 'w')
				return 0;
	int in[2] = {a, b}, li, vi, wa = -1, wb = -1, rc;
	if (windows && ((rc = trim__ox_win_layer(t, a, 1, &wa)) || (rc = trim__ox_win_layer(t, b, 1, &wb))))
		return rc;
	if ((rc = trim__ox_new_layer(t, "matmul", NODE_NAME(t->node), in, 2, &li)))
		return rc;
	if (windows) /* the operands in the window form: [T, 1, w h d] */
		t->l[li].in[0] = wa, t->l[li].in[1] = wb, heads *= windows;
	trim__ox_extra(t, li, ", heads: %lld, transpose_b: %s", (long long)heads, qk ? "true" : "false");
	tok_atoms out = A;
	out.win_form = windows > 0;
	int64_t d[8];
	memcpy(d, t->v[a].d, sizeof d);
	d[A.nax - 1] = t->v[b].d[B.nax - 1];
	snprintf(out.ax[A.nax - 1], sizeof out.ax[0], "%s", qk ? "U" : "d");
	if (qk)
		out.size[2] = trim__ox_tok_size(&B, 'T');
	else
		out.size[5] = trim__ox_tok_size(&B, 'd');
	val like = t->v[a];
	like.layout = trim__ox_tok_layout(&out);
	memcpy(like.d, d, sizeof d);
	like.at = out;
	*done = 1;
	return trim__ox_out_like(t, 0, li, &like, &vi);
}

int trim__ox_tok_features(tr *t, int oi, int layer, int x, int64_t units, int *vi)
{
	val like = t->v[x];
	like.d[like.nd - 1] = units;
	if (like.layout == LY_TOK) {
		char last[8];
		trim__ox_tok_axis(&like.at, like.at.nax - 1, last);
		if (strcmp(last, "F"))
			return trim__ox_node_err(t, TRIM_ESHAPE, "the features of these tokens are not "
			                         "their last axis");
		like.at.size[3] = units;
	}
	return trim__ox_out_like(t, oi, layer, &like, vi);
}

int trim__ox_tok_is_features(const val *x, int axis)
{
	tok_atoms a;
	char ax[8];
	if (trim__ox_tok_of(x, &a) || axis < 0 || axis >= a.nax)
		return 0;
	trim__ox_tok_axis(&a, axis, ax);
	return !strcmp(ax, "F");
}

/* Piece `index` of the S stacked projections of data (an axis holding just S:
 * q, k or v of a fused projection viewed as [.., S, h, d]) as output oi of the
 * node: a `split` of the projection's features, S pieces of h d, the map form
 * for windows (windows.c). keep_axis: the axis stays, of size 1 and no atom (a
 * Split, which a Squeeze follows); else it goes (a Gather). */
static int stacked_piece(tr *t, int data, int64_t index, int axis, int keep_axis, int oi)
{
	tok_atoms a;
	trim__ox_tok_of(&t->v[data], &a);
	int64_t S = trim__ox_tok_size(&a, 'S'), piece = a.size[4] * a.size[5];
	int in = -1, li = -1, vi = -1, rc;
	if ((rc = trim__ox_win_layer(t, data, 0, &in)))
		return rc;
	char name[80];
	snprintf(name, sizeof name, keep_axis ? "%s.%lld" : "%s", NODE_NAME(t->node), (long long)index);
	if ((rc = trim__ox_new_layer(t, "split", name, &data, 1, &li)))
		return rc;
	t->l[li].in[0] = in;
	trim__ox_extra(t, li, ", sizes: [");
	for (int64_t q = 0; q < S; q++)
		trim__ox_extra(t, li, "%s%lld", q ? ", " : "", (long long)piece);
	trim__ox_extra(t, li, "], index: %lld", (long long)index);
	val like = t->v[data];
	if (keep_axis) {
		a.ax[axis][0] = 0;
		like.d[axis] = 1;
	} else {
		for (int k = axis; k + 1 < a.nax; k++) {
			memcpy(a.ax[k], a.ax[k + 1], sizeof a.ax[k]);
			like.d[k] = like.d[k + 1];
		}
		a.nax--, like.nd--;
	}
	a.size[7] = 0;
	a.win_form = 0;
	like.layout = trim__ox_tok_layout(&a);
	like.at = a;
	return trim__ox_out_like(t, oi, li, &like, &vi);
}

/* The S of data's axis `axis` when it holds just S (2 or more), else 0. */
static int64_t stacked_axis(tr *t, int data, int64_t axis)
{
	tok_atoms a;
	char ax[8];
	if (trim__ox_tok_of(&t->v[data], &a) || axis < 0 || axis >= a.nax)
		return 0;
	trim__ox_tok_axis(&a, (int)axis, ax);
	int64_t S = trim__ox_tok_size(&a, 'S');
	return !strcmp(ax, "S") && S >= 2 && a.size[4] * a.size[5] >= 1 ? S : 0;
}

/* Gather of one entry of an axis holding just S: q, k or v (torchvision's
 * qkv[0], qkv[1], qkv[2]). */
int trim__ox_tok_gather(tr *t, int data, int64_t index, int64_t axis, int *done)
{
	*done = 0;
	int64_t S = stacked_axis(t, data, axis);
	if (!S)
		return 0;
	if (index < 0)
		index += S;
	if (index < 0 || index >= S)
		return trim__ox_node_err(t, TRIM_ESHAPE, "index out of the %lld stacked projections",
		                         (long long)S);
	*done = 1;
	return stacked_piece(t, data, index, (int)axis, 0, 0);
}

/* Split of an axis holding just S into its S entries: q, k and v, each keeping
 * the axis at size 1 for the Squeeze after it (timm's qkv.unbind(0)). ns == 0:
 * as many pieces as outputs. */
int trim__ox_tok_split(tr *t, int data, int64_t axis, const int64_t *sizes, size_t ns, int *done)
{
	*done = 0;
	int64_t S = stacked_axis(t, data, axis);
	if (!S || (int64_t)t->node->n_output != S || (ns && ns != (size_t)S))
		return 0;
	for (size_t k = 0; k < ns; k++)
		if (sizes[k] != 1)
			return 0;
	*done = 1;
	for (int64_t k = 0; k < S; k++) {
		int rc = stacked_piece(t, data, k, (int)axis, 1, (int)k);
		if (rc)
			return rc;
	}
	return 0;
}
