//! `step_boids8` against its oracle `step_boid`, bit for bit, lane by lane: random states and
//! neighbourhoods (counts of zero, boids on and beyond walls, zero and huge velocities, values
//! that overflow) under every configuration `fast_rules_apply` accepts, and the configurations
//! it refuses are exactly those `step_boids8` does not implement.

#![allow(clippy::field_reassign_with_default)] // random params are built field by field

use boids_core::rules8::{
    F8, Hoods8, LANES, States8, V8, fast_rules_apply, step_boids8, step_boids8_on,
};
use boids_core::*;

/// A small deterministic generator (the test needs no crate for it).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 29) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    /// A component: usually ordinary, sometimes zero, -0, tiny, huge or on a wall.
    fn coord(&mut self) -> f32 {
        match self.next() % 12 {
            0 => 0.0,
            1 => -0.0,
            2 => 1e-30,
            3 => self.pick(&[1e9, -1e9, 9.9e8]),
            4 => self.pick(&[-10.0, 10.0, -7.0, 7.0]),
            _ => self.range(-12.0, 12.0),
        }
    }
    fn vec(&mut self) -> Vec3 {
        Vec3::new(self.coord(), self.coord(), self.coord())
    }
}

fn params(g: &mut Gen) -> FlockParams {
    let mut p = FlockParams::default();
    p.separation = g.pick(&[
        SeparationMode::UnitMean,
        SeparationMode::InverseSquare,
        SeparationMode::MeanOffset,
        SeparationMode::SumOffset,
    ]);
    p.alignment = g.pick(&[
        AlignmentMode::VelocityDifference,
        AlignmentMode::MeanHeading,
        AlignmentMode::MeanVelocity,
        AlignmentMode::GroupSpeed,
    ]);
    p.weights.separation = g.pick(&[0.0, 5.0, -1.5, 1e9]);
    p.weights.alignment = g.pick(&[0.0, 2.0, 0.3]);
    p.weights.cohesion = g.pick(&[0.0, 3.0, 1e9]);
    p.weights.bounds = g.pick(&[0.0, 1.0, 4.0]);
    p.min_speed = g.pick(&[0.0, 2.0, 5.0]);
    p.max_speed = p.min_speed + g.pick(&[0.0, 3.0, 1e9]);
    p.plane = g.pick(&[PlaneLock::None, PlaneLock::XY, PlaneLock::XZ]);
    // Wander (its jitter, radius and distance as the torus2d scenario and wilder).
    if g.next().is_multiple_of(3) {
        p.weights.wander = g.pick(&[0.055, 1.0, -2.0]);
        p.wander_radius = g.pick(&[1.0, 0.5, 0.0]);
        p.wander_distance = g.pick(&[0.0, 2.0]);
        p.wander_jitter = g.pick(&[1000.0, 0.2, 0.0]);
    }
    p.bounds = match g.next() % 5 {
        0 => Bounds::None,
        4 => Bounds::Wrap {
            min: Vec3::new(-10.0, -7.0, -10.0),
            max: g.pick(&[Vec3::new(10.0, 7.0, 10.0), Vec3::splat(0.5)]),
        },
        1 => Bounds::SoftSphere {
            centre: Vec3::new(1.0, -2.0, 0.5),
            radius: g.pick(&[8.0, 0.5]),
            inner: g.pick(&[0.0, 0.8]),
        },
        2 => Bounds::SoftBox {
            min: Vec3::splat(-10.0),
            max: Vec3::splat(10.0),
            distance: 0.0,
        },
        _ => Bounds::SoftBox {
            min: Vec3::new(-10.0, -7.0, -10.0),
            max: Vec3::new(10.0, 7.0, 10.0),
            distance: g.pick(&[3.0, 0.25]),
        },
    };
    p
}

fn neighbourhood(g: &mut Gen) -> Neighbourhood {
    let count = g.pick(&[0, 0, 1, 3, 12, 40]);
    Neighbourhood {
        count,
        separation_count: if count == 0 {
            0
        } else {
            g.pick(&[0, 1, count])
        },
        sum_offset: g.vec(),
        sum_velocity: g.vec(),
        sum_heading: g.vec(),
        separation: g.vec(),
        sum_speed: g.unit(),
        external: Vec3::ZERO,
    }
}

fn state(g: &mut Gen) -> BoidState {
    let mut b = BoidState::new(g.vec(), g.vec());
    let v = g.vec();
    b.extra.wander = g.pick(&[Vec3::ZERO, Vec3::X, v]);
    if g.next().is_multiple_of(5) {
        b.heading = Vec3::new(0.0, 0.0, 1.0); // a heading kept from before a stop
        b.velocity = Vec3::ZERO;
    }
    b
}

fn bits(v: Vec3) -> [u32; 3] {
    v.to_array().map(f32::to_bits)
}

