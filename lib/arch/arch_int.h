/*
 * lib/arch/: architectures. One concept per file:
 *   arch.c      the YAML loader with strict validation
 *   timeloop.c  Timeloop architecture files, translated into libtrim's
 *               description (docs/arch.md, "Timeloop architecture files")
 * (What `trim arch` prints, trim_arch_report, is lib/report/arch.c.)
 *
 * Internal representation of a hardware organisation (an architecture).
 *
 * Levels are ordered from the outermost (off-chip memory, index 0) to the
 * innermost (the MAC, last index), as in TRIM's Table III:
 *   DRAM (storage) -> global buffer (storage) -> NoC (spatial)
 *     -> registers (storage, one instance per PE) -> MAC (compute).
 * A mapping has one temporal sub-mapping per storage level and one spatial
 * sub-mapping per spatial level. The loader (lib/arch/arch.c) validates order and
 * sizes; this header is what the mapper and evaluator read.
 *
 * Tensor slots follow lib/workload/workload_int.h: 0 input-like operand, 1 weight-like
 * operand, 2 result.
 */
#ifndef TRIM_ARCH_INT_H
#define TRIM_ARCH_INT_H

#include <stdint.h>

#include "trim/arch.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

#define TRIM__ARCH_NAME_LEN 64
#define TRIM__MAX_LEVELS 16

enum trim__level_type { TRIM__LVL_STORAGE = 0, TRIM__LVL_SPATIAL = 1, TRIM__LVL_COMPUTE = 2 };
enum trim__mem_class { TRIM__MEM_DRAM = 0, TRIM__MEM_SRAM = 1, TRIM__MEM_REGFILE = 2 };
enum trim__metadata { TRIM__META_NONE = 0, TRIM__META_BITMAP = 1, TRIM__META_OFFSETS = 2 };
enum trim__net_type { TRIM__NET_BUS = 0, TRIM__NET_MESH, TRIM__NET_HTREE, TRIM__NET_SYSTOLIC };

typedef struct {
	int type;                          /* trim__level_type */
	char name[TRIM__ARCH_NAME_LEN];
	int line, col;                     /* where it was declared */

	/* storage */
	int mem_class;                     /* trim__mem_class */
	char technology[32];               /* dram: "ddr3", "lpddr4", "hbm2"; else "" */
	int64_t capacity_bytes;            /* per instance; 0 = unbounded (DRAM) */
	int word_bits;
	int64_t instances;                 /* number of instances (product of spatial fan-outs above) */
	int keep[3];                       /* tensor slot may be held here (else bypass) */
	int partitioned;                   /* capacity partitioned per tensor slot */
	int64_t part_bytes[3];             /* per-slot capacity when partitioned */
	double read_bw, write_bw;          /* words per cycle per instance; 0 = unlimited */
	int ports;
	int double_buffer;
	int block_size;                    /* words one action of its energy-table component moves
	                                      (Accelergy's / Timeloop's block-size; 0 or 1: one word) */

	/* spatial (NoC) */
	int64_t fanout_x, fanout_y;        /* fan-out = fanout_x * fanout_y */
	int net;                           /* trim__net_type */
	int multicast;                     /* can deliver one word to many PEs at once */
	int reduction;                     /* can accumulate partial sums in the network */
	int link_bits;                     /* with link_t: their sum (area, the search's bounds) */
	int link_t[3];                     /* one network per tensor slot, of these widths in bits
	                                      (Eyeriss's ifmap, filter and psum networks); all 0:
	                                      one link of link_bits for every tensor */
	double hop_mm;                     /* wire length of one hop; 0 = the table's default */
	double hops;                       /* mean hops to a destination; 0 = from the topology */

	/* compute */
	char datatype[16];                 /* "int8", "int16", "fp16", "fp32" */
	int macs_per_cycle;                /* per PE */
	int pipeline;                      /* pipeline stages */
	int zero_gate;                     /* detects zero operands: saves energy */
	int zero_skip;                     /* skips zero operands: saves time */
	int bw_output_skip;                /* skips BW outputs masked by ReLU */
	double transpose_pj, derivative_pj;/* extra training units, energy per use as written in
	                                      the file (0 = from the energy table, see
	                                      trim__level_cost, which is authoritative) */
	int transpose_unit, derivative_unit; /* the PE has the training unit */
	/* sparsity support (compute level, `sparsity:` in YAML; docs/arch.md) */
	int sp_metadata;                   /* TRIM__META_NONE / _BITMAP / _OFFSETS */
	int sp_offset_bits, sp_block;      /* offsets: bits per non-zero index, entries per block */
	double sp_encode_pj;               /* energy to encode one produced value */
	int sp_imbalance;                  /* model PE load imbalance (default on) */
	double sp_redistribute;            /* work redistribution threshold; 0 = off */
	int sp_lanes;                      /* MAC lanes of a PE meeting at one adder tree (1: none) */
	int sp_lane_buffers;               /* blocks each lane holds (2: double buffered) */
	int sp_compressed;                 /* sparse operands stored and moved as non-zeros + metadata */

	/* added with the loader (lib/arch/arch.c) */
	char component[64];                /* energy-table component to cost it with; "" = by class */
	int64_t fanout_total;              /* spatial: fanout_x * fanout_y */
} trim__level;

