//! Reconcile: a node's Index RPC against the Data API over a range of block heights.
//!
//! Both services describe the same chain; this module walks the blocks of one range on both
//! sides at once and reports every place where they disagree, one [`Difference`] per fact:
//!
//! - [`chain`]: which chain (`C`, `P`, `X`), its index path and its Data API routes;
//! - [`record`]: a block (and its transactions) as one side sees it, as comparable text;
//! - [`index_side`] / [`data_side`]: a decoded index container / a Data API answer as a record;
//! - [`compare`]: two records of one height into differences (missing, extra, different);
//! - [`table`]: the differences as an Arrow batch;
//! - [`walk`]: the walk of both services, chunk by chunk, with progress and a [`Summary`].

pub mod chain;
pub mod compare;
pub mod data_side;
pub mod index_side;
pub mod record;
pub mod table;
pub mod walk;

#[cfg(test)]
mod tests;

pub use chain::Chain;
pub use compare::{compare, Difference, Kind};
pub use record::{BlockRecord, TxRecord};
pub use table::{differences_batch, differences_schema};
pub use walk::{check_range, Reconcile, Summary};
