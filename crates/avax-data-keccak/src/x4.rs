//! keccak256 of four messages at once: `keccak::keccak_p` (RustCrypto's generic Keccak-p) over
//! [`Lanes4`](crate::lanes), inlined into a function compiled for AVX-512VL or for AVX2 and
//! chosen at run time (`is_x86_feature_detected!`). Without either (or off x86_64) each message
//! goes through the one-message [`keccak256`], the path every hash took before.
//!
//! The sponge is Ethereum's Keccak-256: rate 136 bytes, padding `0x01 … 0x80` (not SHA3's
//! `0x06`). The four messages may differ in length: each lane absorbs its own blocks, a lane
//! that has absorbed its last block has its digest read right after that block's permutation,
//! and the permutations after that change only its state, which nobody reads. A call costs the
//! permutations of its longest message, so a caller groups messages of the same number of
//! blocks ([`crate::Batch`] does).

use crate::keccak256;

/// Bytes a Keccak-256 block absorbs (1600 − 2·256 bits).
pub const RATE: usize = 136;

/// The number of Keccak blocks (permutations) keccak256 of `len` bytes costs.
pub fn blocks(len: usize) -> usize {
    len / RATE + 1
}

/// Which code hashes four messages at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// One message at a time (`keccak-asm`): CPUs without AVX2, and other architectures.
    Scalar,
    /// The four-lane permutation compiled for AVX2 (VEX-encoded SSE lanes, 16 registers).
    Avx2,
    /// The four-lane permutation compiled for AVX-512F and AVX-512VL (`vprolq`, `vpternlogq`,
    /// 32 registers).
    Avx512,
}

impl Path {
    /// The fastest path this CPU runs (the feature check is cached by the standard library).
    pub fn detect() -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vl") {
                    return Path::Avx512;
                }
                return Path::Avx2;
            }
        }
        Path::Scalar
    }

    /// Whether this CPU runs `self` (always for [`Path::Scalar`]).
    pub fn available(self) -> bool {
        match self {
            Path::Scalar => true,
            Path::Avx2 => Path::detect() != Path::Scalar,
            Path::Avx512 => Path::detect() == Path::Avx512,
        }
    }
}

/// keccak256 of four messages, on the fastest path this CPU has ([`Path::detect`]).
pub fn keccak256_x4(messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    keccak256_x4_on(Path::detect(), messages)
}

/// keccak256 of four messages on `path`; a path this CPU lacks runs as [`Path::Scalar`] (the
/// same hashes, one message at a time).
pub fn keccak256_x4_on(path: Path, messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    #[cfg(target_arch = "x86_64")]
    if path.available() {
        match path {
            // SAFETY: the CPU has AVX2, AVX-512F and AVX-512VL (`available`), all `sponge_avx512` needs.
            Path::Avx512 => return unsafe { sponge_avx512(messages) },
            // SAFETY: the CPU has AVX2 (`available`), all `sponge_avx2` needs.
            Path::Avx2 => return unsafe { sponge_avx2(messages) },
            Path::Scalar => {}
        }
    }
    let _ = path;
    keccak256_each(messages)
}

/// keccak256 of four messages one at a time (the scalar path).
pub fn keccak256_each(messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    messages.map(keccak256)
}

#[cfg(target_arch = "x86_64")]
const AVX2: u8 = 1;
#[cfg(target_arch = "x86_64")]
const AVX512: u8 = 2;

/// The four-lane sponge compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sponge_avx2(messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    sponge::<AVX2>(messages)
}

/// The four-lane sponge compiled for AVX-512F and AVX-512VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn sponge_avx512(messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    sponge::<AVX512>(messages)
}

/// The sponge over four lanes: each step XORs the next block of every message that has one into
/// its lane, permutes, and reads the digest of each message whose last block that was.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sponge<const PATH: u8>(messages: [&[u8]; 4]) -> [[u8; 32]; 4] {
    use crate::lanes::Lanes4;
    let counts = messages.map(|m| blocks(m.len()));
    let steps = counts.iter().copied().max().unwrap_or(1);
    let mut state = [Lanes4::<PATH>::default(); 25];
    let mut out = [[0u8; 32]; 4];
    for step in 0..steps {
        let words: [[u64; RATE / 8]; 4] =
            core::array::from_fn(
                |lane| if step < counts[lane] { block_words(messages[lane], step) } else { [0; RATE / 8] },
            );
        for (word, lanes) in state.iter_mut().take(RATE / 8).enumerate() {
            *lanes ^= Lanes4::from_array([words[0][word], words[1][word], words[2][word], words[3][word]]);
        }
        keccak::keccak_p(&mut state, 24);
        for (lane, digest) in out.iter_mut().enumerate() {
            if step + 1 == counts[lane] {
                for (word, chunk) in digest.chunks_exact_mut(8).enumerate() {
                    chunk.copy_from_slice(&state[word].to_array()[lane].to_le_bytes());
                }
            }
        }
    }
    out
}

/// Block `step` of `message` as little-endian words, padded when it is the last one.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_words(message: &[u8], step: usize) -> [u64; RATE / 8] {
    let start = step * RATE;
    let block: [u8; RATE] = match message.get(start..start + RATE) {
        Some(full) => full.try_into().expect("RATE bytes"),
        None => {
            // The last block: the tail, then Keccak's padding `0x01 0x00 … 0x80` (one byte 0x81
            // when the tail is RATE − 1 bytes long).
            let tail = &message[start..];
            let mut padded = [0u8; RATE];
            padded[..tail.len()].copy_from_slice(tail);
            padded[tail.len()] ^= 0x01;
            padded[RATE - 1] ^= 0x80;
            padded
        }
    };
    core::array::from_fn(|word| u64::from_le_bytes(block[word * 8..word * 8 + 8].try_into().expect("8 bytes")))
}
