//! Helpers of every export: reading caller pointers, checking ids, and converting the C
//! structs to the engine's types and back.

use crate::boundary::Fail;
use crate::registry;
use crate::types::*;
use boids_sim::{
    Bounds, BoundsKind, CEnum, FlockId, FlockParams, Ground, GroundUp, MeshId, Obstacle,
    ObstacleId, ObstacleKind, Spawn, SpawnKind, SpawnShape, Target, TargetRelocation, Vec3,
    Weights, World,
};
use std::ffi::{CStr, c_char};

// Helpers

pub(crate) fn null(what: &str) -> Fail {
    Fail::new(BoidsResult::NullPointer, format!("{what} is NULL"))
}

pub(crate) fn bad(msg: impl Into<String>) -> Fail {
    Fail::new(BoidsResult::InvalidArgument, msg)
}

/// Reads `*p`, or fails with `NULL_POINTER` naming `what`.
///
/// # Safety
/// `p` is NULL or points to a readable `T`.
pub(crate) unsafe fn read<T: Copy>(p: *const T, what: &str) -> Result<T, Fail> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null, and the caller promises it points to a readable T.
    Ok(unsafe { p.read_unaligned() })
}

/// Writes `v` to `*p` (checked non-null before any work by the caller).
///
/// # Safety
/// `p` is non-null and points to a writable `T`.
pub(crate) unsafe fn write<T>(p: *mut T, v: T) {
    // SAFETY: the caller checked p is non-null; C promises it is writable.
    unsafe { p.write_unaligned(v) }
}

pub(crate) fn need_out<T>(p: *mut T, what: &str) -> Result<(), Fail> {
    if p.is_null() { Err(null(what)) } else { Ok(()) }
}

/// The size rule of every read into a caller buffer: writes `needed` to `out_count`, then
/// refuses with `BOIDS_RESULT_BUFFER_TOO_SMALL` (nothing else written) when `capacity` holds
/// fewer than `needed` entries of `what`.
///
/// # Safety
/// `out_count` is non-null and writable.
pub(crate) unsafe fn count_out(
    needed: usize,
    capacity: usize,
    out_count: *mut usize,
    what: &str,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract; the count is written on success and on BUFFER_TOO_SMALL.
    unsafe { write(out_count, needed) };
    if capacity < needed {
        return Err(Fail::new(
            BoidsResult::BufferTooSmall,
            format!("buffer holds {capacity} {what}, {needed} needed"),
        ));
    }
    Ok(())
}

/// Copies `items` into a caller buffer of `capacity` entries and writes how many to `out_count`.
/// Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number needed in `out_count` and the
/// buffer untouched. `what` names the entries in the message.
///
/// # Safety
/// `out_count` is writable; `out` holds `capacity` writable entries (any alignment) or is NULL
/// with `capacity == 0`.
pub(crate) unsafe fn copy_out<T: Copy>(
    items: &[T],
    out: *mut T,
    capacity: usize,
    out_count: *mut usize,
    what: &str,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract, forwarded.
    unsafe { count_out(items.len(), capacity, out_count, what) }?;
    if items.is_empty() {
        return Ok(()); // `out` may be NULL, which even a zero-length copy must not be given
    }
    // SAFETY: `out` holds at least `items.len()` entries, per the contract; copied as bytes, so
    // a caller buffer of any alignment is fine, and it never overlaps our slice.
    unsafe {
        std::ptr::copy_nonoverlapping(
            items.as_ptr().cast::<u8>(),
            out.cast::<u8>(),
            std::mem::size_of_val(items),
        );
    }
    Ok(())
}

/// A caller array as a slice; NULL is allowed only with `count == 0`.
///
/// # Safety
/// `p` is NULL or points to `count` readable `T`s that stay valid for the call.
pub(crate) unsafe fn slice<'a, T>(p: *const T, count: usize, what: &str) -> Result<&'a [T], Fail> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(null(what));
    }
    if count > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(bad(format!("{what}: count {count} is too large")));
    }
    // SAFETY: non-null, and the caller promises `count` readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, count) })
}

/// A C string argument as UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub(crate) unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null and NUL-terminated per the documented contract.
    let c = unsafe { CStr::from_ptr(p) };
    let s = c
        .to_str()
        .map_err(|_| bad(format!("{what} is not valid UTF-8")))?;
    if s.is_empty() || s.len() > 255 {
        return Err(bad(format!(
            "{what} must be 1..=255 bytes, got {}",
            s.len()
        )));
    }
    Ok(s)
}

