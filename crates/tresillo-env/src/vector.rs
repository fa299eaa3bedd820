//! [`Lane`]: one hand after another for a learner at one seat, the other seats
//! played by built-in agents, stepped one learner decision at a time (auto-reset):
//! what a vectorized environment steps N of at once. Each lane writes its
//! observation and legal-action mask into rows the caller owns (the Python
//! package's NumPy arrays), so a step allocates no tensor.

use crate::observation;
use crate::state::{Env, EnvError, Player, State};
use tresillo_agents::{Agent, AgentRng};
use tresillo_core::action::{Action, NUM_ACTIONS};
use tresillo_core::{Card, Decision, Request, Seat};

/// What a lane's step did: the learner's reward (its return when the hand it
/// acted in ended, else 0) and whether that hand ended (the lane then started
/// the next one: the observation written is the new hand's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The learner's return in the rule set's unit, at the end of a hand; 0 before.
    pub reward: f32,
    /// Whether the learner's hand ended with this step.
    pub terminated: bool,
}

/// How a lane treats a learner's action that is not legal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Illegal {
    /// An error naming the action and the legal ones.
    Refuse,
    /// The hand ends at once with this reward (what Gymnasium's checker needs
    /// of an environment that samples its whole action space).
    End(f32),
}

/// One environment of a vector: a hand in progress, the learner's seat, the
/// agents of the other seats and the seeds.
pub struct Lane {
    env: Env,
    learner: Seat,
    state: State,
    /// The agent of each seat (none at the learner's).
    agents: Vec<Option<Box<dyn Agent>>>,
    /// The agents' random draws.
    rng: AgentRng,
    /// The lane's seed: hand `k` is dealt by `deal_seed(seed, k)`.
    seed: u64,
    /// Hands started since the last reset.
    hands: u64,
    illegal: Illegal,
}

