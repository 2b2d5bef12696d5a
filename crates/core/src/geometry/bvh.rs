//! A bounding volume hierarchy over a triangle mesh: binned surface-area-heuristic build, a
//! flat array of 32-byte nodes, front-to-back traversal that keeps the nearest hit.
//!
//! The build is deterministic (plain float operations in a fixed order, stable partitions), so
//! every platform builds the same tree; the traversal visits every triangle whose swept bounds
//! reach the best distance found so far, and a triangle wins only with a smaller distance, or
//! the same distance and a lower index: the result never depends on the traversal order.

use super::Aabb;
use crate::fmath::{Extremes, Order};
use glam::Vec3;

/// Triangles at most in a leaf.
const LEAF: usize = 4;
/// Bins of the surface-area heuristic.
const BINS: usize = 16;

/// One node: its bounds, and either two children (`count == 0`: `first` and `first + 1`) or a
/// leaf's run of `order` (`first .. first + count`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub lo: Vec3,
    pub first: u32,
    pub hi: Vec3,
    pub count: u32,
}

/// The hierarchy: nodes (the root first) and the triangle order the leaves index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bvh {
    pub nodes: Vec<Node>,
    pub order: Vec<u32>,
}

fn area(lo: Vec3, hi: Vec3) -> f32 {
    let d = (hi - lo).at_least(Vec3::ZERO);
    (d.x * d.y + d.y * d.z) + d.z * d.x
}

impl Bvh {
    /// Builds the hierarchy over triangles with the given bounds.
    pub fn build(bounds: &[Aabb]) -> Bvh {
        let n = bounds.len();
        let centre: Vec<Vec3> = bounds.iter().map(|b| (b.lo + b.hi) * 0.5).collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut nodes = Vec::with_capacity(2 * n.div_ceil(LEAF) + 1);
        nodes.push(Node {
            lo: Vec3::ZERO,
            first: 0,
            hi: Vec3::ZERO,
            count: 0,
        });
        // (node, start, end) still to split.
        let mut todo = vec![(0usize, 0usize, n)];
        let mut left = Vec::new();
        let mut right = Vec::new();
        while let Some((node, start, end)) = todo.pop() {
            let items = &order[start..end];
            let mut lo = Vec3::splat(f32::INFINITY);
            let mut hi = Vec3::splat(f32::NEG_INFINITY);
            let mut clo = lo;
            let mut chi = hi;
            for &i in items {
                let b = &bounds[i as usize];
                lo = lo.at_most(b.lo);
                hi = hi.at_least(b.hi);
                clo = clo.at_most(centre[i as usize]);
                chi = chi.at_least(centre[i as usize]);
            }
            nodes[node].lo = lo;
            nodes[node].hi = hi;
            let leaf = |nodes: &mut Vec<Node>| {
                nodes[node].first = start as u32;
                nodes[node].count = (end - start) as u32;
            };
            let count = end - start;
            if count <= LEAF {
                leaf(&mut nodes);
                continue;
            }
            // The axis of widest centroid spread; all centroids equal: one leaf (rare, small
            // or degenerate input), split in halves by position in the order otherwise.
            let ext = chi - clo;
            let axis = if ext.x >= ext.y && ext.x >= ext.z {
                0
            } else if ext.y >= ext.z {
                1
            } else {
                2
            };
            let mid = if ext[axis] > 0.0 {
                let scale = BINS as f32 / ext[axis];
                let bin = |i: u32| {
                    (((centre[i as usize][axis] - clo[axis]) * scale) as usize).min(BINS - 1)
                };
                let mut blo = [Vec3::splat(f32::INFINITY); BINS];
                let mut bhi = [Vec3::splat(f32::NEG_INFINITY); BINS];
                let mut bn = [0usize; BINS];
                for &i in items {
                    let k = bin(i);
                    blo[k] = blo[k].at_most(bounds[i as usize].lo);
                    bhi[k] = bhi[k].at_least(bounds[i as usize].hi);
                    bn[k] += 1;
                }
                // Sweep from the right, then from the left: the cost of each split plane.
                let mut right_cost = [0.0f32; BINS];
                let (mut rlo, mut rhi, mut rn) = (
                    Vec3::splat(f32::INFINITY),
                    Vec3::splat(f32::NEG_INFINITY),
                    0,
                );
                for k in (1..BINS).rev() {
                    rlo = rlo.at_most(blo[k]);
                    rhi = rhi.at_least(bhi[k]);
                    rn += bn[k];
                    right_cost[k] = area(rlo, rhi) * rn as f32;
                }
                let (mut llo, mut lhi, mut ln) = (
                    Vec3::splat(f32::INFINITY),
                    Vec3::splat(f32::NEG_INFINITY),
                    0,
                );
                let mut best = (f32::INFINITY, 0usize);
                for k in 0..BINS - 1 {
                    llo = llo.at_most(blo[k]);
                    lhi = lhi.at_least(bhi[k]);
                    ln += bn[k];
                    if ln == 0 || ln == count {
                        continue;
                    }
                    let cost = area(llo, lhi) * ln as f32 + right_cost[k + 1];
                    if cost < best.0 {
                        best = (cost, k + 1);
                    }
                }
                if best.0.is_finite() {
                    // A stable partition: bins below the split keep their order on the left.
                    left.clear();
                    right.clear();
                    for &i in items {
                        if bin(i) < best.1 {
                            left.push(i);
                        } else {
                            right.push(i);
                        }
                    }
                    let m = left.len();
                    order[start..start + m].copy_from_slice(&left);
                    order[start + m..end].copy_from_slice(&right);
                    start + m
                } else {
                    start + count / 2
                }
            } else {
                start + count / 2
            };
            let first = nodes.len();
            nodes[node].first = first as u32;
            nodes[node].count = 0;
            for _ in 0..2 {
                nodes.push(Node {
                    lo: Vec3::ZERO,
                    first: 0,
                    hi: Vec3::ZERO,
                    count: 0,
                });
            }
            todo.push((first + 1, mid, end));
            todo.push((first, start, mid));
        }
        Bvh { nodes, order }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.order.capacity() * 4
    }
}

