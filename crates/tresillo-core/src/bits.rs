//! Bit deposit and extract (BMI2's PDEP and PEXT) with a portable fallback, chosen
//! at run time.
//!
//! [`CardSet::nth`](crate::CardSet::nth) picks the n-th card of a set with one PDEP,
//! and the solver of `tresillo-agents` compresses hands to the cards still out with
//! PEXT. Builds are portable (`.cargo/config.toml` targets x86-64-v2, not the
//! compiling machine), so BMI2 is not known at compile time: the first call asks
//! the CPU (`is_x86_feature_detected!`, which the standard library caches) and each
//! call then takes the instruction or the loop. A build that enables BMI2 for the
//! whole crate (`RUSTFLAGS="-C target-cpu=native"` on a BMI2 machine) uses the
//! instruction directly, with no test. Loops compiled twice (see [`has_bmi`]) use
//! [`pdep_as`], [`pext_as`] and [`nth_bit_as`] in their BMI copy: the instruction
//! with no test of the CPU at each call. The results are the same bits either way.
//!
//! CPU dispatch, in full: builds target x86-64-v2 (`.cargo/config.toml`: POPCNT
//! compiled in, since `count_ones` is everywhere; every x86_64 CPU since about 2009,
//! RHEL 9's baseline), so one binary or wheel runs on any lab machine. BMI1, BMI2 and
//! LZCNT are tested at run time. The two hot loops are compiled twice, the second copy
//! with `#[target_feature(enable = "bmi1,bmi2,lzcnt")]` (PDEP, PEXT, TZCNT, LZCNT and
//! BLSR inline), entered once per playout or search after [`has_bmi`]:
//! `Registers::tricks` (`PlayState::playout`, `playout_until`) and the solver's
//! `node`/`expand` recursion (a `const FAST: bool` parameter; the bodies are
//! `#[inline(always)]` into `node_plain`/`node_bmi` and `expand_plain`/`expand_bmi`,
//! and `call_node`/`call_expand` recurse into the same copy). Every helper such a loop
//! calls (`key`, `representatives`, `sure`) takes the flag and is `#[inline(always)]`,
//! so nothing in it runs without BMI. A call per PDEP without the second copies cost
//! pimc 16%, and the tests per call inside them cost playouts 14%
//! (results/BENCHMARKS.md, "Portable builds", "What the gap was"). `bits::tests` checks
//! the instructions against the loops; the solver's and playouts' tests run whichever
//! copy the CPU selects. These, the calls into them, and PyO3's glue are the
//! workspace's only `unsafe` (ARCHITECTURE.md, "Unsafe code").

/// Set by [`set_portable`]: the CPU's BMI features are ignored.
static PORTABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// With `true`, [`has_bmi`] and [`has_bmi2`] answer `false` from now on, so the
/// portable copies of the hot loops and the fallback loops run as on a CPU without
/// BMI; `false` restores the CPU's answer. For tests and side-by-side measurements
/// of the portable code on a BMI machine (the results are the same bits either
/// way); a search already under way keeps the copy it entered. No effect in a
/// build that enables BMI2 for the whole crate: there the instructions are
/// compiled in.
pub fn set_portable(on: bool) {
    PORTABLE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this CPU has BMI2 (PDEP and PEXT); `false` off x86_64 and after
/// [`set_portable`]`(true)`.
#[must_use]
#[inline]
pub fn has_bmi2() -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        true
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        std::arch::is_x86_feature_detected!("bmi2") && !PORTABLE.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has BMI1, BMI2 and LZCNT (Intel since Haswell, AMD since
/// Excavator): the features that hot loops compiled twice enable in their second
/// copy (`#[target_feature(enable = "bmi1,bmi2,lzcnt")]`, entered after this test,
/// as `PlayState::playout` and the solver of `tresillo-agents` do); `false` off
/// x86_64 and after [`set_portable`]`(true)`.
#[must_use]
#[inline]
pub fn has_bmi() -> bool {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "bmi1",
        target_feature = "bmi2",
        target_feature = "lzcnt"
    ))]
    {
        true
    }
    #[cfg(all(
        target_arch = "x86_64",
        not(all(target_feature = "bmi1", target_feature = "bmi2", target_feature = "lzcnt"))
    ))]
    {
        std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && !PORTABLE.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The `n`-th lowest set bit of `m` alone (0 when `m` has `n` or fewer set bits),
/// for `n` below 64: one PDEP, or `n` steps clearing the lowest set bit.
#[must_use]
#[inline]
pub fn nth_bit(m: u64, n: u32) -> u64 {
    if has_bmi2() {
        pdep(1u64.wrapping_shl(n), m)
    } else {
        let mut b = m;
        for _ in 0..n {
            b &= b.wrapping_sub(1);
        }
        b & b.wrapping_neg()
    }
}

/// Parallel bit deposit: the low bits of `x`, in order, placed at the set bits of
/// `m` (bit `k` of `x` goes to the `k`-th lowest set bit of `m`); the other bits 0.
#[must_use]
#[inline]
pub fn pdep(x: u64, m: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        #[allow(unsafe_code)]
        // SAFETY: compiled only when the build enables BMI2 for the whole crate.
        unsafe {
            std::arch::x86_64::_pdep_u64(x, m)
        }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        if has_bmi2() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU was just checked to have BMI2.
            unsafe {
                x86::pdep(x, m)
            }
        } else {
            pdep_soft(x, m)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        pdep_soft(x, m)
    }
}

