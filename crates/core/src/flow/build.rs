//! Terrains and fields built a budget of work at a time, so that a step never spends more than
//! a setting on them (a target that moves, a scene that changes).
//!
//! Work is counted in *units*, each about the time Dijkstra takes to settle one cell; every
//! stage counts its items (a row, a ring, a window of distances, a group of rows' ways) at a
//! fixed price in units ([`Prices`]). A call to `advance` takes whole items while their price
//! fits in what is left of its budget, and always takes at least one, so every call makes
//! progress; Dijkstra's windows and the ways' groups, whose price is known only once taken, are
//! taken while any units are left and charged after (so a call passes its budget by at most one
//! of them). Where a
//! build stands is a function of the units it has taken alone: [`FieldBuild::resume`] and
//! [`TerrainBuild::resume`] take that many units in one call and stand exactly where the build
//! that took them a budget at a time stood (the item boundaries are the same). So a saved
//! world can rebuild a half-built field from two numbers.

use super::search::{MOVE_OF, ring, seeds};
use super::settle::{Settle, Team, help, settle};
use super::{FlowField, FlowGrid, Join, Terrain, UNREACHED};
use crate::Vec3;

/// The price of each kind of item, in units (about the time Dijkstra takes to settle a cell on
/// one thread: 15 to 20 ns on an AMD EPYC of the Zen 4 generation). Rows, rings and groups are
/// priced by their cells, from the time each kind takes a cell on one thread on the same
/// machine. (The settling, the ways, the survey and the links share the build's threads.)
pub struct Prices;

impl Prices {
    /// One cell settled by Dijkstra: a window of distances is charged for the cells it settles
    /// (at least one unit), after.
    pub const SETTLE: u64 = 1;
    /// Cells a unit, filling a field's arrays.
    pub const FILL_CELLS: u64 = 16;
    /// Cells a unit, looking ring by ring for the open cells around a target in a wall.
    pub const SCAN_CELLS: u64 = 8;
    /// Cells a unit, finding the ways from the distances.
    pub const WAY_CELLS: u64 = 8;
    /// Cells a unit, checking clear sight ring by ring.
    pub const SIGHT_CELLS: u64 = 6;
    /// Units a cell, surveying the ground.
    pub const SURVEY: u64 = 8;
    /// Cells a unit, joining neighbour cells.
    pub const LINK_CELLS: u64 = 1;
    /// Cells a unit, each pass of the clearance's distances.
    pub const CLEARANCE_CELLS: u64 = 4;
}

/// What is left of a call's budget.
pub(super) struct Budget {
    left: u64,
    /// Whether an item has been taken yet (the first is taken whatever its price) or, for a
    /// resume, never true: take exactly what fits.
    any: bool,
    /// Units taken.
    pub(super) taken: u64,
}

impl Budget {
    pub(super) fn new(units: u64) -> Budget {
        Budget {
            left: units,
            any: false,
            taken: 0,
        }
    }

    pub(super) fn exact(units: u64) -> Budget {
        Budget {
            left: units,
            any: true,
            taken: 0,
        }
    }

    /// Takes an item of `price` units if it fits (or is the first).
    pub(super) fn take(&mut self, price: u64) -> bool {
        if price > self.left && self.any {
            return false;
        }
        self.left = self.left.saturating_sub(price);
        self.any = true;
        self.taken += price;
        true
    }

    /// Whether an item may be taken whose price is known only after: some units are left, or
    /// none has been taken yet ([`Budget::charge`]).
    pub(super) fn open(&self) -> bool {
        self.left > 0 || !self.any
    }

    /// Charges `units` for an item taken ([`Budget::open`]).
    pub(super) fn charge(&mut self, units: u64) {
        self.left = self.left.saturating_sub(units);
        self.any = true;
        self.taken += units;
    }

    /// How many of `count` items of `price` units each to take at once (at least one if it is
    /// the first), taking them.
    pub(super) fn take_many(&mut self, count: u64, price: u64) -> u64 {
        let price = price.max(1);
        let mut n = (self.left / price).min(count);
        if n == 0 && !self.any && count > 0 {
            n = 1;
        }
        if n > 0 {
            self.left = self.left.saturating_sub(n * price);
            self.any = true;
            self.taken += n * price;
        }
        n
    }
}

