#!/bin/sh
# TRIM case study II on libtrim: AlexNet-Cifar training over 256, 512 and
# 1024 PEs x register sizes x global-buffer sizes, lowest-EDP goal.
# Usage: examples/spatial_training/run.sh [OUTDIR]   (from the top of the tree,
# after `make`; TRIM=path/to/trim to use another binary; BATCH=1 for batch 1,
# default TRIM's 64). About 45 s on two cores.
set -e
TRIM=${TRIM:-build/bin/trim}
OUT=${1:-build/spatial-training}
BATCH=${BATCH:-64}
"$TRIM" explore models/networks/alexnet-cifar.yaml examples/spatial_training/space.yaml \
	--mode training --batch "$BATCH" --goal edp --threads 2 --quiet --out "$OUT"
echo
echo "per-layer active PEs and cycles (registers 1 KB, buffer 256 KB):"
python3 - "$OUT/workloads.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
pts = ["256_rf=1KB_glb=256KB_zs", "512_rf=1KB_glb=256KB_zs", "1024_rf=1KB_glb=256KB_zs"]
by = {}
for r in rows:
    if r["point"] in pts:
        by.setdefault((r["layer"], r["phase"]), {})[r["point"]] = r
print("%-8s %-3s %18s %18s %18s" % ("layer", "ph", "256 PEs", "512 PEs", "1024 PEs"))
for (layer, ph), v in by.items():
    cells = ["%5s PEs %9.3g" % (v[p]["active_pes"], float(v[p]["cycles"])) for p in pts]
    print("%-8s %-3s %18s %18s %18s" % (layer, ph, *cells))
PY
