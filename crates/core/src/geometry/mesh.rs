//! Shape data uploaded once and placed many times: a triangle mesh (static, not necessarily
//! closed or convex, hit from both sides) with its bounding volume hierarchy, or a heightfield
//! (a grid of heights, two triangles a cell, with its min/max pyramid: `field`); and a
//! placement of one (position, rotation, per-axis scale), which moves in O(1): casts put the
//! vertices they test in world space, nothing is rebuilt or copied.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "`!(x > 0.0)` is meant: a NaN takes the refusing branch"
)]

use super::bvh::{Bvh, reaches, slab};
use super::field::{self, HeightGrid, Pyramid};
use super::prim::sweep_triangle;
use super::{Aabb, CastHit, keep_nearest};
use crate::fmath::{Extremes, Order};
use crate::limits::{self, MAX_MAGNITUDE};
use glam::{Quat, Vec3};

/// Most triangles in one mesh (its triangle list and hierarchy are held in memory).
pub const MAX_TRIANGLES: usize = 1 << 24;

/// Most samples in one heightfield: 2^26, an 8193 × 8193 grid (256 MB of heights, and its
/// min/max pyramid a third of that again). A heightfield stores no triangles, so it is
/// capped by its memory, not by [`MAX_TRIANGLES`]: a 4097 × 4097 Unity terrain is taken whole.
pub const MAX_HEIGHTFIELD_SAMPLES: usize = 1 << 26;

/// Most vertices in one mesh: three a triangle.
pub const MAX_VERTICES: usize = 3 * MAX_TRIANGLES;

/// Which kind of shape data.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeData {
    /// A triangle mesh.
    Mesh,
    /// A heightfield (its triangles are the grid's, never stored).
    Heightfield(HeightGrid),
}

/// Shape data in the shape's own space: a mesh's vertices, triangles and hierarchy, or a
/// heightfield's grid and pyramid.
#[derive(Clone, Debug)]
pub struct MeshShape {
    pub(super) data: ShapeData,
    /// A mesh's (empty for a heightfield).
    pub(super) vertices: Vec<Vec3>,
    /// A mesh's (empty for a heightfield).
    pub(super) triangles: Vec<[u32; 3]>,
    /// A mesh's (empty for a heightfield).
    pub(super) bvh: Bvh,
    /// A heightfield's (empty for a mesh).
    pyramid: Pyramid,
    bounds: Aabb,
    digest: u64,
}

impl PartialEq for MeshShape {
    /// The same shape: the same kind, vertices and triangles (the hierarchy follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
            && self.vertices == other.vertices
            && self.triangles == other.triangles
    }
}

impl MeshShape {
    /// A triangle mesh: `vertices` and `indices` (three a triangle, each below the vertex
    /// count). Refused, with a sentence naming the field: a non-finite or too large vertex, an
    /// index out of range, an index count that is not a multiple of 3, no triangle, more than
    /// [`MAX_TRIANGLES`].
    pub fn mesh(vertices: Vec<Vec3>, indices: &[u32]) -> Result<MeshShape, String> {
        if vertices.len() > MAX_VERTICES {
            return Err(format!(
                "mesh vertices: at most {MAX_VERTICES} (3 x 2^24) allowed, got {}",
                vertices.len()
            ));
        }
        for (i, v) in vertices.iter().enumerate() {
            limits::point(*v).map_err(|e| format!("mesh vertices[{i}] {e}"))?;
        }
        if !indices.len().is_multiple_of(3) {
            return Err(format!(
                "mesh indices: a multiple of 3 (three a triangle) needed, got {}",
                indices.len()
            ));
        }
        let n = indices.len() / 3;
        if n == 0 {
            return Err("mesh indices: no triangle (at least 3 indices needed)".into());
        }
        if n > MAX_TRIANGLES {
            return Err(format!(
                "mesh indices: at most {MAX_TRIANGLES} triangles (2^24) allowed, got {n}"
            ));
        }
        if let Some((k, &i)) = indices
            .iter()
            .enumerate()
            .find(|&(_, &i)| i as usize >= vertices.len())
        {
            return Err(format!(
                "mesh indices[{k}] is {i}, out of range for {} vertices",
                vertices.len()
            ));
        }
        let triangles = indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        Ok(MeshShape::build(ShapeData::Mesh, vertices, triangles))
    }

