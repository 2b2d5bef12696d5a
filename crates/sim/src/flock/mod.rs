//! One flock: its parameters and its boids as arrays, kept in the cell order of the last step.
//!
//! - `spawn.rs`: where new boids come from, and adding, removing and overwriting boids.
//! - `view.rs`: reading the boids in id order (the order every public read uses).
//! - `step.rs`: one step: sort into cell order, neighbours, rules, write.
//! - `relations.rs`: steering from other flocks (flee, chase, avoid, flock together).
//!
//! The storage order is the grid's cell order of the last step, not the id order: the next step
//! then sorts an almost sorted array, and the neighbour search reads memory in order. Reads in id
//! order go through a permutation built when first asked for after a change (`view.rs`).

mod bodies;
mod body_grid;
mod relations;
#[cfg(feature = "save")]
mod saved;
mod spawn;
mod step;
mod view;

pub(crate) use relations::external_steering;
#[cfg(feature = "save")]
pub(crate) use saved::SavedFlock;
pub use spawn::{Spawn, SpawnKind, SpawnShape};
pub(crate) use step::{StepFlock, StepInput, Stepped, period_of, prepare, step};

use crate::error::{Error, invalid};
use boids_core::math::look_rotation;
use boids_core::{Extra, FlockParams, IndexKind, Integrator, Vec3, limits};
use boids_index::Index;
use std::sync::{Arc, OnceLock};

/// A copy of a flock's boids, to restore later (benchmarks step the same state repeatedly).
#[derive(Clone, Debug, PartialEq)]
pub struct FlockSnapshot {
    ids: Vec<u32>,
    rank: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    extras: Vec<Extra>,
    next_id: u32,
}

/// The boids in storage order (the cell order of the last step): what every read sees. A step
/// in flight shares it (it reads it, and writes the next state into other buffers), so reads
/// of the state before the step stay possible while it runs.
#[derive(Clone, Default)]
pub(crate) struct Boids {
    pub(crate) ids: Vec<u32>,
    /// Position of each boid in ascending id order.
    pub(crate) rank: Vec<u32>,
    pub(crate) positions: Vec<Vec3>,
    pub(crate) velocities: Vec<Vec3>,
    pub(crate) headings: Vec<Vec3>,
    /// Extra per-boid state, only for models that need it (else empty).
    pub(crate) extras: Vec<Extra>,
    /// Storage slot of each boid in id order, built on first use after a change.
    pub(crate) id_slots: OnceLock<Vec<u32>>,
    /// The boids in id order, built on first use after a change.
    pub(crate) id_view: OnceLock<view::IdView>,
    /// Positions and headings in id order, written by the step that made this state when the
    /// flock is being read ([`view::Ordered`]); dropped by any change.
    pub(crate) ordered: OnceLock<view::Ordered>,
    /// Steps since the flock was read in id order: whether the step writes `ordered`.
    pub(crate) unread: view::Unread,
}

/// What a step works with: the neighbour index over the boids, their ids, ranks and extra state
/// permuted into its cell order, and the buffers the next state is written into.
#[derive(Default)]
pub(crate) struct Work {
    pub(crate) index: Index,
    pub(crate) ids_sorted: Vec<u32>,
    pub(crate) rank_sorted: Vec<u32>,
    pub(crate) extras_sorted: Vec<Extra>,
    /// The index and the `*_sorted` arrays describe the current boids.
    pub(crate) prepared: bool,
    /// The buffers of an earlier state, reused for the next one.
    pub(crate) spare: Boids,
    /// The id-order slots of an earlier state, reused for the next one's.
    pub(crate) id_slots: Vec<u32>,
    /// The arrays in id order of an earlier state, reused for the next one's.
    pub(crate) ordered: view::Ordered,
    /// The body pass's grid, reused.
    pub(crate) bodies: body_grid::Grid,
    /// A grounded flock's short lists of the ground and solids near it, remade every step.
    pub(crate) near_ground: Vec<boids_core::Placed>,
    pub(crate) near_solids: Vec<boids_core::Placed>,
    /// The state a chain of steps replaced ([`Flock::adopt`]), kept for the next chain's first
    /// step, which cannot write into the state the world still shows: so a frame of chained
    /// steps allocates nothing.
    pub(crate) spare_state: Option<Arc<Boids>>,
}

