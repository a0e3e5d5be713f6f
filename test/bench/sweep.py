#!/usr/bin/python3
"""The model zoo as the search's benchmark (make sweep; docs/model.md, "Speed").

Runs `trim network` on every shipped network x every shipped architecture a
user maps without a constraint file x {inference batch 1, training batch 1,
training batch 64}, and every shipped network on eyeriss with --imperfect
(inference batch 1): one thread per run, each with --time-limit BUDGET, JOBS
runs side by side. Prints `key: value` lines (the share of runs proven exact
within the budget, the proven gap's distribution, the worst overrun of the
time limit, refusals), and with --table FILE the per-run table in Markdown.

A run is "exact" when its report says every search was proven optimal; its
gap is the report's (best - proven lower bound) / best over the network. A
refusal is a run that exits 2 (bad input) on a shipped, valid input: the
search must never refuse a design for the size of its mapspace. The overrun
is the wall time of a run past its limit, against the target 1.05 S + 1 s.

Standard library only (it runs under any python3).
"""
import argparse
import concurrent.futures
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# The designs a user maps without a constraint file (the FPGA designs are
# trim fuse's; sparse-training is training-baseline with sparse hardware).
ARCHS = ["eyeriss", "training-baseline", "simba-like", "systolic-32x32"]
MODES = [("inference", 1), ("training", 1), ("training", 64)]


def runs(root):
    nets = sorted(f[:-5] for f in os.listdir(os.path.join(root, "models/networks")) if f.endswith(".yaml"))
    out = [(n, a, m, b, False) for n in nets for a in ARCHS for (m, b) in MODES]
    out += [(n, "eyeriss", "inference", 1, True) for n in nets]
    return out


def run_one(trim, root, budget, goal, threads, r):
    net, arch, mode, batch, imperfect = r
    cmd = [trim, "network", f"models/networks/{net}.yaml", f"models/arch/{arch}.yaml", "--mode", mode,
           "--batch", str(batch), "--threads", str(threads), "--time-limit", str(budget), "--goal", goal,
           "--format", "json", "--quiet"]
    if imperfect:
        cmd.append("--imperfect")
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as fo, tempfile.TemporaryFile("w+") as fe:
        p = subprocess.Popen(cmd, cwd=root, stdout=fo, stderr=fe)
        # wait4: this child's own CPU time, whatever runs beside it
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        cpu = ru.ru_utime + ru.ru_stime
        fo.seek(0)
        fe.seek(0)
        out_text, err_text = fo.read(), fe.read()
    res = {"net": net, "arch": arch, "mode": mode, "batch": batch, "imperfect": imperfect, "rc": p.returncode,
           "wall": wall, "cpu": cpu, "exact": False, "gap": None, "error": ""}
    if p.returncode == 0:
        try:
            s = json.loads(out_text)["totals"]["search"]
            res["exact"] = bool(s["exact"])
            res["gap"] = float(s["gap"]) if s.get("gap") is not None else None
        except (ValueError, KeyError, TypeError) as e:
            res["error"] = f"unreadable report: {e}"
    else:
        lines = [ln for ln in err_text.splitlines() if ln.strip()]
        res["error"] = lines[-1] if lines else f"exit {p.returncode}"
    return res


