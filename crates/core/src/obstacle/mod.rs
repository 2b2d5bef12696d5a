//! Obstacles and the look-ahead queries boids use to avoid them: rays and swept spheres.
//!
//! An [`Obstacle`] is plain data, as a caller describes it: a solid (ball, box, box with a
//! rotation, capsule, the half-space behind a plane) or a placement of shape data uploaded once
//! (a triangle mesh or a heightfield, named by a [`MeshId`], with a position, rotation and
//! scale). A world resolves each into a [`Placed`] obstacle, which the step casts against.

use crate::limits::{self, MAX_MAGNITUDE};
use glam::{Quat, Vec3};

pub use crate::geometry::CastHit;

crate::c_enum! {
    /// The shape of an [`Obstacle`].
    pub enum ObstacleKind: "obstacle shape", "BOIDS_OBSTACLE_", "ObstacleKind" {
        /// A ball (`a` = centre, `radius`).
        Sphere = 0, "sphere", "SPHERE",
        /// An axis-aligned box (`a` = min, `b` = max).
        Box = 1, "box", "BOX",
        /// The half-space behind a plane (`a` = a point, `b` = unit normal).
        Plane = 2, "plane", "PLANE",
        /// A box with a rotation (`a` = centre, `b` = half extents, `rotation`).
        OrientedBox = 3, "oriented-box", "ORIENTED_BOX",
        /// A capsule (`a`, `b` = the ends of its axis, `radius`).
        Capsule = 4, "capsule", "CAPSULE",
        /// A placed triangle mesh (`mesh`, `a` = position, `rotation`, `scale`).
        Mesh = 5, "mesh", "MESH",
        /// A placed heightfield (`mesh`, `a` = position, `rotation`, `scale`); boids stay above.
        Heightfield = 6, "heightfield", "HEIGHTFIELD",
    }
}

/// Shape data (a triangle mesh or a heightfield) in a world: index and generation, like the
/// world's other ids. The all-zero id is null.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeshId {
    /// Slot.
    pub index: u32,
    /// Generation of the slot (0 = never issued).
    pub generation: u32,
}

/// A solid obstacle, or a placement of shape data.
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
    /// A box with a rotation (Unity's `BoxCollider` on a rotated object).
    OrientedBox {
        /// Centre.
        centre: Vec3,
        /// Half the size along each of the box's own axes (>= 0).
        half_extents: Vec3,
        /// Unit rotation of the box's axes.
        rotation: Quat,
    },
    /// A capsule: the points within `radius` of the segment `a b`.
    Capsule {
        /// One end of the axis.
        a: Vec3,
        /// The other end (may equal `a`: a ball).
        b: Vec3,
        /// Radius (> 0).
        radius: f32,
    },
    /// A triangle mesh placed in the world (Unity's `MeshCollider`): hit from both sides.
    Mesh {
        /// The mesh (from the world's `add_mesh`).
        mesh: MeshId,
        /// Where its origin goes.
        position: Vec3,
        /// Unit rotation.
        rotation: Quat,
        /// Scale along each of its axes (> 0).
        scale: Vec3,
        /// Ground: grounded flocks walk on it (see [`crate::Ground`]); every other flock, and
        /// a grounded flock's look-ahead, still treat it as an obstacle. False when a scene
        /// file leaves it out.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
        ground: bool,
    },
    /// A heightfield placed in the world (Unity's `TerrainCollider`): hit from both sides, and
    /// no boid ends a step below its surface.
    Heightfield {
        /// The heightfield (from the world's `add_heightfield`).
        field: MeshId,
        /// Where its origin (sample 0, 0 at height 0) goes.
        position: Vec3,
        /// Unit rotation.
        rotation: Quat,
        /// Scale along each of its axes (> 0).
        scale: Vec3,
        /// Ground: grounded flocks walk on it (see [`crate::Ground`]); every other flock still
        /// treats it as a floor. False when a scene file leaves it out.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
        ground: bool,
    },
}

#[cfg(feature = "serde")]
fn is_false(b: &bool) -> bool {
    !*b
}

/// How far a rotation's length may be from 1 before it is refused (then it is normalised).
const UNIT_TOLERANCE: f32 = 1e-3;

