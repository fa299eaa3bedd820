//! An independent model of the four-player `tresillo` hand (RULES.md sections 2-7 for
//! n = 4 and section 12.2, penetro), written from the rule text alone, and random
//! whole hands replayed through both the engine's [`Hand`] and the model: at every
//! step the engine's request (whose turn, what kind, the bid floor, the discard
//! bounds, the legal cards) and every seat's hand must match the model, and at the
//! end the outcome, trick winners, declarer, surrender, penetro and drop-out, and
//! (when nobody took over) the condiciones the ledger pays, the inactive dealer's
//! included (section 8 with 12.2).

use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_pcg::Pcg64Mcg;
use tresillo_core::Question;
use tresillo_core::*;

const N: u8 = 4;

/// What the model expects next (seat and kind of the request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Bid,
    Declare,
    Discard,
    Word,
    Play,
    Surrender,
    TakeOver,
    Bola,
    Penetro,
    DropOut,
    Done,
}

fn kind_of(r: &Request) -> Step {
    match r {
        Request::Bid { .. } => Step::Bid,
        Request::Declare { .. } => Step::Declare,
        Request::Discard { .. } => Step::Discard,
        Request::Word { .. } => Step::Word,
        Request::Play { .. } => Step::Play,
        Request::Ask { question: Question::SURRENDER, .. } => Step::Surrender,
        Request::Ask { question: Question::TAKE_OVER, .. } => Step::TakeOver,
        Request::Ask { question: Question::BOLA, .. } => Step::Bola,
        Request::Penetro { .. } => Step::Penetro,
        Request::DropOut { .. } => Step::DropOut,
        Request::Done => Step::Done,
        other => panic!("a request four-player tresillo never makes: {other:?}"),
    }
}

fn rank(c: Card) -> u8 {
    c.rank().value()
}

fn is(c: Card, r: u8, s: Suit) -> bool {
    rank(c) == r && c.suit() == s
}

/// Section 1: the trump order, high to low.
fn trump_order(t: Suit) -> Vec<(u8, Suit)> {
    let mut v = vec![(1, Suit::Espadas)];
    if t.is_long() {
        v.push((2, t));
        v.push((1, Suit::Bastos));
        v.extend([12, 11, 10, 7, 6, 5, 4, 3].map(|r| (r, t)));
    } else {
        v.push((7, t));
        v.push((1, Suit::Bastos));
        v.extend([1, 12, 11, 10, 2, 3, 4, 5, 6].map(|r| (r, t)));
    }
    v
}

/// Section 1: a plain suit's order, high to low.
fn plain_order(s: Suit) -> Vec<u8> {
    if s.is_long() { vec![12, 11, 10, 7, 6, 5, 4, 3, 2] } else { vec![12, 11, 10, 1, 2, 3, 4, 5, 6, 7] }
}

fn is_trump(c: Card, t: Suit) -> bool {
    trump_order(t).iter().any(|&(r, s)| is(c, r, s))
}

/// The effective suit (section 5): every trump belongs to the trump suit.
fn eff(c: Card, t: Suit) -> Suit {
    if is_trump(c, t) { t } else { c.suit() }
}

/// Strength in a trick led with `led`: trumps above everything, then the suit led.
fn strength(c: Card, led: Card, t: Suit) -> i32 {
    let order = trump_order(t);
    if let Some(i) = order.iter().position(|&(r, s)| is(c, r, s)) {
        return 100 - i as i32;
    }
    if c.suit() == eff(led, t) {
        let p = plain_order(c.suit());
        return 50 - p.iter().position(|&r| r == rank(c)).unwrap() as i32;
    }
    0
}

