//! A [`Terrain`] built a budget of work at a time ([`super::build`]'s units and rules): the
//! ground surveyed row by row, the neighbours joined, the clearance measured.

use super::build::{Budget, Prices, row_price};
use super::terrain::{Rows, climbs, link_row, survey_row};
use super::{FlowGrid, Terrain};
use crate::Ground;
use crate::obstacle::Placed;

/// Where a terrain being built stands.
#[derive(Clone, Debug)]
enum Stage {
    /// Surveying the ground: rows done.
    Survey(usize),
    /// Joining neighbours: rows done.
    Link(usize),
    /// The clearance's forward pass, then its backward pass: rows done.
    Forward(usize),
    Backward(usize),
    Done,
}

/// A [`Terrain`] being built, a budget at a time ([`TerrainBuild::advance`]): the ground
/// surveyed row by row, the neighbours joined, the clearance measured.
#[derive(Clone, Debug)]
pub struct TerrainBuild {
    grid: FlowGrid,
    ground: Ground,
    body_radius: f32,
    height: Vec<f32>,
    links: Vec<u8>,
    /// Each cell's Chebyshev distance to a closed cell, capped (the clearance's passes).
    near: Vec<u32>,
    stage: Stage,
    taken: u64,
}

/// Runs its first argument on runs of whole rows of its second (the first row's number in the
/// run handed over, the run), each row once, in any order and on any threads: the same bits.
pub type HeightRows<'a> = dyn Fn(&(dyn Fn(usize, &mut [f32]) + Sync), &mut [f32]) + 'a;

impl TerrainBuild {
    /// The build of the terrain of `grid` for a flock with ground settings `g` and bodies of
    /// radius `body_radius` (nothing done yet).
    pub fn new(grid: FlowGrid, g: Ground, body_radius: f32) -> TerrainBuild {
        TerrainBuild {
            grid,
            ground: g,
            body_radius,
            height: vec![0.0; grid.cells()],
            links: Vec::new(),
            near: Vec::new(),
            stage: Stage::Survey(0),
            taken: 0,
        }
    }

    /// The build of the terrain of `grid` with its cells' heights already surveyed (NaN:
    /// closed), for a flock climbing at most `step` a move plus `max_slope_deg`'s rise.
    ///
    /// # Panics
    /// If `height` does not hold one value a cell.
    pub fn with_heights(
        grid: FlowGrid,
        height: Vec<f32>,
        step: f32,
        max_slope_deg: f32,
    ) -> TerrainBuild {
        assert_eq!(height.len(), grid.cells(), "one height a cell");
        TerrainBuild {
            grid,
            ground: Ground {
                step_height: step,
                max_slope_deg,
                ..Ground::default()
            },
            body_radius: 0.0,
            height,
            links: Vec::new(),
            near: Vec::new(),
            stage: Stage::Link(0),
            taken: 0,
        }
    }

    /// The grid it is built over.
    pub fn grid(&self) -> FlowGrid {
        self.grid
    }

    /// The ground settings and body radius it surveys for.
    pub fn settings(&self) -> (Ground, f32) {
        (self.ground, self.body_radius)
    }

    /// Units taken so far.
    pub fn taken(&self) -> u64 {
        self.taken
    }

    /// Whether the terrain is whole.
    pub fn done(&self) -> bool {
        matches!(self.stage, Stage::Done)
    }

    /// The build that has taken `taken` units over `ground` and `solids`: where a build that
    /// took them a budget at a time stands.
    pub fn resume(
        grid: FlowGrid,
        g: Ground,
        body_radius: f32,
        ground: &[Placed],
        solids: &[Placed],
        taken: u64,
    ) -> TerrainBuild {
        let mut t = TerrainBuild::new(grid, g, body_radius);
        t.run(
            ground,
            solids,
            &mut Budget::exact(taken),
            &|f, run| f(0, run),
            &|f, run| f(0, run),
        );
        t
    }

