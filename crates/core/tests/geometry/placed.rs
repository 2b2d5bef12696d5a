//! Placements through `Placed` (found through their world bounds, moved without a rebuild),
//! the heightfield as a floor and as the mesh of its grid, bad shape data, casts from a box's
//! edge and corner regions, and the free-direction search.

use super::*;
use boids_core::fmath::Order;

#[test]
fn a_placed_mesh_is_found_through_its_world_bounds_and_moves_without_a_rebuild() {
    let shape = Arc::new(rock(9));
    let id = MeshId {
        index: 0,
        generation: 1,
    };
    let at = |x: f32| {
        let o = Obstacle::Mesh {
            mesh: id,
            position: Vec3::new(x, 0.0, 10.0),
            rotation: Quat::IDENTITY,
            scale: Vec3::splat(2.0),
            ground: false,
        };
        o.validate().unwrap();
        Placed::new(&o, Some(shape.clone()))
    };
    let h = at(0.0).cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).unwrap();
    assert!(h.distance > 6.5 && h.distance < 9.0, "{}", h.distance);
    assert!(h.normal.z < -0.5);
    assert!(
        at(30.0).cast(Vec3::ZERO, 0.0, Vec3::Z, 20.0).is_none(),
        "moved away"
    );
    let Placed::Mesh { shape: s, .. } = at(30.0) else {
        panic!()
    };
    assert!(Arc::ptr_eq(&s, &shape), "the same data, not a copy");
}

#[test]
fn a_heightfield_keeps_boids_above_its_surface() {
    let shape = Arc::new(field());
    let o = Obstacle::Heightfield {
        field: MeshId {
            index: 0,
            generation: 1,
        },
        position: Vec3::new(-5.0, -2.0, -5.0),
        rotation: Quat::IDENTITY,
        scale: Vec3::new(1.0, 2.0, 1.0),
        ground: false,
    };
    let p = Placed::new(&o, Some(shape.clone()));
    let boids_core::geometry::ShapeData::Heightfield(grid) = shape.data() else {
        panic!()
    };
    let mut r = rng(5);
    for _ in 0..2000 {
        let (lx, lz) = (r.range(0.0, 12.0), r.range(0.0, 14.0));
        let h = grid.height_at(lx, lz).unwrap();
        let surface = Vec3::new(lx - 5.0, h * 2.0 - 2.0, lz - 5.0);
        // A ray straight down from above meets the surface there.
        let hit = p
            .cast(surface + Vec3::Y * 10.0, 0.0, Vec3::NEG_Y, 20.0)
            .unwrap();
        assert!(
            (hit.distance - 10.0).abs() < 1e-3,
            "{} at {lx}, {lz}",
            hit.distance
        );
        // Below it: lifted onto it, the velocity turned up.
        let (q, vel) = p
            .keep_above(surface - Vec3::Y * 0.5, Vec3::new(1.0, -3.0, 0.0))
            .unwrap();
        assert!((q - surface).length() < 1e-3, "{q} vs {surface}");
        assert_eq!(vel, Vec3::new(1.0, 3.0, 0.0));
        assert!(p.keep_above(surface + Vec3::Y * 0.1, Vec3::ZERO).is_none());
    }
    // Beside the grid: nothing.
    assert!(
        p.keep_above(Vec3::new(-20.0, -50.0, 0.0), Vec3::ZERO)
            .is_none()
    );
}