/// Section 5: the cards a player holding `hand` may play to the trick so far.
fn legal(hand: CardSet, trick: &[(Seat, Card)], t: Suit) -> CardSet {
    let Some(&(_, led)) = trick.first() else { return hand };
    let l = eff(led, t);
    if l != t {
        let follow: CardSet = hand.iter().filter(|&c| eff(c, t) == l).collect();
        return if follow.is_empty() { hand } else { follow };
    }
    let order = trump_order(t);
    let pos = |c: Card| order.iter().position(|&(r, s)| is(c, r, s));
    let led_pos = pos(led).unwrap();
    let trumps: CardSet = hand.iter().filter(|&c| is_trump(c, t)).collect();
    let forced = trumps.iter().any(|c| {
        let p = pos(c).unwrap();
        p >= 3 || (led_pos < 3 && p > led_pos)
    });
    if forced { trumps } else { hand }
}

#[derive(Clone, Debug)]
struct Model {
    all_play: bool,
    dealer: Seat,
    hands: [CardSet; 4],
    /// The heap, top first.
    heap: Vec<Card>,
    step: Step,
    turn: Seat,
    // auction
    passed: [bool; 4],
    standing: u8,
    holder: Option<Seat>,
    // contract
    declarer: Option<Seat>,
    original: Option<Seat>,
    forced: bool,
    contract: Option<Contract>,
    trump: Option<Suit>,
    penetro: bool,
    dropped: Option<Seat>,
    drop_words: Vec<(Seat, DropWord)>,
    // exchange
    discard_bounds: (u8, u8),
    exchangers: Vec<Seat>,
    words: Vec<(Seat, Word)>,
    speakers: [Seat; 2],
    first_opponent: Option<Seat>,
    // play
    trick: Vec<(Seat, Card)>,
    winners: Vec<Seat>,
    tricks: [u8; 4],
    surrender: Option<(Seat, Option<Seat>)>,
    takeover_asked: Vec<Seat>,
    primeras: bool,
    estuche: bool,
    bola: bool,
    outcome: Option<Outcome>,
}

impl Model {
    fn new(deal: &Deal, dealer: Seat, all_play: bool) -> Model {
        Model {
            all_play,
            dealer,
            hands: deal.hands.0,
            heap: deal.heap.cards().to_vec(),
            step: Step::Bid,
            turn: dealer.next(N), // mano opens the auction (section 3)
            passed: [false; 4],
            standing: 0,
            holder: None,
            declarer: None,
            original: None,
            forced: false,
            contract: None,
            trump: None,
            penetro: false,
            dropped: None,
            drop_words: Vec::new(),
            discard_bounds: (0, 0),
            exchangers: Vec::new(),
            words: Vec::new(),
            speakers: [dealer; 2],
            first_opponent: None,
            trick: Vec::new(),
            winners: Vec::new(),
            tricks: [0; 4],
            surrender: None,
            takeover_asked: Vec::new(),
            primeras: false,
            estuche: false,
            bola: false,
            outcome: None,
        }
    }

    fn mano(&self) -> Seat {
        self.dealer.next(N)
    }

    /// Seats that play cards: the three active players, or in a penetro the dealer
    /// and everybody who did not drop out.
    fn playing(&self, s: Seat) -> bool {
        if self.penetro { Some(s) != self.dropped } else { s != self.dealer }
    }

    fn next_playing(&self, s: Seat) -> Seat {
        let mut t = s.next(N);
        while !self.playing(t) {
            t = t.next(N);
        }
        t
    }

    /// The declarer's opponents, in turn order from the declarer.
    fn opponents(&self) -> Vec<Seat> {
        let d = self.declarer.unwrap();
        (1..N).map(|k| d.plus(k, N)).filter(|&s| self.playing(s)).collect()
    }

    /// The minimum bid for `s` (section 3: an earlier seat may equal).
    fn min_level(&self, s: Seat) -> u8 {
        match self.holder {
            None => 1,
            Some(h) => {
                let pr = |x: Seat| (x.0 + N - self.mano().0) % N;
                if pr(s) < pr(h) { self.standing } else { self.standing + 1 }
            }
        }
    }

    fn draw(&mut self, s: Seat, discard: CardSet) {
        let k = discard.len() as usize;
        assert!(self.hands[s.index()].is_superset(discard));
        self.hands[s.index()] = self.hands[s.index()].without(discard);
        for c in self.heap.drain(..k) {
            self.hands[s.index()].insert(c);
        }
    }

