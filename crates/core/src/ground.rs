//! Grounded flocks: boids that walk on the scene's ground.
//!
//! The ground is every mesh and heightfield placement marked as ground; up is world +Y. A
//! grounded boid's position is its pivot, [`Ground::pivot_height`] above its feet.
//!
//! **Steering in the horizontal plane, then placing on the surface** (as DetourCrowd does),
//! rather than steering in the tangent plane: the rules, the speed limits and the eight-lane
//! path need no surface frame (a grounded flock's steering and velocity are flattened to the
//! horizontal before they are integrated), a herd keeps the same pace over ground whatever the
//! slope (the speed limits apply to the horizontal speed), and placing is one vertical query
//! a step. The velocity written back follows the surface: the horizontal velocity lifted onto
//! the plane of the ground under the boid, so the heading (drawn orientation) pitches with the
//! slope.
//!
//! One step of a boid standing on ground ([`Walker::walk`]):
//! 1. Its feet move by the horizontal velocity times `dt`. At the new point, it stands on the
//!    highest ground surface within [`Ground::step_height`] of its feet, and that is a fixed
//!    point: a surface over the landing by less than a step (a ramp or deck just above the
//!    terrain) is where it stands, so the next step does not lift it there.
//! 2. Walls stop the move: no ground within the step height there (a drop, a heightfield's
//!    edge, a gap), ground steeper than [`Ground::max_slope_deg`] (or a surface over the landing
//!    more than a step over the feet), ground geometry within a skin of the segment a step
//!    height above the feet (a wall or spike of a ground mesh: a ball of radius 1.6e-4 × (1 +
//!    the largest coordinate) is swept along it, so feet stay off a thin wall's plane and cannot
//!    leave on its far side), or a non-ground obstacle crossing the body's path (a sphere of
//!    the flock's `body_radius` swept at the pivot).
//! 3. A stopped boid slides: the move, and the velocity, lose their component into the wall
//!    (whose normal is the hit's, or for a drop the side the ground is missing on, found by 16
//!    probes around the feet); a slide that is stopped too leaves the boid where it was, with
//!    no horizontal velocity.
//!
//! A boid with no ground within its step height of its feet (spawned in the air or below the
//! ground, or its ground moved or removed) is placed instead of moved: onto the highest ground
//! below its feet (it drops), else onto the lowest ground above them (it comes up through the
//! surface it is under); with no ground in its vertical line at all it stays where it is, with
//! no velocity, until there is.
//!
//! Look-ahead avoidance sees the same walls ([`Walker::avoid`]): the way ahead is walked in
//! [`LOOK_SAMPLES`] probes up to `look_ahead`, and when it is blocked the boid steers toward the
//! first clear one of [`FAN`] horizontal directions, nearest to its heading first, alternating
//! left and right (both avoidance modes, for a grounded flock).

use crate::fmath;
use crate::fmath::{Extremes, Order};
use crate::geometry::Placement;
use crate::geometry::ShapeData;
use crate::math::normalize_or_zero;
use crate::obstacle::{Near, Placed, first_hit};
use crate::params::{Ground, ObstacleAvoidance};
use crate::{CastHit, MeshShape};
use glam::Vec3;
use std::sync::OnceLock;

/// Probes along the way ahead for a grounded boid's look-ahead.
pub const LOOK_SAMPLES: usize = 3;

/// Horizontal directions a blocked grounded boid tries (its heading first).
pub const FAN: usize = 33;

/// Probes around the feet that find the side a drop is on.
const EDGE_PROBES: usize = 16;

/// Where a grounded boid stands: its feet's height and the unit normal of the ground there,
/// pointing up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stand {
    /// Height of the surface.
    pub height: f32,
    /// Unit normal, `y >= 0`.
    pub normal: Vec3,
}

/// How close to a wall of the ground feet come, in [`slack`]s (1.6e-4 units near the origin,
/// 1.6e-3 at 100 units).
const WALL_SKIN: f32 = 16.0;

/// A margin for rounding around heights near `p`: far below any step a user sets, far above the
/// rounding of a height recomputed at the same point.
#[inline]
fn slack(p: Vec3) -> f32 {
    1.0e-5 * (1.0 + p.abs().largest())
}

/// A unit normal turned to point up.
#[inline]
fn upward(n: Vec3) -> Vec3 {
    if n.y < 0.0 { -n } else { n }
}