impl Work {
    /// Keeps `o`'s memory for the next step's arrays in id order if it has more than the
    /// memory kept (one set kept, the other dropped).
    pub(crate) fn keep_ordered(&mut self, o: view::Ordered) {
        if self.ordered.heap_bytes() < o.heap_bytes() {
            self.ordered = o;
        }
    }
}

/// A flock of boids. Read it through [`crate::World::flock`]; change it through the world.
pub struct Flock {
    pub(crate) name: String,
    pub(crate) params: FlockParams,
    pub(crate) target: Option<Vec3>,
    /// The boids (shared with a step in flight).
    pub(crate) st: Arc<Boids>,
    /// The step's working state; `None` only while a step is in flight (it holds it).
    pub(crate) work: Option<Box<Work>>,
    next_id: u32,
    pub(crate) last_neighbours: u64,
    pub(crate) wake_region: Option<(Vec3, Vec3)>,
    pub(crate) asleep: bool,
    /// Stepped in the current world step (level of detail may skip it).
    pub(crate) active: bool,
    pub(crate) path: Vec<Vec3>,
    pub(crate) path_closed: bool,
    pub(crate) leader: Option<(u32, Vec3)>,
}

const SPAWN_STREAM: u32 = 1;
const RULE_STREAM: u32 = 0;

/// Checks one caller point (`what` names it).
pub(crate) fn check_point(what: &str, v: Vec3) -> Result<(), Error> {
    limits::point(v).map_err(|e| invalid(format!("{what} {e}")))
}

/// Checks entry `i` of a caller array (`what` names the array).
pub(crate) fn check_vec(what: &str, i: usize, v: Vec3) -> Result<(), Error> {
    limits::point(v).map_err(|e| invalid(format!("{what}[{i}] {e}")))
}

/// Checks boid `i`'s extra state (a save file's, or a caller's): a unit orientation, and a
/// SmoothDamp velocity and wander point inside the limit.
pub(crate) fn check_extra(i: usize, e: &Extra) -> Result<(), Error> {
    let q = e.orientation;
    if !(q.is_finite() && (q.length() - 1.0).abs() <= 1e-3) {
        return Err(invalid(format!(
            "orientation[{i}] {q} is not a unit quaternion"
        )));
    }
    check_vec("smooth-damp velocity", i, e.damp)?;
    check_vec("wander point", i, e.wander)
}

/// Extra state of a boid heading along `h`.
fn extra_for(h: Vec3) -> Extra {
    Extra {
        orientation: look_rotation(h),
        damp: Vec3::ZERO,
        wander: Vec3::ZERO,
    }
}

impl Flock {
    pub(crate) fn new(name: String, params: FlockParams) -> Self {
        Flock {
            name,
            target: params.target.map(|t| t.point),
            work: Some(Box::new(Work {
                index: Index::new(params.index),
                ..Work::default()
            })),
            params,
            st: Arc::new(Boids::default()),
            next_id: 0,
            last_neighbours: 0,
            wake_region: None,
            asleep: false,
            active: true,
            path: Vec::new(),
            path_closed: false,
            leader: None,
        }
    }

    /// What several steps in a row need of the flock, on a worker ([`crate::World::step_begin_n`]):
    /// its boids shared, its working state moved (this flock keeps none until
    /// [`Flock::adopt`]), the rest copied; no name.
    pub(crate) fn lend(&mut self) -> Flock {
        Flock {
            name: String::new(),
            params: self.params,
            target: self.target,
            st: Arc::clone(&self.st),
            work: self.work.take(),
            next_id: self.next_id,
            last_neighbours: self.last_neighbours,
            wake_region: self.wake_region,
            asleep: self.asleep,
            active: self.active,
            path: self.path.clone(),
            path_closed: self.path_closed,
            leader: self.leader,
        }
    }

