/*
 * trim.h - umbrella header of libtrim, design-space exploration of DNN
 * inference and training accelerators (after TRIM). One header per module:
 */
#ifndef TRIM_H
#define TRIM_H

#include "trim/common.h"
#include "trim/workload.h"
#include "trim/onnx.h"
#include "trim/arch.h"
#include "trim/energy.h"
#include "trim/space.h"
#include "trim/sparsity.h"
#include "trim/neteval.h"
#include "trim/explore.h"
#include "trim/fusion.h"
#include "trim/fusedtiles.h"
#include "trim/mapping.h"
#include "trim/eval.h"
#include "trim/search.h"
#include "trim/constraints.h"
#include "trim/work.h"

#endif
