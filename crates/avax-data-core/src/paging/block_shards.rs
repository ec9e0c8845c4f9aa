//! The rules of a walk of a ranged list (an address's transactions or transfers by blocks, the
//! primary network's transactions or a metric's points by seconds: [`super::shard_axis`]) cut
//! into shards walked side by side: where a shard stands (its [`ShardKey`], which is also the
//! walk's resume token), what a shard asks ([`Range::ask`]), which of a page's items it keeps,
//! and when and how a shard splits ([`split`]). Pure: the walk that sends the requests is
//! [`crate::rest::block_source`]. The positions below are blocks or seconds alike.
//!
//! - The service's `startBlock` is inclusive and its `endBlock` exclusive (`spec/ground-truth.md`);
//!   a shard of blocks `low..=high` asks `startBlock=low&endBlock=high+1` and, at the edges the
//!   walk cut, keeps only the items of its blocks ([`ShardKey::keeps`]), so the shards are
//!   disjoint even if the service counted `endBlock` in. A shard of seconds asks one second
//!   past each edge the walk cut (the documents leave the window's ends open) and keeps its own.
//! - A shard starts as one request. When a page comes back with a next token and the items on it
//!   say many more pages lie below it, the rest of the shard is cut into pieces walked side by
//!   side: the page keeps its items above its last block `b`, and the pieces cover `low..=b`
//!   (the items of block `b` come again, whole, from the first piece: a block is never cut). A
//!   page of one block, or one that reaches `low`, goes on with its token. So a dense range is
//!   split further and an empty one costs one request.
//! - Items come out in the list's order (newest first): shards and pieces are walked from the
//!   highest blocks down, each item in exactly one shard.

pub use super::shard_axis::{block_of, Axis};
use crate::error::{Error, Result};

/// What a resume token of a sharded walk of the first version starts with: it names the shard
/// and page only ([`ShardKey::encode`]), so a resume plans the positions below it again.
pub const SHARD_TOKEN_PREFIX: &str = "avax-shard:1:";

/// What a resume token of a sharded walk starts with ([`Resume::encode`]): the shard and page,
/// and the shards queued after it, so a resume continues each where the walk left it.
pub const QUEUED_TOKEN_PREFIX: &str = "avax-shard:2:";

/// A piece is planned at least this many pages long (fewer would spend a partial page per piece).
pub const MIN_PIECE_PAGES: u64 = 4;

/// Pieces planned per call in flight when a shard splits (so the calls stay busy as pieces end).
pub const PIECES_PER_CALL: u64 = 4;

pub use crate::settings::MAX_CONCURRENCY;

/// The page time a default concurrency covers: as many calls in flight as the budget allows
/// pages in this many seconds, so a page taking up to this long still keeps the budget spent.
pub const COVERED_PAGE_SECONDS: f64 = 0.5;

/// Compute units of one page of a block-ranged list (the time-windowed lists of the primary
/// network weigh up to 100: [`default_concurrency`] takes the list's own).
pub const PAGE_UNITS: f64 = 20.0;

/// Where one shard of blocks stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardKey {
    /// The lowest block of the shard.
    pub low: u64,
    /// The highest block (`None`: open, the list's newest item).
    pub high: Option<u64>,
    /// Pages the shard was planned to hold (0: not planned, the walk's first shard): it splits
    /// again only when its pages say it is denser than that.
    pub planned: u64,
    /// The service's token of the page (`None`: the shard's first page).
    pub token: Option<String>,
}

impl ShardKey {
    /// The token text of this position ([`SHARD_TOKEN_PREFIX`], the bounds, the plan, the
    /// service's token).
    pub fn encode(&self) -> String {
        let high = self.high.map_or_else(|| "-".to_string(), |h| h.to_string());
        format!("{SHARD_TOKEN_PREFIX}{}:{high}:{}:{}", self.low, self.planned, self.token.as_deref().unwrap_or(""))
    }

    /// The key `text` encodes, when it is one ([`ShardKey::encode`]); `None` for any other text
    /// (a token of the service).
    pub fn decode(text: &str) -> Option<Result<ShardKey>> {
        let rest = text.strip_prefix(SHARD_TOKEN_PREFIX)?;
        let bad = || {
            Error::invalid_text(
                "page_token",
                text,
                "a resume token of a sharded walk as pager.resume_state gives it (avax-shard:1:LOW:HIGH:PLANNED:TOKEN)",
            )
        };
        let mut parts = rest.splitn(4, ':');
        let (Some(low), Some(high), Some(planned), Some(token)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Some(Err(bad()));
        };
        let parsed = bounds(low, high, planned)
            .map(|key| ShardKey { token: (!token.is_empty()).then(|| token.to_string()), ..key });
        Some(parsed.ok_or_else(bad))
    }

