//! Statistics as counts and sums, mergeable in any order (integers only), and the
//! summary computed from them.
//!
//! `Stats` and `Moments` (integer counts and sums), `SummaryRow`, and `Paired`: a
//! paired comparison (mean, Student's t interval, likelihood of superiority, wins,
//! draws and losses).

use serde::{Deserialize, Serialize};

/// Sums for a mean and its confidence interval: count, sum, sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    /// Observations.
    pub n: u64,
    /// Their sum.
    pub sum: i64,
    /// The sum of their squares.
    pub sum_sq: u64,
}

impl Moments {
    /// Adds one observation.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x.unsigned_abs() * x.unsigned_abs();
    }

    /// Adds another set of sums.
    pub fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// Mean and the half-width of its 95% confidence interval (Student's t
    /// with `n - 1` degrees of freedom, [`crate::student::t95`]), each divided
    /// by `scale`.
    #[must_use]
    pub fn mean_ci(&self, scale: f64) -> Option<(f64, f64)> {
        if self.n == 0 {
            return None;
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let half = if self.n > 1 {
            let var = (self.sum_sq as f64 - n * mean * mean) / (n - 1.0);
            crate::student::half_width(var, self.n)
        } else {
            f64::NAN
        };
        Some((mean / scale, half / scale))
    }
}

/// Per contract (entrada, vuelta, solo) and outcome (sacado, puesta, codillo).
pub type OutcomeCounts = [[u64; 3]; 3];

/// The statistics of one agent slot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentStats {
    /// Seat-deals played (rows).
    pub rows: u64,
    /// Hands it declared (won the auction or was forced).
    pub declared: u64,
    /// Of which forced (espada forzada).
    pub forced: u64,
    /// Hands declared per contract.
    pub contracts: [u64; 3],
    /// Hands declared and won per contract.
    pub won: [u64; 3],
    /// Outcomes of the hands it declared, per contract, for this declarer (a hand
    /// given up and taken over counts as its puesta).
    pub outcomes: OutcomeCounts,
    /// Tantos per row as declarer.
    pub declarer: Moments,
    /// Tantos per row as opponent (cancelled hands count in neither role).
    pub opponent: Moments,
    /// Tantos per scoring unit (a deal, or a session; summed over the duplicate
    /// seatings): the paired observations behind the main confidence interval.
    pub units: Moments,
}

impl AgentStats {
    /// Adds another slot's sums.
    pub fn merge(&mut self, o: &AgentStats) {
        self.rows += o.rows;
        self.declared += o.declared;
        self.forced += o.forced;
        for i in 0..3 {
            self.contracts[i] += o.contracts[i];
            self.won[i] += o.won[i];
            for j in 0..3 {
                self.outcomes[i][j] += o.outcomes[i][j];
            }
        }
        self.declarer.merge(&o.declarer);
        self.opponent.merge(&o.opponent);
        self.units.merge(&o.units);
    }
}

/// The statistics of a run (or a part of it): one entry per agent slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Deals played.
    pub deals: u64,
    /// Rows (deals times seatings).
    pub rows: u64,
    /// Cancelled rows.
    pub cancelled: u64,
    /// Per agent slot (three, or four at a table of four).
    pub agents: Vec<AgentStats>,
}

impl Default for Stats {
    /// Empty statistics of three agent slots.
    fn default() -> Self {
        Stats::new(3, 0)
    }
}

impl Stats {
    /// Empty statistics of `slots` agent slots over `deals` deals.
    #[must_use]
    pub fn new(slots: u8, deals: u64) -> Stats {
        Stats { deals, rows: 0, cancelled: 0, agents: vec![AgentStats::default(); usize::from(slots)] }
    }

    /// Adds another part's sums.
    pub fn merge(&mut self, o: &Stats) {
        self.deals += o.deals;
        self.rows += o.rows;
        self.cancelled += o.cancelled;
        if self.agents.len() < o.agents.len() {
            self.agents.resize(o.agents.len(), AgentStats::default());
        }
        for (a, b) in self.agents.iter_mut().zip(&o.agents) {
            a.merge(b);
        }
    }

