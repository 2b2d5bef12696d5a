//! Obstacle entities: their shapes, and the engine's obstacles and uploaded shape data for them.

use boids_sim::{Extremes, Order};
use std::collections::HashMap;
use std::sync::Arc;

use bevy::asset::{AssetId, Handle};
use bevy::ecs::prelude::*;
use bevy::math::{Vec2, Vec3 as BVec3};
use bevy::mesh::{Indices, Mesh, PrimitiveTopology, VertexAttributeValues};
use bevy::transform::components::Transform;
use boids_core::MeshId;
use boids_sim::{ObstacleId, World};

use crate::convert::{quat_to_engine, to_engine};

/// An obstacle's shape in the entity's own space; the entity's `GlobalTransform` places it
/// (translation, rotation, scale), and moving the entity moves the engine's obstacle. Boids
/// steer around it as their flock's `obstacle_avoidance` says.
#[derive(Component, Clone, Debug, PartialEq)]
#[require(bevy::transform::components::Transform)]
pub enum Obstacle {
    /// A ball of this radius (times the largest scale).
    Sphere {
        /// Radius, > 0.
        radius: f32,
    },
    /// A box of these half sizes along the entity's axes (times its scale).
    Cuboid {
        /// Half the size along each axis, each > 0.
        half_size: BVec3,
    },
    /// Bevy's `Capsule3d`: the points within `radius` of a segment of `2 half_length` along
    /// the entity's Y.
    Capsule {
        /// Radius, > 0 (times the larger of the X and Z scales).
        radius: f32,
        /// Half the segment's length, >= 0 (times the Y scale).
        half_length: f32,
    },
    /// Everything below the entity's XZ plane (its +Y is the free side): a floor, a wall.
    HalfSpace,
    /// A triangle mesh asset (a `TriangleList`, indexed or not), hit from both sides. Each
    /// asset is uploaded once, however many entities place it; an asset not loaded yet is
    /// placed when it is.
    Mesh(Handle<Mesh>),
    /// A terrain (see [`Heightfield`]).
    Heightfield(Heightfield),
}

/// Marks an [`Obstacle::Mesh`] or [`Obstacle::Heightfield`] entity as ground: flocks whose
/// params have `ground` set walk on it (the engine's placement flag); every other flock, and a
/// grounded flock's look-ahead, still treat it as an obstacle. Added or removed at any time; on
/// another shape it is refused (logged, the obstacle kept as it was).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ground;

/// A heightfield (a terrain's heights): `columns × rows` samples, x fastest, `cell.x` apart
/// along the entity's X and `cell.y` along its Z; sample `(i, j)` sits at
/// `(i cell.x, height, j cell.y)` before the entity's transform. Uploaded once per `heights`
/// (clones share it), whatever the entities that place it.
#[derive(Clone, Debug, PartialEq)]
pub struct Heightfield {
    /// Samples along X (>= 2).
    pub columns: u32,
    /// Samples along Z (>= 2).
    pub rows: u32,
    /// The spacing of samples along X and Z.
    pub cell: Vec2,
    /// `columns × rows` heights, x fastest.
    pub heights: Arc<[f32]>,
}

/// Which shape data an upload came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Source {
    Mesh(AssetId<Mesh>),
    /// A heightfield's heights, by address (the `Arc` is kept alive beside the upload).
    Field(usize),
}

struct Upload {
    mesh: MeshId,
    users: usize,
    _field: Option<Arc<[f32]>>,
}

/// What the plugin holds for obstacle entities.
#[derive(Default)]
pub(crate) struct Registry {
    placed: HashMap<Entity, (ObstacleId, Option<Source>)>,
    /// Entities last placed (or refused) as ground.
    ground: std::collections::HashSet<Entity>,
    uploads: HashMap<Source, Upload>,
    /// Entities whose shape or placement was refused, until either changes (one log, not one
    /// a tick).
    refused: HashMap<Entity, ()>,
    /// Mesh obstacles whose asset is not loaded yet.
    pub(crate) waiting: Vec<Entity>,
}

