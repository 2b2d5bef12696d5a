//! The scene geometry against its oracles, on at least 100,000 random casts per shape:
//! - a triangle mesh (not closed, with degenerate triangles, placed with a rotation and a
//!   non-uniform scale) and a heightfield: the hierarchy's cast gives exactly the brute-force
//!   cast's bits (every triangle, in index order: distance, normal, triangle index);
//! - every primitive (triangle, ball, capsule, box with a rotation): the analytic cast agrees
//!   with sphere tracing of the shape's distance function, an independent method;
//! - casts that graze, start inside, start overlapping, and hit vertices and edges exactly are
//!   among them (aimed on purpose, not left to chance).

mod placed;

use boids_core::fmath::Order;
use boids_core::geometry::prim::{closest_on_segment, closest_on_triangle, sweep_triangle};
use boids_core::geometry::{MeshShape, Placement, Transform};
use boids_core::{MeshId, Obstacle, Placed, Quat, Rng, Vec3};
use std::sync::Arc;

const CASTS: u32 = 100_000;

fn rng(stream: u32) -> Rng {
    Rng::keyed(0xC0FFEE, 7, 0, stream)
}

fn v(r: &mut Rng, s: f32) -> Vec3 {
    Vec3::new(r.range(-s, s), r.range(-s, s), r.range(-s, s))
}

/// A lumpy rock: a subdivided octahedron pushed in and out, left open on one side, with a few
/// degenerate triangles (repeated vertices, collinear ones) appended.
fn rock(seed: u32) -> MeshShape {
    let mut r = rng(seed);
    let mut verts = vec![
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    let mut tris: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..3 {
        let mut next = Vec::new();
        let mut mid = std::collections::HashMap::new();
        let mut m = |a: u32, b: u32, verts: &mut Vec<Vec3>| {
            *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                verts.push(((verts[a as usize] + verts[b as usize]) * 0.5).normalize());
                verts.len() as u32 - 1
            })
        };
        for [a, b, c] in tris {
            let (ab, bc, ca) = (
                m(a, b, &mut verts),
                m(b, c, &mut verts),
                m(c, a, &mut verts),
            );
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        tris = next;
    }
    for p in &mut verts {
        *p *= 1.0 + r.range(-0.25, 0.25);
    }
    // Open: drop the triangles around +z.
    tris.retain(|t| t.iter().any(|&i| verts[i as usize].z < 0.8));
    // Degenerate ones: a point, a segment, collinear points.
    let n = verts.len() as u32;
    verts.extend([
        Vec3::new(0.3, 0.2, 1.3),
        Vec3::new(-0.4, 0.1, 1.3),
        Vec3::new(-1.1, 0.0, 1.3),
    ]);
    tris.extend([[n, n, n], [n, n + 1, n], [n, n + 1, n + 2]]);
    let idx: Vec<u32> = tris.iter().flatten().copied().collect();
    MeshShape::mesh(verts, &idx).unwrap()
}

fn field() -> MeshShape {
    let mut r = rng(99);
    let (cols, rows) = (25u32, 21u32);
    let heights = (0..cols * rows)
        .map(|k| {
            let (i, j) = ((k % cols) as f32, (k / cols) as f32);
            (i * 0.4).sin() * 1.5 + (j * 0.3).cos() + r.range(-0.3, 0.3)
        })
        .collect();
    MeshShape::heightfield(cols, rows, 0.5, 0.7, heights).unwrap()
}

