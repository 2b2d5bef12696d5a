//! Exact casts against one primitive: a triangle (both sides), a capsule, a box with a rotation,
//! a ball. Each answers as Unity's `Raycast` / `SphereCast` do for one collider: the first
//! contact of a ray (radius 0) or of a sphere swept along a unit direction, its distance and
//! the surface normal there (pointing back toward the caster).
//!
//! Only operations with one correctly rounded result are used (add, subtract, multiply,
//! divide, square root, compare), never a fused multiply-add, so every platform computes the
//! same bits.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "`!(x > 0.0)` is meant: a NaN takes the refusing branch"
)]

use super::CastHit;
use crate::fmath::{Extremes, Order};
use crate::math::normalize_or_zero;
use glam::Vec3;

/// The point of triangle `abc` closest to `p` (Ericson, Real-Time Collision Detection 5.1.5),
/// for any triangle, degenerate ones included.
pub fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let ab = b - a;
    let ac = c - a;
    if is_sliver(ab, ac) {
        // Ericson's regions assume an area: a sliver is the nearest of its three edges.
        return nearest_edge_point(p, a, b, c);
    }
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let den = d1 - d3;
        return if den > 0.0 { a + ab * (d1 / den) } else { a };
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let den = d2 - d6;
        return if den > 0.0 { a + ac * (d2 / den) } else { a };
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let den = (d4 - d3) + (d5 - d6);
        return if den > 0.0 {
            b + (c - b) * ((d4 - d3) / den)
        } else {
            b
        };
    }
    let den = va + vb + vc;
    if !(den > 0.0) {
        return nearest_edge_point(p, a, b, c);
    }
    let v = vb / den;
    let w = vc / den;
    a + ab * v + ac * w
}

/// Whether the triangle with edges `e1`, `e2` from one corner is a sliver: the sine of the
/// angle between them below 1e-4 (no area, or so little that the cross product's rounding is
/// near its size). Such a triangle is treated as the segment or point it nearly is.
pub fn is_sliver(e1: Vec3, e2: Vec3) -> bool {
    e1.cross(e2).length_squared() <= 1.0e-8 * (e1.length_squared() * e2.length_squared())
}

/// The nearest to `p` of the points closest on the three edges of `a b c`.
fn nearest_edge_point(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let on = |p0: Vec3, p1: Vec3| closest_on_segment(p, p0, p1);
    let (e0, e1, e2) = (on(a, b), on(b, c), on(c, a));
    let (d0, d1, d2) = (
        (p - e0).length_squared(),
        (p - e1).length_squared(),
        (p - e2).length_squared(),
    );
    if d0 <= d1 && d0 <= d2 {
        e0
    } else if d1 <= d2 {
        e1
    } else {
        e2
    }
}

/// The point of segment `p0 p1` closest to `p`.
pub fn closest_on_segment(p: Vec3, p0: Vec3, p1: Vec3) -> Vec3 {
    let ab = p1 - p0;
    let m = ab.length_squared();
    if !(m > 0.0) {
        return p0;
    }
    let s = ((p - p0).dot(ab) / m).clamp(0.0, 1.0);
    p0 + ab * s
}

/// A ray (`origin + t dir`, `0 <= t <= max`) against a ball: the entry, or `None` when the
/// origin is inside (or on) it or it is missed.
///
/// The discriminant is computed from the ray's closest approach to the centre (`r² - |f|²`,
/// Haines et al., "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems 7),
/// not as `b² - c`, which cancels catastrophically for a small ball far from the origin.
pub fn ray_ball(origin: Vec3, dir: Vec3, centre: Vec3, radius: f32, max: f32) -> Option<CastHit> {
    let m = origin - centre;
    let b = m.dot(dir);
    let c = m.length_squared() - radius * radius;
    if c <= 0.0 || b > 0.0 {
        return None;
    }
    let f = m - dir * b;
    let disc = radius * radius - f.length_squared();
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()).at_least(0.0);
    (t <= max).then(|| CastHit {
        distance: t,
        normal: normalize_or_zero(origin + dir * t - centre),
    })
}

