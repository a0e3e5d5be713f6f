/*
 * Figures of the HTML report drawn here, in C, as inline SVG text (the page's
 * script only inserts them): the network's energy by level and by tensor,
 * the area by level, the buffer occupancy per level, a roofline of every
 * workload, every workload's energy and cycles with the inter-layer ones,
 * and each mapping's tiles (html_tiles.c). Numbers are printed with %.4g
 * and coordinates with %.1f: the same data gives the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                     "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b",
                                     "#17becf", "#bcbd22", "#7f7f7f", "#d62728"};
#define NCOLORS (sizeof colors / sizeof colors[0])

const char *trim__html_color(int k) { return colors[(unsigned)k % NCOLORS]; }

void trim__html_xml(trim__sb *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': trim__sb_puts(sb, "&lt;"); break;
		case '>': trim__sb_puts(sb, "&gt;"); break;
		case '&': trim__sb_puts(sb, "&amp;"); break;
		case '"': trim__sb_puts(sb, "&quot;"); break;
		default: trim__sb_putc(sb, *s);
		}
	}
}

void trim__html_svg_open(trim__sb *sb, int w, int h, const char *cls)
{
	trim__sb_printf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	                    "class=\"%s\">", w, h, w, h, cls);
}

static void text(trim__sb *sb, double x, double y, const char *anchor, const char *s)
{
	trim__sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	trim__html_xml(sb, s);
	trim__sb_puts(sb, "</text>");
}

/* A figure of the page's list: {"title": ..., "svg": ...}. */
static void figure(trim__sb *out, int *first, const char *title, trim__sb *svg)
{
	trim__sb_puts(out, *first ? "" : ",\n");
	trim__sb_puts(out, "{\"title\": ");
	trim__sb_json_str(out, title);
	trim__sb_puts(out, ", \"svg\": ");
	trim__sb_json_str(out, svg->buf ? svg->buf : "");
	trim__sb_putc(out, '}');
	if (svg->failed)
		out->failed = 1;
	trim__sb_free(svg);
	trim__sb_init(svg);
	*first = 0;
}

/* One stacked bar of n parts and its legend (name, value, share) below. */
static void stacked(trim__sb *sb, int n, const double *v, const char *const *names, const char *unit)
{
	const int W = 1000, L = 10, R = 10, bh = 22, rows = (n + 1) / 2, H = bh + 16 + rows * 18;
	double sum = 0;
	for (int k = 0; k < n; k++)
		sum += v[k] > 0 ? v[k] : 0;
	trim__html_svg_open(sb, W, H, "figure");
	double x = L;
	for (int k = 0; k < n && sum > 0; k++) {
		if (!(v[k] > 0))
			continue;
		double w = v[k] / sum * (W - L - R);
		trim__sb_printf(sb, "<rect x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", x,
		                w > 0.5 ? w : 0.5, bh, trim__html_color(k));
		trim__html_xml(sb, names[k]);
		trim__sb_printf(sb, ": %.4g %s</title></rect>", v[k], unit);
		x += w;
	}
	for (int k = 0; k < n; k++) {
		double lx = L + (k % 2) * 490.0, ly = bh + 22 + (k / 2) * 18.0; /* two columns: long names fit */
		trim__sb_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>", lx, ly - 9,
		                trim__html_color(k));
		char lab[160];
		snprintf(lab, sizeof lab, "%s: %.4g %s (%.1f%%)", names[k], v[k], unit, sum > 0 ? 100 * v[k] / sum : 0.0);
		text(sb, lx + 14, ly, "start", lab);
	}
	if (!(sum > 0))
		text(sb, L, 20, "start", "none: every part is 0");
	trim__sb_puts(sb, "</svg>");
}

/* Horizontal bars of rows labelled lab[k], coloured by group g[k] (legend
 * groups[]), on a log axis when the positive values span two decades. */
