#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives the real lwn-tray through seeded random sequences of what people, servers and
desktops do (tests/e2e/lwn_seq_steps.py), keeps a model of what it must show and announce
(tests/e2e/lwn_seq_model.py) and checks after every step what must always hold
(tests/e2e/lwn_seq_run.py).

    test-sequences.py LWN-TRAY                    the fixed seeds, as CI runs them
    test-sequences.py LWN-TRAY --seed N [--steps K]   one seed, replayed
    test-sequences.py LWN-TRAY --seeds FIRST:COUNT    many seeds (build-aux/soak-sequences.sh)
    test-sequences.py LWN-TRAY --replay FILE          a saved sequence (JSON list of steps)
    test-sequences.py LWN-TRAY --seed N --shrink      the shortest sequence that still fails

A failing sequence prints its seed, its steps as sentences and as JSON (for --replay)."""

import argparse
import json
import os
import re
import sys
import time
import traceback

import lwn_e2e as e2e
import lwn_seq_dry as seqdry
import lwn_seq_run as seqrun
import lwn_seq_steps as seqsteps
import lwn_seq_world as seqworld

# Chosen (with lwn_seq_dry, the model alone) so that together they take every kind of
# step, the 1,200-item feed, a refresh that times out, a feed added back, both ways of
# importing fifty feeds and a restart with them once each (checked first); about three
# and a half minutes on a quiet two-core machine, of which the import whose feeds poll in
# their turn takes fifty seconds.
FIXED_SEEDS = (5, 35, 75)
STEPS = 25
# Sequences that once failed, replayed with the fixed seeds: what each must not do again.
REGRESSIONS = {
    # A removed feed's announcements, waiting for a server, were shown when one came, and
    # announced again once the feed was back: its store had never heard they were shown.
    "a feed removed while its news waits for a notification server": [
        {"do": "notifier-away"},
        {"do": "add-feed"},
        {"do": "remove-feed"},
        {"do": "notifier-back"},
        {"do": "add-feed"},
        {"do": "publish", "feed": "b", "count": 2, "old": 0, "security": 0},
        {"do": "refresh", "mode": "ok", "via": "menu"},
    ],
    # The menu kept its old order over D-Bus when the newest headlines of many feeds took
    # the place of a section per feed: libdbusmenu-gtk does not see gtk_menu_reorder_child(),
    # so the tray host showed feed a's rows and then feed b's, not the newest first; and
    # the other way round when the feeds went.
    "the menu's rows moving from a section per feed to the newest of many feeds, and back": [
        {"do": "add-feed"},
        {"do": "import-feeds", "then": "start"},
        {"do": "remove-feeds"},
    ],
}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, action="append", help="run this seed (may be repeated)")
    parser.add_argument("--seeds", help="FIRST:COUNT, a range of seeds")
    parser.add_argument("--steps", type=int, default=int(os.environ.get("LWN_SEQ_STEPS", STEPS)))
    parser.add_argument("--replay", help="a JSON file with the list of steps to run")
    parser.add_argument("--shrink", action="store_true", help="on failure, look for a shorter failing sequence")
    parser.add_argument(
        "--plan", action="store_true", help="print the seeds' sequences as the model draws them, and run nothing"
    )
    parser.add_argument(
        "--skip", default="", metavar="KIND,...",
        help="never draw these kinds of step, or big-feed (to look past a known defect; seeds then draw other "
        "sequences)",
    )
    return parser.parse_args(argv)


def seeds_of(args):
    if args.seed:
        return args.seed
    spec = args.seeds or os.environ.get("LWN_SEQ_SEEDS")
    if spec:
        if ":" in spec:
            first, count = spec.split(":", 1)
            return list(range(int(first), int(first) + int(count)))
        return [int(seed) for seed in spec.split(",")]
    return list(FIXED_SEEDS)


def signature(error):
    """What kind of failure this is, for the shrinker to keep to the same one."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'|\"[^\"]*\"|<[^>]*>|\[[^\]]*\]", "…", text))[:100]


def run_sequence(binary, seed, steps, replay=None, quiet=False, skip=()):
    """Runs one sequence in a fresh world. Returns (error or None, the run, diagnostics)."""
    say = (lambda line: None) if quiet else (lambda line: print(line, flush=True))
    run = None
    with seqworld.World(binary, seqsteps.ALL_FEEDS) as world:
        run = seqrun.Run(world, seed, steps, replay=replay, say=say, skip=skip)
        try:
            run.run()
            return None, run, []
        except Exception as error:  # reported with the sequence that led to it
            return error, run, traceback.format_exc().splitlines() + world.diagnostics()


def print_sequence(run, header):
    print("# " + header)
    for number, step, ran in run.done:
        print("#   %3d. %s%s" % (number, seqsteps.describe(step), "" if ran is not False else "  (skipped)"))
    print("# as JSON, for --replay FILE:")
    print("#   " + json.dumps(run.sequence()))


