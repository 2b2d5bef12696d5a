//! Obstacles and the look-ahead queries boids use to avoid them: rays and swept spheres.

use crate::fmath;
use crate::limits::{self, MAX_MAGNITUDE};
use crate::math::normalize_or_zero;
use glam::Vec3;
use std::sync::OnceLock;

crate::c_enum! {
    /// The shape of an [`Obstacle`].
    pub enum ObstacleKind: "obstacle shape", "BOIDS_OBSTACLE_", "ObstacleKind" {
        /// A ball (`a` = centre, `radius`).
        Sphere = 0, "sphere", "SPHERE",
        /// An axis-aligned box (`a` = min, `b` = max).
        Box = 1, "box", "BOX",
        /// The half-space behind a plane (`a` = a point, `b` = unit normal).
        Plane = 2, "plane", "PLANE",
    }
}

/// A solid obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)
)]
pub enum Obstacle {
    /// A ball.
    Sphere {
        /// Centre.
        centre: Vec3,
        /// Radius (> 0).
        radius: f32,
    },
    /// An axis-aligned box.
    Box {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
    },
    /// The half-space behind a plane: everything on the side opposite to `normal`.
    Plane {
        /// A point on the plane.
        point: Vec3,
        /// Unit normal, pointing out of the solid side.
        normal: Vec3,
    },
}

/// Where a look-ahead query hit an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Distance along the query direction.
    pub distance: f32,
    /// Unit surface normal at the hit, pointing out of the obstacle.
    pub normal: Vec3,
}

impl Obstacle {
    /// Which shape.
    pub fn kind(&self) -> ObstacleKind {
        match self {
            Obstacle::Sphere { .. } => ObstacleKind::Sphere,
            Obstacle::Box { .. } => ObstacleKind::Box,
            Obstacle::Plane { .. } => ObstacleKind::Plane,
        }
    }

    /// The obstacle grown by `r` in every direction (a box grows as a box: a slightly
    /// conservative stand-in for its rounded Minkowski sum).
    fn inflated(&self, r: f32) -> Obstacle {
        match *self {
            Obstacle::Sphere { centre, radius } => Obstacle::Sphere {
                centre,
                radius: radius + r,
            },
            Obstacle::Box { min, max } => Obstacle::Box {
                min: min - Vec3::splat(r),
                max: max + Vec3::splat(r),
            },
            Obstacle::Plane { point, normal } => Obstacle::Plane {
                point: point + normal * r,
                normal,
            },
        }
    }

    /// `true` when `p` is inside (or on) the obstacle.
    pub fn contains(&self, p: Vec3) -> bool {
        match *self {
            Obstacle::Sphere { centre, radius } => (p - centre).length_squared() <= radius * radius,
            Obstacle::Box { min, max } => p.cmpge(min).all() && p.cmple(max).all(),
            Obstacle::Plane { point, normal } => (p - point).dot(normal) <= 0.0,
        }
    }

    /// The first hit of the ray `origin + t dir`, `0 <= t <= max_distance` (`dir` unit length).
    /// A ray that starts inside the obstacle does not hit it (as Unity's casts).
    pub fn ray(&self, origin: Vec3, dir: Vec3, max_distance: f32) -> Option<CastHit> {
        if self.contains(origin) {
            return None;
        }
        let hit = match *self {
            Obstacle::Sphere { centre, radius } => {
                let m = origin - centre;
                let b = m.dot(dir);
                let c = m.length_squared() - radius * radius;
                let disc = b * b - c;
                if disc < 0.0 || b > 0.0 {
                    return None;
                }
                let t = -b - disc.sqrt();
                let t = t.max(0.0);
                CastHit {
                    distance: t,
                    normal: normalize_or_zero(origin + dir * t - centre),
                }
            }
            Obstacle::Box { min, max } => {
                let (mut t0, mut t1) = (0.0f32, max_distance);
                let mut normal = Vec3::ZERO;
                for a in 0..3 {
                    if dir[a] == 0.0 {
                        if origin[a] < min[a] || origin[a] > max[a] {
                            return None;
                        }
                        continue;
                    }
                    let inv = 1.0 / dir[a];
                    let (mut near, mut far) =
                        ((min[a] - origin[a]) * inv, (max[a] - origin[a]) * inv);
                    let mut n = Vec3::ZERO;
                    n[a] = -dir[a].signum();
                    if near > far {
                        std::mem::swap(&mut near, &mut far);
                    }
                    if near > t0 {
                        t0 = near;
                        normal = n;
                    }
                    t1 = t1.min(far);
                    if t0 > t1 {
                        return None;
                    }
                }
                CastHit {
                    distance: t0,
                    normal,
                }
            }
            Obstacle::Plane { point, normal } => {
                let denom = dir.dot(normal);
                if denom >= 0.0 {
                    return None;
                }
                CastHit {
                    distance: (point - origin).dot(normal) / denom,
                    normal,
                }
            }
        };
        (hit.distance <= max_distance && hit.distance.is_finite()).then_some(hit)
    }

    /// The first hit of a sphere of radius `r` swept from `origin` along `dir` (unit) for up to
    /// `max_distance`. A sweep that starts overlapping the obstacle does not hit it.
    pub fn sphere_cast(
        &self,
        origin: Vec3,
        r: f32,
        dir: Vec3,
        max_distance: f32,
    ) -> Option<CastHit> {
        self.inflated(r.max(0.0)).ray(origin, dir, max_distance)
    }

