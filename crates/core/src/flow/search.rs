//! A flow field's distances (Dijkstra with a bucket queue), its way and its clear sight
//! ([`super`]'s rules).

use super::build::FieldBuild;
use super::{DIAGONAL, FlowGrid, MOVES, STRAIGHT, Seek, Terrain};
use crate::fmath::floor_i32;
use crate::math::normalize_or_zero;
use glam::Vec3;

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
        let mut build = FieldBuild::new(terrain, target);
        build.advance(terrain, u64::MAX, join);
        build
            .finish()
            .expect("an unlimited budget finishes the field")
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

/// The index in [`MOVES`] of the move `(di, dk)`, at `(dk + 1) * 3 + di + 1` (the middle: none).
pub(super) const MOVE_OF: [usize; 9] = [6, 3, 7, 2, usize::MAX, 0, 5, 1, 4];

/// The change of a cell's index by each of [`MOVES`].
pub(super) fn steps(grid: &FlowGrid) -> [isize; 8] {
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
pub(super) fn seeds(terrain: &Terrain, t: (u32, u32)) -> Vec<(usize, u32)> {
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
pub(super) fn ring(r: i64) -> impl Iterator<Item = (i64, i64)> {
    let top = (-r..=r).map(move |x| (x, -r));
    let bottom = (-r..=r).map(move |x| (x, r));
    let left = (-r + 1..r).map(move |z| (-r, z));
    let right = (-r + 1..r).map(move |z| (r, z));
    top.chain(bottom).chain(left).chain(right)
}

/// The one or two cells (offsets from the target) that the segment from the centre of the cell
/// at offset `(dx, dz)` to the target's centre passes between, one column (or row) nearer: the
/// definition the clear sight's rings follow by side (`build::nearer`).
#[cfg(test)]
pub(super) fn between(dx: i64, dz: i64) -> [Option<(i64, i64)>; 2] {
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
