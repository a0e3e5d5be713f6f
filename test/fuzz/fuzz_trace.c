/* Sparsity traces (CSV): the input is written as a file and loaded over the
 * annotations of VGG-16 in training (the shipped trace's network), and into
 * a network evaluation on Eyeriss. */
#include "fuzz.h"

static trim_network *net;
static trim_workloads *w;
static trim_arch *arch;
static char path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_network_load(&net, "models/networks/vgg16.yaml"));
	FUZZ_REQUIRE(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 1, 0));
	FUZZ_REQUIRE(trim_arch_load(&arch, "models/arch/eyeriss.yaml"));
	snprintf(path, sizeof path, "%s/trace.csv", fuzz_dir());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(path, data, size);
	trim_sparsity *sp = NULL;
	if (trim_sparsity_create(&sp, net, w) == 0) {
		if (trim_sparsity_load_trace(sp, path) == 0) {
			double f[TRIM_SP_NFIELDS], z = 0;
			for (size_t i = 0; i < trim_workloads_intra_count(w); i++)
				trim_sparsity_workload(sp, i, f, TRIM_SP_NFIELDS);
			trim_sparsity_layer(sp, "conv1_1", &z);
		}
		trim_sparsity_free(sp);
	}
	trim_neteval *ne = NULL;
	if (trim_neteval_create(&ne, net, w, arch, NULL) == 0) {
		trim_neteval_load_trace(ne, path);
		trim_neteval_free(ne);
	}
	return 0;
}
