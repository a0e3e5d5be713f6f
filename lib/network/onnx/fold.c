/*
 * Constant folding (docs/onnx.md, "What is folded"): a node whose inputs are
 * all static (initializers, Constants, tensors folded before) is computed at
 * import, and its output becomes a static tensor too; Shape and Size fold
 * on any tensor, activations included (their dims are known). This is the
 * shape arithmetic exporters write (Shape -> Gather -> Unsqueeze -> Concat ->
 * Reshape, ConstantOfShape / Equal / Where -> Expand, Pow / Sqrt of a traced
 * head size, Slice of a mask buffer, Transpose of a weight, ScatterND of Swin's
 * window mask).
 *
 * A folded tensor keeps its elements (as doubles: integers exact to 2^53)
 * when it has at most FOLD_MAX of them and its inputs' elements are there;
 * otherwise only its shape, which is all a weight or an expanded class token
 * needs. An operator that needs elements it does not have is an error
 * naming the node.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

#define FOLD_MAX 65536 /* elements kept per folded tensor */
#define FOLD_IN 16 /* inputs a foldable operator reads (a Concat of shapes: up to 16) */

/* A folded tensor: the TensorProto the translation reads (dims, double_data). */
struct trim__ox_folded {
	struct trim__ox_folded *next;
	Onnx__TensorProto p;
	int64_t dims[8];
	double e[];
};

typedef struct {
	int nd;
	int64_t d[8];
	int64_t n;    /* elements */
	int has;      /* e holds the n elements */
	int is_int;   /* an integer or boolean type */
	int32_t type; /* ONNX data type of the result */
	double *e;
} ten;

void trim__ox_fold_free(tr *t)
{
	while (t->folded) {
		struct trim__ox_folded *next = t->folded->next;
		free(t->folded);
		t->folded = next;
	}
}

static int type_is_int(int32_t ty)
{
	return ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 ||
	       ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT16 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT8 ||
	       ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT16 ||
	       ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT32 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT64 ||
	       ty == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL;
}

static uint64_t le(const uint8_t *b, int bytes)
{
	uint64_t u = 0;
	for (int k = bytes - 1; k >= 0; k--)
		u = u << 8 | b[k];
	return u;
}

/* The n elements of a static tensor, or 1 when they are not there. */
static int read_elements(const Onnx__TensorProto *p, double *out, size_t n)
{
	int32_t ty = p->has_data_type ? p->data_type : 0;
	if (n == 0)
		return 0;
	if (p->n_double_data == n) {
		memcpy(out, p->double_data, n * sizeof *out);
	} else if (p->n_float_data == n) {
		for (size_t k = 0; k < n; k++)
			out[k] = p->float_data[k];
	} else if (p->n_int64_data == n) {
		for (size_t k = 0; k < n; k++)
			out[k] = (double)p->int64_data[k];
	} else if (p->n_int32_data == n && ty != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 &&
	           ty != ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16) {
		for (size_t k = 0; k < n; k++)
			out[k] = p->int32_data[k];
	} else if (p->n_uint64_data == n) {
		for (size_t k = 0; k < n; k++)
			out[k] = (double)p->uint64_data[k];
	} else if (p->has_raw_data) {
		const uint8_t *b = p->raw_data.data;
		size_t len = p->raw_data.len;
		int bytes = ty == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE || ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 ||
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT64 ? 8 :
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT || ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 ||
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT32 ? 4 :
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT16 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT16 ? 2 :
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__INT8 || ty == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 ||
		            ty == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL ? 1 : 0;
		if (!bytes || len != n * (size_t)bytes)
			return 1;
		for (size_t k = 0; k < n; k++) {
			uint64_t u = le(b + k * (size_t)bytes, bytes);
			switch (ty) {
			case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: { double f; memcpy(&f, &u, 8); out[k] = f; break; }
			case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); out[k] = f; break; }
			case ONNX__TENSOR_PROTO__DATA_TYPE__INT64: out[k] = (double)(int64_t)u; break;
			case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: out[k] = (int32_t)(uint32_t)u; break;
			case ONNX__TENSOR_PROTO__DATA_TYPE__INT16: out[k] = (int16_t)(uint16_t)u; break;
			case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: out[k] = (int8_t)(uint8_t)u; break;
			default: out[k] = (double)u; break;
			}
		}
	} else {
		return 1;
	}
	return 0;
}

