#!/usr/bin/python3
"""Mutation testing of the model rules, the search's bounds and cuts, the
sparse evaluation, the resume checks and the ONNX reader (`make mutate`).

Each mutant of test/mutate/mutants.py replaces one exact piece of text (found
exactly once in its file) by a wrong one. The runner copies the working tree
into build-mutate/tree (so the checkout is never edited), builds the test
binary and the CLI there once, checks that the suites pass unmutated, then
for each mutant: applies it, rebuilds, runs the suites that should catch it
and puts the file back. A mutant is killed when a suite fails or runs past
its time limit (5 times its unmutated time, at least 120 s); one that does
not compile is not counted. Prints a line per mutant and `key: value` lines:
mutation_mutants, mutation_killed, mutation_score, mutation_survivors.

  test/mutate/run.py [--only PREFIX] [--list] [--dir DIR]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutants import MUTANTS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def copy_tree(dst):
    """The tracked and untracked-but-not-ignored files of the checkout."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         check=True, capture_output=True).stdout
    for rel in out.decode().split("\0"):
        if not rel or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        src, to = os.path.join(ROOT, rel), os.path.join(dst, rel)
        os.makedirs(os.path.dirname(to), exist_ok=True)
        if not os.path.exists(to) or open(src, "rb").read() != open(to, "rb").read():
            shutil.copy2(src, to)


def build(tree):
    r = subprocess.run(["make", "-j2", "build/test/check_trim", "build/bin/trim"], cwd=tree,
                       capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def run_suite(tree, suite, limit):
    onnx = os.path.join(tree, "build/test/onnx")  # the ONNX tests make their models there
    os.makedirs(onnx, exist_ok=True)
    env = dict(os.environ, CK_RUN_SUITE=suite, TRIM_CLI=os.path.join(tree, "build/bin/trim"), TRIM_ONNX_DIR=onnx)
    t0 = time.time()
    try:
        r = subprocess.run(["build/test/check_trim"], cwd=tree, env=env, capture_output=True, text=True,
                           timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout", time.time() - t0, ""
    return r.returncode, time.time() - t0, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="only the mutants whose id starts with this")
    ap.add_argument("--list", action="store_true", help="list the mutants and check they apply")
    ap.add_argument("--dir", default=os.path.join(ROOT, "build-mutate", "tree"))
    args = ap.parse_args()
    chosen = [m for m in MUTANTS if m["id"].startswith(args.only)]
    if not chosen:
        sys.exit("mutate: no mutant id starts with '%s'" % args.only)
    ids = [m["id"] for m in MUTANTS]
    if len(set(ids)) != len(ids):
        sys.exit("mutate: duplicate mutant ids")
    for m in chosen:  # every mutant must apply to the checkout exactly once
        text = open(os.path.join(ROOT, m["file"])).read()
        n = text.count(m["from"])
        if n != 1:
            sys.exit("mutate: %s: the text to replace occurs %d times in %s (want once)" % (m["id"], n, m["file"]))
    if args.list:
        for m in chosen:
            print("%-28s %-34s %s" % (m["id"], m["file"], " ".join(m["suites"])))
        return
    tree = args.dir
    os.makedirs(tree, exist_ok=True)
    copy_tree(tree)
    ok, log = build(tree)
    if not ok:
        sys.exit("mutate: the unmutated tree does not build:\n" + log[-3000:])
    base = {}
    for suite in sorted({s for m in chosen for s in m["suites"]}):
        rc, secs, out = run_suite(tree, suite, 1800)
        if rc != 0:
            sys.exit("mutate: suite %s fails unmutated:\n%s" % (suite, out[-3000:]))
        base[suite] = secs
    killed, counted, survivors, unbuilt = 0, 0, [], []
    for m in chosen:
        path = os.path.join(tree, m["file"])
        orig = open(path).read()
        open(path, "w").write(orig.replace(m["from"], m["to"], 1))
        try:
            ok, log = build(tree)
            if not ok:
                unbuilt.append(m["id"])
                print("mutant %s: does not build (not counted)" % m["id"], flush=True)
                continue
            by = None
            for suite in m["suites"]:
                rc, _, _ = run_suite(tree, suite, max(120, 5 * base[suite]))
                if rc != 0:
                    by = "%s (%s)" % (suite, "timeout" if rc == "timeout" else "failed")
                    break
            counted += 1
            if by:
                killed += 1
                print("mutant %s: killed by %s" % (m["id"], by), flush=True)
            else:
                survivors.append(m["id"])
                print("mutant %s: SURVIVED (%s: %s)" % (m["id"], m["file"], m["why"]), flush=True)
        finally:
            open(path, "w").write(orig)
    build(tree)
    print("mutation_mutants: %d" % counted)
    print("mutation_killed: %d" % killed)
    print("mutation_score: %.3f" % (killed / counted if counted else 0))
    print("mutation_not_built: %d" % len(unbuilt))
    print("mutation_survivors: %s" % (" ".join(survivors) if survivors else "none"))


if __name__ == "__main__":
    main()
