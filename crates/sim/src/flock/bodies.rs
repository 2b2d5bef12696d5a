//! Bodies that do not overlap: after a flock's step, when its `body_radius` is above 0, the new
//! positions are pushed apart until a whole pass finds no two bodies overlapping by more than
//! [`TOLERANCE`] of the radius (after [`TIGHT_PASSES`] passes, a jam: by more than 0.99%), and
//! so moves nothing (or [`MAX_PASSES`] passes have run).
//!
//! Each pass bins the boids into a grid of cells a little over one body diameter wide (a
//! counting sort by bucket: one bucket a cell of the box the boids' cells span when that box
//! has few more cells than there are boids, as a crowd's has, so a row of three cells is one
//! run; else hashed cells) and visits every pair closer than that once, in a fixed order
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

use boids_core::fmath::floor_i32;
use boids_core::ground::{Slide, Walker, contact, horizontal, lift};
use boids_core::obstacle::Placed;
use boids_core::{FlockParams, PlaneLock, Rng, Vec3, confine};

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

/// A grid over positions, rebuilt each pass, and which bodies each pass looks at.
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
    /// How cells map to buckets.
    layout: Layout,
    /// Cells per unit of the last build, and whether it was flat.
    inv: f32,
    flat: bool,
    /// The bodies this pass looks at (every one in the first), and those the next one will.
    dirty: Vec<bool>,
    next_dirty: Vec<bool>,
    /// The height a grounded body's pushes stay within a step of (`resolve`).
    level: Vec<f32>,
    /// A grounded flock's positions and velocities as the step left them, before any push.
    stepped: Vec<(Vec3, Vec3)>,
    /// The boids around one cell ([`Grid::around`]).
    around: Vec<u32>,
}

/// How a [`Grid`]'s cells map to its buckets.
#[derive(Clone, Copy, Debug, Default)]
enum Layout {
    /// One bucket a cell of the box of cells from `lo`, `size` cells a side, x fastest then y
    /// then z: a row of cells is a run of buckets (when the box holds few more cells than there
    /// are boids, as a flock's does).
    Dense { lo: [i32; 3], size: [u32; 3] },
    /// Cells hashed into as many buckets as `starts` has less one (a power of two; a bucket
    /// may hold several cells).
    #[default]
    Hashed,
}

/// Buckets a hashed grid has for `n` boids; a dense grid may have up to as many.
fn buckets_for(n: usize) -> usize {
    (2 * n).next_power_of_two().max(2)
}

