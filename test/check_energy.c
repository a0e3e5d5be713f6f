/* Energy and area tables: interpolation (exact at points, log-log between,
 * monotone, never extrapolated silently), Eyeriss's relative costs, FPGA
 * resources of FPGA-1..5, Accelergy ERT/ART, and bad tables. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "energy/energy_int.h"
#include "trim.h"

/* A small table: 3 capacities x 2 widths, values chosen off any power law. */
static const char small[] =
	"schema_version: 1\nname: small\nkind: asic\n"
	"sram:\n"
	"  word_bits: [16, 32]\n"
	"  points:\n"
	"    - {capacity: 1 KB, read_pj: [1.0, 1.7], write_pj: [1.1, 1.9], area_um2: [1000, 1000]}\n"
	"    - {capacity: 4 KB, read_pj: [2.3, 3.9], write_pj: [2.5, 4.4], area_um2: [3500, 3500]}\n"
	"    - {capacity: 64 KB, read_pj: [7.0, 12.5], write_pj: [8.0, 14.0], area_um2: [50000, 50000]}\n";

START_TEST(exact_at_table_points)
{
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load_string(&t, small, "small.yaml"), 0);
	static const double cap[3] = {1024, 4096, 65536};
	static const double rd[3][2] = {{1.0, 1.7}, {2.3, 3.9}, {7.0, 12.5}};
	static const double ar[3] = {1000, 3500, 50000};
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 2; j++) {
			double v = 0, mm2 = 0;
			ck_assert_int_eq(trim_energy_action(t, "sram", "read", cap[i], 16 << j, &v), 0);
			ck_assert(v == rd[i][j]); /* bit-exact, not approximately */
			ck_assert_int_eq(trim_energy_area(t, "sram", cap[i], 16 << j, &mm2), 0);
			ck_assert(mm2 == ar[i] * 1e-6);
		}
	}
	/* the shipped table, at its anchors */
	trim_energy *e = NULL;
	double v = 0;
	ck_assert_int_eq(trim_energy_load(&e, "energy_tables/65nm.yaml"), 0);
	ck_assert_int_eq(trim_energy_action(e, "sram", "read", 131072, 16, &v), 0);
	ck_assert(v == 9.3);
	ck_assert_int_eq(trim_energy_action(e, "regfile", "read", 512, 16, &v), 0);
	ck_assert(v == 1.55);
	trim_energy_free(e);
	trim_energy_free(t);
}
END_TEST

START_TEST(log_log_between_points)
{
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load_string(&t, small, "small.yaml"), 0);
	double v = 0;
	/* geometric mean of the capacities -> geometric mean of the energies */
	ck_assert_int_eq(trim_energy_action(t, "sram", "read", 2048, 16, &v), 0);
	ck_assert_double_eq_tol(v, sqrt(1.0 * 2.3), 1e-12);
	/* and in word width (log-linear in bits too): 22 bits at 4 KB */
	ck_assert_int_eq(trim_energy_action(t, "sram", "read", 4096, 22, &v), 0);
	/* weight log(22/16) / log(32/16) */
	double w = log(22.0 / 16.0) / log(2.0);
	ck_assert_double_eq_tol(v, exp((1 - w) * log(2.3) + w * log(3.9)), 1e-12);
	/* update defaults to write when the table has no update_pj */
	double u = 0, wr = 0;
	ck_assert_int_eq(trim_energy_action(t, "sram", "update", 3000, 16, &u), 0);
	ck_assert_int_eq(trim_energy_action(t, "sram", "write", 3000, 16, &wr), 0);
	ck_assert(u == wr);
	trim_energy_free(t);
}
END_TEST

