//! The rule sets and options of RULES.md section 12 implemented so far:
//! `tresillo-house` (12.1), `palo_de_favor` and `codillo_old` (12.5). One test per
//! rule, named after it; payments computed by hand. Then properties over random
//! hands of every rule set and option.

use crate::common;
use tresillo_core::Question;

use common::*;
use proptest::prelude::*;
use tresillo_core::*;

use Contract::{Entrada, Solo, Vuelta};

const HOUSE: RuleSet = RuleSet::TRESILLO_HOUSE;

fn rules(name: &str, opts: &[(&str, &str)]) -> Rules {
    Rules::parse(name, opts).unwrap()
}

fn hand_of(r: Rules, deal: &str, dealer: u8) -> Hand {
    Hand::with_rules(r, 3, Deal::parse(deal).unwrap(), Seat(dealer)).unwrap()
}

fn all_pass(h: &mut Hand) {
    for _ in 0..3 {
        ok(h, Decision::Bid(Bid::Paso));
    }
}

/// The espada in the heap, the basto with seat 2.
const BASTO_IN_2: &str = "3E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 1B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 3B 5C 7O 4E 10O 1E 2B";
/// The espada and the basto in the heap.
const BOTH_IN_HEAP: &str = "3E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 1E 2B";

// ------------------------------------------------------------ rule sets as values

#[test]
fn rule_sets_and_options_parse_and_print() {
    let r = rules("tresillo-house", &[("palo_de_favor", "copas"), ("codillo_old", "true")]);
    assert_eq!(r.set, HOUSE);
    assert_eq!(r.suit(&PALO_DE_FAVOR), Some(Suit::Copas));
    assert!(r.flag(&CODILLO_OLD) && r.codillo_old());
    assert_eq!(r.to_string(), "tresillo-house palo_de_favor=copas codillo_old=true");
    assert_eq!(Rules::default(), Rules::from(RuleSet::TRESILLO));
    assert_eq!(Rules::default().to_string(), "tresillo");
    assert_eq!(rules("tresillo", &[("palo_de_favor", "none")]), Rules::default());
}

#[test]
fn unknown_rule_sets_options_and_bad_values_are_refused() {
    let e = Rules::parse("poker", &[]).unwrap_err();
    let known: Vec<&str> = RuleSet::BUILT_IN.iter().map(|r| r.name()).collect();
    assert_eq!(
        e.to_string(),
        format!(
            "unknown rule set `poker` (known: {}; a rule set defined in a file is known once registered: `--rule-set FILE`, in Python `tresillo.register_rule_set(path)`)",
            known.join(", ")
        )
    );
    // penetro_all_play is an option of four-player tresillo (12.2), not of the house rules.
    let e = Rules::parse("tresillo-house", &[("penetro_all_play", "true")]).unwrap_err();
    assert!(matches!(e, RulesError::UnknownOption { .. }), "{e}");
    assert!(e.to_string().contains("palo_de_favor, codillo_old"), "{e}");
    let e = Rules::parse("tresillo", &[("show_heap", "true")]).unwrap_err();
    assert!(e.to_string().contains("palo_de_favor, codillo_old, penetro_all_play"), "{e}");
    let e = Rules::parse("tresillo", &[("palo_de_favor", "hearts")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value `hearts` for rule option `palo_de_favor` (expected one of: none, espadas, bastos, copas, oros)"
    );
    let e = Rules::parse("tresillo", &[("codillo_old", "yes")]).unwrap_err();
    assert!(matches!(e, RulesError::BadValue { option: "codillo_old", .. }));
    let e = Rules::parse("tresillo", &[("codillo_old", "true"), ("codillo_old", "false")]).unwrap_err();
    assert_eq!(e, RulesError::Duplicate("codillo_old".into()));
    assert!(Rules::split_option("codillo_old").is_err());
    assert!(Rules::split_option("=true").is_err());
    assert_eq!(Rules::split_option(" codillo_old = true ").unwrap(), ("codillo_old", "true"));
}

#[test]
fn tresillo_house_is_played_by_three_players_only() {
    let r = Rules::from(HOUSE);
    assert_eq!(r.check_players(3), Ok(()));
    let e = r.check_players(4).unwrap_err();
    assert_eq!(e.to_string(), "rule set tresillo-house is played by 3 players, not 4");
    assert!(Rules::default().check_players(4).is_ok()); // the ledger scores four-player tresillo
    assert!(Ledger::new(LedgerConfig::with_rules(r, 3)).is_ok());
    let deal = Deal::parse(MIXED).unwrap();
    assert!(matches!(Hand::with_rules(r, 4, deal, Seat(0)), Err(HandError::Unsupported { players: 4, .. })));
}

// ------------------------------------------------------------ 12.1 the house hand

#[test]
fn house_all_pass_forced_entrada_by_the_espada_holder_exchanges_before_naming_trumps() {
    let mut h = hand_of(HOUSE.into(), MIXED, 0); // the espada is with seat 0
    all_pass(&mut h);
    assert!(h.public().forced);
    assert_eq!(h.public().declarer, Some(Seat(0)));
    // Discards first, up to 8, before any contract or trump.
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 0, max: 8 });
    assert_eq!(h.public().contract, None);
    let nine = h.hand_of(Seat(0));
    assert!(matches!(rejected(&mut h, Decision::Discard(nine)), HandError::IllegalDiscard(_)));
    let out = cs("6B 7B 4C");
    ok(&mut h, Decision::Discard(out));
    assert_eq!(h.public().exchanged[Seat(0)], Some(3));
    // Then trumps: an entrada only.
    assert_eq!(h.request(), Request::Declare { seat: Seat(0), min_level: 1, forced: true });
    rejected(&mut h, Decision::Declare(Solo, Some(Suit::Espadas)));
    rejected(&mut h, Decision::Declare(Vuelta, None));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Espadas)));
    // No second exchange for the declarer: the opponents' conversation comes next.
    assert!(matches!(h.request(), Request::Word { .. }));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.forced);
    assert_eq!((r.declarer, r.contract, r.exchanged[Seat(0)]), (Some(Seat(0)), Some(Entrada), 3));
    assert!(Ledger::new(LedgerConfig::with_rules(HOUSE.into(), 3)).unwrap().apply(&r).is_ok());
}

