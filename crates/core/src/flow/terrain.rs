//! The walkable cells of a flow grid, and the moves between them ([`super`]'s rules).

use super::terrain_build::TerrainBuild;
use super::{FlowGrid, MOVES, STRAIGHT};
use crate::fmath::Order;
use crate::ground::{contact, ground_below, reaches_region};
use crate::obstacle::Placed;
use crate::{Ground, MAX_MAGNITUDE, fmath};
use glam::Vec3;

/// What a flock can walk on over a [`FlowGrid`]: each cell's ground height (NaN where the cell
/// is closed) and the moves out of it. Depends on the scene and the flock's ground settings and
/// body radius, not on any target, so fields to several targets share it.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// The grid.
    pub grid: FlowGrid,
    /// The height of the highest ground at each open cell's centre; NaN: closed.
    height: Vec<f32>,
    /// Each cell's passable moves: bit `m` for `MOVES[m]`.
    links: Vec<u8>,
    /// What entering each cell costs beyond the move: more the nearer a closed cell is
    /// ([`CLEARANCE`]).
    extra: Vec<u8>,
}

/// Runs its first argument on runs of whole rows of its second ([`Terrain::new_with`]).
pub type Rows<'a> = dyn Fn(&(dyn Fn(usize, &mut [u8]) + Sync), &mut [u8]) + 'a;

/// Cells within this many (Chebyshev) of a closed one cost more to enter: [`STRAIGHT`] / 2
/// more a cell nearer, up to 1.5 cell widths more beside the wall. So ways keep a few cells off
/// walls and corners where they can (a crowd that hugs a wall's corner jams there), and still
/// pass through a gap narrower than that.
pub const CLEARANCE: u32 = 6;

impl Terrain {
    /// The terrain of `grid` with cell heights `height` (row by row, x fastest; NaN: closed),
    /// for a flock climbing at most `step` a move plus `max_slope_deg`'s rise over it.
    ///
    /// # Panics
    /// If `height` does not hold one value a cell.
    pub fn new(grid: FlowGrid, height: Vec<f32>, step: f32, max_slope_deg: f32) -> Terrain {
        Terrain::new_with(grid, height, step, max_slope_deg, &|f, links| f(0, links))
    }

    /// [`Terrain::new`], the moves out of each cell found by `rows`: it calls its first
    /// argument on runs of whole rows of its second (the first row's number, the run), each
    /// row once, in any order and on any threads (the same bits).
    ///
    /// # Panics
    /// If `height` does not hold one value a cell.
    pub fn new_with(
        grid: FlowGrid,
        height: Vec<f32>,
        step: f32,
        max_slope_deg: f32,
        rows: &Rows<'_>,
    ) -> Terrain {
        let mut b = TerrainBuild::with_heights(grid, height, step, max_slope_deg);
        b.advance(&[], &[], u64::MAX, &|f, run| f(0, run), rows);
        b.finish()
            .expect("an unlimited budget finishes the terrain")
    }

    /// A terrain from its parts ([`TerrainBuild`]).
    pub(super) fn from_parts(
        grid: FlowGrid,
        height: Vec<f32>,
        links: Vec<u8>,
        extra: Vec<u8>,
    ) -> Terrain {
        Terrain {
            grid,
            height,
            links,
            extra,
        }
    }

    /// The terrain of `grid` for a flock with ground settings `g` and bodies of radius
    /// `body_radius`, walking on `ground` among `solids`, surveyed here row after row (a host
    /// with threads calls [`survey_row`] on the rows of a buffer and hands it to
    /// [`Terrain::new`] instead: the same bits).
    pub fn survey(
        grid: FlowGrid,
        g: &Ground,
        body_radius: f32,
        ground: &[Placed],
        solids: &[Placed],
    ) -> Terrain {
        let mut b = TerrainBuild::new(grid, *g, body_radius);
        b.advance(ground, solids, u64::MAX, &|f, run| f(0, run), &|f, run| {
            f(0, run)
        });
        b.finish()
            .expect("an unlimited budget finishes the terrain")
    }

