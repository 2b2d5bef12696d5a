//! Cost of the C ABI for a renderer: `boids_world_step` + `boids_flock_read_matrices` through the
//! exported functions, against `World::step` in Rust without any read. Both worlds start from the
//! same seed and take the same steps (so they do the same work); steps are interleaved A, B, A, B
//! so machine noise hits both alike. Prints medians and the overhead.
//!
//! `cargo bench -p boids-benches --bench ffi_overhead` (`BOIDS_FFI_N`, `BOIDS_FFI_STEPS` change
//! the size and the number of steps).
#![expect(unsafe_code, reason = "calls the C ABI as a C host does")]

use boids_ffi::*;
use boids_sim::IndexKind;
use boids_sim::builtin::{bench_cube_side, bench_params, bench_world};
use std::time::Instant;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let n = env("BOIDS_FFI_N", 100_000);
    let steps = env("BOIDS_FFI_STEPS", 40);
    let dt = 1.0 / 60.0;
    let (mut rust, _) = bench_world(n, cfg(1, 2), IndexKind::Grid).expect("bench world");

    // The same world through the C ABI: same seed, params, spawn.
    let mut wdef = boids_default_world_def();
    wdef.seed = 1;
    wdef.threads = 2;
    let mut w = BoidsWorldId::default();
    let mut f = BoidsFlockId::default();
    let side = bench_cube_side(n);
    let params = bench_params(side, IndexKind::Grid);
    let mut fdef = boids_default_flock_def();
    fdef.name = c"bench".as_ptr();
    fdef.params.bounds.min = params_min(&params);
    fdef.params.bounds.max = BoidsVec3 {
        x: side,
        y: side,
        z: side,
    };
    let mut spawn = boids_default_spawn_def();
    spawn.min = BoidsVec3::default();
    spawn.max = BoidsVec3 {
        x: side,
        y: side,
        z: side,
    };
    let mut first = 0;
    let mut count = 0usize;
    let mut matrices = vec![BoidsMat4::default(); n];
    // SAFETY: every pointer is a live local of the right type; `matrices` holds `n` entries.
    unsafe {
        assert_eq!(boids_world_create(&wdef, &mut w), BoidsResult::Ok);
        assert_eq!(boids_flock_create(w, &fdef, &mut f), BoidsResult::Ok);
        assert_eq!(
            boids_flock_spawn(f, n as u32, &spawn, &mut first),
            BoidsResult::Ok
        );
    }
    let mut h = 0u64;
    // SAFETY: `h` is a live local.
    unsafe { boids_world_state_hash(w, &mut h) };
    assert_eq!(
        h,
        rust.state_hash(),
        "both worlds start from the same state"
    );

    let (mut a, mut b) = (Vec::new(), Vec::new());
    for k in 0..steps + 3 {
        let t = Instant::now();
        rust.step(dt).expect("step");
        let ta = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        // SAFETY: `matrices` holds `n` entries; `count` is a live local.
        unsafe {
            assert_eq!(boids_world_step(w, dt), BoidsResult::Ok);
            assert_eq!(
                boids_flock_read_matrices(f, 1.0, matrices.as_mut_ptr(), n, &mut count),
                BoidsResult::Ok
            );
        }
        let tb = t.elapsed().as_secs_f64() * 1e3;
        if k >= 3 {
            a.push(ta);
            b.push(tb);
        }
    }
    // SAFETY: `h` is a live local.
    unsafe { boids_world_state_hash(w, &mut h) };
    assert_eq!(h, rust.state_hash(), "both did the same work");
    let mut reads = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        // SAFETY: as above.
        unsafe { boids_flock_read_matrices(f, 1.0, matrices.as_mut_ptr(), n, &mut count) };
        reads.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let read_ms = median(&mut reads);
    println!("  read 4x4 matrices alone               {read_ms:.3} ms (median)");
    let (ma, mb) = (median(&mut a), median(&mut b));
    println!("boids {n}, 2 threads, {steps} steps, free-moving flock, interleaved");
    println!("  Rust World::step, no read             {ma:.3} ms (median)");
    println!("  C ABI step + read 4x4 matrices        {mb:.3} ms (median)");
    println!(
        "  overhead                              {:+.1} %",
        (mb / ma - 1.0) * 100.0
    );
    println!(
        "ffi_overhead n={n} rust_ms={ma:.4} c_abi_step_and_matrices_ms={mb:.4} overhead_pct={:.2}",
        (mb / ma - 1.0) * 100.0
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

fn params_min(p: &boids_sim::FlockParams) -> BoidsVec3 {
    match p.bounds {
        boids_sim::Bounds::SoftBox { min, .. } => min.into(),
        _ => BoidsVec3::default(),
    }
}

/// A world config with this seed and thread count.
fn cfg(seed: u64, threads: usize) -> boids_sim::WorldConfig {
    boids_sim::WorldConfig {
        seed,
        threads,
        ..boids_sim::WorldConfig::default()
    }
}
