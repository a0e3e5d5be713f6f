/* Runs every Check suite (one per module: test/check_<module>.c). */
#include <check.h>
#include <stdlib.h>

#define TRIM_SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef TRIM_SUITE

int main(void)
{
	SRunner *sr = NULL;
#define TRIM_SUITE(name)                                                                \
	if (!sr)                                                                              \
		sr = srunner_create(name##_suite());                                              \
	else                                                                                  \
		srunner_add_suite(sr, name##_suite());
#include "suites.h"
#undef TRIM_SUITE
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
