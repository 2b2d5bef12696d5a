//! Eight boids at a time through the common rules: the same update as [`step_boid`], lane by
//! lane, for the configurations most flocks use (weighted sum, acceleration integrator, soft or
//! no walls, no target, wander, path, obstacles or random draws). Each lane performs exactly
//! the scalar function's operations in the same order, without fused multiply-add, on plain
//! `[f32; 8]` arrays the compiler turns into SIMD: the bits are `step_boid`'s, which stays the
//! oracle (`tests/rules.rs` compares them on random states). [`fast_rules_apply`] says when a
//! flock may use it.

// Lane loops index several fixed-size arrays by one lane number: the form LLVM vectorizes.
#![allow(clippy::needless_range_loop)]

use crate::fmath::Order;
use crate::limits::MAX_MAGNITUDE;
use crate::params::{
    AlignmentMode, Bounds, Combine, FlockParams, Integrator, ObstacleAvoidance, PlaneLock,
    SeparationMode,
};
#[cfg(doc)]
use crate::rules::step_boid;
use crate::rules::{BoidState, Env, Neighbourhood};
use glam::Vec3;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Boids per call.
pub const LANES: usize = 8;

/// Eight `f32`, one per boid.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct F8(pub [f32; LANES]);

/// Eight lane masks, one per boid: all bits set for true, none for false (the form SIMD
/// comparisons produce, so selects are bitwise).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct M8(pub [u32; LANES]);

#[inline(always)]
fn mask(b: bool) -> u32 {
    if b { !0 } else { 0 }
}

impl F8 {
    #[inline(always)]
    fn splat(x: f32) -> F8 {
        F8([x; LANES])
    }
    #[inline(always)]
    fn map(self, f: impl Fn(f32) -> f32) -> F8 {
        let mut r = [0.0; LANES];
        for l in 0..LANES {
            r[l] = f(self.0[l]);
        }
        F8(r)
    }
    #[inline(always)]
    fn zip(self, o: F8, f: impl Fn(f32, f32) -> f32) -> F8 {
        let mut r = [0.0; LANES];
        for l in 0..LANES {
            r[l] = f(self.0[l], o.0[l]);
        }
        F8(r)
    }
    #[inline(always)]
    fn test(self, o: F8, f: impl Fn(f32, f32) -> bool) -> M8 {
        let mut r = [0; LANES];
        for l in 0..LANES {
            r[l] = mask(f(self.0[l], o.0[l]));
        }
        M8(r)
    }
    #[inline(always)]
    fn lt(self, o: F8) -> M8 {
        self.test(o, |a, b| a < b)
    }
    #[inline(always)]
    fn gt(self, o: F8) -> M8 {
        self.test(o, |a, b| a > b)
    }
}

impl M8 {
    /// `a` where set, `b` elsewhere (bit by bit: exactly `a` or `b`).
    #[inline(always)]
    fn select(self, a: F8, b: F8) -> F8 {
        let mut r = [0.0; LANES];
        for l in 0..LANES {
            let m = self.0[l];
            r[l] = f32::from_bits((a.0[l].to_bits() & m) | (b.0[l].to_bits() & !m));
        }
        F8(r)
    }
    #[inline(always)]
    fn select3(self, a: V8, b: V8) -> V8 {
        V8([
            self.select(a.0[0], b.0[0]),
            self.select(a.0[1], b.0[1]),
            self.select(a.0[2], b.0[2]),
        ])
    }
    #[inline(always)]
    fn and(self, o: M8) -> M8 {
        let mut r = [0; LANES];
        for l in 0..LANES {
            r[l] = self.0[l] & o.0[l];
        }
        M8(r)
    }
    #[inline(always)]
    fn or(self, o: M8) -> M8 {
        let mut r = [0; LANES];
        for l in 0..LANES {
            r[l] = self.0[l] | o.0[l];
        }
        M8(r)
    }
    #[inline(always)]
    fn not(self) -> M8 {
        let mut r = [0; LANES];
        for l in 0..LANES {
            r[l] = !self.0[l];
        }
        M8(r)
    }
}