/// Parallel bit extract: the bits of `x` at the set bits of `m`, packed into the
/// low bits of the result in order.
#[must_use]
#[inline]
pub fn pext(x: u64, m: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        #[allow(unsafe_code)]
        // SAFETY: compiled only when the build enables BMI2 for the whole crate.
        unsafe {
            std::arch::x86_64::_pext_u64(x, m)
        }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        if has_bmi2() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU was just checked to have BMI2.
            unsafe {
                x86::pext(x, m)
            }
        } else {
            pext_soft(x, m)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        pext_soft(x, m)
    }
}

/// [`pdep`] for a loop compiled twice (see [`has_bmi`]): with `BMI = true` the
/// instruction itself, with no test of the CPU, so that inside a function compiled
/// with BMI2 it is one instruction; with `BMI = false`, [`pdep`].
///
/// # Safety
///
/// With `BMI = true` the CPU must have BMI2: the caller is below a [`has_bmi`]
/// test that answered `true`.
#[must_use]
#[inline(always)]
#[allow(unsafe_code)]
pub unsafe fn pdep_as<const BMI: bool>(x: u64, m: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    if BMI {
        // SAFETY: the caller's contract (the CPU has BMI2).
        return unsafe { x86::pdep(x, m) };
    }
    pdep(x, m)
}

/// [`pext`] for a loop compiled twice, as [`pdep_as`].
///
/// # Safety
///
/// With `BMI = true` the CPU must have BMI2, as for [`pdep_as`].
#[must_use]
#[inline(always)]
#[allow(unsafe_code)]
pub unsafe fn pext_as<const BMI: bool>(x: u64, m: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    if BMI {
        // SAFETY: the caller's contract (the CPU has BMI2).
        return unsafe { x86::pext(x, m) };
    }
    pext(x, m)
}

/// [`nth_bit`] for a loop compiled twice, as [`pdep_as`].
///
/// # Safety
///
/// With `BMI = true` the CPU must have BMI2, as for [`pdep_as`].
#[must_use]
#[inline(always)]
#[allow(unsafe_code)]
pub unsafe fn nth_bit_as<const BMI: bool>(m: u64, n: u32) -> u64 {
    if BMI {
        // SAFETY: the caller's contract (the CPU has BMI2).
        return unsafe { pdep_as::<true>(1u64.wrapping_shl(n), m) };
    }
    nth_bit(m, n)
}

/// The instructions, compiled for BMI2 whatever the build's target: calling them
/// is `unsafe` (the caller checks the CPU first).
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
mod x86 {
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(super) fn pdep(x: u64, m: u64) -> u64 {
        std::arch::x86_64::_pdep_u64(x, m)
    }

    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(super) fn pext(x: u64, m: u64) -> u64 {
        std::arch::x86_64::_pext_u64(x, m)
    }
}

/// [`pdep`] as a loop over the set bits of `m`.
#[must_use]
#[inline]
pub fn pdep_soft(x: u64, m: u64) -> u64 {
    let (mut m, mut out, mut k) = (m, 0u64, 0);
    while m != 0 {
        let b = m & m.wrapping_neg();
        if x >> k & 1 != 0 {
            out |= b;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

/// [`pext`] as a loop over the set bits of `m`.
#[must_use]
#[inline]
pub fn pext_soft(x: u64, m: u64) -> u64 {
    let (mut m, mut out, mut k) = (m, 0u64, 0);
    while m != 0 {
        let b = m & m.wrapping_neg();
        if x & b != 0 {
            out |= 1 << k;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency in the core's tests).
    fn next(s: &mut u64) -> u64 {
        *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = *s;
        (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
    }

    #[test]
    fn dispatched_equals_portable_loops() {
        let mut s = 7;
        for i in 0..20_000 {
            let (x, mut m) = (next(&mut s), next(&mut s));
            // Sparse and dense masks, and the edge cases.
            match i % 4 {
                0 => m &= next(&mut s),
                1 => m |= next(&mut s),
                _ => {}
            }
            for m in [m, 0, u64::MAX, 1 << 63] {
                assert_eq!(pdep(x, m), pdep_soft(x, m), "pdep({x:#x}, {m:#x})");
                assert_eq!(pext(x, m), pext_soft(x, m), "pext({x:#x}, {m:#x})");
                let low = if m == u64::MAX { u64::MAX } else { (1u64 << m.count_ones()) - 1 };
                assert_eq!(pext(pdep(x, m), m), x & low);
                for n in [0, 1, 5, 39, 63] {
                    let mut b = m;
                    for _ in 0..n {
                        b &= b.wrapping_sub(1);
                    }
                    assert_eq!(nth_bit(m, n), b & b.wrapping_neg(), "nth_bit({m:#x}, {n})");
                }
            }
        }
        assert_eq!(pdep(0b101, 0b1110_0000), 0b1010_0000);
        assert_eq!(pext(0b1010_0000, 0b1110_0000), 0b101);
    }

    #[test]
    fn bmi2_reported_as_the_cpu_has_it() {
        #[cfg(target_arch = "x86_64")]
        assert_eq!(has_bmi2(), std::arch::is_x86_feature_detected!("bmi2"));
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            has_bmi(),
            std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
        );
        #[cfg(not(target_arch = "x86_64"))]
        assert!(!has_bmi2() && !has_bmi());
    }
}
