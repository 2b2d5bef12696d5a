//! Geometry in double precision for the ground tests' oracles (`ground.rs`, `herd.rs`,
//! `ground_random.rs`): distances to triangles, insideness by ray parity, and the surfaces over
//! a point of the xz plane, all by brute force over triangles the test takes from the scene.
#![allow(dead_code)]

use boids_core::fmath::Order;
use boids_sim::Vec3;

pub type V = [f64; 3];

/// How far outside a triangle's shadow (in the xz plane) a point still stands on it: a tenth
/// of a millimetre at a metre a unit, well above an f32 position's rounding at the scenes'
/// scale (1e-6 at 10 units), well below any move a step makes.
pub const EDGE: f64 = 1e-4;

pub fn v(p: Vec3) -> V {
    [f64::from(p.x), f64::from(p.y), f64::from(p.z)]
}
pub fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub fn mad(a: V, b: V, t: f64) -> V {
    [a[0] + b[0] * t, a[1] + b[1] * t, a[2] + b[2] * t]
}
pub fn length(a: V) -> f64 {
    dot(a, a).sqrt()
}

/// Distance from `p` to triangle `t` (the closest point by regions).
pub fn distance(p: V, [a, b, c]: [V; 3]) -> f64 {
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    let q = if d1 <= 0.0 && d2 <= 0.0 {
        a
    } else {
        let bp = sub(p, b);
        let (d3, d4) = (dot(ab, bp), dot(ac, bp));
        let cp = sub(p, c);
        let (d5, d6) = (dot(ab, cp), dot(ac, cp));
        let (va, vb, vc) = (d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2);
        if d3 >= 0.0 && d4 <= d3 {
            b
        } else if d6 >= 0.0 && d5 <= d6 {
            c
        } else if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            mad(a, ab, d1 / (d1 - d3))
        } else if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            mad(a, ac, d2 / (d2 - d6))
        } else if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
            mad(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)))
        } else {
            let s = 1.0 / (va + vb + vc);
            mad(mad(a, ab, vb * s), ac, vc * s)
        }
    };
    length(sub(p, q))
}

/// Whether the ray from `p` along +x crosses triangle `t` (Möller–Trumbore): an odd count over
/// a closed mesh's triangles means `p` is inside it.
pub fn crosses(p: V, [a, b, c]: [V; 3]) -> bool {
    let dir = [1.0, 0.0, 0.0];
    let (e1, e2) = (sub(b, a), sub(c, a));
    let h = cross(dir, e2);
    let det = dot(e1, h);
    if det.abs() < 1e-14 {
        return false;
    }
    let s = sub(p, a);
    let u = dot(s, h) / det;
    let q = cross(s, e1);
    let w = dot(dir, q) / det;
    u >= 0.0 && w >= 0.0 && u + w <= 1.0 && dot(e2, q) / det > 0.0
}

/// Whether `p` is inside the closed mesh `tris` (ray parity).
pub fn inside(p: V, tris: &[[V; 3]]) -> bool {
    tris.iter().filter(|t| crosses(p, **t)).count() % 2 == 1
}