START_TEST(monotone_in_capacity)
{
	static const char *const files[] = {"energy_tables/65nm.yaml", "energy_tables/45nm.yaml"};
	for (int f = 0; f < 2; f++) {
		trim_energy *t = NULL;
		ck_assert_int_eq(trim_energy_load(&t, files[f]), 0);
		static const char *const cls[2] = {"sram", "regfile"};
		static const double lo[2] = {1024, 4}, hi[2] = {8388608, 8192};
		for (int c = 0; c < 2; c++) {
			for (int bits = 8; bits <= 64; bits *= 2) {
				double prev_r = 0, prev_w = 0, prev_a = 0;
				for (int k = 0; k <= 300; k++) {
					double cap = lo[c] * pow(hi[c] / lo[c], k / 300.0);
					if (cap > hi[c])
						cap = hi[c];
					double r, w, a;
					ck_assert_int_eq(trim_energy_action(t, cls[c], "read", cap, bits, &r), 0);
					ck_assert_int_eq(trim_energy_action(t, cls[c], "write", cap, bits, &w), 0);
					ck_assert_int_eq(trim_energy_area(t, cls[c], cap, bits, &a), 0);
					ck_assert_msg(r > prev_r && w > prev_w && a > prev_a,
					              "%s %s %d bits not increasing at %g B", files[f], cls[c],
					              bits, cap);
					prev_r = r;
					prev_w = w;
					prev_a = a;
				}
			}
			/* and in word width at a fixed capacity */
			double prev = 0;
			for (int bits = 8; bits <= 64; bits++) {
				double r;
				ck_assert_int_eq(trim_energy_action(t, cls[c], "read", 4096, bits, &r), 0);
				ck_assert(r > prev);
				prev = r;
			}
		}
		trim_energy_free(t);
	}
}
END_TEST

START_TEST(no_silent_extrapolation)
{
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/65nm.yaml"), 0);
	double v = -1, out[2] = {-1, -1};
	ck_assert_int_eq(trim_energy_action(t, "sram", "read", 16.0 * 1048576, 16, &v), TRIM_ERANGE);
	ck_assert(v == -1);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "outside the table's range"));
	ck_assert_int_eq(trim_energy_action(t, "sram", "read", 512, 16, &v), TRIM_ERANGE);
	ck_assert_int_eq(trim_energy_action(t, "regfile", "read", 64, 128, &v), TRIM_ERANGE);
	/* explicit clamp: the edge value, and the flag */
	double edge;
	ck_assert_int_eq(trim_energy_action(t, "sram", "read", 8.0 * 1048576, 16, &edge), 0);
	ck_assert_int_eq(trim_energy_lookup(t, "sram", "read", 16.0 * 1048576, 16,
	                                    TRIM_ENERGY_CLAMP, out, 2), 0);
	ck_assert(out[0] == edge);
	ck_assert(out[1] == 1);
	ck_assert_int_eq(trim_energy_lookup(t, "sram", "read", 4096, 16, TRIM_ENERGY_CLAMP, out, 2), 0);
	ck_assert(out[1] == 0);
	/* unknown components and actions */
	ck_assert_int_eq(trim_energy_action(t, "flash", "read", 1, 16, &v), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_energy_action(t, "sram", "erase", 4096, 16, &v), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_energy_action(t, "mac.int4", "mac", 0, 4, &v), TRIM_ENOTFOUND);
	trim_energy_free(t);
}
END_TEST

START_TEST(components_by_class)
{
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/65nm.yaml"), 0);
	double v;
	ck_assert_int_eq(trim_energy_action(t, "dram.ddr3", "read", 0, 16, &v), 0);
	ck_assert_double_eq_tol(v, 320, 1e-9);
	ck_assert_int_eq(trim_energy_action(t, "mac.int16", "mac", 0, 16, &v), 0);
	ck_assert_double_eq_tol(v, 1.5, 1e-12);
	ck_assert_int_eq(trim_energy_action(t, "mac.fp32", "gated", 0, 32, &v), 0);
	ck_assert(v < 8.2);
	ck_assert_int_eq(trim_energy_action(t, "noc", "hop", 0, 16, &v), 0);
	ck_assert_double_eq_tol(v, (0.15 + 0.2 * 0.25) * 16, 1e-12);
	ck_assert_int_eq(trim_energy_action(t, "transpose", "use", 0, 32, &v), 0);
	ck_assert_int_eq(trim_energy_action(t, "sram", "leak", 65536, 16, &v), 0);
	ck_assert(v > 0);
	ck_assert_int_eq(trim_energy_is_fpga(t), 0);
	ck_assert_str_eq(trim_energy_name(t), "65nm");
	trim_energy_free(t);
}
END_TEST

