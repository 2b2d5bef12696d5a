//! The k-d tree kind: kiddo 6's `ImmutableKdTree` over the boids in cell order, so the tree's
//! items are slots and nearby queries walk nearby leaves.

use crate::Period;
use glam::Vec3;
use kiddo::SquaredEuclidean;
use std::num::NonZeroUsize;

type Kd = kiddo::ImmutableKdTree<f32, 3>;

thread_local! {
    /// Per-thread query stack: kiddo's default keeps its scratch in its own thread-local storage,
    /// which measured several times slower on Rayon workers than on the main thread; reusing one
    /// caller-owned scratch per thread avoids both that and an allocation per query.
    static SCRATCH: std::cell::RefCell<kiddo::QueryScratch<kiddo::Eytzinger, f32, 3>> =
        std::cell::RefCell::new(kiddo::QueryScratch::default());
}

/// A kiddo tree whose items are slots.
pub struct Tree {
    kd: Kd,
    len: usize,
}

impl Tree {
    /// A tree over the first `n` positions of the coordinate arrays `p` (`None` if kiddo
    /// refuses the point set); built with Rayon when `parallel` (the same tree either way).
    pub fn build(p: &[Vec<f32>; 3], n: usize, parallel: bool) -> Option<Tree> {
        let pts: Vec<[f32; 3]> = (0..n).map(|j| [p[0][j], p[1][j], p[2][j]]).collect();
        if parallel && pts.len() >= crate::PARALLEL_MIN {
            return Kd::new_from_slice_parallel(&pts)
                .ok()
                .map(|kd| Tree { kd, len: pts.len() });
        }
        Kd::new_from_slice(&pts)
            .ok()
            .map(|kd| Tree { kd, len: pts.len() })
    }

    /// Approximate heap bytes (kiddo's storage estimated at 16 bytes a point).
    pub fn heap_bytes(&self) -> usize {
        self.len * 16
    }

    /// Calls `f(slot)` for every point within `radius` of `q` (a little generously: the caller
    /// applies the exact test) and of every periodic image of `q` the sphere reaches. A slot
    /// may come more than once when periodic.
    pub fn within(&self, q: Vec3, radius: f32, period: Option<&Period>, mut f: impl FnMut(u32)) {
        let r2 = radius * radius * (1.0 + 1e-5) + f32::MIN_POSITIVE;
        let mut query = |c: Vec3| {
            SCRATCH.with_borrow_mut(|scratch| {
                self.kd
                    .query(&c.to_array())
                    .within::<SquaredEuclidean<f32>>(r2)
                    .unsorted()
                    .with_scratch(scratch)
                    .visit(|item| f(item.item))
            })
        };
        match period {
            None => query(q),
            Some(per) => {
                let shifts = |axis: usize| -> ([f32; 3], usize) {
                    let (lo, hi, s) = (
                        per.min[axis],
                        per.min[axis] + per.size[axis],
                        per.size[axis],
                    );
                    let mut v = [0.0; 3];
                    let mut n = 1;
                    if q[axis] - radius < lo {
                        v[n] = s;
                        n += 1;
                    }
                    if q[axis] + radius > hi {
                        v[n] = -s;
                        n += 1;
                    }
                    (v, n)
                };
                let (sx, nx) = shifts(0);
                let (sy, ny) = shifts(1);
                let (sz, nz) = shifts(2);
                for &dz in &sz[..nz] {
                    for &dy in &sy[..ny] {
                        for &dx in &sx[..nx] {
                            query(q + Vec3::new(dx, dy, dz));
                        }
                    }
                }
            }
        }
    }

    /// Calls `f(slot)` for the `k + 2` points nearest `q` within `radius` (generously), except
    /// the one whose original index (`order[slot]`) is `exclude`.
    pub fn nearest(
        &self,
        q: Vec3,
        k: usize,
        radius: f32,
        exclude: u32,
        order: &[u32],
        mut f: impl FnMut(u32),
    ) {
        let Some(k2) = NonZeroUsize::new(k.saturating_add(2)) else {
            return;
        };
        let r2 = radius * radius;
        let r2 = if r2.is_finite() {
            r2 * (1.0 + 1e-5) + f32::MIN_POSITIVE
        } else {
            f32::INFINITY
        };
        let near = self
            .kd
            .query(&q.to_array())
            .nearest_n::<SquaredEuclidean<f32>>(k2)
            .within(r2)
            .execute();
        for item in &near {
            let j = item.item;
            if order[j as usize] != exclude {
                f(j);
            }
        }
    }
}
