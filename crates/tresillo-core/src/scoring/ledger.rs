//! The [`Ledger`]: bowls, plato, pajaritos and paper, one hand at a time.

use super::chips::ChipsLedger;
use super::common::{AipCase, Debt, HandScore, LedgerConfig, ScoringError, ScoringMode, Settlement};
use super::points::PointsLedger;
use super::validate::{Checked, check};
use crate::card::{BySeat, Seat};
use crate::game::Outcome;
use crate::result::HandResult;
use crate::rules::{Rules, ScoringSystem};

/// The score of a Tresillo session under the puesta system (RULES.md section 8):
/// every bowl, the plato (and whether it holds a failure payment), the pajaritos dish
/// and the paper (the reserved puestas, each with its owner, in the order written).
///
/// [`Ledger::apply`] scores one [`HandResult`] at a time: first the
/// dealer's moves before the deal (a pajarito when the plato and the paper are empty,
/// then the dealer's tanto), then the payments of the hand, then the condiciones. A
/// result that does not hold together is rejected with a [`ScoringError`] and the
/// ledger is left unchanged. [`Ledger::settle`] computes the end-of-session
/// settlement.
///
/// ```
/// use tresillo_core::{table_result, Contract, Ledger, LedgerConfig, Seat};
///
/// let mut ledger = Ledger::new(LedgerConfig::default())?;
/// assert_eq!((ledger.bowls(), ledger.pajaritos()), (&[155, 155, 155][..], 15));
///
/// // Seat 0 deals: a pajarito (5) goes to the plato, and the dealer's tanto.
/// // Seat 1 plays an entrada and makes 5 tricks to 2 and 2: sacado.
/// let score = ledger.apply(&table_result(3, Seat(0), Seat(1), Contract::Entrada, &[2, 5, 2]))?;
/// assert_eq!(score.aip, 6 + 3); // first puesta: plato + n
/// assert_eq!(score.totals().0[..3], [-2, 8, -1]); // the plato (6) and 1 from each
/// assert_eq!(ledger.plato(), 0);
///
/// // Seat 1 deals, seat 2 plays a solo and makes only 4 tricks to 4 and 1: puesta.
/// let score = ledger.apply(&table_result(3, Seat(1), Seat(2), Contract::Solo, &[4, 1, 4]))?;
/// assert_eq!(score.aip, 6 + 3);
/// assert_eq!(score.pool.0[2], -9); // into the plato, which now holds a failure
/// assert_eq!(score.condiciones.0[..3], [2, 2, -4]); // solo: 2 to each
/// assert!(ledger.plato_has_failure());
/// assert_eq!(ledger.next_aip(), 15 + 1 + 3);
/// # Ok::<(), tresillo_core::ScoringError>(())
/// ```
///
/// # Choices where RULES.md is silent
///
/// - **Trick counts not recorded.** A result whose trick counts are all zero (typed
///   in from a real table with only its outcome) is taken at its word: the outcome
///   is checked against the seats, not against the tricks. The engine never produces
///   such a result for a hand that was played.
/// - **The deal rotates.** Once a ledger has scored a hand, the next result must be
///   dealt by the next seat in turn order ([`ScoringError::DealerOutOfTurn`]). The
///   first hand of a ledger may be dealt by anyone.
/// - **Penetro** (four players, section 12.2). The dealer is the declarer; the
///   contract is an entrada (or none when the dealer gives up at once), so the
///   condiciones are the penetro's 1 plus the entrada's 0, plus estuche, primeras and
///   bola on a win. Giving up at once is recorded as a surrender by the dealer with
///   nobody taking over and no tricks; it is paid as a puesta plus the penetro
///   condición. The player who dropped out is not recorded: like the inactive
///   dealer of an ordinary hand, they pay and receive condiciones and the sacado
///   tanto ("every other player"). A four-player hand is never cancelled.
/// - **Failed bola.** The contract is paid as won (contract, estuche), and the bola's
///   8 is paid by the declarer to each other player; the two are netted in the
///   condiciones of the hand.
/// - **Takeover.** The player who took over neither pays nor receives any condición
///   (estuche, primeras and bola included); the original declarer pays each other
///   player the condiciones of a lost contract. A codillo after a takeover may be won
///   by the original declarer, who is then paid the amount in play by the new one.
/// - **Refilling the dish.** "At once" means in the same step: the pajarito that
///   empties the dish is followed by every player's 5 before the dealer's tanto.
/// - **Settlement order.** With no hand scored yet, the remainder goes in turn order
///   from seat 0.
/// - **Rule sets and options** (sections 12.1 and 12.5). What a rule set changes
///   (the `+n`, the sacado tanto, the condiciones, takeover condiciones) comes from
///   its [`RuleSpec`](crate::RuleSpec). `palo_de_favor` doubles, when the favoured
///   suit is trumps, the condiciones, the `+n` and the sacado tanto *of the rule
///   set* (so under `tresillo-house`, which has neither `+n` nor sacado tanto, only
///   the condiciones). `codillo_old`: a codillo pays the amount in play to the
///   winner and nothing to the plato or the paper; after a takeover the one who
///   gave up still makes the puesta of the surrender, and the one who took over
///   pays the winner only.
/// - **House takeover condiciones** (12.1). The original declarer pays the
///   contract's condición as for a puesta; the one who took over, when they win, is
///   paid estuche, contra-estuche, primeras and a made bola by every other player.
/// - **Per-hand split.** [`HandScore::pool`] is every change of a bowl that is not a
///   condición: the dealer's tanto, pajarito refills, what is taken from or paid into
///   the plato, the sacado tantos, payments of reserved puestas and the amounts paid
///   to a codillo winner or to a player who took over.
///
/// Tokens are conserved: [`Ledger::tokens`] (bowls + plato + pajaritos) never
/// changes; the paper holds promises, not tokens. Creating a ledger does not
/// allocate; the paper allocates when the first debt is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ledger {
    config: LedgerConfig,
    bowls: BySeat<i64>,
    plato: i64,
    plato_failure: bool,
    pajaritos: i64,
    paper: Vec<Debt>,
    hands: u32,
    last_dealer: Option<Seat>,
}

