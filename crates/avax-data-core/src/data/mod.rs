//! The hosted Data API (`/v1/...`): a typed client with parameter checks before the network, on
//! the [`crate::rest`] client and pagers it shares with the Metrics API, and the Arrow schemas of
//! its resources (in [`crate::arrow::data`]).

pub mod client;
pub mod params;
pub mod shapes;

pub use crate::rest::pager;
pub use crate::rest::{PageStream, Paged};
pub use client::{DataClient, DataClientOptions, DEFAULT_DATA_URL};
pub use pager::{ResourcePager, TokenSource, BATCH_ROWS, PREFETCH_PAGES};
