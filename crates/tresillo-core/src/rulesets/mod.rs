//! One module per rule set: its [`RuleSpec`](crate::RuleSpec) table, its
//! [`Words`](crate::Words) and the logic that does not fit the table, consulted
//! through [`Rules`](crate::Rules) and `RuleSet::spec`.
//!
//! # Adding a rule set
//!
//! A rule set is one module in core (`rulesets/NAME.rs`: its `RuleSpec` table, its
//! `Words`, its `Mechanics`), one row in agents (`family.rs`), its tests and its docs.
//! A new member of the family whose mechanics the engine already has takes:
//!
//! - core: a built-in set is one line in the `built_in!` list at the end of this
//!   file (`NAME: SPEC;`, which declares the module and registers the spec in
//!   `RuleSet::BUILT_IN`; `RuleSet` is a handle on a `&'static RuleSpec`, compared,
//!   hashed and serialized by the spec's `name`; a named `RuleSet` const in
//!   `rules.rs` is optional), and `rulesets/NAME.rs` with
//!   - its `RuleSpec`: data (`tables`: the tables it is played at, each a `Table`
//!     of `table.rs` saying who sits out and whether a penetro is played, e.g.
//!     `&[Table::THREE]`; tricks, contracts, takeover, condiciones, the
//!     forced game's shape: `forced_exchange_first`, `forced_min_discard`,
//!     `forced_max_discard`, `always_played`, `forced_holds_espada`, the opponents'
//!     order, the scoring system, ...);
//!   - its `Words`, every text given (`words.rs`' test
//!     `every_rule_set_words_every_text` refuses an empty one; optional notes are
//!     `Option`s): the forced game's names and labels, the questions and narrative
//!     of its bola, its cancelled hand, `contracts_by_name`, its `Help` (the tool's
//!     per-request help of sections 3-6 with its sentences, or one text), report
//!     legends, the ledger note; and its `Names` style (a new style is a variant of
//!     `Names` with its methods in `words.rs`; `RuleSet::names` gives a set's);
//!   - its `Mechanics`, the functions the data cannot say (next bidder, levels, bid
//!     words and refusal, declaration checks, minimum discards, outcome, who plays when
//!     all pass, the scoring system under its options): take `spanish::MECHANICS` and
//!     replace what differs (`hombre.rs` and `lhombre.rs` are the examples);
//! - a set defined outside core is either data, a TOML file choosing among a
//!   built-in base's table sizes, contracts, takeover, condiciones and options
//!   (docs/RULE-SET-FILES.md; `rulesets/file.rs`), registered by the CLI's global
//!   `--rule-set FILE`, Python's `tresillo.register_rule_set(path)` or
//!   `tresillo_runs::register_rule_set_file`; or Rust, a `RuleSpec` (`..spanish::TRESILLO`,
//!   or a file's spec from `rule_spec_from_toml`, with its own option consts and
//!   `Mechanics`) given to `register_rule_set`. After that name lookup,
//!   `Rules::parse`, `RuleSet::all()` and deserialization know it; the agents give it
//!   `family::GENERAL` (no fast path) and its stakes are its scoring system's
//!   (`Rules::dealer_stake`, `ScoringSystem::reward_scale`). The test-only
//!   `test-three` needs exactly: `core/tests/data/test-three.toml` (its data, what
//!   the CLI and Python register), `core/tests/support/test_three.rs` (the file's
//!   spec plus an option of its own, `max_bid`, read by its own `max_level`,
//!   `#[path]`-included by agents', sim's and bots' `tests/test_rule_set.rs`), and
//!   a registration line where it is played (`register_rule_set(*TEST_THREE)`,
//!   `--rule-set FILE` in `cli/tests/cli/rule_set_file_cli.rs`,
//!   `tresillo.register_rule_set(path)` in `py/tests/test_rule_set_file.py`);
//! - agents: its row in `family.rs` (which rule agent, pimc's own auction, the
//!   fast paths it opts into, each taken only at a table where every seat plays:
//!   `spanish_search` (pimc, oracle, cheat, alphamu and the searched discard on the
//!   Spanish path; off, they take the general path, `gpimc::handles`), `fast_sim`
//!   (ISMCTS's `Sim`; off, its `HandSim`; on only for plain `tresillo`) and
//!   `rule_likelihood` (the rule agent's likelihood of a sampled world; off under a
//!   favoured suit or contrabola), asked through `family::spanish_search` and
//!   `family::fast_sim`, never by a table size; the search's goal, the sampler's constraints; ISMCTS's
//!   reward scale and the dealer's stake are not the row's but the scoring
//!   system's, `ScoringSystem::reward_scale` and `Rules::dealer_stake`, which the
//!   ledgers charge); every stake a search values (pimc's auction and bola
//!   included, `gpimc::SpanishBids`, `bola_worth`) comes from the rule set's ledger;
//! - tests: `core/tests/NAME.rs` (its rules one test each), its rows in the property
//!   tests over every rule set (`core/tests/rule_sets.rs`, `agents/tests/rule_sets.rs`);
//! - docs: its section of docs/RULES.md, its rows in docs/CLI.md's rule-set tables;
//! - the CLI, the Python package, the bot protocol and the action space: nothing (they
//!   speak through `Names`, `Words`, `Rules`, `Table` and `action.rs`).
//!
//! A rule set's own options are `OptionInfo` consts in its own file (a kind: flag,
//! suit, or count with its range and default; its serialized `key`; the option it
//! `requires`; `penetro_only`), listed in its `options` and read by its mechanics
//! through `rules.flag(&X)`, `rules.suit(&X)`, `rules.count(&X)`: `RuleOptions`
//! stores the values of the set's list generically (at most `MAX_OPTIONS`, 8), and
//! parsing, `Display`, serde and `tresillo rules` need nothing more
//! (`core/tests/options.rs` round-trips every option of every set and pins the
//! serialized forms). A yes/no step is a `Question` declared in the rule set's own
//! module plus its line in the `questions!` list (`hand.rs`), not a new request. Only a rule
//! set with mechanics the engine lacks goes further: new requests and phases
//! (`state.rs`, `hand.rs`, its steps in `hand/NAME.rs`, as `hombre`'s), new contracts (`Contract` in `game.rs`, ids in `action.rs`), a new
//! scoring system (a `ScoringSystem` variant with its properties, its ledger in
//! `scoring/`, `Scorer`'s choice in `scoring/ledger.rs`), or more than `MAX_TRICKS`
//! tricks (`PlayState` and the solvers play at most nine).
//!
//! **The rule for what stays outside a rule set's module**: a field whose variants
//! each name a reusable mechanic may stay when the code it selects is in one place and
//! its documentation names the rule sets that use each variant. Two remain:
//! `OpponentsOrder` (one match, `hand/hombre.rs::opponents_exchange`) and
//! `ScoringSystem` (which ledger keeps a session: `Scorer`'s choice and each ledger's
//! guard, and what the tools ask of a system as its methods `unit`,
//! `puesta_accounts`, `kept_by_ledger`). Options are read only by the rule set's
//! mechanics, by option parsing and by the methods of `Rules` that ask them
//! (`codillo_old`, `redeal_all_pass`, `penetro_all_play`, `shows_heap`,
//! `gascarille`, `has_contract`, `favoured_suit`, `ante`, `has_options`,
//! `set_options`); everyone else asks those (`hombre-chips` becomes
//! `ScoringSystem::Chips` in `rulesets/hombre.rs`; the agents' row for it asks
//! `Rules::scoring`). The table's shape is `Table` (`core/src/table.rs`): built
//! from the rule set's `tables` by `Rules::table(players)` and kept in
//! `PublicState::table` (also `HandResult::table`, `LedgerConfig::table`), it says
//! who sits out (`sits_out`, `active`, `active_seats`, `every_seat_plays`), whether
//! a penetro is played (`penetro`) and its words (`players_word`, `describe`); the
//! hot paths of `state.rs` compare it with `Table::THREE`, never the number of
//! players.
//!
//! # Rule sets are data and their own functions
//!
//! What a rule set changes is its `RuleSpec` constant in `core/src/rulesets/NAME.rs`:
//! data, and `Mechanics`, the functions that data cannot say (the auction's next
//! bidder, levels, bid words, declaration checks, minimum discards, outcome, who plays
//! when all pass, the scoring system under options), set in the same module. `Rules`'
//! methods (`max_level`, `contract_level`, `declare_error`, `all_pass_declarer`,
//! `outcome`, `scoring`, ...) call them. The hand, the ledger, the agents and the
//! sampler consult those, never the rule set's name. The hand carries its `Rules`
//! (`PublicState::game_rules`), so views, results and replays know them; a ledger
//! refuses a result of other rules or options. In files a `Rules` without options is
//! its bare name, so manifests of the default rule set are unchanged. `hombre` (12.3)
//! extended the table: the obligation (`forced_exchange_first`, `forced_min_discard`,
//! `always_played` and its `all_pass_declarer`), `opponents_order` (the conversation or
//! the next opponent's exchange right), `first_opponent_max`, `accept_in` (contracts
//! whose surrender both opponents must accept), `declared_vole` and `scoring`
//! (`ScoringSystem::Puesta`, `Points` or, under `hombre-chips`, `Chips`: `Scorer`
//! builds the ledger of `Rules::scoring`, the puesta `Ledger`, `PointsLedger` or
//! `ChipsLedger`). Its extra steps (yes/no questions: gascarille, exchange right,
//! accepting a surrender, declaring the vole) live in `core/src/hand/hombre.rs`, called
//! where the table says; its options (`show_heap`, `favorito`, `contrabola`, ...) are
//! methods of `Rules` (`favoured_suit`, `has_contract`, `ante`). Contracts beyond
//! section 3 are `Contract::EVERY` (contrabola); `Contract::ALL` stays the three of
//! section 3. `lhombre` (12.4) lives in `core/src/rulesets/lhombre.rs`, reached through
//! `RuleSpec` fields (`contracts`, `surrender: false`, `opponents_order`:
//! `FromDeclarer`, `scoring`: `PerDefender`, paid by the puesta `Ledger`'s per-defender
//! branch in `scoring/lhombre.rs`) and its `Mechanics` (`next_bidder`: the duels,
//! `may_bid`, `declare_error`, `min_discard`, `outcome`). Its contracts are `Contract`
//! variants (game and solo reuse entrada and solo, spades being the trump), no trump is
//! the `None` mode of the tables (the no-trump order of §1), and nolo ouvert's hand is
//! public state (`PublicState::exposed`), so every view and the sampler see it.

#[cfg(feature = "rule-files")]
pub mod file;

/// Declares each built-in rule set's module and registers the sets it defines,
/// in the order given: one line per module, `module: SPEC, SPEC;`.
macro_rules! built_in {
    ($($module:ident: $($spec:ident),+;)*) => {
        $(pub mod $module;)*

        /// The built-in rule sets, in their documented order (`RuleSet::BUILT_IN`).
        pub(crate) const BUILT_IN_LIST: &[crate::spec::RuleSet] = &[$($(crate::spec::RuleSet::of(&$module::$spec),)+)*];
    };
}

// The registry of built-in rule sets: a new one is its module under `rulesets/`
// plus its line here (the test suite then names what it still lacks, such as a
// hand perft table). RULES.md sections 1-8 and 12.1, 12.3, 12.4.
built_in! {
    spanish: TRESILLO, TRESILLO_HOUSE;
    hombre: HOMBRE;
    lhombre: SPEC;
}
