//! The Zipf-like pick of an address pool ([`zipf`]): the log-uniform law
//! `P(i) = ln((i + 2) / (i + 1)) / ln(n + 1)` for `i` in `0..n`, drawn from a table per pool
//! size instead of a `powf` per draw.
//!
//! **The same draws as the formula.** The law's defining formula is
//! `i = floor((n + 1)^u - 1)` (clamped to `n - 1`) with `u` the draw's 53-bit uniform
//! ([`super::unit`]): [`zipf_formula`]. It is non-decreasing in the draw's 53 bits `m`, so pick
//! `i` is the number of thresholds `t[j]` (the smallest `m` whose formula reaches `j`,
//! `j = 1..n`) at or below `m`. A [`ZipfTable`] holds those thresholds, found once with the
//! formula itself (from the law's inverse `ln(j + 1) / ln(n + 1)`, then corrected to the exact
//! first `m`), and a guide of the pick at the start of each of 4,096 slices of `m`: a draw reads
//! its slice's pick and steps over the few thresholds left in the slice (on average `n / 4096`).
//! So a table gives exactly the formula's pick for every draw; the world's values did not change
//! when the table replaced the formula (a unit test compares both on every threshold and on a
//! million draws of each pool).
//!
//! Why the formula is non-decreasing: between two neighbouring `m` the exact value
//! `(n + 1)^u` grows by `ln(n + 1) / 2` ulps or more (2.5 for the smallest pool, 150 entries),
//! more than twice the error bound of the C library's `pow` (about 0.52 ulp in glibc).

use std::sync::OnceLock;

use super::{chains, unit};

/// Bits of the draw's 53 that choose its slice of the guide.
const GUIDE_BITS: u32 = 12;
/// The draw's uniform has 53 bits ([`super::unit`] drops the low 11 of 64).
const DRAW_BITS: u32 = 53;

/// The law's defining formula: `floor((n + 1)^unit(x) - 1)`, at most `n - 1` (0 for `n <= 1`).
pub(crate) fn zipf_formula(x: u64, n: u64) -> u64 {
    let i = ((n as f64 + 1.0).powf(unit(x)) - 1.0) as u64;
    i.min(n.saturating_sub(1))
}

/// The formula's pick for the draw whose 53 bits are `m`.
fn pick_of_bits(m: u64, n: u64) -> u64 {
    zipf_formula(m << (64 - DRAW_BITS), n)
}

/// The precomputed pick of a pool of `n` entries: exactly [`zipf_formula`] for every draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ZipfTable {
    n: u64,
    /// `thresholds[j]`: the smallest 53-bit draw whose pick is at least `j` (`j = 1..n`;
    /// entry 0 is 0, and `2^53` for a pick no draw reaches).
    thresholds: Vec<u64>,
    /// The pick at the first draw of each of the `2^GUIDE_BITS` slices.
    guide: Vec<u32>,
}

impl ZipfTable {
    /// The table of a pool of `n` entries (about `n` calls of the formula, a few of them each).
    pub(crate) fn new(n: u64) -> ZipfTable {
        let end = 1u64 << DRAW_BITS;
        let ln = (n as f64 + 1.0).ln();
        let mut thresholds = vec![0u64; n.max(1) as usize];
        for j in 1..n {
            // The law's inverse puts the threshold within a few units of `m`; the formula decides.
            let guess = ((j as f64 + 1.0).ln() / ln * end as f64) as u64;
            thresholds[j as usize] = first_reaching(guess.min(end - 1), j, n);
        }
        let guide = (0..1u64 << GUIDE_BITS)
            .map(|slice| {
                let m = slice << (DRAW_BITS - GUIDE_BITS);
                (thresholds.partition_point(|&t| t <= m) - 1) as u32
            })
            .collect();
        ZipfTable { n, thresholds, guide }
    }

    /// The pool size.
    pub(crate) fn n(&self) -> u64 {
        self.n
    }

    /// The pick of draw `x` in `0..n` (0 for `n <= 1`): [`zipf_formula`]`(x, n)`.
    pub(crate) fn pick(&self, x: u64) -> u64 {
        let m = x >> (64 - DRAW_BITS);
        let mut i = self.guide[(m >> (DRAW_BITS - GUIDE_BITS)) as usize] as usize;
        while i + 1 < self.thresholds.len() && self.thresholds[i + 1] <= m {
            i += 1;
        }
        i as u64
    }
}

/// The smallest 53-bit draw at or below the end whose pick reaches `j`, searched from `guess`
/// (`2^53` if none does): galloping away from the guess, then halving.
fn first_reaching(guess: u64, j: u64, n: u64) -> u64 {
    let end = 1u64 << DRAW_BITS;
    let reaches = |m: u64| pick_of_bits(m, n) >= j;
    // `lo` never reaches, `hi` reaches (or is the end).
    let (mut lo, mut hi) = if reaches(guess) {
        let mut step = 1;
        loop {
            match guess.checked_sub(step) {
                Some(m) if reaches(m) => step *= 2,
                Some(m) => break (m, guess - step / 2),
                None if reaches(0) => return 0,
                None => break (0, guess - step / 2),
            }
        }
    } else {
        let mut step = 1;
        loop {
            let m = guess + step;
            if m >= end {
                if !reaches(end - 1) {
                    return end;
                }
                break (guess + step / 2, end - 1);
            }
            if reaches(m) {
                break (guess + step / 2, m);
            }
            step *= 2;
        }
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if reaches(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The tables of the world's pool sizes (one per distinct [`super::Chain::address_pool`]),
/// built on first use.
fn tables() -> &'static [ZipfTable] {
    static TABLES: OnceLock<Vec<ZipfTable>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut sizes: Vec<u64> = chains().iter().map(|c| c.address_pool).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes.into_iter().map(ZipfTable::new).collect()
    })
}

