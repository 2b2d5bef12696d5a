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

/// Which boids a read writes, in order.
#[derive(Clone, Copy, Debug)]
pub enum Order<'a> {
    /// The boids at these slots of the arrays (a flock's storage slots in id order).
    Slots(&'a [u32]),
    /// Every boid of the arrays, in turn (arrays already in id order).
    Each,
}

impl Order<'_> {
    /// How many boids a read in this order of arrays of `n` writes.
    #[inline(always)]
    fn len(self, n: usize) -> usize {
        match self {
            Order::Slots(s) => s.len(),
            Order::Each => n,
        }
    }
}

/// `out[k]` = the orientation (`look_rotation_direct`) of the `k`-th heading in `order`
/// (`out` holds at least as many).
pub fn orientations(level: SimdLevel, order: Order<'_>, headings: &[Vec3], out: &mut [[f32; 4]]) {
    dispatch!(
        level,
        orientations_body(order: Order<'_>, headings: &[Vec3], out: &mut [[f32; 4]])
    )
}

/// How a read writes instance matrices.
#[derive(Clone, Copy, Debug)]
pub struct Form<'a> {
    /// Each axis times this.
    pub scale: f32,
    /// Multiplied on the left of each boid's matrix, when there is one.
    pub transform: Option<&'a Mat4>,
    /// Write with streaming stores where the CPU has them and the output is 16-byte aligned:
    /// for an output far larger than the caches (a store then need not read the line it fills
    /// first). The same values either way.
    pub stream: bool,
}

/// `out[k]` = the instance matrix of the `k`-th boid `s` in `order`, column-major: the axes of
/// `look_basis(headings[s])` times `form.scale`, translated to `positions[s]`, multiplied on
/// the left by `form.transform` when there is one (`transform × boid`, in glam's order of
/// operations).
pub fn matrices(
    level: SimdLevel,
    order: Order<'_>,
    positions: &[Vec3],
    headings: &[Vec3],
    form: Form<'_>,
    out: &mut [[f32; 16]],
) {
    // Streaming stores need 16-byte aligned rows (x86-64 only; elsewhere plain stores).
    let stream =
        form.stream && cfg!(target_arch = "x86_64") && (out.as_ptr() as usize).is_multiple_of(16);
    let form = Form { stream, ..form };
    dispatch!(
        level,
        matrices_body(
            order: Order<'_>,
            positions: &[Vec3],
            headings: &[Vec3],
            form: Form<'_>,
            out: &mut [[f32; 16]]
        )
    );
    #[cfg(target_arch = "x86_64")]
    if stream {
        // The streaming stores ordered before whatever this thread does next (such as
        // telling the caller its part is written).
        // SAFETY: SSE is part of x86-64.
        unsafe { std::arch::x86_64::_mm_sfence() };
    }
}

/// The vectors of one block's boids (`at(i)` is lane `i`'s index into `from`), as three
/// arrays of lanes (x, y, z).
#[inline(always)]
fn gather(at: impl Fn(usize) -> usize, from: &[Vec3]) -> [[f32; B]; 3] {
    let mut v = [[0.0f32; B]; 3];
    for i in 0..B {
        let p = from[at(i)];
        v[0][i] = p.x;
        v[1][i] = p.y;
        v[2][i] = p.z;
    }
    v
}

