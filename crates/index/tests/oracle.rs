//! Every index returns exactly the brute-force neighbour set, for radius and k-nearest queries,
//! on point sets chosen to break them.

use boids_core::Rng;
use boids_index::{AnyIndex, Hit, Kind, NeighbourIndex, Period, Points};
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

fn build(kind: Kind, pts: &[Vec3], radius: f32, per: Option<Period>) -> AnyIndex {
    let vel: Vec<Vec3> = pts.iter().map(|p| *p * 0.5).collect();
    let mut idx = AnyIndex::new(kind);
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

fn radius_set(idx: &AnyIndex, q: Vec3, r: f32, exclude: u32) -> Vec<(u32, u32, u32)> {
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
fn grid_cell_blocks_cover_every_neighbour() {
    // The candidate block of a cell holds every boid within the build radius of each boid in it.
    let mut rng = Rng::keyed(11, 0, 0, 0);
    for per in [None, Some(Period::new(Vec3::ZERO, Vec3::splat(6.0)))] {
        let pts = uniform(&mut rng, 700, 6.0);
        let vel = vec![Vec3::ZERO; pts.len()];
        let mut g = boids_index::Grid::default();
        g.build(
            Points {
                positions: &pts,
                velocities: &vel,
                headings: &[],
            },
            1.0,
            per,
        );
        let mut buf = boids_index::CandidateBuf::default();
        for c in 0..g.cell_count() {
            let slots = g.cell_slots(c);
            if slots.is_empty() {
                continue;
            }
            g.gather_candidates(c, &mut buf, false, true);
            let cand = buf.slices();
            for s in slots.clone() {
                let q = g.position(s);
                let own = buf.own_index(s - slots.start);
                assert_eq!((cand.x[own], cand.y[own], cand.z[own]), (q.x, q.y, q.z));
                assert_eq!(buf.slots()[own] as usize, s);
                let mut expect = 0;
                g.for_each_within(q, 1.0, g.original()[s], |_| expect += 1);
                let mut found = 0;
                for j in 0..cand.x.len() {
                    let mut o = Vec3::new(cand.x[j], cand.y[j], cand.z[j]) - q;
                    if let Some(p) = per {
                        o = p.min_image(o);
                    }
                    if j != own && o.length_squared() < 1.0 {
                        found += 1;
                    }
                }
                assert_eq!(found, expect);
            }
        }
    }
}
