//! Flow fields: the world's cell size, and a flock's field read back for debugging and drawing.

use crate::boundary::{Fail, boundary};
use crate::convert::*;
use crate::registry;
use crate::types::*;
use boids_sim::{FlockId, World};

/// Sets the width of the cells of the world's flow fields: with a cell size above 0, a grounded
/// flock with a target seeks it along a flow field over the ground (around steep ground,
/// cliffs, edges and obstacles; straight once the target is in clear sight or within a cell;
/// not at all from where no way leads to it). 0, the default, turns them off: grounded flocks
/// seek in a straight line. A field is built in the first step a flock needs it (a new target
/// cell, or a changed scene or flock setting), shared by the flocks with the same ground
/// settings, body radius and target cell, and is derived, never state (the state hash does not
/// include it; a save keeps the cell size). `BOIDS_RESULT_INVALID_ARGUMENT` when `cell` is NaN,
/// infinite or below 0, or when the grid over the world's ground would have more than
/// 16,777,216 cells (4,096 × 4,096; about 10 bytes a cell): use a larger cell.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_set_flow_cell_size(world: BoidsWorldId, cell: f32) -> BoidsResult {
    boundary(|| registry::with_world(world, |w| Ok(w.set_flow_cell_size(cell)?)))
}

/// Writes the width of the cells of the world's flow fields (0: none) to `out_cell`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_cell` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_get_flow_cell_size(
    world: BoidsWorldId,
    out_cell: *mut f32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_cell, "out_cell")?;
        let cell = registry::with_world_shared(world, |w| Ok(w.flow_cell_size()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_cell, cell) };
        Ok(())
    })
}

/// Sets how much work a step may spend building flow fields, in units of about the time
/// Dijkstra takes to settle one cell on one thread (about 17 ns on an AMD EPYC Zen 4; a field
/// takes about 1.2 units a cell; its two halves each take at most the budget, side by side on
/// two threads, the distances' at most one window of distances more: the cells of one front).
/// 0, the default: no limit, a field is built whole in the step that first needs it. With a
/// budget, a field to a target's new cell is built over as many steps as it takes, and
/// meanwhile the flock reads the last whole field it read (to the target's earlier cell), or
/// seeks in a straight line if it has read none; a flock whose target moves on keeps waiting
/// for the field it waits for, so every field is finished however fast the target moves. The
/// terrain's survey (fields first built, the scene or a flock's ground settings changed) is
/// built a budget at a time too (about 10 units a cell), before its fields. Counted in units,
/// never in time: the same bits on every machine and thread count; a save holds where each
/// survey and build stands.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_set_flow_budget(world: BoidsWorldId, units: u32) -> BoidsResult {
    boundary(|| registry::with_world(world, |w| Ok(w.set_flow_budget(units)?)))
}

/// Writes the work a step may spend building flow fields (0: no limit) to `out_units`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_units` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_get_flow_budget(
    world: BoidsWorldId,
    out_units: *mut u32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_units, "out_units")?;
        let units = registry::with_world_shared(world, |w| Ok(w.flow_budget()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_units, units) };
        Ok(())
    })
}

/// Writes the height of the highest ground surface at `(x, z)` to `out_height`: of the
/// obstacles placed as ground (`ground` = 1: the meshes and heightfields grounded flocks walk
/// on), as a flow field's terrain surveys it. For placing things on the ground, such as a
/// target or a flow field's overlay (`boids_flock_read_flow_directions` gives no heights).
/// `BOIDS_RESULT_NOT_FOUND` where no ground lies under the point;
/// `BOIDS_RESULT_INVALID_ARGUMENT` when `x` or `z` is NaN, infinite or beyond 1e9.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_height` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_get_ground_height(
    world: BoidsWorldId,
    x: f32,
    z: f32,
    out_height: *mut f32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_height, "out_height")?;
        let h = registry::with_world_shared(world, |w| Ok(w.ground_height(x, z)?))?;
        let h = h.ok_or_else(|| {
            Fail::new(BoidsResult::NotFound, format!("no ground under ({x}, {z})"))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_height, h) };
        Ok(())
    })
}

/// The flow field flock `id` read in the last step, or `BOIDS_RESULT_NOT_FOUND`.
fn field_of(w: &World, id: FlockId) -> Result<&boids_sim::FlowField, Fail> {
    w.flow_field(id).ok_or_else(|| {
        Fail::new(
            BoidsResult::NotFound,
            "this flock read no flow field in the last step (no flow cell size, not grounded, no target, or no ground)",
        )
    })
}