macro_rules! lanewise {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for F8 {
            type Output = F8;
            #[inline(always)]
            fn $f(self, o: F8) -> F8 {
                self.zip(o, |a, b| a $op b)
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);
lanewise!(Div, div, /);

/// Eight 3-vectors (x, y, z), one per boid.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct V8(pub [F8; 3]);

impl V8 {
    #[inline(always)]
    fn splat(v: Vec3) -> V8 {
        V8([F8::splat(v.x), F8::splat(v.y), F8::splat(v.z)])
    }
    #[inline(always)]
    fn map(self, f: impl Fn(F8) -> F8) -> V8 {
        V8([f(self.0[0]), f(self.0[1]), f(self.0[2])])
    }
    #[inline(always)]
    fn zip(self, o: V8, f: impl Fn(F8, F8) -> F8) -> V8 {
        V8([
            f(self.0[0], o.0[0]),
            f(self.0[1], o.0[1]),
            f(self.0[2], o.0[2]),
        ])
    }
    /// `v * s` (glam's `Vec3 * f32`).
    #[inline(always)]
    fn scale(self, s: F8) -> V8 {
        self.map(|c| c * s)
    }
    /// glam's `Vec3::dot(v, v)`: `(x * x + y * y) + z * z`.
    #[inline(always)]
    fn length_squared(self) -> F8 {
        let [x, y, z] = self.0;
        (x * x + y * y) + z * z
    }
    #[inline(always)]
    fn length(self) -> F8 {
        self.length_squared().map(f32::sqrt)
    }
    /// `v != Vec3::ZERO` (a component of -0 counts as zero).
    #[inline(always)]
    fn nonzero(self) -> M8 {
        let [x, y, z] = self.0;
        let zero = F8::splat(0.0);
        let ne = |c: F8| c.test(zero, |a, b| a != b);
        ne(x).or(ne(y)).or(ne(z))
    }
    #[inline(always)]
    fn plane(self, p: PlaneLock) -> V8 {
        let [x, y, z] = self.0;
        match p {
            PlaneLock::None => self,
            PlaneLock::XY => V8([x, y, F8::splat(0.0)]),
            PlaneLock::XZ => V8([x, F8::splat(0.0), z]),
        }
    }
    /// Every component finite: `|c| < ∞` (false for NaN too).
    #[inline(always)]
    fn all_finite(self) -> M8 {
        let [x, y, z] = self.0;
        let inf = F8::splat(f32::INFINITY);
        let fin = |c: F8| c.map(f32::abs).lt(inf);
        fin(x).and(fin(y)).and(fin(z))
    }
}

impl Add for V8 {
    type Output = V8;
    #[inline(always)]
    fn add(self, o: V8) -> V8 {
        self.zip(o, |a, b| a + b)
    }
}

impl Sub for V8 {
    type Output = V8;
    #[inline(always)]
    fn sub(self, o: V8) -> V8 {
        self.zip(o, |a, b| a - b)
    }
}

impl Neg for V8 {
    type Output = V8;
    #[inline(always)]
    fn neg(self) -> V8 {
        self.map(|c| c.map(|x| -x))
    }
}

/// Eight boids' states (position, velocity, heading); their extra state is not used.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct States8 {
    /// Positions.
    pub position: V8,
    /// Velocities.
    pub velocity: V8,
    /// Headings.
    pub heading: V8,
}

impl States8 {
    /// Lane `l` as a [`BoidState`] with default extra state.
    #[inline]
    pub fn get(&self, l: usize) -> BoidState {
        let v = |x: &V8| Vec3::new(x.0[0].0[l], x.0[1].0[l], x.0[2].0[l]);
        BoidState {
            position: v(&self.position),
            velocity: v(&self.velocity),
            heading: v(&self.heading),
            ..BoidState::default()
        }
    }

    /// Sets lane `l` from `b` (its position, velocity and heading).
    #[inline]
    pub fn set(&mut self, l: usize, b: &BoidState) {
        for (x, v) in [
            (&mut self.position, b.position),
            (&mut self.velocity, b.velocity),
            (&mut self.heading, b.heading),
        ] {
            x.0[0].0[l] = v.x;
            x.0[1].0[l] = v.y;
            x.0[2].0[l] = v.z;
        }
    }
}

/// What eight boids gathered from their neighbours ([`Neighbourhood`], lane by lane).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Hoods8 {
    /// Neighbours counted.
    pub count: [u32; LANES],
    /// Neighbours inside the separation radius.
    pub separation_count: [u32; LANES],
    /// `Σ (p_j - p_i)`.
    pub sum_offset: V8,
    /// `Σ v_j`.
    pub sum_velocity: V8,
    /// `Σ heading_j`.
    pub sum_heading: V8,
    /// The separation sum.
    pub separation: V8,
}

impl Hoods8 {
    /// Sets lane `l` from a neighbourhood (its external steering must be zero).
    #[inline]
    pub fn set(&mut self, l: usize, n: &Neighbourhood) {
        self.count[l] = n.count;
        self.separation_count[l] = n.separation_count;
        for (x, v) in [
            (&mut self.sum_offset, n.sum_offset),
            (&mut self.sum_velocity, n.sum_velocity),
            (&mut self.sum_heading, n.sum_heading),
            (&mut self.separation, n.separation),
        ] {
            x.0[0].0[l] = v.x;
            x.0[1].0[l] = v.y;
            x.0[2].0[l] = v.z;
        }
    }
}

