//! Bodies that do not overlap: after a flock's step, when its `body_radius` is above 0, the new
//! positions are pushed apart until a whole pass finds no two bodies overlapping by more than
//! [`TOLERANCE`] of the radius (after [`TIGHT_PASSES`] passes, a jam: by more than 0.99%), and
//! so moves nothing (or [`MAX_PASSES`] passes have run).
//!
//! Each pass bins the boids into a grid of cells a little over one body diameter wide
//! ([`super::body_grid`]) and visits every pair closer than that once, in a fixed order
//! (storage order, which is the step's cell order, forward on even passes and backward on odd
//! ones; the other boid from the 27 cells around, when it comes later in storage order): each
//! of an overlapping pair moves half the overlap apart (and half of [`SLACK`] more, so that a
//! crowd's pairs do not come back over the tolerance at the next push beside them), along the
//! line between them (the horizontal one for a grounded flock; a coincident pair along a
//! direction drawn from their ids and the step). The order depends only on the positions,
//! never on threads, so the bits are the same for any thread count.
//!
//! Each pass first pushes every body that overlaps a solid obstacle (a ball, box, capsule,
//! plane or mesh; [`contact`]: a centre inside a closed mesh goes out through its nearest face)
//! out along the contact's normal, the same order; a grounded body horizontally, and only as
//! far as the ground lets it. So a body spawned or landed inside a rock, or a fish pushed into
//! one by its school, is clear of it after the step.
//!
//! A grounded body's push is a move like a step's: it ends on the ground, and walls (steep
//! ground, drops, edges, other obstacles) stop it, so a body is never pushed off the ground or
//! into an obstacle; its partner then takes the whole separation, and half of it again
//! sideways (to a fixed side: a body between two stopped ones leaves their row instead of going
//! back and forth in it). A pair both of which are stopped moves apart sideways instead. Each
//! of an overlapping pair loses the part of its velocity that points into the other
//! (velocities only ever shrink): a crowd squeezed by its target settles instead of bouncing.
//!
//! A jam the passes cannot clear (they ran out, or walls hold it together) keeps the
//! promise another way: both bodies of a pair still over 0.99%, and closer than before the
//! step, stand where they stood before the step, with no velocity, and so on for any pair that
//! makes. So a pair that kept the promise before the step keeps it after, and one that did not
//! (spawned so) never ends a step closer than it began it.

use super::body_grid::Grid;
use boids_core::fmath::{Extremes, Order};
use boids_core::ground::{Slide, Walker, contact, horizontal, lift};
use boids_core::obstacle::Placed;
use boids_core::{FlockParams, PlaneLock, Rng, Vec3, confine};
use boids_index::PARALLEL_MIN;
use boids_index::exec::{Exec, chunks_mut};

/// `v` without its part `vn` along the unit `dir`: shorter, but one component can grow (a
/// velocity of (-1e9, -1e9, 1e9) loses its part along the diagonal): kept inside the state's
/// limit, so what a host reads back it may write (no scene under the limit ever meets it).
fn into_solid_removed(v: Vec3, dir: Vec3, vn: f32) -> Vec3 {
    let m = Vec3::splat(boids_core::MAX_MAGNITUDE);
    (v - dir * vn).within(-m, m)
}

/// The overlap, as a fraction of the body radius, a pass leaves alone.
pub(crate) const TOLERANCE: f32 = 0.005;

/// The overlap, as a fraction of the body radius, passes after the first [`TIGHT_PASSES`] leave
/// alone: just under the 1% the pass promises, so that a jammed crowd (which converges slowly)
/// stops as soon as it keeps that promise.
const LOOSE_TOLERANCE: f32 = 0.0099;

/// A pushed pair ends this far apart beyond contact, as a fraction of the radius.
const SLACK: f32 = 0.005;

/// How far sideways a body whose partner is stopped moves, as a fraction of the overlap.
const SIDE: f32 = 0.5;

/// The side a body moves to ([`SIDE`]): the one toward +x, or for a pair along x, toward
/// `SIDE_Z` (any fixed slope that no pair's axis matches exactly in practice).
const SIDE_Z: f32 = 0.618_034;

/// Passes that push anything over [`TOLERANCE`].
const TIGHT_PASSES: usize = 64;

