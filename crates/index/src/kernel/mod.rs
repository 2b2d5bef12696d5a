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
//! of `lanes.rs`: plain arrays (every target), SSE2, AVX2, AVX-512 (mask registers), NEON and
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

pub(crate) mod lanes;

use crate::layout::Run;
use crate::simd::SimdLevel;
use boids_core::{Neighbourhood, SeparationMode, Vec3};
use lanes::{Lanes, Scalar};

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

// ---------------------------------------------------------------------------------------------
// The kernel.

/// Field of view: all around.
const FOV_ALL: u8 = 0;
/// Field of view: `(h·d)·(1/|d|) > cos` (a half-angle of 90° is Unity's `f32` cosine, just
/// below zero, as every other angle's).
const FOV_COS: u8 = 2;

/// Separation: `d / |d|`.
const SEP_UNIT: u8 = 0;
/// Separation: `d / |d|²`.
const SEP_INV2: u8 = 1;
/// Separation: `d`.
const SEP_OFFSET: u8 = 2;

// An instance's compile-time form `K`: the view (bits 0-1), a wrapping space (bit 2), a third
// axis that varies (bit 3), the separation form (bits 4-5; `SEP_ANY`: read from the spec).
/// `K`: space wraps.
const PER: u8 = 4;
/// `K`: the third axis varies.
const D3: u8 = 8;
/// `K`: the separation form's bits.
const SEP_MASK: u8 = 0x30;
/// `K`: the separation form is read at run time.
const SEP_ANY: u8 = 0x30;
/// `K`: the heading and speed sums, when the spec asks for them (bit 6).
const XTRA: u8 = 0x40;
/// `K`: every boid in view is inside the separation radius (`s² >= r²`): the separation mask
/// and count are those of the view (bit 7).
const SEP_ALL: u8 = 0x80;
/// `K`: the bits after the view, wrap and axis.
const TAIL: u8 = SEP_MASK | XTRA | SEP_ALL;

/// A batch's constants, splatted once: its boids' positions and headings (one a lane), and the
/// spec's.
struct Ctx<L: Lanes> {
    q: [L; 3],
    h: [L; 3],
    r2: L,
    s2: L,
    cos: L,
    zero: L,
    one: L,
    tiny: L,
    size: [L; 3],
    half: [L; 3],
    neg_half: [L; 3],
    sep: u8,
    heads: bool,
    speed: bool,
}

impl<L: Lanes> Ctx<L> {
    /// The constants of a query for the boids (one a lane) at `q`, heading `h`.
    #[inline(always)]
    fn new(spec: &Spec, q: [L; 3], h: [L; 3], size: [f32; 3]) -> Self {
        Ctx {
            q,
            h,
            r2: L::splat(spec.r2),
            s2: L::splat(spec.s2),
            cos: L::splat(spec.cos),
            zero: L::splat(0.0),
            one: L::splat(1.0),
            tiny: L::splat(f32::MIN_POSITIVE),
            size: [L::splat(size[0]), L::splat(size[1]), L::splat(size[2])],
            half: [
                L::splat(0.5 * size[0]),
                L::splat(0.5 * size[1]),
                L::splat(0.5 * size[2]),
            ],
            neg_half: [
                L::splat(-(0.5 * size[0])),
                L::splat(-(0.5 * size[1])),
                L::splat(-(0.5 * size[2])),
            ],
            sep: sep_form(spec.sep),
            heads: spec.heads,
            speed: spec.speed,
        }
    }
}

/// Running sums of a query: 13 sums (the heading and speed sums only when asked for), and the
/// lane counters (in view, and in the separation radius unless that is every one in view).
struct Acc<L: Lanes> {
    s: [L; 13],
    n: L::C,
    ns: L::C,
}

impl<L: Lanes> Acc<L> {
    #[inline(always)]
    fn new() -> Self {
        Acc {
            s: [L::splat(0.0); 13],
            n: L::zero_count(),
            ns: L::zero_count(),
        }
    }

    /// The sums by lane (the heading and speed sums only with `xtra`: else they are `+0.0`, as
    /// nothing was added to them). (Not inlined: inlined, it changes how the compiler allocates the loop's registers, and
    /// the AVX2 loop spills: 1,270 against 1,147 instructions a boid at 10,000, callgrind.)
    #[inline(never)]
    fn finish(&self, xtra: bool, sep_all: bool) -> Batch {
        let mut s = [[0.0f32; 16]; 13];
        for k in 0..if xtra { 13 } else { 9 } {
            self.s[k].store(&mut s[k]);
        }
        let mut count = [0u32; 16];
        L::store_counts(self.n, &mut count);
        let mut sep_count = count;
        if !sep_all {
            L::store_counts(self.ns, &mut sep_count);
        }
        let mut out = [Raw8::default(); 2];
        for (h, raw) in out.iter_mut().enumerate().take(L::W / 8) {
            let r = 8 * h..8 * h + 8;
            raw.count.copy_from_slice(&count[r.clone()]);
            raw.sep_count.copy_from_slice(&sep_count[r.clone()]);
            for k in 0..13 {
                raw.s[k].copy_from_slice(&s[k][r.clone()]);
            }
        }
        out
    }
}

