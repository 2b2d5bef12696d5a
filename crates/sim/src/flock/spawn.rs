//! Where new boids come from, and adding, removing and overwriting boids.

use super::{Flock, SPAWN_STREAM, check_extra, check_point, check_vec};
use crate::error::{Error, invalid};
use boids_core::fmath::Extremes;
use boids_core::math::look_rotation;
use boids_core::{BoidState, PlaneLock, Rng, Vec3, fmath, limits};
use std::collections::TryReserveError;

boids_core::c_enum! {
    /// The kind of a [`SpawnShape`].
    pub enum SpawnKind: "spawn shape", "BOIDS_SPAWN_", "SpawnKind" {
        /// Uniform in the box `min`..`max`.
        Box = 0, "box", "BOX",
        /// Uniform in the ball `centre`, `radius`.
        Sphere = 1, "sphere", "SPHERE",
        /// Uniform in the disc `centre`, `radius` in the flock's plane.
        Disc = 2, "disc", "DISC",
        /// Uniform in the ball `centre`, `radius`, then flattened onto y = centre.y.
        FlatBall = 3, "flat-ball", "FLAT_BALL",
    }
}

/// Where [`crate::World::spawn`] places new boids.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpawnShape {
    /// Uniform in an axis-aligned box.
    Box {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
    },
    /// Uniform in a ball.
    Sphere {
        /// Centre.
        centre: Vec3,
        /// Radius.
        radius: f32,
    },
    /// A point uniform in the ball, then moved onto the XZ plane through the centre (the
    /// target-flock tutorial: `Random.insideUnitSphere * r` with `y = 0`; denser toward the
    /// middle than a disc).
    FlatBall {
        /// Centre.
        centre: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Uniform in a disc in the flock's plane (XZ unless the flock is locked to XY).
    Disc {
        /// Centre.
        centre: Vec3,
        /// Radius.
        radius: f32,
    },
}

impl SpawnShape {
    /// Which shape.
    pub fn kind(&self) -> SpawnKind {
        match self {
            SpawnShape::Box { .. } => SpawnKind::Box,
            SpawnShape::Sphere { .. } => SpawnKind::Sphere,
            SpawnShape::Disc { .. } => SpawnKind::Disc,
            SpawnShape::FlatBall { .. } => SpawnKind::FlatBall,
        }
    }
}

/// How to spawn boids: a shape and a speed range; directions are uniformly random (in the plane
/// for a plane-locked flock). In a scene file: `shape` (`box`, `sphere`, `disc`, `flat-ball`),
/// `min`/`max` (box) or `centre`/`radius`, `min_speed`, `max_speed`, `direction`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "crate::scene::SpawnTable",
        into = "crate::scene::SpawnTable"
    )
)]
pub struct Spawn {
    /// Where.
    pub shape: SpawnShape,
    /// Speed drawn uniformly from `[min_speed, max_speed]`.
    pub min_speed: f32,
    /// See `min_speed`.
    pub max_speed: f32,
    /// Every boid starts heading this way (e.g. +Z, Unity's identity rotation) instead of a
    /// uniformly random direction.
    pub direction: Option<Vec3>,
}

impl Default for Spawn {
    /// The default flock's box (±5) at speeds 2..5.
    fn default() -> Self {
        Spawn {
            shape: SpawnShape::Box {
                min: Vec3::splat(-5.0),
                max: Vec3::splat(5.0),
            },
            min_speed: 2.0,
            max_speed: 5.0,
            direction: None,
        }
    }
}

impl Flock {
    fn ensure_id_space(&self, n: usize) -> Result<(), Error> {
        if self.len().saturating_add(n) > crate::world::MAX_BOIDS_PER_FLOCK {
            return Err(invalid(format!(
                "cannot add {n} boids to {}: a flock holds at most {}",
                self.len(),
                crate::world::MAX_BOIDS_PER_FLOCK
            )));
        }
        if (n as u64).saturating_add(u64::from(self.next_id)) > u64::from(u32::MAX) {
            return Err(invalid(format!(
                "cannot add {n} boids: ids would pass u32::MAX (next id {})",
                self.next_id
            )));
        }
        Ok(())
    }