#[test]
fn house_all_pass_forced_entrada_by_the_basto_holder_when_the_espada_is_in_the_heap() {
    let mut h = hand_of(HOUSE.into(), BASTO_IN_2, 0);
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 8 });
    // The same deal under `tresillo` is cancelled.
    let mut t = hand_of(Rules::default(), BASTO_IN_2, 0);
    all_pass(&mut t);
    assert_eq!(t.result().unwrap().outcome, Outcome::Cancelled);
}

#[test]
fn house_all_pass_forced_entrada_by_mano_when_neither_espada_nor_basto_is_dealt() {
    let mut h = hand_of(HOUSE.into(), BOTH_IN_HEAP, 1); // seat 1 deals: mano is seat 2
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 8 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Copas)));
    auto_until(&mut h, |_| false);
    assert!(!h.result().unwrap().is_cancelled());
}

/// Seat 1 (mano, seat 0 deals) plays `c` in `trump` with no exchange, and the
/// opponents exchange nothing; the hand stops at the surrender decision.
fn to_surrender(r: Rules, c: Contract, trump: Option<Suit>) -> Hand {
    let mut h = hand_of(r, MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(c.level())));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Declare(c, trump));
    auto_until(&mut h, |h| matches!(h.request(), Request::Ask { question: Question::SURRENDER, .. }));
    assert!(matches!(h.request(), Request::Ask { seat: Seat(1), question: Question::SURRENDER }));
    h
}

#[test]
fn house_surrender_in_vuelta_ends_the_hand_as_a_puesta_without_takeover() {
    let mut h = to_surrender(HOUSE.into(), Vuelta, None);
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert!(h.is_done());
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Surrendered });
    assert_eq!(r.surrender, Some(SurrenderRecord { by: Seat(1), took_over: None }));
    // Under `tresillo` the opponents are asked.
    let mut t = to_surrender(Rules::default(), Vuelta, None);
    ok(&mut t, Decision::Answer(Question::SURRENDER, true));
    assert!(matches!(t.request(), Request::Ask { seat: Seat(2), question: Question::TAKE_OVER }));
}

