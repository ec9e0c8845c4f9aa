//! Pure encoders of real-format inner containers from the emulator's world: platformvm blocks
//! (`P/block` inner bytes, [`pchain`]) and AVM transactions and standard blocks (`X/tx`, `X/block`
//! inner bytes, [`xchain`]), laid out as FORMATS.md §2, §5 and §6 describe, on the shared
//! linear-codec writer [`avax_codec`].

pub mod avax_codec;
pub mod pchain;
pub mod ptx;
pub mod stakes;
pub mod xchain;

#[cfg(test)]
mod pchain_tests;
#[cfg(test)]
mod test_json;
#[cfg(test)]
mod walk;
#[cfg(test)]
mod xchain_tests;