/* A systolic array's area by hand (docs/arch.md): per PE two forwarding
 * registers and two word-wide neighbour links (the operand along the row,
 * the partial sum down the column), and the edge link once; a mesh of the
 * same shape pays link_bits per PE. 65 nm: links 60 um^2 per bit, a
 * register bit the smallest register file's (4 B, 8-bit words: 244.7 um^2
 * / 32 bits). */
START_TEST(systolic_area)
{
	static const char *const yaml =
		"schema_version: 1\nname: s\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 8\nlevels:\n"
		"  - {name: DRAM, type: storage, class: dram, technology: lpddr4}\n"
		"  - {name: Array, type: spatial, fanout: [32, 16], network: %s, link_bits: 384}\n"
		"  - {name: MAC, type: compute, datatype: int8}\n";
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/65nm.yaml"), 0);
	double area[2];
	for (int mesh = 0; mesh < 2; mesh++) {
		char text[768];
		snprintf(text, sizeof text, yaml, mesh ? "mesh" : "systolic");
		trim_arch *a = NULL;
		ck_assert_msg(trim_arch_load_string(&a, text, "s.yaml") == 0, "%s", trim_last_error());
		trim__level_cost c[3];
		ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
		area[mesh] = c[1].area_mm2;
		trim_arch_free(a);
	}
	const double pes = 32 * 16, reg_bit = 244.7 / 32;
	ck_assert_double_eq_tol(area[0], (60 * (16 * pes + 384) + reg_bit * 16 * pes) * 1e-6, 1e-9);
	ck_assert_double_eq_tol(area[1], 60 * 384 * pes * 1e-6, 1e-9);
	trim_energy_free(t);
}
END_TEST

/*
 * Eyeriss's normalised energy per 16-bit access (ISCA 2016 / JSSC 2017),
 * relative to one MAC: DRAM 200, global buffer 6, array (one inter-PE hop) 2,
 * register file 1. Tolerance: each ratio within a factor 4/3 (-25% / +33%).
 */
START_TEST(eyeriss_relative_costs)
{
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_energy_load_for_arch(&t, a), 0);
	trim__level_cost c[5];
	ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
	double mac = c[4].mac_pj;
	double got[4] = {c[0].read_pj / mac, c[1].read_pj / mac, c[2].hop_pj / mac,
	                 c[3].read_pj / mac};
	static const double want[4] = {200, 6, 2, 1};
	for (int i = 0; i < 4; i++)
		ck_assert_msg(got[i] >= want[i] * 0.75 && got[i] <= want[i] * 4.0 / 3.0,
		              "level %d: %g x MAC, Eyeriss %g x", i, got[i], want[i]);
	/* ordering as published */
	ck_assert(got[0] > got[1] && got[1] > got[2] && got[2] > got[3]);
	ck_assert(c[4].gated_mac_pj < mac);
	ck_assert(c[3].area_mm2 > 0 && c[1].area_mm2 > 0);
	trim_energy_free(t);
	trim_arch_free(a);
}
END_TEST

