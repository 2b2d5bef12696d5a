//! x86-64: SSE2 (eight lanes in two registers), AVX2 (one register), AVX-512 (sixteen lanes,
//! mask registers).

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
    #[inline(always)]
    fn any(m: Self::M) -> bool {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { _mm_movemask_ps(_mm_or_ps(m.0, m.1)) != 0 }
    }
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
    #[inline(always)]
    fn any(m: __m256) -> bool {
        avx!(_mm256_movemask_ps(m) != 0)
    }
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
    #[inline(always)]
    fn any(m: __mmask16) -> bool {
        m != 0
    }
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
