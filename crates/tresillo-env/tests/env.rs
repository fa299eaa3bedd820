//! The environment against the engine: chance, legality, returns, replay and
//! what a seat may know.

use rand::Rng;
use tresillo_agents::{Agent, RuleAgent, RuleParams, deal_for_seed, rng_from_seed, seat_rngs};
use tresillo_core::{Hand, LedgerConfig, RuleSet, Rules, Scorer, ScoringMode, Seat};
use tresillo_env::{Env, Player, State, decision_actions};

/// Every rule set at every table size it is played at.
fn envs() -> Vec<Env> {
    let mut v = Vec::new();
    for set in RuleSet::BUILT_IN {
        let rules = Rules::parse(set.name(), &[]).unwrap();
        for players in [3, 4] {
            if let Ok(env) = Env::new(rules, players) {
                v.push(env);
            }
        }
    }
    assert!(v.len() >= 4, "{v:?}");
    v
}

/// Plays a hand of `env` dealt by chance with uniformly random legal actions,
/// handing `f` every state before its action.
fn random_hand(env: &Env, seed: u64, mut f: impl FnMut(&State)) -> State {
    let mut rng = rng_from_seed(seed);
    let dealer = Seat((seed % u64::from(env.players())) as u8);
    let mut s = env.initial_state(dealer).unwrap();
    while !s.is_terminal() {
        f(&s);
        let legal = s.legal_actions();
        let a = legal[rng.random_range(0..legal.len())];
        s.apply_action(a).unwrap();
    }
    f(&s);
    s
}

#[test]
fn the_chance_nodes_outcomes_sum_to_one() {
    for env in envs() {
        let mut nodes = 0;
        random_hand(&env, 3, |s| {
            let outcomes = s.chance_outcomes();
            if s.is_chance_node() {
                nodes += 1;
                assert_eq!(s.current_player(), Player::Chance);
                assert_eq!(outcomes.len(), 40 - s.cards_dealt());
                let sum: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!((sum - 1.0).abs() < 1e-9, "{sum}");
                let ids: Vec<usize> = outcomes.iter().map(|o| o.0).collect();
                assert_eq!(ids, s.legal_actions());
            } else {
                assert!(outcomes.is_empty());
            }
        });
        assert_eq!(nodes, 40, "{env:?}");
    }
}

#[test]
fn legal_actions_are_never_empty_until_the_end() {
    for env in envs() {
        for seed in 0..20 {
            let end = random_hand(&env, seed, |s| {
                if s.is_terminal() {
                    assert!(s.legal_actions().is_empty());
                    assert_eq!(s.current_player(), Player::Terminal);
                } else {
                    let legal = s.legal_actions();
                    assert!(!legal.is_empty(), "{env:?} seed {seed}: {s}");
                    assert!(legal.windows(2).all(|w| w[0] < w[1]));
                    assert!(legal.iter().all(|&a| s.is_legal(a)));
                    assert!((0..Env::NUM_ACTIONS).filter(|&a| s.is_legal(a)).eq(legal.iter().copied()));
                }
            });
            assert!(end.clone().apply_action(0).is_err());
            assert!(end.history().len() <= 40 + Env::MAX_GAME_LENGTH);
        }
    }
}

#[test]
fn returns_are_what_the_ledger_scores() {
    for env in envs() {
        let mut nonzero = 0;
        for seed in 0..30 {
            let s = random_hand(&env, seed, |s| {
                if !s.is_terminal() {
                    assert_eq!(s.returns().unwrap(), vec![0.0; usize::from(env.players())]);
                }
            });
            let r = s.hand().unwrap().result().unwrap();
            let mut config = LedgerConfig::with_rules(env.rules(), env.players());
            config.deals = 1;
            let score = Scorer::new(ScoringMode::Deal, config).unwrap().apply(&r).unwrap();
            let want: Vec<f64> = (0..usize::from(env.players()))
                .map(|i| (score.pool.0[i] + score.condiciones.0[i]) as f64)
                .collect();
            let got = s.returns().unwrap();
            assert_eq!(got, want, "{env:?} seed {seed}");
            let sum: f64 = got.iter().sum();
            let ledger_sum: i64 = score.totals().0.iter().sum();
            assert_eq!(sum, ledger_sum as f64);
            nonzero += usize::from(got.iter().any(|&x| x != 0.0));
        }
        assert!(nonzero > 0, "{env:?}");
    }
}

