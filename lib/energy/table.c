/* An energy table's data (lib/energy/energy_local.h): its lifetime, the
 * SRAM and register-file grids with their log-log interpolation (GSL), and
 * the named components (Accelergy's, or a libtrim table's `components`). */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_interp.h>
#include <gsl/gsl_interp2d.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy_local.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

/* ---- names shared by the files (energy_local.h) --------------------------- */
const char *const trim__energy_q_keys[NQ] = {"read_pj", "write_pj", "update_pj",
                                             "leak_uw", "area_um2"};
const char *const trim__energy_dram_kinds[] = {"ddr3", "lpddr4", "hbm2", NULL};
const char *const trim__energy_datatypes[] = {"int8", "int16", "fp16", "fp32", NULL};

static int gsl_fail(int status, const char *what)
{
	return trim__error(TRIM_ENUMERIC, "GSL %s failed: %s", what, gsl_strerror(status));
}

static void grid_free(grid *g)
{
	for (int q = 0; q < NQ; q++) {
		free(g->val[q]);
		free(g->lval[q]);
		free(g->lcol[q]);
		if (g->i2[q])
			gsl_interp2d_free(g->i2[q]);
		if (g->i1[q])
			gsl_interp_free(g->i1[q]);
	}
	memset(g, 0, sizeof *g);
}

TRIM_API void trim_energy_free(trim_energy *t)
{
	TRIM__HANDLE_CHECK_VOID(t, ENERGY);
	if (!t)
		return;
	grid_free(&t->g[0]);
	grid_free(&t->g[1]);
	free(t->comps);
	free(t->file);
	TRIM__HANDLE_POISON(t, ENERGY);
	free(t);
}

/* Build the GSL interpolators of quantity q (values already checked > 0). */
int trim__energy_grid_build(grid *g, int q)
{
	int status;
	if (g->nw == 1) {
		g->lcol[q] = trim__calloc(g->nc, sizeof(double));
		g->i1[q] = gsl_interp_alloc(gsl_interp_linear, g->nc);
		if (!g->lcol[q] || !g->i1[q])
			return trim__error(TRIM_ENOMEM, "out of memory");
		for (size_t c = 0; c < g->nc; c++)
			g->lcol[q][c] = log(g->val[q][c]);
		status = gsl_interp_init(g->i1[q], g->lcap, g->lcol[q], g->nc);
		return status ? gsl_fail(status, "gsl_interp_init") : 0;
	}
	g->lval[q] = trim__calloc(g->nc * g->nw, sizeof(double));
	g->i2[q] = gsl_interp2d_alloc(gsl_interp2d_bilinear, g->nc, g->nw);
	if (!g->lval[q] || !g->i2[q])
		return trim__error(TRIM_ENOMEM, "out of memory");
	for (size_t c = 0; c < g->nc; c++)
		for (size_t w = 0; w < g->nw; w++)
			gsl_interp2d_set(g->i2[q], g->lval[q], c, w, log(g->val[q][c * g->nw + w]));
	status = gsl_interp2d_init(g->i2[q], g->lcap, g->lbits, g->lval[q], g->nc, g->nw);
	return status ? gsl_fail(status, "gsl_interp2d_init") : 0;
}

static void fmt_bytes(char *buf, size_t n, double b)
{
	if (b >= 1048576 && fmod(b, 1048576) == 0)
		snprintf(buf, n, "%g MB", b / 1048576);
	else if (b >= 1024 && fmod(b, 1024) == 0)
		snprintf(buf, n, "%g KB", b / 1024);
	else
		snprintf(buf, n, "%g B", b);
}

const char *trim__energy_grid_names[2] = {"sram", "regfile"};

