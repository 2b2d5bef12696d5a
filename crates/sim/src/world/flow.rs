//! Flow fields of grounded flocks with targets ([`boids_core::flow`]), kept by the world.
//!
//! A field is derived, never state: it is a function of the scene, the flock's ground settings
//! and body radius, the world's flow cell size and the cell its target is in. A step's job
//! builds the fields its moving flocks need that the world does not hold yet (the terrain's
//! survey on the workers, row by row), flocks with the same terrain and target cell share one,
//! and after the step the world keeps only those a flock used. So a field is the same bits
//! whoever built it, and a loaded world builds, at its first step, the fields the saved one
//! held: nothing to save, and the state hash does not include them.

use super::FlockId;
use super::{Scenery, World, lock};
use crate::error::{Error, invalid};
use boids_core::flow::{FieldBuild, FlowError, FlowField, FlowGrid, Terrain, TerrainBuild};
use boids_core::fmath::Order;
use boids_core::{FlockParams, Ground, Placed, Vec3};
use boids_index::Exec;
use std::sync::Arc;

/// What a terrain depends on: the scene's lists (the same allocation: any change of an
/// obstacle makes new lists), the cell size, and the flock's ground settings and body radius.
#[derive(Clone)]
struct TerrainKey {
    ground: Arc<[Placed]>,
    solids: Arc<[Placed]>,
    /// The bits of the cell size, max slope, step height, pivot height and body radius.
    numbers: [u32; 5],
}

impl TerrainKey {
    fn same(&self, o: &TerrainKey) -> bool {
        Arc::ptr_eq(&self.ground, &o.ground)
            && Arc::ptr_eq(&self.solids, &o.solids)
            && self.numbers == o.numbers
    }
}

/// A terrain or a field the world holds, and whether a flock used it in the last step.
#[derive(Clone)]
struct Held<T> {
    key: TerrainKey,
    /// The target's cell (fields only).
    cell: (u32, u32),
    value: Arc<T>,
    used: bool,
}

/// A field being built a budget at a time ([`Flows::budget`]), for the flocks waiting on it.
struct Building {
    key: TerrainKey,
    cell: (u32, u32),
    terrain: Arc<Terrain>,
    build: FieldBuild,
    used: bool,
}

impl Building {
    /// The build to `cell` over `terrain` that has taken `taken` units (each half's): made
    /// again, for a loaded world or after a failed step.
    fn resumed(key: TerrainKey, cell: (u32, u32), terrain: Arc<Terrain>, taken: [u64; 2]) -> Self {
        let (x, z) = terrain.grid.centre(cell.0, cell.1);
        let build = FieldBuild::resume(&terrain, Vec3::new(x, 0.0, z), taken);
        Building {
            key,
            cell,
            terrain,
            build,
            used: true,
        }
    }
}

/// A terrain being surveyed a budget at a time ([`Flows::budget`]), for the fields waiting on
/// it (they start once it is whole).
struct Surveying {
    key: TerrainKey,
    build: TerrainBuild,
    used: bool,
}

impl Surveying {
    /// The survey of `key`'s terrain over `grid` for a flock with ground settings `ground` and
    /// body radius `radius` that has taken `taken` units: made again, for a loaded world or
    /// after a failed step.
    fn resumed(key: TerrainKey, grid: FlowGrid, ground: Ground, radius: f32, taken: u64) -> Self {
        let build = TerrainBuild::resume(grid, ground, radius, &key.ground, &key.solids, taken);
        Surveying {
            key,
            build,
            used: true,
        }
    }
}

/// What one flock with a target reads, and what it waits for.
#[derive(Clone)]
struct Reader {
    id: FlockId,
    /// The last whole field it read (with its terrain's key): what it reads while the field to
    /// its target is being built.
    reading: Option<(TerrainKey, Arc<FlowField>)>,
    /// The field being built that it waits for: its terrain's key and target cell.
    waiting: Option<(TerrainKey, (u32, u32))>,
    seen: bool,
}

/// What a flock asks of the fields in a step: its id, parameters, target, and whether it
/// moves this step.
pub(crate) struct Want<'a> {
    pub(crate) id: FlockId,
    pub(crate) params: &'a FlockParams,
    pub(crate) target: Option<Vec3>,
    pub(crate) moving: bool,
}