impl Registry {
    pub(crate) fn obstacle_id(&self, e: Entity) -> Option<ObstacleId> {
        self.placed.get(&e).map(|p| p.0)
    }

    /// Whether the entity was last placed (or refused) with a ground flag other than `ground`.
    pub(crate) fn ground_changed(&self, e: Entity, ground: bool) -> bool {
        self.ground.contains(&e) != ground
    }

    pub(crate) fn is_refused(&self, e: Entity) -> bool {
        self.refused.contains_key(&e)
    }

    pub(crate) fn clear_refused(&mut self, e: Entity) {
        self.refused.remove(&e);
    }

    /// Removes an entity's obstacle, and the shape data no other entity places.
    pub(crate) fn remove(&mut self, world: &mut World, e: Entity) {
        self.refused.remove(&e);
        self.waiting.retain(|&w| w != e);
        self.ground.remove(&e);
        if let Some((id, source)) = self.placed.remove(&e) {
            let _ = world.remove_obstacle(id);
            self.release(world, source);
        }
    }

    fn release(&mut self, world: &mut World, source: Option<Source>) {
        let Some(s) = source else { return };
        if let Some(u) = self.uploads.get_mut(&s) {
            u.users -= 1;
            if u.users == 0 {
                let _ = world.remove_mesh(u.mesh);
                self.uploads.remove(&s);
            }
        }
    }

    /// Adds or moves the obstacle of entity `e`. `Ok(false)`: a mesh asset not loaded yet.
    pub(crate) fn place(
        &mut self,
        world: &mut World,
        meshes: Option<&bevy::asset::Assets<Mesh>>,
        e: Entity,
        shape: &Obstacle,
        at: &Transform,
        ground: bool,
    ) -> Result<bool, String> {
        // The flag last asked for, placed or refused: a marker added or removed is seen.
        if ground {
            self.ground.insert(e);
        } else {
            self.ground.remove(&e);
        }
        if ground && !matches!(shape, Obstacle::Mesh(_) | Obstacle::Heightfield(_)) {
            return Err("Ground marks only a mesh or heightfield obstacle".into());
        }
        let (s, q, p) = (
            to_engine(at.scale),
            quat_to_engine(at.rotation),
            to_engine(at.translation),
        );
        let source = match shape {
            Obstacle::Mesh(h) => Some(Source::Mesh(h.id())),
            Obstacle::Heightfield(f) => {
                Some(Source::Field(Arc::as_ptr(&f.heights) as *const f32 as usize))
            }
            _ => None,
        };
        // The shape data first (uploaded once per asset or heights).
        let data = match (shape, source) {
            (Obstacle::Mesh(h), Some(src)) => match self.uploads.get(&src) {
                Some(u) => Some(u.mesh),
                None => {
                    let Some(mesh) = meshes.and_then(|m| m.get(h)) else {
                        return Ok(false);
                    };
                    let (v, i) = triangles(mesh)?;
                    let id = world.add_mesh(&v, &i).map_err(|e| e.to_string())?;
                    self.uploads.insert(
                        src,
                        Upload {
                            mesh: id,
                            users: 0,
                            _field: None,
                        },
                    );
                    Some(id)
                }
            },
            (Obstacle::Heightfield(f), Some(src)) => match self.uploads.get(&src) {
                Some(u) => Some(u.mesh),
                None => {
                    let id = world
                        .add_heightfield(f.columns, f.rows, f.cell.x, f.cell.y, &f.heights)
                        .map_err(|e| e.to_string())?;
                    let keep = Some(f.heights.clone());
                    self.uploads.insert(
                        src,
                        Upload {
                            mesh: id,
                            users: 0,
                            _field: keep,
                        },
                    );
                    Some(id)
                }
            },
            _ => None,
        };
        let max_scale = s.abs().largest();
        let obstacle = match shape {
            Obstacle::Sphere { radius } => boids_sim::Obstacle::Sphere {
                centre: p,
                radius: radius * max_scale,
            },
            Obstacle::Cuboid { half_size } => boids_sim::Obstacle::OrientedBox {
                centre: p,
                half_extents: to_engine(*half_size) * s.abs(),
                rotation: q,
            },
            Obstacle::Capsule {
                radius,
                half_length,
            } => {
                let axis = q * boids_core::Vec3::Y * (half_length * s.y.abs());
                boids_sim::Obstacle::Capsule {
                    a: p - axis,
                    b: p + axis,
                    radius: radius * s.x.abs().at_least(s.z.abs()),
                }
            }
            Obstacle::HalfSpace => boids_sim::Obstacle::Plane {
                point: p,
                normal: (q * boids_core::Vec3::Y).normalize(),
            },
            Obstacle::Mesh(_) => boids_sim::Obstacle::Mesh {
                mesh: data.expect("uploaded above"),
                position: p,
                rotation: q,
                scale: s,
                ground,
            },
            Obstacle::Heightfield(_) => boids_sim::Obstacle::Heightfield {
                field: data.expect("uploaded above"),
                position: p,
                rotation: q,
                scale: s,
                ground,
            },
        };
        let result = match self.placed.get(&e).copied() {
            Some((id, old)) if old == source => world.set_obstacle(id, obstacle).map(|_| ()),
            Some(_) => {
                // Another kind of data: place it anew.
                self.remove(world, e);
                self.add(world, e, obstacle, source)
            }
            None => self.add(world, e, obstacle, source),
        };
        if let Err(err) = result {
            // Shape data no obstacle places any more goes too.
            if let Some(src) = source
                && self.uploads.get(&src).is_some_and(|u| u.users == 0)
            {
                let u = self.uploads.remove(&src).expect("checked");
                let _ = world.remove_mesh(u.mesh);
            }
            return Err(err.to_string());
        }
        Ok(true)
    }