/* Interpolated value of quantity q at (cap, bits). */
int trim__energy_grid_eval(const trim_energy *t, int gi, int q, double cap, double bits,
                           int flags, double *out, int *nclamped)
{
	const grid *g = &t->g[gi];
	if (!g->present || !g->val[q])
		return trim__error(TRIM_ENOTFOUND, "%s: table has no %s for %s", t->file,
		                   trim__energy_q_keys[q], trim__energy_grid_names[gi]);
	if (!(cap > 0) || !(bits > 0))
		return trim__error(TRIM_ERANGE, "%s: %s needs a positive capacity and word width "
		                   "(got %g B, %g bits)", t->file, trim__energy_grid_names[gi], cap, bits);
	int clamp = (flags & TRIM_ENERGY_CLAMP) || t->clamp;
	int nc = 0;
	double c = cap, w = bits;
	if (c < g->cap[0] || c > g->cap[g->nc - 1]) {
		if (!clamp) {
			char a[32], lo[32], hi[32];
			fmt_bytes(a, sizeof a, cap);
			fmt_bytes(lo, sizeof lo, g->cap[0]);
			fmt_bytes(hi, sizeof hi, g->cap[g->nc - 1]);
			return trim__error(TRIM_ERANGE,
			                   "%s: %s capacity %s is outside the table's range [%s, %s]; "
			                   "no extrapolation (use a larger table, or out_of_range: clamp)",
			                   t->file, trim__energy_grid_names[gi], a, lo, hi);
		}
		c = c < g->cap[0] ? g->cap[0] : g->cap[g->nc - 1];
		nc++;
	}
	if (w < g->bits[0] || w > g->bits[g->nw - 1]) {
		if (!clamp)
			return trim__error(TRIM_ERANGE,
			                   "%s: %s word width %g bits is outside the table's range "
			                   "[%g, %g]; no extrapolation (or out_of_range: clamp)",
			                   t->file, trim__energy_grid_names[gi], bits, g->bits[0], g->bits[g->nw - 1]);
		w = w < g->bits[0] ? g->bits[0] : g->bits[g->nw - 1];
		nc++;
	}
	if (nclamped)
		*nclamped = nc;
	/* exact at the table's points */
	for (size_t i = 0; i < g->nc; i++) {
		if (g->cap[i] != c)
			continue;
		for (size_t j = 0; j < g->nw; j++) {
			if (g->bits[j] == w) {
				*out = g->val[q][i * g->nw + j];
				return 0;
			}
		}
	}
	double z = 0;
	int status;
	if (g->nw == 1)
		status = gsl_interp_eval_e(g->i1[q], g->lcap, g->lcol[q], log(c), NULL, &z);
	else
		status = gsl_interp2d_eval_e(g->i2[q], g->lcap, g->lbits, g->lval[q], log(c), log(w),
		                             NULL, NULL, &z);
	if (status)
		return gsl_fail(status, "interpolation");
	*out = exp(z);
	return 0;
}

/* Strip Accelergy "[a..b]" ranges from a hierarchical name; short = last segment. */
static void comp_names(component *k, const char *full)
{
	size_t o = 0;
	int depth = 0;
	for (const char *p = full; *p && o + 1 < sizeof k->name; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth > 0)
			depth--;
		else if (!depth)
			k->name[o++] = *p;
	}
	k->name[o] = '\0';
	const char *dot = strrchr(k->name, '.');
	snprintf(k->shortname, sizeof k->shortname, "%s", dot ? dot + 1 : k->name);
}

component *trim__energy_comp_get(trim_energy *t, const char *full)
{
	component tmp;
	memset(&tmp, 0, sizeof tmp);
	comp_names(&tmp, full);
	for (size_t i = 0; i < t->ncomps; i++)
		if (!strcmp(t->comps[i].name, tmp.name))
			return &t->comps[i];
	component *n = trim__realloc_array(t->comps, t->ncomps + 1, sizeof *n);
	if (!n)
		return NULL;
	t->comps = n;
	n[t->ncomps] = tmp;
	return &n[t->ncomps++];
}

const component *trim__energy_comp_find(const trim_energy *t, const char *name)
{
	for (size_t i = 0; i < t->ncomps; i++)
		if (!strcmp(t->comps[i].name, name))
			return &t->comps[i];
	for (size_t i = 0; i < t->ncomps; i++)
		if (!strcmp(t->comps[i].shortname, name))
			return &t->comps[i];
	return NULL;
}

/* Record an action; several argument variants keep the largest energy. */
int trim__energy_comp_action(trim__yctx *c, const trim__ynode *at, component *k,
                             const char *act, double pj)
{
	for (size_t i = 0; i < k->nact; i++) {
		if (!strcmp(k->act[i], act)) {
			if (pj > k->pj[i])
				k->pj[i] = pj;
			return 0;
		}
	}
	if (k->nact >= MAX_ACT || strlen(act) >= sizeof k->act[0])
		return trim__yerr(c, at, TRIM_ERANGE, "too many actions or action name too long");
	snprintf(k->act[k->nact], sizeof k->act[0], "%s", act);
	k->pj[k->nact++] = pj;
	return 0;
}

int trim__energy_kind_index(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int trim__energy_comp_act(const component *k, const char *act, double *pj)
{
	for (size_t i = 0; i < k->nact; i++) {
		if (!strcmp(k->act[i], act)) {
			*pj = k->pj[i];
			return 0;
		}
	}
	return 1;
}