struct trim_arch {
	uint32_t tag; /* TRIM__H_ARCH (util/handle.h): first, checked by every entry point */
	char name[TRIM__ARCH_NAME_LEN];
	char *file;
	double clock_mhz;
	char technology[64];               /* energy table name or path, e.g. "65nm" */
	int word_bits;
	int nlevels;
	trim__level lv[TRIM__MAX_LEVELS];
	int64_t total_pes;                 /* product of all spatial fan-outs */
	int tech_line, tech_col;           /* where `technology` was written (0: unknown) */
};

/* Cycles spatial level L needs to carry words[t] words of each tensor
 * slot (words of word_bits bits) on inst instances: one link for all, or
 * with one network per tensor the slowest of them. 0 if unlimited. */
static inline double trim__link_cycles(const trim__level *L, int word_bits, const double *words, double inst)
{
	double bits = word_bits > 0 ? (double)word_bits : 16;
	if (!(inst > 0))
		return 0;
	if (L->link_t[0] > 0 || L->link_t[1] > 0 || L->link_t[2] > 0) {
		double worst = 0;
		for (int t = 0; t < 3; t++) {
			double c = L->link_t[t] > 0 ? words[t] / ((double)L->link_t[t] / bits * inst) : 0;
			if (c > worst)
				worst = c;
		}
		return worst;
	}
	if (L->link_bits <= 0)
		return 0;
	return (words[0] + words[1] + words[2]) / ((double)L->link_bits / bits * inst);
}

/* Check the order and sizes of the levels and fill the derived fields
 * (instances, fanout_total, total_pes, partition sums). Called by the
 * loader and by the designer after changing a parameter. Errors name
 * the file, the level's line:col and "levels[i].key". */
int trim__arch_finish(trim_arch *a);

/* Energy and area of each level under an energy table, computed once per
 * (arch, table) pair and read by the evaluator in its inner loop. Energies in
 * pJ per word (of the level's word width), leakage in pJ per cycle per
 * instance, area in mm^2 for all instances of the level. */
typedef struct {
	double read_pj, write_pj, update_pj; /* storage access */
	double leak_pj_per_cycle;            /* per instance */
	double hop_pj;                       /* spatial: per word per hop */
	double avg_hops;                     /* spatial: mean hops to a destination (systolic:
	                                        of a unicast word, shifted in from the edge) */
	double fwd_hops;                     /* spatial: hops per destination of a multicast word
	                                        and per partial sum sent up (= avg_hops; systolic:
	                                        1, a word is forwarded one hop per PE) */
	double mac_pj;                       /* compute: per MAC */
	double gated_mac_pj;                 /* compute: a zero-gated MAC */
	double area_mm2;
	/* added with the energy module (lib/energy/) */
	double transpose_pj, derivative_pj;  /* compute: one use of a training unit (0 if none) */
	double res[4];                       /* FPGA tables: DSP, BRAM36, LUT, FF of all instances */
	int clamped;                         /* a lookup was clamped to the table's edge */
	int uncosted;                        /* spatial: the table has no entry for this network
	                                        (no component, no `noc`): its energy is 0 */
	int count;                           /* the counting rules these costs are charged under
	                                        (enum trim_count), the same on every level
	                                        (trim__costs_set_count); 0: libtrim's */
} trim__level_cost;

