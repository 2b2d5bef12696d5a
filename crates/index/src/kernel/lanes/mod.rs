//! Lanes of `f32`: the one vocabulary the neighbour kernel is written in. Each instruction set
//! supplies the operations (`Scalar`: eight as plain arrays, every target; `Sse2` and `Neon`
//! and `Wasm`: eight in two 4-lane registers; `Avx`: eight in one register; `Avx512`: sixteen
//! in one register, with AVX-512's mask registers), and the kernel (`super::hoods`) is generic over
//! them.
//!
//! Every operation is one IEEE-754 operation per lane, correctly rounded (add, subtract,
//! multiply, divide, square root), or exact (compares, bitwise selects, integer counts): no
//! fused multiply-add, no estimate, nothing across lanes. So every implementation gives the
//! same bits for the same inputs.
//!
//! Values of the SIMD types exist only inside functions compiled for their instruction set
//! (`#[target_feature]` wrappers in `super`, entered only after the CPU was checked, or
//! features that are part of the target's baseline): that is what makes the intrinsics in this
//! file sound to call.
#![allow(
    unsafe_code,
    reason = "SIMD intrinsics of the measured hot loop; see the module documentation"
)]

/// [`Lanes::W`] lanes of `f32` (8 or 16) and their masks.
pub(crate) trait Lanes: Copy {
    /// Lane masks: every bit set (true) or clear (false), or one bit a lane.
    type M: Copy;
    /// Per-lane `u32` counters.
    type C: Copy;
    /// Lanes: 8, or 16 (AVX-512).
    const W: usize = 8;
    /// `true` when a masked add is one instruction (AVX-512): the kernel then masks each sum
    /// ([`Lanes::acc`]); otherwise it zeroes each term once and adds it unmasked, which gives
    /// the same bits (see [`Lanes::acc`]) in fewer operations.
    const MASKED: bool = false;
    /// Whether any lane of `m` is set.
    fn any(m: Self::M) -> bool;
    /// Every lane `x`.
    fn splat(x: f32) -> Self;
    /// `W` consecutive floats from `p`.
    ///
    /// # Safety
    /// `p..p + W` must be readable.
    unsafe fn load(p: *const f32) -> Self;
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
    /// `self * o`.
    fn mul(self, o: Self) -> Self;
    /// `self / o`.
    fn div(self, o: Self) -> Self;
    /// `√self`.
    fn sqrt(self) -> Self;
    /// The larger of `self` and `o`, lane by lane (the kernel never passes a NaN here).
    fn max(self, o: Self) -> Self;
    /// `self < o` (false when either is NaN).
    fn lt(self, o: Self) -> Self::M;
    /// `self > o` (false when either is NaN).
    fn gt(self, o: Self) -> Self::M;
    /// `self > o` in the lanes of `m`, false elsewhere (one masked compare where the
    /// instruction set has them).
    #[inline(always)]
    fn gt_in(self, o: Self, m: Self::M) -> Self::M {
        Self::and(m, self.gt(o))
    }
    /// `self` where `m`, `+0.0` elsewhere.
    fn keep(self, m: Self::M) -> Self;
    /// `a` where `m`, `b` elsewhere.
    fn select(m: Self::M, a: Self, b: Self) -> Self;
    /// `a & b`.
    fn and(a: Self::M, b: Self::M) -> Self::M;
    /// The mask of every lane but `k` (all when `k` is not in `0..W`).
    fn except(k: i32) -> Self::M;
    /// Per-lane counters, all zero.
    fn zero_count() -> Self::C;
    /// `c + 1` in the lanes of `m`.
    fn tally(c: Self::C, m: Self::M) -> Self::C;
    /// The counters lane by lane, into `out[..W]`.
    fn store_counts(c: Self::C, out: &mut [u32; 16]);
    /// The lanes, into `out[..W]`.
    fn store(self, out: &mut [f32; 16]);
    /// `self + x` in the lanes of `m`, `self` elsewhere: the same bits as
    /// `self.add(x.keep(m))` for a sum that never holds `-0.0` (a sum that starts at `+0.0`
    /// and adds correctly rounded terms never does), in one masked operation where the
    /// instruction set has them.
    #[inline(always)]
    fn acc(self, x: Self, m: Self::M) -> Self {
        self.add(x.keep(m))
    }
    /// `self - x` in the lanes of `m`, `self` elsewhere (as [`Lanes::acc`]: subtracting
    /// `+0.0` changes no sum).
    #[inline(always)]
    fn dec(self, x: Self, m: Self::M) -> Self {
        self.sub(x.keep(m))
    }
}

