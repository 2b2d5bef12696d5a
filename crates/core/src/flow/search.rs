//! A flow field's distances (Dijkstra with a bucket queue), its way and its clear sight
//! ([`super`]'s rules).

use super::{DIAGONAL, FlowGrid, MOVES, STRAIGHT, Seek, Terrain, move_cost};
use crate::fmath::floor_i32;
use crate::math::normalize_or_zero;
use glam::Vec3;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No way: the distance of a cell the target cannot be reached from.
pub const UNREACHED: u32 = u32::MAX;

/// The distance to one target over a [`Terrain`], with the way from each cell.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    /// The grid.
    pub grid: FlowGrid,
    /// The cell the distances are measured to.
    pub target: (u32, u32),
    /// Each cell's distance to the target cell, in [`STRAIGHT`]s a cell width; a closed cell's
    /// is its way out's (the cheapest open cell beside a chain of closed ones, plus the moves
    /// to it); [`UNREACHED`] where no way leads.
    pub distance: Vec<u32>,
    /// Each cell's first moves along its shortest ways: bit `m` for `MOVES[m]` when a
    /// shortest way starts with it (through a passable move from an open cell; any move from
    /// a closed one). 0 where the way ends (the target's cell, or where it starts beside a
    /// closed target cell) or no way leads.
    pub way: Vec<u8>,
    /// Whether each cell is in clear sight of the target cell.
    pub clear: Vec<bool>,
}

impl FlowField {
    /// The field to the cell holding `target` (clamped onto the grid) over `terrain`. A
    /// target whose cell is closed (inside a wall) is reached at the open cells of the
    /// nearest ring of cells around it that has any, each starting at its octile distance to
    /// the target's cell.
    pub fn build(terrain: &Terrain, target: Vec3) -> FlowField {
        FlowField::build_with(terrain, target, &|a, b| {
            a();
            b();
        })
    }

    /// [`FlowField::build`], its two independent halves (the distances and ways; the clear
    /// sight) handed to `join`, which calls each once, in either order or at once on two
    /// threads: the same bits.
    pub fn build_with(terrain: &Terrain, target: Vec3, join: &Join<'_>) -> FlowField {
        let grid = terrain.grid;
        let t = grid.clamped_cell(target.x, target.z);
        let n = grid.cells();
        let mut field = FlowField {
            grid,
            target: t,
            distance: Vec::new(),
            way: Vec::new(),
            clear: Vec::new(),
        };
        let (distance, way, clear) = (&mut field.distance, &mut field.way, &mut field.clear);
        join(
            &mut || {
                distance.resize(n, UNREACHED);
                way.resize(n, 0);
                let seeds = seeds(terrain, t);
                settle(terrain, &seeds, distance, way);
                escape(terrain, distance, way);
            },
            &mut || {
                clear.resize(n, false);
                if terrain.open(grid.index(t.0, t.1)) {
                    sight(terrain, t, clear);
                }
            },
        );
        field
    }

    /// How a boid at `p` seeks `target` (the point this field was built to, or one in its
    /// cell) over this field: straight when it is within a cell of the target, in clear sight
    /// of it or off the grid; else along the way, with the way's directions of the four cells
    /// around it blended by where it stands between their centres (those with a way).
    pub fn seek(&self, p: Vec3, target: Vec3) -> Seek {
        let grid = &self.grid;
        let d = target - p;
        if d.x * d.x + d.z * d.z <= grid.cell * grid.cell {
            return Seek::Straight;
        }
        let Some((i, k)) = grid.cell_at(p.x, p.z) else {
            return Seek::Straight;
        };
        let c = grid.index(i, k);
        if self.clear[c] {
            return Seek::Straight;
        }
        let Some(distance) = self.distance_at(c) else {
            return Seek::NoWay;
        };
        // The four cells whose centres surround `p`, weighted bilinearly.
        let fx = (p.x - grid.origin[0]) / grid.cell - 0.5;
        let fz = (p.z - grid.origin[1]) / grid.cell - 0.5;
        // (No libm floor: the grid keeps every f within ±2^24 cells.)
        let (bx, bz) = (floor_i32(fx) as f32, floor_i32(fz) as f32);
        let (wx, wz) = (fx - bx, fz - bz);
        let mut sum = Vec3::ZERO;
        for (ox, oz, w) in [
            (0.0, 0.0, (1.0 - wx) * (1.0 - wz)),
            (1.0, 0.0, wx * (1.0 - wz)),
            (0.0, 1.0, (1.0 - wx) * wz),
            (1.0, 1.0, wx * wz),
        ] {
            let (ci, ck) = (bx + ox, bz + oz);
            if ci < 0.0 || ck < 0.0 || ci >= grid.size[0] as f32 || ck >= grid.size[1] as f32 {
                continue;
            }
            if let Some(v) = self.direction(grid.index(ci as u32, ck as u32))
                && w > 0.0
            {
                sum += v * w;
            }
        }
        let mut direction = normalize_or_zero(sum);
        if direction == Vec3::ZERO {
            direction = match self.direction(c) {
                Some(v) => v,
                None => return Seek::Straight,
            };
        }
        Seek::Along {
            direction,
            distance,
        }
    }

