//! The walk of a whole flock: every boid's neighbourhood, eight consecutive boids at a time
//! (one a kernel lane): cell row by cell row with the chords of the batch through the rows
//! around it (the grid), or in small groups of neighbouring boids sharing one candidate list
//! (the k-d tree), with each thread's scratch reused.

use super::*;
use crate::kernel::Raw8;
use boids_core::fmath::{Extremes, Order};
use boids_core::rules8::{Hoods8, LANES, States8};

/// Boids' sums gathered one by one into batches of consecutive slots.
struct Packer {
    raw: Raw8,
    first: usize,
    n: usize,
}

impl Packer {
    fn new() -> Self {
        Packer {
            raw: Raw8::default(),
            first: 0,
            n: 0,
        }
    }

    /// Adds the sums of `slot` (the next slot after the last, or a new batch is started).
    fn push(&mut self, slot: usize, r: &Raw, f: &mut impl FnMut(usize, usize, &Raw8)) {
        if self.n > 0 && self.first + self.n != slot {
            self.flush(f);
        }
        if self.n == 0 {
            self.first = slot;
            self.raw = Raw8::default();
        }
        let l = self.n;
        self.raw.count[l] = r.count;
        self.raw.sep_count[l] = r.sep_count;
        for k in 0..13 {
            self.raw.s[k][l] = r.s[k];
        }
        self.n += 1;
        if self.n == LANES {
            self.flush(f);
        }
    }

    fn flush(&mut self, f: &mut impl FnMut(usize, usize, &Raw8)) {
        if self.n > 0 {
            f(self.first, self.n, &self.raw);
            self.n = 0;
        }
    }
}

/// A kernel call's boids `first..first + n` (up to sixteen), eight at a time.
fn emit_batch(
    emit: &mut impl FnMut(usize, usize, &Raw8),
    first: usize,
    n: usize,
    raws: &kernel::Batch,
) {
    emit(first, n.min(LANES), &raws[0]);
    if n > LANES {
        emit(first + LANES, n - LANES, &raws[1]);
    }
}

