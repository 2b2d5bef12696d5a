//! The neighbour kernel: what boids see among the candidates an index hands them, in one pass
//! of masked sums straight over the index's coordinate arrays.
//!
//! **Boids in lanes.** A kernel call takes eight consecutive boids (slots `first..first + 8`,
//! fewer at the end of a row), one a lane, and the union of their candidates in ascending slot
//! order (runs of slots from the grid, a list from the k-d tree). Each candidate is broadcast to
//! every lane and each lane adds its terms into its own sums; a candidate outside that boid's
//! radius or view, or the boid itself, adds `+0.0` (bitwise masked). A lane's sums therefore add
//! that boid's neighbours one by one in slot order, whatever else the batch needed: a sum that
//! starts at `+0.0` can never become `-0.0` (round-to-nearest), so the extra `+0.0` terms change
//! no bits. So a boid's sums do not depend on its batch, on how the candidates are grouped, on
//! which extra candidates were offered (every index kind, the walk and a single query agree
//! bit for bit), or on the instruction set: they equal the plain one-by-one f32 loop
//! (`tests::reference`). The lanes need no reduction: they go straight to the eight-boid rules
//! ([`Raw8::hoods8`]).
//!
//! **The k nearest** (`hoods_knn`, a k-nearest limit up to [`KNN_MAX`]): the same batches and
//! candidates; each lane first keeps its k nearest, sorted, without a branch, then adds them in
//! slot order, each lane reading its own neighbour: the same bits as the one-boid path.
//!
//! **One kernel, written once** (`hoods`, over runs of slots or over a list) over the lane type
//! of `lanes/`: plain arrays (every target), SSE2, AVX2, AVX-512 (mask registers), NEON and
//! WebAssembly simd128. Every operation is one correctly rounded IEEE operation per lane and no
//! fused multiply-add is used.
//!
//! **Per candidate:** `d = p_j - q` (nearest image when the space wraps), `d2 = (dx·dx + dy·dy)
//! + dz·dz`; in radius when `d2 < r²`; in view when the field of view is all around, or else
//! when `(h·d)·(1/√max(d2, MIN_POSITIVE)) > cos` (a coincident boid's offset is zero: it is seen
//! only by a view wider than 90°); separation for those in view with `d2 < s²`: `d/√d2`,
//! `d/d2` or `d`, by mode, subtracted.

#![allow(
    clippy::needless_range_loop,
    reason = "axis and lane loops index several arrays in step, and are unrolled"
)]
#![allow(
    unsafe_code,
    reason = "the measured hot loop: chunk loads through pointers the run checks keep inside \
              the padded arrays, and calls into instances compiled for the CPU's features"
)]

mod batch;
mod dispatch;
mod knn;
pub(crate) mod lanes;
mod one;
#[cfg(test)]
mod tests;

pub use batch::kernel_size;
pub use dispatch::{KnnFn, ListFn, RunsFn, knn_fn, list_fn, runs_fn};
pub use knn::{KNN_MAX, KNN_MAX_LEN};
pub use one::one_boid;

use crate::layout::Run;
use crate::simd::SimdLevel;
use boids_core::{Neighbourhood, SeparationMode, Vec3};

/// Extra entries after the end of every coordinate array (`+∞` for positions, 0 for the
/// rest), so a chunk of eight that starts inside a run never reads past the end.
pub const PAD: usize = 16;

/// The most boids a kernel call takes ([`width`]).
pub const MAX_WIDTH: usize = 16;

/// The neighbourhoods a kernel call leaves: boids `first..first + 8` in the first, the next
/// eight (sixteen-lane instruction sets only) in the second.
pub type Batch = [Raw8; 2];

/// How many consecutive boids a kernel call takes on an instruction set (one a lane): 16 with
/// AVX-512, 8 on every other.
pub fn width(level: SimdLevel) -> usize {
    match level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => 16,
        _ => 8,
    }
}

