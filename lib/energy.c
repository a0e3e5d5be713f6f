/* Energy and area tables (docs/energy.md): libtrim tables, Accelergy ERT/ART,
 * log-log interpolation with GSL, and the per-level costs of an architecture. */
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_interp.h>
#include <gsl/gsl_interp2d.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch_int.h"
#include "datadir_int.h"
#include "energy_int.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"


/* ---- data ------------------------------------------------------------------ */
enum { Q_READ, Q_WRITE, Q_UPDATE, Q_LEAK, Q_AREA, NQ };
static const char *const q_keys[NQ] = {"read_pj", "write_pj", "update_pj", "leak_uw",
                                       "area_um2"};
static const char *const q_actions[NQ + 1] = {"read", "write", "update", "leak", "area", NULL};

#define MAX_GRID 64
typedef struct {
	int present;
	size_t nc, nw;
	double cap[MAX_GRID], bits[MAX_GRID];     /* bytes, bits (increasing) */
	double lcap[MAX_GRID], lbits[MAX_GRID];   /* their logs */
	double *val[NQ];                          /* nc*nw values, [c * nw + w]; NULL if absent */
	double *lval[NQ];                         /* logs, laid out for gsl_interp2d (see mk) */
	gsl_interp2d *i2[NQ];
	gsl_interp *i1[NQ];
	double *lcol[NQ];                         /* nw == 1: log values along capacity */
} grid;

#define MAX_ACT 16
typedef struct {
	char name[96];  /* full name, Accelergy "[a..b]" ranges removed */
	char shortname[64];
	size_t nact;
	char act[MAX_ACT][32];
	double pj[MAX_ACT];
	double leak_uw;
	int has_leak;
	double area_um2;
	int has_area;
} component;

static const char *const dram_kinds[] = {"ddr3", "lpddr4", "hbm2", NULL};
static const char *const datatypes[] = {"int8", "int16", "fp16", "fp32", NULL};
static const char *const res_keys[] = {"dsp", "bram36", "lut", "ff", NULL};

struct trim_energy {
	uint32_t tag; /* TRIM__H_ENERGY (util/handle.h): first, checked by every entry point */
	char *file;
	char name[64];
	int fpga;
	int clamp;
	grid g[2]; /* 0 sram, 1 regfile */
	int has_dram[3];
	double dram_pj_bit[3];
	struct {
		int has;
		double mac, gated, leak_uw, area_um2;
	} mac[4];
	struct {
		int has;
		double hop_pj_bit, wire_pj_bit_mm, default_hop_mm, area_um2_bit_pe;
	} noc;
	struct {
		int has;
		double pj, area_um2;
	} unit[2];
	component *comps;
	size_t ncomps;
	/* FPGA */
	char device[32];
	double avail[4], static_mw;
	double per_mac[4][4]; /* datatype x resource */
	int has_per_mac[4];
	double per_pe[4], noc_pe_bit[4], reg_bit[4], fixed[4];
};

/* ---- helpers ------------------------------------------------------------- */

#define TRY(call)                                                                        \
	do {                                                                                 \
		int rc_ = (call);                                                                \
		if (rc_ < 0) {                                                                   \
			rc = rc_;                                                                    \
			goto out;                                                                    \
		}                                                                                \
	} while (0)

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
static int grid_build(grid *g, int q)
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

static const char *grid_names[2] = {"sram", "regfile"};

