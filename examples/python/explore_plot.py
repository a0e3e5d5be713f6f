#!/usr/bin/python3
"""Explore an architecture space through the ctypes binding and plot it.

    /usr/bin/python3 examples/python/explore_plot.py [--out FILE.png]
        [--network N.yaml --space S.yaml --mode inference|training|default]
        [--goal energy|delay|edp|area|weighted] [--batch N] [--threads N] [--quiet]

Runs ``libtrim.Explorer`` (every point of the space on the network, one point
per step so progress is shown) and draws three panels into a PNG:

* the Pareto front: energy against delay of every valid point, coloured by
  area, the (energy, delay, area) front highlighted, labelled and joined,
  the best point for the goal starred;
* the energy of every layer's intra workloads on the best point, stacked
  by phase (FW, BW, WG), read from the result set ``Explorer.write`` makes;
* the energy breakdown of every layer on the best point, stacked by level
  (DRAM, buffers, network, registers, MACs: the ``<level>_pj`` columns of
  workloads.csv, from the per-workload breakdowns).

An axis whose values span two decades or more is logarithmic (``--linear``
keeps every axis linear).

The defaults are the tiny test fixtures (3 points, about a second):
test/data/neteval/tiny.yaml in inference over tiny-space-1pe.yaml. The
README's case (``make run``: four points, every AlexNet-CIFAR training
workload mapped within the space's row-stationary constraints, about 20 s on
two cores)::

    /usr/bin/python3 examples/python/explore_plot.py --out alexnet.png \\
        --network models/networks/alexnet-cifar.yaml \\
        --space models/arch/spaces/default.yaml --mode training --threads 4

matplotlib is Debian's python3-matplotlib (``/usr/bin/python3``); the
binding is the installed ``libtrim`` package, else the tree's python/; it
loads the library it finds itself (``TRIM_LIBRARY`` overrides).
"""
import argparse
import csv
import math
import os
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.join(_HERE, "..", "..")
try:
    import libtrim as trim  # the installed package (make install, or pip install ./python)
except ImportError:
    sys.path.insert(0, os.path.join(_ROOT, "python"))  # else the tree's
    import libtrim as trim  # noqa: E402

DEFAULT_NETWORK = os.path.join(_ROOT, "test", "data", "neteval", "tiny.yaml")
DEFAULT_SPACE = os.path.join(_ROOT, "test", "data", "neteval", "tiny-space-1pe.yaml")
PHASES = ("FW", "BW", "WG")
PHASE_COLOURS = {"FW": "#4c72b0", "BW": "#dd8452", "WG": "#55a868"}


def explore(network, space, mode, goal, batch, threads, quiet):
    """Run the exploration; returns (points, ranking, per-workload rows, names)."""
    with trim.Network(network) as net, trim.Space(space) as sp:
        w = trim.Workloads(net, mode=mode, batch=batch)
        with w, trim.Explorer(net, w, sp) as ex:
            ex.set_goal(goal)
            ex.set_threads(threads)
            n = len(ex)
            while True:
                done = ex.step()
                if not quiet:
                    print("\r%s on %s: %d/%d points" % (net.name, sp.name, ex.done, n),
                          end="\n" if done or not sys.stderr.isatty() else "", file=sys.stderr, flush=True)
                if done:
                    break
            points, ranking = ex.points(), ex.ranking()
            with tempfile.TemporaryDirectory() as tmp:
                ex.write(tmp)
                with open(os.path.join(tmp, "workloads.csv"), newline="") as f:
                    rows = list(csv.DictReader(f))
            return points, ranking, rows, (net.name, sp.name, ex.report_json()["goal"], w.totals())


def per_layer(rows, point):
    """{phase: [energy per layer]} and the layers, in the network's order."""
    layers, energy = [], {}
    for r in rows:
        if r["point"] != point:
            continue
        if r["layer"] not in layers:
            layers.append(r["layer"])
        energy[(r["layer"], r["phase"])] = energy.get((r["layer"], r["phase"]), 0.0) + float(r["energy_pj"])
    return layers, {p: [energy.get((l, p), 0.0) for l in layers] for p in PHASES
                    if any((l, p) in energy for l in layers)}