    /// Reserves room for `n` more boids in every array, or fails without changing anything.
    fn reserve(&mut self, n: usize) -> Result<(), Error> {
        let oom = |_| invalid(format!("cannot allocate memory for {n} more boids"));
        let total = self.len() + n;
        let extra = Self::needs_extra(&self.params);
        // The boids, and the buffers the next state is written into (the spare boids: their
        // ids and ranks are the sorted ones, moved).
        fn boids(
            b: &mut super::Boids,
            total: usize,
            extra: bool,
            ids: bool,
        ) -> Result<(), TryReserveError> {
            let room = |len: usize| total.saturating_sub(len);
            if ids {
                b.ids.try_reserve(room(b.ids.len()))?;
                b.rank.try_reserve(room(b.rank.len()))?;
            }
            for v in [&mut b.positions, &mut b.velocities, &mut b.headings] {
                v.try_reserve(room(v.len()))?;
            }
            if extra {
                b.extras.try_reserve(room(b.extras.len()))?;
            }
            Ok(())
        }
        boids(self.st_mut(), total, extra, true).map_err(oom)?;
        // The per-boid arrays a step fills (sorted copies, the index's arrays, the next
        // state), too, so that an accepted flock's step does not run out of memory on them.
        let w = self.work_mut();
        boids(&mut w.spare, total, extra, false).map_err(oom)?;
        let room = |len: usize| total.saturating_sub(len);
        w.ids_sorted
            .try_reserve(room(w.ids_sorted.len()))
            .map_err(oom)?;
        w.rank_sorted
            .try_reserve(room(w.rank_sorted.len()))
            .map_err(oom)?;
        if extra {
            let len = w.extras_sorted.len();
            w.extras_sorted.try_reserve(room(len)).map_err(oom)?;
        }
        w.index.try_reserve(total).map_err(oom)?;
        Ok(())
    }

    /// Appends a boid (the newest id: the last in id order).
    fn push(&mut self, p: Vec3, v: Vec3) -> u32 {
        let plane = self.params.plane;
        let b = BoidState::new(plane.apply(p), plane.apply(v));
        let id = self.next_id;
        self.next_id += 1;
        let extra = Self::needs_extra(&self.params);
        let st = self.st_mut();
        st.rank.push(st.ids.len() as u32);
        st.ids.push(id);
        st.positions.push(b.position);
        st.velocities.push(b.velocity);
        st.headings.push(b.heading);
        if extra {
            st.extras.push(b.extra);
        }
        id
    }

