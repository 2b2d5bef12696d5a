//! Round trip through the C ABI (docs/reliability.md), 256 random accepted cases: the params a
//! flock was given read back bit for bit (unused fields included), `set_params(get_params())`
//! is accepted and changes nothing, a read of the state written back changes nothing, and a
//! leader-driven target read back is accepted.
//!
//! SAFETY, for every `unsafe` block in this file: each pointer passed points to a live local of
//! the right type and length; strings are NUL-terminated literals.
#![expect(unsafe_code, reason = "these tests call the C ABI exactly as C does")]

#[path = "../../sim/tests/support/strategies.rs"]
mod strategies;

use boids_ffi::*;
use boids_sim::{Bounds, FlockParams, Vec3};
use proptest::prelude::*;
use std::ffi::CStr;
use strategies::*;

fn c3(v: Vec3) -> BoidsVec3 {
    BoidsVec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

/// The C struct a C host would fill for `p`, with `junk` in every field the settings leave
/// unused (NaN for an unset target point).
fn to_c(p: &FlockParams, junk: f32, nan_target: bool) -> BoidsFlockParams {
    let mut c = boids_default_flock_params();
    let j = c3(Vec3::splat(junk));
    c.bounds = BoidsBounds {
        kind: p.bounds.kind().c_value(),
        min: j,
        max: j,
        centre: j,
        radius: junk,
        distance: junk,
        inner: junk,
    };
    match p.bounds {
        Bounds::None => {}
        Bounds::SoftBox { min, max, distance } => {
            (c.bounds.min, c.bounds.max, c.bounds.distance) = (c3(min), c3(max), distance)
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => (c.bounds.centre, c.bounds.radius, c.bounds.inner) = (c3(centre), radius, inner),
        Bounds::Wrap { min, max } | Bounds::Clamp { min, max } | Bounds::TurnBack { min, max } => {
            (c.bounds.min, c.bounds.max) = (c3(min), c3(max))
        }
    }
    c.perception_radius = p.perception_radius;
    c.fov_half_angle_deg = p.fov_half_angle_deg;
    c.separation_radius = p.separation_radius;
    c.max_neighbours = p.max_neighbours;
    let w = &p.weights;
    (c.weight_separation, c.weight_alignment, c.weight_cohesion) =
        (w.separation, w.alignment, w.cohesion);
    (c.weight_target, c.weight_target_avoid, c.weight_bounds) =
        (w.target, w.target_avoid, w.bounds);
    (c.weight_obstacles, c.weight_wander, c.weight_path) = (w.obstacles, w.wander, w.path);
    c.separation_mode = p.separation.c_value();
    c.alignment_mode = p.alignment.c_value();
    c.combine = p.combine.c_value();
    c.integrator = p.integrator.c_value();
    c.plane = p.plane.c_value();
    c.index = p.index.c_value();
    c.obstacle_avoidance = p.obstacle_avoidance.c_value();
    (c.min_speed, c.max_speed, c.max_force) = (p.min_speed, p.max_speed, p.max_force);
    (c.max_turn_rate, c.velocity_smoothing, c.drive_factor) =
        (p.max_turn_rate, p.velocity_smoothing, p.drive_factor);
    match p.target {
        Some(t) => {
            c.has_target = 1;
            (c.target_point, c.target_avoid_distance) = (c3(t.point), t.avoid_distance);
        }
        None => {
            c.has_target = 0;
            c.target_point = if nan_target { c3(Vec3::NAN) } else { j };
            c.target_avoid_distance = junk;
        }
    }
    match p.target_relocation {
        Some(r) => {
            c.has_target_relocation = 1;
            c.target_relocation_probability = r.probability;
            (c.target_relocation_min, c.target_relocation_max) = (c3(r.min), c3(r.max));
        }
        None => {
            c.has_target_relocation = 0;
            c.target_relocation_probability = junk;
            (c.target_relocation_min, c.target_relocation_max) = (j, j);
        }
    }
    (c.look_ahead, c.boid_radius) = (p.look_ahead, p.boid_radius);
    c.obstacle_overrides = i32::from(p.obstacle_overrides);
    (c.rule_probability, c.speed_change_probability) =
        (p.rule_probability, p.speed_change_probability);
    c.target_needs_neighbours = i32::from(p.target_needs_neighbours);
    c.cohesion_smooth_time = p.cohesion_smooth_time;
    c.fallback_to_nearest = i32::from(p.fallback_to_nearest);
    (c.wander_radius, c.wander_distance, c.wander_jitter) =
        (p.wander_radius, p.wander_distance, p.wander_jitter);
    (c.arrival_radius, c.path_lookahead) = (p.arrival_radius, p.path_lookahead);
    (c.update_every, c.sleep_distance) = (p.update_every, p.sleep_distance);
    c
}

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn get(f: BoidsFlockId) -> BoidsFlockParams {
    let mut p = BoidsFlockParams::default();
    assert_eq!(
        unsafe { boids_flock_get_params(f, &mut p) },
        BoidsResult::Ok
    );
    p
}

fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut h) },
        BoidsResult::Ok
    );
    h
}

