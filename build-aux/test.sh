#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and runs the whole test suite,
# then the cost check against its committed baseline (bench/check-costs.sh),
# then the code tests again under the sanitizers (build-aux/test-sanitizers.sh),
# then each fuzz target for a short while (build-aux/fuzz.sh), then builds the
# Debian package and checks it with lintian (build-aux/build-deb.sh), then
# tries the README's commands on fresh Debian 12 and 13 machines and runs this
# whole command again on the release the machine does not run
# (build-aux/test-debian-releases.sh; LWN_RELEASES=0 leaves that out).
# Each part says how long it took; the closing lines, one per part and the
# total, go to build/meson-logs/summary.txt too.
set -eu
cd "$(dirname "$0")/.."

# took PART SINCE: how long PART took, for the README's figures and the reader.
took() {
  echo "Time: $1 took $(($(date +%s) - $2)) s"
}
run_started=$(date +%s)

part_started=$(date +%s)
sh build-aux/install-deps.sh --test --deb
# Warnings are errors here, so that a new one cannot slip in.
sh build-aux/configure.sh build -Dwerror=true
took "installing and building" "$part_started"

status=0
part_started=$(date +%s)
meson test -C build --print-errorlogs --num-processes 2 "$@" || status=$?
took "the test suite" "$part_started"

# lwn-tray's memory, CPU and main-loop costs, each a ratio to a reference run
# beside it, against bench/cost-baseline.txt: only a gross regression fails.
mkdir -p build/meson-logs
costs_status=0
part_started=$(date +%s)
bash bench/check-costs.sh build >build/meson-logs/costs.txt 2>&1 || costs_status=$?
echo "Cost check: exit status $costs_status:"
cat build/meson-logs/costs.txt
[ "$costs_status" -eq 0 ] || status=1
took "the cost check" "$part_started"

# The same code tests again, built with AddressSanitizer and UBSan.
part_started=$(date +%s)
sh build-aux/test-sanitizers.sh "$@" || status=$?
took "the sanitizers" "$part_started"

# Each fuzz target for 30 s: long runs are for development (build-aux/fuzz.sh 600).
part_started=$(date +%s)
sh build-aux/fuzz.sh "${LWN_FUZZ_SECONDS:-30}" >build/meson-logs/fuzz.txt 2>&1 || status=$?
cat build/meson-logs/fuzz.txt
took "fuzzing" "$part_started"

