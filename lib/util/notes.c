/* Notes on the result files a resumed run did not reuse (explore's point
 * files, network's search files): one line per reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int trim__note_add(char **notes, const char *path, const char *reason, const char *action)
{
	const char *old = *notes ? *notes : "";
	/* the same reason as the last line: count it there */
	char tail[700];
	snprintf(tail, sizeof tail, ": %s: %s\n", reason, action);
	size_t ol = strlen(old), tl = strlen(tail);
	const char *line_start = ol ? old + ol - 1 : old;
	while (line_start > old && line_start[-1] != '\n')
		line_start--;
	trim__sb sb;
	trim__sb_init(&sb);
	if (ol >= tl && !strcmp(old + ol - tl, tail)) {
		/* "FILE: reason" or "FILE and N more: reason" */
		const char *more = strstr(line_start, " and ");
		size_t count = 1;
		const char *cut = old + ol - tl;
		if (more && more < cut && sscanf(more, " and %zu more", &count) == 1)
			cut = more;
		else
			count = 0;
		trim__sb_printf(&sb, "%.*s and %zu more%s", (int)(cut - old), old, count + 1, tail);
	} else {
		trim__sb_printf(&sb, "%s%s%s", old, path, tail);
	}
	char *text = NULL;
	int rc = trim__sb_take(&sb, &text);
	if (rc)
		return rc;
	free(*notes);
	*notes = text;
	return 0;
}

int trim__note_unread(char **notes, const char *path, const char *action)
{
	const char *why = trim_last_error();
	size_t pl = strlen(path);
	if (!strncmp(why, path, pl) && !strncmp(why + pl, ": ", 2))
		why += pl + 2;
	char reason[600];
	snprintf(reason, sizeof reason, "%s: not read", why[0] ? why : "unreadable");
	return trim__note_add(notes, path, reason, action);
}