/// Whether [`step_boids8`] gives exactly what [`step_boid`] gives for these params and
/// environment, for every boid whose neighbourhood has no external steering: a weighted sum,
/// the acceleration integrator, soft-box, soft-sphere, wrapping or no bounds, wander (its
/// vectors worked out per boid by [`crate::wander`], the one random draw), and nothing
/// else that draws a random number or needs a target, a path, obstacles, a floor (a
/// heightfield) or smoothing state.
pub fn fast_rules_apply(p: &FlockParams, env: &Env<'_>) -> bool {
    let w = &p.weights;
    p.combine == Combine::WeightedSum
        && p.integrator == Integrator::Acceleration
        && matches!(
            p.bounds,
            Bounds::None | Bounds::SoftBox { .. } | Bounds::SoftSphere { .. } | Bounds::Wrap { .. }
        )
        && p.speed_change_probability <= 0.0
        && p.rule_probability >= 1.0
        && p.cohesion_smooth_time <= 0.0
        && (p.target.is_none() || env.target.is_none())
        && w.path == 0.0
        && (env.obstacles.is_empty()
            || p.obstacle_avoidance == ObstacleAvoidance::None
            || p.look_ahead <= 0.0)
        && !crate::obstacle::has_floor(env.obstacles)
        && p.ground.is_none()
}

/// `r.is_finite() && r > 0.0`, lane by lane: `0 < r < ∞`.
#[inline(always)]
fn positive_finite(r: F8) -> M8 {
    r.gt(F8::splat(0.0)).and(r.lt(F8::splat(f32::INFINITY)))
}

/// `sum / n` where `n > 0`, else zero (`rules::mean`, lane by lane).
#[inline(always)]
fn mean(sum: V8, n: &[u32; LANES]) -> V8 {
    let mut some = M8::default();
    let mut nf = F8::default();
    for l in 0..LANES {
        some.0[l] = mask(n[l] != 0);
        nf.0[l] = n[l] as f32;
    }
    some.select3(sum.map(|c| c / nf), V8::default())
}

