/*
 * Typed handles. Every public handle struct (trim_network, trim_arch, ...)
 * starts with a 32-bit tag, distinct per type: set when the library makes
 * the handle, changed to the type's "freed" tag by its *_free. Every public
 * entry point checks the tag of each handle it is given before it reads
 * anything else, so a handle of another type (a ctypes caller's swapped
 * arguments), a freed handle whose memory still reads back, or a foreign
 * pointer is refused with TRIM_EINVAL and a message naming the function,
 * the argument, the type expected and what it got (docs/conventions.md,
 * "Typed handles"). NULL handles pass: each function keeps its own NULL
 * behaviour (*_free(NULL) is a no-op). Internal: nothing here is exported.
 *
 *   struct trim_network { uint32_t tag; ... };          first member
 *   TRIM__HANDLE_INIT(net, NETWORK);                    at creation
 *   TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);      at an entry point
 *   return TRIM__HANDLE_OK(net, NETWORK) ? net->name : NULL;
 *   TRIM__HANDLE_POISON(net, NETWORK); free(net);       at free
 */
#ifndef TRIM_UTIL_HANDLE_H
#define TRIM_UTIL_HANDLE_H

#include <stdint.h>

/* The types of handle; trim__handle_type_name() gives "trim_network", ... */
typedef enum {
	TRIM__H_NETWORK = 1,
	TRIM__H_WORKLOADS,
	TRIM__H_ARCH,
	TRIM__H_ENERGY,
	TRIM__H_CONSTRAINTS,
	TRIM__H_SPACE,
	TRIM__H_SPARSITY,
	TRIM__H_FUSION,
	TRIM__H_FUSION_PLAN,
	TRIM__H_FUSION_RESULT,
	TRIM__H_MAPPING,
	TRIM__H_EVAL,
	TRIM__H_SEARCH,
	TRIM__H_NETEVAL,
	TRIM__H_EXPLORER,
	TRIM__H_WORK,
	TRIM__H_ONNX_OPTIONS,
	TRIM__H_NTYPES
} trim__handle_type;

/* A live handle of type k has the tag TRIM__TAG_LIVE + k, a freed one
 * TRIM__TAG_FREED + k: "Tr" and a byte that no count or small integer
 * at the start of another struct would hold. */
#define TRIM__TAG_LIVE 0x5472a100u
#define TRIM__TAG_FREED 0x5472f100u
#define TRIM__TAG_OF(k) (TRIM__TAG_LIVE + (uint32_t)(k))

#define TRIM__HANDLE_INIT(obj, type) ((obj)->tag = TRIM__TAG_OF(TRIM__H_##type))
/* Written through a volatile lvalue: the store comes right before free(),
 * and a compiler drops a plain store to memory about to be freed (GCC's
 * dead-store elimination does), which left the live tag in a freed block
 * whenever the allocator did not overwrite its first bytes. */
#define TRIM__HANDLE_POISON(obj, type) \
	(*(volatile uint32_t *)&(obj)->tag = TRIM__TAG_FREED + (uint32_t)TRIM__H_##type)

/* "trim_network", ... ("?" out of range). */
const char *trim__handle_type_name(trim__handle_type k);

/* Sets the error (TRIM_EINVAL): "fn: argument 'arg' is <what the tag says>,
 * expected a <want> handle". Returns TRIM_EINVAL. */
int trim__handle_mismatch(const void *h, trim__handle_type want, const char *fn, const char *arg);

/* 0 when h is NULL or a live handle of type want, else the error set and
 * TRIM_EINVAL. The tag is the first member of every handle struct, so it
 * is read through a uint32_t lvalue whatever type h points to. */
static inline int trim__handle_bad(const void *h, trim__handle_type want, const char *fn,
                                   const char *arg)
{
	if (!h || *(const uint32_t *)h == TRIM__TAG_OF(want))
		return 0;
	return trim__handle_mismatch(h, want, fn, arg);
}

/* Statement: return `fail` from the calling entry point when h is neither
 * NULL nor a live handle of `type` (TRIM_EINVAL for functions returning a
 * code, the function's own NULL value for getters). */
#define TRIM__HANDLE_CHECK(h, type, fail)                                     \
	do {                                                                      \
		if (trim__handle_bad((h), TRIM__H_##type, __func__, #h))              \
			return fail;                                                      \
	} while (0)
/* The same in a function returning void (the *_free functions: a handle of
 * another type is not freed). */
#define TRIM__HANDLE_CHECK_VOID(h, type)                                      \
	do {                                                                      \
		if (trim__handle_bad((h), TRIM__H_##type, __func__, #h))              \
			return;                                                           \
	} while (0)
/* Expression: 1 for a live handle of `type`; 0 for NULL, and 0 with the
 * error set for anything else (one-line getters: `h ? x : none` becomes
 * `TRIM__HANDLE_OK(h, TYPE) ? x : none`). */
#define TRIM__HANDLE_OK(h, type) ((h) && !trim__handle_bad((h), TRIM__H_##type, __func__, #h))

#endif
