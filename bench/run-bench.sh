#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints lwn_feed_parse() times for LWN-style feeds of 1,000, 8,000 and 10,000 items next to xmllint's, lwn-tray's peak RSS,
# and the HTML rendering of 1 MB descriptions next to xmllint --html.
#
# Usage, from the top of the source tree: bench/run-bench.sh [BUILD_DIR]   (default: build)
# RUNS=N sets how many runs each median is taken over (default 11).
set -euo pipefail

builddir=${1:-build}
runs=${RUNS:-11}

if [ ! -f meson.build ] || [ ! -d bench ]; then
  echo "run-bench.sh: run me from the top of the source tree" >&2
  exit 2
fi

if [ ! -d "$builddir" ]; then
  meson setup "$builddir" >/dev/null
fi
meson compile -C "$builddir" bench-parse bench-text >/dev/null
# The program is measured too when it builds; the benchmark goes on without it.
meson compile -C "$builddir" lwn-tray >/dev/null 2>&1 || true

bench_parse=$builddir/bench/bench-parse
bench_text=$builddir/bench/bench-text
lwn_tray=$builddir/src/lwn-tray

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median wall-clock milliseconds of RUNS runs of a command.
median_ms() {
  local times=() start end
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f\n", m / 1000 }'
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

echo "lwn-tray parse benchmark: median of $runs runs each ($(nproc) CPUs, $(xmllint --version 2>&1 | head -n 1))"
echo

# 8,000 items is about the largest feed under the fetcher's 8 MiB cap; lwn-tray refuses
# the 10,000-item one by design, which the last line of that block shows.
for n in 1000 8000 10000; do
  file=$tmp/lwn-$n.rdf
  "$bench_parse" --write "$n" "$file"
  size_kib=$(( $(stat -c %s "$file") / 1024 ))

  ours=$("$bench_parse" --runs "$runs" --median-only "$file")
  ours_process=$(median_ms "$bench_parse" --runs 1 --median-only "$file")
  xmllint_ms=$(median_ms xmllint --noout "$file")

  echo "$n items ($size_kib KiB):"
  echo "  lwn_feed_parse, in process:     $ours ms"
  echo "  bench-parse, whole process:     $ours_process ms"
  echo "  xmllint --noout, whole process: $xmllint_ms ms"
  echo "  ratio (process / xmllint):      $(ratio "$ours_process" "$xmllint_ms")x"
  echo "  ratio (in process / xmllint):   $(ratio "$ours" "$xmllint_ms")x"

  if [ ! -x "$lwn_tray" ]; then
    echo "  peak RSS of lwn-tray --json:    $lwn_tray is missing"
  elif [ ! -x /usr/bin/time ]; then
    echo "  peak RSS of lwn-tray --json:    /usr/bin/time is missing (Debian package 'time')"
  elif /usr/bin/time -f %M -o "$tmp/rss" "$lwn_tray" --json --feed-url "file://$file" >/dev/null 2>"$tmp/stderr"; then
    echo "  peak RSS of lwn-tray --json:    $(cat "$tmp/rss") KiB"
  else
    echo "  peak RSS of lwn-tray --json:    failed: $(head -n 1 "$tmp/stderr")"
  fi
  echo
done

# tests/unit/test-text.c renders these descriptions too, but only logs its time there: a
# sanitizer or a busy machine slows it many times over (6.2 s under ASan on a loaded one).
"$bench_text" --write "$tmp/description.html"
echo "1 MB descriptions ($(( $(stat -c %s "$tmp/description.html") / 1024 )) KiB of HTML), lwn-tray's renderer in process:"
"$bench_text" --runs "$runs" | sed 's/^/  /'
echo "  xmllint --html --noout, whole process:       $(median_ms xmllint --html --noout "$tmp/description.html") ms"