/* Interpolated value of quantity q at (cap, bits). */
static int grid_eval(const trim_energy *t, int gi, int q, double cap, double bits, int flags,
                     double *out, int *nclamped)
{
	const grid *g = &t->g[gi];
	if (!g->present || !g->val[q])
		return trim__error(TRIM_ENOTFOUND, "%s: table has no %s for %s", t->file,
		                   q_keys[q], grid_names[gi]);
	if (!(cap > 0) || !(bits > 0))
		return trim__error(TRIM_ERANGE, "%s: %s needs a positive capacity and word width "
		                   "(got %g B, %g bits)", t->file, grid_names[gi], cap, bits);
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
			                   t->file, grid_names[gi], a, lo, hi);
		}
		c = c < g->cap[0] ? g->cap[0] : g->cap[g->nc - 1];
		nc++;
	}
	if (w < g->bits[0] || w > g->bits[g->nw - 1]) {
		if (!clamp)
			return trim__error(TRIM_ERANGE,
			                   "%s: %s word width %g bits is outside the table's range "
			                   "[%g, %g]; no extrapolation (or out_of_range: clamp)",
			                   t->file, grid_names[gi], bits, g->bits[0], g->bits[g->nw - 1]);
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

/* ---- loading: libtrim schema ------------------------------------------------ */

static int read_grid(trim__yctx *c, const trim__ynode *root, int gi, grid *g)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, grid_names[gi], 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, grid_names[gi]);
	static const char *const keys[] = {"word_bits", "points", "description", NULL};
	TRY(trim__ymap_check(c, m, keys));
	const trim__ynode *wb = NULL, *pts = NULL;
	TRY(trim__yget_node(c, m, "word_bits", 1, TRIM__Y_SEQ, &wb));
	TRY(trim__yget_node(c, m, "points", 1, TRIM__Y_SEQ, &pts));
	trim__yctx_key(c, "word_bits");
	if (wb->n < 1 || wb->n > MAX_GRID) {
		rc = trim__yerr(c, wb, TRIM_ESCHEMA, "1 to %d word widths", MAX_GRID);
		goto out_pop;
	}
	g->nw = wb->n;
	for (size_t j = 0; j < wb->n; j++) {
		int64_t v;
		trim__yctx_index(c, j);
		rc = trim__yint(c, wb->items[j], 1, 4096, &v);
		if (rc == 0 && j > 0 && v <= g->bits[j - 1])
			rc = trim__yerr(c, wb->items[j], TRIM_ESCHEMA, "word widths must increase");
		trim__yctx_pop(c);
		if (rc)
			goto out_pop;
		g->bits[j] = (double)v;
		g->lbits[j] = log((double)v);
	}
	trim__yctx_pop(c);
	trim__yctx_key(c, "points");
	if (pts->n < 2 || pts->n > MAX_GRID) {
		rc = trim__yerr(c, pts, TRIM_ESCHEMA,
		                "2 to %d capacity points are needed to interpolate", MAX_GRID);
		goto out_pop;
	}
	g->nc = pts->n;
	for (int q = 0; q < NQ; q++) {
		if (trim__ymap_get(pts->items[0], q_keys[q]) || q == Q_READ || q == Q_WRITE) {
			g->val[q] = trim__calloc(g->nc * g->nw, sizeof(double));
			if (!g->val[q]) {
				rc = TRIM_ENOMEM;
				goto out_pop;
			}
		}
	}
	static const char *const pkeys[] = {"capacity", "read_pj", "write_pj", "update_pj",
	                                    "leak_uw", "area_um2", NULL};
	for (size_t i = 0; i < pts->n; i++) {
		const trim__ynode *p = pts->items[i];
		trim__yctx_index(c, i);
		rc = trim__ymap_check(c, p, pkeys);
		int64_t cap = 0;
		if (rc == 0)
			rc = trim__yget_bytes(c, p, "capacity", 1, &cap);
		if (rc == 0 && i > 0 && (double)cap <= g->cap[i - 1]) {
			trim__yctx_key(c, "capacity");
			rc = trim__yerr(c, trim__ymap_get(p, "capacity"), TRIM_ESCHEMA,
			                "capacities must increase");
			trim__yctx_pop(c);
		}
		g->cap[i] = (double)cap;
		g->lcap[i] = log((double)cap);
		for (int q = 0; rc == 0 && q < NQ; q++) {
			const trim__ynode *row = trim__ymap_get(p, q_keys[q]);
			if (!g->val[q]) {
				if (row) {
					trim__yctx_key(c, q_keys[q]);
					rc = trim__yerr(c, row, TRIM_ESCHEMA,
					                "'%s' must be given for every point or none (not in "
					                "points[0])", q_keys[q]);
					trim__yctx_pop(c);
				}
				continue;
			}
			if (!row) {
				rc = trim__yerr(c, p, TRIM_ESCHEMA, "missing required key '%s'", q_keys[q]);
				break;
			}
			rc = trim__yget_node(c, p, q_keys[q], 1, TRIM__Y_SEQ, &row);
			if (rc)
				break;
			trim__yctx_key(c, q_keys[q]);
			if (row->n != g->nw)
				rc = trim__yerr(c, row, TRIM_ESCHEMA,
				                "expected %zu values (one per word width), found %zu", g->nw,
				                row->n);
			for (size_t j = 0; rc == 0 && j < row->n; j++) {
				trim__yctx_index(c, j);
				rc = trim__ydouble(c, row->items[j], 1e-12, 1e15, &g->val[q][i * g->nw + j]);
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
		if (rc)
			goto out_pop;
	}
	for (int q = 0; q < NQ; q++)
		if (g->val[q] && (rc = grid_build(g, q)) != 0)
			goto out_pop;
	g->present = 1;
out_pop:
	trim__yctx_pop(c);
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_dram(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "dram", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "dram");
	TRY(trim__ymap_check(c, m, dram_kinds));
	for (int k = 0; dram_kinds[k]; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, dram_kinds[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, dram_kinds[k]);
		static const char *const keys[] = {"pj_per_bit", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "pj_per_bit", 1, 1e-6, 1e6, &t->dram_pj_bit[k]);
		trim__yctx_pop(c);
		if (rc)
			goto out;
		t->has_dram[k] = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_macs(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "mac", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "mac");
	TRY(trim__ymap_check(c, m, datatypes));
	for (int k = 0; datatypes[k]; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, datatypes[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, datatypes[k]);
		static const char *const keys[] = {"mac_pj", "gated_pj", "leak_uw", "area_um2", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "mac_pj", 1, 1e-9, 1e9, &t->mac[k].mac);
		t->mac[k].gated = -1;
		if (rc == 0)
			rc = trim__yget_double(c, d, "gated_pj", 0, 0, 1e9, &t->mac[k].gated);
		if (rc >= 0)
			rc = trim__yget_double(c, d, "leak_uw", 0, 0, 1e9, &t->mac[k].leak_uw);
		if (rc >= 0)
			rc = trim__yget_double(c, d, "area_um2", 0, 0, 1e12, &t->mac[k].area_um2);
		trim__yctx_pop(c);
		if (rc < 0)
			goto out;
		if (t->mac[k].gated < 0)
			t->mac[k].gated = t->mac[k].mac;
		t->mac[k].has = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_noc(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "noc", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "noc");
	static const char *const keys[] = {"hop_pj_per_bit", "wire_pj_per_bit_mm",
	                                   "default_hop_mm", "area_um2_per_bit_per_pe", NULL};
	TRY(trim__ymap_check(c, m, keys));
	TRY(trim__yget_double(c, m, "hop_pj_per_bit", 1, 0, 1e6, &t->noc.hop_pj_bit));
	TRY(trim__yget_double(c, m, "wire_pj_per_bit_mm", 1, 0, 1e6, &t->noc.wire_pj_bit_mm));
	TRY(trim__yget_double(c, m, "default_hop_mm", 1, 1e-6, 1e3, &t->noc.default_hop_mm));
	TRY(trim__yget_double(c, m, "area_um2_per_bit_per_pe", 0, 0, 1e9, &t->noc.area_um2_bit_pe));
	t->noc.has = 1;
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_units(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	static const char *const names[] = {"transpose", "derivative", NULL};
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "units", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "units");
	TRY(trim__ymap_check(c, m, names));
	for (int k = 0; k < 2; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, names[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, names[k]);
		static const char *const keys[] = {"use_pj", "area_um2", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "use_pj", 1, 0, 1e9, &t->unit[k].pj);
		if (rc == 0)
			rc = trim__yget_double(c, d, "area_um2", 0, 0, 1e12, &t->unit[k].area_um2);
		trim__yctx_pop(c);
		if (rc < 0)
			goto out;
		t->unit[k].has = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_res(trim__yctx *c, const trim__ynode *m, const char *key, int required,
                    double *res)
{
	const trim__ynode *d = NULL;
	int rc = trim__yget_node(c, m, key, required, TRIM__Y_MAP, &d);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, key);
	rc = trim__ymap_check(c, d, res_keys);
	for (int r = 0; rc == 0 && r < 4; r++) {
		rc = trim__yget_double(c, d, res_keys[r], 0, 0, 1e12, &res[r]);
		if (rc == 1)
			rc = 0;
	}
	trim__yctx_pop(c);
	return rc;
}

static int read_fpga(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "fpga", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "fpga");
	static const char *const keys[] = {"device", "available", "static_mw", "per_mac",
	                                   "per_pe", "noc_per_pe_bit", "regfile_per_bit",
	                                   "fixed", NULL};
	TRY(trim__ymap_check(c, m, keys));
	const char *dev = NULL;
	TRY(trim__yget_str(c, m, "device", 1, &dev));
	snprintf(t->device, sizeof t->device, "%s", dev);
	TRY(read_res(c, m, "available", 1, t->avail));
	TRY(trim__yget_double(c, m, "static_mw", 0, 0, 1e6, &t->static_mw));
	TRY(read_res(c, m, "per_pe", 0, t->per_pe));
	TRY(read_res(c, m, "noc_per_pe_bit", 0, t->noc_pe_bit));
	TRY(read_res(c, m, "regfile_per_bit", 0, t->reg_bit));
	TRY(read_res(c, m, "fixed", 0, t->fixed));
	const trim__ynode *pm = NULL;
	TRY(trim__yget_node(c, m, "per_mac", 1, TRIM__Y_MAP, &pm));
	trim__yctx_key(c, "per_mac");
	rc = trim__ymap_check(c, pm, datatypes);
	for (int k = 0; rc == 0 && datatypes[k]; k++) {
		if (!trim__ymap_get(pm, datatypes[k]))
			continue;
		rc = read_res(c, pm, datatypes[k], 1, t->per_mac[k]);
		t->has_per_mac[k] = 1;
	}
	trim__yctx_pop(c);
	if (rc)
		goto out;
	for (int r = 0; r < 4; r++) {
		if (!(t->avail[r] > 0)) {
			trim__yctx_key(c, "available");
			rc = trim__yerr(c, trim__ymap_get(m, "available"), TRIM_ESCHEMA,
			                "'%s' must be given and positive", res_keys[r]);
			trim__yctx_pop(c);
			goto out;
		}
	}
	t->fpga = 1;
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
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

static component *comp_get(trim_energy *t, const char *full)
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

static const component *comp_find(const trim_energy *t, const char *name)
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
static int comp_action(trim__yctx *c, const trim__ynode *at, component *k, const char *act,
                       double pj)
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

static int read_components(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *seq = NULL;
	int rc = trim__yget_node(c, root, "components", 0, TRIM__Y_SEQ, &seq);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "components");
	for (size_t i = 0; i < seq->n; i++) {
		const trim__ynode *m = seq->items[i];
		trim__yctx_index(c, i);
		static const char *const keys[] = {"name", "actions", "leak_uw", "area_um2",
		                                   "description", NULL};
		const char *name = NULL;
		const trim__ynode *acts = NULL;
		component *k = NULL;
		rc = trim__ymap_check(c, m, keys);
		if (rc == 0)
			rc = trim__yget_str(c, m, "name", 1, &name);
		if (rc == 0 && !(k = comp_get(t, name)))
			rc = TRIM_ENOMEM;
		if (rc == 0)
			rc = trim__yget_node(c, m, "actions", 1, TRIM__Y_MAP, &acts);
		if (rc == 0) {
			trim__yctx_key(c, "actions");
			for (size_t j = 0; rc == 0 && j < acts->n; j++) {
				double pj = 0;
				trim__yctx_key(c, acts->keys[j]->str);
				rc = trim__ydouble(c, acts->items[j], 0, 1e12, &pj);
				if (rc == 0)
					rc = comp_action(c, acts->items[j], k, acts->keys[j]->str, pj);
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
		if (rc == 0) {
			rc = trim__yget_double(c, m, "leak_uw", 0, 0, 1e12, &k->leak_uw);
			k->has_leak = rc == 0;
			if (rc == 1)
				rc = 0;
		}
		if (rc == 0) {
			rc = trim__yget_double(c, m, "area_um2", 0, 0, 1e15, &k->area_um2);
			k->has_area = rc == 0;
			if (rc == 1)
				rc = 0;
		}
		trim__yctx_pop(c);
		if (rc)
			goto out;
	}
out:
	trim__yctx_pop(c);
	return rc;
}

/* ---- Accelergy ERT / ART ---------------------------------------------------- */

/* `version` of an ERT or ART: required, one of the formats read here
 * (Accelergy 0.2's mapping of tables, 0.3's and 0.4's list of tables). */
static int accelergy_version(trim__yctx *c, const trim__ynode *root, const char *what)
{
	static const char *const versions[] = {"0.2", "0.3", "0.4", NULL};
	const trim__ynode *v = trim__ymap_get(root, "version");
	if (!v)
		return trim__yerr(c, root, TRIM_ESCHEMA, "missing required key 'version' of the %s "
		                  "(Accelergy writes 0.2, 0.3 or 0.4)", what);
	trim__yctx_key(c, "version");
	int rc = trim__yexpect(c, v, TRIM__Y_SCALAR);
	int known = 0;
	for (int k = 0; rc == 0 && versions[k]; k++)
		known |= !strcmp(v->str, versions[k]);
	if (rc == 0 && !known)
		rc = trim__yerr(c, v, TRIM_ESCHEMA, "unsupported %s version '%s' (0.2, 0.3 or 0.4)", what,
		                v->str);
	trim__yctx_pop(c);
	return rc;
}

/* One ERT action entry: {name?, arguments, energy} */
static int ert_entry(trim__yctx *c, const trim__ynode *e, component *k, const char *act)
{
	static const char *const keys[] = {"name", "arguments", "energy", NULL};
	int rc = trim__ymap_check(c, e, keys);
	double pj = 0;
	if (rc == 0)
		rc = trim__yget_double(c, e, "energy", 1, 0, 1e12, &pj);
	if (rc == 0)
		rc = comp_action(c, e, k, act, pj);
	return rc;
}

static int read_ert(trim__yctx *c, const trim__ynode *ert, trim_energy *t)
{
	static const char *const keys[] = {"version", "tables", NULL};
	const trim__ynode *tables = trim__ymap_get(ert, "tables");
	int rc = trim__ymap_check(c, ert, keys);
	if (rc == 0)
		rc = accelergy_version(c, ert, "ERT");
	if (rc)
		return rc;
	if (!tables)
		return trim__yerr(c, ert, TRIM_ESCHEMA, "missing required key 'tables'");
	trim__yctx_key(c, "tables");
	if (tables->kind == TRIM__Y_SEQ) { /* Accelergy 0.3: [{name, actions: [...]}] */
		for (size_t i = 0; rc == 0 && i < tables->n; i++) {
			const trim__ynode *tb = tables->items[i], *acts = NULL;
			const char *name = NULL;
			static const char *const tkeys[] = {"name", "actions", NULL};
			component *k = NULL;
			trim__yctx_index(c, i);
			rc = trim__ymap_check(c, tb, tkeys);
			if (rc == 0)
				rc = trim__yget_str(c, tb, "name", 1, &name);
			if (rc == 0 && !(k = comp_get(t, name)))
				rc = TRIM_ENOMEM;
			if (rc == 0)
				rc = trim__yget_node(c, tb, "actions", 1, TRIM__Y_SEQ, &acts);
			if (rc == 0) {
				trim__yctx_key(c, "actions");
				for (size_t j = 0; rc == 0 && j < acts->n; j++) {
					const char *an = NULL;
					trim__yctx_index(c, j);
					rc = trim__yexpect(c, acts->items[j], TRIM__Y_MAP);
					if (rc == 0)
						rc = trim__yget_str(c, acts->items[j], "name", 1, &an);
					if (rc == 0)
						rc = ert_entry(c, acts->items[j], k, an);
					trim__yctx_pop(c);
				}
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
	} else if (tables->kind == TRIM__Y_MAP) { /* Accelergy 0.2: {name: {action: entry|[entries]}} */
		for (size_t i = 0; rc == 0 && i < tables->n; i++) {
			const trim__ynode *tb = tables->items[i];
			component *k = comp_get(t, tables->keys[i]->str);
			trim__yctx_key(c, tables->keys[i]->str);
			rc = k ? trim__yexpect(c, tb, TRIM__Y_MAP) : TRIM_ENOMEM;
			for (size_t j = 0; rc == 0 && j < tb->n; j++) {
				const trim__ynode *v = tb->items[j];
				const char *an = tb->keys[j]->str;
				trim__yctx_key(c, an);
				if (v->kind == TRIM__Y_SEQ) {
					for (size_t e = 0; rc == 0 && e < v->n; e++) {
						trim__yctx_index(c, e);
						rc = trim__yexpect(c, v->items[e], TRIM__Y_MAP);
						if (rc == 0)
							rc = ert_entry(c, v->items[e], k, an);
						trim__yctx_pop(c);
					}
				} else {
					rc = trim__yexpect(c, v, TRIM__Y_MAP);
					if (rc == 0)
						rc = ert_entry(c, v, k, an);
				}
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
	} else {
		rc = trim__yerr(c, tables, TRIM_ESCHEMA, "expected a list or a mapping of tables");
	}
	trim__yctx_pop(c);
	return rc;
}

static int read_art(trim__yctx *c, const trim__ynode *art, trim_energy *t)
{
	static const char *const keys[] = {"version", "tables", NULL};
	const trim__ynode *tables = NULL;
	int rc = trim__ymap_check(c, art, keys);
	if (rc == 0)
		rc = accelergy_version(c, art, "ART");
	if (rc == 0)
		rc = trim__yget_node(c, art, "tables", 1, TRIM__Y_SEQ, &tables);
	if (rc)
		return rc;
	trim__yctx_key(c, "tables");
	for (size_t i = 0; rc == 0 && i < tables->n; i++) {
		static const char *const tkeys[] = {"name", "area", NULL};
		const char *name = NULL;
		component *k = NULL;
		trim__yctx_index(c, i);
		rc = trim__ymap_check(c, tables->items[i], tkeys);
		if (rc == 0)
			rc = trim__yget_str(c, tables->items[i], "name", 1, &name);
		if (rc == 0 && !(k = comp_get(t, name)))
			rc = TRIM_ENOMEM;
		if (rc == 0)
			rc = trim__yget_double(c, tables->items[i], "area", 1, 0, 1e15, &k->area_um2);
		if (rc == 0)
			k->has_area = 1;
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	return rc;
}

/* ---- top level ------------------------------------------------------------------ */

static int parse_doc(trim_energy *t, const trim__ydoc *doc)
{
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	const trim__ynode *root = trim__ydoc_root(doc);
	int rc = trim__yexpect(&c, root, TRIM__Y_MAP);
	if (rc)
		return rc;
	const trim__ynode *ert = trim__ymap_get(root, "ERT");
	const trim__ynode *art = trim__ymap_get(root, "ART");
	if (ert || art) {
		static const char *const keys[] = {"ERT", "ART", NULL};
		TRY(trim__ymap_check(&c, root, keys));
		if (ert) {
			trim__yctx_key(&c, "ERT");
			rc = trim__yexpect(&c, ert, TRIM__Y_MAP);
			if (rc == 0)
				rc = read_ert(&c, ert, t);
			trim__yctx_pop(&c);
			if (rc)
				goto out;
		}
		if (art) {
			trim__yctx_key(&c, "ART");
			rc = trim__yexpect(&c, art, TRIM__Y_MAP);
			if (rc == 0)
				rc = read_art(&c, art, t);
			trim__yctx_pop(&c);
		}
		goto out;
	}
	static const char *const keys[] = {"schema_version", "name", "description", "kind",
	                                   "technology_nm", "out_of_range", "sram", "regfile",
	                                   "dram", "mac", "noc", "units", "components", "fpga",
	                                   NULL};
	TRY(trim__ymap_check(&c, root, keys));
	int64_t v;
	TRY(trim__yget_int(&c, root, "schema_version", 1, 1, 1, &v));
	const char *name = NULL;
	TRY(trim__yget_str(&c, root, "name", 1, &name));
	snprintf(t->name, sizeof t->name, "%s", name);
	static const char *const kinds[] = {"asic", "fpga", NULL};
	int kind = 0;
	TRY(trim__yget_enum(&c, root, "kind", 1, kinds, &kind));
	static const char *const oor[] = {"error", "clamp", NULL};
	TRY(trim__yget_enum(&c, root, "out_of_range", 0, oor, &t->clamp));
	double nm = 0;
	TRY(trim__yget_double(&c, root, "technology_nm", 0, 1, 1e4, &nm));
	TRY(read_grid(&c, root, 0, &t->g[0]));
	TRY(read_grid(&c, root, 1, &t->g[1]));
	TRY(read_dram(&c, root, t));
	TRY(read_macs(&c, root, t));
	TRY(read_noc(&c, root, t));
	TRY(read_units(&c, root, t));
	TRY(read_components(&c, root, t));
	TRY(read_fpga(&c, root, t));
	if (kind == 1 && !t->fpga) {
		rc = trim__yerr(&c, root, TRIM_ESCHEMA, "a table of kind fpga needs an 'fpga' section");
		goto out;
	}
	if (kind == 0 && t->fpga) {
		trim__yctx_key(&c, "fpga");
		rc = trim__yerr(&c, trim__ymap_get(root, "fpga"), TRIM_ESCHEMA,
		                "an 'fpga' section needs kind: fpga");
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int set_name_from_file(trim_energy *t, const char *path)
{
	if (t->name[0])
		return 0;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	snprintf(t->name, sizeof t->name, "%s", b);
	char *dot = strrchr(t->name, '.');
	if (dot && dot != t->name)
		*dot = '\0';
	return 0;
}

static int add_file(trim_energy *t, const char *path)
{
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc == 0)
		rc = parse_doc(t, doc);
	trim__ydoc_free(doc);
	return rc;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static trim_energy *new_table(const char *file)
{
	trim__gsl_init(); /* GSL's default handler would abort the host */
	trim_energy *t = trim__calloc(1, sizeof *t);
	if (!t)
		return NULL;
	TRIM__HANDLE_INIT(t, ENERGY);
	t->file = trim__strdup(file ? file : "<string>");
	if (!t->file) {
		free(t);
		return NULL;
	}
	return t;
}

TRIM_API int trim_energy_load_accelergy(trim_energy **out, const char *ert, const char *art)
{
	if (!out || !ert)
		return trim__error(TRIM_EINVAL, "trim_energy_load_accelergy: NULL argument");
	*out = NULL;
	trim_energy *t = new_table(ert);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = add_file(t, ert);
	if (rc == 0 && art)
		rc = add_file(t, art);
	if (rc)
		goto out;
	set_name_from_file(t, ert);
	*out = t;
	t = NULL;
out:
	trim_energy_free(t);
	return rc;
}

TRIM_API int trim_energy_load(trim_energy **out, const char *path)
{
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_energy_load: NULL argument");
	*out = NULL;
	if (is_dir(path)) {
		char ert[4096], art[4096];
		snprintf(ert, sizeof ert, "%s/ERT.yaml", path);
		snprintf(art, sizeof art, "%s/ART.yaml", path);
		if (!is_file(ert))
			return trim__error(TRIM_ENOTFOUND, "%s: a table directory needs ERT.yaml", path);
		int rc = trim_energy_load_accelergy(out, ert, is_file(art) ? art : NULL);
		if (rc == 0) {
			const char *b = strrchr(path, '/');
			snprintf((*out)->name, sizeof (*out)->name, "%s", b && b[1] ? b + 1 : path);
		}
		return rc;
	}
	trim_energy *t = new_table(path);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = add_file(t, path);
	if (rc)
		goto out;
	set_name_from_file(t, path);
	*out = t;
	t = NULL;
out:
	trim_energy_free(t);
	return rc;
}

TRIM_API int trim_energy_load_string(trim_energy **out, const char *yaml, const char *name)
{
	if (!out || !yaml)
		return trim__error(TRIM_EINVAL, "trim_energy_load_string: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	trim_energy *t = new_table(name);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), t->file);
	if (rc == 0)
		rc = parse_doc(t, doc);
	if (rc)
		goto out;
	set_name_from_file(t, t->file);
	*out = t;
	t = NULL;
out:
	trim__ydoc_free(doc);
	trim_energy_free(t);
	return rc;
}

/* ---- resolution of technology names ---------------------------------------------- */

static int try_candidate(const char *base, char **out)
{
	char p[4096];
	snprintf(p, sizeof p, "%s.yaml", base);
	if (is_file(p)) {
		*out = trim__strdup(p);
		return *out ? 0 : TRIM_ENOMEM;
	}
	snprintf(p, sizeof p, "%s/ERT.yaml", base);
	if (is_file(p)) {
		*out = trim__strdup(base);
		return *out ? 0 : TRIM_ENOMEM;
	}
	return 1;
}

TRIM_API int trim_energy_resolve(const char *tech, const char *arch_file, char **out)
{
	if (!tech || !out || !tech[0])
		return trim__error(TRIM_EINVAL, "trim_energy_resolve: no technology given");
	*out = NULL;
	char dir[4096] = ".";
	if (arch_file) {
		const char *sl = strrchr(arch_file, '/');
		if (sl)
			snprintf(dir, sizeof dir, "%.*s", (int)(sl - arch_file), arch_file);
	}
	size_t tl = strlen(tech);
	if (strchr(tech, '/') || (tl > 5 && !strcmp(tech + tl - 5, ".yaml"))) {
		char p[4096];
		if (tech[0] == '/')
			snprintf(p, sizeof p, "%s", tech);
		else
			snprintf(p, sizeof p, "%s/%s", dir, tech);
		if (is_file(p) || is_dir(p)) {
			*out = trim__strdup(p);
			return *out ? 0 : TRIM_ENOMEM;
		}
		return trim__error(TRIM_ENOTFOUND, "technology '%s': no file %s", tech, p);
	}
	char tried[3 + TRIM__DATA_DIRS_MAX][TRIM__PATH_MAX];
	char data_dirs[TRIM__DATA_DIRS_MAX][TRIM__PATH_MAX];
	int nt = 0;
	snprintf(tried[nt++], sizeof tried[0], "%s/../../energy_tables/%s", dir, tech);
	const char *env = getenv("TRIM_DATA_DIR");
	if (env && env[0])
		snprintf(tried[nt++], sizeof tried[0], "%s/energy_tables/%s", env, tech);
	snprintf(tried[nt++], sizeof tried[0], "energy_tables/%s", tech);
	/* then the installed data directory, the build tree, the source tree */
	size_t nd = trim__data_dirs(data_dirs, TRIM__DATA_DIRS_MAX);
	for (size_t i = 0; i < nd; i++)
		snprintf(tried[nt++], sizeof tried[0], "%s/energy_tables/%s", data_dirs[i], tech);
	char list[sizeof tried] = "";
	size_t ll = 0;
	for (int i = 0; i < nt; i++) {
		int rc = try_candidate(tried[i], out);
		if (rc <= 0)
			return rc;
		if (ll < sizeof list)
			ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%s.yaml", i ? ", " : "", tried[i]);
	}
	return trim__error(TRIM_ENOTFOUND,
	                   "unknown technology '%s': no energy table %s (set TRIM_DATA_DIR, or give "
	                   "a path)", tech, list);
}

TRIM_API int trim_energy_load_for_arch(trim_energy **out, const trim_arch *a)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!out || !a)
		return trim__error(TRIM_EINVAL, "trim_energy_load_for_arch: NULL argument");
	*out = NULL;
	char *path = NULL;
	int rc = trim_energy_resolve(a->technology, a->file, &path);
	if (rc) {
		char where[512];
		if (a->tech_line > 0)
			snprintf(where, sizeof where, "%s:%d:%d: technology", a->file ? a->file : "<arch>",
			         a->tech_line, a->tech_col);
		else
			snprintf(where, sizeof where, "%s: technology", a->file ? a->file : "<arch>");
		trim__error_prefix(where);
		return rc;
	}
	rc = trim_energy_load(out, path);
	free(path);
	return rc;
}

TRIM_API const char *trim_energy_name(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->name : NULL;
}
TRIM_API const char *trim_energy_file(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->file : NULL;
}
TRIM_API int trim_energy_is_fpga(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->fpga : TRIM_EINVAL;
}

int trim__energy_device(const trim_energy *t, double *avail, const char **device)
{
	if (!t || !t->fpga)
		return TRIM_EINVAL;
	memcpy(avail, t->avail, sizeof t->avail);
	if (device)
		*device = t->device;
	return 0;
}

double trim__energy_static_mw(const trim_energy *t) { return t && t->fpga ? t->static_mw : 0; }

/* ---- lookups ---------------------------------------------------------------------- */

static int kind_index(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static int comp_act(const component *k, const char *act, double *pj)
{
	for (size_t i = 0; i < k->nact; i++) {
		if (!strcmp(k->act[i], act)) {
			*pj = k->pj[i];
			return 0;
		}
	}
	return 1;
}

TRIM_API int trim_energy_lookup(const trim_energy *t, const char *comp, const char *action,
                                double cap, int64_t bits, int flags, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	if (!t || !comp || !action || !out || n < 1)
		return trim__error(TRIM_EINVAL, "trim_energy_lookup: NULL argument");
	int nclamped = 0, rc;
	double v = 0;
	const component *k = comp_find(t, comp);
	if (k) {
		if (!strcmp(action, "leak") && k->has_leak) {
			v = k->leak_uw;
			rc = 0;
		} else if (comp_act(k, action, &v) != 0) {
			return trim__error(TRIM_ENOTFOUND, "%s: component '%s' has no action '%s'",
			                   t->file, comp, action);
		}
		rc = 0;
	} else if (!strcmp(comp, "sram") || !strcmp(comp, "regfile")) {
		int gi = comp[0] == 'r';
		int q = kind_index(action, q_actions);
		if (q < 0 || q == Q_AREA)
			return trim__error(TRIM_ENOTFOUND, "%s has no action '%s' (read, write, update, "
			                   "leak)", comp, action);
		if (q == Q_UPDATE && !t->g[gi].val[Q_UPDATE])
			q = Q_WRITE; /* an update is a write of the accumulated value */
		rc = grid_eval(t, gi, q, cap, (double)bits, flags, &v, &nclamped);
	} else if (!strncmp(comp, "dram.", 5)) {
		int d = kind_index(comp + 5, dram_kinds);
		if (d < 0 || !t->has_dram[d])
			return trim__error(TRIM_ENOTFOUND, "%s: no DRAM '%s' in the table", t->file,
			                   comp + 5);
		if (!strcmp(action, "leak"))
			v = 0;
		else if (!strcmp(action, "read") || !strcmp(action, "write") ||
		         !strcmp(action, "update"))
			v = t->dram_pj_bit[d] * (double)bits;
		else
			return trim__error(TRIM_ENOTFOUND, "dram has no action '%s'", action);
		rc = 0;
	} else if (!strncmp(comp, "mac.", 4)) {
		int d = kind_index(comp + 4, datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "%s: no MAC '%s' in the table", t->file,
			                   comp + 4);
		if (!strcmp(action, "mac"))
			v = t->mac[d].mac;
		else if (!strcmp(action, "gated"))
			v = t->mac[d].gated;
		else if (!strcmp(action, "leak"))
			v = t->mac[d].leak_uw;
		else
			return trim__error(TRIM_ENOTFOUND, "a MAC has no action '%s' (mac, gated, leak)",
			                   action);
		rc = 0;
	} else if (!strcmp(comp, "noc")) {
		if (!t->noc.has)
			return trim__error(TRIM_ENOTFOUND, "%s: no noc in the table", t->file);
		if (strcmp(action, "hop"))
			return trim__error(TRIM_ENOTFOUND, "the noc has no action '%s' (hop)", action);
		v = (t->noc.hop_pj_bit + t->noc.wire_pj_bit_mm * t->noc.default_hop_mm) * (double)bits;
		rc = 0;
	} else if (!strcmp(comp, "transpose") || !strcmp(comp, "derivative")) {
		int u = comp[0] == 'd';
		if (!t->unit[u].has || strcmp(action, "use"))
			return trim__error(TRIM_ENOTFOUND, "%s: no action '%s' of unit '%s'", t->file,
			                   action, comp);
		v = t->unit[u].pj;
		rc = 0;
	} else {
		return trim__error(TRIM_ENOTFOUND, "%s: no component '%s'", t->file, comp);
	}
	if (rc)
		return rc;
	out[0] = v;
	if (n >= 2)
		out[1] = nclamped;
	return 0;
}

TRIM_API int trim_energy_action(const trim_energy *t, const char *comp, const char *action,
                                double cap, int64_t bits, double *pj)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	return trim_energy_lookup(t, comp, action, cap, bits, TRIM_ENERGY_STRICT, pj, 1);
}

static int area_um2(const trim_energy *t, const char *comp, double cap, int64_t bits, int flags,
                    double *um2, int *nclamped)
{
	const component *k = comp_find(t, comp);
	*nclamped = 0;
	if (k) {
		if (!k->has_area)
			return trim__error(TRIM_ENOTFOUND, "%s: component '%s' has no area", t->file, comp);
		*um2 = k->area_um2;
		return 0;
	}
	if (!strcmp(comp, "sram") || !strcmp(comp, "regfile"))
		return grid_eval(t, comp[0] == 'r', Q_AREA, cap, (double)bits, flags, um2, nclamped);
	if (!strncmp(comp, "dram.", 5)) {
		*um2 = 0; /* off chip */
		return 0;
	}
	if (!strncmp(comp, "mac.", 4)) {
		int d = kind_index(comp + 4, datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "%s: no MAC '%s'", t->file, comp + 4);
		*um2 = t->mac[d].area_um2;
		return 0;
	}
	if (!strcmp(comp, "noc") && t->noc.has) {
		*um2 = t->noc.area_um2_bit_pe * (double)bits;
		return 0;
	}
	if ((!strcmp(comp, "transpose") || !strcmp(comp, "derivative")) && t->unit[comp[0] == 'd'].has) {
		*um2 = t->unit[comp[0] == 'd'].area_um2;
		return 0;
	}
	return trim__error(TRIM_ENOTFOUND, "%s: no area for component '%s'", t->file, comp);
}

TRIM_API int trim_energy_area(const trim_energy *t, const char *comp, double cap, int64_t bits,
                              double *mm2)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	if (!t || !comp || !mm2)
		return trim__error(TRIM_EINVAL, "trim_energy_area: NULL argument");
	double um2 = 0;
	int nc = 0;
	int rc = area_um2(t, comp, cap, bits, TRIM_ENERGY_STRICT, &um2, &nc);
	if (rc == 0)
		*mm2 = um2 * 1e-6;
	return rc;
}

/* ---- costs of an architecture ---------------------------------------------------- */

/* Prefix the current error with the level's position. */
static int at_level(const trim_arch *a, int i, int rc)
{
	char where[512];
	snprintf(where, sizeof where, "%s:%d:%d: levels[%d] (%s)", a->file ? a->file : "<arch>",
	         a->lv[i].line, a->lv[i].col, i, a->lv[i].name);
	trim__error_prefix(where);
	return rc;
}

/* BRAM36 blocks of one buffer (7-series: BRAM18 = 1Kx18 .. 16Kx1, 512x36 in SDP mode). */
static double bram36_blocks(double cap_bytes, int bits)
{
	static const struct { int w; double depth; } cfg[] = {
		{1, 16384}, {2, 8192}, {4, 4096}, {9, 2048}, {18, 1024}, {36, 512}};
	double entries = ceil(cap_bytes * 8.0 / bits);
	double cols = 1, depth = 512;
	if (bits > 36) {
		cols = ceil(bits / 36.0);
	} else {
		for (size_t k = 0; k < TRIM__ARRAY_LEN(cfg); k++) {
			if (cfg[k].w >= bits) {
				depth = cfg[k].depth;
				break;
			}
		}
	}
	return cols * ceil(entries / depth) / 2.0;
}

static double topology_hops(const trim__level *lv)
{
	double x = (double)lv->fanout_x, y = (double)lv->fanout_y, h;
	switch (lv->net) {
	case TRIM__NET_BUS: h = (x + y) / 2.0; break;
	case TRIM__NET_HTREE: h = ceil(log2(x * y)); break;
	default: h = (x - 1) / 2.0 + (y - 1) / 2.0; break; /* mesh, systolic: from a corner */
	}
	return h < 1 ? 1 : h;
}

static const component *level_component(const trim_energy *t, const trim__level *lv, int *err)
{
	*err = 0;
	if (lv->component[0]) {
		const component *k = comp_find(t, lv->component);
		if (!k)
			*err = trim__error(TRIM_ENOTFOUND, "energy table %s has no component '%s'",
			                   t->file, lv->component);
		return k;
	}
	return comp_find(t, lv->name);
}

static int cost_storage(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0, rc = 0;
	const component *k = level_component(t, lv, &err);
	double inst = (double)lv->instances, wb = lv->word_bits;
	if (err)
		return err;
	if (k) {
		/* A component's action moves one block of block_size words (an
		 * Accelergy ERT entry is per action; Timeloop's block-size): the
		 * evaluator counts words, so each word costs action / block_size.
		 * Idle (leakage) is per cycle and instance, whatever the block. */
		double v, block = lv->block_size > 1 ? (double)lv->block_size : 1;
		if (comp_act(k, "read", &o->read_pj))
			return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'read' action", k->name);
		o->write_pj = comp_act(k, "write", &v) == 0 ? v
		              : comp_act(k, "fill", &v) == 0 ? v : o->read_pj;
		o->update_pj = comp_act(k, "update", &v) == 0 ? v : o->write_pj;
		o->read_pj /= block;
		o->write_pj /= block;
		o->update_pj /= block;
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw / a->clock_mhz;
		else if (comp_act(k, "idle", &v) == 0)
			o->leak_pj_per_cycle = v;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * inst : 0;
		return 0;
	}
	if (lv->mem_class == TRIM__MEM_DRAM) {
		char name[48];
		double r[2];
		snprintf(name, sizeof name, "dram.%s", lv->technology);
		rc = trim_energy_lookup(t, name, "read", 0, lv->word_bits, 0, r, 1);
		if (rc)
			return rc;
		o->read_pj = o->write_pj = o->update_pj = r[0];
		return 0;
	}
	const char *cn = lv->mem_class == TRIM__MEM_SRAM ? "sram" : "regfile";
	int gi = lv->mem_class == TRIM__MEM_REGFILE;
	int flags = t->clamp ? TRIM_ENERGY_CLAMP : 0;
	double ecap = (double)lv->capacity_bytes;
	if (lv->partitioned) { /* energy per access: the largest partition's array */
		ecap = 0;
		for (int s = 0; s < 3; s++)
			if ((double)lv->part_bytes[s] > ecap)
				ecap = (double)lv->part_bytes[s];
	}
	double r[2];
	static const char *const acts[3] = {"read", "write", "update"};
	double *dst[3] = {&o->read_pj, &o->write_pj, &o->update_pj};
	for (int q = 0; q < 3; q++) {
		rc = trim_energy_lookup(t, cn, acts[q], ecap, lv->word_bits, flags, r, 2);
		if (rc)
			return rc;
		*dst[q] = r[0];
		if (r[1] > 0)
			o->clamped = 1;
	}
	/* leakage and area: every partition is its own array */
	int nparts = lv->partitioned ? 3 : 1;
	for (int s = 0; s < nparts; s++) {
		double pc = lv->partitioned ? (double)lv->part_bytes[s] : (double)lv->capacity_bytes;
		int nc = 0;
		double v;
		if (pc <= 0)
			continue;
		if (t->g[gi].val[Q_LEAK]) {
			rc = grid_eval(t, gi, Q_LEAK, pc, wb, flags, &v, &nc);
			if (rc)
				return rc;
			o->leak_pj_per_cycle += v / a->clock_mhz;
		}
		if (t->g[gi].val[Q_AREA]) {
			rc = grid_eval(t, gi, Q_AREA, pc, wb, flags, &v, &nc);
			if (rc)
				return rc;
			o->area_mm2 += v * 1e-6 * inst;
		}
		if (nc)
			o->clamped = 1;
		if (t->fpga) {
			if (lv->mem_class == TRIM__MEM_SRAM) {
				o->res[TRIM_RES_BRAM36] += bram36_blocks(pc, lv->word_bits) * inst;
			} else {
				for (int res = 0; res < 4; res++)
					o->res[res] += t->reg_bit[res] * pc * 8 * inst;
			}
		}
	}
	return 0;
}

static int cost_spatial(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0;
	const component *k = level_component(t, lv, &err);
	double links = (double)lv->fanout_total * (double)lv->instances;
	if (err)
		return err;
	o->avg_hops = lv->hops > 0 ? lv->hops : topology_hops(lv);
	if (k) {
		if (comp_act(k, "hop", &o->hop_pj) != 0) {
			if (comp_act(k, "transfer", &o->hop_pj) != 0)
				return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'hop' or "
				                   "'transfer' action", k->name);
			if (lv->hops <= 0)
				o->avg_hops = 1; /* an Accelergy transfer is a whole delivery */
		}
		double v;
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw / a->clock_mhz;
		else if (comp_act(k, "idle", &v) == 0)
			o->leak_pj_per_cycle = v;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * (double)lv->instances : 0;
		return 0;
	}
	if (!t->noc.has) {
		/* nothing in the table costs this network (an Accelergy ERT without
		 * its NoC, a table without `noc`): its words are counted, their
		 * energy is 0, and the level says so (trim arch, trim eval) */
		o->hop_pj = 0;
		o->uncosted = 1;
		return 0;
	}
	double hop_mm = lv->hop_mm > 0 ? lv->hop_mm : t->noc.default_hop_mm;
	o->hop_pj = (t->noc.hop_pj_bit + t->noc.wire_pj_bit_mm * hop_mm) * a->word_bits;
	o->area_mm2 = t->noc.area_um2_bit_pe * lv->link_bits * links * 1e-6;
	if (t->fpga)
		for (int r = 0; r < 4; r++)
			o->res[r] = t->noc_pe_bit[r] * lv->link_bits * links;
	return 0;
}

static int cost_compute(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0;
	const component *k = level_component(t, lv, &err);
	double inst = (double)lv->instances, macs = inst * lv->macs_per_cycle;
	if (err)
		return err;
	if (k) {
		double v;
		if (comp_act(k, "mac", &o->mac_pj) != 0 && comp_act(k, "mac_random", &o->mac_pj) != 0)
			return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'mac' or "
			                   "'mac_random' action", k->name);
		o->gated_mac_pj = comp_act(k, "gated", &v) == 0 ? v
		                  : comp_act(k, "mac_gated", &v) == 0 ? v : o->mac_pj;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * macs : 0;
		/* leakage per MAC unit and cycle, like a storage component's idle */
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw * lv->macs_per_cycle / a->clock_mhz;
		else if (comp_act(k, "idle", &v) == 0)
			o->leak_pj_per_cycle = v * lv->macs_per_cycle;
	} else {
		int d = kind_index(lv->datatype, datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "energy table %s has no MAC of datatype '%s'",
			                   t->file, lv->datatype);
		o->mac_pj = t->mac[d].mac;
		o->gated_mac_pj = t->mac[d].gated;
		o->area_mm2 = t->mac[d].area_um2 * 1e-6 * macs;
		o->leak_pj_per_cycle = t->mac[d].leak_uw * lv->macs_per_cycle / a->clock_mhz;
		if (t->fpga) {
			if (!t->has_per_mac[d])
				return trim__error(TRIM_ENOTFOUND, "FPGA table %s has no per_mac resources "
				                   "for '%s'", t->file, lv->datatype);
			for (int r = 0; r < 4; r++)
				o->res[r] = t->per_mac[d][r] * macs + t->per_pe[r] * inst;
		}
	}
	int has[2] = {lv->transpose_unit, lv->derivative_unit};
	double given[2] = {lv->transpose_pj, lv->derivative_pj};
	double *dst[2] = {&o->transpose_pj, &o->derivative_pj};
	static const char *const un[2] = {"transpose", "derivative"};
	for (int u = 0; u < 2; u++) {
		if (!has[u])
			continue;
		if (given[u] > 0)
			*dst[u] = given[u];
		else if (t->unit[u].has)
			*dst[u] = t->unit[u].pj;
		else
			return trim__error(TRIM_ENOTFOUND, "energy table %s has no '%s' unit (give "
			                   "%s_pj in the architecture, or add units.%s)", t->file, un[u],
			                   un[u], un[u]);
		if (t->unit[u].has)
			o->area_mm2 += t->unit[u].area_um2 * 1e-6 * inst;
	}
	return 0;
}

int trim__arch_costs(const trim_arch *a, const trim_energy *t, trim__level_cost *out)
{
	if (!a || !t || !out)
		return trim__error(TRIM_EINVAL, "trim__arch_costs: NULL argument");
	memset(out, 0, sizeof *out * (size_t)a->nlevels);
	int first_onchip = -1;
	for (int i = 0; i < a->nlevels; i++) {
		const trim__level *lv = &a->lv[i];
		int rc;
		switch (lv->type) {
		case TRIM__LVL_STORAGE: rc = cost_storage(a, t, lv, &out[i]); break;
		case TRIM__LVL_SPATIAL: rc = cost_spatial(a, t, lv, &out[i]); break;
		default: rc = cost_compute(a, t, lv, &out[i]); break;
		}
		if (rc)
			return at_level(a, i, rc);
		if (first_onchip < 0 && !(lv->type == TRIM__LVL_STORAGE &&
		                          lv->mem_class == TRIM__MEM_DRAM))
			first_onchip = i;
	}
	if (t->fpga) {
		/* the DMA engine and interconnect go with the off-chip level; the device's
		 * static power is charged to the outermost on-chip level */
		for (int r = 0; r < 4; r++)
			out[0].res[r] += t->fixed[r];
		if (first_onchip >= 0)
			out[first_onchip].leak_pj_per_cycle +=
				t->static_mw * 1000.0 / a->clock_mhz / (double)a->lv[first_onchip].instances;
	}
	return 0;
}

static int with_costs(const trim_energy *t, const trim_arch *a, trim__level_cost **out)
{
	*out = trim__calloc((size_t)(a->nlevels > 0 ? a->nlevels : 1), sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	int rc = trim__arch_costs(a, t, *out);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

TRIM_API int trim_energy_resources(const trim_energy *t, const trim_arch *a, double *out,
                                   size_t n)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!t || !a || !out || n < 8)
		return trim__error(TRIM_EINVAL, "trim_energy_resources: bad argument");
	if (!t->fpga)
		return trim__error(TRIM_EINVAL, "%s is not an FPGA table", t->file);
	trim__level_cost *c = NULL;
	int rc = with_costs(t, a, &c);
	if (rc)
		return rc;
	int fits = 1;
	for (int r = 0; r < 4; r++) {
		out[r] = 0;
		for (int i = 0; i < a->nlevels; i++)
			out[r] += c[i].res[r];
		out[4 + r] = t->avail[r];
		if (out[r] > t->avail[r])
			fits = 0;
	}
	free(c);
	return fits;
}

TRIM_API int trim_energy_arch_area(const trim_energy *t, const trim_arch *a, double *mm2)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!t || !a || !mm2)
		return trim__error(TRIM_EINVAL, "trim_energy_arch_area: NULL argument");
	trim__level_cost *c = NULL;
	int rc = with_costs(t, a, &c);
	if (rc)
		return rc;
	*mm2 = 0;
	for (int i = 0; i < a->nlevels; i++)
		*mm2 += c[i].area_mm2;
	free(c);
	return 0;
}
