//! A flock's boids as arrays: count, add, remove, read and write.

use crate::boundary::{Fail, boundary};
use crate::convert::*;
use crate::types::*;
use boids_sim::{FlockId, World};

// ---------------------------------------------------------------------------------------------
// Flock data

/// Writes the number of boids to `out_count`. Allowed while a step is in flight (the count
/// before it).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_count` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_count(
    flock: BoidsFlockId,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        let n = with_flock_in_flight(flock, |w, id| Ok(w.flock(id).expect("checked").len()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_count, n) };
        Ok(())
    })
}

/// Shared body of the bulk reads: checks the buffer, then fills it on the locked world.
///
/// # Safety
/// `out` is NULL or holds `capacity` writable `T`s; `out_count` NULL or writable.
unsafe fn read_bulk<T>(
    flock: BoidsFlockId,
    out: *mut T,
    capacity: usize,
    out_count: *mut usize,
    fill: impl FnOnce(&World, FlockId, &mut [T]) -> Result<(), Fail>,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    boundary(|| unsafe { fill_bulk(flock, out, capacity, out_count, fill) })
}

/// [`read_bulk`] inside a boundary the caller holds (for reads that check more arguments).
///
/// # Safety
/// As [`read_bulk`].
unsafe fn fill_bulk<T>(
    flock: BoidsFlockId,
    out: *mut T,
    capacity: usize,
    out_count: *mut usize,
    fill: impl FnOnce(&World, FlockId, &mut [T]) -> Result<(), Fail>,
) -> Result<(), Fail> {
    need_out(out_count, "out_count")?;
    if out.is_null() && capacity > 0 {
        return Err(null("out"));
    }
    with_flock_in_flight(flock, |w, id| {
        let n = w.flock(id).expect("checked").len();
        if capacity < n {
            // SAFETY: checked non-null; the documented exception to "written only on success".
            unsafe { write(out_count, n) };
            return Err(Fail::new(
                BoidsResult::BufferTooSmall,
                format!("buffer holds {capacity} entries, {n} needed"),
            ));
        }
        if n > 0 {
            // SAFETY: non-null (capacity >= n > 0) and holds `capacity` entries per contract.
            let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
            fill(w, id, dst)?;
        }
        // SAFETY: checked non-null.
        unsafe { write(out_count, n) };
        Ok(())
    })
}

/// Copies the positions (id order) into `out` (room for `capacity` entries); writes the number
/// copied to `out_count`. Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number needed in
/// `out_count`. No allocation. Allowed while a step is in flight
/// (`boids_world_step_begin`): it reads the state before the step, on the calling thread.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_positions(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            let _ = w.read_positions(id, dst)?;
            Ok(())
        })
    }
}

/// Copies the velocities (id order); as `boids_flock_read_positions`. Allowed while a step
/// is in flight.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_velocities(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            let _ = w.read_velocities(id, dst)?;
            Ok(())
        })
    }
}

/// Copies the ids (ascending; the order of every other read); as
/// `boids_flock_read_positions`. Allowed while a step is in flight.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_ids(
    flock: BoidsFlockId,
    out: *mut u32,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            let _ = w.read_ids(id, dst)?;
            Ok(())
        })
    }
}

/// Writes each boid's orientation, Unity's `LookRotation(heading)`, as x, y, z, w; as
/// `boids_flock_read_positions`. Within 1 ulp of the exact quaternion. Computed on the
/// world's threads for a flock of 65,536 boids or more, else on the calling thread (always
/// while a step is in flight, which it may be: it reads the state before it).
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_orientations(
    flock: BoidsFlockId,
    out: *mut BoidsQuat,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            // SAFETY: BoidsQuat is repr(C) of exactly four f32 (x, y, z, w), size 16, align 4,
            // the same layout as [f32; 4] (never cast to glam's Quat, which needs align 16 and
            // callers' buffers need not have it); the slice covers exactly `dst`.
            let q: &mut [[f32; 4]] =
                std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[f32; 4]>(), dst.len());
            let _ = w.read_orientations(id, q)?;
            Ok(())
        })
    }
}

