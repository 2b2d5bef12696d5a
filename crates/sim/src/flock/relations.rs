//! Steering from other flocks: flee, chase, avoid and flock together, found through the other
//! flocks' indices.

use boids_core::Vec3;
use boids_core::fmath::Order;
use boids_index::exec::{Exec, chunks_mut};
use boids_index::{Hit, Index, NeighbourIndex, PARALLEL_MIN};

/// Steering of every boid of a flock (by slot of its prepared index `own`; `max_speed` from its
/// params) from the flocks it reacts to (each relation with the other flock's prepared index):
/// flee, chase, avoid or flock together with their boids within each relation's radius.
pub(crate) fn external_steering(
    exec: &dyn Exec,
    own: &Index,
    max_speed: f32,
    others: &[(&crate::world::Relation, &Index)],
) -> Vec<Vec3> {
    use crate::world::RelationKind;
    let max_speed = max_speed.at_least(1e-3);
    let steer = |hits: &mut Vec<Hit>, s: usize| {
        let (p, v) = (own.position(s), own.velocity_at(s));
        let mut ext = Vec3::ZERO;
        for (r, o) in others {
            let idx = *o;
            match r.kind {
                RelationKind::Ignore => {}
                RelationKind::Flee | RelationKind::Chase => {
                    idx.k_nearest(p, r.radius, 1, u32::MAX, hits);
                    if let Some(h) = hits.first() {
                        let vb = idx.velocity(h.slot);
                        let dist = h.d2.sqrt();
                        let (t, sign) = if r.kind == RelationKind::Chase {
                            (dist / max_speed, 1.0)
                        } else {
                            (dist / (v.length() + vb.length()).at_least(1e-3), -1.0)
                        };
                        // Where the other boid will be, relative to this one.
                        let ahead = h.offset + vb * t;
                        ext += r.weight * sign * ahead.normalize_or_zero();
                    }
                }
                RelationKind::Avoid => {
                    let (mut sum, mut n) = (Vec3::ZERO, 0u32);
                    idx.for_each_within(p, r.radius, u32::MAX, |h| {
                        sum -= h.offset.normalize_or_zero();
                        n += 1;
                    });
                    if n > 0 {
                        ext += r.weight * sum / n as f32;
                    }
                }
                RelationKind::FlockTogether => {
                    let (mut off, mut vel, mut n) = (Vec3::ZERO, Vec3::ZERO, 0u32);
                    idx.for_each_within(p, r.radius, u32::MAX, |h| {
                        off += h.offset;
                        vel += idx.velocity(h.slot);
                        n += 1;
                    });
                    if n > 0 {
                        let m = (off / n as f32).normalize_or_zero() + vel.normalize_or_zero();
                        ext += r.weight * 0.5 * m;
                    }
                }
            }
        }
        ext
    };
    let n = own.len();
    let mut out = vec![Vec3::ZERO; n];
    let fill = |start: usize, o: &mut [Vec3]| {
        let mut hits = Vec::new();
        for (k, e) in o.iter_mut().enumerate() {
            *e = steer(&mut hits, start + k);
        }
    };
    if n < PARALLEL_MIN {
        fill(0, &mut out);
    } else {
        chunks_mut(exec, &mut out, 1024, &fill);
    }
    out
}
