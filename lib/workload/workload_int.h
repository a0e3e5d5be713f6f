/*
 * lib/workload/: the task analyst. One concept per file:
 *   workload.c   network -> intra- and inter-layer workloads, the build
 *   layers.c     the nests of transformer and decoder layer types
 *   tensors.c    derived tensor fields, index expressions, zero counts
 *   zero_macs.c  the MACs with a predictable-zero operand, exactly (the
 *                activity analyst's count, cached in the workload)
 *   api.c        the public API: names, create / free, accessors, dumps
 * Headers: workload_int.h (this: the workload the rest of lib/ reads),
 * workload_build_int.h (the builder the files above share).
 *
 * Internal representation of intra- and inter-layer workloads.
 *
 * ONE generic workload type serves every layer kind and phase. An
 * intra-layer workload is the loop nest
 *
 *   for n < N, g < G, m < M, c < C, e < E, f < F, r < R, s < S:
 *       T[2][proj2(i)] += T[0][proj0(i)] * T[1][proj1(i)]
 *
 * over the eight dimensions TRIM_DIM_* (include/trim/workload.h). The three
 * tensors are always in role order: slot 0 the "input-like" operand (the
 * sliding-window operand in convolutions), slot 1 the "weight-like" operand,
 * slot 2 the result. A tensor index is a list of index expressions, each a
 * sum of at most two terms coef * loop_index (e.g. h = U*e + D*r). FW, BW
 * and WG of CONV/FC/POOL differ only in bounds, slot contents and
 * projections; see docs/model.md for every phase's nest.
 */
#ifndef TRIM_WORKLOAD_INT_H
#define TRIM_WORKLOAD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "network/network_int.h"
#include "trim/workload.h"

#define TRIM__MAX_TDIMS 5 /* n, g, c/m, h, w */
#define TRIM__MAX_TERMS 2

/* One index expression of a tensor: sum of coef[k] * loop_index[dim[k]]. */
typedef struct {
	int nterms;
	int dim[TRIM__MAX_TERMS];
	int64_t coef[TRIM__MAX_TERMS];
} trim__iexpr;

/* How the predictable zeros of an operand lie along one spatial axis:
 * position p = coef_e * e + coef_r * r (p counted in the operand's stored
 * coordinates) holds a real value iff lo <= p <= hi and (p - lo) % step == 0;
 * every other position is a zero made by padding or zero insertion. */
typedef struct {
	int64_t lo, hi, step;
} trim__zaxis;

typedef struct {
	char name[TRIM__NAME_LEN]; /* "ifmap", "weight", "ofmap", "dY", "dX", "dW", ... */
	int present;               /* 0 for POOL FW/avgpool BW second operand */
	int ndims;
	trim__iexpr idx[TRIM__MAX_TDIMS];
	int64_t extent[TRIM__MAX_TDIMS]; /* stored shape along each index */
	int64_t elems;                   /* product of extent */
	/* Predictable zeros (padding / upsampling) along the two spatial index
	 * expressions (idx[ndims-2] and idx[ndims-1]); has_zeros = 0: dense. */
	int has_zeros;
	trim__zaxis zaxis[2];
	/* Which loop dimensions index this tensor (bit TRIM_DIM_x). */
	unsigned relevant;
} trim__tensor;

typedef struct {
	char layer[TRIM__NAME_LEN];
	int layer_index;  /* index in the network's layer list */
	int phase;        /* TRIM_PHASE_FW / BW / WG */
	int kind;         /* TRIM_WL_CONV, ... */
	int64_t bound[TRIM_NDIMS];
	int64_t stride[2], dilation[2]; /* informational (projections carry them) */
	trim__tensor t[3];
	int64_t macs;      /* product of all bounds */
	int64_t zero_macs; /* MACs with a predictable zero operand */
	/* The activity analyst's zero-MAC count (trim__intra_act_zero_macs),
	 * cached when the workload is built (act_zero_ok = 1); 0: not cached
	 * (counted on every call, e.g. for a trim__intra filled by hand). */
	int64_t act_zero_macs;
	int act_zero_ok;
	int pre_index;     /* index of its preprocessing inter-layer workload, -1 none */
} trim__intra;

