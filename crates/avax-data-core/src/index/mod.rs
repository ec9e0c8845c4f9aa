//! The node's Index RPC: paths, container model, JSON-RPC calls and range walks.

pub mod bounds;
pub mod cb58;
pub mod chunk;
pub mod client;
pub mod columns;
pub mod container;
pub mod cursor;
pub mod feed;
pub mod path;
pub mod piece;
pub mod range;
pub mod rpc;
pub mod walk;

pub use client::{ChainClient, IndexClient, IndexClientOptions, MAX_RANGE};
pub use columns::ContainerColumns;
pub use container::{Container, Verify};
pub use path::IndexPath;
pub use piece::RangePiece;
pub use range::{FollowSpec, RangeSpec};
pub use walk::{FollowWalk, RangeWalk};
