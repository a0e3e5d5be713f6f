/*
 * Writing a mapping and its workload in Timeloop's format (one YAML document
 * with `problem:` and `mapping:`), so that timeloop-model can evaluate
 * libtrim's answer. docs/mapping.md ("Timeloop's form", "Export") describes
 * the correspondence; lib/mapping/yaml.c reads the `mapping:` part back.
 *
 * The problem is written from the workload's own projections (a custom
 * Timeloop shape), so every phase and layer kind exports: FW, BW and WG of
 * convolutions, FC, pools. Dimensions: libtrim N G M C E F R S are Timeloop
 * N G M C P Q R S; G is written only when the workload has groups. The
 * tensors are named by role: slot 0 Inputs, slot 1 Weights, slot 2 Outputs
 * (the result, read-write).
 */
#include <stdio.h>
#include <string.h>

#include "mapping_int.h"
#include "trim/eval.h"
#include "util/handle.h"

/* Timeloop's letter of each libtrim dim (N G M C E F R S). */
static const char tl_letter[TRIM_NDIMS] = {'N', 'G', 'M', 'C', 'P', 'Q', 'R', 'S'};
/* The problem's dimension list, in the order of Timeloop's CNN-Layer shape. */
static const int tl_order[TRIM_NDIMS] = {TRIM_DIM_G, TRIM_DIM_C, TRIM_DIM_M, TRIM_DIM_R,
                                         TRIM_DIM_S, TRIM_DIM_N, TRIM_DIM_E, TRIM_DIM_F};
static const char *const tl_space[3] = {"Inputs", "Weights", "Outputs"};

/* G only when the workload has groups (Timeloop's CNN-Layer has no G). */
static int tl_has(const trim__intra *w, int d) { return d != TRIM_DIM_G || w->bound[d] > 1; }

/* A YAML double-quoted scalar. */
static void yq(trim__sb *sb, const char *s)
{
	trim__sb_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			trim__sb_putc(sb, '\\');
		trim__sb_putc(sb, *s);
	}
	trim__sb_putc(sb, '"');
}

/* Coefficients of the projections: Timeloop's names where the CNN-Layer
 * shape has one (the window dims), "<letter>coef" otherwise; a second value
 * for the same dim gets a number. */
typedef struct {
	char name[16];
	int64_t value;
} coef;

static const char *coef_name(coef *cs, int *n, int d, int64_t v)
{
	static const char *const std[TRIM_NDIMS] = {NULL, NULL, NULL, NULL, "Wstride", "Hstride",
	                                            "Wdilation", "Hdilation"};
	char base[16];
	if (std[d])
		snprintf(base, sizeof base, "%s", std[d]);
	else
		snprintf(base, sizeof base, "%ccoef", tl_letter[d]);
	for (int k = 1;; k++) {
		char name[16];
		if (k == 1)
			snprintf(name, sizeof name, "%s", base);
		else
			snprintf(name, sizeof name, "%s%d", base, k);
		int i;
		for (i = 0; i < *n; i++)
			if (!strcmp(cs[i].name, name))
				break;
		if (i == *n) {
			snprintf(cs[*n].name, sizeof cs[*n].name, "%s", name);
			cs[(*n)++].value = v;
			return cs[i].name;
		}
		if (cs[i].value == v)
			return cs[i].name;
	}
}

/* A term is written when its coefficient is non-zero and its dim is a
 * dimension of the problem. */
static int term_used(const trim__intra *w, const trim__iexpr *e, int k)
{
	return e->coef[k] != 0 && tl_has(w, e->dim[k]);
}