/// `out[i][at..at + 4]` = lane `i` of the four lane arrays `c`, for the block's `B` boids: the
/// lanes turned into each boid's group of four floats, a 4×4 transpose per four boids (shuffles
/// on x86-64, where the compiler's own code for the loop below spills every lane). Moves bits,
/// computes nothing. `stream` (x86-64, rows 16-byte aligned): streaming stores, which write
/// the rows to memory without reading their cache lines first (for outputs larger than the
/// caches); the caller fences after the last.
#[inline(always)]
fn put4<const N: usize>(out: &mut [[f32; N]], at: usize, c: &[[f32; B]; 4], stream: bool) {
    let out = &mut out[..B];
    assert!(at + 4 <= N);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_stream_ps,
            _mm_unpackhi_ps, _mm_unpacklo_ps,
        };
        for g in 0..B / 4 {
            let at4 = |k: usize| c[k][4 * g..4 * g + 4].as_ptr();
            // SAFETY: SSE is part of x86-64. Each load reads the four floats of a lane array
            // starting at `4 g` (`4 g + 4 <= B`, the slice above checks it); each store writes
            // four floats of `out[4 g + k]` starting at `at`, inside the row (`at + 4 <= N`,
            // asserted above; `out` has `B` rows); a streaming one only when the caller found
            // `out` 16-byte aligned, so every row (16 floats) and `at` (a multiple of 4) are.
            unsafe {
                let (x, y, z, w) = (
                    _mm_loadu_ps(at4(0)),
                    _mm_loadu_ps(at4(1)),
                    _mm_loadu_ps(at4(2)),
                    _mm_loadu_ps(at4(3)),
                );
                let (xy01, zw01) = (_mm_unpacklo_ps(x, y), _mm_unpacklo_ps(z, w));
                let (xy23, zw23) = (_mm_unpackhi_ps(x, y), _mm_unpackhi_ps(z, w));
                let rows = [
                    _mm_movelh_ps(xy01, zw01),
                    _mm_movehl_ps(zw01, xy01),
                    _mm_movelh_ps(xy23, zw23),
                    _mm_movehl_ps(zw23, xy23),
                ];
                for (k, r) in rows.into_iter().enumerate() {
                    let to = out[4 * g + k][at..at + 4].as_mut_ptr();
                    if stream {
                        // `stream`: `to` is 16-byte aligned (the caller checked `out`'s
                        // alignment; rows and `at` keep it).
                        _mm_stream_ps(to, r);
                    } else {
                        _mm_storeu_ps(to, r);
                    }
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = stream;
    #[cfg(not(target_arch = "x86_64"))]
    for (i, o) in out.iter_mut().enumerate() {
        o[at..at + 4].copy_from_slice(&[c[0][i], c[1][i], c[2][i], c[3][i]]);
    }
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
        // `rcp.is_finite() && rcp > 0.0`: the bits of a positive finite non-zero float are
        // 1..=0x7f7f_ffff (zero wraps round, negatives, infinity and NaN are above). As an
        // integer comparison, which stays in vector lanes (the compiler turns the two float
        // comparisons into a class test it computes lane by lane on AVX-512).
        let keep = rcp.to_bits().wrapping_sub(1) < 0x7f7f_ffff;
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
fn orientations_body(order: Order<'_>, headings: &[Vec3], out: &mut [[f32; 4]]) {
    let n = order.len(headings.len());
    match order {
        Order::Slots(s) => orientations_in(n, |k| s[k] as usize, headings, out),
        Order::Each => orientations_in(n, |k| k, headings, out),
    }
}

/// [`orientations_body`] for the boids `slot(0)`, ..., `slot(n - 1)`.
#[inline(always)]
fn orientations_in(
    n: usize,
    slot: impl Fn(usize) -> usize + Copy,
    headings: &[Vec3],
    out: &mut [[f32; 4]],
) {
    let out = &mut out[..n];
    let mut outs = out.chunks_exact_mut(B);
    for (b, o) in (&mut outs).enumerate() {
        let at = |i: usize| slot(B * b + i);
        let h = gather(at, headings);
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
            let clear = (h2 > 2e-12 * len2) & (len2 > 1e-28) & (len2 < 1e36);
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
        if near != [false; B] {
            let (ok, _) = general(&h);
            for i in 0..B {
                if !ok[i] {
                    let v = look_rotation(headings[at(i)]).to_array();
                    for k in 0..4 {
                        q[k][i] = v[k];
                    }
                }
            }
        }
        put4(o, 0, &q, false);
    }
    let done = n - n % B;
    for (k, o) in outs.into_remainder().iter_mut().enumerate() {
        *o = look_rotation_direct(headings[slot(done + k)]).to_array();
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
    order: Order<'_>,
    positions: &[Vec3],
    headings: &[Vec3],
    form: Form<'_>,
    out: &mut [[f32; 16]],
) {
    let n = order.len(headings.len());
    let (p, h) = (positions, headings);
    match order {
        Order::Slots(s) => matrices_in(n, |k| s[k] as usize, p, h, form, out),
        Order::Each => matrices_in(n, |k| k, p, h, form, out),
    }
}

/// [`matrices_body`] for the boids `slot(0)`, ..., `slot(n - 1)`.
#[inline(always)]
fn matrices_in(
    n: usize,
    slot: impl Fn(usize) -> usize + Copy,
    positions: &[Vec3],
    headings: &[Vec3],
    form: Form<'_>,
    out: &mut [[f32; 16]],
) {
    let Form {
        scale,
        transform,
        stream,
    } = form;
    let one = |s: usize| {
        let (r, u, f) = look_basis(headings[s]);
        matrix(
            [r.to_array(), u.to_array(), f.to_array()],
            positions[s].to_array(),
            scale,
            transform,
        )
    };
    let out = &mut out[..n];
    let mut outs = out.chunks_exact_mut(B);
    for (b, o) in (&mut outs).enumerate() {
        let at = |i: usize| slot(B * b + i);
        let h = gather(at, headings);
        let p = gather(at, positions);
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
        // The matrix's columns as lanes: the axes times `scale` (w 0), the position (w 1).
        let mut cols = [[[0.0f32; B]; 4]; 4];
        for i in 0..B {
            for c in 0..3 {
                for r in 0..3 {
                    cols[c][r][i] = a[3 * c + r][i] * scale;
                }
            }
            cols[3][0][i] = p[0][i];
            cols[3][1][i] = p[1][i];
            cols[3][2][i] = p[2][i];
            cols[3][3][i] = 1.0;
        }
        let mut m = match transform {
            None => cols,
            Some(t) => {
                // `transform ×` the boid's matrix, as `matrix` computes it.
                let t = t.to_cols_array_2d();
                let mut m = [[[0.0f32; B]; 4]; 4];
                for c in 0..4 {
                    for r in 0..4 {
                        for i in 0..B {
                            let col = |k: usize| cols[c][k][i];
                            m[c][r][i] = t[0][r] * col(0)
                                + t[1][r] * col(1)
                                + t[2][r] * col(2)
                                + t[3][r] * col(3);
                        }
                    }
                }
                m
            }
        };
        // The rare lanes (`look_basis`'s other paths) from the one-boid function, before the
        // block is stored: each row is written once.
        if ok != [true; B] {
            for i in 0..B {
                if !ok[i] {
                    let v = one(at(i));
                    for c in 0..4 {
                        for r in 0..4 {
                            m[c][r][i] = v[4 * c + r];
                        }
                    }
                }
            }
        }
        for (c, lanes) in m.iter().enumerate() {
            put4(o, 4 * c, lanes, stream);
        }
    }
    let done = n - n % B;
    for (k, o) in outs.into_remainder().iter_mut().enumerate() {
        *o = one(slot(done + k));
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
            orientations(level, Order::Slots(&slots), &h, &mut q);
            let mut m = vec![[9.0f32; 16]; n];
            let mut mt = vec![[9.0f32; 16]; n];
            let form = |transform, stream| Form {
                scale: 0.5,
                transform,
                stream,
            };
            let at = Order::Slots(&slots);
            matrices(level, at, &p, &h, form(None, false), &mut m);
            matrices(level, at, &p, &h, form(Some(&t), false), &mut mt);
            // The same boids from arrays already in that order: the same bits.
            let hs: Vec<Vec3> = slots.iter().map(|&s| h[s as usize]).collect();
            let ps: Vec<Vec3> = slots.iter().map(|&s| p[s as usize]).collect();
            let mut q2 = vec![[9.0f32; 4]; n + 2];
            let (mut m2, mut mt2) = (vec![[9.0f32; 16]; n], vec![[9.0f32; 16]; n]);
            orientations(level, Order::Each, &hs, &mut q2);
            // Streamed (where `m2` is aligned, as allocations of this size are), the same too.
            matrices(level, Order::Each, &ps, &hs, form(None, true), &mut m2);
            matrices(level, Order::Each, &ps, &hs, form(Some(&t), true), &mut mt2);
            fn all_bits<const N: usize>(v: &[[f32; N]]) -> Vec<u32> {
                v.iter().flatten().map(|x| x.to_bits()).collect()
            }
            assert_eq!(all_bits(&m2), all_bits(&m), "{level}");
            assert_eq!(all_bits(&mt2), all_bits(&mt), "{level}");
            assert_eq!(all_bits(&q2), all_bits(&q), "{level}");
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
