/* lib/space/: architecture spaces. space.c: the model (grid, points,
 * accessors, reports); parse.c: reading the space file.
 *
 * Internals of an architecture space: the layout shared by lib/space/space.c (the
 * model: the grid, its points, the accessors, the reports) and
 * lib/space/parse.c (reading the space file), and the accessors the
 * explorer's input digests use. */
#ifndef TRIM_SPACE_INT_H
#define TRIM_SPACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "trim/space.h"

/* The fields a parameter sets (the names of lib/space/parse.c's field_names,
 * in this order). */
enum { TRIM__SPACE_FANOUT, TRIM__SPACE_CAPACITY, TRIM__SPACE_WORD_BITS, TRIM__SPACE_LINK_BITS,
       TRIM__SPACE_READ_BW, TRIM__SPACE_WRITE_BW, TRIM__SPACE_ZERO_GATE, TRIM__SPACE_ZERO_SKIP,
       TRIM__SPACE_CLOCK, TRIM__SPACE_NFIELDS };
#define TRIM__SPACE_MAX_PARAMS 8
#define TRIM__SPACE_MAX_TARGETS 4
#define TRIM__SPACE_MAX_VALUES 256

/* One field a parameter sets. */
typedef struct {
	int level; /* -1: a global field */
	int field;
} trim__space_target;

/* A parameter: the fields it sets and their values, one grid axis. */
typedef struct {
	char name[64];
	size_t nt;
	trim__space_target t[TRIM__SPACE_MAX_TARGETS];
	size_t nv;
	double v[TRIM__SPACE_MAX_VALUES][TRIM__SPACE_MAX_TARGETS][2];
	char text[TRIM__SPACE_MAX_VALUES][64]; /* the value as it appears in point names */
	int labelled;
} trim__space_param;

/* One grid point: its name, costs and whether it was accepted (why not). */
typedef struct {
	uint64_t gi;
	char name[256];
	int ok;
	char why[256];
	double area;
	double res[4];
	int fits;
} trim__space_point;

struct trim_space {
	uint32_t tag; /* TRIM__H_SPACE (util/handle.h): first, checked by every entry point */
	char name[64];
	char *file;
	char *base_file;
	char *table_path; /* technology: as resolved (NULL: none given) */
	trim_arch *base;
	trim_energy *table;
	double max_area;
	int fit_device;
	size_t np;
	trim__space_param p[TRIM__SPACE_MAX_PARAMS];
	uint64_t grid;
	trim__space_point *pts;
	uint64_t nok;
	uint64_t *ok; /* accepted point -> grid index */
	trim_constraints *cons; /* mapspace_constraints: (NULL: none) */
};

/* Evaluate every grid point of a parsed space (lib/space/space.c): its name, its
 * area or FPGA resources, and whether the constraints accept it. */
int trim__space_evaluate(trim_space *s);

/* The space file, its base architecture file (resolved against the space
 * file's directory), and the energy table its `technology:` names (NULL when
 * the space has none: the base architecture's table applies). */
const char *trim__space_file(const trim_space *s);
const char *trim__space_base_file(const trim_space *s);
const char *trim__space_table_path(const trim_space *s);

#endif
