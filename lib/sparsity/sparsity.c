/*
 * ReLU-driven sparsity (GRADIENT_SPARSITY): which operands of which workload
 * are sparse, the effective MACs, and the load-imbalance model.
 * docs/sparsity.md states every rule.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "network/network_int.h"
#include "trim/sparsity.h"
#include "util/handle.h"
#include "util/util.h"
#include "workload/workload_int.h"

typedef struct {
	int layer_index, phase, kind;
} wl_ref;

struct trim_sparsity {
	uint32_t tag; /* TRIM__H_SPARSITY (util/handle.h): first, checked by every entry point */
	int nlayers;
	trim__layer *layers;   /* copy of the network's layers (annotations included) */
	double default_sparsity;
	/* derived, per layer */
	double *out_sp;        /* zeros of the layer's output */
	int *relu_derived;     /* every zero of the output is a ReLU zero (gradient masked) */
	double *grad_sp;       /* zeros of the gradient w.r.t. the layer's (pre-activation) output */
	double *spread;        /* per-channel spread (coefficient of variation) */
	/* per intra workload */
	size_t nw;
	wl_ref *wl;
	double (*field)[TRIM_SP_NFIELDS];
};

static int is_relu(int act) { return act == TRIM__ACT_RELU || act == TRIM__ACT_RELU6; }

/* Sole consumer of layer i, or -1 (none or several). */
static int sole_consumer(const struct trim_sparsity *sp, int i)
{
	int found = -1;
	for (int j = i + 1; j < sp->nlayers; j++)
		for (int k = 0; k < sp->layers[j].ninputs; k++)
			if (sp->layers[j].inputs[k] == i) {
				if (found >= 0)
					return -1;
				found = j;
			}
	return found;
}

static double given_or_default(const struct trim_sparsity *sp, const trim__layer *L)
{
	if (L->act_sparsity >= 0)
		return L->act_sparsity;
	return sp->default_sparsity >= 0 ? sp->default_sparsity : 0;
}

static double in_sp(const struct trim_sparsity *sp, int j)
{
	return j == TRIM__NET_INPUT ? 0 : sp->out_sp[j];
}

static int in_relu(const struct trim_sparsity *sp, int j)
{
	return j == TRIM__NET_INPUT ? 0 : sp->relu_derived[j];
}

