//! The AVX-512 path: the filter 16 candidates at a time; the accumulation is AVX2's (eight
//! virtual lanes). Opt-in (`BOIDS_SIMD=avx512`): until a test has run it on a CPU with AVX-512,
//! `SimdLevel::detect` picks AVX2 on such CPUs. `kernel::tests` checks it bit for bit wherever
//! it can run.
#![expect(
    unsafe_code,
    reason = "SIMD intrinsics in the measured hot loop: loads and stores through pointers the \
              filter's assert and the padded arrays keep in bounds"
)]

use super::{Cols, check_cols, check_run};
use crate::layout::Run;
use std::arch::x86_64::*;

/// AVX-512 filter: 16 candidates at a time, packed with `vpcompressd` into a register (a
/// compressing store to memory is microcoded and slow on some CPUs).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn filter_avx512<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    // SAFETY: `SimdLevel::Avx512` is only chosen after `is_x86_feature_detected!("avx512f")`.
    unsafe { filter_avx512_impl::<D3, PER>(c, q, r2, size, runs, out) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx2,popcnt")]
fn filter_avx512_impl<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    let mut n = 0;
    check_cols(c);
    let [ax, ay, az] = c.a;
    let (qx, qy, qz) = (
        _mm512_set1_ps(q[0]),
        _mm512_set1_ps(q[1]),
        _mm512_set1_ps(q[2]),
    );
    let vr2 = _mm512_set1_ps(r2);
    let sz = [
        _mm512_set1_ps(size[0]),
        _mm512_set1_ps(size[1]),
        _mm512_set1_ps(size[2]),
    ];
    let half = [
        _mm512_set1_ps(0.5 * size[0]),
        _mm512_set1_ps(0.5 * size[1]),
        _mm512_set1_ps(0.5 * size[2]),
    ];
    let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    macro_rules! chunk {
        ($k:expr, $len:expr) => {{
            let k: usize = $k;
            let len: u32 = $len;
            // SAFETY: `check_run` asserted the run ends PAD (16) before each array's end
            // (`check_cols`: one length), and a chunk starts inside the run, so the 16 floats
            // read are inside.
            let (x, y) = unsafe {
                (
                    _mm512_loadu_ps(ax.as_ptr().add(k)),
                    _mm512_loadu_ps(ay.as_ptr().add(k)),
                )
            };
            let mut dx = _mm512_sub_ps(x, qx);
            let mut dy = _mm512_sub_ps(y, qy);
            if PER {
                dx = wrap16(dx, half[0], sz[0]);
                dy = wrap16(dy, half[1], sz[1]);
            }
            let mut d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
            if D3 {
                // SAFETY: as above.
                let z = unsafe { _mm512_loadu_ps(az.as_ptr().add(k)) };
                let mut dz = _mm512_sub_ps(z, qz);
                if PER {
                    dz = wrap16(dz, half[2], sz[2]);
                }
                d2 = _mm512_add_ps(d2, _mm512_mul_ps(dz, dz));
            }
            let tail = ((1u32 << len) - 1) as u16;
            let m = _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(tail, d2, vr2);
            let idx = _mm512_add_epi32(_mm512_set1_epi32(k as i32), iota);
            let packed = _mm512_maskz_compress_epi32(m, idx);
            let o = &mut out[n..n + 16];
            // SAFETY: `o` has room for 16 u32.
            unsafe { _mm512_storeu_si512(o.as_mut_ptr().cast(), packed) };
            n += m.count_ones() as usize;
        }};
    }
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        let len = s1.saturating_sub(s0);
        chunk!(s0 as usize, len.min(16));
        let mut k = s0 + 16;
        while k < s1 {
            chunk!(k as usize, (s1 - k).min(16));
            k += 16;
        }
    }
    n
}

#[target_feature(enable = "avx512f")]
#[inline]
fn wrap16(o: __m512, half: __m512, size: __m512) -> __m512 {
    let hi = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(o, half);
    let lo = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(o, _mm512_sub_ps(_mm512_setzero_ps(), half));
    let r = _mm512_mask_add_ps(o, lo, o, size);
    _mm512_mask_sub_ps(r, hi, o, size)
}
