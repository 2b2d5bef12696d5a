//! The reads' kernels: a flock's orientations and instance matrices, gathered from storage
//! order into id order and computed eight boids at a time, so the compiler lays each step of
//! the formula across vector lanes. Each is compiled for every instruction set the neighbour
//! kernel has ([`SimdLevel`]) and runs on the one the world chose.
//!
//! The lanes compute exactly what the one-boid functions of `boids_core::math` compute, in the
//! same order of correctly rounded operations (no fused multiply-add, no library call), so
//! every instruction set writes the same bits: [`look_rotation_direct`] for orientations and
//! [`look_basis`] for matrices. The rare vertical or zero headings, whose answer is a
//! different formula, are computed alone afterwards.

#![allow(
    unsafe_code,
    reason = "the measured hot loop: calls into instances compiled for the CPU's features"
)]
#![allow(
    clippy::needless_range_loop,
    reason = "lane loops index several arrays in step, so the compiler lays them across lanes"
)]

use crate::SimdLevel;
use boids_core::math::{look_basis, look_rotation, look_rotation_direct};
use glam::{Mat4, Vec3};

/// Boids a block computes at once.
const B: usize = 8;

/// Runs `$body($args)` compiled for `$level`'s instruction set.
macro_rules! dispatch {
    ($level:expr, $body:ident($($a:ident: $t:ty),*)) => {{
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn avx2($($a: $t),*) {
            $body($($a),*)
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
        fn avx512($($a: $t),*) {
            $body($($a),*)
        }
        match $level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2 (checked in the guard).
            SimdLevel::Avx2 if SimdLevel::Avx2.is_supported() => unsafe { avx2($($a),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has these AVX-512 sets (checked in the guard).
            SimdLevel::Avx512 if SimdLevel::Avx512.is_supported() => unsafe { avx512($($a),*) },
            // The baseline: SSE2 on x86-64, NEON on aarch64, simd128 in a wasm build made with
            // it, plain instructions elsewhere.
            _ => $body($($a),*),
        }
    }};
}

/// `out[k]` = the orientation (`look_rotation_direct`) of `headings[slots[k]]`, for every `k`
/// of `slots` (`out` holds at least as many).
pub fn orientations(level: SimdLevel, slots: &[u32], headings: &[Vec3], out: &mut [[f32; 4]]) {
    dispatch!(
        level,
        orientations_body(slots: &[u32], headings: &[Vec3], out: &mut [[f32; 4]])
    )
}

/// `out[k]` = the instance matrix of slot `slots[k]`, column-major: the axes of
/// `look_basis(headings[s])` times `scale`, translated to `positions[s]`, multiplied on the
/// left by `transform` when there is one (`transform × boid`, in glam's order of operations).
pub fn matrices(
    level: SimdLevel,
    slots: &[u32],
    positions: &[Vec3],
    headings: &[Vec3],
    scale: f32,
    transform: Option<&Mat4>,
    out: &mut [[f32; 16]],
) {
    dispatch!(
        level,
        matrices_body(
            slots: &[u32],
            positions: &[Vec3],
            headings: &[Vec3],
            scale: f32,
            transform: Option<&Mat4>,
            out: &mut [[f32; 16]]
        )
    )
}

/// The vectors of one block's slots, as three arrays of lanes (x, y, z).
#[inline(always)]
fn gather(slots: &[u32], from: &[Vec3]) -> [[f32; B]; 3] {
    let mut v = [[0.0f32; B]; 3];
    for i in 0..B {
        let p = from[slots[i] as usize];
        v[0][i] = p.x;
        v[1][i] = p.y;
        v[2][i] = p.z;
    }
    v
}

/// Per lane, whether `look_rotation` and `look_basis` take their general path: the normalised
/// heading (glam's `normalize_or_zero`, operation for operation) is non-zero and not
/// vertical, `Vec3::Y.cross(f).length_squared() >= 1e-12`. Returns the normalised headings too.
#[inline(always)]
fn general(h: &[[f32; B]; 3]) -> ([bool; B], [[f32; B]; 3]) {
    let mut ok = [false; B];
    let mut f = [[0.0f32; B]; 3];
    for i in 0..B {
        let (vx, vy, vz) = (h[0][i], h[1][i], h[2][i]);
        let rcp = 1.0 / ((vx * vx) + (vy * vy) + (vz * vz)).sqrt();
        // `rcp.is_finite() && rcp > 0.0`, as two comparisons (NaN fails both).
        let keep = rcp > 0.0 && rcp < f32::INFINITY;
        let x = if keep { vx * rcp } else { 0.0 };
        let y = if keep { vy * rcp } else { 0.0 };
        let z = if keep { vz * rcp } else { 0.0 };
        // `Vec3::Y.cross(f)`: (1 f.z - f.y 0, 0 f.x - f.z 0, 0 f.y - f.x 1), its length squared.
        let (rx, ry, rz) = (z - y * 0.0, 0.0 * x - z * 0.0, 0.0 * y - x);
        ok[i] = keep & ((rx * rx) + (ry * ry) + (rz * rz) >= 1e-12);
        f[0][i] = x;
        f[1][i] = y;
        f[2][i] = z;
    }
    (ok, f)
}

#[inline(always)]
fn orientations_body(slots: &[u32], headings: &[Vec3], out: &mut [[f32; 4]]) {
    let out = &mut out[..slots.len()];
    let mut outs = out.chunks_exact_mut(B);
    let mut ins = slots.chunks_exact(B);
    for (o, s) in (&mut outs).zip(&mut ins) {
        let h = gather(s, headings);
        // `look_rotation_direct`'s general path, lane by lane (in f64).
        let mut q = [[0.0f32; B]; 4];
        // Lanes near enough vertical (within about 1.4e-6 radians) or zero that `general`
        // must decide: rare.
        let mut near = [false; B];
        for i in 0..B {
            let [x, y, z] = [h[0][i] as f64, h[1][i] as f64, h[2][i] as f64];
            let h2 = z * z + x * x;
            let len2 = h2 + y * y;
            // `general`'s test is `h2 / len2 >= 1e-12` up to the f32 roundings of the
            // normalised heading (a few parts in 1e7): a factor of 2 either side is safe. It
            // also decides headings whose f32 length squared could underflow or overflow (its
            // normalisation gives zero then), and NaN.
            let clear = h2 > 2e-12 * len2 && len2 > 1e-28 && len2 < 1e36;
            near[i] = !clear;
            let hz = h2.sqrt();
            let len = len2.sqrt();
            let pos = z > 0.0;
            let ay = if pos { x } else { hz - z };
            let aw = if pos { hz + z } else { x };
            let (bx, bw) = (-y, len + hz);
            let c = [aw * bx, bw * ay, -(ay * bx), aw * bw];
            let r = 1.0 / ((c[0] * c[0] + c[1] * c[1]) + (c[2] * c[2] + c[3] * c[3])).sqrt();
            for k in 0..4 {
                q[k][i] = (c[k] * r) as f32;
            }
        }
        for i in 0..B {
            o[i] = [q[0][i], q[1][i], q[2][i], q[3][i]];
        }
        if near != [false; B] {
            let (ok, _) = general(&h);
            for i in 0..B {
                if !ok[i] {
                    o[i] = look_rotation(headings[s[i] as usize]).to_array();
                }
            }
        }
    }
    for (o, &s) in outs.into_remainder().iter_mut().zip(ins.remainder()) {
        *o = look_rotation_direct(headings[s as usize]).to_array();
    }
}

/// One boid's matrix from its axes: glam's `Mat4::from_cols` of the axes times `scale` and
/// the position, then `transform ×` it as glam's `Mat4 * Mat4` does (each column
/// `t.x a + t.y b + t.z c + t.w d`, summed left to right).
#[inline(always)]
fn matrix(axes: [[f32; 3]; 3], p: [f32; 3], scale: f32, transform: Option<&Mat4>) -> [f32; 16] {
    let cols = [
        [
            axes[0][0] * scale,
            axes[0][1] * scale,
            axes[0][2] * scale,
            0.0,
        ],
        [
            axes[1][0] * scale,
            axes[1][1] * scale,
            axes[1][2] * scale,
            0.0,
        ],
        [
            axes[2][0] * scale,
            axes[2][1] * scale,
            axes[2][2] * scale,
            0.0,
        ],
        [p[0], p[1], p[2], 1.0],
    ];
    let mut m = [0.0f32; 16];
    match transform {
        None => {
            for (c, col) in cols.iter().enumerate() {
                m[4 * c..4 * c + 4].copy_from_slice(col);
            }
        }
        Some(t) => {
            let t = t.to_cols_array_2d();
            for (c, col) in cols.iter().enumerate() {
                for r in 0..4 {
                    m[4 * c + r] =
                        t[0][r] * col[0] + t[1][r] * col[1] + t[2][r] * col[2] + t[3][r] * col[3];
                }
            }
        }
    }
    m
}

#[inline(always)]
fn matrices_body(
    slots: &[u32],
    positions: &[Vec3],
    headings: &[Vec3],
    scale: f32,
    transform: Option<&Mat4>,
    out: &mut [[f32; 16]],
) {
    let one = |s: u32| {
        let s = s as usize;
        let (r, u, f) = look_basis(headings[s]);
        matrix(
            [r.to_array(), u.to_array(), f.to_array()],
            positions[s].to_array(),
            scale,
            transform,
        )
    };
    let out = &mut out[..slots.len()];
    let mut outs = out.chunks_exact_mut(B);
    let mut ins = slots.chunks_exact(B);
    for (o, s) in (&mut outs).zip(&mut ins) {
        let h = gather(s, headings);
        let p = gather(s, positions);
        let (ok, f) = general(&h);
        // `look_basis`'s general path, lane by lane: right = Y × f scaled by 1 / its length,
        // up = f × right; then each axis times `scale`.
        let mut a = [[0.0f32; B]; 9];
        for i in 0..B {
            let (x, y, z) = (f[0][i], f[1][i], f[2][i]);
            let (rx, ry, rz) = (z - y * 0.0, 0.0 * x - z * 0.0, 0.0 * y - x);
            let k = 1.0 / ((rx * rx) + (ry * ry) + (rz * rz)).sqrt();
            let (rx, ry, rz) = (rx * k, ry * k, rz * k);
            let axes = [
                rx,
                ry,
                rz,
                y * rz - ry * z,
                z * rx - rz * x,
                x * ry - rx * y,
                x,
                y,
                z,
            ];
            for c in 0..9 {
                a[c][i] = axes[c];
            }
        }
        match transform {
            None => {
                for i in 0..B {
                    let v = |c: usize| a[c][i] * scale;
                    o[i] = [
                        v(0),
                        v(1),
                        v(2),
                        0.0,
                        v(3),
                        v(4),
                        v(5),
                        0.0,
                        v(6),
                        v(7),
                        v(8),
                        0.0,
                        p[0][i],
                        p[1][i],
                        p[2][i],
                        1.0,
                    ];
                }
            }
            Some(_) => {
                for i in 0..B {
                    let axes = [
                        [a[0][i], a[1][i], a[2][i]],
                        [a[3][i], a[4][i], a[5][i]],
                        [a[6][i], a[7][i], a[8][i]],
                    ];
                    o[i] = matrix(axes, [p[0][i], p[1][i], p[2][i]], scale, transform);
                }
            }
        }
        if ok != [true; B] {
            for i in 0..B {
                if !ok[i] {
                    o[i] = one(s[i]);
                }
            }
        }
    }
    for (o, &s) in outs.into_remainder().iter_mut().zip(ins.remainder()) {
        *o = one(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::ALL_LEVELS;

    /// Headings of every kind: random, unit and not, vertical, zero, on the axes, near -Z.
    fn headings(n: usize) -> Vec<Vec3> {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let special = [
            Vec3::Y,
            Vec3::NEG_Y,
            Vec3::ZERO,
            Vec3::new(1e-8, 1.0, 0.0),
            Vec3::X,
            Vec3::NEG_Z,
            Vec3::new(1e-4, 0.0, -1.0),
            Vec3::new(0.0, -0.0, -0.0),
            Vec3::new(-0.0, 0.5, 1.0),
            Vec3::new(1e-20, 0.0, 1e-20),
            Vec3::new(3e-20, -1e-20, 1e-21),
            Vec3::new(1e19, 2e19, -1e19),
            Vec3::new(1.5e-6, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.7e-6),
        ];
        (0..n)
            .map(|k| {
                if k % 7 == 3 {
                    special[k / 7 % special.len()]
                } else {
                    let v = Vec3::new(next(), next(), next());
                    if k % 2 == 0 {
                        v.normalize_or_zero()
                    } else {
                        v * 3.0
                    }
                }
            })
            .collect()
    }

    #[test]
    fn every_level_writes_the_one_boid_functions_bits() {
        let n = 203; // whole blocks and a remainder
        let h = headings(n);
        let p: Vec<Vec3> = h.iter().map(|v| *v * 7.0 + Vec3::ONE).collect();
        // A permutation, as a flock's id order is of its storage order.
        let slots: Vec<u32> = (0..n as u32).map(|k| (k * 89) % n as u32).collect();
        let t = Mat4::from_cols_array(&std::array::from_fn(|k| k as f32 * 0.25 - 1.5));
        for level in ALL_LEVELS.into_iter().filter(|l| l.is_supported()) {
            let mut q = vec![[9.0f32; 4]; n + 2];
            orientations(level, &slots, &h, &mut q);
            let mut m = vec![[9.0f32; 16]; n];
            let mut mt = vec![[9.0f32; 16]; n];
            matrices(level, &slots, &p, &h, 0.5, None, &mut m);
            matrices(level, &slots, &p, &h, 0.5, Some(&t), &mut mt);
            for (k, &s) in slots.iter().enumerate() {
                let s = s as usize;
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let want = look_rotation_direct(h[s]).to_array();
                assert_eq!(bits(&q[k]), bits(&want), "{level}: {} -> {:?}", h[s], q[k]);
                let (r, u, f) = look_basis(h[s]);
                let local = Mat4::from_cols(
                    (r * 0.5).extend(0.0),
                    (u * 0.5).extend(0.0),
                    (f * 0.5).extend(0.0),
                    p[s].extend(1.0),
                );
                assert_eq!(
                    bits(&m[k]),
                    bits(&local.to_cols_array()),
                    "{level}: {}",
                    h[s]
                );
                assert_eq!(
                    bits(&mt[k]),
                    bits(&(t * local).to_cols_array()),
                    "{level}: {}",
                    h[s]
                );
            }
            // Only the first `slots.len()` entries are written.
            assert_eq!(q[n], [9.0; 4]);
        }
    }
}