def per_level(rows, point):
    """{level: [energy per layer]} (the ``<level>_pj`` columns) and the layers."""
    levels = [k[:-3] for k in (rows[0] if rows else {}) if k.endswith("_pj")
              and k not in ("energy_pj", "dense_energy_pj")]
    layers, energy = [], {}
    for r in rows:
        if r["point"] != point:
            continue
        if r["layer"] not in layers:
            layers.append(r["layer"])
        for lv in levels:
            energy[(r["layer"], lv)] = energy.get((r["layer"], lv), 0.0) + float(r[lv + "_pj"])
    return layers, {lv: [energy.get((l, lv), 0.0) for l in layers] for lv in levels}


def spans_decades(values, decades=2):
    """True when the positive values span ``decades`` powers of ten or more."""
    pos = [v for v in values if v > 0 and v == v]
    return len(pos) >= 2 and max(pos) / min(pos) >= 10 ** decades


def unit(values, base, names):
    """(scale, name) putting the largest of ``values`` (in ``base`` units) in [1, 1000)."""
    top = max((abs(v) for v in values if v == v), default=1.0) or 1.0
    k = 0
    while k + 1 < len(names) and top / 1000.0 ** (k + 1) >= 1:
        k += 1
    return base / 1000.0 ** k, names[k]


