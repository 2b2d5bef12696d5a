//! The `herd` preset: sheep that walk over generated hills, kept off a ridge too steep for them
//! and out of a ravine, around rocks and a fence, chased by a sheepdog, under a flock of birds.

use super::{flock, relation};
use crate::flock::{Spawn, SpawnShape};
use crate::scene::{BoidSpec, FlockSpec, MeshSpec, Scene};
use crate::world::RelationKind;
use crate::{
    AlignmentMode, Bounds, Combine, FlockParams, Ground, GroundUp, Obstacle, ObstacleAvoidance,
    SeparationMode, Weights,
};
use boids_core::fmath::Order;
use boids_core::geometry::ShapeData;
use boids_core::{MeshId, Quat, Rng, Vec3};

/// How a herd is laid out ([`herd`]).
#[derive(Clone, Copy, Debug)]
pub struct HerdLayout {
    /// Sheep (the first flock, grounded).
    pub sheep: usize,
    /// Birds flying over them (`<name>-birds`; 0 = none).
    pub birds: usize,
    /// Whether a sheepdog (`<name>-dog`, one grounded boid) chases the sheep.
    pub dog: bool,
    /// Heightfield samples along each side.
    pub samples: u32,
    /// Spacing of the samples.
    pub cell: f32,
    /// Rocks placed (triangle meshes, walls to the sheep).
    pub rocks: usize,
    /// Whether the sheep walk: false gives the same flock flying over the same scene (the
    /// benchmark's comparison).
    pub grounded: bool,
}

impl HerdLayout {
    /// The `herd` preset's: 2,000 sheep, a dog and 300 birds over 160 × 160 units of hills with
    /// 12 rocks.
    pub const PRESET: HerdLayout = HerdLayout {
        sheep: 2000,
        birds: 300,
        dog: true,
        samples: 161,
        cell: 1.0,
        rocks: 12,
        grounded: true,
    };
}

/// The sheep's ground: slopes up to 35°, steps of 0.4, the position 0.4 above the feet (the
/// body's centre), drawn upright.
pub const SHEEP_GROUND: Ground = Ground {
    max_slope_deg: 35.0,
    step_height: 0.4,
    pivot_height: 0.4,
    up: GroundUp::World,
};

