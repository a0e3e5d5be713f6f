/*
 * The design's roofline (docs/arch.md, "Roofline"): the peak MACs per cycle
 * and, for every level, the words per cycle the evaluator lets it move
 * (docs/model.md, "Evaluator": a storage level's read_bw and write_bw times
 * its instances, a network's link_bits / word_bits times its instances, one
 * width per tensor with one network per tensor), and the ridge of each: the
 * MACs a layer must do per word moved there for that level to keep up with
 * the MACs at peak. Nothing here is a new equation: each figure is the
 * denominator of the evaluator's cycles_l.
 */
#include <stdio.h>
#include <string.h>

#include "report/report_int.h"

static double word_bits_of(const struct trim_arch *a)
{
	return a->word_bits > 0 ? (double)a->word_bits : 16;
}

/* Link words per cycle of one instance of spatial level L, per tensor slot
 * (one link: the same width for all three, shared). */
static void link_words(const struct trim_arch *a, const trim__level *L, double *out)
{
	int per_tensor = L->link_t[0] > 0 || L->link_t[1] > 0 || L->link_t[2] > 0;
	for (int t = 0; t < 3; t++) {
		int bits = per_tensor ? L->link_t[t] : L->link_bits;
		out[t] = bits > 0 ? (double)bits / word_bits_of(a) : 0;
	}
}

static double ratio(double peak, double words) { return words > 0 ? peak / words : 0; }

void trim__roofline_make(const struct trim_arch *a, trim__roofline *r)
{
	memset(r, 0, sizeof *r);
	r->peak = trim__arch_peak_macs_per_cycle(a);
	r->nlevels = a->nlevels;
	r->binds_first = -1;
	double worst = 0;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		trim__roof_level *o = &r->lv[l];
		double inst = (double)(L->instances > 0 ? L->instances : 1);
		if (L->type == TRIM__LVL_STORAGE) {
			o->read_words = L->read_bw > 0 ? L->read_bw * inst : 0;
			o->write_words = L->write_bw > 0 ? L->write_bw * inst : 0;
			o->read_ridge = ratio(r->peak, o->read_words);
			o->write_ridge = ratio(r->peak, o->write_words);
			o->ridge = o->read_ridge > o->write_ridge ? o->read_ridge : o->write_ridge;
		} else if (L->type == TRIM__LVL_SPATIAL) {
			double w[3];
			link_words(a, L, w);
			o->per_tensor = L->link_t[0] > 0 || L->link_t[1] > 0 || L->link_t[2] > 0;
			for (int t = 0; t < 3; t++) {
				o->link_words[t] = w[t] * inst;
				o->link_ridge[t] = ratio(r->peak, o->link_words[t]);
				if (o->link_ridge[t] > o->ridge)
					o->ridge = o->link_ridge[t];
			}
			/* a multicast word reaches up to every child of its instance at once */
			o->delivered_words = o->link_words[0] + (o->per_tensor ? o->link_words[1] + o->link_words[2] : 0);
			if (L->multicast)
				o->delivered_words *= (double)(L->fanout_x * L->fanout_y);
		}
		if (o->ridge > worst) {
			worst = o->ridge;
			r->binds_first = l;
		}
	}
}

int trim__arch_link_starved(const struct trim_arch *a, int l, double *children_per_word)
{
	const trim__level *L = &a->lv[l];
	if (L->type != TRIM__LVL_SPATIAL)
		return 0;
	double w[3];
	link_words(a, L, w);
	double words = L->link_t[0] > 0 || L->link_t[1] > 0 || L->link_t[2] > 0 ? w[0] + w[1] + w[2] : w[0];
	if (!(words > 0))
		return 0;
	double per = (double)(L->fanout_x * L->fanout_y) / words;
	if (children_per_word)
		*children_per_word = per;
	return per >= TRIM__WARN_ARRAY_DESTS;
}

/* "unlimited" for 0 words per cycle, else the figure with up to 4 digits. */
static void put_words(trim__sb *sb, double w)
{
	if (w > 0)
		trim__sb_printf(sb, "%.4g", w);
	else
		trim__sb_puts(sb, "unlimited");
}

static void put_ridge(trim__sb *sb, double ridge)
{
	if (ridge > 0)
		trim__sb_printf(sb, "%.4g", ridge);
	else
		trim__sb_puts(sb, "-");
}

