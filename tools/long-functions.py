#!/usr/bin/python3
"""Functions of lib/ longer than a limit (default 150 lines), longest first:
LINES FILE:LINE NAME. A function is a definition whose body opens with "{" at
column 0 and closes with "}" at column 0 (the house layout). A function that
stays whole says why in a comment containing "stays whole" just above it
(marked "(says why)" here). Usage: tools/long-functions.py [LIMIT] [DIR...]"""
import os
import re
import sys


def functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{" and i > 0:
            start = i - 1
            while start > 0 and not re.match(r"^[A-Za-z_]", lines[start]):
                start -= 1
            head = " ".join(lines[start:i])
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", head)
            j = i + 1
            while j < len(lines) and lines[j] != "}" and not lines[j].startswith("};"):
                j += 1
            if m and not head.startswith(("struct", "enum", "union", "typedef")):
                above = "\n".join(lines[max(0, start - 12):start])
                yield m.group(1), start + 1, j - start + 1, "stays whole" in above
            i = j
        i += 1


def main():
    args = sys.argv[1:]
    limit = int(args.pop(0)) if args and args[0].isdigit() else 150
    dirs = args or ["lib"]
    rows = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith(".c"):
                    p = os.path.join(root, f)
                    for name, line, n, why in functions(p):
                        if n > limit:
                            rows.append((n, p, line, name, why))
    for n, p, line, name, why in sorted(rows, reverse=True):
        print("%4d %s:%d %s%s" % (n, p, line, name, " (says why)" if why else ""))


if __name__ == "__main__":
    main()