/* Input value x as a ten: its dims, and its elements where they are there. */
static int load(tr *t, int x, ten *o)
{
	const val *X = &t->v[x];
	memset(o, 0, sizeof *o);
	o->nd = X->nd;
	memcpy(o->d, X->d, sizeof o->d);
	o->n = trim__ox_numel(X);
	if (!X->t)
		return 0;
	o->type = X->t->has_data_type ? X->t->data_type : ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	o->is_int = type_is_int(o->type);
	if (o->n > FOLD_MAX)
		return 0;
	o->e = malloc((size_t)(o->n ? o->n : 1) * sizeof *o->e);
	if (!o->e)
		return TRIM_ENOMEM;
	o->has = read_elements(X->t, o->e, (size_t)o->n) == 0;
	return 0;
}

static int make(tr *t, ten *o, int nd, const int64_t *d)
{
	if (nd < 0 || nd > 8)
		return trim__ox_node_err(t, TRIM_ESHAPE, "a folded tensor of %d dims (0 to 8)", nd);
	o->nd = nd;
	o->n = 1;
	for (int k = 0; k < nd; k++) {
		o->d[k] = d[k];
		if (d[k] < 0 || d[k] > INT32_MAX || __builtin_mul_overflow(o->n, d[k], &o->n))
			return trim__ox_node_err(t, TRIM_ESHAPE, "a folded tensor's dimension %d would "
			                         "be %lld (0 to 2^31 - 1)", k, (long long)d[k]);
	}
	o->has = 0;
	if (o->n <= FOLD_MAX) {
		o->e = calloc((size_t)(o->n ? o->n : 1), sizeof *o->e);
		if (!o->e)
			return TRIM_ENOMEM;
		o->has = 1;
	}
	return 0;
}

/* Output k of the node: a static value holding o. */
static int store(tr *t, size_t k, const ten *o)
{
	const Onnx__NodeProto *n = t->node;
	if (k >= n->n_output || !n->output[k][0])
		return 0;
	size_t ne = o->has ? (size_t)o->n : 0;
	struct trim__ox_folded *f = calloc(1, sizeof *f + (ne ? ne : 1) * sizeof(double));
	if (!f)
		return TRIM_ENOMEM;
	onnx__tensor_proto__init(&f->p);
	f->p.name = n->output[k];
	f->p.n_dims = (size_t)o->nd;
	f->p.dims = f->dims;
	memcpy(f->dims, o->d, sizeof f->dims);
	f->p.has_data_type = 1;
	f->p.data_type = o->type ? o->type : o->is_int ? ONNX__TENSOR_PROTO__DATA_TYPE__INT64 :
	                 ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	if (o->has && ne) {
		memcpy(f->e, o->e, ne * sizeof *f->e);
		f->p.n_double_data = ne;
		f->p.double_data = f->e;
	}
	f->next = t->folded;
	t->folded = f;
	int vi, rc = trim__ox_add_val(t, n->output[k], &vi);
	if (rc)
		return rc;
	t->v[vi].t = &f->p;
	t->v[vi].nd = o->nd;
	memcpy(t->v[vi].d, o->d, sizeof t->v[vi].d);
	return 0;
}

/* An element as an integer: clamped to int64's range (NaN: INT64_MIN), so
 * that a range check after it refuses what a model has out of range. */
static int64_t as_int64(double v)
{
	return !(v > -9.2e18) ? INT64_MIN : v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

/* The elements of a small static input as integers (shapes, axes, indices). */
static int ints_of(tr *t, const ten *a, const char *what, int64_t *out, size_t cap, size_t *n)
{
	if (!a->has || (size_t)a->n > cap)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "%s: its values are not known at import "
		                         "(computed from a tensor libtrim does not fold)", what);
	for (int64_t k = 0; k < a->n; k++)
		out[k] = as_int64(a->e[k]);
	*n = (size_t)a->n;
	return 0;
}

/* The flat index in a (broadcast against out's shape) of out's element i. */
static int64_t bcast_index(const ten *a, const ten *out, int64_t i)
{
	int64_t idx = 0, stride = 1;
	for (int k = out->nd - 1, q = a->nd - 1; k >= 0; k--, q--) {
		int64_t c = i % out->d[k];
		i /= out->d[k];
		if (q >= 0) {
			if (a->d[q] != 1)
				idx += c * stride;
			stride *= a->d[q];
		}
	}
	return idx;
}