/* TRIM Table V: FPGA-4 and FPGA-5 need 320 and 640 DSPs, the XC7Z020 has 220. */
START_TEST(fpga_resources)
{
	static const double dsp[5] = {40, 80, 160, 320, 640};
	for (int k = 1; k <= 5; k++) {
		char path[64];
		snprintf(path, sizeof path, "models/arch/fpga-%d.yaml", k);
		trim_arch *a = NULL;
		trim_energy *t = NULL;
		ck_assert_int_eq(trim_arch_load(&a, path), 0);
		ck_assert_int_eq(trim_energy_load_for_arch(&t, a), 0);
		ck_assert_int_eq(trim_energy_is_fpga(t), 1);
		double r[8];
		int fits = trim_energy_resources(t, a, r, 8);
		ck_assert_msg(fits == (k <= 3), "%s: fits %d", path, fits);
		ck_assert(r[TRIM_RES_DSP] == dsp[k - 1]);
		ck_assert(r[4 + TRIM_RES_DSP] == 220 && r[4 + TRIM_RES_BRAM36] == 140);
		ck_assert(r[4 + TRIM_RES_LUT] == 53200 && r[4 + TRIM_RES_FF] == 106400);
		ck_assert(r[TRIM_RES_BRAM36] > 0 && r[TRIM_RES_BRAM36] <= 140);
		double mm2;
		ck_assert_int_eq(trim_energy_area(t, "sram", 32768, 32, &mm2), TRIM_ENOTFOUND);
		trim_energy_free(t);
		trim_arch_free(a);
	}
	/* an ASIC table has no device */
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	double r[8];
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/65nm.yaml"), 0);
	ck_assert_int_eq(trim_energy_resources(t, a, r, 8), TRIM_EINVAL);
	trim_energy_free(t);
	trim_arch_free(a);
}
END_TEST

START_TEST(accelergy_tables)
{
	trim_energy *t = NULL;
	double v, mm2;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/accelergy-example"), 0);
	/* several argument variants: the largest (random access) */
	ck_assert_int_eq(trim_energy_action(t, "shared_glb", "read", 0, 16, &v), 0);
	ck_assert(v == 34.8); /* per action: a block of 4 words */
	ck_assert_int_eq(trim_energy_action(t, "eyeriss_like.shared_glb", "idle", 0, 16, &v), 0);
	ck_assert(v == 0.44);
	ck_assert_int_eq(trim_energy_area(t, "weights_spad", 0, 16, &mm2), 0);
	ck_assert_double_eq_tol(mm2, 0.02558, 1e-12);
	trim_energy_free(t);
	/* ERT alone, and the pair through the explicit call */
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/accelergy-example/ERT.yaml"), 0);
	ck_assert_int_eq(trim_energy_area(t, "mac", 0, 16, &mm2), TRIM_ENOTFOUND);
	trim_energy_free(t);
	ck_assert_int_eq(trim_energy_load_accelergy(&t, "energy_tables/accelergy-example/ERT.yaml",
	                                            "energy_tables/accelergy-example/ART.yaml"), 0);
	ck_assert_int_eq(trim_energy_area(t, "mac", 0, 16, &mm2), 0);
	ck_assert_double_eq_tol(mm2, 0.0025, 1e-15);
	trim_energy_free(t);
	/* Accelergy 0.2's mapping form */
	static const char v02[] = "ERT:\n  version: 0.2\n  tables:\n"
		"    sys.PE[0..3].buf:\n      idle: {arguments: null, energy: 0}\n"
		"      read:\n      - {arguments: {data_delta: 0}, energy: 1.5}\n"
		"      - {arguments: {data_delta: 1}, energy: 2.5}\n";
	ck_assert_int_eq(trim_energy_load_string(&t, v02, "ERT.yaml"), 0);
	ck_assert_int_eq(trim_energy_action(t, "buf", "read", 0, 16, &v), 0);
	ck_assert(v == 2.5);
	ck_assert_int_eq(trim_energy_action(t, "sys.PE.buf", "read", 0, 16, &v), 0);
	trim_energy_free(t);
	/* an architecture costed with them */
	trim_arch *a = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "test/data/arch/accelergy-eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_energy_load_for_arch(&t, a), 0);
	trim__level_cost c[5];
	ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
	/* DRAM and GLB: block_size 4, the ERT's energy per action / 4 per word */
	ck_assert(c[0].read_pj == 320 && c[1].read_pj == 8.7 && c[3].read_pj == 1.47);
	ck_assert(c[1].write_pj == 10.0 && c[1].leak_pj_per_cycle == 0.44);
	ck_assert(c[2].hop_pj == 3.2 && c[2].avg_hops == 1);
	ck_assert(c[4].mac_pj == 1.5 && c[4].gated_mac_pj == 0.15);
	ck_assert_double_eq_tol(c[3].area_mm2, 0.02558 * 168, 1e-9);
	ck_assert_int_eq(trim_arch_report(a, t, TRIM_FORMAT_TABLE, &text), 0);
	trim_string_free(text);
	trim_energy_free(t);
	trim_arch_free(a);
}
END_TEST

