//! Presets: each tutorial the engine grew from as a ready-made [`Scene`] (see
//! docs/migrating-from-unity-tutorials.md for the tutorials and what each preset changes).

use crate::flock::{Spawn, SpawnShape};
use crate::scene::{BoidSpec, FlockSpec, MeshSpec, RegionSpec, RelationSpec, Scene};
use crate::world::{FlockId, RelationKind, World};
use crate::{
    AlignmentMode, Bounds, Combine, Error, FlockParams, Integrator, Obstacle, ObstacleAvoidance,
    PlaneLock, SeparationMode, Target, TargetRelocation, Weights,
};
use boids_core::geometry::{ShapeData, Transform};
use boids_core::{MeshId, Quat, Rng, Vec3};

mod herd;
mod maze;
pub use herd::{HerdLayout, SHEEP_GROUND, herd};
pub use maze::{MAZE_ARRIVAL, MazeLayout, maze, maze_target};

/// A named, ready-made set-up: a scene whose first flock is the preset's.
pub struct Preset {
    /// Name, as given to `boids run --preset` and `boids_flock_create_preset`.
    pub name: &'static str,
    /// One line: what it is and which tutorial it reproduces.
    pub description: &'static str,
    scene: fn(&str) -> Scene,
}

impl Preset {
    /// The preset as a scene, its first flock named `flock_name` (other flocks are named after
    /// it: the shark's predator is `<flock_name>-predator`).
    pub fn scene(&self, flock_name: &str) -> Scene {
        (self.scene)(flock_name)
    }

    /// Creates the preset's flocks (and obstacles and relations) in `world`, the first named
    /// `flock_name`; returns the first flock.
    pub fn create(&self, world: &mut World, flock_name: &str) -> Result<FlockId, Error> {
        Ok(self.scene(flock_name).add_to(world)?[0])
    }
}

/// Every preset.
pub fn all() -> &'static [Preset] {
    &PRESETS
}

/// The preset with this name.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The preset with this name, or an error that lists the names.
pub fn get(name: &str) -> Result<&'static Preset, Error> {
    find(name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        Error::InvalidArgument(format!(
            "unknown preset '{name}' (known: {})",
            names.join(", ")
        ))
    })
}

/// Creates preset `preset` in `world` as a flock named `flock_name`.
pub fn create(world: &mut World, preset: &str, flock_name: &str) -> Result<FlockId, Error> {
    get(preset)?.create(world, flock_name)
}

static PRESETS: [Preset; 9] = [
    Preset {
        name: "fish-tank",
        description: "fish in a box with a 90-degree field of view and inverse-distance walls; sleeps while the player is away (the Unity fish-school script, BoidFish)",
        scene: fish_tank,
    },
    Preset {
        name: "goal-swarm",
        description: "heading-and-speed fish turning at a limited rate toward a wandering goal, turning back at the box, reflecting off obstacles (Unity Learn Flocking, FlockManager)",
        scene: goal_swarm,
    },
    Preset {
        name: "target-flock",
        description: "velocity-blend flock drawn to a target it keeps a distance from, nearest boid standing in when alone (the boids of Introduction to Game Design, Prototyping and Development)",
        scene: target_flock,
    },
    Preset {
        name: "steering-obstacles",
        description: "Reynolds steering with a max force and a swept-sphere look-ahead searching 300 spiral directions around obstacles (the Unity 3D AI bird and fish flocking, BoidManager)",
        scene: steering_obstacles,
    },
    Preset {
        name: "flock-2d",
        description: "2-D composite behaviours, each clamped to its weight: avoidance, alignment, steered cohesion, stay in radius (the flock simulation of the Advanced Game Programming course, FlockMgr)",
        scene: flock_2d,
    },
    Preset {
        name: "reef",
        description: "a school of 1,500 fish weaving between 24 generated rocks (triangle meshes, six shapes placed with rotations and scales) over a rolling seabed (a heightfield), searching free directions with a swept sphere",
        scene: reef_preset,
    },
    Preset {
        name: "shark",
        description: "a school of 400 fish that flees a chasing shark (a second flock, '<name>-predator') around two rocks, with wander",
        scene: shark,
    },
    Preset {
        name: "herd",
        description: "2,000 sheep walking over hills (grounded, bodies that never overlap), turned by a ridge too steep for them, a ravine, rocks and a fence, chased by a sheepdog ('<name>-dog'), under 300 birds ('<name>-birds')",
        scene: herd::herd_preset,
    },
    Preset {
        name: "maze",
        description: "1,000 walkers (grounded, with bodies) crossing walled ground to a target behind a U-shaped wall whose cup opens toward them, through a gap, along a flow field; seeking in a straight line they would press into the cup for ever",
        scene: maze::maze_preset,
    },
];