    /// Each cell's height (NaN: closed).
    pub fn heights(&self) -> &[f32] {
        &self.height
    }

    /// Every cell's passable moves and extra cost to enter ([`Terrain::links`],
    /// [`Terrain::extra`]), the latter with [`CLOSED`] set on closed cells.
    pub(super) fn links_extra(&self) -> (&[u8], &[u8]) {
        (&self.links, &self.extra)
    }

    /// Whether cell `c` is open.
    #[inline]
    pub fn open(&self, c: usize) -> bool {
        // (As the height is not NaN; the byte is nearer to hand.)
        self.extra[c] & CLOSED == 0
    }

    /// Cell `c`'s passable moves: bit `m` for `MOVES[m]`.
    #[inline]
    pub fn links(&self, c: usize) -> u8 {
        self.links[c]
    }

    /// What entering cell `c` costs beyond the move itself ([`CLEARANCE`]).
    #[inline]
    pub fn extra(&self, c: usize) -> u32 {
        u32::from(self.extra[c] & !CLOSED)
    }

    /// Whether a boid may move from cell `(i, k)` to its neighbour by `MOVES[m]`: both open and
    /// joined (the height between them at most a step plus the max slope's rise over the
    /// distance), and for a diagonal, both cells beside it open and joined to both ends.
    #[inline]
    pub fn passable(&self, i: u32, k: u32, m: usize) -> bool {
        self.links[self.grid.index(i, k)] & (1 << m) != 0
    }
}

/// Row `k` of the forward pass of the clearance's distances ([`CLEARANCE`]): each cell's
/// Chebyshev distance to the nearest closed cell in `near` (0 at closed cells, capped past the
/// clearance), from the cells before it (west, north-west, north, north-east); rows in order.
pub(super) fn forward_row(grid: &FlowGrid, near: &mut [u32], k: usize) {
    let (w, _) = (grid.size[0] as usize, grid.size[1] as usize);
    for i in 0..w {
        let c = k * w + i;
        let mut d = near[c];
        if i > 0 {
            d = d.min(near[c - 1] + 1);
        }
        if k > 0 {
            d = d.min(near[c - w] + 1);
            if i > 0 {
                d = d.min(near[c - w - 1] + 1);
            }
            if i + 1 < w {
                d = d.min(near[c - w + 1] + 1);
            }
        }
        near[c] = d;
    }
}

/// Row `k` of the backward pass ([`forward_row`]), from the cells after it; rows in reverse
/// order, after the whole forward pass.
pub(super) fn backward_row(grid: &FlowGrid, near: &mut [u32], k: usize) {
    let (w, h) = (grid.size[0] as usize, grid.size[1] as usize);
    for i in (0..w).rev() {
        let c = k * w + i;
        let mut d = near[c];
        if i + 1 < w {
            d = d.min(near[c + 1] + 1);
        }
        if k + 1 < h {
            d = d.min(near[c + w] + 1);
            if i + 1 < w {
                d = d.min(near[c + w + 1] + 1);
            }
            if i > 0 {
                d = d.min(near[c + w - 1] + 1);
            }
        }
        near[c] = d;
    }
}

/// Set in a closed cell's extra cost (which is otherwise 0): one load tells the settling both.
pub(super) const CLOSED: u8 = 0x80;

/// Each open cell's extra cost to enter from its distance to the nearest closed cell (both
/// passes done; the grid's outside counts as open); [`CLOSED`] for a closed cell.
pub(super) fn extra_of(near: &[u32]) -> Vec<u8> {
    let cap = CLEARANCE + 1;
    near.iter()
        .map(|&d| {
            if d == 0 {
                CLOSED
            } else if d >= cap {
                0
            } else {
                ((cap - d) * (STRAIGHT / 4)) as u8
            }
        })
        .collect()
}

