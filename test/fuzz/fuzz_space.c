/* Architecture spaces: the input is written as DIR/arch/spaces/in.yaml, next
 * to copies of the shipped architectures and constraints (so the seeds'
 * relative base: and mapspace_constraints: paths resolve); load, report,
 * and the architecture of every accepted point. */
#include "fuzz.h"

static char space_path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *d = fuzz_dir();
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
	         "mkdir -p '%s/arch/spaces' '%s/arch/neteval' '%s/constraints' && cp models/arch/*.yaml '%s/arch/' && "
	         "cp test/data/neteval/*.yaml '%s/arch/spaces/' && cp test/data/neteval/*.yaml '%s/arch/neteval/' && "
	         "cp models/constraints/*.yaml '%s/constraints/'",
	         d, d, d, d, d, d, d);
	if (system(cmd) != 0)
		abort();
	snprintf(space_path, sizeof space_path, "%s/arch/spaces/in.yaml", d);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(space_path, data, size);
	trim_space *s = NULL;
	if (trim_space_load(&s, space_path) == 0) {
		char *report = NULL;
		if (trim_space_report(s, TRIM_FORMAT_JSON, &report) == 0)
			trim_string_free(report);
		if (trim_space_report(s, TRIM_FORMAT_TABLE, &report) == 0)
			trim_string_free(report);
		for (uint64_t i = 0; i < trim_space_count(s) && i < 64; i++) {
			trim_arch *a = NULL;
			if (trim_space_point_arch(s, i, &a) == 0)
				trim_arch_free(a);
		}
		trim_space_free(s);
	}
	return 0;
}