/// Zipf-like pick in `0..n` (log-uniform: `P(i) = ln((i + 2) / (i + 1)) / ln(n + 1)`, the
/// exponent-1 power law): a few indices very often, most rarely. Exactly [`zipf_formula`]; a
/// pool size of the world's chains reads its table, any other size the formula.
pub(crate) fn zipf(x: u64, n: u64) -> u64 {
    match tables().iter().find(|t| t.n() == n) {
        Some(table) => table.pick(x),
        None => zipf_formula(x, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::splitmix64;

    fn pool_sizes() -> Vec<u64> {
        tables().iter().map(ZipfTable::n).collect()
    }

    #[test]
    fn every_pool_size_of_the_world_has_its_table() {
        let mut sizes: Vec<u64> = chains().iter().map(|c| c.address_pool).collect();
        sizes.sort_unstable();
        sizes.dedup();
        assert_eq!(pool_sizes(), sizes);
        assert_eq!(pool_sizes(), [150, 200, 300, 500, 1_000]);
    }

    #[test]
    fn the_table_picks_what_the_formula_picks_at_every_threshold() {
        for n in [1, 2, 3, 7, 150, 200, 300, 500, 1_000, 4_097, 20_000] {
            let table = ZipfTable::new(n);
            for j in 1..n {
                let t = table.thresholds[j as usize];
                assert!(t < 1 << DRAW_BITS, "n {n}: pick {j} reached by some draw");
                assert_eq!(pick_of_bits(t, n), j, "n {n}: the threshold of {j} picks {j}");
                assert_eq!(pick_of_bits(t - 1, n), j - 1, "n {n}: the draw before the threshold of {j}");
                for m in [t - 1, t, t + 1] {
                    let x = (m << 11) | 0x5a5;
                    assert_eq!(table.pick(x), zipf_formula(x, n), "n {n}, m {m}");
                }
            }
            for x in [0, 1, u64::MAX, u64::MAX - (1 << 11), 1 << 63] {
                assert_eq!(table.pick(x), zipf_formula(x, n), "n {n}, x {x:#x}");
            }
        }
    }

    #[test]
    fn the_table_picks_what_the_formula_picks_on_a_million_draws() {
        for n in pool_sizes() {
            let mut state = n;
            for _ in 0..1_000_000 {
                state = splitmix64(state);
                assert_eq!(zipf(state, n), zipf_formula(state, n), "n {n}, x {state:#x}");
            }
        }
    }

    #[test]
    fn table_draws_follow_the_law() {
        // The share of picks 0, 1, 9 and 99 and of the upper half of the pool, against
        // P(i) = ln((i + 2) / (i + 1)) / ln(n + 1), over 400,000 draws of the world's largest pool.
        let n = 1_000u64;
        let draws = 400_000;
        let mut counts = vec![0u32; n as usize];
        let mut state = 7u64;
        for _ in 0..draws {
            state = splitmix64(state);
            counts[zipf(state, n) as usize] += 1;
        }
        let ln = (n as f64 + 1.0).ln();
        let law = |i: f64| ((i + 2.0) / (i + 1.0)).ln() / ln;
        for i in [0usize, 1, 9, 99] {
            let share = f64::from(counts[i]) / f64::from(draws);
            let expected = law(i as f64);
            // Five standard deviations of a binomial share.
            let tolerance = 5.0 * (expected * (1.0 - expected) / f64::from(draws)).sqrt();
            assert!((share - expected).abs() < tolerance, "pick {i}: {share} against {expected}");
        }
        assert!((f64::from(counts[0]) / f64::from(draws) - 0.1003).abs() < 0.003, "rank 1 takes a tenth");
        let upper: u32 = counts[500..].iter().sum();
        let expected = (1.0 - 501f64.ln() / ln) * f64::from(draws);
        assert!((f64::from(upper) - expected).abs() < 5.0 * expected.sqrt(), "upper half {upper} against {expected}");
        assert!(counts.iter().all(|&c| c > 0), "every entry is drawn");
    }

    #[test]
    fn a_pool_size_without_a_table_reads_the_formula() {
        for n in [0, 1, 2, 999, 1_001] {
            for x in [0, 12_345_678_901_234, u64::MAX] {
                assert_eq!(zipf(x, n), zipf_formula(x, n));
            }
        }
        assert_eq!(zipf(u64::MAX, 0), 0);
        assert_eq!(zipf(u64::MAX, 1_000), 999);
    }
}