/// Row `k`'s passable moves into `out` (its cells'): over `height` (NaN: closed), two cells
/// joined when the height between them is at most `climb` (`climb_diagonal` for a diagonal);
/// a diagonal also needs both cells beside it joined to both ends (no cutting a corner).
pub(super) fn link_row(
    grid: &FlowGrid,
    height: &[f32],
    climb: f32,
    climb_diagonal: f32,
    k: u32,
    out: &mut [u8],
) {
    let joined = |a: usize, b: usize, diagonal: bool| {
        let limit = if diagonal { climb_diagonal } else { climb };
        // NaN (closed) fails.
        (height[a] - height[b]).abs() <= limit
    };
    for (i, out) in out.iter_mut().enumerate() {
        let i = i as u32;
        let a = grid.index(i, k);
        let mut bits = 0u8;
        for (m, &(di, dk)) in MOVES.iter().enumerate() {
            let Some((ni, nk)) = grid.neighbour(i, k, m) else {
                continue;
            };
            let b = grid.index(ni, nk);
            let ok = if m < 4 {
                joined(a, b, false)
            } else {
                let s1 = grid.index((i as i32 + di) as u32, k);
                let s2 = grid.index(i, (k as i32 + dk) as u32);
                joined(a, b, true)
                    && joined(a, s1, false)
                    && joined(s1, b, false)
                    && joined(a, s2, false)
                    && joined(s2, b, false)
            };
            bits |= u8::from(ok) << m;
        }
        *out = bits;
    }
}

/// The height a joined move may change over a cell's width and over its diagonal: a step plus
/// the max slope's rise over the distance.
pub(super) fn climbs(cell: f32, step: f32, max_slope_deg: f32) -> (f32, f32) {
    let a = fmath::to_radians(max_slope_deg.clamp(0.0, crate::MAX_SLOPE_DEG));
    let tan = fmath::sin(a) / fmath::cos(a);
    let step = step.at_least(0.0);
    (
        step + cell * tan,
        step + cell * std::f32::consts::SQRT_2 * tan,
    )
}

/// Surveys row `k` of `grid` into `height` (the row's cells): the highest ground at each
/// centre, or NaN where a boid with ground settings `g` and bodies of radius `body_radius` may
/// not stand (no ground, too steep, a solid within the body radius plus three quarters of a
/// cell of its pivot).
pub fn survey_row(
    grid: &FlowGrid,
    k: u32,
    g: &Ground,
    body_radius: f32,
    ground: &[Placed],
    solids: &[Placed],
    height: &mut [f32],
) {
    let cos_slope = fmath::cos(fmath::to_radians(g.max_slope_deg));
    let reach = body_radius.at_least(0.0) + 0.75 * grid.cell;
    let (_, z) = grid.centre(0, k);
    let x0 = grid.origin[0];
    let x1 = grid.origin[0] + grid.size[0] as f32 * grid.cell;
    // The solids that may reach the row's band, and the ground that may cross its line.
    let near: Vec<Placed> = solids
        .iter()
        .filter(|o| reaches_region(o, [x0 - reach, z - reach], [x1 + reach, z + reach]))
        .cloned()
        .collect();
    let ground: Vec<Placed> = ground
        .iter()
        .filter(|o| reaches_region(o, [x0, z], [x1, z]))
        .cloned()
        .collect();
    for (i, h) in height.iter_mut().enumerate() {
        let (x, z) = grid.centre(i as u32, k);
        *h = match ground_below(&ground, x, z, MAX_MAGNITUDE, -MAX_MAGNITUDE) {
            Some(s)
                if s.normal.y >= cos_slope
                    && contact(&near, Vec3::new(x, s.height + g.pivot_height, z), reach)
                        .is_none() =>
            {
                s.height
            }
            _ => f32::NAN,
        };
    }
}
