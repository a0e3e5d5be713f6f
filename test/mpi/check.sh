#!/bin/sh
# trim-mpi against trim (docs/guide.md, "Running on a cluster"): on 1, 2 and
# 3 ranks (oversubscribed on one machine) every output (explore, network,
# map) is byte-identical to trim's with one thread; an output directory resumes what any rank finished
# and survives two jobs writing it at once; errors are trim's.
#
#   sh test/mpi/check.sh BUILD_DIR     (run by make check when mpirun exists)
set -eu
B=$1
TRIM=$B/bin/trim
MPI=$B/bin/trim-mpi
# CI runs as root; Open MPI refuses root without these
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=test/data/neteval
EX="explore $D/tiny.yaml $D/tiny-space.yaml --mode inference --threads 1 --quiet"
NET="network $D/repeat.yaml $D/tiny-arch.yaml --threads 1"
checks=0
fail() { echo "mpi-check: FAIL: $*"; exit 1; }
# Only trim-mpi links MPI: the library and trim do not.
for f in "$B"/lib/libtrim.so.*.*.* "$TRIM"; do
	! ldd "$f" | grep -q 'libmpi' || fail "$f links MPI"
done
ldd "$MPI" | grep -q 'libmpi' || fail "$MPI does not link MPI"
ranks() { n=$1; shift; mpirun -n "$n" --oversubscribe "$MPI" "$@"; }
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head -20; fail "$3"; }; checks=$((checks + 1)); }

# Every format of an exploration and a network, and the files they write.
for fmt in table json csv; do
	$TRIM $EX --format $fmt > "$tmp/ref.$fmt"
	$TRIM $NET --format $fmt > "$tmp/nref.$fmt"
done
$TRIM $EX --out "$tmp/ref-out" --report "$tmp/ref.html" --breakdown "$tmp/ref-bd.csv" > /dev/null
$TRIM $NET --breakdown "$tmp/nref-bd.json" > /dev/null
for n in 1 2 3; do
	for fmt in table json csv; do
		ranks $n $EX --format $fmt > "$tmp/out.$fmt"
		same "$tmp/ref.$fmt" "$tmp/out.$fmt" "explore --format $fmt on $n ranks differs from trim"
		ranks $n $NET --format $fmt > "$tmp/nout.$fmt"
		same "$tmp/nref.$fmt" "$tmp/nout.$fmt" "network --format $fmt on $n ranks differs from trim"
	done
	# the exploration cut into its points' searches (trim-mpi's choice for fewer points than 2 x ranks)
	ranks $n $EX --format json --items searches > "$tmp/out.json"
	same "$tmp/ref.json" "$tmp/out.json" "explore --items searches on $n ranks differs from trim"
	rm -rf "$tmp/out-s"
	ranks $n $EX --format csv --items searches --out "$tmp/out-s" > "$tmp/out.csv"
	same "$tmp/ref.csv" "$tmp/out.csv" "explore --items searches --out on $n ranks differs from trim"
	same "$tmp/ref-out/results.json" "$tmp/out-s/results.json" "explore --items searches: results.json on $n ranks"
	rm -rf "$tmp/out"
	ranks $n $EX --out "$tmp/out" --report "$tmp/out.html" --breakdown "$tmp/out-bd.csv" > /dev/null
	for f in results.json points.csv workloads.csv; do
		same "$tmp/ref-out/$f" "$tmp/out/$f" "explore --out: $f on $n ranks differs from trim"
	done
	same "$tmp/ref.html" "$tmp/out.html" "explore --report on $n ranks differs from trim"
	same "$tmp/ref-bd.csv" "$tmp/out-bd.csv" "explore --breakdown on $n ranks differs from trim"
	ranks $n $NET --breakdown "$tmp/nout-bd.json" > /dev/null
	same "$tmp/nref-bd.json" "$tmp/nout-bd.json" "network --breakdown on $n ranks differs from trim"
done