pub(crate) fn flock_id(id: BoidsFlockId) -> FlockId {
    FlockId {
        index: id.index.wrapping_sub(1),
        generation: id.generation,
    }
}

pub(crate) fn flock_err(id: BoidsFlockId) -> Fail {
    Fail::new(
        BoidsResult::InvalidId,
        format!(
            "invalid flock id (index {}, generation {}): null, destroyed or never issued",
            id.index, id.generation
        ),
    )
}

/// Runs `f` on the flock's locked world, after checking the flock id.
pub(crate) fn with_flock<T>(
    id: BoidsFlockId,
    f: impl FnOnce(&mut World, FlockId) -> Result<T, Fail>,
) -> Result<T, Fail> {
    registry::with_world(id.world, |w| {
        let fid = flock_id(id);
        if id.index == 0 || !w.is_valid(fid) {
            return Err(flock_err(id));
        }
        f(w, fid)
    })
}

/// As [`with_flock`], also while a step is in flight (for the reads that see the state before
/// it).
pub(crate) fn with_flock_in_flight<T>(
    id: BoidsFlockId,
    f: impl FnOnce(&World, FlockId) -> Result<T, Fail>,
) -> Result<T, Fail> {
    registry::with_world_in_flight(id.world, |w| {
        let fid = flock_id(id);
        if id.index == 0 || !w.is_valid(fid) {
            return Err(flock_err(id));
        }
        f(w, fid)
    })
}

/// Runs `f` on the flock's locked world entry (the world and the C ABI's notes beside it), after
/// checking the flock id.
pub(crate) fn with_flock_entry<T>(
    id: BoidsFlockId,
    f: impl FnOnce(&mut registry::Entry, FlockId) -> Result<T, Fail>,
) -> Result<T, Fail> {
    registry::with_entry(id.world, |e| {
        let fid = flock_id(id);
        if id.index == 0 || !e.world.is_valid(fid) {
            return Err(flock_err(id));
        }
        f(e, fid)
    })
}

/// As [`with_flock_entry`] for a call that only reads (see `registry::with_entry_shared`).
pub(crate) fn with_flock_entry_shared<T>(
    id: BoidsFlockId,
    f: impl FnOnce(&registry::Entry, FlockId) -> Result<T, Fail>,
) -> Result<T, Fail> {
    registry::with_entry_shared(id.world, |e| {
        let fid = flock_id(id);
        if id.index == 0 || !e.world.is_valid(fid) {
            return Err(flock_err(id));
        }
        f(e, fid)
    })
}

/// A caller array of vectors as the engine's, allocated with `try_reserve`: a count too large
/// for memory is an error, not an abort.
pub(crate) fn vec3s(src: &[BoidsVec3], what: &str) -> Result<Vec<Vec3>, Fail> {
    let mut out = Vec::new();
    out.try_reserve_exact(src.len()).map_err(|_| {
        bad(format!(
            "{what}: cannot allocate memory for {} entries",
            src.len()
        ))
    })?;
    out.extend(src.iter().map(|&x| Vec3::from(x)));
    Ok(out)
}

pub(crate) fn v3(v: BoidsVec3) -> Vec3 {
    v.into()
}

/// A C enum value as the engine's enum, through its one table; the message names the field and
/// every allowed constant.
pub(crate) fn choice<T>(what: &str, value: i32) -> Result<T, Fail>
where
    T: CEnum + TryFrom<i32>,
{
    T::try_from(value).map_err(|_| {
        let allowed: Vec<String> = T::TABLE
            .iter()
            .map(|r| format!("{}{} ({})", T::C_PREFIX, r.3, r.1))
            .collect();
        bad(format!(
            "{what} must be one of {}, got {value}",
            allowed.join(", ")
        ))
    })
}

pub(crate) fn flag(what: &str, value: i32) -> Result<bool, Fail> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad(format!("{what} must be 0 or 1, got {value}"))),
    }
}

