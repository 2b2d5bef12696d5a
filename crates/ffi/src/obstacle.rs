//! Obstacles every flock of a world avoids, and the shape data (triangle meshes, heightfields)
//! mesh and heightfield obstacles place.

use crate::boundary::{boundary, boundary_value};
use crate::convert::*;
use crate::registry;
use crate::types::*;

// ---------------------------------------------------------------------------------------------
// Obstacles

/// Adds an obstacle every flock of the world avoids (per its params). `def` must come from
/// `boids_default_obstacle_def()`; the fields its `shape` uses are checked (finite, within the
/// world's limits, positive sizes and scales, unit normals and rotations; a mesh or
/// heightfield of this world and of that kind): otherwise `BOIDS_RESULT_INVALID_ARGUMENT` with
/// the field named, and nothing is added. With a flow cell size
/// (`boids_world_set_flow_cell_size`), ground (`ground` = 1) that would take the flow grid over
/// the ground past 16,777,216 cells is refused the same way: set a larger cell size first.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` is NULL or readable; `out_obstacle` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_obstacle_add(
    world: BoidsWorldId,
    def: *const BoidsObstacleDef,
    out_obstacle: *mut BoidsObstacleId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let shape = obstacle_from_c(world, &unsafe { read(def, "def") }?)?;
        need_out(out_obstacle, "out_obstacle")?;
        let id = registry::with_world(world, |w| Ok(w.add_obstacle(shape)?))?;
        // SAFETY: checked non-null.
        unsafe {
            write(
                out_obstacle,
                BoidsObstacleId {
                    world,
                    index: id.index + 1,
                    generation: id.generation,
                },
            )
        };
        Ok(())
    })
}

/// Replaces (moves) an obstacle's shape: call it every frame for a moving obstacle. Moving a
/// mesh or heightfield rebuilds and copies nothing: O(1) whatever its size (its data and
/// hierarchy are shared; casts place the vertices they test). Checked as `boids_obstacle_add` checks; a refused def changes nothing.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_obstacle_set(
    obstacle: BoidsObstacleId,
    def: *const BoidsObstacleDef,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let shape = obstacle_from_c(obstacle.world, &unsafe { read(def, "def") }?)?;
        registry::with_world(obstacle.world, |w| {
            Ok(w.set_obstacle(obstacle_id(obstacle), shape)?)
        })
    })
}

/// Removes an obstacle; its id goes stale.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_obstacle_remove(obstacle: BoidsObstacleId) -> BoidsResult {
    boundary(|| {
        registry::with_world(obstacle.world, |w| {
            Ok(w.remove_obstacle(obstacle_id(obstacle))?)
        })
    })
}

