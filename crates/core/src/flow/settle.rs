//! Dijkstra's settling of the cells, a window of distances at a time, on one thread or two.
//!
//! Every move costs at least [`STRAIGHT`], so once the cells nearer than `now` are settled,
//! every cell queued at a distance below `now + STRAIGHT` has its final distance: nothing
//! settled from then on can lower it. Such a *window* of distances is settled in any order. The
//! grid's rows are dealt in bands ([`BAND`]) to two *shares*, alternately: a share settles the
//! window's cells of its bands, lowers only their distances, and hands the cells it reaches in
//! the other's bands over for the next window. The distances half's thread settles the first
//! share of each window, and the second too unless the other thread (the clear sight's, once
//! its own work is done: [`help`]) has claimed it first. A cell's final distance and its ways
//! (the moves to the neighbours its distance came from, all settled before it) do not depend on
//! the order, so the field is the same bits on one thread or two, whichever took which share.
//!
//! The open cells are reached through passable moves, each costing its move and what entering
//! the cell costs ([`Terrain::extra`]); the closed cells (a boid pushed against a wall stands in
//! one) from any neighbour, at the move's cost alone, and they reach only closed cells: their
//! distance is their cheapest way out.
//!
//! The ways come after, from the final distances alone, a group of two bands of rows at a time
//! (a band each share).
//!
//! A window is priced by the cells it settles, at least one unit, and a group of rows by its
//! cells ([`Prices::WAY_CELLS`]): functions of the terrain alone. A call takes jobs while its
//! budget has units left, and charges each after (the first always goes), so a call may pass its
//! budget by one job; where a build stands is still a function of the units it took.

use super::build::Budget;
use super::build::Prices;
use super::search::steps;
use super::terrain::CLOSED;
use super::{FlowGrid, STRAIGHT, Terrain, UNREACHED, move_cost};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64};
use std::sync::{Mutex, MutexGuard, RwLock};

/// The most rows a band: a share owns every other band of rows of the grid (the cells it
/// settles and the distances it lowers), so that the two threads seldom touch the same memory.
/// A grid has at least 16 bands (a band at least a row), so the shares split small grids too.
const BAND: usize = 64;

/// Dijkstra's state between calls.
#[derive(Clone, Debug)]
pub(super) struct Settle {
    /// Each share's queued cells: a ring of buckets a distance each (Dial).
    rings: [Vec<Vec<u32>>; 2],
    mask: usize,
    /// Rows of a band.
    band: usize,
    /// The next window's first distance.
    now: u32,
    /// Once every window is settled: the next group of rows whose ways are found ([`ways`]).
    ways: Option<usize>,
}

impl Settle {
    /// The starting state from `seeds` (cells with their starting distances) on `grid`.
    pub(super) fn start(seeds: &[(usize, u32)], distance: &mut [u32], grid: &FlowGrid) -> Settle {
        let lo = seeds.iter().map(|s| s.1).min().unwrap_or(0);
        let hi = seeds.iter().map(|s| s.1).max().unwrap_or(0);
        // Every distance queued lies within the span of the seeds, a window and one move (the
        // dearest, into a cell beside a wall) of a cell settled in it.
        let most = super::DIAGONAL + super::terrain::CLEARANCE * (STRAIGHT / 4);
        let span = ((hi - lo) as usize + (most + STRAIGHT) as usize + 1).next_power_of_two();
        let w = grid.size[0] as usize;
        // (A power of two: a cell's row in its band is a mask away.)
        let band = (grid.size[1] as usize / 16).clamp(1, BAND);
        let band = 1 << band.ilog2();
        let mut rings: [Vec<Vec<u32>>; 2] = [vec![Vec::new(); span], vec![Vec::new(); span]];
        for &(c, d) in seeds {
            if d < distance[c] {
                distance[c] = d;
                rings[c / w / band % 2][d as usize & (span - 1)].push(c as u32);
            }
        }
        Settle {
            rings,
            mask: span - 1,
            band,
            now: lo,
            ways: None,
        }
    }
}

