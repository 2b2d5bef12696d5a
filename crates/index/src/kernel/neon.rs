//! The NEON path (every aarch64 CPU: Apple silicon, Android and iOS phones, ARM servers): the
//! filter 4 candidates at a time, the accumulation's eight virtual lanes as two 4-lane halves,
//! as SSE2 does. Operation for operation the scalar reference (`scalar.rs`): AArch64's
//! `vsqrtq_f32` and `vdivq_f32` round correctly, and no fused multiply-add (`vfmaq`) is used, so
//! the bits are the scalar path's. `kernel::tests` checks it bit for bit; `scripts/check-platforms`
//! runs it under qemu-aarch64 and requires x86-64's hashes.
#![expect(
    unsafe_code,
    reason = "SIMD intrinsics in the measured hot loop: loads through pointers the filter's \
              assert and the padded arrays keep in bounds"
)]

use super::{Cols, GROUP, Head, Rec, Spec, check_cols, check_run, finish};
use crate::layout::Run;
use boids_core::{Neighbourhood, Vec3};
use std::arch::aarch64::*;

/// Lane bits for a 4-bit mask: lane l contributes 1 << l.
const BITS: [u32; 4] = [1, 2, 4, 8];

/// The 4-bit mask of a comparison (lane l true -> bit l), like SSE2's movemask.
#[inline(always)]
fn movemask(m: uint32x4_t) -> u32 {
    // SAFETY: NEON is part of the aarch64 baseline; BITS is 4 u32.
    unsafe { vaddvq_u32(vandq_u32(m, vld1q_u32(BITS.as_ptr()))) }
}

/// The nearest-image offset of `wrap_axis`, lane by lane: `o - size` above half, `o + size`
/// below minus half, else `o`.
#[inline(always)]
fn wrap4(o: float32x4_t, half: float32x4_t, size: float32x4_t) -> float32x4_t {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe {
        let hi = vcgtq_f32(o, half);
        let lo = vcltq_f32(o, vnegq_f32(half));
        let down = vsubq_f32(o, size);
        let up = vaddq_f32(o, size);
        vbslq_f32(hi, down, vbslq_f32(lo, up, o))
    }
}

// ---------------------------------------------------------------------------------------------
// Filter.

/// NEON filter: 4 candidates at a time; the selected slots are packed with a running count.
#[inline]
pub(crate) fn filter_neon<const D3: bool, const PER: bool>(
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
    // SAFETY: NEON is part of the aarch64 baseline (every intrinsic below needs nothing else).
    let (qx, qy, qz, vr2) = unsafe {
        (
            vdupq_n_f32(q[0]),
            vdupq_n_f32(q[1]),
            vdupq_n_f32(q[2]),
            vdupq_n_f32(r2),
        )
    };
    // SAFETY: as above.
    let (sz, half) = unsafe {
        (
            [
                vdupq_n_f32(size[0]),
                vdupq_n_f32(size[1]),
                vdupq_n_f32(size[2]),
            ],
            [
                vdupq_n_f32(0.5 * size[0]),
                vdupq_n_f32(0.5 * size[1]),
                vdupq_n_f32(0.5 * size[2]),
            ],
        )
    };
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        let mut k = s0;
        while k < s1 {
            let len = (s1 - k).min(4);
            let j = k as usize;
            // SAFETY: `check_run` asserted the run ends at least PAD (16) before the end of each
            // array (`check_cols`: one length) and a chunk starts inside the run, so the four
            // floats read are inside; NEON is baseline.
            let m = unsafe {
                let mut dx = vsubq_f32(vld1q_f32(ax.as_ptr().add(j)), qx);
                let mut dy = vsubq_f32(vld1q_f32(ay.as_ptr().add(j)), qy);
                if PER {
                    dx = wrap4(dx, half[0], sz[0]);
                    dy = wrap4(dy, half[1], sz[1]);
                }
                let mut d2 = vaddq_f32(vmulq_f32(dx, dx), vmulq_f32(dy, dy));
                if D3 {
                    let mut dz = vsubq_f32(vld1q_f32(az.as_ptr().add(j)), qz);
                    if PER {
                        dz = wrap4(dz, half[2], sz[2]);
                    }
                    d2 = vaddq_f32(d2, vmulq_f32(dz, dz));
                }
                movemask(vcltq_f32(d2, vr2))
            } & ((1u32 << len) - 1);
            // Write lane l at the count of selected lanes before it (as SSE2 does).
            let o = &mut out[n..n + 4];
            let c1 = (m & 1) as usize;
            let c2 = c1 + ((m >> 1) & 1) as usize;
            let c3 = c2 + ((m >> 2) & 1) as usize;
            o[0] = k;
            o[c1 & 3] = k + 1;
            o[c2 & 3] = k + 2;
            o[c3 & 3] = k + 3;
            n += m.count_ones() as usize;
            k += 4;
        }
    }
    n
}

