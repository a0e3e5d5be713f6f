/*
 * One writer per output format: a report lists its writers in a
 * trim__writers table (util.h) and trim__write_report picks the one of the
 * format asked for, refusing the formats the report does not offer with one
 * message for every report.
 */
#include <stdio.h>

#include "util.h"

/* The names of the formats, by TRIM_FORMAT_* (docs and error messages). */
static const char *const format_names[TRIM__FORMAT_COUNT] = {"table", "json", "csv", "yaml"};

/* The name of a format, or "unknown" for a number that names none. */
const char *trim__format_name(int format)
{
	if (format < 0 || format >= TRIM__FORMAT_COUNT)
		return "unknown";
	return format_names[format];
}

/* 0 when the report of `w` offers `format`; else TRIM_EINVAL naming the
 * report, the format and the formats it offers:
 * "trim_arch_report: format 2 (csv) is not offered; table, json". */
int trim__writers_check(const trim__writers *w, int format)
{
	if (format >= 0 && format < TRIM__FORMAT_COUNT && w->by_format[format])
		return 0;
	char offered[64] = "";
	size_t len = 0;
	for (int f = 0; f < TRIM__FORMAT_COUNT; f++)
		if (w->by_format[f] && len < sizeof offered)
			len += (size_t)snprintf(offered + len, sizeof offered - len, "%s%s", len ? ", " : "",
			                        format_names[f]);
	return trim__error(TRIM_EINVAL, "%s: format %d (%s) is not offered; %s", w->name, format,
	                   trim__format_name(format), offered);
}

/* Check the format (trim__writers_check), then write the report with the
 * writer of that format into a new text for the caller (*out, freed with
 * trim_string_free). *out is NULL on failure: the writer's code,
 * TRIM_EINVAL for a format not offered, or TRIM_ENOMEM. */
int trim__write_report(const trim__writers *w, int format, const void *report, char **out)
{
	*out = NULL;
	int rc = trim__writers_check(w, format);
	if (rc)
		return rc;
	trim__sb sb;
	trim__sb_init(&sb);
	rc = w->by_format[format](report, &sb);
	if (rc == 0)
		rc = trim__sb_take(&sb, out);
	trim__sb_free(&sb);
	return rc;
}
