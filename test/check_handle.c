/* Typed handles (lib/util/handle.h, docs/conventions.md "Typed handles"):
 * every entry point that takes a handle refuses a handle of any other type
 * (TRIM_EINVAL, a message naming the function, the type expected and the
 * type given) before it reads anything else, so nothing crashes and nothing
 * is freed; a freed handle and a foreign pointer are refused the same way;
 * NULL keeps its old meaning. Workloads are refused by what takes a
 * network too unless they were made from it. Table-driven: test/handle_calls.h lists every
 * entry point once per handle argument, and each is called with a live
 * handle of each of the 16 other types. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network/network_int.h"
#include "trim.h"
#include "trim/onnx.h"
#include "trim/work.h"
#include "util/handle.h"

#define NET "test/data/neteval/tiny.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"
#define SPACE "test/data/neteval/tiny-space-1pe.yaml"

/* Outputs of the calls: never written when the handle is refused. */
typedef struct {
	void *out;
	char *text;
	double d[4096];
	int64_t i64[4096];
	uint64_t u64[64];
	size_t size;
	int i;
	char buf[256];
} scratch;

typedef int (*caller)(void *h, void *const *F, scratch *S);

typedef struct {
	const char *function, *argument, *ret;
	trim__handle_type type;
	caller call;
} entry;

/* What each kind of function returns on a refused handle, as TRIM_EINVAL
 * when it is that value (and 1 when it is not). */
#define RET_CODE(call) return (int)(call);
#define RET_ZERO(call) return (call) == 0 ? TRIM_EINVAL : 1;
#define RET_NUL(call) return (call) == NULL ? TRIM_EINVAL : 1;
#define RET_NEG(call)                             \
	double v_ = (call);                           \
	return !(v_ >= 0) ? TRIM_EINVAL : 1;
#define RET_VOID(call) \
	call;              \
	return TRIM_EINVAL;

#define R(ret, fn, arg, type, args)                                        \
	static int call_##fn##_##arg(void *h, void *const *F, scratch *S)     \
	{                                                                      \
		(void)h;                                                           \
		(void)F;                                                           \
		(void)S;                                                           \
		RET_##ret(fn args)                                                 \
	}
#include "handle_calls.h"
#undef R

static const entry entries[] = {
#define R(ret, fn, arg, type, args) {#fn, #arg, #ret, TRIM__H_##type, call_##fn##_##arg},
#include "handle_calls.h"
#undef R
};

/* One live handle of every type, built from the tiny network, arch and space
 * of test/data/neteval (a search of the first workload gives the mapping
 * and the evaluation). */
typedef struct {
	void *h[TRIM__H_NTYPES];
} handles;

static void make_handles(handles *H)
{
	memset(H, 0, sizeof *H);
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	trim_constraints *c = NULL;
	trim_space *sp = NULL;
	trim_sparsity *spy = NULL;
	trim_fusion *f = NULL;
	trim_fusion_plan *p = NULL;
	trim_fusion_result *r = NULL;
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	trim_search *s = NULL;
	trim_neteval *ne = NULL;
	trim_explorer *ex = NULL;
	trim_work *wk = NULL;
	trim_onnx_options *o = NULL;
	ck_assert_msg(trim_network_load(&net, NET) == 0, "%s", trim_last_error());
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_arch_load(&a, ARCH) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_energy_load_for_arch(&t, a) == 0, "%s", trim_last_error());
	ck_assert(trim_constraints_create(&c) == 0);
	ck_assert_msg(trim_space_load(&sp, SPACE) == 0, "%s", trim_last_error());
	ck_assert(trim_sparsity_create(&spy, net, w) == 0);
	ck_assert_msg(trim_fusion_create(&f, net, "conv", "pool") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_fusion_evaluate_cuts(&p, f, 0) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_search_create(&s, w, 0, a, t) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_search_run(s) == 0, "%s", trim_last_error());
	ck_assert(trim_search_best(s, &m) == 0);
	ck_assert_msg(trim_eval_mapping(&e, w, 0, a, t, m) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_neteval_create(&ne, net, w, a, t) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_explorer_create(&ex, net, w, sp) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_work_network(&wk, ne) == 0, "%s", trim_last_error());
	ck_assert(trim_onnx_options_create(&o) == 0);
	void *all[TRIM__H_NTYPES] = {
		[TRIM__H_NETWORK] = net, [TRIM__H_WORKLOADS] = w, [TRIM__H_ARCH] = a,
		[TRIM__H_ENERGY] = t, [TRIM__H_CONSTRAINTS] = c, [TRIM__H_SPACE] = sp,
		[TRIM__H_SPARSITY] = spy, [TRIM__H_FUSION] = f, [TRIM__H_FUSION_PLAN] = p,
		[TRIM__H_FUSION_RESULT] = r, [TRIM__H_MAPPING] = m, [TRIM__H_EVAL] = e,
		[TRIM__H_SEARCH] = s, [TRIM__H_NETEVAL] = ne, [TRIM__H_EXPLORER] = ex,
		[TRIM__H_WORK] = wk, [TRIM__H_ONNX_OPTIONS] = o};
	memcpy(H->h, all, sizeof all);
}

