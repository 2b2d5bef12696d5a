//! Worlds: create, destroy, step, hash, list their flocks, the observer.

use crate::boundary::{Fail, Res, boundary, boundary_value};
use crate::convert::*;
use crate::host::HostExec;
use crate::registry;
use crate::types::*;
use boids_sim::{Exec, World, WorldConfig};
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// World

/// What a world def asks for, checked (the def came from its default function, a thread count
/// the library can start, a complete task interface): the configuration, and the host's job
/// system when it names one.
///
/// # Safety
/// `def` is NULL or a valid pointer.
unsafe fn world_config(
    def: *const BoidsWorldDef,
) -> Result<(WorldConfig, Option<Arc<HostExec>>), Fail> {
    // SAFETY: the caller's contract.
    let d = unsafe { read(def, "def") }?;
    if d.internal_cookie != WORLD_DEF_COOKIE {
        return Err(Fail::new(
            BoidsResult::InvalidDef,
            "world def was not initialised by boids_default_world_def()",
        ));
    }
    if d.threads > 1024 {
        return Err(bad(format!("threads must be 0..=1024, got {}", d.threads)));
    }
    let config = WorldConfig {
        seed: d.seed,
        threads: d.threads as usize,
        ..WorldConfig::default()
    };
    match (d.enqueue_task.is_some(), d.finish_task.is_some()) {
        (false, false) => {
            if d.worker_count != 0 {
                return Err(bad(format!(
                    "worker_count is {} but enqueue_task and finish_task are NULL (worker_count \
                     counts the host's workers; the engine's own are set by threads)",
                    d.worker_count
                )));
            }
            Ok((config, None))
        }
        (true, true) => {
            if !(1..=1024).contains(&d.worker_count) {
                return Err(bad(format!(
                    "worker_count must be 1..=1024 with a host's job system, got {}",
                    d.worker_count
                )));
            }
            if d.threads != 0 {
                return Err(bad(format!(
                    "threads must be 0 when the host's job system runs the work (enqueue_task \
                     is set), got {}",
                    d.threads
                )));
            }
            let host = HostExec::new(
                d.enqueue_task,
                d.finish_task,
                d.user_context,
                d.worker_count,
            )
            .expect("both set");
            Ok((config, Some(Arc::new(host))))
        }
        _ => Err(bad(
            "enqueue_task and finish_task must be set together (or both NULL)",
        )),
    }
}

/// A new world as the def says.
fn new_world(config: WorldConfig, host: Option<Arc<dyn Exec>>) -> Result<World, Fail> {
    Ok(match host {
        Some(e) => World::with_exec(config, e)?,
        None => World::new(config)?,
    })
}

/// Creates a world. `def` must come from `boids_default_world_def()`; it is only read.
/// On success writes the new id to `out_world`. The world lives until `boids_world_destroy`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` and `out_world` are NULL or valid pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_create(
    def: *const BoidsWorldDef,
    out_world: *mut BoidsWorldId,
) -> BoidsResult {
    boundary(|| -> Res {
        // SAFETY: documented contract.
        let (config, host) = unsafe { world_config(def) }?;
        let key = host.as_ref().map_or(0, |h| h.key());
        need_out(out_world, "out_world")?;
        let world = new_world(config, host.map(|h| h as Arc<dyn Exec>))?;
        let id = registry::insert(world, key)?;
        // SAFETY: checked non-null above.
        unsafe { write(out_world, id) };
        Ok(())
    })
}

/// Destroys a world and everything in it; its id and every flock and obstacle id in it go
/// stale. A step in flight (`boids_world_step_begin`) is cancelled: one no worker has started
/// never runs (the host is handed none of its tasks), one a worker is running is waited for;
/// either way its result is dropped. With a host's job system, it then waits for the
/// calls the host still owes the world's tasks while the host keeps making calls (at most one
/// second without any) and finishes their handles (see `BoidsFinishTaskFn`); the host's
/// callbacks are never called after this returns.
/// Destroying twice returns `BOIDS_RESULT_INVALID_ID`; while another thread is inside a
/// call on the world, or from inside the world's own step (the host's `enqueue_task` or
/// `finish_task`), `BOIDS_RESULT_BUSY` (nothing destroyed).
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_destroy(world: BoidsWorldId) -> BoidsResult {
    boundary(|| registry::remove(world))
}

/// 1 while `world` names a live world, else 0. Thread-safe; allowed while a step is in flight.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_is_valid(world: BoidsWorldId) -> i32 {
    boundary_value(0, || i32::from(registry::is_valid(world)))
}

/// Advances every flock of the world by `dt` seconds (0 < dt <= 1). Runs on the world's
/// workers (its pool, or the host's job system named in its def) and returns when done. The
/// result is bit-identical for any thread count and for `boids_world_step_begin` then
/// `boids_world_step_end`.
/// Threads: call from any thread; while it runs, other calls on this world from other threads
/// return `BOIDS_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step(world: BoidsWorldId, dt: f32) -> BoidsResult {
    boundary(|| registry::with_world(world, |w| Ok(w.step(dt)?)))
}