/// A random cast aimed at the shape in one of several ways: at a random point of its bounds,
/// exactly at a vertex, along an edge's line, grazing past a vertex, or from inside.
fn aimed(
    r: &mut Rng,
    shape: &MeshShape,
    xf: &Transform,
    lo: Vec3,
    hi: Vec3,
) -> (Vec3, f32, Vec3, f32) {
    let span = (hi - lo).length();
    let radius = if r.chance(0.3) {
        0.0
    } else {
        r.range(0.0, 0.4)
    };
    let pick =
        |r: &mut Rng| xf.point(shape.vertex((r.next_u64() % shape.vertex_count() as u64) as u32));
    let kind = r.next_u64() % 6;
    let (origin, target) = match kind {
        0 => {
            let t = pick(r);
            (t + r.unit_vector() * span, t)
        }
        1 => {
            // Along an edge's line (from beyond one end, through the other vertex).
            let (a, b) = (pick(r), pick(r));
            (a + (a - b) * r.range(0.5, 2.0), b)
        }
        2 => {
            // Grazing: aimed at a vertex, offset sideways by about the radius.
            let t = pick(r);
            let o = t + r.unit_vector() * span;
            let side = (t - o).cross(r.unit_vector()).normalize_or_zero();
            (
                o,
                t + side * (radius * r.range(0.98, 1.02) + r.range(-1e-3, 1e-3)),
            )
        }
        3 => {
            // From inside the bounds (inside a closed part, or between surfaces).
            let c = lo + (hi - lo) * Vec3::new(r.next_f32(), r.next_f32(), r.next_f32());
            (c, c + r.unit_vector())
        }
        _ => {
            let t = lo + (hi - lo) * Vec3::new(r.next_f32(), r.next_f32(), r.next_f32());
            (t + r.unit_vector() * span * r.range(0.2, 1.5), t)
        }
    };
    let dir = (target - origin).normalize_or_zero();
    let dir = if dir == Vec3::ZERO { Vec3::X } else { dir };
    (origin, radius, dir, span * r.range(0.3, 3.0))
}

fn same(a: Option<(boids_core::CastHit, u32)>, b: Option<(boids_core::CastHit, u32)>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some((x, i)), Some((y, j))) => {
            i == j
                && x.distance.to_bits() == y.distance.to_bits()
                && x.normal.to_array().map(f32::to_bits) == y.normal.to_array().map(f32::to_bits)
        }
        _ => false,
    }
}

/// Asserts that `shape`'s cast `(origin, radius, dir, max)` gives the brute force's bits;
/// whether it hit.
fn cast_is_brute_force(
    shape: &MeshShape,
    pl: &Placement,
    (o, rad, d, max): (Vec3, f32, Vec3, f32),
    what: &str,
) -> bool {
    let fast = shape.cast(pl, o, rad, d, max);
    let slow = shape.cast_brute(pl, o, rad, d, max);
    assert!(
        same(fast, slow),
        "{what}: origin {o:?} r {rad} dir {d:?} max {max}: cast {fast:?}, brute force {slow:?}"
    );
    fast.is_some()
}

fn hierarchy_equals_brute_force(shape: &MeshShape, what: &str) {
    let mut r = rng(1);
    let mut hits = [0u32; 2];
    for k in 0..CASTS {
        // A new placement every 1,000 casts: rotation, non-uniform scale, position.
        let q = Quat::from_axis_angle(
            rng(1000 + k / 1000).unit_vector(),
            rng(2000 + k / 1000).range(-3.0, 3.0),
        );
        let mut pr = rng(3000 + k / 1000);
        let scale = Vec3::new(pr.range(0.3, 3.0), pr.range(0.3, 3.0), pr.range(0.3, 3.0));
        let xf = Transform::new(v(&mut pr, 50.0), q, scale);
        let pl = Placement::new(shape, xf);
        let b = pl.bounds;
        let (o, rad, d, max) = aimed(&mut r, shape, &xf, b.lo, b.hi);
        let hit = cast_is_brute_force(shape, &pl, (o, rad, d, max), &format!("{what}, cast {k}"));
        hits[usize::from(hit)] += 1;
    }
    // The aiming works: plenty of both outcomes.
    assert!(
        hits[0] > CASTS / 10 && hits[1] > CASTS / 4,
        "{what}: misses, hits {hits:?}"
    );
}

#[test]
fn a_mesh_hierarchy_gives_the_brute_force_bits() {
    let shape = rock(5);
    assert!(shape.triangle_count() > 300);
    hierarchy_equals_brute_force(&shape, "mesh");
}