    /// The summary table: per agent (role `all`, `declarer`, `opponent`), then one
    /// row `all` for the whole run. `rows_per_unit` is how many rows each agent slot
    /// plays per scoring unit (deals per unit times seatings).
    #[must_use]
    pub fn summary(&self, specs: &[String], rows_per_unit: u64) -> Vec<SummaryRow> {
        let mut out = Vec::new();
        for (i, a) in self.agents.iter().enumerate() {
            let name = format!("{i}:{}", specs.get(i).map_or("?", String::as_str));
            let base = |role: &str, m: &Moments, scale: f64| {
                let mut r = SummaryRow::empty(&name, role);
                r.deals = m.n;
                if let Some((mean, half)) = m.mean_ci(scale) {
                    r.mean_tantos = fmt(mean);
                    r.ci95_low = fmt(mean - half);
                    r.ci95_high = fmt(mean + half);
                }
                r
            };
            let mut all = base("all", &a.units, rows_per_unit as f64);
            all.deals = a.rows;
            all.declared = a.declared.to_string();
            all.declare_rate = ratio(a.declared, a.rows);
            all.forced = a.forced.to_string();
            for c in 0..3 {
                all.contracts[c] = a.contracts[c].to_string();
                all.success[c] = ratio(a.won[c], a.contracts[c]);
            }
            all.outcomes = counts(&a.outcomes);
            out.push(all);
            out.push(base("declarer", &a.declarer, 1.0));
            out.push(base("opponent", &a.opponent, 1.0));
        }
        // The whole run: the agents' sums (every hand has one original declarer).
        let mut sum = AgentStats::default();
        for a in &self.agents {
            sum.merge(a);
        }
        let mut total = SummaryRow::empty("all", "all");
        total.deals = self.rows;
        total.declared = sum.declared.to_string();
        total.declare_rate = ratio(sum.declared, self.rows);
        total.forced = sum.forced.to_string();
        total.cancelled = self.cancelled.to_string();
        for c in 0..3 {
            total.contracts[c] = sum.contracts[c].to_string();
            total.success[c] = ratio(sum.won[c], sum.contracts[c]);
        }
        total.outcomes = counts(&sum.outcomes);
        out.push(total);
        out
    }
}

fn fmt(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { String::new() }
}

fn ratio(a: u64, b: u64) -> String {
    if b == 0 { String::new() } else { format!("{:.4}", a as f64 / b as f64) }
}

fn counts(o: &OutcomeCounts) -> [String; 9] {
    std::array::from_fn(|k| o[k / 3][k % 3].to_string())
}

/// One row of `summary.csv`. Empty strings mean "not applicable".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SummaryRow {
    /// `slot:spec`, or `all`.
    pub agent: String,
    /// `all`, `declarer` or `opponent`.
    pub role: String,
    /// Seat-deals in this role.
    pub deals: u64,
    /// Hands declared.
    pub declared: String,
    /// Declared / deals.
    pub declare_rate: String,
    /// Of which espada forzada.
    pub forced: String,
    /// Entrada, vuelta, solo declared.
    pub contracts: [String; 3],
    /// Success rate per contract.
    pub success: [String; 3],
    /// Outcome counts per contract.
    pub outcomes: [String; 9],
    /// Cancelled hands (the `all` row only).
    pub cancelled: String,
    /// Mean tantos per deal.
    pub mean_tantos: String,
    /// 95% confidence interval, low end.
    pub ci95_low: String,
    /// 95% confidence interval, high end.
    pub ci95_high: String,
}

impl SummaryRow {
    fn empty(agent: &str, role: &str) -> SummaryRow {
        SummaryRow { agent: agent.to_string(), role: role.to_string(), ..SummaryRow::default() }
    }