/// Where a chunk's eight candidates come from.
trait Source<L: Lanes> {
    fn pos(&self, a: usize) -> L;
    fn vel(&self, a: usize) -> L;
    fn head(&self, a: usize) -> L;
}

/// One candidate, the same for every lane (each lane is a boid asking).
struct One<'a> {
    soa: &'a Soa<'a>,
    j: usize,
}

impl<L: Lanes> Source<L> for One<'_> {
    #[inline(always)]
    fn pos(&self, a: usize) -> L {
        // SAFETY: the caller checked `j < len` (`Cands::span`).
        L::splat(unsafe { *self.soa.p[a].get_unchecked(self.j) })
    }
    #[inline(always)]
    fn vel(&self, a: usize) -> L {
        // SAFETY: as in `pos`.
        L::splat(unsafe { *self.soa.v[a].get_unchecked(self.j) })
    }
    #[inline(always)]
    fn head(&self, a: usize) -> L {
        // SAFETY: as in `pos`.
        L::splat(unsafe { *self.soa.h[a].get_unchecked(self.j) })
    }
}

/// The nearest-image offset, lane by lane (as `boids_core::math::wrap_axis`; an odd function,
/// so it commutes exactly with the negated offsets).
#[inline(always)]
fn wrap<L: Lanes>(o: L, half: L, neg_half: L, size: L) -> L {
    let down = o.sub(size);
    let up = o.add(size);
    L::select(o.gt(half), down, L::select(o.lt(neg_half), up, o))
}

/// `1/√max(d2, MIN_POSITIVE)`: `1/|d|`, finite for a coincident boid (whose offset is zero,
/// so its separation term is zero and `h·d·(1/|d|)` is zero).
#[inline(always)]
fn inv_len<L: Lanes>(d2: L, c: &Ctx<L>) -> L {
    c.one.div(d2.max(c.tiny).sqrt())
}

/// The separation term of the offset `x`: `x/|x|`, `x/|x|²` or `x`, by form.
#[inline(always)]
fn sep_term<L: Lanes>(x: [L; 3], unit: L, form: u8) -> [L; 3] {
    let by = match form {
        SEP_UNIT => unit,
        SEP_INV2 => unit.mul(unit),
        _ => return x,
    };
    [x[0].mul(by), x[1].mul(by), x[2].mul(by)]
}

/// The candidate's offset from each lane's boid, `d = p - q` (the nearest image when the space
/// wraps; a flat third axis left at zero), and its square `(dx·dx + dy·dy) + dz·dz`: the start
/// of every use of a candidate (the sums, the k-nearest selection).
#[inline(always)]
fn offset_d2<L: Lanes, S: Source<L>, const K: u8>(c: &Ctx<L>, src: &S) -> ([L; 3], L) {
    let (per, d3) = (K & PER != 0, K & D3 != 0);
    // d = p - q (the candidate's coordinates first, so the query's can be read from
    // memory: fewer registers held across the loop).
    let mut d = [src.pos(0).sub(c.q[0]), src.pos(1).sub(c.q[1]), c.zero];
    if d3 {
        d[2] = src.pos(2).sub(c.q[2]);
    }
    if per {
        for a in 0..3 {
            d[a] = wrap(d[a], c.half[a], c.neg_half[a], c.size[a]);
        }
    }
    let mut d2 = d[0].mul(d[0]).add(d[1].mul(d[1]));
    if d3 {
        d2 = d2.add(d[2].mul(d[2]));
    }
    (d, d2)
}

