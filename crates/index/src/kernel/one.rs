//! One boid alone, in plain `f32`: a lane of the batch kernel on its own.

use super::batch::{FOV_ALL, FOV_COS, SEP_INV2, SEP_OFFSET, SEP_UNIT, sep_form};
use super::*;
use boids_core::fmath::Order;

/// The neighbourhood of the boid in slot `own` over the candidate slots `cands` (ascending,
/// any may be out of radius or be `own`), one candidate at a time in plain `f32`: a lane of the
/// kernel's step on its own, so the same bits as every instance (each lane performs exactly
/// these operations in this order). For a single boid (a query, a k-nearest list, the
/// nearest-boid stand-in) this is cheaper than a batch call, whose other lanes would be idle.
pub fn one_boid(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    own: usize,
    cands: impl IntoIterator<Item = usize>,
) -> Raw {
    let len = soa.len();
    assert!(own < len, "kernel: a boid outside the arrays");
    let at = |x: &[&[f32]; 3], j: usize| [x[0][j], x[1][j], x[2][j]];
    let (q, h) = (at(&soa.p, own), at(&soa.h, own));
    let d3 = soa.d3;
    let form = sep_form(spec.sep);
    let fov = if spec.cos == f32::NEG_INFINITY {
        FOV_ALL
    } else {
        FOV_COS
    };
    let needs_inv = fov == FOV_COS || form == SEP_UNIT || form == SEP_INV2;
    let mut r = Raw::default();
    for j in cands {
        assert!(j < len, "kernel: a slot outside the arrays");
        if j == own {
            continue;
        }
        let p = at(&soa.p, j);
        let mut d = [p[0] - q[0], p[1] - q[1], 0.0];
        if d3 {
            d[2] = p[2] - q[2];
        }
        if spec.period.is_some() {
            for a in 0..3 {
                let half = 0.5 * size[a];
                d[a] = if d[a] > half {
                    d[a] - size[a]
                } else if d[a] < -half {
                    d[a] + size[a]
                } else {
                    d[a]
                };
            }
        }
        let mut d2 = d[0] * d[0] + d[1] * d[1];
        if d3 {
            d2 += d[2] * d[2];
        }
        // Strictly inside (false for a NaN, as the lanes' compare).
        if d2.partial_cmp(&spec.r2) != Some(std::cmp::Ordering::Less) {
            continue;
        }
        let unit = if needs_inv {
            1.0 / d2.at_least(f32::MIN_POSITIVE).sqrt()
        } else {
            0.0
        };
        if fov != FOV_ALL {
            let mut dot = h[0] * d[0] + h[1] * d[1];
            if d3 {
                dot += h[2] * d[2];
            }
            let seen = dot * unit > spec.cos;
            if !seen {
                continue;
            }
        }
        r.count += 1;
        let v = at(&soa.v, j);
        for a in 0..3 {
            r.s[a] += d[a];
            r.s[3 + a] += v[a];
        }
        if d2 < spec.s2 {
            r.sep_count += 1;
            let by = match form {
                SEP_UNIT => unit,
                SEP_INV2 => unit * unit,
                _ => 1.0,
            };
            for a in 0..3 {
                let f = if form == SEP_OFFSET { d[a] } else { d[a] * by };
                r.s[6 + a] -= f;
            }
        }
        if spec.heads {
            let hj = at(&soa.h, j);
            for a in 0..3 {
                r.s[9 + a] += hj[a];
            }
        }
        if spec.speed {
            r.s[12] += (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        }
    }
    r
}