#[test]
fn bad_shape_data_is_refused_with_the_field_named() {
    let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
    let cases: Vec<(Result<MeshShape, String>, &str)> = vec![
        (
            MeshShape::mesh(vec![Vec3::ZERO, Vec3::NAN, Vec3::Y], &[0, 1, 2]),
            "vertices[1]",
        ),
        (MeshShape::mesh(tri.to_vec(), &[0, 1, 3]), "indices[2]"),
        (MeshShape::mesh(tri.to_vec(), &[]), "no triangle"),
        (MeshShape::mesh(tri.to_vec(), &[0, 1]), "multiple of 3"),
        (
            MeshShape::heightfield(1, 5, 1.0, 1.0, vec![0.0; 5]),
            "at least 2",
        ),
        (
            MeshShape::heightfield(2, 2, 1.0, 1.0, vec![0.0, f32::INFINITY, 0.0, 0.0]),
            "heights[1]",
        ),
        (
            MeshShape::heightfield(2, 2, 0.0, 1.0, vec![0.0; 4]),
            "cell_x",
        ),
        (
            MeshShape::heightfield(2, 2, 1.0, 1.0, vec![0.0; 3]),
            "heights",
        ),
        (MeshShape::heightfield(9000, 9000, 1.0, 1.0, vec![]), "2^26"),
    ];
    for (r, field) in cases {
        let e = r.unwrap_err();
        assert!(e.contains(field), "'{field}' in: {e}");
    }
    // More than 2^24 triangles, counted before anything is read.
    let many = vec![0u32; 3 * ((1 << 24) + 1)];
    let e = MeshShape::mesh(tri.to_vec(), &many).unwrap_err();
    assert!(e.contains("2^24"), "{e}");
}

/// A start in an edge or corner region of a box: outside the box rounded by `rad` (the true
/// contact region of a sphere of that radius) but inside the box grown by `rad` with square
/// edges, where the two differ. `half` is the box's, centred on the origin, axis aligned.
fn edge_or_corner_start(r: &mut Rng, half: Vec3, rad: f32) -> Vec3 {
    loop {
        let corner = r.range(0.0, 1.0) < 0.4;
        let along = (r.range(0.0, 3.0) as usize).min(2);
        let mut p = Vec3::ZERO;
        for a in 0..3 {
            let sign = if r.range(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 };
            p[a] = if !corner && a == along {
                // Along the edge: anywhere on it.
                r.range(-half[a], half[a])
            } else {
                sign * (half[a] + r.range(0.0, rad))
            };
        }
        let outside = (p.abs() - half).at_least(Vec3::ZERO);
        // Outside the rounded box by more than rounding: in the region between it and the square one.
        if outside.length() > rad * 1.001 + 1e-5 {
            return p;
        }
    }
}

/// Casts that start in an edge or corner region, where the rounded box and the square one
/// differ: 100,000 of them a box (axis aligned and rotated, two radii), held to sphere tracing.
/// Once such casts all missed (the square box's entry was taken as the start).
#[test]
fn casts_from_the_edge_and_corner_regions_of_a_box_agree_with_sphere_tracing() {
    let mut r = rng(21);
    for (k, rad) in [0.1f32, 0.5].into_iter().enumerate() {
        let half = Vec3::new(r.range(0.2, 2.0), r.range(0.2, 2.0), r.range(0.2, 2.0));
        let centre = v(&mut r, 3.0);
        for rotated in [false, true] {
            let q = if rotated {
                Quat::from_axis_angle(r.unit_vector(), r.range(-3.0, 3.0))
            } else {
                Quat::IDENTITY
            };
            let shape = solid(if rotated {
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
            });
            let inv = q.conjugate();
            let dist = move |p: Vec3| {
                let l = inv * (p - centre);
                (l.abs() - half).at_least(Vec3::ZERO).length() - rad
            };
            agrees(
                &format!("box {k} (rotated {rotated}), edge and corner starts"),
                |r| {
                    let o = centre + q * edge_or_corner_start(r, half, rad);
                    // Half aimed at the box, half in any direction.
                    let d = if r.range(0.0, 1.0) < 0.5 {
                        (centre + q * (half * v(r, 1.0)) - o).normalize_or_zero()
                    } else {
                        r.unit_vector()
                    };
                    (o, d, 4.0 * rad + 1.0)
                },
                &dist,
                &|o, d, max| shape.cast(o, rad, d, max),
                true,
            );
        }
    }
}