    /// Cell `c`'s distance to the target along its way, in world units (the way's cost: a
    /// cell near a wall counts a little longer), `None` where no way leads.
    pub fn distance_at(&self, c: usize) -> Option<f32> {
        let d = self.distance[c];
        (d != UNREACHED).then(|| d as f32 * (self.grid.cell / STRAIGHT as f32))
    }

    /// The unit horizontal direction cell `c`'s way leads in: its first move's, or between a
    /// straight and a diagonal first move when both start a shortest way (an octile way that
    /// may go either way goes between them), `None` where the way ends or none leads.
    pub fn direction(&self, c: usize) -> Option<Vec3> {
        let v = WAYS[self.way[c] as usize];
        (v != Vec3::ZERO).then_some(v)
    }
}

/// Runs its two arguments, each once, in either order or at once ([`FlowField::build_with`]).
pub type Join<'a> = dyn Fn(&mut (dyn FnMut() + Send), &mut (dyn FnMut() + Send)) + 'a;

/// Dijkstra from `seeds` (cells with their starting distances) over the open, joined cells,
/// into `distance`, with a ring of buckets a distance each (Dial): a cell is taken from the
/// bucket of its distance, once. Each cell's first moves go into `way` as it is taken: to
/// the neighbours its distance came from (passable moves), all taken before it.
fn settle(terrain: &Terrain, seeds: &[(usize, u32)], distance: &mut [u32], way: &mut [u8]) {
    let grid = terrain.grid;
    let lo = seeds.iter().map(|s| s.1).min().unwrap_or(0);
    let hi = seeds.iter().map(|s| s.1).max().unwrap_or(0);
    // Every distance queued lies within the span of the seeds plus one move of the least
    // one taken so far.
    let most = DIAGONAL + super::terrain::CLEARANCE * (STRAIGHT / 4);
    let span = ((hi - lo) as usize + most as usize + 1).next_power_of_two();
    let mask = span - 1;
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); span];
    let mut queued = 0usize;
    for &(c, d) in seeds {
        if d < distance[c] {
            distance[c] = d;
            buckets[d as usize & mask].push(c as u32);
            queued += 1;
        }
    }
    let step = steps(&grid);
    let mut now = lo;
    let mut bucket = Vec::new();
    while queued > 0 {
        std::mem::swap(&mut bucket, &mut buckets[now as usize & mask]);
        queued -= bucket.len();
        for &c in &bucket {
            let c = c as usize;
            // Queued again at a shorter distance since.
            if distance[c] != now {
                continue;
            }
            let enter = terrain.extra(c);
            let mut bits = 0u8;
            let mut links = terrain.links(c);
            while links != 0 {
                let m = links.trailing_zeros() as usize;
                links &= links - 1;
                let b = c.wrapping_add_signed(step[m]);
                let f = distance[b];
                // A neighbour nearer than this cell has its final distance: one it came from?
                if f < now {
                    if f + move_cost(m) + enter == now {
                        bits |= 1 << m;
                    }
                    continue;
                }
                let d = now + move_cost(m) + terrain.extra(b);
                if d < f {
                    distance[b] = d;
                    buckets[d as usize & mask].push(b as u32);
                    queued += 1;
                }
            }
            way[c] = bits;
        }
        bucket.clear();
        now += 1;
    }
}

