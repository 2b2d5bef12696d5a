//! Flocks: create, find, destroy, parameters, target, bounds, wake region, spawn, resize.

use crate::boundary::{Fail, boundary, boundary_value};
use crate::convert::*;
use crate::registry;
use crate::types::*;
use std::ffi::c_char;

// ---------------------------------------------------------------------------------------------
// Flocks

/// Creates a flock from `def` (from `boids_default_flock_def()`, with `name` set). The name is
/// copied. On success writes the id to `out_flock`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` and `out_flock` are NULL or valid; `def->name` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_create(
    world: BoidsWorldId,
    def: *const BoidsFlockDef,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let d = unsafe { read(def, "def") }?;
        need_out(out_flock, "out_flock")?;
        if d.internal_cookie != FLOCK_DEF_COOKIE {
            return Err(Fail::new(
                BoidsResult::InvalidDef,
                "flock def was not initialised by boids_default_flock_def()",
            ));
        }
        // SAFETY: documented contract.
        let name = unsafe { text(d.name, "def.name") }?;
        let params = params_from_c(&d.params)?;
        let id = registry::with_entry(world, |e| {
            let id = e.world.create_flock(name, params)?;
            e.raw.insert(id, d.params);
            Ok(id)
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Creates a flock from a preset (see `boids presets`, e.g. "fish-tank"), with the preset's
/// boids, named `name`. Unknown preset: `BOIDS_RESULT_NOT_FOUND`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `preset` and `name` are NULL or NUL-terminated; `out_flock` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_create_preset(
    world: BoidsWorldId,
    preset: *const c_char,
    name: *const c_char,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let preset = unsafe { text(preset, "preset") }?;
        // SAFETY: documented contract.
        let name = unsafe { text(name, "name") }?;
        need_out(out_flock, "out_flock")?;
        let p = boids_sim::presets::find(preset).ok_or_else(|| {
            Fail::new(BoidsResult::NotFound, format!("no preset named '{preset}'"))
        })?;
        let id = registry::with_world(world, |w| Ok(p.create(w, name)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Destroys a flock; its id goes stale. Twice: `BOIDS_RESULT_INVALID_ID`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_destroy(flock: BoidsFlockId) -> BoidsResult {
    boundary(|| {
        with_flock_entry(flock, |e, id| {
            e.world.destroy_flock(id)?;
            e.raw.remove(&id);
            Ok(())
        })
    })
}

/// 1 while `flock` names a live flock, else 0 (also 0 while its world is busy in another
/// thread). Allowed while a step is in flight.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_is_valid(flock: BoidsFlockId) -> i32 {
    boundary_value(0, || {
        i32::from(with_flock_in_flight(flock, |_, _| Ok(())).is_ok())
    })
}

/// Finds a flock by name. Not found: `BOIDS_RESULT_NOT_FOUND`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `name` is NULL or NUL-terminated; `out_flock` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_find(
    world: BoidsWorldId,
    name: *const c_char,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let name = unsafe { text(name, "name") }?;
        need_out(out_flock, "out_flock")?;
        let id = registry::with_world_shared(world, |w| {
            w.find_flock(name)
                .ok_or_else(|| Fail::new(BoidsResult::NotFound, format!("no flock named '{name}'")))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Reads a flock's parameters (with the current target point).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_params` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_get_params(
    flock: BoidsFlockId,
    out_params: *mut BoidsFlockParams,
) -> BoidsResult {
    boundary(|| {
        need_out(out_params, "out_params")?;
        let p = with_flock_entry_shared(flock, |e, id| {
            let f = e.world.flock(id).expect("checked");
            Ok(keep_unused(
                params_to_c(f.params(), f.target()),
                e.raw.get(&id),
            ))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_params, p) };
        Ok(())
    })
}

/// Replaces a flock's parameters, live. Every field is validated first; on error nothing
/// changes and the message names the field.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `params` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_params(
    flock: BoidsFlockId,
    params: *const BoidsFlockParams,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let c = unsafe { read(params, "params") }?;
        let p = params_from_c(&c)?;
        with_flock_entry(flock, |e, id| {
            e.world.set_params(id, p)?;
            if p.target.is_some() {
                e.world.set_target(id, v3(c.target_point))?;
            }
            e.raw.insert(id, c);
            Ok(())
        })
    })
}

/// Moves the flock's target (its params must have `has_target = 1`).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_set_target(flock: BoidsFlockId, point: BoidsVec3) -> BoidsResult {
    boundary(|| with_flock(flock, |w, id| Ok(w.set_target(id, v3(point))?)))
}

/// Replaces only the flock's bounds.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `bounds` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_bounds(
    flock: BoidsFlockId,
    bounds: *const BoidsBounds,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let b = unsafe { read(bounds, "bounds") }?;
        with_flock_entry(flock, |e, id| {
            let f = e.world.flock(id).expect("checked");
            let mut c = keep_unused(params_to_c(f.params(), f.target()), e.raw.get(&id));
            c.bounds = b;
            let p = params_from_c(&c)?;
            e.world.set_params(id, p)?;
            e.raw.insert(id, c);
            Ok(())
        })
    })
}

/// Sets the box the observer must be in for the flock to move; NULL for both clears it.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `min` and `max` are both NULL or both readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_wake_region(
    flock: BoidsFlockId,
    min: *const BoidsVec3,
    max: *const BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        let region = match (min.is_null(), max.is_null()) {
            (true, true) => None,
            (false, false) => {
                // SAFETY: both non-null, readable per the contract.
                let (lo, hi) = unsafe { (read(min, "min")?, read(max, "max")?) };
                Some((v3(lo), v3(hi)))
            }
            _ => return Err(null("one of min and max")),
        };
        with_flock(flock, |w, id| Ok(w.set_wake_region(id, region)?))
    })
}

