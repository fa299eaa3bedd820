//! Student's t distribution for integer degrees of freedom: the two-sided 95%
//! quantile behind every interval the toolkit prints, and the distribution
//! function behind the likelihood of superiority.
//!
//! **Why t.** An interval on a mean of `n` independent observations is
//! `mean ± q · s / sqrt(n)` with `s` the sample standard deviation; `q = 1.96`
//! (the normal quantile) is right only as `n` grows: with `s` estimated, the
//! exact quantile (for normal observations) is Student's `t(0.975, n - 1)`,
//! 15% wider at 10 units and 0.6% at 200. Every interval uses it.
//!
//! **How.** For integer `ν` the distribution function has a finite closed form
//! (Abramowitz and Stegun 26.7.3 and 26.7.4): with `θ = atan(t / sqrt(ν))`,
//! `A(t|ν) = P(|T| ≤ t)` is a sum of `ν / 2` terms in `cos θ`. The quantile is
//! found by bisection on it to the last bit for `ν ≤ 1000`; above, the
//! Cornish-Fisher expansion in `1/ν` to the fourth order (error below 1e-14
//! there). `scripts/rundir.py` repeats these operations in the same order, so
//! the Python scripts print the same digits.

/// The two-sided 95% normal quantile, `Φ^-1(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `A(t|ν) = P(|T| ≤ t)` for `t ≥ 0` and `ν ≥ 1` degrees of freedom (A&S 26.7.3/4).
#[must_use]
pub fn t_two_sided(t: f64, df: u64) -> f64 {
    let nu = df.max(1);
    let th = (t / (nu as f64).sqrt()).atan();
    let (s, c) = (th.sin(), th.cos());
    let c2 = c * c;
    if nu % 2 == 1 {
        let mut sum = 0.0;
        if nu > 1 {
            let mut term = c;
            sum = c;
            let mut k = 3;
            while k < nu {
                term *= c2 * (k - 1) as f64 / k as f64;
                sum += term;
                k += 2;
            }
        }
        2.0 / std::f64::consts::PI * (th + s * sum)
    } else {
        let mut term = 1.0;
        let mut sum = 1.0;
        let mut k = 2;
        while k < nu {
            term *= c2 * (k - 1) as f64 / k as f64;
            sum += term;
            k += 2;
        }
        s * sum
    }
}

/// The distribution function of Student's t with `df` degrees of freedom:
/// `P(T ≤ t)`. Above 100,000 degrees of freedom, the normal's (the two differ
/// by less than 1e-5 there).
#[must_use]
pub fn t_cdf(t: f64, df: u64) -> f64 {
    if !t.is_finite() {
        return if t > 0.0 {
            1.0
        } else if t < 0.0 {
            0.0
        } else {
            f64::NAN
        };
    }
    let a =
        if df > 100_000 { 1.0 - erfc(t.abs() / std::f64::consts::SQRT_2) } else { t_two_sided(t.abs(), df) };
    // Rounding may carry the closed form a hair past 1: a probability stays in [0, 1].
    if t >= 0.0 { (0.5 + 0.5 * a).min(1.0) } else { (0.5 - 0.5 * a).max(0.0) }
}

/// The complementary error function for `x ≥ 0` (Numerical Recipes' `erfcc`,
/// a Chebyshev fit with fractional error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x);
    let p = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    t * p.exp()
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom,
/// `t(0.975, df)`: 12.7062 at 1, 2.2622 at 9, 1.9720 at 199, tending to
/// [`Z95`]. `df = 0` has none (NaN).
#[must_use]
pub fn t95(df: u64) -> f64 {
    if df == 0 {
        return f64::NAN;
    }
    if df > 1000 {
        // Cornish-Fisher (A&S 26.7.5) around the normal quantile.
        let z = Z95;
        let v = df as f64;
        // Powers by explicit products (not powi), as scripts/rundir.py computes them.
        let z2 = z * z;
        let z3 = z2 * z;
        let z5 = z3 * z2;
        let z7 = z5 * z2;
        let z9 = z7 * z2;
        let g1 = (z3 + z) / 4.0;
        let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
        let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
        let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
        return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
    }
    let (mut lo, mut hi) = (Z95, 13.0);
    while t_two_sided(hi, df) < 0.95 {
        hi *= 2.0;
    }
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return hi;
        }
        if t_two_sided(mid, df) < 0.95 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
}

/// The half-width of the 95% interval on a mean of `n` observations whose
/// sample variance is `var`: `t95(n - 1) · sqrt(var / n)` (NaN below two).
#[must_use]
pub fn half_width(var: f64, n: u64) -> f64 {
    if n < 2 {
        return f64::NAN;
    }
    t95(n - 1) * (var.max(0.0) / n as f64).sqrt()
}

/// The likelihood of superiority: the probability that the true mean is above
/// 0 given a sample mean `mean` with standard error `se` on `df` degrees of
/// freedom, `T_df(mean / se)` (1 or 0 when `se` is 0 and the mean is not;
/// 0.5 when both are 0).
#[must_use]
pub fn los(mean: f64, se: f64, df: u64) -> f64 {
    if se > 0.0 {
        t_cdf(mean / se, df)
    } else if mean > 0.0 {
        1.0
    } else if mean < 0.0 {
        0.0
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_tables() {
        // Independent values: Simpson's rule on the density (math.lgamma),
        // bisected; above 5,000 degrees of freedom (where lgamma's cancellation
        // spoils that) the first two terms of the expansion, exact there to 1e-15.
        for (df, want) in [
            (1, 12.706_204_736_172_5),
            (2, 4.302_652_729_749_2),
            (3, 3.182_446_305_283_7),
            (9, 2.262_157_162_798_2),
            (10, 2.228_138_851_986_3),
            (30, 2.042_272_456_301_3),
            (199, 1.971_956_544_251_8),
            (1000, 1.962_339_080_825_8),
            (1001, 1.962_336_705_282_2),
            (5000, 1.960_438_551_695_0),
            (100_000, 1.959_987_707_534_6),
            (1_000_000, 1.959_966_356_814_1),
        ] {
            let got = t95(df);
            assert!((got - want).abs() < 1e-9, "df {df}: {got} against {want}");
        }
        assert!(t95(0).is_nan());
        // 15% wider than the normal at 10 units, 0.6% at 200.
        assert!((t95(9) / Z95 - 1.154).abs() < 1e-3);
        assert!((t95(199) / Z95 - 1.0061).abs() < 1e-4);
    }

    #[test]
    fn the_distribution_function_inverts_the_quantile() {
        for df in [1, 2, 5, 17, 100, 999, 1000] {
            assert!((t_cdf(t95(df), df) - 0.975).abs() < 1e-12, "{df}");
            assert!((t_cdf(-t95(df), df) - 0.025).abs() < 1e-12, "{df}");
        }
        assert!((t_cdf(0.0, 7) - 0.5).abs() < 1e-15);
        // The normal above 100,000: Φ(1.96) = 0.9750021.
        assert!((t_cdf(1.96, 200_000) - 0.975_002_1).abs() < 2e-7);
        assert_eq!(los(1.0, 0.0, 5), 1.0);
        assert_eq!(los(0.0, 0.0, 5), 0.5);
        assert!((los(2.0, 1.0, 1000) - t_cdf(2.0, 1000)).abs() < 1e-15);
    }
}
