//! The per-boid update: a pure function of (own state, neighbourhood, environment, params, rng).

use crate::fmath;
use crate::fmath::{Extremes, Order};
use crate::ground::{Walker, horizontal};
use crate::limits::MAX_MAGNITUDE;
use crate::math::{Period, clamp_length, look_rotation, normalize_or_zero, smooth_damp};
use crate::obstacle::{Blocker, Near, Placed, first_hit, keep_above, spiral_directions};
use crate::params::{
    AlignmentMode, Bounds, Combine, FlockParams, Integrator, ObstacleAvoidance, SeparationMode,
};
use crate::rng::Rng;
use glam::{Quat, Vec3};

/// Per-boid state only some models need (kept by the flock only for those).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Extra {
    /// Full orientation for [`Integrator::HeadingSpeed`]: turning by slerp does not keep zero
    /// roll, and later turns depend on it (goal-swarm).
    pub orientation: Quat,
    /// `SmoothDamp` velocity state of steered cohesion (flock-2d).
    pub damp: Vec3,
    /// Wander target, relative to the centre of the wander circle.
    pub wander: Vec3,
}

/// One boid's state.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct BoidState {
    /// Position.
    pub position: Vec3,
    /// Velocity (units/s).
    pub velocity: Vec3,
    /// Unit heading (forward). Equals `velocity / |velocity|` except while the speed is zero,
    /// when it keeps the last direction (and under [`Integrator::HeadingSpeed`], where it is
    /// `orientation * +Z`).
    pub heading: Vec3,
    /// Model-specific extra state.
    pub extra: Extra,
}

impl BoidState {
    /// A state whose heading follows its velocity (or +Z for a zero velocity).
    pub fn new(position: Vec3, velocity: Vec3) -> Self {
        let h = normalize_or_zero(velocity);
        let heading = if h == Vec3::ZERO { Vec3::Z } else { h };
        BoidState {
            position,
            velocity,
            heading,
            extra: Extra {
                orientation: look_rotation(heading),
                damp: Vec3::ZERO,
                wander: Vec3::ZERO,
            },
        }
    }

    /// All components finite.
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.velocity.is_finite() && self.heading.is_finite()
    }
}

/// Quantities derived from [`FlockParams`] once per step, so the hot loop does no trigonometry.
#[derive(Clone, Copy, Debug)]
pub struct Derived {
    /// Perception radius squared.
    pub radius2: f32,
    /// Separation radius squared.
    pub separation_radius2: f32,
    /// Cosine of the field-of-view half-angle (computed in `f32`, as Unity does).
    pub cos_fov: f32,
    /// Whether the field of view excludes anything (half-angle below 180°).
    pub fov_active: bool,
    /// Separation form.
    pub separation: SeparationMode,
}

impl Derived {
    /// Precomputes the per-step constants of `p`.
    pub fn new(p: &FlockParams) -> Self {
        Derived {
            radius2: p.perception_radius * p.perception_radius,
            separation_radius2: p.separation_radius * p.separation_radius,
            cos_fov: fov_cos(p.fov_half_angle_deg),
            fov_active: p.fov_half_angle_deg < 180.0,
            separation: p.separation,
        }
    }
}

/// The cosine a field-of-view test compares with, for a half-angle in degrees: `-∞` from 180°
/// up (nothing is out of view), else the cosine, computed in `f32` as Unity does (at 90° it is
/// -4.4e-8, not 0: a boid straight to the side, or on the same spot, is seen, as in the
/// tutorials).
pub fn fov_cos(half_angle_deg: f32) -> f32 {
    if half_angle_deg >= 180.0 {
        f32::NEG_INFINITY
    } else {
        fmath::cos(fmath::to_radians(half_angle_deg))
    }
}

