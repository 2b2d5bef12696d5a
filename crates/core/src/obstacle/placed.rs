//! A placed obstacle ([`Placed`]) as the step casts against it, the searches over a list of
//! them (nearest hit, any hit, the obstacles near a boid), the heightfield floor rule, and the
//! free-direction search's spiral.

use super::Obstacle;
use crate::fmath;
use crate::fmath::{Extremes, Order};
use crate::geometry::CastHit;
use crate::geometry::prim::{ray_ball, ray_capsule, ray_rounded_box};
use crate::geometry::{MeshShape, Placement, Transform};
use glam::{Quat, Vec3};
use std::sync::{Arc, OnceLock};

/// An obstacle as a step casts against it: a solid with what its casts need precomputed, or
/// shape data with its placement. Built by [`Placed::new`] from a validated [`Obstacle`].
#[derive(Clone, Debug, PartialEq)]
pub enum Placed {
    /// A ball.
    Ball {
        /// Centre.
        centre: Vec3,
        /// Radius.
        radius: f32,
    },
    /// A box (axis-aligned, or with a rotation), rounded by the caster's radius.
    Box {
        /// Centre.
        centre: Vec3,
        /// Half extents.
        half: Vec3,
        /// Rotation (`None`: axis aligned).
        rotation: Option<(Quat, Quat)>,
    },
    /// A capsule.
    Capsule {
        /// One end.
        a: Vec3,
        /// The other end.
        b: Vec3,
        /// Radius.
        radius: f32,
    },
    /// The half-space behind a plane.
    Plane {
        /// A point on it.
        point: Vec3,
        /// Unit normal out of the solid side.
        normal: Vec3,
    },
    /// A mesh or heightfield placed in the world.
    Mesh {
        /// The shape data (shared by every placement of it).
        shape: Arc<MeshShape>,
        /// Where (a transform and world bounds: O(1) to move).
        place: Placement,
    },
}

impl Placed {
    /// The obstacle `o` (validated) as a step uses it; `shape` is the data a mesh or heightfield
    /// names (ignored for the solids).
    pub fn new(o: &Obstacle, shape: Option<Arc<MeshShape>>) -> Placed {
        match *o {
            Obstacle::Sphere { centre, radius } => Placed::Ball { centre, radius },
            Obstacle::Box { min, max } => Placed::Box {
                centre: (min + max) * 0.5,
                half: (max - min) * 0.5,
                rotation: None,
            },
            Obstacle::Plane { point, normal } => Placed::Plane { point, normal },
            Obstacle::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => {
                let q = rotation.normalize();
                Placed::Box {
                    centre,
                    half: half_extents,
                    rotation: Some((q, q.conjugate())),
                }
            }
            Obstacle::Capsule { a, b, radius } => Placed::Capsule { a, b, radius },
            Obstacle::Mesh {
                position,
                rotation,
                scale,
                ..
            }
            | Obstacle::Heightfield {
                position,
                rotation,
                scale,
                ..
            } => {
                let shape = shape.expect("a mesh placement comes with its shape data");
                let xf = Transform::new(position, rotation.normalize(), scale);
                let place = Placement::new(&shape, xf);
                Placed::Mesh { shape, place }
            }
        }
    }

