#!/usr/bin/python3
"""Circles between the folders of lib/ (issue #35): the include graph drawn at
folder level (a file of lib/A including a header of lib/B is an edge A -> B;
lib/A/sub/ counts as A), its strongly connected components of more than one
folder, and for each the file-level edges inside it: FILE -> HEADER. A
`#include "..."` resolves relative to the including file, then to lib/ (the
build's -Ilib). Exits 1 if there is a circle; otherwise prints the folders
row by row, each row including only the rows below it, and exits 0.
Usage: tools/folder-cycles.py [LIBDIR]"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder(lib, path):
    return os.path.relpath(path, lib).split(os.sep)[0]


def edges(lib):
    """(from folder, to folder, including file, included header), sorted."""
    rows = set()
    for root, _, files in os.walk(lib):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            p = os.path.join(root, f)
            for line in open(p, encoding="utf-8", errors="replace"):
                m = INCLUDE.match(line)
                if not m:
                    continue
                for base in (root, lib):
                    h = os.path.normpath(os.path.join(base, m.group(1)))
                    if os.path.isfile(h):
                        break
                else:
                    continue
                if os.path.relpath(h, lib).startswith(".."):
                    continue
                a, b = folder(lib, p), folder(lib, h)
                if os.sep not in os.path.relpath(h, lib) or a == b:
                    continue
                rows.add((a, b, os.path.relpath(p), os.path.relpath(h)))
    return sorted(rows)


def components(nodes, graph):
    """Tarjan's strongly connected components, each sorted, in sorted order."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            out.append(sorted(c))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def main():
    lib = sys.argv[1] if len(sys.argv) > 1 else "lib"
    sys.setrecursionlimit(10000)
    rows = edges(lib)
    graph, nodes = {}, set()
    for a, b, _, _ in rows:
        graph.setdefault(a, set()).add(b)
        nodes.update((a, b))
    cycles = [c for c in components(nodes, graph) if len(c) > 1]
    for c in cycles:
        print("circle of %d folders: %s" % (len(c), " ".join(c)))
        for a, b, p, h in rows:
            if a in c and b in c:
                print("  %s -> %s: %s -> %s" % (a, b, p, h))
    if cycles:
        sys.exit(1)
    nodes.update(f for f in os.listdir(lib) if os.path.isdir(os.path.join(lib, f)))
    level = {}

    def height(v):
        if v not in level:
            level[v] = 1 + max([height(w) for w in graph.get(v, ())] or [-1])
        return level[v]

    for v in nodes:
        height(v)
    print("folder-cycles: no circles between the %d folders of %s; each includes only"
          " folders on lower rows:" % (len(nodes), lib))
    for n in range(max(level.values()) + 1):
        print("  %2d %s" % (n, " ".join(sorted(v for v in nodes if level[v] == n))))


if __name__ == "__main__":
    main()
