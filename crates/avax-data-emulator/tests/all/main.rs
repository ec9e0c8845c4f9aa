//! The integration tests of the emulator, in one test binary: each service over real HTTP.

mod common;
mod cworld36_digest;
mod cworld36_erc1155;
mod emulator_data_api;
mod emulator_faults;
mod emulator_index;
mod emulator_metrics_api;
mod pnet36;
mod px36_primary;
mod route36;
mod stake36;
mod world36_clock;
mod world36_shapes;
mod xchain36;
