//! Boids with a radius, steering around a box (axis aligned, and rotated) toward which they were
//! aimed at an edge or a corner: no boid ever overlaps the box (its centre never comes within
//! its radius of it). Once, a swept sphere starting between the box rounded by its radius and
//! the box grown with square edges missed the box, and such boids sank into it.

use boids_core::fmath::Order;
use boids_sim::*;

const DT: f32 = 1.0 / 60.0;

/// Distance from `p` to the box (`centre`, `half`, rotated by `q`).
fn box_distance(p: Vec3, centre: Vec3, half: Vec3, q: Quat) -> f32 {
    let l = q.conjugate() * (p - centre);
    (l.abs() - half).at_least(Vec3::ZERO).length()
}

/// The deepest any boid's sphere (radius 0.5) went into the box over 4 s, for the axis-aligned
/// and the rotated box: negative is an overlap. Boids start `from` away from every edge midpoint
/// and corner, heading at it.
fn worst_overlap(look_ahead: f32, speed: f32, max_force: f32, from: f32) -> [f32; 2] {
    let radius = 0.5;
    let mut out = [0.0; 2];
    let half = Vec3::new(1.5, 1.0, 2.0);
    let centre = Vec3::new(0.0, 0.0, 0.0);
    for rotated in [false, true] {
        let q = if rotated {
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize(), 0.7)
        } else {
            Quat::IDENTITY
        };
        let params = FlockParams {
            weights: Weights {
                separation: 0.0,
                alignment: 0.0,
                cohesion: 0.0,
                bounds: 0.0,
                obstacles: 10.0,
                ..Weights::default()
            },
            combine: Combine::Steer,
            max_force,
            min_speed: speed,
            max_speed: speed,
            bounds: Bounds::None,
            obstacle_avoidance: ObstacleAvoidance::FreeDirection,
            look_ahead,
            boid_radius: radius,
            ..FlockParams::default()
        };
        let mut w = World::new(WorldConfig {
            seed: 3,
            threads: 1,
            simd: None,
        })
        .unwrap();
        let f = w.create_flock("aimed", params).unwrap();
        w.add_obstacle(if rotated {
            Obstacle::OrientedBox {
                centre,
                half_extents: half,
                rotation: q,
            }
        } else {
            Obstacle::Box {
                min: centre - half,
                max: centre + half,
            }
        })
        .unwrap();
        // Every edge midpoint and corner, approached along its outward diagonal from 4.5 away,
        // and a little off it (so the boids' paths differ).
        let mut targets = Vec::new();
        for sx in [-1.0f32, 1.0] {
            for sy in [-1.0f32, 1.0] {
                for sz in [-1.0f32, 1.0] {
                    targets.push(Vec3::new(sx, sy, sz)); // a corner
                }
                targets.push(Vec3::new(sx, sy, 0.0)); // edges along z
                targets.push(Vec3::new(sx, 0.0, sy)); // along y
                targets.push(Vec3::new(0.0, sx, sy)); // along x
            }
        }
        let (mut pos, mut vel) = (Vec::new(), Vec::new());
        for (k, s) in targets.iter().enumerate() {
            let at = centre + q * (*s * half);
            let out = (q * *s).normalize();
            let wobble = Vec3::new(
                (k as f32 * 1.7).sin(),
                (k as f32 * 2.3).cos(),
                (k as f32 * 0.9).sin(),
            ) * 0.1;
            let start = at + out * from + wobble;
            pos.push(start);
            vel.push((at - start).normalize() * speed);
        }
        w.add_boids(f, &pos, &vel).unwrap();
        let mut worst = f32::INFINITY;
        for _ in 0..240 {
            w.step(DT).unwrap();
            for p in w.flock(f).unwrap().positions() {
                worst = worst.at_most(box_distance(*p, centre, half, q) - radius);
            }
        }
        out[rotated as usize] = worst;
    }
    out
}

/// With a look-ahead of 1 at 2, 3 and 4 units a second, each boid sees the box late and turns
/// close to it, so its centre passes through the edge and corner regions of the square-grown box:
/// the casts from there must keep hitting. (With the old casts, boids overlapped by up to their
/// whole radius here.)
#[test]
fn a_boid_aimed_at_a_box_edge_or_corner_never_overlaps_it() {
    for speed in [2.0f32, 3.0, 4.0] {
        let worst = worst_overlap(1.0, speed, 4.0, 3.0);
        for (rotated, w) in worst.iter().enumerate() {
            assert!(
                *w >= -1e-3,
                "speed {speed}, rotated {}: a boid overlapped the box by {}",
                rotated == 1,
                -w
            );
        }
    }
}