static int bcast_shape(tr *t, const ten *in, int m, int *nd, int64_t *d)
{
	*nd = 0;
	for (int j = 0; j < m; j++)
		if (in[j].nd > *nd)
			*nd = in[j].nd;
	for (int k = 0; k < *nd; k++) {
		d[k] = 1;
		for (int j = 0; j < m; j++) {
			int q = in[j].nd - *nd + k;
			int64_t v = q >= 0 ? in[j].d[q] : 1;
			if (v != 1 && d[k] != 1 && v != d[k])
				return trim__ox_node_err(t, TRIM_ESHAPE, "inputs of shapes that do not "
				                         "broadcast (dimension %d: %lld and %lld)", k,
				                         (long long)d[k], (long long)v);
			if (v != 1)
				d[k] = v;
		}
	}
	return 0;
}

static double binary(const char *op, double a, double b, int ints)
{
	if (!strcmp(op, "Add")) return a + b;
	if (!strcmp(op, "Sub")) return a - b;
	if (!strcmp(op, "Mul")) return a * b;
	if (!strcmp(op, "Div")) return ints ? (b != 0 ? trunc(a / b) : 0) : a / b;
	if (!strcmp(op, "Pow")) return pow(a, b);
	if (!strcmp(op, "Mod")) return ints ? (b != 0 ? a - b * floor(a / b) : 0) : fmod(a, b);
	if (!strcmp(op, "Min")) return a < b ? a : b;
	if (!strcmp(op, "Max")) return a > b ? a : b;
	if (!strcmp(op, "Equal")) return a == b;
	if (!strcmp(op, "Less")) return a < b;
	if (!strcmp(op, "LessOrEqual")) return a <= b;
	if (!strcmp(op, "Greater")) return a > b;
	if (!strcmp(op, "GreaterOrEqual")) return a >= b;
	if (!strcmp(op, "And")) return a != 0 && b != 0;
	if (!strcmp(op, "Or")) return a != 0 || b != 0;
	return a != 0 ? b : a; /* not reached: the callers name only the above */
}

static double unary(const char *op, double a)
{
	if (!strcmp(op, "Neg")) return -a;
	if (!strcmp(op, "Sqrt")) return sqrt(a);
	if (!strcmp(op, "Reciprocal")) return 1 / a;
	if (!strcmp(op, "Abs")) return fabs(a);
	if (!strcmp(op, "Floor")) return floor(a);
	if (!strcmp(op, "Ceil")) return ceil(a);
	if (!strcmp(op, "Exp")) return exp(a);
	if (!strcmp(op, "Log")) return log(a);
	if (!strcmp(op, "Erf")) return erf(a);
	return a == 0; /* Not */
}

static const char *const BINARY[] = {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Min", "Max",
	"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", NULL};
static const char *const UNARY[] = {"Neg", "Sqrt", "Reciprocal", "Abs", "Floor", "Ceil", "Exp",
	"Log", "Erf", "Not", NULL};
static const char *const OTHER[] = {"Identity", "Shape", "Size", "Cast", "Where", "Unsqueeze",
	"Squeeze", "Concat", "Gather", "ConstantOfShape", "Range", "Expand", "Reshape", "Transpose",
	"Slice", "Trilu", "Flatten", "ScatterND", NULL};

static int listed(const char *const *list, const char *op)
{
	for (size_t k = 0; list[k]; k++)
		if (!strcmp(list[k], op))
			return 1;
	return 0;
}

