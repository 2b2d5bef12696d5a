//! Steering from other flocks: flee, chase, avoid and flock together, found through the other
//! flocks' indices.

use super::Flock;
use boids_core::Vec3;
use boids_index::{Hit, NeighbourIndex, PARALLEL_MIN};
use rayon::prelude::*;

/// Steering of every boid of `f` (by slot of its prepared index) from the flocks it reacts to:
/// flee, chase, avoid or flock together with their boids within each relation's radius.
pub(crate) fn external_steering(
    f: &Flock,
    others: &[(&crate::world::Relation, &Flock)],
) -> Vec<Vec3> {
    use crate::world::RelationKind;
    let max_speed = f.params.max_speed.max(1e-3);
    let own = f.index();
    let steer = |hits: &mut Vec<Hit>, s: usize| {
        let (p, v) = (own.rec(s).position(), own.rec(s).velocity());
        let mut ext = Vec3::ZERO;
        for (r, o) in others {
            let idx = o.index();
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
                            (dist / (v.length() + vb.length()).max(1e-3), -1.0)
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
    if n < PARALLEL_MIN {
        let mut hits = Vec::new();
        (0..n).map(|s| steer(&mut hits, s)).collect()
    } else {
        (0..n)
            .into_par_iter()
            .with_min_len(256)
            .map_init(Vec::<Hit>::new, steer)
            .collect()
    }
}
