#!/bin/sh
# make bench (when trim-mpi is built): mpi_explore_speedup_2ranks, the default
# exploration (trim explore without files: AlexNet-Cifar training over
# models/arch/spaces/default.yaml) on 2 MPI ranks against 1 on this machine,
# one thread per rank; the outputs must be identical. The item times of both
# runs are kept (TRIM_MPI_TIMES) for test/mpi/project.py (docs/cluster.md).
# Then mpi_map_speedup_2ranks: one search's top nodes (trim-mpi map, ResNet-18
# layer3.0.conv1 FW on Eyeriss for EDP: 71 of 4608 top nodes searched, about
# 13 CPU s) on 2 ranks against 1, one thread each, outputs identical
# (docs/cluster.md, "One search on many ranks").
#
#   sh test/mpi/bench.sh BUILD_DIR [EXTRA trim explore OPTIONS...]
set -eu
B=$1
shift
MPI=$B/bin/trim-mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
run() {
	n=$1
	shift
	t0=$(now)
	# --bind-to none: on a shared machine a rank pinned to a core that other jobs
	# also use runs at a fraction of a core (docs/cluster.md, "Speed")
	TRIM_MPI_TIMES=$B/mpi-times-$n.tsv mpirun -n "$n" --oversubscribe --bind-to none -x TRIM_MPI_TIMES "$MPI" explore \
		--threads 1 --quiet --format csv "$@" > "$tmp/out.$n"
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
s1=$(run 1 "$@")
s2=$(run 2 "$@")
cmp -s "$tmp/out.1" "$tmp/out.2" || { echo "mpi bench: 2 ranks and 1 rank disagree"; exit 1; }
printf 'mpi_explore_speedup_2ranks: %.2f (1 rank %.1f s, 2 ranks %.1f s, one thread each; item times in %s)\n' \
	"$(awk -v a="$s1" -v b="$s2" 'BEGIN { print a / b }')" "$s1" "$s2" "$B/mpi-times-[12].tsv"

MAP="map models/networks/resnet18.yaml models/arch/eyeriss.yaml --layer layer3.0.conv1 --phase FW --goal edp --threads 1 --quiet --format json"
mrun() {
	t0=$(now)
	mpirun -n "$1" --oversubscribe --bind-to none "$MPI" $MAP > "$tmp/map.$1" 2> /dev/null
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
m1=$(mrun 1)
m2=$(mrun 2)
cmp -s "$tmp/map.1" "$tmp/map.2" || { echo "mpi bench: trim-mpi map on 2 ranks and 1 rank disagree"; exit 1; }
printf 'mpi_map_speedup_2ranks: %.2f (1 rank %.1f s, 2 ranks %.1f s, one thread each)\n' \
	"$(awk -v a="$m1" -v b="$m2" 'BEGIN { print a / b }')" "$m1" "$m2"
