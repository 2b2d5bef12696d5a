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
    /// `true` when the kernel skips a candidate no lane has within its radius: a branch that
    /// pays where a candidate costs many instructions (WebAssembly, two registers a value:
    /// 10,000 boids 5.3-5.4 -> 4.7-4.8 ms a step under Node) and not where it costs few (AVX2,
    /// AVX-512: 10-40 % slower, mispredicted). Skipping adds nothing that would change a sum.
    const SKIP: bool = false;
    /// Whether any lane of `m` is set (only called when [`Lanes::SKIP`]).
    #[inline(always)]
    fn any(_m: Self::M) -> bool {
        true
    }
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
mod x86 {
    use super::Lanes;
    use std::arch::x86_64::*;

    /// Eight lanes as two SSE2 registers (lanes 0-3, 4-7).
    #[derive(Clone, Copy)]
    pub(crate) struct Sse2(__m128, __m128);

    macro_rules! sse_pair {
        ($f:ident, $a:expr, $b:expr) => {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { Sse2($f($a.0, $b.0), $f($a.1, $b.1)) }
        };
    }

    impl Lanes for Sse2 {
        type M = (__m128, __m128);
        type C = (__m128, __m128);
        #[inline(always)]
        fn splat(x: f32) -> Self {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { Sse2(_mm_set1_ps(x), _mm_set1_ps(x)) }
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller guarantees 8 readable floats; SSE2 is baseline.
            unsafe { Sse2(_mm_loadu_ps(p), _mm_loadu_ps(p.add(4))) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            sse_pair!(_mm_add_ps, self, o)
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            sse_pair!(_mm_sub_ps, self, o)
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            sse_pair!(_mm_mul_ps, self, o)
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            sse_pair!(_mm_div_ps, self, o)
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { Sse2(_mm_sqrt_ps(self.0), _mm_sqrt_ps(self.1)) }
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            sse_pair!(_mm_max_ps, self, o)
        }
        #[inline(always)]
        fn lt(self, o: Self) -> Self::M {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { (_mm_cmplt_ps(self.0, o.0), _mm_cmplt_ps(self.1, o.1)) }
        }
        #[inline(always)]
        fn gt(self, o: Self) -> Self::M {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { (_mm_cmpgt_ps(self.0, o.0), _mm_cmpgt_ps(self.1, o.1)) }
        }
        #[inline(always)]
        fn keep(self, m: Self::M) -> Self {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { Sse2(_mm_and_ps(self.0, m.0), _mm_and_ps(self.1, m.1)) }
        }
        #[inline(always)]
        fn select(m: Self::M, a: Self, b: Self) -> Self {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe {
                Sse2(
                    _mm_or_ps(_mm_and_ps(m.0, a.0), _mm_andnot_ps(m.0, b.0)),
                    _mm_or_ps(_mm_and_ps(m.1, a.1), _mm_andnot_ps(m.1, b.1)),
                )
            }
        }
        #[inline(always)]
        fn and(a: Self::M, b: Self::M) -> Self::M {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { (_mm_and_ps(a.0, b.0), _mm_and_ps(a.1, b.1)) }
        }
        #[inline(always)]
        fn except(k: i32) -> Self::M {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe {
                let k = _mm_set1_epi32(k);
                let ones = _mm_set1_epi32(-1);
                let ne = |i: __m128i| _mm_castsi128_ps(_mm_xor_si128(_mm_cmpeq_epi32(k, i), ones));
                (
                    ne(_mm_setr_epi32(0, 1, 2, 3)),
                    ne(_mm_setr_epi32(4, 5, 6, 7)),
                )
            }
        }
        #[inline(always)]
        fn zero_count() -> Self::C {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe { (_mm_setzero_ps(), _mm_setzero_ps()) }
        }
        #[inline(always)]
        fn tally(c: Self::C, m: Self::M) -> Self::C {
            // SAFETY: SSE2 is part of the x86-64 baseline.
            unsafe {
                let sub = |a: __m128, b: __m128| {
                    _mm_castsi128_ps(_mm_sub_epi32(_mm_castps_si128(a), _mm_castps_si128(b)))
                };
                (sub(c.0, m.0), sub(c.1, m.1))
            }
        }
        #[inline(always)]
        fn store_counts(c: Self::C, out: &mut [u32; 16]) {
            // SAFETY: two registers of four u32 each into an array of eight.
            let c: [u32; 8] = unsafe { std::mem::transmute((c.0, c.1)) };
            out[..8].copy_from_slice(&c);
        }
        #[inline(always)]
        fn store(self, out: &mut [f32; 16]) {
            // SAFETY: two registers of four f32 each into an array of eight.
            let x: [f32; 8] = unsafe { std::mem::transmute((self.0, self.1)) };
            out[..8].copy_from_slice(&x);
        }
    }