    /// Takes back what [`Flock::lend`] lent, as the steps left it: the boids, the working
    /// state, and what a step's bookkeeping sets (the target, sleep, level of detail, the
    /// neighbours counted). `keep_boids`: the steps broke off where the boids were not whole,
    /// so this flock's own (the state before them) stay.
    pub(crate) fn adopt(&mut self, lent: &mut Flock, keep_boids: bool) {
        let mut work = lent.work.take().unwrap_or_else(|| {
            Box::new(Work {
                index: Index::new(self.params.index),
                ..Work::default()
            })
        });
        if !keep_boids {
            let mut before = std::mem::replace(&mut self.st, Arc::clone(&lent.st));
            // The state before the steps, now read by no one (unless a reader holds it): its
            // memory for the next chain's first step, which writes into the spare buffers (the
            // chain's last step wrote into its state's own, leaving none spare).
            if let Some(b) = Arc::get_mut(&mut before) {
                let spare = &mut work.spare;
                for (mine, theirs) in [
                    (&mut spare.positions, &mut b.positions),
                    (&mut spare.velocities, &mut b.velocities),
                    (&mut spare.headings, &mut b.headings),
                ] {
                    if mine.capacity() < theirs.capacity() {
                        std::mem::swap(mine, theirs);
                    }
                }
                if spare.extras.capacity() < b.extras.capacity() {
                    std::mem::swap(&mut spare.extras, &mut b.extras);
                }
                if let Some(o) = b.ordered.take() {
                    work.keep_ordered(o);
                }
                work.spare_state = Some(before);
            }
        }
        self.work = Some(work);
        self.target = lent.target;
        self.asleep = lent.asleep;
        self.active = lent.active;
        self.last_neighbours = lent.last_neighbours;
    }

    /// The boids changed: the index, the sorted copies and the id-order views are stale.
    fn changed(&mut self) {
        self.work_mut().prepared = false;
        let st = self.st_mut();
        st.id_slots.take();
        st.id_view.take();
        // Stale, but its memory serves the next step's (no allocation a frame for a host that
        // changes the boids every frame).
        if let Some(o) = st.ordered.take() {
            self.work_mut().keep_ordered(o);
        }
    }

    /// The boids, to change (copied first only if a step in flight still shares them, which
    /// the world prevents: it refuses changes during a step).
    pub(crate) fn st_mut(&mut self) -> &mut Boids {
        Arc::make_mut(&mut self.st)
    }

    /// The step's working state (present whenever no step is in flight).
    pub(crate) fn work(&self) -> &Work {
        self.work.as_deref().expect("no step in flight")
    }

    pub(crate) fn work_mut(&mut self) -> &mut Work {
        self.work.as_deref_mut().expect("no step in flight")
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
        self.st.ids.len()
    }
    /// `true` when the flock has no boids.
    pub fn is_empty(&self) -> bool {
        self.st.ids.is_empty()
    }

    /// Whether the flock is drawn leaning with the ground (grounded, `GroundUp::Normal`): its
    /// orientations are kept in the extra state, set by each step.
    pub(crate) fn leans(p: &FlockParams) -> bool {
        p.ground
            .is_some_and(|g| g.up == boids_core::GroundUp::Normal)
    }

    /// Whether the params keep per-boid extra state.
    fn needs_extra(p: &FlockParams) -> bool {
        p.integrator == Integrator::HeadingSpeed
            || p.cohesion_smooth_time > 0.0
            || p.weights.wander != 0.0
            || Self::leans(p)
    }

