//! Pagers over the lists of the Data and Metrics APIs: a token-paged walk as a [`PageSource`],
//! and [`ResourcePager`], which hands a walk's pages out as Arrow batches of its resource.

use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use futures::stream::BoxStream;
use futures::StreamExt;

use super::{page_token, Paged, RestClient};
use crate::arrow::parquet_export::Drained;
use crate::arrow::{batch_builder, to_batch, BatchBuilder, Resource};
use crate::arrow::{ParquetExport, Wait, WalkReader};
use crate::error::{Error, Result};
use crate::paging::{Fetched, JsonItem, Mark, PageKey, PageSource, Pager, PagerCursor, Position};
use crate::stop::Stop;

/// Pages fetched ahead of the consumer by every pager.
pub const PREFETCH_PAGES: usize = 2;

/// A token-paged list (`paged` on `client`) as a [`PageSource`].
pub struct TokenSource {
    client: RestClient,
    paged: Arc<Paged>,
    first: Option<String>,
    /// The ranged list it walks in sequence, if it is one ([`PageSource::ranged`]).
    list: Option<Arc<super::ranged_list::RangedList>>,
}

impl TokenSource {
    /// The walk of `paged` from `page_token` (checked: a token the service could have issued).
    pub fn new(client: &RestClient, paged: Paged, token: Option<String>) -> Result<Self> {
        let first = token.map(|t| page_token(&t)).transpose()?;
        Ok(TokenSource { client: client.clone(), paged: Arc::new(paged), first, list: None })
    }

    /// The same walk, of the ranged list `list` (`None`: of none).
    pub fn ranged(mut self, list: Option<Arc<super::ranged_list::RangedList>>) -> Self {
        self.list = list;
        self
    }
}

impl PageSource for TokenSource {
    fn first(&self) -> PageKey {
        PageKey::Token(self.first.clone())
    }

    fn pages(&self, from: PageKey, want: Option<u64>) -> BoxStream<'static, Result<Fetched>> {
        let PageKey::Token(token) = from else {
            let err = Error::Internal(format!("a token-paged walk was asked to start at {from:?}"));
            return futures::stream::once(async move { Err(err) }).boxed();
        };
        self.client
            .pages_wanting(self.paged.clone(), token, want)
            .map(|fetched| fetched.map(|(page, token)| Fetched::token_page(page, token)))
            .boxed()
    }

    fn describe(&self) -> String {
        self.paged.path.clone()
    }

    fn ranged(&self) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        self.list.clone().map(|list| list as Arc<dyn std::any::Any + Send + Sync>)
    }

    fn empty_notice(&self) -> Option<String> {
        let world = self.client.emulator_world()?;
        let at = |name: &str| self.paged.query.iter().find(|(k, _)| *k == name).and_then(|(_, v)| v.parse().ok());
        let window = (at("startTimestamp"), at("endTimestamp"));
        crate::paging::pager::outside_world_notice(&self.paged.path, window, world)
    }

    fn plan_walk(&self, limit: Option<u64>) -> Option<(crate::plan::Walk, crate::plan::Budget)> {
        let (config, headers) = (self.client.transport_config(), self.client.rate_limit());
        let budget = crate::plan::sources::rest_budget(config, headers.as_ref(), self.client.base_url());
        Some((crate::plan::sources::token_walk(&self.paged, limit), budget))
    }
}

/// A pager whose items are objects of one resource: pages become Arrow batches of its schema.
#[derive(Clone, Debug)]
pub struct ResourcePager {
    /// The walk and its position.
    pub pager: Pager,
    /// What the items are.
    pub resource: Resource,
    url: String,
}

impl ResourcePager {
    /// A pager over `source`'s items of `resource` (`url` names the walk in decode errors),
    /// dropping the leading repeats of a page by the resource's identity
    /// ([`Resource::identity`]).
    pub fn new(source: Arc<dyn PageSource>, resource: Resource, limit: Option<u64>, url: String) -> Self {
        let pager = Pager::new(source, limit, PREFETCH_PAGES).identified_by(resource.identity());
        ResourcePager { pager, resource, url }
    }

    /// A token-paged list of `client` from `page_token`.
    pub fn tokens(
        client: &RestClient,
        paged: Paged,
        resource: Resource,
        page_token: Option<String>,
        limit: Option<u64>,
    ) -> Result<Self> {
        let url = format!("{}{}", client.base_url(), paged.path);
        let source = TokenSource::new(client, paged, page_token)?;
        Ok(ResourcePager::new(Arc::new(source), resource, limit, url))
    }

    /// The base URL of the service the list is read from (secrets redacted): its URL less the
    /// list's path.
    pub fn base_url(&self) -> &str {
        let path = self.pager.describe();
        self.url.strip_suffix(path.as_str()).unwrap_or(&self.url)
    }

    /// Where the walk stands.
    pub fn position(&self) -> Position {
        self.pager.position()
    }

