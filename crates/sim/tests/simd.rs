//! Every instruction set the kernel can run on gives the same bits: every preset and every
//! benchmark scenario, 300 steps, on every path this CPU supports (scalar, SSE2, AVX2, and
//! AVX-512 where present), must end in one state hash.

use boids_sim::builtin::{TORUS2D_DT, bench_world, clustered_world, torus2d_world};
use boids_sim::{IndexKind, SimdLevel, World, WorldConfig, presets};

const STEPS: usize = 300;

fn config(seed: u64, simd: SimdLevel) -> WorldConfig {
    WorldConfig {
        seed,
        threads: 2,
        simd: Some(simd),
    }
}

/// The hash after `steps` steps of the world `make` builds, on every supported level.
fn hashes(name: &str, steps: usize, dt: f32, make: impl Fn(SimdLevel) -> World) -> Vec<u64> {
    SimdLevel::supported()
        .into_iter()
        .map(|level| {
            let mut w = make(level);
            assert_eq!(
                w.simd(),
                level,
                "{name}: the world must run the level asked for"
            );
            for _ in 0..steps {
                w.step(dt).unwrap();
            }
            w.state_hash()
        })
        .collect()
}

fn assert_same(name: &str, h: &[u64]) {
    let levels = SimdLevel::supported();
    assert!(levels.len() >= 2 || !cfg!(target_arch = "x86_64"));
    for (l, x) in levels.iter().zip(h) {
        assert_eq!(
            *x, h[0],
            "{name}: {l} ends in {x:016x}, scalar in {:016x}",
            h[0]
        );
    }
}

#[test]
fn every_preset_gives_the_same_bits_on_every_instruction_set() {
    for p in presets::all() {
        let h = hashes(p.name, STEPS, 1.0 / 60.0, |level| {
            let mut w = World::new(config(3, level)).unwrap();
            p.create(&mut w, p.name).unwrap();
            w
        });
        assert_same(p.name, &h);
    }
}

#[test]
fn every_benchmark_scenario_gives_the_same_bits_on_every_instruction_set() {
    for kind in [IndexKind::Grid, IndexKind::KdTree] {
        let h = hashes("bench", STEPS, 1.0 / 60.0, |level| {
            bench_world(2000, config(5, level), kind).unwrap().0
        });
        assert_same("bench", &h);
    }
    let h = hashes("torus2d", STEPS, TORUS2D_DT, |level| {
        torus2d_world(2000, config(6, level), IndexKind::Grid)
            .unwrap()
            .0
    });
    assert_same("torus2d", &h);
    let h = hashes("clustered", 100, 1.0 / 60.0, |level| {
        clustered_world(3000, config(7, level), IndexKind::Auto)
            .unwrap()
            .0
    });
    assert_same("clustered", &h);
}

#[test]
fn levels_parse_check_and_detect() {
    // (`BOIDS_SIMD` itself is exercised through the `boids` command in crates/cli/tests.)
    assert_eq!("sse2".parse::<SimdLevel>(), Ok(SimdLevel::Sse2));
    assert!("avx3".parse::<SimdLevel>().unwrap_err().contains("avx512"));
    for level in SimdLevel::supported() {
        assert_eq!(level.check(), Ok(level));
    }
    // The default is the widest path the CPU has: AVX-512, else AVX2, else SSE2 on x86-64; NEON
    // on aarch64.
    let want = if SimdLevel::Neon.is_supported() {
        SimdLevel::Neon
    } else if SimdLevel::Avx512.is_supported() {
        SimdLevel::Avx512
    } else if SimdLevel::Avx2.is_supported() {
        SimdLevel::Avx2
    } else if SimdLevel::Sse2.is_supported() {
        SimdLevel::Sse2
    } else {
        SimdLevel::Scalar
    };
    assert_eq!(SimdLevel::detect(), want);
    assert_eq!("neon".parse::<SimdLevel>(), Ok(SimdLevel::Neon));
}