    fn start_conversation(&mut self) {
        let opp = self.opponents();
        self.speakers = [opp[0], opp[1]];
        self.words.clear();
        self.step = Step::Word;
        self.turn = opp[0];
    }

    fn start_exchanges(&mut self, order: Vec<Seat>) {
        self.exchangers = order;
        self.next_exchange();
    }

    fn next_exchange(&mut self) {
        if self.exchangers.is_empty() {
            self.start_play();
            return;
        }
        let s = self.exchangers.remove(0);
        let max = (self.heap.len() as u8).min(self.hands[s.index()].len() as u8);
        self.discard_bounds = (0, max);
        self.step = Step::Discard;
        self.turn = s;
    }

    fn start_play(&mut self) {
        let t = self.trump.unwrap();
        let top3 = &trump_order(t)[..3];
        let d = self.hands[self.declarer.unwrap().index()];
        self.estuche = top3.iter().all(|&(r, su)| d.iter().any(|c| is(c, r, su)));
        self.step = Step::Play;
        self.turn = if self.playing(self.mano()) { self.mano() } else { self.next_playing(self.mano()) };
    }

    fn finish(&mut self) {
        let d = self.declarer.unwrap();
        let dt = self.tricks[d.index()];
        let opp: Vec<u8> = self.opponents().iter().map(|s| self.tricks[s.index()]).collect();
        let opp_seats = self.opponents();
        self.outcome = Some(if opp.iter().all(|&o| dt > o) {
            Outcome::Sacado
        } else if let Some(i) =
            (0..opp.len()).find(|&i| dt < opp[i] && (0..opp.len()).all(|j| j == i || opp[j] < opp[i]))
        {
            Outcome::Codillo { winner: opp_seats[i] }
        } else if opp.len() == 2 && dt == 3 {
            Outcome::Puesta { kind: PuestaKind::Sabia }
        } else if opp.len() == 2 && dt == 1 {
            Outcome::Puesta { kind: PuestaKind::Real }
        } else {
            Outcome::Puesta { kind: PuestaKind::Plain }
        });
        self.step = Step::Done;
    }

    fn after_trick(&mut self) {
        let n = self.winners.len();
        let d = self.declarer.unwrap();
        if n == 9 {
            self.finish();
        } else if n == 3
            && self.surrender.is_none()
            && !self.penetro
            && matches!(self.contract, Some(Contract::Entrada | Contract::Vuelta))
        {
            self.step = Step::Surrender;
            self.turn = d;
        } else if n == 5 && self.winners.iter().all(|&w| w == d) {
            self.step = Step::Bola;
            self.turn = d;
        }
    }

