//! The walk of a reconcile: the range's heights in chunks, each chunk's index containers and Data
//! API blocks fetched at once (the clients' own rate limits and retries apply to every request),
//! then compared height by height.
//!
//! Cost per chunk of [`CHUNK`] heights: one `getContainerRange` call on the node; on the Data
//! API, one request per block, plus (C-Chain) one per page of 100 of its transactions. The very
//! first request reads the index's container 0, to learn at which height the index starts.

use std::collections::BTreeMap;

use futures::{StreamExt, TryStreamExt};

use super::chain::Chain;
use super::compare::{compare, Difference, Kind};
use super::data_side::data_record;
use super::index_side::index_record;
use super::record::BlockRecord;
use crate::data::DataClient;
use crate::error::{Error, Result};
use crate::exact::Exact;
use crate::index::ChainClient;

/// Heights per chunk: one `getContainerRange` call.
pub const CHUNK: u64 = 256;
/// Data API requests in flight at once.
pub const DATA_CONCURRENCY: usize = 8;
/// Transactions per page of a C-Chain block's transaction list (the service's largest).
pub const TX_PAGE: u32 = 100;

/// What was compared, whatever was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Heights in the range (`stop - start`).
    pub heights: u64,
    /// Blocks of the range the index holds.
    pub index_blocks: u64,
    /// Blocks of the range the Data API holds.
    pub data_blocks: u64,
    /// Blocks both hold (their fields and transactions compared).
    pub blocks_compared: u64,
    /// Transactions of the index's blocks.
    pub index_transactions: u64,
    /// Transactions the Data API listed for its blocks.
    pub data_transactions: u64,
    /// Rows of each kind: missing, extra, different.
    pub missing: u64,
    /// See [`Summary::missing`].
    pub extra: u64,
    /// See [`Summary::missing`].
    pub different: u64,
    /// Requests sent to the node.
    pub index_requests: u64,
    /// Requests sent to the Data API.
    pub data_requests: u64,
}

/// `start` and `stop` of a reconcile: the half-open range `[start, stop)` of heights, not empty.
///
/// ```
/// use avax_data_core::reconcile::check_range;
/// assert!(check_range(5, 6).is_ok());
/// assert_eq!(check_range(5, 5).unwrap_err().to_string(), "invalid stop=5: an int > start (5)");
/// ```
pub fn check_range(start: u64, stop: u64) -> Result<()> {
    if stop <= start {
        return Err(Error::invalid("stop", stop, format!("an int > start ({start})")));
    }
    Ok(())
}

/// One reconcile: the two services, the chain, its network on the Data API and the range.
#[derive(Clone)]
pub struct Reconcile {
    /// The node's index of the chain's blocks (`chain.index_path()`).
    pub index: ChainClient,
    /// The Data API.
    pub data: DataClient,
    /// The chain.
    pub chain: Chain,
    /// The Data API's network (checked): `mainnet`, `fuji` or `testnet`.
    pub network: String,
    /// First height.
    pub start: u64,
    /// One past the last height.
    pub stop: u64,
}

impl Reconcile {
    /// Checks the arguments (before any request): the network, the range, and that `index` is
    /// the chain's block index.
    pub fn new(
        index: ChainClient,
        data: DataClient,
        chain: Chain,
        network: &str,
        start: u64,
        stop: u64,
    ) -> Result<Self> {
        let network = crate::inputs::network(network)?;
        check_range(start, stop)?;
        if index.path() != chain.index_path() {
            return Err(Error::invalid_text(
                "index",
                index.path().as_str(),
                format!("the {} index of chain {}", chain.index_path().as_str(), chain.label()),
            ));
        }
        Ok(Reconcile { index, data, chain, network, start, stop })
    }