/// The moves to the row after a cell's, and to the row before (bit `m` for `MOVES[m]`).
const DOWN: u8 = 0b0011_0010;
const UP: u8 = 0b1100_1000;
/// The moves to the column after a cell's, and to the one before.
const EAST: u8 = 0b1001_0001;
const WEST: u8 = 0b0110_0100;

/// The moves out of cell `(i, k)` of `grid` that stay on it: bit `m` for `MOVES[m]`.
fn inside_moves(grid: &FlowGrid, i: usize, k: usize) -> u8 {
    let (w, h) = (grid.size[0] as usize, grid.size[1] as usize);
    let mut off = 0;
    if i == 0 {
        off |= WEST;
    }
    if i + 1 == w {
        off |= EAST;
    }
    if k == 0 {
        off |= UP;
    }
    if k + 1 == h {
        off |= DOWN;
    }
    !off
}

/// A cell's row, by a multiplication: `c * ⌈2^48 / w⌉ / 2^48` is `c / w` for every `c` and
/// `w` under 2^24 (the error, under `c / 2^48`, never reaches the next multiple of `1 / w`).
#[derive(Clone, Copy)]
struct RowOf(u64);

impl RowOf {
    fn new(w: usize) -> RowOf {
        RowOf((1u64 << 48).div_ceil(w as u64))
    }

    #[inline]
    fn row(self, c: usize) -> usize {
        ((c as u64 * self.0) >> 48) as usize
    }
}

/// What the two threads share while the distances half settles ([`settle`], [`help`]).
pub(super) struct Team {
    /// The distances half has begun (the helper helps only then: on one thread the halves run
    /// one after the other, either first).
    started: AtomicBool,
    /// The distances half has left its settling for this call (done, out of budget, or
    /// unwound): the helper leaves.
    over: AtomicBool,
    /// The window's number times 4, plus bit 0 while its first share is claimed (always) and
    /// bit 1 once its second is.
    claim: Padded<AtomicU64>,
    /// The window's first distance, or (with `ways`) the group of rows.
    now: AtomicU32,
    /// Whether the job is a group of rows' ways rather than a window.
    ways: AtomicBool,
    /// The last window whose second share the helper finished.
    finished: Padded<AtomicU64>,
    /// The helper unwound (a bug): the distances half stops waiting for it.
    failed: AtomicBool,
    /// The arrays, as atomics (each cell written by its share alone).
    arrays: RwLock<(Vec<AtomicU32>, Vec<AtomicU8>)>,
    /// The distances once all are final (read alone, as the ways are found).
    plain: RwLock<Vec<u32>>,
    shares: [Padded<Mutex<Share>>; 2],
    /// What each share hands the other, by the window's parity (taken in as the other's next
    /// window begins, while the next list fills).
    handed: [[Padded<Mutex<Handed>>; 2]; 2],
}

/// Cells handed to the other share, each with its distance.
type Handed = Vec<(u32, u32)>;

/// Keeps what one thread writes off the other's cache lines.
#[repr(align(128))]
struct Padded<T>(T);

/// A share's ring, and what its last window settled and left queued.
#[derive(Default)]
struct Share {
    buckets: Vec<Vec<u32>>,
    mask: usize,
    band: usize,
    /// Entries in the ring.
    queued: usize,
    /// Cells settled in the last window.
    settled: u64,
    /// The window's entries, with their distances (kept for its room).
    window: Vec<(u32, u32)>,
}

impl Team {
    pub(super) fn new() -> Team {
        Team {
            started: AtomicBool::new(false),
            over: AtomicBool::new(false),
            claim: Padded(AtomicU64::new(0)),
            now: AtomicU32::new(0),
            ways: AtomicBool::new(false),
            finished: Padded(AtomicU64::new(0)),
            failed: AtomicBool::new(false),
            arrays: RwLock::new((Vec::new(), Vec::new())),
            plain: RwLock::new(Vec::new()),
            shares: [
                Padded(Mutex::new(Share::default())),
                Padded(Mutex::new(Share::default())),
            ],
            handed: std::array::from_fn(|_| {
                std::array::from_fn(|_| Padded(Mutex::new(Vec::new())))
            }),
        }
    }

