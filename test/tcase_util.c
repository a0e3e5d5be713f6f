#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tcase_util.h"

static void tfinish(trim__tensor *t)
{
	t->elems = t->present ? 1 : 0;
	t->relevant = 0;
	if (!t->present)
		return;
	for (int k = 0; k < t->ndims; k++) {
		t->elems *= t->extent[k];
		for (int j = 0; j < t->idx[k].nterms; j++)
			if (t->idx[k].coef[j])
				t->relevant |= 1u << t->idx[k].dim[j];
	}
}

static void ix(trim__tensor *t, int d1, int64_t c1, int d2, int64_t c2, int64_t extent)
{
	trim__iexpr *e = &t->idx[t->ndims];
	e->nterms = d2 < 0 ? 1 : 2;
	e->dim[0] = d1;
	e->coef[0] = c1;
	if (d2 >= 0) {
		e->dim[1] = d2;
		e->coef[1] = c2;
	}
	t->extent[t->ndims++] = extent;
}

static void named(trim__tensor *t, const char *name)
{
	snprintf(t->name, sizeof t->name, "%s", name);
	t->present = 1;
}

int tu_layer(trim__intra *x, int kind, int phase, int64_t n, int64_t cin, int64_t cout,
             int64_t groups, int64_t in_h, int64_t in_w, int64_t r, int64_t s, int64_t u,
             int64_t dil, int64_t pad)
{
	memset(x, 0, sizeof *x);
	snprintf(x->layer, sizeof x->layer, "t%d", kind);
	x->phase = phase;
	x->kind = kind;
	x->pre_index = -1;
	int pool = kind == TU_MAXPOOL || kind == TU_AVGPOOL;
	int64_t G, M, C;
	if (pool || kind == TU_DEPTHWISE) {
		G = cin;
		M = C = 1;
	} else {
		G = groups;
		M = cout / groups;
		C = cin / groups;
	}
	int64_t Hp = in_h + 2 * pad, Wp = in_w + 2 * pad;
	int64_t Eo = (Hp - dil * (r - 1) - 1) / u + 1, Fo = (Wp - dil * (s - 1) - 1) / u + 1;
	if (Hp < dil * (r - 1) + 1 || Wp < dil * (s - 1) + 1 || Eo < 1 || Fo < 1)
		return -1;
	int64_t *B = x->bound;
	for (int d = 0; d < TRIM_NDIMS; d++)
		B[d] = 1;
	B[TRIM_DIM_N] = n;
	B[TRIM_DIM_G] = G;
	B[TRIM_DIM_R] = r;
	B[TRIM_DIM_S] = s;
	x->stride[0] = x->stride[1] = u;
	x->dilation[0] = x->dilation[1] = dil;
	trim__tensor *t0 = &x->t[0], *t1 = &x->t[1], *t2 = &x->t[2];
	if (phase == TRIM_PHASE_BW) {
		B[TRIM_DIM_M] = C;
		B[TRIM_DIM_C] = M;
		B[TRIM_DIM_E] = in_h;
		B[TRIM_DIM_F] = in_w;
		x->stride[0] = x->stride[1] = 1;
		named(t0, "dY");
		ix(t0, TRIM_DIM_N, 1, -1, 0, n);
		ix(t0, TRIM_DIM_G, 1, -1, 0, G);
		if (!pool)
			ix(t0, TRIM_DIM_C, 1, -1, 0, M);
		ix(t0, TRIM_DIM_E, 1, TRIM_DIM_R, dil, in_h + dil * (r - 1));
		ix(t0, TRIM_DIM_F, 1, TRIM_DIM_S, dil, in_w + dil * (s - 1));
		t0->has_zeros = 1;
		int64_t lo_h = dil * (r - 1) - pad, lo_w = dil * (s - 1) - pad;
		t0->zaxis[0] = (trim__zaxis){lo_h, lo_h + u * (Eo - 1), u};
		t0->zaxis[1] = (trim__zaxis){lo_w, lo_w + u * (Fo - 1), u};
		if (!pool) {
			named(t1, "weight_t");
			ix(t1, TRIM_DIM_G, 1, -1, 0, G);
			ix(t1, TRIM_DIM_C, 1, -1, 0, M);
			ix(t1, TRIM_DIM_M, 1, -1, 0, C);
			ix(t1, TRIM_DIM_R, 1, -1, 0, r);
			ix(t1, TRIM_DIM_S, 1, -1, 0, s);
		} else if (kind == TU_MAXPOOL) {
			named(t1, "switches");
			ix(t1, TRIM_DIM_N, 1, -1, 0, n);
			ix(t1, TRIM_DIM_G, 1, -1, 0, G);
			ix(t1, TRIM_DIM_E, 1, -1, 0, in_h);
			ix(t1, TRIM_DIM_F, 1, -1, 0, in_w);
		}
		named(t2, "dX");
		ix(t2, TRIM_DIM_N, 1, -1, 0, n);
		ix(t2, TRIM_DIM_G, 1, -1, 0, G);
		if (!pool)
			ix(t2, TRIM_DIM_M, 1, -1, 0, C);
		ix(t2, TRIM_DIM_E, 1, -1, 0, in_h);
		ix(t2, TRIM_DIM_F, 1, -1, 0, in_w);
	} else {
		B[TRIM_DIM_M] = M;
		B[TRIM_DIM_C] = C;
		B[TRIM_DIM_E] = Eo;
		B[TRIM_DIM_F] = Fo;
		named(t0, "ifmap");
		ix(t0, TRIM_DIM_N, 1, -1, 0, n);
		ix(t0, TRIM_DIM_G, 1, -1, 0, G);
		if (!pool)
			ix(t0, TRIM_DIM_C, 1, -1, 0, C);
		ix(t0, TRIM_DIM_E, u, TRIM_DIM_R, dil, Hp);
		ix(t0, TRIM_DIM_F, u, TRIM_DIM_S, dil, Wp);
		if (pad) {
			t0->has_zeros = 1;
			t0->zaxis[0] = (trim__zaxis){pad, pad + in_h - 1, 1};
			t0->zaxis[1] = (trim__zaxis){pad, pad + in_w - 1, 1};
		}
		if (phase == TRIM_PHASE_FW) {
			if (!pool) {
				named(t1, "weight");
				ix(t1, TRIM_DIM_G, 1, -1, 0, G);
				ix(t1, TRIM_DIM_M, 1, -1, 0, M);
				ix(t1, TRIM_DIM_C, 1, -1, 0, C);
				ix(t1, TRIM_DIM_R, 1, -1, 0, r);
				ix(t1, TRIM_DIM_S, 1, -1, 0, s);
			}
			named(t2, "ofmap");
			ix(t2, TRIM_DIM_N, 1, -1, 0, n);
			ix(t2, TRIM_DIM_G, 1, -1, 0, G);
			if (!pool)
				ix(t2, TRIM_DIM_M, 1, -1, 0, M);
			ix(t2, TRIM_DIM_E, 1, -1, 0, Eo);
			ix(t2, TRIM_DIM_F, 1, -1, 0, Fo);
		} else {
			if (pool)
				return -1;
			named(t1, "dY");
			ix(t1, TRIM_DIM_N, 1, -1, 0, n);
			ix(t1, TRIM_DIM_G, 1, -1, 0, G);
			ix(t1, TRIM_DIM_M, 1, -1, 0, M);
			ix(t1, TRIM_DIM_E, 1, -1, 0, Eo);
			ix(t1, TRIM_DIM_F, 1, -1, 0, Fo);
			named(t2, "dW");
			ix(t2, TRIM_DIM_G, 1, -1, 0, G);
			ix(t2, TRIM_DIM_M, 1, -1, 0, M);
			ix(t2, TRIM_DIM_C, 1, -1, 0, C);
			ix(t2, TRIM_DIM_R, 1, -1, 0, r);
			ix(t2, TRIM_DIM_S, 1, -1, 0, s);
		}
	}
	x->macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		x->macs *= B[d];
	for (int k = 0; k < 3; k++)
		tfinish(&x->t[k]);
	return 0;
}