/// Distance in the xz plane from `(x, z)` to the segment `a b` (their x and z).
fn flat_segment_distance(x: f64, z: f64, a: V, b: V) -> f64 {
    let (dx, dz) = (b[0] - a[0], b[2] - a[2]);
    let len2 = dx * dx + dz * dz;
    let t = if len2 > 0.0 {
        (((x - a[0]) * dx + (z - a[2]) * dz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ex, ez) = (x - (a[0] + t * dx), z - (a[2] + t * dz));
    (ex * ex + ez * ez).sqrt()
}

/// Where triangle `t` crosses the vertical line at `(x, z)`: the height of its plane there and
/// the |y| of its unit normal (1 flat, 0 vertical), when the point is in the triangle's shadow
/// or within `tol` (a distance in the xz plane) of it; `None` for a vertical triangle (it has
/// no shadow) or a line that misses it.
pub fn shadow([a, b, c]: [V; 3], x: f64, z: f64, tol: f64) -> Option<(f64, f64)> {
    let (e1, e2) = (sub(b, a), sub(c, a));
    let det = e1[0] * e2[2] - e1[2] * e2[0];
    if det.abs() < 1e-12 {
        return None;
    }
    let (px, pz) = (x - a[0], z - a[2]);
    let u = (px * e2[2] - pz * e2[0]) / det;
    let w = (e1[0] * pz - e1[2] * px) / det;
    let inside = u >= 0.0 && w >= 0.0 && u + w <= 1.0;
    if !inside
        && [(a, b), (b, c), (c, a)]
            .iter()
            .all(|&(p, q)| flat_segment_distance(x, z, p, q) > tol)
    {
        return None;
    }
    let n = cross(e1, e2);
    Some((a[1] + u * e1[1] + w * e2[1], n[1].abs() / length(n)))
}

/// Every ground triangle of a scene, bucketed by the squares of the xz plane its shadow's box
/// touches (a lookup that sees exactly the triangles a brute-force scan would: each is in every
/// bucket it may cross).
pub struct Surfaces {
    triangles: Vec<[V; 3]>,
    lo: [f64; 2],
    cell: f64,
    size: [usize; 2],
    buckets: Vec<Vec<u32>>,
}

impl Surfaces {
    pub fn new(triangles: Vec<[V; 3]>, cell: f64) -> Surfaces {
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for t in &triangles {
            for p in t {
                lo = [lo[0].at_most(p[0]), lo[1].at_most(p[2])];
                hi = [hi[0].at_least(p[0]), hi[1].at_least(p[2])];
            }
        }
        let (lo, hi) = ([lo[0] - 1.0, lo[1] - 1.0], [hi[0] + 1.0, hi[1] + 1.0]);
        let size = [
            ((hi[0] - lo[0]) / cell).ceil() as usize + 1,
            ((hi[1] - lo[1]) / cell).ceil() as usize + 1,
        ];
        let mut buckets = vec![Vec::new(); size[0] * size[1]];
        for (k, t) in triangles.iter().enumerate() {
            let (mut a, mut b) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in t {
                a = [a[0].at_most(p[0]), a[1].at_most(p[2])];
                b = [b[0].at_least(p[0]), b[1].at_least(p[2])];
            }
            let i0 = ((a[0] - 1e-3 - lo[0]) / cell).floor() as usize;
            let i1 = ((b[0] + 1e-3 - lo[0]) / cell).floor() as usize;
            let j0 = ((a[1] - 1e-3 - lo[1]) / cell).floor() as usize;
            let j1 = ((b[1] + 1e-3 - lo[1]) / cell).floor() as usize;
            for j in j0..=j1 {
                for i in i0..=i1 {
                    buckets[j * size[0] + i].push(k as u32);
                }
            }
        }
        Surfaces {
            triangles,
            lo,
            cell,
            size,
            buckets,
        }
    }

    pub fn triangles(&self) -> &[[V; 3]] {
        &self.triangles
    }

    /// The surfaces crossing the vertical line at `(x, z)`: (height, |normal y|) of each
    /// triangle whose shadow holds the point (within a hair: a point on an edge has two).
    pub fn under(&self, x: f64, z: f64) -> Vec<(f64, f64)> {
        let i = ((x - self.lo[0]) / self.cell).floor();
        let j = ((z - self.lo[1]) / self.cell).floor();
        if i < 0.0 || j < 0.0 || i >= self.size[0] as f64 || j >= self.size[1] as f64 {
            return Vec::new();
        }
        self.buckets[j as usize * self.size[0] + i as usize]
            .iter()
            .filter_map(|&k| shadow(self.triangles[k as usize], x, z, EDGE))
            .collect()
    }
}

/// How far `p` is outside the box `lo..hi` (negative: inside, by the depth to its nearest face).
pub fn box_distance(lo: Vec3, hi: Vec3, p: V) -> f64 {
    let (lo, hi) = (v(lo), v(hi));
    let mut out2 = 0.0;
    let mut depth = f64::INFINITY;
    for k in 0..3 {
        let d = (lo[k] - p[k]).at_least(p[k] - hi[k]).at_least(0.0);
        out2 += d * d;
        depth = depth.at_most((p[k] - lo[k]).at_most(hi[k] - p[k]));
    }
    if out2 > 0.0 { out2.sqrt() } else { -depth }
}
