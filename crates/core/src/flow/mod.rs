//! Flow fields: the way to a grounded flock's target around walls.
//!
//! A flock that seeks its target in a straight line presses for ever against a wall between
//! them (a fence, a ridge, the inside of a U). A flow field is one distance field to the target
//! over the walkable ground, read by every boid: each cell knows how far the target is along
//! the ground and which neighbour cell leads there.
//!
//! - **The grid** ([`FlowGrid`]): square cells in the xz plane over the ground's extent, at a
//!   cell size the scene sets. One layer: each cell holds the highest ground surface at its
//!   centre (a bridge's deck, not the valley under it).
//! - **The terrain** ([`Terrain`], target-independent, so the fields of several targets
//!   share it): a cell is *open* when there is ground at its centre, no steeper than the
//!   flock's max slope, and no solid obstacle within the body radius plus three quarters of a
//!   cell of the pivot standing there (so that a wall, however thin, closes every cell it
//!   crosses). Two neighbour cells are joined when both are open and the height between them
//!   is at most a step plus the max slope's rise over the distance (a cliff or ledge between
//!   them is a wall); a diagonal needs both cells beside it open and joined to both ends (no
//!   cutting a wall's corner).
//! - **The distances** ([`FlowField::build`]): Dijkstra over the 8-connected cells, with
//!   integer costs [`STRAIGHT`] and [`DIAGONAL`] a step (41/29 = 1.41379, within 0.03 % of
//!   √2), settled with a bucket queue (Dial's algorithm): every cell is taken once, in O(1),
//!   and the integers make the result exact, the same on every platform, and checkable
//!   against a brute-force shortest path. Fast marching would give truer Euclidean distances,
//!   but needs a heap (O(n log n)) and floating-point updates whose rounding an oracle cannot
//!   pin; the octile metric's 8 % worst error is in the distance, not in the way: a boid in
//!   clear sight of its target goes straight.
//! - **The way**: each reachable cell points to the neighbour that starts its shortest path
//!   (ties: straight moves first, in a fixed order). A closed cell (a boid pushed against a
//!   wall stands in one: walls are inflated) points out of the wall to the open cell its
//!   cheapest way leaves by. A cell in *clear sight* of the target (every cell of the segment
//!   to the target's cell open and joined, propagated out from the target cell, ring by ring)
//!   is marked: there a boid seeks in a straight line, as it does within one cell of the
//!   target.

mod build;
mod search;
mod settle;
mod terrain;
mod terrain_build;

pub use build::{FieldBuild, Prices};
pub use search::{FlowField, Join, UNREACHED};
pub use terrain::{CLEARANCE, Rows, Terrain, survey_row};
pub use terrain_build::{HeightRows, TerrainBuild};

use crate::fmath::Order;
use glam::Vec3;

/// Cost of a move to a cell beside (a cell's width).
pub const STRAIGHT: u32 = 29;

/// Cost of a diagonal move (41/29 = 1.41379: √2 to within 0.03 %).
pub const DIAGONAL: u32 = 41;

/// The most cells one field may have: 16,777,216 (4,096 × 4,096; about 10 bytes a cell in the
/// terrain and the field together). A larger grid is refused.
pub const MAX_FLOW_CELLS: u64 = 1 << 24;

/// The eight moves to a neighbour cell, `(di, dk)`: the straight ones first (ties prefer them).
pub const MOVES: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

/// Why a flow grid cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowError {
    /// The cell size is not finite and above 0.
    CellSize(f32),
    /// The extent is not finite, or empty.
    Extent,
    /// The grid would have more than [`MAX_FLOW_CELLS`] cells.
    TooLarge {
        /// Cells along x and along z.
        size: [u64; 2],
    },
}

impl std::fmt::Display for FlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlowError::CellSize(c) => {
                write!(f, "flow cell size must be finite and > 0, got {c}")
            }
            FlowError::Extent => write!(f, "flow grid: the ground's extent is not finite"),
            FlowError::TooLarge { size } => write!(
                f,
                "flow grid of {} x {} cells is over the cap of {MAX_FLOW_CELLS} cells: use a larger cell size",
                size[0], size[1]
            ),
        }
    }
}

impl std::error::Error for FlowError {}

/// A grid of square cells in the xz plane: cell `(i, k)` spans
/// `origin + [i, i + 1] × cell` in x and `[k, k + 1] × cell` in z; cells are stored row by
/// row, x fastest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowGrid {
    /// The corner of least x and z.
    pub origin: [f32; 2],
    /// The width of a cell.
    pub cell: f32,
    /// Cells along x and along z.
    pub size: [u32; 2],
}

