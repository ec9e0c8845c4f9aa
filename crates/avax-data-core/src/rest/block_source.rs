//! A ranged list of the Data or Metrics API walked in shards side by side, by the rules of
//! [`crate::paging::block_shards`]: shards of blocks (an address's transactions and transfers, a
//! token's transfers: [`BLOCK_RANGED`]) or of seconds (the primary network's transactions and
//! blocks, an asset's transactions, ICM and staking metrics: [`TIME_WINDOWED`]). Up to
//! `concurrency` shards in flight, each a task walking its pages in sequence on the client's
//! transport (so every shard shares its rate limiter and compute-unit budget), their items
//! handed out in the list's order, newest first.
//!
//! The walk's position is the page it stands on and the shards queued after it ([`Resume`],
//! encoded as its page token), so a checkpoint or `resume_state` holds it like a service's token;
//! a resume continues that shard from that page and every queued shard from its first page, as
//! the walk would have: it plans nothing again and asks for no page whose items were handed out,
//! but the pages of later shards that were fetched ahead and not handed out are fetched again.
//! (A token of the first version, `avax-shard:1:`, names the shard only: the positions below it
//! are planned again.)

use std::collections::VecDeque;
use std::sync::Arc;

use futures::stream::{self, BoxStream};
use futures::StreamExt;

use super::{Paged, RestClient};
use crate::arrow::Resource;
use crate::error::{Error, Result};
use crate::paging::block_shards::{
    check_concurrency, default_concurrency, split, Axis, Next, Range, Resume, ShardKey, PIECES_PER_CALL,
};
pub use crate::paging::shard_axis::{BLOCK_RANGED, TIME_WINDOWED, UNCUT_WINDOWS};
use crate::paging::{Fetched, JsonItem, PageKey, PageSource, Spawned};
use crate::rest::pager::{ResourcePager, TokenSource};
use crate::rest::ranged_list::RangedList;

/// A ranged list walked in shards.
pub struct BlockShardSource {
    client: RestClient,
    /// The request less its start and end.
    paged: Arc<Paged>,
    /// The walk's axis, first shard (its positions from the request's bounds) and bounds.
    range: Arc<Range>,
    page_size: u64,
    concurrency: usize,
    /// The token a resumed walk starts from (`None`: at the root).
    resumed: Option<String>,
    /// The list, for a dataset of it ([`PageSource::ranged`]).
    list: Arc<RangedList>,
}

impl BlockShardSource {
    /// The walk of `list` from `resumed` with `concurrency` shards in flight; `None` when its
    /// range holds no position ([`Range::new`]), which the sequential walk answers.
    fn new(list: Arc<RangedList>, concurrency: usize, resumed: Option<String>) -> Option<Self> {
        let range = list.range()?.clone();
        Some(BlockShardSource {
            client: list.client().clone(),
            paged: Arc::new(list.paged().clone()),
            range: Arc::new(range),
            page_size: list.page_size(),
            concurrency,
            resumed,
            list,
        })
    }

    /// `key` when its blocks lie in the walk's range (a resume token of this walk), else an error
    /// naming it.
    fn within(&self, key: ShardKey) -> Result<ShardKey> {
        let inside = key.low >= self.range.root.low
            && match (self.range.root.high, key.high) {
                (None, _) => true,
                (Some(top), Some(high)) => high <= top,
                (Some(_), None) => false,
            };
        if inside {
            return Ok(key);
        }
        Err(Error::invalid_text(
            "page_token",
            &key.encode(),
            format!(
                "a resume token of a walk of {} {} and on (this walk's range): resume a walk of the same list",
                self.range.axis.noun(),
                self.range.root.low
            ),
        ))
    }

    /// The page key of a position, `key` with the shards `queued` after it: the root's first
    /// page is the walk's first ([`PageKey::Token`] of `None`), any other its [`Resume`] token.
    fn page_key(root: &ShardKey, key: &ShardKey, queued: &[ShardKey]) -> PageKey {
        PageKey::Token((key != root || !queued.is_empty()).then(|| Resume::encode(key, queued)))
    }
}

/// One shard walked: its pages (items, where the page stands, where the next page of the shard
/// stands) and the pieces its rest was cut into, if it split.
struct Walked {
    pages: Vec<(Vec<JsonItem>, ShardKey, Option<ShardKey>)>,
    pieces: Vec<ShardKey>,
}

