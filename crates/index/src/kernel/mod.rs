//! The neighbour kernel: what one boid sees among the candidates an index hands it.
//!
//! Two phases, both exact and both the same bits on every instruction set:
//!
//! 1. **Filter.** Each candidate slot's squared distance `d2 = (dx·dx + dy·dy) + dz·dz` is
//!    compared with `r²`; the slots that pass (the boid itself included) are written, in
//!    ascending order, to a short list. Lanes are independent here, so 1, 4, 8 or 16 lanes
//!    produce the same list.
//! 2. **Accumulate.** The list is walked in groups of eight *virtual lanes*: entry `e` goes to
//!    lane `e mod 8`, each lane keeps its own running sums, and the lanes are added 0 to 7 at
//!    the end. SSE2 and NEON run a group as two 4-lane halves, AVX2 (and AVX-512, which uses
//!    AVX2's accumulation) as one 8-lane register, the scalar path as a loop over eight lanes:
//!    the same operations in the same order, so the same rounding. No fused multiply-add is
//!    used anywhere.
//!
//! One file per instruction set: `scalar.rs` (the reference), `sse2.rs`, `avx2.rs`,
//! `avx512.rs` (x86-64), `neon.rs` (aarch64).
//!
//! The boid itself and the padding of the last group are masked out by slot, so a coincident
//! *other* boid still counts (as in Unity).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod sse2;

#[cfg(target_arch = "x86_64")]
use avx2::{accumulate_avx2, filter_avx2, filter2_avx2};
#[cfg(target_arch = "x86_64")]
use avx512::filter_avx512;
#[cfg(target_arch = "aarch64")]
use neon::{accumulate_neon, filter_neon};
use scalar::{accumulate_scalar, filter_scalar};
#[cfg(target_arch = "x86_64")]
use sse2::{accumulate_sse2, filter_sse2};

use crate::layout::Run;
use crate::simd::SimdLevel;
use boids_core::{Neighbourhood, SeparationMode, Vec3};

/// Extra entries after the end of every coordinate array, so a SIMD filter may read a whole
/// register past the end of a run.
pub const PAD: usize = 16;

/// Virtual lanes of the accumulation phase.
pub const GROUP: usize = 8;

/// A boid's data as the accumulation phase reads it: position, velocity and speed
/// (`|velocity|`), one aligned 32-byte record per slot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub struct Rec(pub [f32; 8]);

impl Rec {
    /// A record for position `p` and velocity `v`.
    #[inline]
    pub fn new(p: Vec3, v: Vec3) -> Rec {
        Rec([p.x, p.y, p.z, v.x, v.y, v.z, v.length(), 0.0])
    }
    /// Position.
    #[inline]
    pub fn position(&self) -> Vec3 {
        Vec3::new(self.0[0], self.0[1], self.0[2])
    }
    /// Velocity.
    #[inline]
    pub fn velocity(&self) -> Vec3 {
        Vec3::new(self.0[3], self.0[4], self.0[5])
    }
}

/// A unit heading, padded to 16 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Head(pub [f32; 4]);

impl Head {
    /// The record of heading `h`.
    #[inline]
    pub fn new(h: Vec3) -> Head {
        Head([h.x, h.y, h.z, 0.0])
    }
    /// The heading.
    #[inline]
    pub fn get(&self) -> Vec3 {
        Vec3::new(self.0[0], self.0[1], self.0[2])
    }
}

/// Positions as three coordinate arrays (each `len + PAD` long, padding +∞), axes ordered so a
/// flat axis (every boid at the same coordinate, as under a plane lock) comes last.
#[derive(Clone, Copy, Debug)]
pub struct Cols<'a> {
    /// The three axes.
    pub a: [&'a [f32]; 3],
    /// `false` when the third axis is flat and can be skipped.
    pub d3: bool,
    /// Which real axis each of `a` is.
    pub axes: [usize; 3],
}

/// What a neighbourhood query measures.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Perception radius squared: candidates strictly closer count.
    pub r2: f32,
    /// Separation radius squared.
    pub s2: f32,
    /// Cosine of the field-of-view half-angle; `-∞` when the view is all around.
    pub cos: f32,
    /// Separation form.
    pub sep: SeparationMode,
    /// Sum the neighbours' headings.
    pub heads: bool,
    /// Sum the neighbours' speeds.
    pub speed: bool,
    /// Periodic box size, if space wraps.
    pub period: Option<Vec3>,
    /// Instruction set.
    pub level: SimdLevel,
}

/// The squared distance of the filter and of every query, as the SIMD paths compute it.
#[inline(always)]
pub fn dist2(o: Vec3) -> f32 {
    (o.x * o.x + o.y * o.y) + o.z * o.z
}

/// The instance of a kernel generic over (flat or full third axis, periodic or not) for the
/// given flags.
macro_rules! pick {
    ($d3:expr, $periodic:expr, $f:ident) => {
        match ($d3, $periodic) {
            (true, false) => $f::<true, false>,
            (false, false) => $f::<false, false>,
            (true, true) => $f::<true, true>,
            (false, true) => $f::<false, true>,
        }
    };
}