/// The horizontal part of `v`.
#[inline]
pub fn horizontal(v: Vec3) -> Vec3 {
    Vec3::new(v.x, 0.0, v.z)
}

/// `v` (horizontal) lifted onto the plane through the origin with unit normal `n` (`n.y > 0`):
/// the same horizontal part, with the height change that keeps it on the plane.
#[inline]
pub fn lift(v: Vec3, n: Vec3) -> Vec3 {
    if n.y <= 0.0 {
        return horizontal(v);
    }
    Vec3::new(v.x, -(n.x * v.x + n.z * v.z) / n.y, v.z)
}

/// The surface of one ground placement crossing the vertical line at `(x, z)` between `top`
/// and `bottom` (the highest if `down`, else the lowest, when there are several), clipped to
/// the placement's bounds first.
fn surface(
    shape: &MeshShape,
    place: &Placement,
    (x, z): (f32, f32),
    top: f32,
    bottom: f32,
    down: bool,
) -> Option<Stand> {
    let b = &place.bounds;
    if x < b.lo.x || x > b.hi.x || z < b.lo.z || z > b.hi.z {
        return None;
    }
    let (top, bottom) = (top.at_most(b.hi.y), bottom.at_least(b.lo.y));
    if top < bottom || top.is_nan() || bottom.is_nan() {
        return None;
    }
    let xf = &place.xf;
    match shape.data() {
        // A heightfield turned only about the vertical: one lookup, no cast.
        ShapeData::Heightfield(grid) if xf.rotation.x == 0.0 && xf.rotation.z == 0.0 => {
            let l = xf.local_point(Vec3::new(x, xf.position.y, z));
            let (h, k) = grid.surface_at(l.x, l.z)?;
            let y = xf.point(Vec3::new(l.x, h, l.z)).y;
            if !(y <= top && y >= bottom) {
                return None;
            }
            let (a, b, c) = shape.world_triangle(place, k);
            let n = upward(normalize_or_zero((b - a).cross(c - a)));
            (n != Vec3::ZERO).then_some(Stand {
                height: y,
                normal: n,
            })
        }
        _ => {
            let len = top - bottom;
            let (from, dir) = if down {
                (top, Vec3::NEG_Y)
            } else {
                (bottom, Vec3::Y)
            };
            let ray = |x: f32, z: f32| {
                shape
                    .cast(place, Vec3::new(x, from, z), 0.0, dir, len)
                    .map(|(h, _)| h)
            };
            // A ray through an edge two triangles share can slip between them by rounding:
            // then four rays a few units in the last place to each side.
            let e = 1.0e-6 * (1.0 + x.abs().at_least(z.abs()));
            let hit: CastHit = ray(x, z)
                .or_else(|| ray(x + e, z))
                .or_else(|| ray(x - e, z))
                .or_else(|| ray(x, z + e))
                .or_else(|| ray(x, z - e))?;
            Some(Stand {
                height: if down {
                    top - hit.distance
                } else {
                    bottom + hit.distance
                },
                normal: upward(hit.normal),
            })
        }
    }
}

/// The highest ground surface crossing the vertical line at `(x, z)` between heights `top` and
/// `bottom` (ties: the first placement in the list).
pub fn ground_below(ground: &[Placed], x: f32, z: f32, top: f32, bottom: f32) -> Option<Stand> {
    extreme(ground, (x, z), top, bottom, true)
}

/// The lowest ground surface crossing the vertical line at `(x, z)` between heights `bottom`
/// and `top` (ties: the first placement in the list).
pub fn ground_above(ground: &[Placed], x: f32, z: f32, bottom: f32, top: f32) -> Option<Stand> {
    extreme(ground, (x, z), top, bottom, false)
}

fn extreme(ground: &[Placed], xz: (f32, f32), top: f32, bottom: f32, down: bool) -> Option<Stand> {
    let mut best: Option<Stand> = None;
    for o in ground {
        if let Placed::Mesh { shape, place } = o
            && let Some(s) = surface(shape, place, xz, top, bottom, down)
            && best.is_none_or(|b| {
                if down {
                    s.height > b.height
                } else {
                    s.height < b.height
                }
            })
        {
            best = Some(s);
        }
    }
    best
}