/// What a boid gathered from its neighbours: running sums, filled by
/// [`Neighbourhood::consider`] for each candidate the index returns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Neighbourhood {
    /// Neighbours seen.
    pub count: u32,
    /// `Σ (p_j - p_i)`.
    pub sum_offset: Vec3,
    /// `Σ v_j`.
    pub sum_velocity: Vec3,
    /// `Σ heading_j`.
    pub sum_heading: Vec3,
    /// Separation sum, in the flock's [`SeparationMode`].
    pub separation: Vec3,
    /// Neighbours inside the separation radius.
    pub separation_count: u32,
    /// `Σ |v_j|` (filled by [`Neighbourhood::consider`]; the SIMD block kernel leaves it 0).
    pub sum_speed: f32,
    /// Steering from other flocks (flee, chase, avoid, flock together), already weighted.
    pub external: Vec3,
}

impl Neighbourhood {
    /// Offers a candidate at offset `o = p_j - p_i` (with `d2 = |o|²`, already known to be below
    /// the perception radius) to a boid heading along `heading`; it is counted when it lies in
    /// the field of view. A coincident candidate (`o = 0`) has no direction: it passes the
    /// field-of-view test when the cosine is negative (as in Unity) and adds nothing to
    /// separation.
    #[inline(always)]
    pub fn consider(
        &mut self,
        d: &Derived,
        heading: Vec3,
        o: Vec3,
        d2: f32,
        velocity_j: Vec3,
        heading_j: Vec3,
    ) {
        let inv_len = if d2 > 0.0 { 1.0 / d2.sqrt() } else { 0.0 };
        let dot = (heading.x * o.x + heading.y * o.y) + heading.z * o.z;
        let seen = !d.fov_active || dot * inv_len > d.cos_fov;
        if !seen {
            return;
        }
        self.count += 1;
        self.sum_offset += o;
        self.sum_velocity += velocity_j;
        self.sum_speed += velocity_j.length();
        self.sum_heading += heading_j;
        if d2 < d.separation_radius2 {
            self.separation_count += 1;
            self.separation -= match d.separation {
                SeparationMode::UnitMean => o * inv_len,
                SeparationMode::InverseSquare => o * (inv_len * inv_len),
                SeparationMode::MeanOffset | SeparationMode::SumOffset => o,
            };
        }
    }
}

/// What a boid's surroundings hold apart from its flockmates.
#[derive(Clone, Copy, Debug, Default)]
pub struct Env<'a> {
    /// The flock's target point (used when the params have target settings).
    pub target: Option<Vec3>,
    /// Obstacles to look out for (for a grounded flock: every obstacle but its ground).
    pub obstacles: &'a [Placed],
    /// The ground a grounded flock walks on: the mesh and heightfield placements marked as
    /// ground (unused by other flocks, which see them among `obstacles`).
    pub ground: &'a [Placed],
    /// A grounded flock's short lists of the ground and obstacles near it (the same answers,
    /// found sooner; `None`: the whole lists).
    pub nearby: Option<crate::ground::Nearby<'a>>,
    /// The flock's path (a polyline; at least two points to be followed).
    pub path: &'a [Vec3],
    /// Whether the path closes back on its first point.
    pub path_closed: bool,
    /// A grounded flock's flow field to its target: it seeks along it
    /// ([`crate::flow::FlowField::seek`]) instead of in a straight line.
    pub flow: Option<&'a crate::flow::FlowField>,
    /// A grounded flock's boids within this (horizontal) distance of the target stand once
    /// they and their neighbours are nearly still ([`STAND_SPEED`]); 0: none stands.
    /// [`stand_radius`] gives it.
    pub stand_radius: f32,
}

/// How far from its target a grounded flock with an arrival radius stands
/// ([`Env::stand_radius`]), when `at_target` of its boids are within the arrival radius (the
/// step before): the radius of a disc that holds them packed, with room to spare
/// (`r × (1.15 √(k / 0.8) + 1)` for bodies of radius `r`: the body radius, or the boid radius,
/// or half the separation radius), at most the arrival radius. So the first arrivals stand in
/// the middle and the core grows as the crowd comes in, instead of the first ones standing
/// wherever they slowed and walling the rest out. 0 for any other flock.
pub fn stand_radius(p: &FlockParams, at_target: usize) -> f32 {
    if p.ground.is_none()
        || p.target.is_none()
        || p.arrival_radius.is_nan()
        || p.arrival_radius <= 0.0
    {
        return 0.0;
    }
    let r = [p.body_radius, p.boid_radius, 0.5 * p.separation_radius]
        .into_iter()
        .find(|&r| r > 0.0)
        .unwrap_or(0.5 * p.perception_radius);
    (r * (1.15 * (at_target as f32 / 0.8).sqrt() + 1.0)).at_most(p.arrival_radius)
}

