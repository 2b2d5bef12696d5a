//! Exact save and restore of a whole world: see [`SAVE_FORMAT_VERSION`] for the format.

use super::{FlockId, RelationKind, World, WorldConfig};
use crate::error::{Error, invalid};
use crate::flock::{Flock, SavedFlock};
use crate::fnv::Fnv1a;
use crate::slotmap::SlotMap;
use boids_core::geometry::ShapeData;
use boids_core::{MeshShape, Obstacle, Vec3};
use boids_index::Exec;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Exact save and restore: [`World::save`] writes the whole world as bytes, [`World::load`]
/// reads them back into a world that continues bit for bit as the saved one would have.
///
/// # Format (version 3)
///
/// | Bytes | What |
/// | --- | --- |
/// | 8 | the magic `BOIDSAVE` |
/// | 4 | format version, little-endian `u32`: the oldest that holds the world (3 with a flow cell size, else 2) |
/// | 8 | payload length in bytes, little-endian `u64` |
/// | 8 | FNV-1a 64 of the payload, little-endian `u64` |
/// | n | the payload: CBOR (RFC 8949, self-describing; any CBOR tool can read it) |
///
/// The payload is a map: `engine` (the library that wrote it, e.g. `"boids 0.3.0"`), `seed`,
/// `steps`, `observer`, `flocks` and `obstacles` (every slot, free or live, with its
/// generation, so ids issued before a save name the same things after a load, and new ids come
/// out the same), `relations`, and (from version 2) `meshes`: every slot of the shape data
/// (a triangle mesh as vertices and indices, a heightfield as its grid), which obstacles name
/// by id; hierarchies are rebuilt on load, deterministically; and (from version 3, when set)
/// `flow_cell`, the world's flow cell size ([`World::set_flow_cell_size`]: the flow fields
/// themselves are derived, not saved, and the loaded world builds the same ones at its first
/// step), with `flows` when the world has a flow budget ([`World::set_flow_budget`]: then what
/// each flock reads and waits for is history; the save holds the budget, each flock's read
/// and awaited target cells, and the units each field being built has taken, and a field read
/// over a scene that has changed since, whole). Each flock holds its name, parameters, target, path, leader,
/// wake region, sleep state, next id and per-boid state in storage order: id, position,
/// velocity, heading and, for models that keep it, orientation (with its roll), SmoothDamp
/// velocity and wander point. Floats are stored exactly. Randomness is keyed by (seed, boid id,
/// step), so the seed and step count are the whole random state.
///
/// Loading checks the magic, the version (a newer one is refused, naming both), the length (a
/// truncated file is refused) and the checksum (a corrupt one is refused), then validates every
/// value as the API would (a crafted file cannot put a NaN or an out-of-range value into the
/// state). A refused load returns an error and creates nothing.
///
/// This constant: the newest save format this library writes and reads.
pub const SAVE_FORMAT_VERSION: u32 = 3;

const MAGIC: &[u8; 8] = b"BOIDSAVE";
const HEADER: usize = 8 + 4 + 8 + 8;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedRelation {
    from: (u32, u32),
    to: (u32, u32),
    kind: RelationKind,
    radius: f32,
    weight: f32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveFile {
    engine: String,
    seed: u64,
    steps: u64,
    observer: Option<Vec3>,
    flocks: Vec<(u32, Option<SavedFlock>)>,
    obstacles: Vec<(u32, Option<Obstacle>)>,
    relations: Vec<SavedRelation>,
    /// Absent from version 1 files (which have no shape data); always there in version 2.
    #[serde(default)]
    meshes: Option<Vec<(u32, Option<SavedMesh>)>>,
    /// The flow cell size: only in version 3 files, which are written only when it is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flow_cell: Option<f32>,
    /// With a flow budget: what each flock reads and waits for (version 3 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flows: Option<super::flow::SavedFlows>,
}

/// Shape data as saved: what it was made from.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum SavedMesh {
    Mesh {
        vertices: Vec<Vec3>,
        indices: Vec<u32>,
    },
    Heightfield {
        columns: u32,
        rows: u32,
        cell_x: f32,
        cell_z: f32,
        heights: Vec<f32>,
    },
}

