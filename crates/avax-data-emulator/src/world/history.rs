//! A chain's activity before the world's blocks: from its launch to its first block, every hour
//! of it a pure function of `(seed, chain, hour)`, so any window costs only its own hours and
//! nothing is stored.
//!
//! The hourly transaction count is the chain's rate at the world's now (its blocks per hour times
//! the blocks' mean of `max_txs_per_block / 2`, so the history meets the blocks at their level)
//! times:
//! - a **trend**: `0.08 + 0.92 x^1.5` over the fraction `x` of the time from launch to now, plus
//!   a boom a third of the way in (`0.6 exp(-((x - 0.35) / 0.08)^2)`);
//! - a **weekly rhythm**: Monday to Sunday `1.00, 1.04, 1.05, 1.03, 0.98, 0.82, 0.78`;
//! - a **daily rhythm**: `1 + 0.3 cos(2 pi (hour - 15) / 24)`, busiest at 15:00 UTC;
//! - **bursts**: about 4 days in 100 run at 1.8 to 4 times the level, with fee spikes;
//! - noise: 0.85 to 1.15 per hour.
//!
//! Gas is about 100,000 per transaction, the gas price the middle of the chain's base-fee range
//! plus the mean priority fee, 2 to 8 times that in a **fee spike** (1.5% of hours, and every
//! hour of a burst day). Distinct addresses are not additive: [`distinct`] gives the active
//! addresses of a bucket of any length, growing with the trend, below the bucket's transactions.

use super::{derive, purpose, unit, Chain, WORLD_NOW_MS};

const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;
/// Mean gas of a transaction in the history.
pub const GAS_PER_TX: f64 = 100_000.0;
/// Share of transactions that create a contract (as in the blocks: 3%).
pub const CONTRACT_SHARE: f64 = 0.03;
/// Share of active addresses that send.
pub const SENDER_SHARE: f64 = 0.6;

/// When `chain` began, Unix seconds (00:00 UTC of its launch day): its metric series start here.
pub fn launch_s(chain: &Chain) -> i64 {
    match chain.evm_chain_id {
        43114 => 1_600_819_200,  // 2020-09-23, Avalanche Mainnet
        43113 => 1_599_696_000,  // 2020-09-10, Fuji
        4337 => 1_689_033_600,   // 2023-07-11
        53935 => 1_648_425_600,  // 2022-03-28
        432204 => 1_670_284_800, // 2022-12-06
        173750 => 1_705_276_800, // 2024-01-15
        779672 => 1_717_372_800, // 2024-06-03
        _ => 1_635_724_800,      // 2021-11-01 (WAGMI)
    }
}

/// What one hour of history holds (sums over the hour, except the prices and distinct counts).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HourFacts {
    /// Transactions.
    pub txs: f64,
    /// Gas used.
    pub gas: f64,
    /// Fees paid, the chain's smallest unit.
    pub fees: f64,
    /// Mean gas price of the hour's transactions.
    pub price: f64,
    /// Highest gas price of the hour.
    pub price_max: f64,
    /// Contract creations.
    pub contracts: f64,
}

/// The trend at `t` (Unix seconds): the level relative to the world's now (1.0 there).
pub fn trend(chain: &Chain, t: i64) -> f64 {
    let (launch, now) = (launch_s(chain) as f64, (WORLD_NOW_MS / 1000) as f64);
    let x = ((t as f64 - launch) / (now - launch)).clamp(0.0, 1.0);
    0.08 + 0.92 * x.powf(1.5) + 0.6 * (-((x - 0.35) / 0.08).powi(2)).exp()
}

/// The weekly rhythm of the day holding `t`.
pub fn weekly(t: i64) -> f64 {
    // 1970-01-01 was a Thursday: (days + 3) % 7 is 0 on Mondays.
    const BY_WEEKDAY: [f64; 7] = [1.00, 1.04, 1.05, 1.03, 0.98, 0.82, 0.78];
    BY_WEEKDAY[((t.div_euclid(DAY) + 3).rem_euclid(7)) as usize]
}

/// The daily rhythm of the hour holding `t`.
pub fn daily(t: i64) -> f64 {
    let hour = t.rem_euclid(DAY) as f64 / HOUR as f64;
    1.0 + 0.3 * (2.0 * std::f64::consts::PI * (hour - 15.0) / 24.0).cos()
}

