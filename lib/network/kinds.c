/*
 * The layer kinds (network_int.h's TRIM__LAYER_KINDS, one row each): the keys
 * each accepts and the table the parser dispatches on. A new layer type is a
 * row there, its keys here and its shape function (network.c for the CNN
 * kinds, layers.c for the others).
 */
#include <stddef.h>

#include "network_int.h"

static const char *const keys_conv[] = {"name", "type", "inputs", "in_shape", "filters", "kernel", "strides", "padding", "dilation", "groups", "activation", "use_bias", "sparsity", NULL};
static const char *const keys_depthwise[] = {"name", "type", "inputs", "in_shape", "kernel", "strides", "padding", "dilation", "depth_multiplier", "activation", "use_bias", "sparsity", NULL};
static const char *const keys_dense[] = {"name", "type", "inputs", "in_shape", "units", "activation", "use_bias", "sparsity", NULL};
static const char *const keys_pool[] = {"name", "type", "inputs", "in_shape", "pool", "strides", "padding", NULL};
static const char *const keys_plain[] = {"name", "type", "inputs", "in_shape", NULL};
static const char *const keys_dropout[] = {"name", "type", "inputs", "in_shape", "rate", NULL};
static const char *const keys_merge[] = {"name", "type", "inputs", "in_shape", "activation", "sparsity", NULL};
static const char *const keys_concat[] = {"name", "type", "inputs", "in_shape", "axis", NULL};
static const char *const keys_act[] = {"name", "type", "inputs", "in_shape", "activation", "sparsity", NULL};
static const char *const keys_matmul[] = {"name", "type", "inputs", "in_shape", "heads", "transpose_b", NULL};
static const char *const keys_upsample[] = {"name", "type", "inputs", "in_shape", "size", "interpolation", NULL};
static const char *const keys_conv_t[] = {"name", "type", "inputs", "in_shape", "filters", "kernel", "strides", "padding", "output_padding", "groups", "activation", "use_bias", "sparsity", NULL};
static const char *const keys_embedding[] = {"name", "type", "inputs", "in_shape", "vocab", "units", NULL};
static const char *const keys_reshape[] = {"name", "type", "inputs", "in_shape", "shape", NULL};
static const char *const keys_transpose[] = {"name", "type", "inputs", "in_shape", "perm", NULL};
static const char *const keys_split[] = {"name", "type", "inputs", "in_shape", "axis", "sizes", "index", NULL};
static const char *const keys_parameter[] = {"name", "type", "shape", NULL};
static const char *const keys_zeropad[] = {"name", "type", "inputs", "in_shape", "padding", NULL};
static const char *const keys_crop[] = {"name", "type", "inputs", "in_shape", "cropping", NULL};

const trim__layer_kind trim__layer_kinds[TRIM__L_COUNT + 1] = {
#define TRIM__X_ROW(e, name, keys, lo, hi, fn) {name, keys, lo, hi, fn},
	TRIM__LAYER_KINDS(TRIM__X_ROW)
#undef TRIM__X_ROW
	{NULL, NULL, 0, 0, NULL},
};

const char *const trim__layer_kind_names[TRIM__L_COUNT + 1] = {
#define TRIM__X_NAME(e, name, keys, lo, hi, fn) name,
	TRIM__LAYER_KINDS(TRIM__X_NAME)
#undef TRIM__X_NAME
	NULL,
};