    /// Checks the shape's numbers: finite, positive sizes, unit-length normal.
    pub fn validate(&self) -> Result<(), String> {
        let pt = |what: &str, v: Vec3| limits::point(v).map_err(|e| format!("{what} {e}"));
        match *self {
            Obstacle::Sphere { centre, radius } => {
                pt("sphere obstacle centre", centre)?;
                if !(radius > 0.0 && radius <= MAX_MAGNITUDE) {
                    return Err(format!(
                        "sphere obstacle radius must be finite and in (0, {}], got {radius}",
                        limits::show(MAX_MAGNITUDE)
                    ));
                }
            }
            Obstacle::Box { min, max } => {
                pt("box obstacle min", min)?;
                pt("box obstacle max", max)?;
                if !min.cmple(max).all() {
                    return Err(format!(
                        "box obstacle min {min} must not exceed max {max} on any axis"
                    ));
                }
            }
            Obstacle::Plane { point, normal } => {
                pt("plane obstacle point", point)?;
                if !normal.is_finite() || (normal.length() - 1.0).abs() > 1e-3 {
                    return Err(format!(
                        "plane obstacle normal must be unit length (within 1e-3), got {normal}"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The first hit among `obstacles`, by distance.
pub fn first_hit(
    obstacles: &[Obstacle],
    origin: Vec3,
    r: f32,
    dir: Vec3,
    max_distance: f32,
) -> Option<CastHit> {
    obstacles
        .iter()
        .filter_map(|o| {
            if r > 0.0 {
                o.sphere_cast(origin, r, dir, max_distance)
            } else {
                o.ray(origin, dir, max_distance)
            }
        })
        .min_by(|a, b| a.distance.total_cmp(&b.distance))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_hit_each_shape_at_the_right_distance() {
        let s = Obstacle::Sphere {
            centre: Vec3::new(0.0, 0.0, 10.0),
            radius: 2.0,
        };
        let h = s.ray(Vec3::ZERO, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 8.0).abs() < 1e-5);
        assert!((h.normal - Vec3::NEG_Z).length() < 1e-5);
        assert!(
            s.ray(Vec3::ZERO, Vec3::Z, 7.0).is_none(),
            "beyond max distance"
        );
        assert!(s.ray(Vec3::ZERO, Vec3::X, 20.0).is_none(), "misses");
        assert!(
            s.ray(Vec3::new(0.0, 0.0, 10.0), Vec3::Z, 20.0).is_none(),
            "starts inside"
        );

        let b = Obstacle::Box {
            min: Vec3::new(-1.0, -1.0, 5.0),
            max: Vec3::new(1.0, 1.0, 6.0),
        };
        let h = b.ray(Vec3::ZERO, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 5.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::NEG_Z);
        let h = b.ray(Vec3::new(-4.0, 0.0, 5.5), Vec3::X, 20.0).unwrap();
        assert!((h.distance - 3.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::NEG_X);
        assert!(b.ray(Vec3::new(3.0, 0.0, 0.0), Vec3::Z, 20.0).is_none());

        let p = Obstacle::Plane {
            point: Vec3::new(0.0, -2.0, 0.0),
            normal: Vec3::Y,
        };
        let h = p.ray(Vec3::ZERO, Vec3::NEG_Y, 20.0).unwrap();
        assert!((h.distance - 2.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::Y);
        assert!(p.ray(Vec3::ZERO, Vec3::Y, 20.0).is_none(), "moving away");
    }

    #[test]
    fn swept_spheres_hit_earlier_by_their_radius() {
        let s = Obstacle::Sphere {
            centre: Vec3::new(0.0, 0.0, 10.0),
            radius: 2.0,
        };
        let h = s.sphere_cast(Vec3::ZERO, 0.5, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 7.5).abs() < 1e-5);
        // Grazing: the ray misses by 0.3 but the sphere of radius 0.5 touches.
        assert!(s.ray(Vec3::new(2.3, 0.0, 0.0), Vec3::Z, 20.0).is_none());
        assert!(
            s.sphere_cast(Vec3::new(2.3, 0.0, 0.0), 0.5, Vec3::Z, 20.0)
                .is_some()
        );
        let p = Obstacle::Plane {
            point: Vec3::ZERO,
            normal: Vec3::Y,
        };
        let h = p
            .sphere_cast(Vec3::new(0.0, 3.0, 0.0), 1.0, Vec3::NEG_Y, 10.0)
            .unwrap();
        assert!((h.distance - 2.0).abs() < 1e-5);
    }

    #[test]
    fn spiral_starts_ahead_and_covers_the_sphere() {
        let d = spiral_directions();
        assert_eq!(d.len(), 300);
        assert!((d[0] - Vec3::Z).length() < 1e-6);
        assert!(d.iter().all(|v| (v.length() - 1.0).abs() < 1e-5));
        // Inclination grows with k: later directions point further back.
        assert!(d[299].z < -0.99);
        let mean: Vec3 = d.iter().copied().sum::<Vec3>() / 300.0;
        assert!(mean.length() < 0.02, "evenly spread: {mean}");
    }

    #[test]
    fn validation_refuses_bad_shapes() {
        assert!(
            Obstacle::Sphere {
                centre: Vec3::ZERO,
                radius: 0.0
            }
            .validate()
            .is_err()
        );
        assert!(
            Obstacle::Sphere {
                centre: Vec3::NAN,
                radius: 1.0
            }
            .validate()
            .is_err()
        );
        assert!(
            Obstacle::Box {
                min: Vec3::ONE,
                max: Vec3::ZERO
            }
            .validate()
            .is_err()
        );
        assert!(
            Obstacle::Plane {
                point: Vec3::ZERO,
                normal: Vec3::new(0.0, 2.0, 0.0)
            }
            .validate()
            .is_err()
        );
        assert!(
            Obstacle::Plane {
                point: Vec3::ZERO,
                normal: Vec3::Y
            }
            .validate()
            .is_ok()
        );
    }
}
