//! A world described as data: flocks (parameters, how many boids, where they start), paths, wake
//! regions, relations, obstacles, the observer, and the run's seed, steps and time step.
//!
//! Scenario files (`boids run --scenario`, docs/scenario.md) are a [`Scene`] in TOML, and every
//! preset is a [`Scene`] (`presets.rs`), so `boids presets --show NAME` prints a preset as a
//! scenario file that builds the very same world. With the `serde` feature every type here
//! (de)serializes; the parameters are [`FlockParams`] itself.

#[cfg(feature = "toml")]
mod file;
mod meshes;

pub use meshes::{MeshSpec, rock, seabed};

use crate::error::{Error, invalid};
use crate::flock::Spawn;
#[cfg(feature = "serde")]
use crate::flock::{SpawnKind, SpawnShape};
use crate::world::{FlockId, RelationKind, World, WorldConfig};
use boids_core::{FlockParams, MeshId, Obstacle, Vec3};

/// A whole world as data.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// Seed of every random draw.
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub seed: u64,
    /// Steps to run.
    #[cfg_attr(feature = "serde", serde(default = "steps"))]
    pub steps: u64,
    /// Seconds per step.
    #[cfg_attr(feature = "serde", serde(default = "dt"))]
    pub dt: f32,
    /// Worker threads (0 = one per core).
    #[cfg_attr(feature = "serde", serde(default))]
    pub threads: usize,
    /// The observer point (flocks with a wake region move only while it is inside).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub observer: Option<Vec3>,
    /// The flocks, created in this order.
    #[cfg_attr(feature = "serde", serde(default))]
    pub flock: Vec<FlockSpec>,
    /// How flocks react to each other.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub relation: Vec<RelationSpec>,
    /// Obstacles every flock avoids (per its parameters). A mesh or heightfield placement
    /// names its shape data by its place in `mesh` (`index`; the generation is ignored).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub obstacle: Vec<Obstacle>,
    /// Shape data the obstacles place: triangle meshes and heightfields, as data or generated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub mesh: Vec<MeshSpec>,
    /// The width of the cells of the flow fields grounded flocks seek their targets along
    /// ([`World::set_flow_cell_size`]; 0, the default: none, they seek in a straight line).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub flow_cell: f32,
}

#[cfg(feature = "serde")]
fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

#[cfg(feature = "serde")]
fn one() -> u64 {
    1
}
#[cfg(feature = "serde")]
fn steps() -> u64 {
    600
}
#[cfg(feature = "serde")]
fn dt() -> f32 {
    1.0 / 60.0
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            seed: 1,
            steps: 600,
            dt: 1.0 / 60.0,
            threads: 0,
            observer: None,
            flock: Vec::new(),
            relation: Vec::new(),
            obstacle: Vec::new(),
            mesh: Vec::new(),
            flow_cell: 0.0,
        }
    }
}

/// One flock of a [`Scene`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct FlockSpec {
    /// Unique name.
    pub name: String,
    /// Boids spawned with `spawn`.
    pub count: usize,
    /// Where the spawned boids start.
    pub spawn: Spawn,
    /// Boids added one by one after the spawned ones.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub boids: Vec<BoidSpec>,
    /// Every parameter.
    pub params: FlockParams,
    /// The polyline followed with `weights.path`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub path: Option<PathSpec>,
    /// The box the observer must be in for the flock to move.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub wake_region: Option<RegionSpec>,
}

impl FlockSpec {
    /// A flock of `count` boids with the default parameters, spawned in the default box.
    pub fn new(name: &str, count: usize) -> FlockSpec {
        FlockSpec {
            name: name.to_owned(),
            count,
            spawn: Spawn::default(),
            boids: Vec::new(),
            params: FlockParams::default(),
            path: None,
            wake_region: None,
        }
    }
}

/// One boid placed by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct BoidSpec {
    /// Position.
    pub position: Vec3,
    /// Velocity.
    pub velocity: Vec3,
}