static void free_handles(handles *H)
{
	trim_work_free(H->h[TRIM__H_WORK]);
	trim_explorer_free(H->h[TRIM__H_EXPLORER]);
	trim_neteval_free(H->h[TRIM__H_NETEVAL]);
	trim_eval_free(H->h[TRIM__H_EVAL]);
	trim_mapping_free(H->h[TRIM__H_MAPPING]);
	trim_search_free(H->h[TRIM__H_SEARCH]);
	trim_fusion_result_free(H->h[TRIM__H_FUSION_RESULT]);
	trim_fusion_plan_free(H->h[TRIM__H_FUSION_PLAN]);
	trim_fusion_free(H->h[TRIM__H_FUSION]);
	trim_sparsity_free(H->h[TRIM__H_SPARSITY]);
	trim_space_free(H->h[TRIM__H_SPACE]);
	trim_constraints_free(H->h[TRIM__H_CONSTRAINTS]);
	trim_energy_free(H->h[TRIM__H_ENERGY]);
	trim_arch_free(H->h[TRIM__H_ARCH]);
	trim_workloads_free(H->h[TRIM__H_WORKLOADS]);
	trim_network_free(H->h[TRIM__H_NETWORK]);
	trim_onnx_options_free(H->h[TRIM__H_ONNX_OPTIONS]);
}

/* Call entry e with h in its handle argument: TRIM_EINVAL, the error code
 * set, a message naming the function, the type expected and `got`, and
 * nothing written to the outputs. */
static void expect_refused(const entry *e, void *h, void *const *F, const char *got)
{
	scratch *S = calloc(1, sizeof *S);
	ck_assert_ptr_nonnull(S);
	trim_clear_error();
	int rc = e->call(h, F, S);
	const char *msg = trim_last_error();
	char want[64];
	snprintf(want, sizeof want, "expected a %s handle", trim__handle_type_name(e->type));
	ck_assert_msg(rc == TRIM_EINVAL && trim_last_error_code() == TRIM_EINVAL,
	              "%s(%s = %s): rc %d, code %d: %s", e->function, e->argument, got, rc,
	              trim_last_error_code(), msg);
	ck_assert_msg(strstr(msg, e->function) == msg && strstr(msg, want) && strstr(msg, got),
	              "%s(%s = %s): %s", e->function, e->argument, got, msg);
	ck_assert_msg(S->out == NULL && S->text == NULL, "%s wrote an output", e->function);
	free(S);
}

/* Every entry point, every handle argument, every other type (a handle of
 * type A cast to type B *): refused, and every handle still works after. */
START_TEST(test_every_entry_point_refuses_every_other_type)
{
	handles H;
	make_handles(&H);
	size_t calls = 0;
	for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++) {
		const entry *e = &entries[k];
		for (int a = 1; a < TRIM__H_NTYPES; a++) {
			if (a == (int)e->type)
				continue;
			char got[64];
			snprintf(got, sizeof got, "is a %s handle", trim__handle_type_name((trim__handle_type)a));
			expect_refused(e, H.h[a], H.h, got);
			calls++;
		}
	}
	ck_assert_uint_eq(calls, (sizeof entries / sizeof entries[0]) * (TRIM__H_NTYPES - 2));
	/* nothing was freed or changed: the handles still answer */
	ck_assert_str_eq(trim_network_name(H.h[TRIM__H_NETWORK]), "tiny");
	ck_assert_uint_eq(trim_workloads_intra_count(H.h[TRIM__H_WORKLOADS]), 3);
	ck_assert_int_eq(trim_arch_level_count(H.h[TRIM__H_ARCH]), 5);
	ck_assert_int_eq(trim_explorer_count(H.h[TRIM__H_EXPLORER]), 3);
	ck_assert_int_eq(trim_mapping_levels(H.h[TRIM__H_MAPPING]), 5);
	ck_assert(trim_eval_cycles(H.h[TRIM__H_EVAL]) > 0);
	free_handles(&H);
}
END_TEST

