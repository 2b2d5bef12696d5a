//! Grounded boids one at a time (`boids_core::ground::Walker`): each situation the rule names,
//! checked against heights and walls computed here from the scene's own numbers.

use boids_core::fmath::{Extremes, Order};
use boids_core::ground::{Walker, ground_below};
use boids_core::{Ground, MeshId, MeshShape, Obstacle, ObstacleAvoidance, Placed, Quat, Vec3};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

fn id() -> MeshId {
    MeshId {
        index: 0,
        generation: 1,
    }
}

/// A heightfield placed at `corner` with unit scale, marked as ground.
fn field(columns: u32, rows: u32, cell: f32, h: impl Fn(f32, f32) -> f32, corner: Vec3) -> Placed {
    let mut heights = Vec::new();
    for j in 0..rows {
        for i in 0..columns {
            heights.push(h(i as f32 * cell, j as f32 * cell));
        }
    }
    let shape = Arc::new(MeshShape::heightfield(columns, rows, cell, cell, heights).unwrap());
    let o = Obstacle::Heightfield {
        field: id(),
        position: corner,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    };
    o.validate().unwrap();
    Placed::new(&o, Some(shape))
}

/// A triangle mesh placed where its vertices say, marked as ground.
fn mesh(vertices: Vec<Vec3>, indices: &[u32], rotation: Quat) -> Placed {
    let shape = Arc::new(MeshShape::mesh(vertices, indices).unwrap());
    let o = Obstacle::Mesh {
        mesh: id(),
        position: Vec3::ZERO,
        rotation,
        scale: Vec3::ONE,
        ground: true,
    };
    Placed::new(&o, Some(shape))
}

/// A horizontal quad from `lo` to `hi` (x, z) at height `y`, as two triangles appended.
fn quad(v: &mut Vec<Vec3>, ix: &mut Vec<u32>, lo: (f32, f32), hi: (f32, f32), y: f32) {
    let b = v.len() as u32;
    v.extend([
        Vec3::new(lo.0, y, lo.1),
        Vec3::new(hi.0, y, lo.1),
        Vec3::new(hi.0, y, hi.1),
        Vec3::new(lo.0, y, hi.1),
    ]);
    ix.extend([b, b + 1, b + 2, b, b + 2, b + 3]);
}

fn settings(max_slope_deg: f32, step_height: f32, pivot_height: f32) -> Ground {
    Ground {
        max_slope_deg,
        step_height,
        pivot_height,
        ..Ground::default()
    }
}

/// Walks `steps` steps at horizontal velocity `v` from `p`, handing each step's result on.
fn walk(w: &Walker<'_>, mut p: Vec3, v: Vec3, steps: usize, mut each: impl FnMut(Vec3, Vec3)) {
    for _ in 0..steps {
        let (np, nv) = w.walk(p, v, DT);
        each(np, nv);
        p = np;
    }
}

#[test]
fn a_boid_climbs_a_walkable_slope_standing_on_it_at_its_pivot_height() {
    // A 30° ramp along +x: height = x tan 30°.
    let t = 30f32.to_radians().tan();
    let ground = [field(41, 5, 0.5, |x, _| x * t, Vec3::ZERO)];
    let w = Walker::new(&ground, &[], settings(45.0, 0.3, 1.0), 0.0);
    let mut last = Vec3::ZERO;
    walk(
        &w,
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(3.0, 0.0, 0.0),
        300,
        |p, v| {
            assert!(
                (p.y - 1.0 - p.x * t).abs() < 1e-4,
                "stands at pivot height: {p}"
            );
            // The velocity follows the slope: the same horizontal part, rising at tan 30°.
            assert!(
                (v.x - 3.0).abs() < 1e-6 && (v.y - 3.0 * t).abs() < 1e-4,
                "{v}"
            );
            last = p;
        },
    );
    assert!(last.x > 15.0, "it kept walking: {last}");
}

