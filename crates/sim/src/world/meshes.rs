//! Shape data of a world: triangle meshes and heightfields, uploaded once and placed by any
//! number of obstacles (as Unity's `MeshCollider`s share a `Mesh`).

use super::World;
use crate::error::{Error, invalid};
use crate::slotmap::SlotKey;
use boids_core::{MeshId, MeshShape, Obstacle, Vec3};
use std::sync::Arc;

impl SlotKey for MeshId {
    fn from_parts(index: u32, generation: u32) -> Self {
        MeshId { index, generation }
    }
    fn index(self) -> u32 {
        self.index
    }
    fn generation(self) -> u32 {
        self.generation
    }
}

impl World {
    /// Uploads a triangle mesh: `vertices`, and `indices` three a triangle. Its bounding volume
    /// hierarchy is built here, once; obstacles place it ([`Obstacle::Mesh`]) with their own
    /// position, rotation and scale. Refused, with a sentence naming the field: a vertex that is
    /// not finite or beyond the world's limits, an index out of range, no triangle, more than
    /// 2^24 triangles.
    pub fn add_mesh(&mut self, vertices: &[Vec3], indices: &[u32]) -> Result<MeshId, Error> {
        self.idle()?;
        let shape = MeshShape::mesh(vertices.to_vec(), indices).map_err(invalid)?;
        self.insert_mesh(shape)
    }

    /// Uploads a heightfield (Unity's `TerrainData`): `columns × rows` heights, x fastest,
    /// samples `cell_x` apart along x and `cell_z` along z; sample `(i, j)` sits at
    /// `(i cell_x, height, j cell_z)` before its placement ([`Obstacle::Heightfield`]). Refused,
    /// with a sentence naming the field: fewer than 2 samples a side, a height or cell size that
    /// is not finite, a cell size that is not positive, more than 2^24 triangles (two a cell).
    pub fn add_heightfield(
        &mut self,
        columns: u32,
        rows: u32,
        cell_x: f32,
        cell_z: f32,
        heights: &[f32],
    ) -> Result<MeshId, Error> {
        self.idle()?;
        let shape = MeshShape::heightfield(columns, rows, cell_x, cell_z, heights.to_vec())
            .map_err(invalid)?;
        self.insert_mesh(shape)
    }

    pub(crate) fn insert_mesh(&mut self, shape: MeshShape) -> Result<MeshId, Error> {
        self.idle()?;
        self.meshes
            .insert(Arc::new(shape))
            .ok_or_else(|| invalid("a world holds at most 2^32 meshes"))
    }

    /// Removes shape data; its id goes stale. Refused (and nothing changes) while an obstacle
    /// places it: remove those first.
    pub fn remove_mesh(&mut self, id: MeshId) -> Result<(), Error> {
        self.idle()?;
        if !self.meshes.contains(id) {
            return Err(Error::InvalidId);
        }
        let users = self
            .obstacles
            .values()
            .filter(|(o, _)| o.mesh() == Some(id))
            .count();
        if users > 0 {
            return Err(invalid(format!(
                "mesh {}:{} (index:generation, 1-based as the C ABI's ids) is placed by {users} \
                 obstacle(s): remove them first",
                id.index + 1,
                id.generation
            )));
        }
        self.meshes.remove(id);
        Ok(())
    }

    /// The shape data, if `id` is valid.
    pub fn mesh(&self, id: MeshId) -> Option<&MeshShape> {
        self.meshes.get(id).map(|m| &**m)
    }

    /// Ids of the live shape data, in slot order.
    pub fn mesh_ids(&self) -> impl Iterator<Item = MeshId> + '_ {
        self.meshes.keys()
    }

    /// Validates an obstacle for this world: its numbers, and for a placement, that its id
    /// names live shape data of its kind.
    pub(crate) fn check_obstacle(&self, o: &Obstacle) -> Result<(), Error> {
        o.validate().map_err(invalid)?;
        if let Some(id) = o.mesh() {
            let kind = o.kind().text();
            let shape = self.meshes.get(id).ok_or_else(|| {
                invalid(format!(
                    "{kind} obstacle: mesh {}:{} (index:generation, 1-based as the C ABI's ids) \
                     is not shape data of this world (never added, or removed)",
                    id.index + 1,
                    id.generation
                ))
            })?;
            let want_field = matches!(o, Obstacle::Heightfield { .. });
            if shape.is_heightfield() != want_field {
                return Err(invalid(format!(
                    "{kind} obstacle: mesh {}:{} is a {}, not a {kind}",
                    id.index + 1,
                    id.generation,
                    if shape.is_heightfield() {
                        "heightfield"
                    } else {
                        "triangle mesh"
                    }
                )));
            }
        }
        Ok(())
    }
}
