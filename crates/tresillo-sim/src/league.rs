//! League ratings: one number per agent from the tables of a league, with a 95%
//! confidence interval, and the pairwise matrix.
//!
//! **The model** is additive in tantos per deal. At a table of `k` agents, agent
//! `i`'s result on a deal (its tantos summed over the deal's seatings, divided by
//! their number), minus the mean result of the table on that deal, is
//!
//! ```text
//! y'(t, d, i) = r_i - (1/k) sum_{j at t} r_j + noise,    sum_i r_i = 0
//! ```
//!
//! fitted by least squares. A rating is therefore in the unit users read
//! everywhere else (tantos per deal), an agent's expected gain over the average
//! of a table drawn from the league; the difference of two ratings is the
//! expected paired difference of the two agents at one table. Ratings of agents
//! that never met are comparable because the model is fitted on all tables at
//! once. Why not Bradley-Terry or Plackett-Luce on each table's ranking: a deal of
//! Tresillo mostly ends with one declarer winning or losing and two opponents
//! tied, so rankings throw away the size of each result (a codillo against a
//! sacada) that is the whole point of the game's scoring, and duplicate deals make
//! the tantos themselves low-noise. Centering each deal's results at their table
//! mean removes what all seats share (a pool, the plato) and leaves the model
//! linear, so its fit is exact and deterministic (no iterations, no seed).
//!
//! **The intervals** come from the cluster-robust (sandwich) covariance with
//! the deals as clusters: every table plays the same deal seeds, so a deal's
//! results at different tables are correlated (the same cards), while deals are
//! independent. With `X` the design (one row `e_i - mean_t e` per table, deal and
//! seat), `A = X'X + 11'/n` (the constraint), `u_d` the sum over deal `d`'s rows
//! of `x (y' - x'r)` (its residual score) and `C` the number of deals:
//!
//! ```text
//! r = A^-1 X'y',   Var(r) = A^-1 [C/(C-1) sum_d u_d u_d'] A^-1
//! ```
//!
//! and the interval is `r_i ± t95(C-1) sqrt(Var(r)_ii)` (Student's t with
//! `C - 1` degrees of freedom, the clusters less one). The difference of two
//! ratings, the question a reader asks, has its own interval,
//! `r_a - r_b ± t95(C-1) sqrt(Var_aa + Var_bb - 2 Var_ab)`, and its likelihood
//! of superiority `T_{C-1}((r_a - r_b) / se)` ([`Fit::difference`]). A
//! simulation in the tests checks that the intervals cover the true ratings
//! about 95% of the time.

use std::collections::BTreeMap;
use std::fmt;

/// The results of one table: which agents sat at it (league indices, in slot
/// order) and, per deal index, each slot's tantos per deal (the sum over the
/// deal's seatings divided by their number).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableResults {
    /// League indices of the agents in slot order.
    pub agents: Vec<usize>,
    /// Deal index, then one result per slot.
    pub deals: Vec<(u64, Vec<f64>)>,
}

/// An agent's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// League index of the agent.
    pub agent: usize,
    /// Tantos per deal over the average of a table (ratings sum to 0).
    pub rating: f64,
    /// The 95% confidence interval.
    pub ci95: (f64, f64),
    /// Tables the agent sat at.
    pub tables: usize,
    /// Deals it played (summed over its tables).
    pub deals: u64,
}

/// Two agents' paired difference over the tables where both sat.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// League indices, `a < b`.
    pub a: usize,
    /// See `a`.
    pub b: usize,
    /// Tables where both sat.
    pub tables: usize,
    /// Distinct deals those tables played.
    pub deals: u64,
    /// The mean of A's result minus B's, tantos per deal (per deal, averaged over
    /// the tables, then over deals).
    pub mean: f64,
    /// Its 95% confidence interval (deals independent, Student's t); `None`
    /// with fewer than two deals.
    pub ci95: Option<(f64, f64)>,
    /// Deals on which A's result was above B's (averaged over the tables
    /// where both sat).
    pub wins: u64,
    /// Deals on which they were equal.
    pub draws: u64,
    /// Deals on which A's result was below B's.
    pub losses: u64,
}

