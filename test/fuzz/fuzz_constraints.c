/* Dataflow constraints (libtrim's targets: and Timeloop's
 * mapspace_constraints:): load, check against Eyeriss and the training
 * baseline, dump, merge with a preset. */
#include "fuzz.h"

static trim_arch *arch[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_arch_load(&arch[0], "models/arch/eyeriss.yaml"));
	FUZZ_REQUIRE(trim_arch_load(&arch[1], "models/arch/training-baseline.yaml"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	trim_constraints *c = NULL;
	if (trim_constraints_load_string(&c, text, "fuzz.yaml") == 0) {
		for (int k = 0; k < 2; k++) {
			char *dump = NULL;
			if (trim_constraints_check(c, arch[k]) == 0 && trim_constraints_dump(c, arch[k], &dump) == 0)
				trim_string_free(dump);
		}
		char *dump = NULL;
		if (trim_constraints_dump(c, NULL, &dump) == 0)
			trim_string_free(dump);
		trim_constraints *d = NULL;
		if (trim_constraints_clone(&d, c) == 0) {
			if (trim_constraints_add_preset(d, "row-stationary") == 0)
				trim_constraints_merge(d, c);
			trim_constraints_free(d);
		}
		trim_constraints_free(c);
	}
	free(text);
	return 0;
}
