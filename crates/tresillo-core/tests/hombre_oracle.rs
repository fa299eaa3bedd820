//! An independent check of `hombre` points scoring (RULES.md section 12.3): a
//! separate model of the points rules, written from the rule text alone, scores
//! whole sessions of hands played by the engine with random legal decisions, and
//! must agree with the engine's [`Scorer`] after every hand and at the end of the
//! session (the `deals` end rule pays out the pot).

use tresillo_core::Question;
use tresillo_core::*;

/// The facts of a finished `hombre` hand that points scoring reads.
struct Facts {
    /// The original declarer.
    declarer: usize,
    /// The final declarer (the one who took over, else the original).
    final_declarer: usize,
    contract: Contract,
    trump: Option<Suit>,
    /// All passed: obligation (or gascarille).
    obligation: bool,
    gascarille: bool,
    tricks: [u8; 3],
    primeras: bool,
    vole_attempted: bool,
    vole_made: bool,
    vole_declared: bool,
    /// The declarer gave up; `Some(taker)` if an opponent took over.
    surrender: Option<Option<usize>>,
    favorito: bool,
    dealer: usize,
}

impl Facts {
    fn of(r: &HandResult) -> Facts {
        let d = r.declarer.expect("hombre hands are never cancelled").0 as usize;
        let sur = r.surrender.map(|s| s.took_over.map(|t| t.0 as usize));
        Facts {
            declarer: d,
            final_declarer: sur.flatten().unwrap_or(d),
            contract: r.contract.expect("a contract"),
            trump: r.trump,
            obligation: r.forced,
            gascarille: r.gascarille,
            tricks: [r.tricks.0[0], r.tricks.0[1], r.tricks.0[2]],
            primeras: r.primeras,
            vole_attempted: r.bola_attempted,
            vole_made: r.bola_made,
            vole_declared: r.vole_declared,
            surrender: sur,
            favorito: r.game_rules().flag(&FAVORITO),
            dealer: r.dealer.0 as usize,
        }
    }
}

/// How a hand ended for the final declarer, from the trick counts (section 7),
/// or, for a contrabola, from whether the declarer took no trick.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Won,
    Puesta,
    Codillo(usize),
}

fn result_by_tricks(t: [u8; 3], d: usize) -> Res {
    let others: Vec<usize> = (0..3).filter(|&s| s != d).collect();
    if others.iter().all(|&o| t[d] > t[o]) {
        return Res::Won;
    }
    for &o in &others {
        if (0..3).filter(|&s| s != o).all(|s| t[o] > t[s]) {
            return Res::Codillo(o);
        }
    }
    Res::Puesta
}

/// The model's ledger: scores and the pot column.
#[derive(Default, Debug)]
struct Model {
    score: [i64; 3],
    pot: i64,
    /// Who takes the pot at the end if the last hand ended now: the winner, or the
    /// two opponents of a puesta's declarer.
    last: Option<Res>,
    last_declarer: usize,
    last_dealer: usize,
}

impl Model {
    /// Base value in points, doubled under `favorito` with coins as trumps.
    fn base(f: &Facts) -> i64 {
        let b = if f.gascarille {
            3
        } else if f.obligation {
            1
        } else {
            match f.contract {
                Contract::Entrada | Contract::Contrabola => 2,
                Contract::Vuelta => 3,
                Contract::Solo => 5,
                other => unreachable!("{other:?} is not a hombre contract"),
            }
        };
        if f.favorito && f.trump == Some(Suit::Oros) { 2 * b } else { b }
    }

    fn lose(&mut self, d: usize, v: i64, res: Res) {
        self.score[d] -= v;
        match res {
            Res::Codillo(w) => self.score[w] += v,
            Res::Puesta => self.pot += v,
            Res::Won => {}
        }
    }

    fn take_pot(&mut self, s: usize) {
        self.score[s] += self.pot;
        self.pot = 0;
    }

