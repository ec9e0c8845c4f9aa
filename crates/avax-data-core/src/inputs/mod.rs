//! One set of rules for the inputs every entry point takes: a chain id ([`chain`]), a network
//! ([`network`]), a time ([`time`]), the ids and addresses parameters name ([`ids`]) and words
//! of a fixed set ([`choice`], with a did-you-mean). The Python bindings only turn a Python
//! value into one of the enums here and the CLI passes its text; the operation table gives every
//! parameter its rule; the same value gives the same request and the same error (naming the
//! parameter, the value and what is allowed) everywhere, generated method or hand-written.
//!
//! ```
//! use avax_data_core::inputs::{chain_id, unix_seconds, ChainIdInput, TimeInput};
//!
//! let text = TimeInput::Text("2024-01-01".into());
//! let number = TimeInput::UnixSeconds(1_704_067_200);
//! assert_eq!(unix_seconds("start", &text).unwrap(), unix_seconds("start", &number).unwrap());
//! assert_eq!(chain_id("chain_id", &ChainIdInput::Int(43114)).unwrap(), "43114");
//! ```

pub mod chain;
pub mod choice;
pub mod ids;
pub mod network;
pub mod time;

pub use chain::{chain_id, chain_id_shown, ChainIdInput, CHAIN_ID_ALLOWED};
pub use choice::{near, one_of, one_of_allowed};
pub use ids::{address_hrps, is_cb58_id, is_decimal, is_hex, IdKind, MAX_CB58_LEN, MAX_DECIMAL_LEN};
pub use network::{network, NETWORKS};
pub use time::{unix_seconds, unix_seconds_shown, TimeInput, MAX_TIME, TIME_ALLOWED};
