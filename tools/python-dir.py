#!/usr/bin/python3
"""Where `make install` puts the Python package for this interpreter.

    python-dir.py PREFIX         the directory for PREFIX: the user site
                                 (~/.local/lib/python3.X/site-packages) when
                                 PREFIX is the user base (~/.local), else
                                 PREFIX/lib/python3.X/dist-packages (Debian's
                                 layout: /usr/local/lib/python3.X/dist-packages
                                 is on its sys.path)
    python-dir.py --note DIR     a note on stderr when DIR is not on sys.path
"""
import os
import site
import sys


def main(argv):
    if len(argv) == 3 and argv[1] == "--note":
        d = os.path.realpath(argv[2])
        if d not in (os.path.realpath(p) for p in sys.path if p):
            sys.stderr.write("install: note: %s is not on %s's sys.path: add it to PYTHONPATH "
                             "to import libtrim\n" % (argv[2], sys.executable))
        return 0
    if len(argv) != 2:
        sys.exit(__doc__)
    prefix = argv[1]
    if os.path.realpath(prefix) == os.path.realpath(site.getuserbase()):
        print(site.getusersitepackages())
    else:
        base = prefix.rstrip("/") or "/"
        print("%s/lib/python%d.%d/dist-packages" % ((base,) + tuple(sys.version_info[:2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
