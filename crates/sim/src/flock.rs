//! One flock: its parameters, its boids as structure of arrays (current and next snapshot) and
//! its neighbour index.

use crate::error::{Error, invalid};
use boids_core::kernel::{gather_block, within_radius, wrap_axis};
use boids_core::math::{look_basis, look_rotation};
use boids_core::{
    AlignmentMode, BoidState, Bounds, Derived, Env, Extra, FlockParams, IndexKind, Integrator,
    Neighbourhood, Obstacle, PlaneLock, Rng, Vec3, step_boid,
};
use boids_index::{AnyIndex, CandidateBuf, Grid, Hit, Kind, NeighbourIndex, Period, Points};
use rayon::prelude::*;

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
    /// A point uniform in the ball, then moved onto the XZ plane through the centre (seed 002:
    /// `Random.insideUnitSphere * r` with `y = 0`; denser toward the middle than a disc).
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

/// How to spawn boids: a shape and a speed range; directions are uniformly random (in the plane
/// for a plane-locked flock).
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// A copy of a flock's boids, to restore later (benchmarks step the same state repeatedly).
#[derive(Clone, Debug, PartialEq)]
pub struct FlockSnapshot {
    ids: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    extras: Vec<Extra>,
    next_id: u32,
}

/// A flock of boids. Read it through [`crate::World::flock`]; change it through the world.
pub struct Flock {
    pub(crate) name: String,
    pub(crate) params: FlockParams,
    pub(crate) target: Option<Vec3>,
    ids: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    next_positions: Vec<Vec3>,
    next_velocities: Vec<Vec3>,
    next_headings: Vec<Vec3>,
    /// Extra per-boid state, only for models that need it (else empty).
    extras: Vec<Extra>,
    next_extras: Vec<Extra>,
    next_id: u32,
    index: AnyIndex,
    last_neighbours: u64,
    pub(crate) wake_region: Option<(Vec3, Vec3)>,
    pub(crate) asleep: bool,
    /// Stepped in the current world step (level of detail may skip it).
    pub(crate) active: bool,
    pub(crate) path: Vec<Vec3>,
    pub(crate) path_closed: bool,
    pub(crate) leader: Option<(u32, Vec3)>,
    /// Steering from other flocks for this step, by id order (empty without relations).
    pub(crate) external: Vec<Vec3>,
}

const SPAWN_STREAM: u32 = 1;
const RULE_STREAM: u32 = 0;

pub(crate) fn check_vec(what: &str, i: usize, v: Vec3) -> Result<(), Error> {
    if v.is_finite() && v.abs().max_element() <= boids_core::math::MAX_COORD {
        Ok(())
    } else {
        Err(invalid(format!(
            "{what}[{i}] must be finite with |component| <= {}, got {v}",
            boids_core::math::MAX_COORD
        )))
    }
}

impl Flock {
    pub(crate) fn new(name: String, params: FlockParams) -> Self {
        Flock {
            name,
            target: params.target.map(|t| t.point),
            index: AnyIndex::new(Self::index_kind(&params)),
            params,
            ids: Vec::new(),
            positions: Vec::new(),
            velocities: Vec::new(),
            headings: Vec::new(),
            next_positions: Vec::new(),
            next_velocities: Vec::new(),
            next_headings: Vec::new(),
            extras: Vec::new(),
            next_extras: Vec::new(),
            next_id: 0,
            last_neighbours: 0,
            wake_region: None,
            asleep: false,
            active: true,
            path: Vec::new(),
            path_closed: false,
            leader: None,
            external: Vec::new(),
        }
    }

    fn index_kind(p: &FlockParams) -> Kind {
        match p.index {
            // The grid's k-nearest fast path measured faster than the k-d tree at every size
            // of the benchmark scenario, so Auto uses the grid for both kinds of query.
            IndexKind::Auto | IndexKind::Grid => Kind::Grid,
            IndexKind::KdTree => Kind::KdTree,
            IndexKind::BruteForce => Kind::BruteForce,
        }
    }