    /// The column names, in order.
    #[must_use]
    pub fn header() -> Vec<&'static str> {
        vec![
            "agent",
            "role",
            "deals",
            "declared",
            "declare_rate",
            "forced",
            "entrada",
            "vuelta",
            "solo",
            "entrada_success",
            "vuelta_success",
            "solo_success",
            "entrada_sacado",
            "entrada_puesta",
            "entrada_codillo",
            "vuelta_sacado",
            "vuelta_puesta",
            "vuelta_codillo",
            "solo_sacado",
            "solo_puesta",
            "solo_codillo",
            "cancelled",
            "mean_tantos",
            "ci95_low",
            "ci95_high",
        ]
    }

    /// The fields, in the order of [`SummaryRow::header`].
    #[must_use]
    pub fn fields(&self) -> Vec<String> {
        let mut v = vec![
            self.agent.clone(),
            self.role.clone(),
            self.deals.to_string(),
            self.declared.clone(),
            self.declare_rate.clone(),
            self.forced.clone(),
        ];
        v.extend(self.contracts.iter().cloned());
        v.extend(self.success.iter().cloned());
        v.extend(self.outcomes.iter().cloned());
        v.extend([
            self.cancelled.clone(),
            self.mean_tantos.clone(),
            self.ci95_low.clone(),
            self.ci95_high.clone(),
        ]);
        v
    }
}

/// The mean of `xs` and its 95% confidence interval (Student's t with
/// `n - 1` degrees of freedom, the values independent); the interval is `None`
/// with fewer than two values.
#[must_use]
pub fn mean_ci95(xs: &[f64]) -> (f64, Option<(f64, f64)>) {
    let p = Paired::of(xs);
    (p.mean, p.ci95)
}

/// A paired comparison over independent units (each unit's difference A minus
/// B): the mean, its 95% interval (Student's t), the likelihood of
/// superiority and the units A won, drew and lost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Units.
    pub n: u64,
    /// The mean difference.
    pub mean: f64,
    /// Its standard error (NaN below two units).
    pub se: f64,
    /// The 95% interval, `mean ± t95(n - 1) · se`; `None` below two units.
    pub ci95: Option<(f64, f64)>,
    /// The likelihood of superiority, `P(true mean > 0)`: the t distribution
    /// function at `mean / se` ([`crate::student::los`]); `None` below two units.
    pub los: Option<f64>,
    /// Units with a positive difference (A scored more).
    pub wins: u64,
    /// Units with a difference of 0.
    pub draws: u64,
    /// Units with a negative difference.
    pub losses: u64,
}

impl Paired {
    /// The comparison of the differences `xs`.
    #[must_use]
    pub fn of(xs: &[f64]) -> Paired {
        let n = xs.len() as f64;
        let mean = if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / n };
        let var = xs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0);
        let two = xs.len() >= 2;
        let half = crate::student::half_width(var, xs.len() as u64);
        let se = if two { (var / n).sqrt() } else { f64::NAN };
        Paired {
            n: xs.len() as u64,
            mean,
            se,
            ci95: two.then_some((mean - half, mean + half)),
            los: two.then(|| crate::student::los(mean, se, xs.len() as u64 - 1)),
            wins: xs.iter().filter(|&&d| d > 0.0).count() as u64,
            draws: xs.iter().filter(|&&d| d == 0.0).count() as u64,
            losses: xs.iter().filter(|&&d| d < 0.0).count() as u64,
        }
    }
}

/// An Elo difference from paired units' wins, draws and losses (the trinomial
/// of a duplicate deal: A's tantos above, equal to or below B's on the same
/// cards, every seating summed): A's score `s = (W + D/2) / N` read on the
/// logistic Elo scale, `400 · log10(s / (1 - s))`, with a 95% interval from
/// the score's own interval (Student's t on the per-unit scores 1, ½, 0 with
/// `N - 1` degrees of freedom, as `pairs.csv`'s intervals are) mapped through
/// the same curve. It counts how often A beats B on a deal, not by how much:
/// two agents whose tantos differ by much on a few deals and by a little the
/// other way on many can have Elo and tantos of opposite signs. An end at a
/// score of 0 or 1 is infinite (`-inf`, `inf`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The Elo difference, A over B.
    pub elo: f64,
    /// Its 95% interval.
    pub ci95: (f64, f64),
}

/// The Elo scale's value of a score share `s` (`±inf` at 0 and 1).
#[must_use]
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (s / (1.0 - s)).log10()
    }
}

