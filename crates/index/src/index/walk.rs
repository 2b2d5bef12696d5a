//! The walk of a whole flock: every boid's neighbourhood, cell row by cell row (the grid) or
//! in small groups of neighbouring boids (the k-d tree), with each thread's scratch reused.

use super::*;
use boids_core::rules8::{Hoods8, LANES, States8};

impl Index {
    /// [`Index::neighbourhood`] of every boid in the cells `cells` (of [`Index::cell_starts`]),
    /// in slot order: `f(slot, sums)`. Returns how many other boids were within the radius of
    /// each boid, summed (before the field of view and any k-nearest limit: the work the
    /// kernel did, for benchmarks).
    pub fn for_each_neighbourhood(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, Neighbourhood),
    ) -> u64 {
        self.walk(cells, spec, k, scratch, |slot, raw| {
            f(slot, raw.hood(self.axes))
        })
    }

    /// [`Index::for_each_neighbourhood`] eight consecutive slots at a time (fewer at the end of
    /// the range), in the form the eight-boid rules take: `f(first slot, lanes, sums, raw)`;
    /// lanes past `lanes` hold zeros; `raw` holds each lane's sums in the kernel's form, for
    /// [`Index::hood`] (a lane the eight-boid rules do not cover).
    pub fn for_each_neighbourhood8(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, usize, &Hoods8, &[Raw; LANES]),
    ) -> u64 {
        let mut hoods = Hoods8::default();
        let mut raws = [Raw::default(); LANES];
        let mut first = 0;
        let mut n = 0;
        let axes = self.axes;
        let in_radius = self.walk(cells, spec, k, scratch, |slot, raw| {
            if n == 0 {
                first = slot;
            }
            debug_assert_eq!(first + n, slot, "the walk goes slot by slot");
            raw.set_lane(&mut hoods, n, axes);
            raws[n] = *raw;
            n += 1;
            if n == LANES {
                f(first, n, &hoods, &raws);
                n = 0;
            }
        });
        if n > 0 {
            for (l, raw) in raws.iter_mut().enumerate().skip(n) {
                Raw::default().set_lane(&mut hoods, l, axes);
                *raw = Raw::default();
            }
            f(first, n, &hoods, &raws);
        }
        in_radius
    }

    /// Sums in the kernel's form (as [`Index::for_each_neighbourhood8`] hands them) as a
    /// [`Neighbourhood`].
    pub fn hood(&self, raw: &Raw) -> Neighbourhood {
        raw.hood(self.axes)
    }

    /// The positions, velocities and headings of the slots `first..first + n` (n <= 8) as
    /// eight lanes (zeros past `n`).
    pub fn states8(&self, first: usize, n: usize) -> States8 {
        let mut s = States8::default();
        let n = n.min(LANES);
        for (x, arrays) in [
            (&mut s.position, &self.p),
            (&mut s.velocity, &self.v),
            (&mut s.heading, &self.h),
        ] {
            for (lanes, array) in x.0.iter_mut().zip(arrays) {
                if n == LANES {
                    lanes.0.copy_from_slice(&array[first..first + LANES]);
                } else {
                    lanes.0[..n].copy_from_slice(&array[first..first + n]);
                }
            }
        }
        s
    }

    /// The walk itself: `f(slot, sums)` in slot order, sums in the kernel's form.
    fn walk(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, &Raw),
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
                    let raw = self.query_raw(slot, spec, k, scratch);
                    in_radius += u64::from(raw.in_radius);
                    f(slot, &raw);
                }
                continue;
            };
            let mut runs = [(0u32, 0u32); 18];
            for slot in s0..s1 {
                let q = self.position(slot);
                let nr = self
                    .layout
                    .chord_runs(&chords, &rows, &self.cell_start, q, &mut runs);
                let raw = if k > 0 {
                    self.runs_raw(slot, spec, k, &runs[..nr], scratch)
                } else {
                    runs_kernel(
                        &soa,
                        spec,
                        size,
                        slot,
                        self.to_kernel(q),
                        self.to_kernel(self.heading_at(slot)),
                        &runs[..nr],
                    )
                };
                in_radius += u64::from(raw.in_radius);
                f(slot, &raw);
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
        f: &mut impl FnMut(usize, &Raw),
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
                let raw = self.list_raw(s, spec, k, &block, scratch);
                *in_radius += u64::from(raw.in_radius);
                f(s, &raw);
            }
            scratch.block = block;
            slot = end;
        }
    }
}
