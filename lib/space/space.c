/* The designer: architecture spaces (docs/arch.md, "Architecture spaces"):
 * the grid, its points, the accessors and the reports; reading the space
 * file is lib/space/parse.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch_int.h"
#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "space_int.h"
#include "trim/space.h"
#include "util/handle.h"
#include "util/util.h"

TRIM_API void trim_space_free(trim_space *s)
{
	TRIM__HANDLE_CHECK_VOID(s, SPACE);
	if (!s)
		return;
	trim_arch_free(s->base);
	trim_energy_free(s->table);
	trim_constraints_free(s->cons);
	free(s->pts);
	free(s->ok);
	free(s->file);
	free(s->base_file);
	free(s->table_path);
	TRIM__HANDLE_POISON(s, SPACE);
	free(s);
}

/* Apply value index vi of parameter p to a. */
static void apply(trim_arch *a, const trim__space_param *p, size_t vi)
{
	for (size_t k = 0; k < p->nt; k++) {
		const double *v = p->v[vi][k];
		trim__level *lv = p->t[k].level >= 0 ? &a->lv[p->t[k].level] : NULL;
		switch (p->t[k].field) {
		case TRIM__SPACE_FANOUT:
			lv->fanout_x = (int64_t)v[0];
			lv->fanout_y = (int64_t)v[1];
			break;
		case TRIM__SPACE_CAPACITY:
			if (lv->partitioned) { /* keep the proportions of the partitions */
				double scale = v[0] / (double)lv->capacity_bytes;
				for (int s = 0; s < 3; s++)
					lv->part_bytes[s] = (int64_t)floor((double)lv->part_bytes[s] * scale);
			}
			lv->capacity_bytes = (int64_t)v[0];
			break;
		case TRIM__SPACE_WORD_BITS:
			if (lv) {
				lv->word_bits = (int)v[0];
			} else {
				int old = a->word_bits;
				a->word_bits = (int)v[0];
				for (int i = 0; i < a->nlevels; i++) {
					if (a->lv[i].type == TRIM__LVL_STORAGE && a->lv[i].word_bits == old) {
						for (int s = 0; s < 3; s++)
							a->lv[i].part_bytes[s] = a->lv[i].part_bytes[s] * (int64_t)v[0] / old;
						a->lv[i].word_bits = (int)v[0];
					}
					if (a->lv[i].type == TRIM__LVL_SPATIAL && a->lv[i].link_bits == old)
						a->lv[i].link_bits = (int)v[0];
				}
			}
			break;
		case TRIM__SPACE_LINK_BITS: lv->link_bits = (int)v[0]; break;
		case TRIM__SPACE_READ_BW: lv->read_bw = v[0]; break;
		case TRIM__SPACE_WRITE_BW: lv->write_bw = v[0]; break;
		case TRIM__SPACE_ZERO_GATE: lv->zero_gate = (int)v[0]; break;
		case TRIM__SPACE_ZERO_SKIP: lv->zero_skip = (int)v[0]; break;
		default: a->clock_mhz = v[0]; break;
		}
	}
}

