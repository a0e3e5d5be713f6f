/*
 * trim/fusedtiles.h - fused tiles across layers (docs/fusion.md, "Fused
 * tiles"): the chains of a network's layers fused in groups that share the
 * loops above a buffer level, so the tensors between the layers of a group
 * stay in that buffer instead of going to DRAM; each layer's mapping below
 * it is found by the per-layer search, and the plan (where to cut each
 * chain, the shared tiling of each group) is searched exactly, the
 * layer-by-layer plan being one candidate.
 *
 * A chain is a run of consecutive FW workloads of a network (inference, or
 * training's, whose BW workloads also form chains in reverse, BW_(i+1) ->
 * BW_i, each intermediate dY_i also drained to DRAM once for WG_i; WG is
 * not fused) in which each layer reads only the previous layer's result, which nothing
 * else reads, with no inter-layer workload (padding, layer normalisation)
 * between them, and the same shape on both sides; or, as attention's
 * scores -> softmax -> context, a softmax alone between them whose result
 * only the next layer reads, as its first operand (its second, V, is read
 * from DRAM like weights; the softmax costs what the inter-layer model
 * says, on the tensor in DRAM or, fused, on each tile in the buffer).
 * Layers outside chains are not reported (trim_neteval maps them). Every
 * search of a chain's layer takes off the buffer's capacity the cached
 * activations that trim_neteval holds there while that layer runs (a
 * shortcut; in training, what BW and WG read), in a group the most of its
 * layers', so the layer-by-layer plan costs what trim_neteval finds.
 *
 * Ownership: the report text (*out) belongs to the caller: release it with
 * trim_string_free(). Nothing else is kept.
 * Thread safety: reads its arguments only; runs the per-layer searches on
 * `threads` OpenMP threads; the result is the same for any thread count.
 */
#ifndef TRIM_FUSEDTILES_H
#define TRIM_FUSEDTILES_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/energy.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Search the fused plan of every chain of w (made from net)
 * on arch and write a report (TRIM_FORMAT_TABLE or TRIM_FORMAT_JSON) into
 * *out. table NULL: the architecture's technology. range NULL or "all":
 * every chain; "FIRST:LAST" (layer names): fused groups only within those
 * layers (the chains are still reported). level NULL: the first storage
 * level below the outermost, if it lies above every spatial level; else a
 * level name. goal TRIM_GOAL_ENERGY or TRIM_GOAL_DELAY (see trim/search.h);
 * threads >= 1. Errors: TRIM_EINVAL (a bad level or goal, EDP),
 * TRIM_ENOTFOUND (an unknown layer or level, with the nearest
 * name), TRIM_ENOFIT (a layer that no mapping fits). */
TRIM_API int trim_fusedtiles_report(const trim_network *net, const trim_workloads *w, const trim_arch *arch,
                                    const trim_energy *table, const char *range, const char *level, int goal,
                                    int threads, int format, char **out);

/** trim_fusedtiles_report within a time limit: time_limit > 0 seconds of
 * wall time, shared by the chains by their layers (each gets the time
 * left times its layers over the layers of the chains left), 0 none (the
 * exact search, as trim_fusedtiles_report).
 * The layers are always searched alone first (each given the time left),
 * so the layer-by-layer plan is always a candidate and the plan never
 * costs more; tilings not searched by then are bounded by their floors.
 * The report gives what was proven: per chain and in the totals the lower
 * bound, "exact", "gap" ((cost - lower bound) / cost) and "stopped" (the
 * time limit left candidates unsearched). Errors: those of
 * trim_fusedtiles_report, and TRIM_EINVAL for a time limit below 0, NaN
 * or above 1e9. */
TRIM_API int trim_fusedtiles_report_within(const trim_network *net, const trim_workloads *w,
                                           const trim_arch *arch, const trim_energy *table, const char *range,
                                           const char *level, int goal, int threads, double time_limit,
                                           int format, char **out);

#ifdef __cplusplus
}
#endif

#endif
