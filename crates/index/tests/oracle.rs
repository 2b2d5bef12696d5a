//! Every index returns exactly the brute-force neighbour set, for radius and k-nearest queries,
//! on point sets chosen to break them.

use boids_core::Rng;
use boids_core::SeparationMode;
use boids_index::{
    Hit, Index, IndexKind as Kind, NeighbourIndex, Period, Points, Scratch, SimdLevel, Spec,
};
use glam::Vec3;

fn uniform(rng: &mut Rng, n: usize, side: f32) -> Vec<Vec3> {
    (0..n)
        .map(|_| {
            Vec3::new(
                rng.range(0.0, side),
                rng.range(0.0, side),
                rng.range(0.0, side),
            )
        })
        .collect()
}

/// Named point sets.
fn cases() -> Vec<(&'static str, Vec<Vec3>, Option<Period>)> {
    let mut rng = Rng::keyed(42, 0, 0, 0);
    let mut out = vec![];
    out.push(("uniform", uniform(&mut rng, 800, 8.0), None));
    let centres = uniform(&mut rng, 5, 10.0);
    let clustered = (0..600)
        .map(|i| centres[i % 5] + rng.in_unit_ball() * 0.7)
        .collect();
    out.push(("clustered", clustered, None));
    out.push(("coincident", vec![Vec3::new(1.0, 2.0, 3.0); 40], None));
    let plane = (0..400)
        .map(|_| Vec3::new(rng.range(0.0, 6.0), 0.5, rng.range(0.0, 6.0)))
        .collect();
    out.push(("plane", plane, None));
    out.push(("empty", vec![], None));
    out.push(("one", vec![Vec3::splat(0.25)], None));
    // Points on exact cell borders (multiples of the radius) and at exact radius distances.
    let lattice = (0..6)
        .flat_map(|x| {
            (0..6).flat_map(move |y| (0..6).map(move |z| Vec3::new(x as f32, y as f32, z as f32)))
        })
        .collect();
    out.push(("lattice on cell borders", lattice, None));
    let per = Period::new(Vec3::ZERO, Vec3::new(7.0, 5.0, 6.0));
    let mut wrapped = uniform(&mut rng, 500, 1.0);
    for p in &mut wrapped {
        *p *= Vec3::new(7.0, 5.0, 6.0);
    }
    // Crowd the faces so many neighbours are across the boundary.
    for k in 0..100 {
        wrapped.push(Vec3::new(
            rng.range(0.0, 0.3),
            rng.range(4.7, 5.0),
            (k % 6) as f32,
        ));
    }
    out.push(("wrap-around", wrapped, Some(per)));
    let tiny = Period::new(Vec3::ZERO, Vec3::splat(2.5));
    let mut small = uniform(&mut rng, 120, 2.5);
    small.push(Vec3::ZERO);
    out.push(("wrap-around, box under three radii", small, Some(tiny)));
    out
}

fn build(kind: Kind, pts: &[Vec3], radius: f32, per: Option<Period>) -> Index {
    let vel: Vec<Vec3> = pts.iter().map(|p| *p * 0.5).collect();
    let mut idx = Index::new(kind);
    idx.build(
        Points {
            positions: pts,
            velocities: &vel,
            headings: &[],
        },
        radius,
        per,
    );
    idx
}

fn radius_set(idx: &Index, q: Vec3, r: f32, exclude: u32) -> Vec<(u32, u32, u32)> {
    let mut v = vec![];
    idx.for_each_within(q, r, exclude, |h: Hit| {
        v.push((h.index, h.d2.to_bits(), h.offset.x.to_bits()))
    });
    v.sort_unstable();
    v
}

#[test]
fn radius_queries_match_brute_force() {
    for (name, pts, per) in cases() {
        for r in [1.0f32, 0.5, 1.7] {
            let brute = build(Kind::BruteForce, &pts, r, per);
            for kind in [Kind::Grid, Kind::KdTree] {
                let idx = build(kind, &pts, r, per);
                let mut queries: Vec<(Vec3, u32)> = pts
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, i as u32))
                    .collect();
                // Points that are not in the set, some far outside it.
                queries.extend([
                    (Vec3::splat(-3.0), u32::MAX),
                    (Vec3::new(3.3, 0.2, 2.9), u32::MAX),
                    (Vec3::splat(1e6), u32::MAX),
                ]);
                for (q, ex) in queries {
                    let a = radius_set(&idx, q, r, ex);
                    let b = radius_set(&brute, q, r, ex);
                    assert_eq!(a, b, "{name}, {kind:?}, r = {r}, query {q}");
                }
            }
        }
    }
}