    /// The flock's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its parameters.
    pub fn params(&self) -> &FlockParams {
        &self.params
    }
    /// Number of boids.
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    /// `true` when the flock has no boids.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
    /// Stable ids, ascending (the order of every other array).
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }
    /// Positions.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }
    /// Velocities.
    pub fn velocities(&self) -> &[Vec3] {
        &self.velocities
    }
    /// Unit headings.
    pub fn headings(&self) -> &[Vec3] {
        &self.headings
    }
    /// One boid's state by array position.
    pub fn boid(&self, i: usize) -> BoidState {
        BoidState {
            position: self.positions[i],
            velocity: self.velocities[i],
            heading: self.headings[i],
            extra: self.extra(i),
        }
    }

    fn extra(&self, i: usize) -> Extra {
        self.extras.get(i).copied().unwrap_or_default()
    }

    /// Whether the params keep per-boid extra state.
    fn needs_extra(p: &FlockParams) -> bool {
        p.integrator == Integrator::HeadingSpeed
            || p.cohesion_smooth_time > 0.0
            || p.weights.wander != 0.0
    }

    /// The path the flock follows (empty: none) and whether it is closed.
    pub fn path(&self) -> (&[Vec3], bool) {
        (&self.path, self.path_closed)
    }

    /// The designated leader's id and the offset (in the leader's frame) followers aim for.
    pub fn leader(&self) -> Option<(u32, Vec3)> {
        self.leader
    }

    /// Mean position (zero for an empty flock).
    pub fn centre(&self) -> Vec3 {
        if self.is_empty() {
            Vec3::ZERO
        } else {
            self.positions.iter().copied().sum::<Vec3>() / self.len() as f32
        }
    }

    /// Whether the last world step moved this flock (level of detail can skip steps).
    pub fn was_stepped(&self) -> bool {
        self.active && !self.asleep
    }
    /// Array position of the boid with this id.
    pub fn position_of(&self, id: u32) -> Option<usize> {
        self.ids.binary_search(&id).ok()
    }
    /// The current target point, if the flock has a target.
    pub fn target(&self) -> Option<Vec3> {
        self.target
    }
    /// The neighbour index built in the last step (other flocks may query it).
    pub fn index(&self) -> &AnyIndex {
        &self.index
    }
    /// `true` when the last step skipped this flock because the observer was outside its wake
    /// region (its state did not change and it cost nothing).
    pub fn is_asleep(&self) -> bool {
        self.asleep
    }
    /// The box the observer must be in for the flock to move, if any.
    pub fn wake_region(&self) -> Option<(Vec3, Vec3)> {
        self.wake_region
    }
    /// Neighbours used by all boids together in the last step.
    pub fn last_step_neighbours(&self) -> u64 {
        self.last_neighbours
    }
    /// Heap bytes held by the flock's arrays and index.
    pub fn heap_bytes(&self) -> usize {
        let v = |x: &Vec<Vec3>| x.capacity() * 12;
        self.ids.capacity() * 4
            + v(&self.positions)
            + v(&self.velocities)
            + v(&self.headings)
            + v(&self.next_positions)
            + v(&self.next_velocities)
            + v(&self.next_headings)
            + self.index.heap_bytes()
    }

    /// Writes each boid's orientation (Unity's `LookRotation(heading)`: +Z forward, +Y up as
    /// near world up as possible) as `[x, y, z, w]` into `out[..len]`, in parallel in the current
    /// Rayon pool. Plain `f32` arrays (alignment 4) so callers can pass any float buffer.
    /// `out` must hold at least [`Flock::len`] entries.
    pub fn write_orientations(&self, out: &mut [[f32; 4]]) {
        out[..self.len()]
            .par_chunks_mut(CHUNK)
            .zip(self.headings.par_chunks(CHUNK))
            .for_each(|(o, h)| {
                for (o, &h) in o.iter_mut().zip(h) {
                    *o = look_rotation(h).to_array();
                }
            });
    }

    /// Writes each boid's 4×4 instance matrix, column-major (Unity's `Matrix4x4` memory layout):
    /// rotation `LookRotation(heading)`, uniform `scale`, translation = position. `out` must hold
    /// at least [`Flock::len`] entries.
    pub fn write_matrices(&self, scale: f32, out: &mut [[f32; 16]]) {
        out[..self.len()]
            .par_chunks_mut(CHUNK)
            .zip(self.headings.par_chunks(CHUNK))
            .zip(self.positions.par_chunks(CHUNK))
            .for_each(|((o, h), p)| {
                for ((m, &h), &p) in o.iter_mut().zip(h).zip(p) {
                    let (r, u, f) = look_basis(h);
                    let (r, u, f) = (r * scale, u * scale, f * scale);
                    *m = [
                        r.x, r.y, r.z, 0.0, u.x, u.y, u.z, 0.0, f.x, f.y, f.z, 0.0, p.x, p.y, p.z,
                        1.0,
                    ];
                }
            });
    }

    /// A copy of the boids.
    pub fn snapshot(&self) -> FlockSnapshot {
        FlockSnapshot {
            ids: self.ids.clone(),
            positions: self.positions.clone(),
            velocities: self.velocities.clone(),
            headings: self.headings.clone(),
            extras: self.extras.clone(),
            next_id: self.next_id,
        }
    }

    pub(crate) fn restore(&mut self, s: &FlockSnapshot) {
        self.ids.clone_from(&s.ids);
        self.positions.clone_from(&s.positions);
        self.velocities.clone_from(&s.velocities);
        self.headings.clone_from(&s.headings);
        self.extras.clone_from(&s.extras);
        self.next_id = s.next_id;
    }

    pub(crate) fn set_params(&mut self, params: FlockParams) -> Result<(), Error> {
        params.validate()?;
        let kind = Self::index_kind(&params);
        if kind != self.index.kind() {
            self.index = AnyIndex::new(kind);
        }
        if params.target.is_some() && self.target.is_none() {
            self.target = params.target.map(|t| t.point);
        }
        if params.target.is_none() {
            self.target = None;
        }
        let need = Self::needs_extra(&params);
        if need && self.extras.len() != self.len() {
            self.extras = self.headings.iter().map(|&h| extra_for(h)).collect();
        } else if !need {
            self.extras = Vec::new();
            self.next_extras = Vec::new();
        }
        self.params = params;
        Ok(())
    }

    pub(crate) fn set_target(&mut self, point: Vec3) -> Result<(), Error> {
        check_vec("target", 0, point)?;
        if self.params.target.is_none() {
            return Err(invalid(format!(
                "flock '{}' has no target settings (params.target is None)",
                self.name
            )));
        }
        self.target = Some(point);
        Ok(())
    }

    fn ensure_id_space(&self, n: usize) -> Result<(), Error> {
        if self.ids.len().saturating_add(n) > crate::world::MAX_BOIDS_PER_FLOCK {
            return Err(invalid(format!(
                "cannot add {n} boids to {}: a flock holds at most {}",
                self.ids.len(),
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
        self.ids.try_reserve(n).map_err(oom)?;
        for v in [
            &mut self.positions,
            &mut self.velocities,
            &mut self.headings,
        ] {
            v.try_reserve(n).map_err(oom)?;
        }
        Ok(())
    }

    fn push(&mut self, p: Vec3, v: Vec3) -> u32 {
        let plane = self.params.plane;
        let b = BoidState::new(plane.apply(p), plane.apply(v));
        let id = self.next_id;
        self.next_id += 1;
        self.ids.push(id);
        self.positions.push(b.position);
        self.velocities.push(b.velocity);
        self.headings.push(b.heading);
        if Self::needs_extra(&self.params) {
            self.extras.push(b.extra);
        }
        id
    }

    pub(crate) fn spawn(&mut self, n: usize, spawn: &Spawn, seed: u64) -> Result<u32, Error> {
        self.ensure_id_space(n)?;
        let ok_speed = |s: f32| s.is_finite() && (0.0..=1e9).contains(&s);
        if !ok_speed(spawn.min_speed)
            || !ok_speed(spawn.max_speed)
            || spawn.min_speed > spawn.max_speed
        {
            return Err(invalid(format!(
                "spawn speeds must be finite, >= 0 and min <= max, got {}..{}",
                spawn.min_speed, spawn.max_speed
            )));
        }
        match spawn.shape {
            SpawnShape::Box { min, max } => {
                check_vec("spawn.min", 0, min)?;
                check_vec("spawn.max", 0, max)?;
                if !min.cmple(max).all() {
                    return Err(invalid(format!(
                        "spawn box min {min} must not exceed max {max}"
                    )));
                }
            }
            SpawnShape::Sphere { centre, radius }
            | SpawnShape::Disc { centre, radius }
            | SpawnShape::FlatBall { centre, radius } => {
                check_vec("spawn.centre", 0, centre)?;
                if !(radius.is_finite() && (0.0..=1e9).contains(&radius)) {
                    return Err(invalid(format!(
                        "spawn radius must be finite and >= 0, got {radius}"
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
                    centre + in_plane(Vec3::new(a.cos() * r, a.sin() * r, a.sin() * r))
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
        Ok(first)
    }

    /// Grows (spawning) or shrinks (removing the newest boids) to `n` boids.
    pub(crate) fn resize(&mut self, n: usize, spawn: &Spawn, seed: u64) -> Result<(), Error> {
        let len = self.len();
        if n > len {
            self.spawn(n - len, spawn, seed)?;
        } else if n < len {
            let newest: Vec<u32> = self.ids[n..].to_vec();
            self.remove(&newest)?;
        }
        Ok(())
    }

    pub(crate) fn remove(&mut self, ids: &[u32]) -> Result<usize, Error> {
        let mut doomed = Vec::with_capacity(ids.len());
        for &id in ids {
            match self.ids.binary_search(&id) {
                Ok(i) => doomed.push(i),
                Err(_) => {
                    return Err(invalid(format!(
                        "remove boids: flock '{}' has no boid with id {id}",
                        self.name
                    )));
                }
            }
        }
        doomed.sort_unstable();
        doomed.dedup();
        let mut k = 0;
        let mut keep = |i: usize| {
            let gone = k < doomed.len() && doomed[k] == i;
            if gone {
                k += 1;
            }
            !gone
        };
        let mask: Vec<bool> = (0..self.ids.len()).map(&mut keep).collect();
        let retain = |v: &mut Vec<Vec3>| {
            let mut it = mask.iter();
            v.retain(|_| *it.next().unwrap());
        };
        retain(&mut self.positions);
        retain(&mut self.velocities);
        retain(&mut self.headings);
        if !self.extras.is_empty() {
            let mut it = mask.iter();
            self.extras.retain(|_| *it.next().unwrap());
        }
        let mut it = mask.iter();
        self.ids.retain(|_| *it.next().unwrap());
        Ok(doomed.len())
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
        if let Some(p) = positions {
            for (dst, &src) in self.positions.iter_mut().zip(p) {
                *dst = plane.apply(src);
            }
        }
        if let Some(v) = velocities {
            for ((dst, h), &src) in self.velocities.iter_mut().zip(&mut self.headings).zip(v) {
                *dst = plane.apply(src);
                let n = dst.normalize_or_zero();
                if n != Vec3::ZERO {
                    *h = n;
                }
            }
            let heads = &self.headings;
            for (e, &h) in self.extras.iter_mut().zip(heads) {
                e.orientation = look_rotation(h);
            }
        }
        Ok(())
    }

    /// Builds the neighbour index from the current snapshot.
    pub(crate) fn build_index(&mut self) {
        let p = &self.params;
        let points = Points {
            positions: &self.positions,
            velocities: &self.velocities,
            headings: &self.headings,
        };
        self.index
            .build(points, p.perception_radius, period_of(&p.bounds));
    }

    /// Computes the next snapshot from the current one (in the calling Rayon pool).
    pub(crate) fn step(&mut self, dt: f32, seed: u64, step: u64, obstacles: &[Obstacle]) {
        let n = self.len();
        self.next_positions.resize(n, Vec3::ZERO);
        self.next_velocities.resize(n, Vec3::ZERO);
        self.next_headings.resize(n, Vec3::ZERO);
        self.next_extras.resize(self.extras.len(), Extra::default());
        let leader = self.leader.map(|(id, _)| id);
        let ctx = StepCtx {
            params: &self.params,
            extras: &self.extras,
            external: &self.external,
            path: &self.path,
            path_closed: self.path_closed,
            leader,
            obstacles,
            derived: Derived::new(&self.params),
            target: self.target,
            ids: &self.ids,
            seed,
            step,
            dt,
        };
        let next = Out {
            p: &mut self.next_positions[..],
            v: &mut self.next_velocities[..],
            h: &mut self.next_headings[..],
            e: &mut self.next_extras[..],
        };
        match &self.index {
            AnyIndex::Grid(g) => {
                self.last_neighbours = step_grid(&ctx, g, next);
                // The next state is in slot order: bring it back to id order.
                let rank = g.rank();
                let (np, nv, nh) = (
                    &self.next_positions,
                    &self.next_velocities,
                    &self.next_headings,
                );
                self.positions
                    .par_chunks_mut(CHUNK)
                    .zip(self.velocities.par_chunks_mut(CHUNK))
                    .zip(self.headings.par_chunks_mut(CHUNK))
                    .zip(rank.par_chunks(CHUNK))
                    .for_each(|(((p, v), h), r)| {
                        for k in 0..r.len() {
                            let s = r[k] as usize;
                            p[k] = np[s];
                            v[k] = nv[s];
                            h[k] = nh[s];
                        }
                    });
                let ne = &self.next_extras;
                for (e, &r) in self.extras.iter_mut().zip(rank) {
                    *e = ne[r as usize];
                }
            }
            index => {
                let cur = (
                    &self.positions[..],
                    &self.velocities[..],
                    &self.headings[..],
                );
                self.last_neighbours = step_generic(&ctx, index, cur, next);
                std::mem::swap(&mut self.positions, &mut self.next_positions);
                std::mem::swap(&mut self.velocities, &mut self.next_velocities);
                std::mem::swap(&mut self.headings, &mut self.next_headings);
                std::mem::swap(&mut self.extras, &mut self.next_extras);
            }
        }
    }
}

/// Extra state of a boid heading along `h`.
fn extra_for(h: Vec3) -> Extra {
    Extra {
        orientation: look_rotation(h),
        damp: Vec3::ZERO,
        wander: Vec3::ZERO,
    }
}

/// The periodic box of wrap-around bounds.
fn period_of(b: &Bounds) -> Option<Period> {
    match *b {
        Bounds::Wrap { min, max } => Some(Period::new(min, max)),
        _ => None,
    }
}

const CHUNK: usize = 4096;

/// What every boid's update shares in one step.
struct StepCtx<'a> {
    params: &'a FlockParams,
    /// Steering from other flocks by id order (empty when none).
    external: &'a [Vec3],
    path: &'a [Vec3],
    path_closed: bool,
    /// The leader ignores the (leader-following) target.
    leader: Option<u32>,
    /// Extra state by id order (empty when the model needs none).
    extras: &'a [Extra],
    obstacles: &'a [Obstacle],
    derived: Derived,
    target: Option<Vec3>,
    ids: &'a [u32],
    seed: u64,
    step: u64,
    dt: f32,
}

impl StepCtx<'_> {
    #[inline]
    fn advance(&self, own: &BoidState, hood: &Neighbourhood, id: u32) -> BoidState {
        let mut rng = Rng::keyed(self.seed, id, self.step, RULE_STREAM);
        let env = Env {
            target: if self.leader == Some(id) {
                None
            } else {
                self.target
            },
            obstacles: self.obstacles,
            path: self.path,
            path_closed: self.path_closed,
        };
        step_boid(own, hood, self.params, &env, &mut rng, self.dt)
    }
}

/// Where a step writes: positions, velocities, headings and (possibly empty) extras.
struct Out<'a> {
    p: &'a mut [Vec3],
    v: &'a mut [Vec3],
    h: &'a mut [Vec3],
    e: &'a mut [Extra],
}

impl<'a> Out<'a> {
    /// Splits off the first `len` entries.
    fn split(self, len: usize) -> (Out<'a>, Out<'a>) {
        let (p, p2) = self.p.split_at_mut(len);
        let (v, v2) = self.v.split_at_mut(len);
        let (h, h2) = self.h.split_at_mut(len);
        let (e, e2) = if self.e.is_empty() {
            (self.e, &mut [][..])
        } else {
            self.e.split_at_mut(len)
        };
        (
            Out { p, v, h, e },
            Out {
                p: p2,
                v: v2,
                h: h2,
                e: e2,
            },
        )
    }

    fn set(&mut self, k: usize, b: &BoidState) {
        self.p[k] = b.position;
        self.v[k] = b.velocity;
        self.h[k] = b.heading;
        if let Some(e) = self.e.get_mut(k) {
            *e = b.extra;
        }
    }
}

/// Seed 002's stand-in: a boid that found no neighbour uses the nearest boid at any distance.
fn fallback_nearest<I: NeighbourIndex>(
    ctx: &StepCtx<'_>,
    index: &I,
    own: &BoidState,
    i: u32,
    hood: &mut Neighbourhood,
    hits: &mut Vec<Hit>,
) {
    if hood.count == 0 && ctx.params.fallback_to_nearest {
        index.k_nearest(own.position, f32::INFINITY, 1, i, hits);
        if let Some(h) = hits.first() {
            hood.consider(
                &ctx.derived,
                own.heading,
                h.offset,
                h.d2,
                index.velocity(h.slot),
                index.heading(h.slot),
            );
        }
    }
}

/// Grid fast path: cells in parallel groups; every boid of a cell scans one dense candidate
/// block. Writes the next state in slot order. Returns the neighbours used.
fn step_grid(ctx: &StepCtx<'_>, g: &Grid, next: Out<'_>) -> u64 {
    let starts = g.cell_starts();
    let cells = g.cell_count();
    let n = g.len();
    let target = (n / (rayon::current_num_threads() * 32)).clamp(64, 4096);
    let mut groups = Vec::new();
    let mut rest = next;
    let mut c = 0;
    while c < cells {
        let c0 = c;
        let s0 = starts[c] as usize;
        c += 1;
        while c < cells && (starts[c] as usize - s0) < target {
            c += 1;
        }
        let (head, tail) = rest.split(starts[c] as usize - s0);
        rest = tail;
        groups.push((c0..c, s0, head));
    }
    let heads = ctx.params.alignment == AlignmentMode::MeanHeading;
    let period = g.period().map(|p| p.size);
    let original = g.original();
    // The k nearest, or every neighbour in (distance, index) order when the rules need the
    // neighbours' speeds (which the SIMD kernel does not sum).
    let k = match (ctx.params.max_neighbours, ctx.params.alignment) {
        (0, AlignmentMode::GroupSpeed) => usize::MAX,
        (k, _) => k as usize,
    };
    groups
        .into_par_iter()
        .map_init(
            || (CandidateBuf::default(), Vec::new(), Vec::new()),
            |(buf, near, hits), (cells, s0, mut out)| {
                let mut used = 0u64;
                for cell in cells {
                    let slots = g.cell_slots(cell);
                    if slots.is_empty() {
                        continue;
                    }
                    g.gather_candidates(cell, buf, heads, k > 0);
                    let cand = buf.slices();
                    let first = slots.start;
                    for s in slots {
                        let i = original[s];
                        let own = BoidState {
                            position: g.position(s),
                            velocity: g.velocity(s as u32),
                            heading: g.heading(s as u32),
                            extra: ctx.extras.get(i as usize).copied().unwrap_or_default(),
                        };
                        let own_index = buf.own_index(s - first);
                        let mut hood = if k == 0 {
                            gather_block(
                                &ctx.derived,
                                own.position,
                                own.heading,
                                own_index,
                                &cand,
                                period,
                            )
                        } else {
                            k_nearest_block(ctx, g, buf, own, own_index, period, k, near)
                        };
                        fallback_nearest(ctx, g, &own, i, &mut hood, hits);
                        hood.external = ctx.external.get(i as usize).copied().unwrap_or_default();
                        let next = ctx.advance(&own, &hood, ctx.ids[i as usize]);
                        out.set(s - s0, &next);
                        used += u64::from(hood.count);
                    }
                }
                used
            },
        )
        .sum()
}

/// The `k` nearest candidates of the block (ties by original index, as in
/// [`NeighbourIndex::k_nearest`]), offered to `consider` nearest first, exactly as the generic
/// path does.
#[allow(clippy::too_many_arguments)]
fn k_nearest_block(
    ctx: &StepCtx<'_>,
    g: &Grid,
    buf: &CandidateBuf,
    own: BoidState,
    own_index: usize,
    period: Option<Vec3>,
    k: usize,
    near: &mut Vec<(f32, u32)>,
) -> Neighbourhood {
    let cand = buf.slices();
    near.clear();
    within_radius(&ctx.derived, own.position, own_index, &cand, period, near);
    let original = g.original();
    let slots = buf.slots();
    // Keep the k smallest (d2, original index) by insertion into a short sorted list; d2 is
    // never negative, so its bits order like the number.
    let key = |d2: f32, j: u32| {
        (u64::from(d2.to_bits()) << 32) | u64::from(original[slots[j as usize] as usize])
    };
    let mut best: Vec<(u64, f32, u32)> = Vec::with_capacity(k.min(near.len()) + 1);
    for &(d2, j) in near.iter() {
        let kj = key(d2, j);
        if best.len() == k && kj >= best[k - 1].0 {
            continue;
        }
        let at = best.partition_point(|b| b.0 < kj);
        best.insert(at, (kj, d2, j));
        best.truncate(k);
    }
    near.clear();
    near.extend(best.iter().map(|&(_, d2, j)| (d2, j)));
    let mut hood = Neighbourhood::default();
    for &(d2, j) in near.iter() {
        let j = j as usize;
        let mut o = Vec3::new(cand.x[j], cand.y[j], cand.z[j]) - own.position;
        if let Some(size) = period {
            o = Vec3::new(
                wrap_axis(o.x, size.x),
                wrap_axis(o.y, size.y),
                wrap_axis(o.z, size.z),
            );
        }
        let slot = slots[j];
        hood.consider(
            &ctx.derived,
            own.heading,
            o,
            d2,
            g.velocity(slot),
            g.heading(slot),
        );
    }
    hood
}

/// Any index, boids in id order, neighbours through the index's query. Returns the neighbours
/// used.
fn step_generic(
    ctx: &StepCtx<'_>,
    index: &AnyIndex,
    cur: (&[Vec3], &[Vec3], &[Vec3]),
    next: Out<'_>,
) -> u64 {
    let (positions, velocities, headings) = cur;
    let k = ctx.params.max_neighbours as usize;
    let radius = ctx.params.perception_radius;
    let n = positions.len();
    let mut chunks = Vec::new();
    let mut rest = next;
    let mut start = 0;
    while start < n {
        let len = (n - start).min(256);
        let (head, tail) = rest.split(len);
        rest = tail;
        chunks.push((start, head));
        start += len;
    }
    chunks
        .into_par_iter()
        .map_init(Vec::<Hit>::new, |hits, (start, mut out)| {
            let mut used = 0u64;
            for k_in in 0..out.p.len() {
                let i = start + k_in;
                let own = BoidState {
                    position: positions[i],
                    velocity: velocities[i],
                    heading: headings[i],
                    extra: ctx.extras.get(i).copied().unwrap_or_default(),
                };
                let mut hood = gather(index, &ctx.derived, &own, i as u32, radius, k, hits);
                fallback_nearest(ctx, index, &own, i as u32, &mut hood, hits);
                hood.external = ctx.external.get(i).copied().unwrap_or_default();
                let next = ctx.advance(&own, &hood, ctx.ids[i]);
                out.set(k_in, &next);
                used += u64::from(hood.count);
            }
            used
        })
        .sum()
}

/// Everything boid `own` (array position `i`) sees in the index.
#[inline]
fn gather(
    index: &AnyIndex,
    derived: &Derived,
    own: &BoidState,
    i: u32,
    radius: f32,
    k: usize,
    hits: &mut Vec<Hit>,
) -> Neighbourhood {
    let mut hood = Neighbourhood::default();
    let mut take = |h: Hit| {
        hood.consider(
            derived,
            own.heading,
            h.offset,
            h.d2,
            index.velocity(h.slot),
            index.heading(h.slot),
        );
    };
    if k > 0 {
        index.k_nearest(own.position, radius, k, i, hits);
        for &h in hits.iter() {
            take(h);
        }
    } else {
        index.for_each_within(own.position, radius, i, take);
    }
    hood
}

/// Steering of every boid of `f` from the flocks it reacts to: flee, chase, avoid or flock
/// together with their boids within each relation's radius, found through their indices.
pub(crate) fn external_steering(
    f: &Flock,
    others: &[(&crate::world::Relation, &Flock)],
) -> Vec<Vec3> {
    use crate::world::RelationKind;
    let max_speed = f.params.max_speed.max(1e-3);
    f.positions
        .par_iter()
        .zip(f.velocities.par_iter())
        .with_min_len(256)
        .map_init(Vec::<Hit>::new, |hits, (&p, &v)| {
            let mut ext = Vec3::ZERO;
            for (r, o) in others {
                let idx = o.index();
                match r.kind {
                    RelationKind::Ignore => {}
                    RelationKind::Flee | RelationKind::Chase => {
                        idx.k_nearest(p, r.radius, 1, u32::MAX, hits);
                        if let Some(h) = hits.first() {
                            let vb = idx.velocity(h.slot);
                            let dist = h.d2.sqrt();
                            let (t, sign) = if r.kind == RelationKind::Chase {
                                (dist / max_speed, 1.0)
                            } else {
                                (dist / (v.length() + vb.length()).max(1e-3), -1.0)
                            };
                            // Where the other boid will be, relative to this one.
                            let ahead = h.offset + vb * t;
                            ext += r.weight * sign * ahead.normalize_or_zero();
                        }
                    }
                    RelationKind::Avoid => {
                        let (mut sum, mut n) = (Vec3::ZERO, 0u32);
                        idx.for_each_within(p, r.radius, u32::MAX, |h| {
                            sum -= h.offset.normalize_or_zero();
                            n += 1;
                        });
                        if n > 0 {
                            ext += r.weight * sum / n as f32;
                        }
                    }
                    RelationKind::FlockTogether => {
                        let (mut off, mut vel, mut n) = (Vec3::ZERO, Vec3::ZERO, 0u32);
                        idx.for_each_within(p, r.radius, u32::MAX, |h| {
                            off += h.offset;
                            vel += idx.velocity(h.slot);
                            n += 1;
                        });
                        if n > 0 {
                            let m = (off / n as f32).normalize_or_zero() + vel.normalize_or_zero();
                            ext += r.weight * 0.5 * m;
                        }
                    }
                }
            }
            ext
        })
        .collect()
}