/// A filter instance: see [`filter`]. `(cols, q, r2, box size, runs, out) -> passed`.
pub type FilterFn = fn(&Cols<'_>, [f32; 3], f32, [f32; 3], &[Run], &mut [u32]) -> usize;

/// The filter instance for an instruction set, a flat or full third axis and a periodic box or
/// none: resolved once per walk, not per boid.
pub fn filter_fn(level: SimdLevel, d3: bool, periodic: bool) -> FilterFn {
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick!(d3, periodic, filter_sse2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick!(d3, periodic, filter_avx2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick!(d3, periodic, filter_avx512),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick!(d3, periodic, filter_neon),
        _ => pick!(d3, periodic, filter_scalar),
    }
}

/// A filter instance for two boids over the same runs: `(cols, [qa, qb], r2, box size, runs,
/// [out_a, out_b]) -> [passed_a, passed_b]`. Each list is exactly what [`FilterFn`] gives.
pub type Filter2Fn =
    fn(&Cols<'_>, [[f32; 3]; 2], f32, [f32; 3], &[Run], [&mut [u32]; 2]) -> [usize; 2];

/// The two-boid filter instance: a shared pass on AVX2 (and AVX-512, whose CPUs have it), two
/// single passes elsewhere.
pub fn filter2_fn(level: SimdLevel, d3: bool, periodic: bool) -> Filter2Fn {
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 | SimdLevel::Avx512 => pick!(d3, periodic, filter2_avx2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick!(d3, periodic, filter2_sse2),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick!(d3, periodic, filter2_neon),
        _ => pick!(d3, periodic, filter2_scalar),
    }
}

macro_rules! twice {
    ($name:ident, $single:ident) => {
        #[allow(clippy::too_many_arguments)]
        fn $name<const D3: bool, const PER: bool>(
            c: &Cols<'_>,
            q: [[f32; 3]; 2],
            r2: f32,
            size: [f32; 3],
            runs: &[Run],
            out: [&mut [u32]; 2],
        ) -> [usize; 2] {
            let [a, b] = out;
            [
                $single::<D3, PER>(c, q[0], r2, size, runs, a),
                $single::<D3, PER>(c, q[1], r2, size, runs, b),
            ]
        }
    };
}
twice!(filter2_scalar, filter_scalar);
#[cfg(target_arch = "x86_64")]
twice!(filter2_sse2, filter_sse2);
#[cfg(target_arch = "aarch64")]
twice!(filter2_neon, filter_neon);

/// Panics unless the three coordinate arrays have one length and every run ends [`PAD`] or more
/// before it: the bound every filter instance checks before its unchecked loads.
#[inline(always)]
pub(crate) fn check_run(c: &Cols<'_>, run: Run) {
    assert!(
        run.0 <= run.1 && run.1 as usize + PAD <= c.a[0].len(),
        "filter: run outside the padded arrays"
    );
}

/// Panics unless the three coordinate arrays have one length.
#[inline(always)]
pub(crate) fn check_cols(c: &Cols<'_>) {
    assert!(
        c.a[1].len() == c.a[0].len() && c.a[2].len() == c.a[0].len(),
        "filter: coordinate arrays of different lengths"
    );
}

/// The box size in the filter's axis order (zeros when not periodic).
#[inline]
pub fn filter_size(c: &Cols<'_>, period: Option<Vec3>) -> [f32; 3] {
    period.map_or([0.0; 3], |p| {
        let p = p.to_array();
        [p[c.axes[0]], p[c.axes[1]], p[c.axes[2]]]
    })
}

/// Writes to `out` every slot of `runs` whose squared distance from `q` is below `r2`, in
/// order (the runs are ascending and disjoint; empty runs are allowed); returns how many.
/// `out` must have room for every slot of the runs plus [`PAD`] (else this panics).
#[inline]
pub fn filter(
    level: SimdLevel,
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    period: Option<Vec3>,
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    filter_fn(level, c.d3, period.is_some())(c, q, r2, filter_size(c, period), runs, out)
}

/// An accumulation instance: see [`accumulate`]. `(spec, own, q, h, list, rec, head, box size)`.
pub type AccumulateFn = fn(&Spec, u32, Vec3, Vec3, &[u32], &[Rec], &[Head], Vec3) -> Neighbourhood;

/// The accumulation instance for a spec: resolved once per walk, not per boid.
pub fn accumulate_fn(spec: &Spec) -> AccumulateFn {
    macro_rules! pick_sums {
        ($f:ident) => {{
            macro_rules! with {
                ($sep:expr) => {
                    match (spec.period.is_some(), spec.heads || spec.speed) {
                        (false, false) => $f::<$sep, false, false>,
                        (true, false) => $f::<$sep, true, false>,
                        (false, true) => $f::<$sep, false, true>,
                        (true, true) => $f::<$sep, true, true>,
                    }
                };
            }
            match spec.sep {
                SeparationMode::UnitMean => with!(0),
                SeparationMode::InverseSquare => with!(1),
                SeparationMode::MeanOffset | SeparationMode::SumOffset => with!(2),
            }
        }};
    }
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_sums!(accumulate_sse2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 | SimdLevel::Avx512 => pick_sums!(accumulate_avx2),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_sums!(accumulate_neon),
        _ => pick_sums!(accumulate_scalar),
    }
}

/// Sums over the neighbours in `list` (ascending slots from the filter, padded with `own` to a
/// multiple of [`GROUP`]) of the boid in slot `own` at `q` heading `h`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn accumulate(
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
) -> Neighbourhood {
    accumulate_with(accumulate_fn(spec), spec, own, q, h, list, rec, head)
}

/// [`accumulate`] through an instance from [`accumulate_fn`].
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn accumulate_with(
    f: AccumulateFn,
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
) -> Neighbourhood {
    assert!(
        list.len().is_multiple_of(GROUP) && head.len() == rec.len(),
        "accumulate: list not padded to whole groups"
    );
    let mut hood = f(
        spec,
        own,
        q,
        h,
        list,
        rec,
        head,
        spec.period.unwrap_or(Vec3::ZERO),
    );
    if !spec.heads {
        hood.sum_heading = Vec3::ZERO;
    }
    if !spec.speed {
        hood.sum_speed = 0.0;
    }
    hood
}

/// Adds the eight virtual lanes of a sum in the one fixed order every path uses:
/// `((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))`.
#[inline(always)]
pub(crate) fn reduce8(a: [f32; GROUP]) -> f32 {
    let t = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
    (t[0] + t[2]) + (t[1] + t[3])
}

/// Per-lane running sums of the accumulation phase: offset x y z, velocity x y z, separation
/// x y z, heading x y z, speed.
pub(crate) type Sums = [[f32; GROUP]; 13];

/// The neighbourhood from the counts and the reduced sums (in the order of [`Sums`]).
#[inline(always)]
pub(crate) fn finish(count: u32, sep_count: u32, s: &[f32; 13], extras: bool) -> Neighbourhood {
    let v = |k: usize| Vec3::new(s[k], s[k + 1], s[k + 2]);
    Neighbourhood {
        count,
        separation_count: sep_count,
        sum_offset: v(0),
        sum_velocity: v(3),
        separation: v(6),
        sum_heading: if extras { v(9) } else { Vec3::ZERO },
        sum_speed: if extras { s[12] } else { 0.0 },
        external: Vec3::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random points in a small box, their records, and a few queries: every path must give
    /// exactly the scalar reference's list and sums.
    #[test]
    fn every_level_matches_the_scalar_reference_bit_for_bit() {
        let mut s = 99u64;
        let mut rnd = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / 16_777_216.0
        };
        let n = 300;
        let pts: Vec<Vec3> = (0..n)
            .map(|i| {
                if i % 17 == 0 {
                    Vec3::new(0.5, 0.5, 0.5) // coincident boids
                } else {
                    Vec3::new(rnd() * 3.0, rnd() * 3.0, rnd() * 3.0)
                }
            })
            .collect();
        let vel: Vec<Vec3> = (0..n)
            .map(|_| Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 4.0)
            .collect();
        let mut cols: [Vec<f32>; 3] = std::array::from_fn(|a| {
            let mut v: Vec<f32> = pts.iter().map(|p| p[a]).collect();
            v.resize(n + PAD, f32::INFINITY);
            v
        });
        cols[2][7] = -0.0;
        let rec: Vec<Rec> = pts
            .iter()
            .zip(&vel)
            .map(|(&p, &v)| Rec::new(p, v))
            .collect();
        let head: Vec<Head> = vel.iter().map(|v| Head::new(v.normalize())).collect();
        let c = Cols {
            a: [&cols[0], &cols[1], &cols[2]],
            d3: true,
            axes: [0, 1, 2],
        };
        for period in [None, Some(Vec3::splat(3.0))] {
            for (own, sep, cos) in [
                (0u32, SeparationMode::UnitMean, 0.0f32),
                (17, SeparationMode::InverseSquare, -0.5),
                (5, SeparationMode::MeanOffset, f32::NEG_INFINITY),
            ] {
                let q = pts[own as usize];
                let mut reference = None;
                for level in SimdLevel::supported() {
                    let mut out = vec![0u32; n + 2 * PAD];
                    let runs = [(0u32, 37u32), (37, 38), (38, 38), (40, 300)];
                    let len = filter(level, &c, q.to_array(), 1.1, period, &runs, &mut out);
                    let padded = len.div_ceil(GROUP) * GROUP;
                    out[len..padded].fill(own);
                    let spec = Spec {
                        r2: 1.1,
                        s2: 0.6,
                        cos,
                        sep,
                        heads: true,
                        speed: true,
                        period,
                        level,
                    };
                    let hood = accumulate(
                        &spec,
                        own,
                        q,
                        head[own as usize].get(),
                        &out[..padded],
                        &rec,
                        &head,
                    );
                    let got = (out[..len].to_vec(), format!("{hood:?}"));
                    match &reference {
                        None => reference = Some(got),
                        Some(r) => assert_eq!(r, &got, "{level} differs"),
                    }
                }
                let (list, _) = reference.unwrap();
                assert!(list.len() > 3, "the test should see neighbours");
            }
        }
    }
}
