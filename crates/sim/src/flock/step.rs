//! One step of one flock, on its parts: the boids (read only, shared with readers while the
//! step is in flight) and the step's working state.
//!
//! 1. `prepare`: the index sorts the boids by grid cell (a stable counting sort of an array
//!    that is already almost in that order) and copies them, in that order, into its arrays;
//!    the flock's ids, ranks and extra state are permuted alongside.
//! 2. `step`: for every slot, in parallel, the kernel sums the neighbours, `step_boid` applies
//!    the rules, and the next state is written into other buffers *in the index's order*,
//!    which becomes the new storage order when the world installs it. Nothing reads what this
//!    step writes, and nothing this step reads changes while it runs.

use super::{Boids, Flock, RULE_STREAM, Work};
use boids_core::FlockParams;
use boids_core::fmath::Order;
use boids_core::rules8::{LANES, V8, fast_rules_apply, step_boids8_on};
use boids_core::{
    AlignmentMode, BoidState, Bounds, Env, Extra, Neighbourhood, Rng, Vec3, step_boid,
};
use boids_index::exec::{Exec, MAX_PIECES, for_pieces};
use boids_index::{
    Hit, NeighbourIndex, Period, Points, STEP_PARALLEL_MIN, Scratch, SimdLevel, Spec,
};
use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

thread_local! {
    /// Each thread's scratch lists for the neighbourhood walk, kept from step to step: a step
    /// allocates nothing once they have their sizes.
    static SCRATCH: RefCell<(Scratch, Vec<Hit>)> = RefCell::default();
}

/// `f` with this thread's scratch lists (fresh ones if they are in use further up the stack).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch, &mut Vec<Hit>) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut kept) => {
            let (scratch, hits) = &mut *kept;
            f(scratch, hits)
        }
        Err(_) => f(&mut Scratch::default(), &mut Vec::new()),
    })
}

/// What a flock's step needs from the world.
pub(crate) struct StepInput<'a> {
    pub(crate) dt: f32,
    pub(crate) seed: u64,
    pub(crate) step: u64,
    pub(crate) obstacles: &'a [boids_core::Placed],
    /// The ground placements, and every other obstacle (a grounded flock's walls).
    pub(crate) ground: &'a [boids_core::Placed],
    pub(crate) solids: &'a [boids_core::Placed],
    /// Steering from other flocks, by slot of the prepared index (empty when none).
    pub(crate) external: &'a [Vec3],
    pub(crate) level: SimdLevel,
    pub(crate) exec: &'a dyn Exec,
}

/// What one flock's step reads besides its boids and working state: copies of the flock's
/// settings at the start of the step.
pub(crate) struct StepFlock {
    pub(crate) params: FlockParams,
    pub(crate) target: Option<Vec3>,
    pub(crate) path: Vec<Vec3>,
    pub(crate) path_closed: bool,
    /// The leader's id, which follows no target.
    pub(crate) leader: Option<u32>,
    /// The flow field to the target, for a grounded flock with one (the world's flow cell
    /// size set, and ground to walk on).
    pub(crate) flow: Option<std::sync::Arc<boids_core::flow::FlowField>>,
    /// How far from the target its boids stand ([`boids_core::stand_radius`]).
    pub(crate) stand_radius: f32,
}

/// The xz box of `positions` grown by `grow` (`None` when empty or not finite), with the
/// ground and solids of `input` that may reach into it kept in the two short lists.
fn nearby_region(
    positions: impl Iterator<Item = Vec3>,
    grow: f32,
    input: &StepInput<'_>,
    near_ground: &mut Vec<boids_core::Placed>,
    near_solids: &mut Vec<boids_core::Placed>,
) -> Option<([f32; 2], [f32; 2])> {
    let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for p in positions {
        (lo, hi) = (lo.at_most(p), hi.at_least(p));
    }
    let (lo, hi) = ([lo.x - grow, lo.z - grow], [hi.x + grow, hi.z + grow]);
    if !lo.iter().chain(&hi).all(|v| v.is_finite()) {
        return None;
    }
    near_ground.clear();
    near_solids.clear();
    boids_core::ground::keep_nearby(input.ground, lo, hi, near_ground);
    boids_core::ground::keep_nearby(input.solids, lo, hi, near_solids);
    Some((lo, hi))
}