/// Where a payment comes from or goes to within one hand.
#[derive(Clone, Copy)]
enum Book {
    Pool,
    Condiciones,
}

impl Ledger {
    /// A ledger at the start of a session: each player has put one pajarito of their
    /// starting bowl into the dish; the plato and the paper are empty.
    pub fn new(config: LedgerConfig) -> Result<Ledger, ScoringError> {
        let n = config.players;
        if !config.rules.spec().tables.iter().any(|t| t.players == n) {
            return Err(ScoringError::Players(n));
        }
        let scoring = Rules { set: config.rules, options: config.options }.scoring();
        if !scoring.kept_by_ledger() {
            return Err(ScoringError::System { rules: config.rules, ledger: "puesta" });
        }
        let (start_bowl, pajarito) = (config.start_bowl, config.pajarito);
        if !(1..=LedgerConfig::MAX_PAJARITO).contains(&pajarito)
            || !(pajarito..=LedgerConfig::MAX_BOWL).contains(&start_bowl)
        {
            return Err(ScoringError::Stakes { start_bowl, pajarito });
        }
        // Only the puesta system has a pajaritos dish.
        let stake = if scoring.puesta_accounts() { config.pajarito } else { 0 };
        let mut bowls = BySeat::default();
        for b in &mut bowls.0[..n as usize] {
            *b = config.start_bowl - stake;
        }
        Ok(Ledger {
            config,
            bowls,
            plato: 0,
            plato_failure: false,
            pajaritos: stake * i64::from(n),
            paper: Vec::new(),
            hands: 0,
            last_dealer: None,
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &LedgerConfig {
        &self.config
    }

    /// Players at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.config.players
    }

    fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.config.players).map(Seat)
    }

    /// Every bowl, in seat order (one per player; bowls may be negative).
    #[must_use]
    pub fn bowls(&self) -> &[i64] {
        &self.bowls.0[..self.config.players as usize]
    }

    /// The bowl of `seat`.
    #[must_use]
    pub fn bowl(&self, seat: Seat) -> i64 {
        self.bowls[seat]
    }

    /// The plato.
    #[must_use]
    pub fn plato(&self) -> i64 {
        self.plato
    }

    /// Whether the plato holds a failure payment (a puesta paid into it since it was
    /// last won). A plato that only holds pajaritos and the dealers' tantos does not.
    #[must_use]
    pub fn plato_has_failure(&self) -> bool {
        self.plato_failure
    }