/// The world's flow fields and the terrains under them.
#[derive(Default)]
pub(crate) struct Flows {
    /// The cell size (0: no fields; grounded flocks seek in a straight line).
    pub(crate) cell: f32,
    /// The work a step may spend building fields, in units ([`boids_core::flow::Prices`]);
    /// 0: no limit (a field is built whole in the step that first needs it).
    pub(crate) budget: u64,
    terrains: Vec<Held<Terrain>>,
    fields: Vec<Held<FlowField>>,
    /// With a budget: the terrains being surveyed, then the fields being built, each in the
    /// order they were started (the order they take the budget).
    surveys: Vec<Surveying>,
    builds: Vec<Building>,
    readers: Vec<Reader>,
}

/// The grid over the xz extent of `ground`, `cell` wide (`None`: no ground).
pub(crate) fn grid_over(ground: &[Placed], cell: f32) -> Option<Result<FlowGrid, FlowError>> {
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for o in ground {
        if let Placed::Mesh { place, .. } = o {
            let b = &place.bounds;
            lo = [lo[0].at_most(b.lo.x), lo[1].at_most(b.lo.z)];
            hi = [hi[0].at_least(b.hi.x), hi[1].at_least(b.hi.z)];
        }
    }
    (lo[0] <= hi[0]).then(|| FlowGrid::over(lo, hi, cell))
}

impl Flows {
    /// The cell size and budget alone.
    pub(crate) fn settings(&self) -> Flows {
        Flows {
            cell: self.cell,
            budget: self.budget,
            ..Flows::default()
        }
    }

    /// What the field of a flock with `params` and its target at `target` in `scene` depends
    /// on: its terrain's key, its grid and its target's cell (`None`: no field).
    fn key(
        &self,
        scene: &Scenery,
        params: &FlockParams,
        target: Vec3,
    ) -> Option<(TerrainKey, FlowGrid, (u32, u32))> {
        let g = params.ground?;
        if self.cell <= 0.0 {
            return None;
        }
        let grid = grid_over(&scene.ground, self.cell)?.ok()?;
        let key = TerrainKey {
            ground: Arc::clone(&scene.ground),
            solids: Arc::clone(&scene.solids),
            numbers: [
                self.cell,
                g.max_slope_deg,
                g.step_height,
                g.pivot_height,
                params.body_radius,
            ]
            .map(f32::to_bits),
        };
        Some((key, grid, grid.clamped_cell(target.x, target.z)))
    }

    /// The whole field over `key`'s terrain to `cell`, if the world holds one (a flock read
    /// it in the last step, or it was finished in this one), marked used.
    fn whole(&mut self, key: &TerrainKey, cell: (u32, u32)) -> Option<Arc<FlowField>> {
        if let Some(f) = self
            .fields
            .iter_mut()
            .find(|f| f.key.same(key) && f.cell == cell)
        {
            f.used = true;
            return Some(Arc::clone(&f.value));
        }
        let f = self.readers.iter().find_map(|r| {
            r.reading
                .as_ref()
                .filter(|(k, f)| k.same(key) && f.target == cell)
                .map(|(_, f)| Arc::clone(f))
        })?;
        self.fields.push(Held {
            key: key.clone(),
            cell,
            value: Arc::clone(&f),
            used: true,
        });
        Some(f)
    }

    /// The terrain of `key` the world holds, if any, marked used.
    fn held_terrain(&mut self, key: &TerrainKey) -> Option<Arc<Terrain>> {
        let t = self.terrains.iter_mut().find(|t| t.key.same(key))?;
        t.used = true;
        Some(Arc::clone(&t.value))
    }

    /// The terrain of `key` (over `grid`) for a flock with `params`, marked used: surveyed now,
    /// whole, rows on `exec`, if the world holds none (with no budget, or loading a save).
    fn terrain(
        &mut self,
        key: &TerrainKey,
        grid: FlowGrid,
        params: &FlockParams,
        exec: &dyn Exec,
    ) -> Arc<Terrain> {
        if let Some(t) = self.held_terrain(key) {
            return t;
        }
        let t = Arc::new(survey(grid, params, &key.ground, &key.solids, exec));
        self.terrains.push(Held {
            key: key.clone(),
            cell: (0, 0),
            value: Arc::clone(&t),
            used: true,
        });
        t
    }

