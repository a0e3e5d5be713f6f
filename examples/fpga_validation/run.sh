#!/bin/sh
# TRIM's FPGA case study (TRIM, "FPGA validation": Table IV/V, Figs. 10-12):
# trains AlexNet-Cifar, VGG-11 and ResNet-20 (batch 1) on FPGA-1..5 with the
# highest-throughput mapping (--goal delay) within
# models/constraints/fpga-output-stationary.yaml, and prints per network:
# time, energy (both also normalised to FPGA-1), PE and cache utilisation,
# and the FPGA resources of each point. See README.md.
#
#   examples/fpga_validation/run.sh            # from the repository root
#   TRIM=build-fv/bin/trim THREADS=2 OUT=/tmp/fv examples/fpga_validation/run.sh
#
# Needs python3 (JSON to table). Not run by CI (a few minutes).
set -eu
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
TRIM=${TRIM:-$root/build/bin/trim}
THREADS=${THREADS:-2}
OUT=${OUT:-${TMPDIR:-/tmp}/trim-fpga-validation}
CONS=${CONS:-$root/models/constraints/fpga-output-stationary.yaml}
NETS=${NETS:-"alexnet-cifar vgg11-cifar resnet20-cifar"}
POINTS="1 2 3 4 5"
mkdir -p "$OUT"

for net in $NETS; do
	for p in $POINTS; do
		arch=$root/models/arch/fpga-$p.yaml
		j=$OUT/$net-fpga-$p.json
		echo "== $net on fpga-$p" >&2
		"$TRIM" network "$root/models/networks/$net.yaml" "$arch" --mode training --batch 1 \
			--goal delay --constraints "$CONS" --threads "$THREADS" --quiet --format json >"$j"
		# FPGA resources: the "total" row of `trim arch`.
		"$TRIM" arch "$arch" | awk '$1 == "total" { print $2, $3, $4, $5 }' >"$OUT/fpga-$p.res"
	done
done

TRIM="$TRIM" OUT="$OUT" NETS="$NETS" POINTS="$POINTS" ROOT="$root" python3 - <<'PY'
import json, os, subprocess, tempfile
trim, out, root = os.environ["TRIM"], os.environ["OUT"], os.environ["ROOT"]
nets, points = os.environ["NETS"].split(), os.environ["POINTS"].split()

def cache_util(net, arch, wl):
    """Cache capacity_utilization of one workload's best mapping (trim eval)."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(wl["best"]["mapping"])
        path = f.name
    try:
        r = subprocess.run([trim, "eval", net, arch, "--layer", wl["layer"], "--phase", wl["phase"],
                            "--mapping", path, "--mode", "training", "--batch", "1",
                            "--format", "json"], check=True, capture_output=True, text=True)
    finally:
        os.unlink(path)
    for lv in json.loads(r.stdout)["levels"]:
        if lv["name"] == "Cache":
            return lv["capacity_utilization"]
    raise SystemExit("no Cache level")

for net in nets:
    rows = []
    for p in points:
        d = json.load(open(f"{out}/{net}-fpga-{p}.json"))
        t = d["totals"]
        netf, arch = f"{root}/models/networks/{net}.yaml", f"{root}/models/arch/fpga-{p}.yaml"
        # cache utilisation: mean over the intra-layer workloads weighted by their cycles
        cyc = cu = 0.0
        for wl in d["workloads"]:
            c = wl["best"]["cycles"]
            cu += c * cache_util(netf, arch, wl)
            cyc += c
        res = open(f"{out}/fpga-{p}.res").read().split()
        rows.append((f"fpga-{p}", t["seconds"], t["energy_pj"], t["pe_utilization"], cu / cyc, res))
    t1, e1 = rows[0][1], rows[0][2]
    print(f"\n{net} (training, batch 1, goal delay)")
    print(f"{'point':7} {'time s':>9} {'norm t':>7} {'energy pJ':>10} {'norm E':>7} "
          f"{'PE util':>7} {'cache util':>10} {'DSP':>5} {'BRAM36':>6} {'LUT':>6} {'FF':>6}")
    for name, s, e, pu, cu, res in rows:
        print(f"{name:7} {s:9.4f} {s / t1:7.3f} {e:10.4g} {e / e1:7.3f} "
              f"{pu:7.3f} {cu:10.3f} {res[0]:>5} {res[1]:>6} {res[2]:>6} {res[3]:>6}")
PY
