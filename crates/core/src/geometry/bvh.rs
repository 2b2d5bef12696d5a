//! A bounding volume hierarchy over a triangle mesh: binned surface-area-heuristic build, a
//! flat array of 32-byte nodes, front-to-back traversal that keeps the nearest hit.
//!
//! The build is deterministic (plain float operations in a fixed order, stable partitions), so
//! every platform builds the same tree; the traversal visits every triangle whose swept bounds
//! reach the best distance found so far, and a triangle wins only with a smaller distance, or
//! the same distance and a lower index: the result never depends on the traversal order.

use super::Aabb;
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
    let d = (hi - lo).max(Vec3::ZERO);
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
                lo = lo.min(b.lo);
                hi = hi.max(b.hi);
                clo = clo.min(centre[i as usize]);
                chi = chi.max(centre[i as usize]);
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
                    blo[k] = blo[k].min(bounds[i as usize].lo);
                    bhi[k] = bhi[k].max(bounds[i as usize].hi);
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
                    rlo = rlo.min(blo[k]);
                    rhi = rhi.max(bhi[k]);
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
                    llo = llo.min(blo[k]);
                    lhi = lhi.max(bhi[k]);
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
    let near = t1.min(t2).max_element().max(0.0);
    let far = t1.max(t2).min_element().min(max);
    (near <= far).then_some(near)
}
