//! The neighbour-accumulation hot loop over a dense block of candidates.
//!
//! A grid hands every boid of one cell the same block: the boids of the 27 surrounding cells,
//! copied into structure-of-arrays slices padded to a multiple of [`LANES`]. This loop visits
//! them in fixed groups of [`LANES`], keeping one running sum per lane, so the compiler can use
//! SIMD without reassociating anything: the order of every addition is fixed by the code, the
//! same on every thread count and every target.

use crate::params::SeparationMode;
use crate::rules::{Derived, Neighbourhood};
use glam::Vec3;
use wide::f32x8;

/// Width of the accumulation groups.
pub const LANES: usize = 8;

/// Candidate neighbours in structure-of-arrays form. Every slice has the same length, a multiple
/// of [`LANES`]; padding entries have infinite coordinates. The heading slices may be empty when
/// the flock's rules do not read neighbours' headings.
#[derive(Clone, Copy, Debug)]
pub struct CandidateSlices<'a> {
    /// Positions, x.
    pub x: &'a [f32],
    /// Positions, y.
    pub y: &'a [f32],
    /// Positions, z.
    pub z: &'a [f32],
    /// Velocities, x.
    pub vx: &'a [f32],
    /// Velocities, y.
    pub vy: &'a [f32],
    /// Velocities, z.
    pub vz: &'a [f32],
    /// Headings, x (or empty).
    pub hx: &'a [f32],
    /// Headings, y (or empty).
    pub hy: &'a [f32],
    /// Headings, z (or empty).
    pub hz: &'a [f32],
}

/// Gathers what the boid at `pos` heading along `heading` sees among the candidates `c`; the
/// candidate at index `own` is the boid itself and is skipped (`usize::MAX`: none). `period` is
/// the periodic box size (positions must then lie inside the box).
///
/// Same neighbour set and same sums as calling [`Neighbourhood::consider`] for each candidate
/// within the radius, but every candidate goes through the same branch-free SIMD arithmetic and
/// the sums are kept per lane, then added lane 0 to 7, so the rounding differs from the scalar
/// path in the last bits (and is fixed by the block order, independent of threads).
pub fn gather_block(
    d: &Derived,
    pos: Vec3,
    heading: Vec3,
    own: usize,
    c: &CandidateSlices<'_>,
    period: Option<Vec3>,
) -> Neighbourhood {
    let heads = !c.hx.is_empty();
    macro_rules! go {
        ($sep:expr) => {
            match (period, heads) {
                (None, false) => block::<$sep, false, false>(d, pos, heading, own, c, Vec3::ZERO),
                (None, true) => block::<$sep, false, true>(d, pos, heading, own, c, Vec3::ZERO),
                (Some(p), false) => block::<$sep, true, false>(d, pos, heading, own, c, p),
                (Some(p), true) => block::<$sep, true, true>(d, pos, heading, own, c, p),
            }
        };
    }
    match d.separation {
        SeparationMode::UnitMean => go!(0),
        SeparationMode::InverseSquare => go!(1),
        SeparationMode::MeanOffset | SeparationMode::SumOffset => go!(2),
    }
}

/// Appends `(d2, block index)` of every candidate strictly within the radius of `pos` (except
/// `own`) to `out`, in block order: the first pass of a k-nearest query.
pub fn within_radius(
    d: &Derived,
    pos: Vec3,
    own: usize,
    c: &CandidateSlices<'_>,
    period: Option<Vec3>,
    out: &mut Vec<(f32, u32)>,
) {
    let (qx, qy, qz) = (
        f32x8::splat(pos.x),
        f32x8::splat(pos.y),
        f32x8::splat(pos.z),
    );
    let r2 = f32x8::splat(d.radius2);
    let n = c.x.len();
    let mut k = 0;
    while k + LANES <= n {
        let mut dx = load(c.x, k) - qx;
        let mut dy = load(c.y, k) - qy;
        let mut dz = load(c.z, k) - qz;
        if let Some(size) = period {
            dx = wrap8(dx, size.x);
            dy = wrap8(dy, size.y);
            dz = wrap8(dz, size.z);
        }
        let d2 = dx * dx + dy * dy + dz * dz;
        let mut bits = d2.simd_lt(r2).to_bitmask();
        if bits != 0 {
            let d2 = d2.to_array();
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if k + l != own {
                    out.push((d2[l], (k + l) as u32));
                }
            }
        }
        k += LANES;
    }
}

/// Nearest-image offset along one axis for coordinates inside a box of edge `size`.
#[inline(always)]
pub fn wrap_axis(o: f32, size: f32) -> f32 {
    let half = 0.5 * size;
    if o > half {
        o - size
    } else if o < -half {
        o + size
    } else {
        o
    }
}

