/* What the ONNX suites (check_onnx.c, check_onnx_torch.c) share: the models of
 * test/onnx/make_models.py made once per run, importing them, and counting in
 * what was imported. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trim.h"
#include "trim/onnx.h"
#include "onnx_util.h"

/* The models of test/onnx/make_models.py, made once per run (with Debian's
 * python3-onnx) into TRIM_ONNX_DIR or a fresh directory. */
static int onnx_tmp; /* the directory is this process's own: removed by onnx_done */
const char *onnx_dir(void)
{
	static char dir[256];
	if (dir[0])
		return dir;
	const char *env = getenv("TRIM_ONNX_DIR");
	if (env && env[0]) {
		snprintf(dir, sizeof dir, "%s", env);
	} else {
		snprintf(dir, sizeof dir, "/tmp/trim-onnx-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(dir));
		onnx_tmp = 1;
	}
	char cmd[512];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/onnx/make_models.py %s", dir);
	ck_assert_msg(system(cmd) == 0, "%s failed (python3-onnx and python3-yaml: make deps)", cmd);
	return dir;
}

void onnx_done(void)
{
	if (onnx_tmp) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", onnx_dir());
		ck_assert_int_eq(system(cmd), 0);
	}
}

char *workloads_json(trim_network *net)
{
	trim_workloads *w = NULL;
	char *text = NULL;
	ck_assert_msg(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 2, 0) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_JSON, &text), 0);
	trim_workloads_free(w);
	return text;
}

trim_network *import(const char *file, const trim_onnx_options *o)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", onnx_dir(), file);
	trim_network *net = NULL;
	ck_assert_msg(trim_network_load_onnx(&net, path, o) == 0, "%s: %s", file, trim_last_error());
	return net;
}

void types_are(const trim_network *net, const char *const *want)
{
	size_t n = 0;
	for (; want[n]; n++) {
		ck_assert_msg(n < trim_network_layer_count(net), "fewer layers than expected");
		ck_assert_msg(!strcmp(trim_network_layer_type(net, n), want[n]),
		              "layer %zu (%s) is a %s, expected %s", n, trim_network_layer_name(net, n),
		              trim_network_layer_type(net, n), want[n]);
	}
	ck_assert_int_eq(trim_network_layer_count(net), n);
}

int count_substr(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

int has_warning(const trim_network *net, const char *what)
{
	for (size_t k = 0; k < trim_network_warning_count(net); k++)
		if (strstr(trim_network_warning(net, k), what))
			return 1;
	return 0;
}

size_t count_type(const trim_network *net, const char *type)
{
	size_t n = 0;
	for (size_t k = 0; k < trim_network_layer_count(net); k++)
		n += !strcmp(trim_network_layer_type(net, k), type);
	return n;
}