/// A heightfield stores no triangles, yet casts as the triangle mesh of its grid (each cell
/// split from (i, j) to (i + 1, j + 1), the mesh's triangle `2c` the cell's lower half, `2c + 1`
/// its upper): the same distance, normal and triangle index, bit for bit, as that mesh's
/// hierarchy, under placements with rotation and non-uniform scale.
#[test]
fn a_heightfield_casts_as_the_mesh_of_its_grid() {
    let f = field();
    let boids_core::geometry::ShapeData::Heightfield(g) = f.data() else {
        panic!()
    };
    let mut verts = Vec::new();
    for j in 0..g.rows {
        for i in 0..g.columns {
            let y = g.heights[(j * g.columns + i) as usize];
            verts.push(Vec3::new(i as f32 * g.cell_x, y, j as f32 * g.cell_z));
        }
    }
    let mut idx = Vec::new();
    for j in 0..g.rows - 1 {
        for i in 0..g.columns - 1 {
            let v00 = j * g.columns + i;
            let (v10, v01, v11) = (v00 + 1, v00 + g.columns, v00 + g.columns + 1);
            idx.extend([v00, v10, v11, v00, v11, v01]);
        }
    }
    let mesh = MeshShape::mesh(verts, &idx).unwrap();
    assert_eq!(mesh.triangle_count(), f.triangle_count());
    assert_eq!(mesh.bounds(), f.bounds());
    let mut r = rng(7);
    let mut hits = 0;
    for k in 0..CASTS {
        let mut pr = rng(5000 + k / 500);
        let q = Quat::from_axis_angle(pr.unit_vector(), pr.range(-3.0, 3.0));
        let scale = Vec3::new(pr.range(0.3, 3.0), pr.range(0.3, 3.0), pr.range(0.3, 3.0));
        let xf = Transform::new(v(&mut pr, 50.0), q, scale);
        let (pf, pm) = (Placement::new(&f, xf), Placement::new(&mesh, xf));
        assert_eq!(pf, pm);
        let (o, rad, d, max) = aimed(&mut r, &f, &xf, pf.bounds.lo, pf.bounds.hi);
        let a = f.cast(&pf, o, rad, d, max);
        let b = mesh.cast(&pm, o, rad, d, max);
        assert!(same(a, b), "cast {k}: field {a:?}, mesh {b:?}");
        assert_eq!(f.hits(&pf, o, rad, d, max), a.is_some());
        hits += usize::from(a.is_some());
    }
    assert!(hits > CASTS as usize / 4, "{hits} hits");
}

/// A heightfield keeps its heights and a pyramid, never triangles: under twice its heights'
/// bytes (a triangle mesh of the same grid holds about 13 times them), and a placement of any
/// shape holds no per-vertex data.
#[test]
fn a_heightfield_holds_under_twice_its_heights() {
    for n in [2u32, 3, 64, 513, 700] {
        let heights: Vec<f32> = (0..n * n).map(|k| (k % 17) as f32 * 0.1).collect();
        let f = MeshShape::heightfield(n, n, 1.0, 1.0, heights).unwrap();
        let own = (n * n) as usize * 4;
        assert!(
            f.heap_bytes() <= 2 * own,
            "{n}: {} > 2 x {own}",
            f.heap_bytes()
        );
        assert!(f.heap_bytes() >= own);
    }
    assert!(std::mem::size_of::<Placement>() <= 128);
}