/// One flock, the whole scene.
fn single(spec: FlockSpec) -> Scene {
    Scene {
        flock: vec![spec],
        ..Scene::default()
    }
}

/// A relation spec.
fn relation(from: &str, to: &str, kind: RelationKind, radius: f32, weight: f32) -> RelationSpec {
    RelationSpec {
        from: from.to_owned(),
        to: to.to_owned(),
        kind,
        radius,
        weight,
    }
}

/// A flock spec.
fn flock(name: &str, params: FlockParams, count: usize, spawn: Spawn) -> FlockSpec {
    FlockSpec {
        params,
        spawn,
        ..FlockSpec::new(name, count)
    }
}

/// The Unity fish-school script (BoidFish): 100 fish in a 10-unit box, spawned in its inner half at speed 2, radius 1, 90°
/// field of view, weights 5/2/3, walls at distance 3; the flock sleeps while the observer is
/// outside the box.
fn fish_tank(name: &str) -> Scene {
    let half = Vec3::splat(5.0);
    let params = FlockParams {
        bounds: Bounds::SoftBox {
            min: -half,
            max: half,
            distance: 3.0,
        },
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: -half * 0.5,
            max: half * 0.5,
        },
        min_speed: 2.0,
        max_speed: 2.0,
        direction: None,
    };
    single(FlockSpec {
        wake_region: Some(RegionSpec {
            min: -half,
            max: half,
        }),
        ..flock(name, params, 100, spawn)
    })
}

/// Unity Learn "Flocking" (FlockManager / Flock): 20 fish in a box of half-size 5 around the origin, spawned
/// with Unity's identity rotation (+Z) at speeds drawn from 0.5..2; radius 3, turn rate 2
/// (the tutorial leaves these to sliders: minSpeed [0, 5], maxSpeed [0, 5], neighbourDistance
/// [1, 10], rotationSpeed [0, 5]; these are our documented choices). Each step: outside the box
/// turn toward its centre; else an obstacle ahead (a ray of unlimited length) turns the fish
/// toward the reflected heading; else with 10 % a new random speed and with 20 % the rules:
/// speed = (0.01 + Σ speed_j) / n, turn toward (mean p_j - p) + (goal - p) + Σ_{d<1} (p - p_j).
/// The goal jumps to a random point of the box with 10 % per step.
fn goal_swarm(name: &str) -> Scene {
    let half = Vec3::splat(5.0);
    let params = FlockParams {
        perception_radius: 3.0,
        fov_half_angle_deg: 360.0,
        separation_radius: 1.0,
        separation: SeparationMode::SumOffset,
        alignment: AlignmentMode::GroupSpeed,
        weights: Weights {
            separation: 1.0,
            alignment: 0.0,
            cohesion: 1.0,
            target: 1.0,
            target_avoid: 0.0,
            bounds: 1.0,
            obstacles: 1.0,
            wander: 0.0,
            path: 0.0,
        },
        min_speed: 0.5,
        max_speed: 2.0,
        max_turn_rate: 2.0,
        combine: Combine::WeightedSum,
        integrator: Integrator::HeadingSpeed,
        bounds: Bounds::TurnBack {
            min: -half,
            max: half,
        },
        target: Some(Target {
            point: Vec3::ZERO,
            avoid_distance: 0.0,
        }),
        target_needs_neighbours: true,
        target_relocation: Some(TargetRelocation {
            probability: 0.1,
            min: -half,
            max: half,
        }),
        obstacle_avoidance: ObstacleAvoidance::Reflect,
        obstacle_overrides: true,
        look_ahead: 1.0e6,
        boid_radius: 0.0,
        rule_probability: 0.2,
        speed_change_probability: 0.1,
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: -half,
            max: half,
        },
        min_speed: 0.5,
        max_speed: 2.0,
        direction: Some(Vec3::Z),
    };
    single(flock(name, params, 20, spawn))
}