// ---------------------------------------------------------------------------------------------
// Accumulation: eight virtual lanes.

/// Lanes 0-3 of a transpose of four 4-float rows: register `a` holds component `a` of the
/// four rows.
#[inline(always)]
fn transpose4(r: [float32x4_t; 4]) -> [float32x4_t; 4] {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe {
        let t0 = vtrnq_f32(r[0], r[1]); // (a0 b0 a2 b2), (a1 b1 a3 b3)
        let t1 = vtrnq_f32(r[2], r[3]); // (c0 d0 c2 d2), (c1 d1 c3 d3)
        let lo = |a: float32x4_t, b: float32x4_t| vcombine_f32(vget_low_f32(a), vget_low_f32(b));
        let hi = |a: float32x4_t, b: float32x4_t| vcombine_f32(vget_high_f32(a), vget_high_f32(b));
        [
            lo(t0.0, t1.0),
            lo(t0.1, t1.1),
            hi(t0.0, t1.0),
            hi(t0.1, t1.1),
        ]
    }
}

/// `((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))` of lanes 0-3 in `lo` and 4-7 in `hi`
/// (the order of `kernel::reduce8`).
#[inline(always)]
fn reduce_halves(lo: float32x4_t, hi: float32x4_t) -> f32 {
    let mut a = [0f32; 4];
    let mut b = [0f32; 4];
    // SAFETY: both arrays hold 4 floats; NEON is baseline.
    unsafe {
        vst1q_f32(a.as_mut_ptr(), lo);
        vst1q_f32(b.as_mut_ptr(), hi);
    }
    super::reduce8([a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]])
}

