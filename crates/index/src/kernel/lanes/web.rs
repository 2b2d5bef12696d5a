//! WebAssembly simd128: eight lanes in two registers.

use super::Lanes;
use std::arch::wasm32::*;

/// Eight lanes as two simd128 registers (lanes 0-3, 4-7). `f32x4.sqrt` and `f32x4.div`
/// round correctly; relaxed SIMD (which may fuse) is not used.
#[derive(Clone, Copy)]
pub(crate) struct Wasm(v128, v128);

impl Lanes for Wasm {
    type M = (v128, v128);
    type C = (v128, v128);
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
