/*
 * Fused tiles in the explorer (trim_explorer_set_fuse; docs/fusion.md,
 * "Interfaces"): each valid point's chains planned by lib/fusedtiles/ on
 * the point's architecture, as `trim network --fuse` plans them, and the
 * point's figures made the fused plan's.
 *
 * The network evaluation (lib/neteval/) gives the point's figures layer by
 * layer: every intra workload's best mapping plus the inter-layer work.
 * The chains' plans give, over the same layers and the vector work between
 * them, the figures of the fused plan and of its own layer-by-layer plan
 * (the per-layer search alone, the same search the network evaluation runs
 * when neither has constraints, pruning or a gap: refused here). The
 * point's figures are the layer-by-layer ones less the difference, so the
 * layers outside chains and the inter-layer workloads keep the network
 * evaluation's figures, and a chain costs what `trim network --fuse`
 * reports for it. On the goal's figure the difference is >= 0 (the
 * layer-by-layer plan is a candidate); the other figure may grow (an
 * energy-optimal plan may take more cycles).
 *
 * The proof: with L a lower bound of the layer-by-layer figure (the network
 * evaluation's), C_lbl the chains' layer-by-layer cost found and F the
 * lower bound of every plan of the chains, every choice of plans and
 * mappings costs at least L - C_lbl + F (the layers outside the chains cost
 * at least L - C_lbl, since their chains' optimum alone is at most C_lbl);
 * the point is exact when both are (lib/explore/bound.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "fusedtiles/fusedtiles_int.h"
#include "neteval/neteval_state.h"
#include "trim/energy.h"
#include "trim/search.h"

void trim__explore_fuse_free(trim_explorer *ex)
{
	free(ex->fuse);
	free(ex->fuse_level);
	ex->fuse = ex->fuse_level = NULL;
}

int trim_explorer_set_fuse(trim_explorer *ex, const char *range, const char *level)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_fuse: NULL handle");
	if (ex->next > 0 || ex->resumed)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_fuse: set before the first step");
	if (ex->dir)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_fuse: fused tiles are not kept in an output "
		                   "directory's point files yet");
	if (!range && level)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_fuse: a buffer level '%s' needs a range", level);
	int first, last, B, rc = 0;
	if (range && (rc = trim__ft_find_range(ex->w, range, &first, &last)))
		return rc;
	if (range && trim_space_count(ex->space) > 0) {
		/* the points share the base's level names: check once */
		trim_arch *a = NULL;
		rc = trim_space_point_arch(ex->space, 0, &a);
		if (rc == 0)
			rc = trim__ft_find_level(a, level, &B);
		trim_arch_free(a);
		if (rc)
			return rc;
	}
	char *r = range ? trim__strdup(range) : NULL, *l = level ? trim__strdup(level) : NULL;
	if ((range && !r) || (level && !l)) {
		free(r);
		free(l);
		return TRIM_ENOMEM;
	}
	trim__explore_fuse_free(ex);
	ex->fuse = r;
	ex->fuse_level = l;
	return 0;
}

/* What the explorer is set to that fused tiles do not take yet: a name, or NULL. */
static const char *not_taken(const trim_explorer *ex)
{
	if (ex->goal != TRIM_EXPLORE_ENERGY && ex->goal != TRIM_EXPLORE_DELAY)
		return "a goal other than energy or delay (fused groups are searched for one of them)";
	return ex->cons ? "dataflow constraints (the space's mapspace_constraints or trim_explorer_set_constraints)"
	       : ex->imperfect ? "imperfect factorisations (TRIM_EX_IMPERFECT)"
	       : ex->max_mappings > 0 ? "a mapping limit (TRIM_EX_MAX_MAPPINGS)"
	       : ex->min_pe > 0 || ex->min_rf > 0 ? "utilisation pruning (TRIM_EX_MIN_PE_UTIL, _MIN_RF_UTIL)"
	       : ex->gap > 0 ? "a search gap (TRIM_EX_GAP)" : NULL;
}