impl Index {
    /// [`Index::neighbourhood`] of every boid in the cells `cells` (of [`Index::cell_starts`]),
    /// in slot order: `f(slot, sums)`.
    pub fn for_each_neighbourhood(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, Neighbourhood),
    ) {
        self.walk(cells, spec, k, scratch, |first, n, raw| {
            for l in 0..n {
                f(first + l, raw.lane(l).hood(self.axes));
            }
        })
    }

    /// [`Index::for_each_neighbourhood`] eight consecutive slots at a time (fewer where a run of
    /// slots ends), in the form the eight-boid rules take: `f(first slot, lanes, sums, raw)`;
    /// lanes past `lanes` hold zeros; `raw` holds the same sums in the kernel's form, for
    /// [`Index::hood`] (a lane the eight-boid rules do not cover).
    pub fn for_each_neighbourhood8(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, usize, &Hoods8, &Raw8),
    ) {
        let axes = self.axes;
        self.walk(cells, spec, k, scratch, |first, n, raw| {
            f(first, n, &raw.hoods8(n, axes), raw)
        })
    }

    /// Lane `l` of a batch's sums as a [`Neighbourhood`].
    pub fn hood(&self, raw: &Raw8, l: usize) -> Neighbourhood {
        raw.lane(l).hood(self.axes)
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

    /// Whether the `k` nearest (`k > 0`) go through the batch k-nearest kernel (k up to
    /// [`kernel::KNN_MAX`], flocks up to [`kernel::KNN_MAX_LEN`]) rather than boid by boid.
    fn batch_knn(&self, k: usize) -> bool {
        k <= kernel::KNN_MAX && self.len() <= kernel::KNN_MAX_LEN
    }

    /// The walk itself: `f(first slot, lanes, sums)` for consecutive batches of slots, in
    /// slot order.
    fn walk(
        &self,
        cells: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
        mut f: impl FnMut(usize, usize, &Raw8),
    ) {
        if cells.is_empty() {
            return;
        }
        let mut emit = |first: usize, n: usize, raw: &Raw8| f(first, n, raw);
        let width = kernel::width(spec.level);
        let radius = spec.r2.sqrt();
        let soa = self.soa();
        let size = kernel::kernel_size(self.axes, spec.period);
        let runs_kernel = kernel::runs_fn(spec, soa.d3);
        let knn_kernel = kernel::knn_fn(spec, soa.d3);
        // Past the batch k-nearest kernel's limits, the k nearest go boid by boid (below:
        // `query_raw` takes the same chords through the same rows).
        let batch_knn = self.batch_knn(k);
        let chords = self.layout.chords(radius);
        let nx = self.layout.dims[0] as usize;
        let ny = self.layout.dims[1] as usize;
        let mut packer = Packer::new();
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
            let Some(rows) = rows.filter(|_| k == 0 || batch_knn) else {
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
                        &mut packer,
                        &mut emit,
                    );
                    continue;
                }
                for slot in s0..s1 {
                    let raw = self.query_raw(slot, spec, k, scratch);
                    packer.push(slot, &raw, &mut emit);
                }
                continue;
            };
            packer.flush(&mut emit);
            let mut runs = [(0u32, 0u32); 18];
            let mut first = s0;
            while first < s1 {
                let n = (s1 - first).min(width);
                // The batch's box, and the union of its boids' chords through every row.
                let (mut lo, mut hi) = (self.position(first), self.position(first));
                for s in first + 1..first + n {
                    let p = self.position(s);
                    (lo, hi) = (lo.at_most(p), hi.at_least(p));
                }
                let nr = self
                    .layout
                    .span_runs(&chords, &rows, &self.cell_start, lo, hi, &mut runs);
                let raws = if k == 0 {
                    runs_kernel(&soa, spec, size, first, n, &runs[..nr])
                } else {
                    knn_kernel(&soa, spec, size, first, n, &runs[..nr], k)
                };
                emit_batch(&mut emit, first, n, &raws);
                first += n;
            }
        }
        packer.flush(&mut emit);
    }

    /// The k-d tree's walk: boids in small groups of neighbours (consecutive slots, so nearby
    /// in the cell order, within a box about the radius wide); one tree query per group, with
    /// the radius grown to cover the group's box, gathers the candidates, ascending; then the
    /// group's boids, eight at a time, run the list kernel over them.
    #[allow(clippy::too_many_arguments)]
    fn walk_tree(
        &self,
        tree: &Tree,
        slots: std::ops::Range<usize>,
        spec: &Spec,
        k: usize,
        radius: f32,
        scratch: &mut Scratch,
        packer: &mut Packer,
        emit: &mut impl FnMut(usize, usize, &Raw8),
    ) {
        let period = self.layout.period;
        let soa = self.soa();
        let size = kernel::kernel_size(self.axes, spec.period);
        let list_kernel = kernel::list_fn(spec, soa.d3);
        let knn_kernel = kernel::knn_fn(spec, soa.d3);
        let batch_knn = self.batch_knn(k);
        let width = kernel::width(spec.level);
        let mut slot = slots.start;
        while slot < slots.end {
            // The group: boids while their bounding box stays within a cube of edge `radius`.
            let first = self.position(slot);
            let (mut lo, mut hi) = (first, first);
            let mut end = slot + 1;
            while end < slots.end && end - slot < 32 {
                let p = self.position(end);
                let (l, h) = (lo.at_most(p), hi.at_least(p));
                if (h - l).largest() > radius {
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
            if k > 0 && !batch_knn {
                for s in slot..end {
                    let raw = self.list_raw(s, spec, k, &block, scratch);
                    packer.push(s, &raw, emit);
                }
            } else {
                if k > 0 {
                    // The list as runs of consecutive slots, for the batch k-nearest kernel.
                    let runs = &mut scratch.runs;
                    runs.clear();
                    for &j in &block {
                        match runs.last_mut() {
                            Some(r) if r.1 == j => r.1 = j + 1,
                            _ => runs.push((j, j + 1)),
                        }
                    }
                }
                packer.flush(emit);
                let mut b = slot;
                while b < end {
                    let n = (end - b).min(width);
                    let raws = if k == 0 {
                        list_kernel(&soa, spec, size, b, n, &block)
                    } else {
                        knn_kernel(&soa, spec, size, b, n, &scratch.runs, k)
                    };
                    emit_batch(emit, b, n, &raws);
                    b += n;
                }
            }
            scratch.block = block;
            slot = end;
        }
    }
}
