//! The walk of a whole flock: every boid's neighbourhood, cell row by cell row (the grid) or
//! in small groups of neighbouring boids (the k-d tree), with each thread's scratch reused.

use super::*;

impl Index {
    /// [`Index::neighbourhood`] of every boid in the cells `cells` (of [`Index::cell_starts`]),
    /// in slot order: `f(slot, sums)`. The grid works out the rows around each row of cells
    /// once, then only each boid's x window. Returns how many other boids were within the
    /// radius of each boid, summed (before the field of view and any k-nearest limit: the
    /// work the kernel did, for benchmarks).
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
        let cols = self.cols();
        let size = kernel::filter_size(&cols, spec.period);
        let periodic = spec.period.is_some();
        let filter = kernel::filter_fn(spec.level, cols.d3, periodic);
        let filter2 = kernel::filter2_fn(spec.level, cols.d3, periodic);
        let accumulate = kernel::accumulate_fn(spec);
        // Lists grow to the largest candidate set met (kept across calls by the caller's
        // scratch), never to the flock's size: a worker's scratch stays small.
        let room = |l: &mut Vec<u32>, runs: &[Run]| {
            let total: usize = runs.iter().map(|r| r.1.saturating_sub(r.0) as usize).sum();
            let need = total + 2 * PAD + 2 * GROUP;
            if l.len() < need {
                l.resize(need.next_power_of_two(), 0);
            }
        };
        let q_of = |slot: usize| {
            let q = self.rec[slot].position().to_array();
            [q[self.axes[0]], q[self.axes[1]], q[self.axes[2]]]
        };
        // The sums of the boid in `slot` from the `len` candidates in `list`, then the callback.
        let mut finish = |slot: usize, list: &mut Vec<u32>, len: usize, near: &mut Vec<_>| {
            // The list holds the boid itself too.
            in_radius += len.saturating_sub(1) as u64;
            let len = if k > 0 {
                self.keep_nearest_in(slot, k, list, len, near)
            } else {
                len
            };
            let padded = len.div_ceil(GROUP).max(1) * GROUP;
            if list.len() < padded {
                list.resize(padded, 0);
            }
            list[len..padded].fill(slot as u32);
            let hood = kernel::accumulate_with(
                accumulate,
                spec,
                slot as u32,
                self.rec[slot].position(),
                self.head[slot].get(),
                &list[..padded],
                &self.rec,
                &self.head,
            );
            f(slot, hood);
        };
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
                    self.walk_tree(tree, s0..s1, spec, radius, filter, scratch, &mut finish);
                    continue;
                }
                for slot in s0..s1 {
                    let len = self.candidates(self.rec[slot].position(), spec, scratch);
                    let mut list = std::mem::take(&mut scratch.list);
                    finish(slot, &mut list, len, &mut scratch.near);
                    scratch.list = list;
                }
                continue;
            };
            let mut runs = [(0u32, 0u32); 18];
            let mut slot = s0;
            // Two boids of the row at a time: one union window, one pass over the candidates.
            while slot + 1 < s1 {
                let (qa, qb) = (q_of(slot), q_of(slot + 1));
                let (xa, xb) = (self.rec[slot].0[0], self.rec[slot + 1].0[0]);
                let mid = 0.5 * (xa + xb);
                let reach = radius + 0.5 * (xa - xb).abs();
                let nr = self
                    .layout
                    .row_runs(&rows, &self.cell_start, mid, reach, &mut runs);
                room(&mut scratch.list, &runs[..nr]);
                room(&mut scratch.list2, &runs[..nr]);
                let [la, lb] = filter2(
                    &cols,
                    [qa, qb],
                    spec.r2,
                    size,
                    &runs[..nr],
                    [&mut scratch.list, &mut scratch.list2],
                );
                finish(slot, &mut scratch.list, la, &mut scratch.near);
                finish(slot + 1, &mut scratch.list2, lb, &mut scratch.near);
                slot += 2;
            }
            if slot < s1 {
                let x = self.rec[slot].0[0];
                let nr = self
                    .layout
                    .row_runs(&rows, &self.cell_start, x, radius, &mut runs);
                room(&mut scratch.list, &runs[..nr]);
                let len = filter(
                    &cols,
                    q_of(slot),
                    spec.r2,
                    size,
                    &runs[..nr],
                    &mut scratch.list,
                );
                finish(slot, &mut scratch.list, len, &mut scratch.near);
            }
        }
        in_radius
    }

    /// The k-d tree's walk: boids in small groups of neighbours (consecutive slots, so nearby
    /// in the cell order, within a box about the radius wide); one tree query per group, with
    /// the radius grown to cover the group's box, gathers the candidates, ascending, into a
    /// block; then each boid of the group runs the filter over the block.
    #[allow(clippy::too_many_arguments)]
    fn walk_tree(
        &self,
        tree: &Tree,
        slots: std::ops::Range<usize>,
        spec: &Spec,
        radius: f32,
        filter: kernel::FilterFn,
        scratch: &mut Scratch,
        finish: &mut impl FnMut(usize, &mut Vec<u32>, usize, &mut Vec<(u64, u32)>),
    ) {
        let period = self.layout.period;
        let size = kernel::filter_size(&self.cols(), spec.period);
        let mut slot = slots.start;
        while slot < slots.end {
            // The group: boids while their bounding box stays within a cube of edge `radius`.
            let first = self.rec[slot].position();
            let (mut lo, mut hi) = (first, first);
            let mut end = slot + 1;
            while end < slots.end && end - slot < 32 {
                let p = self.rec[end].position();
                let (l, h) = (lo.min(p), hi.max(p));
                if (h - l).max_element() > radius {
                    break;
                }
                (lo, hi) = (l, h);
                end += 1;
            }
            let centre = (lo + hi) * 0.5;
            let reach = radius + (hi - lo).length() * 0.5;
            let block = &mut scratch.block;
            block.slots.clear();
            tree.within(centre, reach, period.as_ref(), |j| block.slots.push(j));
            block.slots.sort_unstable();
            block.slots.dedup();
            let b = block.slots.len();
            for (a, col) in block.cols.iter_mut().enumerate() {
                col.clear();
                col.extend(
                    block
                        .slots
                        .iter()
                        .map(|&j| self.rec[j as usize].0[self.axes[a]]),
                );
                col.resize(b + PAD, f32::INFINITY);
            }
            let cols = Cols {
                a: [&block.cols[0], &block.cols[1], &block.cols[2]],
                d3: self.d3,
                axes: self.axes,
            };
            if scratch.list.len() < b + 2 * PAD + 2 * GROUP {
                scratch.list.resize(b + 2 * PAD + 2 * GROUP, 0);
            }
            for s in slot..end {
                let q = self.rec[s].position().to_array();
                let qp = [q[self.axes[0]], q[self.axes[1]], q[self.axes[2]]];
                let len = filter(
                    &cols,
                    qp,
                    spec.r2,
                    size,
                    &[(0, b as u32)],
                    &mut scratch.list,
                );
                // Block positions back to slots (ascending, as the block is).
                for e in &mut scratch.list[..len] {
                    *e = block.slots[*e as usize];
                }
                finish(s, &mut scratch.list, len, &mut scratch.near);
            }
            slot = end;
        }
    }

    /// The kernel's second half over the `len` candidates in `scratch.list`.
    #[inline]
    pub(super) fn finish_hood(
        &self,
        slot: usize,
        mut len: usize,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
    ) -> Neighbourhood {
        let q = self.rec[slot].position();
        let h = self.head[slot].get();
        if k > 0 {
            len = self.keep_nearest(slot, k, len, scratch);
        }
        let padded = len.div_ceil(GROUP).max(1) * GROUP;
        let list = &mut scratch.list;
        if list.len() < padded {
            list.resize(padded, 0);
        }
        list[len..padded].fill(slot as u32);
        kernel::accumulate(
            spec,
            slot as u32,
            q,
            h,
            &list[..padded],
            &self.rec,
            &self.head,
        )
    }

    /// The filter over `runs` into `scratch.list`; returns how many passed.
    #[inline]
    pub(super) fn filter_runs(
        &self,
        q: Vec3,
        spec: &Spec,
        runs: &[Run],
        scratch: &mut Scratch,
    ) -> usize {
        let total: usize = runs.iter().map(|r| r.1.saturating_sub(r.0) as usize).sum();
        let need = total + 2 * PAD + GROUP;
        if scratch.list.len() < need {
            scratch.list.resize(need, 0);
        }
        let qa = q.to_array();
        let qp = [qa[self.axes[0]], qa[self.axes[1]], qa[self.axes[2]]];
        kernel::filter(
            spec.level,
            &self.cols(),
            qp,
            spec.r2,
            spec.period,
            runs,
            &mut scratch.list,
        )
    }
}