/// The difference of two fitted ratings, `r_a - r_b`, with its interval and
/// likelihood of superiority (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingDifference {
    /// `r_a - r_b`, tantos per deal.
    pub diff: f64,
    /// Its 95% interval (the sandwich covariance, Student's t on the deals less one).
    pub ci95: (f64, f64),
    /// The likelihood that A's true rating is above B's.
    pub los: f64,
}

/// Fitted ratings with their covariance.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The ratings, in league order.
    pub ratings: Vec<Rating>,
    /// The cluster-robust covariance of the ratings (`n` × `n`, row-major).
    pub cov: Vec<f64>,
    /// The deals (clusters) behind it.
    pub clusters: usize,
}

impl Fit {
    /// The difference of the ratings of agents `a` and `b`.
    #[must_use]
    pub fn difference(&self, a: usize, b: usize) -> RatingDifference {
        let n = self.ratings.len();
        let var = self.cov[a * n + a] + self.cov[b * n + b] - 2.0 * self.cov[a * n + b];
        let se = var.max(0.0).sqrt();
        let df = self.clusters as u64 - 1;
        let half = crate::student::t95(df) * se;
        let diff = self.ratings[a].rating - self.ratings[b].rating;
        RatingDifference { diff, ci95: (diff - half, diff + half), los: crate::student::los(diff, se, df) }
    }
}

/// Why ratings cannot be fitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeagueError {
    /// A table's shape is wrong (a result count that is not its agents', an
    /// agent index out of range or twice).
    BadTable(usize, String),
    /// An agent sat at no table.
    Absent(usize),
    /// Fewer than two deals: no interval.
    TooFewDeals(usize),
    /// The tables do not connect every agent to every other.
    Disconnected,
}

impl fmt::Display for LeagueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeagueError::BadTable(t, why) => write!(f, "table {t}: {why}"),
            LeagueError::Absent(a) => write!(f, "agent {a} sat at no table"),
            LeagueError::TooFewDeals(n) => write!(f, "{n} deals: ratings with intervals need at least 2"),
            LeagueError::Disconnected => f.write_str("the tables do not connect every agent to every other"),
        }
    }
}

impl std::error::Error for LeagueError {}

/// The design row of slot `slot` at a table of `agents`: `e_slot - mean e`.
fn design(n: usize, agents: &[usize], slot: usize) -> Vec<f64> {
    let mut x = vec![0.0; n];
    let k = agents.len() as f64;
    for &a in agents {
        x[a] -= 1.0 / k;
    }
    x[agents[slot]] += 1.0;
    x
}

/// Results centered at the table's mean on the deal.
fn centered(ys: &[f64]) -> impl Iterator<Item = f64> + '_ {
    let mean = ys.iter().sum::<f64>() / ys.len() as f64;
    ys.iter().map(move |y| y - mean)
}

fn check(n: usize, tables: &[TableResults]) -> Result<(), LeagueError> {
    for (t, tab) in tables.iter().enumerate() {
        let mut seen = vec![false; n];
        for &a in &tab.agents {
            if a >= n || std::mem::replace(&mut seen[a], true) {
                return Err(LeagueError::BadTable(t, format!("agent {a} out of range or twice")));
            }
        }
        if tab.agents.len() < 2 {
            return Err(LeagueError::BadTable(t, "fewer than two agents".into()));
        }
        if let Some((d, ys)) = tab.deals.iter().find(|(_, ys)| ys.len() != tab.agents.len()) {
            return Err(LeagueError::BadTable(t, format!("deal {d} has {} results", ys.len())));
        }
    }
    if let Some(a) = (0..n).find(|a| !tables.iter().any(|t| t.agents.contains(a))) {
        return Err(LeagueError::Absent(a));
    }
    Ok(())
}

