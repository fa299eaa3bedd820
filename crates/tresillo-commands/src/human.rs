//! `tresillo play --human SEAT`: a person at the table against two bots (three at
//! a table of four, where the person may also be the dealer who sits out).
//!
//! The person's hand is shown sorted by trick power, every choice is numbered, the
//! bids and the conversation are given in the game's words with an English gloss,
//! and each decision of the table is printed as it happens (the narrative of
//! `play`). Between hands of a session (`--hands N`) the ledger is printed. At any
//! prompt: a number or a card, `hint [AGENT]`, `help`, `hand`, `quit`. A mistake
//! re-prompts; the end of the input ends the session cleanly. With `--record` every
//! finished hand is written (as `play` and `replay` read them).

use crate::narrate::{Names, narrate, outcome_line, write_records};
use crate::score::ledger_line;
use anyhow::{Context, Result, bail, ensure};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use tresillo_agents::cheat::Seated;
use tresillo_agents::{Agent, AgentRng, TablePlayer, build_agent, rng_from_seed, seat_rngs};
use tresillo_core::Question;
use tresillo_core::tables::{TRUMP_SUIT, table};
use tresillo_core::{
    Bid, Card, CardSet, Contract, Deal, Decision, DropWord, Hand, Help, LedgerConfig, Phase, PlayerView,
    PublicState, Request, Rules, Scorer, ScoringMode, Seat, Suit, Word, label, legal_moves, parse_card,
    question,
};
use tresillo_sim::{HandRecord, Step, deal_for_seed, deal_seed, seating_rng_seed};

/// What `play --human` was asked for.
pub struct Session {
    /// The person's seat.
    pub seat: u8,
    /// The bots' specs (two, or three at four players), in seat order after the
    /// person's seat.
    pub agents: String,
    /// Seats at the table: 3, or 4 (RULES.md section 12.2).
    pub players: u8,
    /// The master seed: hand k is deal k of it.
    pub seed: u64,
    /// A deal to play instead (one hand only).
    pub deal: Option<String>,
    /// The dealer of the first hand.
    pub dealer: u8,
    /// Hands in the session.
    pub hands: u32,
    /// The agent `hint` asks when none is named.
    pub hint: String,
    /// Where to write the records.
    pub record: Option<PathBuf>,
    /// The rule set and its options (in `lhombre` cards are shown with
    /// international names; answers keep the notation of section 13).
    pub rules: Rules,
}

/// The seat name the records give the person.
pub const HUMAN: &str = "human";

/// What the person answered.
enum Answer {
    Decision(Decision),
    Quit,
    EndOfInput,
}

/// The scores after hand `k` (from 0) that scored `score`: the ledger's bowls,
/// or the points or chips.
fn write_scores(
    out: &mut impl Write,
    scorer: &Scorer,
    score: &tresillo_core::HandScore,
    me: Seat,
    n: u8,
    k: u64,
) -> Result<()> {
    let you = |i: u8| if Seat(i) == me { " (you)" } else { "" };
    if let Some(l) = scorer.ledger() {
        let bowls: Vec<String> = (0..n)
            .map(|i| format!("seat {i}{} {} ({:+})", you(i), l.bowl(Seat(i)), score.total(Seat(i))))
            .collect();
        writeln!(out, "ledger after hand {}: bowls {}", k + 1, bowls.join(", "))?;
        let seat_names: Vec<String> = (0..n).map(|i| format!("seat {i}")).collect();
        writeln!(out, "  {}", ledger_line(l, &seat_names))?;
    } else {
        let (unit, scores, pot) = match (scorer.points(), scorer.chips()) {
            (Some(p), _) => (("points", "pot"), p.scores().to_vec(), p.pot()),
            (None, Some(c)) => (("chips", "pool"), c.bowls().to_vec(), c.pool()),
            (None, None) => bail!("the session's ledger keeps neither tantos, points nor chips"),
        };
        let line: Vec<String> = (0..n)
            .map(|i| format!("seat {i}{} {} ({:+})", you(i), scores[usize::from(i)], score.total(Seat(i))))
            .collect();
        writeln!(out, "{} after hand {}: {}; {} {pot}", unit.0, k + 1, line.join(", "), unit.1)?;
    }
    Ok(())
}

