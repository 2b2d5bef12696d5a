//! Relations between flocks, paths, leaders.

use crate::boundary::boundary;
use crate::convert::*;
use crate::registry;
use crate::types::*;
use boids_sim::RelationKind;

// ---------------------------------------------------------------------------------------------
// Interactions, paths, leaders

/// Sets how flock `from` reacts to flock `to` (`BOIDS_RELATION_*`) within `radius`, with
/// `weight`: flee or chase the nearest of its boids with prediction, avoid them, or move with
/// them. Replaces the earlier relation of that ordered pair; `BOIDS_RELATION_IGNORE` removes it.
/// Both flocks must be in `world`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_set_relation(
    world: BoidsWorldId,
    from: BoidsFlockId,
    to: BoidsFlockId,
    kind: i32,
    radius: f32,
    weight: f32,
) -> BoidsResult {
    boundary(|| {
        let kind = choice::<RelationKind>("kind", kind)?;
        registry::with_world(world, |w| {
            for id in [from, to] {
                if id.world != world || id.index == 0 || !w.is_valid(flock_id(id)) {
                    return Err(flock_err(id));
                }
            }
            Ok(w.set_relation(flock_id(from), flock_id(to), kind, radius, weight)?)
        })
    })
}

/// Sets the polyline (`count` points, copied) the flock follows with `weight_path`; `closed` 1
/// loops back to the first point. Fewer than two points clears the path.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `points` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_path(
    flock: BoidsFlockId,
    points: *const BoidsVec3,
    count: usize,
    closed: i32,
) -> BoidsResult {
    boundary(|| {
        if count > 1 << 20 {
            return Err(bad(format!(
                "a path holds at most {} points, got {count}",
                1 << 20
            )));
        }
        let closed = flag("closed", closed)?;
        // SAFETY: documented contract; count bounded above.
        let pts = unsafe { slice(points, count, "points") }?;
        let pts = vec3s(pts, "points")?;
        with_flock(flock, |w, id| Ok(w.set_path(id, &pts, closed)?))
    })
}

/// Makes boid `boid_id` of the flock its leader: the flock's target follows it at `offset` in
/// the leader's frame (+Z ahead, +Y up; `{0, 0, -2}` = two units behind), and the leader ignores
/// the target. Followers steer with `weight_target` (and `arrival_radius`).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_set_leader(
    flock: BoidsFlockId,
    boid_id: u32,
    offset: BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        with_flock(flock, |w, id| {
            Ok(w.set_leader(id, Some((boid_id, v3(offset))))?)
        })
    })
}

/// Stops leader following.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_clear_leader(flock: BoidsFlockId) -> BoidsResult {
    boundary(|| with_flock(flock, |w, id| Ok(w.set_leader(id, None)?)))
}
