/* The data directories (lib/util/datadir.c): shipped files and technology names
 * found from any directory, TRIM_DATA_DIR first, clear errors. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trim.h"

/* A fresh directory outside the tree (no energy_tables/, no models/); the
 * tree's absolute path in root. */
static void leave_tree(char *tmp, size_t n, char *root, size_t rn)
{
	ck_assert_ptr_nonnull(getcwd(root, rn));
	snprintf(tmp, n, "/tmp/trim-check-datadir-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	ck_assert_int_eq(chdir(tmp), 0);
}

static void back(const char *tmp, const char *root)
{
	ck_assert_int_eq(chdir(root), 0);
	rmdir(tmp);
}

START_TEST(test_find_from_the_tree_and_elsewhere)
{
	char *p = NULL;
	/* in the tree: the relative path itself (./ is tried before the defaults) */
	ck_assert_int_eq(trim_data_find("models/networks/alexnet-cifar.yaml", &p), 0);
	ck_assert_str_eq(p, "models/networks/alexnet-cifar.yaml");
	trim_string_free(p);
	char tmp[64], root[PATH_MAX], want[PATH_MAX + 64];
	leave_tree(tmp, sizeof tmp, root, sizeof root);
	/* elsewhere: the build tree of this library (test/.. of the build dir is the tree) */
	ck_assert_int_eq(trim_data_find("models/networks/alexnet-cifar.yaml", &p), 0);
	ck_assert_msg(p[0] == '/', "%s", p);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	char real[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(p, real));
	char rroot[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(root, rroot));
	snprintf(want, sizeof want, "%s/models/networks/alexnet-cifar.yaml", rroot);
	ck_assert_str_eq(real, want);
	trim_string_free(p);
	/* technology names too (lib/energy/load.c's resolution uses the same directories) */
	ck_assert_int_eq(trim_energy_resolve("45nm", NULL, &p), 0);
	ck_assert_ptr_nonnull(realpath(p, real));
	snprintf(want, sizeof want, "%s/energy_tables/45nm.yaml", rroot);
	ck_assert_str_eq(real, want);
	trim_string_free(p);
	/* an architecture given as text, with no file name, finds its table */
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	char arch_path[PATH_MAX + 64];
	snprintf(arch_path, sizeof arch_path, "%s/models/arch/eyeriss.yaml", root);
	ck_assert_int_eq(trim_arch_load(&a, arch_path), 0);
	trim_arch_free(a);
	a = NULL;
	FILE *f = fopen(arch_path, "r");
	ck_assert_ptr_nonnull(f);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *tech = strstr(text, "technology: 65nm");
	ck_assert_ptr_nonnull(tech);
	memcpy(tech, "technology: 45nm", 16);
	ck_assert_int_eq(trim_arch_load_string(&a, text, "<string>"), 0);
	ck_assert_msg(trim_energy_load_for_arch(&t, a) == 0, "%s", trim_last_error());
	ck_assert_str_eq(trim_energy_name(t), "45nm");
	trim_energy_free(t);
	trim_arch_free(a);
	back(tmp, root);
}
END_TEST

START_TEST(test_data_dir_overrides)
{
	char tmp[64], root[PATH_MAX], path[PATH_MAX];
	leave_tree(tmp, sizeof tmp, root, sizeof root);
	ck_assert_int_eq(mkdir("d", 0700), 0);
	ck_assert_int_eq(mkdir("d/models", 0700), 0);
	FILE *f = fopen("d/models/x.yaml", "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	setenv("TRIM_DATA_DIR", "d", 1);
	char *p = NULL;
	ck_assert_int_eq(trim_data_find("models/x.yaml", &p), 0);
	ck_assert_str_eq(p, "d/models/x.yaml");
	trim_string_free(p);
	/* a name it lacks falls through to the default directories */
	ck_assert_int_eq(trim_data_find("models/arch/eyeriss.yaml", &p), 0);
	ck_assert_msg(p[0] == '/', "%s", p);
	trim_string_free(p);
	/* nowhere: the message lists the places tried and names TRIM_DATA_DIR */
	ck_assert_int_eq(trim_data_find("models/none.yaml", &p), TRIM_ENOTFOUND);
	ck_assert_ptr_null(p);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, "no models/none.yaml in the data directories (tried d/models/none.yaml, "
	                          "./models/none.yaml, ") != NULL, "%s", msg);
	ck_assert_ptr_nonnull(strstr(msg, "set TRIM_DATA_DIR"));
	snprintf(path, sizeof path, "%s", msg);
	unsetenv("TRIM_DATA_DIR");
	remove("d/models/x.yaml");
	rmdir("d/models");
	rmdir("d");
	back(tmp, root);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char *p = (char *)"untouched";
	ck_assert_int_eq(trim_data_find(NULL, &p), TRIM_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(trim_data_find("", &p), TRIM_EINVAL);
	ck_assert_int_eq(trim_data_find("/etc/passwd", &p), TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "a relative path is needed, got '/etc/passwd'"));
	ck_assert_int_eq(trim_data_find("models", NULL), TRIM_EINVAL);
}
END_TEST

/* The CLI from another directory: technology: 45nm of an architecture there */
START_TEST(test_cli_from_elsewhere)
{
	const char *cli = getenv("TRIM_CLI");
	char tmp[64], root[PATH_MAX], cmd[3 * PATH_MAX];
	char abs_cli[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(cli ? cli : "build/bin/trim", abs_cli));
	leave_tree(tmp, sizeof tmp, root, sizeof root);
	snprintf(cmd, sizeof cmd,
	         "sed 's/^technology:.*/technology: 45nm/' '%s/models/arch/eyeriss.yaml' > a.yaml && "
	         "env -u TRIM_DATA_DIR '%s' arch a.yaml > out.txt 2>&1",
	         root, abs_cli);
	int st = system(cmd);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s exited %d", cmd, st);
	FILE *f = fopen("out.txt", "r");
	ck_assert_ptr_nonnull(f);
	char out[4096];
	size_t n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	fclose(f);
	ck_assert_msg(strstr(out, "technology 45nm -> /") && strstr(out, "/energy_tables/45nm.yaml"), "%s", out);
	remove("a.yaml");
	remove("out.txt");
	back(tmp, root);
}
END_TEST

Suite *datadir_suite(void)
{
	Suite *s = suite_create("datadir");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_find_from_the_tree_and_elsewhere);
	tcase_add_test(tc, test_data_dir_overrides);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_cli_from_elsewhere);
	suite_add_tcase(s, tc);
	return s;
}