pub(crate) fn params_from_c(c: &BoidsFlockParams) -> Result<FlockParams, Fail> {
    check_unused(c)?;
    let b = &c.bounds;
    let bounds = match choice::<BoundsKind>("bounds.kind", b.kind)? {
        BoundsKind::None => Bounds::None,
        BoundsKind::SoftBox => Bounds::SoftBox {
            min: v3(b.min),
            max: v3(b.max),
            distance: b.distance,
        },
        BoundsKind::SoftSphere => Bounds::SoftSphere {
            centre: v3(b.centre),
            radius: b.radius,
            inner: b.inner,
        },
        BoundsKind::Wrap => Bounds::Wrap {
            min: v3(b.min),
            max: v3(b.max),
        },
        BoundsKind::Clamp => Bounds::Clamp {
            min: v3(b.min),
            max: v3(b.max),
        },
        BoundsKind::TurnBack => Bounds::TurnBack {
            min: v3(b.min),
            max: v3(b.max),
        },
    };
    // Checked even when the flock is not grounded: a value of no variant is never kept.
    let up: GroundUp = choice("ground_up", c.ground_up)?;
    let p = FlockParams {
        perception_radius: c.perception_radius,
        fov_half_angle_deg: c.fov_half_angle_deg,
        separation_radius: c.separation_radius,
        max_neighbours: c.max_neighbours,
        weights: Weights {
            separation: c.weight_separation,
            alignment: c.weight_alignment,
            cohesion: c.weight_cohesion,
            target: c.weight_target,
            target_avoid: c.weight_target_avoid,
            bounds: c.weight_bounds,
            obstacles: c.weight_obstacles,
            wander: c.weight_wander,
            path: c.weight_path,
        },
        separation: choice("separation_mode", c.separation_mode)?,
        alignment: choice("alignment_mode", c.alignment_mode)?,
        combine: choice("combine", c.combine)?,
        integrator: choice("integrator", c.integrator)?,
        min_speed: c.min_speed,
        max_speed: c.max_speed,
        max_force: c.max_force,
        max_turn_rate: c.max_turn_rate,
        velocity_smoothing: c.velocity_smoothing,
        drive_factor: c.drive_factor,
        bounds,
        plane: choice("plane", c.plane)?,
        target: if flag("has_target", c.has_target)? {
            Some(Target {
                point: v3(c.target_point),
                avoid_distance: c.target_avoid_distance,
            })
        } else {
            None
        },
        index: choice("index", c.index)?,
        obstacle_avoidance: choice("obstacle_avoidance", c.obstacle_avoidance)?,
        look_ahead: c.look_ahead,
        boid_radius: c.boid_radius,
        obstacle_overrides: flag("obstacle_overrides", c.obstacle_overrides)?,
        rule_probability: c.rule_probability,
        speed_change_probability: c.speed_change_probability,
        target_needs_neighbours: flag("target_needs_neighbours", c.target_needs_neighbours)?,
        target_relocation: if flag("has_target_relocation", c.has_target_relocation)? {
            Some(TargetRelocation {
                probability: c.target_relocation_probability,
                min: v3(c.target_relocation_min),
                max: v3(c.target_relocation_max),
            })
        } else {
            None
        },
        cohesion_smooth_time: c.cohesion_smooth_time,
        fallback_to_nearest: flag("fallback_to_nearest", c.fallback_to_nearest)?,
        wander_radius: c.wander_radius,
        wander_distance: c.wander_distance,
        wander_jitter: c.wander_jitter,
        arrival_radius: c.arrival_radius,
        path_lookahead: c.path_lookahead,
        update_every: c.update_every,
        sleep_distance: c.sleep_distance,
        ground: if flag("grounded", c.grounded)? {
            Some(Ground {
                max_slope_deg: c.ground_max_slope_deg,
                step_height: c.ground_step_height,
                pivot_height: c.ground_pivot_height,
                up,
            })
        } else {
            None
        },
        body_radius: c.body_radius,
    };
    p.validate()
        .map_err(|e| bad(format!("flock params: {e}")))?;
    Ok(p)
}