/// One candidate into every lane's sums (the lanes of `m` only, when given: a batch's own
/// slots, where a lane must skip itself; lanes past the batch's boids compute sums nobody
/// reads).
#[inline(always)]
fn chunk<L: Lanes, S: Source<L>, const K: u8>(
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    m: Option<L::M>,
    src: &S,
) {
    let (fov, d3, sep_all) = (K & 3, K & D3 != 0, K & SEP_ALL != 0);
    let sep_form = if K & SEP_MASK == SEP_ANY {
        c.sep
    } else {
        (K & SEP_MASK) >> 4
    };
    let (d, d2) = offset_d2::<L, S, K>(c, src);
    let mut inr = d2.lt(c.r2);
    if let Some(m) = m {
        inr = L::and(m, inr);
    }
    if L::SKIP && !L::any(inr) {
        return;
    }
    // 1/|d|, when the view or the separation needs it. (No closures here: a closure does not
    // inherit the instance's target features, and one the compiler declines to inline calls
    // every intrinsic out of line.)
    let needs_inv = fov == FOV_COS || sep_form == SEP_UNIT || sep_form == SEP_INV2;
    let unit = if needs_inv {
        inv_len::<L>(d2, c)
    } else {
        c.zero
    };
    let ok = if fov == FOV_ALL {
        inr
    } else {
        let mut dot = c.h[0].mul(d[0]).add(c.h[1].mul(d[1]));
        if d3 {
            dot = dot.add(c.h[2].mul(d[2]));
        }
        // (h·d)/|d| > cos
        dot.mul(unit).gt_in(c.cos, inr)
    };
    acc.n = L::tally(acc.n, ok);
    let sep = if sep_all {
        ok
    } else {
        let sep = L::and(ok, d2.lt(c.s2));
        acc.ns = L::tally(acc.ns, sep);
        sep
    };
    let v = [src.vel(0), src.vel(1), src.vel(2)];
    if L::MASKED {
        // One masked add a sum.
        for a in 0..3 {
            acc.s[a] = acc.s[a].acc(d[a], ok);
            acc.s[3 + a] = acc.s[3 + a].acc(v[a], ok);
        }
        // Separation pushes away: `f(d)` subtracted.
        let f = sep_term(d, unit, sep_form);
        for a in 0..3 {
            acc.s[6 + a] = acc.s[6 + a].dec(f[a], sep);
        }
    } else {
        // Each term zeroed once where it does not count, then added: the same bits (a zero
        // term adds `+0.0` or subtracts it, and scaling a zero offset by a finite `1/|d|`
        // keeps it `+0.0`).
        let dz = [d[0].keep(ok), d[1].keep(ok), d[2].keep(ok)];
        for a in 0..3 {
            acc.s[a] = acc.s[a].add(dz[a]);
            acc.s[3 + a] = acc.s[3 + a].add(v[a].keep(ok));
        }
        let f = if sep_all {
            sep_term(dz, unit, sep_form)
        } else {
            let f = sep_term(d, unit, sep_form);
            [f[0].keep(sep), f[1].keep(sep), f[2].keep(sep)]
        };
        // Separation pushes away: `f(d)` subtracted.
        for a in 0..3 {
            acc.s[6 + a] = acc.s[6 + a].sub(f[a]);
        }
    }
    if K & XTRA != 0 && c.heads {
        for a in 0..3 {
            acc.s[9 + a] = acc.s[9 + a].acc(src.head(a), ok);
        }
    }
    if K & XTRA != 0 && c.speed {
        let spd = v[0]
            .mul(v[0])
            .add(v[1].mul(v[1]))
            .add(v[2].mul(v[2]))
            .sqrt();
        acc.s[12] = acc.s[12].acc(spd, ok);
    }
}

/// The box size in the kernel's axis order (zeros when not periodic).
#[inline]
pub fn kernel_size(axes: [usize; 3], period: Option<Vec3>) -> [f32; 3] {
    period.map_or([0.0; 3], |p| {
        let p = p.to_array();
        [p[axes[0]], p[axes[1]], p[axes[2]]]
    })
}

/// The context of a batch: the boids in slots `first..first + n` (one a lane) at their
/// positions and headings, lanes from `n` on masked out.
#[inline(always)]
fn batch<L: Lanes>(soa: &Soa<'_>, spec: &Spec, size: [f32; 3], first: usize, n: usize) -> Ctx<L> {
    assert!(
        n <= L::W && first + L::W <= soa.p[0].len(),
        "kernel: a batch outside the arrays"
    );
    // SAFETY: `first + W <= len` for every array (checked above; all nine have one length).
    let at = |x: &[f32]| unsafe { L::load(x.as_ptr().add(first)) };
    let q = [at(soa.p[0]), at(soa.p[1]), at(soa.p[2])];
    let h = [at(soa.h[0]), at(soa.h[1]), at(soa.h[2])];
    Ctx::new(spec, q, h, size)
}

/// Candidates `a..b` (ascending) into every lane's sums; `own` masks the lanes whose boid is
/// the candidate (the batch's own slots).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn span<L: Lanes, const K: u8>(
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    soa: &Soa<'_>,
    first: usize,
    n: usize,
    a: usize,
    b: usize,
) {
    // Before, inside and after the batch's own slots: only inside does a lane skip itself.
    let (o0, o1) = (first.clamp(a, b), (first + n).clamp(a, b));
    for j in a..o0 {
        chunk::<L, _, K>(acc, c, None, &One { soa, j });
    }
    for j in o0..o1 {
        let m = L::except((j - first) as i32);
        chunk::<L, _, K>(acc, c, Some(m), &One { soa, j });
    }
    for j in o1..b {
        chunk::<L, _, K>(acc, c, None, &One { soa, j });
    }
}

/// The candidates of a kernel call: ascending, disjoint spans of slots (runs of the grid, or a
/// list from the k-d tree, a slot a span). (Methods, not a closure: a closure would not inherit
/// the instance's target features.)
trait Cands: Copy {
    /// How many spans.
    fn spans(self) -> usize;
    /// Span `i`, checked to lie inside `len` slots.
    fn span(self, i: usize, len: usize) -> (usize, usize);
}