static void write_problem(const trim__intra *w, trim__sb *sb)
{
	coef cs[3 * TRIM__MAX_TDIMS * TRIM__MAX_TERMS];
	int nc = 0;
	/* name every coefficient first: the shape lists them before the data spaces */
	for (int t = 0; t < 3; t++)
		for (int a = 0; w->t[t].present && a < w->t[t].ndims; a++)
			for (int k = 0; k < w->t[t].idx[a].nterms; k++)
				if (term_used(w, &w->t[t].idx[a], k) && w->t[t].idx[a].coef[k] != 1)
					coef_name(cs, &nc, w->t[t].idx[a].dim[k], w->t[t].idx[a].coef[k]);
	trim__sb_puts(sb, "problem:\n  shape:\n    name: ");
	char name[TRIM__NAME_LEN + 16];
	snprintf(name, sizeof name, "%s-%s", w->layer, trim_phase_name(w->phase) ? trim_phase_name(w->phase) : "");
	yq(sb, name);
	trim__sb_puts(sb, "\n    dimensions: [");
	int first = 1;
	for (int k = 0; k < TRIM_NDIMS; k++)
		if (tl_has(w, tl_order[k])) {
			trim__sb_printf(sb, "%s%c", first ? "" : ", ", tl_letter[tl_order[k]]);
			first = 0;
		}
	trim__sb_puts(sb, "]\n");
	if (nc) {
		trim__sb_puts(sb, "    coefficients:\n");
		for (int i = 0; i < nc; i++)
			trim__sb_printf(sb, "      - {name: %s, default: %lld}\n", cs[i].name, (long long)cs[i].value);
	}
	trim__sb_puts(sb, "    data-spaces:\n");
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		if (!T->present)
			continue;
		trim__sb_printf(sb, "      - name: %s   # libtrim's %s\n        projection:\n", tl_space[t], T->name);
		int axes = 0;
		for (int a = 0; a < T->ndims; a++) {
			const trim__iexpr *e = &T->idx[a];
			int used = 0;
			for (int k = 0; k < e->nterms; k++)
				used += term_used(w, e, k);
			if (!used)
				continue; /* an axis of extent 1 (a dim the problem does not have) */
			trim__sb_puts(sb, "          - [");
			int f = 1;
			for (int k = 0; k < e->nterms; k++) {
				if (!term_used(w, e, k))
					continue;
				trim__sb_printf(sb, "%s[%c", f ? "" : ", ", tl_letter[e->dim[k]]);
				if (e->coef[k] != 1)
					trim__sb_printf(sb, ", %s", coef_name(cs, &nc, e->dim[k], e->coef[k]));
				trim__sb_putc(sb, ']');
				f = 0;
			}
			trim__sb_puts(sb, "]\n");
			axes++;
		}
		if (!axes) /* a scalar tensor: Timeloop needs an axis */
			trim__sb_printf(sb, "          - [[%c]]\n", tl_letter[TRIM_DIM_N]);
		if (t == 2)
			trim__sb_puts(sb, "        read-write: True\n");
	}
	trim__sb_puts(sb, "  instance:\n");
	for (int k = 0; k < TRIM_NDIMS; k++)
		if (tl_has(w, tl_order[k]))
			trim__sb_printf(sb, "    %c: %lld\n", tl_letter[tl_order[k]], (long long)w->bound[tl_order[k]]);
	for (int i = 0; i < nc; i++)
		trim__sb_printf(sb, "    %s: %lld\n", cs[i].name, (long long)cs[i].value);
}

/* "C3 M16 ..." (what timeloop-mapper writes; every dim, in the problem's
 * order), with Timeloop's residual "P14,13" where res[d] (NULL: none) is
 * below the bound. */
static void write_factors(const trim__intra *w, const int64_t *f, const int64_t *res, trim__sb *sb)
{
	trim__sb_puts(sb, "    factors: ");
	int first = 1;
	for (int k = 0; k < TRIM_NDIMS; k++)
		if (tl_has(w, tl_order[k])) {
			const int d = tl_order[k];
			trim__sb_printf(sb, "%s%c%lld", first ? "" : " ", tl_letter[d], (long long)f[d]);
			if (res && res[d] && res[d] != f[d])
				trim__sb_printf(sb, ",%lld", (long long)res[d]);
			first = 0;
		}
	trim__sb_putc(sb, '\n');
}

/* An imperfect factorisation's residuals at level l (Timeloop: the
 * iterations in the last pass of the parent): the digits of the last point
 * (bound - 1) in the radix of the bounds, plus 1; dig[d] the digit itself. */
static void residuals(const trim__mapping *m, const trim__intra *w, int l, int64_t *res, int64_t *dig)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t stride = 1;
		for (int k = l + 1; k < m->nlevels; k++)
			stride *= m->f[k][d];
		dig[d] = (w->bound[d] - 1) / stride % m->f[l][d];
		res[d] = dig[d] + 1;
	}
}

/* One spatial directive with factors f: X loops first, then Y, then the dims
 * with bound 1, split = the X loops. axis 1: every loop along X, 0: along Y,
 * -1: as fx / fy say. */
static void write_spatial(const trim__intra *w, const char *target, const int64_t *f, const int64_t *res,
                          const int64_t *fx, const int64_t *fy, int axis, trim__sb *sb)
{
	char perm[TRIM_NDIMS + 1];
	int n = 0, split = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int k = 0; k < TRIM_NDIMS; k++) {
			int d = tl_order[k];
			if (!tl_has(w, d))
				continue;
			int x = axis < 0 ? fx[d] > 1 : axis == 1 && f[d] > 1;
			int y = axis < 0 ? !x && fy[d] > 1 : axis == 0 && f[d] > 1;
			if ((pass == 0 && x) || (pass == 1 && y) || (pass == 2 && !x && !y)) {
				perm[n++] = tl_letter[d];
				split += pass == 0;
			}
		}
	perm[n] = 0;
	trim__sb_puts(sb, "  - target: ");
	yq(sb, target);
	trim__sb_puts(sb, "\n    type: spatial\n");
	write_factors(w, f, res, sb);
	trim__sb_printf(sb, "    permutation: %s\n    split: %d\n", perm, split);
}

