//! A point against a placed triangle mesh: the nearest point of its surface, and whether the
//! point is inside it. What bodies are pushed out of meshes with ([`crate::ground::contact`]).
//!
//! Both are exact in the sense of the casts: each triangle is tested in world space with the
//! same bits every time, and the hierarchy only prunes nodes that surely hold nothing nearer
//! (a lower bound on the distance, with a margin for the rounding of the change of space).

use super::bvh::slab;
use super::mesh::{MeshShape, Placement, ShapeData};
use super::prim::{closest_on_triangle, sweep_triangle};
use crate::fmath::{Extremes, Order};
use glam::Vec3;

/// The direction of the inside test's ray: (1, 2, 3) / √14, along no axis or diagonal, so that
/// a ray through an edge or a vertex of a mesh built on a grid is unlikely.
const PARITY_DIR: Vec3 = Vec3::new(0.267_261_24, 0.534_522_5, 0.801_783_7);

/// The nearest surface point found so far: (distance, point, triangle).
type Best = Option<(f32, Vec3, u32)>;

impl MeshShape {
    /// The point of this mesh, placed as `pl`, nearest to `p` and no farther than `limit`:
    /// its distance, the point and its triangle (ties: the lowest triangle index). `None` for
    /// a heightfield, or when no triangle is within `limit`.
    pub fn closest(&self, pl: &Placement, p: Vec3, limit: f32) -> Option<(f32, Vec3, u32)> {
        if !matches!(self.data, ShapeData::Mesh) || self.triangles.is_empty() || limit.is_nan() {
            return None;
        }
        let o = pl.xf.local_point(p);
        // The rounding of the change of space, far above a few ulps of the magnitudes.
        let size = (self.bounds().hi - self.bounds().lo).abs().largest();
        let slack = (o.abs().largest() + size) * pl.xf.scale.largest() * 2.0e-5 + 1.0e-30;
        let mut best: Best = None;
        let mut lim = limit;
        self.closest_in(0, pl, p, o, slack, &mut best, &mut lim);
        best
    }

    /// A lower bound of the world distance from `p` (at `o` in the shape's space) to any
    /// point of the shape-space box `[lo, hi]`.
    fn gap(lo: Vec3, hi: Vec3, o: Vec3, pl: &Placement, slack: f32) -> f32 {
        let d = (lo - o).at_least(o - hi).at_least(Vec3::ZERO);
        (pl.xf.scale * d).length() * (1.0 - 1.0e-5) - slack
    }

    #[allow(clippy::too_many_arguments)]
    fn closest_in(
        &self,
        node: u32,
        pl: &Placement,
        p: Vec3,
        o: Vec3,
        slack: f32,
        best: &mut Best,
        lim: &mut f32,
    ) {
        let n = self.bvh.nodes[node as usize];
        if Self::gap(n.lo, n.hi, o, pl, slack) > *lim {
            return;
        }
        if n.count > 0 {
            for &k in &self.bvh.order[n.first as usize..(n.first + n.count) as usize] {
                let (a, b, c) = self.mesh_triangle(pl, k);
                let q = closest_on_triangle(p, a, b, c);
                let d = (p - q).length();
                let better = match *best {
                    None => d <= *lim,
                    Some((bd, _, bk)) => d < bd || (d == bd && k < bk),
                };
                if better {
                    *best = Some((d, q, k));
                    *lim = d;
                }
            }
            return;
        }
        // The nearer child first: the other is then often pruned.
        let (l, r) = (n.first, n.first + 1);
        let nodes = &self.bvh.nodes;
        let gl = Self::gap(nodes[l as usize].lo, nodes[l as usize].hi, o, pl, slack);
        let gr = Self::gap(nodes[r as usize].lo, nodes[r as usize].hi, o, pl, slack);
        let (near, far) = if gr < gl { (r, l) } else { (l, r) };
        self.closest_in(near, pl, p, o, slack, best, lim);
        self.closest_in(far, pl, p, o, slack, best, lim);
    }

    /// Whether `p` is inside this mesh placed as `pl`: an odd number of its triangles cross a
    /// ray from `p` along a fixed direction. Meaningful for a closed mesh (a rock); an open
    /// one answers for the parity of its crossings. `false` for a heightfield and outside the
    /// placement's bounds.
    pub fn contains(&self, pl: &Placement, p: Vec3) -> bool {
        if !matches!(self.data, ShapeData::Mesh) || self.triangles.is_empty() {
            return false;
        }
        let b = &pl.bounds;
        if !(p.cmpge(b.lo).all() && p.cmple(b.hi).all()) {
            return false;
        }
        let xf = &pl.xf;
        let max = (b.hi - b.lo).length() * 2.0 + 1.0;
        let o = xf.local_point(p);
        let d = xf.local_vector(PARITY_DIR);
        let inv = Vec3::ONE / d;
        let size = (self.bounds().hi - self.bounds().lo).abs().largest();
        let span = o.abs().largest() + max * d.abs().largest() + size;
        let grow = Vec3::splat(span * 2.0e-5 + 1.0e-30);
        let ray = Ray {
            p,
            o,
            d,
            inv,
            grow,
            max,
        };
        self.crossings(0, pl, &ray) % 2 == 1
    }

    /// The triangles under `node` that `ray` crosses.
    fn crossings(&self, node: u32, pl: &Placement, ray: &Ray) -> u32 {
        let n = self.bvh.nodes[node as usize];
        if slab(n.lo, n.hi, ray.grow, ray.o, ray.d, ray.inv, f32::INFINITY).is_none() {
            return 0;
        }
        if n.count == 0 {
            return self.crossings(n.first, pl, ray) + self.crossings(n.first + 1, pl, ray);
        }
        let mut count = 0;
        for &k in &self.bvh.order[n.first as usize..(n.first + n.count) as usize] {
            let (a, b, c) = self.mesh_triangle(pl, k);
            if sweep_triangle(ray.p, 0.0, PARITY_DIR, ray.max, a, b, c).is_some() {
                count += 1;
            }
        }
        count
    }
}

/// The inside test's ray: from `p` along [`PARITY_DIR`] for `max` in world space; `o`, `d`,
/// `inv` the same in the shape's space, `grow` the nodes' margin.
struct Ray {
    p: Vec3,
    o: Vec3,
    d: Vec3,
    inv: Vec3,
    grow: Vec3,
    max: f32,
}
