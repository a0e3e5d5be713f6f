/* TRIM's Fig. 6 as C structs and as a Timeloop mapping (mapping_fig6.h). */
#include <check.h>

#include "tcase_util.h"
#include "mapping_fig6.h"

void fig6_arch(struct trim_arch *a)
{
	tu_arch_init(a, "fig6");
	tu_storage(a, "DRAM", 0, 16);
	tu_storage(a, "GLB", 1024, 16);
	tu_spatial(a, "NoC", 4, 2, 1, 1);
	tu_storage(a, "RF", 64, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

void fig6_wl(trim__intra *w)
{
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

const char *const TL_FIG6B =
	"mapping:\n"
	"  - target: DRAM\n"
	"    type: temporal\n"
	"    factors: R=1 S=1 P=1 Q=1 C=1 K=4 N=1\n"
	"    permutation: CKRSPQN\n"
	"  - target: GLB\n"
	"    type: temporal\n"
	"    factors: C=2 K=2\n"
	"    permutation: CK\n"
	"  - target: GLB\n"
	"    type: spatial\n"
	"    factors: K=4 C=2\n"
	"    permutation: KC\n"
	"    split: 1\n"
	"  - target: GLB\n"
	"    type: bypass\n"
	"    keep: [Inputs, Outputs]\n"
	"    bypass: [Weights]\n"
	"  - target: RF\n"
	"    type: temporal\n"
	"    factors: C=4\n"
	"    permutation: C\n";
