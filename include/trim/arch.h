/*
 * trim/arch.h - hardware organisations (architectures).
 * (Placeholder declarations of the handle; the loader lands with the
 * hardware-description module.)
 */
#ifndef TRIM_ARCH_H
#define TRIM_ARCH_H

#include "trim/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An architecture: an ordered hierarchy of storage, spatial and compute levels. */
typedef struct trim_arch trim_arch;

#ifdef __cplusplus
}
#endif
#endif