/* Accelergy's ERT gives energy per action; a memory's action moves a block of
 * block_size words (Timeloop's block-size), so a word costs energy / block.
 * An unchanged Eyeriss-like ERT (64-bit DRAM and GLB, 16-bit words) made the
 * DRAM and GLB words 4x too expensive before block_size. */
#define ERT_BLOCKS \
	"ERT:\n  version: '0.4'\n  tables:\n" \
	"  - name: sys.DRAM\n    actions:\n" \
	"    - {name: read, arguments: null, energy: 512}\n" \
	"    - {name: write, arguments: null, energy: 512}\n" \
	"  - name: sys.glb\n    actions:\n" \
	"    - {name: read, arguments: {data_delta: 1, address_delta: 1}, energy: 40}\n" \
	"    - {name: write, arguments: {data_delta: 1, address_delta: 1}, energy: 48}\n" \
	"    - {name: update, arguments: {data_delta: 1, address_delta: 1}, energy: 52}\n" \
	"    - {name: idle, arguments: null, energy: 0.5}\n" \
	"  - name: sys.PE[0..15].spad\n    actions:\n" \
	"    - {name: read, arguments: null, energy: 1.2}\n" \
	"    - {name: write, arguments: null, energy: 1.4}\n" \
	"    - {name: idle, arguments: null, energy: 0.01}\n" \
	"  - name: sys.PE[0..15].mac\n    actions:\n" \
	"    - {name: mac_random, arguments: null, energy: 2.0}\n" \
	"    - {name: mac_gated, arguments: null, energy: 0.2}\n" \
	"    - {name: idle, arguments: null, energy: 0.03}\n"
static const char ert_blocks[] = ERT_BLOCKS;
#define ARCH_BLOCKS(dram_block, glb_block, noc)                                             \
	"schema_version: 1\nname: blocks\nclock_mhz: 200\ntechnology: x\nword_bits: 16\nlevels:\n" \
	"  - {name: DRAM, type: storage, class: dram, technology: ddr3" dram_block "}\n"            \
	"  - {name: GLB, type: storage, class: sram, capacity: 64 KB, component: glb" glb_block "}\n" \
	"  - {name: NoC, type: spatial, fanout: [4, 4], network: bus, multicast: true" noc "}\n"      \
	"  - {name: RF, type: storage, class: regfile, capacity: 64, component: spad}\n"            \
	"  - {name: MAC, type: compute, datatype: int16, macs_per_cycle: 2, component: mac}\n"