/// The first hit along the segment `a -> b` of a sphere of radius `r` (a ray for 0) against
/// `list`.
fn cast_segment(list: &[Placed], a: Vec3, b: Vec3, r: f32) -> Option<CastHit> {
    if list.is_empty() {
        return None;
    }
    let (dir, len) = segment(a, b)?;
    let near = Near::new(list, a, len + r);
    if near.is_empty() {
        return None;
    }
    first_hit(near.iter(), a, r, dir, len)
}

/// The unit direction and length of the segment `a -> b`, when it has a length.
#[inline]
fn segment(a: Vec3, b: Vec3) -> Option<(Vec3, f32)> {
    let d = b - a;
    let len = d.length();
    (len > 0.0).then(|| (d / len, len))
}

/// How deep a ball of radius `r` at `p` is in the solid `o` (a ball, box, capsule, plane or
/// mesh: a centre inside a closed mesh goes out through its nearest face), with the unit normal
/// out of it, when it touches it at all. (A mesh's cast stops a ball that starts overlapping it
/// from outside from going deeper, but a centre a rounding inside a closed mesh is behind its
/// faces, and a cast from there goes on in.)
fn touch(o: &Placed, p: Vec3, r: f32) -> Option<(f32, Vec3)> {
    let (dist, n) = match *o {
        Placed::Ball { centre, radius } => {
            let d = p - centre;
            ((d.length() - radius), normalize_or_zero(d))
        }
        Placed::Capsule { a, b, radius } => {
            let d = p - crate::geometry::prim::closest_on_segment(p, a, b);
            ((d.length() - radius), normalize_or_zero(d))
        }
        Placed::Plane { point, normal } => ((p - point).dot(normal), normal),
        Placed::Box {
            centre,
            half,
            rotation,
        } => {
            let local = match rotation {
                Some((_, inv)) => inv * (p - centre),
                None => p - centre,
            };
            let q = local.within(-half, half);
            let (dist, n) = if q != local {
                let d = local - q;
                (d.length(), normalize_or_zero(d))
            } else {
                // Inside: out through the nearest face.
                let gap = half - local.abs();
                let k = if gap.x <= gap.y && gap.x <= gap.z {
                    0
                } else if gap.y <= gap.z {
                    1
                } else {
                    2
                };
                let mut n = Vec3::ZERO;
                n[k] = if local[k] < 0.0 { -1.0 } else { 1.0 };
                (-gap[k], n)
            };
            let n = match rotation {
                Some((q, _)) => q * n,
                None => n,
            };
            (dist, n)
        }
        Placed::Mesh {
            ref shape,
            ref place,
        } => return mesh_contact(shape, place, p, r),
    };
    (dist < r && n != Vec3::ZERO).then_some((r - dist, n))
}

/// The deepest contact of a ball of radius `r` at `p` with `solids`: how deep it is and the
/// unit normal out of that solid (ties: the first in list order). Balls, boxes, capsules and
/// planes as [`Placed`] describes them; a mesh is a solid too, and a centre inside a closed
/// mesh ([`MeshShape::contains`]) goes out through its nearest face. Heightfields never touch
/// (they are floors, or ground). What the bodies pass pushes a body out of solids with.
pub fn contact(solids: &[Placed], p: Vec3, r: f32) -> Option<(f32, Vec3)> {
    if solids.is_empty() || r.is_nan() || r <= 0.0 {
        return None;
    }
    let mut best: Option<(f32, Vec3)> = None;
    for o in Near::new(solids, p, r).iter() {
        if let Some((depth, n)) = touch(o, p, r)
            && best.is_none_or(|(b, _)| depth > b)
        {
            best = Some((depth, n));
        }
    }
    best
}

/// [`contact`] with one mesh.
fn mesh_contact(shape: &MeshShape, pl: &Placement, p: Vec3, r: f32) -> Option<(f32, Vec3)> {
    let inside = shape.contains(pl, p);
    let (dist, q, k) = shape.closest(pl, p, if inside { f32::INFINITY } else { r })?;
    if !inside && dist >= r {
        return None;
    }
    let n = if dist > 0.0 {
        (p - q) / dist
    } else {
        let (a, b, c) = shape.world_triangle(pl, k);
        normalize_or_zero((b - a).cross(c - a))
    };
    if n == Vec3::ZERO {
        return None;
    }
    Some(if inside {
        (r + dist, -n)
    } else {
        (r - dist, n)
    })
}