void tu_arch_init(struct trim_arch *a, const char *name)
{
	memset(a, 0, sizeof *a);
	TRIM__HANDLE_INIT(a, ARCH); /* the public API checks it (util/handle.h) */
	snprintf(a->name, sizeof a->name, "%s", name);
	a->word_bits = 16;
	a->clock_mhz = 200;
}

static trim__level *add(struct trim_arch *a, int type, const char *name)
{
	trim__level *L = &a->lv[a->nlevels++];
	memset(L, 0, sizeof *L);
	L->type = type;
	snprintf(L->name, sizeof L->name, "%s", name);
	return L;
}

trim__level *tu_storage(struct trim_arch *a, const char *name, int64_t cap_bytes, int word_bits)
{
	trim__level *L = add(a, TRIM__LVL_STORAGE, name);
	L->capacity_bytes = cap_bytes;
	L->word_bits = word_bits;
	L->keep[0] = L->keep[1] = L->keep[2] = 1;
	L->read_bw = L->write_bw = 0;
	L->mem_class = cap_bytes ? TRIM__MEM_SRAM : TRIM__MEM_DRAM;
	return L;
}

trim__level *tu_spatial(struct trim_arch *a, const char *name, int64_t fx, int64_t fy, int mc,
                        int red)
{
	trim__level *L = add(a, TRIM__LVL_SPATIAL, name);
	L->fanout_x = fx;
	L->fanout_y = fy;
	L->multicast = mc;
	L->reduction = red;
	return L;
}

