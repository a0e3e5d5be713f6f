#!/usr/bin/python3
"""Run every command line quoted in the documentation; fail when one no longer runs.

    /usr/bin/python3 test/docs/run_doc_commands.py BUILD_DIR [--list] [FILE.md ...]

The documents: README.md, docs/*.md, examples/*/README.md and python/README.md.
A command line is a line of a fenced block tagged sh, bash, shell or console
(a leading "$ " is dropped; lines ending in "\\", and lines inside a quoted
argument, are joined with the next).
Each runs with /bin/sh in a scratch directory that mirrors the tree (a symbolic
link to every top-level entry, build/ pointing at BUILD_DIR), with BUILD_DIR/bin
first on PATH (so `trim` is the CLI under test) and without TRIM_LIBRARY or
TRIM_DATA_DIR: files a command writes land in the scratch directory, and the
library, the data and the Python package are found as a user would find them.
It must exit 0, or N if its trailing comment says "(exit N)".

Not run:
  * `make ...` lines: the build and install themselves, which `make check` runs
    (an `make X && rest` line runs `rest`);
  * lines whose trailing comment says "not tested: REASON" (long runs, commands
    that install into the system or need an installed copy); the reason is
    printed. This is the marker documented in docs/guide.md ("Documentation
    that runs").
Run by `make check` (`make doc-check`); about 20 s.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FENCE = re.compile(r"^\s*```\s*([A-Za-z]*)")
SHELL_TAGS = ("sh", "bash", "shell", "console")
SKIP = re.compile(r"#.*\bnot tested:\s*(.*)$")
EXPECT = re.compile(r"#.*\(exit (\d+)\)")
TIMEOUT = 120


def documents():
    docs = ["README.md"] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    docs += sorted(glob.glob(os.path.join(ROOT, "examples", "*", "README.md")))
    docs.append(os.path.join(ROOT, "python", "README.md"))
    return [os.path.relpath(os.path.join(ROOT, d), ROOT) for d in docs]


def unterminated(text):
    """True while a quote opened in text is not closed yet (shell rules)."""
    try:
        shlex.split(text, comments=True)
        return False
    except ValueError:
        return True


def commands(doc):
    """(line number, command) of every shell line of a document."""
    out, tag, pending, start = [], None, "", 0
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m:
            tag = None if tag is not None else m.group(1).lower()
            continue
        if tag not in SHELL_TAGS:
            continue
        text = line[2:] if tag == "console" and line.startswith("$ ") else line
        if not pending:
            start = n
        if text.rstrip().endswith("\\"):
            pending += text.rstrip()[:-1] + " "
            continue
        if unterminated(pending + text):  # a quoted argument over several lines
            pending += text + "\n"
            continue
        cmd = (pending + text).strip()
        pending = ""
        if cmd and not cmd.startswith("#"):
            out.append((start, cmd))
    return out


def plan(cmd):
    """(command to run or None, reason it is not run, expected exit status)."""
    skip = SKIP.search(cmd)
    if skip:
        return None, "not tested: " + skip.group(1).strip(), 0
    m = re.match(r"^make\b[^&|;]*&&\s*(.*)$", cmd)
    if m:
        cmd = m.group(1)
    elif re.match(r"^make\b", cmd):
        return None, "a make line (the build itself)", 0
    expect = EXPECT.search(cmd)
    return cmd, None, int(expect.group(1)) if expect else 0


def scratch(build):
    """A directory that looks like the tree, with build/ -> BUILD_DIR."""
    d = tempfile.mkdtemp(prefix="trim-doc-commands-")
    for entry in os.listdir(ROOT):
        if entry.startswith(".") or entry.startswith("build"):
            continue
        os.symlink(os.path.join(ROOT, entry), os.path.join(d, entry))
    os.symlink(build, os.path.join(d, "build"))
    return d


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    build = os.path.realpath(argv[1])
    listing = "--list" in argv[2:]
    docs = [a for a in argv[2:] if not a.startswith("--")] or documents()
    if not os.access(os.path.join(build, "bin", "trim"), os.X_OK):
        sys.exit("run_doc_commands: no %s/bin/trim (build first)" % build)
    env = {k: v for k, v in os.environ.items() if k not in ("TRIM_LIBRARY", "TRIM_DATA_DIR")}
    env["PATH"] = os.path.join(build, "bin") + os.pathsep + env.get("PATH", "")
    work = scratch(build)
    failed, ran, skipped, t0 = [], 0, 0, time.time()
    try:
        for doc in docs:
            for line, cmd in commands(doc):
                run, reason, expect = plan(cmd)
                where = "%s:%d" % (doc, line)
                if run is None:
                    skipped += 1
                    print("skip %s: %s (%s)" % (where, cmd[:70], reason))
                    continue
                if listing:
                    print("run  %s: %s" % (where, run))
                    continue
                t = time.time()
                try:
                    r = subprocess.run(["/bin/sh", "-c", run], cwd=work, env=env, capture_output=True,
                                       text=True, timeout=TIMEOUT)
                    status, err = r.returncode, r.stderr
                except subprocess.TimeoutExpired:
                    status, err = "timeout", "more than %d s" % TIMEOUT
                ran += 1
                ok = status == expect
                print("%s %s (%.1f s): %s" % ("ok  " if ok else "FAIL", where, time.time() - t, run[:90]))
                if not ok:
                    tail = "\n".join(err.strip().splitlines()[-5:])
                    failed.append("%s: `%s` exited %s (expected %d):\n%s" % (where, run, status, expect, tail))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("doc-check: %d command lines run, %d not run, %.0f s" % (ran, skipped, time.time() - t0))
    if failed:
        print("\n".join(["doc-check: these documented commands no longer run:"] + failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
