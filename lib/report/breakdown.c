/*
 * The breakdown of one evaluated workload per (level, tensor, action), its
 * temporal utilisation and bottleneck (docs/guide.md, "Reports"). The
 * counts are the activity analyst's; each energy is the count times the
 * per-word (or per-MAC) cost the evaluator charges for that action.
 */
#include <string.h>

#include "report_int.h"

const char *const trim__slot_names[3] = {"input", "weight", "output"};

static const char *const action_names[TRIM_ACT_COUNT] = {
	"reads", "fills", "updates", "drains", "unicast", "multicast", "reductions", "macs", "static",
	"sparse"};

const char *trim_action_name(int action)
{
	return action >= 0 && action < TRIM_ACT_COUNT ? action_names[action] : NULL;
}

size_t trim_breakdown_size(int levels)
{
	return levels > 0 ? TRIM__BD_SIZE(levels) : 0;
}

double trim__wview_cycles(const trim__wview *v) { return v->sp ? v->sp->cycles : v->dense->cycles; }
double trim__wview_energy(const trim__wview *v) { return v->sp ? v->sp->energy_pj : v->dense->energy_pj; }

double trim__wview_compute_cycles(const trim__wview *v, const struct trim_arch *a)
{
	return v->sp ? v->sp->compute_cycles : v->dense->level_cycles[a->nlevels - 1];
}

double trim__wview_executed_macs(const trim__wview *v, const struct trim_arch *a)
{
	if (v->sp)
		return v->sp->effective_macs;
	const trim__activity *x = &v->dense->act;
	return (double)(a->lv[a->nlevels - 1].zero_skip ? x->macs - x->zero_macs : x->macs);
}

double trim__arch_peak_macs_per_cycle(const struct trim_arch *a)
{
	const trim__level *C = &a->lv[a->nlevels - 1];
	double pes = (double)(a->total_pes > 0 ? a->total_pes : 1);
	return pes * (double)(C->macs_per_cycle > 0 ? C->macs_per_cycle : 1);
}

double trim__wview_temporal_util(const trim__wview *v, const struct trim_arch *a)
{
	double cyc = trim__wview_cycles(v);
	return cyc > 0 ? trim__wview_executed_macs(v, a) / (trim__arch_peak_macs_per_cycle(a) * cyc) : 0;
}

int trim__wview_bottleneck(const trim__wview *v, const struct trim_arch *a)
{
	const int c = a->nlevels - 1;
	double cyc = 0;
	int b = c;
	for (int l = 0; l < a->nlevels; l++) {
		double lc = v->sp ? v->sp->level_cycles[l]
		                  : l == c ? trim__wview_compute_cycles(v, a) : v->dense->level_cycles[l];
		if (lc > cyc) {
			cyc = lc;
			b = l;
		}
	}
	return b;
}

void trim__breakdown(const trim__wview *v, const struct trim_arch *a, const trim__level_cost *costs,
                     double *count, double *energy)
{
	const size_t size = TRIM__BD_SIZE(a->nlevels);
	double scratch_c[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], scratch_e[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
	if (!count)
		count = scratch_c;
	if (!energy)
		energy = scratch_e;
	memset(count, 0, size * sizeof *count);
	memset(energy, 0, size * sizeof *energy);
	const trim__eval *d = v->dense;
	const trim__activity *x = &d->act;
	const double cyc = trim__wview_cycles(v);
	/* leakage runs over the workload's time: the dense leakage, scaled like
	 * the sparse adjustment scales it */
	const double leak_scale = v->sp ? (d->cycles > 0 ? v->sp->cycles / d->cycles : 0) : 1;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		const trim__level_cost *c = &costs[l];
		for (int t = 0; t < 3; t++) {
			if (!v->w->t[t].present && L->type != TRIM__LVL_COMPUTE)
				continue;
#define PUT(act, n, pj)                                  \
	do {                                                 \
		count[TRIM__BD_AT(l, t, act)] = (double)(n);     \
		energy[TRIM__BD_AT(l, t, act)] = (double)(n) * (pj); \
	} while (0)
			if (L->type == TRIM__LVL_STORAGE) {
				PUT(TRIM_ACT_READS, x->reads[l][t], c->read_pj);
				PUT(TRIM_ACT_FILLS, x->fills[l][t], c->write_pj);
				PUT(TRIM_ACT_UPDATES, x->updates[l][t], c->update_pj);
				PUT(TRIM_ACT_DRAINS, x->drains[l][t], trim__drain_pj(c));
			} else if (L->type == TRIM__LVL_SPATIAL) {
				/* the evaluator (trim__net_pj): unicast words at the mean
				 * hops, multicast arrivals (words on a bus) and words up at
				 * the hops of a forwarded word */
				double per = c->hop_pj * (c->avg_hops > 0 ? c->avg_hops : 1);
				double fwd = c->hop_pj * trim__net_hop_fwd(c);
				int bus = L->net == TRIM__NET_BUS;
				PUT(TRIM_ACT_UNICAST, x->unicast[l][t], per);
				count[TRIM__BD_AT(l, t, TRIM_ACT_MULTICAST)] = (double)x->mcast[l][t];
				energy[TRIM__BD_AT(l, t, TRIM_ACT_MULTICAST)] =
					bus ? (double)x->mcast[l][t] * per : (double)x->mcast_dests[l][t] * fwd;
				count[TRIM__BD_AT(l, t, TRIM_ACT_REDUCTIONS)] = (double)x->reductions[l][t];
				energy[TRIM__BD_AT(l, t, TRIM_ACT_REDUCTIONS)] =
					(double)x->up_words[l][t] * (bus ? per : fwd) +
					trim__net_drained(x->exact && !bus, (double)x->up_words[l][t], (double)x->reductions[l][t]) *
					(per - fwd);
			} else if (t == 0) {
				count[TRIM__BD_AT(l, 0, TRIM_ACT_MACS)] = (double)x->macs;
				energy[TRIM__BD_AT(l, 0, TRIM_ACT_MACS)] = v->sp ? v->sp->mac_pj : d->mac_pj;
				if (v->sp)
					energy[TRIM__BD_AT(l, 0, TRIM_ACT_SPARSE)] =
						v->sp->metadata_pj + v->sp->encode_pj - v->sp->saved_access_pj;
			}
#undef PUT
		}
		count[TRIM__BD_AT(l, 0, TRIM_ACT_STATIC)] = cyc;
		energy[TRIM__BD_AT(l, 0, TRIM_ACT_STATIC)] = d->static_pj[l] * leak_scale;
	}
}