/* Element-wise operators: the binary and unary ones, Where, Cast, Identity. */
static int fold_elementwise(tr *t, const char *op, ten *in, int m, ten *o)
{
	int nd = 0, rc = 0;
	int64_t d[8];
	int binop = listed(BINARY, op), where = !strcmp(op, "Where");
	int need = binop ? 2 : where ? 3 : 1;
	if (m < need)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs %d inputs", need);
	for (int k = 0; k < need; k++)
		if (in[k].nd < 0)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "input %d is missing", k);
	if ((rc = bcast_shape(t, in, need, &nd, d)) || (rc = make(t, o, nd, d)))
		return rc;
	int compare = binop && (!strcmp(op, "Equal") || !strcmp(op, "Less") || !strcmp(op, "Greater") ||
	                        !strcmp(op, "LessOrEqual") || !strcmp(op, "GreaterOrEqual") ||
	                        !strcmp(op, "And") || !strcmp(op, "Or"));
	const ten *ty = where ? &in[1] : &in[0];
	o->is_int = compare || !strcmp(op, "Not") ? 1 : ty->is_int;
	o->type = compare || !strcmp(op, "Not") ? ONNX__TENSOR_PROTO__DATA_TYPE__BOOL : ty->type;
	if (!strcmp(op, "Cast")) {
		o->type = (int32_t)trim__ox_attr_int(t->node, "to", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		o->is_int = type_is_int(o->type);
	}
	if (!strcmp(op, "Sqrt") || !strcmp(op, "Reciprocal") || !strcmp(op, "Exp") || !strcmp(op, "Log") ||
	    !strcmp(op, "Erf"))
		o->is_int = 0;
	for (int k = 0; k < need; k++)
		if (!in[k].has)
			o->has = 0;
	if (!o->has)
		return 0; /* a shape only */
	for (int64_t i = 0; i < o->n; i++) {
		double a = in[0].e[bcast_index(&in[0], o, i)], r;
		if (binop)
			r = binary(op, a, in[1].e[bcast_index(&in[1], o, i)], in[0].is_int && in[1].is_int);
		else if (where)
			r = a != 0 ? in[1].e[bcast_index(&in[1], o, i)] : in[2].e[bcast_index(&in[2], o, i)];
		else if (!strcmp(op, "Cast"))
			r = o->type == ONNX__TENSOR_PROTO__DATA_TYPE__BOOL ? a != 0 : o->is_int ? trunc(a) : a;
		else if (!strcmp(op, "Identity"))
			r = a;
		else
			r = unary(op, a);
		o->e[i] = r;
	}
	return 0;
}

/* Axes of an operator (attribute before opset 13, else input k), made non-negative. */
static int axes_of(tr *t, const ten *in, int m, int k, int rank, int64_t *ax, size_t *na)
{
	*na = trim__ox_attr_ints(t->node, "axes", ax, 8);
	if (*na == 0 && k < m && in[k].nd >= 0) {
		int rc = ints_of(t, &in[k], "axes", ax, 8, na);
		if (rc)
			return rc;
	}
	for (size_t q = 0; q < *na; q++) {
		if (ax[q] < -rank || ax[q] >= rank)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "axis %lld out of range for %d dims",
			                         (long long)ax[q], rank);
		if (ax[q] < 0)
			ax[q] += rank;
	}
	return 0;
}

/* Copies the elements of a reshaped or squeezed tensor (the same order). */
static int same_elements(tr *t, const ten *a, ten *o, int nd, const int64_t *d)
{
	int rc = make(t, o, nd, d);
	if (rc)
		return rc;
	if (o->n != a->n)
		return trim__ox_node_err(t, TRIM_ESHAPE, "%lld elements reshaped to %lld",
		                         (long long)a->n, (long long)o->n);
	o->is_int = a->is_int;
	o->type = a->type;
	if (o->has && a->has)
		memcpy(o->e, a->e, (size_t)a->n * sizeof *o->e);
	else
		o->has = 0;
	return 0;
}