    /// Walks the range; `on_progress(n)` after each chunk of `n` heights. Returns every
    /// difference, by height (each height's rows in [`compare`]'s order), and the summary.
    pub async fn run(&self, mut on_progress: impl FnMut(u64) + Send) -> Result<(Vec<Difference>, Summary)> {
        let mut summary = Summary { heights: self.stop - self.start, ..Summary::default() };
        let tip = self.index.tip().await?;
        summary.index_requests += 1;
        // The height of container 0: the index holds heights `first..=first + tip`.
        let first = match tip {
            Some(_) => {
                summary.index_requests += 1;
                index_record(self.chain, &self.index.container_by_index(0).await?)?.height
            }
            None => 0,
        };
        let mut differences = Vec::new();
        let mut at = self.start;
        while at < self.stop {
            let end = self.stop.min(at.saturating_add(CHUNK));
            let (index, data) = tokio::try_join!(self.index_blocks(first, tip, at, end), self.data_blocks(at, end))?;
            let (index, requests) = index;
            summary.index_requests += requests;
            let (data, requests) = data;
            summary.data_requests += requests;
            for (height, data) in (at..end).zip(&data) {
                let index = index.get(&height);
                summary.index_blocks += u64::from(index.is_some());
                summary.data_blocks += u64::from(data.is_some());
                summary.blocks_compared += u64::from(index.is_some() && data.is_some());
                summary.index_transactions += index.map_or(0, |b| b.txs.len() as u64);
                summary.data_transactions += data.as_ref().map_or(0, |b| b.txs.len() as u64);
                differences.extend(compare(self.chain, height, index, data.as_ref()));
            }
            on_progress(end - at);
            at = end;
        }
        for d in &differences {
            match d.kind {
                Kind::Missing => summary.missing += 1,
                Kind::Extra => summary.extra += 1,
                Kind::Different => summary.different += 1,
            }
        }
        Ok((differences, summary))
    }

    /// The index's blocks of heights `[at, end)` by height, and the requests sent (0 or 1).
    async fn index_blocks(
        &self,
        first: u64,
        tip: Option<u64>,
        at: u64,
        end: u64,
    ) -> Result<(BTreeMap<u64, BlockRecord>, u64)> {
        let Some(tip) = tip else { return Ok((BTreeMap::new(), 0)) };
        let from = at.max(first) - first;
        let to = (end.max(first) - first).min(tip + 1);
        if from >= to {
            return Ok((BTreeMap::new(), 0));
        }
        let containers = self.index.container_range(from, to - from).await?;
        let mut blocks = BTreeMap::new();
        for container in &containers {
            let record = index_record(self.chain, container)?;
            // An index holds one block per height, in order: container `i` is height `first + i`.
            if record.height != first + container.index {
                return Err(Error::Internal(format!(
                    "the {} index's container {} ({}) holds height {}, not {} (its container 0 holds height {first}): \
                     its heights are not one per container",
                    self.chain.index_path().as_str(),
                    container.index,
                    container.id,
                    record.height,
                    first + container.index
                )));
            }
            blocks.insert(record.height, record);
        }
        Ok((blocks, 1))
    }

    /// The Data API's blocks of heights `[at, end)` in height order (`None`: it has no such
    /// block, a 404), and the requests sent.
    async fn data_blocks(&self, at: u64, end: u64) -> Result<(Vec<Option<BlockRecord>>, u64)> {
        let blocks: Vec<(Option<BlockRecord>, u64)> = futures::stream::iter(at..end)
            .map(|height| self.data_block(height))
            .buffered(DATA_CONCURRENCY)
            .try_collect()
            .await?;
        let requests = blocks.iter().map(|(_, n)| n).sum();
        Ok((blocks.into_iter().map(|(b, _)| b).collect(), requests))
    }

    /// Block `height` of the Data API with its transactions, and the requests sent.
    async fn data_block(&self, height: u64) -> Result<(Option<BlockRecord>, u64)> {
        let block = match self.data.get(&self.chain.block_path(&self.network, height), &[]).await {
            Ok((block, _)) => block,
            Err(Error::Http { status: 404, .. }) => return Ok((None, 1)),
            Err(e) => return Err(e),
        };
        let mut requests = 1;
        let mut txs: Vec<Exact> = Vec::new();
        if let Some(path) = self.chain.transactions_path(&self.network, height) {
            let mut used = std::collections::HashSet::new();
            let mut token: Option<String> = None;
            loop {
                let mut query = vec![("pageSize", TX_PAGE.to_string())];
                if let Some(t) = &token {
                    query.push(("pageToken", t.clone()));
                }
                let (mut page, url) = self.data.get(&path, &query).await?;
                requests += 1;
                let next = match page.get("nextPageToken") {
                    Some(Exact::Str(t)) if !t.is_empty() => Some(t.clone()),
                    _ => None,
                };
                txs.extend(crate::rest::take_list(&mut page, "transactions", &url)?);
                let Some(next) = next else { break };
                if !used.insert(next.clone()) {
                    return Err(Error::PageTokenLoop { token: next, pages: used.len() as u64 });
                }
                token = Some(next);
            }
        }
        Ok((Some(data_record(self.chain, height, &block, &txs)), requests))
    }
}
