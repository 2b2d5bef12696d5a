//! The walk of a whole flock: every boid's neighbourhood, cell row by cell row (the grid) or
//! in small groups of neighbouring boids (the k-d tree), with each thread's scratch reused.

use super::*;

impl Index {
    /// [`Index::neighbourhood`] of every boid in the cells `cells` (of [`Index::cell_starts`]),
    /// in slot order: `f(slot, sums)`. The grid works out the rows around each row of cells
    /// once, then each boid's chord through every row. Returns how many other boids were
    /// within the radius of each boid, summed (before the field of view and any k-nearest
    /// limit: the work the kernel did, for benchmarks).
    pub fn for_each_neighbourhood(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, Neighbourhood),
    ) -> u64 {
        if cells.is_empty() {
            return 0;
        }
        let mut in_radius = 0u64;
        let radius = spec.r2.sqrt();
        let soa = self.soa();
        let size = kernel::kernel_size(self.axes, spec.period);
        let runs_kernel = kernel::runs_fn(spec, soa.d3);
        let chords = self.layout.chords(radius);
        let nx = self.layout.dims[0] as usize;
        let ny = self.layout.dims[1] as usize;
        let mut c = cells.start;
        while c < cells.end {
            // One (y, z) row of cells at a time (or the whole range, for other kinds).
            let row = c / nx;
            let (c1, rows) = if self.kind == IndexKind::Grid {
                let c1 = ((row + 1) * nx).min(cells.end);
                (c1, self.layout.rows(row % ny, row / ny, radius))
            } else {
                (cells.end, None)
            };
            let (s0, s1) = (self.cell_start[c] as usize, self.cell_start[c1] as usize);
            c = c1;
            let Some(rows) = rows else {
                if self.kind == IndexKind::KdTree
                    && let Some(tree) = &self.tree
                {
                    self.walk_tree(
                        tree,
                        s0..s1,
                        spec,
                        k,
                        radius,
                        scratch,
                        &mut f,
                        &mut in_radius,
                    );
                    continue;
                }
                for slot in s0..s1 {
                    let (hood, within) = self.query(slot, spec, k, scratch);
                    in_radius += u64::from(within);
                    f(slot, hood);
                }
                continue;
            };
            let mut runs = [(0u32, 0u32); 18];
            for slot in s0..s1 {
                let q = self.position(slot);
                let nr = self
                    .layout
                    .chord_runs(&chords, &rows, &self.cell_start, q, &mut runs);
                let (hood, within) = if k > 0 {
                    self.runs_hood(slot, spec, k, &runs[..nr], scratch)
                } else {
                    let raw = runs_kernel(
                        &soa,
                        spec,
                        size,
                        slot,
                        self.to_kernel(q),
                        self.to_kernel(self.heading_at(slot)),
                        &runs[..nr],
                    );
                    (raw.hood(self.axes), raw.in_radius)
                };
                in_radius += u64::from(within);
                f(slot, hood);
            }
        }
        in_radius
    }

    /// The k-d tree's walk: boids in small groups of neighbours (consecutive slots, so nearby
    /// in the cell order, within a box about the radius wide); one tree query per group, with
    /// the radius grown to cover the group's box, gathers the candidates, ascending; then each
    /// boid of the group runs the list kernel over them.
    #[allow(clippy::too_many_arguments)]
    fn walk_tree(
        &self,
        tree: &Tree,
        slots: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        radius: f32,
        scratch: &mut Scratch,
        f: &mut impl FnMut(usize, Neighbourhood),
        in_radius: &mut u64,
    ) {
        let period = self.layout.period;
        let mut slot = slots.start;
        while slot < slots.end {
            // The group: boids while their bounding box stays within a cube of edge `radius`.
            let first = self.position(slot);
            let (mut lo, mut hi) = (first, first);
            let mut end = slot + 1;
            while end < slots.end && end - slot < 32 {
                let p = self.position(end);
                let (l, h) = (lo.min(p), hi.max(p));
                if (h - l).max_element() > radius {
                    break;
                }
                (lo, hi) = (l, h);
                end += 1;
            }
            let centre = (lo + hi) * 0.5;
            let reach = radius + (hi - lo).length() * 0.5;
            let mut block = std::mem::take(&mut scratch.block);
            block.clear();
            tree.within(centre, reach, period.as_ref(), |j| block.push(j));
            block.sort_unstable();
            block.dedup();
            for s in slot..end {
                let (hood, within) = self.list_hood(s, spec, k, &block, scratch);
                *in_radius += u64::from(within);
                f(s, hood);
            }
            scratch.block = block;
            slot = end;
        }
    }
}