static int fold_reshape(tr *t, const char *op, ten *in, int m, ten *o)
{
	const ten *a = &in[0];
	int64_t d[8], ax[8];
	size_t n = 0, na = 0;
	int rc = 0;
	if (!strcmp(op, "Reshape")) {
		if (m < 2 || (rc = ints_of(t, &in[1], "shape", d, 8, &n)))
			return m < 2 ? trim__ox_node_err(t, TRIM_ESCHEMA, "needs a shape") : rc;
		int64_t known = 1;
		int unknown = -1;
		for (size_t k = 0; k < n; k++) {
			if (d[k] == 0 && !trim__ox_attr_int(t->node, "allowzero", 0) && (int)k < a->nd)
				d[k] = a->d[k];
			if (d[k] == -1 && unknown < 0)
				unknown = (int)k;
			else if (d[k] < 0 || d[k] > INT32_MAX)
				return trim__ox_node_err(t, TRIM_ESHAPE, "shape value %lld", (long long)d[k]);
			else
				known *= d[k];
		}
		if (unknown >= 0)
			d[unknown] = known ? a->n / known : 0;
		return same_elements(t, a, o, (int)n, d);
	}
	if (!strcmp(op, "Flatten")) {
		int64_t axis = trim__ox_attr_int(t->node, "axis", 1);
		if (axis < 0)
			axis += a->nd;
		d[0] = d[1] = 1;
		for (int k = 0; k < a->nd; k++)
			d[k < axis ? 0 : 1] *= a->d[k];
		return same_elements(t, a, o, 2, d);
	}
	if (!strcmp(op, "Unsqueeze")) {
		size_t nax = trim__ox_attr_ints(t->node, "axes", ax, 8);
		if (nax == 0 && m > 1 && in[1].nd >= 0)
			nax = (size_t)in[1].n;
		int rank = a->nd + (int)nax;
		if (rank > 8)
			return trim__ox_node_err(t, TRIM_ESHAPE, "a folded tensor of %d dims (0 to 8)", rank);
		if ((rc = axes_of(t, in, m, 1, rank, ax, &na)))
			return rc;
		int q = 0;
		for (int k = 0; k < rank; k++) {
			int added = 0;
			for (size_t j = 0; j < na; j++)
				added |= ax[j] == k;
			if (!added && q >= a->nd)
				return trim__ox_node_err(t, TRIM_ESCHEMA, "axes repeat an axis");
			d[k] = added ? 1 : a->d[q++];
		}
		return same_elements(t, a, o, rank, d);
	}
	/* Squeeze */
	if ((rc = axes_of(t, in, m, 1, a->nd, ax, &na)))
		return rc;
	int nd = 0;
	for (int k = 0; k < a->nd; k++) {
		int drop = 0;
		for (size_t j = 0; j < na; j++)
			drop |= ax[j] == k;
		if (na == 0)
			drop = a->d[k] == 1;
		if (drop && a->d[k] != 1)
			return trim__ox_node_err(t, TRIM_ESHAPE, "squeezes dimension %d of size %lld", k,
			                         (long long)a->d[k]);
		if (!drop)
			d[nd++] = a->d[k];
	}
	return same_elements(t, a, o, nd, d);
}

/* Element i of out maps to an element of a through a per-axis index map. */
static void strides_of(const ten *a, int64_t *st)
{
	int64_t s = 1;
	for (int k = a->nd - 1; k >= 0; k--)
		st[k] = s, s *= a->d[k];
}