static void derive(struct trim_sparsity *sp)
{
	for (int i = 0; i < sp->nlayers; i++) {
		const trim__layer *L = &sp->layers[i];
		int p = L->inputs[0];
		double s = 0;
		int rd = 0;
		sp->spread[i] = L->sparsity_cv >= 0 ? L->sparsity_cv
		                                    : (p == TRIM__NET_INPUT ? 0 : sp->spread[p]);
		if (is_relu(L->activation)) {
			s = given_or_default(sp, L);
			rd = 1;
		} else {
			switch (L->type) {
			case TRIM__L_FLATTEN:
				s = in_sp(sp, p);
				rd = in_relu(sp, p);
				break;
			case TRIM__L_DROPOUT: /* dropout adds zeros, which no ReLU made */
				s = 1 - (1 - in_sp(sp, p)) * (1 - L->rate);
				rd = in_relu(sp, p) && L->rate == 0;
				break;
			case TRIM__L_MAXPOOL:
			case TRIM__L_AVGPOOL:
			case TRIM__L_GLOBAL_AVGPOOL:
				/* an output is zero iff its whole window is (independent zeros) */
				s = pow(in_sp(sp, p), (double)(L->kernel[0] * L->kernel[1]));
				rd = in_relu(sp, p);
				break;
			case TRIM__L_CROP: /* the borders' share of zeros taken as the map's */
				s = in_sp(sp, p);
				rd = in_relu(sp, p);
				break;
			case TRIM__L_ZEROPAD: { /* the padded zeros are no ReLU's */
				double in = (double)(L->in[0] * L->in[1]), out = (double)(L->out[0] * L->out[1]);
				s = 1 - (1 - in_sp(sp, p)) * in / out;
				rd = in_relu(sp, p) && in == out;
				break;
			}
			case TRIM__L_CONCAT: {
				double sum = 0, ch = 0;
				rd = 1;
				for (int k = 0; k < L->ninputs; k++) {
					int q = L->inputs[k];
					double c = q == TRIM__NET_INPUT ? 0 : (double)sp->layers[q].out[2];
					sum += c * in_sp(sp, q);
					ch += c;
					rd = rd && in_relu(sp, q);
				}
				s = ch > 0 ? sum / ch : 0;
				break;
			}
			default: /* linear CONV/FC, BatchNorm, add without ReLU: dense */
				s = 0;
				rd = 0;
			}
		}
		sp->out_sp[i] = s;
		sp->relu_derived[i] = rd && s > 0;
	}
	/* The gradient w.r.t. a layer's pre-activation output is masked by the ReLU
	 * that directly follows it (in the layer, or as its sole consumer); a
	 * BatchNorm in between makes it dense (GRADIENT_SPARSITY Fig. 3c). */
	for (int i = 0; i < sp->nlayers; i++) {
		const trim__layer *L = &sp->layers[i];
		int relu_at = -1;
		if (is_relu(L->activation)) {
			relu_at = i;
		} else {
			int c = sole_consumer(sp, i);
			if (c >= 0 && sp->layers[c].type == TRIM__L_ACTIVATION &&
			    is_relu(sp->layers[c].activation))
				relu_at = c;
		}
		double g = 0;
		if (relu_at >= 0) {
			const trim__layer *R = &sp->layers[relu_at];
			g = R->grad_sparsity >= 0 ? R->grad_sparsity : sp->out_sp[relu_at];
		} else if (L->grad_sparsity >= 0) {
			g = L->grad_sparsity;
		}
		sp->grad_sp[i] = g;
	}
	/* per workload */
	for (size_t w = 0; w < sp->nw; w++) {
		const wl_ref *r = &sp->wl[w];
		const trim__layer *L = &sp->layers[r->layer_index];
		int p = L->inputs[0];
		double s0 = 0, s1 = 0, so = 0;
		int weighted = r->kind == TRIM_WL_CONV || r->kind == TRIM_WL_DEPTHWISE ||
		               r->kind == TRIM_WL_FC;
		if (weighted) {
			switch (r->phase) {
			case TRIM_PHASE_FW: /* ifmap zeros; weights dense */
				s0 = in_sp(sp, p);
				break;
			case TRIM_PHASE_BW: /* dY zeros (not after BN); dX where the input's ReLU zeroed */
				s0 = sp->grad_sp[r->layer_index];
				so = in_relu(sp, p) ? in_sp(sp, p) : 0;
				break;
			case TRIM_PHASE_WG: /* both operands: ifmap and dY */
				s0 = in_sp(sp, p);
				s1 = sp->grad_sp[r->layer_index];
				break;
			}
		} else if (r->phase == TRIM_PHASE_BW) {
			/* pools: the routed gradient is useless where the input's ReLU zeroed */
			so = in_relu(sp, p) ? in_sp(sp, p) : 0;
		}
		double *f = sp->field[w];
		f[TRIM_SP_OPERAND0] = s0;
		f[TRIM_SP_OPERAND1] = s1;
		f[TRIM_SP_OUTPUT] = so;
		f[TRIM_SP_FACTOR] = (1 - so) * (1 - s0) * (1 - s1);
		f[TRIM_SP_SPREAD] = sp->spread[r->layer_index];
	}
}

int trim_sparsity_create(trim_sparsity **out, const trim_network *net, const trim_workloads *w)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!out || !net || !w)
		return trim__error(TRIM_EINVAL, "trim_sparsity_create: NULL argument");
	*out = NULL;
	int rc = trim__workloads_check_origin(w, net, "trim_sparsity_create");
	if (rc)
		return rc;
	struct trim_sparsity *sp = trim__calloc(1, sizeof *sp);
	if (!sp)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(sp, SPARSITY);
	int n = net->nlayers;
	sp->nlayers = n;
	sp->default_sparsity = net->default_sparsity;
	sp->nw = trim_workloads_intra_count(w);
	sp->layers = trim__calloc((size_t)n, sizeof *sp->layers);
	sp->out_sp = trim__calloc((size_t)n, sizeof *sp->out_sp);
	sp->grad_sp = trim__calloc((size_t)n, sizeof *sp->grad_sp);
	sp->spread = trim__calloc((size_t)n, sizeof *sp->spread);
	sp->relu_derived = trim__calloc((size_t)n, sizeof *sp->relu_derived);
	sp->wl = trim__calloc(sp->nw, sizeof *sp->wl);
	sp->field = trim__calloc(sp->nw, sizeof *sp->field);
	if (!sp->layers || !sp->out_sp || !sp->grad_sp || !sp->spread || !sp->relu_derived ||
	    !sp->wl || !sp->field) {
		trim_sparsity_free(sp);
		return TRIM_ENOMEM;
	}
	memcpy(sp->layers, net->layers, (size_t)n * sizeof *sp->layers);
	for (size_t i = 0; i < sp->nw; i++) {
		const trim__intra *x = trim__workloads_intra(w, i);
		if (x->layer_index >= n || strcmp(x->layer, net->layers[x->layer_index].name)) {
			trim_sparsity_free(sp);
			return trim__error(TRIM_EINVAL,
			                   "trim_sparsity_create: the workloads were not made from this "
			                   "network");
		}
		sp->wl[i] = (wl_ref){x->layer_index, x->phase, x->kind};
	}
	derive(sp);
	*out = sp;
	return 0;
}