fn state(f: BoidsFlockId, n: usize) -> (Vec<BoidsVec3>, Vec<BoidsVec3>) {
    let (mut p, mut v) = (vec![BoidsVec3::default(); n], vec![BoidsVec3::default(); n]);
    let mut k = 0;
    unsafe {
        assert_eq!(
            boids_flock_read_positions(f, p.as_mut_ptr(), n, &mut k),
            BoidsResult::Ok
        );
        assert_eq!(
            boids_flock_read_velocities(f, v.as_mut_ptr(), n, &mut k),
            BoidsResult::Ok
        );
    }
    (p, v)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn what_the_c_abi_returns_it_accepts_unchanged(
        params in params(),
        junk in prop_oneof![Just(0.0f32), -1e9f32..=1e9],
        nan_target in any::<bool>(),
        boids in boids(10),
        offset in point(),
        steps in 0u16..20,
    ) {
        let mut w = BoidsWorldId::default();
        prop_assert_eq!(
            unsafe { boids_world_create(&boids_default_world_def(), &mut w) },
            BoidsResult::Ok
        );
        let c = to_c(&params, junk, nan_target);
        let mut def = boids_default_flock_def();
        def.name = c"f".as_ptr();
        def.params = c;
        let mut f = BoidsFlockId::default();
        prop_assert_eq!(
            unsafe { boids_flock_create(w, &def, &mut f) },
            BoidsResult::Ok,
            "{}",
            msg()
        );
        // Read back bit for bit, unused fields included.
        prop_assert_eq!(format!("{:?}", get(f)), format!("{c:?}"));
        let (p, v): (Vec<BoidsVec3>, Vec<BoidsVec3>) =
            boids.iter().map(|(p, v)| (c3(*p), c3(*v))).unzip();
        let mut first = 0;
        prop_assert_eq!(
            unsafe { boids_flock_add_boids(f, p.as_ptr(), v.as_ptr(), p.len(), &mut first) },
            BoidsResult::Ok,
            "{}",
            msg()
        );
        prop_assert_eq!(boids_flock_set_leader(f, 0, c3(offset)), BoidsResult::Ok, "{}", msg());
        for _ in 0..steps {
            prop_assert_eq!(boids_world_step(w, 1.0 / 30.0), BoidsResult::Ok);
        }
        // Everything read back is accepted, and changes nothing.
        let before = hash(w);
        let now = get(f);
        prop_assert_eq!(unsafe { boids_flock_set_params(f, &now) }, BoidsResult::Ok, "{}", msg());
        prop_assert_eq!(format!("{:?}", get(f)), format!("{now:?}"));
        let (p, v) = state(f, boids.len());
        unsafe {
            prop_assert_eq!(
                boids_flock_write_positions(f, p.as_ptr(), p.len()),
                BoidsResult::Ok,
                "{}",
                msg()
            );
            prop_assert_eq!(
                boids_flock_write_velocities(f, v.as_ptr(), v.len()),
                BoidsResult::Ok,
                "{}",
                msg()
            );
        }
        prop_assert_eq!(hash(w), before, "writing back what was read changed the state");
        prop_assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    }
}
