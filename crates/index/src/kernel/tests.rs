//! The kernel against the plain one-by-one loop, on every instruction set this CPU has.

use super::*;
use boids_core::fmath::Order;

/// One boid's sums the plain way: its candidates one by one in slot order, the kernel's
/// operations in the kernel's order, in f32 (the reference every lane of every
/// instruction set must match bit for bit).
#[allow(clippy::too_many_arguments)]
fn reference(
    pts: &[[f32; 3]],
    vel: &[[f32; 3]],
    head: &[[f32; 3]],
    spec: &Spec,
    size: [f32; 3],
    own: usize,
    cands: &[u32],
) -> Raw {
    let mut r = Raw::default();
    let q = pts[own];
    let hq = head[own];
    let mut acc = [0.0f32; 13];
    for &j in cands {
        let j = j as usize;
        if j == own {
            continue;
        }
        let mut e = [0.0f32; 3];
        for a in 0..3 {
            e[a] = pts[j][a] - q[a];
            if spec.period.is_some() {
                let (half, sz) = (0.5 * size[a], size[a]);
                e[a] = if e[a] > half {
                    e[a] - sz
                } else if e[a] < -half {
                    e[a] + sz
                } else {
                    e[a]
                };
            }
        }
        let d2 = (e[0] * e[0] + e[1] * e[1]) + e[2] * e[2];
        if d2.partial_cmp(&spec.r2) != Some(std::cmp::Ordering::Less) {
            continue;
        }
        let inv = 1.0 / d2.at_least(f32::MIN_POSITIVE).sqrt();
        let dot = (hq[0] * e[0] + hq[1] * e[1]) + hq[2] * e[2];
        let seen = if spec.cos == f32::NEG_INFINITY {
            true
        } else {
            dot * inv > spec.cos
        };
        if !seen {
            continue;
        }
        r.count += 1;
        for a in 0..3 {
            acc[a] += e[a];
            acc[3 + a] += vel[j][a];
        }
        if d2 < spec.s2 {
            r.sep_count += 1;
            let f = match spec.sep {
                SeparationMode::UnitMean => e.map(|x| x * inv),
                SeparationMode::InverseSquare => e.map(|x| x * (inv * inv)),
                _ => e,
            };
            for a in 0..3 {
                acc[6 + a] -= f[a];
            }
        }
        if spec.heads {
            for a in 0..3 {
                acc[9 + a] += head[j][a];
            }
        }
        if spec.speed {
            let v = vel[j];
            acc[12] += ((v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]).sqrt();
        }
    }
    r.s = acc;
    r
}

/// Random points in a small box (some coincident), every instruction set, view and
/// separation form, periodic or not: every boid's sums, from a batch of eight over runs,
/// from a batch over a list, and alone, equal the plain one-by-one reference bit for bit,
/// however the candidates are grouped and whatever extra candidates there are.
#[test]
fn every_level_and_every_grouping_gives_the_reference_bits() {
    let mut s = 99u64;
    let mut rnd = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 40) as f32 / 16_777_216.0
    };
    let n = 300;
    let pts: Vec<[f32; 3]> = (0..n)
        .map(|i| {
            if i % 17 == 0 {
                [0.5; 3] // coincident boids
            } else {
                [rnd() * 3.0, rnd() * 3.0, rnd() * 3.0]
            }
        })
        .collect();
    let vel: Vec<[f32; 3]> = (0..n)
        .map(|_| [rnd() * 4.0 - 2.0, rnd() * 4.0 - 2.0, rnd() * 4.0 - 2.0])
        .collect();
    let head: Vec<[f32; 3]> = (0..n)
        .map(|_| {
            Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5)
                .normalize()
                .to_array()
        })
        .collect();
    let col = |src: &[[f32; 3]], a: usize, pad: f32| -> Vec<f32> {
        let mut v: Vec<f32> = src.iter().map(|x| x[a]).collect();
        v.resize(n + PAD, pad);
        v
    };
    let p: Vec<Vec<f32>> = (0..3).map(|a| col(&pts, a, f32::INFINITY)).collect();
    let v: Vec<Vec<f32>> = (0..3).map(|a| col(&vel, a, 0.0)).collect();
    let h: Vec<Vec<f32>> = (0..3).map(|a| col(&head, a, 0.0)).collect();
    let soa = Soa::new(
        [&p[0], &p[1], &p[2]],
        [&v[0], &v[1], &v[2]],
        [&h[0], &h[1], &h[2]],
        true,
    );
    // The same candidates grouped two ways (and a list of every slot), so the groupings
    // differ and a boid's own slot falls inside a run.
    let runs = [(0u32, 37u32), (37, 38), (38, 38), (38, 45), (45, 300)];
    let all: Vec<u32> = (0..n as u32).collect();
    let one_run = [(0u32, n as u32)];
    let mut checked = 0;
    for period in [None, Some(Vec3::splat(3.0))] {
        // Separation radii inside the view radius and not (every form's `SEP_ALL` too).
        for (sep, cos, s2) in [
            (SeparationMode::UnitMean, 0.0f32, 0.6),
            (SeparationMode::InverseSquare, -0.5, 0.6),
            (SeparationMode::MeanOffset, f32::NEG_INFINITY, 0.6),
            (SeparationMode::UnitMean, 0.3, 0.6),
            (SeparationMode::UnitMean, -4.371139e-8, 1.1),
            (SeparationMode::InverseSquare, 0.0, 2.0),
            (SeparationMode::SumOffset, 0.3, 1.1),
        ] {
            let size = kernel_size([0, 1, 2], period);
            for level in SimdLevel::supported() {
                let spec = Spec {
                    r2: 1.1,
                    s2,
                    cos,
                    sep,
                    // The extra sums with the plain forms only (else the run-time form).
                    heads: s2 == 0.6,
                    speed: s2 == 0.6,
                    period,
                    level,
                };
                let bits = |r: &Raw| (r.count, r.sep_count, r.s.map(f32::to_bits));
                // A full batch (8 or 16 lanes), and batches the end of the boids cuts.
                for first in [0usize, 13, 40, 292, 287] {
                    let m = (n - first).min(width(level));
                    let a = runs_fn(&spec, true)(&soa, &spec, size, first, m, &runs);
                    let b = runs_fn(&spec, true)(&soa, &spec, size, first, m, &one_run);
                    let c = list_fn(&spec, true)(&soa, &spec, size, first, m, &all);
                    for l in 0..m {
                        let want = reference(&pts, &vel, &head, &spec, size, first + l, &all);
                        let alone = runs_fn(&spec, true)(&soa, &spec, size, first + l, 1, &runs);
                        for (what, got) in [
                            ("runs", a[l / 8].lane(l % 8)),
                            ("one run", b[l / 8].lane(l % 8)),
                            ("list", c[l / 8].lane(l % 8)),
                            ("alone", alone[0].lane(0)),
                            (
                                "one boid, runs",
                                one_boid(
                                    &soa,
                                    &spec,
                                    size,
                                    first + l,
                                    runs.iter().flat_map(|&(a, b)| a as usize..b as usize),
                                ),
                            ),
                            (
                                "one boid, list",
                                one_boid(&soa, &spec, size, first + l, 0..n),
                            ),
                        ] {
                            assert_eq!(
                                bits(&got),
                                bits(&want),
                                "{level}, {what}, slot {}",
                                first + l
                            );
                        }
                        checked += 1;
                    }
                    assert!(
                        a[0].count.iter().any(|&c| c > 3),
                        "the test should see neighbours"
                    );
                }
            }
        }
    }
    assert!(checked >= 200);
}