impl FlowGrid {
    /// The grid of cells `cell` wide covering the xz extent `lo..hi` from `lo` (at least one
    /// cell each way).
    pub fn over(lo: [f32; 2], hi: [f32; 2], cell: f32) -> Result<FlowGrid, FlowError> {
        if !(cell.is_finite() && cell > 0.0) {
            return Err(FlowError::CellSize(cell));
        }
        if !(lo.iter().chain(&hi).all(|v| v.is_finite()) && lo[0] <= hi[0] && lo[1] <= hi[1]) {
            return Err(FlowError::Extent);
        }
        // Rounded up by hand, through u32 (at most u32::MAX, over the cap anyway; `n` is finite):
        // no libm `ceil` and no float-to-u64 helper, which 32-bit ARM would take from the
        // platform (scripts/lib/phone-symbols).
        let count = |a: usize| -> u64 {
            let n = (f64::from(hi[a]) - f64::from(lo[a])) / f64::from(cell);
            if n >= f64::from(u32::MAX) {
                return u64::from(u32::MAX);
            }
            let t = n as u32;
            let up = if f64::from(t) < n { t + 1 } else { t };
            u64::from(up.max(1))
        };
        let size = [count(0), count(1)];
        if size[0].saturating_mul(size[1]) > MAX_FLOW_CELLS {
            return Err(FlowError::TooLarge { size });
        }
        Ok(FlowGrid {
            origin: lo,
            cell,
            size: [size[0] as u32, size[1] as u32],
        })
    }

    /// How many cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.size[0] as usize * self.size[1] as usize
    }

    /// The index of cell `(i, k)`.
    #[inline]
    pub fn index(&self, i: u32, k: u32) -> usize {
        k as usize * self.size[0] as usize + i as usize
    }

    /// The x and z of the centre of cell `(i, k)`.
    #[inline]
    pub fn centre(&self, i: u32, k: u32) -> (f32, f32) {
        (
            self.origin[0] + (i as f32 + 0.5) * self.cell,
            self.origin[1] + (k as f32 + 0.5) * self.cell,
        )
    }

    /// The cell holding `(x, z)`, if the grid does (its far edges too).
    #[inline]
    pub fn cell_at(&self, x: f32, z: f32) -> Option<(u32, u32)> {
        let at = |v: f32, o: f32, n: u32| -> Option<u32> {
            let f = (v - o) / self.cell;
            // NaN fails both.
            if !(f >= 0.0 && f <= n as f32) {
                return None;
            }
            Some((f as u32).min(n - 1))
        };
        Some((
            at(x, self.origin[0], self.size[0])?,
            at(z, self.origin[1], self.size[1])?,
        ))
    }

    /// The cell holding `(x, z)`, or the grid's cell nearest to it (NaN: toward 0).
    #[inline]
    pub fn clamped_cell(&self, x: f32, z: f32) -> (u32, u32) {
        let at = |v: f32, o: f32, n: u32| -> u32 {
            // `as` saturates, and maps NaN to 0.
            (((v - o) / self.cell).at_least(0.0) as u32).min(n - 1)
        };
        (
            at(x, self.origin[0], self.size[0]),
            at(z, self.origin[1], self.size[1]),
        )
    }

    /// The neighbour of cell `(i, k)` by `MOVES[m]`, if inside the grid.
    #[inline]
    pub fn neighbour(&self, i: u32, k: u32, m: usize) -> Option<(u32, u32)> {
        let (di, dk) = MOVES[m];
        let (i, k) = (i as i64 + i64::from(di), k as i64 + i64::from(dk));
        (i >= 0 && k >= 0 && i < i64::from(self.size[0]) && k < i64::from(self.size[1]))
            .then_some((i as u32, k as u32))
    }
}

/// The cost of move `m` of [`MOVES`].
#[inline]
pub fn move_cost(m: usize) -> u32 {
    if m < 4 { STRAIGHT } else { DIAGONAL }
}

/// How a boid seeks its target over a flow field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seek {
    /// In a straight line: the target is in clear sight, within a cell, or the boid is off the
    /// field's grid.
    Straight,
    /// Along the field: the unit horizontal direction of the way, and how far the target is
    /// along it.
    Along {
        /// Unit, horizontal.
        direction: Vec3,
        /// Along the ground, in world units.
        distance: f32,
    },
    /// No way leads from here to the target (walled off): the boid does not seek it.
    NoWay,
}