    fn apply(&mut self, f: &Facts) {
        let b = Self::base(f);
        let d = f.declarer;
        self.last_dealer = f.dealer;
        // A surrender: the original declarer loses the base as for a puesta.
        if let Some(taker) = f.surrender {
            self.lose(d, b, Res::Puesta);
            if taker.is_none() {
                self.last = Some(Res::Puesta);
                self.last_declarer = d;
                return;
            }
        }
        let fd = f.final_declarer;
        let res = if f.contract == Contract::Contrabola {
            if f.tricks[fd] == 0 { Res::Won } else { Res::Puesta }
        } else {
            result_by_tricks(f.tricks, fd)
        };
        self.last_declarer = fd;
        if f.vole_declared && !f.vole_made {
            // A failed declared vole is a lost game: with no codillo winner the
            // opponents share the pot if it is the session's last hand.
            self.lose(fd, 8 * b, res);
            self.last = Some(if res == Res::Won { Res::Puesta } else { res });
            return;
        }
        match res {
            Res::Won => {
                let mult = if f.vole_made {
                    if f.vole_declared { 8 } else { 4 }
                } else if f.primeras {
                    2
                } else {
                    let mut o: Vec<u8> = (0..3).filter(|&s| s != fd).map(|s| f.tricks[s]).collect();
                    o.sort_unstable();
                    if f.tricks[fd] == 4 && o == [2, 3] { 2 } else { 1 }
                };
                self.score[fd] += b * mult;
                if f.vole_attempted && !f.vole_made {
                    // A failed undeclared vole: won as the contract, then loses x4.
                    self.score[fd] -= 4 * b;
                }
                if f.contract == Contract::Solo || f.vole_made {
                    self.take_pot(fd);
                }
            }
            lost => self.lose(fd, b, lost),
        }
        self.last = Some(res);
    }

    /// The end of the session: the pot goes to the last hand's winner, or is
    /// shared by the two opponents of a puesta, the odd point to the earlier one in
    /// turn order (priority as in section 3: mano, medio, postre).
    fn end(&mut self) {
        match self.last.expect("a hand was played") {
            Res::Won => self.take_pot(self.last_declarer),
            Res::Codillo(w) => self.take_pot(w),
            Res::Puesta => {
                let mut opp =
                    (1..=3).map(|k| (self.last_dealer + k) % 3).filter(|&s| s != self.last_declarer);
                let (a, b) = (opp.next().unwrap(), opp.next().unwrap());
                let half = self.pot / 2;
                self.score[a] += self.pot - half;
                self.score[b] += half;
                self.pot = 0;
            }
        }
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The nine top trumps with coins as trumps: a hand that wins every trick.
const TOP_COINS: &str = "1E 7O 1B 1O 12O 11O 10O 2O 3O";

/// A random deal; when `rigged`, `mano` holds [`TOP_COINS`].
fn deal(rng: &mut Rng, rigged: Option<u8>) -> Deal {
    let mut cards: Vec<Card> = Card::all().collect();
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i + 1));
    }
    if let Some(mano) = rigged {
        let top: Vec<Card> = TOP_COINS.split(' ').map(|c| parse_card(c).unwrap()).collect();
        cards.retain(|c| !top.contains(c));
        let at = 9 * mano as usize;
        cards.splice(at..at, top);
    }
    let hands = BySeat([
        cards[0..9].iter().copied().collect(),
        cards[9..18].iter().copied().collect(),
        cards[18..27].iter().copied().collect(),
        CardSet::EMPTY,
    ]);
    Deal { hands, heap: Heap::from_cards(&cards[27..]) }
}

/// Plays one hand with random legal decisions; yes/no decisions that make rare
/// events (surrender, takeover, vole) are taken often enough to be met.
/// Every eighth hand mano is dealt [`TOP_COINS`], bids the highest level, names
/// coins and keeps the hand, so that made voles are met too.
fn play(r: Rules, dealer: u8, rng: &mut Rng) -> HandResult {
    let mano = (dealer + 1) % 3;
    let rigged = rng.below(8) == 0;
    let mut h = Hand::with_rules(r, 3, deal(rng, rigged.then_some(mano)), Seat(dealer)).unwrap();
    while !h.is_done() {
        let seat = h.request().seat().unwrap();
        let legal = h.view(seat).legal_decisions();
        let yes = |pct: u64, rng: &mut Rng| rng.next() % 100 < pct;
        let strong = rigged && seat.0 == mano;
        let best_bid =
            legal.iter().copied().filter(|d| matches!(d, Decision::Bid(_))).max_by_key(|d| match d {
                Decision::Bid(Bid::Level(l)) => *l,
                _ => 0,
            });
        let coins =
            legal.iter().copied().find(|d| matches!(d, Decision::Declare(Contract::Solo, Some(Suit::Oros))));
        let d = match legal[0] {
            Decision::Bid(_) if strong => best_bid.unwrap(),
            Decision::Declare(..) if strong && coins.is_some() => coins.unwrap(),
            Decision::Answer(Question::DECLARE_VOLE, _) => {
                Decision::Answer(Question::DECLARE_VOLE, yes(5, rng))
            }
            Decision::Answer(Question::SURRENDER, _) => Decision::Answer(Question::SURRENDER, yes(30, rng)),
            Decision::Answer(Question::TAKE_OVER, _) => Decision::Answer(Question::TAKE_OVER, yes(60, rng)),
            Decision::Answer(Question::ACCEPT_SURRENDER, _) => {
                Decision::Answer(Question::ACCEPT_SURRENDER, yes(70, rng))
            }
            _ => legal[rng.below(legal.len())],
        };
        assert!(legal.contains(&d), "{d:?} not in {legal:?}");
        h.apply(d).unwrap();
    }
    h.result().unwrap()
}