/* Architecture of grid point gi (first parameter slowest). */
static int grid_arch(const trim_space *s, uint64_t gi, trim_arch **out)
{
	trim_arch *a = NULL;
	int rc = trim_arch_clone(&a, s->base);
	if (rc)
		return rc;
	size_t idx[TRIM__SPACE_MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		idx[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	for (size_t k = 0; k < s->np; k++)
		apply(a, &s->p[k], idx[k]);
	rc = trim__arch_finish(a);
	if (rc) {
		trim_arch_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

static void point_name(const trim_space *s, uint64_t gi, char *buf, size_t n)
{
	size_t idx[TRIM__SPACE_MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		idx[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < s->np; k++) {
		size_t l = strlen(buf);
		if (s->p[k].labelled)
			snprintf(buf + l, n - l, "%s%s", k ? "_" : "", s->p[k].text[idx[k]]);
		else
			snprintf(buf + l, n - l, "%s%s=%s", k ? "_" : "", s->p[k].name,
			         s->p[k].text[idx[k]]);
	}
}

int trim__space_evaluate(trim_space *s)
{
	s->pts = trim__calloc((size_t)s->grid, sizeof *s->pts);
	s->ok = trim__calloc((size_t)s->grid, sizeof *s->ok);
	if (!s->pts || !s->ok)
		return TRIM_ENOMEM;
	int fpga = trim_energy_is_fpga(s->table) == 1;
	for (uint64_t gi = 0; gi < s->grid; gi++) {
		trim__space_point *p = &s->pts[gi];
		trim_arch *a = NULL;
		p->gi = gi;
		p->area = NAN;
		point_name(s, gi, p->name, sizeof p->name);
		int rc = grid_arch(s, gi, &a);
		if (rc == 0) {
			double r[8];
			if (fpga) {
				rc = trim_energy_resources(s->table, a, r, 8);
				if (rc >= 0) {
					p->fits = rc;
					memcpy(p->res, r, sizeof p->res);
					rc = 0;
				}
			} else {
				rc = trim_energy_arch_area(s->table, a, &p->area);
			}
		}
		trim_arch_free(a);
		if (rc == TRIM_ENOMEM)
			return rc;
		if (rc) {
			snprintf(p->why, sizeof p->why, "invalid: %s", trim_last_error());
			trim_clear_error();
			continue;
		}
		if (s->fit_device && !p->fits) {
			char *w = p->why;
			size_t l = 0;
			static const char *const rn[4] = {"DSP", "BRAM36", "LUT", "FF"};
			double av[4];
			trim__energy_device(s->table, av, NULL);
			l += (size_t)snprintf(w, sizeof p->why, "does not fit the device:");
			for (int r = 0; r < 4; r++)
				if (p->res[r] > av[r] && l < sizeof p->why)
					l += (size_t)snprintf(w + l, sizeof p->why - l, " %s %g > %g", rn[r],
					                      p->res[r], av[r]);
			continue;
		}
		if (s->max_area > 0 && p->area > s->max_area) {
			snprintf(p->why, sizeof p->why, "area %.4g mm2 > budget %g mm2", p->area,
			         s->max_area);
			continue;
		}
		p->ok = 1;
		s->ok[s->nok++] = gi;
	}
	return 0;
}

TRIM_API const char *trim_space_name(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->name : NULL;
}
const char *trim__space_file(const trim_space *s) { return s->file; }
const char *trim__space_base_file(const trim_space *s) { return s->base_file; }
const char *trim__space_table_path(const trim_space *s) { return s->table_path; }
TRIM_API const trim_constraints *trim_space_constraints(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->cons : NULL;
}
TRIM_API uint64_t trim_space_grid_size(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->grid : 0;
}
TRIM_API uint64_t trim_space_count(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->nok : 0;
}

TRIM_API const char *trim_space_point_name(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, NULL);
	return s && i < s->nok ? s->pts[s->ok[i]].name : NULL;
}

TRIM_API uint64_t trim_space_point_grid_index(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, 0);
	return s && i < s->nok ? s->ok[i] : UINT64_MAX;
}

TRIM_API double trim_space_point_area(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, NAN);
	return s && i < s->nok ? s->pts[s->ok[i]].area : NAN;
}

TRIM_API int trim_space_find(const trim_space *s, const char *name, uint64_t *index)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !name || !index)
		return trim__error(TRIM_EINVAL, "trim_space_find: NULL argument");
	for (uint64_t i = 0; i < s->nok; i++) {
		if (!strcmp(s->pts[s->ok[i]].name, name)) {
			*index = i;
			return 0;
		}
	}
	return trim__error(TRIM_ENOTFOUND, "space %s has no point '%s'", s->name, name);
}

TRIM_API int trim_space_point_arch(const trim_space *s, uint64_t i, trim_arch **out)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_space_point_arch: NULL argument");
	*out = NULL;
	if (i >= s->nok)
		return trim__error(TRIM_ERANGE, "space %s has %llu points, no point %llu", s->name,
		                   (unsigned long long)s->nok, (unsigned long long)i);
	trim_arch *a = NULL;
	int rc = grid_arch(s, s->ok[i], &a);
	if (rc)
		return rc;
	snprintf(a->name, sizeof a->name, "%s", s->pts[s->ok[i]].name);
	*out = a;
	return 0;
}