    /// Whether an item of block `block` belongs to this shard of the walk whose first shard is
    /// `root`: only the edges the walk cut filter (an item past one belongs to the shard beyond
    /// it); at the walk's own bounds the items are kept as the service sent them, as the
    /// sequential walk hands them out, and so is an item without a block number.
    pub fn keeps(&self, block: Option<u64>, root: &ShardKey) -> bool {
        let Some(b) = block else { return true };
        let above_low = self.low <= root.low || b >= self.low;
        let below_high = match (self.high, root.high) {
            (Some(high), Some(top)) if high < top => b <= high,
            (Some(high), None) => b <= high,
            _ => true,
        };
        above_low && below_high
    }

    /// The same shard at the page of `token`.
    pub fn at(&self, token: Option<String>) -> ShardKey {
        ShardKey { token, ..self.clone() }
    }
}

/// Where a sharded walk stands: the page of a shard, and the shards queued after it in the
/// walk's order (`None`: a token of the first version, which did not hold them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume {
    /// The shard and its page.
    pub key: ShardKey,
    /// The shards after it, highest first, each from its first page.
    pub queued: Option<Vec<ShardKey>>,
}

impl Resume {
    /// The token text ([`QUEUED_TOKEN_PREFIX`], the shard's bounds and plan, the queued shards as
    /// `LOW.HIGH.PLANNED` joined by `,`, the service's token).
    pub fn encode(key: &ShardKey, queued: &[ShardKey]) -> String {
        let high = |h: Option<u64>| h.map_or_else(|| "-".to_string(), |h| h.to_string());
        let queue: Vec<String> = queued.iter().map(|k| format!("{}.{}.{}", k.low, high(k.high), k.planned)).collect();
        format!(
            "{QUEUED_TOKEN_PREFIX}{}:{}:{}:{}:{}",
            key.low,
            high(key.high),
            key.planned,
            queue.join(","),
            key.token.as_deref().unwrap_or("")
        )
    }

    /// The position `text` encodes (either version), when it is a token of a sharded walk; `None`
    /// for any other text (a token of the service).
    pub fn decode(text: &str) -> Option<Result<Resume>> {
        if text.starts_with(SHARD_TOKEN_PREFIX) {
            return ShardKey::decode(text).map(|key| key.map(|key| Resume { key, queued: None }));
        }
        let rest = text.strip_prefix(QUEUED_TOKEN_PREFIX)?;
        let bad = || {
            Error::invalid_text(
                "page_token",
                text,
                "a resume token of a sharded walk as pager.resume_state gives it \
                 (avax-shard:2:LOW:HIGH:PLANNED:QUEUE:TOKEN)",
            )
        };
        let parsed = (|| {
            let mut parts = rest.splitn(5, ':');
            let (low, high, planned, queue, token) =
                (parts.next()?, parts.next()?, parts.next()?, parts.next()?, parts.next()?);
            let key = bounds(low, high, planned)?;
            let queued = match queue {
                "" => Vec::new(),
                queue => queue
                    .split(',')
                    .map(|one| {
                        let mut p = one.split('.');
                        let k = bounds(p.next()?, p.next()?, p.next()?)?;
                        p.next().is_none().then_some(k)
                    })
                    .collect::<Option<Vec<_>>>()?,
            };
            let key = ShardKey { token: (!token.is_empty()).then(|| token.to_string()), ..key };
            Some(Resume { key, queued: Some(queued) })
        })();
        Some(parsed.ok_or_else(bad))
    }
}

/// A shard from its texts: `low`, `high` (`-`: open) and `planned`; `None` when one is not a
/// number or `high < low`.
fn bounds(low: &str, high: &str, planned: &str) -> Option<ShardKey> {
    let low: u64 = low.parse().ok()?;
    let high = if high == "-" { None } else { Some(high.parse::<u64>().ok()?) };
    let planned: u64 = planned.parse().ok()?;
    if high.is_some_and(|h| h < low) {
        return None;
    }
    Some(ShardKey { low, high, planned, token: None })
}

/// A ranged walk's axis and bounds: its first shard and the request's own start and end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// What the walk cuts.
    pub axis: Axis,
    /// The walk's first shard (all of its range, from the request's bounds).
    pub root: ShardKey,
    /// The request's own start and end parameters, sent at the walk's own edges.
    pub asked: (Option<u64>, Option<u64>),
}

