//! The invariants of docs/reliability.md, as property tests over random accepted inputs (256
//! cases each, in CI):
//!
//! - **Round trip.** Every value the Rust API returns (params, state, the leader-driven target,
//!   obstacles) is accepted when passed back unchanged, and changes nothing.
//! - **Closed domain.** After any sequence of accepted calls and up to 1,000 steps, every
//!   position and velocity is finite and within `MAX_MAGNITUDE` (the world's wall), so a write
//!   of what was read is accepted.

#[path = "support/strategies.rs"]
mod strategies;

use boids_core::fmath::Extremes;
use boids_sim::*;
use proptest::prelude::*;
use strategies::*;

fn world_with(params: FlockParams, boids: &[(Vec3, Vec3)]) -> (World, FlockId) {
    let mut w = World::new(WorldConfig {
        seed: 9,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    let f = w.create_flock("f", params).unwrap();
    let (p, v): (Vec<Vec3>, Vec<Vec3>) = boids.iter().copied().unzip();
    w.add_boids(f, &p, &v).unwrap();
    (w, f)
}

/// Everything a host can read is within the limits a write checks.
fn assert_in_domain(w: &World, f: FlockId, when: &str) {
    let fl = w.flock(f).unwrap();
    for (i, (p, v)) in fl.positions().iter().zip(fl.velocities()).enumerate() {
        for c in p.to_array().into_iter().chain(v.to_array()) {
            assert!(
                c.is_finite() && c.abs() <= MAX_MAGNITUDE,
                "{when}: boid {i} at {p} moving {v}"
            );
        }
    }
    if let Some(t) = fl.target() {
        assert!(
            t.is_finite() && t.abs().largest() <= MAX_MAGNITUDE,
            "{when}: target {t}"
        );
    }
}

/// Reads state, params and target back and writes them unchanged: accepted, and the state hash
/// does not move.
fn assert_round_trip(w: &mut World, f: FlockId, when: &str) {
    let before = w.state_hash();
    let fl = w.flock(f).unwrap();
    let (p, v, params, target) = (
        fl.positions().to_vec(),
        fl.velocities().to_vec(),
        *fl.params(),
        fl.target(),
    );
    w.set_params(f, params)
        .unwrap_or_else(|e| panic!("{when}: params read back refused: {e}"));
    if let Some(t) = target {
        w.set_target(f, t)
            .unwrap_or_else(|e| panic!("{when}: target read back refused: {e}"));
    }
    w.write_state(f, Some(&p), Some(&v))
        .unwrap_or_else(|e| panic!("{when}: state read back refused: {e}"));
    assert_eq!(*w.flock(f).unwrap().params(), params, "{when}: params");
    assert_eq!(
        w.state_hash(),
        before,
        "{when}: writing back what was read changed the state"
    );
}

#[derive(Clone, Debug)]
enum Op {
    Steps(u16, f32),
    SetParams(FlockParams),
    SetTarget(Vec3),
    Leader(Vec3),
    Write(Vec3, Vec3),
    Obstacle(Obstacle),
    Path(Vec3, Vec3),
    Observer(Vec3),
}

fn op() -> BoxedStrategy<Op> {
    prop_oneof![
        4 => (1u16..=250, prop_oneof![Just(1.0f32), 1e-6f32..=1.0, Just(1.0 / 60.0)])
            .prop_map(|(n, dt)| Op::Steps(n, dt)),
        2 => params().prop_map(Op::SetParams),
        1 => point().prop_map(Op::SetTarget),
        1 => point().prop_map(Op::Leader),
        1 => (point(), point()).prop_map(|(p, v)| Op::Write(p, v)),
        1 => obstacle().prop_map(Op::Obstacle),
        1 => (point(), point()).prop_map(|(a, b)| Op::Path(a, b)),
        1 => point().prop_map(Op::Observer),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn closed_domain_after_any_accepted_calls_and_up_to_1000_steps(
        params in params(),
        boids in boids(12),
        ops in proptest::collection::vec(op(), 1..12),
    ) {
        let (mut w, f) = world_with(params, &boids);
        let mut steps = 0u32;
        for (k, op) in ops.into_iter().enumerate() {
            let when = format!("op {k} ({op:?})");
            match op {
                Op::Steps(n, dt) => {
                    let n = u32::from(n).min(1000 - steps);
                    for _ in 0..n {
                        w.step(dt).unwrap();
                    }
                    steps += n;
                }
                // Accepted or refused: either way the invariants must hold.
                Op::SetParams(p) => drop(w.set_params(f, p)),
                Op::SetTarget(t) => drop(w.set_target(f, t)),
                Op::Leader(offset) => drop(w.set_leader(f, Some((0, offset)))),
                Op::Write(p, v) => {
                    let n = w.flock(f).unwrap().len();
                    drop(w.write_state(f, Some(&vec![p; n]), Some(&vec![v; n])));
                }
                Op::Obstacle(o) => drop(w.add_obstacle(o)),
                Op::Path(a, b) => drop(w.set_path(f, &[a, b], false)),
                Op::Observer(o) => drop(w.set_observer(Some(o))),
            }
            assert_in_domain(&w, f, &when);
        }
        // One more step after everything (a leader's target is computed in a step).
        w.step(1.0).unwrap();
        assert_in_domain(&w, f, "final step");
        assert_round_trip(&mut w, f, "after the sequence");
    }

    #[test]
    fn every_value_read_back_is_accepted_unchanged(
        params in params(),
        boids in boids(12),
        offset in point(),
        obstacle in obstacle(),
        steps in 0u16..30,
    ) {
        let (mut w, f) = world_with(params, &boids);
        assert_eq!(*w.flock(f).unwrap().params(), params, "params as set");
        let o = w.add_obstacle(obstacle).unwrap();
        let back = w.obstacle(o).unwrap();
        prop_assert_eq!(back, obstacle);
        w.set_obstacle(o, back).unwrap();
        w.set_leader(f, Some((0, offset))).unwrap();
        for _ in 0..steps {
            w.step(1.0 / 60.0).unwrap();
        }
        assert_round_trip(&mut w, f, "after the leader moved the target");
        let relations = w.relations();
        prop_assert!(relations.is_empty());
    }
}

/// A body pass that takes a velocity's part into another boid can grow one of its components
/// past the limit (found by `every_value_read_back_is_accepted_unchanged`): the velocity is
/// kept inside it, so the state read back is accepted.
#[test]
fn a_body_pass_keeps_velocities_inside_the_limit() {
    let params = FlockParams {
        perception_radius: 0.0,
        fov_half_angle_deg: 0.0,
        separation_radius: 0.0,
        max_neighbours: 0,
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
        separation: SeparationMode::UnitMean,
        alignment: AlignmentMode::VelocityDifference,
        min_speed: 0.0,
        max_speed: 0.0,
        max_force: 0.0,
        max_turn_rate: 0.0,
        velocity_smoothing: 0.0,
        drive_factor: 0.0,
        combine: Combine::WeightedSum,
        integrator: Integrator::HeadingSpeed,
        bounds: Bounds::TurnBack {
            min: Vec3::new(-11.049573, 0.0, -17.42548),
            max: Vec3::new(0.0, 13.596035, 0.0),
        },
        plane: PlaneLock::None,
        target: None,
        obstacle_avoidance: ObstacleAvoidance::None,
        look_ahead: 0.0,
        boid_radius: 0.0,
        obstacle_overrides: false,
        index: IndexKind::Auto,
        rule_probability: 0.0,
        speed_change_probability: 0.0,
        target_needs_neighbours: false,
        target_relocation: None,
        cohesion_smooth_time: 0.0,
        fallback_to_nearest: false,
        wander_radius: 0.0,
        wander_distance: 0.0,
        wander_jitter: 0.0,
        arrival_radius: 0.0,
        path_lookahead: 0.0,
        update_every: 1,
        sleep_distance: 0.0,
        ground: None,
        body_radius: 348577400.0,
    };
    let boids: Vec<(Vec3, Vec3)> = vec![
        (Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0)),
        (Vec3::new(0.0, 0.0, 1000000000.0), Vec3::new(0.0, 0.0, 0.0)),
        (
            Vec3::new(0.0, 1000000000.0, 0.0),
            Vec3::new(-1000000000.0, -1000000000.0, 1000000000.0),
        ),
        (
            Vec3::new(41307424.0, 0.0, 686705150.0),
            Vec3::new(0.0, 0.0, 0.0),
        ),
        (
            Vec3::new(0.0, 484829250.0, 1000000000.0),
            Vec3::new(0.0, 0.0, 0.0),
        ),
        (
            Vec3::new(0.0, 0.0, -142791410.0),
            Vec3::new(0.0, 164139550.0, 0.0),
        ),
        (Vec3::new(0.0, 0.0, 1000000000.0), Vec3::new(0.0, 0.0, 0.0)),
        (
            Vec3::new(-1000000000.0, 0.0, -1000000000.0),
            Vec3::new(0.0, 0.0, 0.0),
        ),
    ];
    let (mut w, f) = world_with(params, &boids);
    w.add_obstacle(Obstacle::Sphere {
        centre: Vec3::new(0.0, 0.0, 1000000000.0),
        radius: 9.6313925,
    })
    .unwrap();
    w.set_leader(f, Some((0, Vec3::ZERO))).unwrap();
    for _ in 0..23 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert_round_trip(&mut w, f, "bodies pushed apart");
}