/// A path: a polyline, open or closed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct PathSpec {
    /// The points (at least two).
    pub points: Vec<Vec3>,
    /// Whether the last point joins the first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub closed: bool,
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RegionSpec {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

/// How flock `from` reacts to flock `to` (by name).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RelationSpec {
    /// The flock that reacts.
    pub from: String,
    /// The flock it reacts to.
    pub to: String,
    /// How.
    pub kind: RelationKind,
    /// Range.
    pub radius: f32,
    /// Weight of the steering it adds.
    pub weight: f32,
}

impl Scene {
    /// A new world with this scene's seed and thread count, and everything in it.
    pub fn build(&self) -> Result<World, Error> {
        let mut world = World::new(WorldConfig {
            seed: self.seed,
            threads: self.threads,
            ..WorldConfig::default()
        })?;
        self.add_to(&mut world)?;
        Ok(world)
    }

    /// Adds the scene's flocks, obstacles, relations and observer to `world`; returns the new
    /// flocks' ids in order. All or nothing: on an error every flock and obstacle added so far
    /// is removed again and the world is as it was. Messages name the flock or item that was
    /// refused.
    pub fn add_to(&self, world: &mut World) -> Result<Vec<FlockId>, Error> {
        let mut added = Added::default();
        match self.add_all(world, &mut added) {
            Ok(()) => Ok(added.flocks),
            Err(e) => {
                for id in added.flocks {
                    let _ = world.destroy_flock(id);
                }
                for id in added.obstacles {
                    let _ = world.remove_obstacle(id);
                }
                for id in added.meshes {
                    let _ = world.remove_mesh(id);
                }
                Err(e)
            }
        }
    }

    fn add_all(&self, world: &mut World, added: &mut Added) -> Result<(), Error> {
        for f in &self.flock {
            let ctx = |e: Error| invalid(format!("flock '{}': {e}", f.name));
            let id = world.create_flock(&f.name, f.params).map_err(ctx)?;
            added.flocks.push(id);
            if f.count > 0 {
                world.spawn(id, f.count, &f.spawn).map_err(ctx)?;
            }
            if !f.boids.is_empty() {
                let p: Vec<Vec3> = f.boids.iter().map(|b| b.position).collect();
                let v: Vec<Vec3> = f.boids.iter().map(|b| b.velocity).collect();
                world.add_boids(id, &p, &v).map_err(ctx)?;
            }
            if let Some(p) = &f.path {
                world.set_path(id, &p.points, p.closed).map_err(ctx)?;
            }
            if let Some(r) = f.wake_region {
                world
                    .set_wake_region(id, Some((r.min, r.max)))
                    .map_err(ctx)?;
            }
        }
        for (i, m) in self.mesh.iter().enumerate() {
            let shape = m
                .build()
                .map_err(|e| invalid(format!("mesh {}: {e}", i + 1)))?;
            added.meshes.push(world.insert_mesh(shape)?);
        }
        for (i, o) in self.obstacle.iter().enumerate() {
            let ctx = |e: String| invalid(format!("obstacle {}: {e}", i + 1));
            // The scene names its meshes by their place in its list: the world's ids.
            let at = |m: MeshId| {
                added.meshes.get(m.index as usize).copied().ok_or_else(|| {
                    ctx(format!(
                        "mesh index {} but the scene has {} mesh(es)",
                        m.index,
                        self.mesh.len()
                    ))
                })
            };
            let o = match *o {
                Obstacle::Mesh {
                    mesh,
                    position,
                    rotation,
                    scale,
                    ground,
                } => Obstacle::Mesh {
                    mesh: at(mesh)?,
                    position,
                    rotation,
                    scale,
                    ground,
                },
                Obstacle::Heightfield {
                    field,
                    position,
                    rotation,
                    scale,
                    ground,
                } => Obstacle::Heightfield {
                    field: at(field)?,
                    position,
                    rotation,
                    scale,
                    ground,
                },
                o => o,
            };
            let id = world.add_obstacle(o).map_err(|e| ctx(e.to_string()))?;
            added.obstacles.push(id);
        }
        if self.flow_cell != 0.0 {
            world
                .set_flow_cell_size(self.flow_cell)
                .map_err(|e| invalid(format!("flow_cell: {e}")))?;
        }
        for (i, r) in self.relation.iter().enumerate() {
            let ctx = |m: String| invalid(format!("relation {}: {m}", i + 1));
            let find = |name: &str| {
                world
                    .find_flock(name)
                    .ok_or_else(|| ctx(format!("no flock named '{name}'")))
            };
            let (from, to) = (find(&r.from)?, find(&r.to)?);
            // A relation between two flocks that were there before would outlive a rollback.
            if !added.flocks.contains(&from) && !added.flocks.contains(&to) {
                return Err(ctx(format!(
                    "'{}' and '{}' are not flocks of this scene",
                    r.from, r.to
                )));
            }
            world
                .set_relation(from, to, r.kind, r.radius, r.weight)
                .map_err(|e| ctx(e.to_string()))?;
        }
        if let Some(o) = self.observer {
            world.set_observer(Some(o))?;
        }
        Ok(())
    }
}