/// The boids of *Introduction to Game Design, Prototyping and Development* (BoidSpawner): 100 boids spawned in a ball of radius 100 flattened onto y = 0,
/// random directions at speed 10; neighbours within 30, collision risks within 5;
/// `v' = v + 0.01 mean v_j + 0.15 (mean p_j - p) - 0.5 (mean_risk p_k - p)`, plus the target
/// (0.01 d beyond 15, else -0.75 d/|d|); `v = 0.75 v + 0.25 v'`, speed clamped to 0..30. A boid
/// with no neighbour uses the nearest boid. The target is at the origin; move it with
/// `World::set_target` for the tutorial's mouse-following flock.
fn target_flock(name: &str) -> Scene {
    let params = FlockParams {
        perception_radius: 30.0,
        fov_half_angle_deg: 360.0,
        separation_radius: 5.0,
        separation: SeparationMode::MeanOffset,
        alignment: AlignmentMode::MeanVelocity,
        weights: Weights {
            separation: 0.5,
            alignment: 0.01,
            cohesion: 0.15,
            target: 0.01,
            target_avoid: 0.75,
            bounds: 0.0,
            obstacles: 0.0,
            wander: 0.0,
            path: 0.0,
        },
        min_speed: 0.0,
        max_speed: 30.0,
        velocity_smoothing: 0.25,
        combine: Combine::WeightedSum,
        integrator: Integrator::VelocityBlend,
        bounds: Bounds::None,
        target: Some(Target {
            point: Vec3::ZERO,
            avoid_distance: 15.0,
        }),
        obstacle_avoidance: ObstacleAvoidance::None,
        fallback_to_nearest: true,
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::FlatBall {
            centre: Vec3::ZERO,
            radius: 100.0,
        },
        min_speed: 10.0,
        max_speed: 10.0,
        direction: None,
    };
    single(flock(name, params, 100, spawn))
}

