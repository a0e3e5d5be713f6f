/* Where libtrim's shipped data (energy_tables/, models/) lives; private. */
#ifndef TRIM_DATADIR_INT_H
#define TRIM_DATADIR_INT_H

#include <stddef.h>

#define TRIM__DATA_DIRS_MAX 4
#define TRIM__PATH_MAX 4096

/* The default data directories, most specific first, after $TRIM_DATA_DIR
 * and the current directory (which callers try themselves):
 *   1. <directory of the module holding libtrim>/../share/trim (the
 *      installation this copy belongs to, wherever it was moved),
 *   2. <that directory>/../.. when it holds energy_tables/ (the build tree:
 *      build/lib/libtrim.so, build/bin/trim),
 *   3. the installed data directory compiled in (PREFIX/share/trim),
 *   4. the source tree libtrim was built from (compiled in).
 * Duplicates are dropped. Returns how many were written to dirs. */
size_t trim__data_dirs(char dirs[][TRIM__PATH_MAX], size_t max);

#endif
