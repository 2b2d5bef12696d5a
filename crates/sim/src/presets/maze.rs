//! The `maze` preset: a grounded flock that crosses walled ground to a target behind a concave
//! wall, along a flow field ([`boids_core::flow`]); seeking in a straight line, it would walk
//! into the wall's cup and press against its far side for ever.

use super::flock;
use crate::flock::{Spawn, SpawnShape};
use crate::scene::{FlockSpec, MeshSpec, Scene};
use crate::{
    AlignmentMode, Bounds, Combine, FlockParams, Obstacle, ObstacleAvoidance, SeparationMode,
    Target, Weights,
};
use boids_core::{MeshId, Quat, Vec3};

use super::herd::SHEEP_GROUND;

/// How a maze is laid out ([`maze`]).
#[derive(Clone, Copy, Debug)]
pub struct MazeLayout {
    /// Walkers (the flock, grounded, with bodies).
    pub walkers: usize,
    /// Heightfield samples along each side (spacing 1).
    pub samples: u32,
    /// The flow fields' cell size (0: none, the flock seeks in a straight line).
    pub flow_cell: f32,
}

impl MazeLayout {
    /// The `maze` preset's: 1,000 walkers over 160 × 160 units, flow cells of 1.
    pub const PRESET: MazeLayout = MazeLayout {
        walkers: 1000,
        samples: 161,
        flow_cell: 1.0,
    };
}

/// Where the maze's target stands, for a maze `half` units from its centre to its edges.
pub fn maze_target(half: f32) -> Vec3 {
    Vec3::new(0.6 * half, 0.0, 0.0)
}

/// The radius around the target inside which a walker is at it: the flock's arrival radius.
pub const MAZE_ARRIVAL: f32 = 25.0;

/// A maze: `layout.walkers` grounded boids with bodies on low hills (a heightfield marked as
/// ground, centred on the origin), spawned in the west; their target in the east, behind a
/// U-shaped wall (boxes) whose cup opens toward them, with a wall with a gap between. The
/// flock reads a flow field with cells `layout.flow_cell` wide, so it goes through the gap and
/// around the U's arms.
pub fn maze(name: &str, layout: MazeLayout) -> Scene {
    let MazeLayout {
        walkers,
        samples,
        flow_cell,
    } = layout;
    let half = (samples - 1) as f32 * 0.5;
    let terrain = MeshSpec::Terrain {
        seed: 9,
        columns: samples,
        rows: samples,
        cell: 1.0,
        height: 1.5,
        ridge: 0.0,
        ridge_width: 1.0,
        ravine: 0.0,
        ravine_width: 1.0,
    };
    let mesh = vec![terrain];
    let mut obstacle = vec![Obstacle::Heightfield {
        field: MeshId {
            index: 0,
            generation: 1,
        },
        position: Vec3::new(-half, 0.0, -half),
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    }];
    // Walls as boxes from well below the hills to well above them.
    let mut wall = |x0: f32, z0: f32, x1: f32, z1: f32| {
        obstacle.push(Obstacle::Box {
            min: Vec3::new(x0, -10.0, z0),
            max: Vec3::new(x1, 10.0, z1),
        });
    };
    let s = half / 80.0;
    // The U: its base a wall across the way at x = 20, its arms running back west to x = -10
    // at z = ±25 (in the preset's units).
    wall(20.0 * s, -25.0 * s, 21.0 * s, 25.0 * s);
    wall(-10.0 * s, -26.0 * s, 21.0 * s, -25.0 * s);
    wall(-10.0 * s, 25.0 * s, 21.0 * s, 26.0 * s);
    // A wall across the whole maze at x = -35, with a gap of 40 in the middle.
    wall(-36.0 * s, -half, -35.0 * s, -20.0 * s);
    wall(-36.0 * s, 20.0 * s, -35.0 * s, half);
    let target = maze_target(half);
    let params = FlockParams {
        ground: Some(SHEEP_GROUND),
        body_radius: 0.35,
        perception_radius: 2.5,
        fov_half_angle_deg: 150.0,
        separation_radius: 1.2,
        separation: SeparationMode::InverseSquare,
        alignment: AlignmentMode::MeanHeading,
        weights: Weights {
            separation: 3.0,
            alignment: 0.5,
            cohesion: 0.0,
            bounds: 2.0,
            obstacles: 6.0,
            target: 3.0,
            ..Weights::default()
        },
        combine: Combine::WeightedSum,
        min_speed: 0.0,
        max_speed: 4.0,
        look_ahead: 2.0,
        boid_radius: 0.35,
        arrival_radius: MAZE_ARRIVAL,
        target: Some(Target {
            point: target,
            avoid_distance: 0.0,
        }),
        bounds: Bounds::SoftBox {
            min: Vec3::new(-0.95 * half, -20.0, -0.95 * half),
            max: Vec3::new(0.95 * half, 20.0, 0.95 * half),
            distance: 3.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        ..FlockParams::default()
    };
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: Vec3::new(-0.9 * half, 5.0, -0.4 * half),
            max: Vec3::new(-0.55 * half, 5.0, 0.4 * half),
        },
        min_speed: 0.0,
        max_speed: 1.0,
        direction: None,
    };
    Scene {
        flock: vec![FlockSpec {
            spawn,
            ..flock(name, params, walkers, Spawn::default())
        }],
        obstacle,
        mesh,
        flow_cell,
        ..Scene::default()
    }
}

/// The `maze` preset.
pub(super) fn maze_preset(name: &str) -> Scene {
    maze(name, MazeLayout::PRESET)
}