/// Unit directions around the vertical, `k` of [`EDGE_PROBES`] at angle `2π k / EDGE_PROBES`.
fn probe_directions() -> &'static [Vec3] {
    static DIRS: OnceLock<Vec<Vec3>> = OnceLock::new();
    DIRS.get_or_init(|| {
        (0..EDGE_PROBES)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / EDGE_PROBES as f32;
                Vec3::new(fmath::cos(a), 0.0, fmath::sin(a))
            })
            .collect()
    })
}

/// The [`FAN`] turns a blocked boid tries, as (cosine, sine) of the angle: 0, then `±π k / 16`
/// for `k = 1..=16`, left before right.
fn fan() -> &'static [(f32, f32)] {
    static TURNS: OnceLock<Vec<(f32, f32)>> = OnceLock::new();
    TURNS.get_or_init(|| {
        let half = (FAN - 1) / 2;
        let mut out = vec![(1.0, 0.0)];
        for k in 1..=half {
            let a = std::f32::consts::PI * k as f32 / half as f32;
            let (c, s) = (fmath::cos(a), fmath::sin(a));
            out.push((c, s));
            out.push((c, -s));
        }
        out
    })
}

/// Where a move of grounded feet ended ([`Walker::slide`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slide {
    /// The whole move: the feet and what they stand on.
    Moved(Vec3, Stand),
    /// Stopped by a wall with this unit horizontal normal, and slid along it.
    Slid(Vec3, Stand, Vec3),
    /// Stopped, and the slide too: the feet stay.
    Stopped,
}

/// The parts of the ground and solid lists that can matter inside a region of the xz plane
/// (`lo` to `hi`, as `[x, z]`): a flock's queries that stay inside it search these short
/// lists instead of the whole scene's, with the same answers (every placement that may reach
/// into the region is kept, in list order: [`keep_nearby`]); a query that reaches outside it
/// searches the whole lists.
#[derive(Clone, Copy, Debug)]
pub struct Nearby<'a> {
    /// The ground placements that may reach into the region.
    pub ground: &'a [Placed],
    /// The solids that may reach into the region.
    pub solids: &'a [Placed],
    /// The region's corner of least x and z.
    pub lo: [f32; 2],
    /// The region's corner of greatest x and z.
    pub hi: [f32; 2],
}

impl Nearby<'_> {
    /// Whether the xz extent of the box `lo..hi` lies inside the region.
    #[inline]
    fn holds(&self, lo: Vec3, hi: Vec3) -> bool {
        lo.x >= self.lo[0] && lo.z >= self.lo[1] && hi.x <= self.hi[0] && hi.z <= self.hi[1]
    }
}

/// Whether placement `o` may reach into the region `lo..hi` of the xz plane (false only when it
/// surely cannot; a plane always may).
pub fn reaches_region(o: &Placed, lo: [f32; 2], hi: [f32; 2]) -> bool {
    let (a, b) = match o {
        Placed::Ball { centre, radius } => (*centre - *radius, *centre + *radius),
        Placed::Box { centre, half, .. } => {
            let r = half.length();
            (*centre - r, *centre + r)
        }
        Placed::Capsule { a, b, radius } => (a.at_most(*b) - *radius, a.at_least(*b) + *radius),
        Placed::Plane { .. } => return true,
        Placed::Mesh { place, .. } => (place.bounds.lo, place.bounds.hi),
    };
    // A margin far above the rounding of the bounds.
    let e = 1.0e-4 * (1.0 + a.abs().at_least(b.abs()).largest());
    !(b.x + e < lo[0] || a.x - e > hi[0] || b.z + e < lo[1] || a.z - e > hi[1])
}

/// Appends to `out` the placements of `all` that may reach into the region `lo..hi` of the xz
/// plane, in list order ([`reaches_region`]).
pub fn keep_nearby(all: &[Placed], lo: [f32; 2], hi: [f32; 2], out: &mut Vec<Placed>) {
    out.extend(all.iter().filter(|o| reaches_region(o, lo, hi)).cloned());
}

/// A grounded flock's settings and the scene it walks in, for one step.
#[derive(Clone, Copy, Debug)]
pub struct Walker<'a> {
    /// The ground: mesh and heightfield placements marked as ground.
    pub ground: &'a [Placed],
    /// Every other obstacle: walls.
    pub solids: &'a [Placed],
    /// The flock's ground settings.
    pub settings: Ground,
    /// Cosine of the steepest walkable slope.
    pub cos_slope: f32,
    /// The body's radius (the sphere swept against the solids).
    pub radius: f32,
    /// Short lists of the ground and solids near the flock, when the step made them.
    pub nearby: Option<Nearby<'a>>,
}