#[test]
fn a_heightfield_hierarchy_gives_the_brute_force_bits() {
    hierarchy_equals_brute_force(&field(), "heightfield");
}

/// Short sweeps just over a heightfield, as a walking boid's probes make them (a few cells
/// long, nearly level, from a little under the surface to a step over it; rays, skins of a
/// thousandth and balls): the cast, which settles most of them from the cells around them,
/// gives exactly the brute force's bits. Placed level, turned about the vertical and scaled,
/// and turned every way.
#[test]
fn short_sweeps_over_a_heightfield_give_the_brute_force_bits() {
    let shape = field();
    let mut r = rng(7);
    let mut hits = [0u32; 2];
    for k in 0..CASTS {
        let mut pr = rng(5000 + k / 1000);
        let (rotation, scale) = match (k / 1000) % 3 {
            0 => (Quat::IDENTITY, Vec3::ONE),
            1 => (
                Quat::from_rotation_y(pr.range(-3.0, 3.0)),
                Vec3::new(pr.range(0.5, 2.0), pr.range(0.5, 2.0), pr.range(0.5, 2.0)),
            ),
            _ => (
                Quat::from_axis_angle(pr.unit_vector(), pr.range(-3.0, 3.0)),
                Vec3::new(pr.range(0.5, 2.0), pr.range(0.5, 2.0), pr.range(0.5, 2.0)),
            ),
        };
        let pl = Placement::new(&shape, Transform::new(v(&mut pr, 50.0), rotation, scale));
        // A point on a random triangle, lifted along the placement's up.
        let (a, b, c) = shape.world_triangle(&pl, (r.next_u64() % 960) as u32);
        let (u, w) = (r.next_f32(), r.next_f32());
        let (u, w) = if u + w > 1.0 {
            (1.0 - u, 1.0 - w)
        } else {
            (u, w)
        };
        let up = rotation * Vec3::Y;
        let o = a + (b - a) * u + (c - a) * w + up * r.range(-0.1, 0.6);
        let turn = r.range(-3.2, 3.2);
        let local = Vec3::new(turn.cos(), r.range(-0.3, 0.3), turn.sin()).normalize();
        let d = (rotation * local).normalize();
        let max = r.range(0.01, 1.6);
        let rad = match r.next_u64() % 3 {
            0 => 0.0,
            1 => r.range(1.0e-5, 1.0e-3),
            _ => r.range(0.01, 0.4),
        };
        let hit = cast_is_brute_force(&shape, &pl, (o, rad, d, max), &format!("cast {k}"));
        hits[usize::from(hit)] += 1;
    }
    assert!(
        hits[0] > CASTS / 5 && hits[1] > CASTS / 10,
        "misses, hits {hits:?}"
    );
}

/// Ties between triangles at exactly the same distance go to the lowest index, whatever the
/// hierarchy's order: a mesh of the same square repeated 40 times.
#[test]
fn ties_go_to_the_lowest_triangle_index() {
    let mut verts = Vec::new();
    let mut idx = Vec::new();
    for k in 0..40u32 {
        verts.extend([Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y]);
        idx.extend([4 * k, 4 * k + 1, 4 * k + 2, 4 * k, 4 * k + 2, 4 * k + 3]);
    }
    // Scattered copies far away so the hierarchy has depth, and a last copy in front.
    let shape = MeshShape::mesh(verts, &idx).unwrap();
    let xf = Placement::new(
        &shape,
        Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
    );
    for (x, y, tri) in [(0.25, 0.1, 0), (0.1, 0.25, 1)] {
        let (h, k) = shape
            .cast(&xf, Vec3::new(x, y, -5.0), 0.0, Vec3::Z, 10.0)
            .unwrap();
        assert_eq!((k, h.distance), (tri, 5.0));
        // A swept sphere: the face of the same triangle touches first (the neighbour's edge
        // later), on the first square.
        let (h, k) = shape
            .cast(&xf, Vec3::new(x, y, -5.0), 0.2, Vec3::Z, 10.0)
            .unwrap();
        assert_eq!((k, h.distance), (tri, 4.8));
    }
}

