//! Analysis of a recorded hand: for every card decision, the perfect-information
//! class of each legal card (the exact solver, every hand known) and, on request,
//! the PIMC estimate the player could have made from what they saw (worlds sampled
//! from their view, each solved exactly). The classes are those of the goal the
//! contract is played for ([`gpimc::stakes`]: section 7's codillo, puesta, sacado
//! in `tresillo`, the goals of `hombre`, `lhombre` and four players elsewhere),
//! answered by [`Solvers`] (the fast solver wherever it can). A decision *changed
//! the outcome* when the card played has a worse class for its player's side than
//! the best legal card: the position was worth more before it than after.

use crate::record::{HandRecord, RecordError};
use tresillo_agents::gpimc;
use tresillo_agents::gsolver::{Goal, Solvers};
use tresillo_agents::{AgentRng, Sampler};
use tresillo_core::{Card, Decision, Hand, Request, Seat};

/// PIMC settings: worlds per decision and the seed of the sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PimcConfig {
    /// Worlds sampled from the player's view at each decision (each solved exactly).
    pub worlds: u32,
    /// Seed of the sampling generator.
    pub seed: u64,
}

/// One card's PIMC estimate: over the sampled worlds, how often playing it leads
/// to each class of the goal (declarer's point of view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PimcCard {
    /// The card.
    pub card: Card,
    /// Worlds in which the card's class is 0, 1, ... (the goal's classes, worst
    /// for the declarer first: codillo, puesta, sacado for the Spanish goal).
    pub counts: Vec<u32>,
}

impl PimcCard {
    /// The mean class value for the declarer (0 the worst).
    #[must_use]
    pub fn mean(&self) -> f64 {
        let n: u32 = self.counts.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let sum: u32 = self.counts.iter().zip(0..).map(|(&k, v)| k * v).sum();
        f64::from(sum) / f64::from(n)
    }
}

/// The analysis of one card decision.
#[derive(Clone, Debug, PartialEq)]
pub struct CardAnalysis {
    /// The decision's position in the record (1-based).
    pub index: usize,
    /// The trick (1-based).
    pub trick: u8,
    /// Who played.
    pub seat: Seat,
    /// Whether that seat was the declarer.
    pub declarer_side: bool,
    /// The card played.
    pub played: Card,
    /// The goal the hand was played for at this decision (it changes after a
    /// takeover, a bola or a declared vole); the classes are `0..=goal.top()`,
    /// higher better for the declarer.
    pub goal: Goal,
    /// The class the position was worth before the card (perfect information):
    /// the best of `classes` for the mover's side.
    pub before: u8,
    /// The class of the card played.
    pub after: u8,
    /// Each legal card with its class.
    pub classes: Vec<(Card, u8)>,
    /// The PIMC estimate of each legal card, when asked for and the sampler could
    /// build worlds from the view.
    pub pimc: Option<Vec<PimcCard>>,
}

impl CardAnalysis {
    /// Whether this card changed the perfect-information outcome (for the worse,
    /// from its player's side).
    #[must_use]
    pub fn changed_outcome(&self) -> bool {
        self.before != self.after
    }

    /// The legal cards that keep the value of the position (the best for the side).
    #[must_use]
    pub fn best_cards(&self) -> Vec<Card> {
        self.classes.iter().filter(|(_, c)| *c == self.before).map(|(k, _)| *k).collect()
    }
}

/// The analysis of a hand.
#[derive(Clone, Debug, PartialEq)]
pub struct HandAnalysis {
    /// Every card decision that could be judged, in order (empty when the hand
    /// had no card play).
    pub cards: Vec<CardAnalysis>,
}

impl HandAnalysis {
    /// The perfect-information value when play began (`None` without card play).
    #[must_use]
    pub fn start(&self) -> Option<u8> {
        self.cards.first().map(|c| c.before)
    }
}

/// The name of class `c` of `goal` in the words of the rule set (`tresillo
/// analyze` and the server's analysis board both name classes with it).
#[must_use]
pub fn class_name(goal: Goal, c: u8) -> &'static str {
    const SPANISH: [&str; 3] = ["codillo", "puesta", "sacado"];
    // RULES.md section 12.4: loss, draw, win (nolo: 2+ tricks, 1 trick, none).
    const LHOMBRE: [&str; 3] = ["loss", "draw", "win"];
    let c = usize::from(c.min(goal.top()));
    match goal {
        Goal::Spanish => SPANISH[c],
        Goal::Lhombre | Goal::Nolo => LHOMBRE[c],
        Goal::Contrabola | Goal::Won => ["lost", "won"][c],
        Goal::Cuatro => ["lost", "won", "cuatro"][c],
        Goal::Reach(_) => ["failed", "made"][c],
    }
}

/// Analyzes a record of any rule set or table (which must be valid: it is
/// replayed and checked first), each card with the goal [`gpimc::stakes`] gives
/// the hand at that decision.
pub fn analyze(rec: &HandRecord, pimc: Option<PimcConfig>) -> Result<HandAnalysis, RecordError> {
    rec.replay()?;
    let mut solvers = Solvers::new();
    let mut rng: Option<AgentRng> = pimc.map(|p| tresillo_agents::rng_from_seed(p.seed));
    let mut hand = rec.start()?;
    let mut cards = Vec::new();
    for (i, step) in rec.decisions.iter().enumerate() {
        let d = step.act;
        if let Decision::Play(card) = d
            && let Some(c) = judge(&hand, i + 1, card, &mut solvers, pimc.zip(rng.as_mut()))
        {
            cards.push(c);
        }
        hand.apply(d).map_err(|source| RecordError::Illegal { index: i + 1, seat: step.seat, source })?;
    }
    Ok(HandAnalysis { cards })
}