impl Elo {
    /// The Elo difference of `wins`, `draws` and `losses` (see [`Elo`]); `None`
    /// below two units.
    #[must_use]
    pub fn of(wins: u64, draws: u64, losses: u64) -> Option<Elo> {
        let n = wins + draws + losses;
        if n < 2 {
            return None;
        }
        let nf = n as f64;
        let s = (wins as f64 + draws as f64 / 2.0) / nf;
        let var =
            (wins as f64 * (1.0 - s).powi(2) + draws as f64 * (0.5 - s).powi(2) + losses as f64 * s * s)
                / (nf - 1.0);
        let half = crate::student::half_width(var, n);
        Some(Elo { elo: elo_of_score(s), ci95: (elo_of_score(s - half), elo_of_score(s + half)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_mean_and_ci() {
        let mut m = Moments::default();
        for x in [1, 2, 3, 4, 5] {
            m.add(x);
        }
        let (mean, half) = m.mean_ci(1.0).unwrap();
        assert!((mean - 3.0).abs() < 1e-12);
        // sd = sqrt(2.5), se = sqrt(0.5); Student's t with 4 degrees of freedom.
        assert!((half - 2.776_445_105_197_8 * 0.5f64.sqrt()).abs() < 1e-9, "{half}");
        let (m2, h2) = m.mean_ci(2.0).unwrap();
        assert!((m2 - 1.5).abs() < 1e-12 && (h2 - half / 2.0).abs() < 1e-12);
    }

    /// Issue 55: Elo from W/D/L, checked by hand: 60 wins, 20 draws, 20 losses
    /// is a score of 0.7, 147.19 Elo; its interval is the score's by Student's t.
    #[test]
    fn elo_from_wins_draws_and_losses() {
        let e = Elo::of(60, 20, 20).unwrap();
        assert!((e.elo - 147.190_714_117_837_8).abs() < 1e-6, "{e:?}");
        let var: f64 = (60.0 * 0.3f64.powi(2) + 20.0 * 0.2f64.powi(2) + 20.0 * 0.7f64.powi(2)) / 99.0;
        let half = crate::student::t95(99) * (var / 100.0).sqrt();
        assert!((e.ci95.0 - elo_of_score(0.7 - half)).abs() < 1e-9 && e.ci95.1 > e.elo, "{e:?}");
        assert_eq!(Elo::of(5, 5, 5).unwrap().elo, 0.0);
        assert_eq!(Elo::of(3, 0, 0).unwrap().elo, f64::INFINITY);
        assert!(Elo::of(1, 0, 0).is_none());
        // Symmetric: B over A is minus A over B.
        let b = Elo::of(20, 20, 60).unwrap();
        assert!((b.elo + e.elo).abs() < 1e-9 && (b.ci95.1 + e.ci95.0).abs() < 1e-9);
    }

    #[test]
    fn paired_intervals_use_students_t() {
        // Ten differences: the 95% interval is mean ± t(0.975, 9) · se, 15%
        // wider than the normal approximation's.
        let xs = [1.0, -2.0, 3.0, 0.0, 4.0, 2.0, -1.0, 0.0, 5.0, 1.0];
        let p = Paired::of(&xs);
        let (lo, hi) = p.ci95.unwrap();
        let se = p.se;
        assert!((p.mean - 1.3).abs() < 1e-12);
        assert!((hi - p.mean - 2.262_157_162_798_2 * se).abs() < 1e-9, "{lo} {hi}");
        assert!((p.mean - lo - 2.262_157_162_798_2 * se).abs() < 1e-9);
        assert_eq!((p.wins, p.draws, p.losses), (6, 2, 2));
        let los = p.los.unwrap();
        assert!(los > 0.9 && los < 1.0, "{los}");
        assert_eq!(mean_ci95(&xs), (p.mean, p.ci95));
        assert_eq!(Paired::of(&[2.0]).ci95, None);
    }

    #[test]
    fn merge_is_order_independent() {
        let mut a = Moments::default();
        let mut b = Moments::default();
        a.add(3);
        b.add(-7);
        let mut x = a;
        x.merge(&b);
        let mut y = b;
        y.merge(&a);
        assert_eq!(x, y);
    }
}