    /// Eight lanes in one AVX register. Only inside functions compiled with AVX2 (or AVX-512)
    /// enabled.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx(__m256);

    macro_rules! avx {
        ($e:expr) => {
            // SAFETY: `Avx` values exist only in code compiled with AVX2 enabled, entered after
            // the CPU was checked (module documentation).
            unsafe { $e }
        };
    }

    impl Lanes for Avx {
        type M = __m256;
        type C = __m256;
        #[inline(always)]
        fn splat(x: f32) -> Self {
            avx!(Avx(_mm256_set1_ps(x)))
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller guarantees 8 readable floats; AVX as above.
            avx!(Avx(_mm256_loadu_ps(p)))
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            avx!(Avx(_mm256_add_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            avx!(Avx(_mm256_sub_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            avx!(Avx(_mm256_mul_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            avx!(Avx(_mm256_div_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            avx!(Avx(_mm256_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            avx!(Avx(_mm256_max_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn lt(self, o: Self) -> __m256 {
            avx!(_mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0))
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __m256 {
            avx!(_mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0))
        }
        #[inline(always)]
        fn keep(self, m: __m256) -> Self {
            avx!(Avx(_mm256_and_ps(self.0, m)))
        }
        #[inline(always)]
        fn select(m: __m256, a: Self, b: Self) -> Self {
            avx!(Avx(_mm256_blendv_ps(b.0, a.0, m)))
        }
        #[inline(always)]
        fn and(a: __m256, b: __m256) -> __m256 {
            avx!(_mm256_and_ps(a, b))
        }
        #[inline(always)]
        fn except(k: i32) -> __m256 {
            avx!(_mm256_castsi256_ps(_mm256_xor_si256(
                _mm256_cmpeq_epi32(
                    _mm256_set1_epi32(k),
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
                ),
                _mm256_set1_epi32(-1)
            )))
        }
        #[inline(always)]
        fn zero_count() -> __m256 {
            avx!(_mm256_setzero_ps())
        }
        #[inline(always)]
        fn tally(c: __m256, m: __m256) -> __m256 {
            avx!(_mm256_castsi256_ps(_mm256_sub_epi32(
                _mm256_castps_si256(c),
                _mm256_castps_si256(m)
            )))
        }
        #[inline(always)]
        fn store_counts(c: __m256, out: &mut [u32; 16]) {
            // SAFETY: one register of eight u32 into an array of eight.
            let c: [u32; 8] = unsafe { std::mem::transmute(c) };
            out[..8].copy_from_slice(&c);
        }
        #[inline(always)]
        fn store(self, out: &mut [f32; 16]) {
            // SAFETY: one register of eight f32 into an array of eight.
            let x: [f32; 8] = unsafe { std::mem::transmute(self.0) };
            out[..8].copy_from_slice(&x);
        }
    }

    /// Sixteen lanes in one AVX-512 register, with its mask registers (one bit a lane), so a
    /// masked sum is one masked add. Only inside functions compiled with AVX-512 (F, VL, BW,
    /// DQ) enabled.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx512(__m512);

    impl Lanes for Avx512 {
        type M = __mmask16;
        type C = __m512i;
        const W: usize = 16;
        const MASKED: bool = true;
        #[inline(always)]
        fn splat(x: f32) -> Self {
            avx!(Avx512(_mm512_set1_ps(x)))
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller guarantees 16 readable floats; AVX-512 as above.
            avx!(Avx512(_mm512_loadu_ps(p)))
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            avx!(Avx512(_mm512_add_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            avx!(Avx512(_mm512_sub_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            avx!(Avx512(_mm512_mul_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            avx!(Avx512(_mm512_div_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            avx!(Avx512(_mm512_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            avx!(Avx512(_mm512_max_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn lt(self, o: Self) -> __mmask16 {
            avx!(_mm512_cmp_ps_mask::<_CMP_LT_OQ>(self.0, o.0))
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __mmask16 {
            avx!(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, o.0))
        }
        #[inline(always)]
        fn gt_in(self, o: Self, m: __mmask16) -> __mmask16 {
            avx!(_mm512_mask_cmp_ps_mask::<_CMP_GT_OQ>(m, self.0, o.0))
        }
        #[inline(always)]
        fn keep(self, m: __mmask16) -> Self {
            avx!(Avx512(_mm512_maskz_mov_ps(m, self.0)))
        }
        #[inline(always)]
        fn select(m: __mmask16, a: Self, b: Self) -> Self {
            avx!(Avx512(_mm512_mask_blend_ps(m, b.0, a.0)))
        }
        #[inline(always)]
        fn and(a: __mmask16, b: __mmask16) -> __mmask16 {
            a & b
        }
        #[inline(always)]
        fn except(k: i32) -> __mmask16 {
            !(u16::from((k as u32) < 16) << (k & 15))
        }
        #[inline(always)]
        fn zero_count() -> __m512i {
            avx!(_mm512_setzero_si512())
        }
        #[inline(always)]
        fn tally(c: __m512i, m: __mmask16) -> __m512i {
            avx!(_mm512_mask_sub_epi32(c, m, c, _mm512_set1_epi32(-1)))
        }
        #[inline(always)]
        fn store_counts(c: __m512i, out: &mut [u32; 16]) {
            // SAFETY: one register of sixteen u32 into an array of sixteen.
            *out = unsafe { std::mem::transmute::<__m512i, [u32; 16]>(c) };
        }
        #[inline(always)]
        fn store(self, out: &mut [f32; 16]) {
            // SAFETY: one register of sixteen f32 into an array of sixteen.
            *out = unsafe { std::mem::transmute::<__m512, [f32; 16]>(self.0) };
        }
        #[inline(always)]
        fn acc(self, x: Self, m: __mmask16) -> Self {
            avx!(Avx512(_mm512_mask_add_ps(self.0, m, self.0, x.0)))
        }
        #[inline(always)]
        fn dec(self, x: Self, m: __mmask16) -> Self {
            avx!(Avx512(_mm512_mask_sub_ps(self.0, m, self.0, x.0)))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// aarch64: NEON (baseline).

#[cfg(target_arch = "aarch64")]
pub(crate) use arm::Neon;

#[cfg(target_arch = "aarch64")]
mod arm {
    use super::Lanes;
    use std::arch::aarch64::*;

    /// Eight lanes as two NEON registers (lanes 0-3, 4-7). AArch64's `vsqrtq_f32` and
    /// `vdivq_f32` round correctly; no `vfmaq` is used.
    #[derive(Clone, Copy)]
    pub(crate) struct Neon(float32x4_t, float32x4_t);

    macro_rules! neon {
        ($e:expr) => {
            // SAFETY: NEON is part of the aarch64 baseline.
            unsafe { $e }
        };
    }

    impl Lanes for Neon {
        type M = (uint32x4_t, uint32x4_t);
        type C = (uint32x4_t, uint32x4_t);
        #[inline(always)]
        fn splat(x: f32) -> Self {
            neon!(Neon(vdupq_n_f32(x), vdupq_n_f32(x)))
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller guarantees 8 readable floats; NEON is baseline.
            neon!(Neon(vld1q_f32(p), vld1q_f32(p.add(4))))
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            neon!(Neon(vaddq_f32(self.0, o.0), vaddq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            neon!(Neon(vsubq_f32(self.0, o.0), vsubq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            neon!(Neon(vmulq_f32(self.0, o.0), vmulq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            neon!(Neon(vdivq_f32(self.0, o.0), vdivq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            neon!(Neon(vsqrtq_f32(self.0), vsqrtq_f32(self.1)))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            neon!(Neon(vmaxq_f32(self.0, o.0), vmaxq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn lt(self, o: Self) -> Self::M {
            neon!((vcltq_f32(self.0, o.0), vcltq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn gt(self, o: Self) -> Self::M {
            neon!((vcgtq_f32(self.0, o.0), vcgtq_f32(self.1, o.1)))
        }
        #[inline(always)]
        fn keep(self, m: Self::M) -> Self {
            neon!(Neon(
                vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(self.0), m.0)),
                vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(self.1), m.1))
            ))
        }
        #[inline(always)]
        fn select(m: Self::M, a: Self, b: Self) -> Self {
            neon!(Neon(vbslq_f32(m.0, a.0, b.0), vbslq_f32(m.1, a.1, b.1)))
        }
        #[inline(always)]
        fn and(a: Self::M, b: Self::M) -> Self::M {
            neon!((vandq_u32(a.0, b.0), vandq_u32(a.1, b.1)))
        }
        #[inline(always)]
        fn except(k: i32) -> Self::M {
            const LO: [i32; 4] = [0, 1, 2, 3];
            const HI: [i32; 4] = [4, 5, 6, 7];
            neon!({
                let k = vdupq_n_s32(k);
                (
                    vmvnq_u32(vceqq_s32(k, vld1q_s32(LO.as_ptr()))),
                    vmvnq_u32(vceqq_s32(k, vld1q_s32(HI.as_ptr()))),
                )
            })
        }
        #[inline(always)]
        fn zero_count() -> Self::C {
            neon!((vdupq_n_u32(0), vdupq_n_u32(0)))
        }
        #[inline(always)]
        fn tally(c: Self::C, m: Self::M) -> Self::C {
            neon!((vsubq_u32(c.0, m.0), vsubq_u32(c.1, m.1)))
        }
        #[inline(always)]
        fn store_counts(c: Self::C, out: &mut [u32; 16]) {
            // SAFETY: two registers of four u32 each into an array of eight.
            let c: [u32; 8] = unsafe { std::mem::transmute((c.0, c.1)) };
            out[..8].copy_from_slice(&c);
        }
        #[inline(always)]
        fn store(self, out: &mut [f32; 16]) {
            // SAFETY: two registers of four f32 each into an array of eight.
            let x: [f32; 8] = unsafe { std::mem::transmute((self.0, self.1)) };
            out[..8].copy_from_slice(&x);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// WebAssembly simd128 (compiled in when the build enables it: `scripts/web` does).

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use web::Wasm;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod web {
    use super::Lanes;
    use std::arch::wasm32::*;

    /// Eight lanes as two simd128 registers (lanes 0-3, 4-7). `f32x4.sqrt` and `f32x4.div`
    /// round correctly; relaxed SIMD (which may fuse) is not used.
    #[derive(Clone, Copy)]
    pub(crate) struct Wasm(v128, v128);

    impl Lanes for Wasm {
        type M = (v128, v128);
        type C = (v128, v128);
        const SKIP: bool = true;
        #[inline(always)]
        fn any(m: Self::M) -> bool {
            v128_any_true(v128_or(m.0, m.1))
        }
        #[inline(always)]
        fn splat(x: f32) -> Self {
            Wasm(f32x4_splat(x), f32x4_splat(x))
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller guarantees 8 readable floats (unaligned loads are allowed).
            unsafe { Wasm(v128_load(p.cast()), v128_load(p.add(4).cast())) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Wasm(f32x4_add(self.0, o.0), f32x4_add(self.1, o.1))
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Wasm(f32x4_sub(self.0, o.0), f32x4_sub(self.1, o.1))
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            Wasm(f32x4_mul(self.0, o.0), f32x4_mul(self.1, o.1))
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            Wasm(f32x4_div(self.0, o.0), f32x4_div(self.1, o.1))
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            Wasm(f32x4_sqrt(self.0), f32x4_sqrt(self.1))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            Wasm(f32x4_pmax(self.0, o.0), f32x4_pmax(self.1, o.1))
        }
        #[inline(always)]
        fn lt(self, o: Self) -> Self::M {
            (f32x4_lt(self.0, o.0), f32x4_lt(self.1, o.1))
        }
        #[inline(always)]
        fn gt(self, o: Self) -> Self::M {
            (f32x4_gt(self.0, o.0), f32x4_gt(self.1, o.1))
        }
        #[inline(always)]
        fn keep(self, m: Self::M) -> Self {
            Wasm(v128_and(self.0, m.0), v128_and(self.1, m.1))
        }
        #[inline(always)]
        fn select(m: Self::M, a: Self, b: Self) -> Self {
            Wasm(v128_bitselect(a.0, b.0, m.0), v128_bitselect(a.1, b.1, m.1))
        }
        #[inline(always)]
        fn and(a: Self::M, b: Self::M) -> Self::M {
            (v128_and(a.0, b.0), v128_and(a.1, b.1))
        }
        #[inline(always)]
        fn except(k: i32) -> Self::M {
            let k = i32x4_splat(k);
            (
                i32x4_ne(k, i32x4(0, 1, 2, 3)),
                i32x4_ne(k, i32x4(4, 5, 6, 7)),
            )
        }
        #[inline(always)]
        fn zero_count() -> Self::C {
            (u32x4_splat(0), u32x4_splat(0))
        }
        #[inline(always)]
        fn tally(c: Self::C, m: Self::M) -> Self::C {
            (i32x4_sub(c.0, m.0), i32x4_sub(c.1, m.1))
        }
        #[inline(always)]
        fn store_counts(c: Self::C, out: &mut [u32; 16]) {
            // SAFETY: two 128-bit values into an array of eight u32.
            let c: [u32; 8] = unsafe { std::mem::transmute((c.0, c.1)) };
            out[..8].copy_from_slice(&c);
        }
        #[inline(always)]
        fn store(self, out: &mut [f32; 16]) {
            // SAFETY: two 128-bit values into an array of eight f32.
            let x: [f32; 8] = unsafe { std::mem::transmute((self.0, self.1)) };
            out[..8].copy_from_slice(&x);
        }
    }
}