/// The session's settlement (a ledger's), or its final points or chips.
fn write_settlement(out: &mut impl Write, scorer: &Scorer, me: Seat, n: u8) -> Result<()> {
    if let Some(st) = scorer.settle() {
        let res: Vec<String> = (0..n).map(|i| format!("seat {i} {:+}", st.results[Seat(i)])).collect();
        writeln!(out, "\nsettlement: {} (you are seat {me})", res.join(", "))?;
    } else {
        // Points and chips are final after every hand (the pot paid out with the last).
        let (unit, scores) = match (scorer.points(), scorer.chips()) {
            (Some(p), _) => ("points", p.scores().to_vec()),
            (None, Some(c)) => ("chips", c.bowls().to_vec()),
            (None, None) => bail!("the session's ledger keeps neither tantos, points nor chips"),
        };
        let res: Vec<String> = (0..n).map(|i| format!("seat {i} {}", scores[usize::from(i)])).collect();
        writeln!(out, "\nsettlement in {unit}: {} (you are seat {me})", res.join(", "))?;
    }
    Ok(())
}

/// Runs a session, reading the person's answers from `input`.
pub fn run(s: &Session, input: &mut impl BufRead, out: &mut impl Write) -> Result<()> {
    let n = s.players;
    ensure!(s.seat < n, "bad --human {}: seats are 0 to {}", s.seat, n - 1);
    ensure!(s.hands >= 1, "--hands must be at least 1");
    ensure!(s.deal.is_none() || s.hands == 1, "--deal plays one hand; leave out --hands");
    let specs: Vec<String> = s.agents.split(',').map(|x| x.trim().to_string()).collect();
    ensure!(
        specs.len() == usize::from(n - 1),
        "with --human, --agents needs the {} bots' specs separated by commas (seats after yours), got {}",
        // The bots' number in words: every seat but the person's.
        tresillo_core::Table::every_seat(n - 1).players_word(),
        specs.len()
    );
    let first_deal = match &s.deal {
        Some(d) => Some(Deal::parse(d).context("bad --deal")?),
        None => None,
    };
    build_agent(&s.hint).with_context(|| format!("bad --hint agent `{}`", s.hint))?;
    let me = Seat(s.seat);
    // Seat order: the person, then the bots in turn order after them.
    let mut names = vec![String::new(); usize::from(n)];
    names[me.index()] = HUMAN.into();
    for (i, spec) in specs.iter().enumerate() {
        names[me.plus(i as u8 + 1, n).index()] = spec.clone();
    }
    let mut bots: Vec<Option<Seated>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        bots.push(if i == me.index() { None } else { Some(crate::registry().build_seated(name)?) });
    }
    let mut config = LedgerConfig::with_rules(s.rules, n);
    // A `hombre` points session pays out its pot after its last hand.
    config.deals = s.hands;
    let mut scorer = Scorer::new(ScoringMode::Session, config).context("the session's ledger")?;
    let mut records = Vec::new();
    let others: Vec<String> =
        (1..n).map(|i| format!("seat {} is {}", me.plus(i, n), names[me.plus(i, n).index()])).collect();
    writeln!(
        out,
        "You are seat {me}. {}. Type the number of your choice; also `hint`, `help`, `hand` or `quit`.",
        others.join(", ")
    )?;
    let mut ended_early = false;
    for k in 0..u64::from(s.hands) {
        let ds = deal_seed(s.seed, k);
        let dealer = Seat(((u64::from(s.dealer) + k) % u64::from(n)) as u8);
        let deal = first_deal.unwrap_or_else(|| deal_for_seed(ds).seated(s.rules.table(n), dealer));
        writeln!(out, "\n=== hand {} of {} ===", k + 1, s.hands)?;
        let rng_seed = seating_rng_seed(ds, 0);
        let mut table = Table {
            hand: Hand::with_rules(s.rules, n, deal, dealer)?,
            me,
            rngs: seat_rngs(rng_seed),
            hint_rng: rng_from_seed(rng_seed ^ 0x5EED_0F41_A7C3),
            hint: s.hint.clone(),
        };
        for b in bots.iter_mut().flatten() {
            b.begin_hand();
        }
        writeln!(out, "dealer: seat {dealer}; mano: seat {}", dealer.next(n))?;
        if s.rules.table(n).sits_out(dealer) == Some(me) {
            writeln!(
                out,
                "you deal and sit out this hand (if the three others pass with the espada in the heap, you \
                 penetra)"
            )?;
        } else if table.hand.request().seat() != Some(me) {
            writeln!(out, "your hand: {}", sorted_hand(table.hand.public(), table.hand.hand_of(me)))?;
        }
        let mut steps = Vec::new();
        let finished = loop {
            let req = table.hand.request();
            let Some(seat) = req.seat() else { break true };
            let d = if seat == me {
                match table.ask(input, out)? {
                    Answer::Decision(d) => d,
                    Answer::Quit => {
                        writeln!(out, "You leave the table; this hand is not finished and not recorded.")?;
                        break false;
                    }
                    Answer::EndOfInput => {
                        writeln!(
                            out,
                            "\nEnd of input: the session ends; this hand is not finished and not recorded."
                        )?;
                        break false;
                    }
                }
            } else {
                let bot = bots[seat.index()].as_mut().expect("a bot sits there");
                bot.decide_at(&table.hand, seat, &mut table.rngs[seat.index()])
                    .map_err(|f| anyhow::anyhow!("seat {seat} ({}): {f}", names[seat.index()]))?
            };
            if let Some(line) = table_line(&table.hand, &d, seat, me) {
                let g =
                    if s.rules.spec().words.gloss { gloss(&d, table.hand.public()) } else { String::new() };
                writeln!(out, "{line}{g}")?;
            }
            table.hand.apply(d).map_err(|e| anyhow::anyhow!("seat {seat} ({}): {e}", names[seat.index()]))?;
            steps.push(Step { seat, act: d });
            // Trumps named: the hand in its new order (at once, unless a prompt
            // shows it; not for the dealer sitting out).
            if matches!(d, Decision::Declare(..))
                && !table.hand.hand_of(me).is_empty()
                && table.hand.request().seat() != Some(me)
            {
                writeln!(out, "your hand: {}", sorted_hand(table.hand.public(), table.hand.hand_of(me)))?;
            }
        };
        if !finished {
            ended_early = true;
            break;
        }
        let result = table.hand.result().expect("the hand is over");
        writeln!(out, "{}", outcome_line(&result))?;
        let score = scorer.apply(&result).context("scoring the hand")?;
        write_scores(out, &scorer, &score, me, n, k)?;
        let mut rec = HandRecord::new(s.rules.set, deal, dealer, names.clone(), steps, result);
        rec.set_rules(&s.rules);
        rec.seed = if first_deal.is_some() { None } else { Some(ds) };
        rec.rng_seed = Some(rng_seed);
        records.push(rec);
        if let Some(p) = &s.record {
            write_records(p, &records)?;
        }
    }
    if !ended_early && s.hands > 1 {
        write_settlement(out, &scorer, me, n)?;
    }
    writeln!(out, "{} hand(s) played.", records.len())?;
    if let (Some(p), false) = (&s.record, records.is_empty()) {
        writeln!(out, "record written to {}", p.display())?;
    }
    Ok(())
}

