//! k-d tree over `kiddo` 6: the index for k-nearest queries.

use crate::{Hit, NeighbourIndex, Period, Points, at_or_zero, copy_into, keep_k_nearest, offset};
use glam::Vec3;
use kiddo::SquaredEuclidean;
use std::num::NonZeroUsize;

type Tree = kiddo::ImmutableKdTree<f32, 3>;

thread_local! {
    /// Per-thread query stack: kiddo's default keeps its scratch in its own thread-local storage,
    /// which measured several times slower on Rayon workers than on the main thread; reusing one
    /// caller-owned scratch per thread avoids both that and an allocation per query.
    static SCRATCH: std::cell::RefCell<kiddo::QueryScratch<kiddo::Eytzinger, f32, 3>> =
        std::cell::RefCell::new(kiddo::QueryScratch::default());
}

/// k-d tree neighbour search.
#[derive(Default)]
pub struct KdTree {
    tree: Option<Tree>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    period: Option<Period>,
}

impl KdTree {
    /// Approximate heap bytes held (the tree's own storage estimated at 16 bytes a point).
    pub fn heap_bytes(&self) -> usize {
        (self.positions.capacity() + self.velocities.capacity() + self.headings.capacity()) * 12
            + self.positions.len() * 16
    }

    /// Calls `f(j, d2_kiddo)` for every point within `radius` (inclusive, a little generous) of
    /// `q` and of each periodic image of `q` the sphere reaches. Candidates are re-checked by the
    /// caller with the shared offset formula, so kiddo's own rounding never decides membership.
    fn candidates<F: FnMut(u32)>(&self, q: Vec3, radius: f32, mut f: F) {
        let Some(tree) = &self.tree else { return };
        // Slightly generous: kiddo may round differently; the exact test happens afterwards.
        let r2 = radius * radius * (1.0 + 1e-5) + f32::MIN_POSITIVE;
        let mut query = |c: Vec3| {
            SCRATCH.with_borrow_mut(|scratch| {
                tree.query(&c.to_array())
                    .within::<SquaredEuclidean<f32>>(r2)
                    .unsorted()
                    .with_scratch(scratch)
                    .visit(|item| f(item.item))
            })
        };
        match &self.period {
            None => query(q),
            Some(per) => {
                // q is inside the box; query every image the sphere touches.
                let qw = q;
                let shifts = |axis: usize| -> ([f32; 3], usize) {
                    let (lo, hi, s) = (
                        per.min[axis],
                        per.min[axis] + per.size[axis],
                        per.size[axis],
                    );
                    let mut v = [0.0, 0.0, 0.0];
                    let mut n = 1;
                    if qw[axis] - radius < lo {
                        v[n] = s;
                        n += 1;
                    }
                    if qw[axis] + radius > hi {
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
                            query(qw + Vec3::new(dx, dy, dz));
                        }
                    }
                }
            }
        }
    }
}

impl NeighbourIndex for KdTree {
    fn build(&mut self, points: Points<'_>, _radius: f32, period: Option<Period>) {
        copy_into(&mut self.positions, points.positions, period.as_ref());
        copy_into(&mut self.velocities, points.velocities, None);
        copy_into(&mut self.headings, points.headings, None);
        self.period = period;
        let pts: Vec<[f32; 3]> = self.positions.iter().map(|p| p.to_array()).collect();
        self.tree = if pts.is_empty() {
            None
        } else {
            Tree::new_from_slice(&pts).ok()
        };
    }

    fn len(&self) -> usize {
        self.positions.len()
    }
    fn velocity(&self, slot: u32) -> Vec3 {
        self.velocities[slot as usize]
    }
    fn heading(&self, slot: u32) -> Vec3 {
        at_or_zero(&self.headings, slot)
    }

    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        if radius.is_nan() {
            return;
        }
        let r2 = radius * radius;
        let period = self.period.as_ref();
        let q = self.period.map_or(q, |per| per.wrap(q));
        let mut seen_periodic: Vec<u32> = Vec::new();
        self.candidates(q, radius, |j| {
            if j == exclude {
                return;
            }
            let o = offset(self.positions[j as usize], q, period);
            let d2 = o.length_squared();
            if d2 < r2 {
                if period.is_some() {
                    // With a radius over half the box a point can appear in two images.
                    seen_periodic.push(j);
                } else {
                    f(Hit {
                        index: j,
                        slot: j,
                        offset: o,
                        d2,
                    });
                }
            }
        });
        if period.is_some() {
            seen_periodic.sort_unstable();
            seen_periodic.dedup();
            for j in seen_periodic {
                let o = offset(self.positions[j as usize], q, period);
                f(Hit {
                    index: j,
                    slot: j,
                    offset: o,
                    d2: o.length_squared(),
                });
            }
        }
    }

    fn k_nearest(&self, q: Vec3, radius: f32, k: usize, exclude: u32, out: &mut Vec<Hit>) {
        out.clear();
        let (Some(tree), Some(k2)) = (&self.tree, NonZeroUsize::new(k.saturating_add(2))) else {
            return;
        };
        if self.period.is_some() || radius.is_nan() || k == 0 {
            // Periodic k-nearest: gather the radius set and select.
            self.for_each_within(q, radius, exclude, |h| out.push(h));
            keep_k_nearest(out, k);
            return;
        }
        let r2 = radius * radius;
        // k + 2 nearest: the query point itself may be among them, and one more tells whether the
        // k-th is tied with anything unseen.
        let near = tree
            .query(&q.to_array())
            .nearest_n::<SquaredEuclidean<f32>>(k2)
            .within(r2 * (1.0 + 1e-5) + f32::MIN_POSITIVE)
            .execute();
        for item in &near {
            let j = item.item;
            if j == exclude {
                continue;
            }
            let o = offset(self.positions[j as usize], q, None);
            let d2 = o.length_squared();
            if d2 < r2 {
                out.push(Hit {
                    index: j,
                    slot: j,
                    offset: o,
                    d2,
                });
            }
        }
        keep_k_nearest(out, k + 1);
        if out.len() > k {
            let (kth, next) = (out[k - 1].d2, out[k].d2);
            // A clear gap after the k-th: nothing unseen can tie with it.
            if next > kth * (1.0 + 1e-5) + f32::MIN_POSITIVE {
                out.truncate(k);
                return;
            }
            // A tie (or a near one, where kiddo's rounding could differ from ours): take every
            // point at distance <= the k-th and break ties by index, as everywhere else.
            out.clear();
            let reach = (kth.sqrt() * (1.0 + 1e-4)).max(1e-18);
            self.for_each_within(q, reach.min(radius), exclude, |h| {
                if h.d2 <= kth {
                    out.push(h)
                }
            });
        }
        keep_k_nearest(out, k);
    }
}