START_TEST(accelergy_blocks_idle_and_uncosted_noc)
{
	trim_energy *t = NULL;
	trim_arch *a = NULL;
	trim__level_cost c[5];
	char *text = NULL;
	ck_assert_msg(trim_energy_load_string(&t, ert_blocks, "ERT.yaml") == 0, "%s", trim_last_error());
	/* block_size 4 on DRAM and GLB: energy / 4 per word; the RF's block is one word */
	ck_assert_msg(trim_arch_load_string(&a, ARCH_BLOCKS(", block_size: 4", ", block_size: 4", ""), "b.yaml") == 0,
	              "%s", trim_last_error());
	/* no NoC entry in an ERT (which never has libtrim's `noc`): 0 pJ with a warning, not an error */
	ck_assert_msg(trim__arch_costs(a, t, c) == 0, "%s", trim_last_error());
	ck_assert(c[0].read_pj == 128 && c[0].write_pj == 128 && c[0].update_pj == 128);
	ck_assert(c[1].read_pj == 10 && c[1].write_pj == 12 && c[1].update_pj == 13);
	ck_assert(c[3].read_pj == 1.2 && c[3].write_pj == 1.4);
	ck_assert(c[2].hop_pj == 0 && c[2].uncosted == 1);
	/* idle is charged per cycle and instance for storage and the MAC alike
	 * (per MAC unit: 2 per PE here), never divided by the block */
	ck_assert(c[1].leak_pj_per_cycle == 0.5 && c[3].leak_pj_per_cycle == 0.01);
	ck_assert_double_eq_tol(c[4].leak_pj_per_cycle, 0.06, 1e-15);
	ck_assert(c[4].mac_pj == 2.0 && c[4].gated_mac_pj == 0.2);
	ck_assert_int_eq(trim_arch_report(a, t, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, "hop 0 pJ per word, mean 4 hops  (warning: the energy table has no entry for this network: its words cost 0 pJ)"),
	              "%s", text);
	trim_string_free(text);
	ck_assert_int_eq(trim_arch_report(a, t, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"uncosted\":true"));
	trim_string_free(text);
	trim_arch_free(a);
	/* without block_size each word costs a whole action */
	ck_assert_int_eq(trim_arch_load_string(&a, ARCH_BLOCKS("", "", ""), "b.yaml"), 0);
	ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
	ck_assert(c[0].read_pj == 512 && c[1].read_pj == 40);
	trim_arch_free(a);
	/* a network component without a transfer or hop action is still an error */
	ck_assert_int_eq(trim_arch_load_string(&a, ARCH_BLOCKS("", "", ", component: spad"), "b.yaml"), 0);
	ck_assert_int_eq(trim__arch_costs(a, t, c), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "has no 'hop' or 'transfer' action"));
	trim_arch_free(a);
	/* a network component's idle is charged like the others' */
	trim_energy *tn = NULL;
	ck_assert_int_eq(trim_energy_load_string(&tn, ERT_BLOCKS "  - name: sys.net\n    actions:\n"
	                 "    - {name: transfer, arguments: null, energy: 2.5}\n"
	                 "    - {name: idle, arguments: null, energy: 0.125}\n", "ERT.yaml"), 0);
	ck_assert_int_eq(trim_arch_load_string(&a, ARCH_BLOCKS("", "", ", component: net"), "b.yaml"), 0);
	ck_assert_int_eq(trim__arch_costs(a, tn, c), 0);
	ck_assert(c[2].hop_pj == 2.5 && c[2].avg_hops == 1 && c[2].uncosted == 0);
	ck_assert(c[2].leak_pj_per_cycle == 0.125);
	trim_arch_free(a);
	trim_energy_free(tn);
	/* a bad block size */
	ck_assert_int_eq(trim_arch_load_string(&a, ARCH_BLOCKS(", block_size: 0", "", ""), "b.yaml"), TRIM_ERANGE);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "block_size"));
	trim_energy_free(t);
}
END_TEST

/* The ERT's (and ART's) version is checked: a format libtrim does not read
 * is refused where it is written. */