def quantile(v, q):
    if not v:
        return float("nan")
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trim", default="build/bin/trim")
    ap.add_argument("--root", default=".")
    ap.add_argument("--budget", type=float, default=10.0, help="--time-limit of each run, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="each run's --threads (the keys: 1)")
    ap.add_argument("--goal", default="energy", choices=["energy", "delay", "edp"],
                    help="the runs' --goal (the benchmark's keys: energy)")
    ap.add_argument("--only", default="", help="comma-separated substrings a run's net/arch must contain "
                    "(net/arch/imperfect for the --imperfect runs: --only /imperfect picks them)")
    ap.add_argument("--table", default="", help="write the per-run table (Markdown) here")
    a = ap.parse_args()
    trim = os.path.abspath(a.trim)
    todo = runs(a.root)
    if a.only:
        keys = a.only.split(",")
        todo = [r for r in todo if any(k in f"{r[0]}/{r[1]}" + ("/imperfect" if r[4] else "") for k in keys)]
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        res = list(ex.map(lambda r: run_one(trim, a.root, a.budget, a.goal, a.threads, r), todo))
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - t0
    ok = [r for r in res if r["rc"] == 0 and not r["error"]]
    refused = [r for r in res if r["rc"] == 2]
    failed = [r for r in res if r not in ok and r not in refused]
    gaps = [r["gap"] if r["gap"] is not None else 1.0 for r in ok]
    plain = [r for r in ok if not r["imperfect"]]
    imp = [r for r in ok if r["imperfect"]]
    limit = 1.05 * a.budget + 1
    over = max((r["wall"] - a.budget for r in res), default=0.0)
    n = len(res)

    def share(rows, pred):
        return sum(1 for r in rows if pred(r)) / n if n else 0.0

    print(f"sweep_runs: {n}")
    print(f"sweep_budget_seconds: {a.budget:g}")
    print(f"sweep_exact_share: {share(ok, lambda r: r['exact']):.3f}")
    print(f"sweep_gap_le_1pct_share: {share(ok, lambda r: (r['gap'] or 0) <= 0.01 or r['exact']):.3f}")
    print(f"sweep_gap_le_5pct_share: {share(ok, lambda r: (r['gap'] or 0) <= 0.05 or r['exact']):.3f}")
    print(f"sweep_gap_median: {quantile(gaps, 0.5):.4f}")
    print(f"sweep_gap_p90: {quantile(gaps, 0.9):.4f}")
    print(f"sweep_gap_max: {max(gaps, default=float('nan')):.4f}")
    print(f"sweep_imperfect_gap_max: {max((r['gap'] or 0 for r in imp), default=float('nan')):.4f}")
    print(f"sweep_plain_exact_share: {sum(r['exact'] for r in plain) / max(1, len(plain)):.3f}")
    print(f"sweep_overrun_max_seconds: {over:.2f}")
    print(f"sweep_runs_over_limit: {sum(1 for r in res if r['wall'] > limit)}")
    print(f"sweep_refusals: {len(refused)}")
    print(f"sweep_failures: {len(failed)}")
    print(f"sweep_wall_seconds: {wall:.1f}")
    print(f"sweep_cpu_seconds: {(c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime):.1f}")
    for r in refused + failed:
        print(f"# {'refused' if r['rc'] == 2 else 'failed'}: {r['net']} {r['arch']} {r['mode']} b{r['batch']}"
              f"{' imperfect' if r['imperfect'] else ''}: {r['error']}", file=sys.stderr)
    if a.table:
        with open(a.table, "w") as f:
            f.write(f"| network | architecture | mode | batch | exact | gap | wall s | cpu s |\n|---|---|---|---|---|---|---|---|\n")
            for r in res:
                gap = "refused" if r["rc"] == 2 else ("failed" if r in failed else f"{100 * (r['gap'] or 0):.2f}%")
                cpu = f"{r['cpu']:.1f}" if r["cpu"] is not None else "-"
                f.write(f"| {r['net']} | {r['arch']}{' --imperfect' if r['imperfect'] else ''} | {r['mode']} | "
                        f"{r['batch']} | {'yes' if r['exact'] else 'no'} | {gap} | {r['wall']:.1f} | {cpu} |\n")
        # the architecture x mode summary the docs keep
        with open(a.table, "a") as f:
            f.write("\n| architecture | " + " | ".join(f"{m} b{b}" for m, b in MODES) + " | inference b1 --imperfect |\n")
            f.write("|---" * (len(MODES) + 2) + "|\n")
            for arch in ARCHS:
                cells = []
                for m, b in MODES:
                    rows = [r for r in res if r["arch"] == arch and r["mode"] == m and r["batch"] == b
                            and not r["imperfect"]]
                    cells.append(f"{sum(r['exact'] for r in rows)}/{len(rows)} exact")
                rows = [r for r in res if r["arch"] == arch and r["imperfect"]]
                cells.append(f"{sum(r['exact'] for r in rows)}/{len(rows)} exact" if rows else "")
                f.write(f"| {arch} | " + " | ".join(cells) + " |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