/// The point `lookahead` further along the polyline from the point on it nearest to `p`.
fn path_target(path: &[Vec3], closed: bool, p: Vec3, lookahead: f32) -> Option<Vec3> {
    let n = path.len();
    if n < 2 {
        return None;
    }
    let segments = if closed { n } else { n - 1 };
    let seg = |k: usize| (path[k], path[(k + 1) % n]);
    let mut best = (f32::INFINITY, 0usize, 0.0f32);
    for k in 0..segments {
        let (a, b) = seg(k);
        let ab = b - a;
        let len2 = ab.length_squared();
        let t = if len2 > 0.0 {
            ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let d2 = (a + ab * t - p).length_squared();
        if d2 < best.0 {
            best = (d2, k, t);
        }
    }
    // Walk `lookahead` along the path from the nearest point.
    let (mut k, mut t, mut left) = (best.1, best.2, lookahead);
    for _ in 0..=segments {
        let (a, b) = seg(k);
        let len = (b - a).length();
        let rest = len * (1.0 - t);
        if left <= rest || (!closed && k + 1 == segments) {
            let along = if len > 0.0 {
                (t + left / len).at_most(1.0)
            } else {
                1.0
            };
            return Some(a + (b - a) * along);
        }
        left -= rest;
        k = (k + 1) % segments;
        t = 0.0;
    }
    Some(path[best.1])
}

/// The direction the obstacle rule steers toward, if the look-ahead hits something.
fn avoid_obstacles(own: &BoidState, p: &FlockParams, obstacles: &[Placed]) -> Option<Vec3> {
    if p.obstacle_avoidance == ObstacleAvoidance::None
        || obstacles.is_empty()
        || p.look_ahead <= 0.0
    {
        return None;
    }
    let f = own.heading;
    // Every cast of this boid starts here and reaches as far: the obstacles it can touch, once.
    let near = Near::new(
        obstacles,
        own.position,
        p.look_ahead + p.boid_radius.at_least(0.0),
    );
    if near.is_empty() {
        return None;
    }
    Some(match p.obstacle_avoidance {
        ObstacleAvoidance::Reflect => {
            let hit = first_hit(near.iter(), own.position, p.boid_radius, f, p.look_ahead)?;
            normalize_or_zero(f - 2.0 * f.dot(hit.normal) * hit.normal)
        }
        _ => {
            // Blocked ahead (any hit: whether, not where), then the first free direction of
            // the spiral; what blocked one direction is tried first on the next.
            let mut blocker = Blocker::default();
            let (o, r, reach) = (own.position, p.boid_radius, p.look_ahead);
            if !blocker.any_hit(&near, o, r, f, reach) {
                return None;
            }
            let frame = look_rotation(f);
            spiral_directions()
                .iter()
                .map(|&d| p.plane.apply(frame * d))
                .filter(|d| *d != Vec3::ZERO)
                .map(normalize_or_zero)
                .find(|&d| !blocker.any_hit(&near, o, r, d, reach))
                .unwrap_or(f)
        }
    })
}

fn mean(sum: Vec3, n: u32) -> Vec3 {
    if n == 0 { Vec3::ZERO } else { sum / n as f32 }
}

/// Smallest `|d / distance|` the wall push divides by: keeps a boid exactly on a wall finite
/// (a push of 10^6 × weight) while matching the tutorial's `1 / |d / distance|` everywhere else.
pub(crate) const WALL_FLOOR: f32 = 1.0e-6;

/// Soft push of the bounds on a boid at `p` (unweighted).
fn bounds_push(b: &Bounds, p: Vec3) -> Vec3 {
    match *b {
        Bounds::SoftBox { min, max, distance } if distance > 0.0 => {
            let mut push = Vec3::ZERO;
            for axis in 0..3 {
                // Distance inside each of the two faces on this axis.
                let d_min = p[axis] - min[axis];
                let d_max = max[axis] - p[axis];
                if d_min < distance {
                    push[axis] += 1.0 / (d_min / distance).abs().at_least(WALL_FLOOR);
                }
                if d_max < distance {
                    push[axis] -= 1.0 / (d_max / distance).abs().at_least(WALL_FLOOR);
                }
            }
            push
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => {
            let o = centre - p;
            let t = o.length() / radius;
            if t < inner { Vec3::ZERO } else { o * (t * t) }
        }
        _ => Vec3::ZERO,
    }
}

/// Keeps `position` inside `min..=max`: on each axis it is out, the position is set to the face
/// and the velocity component turned inward.
#[inline]
fn clamp_into(position: &mut Vec3, velocity: &mut Vec3, min: Vec3, max: Vec3) {
    for axis in 0..3 {
        if position[axis] < min[axis] {
            position[axis] = min[axis];
            velocity[axis] = velocity[axis].abs();
        } else if position[axis] > max[axis] {
            position[axis] = max[axis];
            velocity[axis] = -velocity[axis].abs();
        }
    }
}

/// Reynolds steering toward direction `x` (zero `x` steers toward standstill).
fn steer(x: Vec3, v: Vec3, p: &FlockParams) -> Vec3 {
    clamp_length(normalize_or_zero(x) * p.max_speed - v, p.max_force)
}

/// One rule's output before combining: its weight, its unweighted vector, and whether it
/// applies under [`Combine::Steer`].
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    w: f32,
    m: Vec3,
    steer: bool,
}

impl Part {
    fn new(w: f32, m: Vec3, steer: bool) -> Part {
        Part { w, m, steer }
    }
}

/// Every rule's output for one boid, in the fixed order they are combined.
#[derive(Clone, Copy, Debug, Default)]
struct Rules {
    separation: Part,
    alignment: Part,
    cohesion: Part,
    target: Part,
    bounds: Part,
    wander: Part,
    obstacles: Part,
    path: Part,
    /// Steering from other flocks, already weighted: weight `|e|`, vector `ê`.
    external: Part,
}

impl Rules {
    /// The parts in combining order.
    fn in_order(&self) -> [Part; 9] {
        [
            self.separation,
            self.alignment,
            self.cohesion,
            self.target,
            self.bounds,
            self.wander,
            self.obstacles,
            self.path,
            self.external,
        ]
    }

    /// The neighbour and target rules switched off (the rule-probability draw failed, or an
    /// override took over).
    fn without_flock_rules(mut self) -> Rules {
        self.separation = Part::default();
        self.alignment = Part::default();
        self.cohesion = Part::default();
        self.target = Part::default();
        self
    }
}

/// `v / |v|` and `|v|` together (one square root): the unit vector is exactly
/// `normalize_or_zero(v)`, or `None` where that would be zero.
#[inline]
fn unit_and_length(v: Vec3) -> (Option<Vec3>, f32) {
    let len = v.length();
    let rcp = 1.0 / len;
    if rcp.is_finite() && rcp > 0.0 {
        (Some(v * rcp), len)
    } else {
        (None, len)
    }
}

/// Reynolds wander: a target on a circle ahead, jittered a little every step (the boid's first
/// random draw). From the boid's heading and its wander target, the rule's vector and the next
/// wander target. (`step_boid` and the eight-boid path both call it.)
pub fn wander(
    heading: Vec3,
    target: Vec3,
    p: &FlockParams,
    rng: &mut Rng,
    dt: f32,
) -> (Vec3, Vec3) {
    let jitter = rng.unit_vector() * (p.wander_jitter * dt);
    let mut on = p.plane.apply(target + jitter);
    if on == Vec3::ZERO {
        on = heading;
    }
    let next = normalize_or_zero(on) * p.wander_radius;
    let m = p.plane.apply(heading * p.wander_distance + next);
    (m, next)
}

/// Where a move to `position` ends for a flock with params `p`: through a wrap or against a
/// clamp box, above the heightfields among `floors` (a heightfield is a floor: no boid ends a
/// step below it), inside the world's ±[`MAX_MAGNITUDE`], in the plane lock's plane; the
/// velocity loses what a wall took. The step ends every move with it, and so does anything
/// else that moves boids (the body pass).
pub fn confine(
    p: &FlockParams,
    floors: &[Placed],
    mut position: Vec3,
    mut velocity: Vec3,
) -> (Vec3, Vec3) {
    match p.bounds {
        Bounds::Wrap { min, max } => position = Period::new(min, max).wrap(position),
        Bounds::Clamp { min, max } => clamp_into(&mut position, &mut velocity, min, max),
        _ => {}
    }
    if !floors.is_empty() {
        (position, velocity) = keep_above(floors, position, velocity);
    }
    // The state never leaves the domain the API accepts: the world ends at ±MAX_MAGNITUDE on
    // every axis, a hard wall like `Bounds::Clamp`.
    let world = Vec3::splat(MAX_MAGNITUDE);
    clamp_into(&mut position, &mut velocity, -world, world);
    // A speed of MAX_MAGNITUDE along a unit vector can round one ulp past it.
    let velocity = velocity.within(-world, world);
    // The plane lock wins over a wrap or clamp box that does not hold the plane.
    (p.plane.apply(position), p.plane.apply(velocity))
}

/// Below this fraction of its max speed, a grounded boid at its target (with its neighbours as
/// slow) stands there ([`step_boid`]).
pub const STAND_SPEED: f32 = 0.05;

/// The next state of one boid. Pure: the same inputs give the same bits.
///
/// Never returns a non-finite state: if arithmetic overflows (absurd but accepted weights), the
/// boid keeps its previous state for this step.
pub fn step_boid(
    own: &BoidState,
    n: &Neighbourhood,
    p: &FlockParams,
    env: &Env<'_>,
    rng: &mut Rng,
    dt: f32,
) -> BoidState {
    let target = env.target;
    let w = &p.weights;
    // A grounded boid steers and integrates in the horizontal plane (crate::ground).
    let walker = p
        .ground
        .map(|g| Walker::new(env.ground, env.obstacles, g, p.body_radius).with_nearby(env.nearby));
    // What it stands on before the step: its look-ahead and its move both start there.
    let under = walker.as_ref().and_then(|wk| wk.stand_under(own.position));
    let flat = |x: Vec3| match walker {
        Some(_) => horizontal(x),
        None => p.plane.apply(x),
    };
    let v = if walker.is_some() {
        horizontal(own.velocity)
    } else {
        own.velocity
    };
    let alone = n.count == 0;
    let mut extra = own.extra;
    // Random draws, in a fixed order: a new speed, then whether the rules apply.
    let new_speed = (p.speed_change_probability > 0.0 && rng.chance(p.speed_change_probability))
        .then(|| rng.range(p.min_speed, p.max_speed));
    let rules_apply = p.rule_probability >= 1.0 || rng.chance(p.rule_probability);

    let separation = match p.separation {
        SeparationMode::UnitMean | SeparationMode::MeanOffset => {
            mean(n.separation, n.separation_count)
        }
        SeparationMode::InverseSquare | SeparationMode::SumOffset => n.separation,
    };
    let alignment = match p.alignment {
        AlignmentMode::VelocityDifference if !alone => mean(n.sum_velocity, n.count) - v,
        AlignmentMode::MeanHeading if alone => own.heading,
        AlignmentMode::MeanHeading => mean(n.sum_heading, n.count),
        AlignmentMode::MeanVelocity => mean(n.sum_velocity, n.count),
        AlignmentMode::VelocityDifference | AlignmentMode::GroupSpeed => Vec3::ZERO,
    };
    let mut cohesion = mean(n.sum_offset, n.count);
    if p.cohesion_smooth_time > 0.0 && !alone {
        // Runs even at weight 0: the damping state advances regardless.
        cohesion = smooth_damp(
            own.heading,
            cohesion,
            &mut extra.damp,
            p.cohesion_smooth_time,
            dt,
        );
    }
    let mut rules = Rules {
        separation: Part::new(w.separation, separation, !alone),
        alignment: Part::new(w.alignment, alignment, !alone),
        cohesion: Part::new(w.cohesion, cohesion, !alone),
        ..Rules::default()
    };
    if n.external != Vec3::ZERO {
        rules.external = Part::new(n.external.length(), normalize_or_zero(n.external), true);
    }
    // The arrival force, when arriving: a steering force already.
    let mut arrival = None;
    // A grounded boid that has arrived stands: within the filled core of its target's area
    // (`Env::stand_radius`, horizontally), nearly still, and so are its neighbours. A crowd at
    // its goal stops instead of pushing toward the centre for ever; one still moving in, or
    // outside the core, goes on until the crowd stops it, so the core fills from the middle.
    let stands = walker.is_some()
        && env.stand_radius > 0.0
        && target.is_some_and(|tp| horizontal(tp - own.position).length() <= env.stand_radius)
        && v.length() < STAND_SPEED * p.max_speed
        && (alone || n.sum_speed < STAND_SPEED * p.max_speed * n.count as f32);
    // A grounded boid with a flow field seeks along its way, unless it sees the target (or
    // has no way to it: then not at all).
    let seek = match (env.flow, &walker, target) {
        (Some(f), Some(_), Some(tp)) => f.seek(own.position, tp),
        _ => crate::flow::Seek::Straight,
    };
    if let (Some(t), Some(tp), true) = (p.target, target, !(p.target_needs_neighbours && alone))
        && seek != crate::flow::Seek::NoWay
    {
        let d = match seek {
            crate::flow::Seek::Along {
                direction,
                distance,
            } => direction * distance,
            _ => tp - own.position,
        };
        let dist = d.length();
        rules.target = if dist > t.avoid_distance {
            if p.arrival_radius > 0.0 {
                // Reynolds arrival: the desired speed falls linearly inside the radius.
                let desired =
                    normalize_or_zero(d) * p.max_speed * (dist / p.arrival_radius).at_most(1.0);
                arrival = Some(desired - v);
                Part::new(w.target, desired - v, true)
            } else {
                Part::new(w.target, d, true)
            }
        } else {
            Part::new(w.target_avoid, -normalize_or_zero(d), true)
        };
    }
    let push = bounds_push(&p.bounds, own.position);
    rules.bounds = Part::new(w.bounds, push, push != Vec3::ZERO);
    if w.wander != 0.0 {
        let m;
        (m, extra.wander) = wander(own.heading, extra.wander, p, rng, dt);
        rules.wander = Part::new(w.wander, m, true);
    }
    if w.path != 0.0
        && let Some(t) = path_target(env.path, env.path_closed, own.position, p.path_lookahead)
    {
        rules.path = Part::new(w.path, flat(t - own.position), true);
    }
    if !rules_apply {
        rules = rules.without_flock_rules();
        arrival = None;
    }
    // Overrides (the goal-swarm tutorial): outside a turn-back box, head for its centre; else
    // an obstacle ahead with overriding avoidance. Either skips every other rule and any speed
    // change.
    let mut overridden = false;
    if let Bounds::TurnBack { min, max } = p.bounds
        && !(own.position.cmpge(min).all() && own.position.cmple(max).all())
    {
        rules = Rules {
            bounds: Part::new(1.0, (min + max) * 0.5 - own.position, true),
            ..Rules::default()
        };
        arrival = None;
        overridden = true;
    } else if let Some(dir) = match &walker {
        Some(wk) => wk.avoid_on(
            p.obstacle_avoidance,
            own.position,
            under,
            own.heading,
            p.look_ahead,
            p.boid_radius.at_least(p.body_radius),
        ),
        None => avoid_obstacles(own, p, env.obstacles),
    } {
        if p.obstacle_overrides {
            rules = Rules::default();
            arrival = None;
            overridden = true;
        }
        rules.obstacles = Part::new(w.obstacles, dir, true);
    }
    let group_speed =
        (!overridden && rules_apply && p.alignment == AlignmentMode::GroupSpeed && !alone)
            .then(|| (0.01 + n.sum_speed) / n.count as f32);

    // Combine. A sum starts at +0 and never becomes -0, so adding a part that is exactly zero
    // changes no bit: zero parts are skipped.
    let mut a = Vec3::ZERO;
    match p.combine {
        Combine::WeightedSum => {
            for part in rules.in_order() {
                if part.w != 0.0 && part.m != Vec3::ZERO {
                    a += part.w * part.m;
                }
            }
        }
        Combine::Steer => {
            for (k, part) in rules.in_order().into_iter().enumerate() {
                if k == 3
                    && let Some(force) = arrival
                {
                    a += part.w * clamp_length(force, p.max_force);
                } else if part.steer {
                    a += part.w * steer(part.m, v, p);
                }
            }
        }
        Combine::WeightedClamped => {
            for part in rules.in_order() {
                let weighted = part.w * part.m;
                if weighted.length_squared() >= 1e-10 {
                    a += clamp_length(weighted, part.w.abs());
                }
            }
            a *= p.drive_factor;
        }
    }
    a = flat(a);

    let (velocity, heading) = match p.integrator {
        // Standing: still, facing as it did.
        _ if stands => (Vec3::ZERO, own.heading),
        Integrator::Acceleration => {
            let nv = v + a * dt;
            let (unit, len) = unit_and_length(nv);
            let h = unit.unwrap_or(own.heading);
            (h * len.clamp(p.min_speed, p.max_speed), h)
        }
        Integrator::VelocityBlend => {
            let mut nv = v + p.velocity_smoothing * a;
            let speed = nv.length();
            if speed > p.max_speed {
                nv = normalize_or_zero(nv) * p.max_speed;
            }
            let speed = nv.length();
            if speed > 0.0 && speed < p.min_speed {
                nv = normalize_or_zero(nv) * p.min_speed;
            }
            (nv, unit_and_length(nv).0.unwrap_or(own.heading))
        }
        Integrator::HeadingSpeed => {
            let want = normalize_or_zero(a);
            if want != Vec3::ZERO {
                let t = (p.max_turn_rate * dt).clamp(0.0, 1.0);
                extra.orientation = extra.orientation.slerp(look_rotation(want), t).normalize();
            }
            let h = unit_and_length(flat(extra.orientation * Vec3::Z))
                .0
                .unwrap_or(own.heading);
            let speed = match (overridden, group_speed, new_speed) {
                (false, Some(g), _) => g,
                (false, None, Some(s)) => s,
                _ => v.length(),
            };
            (h * speed, h)
        }
        Integrator::Kinematic => {
            let nv = clamp_length(a, p.max_speed);
            (nv, unit_and_length(nv).0.unwrap_or(own.heading))
        }
    };
    let velocity = flat(velocity);
    let (position, velocity) = match &walker {
        // Walks on the ground; its settings refuse wrap and clamp bounds and a plane lock.
        Some(wk) => wk.walk_on(own.position, under, velocity, dt),
        None => (p.plane.apply(own.position + velocity * dt), velocity),
    };
    let floors = if walker.is_none() { env.obstacles } else { &[] };
    let (position, velocity) = confine(p, floors, position, velocity);
    let heading = match unit_and_length(velocity).0 {
        Some(h) if p.integrator != Integrator::HeadingSpeed => h,
        _ => heading,
    };
    // Drawn leaning with the ground: the orientation with up = the normal of the ground the
    // boid stands on (kept in its extra state; world up where it stands on none).
    if let (Some(wk), Some(g)) = (&walker, p.ground)
        && g.up == crate::params::GroundUp::Normal
    {
        let feet = position - Vec3::Y * g.pivot_height;
        extra.orientation = match wk.stand_near(feet.x, feet.z, feet.y) {
            Some(s) => crate::math::look_rotation_up(heading, s.normal),
            None => look_rotation(heading),
        };
    }
    let next = BoidState {
        position,
        velocity,
        heading,
        extra,
    };
    if next.is_finite() { next } else { *own }
}