#[test]
fn k_nearest_queries_match_brute_force() {
    for (name, pts, per) in cases() {
        let r = 1.2;
        let brute = build(Kind::BruteForce, &pts, r, per);
        for kind in [Kind::Grid, Kind::KdTree] {
            let idx = build(kind, &pts, r, per);
            for k in [1usize, 7, 50] {
                let (mut a, mut b) = (vec![], vec![]);
                for (i, &q) in pts.iter().enumerate() {
                    idx.k_nearest(q, r, k, i as u32, &mut a);
                    brute.k_nearest(q, r, k, i as u32, &mut b);
                    let ka: Vec<(u32, u32)> = a.iter().map(|h| (h.index, h.d2.to_bits())).collect();
                    let kb: Vec<(u32, u32)> = b.iter().map(|h| (h.index, h.d2.to_bits())).collect();
                    assert_eq!(ka, kb, "{name}, {kind:?}, k = {k}, point {i}");
                    assert!(ka.len() <= k);
                }
            }
        }
    }
}

#[test]
fn velocities_follow_slots() {
    let mut rng = Rng::keyed(9, 0, 0, 0);
    let pts = uniform(&mut rng, 300, 5.0);
    for kind in [Kind::Grid, Kind::KdTree, Kind::BruteForce] {
        let idx = build(kind, &pts, 1.0, None);
        idx.for_each_within(Vec3::splat(2.5), 1.0, u32::MAX, |h| {
            assert_eq!(idx.velocity(h.slot), pts[h.index as usize] * 0.5);
        });
    }
}

#[test]
fn every_kind_and_instruction_set_sums_the_same_neighbours_bit_for_bit() {
    // The kernel: each boid adds its candidates one by one in slot order, so every index kind
    // (whatever candidates it offers, grouped however) and every SIMD level gives identical
    // sums; and they are the sums over exactly the neighbours a direct scan finds.
    for (name, pts, per) in cases() {
        let heads: Vec<Vec3> = pts
            .iter()
            .enumerate()
            .map(|(i, _)| {
                Vec3::new((i as f32 * 0.7).sin(), 0.3, (i as f32 * 0.7).cos()).normalize()
            })
            .collect();
        let vel: Vec<Vec3> = heads.iter().map(|h| *h * 2.0).collect();
        let r = 1.0f32;
        for k in [0usize, 5, 17] {
            let mut reference: Option<Vec<String>> = None;
            for kind in [Kind::BruteForce, Kind::Grid, Kind::KdTree] {
                let mut idx = Index::new(kind);
                idx.build(
                    Points {
                        positions: &pts,
                        velocities: &vel,
                        headings: &heads,
                    },
                    r,
                    per,
                );
                for level in SimdLevel::supported() {
                    let spec = Spec {
                        r2: r * r,
                        s2: 0.5,
                        cos: 0.2,
                        sep: SeparationMode::UnitMean,
                        heads: true,
                        speed: true,
                        period: per.map(|p| p.size),
                        level,
                    };
                    let mut scratch = Scratch::default();
                    let got: Vec<String> = (0..pts.len())
                        .map(|s| format!("{:?}", idx.neighbourhood(s, &spec, k, &mut scratch)))
                        .collect();
                    // The cell-by-cell walk the step uses gives the same sums.
                    let mut walked = vec![String::new(); pts.len()];
                    let cells = idx.cell_starts().len() - 1;
                    idx.for_each_neighbourhood(0..cells, &spec, k, &mut scratch, |s, hood| {
                        walked[s] = format!("{hood:?}");
                    });
                    // With the view all around, the walk counts every other boid within the
                    // radius (up to k).
                    let all_round = Spec {
                        cos: f32::NEG_INFINITY,
                        ..spec
                    };
                    let mut in_radius = 0u64;
                    idx.for_each_neighbourhood(0..cells, &all_round, 0, &mut scratch, |_, hood| {
                        in_radius += u64::from(hood.count);
                    });
                    let pairs: u64 = (0..pts.len())
                        .map(|s| {
                            (0..pts.len())
                                .filter(|&j| {
                                    let o = boids_index::offset(
                                        idx.position(j),
                                        idx.position(s),
                                        per.as_ref(),
                                    );
                                    j != s && boids_index::kernel::dist2(o) < r * r
                                })
                                .count() as u64
                        })
                        .sum();
                    assert_eq!(
                        in_radius, pairs,
                        "{name}: in-radius count ({kind:?}, {level})"
                    );
                    assert!(
                        walked == got,
                        "{name}: the cell walk differs ({kind:?}, {level})"
                    );
                    if k == 0 && kind == Kind::BruteForce && level == SimdLevel::Scalar {
                        // Counts against a direct scan of the slots.
                        for s in 0..pts.len() {
                            let q = idx.position(s);
                            let h = idx.heading(s as u32);
                            let expect = (0..pts.len())
                                .filter(|&j| {
                                    let o = boids_index::offset(idx.position(j), q, per.as_ref());
                                    let d2 = o.length_squared();
                                    let inv = if d2 > 0.0 { 1.0 / d2.sqrt() } else { 0.0 };
                                    j != s && d2 < r * r && h.dot(o) * inv > 0.2
                                })
                                .count();
                            let hood = idx.neighbourhood(s, &spec, 0, &mut scratch);
                            assert_eq!(hood.count as usize, expect, "{name}: slot {s}");
                        }
                    }
                    match &reference {
                        None => reference = Some(got),
                        Some(r) => {
                            assert!(r == &got, "{name}: {kind:?} on {level} differs (k = {k})")
                        }
                    }
                }
            }
        }
    }
}

