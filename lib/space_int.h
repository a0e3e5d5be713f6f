/* Internal accessors of an architecture space (lib/space.c) for the
 * explorer's input digests. */
#ifndef TRIM_SPACE_INT_H
#define TRIM_SPACE_INT_H

#include "trim/space.h"

/* The space file, its base architecture file (resolved against the space
 * file's directory), and the energy table its `technology:` names (NULL when
 * the space has none: the base architecture's table applies). */
const char *trim__space_file(const trim_space *s);
const char *trim__space_base_file(const trim_space *s);
const char *trim__space_table_path(const trim_space *s);

#endif