/// The line the person sees for `d` by `seat`: the narrative of `play`, except
/// that another seat's exchange and penetro show how many cards, never which (the
/// narrative of `play` and `replay` shows every card).
fn table_line(hand: &Hand, d: &Decision, seat: Seat, me: Seat) -> Option<String> {
    if seat == me {
        return narrate(hand, d);
    }
    let p = hand.public();
    match *d {
        Decision::Discard(set) => {
            let k = set.len();
            let mut line = if p.penetro.active && seat == p.dealer && p.phase == Phase::DeclarerExchange {
                format!("exchange: seat {seat} discards 1 and draws none (penetro)")
            } else {
                format!("exchange: seat {seat} discards {k} and draws {k}")
            };
            // The rest of the heap turned face up (`show_heap`) is public.
            let mut after = *hand;
            after.apply_unchecked(*d);
            let shown = after.public().shown_heap;
            if p.shown_heap.is_empty() && !shown.is_empty() {
                line.push_str(&format!("\nthe heap is turned face up: {}", p.rules.names().cards(shown)));
            }
            Some(line)
        }
        Decision::Penetro(e) => Some(format!("seat {seat} penetra: takes the {e} ten")),
        _ => narrate(hand, d),
    }
}

/// The hand at the table with what the person's prompts need.
struct Table {
    hand: Hand,
    me: Seat,
    rngs: [AgentRng; 4],
    hint_rng: AgentRng,
    hint: String,
}