/* The message of a refused handle, whole: function, argument, both types. */
START_TEST(test_message)
{
	handles H;
	make_handles(&H);
	trim_neteval *ne = NULL;
	int rc = trim_neteval_create(&ne, (const trim_network *)H.h[TRIM__H_WORKLOADS],
	                             (const trim_workloads *)H.h[TRIM__H_NETWORK], H.h[TRIM__H_ARCH], NULL);
	ck_assert_int_eq(rc, TRIM_EINVAL);
	ck_assert_ptr_null(ne);
	ck_assert_str_eq(trim_last_error(), "trim_neteval_create: argument 'net' is a trim_workloads "
	                                    "handle, expected a trim_network handle");
	/* a getter: its value for NULL, and the message */
	trim_clear_error();
	ck_assert_ptr_null(trim_network_name((const trim_network *)H.h[TRIM__H_ARCH]));
	ck_assert_str_eq(trim_last_error(), "trim_network_name: argument 'net' is a trim_arch handle, "
	                                    "expected a trim_network handle");
	/* a handle of another type given to _free is not freed */
	trim_network_free((trim_network *)H.h[TRIM__H_ARCH]);
	ck_assert_int_eq(trim_last_error_code(), TRIM_EINVAL);
	ck_assert_int_eq(trim_arch_level_count(H.h[TRIM__H_ARCH]), 5);
	free_handles(&H);
}
END_TEST

/* NULL keeps its meaning: _free(NULL) is a no-op, getters give their value
 * for NULL without the handle message; every entry point takes NULL in each
 * handle argument without the handle message (and without crashing). */
START_TEST(test_null_unchanged)
{
	handles H;
	make_handles(&H);
	for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++) {
		const entry *e = &entries[k];
		scratch *S = calloc(1, sizeof *S);
		ck_assert_ptr_nonnull(S);
		trim_clear_error();
		(void)e->call(NULL, H.h, S);
		ck_assert_msg(!strstr(trim_last_error(), " handle, expected a "), "%s(%s = NULL): %s", e->function,
		              e->argument, trim_last_error());
		if (!strcmp(e->ret, "VOID"))
			ck_assert_msg(trim_last_error_code() == 0, "%s(NULL): %s", e->function, trim_last_error());
		/* an optional handle (an energy table, constraints) may be NULL: the call works */
		trim_string_free(S->text);
		if (!strcmp(e->function, "trim_eval_mapping") || !strcmp(e->function, "trim_eval_mapping_count"))
			trim_eval_free(S->out);
		else if (!strcmp(e->function, "trim_search_create"))
			trim_search_free(S->out);
		else if (!strcmp(e->function, "trim_neteval_create"))
			trim_neteval_free(S->out);
		else
			ck_assert_msg(S->out == NULL, "%s(%s = NULL) made a handle", e->function, e->argument);
		free(S);
	}
	free_handles(&H);
	trim_clear_error();
	trim_network_free(NULL);
	trim_workloads_free(NULL);
	trim_arch_free(NULL);
	trim_mapping_free(NULL);
	ck_assert_int_eq(trim_last_error_code(), 0);
	ck_assert_ptr_null(trim_network_name(NULL));
	ck_assert_uint_eq(trim_workloads_intra_count(NULL), 0);
	ck_assert_int_eq(trim_mapping_levels(NULL), -1);
	ck_assert_int_eq(trim_last_error_code(), 0);
	trim_neteval *ne = NULL;
	ck_assert_int_eq(trim_neteval_create(&ne, NULL, NULL, NULL, NULL), TRIM_EINVAL);
	ck_assert_str_eq(trim_last_error(), "trim_neteval_create: NULL argument");
}
END_TEST

/* A freed handle and a foreign pointer. The freed tag is set by every
 * _free; it is tested on a copy of a live network made to look freed,
 * since reading memory after free() is undefined (glibc overwrites the
 * first bytes of a freed block, so a real use after free usually reads as
 * a foreign pointer: the next case). */