/// Writes the flock's name, UTF-8 and NUL-terminated, to `out` (room for `capacity` bytes,
/// the NUL included), and its length in bytes (the NUL not included) to `out_len`. When `out`
/// is too small (a NULL `out` with `capacity` 0 asks for the length), returns
/// `BOIDS_RESULT_BUFFER_TOO_SMALL`, writes the length to `out_len` and nothing to `out`.
/// Allowed while a step is in flight.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out` is NULL or holds `capacity` writable bytes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_name(
    flock: BoidsFlockId,
    out: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_len, "out_len")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        let name = with_flock_in_flight(flock, |w, id| {
            Ok(w.flock(id).expect("checked").name().to_owned())
        })?;
        // SAFETY: checked non-null; the length is written on success and on BUFFER_TOO_SMALL.
        unsafe { write(out_len, name.len()) };
        if capacity < name.len() + 1 {
            return Err(Fail::new(
                BoidsResult::BufferTooSmall,
                format!(
                    "buffer holds {capacity} bytes, the name needs {} (with its NUL)",
                    name.len() + 1
                ),
            ));
        }
        // SAFETY: `out` holds at least `name.len() + 1` bytes (checked above), per the contract,
        // and never overlaps our string.
        unsafe {
            std::ptr::copy_nonoverlapping(name.as_ptr(), out.cast::<u8>(), name.len());
            *out.add(name.len()) = 0;
        }
        Ok(())
    })
}

/// Writes 1 to `out_asleep` if the last step skipped the flock (observer outside its wake
/// region), else 0.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_asleep` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_is_asleep(
    flock: BoidsFlockId,
    out_asleep: *mut i32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_asleep, "out_asleep")?;
        let a = with_flock_entry_shared(flock, |e, id| {
            Ok(e.world.flock(id).expect("checked").is_asleep())
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_asleep, i32::from(a)) };
        Ok(())
    })
}

/// Spawns `count` boids as `spawn` says (from `boids_default_spawn_def()`); writes the first new
/// id to `out_first_id` (ids are consecutive). At most 16,777,216 boids per flock.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `spawn` is NULL or readable; `out_first_id` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_spawn(
    flock: BoidsFlockId,
    count: u32,
    spawn: *const BoidsSpawnDef,
    out_first_id: *mut u32,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let s = spawn_from_c(&unsafe { read(spawn, "spawn") }?)?;
        need_out(out_first_id, "out_first_id")?;
        let first = with_flock(flock, |w, id| Ok(w.spawn(id, count as usize, &s)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_first_id, first) };
        Ok(())
    })
}

/// Grows (spawning per `spawn`) or shrinks (removing the newest boids) the flock to `count`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `spawn` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_resize(
    flock: BoidsFlockId,
    count: u32,
    spawn: *const BoidsSpawnDef,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let s = spawn_from_c(&unsafe { read(spawn, "spawn") }?)?;
        with_flock(flock, |w, id| Ok(w.resize_flock(id, count as usize, &s)?))
    })
}

/// Adds `count` boids with the given positions and velocities (both arrays of `count`); writes
/// the first new id to `out_first_id`. All values must be finite.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `positions` and `velocities` are NULL (only with count 0) or hold `count` readable entries;
/// `out_first_id` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_add_boids(
    flock: BoidsFlockId,
    positions: *const BoidsVec3,
    velocities: *const BoidsVec3,
    count: usize,
    out_first_id: *mut u32,
) -> BoidsResult {
    boundary(|| {
        // Refuse absurd counts before forming any slice from the caller's pointers.
        if count > boids_sim::MAX_BOIDS_PER_FLOCK {
            return Err(bad(format!(
                "count {count} exceeds the {} boids a flock can hold",
                boids_sim::MAX_BOIDS_PER_FLOCK
            )));
        }
        // SAFETY: documented contract.
        let p = unsafe { slice(positions, count, "positions") }?;
        // SAFETY: documented contract.
        let v = unsafe { slice(velocities, count, "velocities") }?;
        need_out(out_first_id, "out_first_id")?;
        let p = vec3s(p, "positions")?;
        let v = vec3s(v, "velocities")?;
        let first = with_flock(flock, |w, id| Ok(w.add_boids(id, &p, &v)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_first_id, first) };
        Ok(())
    })
}

/// Removes the boids with these ids (all or nothing: an unknown id removes none). Writes how
/// many were removed (duplicates count once) to `out_removed` (may be NULL).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `ids` is NULL (only with count 0) or holds `count` entries; `out_removed` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_remove_boids(
    flock: BoidsFlockId,
    ids: *const u32,
    count: usize,
    out_removed: *mut usize,
) -> BoidsResult {
    boundary(|| {
        if count > boids_sim::MAX_BOIDS_PER_FLOCK {
            return Err(bad(format!(
                "count {count} exceeds the {} ids a call may pass",
                boids_sim::MAX_BOIDS_PER_FLOCK
            )));
        }
        // SAFETY: documented contract.
        let ids = unsafe { slice(ids, count, "ids") }?;
        let n = with_flock(flock, |w, id| Ok(w.remove_boids(id, ids)?))?;
        if !out_removed.is_null() {
            // SAFETY: non-null, writable per the contract.
            unsafe { write(out_removed, n) };
        }
        Ok(())
    })
}
