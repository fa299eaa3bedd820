// The game's Spanish words, glossed from docs/RULES.md (its section in
// brackets): the glossary under every table (app.js). A test checks that each
// term is in docs/RULES.md (crates/tresillo-server/src/view.rs).
"use strict";

const GLOSSARY = [
  ["espadas, bastos, copas, oros", "the suits: swords, batons, cups, coins; swords and batons are the long (black) suits, cups and coins the round (red) ones (1)"],
  ["sota, caballo, rey", "the faces 10, 11, 12: jack, knight, king (1)"],
  ["espada", "the ace of swords: the top trump whatever the trump suit (1)"],
  ["mala", "the second trump: the 2 of a long trump suit, the 7 of a round one (1)"],
  ["basto", "the ace of batons: the third trump whatever the trump suit (1)"],
  ["punto", "the ace of a round trump suit, the fourth trump (1)"],
  ["estuche", "espada, mala and basto, the top three trumps; a privilege: they are not forced by a lower trump led (1, 5)"],
  ["heap", "the talon: the 13 cards not dealt, face down, drawn from in the exchange (2)"],
  ["mano", "forehand: the player after the dealer, who speaks first and leads to the first trick (2)"],
  ["paso", "pass: out of the auction (3)"],
  ["juego", "a bid (juego más: a higher one); the level is named only when the auction is won (3)"],
  ["entrada", "the lowest contract: the declarer names trumps and exchanges (3)"],
  ["vuelta", "the top card of the heap is turned and its suit is trump; the declarer exchanges (3)"],
  ["solo", "the declarer names trumps and does not exchange (3)"],
  ["espada forzada", "all passed: the holder of the espada must play an entrada (3)"],
  ["penetrar", "at four players when all pass and nobody holds the espada: the dealer takes 10 cards from the heap and plays (3, 12.2)"],
  ["vienen, como quiera, van", "the opponents' conversation on who exchanges first: I go first, either, you go first (4)"],
  ["yo sigo", "taking over a surrendered entrada or vuelta as the new declarer (6)"],
  ["primeras", "the declarer won the first five tricks and stopped there (6)"],
  ["bola", "playing on after the first five tricks to win all nine (6)"],
  ["sacado", "won: the declarer took more tricks than each opponent (7)"],
  ["puesta", "drawn, paid as a loss: nobody has more tricks than every other (7)"],
  ["codillo", "lost: an opponent took more tricks than every other player (7)"],
  ["tantos", "the units of the score (8)"],
  ["plato", "the pool being played for (8)"],
  ["pajaritos", "the dish of the players' initial stakes (8)"],
  ["condiciones", "payments between bowls for the contract and feats: vuelta, solo, estuche, primeras, bola (8)"],
];

function glossary() {
  return el("details", { class: "panel glossary", id: "glossary" },
    el("summary", {}, "Words of the game"),
    el("dl", {}, GLOSSARY.map(([t, d]) => [el("dt", {}, t), el("dd", {}, d)]).flat()));
}