static int fold_gather_like(tr *t, const char *op, ten *in, int m, ten *o)
{
	const ten *a = &in[0];
	int64_t d[8], st[8];
	int rc = 0;
	strides_of(a, st);
	if (!strcmp(op, "Transpose")) {
		int64_t p[8];
		size_t np = trim__ox_attr_ints(t->node, "perm", p, 8);
		if (np == 0)
			for (int k = 0; k < a->nd; k++)
				p[np++] = a->nd - 1 - k;
		if ((int)np != a->nd)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "perm has %zu axes, the input %d", np, a->nd);
		for (int k = 0; k < a->nd; k++) {
			if (p[k] < 0 || p[k] >= a->nd)
				return trim__ox_node_err(t, TRIM_ESCHEMA, "perm is no permutation");
			d[k] = a->d[p[k]];
		}
		if ((rc = make(t, o, a->nd, d)))
			return rc;
		o->is_int = a->is_int, o->type = a->type;
		if (!a->has) {
			o->has = 0;
			return 0;
		}
		for (int64_t i = 0; o->has && i < o->n; i++) {
			int64_t r = i, src = 0;
			for (int k = o->nd - 1; k >= 0; k--)
				src += (r % o->d[k]) * st[p[k]], r /= o->d[k];
			o->e[i] = a->e[src];
		}
		return 0;
	}
	if (!strcmp(op, "Gather")) {
		int64_t axis = trim__ox_attr_int(t->node, "axis", 0);
		if (axis < 0)
			axis += a->nd;
		if (m < 2 || axis < 0 || axis >= a->nd || in[1].nd < 0)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "needs indices and an axis of the data");
		const ten *ix = &in[1];
		if (a->nd - 1 + ix->nd > 8)
			return trim__ox_node_err(t, TRIM_ESHAPE, "a folded tensor of %d dims (0 to 8)",
			                         a->nd - 1 + ix->nd);
		int nd = 0;
		for (int k = 0; k < axis; k++)
			d[nd++] = a->d[k];
		for (int k = 0; k < ix->nd; k++)
			d[nd++] = ix->d[k];
		for (int k = (int)axis + 1; k < a->nd; k++)
			d[nd++] = a->d[k];
		if ((rc = make(t, o, nd, d)))
			return rc;
		o->is_int = a->is_int, o->type = a->type;
		if (!a->has || !ix->has) {
			o->has = 0;
			return 0;
		}
		int64_t inner = st[axis], n_ix = ix->n ? ix->n : 1;
		for (int64_t i = 0; i < o->n; i++) {
			int64_t in_pos = i % inner, j = (i / inner) % n_ix, outer = i / inner / n_ix;
			int64_t q = as_int64(ix->e[j]);
			if (q < -a->d[axis] || q >= a->d[axis])
				return trim__ox_node_err(t, TRIM_ESHAPE, "index %lld out of [-%lld, %lld)",
				                         (long long)q, (long long)a->d[axis], (long long)a->d[axis]);
			if (q < 0)
				q += a->d[axis];
			o->e[i] = a->e[outer * a->d[axis] * inner + q * inner + in_pos];
		}
		return 0;
	}
	/* Slice: starts, ends, axes, steps (inputs; attributes before opset 10) */
	int64_t starts[8], ends[8], axes[8], steps[8];
	size_t ns = 0, ne = 0, na = 0, nst = 0;
	if (t->opset < 10) {
		ns = trim__ox_attr_ints(t->node, "starts", starts, 8);
		ne = trim__ox_attr_ints(t->node, "ends", ends, 8);
		na = trim__ox_attr_ints(t->node, "axes", axes, 8);
	} else {
		if (m < 3 || (rc = ints_of(t, &in[1], "starts", starts, 8, &ns)) ||
		    (rc = ints_of(t, &in[2], "ends", ends, 8, &ne)))
			return m < 3 ? trim__ox_node_err(t, TRIM_ESCHEMA, "needs starts and ends") : rc;
		if (m > 3 && in[3].nd >= 0 && (rc = ints_of(t, &in[3], "axes", axes, 8, &na)))
			return rc;
		if (m > 4 && in[4].nd >= 0 && (rc = ints_of(t, &in[4], "steps", steps, 8, &nst)))
			return rc;
	}
	int64_t lo[8], step[8];
	if (ns != ne || (na && na != ns) || (nst && nst != ns))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "starts, ends, axes and steps of different lengths");
	if ((rc = trim__ox_slice_range(t, a->nd, a->d, starts, ends, na ? axes : NULL,
	                               nst ? steps : NULL, ns, lo, step, d)))
		return rc;
	if ((rc = make(t, o, a->nd, d)))
		return rc;
	o->is_int = a->is_int, o->type = a->type;
	if (!a->has) {
		o->has = 0;
		return 0;
	}
	for (int64_t i = 0; o->has && i < o->n; i++) {
		int64_t r = i, src = 0;
		for (int k = o->nd - 1; k >= 0; k--)
			src += (lo[k] + (r % o->d[k]) * step[k]) * st[k], r /= o->d[k];
		o->e[i] = a->e[src];
	}
	return 0;
}

/* ScatterND(data, indices [..., k], updates): data with the slices that indices
 * name replaced (reduction "none"); Swin's attention mask, written in pieces. */
static int fold_scatter_nd(tr *t, ten *in, int m, ten *o)
{
	const ten *a = &in[0], *ix = &in[1], *up = &in[2];
	char red[16];
	if (m != 3 || ix->nd < 1 || up->nd < 0 ||
	    strcmp(trim__ox_attr_str(t->node, "reduction", red, sizeof red) ? red : "none", "none"))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs data, indices and updates, and no reduction");
	int k = (int)ix->d[ix->nd - 1], rc;
	int64_t slice = 1, tuples = ix->nd ? ix->n / (ix->d[ix->nd - 1] ? ix->d[ix->nd - 1] : 1) : 0;
	for (int q = k; q < a->nd; q++)
		slice *= a->d[q];
	if (k < 1 || k > a->nd || up->n != tuples * slice)
		return trim__ox_node_err(t, TRIM_ESHAPE, "indices of %d axes and %lld updates do not fit "
		                         "data of %d dims", k, (long long)up->n, a->nd);
	if ((rc = same_elements(t, a, o, a->nd, a->d)))
		return rc;
	if (!ix->has || !up->has)
		o->has = 0;
	for (int64_t i = 0; o->has && i < tuples; i++) {
		int64_t at = 0;
		for (int q = 0; q < k; q++) {
			int64_t j = as_int64(ix->e[i * k + q]);
			j += j < 0 && j >= -a->d[q] ? a->d[q] : 0;
			if (j < 0 || j >= a->d[q])
				return trim__ox_node_err(t, TRIM_ESHAPE, "index %g out of dimension %d's %lld",
				                         ix->e[i * k + q], q, (long long)a->d[q]);
			at = at * a->d[q] + j;
		}
		memcpy(o->e + at * slice, up->e + i * slice, (size_t)slice * sizeof *o->e);
	}
	return 0;
}

