//! A list of the Data or Metrics API with a block range or a time window ([`Axis`]), as a dataset
//! writer reads it: its request less its bounds, its [`Range`], a look at its newest item (the
//! head check), and a walk of any span of its range on its own
//! ([`RangedList::span_pager`]: the request's own bounds at the range's edges, the span's bounds
//! elsewhere, reaching [`Axis::reach`] past them and keeping only the span's own positions, as a
//! shard of [`super::block_source`] does).

use std::sync::Arc;

use futures::stream::BoxStream;
use futures::StreamExt;

use super::{Paged, ResourcePager, RestClient, TokenSource};
use crate::arrow::Resource;
use crate::error::Result;
use crate::paging::block_shards::{Axis, Range, ShardKey};
use crate::paging::{JsonItem, PageKey, PageSource};

/// The service's page size when a request names none.
pub const SERVICE_PAGE_SIZE: u64 = 10;

/// A ranged list: what a dataset of it asks the service for.
#[derive(Clone)]
pub struct RangedList {
    client: RestClient,
    /// The request less its start and end.
    paged: Paged,
    /// Its axis, first shard and bounds (`None`: the range holds no position).
    range: Option<Range>,
    axis: Axis,
    page_size: u64,
    concurrency: usize,
}

/// A number parameter of the request (`startBlock=100` or `100.0`), as a whole number.
fn number_param(paged: &Paged, name: &str) -> Option<u64> {
    let text = paged.query.iter().find(|(k, _)| *k == name).map(|(_, v)| v.trim())?;
    text.parse::<u64>().ok().or_else(|| text.parse::<f64>().ok().filter(|f| *f >= 0.0).map(|f| f.floor() as u64))
}

impl RangedList {
    /// The list `paged` (its bounds among its parameters) cut along `axis`, walked with up to
    /// `concurrency` spans in flight.
    pub fn new(client: &RestClient, paged: &Paged, axis: Axis, concurrency: usize) -> RangedList {
        let [start, end] = axis.params();
        let range = Range::new(axis, number_param(paged, start), number_param(paged, end));
        let page_size = number_param(paged, "pageSize").unwrap_or(SERVICE_PAGE_SIZE).max(1);
        let mut paged = paged.clone();
        paged.query.retain(|(k, _)| *k != start && *k != end);
        RangedList { client: client.clone(), paged, range, axis, page_size, concurrency: concurrency.max(1) }
    }

    /// The client it is read with.
    pub fn client(&self) -> &RestClient {
        &self.client
    }

    /// The request less its start and end.
    pub fn paged(&self) -> &Paged {
        &self.paged
    }

    /// What it is cut along.
    pub fn axis(&self) -> Axis {
        self.axis
    }

    /// Its range (`None`: it holds no position).
    pub fn range(&self) -> Option<&Range> {
        self.range.as_ref()
    }

    /// Items a page.
    pub fn page_size(&self) -> u64 {
        self.page_size
    }

    /// Spans walked side by side.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// What the list is, bounds and page size aside: its path and its other parameters (sorted),
    /// so a dataset of other filters is another dataset.
    pub fn describe(&self) -> String {
        let mut others: Vec<String> =
            self.paged.query.iter().filter(|(k, _)| *k != "pageSize").map(|(k, v)| format!("{k}={v}")).collect();
        others.sort();
        if others.is_empty() {
            self.paged.path.clone()
        } else {
            format!("{}?{}", self.paged.path, others.join("&"))
        }
    }

    /// The request of `key`'s first page ([`Range::ask`]).
    fn request(&self, range: &Range, key: &ShardKey) -> Paged {
        let mut request = self.paged.clone();
        let (start, end) = range.ask(key);
        for (name, value) in self.axis.params().into_iter().zip([start, end]) {
            if let Some(value) = value {
                request.query.push((name, value.to_string()));
            }
        }
        request
    }

    /// The newest item of the range (one request of one item), `None` when it holds none.
    pub async fn head(&self) -> Result<Option<JsonItem>> {
        let Some(range) = &self.range else { return Ok(None) };
        let page = self.client.page_at_most(&self.request(range, &range.root), None, Some(1)).await?;
        Ok(page.items.into_iter().next())
    }

    /// A pager over the positions `low..=high` of the range (`None` when it holds none), of
    /// `resource`, in sequence: the items the sequential walk of the range hands out there.
    pub fn span_pager(&self, resource: Resource, low: u64, high: u64) -> Option<ResourcePager> {
        let range = self.range.clone()?;
        let key = ShardKey { low, high: Some(high), planned: 0, token: None };
        let request = self.request(&range, &key);
        let url = format!("{}{}", self.client.base_url(), request.path);
        let inner = TokenSource::new(&self.client, request, None).ok()?;
        let source = SpanSource { inner, axis: self.axis, key, root: range.root };
        Some(ResourcePager::new(Arc::new(source), resource, None, url))
    }
}

/// A span of a ranged list walked with the service's tokens, keeping only its own positions at
/// the edges the span cut ([`ShardKey::keeps`]).
struct SpanSource {
    inner: TokenSource,
    axis: Axis,
    key: ShardKey,
    root: ShardKey,
}

impl PageSource for SpanSource {
    fn first(&self) -> PageKey {
        self.inner.first()
    }

    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<crate::paging::Fetched>> {
        let (axis, key, root) = (self.axis, self.key.clone(), self.root.clone());
        self.inner
            .pages(from, want)
            .map(move |page| {
                page.map(|mut page| {
                    page.items.retain(|item| key.keeps(axis.position(item), &root));
                    page
                })
            })
            .boxed()
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}