impl Obstacle {
    /// Which shape.
    pub fn kind(&self) -> ObstacleKind {
        match self {
            Obstacle::Sphere { .. } => ObstacleKind::Sphere,
            Obstacle::Box { .. } => ObstacleKind::Box,
            Obstacle::Plane { .. } => ObstacleKind::Plane,
            Obstacle::OrientedBox { .. } => ObstacleKind::OrientedBox,
            Obstacle::Capsule { .. } => ObstacleKind::Capsule,
            Obstacle::Mesh { .. } => ObstacleKind::Mesh,
            Obstacle::Heightfield { .. } => ObstacleKind::Heightfield,
        }
    }

    /// Whether this is a mesh or heightfield placement marked as ground.
    pub fn is_ground(&self) -> bool {
        matches!(
            *self,
            Obstacle::Mesh { ground: true, .. } | Obstacle::Heightfield { ground: true, .. }
        )
    }

    /// The shape data a mesh or heightfield placement names.
    pub fn mesh(&self) -> Option<MeshId> {
        match *self {
            Obstacle::Mesh { mesh, .. } => Some(mesh),
            Obstacle::Heightfield { field, .. } => Some(field),
            _ => None,
        }
    }

    /// Every number of the shape, in a fixed order (for the world's state hash and digest).
    pub fn numbers(&self) -> Vec<f32> {
        let v = |out: &mut Vec<f32>, x: Vec3| out.extend_from_slice(&x.to_array());
        let q = |out: &mut Vec<f32>, x: Quat| out.extend_from_slice(&x.to_array());
        let mut out = Vec::with_capacity(13);
        match *self {
            Obstacle::Sphere { centre, radius } => {
                v(&mut out, centre);
                out.push(radius);
            }
            Obstacle::Box { min, max } => {
                v(&mut out, min);
                v(&mut out, max);
            }
            Obstacle::Plane { point, normal } => {
                v(&mut out, point);
                v(&mut out, normal);
            }
            Obstacle::OrientedBox {
                centre,
                half_extents,
                rotation,
            } => {
                v(&mut out, centre);
                v(&mut out, half_extents);
                q(&mut out, rotation);
            }
            Obstacle::Capsule { a, b, radius } => {
                v(&mut out, a);
                v(&mut out, b);
                out.push(radius);
            }
            Obstacle::Mesh {
                position,
                rotation,
                scale,
                ground,
                ..
            }
            | Obstacle::Heightfield {
                position,
                rotation,
                scale,
                ground,
                ..
            } => {
                v(&mut out, position);
                q(&mut out, rotation);
                v(&mut out, scale);
                // Only when set, so the digests of scenes without ground stay as they were.
                if ground {
                    out.push(1.0);
                }
            }
        }
        out
    }

    /// Checks the shape's numbers: finite, within the world's limits, positive sizes and
    /// scales, unit-length normals and rotations. (Whether a mesh id names live data of the
    /// right kind is the world's to check.)
    pub fn validate(&self) -> Result<(), String> {
        let pt = |what: &str, v: Vec3| limits::point(v).map_err(|e| format!("{what} {e}"));
        let radius = |what: &str, r: f32| {
            if r > 0.0 && r <= MAX_MAGNITUDE {
                Ok(())
            } else {
                Err(format!(
                    "{what} must be finite and in (0, {}], got {r}",
                    limits::show(MAX_MAGNITUDE)
                ))
            }
        };
        let rotation = |what: &str, q: Quat| {
            if q.is_finite() && (q.length() - 1.0).abs() <= UNIT_TOLERANCE {
                Ok(())
            } else {
                Err(format!(
                    "{what} must be a unit quaternion (length within {UNIT_TOLERANCE} of 1), got {q}"
                ))
            }
        };
        let scale = |what: &str, s: Vec3| {
            if s.cmpgt(Vec3::ZERO).all() && s.cmple(Vec3::splat(MAX_MAGNITUDE)).all() {
                Ok(())
            } else {
                Err(format!(
                    "{what} must be finite and in (0, {}] on every axis (a zero or negative \
                     scale is refused), got {s}",
                    limits::show(MAX_MAGNITUDE)
                ))
            }
        };
        match *self {
            Obstacle::Sphere { centre, radius: r } => {
                pt("sphere obstacle centre", centre)?;
                radius("sphere obstacle radius", r)?;
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
                if !normal.is_finite() || (normal.length() - 1.0).abs() > UNIT_TOLERANCE {
                    return Err(format!(
                        "plane obstacle normal must be unit length (within 1e-3), got {normal}"
                    ));
                }
            }
            Obstacle::OrientedBox {
                centre,
                half_extents,
                rotation: q,
            } => {
                pt("oriented-box obstacle centre", centre)?;
                // As a capsule's radius: a box with no thickness on an axis is refused.
                if !(half_extents.cmpgt(Vec3::ZERO).all()
                    && half_extents.cmple(Vec3::splat(MAX_MAGNITUDE)).all())
                {
                    return Err(format!(
                        "oriented-box obstacle half_extents must be finite and in (0, {}] on \
                         every axis, got {half_extents}",
                        limits::show(MAX_MAGNITUDE)
                    ));
                }
                rotation("oriented-box obstacle rotation", q)?;
            }
            Obstacle::Capsule { a, b, radius: r } => {
                pt("capsule obstacle a", a)?;
                pt("capsule obstacle b", b)?;
                radius("capsule obstacle radius", r)?;
            }
            Obstacle::Mesh {
                mesh: id,
                position,
                rotation: q,
                scale: s,
                ..
            }
            | Obstacle::Heightfield {
                field: id,
                position,
                rotation: q,
                scale: s,
                ..
            } => {
                let what = self.kind().text();
                if id.generation == 0 {
                    return Err(format!("{what} obstacle: the mesh id is null"));
                }
                pt(&format!("{what} obstacle position"), position)?;
                rotation(&format!("{what} obstacle rotation"), q)?;
                scale(&format!("{what} obstacle scale"), s)?;
            }
        }
        Ok(())
    }
}

