/*
 * Internal interface of the energy module (lib/energy/, a map of its files
 * in lib/energy/energy_local.h) for the evaluator, the report and the designer.
 */
#ifndef TRIM_ENERGY_INT_H
#define TRIM_ENERGY_INT_H

#include "arch/arch_int.h"
#include "trim/energy.h"

/*
 * Fill out[0..a->nlevels-1] with the energy and area of every level of `a`
 * under table `t` (see trim__level_cost in arch_int.h). Pure: no state is
 * kept; call it once per (arch, table) pair, outside hot loops.
 * Out-of-range capacities are TRIM_ERANGE unless the table says
 * `out_of_range: clamp` (then out[i].clamped is set).
 */
int trim__arch_costs(const trim_arch *a, const trim_energy *t, trim__level_cost *out);

/* Device totals of an FPGA table into avail[0..3]; TRIM_EINVAL if ASIC. */
int trim__energy_device(const trim_energy *t, double *avail, const char **device);
/* Static power of the device (FPGA) in mW, 0 for ASIC tables. */
double trim__energy_static_mw(const trim_energy *t);

#endif
