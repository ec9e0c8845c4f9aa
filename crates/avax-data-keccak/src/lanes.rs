//! The lane type of the four-message permutation: one 64-bit Keccak lane of each message, two
//! in each of two SSE2 registers, with the operations `keccak::keccak_p` needs. SSE2 is part of
//! every x86_64 CPU, so these operations inline anywhere; compiled inside a function that
//! enables AVX2 they take the three-operand VEX forms, inside one that enables AVX-512VL the
//! 64-bit rotate (`vprolq`), the three-input logic (`vpternlogq`) and 32 registers instead of
//! 16 (src/x4.rs).
//!
//! `PATH` only tells the instruction sets apart: each path gets its own instantiation of
//! `keccak_p`, called from exactly one place, so the compiler inlines it there.

use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cvtsi32_si128, _mm_or_si128, _mm_set1_epi64x, _mm_sll_epi64, _mm_srl_epi64,
    _mm_xor_si128,
};

/// Four Keccak lanes, one of each message: messages 0 and 1 in the first register.
#[derive(Clone, Copy)]
pub(crate) struct Lanes4<const PATH: u8>(__m128i, __m128i);

impl<const PATH: u8> Lanes4<PATH> {
    /// The four lanes as integers, message 0 first.
    #[inline(always)]
    pub(crate) fn to_array(self) -> [u64; 4] {
        // SAFETY: two `__m128i` are 32 plain bytes, as are four `u64`.
        unsafe { core::mem::transmute::<[__m128i; 2], [u64; 4]>([self.0, self.1]) }
    }

    /// Lanes holding `words`, message 0 first.
    #[inline(always)]
    pub(crate) fn from_array(words: [u64; 4]) -> Self {
        // SAFETY: as in `to_array`.
        let [low, high] = unsafe { core::mem::transmute::<[u64; 4], [__m128i; 2]>(words) };
        Lanes4(low, high)
    }
}

impl<const PATH: u8> Default for Lanes4<PATH> {
    #[inline(always)]
    fn default() -> Self {
        Lanes4::from_array([0; 4])
    }
}

impl<const PATH: u8> PartialEq for Lanes4<PATH> {
    fn eq(&self, other: &Self) -> bool {
        self.to_array() == other.to_array()
    }
}

impl<const PATH: u8> core::fmt::Debug for Lanes4<PATH> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Lanes4({:x?})", self.to_array())
    }
}

/// A lane-wise operator and its assigning form from one SSE2 instruction.
macro_rules! lanewise {
    ($op:ident, $method:ident, $assign_op:ident, $assign:ident, $instruction:ident) => {
        impl<const PATH: u8> core::ops::$op for Lanes4<PATH> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, o: Self) -> Self {
                // SAFETY: SSE2, present on every x86_64 CPU.
                unsafe { Lanes4($instruction(self.0, o.0), $instruction(self.1, o.1)) }
            }
        }

        impl<const PATH: u8> core::ops::$assign_op for Lanes4<PATH> {
            #[inline(always)]
            fn $assign(&mut self, o: Self) {
                *self = core::ops::$op::$method(*self, o);
            }
        }
    };
}

lanewise!(BitXor, bitxor, BitXorAssign, bitxor_assign, _mm_xor_si128);
lanewise!(BitAnd, bitand, BitAndAssign, bitand_assign, _mm_and_si128);

impl<const PATH: u8> core::ops::Not for Lanes4<PATH> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: SSE2, present on every x86_64 CPU.
        unsafe {
            let ones = _mm_set1_epi64x(-1);
            Lanes4(_mm_xor_si128(self.0, ones), _mm_xor_si128(self.1, ones))
        }
    }
}

impl<const PATH: u8> keccak::LaneSize for Lanes4<PATH> {
    const KECCAK_F_ROUND_COUNT: usize = 24;

    #[inline(always)]
    fn truncate_rc(rc: u64) -> Self {
        Lanes4::from_array([rc; 4])
    }

    #[inline(always)]
    fn rotate_left(self, n: u32) -> Self {
        // `n` is one of Keccak's constant offsets (1..=62) once inlined, so both shifts take an
        // immediate (and AVX-512VL makes the pair one `vprolq`).
        // SAFETY: SSE2, present on every x86_64 CPU.
        unsafe {
            let left = _mm_cvtsi32_si128(n as i32);
            let right = _mm_cvtsi32_si128(64 - n as i32);
            let rotate = |x| _mm_or_si128(_mm_sll_epi64(x, left), _mm_srl_epi64(x, right));
            Lanes4(rotate(self.0), rotate(self.1))
        }
    }
}
