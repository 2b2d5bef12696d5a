//! The AVX2 path: the filter 8 candidates at a time (and two boids per pass), the
//! accumulation's eight virtual lanes in one register. Operation for operation the scalar
//! reference (`scalar.rs`); `kernel::tests` checks it bit for bit.
#![expect(
    unsafe_code,
    reason = "SIMD intrinsics in the measured hot loop: loads and stores through pointers the \
              filter's assert and the padded arrays keep in bounds"
)]

use super::sse2::reduce_halves;
use super::{Cols, GROUP, Head, Rec, Spec, check_cols, check_run, finish};
use crate::layout::Run;
use boids_core::{Neighbourhood, Vec3};
use std::arch::x86_64::*;

/// For each 8-bit mask, the lanes it selects, packed to the front (the AVX2 filter's
/// compaction table).
static COMPRESS8: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut l = 0;
        while l < 8 {
            if (m >> l) & 1 == 1 {
                t[m][k] = l as u32;
                k += 1;
            }
            l += 1;
        }
        m += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------------
// Filter.

/// AVX2 filter: 8 candidates at a time, packed through [`COMPRESS8`].
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn filter_avx2<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    // SAFETY: `SimdLevel::Avx2` is only chosen after `is_x86_feature_detected!("avx2")`.
    unsafe { filter_avx2_impl::<D3, PER>(c, q, r2, size, runs, out) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,popcnt")]
fn filter_avx2_impl<const D3: bool, const PER: bool>(
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
        _mm256_set1_ps(q[0]),
        _mm256_set1_ps(q[1]),
        _mm256_set1_ps(q[2]),
    );
    let vr2 = _mm256_set1_ps(r2);
    let sz = [
        _mm256_set1_ps(size[0]),
        _mm256_set1_ps(size[1]),
        _mm256_set1_ps(size[2]),
    ];
    let half = [
        _mm256_set1_ps(0.5 * size[0]),
        _mm256_set1_ps(0.5 * size[1]),
        _mm256_set1_ps(0.5 * size[2]),
    ];
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    macro_rules! chunk {
        ($k:expr, $len:expr) => {{
            let k: usize = $k;
            let len: u32 = $len;
            // SAFETY: `check_run` asserted the run ends PAD (16) before each array's end
            // (`check_cols`: one length), and a chunk starts at most 8 past the run's start, so
            // the 8 floats read are inside.
            let (x, y) = unsafe {
                (
                    _mm256_loadu_ps(ax.as_ptr().add(k)),
                    _mm256_loadu_ps(ay.as_ptr().add(k)),
                )
            };
            let mut dx = _mm256_sub_ps(x, qx);
            let mut dy = _mm256_sub_ps(y, qy);
            if PER {
                dx = wrap8(dx, half[0], sz[0]);
                dy = wrap8(dy, half[1], sz[1]);
            }
            let mut d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            if D3 {
                // SAFETY: as above.
                let z = unsafe { _mm256_loadu_ps(az.as_ptr().add(k)) };
                let mut dz = _mm256_sub_ps(z, qz);
                if PER {
                    dz = wrap8(dz, half[2], sz[2]);
                }
                d2 = _mm256_add_ps(d2, _mm256_mul_ps(dz, dz));
            }
            let tail = (1u32 << len) - 1;
            let m = (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2, vr2)) as u32) & tail;
            let idx = _mm256_add_epi32(_mm256_set1_epi32(k as i32), iota);
            let perm = &COMPRESS8[m as usize];
            let o = &mut out[n..n + 8];
            // SAFETY: `perm` is 8 u32 and `o` has room for 8; both unaligned-safe intrinsics.
            unsafe {
                let p = _mm256_loadu_si256(perm.as_ptr().cast());
                _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_permutevar8x32_epi32(idx, p));
            }
            n += m.count_ones() as usize;
        }};
    }
    // Two chunks per run without a data-dependent branch (most runs are shorter than 16),
    // then a loop for the rest.
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        let len = s1.saturating_sub(s0);
        chunk!(s0 as usize, len.min(8));
        chunk!(s0 as usize + 8, len.saturating_sub(8).min(8));
        let mut k = s0 + 16;
        while k < s1 {
            chunk!(k as usize, (s1 - k).min(8));
            k += 8;
        }
    }
    n
}

