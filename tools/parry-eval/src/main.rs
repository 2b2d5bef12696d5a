//! Cast speed, agreement and the bits of both libraries on the reef's rocks.
use boids_core::Vec3;
use boids_core::geometry::{MeshShape, Placement, Transform};
use parry3d::math::{Pose, Vector};
use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, TriMesh};
use std::time::Instant;

fn fnv(h: &mut u64, x: u32) { for b in x.to_le_bytes() { *h = (*h ^ u64::from(b)).wrapping_mul(0x100000001b3); } }

fn main() {
    let n: usize = std::env::args().nth(1).map_or(200_000, |s| s.parse().unwrap());
    let (verts, idx) = boids_sim::scene::rock(101, 2.0, 4, 0.35); // 2048 triangles
    let own = MeshShape::mesh(verts.clone(), &idx).unwrap();
    let pl = Placement::new(&own, Transform::new(Vec3::ZERO, boids_core::Quat::IDENTITY, Vec3::ONE));
    let pverts: Vec<Vector> = verts.iter().map(|v| Vector::new(v.x, v.y, v.z)).collect();
    let pidx: Vec<[u32; 3]> = idx.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let pmesh = TriMesh::new(pverts, pidx).unwrap();
    // Casts from a shell around the rock toward points near it: about half hit.
    let mut rng = boids_core::Rng::keyed(1, 2, 3, 4);
    let casts: Vec<(Vec3, Vec3)> = (0..n).map(|_| {
        let o = rng.unit_vector() * rng.range(3.0, 6.0);
        let t = rng.unit_vector() * rng.range(0.0, 2.5);
        (o, (t - o).normalize())
    }).collect();
    let r = 0.25f32;
    for (label, radius) in [("ray", 0.0f32), ("sphere r 0.25", r)] {
        // own
        let t0 = Instant::now();
        let mut h_own = 0xcbf29ce484222325u64;
        let mut own_d = Vec::with_capacity(n);
        for &(o, d) in &casts {
            let hit = own.cast(&pl, o, radius, d, 10.0).map(|h| h.0);
            if let Some(h) = hit { fnv(&mut h_own, h.distance.to_bits()); for c in h.normal.to_array() { fnv(&mut h_own, c.to_bits()); } } else { fnv(&mut h_own, 0xFFFF_FFFF); }
            own_d.push(hit.map(|h| h.distance));
        }
        let own_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        // parry
        let t0 = Instant::now();
        let mut h_par = 0xcbf29ce484222325u64;
        let mut par_d = Vec::with_capacity(n);
        let ball = Ball::new(radius.max(1e-6));
        for &(o, d) in &casts {
            let (dist, normal) = if radius == 0.0 {
                let ray = Ray::new(Vector::new(o.x, o.y, o.z), Vector::new(d.x, d.y, d.z));
                match pmesh.cast_ray_and_get_normal(&Pose::IDENTITY, &ray, 10.0, false) { Some(h) => (Some(h.time_of_impact), [h.normal.x, h.normal.y, h.normal.z]), None => (None, [0.0; 3]) }
            } else {
                match cast_shapes(&Pose::from_translation(Vector::new(o.x, o.y, o.z)), Vector::new(d.x, d.y, d.z), &ball, &Pose::IDENTITY, Vector::ZERO, &pmesh, ShapeCastOptions::with_max_time_of_impact(10.0)) {
                    Ok(Some(h)) => (Some(h.time_of_impact), [h.normal1.x, h.normal1.y, h.normal1.z]),
                    _ => (None, [0.0; 3]),
                }
            };
            if let Some(t) = dist { fnv(&mut h_par, t.to_bits()); for c in normal { fnv(&mut h_par, c.to_bits()); } } else { fnv(&mut h_par, 0xFFFF_FFFF); }
            par_d.push(dist);
        }
        let par_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        let (mut same_hit, mut worst) = (0usize, 0f32);
        let mut hits = 0;
        for (a, b) in own_d.iter().zip(&par_d) {
            match (a, b) {
                (Some(x), Some(y)) => { same_hit += 1; hits += 1; worst = worst.max((x - y).abs()); }
                (None, None) => same_hit += 1,
                _ => {}
            }
        }
        println!("{label}: {n} casts on {} triangles, {hits} hits; own {own_ns:.0} ns/cast (hash {h_own:016x}); parry {par_ns:.0} ns/cast (hash {h_par:016x}); hit/miss agree {:.3}%, largest distance difference {worst:.2e}", own.triangles().len(), 100.0 * same_hit as f64 / n as f64);
    }
}
