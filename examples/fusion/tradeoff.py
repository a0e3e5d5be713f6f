#!/usr/bin/python3
"""DeCoILFNet Fig. 7 with libtrim: the first five convolutions and two pools of
VGG-16 (conv1_1..conv3_1) on the Virtex-7 XC7VX690T at 120 MHz, every way of
grouping them into fused groups, from no fusion to all fused.

    /usr/bin/python3 examples/fusion/tradeoff.py [path/to/trim] [--plot out.png]
    (Debian's python3-matplotlib belongs to /usr/bin/python3; --plot needs it)

Runs `trim fuse ... --format json` twice: with full depth concatenation (every
CONV computes all its input channels at once) and with DeCoILFNet's parallelism
(conv2_2 decomposed into 2 serial passes of 64 channels, which gives its 2907
DSPs), and prints the Pareto set, layer by layer and all fused.
"""
import json
import subprocess
import sys

MiB = 1048576.0


def run(trim, extra):
    cmd = [trim, "fuse", "models/networks/vgg16.yaml", "models/arch/virtex7-690t.yaml",
           "--layers", "conv1_1:conv3_1", "--format", "json"] + extra
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def groups(plan):
    return " | ".join(",".join(g) for g in plan["groups"])


def show(title, res):
    plans = res["plans"]
    print(f"\n== {title}: {res['considered']} partitions, {len(plans)} within "
          f"{res['params']['budget_dsp']:.0f} DSPs, {len(res['pareto'])} on the Pareto set")
    print(f"{'DSP':>6} {'offchip MB':>10} {'maps MB':>8} {'weights MB':>10} "
          f"{'onchip KB':>9} {'BRAM36':>6} {'ms':>7}  groups")
    rows = [plans[i] for i in res["pareto"]]
    lbl = res["layer_by_layer"]
    fused = next(p for p in plans if p["cuts"] == 0)
    for p in rows:
        print(f"{p['dsp']:6.0f} {p['offchip_bytes'] / MiB:10.3f} "
              f"{p['offchip_fmap_bytes'] / MiB:8.3f} {p['offchip_weight_bytes'] / MiB:10.3f} "
              f"{p['onchip_buffer_bytes'] / 1024:9.1f} {p['bram36']:6.0f} "
              f"{p['time_ms']:7.2f}  {groups(p)}")
    for name, p in (("no fusion (A)", lbl), ("all fused (G)", fused)):
        print(f"{name}: {p['offchip_bytes'] / MiB:.3f} MB per image "
              f"({p['offchip_fmap_bytes'] / MiB:.3f} MB of feature maps), "
              f"{p['dsp']:.0f} DSP, {p['onchip_buffer_bytes'] / 1024:.1f} KB on chip, "
              f"{p['bram36']:.0f} BRAM36, {p['time_ms']:.2f} ms")
    return rows


def main():
    args = sys.argv[1:]
    plot = None
    if "--plot" in args:
        k = args.index("--plot")
        plot = args[k + 1]
        del args[k:k + 2]
    trim = args[0] if args else "build/bin/trim"
    full = show("full depth concatenation", run(trim, []))
    paper = show("DeCoILFNet's parallelism (conv2_2 in 2 passes of 64)",
                 run(trim, ["--parallel", "conv2_2=64"]))
    if plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for rows, lab in ((full, "full depth"), (paper, "conv2_2 P=64")):
            ax.plot([p["dsp"] for p in rows], [p["offchip_bytes"] / MiB for p in rows], "o-",
                    label=lab)
        ax.set_xlabel("DSP slices (largest group)")
        ax.set_ylabel("off-chip MB per image")
        ax.set_title("VGG-16 conv1_1..conv3_1 on XC7VX690T: fusion trade-off")
        ax.legend()
        fig.tight_layout()
        fig.savefig(plot)
        print(f"\nplot written to {plot}")


if __name__ == "__main__":
    main()