/// The boids as the kernel reads them: slots in the index's cell order, each array `len + PAD`
/// long, axes in the kernel's order (a flat axis last: see [`Soa::d3`]).
#[derive(Clone, Copy, Debug)]
pub struct Soa<'a> {
    /// Positions.
    p: [&'a [f32]; 3],
    /// Velocities.
    v: [&'a [f32]; 3],
    /// Unit headings.
    h: [&'a [f32]; 3],
    /// `false` when the third axis is flat (every boid at one coordinate, as under a plane
    /// lock): its offsets are exactly zero and are skipped.
    pub d3: bool,
}

impl<'a> Soa<'a> {
    /// The arrays, checked once here (not per query): panics unless all nine have the same
    /// length, at least [`PAD`].
    pub fn new(p: [&'a [f32]; 3], v: [&'a [f32]; 3], h: [&'a [f32]; 3], d3: bool) -> Self {
        let soa = Soa { p, v, h, d3 };
        soa.check();
        soa
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.p[0].len().saturating_sub(PAD)
    }

    /// `true` when there are no boids.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Panics unless every array has the same length, padding included.
    fn check(&self) {
        let l = self.p[0].len();
        assert!(
            l >= PAD
                && self
                    .p
                    .iter()
                    .chain(&self.v)
                    .chain(&self.h)
                    .all(|a| a.len() == l),
            "kernel: arrays of different lengths"
        );
    }
}

/// What a neighbourhood query measures.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Perception radius squared: candidates strictly closer count.
    pub r2: f32,
    /// Separation radius squared.
    pub s2: f32,
    /// Cosine of the field-of-view half-angle: `-∞` when the view is all around; see
    /// [`fov_cos`].
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

/// The kernel's cosine for a field-of-view half-angle in degrees: `-∞` from 180° up (no
/// limit), else the `f32` cosine (at 90°, Unity's: just below zero).
pub fn fov_cos(half_angle_deg: f32) -> f32 {
    boids_core::fov_cos(half_angle_deg)
}

/// The squared distance every query computes: `(x·x + y·y) + z·z`.
#[inline(always)]
pub fn dist2(o: Vec3) -> f32 {
    (o.x * o.x + o.y * o.y) + o.z * o.z
}

/// A neighbourhood as the kernel leaves it, in the kernel's axis order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Raw {
    /// Neighbours in view.
    pub count: u32,
    /// Of those, inside the separation radius.
    pub sep_count: u32,
    /// Offset x y z, velocity x y z, separation x y z, heading x y z, speed.
    pub s: [f32; 13],
}

impl Raw {
    /// Writes these sums into lane `l` of `hoods`, in real axes (`axes` as for
    /// [`Raw::hood`]): the same values [`Raw::hood`] gives, without the intermediate.
    #[inline]
    pub fn set_lane(&self, hoods: &mut boids_core::rules8::Hoods8, l: usize, axes: [usize; 3]) {
        hoods.count[l] = self.count;
        hoods.separation_count[l] = self.sep_count;
        for a in 0..3 {
            let r = axes[a];
            hoods.sum_offset.0[r].0[l] = self.s[a];
            hoods.sum_velocity.0[r].0[l] = self.s[3 + a];
            hoods.separation.0[r].0[l] = self.s[6 + a];
            hoods.sum_heading.0[r].0[l] = self.s[9 + a];
        }
    }

    /// The neighbourhood in real axes: `axes[a]` is the real axis of the kernel's axis `a`.
    #[inline]
    pub fn hood(&self, axes: [usize; 3]) -> Neighbourhood {
        let v = |k: usize| {
            let mut r = [0.0f32; 3];
            for a in 0..3 {
                r[axes[a]] = self.s[k + a];
            }
            Vec3::from_array(r)
        };
        Neighbourhood {
            count: self.count,
            separation_count: self.sep_count,
            sum_offset: v(0),
            sum_velocity: v(3),
            separation: v(6),
            sum_heading: v(9),
            sum_speed: self.s[12],
            external: Vec3::ZERO,
        }
    }
}

/// The neighbourhoods of up to eight consecutive boids (one a lane), in the kernel's axis
/// order: what [`runs_fn`] and [`list_fn`] instances leave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Raw8 {
    /// Neighbours in view, by lane.
    pub count: [u32; 8],
    /// Of those, inside the separation radius.
    pub sep_count: [u32; 8],
    /// Offset x y z, velocity x y z, separation x y z, heading x y z, speed: 8 lanes each.
    pub s: [[f32; 8]; 13],
}

impl Raw8 {
    /// Lane `l` as one boid's sums.
    #[inline]
    pub fn lane(&self, l: usize) -> Raw {
        Raw {
            count: self.count[l],
            sep_count: self.sep_count[l],
            s: std::array::from_fn(|k| self.s[k][l]),
        }
    }

    /// The lanes `..n` into `hoods`, in real axes (`axes` as for [`Raw::hood`]); lanes from
    /// `n` on hold zeros.
    #[inline]
    pub fn hoods8(&self, n: usize, axes: [usize; 3]) -> boids_core::rules8::Hoods8 {
        let mut h = boids_core::rules8::Hoods8::default();
        let keep = |x: [f32; 8]| std::array::from_fn(|l| if l < n { x[l] } else { 0.0 });
        for l in 0..n.min(8) {
            h.count[l] = self.count[l];
            h.separation_count[l] = self.sep_count[l];
        }
        for a in 0..3 {
            let r = axes[a];
            h.sum_offset.0[r].0 = keep(self.s[a]);
            h.sum_velocity.0[r].0 = keep(self.s[3 + a]);
            h.separation.0[r].0 = keep(self.s[6 + a]);
            h.sum_heading.0[r].0 = keep(self.s[9 + a]);
        }
        h
    }
}