/// The units of a row of `w` cells at `cells` cells a unit (at least one).
pub(super) fn row_price(w: usize, cells: u64) -> u64 {
    (w as u64).div_ceil(cells).max(1)
}

/// The distances' and ways' half of a field being built.
#[derive(Clone, Debug)]
enum Distances {
    /// Filling the arrays: rows done.
    Fill(usize),
    /// Finding where Dijkstra starts.
    Seeds,
    Settle(Settle),
    Done,
}

/// The clear sight's half.
#[derive(Clone, Debug)]
enum Sight {
    Fill(usize),
    /// The next ring.
    Rings(i64),
    Done,
}

/// A [`FlowField`] being built, a budget at a time ([`FieldBuild::advance`]).
#[derive(Clone, Debug)]
pub struct FieldBuild {
    field: FlowField,
    distances: Distances,
    sight: Sight,
    /// Units each half has taken.
    taken: [u64; 2],
}

impl FieldBuild {
    /// A build of the field to the cell holding `target` (clamped onto the grid) over
    /// `terrain` (nothing done yet).
    pub fn new(terrain: &Terrain, target: Vec3) -> FieldBuild {
        let grid = terrain.grid;
        FieldBuild {
            field: FlowField {
                grid,
                target: grid.clamped_cell(target.x, target.z),
                distance: Vec::new(),
                way: Vec::new(),
                clear: Vec::new(),
            },
            distances: Distances::Fill(0),
            sight: Sight::Fill(0),
            taken: [0, 0],
        }
    }

    /// The build that has taken `taken` units (each half's, [`FieldBuild::taken`]) over
    /// `terrain`: where a build to `target` that took them a budget at a time stands.
    pub fn resume(terrain: &Terrain, target: Vec3, taken: [u64; 2]) -> FieldBuild {
        let mut b = FieldBuild::new(terrain, target);
        let mut budgets = [Budget::exact(taken[0]), Budget::exact(taken[1])];
        b.run(terrain, &mut budgets, &|a, b| {
            a();
            b();
        });
        b
    }

    /// The target's cell.
    pub fn target(&self) -> (u32, u32) {
        self.field.target
    }

    /// Units each half (the distances and ways; the clear sight) has taken.
    pub fn taken(&self) -> [u64; 2] {
        self.taken
    }

    /// Whether the field is whole.
    pub fn done(&self) -> bool {
        matches!(self.distances, Distances::Done) && matches!(self.sight, Sight::Done)
    }

    /// Builds on over `terrain` (the one it was started over), each half taking at most
    /// `budget` units (and at least one item), the two handed to `join` (either order, or at
    /// once: the same bits). Whether the field is whole.
    pub fn advance(&mut self, terrain: &Terrain, budget: u64, join: &Join<'_>) -> bool {
        let mut budgets = [Budget::new(budget), Budget::new(budget)];
        self.run(terrain, &mut budgets, join);
        self.done()
    }

    /// The whole field (`None` while it is not).
    pub fn finish(self) -> Option<FlowField> {
        self.done().then_some(self.field)
    }

    fn run(&mut self, terrain: &Terrain, budgets: &mut [Budget; 2], join: &Join<'_>) {
        let FlowField {
            grid,
            target,
            distance,
            way,
            clear,
        } = &mut self.field;
        let (grid, target) = (*grid, *target);
        let (da, db) = budgets.split_at_mut(1);
        let (ba, bb) = (&mut da[0], &mut db[0]);
        let (sa, sb) = (&mut self.distances, &mut self.sight);
        let team = Team::new();
        join(
            &mut || distances(terrain, target, sa, distance, way, ba, &team),
            &mut || {
                sight(terrain, grid, target, sb, clear, bb);
                help(terrain, &team);
            },
        );
        self.taken[0] += budgets[0].taken;
        self.taken[1] += budgets[1].taken;
    }
}