/// The kernel finds exactly the neighbours `Neighbourhood::consider` (the model's one-neighbour
/// definition) finds, with the same sums up to rounding: only the order of the additions
/// differs.
#[test]
fn kernel_matches_the_models_one_neighbour_definition() {
    use boids_core::{Derived, FlockParams, Neighbourhood};
    let mut rng = Rng::keyed(3, 0, 0, 0);
    for mode in [
        SeparationMode::UnitMean,
        SeparationMode::InverseSquare,
        SeparationMode::MeanOffset,
    ] {
        for fov in [90.0, 180.0, 30.0] {
            let p = FlockParams {
                separation: mode,
                fov_half_angle_deg: fov,
                separation_radius: 0.6,
                ..FlockParams::default()
            };
            let d = Derived::new(&p);
            let n: usize = 61;
            let pts: Vec<Vec3> = (0..n).map(|_| rng.in_unit_ball() * 1.5).collect();
            let vel: Vec<Vec3> = (0..n).map(|_| rng.unit_vector() * 3.0).collect();
            let heads: Vec<Vec3> = vel.iter().map(|v| v.normalize()).collect();
            let mut idx = Index::new(Kind::Grid);
            idx.build(
                Points {
                    positions: &pts,
                    velocities: &vel,
                    headings: &heads,
                },
                1.0,
                None,
            );
            let spec = Spec {
                r2: d.radius2,
                s2: d.separation_radius2,
                cos: if d.fov_active {
                    d.cos_fov
                } else {
                    f32::NEG_INFINITY
                },
                sep: mode,
                heads: true,
                speed: true,
                period: None,
                level: SimdLevel::detect(),
            };
            let mut scratch = Scratch::default();
            for s in 0..n {
                let own = idx.order()[s] as usize;
                let kernel = idx.neighbourhood(s, &spec, 0, &mut scratch);
                let mut scalar = Neighbourhood::default();
                for j in 0..n {
                    let o = pts[j] - pts[own];
                    if j != own && o.length_squared() < d.radius2 {
                        scalar.consider(&d, heads[own], o, o.length_squared(), vel[j], heads[j]);
                    }
                }
                assert_eq!(kernel.count, scalar.count);
                assert_eq!(kernel.separation_count, scalar.separation_count);
                for (a, b) in [
                    (kernel.sum_offset, scalar.sum_offset),
                    (kernel.sum_velocity, scalar.sum_velocity),
                    (kernel.separation, scalar.separation),
                    (kernel.sum_heading, scalar.sum_heading),
                ] {
                    assert!((a - b).length() <= 1e-4 * (1.0 + b.length()), "{a} vs {b}");
                }
                assert!(
                    (kernel.sum_speed - scalar.sum_speed).abs() <= 1e-4 * (1.0 + scalar.sum_speed)
                );
            }
        }
    }
}