static void bars(trim__sb *sb, size_t n, const char *const *lab, const double *v, const int *g,
                 const char *const *groups, int ngroups, const char *unit)
{
	const int W = 1000, L = 220, R = 110, bh = 14;
	int H = (int)n * (bh + 4) + 44;
	double mn = INFINITY, mx = 0;
	for (size_t k = 0; k < n; k++)
		if (v[k] > 0) {
			mn = fmin(mn, v[k]);
			mx = fmax(mx, v[k]);
		}
	int lg = mx > 0 && mx / mn >= 100;
	double lo = lg ? pow(10, floor(log10(mn))) : 0, hi = lg ? pow(10, ceil(log10(mx))) : (mx > 0 ? mx : 1);
	trim__html_svg_open(sb, W, H, "figure");
	for (int k = 0; k < ngroups; k++) {
		trim__sb_printf(sb, "<rect x=\"%d\" y=\"4\" width=\"10\" height=\"10\" fill=\"%s\"/>", L + k * 200,
		                trim__html_color(k));
		text(sb, L + k * 200 + 14, 13, "start", groups[k]);
	}
	for (size_t k = 0; k < n; k++) {
		double y = 22 + (double)k * (bh + 4), x = L;
		if (v[k] > 0)
			x = lg ? L + (log10(fmax(v[k], lo)) - log10(lo)) / (log10(hi) - log10(lo)) * (W - L - R)
			       : L + v[k] / hi * (W - L - R);
		text(sb, L - 6, y + bh - 3, "end", lab[k]);
		trim__sb_printf(sb, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", L, y,
		                x - L > 0.5 ? x - L : 0.5, bh, trim__html_color(g[k]));
		trim__html_xml(sb, lab[k]);
		trim__sb_printf(sb, ": %.4g %s</title></rect>", v[k], unit);
		char num[40];
		snprintf(num, sizeof num, "%.4g", v[k]);
		text(sb, x + 4, y + bh - 3, "start", num);
	}
	char axis[80];
	snprintf(axis, sizeof axis, "%.4g", lo);
	text(sb, L, H - 4, "start", axis);
	snprintf(axis, sizeof axis, "%.4g %s%s", hi, unit, lg ? " (log axis)" : "");
	text(sb, W - R, H - 4, "end", axis);
	trim__sb_puts(sb, "</svg>");
}

/* Buffer occupancy: rows workloads, columns the storage levels below the
 * outermost; a cell is the kept tiles' bytes over the capacity. */
static void occupancy(trim__sb *sb, const trim__html_detail *d)
{
	const struct trim_arch *a = d->arch;
	int cols[TRIM__MAX_LEVELS], nc = 0;
	for (int l = 1; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE)
			cols[nc++] = l;
	const int L = 220, cw = 110, ch = 18, W = L + (nc > 0 ? nc : 1) * cw + 10;
	int H = 24 + (int)d->n * ch + 6;
	trim__html_svg_open(sb, W, H, "figure");
	for (int c = 0; c < nc; c++)
		text(sb, L + c * cw + cw / 2.0, 16, "middle", a->lv[cols[c]].name);
	if (!nc)
		text(sb, L, 16, "start", "no storage level below the outermost");
	for (size_t k = 0; k < d->n; k++) {
		const trim__wview *v = &d->views[k];
		char lab[200];
		snprintf(lab, sizeof lab, "%s %s", v->w->layer, trim_phase_name(v->w->phase));
		double y = 22 + (double)k * ch;
		text(sb, L - 6, y + ch - 5, "end", lab);
		for (int c = 0; c < nc; c++) {
			int l = cols[c];
			double u = v->dense->cap_util[l];
			double op = 0.1 + 0.9 * fmin(fmax(u, 0), 1);
			trim__sb_printf(sb, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#4e79a7\" "
			                    "fill-opacity=\"%.3f\" stroke=\"#fff\"><title>",
			                L + c * cw, y, cw, ch, op);
			trim__html_xml(sb, lab);
			trim__sb_puts(sb, " at ");
			trim__html_xml(sb, a->lv[l].name);
			trim__sb_printf(sb, ": %lld of %lld bytes per instance</title></rect>",
			                (long long)v->dense->cap_bytes[l], (long long)a->lv[l].capacity_bytes);
			char pct[40];
			if (a->lv[l].capacity_bytes > 0)
				snprintf(pct, sizeof pct, "%.1f%%", 100 * u);
			else
				snprintf(pct, sizeof pct, "%lld B", (long long)v->dense->cap_bytes[l]);
			text(sb, L + c * cw + cw / 2.0, y + ch - 5, "middle", pct);
		}
	}
	trim__sb_puts(sb, "</svg>");
}

/* Words read from and written to the outermost level. */
static double offchip_words(const trim__wview *v)
{
	const trim__activity *x = &v->dense->act;
	double words = 0;
	for (int t = 0; t < 3; t++)
		words += (double)(x->reads[0][t] + x->updates[0][t] + x->fills[0][t] + x->drains[0][t]);
	return words;
}

/* Roofline: MACs per cycle against MACs per off-chip word, log-log; the
 * roofs are the peak and the outermost level's words per cycle (reads and
 * writes together) times the intensity. */
