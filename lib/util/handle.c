/* The messages of typed handles (util/handle.h). */
#include <stdio.h>

#include "handle.h"
#include "util.h"

static const char *const type_names[TRIM__H_NTYPES] = {
	[TRIM__H_NETWORK] = "trim_network",
	[TRIM__H_WORKLOADS] = "trim_workloads",
	[TRIM__H_ARCH] = "trim_arch",
	[TRIM__H_ENERGY] = "trim_energy",
	[TRIM__H_CONSTRAINTS] = "trim_constraints",
	[TRIM__H_SPACE] = "trim_space",
	[TRIM__H_SPARSITY] = "trim_sparsity",
	[TRIM__H_FUSION] = "trim_fusion",
	[TRIM__H_FUSION_PLAN] = "trim_fusion_plan",
	[TRIM__H_FUSION_RESULT] = "trim_fusion_result",
	[TRIM__H_MAPPING] = "trim_mapping",
	[TRIM__H_EVAL] = "trim_eval",
	[TRIM__H_SEARCH] = "trim_search",
	[TRIM__H_NETEVAL] = "trim_neteval",
	[TRIM__H_EXPLORER] = "trim_explorer",
	[TRIM__H_WORK] = "trim_work",
	[TRIM__H_ONNX_OPTIONS] = "trim_onnx_options",
};

const char *trim__handle_type_name(trim__handle_type k)
{
	return k > 0 && k < TRIM__H_NTYPES ? type_names[k] : "?";
}

int trim__handle_mismatch(const void *h, trim__handle_type want, const char *fn, const char *arg)
{
	uint32_t tag = *(const uint32_t *)h;
	char got[96];
	if (tag > TRIM__TAG_LIVE && tag < TRIM__TAG_LIVE + TRIM__H_NTYPES)
		snprintf(got, sizeof got, "a %s handle",
		         trim__handle_type_name((trim__handle_type)(tag - TRIM__TAG_LIVE)));
	else if (tag > TRIM__TAG_FREED && tag < TRIM__TAG_FREED + TRIM__H_NTYPES)
		snprintf(got, sizeof got, "a freed %s handle (used after its _free)",
		         trim__handle_type_name((trim__handle_type)(tag - TRIM__TAG_FREED)));
	else
		snprintf(got, sizeof got, "no live libtrim handle (tag 0x%08x: freed memory, or a "
		         "pointer the library did not make)", (unsigned)tag);
	return trim__error(TRIM_EINVAL, "%s: argument '%s' is %s, expected a %s handle", fn, arg, got,
	                   trim__handle_type_name(want));
}