/// The inverse of the symmetric matrix `m` (`n` × `n`, row-major) by Gauss-Jordan
/// elimination with partial pivoting; `None` when it is singular.
fn inverse(mut m: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    let scale = m.iter().fold(0.0f64, |s, v| s.max(v.abs())).max(1.0);
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))?;
        if m[p * n + c].abs() < 1e-9 * scale {
            return None;
        }
        for k in 0..n {
            m.swap(c * n + k, p * n + k);
            inv.swap(c * n + k, p * n + k);
        }
        let d = m[c * n + c];
        for k in 0..n {
            m[c * n + k] /= d;
            inv[c * n + k] /= d;
        }
        for r in (0..n).filter(|&r| r != c) {
            let f = m[r * n + c];
            if f != 0.0 {
                for k in 0..n {
                    m[r * n + k] -= f * m[c * n + k];
                    inv[r * n + k] -= f * inv[c * n + k];
                }
            }
        }
    }
    Some(inv)
}

/// Fits the ratings of `n` agents (league indices `0..n`) to the tables' results;
/// returned in league order.
pub fn fit(n: usize, tables: &[TableResults]) -> Result<Vec<Rating>, LeagueError> {
    fit_cov(n, tables).map(|f| f.ratings)
}

/// [`fit`], with the ratings' covariance (for [`Fit::difference`]).
pub fn fit_cov(n: usize, tables: &[TableResults]) -> Result<Fit, LeagueError> {
    check(n, tables)?;
    // A = X'X + 11'/n and X'y', summed table by table.
    let mut a = vec![1.0 / n as f64; n * n];
    let mut xty = vec![0.0; n];
    for tab in tables {
        let rows: Vec<Vec<f64>> = (0..tab.agents.len()).map(|s| design(n, &tab.agents, s)).collect();
        let deals = tab.deals.len() as f64;
        for x in &rows {
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] += deals * x[i] * x[j];
                }
            }
        }
        for (_, ys) in &tab.deals {
            for (x, y) in rows.iter().zip(centered(ys)) {
                for i in 0..n {
                    xty[i] += x[i] * y;
                }
            }
        }
    }
    let inv = inverse(a, n).ok_or(LeagueError::Disconnected)?;
    let r: Vec<f64> = (0..n).map(|i| (0..n).map(|j| inv[i * n + j] * xty[j]).sum()).collect();
    // The residual score of each deal (the clusters), summed over the tables.
    let mut scores: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for tab in tables {
        let rows: Vec<Vec<f64>> = (0..tab.agents.len()).map(|s| design(n, &tab.agents, s)).collect();
        for (d, ys) in &tab.deals {
            let u = scores.entry(*d).or_insert_with(|| vec![0.0; n]);
            for (x, y) in rows.iter().zip(centered(ys)) {
                let e = y - x.iter().zip(&r).map(|(a, b)| a * b).sum::<f64>();
                for i in 0..n {
                    u[i] += x[i] * e;
                }
            }
        }
    }
    let c = scores.len();
    if c < 2 {
        return Err(LeagueError::TooFewDeals(c));
    }
    let mut meat = vec![0.0; n * n];
    for u in scores.values() {
        for i in 0..n {
            for j in 0..n {
                meat[i * n + j] += u[i] * u[j];
            }
        }
    }
    let k = c as f64 / (c as f64 - 1.0);
    // Var(r) = k · A^-1 · meat · A^-1 (A^-1 symmetric).
    let mut cov = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let v: f64 = (0..n)
                .map(|p| (0..n).map(|q| inv[i * n + p] * meat[p * n + q] * inv[q * n + j]).sum::<f64>())
                .sum();
            cov[i * n + j] = k * v;
        }
    }
    let t = crate::student::t95(c as u64 - 1);
    let ratings = (0..n)
        .map(|i| {
            let half = t * cov[i * n + i].max(0.0).sqrt();
            let at: Vec<&TableResults> = tables.iter().filter(|t| t.agents.contains(&i)).collect();
            Rating {
                agent: i,
                rating: r[i],
                ci95: (r[i] - half, r[i] + half),
                tables: at.len(),
                deals: at.iter().map(|t| t.deals.len() as u64).sum(),
            }
        })
        .collect();
    Ok(Fit { ratings, cov, clusters: c })
}

