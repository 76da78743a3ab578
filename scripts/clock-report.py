#!/usr/bin/env python3
"""Clock usage of a run, from its journal: how much of its clock each side used and how much was left at the end.

    scripts/clock-report.py results/x/journal.jsonl [more journals ...]

For every game and side: the time its engine thought (the runner's measurement, opening moves excluded) against
the time it had — main time plus every increment it received (Fischer), or main time plus its byoyomi periods —
and the time left on its clock when the game ended (main time, plus this move's byoyomi where there is one).
Prints the time losses, the average fraction of the clock used, and the distribution of the time left.
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


def main(paths):
    fractions, left, games, time_losses, skipped = [], [], 0, 0, 0
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
                for side in (0, 1):
                    used, moves = 0, 0
                    for i, t in enumerate(g["times_ms"]):
                        if i < first:
                            continue
                        mover = 0 if (i % 2 == 0) == black_first else 1
                        if mover == side:
                            used += t
                            moves += 1
                    if moves == 0:
                        continue
                    had = base + inc * moves + byo * moves
                    fractions.append(used / had if had else 0.0)
                    if byo:
                        # Main time first, then each move has its byoyomi: what is left is main time only.
                        left.append(max(0, base - used))
                    else:
                        left.append(base + inc * moves - used)
    if games == 0:
        print("no games with a clock")
        return 1
    print(f"{games} games ({skipped} without a clock skipped), time losses: {time_losses}")
    print(f"clock used: mean {100 * statistics.mean(fractions):.1f} %, "
          f"max {100 * max(fractions):.1f} % (of main time + increments or byoyomi received)")
    q = quantiles(left, [0.0, 0.01, 0.1, 0.5, 0.9, 1.0])
    print("time left at game end (ms): min {} | p1 {} | p10 {} | median {} | p90 {} | max {}".format(*q))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