void trim_sparsity_free(trim_sparsity *sp)
{
	TRIM__HANDLE_CHECK_VOID(sp, SPARSITY);
	if (!sp)
		return;
	free(sp->layers);
	free(sp->out_sp);
	free(sp->grad_sp);
	free(sp->spread);
	free(sp->relu_derived);
	free(sp->wl);
	free(sp->field);
	TRIM__HANDLE_POISON(sp, SPARSITY);
	free(sp);
}

int trim_sparsity_set_default(trim_sparsity *sp, double zeros)
{
	TRIM__HANDLE_CHECK(sp, SPARSITY, TRIM_EINVAL);
	if (!sp)
		return trim__error(TRIM_EINVAL, "trim_sparsity_set_default: NULL handle");
	if (!(zeros >= 0 && zeros < 1))
		return trim__error(TRIM_ERANGE, "trim_sparsity_set_default: %g is not in [0, 1)", zeros);
	sp->default_sparsity = zeros;
	derive(sp);
	return 0;
}

int trim_sparsity_workload(const trim_sparsity *sp, size_t i, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(sp, SPARSITY, TRIM_EINVAL);
	if (!sp || !out || n < TRIM_SP_NFIELDS)
		return trim__error(TRIM_EINVAL, "trim_sparsity_workload: bad arguments");
	if (i >= sp->nw)
		return trim__error(TRIM_EINVAL, "no intra workload %zu", i);
	memcpy(out, sp->field[i], sizeof sp->field[i]);
	return 0;
}

int trim_sparsity_layer(const trim_sparsity *sp, const char *layer, double *out)
{
	TRIM__HANDLE_CHECK(sp, SPARSITY, TRIM_EINVAL);
	if (!sp || !layer || !out)
		return trim__error(TRIM_EINVAL, "trim_sparsity_layer: NULL argument");
	for (int i = 0; i < sp->nlayers; i++) {
		if (!strcmp(sp->layers[i].name, layer)) {
			*out = sp->out_sp[i];
			return 0;
		}
	}
	trim__nearest near;
	trim__nearest_init(&near, layer);
	for (int i = 0; i < sp->nlayers; i++)
		trim__nearest_add(&near, sp->layers[i].name);
	char hint[96];
	return trim__error(TRIM_ENOTFOUND, "no layer '%s' in the network%s", layer,
	                   trim__suggestion(hint, sizeof hint, &near));
}

/* ---- CSV trace ------------------------------------------------------------ */

enum { COL_LAYER, COL_PHASE, COL_ACT, COL_GRAD, COL_CV, COL_TC, NCOLS };
static const char *const col_names[NCOLS] = {"layer", "phase", "activation_sparsity",
                                             "gradient_sparsity", "within_channel_cv",
                                             "through_channel_sparsity"};

/* Split a CSV line in place (no quoting needed for this format). */
static int split(char *line, char **cells, int max)
{
	int n = 0;
	char *s = line;
	for (;;) {
		if (n == max)
			return -1;
		cells[n++] = s;
		char *comma = strchr(s, ',');
		if (!comma)
			break;
		*comma = '\0';
		s = comma + 1;
	}
	for (int i = 0; i < n; i++) { /* trim blanks */
		while (*cells[i] == ' ' || *cells[i] == '\t')
			cells[i]++;
		size_t l = strlen(cells[i]);
		while (l && (cells[i][l - 1] == ' ' || cells[i][l - 1] == '\t' ||
		             cells[i][l - 1] == '\r' || cells[i][l - 1] == '\n'))
			cells[i][--l] = '\0';
	}
	return n;
}