static int fold_shape_op(tr *t, const char *op, ten *in, int m, ten *o)
{
	const ten *a = &in[0];
	int64_t d[8];
	size_t n = 0;
	int rc = 0;
	if (!strcmp(op, "Shape") || !strcmp(op, "Size")) {
		int size = !strcmp(op, "Size");
		int64_t lo = trim__ox_attr_int(t->node, "start", 0), hi = trim__ox_attr_int(t->node, "end", a->nd);
		lo = lo < 0 ? lo + a->nd : lo, hi = hi < 0 ? hi + a->nd : hi;
		lo = lo < 0 ? 0 : lo > a->nd ? a->nd : lo, hi = hi < lo ? lo : hi > a->nd ? a->nd : hi;
		d[0] = hi - lo;
		if ((rc = make(t, o, size ? 0 : 1, d)))
			return rc;
		o->is_int = 1, o->type = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
		if (size)
			o->e[0] = (double)a->n;
		for (int64_t k = lo; !size && k < hi; k++)
			o->e[k - lo] = (double)a->d[k];
		return 0;
	}
	if (!strcmp(op, "Reshape") || !strcmp(op, "Unsqueeze") || !strcmp(op, "Squeeze") ||
	    !strcmp(op, "Flatten"))
		return fold_reshape(t, op, in, m, o);
	if (!strcmp(op, "Transpose") || !strcmp(op, "Gather") || !strcmp(op, "Slice"))
		return fold_gather_like(t, op, in, m, o);
	if (!strcmp(op, "Concat")) {
		int64_t axis = trim__ox_attr_int(t->node, "axis", 0);
		if (axis < 0)
			axis += a->nd;
		if (axis < 0 || axis >= a->nd)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "axis out of range");
		memcpy(d, a->d, sizeof d);
		d[axis] = 0;
		int has = 1;
		for (int j = 0; j < m; j++) {
			if (in[j].nd != a->nd)
				return trim__ox_node_err(t, TRIM_ESHAPE, "inputs of different ranks");
			for (int k = 0; k < a->nd; k++)
				if (k != axis && in[j].d[k] != a->d[k])
					return trim__ox_node_err(t, TRIM_ESHAPE, "inputs of different shapes");
			d[axis] += in[j].d[axis];
			has &= in[j].has;
		}
		if ((rc = make(t, o, a->nd, d)))
			return rc;
		o->is_int = a->is_int, o->type = a->type;
		if (!has || !o->has) {
			o->has = 0;
			return 0;
		}
		int64_t st[8], at = 0;
		strides_of(o, st);
		int64_t outer = o->n / (st[axis] * d[axis]);
		for (int64_t q = 0; q < outer; q++)
			for (int j = 0; j < m; j++) {
				int64_t chunk = in[j].d[axis] * st[axis];
				memcpy(o->e + at, in[j].e + q * chunk, (size_t)chunk * sizeof *o->e);
				at += chunk;
			}
		return 0;
	}
	if (!strcmp(op, "ConstantOfShape") || !strcmp(op, "Expand")) {
		int expand = !strcmp(op, "Expand");
		const ten *sh = expand ? (m > 1 ? &in[1] : NULL) : a;
		if (!sh || sh->nd < 0 || (rc = ints_of(t, sh, "shape", d, 8, &n)))
			return sh && sh->nd >= 0 ? rc : trim__ox_node_err(t, TRIM_ESCHEMA, "needs a shape");
		if (!expand) {
			if ((rc = make(t, o, (int)n, d)))
				return rc;
			const Onnx__AttributeProto *v = trim__ox_attr(t->node, "value");
			double fill = 0;
			o->type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
			if (v && v->t) {
				o->type = v->t->has_data_type ? v->t->data_type : o->type;
				if (read_elements(v->t, &fill, 1))
					return trim__ox_node_err(t, TRIM_ESCHEMA, "value: cannot read its element");
			}
			o->is_int = type_is_int(o->type);
			for (int64_t i = 0; o->has && i < o->n; i++)
				o->e[i] = fill;
			return 0;
		}
		ten shape = {.nd = (int)n};
		memcpy(shape.d, d, sizeof d);
		ten pair[2] = {*a, shape};
		int nd;
		if ((rc = bcast_shape(t, pair, 2, &nd, d)) || (rc = make(t, o, nd, d)))
			return rc;
		o->is_int = a->is_int, o->type = a->type;
		if (!a->has)
			o->has = 0;
		for (int64_t i = 0; o->has && i < o->n; i++)
			o->e[i] = a->e[bcast_index(a, o, i)];
		return 0;
	}
	if (!strcmp(op, "Range")) {
		double s[3];
		for (int k = 0; k < 3; k++)
			if (k >= m || in[k].nd < 0 || !in[k].has || in[k].n != 1)
				return trim__ox_node_err(t, TRIM_ESCHEMA, "start, limit and delta must be known "
				                         "scalars");
			else
				s[k] = in[k].e[0];
		double cnt = s[2] != 0 ? ceil((s[1] - s[0]) / s[2]) : -1;
		if (!(cnt >= 0 && cnt <= INT32_MAX))
			return trim__ox_node_err(t, TRIM_ESHAPE, "a range of %g elements", cnt);
		d[0] = (int64_t)cnt;
		if ((rc = make(t, o, 1, d)))
			return rc;
		o->is_int = a->is_int, o->type = a->type;
		for (int64_t i = 0; o->has && i < o->n; i++)
			o->e[i] = s[0] + (double)i * s[2];
		return 0;
	}
	if (!strcmp(op, "ScatterND"))
		return fold_scatter_nd(t, in, m, o);
	/* Trilu: the lower (upper = 0) or upper triangle of the last two axes */
	int64_t k = 0;
	if (m > 1 && in[1].nd >= 0 && (rc = ints_of(t, &in[1], "k", &k, 1, &n)))
		return rc;
	if (a->nd < 2)
		return trim__ox_node_err(t, TRIM_ESHAPE, "needs 2 or more dims");
	int upper = trim__ox_attr_int(t->node, "upper", 1) != 0;
	if ((rc = same_elements(t, a, o, a->nd, a->d)))
		return rc;
	int64_t rows = a->d[a->nd - 2], cols = a->d[a->nd - 1];
	for (int64_t i = 0; o->has && i < o->n; i++) {
		int64_t c = i % cols, r = i / cols % rows;
		if (upper ? c - r < k : c - r > k)
			o->e[i] = 0;
	}
	return 0;
}
/* Fold node t->node if it can be: *done = 1 and its outputs are static. */
int trim__ox_fold(tr *t, int *done)
{
	const Onnx__NodeProto *n = t->node;
	const char *op = n->op_type ? n->op_type : "";
	*done = 0;
	int shape_only = !strcmp(op, "Shape") || !strcmp(op, "Size");
	if (!listed(BINARY, op) && !listed(UNARY, op) && !listed(OTHER, op))
		return 0;
	if (n->n_input == 0 || n->n_input > FOLD_IN || (n->domain && n->domain[0] &&
	                                                 strcmp(n->domain, "ai.onnx")))
		return 0;
	int vi[FOLD_IN];
	for (size_t k = 0; k < n->n_input; k++) {
		int rc = trim__ox_input_val(t, k, &vi[k]);
		if (rc)
			return rc;
		if (vi[k] >= 0 && !t->v[vi[k]].t && !(shape_only && k == 0))
			return 0; /* an activation: a layer, or a pattern's step */
		if (vi[k] >= 0 && t->v[vi[k]].pat == P_SIGMOID)
			return 0;
	}
	if (vi[0] < 0)
		return 0;
	ten in[FOLD_IN], o;
	memset(in, 0, sizeof in);
	memset(&o, 0, sizeof o);
	int m = (int)n->n_input, rc = 0;
	for (int k = 0; k < m && rc == 0; k++)
		if (vi[k] >= 0)
			rc = load(t, vi[k], &in[k]);
		else
			in[k].nd = -1; /* an optional input left out */
	if (rc == 0) {
		if (listed(BINARY, op) || listed(UNARY, op) || !strcmp(op, "Where") || !strcmp(op, "Cast") ||
		    !strcmp(op, "Identity"))
			rc = fold_elementwise(t, op, in, m, &o);
		else
			rc = fold_shape_op(t, op, in, m, &o);
	}
	if (rc == 0)
		rc = store(t, 0, &o);
	for (int k = 0; k < m; k++)
		free(in[k].e);
	free(o.e);
	if (rc == 0)
		*done = 1;
	return rc;
}