impl Range {
    /// The range of a request with `start` and `end` (its parameters, as numbers) on `axis`;
    /// `None` when it holds no position (`endBlock` at most `startBlock`, `endTimestamp` before
    /// `startTimestamp`), which the sequential walk answers. Without a start it reaches down to
    /// the axis's earliest position, without an end up to the newest item.
    pub fn new(axis: Axis, start: Option<u64>, end: Option<u64>) -> Option<Range> {
        let low = start.unwrap_or_else(|| axis.earliest());
        let high = match end {
            Some(e) if axis.end_counted() => Some(e),
            Some(e) => Some(e.checked_sub(1)?),
            None => None,
        };
        if high.is_some_and(|h| h < low) {
            return None;
        }
        // `startBlock` was always sent (0 without one); a window's start only when given.
        let start = if axis.end_counted() { start } else { Some(low) };
        Some(Range { axis, root: ShardKey { low, high, planned: 0, token: None }, asked: (start, end) })
    }

    /// The start and end parameters of `key`'s requests: the request's own at the walk's edges,
    /// else the shard's bounds (the end past its highest position), reaching [`Axis::reach`]
    /// past them.
    pub fn ask(&self, key: &ShardKey) -> (Option<u64>, Option<u64>) {
        let start = if key.low <= self.root.low { self.asked.0 } else { Some(key.low - self.axis.reach()) };
        let end = match key.high {
            None => None,
            Some(h) if Some(h) == self.root.high => self.asked.1,
            Some(h) => Some(h.saturating_add(1)),
        };
        (start, end)
    }
}

/// What becomes of a page of a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The shard ends with this page.
    End,
    /// The shard goes on with the page of this token.
    Token(String),
    /// The page keeps its first `keep` items (those above block `b`) and the shard's rest is
    /// walked as these pieces, highest first.
    Split {
        /// Items of the page kept.
        keep: usize,
        /// The pieces covering the shard's blocks from `b` down.
        pieces: Vec<ShardKey>,
    },
}

/// What follows a page of `key` holding `blocks` (the kept items' block numbers, in the page's
/// order, newest first) with the service's `next_token`, in pages of `page_size`, with
/// `concurrency` calls in flight.
pub fn split(
    key: &ShardKey,
    blocks: &[Option<u64>],
    next_token: Option<String>,
    page_size: u64,
    concurrency: usize,
) -> Next {
    let Some(token) = next_token else { return Next::End };
    let go_on = Next::Token(token);
    let (Some(Some(top)), Some(Some(last))) = (blocks.first(), blocks.last()) else { return go_on };
    let (top, last) = (*top, *last);
    if last <= key.low || top <= last {
        return go_on;
    }
    let keep = blocks.iter().take_while(|b| b.is_some_and(|b| b > last)).count();
    let density = keep as f64 / (top - last) as f64; // items a block, from the blocks the page holds whole
    let blocks_left = last - key.low + 1;
    let pages = (density * blocks_left as f64 / page_size.max(1) as f64).ceil() as u64;
    if pages < 2 * MIN_PIECE_PAGES || (key.planned > 0 && pages <= 2 * key.planned) {
        return go_on;
    }
    let count = (pages / MIN_PIECE_PAGES).min(concurrency.max(1) as u64 * PIECES_PER_CALL).min(blocks_left).max(2);
    let planned = pages.div_ceil(count);
    let pieces = (0..count)
        .map(|i| {
            // piece i covers the i-th slice from the top of low..=last
            let high = last - blocks_left * i / count;
            let low = last + 1 - blocks_left * (i + 1) / count;
            ShardKey { low, high: Some(high), planned, token: None }
        })
        .collect();
    Next::Split { keep, pieces }
}

/// The default `concurrency=` of a client spending `units_per_minute` compute units a minute
/// (its `compute_units_per_minute`, else its tier's budget) on pages of `page_units` each (the
/// list's weight, [`PAGE_UNITS`] for the block-ranged lists) with a `rate_limit` of requests a
/// second, if any: the calls a budget fills when each page takes up to [`COVERED_PAGE_SECONDS`]
/// (pro's 20,000 units a minute at 20 a page: 9; unauthenticated 6,000: 3), at least 2.
pub fn default_concurrency(units_per_minute: u64, page_units: f64, rate_limit: Option<f64>) -> usize {
    let pages_per_second =
        (units_per_minute as f64 / 60.0 / page_units.max(1.0)).min(rate_limit.unwrap_or(f64::INFINITY));
    ((pages_per_second * COVERED_PAGE_SECONDS).ceil() as usize).clamp(2, MAX_CONCURRENCY)
}

/// `concurrency=` checked: 1 (the sequential walk) to [`MAX_CONCURRENCY`].
pub fn check_concurrency(value: i64) -> Result<usize> {
    if (1..=MAX_CONCURRENCY as i64).contains(&value) {
        Ok(value as usize)
    } else {
        Err(Error::invalid("concurrency", value, format!("an int in [1, {MAX_CONCURRENCY}]")))
    }
}

#[cfg(test)]
#[path = "block_shards_tests.rs"]
mod tests;
