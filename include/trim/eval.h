/*
 * trim/eval.h - evaluation of one mapping of one intra-layer workload:
 * activity counts, cycles, energy and utilisation (docs/model.md, "Mapping
 * and activity model" and "Evaluator").
 *
 * Ownership: a trim_eval returned through **out belongs to the caller and
 * is released with trim_eval_free (NULL accepted); it does not reference
 * its inputs, which may be freed first. Strings returned as const char *
 * live as long as the trim_eval.
 * Thread safety: trim_eval_mapping may run in many threads at once on the
 * same (const) inputs.
 */
#ifndef TRIM_EVAL_H
#define TRIM_EVAL_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/energy.h"
#include "trim/mapping.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_eval trim_eval;

/**
 * Validate mapping `m` for intra workload `i` of `w` on `arch` (structure and
 * capacity: TRIM_ESHAPE / TRIM_ENOFIT with a message) and evaluate it with
 * energy table `table` (NULL: the architecture's technology, resolved as
 * trim_energy_load_for_arch does).
 */
TRIM_API int trim_eval_mapping(trim_eval **out, const trim_workloads *w, size_t i,
                               const trim_arch *arch, const trim_energy *table,
                               const trim_mapping *m);
TRIM_API void trim_eval_free(trim_eval *e);

TRIM_API double trim_eval_cycles(const trim_eval *e);
TRIM_API double trim_eval_energy_pj(const trim_eval *e);
/** Energy-delay product, pJ x cycles. */
TRIM_API double trim_eval_edp(const trim_eval *e);
TRIM_API double trim_eval_pe_utilization(const trim_eval *e);
TRIM_API int64_t trim_eval_macs(const trim_eval *e);
TRIM_API int64_t trim_eval_zero_macs(const trim_eval *e);
/** Name of the level with the most cycles. */
TRIM_API const char *trim_eval_bottleneck(const trim_eval *e);
/** Report as TRIM_FORMAT_JSON (every count) or TRIM_FORMAT_TABLE; free
 * *out with trim_string_free. */
TRIM_API int trim_eval_report(const trim_eval *e, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