/// The periodic box of wrap-around bounds.
pub(crate) fn period_of(b: &Bounds) -> Option<Period> {
    match *b {
        Bounds::Wrap { min, max } => Some(Period::new(min, max)),
        _ => None,
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

    /// Slot `k`'s position, velocity and heading from lane `l` of `next` (its extras untouched).
    #[inline]
    fn set_motion(&mut self, k: usize, next: &boids_core::rules8::States8, l: usize) {
        let b = next.get(l);
        self.p[k] = b.position;
        self.v[k] = b.velocity;
        self.h[k] = b.heading;
    }

    #[inline]
    fn set(&mut self, k: usize, b: &BoidState) {
        self.p[k] = b.position;
        self.v[k] = b.velocity;
        self.h[k] = b.heading;
        if let Some(e) = self.e.get_mut(k) {
            *e = b.extra;
        }
    }
}

impl Flock {
    /// [`prepare`] on the flock's own parts (no step in flight).
    pub(crate) fn prepare(&mut self, exec: &dyn Exec) {
        let w = self.work.as_deref_mut().expect("no step in flight");
        prepare(exec, &self.params, &self.st, w);
    }
}

/// The kernel's settings for these params.
pub(crate) fn spec_of(p: &FlockParams, level: SimdLevel) -> Spec {
    {
        Spec {
            r2: p.perception_radius * p.perception_radius,
            s2: p.separation_radius * p.separation_radius,
            cos: boids_core::fov_cos(p.fov_half_angle_deg),
            sep: p.separation,
            heads: p.alignment == AlignmentMode::MeanHeading,
            speed: p.alignment == AlignmentMode::GroupSpeed,
            period: period_of(&p.bounds).map(|per| per.size),
            level,
        }
    }
}

/// Builds `index` over the boids `st` at the flock's perception radius, in its space.
fn build_index(exec: &dyn Exec, p: &FlockParams, st: &Boids, index: &mut boids_index::Index) {
    index.build_with(
        exec,
        Points {
            positions: &st.positions,
            velocities: &st.velocities,
            headings: &st.headings,
        },
        p.perception_radius,
        period_of(&p.bounds),
    );
}

/// Sorts the boids into cell order in the index (if they changed since) and permutes the
/// per-boid arrays that travel with them. (Never inlined: `scripts/profile` counts what runs
/// inside it and [`step`].)
#[inline(never)]
pub(crate) fn prepare(exec: &dyn Exec, p: &FlockParams, st: &Boids, w: &mut Work) {
    if w.prepared {
        return;
    }
    build_index(exec, p, st, &mut w.index);
    let order = w.index.order();
    boids_index::permute_with(exec, order, &st.ids, &mut w.ids_sorted, |x| x);
    boids_index::permute_with(exec, order, &st.rank, &mut w.rank_sorted, |x| x);
    if st.extras.is_empty() {
        w.extras_sorted.clear();
    } else {
        boids_index::permute_with(exec, order, &st.extras, &mut w.extras_sorted, |x| x);
    }
    w.prepared = true;
}

/// What a step of one flock produced: the next boids, and the neighbours used, summed.
pub(crate) struct Stepped {
    pub(crate) next: Boids,
    pub(crate) neighbours: u64,
}

/// [`crate::Flock::pairs_within_radius`]: the flock's boids in a grid of their own, every
/// boid's neighbourhood with the view all around and no k limit, counted.
pub(crate) fn pairs_within_radius(p: &FlockParams, st: &Boids) -> u64 {
    let mut index = boids_index::Index::new(boids_core::IndexKind::Grid);
    build_index(&boids_index::SerialExec, p, st, &mut index);
    let spec = Spec {
        cos: f32::NEG_INFINITY,
        ..spec_of(p, SimdLevel::detect())
    };
    let cells = index.cell_starts().len() - 1;
    let mut pairs = 0u64;
    index.for_each_neighbourhood(0..cells, &spec, 0, &mut Scratch::default(), |_, h| {
        pairs += u64::from(h.count);
    });
    pairs
}

/// Computes the next state from the prepared index into the spare buffers of `w`, in the
/// index's cell order: the flock's next boids. Runs on `input.exec` when the flock is large.
/// (Never inlined, like [`prepare`].)
#[inline(never)]
pub(crate) fn step(f: &StepFlock, st: &Boids, w: &mut Work, input: &StepInput<'_>) -> Stepped {
    prepare(input.exec, &f.params, st, w);
    let n = st.ids.len();
    let spec = spec_of(&f.params, input.level);
    let k = f.params.max_neighbours as usize;
    let leader = f.leader;
    // The next boids, in the spare buffers (reused from the state before last).
    // Every slot is written below (each group writes all of its own), so what the buffers
    // held is kept, not cleared: only a new tail gets a value first. (A step that panics
    // installs nothing.)
    let mut next = std::mem::take(&mut w.spare);
    for v in [
        &mut next.positions,
        &mut next.velocities,
        &mut next.headings,
    ] {
        v.truncate(n);
        v.resize(n, Vec3::ZERO);
    }
    if st.extras.is_empty() {
        next.extras.clear();
    } else {
        next.extras.truncate(n);
        next.extras.resize(n, Extra::default());
    }
    // A grounded flock's queries search the ground and solids near it: everything within a
    // look-ahead, a body and a step's move of where its boids are, and a unit more.
    let region = f.params.ground.and_then(|_| {
        let p = &f.params;
        let grow = p.look_ahead.at_least(0.0)
            + p.boid_radius.at_least(0.0)
            + p.body_radius.at_least(0.0)
            + p.max_speed.at_least(p.min_speed).at_least(0.0) * input.dt
            + 1.0;
        // The prepared index holds the boids' positions (in its cell order).
        let index = &w.index;
        let at = (0..n).map(|s| index.position(s));
        nearby_region(at, grow, input, &mut w.near_ground, &mut w.near_solids)
    });
    let Work {
        index,
        ids_sorted: ids,
        extras_sorted: extras,
        near_ground,
        near_solids,
        ..
    } = &*w;
    let nearby = region.map(|(lo, hi)| boids_core::ground::Nearby {
        ground: near_ground,
        solids: near_solids,
        lo,
        hi,
    });
    let neighbours = {
        let params = &f.params;
        let env = Env {
            nearby,
            target: f.target,
            obstacles: if params.ground.is_some() {
                input.solids
            } else {
                input.obstacles
            },
            ground: if params.ground.is_some() {
                input.ground
            } else {
                &[]
            },
            path: &f.path,
            path_closed: f.path_closed,
            flow: f.flow.as_deref(),
            stand_radius: f.stand_radius,
        };
        let no_target = Env {
            target: None,
            ..env
        };
        // Eight boids at a time through the common rules, where they apply (the same bits as
        // step_boid: boids_core::rules8).
        let fast = fast_rules_apply(params, &env);
        // No lane can need the one-by-one path: no steering from other flocks, no nearest-boid
        // stand-in.
        let plain = input.external.is_empty() && !params.fallback_to_nearest;
        let wide = matches!(input.level, SimdLevel::Avx2 | SimdLevel::Avx512);
        let advance = |s: usize,
                       mut hood: Neighbourhood,
                       scratch: &mut Scratch,
                       hits: &mut Vec<Hit>|
         -> BoidState {
            let own = BoidState {
                position: index.position(s),
                velocity: index.velocity_at(s),
                heading: index.heading_at(s),
                extra: extras.get(s).copied().unwrap_or_default(),
            };
            if hood.count == 0 && params.fallback_to_nearest {
                hood = fallback_nearest(index, s, &own, &spec, scratch, hits);
            }
            hood.external = input.external.get(s).copied().unwrap_or_default();
            let id = ids[s];
            let mut rng = Rng::keyed(input.seed, id, input.step, RULE_STREAM);
            let env = if leader == Some(id) { &no_target } else { &env };
            step_boid(&own, &hood, params, env, &mut rng, input.dt)
        };
        let out = Out {
            p: &mut next.positions[..],
            v: &mut next.velocities[..],
            h: &mut next.headings[..],
            e: &mut next.extras[..],
        };
        // Cells in groups of about `target` boids; each group writes its own slots.
        let starts = index.cell_starts();
        let run = |cells: std::ops::Range<usize>,
                   mut out: Out<'_>,
                   scratch: &mut Scratch,
                   hits: &mut Vec<Hit>| {
            let first = starts[cells.start] as usize;
            let mut used = 0u64;
            let mut fallback = Scratch::default();
            // Eight consecutive slots at a time through step_boids8, or one by one where a lane
            // needs more than it covers (steering from other flocks, the nearest-boid
            // stand-in).
            if fast {
                index.for_each_neighbourhood8(cells, &spec, k, scratch, |s0, len, hoods, raws| {
                    used += hoods.count[..len]
                        .iter()
                        .map(|&c| u64::from(c))
                        .sum::<u64>();
                    let simple = plain
                        || (0..len).all(|l| {
                            input.external.get(s0 + l).is_none_or(|e| *e == Vec3::ZERO)
                                && !(hoods.count[l] == 0 && params.fallback_to_nearest)
                        });
                    if simple {
                        let own = index.states8(s0, len);
                        // Wander, boid by boid (its random draw is keyed by the boid's id):
                        // the rule's vectors for the eight lanes and the next targets.
                        let mut wander = V8::default();
                        let mut targets = [Vec3::ZERO; LANES];
                        if params.weights.wander != 0.0 {
                            for (l, target) in targets.iter_mut().enumerate().take(len) {
                                let s = s0 + l;
                                let extra = extras.get(s).copied().unwrap_or_default();
                                let mut rng =
                                    Rng::keyed(input.seed, ids[s], input.step, RULE_STREAM);
                                let (m, next) = boids_core::wander(
                                    index.heading_at(s),
                                    extra.wander,
                                    params,
                                    &mut rng,
                                    input.dt,
                                );
                                for a in 0..3 {
                                    wander.0[a].0[l] = m[a];
                                }
                                *target = next;
                            }
                        }
                        let next = step_boids8_on(wide, &own, hoods, &wander, params, input.dt);
                        if out.e.is_empty() {
                            // No per-boid extras to carry (the common case): the new states
                            // only.
                            for l in 0..len {
                                out.set_motion(s0 + l - first, &next, l);
                            }
                        } else {
                            for (l, &target) in targets.iter().enumerate().take(len) {
                                let s = s0 + l;
                                let mut b = next.get(l);
                                b.extra = extras.get(s).copied().unwrap_or_default();
                                if params.weights.wander != 0.0 {
                                    b.extra.wander = target;
                                }
                                out.set(s - first, &b);
                            }
                        }
                    } else {
                        for l in 0..len {
                            let s = s0 + l;
                            let next = advance(s, index.hood(raws, l), &mut fallback, hits);
                            out.set(s - first, &next);
                        }
                    }
                })
            } else {
                index.for_each_neighbourhood(cells, &spec, k, scratch, |s, hood| {
                    used += u64::from(hood.count);
                    let next = advance(s, hood, &mut fallback, hits);
                    out.set(s - first, &next);
                });
            }
            used
        };
        let cells = starts.len() - 1;
        if n < STEP_PARALLEL_MIN {
            with_scratch(|scratch, hits| run(0..cells, out, scratch, hits))
        } else {
            // Groups of whole cells, at least `target` boids each, and few enough to wait for
            // their calls on the stack (`for_pieces`): nothing allocated.
            let target = (n / (input.exec.workers() * 16))
                .clamp(256, 4096)
                .max(n.div_ceil(MAX_PIECES - 1));
            let mut rest = Some(out);
            let mut c = 0;
            let groups = std::iter::from_fn(|| {
                let r = rest.take().filter(|_| c < cells)?;
                let (c0, s0) = (c, starts[c] as usize);
                c += 1;
                while c < cells && (starts[c] as usize - s0) < target {
                    c += 1;
                }
                let (head, tail) = r.split(starts[c] as usize - s0);
                rest = Some(tail);
                Some((c0..c, head))
            });
            // Each group writes its own slots, with its thread's scratch lists.
            let total = AtomicU64::new(0);
            for_pieces(input.exec, groups, &|_, (cells, out)| {
                let used = with_scratch(|scratch, hits| run(cells, out, scratch, hits));
                // Integer sums: the same whatever the order the groups finish in.
                total.fetch_add(used, Relaxed);
            });
            total.into_inner()
        }
    };
    // The next boids follow the index's order (their id order is built below).
    std::mem::swap(&mut next.ids, &mut w.ids_sorted);
    if f.params.body_radius > 0.0 {
        // The pushes stay within a few bodies of the new positions (the lists are remade for
        // them; a push that goes farther searches the whole lists).
        let grow = 4.0 * f.params.body_radius + 1.0;
        let wraps = period_of(&f.params.bounds).is_some();
        let region = f.params.ground.and_then(|_| {
            let at = next.positions.iter().copied();
            nearby_region(at, grow, input, &mut w.near_ground, &mut w.near_solids)
        });
        let nearby = region.map(|(lo, hi)| boids_core::ground::Nearby {
            ground: &w.near_ground,
            solids: &w.near_solids,
            lo,
            hi,
        });
        let walker = f.params.ground.map(|g| {
            boids_core::ground::Walker::new(input.ground, input.solids, g, f.params.body_radius)
                .with_nearby(nearby)
        });
        super::bodies::resolve(
            &mut next.positions,
            &mut next.velocities,
            &next.ids,
            &f.params,
            input.obstacles,
            walker.as_ref(),
            // Before the step, each slot's boid stood here: the index's copy, exact without a
            // wrapping space (a synchronous step may have lent the state's own positions to
            // `next`); in a wrap box, whose index holds wrapped positions, the state's (kept).
            &|s| {
                if wraps {
                    st.positions[w.index.order()[s] as usize]
                } else {
                    w.index.position(s)
                }
            },
            input.seed,
            input.step,
            &mut w.bodies,
            input.exec,
        );
    }
    std::mem::swap(&mut next.rank, &mut w.rank_sorted);
    // The id order of the new state, built now into the buffer of the state before last, so
    // reads after the step find it (they would otherwise build and allocate it every frame).
    let mut slots = std::mem::take(&mut w.id_slots);
    super::view::build_id_slots(input.exec, &next.rank, &mut slots);
    next.id_slots = OnceLock::from(slots);
    next.id_view = OnceLock::new();
    // Its positions and headings in id order too, if the flock is being read.
    let spare = std::mem::take(&mut w.ordered);
    w.ordered = super::view::order_next(input.exec, st, &mut next, &f.params, spare);
    w.prepared = false;
    Stepped { next, neighbours }
}

/// The target-flock tutorial's stand-in: a boid that found no neighbour in range uses the
/// nearest boid at any distance.
fn fallback_nearest(
    index: &boids_index::Index,
    s: usize,
    own: &BoidState,
    spec: &Spec,
    scratch: &mut Scratch,
    hits: &mut Vec<Hit>,
) -> Neighbourhood {
    index.k_nearest(own.position, f32::INFINITY, 1, index.order()[s], hits);
    match hits.first() {
        Some(h) => index.neighbourhood_of(s, &[h.slot], spec, scratch),
        None => Neighbourhood::default(),
    }
}