/// What [`Scene::add_to`] has added so far, to take back on an error.
#[derive(Default)]
struct Added {
    flocks: Vec<FlockId>,
    obstacles: Vec<crate::world::ObstacleId>,
    meshes: Vec<MeshId>,
}

/// A [`Spawn`] as a scene file writes it: `shape` and the fields that shape uses.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnTable {
    shape: SpawnKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    centre: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    radius: Option<f32>,
    #[serde(default = "two")]
    min_speed: f32,
    #[serde(default = "five")]
    max_speed: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    direction: Option<Vec3>,
}

#[cfg(feature = "serde")]
fn two() -> f32 {
    2.0
}
#[cfg(feature = "serde")]
fn five() -> f32 {
    5.0
}

#[cfg(feature = "serde")]
impl TryFrom<SpawnTable> for Spawn {
    type Error = String;
    fn try_from(t: SpawnTable) -> Result<Spawn, String> {
        let need = |v: Option<f32>, what: &str| {
            v.ok_or_else(|| format!("spawn shape '{}' needs {what}", t.shape))
        };
        let (round, boxy) = (
            t.centre.is_some() || t.radius.is_some(),
            t.min.is_some() || t.max.is_some(),
        );
        let shape = match t.shape {
            SpawnKind::Box => {
                if round {
                    return Err("spawn shape 'box' takes min and max, not centre or radius".into());
                }
                SpawnShape::Box {
                    min: t.min.unwrap_or(Vec3::splat(-5.0)),
                    max: t.max.unwrap_or(Vec3::splat(5.0)),
                }
            }
            kind => {
                if boxy {
                    return Err(format!(
                        "spawn shape '{kind}' takes centre and radius, not min or max"
                    ));
                }
                let (centre, radius) =
                    (t.centre.unwrap_or(Vec3::ZERO), need(t.radius, "a radius")?);
                match kind {
                    SpawnKind::Sphere => SpawnShape::Sphere { centre, radius },
                    SpawnKind::Disc => SpawnShape::Disc { centre, radius },
                    _ => SpawnShape::FlatBall { centre, radius },
                }
            }
        };
        Ok(Spawn {
            shape,
            min_speed: t.min_speed,
            max_speed: t.max_speed,
            direction: t.direction,
        })
    }
}

#[cfg(feature = "serde")]
impl From<Spawn> for SpawnTable {
    fn from(s: Spawn) -> SpawnTable {
        let mut t = SpawnTable {
            shape: s.shape.kind(),
            min: None,
            max: None,
            centre: None,
            radius: None,
            min_speed: s.min_speed,
            max_speed: s.max_speed,
            direction: s.direction,
        };
        match s.shape {
            SpawnShape::Box { min, max } => (t.min, t.max) = (Some(min), Some(max)),
            SpawnShape::Sphere { centre, radius }
            | SpawnShape::Disc { centre, radius }
            | SpawnShape::FlatBall { centre, radius } => {
                (t.centre, t.radius) = (Some(centre), Some(radius))
            }
        }
        t
    }
}
