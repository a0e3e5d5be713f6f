/* Internal representation of a loaded network description. */
#ifndef TRIM_NETWORK_INT_H
#define TRIM_NETWORK_INT_H

#include <stdint.h>

#include "trim/workload.h"
#include "workload_int.h"

enum trim__layer_type {
	TRIM__L_CONV = 0,
	TRIM__L_DEPTHWISE,
	TRIM__L_DENSE,
	TRIM__L_MAXPOOL,
	TRIM__L_AVGPOOL,
	TRIM__L_GLOBAL_AVGPOOL,
	TRIM__L_BATCHNORM,
	TRIM__L_FLATTEN,
	TRIM__L_DROPOUT,
	TRIM__L_ADD,
	TRIM__L_CONCAT,
	TRIM__L_ACTIVATION,
	TRIM__L_COUNT
};

enum trim__act {
	TRIM__ACT_LINEAR = 0,
	TRIM__ACT_RELU,
	TRIM__ACT_RELU6,
	TRIM__ACT_SIGMOID,
	TRIM__ACT_TANH,
	TRIM__ACT_SWISH,
	TRIM__ACT_SOFTMAX,
	TRIM__ACT_COUNT
};

#define TRIM__MAX_INPUTS 16
#define TRIM__NET_INPUT (-1) /* input index meaning "the network input" */

typedef struct {
	char name[TRIM__NAME_LEN];
	int type;
	int line, col;
	int inputs[TRIM__MAX_INPUTS]; /* layer indices, or TRIM__NET_INPUT */
	int ninputs;
	/* parameters */
	int64_t filters, units, groups, depth_multiplier;
	int64_t kernel[2], stride[2], dilation[2];
	int64_t pad[4]; /* top, bottom, left, right */
	int activation;
	int use_bias;
	double rate; /* dropout */
	/* shapes, H W C */
	int64_t in[3], out[3];
	int flat; /* output is a flat vector (after flatten / dense / global pool) */
	int64_t params, macs;
	/* ReLU-driven sparsity of the layer's output (fraction of zeros), given in
	 * the description (`sparsity:`); < 0 when not given. */
	double act_sparsity, grad_sparsity, sparsity_cv;
	int sparsity_line, sparsity_col;
} trim__layer;

struct trim_network {
	char name[TRIM__NAME_LEN];
	char *file;
	int64_t input[3];
	int mode;
	int64_t batch;
	int word_bits;
	int nlayers;
	trim__layer *layers;
	int64_t params, macs;
	double default_sparsity; /* network-wide default for ReLU outputs; < 0 none */
};

const char *trim__layer_type_name(int type);

#endif