/* Charge costs[0 .. nlevels-1] under counting rules `count` (enum trim_count). */
static inline void trim__costs_set_count(trim__level_cost *costs, int nlevels, int count)
{
	for (int l = 0; l < nlevels; l++)
		costs[l].count = count;
}

/* The energy of one drain of a storage level: a read (libtrim), nothing
 * under Timeloop's counting (docs/mapping.md, rule 3). */
static inline double trim__drain_pj(const trim__level_cost *c)
{
	return c->count == TRIM_COUNT_TIMELOOP ? 0 : c->read_pj;
}
/* The drains of a storage level in its read bandwidth: all (libtrim), none
 * under Timeloop's counting (rule 3: it counts no read for a drain). */
static inline int64_t trim__drain_bw(const trim__level_cost *c, int64_t drains)
{
	return c->count == TRIM_COUNT_TIMELOOP ? 0 : drains;
}

/* Timeloop architecture files (lib/arch/timeloop.c): whether a parsed file
 * is one (a root `architecture:` key, no `schema_version`), and its
 * translation into libtrim's description, appended to `out` (errors name
 * the Timeloop file's line and column). */
int trim__arch_is_timeloop(const trim__ynode *root);
int trim__arch_from_timeloop(trim__yctx *c, const trim__ynode *root, const char *file, trim__sb *out);
/* Energy of one tensor's words on spatial level L with costs c, from its
 * counts (docs/model.md, "Evaluator"): on a bus a word (multicast or not)
 * costs one traversal of avg_hops; elsewhere every destination of a word
 * and every word sent up costs fwd_hops, and a unicast word avg_hops. On
 * mesh and H-tree networks fwd_hops = avg_hops (every destination over its
 * own hops); a systolic array forwards a multicast word one hop per PE it
 * reaches and passes partial sums one hop per PE (fwd_hops 1), while a
 * unicast word shifts in from the edge (avg_hops), and so does a result
 * drained out without a reduction (drained: trim__net_drained). A
 * non-decreasing function of every count (the search's lower bounds rely
 * on it). */
static inline double trim__net_hop_fwd(const trim__level_cost *c)
{
	return c->fwd_hops > 0 ? c->fwd_hops : (c->avg_hops > 0 ? c->avg_hops : 1);
}
static inline double trim__net_pj(const trim__level *L, const trim__level_cost *c, double down_words,
                                 double down_dests, double unicast, double up_words, double drained)
{
	double avg = c->avg_hops > 0 ? c->avg_hops : 1, fwd = trim__net_hop_fwd(c);
	if (L->net == TRIM__NET_BUS)
		return (down_words + up_words) * c->hop_pj * avg;
	if (fwd == avg)
		return (down_dests + up_words) * c->hop_pj * avg;
	return (down_dests + up_words) * c->hop_pj * fwd +
	       (avg > fwd ? (unicast + drained) * c->hop_pj * (avg - fwd) : 0);
}
/* Result words that leave a systolic array one by one, each shifted out
 * from its PE like a unicast word in (an output-stationary drain: words
 * up, none added in the network). Only from exact counts: a lower bound
 * counts them as partial sums (one hop), which keeps it a lower bound. */
static inline double trim__net_drained(int exact, double up_words, double reductions)
{
	return exact && reductions <= 0 ? up_words : 0;
}
/* The fewest hops any word takes (the search's bounds). */
static inline double trim__net_min_hops(const trim__level_cost *c)
{
	double avg = c->avg_hops > 0 ? c->avg_hops : 1, fwd = trim__net_hop_fwd(c);
	return fwd < avg ? fwd : avg;
}

#endif