def shrink(binary, seed, steps, failing, error):
    """Drops steps, chunks first and then one by one, while the same failure remains."""
    wanted = signature(error)
    print("# shrinking %d steps; the failure: %s" % (len(failing), wanted), flush=True)
    best = list(failing)
    chunk = max(1, len(best) // 2)
    while chunk >= 1:
        start = 0
        changed = False
        while start < len(best):
            candidate = best[:start] + best[start + chunk :]
            if not candidate:
                start += chunk
                continue
            failed, run, _lines = run_sequence(binary, seed, steps, replay=candidate, quiet=True)
            if failed is not None and signature(failed) == wanted:
                # Only the steps up to the failure matter.
                best = run.sequence()
                print("# %d steps still fail" % len(best), flush=True)
                changed = True
            else:
                start += chunk
        if not changed:
            chunk //= 2
    return best


def main(argv):
    args = parse_args(argv)
    if not os.access(args.binary, os.X_OK):
        print("usage: test-sequences.py PATH-TO-lwn-tray [--seed N] ...", file=sys.stderr)
        return 2
    replay = None
    if args.replay:
        with open(args.replay) as f:
            replay = json.load(f)
    skip = [kind for kind in args.skip.split(",") if kind]
    unknown = set(skip) - set(seqsteps.WEIGHTS) - {"big-feed"}
    if unknown:
        print("unknown kinds of step: %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(seqsteps.WEIGHTS)),
              file=sys.stderr)
        return 2
    seeds = seeds_of(args) if replay is None else [0]
    runs = [(seed, replay, None) for seed in seeds]
    fixed = replay is None and not args.seed and not args.seeds and not os.environ.get("LWN_SEQ_SEEDS") and not skip
    if args.plan:
        for seed in seeds:
            print("# seed %d:" % seed)
            for index, step in enumerate(seqdry.plan(seed, args.steps, skip), 1):
                print("#   %3d. %s" % (index, seqsteps.describe(step)))
        return 0
    if fixed:
        # Copies: a run notes its steps' targets in them.
        runs += [(0, [dict(step) for step in steps], name) for name, steps in REGRESSIONS.items()]
    print("1..%d" % (len(runs) + (1 if fixed else 0)), flush=True)
    failed = 0
    slowest = None
    if fixed:
        # What CI runs must take every kind of step, whatever the applet does with them;
        # a change of the generator that drops one must fail here, not go unnoticed.
        missing = sorted(seqdry.every_kind() - seqdry.coverage(seqdry.plan(seed, args.steps) for seed in seeds))
        if missing:
            failed += 1
            print("not ok 1 - the fixed seeds take every kind of step: never %s" % ", ".join(missing), flush=True)
        else:
            print("ok 1 - the fixed seeds take every kind of step", flush=True)
    for number, (seed, replay, regression) in enumerate(runs, 2 if fixed else 1):
        started = time.monotonic()
        if regression is not None:
            name = "the sequence of %s" % regression
        elif replay is not None:
            name = "the sequence in %s" % args.replay
        else:
            name = "seed %d" % seed
        print("# %s, %d steps" % (name, len(replay) if replay else args.steps), flush=True)
        error, run, lines = run_sequence(args.binary, seed, args.steps, replay=replay, skip=skip)
        elapsed = time.monotonic() - started
        if error is None and replay is None and run.sequence() != seqdry.plan(seed, args.steps, skip):
            # The steps drawn depend on the model alone: a difference means that the test
            # depends on chance, and its seeds do not replay.
            error = seqrun.Failure("the sequence drawn differs from the one the model alone draws for this seed")
            lines = []
        if run is not None and run.worst_latency is not None:
            if slowest is None or run.worst_latency["answer_ms"] > slowest[1]["answer_ms"]:
                slowest = (seed, run.worst_latency)
        if error is None:
            print("ok %d - %s (%.0fs)" % (number, name, elapsed), flush=True)
            continue
        failed += 1
        print("not ok %d - %s (%.0fs): %s" % (number, name, elapsed, str(error).splitlines()[0][:200]))
        for line in lines:
            print("# " + line)
        replay_hint = "--replay FILE" if replay is not None else "--seed %d --steps %d" % (seed, args.steps)
        if skip:
            replay_hint += " --skip %s" % ",".join(skip)
        print_sequence(run, "%s failed at step %d; replay: test-sequences.py LWN-TRAY %s"
                       % (name, len(run.done), replay_hint))
        if args.shrink:
            best = shrink(args.binary, seed, args.steps, run.sequence(), error)
            print("# the shortest failing sequence found (%d steps):" % len(best))
            for index, step in enumerate(best, 1):
                print("#   %3d. %s" % (index, seqsteps.describe(step)))
            print("#   " + json.dumps(best))
        sys.stdout.flush()
    if slowest is not None:
        print("# slowest menu answer: seed %d step %d: %r" % (slowest[0], slowest[1]["step"], slowest[1]))
    e2e.stop_display()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