    fn reader(&mut self, id: FlockId) -> &mut Reader {
        let at = match self.readers.iter().position(|r| r.id == id) {
            Some(at) => at,
            None => {
                self.readers.push(Reader {
                    id,
                    reading: None,
                    waiting: None,
                    seen: false,
                });
                self.readers.len() - 1
            }
        };
        &mut self.readers[at]
    }

    /// The fields the flocks `wants` read in this step (one each, in order: `None` for a flock
    /// that reads none), in the scene `scene`, building on `exec`:
    ///
    /// - a flock reads the field to its target's cell when the world holds it whole;
    /// - else, moving, it waits for it: with no budget it is built now, whole; with one, the
    ///   fields being built take the budget's units, in the order they were started, and one
    ///   finished in this step is read in this step;
    /// - while it waits, it reads the last whole field it read (to its target's earlier
    ///   cell, or over the scene before it changed), or none (it seeks in a straight line);
    /// - a flock keeps waiting for the field it waits for when its target moves on (so every
    ///   field is finished, however fast the target moves), and waits for the next one after;
    ///   a change of the scene starts the wait over.
    pub(crate) fn fields_for(
        &mut self,
        scene: &Scenery,
        wants: &[Want<'_>],
        exec: &dyn Exec,
    ) -> Vec<Option<Arc<FlowField>>> {
        for t in &mut self.terrains {
            t.used = false;
        }
        for f in &mut self.fields {
            f.used = false;
        }
        for b in &mut self.builds {
            b.used = false;
        }
        for r in &mut self.readers {
            r.seen = false;
        }
        let keys: Vec<_> = wants
            .iter()
            .map(|w| {
                let t = w.target?;
                self.key(scene, w.params, t).map(|k| (k, t))
            })
            .collect();
        for (w, key) in wants.iter().zip(&keys) {
            let Some(((key, grid, cell), target)) = key else {
                continue;
            };
            self.reader(w.id).seen = true;
            if let Some(f) = self.whole(key, *cell) {
                // Its terrain is kept too, for the target's next cell.
                for t in self.terrains.iter_mut().filter(|t| t.key.same(key)) {
                    t.used = true;
                }
                let r = self.reader(w.id);
                r.reading = Some((key.clone(), f));
                if r.waiting
                    .as_ref()
                    .is_some_and(|(k, c)| k.same(key) && c == cell)
                {
                    r.waiting = None;
                }
                continue;
            }
            if !w.moving {
                continue;
            }
            if self.budget == 0 {
                let terrain = self.terrain(key, *grid, w.params, exec);
                let field = Arc::new(
                    build_field(&terrain, *target, u64::MAX, exec)
                        .0
                        .finish()
                        .expect("whole"),
                );
                self.fields.push(Held {
                    key: key.clone(),
                    cell: *cell,
                    value: Arc::clone(&field),
                    used: true,
                });
                let r = self.reader(w.id);
                r.reading = Some((key.clone(), field));
                r.waiting = None;
                continue;
            }
            // (Kept while fields are built over it, for the target's next cell.)
            let held = self.held_terrain(key);
            let r = self.reader(w.id);
            // A changed scene (or flock settings) starts the wait over.
            if r.waiting.as_ref().is_some_and(|(k, _)| !k.same(key)) {
                r.waiting = None;
            }
            let (wk, wc) = r
                .waiting
                .get_or_insert_with(|| (key.clone(), *cell))
                .clone();
            if let Some(b) = self
                .builds
                .iter_mut()
                .find(|b| b.key.same(&wk) && b.cell == wc)
            {
                b.used = true;
            } else if let Some(terrain) = held {
                let target = if wc == *cell {
                    *target
                } else {
                    let (x, z) = grid.centre(wc.0, wc.1);
                    Vec3::new(x, 0.0, z)
                };
                self.builds.push(Building {
                    key: wk,
                    cell: wc,
                    build: FieldBuild::new(&terrain, target),
                    terrain,
                    used: true,
                });
            } else if let Some(s) = self.surveys.iter_mut().find(|s| s.key.same(&wk)) {
                // The terrain is being surveyed: the field starts once it is whole.
                s.used = true;
            } else {
                let ground = w.params.ground.expect("a grounded flock");
                self.surveys.push(Surveying {
                    build: TerrainBuild::new(*grid, ground, w.params.body_radius),
                    key: wk,
                    used: true,
                });
            }
        }
        // The surveys, then the builds, take the budget, each in the order they were started
        // (a terrain surveyed in this step has its fields started in the next).
        let mut left = self.budget;
        let mut surveyed = Vec::new();
        for (at, s) in self.surveys.iter_mut().enumerate().filter(|(_, s)| s.used) {
            if left == 0 {
                break;
            }
            let before = s.build.taken();
            let done = survey_on(&mut s.build, &s.key.ground, &s.key.solids, left, exec);
            left = left.saturating_sub(s.build.taken() - before);
            if done {
                surveyed.push(at);
            }
        }
        for at in surveyed.into_iter().rev() {
            let s = self.surveys.remove(at);
            self.terrains.push(Held {
                key: s.key,
                cell: (0, 0),
                value: Arc::new(s.build.finish().expect("a finished survey")),
                used: true,
            });
        }
        let mut finished = Vec::new();
        for (at, b) in self.builds.iter_mut().enumerate().filter(|(_, b)| b.used) {
            if left == 0 {
                break;
            }
            let before = b.build.taken();
            let (build, done) = build_field_on(
                &b.terrain,
                std::mem::replace(&mut b.build, FieldBuild::new(&b.terrain, Vec3::ZERO)),
                left,
                exec,
            );
            let after = build.taken();
            b.build = build;
            let spent = (after[0] - before[0]).max(after[1] - before[1]);
            left = left.saturating_sub(spent);
            if done {
                finished.push(at);
            }
        }
        for at in finished.into_iter().rev() {
            let b = self.builds.remove(at);
            let field = Arc::new(b.build.finish().expect("a finished build"));
            for r in &mut self.readers {
                if r.waiting
                    .as_ref()
                    .is_some_and(|(k, c)| k.same(&b.key) && *c == b.cell)
                {
                    r.reading = Some((b.key.clone(), Arc::clone(&field)));
                    r.waiting = None;
                }
            }
            self.fields.push(Held {
                key: b.key,
                cell: b.cell,
                value: field,
                used: true,
            });
        }
        wants
            .iter()
            .zip(&keys)
            .map(|(w, key)| {
                let ((key, _, cell), _) = key.as_ref()?;
                if let Some(f) = self
                    .fields
                    .iter()
                    .find(|f| f.key.same(key) && f.cell == *cell)
                {
                    return Some(Arc::clone(&f.value));
                }
                let r = self.readers.iter().find(|r| r.id == w.id)?;
                r.reading.as_ref().map(|(_, f)| Arc::clone(f))
            })
            .collect()
    }

    /// Keeps only what the step used: the terrains and fields its flocks read or built on,
    /// the builds they wait for, and the flocks with targets.
    pub(crate) fn end_step(&mut self) {
        self.readers.retain(|r| r.seen);
        let readers = &self.readers;
        self.fields.retain(|f| {
            f.used
                || readers.iter().any(|r| {
                    r.reading
                        .as_ref()
                        .is_some_and(|(_, v)| Arc::ptr_eq(v, &f.value))
                })
        });
        self.surveys.retain(|s| s.used);
        self.builds.retain(|b| b.used);
        self.terrains.retain(|t| t.used);
    }

    /// The field flock `id` read in the last step, if any.
    fn held(&self, id: FlockId) -> Option<&FlowField> {
        let r = self.readers.iter().find(|r| r.id == id)?;
        r.reading.as_ref().map(|(_, f)| &**f)
    }
}

/// One arrow of a flow field's debug overlay ([`World::flow_arrows`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowArrow {
    /// Where it starts, over the ground.
    pub tail: Vec3,
    /// Where it points to: `tail` plus the way's direction at its cell times its length.
    pub tip: Vec3,
    /// Its cell's distance to the target over the farthest reached cell's: 0 at the target,
    /// 1 the farthest (for colouring it).
    pub far: f32,
}