    /// The pajaritos dish.
    #[must_use]
    pub fn pajaritos(&self) -> i64 {
        self.pajaritos
    }

    /// The paper: every debt not yet crossed out, in the order written.
    #[must_use]
    pub fn paper(&self) -> &[Debt] {
        &self.paper
    }

    /// What `seat` owes on the paper.
    #[must_use]
    pub fn owed_by(&self, seat: Seat) -> i64 {
        self.paper.iter().filter(|d| d.owner == seat).map(|d| d.amount).sum()
    }

    /// Bowls + plato + pajaritos: constant over a session.
    #[must_use]
    pub fn tokens(&self) -> i64 {
        self.bowls().iter().sum::<i64>() + self.plato + self.pajaritos
    }

    /// Hands scored so far.
    #[must_use]
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The dealer of the last hand scored.
    #[must_use]
    pub fn last_dealer(&self) -> Option<Seat> {
        self.last_dealer
    }

    /// The seat that must deal the next hand, once a hand has been scored.
    #[must_use]
    pub fn next_dealer(&self) -> Option<Seat> {
        self.last_dealer.map(|d| d.next(self.config.players))
    }

    /// The index in [`Ledger::paper`] of the debt played for in case 3: the largest,
    /// the last written among equals.
    #[must_use]
    pub fn largest_debt(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, d) in self.paper.iter().enumerate() {
            if best.is_none_or(|b| d.amount >= self.paper[b].amount) {
                best = Some(i);
            }
        }
        best
    }

    /// The plato of the next hand after the dealer's moves.
    fn plato_after_deal(&self) -> i64 {
        let pajarito = if self.plato == 0 && self.paper.is_empty() { self.config.pajarito } else { 0 };
        self.plato + pajarito + self.rules().dealer_stake()
    }

    fn rules(&self) -> Rules {
        Rules { set: self.config.rules, options: self.config.options }
    }

    /// The `+n` of the first-puesta and puesta-in-the-plato cases: n, doubled in
    /// the favoured suit; 0 in rule sets without it.
    fn plus_n(&self, favoured: bool) -> i64 {
        let spec = self.rules().spec();
        if spec.aip_plus_n { i64::from(self.config.players) * (1 + i64::from(favoured)) } else { 0 }
    }

    fn aip_with_plato(&self, plato: i64) -> (AipCase, i64, Option<usize>) {
        self.aip_for(plato, false)
    }

    fn aip_for(&self, plato: i64, favoured: bool) -> (AipCase, i64, Option<usize>) {
        let n = self.plus_n(favoured);
        if self.plato_failure {
            (AipCase::PuestaInPlato, plato + n, None)
        } else if let Some(i) = self.largest_debt() {
            (AipCase::Reserved, self.paper[i].amount + plato, Some(i))
        } else {
            (AipCase::FirstPuesta, plato + n, None)
        }
    }

    /// The case of the next hand.
    #[must_use]
    pub fn next_case(&self) -> AipCase {
        self.aip_with_plato(0).0
    }

    /// The amount in play of the next hand, counting the dealer's tanto and the
    /// pajarito it will bring (outside the favoured suit of `palo_de_favor`).
    #[must_use]
    pub fn next_aip(&self) -> i64 {
        self.aip_with_plato(self.plato_after_deal()).1
    }

    /// Scores one hand: the dealer's moves before the deal, the hand's payments and
    /// the condiciones. An invalid result is rejected and the ledger left unchanged.
    pub fn apply(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        if self.rules().spec().scoring == ScoringSystem::PerDefender {
            return self.apply_per_defender(r);
        }
        let checked = check(&self.config, self.last_dealer, r)?;
        let hand = self.hands + 1;
        let mut s = HandScore::new(hand, r.dealer);
        self.deal(r.dealer, &mut s);
        let rules = self.rules();
        let favoured = rules.favoured(r.trump);
        let (case, aip, played) = self.aip_for(self.plato, favoured);
        s.case = case;
        s.aip = aip;
        s.played_for = played.map(|i| self.paper[i]);
        if let Checked::Played { declarer: d, surrendered, takeover } = checked {
            match (surrendered, takeover) {
                (false, _) => match r.outcome {
                    Outcome::Sacado => self.sacado(d, played, favoured, &mut s),
                    Outcome::Puesta { .. } => self.puesta(d, &mut s),
                    Outcome::Codillo { winner } => {
                        if !rules.codillo_old() {
                            self.puesta(d, &mut s);
                        }
                        self.pay(d, winner, aip, Book::Pool, &mut s);
                    }
                    Outcome::Cancelled => unreachable!("checked"),
                },
                (true, None) => self.puesta(d, &mut s),
                (true, Some(o)) => match r.outcome {
                    Outcome::Sacado => self.pay(d, o, aip, Book::Pool, &mut s),
                    Outcome::Puesta { .. } => self.twin(d, o, &mut s),
                    Outcome::Codillo { winner } => {
                        if rules.codillo_old() {
                            self.puesta(d, &mut s);
                        } else {
                            self.twin(d, o, &mut s);
                        }
                        self.pay(o, winner, aip, Book::Pool, &mut s);
                    }
                    Outcome::Cancelled => unreachable!("checked"),
                },
            }
            let per = condiciones_per_player(&rules, r, surrendered);
            for other in self.seats().filter(|&x| x != d) {
                self.pay(other, d, per, Book::Condiciones, &mut s);
            }
            if let Some(o) = takeover
                && rules.spec().takeover_condiciones
                && r.outcome.is_won()
            {
                let bonus = takeover_bonus(&rules, r);
                for other in self.seats().filter(|&x| x != o) {
                    self.pay(other, o, bonus, Book::Condiciones, &mut s);
                }
            }
        }
        self.hands = hand;
        self.last_dealer = Some(r.dealer);
        Ok(s)
    }

    /// Scores a hand of a rule set paid per defender (`lhombre`): the table checks
    /// of every rule set, then payments straight between the bowls.
    fn apply_per_defender(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        let n = self.config.players;
        if r.players != n {
            return Err(ScoringError::WrongTable { expected: n, got: r.players });
        }
        if r.rules != self.config.rules {
            return Err(ScoringError::WrongRules { expected: self.config.rules, got: r.rules });
        }
        if r.options != self.config.options {
            return Err(ScoringError::Inconsistent(
                "the result was played with other rule options than the ledger's",
            ));
        }
        if r.dealer.0 >= n {
            return Err(ScoringError::UnknownSeat { role: "dealer", seat: r.dealer, last: n - 1 });
        }
        super::validate::check_shared(&self.config, r)?;
        if let Some(expected) = self.next_dealer()
            && r.dealer != expected
        {
            return Err(ScoringError::DealerOutOfTurn { expected, got: r.dealer });
        }
        let (pool, condiciones) = super::lhombre::payments(r)?;
        for x in self.seats() {
            self.bowls[x] += pool[x] + condiciones[x];
        }
        self.hands += 1;
        self.last_dealer = Some(r.dealer);
        Ok(HandScore { pool, condiciones, ..HandScore::new(self.hands, r.dealer) })
    }

    /// Before the deal: a pajarito when the plato and paper are empty (refilling the
    /// dish at once when it empties), then the dealer's tanto.
    fn deal(&mut self, dealer: Seat, s: &mut HandScore) {
        let p = self.config.pajarito;
        if self.plato == 0 && self.paper.is_empty() {
            self.pajaritos -= p;
            self.plato += p;
            if self.pajaritos <= 0 {
                for x in self.seats() {
                    self.bowls[x] -= p;
                    s.pool[x] -= p;
                    self.pajaritos += p;
                }
            }
        }
        let stake = self.rules().dealer_stake();
        self.bowls[dealer] -= stake;
        s.pool[dealer] -= stake;
        self.plato += stake;
    }

    fn pay(&mut self, from: Seat, to: Seat, amount: i64, book: Book, s: &mut HandScore) {
        self.bowls[from] -= amount;
        self.bowls[to] += amount;
        let b = match book {
            Book::Pool => &mut s.pool,
            Book::Condiciones => &mut s.condiciones,
        };
        b[from] -= amount;
        b[to] += amount;
    }

    fn take_plato(&mut self, d: Seat, s: &mut HandScore) {
        self.bowls[d] += self.plato;
        s.pool[d] += self.plato;
        self.plato = 0;
        self.plato_failure = false;
    }

    fn pay_into_plato(&mut self, d: Seat, amount: i64, s: &mut HandScore) {
        self.bowls[d] -= amount;
        s.pool[d] -= amount;
        self.plato += amount;
        self.plato_failure = true;
    }

    fn write(&mut self, owner: Seat, amount: i64, s: &mut HandScore) {
        let debt = Debt { owner, amount, hand: s.hand };
        self.paper.push(debt);
        s.debts[owner] += amount;
        let slot = usize::from(s.written[0].is_some());
        s.written[slot] = Some(debt);
    }

    fn sacado(&mut self, d: Seat, played: Option<usize>, favoured: bool, s: &mut HandScore) {
        self.take_plato(d, s);
        match (s.case, played) {
            (AipCase::Reserved, Some(i)) => {
                let debt = self.paper.remove(i);
                if debt.owner != d {
                    self.pay(debt.owner, d, debt.amount, Book::Pool, s);
                }
                s.debts[debt.owner] -= debt.amount;
                s.crossed_out = Some(debt);
            }
            _ => {
                if self.rules().spec().sacado_tanto {
                    let tanto = 1 + i64::from(favoured);
                    for x in self.seats().filter(|&x| x != d) {
                        self.pay(x, d, tanto, Book::Pool, s);
                    }
                }
            }
        }
    }

    fn puesta(&mut self, d: Seat, s: &mut HandScore) {
        match s.case {
            AipCase::FirstPuesta => self.pay_into_plato(d, s.aip, s),
            _ => self.write(d, s.aip, s),
        }
    }

    fn twin(&mut self, d: Seat, o: Seat, s: &mut HandScore) {
        match s.case {
            AipCase::FirstPuesta => {
                self.pay_into_plato(d, s.aip, s);
                self.pay_into_plato(o, s.aip, s);
            }
            _ => {
                self.write(d, s.aip, s);
                self.write(o, s.aip, s);
            }
        }
    }

    /// The end-of-session settlement of the ledger as it stands (the ledger is not
    /// changed).
    #[must_use]
    pub fn settle(&self) -> Settlement {
        let n = self.config.players;
        let mut debts_paid = BySeat::default();
        for d in &self.paper {
            debts_paid[d.owner] += d.amount;
        }
        let mut after = self.bowls;
        for x in self.seats() {
            after[x] -= debts_paid[x];
        }
        let fund = self.plato + self.pajaritos + debts_paid.0.iter().sum::<i64>();
        let share = fund.div_euclid(i64::from(n));
        let rem = fund.rem_euclid(i64::from(n)) as usize;
        // Turn order starting after the last dealer; a stable sort keeps it for ties.
        let first = self.last_dealer.map_or(Seat(0), |d| d.next(n));
        let mut order: [Seat; 4] = std::array::from_fn(|k| first.plus(k as u8, n));
        order[..n as usize].sort_by_key(|&x| after[x]);
        let mut remainder = BySeat::default();
        for &x in &order[..rem] {
            remainder[x] = true;
        }
        let mut final_bowls = BySeat::default();
        let mut results = BySeat::default();
        for x in self.seats() {
            final_bowls[x] = after[x] + share + i64::from(remainder[x]);
            results[x] = final_bowls[x] - self.config.start_bowl;
        }
        Settlement {
            players: n,
            plato: self.plato,
            pajaritos: self.pajaritos,
            debts_paid,
            fund,
            share,
            remainder,
            final_bowls,
            results,
        }
    }
}

