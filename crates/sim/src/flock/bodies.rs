//! Bodies that do not overlap: after a flock's step, when its `body_radius` is above 0, the new
//! positions are pushed apart until a whole pass finds no two bodies overlapping by more than
//! [`TOLERANCE`] of the radius (after [`TIGHT_PASSES`] passes, a jam: by more than 0.99%), and
//! so moves nothing (or [`MAX_PASSES`] passes have run).
//!
//! Each pass bins the boids into a hashed grid of cells a little over one body diameter wide
//! (a counting sort by bucket) and visits every pair closer than that once, in a fixed order
//! (storage order, which is the step's cell order, forward on even passes and backward on odd
//! ones; the other boid from the 27 cells around, when it comes later in storage order): each
//! of an overlapping pair moves half the overlap apart, along the line between them (the
//! horizontal one for a grounded flock; a coincident pair along a direction drawn from their
//! ids and the step). The order depends only on the positions, never on threads, so the bits
//! are the same for any thread count.
//!
//! Each pass first pushes every body that overlaps a solid obstacle (a ball, box, capsule,
//! plane or mesh; [`contact`]: a centre inside a closed mesh goes out through its nearest face)
//! out along the contact's normal, the same order; a grounded body horizontally, and only as
//! far as the ground lets it. So a body spawned or landed inside a rock, or a fish pushed into
//! one by its school, is clear of it after the step.
//!
//! A grounded body's push is a move like a step's: it ends on the ground, and walls (steep
//! ground, drops, edges, other obstacles) stop it, so a body is never pushed off the ground or
//! into an obstacle; its partner then takes the whole separation. Each of an overlapping pair
//! loses the part of its velocity that points into the other (velocities only ever shrink):
//! a crowd squeezed by its target settles instead of bouncing.

use boids_core::ground::{Slide, Walker, contact, horizontal, lift};
use boids_core::obstacle::Placed;
use boids_core::{FlockParams, PlaneLock, Rng, Vec3, confine};

/// The overlap, as a fraction of the body radius, a pass leaves alone.
pub(crate) const TOLERANCE: f32 = 0.005;

/// The overlap, as a fraction of the body radius, passes after the first [`TIGHT_PASSES`] leave
/// alone: just under the 1% the pass promises, so that a jammed crowd (which converges slowly)
/// stops as soon as it keeps that promise.
const LOOSE_TOLERANCE: f32 = 0.0099;

/// Passes that push anything over [`TOLERANCE`].
const TIGHT_PASSES: usize = 64;

/// Bodies closer than a diameter times `1 + CONTACT` are in contact: neither keeps the part of
/// its velocity that points into the other.
const CONTACT: f32 = 0.02;

/// Most passes a step runs.
pub(crate) const MAX_PASSES: usize = 256;

/// The random stream of a coincident pair's direction.
const COINCIDENT_STREAM: u32 = 0xB0D1;

/// A hashed grid over positions, rebuilt each pass, and which bodies each pass looks at.
#[derive(Default)]
pub(crate) struct Grid {
    /// Cell of each boid when the grid was built.
    cell: Vec<[i32; 3]>,
    /// Bucket of each boid.
    bucket: Vec<u32>,
    /// Boids by bucket: `order[starts[b]..starts[b + 1]]`, each bucket in storage order.
    order: Vec<u32>,
    starts: Vec<u32>,
    fill: Vec<u32>,
    /// The bodies this pass looks at (every one in the first), and those the next one will.
    dirty: Vec<bool>,
    next_dirty: Vec<bool>,
}

#[inline]
fn cell_of(p: Vec3, inv: f32, flat: bool) -> [i32; 3] {
    // Within ±2^30 by the choice of `inv` in `resolve`.
    [
        (p.x * inv).floor() as i32,
        if flat { 0 } else { (p.y * inv).floor() as i32 },
        (p.z * inv).floor() as i32,
    ]
}

#[inline]
fn hash(c: [i32; 3], mask: u32) -> u32 {
    let h = (c[0] as u32).wrapping_mul(0x9E37_79B1)
        ^ (c[1] as u32).wrapping_mul(0x85EB_CA77)
        ^ (c[2] as u32).wrapping_mul(0xC2B2_AE3D);
    (h ^ (h >> 15)) & mask
}