/// Writes each boid's 4×4 instance matrix, column-major (Unity's `Matrix4x4` memory layout):
/// rotation `LookRotation(heading)`, uniform `scale`, translation = position. Ready for
/// `Graphics.RenderMeshInstanced`. As `boids_flock_read_positions`; computed on the world's
/// threads for a flock of 65,536 boids or more, else on the calling thread (always while a
/// step is in flight, which it may be).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_matrices(
    flock: BoidsFlockId,
    scale: f32,
    out: *mut BoidsMat4,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            // SAFETY: BoidsMat4 is repr(C) of exactly [f32; 16]; the slice covers `dst`.
            let m: &mut [[f32; 16]] =
                std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[f32; 16]>(), dst.len());
            let _ = w.read_matrices(id, scale, m)?;
            Ok(())
        })
    }
}

/// As `boids_flock_read_matrices`, each matrix multiplied on the left by `*transform` (a 4×4
/// column-major matrix, every element finite and within `BOIDS_MAX_MAGNITUDE`): `transform ×
/// boid`. For a flock that lives in a parent object's local space (Unity: pass the object's
/// `localToWorldMatrix`), drawn without a pass over the matrices on the host. Drawing only: the
/// product is not part of the model's state. A bad `transform` or `scale` is
/// `BOIDS_RESULT_INVALID_ARGUMENT`; a NULL `transform` is `BOIDS_RESULT_NULL_POINTER`. Allowed
/// while a step is in flight.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `transform` is NULL or points to a readable `BoidsMat4`; otherwise as
/// `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_matrices_transformed(
    flock: BoidsFlockId,
    transform: *const BoidsMat4,
    scale: f32,
    out: *mut BoidsMat4,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: NULL or readable per contract.
        let t = unsafe { read(transform, "transform") }?;
        // SAFETY: forwarded contract.
        unsafe {
            fill_bulk(flock, out, capacity, out_count, |w, id, dst| {
                // SAFETY: BoidsMat4 is repr(C) of exactly [f32; 16]; the slice covers `dst`.
                let m: &mut [[f32; 16]] =
                    std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[f32; 16]>(), dst.len());
                let _ = w.read_matrices_transformed(id, &t.m, scale, m)?;
                Ok(())
            })
        }
    })
}

/// Overwrites every boid's position (id order; `count` must equal the flock's count).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `positions` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_write_positions(
    flock: BoidsFlockId,
    positions: *const BoidsVec3,
    count: usize,
) -> BoidsResult {
    // SAFETY: documented contract, passed on.
    unsafe { write_vectors(flock, positions, count, "positions") }
}

/// Overwrites every boid's velocity (id order; `count` must equal the flock's count).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `velocities` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_write_velocities(
    flock: BoidsFlockId,
    velocities: *const BoidsVec3,
    count: usize,
) -> BoidsResult {
    // SAFETY: documented contract, passed on.
    unsafe { write_vectors(flock, velocities, count, "velocities") }
}

/// Overwrites every boid's positions or velocities (`what`) from a caller array.
///
/// # Safety
/// `data` is NULL (only with count 0) or holds `count` readable entries.
unsafe fn write_vectors(
    flock: BoidsFlockId,
    data: *const BoidsVec3,
    count: usize,
    what: &str,
) -> BoidsResult {
    boundary(|| {
        with_flock(flock, |w, id| {
            let n = w.flock(id).expect("checked").len();
            if count != n {
                return Err(bad(format!(
                    "write {what}: got {count} values for {n} boids"
                )));
            }
            // SAFETY: the caller's contract (checked above that `count` is the flock's size).
            let v = unsafe { slice(data, count, what) }?;
            let v = vec3s(v, what)?;
            let (p, v) = if what == "positions" {
                (Some(&v[..]), None)
            } else {
                (None, Some(&v[..]))
            };
            Ok(w.write_state(id, p, v)?)
        })
    })
}