/* Inter-layer workloads. */
enum trim__inter_op {
	TRIM__OP_PAD = 0,       /* FW/WG padding of the input */
	TRIM__OP_UPSAMPLE_PAD,  /* BW zero insertion + padding of the output gradient */
	TRIM__OP_TRANSPOSE,     /* BW filter transposition / rotation */
	TRIM__OP_CACHE,         /* a tensor kept from FW for BW / WG */
	TRIM__OP_SHORTCUT,      /* a residual / concat branch kept until its merge */
	TRIM__OP_CONCAT,        /* data movement of a concatenation */
	TRIM__OP_BATCHNORM,     /* normalisation off the PE array: constant delay */
	TRIM__OP_LAYERNORM,     /* layer normalisation: vector work, like BatchNorm */
	TRIM__OP_SOFTMAX,       /* softmax: vector work, like BatchNorm */
	TRIM__OP_MOVE,          /* data movement: transpose, split, nearest upsampling */
	TRIM__OP_LOOKUP,        /* an embedding lookup (FW) or its row updates (WG) */
	TRIM__OP_COUNT
};

typedef struct {
	int op;
	char layer[TRIM__NAME_LEN];
	int layer_index;
	int phase;
	char tensor[TRIM__NAME_LEN];
	int64_t in_shape[4];  /* N, C, H, W (1 where absent) */
	int64_t out_shape[4];
	int64_t in_elems, out_elems;
	int64_t zeros;        /* zeros the operation creates */
	int64_t elems;        /* cached / moved elements (CACHE, SHORTCUT, CONCAT) */
	int before_intra;     /* preprocessing: the intra workload it feeds; else -1 */
	int created, freed;   /* caching: first and last intra index of its lifetime */
} trim__inter;

/* 0 when w was made from net (trim_workloads_create of a network with the
 * same description: the same content digest), else TRIM_EINVAL with a
 * message that starts with fn and names both networks. Called by every
 * function that takes a network and its workloads (trim_neteval_create,
 * trim_explorer_create, trim_sparsity_create); both non-NULL. */
int trim__workloads_check_origin(const trim_workloads *w, const trim_network *net, const char *fn);

/* Read-only view of intra workload i (NULL if out of range), for the mapper. */
const trim__intra *trim__workloads_intra(const trim_workloads *w, size_t i);
/* Read-only view of inter workload j (NULL if out of range). */
const trim__inter *trim__workloads_inter(const trim_workloads *w, size_t j);

/* Fill in derived fields of a tensor (elems, relevant). */
void trim__tensor_finish(trim__tensor *t);
/* Count predictable-zero MACs of an intra workload exactly (per-axis). */
int64_t trim__intra_zero_macs(const trim__intra *w);

/* Exact count of MACs with a predictable-zero operand, as the activity
 * analyst charges them (zero_macs.c). It depends on the workload only: the
 * value cached in w (act_zero_ok) is returned when there is one, else it is
 * counted (an enumeration of the dims of the zero constraints). */
int trim__intra_act_zero_macs(const trim__intra *w, int64_t *out);
/* Count it once and cache it in w (workload.c, when a workload is built);
 * nothing is cached (and no error is set) when the count fails, so
 * trim__intra_act_zero_macs then reports the error. Call it again after
 * changing the bounds or the tensors of w. */
void trim__intra_act_zero_macs_cache(trim__intra *w);
/* The same count by enumerating every index point of each component (the
 * slow, obvious count the tests compare against; no 2^30 cap): 0 or -1 if
 * the MAC count overflows. */
int trim__intra_act_zero_macs_slow(const trim__intra *w, int64_t *out);

#endif