START_TEST(test_freed_and_foreign)
{
	trim_network *net = NULL;
	ck_assert(trim_network_load(&net, NET) == 0);
	struct trim_network copy = *net;
	TRIM__HANDLE_POISON(&copy, NETWORK);
	trim_clear_error();
	ck_assert_int_eq(trim_network_macs(&copy), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "argument 'net' is a freed trim_network handle"),
	              "%s", trim_last_error());
	uint64_t junk[64];
	for (size_t i = 0; i < 64; i++)
		junk[i] = 0x0123456789abcdefull * (i + 1);
	trim_workloads *w = NULL;
	ck_assert_int_eq(trim_workloads_create(&w, (const trim_network *)junk, 0, 0, 0), TRIM_EINVAL);
	ck_assert_ptr_null(w);
	ck_assert_msg(strstr(trim_last_error(), "argument 'net' is no live libtrim handle (tag 0x"),
	              "%s", trim_last_error());
	trim_network_free(net);
}
END_TEST

/* A real use after free and a double free, where reading freed memory is
 * allowed to happen: not under AddressSanitizer (make check SANITIZE=1
 * skips it), which would stop at the read. A small handle: its block stays
 * mapped after free(). */
START_TEST(test_use_after_free)
{
#if defined(__SANITIZE_ADDRESS__)
	printf("test_use_after_free: skipped under AddressSanitizer (it reads freed memory)\n");
#else
	trim_constraints *c = NULL;
	ck_assert(trim_constraints_create(&c) == 0);
	trim_constraints_free(c);
	trim_clear_error();
	ck_assert_uint_eq(trim_constraints_count(c), 0);
	ck_assert_int_eq(trim_last_error_code(), TRIM_EINVAL);
	trim_constraints_free(c); /* refused, not freed twice */
	ck_assert_int_eq(trim_last_error_code(), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "trim_constraints_free: argument 'c' is "),
	              "%s", trim_last_error());
#endif
}
END_TEST

/* What takes a network and workloads (the network evaluation, the explorer,
 * sparsity) refuses workloads made from another network: trim-fig2 given
 * alexnet-cifar's workloads ran and reported before. Workloads made from
 * another load of the same description are accepted; a description of the
 * same name with other content is not. */
static int take_both(int which, const trim_network *net, const trim_workloads *w, const trim_arch *a,
                     const trim_space *sp)
{
	trim_neteval *ne = NULL;
	trim_explorer *ex = NULL;
	trim_sparsity *spy = NULL;
	int rc = which == 0   ? trim_neteval_create(&ne, net, w, a, NULL)
	         : which == 1 ? trim_explorer_create(&ex, net, w, sp)
	                      : trim_sparsity_create(&spy, net, w);
	ck_assert(rc != 0 || ne || ex || spy);
	ck_assert(rc == 0 || (!ne && !ex && !spy));
	trim_neteval_free(ne);
	trim_explorer_free(ex);
	trim_sparsity_free(spy);
	return rc;
}