#[test]
fn house_takeover_only_in_entrada() {
    let mut h = to_surrender(HOUSE.into(), Entrada, Some(Suit::Oros));
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert!(matches!(h.request(), Request::Ask { seat: Seat(2), question: Question::TAKE_OVER }));
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, true));
    assert_eq!(h.public().declarer, Some(Seat(2)));
}

#[test]
fn house_contra_estuche_is_recorded_when_the_declarer_held_none_of_the_estuche() {
    // Seat 1 (mano) holds 2E 6E 10E 4B 2C 3C 7C 1O 2O.
    let mut h = hand_of(HOUSE.into(), MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Declare(Solo, Some(Suit::Bastos))); // estuche 1E 2B 1B: 2B and 1B in the heap
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.contra_estuche && r.final_contra_estuche && !r.estuche);
    let mut h = hand_of(HOUSE.into(), MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Declare(Solo, Some(Suit::Copas))); // seat 1 holds the mala 7C
    auto_until(&mut h, |_| false);
    assert!(!h.result().unwrap().contra_estuche);
}

// ------------------------------------------------------------ 12.1 house scoring

fn house_ledger() -> Ledger {
    Ledger::new(LedgerConfig::with_rules(HOUSE.into(), 3)).unwrap()
}

fn house(declarer: u8, c: Contract, tricks: &[u8]) -> HandResult {
    let mut r = table_result(3, Seat(0), Seat(declarer), c, tricks);
    r.rules = HOUSE;
    r
}

fn apply(l: &mut Ledger, r: &HandResult) -> HandScore {
    let before = l.tokens();
    let s = l.apply(r).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    assert_eq!(l.tokens(), before, "tokens are conserved");
    s
}

#[test]
fn house_amount_in_play_is_the_plato_alone_and_a_sacado_takes_the_plato_alone() {
    let mut l = house_ledger();
    assert_eq!(l.next_aip(), 6); // pajarito 5 + dealer's 1, no +n
    let s = apply(&mut l, &house(1, Entrada, &[2, 5, 2]));
    assert_eq!(s.aip, 6);
    assert_eq!(s.pool.0[..3], [-1, 6, 0]); // the plato only: no tanto from each
    assert_eq!(s.condiciones.0[..3], [-1, 2, -1]); // entrada 1
    assert_eq!(s.totals().0[..3], [-2, 8, -1]);
}

#[test]
fn house_first_puesta_pays_the_plato_alone_into_the_plato() {
    let mut l = house_ledger();
    let s = apply(&mut l, &house(1, Vuelta, &[4, 1, 4]));
    assert_eq!(s.aip, 6);
    assert_eq!(s.pool.0[..3], [-1, -6, 0]);
    assert_eq!(s.condiciones.0[..3], [3, -6, 3]); // vuelta 3 to each
    assert_eq!(l.plato(), 12);
    assert!(l.plato_has_failure());
    assert_eq!(l.next_aip(), 13); // the plato (12 + next dealer's 1), no +n
}

#[test]
fn house_condiciones_solo_estuche_contra_estuche_primeras_bola() {
    let mut r = house(1, Solo, &[0, 5, 0]);
    r.primeras = true;
    r.estuche = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.condiciones.0[..3], [-7, 14, -7]); // solo 5 + estuche 1 + primeras 1
    let mut r = house(1, Entrada, &[2, 5, 2]);
    r.contra_estuche = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.condiciones.0[..3], [-4, 8, -4]); // entrada 1 + contra-estuche 3
    let mut r = house(1, Vuelta, &[0, 9, 0]);
    r.bola_attempted = true;
    r.bola_made = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.condiciones.0[..3], [-13, 26, -13]); // vuelta 3 + bola 10
    let mut r = house(1, Vuelta, &[1, 8, 0]);
    r.bola_attempted = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.condiciones.0[..3], [7, -14, 7]); // vuelta 3 - failed bola 10
}