/// Starts a step of `dt` seconds (0 < dt <= 1) on the world's workers and returns at once: the
/// step runs while the caller does other work (renders a frame). Until
/// `boids_world_step_end`, the world's boid reads are allowed and see the state before the
/// step: `boids_flock_count`, `boids_flock_read_positions`, `_velocities`, `_ids`,
/// `_orientations`, `_matrices` and `_matrices_transformed` (and `boids_world_is_valid`,
/// `boids_world_is_stepping`, `boids_flock_is_valid`). Any number of threads may read at once.
/// Every other call on the world returns `BOIDS_RESULT_BUSY` and changes nothing.
/// `boids_world_destroy` cancels the step (or waits for it, once a worker runs it). A bad `dt` or a step already in flight is refused
/// and nothing starts. The state after `boids_world_step_end` is bit-identical to
/// `boids_world_step`'s.
/// With a host's job system (`BoidsWorldDef::enqueue_task`), the step runs as one task of the
/// host's, which enqueues the step's own tasks from its worker; if no worker has started it by
/// `boids_world_step_end`, it runs there (also when the thread that ends it is the worker that
/// holds the task, which then finds nothing left). A worker that takes the task and ends the
/// step before this call has returned waits for it.
/// Threads: any thread; while another thread changes the world, `BOIDS_RESULT_BUSY` (reads on
/// other threads wait for it instead).
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step_begin(world: BoidsWorldId, dt: f32) -> BoidsResult {
    boundary(|| registry::step_begin(world, dt, 1))
}

/// Starts `count` steps of `dt` seconds each (0 < dt <= 1, count >= 1) on the world's workers
/// and returns at once: `boids_world_step_begin` for several fixed steps, so that a frame
/// longer than the step (30 frames a second with a 1/60 s step) runs all of its steps while
/// the caller renders. The state after `boids_world_step_end` is bit-identical to `count`
/// calls of `boids_world_step`. Everything `boids_world_step_begin` says holds: until
/// `boids_world_step_end` the boid reads see the state before the first step, every other
/// call returns `BOIDS_RESULT_BUSY`, `boids_world_destroy` cancels the steps not yet started.
/// `count` 0, a bad `dt` or a step already in flight is refused (`INVALID_ARGUMENT`, or `BUSY`
/// while a step is in flight) and nothing starts; 1 is `boids_world_step_begin`.
/// If step k fails, `boids_world_step_end` returns `BOIDS_RESULT_PANIC` with the k steps
/// before it installed (as k calls of `boids_world_step` would have left the world).
/// Threads: as `boids_world_step_begin`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step_begin_n(
    world: BoidsWorldId,
    dt: f32,
    count: u32,
) -> BoidsResult {
    boundary(|| registry::step_begin(world, dt, count))
}

/// Waits for the step `boids_world_step_begin` started and makes its result the world's state.
/// Returns:
/// - `BOIDS_RESULT_OK`: the step's result is the world's state;
/// - `BOIDS_RESULT_PANIC`: the step failed (an internal panic, or a host job system that broke
///   its contract: see `BoidsFinishTaskFn`); the world keeps the state before it, and no step
///   is in flight any more;
/// - `BOIDS_RESULT_INVALID_ARGUMENT`: no step is in flight (never begun, or already ended by
///   another thread); nothing changes;
/// - `BOIDS_RESULT_INVALID_ID`: `world` is not a live world;
/// - `BOIDS_RESULT_BUSY` only when called from inside this world's own step (from the host's
///   `enqueue_task` or `finish_task`): the step goes on, end it from elsewhere.
///
/// It never returns `BUSY` because of other threads: reads running on other threads go on
/// while the step finishes, and the result is installed once they return. Two threads that
/// end one step: one gets `OK`, the other waits for it and gets `INVALID_ARGUMENT`. It never
/// waits for a host's job system: a step no worker has started runs here.
/// Threads: any thread (not necessarily the one that began the step), a host's worker
/// included, also one that holds the step's task.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step_end(world: BoidsWorldId) -> BoidsResult {
    boundary(|| registry::step_end(world))
}

/// Writes 1 to `out_stepping` while a step begun by `boids_world_step_begin` has not been
/// ended, else 0. Allowed while a step is in flight, and never `BOIDS_RESULT_BUSY`: it answers
/// whatever other threads are doing (a `boids_world_step_end` on another thread may end the
/// step just after).
/// Threads: any thread.
///
/// # Safety
/// `out_stepping` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_is_stepping(
    world: BoidsWorldId,
    out_stepping: *mut i32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_stepping, "out_stepping")?;
        let s = i32::from(registry::is_stepping(world)?);
        // SAFETY: checked non-null.
        unsafe { write(out_stepping, s) };
        Ok(())
    })
}