impl<'a> Walker<'a> {
    /// The walker of a flock with ground settings `settings` and body radius `radius`.
    pub fn new(ground: &'a [Placed], solids: &'a [Placed], settings: Ground, radius: f32) -> Self {
        Walker {
            ground,
            solids,
            settings,
            cos_slope: fmath::cos(fmath::to_radians(settings.max_slope_deg)),
            radius: radius.at_least(0.0),
            nearby: None,
        }
    }

    /// This walker searching `nearby`'s short lists for queries inside its region.
    pub fn with_nearby(self, nearby: Option<Nearby<'a>>) -> Self {
        Walker { nearby, ..self }
    }

    /// The ground to search for a query whose xz extent is `lo..hi`.
    #[inline]
    fn ground_in(&self, lo: Vec3, hi: Vec3) -> &'a [Placed] {
        match self.nearby {
            Some(n) if n.holds(lo, hi) => n.ground,
            _ => self.ground,
        }
    }

    /// The solids to search for a query whose xz extent is `lo..hi`.
    #[inline]
    pub fn solids_in(&self, lo: Vec3, hi: Vec3) -> &'a [Placed] {
        match self.nearby {
            Some(n) if n.holds(lo, hi) => n.solids,
            _ => self.solids,
        }
    }

    /// The ground within step height of feet at `(x, feet_y, z)`.
    pub fn stand_near(&self, x: f32, z: f32, feet_y: f32) -> Option<Stand> {
        let reach = self.settings.step_height + slack(Vec3::new(x, feet_y, z));
        let at = Vec3::new(x, 0.0, z);
        ground_below(self.ground_in(at, at), x, z, feet_y + reach, feet_y - reach)
    }

    /// What a boid with its pivot at `p` stands on: the ground within step height of its feet
    /// ([`Walker::walk_on`] and [`Walker::avoid_on`] take it, so that a step asks once).
    pub fn stand_under(&self, p: Vec3) -> Option<Stand> {
        let feet = p - Vec3::Y * self.settings.pivot_height;
        self.stand_near(feet.x, feet.z, feet.y)
    }

    /// Whether a boid may stand on `s`.
    #[inline]
    pub fn walkable(&self, s: &Stand) -> bool {
        s.normal.y >= self.cos_slope
    }

    /// [`Walker::probe`]'s ground part: the walls of the ground alone (no ground, too steep,
    /// ground geometry across the way), not the solids.
    fn probe_ground(&self, feet0: Vec3, d: Vec3) -> Result<(Vec3, Stand), Option<Vec3>> {
        let (x, z) = (feet0.x + d.x, feet0.z + d.z);
        let mut s = self.stand_near(x, z, feet0.y).ok_or(None)?;
        // Where the feet land, the highest ground within a step of them is what they stand on
        // from then on: a surface that overhangs the landing by less than a step (a ramp or
        // deck just over the terrain) takes them now, and is a wall when it is more than a
        // step over where they were, or too steep. (One placement has one surface over a
        // point: nothing to look for.)
        let at = Vec3::new(x, 0.0, z);
        if self.ground_in(at, at).len() > 1
            && let Some(up) = self.stand_near(x, z, s.height)
            && up.height > s.height
        {
            if up.height - feet0.y > self.settings.step_height + slack(feet0) {
                return Err(Some(horizontal(up.normal)));
            }
            s = up;
        }
        if !self.walkable(&s) {
            return Err(Some(horizontal(s.normal)));
        }
        let feet1 = Vec3::new(x, s.height, z);
        // Ground geometry across the way a step height up: a wall or spike of the ground. A
        // ball of a skin's radius is swept along it, so that feet never come within a skin of
        // a wall: a wall of no thickness has no inside, and feet on its plane (within
        // rounding) could leave on either side of it. (A ball already that close moves along
        // or away from the wall, never toward it.)
        let skin = slack(feet0) * WALL_SKIN;
        let knee = Vec3::Y * self.settings.step_height.at_least(skin * 2.0);
        let ground = self.ground_in(feet0.at_most(feet1) - skin, feet0.at_least(feet1) + skin);
        if let Some(h) = cast_segment(ground, feet0 + knee, feet1 + knee, skin) {
            return Err(Some(horizontal(h.normal)));
        }
        Ok((feet1, s))
    }

    /// The pivot `p0` moved by the horizontal `d` out of a solid it overlaps: the move the
    /// ground allows (no edge, slope or ground wall crossed; solids are not swept, the move
    /// leaves one), or `None`.
    pub fn step_out(&self, p0: Vec3, d: Vec3) -> Option<Vec3> {
        let pivot = Vec3::Y * self.settings.pivot_height;
        let feet = p0 - pivot;
        let s0 = self.stand_near(feet.x, feet.z, feet.y)?;
        let (feet1, _) = self
            .probe_ground(Vec3::new(feet.x, s0.height, feet.z), horizontal(d))
            .ok()?;
        Some(feet1 + pivot)
    }

    /// Feet standing at `feet0` moved by the horizontal `d`, with a body of radius `r` swept
    /// against the solids: where the feet end and what they stand on, or the wall that stops
    /// them (its horizontal normal when known; `None` for a drop).
    pub fn probe(&self, feet0: Vec3, d: Vec3, r: f32) -> Result<(Vec3, Stand), Option<Vec3>> {
        let (feet1, s) = self.probe_ground(feet0, d)?;
        let pivot = Vec3::Y * self.settings.pivot_height;
        let (a, b) = (feet0 + pivot, feet1 + pivot);
        // Every solid search below looks within this of `a`.
        let reach = (b - a).length() + r;
        let solids = self.solids_in(a - reach, a + reach);
        // A solid the body already touches (a cast from there does not see it): no deeper.
        // A point (no radius) on a solid's surface to within rounding counts as touching it.
        let feel = r.at_least(slack(a));
        let near = Near::new(solids, a, reach + feel);
        for o in near.iter() {
            if let Some((depth, n)) = touch(o, a, feel)
                && touch(o, b, feel).is_some_and(|(deeper, _)| deeper > depth)
            {
                return Err(Some(horizontal(n)));
            }
        }
        // The sweep: [`cast_segment`]'s, against the same list (it holds every solid within
        // `reach` of `a`, which is all a cast of that length can touch).
        if let Some((dir, len)) = segment(a, b)
            && let Some(h) = first_hit(near.iter(), a, r, dir, len)
        {
            return Err(Some(horizontal(h.normal)));
        }
        Ok((feet1, s))
    }

    /// The side a drop near `feet0` is on, for a move of length `len`: the unit horizontal
    /// normal pointing away from it (toward the ground), when the probes around the feet find
    /// both ground and its lack.
    fn drop_normal(&self, feet0: Vec3, len: f32) -> Option<Vec3> {
        let mut away = Vec3::ZERO;
        let mut blocked = 0;
        for &dir in probe_directions() {
            let p = feet0 + dir * len;
            let ok = self
                .stand_near(p.x, p.z, feet0.y)
                .is_some_and(|s| self.walkable(&s));
            if !ok {
                away -= dir;
                blocked += 1;
            }
        }
        if blocked == 0 || blocked == EDGE_PROBES {
            return None;
        }
        Some(normalize_or_zero(away)).filter(|n| *n != Vec3::ZERO)
    }

    /// Feet standing on `s0` at `feet0` moved by the horizontal `d`, sliding along what stops
    /// them (see the module's rule).
    pub fn slide(&self, feet0: Vec3, s0: Stand, d: Vec3) -> Slide {
        if d == Vec3::ZERO {
            return Slide::Moved(feet0, s0);
        }
        let wall = match self.probe(feet0, d, self.radius) {
            Ok((f, s)) => return Slide::Moved(f, s),
            Err(wall) => wall,
        };
        let n = wall
            .map(normalize_or_zero)
            .filter(|n| *n != Vec3::ZERO)
            .or_else(|| self.drop_normal(feet0, d.length()));
        let Some(n) = n else {
            return Slide::Stopped;
        };
        let n = if n.dot(d) > 0.0 { -n } else { n };
        let d2 = d - n * n.dot(d);
        if d2 == Vec3::ZERO {
            return Slide::Stopped;
        }
        match self.probe(feet0, d2, self.radius) {
            Ok((f, s)) => Slide::Slid(f, s, n),
            Err(_) => Slide::Stopped,
        }
    }

    /// One step of a boid at pivot `p0` with horizontal velocity `v`: its next pivot and
    /// velocity (following the surface). See the module's rule.
    pub fn walk(&self, p0: Vec3, v: Vec3, dt: f32) -> (Vec3, Vec3) {
        self.walk_on(p0, self.stand_under(p0), v, dt)
    }

    /// [`Walker::walk`] for a boid whose [`Walker::stand_under`] is `under`.
    pub fn walk_on(&self, p0: Vec3, under: Option<Stand>, v: Vec3, dt: f32) -> (Vec3, Vec3) {
        let pivot = Vec3::Y * self.settings.pivot_height;
        let feet = p0 - pivot;
        let Some(s0) = under else {
            return self.place(p0, v);
        };
        let feet0 = Vec3::new(feet.x, s0.height, feet.z);
        let (feet1, s1, v1) = match self.slide(feet0, s0, v * dt) {
            Slide::Moved(f, s) => (f, s, v),
            Slide::Slid(f, s, n) => (f, s, v - n * n.dot(v)),
            Slide::Stopped => (feet0, s0, Vec3::ZERO),
        };
        let v1 = if self.walkable(&s1) {
            lift(v1, s1.normal)
        } else {
            Vec3::ZERO
        };
        (feet1 + pivot, v1)
    }

    /// A boid with no ground within its step height: onto the highest ground below its feet,
    /// else the lowest above them, else where it is with no velocity.
    fn place(&self, p0: Vec3, v: Vec3) -> (Vec3, Vec3) {
        let pivot = Vec3::Y * self.settings.pivot_height;
        let feet = p0 - pivot;
        let lowest = -crate::MAX_MAGNITUDE;
        let top = feet.y + self.settings.step_height + slack(feet);
        let ground = self.ground_in(feet, feet);
        let s = ground_below(ground, feet.x, feet.z, top, lowest)
            .or_else(|| ground_above(ground, feet.x, feet.z, top, crate::MAX_MAGNITUDE));
        match s {
            Some(s) => {
                let v = if self.walkable(&s) {
                    lift(horizontal(v), s.normal)
                } else {
                    Vec3::ZERO
                };
                (Vec3::new(feet.x, s.height, feet.z) + pivot, v)
            }
            None => (p0, Vec3::ZERO),
        }
    }

    /// Whether the way from feet at `feet0` along the unit horizontal `dir` is clear for
    /// `len`, in [`LOOK_SAMPLES`] probes with a body of radius `r`.
    fn clear(&self, feet0: Vec3, dir: Vec3, len: f32, r: f32) -> bool {
        let d = dir * (len / LOOK_SAMPLES as f32);
        let mut feet = feet0;
        for _ in 0..LOOK_SAMPLES {
            match self.probe(feet, d, r) {
                Ok((f, _)) => feet = f,
                Err(_) => return false,
            }
        }
        true
    }

    /// The look-ahead of a grounded boid at pivot `p` heading along `heading` (any length):
    /// `None` when the way ahead is clear for `look_ahead` (or avoidance is off), else the
    /// first clear direction of the fan (straight back when none is).
    pub fn avoid(
        &self,
        mode: ObstacleAvoidance,
        p: Vec3,
        heading: Vec3,
        look_ahead: f32,
        r: f32,
    ) -> Option<Vec3> {
        self.avoid_on(mode, p, self.stand_under(p), heading, look_ahead, r)
    }

    /// [`Walker::avoid`] for a boid whose [`Walker::stand_under`] is `under`.
    pub fn avoid_on(
        &self,
        mode: ObstacleAvoidance,
        p: Vec3,
        under: Option<Stand>,
        heading: Vec3,
        look_ahead: f32,
        r: f32,
    ) -> Option<Vec3> {
        if mode == ObstacleAvoidance::None || look_ahead.is_nan() || look_ahead <= 0.0 {
            return None;
        }
        let f = normalize_or_zero(horizontal(heading));
        if f == Vec3::ZERO {
            return None;
        }
        let feet = p - Vec3::Y * self.settings.pivot_height;
        let s = under?;
        let feet0 = Vec3::new(feet.x, s.height, feet.z);
        let turns = fan();
        if self.clear(feet0, f, look_ahead, r) {
            return None;
        }
        Some(
            turns[1..]
                .iter()
                .map(|&(c, s)| {
                    normalize_or_zero(Vec3::new(f.x * c + f.z * s, 0.0, f.z * c - f.x * s))
                })
                .find(|&d| d != Vec3::ZERO && self.clear(feet0, d, look_ahead, r))
                .unwrap_or(-f),
        )
    }
}