/// Fills `v` with `value` a row of `grid` at a time from row `*row`, a budget at a time:
/// whether all its rows are.
fn fill_rows<T: Clone>(
    v: &mut Vec<T>,
    value: T,
    grid: &FlowGrid,
    row: &mut usize,
    b: &mut Budget,
) -> bool {
    let (w, rows) = (grid.size[0] as usize, grid.size[1] as usize);
    *row += b.take_many((rows - *row) as u64, row_price(w, Prices::FILL_CELLS)) as usize;
    v.resize(*row * w, value);
    *row == rows
}

/// The distances' and ways' half, a budget at a time.
fn distances(
    terrain: &Terrain,
    t: (u32, u32),
    stage: &mut Distances,
    distance: &mut Vec<u32>,
    way: &mut Vec<u8>,
    b: &mut Budget,
    team: &Team,
) {
    let _leaving = team.begin();
    let grid = terrain.grid;
    loop {
        match stage {
            Distances::Fill(row) => {
                let done = fill_rows(distance, UNREACHED, &grid, row, b);
                // The ways fill with the distances, in the same price.
                way.resize(distance.len(), 0);
                if !done {
                    return;
                }
                *stage = Distances::Seeds;
            }
            Distances::Seeds => {
                // A target cell in a wall looks ring by ring for open cells: priced by the
                // cells it looks at.
                let looked = seeds_price(terrain, t);
                if !b.take(looked) {
                    return;
                }
                *stage = Distances::Settle(Settle::start(&seeds(terrain, t), distance, &grid));
            }
            Distances::Settle(s) => {
                if !settle(terrain, s, distance, way, b, team) {
                    return;
                }
                *stage = Distances::Done;
            }
            Distances::Done => return,
        }
    }
}

/// The price of finding the seeds: the cells of the rings looked at, at the scan's price.
fn seeds_price(terrain: &Terrain, t: (u32, u32)) -> u64 {
    let grid = terrain.grid;
    if terrain.open(grid.index(t.0, t.1)) {
        return 1;
    }
    let (ti, tk) = (i64::from(t.0), i64::from(t.1));
    let mut cells = 1u64;
    for r in 1..=i64::from(grid.size[0].max(grid.size[1])) {
        let mut any = false;
        for (dx, dz) in ring(r) {
            let (i, k) = (ti + dx, tk + dz);
            if i < 0 || k < 0 || i >= i64::from(grid.size[0]) || k >= i64::from(grid.size[1]) {
                continue;
            }
            cells += 1;
            any |= terrain.open(grid.index(i as u32, k as u32));
        }
        if any {
            break;
        }
    }
    cells.div_ceil(Prices::SCAN_CELLS)
}

/// Clear sight of the target cell `t`, a budget at a time, ring by ring out from it: a cell
/// sees the target when it is open and the one or two cells its segment to the target's centre
/// passes between, a column (or row) nearer, see it and are joined to it. The segment runs
/// between those two cells' segments all the way, so every cell it crosses was checked. A
/// closed target cell is seen from nowhere.
fn sight(
    terrain: &Terrain,
    grid: FlowGrid,
    t: (u32, u32),
    stage: &mut Sight,
    clear: &mut Vec<bool>,
    b: &mut Budget,
) {
    let (ti, tk) = (i64::from(t.0), i64::from(t.1));
    let rings =
        (ti.max(i64::from(grid.size[0]) - 1 - ti)).max(tk.max(i64::from(grid.size[1]) - 1 - tk));
    loop {
        match stage {
            Sight::Fill(row) => {
                if !fill_rows(clear, false, &grid, row, b) {
                    return;
                }
                if !terrain.open(grid.index(t.0, t.1)) {
                    *stage = Sight::Done;
                    continue;
                }
                clear[grid.index(t.0, t.1)] = true;
                *stage = Sight::Rings(1);
            }
            Sight::Rings(r) => {
                if *r > rings {
                    *stage = Sight::Done;
                    continue;
                }
                if !b.take((8 * *r as u64).div_ceil(Prices::SIGHT_CELLS)) {
                    return;
                }
                // A cell sees the target only through cells of the ring before it that do: past
                // a ring with none, no cell does (they stay false).
                if !sight_ring(terrain, grid, (ti, tk), *r, clear) {
                    *stage = Sight::Done;
                    continue;
                }
                *r += 1;
            }
            Sight::Done => return,
        }
    }
}