/// A choice offered in a numbered list.
pub(crate) struct Choice {
    pub(crate) decision: Decision,
    pub(crate) text: String,
}

impl Table {
    /// Prompts until the person gives a legal decision, quits, or the input ends.
    fn ask(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> Result<Answer> {
        let req = self.hand.request();
        let view = self.hand.view(self.me);
        let choices = choices(&view);
        self.show(&view, &choices, out)?;
        loop {
            write!(out, "> ")?;
            out.flush()?;
            let mut bytes = Vec::new();
            if input.read_until(b'\n', &mut bytes).context("reading your answer")? == 0 {
                return Ok(Answer::EndOfInput);
            }
            // Bytes that are not UTF-8 are a typing mistake like any other.
            let line = String::from_utf8_lossy(&bytes);
            let text = line.trim();
            let lower = text.to_ascii_lowercase();
            let mut words = lower.split_whitespace();
            match words.next() {
                None => {}
                Some("quit" | "q" | "exit") => return Ok(Answer::Quit),
                Some("help" | "?") => writeln!(out, "{}", wrap(&help(&view), 78))?,
                Some("hand") => self.show(&view, &choices, out)?,
                Some("hint") => {
                    let spec = words.next().unwrap_or(&self.hint).to_string();
                    match build_agent(&spec) {
                        Ok(mut agent) => {
                            agent.new_hand();
                            match agent.decide(&view, &mut self.hint_rng) {
                                Ok(d) => {
                                    writeln!(out, "hint ({spec}): {}", label(&d, view.public()))?;
                                }
                                Err(f) => writeln!(out, "no hint from {spec}: {f}")?,
                            }
                        }
                        Err(e) => writeln!(out, "no such agent for a hint: {e}")?,
                    }
                }
                Some(_) => match parse_answer(text, &req, &view, &choices) {
                    Ok(d) => return Ok(Answer::Decision(d)),
                    Err(e) => writeln!(out, "{e}; try again (or `help`)")?,
                },
            }
        }
    }

    fn show(&self, view: &PlayerView, choices: &[Choice], out: &mut impl Write) -> Result<()> {
        let p = view.public();
        let req = view.request();
        let names = p.rules.names();
        match req {
            Request::Play { .. } => {
                let trick = p.current_trick();
                let leader = p.current_leader();
                let mut seat = leader;
                let mut table = Vec::new();
                for c in trick {
                    table.push(format!("seat {seat} {}", names.card(*c)));
                    seat = p.next_playing(seat);
                }
                let so_far: Vec<String> =
                    p.tricks.0[..usize::from(p.players)].iter().map(u8::to_string).collect();
                writeln!(
                    out,
                    "trick {} (trumps {}); tricks so far {}; on the table: {}",
                    p.tricks_done + 1,
                    p.trump.map_or("none".into(), |t| names.suit(t)),
                    so_far.join("-"),
                    if table.is_empty() { "nothing, you lead".into() } else { table.join(", ") }
                )?;
            }
            Request::Discard { .. } => {
                writeln!(out, "your hand: {}", numbered_hand(p, view.hand()))?;
                writeln!(out, "{}", discard_prompt(view))?;
                return Ok(());
            }
            _ => {}
        }
        if let Some(e) = view.exposed_hand().filter(|_| p.declarer != Some(view.seat())) {
            writeln!(out, "the declarer's hand, face up: {}", names.cards(e))?;
        }
        if !view.hand().is_empty() {
            writeln!(out, "your hand: {}", sorted_hand(p, view.hand()))?;
        }
        writeln!(out, "{}", prompt_line(view))?;
        for (i, c) in choices.iter().enumerate() {
            writeln!(out, "  {}) {}", i + 1, c.text)?;
        }
        Ok(())
    }
}

/// The prompt of an exchange (a discard request): the rule set's question, with
/// how to type the cards.
pub(crate) fn discard_prompt(view: &PlayerView) -> String {
    let p = view.public();
    let how = if p.penetro.active && view.seat() == p.dealer && p.phase == Phase::DeclarerExchange {
        "Type the card (`2C`) or its number."
    } else {
        "Type the cards (`2C 5O`) or their numbers (`1 4`), or `none`."
    };
    format!("{}. {how}", question(view))
}

/// The question a request asks ([`tresillo_core::question`]), as the terminal
/// shows it before the numbered choices: ended with a colon (a yes-or-no
/// question's `?` with it).
pub(crate) fn prompt_line(view: &PlayerView) -> String {
    format!("{}:", question(view).trim_end_matches('?'))
}

/// The numbered choices of a request (none for discards, typed as cards).
pub(crate) fn choices(view: &PlayerView) -> Vec<Choice> {
    let req = view.request();
    let hand = view.hand();
    let set = view.public().rules;
    let mut legal = view.legal_decisions();
    if let Request::Play { .. } = req {
        let order = power_order(view.public(), hand);
        legal.sort_by_key(|d| match d {
            Decision::Play(c) => order.iter().position(|x| x == c),
            _ => None,
        });
    }
    match req {
        Request::Discard { .. } => Vec::new(),
        _ => legal
            .into_iter()
            .map(|d| Choice {
                decision: d,
                text: label(&d, view.public())
                    + &if set.spec().words.gloss { gloss(&d, view.public()) } else { String::new() },
            })
            .collect(),
    }
}

/// The contracts each bid level of `rules` reaches (a Spanish or English rule
/// set: `palo_de_favor` and `favorito` add the entrada and solo *a favor*,
/// `contrabola` its contract), level 1 first.
fn level_names(rules: &Rules) -> Vec<String> {
    let favoured = rules.favoured_suit();
    (1..=rules.max_level())
        .map(|l| {
            let mut v = Vec::new();
            for c in [Contract::Entrada, Contract::Vuelta, Contract::Contrabola, Contract::Solo] {
                if !rules.has_contract(c) {
                    continue;
                }
                if rules.contract_level(c, None) == l {
                    v.push(c.to_string());
                }
                if let Some(f) = favoured
                    && c.names_trump()
                    && c != Contract::Contrabola
                    && rules.contract_level(c, Some(f)) == l
                    && rules.contract_level(c, None) != l
                {
                    v.push(format!("{c} a favor"));
                }
            }
            v.join(" or ")
        })
        .collect()
}

/// `items` as English: `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A short English gloss of the game's words, at the moment of `p` (empty for
/// plain decisions).
fn gloss(d: &Decision, p: &PublicState) -> String {
    let penetro = p.penetro.active && p.declarer == Some(p.dealer);
    match *d {
        Decision::Answer(Question::SURRENDER, true) if p.phase == Phase::PenetroGiveUp => {
            return " (a puesta at once, and the penetro condición)".into();
        }
        Decision::Answer(Question::SURRENDER, false) if p.phase == Phase::PenetroGiveUp => {
            return " (name trumps, discard one card)".into();
        }
        Decision::Declare(Contract::Entrada, _) if penetro || p.forced => {
            return " (name trumps)".into();
        }
        _ => {}
    }
    if let Decision::Bid(Bid::Level(l)) = *d {
        let names = level_names(&p.game_rules());
        let from = usize::from(l.max(1) - 1).min(names.len());
        return if l == 1 {
            format!(" (I bid: {} or higher)", names.first().map_or("entrada", String::as_str))
        } else {
            format!(" (I bid more: {})", or_list(&names[from..]))
        };
    }
    let g = match *d {
        Decision::Bid(Bid::Paso) => "pass: out of the auction",
        Decision::Bid(Bid::Level(_)) => "",
        Decision::Declare(Contract::Contrabola, _) => {
            "name a suit you hold as trumps, no exchange, take no trick"
        }
        Decision::Declare(Contract::Entrada, _) => "name trumps, exchange",
        Decision::Declare(Contract::Vuelta, _) => "the heap's top card sets trumps, exchange",
        Decision::Declare(Contract::Solo, _) => "name trumps, no exchange",
        Decision::Word(Word::Vienen) => "I go first",
        Decision::Word(Word::ComoQuiera) => "either of us",
        Decision::Word(Word::Van) => "you go first",
        Decision::DropOut(DropWord::MeQuedo) => "I stay",
        Decision::DropOut(DropWord::PuedoQuedarme) => "I can stay",
        Decision::DropOut(DropWord::PuedoIrme) => "I can drop out",
        Decision::DropOut(DropWord::MeVoy) => "I drop out",
        Decision::Penetro(_) => "ten cards, unseen",
        Decision::Answer(q, yes) if !q.def().gloss[usize::from(yes)].is_empty() => {
            q.def().gloss[usize::from(yes)]
        }
        _ => return String::new(),
    };
    format!(" ({g})")
}

/// Parses an answer: a choice's number, a card (card play), cards or numbers
/// (discards).
fn parse_answer(text: &str, req: &Request, view: &PlayerView, choices: &[Choice]) -> Result<Decision> {
    if let Request::Discard { min, max, .. } = *req {
        let order = power_order(view.public(), view.hand());
        let mut set = CardSet::EMPTY;
        let lower = text.to_ascii_lowercase();
        if !matches!(lower.as_str(), "none" | "0" | "-") {
            for tok in text.split([' ', ',']).filter(|t| !t.is_empty()) {
                let c = match tok.parse::<usize>() {
                    Ok(n) if (1..=order.len()).contains(&n) => order[n - 1],
                    Ok(n) => bail!("no card number {n} in your hand (1 to {})", order.len()),
                    Err(_) => parse_card(tok).map_err(|e| anyhow::anyhow!("{e}"))?,
                };
                ensure!(view.hand().contains(c), "you do not hold {c}");
                ensure!(set.insert(c), "{c} given twice");
            }
        }
        let k = set.len() as u8;
        ensure!(k >= min && k <= max, "discard {min} to {max} cards, not {k}");
        return Ok(Decision::Discard(set));
    }
    if let Ok(n) = text.parse::<usize>() {
        ensure!(n >= 1 && n <= choices.len(), "not a choice: {n} (choose 1 to {})", choices.len());
        return Ok(choices[n - 1].decision);
    }
    if let Request::Play { legal, .. } = *req
        && let Ok(c) = parse_card(text)
    {
        ensure!(view.hand().contains(c), "you do not hold {c}");
        ensure!(legal.contains(c), "{c} may not be played now (legal: {legal}); type `help` for why");
        return Ok(Decision::Play(c));
    }
    bail!("not understood: `{text}` (type the number of your choice)")
}

/// The cards of `hand`, strongest first, in the hand of `p`: see [`power_order_in`]
/// (in a nolo contract the no-trump order, no permanent trumps).
fn power_order(p: &PublicState, hand: CardSet) -> Vec<Card> {
    power_order_in(hand, p.trump, p.contract.is_some_and(Contract::is_nolo))
}

/// The cards of `hand`, strongest first: trumps in trump order, then each plain
/// suit high to low (espadas, bastos, copas, oros); `nolo`: the no-trump order.
fn power_order_in(hand: CardSet, trump: Option<Suit>, nolo: bool) -> Vec<Card> {
    let t = table(trump);
    let mut v: Vec<Card> = hand.iter().collect();
    v.sort_by_key(|c| {
        let i = c.bit() as usize;
        // Before trumps are named the espada and the basto are already trumps.
        let permanent = trump.is_none() && !nolo && (*c == Card::ESPADA || *c == Card::BASTO);
        let group = if t.eff_suit[i] == TRUMP_SUIT || permanent { 0 } else { 1 + t.eff_suit[i] };
        let power = match (permanent, *c == Card::ESPADA) {
            (true, true) => u8::MAX,
            (true, false) => u8::MAX - 1,
            _ => t.power[i],
        };
        (group, std::cmp::Reverse(power))
    });
    v
}

/// The hand sorted by trick power, with the trumps marked once known.
fn sorted_hand(p: &PublicState, hand: CardSet) -> String {
    sorted_hand_in(p.rules.names(), hand, p.trump, p.contract.is_some_and(Contract::is_nolo))
}

/// [`sorted_hand`] from its parts.
fn sorted_hand_in(names: Names, hand: CardSet, trump: Option<Suit>, nolo: bool) -> String {
    let v = power_order_in(hand, trump, nolo);
    let n = trump.map_or(0, |_| v.iter().filter(|c| table(trump).trumps.contains(**c)).count());
    let cards: Vec<String> = v.iter().map(|c| names.card(*c)).collect();
    if n > 0 { format!("{} | {}", cards[..n].join(" "), cards[n..].join(" ")) } else { cards.join(" ") }
}

/// The hand sorted by power with the numbers discards are typed with.
fn numbered_hand(p: &PublicState, hand: CardSet) -> String {
    let names = p.rules.names();
    let v = power_order(p, hand);
    v.iter().enumerate().map(|(i, c)| format!("{}:{}", i + 1, names.card(*c))).collect::<Vec<_>>().join(" ")
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if len > 0 && len + 1 + n > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += n;
    }
    out
}

