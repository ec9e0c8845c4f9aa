//! The hosted Data API (`/v1/...`): a typed client with parameter checks before the network,
//! token-paged streams, and the Arrow schemas of its resources (in [`crate::arrow::data`]).

pub mod client;
pub mod pager;
pub mod params;
pub mod shapes;

pub use client::{DataClient, DataClientOptions, PageStream, Paged, DEFAULT_DATA_URL};
pub use pager::{ResourcePager, TokenSource, PREFETCH_PAGES};
