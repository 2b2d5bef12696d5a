//! AArch64: NEON, eight lanes in two registers.

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
    fn any(m: Self::M) -> bool {
        neon!(vmaxvq_u32(vorrq_u32(m.0, m.1)) != 0)
    }
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
