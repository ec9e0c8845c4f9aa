//! The four-message paths against the one-message keccak256 (CRYPTOGAMS' assembly through
//! `keccak-asm`, the path every hash took before): published digests, every length 0..600 (the
//! rate, 136, and its multiples among them) in every lane, lanes of different lengths, and the
//! batch handing out every hash once under its id. A path this CPU lacks runs as the scalar one,
//! so the comparisons hold (and are trivial) there; `x4_paths_this_cpu_runs` says which ran.

use avax_data_keccak::{blocks, keccak256, keccak256_each, keccak256_x4, keccak256_x4_on, Batch, Path, RATE};

const PATHS: [Path; 3] = [Path::Scalar, Path::Avx2, Path::Avx512];

/// A reproducible byte stream (xorshift64*), so a failure names a length that fails again.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
    }

    fn take(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next()).collect()
    }
}

fn hex(digest: [u8; 32]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(not(target_arch = "x86_64"))]
#[test]
fn off_x86_64_every_path_is_the_scalar_one() {
    assert_eq!(Path::detect(), Path::Scalar);
    assert!(!Path::Avx2.available() && !Path::Avx512.available());
}

#[cfg(target_arch = "x86_64")]
#[test]
fn x4_paths_this_cpu_runs() {
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    let avx512 =
        avx2 && std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512vl");
    assert!(Path::Scalar.available());
    assert_eq!(Path::Avx2.available(), avx2);
    assert_eq!(Path::Avx512.available(), avx512);
    let expected = if avx512 {
        Path::Avx512
    } else if avx2 {
        Path::Avx2
    } else {
        Path::Scalar
    };
    assert_eq!(Path::detect(), expected);
    for path in PATHS {
        let batch = Batch::on(path);
        assert_eq!(batch.path(), if path.available() { path } else { Path::Scalar });
    }
    eprintln!("four-message paths on this CPU: avx2 {avx2}, avx512 {avx512}; detected {:?}", Path::detect());
}

#[test]
fn published_digests_on_every_path() {
    // Keccak-256 (Ethereum's padding), not SHA3-256 (whose digest of "" is a7ffc6f8...).
    let empty = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
    let abc = "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45";
    let two_blocks = vec![b'a'; 200];
    for path in PATHS {
        let out = keccak256_x4_on(path, [b"", b"abc", &two_blocks, b""]);
        assert_eq!(hex(out[0]), empty, "{path:?}");
        assert_eq!(hex(out[1]), abc, "{path:?}");
        assert_eq!(out[2], keccak256(&two_blocks), "{path:?}");
        assert_eq!(hex(out[3]), empty, "{path:?}");
    }
    assert_eq!(hex(keccak256(b"")), empty);
    assert_eq!(hex(keccak256(b"abc")), abc);
}

#[test]
fn every_length_to_600_in_every_lane_equals_one_at_a_time() {
    let mut bytes = Bytes(0x9e37_79b9_7f4a_7c15);
    for len in 0..600 {
        // The length under test in each lane in turn, the other lanes of other lengths
        // (shorter, longer by a block, one off the rate).
        for lane in 0..4 {
            let others = [len / 2, len + RATE, (len + RATE - 1) % 700];
            let messages: Vec<Vec<u8>> =
                (0..4).map(|k| bytes.take(if k == lane { len } else { others[k % 3] })).collect();
            let refs: [&[u8]; 4] = core::array::from_fn(|k| messages[k].as_slice());
            let one_at_a_time = keccak256_each(refs);
            for (k, message) in messages.iter().enumerate() {
                assert_eq!(one_at_a_time[k], keccak256(message));
            }
            for path in PATHS {
                assert_eq!(keccak256_x4_on(path, refs), one_at_a_time, "{path:?}, length {len} in lane {lane}");
            }
            assert_eq!(keccak256_x4(refs), one_at_a_time, "detected path, length {len} in lane {lane}");
        }
    }
}

#[test]
fn lengths_at_and_around_the_rate_and_its_multiples() {
    let mut bytes = Bytes(7);
    for multiple in 1..=5 {
        for len in [multiple * RATE - 2, multiple * RATE - 1, multiple * RATE, multiple * RATE + 1] {
            // All four lanes the same length: the case that takes no extra permutation.
            let messages: Vec<Vec<u8>> = (0..4).map(|_| bytes.take(len)).collect();
            let refs: [&[u8]; 4] = core::array::from_fn(|k| messages[k].as_slice());
            for path in PATHS {
                assert_eq!(keccak256_x4_on(path, refs), keccak256_each(refs), "{path:?}, length {len}");
            }
            assert_eq!(blocks(len), len / RATE + 1);
        }
    }
    // A tail of RATE - 1 bytes takes its padding in one byte (0x81).
    assert_eq!(blocks(RATE - 1), 1);
    assert_eq!(blocks(RATE), 2);
}

#[test]
fn a_batch_hands_out_every_hash_once_under_its_id() {
    let mut bytes = Bytes(42);
    for count in [0usize, 1, 2, 3, 4, 5, 7, 9, 16, 21, 40, 97] {
        // Lengths of every group: one to five blocks and more, like a block's header and
        // transactions.
        let messages: Vec<Vec<u8>> = (0..count)
            .map(|k| {
                let len = (bytes.next() as usize * 3 + k * 17) % (7 * RATE);
                bytes.take(len)
            })
            .collect();
        for path in PATHS {
            let mut seen: Vec<Option<[u8; 32]>> = vec![None; count];
            let mut record = |id: usize, hash: [u8; 32]| {
                assert!(seen[id].is_none(), "{path:?}: id {id} handed out twice");
                seen[id] = Some(hash);
            };
            let mut batch = Batch::on(path);
            for (id, message) in messages.iter().enumerate() {
                batch.push(id, message, &mut record);
            }
            batch.finish(&mut record);
            for (id, message) in messages.iter().enumerate() {
                assert_eq!(seen[id], Some(keccak256(message)), "{path:?}: {count} messages, id {id}");
            }
        }
    }
}

#[test]
fn a_batch_hands_out_a_group_as_soon_as_it_has_four() {
    let messages: Vec<Vec<u8>> = (0..4).map(|k| vec![k as u8; 100]).collect();
    for path in PATHS {
        let mut out = Vec::new();
        let mut batch = Batch::on(path);
        for (id, message) in messages.iter().enumerate() {
            batch.push(id, message, &mut |id, hash| out.push((id, hash)));
        }
        // Four messages of one block each: all handed out before `finish`.
        assert_eq!(out.len(), 4, "{path:?}");
        batch.finish(&mut |_, _| panic!("nothing left"));
        out.sort();
        let expected: Vec<_> = messages.iter().enumerate().map(|(id, m)| (id, keccak256(m))).collect();
        assert_eq!(out, expected, "{path:?}");
    }
}