#[test]
fn a_whole_hand_replayed_is_the_engines_hand() {
    for env in envs() {
        for seed in 0..10 {
            let dealer = Seat((seed % u64::from(env.players())) as u8);
            let deal = deal_for_seed(seed).seated(env.rules().table(env.players()), dealer);
            let mut hand = Hand::with_rules(env.rules(), env.players(), deal, dealer).unwrap();
            // The seeded state, and the same deal dealt by chance from its history.
            let seeded = env.state_for_seed(seed, dealer).unwrap();
            let mut s = env.initial_state(dealer).unwrap();
            for &a in seeded.history() {
                s.apply_action(usize::from(a)).unwrap();
            }
            assert_eq!(s.deal(), Some(&deal));
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rngs = seat_rngs(seed);
            rule.new_hand();
            while let Some(seat) = hand.request().seat() {
                assert_eq!(s.current_player(), Player::Seat(seat));
                let view = hand.view(seat);
                assert_eq!(s.view(seat).unwrap(), view);
                let d = rule.choose(&view, &mut rngs[seat.index()]);
                for a in decision_actions(d).unwrap() {
                    s.apply_action(a).unwrap();
                }
                hand.apply(d).unwrap();
            }
            assert!(s.is_terminal());
            assert_eq!(s.hand().unwrap().result(), hand.result());
            let from_history: Vec<usize> = s.history().iter().map(|&a| usize::from(a)).collect();
            let replayed = env.state_from_history(dealer, &from_history).unwrap();
            assert_eq!(replayed.hand().unwrap().result(), hand.result());
        }
    }
}

/// The two deals differ only in cards `seat` cannot see: one card of each of
/// two other seats swapped.
#[test]
fn a_seats_observation_ignores_the_other_seats_hidden_cards() {
    for env in envs() {
        let n = env.players();
        let dealer = Seat(0);
        let deal = deal_for_seed(11).seated(env.rules().table(n), dealer);
        let seats: Vec<Seat> = (0..n).map(Seat).filter(|&s| !deal.hands[s].is_empty()).collect();
        let (me, a, b) = (seats[0], seats[1], seats[2]);
        let mut other = deal;
        let (ca, cb) = (deal.hands[a].iter().next().unwrap(), deal.hands[b].iter().next().unwrap());
        other.hands[a].take(ca);
        other.hands[a].insert(cb);
        other.hands[b].take(cb);
        other.hands[b].insert(ca);
        let s1 = env.state_for_deal(deal, dealer).unwrap();
        let s2 = env.state_for_deal(other, dealer).unwrap();
        assert_eq!(s1.observation_tensor(me).unwrap(), s2.observation_tensor(me).unwrap());
        assert_eq!(s1.information_state_string(me).unwrap(), s2.information_state_string(me).unwrap());
        assert_ne!(s1.observation_tensor(a).unwrap(), s2.observation_tensor(a).unwrap());
        assert_ne!(s1.information_state_string(a).unwrap(), s2.information_state_string(a).unwrap());
        // Along whole hands: a state resampled for a seat (other seats' hidden
        // cards redrawn) looks the same to that seat.
        let mut differed = 0;
        random_hand(&env, 5, |s| {
            if s.is_chance_node() {
                return;
            }
            for seat in (0..n).map(Seat) {
                let t = s.resample_from_infostate(seat, 9).unwrap();
                assert_eq!(s.observation_tensor(seat).unwrap(), t.observation_tensor(seat).unwrap());
                assert_eq!(
                    s.information_state_string(seat).unwrap(),
                    t.information_state_string(seat).unwrap()
                );
                differed += usize::from(s.deal() != t.deal());
                // Its history is its own world's (the deal's chance actions,
                // the others' discards), never the true one: the state it
                // rebuilds is the resampled state, for every seat.
                let back = env.state_from_history(
                    s.dealer(),
                    &t.history().iter().map(|&a| usize::from(a)).collect::<Vec<_>>(),
                );
                let back =
                    back.unwrap_or_else(|e| panic!("{env:?}: the resampled history does not replay: {e}"));
                assert_eq!(back.deal(), t.deal(), "{env:?}");
                for other in (0..n).map(Seat) {
                    assert_eq!(back.observation_tensor(other).unwrap(), t.observation_tensor(other).unwrap());
                }
            }
        });
        assert!(differed > 0, "{env:?}");
    }
}

#[test]
fn bad_seats_and_dealers_are_refused_with_their_numbers() {
    let env = Env::new(Rules::default(), 3).unwrap();
    assert_eq!(env.seat(3).unwrap_err().to_string(), "player 3: the table has seats 0 to 2");
    assert_eq!(env.seat(-1).unwrap_err().to_string(), "player -1: the table has seats 0 to 2");
    assert_eq!(env.initial_state(Seat(3)).unwrap_err().to_string(), "dealer 3: the table has seats 0 to 2");
    let s = env.initial_state(Seat(0)).unwrap();
    assert_eq!(s.view(Seat(0)).unwrap_err().to_string(), "the pack is still being dealt (a chance node)");
    assert_eq!(s.information_state_string(Seat(1)).unwrap(), "p1 dealing 0");
    assert!(Env::new(Rules::default(), 5).is_err());
}

