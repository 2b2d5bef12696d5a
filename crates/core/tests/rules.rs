//! Each rule against a case computed by hand.
#![allow(clippy::field_reassign_with_default)] // tests build params step by step

use boids_core::*;

const DT: f32 = 0.1;

/// Plain params: nothing on, no bounds, speeds unclamped in practice.
fn bare() -> FlockParams {
    FlockParams {
        perception_radius: 1.0,
        fov_half_angle_deg: 360.0,
        separation_radius: 1.0,
        weights: Weights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            target: 0.0,
            target_avoid: 0.0,
            bounds: 0.0,
            obstacles: 0.0,
            wander: 0.0,
            path: 0.0,
        },
        obstacle_avoidance: ObstacleAvoidance::None,
        min_speed: 0.0,
        max_speed: 100.0,
        bounds: Bounds::None,
        ..FlockParams::default()
    }
}

fn hood(p: &FlockParams, own: &BoidState, others: &[(Vec3, Vec3)]) -> Neighbourhood {
    let d = Derived::new(p);
    let mut n = Neighbourhood::default();
    for &(pos, vel) in others {
        let o = pos - own.position;
        let d2 = o.length_squared();
        if d2 < d.radius2 {
            n.consider(&d, own.heading, o, d2, vel, vel.normalize_or_zero());
        }
    }
    n
}

fn step(p: &FlockParams, own: BoidState, others: &[(Vec3, Vec3)]) -> BoidState {
    let n = hood(p, &own, others);
    step_boid(
        &own,
        &n,
        p,
        &Env {
            target: p.target.map(|t| t.point),
            obstacles: &[],
            path: &[],
            path_closed: false,
            ground: &[],
            nearby: None,
            flow: None,
            stand_radius: 0.0,
        },
        &mut Rng::keyed(1, 0, 0, 0),
        DT,
    )
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

fn at_origin(v: Vec3) -> BoidState {
    BoidState::new(Vec3::ZERO, v)
}

#[test]
fn separation_is_the_mean_unit_vector_away() {
    let mut p = bare();
    p.weights.separation = 2.0;
    let others = [
        (Vec3::new(0.5, 0.0, 0.0), Vec3::X),
        (Vec3::new(0.0, 0.5, 0.0), Vec3::X),
    ];
    let next = step(&p, at_origin(Vec3::X), &others);
    // a = 2 * ((-1,0,0) + (0,-1,0)) / 2 = (-1,-1,0); v = (1,0,0) + a * 0.1.
    assert!(
        close(next.velocity, Vec3::new(0.9, -0.1, 0.0)),
        "{}",
        next.velocity
    );
    assert!(
        close(next.position, Vec3::new(0.09, -0.01, 0.0)),
        "{}",
        next.position
    );
}

#[test]
fn separation_inverse_square_and_offset_forms() {
    let mut p = bare();
    p.weights.separation = 1.0;
    let others = [
        (Vec3::new(0.5, 0.0, 0.0), Vec3::X),
        (Vec3::new(0.0, 0.25, 0.0), Vec3::X),
    ];
    p.separation = SeparationMode::InverseSquare;
    let n = hood(&p, &at_origin(Vec3::X), &others);
    // -o/|o|^2: (-2, 0, 0) + (0, -4, 0).
    assert!(
        close(n.separation, Vec3::new(-2.0, -4.0, 0.0)),
        "{}",
        n.separation
    );
    p.separation = SeparationMode::MeanOffset;
    let next = step(&p, at_origin(Vec3::X), &others);
    // mean(-o) = (-0.25, -0.125, 0).
    assert!(close(next.velocity, Vec3::new(1.0 - 0.025, -0.0125, 0.0)));
    p.separation = SeparationMode::SumOffset;
    let next = step(&p, at_origin(Vec3::X), &others);
    assert!(close(next.velocity, Vec3::new(1.0 - 0.05, -0.025, 0.0)));
}

#[test]
fn separation_radius_limits_separation_only() {
    let mut p = bare();
    p.weights.separation = 1.0;
    p.separation_radius = 0.3;
    let others = [
        (Vec3::new(0.5, 0.0, 0.0), Vec3::X),
        (Vec3::new(0.0, 0.25, 0.0), Vec3::X),
    ];
    let n = hood(&p, &at_origin(Vec3::X), &others);
    assert_eq!(n.count, 2);
    assert_eq!(n.separation_count, 1);
    assert!(close(n.separation, Vec3::new(0.0, -1.0, 0.0)));
}

#[test]
fn alignment_forms() {
    let mut p = bare();
    p.weights.alignment = 1.0;
    let others = [
        (Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0)),
        (Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 0.0, 2.0)),
    ];
    // mean v_j - v_i = (0,1,1) - (1,0,0).
    let next = step(&p, at_origin(Vec3::X), &others);
    assert!(close(
        next.velocity,
        Vec3::X + Vec3::new(-1.0, 1.0, 1.0) * DT
    ));
    p.alignment = AlignmentMode::MeanVelocity;
    let next = step(&p, at_origin(Vec3::X), &others);
    assert!(close(
        next.velocity,
        Vec3::X + Vec3::new(0.0, 1.0, 1.0) * DT
    ));
    p.alignment = AlignmentMode::MeanHeading;
    let next = step(&p, at_origin(Vec3::X), &others);
    assert!(close(
        next.velocity,
        Vec3::X + Vec3::new(0.0, 0.5, 0.5) * DT
    ));
    // Alone, mean heading is the boid's own heading.
    let next = step(&p, at_origin(Vec3::X), &[]);
    assert!(close(next.velocity, Vec3::X * (1.0 + DT)));
}

