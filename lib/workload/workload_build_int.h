/*
 * The task analyst's builder, shared by workload.c (CONV / FC / POOL / add,
 * the analysis), layers.c (the layer types of transformers and
 * decoders), tensors.c (index expressions, zero axes) and
 * api.c (trim_workloads_create). Internal.
 */
#ifndef TRIM_WORKLOAD_BUILD_INT_H
#define TRIM_WORKLOAD_BUILD_INT_H

#include "network/network_int.h"
#include "util/handle.h"
#include "workload_int.h"

struct trim_workloads {
	uint32_t tag; /* TRIM__H_WORKLOADS (util/handle.h): first, checked by every entry point */
	char network[TRIM__NAME_LEN];
	char **warnings; /* copies of the network's warnings */
	int nwarnings;
	int mode;
	int64_t batch;
	int word_bits;
	trim__intra *intra;
	size_t nintra, capintra;
	trim__inter *inter;
	size_t ninter, capinter;
	int64_t *cached; /* live cached bytes per intra index */
	int64_t peak_cached;
	int64_t params, network_macs;
	int64_t total_macs, total_zero_macs; /* sums over the intra workloads (checked) */
	unsigned char origin[TRIM__DIGEST_BYTES]; /* the network's digest (trim__workloads_check_origin) */
};

typedef struct {
	struct trim_workloads *w;
	const struct trim_network *net;
	int64_t N;
	int *fw_index;      /* per layer: index of its FW intra workload, -1 */
	int *last_fw;       /* per layer: last intra index emitted up to its FW */
	int *bw_index, *wg_index;
	int *bw2_index;     /* per layer: a second BW workload (matmul: the gradient of b), -1 */
	int *bw_done;       /* per layer: last intra index emitted when its backward part is done */
	int *needs_grad;    /* per layer: the gradient w.r.t. its input is needed */
	const char *overflow; /* sticky: the first count that did not fit in 64 bits */
} builder;

/* Checked product of n counts: on overflow records `what` in b->overflow
 * (sticky) and returns INT64_MAX. */
int64_t trim__wl_checked_product(builder *b, const char *what, int n, const int64_t *f);
int trim__wl_overflow_error(const struct trim_network *net, int li, const char *what, int64_t N);
trim__intra *trim__wl_new_intra(builder *b, const trim__layer *L, int li, int phase, int kind);
void trim__wl_finish_intra(builder *b, trim__intra *x);
trim__inter *trim__wl_new_inter(builder *b, int op, const trim__layer *L, int li, int phase,
                                const char *tensor);
void trim__wl_shape4(int64_t *s, int64_t n, int64_t c, int64_t h, int64_t w);
int64_t trim__wl_prod4(builder *b, const int64_t *s);
/* tensors.c: a tensor's name and index expressions. */
void trim__wl_tname(trim__tensor *t, const char *name);
void trim__wl_ix1(trim__tensor *t, int d, int64_t extent);
void trim__wl_ix2(trim__tensor *t, int d1, int64_t c1, int d2, int64_t c2, int64_t extent);
/* tensors.c: the real (not padded, not inserted) positions in
 * [0, extent) of a zero axis, in closed form. */
int64_t trim__wl_axis_real(const trim__zaxis *z, int64_t extent);
int trim__wl_kind_of(const trim__layer *L);
int trim__wl_has_weights(const trim__layer *L);
/* The nests of a sliding-window layer (docs/model.md). */
int trim__wl_build_fw(builder *b, const trim__layer *L, int li);
int trim__wl_build_bw(builder *b, const trim__layer *L, int li);
int trim__wl_build_wg(builder *b, const trim__layer *L, int li);
/* Padding / zero insertion / filter transposition feeding intra workload wi. */
int trim__wl_add_preprocessing(builder *b, const trim__layer *L, int li, int wi);
int trim__wl_add_cache(builder *b, int op, int producer, const trim__layer *user, int user_index,
                       const char *tensor, int64_t elems, int created, int freed);
int trim__wl_created_at(const builder *b, int li);
int64_t trim__wl_out_elems(builder *b, int li);
/* The analysis over the network's layers (workload.c), called once by
 * trim_workloads_create (api.c) on a builder whose per-layer index
 * arrays it has set up: 0 or a negative TRIM_E* code. */
int trim__wl_analyse(builder *b);

/* layers.c: the FW, backward and caching work of matmul,
 * conv2d_transpose, upsample, layernorm, softmax, embedding, transpose and
 * split (0 for every other type). */
int trim__wl_forward_more(builder *b, const trim__layer *L, int li);
int trim__wl_backward_more(builder *b, const trim__layer *L, int li);
int trim__wl_cache_more(builder *b, const trim__layer *L, int li);

#endif