# The Debian package from a clean copy, checked with lintian. Its unit tests
# are the ones that ran above, so the package build skips them. What the last
# run left goes first: a failed build must not show that run's package or report.
rm -f build-deb/*.deb build-deb/lintian.txt
deb_started=$(date +%s)
deb_status=0
DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck \
  sh build-aux/build-deb.sh build-deb >build/meson-logs/deb.txt 2>&1 || deb_status=$?
echo "Debian package: exit status $deb_status; lintian says:"
cat build-deb/lintian.txt 2>/dev/null || :
if [ "$deb_status" -ne 0 ]; then
  tail -n 60 build/meson-logs/deb.txt
  status=1
fi
took "the Debian package" "$deb_started"

# The README's commands on fresh Debian 12 and 13 machines, and this whole
# command on the release this machine does not run.
releases_status=0
if [ "${LWN_RELEASES:-1}" != 0 ]; then
  releases_started=$(date +%s)
  sh build-aux/test-debian-releases.sh build/releases >build/meson-logs/releases.txt 2>&1 || releases_status=$?
  echo "Debian releases: exit status $releases_status:"
  cat build/releases/results.txt 2>/dev/null || tail -n 60 build/meson-logs/releases.txt
  [ "$releases_status" -eq 0 ] || status=1
  took "the Debian releases" "$releases_started"
else
  echo "Debian releases: left out (LWN_RELEASES=0)"
  rm -rf build/releases
fi
took "the whole test command" "$run_started"
# Among the closing lines, which figures failed the cost check, or what it could not measure.
if [ "$costs_status" -ne 0 ]; then
  grep -h -e '^Cost check failed' -e '^check-costs.sh: ' build/meson-logs/costs.txt || :
fi

# Closing lines every CI reader understands, from meson's own logs: one per
# pass, then the total. A sanitizer report counts as one more failure, since
# the process it came from may be one whose exit status no test checked.
/usr/bin/python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog-asan.json \
  build-asan/meson-logs/sanitizers build/meson-logs/fuzz.txt build-deb "$deb_status" build/releases \
  "$costs_status" build/meson-logs/summary.txt <<'PY'
import glob, json, os, re, sys


def count(path):
    counts = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "ERROR": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0}
    try:
        with open(path) as log:
            for line in log:
                result = json.loads(line).get("result", "ERROR")
                counts[result] = counts.get(result, 0) + 1
    except FileNotFoundError:
        # The pass stopped before running any test.
        counts["ERROR"] += 1
    passed = counts["OK"] + counts["EXPECTEDFAIL"]
    failed = counts["FAIL"] + counts["TIMEOUT"] + counts["ERROR"] + counts["UNEXPECTEDPASS"]
    return [passed, failed, counts["SKIP"]]


def count_fuzz(path):
    # One row per target from build-aux/fuzz.sh; its last column says "ok" or what went wrong.
    passed = failed = 0
    try:
        with open(path) as log:
            for line in log:
                fields = line.split()
                if len(fields) >= 5 and fields[0] in ("feed-parser", "text", "text-markup", "url", "store", "opml", "feed-find"):
                    if fields[4] == "ok":
                        passed += 1
                    else:
                        failed += 1
    except FileNotFoundError:
        failed += 1
    if passed + failed == 0:
        failed += 1
    return [passed, failed, 0]


def count_deb(folder, status):
    # The package built (a .deb is there), and lintian found no error or
    # warning in it (build-deb.sh then exits with 0); lintian is not counted
    # when there was nothing to check.
    built = bool(glob.glob(os.path.join(folder, "*.deb")))
    if not built:
        return [0, 1, 1]
    return [2, 0, 0] if status == "0" else [1, 1, 0]


def count_releases(folder):
    # One line per check from build-aux/test-debian-releases.sh ("ok …",
    # "FAIL …", or "SKIP …" where it cannot run at all); a run that stopped
    # before its last line ("complete") counts one failure more.
    passed = failed = skipped = 0
    complete = False
    try:
        with open(os.path.join(folder, "results.txt")) as results:
            for line in results:
                if line.startswith("ok "):
                    passed += 1
                elif line.startswith("FAIL "):
                    failed += 1
                elif line.startswith("SKIP "):
                    skipped += 1
                complete = complete or line.strip() == "complete"
    except FileNotFoundError:
        pass
    if not complete:
        failed += 1
    return [passed, failed, skipped]


def other_release(folder):
    # The closing lines of this command on the other release, as its own
    # summary.txt has them, but its total; none where the releases pass was
    # skipped, and one failure where it was tried and left no summary.
    name = "the other Debian release"
    try:
        with open(os.path.join(folder, "other-release.txt")) as f:
            name = f.read().strip() or name
    except FileNotFoundError:
        pass
    try:
        with open(os.path.join(folder, "other-summary.txt")) as summary:
            lines = summary.read().splitlines()
    except FileNotFoundError:
        with open(os.path.join(folder, "results.txt")) as results:
            if any(line.startswith("SKIP ") for line in results):
                return []
        return [("%s: the test command" % name, [0, 1, 0])]
    passes = []
    for line in lines:
        match = re.fullmatch(r"(.+): (\d+) passed, (\d+) failed, (\d+) skipped", line.strip())
        if match:
            passes.append(("%s: %s" % (name, match.group(1)), [int(match.group(n)) for n in (2, 3, 4)]))
    return passes or [("%s: the test command" % name, [0, 1, 0])]


suite = count(sys.argv[1])
# bench/check-costs.sh exits 0 when every figure is within its limit; 1 (a gross
# regression) and 2 (it could not measure, e.g. a missing tool) are failures.
costs = [1, 0, 0] if sys.argv[8] == "0" else [0, 1, 0]
sanitizers = count(sys.argv[2])
if os.path.isdir(sys.argv[3]):
    sanitizers[1] += len(os.listdir(sys.argv[3]))
fuzzing = count_fuzz(sys.argv[4])
package = count_deb(sys.argv[5], sys.argv[6])
passes = [("test suite", suite), ("cost check", costs), ("sanitizers", sanitizers), ("fuzzing", fuzzing),
          ("debian package", package)]
own = list(passes)
if os.path.isdir(sys.argv[7]):
    passes.append(("debian releases", count_releases(sys.argv[7])))
    if os.path.exists(os.path.join(sys.argv[7], "results.txt")):
        passes.extend(other_release(sys.argv[7]))
with open(sys.argv[9], "w") as summary:
    # This machine's own parts: what the releases pass of another machine reads.
    for name, figures in own:
        summary.write("%s: %d passed, %d failed, %d skipped\n" % (name, *figures))
for name, figures in passes:
    print("%s: %d passed, %d failed, %d skipped" % (name, *figures))
print("%d passed, %d failed, %d skipped" % tuple(sum(column) for column in zip(*(f for _, f in passes))))
PY
exit "$status"
