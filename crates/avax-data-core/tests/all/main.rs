//! The integration tests of the core, in one test binary (one link instead of one per file):
//! the clients, walks, transport, decoders and datasets against the emulator and scripted servers.

mod block_shards;
mod data_batches;
mod dataset;
mod decode_frame_c;
mod decode_fuzz_c;
mod decode_px_vectors;
mod decode_vectors_c;
mod fuzz_endpoints;
mod id_rules;
mod index_client;
mod index_node;
mod input_rules;
mod invalid_values;
mod keccak37_paths;
mod parquet_stop;
mod range_faults;
mod range_properties;
mod range_stop;
mod rate_limits;
mod reconcile36;
mod scripted;
mod time_shards;
mod transport;
mod transport_hardening;