/// NEON accumulation: each group of eight as two 4-lane halves (lanes 0-3, 4-7).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn accumulate_neon<const SEP: u8, const PER: bool, const X: bool>(
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
    // SAFETY (this block and every `unsafe` below without its own comment): NEON is part of the
    // aarch64 baseline.
    let (qv, hv, szv, half, cos, s2, one, zero, ownv) = unsafe {
        (
            [vdupq_n_f32(q.x), vdupq_n_f32(q.y), vdupq_n_f32(q.z)],
            [vdupq_n_f32(h.x), vdupq_n_f32(h.y), vdupq_n_f32(h.z)],
            [
                vdupq_n_f32(size.x),
                vdupq_n_f32(size.y),
                vdupq_n_f32(size.z),
            ],
            [
                vdupq_n_f32(0.5 * size.x),
                vdupq_n_f32(0.5 * size.y),
                vdupq_n_f32(0.5 * size.z),
            ],
            vdupq_n_f32(spec.cos),
            vdupq_n_f32(spec.s2),
            vdupq_n_f32(1.0),
            vdupq_n_f32(0.0),
            vdupq_n_u32(own),
        )
    };
    // SAFETY: as above.
    let mut sums = [[unsafe { vdupq_n_f32(0.0) }; 2]; 13];
    for group in list.chunks_exact(GROUP) {
        for (hh, quad) in group.chunks_exact(4).enumerate() {
            let r: [&[f32; 8]; 4] = [
                &rec[quad[0] as usize].0,
                &rec[quad[1] as usize].0,
                &rec[quad[2] as usize].0,
                &rec[quad[3] as usize].0,
            ];
            // SAFETY: each record is 8 floats; the loads read its two halves.
            let (lo, hi) = unsafe {
                (
                    [
                        vld1q_f32(r[0].as_ptr()),
                        vld1q_f32(r[1].as_ptr()),
                        vld1q_f32(r[2].as_ptr()),
                        vld1q_f32(r[3].as_ptr()),
                    ],
                    [
                        vld1q_f32(r[0].as_ptr().add(4)),
                        vld1q_f32(r[1].as_ptr().add(4)),
                        vld1q_f32(r[2].as_ptr().add(4)),
                        vld1q_f32(r[3].as_ptr().add(4)),
                    ],
                )
            };
            let [px, py, pz, vx] = transpose4(lo);
            let [vy, vz, spd, _] = transpose4(hi);
            // SAFETY: `quad` is 4 u32; NEON is baseline.
            let (ok, sep, d, inv) = unsafe {
                let idx = vld1q_u32(quad.as_ptr());
                let mut d = [
                    vsubq_f32(px, qv[0]),
                    vsubq_f32(py, qv[1]),
                    vsubq_f32(pz, qv[2]),
                ];
                if PER {
                    d[0] = wrap4(d[0], half[0], szv[0]);
                    d[1] = wrap4(d[1], half[1], szv[1]);
                    d[2] = wrap4(d[2], half[2], szv[2]);
                }
                let d2 = vaddq_f32(
                    vaddq_f32(vmulq_f32(d[0], d[0]), vmulq_f32(d[1], d[1])),
                    vmulq_f32(d[2], d[2]),
                );
                let inv = vreinterpretq_f32_u32(vandq_u32(
                    vcgtq_f32(d2, zero),
                    vreinterpretq_u32_f32(vdivq_f32(one, vsqrtq_f32(d2))),
                ));
                let dot = vmulq_f32(
                    vaddq_f32(
                        vaddq_f32(vmulq_f32(hv[0], d[0]), vmulq_f32(hv[1], d[1])),
                        vmulq_f32(hv[2], d[2]),
                    ),
                    inv,
                );
                let not_own = vmvnq_u32(vceqq_u32(idx, ownv));
                let ok = vandq_u32(not_own, vcgtq_f32(dot, cos));
                let sep = vandq_u32(ok, vcltq_f32(d2, s2));
                (ok, sep, d, inv)
            };
            count += movemask(ok).count_ones();
            sep_count += movemask(sep).count_ones();
            // SAFETY: NEON is baseline.
            unsafe {
                let f = match SEP {
                    0 => [
                        vmulq_f32(d[0], inv),
                        vmulq_f32(d[1], inv),
                        vmulq_f32(d[2], inv),
                    ],
                    1 => {
                        let i2 = vmulq_f32(inv, inv);
                        [
                            vmulq_f32(d[0], i2),
                            vmulq_f32(d[1], i2),
                            vmulq_f32(d[2], i2),
                        ]
                    }
                    _ => d,
                };
                let and = |m: uint32x4_t, x: float32x4_t| {
                    vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(x)))
                };
                macro_rules! add {
                    ($k:expr, $m:expr, $x:expr) => {
                        sums[$k][hh] = vaddq_f32(sums[$k][hh], and($m, $x))
                    };
                }
                macro_rules! sub {
                    ($k:expr, $m:expr, $x:expr) => {
                        sums[$k][hh] = vsubq_f32(sums[$k][hh], and($m, $x))
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
                    // Each heading record is 4 floats.
                    let hs = [
                        vld1q_f32(head[quad[0] as usize].0.as_ptr()),
                        vld1q_f32(head[quad[1] as usize].0.as_ptr()),
                        vld1q_f32(head[quad[2] as usize].0.as_ptr()),
                        vld1q_f32(head[quad[3] as usize].0.as_ptr()),
                    ];
                    let [hx, hy, hz, _] = transpose4(hs);
                    add!(9, ok, hx);
                    add!(10, ok, hy);
                    add!(11, ok, hz);
                    add!(12, ok, spd);
                }
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
