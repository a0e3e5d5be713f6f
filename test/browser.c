/*
 * Test helpers: files read whole, substrings counted, and pages loaded in
 * headless chromium (Debian's chromium, installed by make deps) for their
 * DOM after the scripts ran and a screenshot (test/browser.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser.h"

char *tb_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	size_t got = fread(b, 1, (size_t)n, f);
	b[got] = '\0';
	fclose(f);
	return b;
}

size_t tb_count_of(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

const char *tb_chromium(void)
{
	static const char *const paths[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser", NULL};
	for (int i = 0; paths[i]; i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

/* Load the page in headless chromium: the DOM after the script ran, and a
 * screenshot of w x h pixels. Returns the dumped DOM (NULL without chromium). */
char *tb_browse(const char *page, const char *dir, const char *png, int w, int h)
{
	const char *chr = tb_chromium();
	if (!chr)
		return NULL;
	char cmd[4096], dom[1024];
	snprintf(dom, sizeof dom, "%s/dom.html", dir);
	const char *flags = "--headless --no-sandbox --disable-gpu --disable-background-networking "
	                    "--disable-component-update --disable-sync --no-first-run "
	                    "--virtual-time-budget=5000";
	snprintf(cmd, sizeof cmd, "timeout 120 %s %s --user-data-dir=%s/profile --dump-dom file://%s > %s 2>%s/err.txt",
	         chr, flags, dir, page, dom, dir);
	ck_assert_msg(WEXITSTATUS(system(cmd)) == 0, "%s", cmd);
	snprintf(cmd, sizeof cmd, "timeout 120 %s %s --user-data-dir=%s/profile2 --window-size=%d,%d "
	         "--screenshot=%s file://%s 2>/dev/null >/dev/null", chr, flags, dir, w, h, png, page);
	ck_assert_msg(WEXITSTATUS(system(cmd)) == 0, "%s", cmd);
	return tb_slurp(dom);
}

/* PNG: signature, IHDR width and height; the file is big enough to hold
 * charts (a blank page of this size compresses to a few kB). */
void tb_check_png(const char *png, int w, int h)
{
	FILE *f = fopen(png, "rb");
	ck_assert_msg(f != NULL, "no screenshot %s", png);
	unsigned char b[24];
	ck_assert_int_eq(fread(b, 1, 24, f), 24);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fclose(f);
	ck_assert(memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0);
	int pw = b[16] << 24 | b[17] << 16 | b[18] << 8 | b[19], ph = b[20] << 24 | b[21] << 16 | b[22] << 8 | b[23];
	ck_assert_int_eq(pw, w);
	ck_assert_int_eq(ph, h);
	ck_assert_msg(size > 30000, "screenshot of %ld bytes: nothing drawn?", size);
}