static void roofline(trim__sb *sb, const trim__html_detail *d)
{
	const struct trim_arch *a = d->arch;
	trim__roofline r;
	trim__roofline_make(a, &r);
	double bw = r.lv[0].read_words + r.lv[0].write_words;
	if (r.lv[0].read_words <= 0 || r.lv[0].write_words <= 0)
		bw = 0; /* one direction unlimited: no slanted roof */
	size_t n = d->n;
	double *ai = trim__calloc(n ? n : 1, sizeof *ai), *perf = trim__calloc(n ? n : 1, sizeof *perf);
	if (!ai || !perf) {
		free(ai);
		free(perf);
		sb->failed = 1;
		return;
	}
	double xlo = INFINITY, xhi = 0, ylo = r.peak, yhi = r.peak;
	for (size_t k = 0; k < n; k++) {
		double words = offchip_words(&d->views[k]), cyc = trim__wview_cycles(&d->views[k]);
		double macs = trim__wview_executed_macs(&d->views[k], a);
		ai[k] = words > 0 ? macs / words : 0;
		perf[k] = cyc > 0 ? macs / cyc : 0;
		if (ai[k] > 0) {
			xlo = fmin(xlo, ai[k]);
			xhi = fmax(xhi, ai[k]);
		}
		if (perf[k] > 0)
			ylo = fmin(ylo, perf[k]);
	}
	if (bw > 0) {
		xlo = fmin(xlo, r.peak / bw / 10);
		xhi = fmax(xhi, r.peak / bw * 10);
	}
	if (!(xhi > 0)) {
		xlo = 0.1;
		xhi = 10;
	}
	double x0 = floor(log10(xlo)), x1 = ceil(log10(xhi)), y0 = floor(log10(ylo > 0 ? ylo : 1)) - (ylo >= yhi),
	       y1 = ceil(log10(yhi > 0 ? yhi : 1));
	if (x1 <= x0)
		x1 = x0 + 1;
	if (y1 <= y0)
		y1 = y0 + 1;
	const int W = 720, H = 400, M = 70, T = 14, Rm = 20;
#define RX(v) (M + (log10(v) - x0) / (x1 - x0) * (W - M - Rm))
#define RY(v) (H - M + (T - (H - M)) * (log10(v) - y0) / (y1 - y0))
	trim__html_svg_open(sb, W, H, "figure");
	trim__sb_printf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", M, H - M, W - Rm, H - M);
	trim__sb_printf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", M, T, M, H - M);
	char s[120];
	for (double e = x0; e <= x1; e++) {
		snprintf(s, sizeof s, "%.4g", pow(10, e));
		text(sb, RX(pow(10, e)), H - M + 16, "middle", s);
	}
	for (double e = y0; e <= y1; e++) {
		snprintf(s, sizeof s, "%.4g", pow(10, e));
		text(sb, M - 4, RY(pow(10, e)) + 4, "end", s);
	}
	text(sb, (W + M) / 2.0, H - M + 36, "middle", "MACs per off-chip word (log)");
	trim__sb_printf(sb, "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
	                    "MACs per cycle (log)</text>", (H - M) / 2.0, (H - M) / 2.0);
	/* the roofs: bandwidth up to the ridge, then the peak */
	double lx = pow(10, x0), rx = pow(10, x1), ridge = bw > 0 ? r.peak / bw : lx;
	if (bw > 0 && ridge > lx) {
		double sy = fmax(bw * lx, pow(10, y0)), sx = sy / bw;
		trim__sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e15759\" "
		                    "stroke-width=\"2\"><title>%s: %.4g words per cycle</title></line>",
		                RX(sx), RY(sy), RX(ridge), RY(r.peak), a->lv[0].name, bw);
	}
	trim__sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e15759\" stroke-width=\"2\">"
	                    "<title>peak: %.4g MACs per cycle</title></line>",
	                RX(fmax(ridge, lx)), RY(r.peak), RX(rx), RY(r.peak), r.peak);
	snprintf(s, sizeof s, "peak %.4g MACs/cycle", r.peak);
	text(sb, W - Rm, RY(r.peak) - 4, "end", s);
	for (size_t k = 0; k < n; k++) {
		if (!(ai[k] > 0 && perf[k] > 0))
			continue;
		trim__sb_printf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#4e79a7\" fill-opacity=\"0.7\" "
		                    "class=\"workload\"><title>",
		                RX(ai[k]), RY(perf[k]));
		trim__html_xml(sb, d->views[k].w->layer);
		trim__sb_printf(sb, " %s: %.4g MACs per word, %.4g MACs per cycle</title></circle>",
		                trim_phase_name(d->views[k].w->phase), ai[k], perf[k]);
	}