// ------------------------------------------------------------------------------------------
// Primitives against sphere tracing of their distance functions.

/// First `t` in `[0, max]` at which `dist(origin + t dir) <= 0`, by sphere tracing (steps of
/// the distance, which never pass the surface); `None` if never. `dist` must be a true
/// distance (or a lower bound of it) outside the shape.
fn trace(dist: &dyn Fn(Vec3) -> f32, origin: Vec3, dir: Vec3, max: f32) -> Option<f32> {
    let mut t = 0.0f64;
    for _ in 0..200_000 {
        let d = dist(origin + dir * t as f32);
        if d <= 2e-5 {
            return Some(t as f32);
        }
        t += f64::from(d);
        if t > f64::from(max) {
            return None;
        }
    }
    None
}

/// Whether the cast's closest approach is within `eps` of touching: such grazing casts may
/// rightly go either way in f32 and are counted, not compared.
fn grazes(dist: &dyn Fn(Vec3) -> f32, origin: Vec3, dir: Vec3, max: f32, eps: f32) -> bool {
    let n = 4000;
    (0..=n).any(|i| {
        let t = max * i as f32 / n as f32;
        dist(origin + dir * t).abs() < eps
    })
}

/// Compares an analytic cast with sphere tracing over `CASTS` random casts from `gen`.
fn agrees(
    what: &str,
    mut make: impl FnMut(&mut Rng) -> (Vec3, Vec3, f32),
    dist: &dyn Fn(Vec3) -> f32,
    cast: &dyn Fn(Vec3, Vec3, f32) -> Option<boids_core::CastHit>,
    solid: bool,
) {
    let mut r = rng(77);
    let (mut hits, mut grazing) = (0, 0);
    for k in 0..CASTS {
        let (o, d, max) = make(&mut r);
        let got = cast(o, d, max);
        if solid && dist(o) <= 0.0 {
            assert!(
                got.is_none(),
                "{what} {k}: a cast from inside hits: {got:?}"
            );
            continue;
        }
        if !solid && dist(o) <= 0.0 {
            continue; // the overlap rule is checked on its own below
        }
        let want = trace(dist, o, d, max);
        match (got, want) {
            (Some(h), Some(t)) => {
                hits += 1;
                // The tracer stops within 2e-5 of the surface: a ray that grazes it first and
                // meets it later stops early. Then the analytic point must be on the surface
                // and the ray must not have been inside before it.
                let close = (h.distance - t).abs() <= 2e-3 * (1.0 + t);
                let grazed_first = t < h.distance
                    && dist(o + d * h.distance).abs() < 1e-3
                    && (0..=200).all(|i| {
                        let s = t + (h.distance - t) * i as f32 / 200.0;
                        dist(o + d * s) > -1e-3
                    });
                if !close {
                    grazing += 1;
                }
                assert!(
                    close || grazed_first,
                    "{what} {k}: origin {o:?} dir {d:?}: analytic {} traced {t}",
                    h.distance
                );
                // The normal points from the surface back to the caster's centre.
                let c = o + d * h.distance;
                let back = (dist(c + h.normal * 1e-2) - dist(c)) / 1e-2;
                assert!(
                    back > 0.5,
                    "{what} {k}: origin {o:?} dir {d:?} t {}: the normal {:?} does not point away ({} -> {})",
                    h.distance,
                    h.normal,
                    dist(c),
                    dist(c + h.normal * 1e-2)
                );
            }
            (None, None) => {}
            (g, w) => {
                assert!(
                    grazes(dist, o, d, max, 3e-3),
                    "{what} {k}: origin {o:?} dir {d:?} max {max}: analytic {g:?}, traced {w:?}"
                );
                grazing += 1;
            }
        }
    }
    assert!(hits > CASTS / 20, "{what}: only {hits} hits");
    assert!(
        grazing < CASTS / 100,
        "{what}: {grazing} grazing casts disagree"
    );
}