/// Walks the shard `key` page by page until it ends or splits.
async fn walk_shard(
    client: RestClient,
    paged: Arc<Paged>,
    (range, key): (Arc<Range>, ShardKey),
    page_size: u64,
    concurrency: usize,
) -> Result<Walked> {
    let (axis, root) = (range.axis, &range.root);
    let mut at = key;
    let mut pages = Vec::new();
    loop {
        let mut request = (*paged).clone();
        let (start, end) = range.ask(&at);
        for (name, value) in axis.params().into_iter().zip([start, end]) {
            if let Some(value) = value {
                request.query.push((name, value.to_string()));
            }
        }
        let page = client.page(&request, at.token.as_deref()).await?;
        let mut items: Vec<JsonItem> =
            page.items.into_iter().filter(|item| at.keeps(axis.position(item), root)).collect();
        let blocks: Vec<Option<u64>> = items.iter().map(|item| axis.position(item)).collect();
        match split(&at, &blocks, page.next_page_token, page_size, concurrency) {
            Next::End => {
                pages.push((items, at, None));
                return Ok(Walked { pages, pieces: Vec::new() });
            }
            Next::Token(token) => {
                let next = at.at(Some(token));
                pages.push((items, at, Some(next.clone())));
                at = next;
            }
            Next::Split { keep, pieces } => {
                items.truncate(keep);
                pages.push((items, at, None));
                return Ok(Walked { pages, pieces });
            }
        }
    }
}

/// A shard waiting for its turn, or walking.
struct Slot {
    key: ShardKey,
    task: Option<Spawned<Result<Walked>>>,
}

/// The walk's state between two pages handed out.
struct Walk {
    queue: VecDeque<Slot>,
    ready: VecDeque<Fetched>,
    failed: bool,
}

/// How often a walk waiting for its head shard starts the next shards when others ended.
const RESTART_EVERY: std::time::Duration = std::time::Duration::from_millis(10);

/// Starts the shards of `queue` in order while fewer than `concurrency` are fetching (`head`: one
/// more, walking, is not in the queue), at most `concurrency` x [`PIECES_PER_CALL`] ahead (a shard
/// that ended early keeps its pages until its turn); the first shard of the queue always starts
/// when no head walks.
fn start_shards(
    queue: &mut VecDeque<Slot>,
    head: bool,
    concurrency: usize,
    mut spawn: impl FnMut(&ShardKey) -> Spawned<Result<Walked>>,
) {
    let fetching = |slot: &Slot| slot.task.as_ref().is_some_and(|task| !task.is_finished());
    let mut running = queue.iter().filter(|slot| fetching(slot)).count() + usize::from(head);
    let ahead = concurrency * PIECES_PER_CALL as usize;
    for (n, slot) in queue.iter_mut().enumerate().take(ahead) {
        if slot.task.is_some() {
            continue;
        }
        if (head || n > 0) && running >= concurrency {
            break;
        }
        slot.task = Some(spawn(&slot.key));
        running += 1;
    }
}

