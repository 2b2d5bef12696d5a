//! The SSE2 path (every x86-64 CPU): the filter 4 candidates at a time, the accumulation's
//! eight virtual lanes as two 4-lane halves. Operation for operation the scalar reference
//! (`scalar.rs`); `kernel::tests` checks it bit for bit.
#![expect(
    unsafe_code,
    reason = "SIMD intrinsics in the measured hot loop: loads and stores through pointers the \
              filter's assert and the padded arrays keep in bounds"
)]

use super::{Cols, GROUP, Head, Rec, Spec, check_cols, check_run, finish};
use crate::layout::Run;
use boids_core::{Neighbourhood, Vec3};
use std::arch::x86_64::*;

// ---------------------------------------------------------------------------------------------
// Filter.

/// SSE2 filter: 4 candidates at a time; the selected slots are packed with a running count.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn filter_sse2<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
    unsafe { filter_sse2_impl::<D3, PER>(c, q, r2, size, runs, out) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "sse2")]
fn filter_sse2_impl<const D3: bool, const PER: bool>(
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
    let (qx, qy, qz) = (_mm_set1_ps(q[0]), _mm_set1_ps(q[1]), _mm_set1_ps(q[2]));
    let vr2 = _mm_set1_ps(r2);
    let sz = [
        _mm_set1_ps(size[0]),
        _mm_set1_ps(size[1]),
        _mm_set1_ps(size[2]),
    ];
    let half = [
        _mm_set1_ps(0.5 * size[0]),
        _mm_set1_ps(0.5 * size[1]),
        _mm_set1_ps(0.5 * size[2]),
    ];
    macro_rules! chunk {
        ($k:expr, $len:expr) => {{
            let k: usize = $k;
            let len: u32 = $len;
            // SAFETY: `check_run` asserted that the run ends at least PAD (16) before the end of
            // each array (`check_cols`: one length), and a chunk starts at most 8 past the run's
            // start, so the floats read are inside.
            let (x, y) = unsafe {
                (
                    _mm_loadu_ps(ax.as_ptr().add(k)),
                    _mm_loadu_ps(ay.as_ptr().add(k)),
                )
            };
            let mut dx = _mm_sub_ps(x, qx);
            let mut dy = _mm_sub_ps(y, qy);
            if PER {
                dx = wrap4(dx, half[0], sz[0]);
                dy = wrap4(dy, half[1], sz[1]);
            }
            let mut d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
            if D3 {
                // SAFETY: as above.
                let z = unsafe { _mm_loadu_ps(az.as_ptr().add(k)) };
                let mut dz = _mm_sub_ps(z, qz);
                if PER {
                    dz = wrap4(dz, half[2], sz[2]);
                }
                d2 = _mm_add_ps(d2, _mm_mul_ps(dz, dz));
            }
            let tail = (1u32 << len) - 1;
            let m = _mm_movemask_ps(_mm_cmplt_ps(d2, vr2)) as u32 & tail;
            // Write lane l at the count of selected lanes before it: unselected lanes are
            // overwritten or left past the end.
            let o = &mut out[n..n + 4];
            let k32 = k as u32;
            let c1 = (m & 1) as usize;
            let c2 = c1 + ((m >> 1) & 1) as usize;
            let c3 = c2 + ((m >> 2) & 1) as usize;
            o[0] = k32;
            o[c1 & 3] = k32 + 1;
            o[c2 & 3] = k32 + 2;
            o[c3 & 3] = k32 + 3;
            n += m.count_ones() as usize;
        }};
    }
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        let mut k = s0;
        while k < s1 {
            chunk!(k as usize, (s1 - k).min(4));
            k += 4;
        }
    }
    n
}

#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn wrap4(o: __m128, half: __m128, size: __m128) -> __m128 {
    let hi = _mm_cmpgt_ps(o, half);
    let lo = _mm_cmplt_ps(o, _mm_sub_ps(_mm_setzero_ps(), half));
    let down = _mm_sub_ps(o, size);
    let up = _mm_add_ps(o, size);
    let keep = _mm_andnot_ps(_mm_or_ps(hi, lo), o);
    _mm_or_ps(
        keep,
        _mm_or_ps(_mm_and_ps(hi, down), _mm_and_ps(lo, _mm_andnot_ps(hi, up))),
    )
}

