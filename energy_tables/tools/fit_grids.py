#!/usr/bin/python3
"""Print the sram / regfile grids of energy_tables/{65nm,45nm,fpga-xc7z020}.yaml.

The grids are NOT CACTI output: they are power-law fits anchored at published
figures (see the header comments of each table and docs/energy.md). This script
only makes the fits reproducible; to use CACTI instead, replace the grids with
CACTI results (same keys) and keep the comments honest.

usage: python3 energy_tables/tools/fit_grids.py {65nm|45nm|fpga} {sram|regfile}
"""
import sys

WIDTHS = [8, 16, 32, 64]

# name: (capacities in bytes, anchor capacity, read pJ at anchor for 16-bit words,
#        capacity exponent, width exponent, write/read, leak uW per bit,
#        area um2 per bit at anchor, area capacity exponent)
FITS = {
    ("65nm", "regfile"): ([4 << i for i in range(12)], 512, 1.55, 0.4, 0.75, 1.10, 2.0e-4, 6.0, -0.05),
    ("65nm", "sram"): ([1024 << i for i in range(14)], 131072, 9.3, 0.4, 0.75, 1.15, 1.0e-4, 1.0, -0.10),
    ("fpga", "regfile"): ([16 << i for i in range(9)], 64, 0.35, 0.3, 0.9, 1.10, None, None, None),
    ("fpga", "sram"): ([1024 << i for i in range(10)], 32768, 5.0, 0.15, 0.75, 1.10, None, None, None),
}
# 45 nm: dynamic energy x 0.561 (C.V^2: 45/65 x (0.9 V / 1.0 V)^2), area x (45/65)^2,
# leakage per bit unchanged (assumption).
E45, A45 = 0.561, (45.0 / 65.0) ** 2


def label(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return "%d MB" % (b >> 20)
    if b >= 1024 and b % 1024 == 0:
        return "%d KB" % (b >> 10)
    return "%d B" % b


def main():
    tech, kind = sys.argv[1], sys.argv[2]
    base = "65nm" if tech == "45nm" else tech
    caps, c0, e0, ce, we, wr, leak, a0, ae = FITS[(base, kind)]
    es = E45 if tech == "45nm" else 1.0
    asc = A45 if tech == "45nm" else 1.0
    print("  word_bits: [%s]" % ", ".join(str(w) for w in WIDTHS))
    print("  points:")
    for c in caps:
        rd = [es * e0 * (c / c0) ** ce * (w / 16.0) ** we for w in WIDTHS]
        fmt = lambda v: "%.4g" % v
        print("    - capacity: %s  # fit of the header (tools/fit_grids.py), not a CACTI run" % label(c))
        print("      read_pj: [%s]" % ", ".join(fmt(v) for v in rd))
        print("      write_pj: [%s]" % ", ".join(fmt(v * wr) for v in rd))
        if leak is not None:
            print("      leak_uw: [%s]" % ", ".join(fmt(leak * c * 8) for _ in WIDTHS))
            print("      area_um2: [%s]" % ", ".join(
                fmt(asc * a0 * (c / c0) ** ae * c * 8) for _ in WIDTHS))


main()
