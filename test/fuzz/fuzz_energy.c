/* Energy tables (libtrim's YAML): load, then cost every shipped ASIC or FPGA
 * architecture (area, resources, the per-level report). */
#include "fuzz.h"

static trim_arch *arch[3];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_arch_load(&arch[0], "models/arch/eyeriss.yaml"));
	FUZZ_REQUIRE(trim_arch_load(&arch[1], "models/arch/training-baseline.yaml"));
	FUZZ_REQUIRE(trim_arch_load(&arch[2], "models/arch/fpga-pynq-z1.yaml"));
	return 0;
}

void fuzz_cost(const trim_energy *t)
{
	for (int k = 0; k < 3; k++) {
		double mm2 = 0, r[8];
		trim_energy_arch_area(t, arch[k], &mm2);
		trim_energy_resources(t, arch[k], r, 8);
		char *report = NULL;
		if (trim_arch_report(arch[k], t, TRIM_FORMAT_JSON, &report) == 0)
			trim_string_free(report);
	}
}

#ifndef FUZZ_ENERGY_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	trim_energy *t = NULL;
	if (trim_energy_load_string(&t, text, "fuzz.yaml") == 0) {
		fuzz_cost(t);
		trim_energy_free(t);
	}
	free(text);
	return 0;
}
#endif