#[inline(always)]
fn wrap8(o: f32x8, size: f32) -> f32x8 {
    let half = f32x8::splat(0.5 * size);
    let s = f32x8::splat(size);
    o.simd_gt(half)
        .bitselect(o - s, o.simd_lt(-half).bitselect(o + s, o))
}

#[inline(always)]
fn load(s: &[f32], k: usize) -> f32x8 {
    let a: [f32; LANES] = s[k..k + LANES]
        .try_into()
        .expect("block is padded to LANES");
    f32x8::new(a)
}

#[inline(always)]
fn block<const SEP: u8, const PERIODIC: bool, const HEADS: bool>(
    d: &Derived,
    q: Vec3,
    h: Vec3,
    own: usize,
    c: &CandidateSlices<'_>,
    size: Vec3,
) -> Neighbourhood {
    let zero = f32x8::ZERO;
    let one = f32x8::ONE;
    let (mut cnt, mut scnt) = (zero, zero);
    let (mut ox, mut oy, mut oz) = (zero, zero, zero);
    let (mut sx, mut sy, mut sz) = (zero, zero, zero);
    let (mut wx, mut wy, mut wz) = (zero, zero, zero);
    let (mut hx, mut hy, mut hz) = (zero, zero, zero);
    let (qx, qy, qz) = (f32x8::splat(q.x), f32x8::splat(q.y), f32x8::splat(q.z));
    let (ux, uy, uz) = (f32x8::splat(h.x), f32x8::splat(h.y), f32x8::splat(h.z));
    let r2 = f32x8::splat(d.radius2);
    let s2 = f32x8::splat(d.separation_radius2);
    let cos = f32x8::splat(d.cos_fov);
    let own_chunk = if own == usize::MAX {
        usize::MAX
    } else {
        own / LANES * LANES
    };
    let own_mask = {
        let mut m = [f32::from_bits(u32::MAX); LANES];
        if own != usize::MAX {
            m[own % LANES] = 0.0;
        }
        f32x8::new(m)
    };
    let n = c.x.len();
    let mut k = 0;
    while k + LANES <= n {
        let mut dx = load(c.x, k) - qx;
        let mut dy = load(c.y, k) - qy;
        let mut dz = load(c.z, k) - qz;
        if PERIODIC {
            dx = wrap8(dx, size.x);
            dy = wrap8(dy, size.y);
            dz = wrap8(dz, size.z);
        }
        let d2 = dx * dx + dy * dy + dz * dz;
        let mut ok = d2.simd_lt(r2);
        if k == own_chunk {
            ok &= own_mask;
        }
        // The same operations, in the same order, as `Neighbourhood::consider`.
        let inv = d2.simd_gt(zero) & (one / d2.sqrt());
        if d.fov_active {
            let dot = (ux * dx + uy * dy + uz * dz) * inv;
            ok &= dot.simd_gt(cos);
        }
        let sep = ok & d2.simd_lt(s2);
        cnt += ok & one;
        scnt += sep & one;
        ox += ok & dx;
        oy += ok & dy;
        oz += ok & dz;
        wx += ok & load(c.vx, k);
        wy += ok & load(c.vy, k);
        wz += ok & load(c.vz, k);
        let (fx, fy, fz) = match SEP {
            0 => (dx * inv, dy * inv, dz * inv),
            1 => {
                let i2 = inv * inv;
                (dx * i2, dy * i2, dz * i2)
            }
            _ => (dx, dy, dz),
        };
        sx += sep & -fx;
        sy += sep & -fy;
        sz += sep & -fz;
        if HEADS {
            hx += ok & load(c.hx, k);
            hy += ok & load(c.hy, k);
            hz += ok & load(c.hz, k);
        }
        k += LANES;
    }
    let arr = |v: f32x8| v.to_array();
    let (cnt, scnt) = (arr(cnt), arr(scnt));
    let (ox, oy, oz, wx, wy, wz) = (arr(ox), arr(oy), arr(oz), arr(wx), arr(wy), arr(wz));
    let (sx, sy, sz, hx, hy, hz) = (arr(sx), arr(sy), arr(sz), arr(hx), arr(hy), arr(hz));
    let mut out = Neighbourhood::default();
    for l in 0..LANES {
        out.count += cnt[l] as u32;
        out.separation_count += scnt[l] as u32;
        out.sum_offset += Vec3::new(ox[l], oy[l], oz[l]);
        out.sum_velocity += Vec3::new(wx[l], wy[l], wz[l]);
        out.sum_heading += Vec3::new(hx[l], hy[l], hz[l]);
        out.separation += Vec3::new(sx[l], sy[l], sz[l]);
    }
    out
}