# Resume: a point file lost and one edited (as a killed rank or a bad disk
# leaves them) are recomputed, the others read back; trim says the same.
ls "$tmp/out"/point-*.json > "$tmp/points"
[ "$(wc -l < "$tmp/points")" = 4 ] || fail "explore --out on 3 ranks wrote $(wc -l < "$tmp/points") point files, not 4"
cp -R "$tmp/out" "$tmp/out1"
rm "$(sed -n 1p "$tmp/points")"
sed -i '0,/"energy_pj": /s//"energy_pj": 1/' "$(sed -n 2p "$tmp/points")"
rm "$(sed -n 1p "$tmp/points" | sed 's|/out/|/out1/|')"
sed -i '0,/"energy_pj": /s//"energy_pj": 1/' "$(sed -n 2p "$tmp/points" | sed 's|/out/|/out1/|')"
ranks 2 $EX --format json --out "$tmp/out" > "$tmp/resumed.json" 2> "$tmp/resumed.err"
same "$tmp/ref.json" "$tmp/resumed.json" "a resumed exploration on 2 ranks differs from trim"
$TRIM $EX --format json --out "$tmp/out1" > /dev/null 2> "$tmp/resumed1.err"
sed "s|$tmp/out1/|DIR/|" "$tmp/resumed1.err" > "$tmp/a.err"
sed "s|$tmp/out/|DIR/|" "$tmp/resumed.err" > "$tmp/b.err"
same "$tmp/a.err" "$tmp/b.err" "the resume notes on 2 ranks differ from trim's"
grep -q "corrupt or edited" "$tmp/resumed.err" || fail "no note about the edited point file: $(cat "$tmp/resumed.err")"
$TRIM $EX --progress --out "$tmp/out" 2>&1 > /dev/null | grep -q "4/4 points (4 resumed)" ||
	fail "after the resumed run on 2 ranks, trim does not read back every point"
checks=$((checks + 1))

# A network's searches: the second run reads every one back, and says so as trim does.
$TRIM $NET --format json --out "$tmp/nref-out" > /dev/null
$TRIM $NET --format json --out "$tmp/nref-out" > "$tmp/nref2.json" 2> "$tmp/nref2.err"
ranks 3 $NET --format json --out "$tmp/nout" > "$tmp/n1.json"
same "$tmp/nref.json" "$tmp/n1.json" "network --out on 3 ranks differs from trim"
ranks 2 $NET --format json --out "$tmp/nout" > "$tmp/n2.json" 2> "$tmp/n2.err"
same "$tmp/nref2.json" "$tmp/n2.json" "a resumed network on 2 ranks differs from trim's"
sed "s|$tmp/nref-out|DIR|" "$tmp/nref2.err" > "$tmp/a.err"
sed "s|$tmp/nout|DIR|" "$tmp/n2.err" > "$tmp/b.err"
same "$tmp/a.err" "$tmp/b.err" "the resume message on 2 ranks differs from trim's"

# Two jobs writing one directory at once: neither output differs, every file is whole.
ranks 2 $EX --format json --out "$tmp/shared" > "$tmp/job1.json" &
job=$!
ranks 3 $EX --format json --out "$tmp/shared" > "$tmp/job2.json"
wait $job || fail "the first of two jobs writing one directory failed"
same "$tmp/ref.json" "$tmp/job1.json" "job 1 of two writing one directory differs from trim"
same "$tmp/ref.json" "$tmp/job2.json" "job 2 of two writing one directory differs from trim"
$TRIM $EX --progress --out "$tmp/shared" 2>&1 > /dev/null | grep -q "4/4 points (4 resumed)" ||
	fail "after two jobs wrote one directory, trim does not read back every point"
! ls "$tmp/shared" | grep -v -e '^point-[0-9]*\.json$' -e '^results\.json$' -e '^points\.csv$' -e '^workloads\.csv$' ||
	fail "temporary files left in the shared directory"
checks=$((checks + 1))

# A job killed while it runs (mpirun stopped once its ranks kept a few searches; AlexNet-Cifar
# training on the training baseline, row-stationary: about 4 s of searches): the rerun, on
# other ranks, reads back what every rank finished and prints trim's result.
N18="network models/networks/alexnet-cifar.yaml models/arch/training-baseline.yaml --mode training --constraints models/constraints/timeloop-eyeriss-rs.yaml --threads 1 --format csv"
$TRIM $N18 > "$tmp/r18.csv"
mpirun -n 3 --oversubscribe "$MPI" $N18 --out "$tmp/killed" > /dev/null 2>&1 &
job=$!
searches() { ls "$tmp/killed" 2> /dev/null | grep -c '^search-.*\.txt$' || true; }
waited=0 # until the ranks have kept a few searches (or 20 s)
while [ "$(searches)" -lt 3 ] && [ $waited -lt 100 ] && kill -0 $job 2> /dev/null; do
	sleep 0.2
	waited=$((waited + 1))
done
kill $job 2> /dev/null || true
# mpirun may hang once its ranks are gone (seen with Open MPI 4.1 when the
# TERM arrives as they exit): give it 5 s, then KILL
waited=0
while kill -0 $job 2> /dev/null && [ $waited -lt 50 ]; do
	sleep 0.1
	waited=$((waited + 1))
