/*
 * The names of the fusion parameters, metrics and goals (docs/fusion.md) and
 * their public lookups.
 */
#include <string.h>

#include "fusion_int.h"

const char *const trim__fusion_param_names[TRIM_FUSION_NPARAMS] = {
	"clock_mhz", "word_bits", "dram_pj_per_bit", "dram_words_per_cycle", "sram_read_pj",
	"sram_write_pj", "mac_pj", "dsp_per_mac", "dsp_available", "bram36_available", "static_mw",
	"op_latency", "budget_dsp", "enum_max_layers"};
const char *const trim__fusion_metric_names[TRIM_FUSION_NMETRICS] = {
	"offchip_fmap_bytes", "offchip_weight_bytes", "offchip_bytes", "onchip_buffer_bytes",
	"onchip_fmap_bytes", "macs_parallel", "dsp", "bram36", "latency_cycles", "cycles",
	"time_ms", "macs", "dram_pj", "sram_pj", "mac_pj", "static_pj", "energy_pj", "group_count"};
const char *const trim__fusion_goal_names[TRIM_FUSION_NGOALS] = {"offchip", "cycles", "dsp",
                                                                 "onchip", "energy"};

TRIM_API const char *trim_fusion_param_name(int p)
{
	return p >= 0 && p < TRIM_FUSION_NPARAMS ? trim__fusion_param_names[p] : NULL;
}

TRIM_API const char *trim_fusion_metric_name(int m)
{
	return m >= 0 && m < TRIM_FUSION_NMETRICS ? trim__fusion_metric_names[m] : NULL;
}

TRIM_API const char *trim_fusion_goal_name(int g)
{
	return g >= 0 && g < TRIM_FUSION_NGOALS ? trim__fusion_goal_names[g] : NULL;
}

TRIM_API int trim_fusion_goal_from_name(const char *name)
{
	for (int g = 0; name && g < TRIM_FUSION_NGOALS; g++)
		if (!strcmp(name, trim__fusion_goal_names[g]))
			return g;
	return trim__error(TRIM_EINVAL, "unknown fusion goal '%s' (offchip, cycles, dsp, onchip, "
	                   "energy)", name ? name : "(null)");
}
