#!/usr/bin/env python3
"""A small heuristic bot, standard library only (docs/PROTOCOL.md):

- auction: bids the lowest level when its strength (20 a card of its longest
  suit, 25 for the espada and for the basto) reaches 130 - aggr (the option
  `aggr`, 0 to 100, default 50: four of a suit, or the espada and basto with
  two of a suit), else passes; names the suit it holds most of as trumps;
- exchange: discards its lowest non-trump cards, one at a time, then done;
- card play: wins the trick with its cheapest winning card when it can guess
  one (a higher card of the suit led), else throws its lowest card;
- every other question: the first legal answer.
"""

import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tresillo_bot import run  # noqa: E402

SUITS = "EBCO"


def suit(card):
    return card[-1]


def rank(card):
    return int(card[:-1])


def choose(request, rng, options):
    legal = request["legal"]
    view = request["view"]
    hand = view["hand"]
    texts = {a["action"]: a["text"] for a in legal}
    count = Counter(suit(c) for c in hand)
    best_suit = max(SUITS, key=lambda s: count[s])
    kind = request["kind"]
    if kind == "bid":
        strength = 20 * count[best_suit] + 25 * ("1E" in hand) + 25 * ("1B" in hand)
        strong = strength >= 130 - options["aggr"]
        bids = [a for a, t in texts.items() if t.startswith("bid")]
        return min(bids) if strong and bids else 81 if 81 in texts else legal[0]["action"]
    if kind == "declare":
        name = {"E": "espadas", "B": "bastos", "C": "copas", "O": "oros"}[best_suit]
        for a, t in texts.items():
            if t.endswith(name):
                return a
        return legal[0]["action"]
    if kind == "discard":
        cards = [a for a in texts if a < 80]
        trump = view["trump"]
        weak = [a for a in cards if trump is None or not texts[a].endswith(trump[0].upper())]
        if 80 in texts and (not weak or len(view["discarding"]) >= 3):
            return 80
        return min(weak or cards) if (weak or cards) else 80
    if kind == "play":
        cards = sorted(a for a in texts)
        trick = view["current_trick"]
        if trick:
            led = suit(trick[0])
            higher = [a for a in cards if suit(texts[a][5:]) == led and rank(texts[a][5:]) > max(
                rank(c) for c in trick if suit(c) == led)]
            if higher:
                return higher[0]
        return cards[0]
    return legal[0]["action"]


if __name__ == "__main__":
    run("heuristic-bot", choose, options={"aggr": {"type": "int", "min": 0, "max": 100, "default": 50}})