void trim__roofline_table(const struct trim_arch *a, const trim__roofline *r, trim__sb *sb)
{
	const trim__level *C = &a->lv[a->nlevels - 1];
	static const char *const slot[3] = {"input", "weight", "output"};
	trim__sb_printf(sb, "roofline: peak %.6g MACs per cycle (%lld PEs x %d)\n", r->peak,
	                (long long)a->total_pes, C->macs_per_cycle > 0 ? C->macs_per_cycle : 1);
	trim__sb_printf(sb, "  %-16s %-44s %s\n", "level", "words per cycle (all instances)",
	                "MACs per word to keep up");
	for (int l = 0; l < a->nlevels - 1; l++) {
		const trim__level *L = &a->lv[l];
		const trim__roof_level *o = &r->lv[l];
		trim__sb sw, sr;
		trim__sb_init(&sw);
		trim__sb_init(&sr);
		if (L->type == TRIM__LVL_STORAGE) {
			trim__sb_puts(&sw, "read ");
			put_words(&sw, o->read_words);
			trim__sb_puts(&sw, ", write ");
			put_words(&sw, o->write_words);
			trim__sb_puts(&sr, "read ");
			put_ridge(&sr, o->read_ridge);
			trim__sb_puts(&sr, ", write ");
			put_ridge(&sr, o->write_ridge);
		} else if (o->per_tensor) {
			for (int t = 0; t < 3; t++) {
				trim__sb_printf(&sw, "%s%s ", t ? ", " : "", slot[t]);
				put_words(&sw, o->link_words[t]);
				trim__sb_printf(&sr, "%s%s ", t ? ", " : "", slot[t]);
				put_ridge(&sr, o->link_ridge[t]);
			}
		} else {
			trim__sb_puts(&sw, "link ");
			put_words(&sw, o->link_words[0]);
			if (L->multicast && o->link_words[0] > 0)
				trim__sb_printf(&sw, " (multicast: up to %.4g arrive)", o->delivered_words);
			put_ridge(&sr, o->ridge);
		}
		trim__sb_printf(sb, "  %-16s %-44s %s%s\n", L->name, sw.len ? sw.buf : "",
		                sr.len ? sr.buf : "", l == r->binds_first ? "  <- binds first" : "");
		trim__sb_free(&sw);
		trim__sb_free(&sr);
	}
	if (r->binds_first < 0) {
		trim__sb_puts(sb, "  every level is unlimited: the cycles are the MACs' alone\n");
		return;
	}
	trim__sb_printf(sb,
	                "  a layer doing fewer MACs per word moved through a level than its figure is bound "
	                "by that level;\n  %s needs the most (%.4g): it binds a layer whose reuse is equal at "
	                "every level first\n",
	                a->lv[r->binds_first].name, r->lv[r->binds_first].ridge);
}

static void json_pair(trim__sb *sb, const char *key, double v, int comma)
{
	trim__sb_json_str(sb, key);
	trim__sb_putc(sb, ':');
	trim__sb_json_double(sb, v);
	if (comma)
		trim__sb_putc(sb, ',');
}

void trim__roofline_json(const struct trim_arch *a, const trim__roofline *r, trim__sb *sb)
{
	static const char *const slot[3] = {"input", "weight", "output"};
	trim__sb_puts(sb, "{");
	json_pair(sb, "peak_macs_per_cycle", r->peak, 1);
	trim__sb_puts(sb, "\"binds_first\":");
	trim__sb_json_str(sb, r->binds_first >= 0 ? a->lv[r->binds_first].name : "");
	trim__sb_puts(sb, ",\"levels\":[");
	int first = 1;
	for (int l = 0; l < a->nlevels - 1; l++) {
		const trim__level *L = &a->lv[l];
		const trim__roof_level *o = &r->lv[l];
		trim__sb_puts(sb, first ? "{\"name\":" : ",{\"name\":");
		first = 0;
		trim__sb_json_str(sb, L->name);
		trim__sb_putc(sb, ',');
		if (L->type == TRIM__LVL_STORAGE) {
			json_pair(sb, "read_words_per_cycle", o->read_words, 1);
			json_pair(sb, "write_words_per_cycle", o->write_words, 1);
			json_pair(sb, "read_macs_per_word", o->read_ridge, 1);
			json_pair(sb, "write_macs_per_word", o->write_ridge, 1);
		} else {
			trim__sb_puts(sb, "\"link_words_per_cycle\":{");
			for (int t = 0; t < 3; t++) {
				json_pair(sb, slot[t], o->link_words[t], t < 2);
			}
			trim__sb_printf(sb, "},\"shared_link\":%s,", o->per_tensor ? "false" : "true");
			json_pair(sb, "delivered_words_per_cycle", o->delivered_words, 1);
		}
		json_pair(sb, "macs_per_word", o->ridge, 0);
		trim__sb_puts(sb, "}");
	}
	trim__sb_puts(sb, "]}");
}