/* Point p's figures made the fused plan's (t), its layer-by-layer ones kept. */
static void apply(const trim_explorer *ex, const trim__ft_totals *t, trim__xpoint *p)
{
	trim__xfused *z = &p->fz;
	double *f = p->f;
	z->on = 1;
	z->chains = t->chains;
	z->groups = t->fused_groups;
	z->exact = t->exact;
	z->stopped = t->stopped;
	z->cost = t->cost;
	z->lbl_cost = t->lbl_cost;
	z->lower_bound = t->lower_bound;
	z->dram = t->dram;
	z->lbl_dram = t->lbl_dram;
	z->buffer = (double)t->buffer;
	z->lbl_energy_pj = f[TRIM_XF_ENERGY_PJ];
	z->lbl_cycles = f[TRIM_XF_CYCLES];
	z->lbl_seconds = f[TRIM_XF_SECONDS];
	/* the goal's figure saves what trim network --fuse reports; the other
	 * figure changes by the plans' difference in it */
	const int delay = ex->goal == TRIM_EXPLORE_DELAY;
	double saved_pj = delay ? t->lbl_energy_pj - t->energy_pj : t->lbl_cost - t->cost;
	double saved_cycles = delay ? t->lbl_cost - t->cost : t->lbl_cycles - t->cycles;
	f[TRIM_XF_ENERGY_PJ] -= saved_pj;
	f[TRIM_XF_CYCLES] -= saved_cycles;
	if (z->lbl_cycles > 0)
		f[TRIM_XF_SECONDS] = z->lbl_seconds * (f[TRIM_XF_CYCLES] / z->lbl_cycles);
	f[TRIM_XF_EDP] = f[TRIM_XF_CYCLES] * f[TRIM_XF_ENERGY_PJ];
}

int trim__explore_fuse_point(const trim_explorer *ex, size_t i, int threads, trim__xpoint *p)
{
	if (!ex->fuse || !p->valid)
		return 0;
	const char *name = trim_space_point_name(ex->space, i);
	const char *other = not_taken(ex);
	if (other) {
		trim__explore_point_clear(p);
		return trim__error(TRIM_EINVAL, "%s: fused tiles (trim_explorer_set_fuse) do not take %s yet",
		                   name ? name : "point", other);
	}
	trim_arch *arch = NULL;
	trim_energy *table = NULL;
	trim__ft_totals t;
	int rc = trim_space_point_arch(ex->space, i, &arch);
	if (rc == 0)
		rc = trim_energy_load_for_arch(&table, arch);
	if (rc == 0 && ex->sparsity && trim__neteval_sparse_hardware(arch))
		rc = trim__error(TRIM_EINVAL, "fused tiles are planned on dense figures and %s gates or skips zeros: "
		                 "explore with sparsity off (TRIM_EX_SPARSITY 0, --dense)", arch->name);
	if (rc == 0)
		rc = trim__ft_network_totals(ex->net, ex->w, arch, table, ex->fuse, ex->fuse_level,
		                             ex->goal == TRIM_EXPLORE_DELAY ? TRIM_GOAL_DELAY : TRIM_GOAL_ENERGY, threads,
		                             ex->time_limit, &t);
	if (rc == 0) {
		apply(ex, &t, p);
		trim__explore_point_bound(ex, p);
	}
	trim_energy_free(table);
	trim_arch_free(arch);
	if (rc) {
		trim__error_prefix(name ? name : "point");
		trim__explore_point_clear(p);
	}
	return rc;
}

int trim_explorer_point_fused(const trim_explorer *ex, size_t i, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out || n < TRIM_XFU_COUNT)
		return trim__error(TRIM_EINVAL, "trim_explorer_point_fused: needs room for %d values", TRIM_XFU_COUNT);
	if (i >= ex->n || !ex->pt[i].done)
		return trim__error(TRIM_EINVAL, "trim_explorer_point_fused: point %zu is not evaluated", i);
	const trim__xfused *z = &ex->pt[i].fz;
	for (int k = 0; k < TRIM_XFU_COUNT; k++)
		out[k] = 0;
	out[TRIM_XFU_PLANNED] = z->on;
	out[TRIM_XFU_CHAINS] = z->chains;
	out[TRIM_XFU_FUSED_GROUPS] = z->groups;
	out[TRIM_XFU_DRAM_BYTES] = z->dram;
	out[TRIM_XFU_LBL_DRAM_BYTES] = z->lbl_dram;
	out[TRIM_XFU_DRAM_SAVED] = z->lbl_dram - z->dram;
	out[TRIM_XFU_BUFFER_BYTES] = z->buffer;
	out[TRIM_XFU_COST] = z->on ? z->cost : NAN;
	out[TRIM_XFU_LBL_COST] = z->on ? z->lbl_cost : NAN;
	out[TRIM_XFU_LOWER_BOUND] = z->on ? z->lower_bound : NAN;
	out[TRIM_XFU_EXACT] = z->on && z->exact;
	out[TRIM_XFU_LBL_ENERGY_PJ] = z->on ? z->lbl_energy_pj : NAN;
	out[TRIM_XFU_LBL_CYCLES] = z->on ? z->lbl_cycles : NAN;
	return 0;
}

