//! Reads of a flock read every frame: its steps keep its positions and headings in id order, and
//! the reads go through those arrays instead of gathering from storage order. Every read must
//! give the same bits either way: a world read after every step is compared with the same
//! world read only at the end (whose reads gather), for the benchmark scenario on one thread
//! and in parallel (sizes that take the reads' and the id order's parallel paths), a chain of
//! steps, and every preset (the herd's leaning sheep draw their kept orientations).

use boids_core::math::{look_basis, look_rotation_direct};
use boids_sim::builtin::bench_world;
use boids_sim::{FlockId, IndexKind, Vec3, World, WorldConfig, presets};

const DT: f32 = 1.0 / 60.0;

/// Every read of flock `id`, as bits: ids, positions, velocities, headings, orientations,
/// matrices, matrices under a transform.
fn reads(w: &World, id: FlockId) -> Vec<Vec<u32>> {
    let n = w.flock(id).unwrap().len();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let flat = |v: &[Vec3]| bits(&v.iter().flat_map(|p| p.to_array()).collect::<Vec<_>>());
    let mut ids = vec![0u32; n];
    let (mut p, mut v, mut h) = (
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
    );
    let mut q = vec![[0.0f32; 4]; n];
    let (mut m, mut mt) = (vec![[0.0f32; 16]; n], vec![[0.0f32; 16]; n]);
    let t: [f32; 16] = std::array::from_fn(|k| k as f32 * 0.25 - 1.5);
    w.read_ids(id, &mut ids).unwrap();
    w.read_positions(id, &mut p).unwrap();
    w.read_velocities(id, &mut v).unwrap();
    w.flock(id).unwrap().read_headings(&mut h);
    w.read_orientations(id, &mut q).unwrap();
    w.read_matrices(id, 0.5, &mut m).unwrap();
    w.read_matrices_transformed(id, &t, 0.5, &mut mt).unwrap();
    vec![
        ids,
        flat(&p),
        flat(&v),
        flat(&h),
        bits(q.as_flattened()),
        bits(m.as_flattened()),
        bits(mt.as_flattened()),
    ]
}

/// Heap bytes a boid of every flock of `w`.
fn bytes(w: &World) -> f64 {
    let ids: Vec<_> = w.flock_ids().collect();
    let n: usize = ids.iter().map(|&i| w.flock(i).unwrap().len()).sum();
    let b: usize = ids.iter().map(|&i| w.flock(i).unwrap().heap_bytes()).sum();
    b as f64 / n.max(1) as f64
}

#[test]
fn reads_through_the_arrays_in_id_order_give_the_bits_of_the_gathered_reads() {
    // 500: every read on the calling thread; 10,000: the step's parallel gathers; 70,000: the
    // parallel id order and reads, and streamed matrices.
    for (n, steps) in [(500, 6), (10_000, 4), (70_000, 2)] {
        let mut first: Option<Vec<Vec<u32>>> = None;
        for threads in [1, 2] {
            let config = WorldConfig {
                seed: 7,
                threads,
                simd: None,
            };
            let (mut read, id) = bench_world(n, config, IndexKind::Grid).unwrap();
            let (mut unread, id2) = bench_world(n, config, IndexKind::Grid).unwrap();
            for _ in 0..steps {
                let _ = reads(&read, id);
                read.step(DT).unwrap();
                unread.step(DT).unwrap();
            }
            // The flock read every step keeps its arrays in id order (24 bytes a boid); the
            // other has none, so its reads gather.
            let (a, b) = (bytes(&read), bytes(&unread));
            assert!(a - b >= 23.0, "n {n}, threads {threads}: {a:.1} vs {b:.1}");
            let got = reads(&read, id);
            assert_eq!(got, reads(&unread, id2), "n {n}, threads {threads}");
            // In id order (the id order built in parallel too), the same on any thread count.
            assert!(
                got[0].windows(2).all(|w| w[0] < w[1]),
                "n {n}: ids out of order"
            );
            assert_eq!(got, *first.get_or_insert_with(|| got.clone()), "n {n}");
            // And they are the one-boid functions' values, boid by boid.
            let f = read.flock(id).unwrap();
            for i in (0..n).step_by(97) {
                let b = f.boid(i);
                let pos: Vec<u32> = b.position.to_array().map(f32::to_bits).to_vec();
                assert_eq!(got[1][3 * i..3 * i + 3], pos[..], "boid {i}");
                let q = look_rotation_direct(b.heading).to_array().map(f32::to_bits);
                assert_eq!(got[4][4 * i..4 * i + 4], q[..], "boid {i}");
                let (_, _, fwd) = look_basis(b.heading);
                let col2 = (fwd * 0.5).to_array().map(f32::to_bits);
                assert_eq!(got[5][16 * i + 8..16 * i + 11], col2[..], "boid {i}");
            }
        }
    }
}

#[test]
fn a_chain_of_steps_and_an_unread_flock_keep_them_right() {
    let config = WorldConfig {
        seed: 3,
        threads: 2,
        simd: None,
    };
    let (mut read, id) = bench_world(5_000, config, IndexKind::Grid).unwrap();
    let (mut unread, id2) = bench_world(5_000, config, IndexKind::Grid).unwrap();
    for frame in 0..12 {
        // Read every frame for a while, then not (the arrays go), then again.
        if !(4..10).contains(&frame) {
            let _ = reads(&read, id);
        }
        read.step_begin_n(DT, 2).unwrap();
        read.step_end().unwrap();
        unread.step(DT).unwrap();
        unread.step(DT).unwrap();
        assert_eq!(reads(&read, id), reads(&unread, id2), "frame {frame}");
    }
}

#[test]
fn every_preset_reads_the_same_read_every_step_or_not() {
    for p in presets::all() {
        let config = WorldConfig {
            seed: 11,
            threads: 2,
            simd: None,
        };
        let mut read = World::new(config).unwrap();
        let mut unread = World::new(config).unwrap();
        p.create(&mut read, p.name).unwrap();
        p.create(&mut unread, p.name).unwrap();
        let ids: Vec<_> = read.flock_ids().collect();
        for _ in 0..5 {
            for &id in &ids {
                let _ = reads(&read, id);
            }
            read.step(DT).unwrap();
            unread.step(DT).unwrap();
        }
        for &id in &ids {
            assert_eq!(reads(&read, id), reads(&unread, id), "{}", p.name);
        }
    }
}
