//! The P- and X-chain index timelines on the world's one clock: every chain's last container of
//! its span is accepted just before [`WORLD_NOW_MS`], containers past the span (added by
//! `advance()` or the tip rate) after it, a block every 2 s.
//!
//! - `P/block` ([`PTimeline`]): anchored at Mainnet genesis (height 0, 2020-09-21), the
//!   proposervm fork (height 100, 2021-09-22 21:00 UTC), Banff (`banff_height`, 2022-10-18
//!   16:00 UTC), each stake slot (the block carrying event `j` of the stakes, a start or an end
//!   ([`super::p_rewards`]), accepted in the second of the event) and now (height `span`); the
//!   heights between two anchors share the time between them evenly, each with a jitter inside
//!   its own gap. The events of the served chain sit in its last
//!   [`STAKE_SPACING`]` * events + `[`TAIL`] heights, in time order ([`served_config`]).
//! - `X/block` ([`linear_ns`]): evenly from Cortina (2023-04-25 15:00 UTC, the first linear X
//!   block) to now. `X/tx`: evenly from Mainnet genesis to Cortina, where a node's `X/tx` index
//!   stops (only the DAG engine fed it; `tests/data/decode/FORMATS.md`), so its span's last
//!   container is accepted just before Cortina; containers past the span come after now.

use super::p_rewards::lifecycle;
use super::pchain::{stake_height, PChainConfig};
use crate::world::{derive, Network, WORLD_NOW_MS};

/// Shortest timeline of the P- and X-chain indexes, heights: an index started shorter holds the
/// first containers of this span (a node behind), one started longer ends just before now too.
pub const MIN_SPAN: u64 = crate::defaults::CONTAINERS;
/// First height in a proposervm envelope (`P/block`).
pub const P_FORK_HEIGHT: u64 = 100;
/// Heights between two stake slots of the served `P/block` chain.
pub const STAKE_SPACING: u64 = 8;
/// Heights after the last stake slot of the served `P/block` chain.
pub const TAIL: u64 = 64;
/// Height of the first Banff block of the served `P/block` chain.
pub const BANFF_HEIGHT: u64 = 250;

const SEC: i64 = 1_000_000_000;
/// 2020-09-21T00:00:00Z, Unix seconds.
pub const GENESIS_S: i64 = 1_600_646_400;
/// 2021-09-22T21:00:00Z: the P-chain's proposervm fork.
pub const FORK_S: i64 = 1_632_344_400;
/// 2022-10-18T16:00:00Z: Banff.
pub const BANFF_S: i64 = 1_666_108_800;
/// 2023-04-25T15:00:00Z: Cortina, the first linear X-chain block.
pub const CORTINA_S: i64 = 1_682_434_800;
/// Seconds between two containers accepted after now.
const AFTER_NOW_STEP_S: i64 = 2;
const JITTER: u64 = 0x6a69_7474;

fn now_ns() -> i64 {
    WORLD_NOW_MS * 1_000_000
}

/// The config of the served P-chain of `network` whose timeline spans `span` heights (at least
/// [`MIN_SPAN`]): Banff from [`BANFF_HEIGHT`], the `events` stake slots [`STAKE_SPACING`] apart,
/// the last one [`STAKE_SPACING`] + [`TAIL`] heights before the span's end.
pub fn served_config(network: Network, span: u64, events: usize) -> PChainConfig {
    let span = span.max(MIN_SPAN);
    let needed = STAKE_SPACING * events as u64 + TAIL;
    let first_stake_height = span.saturating_sub(needed).max(BANFF_HEIGHT + STAKE_SPACING);
    PChainConfig { network, banff_height: BANFF_HEIGHT, first_stake_height, stake_spacing: STAKE_SPACING }
}

/// Acceptance times of one P-chain's blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PTimeline {
    seed: u64,
    span: u64,
    /// `(height, acceptance ns)`, heights and times strictly increasing, the last at `span`/now.
    anchors: Vec<(u64, i64)>,
}

impl PTimeline {
    /// The timeline of the chain of `cfg` in the world of `seed`, `span` heights ending at now;
    /// the block of stake event `j` (in time order) is accepted in the event's second.
    pub fn new(seed: u64, cfg: &PChainConfig, span: u64) -> PTimeline {
        let span = span.max(MIN_SPAN);
        let mut anchors = vec![(0, GENESIS_S * SEC)];
        let mut push = |h: u64, ns: i64| {
            let &(last_h, last_ns) = anchors.last().expect("genesis");
            // An anchor keeps at least 1 ns per height over the one before it.
            if h > last_h && h < span && ns - last_ns >= (h - last_h) as i64 && ns < now_ns() {
                anchors.push((h, ns));
            }
        };
        push(P_FORK_HEIGHT, FORK_S * SEC);
        push(cfg.banff_height.max(P_FORK_HEIGHT + 1), BANFF_S * SEC);
        let mut previous = None;
        let mut tie = 0;
        for (j, &(at, _)) in lifecycle(seed, cfg.network).events.iter().enumerate() {
            tie = if previous == Some(at) { tie + 1 } else { 0 };
            previous = Some(at);
            let ns = at as i64 * SEC + SEC / 10 + (tie.min(80) as i64) * (SEC / 100);
            push(stake_height(cfg, j), ns);
        }
        anchors.push((span, now_ns()));
        PTimeline { seed, span, anchors }
    }