    /// The path the flock follows (empty: none) and whether it is closed.
    pub fn path(&self) -> (&[Vec3], bool) {
        (&self.path, self.path_closed)
    }

    /// The designated leader's id and the offset (in the leader's frame) followers aim for.
    pub fn leader(&self) -> Option<(u32, Vec3)> {
        self.leader
    }

    /// Mean position (zero for an empty flock). Summed in storage order, which is
    /// deterministic.
    pub fn centre(&self) -> Vec3 {
        if self.is_empty() {
            Vec3::ZERO
        } else {
            self.st.positions.iter().copied().sum::<Vec3>() / self.len() as f32
        }
    }

    /// Whether the last world step moved this flock (level of detail can skip steps).
    pub fn was_stepped(&self) -> bool {
        self.active && !self.asleep
    }
    /// The current target point, if the flock has a target.
    pub fn target(&self) -> Option<Vec3> {
        self.target
    }

    /// How near its target a boid is at it: the flock's arrival radius, or without one the
    /// target's avoid distance, or without that its perception radius.
    pub fn target_radius(&self) -> f32 {
        let p = &self.params;
        match (p.arrival_radius, p.target.map_or(0.0, |t| t.avoid_distance)) {
            (a, _) if a > 0.0 => a,
            (_, d) if d > 0.0 => d,
            _ => p.perception_radius,
        }
    }

    /// How many boids are at the flock's target: within [`Flock::target_radius`] of it (in
    /// the horizontal plane for a grounded flock, whose target may float above the ground);
    /// `None` when the flock has no target.
    pub fn at_target(&self) -> Option<usize> {
        self.target.map(|t| self.count_at(t))
    }