// ---------------------------------------------------------------------------------------------
// Accumulation: eight virtual lanes.

/// SSE2 accumulation: each group of eight as two 4-lane halves (lanes 0-3, 4-7).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn accumulate_sse2<const SEP: u8, const PER: bool, const X: bool>(
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
    size: Vec3,
) -> Neighbourhood {
    // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
    unsafe { accumulate_sse2_impl::<SEP, PER, X>(spec, own, q, h, list, rec, head, size) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "sse2")]
fn accumulate_sse2_impl<const SEP: u8, const PER: bool, const X: bool>(
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
    size: Vec3,
) -> Neighbourhood {
    let (mut count, mut sep_count) = (0u32, 0u32);
    let mut sums = [[_mm_setzero_ps(); 2]; 13];
    let qv = [_mm_set1_ps(q.x), _mm_set1_ps(q.y), _mm_set1_ps(q.z)];
    let hv = [_mm_set1_ps(h.x), _mm_set1_ps(h.y), _mm_set1_ps(h.z)];
    let szv = [
        _mm_set1_ps(size.x),
        _mm_set1_ps(size.y),
        _mm_set1_ps(size.z),
    ];
    let half = [
        _mm_set1_ps(0.5 * size.x),
        _mm_set1_ps(0.5 * size.y),
        _mm_set1_ps(0.5 * size.z),
    ];
    let cos = _mm_set1_ps(spec.cos);
    let s2 = _mm_set1_ps(spec.s2);
    let one = _mm_set1_ps(1.0);
    let zero = _mm_setzero_ps();
    let ownv = _mm_set1_epi32(own as i32);
    for group in list.chunks_exact(GROUP) {
        for (hh, quad) in group.chunks_exact(4).enumerate() {
            let r: [&[f32; 8]; 4] = [
                &rec[quad[0] as usize].0,
                &rec[quad[1] as usize].0,
                &rec[quad[2] as usize].0,
                &rec[quad[3] as usize].0,
            ];
            // SAFETY: each record is 32 bytes; the loads read its two halves.
            let (lo, hi) = unsafe {
                (
                    [
                        _mm_loadu_ps(r[0].as_ptr()),
                        _mm_loadu_ps(r[1].as_ptr()),
                        _mm_loadu_ps(r[2].as_ptr()),
                        _mm_loadu_ps(r[3].as_ptr()),
                    ],
                    [
                        _mm_loadu_ps(r[0].as_ptr().add(4)),
                        _mm_loadu_ps(r[1].as_ptr().add(4)),
                        _mm_loadu_ps(r[2].as_ptr().add(4)),
                        _mm_loadu_ps(r[3].as_ptr().add(4)),
                    ],
                )
            };
            let [px, py, pz, vx] = transpose4(lo);
            let [vy, vz, spd, _] = transpose4(hi);
            // SAFETY: `quad` is 4 u32.
            let idx = unsafe { _mm_loadu_si128(quad.as_ptr().cast()) };
            let mut d = [
                _mm_sub_ps(px, qv[0]),
                _mm_sub_ps(py, qv[1]),
                _mm_sub_ps(pz, qv[2]),
            ];
            if PER {
                d[0] = wrap4(d[0], half[0], szv[0]);
                d[1] = wrap4(d[1], half[1], szv[1]);
                d[2] = wrap4(d[2], half[2], szv[2]);
            }
            let d2 = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(d[0], d[0]), _mm_mul_ps(d[1], d[1])),
                _mm_mul_ps(d[2], d[2]),
            );
            let inv = _mm_and_ps(_mm_cmpgt_ps(d2, zero), _mm_div_ps(one, _mm_sqrt_ps(d2)));
            let dot = _mm_mul_ps(
                _mm_add_ps(
                    _mm_add_ps(_mm_mul_ps(hv[0], d[0]), _mm_mul_ps(hv[1], d[1])),
                    _mm_mul_ps(hv[2], d[2]),
                ),
                inv,
            );
            let is_own = _mm_castsi128_ps(_mm_cmpeq_epi32(idx, ownv));
            let ok = _mm_andnot_ps(is_own, _mm_cmpgt_ps(dot, cos));
            let sep = _mm_and_ps(ok, _mm_cmplt_ps(d2, s2));
            count += (_mm_movemask_ps(ok) as u32).count_ones();
            sep_count += (_mm_movemask_ps(sep) as u32).count_ones();
            let f = match SEP {
                0 => [
                    _mm_mul_ps(d[0], inv),
                    _mm_mul_ps(d[1], inv),
                    _mm_mul_ps(d[2], inv),
                ],
                1 => {
                    let i2 = _mm_mul_ps(inv, inv);
                    [
                        _mm_mul_ps(d[0], i2),
                        _mm_mul_ps(d[1], i2),
                        _mm_mul_ps(d[2], i2),
                    ]
                }
                _ => d,
            };
            macro_rules! add {
                ($k:expr, $m:expr, $x:expr) => {
                    sums[$k][hh] = _mm_add_ps(sums[$k][hh], _mm_and_ps($m, $x))
                };
            }
            macro_rules! sub {
                ($k:expr, $m:expr, $x:expr) => {
                    sums[$k][hh] = _mm_sub_ps(sums[$k][hh], _mm_and_ps($m, $x))
                };
            }
            add!(0, ok, d[0]);
            add!(1, ok, d[1]);
            add!(2, ok, d[2]);
            add!(3, ok, vx);
            add!(4, ok, vy);
            add!(5, ok, vz);
            sub!(6, sep, f[0]);
            sub!(7, sep, f[1]);
            sub!(8, sep, f[2]);
            if X {
                let hp: [&[f32; 4]; 4] = [
                    &head[quad[0] as usize].0,
                    &head[quad[1] as usize].0,
                    &head[quad[2] as usize].0,
                    &head[quad[3] as usize].0,
                ];
                // SAFETY: each heading record is 16 bytes.
                let hs = unsafe {
                    [
                        _mm_loadu_ps(hp[0].as_ptr()),
                        _mm_loadu_ps(hp[1].as_ptr()),
                        _mm_loadu_ps(hp[2].as_ptr()),
                        _mm_loadu_ps(hp[3].as_ptr()),
                    ]
                };
                let [hx, hy, hz, _] = transpose4(hs);
                add!(9, ok, hx);
                add!(10, ok, hy);
                add!(11, ok, hz);
                add!(12, ok, spd);
            }
        }
    }
    let used = if X { 13 } else { 9 };
    let mut out = [0f32; 13];
    for k in 0..used {
        out[k] = reduce_halves(sums[k][0], sums[k][1]);
    }
    finish(count, sep_count, &out, X)
}

/// `((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))` of lanes 0-3 in `lo` and 4-7 in `hi`
/// (the order of `kernel::reduce8`).
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn reduce_halves(lo: __m128, hi: __m128) -> f32 {
    let t = _mm_add_ps(lo, hi); // l0+l4, l1+l5, l2+l6, l3+l7
    let u = _mm_add_ps(t, _mm_movehl_ps(t, t)); // t0+t2, t1+t3
    let v = _mm_add_ss(u, _mm_shuffle_ps::<0b01>(u, u)); // u0 + u1
    _mm_cvtss_f32(v)
}

#[target_feature(enable = "sse2")]
#[inline]
fn transpose4(r: [__m128; 4]) -> [__m128; 4] {
    let t0 = _mm_unpacklo_ps(r[0], r[1]);
    let t1 = _mm_unpacklo_ps(r[2], r[3]);
    let t2 = _mm_unpackhi_ps(r[0], r[1]);
    let t3 = _mm_unpackhi_ps(r[2], r[3]);
    [
        _mm_movelh_ps(t0, t1),
        _mm_movehl_ps(t1, t0),
        _mm_movelh_ps(t2, t3),
        _mm_movehl_ps(t3, t2),
    ]
}