/// A decision asked action by action (a discard card by card) is the decision
/// the actions spell; the asker's error ends it.
#[test]
fn a_decision_asked_action_by_action_is_the_one_its_actions_spell() {
    use tresillo_core::Decision;
    use tresillo_env::decide_by_actions;
    let mut discards = 0;
    for env in envs() {
        for seed in 0..6 {
            let dealer = Seat((seed % u64::from(env.players())) as u8);
            let deal = deal_for_seed(seed).seated(env.rules().table(env.players()), dealer);
            let mut hand = Hand::with_rules(env.rules(), env.players(), deal, dealer).unwrap();
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rngs = seat_rngs(seed);
            rule.new_hand();
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let d = rule.choose(&view, &mut rngs[seat.index()]);
                let mut spelled = decision_actions(d).unwrap().into_iter();
                let mut asked = 0;
                let got = decide_by_actions(&view, |discard, legal| -> Result<usize, ()> {
                    asked += 1;
                    assert_eq!(legal, tresillo_core::action::legal_ids(&view, discard));
                    Ok(spelled.next().unwrap())
                });
                assert_eq!(got, Ok(d));
                if let Decision::Discard(set) = d {
                    assert_eq!(asked, set.len() as usize + 1);
                    discards += 1;
                }
                assert_eq!(decide_by_actions(&view, |_, _| Err::<usize, _>("no answer")), Err("no answer"));
                hand.apply(d).unwrap();
            }
        }
    }
    assert!(discards > 10, "{discards}");
}

/// A vector's lane: the learner is to move after every step, its mask is the
/// state's legal actions and its row the state's observation; hands end with
/// the learner's return and the next one starts; a seed replays.
#[test]
fn a_lane_steps_hand_after_hand_for_its_learner() {
    use tresillo_env::vector::{Illegal, Lane};
    for env in envs() {
        let others = vec!["rule".to_string(); usize::from(env.players()) - 1];
        let run = |seed: u64| {
            let mut lane = Lane::new(env, Seat(1), &others, seed, Illegal::Refuse).unwrap();
            let (mut obs, mut mask) = (vec![0.0f32; Env::OBSERVATION_SIZE], vec![false; Env::NUM_ACTIONS]);
            let mut rng = rng_from_seed(seed);
            let mut seen = Vec::new();
            let mut ended = 0;
            for _ in 0..300 {
                lane.write(&mut obs, &mut mask);
                let legal: Vec<usize> = (0..Env::NUM_ACTIONS).filter(|&a| mask[a]).collect();
                assert_eq!(legal, lane.state().legal_actions());
                assert_eq!(lane.state().current_player(), Player::Seat(Seat(1)));
                assert_eq!(obs, lane.state().observation_tensor(Seat(1)).unwrap());
                let a = legal[rng.random_range(0..legal.len())];
                let out = lane.step(a).unwrap();
                ended += usize::from(out.terminated);
                assert!(out.terminated || out.reward == 0.0);
                seen.push((a, out));
            }
            assert!(ended >= 5, "{env:?}: {ended} hands");
            seen
        };
        assert_eq!(run(3), run(3));
    }
}

/// The information-state tensor: the observation first, then one mover and
/// one action per action since the deal, another seat's discarded card hidden.
#[test]
fn the_information_state_tensor_is_the_observation_then_the_actions() {
    use tresillo_env::observation::{INFO_STEP, SIZE};
    let env = Env::new(Rules::default(), 3).unwrap();
    let mut rngs = seat_rngs(5);
    let mut s = env.state_for_seed(5, Seat(0)).unwrap();
    let mut agent = RuleAgent::new(RuleParams::default());
    while !s.is_terminal() {
        for seat in 0..3 {
            let t = s.information_state_tensor(Seat(seat)).unwrap();
            assert_eq!(t.len(), Env::INFORMATION_STATE_SIZE);
            assert_eq!(&t[..SIZE], &s.observation_tensor(Seat(seat)).unwrap()[..]);
            let steps = (t.len() - SIZE) / INFO_STEP;
            let filled =
                (0..steps).filter(|k| t[SIZE + k * INFO_STEP..][..INFO_STEP].iter().sum::<f32>() == 2.0);
            assert_eq!(filled.count(), (s.history().len() - 40).min(steps));
        }
        let Player::Seat(seat) = s.current_player() else { unreachable!() };
        let d = agent.decide(&s.view(seat).unwrap(), &mut rngs[usize::from(seat.0)]).unwrap();
        for a in decision_actions(d).unwrap() {
            s.apply_action(a).unwrap();
        }
    }
}