/// The burst factor of the day holding `t`: 1, or 1.8 to 4 on a burst day.
pub fn burst(seed: u64, chain: &Chain, t: i64) -> f64 {
    let day = t.div_euclid(DAY) as u64;
    let d = derive(seed, chain.evm_chain_id, day, purpose::BURST);
    if d % 100 < 4 {
        1.8 + 2.2 * unit(d.rotate_left(20))
    } else {
        1.0
    }
}

/// Transactions per hour at the world's now, before rhythm: the blocks' mean.
pub fn base_rate(chain: &Chain) -> f64 {
    3_600_000.0 / chain.block_gap_ms as f64 * chain.max_txs_per_block as f64 / 2.0
}

/// The chain's mean gas price at the world's now: the middle of its base fees plus the mean
/// priority fee of its transactions.
pub fn base_price(chain: &Chain) -> f64 {
    let priority = if chain.token_decimals < 18 { 1e6 } else { 1e9 };
    (chain.base_fee_min + chain.base_fee_max) as f64 / 2.0 + priority
}

/// The hour starting at `hour` (Unix seconds on the hour) of `chain`.
pub fn hour(seed: u64, chain: &Chain, hour: i64) -> HourFacts {
    let h = hour as u64;
    let noise = 0.85 + 0.3 * unit(derive(seed, chain.evm_chain_id, h, purpose::NOISE));
    let burst = burst(seed, chain, hour);
    let level = trend(chain, hour) * weekly(hour) * daily(hour) * burst * noise;
    let txs = (base_rate(chain) * level).round();
    let gas = (txs * GAS_PER_TX * (0.9 + 0.2 * unit(derive(seed, chain.evm_chain_id, h, purpose::GAS)))).round();
    let s = derive(seed, chain.evm_chain_id, h, purpose::SPIKE);
    let spike = if burst > 1.0 || s % 1000 < 15 { 2.0 + 6.0 * unit(s.rotate_left(32)) } else { 1.0 };
    let price = (base_price(chain) * spike).round();
    HourFacts {
        txs,
        gas,
        fees: gas * price,
        price,
        price_max: (price * (1.2 + 0.8 * unit(s.rotate_left(7)))).round(),
        contracts: (txs * CONTRACT_SHARE).round(),
    }
}

/// The distinct active addresses of `chain` over `seconds` starting at `start`, given the
/// bucket's `txs`: the chain's address pool times the trend (0.2 to 0.7 of it at the middle of
/// the bucket), times a reach that grows with the bucket's length (an hour 1, a day 1.3, a week
/// about 1.5, a month about 1.6), the weekly and, for an hour, the daily rhythm, and noise; a
/// bucket holds at least the addresses of its busiest part (an address active in an hour is
/// active in its day, and one active on a day in its week and month): a bucket longer than a day
/// at least its busiest day's, a bucket longer than an hour at least its busiest hour's; never
/// above `txs`.
pub fn distinct(seed: u64, chain: &Chain, start: i64, seconds: i64, txs: f64) -> f64 {
    nested_distinct(seed, chain, start, seconds).min(txs).max(0.0)
}

/// [`modelled_distinct`] of the bucket, raised to that of its busiest whole day (for a bucket
/// longer than a day) or hour (longer than an hour), each of those raised the same way.
fn nested_distinct(seed: u64, chain: &Chain, start: i64, seconds: i64) -> f64 {
    let own = modelled_distinct(seed, chain, start, seconds);
    let part = if seconds > DAY {
        DAY
    } else if seconds > HOUR {
        HOUR
    } else {
        return own;
    };
    (0..seconds / part).map(|k| nested_distinct(seed, chain, start + k * part, part)).fold(own, f64::max)
}

