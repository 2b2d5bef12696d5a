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
use super::{Scenery, World};
use crate::error::{Error, invalid};
use boids_core::flow::{FlowError, FlowField, FlowGrid, Terrain, survey_row};
use boids_core::{FlockParams, Placed, Vec3};
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
struct Held<T> {
    key: TerrainKey,
    /// The target's cell (fields only).
    cell: (u32, u32),
    value: Arc<T>,
    used: bool,
}

/// The world's flow fields and the terrains under them.
#[derive(Default)]
pub(crate) struct Flows {
    /// The cell size (0: no fields; grounded flocks seek in a straight line).
    pub(crate) cell: f32,
    terrains: Vec<Held<Terrain>>,
    fields: Vec<Held<FlowField>>,
}

/// The grid over the xz extent of `ground`, `cell` wide (`None`: no ground).
pub(crate) fn grid_over(ground: &[Placed], cell: f32) -> Option<Result<FlowGrid, FlowError>> {
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for o in ground {
        if let Placed::Mesh { place, .. } = o {
            let b = &place.bounds;
            lo = [lo[0].min(b.lo.x), lo[1].min(b.lo.z)];
            hi = [hi[0].max(b.hi.x), hi[1].max(b.hi.z)];
        }
    }
    (lo[0] <= hi[0]).then(|| FlowGrid::over(lo, hi, cell))
}

impl Flows {
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

    /// Marks every field and terrain unused (before a step).
    pub(crate) fn start_step(&mut self) {
        for t in &mut self.terrains {
            t.used = false;
        }
        for f in &mut self.fields {
            f.used = false;
        }
    }

    /// Keeps only the fields and terrains a step used.
    pub(crate) fn end_step(&mut self) {
        self.terrains.retain(|t| t.used);
        self.fields.retain(|f| f.used);
    }

    /// The field a grounded flock with `params` and its target at `target` reads in the scene
    /// `scene`, marked used; built now (on `exec`) if the world has none and `build`: `None`
    /// when fields are off, the flock is not grounded, or there is no ground (or its grid is
    /// over the cap).
    pub(crate) fn field_for(
        &mut self,
        scene: &Scenery,
        params: &FlockParams,
        target: Vec3,
        build: bool,
        exec: &dyn Exec,
    ) -> Option<Arc<FlowField>> {
        let (key, grid, cell) = self.key(scene, params, target)?;
        if let Some(f) = self
            .fields
            .iter_mut()
            .find(|f| f.key.same(&key) && f.cell == cell)
        {
            f.used = true;
            let field = Arc::clone(&f.value);
            // Its terrain is kept too, for the next target.
            for t in self.terrains.iter_mut().filter(|t| t.key.same(&key)) {
                t.used = true;
            }
            return Some(field);
        }
        if !build {
            return None;
        }
        let terrain = match self.terrains.iter_mut().find(|t| t.key.same(&key)) {
            Some(t) => {
                t.used = true;
                Arc::clone(&t.value)
            }
            None => {
                let t = Arc::new(survey(grid, params, &scene.ground, &scene.solids, exec));
                self.terrains.push(Held {
                    key: key.clone(),
                    cell,
                    value: Arc::clone(&t),
                    used: true,
                });
                t
            }
        };
        let field = Arc::new(build_field(&terrain, target, exec));
        debug_assert_eq!(field.target, cell);
        self.fields.push(Held {
            key,
            cell,
            value: Arc::clone(&field),
            used: true,
        });
        Some(field)
    }

    /// The field a flock read in the last step, if the world still holds one for its
    /// settings and target cell.
    fn held(&self, scene: &Scenery, params: &FlockParams, target: Vec3) -> Option<&FlowField> {
        let (key, _, cell) = self.key(scene, params, target)?;
        self.fields
            .iter()
            .find(|f| f.key.same(&key) && f.cell == cell)
            .map(|f| &*f.value)
    }
}

/// The field to `target` over `terrain`, its two halves (the distances and ways; the clear
/// sight) side by side on `exec`.
fn build_field(terrain: &Terrain, target: Vec3, exec: &dyn Exec) -> FlowField {
    FlowField::build_with(terrain, target, &|a, b| {
        let (a, b) = (
            std::sync::Mutex::new(Some(a)),
            std::sync::Mutex::new(Some(b)),
        );
        exec.for_ranges(2, 1, &|r| {
            for h in r {
                // Each half is taken once (a poisoned lock: its half panicked, the step is lost).
                if h == 0 {
                    if let Some(f) = a.lock().unwrap_or_else(|p| p.into_inner()).take() {
                        f();
                    }
                } else if let Some(f) = b.lock().unwrap_or_else(|p| p.into_inner()).take() {
                    f();
                }
            }
        });
    })
}

/// The terrain of `grid` for a flock with `params`, its rows surveyed on `exec`.
fn survey(
    grid: FlowGrid,
    params: &FlockParams,
    ground: &[Placed],
    solids: &[Placed],
    exec: &dyn Exec,
) -> Terrain {
    let g = params.ground.expect("a grounded flock");
    let w = grid.size[0] as usize;
    let mut height = vec![0.0f32; grid.cells()];
    // Runs of rows of about 16k cells.
    let rows = (16_384 / w).max(1);
    boids_index::exec::chunks_mut(exec, &mut height, rows * w, &|start, run| {
        for (r, row) in run.chunks_mut(w).enumerate() {
            let k = (start / w + r) as u32;
            survey_row(&grid, k, &g, params.body_radius, ground, solids, row);
        }
    });
    Terrain::new_with(grid, height, g.step_height, g.max_slope_deg, &|f, links| {
        boids_index::exec::chunks_mut(exec, links, rows * w, &|start, run| f(start / w, run));
    })
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
            && let Some(Err(e)) = grid_over(&self.live.ground, cell)
        {
            return Err(invalid(e.to_string()));
        }
        self.flows = Flows {
            cell,
            ..Flows::default()
        };
        Ok(())
    }

    /// The width of the cells of the world's flow fields (0: none).
    pub fn flow_cell_size(&self) -> f32 {
        self.flows.cell
    }

    /// The flow field flock `id` read in the last step (for debugging and drawing): `None`
    /// when it read none (no cell size, not grounded, no target, no ground) or a step is in
    /// flight.
    pub fn flow_field(&self, id: FlockId) -> Option<&FlowField> {
        if self.in_flight.is_some() {
            return None;
        }
        let f = self.flocks.get(id)?;
        self.flows.held(&self.live, &f.params, f.target?)
    }
}