static int cell_fraction(const char *path, int line, const char *cell, int col, double lo,
                         double hi, double *out)
{
	if (!cell[0])
		return 1; /* empty: keep */
	char *end = NULL;
	errno = 0;
	double v = strtod(cell, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return trim__error_at(TRIM_EPARSE, path, line, 0, col_names[col],
		                      "'%s' is not a number in [%g, %g]", cell, lo, hi);
	*out = v;
	return 0;
}

int trim_sparsity_load_trace(trim_sparsity *sp, const char *path)
{
	TRIM__HANDLE_CHECK(sp, SPARSITY, TRIM_EINVAL);
	if (!sp || !path)
		return trim__error(TRIM_EINVAL, "trim_sparsity_load_trace: NULL argument");
	FILE *f = fopen(path, "r");
	if (!f)
		return trim__error(TRIM_EIO, "%s: cannot open: %s", path, strerror(errno));
	/* parse into a copy of the layer annotations: nothing changes on error */
	trim__layer *copy = trim__calloc((size_t)sp->nlayers, sizeof *copy);
	if (!copy) {
		fclose(f);
		return TRIM_ENOMEM;
	}
	memcpy(copy, sp->layers, (size_t)sp->nlayers * sizeof *copy);
	char buf[4096];
	int lineno = 0, rc = 0, map[16], ncols = 0, rows = 0;
	while (rc == 0 && fgets(buf, sizeof buf, f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL, "line too long");
			break;
		}
		char *cells[16];
		if (buf[0] == '#' || strspn(buf, " \t\r\n") == strlen(buf))
			continue;
		int n = split(buf, cells, 16);
		if (n < 0) {
			rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL, "more than 16 columns");
			break;
		}
		if (ncols == 0) { /* header */
			int seen[NCOLS] = {0};
			for (int k = 0; k < n; k++) {
				map[k] = -1;
				for (int c = 0; c < NCOLS; c++)
					if (!strcmp(cells[k], col_names[c]))
						map[k] = c;
				if (map[k] < 0) {
					trim__nearest near;
					trim__nearest_init(&near, cells[k]);
					for (int c = 0; c < NCOLS; c++)
						trim__nearest_add(&near, col_names[c]);
					char hint[96];
					rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL,
					                    "unknown column '%s' (expected layer, phase, "
					                    "activation_sparsity, gradient_sparsity, "
					                    "within_channel_cv, through_channel_sparsity)%s",
					                    cells[k], trim__suggestion(hint, sizeof hint, &near));
					break;
				}
				if (seen[map[k]]++) {
					rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL,
					                    "column '%s' appears twice", cells[k]);
					break;
				}
			}
			if (rc == 0 && (!seen[COL_LAYER] || !seen[COL_PHASE]))
				rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL,
				                    "the header needs the columns layer and phase");
			ncols = n;
			continue;
		}
		if (n != ncols) {
			rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, NULL,
			                    "%d cells, the header has %d", n, ncols);
			break;
		}
		const char *layer = NULL, *phase = NULL;
		for (int k = 0; k < n; k++) {
			if (map[k] == COL_LAYER)
				layer = cells[k];
			if (map[k] == COL_PHASE)
				phase = cells[k];
		}
		int li = -1;
		for (int i = 0; i < sp->nlayers; i++)
			if (!strcmp(copy[i].name, layer))
				li = i;
		if (li < 0) {
			trim__nearest near;
			trim__nearest_init(&near, layer);
			for (int i = 0; i < sp->nlayers; i++)
				trim__nearest_add(&near, copy[i].name);
			char hint[96];
			rc = trim__error_at(TRIM_ENOTFOUND, path, lineno, 0, "layer",
			                    "no layer '%s' in the network%s", layer,
			                    trim__suggestion(hint, sizeof hint, &near));
			break;
		}
		if (strcmp(phase, "FW") && strcmp(phase, "BW") && strcmp(phase, "WG") &&
		    strcmp(phase, "*")) {
			rc = trim__error_at(TRIM_EPARSE, path, lineno, 0, "phase",
			                    "'%s' is not FW, BW, WG or *", phase);
			break;
		}
		trim__layer *L = &copy[li];
		for (int k = 0; k < n && rc == 0; k++) {
			double v = 0;
			int r = 0;
			switch (map[k]) {
			case COL_ACT:
				r = cell_fraction(path, lineno, cells[k], COL_ACT, 0, 0.999999, &v);
				if (r == 0)
					L->act_sparsity = v;
				break;
			case COL_GRAD:
				r = cell_fraction(path, lineno, cells[k], COL_GRAD, 0, 0.999999, &v);
				if (r == 0)
					L->grad_sparsity = v;
				break;
			case COL_CV:
				r = cell_fraction(path, lineno, cells[k], COL_CV, 0, 10, &v);
				if (r == 0)
					L->sparsity_cv = v;
				break;
			case COL_TC: /* through-channel statistics: validated, informative */
				r = cell_fraction(path, lineno, cells[k], COL_TC, 0, 1, &v);
				break;
			default:
				break;
			}
			if (r < 0)
				rc = r;
		}
		if (rc == 0 && L->act_sparsity >= 0 && !is_relu(L->activation))
			rc = trim__error_at(TRIM_ESCHEMA, path, lineno, 0, "activation_sparsity",
			                    "layer '%s' has no ReLU activation", layer);
		rows++;
	}
	if (rc == 0 && ferror(f))
		rc = trim__error(TRIM_EIO, "%s: read error", path);
	if (rc == 0 && ncols == 0)
		rc = trim__error_at(TRIM_EPARSE, path, 0, 0, NULL, "empty trace (no header)");
	fclose(f);
	if (rc == 0) {
		memcpy(sp->layers, copy, (size_t)sp->nlayers * sizeof *copy);
		derive(sp);
	}
	free(copy);
	(void)rows;
	return rc;
}