impl SavedMesh {
    fn of(m: &MeshShape) -> SavedMesh {
        match m.data() {
            ShapeData::Mesh => {
                let (vertices, triangles) = m.mesh_data().expect("a mesh has mesh data");
                SavedMesh::Mesh {
                    vertices: vertices.to_vec(),
                    indices: triangles.iter().flatten().copied().collect(),
                }
            }
            ShapeData::Heightfield(g) => SavedMesh::Heightfield {
                columns: g.columns,
                rows: g.rows,
                cell_x: g.cell_x,
                cell_z: g.cell_z,
                heights: g.heights.clone(),
            },
        }
    }

    fn build(self) -> Result<MeshShape, String> {
        match self {
            SavedMesh::Mesh { vertices, indices } => MeshShape::mesh(vertices, &indices),
            SavedMesh::Heightfield {
                columns,
                rows,
                cell_x,
                cell_z,
                heights,
            } => MeshShape::heightfield(columns, rows, cell_x, cell_z, heights),
        }
    }
}

fn corrupt(why: impl std::fmt::Display) -> Error {
    invalid(format!("not a loadable boids save: {why}"))
}

impl World {
    /// The whole world as bytes (format: [`SAVE_FORMAT_VERSION`]). [`World::load`] reads them into a world that continues exactly as this one would: same state hash after
    /// any number of further steps, on any thread count.
    pub fn save(&self) -> Vec<u8> {
        let file = SaveFile {
            engine: format!("boids {}", env!("CARGO_PKG_VERSION")),
            seed: self.seed,
            steps: self.steps,
            observer: self.observer,
            flocks: self
                .flocks
                .slots()
                .map(|(g, f)| (g, f.map(Flock::to_saved)))
                .collect(),
            obstacles: self
                .obstacles
                .slots()
                .map(|(g, o)| (g, o.map(|(o, _)| *o)))
                .collect(),
            // A relation of a destroyed flock is inert (a step skips it): not saved.
            relations: self
                .relations
                .iter()
                .filter(|r| self.flocks.contains(r.from) && self.flocks.contains(r.to))
                .map(|r| SavedRelation {
                    from: (r.from.index, r.from.generation),
                    to: (r.to.index, r.to.generation),
                    kind: r.kind,
                    radius: r.radius,
                    weight: r.weight,
                })
                .collect(),
            meshes: Some(
                self.meshes
                    .slots()
                    .map(|(g, m)| (g, m.map(|m| SavedMesh::of(m))))
                    .collect(),
            ),
            flow_cell: (self.flows.cell != 0.0).then_some(self.flows.cell),
            flows: self.saved_flows(),
        };
        // The oldest version that holds it, so older libraries read what they can.
        let version: u32 = if file.flow_cell.is_some() { 3 } else { 2 };
        let mut payload = Vec::new();
        ciborium::into_writer(&file, &mut payload).expect("writing CBOR into a Vec cannot fail");
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&Fnv1a::of(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// A world from bytes [`World::save`] wrote. The seed, step count and every flock come from
    /// the bytes; `config` gives only what never changes results (`threads`, `simd`; its
    /// `seed` is ignored). Refuses, with an error saying why, bytes that are not a save file,
    /// are truncated or corrupt, come from a newer format, or hold any value the API would
    /// refuse.
    pub fn load(bytes: &[u8], config: WorldConfig) -> Result<World, Error> {
        World::load_on(bytes, config, None)
    }

    /// As [`World::load`], the world's steps running on `exec` (a host's job system; see
    /// [`World::with_exec`]).
    pub fn load_with_exec(
        bytes: &[u8],
        config: WorldConfig,
        exec: Arc<dyn Exec>,
    ) -> Result<World, Error> {
        World::load_on(bytes, config, Some(exec))
    }

    fn load_on(
        bytes: &[u8],
        config: WorldConfig,
        exec: Option<Arc<dyn Exec>>,
    ) -> Result<World, Error> {
        // Every refusal names the save: a value the API refuses is a bad file, not a bad call.
        World::load_checked(bytes, config, exec).map_err(|e| match e {
            Error::InvalidArgument(m)
                if m.starts_with("not a loadable boids save") || m.starts_with("save format") =>
            {
                Error::InvalidArgument(m)
            }
            e => corrupt(e),
        })
    }

    fn load_checked(
        bytes: &[u8],
        config: WorldConfig,
        exec: Option<Arc<dyn Exec>>,
    ) -> Result<World, Error> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(corrupt(format!(
                "{} bytes that do not start with the BOIDSAVE header",
                bytes.len()
            )));
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version == 0 || version > SAVE_FORMAT_VERSION {
            return Err(invalid(format!(
                "save format version {version} is not one this library reads (1..={SAVE_FORMAT_VERSION}); \
                 a newer boids wrote it"
            )));
        }
        let len = word(12);
        let payload = &bytes[HEADER..];
        if payload.len() as u64 != len {
            return Err(corrupt(format!(
                "the header announces {len} payload bytes, {} follow (truncated or padded)",
                payload.len()
            )));
        }
        if Fnv1a::of(payload) != word(20) {
            return Err(corrupt(
                "the checksum does not match (the bytes were changed)",
            ));
        }
        // One CBOR value, the whole payload: bytes after it (which the length and the checksum
        // would cover) are refused, not ignored.
        let mut rest = payload;
        let file: SaveFile = ciborium::from_reader(&mut rest).map_err(corrupt)?;
        if !rest.is_empty() {
            return Err(corrupt(format!(
                "{} bytes follow the payload's value inside the announced length",
                rest.len()
            )));
        }
        // The content must be what its version label says.
        match (version, &file.meshes) {
            (1, Some(_)) => {
                return Err(corrupt(
                    "labelled version 1, but it holds shape data (meshes), which only version 2 has",
                ));
            }
            (2.., None) => {
                return Err(corrupt(format!(
                    "labelled version {version}, but it has no meshes field, which every file from version 2 has"
                )));
            }
            _ => {}
        }
        if version < 3 && file.flow_cell.is_some() {
            return Err(corrupt(format!(
                "labelled version {version}, but it holds a flow cell size, which only version 3 has"
            )));
        }
        if version == 1
            && let Some(kind) = file.obstacles.iter().find_map(|(_, o)| {
                o.as_ref()
                    .filter(|o| {
                        !matches!(
                            o,
                            Obstacle::Sphere { .. } | Obstacle::Box { .. } | Obstacle::Plane { .. }
                        )
                    })
                    .map(|o| o.kind().text())
            })
        {
            return Err(corrupt(format!(
                "labelled version 1, but it holds a {kind} obstacle, which only version 2 has"
            )));
        }

        let mut world = World::build(
            WorldConfig {
                seed: file.seed,
                ..config
            },
            exec,
        )?;
        let mut names = std::collections::HashSet::new();
        let mut flocks = Vec::with_capacity(file.flocks.len());
        for (generation, saved) in file.flocks {
            let flock = saved.map(Flock::from_saved).transpose()?;
            if let Some(f) = &flock
                && !names.insert(f.name().to_owned())
            {
                return Err(invalid(format!("two flocks are named '{}'", f.name())));
            }
            flocks.push((generation, flock));
        }
        world.flocks =
            SlotMap::from_slots(flocks).ok_or_else(|| corrupt("a flock slot has generation 0"))?;
        let saved_meshes = file.meshes.unwrap_or_default();
        let mut meshes = Vec::with_capacity(saved_meshes.len());
        for (generation, m) in saved_meshes {
            let m = m
                .map(|m| m.build().map(Arc::new))
                .transpose()
                .map_err(invalid)?;
            meshes.push((generation, m));
        }
        world.meshes =
            SlotMap::from_slots(meshes).ok_or_else(|| corrupt("a mesh slot has generation 0"))?;
        let mut obstacles = Vec::with_capacity(file.obstacles.len());
        for (generation, o) in file.obstacles {
            let o = o.map(|o| world.place(&o).map(|p| (o, p))).transpose()?;
            obstacles.push((generation, o));
        }
        world.obstacles = SlotMap::from_slots(obstacles)
            .ok_or_else(|| corrupt("an obstacle slot has generation 0"))?;
        world.obstacles_changed();
        if let Some(cell) = file.flow_cell {
            world.set_flow_cell_size(cell)?;
        }
        if let Some(flows) = file.flows {
            world.restore_flows(flows)?;
        }
        world.set_observer(file.observer)?;
        for r in file.relations {
            let id = |(index, generation)| FlockId { index, generation };
            let (from, to) = (id(r.from), id(r.to));
            world
                .set_relation(from, to, r.kind, r.radius, r.weight)
                .map_err(|e| match e {
                    Error::InvalidId => corrupt(format!(
                        "a relation names flock {}:{} -> {}:{} (index:generation, 1-based as \
                         the C ABI's ids), and one of them is not in the file",
                        from.index + 1,
                        from.generation,
                        to.index + 1,
                        to.generation
                    )),
                    e => corrupt(format!("a relation: {e}")),
                })?;
        }
        world.steps = file.steps;
        Ok(world)
    }
}
