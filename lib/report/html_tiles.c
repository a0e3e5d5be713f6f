/*
 * A mapping drawn as tiles (the HTML report, beside each loop nest): two
 * panels, the output (G*M x E*F) and the weight (G*M x C); each storage level is
 * a rectangle, nested from the outermost level, sized by the tile one of its
 * instances holds: along each dimension the product of the bounds of its own
 * loops and of every level inside it. Side lengths are on a log scale (a
 * tile of 1 is a small square, the whole workload the panel) so the inner
 * tiles stay visible, each inset 3 px from the level above so that equal
 * tiles stay apart; the text gives the sizes. A level that bypasses the
 * panel's tensor is drawn dashed.
 */
#include <math.h>
#include <stdio.h>

#include "html_int.h"

static int64_t tile(const trim__mapping *m, int l, int d)
{
	int64_t p = 1;
	for (int k = l; k < m->nlevels; k++)
		p *= m->f[k][d] > 0 ? m->f[k][d] : 1;
	return p;
}

static double side(int64_t t, int64_t whole, double full)
{
	const double min = 6;
	if (whole <= 1)
		return full;
	return min + (full - min) * log((double)t) / log((double)whole);
}

static void panel(trim__sb *sb, const trim__mapping *m, const trim__intra *w, const struct trim_arch *a,
                  double x0, int slot, const char *name, const char *xs, const char *ys)
{
	const double P = 200, y0 = 30;
	int64_t wy = w->bound[TRIM_DIM_M] * w->bound[TRIM_DIM_G];
	int64_t wx = slot == 2 ? w->bound[TRIM_DIM_E] * w->bound[TRIM_DIM_F] : w->bound[TRIM_DIM_C];
	char s[200];
	snprintf(s, sizeof s, "%s: %s x %s = %lld x %lld", name, ys, xs, (long long)wy, (long long)wx);
	trim__sb_printf(sb, "<text x=\"%.1f\" y=\"14\" text-anchor=\"start\">", x0);
	trim__html_xml(sb, s);
	trim__sb_puts(sb, "</text>");
	int c = 0;
	double ty = y0 + P + 14;
	for (int l = 0; l < a->nlevels; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		int64_t ty_ = tile(m, l, TRIM_DIM_M) * tile(m, l, TRIM_DIM_G);
		int64_t tx_ = slot == 2 ? tile(m, l, TRIM_DIM_E) * tile(m, l, TRIM_DIM_F) : tile(m, l, TRIM_DIM_C);
		/* each level inset 3 px from the one above it: equal tiles stay apart */
		double in = 3.0 * c, h = fmax(side(ty_, wy, P) - in, 3), wd = fmax(side(tx_, wx, P) - in, 3);
		int kept = m->keep[l][slot];
		trim__sb_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		                    "fill-opacity=\"0.35\" stroke=\"%s\"%s class=\"tile\"><title>",
		                x0 + in, y0 + in, wd, h, trim__html_color(c), trim__html_color(c),
		                kept ? "" : " stroke-dasharray=\"4 3\"");
		snprintf(s, sizeof s, "%s: %lld x %lld%s", a->lv[l].name, (long long)ty_, (long long)tx_,
		         kept ? "" : " (bypassed)");
		trim__html_xml(sb, s);
		trim__sb_puts(sb, "</title></rect>");
		trim__sb_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>", x0, ty - 9,
		                trim__html_color(c));
		trim__sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">", x0 + 14, ty);
		trim__html_xml(sb, s);
		trim__sb_puts(sb, "</text>");
		ty += 15;
		c++;
	}
}

void trim__html_tiles_svg(const trim__mapping *m, const trim__intra *w, const struct trim_arch *a, trim__sb *sb)
{
	int storage = 0;
	for (int l = 0; l < a->nlevels; l++)
		storage += a->lv[l].type == TRIM__LVL_STORAGE;
	trim__html_svg_open(sb, 470, 30 + 200 + 20 + storage * 15, "tiles");
	panel(sb, m, w, a, 10, 2, "output", "E*F", "G*M");
	panel(sb, m, w, a, 250, 1, "weight", "C", "G*M");
	trim__sb_puts(sb, "</svg>");
}