/// Builds on `build` over `terrain` by at most `budget` units a half, its two halves (the
/// distances and ways; the clear sight) side by side on `exec`: it, and whether it is whole.
fn build_field_on(
    terrain: &Terrain,
    mut build: FieldBuild,
    budget: u64,
    exec: &dyn Exec,
) -> (FieldBuild, bool) {
    let done = build.advance(terrain, budget, &|a, b| {
        let (a, b) = (
            std::sync::Mutex::new(Some(a)),
            std::sync::Mutex::new(Some(b)),
        );
        exec.for_ranges(2, 1, &|r| {
            for h in r {
                // Each half is taken once (a poisoned lock: its half panicked, the step is lost).
                if h == 0 {
                    if let Some(f) = lock(&a).take() {
                        f();
                    }
                } else if let Some(f) = lock(&b).take() {
                    f();
                }
            }
        });
    });
    (build, done)
}

/// The field to `target` over `terrain`, built by at most `budget` units a half.
fn build_field(
    terrain: &Terrain,
    target: Vec3,
    budget: u64,
    exec: &dyn Exec,
) -> (FieldBuild, bool) {
    build_field_on(terrain, FieldBuild::new(terrain, target), budget, exec)
}

/// The terrain of `grid` for a flock with `params`, its rows surveyed and joined on `exec`.
fn survey(
    grid: FlowGrid,
    params: &FlockParams,
    ground: &[Placed],
    solids: &[Placed],
    exec: &dyn Exec,
) -> Terrain {
    let g = params.ground.expect("a grounded flock");
    let mut b = TerrainBuild::new(grid, g, params.body_radius);
    survey_on(&mut b, ground, solids, u64::MAX, exec);
    b.finish()
        .expect("an unlimited budget finishes the terrain")
}