#[test]
fn a_slope_steeper_than_the_max_is_a_wall_the_boid_slides_along() {
    // Flat for x < 5, then a 60° face: a wall for a 45° walker.
    let t = 60f32.to_radians().tan();
    let ground = [field(
        81,
        41,
        0.25,
        |x, _| (x - 5.0).at_least(0.0) * t,
        Vec3::ZERO,
    )];
    let w = Walker::new(&ground, &[], settings(45.0, 0.5, 0.0), 0.0);
    let mut end = Vec3::ZERO;
    // Heading into the face at 45°: the x part is lost, the z part stays.
    walk(
        &w,
        Vec3::new(3.0, 0.0, 2.0),
        Vec3::new(2.0, 0.0, 2.0),
        200,
        |p, v| {
            assert!(p.x <= 5.0 + 0.5 / t + 1e-3, "never up the face: {p}");
            assert!(p.y <= 0.5 + 1e-4, "never higher than one step: {p}");
            end = p;
            let _ = v;
        },
    );
    let (_, v) = w.walk(end, Vec3::new(2.0, 0.0, 2.0), DT);
    assert!(v.x.abs() < 1e-3, "the velocity into the wall is lost: {v}");
    assert!(
        (v.z - 2.0).abs() < 1e-3,
        "the velocity along it is kept: {v}"
    );
    assert!(end.z > 7.0, "it slid along the wall: {end}");
}

#[test]
fn a_heightfield_edge_and_a_cliff_are_walls() {
    // A 10 x 10 field; its right half drops by 2 (a cliff bigger than the 0.5 step).
    let ground = [field(
        41,
        41,
        0.25,
        |x, _| if x > 5.0 { -2.0 } else { 0.0 },
        Vec3::ZERO,
    )];
    let w = Walker::new(&ground, &[], settings(45.0, 0.5, 0.0), 0.0);
    // Toward the cliff (+x) and toward the field's edge (-x, -z).
    for v in [
        Vec3::new(3.0, 0.0, 0.5),
        Vec3::new(-3.0, 0.0, 0.5),
        Vec3::new(0.5, 0.0, -3.0),
    ] {
        let mut end = Vec3::ZERO;
        walk(&w, Vec3::new(2.5, 0.0, 5.0), v, 400, |p, _| {
            assert!(p.y == 0.0, "stays on the upper level: {p}");
            assert!(
                p.x >= 0.0 && p.z >= 0.0 && p.x <= 5.0,
                "never over the edge: {p}"
            );
            end = p;
        });
        // It slid along the edge: it moved along the other axis.
        let along = if v.x.abs() > v.z.abs() {
            (end.z - 5.0).abs()
        } else {
            (end.x - 2.5).abs()
        };
        assert!(along > 1.0, "slid along the edge ({v}): ended at {end}");
    }
}

#[test]
fn non_ground_obstacles_stop_the_body_at_its_radius() {
    let ground = [field(41, 41, 0.5, |_, _| 0.0, Vec3::ZERO)];
    let wall = Obstacle::Box {
        min: Vec3::new(10.0, -1.0, 0.0),
        max: Vec3::new(11.0, 3.0, 20.0),
    };
    let solids = [Placed::new(&wall, None)];
    let w = Walker::new(&ground, &solids, settings(45.0, 0.5, 0.5), 0.4);
    let mut end = Vec3::ZERO;
    walk(
        &w,
        Vec3::new(5.0, 0.5, 5.0),
        Vec3::new(3.0, 0.0, 1.0),
        300,
        |p, _| {
            assert!(
                p.x <= 10.0 - 0.4 + 1e-3,
                "the body never enters the box: {p}"
            );
            end = p;
        },
    );
    assert!(end.x > 9.0, "it reached the box: {end}");
    assert!(end.z > 8.0, "and slid along it: {end}");
}