fn judge(
    hand: &Hand,
    index: usize,
    played: Card,
    solvers: &mut Solvers,
    pimc: Option<(PimcConfig, &mut AgentRng)>,
) -> Option<CardAnalysis> {
    let p = hand.public();
    let declarer = p.declarer?;
    let goal = gpimc::stakes(p, declarer)?.goal;
    let seat = hand.request().seat()?;
    let ps = hand.play_state()?;
    let classes = solvers.card_values(&ps, declarer, goal);
    let side = seat == declarer;
    let values = classes.iter().map(|&(_, v)| v);
    let before = if side { values.max() } else { values.min() }?;
    let after = classes.iter().find(|&&(c, _)| c == played)?.1;
    let pimc =
        pimc.and_then(|(cfg, rng)| pimc_estimate(hand, seat, declarer, goal, cfg.worlds, rng, solvers));
    Some(CardAnalysis {
        index,
        trick: p.tricks_done + 1,
        seat,
        declarer_side: side,
        played,
        goal,
        before,
        after,
        classes,
        pimc,
    })
}

/// Samples `worlds` worlds from `seat`'s view (exactly uniform among those
/// consistent with it) and solves each: the class counts of each legal card.
/// `None` if no world can be built from the view (never for a legal hand).
fn pimc_estimate(
    hand: &Hand,
    seat: Seat,
    declarer: Seat,
    goal: Goal,
    worlds: u32,
    rng: &mut AgentRng,
    solvers: &mut Solvers,
) -> Option<Vec<PimcCard>> {
    let view = hand.view(seat);
    let Request::Play { legal, .. } = view.request() else { return None };
    let classes = usize::from(goal.top()) + 1;
    let mut out: Vec<PimcCard> =
        legal.iter().map(|card| PimcCard { card, counts: vec![0; classes] }).collect();
    let sampler = Sampler::new(&view).ok()?;
    for _ in 0..worlds {
        let w = sampler.sample(rng).play_state(&view)?;
        let values = solvers.card_values(&w, declarer, goal);
        for pc in &mut out {
            if let Some(&(_, v)) = values.iter().find(|(c, _)| *c == pc.card) {
                pc.counts[usize::from(v)] += 1;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::play_recorded;
    use tresillo_agents::solver::Class;
    use tresillo_agents::{build_seated, seat_rngs};
    use tresillo_core::RuleSet;

    fn recorded(seed: u64, specs: [&str; 3]) -> HandRecord {
        let deal = crate::deal_for_seed(seed);
        let dealer = Seat((seed % 3) as u8);
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal, dealer).unwrap();
        let mut agents: Vec<_> = specs.iter().map(|s| build_seated(s).unwrap()).collect();
        let (r, steps) = play_recorded(&mut hand, &mut agents, &mut seat_rngs(seed)).unwrap();
        HandRecord::new(RuleSet::TRESILLO, deal, dealer, specs.map(String::from).to_vec(), steps, r)
    }

    #[test]
    fn values_chain_from_card_to_card_and_end_at_the_result() {
        let mut played = 0;
        for seed in 0..12 {
            let rec = recorded(seed, ["random", "rule", "random"]);
            let a = analyze(&rec, None).unwrap();
            let took_over = rec.result.surrender.is_some_and(|s| s.took_over.is_some());
            for w in a.cards.windows(2).filter(|_| !took_over) {
                // The value after a card is the value before the next one (only a
                // takeover, which changes the declarer, breaks the chain).
                assert_eq!(w[0].after, w[1].before, "seed {seed} decision {}", w[1].index);
            }
            for c in &a.cards {
                // The value is the best class for the side to move among its cards.
                let best = c.classes.iter().map(|(_, k)| *k);
                let v = if c.declarer_side { best.max() } else { best.min() };
                assert_eq!(v, Some(c.before));
                assert_eq!(c.changed_outcome(), !c.best_cards().contains(&c.played));
            }
            let given_up = rec.result.surrender.is_some_and(|s| s.took_over.is_none());
            let end = Class::of_outcome(rec.result.outcome).map(|c| c as u8);
            if let (Some(last), Some(end), false) = (a.cards.last(), end, given_up) {
                assert_eq!(last.after, end, "seed {seed}");
                played += 1;
            }
        }
        assert!(played > 3);
    }

    #[test]
    fn pimc_counts_every_world_for_every_legal_card() {
        let rec = (0..)
            .map(|s| recorded(s, ["rule", "rule", "rule"]))
            .find(|r| r.result.declarer.is_some())
            .unwrap();
        let a = analyze(&rec, Some(PimcConfig { worlds: 5, seed: 1 })).unwrap();
        let c = &a.cards[0];
        let p = c.pimc.as_ref().unwrap();
        assert_eq!(p.len(), c.classes.len());
        for pc in p {
            assert_eq!(pc.counts.iter().sum::<u32>(), 5);
            assert!((0.0..=2.0).contains(&pc.mean()));
        }
        // The last card of a hand is forced and fully known: PIMC agrees with the solver.
        let last = a.cards.last().unwrap();
        let pl = last.pimc.as_ref().unwrap();
        assert_eq!(pl.len(), 1);
        assert_eq!(pl[0].counts[last.after as usize], 5);
    }
}