impl Cands for &[Run] {
    #[inline(always)]
    fn spans(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn span(self, i: usize, len: usize) -> (usize, usize) {
        let (a, b) = self[i];
        assert!(
            a <= b && b as usize <= len,
            "kernel: a run outside the arrays"
        );
        (a as usize, b as usize)
    }
}

impl Cands for &[u32] {
    #[inline(always)]
    fn spans(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn span(self, i: usize, len: usize) -> (usize, usize) {
        let j = self[i] as usize;
        assert!(j < len, "kernel: a slot outside the arrays");
        (j, j + 1)
    }
}

/// The neighbourhoods of the boids in slots `first..first + n` (`n <= W`, one a lane) over the
/// candidates `cands`. Each lane adds its candidates one by one in slot order (the others add
/// `+0.0`, which changes no bits), so a boid's sums are the same whatever batch it is in,
/// however the candidates are grouped into runs or lists and whatever else they include: every
/// index kind, walk and single query gives the same bits.
#[inline(always)]
fn hoods<L: Lanes, const K: u8, C: Cands>(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    first: usize,
    n: usize,
    cands: C,
) -> Batch {
    let len = soa.len();
    let c = batch::<L>(soa, spec, size, first, n);
    let mut acc = Acc::<L>::new();
    for i in 0..cands.spans() {
        let (a, b) = cands.span(i, len);
        span::<L, K>(&mut acc, &c, soa, first, n, a, b);
    }
    acc.finish(K & XTRA != 0, K & SEP_ALL != 0)
}

// ---------------------------------------------------------------------------------------------
// The k nearest, boids in lanes.

/// The most neighbours the batch k-nearest kernel keeps a boid ([`knn_fn`]).
pub const KNN_MAX: usize = 16;

/// The batch k-nearest kernel carries slots through its lanes as `f32` values, exact below
/// 2^24: it serves flocks up to this many boids.
pub const KNN_MAX_LEN: usize = 1 << 24;

/// Candidates gathered lane by lane: lane `l` reads slot `idx[l]`.
struct Gathered<'a> {
    soa: &'a Soa<'a>,
    idx: [usize; MAX_WIDTH],
}

/// Lane `l` of the result is `x[idx[l]]`.
#[inline(always)]
fn gather<L: Lanes>(x: &[f32], idx: &[usize; MAX_WIDTH]) -> L {
    let mut t = [0.0f32; MAX_WIDTH];
    for l in 0..L::W {
        t[l] = x[idx[l]];
    }
    // SAFETY: `t` holds MAX_WIDTH >= W values.
    unsafe { L::load(t.as_ptr()) }
}

impl<L: Lanes> Source<L> for Gathered<'_> {
    #[inline(always)]
    fn pos(&self, a: usize) -> L {
        gather(self.soa.p[a], &self.idx)
    }
    #[inline(always)]
    fn vel(&self, a: usize) -> L {
        gather(self.soa.v[a], &self.idx)
    }
    #[inline(always)]
    fn head(&self, a: usize) -> L {
        gather(self.soa.h[a], &self.idx)
    }
}

/// The neighbourhoods of the boids in slots `first..first + n` (`n <= W`, one a lane) over the
/// `k` nearest (`1..=KNN_MAX`) of the candidates `runs` strictly within the radius (ties by
/// slot), chosen without a branch per candidate: every lane keeps its k
/// nearest so far, sorted by distance, in `k` pairs of lanes (squared distance, slot as
/// `f32`); a candidate goes in front of every kept one it is strictly nearer than (the places
/// not yet filled hold the radius, so a candidate must be strictly within it; candidates come
/// in ascending slot order, so an equal distance keeps the lower slot in front). The squared
/// distance is the kernel's (`dist2`, the nearest image where space wraps), so the same
/// neighbours as the one-boid selection.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn hoods_knn<L: Lanes, const K: u8>(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    first: usize,
    n: usize,
    runs: &[Run],
    k: usize,
) -> Batch {
    let len = soa.len();
    assert!(
        (1..=KNN_MAX).contains(&k) && len <= KNN_MAX_LEN,
        "kernel: a k-nearest batch outside its limits"
    );
    let c = batch::<L>(soa, spec, size, first, n);
    let inf = L::splat(f32::INFINITY);
    let mut bd = [c.r2; KNN_MAX];
    let mut bs = [inf; KNN_MAX];
    for i in 0..runs.spans() {
        let (a, b) = runs.span(i, len);
        for j in a..b {
            let (_, mut d2) = offset_d2::<L, _, K>(&c, &One { soa, j });
            if j >= first && j < first + n {
                // A boid is not its own neighbour (`+∞` is never strictly nearer).
                d2 = L::select(L::except((j - first) as i32), d2, inf);
            }
            let s = L::splat(j as f32);
            // From the back, so each place reads the one in front of it before it moves.
            let mut here = d2.lt(bd[k - 1]);
            for i in (1..k).rev() {
                let front = d2.lt(bd[i - 1]);
                bd[i] = L::select(here, L::select(front, bd[i - 1], d2), bd[i]);
                bs[i] = L::select(here, L::select(front, bs[i - 1], s), bs[i]);
                here = front;
            }
            bd[0] = L::select(here, d2, bd[0]);
            bs[0] = L::select(here, s, bs[0]);
        }
    }
    // The kept slots ascending, lane by lane (a transposition sort; unfilled places hold +∞
    // and stay last).
    for pass in 0..k {
        let mut i = pass % 2;
        while i + 1 < k {
            let swap = bs[i + 1].lt(bs[i]);
            let (x, y) = (bs[i], bs[i + 1]);
            bs[i] = L::select(swap, y, x);
            bs[i + 1] = L::select(swap, x, y);
            i += 2;
        }
    }
    // Each lane adds its own neighbours one by one in slot order: the kernel's step (`K` holds
    // the general view test, true for every finite product when the cosine is -∞, and the
    // run-time separation form and extra sums), as `one_boid` over them.
    let mut acc = Acc::<L>::new();
    for place in &bs[..k] {
        let mut t = [0.0f32; MAX_WIDTH];
        place.store(&mut t);
        if t[..n].iter().all(|&x| x == f32::INFINITY) {
            // Every later place is unfilled too.
            break;
        }
        let idx = std::array::from_fn(|l| {
            if t[l] < f32::INFINITY {
                t[l] as usize
            } else {
                first
            }
        });
        chunk::<L, _, K>(&mut acc, &c, Some(place.lt(inf)), &Gathered { soa, idx });
    }
    acc.finish(true, false)
}