START_TEST(accelergy_version)
{
	trim_energy *t = NULL;
	static const char *const ok[] = {"0.2", "0.3", "'0.4'"};
	char buf[256];
	for (int k = 0; k < 3; k++) {
		snprintf(buf, sizeof buf, "ERT:\n  version: %s\n  tables:\n  - name: x\n    actions:\n"
		         "    - {name: read, energy: 1}\n", ok[k]);
		ck_assert_msg(trim_energy_load_string(&t, buf, "ERT.yaml") == 0, "%s: %s", ok[k], trim_last_error());
		trim_energy_free(t);
	}
	ck_assert_int_eq(trim_energy_load_string(&t, "ERT:\n  version: 1.0\n  tables: []\n", "ERT.yaml"), TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "ERT.yaml:2:12: ERT.version: unsupported ERT version '1.0' (0.2, 0.3 or 0.4)"),
	              "%s", trim_last_error());
	ck_assert_int_eq(trim_energy_load_string(&t, "ERT:\n  tables: []\n", "ERT.yaml"), TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "missing required key 'version' of the ERT"));
	ck_assert_int_eq(trim_energy_load_string(&t, "ART:\n  version: 0.9\n  tables: []\n", "ART.yaml"), TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "unsupported ART version '0.9'"));
	ck_assert_ptr_null(t);
}
END_TEST

#define T0 "schema_version: 1\nname: b\nkind: asic\n"
static const struct bad {
	const char *what, *yaml;
	int code;
	const char *where, *path, *msg;
} bad[] = {
	{"unknown key", T0 "colour: red\n", TRIM_ESCHEMA, "b.yaml:4:1", "colour", "unknown key"},
	{"capacities not increasing", T0 "sram:\n  word_bits: [16]\n  points:\n"
	 "    - {capacity: 4 KB, read_pj: [2], write_pj: [2]}\n"
	 "    - {capacity: 1 KB, read_pj: [1], write_pj: [1]}\n",
	 TRIM_ESCHEMA, "b.yaml:8:", "sram.points[1].capacity", "must increase"},
	{"wrong number of values", T0 "sram:\n  word_bits: [16, 32]\n  points:\n"
	 "    - {capacity: 1 KB, read_pj: [1], write_pj: [1, 2]}\n"
	 "    - {capacity: 4 KB, read_pj: [2, 3], write_pj: [2, 3]}\n",
	 TRIM_ESCHEMA, "b.yaml:7:", "sram.points[0].read_pj", "expected 2 values"},
	{"zero energy", T0 "sram:\n  word_bits: [16]\n  points:\n"
	 "    - {capacity: 1 KB, read_pj: [0], write_pj: [1]}\n"
	 "    - {capacity: 4 KB, read_pj: [2], write_pj: [2]}\n",
	 TRIM_ERANGE, "b.yaml:7:", "sram.points[0].read_pj[0]", "out of range"},
	{"one point", T0 "regfile:\n  word_bits: [16]\n  points:\n"
	 "    - {capacity: 1 KB, read_pj: [1], write_pj: [1]}\n",
	 TRIM_ESCHEMA, "b.yaml:7:", "regfile.points", "2 to"},
	{"missing write", T0 "sram:\n  word_bits: [16]\n  points:\n"
	 "    - {capacity: 1 KB, read_pj: [1]}\n    - {capacity: 2 KB, read_pj: [1]}\n",
	 TRIM_ESCHEMA, "b.yaml:7:", "sram.points[0]", "write_pj"},
	{"unknown dram", T0 "dram:\n  ddr5: {pj_per_bit: 3}\n", TRIM_ESCHEMA, "b.yaml:5:3",
	 "dram.ddr5", "unknown key"},
	{"fpga without section", "schema_version: 1\nname: f\nkind: fpga\n", TRIM_ESCHEMA,
	 "b.yaml:1:1", "", "needs an 'fpga' section"},
	{"bad kind", "schema_version: 1\nname: f\nkind: analog\n", TRIM_ESCHEMA, "b.yaml:3:7",
	 "kind", "unknown value"},
	{"malformed", T0 "sram: [1, 2\n", TRIM_EPARSE, "b.yaml:", "", "malformed YAML"},
	{"bad ERT", "ERT:\n  version: 0.3\n  tables:\n  - name: x\n    actions:\n"
	 "    - {name: read, energy: lots}\n", TRIM_ESCHEMA, "b.yaml:6:", "ERT.tables[0].actions[0].energy",
	 "expected a number"},
};