#[test]
fn a_thin_wall_of_a_ground_mesh_is_not_walked_through_and_a_bridge_is_a_floor() {
    // A floor at 0 from x = 0 to 20; a wall (two vertical triangles) at x = 10, 2 high; a
    // bridge deck at 3 over x in [4, 8].
    let (mut v, mut ix) = (Vec::new(), Vec::new());
    quad(&mut v, &mut ix, (0.0, 0.0), (20.0, 10.0), 0.0);
    quad(&mut v, &mut ix, (4.0, 0.0), (8.0, 10.0), 3.0);
    let b = v.len() as u32;
    v.extend([
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 2.0, 10.0),
        Vec3::new(10.0, 2.0, 0.0),
    ]);
    ix.extend([b, b + 1, b + 2, b, b + 2, b + 3]);
    let ground = [mesh(v, &ix, Quat::IDENTITY)];
    let w = Walker::new(&ground, &[], settings(45.0, 0.5, 0.0), 0.0);
    walk(
        &w,
        Vec3::new(1.0, 0.0, 5.0),
        Vec3::new(4.0, 0.0, 0.0),
        300,
        |p, _| {
            assert!(p.x < 10.0, "through the wall: {p}");
            assert!(p.y.abs() < 1e-5, "under the bridge, on the floor: {p}");
        },
    );
    // On the deck it stays on the deck, and does not walk off its end (a 3 drop).
    walk(
        &w,
        Vec3::new(5.0, 3.0, 5.0),
        Vec3::new(4.0, 0.0, 0.0),
        120,
        |p, _| {
            assert!(
                (p.y - 3.0).abs() < 1e-5 && p.x <= 8.0,
                "stays on the bridge: {p}"
            );
        },
    );
}

#[test]
fn a_boid_without_ground_underfoot_drops_onto_it_or_comes_up_through_it() {
    let ground = [field(
        21,
        21,
        0.5,
        |x, z| 0.1 * x + 0.05 * z,
        Vec3::new(0.0, 1.0, 0.0),
    )];
    let w = Walker::new(&ground, &[], settings(45.0, 0.5, 0.25), 0.0);
    let at = |x: f32, z: f32| 1.0 + 0.1 * x + 0.05 * z;
    // In the air: drops onto the surface.
    let (p, _) = w.walk(Vec3::new(4.0, 30.0, 4.0), Vec3::X, DT);
    assert!(
        (p.y - 0.25 - at(4.0, 4.0)).abs() < 1e-5 && p.x == 4.0,
        "{p}"
    );
    // Below the terrain: comes up onto it.
    let (p, _) = w.walk(Vec3::new(6.0, -40.0, 2.0), Vec3::X, DT);
    assert!((p.y - 0.25 - at(6.0, 2.0)).abs() < 1e-5, "{p}");
    // Nowhere near ground: stays, with no velocity.
    let (p, v) = w.walk(Vec3::new(50.0, 0.0, 50.0), Vec3::X, DT);
    assert_eq!((p, v), (Vec3::new(50.0, 0.0, 50.0), Vec3::ZERO));
    // No ground at all (a grounded flock in a world without ground): the same.
    let bare = Walker::new(&[], &[], settings(45.0, 0.5, 0.25), 0.0);
    assert_eq!(bare.walk(Vec3::ONE, Vec3::X, DT), (Vec3::ONE, Vec3::ZERO));
}

#[test]
fn the_highest_ground_within_a_step_is_the_one_stood_on_even_turned_and_moved() {
    // The same floor, turned 90° about the vertical and moved: the query follows it.
    let (mut v, mut ix) = (Vec::new(), Vec::new());
    quad(&mut v, &mut ix, (0.0, 0.0), (4.0, 2.0), 0.0);
    quad(&mut v, &mut ix, (0.0, 0.0), (4.0, 2.0), 0.4);
    let turned = [mesh(
        v,
        &ix,
        Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
    )];
    // Turned +90° about y: local (x, z) -> world (z, -x).
    let s = ground_below(&turned, 1.0, -3.0, 0.5, -0.5).unwrap();
    assert!((s.height - 0.4).abs() < 1e-6 && s.normal.y > 0.999, "{s:?}");
    assert!(ground_below(&turned, -1.0, -3.0, 0.5, -0.5).is_none());
}

