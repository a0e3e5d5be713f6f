/*
 * Test helpers for the HTML reports (test/browser.c).
 */
#ifndef TRIM_TEST_BROWSER_H
#define TRIM_TEST_BROWSER_H

#include <stddef.h>

/* A file's contents, NUL-terminated (free it); NULL if unreadable. */
char *tb_slurp(const char *path);
/* Occurrences of needle in hay. */
size_t tb_count_of(const char *hay, const char *needle);
/* The chromium binary, or NULL when none is installed. */
const char *tb_chromium(void);
/* Load page in headless chromium: the DOM after the script ran (returned,
 * free it) and a screenshot of w x h pixels into png; scratch files in
 * dir. NULL without chromium. */
char *tb_browse(const char *page, const char *dir, const char *png, int w, int h);
/* png is a PNG of w x h pixels and big enough to hold charts. */
void tb_check_png(const char *png, int w, int h);

#endif
