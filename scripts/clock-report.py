#!/usr/bin/env python3
"""Clock usage of a run, from its journal: how much of its clock each side used and how much was left at the end.

    scripts/clock-report.py results/x/journal.jsonl [more journals ...]

For every game and side: the time its engine thought (the runner's measurement, opening moves excluded) against
the time it had — main time plus every increment it received (Fischer), or main time plus its byoyomi periods —
and the time left on its clock when the game ended (main time, plus this move's byoyomi where there is one).
Prints the time losses, the average fraction of the clock used, the distribution of the time left, and each game's
closest call (the least time any move of a side left on its clock — with byoyomi, the period's unused part); then the
same for each engine.
"""
import json
import re
import statistics
import sys


def parse_tc(text):
    """'10' -> (10000, 0, 0); '1+0.1' -> (1000, 100, 0); '0+1b' -> (0, 0, 1000)."""
    m = re.fullmatch(r"([0-9.]+)(?:\+([0-9.]+)(b?))?", text.strip())
    if not m:
        return None
    base = round(float(m.group(1)) * 1000)
    extra = round(float(m.group(2) or 0) * 1000)
    return (base, 0, extra) if m.group(3) else (base, extra, 0)


def quantiles(values, qs):
    v = sorted(values)
    return [v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] for q in qs]


class Tally:
    """One engine's (or the whole run's) figures."""

    def __init__(self):
        self.fractions, self.left, self.closest = [], [], []

    def report(self, label):
        q = quantiles(self.left, [0.0, 0.01, 0.1, 0.5, 0.9, 1.0])
        c = quantiles(self.closest, [0.0, 0.01, 0.1, 0.5])
        print(f"{label}clock used: mean {100 * statistics.mean(self.fractions):.1f} %, "
              f"max {100 * max(self.fractions):.1f} % (of main time + increments or byoyomi received)")
        print(f"{label}time left at game end (ms): min {q[0]} | p1 {q[1]} | p10 {q[2]} | median {q[3]} | "
              f"p90 {q[4]} | max {q[5]}")
        print(f"{label}closest call of a game (ms left on its tightest move): min {c[0]} | p1 {c[1]} | p10 {c[2]} | "
              f"median {c[3]}")


def main(paths):
    total, engines, games, time_losses, skipped = Tally(), {}, 0, 0, 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith('{"game":'):
                    continue
                g = json.loads(line)
                tc = parse_tc(g.get("time_control", ""))
                if tc is None:
                    skipped += 1
                    continue
                games += 1
                if g.get("termination") == "time-forfeit":
                    time_losses += 1
                base, inc, byo = tc
                first = g.get("opening_plies", 0)
                black_first = " b " in g["start_sfen"]
                for side, name in ((0, g.get("black", "black")), (1, g.get("white", "white"))):
                    used, moves, closest = 0, 0, None
                    for i, t in enumerate(g["times_ms"]):
                        if i < first:
                            continue
                        mover = 0 if (i % 2 == 0) == black_first else 1
                        if mover != side:
                            continue
                        # What this move could spend: the clock before it plus this move's increment, or the main
                        # time left plus the byoyomi period.
                        if byo:
                            available = max(0, base - used) + byo
                        else:
                            available = base + inc * (moves + 1) - used
                        closest = available - t if closest is None else min(closest, available - t)
                        used += t
                        moves += 1
                    if moves == 0:
                        continue
                    had = base + inc * moves + byo * moves
                    fraction = used / had if had else 0.0
                    # Main time first, then each move has its byoyomi: what is left at the end is main time only.
                    left = max(0, base - used) if byo else base + inc * moves - used
                    for tally in (total, engines.setdefault(name, Tally())):
                        tally.fractions.append(fraction)
                        tally.left.append(left)
                        tally.closest.append(closest)
    if games == 0:
        print("no games with a clock")
        return 1
    print(f"{games} games ({skipped} without a clock skipped), time losses: {time_losses}")
    total.report("")
    if len(engines) > 1:
        for name in sorted(engines):
            engines[name].report(f"  {name}: ")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