/// A ray against the side of the cylinder of radius `r` around segment `p0 p1` (only where
/// the contact projects onto the segment; the ends are balls, tested apart). The origin must be
/// outside the capsule.
///
/// Solved from the ray's closest approach to the axis, in components perpendicular to it, so
/// that a thin cylinder far from the origin keeps its precision (the textbook quadratic in
/// `t` subtracts squares of the origin's distance and loses it all).
fn ray_cylinder_side(
    origin: Vec3,
    dir: Vec3,
    p0: Vec3,
    p1: Vec3,
    r: f32,
    max: f32,
) -> Option<CastHit> {
    let ab = p1 - p0;
    let len = ab.length();
    if !(len > 0.0) {
        return None;
    }
    let u = ab / len;
    let w = origin - p0;
    let du = dir.dot(u);
    let wu = w.dot(u);
    let dp = dir - u * du;
    let wp = w - u * wu;
    let a = dp.length_squared();
    if !(a > 0.0) {
        // Along the axis: only the end balls can be met first.
        return None;
    }
    let b = wp.dot(dp);
    if b >= 0.0 {
        return None; // moving away from the axis
    }
    // The closest approach to the axis, and how far from it the ray passes there.
    let tc = -b / a;
    let f = wp + dp * tc;
    let disc = (r * r - f.length_squared()) / a;
    if disc < 0.0 {
        return None;
    }
    let t = (tc - disc.sqrt()).at_least(0.0);
    if t > max {
        return None;
    }
    let s = wu + du * t;
    if !(0.0..=len).contains(&s) {
        return None;
    }
    let hit = origin + dir * t;
    Some(CastHit {
        distance: t,
        normal: normalize_or_zero(hit - (p0 + u * s)),
    })
}