/// Writes the grid of the flow field the flock read in the last step: the corner of least x
/// and z (`out_origin`, y 0), the cell width and the number of cells along x (`out_columns`)
/// and z (`out_rows`); cell `(i, k)` spans `origin + [i, i + 1] × cell` in x and
/// `[k, k + 1] × cell` in z, and the per-cell reads list cells row by row, x fastest.
/// `BOIDS_RESULT_NOT_FOUND` when the flock read none (no flow cell size, not grounded, no
/// target, no ground, or not stepped since).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// Each out-pointer is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_get_flow_grid(
    flock: BoidsFlockId,
    out_origin: *mut BoidsVec3,
    out_cell: *mut f32,
    out_columns: *mut u32,
    out_rows: *mut u32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_origin, "out_origin")?;
        need_out(out_cell, "out_cell")?;
        need_out(out_columns, "out_columns")?;
        need_out(out_rows, "out_rows")?;
        let grid = with_flock(flock, |w, id| Ok(field_of(w, id)?.grid))?;
        // SAFETY: all checked non-null.
        unsafe {
            write(
                out_origin,
                BoidsVec3 {
                    x: grid.origin[0],
                    y: 0.0,
                    z: grid.origin[1],
                },
            );
            write(out_cell, grid.cell);
            write(out_columns, grid.size[0]);
            write(out_rows, grid.size[1]);
        }
        Ok(())
    })
}

/// Copies one value a cell of the flock's flow field (row by row, x fastest) into `out`.
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
unsafe fn read_cells<T>(
    flock: BoidsFlockId,
    out: *mut T,
    capacity: usize,
    out_count: *mut usize,
    value: impl Fn(&boids_sim::FlowField, usize) -> T,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        with_flock(flock, |w, id| {
            let f = field_of(w, id)?;
            let n = f.grid.cells();
            if capacity < n {
                // SAFETY: checked non-null; the documented exception to "written only on
                // success".
                unsafe { write(out_count, n) };
                return Err(Fail::new(
                    BoidsResult::BufferTooSmall,
                    format!("buffer holds {capacity} entries, {n} cells needed"),
                ));
            }
            if n > 0 {
                // SAFETY: non-null (capacity >= n > 0) and holds `capacity` entries.
                let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
                for (c, d) in dst.iter_mut().enumerate() {
                    *d = value(f, c);
                }
            }
            // SAFETY: checked non-null.
            unsafe { write(out_count, n) };
            Ok(())
        })
    })
}

/// Copies each cell's distance to the target along its field's way (world units; the way's
/// cost, which counts a cell beside a wall a little longer) into `out`, row by row, x fastest
/// (`boids_flock_get_flow_grid`); -1 where no way leads to the target. A closed cell (under
/// a wall, or too steep) holds the distance of its way out. Too small a buffer:
/// `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number of cells in `out_count`.
/// `BOIDS_RESULT_NOT_FOUND` when the flock read no field.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_flow_distances(
    flock: BoidsFlockId,
    out: *mut f32,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_cells(flock, out, capacity, out_count, |f, c| {
            f.distance_at(c).unwrap_or(-1.0)
        })
    }
}

/// Copies each cell's direction along its field's way (a unit horizontal vector; zero where
/// the way ends, at the target, or none leads) into `out`, row by row, x fastest; as
/// `boids_flock_read_flow_distances`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_flow_distances`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_flow_directions(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_cells(flock, out, capacity, out_count, |f, c| {
            let v = f.direction(c).unwrap_or_default();
            BoidsVec3 {
                x: v.x,
                y: v.y,
                z: v.z,
            }
        })
    }
}

/// Writes how many of the flock's boids are at its target to `out_count`: within its arrival
/// radius of it (or without one the target's avoid distance, or without that its perception
/// radius), measured in the horizontal plane for a grounded flock. `BOIDS_RESULT_NOT_FOUND`
/// when the flock has no target. Allowed while a step is in flight (the state before it).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_count` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_count_at_target(
    flock: BoidsFlockId,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        let n = with_flock_in_flight(flock, |w, id| {
            w.flock(id)
                .expect("checked")
                .at_target()
                .ok_or_else(|| Fail::new(BoidsResult::NotFound, "this flock has no target"))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_count, n) };
        Ok(())
    })
}