    /// The distances half begins: call first thing (it returns what ends it, [`Leaving`]).
    pub(super) fn begin(&self) -> Leaving<'_> {
        self.started.store(true, Release);
        Leaving(self)
    }

    // A poisoned lock: the helper unwound mid-share, and the step is lost anyway.
    fn share(&self, s: usize) -> MutexGuard<'_, Share> {
        self.shares[s].0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn handed(&self, s: usize, epoch: u64) -> MutexGuard<'_, Handed> {
        self.handed[s][epoch as usize & 1]
            .0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }
}

/// Ends the distances half's part in the team when dropped (also when it unwinds, so that the
/// helper never waits for ever).
pub(super) struct Leaving<'a>(&'a Team);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        self.0.over.store(true, Release);
    }
}

/// Marks the helper failed when dropped while unwinding.
struct Failing<'a>(&'a Team);

impl Drop for Failing<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, Release);
        }
    }
}

/// Waits a little (spinning at first, then yielding the core).
fn pause(spins: &mut u32) {
    if *spins < 64 {
        std::hint::spin_loop();
        *spins += 1;
    } else {
        std::thread::yield_now();
    }
}

/// Settles windows, then finds the ways a group of rows at a time, while `b` has units left
/// (and at least one job): whether every cell that can be reached is settled and every way
/// found.
pub(super) fn settle(
    terrain: &Terrain,
    s: &mut Settle,
    distance: &mut Vec<u32>,
    way: &mut Vec<u8>,
    b: &mut Budget,
    team: &Team,
) -> bool {
    // The arrays go to the team as atomics (in place: no copy), the rings to their shares,
    // and come back after.
    *team.arrays.write().unwrap_or_else(|p| p.into_inner()) = (
        std::mem::take(distance)
            .into_iter()
            .map(AtomicU32::new)
            .collect(),
        std::mem::take(way).into_iter().map(AtomicU8::new).collect(),
    );
    // Final distances, in place (whenever the ways are being found).
    let finals = || {
        let mut a = team.arrays.write().unwrap_or_else(|p| p.into_inner());
        let mut p = team.plain.write().unwrap_or_else(|p| p.into_inner());
        if p.is_empty() {
            *p = std::mem::take(&mut a.0)
                .into_iter()
                .map(AtomicU32::into_inner)
                .collect();
        }
    };
    let mut queued = 0;
    for r in 0..2 {
        let mut g = team.share(r);
        g.buckets = std::mem::take(&mut s.rings[r]);
        g.queued = g.buckets.iter().map(Vec::len).sum();
        (g.mask, g.band) = (s.mask, s.band);
        queued += g.queued;
    }
    let mut epoch = 0u64;
    let (w, h) = (terrain.grid.size[0] as usize, terrain.grid.size[1] as usize);
    let groups = h.div_ceil(2 * s.band);
    loop {
        if s.ways.is_none() && queued == 0 {
            s.ways = Some(0);
        }
        if s.ways.is_some() {
            finals();
        }
        if s.ways == Some(groups) || !b.open() {
            break;
        }
        epoch += 1;
        team.now.store(s.ways.map_or(s.now, |g| g as u32), Relaxed);
        team.ways.store(s.ways.is_some(), Relaxed);
        team.claim.0.store(epoch << 2 | 1, Release);
        job(terrain, team, 0, epoch);
        if team
            .claim
            .0
            .compare_exchange(epoch << 2 | 1, epoch << 2 | 3, Acquire, Relaxed)
            .is_ok()
        {
            job(terrain, team, 1, epoch);
        } else {
            let mut spins = 0;
            while team.finished.0.load(Acquire) != epoch {
                assert!(
                    !team.failed.load(Acquire),
                    "the flow field's helper thread failed"
                );
                pause(&mut spins);
            }
        }
        if let Some(g) = s.ways {
            // A group's price: its cells.
            let rows = (2 * s.band).min(h - g * 2 * s.band);
            b.charge(((rows * w) as u64).div_ceil(Prices::WAY_CELLS));
            s.ways = Some(g + 1);
            continue;
        }
        let settled = team.share(0).settled + team.share(1).settled;
        queued = team.share(0).queued + team.share(1).queued;
        // At least a unit, so that the units taken tell how many windows were (a window of
        // stale entries alone settles none).
        b.charge(settled.max(1) * Prices::SETTLE);
        s.now += STRAIGHT;
        // Each share takes in what the other handed it as its next window begins; before the
        // last (nothing else queued), or a pause, the handed cells are taken in here.
        if queued == 0 || !b.open() {
            let arrays = team.arrays.read().unwrap_or_else(|p| p.into_inner());
            for r in 0..2 {
                take_in(
                    &arrays.0,
                    &mut team.handed(1 - r, epoch),
                    &mut team.share(r),
                );
            }
            queued = team.share(0).queued + team.share(1).queued;
        }
    }
    for r in 0..2 {
        s.rings[r] = std::mem::take(&mut team.share(r).buckets);
    }
    finals();
    *distance = std::mem::take(&mut *team.plain.write().unwrap_or_else(|p| p.into_inner()));
    let w = std::mem::take(&mut team.arrays.write().unwrap_or_else(|p| p.into_inner()).1);
    *way = w.into_iter().map(AtomicU8::into_inner).collect();
    s.ways == Some(groups)
}

