#!/usr/bin/python3
"""Project trim-mpi map (one search's top nodes on MPI ranks) on P threads in all
from measured node times.

    /usr/bin/python3 test/mpi/project_map.py TIMES.tsv [--threads 1,2,3,4,8]

TIMES.tsv is what trim-mpi map writes with TRIM_MPI_TIMES=FILE: a "node ID RANK
SECONDS" line per top node searched, in bound order (the nodes after them were cut
by their bound, which costs nothing). The run seconds should come from a run where
the ranks did not share cores (one rank of one thread).

The model is trim-mpi's own schedule (docs/cluster.md, "One search on many ranks"):
the nodes are handed out in order, node i only once nodes 0 .. i - 4 are finished,
each to the first free thread of any rank. The set-up every rank does before (the
tree, its bounds, the seed) and the messages (a few hundred bytes a node) are left
out: the figures are those of the node runs alone.
"""
import heapq
import sys

WINDOW = 4


def read(path):
    nodes = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0] == "node":
                nodes.append((int(w[1]), float(w[3])))
    nodes.sort()
    if [i for i, _ in nodes] != list(range(len(nodes))):
        sys.exit("project_map: the searched nodes are not 0 .. n-1 (a TIMES.tsv of trim-mpi map?)")
    return [s for _, s in nodes]


def makespan(times, threads):
    free = [0.0] * threads
    heapq.heapify(free)
    finish, done_upto, last_start = [], [], 0.0
    for i, d in enumerate(times):
        ready = done_upto[i - WINDOW] if i >= WINDOW else 0.0
        slot = heapq.heappop(free)
        start = max(slot, ready, last_start)
        last_start = start
        finish.append(start + d)
        done_upto.append(max(done_upto[-1], finish[-1]) if done_upto else finish[-1])
        heapq.heappush(free, start + d)
    return max(finish) if finish else 0.0


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    threads = [1, 2, 3, 4, 8]
    if "--threads" in argv:
        threads = [int(x) for x in argv[argv.index("--threads") + 1].split(",")]
    times = read(argv[1])
    total = sum(times)
    print(f"{len(times)} top nodes searched, {total:.2f} s in all, the largest {max(times):.2f} s")
    for p in threads:
        m = makespan(times, p)
        print(f"{p} threads in all: {m:.2f} s, {total / m:.2f}x")


if __name__ == "__main__":
    main(sys.argv)