    /// Heights of the timeline (the last one is accepted just before now).
    pub fn span(&self) -> u64 {
        self.span
    }

    /// Acceptance time of height `h`, Unix ns (strictly increasing in `h`).
    pub fn accepted_ns(&self, h: u64) -> i64 {
        if h >= self.span {
            return after_now_ns(h - self.span);
        }
        let i = self.anchors.partition_point(|&(ah, _)| ah <= h) - 1;
        let (h0, t0) = self.anchors[i];
        let (h1, t1) = self.anchors[i + 1];
        between(self.seed, 0x50, (h0, t0), (h1, t1), h)
    }

    /// Block time of height `h`, Unix seconds: the second it was accepted in.
    pub fn time_s(&self, h: u64) -> i64 {
        self.accepted_ns(h).div_euclid(SEC)
    }
}

/// Acceptance time of container `k` past a span (after now).
fn after_now_ns(k: u64) -> i64 {
    let k = i64::try_from(k).unwrap_or(i64::MAX / SEC);
    now_ns().saturating_add(k.saturating_add(1).saturating_mul(AFTER_NOW_STEP_S * SEC))
}

/// Height `h` between anchors `(h0, t0)` and `(h1, t1)` (`h0 <= h < h1`): the anchor itself at
/// `h0`, else its share of the time plus a jitter inside its own gap.
fn between(seed: u64, tag: u64, (h0, t0): (u64, i64), (h1, t1): (u64, i64), h: u64) -> i64 {
    let at = |x: u64| t0 + ((t1 - t0) as i128 * (x - h0) as i128 / (h1 - h0) as i128) as i64;
    let base = at(h);
    if h == h0 {
        return base;
    }
    let gap = (at(h + 1) - base) as u64;
    base + (derive(seed, tag, h, JITTER) % (gap / 2).max(1)) as i64
}

/// The first of heights `0..span` whose time (`time_s`, never decreasing) is at or after
/// `at_s`; `span` if none.
pub fn first_at_or_after(span: u64, at_s: i64, time_s: impl Fn(u64) -> i64) -> u64 {
    let (mut lo, mut hi) = (0, span);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if time_s(mid) < at_s {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Acceptance time of container `h` of a chain whose `span` containers share the time from
/// `first_s` to `end_s` (at most now) evenly (container 0 at `first_s`, container `span - 1`
/// before `end_s`), Unix ns; strictly increasing; past the span, after now. `tag` tells the
/// chains' jitters apart.
pub fn linear_ns(seed: u64, tag: u64, (first_s, end_s): (i64, i64), span: u64, h: u64) -> i64 {
    let span = span.max(MIN_SPAN);
    if h >= span {
        return after_now_ns(h - span);
    }
    between(seed, tag, (0, first_s * SEC), (span, (end_s * SEC).min(now_ns())), h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pchain::stake_slot;

    #[test]
    fn p_timeline_ends_at_now_through_the_eras_and_the_stakes() {
        for network in Network::ALL {
            for span in [MIN_SPAN, 25_000] {
                let all = lifecycle(3, network).events.clone();
                let cfg = served_config(network, span, all.len());
                let t = PTimeline::new(3, &cfg, span);
                let mut previous = i64::MIN;
                for h in 0..span + 3 {
                    let ns = t.accepted_ns(h);
                    assert!(ns > previous, "{network:?} height {h}");
                    previous = ns;
                    if let Some(j) = stake_slot(&cfg, h).filter(|&j| j < all.len()) {
                        assert_eq!(t.time_s(h), all[j].0 as i64, "stake event {j} at height {h}");
                    }
                }
                assert!(t.accepted_ns(span - 1) < now_ns() && t.accepted_ns(span) > now_ns());
                assert_eq!(t.time_s(0), GENESIS_S);
                assert_eq!(t.time_s(100), FORK_S);
                assert_eq!(t.time_s(BANFF_HEIGHT), BANFF_S);
                assert_eq!(stake_height(&cfg, all.len() - 1) + STAKE_SPACING + TAIL, span);
                assert_eq!(t, PTimeline::new(3, &cfg, span));
            }
        }
    }

    #[test]
    fn linear_chains_end_just_before_now() {
        for span in [1, MIN_SPAN, 40_000] {
            let n = span.max(MIN_SPAN);
            let now_s = WORLD_NOW_MS / 1000;
            let ts: Vec<i64> = (0..n + 2).map(|h| linear_ns(9, 0x58, (CORTINA_S, now_s), span, h)).collect();
            assert!(ts.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(ts[0], CORTINA_S * SEC);
            assert!(ts[n as usize - 1] < now_ns() && ts[n as usize] > now_ns());
            assert!(now_ns() - ts[n as usize - 1] < (now_ns() - CORTINA_S * SEC) / n as i64 + 1);
            let to_cortina: Vec<i64> = (0..n + 1).map(|h| linear_ns(9, 1, (GENESIS_S, CORTINA_S), span, h)).collect();
            assert!(to_cortina.windows(2).all(|w| w[0] < w[1]));
            assert!(to_cortina[n as usize - 1] < CORTINA_S * SEC && to_cortina[n as usize] > now_ns());
        }
    }
}