trim__level *tu_compute(struct trim_arch *a, const char *name)
{
	trim__level *L = add(a, TRIM__LVL_COMPUTE, name);
	L->macs_per_cycle = 1;
	L->pipeline = 1;
	return L;
}

void tu_arch_finish(struct trim_arch *a)
{
	int64_t inst = 1;
	for (int l = 0; l < a->nlevels; l++) {
		a->lv[l].instances = inst;
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			inst *= a->lv[l].fanout_x * a->lv[l].fanout_y;
	}
	a->total_pes = inst;
}

uint64_t tu_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int64_t tu_range(uint64_t *s, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(tu_rand(s) % (uint64_t)(hi - lo + 1));
}

void tu_costs(const struct trim_arch *a, trim__level_cost *c)
{
	memset(c, 0, (size_t)a->nlevels * sizeof *c);
	for (int l = 0; l < a->nlevels; l++) {
		double scale = l == 0 ? 200 : 1 + 3.0 / (l + 1);
		c[l].read_pj = scale;
		c[l].write_pj = scale * 1.25;
		c[l].update_pj = scale * 1.5;
		c[l].leak_pj_per_cycle = l ? 0.01 * l : 0;
		c[l].hop_pj = 0.7;
		c[l].avg_hops = 2;
		c[l].mac_pj = 1;
		c[l].gated_mac_pj = 0.1;
	}
}

double tu_node_lb(const trim__mapspace *s, const trim__level_cost *c, int goal, int depth, int64_t zero_macs,
                  const trim__mapping *m, trim__mapping *node, stationary_workspace *sw)
{
	trim__eval ev;
	double lb;
	trim__mapspace_node_of(s, depth, m, node);
	trim__mapspace_node_lb(s, c, goal, depth, zero_macs, node, &ev, &lb, sw);
	return lb;
}

int tu_case_fc(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "small");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 24, 16);
	g->read_bw = g->write_bw = 2;
	tu_spatial(a, "NoC", 2, 2, 1, 0);
	tu_storage(a, "RF", 6, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	return tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0);
}

void tu_arch_rf(struct trim_arch *a, const char *name, int64_t nx, int64_t ny, int64_t rf_bytes)
{
	tu_arch_init(a, name);
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	tu_spatial(a, "NoC", nx, ny, 1, 1);
	tu_storage(a, "RF", rf_bytes, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

int tu_case_conv(struct trim_arch *a, trim__intra *w)
{
	tu_arch_rf(a, "tiny", 2, 1, 12);
	return tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 2, 1, 1, 3, 2, 2, 2, 1, 1, 0);
}

/* The shared small spaces as brute_vs_search builders. */
void case_fc(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_fc(a, w), 0);
}

void case_conv(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_conv(a, w), 0);
}

char *tu_capture(const char *args, int with_stderr, int *status)
{
	const char *cli = getenv("TRIM_CLI");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s %s", cli ? cli : "build/bin/trim", args,
	         with_stderr ? "2>&1" : "2>/dev/null");
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		abort();
	*status = -1;
	FILE *p = popen(cmd, "r");
	if (p) {
		n = fread(buf, 1, cap - 1, p);
		int st = pclose(p);
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	}
	buf[n] = 0;
	return buf;
}
