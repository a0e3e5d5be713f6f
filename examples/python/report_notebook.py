#!/usr/bin/python3
# %% [markdown]
# # A network's report, step by step
#
# A notebook in the "percent" format (`# %%` cells: Jupyter with jupytext,
# VS Code and Spyder open it as a notebook) that also runs as a plain
# script, and is run as one by `make check` (test/python/test_binding.py):
#
#     /usr/bin/python3 examples/python/report_notebook.py [--out DIR]
#
# It evaluates the tiny test network (training: 7 intra-layer and 7
# inter-layer workloads) on the tiny test architecture, then looks at what
# the HTML report shows: how sure the searches are, energy by level and by
# tensor, the inter-layer workloads, a roofline of every workload; and
# writes the report itself (`NetEval.write_html`) and a roofline PNG into
# DIR (a temporary directory by default). Every cell checks what it shows
# (`assert`), so a run that finishes is a run whose figures agree.

# %%
import argparse
import json
import math
import os
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.join(_HERE, "..", "..")
try:
    import libtrim as trim  # the installed package
except ImportError:
    sys.path.insert(0, os.path.join(_ROOT, "python"))  # else the tree's
    import libtrim as trim  # noqa: E402

parser = argparse.ArgumentParser(description="A network's report, step by step")
parser.add_argument("--out", help="directory for report.html and roofline.png (default: a temporary one)")
# parse_known_args: inside Jupyter the kernel passes its own arguments
opts, _ = parser.parse_known_args()
out = opts.out or tempfile.mkdtemp(prefix="trim-notebook-")
os.makedirs(out, exist_ok=True)

net = trim.Network(os.path.join(_ROOT, "test", "data", "neteval", "tiny.yaml"))
w = trim.Workloads(net, mode="training")
arch = trim.Arch(os.path.join(_ROOT, "test", "data", "neteval", "tiny-arch.yaml"))
print(net, arch, sep="\n")

# %% [markdown]
# ## Evaluate: the best mapping of every workload

# %%
ne = trim.NetEval(net, w, arch)
ne.set_goal("energy")
ne.run()
totals = ne.totals()
print("cycles %.6g, energy %.6g pJ" % (totals["cycles"], totals["energy_pj"]))
rows = ne.workloads()
assert len(rows) == len(w) == 7

# %% [markdown]
# ## How sure is each workload's mapping?
#
# `exact`: the search proved its best mapping optimal for the goal; else
# `lower_bound` and `gap` say how far a better one could be.

# %%
for r in rows:
    print("%-5s %-2s exact=%-5s gap=%s" % (r["layer"], r["phase"], r["exact"], r["gap"]))
assert all(r["exact"] and r["gap"] == 0 for r in rows), "the tiny searches are run to the end"

# %% [markdown]
# ## Energy by level, intra- and inter-layer workloads
#
# `level_energy()` is the network's (inter-layer work included); the
# per-workload `<level>_pj` columns plus the inter-layer workloads' energy
# at their level give the same figures.

# %%
levels = [lv["name"] for lv in arch.levels()]
by_level = ne.level_energy()
inter = [ne.inter(j) for j in range(w.totals()["inter_count"])]
again = {n: sum(r[n + "_pj"] for r in rows) for n in levels}
for x in inter:
    again[x["level"]] += x["energy_pj"]
for n in levels:
    print("%-5s %12.6g pJ" % (n, by_level[n]))
    assert math.isclose(by_level[n], again[n], rel_tol=1e-9), n
assert math.isclose(sum(by_level.values()), totals["energy_pj"], rel_tol=1e-9)

# %% [markdown]
# ## Energy by tensor, from the breakdowns

# %%
by_tensor = {"input": 0.0, "weight": 0.0, "output": 0.0}
for i in range(len(rows)):
    for e in ne.breakdown(i):
        if e["tensor"] in by_tensor:
            by_tensor[e["tensor"]] += e["energy_pj"]
print({k: round(v, 3) for k, v in by_tensor.items()})
assert sum(by_tensor.values()) < totals["energy_pj"]

# %% [markdown]
# ## The inter-layer workloads

# %%
for j, x in enumerate(inter):
    print("inter %d: %6.4g cycles %8.4g pJ at %s" % (j, x["cycles"], x["energy_pj"], x["level"]))
assert len(inter) == 7 and all(x["energy_pj"] > 0 for x in inter)

# %% [markdown]
# ## A roofline of every workload
#
# MACs per cycle against MACs per off-chip word, under the peak and the
# off-chip bandwidth (`Arch.report()`'s roofline). No workload is above it.

# %%
roof = json.loads(arch.report("json"))["roofline"]
peak = roof["peak_macs_per_cycle"]
dram = roof["levels"][0]
bw = dram["read_words_per_cycle"] + dram["write_words_per_cycle"]
word_bytes = arch.levels()[0]["word_bits"] / 8
points = []
for r in rows:
    intensity = r["macs"] / (r["offchip_bytes"] / word_bytes)
    perf = r["macs"] / r["cycles"]
    points.append((r["layer"] + " " + r["phase"], intensity, perf))
    print("%-8s %8.4g MACs/word %8.4g MACs/cycle" % points[-1])
    assert perf <= min(peak, bw * intensity) * (1 + 1e-9), r

# %%
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("no matplotlib (Debian's python3-matplotlib): the roofline is not drawn")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [p[1] for p in points]
    lo, hi = min(xs + [peak / bw]) / 10, max(xs + [peak / bw]) * 10
    grid = [lo * (hi / lo) ** (k / 100) for k in range(101)]
    ax.loglog(grid, [min(peak, bw * x) for x in grid], color="#e15759", label="roof")
    ax.scatter(xs, [p[2] for p in points], color="#4e79a7", label="workloads")
    ax.set_xlabel("MACs per off-chip word")
    ax.set_ylabel("MACs per cycle")
    ax.legend()
    png = os.path.join(out, "roofline.png")
    fig.savefig(png, dpi=80)
    print(png)

# %% [markdown]
# ## The HTML report
#
# The page has these figures and more, drawn as SVG by the library
# (docs/guide.md, "Reports"); open it in a browser.

# %%
page = os.path.join(out, "report.html")
ne.write_html(page)
with open(page) as f:
    html = f.read()
assert "Network energy by tensor" in html and "Roofline of every workload" in html
print(page)
for h in (ne, w, net, arch):
    h.close()