    /// The first hit of a ray (`r == 0`) or of a sphere of radius `r` swept from `origin`
    /// along the unit `dir` for up to `max`. A solid the caster already overlaps at the start
    /// is not hit (as Unity's casts); a mesh or heightfield is a surface, hit from both sides
    /// (see [`crate::geometry::prim::sweep_triangle`] for a start that overlaps it).
    pub fn cast(&self, origin: Vec3, r: f32, dir: Vec3, max: f32) -> Option<CastHit> {
        let r = r.at_least(0.0);
        let hit = match self {
            Placed::Ball { centre, radius } => ray_ball(origin, dir, *centre, radius + r, max),
            Placed::Box {
                centre,
                half,
                rotation,
            } => {
                let (o, d) = match rotation {
                    Some((_, inv)) => (*inv * (origin - *centre), *inv * dir),
                    None => (origin - *centre, dir),
                };
                ray_rounded_box(o, d, *half, r, max).map(|h| CastHit {
                    distance: h.distance,
                    normal: match rotation {
                        Some((q, _)) => *q * h.normal,
                        None => h.normal,
                    },
                })
            }
            Placed::Capsule { a, b, radius } => ray_capsule(origin, dir, *a, *b, radius + r, max),
            Placed::Plane { point, normal } => {
                let point = *point + *normal * r;
                if (origin - point).dot(*normal) <= 0.0 {
                    return None;
                }
                let denom = dir.dot(*normal);
                if denom >= 0.0 {
                    return None;
                }
                Some(CastHit {
                    distance: (point - origin).dot(*normal) / denom,
                    normal: *normal,
                })
            }
            Placed::Mesh { shape, place } => {
                // The placement's world bounds first: most casts end here.
                if !place.reaches(origin, r, dir, max) {
                    return None;
                }
                shape.cast(place, origin, r, dir, max).map(|(h, _)| h)
            }
        };
        hit.filter(|h| h.distance <= max && h.distance.is_finite())
    }

    /// Whether [`Placed::cast`] would hit: for a mesh or heightfield, without looking for the
    /// nearest triangle (the search for a free direction needs only this).
    pub fn hits(&self, origin: Vec3, r: f32, dir: Vec3, max: f32) -> bool {
        self.hit_part(origin, r, dir, max).is_some()
    }

    /// [`Placed::hits`], and which part was hit: a mesh's or heightfield's triangle (the first
    /// found), 0 for the other shapes. Give it to [`Placed::part_hits`] for a nearby cast.
    pub fn hit_part(&self, origin: Vec3, r: f32, dir: Vec3, max: f32) -> Option<u32> {
        match self {
            Placed::Mesh { shape, place } => {
                let r = r.at_least(0.0);
                if !place.reaches(origin, r, dir, max) {
                    return None;
                }
                shape.hit_triangle(place, origin, r, dir, max)
            }
            _ => self.cast(origin, r, dir, max).map(|_| 0),
        }
    }

    /// Whether part `k` ([`Placed::hit_part`]'s) is hit by this cast: the test a search would
    /// make of it, so `true` means [`Placed::hits`] is `true` (and `false` says nothing).
    pub fn part_hits(&self, k: u32, origin: Vec3, r: f32, dir: Vec3, max: f32) -> bool {
        match self {
            Placed::Mesh { shape, place } => {
                (k as usize) < shape.triangle_count()
                    && shape.triangle_hits(place, k, origin, r.at_least(0.0), dir, max)
            }
            _ => self.cast(origin, r, dir, max).is_some(),
        }
    }

    /// How many triangles [`Placed::for_each_triangle`] gives: a box's 12, every triangle of a
    /// mesh or heightfield, none for a ball, capsule or plane.
    pub fn triangle_count(&self) -> usize {
        match self {
            Placed::Box { .. } => 12,
            Placed::Mesh { shape, .. } => shape.triangle_count(),
            Placed::Ball { .. } | Placed::Capsule { .. } | Placed::Plane { .. } => 0,
        }
    }

    /// The obstacle's faces as triangles in world space, for drawing it: a box's 12 (two a
    /// face, wound outward), a mesh's or heightfield's every triangle in index order (the
    /// vertices the casts test, bit for bit); nothing for a ball, capsule or plane.
    pub fn for_each_triangle(&self, mut f: impl FnMut(Vec3, Vec3, Vec3)) {
        match self {
            Placed::Box {
                centre,
                half,
                rotation,
            } => {
                let q = rotation.map_or(Quat::IDENTITY, |(q, _)| q);
                let corner = |k: u32| {
                    let s = Vec3::new(
                        if k & 1 == 0 { -1.0 } else { 1.0 },
                        if k & 2 == 0 { -1.0 } else { 1.0 },
                        if k & 4 == 0 { -1.0 } else { 1.0 },
                    );
                    *centre + q * (*half * s)
                };
                for [a, b, c, d] in [
                    [0, 2, 3, 1],
                    [4, 5, 7, 6],
                    [0, 1, 5, 4],
                    [2, 6, 7, 3],
                    [0, 4, 6, 2],
                    [1, 3, 7, 5],
                ] {
                    f(corner(a), corner(b), corner(c));
                    f(corner(a), corner(c), corner(d));
                }
            }
            Placed::Mesh { shape, place } => {
                for k in 0..shape.triangle_count() as u32 {
                    let (a, b, c) = shape.world_triangle(place, k);
                    f(a, b, c);
                }
            }
            Placed::Ball { .. } | Placed::Capsule { .. } | Placed::Plane { .. } => {}
        }
    }