/// The closed cells' distances: Dijkstra from every reached open cell through the closed ones
/// (any move between a closed cell and a neighbour: walls are what they leave), and each one's
/// first moves into `way` as it is taken (to any neighbour its distance came from).
fn escape(terrain: &Terrain, distance: &mut [u32], way: &mut [u8]) {
    let grid = terrain.grid;
    let mut heap = BinaryHeap::new();
    // Each closed cell starts at its best reached open neighbour's distance plus the move.
    for k in 0..grid.size[1] {
        for i in 0..grid.size[0] {
            let c = grid.index(i, k);
            if terrain.open(c) {
                continue;
            }
            let best = (0..8)
                .filter_map(|m| {
                    let (ni, nk) = grid.neighbour(i, k, m)?;
                    let b = grid.index(ni, nk);
                    let d = distance[b];
                    (terrain.open(b) && d != UNREACHED).then(|| d + move_cost(m))
                })
                .min();
            if let Some(d) = best {
                distance[c] = d;
                heap.push(Reverse((d, c as u32)));
            }
        }
    }
    while let Some(Reverse((d, c))) = heap.pop() {
        let c = c as usize;
        if d != distance[c] {
            continue;
        }
        let (i, k) = (
            (c % grid.size[0] as usize) as u32,
            (c / grid.size[0] as usize) as u32,
        );
        let mut bits = 0u8;
        for m in 0..8 {
            let Some((ni, nk)) = grid.neighbour(i, k, m) else {
                continue;
            };
            let b = grid.index(ni, nk);
            let f = distance[b];
            // Taken before this one (an open cell reached, or a nearer closed one): final.
            if f < d {
                if f + move_cost(m) == d {
                    bits |= 1 << m;
                }
                continue;
            }
            if terrain.open(b) {
                continue;
            }
            let nd = d + move_cost(m);
            if nd < f {
                distance[b] = nd;
                heap.push(Reverse((nd, b as u32)));
            }
        }
        way[c] = bits;
    }
}

/// Clear sight of the open target cell `t`, into `clear`, ring by ring out from it: a cell sees
/// the target when it is open and the one or two cells its segment to the target's centre
/// passes between, a column (or row) nearer, see it and are joined to it. The segment runs
/// between those two cells' segments all the way, so every cell it crosses was checked.
fn sight(terrain: &Terrain, t: (u32, u32), clear: &mut [bool]) {
    let grid = terrain.grid;
    let (ti, tk) = (i64::from(t.0), i64::from(t.1));
    clear[grid.index(t.0, t.1)] = true;
    let rings =
        (ti.max(i64::from(grid.size[0]) - 1 - ti)).max(tk.max(i64::from(grid.size[1]) - 1 - tk));
    let inside = |i: i64, k: i64| {
        i >= 0 && k >= 0 && i < i64::from(grid.size[0]) && k < i64::from(grid.size[1])
    };
    for r in 1..=rings {
        for (dx, dz) in ring(r) {
            let (i, k) = (ti + dx, tk + dz);
            if !inside(i, k) {
                continue;
            }
            let c = grid.index(i as u32, k as u32);
            if !terrain.open(c) {
                continue;
            }
            let ok = between(dx, dz).into_iter().flatten().all(|(bx, bz)| {
                let (bi, bk) = (ti + bx, tk + bz);
                let m = MOVE_OF[((bz - dz + 1) * 3 + (bx - dx + 1)) as usize];
                clear[grid.index(bi as u32, bk as u32)] && terrain.passable(i as u32, k as u32, m)
            });
            clear[c] = ok;
        }
    }
}

/// The index in [`MOVES`] of the move `(di, dk)`, at `(dk + 1) * 3 + di + 1` (the middle: none).
const MOVE_OF: [usize; 9] = [6, 3, 7, 2, usize::MAX, 0, 5, 1, 4];