done
kill -9 $job 2> /dev/null || true
wait $job || true
kept=$(searches)
[ "$kept" -gt 0 ] || fail "the job to kill kept no search in 20 s"
ranks 2 $N18 --out "$tmp/killed" > "$tmp/r18-mpi.csv" 2> "$tmp/r18.err"
same "$tmp/r18.csv" "$tmp/r18-mpi.csv" "the rerun of a killed job differs from trim"
[ "$kept" = 0 ] || grep -q "^trim network: $kept searches read back" "$tmp/r18.err" ||
	fail "the rerun did not read back the $kept searches the killed job kept: $(cat "$tmp/r18.err")"
echo "mpi-check: a job killed while it ran had kept $kept searches of AlexNet-Cifar training; the rerun read them back"

# A job array: independent tasks (no mpirun), each its share into one
# directory, in any order; trim then reads them all back and prints.
for k in 2 0 1; do
	"$MPI" $EX --share $k/3 --out "$tmp/array" 2> "$tmp/share.err" || fail "--share $k/3: $(cat "$tmp/share.err")"
done
[ "$(ls "$tmp/array" | wc -l)" = 4 ] || fail "three shares wrote $(ls "$tmp/array" | wc -l) point files, not 4"
$TRIM $EX --format json --out "$tmp/array" > "$tmp/array.json"
same "$tmp/ref.json" "$tmp/array.json" "the shares of a job array, read back by trim, differ from trim"
for k in 1 0; do "$MPI" $NET --share $k/2 --out "$tmp/narray" 2> "$tmp/share.err" || fail "network --share $k/2"; done
$TRIM $NET --format json --out "$tmp/narray" > "$tmp/narray.json" 2> /dev/null
$TRIM $NET --format json --out "$tmp/nref-array" > /dev/null
$TRIM $NET --format json --out "$tmp/nref-array" > "$tmp/nref-array.json" 2> /dev/null
same "$tmp/nref-array.json" "$tmp/narray.json" "a network's shares, read back by trim, differ from trim's resumed run"
st=0; "$MPI" $EX --share 1/3 > /dev/null 2> "$tmp/e0" || st=$?
[ $st = 2 ] && grep -q "needs --out" "$tmp/e0" || fail "--share without --out: exit $st, $(cat "$tmp/e0")"
st=0; "$MPI" $EX --share 3/3 --out "$tmp/x" > /dev/null 2> "$tmp/e0" || st=$?
[ $st = 2 ] && grep -q "0 <= K < N" "$tmp/e0" || fail "--share 3/3: exit $st, $(cat "$tmp/e0")"
st=0; "$MPI" $EX --items searches --share 0/2 --out "$tmp/x" > /dev/null 2> "$tmp/e0" || st=$?
[ $st = 2 ] && grep -q "whole points" "$tmp/e0" || fail "--items searches --share: exit $st, $(cat "$tmp/e0")"
checks=$((checks + 3))

# One search's top nodes on the ranks (trim-mpi map): ResNet-18 layers whose trees have
# hundreds to thousands of top nodes, tens of them searched with thresholds from the nodes
# merged before them; k = 1 and --top 3, table and json, exact and --gap, one or two threads a rank; the
# nodes really spread (TRIM_MPI_TIMES: searched on more than one rank, in most runs).
R18=models/networks/resnet18.yaml
spread_runs=0
MAP1="map $R18 models/arch/training-baseline.yaml --layer layer4.0.downsample.0 --phase FW --goal delay --quiet"
MAP2="map $R18 models/arch/eyeriss.yaml --layer layer2.0.downsample.0 --phase FW --top 3 --quiet"
MAP3="map $R18 models/arch/eyeriss.yaml --layer layer3.0.downsample.0 --phase FW --goal edp --quiet --format json"
# --gap does not depend on the clock: the same bytes too
MAP4="map $R18 models/arch/eyeriss.yaml --layer layer4.0.conv1 --phase FW --goal edp --gap 0.01 --quiet --format json"
# imperfect factorisations (a ragged pass over Eyeriss' 14 columns) under Timeloop's row-stationary constraints
MAP5="map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW --batch 4 --goal delay --constraints models/constraints/timeloop-eyeriss-rs.yaml --imperfect --quiet --format json"
for m in 1 2 3 4 5; do
	eval "args=\$MAP$m"
	$TRIM $args --threads 1 > "$tmp/mref$m" 2> /dev/null
	for n in 1 2 3; do
		for t in 1 2; do
			[ $t = 1 ] || [ $m = 2 ] || continue
			TRIM_MPI_TIMES="$tmp/mtimes" ranks $n $args --threads $t > "$tmp/mout" 2> /dev/null
			same "$tmp/mref$m" "$tmp/mout" "map $m on $n ranks of $t threads differs from trim map --threads 1"
			spread=$(awk -F'\t' '$1 ~ /^[0-9]+$/ && $2 > 0 { r++ } END { print r + 0 }' "$tmp/mtimes")
			[ $n = 1 ] || [ "$spread" -lt 2 ] || spread_runs=$((spread_runs + 1))
		done
	done
