/*
 * Internals of the energy module (lib/energy/energy_int.h is its interface to the
 * rest of the library; docs/energy.md gives the tables' schema and the
 * model). One concept per file:
 *   table.c      a table's data: its lifetime, the SRAM and register-file
 *                grids and their log-log interpolation (GSL), the named
 *                components and their actions
 *   libtrim.c    loading libtrim's schema (energy_tables/), and a
 *                table's document: libtrim's or Accelergy's
 *   accelergy.c  loading an Accelergy ERT (0.2 to 0.4) and ART
 *   load.c       the public loaders (a file, an ERT/ART directory, a
 *                string) and the resolution of technology names
 *   lookup.c     the public queries: name, file, kind, FPGA device totals,
 *                one action's energy, one component's area
 *   costs.c      the per-level costs of an architecture (trim__arch_costs),
 *                an FPGA's resources, an architecture's area
 * Internal functions and data shared by these files carry the trim__energy_
 * prefix (hidden by -fvisibility=hidden); the others are static.
 */
#ifndef TRIM_ENERGY_LOCAL_H
#define TRIM_ENERGY_LOCAL_H

#include <gsl/gsl_interp.h>
#include <gsl/gsl_interp2d.h>
#include <stddef.h>
#include <stdint.h>

#include "energy_int.h"
#include "util/ydoc.h"

/* ---- data (table.c) ------------------------------------------------------- */

/* The quantities of a grid point: three energies (pJ), leakage (uW), area (um^2). */
enum { Q_READ, Q_WRITE, Q_UPDATE, Q_LEAK, Q_AREA, NQ };

#define MAX_GRID 64
/* A grid of capacities x word widths (libtrim's `sram` or `regfile`). */
typedef struct {
	int present;
	size_t nc, nw;
	double cap[MAX_GRID], bits[MAX_GRID];     /* bytes, bits (increasing) */
	double lcap[MAX_GRID], lbits[MAX_GRID];   /* their logs */
	double *val[NQ];                          /* nc*nw values, [c * nw + w]; NULL if absent */
	double *lval[NQ];                         /* logs, laid out for gsl_interp2d (see mk) */
	gsl_interp2d *i2[NQ];
	gsl_interp *i1[NQ];
	double *lcol[NQ];                         /* nw == 1: log values along capacity */
} grid;

#define MAX_ACT 16
/* A named component (Accelergy ERT/ART, or libtrim's `components`). */
typedef struct {
	char name[96];  /* full name, Accelergy "[a..b]" ranges removed */
	char shortname[64];
	size_t nact;
	char act[MAX_ACT][32];
	double pj[MAX_ACT];
	double leak_uw;
	int has_leak;
	double area_um2;
	int has_area;
} component;

struct trim_energy {
	uint32_t tag; /* TRIM__H_ENERGY (util/handle.h): first, checked by every entry point */
	char *file;
	char name[64];
	int fpga;
	int clamp;
	grid g[2]; /* 0 sram, 1 regfile */
	int has_dram[3];
	double dram_pj_bit[3];
	struct {
		int has;
		double mac, gated, leak_uw, area_um2;
	} mac[4];
	struct {
		int has;
		double hop_pj_bit, wire_pj_bit_mm, default_hop_mm, area_um2_bit_pe;
	} noc;
	struct {
		int has;
		double pj, area_um2;
	} unit[2];
	component *comps;
	size_t ncomps;
	/* FPGA */
	char device[32];
	double avail[4], static_mw;
	double per_mac[4][4]; /* datatype x resource */
	int has_per_mac[4];
	double per_pe[4], noc_pe_bit[4], reg_bit[4], fixed[4];
};

/* The keys of the quantities in a grid point ("read_pj" .. "area_um2"). */
extern const char *const trim__energy_q_keys[NQ];
/* DRAM kinds (index of has_dram, dram_pj_bit) and MAC datatypes (index of
 * mac, per_mac), NULL-terminated. */
extern const char *const trim__energy_dram_kinds[];
extern const char *const trim__energy_datatypes[];
/* The grids' names, index of g: "sram", "regfile". */
extern const char *trim__energy_grid_names[2];

/* Build the GSL interpolators of quantity q (values already checked > 0). */
int trim__energy_grid_build(grid *g, int q);
/* Interpolated value of quantity q of grid gi at (cap, bits): TRIM_ERANGE
 * outside the grid unless clamped (flags or the table), *nclamped counting
 * the clamped axes. */
int trim__energy_grid_eval(const trim_energy *t, int gi, int q, double cap, double bits,
                           int flags, double *out, int *nclamped);

/* The component of that full name, added if new (NULL: out of memory). */
component *trim__energy_comp_get(trim_energy *t, const char *full);
/* The component of that full name, else of that short name, else NULL. */
const component *trim__energy_comp_find(const trim_energy *t, const char *name);
/* Record an action; several argument variants keep the largest energy. */
int trim__energy_comp_action(trim__yctx *c, const trim__ynode *at, component *k,
                             const char *act, double pj);
/* The energy of action act of k into *pj: 0, or 1 if k has no such action. */
int trim__energy_comp_act(const component *k, const char *act, double *pj);
/* The index of s in the NULL-terminated names, or -1. */
int trim__energy_kind_index(const char *s, const char *const *names);

/* ---- loading (libtrim.c, accelergy.c) --------------------------------------- */

/* Read a document (libtrim's schema, or an Accelergy ERT/ART) into t. */
int trim__energy_parse_doc(trim_energy *t, const trim__ydoc *doc);
/* Read the ERT or ART mapping of a document into t's components. */
int trim__energy_read_ert(trim__yctx *c, const trim__ynode *ert, trim_energy *t);
int trim__energy_read_art(trim__yctx *c, const trim__ynode *art, trim_energy *t);

#endif
