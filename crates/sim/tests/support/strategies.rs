//! Random *accepted* inputs for the property tests: every value inside the domain the API
//! accepts, with the extremes (0, the limit 1e9, tiny and huge boxes) drawn often. Shared by
//! `crates/sim/tests/properties.rs`, `memory.rs` and the C ABI's `crates/ffi/tests/properties.rs`.
#![allow(dead_code)]

use boids_sim::Order;
use boids_sim::*;
use proptest::prelude::*;

pub const LIMIT: f32 = MAX_MAGNITUDE;

/// A length or speed in `0..=1e9`: mostly everyday values, often the extremes.
pub fn mag() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => 0.0f32..20.0,
        1 => 0.0f32..=LIMIT,
        1 => Just(0.0f32),
        1 => Just(LIMIT),
        1 => Just(1e-30f32),
    ]
}

/// A weight or coordinate in `-1e9..=1e9`.
pub fn signed() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -20.0f32..20.0,
        1 => -LIMIT..=LIMIT,
        1 => Just(LIMIT),
        1 => Just(-LIMIT),
        1 => Just(0.0f32),
    ]
}

pub fn unit() -> impl Strategy<Value = f32> {
    prop_oneof![3 => 0.0f32..=1.0, 1 => Just(0.0f32), 1 => Just(1.0f32)]
}

pub fn point() -> impl Strategy<Value = Vec3> {
    (signed(), signed(), signed()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A box with `min < max` on every axis, inside the limit.
pub fn strict_box() -> impl Strategy<Value = (Vec3, Vec3)> {
    (point(), point())
        .prop_filter("a box needs extent on every axis", |(a, b)| {
            a.cmpne(*b).all()
        })
        .prop_map(|(a, b)| (a.at_most(b), a.at_least(b)))
}

pub fn bounds() -> BoxedStrategy<Bounds> {
    prop_oneof![
        Just(Bounds::None),
        (strict_box(), mag()).prop_map(|((min, max), distance)| Bounds::SoftBox {
            min,
            max,
            distance
        }),
        (
            point(),
            mag().prop_filter("radius > 0", |r| *r > 0.0),
            unit()
        )
            .prop_map(|(centre, radius, inner)| Bounds::SoftSphere {
                centre,
                radius,
                inner
            }),
        strict_box().prop_map(|(min, max)| Bounds::Wrap { min, max }),
        strict_box().prop_map(|(min, max)| Bounds::Clamp { min, max }),
        strict_box().prop_map(|(min, max)| Bounds::TurnBack { min, max }),
    ]
    .boxed()
}

pub fn one_of<T: CEnum + std::fmt::Debug>() -> impl Strategy<Value = T> {
    proptest::sample::select(T::all())
}

fn weights() -> BoxedStrategy<Weights> {
    (
        (signed(), signed(), signed(), signed(), signed()),
        (signed(), signed(), signed(), signed()),
    )
        .prop_map(|((a, b, c, d, e), (f, g, h, i))| Weights {
            separation: a,
            alignment: b,
            cohesion: c,
            target: d,
            target_avoid: e,
            bounds: f,
            obstacles: g,
            wander: h,
            path: i,
        })
        .boxed()
}

/// Every field of `FlockParams`, each anywhere in its accepted range.
pub fn params() -> BoxedStrategy<FlockParams> {
    let shape = (
        (mag(), 0.0f32..=360.0, mag()),
        prop_oneof![3 => Just(0u32), 1 => 1u32..=8, 1 => Just(1024u32)],
        weights(),
        (
            one_of::<SeparationMode>(),
            one_of::<AlignmentMode>(),
            one_of::<Combine>(),
            one_of::<Integrator>(),
            one_of::<PlaneLock>(),
            one_of::<ObstacleAvoidance>(),
            one_of::<IndexKind>(),
        ),
        (mag(), mag()),
        (mag(), mag(), unit(), mag()),
        bounds(),
    );
    let more = (
        proptest::option::of((point(), mag())),
        (mag(), mag(), any::<bool>(), unit(), unit(), any::<bool>()),
        proptest::option::of((unit(), point(), point())),
        (mag(), any::<bool>(), mag(), mag(), mag(), mag(), mag()),
        (prop_oneof![3 => Just(1u32), 1 => 1u32..=1000], mag()),
        (
            prop_oneof![
                4 => Just(None),
                1 => (0.0f32..=89.0, mag(), mag(), one_of::<GroundUp>()).prop_map(Some),
            ],
            prop_oneof![3 => Just(0.0f32), 1 => mag()],
        ),
    );
    (shape, more)
        .prop_map(|(a, b)| {
            let ((radius, fov, sep_radius), k, weights, enums, (s1, s2), motion, bounds) = a;
            let (target, (look, boid_r, overrides, rule_p, speed_p, needs), reloc, rest, lod, body) =
                b;
            let (sep, align, combine, integrator, plane, avoid, index) = enums;
            let (max_force, turn, smoothing, drive) = motion;
            let (smooth_t, fallback, wr, wd, wj, arrival, lookahead) = rest;
            FlockParams {
                perception_radius: radius,
                fov_half_angle_deg: fov,
                separation_radius: sep_radius,
                max_neighbours: k,
                weights,
                separation: sep,
                alignment: align,
                min_speed: s1.at_most(s2),
                max_speed: s1.at_least(s2),
                max_force,
                max_turn_rate: turn,
                velocity_smoothing: smoothing,
                drive_factor: drive,
                combine,
                integrator,
                bounds,
                plane,
                target: target.map(|(point, avoid_distance)| Target {
                    point,
                    avoid_distance,
                }),
                obstacle_avoidance: avoid,
                look_ahead: look,
                boid_radius: boid_r,
                obstacle_overrides: overrides,
                rule_probability: rule_p,
                speed_change_probability: speed_p,
                target_needs_neighbours: needs,
                target_relocation: reloc.map(|(probability, a, b)| TargetRelocation {
                    probability,
                    min: a.at_most(b),
                    max: a.at_least(b),
                }),
                cohesion_smooth_time: smooth_t,
                fallback_to_nearest: fallback,
                wander_radius: wr,
                wander_distance: wd,
                wander_jitter: wj,
                arrival_radius: arrival,
                path_lookahead: lookahead,
                update_every: lod.0,
                sleep_distance: lod.1,
                index,
                ground: body.0.map(|(max_slope_deg, step_height, pivot_height, up)| Ground {
                    max_slope_deg,
                    step_height,
                    pivot_height,
                    up,
                }),
                body_radius: body.1,
            }
        })
        .prop_filter("accepted by validate", |p| p.validate().is_ok())
        .boxed()
}

pub fn obstacle() -> BoxedStrategy<Obstacle> {
    prop_oneof![
        (point(), mag().prop_filter("radius > 0", |r| *r > 0.0))
            .prop_map(|(centre, radius)| Obstacle::Sphere { centre, radius }),
        (point(), point()).prop_map(|(a, b)| Obstacle::Box {
            min: a.at_most(b),
            max: a.at_least(b)
        }),
        (
            point(),
            point().prop_filter("a direction", |n| n.length() > 1e-3)
        )
            .prop_map(|(point, n)| Obstacle::Plane {
                point,
                normal: n.normalize(),
            }),
    ]
    .prop_filter("accepted by validate", |o| o.validate().is_ok())
    .boxed()
}

/// Boids: positions and velocities inside the limit.
pub fn boids(max: usize) -> impl Strategy<Value = Vec<(Vec3, Vec3)>> {
    proptest::collection::vec((point(), point()), 1..=max)
}
