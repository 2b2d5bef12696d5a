//! Terrains and fields built a budget of work at a time, so that a step never spends more than
//! a setting on them (a target that moves, a scene that changes).
//!
//! Work is counted in *units*, each about the time Dijkstra takes to settle one cell; every
//! stage counts its items (a bucket entry, a heap entry, a row, a ring) at a fixed price in
//! units ([`Prices`]). A call to `advance` takes whole items while their price fits in what is
//! left of its budget, and always takes at least one, so every call makes progress. Where a
//! build stands is a function of the units it has taken alone: [`FieldBuild::resume`] and
//! [`TerrainBuild::resume`] take that many units in one call and stand exactly where the build
//! that took them a budget at a time stood (the item boundaries are the same). So a saved
//! world can rebuild a half-built field from two numbers.

use super::search::{MOVE_OF, between, ring, seeds, steps};
use super::{DIAGONAL, FlowField, FlowGrid, Join, STRAIGHT, Terrain, UNREACHED, move_cost};
use crate::Vec3;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The price of each kind of item, in units (about the time Dijkstra takes to settle a cell on
/// one thread: 35 to 40 ns on an AMD EPYC of the Zen 4 generation). Rows and rings are priced by
/// their cells, from the time each kind takes a cell on the same machine.
pub struct Prices;

impl Prices {
    /// One bucket entry taken by Dijkstra, or one heap entry by the closed cells' search.
    pub const SETTLE: u64 = 1;
    /// Cells a unit, filling a field's arrays.
    pub const FILL_CELLS: u64 = 32;
    /// Cells a unit, scanning for closed cells beside reached ones.
    pub const SCAN_CELLS: u64 = 16;
    /// Cells a unit, checking clear sight ring by ring.
    pub const SIGHT_CELLS: u64 = 4;
    /// Units a cell, surveying the ground (on the workers: rows side by side).
    pub const SURVEY: u64 = 4;
    /// Cells a unit, joining neighbour cells (on the workers).
    pub const LINK_CELLS: u64 = 2;
    /// Cells a unit, each pass of the clearance's distances.
    pub const CLEARANCE_CELLS: u64 = 8;
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

/// Dijkstra's state between calls ([`FieldBuild`]).
#[derive(Clone, Debug)]
struct Settle {
    buckets: Vec<Vec<u32>>,
    mask: usize,
    queued: usize,
    /// The distance of the next bucket.
    now: u32,
    /// The bucket being taken, its distance, and how far into it.
    bucket: Vec<u32>,
    current: u32,
    pos: usize,
}

/// The distances' and ways' half of a field being built.
#[derive(Clone, Debug)]
enum Distances {
    /// Filling the arrays: rows done.
    Fill(usize),
    /// Finding where Dijkstra starts.
    Seeds,
    Settle(Settle),
    /// The closed cells beside reached ones: rows scanned.
    Scan(usize, BinaryHeap<Reverse<(u32, u32)>>),
    /// The closed cells' Dijkstra.
    Escape(BinaryHeap<Reverse<(u32, u32)>>),
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
        join(
            &mut || distances(terrain, target, sa, distance, way, ba),
            &mut || sight(terrain, grid, target, sb, clear, bb),
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
) {
    let grid = terrain.grid;
    let w = grid.size[0] as usize;
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
                *stage = Distances::Settle(start_settle(&seeds(terrain, t), distance));
            }
            Distances::Settle(s) => {
                if !settle(terrain, s, distance, way, b) {
                    return;
                }
                *stage = Distances::Scan(0, BinaryHeap::new());
            }
            Distances::Scan(row, heap) => {
                let rows = grid.size[1] as usize;
                let k =
                    b.take_many((rows - *row) as u64, row_price(w, Prices::SCAN_CELLS)) as usize;
                for r in *row..*row + k {
                    scan_row(terrain, r as u32, distance, heap);
                }
                *row += k;
                if *row < rows {
                    return;
                }
                *stage = Distances::Escape(std::mem::take(heap));
            }
            Distances::Escape(heap) => {
                if !escape(terrain, heap, distance, way, b) {
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

/// Dijkstra's starting state from `seeds` (cells with their starting distances), a ring of
/// buckets a distance each (Dial).
fn start_settle(seeds: &[(usize, u32)], distance: &mut [u32]) -> Settle {
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
    Settle {
        buckets,
        mask,
        queued,
        now: lo,
        bucket: Vec::new(),
        current: lo,
        pos: 0,
    }
}

/// Dijkstra over the open, joined cells, a budget at a time: a cell is taken from the bucket
/// of its distance, once, and its first moves go into `way` as it is taken (to the neighbours
/// its distance came from, through passable moves, all taken before it). Whether it is done.
fn settle(
    terrain: &Terrain,
    s: &mut Settle,
    distance: &mut [u32],
    way: &mut [u8],
    b: &mut Budget,
) -> bool {
    let step = steps(&terrain.grid);
    loop {
        if s.pos == s.bucket.len() {
            s.bucket.clear();
            s.pos = 0;
            if s.queued == 0 {
                return true;
            }
            std::mem::swap(&mut s.bucket, &mut s.buckets[s.now as usize & s.mask]);
            s.queued -= s.bucket.len();
            s.current = s.now;
            s.now += 1;
            continue;
        }
        // As many of the bucket's entries as the budget holds, at once.
        let take = b.take_many((s.bucket.len() - s.pos) as u64, Prices::SETTLE) as usize;
        if take == 0 {
            return false;
        }
        let now = s.current;
        for at in s.pos..s.pos + take {
            let c = s.bucket[at] as usize;
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
                let nb = c.wrapping_add_signed(step[m]);
                let f = distance[nb];
                // A neighbour nearer than this cell has its final distance: one it came from?
                if f < now {
                    if f + move_cost(m) + enter == now {
                        bits |= 1 << m;
                    }
                    continue;
                }
                let d = now + move_cost(m) + terrain.extra(nb);
                if d < f {
                    distance[nb] = d;
                    s.buckets[d as usize & s.mask].push(nb as u32);
                    s.queued += 1;
                }
            }
            way[c] = bits;
        }
        s.pos += take;
    }
}

/// Queues each closed cell of row `k` beside a reached open cell, at that cell's distance plus
/// the move (the best such).
fn scan_row(
    terrain: &Terrain,
    k: u32,
    distance: &mut [u32],
    heap: &mut BinaryHeap<Reverse<(u32, u32)>>,
) {
    let grid = terrain.grid;
    for i in 0..grid.size[0] {
        let c = grid.index(i, k);
        if terrain.open(c) {
            continue;
        }
        let best = (0..8)
            .filter_map(|m| {
                let (ni, nk) = grid.neighbour(i, k, m)?;
                let nb = grid.index(ni, nk);
                let d = distance[nb];
                (terrain.open(nb) && d != UNREACHED).then(|| d + move_cost(m))
            })
            .min();
        if let Some(d) = best {
            distance[c] = d;
            heap.push(Reverse((d, c as u32)));
        }
    }
}

/// The closed cells' distances, a budget at a time: Dijkstra from every reached open cell
/// through the closed ones (any move between a closed cell and a neighbour: walls are what
/// they leave), and each one's first moves into `way` as it is taken (to any neighbour its
/// distance came from). Whether it is done.
fn escape(
    terrain: &Terrain,
    heap: &mut BinaryHeap<Reverse<(u32, u32)>>,
    distance: &mut [u32],
    way: &mut [u8],
    b: &mut Budget,
) -> bool {
    let grid = terrain.grid;
    loop {
        let Some(&Reverse((d, c))) = heap.peek() else {
            return true;
        };
        if !b.take(Prices::SETTLE) {
            return false;
        }
        heap.pop();
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
            let nb = grid.index(ni, nk);
            let f = distance[nb];
            // Taken before this one (an open cell reached, or a nearer closed one): final.
            if f < d {
                if f + move_cost(m) == d {
                    bits |= 1 << m;
                }
                continue;
            }
            if terrain.open(nb) {
                continue;
            }
            let nd = d + move_cost(m);
            if nd < f {
                distance[nb] = nd;
                heap.push(Reverse((nd, nb as u32)));
            }
        }
        way[c] = bits;
    }
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
                sight_ring(terrain, grid, (ti, tk), *r, clear);
                *r += 1;
            }
            Sight::Done => return,
        }
    }
}

/// Ring `r` of the clear sight of the cell `(ti, tk)` ([`sight`]).
fn sight_ring(terrain: &Terrain, grid: FlowGrid, (ti, tk): (i64, i64), r: i64, clear: &mut [bool]) {
    let inside = |i: i64, k: i64| {
        i >= 0 && k >= 0 && i < i64::from(grid.size[0]) && k < i64::from(grid.size[1])
    };
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
