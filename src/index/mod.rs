//! The node's Index RPC: paths, container model, JSON-RPC calls and range walks.

pub mod cb58;
pub mod client;
pub mod container;
pub mod path;
pub mod range;
pub mod rpc;

pub use container::{Container, Verify};
pub use path::IndexPath;
pub use client::{ChainClient, IndexClient, IndexClientOptions, MAX_RANGE};
pub use range::{FollowSpec, RangeSpec};