/// The Unity 3D AI bird and fish flocking (Boid / BoidManager): the author's settings — speeds 2..5, perception 2.5, avoidance
/// radius 1, max steer force 3, weights 1/1/1, target off, swept-sphere radius 0.27, look-ahead
/// 5, avoidance weight 10. 300 boids in a ball of radius 8 at speed 3.5 (the tutorial's start
/// speed (min + max) / 2) in a room of six walls (planes at ±12) with three pillars (spheres).
fn steering_obstacles(name: &str) -> Scene {
    let params = FlockParams {
        perception_radius: 2.5,
        fov_half_angle_deg: 360.0,
        separation_radius: 1.0,
        separation: SeparationMode::InverseSquare,
        alignment: AlignmentMode::MeanHeading,
        weights: Weights {
            separation: 1.0,
            alignment: 1.0,
            cohesion: 1.0,
            target: 1.0,
            target_avoid: 0.0,
            bounds: 0.0,
            obstacles: 10.0,
            wander: 0.0,
            path: 0.0,
        },
        min_speed: 2.0,
        max_speed: 5.0,
        max_force: 3.0,
        combine: Combine::Steer,
        integrator: Integrator::Acceleration,
        bounds: Bounds::None,
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        look_ahead: 5.0,
        boid_radius: 0.27,
        ..FlockParams::default()
    };
    let mut obstacle = Vec::new();
    for (axis, sign) in [
        (0, 1.0f32),
        (0, -1.0),
        (1, 1.0),
        (1, -1.0),
        (2, 1.0),
        (2, -1.0),
    ] {
        let mut n = Vec3::ZERO;
        n[axis] = -sign;
        obstacle.push(Obstacle::Plane {
            point: -n * 12.0,
            normal: n,
        });
    }
    for c in [
        Vec3::new(6.0, 0.0, 0.0),
        Vec3::new(-4.0, 3.0, 5.0),
        Vec3::new(-3.0, -4.0, -6.0),
    ] {
        obstacle.push(Obstacle::Sphere {
            centre: c,
            radius: 2.0,
        });
    }
    let spawn = Spawn {
        shape: SpawnShape::Sphere {
            centre: Vec3::ZERO,
            radius: 8.0,
        },
        min_speed: 3.5,
        max_speed: 3.5,
        direction: None,
    };
    Scene {
        obstacle,
        ..single(flock(name, params, 300, spawn))
    }
}

/// The flock simulation of the Advanced Game Programming course (FlockMgr with a
/// BoidBehaviorController): 250 agents in the XY plane, spawned in a
/// disc of radius 250 * 0.08 = 20 with random headings; neighbour radius 1.5, avoidance radius
/// 0.75; behaviours avoidance (mean of p - p_j), alignment (mean heading, own when alone),
/// steered cohesion (SmoothDamp, smooth time 0.5, a state per agent) and stay-in-radius (15
/// around the origin), each multiplied by its weight and clamped to it, summed, times the drive
/// factor 10, clamped to speed 5. The tutorial leaves the weights to the scene; ours: avoidance
/// 2, alignment 1, steered cohesion 4, stay in radius 0.1.
fn flock_2d(name: &str) -> Scene {
    let params = FlockParams {
        perception_radius: 1.5,
        fov_half_angle_deg: 360.0,
        separation_radius: 0.75,
        separation: SeparationMode::MeanOffset,
        alignment: AlignmentMode::MeanHeading,
        weights: Weights {
            separation: 2.0,
            alignment: 1.0,
            cohesion: 4.0,
            target: 0.0,
            target_avoid: 0.0,
            bounds: 0.1,
            obstacles: 0.0,
            wander: 0.0,
            path: 0.0,
        },
        min_speed: 0.0,
        max_speed: 5.0,
        drive_factor: 10.0,
        combine: Combine::WeightedClamped,
        integrator: Integrator::Kinematic,
        bounds: Bounds::SoftSphere {
            centre: Vec3::ZERO,
            radius: 15.0,
            inner: 0.9,
        },
        plane: PlaneLock::XY,
        obstacle_avoidance: ObstacleAvoidance::None,
        cohesion_smooth_time: 0.5,
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::Disc {
            centre: Vec3::ZERO,
            radius: 20.0,
        },
        min_speed: 1.0,
        max_speed: 1.0,
        direction: None,
    };
    single(flock(name, params, 250, spawn))
}

