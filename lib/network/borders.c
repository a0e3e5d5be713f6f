/*
 * A map's borders (docs/schema.md): `zeropad2d` puts rows and columns of zeros
 * around it (Keras's ZeroPadding2D; an ONNX Pad by 0, as torchvision's Swin pads
 * its map to whole windows), `cropping2d` cuts them off (Keras's Cropping2D; the
 * Slice that takes Swin's map back). Both read `padding` / `cropping` as p,
 * [rows, columns] or [[top, bottom], [left, right]]; no weight, no MAC: their
 * work is the inter-layer data movement (lib/workload/layers.c).
 */
#include <string.h>

#include "network_int.h"
#include "util/ydoc.h"

int trim__shape_borders(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int crop = L->type == TRIM__L_CROP;
	const char *key = crop ? "cropping" : "padding";
	const trim__ynode *n = trim__ymap_get(ln, key);
	if (!n)
		return trim__yerr(c, ln, TRIM_ESCHEMA, "layer '%s' (%s) needs `%s`", L->name,
		                  crop ? "cropping2d" : "zeropad2d", key);
	memset(L->pad, 0, sizeof L->pad);
	trim__yctx_key(c, key);
	int rc = trim__net_read_sides(c, n, L->pad);
	if (rc == 0 && crop)
		for (int a = 0; a < 2 && rc == 0; a++)
			if (L->pad[2 * a] + L->pad[2 * a + 1] >= L->in[a])
				rc = trim__yerr(c, n, TRIM_ESHAPE, "cropping %lld + %lld %s of %lld leaves none",
				                (long long)L->pad[2 * a], (long long)L->pad[2 * a + 1],
				                a ? "columns" : "rows", (long long)L->in[a]);
	trim__yctx_pop(c);
	if (rc)
		return rc;
	for (int a = 0; a < 2; a++) {
		int64_t cut = L->pad[2 * a] + L->pad[2 * a + 1];
		L->out[a] = crop ? L->in[a] - cut : L->in[a] + cut;
	}
	L->out[2] = L->in[2];
	L->flat = 0;
	return 0;
}