/// Bodies closer than a diameter times `1 + CONTACT` are in contact: neither keeps the part of
/// its velocity that points into the other.
const CONTACT: f32 = 0.02;

/// Most passes a step runs.
pub(crate) const MAX_PASSES: usize = 256;

/// The random stream of a coincident pair's direction.
const COINCIDENT_STREAM: u32 = 0xB0D1;

/// What the resolution did, for tests and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Resolved {
    /// Passes run.
    pub(crate) passes: usize,
    /// The largest overlap the last pass found, as a fraction of the radius.
    pub(crate) worst: f32,
    /// Bodies of a jam put back where they stood before the step.
    pub(crate) reverted: usize,
}

/// Cells per unit of the bodies' grid: cells `reach` wide, or at least a 2^30th of the farthest
/// coordinate, so that every cell index and its neighbours' fit in an i32 however small the
/// radius (a wider cell only lists more candidates).
fn cells_per_unit(positions: &[Vec3], reach: f32) -> f32 {
    let far = positions
        .iter()
        .fold(0.0f32, |m, p| m.at_least(p.abs().largest()));
    1.0 / reach.at_least(far * (1.0 / (1u32 << 30) as f32))
}

/// The jam rule of [`resolve`]: puts the bodies of every pair overlapping by more than
/// [`LOOSE_TOLERANCE`], and by more than it did before the step, back at `before` (their
/// positions before the step, storage order) with no velocity, round after round until a round
/// finds no such pair with a body still at its new position. How many it put back.
fn revert_jams(
    positions: &mut [Vec3],
    velocities: &mut [Vec3],
    before: &dyn Fn(usize) -> Vec3,
    r: f32,
    flat: bool,
    dys: &[i32],
    grid: &mut Grid,
) -> usize {
    let n = positions.len();
    let diameter = 2.0 * r;
    let limit = diameter - LOOSE_TOLERANCE * r;
    // `dirty` marks the bodies put back, `next_dirty` those a round finds (no list: a pile of
    // bodies spawned on one spot has a pair for every two of them).
    grid.dirty.clear();
    grid.dirty.resize(n, false);
    let mut reverted = 0;
    loop {
        grid.build(positions, cells_per_unit(positions, diameter), flat);
        grid.next_dirty.clear();
        grid.next_dirty.resize(n, false);
        for i in 0..n {
            grid.gather_around(grid.cell[i], dys);
            for m in 0..grid.around.len() {
                let j = grid.around[m] as usize;
                if j <= i || (grid.dirty[i] && grid.dirty[j]) {
                    continue;
                }
                let d2 = (positions[i] - positions[j]).length_squared();
                if d2 >= limit * limit {
                    continue;
                }
                // A pair over it before the step too (spawned so, or left by a jam) is put
                // back only if the step brought it closer: no pair ever ends a step
                // overlapping more than the promise and more than it did before.
                if (before(i) - before(j)).length_squared() > d2 {
                    grid.next_dirty[i] = true;
                    grid.next_dirty[j] = true;
                }
            }
        }
        let mut any = false;
        for k in 0..n {
            if grid.next_dirty[k] && !grid.dirty[k] {
                grid.dirty[k] = true;
                positions[k] = before(k);
                velocities[k] = Vec3::ZERO;
                reverted += 1;
                any = true;
            }
        }
        if !any {
            return reverted;
        }
    }
}

