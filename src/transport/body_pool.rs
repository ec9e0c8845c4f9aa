//! Spare buffers of earlier answers' bodies, so that the next answer is read into memory
//! already touched: a fresh buffer of megabytes (a range of large containers) costs the kernel a
//! page fault and a page clear for every 4 KiB of it, more than copying the body itself.

use std::sync::Mutex;

use bytes::{Bytes, BytesMut};

/// At most this many spare buffers are kept (about the calls in flight).
const KEEP: usize = 4;

/// Buffers larger than this are let go rather than kept.
const MAX_KEPT_BYTES: usize = 16 << 20;

/// A few spare body buffers of one transport.
#[derive(Debug, Default)]
pub struct BodyPool {
    spare: Mutex<Vec<BytesMut>>,
}

impl BodyPool {
    /// An empty buffer with room for at least `hint` bytes: a spare one when there is one.
    pub fn take(&self, hint: usize) -> BytesMut {
        let spare = self.spare.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match spare {
            Some(mut buffer) => {
                buffer.clear();
                buffer.reserve(hint);
                buffer
            }
            None => BytesMut::with_capacity(hint),
        }
    }

    /// Takes back the buffer of a body read with [`take`](Self::take), if nothing else holds it
    /// and it is not too large; otherwise it is simply dropped.
    pub fn give(&self, body: Bytes) {
        let Ok(mut buffer) = body.try_into_mut() else { return };
        if buffer.capacity() == 0 || buffer.capacity() > MAX_KEPT_BYTES {
            return;
        }
        buffer.clear();
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        if spare.len() < KEEP {
            spare.push(buffer);
        }
    }

    /// How many spare buffers are kept.
    pub fn spare(&self) -> usize {
        self.spare.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_given_back_is_reused_for_the_next_answer() {
        let pool = BodyPool::default();
        let mut first = pool.take(1000);
        first.extend_from_slice(&[7; 1000]);
        let at = first.as_ptr();
        pool.give(first.freeze());
        assert_eq!(pool.spare(), 1);
        let next = pool.take(500);
        assert!(next.is_empty());
        assert!(next.capacity() >= 1000);
        assert_eq!(next.as_ptr(), at, "the same memory");
        assert_eq!(pool.spare(), 0);
    }

    #[test]
    fn shared_huge_or_surplus_bodies_are_not_kept() {
        let pool = BodyPool::default();
        let mut shared = pool.take(10);
        shared.extend_from_slice(b"0123456789");
        let shared = shared.freeze();
        let held = shared.slice(2..4);
        pool.give(shared);
        assert_eq!(pool.spare(), 0, "still held elsewhere");
        assert_eq!(&held[..], b"23");
        pool.give(BytesMut::with_capacity(MAX_KEPT_BYTES + 1).freeze());
        assert_eq!(pool.spare(), 0, "too large");
        for _ in 0..KEEP + 2 {
            let mut b = BytesMut::with_capacity(64);
            b.extend_from_slice(b"x");
            pool.give(b.freeze());
        }
        assert_eq!(pool.spare(), KEEP);
        let mut grown = pool.take(4096);
        assert!(grown.capacity() >= 4096);
        grown.extend_from_slice(&[1; 4096]);
    }
}
