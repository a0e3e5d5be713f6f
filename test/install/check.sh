#!/bin/sh
# Run by `make install-check` after `make install PREFIX=$PREFIX_DIR`: use the
# installed trim, man pages and Python package from a directory outside the
# tree, with no TRIM_DATA_DIR and no TRIM_LIBRARY.
set -eu
: "${TRIM:?}" "${PREFIX_DIR:?}" "${PYTHON:?}" "${PYTHONDIR:?}" "${TREE_TRIM:?}" "${TREE:?}"
unset TRIM_DATA_DIR TRIM_LIBRARY
fail() { echo "install-check: FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
data=$PREFIX_DIR/share/trim

# the documented layout
for f in energy_tables/45nm.yaml energy_tables/65nm.yaml models/arch/eyeriss.yaml \
         models/networks/alexnet-cifar.yaml models/arch/spaces/default.yaml; do
	[ -f "$data/$f" ] || fail "$data/$f is not installed"
done

# technology: 45nm from an architecture outside any tree
sed 's/^technology:.*/technology: 45nm/' "$data/models/arch/eyeriss.yaml" > arch.yaml
out=$("$TRIM" arch arch.yaml) || fail "trim arch arch.yaml: exit $?"
echo "$out" | grep -q "technology 45nm -> $data/energy_tables/45nm.yaml" ||
	fail "technology 45nm not resolved from $data: $out"
# a copy of the installed trim away from PREFIX falls back on the data
# directory compiled in (PREFIX/share/trim)
mkdir -p elsewhere/bin && cp "$TRIM" elsewhere/bin/trim
out=$(elsewhere/bin/trim arch arch.yaml) || fail "a copy of trim: exit $?"
echo "$out" | grep -q "technology 45nm -> $data/energy_tables/45nm.yaml" ||
	fail "a copy of trim does not use the compiled-in $data: $out"
# the tree's own trim, run from elsewhere, finds the tree's tables
out=$("$TREE_TRIM" arch arch.yaml) || fail "$TREE_TRIM arch arch.yaml: exit $?"
echo "$out" | grep -q "technology 45nm -> $(cd "$TREE" && pwd -P)/energy_tables/45nm.yaml" ||
	fail "the tree's trim does not find the tree's 45nm table: $out"
# a network given by its installed path; the version as JSON
"$TRIM" workloads "$data/models/networks/alexnet-cifar.yaml" --format json > /dev/null ||
	fail "trim workloads on the installed model"
"$TRIM" version --format json | grep -q '"version"' || fail "trim version --format json"
# an unknown technology lists the installed data directory among the places tried
sed 's/^technology:.*/technology: 7nm-none/' arch.yaml > bad.yaml
if "$TRIM" arch bad.yaml 2> err.txt; then fail "unknown technology accepted"; fi
grep -q "$data/energy_tables/7nm-none" err.txt || fail "error does not name $data: $(cat err.txt)"

# man pages, generated from the help text
for p in trim trim-map trim-network trim-explore trim-version; do
	f=$PREFIX_DIR/share/man/man1/$p.1
	[ -f "$f" ] || fail "no man page $f"
	grep -q '^\.TH' "$f" || fail "$f is not a man page"
done
grep -q '\\-\\-format table' "$PREFIX_DIR/share/man/man1/trim-version.1" || fail "trim-version.1 lacks --format"

# the Python package finds the installed library and data by itself
PYTHONPATH=$PYTHONDIR "$PYTHON" - "$PREFIX_DIR" <<'PY' || fail "the installed Python package"
import os, sys
prefix = os.path.realpath(sys.argv[1])
import libtrim
assert os.path.realpath(libtrim.__file__).startswith(prefix), libtrim.__file__
lib = libtrim.find_library()
assert os.path.realpath(lib).startswith(prefix), lib
eyeriss = libtrim.data_path("models/arch/eyeriss.yaml")
assert os.path.realpath(eyeriss).startswith(prefix), eyeriss
text = open(eyeriss).read().replace("technology: 65nm", "technology: 45nm")
arch = libtrim.Arch(text=text)          # no file name needed to find the table
t = libtrim.Energy.for_arch(arch)
assert os.path.realpath(t.file).startswith(os.path.join(prefix, "share", "trim")), t.file
assert t.name == "45nm", t.name
PY
echo "install-check: the installed trim, man pages and Python package work from $work"
