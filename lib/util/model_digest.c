/* The library's identity in the stamps of resumable results: its version
 * and the digest of its sources (the Makefile computes it into
 * model_digest.h), so that results made by another cost model are never
 * reused, whatever its version number says. */
#include "model_digest.h"
#include "util.h"

#define TRIM__STR2(x) #x
#define TRIM__STR(x) TRIM__STR2(x)

const char *trim__library_stamp(void)
{
	return "libtrim " TRIM__STR(TRIM_VERSION_MAJOR) "." TRIM__STR(TRIM_VERSION_MINOR) "." TRIM__STR(
		TRIM_VERSION_PATCH) " model " TRIM__MODEL_DIGEST;
}

const char *trim__model_digest(void) { return TRIM__MODEL_DIGEST; }
