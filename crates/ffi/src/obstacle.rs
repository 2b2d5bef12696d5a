//! Obstacles every flock of a world avoids.

use crate::boundary::boundary;
use crate::convert::*;
use crate::registry;
use crate::types::*;

// ---------------------------------------------------------------------------------------------
// Obstacles

/// Adds an obstacle every flock of the world avoids (per its params).
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
        let shape = obstacle_from_c(&unsafe { read(def, "def") }?)?;
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

/// Replaces (moves) an obstacle's shape.
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
        let shape = obstacle_from_c(&unsafe { read(def, "def") }?)?;
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