    pub(crate) fn spawn(&mut self, n: usize, spawn: &Spawn, seed: u64) -> Result<u32, Error> {
        self.ensure_id_space(n)?;
        for (what, s) in [
            ("min_speed", spawn.min_speed),
            ("max_speed", spawn.max_speed),
        ] {
            limits::length(s).map_err(|e| invalid(format!("spawn {what} {e}")))?;
        }
        if spawn.min_speed > spawn.max_speed {
            return Err(invalid(format!(
                "spawn min_speed must not exceed max_speed, got {}..{}",
                spawn.min_speed, spawn.max_speed
            )));
        }
        match spawn.shape {
            SpawnShape::Box { min, max } => {
                check_point("spawn min", min)?;
                check_point("spawn max", max)?;
                if !min.cmple(max).all() {
                    return Err(invalid(format!(
                        "spawn box min {min} must not exceed max {max}"
                    )));
                }
            }
            SpawnShape::Sphere { centre, radius }
            | SpawnShape::Disc { centre, radius }
            | SpawnShape::FlatBall { centre, radius } => {
                check_point("spawn centre", centre)?;
                limits::length(radius).map_err(|e| invalid(format!("spawn radius {e}")))?;
                // Every point of the ball, not only its centre, must be inside the limit, or
                // a spawn puts boids where `write_positions` would refuse them.
                let reach = centre.abs().largest() + radius;
                if reach > limits::MAX_MAGNITUDE {
                    return Err(invalid(format!(
                        "spawn centre {centre} ± radius {radius} reaches {}, beyond the limit {}: every spawned coordinate must stay within it",
                        limits::show(reach),
                        limits::show(limits::MAX_MAGNITUDE)
                    )));
                }
            }
        }
        self.reserve(n)?;
        let first = self.next_id;
        let plane = self.params.plane;
        let in_plane = |v: Vec3| match plane {
            PlaneLock::XY => Vec3::new(v.x, v.y, 0.0),
            _ => Vec3::new(v.x, 0.0, v.z),
        };
        for k in 0..n {
            let id = first + k as u32;
            let mut rng = Rng::keyed(seed, id, 0, SPAWN_STREAM);
            let p = match spawn.shape {
                SpawnShape::Box { min, max } => Vec3::new(
                    rng.range(min.x, max.x),
                    rng.range(min.y, max.y),
                    rng.range(min.z, max.z),
                ),
                SpawnShape::Sphere { centre, radius } => centre + rng.in_unit_ball() * radius,
                SpawnShape::FlatBall { centre, radius } => {
                    let b = rng.in_unit_ball() * radius;
                    centre + Vec3::new(b.x, 0.0, b.z)
                }
                SpawnShape::Disc { centre, radius } => {
                    let a = rng.range(0.0, std::f32::consts::TAU);
                    let r = radius * rng.next_f32().sqrt();
                    let (s, c) = (fmath::sin(a), fmath::cos(a));
                    centre + in_plane(Vec3::new(c * r, s * r, s * r))
                }
            };
            let random = plane.apply(rng.unit_vector()).normalize_or_zero();
            let mut dir = match spawn.direction {
                Some(d) => plane.apply(d).normalize_or_zero(),
                None => random,
            };
            if dir == Vec3::ZERO {
                dir = match plane {
                    PlaneLock::XY => Vec3::Y,
                    _ => Vec3::X,
                };
            }
            let v = dir * rng.range(spawn.min_speed, spawn.max_speed);
            self.push(p, v);
        }
        self.changed();
        Ok(first)
    }

    pub(crate) fn add(&mut self, positions: &[Vec3], velocities: &[Vec3]) -> Result<u32, Error> {
        if positions.len() != velocities.len() {
            return Err(invalid(format!(
                "add boids: {} positions but {} velocities",
                positions.len(),
                velocities.len()
            )));
        }
        self.ensure_id_space(positions.len())?;
        for (i, (&p, &v)) in positions.iter().zip(velocities).enumerate() {
            check_vec("positions", i, p)?;
            check_vec("velocities", i, v)?;
        }
        self.reserve(positions.len())?;
        let first = self.next_id;
        for (&p, &v) in positions.iter().zip(velocities) {
            self.push(p, v);
        }
        self.changed();
        Ok(first)
    }

    /// Grows (spawning) or shrinks (removing the newest boids) to `n` boids.
    pub(crate) fn resize(&mut self, n: usize, spawn: &Spawn, seed: u64) -> Result<(), Error> {
        let len = self.len();
        if n > len {
            self.spawn(n - len, spawn, seed)?;
        } else if n < len {
            let newest: Vec<u32> = self.ids()[n..].to_vec();
            self.remove(&newest)?;
        }
        Ok(())
    }

    pub(crate) fn write(
        &mut self,
        positions: Option<&[Vec3]>,
        velocities: Option<&[Vec3]>,
    ) -> Result<(), Error> {
        for (what, data) in [("positions", positions), ("velocities", velocities)] {
            if let Some(d) = data {
                if d.len() != self.len() {
                    return Err(invalid(format!(
                        "write {what}: got {} values for {} boids",
                        d.len(),
                        self.len()
                    )));
                }
                for (i, &v) in d.iter().enumerate() {
                    check_vec(what, i, v)?;
                }
            }
        }
        let plane = self.params.plane;
        let slots = self.id_slots().to_vec();
        let st = self.st_mut();
        if let Some(p) = positions {
            for (&s, &src) in slots.iter().zip(p) {
                st.positions[s as usize] = plane.apply(src);
            }
        }
        if let Some(v) = velocities {
            for (&s, &src) in slots.iter().zip(v) {
                let s = s as usize;
                let v = plane.apply(src);
                // Writing back the velocity a boid has keeps its heading and orientation: a
                // read followed by a write changes nothing.
                if v.to_array().map(f32::to_bits) == st.velocities[s].to_array().map(f32::to_bits) {
                    continue;
                }
                st.velocities[s] = v;
                let n = st.velocities[s].normalize_or_zero();
                if n != Vec3::ZERO {
                    st.headings[s] = n;
                }
                if let Some(e) = st.extras.get_mut(s) {
                    e.orientation = look_rotation(st.headings[s]);
                }
            }
        }
        self.changed();
        Ok(())
    }