pub(crate) fn params_to_c(p: &FlockParams, target_now: Option<Vec3>) -> BoidsFlockParams {
    let ground = p.ground.unwrap_or_default();
    let mut b = BoidsBounds {
        kind: p.bounds.kind().into(),
        ..BoidsBounds::default()
    };
    match p.bounds {
        Bounds::None => {}
        Bounds::SoftBox { min, max, distance } => {
            b.min = min.into();
            b.max = max.into();
            b.distance = distance;
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => {
            b.centre = centre.into();
            b.radius = radius;
            b.inner = inner;
        }
        Bounds::Wrap { min, max } | Bounds::Clamp { min, max } | Bounds::TurnBack { min, max } => {
            b.min = min.into();
            b.max = max.into();
        }
    }
    let reloc = p.target_relocation;
    let w = &p.weights;
    BoidsFlockParams {
        perception_radius: p.perception_radius,
        fov_half_angle_deg: p.fov_half_angle_deg,
        separation_radius: p.separation_radius,
        max_neighbours: p.max_neighbours,
        weight_separation: w.separation,
        weight_alignment: w.alignment,
        weight_cohesion: w.cohesion,
        weight_target: w.target,
        weight_target_avoid: w.target_avoid,
        weight_bounds: w.bounds,
        weight_obstacles: w.obstacles,
        weight_wander: w.wander,
        separation_mode: p.separation.into(),
        alignment_mode: p.alignment.into(),
        combine: p.combine.into(),
        integrator: p.integrator.into(),
        min_speed: p.min_speed,
        max_speed: p.max_speed,
        max_force: p.max_force,
        max_turn_rate: p.max_turn_rate,
        velocity_smoothing: p.velocity_smoothing,
        drive_factor: p.drive_factor,
        bounds: b,
        plane: p.plane.into(),
        has_target: i32::from(p.target.is_some()),
        // NaN: "not set", so that has_target = 1 without a point is caught.
        target_point: target_now
            .or(p.target.map(|t| t.point))
            .unwrap_or(Vec3::NAN)
            .into(),
        target_avoid_distance: p.target.map_or(0.0, |t| t.avoid_distance),
        index: p.index.into(),
        obstacle_avoidance: p.obstacle_avoidance.into(),
        look_ahead: p.look_ahead,
        boid_radius: p.boid_radius,
        obstacle_overrides: i32::from(p.obstacle_overrides),
        rule_probability: p.rule_probability,
        speed_change_probability: p.speed_change_probability,
        target_needs_neighbours: i32::from(p.target_needs_neighbours),
        has_target_relocation: i32::from(reloc.is_some()),
        target_relocation_probability: reloc.map_or(0.0, |r| r.probability),
        target_relocation_min: reloc.map_or(Vec3::ZERO, |r| r.min).into(),
        target_relocation_max: reloc.map_or(Vec3::ZERO, |r| r.max).into(),
        cohesion_smooth_time: p.cohesion_smooth_time,
        fallback_to_nearest: i32::from(p.fallback_to_nearest),
        weight_path: w.path,
        wander_radius: p.wander_radius,
        wander_distance: p.wander_distance,
        wander_jitter: p.wander_jitter,
        arrival_radius: p.arrival_radius,
        path_lookahead: p.path_lookahead,
        update_every: p.update_every,
        sleep_distance: p.sleep_distance,
        grounded: i32::from(p.ground.is_some()),
        ground_max_slope_deg: ground.max_slope_deg,
        ground_step_height: ground.step_height,
        ground_pivot_height: ground.pivot_height,
        ground_up: ground.up.into(),
        body_radius: p.body_radius,
        reserved: 0,
    }
}

/// Which `BoidsBounds` fields a kind reads: min, max, distance, centre, radius, inner.
fn bounds_uses(kind: i32) -> [bool; 6] {
    match BoundsKind::try_from(kind) {
        Ok(BoundsKind::SoftBox) => [true, true, true, false, false, false],
        Ok(BoundsKind::SoftSphere) => [false, false, false, true, true, true],
        Ok(BoundsKind::Wrap | BoundsKind::Clamp | BoundsKind::TurnBack) => {
            [true, true, false, false, false, false]
        }
        Ok(BoundsKind::None) | Err(_) => [false; 6],
    }
}

fn xyz(v: &mut BoidsVec3) -> Vec<&mut f32> {
    vec![&mut v.x, &mut v.y, &mut v.z]
}

/// The numbers of `c` the engine ignores in its current settings, by field name.
fn unused(c: &mut BoidsFlockParams) -> Vec<(&'static str, Vec<&mut f32>)> {
    let uses = bounds_uses(c.bounds.kind);
    let (target, reloc) = (c.has_target == 1, c.has_target_relocation == 1);
    let grounded = c.grounded == 1;
    let b = &mut c.bounds;
    let bounds: [(&'static str, Vec<&mut f32>); 6] = [
        ("bounds.min", xyz(&mut b.min)),
        ("bounds.max", xyz(&mut b.max)),
        ("bounds.distance", vec![&mut b.distance]),
        ("bounds.centre", xyz(&mut b.centre)),
        ("bounds.radius", vec![&mut b.radius]),
        ("bounds.inner", vec![&mut b.inner]),
    ];
    let mut out: Vec<(&'static str, Vec<&mut f32>)> = bounds
        .into_iter()
        .zip(uses)
        .filter(|(_, used)| !used)
        .map(|(f, _)| f)
        .collect();
    if !target {
        out.push(("target_point", xyz(&mut c.target_point)));
        out.push(("target_avoid_distance", vec![&mut c.target_avoid_distance]));
    }
    if !reloc {
        out.push((
            "target_relocation_probability",
            vec![&mut c.target_relocation_probability],
        ));
        out.push(("target_relocation_min", xyz(&mut c.target_relocation_min)));
        out.push(("target_relocation_max", xyz(&mut c.target_relocation_max)));
    }
    if !grounded {
        out.push(("ground_max_slope_deg", vec![&mut c.ground_max_slope_deg]));
        out.push(("ground_step_height", vec![&mut c.ground_step_height]));
        out.push(("ground_pivot_height", vec![&mut c.ground_pivot_height]));
    }
    out
}

/// `reserved` must be 0; a field the settings leave unused may hold any finite value (kept and
/// read back as written), and `target_point` also NaN, its "not set" mark; `has_target = 1`
/// needs a point.
fn check_unused(c: &BoidsFlockParams) -> Result<(), Fail> {
    if c.reserved != 0 {
        return Err(bad(format!("reserved must be 0, got {}", c.reserved)));
    }
    let t = c.target_point;
    if c.has_target == 1 && t.x.is_nan() && t.y.is_nan() && t.z.is_nan() {
        return Err(bad(
            "has_target is 1 but target_point is not set (it is NaN in boids_default_flock_params)",
        ));
    }
    let mut copy = *c;
    for (name, values) in unused(&mut copy) {
        for x in values {
            if !(x.is_finite() || (name == "target_point" && x.is_nan())) {
                return Err(bad(format!(
                    "{name} is not used by these settings, but must still be finite, got {x}"
                )));
            }
        }
    }
    Ok(())
}

/// `engine` (what the engine's state reads back as) with every field it leaves unused taken
/// from `raw`, the caller's last write; a round trip gives back exactly what was set.
pub(crate) fn keep_unused(
    mut engine: BoidsFlockParams,
    raw: Option<&BoidsFlockParams>,
) -> BoidsFlockParams {
    let Some(raw) = raw else {
        return engine;
    };
    let mut raw = *raw;
    // Only the same kind's unused fields carry over.
    raw.bounds.kind = engine.bounds.kind;
    raw.has_target = engine.has_target;
    raw.has_target_relocation = engine.has_target_relocation;
    raw.grounded = engine.grounded;
    if engine.grounded != 1 {
        // Checked to be a valid value when written, and unused.
        engine.ground_up = raw.ground_up;
    }
    for ((_, to), (_, from)) in unused(&mut engine).into_iter().zip(unused(&mut raw)) {
        for (t, f) in to.into_iter().zip(from) {
            *t = *f;
        }
    }
    engine
}

pub(crate) fn spawn_from_c(s: &BoidsSpawnDef) -> Result<Spawn, Fail> {
    if s.internal_cookie != SPAWN_DEF_COOKIE {
        return Err(Fail::new(
            BoidsResult::InvalidDef,
            "spawn def was not initialised by boids_default_spawn_def()",
        ));
    }
    let shape = match choice::<SpawnKind>("spawn shape", s.shape)? {
        SpawnKind::Box => SpawnShape::Box {
            min: v3(s.min),
            max: v3(s.max),
        },
        SpawnKind::Sphere => SpawnShape::Sphere {
            centre: v3(s.centre),
            radius: s.radius,
        },
        SpawnKind::Disc => SpawnShape::Disc {
            centre: v3(s.centre),
            radius: s.radius,
        },
        SpawnKind::FlatBall => SpawnShape::FlatBall {
            centre: v3(s.centre),
            radius: s.radius,
        },
    };
    let direction = if flag("has_direction", s.has_direction)? {
        let d = v3(s.direction);
        if !d.is_finite() || d.length_squared() < 1e-12 {
            return Err(bad(format!(
                "spawn direction must be finite and non-zero, got {d}"
            )));
        }
        Some(d)
    } else {
        None
    };
    Ok(Spawn {
        shape,
        min_speed: s.min_speed,
        max_speed: s.max_speed,
        direction,
    })
}

/// An obstacle def for `world`: from `boids_default_obstacle_def()`, its shape's fields, and a
/// placement's mesh id of the same world. (Whether the mesh is live and of the right kind, and
/// the numbers, are checked by the world.)
pub(crate) fn obstacle_from_c(world: BoidsWorldId, d: &BoidsObstacleDef) -> Result<Obstacle, Fail> {
    if d.internal_cookie != OBSTACLE_DEF_COOKIE {
        return Err(Fail::new(
            BoidsResult::InvalidDef,
            "obstacle def was not initialised by boids_default_obstacle_def()",
        ));
    }
    let q = |q: BoidsQuat| boids_sim::Quat::from_xyzw(q.x, q.y, q.z, q.w);
    let kind = choice::<ObstacleKind>("obstacle shape", d.shape)?;
    let ground = flag("obstacle def: ground", d.ground)?;
    if ground && !matches!(kind, ObstacleKind::Mesh | ObstacleKind::Heightfield) {
        return Err(bad(format!(
            "obstacle def: ground is 1 on a {}; only a mesh or a heightfield placement can be \
             ground",
            kind.text()
        )));
    }
    let mesh = || -> Result<MeshId, Fail> {
        if d.mesh.index == 0 {
            return Err(bad(format!(
                "obstacle def: mesh is null (a {} places shape data from boids_mesh_create or \
                 boids_heightfield_create)",
                ObstacleKind::try_from(d.shape).map_or("placement", |k| k.text())
            )));
        }
        if d.mesh.world != world {
            return Err(bad(format!(
                "obstacle def: mesh belongs to world (index {}, generation {}), not to this one \
                 (index {}, generation {})",
                d.mesh.world.index, d.mesh.world.generation, world.index, world.generation
            )));
        }
        Ok(mesh_id(d.mesh))
    };
    Ok(match kind {
        ObstacleKind::Sphere => Obstacle::Sphere {
            centre: v3(d.a),
            radius: d.radius,
        },
        ObstacleKind::Box => Obstacle::Box {
            min: v3(d.a),
            max: v3(d.b),
        },
        ObstacleKind::Plane => Obstacle::Plane {
            point: v3(d.a),
            normal: v3(d.b),
        },
        ObstacleKind::OrientedBox => Obstacle::OrientedBox {
            centre: v3(d.a),
            half_extents: v3(d.b),
            rotation: q(d.rotation),
        },
        ObstacleKind::Capsule => Obstacle::Capsule {
            a: v3(d.a),
            b: v3(d.b),
            radius: d.radius,
        },
        ObstacleKind::Mesh => Obstacle::Mesh {
            mesh: mesh()?,
            position: v3(d.a),
            rotation: q(d.rotation),
            scale: v3(d.scale),
            ground,
        },
        ObstacleKind::Heightfield => Obstacle::Heightfield {
            field: mesh()?,
            position: v3(d.a),
            rotation: q(d.rotation),
            scale: v3(d.scale),
            ground,
        },
    })
}

/// The engine's id of a C mesh id (1-based index).
pub(crate) fn mesh_id(id: BoidsMeshId) -> MeshId {
    MeshId {
        index: id.index.wrapping_sub(1),
        generation: id.generation,
    }
}

/// The C id of a mesh of `world`.
pub(crate) fn to_c_mesh(world: BoidsWorldId, id: MeshId) -> BoidsMeshId {
    BoidsMeshId {
        world,
        index: id.index + 1,
        generation: id.generation,
    }
}

pub(crate) fn obstacle_id(id: BoidsObstacleId) -> ObstacleId {
    ObstacleId {
        index: id.index.wrapping_sub(1),
        generation: id.generation,
    }
}

pub(crate) fn to_c_flock(world: BoidsWorldId, id: FlockId) -> BoidsFlockId {
    BoidsFlockId {
        world,
        index: id.index + 1,
        generation: id.generation,
    }
}