impl PageSource for BlockShardSource {
    fn first(&self) -> PageKey {
        PageKey::Token(self.resumed.clone())
    }

    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<Fetched>> {
        let start = match from {
            PageKey::Token(None) => Ok(Resume { key: self.range.root.clone(), queued: Some(Vec::new()) }),
            PageKey::Token(Some(text)) => Resume::decode(&text).unwrap_or_else(|| {
                Err(Error::invalid_text("page_token", &text, "a page token of a sharded walk (avax-shard:2:...); a service's token resumes a walk made with concurrency=1"))
            }),
            PageKey::Shard(n) => Err(Error::Internal(format!("a walk of block shards was asked to start at shard {n}"))),
        };
        let checked = start.and_then(|at| {
            let queued = at.queued.map(|q| q.into_iter().map(|k| self.within(k)).collect::<Result<Vec<_>>>());
            Ok((self.within(at.key)?, queued.transpose()?))
        });
        let (start, queued) = match checked {
            Ok(at) => at,
            Err(err) => return stream::once(async move { Err(err) }).boxed(),
        };
        let mut queue = VecDeque::from([Slot { key: start.clone(), task: None }]);
        match queued {
            // The shards queued after it, each from its first page, as the walk had them.
            Some(queued) => queue.extend(queued.into_iter().map(|key| Slot { key, task: None })),
            // A token of the first version: the blocks below the shard it resumes are planned again.
            None if start.low > self.range.root.low => {
                let rest = ShardKey { low: self.range.root.low, high: Some(start.low - 1), planned: 0, token: None };
                queue.push_back(Slot { key: rest, task: None });
            }
            None => {}
        }
        let (client, paged, root, range) =
            (self.client.clone(), self.paged.clone(), self.range.root.clone(), self.range.clone());
        let (page_size, concurrency) = (self.page_size, self.concurrency);
        let walk = Walk { queue, ready: VecDeque::new(), failed: false };
        let pages = stream::unfold(walk, move |mut walk| {
            let (client, paged, root, range) = (client.clone(), paged.clone(), root.clone(), range.clone());
            async move {
                loop {
                    if let Some(page) = walk.ready.pop_front() {
                        return Some((Ok(page), walk));
                    }
                    if walk.failed {
                        return None;
                    }
                    let start = |queue: &mut VecDeque<Slot>, head: bool| {
                        let keys = |key: &ShardKey| (range.clone(), key.clone());
                        start_shards(queue, head, concurrency, |key| {
                            Spawned::new(walk_shard(client.clone(), paged.clone(), keys(key), page_size, concurrency))
                        })
                    };
                    start(&mut walk.queue, false);
                    let mut head = walk.queue.pop_front()?;
                    let Some(mut task) = head.task.take() else {
                        walk.failed = true;
                        return Some((Err(Error::Internal("a shard was awaited before it was started".into())), walk));
                    };
                    // While the head walks, the shards after it that end free their calls for
                    // the next ones (looked at every RESTART_EVERY).
                    let outcome = loop {
                        match tokio::time::timeout(RESTART_EVERY, &mut task).await {
                            Ok(outcome) => break outcome,
                            Err(_) => start(&mut walk.queue, true),
                        }
                    };
                    let walked = match outcome {
                        Ok(walked) => walked,
                        Err(err) => {
                            walk.failed = true;
                            return Some((Err(err), walk));
                        }
                    };
                    // Each position holds the shards queued after it, so a resume continues them:
                    // a page of this shard those queued before it split (a resume at that page
                    // splits it again), the page after its last the pieces it split into first.
                    let queued: Vec<ShardKey> = walk.queue.iter().map(|slot| slot.key.clone()).collect();
                    let after: Vec<ShardKey> = walked.pieces.iter().chain(&queued).cloned().collect();
                    for piece in walked.pieces.into_iter().rev() {
                        walk.queue.push_front(Slot { key: piece, task: None });
                    }
                    for (items, at, next) in walked.pages {
                        let next = match next {
                            Some(next) => Some(BlockShardSource::page_key(&root, &next, &queued)),
                            None => after.first().map(|n| BlockShardSource::page_key(&root, n, &after[1..])),
                        };
                        walk.ready.push_back(Fetched {
                            items,
                            at: BlockShardSource::page_key(&root, &at, &queued),
                            next,
                        });
                    }
                }
            }
        });
        crate::paging::until_enough(pages, want).boxed()
    }

    fn describe(&self) -> String {
        self.paged.path.clone()
    }

    fn ranged(&self) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        Some(self.list.clone() as Arc<dyn std::any::Any + Send + Sync>)
    }

    fn plan_walk(&self, limit: Option<u64>) -> Option<(crate::plan::Walk, crate::plan::Budget)> {
        let (config, headers) = (self.client.transport_config(), self.client.rate_limit());
        let budget = crate::plan::sources::rest_budget(config, headers.as_ref(), self.client.base_url());
        let mut walk = crate::plan::shapes::token_list(&self.paged.path, self.page_size, limit, None);
        let noun = self.range.axis.noun();
        let blocks = match self.range.root.high {
            Some(high) => format!("{noun} {}..={high}", self.range.root.low),
            None => format!("{noun} {} up to the newest item", self.range.root.low),
        };
        walk.operation = format!("GET {} ({blocks} in shards, up to {} in flight)", self.paged.path, self.concurrency);
        walk.unknown.push(format!(
            "the shards: planned from the pages as they come (a page with many more pages below it cuts the \
             {noun} below into up to {} pieces; an empty shard costs one request, a dense one is cut again)",
            self.concurrency as u64 * crate::paging::block_shards::PIECES_PER_CALL
        ));
        Some((walk, budget))
    }
}

/// The `concurrency` a sharded walk of `client` over pages of `page_units` compute units takes by
/// default: what its compute-unit budget (its own `compute_units_per_minute` when lower than its
/// tier's, or the service's `ratelimit-*` figure) and `rate_limit` fill ([`default_concurrency`]).
pub fn client_concurrency(client: &RestClient, page_units: u32) -> usize {
    let (config, headers) = (client.transport_config(), client.rate_limit());
    let budget = crate::plan::sources::rest_budget(config, headers.as_ref(), client.base_url());
    let mut units = budget.units_per_minute().0;
    if let Some(own) = config.compute_units_per_minute {
        units = units.min(u64::from(own));
    }
    default_concurrency(units, f64::from(page_units), config.rate_limit)
}

