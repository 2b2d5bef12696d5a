//! The scalar path: the reference every SIMD path reproduces, operation for operation. It runs
//! on every CPU and architecture.

use super::{Cols, GROUP, Head, Rec, Spec, Sums, check_cols, check_run, dist2, finish, reduce8};
use crate::layout::Run;
use boids_core::math::wrap_axis;
use boids_core::{Neighbourhood, Vec3};

/// The filter, one candidate at a time.
pub(super) fn filter_scalar<const D3: bool, const PER: bool>(
    c: &Cols<'_>,
    q: [f32; 3],
    r2: f32,
    size: [f32; 3],
    runs: &[Run],
    out: &mut [u32],
) -> usize {
    check_cols(c);
    let [ax, ay, az] = c.a;
    let mut n = 0;
    for &(s0, s1) in runs {
        check_run(c, (s0, s1));
        for j in s0 as usize..s1 as usize {
            let mut dx = ax[j] - q[0];
            let mut dy = ay[j] - q[1];
            if PER {
                dx = wrap_axis(dx, size[0]);
                dy = wrap_axis(dy, size[1]);
            }
            let mut d2 = dx * dx + dy * dy;
            if D3 {
                let mut dz = az[j] - q[2];
                if PER {
                    dz = wrap_axis(dz, size[2]);
                }
                d2 += dz * dz;
            }
            out[n] = j as u32;
            n += usize::from(d2 < r2);
        }
    }
    n
}

/// The accumulation phase, lane by lane: the reference the SIMD paths reproduce.
#[allow(clippy::too_many_arguments)]
pub(super) fn accumulate_scalar<const SEP: u8, const PER: bool, const X: bool>(
    spec: &Spec,
    own: u32,
    q: Vec3,
    h: Vec3,
    list: &[u32],
    rec: &[Rec],
    head: &[Head],
    size: Vec3,
) -> Neighbourhood {
    let (mut count, mut sep_count) = (0u32, 0u32);
    let mut s: Sums = [[0.0; GROUP]; 13];
    for group in list.chunks_exact(GROUP) {
        for (l, &j) in group.iter().enumerate() {
            let r = &rec[j as usize].0;
            let mut d = Vec3::new(r[0] - q.x, r[1] - q.y, r[2] - q.z);
            if PER {
                d = Vec3::new(
                    wrap_axis(d.x, size.x),
                    wrap_axis(d.y, size.y),
                    wrap_axis(d.z, size.z),
                );
            }
            let d2 = dist2(d);
            let inv = if d2 > 0.0 { 1.0 / d2.sqrt() } else { 0.0 };
            let dot = ((h.x * d.x + h.y * d.y) + h.z * d.z) * inv;
            let ok = j != own && dot > spec.cos;
            let sep = ok && d2 < spec.s2;
            count += u32::from(ok);
            sep_count += u32::from(sep);
            let pick = |on: bool, x: f32| if on { x } else { 0.0 };
            s[0][l] += pick(ok, d.x);
            s[1][l] += pick(ok, d.y);
            s[2][l] += pick(ok, d.z);
            s[3][l] += pick(ok, r[3]);
            s[4][l] += pick(ok, r[4]);
            s[5][l] += pick(ok, r[5]);
            let f = match SEP {
                0 => d * inv,
                1 => d * (inv * inv),
                _ => d,
            };
            s[6][l] -= pick(sep, f.x);
            s[7][l] -= pick(sep, f.y);
            s[8][l] -= pick(sep, f.z);
            if X {
                let hj = &head[j as usize].0;
                s[9][l] += pick(ok, hj[0]);
                s[10][l] += pick(ok, hj[1]);
                s[11][l] += pick(ok, hj[2]);
                s[12][l] += pick(ok, r[6]);
            }
        }
    }
    finish(count, sep_count, &s.map(reduce8), X)
}