static void json_point(trim__sb *sb, const trim_space *s, const trim__space_point *p, int fpga,
                       int64_t idx)
{
	trim__sb_putc(sb, '{');
	if (idx >= 0)
		trim__sb_printf(sb, "\"index\":%lld,", (long long)idx);
	trim__sb_printf(sb, "\"grid_index\":%llu,\"name\":", (unsigned long long)p->gi);
	trim__sb_json_str(sb, p->name);
	trim__sb_puts(sb, ",\"values\":{");
	uint64_t gi = p->gi;
	size_t vi[TRIM__SPACE_MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		vi[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	for (size_t k = 0; k < s->np; k++) {
		if (k)
			trim__sb_putc(sb, ',');
		trim__sb_json_str(sb, s->p[k].name);
		trim__sb_putc(sb, ':');
		trim__sb_json_str(sb, s->p[k].text[vi[k]]);
	}
	trim__sb_putc(sb, '}');
	if (p->why[0] && !strncmp(p->why, "invalid", 7)) {
		/* no costs */
	} else if (fpga) {
		trim__sb_printf(sb, ",\"resources\":{\"dsp\":%.17g,\"bram36\":%.17g,\"lut\":%.17g,"
		                "\"ff\":%.17g},\"fits\":%s", p->res[0], p->res[1], p->res[2],
		                p->res[3], p->fits ? "true" : "false");
	} else {
		trim__sb_puts(sb, ",\"area_mm2\":");
		trim__sb_json_double(sb, p->area);
	}
	if (!p->ok) {
		trim__sb_puts(sb, ",\"reason\":");
		trim__sb_json_str(sb, p->why);
	}
	trim__sb_putc(sb, '}');
}

/* The space as one JSON object: its files, its parameters, the accepted
 * points and the rejected ones. */
static int space_json(const void *report, trim__sb *sb)
{
	const trim_space *s = report;
	int fpga = trim_energy_is_fpga(s->table) == 1;
	trim__sb_puts(sb, "{\"name\":");
	trim__sb_json_str(sb, s->name);
	trim__sb_puts(sb, ",\"file\":");
	trim__sb_json_str(sb, s->file);
	trim__sb_puts(sb, ",\"base\":");
	trim__sb_json_str(sb, s->base_file);
	trim__sb_puts(sb, ",\"table\":");
	trim__sb_json_str(sb, trim_energy_file(s->table));
	trim__sb_printf(sb, ",\"grid_size\":%llu,\"count\":%llu,\"parameters\":[",
	                (unsigned long long)s->grid, (unsigned long long)s->nok);
	for (size_t k = 0; k < s->np; k++) {
		trim__sb_puts(sb, k ? ",{\"name\":" : "{\"name\":");
		trim__sb_json_str(sb, s->p[k].name);
		trim__sb_puts(sb, ",\"values\":[");
		for (size_t i = 0; i < s->p[k].nv; i++) {
			if (i)
				trim__sb_putc(sb, ',');
			trim__sb_json_str(sb, s->p[k].text[i]);
		}
		trim__sb_puts(sb, "]}");
	}
	trim__sb_puts(sb, "],\"points\":[");
	for (uint64_t i = 0; i < s->nok; i++) {
		if (i)
			trim__sb_putc(sb, ',');
		json_point(sb, s, &s->pts[s->ok[i]], fpga, (int64_t)i);
	}
	trim__sb_puts(sb, "],\"rejected\":[");
	int first = 1;
	for (uint64_t g = 0; g < s->grid; g++) {
		if (s->pts[g].ok)
			continue;
		if (!first)
			trim__sb_putc(sb, ',');
		json_point(sb, s, &s->pts[g], fpga, -1);
		first = 0;
	}
	trim__sb_puts(sb, "]}\n");
	return 0;
}

/* The space as a table for people: every grid point with its area or FPGA
 * resources, the rejected ones marked. */
static int space_table(const void *report, trim__sb *sb)
{
	const trim_space *s = report;
	int fpga = trim_energy_is_fpga(s->table) == 1;
	trim__sb_printf(sb, "space %s (%s): base %s, table %s\n", s->name, s->file,
	                s->base_file, trim_energy_file(s->table));
	trim__sb_printf(sb, "%llu grid points, %llu accepted", (unsigned long long)s->grid,
	                (unsigned long long)s->nok);
	if (s->max_area > 0)
		trim__sb_printf(sb, ", area budget %g mm2", s->max_area);
	if (s->fit_device)
		trim__sb_printf(sb, ", must fit the device");
	trim__sb_puts(sb, "\n\n");
	uint64_t nacc = 0;
	trim__sb_printf(sb, "%-6s %-6s %-40s %s\n", "point", "grid", "name",
	                fpga ? "DSP / BRAM36 / LUT / FF" : "area mm2");
	for (uint64_t g = 0; g < s->grid; g++) {
		const trim__space_point *p = &s->pts[g];
		char idx[24] = "-";
		if (p->ok) /* accepted points are numbered in grid order */
			snprintf(idx, sizeof idx, "%llu", (unsigned long long)nacc++);
		trim__sb_printf(sb, "%-6s %-6llu %-40s ", idx, (unsigned long long)g, p->name);
		if (!strncmp(p->why, "invalid", 7))
			trim__sb_puts(sb, "-");
		else if (fpga)
			trim__sb_printf(sb, "%g / %g / %g / %g", p->res[0], p->res[1], p->res[2],
			                p->res[3]);
		else
			trim__sb_printf(sb, "%.4g", p->area);
		if (!p->ok)
			trim__sb_printf(sb, "  REJECTED: %s", p->why);
		trim__sb_putc(sb, '\n');
	}
	return 0;
}

/* The writers of trim_space_report, one per format. */
static const trim__writers space_writers = {
	"trim_space_report", {[TRIM_FORMAT_TABLE] = space_table, [TRIM_FORMAT_JSON] = space_json}};

TRIM_API int trim_space_report(const trim_space *s, int format, char **out)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_space_report: NULL argument");
	*out = NULL;
	return trim__write_report(&space_writers, format, s, out);
}