/// A school of fish and a shark: 400 fish (the fish-tank rules with a wider view and some wander)
/// in a soft box of half-size 14 around two rocks; a second flock `<name>-predator` of one faster
/// boid that chases the nearest fish within 10 (Reynolds pursuit), while fish flee a shark within
/// 5 (evasion). Returns the fish.
fn shark(name: &str) -> Scene {
    let half = Vec3::splat(14.0);
    let fish = FlockParams {
        perception_radius: 2.0,
        fov_half_angle_deg: 135.0,
        weights: Weights {
            separation: 6.0,
            alignment: 4.0,
            cohesion: 2.0,
            bounds: 2.0,
            obstacles: 12.0,
            wander: 1.0,
            ..Weights::default()
        },
        bounds: Bounds::SoftBox {
            min: -half,
            max: half,
            distance: 4.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        look_ahead: 3.0,
        boid_radius: 0.2,
        ..FlockParams::default()
    };
    let school = Spawn {
        shape: SpawnShape::Box {
            min: -half * 0.6,
            max: half * 0.6,
        },
        min_speed: 2.0,
        max_speed: 5.0,
        direction: None,
    };
    let shark = FlockParams {
        perception_radius: 1.0,
        weights: Weights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            bounds: 2.0,
            obstacles: 12.0,
            wander: 2.0,
            ..Weights::default()
        },
        min_speed: 3.0,
        max_speed: 6.5,
        bounds: Bounds::SoftBox {
            min: -half,
            max: half,
            distance: 4.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        look_ahead: 4.0,
        boid_radius: 0.5,
        ..FlockParams::default()
    };
    let predator = format!("{name}-predator");
    Scene {
        flock: vec![
            flock(name, fish, 400, school),
            FlockSpec {
                boids: vec![BoidSpec {
                    position: Vec3::new(-10.0, 0.0, -10.0),
                    velocity: Vec3::new(3.0, 0.0, 3.0),
                }],
                ..flock(&predator, shark, 0, Spawn::default())
            },
        ],
        obstacle: [Vec3::new(6.0, -3.0, 4.0), Vec3::new(-5.0, 2.0, -6.0)]
            .map(|centre| Obstacle::Sphere {
                centre,
                radius: 2.5,
            })
            .to_vec(),
        relation: vec![
            relation(name, &predator, RelationKind::Flee, 5.0, 20.0),
            relation(&predator, name, RelationKind::Chase, 10.0, 8.0),
        ],
        ..Scene::default()
    }
}

/// How a reef is laid out ([`reef`]).
#[derive(Clone, Copy, Debug)]
pub struct ReefLayout {
    /// Boids in the school.
    pub boids: usize,
    /// Half the side of the square seabed, along x and z.
    pub half: f32,
    /// Depth of water above the seabed's mean level.
    pub depth: f32,
    /// Rocks placed.
    pub rocks: usize,
    /// Distinct rock meshes the placements share.
    pub shapes: usize,
    /// Each rock mesh's detail (`8 × 4^detail` triangles).
    pub detail: u32,
}

impl ReefLayout {
    /// The `reef` preset's: 1,500 fish, 24 rocks of six shapes (512 triangles each), a 40 × 40
    /// seabed.
    pub const PRESET: ReefLayout = ReefLayout {
        boids: 1500,
        half: 20.0,
        depth: 10.0,
        rocks: 24,
        shapes: 6,
        detail: 3,
    };
}

/// A reef: a school of fish among generated rocks (triangle meshes, placed with rotations and
/// non-uniform scales, sitting on the seabed) over a rolling seabed (a heightfield, one sample
/// a unit), with the free-direction search around obstacles. With `stand_ins`, the same scene
/// with every rock replaced by its bounding sphere and the seabed by a plane at its mean
/// height (the `reef` benchmark's comparison).
pub fn reef(name: &str, layout: ReefLayout, stand_ins: bool) -> Scene {
    let ReefLayout {
        boids,
        half,
        depth,
        rocks,
        shapes,
        detail,
    } = layout;
    let floor = -depth * 0.5;
    let samples = (2.0 * half) as u32 + 1;
    let seabed = MeshSpec::Seabed {
        seed: 11,
        columns: samples,
        rows: samples,
        cell: 1.0,
        height: 1.5,
    };
    let seabed_shape = seabed.build().expect("the reef's seabed is valid");
    let ShapeData::Heightfield(grid) = seabed_shape.data() else {
        unreachable!("a seabed is a heightfield")
    };
    let corner = Vec3::new(-half, floor, -half);
    let ground = |x: f32, z: f32| floor + grid.height_at(x + half, z + half).unwrap_or(0.0);
    let mut mesh = vec![seabed.clone()];
    let mut obstacle = Vec::new();
    let rock_specs: Vec<MeshSpec> = (0..shapes)
        .map(|k| MeshSpec::Rock {
            seed: 100 + k as u64,
            radius: 1.0,
            detail,
            roughness: 0.35,
        })
        .collect();
    let rock_shapes: Vec<_> = rock_specs
        .iter()
        .map(|m| m.build().expect("the reef's rocks are valid"))
        .collect();
    mesh.extend(rock_specs.iter().cloned());
    for r in 0..rocks {
        let mut rng = Rng::keyed(7, r as u32, 0, 0x12EEF);
        let (x, z) = (
            rng.range(-half * 0.85, half * 0.85),
            rng.range(-half * 0.85, half * 0.85),
        );
        let scale = Vec3::new(
            rng.range(1.5, 4.0),
            rng.range(1.2, 3.5),
            rng.range(1.5, 4.0),
        );
        let rotation = (Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU))
            * Quat::from_rotation_x(rng.range(-0.3, 0.3)))
        .normalize();
        let position = Vec3::new(x, ground(x, z) + scale.y * 0.3, z);
        let k = r % shapes;
        if stand_ins {
            let xf = Transform::new(position, rotation, scale);
            let b = xf.bounds(rock_shapes[k].bounds());
            obstacle.push(Obstacle::Sphere {
                centre: (b.lo + b.hi) * 0.5,
                radius: (b.hi - b.lo).length() * 0.5,
            });
        } else {
            obstacle.push(Obstacle::Mesh {
                mesh: MeshId {
                    index: 1 + k as u32,
                    generation: 1,
                },
                position,
                rotation,
                scale,
                ground: false,
            });
        }
    }
    if stand_ins {
        let mean =
            grid.heights.iter().map(|&h| f64::from(h)).sum::<f64>() / grid.heights.len() as f64;
        obstacle.push(Obstacle::Plane {
            point: Vec3::new(0.0, floor + mean as f32, 0.0),
            normal: Vec3::Y,
        });
        mesh.clear();
    } else {
        obstacle.push(Obstacle::Heightfield {
            field: MeshId {
                index: 0,
                generation: 1,
            },
            position: corner,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            ground: false,
        });
    }
    let top = floor + depth;
    // The steering-obstacles tutorial's steering (Reynolds, a max force, obstacles weighted 10)
    // with a fish's view: a weighted sum of accelerations slides along a wall it should turn
    // from; steering toward a free direction turns.
    let params = FlockParams {
        perception_radius: 1.5,
        fov_half_angle_deg: 135.0,
        separation_radius: 0.8,
        separation: SeparationMode::InverseSquare,
        alignment: AlignmentMode::MeanHeading,
        weights: Weights {
            separation: 1.5,
            alignment: 1.0,
            cohesion: 1.0,
            bounds: 1.0,
            obstacles: 10.0,
            ..Weights::default()
        },
        combine: Combine::Steer,
        max_force: 4.0,
        min_speed: 2.0,
        max_speed: 4.5,
        bounds: Bounds::SoftBox {
            min: Vec3::new(-half, floor - 1.5, -half),
            max: Vec3::new(half, top, half),
            distance: 3.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        look_ahead: 3.0,
        boid_radius: 0.25,
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: Vec3::new(-half * 0.8, floor + 3.5, -half * 0.8),
            max: Vec3::new(half * 0.8, top - 1.0, half * 0.8),
        },
        min_speed: 2.0,
        max_speed: 3.5,
        direction: None,
    };
    Scene {
        obstacle,
        mesh,
        ..single(flock(name, params, boids, spawn))
    }
}

/// The `reef` preset.
fn reef_preset(name: &str) -> Scene {
    reef(name, ReefLayout::PRESET, false)
}
