#!/usr/bin/python3
"""Project an exploration or a network on many MPI nodes from measured item times.

    /usr/bin/python3 test/mpi/project.py TIMES.tsv [--setup SECONDS] [--nodes 1,2,4,...]
                                               [--order ID,ID,...] [--merge SECONDS]

TIMES.tsv is what trim-mpi writes with TRIM_MPI_TIMES=FILE (docs/cluster.md): one
line per work item in the order rank 0 hands them out (largest expected first),
with the seconds its run took and the seconds rank 0 took to merge its result.
The run seconds should come from a run where the ranks did not share cores (one
rank, or as many ranks as free cores).

The model is trim-mpi's own schedule: on P nodes, ranks 1..P-1 take the next item
from the front of the list when they finish one, rank 0 takes from the back; rank 0
merges every result it did not run itself, one at a time (the merges of a run are
the sum of the measured merge seconds, scaled to the share of items the others
ran); then it ranks and prints (the measured finish seconds). Every node also
pays the setup (loading the inputs and listing the items: --setup SECONDS, the
wall time of the measured run minus its collect and finish seconds; default 0). Communication is the
result text only (kilobytes per item) and is left out. --order replays the items
in another hand-out order (ids, first handed out first: a later trim-mpi's
trim_work_item order); --merge sets the seconds rank 0 takes per merged result
(when TIMES.tsv comes from one rank, which merges nothing: take the mean of a run
on several ranks); the last column is the schedule with a perfect estimate
(the measured times largest first), what a better estimate could reach.
"""
import heapq
import sys


def read(path):
    items, collect, finish = [], None, 0.0
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                for part in line.replace(",", ";").split(";"):
                    w = part.split()
                    if "collect" in w:
                        collect = float(w[w.index("collect") + 1])
                    if "finish" in w:
                        finish = float(w[w.index("finish") + 1])
                continue
            if line.startswith("position"):
                continue
            c = line.split("\t")
            items.append((int(c[1]), float(c[4]), float(c[5])))
    return items, collect, finish


def schedule(runs, nodes):
    """Makespan of trim-mpi's schedule: the others from the front, rank 0 from the back."""
    if nodes == 1 or len(runs) <= 1:
        return sum(runs), len(runs)
    front, back = 0, len(runs)
    free = [(0.0, r) for r in range(1, nodes)]  # (time free, rank)
    heapq.heapify(free)
    t0 = 0.0  # rank 0's own clock
    ran0 = 0
    end = 0.0
    while front < back:
        t, r = free[0]
        if t0 <= t:  # rank 0 is free first: it takes the smallest
            back -= 1
            t0 += runs[back]
            ran0 += 1
            end = max(end, t0)
        else:
            heapq.heapreplace(free, (t + runs[front], r))
            end = max(end, t + runs[front])
            front += 1
    return end, ran0


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    path = argv[1]
    nodes = [1, 2, 4, 8, 16, 32, 64]
    setup = None
    for k, a in enumerate(argv):
        if a == "--nodes":
            nodes = [int(x) for x in argv[k + 1].split(",")]
        if a == "--setup":
            setup = float(argv[k + 1])
    items, collect, finish = read(path)
    for k, a in enumerate(argv):
        if a == "--order":
            order = [int(x) for x in argv[k + 1].split(",")]
            by_id = {i[0]: i for i in items}
            items = [by_id[i] for i in order]
    runs = [r for _, r, _ in items]
    ideal = sorted(runs, reverse=True)
    merges = [m for _, _, m in items if m > 0]
    merge_each = sum(merges) / len(merges) if merges else 0.0
    for k, a in enumerate(argv):
        if a == "--merge":
            merge_each = float(argv[k + 1])
    if setup is None:
        setup = 0.0
    total = sum(runs)
    print("%d items, %.1f s of runs (largest %.1f s, smallest %.3f s); merge %.2g s per item; "
          "finish %.2g s; setup %.1f s" % (len(runs), total, max(runs), min(runs), merge_each, finish, setup))
    print("%6s %10s %8s %10s %10s  %s" % ("nodes", "seconds", "speedup", "efficiency", "ideal s", "limited by"))
    one = setup + total + finish
    for p in nodes:
        span, ran0 = schedule(runs, p)
        merge = merge_each * (len(runs) - ran0) if p > 1 else 0.0
        t = setup + max(span, merge) + finish
        if p >= len(runs) or span <= max(runs) * 1.0001:
            why = "the largest item (%.1f s of %d items)" % (max(runs), len(runs))
        elif merge >= span:
            why = "rank 0's merges"
        else:
            why = "load balance (%d items for %d nodes)" % (len(runs), p)
        best, _ = schedule(ideal, p)
        print("%6d %10.1f %8.2f %9.0f%% %10.1f  %s" % (p, t, one / t, 100 * one / t / p,
                                                     setup + max(best, merge) + finish, why))


if __name__ == "__main__":
    main(sys.argv)