static void write_mapping(const trim__mapping *m, const trim__intra *w, trim__sb *sb)
{
	trim__sb_puts(sb, "mapping:\n");
	int parent = -1; /* the storage level above a spatial level: Timeloop's target */
	for (int l = 0; l < m->nlevels; l++) {
		if (m->type[l] == TRIM__LVL_COMPUTE)
			break;
		if (m->type[l] == TRIM__LVL_STORAGE) {
			parent = l;
			trim__sb_puts(sb, "  - target: ");
			yq(sb, m->name[l]);
			trim__sb_puts(sb, "\n    type: temporal\n");
			int64_t res[TRIM_NDIMS], dig[TRIM_NDIMS];
			residuals(m, w, l, res, dig);
			write_factors(w, m->f[l], res, sb);
			trim__sb_puts(sb, "    permutation: "); /* innermost first */
			for (int k = TRIM_NDIMS - 1; k >= 0; k--)
				if (tl_has(w, m->order[l][k]))
					trim__sb_putc(sb, tl_letter[m->order[l][k]]);
			trim__sb_puts(sb, "\n  - target: ");
			yq(sb, m->name[l]);
			trim__sb_puts(sb, "\n    type: datatype\n    keep: [");
			int f = 1;
			for (int t = 0; t < 3; t++)
				if (w->t[t].present && m->keep[l][t]) {
					trim__sb_printf(sb, "%s%s", f ? "" : ", ", tl_space[t]);
					f = 0;
				}
			trim__sb_puts(sb, "]\n    bypass: [");
			f = 1;
			for (int t = 0; t < 3; t++)
				if (w->t[t].present && !m->keep[l][t]) {
					trim__sb_printf(sb, "%s%s", f ? "" : ", ", tl_space[t]);
					f = 0;
				}
			trim__sb_puts(sb, "]\n");
		} else {
			/* Timeloop names the storage level above the fan-out; libtrim's
			 * reader also takes the spatial level's own name */
			const char *target = parent >= 0 && parent == l - 1 ? m->name[parent] : m->name[l];
			int both = 0;
			for (int d = 0; d < TRIM_NDIMS; d++)
				both |= m->fx[l][d] > 1 && m->fy[l][d] > 1;
			int64_t res[TRIM_NDIMS], dig[TRIM_NDIMS], rx[TRIM_NDIMS], ry[TRIM_NDIMS];
			residuals(m, w, l, res, dig);
			for (int d = 0; d < TRIM_NDIMS; d++) { /* the X loop outside the Y loop */
				rx[d] = dig[d] / m->fy[l][d] + 1;
				ry[d] = dig[d] % m->fy[l][d] + 1;
			}
			if (!both) {
				write_spatial(w, target, m->f[l], res, m->fx[l], m->fy[l], -1, sb);
			} else {
				/* a dim split over X and Y: Timeloop gives a dim one loop per
				 * fan-out, so the array is two fan-outs, X then Y */
				trim__sb_printf(sb, "  # %s splits a dim over X and Y: Timeloop needs two fan-outs, the X one\n"
				                "  # below %s and the Y one below a bypass-all level between it and the PEs\n"
				                "  # (Timeloop's Eyeriss: DummyBuffer): rename the second target to that level\n",
				                m->name[l], target);
				write_spatial(w, target, m->fx[l], rx, m->fx[l], m->fy[l], 1, sb);
				write_spatial(w, m->name[l], m->fy[l], ry, m->fx[l], m->fy[l], 0, sb);
			}
		}
	}
}

int trim_mapping_dump_timeloop(const trim_mapping *m, const trim_workloads *w, size_t i,
                               const trim_arch *arch, char **out)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!m || !w || !arch || !out)
		return trim__error(TRIM_EINVAL, "trim_mapping_dump_timeloop: NULL argument");
	*out = NULL;
	const trim__intra *x = trim__workloads_intra(w, i);
	if (!x)
		return trim__error(TRIM_ENOTFOUND, "trim_mapping_dump_timeloop: no intra workload %zu", i);
	int rc = trim_mapping_check(m, w, i, arch);
	if (rc)
		return rc;
	if (m->ngroups) {
		char name[TRIM_NDIMS + 1];
		return trim__error(TRIM_EINVAL, "trim_mapping_dump_timeloop: the mapping has the flattened group %s "
		                   "(several dims as one index, cut in pieces with a ragged last one), which Timeloop's "
		                   "mapping format has no way to write: not exported (docs/mapping.md, \"Flattened groups\")",
		                   trim__flat_group_name(m, 0, name));
	}
	trim__sb sb;
	trim__sb_init(&sb);
	trim__sb_printf(&sb, "# %s %s (%s) mapped by libtrim %s onto architecture %s, in Timeloop's\n"
	                "# format: run timeloop-model with this file and an architecture whose storage\n"
	                "# levels have these names. Tensors by role: Inputs, Weights, Outputs.\n",
	                x->layer, trim_phase_name(x->phase), trim_workload_kind_name(x->kind),
	                trim_version_string(), arch->name);
	if (trim__mapping_ragged(m, x))
		trim__sb_puts(&sb, "# An imperfect factorisation: some factors multiply past the problem's bound\n"
		                   "# (ragged last tiles, docs/model.md), written with Timeloop's residuals (P14,13:\n"
		                   "# 13 iterations in the last pass); not run through timeloop-model here.\n");
	write_problem(x, &sb);
	write_mapping(m, x, &sb);
	return trim__sb_take(&sb, out);
}