#[test]
fn eight_lanes_give_step_boids_bits() {
    let mut g = Gen(20261201);
    let env = Env {
        target: None,
        obstacles: &[],
        path: &[],
        path_closed: false,
        ground: &[],
        nearby: None,
        flow: None,
        stand_radius: 0.0,
    };
    let mut lanes_checked = 0;
    for case in 0..4000 {
        let p = params(&mut g);
        p.validate().unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert!(fast_rules_apply(&p, &env));
        let dt = g.pick(&[1.0 / 60.0, 0.1, 1.0]);
        let mut own = States8::default();
        let mut hoods = Hoods8::default();
        let mut states = Vec::new();
        let mut ns = Vec::new();
        for l in 0..LANES {
            let b = state(&mut g);
            let n = neighbourhood(&mut g);
            own.set(l, &b);
            hoods.set(l, &n);
            states.push(b);
            ns.push(n);
        }
        // Wander, lane by lane, with the draw step_boid makes for that lane.
        let mut wander = V8::default();
        let mut targets = [Vec3::ZERO; LANES];
        if p.weights.wander != 0.0 {
            for l in 0..LANES {
                let (m, next) = boids_core::wander(
                    states[l].heading,
                    states[l].extra.wander,
                    &p,
                    &mut Rng::keyed(1, l as u32, 0, 0),
                    dt,
                );
                for a in 0..3 {
                    wander.0[a].0[l] = m[a];
                }
                targets[l] = next;
            }
        }
        let next = step_boids8(&own, &hoods, &wander, &p, dt);
        // The AVX2 instance (where the CPU has it) and the baseline one agree bit for bit.
        assert_eq!(
            step_boids8_on(true, &own, &hoods, &wander, &p, dt),
            next,
            "case {case}"
        );
        assert_eq!(
            step_boids8_on(false, &own, &hoods, &wander, &p, dt),
            next,
            "case {case}"
        );
        for l in 0..LANES {
            let want = step_boid(
                &states[l],
                &ns[l],
                &p,
                &env,
                &mut Rng::keyed(1, l as u32, 0, 0),
                dt,
            );
            let got = next.get(l);
            if p.weights.wander != 0.0 {
                assert_eq!(
                    bits(targets[l]),
                    bits(want.extra.wander),
                    "case {case}, lane {l}: the wander target"
                );
            }
            assert_eq!(
                (bits(got.position), bits(got.velocity), bits(got.heading)),
                (bits(want.position), bits(want.velocity), bits(want.heading)),
                "case {case}, lane {l}: {p:?}\nstate {:?}\nhood {:?}\n8 lanes {got:?}\nstep_boid {want:?}",
                states[l],
                ns[l]
            );
            lanes_checked += 1;
        }
    }
    assert_eq!(lanes_checked, 32_000);
}

#[test]
fn what_the_eight_lanes_do_not_cover_is_refused() {
    let env = Env {
        target: None,
        obstacles: &[],
        path: &[],
        path_closed: false,
        ground: &[],
        nearby: None,
        flow: None,
        stand_radius: 0.0,
    };
    let ok = FlockParams::default();
    assert!(
        fast_rules_apply(&ok, &env),
        "the fish-tank fish are covered"
    );
    let refused: Vec<(&str, FlockParams)> = vec![
        (
            "steer",
            FlockParams {
                combine: Combine::Steer,
                ..ok
            },
        ),
        (
            "clamped",
            FlockParams {
                combine: Combine::WeightedClamped,
                ..ok
            },
        ),
        (
            "heading",
            FlockParams {
                integrator: Integrator::HeadingSpeed,
                ..ok
            },
        ),
        (
            "blend",
            FlockParams {
                integrator: Integrator::VelocityBlend,
                ..ok
            },
        ),
        (
            "kinematic",
            FlockParams {
                integrator: Integrator::Kinematic,
                ..ok
            },
        ),
        (
            "turn back",
            FlockParams {
                bounds: Bounds::TurnBack {
                    min: Vec3::ZERO,
                    max: Vec3::ONE,
                },
                ..ok
            },
        ),
        (
            "speed draws",
            FlockParams {
                speed_change_probability: 0.1,
                ..ok
            },
        ),
        (
            "rule draws",
            FlockParams {
                rule_probability: 0.5,
                ..ok
            },
        ),
        (
            "smooth",
            FlockParams {
                cohesion_smooth_time: 0.5,
                ..ok
            },
        ),
        (
            "path",
            FlockParams {
                weights: Weights {
                    path: 1.0,
                    ..ok.weights
                },
                ..ok
            },
        ),
    ];
    for (what, p) in refused {
        assert!(
            !fast_rules_apply(&p, &env),
            "{what} is not covered by step_boids8"
        );
    }
    // A target only counts when the flock has one at this step.
    let target = FlockParams {
        target: Some(Target {
            point: Vec3::ONE,
            avoid_distance: 1.0,
        }),
        ..ok
    };
    assert!(fast_rules_apply(&target, &env));
    let aimed = Env {
        target: Some(Vec3::ONE),
        ..env
    };
    assert!(!fast_rules_apply(&target, &aimed));
    // Obstacles only count when the flock looks out for them.
    let rock = [boids_core::Placed::new(
        &Obstacle::Sphere {
            centre: Vec3::ZERO,
            radius: 1.0,
        },
        None,
    )];
    let rocky = Env {
        obstacles: &rock,
        ..env
    };
    let looking = FlockParams {
        obstacle_avoidance: ObstacleAvoidance::Reflect,
        look_ahead: 2.0,
        ..ok
    };
    assert!(!fast_rules_apply(&looking, &rocky));
    assert!(fast_rules_apply(
        &FlockParams {
            obstacle_avoidance: ObstacleAvoidance::None,
            ..looking
        },
        &rocky
    ));
    let _ = (F8::default(), V8::default());
}
