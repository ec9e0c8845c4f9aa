//! CB58 text of 32-byte ids written onto the stack, for columns that encode one id a row
//! (`inner_id`, parent ids that are not the previous container's).
//!
//! `bs58` divides the whole number by 58 once per output digit, a byte at a time; here the
//! 36 bytes (id and checksum) are nine 32-bit limbs divided by 58^5 per pass, each remainder
//! giving five digits: about a tenth of the divisions. The text is the same (a test compares
//! it with `bs58` over many ids, leading zero bytes included).

use crate::index::cb58::checksum;

/// The base58 alphabet (Bitcoin's, which CB58 uses).
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// 58^5, the largest power of 58 below 2^32.
const BASE5: u64 = 58 * 58 * 58 * 58 * 58;

/// The longest CB58 text of a 32-byte id: 36 bytes take at most 50 digits (36·8 / log2 58).
pub const MAX_ID_TEXT: usize = 50;

/// Writes the CB58 text of `id` (its bytes, then the last 4 bytes of their sha256, in base58)
/// into `out`; returns its length.
pub fn encode_id(id: &[u8; 32], out: &mut [u8; MAX_ID_TEXT]) -> usize {
    let mut bytes = [0u8; 36];
    bytes[..32].copy_from_slice(id);
    bytes[32..].copy_from_slice(&checksum(id));
    let zeros = bytes.iter().take_while(|b| **b == 0).count();
    let mut limbs = [0u32; 9];
    for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(4)) {
        *limb = u32::from_be_bytes(chunk.try_into().expect("4 bytes"));
    }
    // Digits, least significant first; every pass divides the number by 58^5.
    let mut digits = [0u8; MAX_ID_TEXT + 5];
    let mut n = 0;
    let mut first = limbs.iter().position(|l| *l != 0).unwrap_or(limbs.len());
    while first < limbs.len() {
        let mut rem = 0u64;
        for limb in &mut limbs[first..] {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / BASE5) as u32;
            rem = cur % BASE5;
        }
        for _ in 0..5 {
            digits[n] = (rem % 58) as u8;
            rem /= 58;
            n += 1;
        }
        while first < limbs.len() && limbs[first] == 0 {
            first += 1;
        }
    }
    // The last pass may leave zero digits on top: the number's own zeros are the leading bytes.
    while n > 0 && digits[n - 1] == 0 {
        n -= 1;
    }
    let len = zeros + n;
    out[..zeros].fill(ALPHABET[0]);
    for (slot, digit) in out[zeros..len].iter_mut().zip(digits[..n].iter().rev()) {
        *slot = ALPHABET[usize::from(*digit)];
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(id: &[u8; 32]) -> String {
        let mut out = [0u8; MAX_ID_TEXT];
        let n = encode_id(id, &mut out);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    #[test]
    fn ids_encode_as_bs58_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut ids = vec![[0u8; 32], [0xff; 32], [1; 32]];
        for zeros in 0..=32 {
            let mut id = [0u8; 32];
            for b in &mut id[zeros..] {
                *b = next() as u8;
            }
            if zeros < 32 {
                id[zeros] |= 1; // exactly `zeros` leading zero bytes
            }
            ids.push(id);
        }
        for _ in 0..2_000 {
            let mut id = [0u8; 32];
            for chunk in id.chunks_exact_mut(8) {
                chunk.copy_from_slice(&next().to_le_bytes());
            }
            ids.push(id);
        }
        for id in &ids {
            assert_eq!(text(id), bs58::encode(id).as_cb58(None).into_string(), "{id:?}");
        }
        // A known id: the C-Chain's id on Mainnet.
        let c_chain =
            bs58::decode("2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5").as_cb58(None).into_vec().unwrap();
        assert_eq!(text(&c_chain.try_into().unwrap()), "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5");
    }
}