/// The change of a cell's index by each of [`MOVES`].
fn steps(grid: &FlowGrid) -> [isize; 8] {
    MOVES.map(|(di, dk)| dk as isize * grid.size[0] as isize + di as isize)
}

/// The unit direction of each set of first moves (bit `m` for `MOVES[m]`): the mean of a
/// straight move and a diagonal beside it (45° apart) when those are the two, else the first
/// in [`MOVES`] order (ways around both sides of a wall must not cancel into it); zero for
/// none.
static WAYS: std::sync::LazyLock<[Vec3; 256]> = std::sync::LazyLock::new(|| {
    let unit = |m: usize| {
        let (di, dk) = MOVES[m];
        normalize_or_zero(Vec3::new(di as f32, 0.0, dk as f32))
    };
    std::array::from_fn(|bits| {
        let moves: Vec<usize> = (0..8).filter(|m| bits & (1 << m) != 0).collect();
        match moves[..] {
            [] => Vec3::ZERO,
            [a, b] if unit(a).dot(unit(b)) > 0.7 => normalize_or_zero(unit(a) + unit(b)),
            [a, ..] => unit(a),
        }
    })
});

/// Where Dijkstra starts: the target cell `t` at 0 when it is open; else the open cells of the
/// nearest ring around it that has any, at their octile distances.
fn seeds(terrain: &Terrain, t: (u32, u32)) -> Vec<(usize, u32)> {
    let grid = terrain.grid;
    if terrain.open(grid.index(t.0, t.1)) {
        return vec![(grid.index(t.0, t.1), 0)];
    }
    let (ti, tk) = (i64::from(t.0), i64::from(t.1));
    let rings = i64::from(grid.size[0].max(grid.size[1]));
    for r in 1..=rings {
        let found: Vec<(usize, u32)> = ring(r)
            .filter_map(|(dx, dz)| {
                let (i, k) = (ti + dx, tk + dz);
                if i < 0 || k < 0 || i >= i64::from(grid.size[0]) || k >= i64::from(grid.size[1]) {
                    return None;
                }
                let c = grid.index(i as u32, k as u32);
                terrain.open(c).then(|| (c, octile(dx, dz)))
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The octile distance of the offset `(dx, dz)`, in cost units.
fn octile(dx: i64, dz: i64) -> u32 {
    let (a, b) = (dx.unsigned_abs(), dz.unsigned_abs());
    let (lo, hi) = (a.min(b), a.max(b));
    (u64::from(DIAGONAL) * lo + u64::from(STRAIGHT) * (hi - lo)).min(u64::from(u32::MAX - 1)) as u32
}

/// The offsets of ring `r` (Chebyshev distance `r`) around a cell, in a fixed order.
fn ring(r: i64) -> impl Iterator<Item = (i64, i64)> {
    let top = (-r..=r).map(move |x| (x, -r));
    let bottom = (-r..=r).map(move |x| (x, r));
    let left = (-r + 1..r).map(move |z| (-r, z));
    let right = (-r + 1..r).map(move |z| (r, z));
    top.chain(bottom).chain(left).chain(right)
}

/// The one or two cells (offsets from the target) that the segment from the centre of the cell
/// at offset `(dx, dz)` to the target's centre passes between, one column (or row) nearer.
fn between(dx: i64, dz: i64) -> [Option<(i64, i64)>; 2] {
    let (ax, az) = (dx.abs(), dz.abs());
    if ax >= az {
        // One column nearer: x' = dx - sign(dx), z' = dz (ax - 1) / ax.
        let x = dx - dx.signum();
        let num = dz * (ax - 1);
        let (lo, hi) = (num.div_euclid(ax), (num + ax - 1).div_euclid(ax));
        [Some((x, lo)), (hi != lo).then_some((x, hi))]
    } else {
        let z = dz - dz.signum();
        let num = dx * (az - 1);
        let (lo, hi) = (num.div_euclid(az), (num + az - 1).div_euclid(az));
        [Some((lo, z)), (hi != lo).then_some((hi, z))]
    }
}
