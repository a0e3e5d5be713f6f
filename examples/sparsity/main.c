/*
 * examples/sparsity: what ReLU-driven sparsity buys backpropagation, after
 * GRADIENT_SPARSITY. For VGG-16, ResNet-18 and MobileNet at 30%, 50% and 70%
 * ReLU sparsity, the backward (BW) pass of every CONV/FC layer on 256 PEs:
 *   - input sparsity only (skipping zero operands of dY, what prior work did):
 *     lost behind BatchNorm, which makes dY dense;
 *   - output sparsity (skipping dX outputs a ReLU will zero): kept with BN;
 *   - both, ideal (time x (1 - s_out)(1 - s_in)), then with the load imbalance
 *     of the most loaded PE, then with work redistribution at 30%.
 * Speedups are over the dense BW MACs. Usage: example-sparsity [MODELS_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trim.h>

#define PES 256
/* spread (coefficient of variation) of the non-zero density between the PEs'
 * tiles: zeros cluster spatially (objects, background), so tiles differ */
#define SPREAD 0.05

static int run(const char *dir, const char *file, double s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_sparsity *sp = NULL;
	int rc = trim_network_load(&net, path);
	if (rc == 0)
		rc = trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 16, 0);
	if (rc == 0)
		rc = trim_sparsity_create(&sp, net, w);
	if (rc == 0)
		rc = trim_sparsity_set_default(sp, s);
	double dense = 0, in_only = 0, out_only = 0, ideal = 0, imb = 0, redis = 0;
	for (size_t i = 0; rc == 0 && i < trim_workloads_intra_count(w); i++) {
		int kind = trim_workloads_intra_kind(w, i);
		if (trim_workloads_intra_phase(w, i) != TRIM_PHASE_BW ||
		    (kind != TRIM_WL_CONV && kind != TRIM_WL_DEPTHWISE && kind != TRIM_WL_FC))
			continue;
		double f[TRIM_SP_NFIELDS], macs = (double)trim_workloads_intra_macs(w, i);
		if ((rc = trim_sparsity_workload(sp, i, f, TRIM_SP_NFIELDS)))
			break;
		double q = (1 - f[TRIM_SP_OUTPUT]) * (1 - f[TRIM_SP_OPERAND0]) * (1 - f[TRIM_SP_OPERAND1]);
		/* each PE computes an equal share of the dX elements */
		int64_t units = trim_workloads_tensor_elems(w, i, 2) / PES;
		if (units < 1)
			units = 1;
		double a = 1, b = 1;
		if ((rc = trim_sparsity_imbalance(units, q, PES, SPREAD, 0, &a)) ||
		    (rc = trim_sparsity_imbalance(units, q, PES, SPREAD, 0.3, &b)))
			break;
		dense += macs;
		in_only += macs * (1 - f[TRIM_SP_OPERAND0]);
		out_only += macs * (1 - f[TRIM_SP_OUTPUT]);
		ideal += macs * q;
		imb += macs * q * a;
		redis += macs * q * b;
	}
	if (rc == 0)
		printf("%-14s %4.0f%% %12.2fx %12.2fx %12.2fx %12.2fx %12.2fx   (bound 1/(1-s) = %.2fx)\n",
		       trim_network_name(net), 100 * s, dense / in_only, dense / out_only, dense / ideal,
		       dense / imb, dense / redis, 1 / (1 - s));
	trim_sparsity_free(sp);
	trim_workloads_free(w);
	trim_network_free(net);
	if (rc)
		fprintf(stderr, "example-sparsity: %s\n", trim_last_error());
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "models/networks";
	const char *nets[] = {"vgg16.yaml", "resnet18.yaml", "mobilenet-v1.yaml"};
	const double levels[] = {0.3, 0.5, 0.7};
	printf("BW speedup over dense MACs on %d PEs (density spread between tiles %.2f)\n\n", PES, SPREAD);
	printf("%-14s %5s %13s %13s %13s %13s %13s\n", "network", "s", "input only", "output only",
	       "both, ideal", "+ imbalance", "+ redistrib.");
	for (size_t n = 0; n < 3; n++)
		for (size_t k = 0; k < 3; k++)
			if (run(dir, nets[n], levels[k]))
				return 1;
	return 0;
}