    fn apply(&mut self, dec: Decision) {
        let s = self.turn;
        match (self.step, dec) {
            (Step::Bid, Decision::Bid(b)) => {
                match b {
                    Bid::Paso => self.passed[s.index()] = true,
                    Bid::Level(l) => {
                        self.standing = l;
                        self.holder = Some(s);
                    }
                }
                let left: Vec<Seat> =
                    (1..N).map(|k| self.dealer.plus(k, N)).filter(|x| !self.passed[x.index()]).collect();
                if left.is_empty() {
                    // Section 3 / 12.2: all passed.
                    let espada = (0..N).map(Seat).find(|x| {
                        *x != self.dealer && self.hands[x.index()].iter().any(|c| is(c, 1, Suit::Espadas))
                    });
                    match espada {
                        Some(x) => {
                            self.forced = true;
                            self.declarer = Some(x);
                            self.step = Step::Declare;
                            self.turn = x;
                        }
                        None => {
                            self.penetro = true;
                            self.declarer = Some(self.dealer);
                            self.step = Step::Penetro;
                            self.turn = self.dealer;
                        }
                    }
                } else if left.len() == 1 && self.holder == Some(left[0]) {
                    self.declarer = Some(left[0]);
                    self.step = Step::Declare;
                    self.turn = left[0];
                } else {
                    let mut t = s.next(N);
                    while t == self.dealer || self.passed[t.index()] {
                        t = t.next(N);
                    }
                    self.turn = t;
                }
                self.original = self.declarer;
            }
            (Step::Penetro, Decision::Penetro(end)) => {
                let taken: Vec<Card> = match end {
                    HeapEnd::Top => self.heap.drain(..10).collect(),
                    HeapEnd::Bottom => self.heap.drain(3..).collect(),
                };
                self.hands[s.index()] = taken.into_iter().collect();
                self.step = Step::Surrender;
            }
            (Step::Declare, Decision::Declare(c, suit)) => {
                self.contract = Some(c);
                if self.penetro {
                    assert!(suit.is_some(), "the penetrating dealer names trumps");
                    self.trump = suit;
                    self.discard_bounds = (1, 1);
                    self.step = Step::Discard;
                    return;
                }
                if self.forced {
                    assert_eq!(c, Contract::Entrada, "espada forzada is an entrada");
                }
                self.trump = match c {
                    Contract::Vuelta => Some(self.heap[0].suit()),
                    _ => suit,
                };
                if c == Contract::Solo {
                    self.start_conversation();
                } else {
                    self.discard_bounds = (u8::from(c == Contract::Vuelta), 9);
                    self.step = Step::Discard;
                }
            }
            (Step::Discard, Decision::Discard(cards)) => {
                let first_discard = self.exchangers.is_empty() && self.first_opponent.is_none();
                if self.penetro && s == self.dealer {
                    // Names trumps and discards one card, draws none.
                    self.hands[s.index()] = self.hands[s.index()].without(cards);
                    if self.all_play {
                        let order = (1..N).map(|k| self.dealer.plus(k, N)).collect();
                        self.start_exchanges(order);
                    } else {
                        self.step = Step::DropOut;
                        self.turn = self.mano();
                    }
                } else if !self.penetro && s == self.declarer.unwrap() && first_discard {
                    self.draw(s, cards);
                    self.start_conversation();
                } else {
                    self.draw(s, cards);
                    self.next_exchange();
                }
            }
            (Step::Surrender, Decision::Answer(Question::SURRENDER, give_up))
                if self.penetro && self.winners.is_empty() =>
            {
                if give_up {
                    self.surrender = Some((s, None));
                    self.outcome = Some(Outcome::Puesta { kind: PuestaKind::Surrendered });
                    self.step = Step::Done;
                } else {
                    self.step = Step::Declare;
                }
            }
            (Step::Surrender, Decision::Answer(Question::SURRENDER, give_up)) => {
                if give_up {
                    self.surrender = Some((s, None));
                    self.takeover_asked = self.opponents();
                    self.step = Step::TakeOver;
                    self.turn = self.takeover_asked.remove(0);
                } else {
                    self.surrender = Some((s, Some(s))); // marker: the moment has passed
                    self.step = Step::Play;
                    self.turn = *self.winners.last().unwrap();
                }
            }
            (Step::TakeOver, Decision::Answer(Question::TAKE_OVER, yes)) => {
                if yes {
                    let by = self.surrender.unwrap().0;
                    self.surrender = Some((by, Some(s)));
                    self.declarer = Some(s);
                    self.step = Step::Play;
                    self.turn = *self.winners.last().unwrap();
                } else if self.takeover_asked.is_empty() {
                    self.outcome = Some(Outcome::Puesta { kind: PuestaKind::Surrendered });
                    self.step = Step::Done;
                } else {
                    self.turn = self.takeover_asked.remove(0);
                }
            }
            (Step::Bola, Decision::Answer(Question::BOLA, on)) => {
                if on {
                    self.bola = true;
                    self.step = Step::Play;
                    self.turn = *self.winners.last().unwrap();
                } else {
                    self.primeras = true;
                    self.outcome = Some(Outcome::Sacado);
                    self.step = Step::Done;
                }
            }
            (Step::DropOut, Decision::DropOut(w)) => {
                self.drop_words.push((s, w));
                let out = if w == DropWord::MeVoy {
                    Some(s)
                } else if self.drop_words.len() == 3 {
                    Some(
                        self.drop_words
                            .iter()
                            .rev()
                            .find(|(_, w)| *w == DropWord::PuedoIrme)
                            .map_or(s, |&(x, _)| x),
                    )
                } else {
                    None
                };
                match out {
                    Some(x) => {
                        self.dropped = Some(x);
                        self.start_conversation();
                    }
                    None => self.turn = s.next(N),
                }
            }
            (Step::Word, Decision::Word(w)) => {
                self.words.push((s, w));
                let [a, b] = self.speakers;
                let latest = |x: Seat| self.words.iter().rev().find(|(y, _)| *y == x).map(|&(_, w)| w);
                let first = match (latest(a), latest(b)) {
                    (Some(wa), Some(wb)) => agree(wa, wb).map(|a_first| if a_first { a } else { b }),
                    _ => None,
                };
                let first = first.or((self.words.len() == 6).then_some(a));
                match first {
                    Some(f) => {
                        self.first_opponent = Some(f);
                        let second = if f == a { b } else { a };
                        self.start_exchanges(vec![f, second]);
                    }
                    None => self.turn = if s == a { b } else { a },
                }
            }
            (Step::Play, Decision::Play(c)) => {
                let t = self.trump.unwrap();
                assert!(legal(self.hands[s.index()], &self.trick, t).contains(c));
                self.hands[s.index()] = self.hands[s.index()].remove(c);
                self.trick.push((s, c));
                let size = (0..N).map(Seat).filter(|&x| self.playing(x)).count();
                if self.trick.len() == size {
                    let led = self.trick[0].1;
                    let &(w, _) = self.trick.iter().max_by_key(|&&(_, c)| strength(c, led, t)).unwrap();
                    self.trick.clear();
                    self.winners.push(w);
                    self.tricks[w.index()] += 1;
                    self.turn = w;
                    self.after_trick();
                } else {
                    self.turn = self.next_playing(s);
                }
            }
            (step, d) => panic!("model at {step:?} got {d:?}"),
        }
    }
}