// ---------------------------------------------------------------------------------------------
// One boid alone.

/// The neighbourhood of the boid in slot `own` over the candidate slots `cands` (ascending,
/// any may be out of radius or be `own`), one candidate at a time in plain `f32`: a lane of the
/// kernel's step on its own, so the same bits as every instance (each lane performs exactly
/// these operations in this order). For a single boid (a query, a k-nearest list, the
/// nearest-boid stand-in) this is cheaper than a batch call, whose other lanes would be idle.
pub fn one_boid(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    own: usize,
    cands: impl IntoIterator<Item = usize>,
) -> Raw {
    let len = soa.len();
    assert!(own < len, "kernel: a boid outside the arrays");
    let at = |x: &[&[f32]; 3], j: usize| [x[0][j], x[1][j], x[2][j]];
    let (q, h) = (at(&soa.p, own), at(&soa.h, own));
    let d3 = soa.d3;
    let form = sep_form(spec.sep);
    let fov = if spec.cos == f32::NEG_INFINITY {
        FOV_ALL
    } else {
        FOV_COS
    };
    let needs_inv = fov == FOV_COS || form == SEP_UNIT || form == SEP_INV2;
    let mut r = Raw::default();
    for j in cands {
        assert!(j < len, "kernel: a slot outside the arrays");
        if j == own {
            continue;
        }
        let p = at(&soa.p, j);
        let mut d = [p[0] - q[0], p[1] - q[1], 0.0];
        if d3 {
            d[2] = p[2] - q[2];
        }
        if spec.period.is_some() {
            for a in 0..3 {
                let half = 0.5 * size[a];
                d[a] = if d[a] > half {
                    d[a] - size[a]
                } else if d[a] < -half {
                    d[a] + size[a]
                } else {
                    d[a]
                };
            }
        }
        let mut d2 = d[0] * d[0] + d[1] * d[1];
        if d3 {
            d2 += d[2] * d[2];
        }
        // Strictly inside (false for a NaN, as the lanes' compare).
        if d2.partial_cmp(&spec.r2) != Some(std::cmp::Ordering::Less) {
            continue;
        }
        let unit = if needs_inv {
            1.0 / d2.max(f32::MIN_POSITIVE).sqrt()
        } else {
            0.0
        };
        if fov != FOV_ALL {
            let mut dot = h[0] * d[0] + h[1] * d[1];
            if d3 {
                dot += h[2] * d[2];
            }
            let seen = dot * unit > spec.cos;
            if !seen {
                continue;
            }
        }
        r.count += 1;
        let v = at(&soa.v, j);
        for a in 0..3 {
            r.s[a] += d[a];
            r.s[3 + a] += v[a];
        }
        if d2 < spec.s2 {
            r.sep_count += 1;
            let by = match form {
                SEP_UNIT => unit,
                SEP_INV2 => unit * unit,
                _ => 1.0,
            };
            for a in 0..3 {
                let f = if form == SEP_OFFSET { d[a] } else { d[a] * by };
                r.s[6 + a] -= f;
            }
        }
        if spec.heads {
            let hj = at(&soa.h, j);
            for a in 0..3 {
                r.s[9 + a] += hj[a];
            }
        }
        if spec.speed {
            r.s[12] += (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        }
    }
    r
}

// ---------------------------------------------------------------------------------------------
// Instances per instruction set, chosen once per walk.

/// A runs kernel instance: `(soa, spec, size, first, n, runs)`: the boids in slots
/// `first..first + n` (n <= 8) over the candidate runs; see [`runs_fn`].
pub type RunsFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[Run]) -> Batch;

/// A list kernel instance: `(soa, spec, size, first, n, list)`; see [`list_fn`].
pub type ListFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[u32]) -> Batch;

/// A k-nearest kernel instance: `(soa, spec, size, first, n, runs, k)`; see [`knn_fn`].
pub type KnnFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[Run], usize) -> Batch;