/// The deal seed of hand `k` of a lane seeded `seed`.
#[must_use]
pub fn deal_seed(seed: u64, k: u64) -> u64 {
    tresillo_agents::splitmix64(seed ^ tresillo_agents::splitmix64(k.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

impl Lane {
    /// A lane of `env` with the learner at `learner` and the agents of `specs`
    /// (one per other seat, in seat order), seeded `seed`; its first hand is
    /// dealt and played up to the learner's first decision.
    pub fn new(
        env: Env,
        learner: Seat,
        specs: &[String],
        seed: u64,
        illegal: Illegal,
    ) -> Result<Lane, EnvError> {
        let learner = env.seat(i64::from(learner.0))?;
        let others = usize::from(env.players()) - 1;
        if specs.len() != others {
            return Err(EnvError::Invalid(format!(
                "opponents: {} agents for the {others} other seats",
                specs.len()
            )));
        }
        let mut given = specs.iter();
        let mut agents = Vec::with_capacity(usize::from(env.players()));
        for s in 0..env.players() {
            if s == learner.0 {
                agents.push(None);
                continue;
            }
            let spec = given.next().expect("one spec per other seat");
            let agent = tresillo_agents::build_agent(spec)
                .map_err(|e| EnvError::Invalid(format!("opponent {spec:?}: {e}")))?;
            agents.push(Some(agent));
        }
        let state = env.initial_state(Seat(0))?;
        let mut lane = Lane {
            env,
            learner,
            state,
            agents,
            rng: tresillo_agents::rng_from_seed(seed),
            seed,
            hands: 0,
            illegal,
        };
        lane.reset(seed)?;
        Ok(lane)
    }

    /// Starts afresh from `seed`: hand 0 of that seed, played up to the
    /// learner's first decision.
    pub fn reset(&mut self, seed: u64) -> Result<(), EnvError> {
        self.seed = seed;
        self.hands = 0;
        self.rng = tresillo_agents::rng_from_seed(seed);
        self.next_hand()
    }

    /// The hand in progress.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The lane's seed (hand `k` is dealt by [`deal_seed`] of it).
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Abandons the hand in progress and starts the next one.
    pub fn skip_hand(&mut self) -> Result<(), EnvError> {
        self.next_hand()
    }

    /// Deals the next hand (the dealer turns with each) and plays it up to the
    /// learner's first decision; a hand that ends before it (a four-player
    /// table's dealer sits out) is skipped.
    fn next_hand(&mut self) -> Result<(), EnvError> {
        loop {
            let dealer = Seat((self.hands % u64::from(self.env.players())) as u8);
            let seed = deal_seed(self.seed, self.hands);
            self.hands += 1;
            self.state = self.env.state_for_seed(seed, dealer)?;
            for a in self.agents.iter_mut().flatten() {
                a.new_hand();
            }
            if self.play_others()? {
                return Ok(());
            }
        }
    }

    /// Plays the other seats' decisions until the learner is to move (true)
    /// or the hand is over (false).
    fn play_others(&mut self) -> Result<bool, EnvError> {
        loop {
            let seat = match self.state.current_player() {
                Player::Seat(s) if s == self.learner => return Ok(true),
                Player::Seat(s) => s,
                Player::Terminal => return Ok(false),
                Player::Chance => return Err(EnvError::Engine("a lane's hand is dealt at once".into())),
            };
            let hand = self.state.hand().expect("dealt");
            let view = hand.view(seat);
            let agent = self.agents[usize::from(seat.0)].as_mut().expect("an agent at every other seat");
            let d = agent
                .decide(&view, &mut self.rng)
                .map_err(|f| EnvError::Engine(format!("seat {seat}: {f}")))?;
            match d {
                Decision::Discard(set) => {
                    let mut cards: [Option<Card>; 40] = [None; 40];
                    let mut n = 0;
                    for c in set.iter() {
                        cards[n] = Some(c);
                        n += 1;
                    }
                    cards[..n].sort_unstable_by_key(|c| c.map(Card::index));
                    for c in cards[..n].iter().flatten() {
                        self.state.apply_action(Action::DiscardCard(*c).id().expect("a card id"))?;
                    }
                    self.state.apply_action(Action::DiscardDone.id().expect("the done id"))?;
                }
                d => {
                    let id = Action::Decision(d)
                        .id()
                        .ok_or_else(|| EnvError::Engine(format!("no id for {d:?}")))?;
                    self.state.apply_action(id)?;
                }
            }
        }
    }

    /// The learner's return of the finished hand.
    fn learner_return(&self) -> Result<f32, EnvError> {
        let r = self.state.returns()?;
        Ok(r[usize::from(self.learner.0)] as f32)
    }

    /// Plays the learner's action `a`, then the others up to the learner's
    /// next decision; when the hand ends the next one starts at once.
    pub fn step(&mut self, a: usize) -> Result<Outcome, EnvError> {
        if !self.state.is_legal(a) {
            match self.illegal {
                Illegal::Refuse => return Err(self.state.apply_action(a).expect_err("not legal")),
                Illegal::End(reward) => {
                    self.next_hand()?;
                    return Ok(Outcome { reward, terminated: true });
                }
            }
        }
        self.state.apply_action(a)?;
        if self.play_others()? {
            return Ok(Outcome::default());
        }
        let reward = self.learner_return()?;
        self.next_hand()?;
        Ok(Outcome { reward, terminated: true })
    }

    /// Writes the learner's observation into `obs` ([`Env::OBSERVATION_SIZE`]
    /// values) and its legal actions into `mask` ([`NUM_ACTIONS`] values).
    pub fn write(&self, obs: &mut [f32], mask: &mut [bool]) {
        let hand = self.state.hand().expect("dealt");
        let view = hand.view(self.learner);
        let building = self.state.building(&view);
        observation::write(&view, building, obs);
        mask.fill(false);
        debug_assert_eq!(mask.len(), NUM_ACTIONS);
        match view.request() {
            Request::Play { legal, .. } => {
                for c in legal.iter() {
                    mask[c.index()] = true;
                }
            }
            Request::Discard { min, max, .. } => {
                self.state.discard().legal(view.hand(), min, max, |a| {
                    if let Some(id) = a.id() {
                        mask[id] = true;
                    }
                });
            }
            _ => {
                for id in tresillo_core::action::legal_ids(&view, self.state.discard()) {
                    mask[id] = true;
                }
            }
        }
    }
}