/// What each other player pays the declarer in condiciones (negative: what the
/// declarer pays each of them), from the rule set's table, doubled in the
/// favoured suit of `palo_de_favor`.
fn condiciones_per_player(rules: &Rules, r: &HandResult, surrendered: bool) -> i64 {
    let c = &rules.spec().condiciones;
    let double = 1 + i64::from(rules.favoured(r.trump));
    let base = r.contract.map_or(0, |k| c.contract(k)) + if r.penetro { c.penetro } else { 0 };
    if surrendered || !r.outcome.is_won() {
        // A declarer who gives up pays as for a puesta, even when another player
        // took over and won.
        return -base * double;
    }
    let mut per = base;
    if r.estuche {
        per += c.estuche;
    }
    if r.contra_estuche {
        per += c.contra_estuche;
    }
    if r.primeras {
        per += c.primeras;
    }
    if r.bola_attempted {
        per += if r.bola_made { c.bola } else { -c.bola };
    }
    per * double
}

/// Under `tresillo-house`, what every other player pays one who took over and won:
/// estuche, contra-estuche, primeras and a made bola (a failed bola costs nothing).
fn takeover_bonus(rules: &Rules, r: &HandResult) -> i64 {
    let c = &rules.spec().condiciones;
    let mut per = 0;
    if r.final_estuche {
        per += c.estuche;
    }
    if r.final_contra_estuche {
        per += c.contra_estuche;
    }
    if r.primeras {
        per += c.primeras;
    }
    if r.bola_made {
        per += c.bola;
    }
    per * (1 + i64::from(rules.favoured(r.trump)))
}

