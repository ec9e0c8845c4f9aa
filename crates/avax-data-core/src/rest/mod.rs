//! What the two hosted REST services (the Data API, `/v1`, and the Metrics API, `/v2`) share: a
//! [`RestClient`] (base URL + [`crate::transport::Transport`] + closed flag) that GETs JSON
//! objects and walks token-paged lists ([`Paged`]), the JSON helpers of their answers, and the
//! pagers over those lists ([`pager`]). [`crate::data::DataClient`] and
//! [`crate::metrics::MetricsClient`] each own one and add their endpoints.

pub mod block_source;
pub mod client;
pub mod json;
pub mod openapi;
pub mod pager;
pub mod ranged_list;
pub mod raw_page;
#[cfg(test)]
pub(crate) mod testing;

pub use client::{page_token, PageStream, Paged, RestClient};
pub use json::{api_message, check_items, service_root, take_list};
pub use pager::{ResourcePager, TokenSource, PREFETCH_PAGES};