#[test]
fn house_takeover_pays_the_new_declarer_estuche_contra_estuche_primeras_and_bola() {
    // Seat 1 gives up an entrada; seat 2 takes over, held the estuche, and wins.
    let mut r = house(1, Entrada, &[2, 2, 5]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(2)) });
    r.outcome = Outcome::Sacado;
    r.final_estuche = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.pool.0[..3], [-1, -6, 6]); // the AIP from the one who gave up
    // Seat 1 pays entrada 1 to each as for a puesta; seat 2 is paid estuche 1 by
    // seats 0 and 1.
    assert_eq!(s.condiciones.0[..3], [1 - 1, -2 - 1, 1 + 2]);
    // A failed bola after a takeover costs the new declarer nothing.
    let mut r = house(1, Entrada, &[0, 1, 8]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(2)) });
    r.outcome = Outcome::Sacado;
    r.bola_attempted = true;
    let s = apply(&mut house_ledger(), &r);
    assert_eq!(s.condiciones.0[..3], [1, -2, 1]);
}

#[test]
fn house_refuses_a_takeover_of_a_vuelta_and_a_cancelled_hand() {
    let mut r = house(1, Vuelta, &[2, 2, 5]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(2)) });
    r.outcome = Outcome::Sacado;
    assert!(house_ledger().apply(&r).is_err());
    let mut c = cancelled_result(3, Seat(0));
    c.rules = HOUSE;
    let e = house_ledger().apply(&c).unwrap_err();
    assert!(e.to_string().contains("never cancelled"), "{e}");
}

// ------------------------------------------------------------ 12.5 palo de favor

fn favor() -> Rules {
    rules("tresillo", &[("palo_de_favor", "oros")])
}