START_TEST(test_workloads_of_another_network)
{
	static const char *const fn[] = {"trim_neteval_create", "trim_explorer_create",
	                                 "trim_sparsity_create"};
	trim_network *fig2 = NULL, *again = NULL, *alex = NULL, *edited = NULL;
	trim_workloads *w_fig2 = NULL, *w_alex = NULL;
	trim_arch *a = NULL;
	trim_space *sp = NULL;
	ck_assert(trim_network_load(&fig2, "models/networks/trim-fig2.yaml") == 0);
	ck_assert(trim_network_load(&again, "models/networks/trim-fig2.yaml") == 0);
	ck_assert(trim_network_load(&alex, "models/networks/alexnet-cifar.yaml") == 0);
	ck_assert_msg(trim_network_load_string(&edited,
	                                       "network: {name: trim-fig2, input: [32, 32, 3]}\n"
	                                       "layers:\n  - {name: conv1, type: conv2d, filters: 8, "
	                                       "kernel: 3}\n", "edited.yaml") == 0,
	              "%s", trim_last_error());
	ck_assert(trim_workloads_create(&w_fig2, fig2, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert(trim_workloads_create(&w_alex, alex, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_arch_load(&a, "models/arch/eyeriss.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_space_load(&sp, SPACE) == 0, "%s", trim_last_error());
	for (int k = 0; k < 3; k++) {
		char want[256];
		ck_assert_int_eq(take_both(k, fig2, w_alex, a, sp), TRIM_EINVAL);
		snprintf(want, sizeof want, "%s: the workloads were made from network 'alexnet-cifar', "
		         "not from 'trim-fig2'", fn[k]);
		ck_assert_msg(strstr(trim_last_error(), want) == trim_last_error(), "%s", trim_last_error());
		ck_assert_int_eq(take_both(k, edited, w_fig2, a, sp), TRIM_EINVAL);
		snprintf(want, sizeof want, "%s: the workloads were made from another description of "
		         "network 'trim-fig2'", fn[k]);
		ck_assert_msg(strstr(trim_last_error(), want) == trim_last_error(), "%s", trim_last_error());
		ck_assert_msg(take_both(k, fig2, w_fig2, a, sp) == 0, "%s", trim_last_error());
		ck_assert_msg(take_both(k, again, w_fig2, a, sp) == 0, "%s: %s", fn[k], trim_last_error());
	}
	trim_network_free(again);
	/* the workloads outlive their network (trim/workload.h) and still match a reload */
	trim_network_free(fig2);
	ck_assert(trim_network_load(&fig2, "models/networks/trim-fig2.yaml") == 0);
	ck_assert_msg(take_both(0, fig2, w_fig2, a, sp) == 0, "%s", trim_last_error());
	trim_space_free(sp);
	trim_arch_free(a);
	trim_workloads_free(w_alex);
	trim_workloads_free(w_fig2);
	trim_network_free(edited);
	trim_network_free(alex);
	trim_network_free(fig2);
}
END_TEST

/* test/handle_calls.h lists every function of the public headers (include/trim/) that takes a
 * handle, once per handle argument (read from the headers as written). */
static int listed(const char *fn, const char *arg)
{
	for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++)
		if (!strcmp(entries[k].function, fn) && !strcmp(entries[k].argument, arg))
			return 1;
	return 0;
}

/* The handle arguments of one declaration "... trim_f(params)": 1 per
 * argument of a handle type (a pointer, not a pointer to one) not listed,
 * counted into *n. */
static int missing_in(const char *decl, size_t *n)
{
	const char *open = strchr(decl, '('), *close = strrchr(decl, ')');
	if (!open || !close)
		return 0;
	const char *name = open;
	while (name > decl && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	char fn[128], params[1024];
	snprintf(fn, sizeof fn, "%.*s", (int)(open - name), name);
	snprintf(params, sizeof params, "%.*s", (int)(close - open - 1), open + 1);
	int missing = 0;
	for (char *save = NULL, *p = strtok_r(params, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		for (int k = 1; k < TRIM__H_NTYPES; k++) {
			char type[64], arg[64];
			const char *tn = trim__handle_type_name((trim__handle_type)k);
			const char *at = strstr(p, tn);
			if (!at || (at[strlen(tn)] != ' ' && at[strlen(tn)] != '*'))
				continue;
			if (sscanf(at, "%63s *%63[A-Za-z0-9_]", type, arg) != 2 || strcmp(type, tn))
				continue;
			(*n)++;
			if (!listed(fn, arg)) {
				fprintf(stderr, "test/handle_calls.h lacks %s (argument %s)\n", fn, arg);
				missing++;
			}
		}
	}
	return missing;
}

START_TEST(test_table_covers_the_headers)
{
	static const char *const headers[] = {
		"arch", "common", "constraints", "energy", "eval", "explore", "fusedtiles", "fusion", "mapping",
		"neteval", "onnx", "search", "space", "sparsity", "work", "workload"};
	size_t args = 0;
	int missing = 0;
	for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
		char path[64];
		snprintf(path, sizeof path, "include/trim/%s.h", headers[h]);
		FILE *f = fopen(path, "r");
		ck_assert_msg(f != NULL, "%s", path);
		static char text[1 << 17];
		size_t len = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[len] = 0;
		for (char *at = strstr(text, "TRIM_API "); at; at = strstr(at + 1, "TRIM_API ")) {
			char *end = strchr(at, ';');
			if (!end)
				break;
			char decl[2048];
			snprintf(decl, sizeof decl, "%.*s", (int)(end - at), at);
			missing += missing_in(decl, &args);
		}
	}
	ck_assert_uint_eq(args, sizeof entries / sizeof entries[0]);
	ck_assert_int_eq(missing, 0);
}
END_TEST

Suite *handle_suite(void)
{
	Suite *s = suite_create("handle");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_entry_point_refuses_every_other_type);
	tcase_add_test(tc, test_message);
	tcase_add_test(tc, test_null_unchanged);
	tcase_add_test(tc, test_freed_and_foreign);
	tcase_add_test(tc, test_use_after_free);
	tcase_add_test(tc, test_table_covers_the_headers);
	tcase_add_test(tc, test_workloads_of_another_network);
	suite_add_tcase(s, tc);
	return s;
}
