/* Architectures: load, then the per-level report costed by a fixed table,
 * the area or FPGA resources, and a clone. */
#include "fuzz.h"

static trim_energy *asic, *fpga;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_energy_load(&asic, "energy_tables/65nm.yaml"));
	FUZZ_REQUIRE(trim_energy_load(&fpga, "energy_tables/fpga-xc7z020.yaml"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	trim_arch *a = NULL;
	if (trim_arch_load_string(&a, text, "fuzz.yaml") == 0) {
		for (int k = 0; k < 2; k++) {
			trim_energy *t = k ? fpga : asic;
			char *report = NULL;
			if (trim_arch_report(a, t, TRIM_FORMAT_JSON, &report) == 0)
				trim_string_free(report);
			double mm2 = 0, r[8];
			if (k)
				trim_energy_resources(t, a, r, 8);
			else
				trim_energy_arch_area(t, a, &mm2);
		}
		trim_arch *b = NULL;
		if (trim_arch_clone(&b, a) == 0)
			trim_arch_free(b);
		trim_arch_free(a);
	}
	free(text);
	return 0;
}