def plot(points, ranking, rows, title, out, linear=False):
    """Draw the three panels into ``out``; returns the scale ("linear" or
    "log") of each value axis: delay, energy, phases, levels."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    net_name, space_name, goal, _ = title
    valid = [p for p in points if p["valid"]]
    if not valid:
        raise SystemExit("explore_plot: no point of %s could be mapped" % space_name)
    best = points[ranking[0]] if ranking else min(valid, key=lambda p: p["edp"])
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(19, 5.4), gridspec_kw={"width_ratios": [1.15, 1, 1]})

    # -- Pareto front: delay x energy, colour = area
    ts, tname = unit([p["seconds"] * 1e9 for p in valid], 1e9, ["ns", "us", "ms", "s"])
    es, ename = unit([p["energy_pj"] for p in valid], 1.0, ["pJ", "nJ", "uJ", "mJ", "J"])

    def xy(p):
        return p["seconds"] * ts, p["energy_pj"] * es

    xs, ys = zip(*(xy(p) for p in valid))
    areas = [p["area_mm2"] for p in valid]
    have_area = not any(math.isnan(a) for a in areas)
    sc = ax.scatter(xs, ys, c=areas if have_area else "0.6", cmap="viridis", s=55, zorder=2,
                    edgecolors="0.3", linewidths=0.5)
    if have_area:
        fig.colorbar(sc, ax=ax, label="area (mm$^2$)")
    front = sorted((p for p in valid if p["pareto"]), key=lambda p: (p["seconds"], p["energy_pj"]))
    fx, fy = zip(*(xy(p) for p in front)) if front else ((), ())
    ax.plot(fx, fy, "-", color="crimson", lw=1.2, zorder=1, label="Pareto front (energy, delay, area)")
    ax.scatter(fx, fy, s=170, facecolors="none", edgecolors="crimson", linewidths=1.6, zorder=3)
    mid = (min(xs) + max(xs)) / 2
    for p, x, y in zip(front, fx, fy):
        right = x > mid  # labels of points on the right go to their left, inside the axes
        ax.annotate(p["name"], (x, y), textcoords="offset points", xytext=(-9 if right else 9, 7),
                    ha="right" if right else "left", fontsize=8, color="crimson",
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8))
    bx_, by_ = xy(best)
    ax.scatter([bx_], [by_], marker="*", s=90, color="gold", edgecolors="black", linewidths=0.6, zorder=4,
               label="best %s: %s" % (goal, best["name"]))
    ax.margins(x=0.15, y=0.15)
    ax.set_xlabel("delay (%s)" % tname)
    ax.set_ylabel("energy (%s)" % ename)
    ax.set_title("%s over %s: %d points, %d on the front" % (net_name, space_name, len(valid), len(front)),
                 fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    if not linear and spans_decades(xs):
        ax.set_xscale("log")
        ax.set_xlabel("delay (%s, log)" % tname)
    if not linear and spans_decades(ys):
        ax.set_yscale("log")
        ax.set_ylabel("energy (%s, log)" % ename)
    if ax.get_xscale() == "linear" and ax.get_yscale() == "linear":
        ax.ticklabel_format(useOffset=False)

    # -- per-layer energy of the best point, stacked by phase
    layers, by_phase = per_layer(rows, best["name"])
    bottom = [0.0] * len(layers)
    xs = range(len(layers))
    ls, lname = unit([sum(v) for v in zip(*by_phase.values())], 1.0, ["pJ", "nJ", "uJ", "mJ", "J"])
    for phase, values in by_phase.items():
        v = [e * ls for e in values]
        bx.bar(xs, v, bottom=bottom, label=phase, color=PHASE_COLOURS[phase], edgecolor="white", lw=0.5)
        bottom = [b + e for b, e in zip(bottom, v)]
    bx.set_xticks(list(xs))
    bx.set_xticklabels(layers, rotation=45 if len(layers) > 6 else 0, ha="right" if len(layers) > 6 else "center",
                       fontsize=8)
    bx.set_ylabel("energy (%s)" % lname)
    if not linear and spans_decades(bottom):
        bx.set_yscale("log")
        bx.set_ylabel("energy (%s, log)" % lname)
    bx.set_title("per-layer energy on %s (intra-layer workloads)" % best["name"], fontsize=10)
    bx.legend(title="phase", fontsize=8)
    bx.grid(True, axis="y", alpha=0.3)

    # -- per-layer energy breakdown by level on the best point
    layers, by_level = per_level(rows, best["name"])
    totals = [sum(v) for v in zip(*by_level.values())] if by_level else []
    ls, lname = unit(totals, 1.0, ["pJ", "nJ", "uJ", "mJ", "J"])
    log = not linear and spans_decades(totals)
    bottom = [0.0] * len(layers)
    colours = plt.get_cmap("tab10")
    for k, (level, values) in enumerate(by_level.items()):
        v = [e * ls for e in values]
        if not any(v):
            continue
        cx.bar(range(len(layers)), v, bottom=bottom, label=level, color=colours(k % 10), edgecolor="white",
               lw=0.5)
        bottom = [b + e for b, e in zip(bottom, v)]
    cx.set_xticks(list(range(len(layers))))
    cx.set_xticklabels(layers, rotation=45 if len(layers) > 6 else 0, ha="right" if len(layers) > 6 else "center",
                       fontsize=8)
    if log:
        cx.set_yscale("log")
    cx.set_ylabel("energy (%s%s)" % (lname, ", log" if log else ""))
    cx.set_title("energy breakdown by level on %s" % best["name"], fontsize=10)
    cx.legend(title="level", fontsize=8)
    cx.grid(True, axis="y", alpha=0.3)
    fig.suptitle("libtrim exploration, goal %s" % goal, fontsize=12)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    scales = {"delay": ax.get_xscale(), "energy": ax.get_yscale(), "phases": bx.get_yscale(),
              "levels": cx.get_yscale()}
    plt.close(fig)
    return scales


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="explore.png", help="PNG to write (default explore.png)")
    ap.add_argument("--network", default=DEFAULT_NETWORK)
    ap.add_argument("--space", default=DEFAULT_SPACE)
    ap.add_argument("--mode", default=None, choices=sorted(trim.MODES),
                    help="default: inference for the tiny fixtures, else the network's own")
    ap.add_argument("--goal", default="energy", help="energy, delay, edp, area or weighted")
    ap.add_argument("--batch", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="points evaluated at once")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--linear", action="store_true", help="linear axes even where values span decades")
    a = ap.parse_args(argv)
    mode = a.mode or ("inference" if a.network == DEFAULT_NETWORK else "default")
    try:
        points, ranking, rows, title = explore(a.network, a.space, mode, a.goal, a.batch, a.threads, a.quiet)
    except (trim.TrimError, ValueError) as e:
        print("explore_plot: %s" % e, file=sys.stderr)
        return 1
    plot(points, ranking, rows, title, a.out, linear=a.linear)
    best = points[ranking[0]] if ranking else None
    print("%s: %d points, best %s%s" % (a.out, len(points), a.goal,
                                        ": " + best["name"] if best else " (none ranked)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