/// The free-direction search, as the rules run it (an any-hit cast a direction, the part that
/// blocked the last direction tried first: `Blocker`), chooses exactly the direction the
/// nearest-hit search chooses (`first_hit(..).is_none()` for each direction of the spiral, the
/// code before any-hit casts), over random scenes of meshes, heightfields, balls, boxes and
/// capsules, from origins among them; and every answer of `Blocker::any_hit` along the spiral
/// is `first_hit`'s.
#[test]
fn the_free_direction_search_chooses_what_the_nearest_hit_search_chooses() {
    use boids_core::math::look_rotation;
    use boids_core::obstacle::{Blocker, Near, first_hit, spiral_directions};
    let shapes = [Arc::new(rock(5)), Arc::new(field())];
    let mut r = rng(444);
    let (mut searches, mut blocked_dirs, mut free_chosen) = (0, 0u64, 0);
    for scene in 0..300u32 {
        let mut sr = rng(10_000 + scene);
        let mut all = Vec::new();
        for _ in 0..(2 + sr.next_u64() % 5) {
            let at = v(&mut sr, 6.0);
            let q = Quat::from_axis_angle(sr.unit_vector(), sr.range(-3.0, 3.0));
            let o = match sr.next_u64() % 5 {
                0 | 1 => {
                    let k = (sr.next_u64() % 2) as usize;
                    let scale = if k == 0 {
                        Vec3::new(sr.range(1.0, 3.0), sr.range(1.0, 3.0), sr.range(1.0, 3.0))
                    } else {
                        Vec3::new(sr.range(0.2, 0.6), sr.range(0.5, 2.0), sr.range(0.2, 0.6))
                    };
                    let (mesh, pos) = (
                        MeshId {
                            index: k as u32,
                            generation: 1,
                        },
                        at,
                    );
                    let o = if k == 0 {
                        Obstacle::Mesh {
                            mesh,
                            position: pos,
                            rotation: q,
                            scale,
                            ground: false,
                        }
                    } else {
                        Obstacle::Heightfield {
                            field: mesh,
                            position: pos - Vec3::new(5.0, 2.0, 5.0),
                            rotation: Quat::IDENTITY,
                            scale,
                            ground: false,
                        }
                    };
                    all.push(Placed::new(&o, Some(shapes[k].clone())));
                    continue;
                }
                2 => Obstacle::Sphere {
                    centre: at,
                    radius: sr.range(0.5, 2.0),
                },
                3 => Obstacle::OrientedBox {
                    centre: at,
                    half_extents: Vec3::new(
                        sr.range(0.2, 2.0),
                        sr.range(0.2, 2.0),
                        sr.range(0.2, 2.0),
                    ),
                    rotation: q,
                },
                _ => Obstacle::Capsule {
                    a: at,
                    b: at + v(&mut sr, 2.0),
                    radius: sr.range(0.2, 1.0),
                },
            };
            all.push(Placed::new(&o, None));
        }
        for _ in 0..100 {
            let origin = v(&mut r, 7.0);
            let heading = r.unit_vector();
            let (rad, reach) = (r.range(0.0, 0.5), r.range(0.5, 4.0));
            let near = Near::new(&all, origin, reach + rad);
            let nearest_blocks = |d: Vec3| first_hit(near.iter(), origin, rad, d, reach).is_some();
            if !nearest_blocks(heading) {
                let mut b = Blocker::default();
                assert!(!b.any_hit(&near, origin, rad, heading, reach));
                continue;
            }
            searches += 1;
            let frame = look_rotation(heading);
            let dirs: Vec<Vec3> = spiral_directions()
                .iter()
                .map(|&d| (frame * d).normalize())
                .collect();
            let before = dirs.iter().copied().find(|&d| !nearest_blocks(d));
            let mut b = Blocker::default();
            assert!(b.any_hit(&near, origin, rad, heading, reach));
            let mut chosen = None;
            for &d in &dirs {
                let blocked = b.any_hit(&near, origin, rad, d, reach);
                assert_eq!(
                    blocked,
                    nearest_blocks(d),
                    "scene {scene}: {origin} r {rad} dir {d}"
                );
                if !blocked {
                    chosen = Some(d);
                    break;
                }
                blocked_dirs += 1;
            }
            assert_eq!(
                chosen.map(|d| d.to_array().map(f32::to_bits)),
                before.map(|d| d.to_array().map(f32::to_bits))
            );
            free_chosen += usize::from(chosen.is_some());
        }
    }
    assert!(
        searches > 1000 && free_chosen > 500 && blocked_dirs > 10_000,
        "{searches} searches, {free_chosen} found a way, {blocked_dirs} blocked directions"
    );
}