    /// A heightfield: `columns × rows` heights (x fastest), cells `cell_x × cell_z`. Refused,
    /// with a sentence naming the field: fewer than 2 samples a side (no cell), a height or
    /// cell size that is not finite, a cell size that is not positive, a grid larger than the
    /// world's limits, more than [`MAX_HEIGHTFIELD_SAMPLES`] samples.
    pub fn heightfield(
        columns: u32,
        rows: u32,
        cell_x: f32,
        cell_z: f32,
        heights: Vec<f32>,
    ) -> Result<MeshShape, String> {
        if columns < 2 || rows < 2 {
            return Err(format!(
                "heightfield columns and rows must be at least 2 (one cell), got {columns} x {rows}"
            ));
        }
        let samples = u64::from(columns) * u64::from(rows);
        if samples > MAX_HEIGHTFIELD_SAMPLES as u64 {
            return Err(format!(
                "heightfield: at most {MAX_HEIGHTFIELD_SAMPLES} samples (2^26, e.g. 8193 x 8193) \
                 allowed, got {samples} ({columns} x {rows})"
            ));
        }
        if heights.len() as u128 != u128::from(columns) * u128::from(rows) {
            return Err(format!(
                "heightfield heights: columns x rows = {} needed, got {}",
                u128::from(columns) * u128::from(rows),
                heights.len()
            ));
        }
        for (what, c) in [("cell_x", cell_x), ("cell_z", cell_z)] {
            if !(c > 0.0 && c <= MAX_MAGNITUDE) {
                return Err(format!(
                    "heightfield {what} must be finite and in (0, {}], got {c}",
                    limits::show(MAX_MAGNITUDE)
                ));
            }
        }
        for (what, size) in [
            ("columns", (columns - 1) as f32 * cell_x),
            ("rows", (rows - 1) as f32 * cell_z),
        ] {
            if !(size <= MAX_MAGNITUDE) {
                return Err(format!(
                    "heightfield {what} x cell size is {size}, beyond the world's limit {}",
                    limits::show(MAX_MAGNITUDE)
                ));
            }
        }
        for (i, &h) in heights.iter().enumerate() {
            limits::in_range(h, -MAX_MAGNITUDE, MAX_MAGNITUDE)
                .map_err(|e| format!("heightfield heights[{i}] {e}"))?;
        }
        let grid = HeightGrid {
            columns,
            rows,
            cell_x,
            cell_z,
            heights,
        };
        let pyramid = Pyramid::build(&grid);
        let (lo, hi) = grid
            .heights
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &y| {
                (lo.at_most(y), hi.at_least(y))
            });
        let bounds = Aabb {
            lo: Vec3::new(0.0, lo, 0.0),
            hi: grid.vertex(columns - 1, rows - 1).with_y(hi),
        };
        let data = ShapeData::Heightfield(grid);
        let digest = digest(&data, &[], &[]);
        Ok(MeshShape {
            data,
            vertices: Vec::new(),
            triangles: Vec::new(),
            bvh: Bvh::default(),
            pyramid,
            bounds,
            digest,
        })
    }

    fn build(data: ShapeData, vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> MeshShape {
        let tri_bounds: Vec<Aabb> = triangles
            .iter()
            .map(|t| {
                let (a, b, c) = (
                    vertices[t[0] as usize],
                    vertices[t[1] as usize],
                    vertices[t[2] as usize],
                );
                Aabb {
                    lo: a.at_most(b).at_most(c),
                    hi: a.at_least(b).at_least(c),
                }
            })
            .collect();
        let bvh = Bvh::build(&tri_bounds);
        let bounds = bvh
            .nodes
            .first()
            .map_or(Aabb::EMPTY, |n| Aabb { lo: n.lo, hi: n.hi });
        let digest = digest(&data, &vertices, &triangles);
        MeshShape {
            data,
            vertices,
            triangles,
            bvh,
            pyramid: Pyramid::default(),
            bounds,
            digest,
        }
    }

    /// A 64-bit digest of what the shape was made from (FNV-1a 64 of its kind, and of its
    /// vertices and triangles, or its grid and heights, bit for bit), computed once: the
    /// world's state hash covers shape data through it.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The kind of data and, for a heightfield, its grid.
    pub fn data(&self) -> &ShapeData {
        &self.data
    }

    /// `true` for a heightfield.
    pub fn is_heightfield(&self) -> bool {
        matches!(self.data, ShapeData::Heightfield(_))
    }

    /// A mesh's vertices and triangles (vertex indices) as uploaded; `None` for a
    /// heightfield, whose triangles are its grid's (see [`MeshShape::triangle`]).
    pub fn mesh_data(&self) -> Option<(&[Vec3], &[[u32; 3]])> {
        match self.data {
            ShapeData::Mesh => Some((&self.vertices, &self.triangles)),
            ShapeData::Heightfield(_) => None,
        }
    }

    /// Vertices: a mesh's, or a heightfield's samples (`columns × rows`).
    pub fn vertex_count(&self) -> usize {
        match &self.data {
            ShapeData::Mesh => self.vertices.len(),
            ShapeData::Heightfield(g) => g.heights.len(),
        }
    }

    /// Vertex `i` (below [`MeshShape::vertex_count`]) in the shape's space; a heightfield's
    /// sample `i` is column `i % columns` of row `i / columns`.
    pub fn vertex(&self, i: u32) -> Vec3 {
        match &self.data {
            ShapeData::Mesh => self.vertices[i as usize],
            ShapeData::Heightfield(g) => g.sample(i),
        }
    }

    /// Triangles: a mesh's, or two a heightfield cell.
    pub fn triangle_count(&self) -> usize {
        match &self.data {
            ShapeData::Mesh => self.triangles.len(),
            ShapeData::Heightfield(g) => {
                let (cx, cz) = g.cells();
                2 * cx as usize * cz as usize
            }
        }
    }

    /// Triangle `k` (below [`MeshShape::triangle_count`]): its vertex indices. A heightfield's
    /// triangle `2c` is cell `c`'s lower half (samples 00, 10, 11), `2c + 1` its upper half
    /// (00, 11, 01), cells row-major, x fastest.
    pub fn triangle(&self, k: u32) -> [u32; 3] {
        match &self.data {
            ShapeData::Mesh => self.triangles[k as usize],
            ShapeData::Heightfield(g) => g.triangle(k),
        }
    }

    /// Bounds of every vertex, in the shape's space.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Heap bytes held (a mesh's vertices, triangles and hierarchy; a heightfield's grid and
    /// pyramid).
    pub fn heap_bytes(&self) -> usize {
        self.vertices.capacity() * 12
            + self.triangles.capacity() * 12
            + self.bvh.heap_bytes()
            + self.pyramid.heap_bytes()
            + match &self.data {
                ShapeData::Heightfield(g) => g.heights.capacity() * 4,
                ShapeData::Mesh => 0,
            }
    }

    /// Triangle `k` of a placement, in world space.
    #[inline]
    pub fn world_triangle(&self, pl: &Placement, k: u32) -> (Vec3, Vec3, Vec3) {
        let t = self.triangle(k);
        let w = |i: u32| pl.xf.point(self.vertex(i));
        (w(t[0]), w(t[1]), w(t[2]))
    }

    /// A mesh triangle of a placement in world space (the hot loop's: no kind test).
    #[inline]
    pub(super) fn mesh_triangle(&self, pl: &Placement, k: u32) -> (Vec3, Vec3, Vec3) {
        let t = self.triangles[k as usize];
        let v = &self.vertices;
        let xf = &pl.xf;
        (
            xf.point(v[t[0] as usize]),
            xf.point(v[t[1] as usize]),
            xf.point(v[t[2] as usize]),
        )
    }

    /// The first hit of a ray (`r == 0`) or of a sphere of radius `r` swept from `origin` along
    /// the unit `dir` for up to `max`, against this shape placed as `pl`: the nearest triangle
    /// (ties: the lowest triangle index), with its index. Each triangle answers as
    /// [`sweep_triangle`] does, in world space.
    pub fn cast(
        &self,
        pl: &Placement,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max: f32,
    ) -> Option<(CastHit, u32)> {
        self.traverse::<false>(pl, origin, r, dir, max)
    }

    /// Whether [`MeshShape::cast`] would hit anything: the same test, stopping at the first
    /// triangle found within `max` (the free-direction search asks only this, for up to 300
    /// directions a boid).
    pub fn hits(&self, pl: &Placement, origin: Vec3, r: f32, dir: Vec3, max: f32) -> bool {
        self.hit_triangle(pl, origin, r, dir, max).is_some()
    }

    /// The triangle [`MeshShape::hits`] finds first, if any (its index).
    pub fn hit_triangle(
        &self,
        pl: &Placement,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max: f32,
    ) -> Option<u32> {
        self.traverse::<true>(pl, origin, r, dir, max)
            .map(|(_, k)| k)
    }

    /// Whether triangle `k` of this shape placed as `pl` is hit: exactly the test every
    /// traversal makes of it ([`sweep_triangle`] on the same world-space vertices, in the same
    /// order), so a `true` here means [`MeshShape::hits`] is `true` too.
    pub fn triangle_hits(
        &self,
        pl: &Placement,
        k: u32,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max: f32,
    ) -> bool {
        let (a, b, c) = self.world_triangle(pl, k);
        sweep_triangle(origin, r, dir, max, a, b, c).is_some()
    }

    /// The hierarchy's traversal: the nearest hit, or (`ANY`) the first found.
    #[inline]
    fn traverse<const ANY: bool>(
        &self,
        pl: &Placement,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max: f32,
    ) -> Option<(CastHit, u32)> {
        // The sweep in the shape's space: a point moves to o + t d (t the world distance), and
        // the world sphere becomes an axis-aligned ellipsoid of semi-axes r / scale. Nodes are
        // tested grown by that and a margin for the rounding of the change of space, so they
        // never cut off a triangle the exact test in world space would hit.
        let xf = &pl.xf;
        let o = xf.local_point(origin);
        let d = xf.local_vector(dir);
        let inv = Vec3::ONE / d;
        let size = (self.bounds.hi - self.bounds.lo).abs().largest();
        let span = o.abs().largest() + max * d.abs().largest() + size;
        let grow = xf.inv_scale * r * 1.0001 + Vec3::splat(span * 2.0e-5 + 1.0e-30);
        if let ShapeData::Heightfield(g) = &self.data {
            let local = field::Local { o, d, inv, grow };
            let world = |p: Vec3| xf.point(p);
            return field::traverse::<ANY>(g, &self.pyramid, &world, &local, origin, r, dir, max);
        }
        let mut best: Option<(CastHit, u32)> = None;
        let mut limit = max;
        let nodes = &self.bvh.nodes;
        let mut stack: [u32; 64] = [0; 64];
        let mut top = 0usize;
        let root = &nodes[0];
        slab(root.lo, root.hi, grow, o, d, inv, limit)?;
        let mut node = 0u32;
        loop {
            let n = &nodes[node as usize];
            if n.count > 0 {
                for &k in &self.bvh.order[n.first as usize..(n.first + n.count) as usize] {
                    // The triangle's own box first, as the nodes' (in the shape's space, the
                    // same margin): most are passed over before their vertices are placed.
                    let t = self.triangles[k as usize];
                    let v = &self.vertices;
                    let (la, lb, lc) = (v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]);
                    let (lo, hi) = (la.at_most(lb).at_most(lc), la.at_least(lb).at_least(lc));
                    if slab(lo, hi, grow, o, d, inv, limit).is_none()
                        || !reaches(lo, hi, grow, o, d, limit)
                    {
                        continue;
                    }
                    let (a, b, c) = (xf.point(la), xf.point(lb), xf.point(lc));
                    if let Some(h) = sweep_triangle(origin, r, dir, limit, a, b, c) {
                        if ANY {
                            return Some((h, k));
                        }
                        keep_nearest(&mut best, &mut limit, h, k);
                    }
                }
            } else {
                let (l, rgt) = (n.first, n.first + 1);
                let (ln, rn) = (&nodes[l as usize], &nodes[rgt as usize]);
                let tl = slab(ln.lo, ln.hi, grow, o, d, inv, limit);
                let tr = slab(rn.lo, rn.hi, grow, o, d, inv, limit);
                match (tl, tr) {
                    (Some(a), Some(b)) => {
                        let (near, far) = if b < a { (rgt, l) } else { (l, rgt) };
                        if top < stack.len() {
                            stack[top] = far;
                            top += 1;
                            node = near;
                            continue;
                        }
                        // Deeper than the stack (a degenerate tree): both, the far one later.
                        self.walk(
                            pl, far, origin, r, dir, o, d, inv, grow, &mut best, &mut limit,
                        );
                        node = near;
                        continue;
                    }
                    (Some(_), None) => {
                        node = l;
                        continue;
                    }
                    (None, Some(_)) => {
                        node = rgt;
                        continue;
                    }
                    (None, None) => {}
                }
            }
            // Pop the next node whose bounds the best hit so far has not gone past.
            loop {
                if top == 0 {
                    return best;
                }
                top -= 1;
                let m = &nodes[stack[top] as usize];
                if slab(m.lo, m.hi, grow, o, d, inv, limit).is_some() {
                    node = stack[top];
                    break;
                }
            }
        }
    }

    /// The recursive walk of one subtree (used past the traversal's fixed stack).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        pl: &Placement,
        node: u32,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        o: Vec3,
        d: Vec3,
        inv: Vec3,
        grow: Vec3,
        best: &mut Option<(CastHit, u32)>,
        limit: &mut f32,
    ) {
        let n = &self.bvh.nodes[node as usize];
        if slab(n.lo, n.hi, grow, o, d, inv, *limit).is_none() {
            return;
        }
        if n.count > 0 {
            for &k in &self.bvh.order[n.first as usize..(n.first + n.count) as usize] {
                let (a, b, c) = self.mesh_triangle(pl, k);
                if let Some(h) = sweep_triangle(origin, r, dir, *limit, a, b, c) {
                    keep_nearest(best, limit, h, k);
                }
            }
        } else {
            for c in [n.first, n.first + 1] {
                self.walk(pl, c, origin, r, dir, o, d, inv, grow, best, limit);
            }
        }
    }

    /// [`MeshShape::cast`] by brute force: every triangle, in index order. The oracle the
    /// hierarchy is tested against (the same bits).
    pub fn cast_brute(
        &self,
        pl: &Placement,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max: f32,
    ) -> Option<(CastHit, u32)> {
        let mut best: Option<(CastHit, u32)> = None;
        for k in 0..self.triangle_count() as u32 {
            let (a, b, c) = self.world_triangle(pl, k);
            if let Some(h) = sweep_triangle(origin, r, dir, max, a, b, c)
                && best.is_none_or(|(bh, _)| h.distance < bh.distance)
            {
                best = Some((h, k));
            }
        }
        best
    }
}