/// The earlier of two hits (the first on a tie).
fn earlier(a: Option<CastHit>, b: Option<CastHit>) -> Option<CastHit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.distance < x.distance { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// A ray against a capsule (segment `p0 p1`, radius `r`), a solid: `None` when the origin is
/// inside or on it.
pub fn ray_capsule(
    origin: Vec3,
    dir: Vec3,
    p0: Vec3,
    p1: Vec3,
    r: f32,
    max: f32,
) -> Option<CastHit> {
    if (origin - closest_on_segment(origin, p0, p1)).length_squared() <= r * r {
        return None;
    }
    let side = ray_cylinder_side(origin, dir, p0, p1, r, max);
    let ends = earlier(
        ray_ball(origin, dir, p0, r, max),
        ray_ball(origin, dir, p1, r, max),
    );
    earlier(side, ends)
}

/// Distance from `p` to the box of half extents `h` centred on the origin (axis aligned).
fn box_distance_squared(p: Vec3, h: Vec3) -> f32 {
    let q = (p.abs() - h).at_least(Vec3::ZERO);
    q.length_squared()
}

/// A ray against the box of half extents `h` centred on the origin, grown by `r` with rounded
/// edges and corners (the region within `r` of the box: what a sphere of radius `r` swept along
/// the ray first touches). A solid: `None` when the origin is within `r` of the box.
pub fn ray_rounded_box(origin: Vec3, dir: Vec3, h: Vec3, r: f32, max: f32) -> Option<CastHit> {
    if box_distance_squared(origin, h) <= r * r {
        return None;
    }
    // The box grown by r on every face (square edges): the ray's entry into it.
    let e = h + Vec3::splat(r);
    let (mut t0, mut t1) = (0.0f32, max);
    let mut axis = usize::MAX;
    for a in 0..3 {
        if dir[a] == 0.0 {
            if origin[a] < -e[a] || origin[a] > e[a] {
                return None;
            }
            continue;
        }
        let inv = 1.0 / dir[a];
        let (mut near, mut far) = ((-e[a] - origin[a]) * inv, (e[a] - origin[a]) * inv);
        if near > far {
            std::mem::swap(&mut near, &mut far);
        }
        if near > t0 || axis == usize::MAX && near >= t0 {
            t0 = near;
            axis = a;
        }
        t1 = t1.at_most(far);
        if t0 > t1 {
            return None;
        }
    }
    // The origin inside the grown box (and, by the test above, outside the rounded one): it is
    // in an edge or corner region, where the contact is with a rounded edge or corner, from t 0.
    let p = if axis == usize::MAX {
        origin
    } else {
        origin + dir * t0
    };
    // Which axes the entry point lies beyond the (unrounded) box on.
    let out: [bool; 3] = [p.x.abs() > h.x, p.y.abs() > h.y, p.z.abs() > h.z];
    let outside = out.iter().filter(|&&o| o).count();
    if outside <= 1 && axis != usize::MAX {
        let mut n = Vec3::ZERO;
        n[axis] = if p[axis] < 0.0 { -1.0 } else { 1.0 };
        return Some(CastHit {
            distance: t0,
            normal: n,
        });
    }
    // An edge or corner region: the contact is with a rounded edge (a capsule along the box
    // edge), or, at a corner, with the first of the three edges meeting there.
    let corner = Vec3::new(
        if p.x < 0.0 { -h.x } else { h.x },
        if p.y < 0.0 { -h.y } else { h.y },
        if p.z < 0.0 { -h.z } else { h.z },
    );
    let mut best = None;
    for w in 0..3 {
        // The edge along axis w through the corner; in an edge region only the edge whose
        // other two axes are both outside.
        if outside == 2 && out[w] {
            continue;
        }
        let mut p0 = corner;
        let mut p1 = corner;
        p0[w] = -h[w];
        p1[w] = h[w];
        best = earlier(best, ray_capsule_from_outside(origin, dir, p0, p1, r, max));
    }
    best
}

/// [`ray_capsule`] for an origin known to be outside the capsule (checked by the caller against
/// a larger region).
fn ray_capsule_from_outside(
    origin: Vec3,
    dir: Vec3,
    p0: Vec3,
    p1: Vec3,
    r: f32,
    max: f32,
) -> Option<CastHit> {
    let side = ray_cylinder_side(origin, dir, p0, p1, r, max);
    let ends = earlier(
        ray_ball(origin, dir, p0, r, max),
        ray_ball(origin, dir, p1, r, max),
    );
    earlier(side, ends)
}

/// A ray (`r == 0`) or a sphere of radius `r` swept from `origin` along the unit `dir`, for up
/// to `max`, against the triangle `a b c`, hit from both sides (a surface, not a solid).
///
/// A sphere that already overlaps the triangle at the start hits it at distance 0 when it moves
/// toward it (deeper), and not at all when it moves away or along it. A ray that starts on the
/// triangle hits it at 0. A degenerate triangle (no area, or a sliver: the sine of its angle at
/// `a` below 1e-4) is the segment or point it (nearly) is: a ray never hits it, a sphere can.
pub fn sweep_triangle(
    origin: Vec3,
    r: f32,
    dir: Vec3,
    max: f32,
    a: Vec3,
    b: Vec3,
    c: Vec3,
) -> Option<CastHit> {
    let e1 = b - a;
    let e2 = c - a;
    // A sliver counts as the segment or point it nearly is: its normal would be noise.
    let face = if is_sliver(e1, e2) {
        Vec3::ZERO
    } else {
        e1.cross(e2)
    };
    if !(r > 0.0) {
        // Möller–Trumbore, two-sided. A triangle without area is never hit by a ray.
        if face == Vec3::ZERO {
            return None;
        }
        let p = dir.cross(e2);
        let det = e1.dot(p);
        if det == 0.0 {
            return None;
        }
        let inv = 1.0 / det;
        let s = origin - a;
        let u = s.dot(p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(e1);
        let v = dir.dot(q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        // `+ 0.0` turns a -0 into +0.
        let t = e2.dot(q) * inv + 0.0;
        if !(t >= 0.0 && t <= max) {
            return None;
        }
        let n = normalize_or_zero(face);
        if n == Vec3::ZERO {
            return None;
        }
        // A sliver (near zero area) can put the computed point off the triangle when the
        // determinant is mostly rounding: a hit must lie on the triangle's bounds, within the
        // rounding of the numbers involved.
        let hit = origin + dir * t;
        let tol =
            Vec3::splat(2.0e-6 * (origin.abs().largest() + t + (e1.abs() + e2.abs()).largest()));
        let lo = a.at_most(b).at_most(c) - tol;
        let hi = a.at_least(b).at_least(c) + tol;
        if !(hit.cmpge(lo).all() && hit.cmple(hi).all()) {
            return None;
        }
        return Some(CastHit {
            distance: t,
            normal: if n.dot(dir) > 0.0 { -n } else { n },
        });
    }
    // Quick rejections: the sweep never comes within r of the triangle's bounds, or stays on
    // one side of its plane beyond r. Each keeps a margin well above the rounding, so no
    // contact up to `max` is lost, and the answer does not depend on the `max` passed (a
    // hierarchy passes the best distance so far, the brute force its whole range).
    let reach = dir * max;
    let (lo, hi) = (
        origin.at_most(origin + reach),
        origin.at_least(origin + reach),
    );
    let slack = r + 1.0e-5 * (origin.abs().largest() + max + r);
    let rr = Vec3::splat(slack);
    if (lo - rr).cmpgt(a.at_least(b).at_least(c)).any()
        || (hi + rr).cmplt(a.at_most(b).at_most(c)).any()
    {
        return None;
    }
    // The plane: its unit normal (the triangle's winding) and the origin's signed distance.
    let len2 = face.length_squared();
    let plane = if len2 > 0.0 {
        let nf = face / len2.sqrt();
        let s0 = (origin - a).dot(nf);
        let s1 = s0 + max * dir.dot(nf);
        if (s0 > slack && s1 > slack) || (s0 < -slack && s1 < -slack) {
            return None;
        }
        Some((nf, s0))
    } else {
        None
    };
    // Overlapping at the start (only possible within r of the plane).
    if plane.is_none_or(|(_, s0)| s0.abs() <= r) {
        let q = closest_on_triangle(origin, a, b, c);
        let gap = origin - q;
        let gap2 = gap.length_squared();
        if gap2 <= r * r {
            if gap2 == 0.0 {
                // The centre on the triangle: into it whichever way it moves.
                let n = normalize_or_zero(face);
                if n == Vec3::ZERO {
                    return None;
                }
                return Some(CastHit {
                    distance: 0.0,
                    normal: if n.dot(dir) > 0.0 { -n } else { n },
                });
            }
            return (dir.dot(gap) < 0.0).then(|| CastHit {
                distance: 0.0,
                normal: normalize_or_zero(gap),
            });
        }
    }
    // The face: the sphere meets the plane at distance r, inside the triangle. Before that it
    // is farther than r from the whole plane, so no edge or corner can be met earlier: that
    // is the triangle's first contact.
    if let Some((nf, s)) = plane {
        let (n, s0) = if s < 0.0 { (-nf, -s) } else { (nf, s) };
        let dn = dir.dot(n);
        // Moving toward the plane: the face is met where the sphere touches the plane, if that
        // point is inside the triangle. Already within r of the plane, the start's test above
        // found it clear of the triangle: then the point is outside (an edge or corner is met
        // first), unless that test and the plane's distance disagree by their rounding (a
        // sphere touching the face to within it): that is a touch now, at 0.
        if dn < 0.0 {
            let t = ((s0 - r) / -dn).at_least(0.0);
            let p = origin + dir * t - n * r;
            // Against the triangle's own winding (not the flipped normal).
            let inside = (b - a).cross(p - a).dot(nf) >= 0.0
                && (c - b).cross(p - b).dot(nf) >= 0.0
                && (a - c).cross(p - c).dot(nf) >= 0.0;
            if inside {
                // The answer whatever `max` is (an edge test could round a hair earlier).
                return (t <= max).then_some(CastHit {
                    distance: t,
                    normal: n,
                });
            }
        }
    }
    let mut best: Option<CastHit> = None;
    let mut limit = max;
    for (p0, p1) in [(a, b), (b, c), (c, a)] {
        if let Some(h) = ray_cylinder_side(origin, dir, p0, p1, r, limit)
            && best.is_none_or(|b| h.distance < b.distance)
        {
            limit = h.distance;
            best = Some(h);
        }
    }
    for v in [a, b, c] {
        if let Some(h) = ray_ball(origin, dir, v, r, limit)
            && best.is_none_or(|b| h.distance < b.distance)
        {
            limit = h.distance;
            best = Some(h);
        }
    }
    best
}
