//! Worlds: create, destroy, step, hash, list their flocks, the observer.

use crate::boundary::{Fail, Res, boundary, boundary_value};
use crate::convert::*;
use crate::registry;
use crate::types::*;
use boids_sim::{World, WorldConfig};

// ---------------------------------------------------------------------------------------------
// World

/// The configuration a world def asks for, checked (the def came from its default function,
/// a thread count the library can start).
///
/// # Safety
/// `def` is NULL or a valid pointer.
unsafe fn world_config(def: *const BoidsWorldDef) -> Result<WorldConfig, Fail> {
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
    Ok(WorldConfig {
        seed: d.seed,
        threads: d.threads as usize,
        ..WorldConfig::default()
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
        let config = unsafe { world_config(def) }?;
        need_out(out_world, "out_world")?;
        let world = World::new(config)?;
        let id = registry::insert(world)?;
        // SAFETY: checked non-null above.
        unsafe { write(out_world, id) };
        Ok(())
    })
}

/// Destroys a world and everything in it; its id and every flock and obstacle id in it go
/// stale. Destroying twice returns `BOIDS_RESULT_INVALID_ID`; while another thread is inside a
/// call on the world, `BOIDS_RESULT_BUSY` (nothing destroyed).
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_destroy(world: BoidsWorldId) -> BoidsResult {
    boundary(|| registry::remove(world))
}

/// 1 while `world` names a live world, else 0. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_is_valid(world: BoidsWorldId) -> i32 {
    boundary_value(0, || i32::from(registry::is_valid(world)))
}

/// Advances every flock of the world by `dt` seconds (0 < dt <= 1). Runs on the world's worker
/// threads and returns when done. The result is bit-identical for any thread count.
/// Threads: call from any thread; while it runs, other calls on this world from other threads
/// return `BOIDS_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step(world: BoidsWorldId, dt: f32) -> BoidsResult {
    boundary(|| registry::with_world(world, |w| Ok(w.step(dt)?)))
}

/// Writes a 64-bit hash of the whole world state (for determinism checks) to `out_hash`.
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
        let h = registry::with_world(world, |w| Ok(w.state_hash()))?;
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
        let h = registry::with_world(world, |w| Ok(w.rounded_digest(digits as usize)))?;
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
        let bytes = registry::with_world(world, |w| Ok(w.save()))?;
        // SAFETY: forwarded contract; both pointers checked above.
        unsafe { copy_out(&bytes, out, capacity, out_len, "bytes") }
    })
}

/// Creates a world from bytes `boids_world_save` wrote (`len` bytes at `bytes`) and writes its
/// id to `out_world`. The seed, step count, flocks (with their names, parameters and boids),
/// obstacles and relations come from the bytes; `def` (from `boids_default_world_def()`)
/// gives only the thread count (its `seed` is ignored). Flock ids keep their index and
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
        let config = unsafe { world_config(def) }?;
        need_out(out_world, "out_world")?;
        // SAFETY: documented contract.
        let data = unsafe { slice(bytes, len, "bytes") }?;
        let world = World::load(data, config)?;
        let id = registry::insert(world)?;
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
        let ids: Vec<BoidsFlockId> = registry::with_world(world, |w| {
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