/// Ring `r` of the clear sight of the cell `(ti, tk)` ([`sight`]): whether any of its cells
/// sees it. The ring's top and bottom rows look through the row one nearer, its left and right
/// columns through the column one nearer ([`nearer`]); cells off the grid are skipped.
fn sight_ring(
    terrain: &Terrain,
    grid: FlowGrid,
    (ti, tk): (i64, i64),
    r: i64,
    clear: &mut [bool],
) -> bool {
    let (w, h) = (i64::from(grid.size[0]), i64::from(grid.size[1]));
    let mut any = false;
    // Cell `c` through the cells `through` (each with the move to it).
    let mut look = |c: i64, through: [Option<(i64, usize)>; 2], clear: &mut [bool]| {
        let c = c as usize;
        if !terrain.open(c) {
            return;
        }
        let links = terrain.links(c);
        let ok = through
            .into_iter()
            .flatten()
            .all(|(b, m)| clear[b as usize] && links & (1 << m) != 0);
        clear[c] = ok;
        any |= ok;
    };
    for dz in [-r, r] {
        let k = tk + dz;
        if !(0..h).contains(&k) {
            continue;
        }
        let s = dz.signum();
        for a in (-r).max(-ti)..=r.min(w - 1 - ti) {
            let through = nearer(a, r).map(|b| {
                b.map(|b| {
                    (
                        (k - s) * w + ti + b,
                        MOVE_OF[((1 - s) * 3 + (b - a + 1)) as usize],
                    )
                })
            });
            look(k * w + ti + a, through, clear);
        }
    }
    for dx in [-r, r] {
        let i = ti + dx;
        if !(0..w).contains(&i) {
            continue;
        }
        let s = dx.signum();
        for a in (1 - r).max(-tk)..=(r - 1).min(h - 1 - tk) {
            let through = nearer(a, r).map(|b| {
                b.map(|b| {
                    (
                        (tk + b) * w + i - s,
                        MOVE_OF[((b - a + 1) * 3 + (1 - s)) as usize],
                    )
                })
            });
            look((tk + a) * w + i, through, clear);
        }
    }
    any
}

/// The cells a segment to the target's centre passes between, one row (or column) nearer,
/// from a cell of ring `r` at offset `a` along its side: the segment crosses that row at
/// `a (r - 1) / r`, an integer only for `a` of 0 or ±r (one cell: straight, or the diagonal),
/// else strictly between `a` and the next cell toward the axis.
fn nearer(a: i64, r: i64) -> [Option<i64>; 2] {
    let s = a.signum();
    if a == 0 {
        [Some(0), None]
    } else if a.abs() == r {
        [Some(a - s), None]
    } else {
        [Some(a), Some(a - s)]
    }
}

#[cfg(test)]
mod tests {
    use super::nearer;
    use crate::flow::search::between;

    /// The sides' cells are [`between`]'s, for every cell of the first 300 rings.
    #[test]
    fn nearer_is_between() {
        let sorted = |mut v: Vec<(i64, i64)>| {
            v.sort_unstable();
            v
        };
        for r in 1..300i64 {
            for a in -r..=r {
                for d in [-r, r] {
                    let row = nearer(a, r)
                        .into_iter()
                        .flatten()
                        .map(|b| (b, d - d.signum()));
                    let want = sorted(between(a, d).into_iter().flatten().collect());
                    assert_eq!(sorted(row.collect()), want, "row {a},{d} of ring {r}");
                    if a.abs() < r {
                        let col = nearer(a, r)
                            .into_iter()
                            .flatten()
                            .map(|b| (d - d.signum(), b));
                        let want = sorted(between(d, a).into_iter().flatten().collect());
                        assert_eq!(sorted(col.collect()), want, "column {d},{a} of ring {r}");
                    }
                }
            }
        }
    }
}