/// Share `s` of job `epoch`: a window, or a group of rows' ways.
fn job(terrain: &Terrain, team: &Team, s: usize, epoch: u64) {
    if team.ways.load(Relaxed) {
        ways(terrain, team, s, team.now.load(Relaxed) as usize);
    } else {
        share(terrain, team, s, epoch);
    }
}

/// The ways of share `s`'s band of rows in group `g` (two bands): each cell's first moves
/// along its shortest ways, from the distances alone: an open cell's passable moves to a
/// neighbour its distance came from (nearer by the move and what entering it cost), a closed
/// cell's moves on the grid to any neighbour nearer by the move.
fn ways(terrain: &Terrain, team: &Team, s: usize, g: usize) {
    let arrays = team.arrays.read().unwrap_or_else(|p| p.into_inner());
    let plain = team.plain.read().unwrap_or_else(|p| p.into_inner());
    let (distance, way) = (&plain[..], &arrays.1);
    let grid = &terrain.grid;
    let (w, h) = (grid.size[0] as usize, grid.size[1] as usize);
    let band = team.share(s).band;
    let step = steps(grid);
    let (links, extra) = terrain.links_extra();
    // Cell `c` at `(i, k)`, anywhere on the grid.
    let cell = |c: usize, i: usize, k: usize| {
        let (d, e) = (distance[c], extra[c]);
        let (moves, enter) = if e & CLOSED == 0 {
            (links[c], u32::from(e))
        } else {
            (inside_moves(grid, i, k), 0)
        };
        let mut bits = 0u8;
        for m in 0..8 {
            if moves >> m & 1 != 0 {
                let f = distance[c.wrapping_add_signed(step[m])];
                bits |= u8::from(came_from(f, d, move_cost(m) + enter)) << m;
            }
        }
        if d == UNREACHED { 0 } else { bits }
    };
    let first = (2 * g + s) * band;
    let mut bits: Vec<u8> = Vec::with_capacity(w);
    for k in first.min(h)..(first + band).min(h) {
        let row = k * w;
        if k == 0 || k + 1 == h || w < 3 {
            for i in 0..w {
                way[row + i].store(cell(row + i, i, k), Relaxed);
            }
            continue;
        }
        way[row].store(cell(row, 0, k), Relaxed);
        way[row + w - 1].store(cell(row + w - 1, w - 1, k), Relaxed);
        // Inside: the three rows side by side, no cell off the grid (a closed cell's moves are
        // all eight), without a branch a cell.
        let (up, mid, down) = (
            &distance[row - w..row],
            &distance[row..row + w],
            &distance[row + w..row + 2 * w],
        );
        let (l, e) = (&links[row..row + w], &extra[row..row + w]);
        // Into a row of plain bytes first: the loop has no atomics, so it runs in vectors.
        bits.clear();
        bits.resize(w - 2, 0);
        let cells = up
            .windows(3)
            .zip(mid.windows(3))
            .zip(down.windows(3))
            .zip(l[1..w - 1].iter().zip(&e[1..w - 1]));
        for (out, (((u, c), n), (&l, &e))) in bits.iter_mut().zip(cells) {
            let d = c[1];
            let closed = e & CLOSED != 0;
            let moves = if closed { 0xFF } else { l };
            let enter = if closed { 0 } else { u32::from(e) };
            // In `MOVES` order.
            let f = [c[2], n[1], c[0], u[1], n[2], n[0], u[0], u[2]];
            let mut b = 0u8;
            for (m, &f) in f.iter().enumerate() {
                b |= u8::from(came_from(f, d, move_cost(m) + enter)) << m;
            }
            *out = b & moves & if d == UNREACHED { 0 } else { 0xFF };
        }
        for (i, &b) in bits.iter().enumerate() {
            way[row + 1 + i].store(b, Relaxed);
        }
    }
}

