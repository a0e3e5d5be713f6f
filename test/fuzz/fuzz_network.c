/* Network descriptions: load, then the task analyst in both modes, its report
 * and the sparsity annotations. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	trim_network *net = NULL;
	if (trim_network_load_string(&net, text, "fuzz.yaml") == 0) {
		for (int mode = TRIM_MODE_INFERENCE; mode <= TRIM_MODE_TRAINING; mode++) {
			trim_workloads *w = NULL;
			if (trim_workloads_create(&w, net, mode, 0, 0) == 0) {
				char *report = NULL;
				if (trim_workloads_report(w, TRIM_FORMAT_JSON, &report) == 0)
					trim_string_free(report);
				trim_sparsity *sp = NULL;
				if (trim_sparsity_create(&sp, net, w) == 0) {
					double f[TRIM_SP_NFIELDS];
					for (size_t i = 0; i < trim_workloads_intra_count(w); i++)
						trim_sparsity_workload(sp, i, f, TRIM_SP_NFIELDS);
					trim_sparsity_free(sp);
				}
				trim_workloads_free(w);
			}
		}
		trim_network_free(net);
	}
	free(text);
	return 0;
}