#[test]
fn the_look_ahead_turns_before_a_cliff() {
    let ground = [field(
        81,
        81,
        0.25,
        |x, _| if x > 12.0 { -3.0 } else { 0.0 },
        Vec3::ZERO,
    )];
    let w = Walker::new(&ground, &[], settings(45.0, 0.5, 0.0), 0.0);
    let p = Vec3::new(10.0, 0.0, 10.0);
    let mode = ObstacleAvoidance::FreeDirection;
    // Far from the cliff, nothing to avoid; within the look-ahead, a turn away from +x.
    assert_eq!(
        w.avoid(mode, Vec3::new(4.0, 0.0, 10.0), Vec3::X, 3.0, 0.0),
        None
    );
    let d = w
        .avoid(mode, p, Vec3::X, 3.0, 0.0)
        .expect("the cliff is ahead");
    assert!(d.y == 0.0 && d.x < 0.67, "turns away from the edge: {d}");
    assert_eq!(w.avoid(ObstacleAvoidance::None, p, Vec3::X, 3.0, 0.0), None);
}

#[test]
fn a_ball_against_a_turned_scaled_closed_mesh_gets_the_exact_depth_and_normal_outward() {
    // A unit cube as 12 triangles (half of them wound the other way: meshes are two-sided),
    // placed turned and scaled; the oracle is the box in its own frame: inside or not, and
    // the distance from the centre to the surface, in world units.
    let mut v = Vec::new();
    for k in 0..8 {
        v.push(Vec3::new(
            if k & 1 == 0 { -1.0 } else { 1.0 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        ));
    }
    let ix: Vec<u32> = vec![
        0, 1, 3, 0, 3, 2, 4, 7, 5, 4, 6, 7, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4,
        1, 5, 7, 1, 7, 3,
    ];
    let rotation = Quat::from_rotation_y(0.6) * Quat::from_rotation_x(0.3);
    let (position, scale) = (Vec3::new(3.0, 1.0, -2.0), Vec3::new(2.0, 1.0, 1.5));
    let shape = Arc::new(MeshShape::mesh(v, &ix).unwrap());
    let o = Obstacle::Mesh {
        mesh: id(),
        position,
        rotation,
        scale,
        ground: false,
    };
    let solids = [Placed::new(&o, Some(shape))];
    let half = scale;
    let r = 0.5;
    let (mut inside_seen, mut touching_seen) = (0, 0);
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    };
    for _ in 0..4000 {
        let local = Vec3::new(next() * 2.8, next() * 1.8, next() * 2.3);
        let p = position + rotation * local;
        // The box's own frame, in world units: half extents = scale.
        let q = local.within(-half, half);
        let inside = q == local;
        let dist = if inside {
            (half - local.abs()).smallest()
        } else {
            (local - q).length()
        };
        let want = if inside { r + dist } else { r - dist };
        let got = boids_core::ground::contact(&solids, p, r);
        if want <= 1.0e-4 {
            assert!(
                got.is_none_or(|(d, _)| d < 2.0e-4),
                "{p}: {got:?}, want none"
            );
            continue;
        }
        let (depth, n) = got.unwrap_or_else(|| panic!("{p}: no contact, want depth {want}"));
        assert!(
            (depth - want).abs() < 1.0e-4,
            "{p}: depth {depth}, want {want}"
        );
        // Out of the box: moving the centre along the normal by the depth leaves it clear.
        let after = rotation.inverse() * (p + n * depth - position);
        let gap = (after - after.within(-half, half)).length();
        assert!(
            (gap - r).abs() < 2.0e-3,
            "{p}: {gap} from the box after, want {r}"
        );
        if inside {
            inside_seen += 1;
        } else {
            touching_seen += 1;
        }
    }
    assert!(
        inside_seen > 300 && touching_seen > 300,
        "{inside_seen} {touching_seen}"
    );
}