/// AVX2 filter for two boids at once (`q[0]`, `q[1]`) over the same runs: each candidate
/// chunk is loaded once and tested against both; each boid gets its own exact list.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn filter2_avx2<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [[f32; 3]; 2],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: [&mut [u32]; 2],
) -> [usize; 2] {
    // SAFETY: `SimdLevel::Avx2` is only chosen after `is_x86_feature_detected!("avx2")`.
    unsafe { filter2_avx2_impl::<D3, PER>(c, q, r2, size, runs, out) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,popcnt")]
fn filter2_avx2_impl<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [[f32; 3]; 2],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: [&mut [u32]; 2],
) -> [usize; 2] {
    let [out_a, out_b] = out;
    let (mut na, mut nb) = (0usize, 0usize);
    check_cols(c);
    let [ax, ay, az] = c.a;
    let qa = [
        _mm256_set1_ps(q[0][0]),
        _mm256_set1_ps(q[0][1]),
        _mm256_set1_ps(q[0][2]),
    ];
    let qb = [
        _mm256_set1_ps(q[1][0]),
        _mm256_set1_ps(q[1][1]),
        _mm256_set1_ps(q[1][2]),
    ];
    let vr2 = _mm256_set1_ps(r2);
    let sz = [
        _mm256_set1_ps(size[0]),
        _mm256_set1_ps(size[1]),
        _mm256_set1_ps(size[2]),
    ];
    let half = [
        _mm256_set1_ps(0.5 * size[0]),
        _mm256_set1_ps(0.5 * size[1]),
        _mm256_set1_ps(0.5 * size[2]),
    ];
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    macro_rules! d2 {
        ($x:expr, $y:expr, $z:expr, $q:expr) => {{
            let mut dx = _mm256_sub_ps($x, $q[0]);
            let mut dy = _mm256_sub_ps($y, $q[1]);
            if PER {
                dx = wrap8(dx, half[0], sz[0]);
                dy = wrap8(dy, half[1], sz[1]);
            }
            let mut d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            if D3 {
                let mut dz = _mm256_sub_ps($z, $q[2]);
                if PER {
                    dz = wrap8(dz, half[2], sz[2]);
                }
                d2 = _mm256_add_ps(d2, _mm256_mul_ps(dz, dz));
            }
            d2
        }};
    }
    macro_rules! pack {
        ($out:expr, $n:expr, $m:expr, $idx:expr) => {{
            // SAFETY: the table row is 8 u32; the run's room check below keeps `$n + 8` within
            // `$out` (each chunk adds at most 8 to `$n`, and the check counted the run's
            // candidates plus 16); both unaligned-safe.
            unsafe {
                let p = _mm256_loadu_si256(COMPRESS8[$m as usize].as_ptr().cast());
                _mm256_storeu_si256(
                    $out.as_mut_ptr().add($n).cast(),
                    _mm256_permutevar8x32_epi32($idx, p),
                );
            }
            $n += $m.count_ones() as usize;
        }};
    }
    macro_rules! chunk {
        ($k:expr, $len:expr) => {{
            let k: usize = $k;
            let len: u32 = $len;
            // SAFETY: `check_run` asserted the run ends PAD (16) before each array's end
            // (`check_cols`: one length), and a chunk starts at most 8 past the run's start, so
            // the 8 floats read are inside.
            let (x, y, z) = unsafe {
                (
                    _mm256_loadu_ps(ax.as_ptr().add(k)),
                    _mm256_loadu_ps(ay.as_ptr().add(k)),
                    if D3 {
                        _mm256_loadu_ps(az.as_ptr().add(k))
                    } else {
                        _mm256_setzero_ps()
                    },
                )
            };
            let tail = (1u32 << len) - 1;
            let ma = (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2!(x, y, z, qa), vr2))
                as u32)
                & tail;
            let mb = (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d2!(x, y, z, qb), vr2))
                as u32)
                & tail;
            let idx = _mm256_add_epi32(_mm256_set1_epi32(k as i32), iota);
            pack!(out_a, na, ma, idx);
            pack!(out_b, nb, mb, idx);
        }};
    }
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        let len = s1.saturating_sub(s0);
        // Room for every candidate of the run and a whole register past it, in both lists
        // (what the packing stores rely on).
        let room = len as usize + 16;
        assert!(
            na + room <= out_a.len() && nb + room <= out_b.len(),
            "filter: the lists are too short for the runs"
        );
        chunk!(s0 as usize, len.min(8));
        chunk!(s0 as usize + 8, len.saturating_sub(8).min(8));
        let mut k = s0 + 16;
        while k < s1 {
            chunk!(k as usize, (s1 - k).min(8));
            k += 8;
        }
    }
    [na, nb]
}