/// The entry distance of the segment `origin + t dir`, `0 <= t <= max` into the box grown by
/// `grow` on each axis, or `None`. `inv` holds `1 / dir` (infinite on a zero axis).
///
/// Branch-free: on an axis where `dir` is 0, the products are ±∞ (the origin outside the slab:
/// both on one side, rejected; inside: no constraint); `min` and `max` ignore the NaN of an
/// origin exactly on a face there, which then counts as outside (a measure-zero case, and the
/// node boxes carry a margin).
#[inline]
pub(crate) fn slab(
    lo: Vec3,
    hi: Vec3,
    grow: Vec3,
    origin: Vec3,
    _dir: Vec3,
    inv: Vec3,
    max: f32,
) -> Option<f32> {
    let t1 = (lo - grow - origin) * inv;
    let t2 = (hi + grow - origin) * inv;
    let near = t1.at_most(t2).largest().at_least(0.0);
    let far = t1.at_least(t2).smallest().at_most(max);
    (near <= far).then_some(near)
}

/// Whether the box `[lo, hi]` may reach within the sweep's ellipsoid of the segment
/// `origin + t dir`, `0 <= t <= max`: `false` only when the ball bounding the box lies wholly
/// outside the segment grown by the ellipsoid of semi-axes `grow`. A test in the space scaled
/// by `1 / grow`, where that ellipsoid is the unit ball; it keeps every box the [`slab`] test
/// passes but the sphere cannot touch (beside an edge of the swept sphere's square bounds).
/// The margin covers the rounding of the distance (well above a few ulps of the magnitudes).
#[inline(always)]
pub(crate) fn reaches(lo: Vec3, hi: Vec3, grow: Vec3, origin: Vec3, dir: Vec3, max: f32) -> bool {
    let s = Vec3::ONE / grow;
    let c = (lo + hi) * 0.5 * s;
    let e = ((hi - lo) * 0.5 * s).length();
    let o = origin * s;
    let d = dir * s;
    let rel = c - o;
    let dd = d.dot(d);
    let t = if dd > 0.0 {
        (rel.dot(d) / dd).clamp(0.0, max)
    } else {
        0.0
    };
    let gap = (rel - d * t).length();
    let slack = 1.0e-5 * (c.abs().largest() + o.abs().largest() + max * d.abs().largest());
    gap <= 1.0 + e + slack
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The distance in the scaled space from the segment to the box, in f64: the distance to the
    /// box is convex along the segment, so a ternary search finds its minimum.
    fn gap(lo: Vec3, hi: Vec3, grow: Vec3, o: Vec3, d: Vec3, max: f32) -> f64 {
        let f = |v: Vec3| [v.x as f64, v.y as f64, v.z as f64];
        let (lo, hi, g, o, d) = (f(lo), f(hi), f(grow), f(o), f(d));
        let at = |t: f64| {
            (0..3)
                .map(|k| {
                    let p = o[k] + d[k] * t;
                    let q = p.clamp(lo[k], hi[k]);
                    ((p - q) / g[k]).powi(2)
                })
                .sum::<f64>()
                .sqrt()
        };
        let (mut a, mut b) = (0.0f64, max as f64);
        for _ in 0..200 {
            let (m1, m2) = (a + (b - a) / 3.0, b - (b - a) / 3.0);
            if at(m1) <= at(m2) {
                b = m2;
            } else {
                a = m1;
            }
        }
        at(0.0).at_most(at(max as f64)).at_most(at((a + b) / 2.0))
    }

    #[test]
    fn reaches_keeps_every_box_the_ellipsoid_touches_and_drops_far_corners() {
        let mut rng = Rng::keyed(44, 0, 0, 0);
        let mut u = || rng.next_f32();
        let (mut kept_touching, mut dropped) = (0, 0);
        for i in 0..200_000 {
            let grow = Vec3::new(0.05 + u(), 0.05 + u(), 0.05 + u()) * 0.5;
            let o = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 40.0;
            let d = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5).normalize() * (0.5 + u());
            let max = u() * 4.0;
            // A box near the segment, its size from tiny cells to blocks of many.
            let size = if i % 2 == 0 { 0.02 } else { 2.0 } * Vec3::new(u(), u(), u());
            let near = o + d * (max * u()) + Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 3.0;
            let (lo, hi) = (near - size, near + size);
            let g = gap(lo, hi, grow, o, d, max);
            let r = reaches(lo, hi, grow, o, d, max);
            if g <= 1.0 {
                assert!(
                    r,
                    "dropped a box at scaled gap {g}: {lo} {hi} {grow} {o} {d} {max}"
                );
                kept_touching += 1;
            } else if !r {
                dropped += 1;
            }
        }
        assert!(
            kept_touching > 10_000 && dropped > 50_000,
            "{kept_touching} {dropped}"
        );
    }

    #[test]
    fn reaches_drops_a_cell_beside_the_sweeps_square_bounds() {
        // A unit sphere swept along x; a tiny cell at (1, 0.9, 0.9): inside the square bounds
        // (the slab test keeps it) but 1.27 from the axis (the sphere cannot touch it).
        let grow = Vec3::ONE;
        let (lo, hi) = (Vec3::new(1.0, 0.9, 0.9), Vec3::new(1.01, 0.91, 0.91));
        let (o, d) = (Vec3::ZERO, Vec3::X);
        assert!(slab(lo, hi, grow, o, d, Vec3::ONE / d, 2.0).is_some());
        assert!(!reaches(lo, hi, grow, o, d, 2.0));
        // Moved to 0.7, 0.7 (0.99 from the axis, less its half diagonal): kept.
        let s = Vec3::new(0.0, 0.2, 0.2);
        assert!(reaches(lo - s, hi - s, grow, o, d, 2.0));
    }
}