    fn add(
        &mut self,
        world: &mut World,
        e: Entity,
        obstacle: boids_sim::Obstacle,
        source: Option<Source>,
    ) -> Result<(), boids_sim::Error> {
        let id = world.add_obstacle(obstacle)?;
        if let Some(src) = source {
            self.uploads.get_mut(&src).expect("uploaded").users += 1;
        }
        self.placed.insert(e, (id, source));
        Ok(())
    }

    /// Marks an entity refused (one log, not one a tick) until its shape or placement changes;
    /// its engine obstacle, if it had one, stays as it was.
    pub(crate) fn refuse(&mut self, e: Entity) {
        self.refused.insert(e, ());
    }
}

/// A mesh asset's triangles: its positions and its triangle-list indices (0, 1, 2, … when it
/// has none).
fn triangles(mesh: &Mesh) -> Result<(Vec<boids_core::Vec3>, Vec<u32>), String> {
    if mesh.primitive_topology() != PrimitiveTopology::TriangleList {
        return Err(format!(
            "mesh topology must be TriangleList, got {:?}",
            mesh.primitive_topology()
        ));
    }
    let Some(VertexAttributeValues::Float32x3(p)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION) else {
        return Err("mesh has no Float32x3 positions (or is not readable on the CPU: keep its RenderAssetUsages::MAIN_WORLD)".into());
    };
    let v: Vec<boids_core::Vec3> = p.iter().map(|&a| boids_core::Vec3::from_array(a)).collect();
    let i: Vec<u32> = match mesh.indices() {
        Some(Indices::U16(i)) => i.iter().map(|&k| u32::from(k)).collect(),
        Some(Indices::U32(i)) => i.clone(),
        None => (0..v.len() as u32).collect(),
    };
    Ok((v, i))
}
