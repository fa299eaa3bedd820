//! A rule set defined here and nowhere else (issue 37): `test-three` (three
//! players, entrada and solo only, its own condiciones), registered with
//! `register_rule_set`, played over the bot protocol by `bots/random_bot.py`
//! at seat 0 against two rule agents (its greeting names the set by its name):
//! the bot answers every request with a legal action (no forfeit), and every
//! hand ends in one of the set's contracts or cancelled.

use std::path::PathBuf;
use tresillo_agents::{Agent, RuleAgent, RuleParams, Work, deal_for_seed, seat_rngs};
use tresillo_bots::{BotConfig, ExtBot};
use tresillo_core::{Hand, Rules, Seat, Table, register_rule_set};

#[path = "../../tresillo-core/tests/support/test_three.rs"]
mod test_three;
use test_three::TEST_THREE;

#[test]
fn a_protocol_bot_plays_the_test_set() {
    let rules = Rules::from(register_rule_set(*TEST_THREE).expect("a new name"));
    let random = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bots/random_bot.py");
    let mut bot = ExtBot::new(BotConfig::new(&random.display().to_string()));
    let mut rule1 = RuleAgent::new(RuleParams::default());
    let mut rule2 = RuleAgent::new(RuleParams::default());
    let mut work = Work::default();
    let mut contracts = 0;
    for i in 0..12u64 {
        let dealer = Seat((i % 3) as u8);
        let mut hand =
            Hand::with_rules(rules, 3, deal_for_seed(i).seated(Table::THREE, dealer), dealer).unwrap();
        let mut rngs = seat_rngs(i);
        let mut agents: [&mut dyn Agent; 3] = [&mut bot, &mut rule1, &mut rule2];
        for a in agents.iter_mut() {
            a.new_hand();
        }
        while let Some(seat) = hand.request().seat() {
            let d = agents[seat.index()]
                .decide(&hand.view(seat), &mut rngs[seat.index()])
                .unwrap_or_else(|f| panic!("hand {i}: {f}"));
            hand.apply(d).unwrap_or_else(|e| panic!("hand {i}: {e}"));
        }
        let r = hand.result().expect("over");
        assert_eq!(r.rules, rules.set);
        if let Some(c) = r.contract {
            assert!(TEST_THREE.contracts.contains(&c), "hand {i}: {c}");
            contracts += 1;
        }
        for a in agents.iter_mut() {
            a.end_hand(&r);
        }
        work.add(agents[0].take_work());
    }
    assert_eq!(work.forfeits, 0);
    assert!(contracts > 0, "some hands are played in a contract");
}