#[test]
fn cohesion_pulls_toward_the_centre() {
    let mut p = bare();
    p.weights.cohesion = 3.0;
    let others = [
        (Vec3::new(0.5, 0.0, 0.0), Vec3::X),
        (Vec3::new(0.0, 0.5, 0.0), Vec3::X),
    ];
    let next = step(&p, at_origin(Vec3::X), &others);
    // centre offset (0.25, 0.25, 0) * 3.
    assert!(close(
        next.velocity,
        Vec3::X + Vec3::new(0.75, 0.75, 0.0) * DT
    ));
}

#[test]
fn field_of_view_and_radius_select_neighbours() {
    let mut p = bare();
    p.fov_half_angle_deg = 90.0;
    let own = at_origin(Vec3::X);
    let behind = (Vec3::new(-0.5, 0.0, 0.0), Vec3::X);
    let ahead = (Vec3::new(0.5, 0.4, 0.0), Vec3::X);
    let side = (Vec3::new(0.0, 0.5, 0.0), Vec3::X);
    let far = (Vec3::new(1.0, 0.0, 0.0), Vec3::X); // exactly at the radius: not a neighbour
    let n = hood(&p, &own, &[behind, ahead, far]);
    assert_eq!(n.count, 1);
    // At exactly 90 degrees the f32 cosine is -4.4e-8, so a boid straight to the side counts.
    assert_eq!(hood(&p, &own, &[side]).count, 1);
    p.fov_half_angle_deg = 45.0;
    assert_eq!(hood(&p, &own, &[ahead, side]).count, 1);
}

#[test]
fn coincident_neighbour_counts_but_adds_no_separation() {
    let mut p = bare();
    p.fov_half_angle_deg = 90.0;
    p.weights.separation = 5.0;
    let n = hood(&p, &at_origin(Vec3::X), &[(Vec3::ZERO, Vec3::Y)]);
    assert_eq!(n.count, 1);
    assert_eq!(n.separation, Vec3::ZERO);
    let next = step(&p, at_origin(Vec3::X), &[(Vec3::ZERO, Vec3::Y)]);
    assert!(next.is_finite());
    assert_eq!(next.velocity, Vec3::X);
}