/// Copies the scene's faces into `out`, for drawing them: every obstacle that has faces, in
/// slot order, as triangles in world space, three `BoidsVec3` a triangle (`capacity` and
/// `out_count` count `BoidsVec3`s): a box's 12 triangles (oriented or not, wound outward), every
/// triangle of a mesh or heightfield placement in its index order (the vertices the casts test,
/// bit for bit; a heightfield's cell `c` gives triangles `2c` and `2c + 1`). Spheres, capsules and
/// planes have no faces here: draw them from their own numbers. Too small:
/// `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number needed in `out_count` and nothing written;
/// NULL with capacity 0 asks for the number. A large heightfield has many: 2049 x 2049 samples
/// are 25,165,824 `BoidsVec3`s (302 MB).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries (any alignment);
/// `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_read_scene_triangles(
    world: BoidsWorldId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        registry::with_world_shared(world, |w| {
            let placed = w.placed_obstacles();
            let needed = placed
                .iter()
                .try_fold(0usize, |n, p| {
                    n.checked_add(p.triangle_count().checked_mul(3)?)
                })
                .ok_or_else(|| bad("the scene has more triangle vertices than a size_t counts"))?;
            // SAFETY: `out_count` checked non-null above, writable per the contract.
            unsafe { count_out(needed, capacity, out_count, "vertices") }?;
            let mut k = 0usize;
            for p in placed {
                p.for_each_triangle(|a, b, c| {
                    for v in [a, b, c] {
                        // SAFETY: k < needed <= capacity entries of `out`, writable per the
                        // contract; unaligned writes, so any alignment is fine.
                        unsafe { out.add(k).write_unaligned(BoidsVec3::from(v)) };
                        k += 1;
                    }
                });
            }
            Ok(())
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Shape data

/// Uploads a triangle mesh to `world`: `vertex_count` vertices and `index_count` indices (three
/// a triangle), copied. Its bounding volume hierarchy is built here, once; any number of
/// obstacles (`BOIDS_OBSTACLE_MESH`) then place it with their own position, rotation and
/// scale, as Unity's `MeshCollider`s share one `Mesh`. Not necessarily closed or convex; hit
/// from both sides. Refused with `BOIDS_RESULT_INVALID_ARGUMENT` and the field named
/// (`mesh vertices[7] must be finite...`, `mesh indices[5] is 12, out of range for 8
/// vertices`): a vertex not finite or beyond the world's limits, an index out of range, an
/// index count that is not a multiple of 3, no triangle, more than 2^24 triangles
/// (`BOIDS_MAX_TRIANGLES`), more than 3 × 2^24 vertices (`BOIDS_MAX_VERTICES`). On success
/// writes the id to `out_mesh`; it lives until `boids_mesh_destroy` or the world's end.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `vertices` holds `vertex_count` readable `BoidsVec3` (NULL only with 0), `indices`
/// `index_count` readable `uint32_t` (NULL only with 0); `out_mesh` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_mesh_create(
    world: BoidsWorldId,
    vertices: *const BoidsVec3,
    vertex_count: usize,
    indices: *const u32,
    index_count: usize,
    out_mesh: *mut BoidsMeshId,
) -> BoidsResult {
    boundary(|| {
        need_out(out_mesh, "out_mesh")?;
        // Before anything is read: the limits.
        let max = boids_sim::MAX_TRIANGLES;
        if index_count / 3 > max {
            return Err(bad(format!(
                "mesh indices: at most {max} triangles (2^24) allowed, got {}",
                index_count / 3
            )));
        }
        if vertex_count > 3 * max {
            return Err(bad(format!(
                "mesh vertices: at most {} allowed, got {vertex_count}",
                3 * max
            )));
        }
        // SAFETY: the caller's contract.
        let v = unsafe { slice(vertices, vertex_count, "vertices") }?;
        // SAFETY: the caller's contract.
        let i = unsafe { slice(indices, index_count, "indices") }?;
        let v = vec3s(v, "vertices")?;
        let id = registry::with_world(world, |w| Ok(w.add_mesh(&v, i)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_mesh, to_c_mesh(world, id)) };
        Ok(())
    })
}

/// Uploads a heightfield to `world` (Unity's `TerrainData`): `columns × rows` heights in world
/// units, row after row (x fastest: `heights[j * columns + i]` is sample `i` along x, `j`
/// along z), samples `cell_x` apart along x and `cell_z` along z; sample `(i, j)` sits at
/// `(i cell_x, height, j cell_z)` before its placement (`BOIDS_OBSTACLE_HEIGHTFIELD`). Each cell
/// is two triangles, split along the diagonal from `(i, j)` to `(i + 1, j + 1)`; boids never
/// end a step below the surface. Kept as a grid, never as triangles: the heights (copied) and
/// a min/max pyramid about 0.7 times their size (a 2049 × 2049 field: 16.8 MB + 11.2 MB, made
/// in tens of milliseconds). Refused with `BOIDS_RESULT_INVALID_ARGUMENT` and the field
/// named: fewer than 2 samples a side (no cell), a height or cell size that is not finite, a
/// cell size that is not positive, more than 2^26 samples (`BOIDS_MAX_HEIGHTFIELD_SAMPLES`:
/// an 8193 × 8193 grid; every Unity terrain fits whole), checked before any height is read.
/// On success writes the id to `out_mesh`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `heights` holds `columns * rows` readable floats; `out_mesh` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_heightfield_create(
    world: BoidsWorldId,
    heights: *const f32,
    columns: u32,
    rows: u32,
    cell_x: f32,
    cell_z: f32,
    out_mesh: *mut BoidsMeshId,
) -> BoidsResult {
    boundary(|| {
        need_out(out_mesh, "out_mesh")?;
        let n = u64::from(columns) * u64::from(rows);
        if columns < 2 || rows < 2 {
            return Err(bad(format!(
                "heightfield columns and rows must be at least 2 (one cell), got {columns} x {rows}"
            )));
        }
        // Before anything is read: the sample limit.
        if n > boids_sim::MAX_HEIGHTFIELD_SAMPLES as u64 {
            return Err(bad(format!(
                "heightfield: at most {} samples (2^26, e.g. 8193 x 8193) allowed, got {n} \
                 ({columns} x {rows})",
                boids_sim::MAX_HEIGHTFIELD_SAMPLES
            )));
        }
        // SAFETY: the caller's contract.
        let h = unsafe { slice(heights, n as usize, "heights") }?;
        let id = registry::with_world(world, |w| {
            Ok(w.add_heightfield(columns, rows, cell_x, cell_z, h)?)
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_mesh, to_c_mesh(world, id)) };
        Ok(())
    })
}

/// Destroys shape data; its id goes stale. Refused with `BOIDS_RESULT_INVALID_ARGUMENT` (and
/// nothing changes) while an obstacle places it: remove those obstacles first. Destroying twice
/// returns `BOIDS_RESULT_INVALID_ID`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_mesh_destroy(mesh: BoidsMeshId) -> BoidsResult {
    boundary(|| registry::with_world(mesh.world, |w| Ok(w.remove_mesh(mesh_id(mesh))?)))
}

/// 1 while `mesh` names live shape data, else 0.
/// Threads: any thread; 0 while another thread changes its world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_mesh_is_valid(mesh: BoidsMeshId) -> i32 {
    boundary_value(0, || {
        i32::from(
            mesh.index != 0
                && registry::with_world_in_flight(mesh.world, |w| {
                    Ok(w.mesh(mesh_id(mesh)).is_some())
                })
                .unwrap_or(false),
        )
    })
}