/// Builds on the survey `b` (over `ground` among `solids`) by at most `budget` units, its rows
/// on `exec`: whether the terrain is whole.
fn survey_on(
    b: &mut TerrainBuild,
    ground: &[Placed],
    solids: &[Placed],
    budget: u64,
    exec: &dyn Exec,
) -> bool {
    let w = b.grid().size[0] as usize;
    // Runs of rows of about 16k cells.
    let rows = (16_384 / w).max(1);
    b.advance(
        ground,
        solids,
        budget,
        &|f, run| boids_index::exec::chunks_mut(exec, run, rows * w, &|start, r| f(start / w, r)),
        &|f, run| boids_index::exec::chunks_mut(exec, run, rows * w, &|start, r| f(start / w, r)),
    )
}

impl World {
    /// Sets the width of the cells of the world's flow fields (0: none, the default). With a
    /// cell size, a grounded flock with a target seeks it along a flow field over the ground
    /// (`boids_core::flow`): around walls, cliffs and obstacles, straight once in clear sight.
    /// Refused when the grid over the current ground would have more than
    /// [`boids_core::flow::MAX_FLOW_CELLS`] cells, or the size is not finite and ≥ 0.
    pub fn set_flow_cell_size(&mut self, cell: f32) -> Result<(), Error> {
        self.idle()?;
        if !(cell.is_finite() && cell >= 0.0) {
            return Err(invalid(format!(
                "flow cell size must be finite and >= 0 (0: no flow fields), got {cell}"
            )));
        }
        if cell > 0.0
            && let Some(Err(e)) = grid_over(&self.live().ground, cell)
        {
            return Err(invalid(e.to_string()));
        }
        if cell.to_bits() == self.flows.cell.to_bits() {
            // The same cells: the fields held and being built stay.
            return Ok(());
        }
        self.flows = Flows {
            cell,
            budget: self.flows.budget,
            ..Flows::default()
        };
        Ok(())
    }

    /// The width of the cells of the world's flow fields (0: none).
    pub fn flow_cell_size(&self) -> f32 {
        self.flows.cell
    }

    /// Sets how much work a step may spend building flow fields, in units of about the time
    /// Dijkstra takes to settle one cell on one thread ([`boids_core::flow::Prices`]: about 17 ns
    /// on one thread of an AMD EPYC Zen 4; each of a field's two halves takes at most the
    /// budget, side by side on two threads, the distances' at most one window of distances more:
    /// the cells of one front). 0, the default: no limit, a field is built whole in the step
    /// that first needs it.
    ///
    /// With a budget, a field to a target's new cell is built over as many steps as it takes
    /// (a step always takes at least one item: a row, a ring of cells, a window of distances),
    /// and meanwhile the flock reads the last whole field it read (to the target's earlier
    /// cell), or seeks in a straight line if it has read none. A flock whose target moves on
    /// keeps waiting for the field it waits for, so a field is always finished however fast a
    /// target moves; it then waits for the one to the target's cell. The terrain's survey
    /// (when fields are first built, and after the scene or a flock's ground settings change)
    /// is built a budget at a time too (about 10 units a cell), before the fields over it. The
    /// steps are counted in units, never in time: the same bits on every machine and thread
    /// count.
    pub fn set_flow_budget(&mut self, units: u32) -> Result<(), Error> {
        self.idle()?;
        self.flows.budget = u64::from(units);
        Ok(())
    }