START_TEST(bad_table)
{
	const struct bad *b = &bad[_i];
	trim_energy *t = NULL;
	int rc = trim_energy_load_string(&t, b->yaml, "b.yaml");
	const char *msg = trim_last_error();
	ck_assert_msg(rc == b->code, "%s: code %d, expected %d (%s)", b->what, rc, b->code, msg);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(msg, b->where) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->where);
	ck_assert_msg(strstr(msg, b->path) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->path);
	ck_assert_msg(strstr(msg, b->msg) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->msg);
}
END_TEST

/* Named components of a libtrim table: a level uses one by its name. */
START_TEST(named_components)
{
	static const char tab[] = "schema_version: 1\nname: c\nkind: asic\n"
		"dram: {ddr3: {pj_per_bit: 10}}\n"
		"mac: {int16: {mac_pj: 2.0}}\n"
		"components:\n"
		"  - {name: Buf, actions: {read: 5.5, write: 6.5}, leak_uw: 20, area_um2: 1000}\n";
	static const char arch[] = "schema_version: 1\nname: a\nclock_mhz: 100\ntechnology: x\n"
		"levels:\n"
		"  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"
		"  - {name: Buf, type: storage, class: sram, capacity: 1 MB}\n"
		"  - {name: MAC, type: compute, datatype: int16}\n";
	trim_energy *t = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_energy_load_string(&t, tab, "c.yaml"), 0);
	ck_assert_int_eq(trim_arch_load_string(&a, arch, "a.yaml"), 0);
	trim__level_cost c[3];
	ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
	ck_assert(c[1].read_pj == 5.5 && c[1].write_pj == 6.5 && c[1].update_pj == 6.5);
	ck_assert_double_eq_tol(c[1].leak_pj_per_cycle, 0.2, 1e-12); /* 20 uW at 100 MHz */
	ck_assert_double_eq_tol(c[1].area_mm2, 0.001, 1e-15);
	ck_assert(c[0].read_pj == 160 && c[2].mac_pj == 2.0);
	/* no sram grid and no component for a level: a clear error naming the level */
	trim_arch_free(a);
	ck_assert_int_eq(trim_arch_load_string(&a, "schema_version: 1\nname: a\nclock_mhz: 100\n"
		"technology: x\nlevels:\n  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"
		"  - {name: GLB, type: storage, class: sram, capacity: 1 KB}\n"
		"  - {name: MAC, type: compute, datatype: int16}\n", "a.yaml"), 0);
	ck_assert_int_eq(trim__arch_costs(a, t, c), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "a.yaml:7:5: levels[1] (GLB)") != NULL, "%s",
	              trim_last_error());
	trim_arch_free(a);
	trim_energy_free(t);
}
END_TEST

START_TEST(missing_table_file)
{
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/nope.yaml"), TRIM_EIO);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(trim_energy_load(&t, "models"), TRIM_ENOTFOUND); /* a directory without ERT.yaml */
	char *p = NULL;
	ck_assert_int_eq(trim_energy_resolve("7nm", NULL, &p), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "unknown technology '7nm'"));
	trim_energy_free(NULL);
}
END_TEST

Suite *energy_suite(void)
{
	Suite *s = suite_create("energy");
	TCase *tc = tcase_create("energy");
	tcase_add_test(tc, exact_at_table_points);
	tcase_add_test(tc, log_log_between_points);
	tcase_add_test(tc, monotone_in_capacity);
	tcase_add_test(tc, no_silent_extrapolation);
	tcase_add_test(tc, components_by_class);
	tcase_add_test(tc, eyeriss_relative_costs);
	tcase_add_test(tc, fpga_resources);
	tcase_add_test(tc, accelergy_tables);
	tcase_add_test(tc, accelergy_blocks_idle_and_uncosted_noc);
	tcase_add_test(tc, accelergy_version);
	tcase_add_loop_test(tc, bad_table, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, named_components);
	tcase_add_test(tc, missing_table_file);
	tcase_add_test(tc, systolic_area);
	suite_add_tcase(s, tc);
	return s;
}