/// Scores `r` in [`ScoringMode::Deal`]: from a fresh ledger of `config` (the
/// rule set's own ledger: puesta, points or chips).
pub fn score_deal(config: LedgerConfig, r: &HandResult) -> Result<HandScore, ScoringError> {
    System::new(config)?.apply(r)
}

/// The ledger of a rule set's scoring system.
#[derive(Clone, Debug, PartialEq, Eq)]
enum System {
    Puesta(Ledger),
    Points(PointsLedger),
    Chips(ChipsLedger),
}

impl System {
    fn new(config: LedgerConfig) -> Result<System, ScoringError> {
        Ok(match (Rules { set: config.rules, options: config.options }).scoring() {
            s if s.kept_by_ledger() => System::Puesta(Ledger::new(config)?),
            ScoringSystem::Chips => System::Chips(ChipsLedger::new(config)?),
            _ => System::Points(PointsLedger::new(config)?),
        })
    }

    fn config(&self) -> LedgerConfig {
        match self {
            System::Puesta(l) => l.config,
            System::Points(l) => *l.config(),
            System::Chips(l) => *l.config(),
        }
    }

    fn apply(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        match self {
            System::Puesta(l) => l.apply(r),
            System::Points(l) => l.apply(r),
            System::Chips(l) => l.apply(r),
        }
    }
}