/* The actions that apply to a level of type `type`. */
static int applies(int type, int act)
{
	if (act == TRIM_ACT_STATIC)
		return 1;
	switch (type) {
	case TRIM__LVL_STORAGE: return act <= TRIM_ACT_DRAINS;
	case TRIM__LVL_SPATIAL: return act >= TRIM_ACT_UNICAST && act <= TRIM_ACT_REDUCTIONS;
	default: return act == TRIM_ACT_MACS || act == TRIM_ACT_SPARSE;
	}
}

static void entry_json(trim__sb *sb, const char *key, double count, double energy, int comma)
{
	trim__sb_printf(sb, "%s\"%s\": {\"count\": ", comma ? ", " : "", key);
	trim__sb_json_double(sb, count);
	trim__sb_puts(sb, ", \"energy_pj\": ");
	trim__sb_json_double(sb, energy);
	trim__sb_putc(sb, '}');
}

void trim__breakdown_json(const trim__intra *w, const struct trim_arch *a, const double *count,
                          const double *energy, trim__sb *sb)
{
	trim__sb_putc(sb, '{');
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		trim__sb_puts(sb, l ? ", " : "");
		trim__sb_json_str(sb, L->name);
		trim__sb_puts(sb, ": {");
		size_t st = TRIM__BD_AT(l, 0, TRIM_ACT_STATIC);
		entry_json(sb, "static", count[st], energy[st], 0);
		if (L->type == TRIM__LVL_COMPUTE) {
			for (int k = TRIM_ACT_MACS; k <= TRIM_ACT_SPARSE; k++)
				if (k != TRIM_ACT_STATIC)
					entry_json(sb, action_names[k], count[TRIM__BD_AT(l, 0, k)],
					           energy[TRIM__BD_AT(l, 0, k)], 1);
			trim__sb_putc(sb, '}');
			continue;
		}
		for (int t = 0; t < 3; t++) {
			if (!w->t[t].present)
				continue;
			trim__sb_printf(sb, ", \"%s\": {", trim__slot_names[t]);
			int first = 1;
			for (int k = 0; k < TRIM_ACT_COUNT; k++) {
				if (k == TRIM_ACT_STATIC || !applies(L->type, k))
					continue;
				entry_json(sb, action_names[k], count[TRIM__BD_AT(l, t, k)],
				           energy[TRIM__BD_AT(l, t, k)], !first);
				first = 0;
			}
			trim__sb_putc(sb, '}');
		}
		trim__sb_putc(sb, '}');
	}
	trim__sb_putc(sb, '}');
}

void trim__breakdown_csv(const trim__intra *w, const struct trim_arch *a, const double *count,
                         const double *energy, const char *prefix, trim__sb *sb)
{
	for (int l = 0; l < a->nlevels; l++)
		for (int t = 0; t < 3; t++)
			for (int k = 0; k < TRIM_ACT_COUNT; k++) {
				size_t at = TRIM__BD_AT(l, t, k);
				int whole = a->lv[l].type == TRIM__LVL_COMPUTE || k == TRIM_ACT_STATIC;
				if (!applies(a->lv[l].type, k) || (whole ? t != 0 : !w->t[t].present))
					continue;
				trim__sb_puts(sb, prefix);
				trim__sb_csv_str(sb, a->lv[l].name);
				trim__sb_printf(sb, ",%s,%s,%.17g,%.17g\n", whole ? "all" : trim__slot_names[t],
				                action_names[k], count[at], energy[at]);
			}
}

void trim__breakdown_levels(const struct trim_arch *a, const double *energy, double *out)
{
	for (int l = 0; l < a->nlevels; l++) {
		out[l] = 0;
		for (int t = 0; t < 3; t++)
			for (int k = 0; k < TRIM_ACT_COUNT; k++)
				out[l] += energy[TRIM__BD_AT(l, t, k)];
	}
}

void trim__breakdown_tensors(const struct trim_arch *a, const double *energy, double *out)
{
	for (int t = 0; t < 3; t++) {
		out[t] = 0;
		for (int l = 0; l < a->nlevels; l++) {
			if (a->lv[l].type == TRIM__LVL_COMPUTE)
				continue;
			for (int k = 0; k < TRIM_ACT_COUNT; k++)
				if (k != TRIM_ACT_STATIC)
					out[t] += energy[TRIM__BD_AT(l, t, k)];
		}
	}
}