    /// The work a step may spend building flow fields (0: no limit).
    pub fn flow_budget(&self) -> u32 {
        // Set from a u32, or loaded (checked then).
        self.flows.budget.min(u64::from(u32::MAX)) as u32
    }

    /// The flow field flock `id` read in the last step (for debugging and drawing): `None`
    /// when it read none (no cell size, not grounded, no target, no ground) or a step is in
    /// flight.
    pub fn flow_field(&self, id: FlockId) -> Option<&FlowField> {
        if self.in_flight {
            return None;
        }
        self.flocks.get(id)?;
        self.flows.held(id)
    }

    /// The arrows that draw the flow field flock `id` read in the last step ([`World::flow_field`])
    /// as a debug overlay, into `out` (cleared first; it allocates only to grow): at most
    /// `per_side` along each side of the grid (a larger grid gets one every `stride` cells,
    /// `stride` = ⌈the grid's longer side / `per_side`⌉, at the cells `stride / 2`,
    /// `stride / 2 + stride`, … along x and z), each through its cell's centre along the way
    /// there, `0.8 × stride` cells long, lifted a fifth of a cell over the ground
    /// ([`World::ground_height`]). Cells where the way ends (the target's), where none leads,
    /// or with no ground under their centre get none. Returns the stride; 0 (and no arrows)
    /// when the flock read no field, or a step is in flight.
    pub fn flow_arrows(&self, id: FlockId, per_side: u32, out: &mut Vec<FlowArrow>) -> u32 {
        out.clear();
        let Some(f) = self.flow_field(id) else {
            return 0;
        };
        let g = f.grid;
        let stride = g.size[0].max(g.size[1]).div_ceil(per_side.max(1));
        let far = (0..g.cells())
            .filter_map(|c| f.distance_at(c))
            .fold(0.0f32, f32::at_least);
        let (half, lift) = (0.4 * g.cell * stride as f32, 0.2 * g.cell);
        for k in (stride / 2..g.size[1]).step_by(stride as usize) {
            for i in (stride / 2..g.size[0]).step_by(stride as usize) {
                let c = g.index(i, k);
                let (Some(d), Some(v)) = (f.distance_at(c), f.direction(c)) else {
                    continue;
                };
                let (x, z) = g.centre(i, k);
                let Ok(Some(y)) = self.ground_height(x, z) else {
                    continue;
                };
                let mid = Vec3::new(x, y + lift, z);
                out.push(FlowArrow {
                    tail: mid - v * half,
                    tip: mid + v * half,
                    far: if far > 0.0 { d / far } else { 0.0 },
                });
            }
        }
        stride
    }

    /// The height of the highest ground surface at `(x, z)`: of the obstacles placed as
    /// ground (the meshes and heightfields grounded flocks walk on), as a flow field's terrain
    /// surveys it. `Ok(None)` where no ground lies under the point. For placing things on the
    /// ground (a target, a flow field's overlay); allowed while a step is in flight (obstacles
    /// cannot change then).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `x` or `z` is not finite or beyond
    /// [`boids_core::MAX_MAGNITUDE`].
    pub fn ground_height(&self, x: f32, z: f32) -> Result<Option<f32>, Error> {
        boids_core::limits::point(Vec3::new(x, 0.0, z))
            .map_err(|e| invalid(format!("ground height: (x, 0, z) {e}")))?;
        let m = boids_core::MAX_MAGNITUDE;
        Ok(boids_core::ground::ground_below(&self.live().ground, x, z, m, -m).map(|s| s.height))
    }
}

#[cfg(feature = "save")]
pub(crate) use mark::FlowsMark;
pub(crate) use saved::SavedFlows;

#[cfg(feature = "save")]
mod mark;
mod saved;