    /// For a heightfield: `p` and `v` moved so that `p` is not below the surface (along the
    /// placement's up axis), the velocity's component into the surface turned outward, as the
    /// hard bounds do; `None` when `p` is not below it (or outside its grid), and for every
    /// other shape.
    pub fn keep_above(&self, p: Vec3, v: Vec3) -> Option<(Vec3, Vec3)> {
        let Placed::Mesh { shape, place } = self else {
            return None;
        };
        let xf = &place.xf;
        let crate::geometry::ShapeData::Heightfield(grid) = shape.data() else {
            return None;
        };
        let local = xf.local_point(p);
        let h = grid.height_at(local.x, local.z)?;
        if local.y >= h {
            return None;
        }
        let lifted = xf.point(Vec3::new(local.x, h, local.z));
        let up = crate::math::normalize_or_zero(xf.rotation * Vec3::Y);
        let into = v.dot(up);
        let v = if into < 0.0 { v - up * (2.0 * into) } else { v };
        Some((lifted, v))
    }
}

/// The first hit among `obstacles`, by distance (ties: the first in the list).
pub fn first_hit<'a>(
    obstacles: impl IntoIterator<Item = &'a Placed>,
    origin: Vec3,
    r: f32,
    dir: Vec3,
    max_distance: f32,
) -> Option<CastHit> {
    let mut best: Option<CastHit> = None;
    let mut limit = max_distance;
    for o in obstacles.into_iter() {
        if let Some(h) = o.cast(origin, r, dir, limit)
            && best.is_none_or(|b| h.distance < b.distance)
        {
            limit = h.distance;
            best = Some(h);
        }
    }
    best
}

/// Whether anything in `obstacles` is hit within `max_distance`: `first_hit(..).is_some()`,
/// cheaper.
pub fn any_hit<'a>(
    obstacles: impl IntoIterator<Item = &'a Placed>,
    origin: Vec3,
    r: f32,
    dir: Vec3,
    max_distance: f32,
) -> bool {
    obstacles
        .into_iter()
        .any(|o| o.hits(origin, r, dir, max_distance))
}

/// [`any_hit`] for a run of nearby casts (the free-direction search's spiral): the part that
/// blocked the last cast is tried first, and most often blocks this one too, with one
/// triangle test instead of a search. The answer is [`any_hit`]'s exactly: a part that is hit
/// is a hit, and a miss there falls back to the whole search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blocker {
    last: Option<(usize, u32)>,
}

impl Blocker {
    /// Whether anything in `near` is hit, as [`any_hit`].
    pub fn any_hit(&mut self, near: &Near<'_>, origin: Vec3, r: f32, dir: Vec3, max: f32) -> bool {
        if let Some((i, k)) = self.last
            && near
                .iter()
                .nth(i)
                .is_some_and(|o| o.part_hits(k, origin, r, dir, max))
        {
            return true;
        }
        for (i, o) in near.iter().enumerate() {
            if let Some(k) = o.hit_part(origin, r, dir, max) {
                self.last = Some((i, k));
                return true;
            }
        }
        false
    }
}

/// The obstacles a cast of length up to `reach` (the look-ahead plus the caster's radius) from
/// `p` can touch, in list order: a boid's searches test only these. Conservative (a margin
/// for rounding), so casts against them give exactly what casts against the whole list give.
pub struct Near<'a> {
    all: &'a [Placed],
    picked: [u16; NEAR_MAX],
    count: usize,
}