fn aim(r: &mut Rng, at: Vec3, spread: f32, from: f32) -> (Vec3, Vec3, f32) {
    let target = at + v(r, spread);
    let o = target + r.unit_vector() * r.range(0.5, from);
    ((o), (target - o).normalize_or_zero(), from * 2.0)
}

#[test]
fn a_swept_sphere_against_a_triangle_agrees_with_sphere_tracing() {
    let mut r = rng(3);
    for round in 0..20 {
        let (a, b, c) = (v(&mut r, 2.0), v(&mut r, 2.0), v(&mut r, 2.0));
        // Some rounds: a degenerate triangle (a segment).
        let c = if round % 5 == 4 { a + (b - a) * 0.3 } else { c };
        let rad = [0.0, 0.05, 0.3, 1.0][round % 4];
        let dist = move |p: Vec3| (p - closest_on_triangle(p, a, b, c)).length() - rad;
        if rad == 0.0 && round % 5 == 4 {
            continue; // a ray never hits a segment
        }
        // Aimed at a random point of the triangle, give or take.
        let on = move |r: &mut Rng| {
            let (u, w) = (r.next_f32(), r.next_f32());
            let (u, w) = if u + w > 1.0 {
                (1.0 - u, 1.0 - w)
            } else {
                (u, w)
            };
            a + (b - a) * u + (c - a) * w
        };
        agrees(
            &format!("triangle round {round} r {rad}"),
            |r| {
                let at = on(r);
                aim(r, at, 0.3 + rad, 6.0)
            },
            &dist,
            &|o, d, max| sweep_triangle(o, rad, d, max, a, b, c),
            false,
        );
    }
}

#[test]
fn a_sphere_overlapping_a_triangle_at_the_start_hits_only_moving_in() {
    let (a, b, c) = (Vec3::ZERO, Vec3::X * 4.0, Vec3::Y * 4.0);
    let o = Vec3::new(1.0, 1.0, 0.3);
    let into = sweep_triangle(o, 0.5, Vec3::NEG_Z, 5.0, a, b, c).unwrap();
    assert_eq!(into.distance, 0.0);
    assert_eq!(into.normal, Vec3::Z);
    assert!(
        sweep_triangle(o, 0.5, Vec3::Z, 5.0, a, b, c).is_none(),
        "moving away"
    );
    assert!(
        sweep_triangle(o, 0.5, Vec3::X, 5.0, a, b, c).is_none(),
        "sliding along"
    );
    // A ray that starts on the triangle: a hit at 0.
    let h = sweep_triangle(Vec3::new(1.0, 1.0, 0.0), 0.0, Vec3::Z, 5.0, a, b, c).unwrap();
    assert_eq!(h.distance, 0.0);
}

#[test]
fn a_sphere_touching_a_big_face_to_within_rounding_hits_it_moving_in() {
    // A wall 26 high and 9 long, and small spheres (a skin) touching its face far from its
    // corners: the plane's distance and the closest point disagree in their last bits there.
    // Moving into the face, each hits it (at 0, or within the rounding of touching), never
    // passes through.
    let (a, b, c) = (
        Vec3::new(-4.947_903_6, -12.247_918, -6.202_847_5),
        Vec3::new(1.948_608_4, -12.247_918, -12.616_854),
        Vec3::new(1.948_608_4, 13.996_481, -12.616_854),
    );
    let n = (b - a).cross(c - a).normalize();
    let mut r = rng(11);
    let mut missed = 0;
    for _ in 0..20_000 {
        let (u, w) = (r.range(0.1, 0.45), r.range(0.1, 0.45));
        let on = a + (b - a) * u + (c - a) * w;
        let rad = r.range(1.0e-3, 2.0e-3);
        let o = on + n * (rad * (1.0 + r.range(-4.0e-4, 4.0e-4)));
        let slant = Vec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        let dir = (-n + slant.reject_from(n) * 0.8).normalize();
        match sweep_triangle(o, rad, dir, 1.0e-3, a, b, c) {
            // Where it touches: at most its start's distance past `rad` away, along `dir`.
            Some(h) => assert!(h.distance <= 4.0e-4 * rad / -dir.dot(n) + 1.0e-6, "{h:?}"),
            None => missed += 1,
        }
    }
    assert_eq!(missed, 0, "spheres touching the face passed through it");
}