#undef RX
#undef RY
	trim__sb_puts(sb, "</svg>");
	free(ai);
	free(perf);
}

int trim__html_figures_json(const trim__html_detail *d, trim__sb *out)
{
	const struct trim_arch *a = d->arch;
	int first = 1, nl = a->nlevels;
	double level[TRIM__MAX_LEVELS] = {0}, tensor[5] = {0}, area[TRIM__MAX_LEVELS];
	const char *lnames[TRIM__MAX_LEVELS];
	for (size_t k = 0; k < d->n; k++) {
		double e[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], lv[TRIM__MAX_LEVELS], t3[3];
		trim__breakdown(&d->views[k], a, d->costs, NULL, e);
		trim__breakdown_levels(a, e, lv);
		trim__breakdown_tensors(a, e, t3);
		for (int l = 0; l < nl; l++)
			level[l] += lv[l];
		for (int t = 0; t < 3; t++)
			tensor[t] += t3[t];
		tensor[3] += trim__wview_energy(&d->views[k]) - t3[0] - t3[1] - t3[2];
	}
	for (size_t j = 0; j < d->ninter; j++) {
		level[d->inter[j].level] += d->inter[j].energy_pj;
		tensor[4] += d->inter[j].energy_pj;
	}
	for (int l = 0; l < nl; l++) {
		lnames[l] = a->lv[l].name;
		area[l] = d->costs[l].area_mm2;
	}
	static const char *const tnames[] = {"input", "weight", "output", "compute, leakage, sparse", "inter-layer work"};
	const char *scope = d->inter ? "intra- and inter-layer workloads" : "intra-layer workloads";
	char title[200];
	trim__sb svg;
	trim__sb_init(&svg);
	trim__sb_puts(out, "[");
	stacked(&svg, nl, level, lnames, "pJ");
	snprintf(title, sizeof title, "Network energy by level (%s)", scope);
	figure(out, &first, title, &svg);
	stacked(&svg, d->inter ? 5 : 4, tensor, tnames, "pJ");
	snprintf(title, sizeof title, "Network energy by tensor (%s)", scope);
	figure(out, &first, title, &svg);
	stacked(&svg, nl, area, lnames, "mm2");
	figure(out, &first, "Area by level (all instances of each level)", &svg);
	occupancy(&svg, d);
	figure(out, &first, "Buffer occupancy per level: the kept tiles' bytes / capacity, per instance", &svg);
	roofline(&svg, d);
	figure(out, &first, "Roofline of every workload (the outermost level's bandwidth and the peak)", &svg);
	/* every workload, the inter-layer ones included */
	size_t n = d->n + d->ninter;
	const char **lab = trim__calloc(n ? n : 1, sizeof *lab);
	char(*buf)[160] = trim__calloc(n ? n : 1, sizeof *buf);
	double *ve = trim__calloc(n ? n : 1, sizeof *ve), *vc = trim__calloc(n ? n : 1, sizeof *vc);
	int *g = trim__calloc(n ? n : 1, sizeof *g);
	int rc = lab && buf && ve && vc && g ? 0 : TRIM_ENOMEM;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		if (k < d->n) {
			snprintf(buf[k], sizeof buf[k], "%s %s", d->views[k].w->layer, trim_phase_name(d->views[k].w->phase));
			ve[k] = trim__wview_energy(&d->views[k]);
			vc[k] = trim__wview_cycles(&d->views[k]);
		} else {
			const trim__html_inter *x = &d->inter[k - d->n];
			snprintf(buf[k], sizeof buf[k], "%s (inter)", x->label);
			ve[k] = x->energy_pj;
			vc[k] = x->cycles;
			g[k] = 1;
		}
		lab[k] = buf[k];
	}
	static const char *const groups[] = {"intra-layer", "inter-layer"};
	if (rc == 0) {
		bars(&svg, n, lab, ve, g, groups, 2, "pJ");
		figure(out, &first, d->inter ? "Energy of every workload, inter-layer ones included"
		                             : "Energy of every workload (inter-layer ones not in this view)", &svg);
		bars(&svg, n, lab, vc, g, groups, 2, "cycles");
		figure(out, &first, d->inter ? "Cycles of every workload, inter-layer ones included (caching overlaps: 0)"
		                             : "Cycles of every workload (inter-layer ones not in this view)", &svg);
	}
	free(lab);
	free(buf);
	free(ve);
	free(vc);
	free(g);
	trim__sb_free(&svg);
	trim__sb_puts(out, "]");
	return rc ? rc : out->failed ? TRIM_ENOMEM : 0;
}