/// The digest of [`MeshShape::digest`].
fn digest(data: &ShapeData, vertices: &[Vec3], triangles: &[[u32; 3]]) -> u64 {
    let mut h = crate::fnv::Fnv1a::new();
    match data {
        ShapeData::Mesh => {
            h.bytes(b"mesh");
            h.u32(vertices.len() as u32);
            for v in vertices {
                for c in v.to_array() {
                    h.u32(c.to_bits());
                }
            }
            h.u32(triangles.len() as u32);
            for t in triangles {
                for &i in t {
                    h.u32(i);
                }
            }
        }
        ShapeData::Heightfield(g) => {
            h.bytes(b"heightfield");
            h.u32(g.columns);
            h.u32(g.rows);
            h.u32(g.cell_x.to_bits());
            h.u32(g.cell_z.to_bits());
            for &y in &g.heights {
                h.u32(y.to_bits());
            }
        }
    }
    h.finish()
}

/// Shape data placed in the world: the transform and the world bounds. O(1) to make: casts
/// put each vertex they test in world space ([`Transform::point`], the same bits every time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Where the shape goes.
    pub xf: Transform,
    /// World bounds, grown by a margin for rounding.
    pub bounds: Aabb,
}

impl Placement {
    /// `shape` placed by `xf`.
    pub fn new(shape: &MeshShape, xf: Transform) -> Placement {
        Placement {
            xf,
            bounds: xf.bounds(shape.bounds),
        }
    }

