/* Mappings in libtrim's and Timeloop's format (one loader takes both), on
 * Eyeriss: load, dump, then check and evaluate against every intra workload
 * of AlexNet-CIFAR in training (FW, BW, WG; the seeds map its conv1). */
#include "fuzz.h"

static trim_network *net;
static trim_workloads *w;
static trim_arch *arch;
static trim_energy *table;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_network_load(&net, "models/networks/alexnet-cifar.yaml"));
	FUZZ_REQUIRE(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 1, 0));
	FUZZ_REQUIRE(trim_arch_load(&arch, "models/arch/eyeriss.yaml"));
	FUZZ_REQUIRE(trim_energy_load_for_arch(&table, arch));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	trim_mapping *m = NULL;
	if (trim_mapping_load_string(&m, arch, text, "fuzz.yaml") == 0) {
		char *dump = NULL;
		if (trim_mapping_dump(m, TRIM_FORMAT_YAML, &dump) == 0)
			trim_string_free(dump);
		if (trim_mapping_dump(m, TRIM_FORMAT_TABLE, &dump) == 0)
			trim_string_free(dump);
		for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
			if (trim_mapping_check(m, w, i, arch) != 0)
				continue;
			trim_eval *e = NULL;
			if (trim_eval_mapping(&e, w, i, arch, table, m) == 0) {
				char *report = NULL;
				if (trim_eval_report(e, TRIM_FORMAT_JSON, &report) == 0)
					trim_string_free(report);
				trim_eval_free(e);
			}
		}
		trim_mapping_free(m);
	}
	free(text);
	return 0;
}
