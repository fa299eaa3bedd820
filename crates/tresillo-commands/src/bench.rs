//! `tresillo bench`: quick speed figures on one thread (criterion benches give the
//! careful ones).

use anyhow::Result;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;
use tresillo_agents::{
    Agent, Draws, Position, RuleAgent, RuleParams, Sampler, SolverContext, below, rng_from_seed, seat_rngs,
};
use tresillo_core::{Card, CardSet, Hand, PlayState, PlayerView, Request, RuleSet, Seat, Suit, legal_moves};

/// Arguments of `tresillo bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    target: Target,
}

#[derive(clap::Subcommand)]
enum Target {
    /// Nanoseconds per legal-move call.
    Movegen {
        /// Calls to time.
        #[arg(long, default_value_t = 50_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
    /// Random play-phase playouts per second on one thread.
    Playouts {
        /// Playouts to time.
        #[arg(long, default_value_t = 5_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
    /// Deals per second of a tournament (no files written), on one thread and on all.
    Deals {
        /// Agent specs, comma-separated: three, or four with `--players 4`
        /// (default: `rule` in every seat).
        #[arg(long)]
        agents: Option<String>,
        /// Deals to time on each setting.
        #[arg(long, default_value_t = 200_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
        /// The rule set, its options and the table size.
        #[command(flatten)]
        rules: crate::rules::RulesArgs,
    },
    /// ISMCTS iterations per second on one thread at the first card of a hand, for
    /// 1,000, 10,000 and 100,000 iterations per search, and where an iteration's
    /// time goes.
    Ismcts {
        /// The agent spec (an `ismcts` spec; its `iters` is replaced by each count).
        #[arg(long, default_value = "ismcts")]
        agent: String,
        /// Iterations per count to time (searches of that size are repeated over
        /// different deals until this many iterations have run).
        #[arg(long, default_value_t = 1_000_000)]
        n: u64,
        /// Only these search sizes (comma-separated), instead of 1000,10000,100000.
        #[arg(long, value_delimiter = ',')]
        iters: Vec<u32>,
        /// The rule set, its options and the table size (every one but plain
        /// three-player `tresillo` searches the engine's own hand).
        #[command(flatten)]
        rules: crate::rules::RulesArgs,
    },
    /// The exact solver at the first trick of fresh deals (random trump, declarer
    /// and leader): the value, then the class of every card of the leader; median,
    /// 90th and 99th percentile and worst time per position.
    Solver {
        /// Deals to solve.
        #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
        n: usize,
        /// First deal seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        seed: u64,
    },
    /// The pimc agent: milliseconds per card decision at the first card of the
    /// hand (views from rule-agent hands), and per bidding decision (the first
    /// call of the auction).
    Pimc {
        /// Decisions to time of each kind.
        #[arg(long, default_value_t = 200)]
        n: usize,
        /// The pimc spec.
        #[arg(long, default_value = "pimc")]
        spec: String,
    },
    /// The solvers on the positions `pimc` (three players: a world sampled from
    /// the view) or `oracle` (four players: the true world) solves at the first
    /// card of rule-agent hands of a rule set: the class of every legal card for
    /// the contract's goal, by the general solver alone and by the dispatch that
    /// gives the fast solver what it answers.
    Gsolver {
        /// Positions to solve.
        #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
        n: usize,
        /// The rule set's name.
        #[arg(long, default_value = "hombre")]
        rules: String,
        /// Players at the table (4: four-player tresillo).
        #[arg(long, default_value_t = 3)]
        players: u8,
        /// `--rule-option key=value` for the rule set (repeatable).
        #[arg(long = "rule-option")]
        options: Vec<String>,
    },
    /// Microseconds per sampled world at trick 1 and at trick 6 (the sampler of
    /// `tresillo-agents`, from the view of the player to move).
    Sampler {
        /// Worlds to draw at each of the two points.
        #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
}

/// Views of the player to move at the first card of trick `trick` (1-based) in
/// hands of `rule` agents, from the deals of seeds `0..`; hands that end earlier
/// are skipped.
pub fn sampler_views(trick: u8, count: usize) -> Vec<PlayerView> {
    let mut out = Vec::with_capacity(count);
    let mut agent = RuleAgent::new(RuleParams::default());
    let mut seed = 0u64;
    while out.len() < count {
        let mut hand =
            Hand::new(RuleSet::TRESILLO, 3, tresillo_sim::deal_for_seed(seed), Seat((seed % 3) as u8))
                .expect("a full deal");
        let mut rngs = seat_rngs(seed);
        seed += 1;
        while let Some(seat) = hand.request().seat() {
            let view = hand.view(seat);
            if let Request::Play { .. } = view.request() {
                let p = view.public();
                if p.tricks_done + 1 == trick && p.current_trick().is_empty() {
                    out.push(view);
                    break;
                }
            }
            let d = agent.choose(&view, &mut rngs[seat.index()]);
            hand.apply(d).expect("the rule agent is legal");
        }
    }
    out
}

/// Mean microseconds per world drawn from the views (the sampler built once per
/// view, as a player would for one decision) and per sampler built.
fn time_sampler(views: &[PlayerView], n: u64) -> (f64, f64) {
    let mut rng = rng_from_seed(11);
    let t = Instant::now();
    let samplers: Vec<Sampler> = views.iter().map(|v| Sampler::new(v).expect("a real view")).collect();
    let build = t.elapsed().as_secs_f64() * 1e6 / views.len() as f64;
    let per = n.div_ceil(samplers.len() as u64);
    let t = Instant::now();
    let mut acc = 0u64;
    for s in &samplers {
        for _ in 0..per {
            acc ^= black_box(s.sample(&mut rng)).heap.bits();
        }
    }
    black_box(acc);
    let sample = t.elapsed().as_secs_f64() * 1e6 / (per * samplers.len() as u64) as f64;
    (sample, build)
}

/// First-trick positions of fresh deals: the hands of the deal of seed `seed + i`,
/// with trump, declarer and leader drawn from the seed.
pub fn solver_positions(count: usize, seed: u64) -> Vec<Position> {
    (0..count as u64)
        .map(|i| {
            let s = seed.wrapping_add(i);
            let deal = tresillo_sim::deal_for_seed(s);
            let mut rng = rng_from_seed(s ^ 0xB0B);
            let trump = Suit::ALL[below(&mut rng, 4) as usize];
            let declarer = Seat(below(&mut rng, 3) as u8);
            let leader = Seat(below(&mut rng, 3) as u8);
            let h = deal.hands.0;
            Position::new([h[0], h[1], h[2]], trump, declarer, leader, &[], [0, 0, 0])
                .expect("a fresh deal is a position")
        })
        .collect()
}

/// Times `f` on every position with one context; returns sorted microseconds,
/// the mean search nodes per position and sorted nodes per position.
fn time_positions(
    pos: &[Position],
    mut f: impl FnMut(&mut SolverContext, &Position),
) -> (Vec<f64>, f64, Vec<u64>) {
    let mut ctx = SolverContext::new();
    let mut nodes = Vec::with_capacity(pos.len());
    let mut us: Vec<f64> = pos
        .iter()
        .map(|p| {
            let n0 = ctx.nodes();
            let t = Instant::now();
            f(&mut ctx, p);
            let e = t.elapsed().as_secs_f64() * 1e6;
            nodes.push(ctx.nodes() - n0);
            e
        })
        .collect();
    us.sort_by(f64::total_cmp);
    nodes.sort_unstable();
    (us, ctx.nodes() as f64 / pos.len() as f64, nodes)
}

/// `nodes: median M, p99 .., worst ..` of sorted node counts.
fn node_percentiles(n: &[u64]) -> String {
    let at = |q: f64| n[((n.len() as f64 * q) as usize).min(n.len() - 1)];
    format!("nodes: median {}, p90 {}, p99 {}, worst {}", at(0.5), at(0.9), at(0.99), n[n.len() - 1])
}

/// `median M us, p90 .., p99 .., worst ..` of sorted microseconds.
fn percentiles(us: &[f64]) -> String {
    let at = |q: f64| us[((us.len() as f64 * q) as usize).min(us.len() - 1)];
    format!(
        "median {:.1} us, p90 {:.1} us, p99 {:.1} us, worst {:.1} us",
        at(0.5),
        at(0.9),
        at(0.99),
        us[us.len() - 1]
    )
}

/// `median M ms, p90 .., p99 .., worst ..` of sorted milliseconds.
fn percentiles_ms(ms: &[f64]) -> String {
    let at = |q: f64| ms[((ms.len() as f64 * q) as usize).min(ms.len() - 1)];
    format!(
        "median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
        at(0.5),
        at(0.9),
        at(0.99),
        ms[ms.len() - 1]
    )
}

/// Views of the first speaker of the auction, from the deals of seeds `0..count`.
pub fn bid_views(count: usize) -> Vec<PlayerView> {
    (0..count as u64)
        .map(|seed| {
            let hand =
                Hand::new(RuleSet::TRESILLO, 3, tresillo_sim::deal_for_seed(seed), Seat((seed % 3) as u8))
                    .expect("a full deal");
            let seat = hand.request().seat().expect("the auction's first call");
            hand.view(seat)
        })
        .collect()
}

/// Positions for the movegen benchmark: (hand, trump, card led), from random deals.
pub fn movegen_positions(count: usize, seed: u64) -> Vec<(CardSet, Option<Suit>, Option<Card>)> {
    let mut rng = rng_from_seed(seed);
    (0..count)
        .map(|i| {
            let deal = tresillo_sim::deal_for_seed(seed ^ i as u64);
            let hand = deal.hands.0[0];
            let others = deal.hands.0[1];
            let led = if i % 3 == 0 { None } else { others.nth(below(&mut rng, others.len())) };
            (hand, Some(Suit::ALL[i % 4]), led)
        })
        .collect()
}

/// One random playout of the whole play phase from `start`; returns the tricks of seat 0.
#[inline]
pub fn playout(start: &PlayState, rng: &mut tresillo_agents::AgentRng) -> u8 {
    let mut p = *start;
    let mut d = Draws::new(rng);
    p.playout(|n| d.below(n));
    p.tricks[0]
}

/// The fixed start position of the playout benchmark: the deal of seed 1, oros
/// trumps, seat 1 (mano) leading.
pub fn playout_start() -> PlayState {
    let d = tresillo_sim::deal_for_seed(1);
    PlayState::new([d.hands.0[0], d.hands.0[1], d.hands.0[2]], Some(Suit::Oros), Seat(1))
}

/// Runs `tresillo bench`.
/// Legal-move generation: `n` calls on one thread.
fn bench_movegen(n: u64, out: &mut impl Write) -> Result<()> {
    let pos = movegen_positions(1024, 7);
    let t = Instant::now();
    let mut acc = 0u64;
    let rounds = n.div_ceil(pos.len() as u64);
    for _ in 0..rounds {
        for &(h, tr, led) in &pos {
            acc ^= legal_moves(black_box(h), black_box(tr), black_box(led)).bits();
        }
    }
    black_box(acc);
    let calls = rounds * pos.len() as u64;
    let ns = t.elapsed().as_nanos() as f64 / calls as f64;
    writeln!(out, "movegen: {calls} legal-move calls on one thread")?;
    writeln!(out, "{ns:.2} ns per legal-move call")?;
    Ok(())
}

/// Random play-phase playouts: `n` on one thread.
fn bench_playouts(n: u64, out: &mut impl Write) -> Result<()> {
    let start = playout_start();
    let mut rng = rng_from_seed(3);
    let t = Instant::now();
    let mut acc = 0u64;
    for _ in 0..n {
        acc += u64::from(playout(&start, &mut rng));
    }
    black_box(acc);
    let one = n as f64 / t.elapsed().as_secs_f64();
    writeln!(out, "playouts: {n} random play-phase playouts (27 cards each) on one thread")?;
    writeln!(out, "{one:.0} playouts per second")?;
    Ok(())
}

/// Scored deals of `agents` (no files): deals per second on one thread and on all.
fn bench_deals(
    agents: &Option<String>,
    n: u64,
    rules: &crate::rules::RulesArgs,
    out: &mut impl Write,
) -> Result<()> {
    let players = rules.players()?;
    let agents = agents.clone().unwrap_or_else(|| vec!["rule"; usize::from(players)].join(","));
    let mut config = tresillo_sim::simple_config(["rule"; 3], n, 1, false);
    config.agents = agents.split(',').map(|s| s.trim().to_string()).collect();
    config.players = players;
    config.rules = rules.parse()?;
    // Checks the agents against the table size and the rule set.
    let t = tresillo_sim::Tournament::new(config)?;
    let mut rates = Vec::new();
    for threads in [1, rayon::current_num_threads()] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
        let start = Instant::now();
        let rows: u64 = pool.install(|| t.run(0..n, |u| u.stats.rows))?.iter().sum();
        black_box(rows);
        rates.push((threads, n as f64 / start.elapsed().as_secs_f64()));
    }
    let seats = rules.parse()?.table(players);
    let table = if seats.every_seat_plays() {
        String::new()
    } else {
        format!(" at {} players", seats.players_word())
    };
    writeln!(out, "deals: {n} deals of {agents} ({}{table}), scored, no files written", rules.parse()?)?;
    let (t1, r1) = rates[0];
    let (tn, rn) = rates[1];
    writeln!(out, "{r1:.0} deals per second on {t1} thread, {rn:.0} on {tn} threads ({:.2}x)", rn / r1)?;
    Ok(())
}

/// The solver on `n` fresh deals at the first trick: every card of the leader, and the value.
fn bench_solver(n: usize, seed: u64, out: &mut impl Write) -> Result<()> {
    anyhow::ensure!(n > 0, "--n must be at least 1");
    // Every position and its times are held in memory.
    anyhow::ensure!(n <= 1_000_000, "--n {n} is too many: at most 1000000 positions");
    let pos = solver_positions(n, seed);
    let cards = time_positions(&pos, |c, p| {
        black_box(c.solve(black_box(p)));
    });
    let value = time_positions(&pos, |c, p| {
        black_box(c.value(black_box(p)));
    });
    writeln!(out, "solver: {n} fresh deals at the first trick (seeds {seed}..), one thread, one context")?;
    writeln!(
        out,
        "every card of the leader: {}; {:.0} nodes ({})",
        percentiles(&cards.0),
        cards.1,
        node_percentiles(&cards.2)
    )?;
    writeln!(out, "value: {}; {:.0} nodes ({})", percentiles(&value.0), value.1, node_percentiles(&value.2))?;
    Ok(())
}

/// pimc's decisions (`spec`): `n` card and `n` bidding decisions, one at a time.
fn bench_pimc(n: usize, spec: &str, out: &mut impl Write) -> Result<()> {
    anyhow::ensure!(n > 0, "--n must be at least 1");
    let mut agent = tresillo_agents::build_agent(spec)?;
    let cards = sampler_views(1, n);
    let bids = bid_views(n);
    let mut rng = rng_from_seed(5);
    let mut time = |views: &[PlayerView]| {
        let mut ms: Vec<f64> = views
            .iter()
            .map(|v| {
                agent.new_hand();
                let t = Instant::now();
                let _ = black_box(agent.decide(black_box(v), &mut rng));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        ms
    };
    let c = time(&cards);
    let b = time(&bids);
    // The spec was checked by `build_agent`: `threads` is an integer.
    let threads = match tresillo_agents::spec_param(spec, "threads")? {
        Some(t) if t != "0" => format!("{t} thread(s)"),
        _ => format!("{} thread(s) (`threads=0`, auto)", tresillo_agents::pimc::auto_threads()),
    };
    writeln!(out, "pimc: {spec}, {n} decisions of each kind, one at a time, card decisions on {threads}")?;
    writeln!(out, "card decision at the first card: {}", percentiles_ms(&c))?;
    writeln!(out, "bidding decision (first call): {}", percentiles_ms(&b))?;
    Ok(())
}

/// The world sampler: `n` worlds at tricks 1 and 6.
fn bench_sampler(n: u64, out: &mut impl Write) -> Result<()> {
    let t1 = sampler_views(1, 200);
    let t6 = sampler_views(6, 200);
    let (s1, b1) = time_sampler(&t1, n);
    let (s6, b6) = time_sampler(&t6, n);
    writeln!(out, "sampler: {n} worlds at each point, from 200 views of rule-agent hands, one thread")?;
    writeln!(out, "building a sampler: {b1:.2} us at trick 1, {b6:.2} us at trick 6")?;
    writeln!(out, "{s1:.3} us per sample at trick 1, {s6:.3} us per sample at trick 6")?;
    Ok(())
}

pub fn run(a: &BenchArgs, out: &mut impl Write) -> Result<()> {
    match a.target {
        Target::Movegen { n } => bench_movegen(n, out)?,
        Target::Playouts { n } => bench_playouts(n, out)?,
        Target::Deals { ref agents, n, ref rules } => bench_deals(agents, n, rules, out)?,
        Target::Ismcts { ref agent, n, ref iters, ref rules } => {
            let players = rules.players()?;
            bench_ismcts(agent, n, iters, rules.parse()?, players, out)?;
        }
        Target::Solver { n, seed } => bench_solver(n, seed, out)?,
        Target::Pimc { n, ref spec } => bench_pimc(n, spec, out)?,
        Target::Gsolver { n, ref rules, players, ref options } => {
            anyhow::ensure!(n > 0, "--n must be at least 1");
            let mut pairs = Vec::new();
            for o in options {
                pairs.push(tresillo_core::Rules::split_option(o)?);
            }
            let rules = tresillo_core::Rules::parse(rules, &pairs)?;
            rules.check_players(players)?;
            bench_gsolver(rules, players, n, out)?;
        }
        Target::Sampler { n } => bench_sampler(n, out)?,
    }
    Ok(())
}

/// `tresillo bench ismcts`: whole searches at the first card of hands of rule
/// agents (the player to move at trick 1), one line per search size; then (random
/// playouts) the parts of an iteration timed alone on the same views.
fn bench_ismcts(
    spec: &str,
    n: u64,
    sizes: &[u32],
    rules: tresillo_core::Rules,
    players: u8,
    out: &mut impl Write,
) -> Result<()> {
    let sizes = if sizes.is_empty() { vec![1_000, 10_000, 100_000] } else { sizes.to_vec() };
    // ISMCTS's fast simulator (plain `tresillo`): the sampler's views.
    let plain = tresillo_agents::family::fast_sim(&rules, rules.table(players));
    let views = if plain { sampler_views(1, 64) } else { first_card_views(rules, players, 64)? };
    let table = if plain { String::new() } else { format!(" of {rules} at {players} players") };
    writeln!(
        out,
        "ismcts: `{spec}` at the first card of a hand{table} (views of rule-agent deals), one thread"
    )?;
    let mut last = 0.0;
    for &iters in &sizes {
        let mut agent = tresillo_agents::Ismcts::from_spec(&format!("{spec}:iters={iters}"))?;
        let searches = n.div_ceil(u64::from(iters)).max(2);
        let mut rng = rng_from_seed(5);
        // One search first: the arena grows to the budget once.
        let _ = agent.choose(&views[0], &mut rng);
        let t = Instant::now();
        let mut total = 0u64;
        for k in 0..searches {
            black_box(agent.choose(&views[k as usize % views.len()], &mut rng));
            total += agent.last_iterations();
        }
        let rate = total as f64 / t.elapsed().as_secs_f64();
        writeln!(
            out,
            "{iters} iterations: {rate:.0} it/s ({searches} searches, {:.2} ms each, {} nodes in {} slots)",
            t.elapsed().as_secs_f64() * 1e3 / searches as f64,
            agent.last_nodes(),
            agent.last_slots()
        )?;
        last = rate;
    }
    // The parts alone: only for the fast search of plain `tresillo`.
    if !plain
        || tresillo_agents::Ismcts::from_spec(spec)?.params().playout != tresillo_agents::Playout::Random
    {
        return Ok(());
    }
    // The parts alone: a world drawn, and a random playout of it from the root.
    let samplers: Vec<Sampler> = views.iter().map(|v| Sampler::new(v).expect("a real view")).collect();
    let starts: Vec<PlayState> =
        views.iter().map(|v| v.public().play_state(Default::default()).expect("play")).collect();
    let mut rng = rng_from_seed(6);
    let reps = 200_000usize;
    let t = Instant::now();
    let mut acc = 0u64;
    for k in 0..reps {
        acc ^= black_box(samplers[k % samplers.len()].sample_fast(&mut rng)).heap.bits();
    }
    let sample_ns = t.elapsed().as_nanos() as f64 / reps as f64;
    let worlds: Vec<_> = (0..samplers.len()).map(|k| samplers[k].sample(&mut rng)).collect();
    let t = Instant::now();
    for k in 0..reps {
        let mut p = starts[k % starts.len()];
        let w = &worlds[k % worlds.len()];
        for s in 0..3 {
            p.hands[s] = w.hands.0[s];
        }
        let mut d = Draws::new(&mut rng);
        p.playout(|m| d.below(m));
        acc += u64::from(p.tricks[0]);
    }
    black_box(acc);
    let playout_ns = t.elapsed().as_nanos() as f64 / reps as f64;
    let iter_ns = 1e9 / last;
    writeln!(
        out,
        "per iteration ({} iterations): {iter_ns:.0} ns = sampling {sample_ns:.0} + playout {playout_ns:.0} \
         + selection, expansion and backpropagation {:.0}",
        sizes.last().expect("a size"),
        (iter_ns - sample_ns - playout_ns).max(0.0)
    )?;
    Ok(())
}

/// Views of the player to lead the first card in `count` hands of `rules` at a
/// table of `players` played by rule agents (deals from seed 0 on; hands that
/// never reach play are skipped).
pub(crate) fn first_card_views(
    rules: tresillo_core::Rules,
    players: u8,
    count: usize,
) -> Result<Vec<PlayerView>> {
    let mut out = Vec::with_capacity(count);
    let mut agent = RuleAgent::new(RuleParams::default());
    for seed in 0..100 * count as u64 {
        if out.len() == count {
            break;
        }
        let dealer = Seat((seed % u64::from(players)) as u8);
        let deal = tresillo_sim::deal_for_seed(seed).seated(rules.table(players), dealer);
        let mut hand = Hand::with_rules(rules, players, deal, dealer)?;
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = hand.request().seat() {
            let view = hand.view(seat);
            if matches!(view.request(), Request::Play { .. }) && view.public().plays().is_empty() {
                out.push(view);
                break;
            }
            let d = agent.choose(&view, &mut rngs[seat.index()]);
            hand.apply(d)?;
        }
    }
    anyhow::ensure!(!out.is_empty(), "no hand of {rules} reached card play");
    Ok(out)
}

/// `tresillo bench gsolver`: see [`Target::Gsolver`].
fn bench_gsolver(rules: tresillo_core::Rules, players: u8, n: usize, out: &mut impl Write) -> Result<()> {
    use tresillo_agents::gsolver::{GeneralSolver, Solvers};
    // (position, declarer, goal) at the first card of rule-agent hands.
    let mut pos = Vec::with_capacity(n);
    let mut agent = RuleAgent::new(RuleParams::default());
    let mut rng = rng_from_seed(9);
    // Where every seat plays, the position of a world sampled from the view.
    let sampled = rules.table(players).every_seat_plays();
    let mut seed = 0u64;
    while pos.len() < n && seed < 100 * n as u64 + 1000 {
        let dealer = Seat((seed % u64::from(players)) as u8);
        let deal = tresillo_sim::deal_for_seed(seed).seated(rules.table(players), dealer);
        let mut hand = Hand::with_rules(rules, players, deal, dealer)?;
        let mut rngs = seat_rngs(seed);
        seed += 1;
        while let Some(seat) = hand.request().seat() {
            let view = hand.view(seat);
            if let (Request::Play { legal, .. }, Some(d)) = (view.request(), view.public().declarer)
                && view.public().tricks_done == 0
                && legal.len() > 1
            {
                let ps = if sampled {
                    Sampler::new(&view).ok().and_then(|s| s.sample(&mut rng).play_state(&view))
                } else {
                    hand.play_state()
                };
                if let (Some(ps), Some(st)) = (ps, tresillo_agents::gpimc::stakes(view.public(), d)) {
                    pos.push((ps, d, st.goal));
                }
                break;
            }
            let dec = agent.choose(&view, &mut rngs[seat.index()]);
            hand.apply(dec)?;
        }
    }
    anyhow::ensure!(!pos.is_empty(), "no hand of {rules} reached card play");
    let mut general = GeneralSolver::new();
    let mut both = Solvers::new();
    let time = |f: &mut dyn FnMut(&PlayState, Seat, tresillo_agents::gsolver::Goal)| {
        let mut ms: Vec<f64> = pos
            .iter()
            .map(|&(ps, d, g)| {
                let t = Instant::now();
                f(&ps, d, g);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        ms
    };
    let g = time(&mut |ps, d, goal| {
        for c in ps.legal_moves() {
            let mut p = *ps;
            p.play_unchecked(c);
            black_box(general.value(&p, d, goal));
        }
    });
    let b = time(&mut |ps, d, goal| {
        for c in ps.legal_moves() {
            black_box(both.card_value(ps, c, d, goal));
        }
    });
    let fast =
        pos.iter().filter(|(ps, d, _)| tresillo_agents::gsolver::fast_position(ps, *d).is_some()).count();
    writeln!(
        out,
        "gsolver: {} first-card positions of {rules} at {players} players ({}), one thread; {fast} with three \
         active seats and a trump",
        pos.len(),
        if sampled { "a world sampled from the view, as pimc" } else { "the true world, as oracle" }
    )?;
    writeln!(out, "every legal card, general solver: {}", percentiles_ms(&g))?;
    writeln!(out, "every legal card, dispatch (fast where it answers): {}", percentiles_ms(&b))?;
    Ok(())
}