/// The rule that applies to the decision asked now (RULES.md sections 3 to 6; in
/// `lhombre` section 12.4).
fn help(view: &PlayerView) -> String {
    let p = view.public();
    let rules = p.game_rules();
    let (forced_help, all_pass, all_pass_penetro) = match rules.spec().words.help {
        Help::Text(text) => {
            let legal = match view.request() {
                Request::Play { legal, .. } => p.rules.names().cards(legal),
                _ => "the numbered choices".into(),
            };
            return text.replace("{legal}", &legal);
        }
        Help::Sections { forced, all_pass, all_pass_penetro } => (forced, all_pass, all_pass_penetro),
    };
    match view.request() {
        Request::Bid { min_level, max_level, .. } => {
            let can = if min_level > max_level {
                "You cannot outbid the standing bid: only paso is left.".to_string()
            } else {
                format!("You may bid level {min_level} to {max_level} or pass.")
            };
            let levels: Vec<String> =
                level_names(&rules).iter().enumerate().map(|(i, c)| format!("{} {c}", i + 1)).collect();
            let all_pass = if p.table.penetro { all_pass_penetro } else { all_pass };
            format!(
                "Auction (RULES.md section 3): levels are {}. A bid must be higher than the standing one, except \
                 that a player earlier in turn order (mano, medio, postre) may equal it. A pass (paso) is final. \
                 The last bidder left declares; {all_pass}. {can}",
                or_list(&levels).replace(" or ", " and ")
            )
        }
        Request::Declare { min_level, forced, .. } => format!(
            "Contract (section 3): name a contract at least as high as the level won ({min_level}){}. Entrada: \
             you name trumps and exchange. Vuelta: the heap's top card is turned and sets trumps; you exchange, \
             drawing it first. Solo: you name trumps and do not exchange. You must win more tricks than each \
             opponent (sacado); a tie is a puesta, an opponent with most tricks wins codillo.",
            match forced {
                false => String::new(),
                true if p.penetro.active => "; a penetro: entrada only, then you discard one card".into(),
                true => forced_help.to_string(),
            } + &if rules.has_contract(Contract::Contrabola) {
                " (Contrabola: nobody exchanges; name a suit you hold as trumps and take no trick.)".to_string()
            } else {
                String::new()
            }
        ),
        Request::Discard { min, max, .. } => format!(
            "Exchange (section 4): discard face down {min} to {max} cards and draw as many from the top of the \
             heap ({} left). The declarer exchanges first (not in solo), then the first opponent, then the \
             second with what is left. Nobody sees your discards; everyone sees how many you changed.",
            p.heap_left
        ),
        Request::Word { .. } => "Conversation (section 4.3): the opponents decide who exchanges first. Say \
             vienen (I go first), como quiera (either) or van (you go first). You agree when one asks to go \
             first and the other does not, or one says como quiera and the other van; after three rounds \
             without agreement the first speaker goes first."
            .into(),
        Request::Play { legal, .. } => {
            let now = match p.led() {
                None => "You lead: any card.".to_string(),
                Some(led) => {
                    let t = table(p.trump);
                    let i = led.bit() as usize;
                    if t.eff_suit[i] == TRUMP_SUIT {
                        let forced = legal_moves(view.hand(), p.trump, Some(led)) != view.hand();
                        format!(
                            "A trump ({led}) was led: you must play a trump if you hold one that can be forced \
                             (any trump but the estuche - espada, mala, basto - and an estuche card ranked below \
                             the card led). {}",
                            if forced { "You hold one." } else { "You hold none, so any card is legal." }
                        )
                    } else {
                        format!("{led} was led: follow its suit if you can, otherwise play any card.")
                    }
                }
            };
            format!(
                "Play (section 5): {now} Legal now: {legal}. The highest trump wins the trick, or else the \
                 highest card of the suit led; the winner leads next."
            )
        }
        Request::Ask { question: Question::SURRENDER, .. } if p.phase == Phase::PenetroGiveUp => "Penetro (section 12.2): you took ten \
             cards. Give up at once and the hand is your puesta, and you pay the penetro condición; or play on: \
             name trumps and discard one card. Once play starts a penetro cannot be given up."
            .into(),
        Request::Ask { question, .. } => question.def().help.into(),
        Request::Penetro { .. } => "Penetro (section 12.2): everybody passed and nobody holds the espada, so \
             the dealer takes ten cards from the top or the bottom of the heap, without looking, and may then \
             give up at once or name trumps and discard one card."
            .into(),
        Request::DropOut { .. } => "Drop-out (section 12.2): one of the three others sits the penetro out. Say \
             me quedo (I stay), puedo quedarme, puedo irme or me voy (I drop out); the first me voy drops out, \
             else after one round the last who said puedo irme, else the last speaker."
            .into(),
        Request::Done => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_is_wrapped_at_word_boundaries() {
        let w = wrap("aa bbb cc d eeeeeeeeee f", 6);
        assert_eq!(w, "aa bbb\ncc d\neeeeeeeeee\nf");
        assert!(w.lines().all(|l| l.len() <= 6 || !l.contains(' ')));
    }

    #[test]
    fn hands_sort_by_trick_power() {
        let h = tresillo_core::parse_hand("7C 1E 12O 1B 3C 2C 12C").unwrap();
        // Copas trumps: espada, mala (7C), basto, then copas 12 2 3; then oros.
        assert_eq!(sorted_hand_in(Names::Spanish, h, Some(Suit::Copas), false), "1E 7C 1B 12C 2C 3C | 12O");
        // Before trumps: the espada and the basto, then suits in order, each high to low.
        assert_eq!(sorted_hand_in(Names::Spanish, h, None, false), "1E 1B 12C 2C 3C 7C 12O");
        let h = tresillo_core::parse_hand("7E 10E 1E 3B 1B 1O 12O").unwrap();
        assert_eq!(sorted_hand_in(Names::Spanish, h, None, false), "1E 1B 10E 7E 3B 12O 1O");
    }
}