/// Section 8's condiciones (with section 12.2: the inactive dealer, or the player
/// who dropped out, pays and receives like the others) for a hand nobody took over:
/// what each seat receives.
fn condiciones(m: &Model) -> [i64; 4] {
    let d = m.declarer.unwrap();
    let won = m.outcome == Some(Outcome::Sacado);
    let contract = match m.contract {
        Some(Contract::Vuelta) => 1,
        Some(Contract::Solo) => 2,
        _ => 0,
    };
    let mut each = contract + i64::from(m.penetro);
    if won {
        each += i64::from(m.estuche) + i64::from(m.primeras);
    } else {
        each = -each;
    }
    if m.bola {
        each += if m.winners.len() == 9 && m.winners.iter().all(|&w| w == d) { 8 } else { -8 };
    }
    let mut c = [-each; 4];
    c[d.index()] = 3 * each;
    c
}

/// Section 8, case 1 (the first hand of a ledger: the plato holds the dealer's
/// pajarito and tanto, 6; AIP = 6 + n = 10) for a hand nobody took over: each
/// bowl's change other than condiciones.
fn pool_first_hand(m: &Model) -> [i64; 4] {
    let d = m.declarer.unwrap().index();
    let mut p = [0i64; 4];
    p[m.dealer.index()] -= 1; // the dealer's tanto
    match m.outcome.unwrap() {
        Outcome::Sacado => {
            for (i, x) in p.iter_mut().enumerate() {
                *x += if i == d { 6 + 3 } else { -1 };
            }
        }
        Outcome::Puesta { .. } => p[d] -= 10,
        Outcome::Codillo { winner } => {
            p[d] -= 20;
            p[winner.index()] += 10;
        }
        Outcome::Cancelled => unreachable!("a four-player hand is never cancelled"),
    }
    p
}

