//! Fetching one planned chunk of a range walk completely, whatever the node behind a balancer
//! answers: a short answer is re-requested from where it stopped, a "past the tip" answer for an
//! index known to exist (a lagging node) is retried with backoff and then raised, and the end of
//! the index is only taken as proven when the node's own tip says so. An answer larger than
//! `max_response_bytes` is asked for again in halves (down to one container per call).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::client::ChainClient;
use super::piece::RangePiece;
use crate::error::{Error, Result, RpcErrorKind};

/// How long a walk waits for a lagging node to catch up before raising its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagPolicy {
    /// Retries of one call answered "past the tip" below a tip already seen.
    pub retries: u32,
    /// First wait; it doubles up to `max_wait`.
    pub first_wait: Duration,
    /// Longest wait.
    pub max_wait: Duration,
}

impl Default for LagPolicy {
    fn default() -> Self {
        LagPolicy { retries: 5, first_wait: Duration::from_millis(100), max_wait: Duration::from_secs(2) }
    }
}

/// How many containers are known to exist (one past the highest index seen in a tip read or an
/// answer), shared by the chunks of one walk.
#[derive(Debug, Clone, Default)]
pub struct KnownLength(Arc<AtomicU64>);

impl KnownLength {
    /// Records that the container at `index` exists.
    pub fn saw(&self, index: u64) {
        self.0.fetch_max(index.saturating_add(1), Ordering::SeqCst);
    }

    /// Whether the container at `index` is known to exist.
    pub fn contains(&self, index: u64) -> bool {
        index < self.0.load(Ordering::SeqCst)
    }
}

/// The containers of one planned chunk, and whether the index ended inside it.
#[derive(Debug)]
pub struct Chunk<P> {
    /// The containers, contiguous from the chunk's start.
    pub containers: P,
    /// The node proved the index ends before the chunk's end (its tip is below the next index).
    pub at_tip: bool,
    /// The index after the chunk's last container (the chunk's start when it holds none): at
    /// the tip, one past it.
    pub end: u64,
}

fn is_past_tip(err: &Error) -> bool {
    matches!(err, Error::Rpc { kind: RpcErrorKind::PastTip | RpcErrorKind::EmptyIndex, .. })
}

/// Fetches `[start, start + count)` completely, or up to the proven end of the index.
pub async fn fetch_chunk<P: RangePiece>(
    chain: ChainClient,
    start: u64,
    count: u64,
    known: KnownLength,
    lag: LagPolicy,
) -> Result<Chunk<P>> {
    let end = start.checked_add(count).ok_or_else(|| Error::invalid("count", count, "start + count <= 2**64 - 1"))?;
    let mut containers = P::default();
    let mut cur = start;
    let mut attempt = 0u32;
    // Containers asked for per call: halved (down to 1) while answers pass max_response_bytes.
    let mut batch = count;
    while cur < end {
        let asked = (end - cur).min(batch);
        let answer = chain.container_range_as::<P>(cur, asked).await;
        let lagging = match answer {
            Ok(batch) if !batch.is_empty() => {
                let last = batch.last_index().unwrap_or(cur);
                known.saw(last);
                if (batch.len() as u64) < asked && last + 1 < end {
                    log::info!(
                        "{}: getContainerRange from {cur} answered {} of {asked} containers; asking again from {}",
                        chain.path(),
                        batch.len(),
                        last + 1
                    );
                }
                cur = last.checked_add(1).ok_or_else(|| top_of_u64(&chain))?;
                containers.append(batch);
                attempt = 0;
                continue;
            }
            // An empty answer without an error: only the node's tip can say whether that is the end.
            Ok(_) => match chain.tip().await? {
                Some(tip) if tip >= cur => {
                    known.saw(tip);
                    Error::Integrity {
                        message: format!(
                            "getContainerRange from {cur} answered no containers although the tip is {tip}"
                        ),
                        url: String::new(),
                    }
                }
                _ => return Ok(Chunk { containers, at_tip: true, end: cur }),
            },
            Err(e) if is_past_tip(&e) => {
                if !known.contains(cur) {
                    // Not proof of the end yet: a lagging node behind a balancer answers so
                    // too. Only the node's own tip decides.
                    match chain.tip().await? {
                        Some(tip) if tip >= cur => known.saw(tip),
                        _ => return Ok(Chunk { containers, at_tip: true, end: cur }),
                    }
                }
                e
            }
            Err(Error::BodyTooLarge { limit, .. }) if batch.min(end - cur) > 1 => {
                batch = batch.min(end - cur) / 2;
                log::info!(
                    "{}: an answer from {cur} passed max_response_bytes ({limit}); asking for {batch} per call",
                    chain.path()
                );
                continue;
            }
            Err(e) => return Err(e),
        };
        // `cur` is known to exist but this node says otherwise: it lags behind another one.
        if attempt >= lag.retries {
            return Err(lagging);
        }
        let wait = lag.first_wait.saturating_mul(1u32 << attempt.min(16)).min(lag.max_wait);
        attempt += 1;
        log::info!(
            "{}: the node says {cur} is past its tip although it exists (a lagging node): retry {attempt} of {} in {:.2} s",
            chain.path(),
            lag.retries,
            wait.as_secs_f64()
        );
        tokio::time::sleep(wait).await;
    }
    Ok(Chunk { containers, at_tip: false, end: cur })
}

fn top_of_u64(chain: &ChainClient) -> Error {
    Error::Decode {
        message: format!("{} holds a container at index 2**64 - 1: a walk cannot resume past it", chain.path()),
        url: String::new(),
        body: String::new(),
    }
}