/// Most obstacles [`Near`] lists by index; with more near, it keeps the whole list.
const NEAR_MAX: usize = 48;

impl<'a> Near<'a> {
    /// The obstacles of `all` within `reach` of `p`.
    pub fn new(all: &'a [Placed], p: Vec3, reach: f32) -> Near<'a> {
        let mut near = Near {
            all,
            picked: [0; NEAR_MAX],
            count: 0,
        };
        if all.len() > u16::MAX as usize {
            near.count = usize::MAX;
            return near;
        }
        for (i, o) in all.iter().enumerate() {
            if o.within(p, reach) {
                if near.count == NEAR_MAX {
                    near.count = usize::MAX;
                    return near;
                }
                near.picked[near.count] = i as u16;
                near.count += 1;
            }
        }
        near
    }

    /// Whether none is near.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The near obstacles, in list order.
    pub fn iter(&self) -> impl Iterator<Item = &'a Placed> + Clone + '_ {
        let all = self.all;
        let (picked, whole): (&[u16], &[Placed]) = if self.count == usize::MAX {
            (&[], all)
        } else {
            (&self.picked[..self.count], &[])
        };
        picked.iter().map(move |&i| &all[i as usize]).chain(whole)
    }
}

impl Placed {
    /// Whether a cast from `p` of length up to `reach` could touch this obstacle (false only
    /// when it surely cannot).
    pub fn within(&self, p: Vec3, reach: f32) -> bool {
        // A margin far above the rounding of the distances below.
        let slack = |scale: f32| reach + 1.0e-4 * (1.0 + scale + p.abs().largest());
        match self {
            Placed::Ball { centre, radius } => (p - *centre).length() <= radius + slack(*radius),
            Placed::Box { centre, half, .. } => {
                // The box's bounding ball: its rotation does not matter.
                (p - *centre).length() <= half.length() + slack(half.length())
            }
            Placed::Capsule { a, b, radius } => {
                let q = crate::geometry::prim::closest_on_segment(p, *a, *b);
                (p - q).length() <= radius + slack(*radius + (*b - *a).length())
            }
            Placed::Plane { point, normal } => (p - *point).dot(*normal) <= slack(0.0),
            Placed::Mesh { place, .. } => {
                let b = &place.bounds;
                let d = (b.lo - p).at_least(p - b.hi).at_least(Vec3::ZERO);
                d.length() <= slack((b.hi - b.lo).largest())
            }
        }
    }
}

/// Every heightfield in `obstacles` keeps `p` above its surface (in list order); returns the
/// position and velocity after.
pub fn keep_above(obstacles: &[Placed], mut p: Vec3, mut v: Vec3) -> (Vec3, Vec3) {
    for o in obstacles {
        if let Some((np, nv)) = o.keep_above(p, v) {
            p = np;
            v = nv;
        }
    }
    (p, v)
}

/// Whether any obstacle in the list is a heightfield (a floor the step keeps boids above).
pub fn has_floor(obstacles: &[Placed]) -> bool {
    obstacles
        .iter()
        .any(|o| matches!(o, Placed::Mesh { shape, .. } if shape.is_heightfield()))
}

/// Number of directions the free-heading search tries.
pub const SPIRAL_DIRECTIONS: usize = 300;

/// The steering-obstacles preset's 300 directions on a golden spiral, in the boid's frame (+Z forward), first
/// straight ahead, then widening: `t = k / 300`, inclination `acos(1 - 2t)`, azimuth
/// `2π φ k` with φ the golden ratio.
pub fn spiral_directions() -> &'static [Vec3] {
    static DIRS: OnceLock<Vec<Vec3>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
        let step = std::f32::consts::TAU * phi;
        (0..SPIRAL_DIRECTIONS)
            .map(|k| {
                let t = k as f32 / SPIRAL_DIRECTIONS as f32;
                let incl = fmath::acos(1.0 - 2.0 * t);
                let az = step * k as f32;
                Vec3::new(
                    fmath::sin(incl) * fmath::cos(az),
                    fmath::sin(incl) * fmath::sin(az),
                    fmath::cos(incl),
                )
            })
            .collect()
    })
}