/// Writes a 64-bit hash of the whole world state (for determinism checks) to `out_hash`: every
/// flock's boids (ids, positions, velocities, headings, bit for bit) and, when the world has
/// any, its scene: every obstacle (kind, numbers, the shape data it places) and a digest of every
/// mesh and heightfield. (A world without obstacles or shape data hashes its boids only.)
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_hash` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_state_hash(
    world: BoidsWorldId,
    out_hash: *mut u64,
) -> BoidsResult {
    boundary(|| {
        need_out(out_hash, "out_hash")?;
        let h = registry::with_world_shared(world, |w| Ok(w.state_hash()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_hash, h) };
        Ok(())
    })
}

/// Writes to `out_digest` a 64-bit digest of the current state with every coordinate rounded
/// to `digits` significant digits (1..=9): unlike `boids_world_state_hash`, which is exact, it
/// ignores differences below the rounding, so it is the one to pin in a snapshot test meant to
/// hold across compilers and operating systems (docs/snapshot-testing.md).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `out_digest` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_rounded_digest(
    world: BoidsWorldId,
    digits: u32,
    out_digest: *mut u64,
) -> BoidsResult {
    boundary(|| {
        need_out(out_digest, "out_digest")?;
        if !(1..=9).contains(&digits) {
            return Err(bad(format!("digits must be 1..=9, got {digits}")));
        }
        let h = registry::with_world_shared(world, |w| Ok(w.rounded_digest(digits as usize)))?;
        // SAFETY: checked non-null.
        unsafe { write(out_digest, h) };
        Ok(())
    })
}

/// Saves the whole world (every flock, parameter, obstacle, relation, path, leader, observer,
/// the seed, the step count and every boid's full state) as bytes into `out` (room for
/// `capacity` bytes); writes the size to `out_len`. Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL`
/// with the size needed in `out_len`; NULL with capacity 0 asks for the size. The bytes are a
/// versioned file (magic `BOIDSAVE`, then a CBOR payload) that `boids_world_load` reads back
/// into a world that continues bit for bit as this one would. Parameter fields the current
/// settings do not use are not kept.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable bytes; `out_len` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_save(
    world: BoidsWorldId,
    out: *mut u8,
    capacity: usize,
    out_len: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_len, "out_len")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        let bytes = registry::with_world_shared(world, |w| Ok(w.save()))?;
        // SAFETY: forwarded contract; both pointers checked above.
        unsafe { copy_out(&bytes, out, capacity, out_len, "bytes") }
    })
}

/// Creates a world from bytes `boids_world_save` wrote (`len` bytes at `bytes`) and writes its
/// id to `out_world`. The seed, step count, flocks (with their names, parameters and boids),
/// obstacles and relations come from the bytes; `def` (from `boids_default_world_def()`)
/// gives who runs the steps, checked as `boids_world_create` checks it: the thread count, or
/// the host's job system (`enqueue_task`, `finish_task`, `worker_count`, `user_context`); its
/// `seed` is ignored. Flock ids keep their index and
/// generation under the new world id; `boids_flock_find` finds them by name. Bytes that are not
/// a save file, truncated, corrupt (checksum), of a newer format version, or holding a value
/// the API refuses: `BOIDS_RESULT_INVALID_ARGUMENT` with the reason, and no world is created.
/// Threads: any thread.
///
/// # Safety
/// `def` and `out_world` are NULL or valid pointers; `bytes` is NULL (only with `len` 0) or
/// holds `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_load(
    def: *const BoidsWorldDef,
    bytes: *const u8,
    len: usize,
    out_world: *mut BoidsWorldId,
) -> BoidsResult {
    boundary(|| -> Res {
        // SAFETY: documented contract.
        let (config, host) = unsafe { world_config(def) }?;
        let key = host.as_ref().map_or(0, |h| h.key());
        need_out(out_world, "out_world")?;
        // SAFETY: documented contract.
        let data = unsafe { slice(bytes, len, "bytes") }?;
        let world = match host {
            Some(e) => World::load_with_exec(data, config, e as Arc<dyn Exec>)?,
            None => World::load(data, config)?,
        };
        let id = registry::insert(world, key)?;
        // SAFETY: checked non-null above.
        unsafe { write(out_world, id) };
        Ok(())
    })
}

/// Copies the ids of the world's live flocks (in slot order) into `out` (room for `capacity`);
/// writes how many to `out_count`. Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number
/// needed in `out_count`; NULL with capacity 0 asks for the number.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_list_flocks(
    world: BoidsWorldId,
    out: *mut BoidsFlockId,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        let ids: Vec<BoidsFlockId> = registry::with_world_shared(world, |w| {
            Ok(w.flock_ids().map(|id| to_c_flock(world, id)).collect())
        })?;
        // SAFETY: forwarded contract; both pointers checked above.
        unsafe { copy_out(&ids, out, capacity, out_count, "flock ids") }
    })
}

/// Sets the observer point (the player): a flock with a wake region moves only while the
/// observer is inside it. NULL clears it (every flock awake).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `point` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_set_observer(
    world: BoidsWorldId,
    point: *const BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        let p = if point.is_null() {
            None
        } else {
            // SAFETY: non-null per the check; readable per the contract.
            Some(v3(unsafe { read(point, "point") }?))
        };
        registry::with_world(world, |w| Ok(w.set_observer(p)?))
    })
}