/// Counts of the situations met, so that the test fails if the driver stops
/// reaching them.
#[derive(Default, Debug)]
struct Seen {
    won: u32,
    puesta: u32,
    codillo: u32,
    obligation: u32,
    primeras: u32,
    vole_made: u32,
    vole_failed: u32,
    vole_declared: u32,
    surrender: u32,
    takeover: u32,
    solo_won: u32,
    cuatro: u32,
}

impl Seen {
    fn count(&mut self, f: &Facts) {
        let fd = f.final_declarer;
        match result_by_tricks(f.tricks, fd) {
            Res::Won => self.won += 1,
            Res::Puesta => self.puesta += 1,
            Res::Codillo(_) => self.codillo += 1,
        }
        self.obligation += u32::from(f.obligation);
        self.primeras += u32::from(f.primeras);
        self.vole_made += u32::from(f.vole_made);
        self.vole_failed += u32::from(f.vole_attempted && !f.vole_made);
        self.vole_declared += u32::from(f.vole_declared);
        self.surrender += u32::from(f.surrender.is_some());
        self.takeover += u32::from(matches!(f.surrender, Some(Some(_))));
        self.solo_won +=
            u32::from(f.contract == Contract::Solo && result_by_tricks(f.tricks, fd) == Res::Won);
        let mut o: Vec<u8> = (0..3).filter(|&s| s != fd).map(|s| f.tricks[s]).collect();
        o.sort_unstable();
        self.cuatro += u32::from(f.tricks[fd] == 4 && o == [2, 3]);
    }
}

fn run(opts: &[(&str, &str)], sessions: u32, deals: u32, seed: u64) -> Seen {
    let rules = Rules::parse("hombre", opts).unwrap();
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    for s in 0..sessions {
        let mut config = LedgerConfig::with_rules(rules, 3);
        config.deals = deals;
        let mut scorer = Scorer::new(ScoringMode::Session, config).unwrap();
        let mut model = Model::default();
        let mut dealer = (s % 3) as u8;
        for k in 0..deals {
            let r = play(rules, dealer, &mut rng);
            let f = Facts::of(&r);
            seen.count(&f);
            scorer.apply(&r).unwrap();
            model.apply(&f);
            if k + 1 == deals {
                model.end();
            }
            let p = scorer.points().unwrap();
            assert_eq!(
                (p.scores(), p.pot()),
                (&model.score[..], model.pot),
                "{rules} session {s} hand {k}: engine vs model\n{r:?}"
            );
            dealer = p.next_dealer().unwrap().0;
        }
        assert!(scorer.points().unwrap().is_over());
    }
    seen
}

/// Whole sessions of random hands under the default options: the engine's points
/// ledger equals the model after every hand and at the end of each session.
#[test]
fn hombre_points_agree_with_a_separate_model_over_random_sessions() {
    let seen = run(&[], 400, 8, 0x5EED_0001);
    assert!(seen.won > 0 && seen.puesta > 0 && seen.codillo > 0, "{seen:?}");
    assert!(seen.obligation > 0 && seen.surrender > 0 && seen.takeover > 0, "{seen:?}");
    assert!(seen.primeras > 0 && seen.vole_failed > 0 && seen.vole_declared > 0, "{seen:?}");
    assert!(seen.solo_won > 0 && seen.cuatro > 0 && seen.vole_made > 0, "{seen:?}");
}

/// The same with every option that changes points: `favorito`, `gascarille`,
/// `contrabola`.
#[test]
fn hombre_points_with_options_agree_with_a_separate_model() {
    let opts = [("favorito", "true"), ("gascarille", "true"), ("contrabola", "true")];
    let seen = run(&opts, 300, 8, 0x5EED_0002);
    assert!(seen.won > 0 && seen.puesta > 0 && seen.obligation > 0, "{seen:?}");
}