    /// Builds on, taking at most `budget` units (and at least one item): the ground surveyed
    /// over `ground` among `solids` (the scene it was started in), rows handed to `heights`
    /// and `rows` to run side by side. Whether the terrain is whole.
    pub fn advance(
        &mut self,
        ground: &[Placed],
        solids: &[Placed],
        budget: u64,
        heights: &HeightRows<'_>,
        rows: &Rows<'_>,
    ) -> bool {
        self.run(ground, solids, &mut Budget::new(budget), heights, rows);
        self.done()
    }

    /// The whole terrain (`None` while it is not).
    pub fn finish(self) -> Option<Terrain> {
        if !self.done() {
            return None;
        }
        let extra = super::terrain::extra_of(&self.near);
        Some(Terrain::from_parts(
            self.grid,
            self.height,
            self.links,
            extra,
        ))
    }

    fn run(
        &mut self,
        ground: &[Placed],
        solids: &[Placed],
        b: &mut Budget,
        heights: &HeightRows<'_>,
        rows: &Rows<'_>,
    ) {
        let grid = self.grid;
        let (w, h) = (grid.size[0] as usize, grid.size[1] as usize);
        let before = b.taken;
        loop {
            match &mut self.stage {
                Stage::Survey(row) => {
                    let k = b.take_many((h - *row) as u64, w as u64 * Prices::SURVEY) as usize;
                    let (r0, g, radius) = (*row, self.ground, self.body_radius);
                    heights(
                        &|first, run| {
                            for (r, out) in run.chunks_mut(w).enumerate() {
                                let k = (r0 + first + r) as u32;
                                survey_row(&grid, k, &g, radius, ground, solids, out);
                            }
                        },
                        &mut self.height[r0 * w..(r0 + k) * w],
                    );
                    *row += k;
                    if *row < h {
                        break;
                    }
                    self.links = vec![0; grid.cells()];
                    self.stage = Stage::Link(0);
                }
                Stage::Link(row) => {
                    if self.links.len() != grid.cells() {
                        self.links = vec![0; grid.cells()];
                    }
                    let k =
                        b.take_many((h - *row) as u64, row_price(w, Prices::LINK_CELLS)) as usize;
                    let r0 = *row;
                    let (climb, climb_diagonal) = climbs(
                        grid.cell,
                        self.ground.step_height,
                        self.ground.max_slope_deg,
                    );
                    let height = &self.height;
                    rows(
                        &|first, run| {
                            for (r, out) in run.chunks_mut(w).enumerate() {
                                let k = (r0 + first + r) as u32;
                                link_row(&grid, height, climb, climb_diagonal, k, out);
                            }
                        },
                        &mut self.links[r0 * w..(r0 + k) * w],
                    );
                    *row += k;
                    if *row < h {
                        break;
                    }
                    let cap = super::terrain::CLEARANCE + 1;
                    self.near = self
                        .height
                        .iter()
                        .map(|v| if v.is_nan() { 0 } else { cap })
                        .collect();
                    self.stage = Stage::Forward(0);
                }
                Stage::Forward(row) => {
                    let k = b.take_many((h - *row) as u64, row_price(w, Prices::CLEARANCE_CELLS))
                        as usize;
                    for r in *row..*row + k {
                        super::terrain::forward_row(&grid, &mut self.near, r);
                    }
                    *row += k;
                    if *row < h {
                        break;
                    }
                    self.stage = Stage::Backward(0);
                }
                Stage::Backward(row) => {
                    let k = b.take_many((h - *row) as u64, row_price(w, Prices::CLEARANCE_CELLS))
                        as usize;
                    for r in *row..*row + k {
                        super::terrain::backward_row(&grid, &mut self.near, h - 1 - r);
                    }
                    *row += k;
                    if *row < h {
                        break;
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => break,
            }
        }
        self.taken += b.taken - before;
    }
}
