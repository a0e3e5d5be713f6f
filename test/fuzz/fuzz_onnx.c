/* ONNX models: import from memory (protobuf decoding, the translation, the
 * network loader behind it), then the task analyst in both modes and its
 * report; also with the pass-through option and a fixed batch. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	trim_onnx_options *o = NULL;
	if (trim_onnx_options_create(&o))
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		trim_onnx_options_set_passthrough(o, pass);
		trim_onnx_options_set_batch(o, pass ? 2 : 0);
		trim_onnx_options_set_dim(o, "seq", 4);
		trim_network *net = NULL;
		if (trim_network_load_onnx_memory(&net, data, size, "fuzz.onnx", o) != 0)
			continue;
		for (int mode = TRIM_MODE_INFERENCE; mode <= TRIM_MODE_TRAINING; mode++) {
			trim_workloads *w = NULL;
			if (trim_workloads_create(&w, net, mode, 0, 0) == 0) {
				char *report = NULL;
				if (trim_workloads_report(w, TRIM_FORMAT_JSON, &report) == 0)
					trim_string_free(report);
				trim_workloads_free(w);
			}
		}
		trim_network_free(net);
	}
	trim_onnx_options_free(o);
	return 0;
}