#[test]
fn palo_de_favor_bid_levels_run_to_five() {
    let mut h = hand_of(favor(), MIXED, 0);
    assert_eq!(h.request(), Request::Bid { seat: Seat(1), min_level: 1, max_level: 5 });
    ok(&mut h, Decision::Bid(Bid::Level(2)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    // Level 2: entrada in the favoured suit, vuelta or solo; not another entrada.
    rejected(&mut h, Decision::Declare(Entrada, Some(Suit::Copas)));
    let legal = h.view(Seat(1)).legal_decisions();
    assert_eq!(legal.iter().filter(|d| matches!(d, Decision::Declare(Entrada, _))).count(), 1);
    assert!(legal.contains(&Decision::Declare(Entrada, Some(Suit::Oros))));
    assert!(legal.contains(&Decision::Declare(Vuelta, None)));
    assert_eq!(legal.len(), 1 + 1 + 4);
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
}

#[test]
fn palo_de_favor_level_five_is_only_solo_a_favor() {
    let mut h = hand_of(favor(), MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(5)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.view(Seat(1)).legal_decisions(), vec![Decision::Declare(Solo, Some(Suit::Oros))]);
    rejected(&mut h, Decision::Declare(Solo, Some(Suit::Copas)));
    let r = favor();
    let levels: Vec<u8> = [
        (Entrada, Some(Suit::Copas)),
        (Entrada, Some(Suit::Oros)),
        (Vuelta, None),
        (Solo, Some(Suit::Copas)),
        (Solo, Some(Suit::Oros)),
    ]
    .iter()
    .map(|&(c, t)| r.contract_level(c, t))
    .collect();
    assert_eq!(levels, [1, 2, 3, 4, 5]);
}

fn favor_ledger(r: Rules) -> Ledger {
    Ledger::new(LedgerConfig::with_rules(r, 3)).unwrap()
}

fn with_trump(mut r: HandResult, rules: Rules, t: Suit) -> HandResult {
    r.options = rules.options;
    r.rules = rules.set;
    r.trump = Some(t);
    r
}

#[test]
fn palo_de_favor_doubles_the_n_the_sacado_tanto_and_the_condiciones_in_the_favoured_suit() {
    let f = favor();
    let r = with_trump(table_result(3, Seat(0), Seat(1), Vuelta, &[2, 5, 2]), f, Suit::Oros);
    let s = apply(&mut favor_ledger(f), &r);
    assert_eq!(s.aip, 6 + 6); // plato + 2n
    assert_eq!(s.pool.0[..3], [-1 - 2, 6 + 4, -2]); // the plato and 2 from each
    assert_eq!(s.condiciones.0[..3], [-2, 4, -2]); // vuelta 1, doubled
    // Puesta in the favoured suit: the doubled AIP into the plato, condiciones doubled.
    let r = with_trump(table_result(3, Seat(0), Seat(1), Solo, &[4, 1, 4]), f, Suit::Oros);
    let s = apply(&mut favor_ledger(f), &r);
    assert_eq!(s.aip, 12);
    assert_eq!(s.pool.0[..3], [-1, -12, 0]);
    assert_eq!(s.condiciones.0[..3], [4, -8, 4]); // solo 2, doubled
    // Another suit: as without the option.
    let r = with_trump(table_result(3, Seat(0), Seat(1), Vuelta, &[2, 5, 2]), f, Suit::Copas);
    let s = apply(&mut favor_ledger(f), &r);
    assert_eq!((s.aip, s.totals().0[..3].to_vec()), (9, vec![-1 - 1 - 1, 6 + 2 + 2, -1 - 1]));
}

#[test]
fn palo_de_favor_leaves_reserved_puestas_unaffected() {
    let f = favor();
    let mut l = favor_ledger(f);
    let res = |d: u8, dl: u8, c: Contract, t: &[u8], s: Suit| {
        with_trump(table_result(3, Seat(d), Seat(dl), c, t), f, s)
    };
    apply(&mut l, &res(0, 1, Solo, &[4, 1, 4], Suit::Copas)); // first puesta: 9 into the plato (15)
    let s = apply(&mut l, &res(1, 2, Solo, &[4, 4, 1], Suit::Oros)); // puesta in the plato, favoured
    assert_eq!((s.case, s.aip), (AipCase::PuestaInPlato, 16 + 6));
    apply(&mut l, &res(2, 0, Entrada, &[5, 2, 2], Suit::Copas)); // sacado: the plato is won
    assert_eq!(l.paper().len(), 1);
    let s = apply(&mut l, &res(0, 1, Entrada, &[2, 5, 2], Suit::Oros)); // reserved, favoured
    assert_eq!((s.case, s.aip), (AipCase::Reserved, 22 + 1));
    assert_eq!(s.pool.0[..3], [-1, 1 + 22, -22]); // the plato and the debt; no 2 from each
}

// ------------------------------------------------------------ 12.5 codillo old

#[test]
fn codillo_old_pays_the_amount_in_play_to_the_winner_only() {
    let old = rules("tresillo", &[("codillo_old", "true")]);
    let mut r = table_result(3, Seat(0), Seat(1), Entrada, &[5, 2, 2]);
    r.options = old.options;
    let mut l = favor_ledger(old);
    let s = apply(&mut l, &r);
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(0) });
    assert_eq!(s.pool.0[..3], [-1 + 9, -9, 0]);
    assert_eq!((l.plato(), l.plato_has_failure(), l.paper().len()), (6, false, 0));
    // Without the option the declarer also pays the plato.
    let mut l = favor_ledger(Rules::default());
    let s = apply(&mut l, &table_result(3, Seat(0), Seat(1), Entrada, &[5, 2, 2]));
    assert_eq!(s.pool.0[..3], [-1 + 9, -18, 0]);
    assert!(l.plato_has_failure());
}

#[test]
fn codillo_old_after_a_takeover_keeps_only_the_surrender_puesta() {
    let old = rules("tresillo", &[("codillo_old", "true")]);
    let mut r = table_result(3, Seat(0), Seat(1), Entrada, &[5, 2, 2]);
    r.options = old.options;
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(2)) });
    r.outcome = Outcome::Codillo { winner: Seat(0) };
    let s = apply(&mut favor_ledger(old), &r);
    // Seat 1's puesta into the plato (9); seat 2 pays 9 to the winner; no twin puesta.
    assert_eq!(s.pool.0[..3], [-1 + 9, -9, -9]);
}

#[test]
fn a_result_of_other_options_is_refused() {
    let r = table_result(3, Seat(0), Seat(1), Entrada, &[2, 5, 2]);
    assert!(favor_ledger(favor()).apply(&r).is_err());
}

// ------------------------------------------------------------ properties

