//! How a metric series is walked: token pages in one sequence, or shards of the time window
//! fetched side by side and handed out in the service's order as each shard completes.

use std::sync::Arc;

use futures::stream::{self, BoxStream};
use futures::{StreamExt, TryStreamExt};

use super::client::{plan_shards, point_time, MetricQuery, MetricsClient, Shard};
use crate::arrow::Resource;
use crate::error::{Error, Result};
use crate::exact::Exact;
use crate::paging::{ordered_chunks, until_enough, Fetched, JsonItem, PageKey, PageSource, Spawned};
use crate::rest::{ResourcePager, TokenSource};

/// The shards of a sharded walk, in the order their items are handed out.
pub struct ShardSource {
    client: MetricsClient,
    query: Arc<MetricQuery>,
    concurrency: usize,
    shards: Arc<tokio::sync::OnceCell<Arc<Vec<Shard>>>>,
}

impl ShardSource {
    /// A sharded walk of `query` (which has both `start` and `end`) with `concurrency` shards
    /// in flight.
    pub fn new(client: &MetricsClient, query: MetricQuery, concurrency: usize) -> Result<Self> {
        if query.start.is_none() || query.end.is_none() {
            return Err(Error::invalid("start/end", "missing", "both start and end for a sharded walk"));
        }
        Ok(ShardSource {
            client: client.clone(),
            query: Arc::new(query),
            concurrency: concurrency.max(1),
            shards: Arc::new(tokio::sync::OnceCell::new()),
        })
    }
}

/// The planned shards of `query`, ordered as the service orders the series. The order is read
/// from the service once: a two-item page of the whole window (newest first when it cannot
/// tell, which is the hosted service's order).
async fn ordered_shards(client: &MetricsClient, query: &MetricQuery, concurrency: usize) -> Result<Vec<Shard>> {
    let (Some(start), Some(end)) = (query.start, query.end) else {
        return Err(Error::invalid("start/end", "missing", "both start and end for a sharded walk"));
    };
    let mut shards = plan_shards(query, start, end, concurrency);
    if client.cache().is_some() {
        // The closed part of the window is cached, the open bucket always asked for.
        let interval = query.answer_interval();
        shards = crate::cache::series::split_unsettled(shards, interval, crate::cache::objects::now_secs());
    }
    if shards.len() > 1 {
        let ascending = match crate::cache::series::held_order(client, query).await? {
            Some(ascending) => ascending,
            None => {
                let mut probe = query.clone();
                probe.page_size = 2;
                let page = client.page(&probe.paged(), None).await?;
                let times: Vec<i64> = page.items.iter().filter_map(point_time).collect();
                let ascending = matches!(times.as_slice(), [a, b, ..] if a < b);
                if times.len() >= 2 {
                    crate::cache::series::store_order(client, query, ascending).await?;
                }
                ascending
            }
        };
        if !ascending {
            shards.reverse();
        }
    }
    Ok(shards)
}

impl PageSource for ShardSource {
    fn first(&self) -> PageKey {
        PageKey::Shard(0)
    }

    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<Fetched>> {
        let PageKey::Shard(first) = from else {
            let err = Error::Internal(format!("a sharded walk was asked to start at {from:?}"));
            return stream::once(async move { Err(err) }).boxed();
        };
        let (client, query, concurrency, cell) =
            (self.client.clone(), self.query.clone(), self.concurrency, self.shards.clone());
        let planned = async move {
            let shards = cell
                .get_or_try_init(|| async { ordered_shards(&client, &query, concurrency).await.map(Arc::new) })
                .await?
                .clone();
            let count = shards.len();
            let fetches = ordered_chunks(first..count, concurrency, move |n| {
                let (client, query, shard) = (client.clone(), query.clone(), shards[n]);
                Spawned::new(async move {
                    let items = crate::cache::series::cached_shard(&client, &query, shard).await?;
                    let next = (n + 1 < count).then_some(PageKey::Shard(n + 1));
                    Ok(Fetched { items, at: PageKey::Shard(n), next })
                })
            });
            Ok::<_, Error>(fetches)
        };
        until_enough(stream::once(planned).try_flatten(), want).boxed()
    }

    fn describe(&self) -> String {
        format!("{} (sharded)", self.query.paged().path)
    }

    fn empty_notice(&self) -> Option<String> {
        let world = self.client.emulator_world()?;
        let path = self.query.paged().path;
        crate::paging::pager::outside_world_notice(&path, (self.query.start, self.query.end), world)
    }

    fn plan_walk(&self, _limit: Option<u64>) -> Option<(crate::plan::Walk, crate::plan::Budget)> {
        let (config, headers) = (self.client.transport_config(), self.client.rate_limit());
        let budget = crate::plan::sources::rest_budget(config, headers.as_ref(), self.client.base_url());
        let walk = match self.client.cache() {
            Some(_) => crate::plan::sources::cached_sharded_walk(
                &self.client,
                &self.query,
                self.concurrency,
                crate::cache::objects::now_secs(),
            ),
            None => crate::plan::sources::sharded_walk(&self.query, self.concurrency),
        };
        Some((walk, budget))
    }
}

/// A metric series pager. Sharded (side by side, `concurrency` shards in flight) when the
/// window has both ends, no page token or limit is given and it spans more than one shard (or
/// the client has a cache: [`crate::cache::series`]);
/// otherwise the service's token pages in sequence. A limited walk is sequential so that it
/// asks for no more items than it hands out.
pub fn series_pager(
    client: &MetricsClient,
    query: MetricQuery,
    page_token: Option<String>,
    limit: Option<u64>,
    concurrency: usize,
) -> Result<ResourcePager> {
    let url = format!("{}{}", client.base_url(), query.paged().path);
    let sharded = match (query.start, query.end, &page_token, limit) {
        // With a cache, a window is walked by shards even when it is one: so it is cached.
        (Some(s), Some(e), None, None) => {
            client.cache().is_some() || (concurrency > 1 && plan_shards(&query, s, e, concurrency).len() > 1)
        }
        _ => false,
    };
    let source: Arc<dyn PageSource> = if sharded {
        Arc::new(ShardSource::new(client, query, concurrency)?)
    } else {
        Arc::new(TokenSource::new(client, query.paged(), page_token)?)
    };
    Ok(ResourcePager::new(source, Resource::MetricValue, limit, url))
}

// The sharded fetch lives beside the walk it uses, so the client does not depend on this module.
impl MetricsClient {
    /// The whole series of `query` fetched as shards ([`plan_shards`](super::plan_shards)) with up to `concurrency`
    /// in flight, concatenated in the service's order. Needs both `start` and `end`.
    /// A value the rule of [`crate::exact`] refuses is a decode error naming it.
    pub async fn sharded(&self, query: &MetricQuery, concurrency: usize) -> Result<Vec<Exact>> {
        let items = sharded_items(self, query.clone(), concurrency).await?;
        items.iter().map(|item| Ok(item.to_exact()?)).collect()
    }
}

/// Every item of a sharded walk of `query`, in the service's order.
pub async fn sharded_items(client: &MetricsClient, query: MetricQuery, concurrency: usize) -> Result<Vec<JsonItem>> {
    let source = ShardSource::new(client, query, concurrency)?;
    let pages: Vec<Fetched> = source.pages(PageKey::Shard(0), None).try_collect().await?;
    Ok(pages.into_iter().flat_map(|p| p.items).collect())
}
