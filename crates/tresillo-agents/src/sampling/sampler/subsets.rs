//! Exact combinatorics of the samplers: binomials, uniform bounded integers of
//! 128 bits, uniform subsets of a given size (drawn, or drawn from a fixed
//! sequence of draws), and every subset of a size in turn.

use crate::rng::{AgentRng, Draws, below};
use rand_core::RngCore;
use tresillo_core::CardSet;

/// `BINOM[n][k]` = n choose k, for n up to 40.
static BINOM: [[u64; 41]; 41] = {
    let mut t = [[0u64; 41]; 41];
    let mut n = 0;
    while n <= 40 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline]
pub(crate) fn binom(n: u32, k: u32) -> u128 {
    if k > n { 0 } else { u128::from(BINOM[n as usize][k as usize]) }
}

/// A uniform integer in `0..n` (`n > 0`), exactly: rejection on the smallest
/// power of two above `n`.
pub(crate) fn below_u128(rng: &mut AgentRng, n: u128) -> u128 {
    debug_assert!(n > 0);
    if n <= u128::from(u32::MAX) {
        return u128::from(below(rng, n as u32));
    }
    let bits = 128 - (n - 1).leading_zeros();
    loop {
        let r = if bits <= 64 {
            u128::from(rng.next_u64() >> (64 - bits))
        } else {
            ((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64())) >> (128 - bits)
        };
        if r < n {
            return r;
        }
    }
}

/// A uniformly random subset of `set` with exactly `k` cards (`k <= set.len()`):
/// a partial Fisher-Yates shuffle on the smaller side.
pub(crate) fn random_subset(set: CardSet, k: u32, rng: &mut AgentRng) -> CardSet {
    let n = set.len();
    debug_assert!(k <= n);
    if k == 0 {
        return CardSet::EMPTY;
    }
    if k >= n {
        return set;
    }
    let (pick, complement) = if 2 * k > n { (n - k, true) } else { (k, false) };
    let (mut bits, len) = bit_positions(set);
    let mut out = 0u64;
    for i in 0..pick as usize {
        let j = i + below(rng, (len - i) as u32) as usize;
        bits.swap(i, j);
        out |= 1 << bits[i];
    }
    if complement { set - CardSet(out) } else { CardSet(out) }
}

/// A uniformly random subset of `set` with exactly `k` cards (`k <= set.len()`),
/// one card at a time: the `i`-th of the cards left, `i` uniform (sequential
/// sampling without replacement), on the smaller side.
#[inline]
pub(crate) fn subset_by_draws(set: CardSet, k: u32, d: &mut Draws<'_, AgentRng>) -> CardSet {
    let n = set.len();
    debug_assert!(k <= n);
    if k == 0 {
        return CardSet::EMPTY;
    }
    if k >= n {
        return set;
    }
    let (pick, complement) = if 2 * k > n { (n - k, true) } else { (k, false) };
    let mut left = set;
    let mut out = CardSet::EMPTY;
    for i in 0..pick {
        let c = left.nth(d.below(n - i)).expect("an index below the cards left");
        left.take(c);
        out.insert(c);
    }
    if complement { set - out } else { out }
}

/// The bit positions of the cards of `set`, lowest first, and how many there are.
fn bit_positions(set: CardSet) -> ([u8; 40], usize) {
    let mut bits = [0u8; 40];
    let mut len = 0;
    for c in set {
        bits[len] = c.bit() as u8;
        len += 1;
    }
    (bits, len)
}

/// Calls `f` with every subset of `set` holding exactly `k` cards (Gosper's hack on
/// card positions).
pub(crate) fn for_each_subset(set: CardSet, k: u32, mut f: impl FnMut(CardSet)) {
    let n = set.len();
    if k > n {
        return;
    }
    if k == 0 {
        f(CardSet::EMPTY);
        return;
    }
    let (bits, _) = bit_positions(set);
    let mut comb: u64 = (1u64 << k) - 1;
    let limit: u64 = 1u64 << n;
    while comb < limit {
        let mut s = 0u64;
        let mut c = comb;
        while c != 0 {
            s |= 1 << bits[c.trailing_zeros() as usize];
            c &= c - 1;
        }
        f(CardSet(s));
        let lowest = comb & comb.wrapping_neg();
        let ripple = comb + lowest;
        comb = (((ripple ^ comb) >> 2) / lowest) | ripple;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;
    use tresillo_core::Card;

    #[test]
    fn subsets_of_size_are_all_visited_once() {
        let set: CardSet = Card::all().step_by(4).collect();
        for k in 0..=set.len() {
            let mut seen = std::collections::HashSet::new();
            for_each_subset(set, k, |s| {
                assert_eq!(s.len(), k);
                assert!(set.is_superset(s));
                assert!(seen.insert(s));
            });
            assert_eq!(seen.len() as u128, binom(set.len(), k));
        }
    }

    #[test]
    fn random_subsets_have_the_size_asked() {
        let mut rng = rng_from_seed(5);
        let set: CardSet = Card::all().step_by(3).collect();
        for k in 0..=set.len() {
            let s = random_subset(set, k, &mut rng);
            assert_eq!(s.len(), k);
            assert!(set.is_superset(s));
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binom(40, 20), 137_846_528_820);
        assert_eq!(binom(5, 2), 10);
        assert_eq!(binom(3, 4), 0);
    }

    #[test]
    fn below_u128_is_in_range() {
        let mut rng = rng_from_seed(9);
        for n in [1u128, 2, 7, 1 << 40, (1 << 100) + 3] {
            for _ in 0..100 {
                assert!(below_u128(&mut rng, n) < n);
            }
        }
    }
}