/// RULES.md section 12.3: "A failed undeclared vole is won as the contract" and
/// "the pot goes to the next player who wins a solo": a solo won with a failed
/// undeclared vole takes the pot (found by the model above: the engine left it).
#[test]
fn points_a_failed_undeclared_vole_in_solo_is_a_won_solo_and_takes_the_pot() {
    let mut config = LedgerConfig::with_rules(RuleSet::HOMBRE.into(), 3);
    config.deals = 0;
    let mut l = PointsLedger::new(config).unwrap();
    let mut r = table_result(3, Seat(0), Seat(1), Contract::Vuelta, &[3, 3, 3]);
    r.rules = RuleSet::HOMBRE;
    l.apply(&r).unwrap();
    assert_eq!((l.scores(), l.pot()), (&[0, -3, 0][..], 3));
    let mut r = table_result(3, Seat(1), Seat(2), Contract::Solo, &[1, 1, 7]);
    r.rules = RuleSet::HOMBRE;
    r.bola_attempted = true;
    let s = l.apply(&r).unwrap();
    assert_eq!((s.condiciones.0[2], s.pool.0[2]), (5 - 20, 3));
    assert_eq!((l.scores(), l.pot()), (&[0, -3, -12][..], 0));
}

// ------------------------------------------------------------ chips (`hombre-chips`)

/// The trump order of `trump`, high to low, in notation (RULES.md section 1).
fn trump_order(trump: Suit) -> Vec<Card> {
    let x = match trump {
        Suit::Espadas => "E",
        Suit::Bastos => "B",
        Suit::Copas => "C",
        Suit::Oros => "O",
    };
    let ranks: &[&str] = if matches!(trump, Suit::Espadas | Suit::Bastos) {
        &["2", "B", "12", "11", "10", "7", "6", "5", "4", "3"]
    } else {
        &["7", "B", "1", "12", "11", "10", "2", "3", "4", "5", "6"]
    };
    let mut v = vec![parse_card("1E").unwrap()];
    for r in ranks {
        let c = if *r == "B" { "1B".to_string() } else { format!("{r}{x}") };
        v.push(parse_card(&c).unwrap());
    }
    v
}

/// The estuches of declarer `d` (section 12.3, chips): the top trumps in unbroken
/// sequence from the espada that `d` held when play began (at least three), or,
/// when `d` held none of them, those the opponents held (at least three).
fn chip_estuches(r: &HandResult, d: usize) -> i64 {
    let (Some(hands), Some(trump)) = (r.hands_at_play, r.trump) else { return 0 };
    let order = trump_order(trump);
    let run = |held: CardSet| order.iter().take_while(|&&c| held.contains(c)).count() as i64;
    let mine = run(hands.0[d]);
    let n = if mine > 0 {
        mine
    } else {
        run((0..3).filter(|&s| s != d).fold(CardSet::EMPTY, |a, s| a | hands.0[s]))
    };
    if n >= 3 { n } else { 0 }
}

#[derive(Debug)]
struct ChipModel {
    bowl: [i64; 3],
    pool: i64,
    ante: i64,
}

impl ChipModel {
    fn pay(&mut self, from: usize, to: usize, x: i64) {
        self.bowl[from] -= x;
        self.bowl[to] += x;
    }

    /// A puesta (`codillo = None`) or codillo of declarer `d`: the pool's amount
    /// plus 5 for each other player into the pool or to the winner; the
    /// estuches and primeras of the opponents to each.
    fn lose(&mut self, r: &HandResult, d: usize, codillo: Option<usize>, mult: i64) {
        // Under `favorito` the 5 for each other player is doubled, not the pool
        // (the engine's documented choice; RULES.md is silent).
        let amount = self.pool + 10 * mult;
        self.bowl[d] -= amount;
        match codillo {
            Some(w) => self.bowl[w] += amount,
            None => self.pool += amount,
        }
        let est = chip_estuches(r, d);
        let opp_primeras =
            r.trick_winners.len() >= 5 && r.trick_winners[..5].iter().all(|s| s.0 as usize != d);
        for o in (0..3).filter(|&s| s != d) {
            self.pay(d, o, mult * (est + i64::from(opp_primeras)));
        }
    }

    fn apply(&mut self, r: &HandResult, f: &Facts) {
        self.bowl[f.dealer] -= self.ante;
        self.pool += self.ante;
        let mult = if f.favorito && f.trump == Some(Suit::Oros) { 2 } else { 1 };
        if f.surrender == Some(None) {
            self.lose(r, f.declarer, None, mult);
            return;
        }
        self.game(r, f, mult);
        if f.surrender.is_some() {
            // After a takeover the one who gave up pays a puesta into the pool as
            // it then stands, without estuches (the engine's documented choice;
            // RULES.md gives chips no takeover rule).
            let amount = self.pool + 10 * mult;
            self.bowl[f.declarer] -= amount;
            self.pool += amount;
        }
    }

