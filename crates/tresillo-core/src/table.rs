//! The table a hand is played at: how many players sit at it and what each seat
//! does (RULES.md sections 2 and 12.2). A rule set declares the tables it is
//! played at in its [`RuleSpec::tables`](crate::RuleSpec::tables); everything
//! that needs to know whether the dealer sits out, which seats are active or
//! whether a penetro is played asks the [`Table`] (from
//! [`Rules::table`](crate::Rules::table), [`PublicState::table`](crate::PublicState::table)
//! or [`HandResult::table`](crate::HandResult::table)) instead of testing the
//! number of players.
//!
//! ```
//! use tresillo_core::{Rules, Seat, Table};
//!
//! let four = Rules::default().table(4);
//! assert!(four.dealer_sits_out && four.penetro);
//! assert_eq!(four.sits_out(Seat(2)), Some(Seat(2)));
//! assert_eq!(four.active_seats(Seat(2)), 0b1011);
//! assert_eq!(four.hands(), 3);
//! let three = Rules::default().table(3);
//! assert_eq!(three, Table::THREE);
//! assert_eq!(three.sits_out(Seat(2)), None);
//! ```

use crate::card::Seat;

/// A table size a rule set is played at and what its seats do there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// The players seated.
    pub players: u8,
    /// The dealer sits each hand out: holds no cards and takes no part in the
    /// auction (one player more than the hands dealt, section 12.2).
    pub dealer_sits_out: bool,
    /// When all pass, the dealer who sits out penetra: takes the heap and plays
    /// against the others (section 12.2).
    pub penetro: bool,
}

impl Table {
    /// Three players, each of whom plays every hand.
    pub const THREE: Table = Table { players: 3, dealer_sits_out: false, penetro: false };

    /// Four players: the dealer sits out, and penetra when all pass (`tresillo`,
    /// section 12.2).
    pub const FOUR_WITH_PENETRO: Table = Table { players: 4, dealer_sits_out: true, penetro: true };

    /// The table size of the command-line flags and files when none is given.
    pub const DEFAULT_PLAYERS: u8 = 3;

    /// A table of `players` where every seat plays every hand: the table of a
    /// size that a rule set does not declare (which
    /// [`Rules::check_players`](crate::Rules::check_players) refuses).
    #[must_use]
    pub const fn every_seat(players: u8) -> Table {
        Table { players, dealer_sits_out: false, penetro: false }
    }

    /// Whether every seated player plays every hand (nobody sits out).
    #[must_use]
    #[inline]
    pub const fn every_seat_plays(self) -> bool {
        !self.dealer_sits_out
    }

    /// The hands dealt: one per active seat.
    #[must_use]
    #[inline]
    pub const fn hands(self) -> u8 {
        self.players - self.dealer_sits_out as u8
    }

    /// The seat that sits the hand out when `dealer` deals, if any.
    #[must_use]
    #[inline]
    pub const fn sits_out(self, dealer: Seat) -> Option<Seat> {
        if self.dealer_sits_out { Some(dealer) } else { None }
    }

    /// Whether `seat` is dealt a hand when `dealer` deals (before any penetro).
    #[must_use]
    #[inline]
    pub const fn active(self, seat: Seat, dealer: Seat) -> bool {
        seat.0 < self.players && !(self.dealer_sits_out && seat.0 == dealer.0)
    }

    /// The seats dealt a hand when `dealer` deals, as a bit mask.
    #[must_use]
    #[inline]
    pub const fn active_seats(self, dealer: Seat) -> u8 {
        let all = (1u8 << self.players) - 1;
        if self.dealer_sits_out { all & !(1 << dealer.0) } else { all }
    }

    /// The number of players in words (`three`, `four`), for sentences.
    #[must_use]
    pub const fn players_word(self) -> &'static str {
        match self.players {
            2 => "two",
            3 => "three",
            4 => "four",
            5 => "five",
            _ => "several",
        }
    }

    /// The table in a sentence: `3`, or `4: the dealer sits out, penetro when all
    /// pass (RULES.md section 12.2)`.
    #[must_use]
    pub fn describe(self) -> String {
        match (self.dealer_sits_out, self.penetro) {
            (false, _) => self.players.to_string(),
            (true, true) => {
                format!(
                    "{}: the dealer sits out, penetro when all pass (RULES.md section 12.2)",
                    self.players
                )
            }
            (true, false) => format!("{}: the dealer sits out", self.players),
        }
    }
}

// Tests: tests/four_players.rs (`table_*`), beside the four-player engine they
// describe (from there, and not a module here, they import rules and notation
// without an import circle in the crate).