fn solid(o: Obstacle) -> Placed {
    o.validate().unwrap();
    Placed::new(&o, None)
}

#[test]
fn a_capsule_agrees_with_sphere_tracing() {
    for (k, rad) in [0.0f32, 0.2, 0.7].into_iter().enumerate() {
        let (a, b, cr) = (Vec3::new(-1.0, 0.5, 0.2), Vec3::new(1.5, -0.3, 0.8), 0.6);
        let shape = solid(Obstacle::Capsule { a, b, radius: cr });
        let dist = move |p: Vec3| (p - closest_on_segment(p, a, b)).length() - cr - rad;
        agrees(
            &format!("capsule {k}"),
            |r| {
                let at = a + (b - a) * r.next_f32();
                aim(r, at, 1.0, 8.0)
            },
            &dist,
            &|o, d, max| shape.cast(o, rad, d, max),
            true,
        );
        // Degenerate: both ends at one point (a ball).
        let ball = solid(Obstacle::Capsule {
            a,
            b: a,
            radius: cr,
        });
        let dist = move |p: Vec3| (p - a).length() - cr - rad;
        agrees(
            &format!("capsule as a ball {k}"),
            |r| aim(r, a, 1.0, 8.0),
            &dist,
            &|o, d, max| ball.cast(o, rad, d, max),
            true,
        );
    }
}

#[test]
fn a_box_with_a_rotation_agrees_with_sphere_tracing() {
    let mut r = rng(11);
    for k in 0..6 {
        let rad = [0.0, 0.1, 0.5][k % 3];
        let half = Vec3::new(r.range(0.1, 2.0), r.range(0.1, 2.0), r.range(0.0, 1.0));
        let q = Quat::from_axis_angle(r.unit_vector(), r.range(-3.0, 3.0));
        let centre = v(&mut r, 3.0);
        let shape = solid(Obstacle::OrientedBox {
            centre,
            half_extents: half,
            rotation: q,
        });
        let inv = q.conjugate();
        let dist = move |p: Vec3| {
            let l = inv * (p - centre);
            (l.abs() - half).at_least(Vec3::ZERO).length() - rad
        };
        agrees(
            &format!("oriented box {k}"),
            |r| {
                let at = centre + q * (half * v(r, 1.0));
                aim(r, at, 0.5 + rad, 8.0)
            },
            &dist,
            &|o, d, max| shape.cast(o, rad, d, max),
            true,
        );
    }
}

#[test]
fn a_ball_and_an_axis_aligned_box_agree_with_sphere_tracing() {
    let ball = solid(Obstacle::Sphere {
        centre: Vec3::new(1.0, 2.0, 3.0),
        radius: 1.5,
    });
    let dist = |p: Vec3| (p - Vec3::new(1.0, 2.0, 3.0)).length() - 1.5 - 0.25;
    agrees(
        "ball",
        |r| aim(r, Vec3::new(1.0, 2.0, 3.0), 2.0, 8.0),
        &dist,
        &|o, d, max| ball.cast(o, 0.25, d, max),
        true,
    );
    let (lo, hi) = (Vec3::new(-1.0, 0.0, 2.0), Vec3::new(2.0, 0.5, 3.0));
    let aabb = solid(Obstacle::Box { min: lo, max: hi });
    let c = (lo + hi) * 0.5;
    let dist = move |p: Vec3| {
        ((p - c).abs() - (hi - lo) * 0.5)
            .at_least(Vec3::ZERO)
            .length()
            - 0.3
    };
    agrees(
        "axis-aligned box",
        |r| aim(r, c, 2.0, 8.0),
        &dist,
        &|o, d, max| aabb.cast(o, 0.3, d, max),
        true,
    );
}