#[target_feature(enable = "avx2")]
#[inline]
fn wrap8(o: __m256, half: __m256, size: __m256) -> __m256 {
    let hi = _mm256_cmp_ps::<_CMP_GT_OQ>(o, half);
    let lo = _mm256_cmp_ps::<_CMP_LT_OQ>(o, _mm256_sub_ps(_mm256_setzero_ps(), half));
    let down = _mm256_sub_ps(o, size);
    let up = _mm256_add_ps(o, size);
    _mm256_blendv_ps(_mm256_blendv_ps(o, up, lo), down, hi)
}

// ---------------------------------------------------------------------------------------------
// Accumulation: eight virtual lanes.

/// AVX2 accumulation: each group of eight in one register.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn accumulate_avx2<const SEP: u8, const PER: bool, const X: bool>(
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
    size: Vec3,
) -> Neighbourhood {
    // SAFETY: `SimdLevel::Avx2` and `Avx512` are only chosen after
    // `is_x86_feature_detected!("avx2")`.
    unsafe { accumulate_avx2_impl::<SEP, PER, X>(spec, own, q, h, list, rec, head, size) }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,popcnt")]
fn accumulate_avx2_impl<const SEP: u8, const PER: bool, const X: bool>(
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
    let mut sums = [_mm256_setzero_ps(); 13];
    let qv = [
        _mm256_set1_ps(q.x),
        _mm256_set1_ps(q.y),
        _mm256_set1_ps(q.z),
    ];
    let hv = [
        _mm256_set1_ps(h.x),
        _mm256_set1_ps(h.y),
        _mm256_set1_ps(h.z),
    ];
    let szv = [
        _mm256_set1_ps(size.x),
        _mm256_set1_ps(size.y),
        _mm256_set1_ps(size.z),
    ];
    let half = [
        _mm256_set1_ps(0.5 * size.x),
        _mm256_set1_ps(0.5 * size.y),
        _mm256_set1_ps(0.5 * size.z),
    ];
    let cos = _mm256_set1_ps(spec.cos);
    let s2 = _mm256_set1_ps(spec.s2);
    let one = _mm256_set1_ps(1.0);
    let zero = _mm256_setzero_ps();
    let ownv = _mm256_set1_epi32(own as i32);
    // Every index is checked against the arrays' length, eight at a time, before any load.
    let lenv = _mm256_set1_epi32(i32::try_from(rec.len()).expect("fewer than 2^31 boids"));
    let recp = rec.as_ptr().cast::<f32>();
    let headp = head.as_ptr().cast::<f32>();
    // One group of eight; two run per iteration so their square-root and division chains
    // overlap (the sums still add group after group, in order).
    macro_rules! group {
        ($group:expr) => {{
            let group: &[u32] = $group;
            // SAFETY: `group` is 8 u32.
            let idx = unsafe { _mm256_loadu_si256(group.as_ptr().cast()) };
            // Indices are below 2^31 (the assert above), so the signed compare is exact.
            let inside = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(lenv, idx)));
            assert!(
                inside == 0xff,
                "accumulate: a neighbour index outside the records"
            );
            let g: [usize; 8] = [
                group[0] as usize,
                group[1] as usize,
                group[2] as usize,
                group[3] as usize,
                group[4] as usize,
                group[5] as usize,
                group[6] as usize,
                group[7] as usize,
            ];
            // Rows l and l + 4 share a register: low 128 bits from entry l, high from entry l + 4;
            // a 4x4 transpose per 128-bit half then gives one component per register.
            macro_rules! pair {
                ($l:expr, $off:expr) => {
                    // SAFETY: indices were checked against `rec.len()` above; each record is 32
                    // bytes and the loads read 16-byte halves of it.
                    unsafe {
                        _mm256_insertf128_ps::<1>(
                            _mm256_castps128_ps256(_mm_loadu_ps(recp.add(g[$l] * 8 + $off))),
                            _mm_loadu_ps(recp.add(g[$l + 4] * 8 + $off)),
                        )
                    }
                };
            }
            let [px, py, pz, vx] =
                transpose8x4([pair!(0, 0), pair!(1, 0), pair!(2, 0), pair!(3, 0)]);
            let [vy, vz, spd, _] =
                transpose8x4([pair!(0, 4), pair!(1, 4), pair!(2, 4), pair!(3, 4)]);
            let mut d = [
                _mm256_sub_ps(px, qv[0]),
                _mm256_sub_ps(py, qv[1]),
                _mm256_sub_ps(pz, qv[2]),
            ];
            if PER {
                d[0] = wrap8(d[0], half[0], szv[0]);
                d[1] = wrap8(d[1], half[1], szv[1]);
                d[2] = wrap8(d[2], half[2], szv[2]);
            }
            let d2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(d[0], d[0]), _mm256_mul_ps(d[1], d[1])),
                _mm256_mul_ps(d[2], d[2]),
            );
            let inv = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GT_OQ>(d2, zero),
                _mm256_div_ps(one, _mm256_sqrt_ps(d2)),
            );
            let dot = _mm256_mul_ps(
                _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(hv[0], d[0]), _mm256_mul_ps(hv[1], d[1])),
                    _mm256_mul_ps(hv[2], d[2]),
                ),
                inv,
            );
            let is_own = _mm256_castsi256_ps(_mm256_cmpeq_epi32(idx, ownv));
            let ok = _mm256_andnot_ps(is_own, _mm256_cmp_ps::<_CMP_GT_OQ>(dot, cos));
            let sep = _mm256_and_ps(ok, _mm256_cmp_ps::<_CMP_LT_OQ>(d2, s2));
            count += (_mm256_movemask_ps(ok) as u32).count_ones();
            sep_count += (_mm256_movemask_ps(sep) as u32).count_ones();
            let f = match SEP {
                0 => [
                    _mm256_mul_ps(d[0], inv),
                    _mm256_mul_ps(d[1], inv),
                    _mm256_mul_ps(d[2], inv),
                ],
                1 => {
                    let i2 = _mm256_mul_ps(inv, inv);
                    [
                        _mm256_mul_ps(d[0], i2),
                        _mm256_mul_ps(d[1], i2),
                        _mm256_mul_ps(d[2], i2),
                    ]
                }
                _ => d,
            };
            macro_rules! add {
                ($k:expr, $m:expr, $x:expr) => {
                    sums[$k] = _mm256_add_ps(sums[$k], _mm256_and_ps($m, $x))
                };
            }
            macro_rules! sub {
                ($k:expr, $m:expr, $x:expr) => {
                    sums[$k] = _mm256_sub_ps(sums[$k], _mm256_and_ps($m, $x))
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
                macro_rules! hpair {
                    ($l:expr) => {
                        // SAFETY: indices were checked against `rec.len()`, which `accumulate`
                        // asserted equals `head.len()`; each heading record is 16 bytes.
                        unsafe {
                            _mm256_insertf128_ps::<1>(
                                _mm256_castps128_ps256(_mm_loadu_ps(headp.add(g[$l] * 4))),
                                _mm_loadu_ps(headp.add(g[$l + 4] * 4)),
                            )
                        }
                    };
                }
                let [hx, hy, hz, _] = transpose8x4([hpair!(0), hpair!(1), hpair!(2), hpair!(3)]);
                add!(9, ok, hx);
                add!(10, ok, hy);
                add!(11, ok, hz);
                add!(12, ok, spd);
            }
        }};
    }
    let mut pairs = list.chunks_exact(2 * GROUP);
    for two in &mut pairs {
        group!(&two[..GROUP]);
        group!(&two[GROUP..]);
    }
    for one in pairs.remainder().chunks_exact(GROUP) {
        group!(one);
    }
    let used = if X { 13 } else { 9 };
    let mut out = [0f32; 13];
    for k in 0..used {
        let lo = _mm256_castps256_ps128(sums[k]);
        let hi = _mm256_extractf128_ps::<1>(sums[k]);
        out[k] = reduce_halves(lo, hi);
    }
    finish(count, sep_count, &out, X)
}

/// Transposes the 4x4 blocks of both 128-bit halves: register `a` of the result holds
/// component `a` of rows 0-3 (low half) and 4-7 (high half), i.e. lanes 0 to 7 in order.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose8x4(r: [__m256; 4]) -> [__m256; 4] {
    let t0 = _mm256_unpacklo_ps(r[0], r[1]);
    let t1 = _mm256_unpacklo_ps(r[2], r[3]);
    let t2 = _mm256_unpackhi_ps(r[0], r[1]);
    let t3 = _mm256_unpackhi_ps(r[2], r[3]);
    [
        _mm256_castpd_ps(_mm256_unpacklo_pd(
            _mm256_castps_pd(t0),
            _mm256_castps_pd(t1),
        )),
        _mm256_castpd_ps(_mm256_unpackhi_pd(
            _mm256_castps_pd(t0),
            _mm256_castps_pd(t1),
        )),
        _mm256_castpd_ps(_mm256_unpacklo_pd(
            _mm256_castps_pd(t2),
            _mm256_castps_pd(t3),
        )),
        _mm256_castpd_ps(_mm256_unpackhi_pd(
            _mm256_castps_pd(t2),
            _mm256_castps_pd(t3),
        )),
    ]
}
