//! `random` and `rule` play four-player `tresillo` (RULES.md section 12.2): every
//! arrangement of the two in four seats, with and without `penetro_all_play`,
//! without an illegal decision; the results score; penetros happen and the rule
//! agent answers every penetro question; every built-in agent accepts four
//! players.

use crate::common;
use tresillo_core::Question;

use tresillo_agents::cheat::Seated;
use tresillo_agents::{Agent, RuleAgent, build_seated, play_hand, seat_rngs, splitmix64};
use tresillo_core::{
    Decision, DropWord, Hand, HeapEnd, Ledger, LedgerConfig, Phase, Request, Rules, Seat, playing_seats,
};

fn all_play() -> Rules {
    Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap()
}

/// Plays `n` four-player hands with `specs` in seats 0..4, the dealer rotating,
/// scored in one session ledger; returns (penetros, penetros given up).
fn play(specs: [&str; 4], rules: Rules, n: u64, salt: u64) -> (u64, u64) {
    let mut agents: Vec<Seated> = specs.iter().map(|s| build_seated(s).expect("a valid spec")).collect();
    let mut ledger = Ledger::new(LedgerConfig::with_rules(rules, 4)).unwrap();
    let (mut penetros, mut given_up) = (0, 0);
    for i in 0..n {
        let seed = splitmix64(salt ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let dealer = Seat((i % 4) as u8);
        let deal = common::deal(seed).seated(tresillo_core::Table::FOUR_WITH_PENETRO, dealer);
        let mut hand = Hand::with_rules(rules, 4, deal, dealer).unwrap();
        let mut rngs = seat_rngs(seed);
        let r = play_hand(&mut hand, &mut agents, &mut rngs)
            .unwrap_or_else(|e| panic!("{specs:?}, deal seed {seed}: {e}"));
        assert!(!r.is_cancelled());
        ledger.apply(&r).unwrap_or_else(|e| panic!("{specs:?}, deal seed {seed}: {e}: {r:?}"));
        if r.penetro {
            penetros += 1;
            given_up += u64::from(r.surrender.is_some());
        }
    }
    (penetros, given_up)
}

#[test]
fn random_and_rule_play_every_four_seat_arrangement_legally() {
    for rules in [Rules::default(), all_play()] {
        let mut penetros = 0;
        for mask in 0..16u32 {
            let specs: [&str; 4] =
                std::array::from_fn(|s| if mask >> s & 1 == 1 { "rule" } else { "random" });
            penetros += play(specs, rules, 150, u64::from(mask)).0;
        }
        assert!(penetros > 0, "{rules}: no penetro in 2,400 hands");
    }
}

#[test]
fn the_rule_agent_penetra_takes_the_top_ten_and_plays_the_penetro() {
    // All-rule tables: the rule agent passes weak hands, so penetros come.
    let (penetros, _) = play(["rule"; 4], Rules::default(), 400, 77);
    assert!(penetros > 0);
    // Its answers to the penetro questions.
    let mut agent = RuleAgent::default();
    let mut rng = tresillo_agents::rng_from_seed(1);
    for seed in 0..400u64 {
        let dealer = Seat((seed % 4) as u8);
        let mut hand = Hand::new(
            tresillo_core::RuleSet::TRESILLO,
            4,
            common::deal(seed).seated(tresillo_core::Table::FOUR_WITH_PENETRO, dealer),
            dealer,
        )
        .unwrap();
        while let Some(seat) = hand.request().seat() {
            let v = hand.view(seat);
            let d = agent.decide(&v, &mut rng).unwrap();
            match hand.request() {
                Request::Penetro { .. } => assert_eq!(d, Decision::Penetro(HeapEnd::Top)),
                Request::DropOut { .. } => {
                    assert!(matches!(d, Decision::DropOut(_)));
                    // Whoever drops out never plays a card.
                    if d == Decision::DropOut(DropWord::MeVoy) {
                        let mut h = hand;
                        h.apply(d).unwrap();
                        assert_eq!(h.public().penetro.dropped, Some(seat));
                        let p = h.public();
                        assert_eq!(playing_seats(p.table, p.dealer, &p.penetro) & (1 << seat.0), 0);
                    }
                }
                Request::Ask { question: Question::SURRENDER, .. }
                    if hand.phase() == Phase::PenetroGiveUp =>
                {
                    assert!(matches!(d, Decision::Answer(Question::SURRENDER, _)));
                }
                _ => {}
            }
            hand.apply(d).unwrap();
        }
    }
}
