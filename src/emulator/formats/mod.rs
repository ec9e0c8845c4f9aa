//! Real-format containers for the emulator's index: coreth blocks ([`coreth`]), proposervm
//! envelopes ([`proposervm`]) and the checkpoint cache that makes hash chains cheap to revisit
//! ([`chain_cache`]).

pub mod cchain;
pub mod chain_cache;
pub mod coreth;
pub mod proposervm;
pub mod test_key;