/* ---- load imbalance --------------------------------------------------------- */

/* E[max of P standard normals], by the trapezoid rule on [-9, 9]. */
static double max_std_normal(int64_t P)
{
	if (P <= 1)
		return 0;
	const int steps = 6000;
	double a = -9, b = 9, h = (b - a) / steps, s = 0;
	for (int i = 0; i <= steps; i++) {
		double x = a + i * h;
		double v = x * (double)P * exp(-0.5 * x * x) * 0.39894228040143267794 /* 1 / sqrt(2 pi) */ *
		           pow(gsl_cdf_ugaussian_P(x), (double)(P - 1));
		s += (i == 0 || i == steps) ? v / 2 : v;
	}
	return s * h;
}

/* E[max of P iid Binomial(n, p)] = sum_{k=0}^{n-1} 1 - F(k)^P. */
static double max_binomial(int64_t n, double p, int64_t P)
{
	double mean = (double)n * p, sd = sqrt((double)n * p * (1 - p));
	int64_t k0 = (int64_t)floor(mean - 12 * sd - 1);
	if (k0 < 0)
		k0 = 0;
	double s = (double)k0; /* terms below k0 are 1 to double precision */
	for (int64_t k = k0; k < n; k++) {
		double F = gsl_cdf_binomial_P((unsigned)k, p, (unsigned)n);
		if (!isfinite(F))
			return NAN; /* GSL's incomplete beta fails for some large n: the caller
			               takes the normal approximation */
		double t = 1 - pow(F, (double)P);
		s += t;
		if ((double)k > mean && t < 1e-16)
			break;
	}
	return s;
}

int trim_sparsity_imbalance(int64_t units, double density, int64_t pes, double cv,
                            double threshold, double *out)
{
	if (!out || units < 0 || pes < 1 || !(density >= 0 && density <= 1) || !(cv >= 0) ||
	    !(threshold >= 0))
		return trim__error(TRIM_EINVAL,
		                   "trim_sparsity_imbalance: needs units >= 0, 0 <= density <= 1, "
		                   "pes >= 1, cv >= 0, threshold >= 0 and an output");
	*out = 1;
	if (units == 0 || density == 0 || pes == 1 || (density == 1 && cv == 0))
		return 0;
	double mean = (double)units * density, emax;
	emax = NAN;
	if (cv == 0 && units <= 4000000000LL) {
		trim__gsl_init();
		emax = max_binomial(units, density, pes);
	}
	if (isnan(emax)) {
		double var = (double)units * density * (1 - density) + (mean * cv) * (mean * cv);
		emax = mean + sqrt(var) * max_std_normal(pes);
		if (emax > (double)units)
			emax = (double)units;
	}
	double f = emax / mean;
	if (f < 1)
		f = 1;
	if (threshold > 0 && f > 1 + threshold)
		f = 1 + threshold;
	*out = f;
	return 0;
}