#[test]
fn soft_box_pushes_inward_near_and_beyond_walls() {
    let mut p = bare();
    p.weights.bounds = 1.0;
    p.bounds = Bounds::SoftBox {
        min: Vec3::splat(-5.0),
        max: Vec3::splat(5.0),
        distance: 3.0,
    };
    // 1 from the +x wall: push -1 / (1/3) = -3 on x only.
    let own = BoidState::new(Vec3::new(4.0, 0.0, 0.0), Vec3::Z);
    let next = step(&p, own, &[]);
    assert!(
        close(next.velocity, Vec3::Z + Vec3::new(-3.0, 0.0, 0.0) * DT),
        "{}",
        next.velocity
    );
    // Outside the box (d = -1): the push still points inward.
    let own = BoidState::new(Vec3::new(0.0, -6.0, 0.0), Vec3::Z);
    let next = step(&p, own, &[]);
    assert!(
        close(next.velocity, Vec3::Z + Vec3::new(0.0, 3.0, 0.0) * DT),
        "{}",
        next.velocity
    );
    // Exactly on a wall the push is capped (1 / 1e-6), not infinite: v = (0, 0, 1) + (-1e6, 0, 0)
    // * 0.1, then clamped to the maximum speed 100.
    let own = BoidState::new(Vec3::new(5.0, 0.0, 0.0), Vec3::Z);
    let next = step(&p, own, &[]);
    assert!(next.is_finite());
    assert!(
        next.velocity.x < -99.99 && next.velocity.length() <= 100.0 + 1e-3,
        "{}",
        next.velocity
    );
}

#[test]
fn soft_sphere_pushes_only_near_the_rim() {
    let mut p = bare();
    p.weights.bounds = 1.0;
    p.bounds = Bounds::SoftSphere {
        centre: Vec3::ZERO,
        radius: 10.0,
        inner: 0.9,
    };
    let inside = step(&p, BoidState::new(Vec3::new(8.0, 0.0, 0.0), Vec3::Z), &[]);
    assert_eq!(inside.velocity, Vec3::Z);
    // t = 1: push (c - p) * 1.
    let rim = step(&p, BoidState::new(Vec3::new(10.0, 0.0, 0.0), Vec3::Z), &[]);
    assert!(close(
        rim.velocity,
        Vec3::Z + Vec3::new(-10.0, 0.0, 0.0) * DT
    ));
}

#[test]
fn wrap_and_clamp_keep_positions_in_the_box() {
    let mut p = bare();
    p.bounds = Bounds::Wrap {
        min: Vec3::ZERO,
        max: Vec3::splat(10.0),
    };
    let next = step(
        &p,
        BoidState::new(Vec3::new(9.95, 5.0, 5.0), Vec3::new(1.0, 0.0, 0.0)),
        &[],
    );
    assert!(
        close(next.position, Vec3::new(0.05, 5.0, 5.0)),
        "{}",
        next.position
    );
    p.bounds = Bounds::Clamp {
        min: Vec3::ZERO,
        max: Vec3::splat(10.0),
    };
    let next = step(
        &p,
        BoidState::new(Vec3::new(9.95, 5.0, 5.0), Vec3::new(1.0, 0.0, 0.0)),
        &[],
    );
    assert_eq!(next.position.x, 10.0);
    assert_eq!(next.velocity, Vec3::new(-1.0, 0.0, 0.0));
    assert_eq!(next.heading, Vec3::new(-1.0, 0.0, 0.0));
}

#[test]
fn target_attracts_from_afar_and_repels_up_close() {
    let mut p = bare();
    p.weights.target = 0.5;
    p.weights.target_avoid = 2.0;
    p.target = Some(Target {
        point: Vec3::new(10.0, 0.0, 0.0),
        avoid_distance: 2.0,
    });
    let far = step(&p, at_origin(Vec3::Y), &[]);
    assert!(close(far.velocity, Vec3::Y + Vec3::new(5.0, 0.0, 0.0) * DT));
    let near = step(&p, BoidState::new(Vec3::new(9.0, 0.0, 0.0), Vec3::Y), &[]);
    assert!(close(
        near.velocity,
        Vec3::Y + Vec3::new(-2.0, 0.0, 0.0) * DT
    ));
}