/// A herd: `layout.sheep` grounded boids over hills (a heightfield marked as ground, centred on
/// the origin) with a ridge steeper than their 35° and a ravine deeper than their step, rocks
/// (meshes) and a fence (boxes) as walls; a sheepdog that chases them and that they flee; birds
/// (a 3-D flock) above, for whom the hills are a floor. The sheep start above the ground in a
/// rock-free field and stand on it after their first step.
pub fn herd(name: &str, layout: HerdLayout) -> Scene {
    let HerdLayout {
        sheep,
        birds,
        dog,
        samples,
        cell,
        rocks,
        grounded,
    } = layout;
    let half = (samples - 1) as f32 * cell * 0.5;
    let terrain = MeshSpec::Terrain {
        seed: 5,
        columns: samples,
        rows: samples,
        cell,
        height: 2.0,
        ridge: 8.0,
        ridge_width: 3.0,
        ravine: 6.0,
        ravine_width: 3.0,
    };
    let shape = terrain.build().expect("the herd's terrain is valid");
    let ShapeData::Heightfield(grid) = shape.data() else {
        unreachable!("a terrain is a heightfield")
    };
    let corner = Vec3::new(-half, 0.0, -half);
    let ground = |x: f32, z: f32| grid.height_at(x + half, z + half).unwrap_or(0.0);
    let top = grid.heights.iter().fold(0.0f32, |m, &h| m.at_least(h));
    let bottom = grid.heights.iter().fold(0.0f32, |m, &h| m.at_most(h));
    // Where the sheep start: clear of rocks, the fence, the ridge and the ravine.
    let field = (
        Vec3::new(-0.8 * half, 0.0, -0.35 * half),
        Vec3::new(-0.35 * half, 0.0, 0.4 * half),
    );
    let mut mesh = vec![terrain];
    let mut obstacle = vec![Obstacle::Heightfield {
        field: MeshId {
            index: 0,
            generation: 1,
        },
        position: corner,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    }];
    let shapes = 4;
    mesh.extend((0..shapes).map(|k| MeshSpec::Rock {
        seed: 300 + k as u64,
        radius: 1.0,
        detail: 2,
        roughness: 0.3,
    }));
    let mut placed = 0;
    for r in 0.. {
        if placed == rocks {
            break;
        }
        let mut rng = Rng::keyed(17, r as u32, 0, 0x12EEF);
        let (x, z) = (
            rng.range(-0.9 * half, 0.9 * half),
            rng.range(-0.9 * half, 0.9 * half),
        );
        let margin = 4.0;
        if x > field.0.x - margin
            && x < field.1.x + margin
            && z > field.0.z - margin
            && z < field.1.z + margin
        {
            continue;
        }
        let scale = Vec3::new(
            rng.range(1.5, 3.0),
            rng.range(1.0, 2.0),
            rng.range(1.5, 3.0),
        );
        obstacle.push(Obstacle::Mesh {
            mesh: MeshId {
                index: 1 + (placed % shapes) as u32,
                generation: 1,
            },
            position: Vec3::new(x, ground(x, z) + scale.y * 0.3, z),
            rotation: Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU)),
            scale,
            ground: false,
        });
        placed += 1;
    }
    // A fence across the south of the field, from the west edge to a gap: 26 boards (two
    // units long in the preset), each from 1 below to 1.2 above the ground along it (sampled
    // every cell).
    let fence_z = -0.5 * half;
    let board = (0.65 * half / 26.0).at_least(2.0);
    let mut x = -0.95 * half;
    while x < -0.3 * half {
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        let samples = (board / cell).ceil() as usize;
        for k in 0..=samples {
            let y = ground(x + board * k as f32 / samples as f32, fence_z);
            (lo, hi) = (lo.at_most(y), hi.at_least(y));
        }
        obstacle.push(Obstacle::Box {
            min: Vec3::new(x, lo - 1.0, fence_z - 0.1),
            max: Vec3::new(x + board, hi + 1.2, fence_z + 0.1),
        });
        x += board;
    }
    let walk = |p: FlockParams| FlockParams {
        ground: grounded.then_some(SHEEP_GROUND),
        body_radius: 0.4,
        bounds: Bounds::SoftBox {
            min: Vec3::new(-0.92 * half, bottom - 10.0, -0.92 * half),
            max: Vec3::new(0.92 * half, top + 10.0, 0.92 * half),
            distance: 5.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        ..p
    };
    let sheep_params = walk(FlockParams {
        perception_radius: 2.5,
        fov_half_angle_deg: 150.0,
        separation_radius: 1.2,
        separation: SeparationMode::InverseSquare,
        alignment: AlignmentMode::MeanHeading,
        weights: Weights {
            separation: 2.0,
            alignment: 1.0,
            cohesion: 0.8,
            bounds: 2.0,
            obstacles: 10.0,
            wander: 0.6,
            ..Weights::default()
        },
        combine: Combine::Steer,
        max_force: 3.0,
        min_speed: 0.0,
        max_speed: 2.5,
        look_ahead: 2.5,
        boid_radius: 0.4,
        wander_radius: 1.0,
        wander_distance: 2.0,
        wander_jitter: 0.5,
        ..FlockParams::default()
    });
    let spawn_height = top + 1.0;
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: Vec3::new(field.0.x, spawn_height, field.0.z),
            max: Vec3::new(field.1.x, spawn_height, field.1.z),
        },
        min_speed: 0.0,
        max_speed: 1.0,
        direction: None,
    };
    let mut flocks = vec![FlockSpec {
        spawn,
        ..flock(name, sheep_params, sheep, Spawn::default())
    }];
    let mut relations = Vec::new();
    if dog {
        let dog_name = format!("{name}-dog");
        let dog_params = walk(FlockParams {
            perception_radius: 1.0,
            weights: Weights {
                separation: 0.0,
                alignment: 0.0,
                cohesion: 0.0,
                bounds: 2.0,
                obstacles: 10.0,
                wander: 1.5,
                ..Weights::default()
            },
            combine: Combine::Steer,
            max_force: 6.0,
            min_speed: 1.0,
            max_speed: 5.0,
            look_ahead: 3.0,
            boid_radius: 0.4,
            ..FlockParams::default()
        });
        let start = Vec3::new(-0.9 * half, spawn_height, 0.0);
        flocks.push(FlockSpec {
            boids: vec![BoidSpec {
                position: start,
                velocity: Vec3::new(3.0, 0.0, 0.0),
            }],
            ..flock(&dog_name, dog_params, 0, Spawn::default())
        });
        relations.push(relation(name, &dog_name, RelationKind::Flee, 8.0, 20.0));
        relations.push(relation(&dog_name, name, RelationKind::Chase, 20.0, 8.0));
    }
    if birds > 0 {
        let sky = (top + 6.0, top + 25.0);
        let bird_params = FlockParams {
            perception_radius: 3.0,
            fov_half_angle_deg: 135.0,
            separation_radius: 1.5,
            weights: Weights {
                separation: 4.0,
                alignment: 3.0,
                cohesion: 2.0,
                bounds: 2.0,
                obstacles: 10.0,
                ..Weights::default()
            },
            min_speed: 5.0,
            max_speed: 9.0,
            bounds: Bounds::SoftBox {
                min: Vec3::new(-half, sky.0, -half),
                max: Vec3::new(half, sky.1, half),
                distance: 6.0,
            },
            obstacle_avoidance: ObstacleAvoidance::FreeDirection,
            look_ahead: 4.0,
            boid_radius: 0.3,
            ..FlockParams::default()
        };
        let spawn = Spawn {
            shape: SpawnShape::Box {
                min: Vec3::new(-0.5 * half, sky.0 + 2.0, -0.5 * half),
                max: Vec3::new(0.5 * half, sky.1 - 2.0, 0.5 * half),
            },
            min_speed: 5.0,
            max_speed: 7.0,
            direction: None,
        };
        flocks.push(flock(&format!("{name}-birds"), bird_params, birds, spawn));
    }
    Scene {
        flock: flocks,
        obstacle,
        mesh,
        relation: relations,
        ..Scene::default()
    }
}

/// The `herd` preset.
pub(super) fn herd_preset(name: &str) -> Scene {
    herd(name, HerdLayout::PRESET)
}
