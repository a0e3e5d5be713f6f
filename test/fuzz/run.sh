#!/bin/sh
# Run one libFuzzer harness: test/fuzz/run.sh NAME SECONDS BUILD_DIR
# (from the top of the tree; `make fuzz` calls it). The corpus grows in
# BUILD_DIR/corpus/NAME, seeded from the files test/fuzz/seeds lists for
# NAME; a finding is written to BUILD_DIR/findings/ and fails the run.
set -eu
name=$1 seconds=$2 build=$3
bin=$build/fuzz_$name
corpus=$build/corpus/$name
findings=$build/findings
mkdir -p "$corpus" "$findings"
# the seeds: every file matching NAME's globs (copied: libFuzzer reads
# directories, and the tree stays untouched)
for glob in $(awk -v n="$name" '$1 == n":" { $1 = ""; print }' test/fuzz/seeds); do
	for f in $glob; do
		[ -f "$f" ] && cp "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
	done
done
# the point-file and search-file harnesses write real files as their seeds
if [ "$name" = netresume ] && [ -z "$(ls "$corpus")" ]; then
	TRIM_FUZZ_WRITE_SEEDS="$corpus" "$bin" -runs=0 "$corpus" >/dev/null 2>&1 || true
	rm -f "$corpus"/*.tmp
fi
if [ "$name" = points ] && [ -z "$(ls "$corpus")" ]; then
	TRIM_FUZZ_WRITE_SEEDS="$corpus" "$bin" -runs=0 "$corpus" >/dev/null 2>&1 || true
	rm -f "$corpus"/*.csv "$corpus"/results.json "$corpus"/*.tmp*
fi
dict=""
[ -f "test/fuzz/$name.dict" ] && dict="-dict=test/fuzz/$name.dict"
[ -z "$dict" ] && [ -f test/fuzz/yaml.dict ] && [ "$name" != trace ] && dict="-dict=test/fuzz/yaml.dict"
echo "fuzz $name: $seconds s, $(ls "$corpus" | wc -l) inputs in $corpus"
# -timeout: one input taking 10 s is a hang; -rss_limit_mb: 2 GB is a leak or blow-up
if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
	-artifact_prefix="$findings/$name-" $dict "$corpus" >"$build/fuzz-$name.log" 2>&1; then
	tail -60 "$build/fuzz-$name.log"
	echo "fuzz $name: FINDING (input in $findings/, log $build/fuzz-$name.log)"
	exit 1
fi
grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$build/fuzz-$name.log" | tail -1