/* ---- the reports' parts ----------------------------------------------------- */

/* Point i's "fused" member, into its JSON object (which ends sb). */
void trim__explore_fuse_json(const trim_explorer *ex, size_t i, trim__sb *sb)
{
	const trim__xfused *z = &ex->pt[i].fz;
	if (!ex->fuse || !z->on || sb->len == 0 || sb->buf[sb->len - 1] != '}')
		return;
	sb->buf[--sb->len] = '\0'; /* into the point's object */
	trim__sb_printf(sb, ", \"fused\": {\"buffer_bytes\": %.17g, \"chains\": %d, \"cost\": ", z->buffer, z->chains);
	trim__sb_json_double(sb, z->cost);
	trim__sb_printf(sb, ", \"dram_bytes\": %.17g, \"dram_bytes_saved\": %.17g, \"exact\": %s, \"fused_groups\": %d, "
	                "\"layer_by_layer\": {\"cost\": ", z->dram, z->lbl_dram - z->dram, z->exact ? "true" : "false",
	                z->groups);
	trim__sb_json_double(sb, z->lbl_cost);
	trim__sb_printf(sb, ", \"cycles\": %.17g, \"dram_bytes\": %.17g, \"energy_pj\": %.17g}, \"lower_bound\": ",
	                z->lbl_cycles, z->lbl_dram, z->lbl_energy_pj);
	trim__sb_json_double(sb, z->lower_bound);
	trim__sb_printf(sb, ", \"range\": ");
	trim__sb_json_str(sb, ex->fuse);
	trim__sb_printf(sb, ", \"stopped\": %s}}", z->stopped ? "true" : "false");
}

void trim__explore_fuse_table(const trim_explorer *ex, int pw, trim__sb *sb)
{
	if (!ex->fuse)
		return;
	trim__sb_printf(sb, "\nfused tiles (--fuse %s): the chains' DRAM bytes and %s, fused and layer by layer\n",
	                ex->fuse, ex->goal == TRIM_EXPLORE_DELAY ? "cycles" : "energy (pJ)");
	trim__sb_printf(sb, "%-5s %-*s %14s %14s %14s %6s %12s %14s %14s %5s\n", "rank", pw, "point", "DRAM B",
	                "lbl DRAM B", "saved B", "groups", "buffer B", "cost", "lbl cost", "exact");
	for (size_t r = 0; r < ex->nranked; r++) {
		const trim__xfused *z = &ex->pt[ex->order[r]].fz;
		trim__sb_printf(sb, "%-5zu %-*s %14.0f %14.0f %14.0f %6d %12.0f %14.6g %14.6g %5s\n", r + 1, pw,
		                trim_space_point_name(ex->space, ex->order[r]), z->dram, z->lbl_dram, z->lbl_dram - z->dram,
		                z->groups, z->buffer, z->cost, z->lbl_cost, z->exact ? "yes" : "no");
	}
}

void trim__explore_fuse_csv(const trim_explorer *ex, long i, trim__sb *sb)
{
	if (!ex->fuse || i < 0) {
		trim__sb_puts(sb, !ex->fuse ? "\n" : ",fused_dram_bytes,lbl_dram_bytes,dram_bytes_saved,fused_groups,"
		              "fused_buffer_bytes,fused_cost,lbl_cost,fused_exact,lbl_energy_pj,lbl_cycles\n");
		return;
	}
	double f[TRIM_XFU_COUNT];
	trim_explorer_point_fused(ex, (size_t)i, f, TRIM_XFU_COUNT);
	trim__sb_printf(sb, ",%.17g,%.17g,%.17g,%.0f,%.17g,%.17g,%.17g,%d,%.17g,%.17g", f[TRIM_XFU_DRAM_BYTES],
	                f[TRIM_XFU_LBL_DRAM_BYTES], f[TRIM_XFU_DRAM_SAVED], f[TRIM_XFU_FUSED_GROUPS],
	                f[TRIM_XFU_BUFFER_BYTES], f[TRIM_XFU_COST], f[TRIM_XFU_LBL_COST], f[TRIM_XFU_EXACT] != 0,
	                f[TRIM_XFU_LBL_ENERGY_PJ], f[TRIM_XFU_LBL_CYCLES]);
	trim__sb_puts(sb, "\n");
}