#[test]
fn steer_combine_limits_force_and_skips_rules_when_alone() {
    let mut p = bare();
    p.combine = Combine::Steer;
    p.max_speed = 5.0;
    p.max_force = 3.0;
    p.weights.cohesion = 1.0;
    p.weights.separation = 1.0;
    // Alone: nothing applies.
    assert_eq!(step(&p, at_origin(Vec3::X), &[]).velocity, Vec3::X);
    // One neighbour straight ahead at 0.5: cohesion steer((0.5,0,0)) = clamp((5,0,0) - (1,0,0), 3)
    // = (3,0,0); separation steer((-1,0,0)) = clamp((-5,0,0)-(1,0,0), 3) = (-3,0,0). Sum 0.
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(0.5, 0.0, 0.0), Vec3::X)],
    );
    assert!(close(next.velocity, Vec3::X), "{}", next.velocity);
    // Separation only: (-3, 0, 0) * dt.
    p.weights.cohesion = 0.0;
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(0.5, 0.0, 0.0), Vec3::X)],
    );
    assert!(
        close(next.velocity, Vec3::new(0.7, 0.0, 0.0)),
        "{}",
        next.velocity
    );
}

#[test]
fn weighted_clamped_kinematic_move() {
    let mut p = bare();
    p.combine = Combine::WeightedClamped;
    p.integrator = Integrator::Kinematic;
    p.drive_factor = 10.0;
    p.max_speed = 5.0;
    p.weights.cohesion = 0.5;
    p.weights.alignment = 0.25;
    p.alignment = AlignmentMode::MeanHeading;
    // cohesion offset (0.8, 0, 0) * 0.5 = 0.4 <= 0.5 kept; alignment mean heading (0,1,0)*0.25.
    let others = [(Vec3::new(0.8, 0.0, 0.0), Vec3::Y)];
    let next = step(&p, at_origin(Vec3::X), &others);
    // move = (0.4, 0.25, 0) * 10 = (4, 2.5, 0), |move| = 4.72 < 5.
    assert!(
        close(next.velocity, Vec3::new(4.0, 2.5, 0.0)),
        "{}",
        next.velocity
    );
    assert!(close(next.position, next.velocity * DT));
    // A long part is clamped to its weight: cohesion 0.5 * (3,0,0) has length 1.5, capped at 0.5;
    // times the drive factor 10 gives 5 (= max speed, so no further clamp).
    p.weights.alignment = 0.0;
    p.perception_radius = 5.0;
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(3.0, 0.0, 0.0), Vec3::X)],
    );
    assert!(
        close(next.velocity, Vec3::new(5.0, 0.0, 0.0)),
        "{}",
        next.velocity
    );
    // And the speed clamp: drive 20 gives 10, clamped to 5.
    p.drive_factor = 20.0;
    p.weights.cohesion = 0.5;
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(0.0, 3.0, 0.0), Vec3::X)],
    );
    assert!(
        close(next.velocity, Vec3::new(0.0, 5.0, 0.0)),
        "{}",
        next.velocity
    );
}

#[test]
fn acceleration_integrator_clamps_speed_and_keeps_heading_at_zero_velocity() {
    let mut p = bare();
    p.min_speed = 2.0;
    p.max_speed = 5.0;
    let slow = step(&p, at_origin(Vec3::new(0.5, 0.0, 0.0)), &[]);
    assert!(close(slow.velocity, Vec3::new(2.0, 0.0, 0.0)));
    let fast = step(&p, at_origin(Vec3::new(0.0, 9.0, 0.0)), &[]);
    assert!(close(fast.velocity, Vec3::new(0.0, 5.0, 0.0)));
    let stopped = BoidState {
        position: Vec3::ZERO,
        velocity: Vec3::ZERO,
        heading: Vec3::Z,
        extra: Extra::default(),
    };
    let moved = step(&p, stopped, &[]);
    assert!(
        close(moved.velocity, Vec3::new(0.0, 0.0, 2.0)),
        "{}",
        moved.velocity
    );
}