macro_rules! instances {
    // `$feat`: the target features the instance is compiled with (checked by the caller's
    // choice of level), or none for a baseline set.
    ($runs:ident, $list:ident, $knn:ident, $L:ty $(, $feat:literal)?) => {
        instances!(@one $runs, &[Run], $L $(, $feat)?);
        instances!(@one $list, &[u32], $L $(, $feat)?);
        fn $knn<const K: u8>(
            soa: &Soa<'_>,
            spec: &Spec,
            size: [f32; 3],
            first: usize,
            n: usize,
            runs: &[Run],
            k: usize,
        ) -> Batch {
            $(#[target_feature(enable = $feat)])?
            fn inner<const K: u8>(
                soa: &Soa<'_>,
                spec: &Spec,
                size: [f32; 3],
                first: usize,
                n: usize,
                runs: &[Run],
                k: usize,
            ) -> Batch {
                hoods_knn::<$L, K>(soa, spec, size, first, n, runs, k)
            }
            #[allow(unused_unsafe)]
            // SAFETY: as for the other instances.
            unsafe {
                inner::<K>(soa, spec, size, first, n, runs, k)
            }
        }
    };
    (@one $name:ident, $C:ty, $L:ty $(, $feat:literal)?) => {
        fn $name<const K: u8>(
            soa: &Soa<'_>,
            spec: &Spec,
            size: [f32; 3],
            first: usize,
            n: usize,
            cands: $C,
        ) -> Batch {
            $(#[target_feature(enable = $feat)])?
            fn inner<const K: u8>(
                soa: &Soa<'_>,
                spec: &Spec,
                size: [f32; 3],
                first: usize,
                n: usize,
                cands: $C,
            ) -> Batch {
                hoods::<$L, K, $C>(soa, spec, size, first, n, cands)
            }
            #[allow(unused_unsafe)]
            // SAFETY: the level of this instance is chosen only when the CPU has its features
            // (`SimdLevel::is_supported`), or they are the target's baseline.
            unsafe {
                inner::<K>(soa, spec, size, first, n, cands)
            }
        }
    };
}

instances!(runs_scalar, list_scalar, knn_scalar, Scalar);
#[cfg(target_arch = "x86_64")]
instances!(runs_sse2, list_sse2, knn_sse2, lanes::Sse2);
#[cfg(target_arch = "x86_64")]
instances!(runs_avx2, list_avx2, knn_avx2, lanes::Avx, "avx2,popcnt");
#[cfg(target_arch = "x86_64")]
instances!(
    runs_avx512,
    list_avx512,
    knn_avx512,
    lanes::Avx512,
    "avx2,popcnt,avx512f,avx512vl,avx512bw,avx512dq"
);
#[cfg(target_arch = "aarch64")]
instances!(runs_neon, list_neon, knn_neon, lanes::Neon);
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
instances!(runs_simd128, list_simd128, knn_simd128, lanes::Wasm);

/// The separation form as the kernel's constant.
fn sep_form(sep: SeparationMode) -> u8 {
    match sep {
        SeparationMode::UnitMean => SEP_UNIT,
        SeparationMode::InverseSquare => SEP_INV2,
        SeparationMode::MeanOffset | SeparationMode::SumOffset => SEP_OFFSET,
    }
}

/// The kernel's compile-time form of a spec (`K`): with `sep`, the separation form, or (when
/// the spec asks for heading or speed sums) `SEP_ANY | XTRA`; without, `SEP_ANY | XTRA`.
fn form(spec: &Spec, d3: bool, sep: bool) -> u8 {
    let fov = if spec.cos == f32::NEG_INFINITY {
        FOV_ALL
    } else {
        FOV_COS
    };
    let per = if spec.period.is_some() { PER } else { 0 };
    let d3 = if d3 { D3 } else { 0 };
    let sep = if sep && !(spec.heads || spec.speed) {
        let all = if spec.s2 >= spec.r2 { SEP_ALL } else { 0 };
        (sep_form(spec.sep) << 4) | all
    } else {
        SEP_ANY | XTRA
    };
    fov | per | d3 | sep
}

/// `$f::<K>` for the form `$k`: every view, wrap and axis form, with the separation form
/// `$sep` (each of them, or `SEP_ANY`).
macro_rules! pick {
    ($f:ident, $k:expr, [$($sep:expr),*]) => {{
        let k = $k;
        let mut chosen = None;
        $(
            if chosen.is_none() && k & TAIL == $sep {
                chosen = Some(pick!(@views $f, k, $sep));
            }
        )*
        chosen.expect("kernel: a form without an instance")
    }};
    (@views $f:ident, $k:expr, $sep:expr) => {
        match $k & !TAIL {
            0 => $f::<{ $sep }>,
            2 => $f::<{ 2 | $sep }>,
            4 => $f::<{ 4 | $sep }>,
            6 => $f::<{ 6 | $sep }>,
            8 => $f::<{ 8 | $sep }>,
            10 => $f::<{ 10 | $sep }>,
            12 => $f::<{ 12 | $sep }>,
            _ => $f::<{ 14 | $sep }>,
        }
    };
}

/// The separation forms the runs kernel is compiled for, and the one with heading or speed
/// sums. (Unused where only the fallback instruction sets exist: 32-bit ARM, say.)
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    expect(unused_macros)
)]
macro_rules! pick_runs {
    ($f:ident, $k:expr) => {
        pick!($f, $k, [0x00, 0x10, 0x20, 0x80, 0x90, 0xa0, 0x70])
    };
}