/// A pager over the list `operation_id` (`paged`, with `page_token` and `limit` as given):
/// walked in shards when the operation is [`BLOCK_RANGED`] or [`TIME_WINDOWED`] ([`Axis::of`]),
/// no `limit` is given (a limited walk asks for no more items than it hands out, so it pages in
/// sequence), the order is the service's newest first (no `sortOrder=asc`), the range holds a
/// position, and `concurrency` (the default: [`client_concurrency`]) is more than 1; a page token
/// of a sharded walk resumes one. Otherwise (a service's page token among them) the service's
/// pages in sequence. `concurrency` given for a list that is not cut is refused, before any
/// request.
pub fn list_pager(
    client: &RestClient,
    operation_id: &str,
    paged: Paged,
    resource: Resource,
    page_token: Option<String>,
    limit: Option<u64>,
    concurrency: Option<i64>,
) -> Result<ResourcePager> {
    let axis = Axis::of(operation_id);
    let concurrency = match concurrency {
        Some(c) if axis.is_none() => {
            let why = match UNCUT_WINDOWS.iter().find(|(op, _)| *op == operation_id) {
                Some((_, why)) => format!("None: {operation_id} is walked in sequence, {why}"),
                None => format!(
                    "None: {operation_id} takes no block range nor time window to cut into shards (the lists \
                     that do: {}, {})",
                    BLOCK_RANGED.join(", "),
                    TIME_WINDOWED.join(", ")
                ),
            };
            return Err(Error::invalid("concurrency", c, why));
        }
        Some(c) => check_concurrency(c)?,
        None => client_concurrency(client, crate::rest::openapi::operation(operation_id).map_or(20, |op| op.weight())),
    };
    let resumed = match page_token.as_deref().map(Resume::decode) {
        Some(Some(at)) => at.map(|_| page_token.clone())?,
        _ => None,
    };
    let ascending = paged.query.iter().any(|(k, v)| *k == "sortOrder" && v.eq_ignore_ascii_case("asc"));
    let url = format!("{}{}", client.base_url(), paged.path);
    let list = axis.map(|axis| Arc::new(RangedList::new(client, &paged, axis, concurrency)));
    // A service's own page token continues its walk in sequence.
    let sharded = limit.is_none() && !ascending && (resumed.is_some() || (page_token.is_none() && concurrency > 1));
    if let Some(list) = list.as_ref().filter(|_| sharded) {
        if let Some(source) = BlockShardSource::new(list.clone(), concurrency, resumed.clone()) {
            return Ok(ResourcePager::new(Arc::new(source), resource, limit, url));
        }
    }
    if resumed.is_some() {
        return Err(Error::invalid_text(
            "page_token",
            page_token.as_deref().unwrap_or_default(),
            "the token of a sharded walk resumes a walk of the same list without limit= (and concurrency= not 1)",
        ));
    }
    let source = TokenSource::new(client, paged, page_token)?.ranged(list.filter(|_| !ascending));
    Ok(ResourcePager::new(Arc::new(source), resource, limit, url))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paged(query: &[(&'static str, &str)]) -> Paged {
        Paged {
            path: "/v1/chains/43114/addresses/0xab/transactions:listErc20".into(),
            query: query.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            items_field: "transactions",
        }
    }

    #[test]
    fn the_root_shard_is_the_requests_range_with_its_end_exclusive() {
        let client = RestClient::new("http://127.0.0.1:9", Default::default()).unwrap();
        let list = |query: &[(&'static str, &str)]| Arc::new(RangedList::new(&client, &paged(query), Axis::Blocks, 4));
        let source =
            BlockShardSource::new(list(&[("startBlock", "100"), ("endBlock", "200.0"), ("pageSize", "50")]), 4, None)
                .unwrap();
        assert_eq!(source.range.root, ShardKey { low: 100, high: Some(199), planned: 0, token: None });
        assert_eq!(source.page_size, 50);
        assert!(source.paged.query.iter().all(|(k, _)| *k == "pageSize"), "the bounds are each shard's own");
        assert!(BlockShardSource::new(list(&[("startBlock", "100"), ("endBlock", "100")]), 4, None).is_none());
        let open = BlockShardSource::new(list(&[]), 4, None).unwrap();
        assert_eq!((open.range.root.low, open.range.root.high, open.page_size), (0, None, 10));
    }

    #[test]
    fn concurrency_on_a_list_without_a_block_range_is_refused_before_any_request() {
        let client = RestClient::new("http://127.0.0.1:9", Default::default()).unwrap();
        let err = list_pager(&client, "listChains", paged(&[]), Resource::Block, None, None, Some(4)).unwrap_err();
        assert!(err.to_string().starts_with("invalid concurrency=4: None: listChains takes no block range"), "{err}");
        let err = list_pager(&client, "getValidatorsByDateRange", paged(&[]), Resource::Block, None, None, Some(2))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("getValidatorsByDateRange is walked in sequence, its items (validators' addresses)"),
            "{err}"
        );
        let err =
            list_pager(&client, "listErc20Transactions", paged(&[]), Resource::Block, None, None, Some(0)).unwrap_err();
        assert_eq!(err.to_string(), "invalid concurrency=0: an int in [1, 64]");
    }
}