// ---------------------------------------------------------------------------------------------
// Plain arrays: every target (the reference; LLVM may vectorize the loops, which changes no
// bits: each lane is the same IEEE operation).

/// Eight lanes as a plain array.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scalar(pub(crate) [f32; 8]);

macro_rules! each {
    (|$l:ident| $e:expr) => {{
        let mut r = [Default::default(); 8];
        let mut $l = 0;
        while $l < 8 {
            r[$l] = $e;
            $l += 1;
        }
        r
    }};
}

impl Lanes for Scalar {
    type M = [u32; 8];
    type C = [u32; 8];
    #[inline(always)]
    fn any(m: [u32; 8]) -> bool {
        m.iter().fold(0, |a, &x| a | x) != 0
    }
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Scalar([x; 8])
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller guarantees 8 readable floats.
        Scalar(unsafe { p.cast::<[f32; 8]>().read_unaligned() })
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Scalar(each!(|l| self.0[l] + o.0[l]))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Scalar(each!(|l| self.0[l] - o.0[l]))
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Scalar(each!(|l| self.0[l] * o.0[l]))
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        Scalar(each!(|l| self.0[l] / o.0[l]))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Scalar(each!(|l| self.0[l].sqrt()))
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Scalar(each!(|l| if self.0[l] > o.0[l] {
            self.0[l]
        } else {
            o.0[l]
        }))
    }
    #[inline(always)]
    fn lt(self, o: Self) -> [u32; 8] {
        each!(|l| if self.0[l] < o.0[l] { !0 } else { 0 })
    }
    #[inline(always)]
    fn gt(self, o: Self) -> [u32; 8] {
        each!(|l| if self.0[l] > o.0[l] { !0 } else { 0 })
    }
    #[inline(always)]
    fn keep(self, m: [u32; 8]) -> Self {
        Scalar(each!(|l| f32::from_bits(self.0[l].to_bits() & m[l])))
    }
    #[inline(always)]
    fn select(m: [u32; 8], a: Self, b: Self) -> Self {
        Scalar(each!(|l| f32::from_bits(
            (a.0[l].to_bits() & m[l]) | (b.0[l].to_bits() & !m[l])
        )))
    }
    #[inline(always)]
    fn and(a: [u32; 8], b: [u32; 8]) -> [u32; 8] {
        each!(|l| a[l] & b[l])
    }
    #[inline(always)]
    fn except(k: i32) -> [u32; 8] {
        each!(|l| if (l as i32) != k { !0 } else { 0 })
    }
    #[inline(always)]
    fn zero_count() -> [u32; 8] {
        [0; 8]
    }
    #[inline(always)]
    fn tally(c: [u32; 8], m: [u32; 8]) -> [u32; 8] {
        each!(|l| c[l].wrapping_sub(m[l]))
    }
    #[inline(always)]
    fn store_counts(c: [u32; 8], out: &mut [u32; 16]) {
        out[..8].copy_from_slice(&c);
    }
    #[inline(always)]
    fn store(self, out: &mut [f32; 16]) {
        out[..8].copy_from_slice(&self.0);
    }
}

// ---------------------------------------------------------------------------------------------
// x86-64: SSE2 (baseline) and AVX2.

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx, Avx512, Sse2};

#[cfg(target_arch = "x86_64")]
mod x86;

// ---------------------------------------------------------------------------------------------
// aarch64: NEON (baseline).

#[cfg(target_arch = "aarch64")]
pub(crate) use arm::Neon;

#[cfg(target_arch = "aarch64")]
mod arm;

// ---------------------------------------------------------------------------------------------
// WebAssembly simd128 (compiled in when the build enables it: `scripts/web` does).

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use web::Wasm;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod web;