/// The fallback instruction sets (plain arrays, SSE2: used only on x86-64 CPUs without AVX2,
/// or when asked for) read the separation form and the extra sums from the spec at run time:
/// the same bits in a twelfth of the code.
macro_rules! pick_runs_any {
    ($f:ident, $k:expr) => {
        pick!($f, ($k & !TAIL) | 0x70, [0x70])
    };
}

/// The list kernel reads the separation form and the extra sums from the spec at run time.
macro_rules! pick_list {
    ($f:ident, $k:expr) => {
        pick!($f, $k, [0x70])
    };
}

/// The runs kernel for a spec on its instruction set, over arrays whose third axis varies
/// (`d3`, [`Soa::d3`]) or not: resolved once per walk.
pub fn runs_fn(spec: &Spec, d3: bool) -> RunsFn {
    let k = form(spec, d3, true);
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_runs_any!(runs_sse2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_runs!(runs_avx2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_runs!(runs_avx512, k),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_runs!(runs_neon, k),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_runs!(runs_simd128, k),
        _ => pick_runs_any!(runs_scalar, k),
    }
}

/// The list kernel for a spec on its instruction set (`d3` as for [`runs_fn`]).
pub fn list_fn(spec: &Spec, d3: bool) -> ListFn {
    let k = form(spec, d3, false);
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_list!(list_sse2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_list!(list_avx2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_list!(list_avx512, k),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_list!(list_neon, k),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_list!(list_simd128, k),
        _ => pick_list!(list_scalar, k),
    }
}

/// The batch k-nearest kernel for a spec on its instruction set (`d3` as for [`runs_fn`]):
/// compiled for the wrap and axis forms only, with the general view test and the separation
/// form and extra sums read at run time.
pub fn knn_fn(spec: &Spec, d3: bool) -> KnnFn {
    const TAIL: u8 = FOV_COS | SEP_ANY | XTRA;
    let k = form(spec, d3, false) & (PER | D3);
    macro_rules! pick_nearest {
        ($f:ident) => {
            match k {
                0 => $f::<TAIL>,
                PER => $f::<{ PER | TAIL }>,
                D3 => $f::<{ D3 | TAIL }>,
                _ => $f::<{ PER | D3 | TAIL }>,
            }
        };
    }
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_nearest!(knn_sse2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_nearest!(knn_avx2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_nearest!(knn_avx512),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_nearest!(knn_neon),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_nearest!(knn_simd128),
        _ => pick_nearest!(knn_scalar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One boid's sums the plain way: its candidates one by one in slot order, the kernel's
    /// operations in the kernel's order, in f32 (the reference every lane of every
    /// instruction set must match bit for bit).
    #[allow(clippy::too_many_arguments)]
    fn reference(
        pts: &[[f32; 3]],
        vel: &[[f32; 3]],
        head: &[[f32; 3]],
        spec: &Spec,
        size: [f32; 3],
        own: usize,
        cands: &[u32],
    ) -> Raw {
        let mut r = Raw::default();
        let q = pts[own];
        let hq = head[own];
        let mut acc = [0.0f32; 13];
        for &j in cands {
            let j = j as usize;
            if j == own {
                continue;
            }
            let mut e = [0.0f32; 3];
            for a in 0..3 {
                e[a] = pts[j][a] - q[a];
                if spec.period.is_some() {
                    let (half, sz) = (0.5 * size[a], size[a]);
                    e[a] = if e[a] > half {
                        e[a] - sz
                    } else if e[a] < -half {
                        e[a] + sz
                    } else {
                        e[a]
                    };
                }
            }
            let d2 = (e[0] * e[0] + e[1] * e[1]) + e[2] * e[2];
            if d2.partial_cmp(&spec.r2) != Some(std::cmp::Ordering::Less) {
                continue;
            }
            let inv = 1.0 / d2.max(f32::MIN_POSITIVE).sqrt();
            let dot = (hq[0] * e[0] + hq[1] * e[1]) + hq[2] * e[2];
            let seen = if spec.cos == f32::NEG_INFINITY {
                true
            } else {
                dot * inv > spec.cos
            };
            if !seen {
                continue;
            }
            r.count += 1;
            for a in 0..3 {
                acc[a] += e[a];
                acc[3 + a] += vel[j][a];
            }
            if d2 < spec.s2 {
                r.sep_count += 1;
                let f = match spec.sep {
                    SeparationMode::UnitMean => e.map(|x| x * inv),
                    SeparationMode::InverseSquare => e.map(|x| x * (inv * inv)),
                    _ => e,
                };
                for a in 0..3 {
                    acc[6 + a] -= f[a];
                }
            }
            if spec.heads {
                for a in 0..3 {
                    acc[9 + a] += head[j][a];
                }
            }
            if spec.speed {
                let v = vel[j];
                acc[12] += ((v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]).sqrt();
            }
        }
        r.s = acc;
        r
    }

    /// Random points in a small box (some coincident), every instruction set, view and
    /// separation form, periodic or not: every boid's sums, from a batch of eight over runs,
    /// from a batch over a list, and alone, equal the plain one-by-one reference bit for bit,
    /// however the candidates are grouped and whatever extra candidates there are.
    #[test]
    fn every_level_and_every_grouping_gives_the_reference_bits() {
        let mut s = 99u64;
        let mut rnd = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / 16_777_216.0
        };
        let n = 300;
        let pts: Vec<[f32; 3]> = (0..n)
            .map(|i| {
                if i % 17 == 0 {
                    [0.5; 3] // coincident boids
                } else {
                    [rnd() * 3.0, rnd() * 3.0, rnd() * 3.0]
                }
            })
            .collect();
        let vel: Vec<[f32; 3]> = (0..n)
            .map(|_| [rnd() * 4.0 - 2.0, rnd() * 4.0 - 2.0, rnd() * 4.0 - 2.0])
            .collect();
        let head: Vec<[f32; 3]> = (0..n)
            .map(|_| {
                Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5)
                    .normalize()
                    .to_array()
            })
            .collect();
        let col = |src: &[[f32; 3]], a: usize, pad: f32| -> Vec<f32> {
            let mut v: Vec<f32> = src.iter().map(|x| x[a]).collect();
            v.resize(n + PAD, pad);
            v
        };
        let p: Vec<Vec<f32>> = (0..3).map(|a| col(&pts, a, f32::INFINITY)).collect();
        let v: Vec<Vec<f32>> = (0..3).map(|a| col(&vel, a, 0.0)).collect();
        let h: Vec<Vec<f32>> = (0..3).map(|a| col(&head, a, 0.0)).collect();
        let soa = Soa::new(
            [&p[0], &p[1], &p[2]],
            [&v[0], &v[1], &v[2]],
            [&h[0], &h[1], &h[2]],
            true,
        );
        // The same candidates grouped two ways (and a list of every slot), so the groupings
        // differ and a boid's own slot falls inside a run.
        let runs = [(0u32, 37u32), (37, 38), (38, 38), (38, 45), (45, 300)];
        let all: Vec<u32> = (0..n as u32).collect();
        let one_run = [(0u32, n as u32)];
        let mut checked = 0;
        for period in [None, Some(Vec3::splat(3.0))] {
            // Separation radii inside the view radius and not (every form's `SEP_ALL` too).
            for (sep, cos, s2) in [
                (SeparationMode::UnitMean, 0.0f32, 0.6),
                (SeparationMode::InverseSquare, -0.5, 0.6),
                (SeparationMode::MeanOffset, f32::NEG_INFINITY, 0.6),
                (SeparationMode::UnitMean, 0.3, 0.6),
                (SeparationMode::UnitMean, -4.371139e-8, 1.1),
                (SeparationMode::InverseSquare, 0.0, 2.0),
                (SeparationMode::SumOffset, 0.3, 1.1),
            ] {
                let size = kernel_size([0, 1, 2], period);
                for level in SimdLevel::supported() {
                    let spec = Spec {
                        r2: 1.1,
                        s2,
                        cos,
                        sep,
                        // The extra sums with the plain forms only (else the run-time form).
                        heads: s2 == 0.6,
                        speed: s2 == 0.6,
                        period,
                        level,
                    };
                    let bits = |r: &Raw| (r.count, r.sep_count, r.s.map(f32::to_bits));
                    // A full batch (8 or 16 lanes), and batches the end of the boids cuts.
                    for first in [0usize, 13, 40, 292, 287] {
                        let m = (n - first).min(width(level));
                        let a = runs_fn(&spec, true)(&soa, &spec, size, first, m, &runs);
                        let b = runs_fn(&spec, true)(&soa, &spec, size, first, m, &one_run);
                        let c = list_fn(&spec, true)(&soa, &spec, size, first, m, &all);
                        for l in 0..m {
                            let want = reference(&pts, &vel, &head, &spec, size, first + l, &all);
                            let alone =
                                runs_fn(&spec, true)(&soa, &spec, size, first + l, 1, &runs);
                            for (what, got) in [
                                ("runs", a[l / 8].lane(l % 8)),
                                ("one run", b[l / 8].lane(l % 8)),
                                ("list", c[l / 8].lane(l % 8)),
                                ("alone", alone[0].lane(0)),
                                (
                                    "one boid, runs",
                                    one_boid(
                                        &soa,
                                        &spec,
                                        size,
                                        first + l,
                                        runs.iter().flat_map(|&(a, b)| a as usize..b as usize),
                                    ),
                                ),
                                (
                                    "one boid, list",
                                    one_boid(&soa, &spec, size, first + l, 0..n),
                                ),
                            ] {
                                assert_eq!(
                                    bits(&got),
                                    bits(&want),
                                    "{level}, {what}, slot {}",
                                    first + l
                                );
                            }
                            checked += 1;
                        }
                        assert!(
                            a[0].count.iter().any(|&c| c > 3),
                            "the test should see neighbours"
                        );
                    }
                }
            }
        }
        assert!(checked >= 200);
    }
}