impl Grid {
    /// Bins `positions` in cells `1 / inv` wide (flat: in x and z only); the bucket mask.
    fn build(&mut self, positions: &[Vec3], inv: f32, flat: bool) -> u32 {
        let n = positions.len();
        let buckets = (2 * n).next_power_of_two().max(2) as u32;
        let mask = buckets - 1;
        self.cell.clear();
        self.cell
            .extend(positions.iter().map(|&p| cell_of(p, inv, flat)));
        self.bucket.clear();
        self.bucket.extend(self.cell.iter().map(|&c| hash(c, mask)));
        self.starts.clear();
        self.starts.resize(buckets as usize + 1, 0);
        for &b in &self.bucket {
            self.starts[b as usize + 1] += 1;
        }
        for b in 0..buckets as usize {
            self.starts[b + 1] += self.starts[b];
        }
        self.order.clear();
        self.order.resize(n, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts);
        for (i, &b) in self.bucket.iter().enumerate() {
            self.order[self.fill[b as usize] as usize] = i as u32;
            self.fill[b as usize] += 1;
        }
        mask
    }
}

/// What the resolution did, for tests and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Resolved {
    /// Passes run.
    pub(crate) passes: usize,
    /// The largest overlap the last pass found, as a fraction of the radius.
    pub(crate) worst: f32,
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
    seed: u64,
    step: u64,
    grid: &mut Grid,
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
            Slide::Moved(f, _) | Slide::Slid(f, _, _) => {
                positions[i] = f + Vec3::Y * pivot;
                true
            }
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
            velocities[i] -= u * vn;
        }
        if depth <= TOLERANCE * r {
            return false;
        }
        let d = u * (depth / len).min(depth + diameter);
        match walker {
            None => {
                (positions[i], velocities[i]) =
                    confine(params, floors, positions[i] + d, velocities[i]);
                true
            }
            Some(w) => match w.step_out(positions[i], d) {
                Some(p) => {
                    positions[i] = p;
                    true
                }
                None => false,
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
        let far = positions
            .iter()
            .fold(0.0f32, |m, p| m.max(p.abs().max_element()));
        let inv = 1.0 / reach.max(far * (1.0 / (1u32 << 30) as f32));
        let mask = grid.build(positions, inv, flat);
        let mut worst = 0.0f32;
        // The first pass looks at every pair; a later one at the pairs with a body that moved
        // in the pass before (the others are as they were when last looked at), each pair once:
        // from its earlier body in this pass's order when both moved.
        for k in 0..n {
            let i = at(k);
            if !grid.dirty[i] {
                continue;
            }
            let c = grid.cell[i];
            for dz in -1..=1 {
                for &dy in dys {
                    for dx in -1..=1 {
                        let nc = [c[0] + dx, c[1] + dy, c[2] + dz];
                        let nb = hash(nc, mask) as usize;
                        for m in grid.starts[nb] as usize..grid.starts[nb + 1] as usize {
                            let j = grid.order[m] as usize;
                            // A bucket shared by several cells lists other cells' boids.
                            if j == i || grid.cell[j] != nc || (grid.dirty[j] && before(j, i)) {
                                continue;
                            }
                            let o = positions[i] - positions[j];
                            let dist2 = o.length_squared();
                            if dist2.is_nan() || dist2 >= d2max {
                                continue;
                            }
                            let dist = dist2.sqrt();
                            let overlap = diameter - dist;
                            worst = worst.max(overlap / r);
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
                                velocities[i] -= dir * vi;
                            }
                            let vj = velocities[j].dot(dir);
                            if vj > 0.0 {
                                velocities[j] -= dir * vj;
                            }
                            if overlap <= tolerance {
                                continue;
                            }
                            // Half each; all of it for one whose partner is stopped.
                            let d = dir * (overlap * 0.5);
                            let (mi, mj) = if !push(positions, velocities, i, d) {
                                (false, push(positions, velocities, j, -2.0 * d))
                            } else if !push(positions, velocities, j, -d) {
                                push(positions, velocities, i, d);
                                (true, false)
                            } else {
                                (true, true)
                            };
                            grid.next_dirty[i] |= mi;
                            grid.next_dirty[j] |= mj;
                            moved |= mi || mj;
                        }
                    }
                }
            }
        }
        done = Resolved {
            passes: pass + 1,
            worst,
        };
        // A pass that moved nothing saw every pair that could have changed where it is: none
        // overlaps beyond the tolerance.
        if !moved {
            break;
        }
        std::mem::swap(&mut grid.dirty, &mut grid.next_dirty);
    }
    // A grounded velocity follows the surface again where a contact changed it.
    if let Some(w) = walker {
        for (p, v) in positions.iter().zip(velocities.iter_mut()) {
            let feet = *p - Vec3::Y * pivot;
            if let Some(s) = w.stand_near(feet.x, feet.z, feet.y) {
                let lifted = lift(horizontal(*v), s.normal);
                if w.walkable(&s) && lifted != *v {
                    *v = lifted;
                }
            }
        }
    }
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
            let h = (1.0 - y * y).max(0.0).sqrt();
            Vec3::new(c * h, y, s * h)
        }
    };
    // Pushed apart as (i, j): the lower id's side first, whichever is `a`.
    if a == lo { d } else { -d }
}