/// The wall push of `rules::bounds_push`, lane by lane.
#[inline(always)]
fn bounds_push(b: &Bounds, p: V8) -> V8 {
    match *b {
        Bounds::SoftBox { min, max, distance } if distance > 0.0 => {
            let dist = F8::splat(distance);
            let floor = F8::splat(crate::rules::WALL_FLOOR);
            let one = F8::splat(1.0);
            let mut out = V8::default();
            for axis in 0..3 {
                let d_min = p.0[axis] - F8::splat(min[axis]);
                let d_max = F8::splat(max[axis]) - p.0[axis];
                let mut push = F8::splat(0.0);
                let add = push + one / (d_min / dist).map(f32::abs).zip(floor, f32::at_least);
                push = d_min.lt(dist).select(add, push);
                let sub = push - one / (d_max / dist).map(f32::abs).zip(floor, f32::at_least);
                out.0[axis] = d_max.lt(dist).select(sub, push);
            }
            out
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => {
            let o = V8::splat(centre) - p;
            let t = o.length() / F8::splat(radius);
            t.lt(F8::splat(inner))
                .select3(V8::default(), o.scale(t * t))
        }
        _ => V8::default(),
    }
}

/// [`step_boids8`] compiled for AVX2 (eight lanes in one register) when `wide` and the CPU
/// has it, else for the build's baseline (two four-lane halves on x86-64). The same
/// operations either way, so the same bits.
#[inline]
pub fn step_boids8_on(
    wide: bool,
    own: &States8,
    n: &Hoods8,
    wander: &V8,
    p: &FlockParams,
    dt: f32,
) -> States8 {
    #[cfg(target_arch = "x86_64")]
    if wide && std::arch::is_x86_feature_detected!("avx2") {
        #[expect(unsafe_code, reason = "the measured hot loop's AVX2 instance")]
        // SAFETY: the CPU has AVX2 (detected just above), all the instance needs.
        return unsafe { step_boids8_avx2(own, n, wander, p, dt) };
    }
    let _ = wide;
    step_boids8(own, n, wander, p, dt)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn step_boids8_avx2(own: &States8, n: &Hoods8, wander: &V8, p: &FlockParams, dt: f32) -> States8 {
    step_boids8_impl(own, n, wander, p, dt)
}

/// [`step_boid`] for eight boids at once, for params where [`fast_rules_apply`] holds and
/// neighbourhoods without external steering. `wander`: each lane's wander vector, from
/// [`crate::rules::wander`] (ignored when the wander weight is 0). Lane `l` of the result is,
/// bit for bit, what `step_boid` returns for lane `l` (extra state untouched: the wander
/// target is the caller's, from the same call).
pub fn step_boids8(own: &States8, n: &Hoods8, wander: &V8, p: &FlockParams, dt: f32) -> States8 {
    step_boids8_impl(own, n, wander, p, dt)
}

#[inline(always)]
fn step_boids8_impl(own: &States8, n: &Hoods8, wander: &V8, p: &FlockParams, dt: f32) -> States8 {
    debug_assert_eq!(p.combine, Combine::WeightedSum);
    debug_assert_eq!(p.integrator, Integrator::Acceleration);
    let w = &p.weights;
    let v = own.velocity;
    let mut alone = M8::default();
    for l in 0..LANES {
        alone.0[l] = mask(n.count[l] == 0);
    }

    let separation = match p.separation {
        SeparationMode::UnitMean | SeparationMode::MeanOffset => {
            mean(n.separation, &n.separation_count)
        }
        SeparationMode::InverseSquare | SeparationMode::SumOffset => n.separation,
    };
    let alignment = match p.alignment {
        AlignmentMode::VelocityDifference => alone
            .not()
            .select3(mean(n.sum_velocity, &n.count) - v, V8::default()),
        AlignmentMode::MeanHeading => alone.select3(own.heading, mean(n.sum_heading, &n.count)),
        AlignmentMode::MeanVelocity => mean(n.sum_velocity, &n.count),
        AlignmentMode::GroupSpeed => V8::default(),
    };
    let cohesion = mean(n.sum_offset, &n.count);
    let push = bounds_push(&p.bounds, own.position);

    // The weighted sum, in the rules' order; a part adds only where it is non-zero (a sum
    // starts at +0 and never becomes -0, so this is step_boid's skipping of zero parts).
    let mut a = V8::default();
    for (weight, m) in [
        (w.separation, separation),
        (w.alignment, alignment),
        (w.cohesion, cohesion),
        (w.bounds, push),
        (w.wander, *wander),
    ] {
        if weight != 0.0 {
            // glam's `f32 * Vec3`: each component `w * m`.
            let wm = m.map(|c| F8::splat(weight) * c);
            a = m.nonzero().select3(a + wm, a);
        }
    }
    a = a.plane(p.plane);

    // Acceleration integrator: the heading follows the new velocity, the speed is clamped.
    let dtv = F8::splat(dt);
    let nv = v + a.scale(dtv);
    let len = nv.length();
    let rcp = F8::splat(1.0) / len;
    let unit_ok = positive_finite(rcp);
    let h = unit_ok.select3(nv.scale(rcp), own.heading);
    let speed = len.map(|x| x.clamp(p.min_speed, p.max_speed));
    let velocity = h.scale(speed).plane(p.plane);
    let mut position = (own.position + velocity.scale(dtv)).plane(p.plane);
    if let Bounds::Wrap { min, max } = p.bounds {
        // Lane by lane (`Period::wrap`: a floating remainder).
        let period = crate::math::Period::new(min, max);
        for l in 0..LANES {
            let q = Vec3::new(position.0[0].0[l], position.0[1].0[l], position.0[2].0[l]);
            let w = period.wrap(q);
            for k in 0..3 {
                position.0[k].0[l] = w[k];
            }
        }
    }
    let mut velocity = velocity;
    // The world's hard wall at ±MAX_MAGNITUDE (`clamp_into`), then the velocity clamp.
    let (lo, hi) = (F8::splat(-MAX_MAGNITUDE), F8::splat(MAX_MAGNITUDE));
    for k in 0..3 {
        let (pk, vk) = (position.0[k], velocity.0[k]);
        let below = pk.lt(lo);
        let above = pk.gt(hi).and(below.not());
        position.0[k] = below.select(lo, above.select(hi, pk));
        let abs = vk.map(f32::abs);
        velocity.0[k] = below.select(abs, above.select(abs.map(|x| -x), vk));
        velocity.0[k] = velocity.0[k].zip(lo, f32::at_least).zip(hi, f32::at_most);
    }
    let (position, velocity) = (position.plane(p.plane), velocity.plane(p.plane));
    let vlen = velocity.length();
    let vrcp = F8::splat(1.0) / vlen;
    let vunit = positive_finite(vrcp);
    let heading = vunit.select3(velocity.scale(vrcp), h);
    let next = States8 {
        position,
        velocity,
        heading,
    };
    // A lane that overflowed keeps its previous state, as step_boid's does.
    let finite = next
        .position
        .all_finite()
        .and(next.velocity.all_finite())
        .and(next.heading.all_finite());
    States8 {
        position: finite.select3(next.position, own.position),
        velocity: finite.select3(next.velocity, own.velocity),
        heading: finite.select3(next.heading, own.heading),
    }
}