fn every_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    // The Spanish rule sets with the options of section 12.5 (hombre: tests/hombre.rs).
    for set in
        RuleSet::BUILT_IN.into_iter().filter(|s| s.spec().options.contains(&tresillo_core::PALO_DE_FAVOR))
    {
        for favor in ["none", "oros", "espadas"] {
            for old in ["false", "true"] {
                v.push(rules(set.name(), &[("palo_de_favor", favor), ("codillo_old", old)]));
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any sequence of legal decisions ends a hand of every rule set and option in
    /// at most a few dozen decisions; every legal decision is accepted, the view
    /// never holds another seat's cards, and the ledger of the rule set scores the
    /// result with tokens conserved.
    #[test]
    fn every_rule_set_plays_to_a_scored_result(seed in any::<u64>(), picks in proptest::collection::vec(any::<u16>(), 80), ri in 0usize..12) {
        let r = every_rules()[ri];
        let mut h = Hand::with_rules(r, 3, deal_from(seed), Seat((seed % 3) as u8)).unwrap();
        let mut k = 0;
        while !h.is_done() {
            let seat = h.request().seat().unwrap();
            let view = h.view(seat);
            prop_assert!(view.hand() == h.hand_of(seat));
            let legal = view.legal_decisions();
            prop_assert!(!legal.is_empty());
            let d = legal[picks[k % picks.len()] as usize % legal.len()];
            prop_assert!(h.apply(d).is_ok(), "{:?} rejected", d);
            k += 1;
        }
        let res = h.result().unwrap();
        prop_assert_eq!(res.game_rules(), r);
        if r.spec().always_played {
            prop_assert!(!res.is_cancelled());
        }
        let mut l = Ledger::new(LedgerConfig::with_rules(r, 3)).unwrap();
        let before = l.tokens();
        let s = l.apply(&res);
        prop_assert!(s.is_ok(), "{:?}", s);
        prop_assert_eq!(l.tokens(), before);
        let won = res.bids.iter().filter_map(|b| match b.bid {
            Bid::Level(l) => Some(l),
            Bid::Paso => None,
        });
        if let (Some(c), Some(level)) = (res.contract, won.max()) {
            let trump = if c == Vuelta { None } else { res.trump };
            prop_assert!(r.contract_level(c, trump) >= level, "{} {:?} below level {}", c, trump, level);
        }
    }
}

/// The card play of every rule set implemented so far is that of section 5: from
/// the first trick of a `tresillo-house` forced entrada and of a `palo_de_favor`
/// solo a favor, the fast perft equals the reference perft written from the rule
/// text.
#[test]
fn perft_from_house_and_palo_de_favor_hands_matches_the_reference() {
    let mut house = hand_of(HOUSE.into(), MIXED, 0);
    all_pass(&mut house);
    ok(&mut house, Decision::Discard(cs("6B 7B 4C 4O")));
    ok(&mut house, Decision::Declare(Entrada, Some(Suit::Espadas)));
    auto_until(&mut house, |h| matches!(h.request(), Request::Play { .. }));
    let mut favor = hand_of(favor(), MIXED, 0);
    ok(&mut favor, Decision::Bid(Bid::Level(5)));
    ok(&mut favor, Decision::Bid(Bid::Paso));
    ok(&mut favor, Decision::Bid(Bid::Paso));
    ok(&mut favor, Decision::Declare(Solo, Some(Suit::Oros)));
    auto_until(&mut favor, |h| matches!(h.request(), Request::Play { .. }));
    for h in [house, favor] {
        let mut ps = h.play_state().unwrap();
        let p = h.public();
        let hands: [Vec<Card>; 3] = std::array::from_fn(|s| h.hand_of(Seat(s as u8)).iter().collect());
        let leader = p.current_leader().index();
        for depth in 1..=5 {
            assert_eq!(
                ps.perft(depth),
                reference_perft(hands.clone(), p.trump.unwrap(), leader, depth),
                "{depth}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A session of consecutive hands of every rule set and option, each played by
    /// random legal decisions with the dealer rotating, scored by one ledger:
    /// tokens are conserved after every hand and the settlement's results sum to
    /// zero.
    #[test]
    fn every_rule_set_keeps_a_session_ledger_balanced(seed in any::<u64>(), ri in 0usize..12) {
        let r = every_rules()[ri];
        let mut l = Ledger::new(LedgerConfig::with_rules(r, 3)).unwrap();
        let tokens = l.tokens();
        let mut x = seed;
        for i in 0..25u64 {
            let mut h = Hand::with_rules(r, 3, deal_from(seed.wrapping_add(i)), Seat((i % 3) as u8)).unwrap();
            while !h.is_done() {
                let seat = h.request().seat().unwrap();
                let legal = h.view(seat).legal_decisions();
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                h.apply(legal[(x >> 33) as usize % legal.len()]).unwrap();
            }
            let res = h.result().unwrap();
            let s = l.apply(&res);
            prop_assert!(s.is_ok(), "{}: hand {}: {:?}", r, i, s);
            prop_assert_eq!(l.tokens(), tokens);
        }
        let st = l.settle();
        prop_assert_eq!(st.results.0.iter().sum::<i64>(), 0);
    }
}

// ------------------------------------------------------------ a rule set's data against its mechanics

/// Every rule set with each option that changes who plays after all pass.
fn every_table() -> Vec<Rules> {
    let mut v: Vec<Rules> = RuleSet::BUILT_IN.into_iter().map(Rules::from).collect();
    v.push(rules("lhombre", &[("redeal_all_pass", "true")]));
    v
}

#[test]
fn every_rule_set_deals_no_more_tricks_than_the_arrays_hold() {
    for set in RuleSet::BUILT_IN {
        let s = set.spec();
        assert!(s.tricks <= MAX_TRICKS && s.tricks > 5, "{set}: {} tricks", s.tricks);
        assert!(s.forced_min_discard <= s.forced_max_discard, "{set}");
        assert!(!s.forced_exchange_first || s.forced_max_discard > 0, "{set}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `always_played` and `forced_holds_espada` say what `all_pass_declarer`
    /// does: somebody always plays, or only ever the espada's holder.
    #[test]
    fn the_all_pass_data_agrees_with_the_rule_sets_all_pass_declarer(seed in any::<u64>(), mano in 0u8..3) {
        let deal = deal_from(seed);
        let hands = &deal.hands.0[..3];
        for r in every_table() {
            let who = r.all_pass_declarer(hands, Seat(mano));
            let holder = hands.iter().position(|h| h.contains(Card::ESPADA)).map(|i| Seat(i as u8));
            if r.spec().always_played {
                prop_assert!(who.is_some(), "{}: nobody plays", r);
            }
            if r.spec().forced_holds_espada {
                prop_assert_eq!(who, holder, "{}", r);
            }
            if holder.is_none() && !r.spec().always_played && !r.spec().forced_holds_espada {
                // lhombre: the dealer plays unless all passing redeals.
                prop_assert_eq!(who.is_none(), r.redeal_all_pass(), "{}", r);
            }
        }
    }
}

#[test]
fn the_scoring_system_in_use_follows_hombre_chips_and_says_what_the_tools_show() {
    let with = |set: &str, opts: &[(&str, &str)]| rules(set, opts).scoring();
    assert_eq!(with("tresillo", &[]), ScoringSystem::Puesta);
    assert_eq!(with("tresillo-house", &[("codillo_old", "true")]), ScoringSystem::Puesta);
    assert_eq!(with("hombre", &[]), ScoringSystem::Points);
    assert_eq!(with("hombre", &[("hombre-chips", "true")]), ScoringSystem::Chips);
    assert_eq!(with("lhombre", &[]), ScoringSystem::PerDefender);
    let units: Vec<&str> =
        [ScoringSystem::Puesta, ScoringSystem::Points, ScoringSystem::Chips, ScoringSystem::PerDefender]
            .map(ScoringSystem::unit)
            .to_vec();
    assert_eq!(units, ["tantos", "points", "chips", "tantos"]);
    assert!(ScoringSystem::Puesta.puesta_accounts() && !ScoringSystem::PerDefender.puesta_accounts());
    assert!(ScoringSystem::PerDefender.kept_by_ledger() && !ScoringSystem::Chips.kept_by_ledger());
    // Scorer builds the ledger of the system in use.
    let chips = rules("hombre", &[("hombre-chips", "true")]);
    let s = Scorer::new(ScoringMode::Session, LedgerConfig::with_rules(chips, 3)).unwrap();
    assert!(s.chips().is_some() && s.points().is_none());
}