    /// Overwrites every boid's full state (position, velocity, heading, and for models that
    /// keep it the orientation, SmoothDamp velocity and wander point), in id order. All or
    /// nothing; the plane lock must already hold (nothing is projected: what is written is
    /// what the next step reads).
    pub(crate) fn write_states(&mut self, states: &[BoidState]) -> Result<(), Error> {
        if states.len() != self.len() {
            return Err(invalid(format!(
                "write states: got {} states for {} boids",
                states.len(),
                self.len()
            )));
        }
        let plane = self.params.plane;
        let keeps_extra = !self.st.extras.is_empty();
        for (i, b) in states.iter().enumerate() {
            for (what, v) in [
                ("position", b.position),
                ("velocity", b.velocity),
                ("heading", b.heading),
            ] {
                check_vec(&format!("states.{what}"), i, v)?;
                // A heading may leave the plane (a boid at rest keeps +Z), a position or
                // velocity may not.
                if what != "heading" && plane.apply(v) != v {
                    return Err(invalid(format!(
                        "write states: {what}[{i}] {v} is off the flock's plane"
                    )));
                }
            }
            if (b.heading.length() - 1.0).abs() > 1e-3 {
                return Err(invalid(format!(
                    "write states: heading[{i}] {} is not a unit vector",
                    b.heading
                )));
            }
            if keeps_extra {
                check_extra(i, &b.extra).map_err(|e| invalid(format!("write states: {e}")))?;
            }
        }
        let slots = self.id_slots().to_vec();
        let st = self.st_mut();
        for (&s, b) in slots.iter().zip(states) {
            let s = s as usize;
            st.positions[s] = b.position;
            st.velocities[s] = b.velocity;
            st.headings[s] = b.heading;
            if let Some(e) = st.extras.get_mut(s) {
                *e = b.extra;
            }
        }
        self.changed();
        Ok(())
    }

    /// Removes boids by id (all or nothing: an unknown id removes none). Returns how many went.
    pub(crate) fn remove(&mut self, ids: &[u32]) -> Result<usize, Error> {
        let mut doomed_ranks = Vec::new();
        doomed_ranks.try_reserve_exact(ids.len()).map_err(|_| {
            invalid(format!(
                "remove boids: cannot allocate memory for {} ids",
                ids.len()
            ))
        })?;
        for &id in ids {
            match self.position_of(id) {
                Some(r) => doomed_ranks.push(r),
                None => {
                    return Err(invalid(format!(
                        "remove boids: flock '{}' has no boid with id {id}",
                        self.name
                    )));
                }
            }
        }
        let n = self.len();
        // Ranks that go, and how many ranks below each one go (the shift of the survivors).
        let mut gone = vec![false; n];
        for &r in &doomed_ranks {
            gone[r] = true;
        }
        let mut shift = vec![0u32; n];
        let mut below = 0u32;
        for r in 0..n {
            shift[r] = below;
            below += u32::from(gone[r]);
        }
        let st = self.st_mut();
        let keep: Vec<bool> = st.rank.iter().map(|&r| !gone[r as usize]).collect();
        let mut k = keep.iter();
        st.ids.retain(|_| *k.next().expect("same length"));
        let mut k = keep.iter();
        st.rank.retain(|_| *k.next().expect("same length"));
        for r in &mut st.rank {
            *r -= shift[*r as usize];
        }
        for v in [&mut st.positions, &mut st.velocities, &mut st.headings] {
            let mut k = keep.iter();
            v.retain(|_| *k.next().expect("same length"));
        }
        if !st.extras.is_empty() {
            let mut k = keep.iter();
            st.extras.retain(|_| *k.next().expect("same length"));
        }
        self.changed();
        Ok(below as usize)
    }
}