/// Scores hands one after another in either [`ScoringMode`], with the ledger of the
/// rule set's scoring system (the puesta [`Ledger`], or `hombre`'s
/// [`PointsLedger`] or [`ChipsLedger`]): `Session` carries one ledger across the
/// hands; `Deal` scores every hand from a fresh ledger (then the ledger is that of
/// the last hand alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scorer {
    mode: ScoringMode,
    book: System,
}

impl Scorer {
    /// A scorer for a table of `config`.
    pub fn new(mode: ScoringMode, config: LedgerConfig) -> Result<Scorer, ScoringError> {
        Ok(Scorer { mode, book: System::new(config)? })
    }

    /// The mode.
    #[must_use]
    pub fn mode(&self) -> ScoringMode {
        self.mode
    }

    /// The puesta ledger (in `Deal` mode, that of the last hand scored); `None`
    /// for a rule set scored by points or chips.
    #[must_use]
    pub fn ledger(&self) -> Option<&Ledger> {
        match &self.book {
            System::Puesta(l) => Some(l),
            _ => None,
        }
    }

    /// The points ledger of `hombre`, if this scorer keeps one.
    #[must_use]
    pub fn points(&self) -> Option<&PointsLedger> {
        match &self.book {
            System::Points(l) => Some(l),
            _ => None,
        }
    }

    /// The chips ledger of `hombre-chips`, if this scorer keeps one.
    #[must_use]
    pub fn chips(&self) -> Option<&ChipsLedger> {
        match &self.book {
            System::Chips(l) => Some(l),
            _ => None,
        }
    }

    /// Scores one hand. On error nothing changes.
    pub fn apply(&mut self, r: &HandResult) -> Result<HandScore, ScoringError> {
        match self.mode {
            ScoringMode::Session => self.book.apply(r),
            ScoringMode::Deal => {
                let mut fresh = System::new(self.book.config())?;
                let s = fresh.apply(r)?;
                self.book = fresh;
                Ok(s)
            }
        }
    }

    /// The settlement of the current puesta ledger (`None` for points or chips,
    /// whose scores are final after each hand).
    #[must_use]
    pub fn settle(&self) -> Option<Settlement> {
        self.ledger().map(Ledger::settle)
    }
}