#[test]
fn velocity_blend_clamps_max_then_min() {
    let mut p = bare();
    p.integrator = Integrator::VelocityBlend;
    p.velocity_smoothing = 0.25;
    p.weights.cohesion = 1.0;
    p.perception_radius = 10.0;
    p.min_speed = 0.0;
    p.max_speed = 30.0;
    // v' = v + 0.25 * (offset 4,0,0) = (1+1, 0, 0).
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(4.0, 0.0, 0.0), Vec3::X)],
    );
    assert!(close(next.velocity, Vec3::new(2.0, 0.0, 0.0)));
    p.min_speed = 3.0;
    let next = step(
        &p,
        at_origin(Vec3::X),
        &[(Vec3::new(4.0, 0.0, 0.0), Vec3::X)],
    );
    assert!(close(next.velocity, Vec3::new(3.0, 0.0, 0.0)));
    // A zero velocity stays zero.
    let mut q = bare();
    q.integrator = Integrator::VelocityBlend;
    q.min_speed = 1.0;
    let zero = BoidState {
        position: Vec3::ZERO,
        velocity: Vec3::ZERO,
        heading: Vec3::Z,
        extra: Extra::default(),
    };
    assert_eq!(step(&q, zero, &[]).velocity, Vec3::ZERO);
}

#[test]
fn heading_speed_turns_at_a_limited_rate() {
    let mut p = bare();
    p.integrator = Integrator::HeadingSpeed;
    p.max_turn_rate = 5.0; // slerp fraction 0.5 per 0.1 s step
    p.weights.cohesion = 1.0;
    p.min_speed = 0.0;
    let own = BoidState::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0));
    let next = step(&p, own, &[(Vec3::new(0.5, 0.0, 0.0), Vec3::X)]);
    // Half-way from +Z to +X, speed kept at 2.
    let expect = Vec3::new(1.0, 0.0, 1.0).normalize() * 2.0;
    assert!(close(next.velocity, expect), "{}", next.velocity);
}

#[test]
fn plane_lock_keeps_motion_in_the_plane() {
    let mut p = bare();
    p.plane = PlaneLock::XY;
    p.weights.cohesion = 1.0;
    let own = BoidState::new(Vec3::ZERO, Vec3::X);
    let next = step(&p, own, &[(Vec3::new(0.3, 0.2, 0.4), Vec3::Z)]);
    assert_eq!(next.position.z, 0.0);
    assert_eq!(next.velocity.z, 0.0);
}

#[test]
fn absurd_weights_never_produce_nan() {
    let mut p = bare();
    p.weights = Weights {
        separation: 1e9,
        alignment: -1e9,
        cohesion: 1e9,
        target: 1e9,
        target_avoid: 1e9,
        bounds: 1e9,
        obstacles: 0.0,
        wander: 1e9,
        path: 0.0,
    };
    p.max_speed = 1e9;
    p.bounds = Bounds::SoftBox {
        min: Vec3::splat(-1.0),
        max: Vec3::splat(1.0),
        distance: 1e9,
    };
    p.target = Some(Target {
        point: Vec3::splat(1e9),
        avoid_distance: 0.0,
    });
    let own = BoidState::new(Vec3::splat(0.1), Vec3::splat(1e8));
    let next = step(
        &p,
        own,
        &[
            (Vec3::splat(0.1), Vec3::splat(-1e9)),
            (Vec3::splat(0.2), Vec3::ZERO),
        ],
    );
    assert!(next.is_finite(), "{next:?}");
}

#[test]
fn validation_names_the_bad_field() {
    let mut p = FlockParams::default();
    assert!(p.validate().is_ok());
    p.perception_radius = f32::NAN;
    let e = p.validate().unwrap_err();
    assert_eq!(e.field, "perception_radius");
    assert!(e.to_string().contains("NaN"), "{e}");
    let mut p = FlockParams::default();
    p.min_speed = 6.0;
    assert_eq!(p.validate().unwrap_err().field, "min_speed");
    let mut p = FlockParams::default();
    p.bounds = Bounds::Wrap {
        min: Vec3::ONE,
        max: Vec3::ZERO,
    };
    assert!(p.validate().is_err());
    let mut p = FlockParams::default();
    p.weights.cohesion = f32::INFINITY;
    assert_eq!(p.validate().unwrap_err().field, "weights.cohesion");
}
