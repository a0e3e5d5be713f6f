#!/bin/sh
# Write the man pages of trim and of each of its commands from their --help
# text (the one source of truth): tools/gen-man.sh TRIM_BINARY OUTDIR
#   OUTDIR/trim.1, OUTDIR/trim-COMMAND.1 for every command `trim --help` lists.
set -eu
trim=$1
out=$2
mkdir -p "$out"
version=$("$trim" --version | sed 's/^trim //')

# roff-escape preformatted help text: backslashes, leading dots and quotes, hyphens
esc() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

# page NAME SUMMARY HELP_TEXT_FILE
page() {
	name=$1 summary=$2 help=$3
	upper=$(echo "$name" | tr a-z A-Z)
	{
		printf '.TH %s 1 "" "libtrim %s" "libtrim manual"\n' "$upper" "$version"
		printf '.SH NAME\n%s \\- %s\n' "$(echo "$name" | esc)" "$(echo "$summary" | esc)"
		# the usage lines (up to the first blank line) are the synopsis
		printf '.SH SYNOPSIS\n.nf\n'
		sed -n '1,/^$/p' "$help" | sed -e '/^$/d' -e 's/^usage: //' | esc
		printf '.fi\n.SH DESCRIPTION\n.nf\n'
		desc=$(sed -n '/^$/,$p' "$help" | sed '1{/^$/d;}')
		if [ -n "$desc" ]; then printf '%s\n' "$desc" | esc; else echo "$summary." | esc; fi
		printf '.fi\n.SH SEE ALSO\n'
		if [ "$name" = trim ]; then
			"$trim" --help | sed -n 's/^  \([a-z_]*\)  .*/\1/p' | sed 's/^/trim\\-/; s/$/(1),/' | sed '$s/,$//'
		else
			printf 'trim(1)\n'
		fi
		printf '.PP\nThe documentation of libtrim: docs/ in its source tree (guide.md first).\n'
	} > "$out/$name.1"
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$trim" --help > "$tmp"
page trim "design-space exploration of DNN accelerators (libtrim's command-line client)" "$tmp"
"$trim" --help | sed -n 's/^  \([a-z_]*\)  *\(.*\)$/\1 \2/p' | while read -r cmd summary; do
	"$trim" "$cmd" --help > "$tmp"
	page "trim-$cmd" "$summary" "$tmp"
done