/// [`distinct`] of the model alone (no cap, no busiest day).
fn modelled_distinct(seed: u64, chain: &Chain, start: i64, seconds: i64) -> f64 {
    let mid = start + seconds / 2;
    let reach = 1.0 + 0.3 * (seconds as f64 / HOUR as f64).log(24.0).clamp(0.0, 3.0);
    let rhythm = if seconds <= HOUR { daily(start) * weekly(start) } else { weekly(mid) };
    let x = (trend(chain, mid) / 1.08).min(1.0);
    let noise = 0.9 + 0.2 * unit(derive(seed, chain.evm_chain_id, start as u64 ^ seconds as u64, purpose::DISTINCT));
    (chain.address_pool as f64 * (0.2 + 0.5 * x) * reach * rhythm * noise).round()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::chain;

    #[test]
    fn a_day_holds_at_least_the_addresses_of_its_busiest_hour() {
        let c = chain(43114).unwrap();
        let first_day = 1_764_547_200; // 2025-12-01
        for d in 0..30 {
            let day = first_day + d * DAY;
            let busiest_hour = (0..24).map(|h| distinct(0, c, day + h * HOUR, HOUR, f64::MAX)).fold(0.0, f64::max);
            let whole_day = distinct(0, c, day, DAY, f64::MAX);
            assert!(whole_day >= busiest_hour, "day {day}: {whole_day} < busiest hour {busiest_hour}");
        }
        let week = distinct(0, c, first_day, 7 * DAY, f64::MAX);
        let busiest_day = (0..7).map(|d| distinct(0, c, first_day + d * DAY, DAY, f64::MAX)).fold(0.0, f64::max);
        assert!(week >= busiest_day, "{week} < {busiest_day}");
    }

    #[test]
    fn the_rhythm_shows_in_the_hours_and_days() {
        let c = chain(43114).unwrap();
        let monday = 1_764_547_200; // 2025-12-01, a Monday
        assert_eq!(weekly(monday), 1.00);
        assert_eq!(weekly(monday + 6 * DAY), 0.78);
        // Busiest at 15:00, quietest at 03:00.
        assert!(daily(monday + 15 * HOUR) > 1.29 && daily(monday + 3 * HOUR) < 0.71);
        let hours: Vec<f64> = (0..24 * 7).map(|k| hour(0, c, monday + k * HOUR).txs).collect();
        let afternoons: f64 = (0..5).map(|d| hours[d * 24 + 15]).sum();
        let nights: f64 = (0..5).map(|d| hours[d * 24 + 3]).sum();
        assert!(afternoons > 1.5 * nights, "{afternoons} {nights}");
        // The trend grows from launch to now, and the history meets the blocks' level.
        assert!(trend(c, launch_s(c)) < 0.1 && (trend(c, WORLD_NOW_MS / 1000) - 1.0).abs() < 1e-9);
        let last_week: f64 = hours.iter().sum::<f64>() / hours.len() as f64;
        assert!((0.7..1.4).contains(&(last_week / base_rate(c))), "{last_week}");
    }

    #[test]
    fn bursts_and_fee_spikes_happen_and_hours_are_deterministic() {
        let c = chain(4337).unwrap();
        let days = (launch_s(c)..WORLD_NOW_MS / 1000).step_by(DAY as usize);
        let bursts = days.filter(|&d| burst(3, c, d) > 1.0).count();
        assert!((10..80).contains(&bursts), "{bursts}");
        let spikes = (0..24 * 365).filter(|k| hour(3, c, 1_735_689_600 + k * HOUR).price > 1.5 * base_price(c)).count();
        assert!(spikes > 50, "{spikes}");
        assert_eq!(hour(3, c, 1_735_689_600), hour(3, c, 1_735_689_600));
        assert_ne!(hour(3, c, 1_735_689_600), hour(4, c, 1_735_689_600));
    }

    #[test]
    fn distinct_addresses_vary_and_stay_below_the_transactions() {
        let c = chain(43114).unwrap();
        let values: Vec<f64> = (0..60).map(|d| distinct(0, c, 1_735_689_600 + d * DAY, DAY, 1e9)).collect::<Vec<_>>();
        let (lo, hi) = values.iter().fold((f64::MAX, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(hi > lo * 1.2, "{lo} {hi}");
        assert_eq!(distinct(0, c, 1_735_689_600, HOUR, 5.0), 5.0);
        assert!(distinct(0, c, 1_735_689_600, 30 * DAY, 1e9) > distinct(0, c, 1_735_689_600, DAY, 1e9));
    }

    #[test]
    fn a_week_holds_at_least_the_addresses_of_its_busiest_day() {
        for c in [chain(43114).unwrap(), chain(4337).unwrap(), chain(53935).unwrap()] {
            for w in 0..52 {
                let monday = 1_736_121_600 + w * 7 * DAY; // from 2025-01-06, a Monday
                let days: Vec<f64> = (0..7).map(|d| distinct(0, c, monday + d * DAY, DAY, 1e9)).collect();
                let week = distinct(0, c, monday, 7 * DAY, 1e9);
                let busiest = days.iter().copied().fold(0.0, f64::max);
                assert!(
                    busiest <= week && week <= days.iter().sum::<f64>(),
                    "{} week {w}: {days:?} {week}",
                    c.evm_chain_id
                );
            }
        }
    }
}