/// Walks a boid with no radius from 64 points round a solid's waist (a hair inside its surface,
/// `reach(out)` from `centre` along the horizontal unit `out`), along the surface and into it,
/// for 30 steps each: every position deeper than 1e-4 by `signed` (the distance to the surface
/// from the offset to `centre`, negative inside), with the walk's number.
fn inside_after_walks_round(
    w: &Walker<'_>,
    centre: Vec3,
    reach: impl Fn(Vec3) -> f32,
    signed: impl Fn(Vec3) -> f64,
) -> Vec<(usize, Vec3, f64)> {
    let mut inside = Vec::new();
    for k in 0..64 {
        let a = k as f32 / 64.0 * std::f32::consts::TAU;
        let (s, c) = a.sin_cos();
        let out = Vec3::new(c, 0.0, s);
        let p = centre + out * (reach(out) - 4.0e-7);
        let v = Vec3::new(-s, 0.0, c) * 2.0 - out * 1.5;
        walk(w, p, v, 30, |q, _| {
            let d = signed(q - centre);
            if d < -1e-4 {
                inside.push((k, q, d));
            }
        });
    }
    inside
}

#[test]
fn a_point_on_a_balls_surface_walking_along_it_stays_out_of_it() {
    // A boid with no radius that stands on a ball's surface (to within rounding: a hair inside,
    // as a slide along it may leave it) and walks along it and into it, from 64 points round
    // the ball's waist. Before the fix, 1,740 of the 1,920 positions were inside.
    let ground = [field(41, 41, 0.5, |_, _| 0.0, Vec3::ZERO)];
    let (centre, radius) = (Vec3::new(10.0, 0.25, 10.0), 1.5);
    let ball = Obstacle::Sphere { centre, radius };
    let solids = [Placed::new(&ball, None)];
    let w = Walker::new(&ground, &solids, settings(45.0, 0.5, 0.25), 0.0);
    let inside = inside_after_walks_round(
        &w,
        centre,
        |_| radius,
        |o| {
            let [x, y, z] = [o.x, o.y, o.z].map(f64::from);
            (x * x + y * y + z * z).sqrt() - f64::from(radius)
        },
    );
    assert!(
        inside.is_empty(),
        "{} positions inside the ball: {:?}",
        inside.len(),
        &inside[..inside.len().min(4)]
    );
}

#[test]
fn a_point_on_a_closed_meshs_surface_walking_into_it_stays_out_of_it() {
    // As above, against an octahedron (a closed mesh of 8 triangles, a rock): a boid with no
    // radius a hair inside a face walks along it and into it. A ray from there sees no face
    // to cross; before the fix, 780 of the 1,920 positions were inside the rock.
    let ground = [field(41, 41, 0.5, |_, _| 0.0, Vec3::ZERO)];
    let (centre, size) = (Vec3::new(10.0, 0.25, 10.0), 1.5);
    let mut vertices = Vec::new();
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        vertices.extend([centre + axis * size, centre - axis * size]);
    }
    let mut indices = Vec::new();
    for sx in [1.0f32, -1.0] {
        for sy in [1.0f32, -1.0] {
            for sz in [1.0f32, -1.0] {
                let pick = |axis: u32, s: f32| 2 * axis + u32::from(s < 0.0);
                let (x, y, z) = (pick(0, sx), pick(1, sy), pick(2, sz));
                // Wound to face out of the rock.
                if sx * sy * sz > 0.0 {
                    indices.extend([x, y, z]);
                } else {
                    indices.extend([x, z, y]);
                }
            }
        }
    }
    let shape = Arc::new(MeshShape::mesh(vertices, &indices).unwrap());
    let rock = Obstacle::Mesh {
        mesh: id(),
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: false,
    };
    let solids = [Placed::new(&rock, Some(shape))];
    let w = Walker::new(&ground, &solids, settings(45.0, 0.5, 0.25), 0.0);
    let inside = inside_after_walks_round(
        &w,
        centre,
        |out| size / (out.x.abs() + out.z.abs()),
        |o| {
            // Distance to the nearest face's plane, negative inside.
            let l1 = f64::from(o.x.abs()) + f64::from(o.y.abs()) + f64::from(o.z.abs());
            (l1 - f64::from(size)) / 3f64.sqrt()
        },
    );
    assert!(
        inside.is_empty(),
        "{} positions inside the rock: {:?}",
        inside.len(),
        &inside[..inside.len().min(4)]
    );
}