mod placed;
pub use placed::*;

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(o: Obstacle) -> Placed {
        o.validate().unwrap();
        Placed::new(&o, None)
    }

    #[test]
    fn rays_hit_each_shape_at_the_right_distance() {
        let s = placed(Obstacle::Sphere {
            centre: Vec3::new(0.0, 0.0, 10.0),
            radius: 2.0,
        });
        let h = s.cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 8.0).abs() < 1e-5);
        assert!((h.normal - Vec3::NEG_Z).length() < 1e-5);
        assert!(
            s.cast(Vec3::ZERO, 0.0, Vec3::Z, 7.0).is_none(),
            "beyond max distance"
        );
        assert!(s.cast(Vec3::ZERO, 0.0, Vec3::X, 20.0).is_none(), "misses");
        assert!(
            s.cast(Vec3::new(0.0, 0.0, 10.0), 0.0, Vec3::Z, 20.0)
                .is_none(),
            "starts inside"
        );

        let b = placed(Obstacle::Box {
            min: Vec3::new(-1.0, -1.0, 5.0),
            max: Vec3::new(1.0, 1.0, 6.0),
        });
        let h = b.cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 5.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::NEG_Z);
        let h = b
            .cast(Vec3::new(-4.0, 0.0, 5.5), 0.0, Vec3::X, 20.0)
            .unwrap();
        assert!((h.distance - 3.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::NEG_X);
        assert!(
            b.cast(Vec3::new(3.0, 0.0, 0.0), 0.0, Vec3::Z, 20.0)
                .is_none()
        );

        let p = placed(Obstacle::Plane {
            point: Vec3::new(0.0, -2.0, 0.0),
            normal: Vec3::Y,
        });
        let h = p.cast(Vec3::ZERO, 0.0, Vec3::NEG_Y, 20.0).unwrap();
        assert!((h.distance - 2.0).abs() < 1e-5);
        assert_eq!(h.normal, Vec3::Y);
        assert!(
            p.cast(Vec3::ZERO, 0.0, Vec3::Y, 20.0).is_none(),
            "moving away"
        );

        // A box turned 45 degrees about y: its corner points at the caster.
        let ob = placed(Obstacle::OrientedBox {
            centre: Vec3::new(0.0, 0.0, 10.0),
            half_extents: Vec3::ONE,
            rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
        });
        let h = ob.cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).unwrap();
        assert!(
            (h.distance - (10.0 - 2f32.sqrt())).abs() < 1e-5,
            "{}",
            h.distance
        );

        let c = placed(Obstacle::Capsule {
            a: Vec3::new(-5.0, 0.0, 10.0),
            b: Vec3::new(5.0, 0.0, 10.0),
            radius: 1.0,
        });
        let h = c.cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 9.0).abs() < 1e-5);
        assert!((h.normal - Vec3::NEG_Z).length() < 1e-5);
        // Past the end of the axis: the end ball.
        let h = c
            .cast(Vec3::new(5.5, 0.0, 0.0), 0.0, Vec3::Z, 20.0)
            .unwrap();
        assert!(
            (h.distance - (10.0 - 0.75f32.sqrt())).abs() < 1e-4,
            "{}",
            h.distance
        );
    }

    #[test]
    fn swept_spheres_hit_earlier_by_their_radius() {
        let s = placed(Obstacle::Sphere {
            centre: Vec3::new(0.0, 0.0, 10.0),
            radius: 2.0,
        });
        let h = s.cast(Vec3::ZERO, 0.5, Vec3::Z, 20.0).unwrap();
        assert!((h.distance - 7.5).abs() < 1e-5);
        // Grazing: the ray misses by 0.3 but the sphere of radius 0.5 touches.
        assert!(
            s.cast(Vec3::new(2.3, 0.0, 0.0), 0.0, Vec3::Z, 20.0)
                .is_none()
        );
        assert!(
            s.cast(Vec3::new(2.3, 0.0, 0.0), 0.5, Vec3::Z, 20.0)
                .is_some()
        );
        let p = placed(Obstacle::Plane {
            point: Vec3::ZERO,
            normal: Vec3::Y,
        });
        let h = p
            .cast(Vec3::new(0.0, 3.0, 0.0), 1.0, Vec3::NEG_Y, 10.0)
            .unwrap();
        assert!((h.distance - 2.0).abs() < 1e-5);
        // A box's edge is rounded: a sphere passing its corner diagonally touches later than
        // the square-grown box would say.
        let b = placed(Obstacle::Box {
            min: Vec3::splat(-1.0),
            max: Vec3::splat(1.0),
        });
        let o = Vec3::new(1.6, 1.6, -10.0);
        let h = b.cast(o, 1.0, Vec3::Z, 20.0).unwrap();
        // The sphere's centre passes 0.6 * sqrt(2) = 0.85 from the box's z edge: it touches the
        // edge at the box's face z = -1 only if 0.85 < 1, at z where it first gets within 1 of
        // the edge, i.e. at the face plane (the edge spans z in [-1, 1]) minus the rounding.
        let dz = (1.0f32 - 0.72).sqrt();
        assert!((h.distance - (9.0 - dz)).abs() < 1e-4, "{}", h.distance);
        assert!(
            b.cast(Vec3::new(1.8, 1.8, -10.0), 1.0, Vec3::Z, 20.0)
                .is_none(),
            "past the rounded edge"
        );
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
        let bad = [
            Obstacle::Sphere {
                centre: Vec3::ZERO,
                radius: 0.0,
            },
            Obstacle::Sphere {
                centre: Vec3::NAN,
                radius: 1.0,
            },
            Obstacle::Box {
                min: Vec3::ONE,
                max: Vec3::ZERO,
            },
            Obstacle::Plane {
                point: Vec3::ZERO,
                normal: Vec3::new(0.0, 2.0, 0.0),
            },
            Obstacle::OrientedBox {
                centre: Vec3::ZERO,
                half_extents: Vec3::new(1.0, -1.0, 1.0),
                rotation: Quat::IDENTITY,
            },
            Obstacle::OrientedBox {
                centre: Vec3::ZERO,
                half_extents: Vec3::ONE,
                rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
            },
            Obstacle::Capsule {
                a: Vec3::ZERO,
                b: Vec3::X,
                radius: -1.0,
            },
            Obstacle::Mesh {
                mesh: MeshId {
                    index: 0,
                    generation: 1,
                },
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                scale: Vec3::new(1.0, 0.0, 1.0),
                ground: false,
            },
            Obstacle::Heightfield {
                field: MeshId {
                    index: 0,
                    generation: 1,
                },
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                scale: Vec3::new(1.0, -2.0, 1.0),
                ground: false,
            },
            Obstacle::Mesh {
                mesh: MeshId::default(),
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                scale: Vec3::ONE,
                ground: false,
            },
        ];
        for o in bad {
            assert!(o.validate().is_err(), "{o:?}");
        }
        let e = bad[7].validate().unwrap_err();
        assert!(e.contains("scale") && e.contains("negative"), "{e}");
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