/// Whether a cell at distance `d` has its distance from a neighbour at `f` by a move costing
/// `cost` (the move and what entering the cell costs): a first move of its shortest way.
#[inline]
fn came_from(f: u32, d: u32, cost: u32) -> bool {
    (f < d) & (f.wrapping_add(cost) == d)
}

/// Takes the cells `given` (each with a distance) into share `g`'s ring where the distance is
/// shorter, emptying it.
fn take_in(distance: &[AtomicU32], given: &mut Handed, g: &mut Share) {
    for &(c, d) in given.iter() {
        let at = &distance[c as usize];
        if d < at.load(Relaxed) {
            at.store(d, Relaxed);
            g.buckets[d as usize & g.mask].push(c);
            g.queued += 1;
        }
    }
    given.clear();
}

/// The other thread's part, after its own work: settles the second share of each window it
/// claims before the distances half does, until that half leaves. Returns at once when the
/// distances half has not begun (then that half settles alone).
pub(super) fn help(terrain: &Terrain, team: &Team) {
    if !team.started.load(Acquire) {
        return;
    }
    let _failing = Failing(team);
    let mut spins = 0;
    let mut last = 0;
    while !team.over.load(Acquire) {
        let w = team.claim.0.load(Acquire);
        if w >> 2 != last
            && w & 3 == 1
            && team
                .claim
                .0
                .compare_exchange(w, w | 2, Acquire, Relaxed)
                .is_ok()
        {
            job(terrain, team, 1, w >> 2);
            team.finished.0.store(w >> 2, Release);
            last = w >> 2;
            spins = 0;
        } else {
            pause(&mut spins);
        }
    }
}