done
# (a short search may end before the other ranks finish their set-up: not every run spreads)
[ "$spread_runs" -ge 3 ] || fail "map: the top nodes were searched on more than one rank in $spread_runs runs only"
echo "mpi-check: map: $spread_runs runs on 2 or 3 ranks had their top nodes searched on more than one rank"
# a time limit stops every rank: a valid anytime result (not the one-process one)
st=0; ranks 2 map $R18 models/arch/training-baseline.yaml --layer maxpool --phase FW --time-limit 1 --format json \
	> "$tmp/mtl.json" 2> /dev/null || st=$?
[ $st = 0 ] && grep -q '"exact": false' "$tmp/mtl.json" || fail "map --time-limit 1 on 2 ranks: exit $st, $(head -c 300 "$tmp/mtl.json")"
checks=$((checks + 1))

# Errors: trim's message and exit status, printed once.
st=0; $TRIM network $D/tiny.yaml $D/tiny-arch.yaml --max-mappings 2 > /dev/null 2> "$tmp/e1" || st=$?
[ $st = 2 ] || fail "trim network --max-mappings 2 exits $st"
st=0; ranks 3 network $D/tiny.yaml $D/tiny-arch.yaml --max-mappings 2 > "$tmp/e2.out" 2> "$tmp/e2" || st=$?
[ $st = 2 ] || fail "trim-mpi network --max-mappings 2 on 3 ranks exits $st, not 2"
[ ! -s "$tmp/e2.out" ] || fail "a failed network on 3 ranks printed a result"
[ "$(grep -c '^trim: ' "$tmp/e2")" = 1 ] || fail "the error is not printed once: $(cat "$tmp/e2")"
grep -F -x -q "$(cat "$tmp/e1")" "$tmp/e2" || fail "the error on 3 ranks is not trim's: $(cat "$tmp/e2")"
st=0; ranks 2 explore $D/missing.yaml $D/tiny-space.yaml > /dev/null 2> "$tmp/e3" || st=$?
[ $st = 2 ] && [ "$(grep -c 'missing.yaml' "$tmp/e3")" = 1 ] || fail "a missing input on 2 ranks: exit $st, $(cat "$tmp/e3")"
st=0; $TRIM map $R18 models/arch/eyeriss.yaml --layer nosuch --phase FW > /dev/null 2> "$tmp/e4" || st=$?
[ $st = 2 ] || fail "trim map --layer nosuch exits $st"
st=0; ranks 3 map $R18 models/arch/eyeriss.yaml --layer nosuch --phase FW > "$tmp/e5.out" 2> "$tmp/e5" || st=$?
[ $st = 2 ] && [ ! -s "$tmp/e5.out" ] || fail "trim-mpi map --layer nosuch on 3 ranks: exit $st, $(cat "$tmp/e5")"
grep -F -x -q "$(grep '^trim' "$tmp/e4" | head -1)" "$tmp/e5" && [ "$(grep -c 'nosuch' "$tmp/e5")" = "$(grep -c 'nosuch' "$tmp/e4")" ] ||
	fail "trim-mpi map's error on 3 ranks is not trim's, once: $(cat "$tmp/e5")"
# rank 0's command fails before it hands out (its input differs): the other rank, at its
# work, is told to stop and the job ends with trim's exit status instead of hanging
G="$R18 models/arch/eyeriss.yaml --phase FW --goal edp --quiet"
st=0; timeout 120 mpirun --oversubscribe -n 1 "$MPI" map $G --layer nosuch : -n 1 "$MPI" map $G \
	--layer layer3.0.downsample.0 --threads 2 > "$tmp/e6.out" 2> "$tmp/e6" || st=$?
[ $st = 2 ] && [ ! -s "$tmp/e6.out" ] || fail "trim-mpi map with rank 0 failing first: exit $st, $(cat "$tmp/e6")"
checks=$((checks + 5))
echo "mpi-check: $checks checks passed (trim-mpi on 1, 2 and 3 ranks is byte-identical to trim)"