    /// The same list from its original start, with a position of its own ([`Pager::restart`]).
    pub fn restart(&self) -> Self {
        ResourcePager { pager: self.pager.restart(), resource: self.resource, url: self.url.clone() }
    }

    /// Items as a batch of the resource's schema; a value that does not fit is a decode error.
    pub fn batch(&self, items: &[JsonItem]) -> Result<RecordBatch> {
        to_batch(self.resource, items).map_err(|message| self.decode_error(message))
    }

    /// The next page `cursor` hands out, as a batch of the resource; the position moves only
    /// once the batch is made (`None` at the end).
    pub async fn next_batch(&self, cursor: &mut PagerCursor) -> Result<Option<RecordBatch>> {
        loop {
            if let Some(batch) = self.ready_batch(cursor) {
                return batch.map(Some);
            }
            if !cursor.fill().await? {
                return Ok(None);
            }
        }
    }

    /// [`next_batch`](Self::next_batch) of a page `cursor` already fetched ([`PagerCursor::fill`]),
    /// without waiting: `None` when the next page needs a fetch.
    pub fn ready_batch(&self, cursor: &mut PagerCursor) -> Option<Result<RecordBatch>> {
        let mut out = None;
        let handed = cursor.ready_page_with(|items| {
            out = Some(self.batch(&items)?);
            Ok(())
        })?;
        Some(handed.and_then(|_| out.ok_or_else(|| crate::error::Error::Internal("a page handed out no batch".into()))))
    }

    /// A new consumer reading the rest of the walk as an Arrow stream of page batches; each
    /// batch read moves the position. The reading thread waits for each batch with `wait`.
    pub fn reader(&self, wait: Wait) -> WalkReader {
        let (pager, mut cursor) = (self.clone(), self.pager.cursor());
        WalkReader::new(self.resource.schema(), Box::new(move || wait(Box::pin(pager.next_batch(&mut cursor)))))
    }

    /// The rest of the walk (at most `limit` more items) as batches, all or nothing.
    ///
    /// The pages' items go into one set of column builders ([`BatchBuilder`]) kept across
    /// pages, taken out as a batch every [`BATCH_ROWS`] rows or more and at the end: the
    /// columns are not allocated, finished and freed page by page, and a frame made of the
    /// batches has few chunks. `on_rows` is told each page's rows as they are appended.
    pub async fn to_batches(
        &self,
        limit: Option<u64>,
        mut on_rows: impl FnMut(u64) + Send + 'static,
    ) -> Result<Vec<RecordBatch>> {
        let builder = Arc::new(Mutex::new(None::<BatchBuilder>));
        let (this, kept) = (self.clone(), builder.clone());
        let mut batches: Vec<RecordBatch> = self
            .pager
            .collect(limit, move |items| {
                on_rows(items.len() as u64);
                let mut slot = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let builder = slot.get_or_insert_with(|| batch_builder(this.resource, items.len()));
                builder.append(&items).map_err(|message| this.decode_error(message))?;
                match builder.rows() >= BATCH_ROWS {
                    true => builder.finish().map(Some).map_err(|message| this.decode_error(message)),
                    false => Ok(None),
                }
            })
            .await?
            .into_iter()
            .flatten()
            .collect();
        let rest = builder.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some(mut rest) = rest.filter(|b| b.rows() > 0) {
            batches.push(rest.finish().map_err(|message| self.decode_error(message))?);
        }
        Ok(batches)
    }

    /// A decode error of this walk.
    fn decode_error(&self, message: String) -> Error {
        Error::Decode { message, url: self.url.clone(), body: String::new() }
    }
}

/// The rows [`ResourcePager::to_batches`] gathers into one batch before it starts the next
/// (a batch ends at the first page that reaches it).
pub const BATCH_ROWS: usize = 8_192;

/// A pager's Parquet file: its pages in order, each one batch. The position moves past each page
/// once the file holds it; a rewind puts back the position and the items the pager remembered.
impl ParquetExport for ResourcePager {
    type Hold = (PagerCursor, Mark);

    fn batch_schema(&self) -> arrow_schema::SchemaRef {
        self.resource.schema()
    }

    fn export_gate(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.pager.export_gate()
    }

    fn hold(&self) -> Self::Hold {
        let mark = self.pager.mark();
        (self.pager.cursor(), mark)
    }

    async fn drain_batches(
        &self,
        (cursor, _): &mut Self::Hold,
        stop: &Stop,
        mut write: impl FnMut(&RecordBatch) -> Result<()> + Send,
    ) -> Result<Drained> {
        let mut take = |items: Vec<JsonItem>| write(&self.batch(&items)?);
        loop {
            // A page is taken and the position moved with no wait between: a stop lands between pages.
            let Some(page) = stop.unless(cursor.next_page_with(&mut take)).await else {
                return Ok(Drained::Stopped);
            };
            if page?.is_none() {
                return Ok(Drained::Complete);
            }
        }
    }

    fn rewind(&self, (cursor, mark): &mut Self::Hold) -> Result<()> {
        cursor.rewind(mark)
    }
}