    /// Whether a sphere of radius `r` swept from `origin` along `dir` for up to `max` can reach
    /// the world bounds (false only when it surely cannot): the test before every cast.
    #[inline]
    pub fn reaches(&self, origin: Vec3, r: f32, dir: Vec3, max: f32) -> bool {
        let inv = Vec3::ONE / dir;
        slab(
            self.bounds.lo,
            self.bounds.hi,
            Vec3::splat(r),
            origin,
            dir,
            inv,
            max,
        )
        .is_some()
    }
}

/// Where a placement puts its shape: `world = position + rotation * (scale * local)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Position of the shape's origin.
    pub position: Vec3,
    /// Unit rotation.
    pub rotation: Quat,
    /// Scale along each of the shape's axes (> 0).
    pub scale: Vec3,
    inv_rotation: Quat,
    inv_scale: Vec3,
}

impl Transform {
    /// A transform from a (validated: finite, unit rotation, positive scale) pose.
    pub fn new(position: Vec3, rotation: Quat, scale: Vec3) -> Transform {
        Transform {
            position,
            rotation,
            scale,
            inv_rotation: rotation.conjugate(),
            inv_scale: Vec3::ONE / scale,
        }
    }

    /// A point of the shape's space in world space.
    #[inline]
    pub fn point(&self, p: Vec3) -> Vec3 {
        self.position + self.rotation * (self.scale * p)
    }

    /// A world point in the shape's space.
    #[inline]
    pub fn local_point(&self, p: Vec3) -> Vec3 {
        (self.inv_rotation * (p - self.position)) * self.inv_scale
    }

    /// A world vector in the shape's space.
    #[inline]
    pub fn local_vector(&self, v: Vec3) -> Vec3 {
        (self.inv_rotation * v) * self.inv_scale
    }

    /// The world bounds of the shape-space box `b`, grown by a margin for rounding.
    pub fn bounds(&self, b: Aabb) -> Aabb {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for k in 0..8 {
            let c = Vec3::new(
                if k & 1 == 0 { b.lo.x } else { b.hi.x },
                if k & 2 == 0 { b.lo.y } else { b.hi.y },
                if k & 4 == 0 { b.lo.z } else { b.hi.z },
            );
            let p = self.point(c);
            lo = lo.at_most(p);
            hi = hi.at_least(p);
        }
        let margin = Vec3::splat(
            (hi - lo)
                .largest()
                .at_least(lo.abs().at_least(hi.abs()).largest())
                * 4.0e-6,
        );
        Aabb {
            lo: lo - margin,
            hi: hi + margin,
        }
    }
}