#[inline]
fn cell_of(p: Vec3, inv: f32, flat: bool) -> [i32; 3] {
    // Within ±2^30 by the choice of `inv` in `resolve`.
    [
        floor_i32(p.x * inv),
        if flat { 0 } else { floor_i32(p.y * inv) },
        floor_i32(p.z * inv),
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
    /// Bins `positions` in cells `1 / inv` wide (flat: in x and z only): densely when the box
    /// of their cells has no more cells than a hashed grid would have buckets, else hashed.
    fn build(&mut self, positions: &[Vec3], inv: f32, flat: bool) {
        self.build_as(positions, inv, flat, true);
    }

    /// [`Grid::build`], hashed whatever the box of cells when `may_be_dense` is false.
    fn build_as(&mut self, positions: &[Vec3], inv: f32, flat: bool, may_be_dense: bool) {
        let n = positions.len();
        (self.inv, self.flat) = (inv, flat);
        self.cell.clear();
        self.cell
            .extend(positions.iter().map(|&p| cell_of(p, inv, flat)));
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for c in &self.cell {
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        let cap = buckets_for(n) as u64;
        let size = [0, 1, 2].map(|a| (i64::from(hi[a]) - i64::from(lo[a]) + 1).max(1) as u64);
        let dense = may_be_dense
            && size.iter().all(|&s| s <= cap)
            && size[0].saturating_mul(size[1]).saturating_mul(size[2]) <= cap;
        self.bucket.clear();
        let buckets = if dense {
            let size = size.map(|s| s as u32);
            self.layout = Layout::Dense { lo, size };
            self.bucket.extend(self.cell.iter().map(|c| {
                let [x, y, z] = [0, 1, 2].map(|a| (c[a] - lo[a]) as u32);
                (z * size[1] + y) * size[0] + x
            }));
            (size[0] * size[1] * size[2]) as usize
        } else {
            let mask = cap as u32 - 1;
            self.layout = Layout::Hashed;
            self.bucket.extend(self.cell.iter().map(|&c| hash(c, mask)));
            cap as usize
        };
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &b in &self.bucket {
            self.starts[b as usize + 1] += 1;
        }
        for b in 0..buckets {
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
    }

    /// The grid [`Grid::build`] would make of `positions`, when only the boids `moved` may have
    /// moved since the last build (of the same boids): a dense grid whose cells per unit stay
    /// the same moves each boid that changed cell from its bucket to its new one, in storage
    /// order there, which is the build's result; anything else is built again.
    fn refresh(&mut self, positions: &[Vec3], inv: f32, flat: bool, moved: &[bool]) {
        let Layout::Dense { lo, size } = self.layout else {
            return self.build(positions, inv, flat);
        };
        if self.inv.to_bits() != inv.to_bits()
            || self.flat != flat
            || self.cell.len() != positions.len()
        {
            return self.build(positions, inv, flat);
        }
        // Moves to make; many (a whole crowd shifting) are cheaper as a build.
        let limit = positions.len() / 16 + 16;
        let mut moves = 0;
        for i in (0..positions.len()).filter(|&i| moved[i]) {
            let c = cell_of(positions[i], inv, flat);
            if c == self.cell[i] {
                continue;
            }
            let inside = (0..3).all(|a| c[a] >= lo[a] && c[a] - lo[a] < size[a] as i32);
            moves += 1;
            if !inside || moves > limit {
                return self.build(positions, inv, flat);
            }
            let [x, y, z] = [0, 1, 2].map(|a| (c[a] - lo[a]) as u32);
            let to = ((z * size[1] + y) * size[0] + x) as usize;
            self.relocate(i as u32, to);
            self.cell[i] = c;
        }
    }

    /// Moves boid `i` from its bucket to bucket `to`, keeping each bucket in storage order.
    fn relocate(&mut self, i: u32, to: usize) {
        let from = self.bucket[i as usize] as usize;
        let (order, starts) = (&mut self.order, &mut self.starts);
        let at = (starts[from]..starts[from + 1])
            .find(|&m| order[m as usize] == i)
            .expect("a boid is in its bucket") as usize;
        if from < to {
            // Out of `from`: the buckets after it, up to `to`, move down one place, freeing the
            // slot before `to`'s boids, which becomes `to`'s first.
            let end = starts[to] as usize;
            order.copy_within(at + 1..end, at);
            for s in &mut starts[from + 1..=to] {
                *s -= 1;
            }
            let (a, b) = (starts[to] as usize, starts[to + 1] as usize);
            let q = order[a + 1..b].iter().take_while(|&&j| j < i).count();
            order.copy_within(a + 1..a + 1 + q, a);
            order[a + q] = i;
        } else {
            // Out of `from`: the buckets before it, down to after `to`, move up one place,
            // freeing the slot after `to`'s boids, which becomes `to`'s last.
            let begin = starts[to + 1] as usize;
            order.copy_within(begin..at, begin + 1);
            for s in &mut starts[to + 1..=from] {
                *s += 1;
            }
            let (a, b) = (starts[to] as usize, starts[to + 1] as usize);
            let q = order[a..b - 1].iter().take_while(|&&j| j < i).count();
            order.copy_within(a + q..b - 1, a + q + 1);
            order[a + q] = i;
        }
        self.bucket[i as usize] = to as u32;
    }

    /// Fills `self.around` with the boids of the cells around `c` (the 3 × 3 × 3 block, or the
    /// 3 × 3 square at `dys = [0]`), cell by cell in the order z, y, x (each from the lower
    /// side), each cell's boids in storage order: the same list however the grid is laid out.
    fn gather_around(&mut self, c: [i32; 3], dys: &[i32]) {
        let mut out = std::mem::take(&mut self.around);
        out.clear();
        match self.layout {
            Layout::Dense { lo, size } => {
                // Within the box, a row's three cells are three buckets in a run.
                let x0 = (c[0] - 1).max(lo[0]);
                let x1 = (c[0] + 1).min(lo[0] + size[0] as i32 - 1);
                for dz in -1..=1 {
                    let z = c[2] + dz - lo[2];
                    if z < 0 || z >= size[2] as i32 || x0 > x1 {
                        continue;
                    }
                    for &dy in dys {
                        let y = c[1] + dy - lo[1];
                        if y < 0 || y >= size[1] as i32 {
                            continue;
                        }
                        let row = (z as u32 * size[1] + y as u32) * size[0];
                        let a = (row + (x0 - lo[0]) as u32) as usize;
                        let b = (row + (x1 - lo[0]) as u32) as usize + 1;
                        let (from, to) = (self.starts[a] as usize, self.starts[b] as usize);
                        out.extend_from_slice(&self.order[from..to]);
                    }
                }
            }
            Layout::Hashed => {
                let mask = (self.starts.len() - 2) as u32;
                for dz in -1..=1 {
                    for &dy in dys {
                        for dx in -1..=1 {
                            let nc = [c[0] + dx, c[1] + dy, c[2] + dz];
                            let nb = hash(nc, mask) as usize;
                            let list =
                                &self.order[self.starts[nb] as usize..self.starts[nb + 1] as usize];
                            // A bucket shared by several cells lists other cells' boids.
                            out.extend(list.iter().filter(|&&j| self.cell[j as usize] == nc));
                        }
                    }
                }
            }
        }
        self.around = out;
    }
}

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
        .fold(0.0f32, |m, p| m.max(p.abs().max_element()));
    1.0 / reach.max(far * (1.0 / (1u32 << 30) as f32))
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
                    let side = (clear * clear - dist2).max(0.0).sqrt();
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
    // velocity on the surface under it).
    if let Some(w) = walker {
        for ((p, v), was) in positions.iter().zip(velocities.iter_mut()).zip(&stepped) {
            if (*p, *v) == *was {
                continue;
            }
            let feet = *p - Vec3::Y * pivot;
            if let Some(s) = w.stand_near(feet.x, feet.z, feet.y) {
                let lifted = lift(horizontal(*v), s.normal);
                if w.walkable(&s) && lifted != *v {
                    *v = lifted;
                }
            }
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
            let h = (1.0 - y * y).max(0.0).sqrt();
            Vec3::new(c * h, y, s * h)
        }
    };
    // Pushed apart as (i, j): the lower id's side first, whichever is `a`.
    if a == lo { d } else { -d }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boids around every boid's cell, as `Grid::gather_around` lists them.
    fn around_all(grid: &mut Grid, dys: &[i32]) -> Vec<Vec<u32>> {
        (0..grid.cell.len())
            .map(|i| {
                grid.gather_around(grid.cell[i], dys);
                grid.around.clone()
            })
            .collect()
    }

    /// A dense grid lists the same boids in the same order as a hashed one (the pass's order,
    /// and so its bits, do not depend on the layout), flat and in 3-D, and a flock spread far
    /// wider than it has boids falls back to hashing.
    #[test]
    fn dense_and_hashed_grids_list_the_same_neighbours() {
        let mut rng = Rng::keyed(7, 0, 0, 1);
        let crowd: Vec<Vec3> = (0..3_000)
            .map(|_| {
                Vec3::new(
                    rng.range(-18.0, 18.0),
                    rng.range(-0.7, 0.7),
                    rng.range(-18.0, 18.0),
                )
            })
            .collect();
        for (flat, dys) in [(true, &[0][..]), (false, &[-1, 0, 1][..])] {
            let (mut dense, mut hashed) = (Grid::default(), Grid::default());
            dense.build(&crowd, 1.0 / 0.8, flat);
            hashed.build_as(&crowd, 1.0 / 0.8, flat, false);
            assert!(matches!(dense.layout, Layout::Dense { .. }));
            assert!(matches!(hashed.layout, Layout::Hashed));
            let listed = around_all(&mut dense, dys);
            assert_eq!(listed, around_all(&mut hashed, dys));
            // Every boid lists itself and its neighbours within a cell.
            for (i, l) in listed.iter().enumerate() {
                assert!(l.contains(&(i as u32)));
                for j in 0..crowd.len() {
                    if (crowd[i] - crowd[j]).abs().max_element() < 0.8 {
                        assert!(l.contains(&(j as u32)), "{i} misses {j}");
                    }
                }
            }
        }
        // A grid refreshed after some boids moved (within the box and out of it) is the one
        // a build makes.
        for (flat, far) in [(true, 0.5), (false, 0.5), (true, 3.0), (false, 30.0)] {
            let mut moved = crowd.clone();
            let mut grid = Grid::default();
            grid.build(&moved, 1.0 / 0.8, flat);
            let mut who = vec![false; crowd.len()];
            for round in 0..3 {
                for (i, p) in moved.iter_mut().enumerate() {
                    if (i + round) % 37 == 0 {
                        who[i] = true;
                        *p += Vec3::new(
                            rng.range(-far, far),
                            rng.range(-far, far),
                            rng.range(-far, far),
                        );
                    }
                }
                grid.refresh(&moved, 1.0 / 0.8, flat, &who);
                let mut built = Grid::default();
                built.build(&moved, 1.0 / 0.8, flat);
                assert_eq!(
                    (&grid.cell, &grid.bucket, &grid.order, &grid.starts),
                    (&built.cell, &built.bucket, &built.order, &built.starts),
                    "flat {flat}, moves up to {far}, round {round}"
                );
            }
        }
        let spread = [Vec3::ZERO, Vec3::splat(1.0e6), Vec3::new(-1.0e6, 0.0, 3.0)];
        let mut grid = Grid::default();
        grid.build(&spread, 1.0, false);
        assert!(matches!(grid.layout, Layout::Hashed));
        assert_eq!(
            around_all(&mut grid, &[-1, 0, 1]),
            vec![vec![0], vec![1], vec![2]]
        );
    }
}
