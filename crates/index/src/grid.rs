//! Uniform grid: boids counting-sorted into cells no smaller than the radius, with positions,
//! velocities and headings copied contiguously in cell order, so a query scans a few short,
//! dense runs of memory.

use crate::{Hit, NeighbourIndex, Period, Points, offset};
use glam::Vec3;

/// Uniform-grid neighbour search.
#[derive(Default)]
pub struct Grid {
    min: Vec3,
    inv_cell: Vec3,
    dims: [u32; 3],
    /// `cell_start[c]..cell_start[c + 1]` are the slots of cell `c`.
    cell_start: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    /// Original index of each slot.
    original: Vec<u32>,
    /// Scratch: cell of each point, in original order.
    cell_of: Vec<u32>,
    period: Option<Period>,
}

/// Cells allowed per point before the cell size grows (bounds memory for sparse flocks).
const MAX_CELLS_PER_POINT: usize = 4;

impl Grid {
    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.positions.capacity() + self.velocities.capacity() + self.headings.capacity()) * 12
            + (self.original.capacity() + self.cell_of.capacity() + self.cell_start.capacity()) * 4
    }

    /// Cells along each axis.
    pub fn dims(&self) -> [u32; 3] {
        self.dims
    }

    /// Original index of each slot (cell order).
    pub fn original(&self) -> &[u32] {
        &self.original
    }

    #[inline(always)]
    fn cell_coord(&self, p: Vec3) -> [i64; 3] {
        let mut rel = p - self.min;
        if let Some(per) = &self.period {
            rel = rel.rem_euclid(per.size);
        }
        let c = rel * self.inv_cell;
        [c.x.floor() as i64, c.y.floor() as i64, c.z.floor() as i64]
    }

    #[inline(always)]
    fn cell_index(&self, x: u32, y: u32, z: u32) -> usize {
        ((z as usize * self.dims[1] as usize) + y as usize) * self.dims[0] as usize + x as usize
    }

    fn choose_layout(&mut self, positions: &[Vec3], radius: f32) {
        let n = positions.len();
        let max_cells = (n * MAX_CELLS_PER_POINT + 64) as f64;
        let (min, extent) = match &self.period {
            Some(per) => (per.min, per.size),
            None => {
                let (lo, hi) = positions.iter().fold(
                    (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                    |(lo, hi), &p| (lo.min(p), hi.max(p)),
                );
                if n == 0 {
                    (Vec3::ZERO, Vec3::ZERO)
                } else {
                    (lo, hi - lo)
                }
            }
        };
        let mut cell = if radius > 0.0 && radius.is_finite() {
            f64::from(radius)
        } else {
            f64::from(extent.max_element()).max(1.0)
        };
        let periodic = self.period.is_some();
        let dims_for = |cell: f64| -> [u64; 3] {
            let e = extent.to_array();
            std::array::from_fn(|i| {
                let k = (f64::from(e[i]) / cell).floor();
                let k = if periodic { k.max(1.0) } else { k + 1.0 };
                k.min(1e9) as u64
            })
        };
        let mut dims = dims_for(cell);
        while (dims[0] * dims[1] * dims[2]) as f64 > max_cells {
            let over = (dims[0] * dims[1] * dims[2]) as f64 / max_cells;
            cell *= over.cbrt().max(1.01);
            dims = dims_for(cell);
        }
        self.dims = dims.map(|d| d.max(1) as u32);
        self.min = min;
        self.inv_cell = if periodic {
            // Cells divide the periodic box exactly; each is at least the radius wide.
            Vec3::from_array(std::array::from_fn(|i| self.dims[i] as f32 / extent[i]))
        } else {
            Vec3::splat((1.0 / cell) as f32)
        };
    }
}

impl NeighbourIndex for Grid {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        let n = points.positions.len();
        self.period = period;
        self.choose_layout(points.positions, radius);
        let cells = self.dims.iter().map(|&d| d as usize).product::<usize>();
        let dims = self.dims.map(i64::from);

        self.cell_of.clear();
        self.cell_of.reserve(n);
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for &p in points.positions {
            let c = self.cell_coord(p);
            let [x, y, z] = std::array::from_fn(|i| c[i].clamp(0, dims[i] - 1) as u32);
            let idx = self.cell_index(x, y, z);
            self.cell_of.push(idx as u32);
            self.cell_start[idx + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        // Stable scatter: within a cell, points keep their original order.
        let mut cursor = self.cell_start[..cells].to_vec();
        self.original.clear();
        self.original.resize(n, 0);
        for (j, &c) in self.cell_of.iter().enumerate() {
            let s = &mut cursor[c as usize];
            self.original[*s as usize] = j as u32;
            *s += 1;
        }
        let gather = |dst: &mut Vec<Vec3>, src: &[Vec3], original: &[u32]| {
            dst.clear();
            if !src.is_empty() {
                dst.extend(original.iter().map(|&j| src[j as usize]));
            }
        };
        gather(&mut self.positions, points.positions, &self.original);
        gather(&mut self.velocities, points.velocities, &self.original);
        gather(&mut self.headings, points.headings, &self.original);
    }

    fn len(&self) -> usize {
        self.positions.len()
    }
    fn velocities(&self) -> &[Vec3] {
        &self.velocities
    }
    fn headings(&self) -> &[Vec3] {
        &self.headings
    }

    #[inline]
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        if self.positions.is_empty() || radius.is_nan() {
            return;
        }
        let r2 = radius * radius;
        let qc = self.cell_coord(q);
        // Ranges of cells to scan on each axis; x yields at most two contiguous runs.
        let mut ranges: [[(u32, u32); 2]; 3] = [[(0, 0); 2]; 3];
        let mut counts = [0usize; 3];
        for axis in 0..3 {
            let dim = i64::from(self.dims[axis]);
            let reach = (f64::from(radius) * f64::from(self.inv_cell[axis]))
                .ceil()
                .min(1e9) as i64;
            if self.period.is_some() {
                if 2 * reach + 1 >= dim {
                    ranges[axis][0] = (0, dim as u32 - 1);
                    counts[axis] = 1;
                } else {
                    let lo = (qc[axis] - reach).rem_euclid(dim);
                    let hi = (qc[axis] + reach).rem_euclid(dim);
                    if lo <= hi {
                        ranges[axis][0] = (lo as u32, hi as u32);
                        counts[axis] = 1;
                    } else {
                        ranges[axis] = [(lo as u32, dim as u32 - 1), (0, hi as u32)];
                        counts[axis] = 2;
                    }
                }
            } else {
                let lo = (qc[axis] - reach).max(0);
                let hi = (qc[axis] + reach).min(dim - 1);
                if lo > hi {
                    return;
                }
                ranges[axis][0] = (lo as u32, hi as u32);
                counts[axis] = 1;
            }
        }
        let period = self.period.as_ref();
        for &(z0, z1) in &ranges[2][..counts[2]] {
            for z in z0..=z1 {
                for &(y0, y1) in &ranges[1][..counts[1]] {
                    for y in y0..=y1 {
                        for &(x0, x1) in &ranges[0][..counts[0]] {
                            let s0 = self.cell_start[self.cell_index(x0, y, z)] as usize;
                            let s1 = self.cell_start[self.cell_index(x1, y, z) + 1] as usize;
                            for (k, &p) in self.positions[s0..s1].iter().enumerate() {
                                let o = offset(p, q, period);
                                let d2 = o.length_squared();
                                let s = s0 + k;
                                if d2 < r2 && self.original[s] != exclude {
                                    f(Hit {
                                        index: self.original[s],
                                        slot: s as u32,
                                        offset: o,
                                        d2,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