/// Settles share `s` of window `epoch`: takes in the cells the other share handed it in the
/// last, then settles the window's cells of its ring, queuing the cells they reach in its bands
/// and handing over those in the other's.
fn share(terrain: &Terrain, team: &Team, s: usize, epoch: u64) {
    let arrays = team.arrays.read().unwrap_or_else(|p| p.into_inner());
    let distance = &arrays.0;
    let mut g = team.share(s);
    take_in(distance, &mut team.handed(1 - s, epoch - 1), &mut g);
    let Share {
        buckets,
        mask,
        band,
        queued,
        settled,
        window,
    } = &mut *g;
    let (mask, band) = (*mask, *band);
    let now = team.now.load(Relaxed);
    let mut out = team.handed(s, epoch);
    let step = steps(&terrain.grid);
    let (links, extra) = terrain.links_extra();
    let (w, end) = (terrain.grid.size[0] as usize, now + STRAIGHT);
    let rows = RowOf::new(w);
    // Cell `nb` (at `f` when looked at) reached at `nd`, in this share's bands or, `other`,
    // not: queued here when `nd` is shorter. A cell of the other share's is handed over unless
    // its distance is final (below the window's end): the other may be lowering it as this one
    // looks, but never below the end, so what is handed over does not depend on when it looked.
    let mut reach =
        |nb: usize, nd: u32, f: u32, other: bool, buckets: &mut [Vec<u32>], queued: &mut usize| {
            if !other {
                if nd < f {
                    distance[nb].store(nd, Relaxed);
                    buckets[nd as usize & mask].push(nb as u32);
                    *queued += 1;
                }
            } else if f >= end {
                out.push((nb as u32, nd));
            }
        };
    *settled = 0;
    for d in now..end {
        let cells = &mut buckets[d as usize & mask];
        *queued -= cells.len();
        window.extend(cells.iter().map(|&c| (c, d)));
        cells.clear();
    }
    // (The window's entries taken out first: settling them queues into the same ring.)
    for &(c, d) in window.iter() {
        let c = c as usize;
        // Queued again at a shorter distance since.
        if distance[c].load(Relaxed) != d {
            continue;
        }
        *settled += 1;
        // The moves into the other share's bands: from a band's first or last row.
        let k = rows.row(c);
        let other = if k & (band - 1) == 0 { UP } else { 0 }
            | if k & (band - 1) == band - 1 { DOWN } else { 0 };
        let (l, e) = (links[c], extra[c]);
        let open = e & CLOSED == 0;
        if l == 0xFF && other == 0 {
            // Every move passable, none into the other share's bands (most cells): the
            // three rows side by side.
            let (u, r, n) = (
                &distance[c - w - 1..c - w + 2],
                &distance[c - 1..c + 2],
                &distance[c + w - 1..c + w + 2],
            );
            let (eu, er, en) = (
                &extra[c - w - 1..c - w + 2],
                &extra[c - 1..c + 2],
                &extra[c + w - 1..c + w + 2],
            );
            // In `MOVES` order.
            let at = [
                (&r[2], er[2], c + 1),
                (&n[1], en[1], c + w),
                (&r[0], er[0], c - 1),
                (&u[1], eu[1], c - w),
                (&n[2], en[2], c + w + 1),
                (&n[0], en[0], c + w - 1),
                (&u[0], eu[0], c - w - 1),
                (&u[2], eu[2], c - w + 1),
            ];
            for (m, &(f, e, nb)) in at.iter().enumerate() {
                let nd = d + move_cost(m) + u32::from(e);
                if nd < f.load(Relaxed) {
                    f.store(nd, Relaxed);
                    buckets[nd as usize & mask].push(nb as u32);
                    *queued += 1;
                }
            }
            continue;
        }
        if open {
            for (m, &step) in step.iter().enumerate() {
                // A move that is not passable looks at the cell itself: never nearer,
                // never bettered.
                let nb = if l >> m & 1 != 0 {
                    c.wrapping_add_signed(step)
                } else {
                    c
                };
                let f = distance[nb].load(Relaxed);
                let nd = d + move_cost(m) + u32::from(extra[nb]);
                if nd < f || other >> m & 1 != 0 {
                    reach(nb, nd, f, other >> m & 1 != 0, buckets, queued);
                }
            }
        }
        // The closed cells beside: an open cell's unjoined neighbours, a closed cell's all
        // (on the grid). (The fast way above has none: a closed cell is joined to nothing.)
        if !open || l != 0xFF {
            let inside = inside_moves(&terrain.grid, c - k * w, k);
            for (m, &step) in step.iter().enumerate() {
                if inside >> m & 1 == 0 || (open && l >> m & 1 != 0) {
                    continue;
                }
                let nb = c.wrapping_add_signed(step);
                if extra[nb] & CLOSED != 0 {
                    let f = distance[nb].load(Relaxed);
                    reach(
                        nb,
                        d + move_cost(m),
                        f,
                        other >> m & 1 != 0,
                        buckets,
                        queued,
                    );
                }
            }
        }
    }
    window.clear();
}
