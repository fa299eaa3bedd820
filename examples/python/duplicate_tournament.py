"""A heuristic bot written in Python, seated in a duplicate tournament against the
toolkit's `rule` agent by the Rust runner (every deal under all six seatings, the
run directory `tresillo tournament` writes, resumable).

    python examples/python/duplicate_tournament.py [--deals N] [--out DIR]

The bot passes in the auction, and in card play takes the trick with its lowest
winning card when it can, else throws its lowest card. It sees only its seat's
view (`tresillo.SeatView`).
"""

import argparse

import tresillo

PASS = 81


def cautious(view):
    legal = view.legal_actions()
    if PASS in legal:
        return PASS
    cards = [a for a in legal if a < 40]
    if not cards:
        return legal[0]
    trick = view.view()["current_trick"]
    # Card ids run 0..39 by suit and rank; "lowest" here is simply the smallest id.
    return min(cards) if trick else max(cards)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--out", default="out/python-duplicate")
    args = ap.parse_args()
    rows = tresillo.tournament(
        [("cautious", cautious), "rule", "rule"], deals=args.deals, out=args.out, duplicate=True, force=True
    )
    for r in rows:
        if r["role"] == "all" and r["agent"] != "all":
            print(f"{r['agent']:<12} {r['mean_tantos']:>9} tantos per deal [{r['ci95_low']}, {r['ci95_high']}]")
    print(f"run directory: {args.out} (tresillo report {args.out})")


if __name__ == "__main__":
    main()