/// Section 4 step 3: `Some(true)` if the pair of latest statements is an agreement
/// with `a` first, `Some(false)` with `b` first, `None` if they go on.
fn agree(a: Word, b: Word) -> Option<bool> {
    use Word::*;
    match (a, b) {
        (Vienen, Van) | (Vienen, ComoQuiera) | (ComoQuiera, Van) => Some(true),
        (Van, Vienen) | (ComoQuiera, Vienen) | (Van, ComoQuiera) => Some(false),
        _ => None,
    }
}

fn shuffled(rng: &mut Pcg64Mcg) -> [Card; 40] {
    let mut v: Vec<Card> = Card::all().collect();
    v.shuffle(rng);
    v.try_into().unwrap()
}

/// Plays one random hand through the engine and the model; returns which paths it
/// took (see [`PATHS`]).
fn replay(seed: u64, all_play: bool) -> [bool; PATHS.len()] {
    let rules = if all_play {
        Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap()
    } else {
        Rules::default()
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let dealer = Seat(rng.random_range(0..N));
    let deal =
        Deal::from_pack(&shuffled(&mut rng)).unwrap().seated(tresillo_core::Table::FOUR_WITH_PENETRO, dealer);
    let mut h = Hand::with_rules(rules, 4, deal, dealer).unwrap();
    let mut m = Model::new(&deal, dealer, all_play);
    let pass = [0.5, 0.8, 0.95][rng.random_range(0..3)];
    for step in 0.. {
        assert!(step < 300, "seed {seed}: the hand does not end");
        let req = h.request();
        let ctx = || format!("seed {seed} all_play {all_play} step {step}: engine {req:?}, model {m:?}");
        assert_eq!(kind_of(&req), m.step, "{}", ctx());
        for s in 0..N {
            assert_eq!(h.hand_of(Seat(s)), m.hands[s as usize], "hand of seat {s}; {}", ctx());
        }
        let Some(seat) = req.seat() else { break };
        assert_eq!(seat, m.turn, "{}", ctx());
        let mask = (0..N).filter(|&x| m.playing(Seat(x))).fold(0u8, |a, x| a | (1 << x));
        assert_eq!(h.public().playing(), mask, "seats that play; {}", ctx());
        match req {
            Request::Bid { min_level, max_level, .. } => {
                assert_eq!((min_level, max_level), (m.min_level(seat), 3), "{}", ctx());
            }
            // The penetrating dealer names trumps (an entrada in any suit), nothing else.
            Request::Declare { .. } if m.penetro => {
                let named = Suit::ALL.map(|t| Decision::Declare(Contract::Entrada, Some(t)));
                assert_eq!(req.legal_decisions_in(&rules, h.hand_of(seat)), named, "{}", ctx());
            }
            // The penetrating dealer only names trumps: the engine asks as for a
            // forced entrada (contract fixed, suit free).
            Request::Declare { forced, .. } => assert_eq!(forced, m.forced || m.penetro, "{}", ctx()),
            Request::Discard { min, max, .. } => assert_eq!((min, max), m.discard_bounds, "{}", ctx()),
            Request::Play { legal: l, .. } => {
                assert_eq!(l, legal(m.hands[seat.index()], &m.trick, m.trump.unwrap()), "{}", ctx());
            }
            _ => {}
        }
        let d = match req {
            Request::Bid { .. } if rng.random_bool(pass) => Decision::Bid(Bid::Paso),
            Request::Discard { min, max, .. } => {
                let mut cards: Vec<Card> = h.hand_of(seat).iter().collect();
                cards.shuffle(&mut rng);
                let k = rng.random_range(min..=max) as usize;
                Decision::Discard(cards[..k].iter().copied().collect())
            }
            // Surrender and takeover are rare choices: try each both ways sometimes.
            Request::Ask { question: Question::SURRENDER, .. } => {
                Decision::Answer(Question::SURRENDER, rng.random_bool(0.3))
            }
            _ => {
                let all = req.legal_decisions_in(&rules, h.hand_of(seat));
                all[rng.random_range(0..all.len())]
            }
        };
        h.apply(d).unwrap_or_else(|e| panic!("{d:?} rejected: {e}; {}", ctx()));
        m.apply(d);
    }
    let r = h.result().unwrap();
    let ctx = format!("seed {seed} all_play {all_play}: {r:?}\nmodel {m:?}");
    assert_eq!(r.penetro, m.penetro, "{ctx}");
    assert_eq!(r.declarer, m.original, "{ctx}");
    assert_eq!(r.forced, m.forced, "{ctx}");
    assert_eq!(r.dropped_out, m.dropped, "{ctx}");
    assert_eq!(r.trick_winners, m.winners, "{ctx}");
    assert_eq!(r.tricks.0, m.tricks, "{ctx}");
    assert_eq!(r.primeras, m.primeras, "{ctx}");
    let sur = m.surrender.filter(|&(by, took)| took != Some(by));
    assert_eq!(r.surrender.map(|x| (x.by, x.took_over)), sur, "{ctx}");
    if !(m.penetro && m.all_play) {
        assert_eq!(r.first_opponent, m.first_opponent, "{ctx}");
    }
    assert_eq!(Some(r.outcome), m.outcome, "{ctx}");
    if sur.is_none_or(|(_, took)| took.is_none()) {
        let mut ledger = Ledger::new(LedgerConfig::with_rules(rules, 4)).unwrap();
        let score = ledger.apply(&r).unwrap_or_else(|e| panic!("{e}; {ctx}"));
        assert_eq!(r.estuche, m.estuche, "{ctx}");
        assert_eq!(score.condiciones.0, condiciones(&m), "condiciones; {ctx}");
        assert_eq!(score.aip, 10, "first hand: AIP = plato (pajarito 5 + tanto 1) + n; {ctx}");
        assert_eq!(score.pool.0, pool_first_hand(&m), "pool; {ctx}");
    }
    let gave_up = m.penetro && m.winners.is_empty();
    let words = &m.drop_words;
    let played = m.penetro && !gave_up;
    [
        m.penetro,
        gave_up,
        played && all_play,
        played && words.last().is_some_and(|w| w.1 == DropWord::MeVoy),
        played
            && words.len() == 3
            && words.iter().all(|w| w.1 != DropWord::MeVoy)
            && m.dropped != Some(words[2].0),
        played
            && words.len() == 3
            && words.iter().all(|w| w.1 != DropWord::MeVoy && w.1 != DropWord::PuedoIrme),
        played && m.dropped == Some(m.mano()) && !m.winners.is_empty(),
        played && matches!(m.outcome, Some(Outcome::Codillo { .. })),
        played && m.winners.len() >= 5 && m.winners[..5].iter().all(|&w| w == m.dealer),
        m.forced,
        matches!(m.surrender, Some((by, Some(t))) if by != t),
        !m.penetro && m.outcome == Some(Outcome::Puesta { kind: PuestaKind::Surrendered }),
    ]
}

/// The paths [`replay`] reports, each of which the test must see.
const PATHS: [&str; 12] = [
    "penetro",
    "penetro given up",
    "penetro played against three",
    "dropped out by me voy",
    "dropped out by the last puedo irme (not the last speaker)",
    "dropped out as the last speaker (no puedo irme)",
    "mano dropped out and the next active player led",
    "penetro lost by codillo",
    "penetro: the dealer won the first five (bola asked)",
    "espada forzada",
    "surrender taken over",
    "surrender, nobody took over",
];

/// Hands replayed (half of them under `penetro_all_play`).
const HANDS: u64 = 12_000;

#[test]
fn random_four_player_hands_agree_with_a_model_written_from_the_rules() {
    let mut counts = [0u32; PATHS.len()];
    for seed in 0..HANDS / 2 {
        for all_play in [false, true] {
            for (n, took) in counts.iter_mut().zip(replay(seed, all_play)) {
                *n += u32::from(took);
            }
        }
    }
    let seen: Vec<(&str, u32)> = PATHS.iter().copied().zip(counts).collect();
    eprintln!("{HANDS} hands: {seen:?}");
    // Every path was exercised several times.
    assert!(counts.iter().all(|&n| n >= 5), "{seen:?}");
}