    /// How many boids are within [`Flock::target_radius`] of `t` (as [`Flock::at_target`]).
    pub(crate) fn count_at(&self, t: Vec3) -> usize {
        let r2 = self.target_radius() * self.target_radius();
        let grounded = self.params.ground.is_some();
        self.st
            .positions
            .iter()
            .filter(|&&p| {
                let mut d = p - t;
                if grounded {
                    d.y = 0.0;
                }
                d.length_squared() <= r2
            })
            .count()
    }
    /// The neighbour index built in the last step, over the state before that step (other
    /// flocks query it for their relations); `None` while a step is in flight.
    pub fn index(&self) -> Option<&Index> {
        self.work.as_deref().map(|w| &w.index)
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

    /// Other boids strictly within the perception radius of each boid now, summed (before the
    /// field of view and any k-nearest limit): the pairs a step's neighbour kernel sums over,
    /// for benchmark figures such as time per neighbour. A separate pass over the flock (about
    /// the cost of a step's neighbour search, on one thread), not part of a step.
    pub fn pairs_within_radius(&self) -> u64 {
        step::pairs_within_radius(&self.params, &self.st)
    }
    /// Heap bytes held by the flock's arrays, its index and its id-order views (the slots in id
    /// order exist after a step or a read in id order, the copies in id order only after a
    /// borrowing read such as [`Flock::positions`]).
    pub fn heap_bytes(&self) -> usize {
        let v = |x: &Vec<Vec3>| x.capacity() * 12;
        let u = |x: &Vec<u32>| x.capacity() * 4;
        let e = |x: &Vec<Extra>| x.capacity() * size_of::<Extra>();
        let boids = |b: &Boids| {
            u(&b.ids)
                + u(&b.rank)
                + v(&b.positions)
                + v(&b.velocities)
                + v(&b.headings)
                + e(&b.extras)
                + b.id_slots.get().map_or(0, u)
                + b.id_view.get().map_or(0, view::IdView::heap_bytes)
                + b.ordered.get().map_or(0, view::Ordered::heap_bytes)
        };
        boids(&self.st)
            + self.work.as_deref().map_or(0, |w| {
                u(&w.ids_sorted)
                    + u(&w.rank_sorted)
                    + e(&w.extras_sorted)
                    + u(&w.id_slots)
                    + w.ordered.heap_bytes()
                    + w.index.heap_bytes()
                    + boids(&w.spare)
                    + w.spare_state.as_deref().map_or(0, boids)
            })
    }

    /// A copy of the boids.
    pub fn snapshot(&self) -> FlockSnapshot {
        FlockSnapshot {
            ids: self.st.ids.clone(),
            rank: self.st.rank.clone(),
            positions: self.st.positions.clone(),
            velocities: self.st.velocities.clone(),
            headings: self.st.headings.clone(),
            extras: self.st.extras.clone(),
            next_id: self.next_id,
        }
    }

    pub(crate) fn restore(&mut self, s: &FlockSnapshot) {
        let need = Self::needs_extra(&self.params);
        let st = self.st_mut();
        st.ids.clone_from(&s.ids);
        st.rank.clone_from(&s.rank);
        st.positions.clone_from(&s.positions);
        st.velocities.clone_from(&s.velocities);
        st.headings.clone_from(&s.headings);
        st.extras.clone_from(&s.extras);
        if need && st.extras.len() != st.ids.len() {
            st.extras = st.headings.iter().map(|&h| extra_for(h)).collect();
        } else if !need {
            st.extras.clear();
        }
        self.next_id = s.next_id;
        self.changed();
    }

    pub(crate) fn set_params(&mut self, params: FlockParams) -> Result<(), Error> {
        params.validate()?;
        let kind = match params.index {
            IndexKind::Auto => IndexKind::Grid,
            k => k,
        };
        if kind != self.work().index.kind() {
            let mut index = Index::new(kind);
            index
                .try_reserve(self.len())
                .map_err(|_| invalid("cannot allocate memory for the new index"))?;
            self.work_mut().index = index;
        }
        // A new plane lock takes hold at once: the state is projected onto the plane, so what
        // a host reads back is what a write would store.
        if params.plane != self.params.plane && params.plane != boids_core::PlaneLock::None {
            let plane = params.plane;
            let st = self.st_mut();
            for i in 0..st.ids.len() {
                st.positions[i] = plane.apply(st.positions[i]);
                st.velocities[i] = plane.apply(st.velocities[i]);
                let h = plane.apply(st.headings[i]).normalize_or_zero();
                let v = st.velocities[i].normalize_or_zero();
                let h = [h, v].into_iter().find(|x| *x != Vec3::ZERO);
                // Perpendicular to the plane before: any in-plane direction will do.
                st.headings[i] = h.unwrap_or(plane.apply(Vec3::X));
                if let Some(e) = st.extras.get_mut(i) {
                    e.orientation = look_rotation(st.headings[i]);
                }
            }
        }
        if params.target.is_some() && self.target.is_none() {
            self.target = params.target.map(|t| t.point);
        }
        if params.target.is_none() {
            self.target = None;
        }
        let need = Self::needs_extra(&params);
        if need && self.st.extras.len() != self.len() {
            let st = self.st_mut();
            st.extras = st.headings.iter().map(|&h| extra_for(h)).collect();
        } else if !need {
            self.st_mut().extras = Vec::new();
            let w = self.work_mut();
            w.extras_sorted = Vec::new();
            w.spare.extras = Vec::new();
        }
        self.params = params;
        self.changed();
        Ok(())
    }

    pub(crate) fn set_target(&mut self, point: Vec3) -> Result<(), Error> {
        check_point("target", point)?;
        if self.params.target.is_none() {
            return Err(invalid(format!(
                "flock '{}' has no target to move: give its params a target first (C: has_target = 1)",
                self.name
            )));
        }
        self.target = Some(point);
        Ok(())
    }

    /// Storage slot of the boid with this id.
    pub(crate) fn slot_of(&self, id: u32) -> Option<usize> {
        let rank = self.position_of(id)?;
        Some(self.id_slots()[rank] as usize)
    }
}