    /// The final declarer's game.
    fn game(&mut self, r: &HandResult, f: &Facts, mult: i64) {
        let d = f.final_declarer;
        let res = if f.contract == Contract::Contrabola {
            if f.tricks[d] == 0 { Res::Won } else { Res::Puesta }
        } else {
            result_by_tricks(f.tricks, d)
        };
        match res {
            Res::Won => {
                let contract = if f.gascarille {
                    3
                } else if f.obligation {
                    5
                } else {
                    match f.contract {
                        Contract::Entrada | Contract::Contrabola => 5,
                        Contract::Vuelta => 7,
                        Contract::Solo => 15,
                        other => unreachable!("{other:?} is not a hombre contract"),
                    }
                };
                let est = chip_estuches(r, d);
                let each = contract + 25 * i64::from(f.vole_made) + i64::from(f.primeras) + est;
                self.bowl[d] += self.pool;
                self.pool = 0;
                for o in (0..3).filter(|&s| s != d) {
                    self.pay(o, d, mult * each);
                }
                if f.vole_attempted && !f.vole_made {
                    let less = match f.contract {
                        Contract::Vuelta => 2,
                        Contract::Solo => 10,
                        _ => 0,
                    };
                    for o in (0..3).filter(|&s| s != d) {
                        self.pay(d, o, mult * (30 - less - est));
                    }
                }
            }
            Res::Codillo(w) => self.lose(r, d, Some(w), mult),
            Res::Puesta => self.lose(r, d, None, mult),
        }
    }
}

fn run_chips(opts: &[(&str, &str)], hands: u32, seed: u64) -> Seen {
    let rules = Rules::parse("hombre", opts).unwrap();
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    let mut scorer = Scorer::new(ScoringMode::Session, LedgerConfig::with_rules(rules, 3)).unwrap();
    let ante = rules.ante();
    let mut model = ChipModel { bowl: [160; 3], pool: 0, ante };
    let mut dealer = 0u8;
    for k in 0..hands {
        let r = play(rules, dealer, &mut rng);
        let f = Facts::of(&r);
        seen.count(&f);
        scorer.apply(&r).unwrap();
        model.apply(&r, &f);
        let c = scorer.chips().unwrap();
        assert_eq!(
            (c.bowls(), c.pool()),
            (&model.bowl[..], model.pool),
            "{rules} hand {k}: engine vs model\n{r:?}"
        );
        dealer = c.next_dealer().unwrap().0;
    }
    seen
}

/// Chip payments (`hombre-chips`): the engine's chips ledger equals the model
/// after every hand of a long session.
#[test]
fn hombre_chips_agree_with_a_separate_model() {
    let seen = run_chips(&[("hombre-chips", "true")], 1500, 0x5EED_0003);
    assert!(seen.vole_made > 0 && seen.vole_failed > 0 && seen.takeover > 0 && seen.primeras > 0, "{seen:?}");
    run_chips(
        &[
            ("hombre-chips", "true"),
            ("favorito", "true"),
            ("gascarille", "true"),
            ("contrabola", "true"),
            ("ante", "3"),
        ],
        1500,
        0x5EED_0004,
    );
}

/// The chips ledger documents that a declared vole that fails is paid as a failed
/// vole: when the declarer still takes the most tricks, the game is paid as won
/// and then 30 (less 10 in solo) less the estuches to each opponent (RULES.md
/// section 12.3, chips), not as a puesta (found by the model above).
#[test]
fn chips_a_failed_declared_vole_with_the_most_tricks_is_paid_as_a_failed_vole() {
    let rules = Rules::parse("hombre", &[("hombre-chips", "true")]).unwrap();
    let mut l = ChipsLedger::new(LedgerConfig::with_rules(rules, 3)).unwrap();
    let mut r = table_result(3, Seat(0), Seat(1), Contract::Solo, &[1, 7, 1]);
    r.rules = RuleSet::HOMBRE;
    r.options = rules.options;
    (r.bola_attempted, r.vole_declared) = (true, true);
    l.apply(&r).unwrap();
    // The dealer's 5 into the pool; the declarer takes it, gets 15 from each and
    // pays back 20 to each.
    assert_eq!((l.bowls(), l.pool()), (&[160 - 5 + 5, 160 + 5 - 10, 160 + 5][..], 0));
}