/// Pushes the bodies of radius `params.body_radius` at `positions` (storage order, ids
/// alongside) apart. A grounded flock's pushes go through `walker`; any other flock's end as a
/// step's moves do ([`confine`]: its bounds, the heightfields among `floors`, the world, the
/// plane lock), and follow the plane lock's plane.
#[expect(clippy::too_many_arguments, reason = "one call site, the step's parts")]
pub(crate) fn resolve(
    positions: &mut [Vec3],
    velocities: &mut [Vec3],
    ids: &[u32],
    params: &FlockParams,
    floors: &[Placed],
    walker: Option<&Walker<'_>>,
    before: &dyn Fn(usize) -> Vec3,
    seed: u64,
    step: u64,
    grid: &mut Grid,
    exec: &dyn Exec,
) -> Resolved {
    let n = positions.len();
    let r = params.body_radius;
    let mut done = Resolved::default();
    if r.is_nan() || r <= 0.0 || n == 0 {
        return done;
    }
    let diameter = 2.0 * r;
    let reach = diameter * (1.0 + CONTACT);
    let d2max = reach * reach;
    let pivot = walker.map_or(0.0, |w| w.settings.pivot_height);
    // The plane pairs are pushed apart in: the horizontal one on the ground.
    let plane = if walker.is_some() {
        PlaneLock::XZ
    } else {
        params.plane
    };
    // A grounded body's pushes, however many, never take it more than a step above or below
    // where it stood before the step (each push alone is a step's move: together they could
    // climb or drop a step each); or, when the step's own move took it farther (it landed:
    // spawned or placed off the ground), than where that move put it.
    let mut level = std::mem::take(&mut grid.level);
    level.clear();
    let mut stepped = std::mem::take(&mut grid.stepped);
    stepped.clear();
    if walker.is_some() {
        stepped.extend(positions.iter().copied().zip(velocities.iter().copied()));
    }
    if let Some(w) = walker {
        let step = w.settings.step_height;
        level.extend(positions.iter().enumerate().map(|(i, p)| {
            let was = before(i).y;
            if (p.y - was).abs() <= step { was } else { p.y }
        }));
    }
    let within_step =
        |i: usize, y: f32| walker.is_none_or(|w| (y - level[i]).abs() <= w.settings.step_height);
    // Moves boid `i` by `d`, straight or as a grounded move (sliding along walls, stopped at
    // corners); whether it moved at all.
    let push = |positions: &mut [Vec3], velocities: &mut [Vec3], i: usize, d: Vec3| -> bool {
        let Some(w) = walker else {
            (positions[i], velocities[i]) =
                confine(params, floors, positions[i] + d, velocities[i]);
            return true;
        };
        let feet = positions[i] - Vec3::Y * pivot;
        let Some(s) = w.stand_near(feet.x, feet.z, feet.y) else {
            return false;
        };
        match w.slide(Vec3::new(feet.x, s.height, feet.z), s, d) {
            Slide::Moved(f, _) | Slide::Slid(f, _, _) if within_step(i, f.y + pivot) => {
                positions[i] = f + Vec3::Y * pivot;
                true
            }
            Slide::Moved(..) | Slide::Slid(..) => false,
            Slide::Stopped => false,
        }
    };
    // A body overlapping a solid (landed beside a rock, or in 3-D pushed there by the crowd)
    // goes out along the contact's normal in the pairs' plane (on the ground: horizontally,
    // and only where the ground lets it), as far as takes it `depth` along the normal (at
    // most a diameter more: a solid right above or below is left to the walls' rule); its
    // velocity loses the part into the solid. Whether it moved.
    let out = |positions: &mut [Vec3], velocities: &mut [Vec3], i: usize| -> bool {
        let p = positions[i];
        let solids = walker.map_or(floors, |w| w.solids_in(p - r, p + r));
        let Some((depth, normal)) = contact(solids, p, r) else {
            return false;
        };
        let h = plane.apply(normal);
        let len = h.length();
        if len < 1.0e-3 {
            return false;
        }
        let u = h / len;
        let vn = velocities[i].dot(u);
        if vn < 0.0 {
            velocities[i] = into_solid_removed(velocities[i], u, vn);
        }
        if depth <= TOLERANCE * r {
            return false;
        }
        let d = u * (depth / len).at_most(depth + diameter);
        match walker {
            None => {
                (positions[i], velocities[i]) =
                    confine(params, floors, positions[i] + d, velocities[i]);
                true
            }
            Some(w) => match w.step_out(positions[i], d) {
                Some(p) if within_step(i, p.y) => {
                    positions[i] = p;
                    true
                }
                _ => false,
            },
        }
    };
    // Grounded bodies are binned in x and z only (a pair on two floors is still told apart
    // by its distance).
    let flat = walker.is_some();
    let dys: &[i32] = if flat { &[0] } else { &[-1, 0, 1] };
    grid.dirty.clear();
    grid.dirty.resize(n, true);
    // A flock in 3-D settles in fewer passes than a jammed crowd on the ground (it has room
    // above and below); a quarter of the cap bounds what an impossible scene costs (more
    // bodies than fit beside a solid they are pushed out of).
    let max_passes = if walker.is_some() {
        MAX_PASSES
    } else {
        MAX_PASSES / 4
    };
    // Whether the last pass moved nothing (so it saw every pair as it ends).
    let mut calm = false;
    for pass in 0..max_passes {
        let mut moved = false;
        grid.next_dirty.clear();
        grid.next_dirty.resize(n, false);
        // Storage order (the step's cell order: near boids are near in it), forward on even
        // passes and backward on odd ones, so a push travels across a crowd in one pass.
        let at = |k: usize| if pass % 2 == 0 { k } else { n - 1 - k };
        let tolerance = r * if pass < TIGHT_PASSES {
            TOLERANCE
        } else {
            LOOSE_TOLERANCE
        };
        // Whether `j` comes before `i` in this pass's order.
        let before = |j: usize, i: usize| if pass % 2 == 0 { j < i } else { j > i };
        for k in 0..n {
            let i = at(k);
            if grid.dirty[i] && out(positions, velocities, i) {
                moved = true;
                grid.next_dirty[i] = true;
            }
        }
        // Cells at least a 2^30th of the farthest coordinate wide, so that every cell index
        // and its neighbours' fit in an i32 however small the radius (a wider cell only lists
        // more candidates). Measured after the pushes out of solids, which may go far.
        // After the first pass only the bodies it looked at can have moved (in its pushes or
        // in this pass's pushes out of solids): the grid follows them.
        let inv = cells_per_unit(positions, reach);
        if pass == 0 {
            grid.build(positions, inv, flat);
        } else {
            let dirty = std::mem::take(&mut grid.dirty);
            grid.refresh(positions, inv, flat, &dirty);
            grid.dirty = dirty;
        }
        let mut worst = 0.0f32;
        // The first pass looks at every pair; a later one at the pairs with a body that moved
        // in the pass before (the others are as they were when last looked at), each pair once:
        // from its earlier body in this pass's order when both moved.
        for k in 0..n {
            let i = at(k);
            if !grid.dirty[i] {
                continue;
            }
            grid.gather_around(grid.cell[i], dys);
            for m in 0..grid.around.len() {
                let j = grid.around[m] as usize;
                if j == i || (grid.dirty[j] && before(j, i)) {
                    continue;
                }
                let o = positions[i] - positions[j];
                let dist2 = o.length_squared();
                if dist2.is_nan() || dist2 >= d2max {
                    continue;
                }
                let dist = dist2.sqrt();
                let overlap = diameter - dist;
                worst = worst.at_least(overlap / r);
                let mut dir = plane.apply(o);
                let len = dir.length();
                dir = if len > 0.0 {
                    dir / len
                } else {
                    coincident(ids[i], ids[j], seed, step, plane)
                };
                // In contact (or nearly): neither keeps moving into the other
                // (velocities only ever shrink: a squeezed crowd settles instead
                // of bouncing).
                let vi = velocities[i].dot(dir);
                if vi < 0.0 {
                    velocities[i] = into_solid_removed(velocities[i], dir, vi);
                }
                let vj = velocities[j].dot(dir);
                if vj > 0.0 {
                    velocities[j] = into_solid_removed(velocities[j], dir, vj);
                }
                if overlap <= tolerance {
                    continue;
                }
                // Half each; all of it for one whose partner is stopped.
                let d = dir * ((overlap + SLACK * r) * 0.5);
                // One stopped: the other takes the whole separation, and as
                // much again sideways to one fixed side of the world, so that a body
                // between two stopped ones (three in a row across a gap too narrow
                // for them) leaves the row instead of going back and forth in it.
                let side = {
                    let s = Vec3::new(-dir.z, 0.0, dir.x);
                    if s.x + s.z * SIDE_Z < 0.0 { -s } else { s }
                };
                let aside = side * (overlap * SIDE);
                let (mut mi, mut mj) = if !push(positions, velocities, i, d) {
                    (false, push(positions, velocities, j, -2.0 * d + aside))
                } else if !push(positions, velocities, j, -d) {
                    push(positions, velocities, i, d + aside);
                    (true, false)
                } else {
                    (true, true)
                };
                // On the ground, both stopped along the line between them (two
                // bodies in a strip narrower than both, between walls): apart
                // sideways instead, as far as clears them, either way round.
                if !mi && !mj && flat {
                    let clear = diameter + SLACK * r;
                    let side = (clear * clear - dist2).at_least(0.0).sqrt();
                    let e = Vec3::new(-dir.z, 0.0, dir.x) * (side * 0.5);
                    for e in [e, -e] {
                        if push(positions, velocities, i, e) {
                            mi = true;
                            mj = push(positions, velocities, j, -e);
                            if !mj {
                                push(positions, velocities, i, e);
                            }
                            break;
                        }
                        if push(positions, velocities, j, -2.0 * e) {
                            mj = true;
                            break;
                        }
                    }
                }
                // A pair neither of which could move is looked at again in the
                // next pass (its overlap counts in that pass's worst), whatever
                // moves around it.
                let stuck = !mi && !mj;
                grid.next_dirty[i] |= mi || stuck;
                grid.next_dirty[j] |= mj || stuck;
                moved |= mi || mj;
            }
        }
        done = Resolved {
            passes: pass + 1,
            worst,
            reverted: 0,
        };
        // A pass that moved nothing saw every pair that could have changed where it is: none
        // overlaps beyond the tolerance, or those that do could not be pushed (walls).
        if !moved {
            calm = true;
            break;
        }

        std::mem::swap(&mut grid.dirty, &mut grid.next_dirty);
    }
    // A jam the passes could not clear (they ran out, or walls stopped both of a pair): both
    // bodies of a pair still over the promise stay where they stood before the step, with no
    // velocity, and so on for the pairs that makes, until none is left but pairs that were
    // as close or closer before the step (as spawned). Each body is put back at most once.
    let settled = calm && done.worst <= LOOSE_TOLERANCE;
    if !settled {
        done.reverted = revert_jams(positions, velocities, before, r, flat, dys, grid);
    }
    // A grounded velocity follows the surface again where a contact changed it: only where the
    // pass moved the body or changed its velocity (the step's own move left every other body's
    // velocity on the surface under it). Each body's alone: on the workers for a crowd.
    if let Some(w) = walker {
        let positions = &*positions;
        let relift = |start: usize, velocities: &mut [Vec3]| {
            for (k, v) in velocities.iter_mut().enumerate() {
                let (p, was) = (positions[start + k], stepped[start + k]);
                if (p, *v) == was {
                    continue;
                }
                let feet = p - Vec3::Y * pivot;
                if let Some(s) = w.stand_near(feet.x, feet.z, feet.y) {
                    let lifted = lift(horizontal(*v), s.normal);
                    if w.walkable(&s) && lifted != *v {
                        *v = lifted;
                    }
                }
            }
        };
        // The same runs either way (so a small flock's steps test the runs' bookkeeping too).
        const RUN: usize = 1024;
        if n < PARALLEL_MIN {
            for (k, run) in velocities.chunks_mut(RUN).enumerate() {
                relift(k * RUN, run);
            }
        } else {
            chunks_mut(exec, velocities, RUN, &relift);
        }
    }
    grid.level = level;
    grid.stepped = stepped;
    done
}

/// A unit direction in `plane` for a pair at the same spot, drawn from their ids: the same bits
/// every time.
fn coincident(a: u32, b: u32, seed: u64, step: u64, plane: PlaneLock) -> Vec3 {
    let (lo, hi) = (a.min(b), a.max(b));
    let mut rng = Rng::keyed(seed ^ (u64::from(hi) << 32), lo, step, COINCIDENT_STREAM);
    let angle = rng.range(0.0, std::f32::consts::TAU);
    let (s, c) = (boids_core::fmath::sin(angle), boids_core::fmath::cos(angle));
    let d = match plane {
        PlaneLock::XZ => Vec3::new(c, 0.0, s),
        PlaneLock::XY => Vec3::new(c, s, 0.0),
        PlaneLock::None => {
            let y = rng.range(-1.0, 1.0);
            let h = (1.0 - y * y).at_least(0.0).sqrt();
            Vec3::new(c * h, y, s * h)
        }
    };
    // Pushed apart as (i, j): the lower id's side first, whichever is `a`.
    if a == lo { d } else { -d }
}