/// Every pair of agents `a < b` that met: the paired difference per deal (A minus
/// B, averaged over the tables where both sat), its mean over deals and interval.
#[must_use]
pub fn matrix(n: usize, tables: &[TableResults]) -> Vec<Matchup> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let mut per_deal: BTreeMap<u64, (f64, u32)> = BTreeMap::new();
            let mut met = 0;
            for tab in tables {
                let (Some(sa), Some(sb)) =
                    (tab.agents.iter().position(|&x| x == a), tab.agents.iter().position(|&x| x == b))
                else {
                    continue;
                };
                met += 1;
                for (d, ys) in &tab.deals {
                    let e = per_deal.entry(*d).or_insert((0.0, 0));
                    e.0 += ys[sa] - ys[sb];
                    e.1 += 1;
                }
            }
            if met == 0 {
                continue;
            }
            let diffs: Vec<f64> = per_deal.values().map(|(s, k)| s / f64::from(*k)).collect();
            let p = crate::stats::Paired::of(&diffs);
            out.push(Matchup {
                a,
                b,
                tables: met,
                deals: diffs.len() as u64,
                mean: p.mean,
                ci95: p.ci95,
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
            });
        }
    }
    out
}

/// Every `k`-subset of `0..n` in lexicographic order: the tables of a league.
#[must_use]
pub fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else { return out };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// A league of `truth.len()` agents at every table of three, `deals` deals
    /// each; a result is the model's mean plus the agent's luck on the deal
    /// (shared by its tables: the same cards) plus a skewed, discrete noise.
    fn simulate(truth: &[f64], deals: u64, rng: &mut Pcg64Mcg) -> Vec<TableResults> {
        let n = truth.len();
        let luck: Vec<Vec<f64>> =
            (0..deals).map(|_| (0..n).map(|_| f64::from(rng.random_range(-3..=3))).collect()).collect();
        subsets(n, 3)
            .into_iter()
            .map(|agents| {
                let mean: f64 = agents.iter().map(|&a| truth[a]).sum::<f64>() / 3.0;
                let deals = (0..deals)
                    .map(|d| {
                        let ys = agents
                            .iter()
                            .map(|&a| {
                                let noise = match rng.random_range(0..20) {
                                    0 => -20.0,
                                    1..4 => 6.0,
                                    _ => 0.0,
                                } + 2.0;
                                truth[a] - mean + luck[d as usize][a] + noise + 5.0
                            })
                            .collect();
                        (d, ys)
                    })
                    .collect();
                TableResults { agents, deals }
            })
            .collect()
    }

    #[test]
    fn subsets_are_every_table_once() {
        assert_eq!(subsets(4, 3), [vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]);
        assert_eq!(subsets(7, 3).len(), 35);
        assert_eq!(subsets(7, 4).len(), 35);
        assert_eq!(subsets(3, 3), [vec![0, 1, 2]]);
        assert!(subsets(2, 3).is_empty());
    }

    #[test]
    fn noiseless_results_give_the_ratings_exactly() {
        let truth = [2.0, 0.5, -0.5, -2.0];
        let tables: Vec<TableResults> = subsets(4, 3)
            .into_iter()
            .map(|agents| {
                let mean: f64 = agents.iter().map(|&a| truth[a]).sum::<f64>() / 3.0;
                let ys = |d: u64| agents.iter().map(|&a| truth[a] - mean + d as f64).collect();
                TableResults { deals: (0..5).map(|d| (d, ys(d))).collect(), agents }
            })
            .collect();
        let r = fit(4, &tables).unwrap();
        for (got, want) in r.iter().zip(truth) {
            assert!((got.rating - want).abs() < 1e-9, "{got:?}");
            assert!((got.ci95.1 - got.ci95.0).abs() < 1e-6, "{got:?}");
            assert_eq!((got.tables, got.deals), (3, 15));
        }
        let m = matrix(4, &tables);
        assert_eq!(m.len(), 6);
        assert!((m[0].mean - 1.5).abs() < 1e-9 && m[0].tables == 2 && m[0].deals == 5, "{:?}", m[0]);
    }

    #[test]
    fn the_intervals_cover_the_true_ratings_about_95_percent_of_the_time() {
        let truth = [1.0, 0.5, 0.0, -0.25, -1.25];
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let (runs, mut covered, mut total) = (300, 0, 0);
        let mut order_right = 0;
        for _ in 0..runs {
            let r = fit(truth.len(), &simulate(&truth, 400, &mut rng)).unwrap();
            for (got, want) in r.iter().zip(truth) {
                total += 1;
                covered += usize::from(got.ci95.0 <= want && want <= got.ci95.1);
            }
            order_right += usize::from(r.windows(2).all(|w| w[0].rating > w[1].rating));
        }
        let rate = covered as f64 / total as f64;
        println!("coverage {rate:.4} of {total}; order right in {order_right} of {runs}");
        assert!((0.925..=0.975).contains(&rate), "coverage {rate}");
        assert!(order_right > runs * 3 / 4, "{order_right}");
    }

    #[test]
    fn rating_differences_have_intervals_that_cover_the_truth() {
        let truth = [1.0, 0.5, 0.0, -0.25, -1.25];
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let (runs, mut covered, mut total) = (200, 0, 0);
        for _ in 0..runs {
            let tables = simulate(&truth, 300, &mut rng);
            let f = fit_cov(truth.len(), &tables).unwrap();
            for a in 0..truth.len() {
                for b in a + 1..truth.len() {
                    let d = f.difference(a, b);
                    assert!((d.diff - (f.ratings[a].rating - f.ratings[b].rating)).abs() < 1e-12);
                    assert!(
                        d.ci95.0 < d.diff && d.diff < d.ci95.1 && (0.0..=1.0).contains(&d.los),
                        "{d:?} {a} {b}"
                    );
                    total += 1;
                    let want = truth[a] - truth[b];
                    covered += usize::from(d.ci95.0 <= want && want <= d.ci95.1);
                }
            }
        }
        let rate = covered as f64 / total as f64;
        assert!((0.925..=0.975).contains(&rate), "coverage {rate}");
        // A clear difference is all but certain; the matrix counts each deal once.
        let tables = simulate(&truth, 300, &mut rng);
        let f = fit_cov(truth.len(), &tables).unwrap();
        assert!(f.difference(0, 4).los > 0.999 && f.difference(4, 0).los < 0.001);
        for m in matrix(truth.len(), &tables) {
            assert_eq!(m.wins + m.draws + m.losses, m.deals, "{m:?}");
        }
    }

    #[test]
    fn bad_leagues_are_refused() {
        let t =
            |agents: Vec<usize>, ys: Vec<f64>| TableResults { deals: vec![(0, ys.clone()), (1, ys)], agents };
        assert_eq!(fit(4, &[t(vec![0, 1, 2], vec![0.0; 3])]), Err(LeagueError::Absent(3)));
        assert!(matches!(fit(3, &[t(vec![0, 1, 1], vec![0.0; 3])]), Err(LeagueError::BadTable(0, _))));
        assert!(matches!(fit(3, &[t(vec![0, 1, 2], vec![0.0; 2])]), Err(LeagueError::BadTable(0, _))));
        let two = [t(vec![0, 1], vec![1.0, -1.0]), t(vec![2, 3], vec![1.0, -1.0])];
        assert_eq!(fit(4, &two), Err(LeagueError::Disconnected));
        let one = TableResults { agents: vec![0, 1, 2], deals: vec![(0, vec![1.0, 0.0, -1.0])] };
        assert_eq!(fit(3, &[one]), Err(LeagueError::TooFewDeals(1)));
    }
}
