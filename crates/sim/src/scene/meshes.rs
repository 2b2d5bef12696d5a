//! Shape data in a [`Scene`](super::Scene): given as data (a triangle mesh, a heightfield) or
//! generated from a seed (a rock, a seabed), so that a scene with thousands of triangles is
//! still a few lines of a scenario file. Generation uses only operations with one correctly
//! rounded result and the engine's own sine and cosine (`boids_core::fmath`), so every
//! platform generates the same bits.

use boids_core::fmath::Order;
use boids_core::{MeshShape, Rng, Vec3, fmath};
use std::collections::HashMap;

/// Shape data of a scene; obstacles name it by its place in the scene's `mesh` list
/// (`mesh = { index = 0, generation = 1 }` is the first).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)
)]
pub enum MeshSpec {
    /// A triangle mesh as data: vertices, and indices three a triangle.
    Mesh {
        /// Vertices.
        vertices: Vec<Vec3>,
        /// Vertex indices, three a triangle.
        indices: Vec<u32>,
    },
    /// A heightfield as data (see `World::add_heightfield`).
    Heightfield {
        /// Samples along x.
        columns: u32,
        /// Samples along z.
        rows: u32,
        /// Spacing along x.
        cell_x: f32,
        /// Spacing along z.
        cell_z: f32,
        /// `columns × rows` heights, x fastest.
        heights: Vec<f32>,
    },
    /// A generated rock: an octahedron subdivided `detail` times (`8 × 4^detail` triangles,
    /// `detail` 0..=5) on a sphere of `radius`, each vertex pushed in or out by up to
    /// `roughness` of the radius by smooth noise from `seed`. Closed, centred on the origin.
    Rock {
        /// Noise seed.
        seed: u64,
        /// Mean radius (> 0).
        radius: f32,
        /// Subdivisions, 0..=5.
        detail: u32,
        /// Relative bumpiness, 0..=0.9.
        roughness: f32,
    },
    /// A generated seabed: a heightfield of `columns × rows` samples `cell` apart, rolling
    /// between `-height` and `height` (a few plane waves from `seed`), from the origin along +x
    /// and +z.
    Seabed {
        /// Noise seed.
        seed: u64,
        /// Samples along x (>= 2).
        columns: u32,
        /// Samples along z (>= 2).
        rows: u32,
        /// Spacing (> 0).
        cell: f32,
        /// Largest height (>= 0).
        height: f32,
    },
    /// Generated hills for walking flocks: a [`Seabed`](MeshSpec::Seabed)'s rolling ground of
    /// `columns × rows` samples `cell` apart, between `-height` and `height`, with two walls a
    /// grounded flock cannot cross. A ridge `ridge` high and `2 × ridge_width` wide at its foot
    /// (straight sides, a flat crest), along z at 70% of the width, from 15% to 65% of the depth
    /// (a flock walks round its ends);
    /// and a ravine `ravine` deep with near-vertical sides, `2 × ravine_width` wide, along x at
    /// 82% of the depth, from 15% to 60% of the width. 0 leaves either out.
    Terrain {
        /// Noise seed.
        seed: u64,
        /// Samples along x (>= 2).
        columns: u32,
        /// Samples along z (>= 2).
        rows: u32,
        /// Spacing (> 0).
        cell: f32,
        /// Largest height of the hills (>= 0).
        height: f32,
        /// Height of the ridge (>= 0).
        ridge: f32,
        /// Half the width of the ridge's foot (> 0).
        ridge_width: f32,
        /// Depth of the ravine (>= 0).
        ravine: f32,
        /// Half the width of the ravine (> 0).
        ravine_width: f32,
    },
}

impl MeshSpec {
    /// The shape data this spec stands for; refused with a sentence naming the field.
    pub fn build(&self) -> Result<MeshShape, String> {
        match self {
            MeshSpec::Mesh { vertices, indices } => MeshShape::mesh(vertices.clone(), indices),
            MeshSpec::Heightfield {
                columns,
                rows,
                cell_x,
                cell_z,
                heights,
            } => MeshShape::heightfield(*columns, *rows, *cell_x, *cell_z, heights.clone()),
            MeshSpec::Rock {
                seed,
                radius,
                detail,
                roughness,
            } => {
                if *detail > 5 {
                    return Err(format!("rock detail must be 0..=5, got {detail}"));
                }
                if !(*radius > 0.0 && *radius <= 1.0e6) {
                    return Err(format!("rock radius must be in (0, 1e6], got {radius}"));
                }
                if !(0.0..=0.9).contains(roughness) {
                    return Err(format!(
                        "rock roughness must be in [0, 0.9], got {roughness}"
                    ));
                }
                let (vertices, indices) = rock(*seed, *radius, *detail, *roughness);
                MeshShape::mesh(vertices, &indices)
            }
            MeshSpec::Seabed {
                seed,
                columns,
                rows,
                cell,
                height,
            } => {
                if !(*height >= 0.0 && *height <= 1.0e6) {
                    return Err(format!("seabed height must be in [0, 1e6], got {height}"));
                }
                if u64::from(*columns) * u64::from(*rows) > 1 << 24 {
                    return Err(format!(
                        "seabed: at most 2^24 samples, got {columns} x {rows}"
                    ));
                }
                let heights = seabed(*seed, *columns, *rows, *cell, *height);
                MeshShape::heightfield(*columns, *rows, *cell, *cell, heights)
            }
            MeshSpec::Terrain {
                seed,
                columns,
                rows,
                cell,
                height,
                ridge,
                ridge_width,
                ravine,
                ravine_width,
            } => {
                for (what, v) in [("height", height), ("ridge", ridge), ("ravine", ravine)] {
                    if !(*v >= 0.0 && *v <= 1.0e6) {
                        return Err(format!("terrain {what} must be in [0, 1e6], got {v}"));
                    }
                }
                for (what, v) in [("ridge_width", ridge_width), ("ravine_width", ravine_width)] {
                    if !(*v > 0.0 && *v <= 1.0e6) {
                        return Err(format!("terrain {what} must be in (0, 1e6], got {v}"));
                    }
                }
                if u64::from(*columns) * u64::from(*rows) > 1 << 24 {
                    return Err(format!(
                        "terrain: at most 2^24 samples, got {columns} x {rows}"
                    ));
                }
                let walls = Walls {
                    ridge: *ridge,
                    ridge_width: *ridge_width,
                    ravine: *ravine,
                    ravine_width: *ravine_width,
                };
                let heights = terrain(*seed, *columns, *rows, *cell, *height, walls);
                MeshShape::heightfield(*columns, *rows, *cell, *cell, heights)
            }
        }
    }
}

/// A few smooth waves: `Σ a_k cos(f_k (dir_k · p) + phase_k)`, from `seed`, in [-1, 1].
struct Waves {
    waves: Vec<(Vec3, f32, f32, f32)>,
    total: f32,
}

impl Waves {
    fn new(seed: u64, n: u32, frequency: f32, planar: bool) -> Waves {
        let mut waves = Vec::new();
        let mut total = 0.0;
        for k in 0..n {
            let mut r = Rng::keyed(seed, k, 0, 0x5EED);
            let mut dir = r.unit_vector();
            if planar {
                dir.y = 0.0;
                dir = boids_core::math::normalize_or_zero(dir);
            }
            let f = frequency * (1.0 + k as f32 * 0.7) * r.range(0.8, 1.25);
            let a = 1.0 / (1.0 + k as f32);
            let phase = r.range(0.0, std::f32::consts::TAU);
            waves.push((dir, f, a, phase));
            total += a;
        }
        Waves { waves, total }
    }

    fn at(&self, p: Vec3) -> f32 {
        let mut s = 0.0;
        for &(dir, f, a, phase) in &self.waves {
            s += a * fmath::cos(f * dir.dot(p) + phase);
        }
        s / self.total
    }
}

/// The rock of [`MeshSpec::Rock`]: vertices and indices.
pub fn rock(seed: u64, radius: f32, detail: u32, roughness: f32) -> (Vec<Vec3>, Vec<u32>) {
    let mut verts = vec![
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    // Counter-clockwise seen from outside.
    let mut tris: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..detail {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut next = Vec::with_capacity(tris.len() * 4);
        for [a, b, c] in tris {
            let mut m = |x: u32, y: u32| {
                *mid.entry((x.min(y), x.max(y))).or_insert_with(|| {
                    let p = (verts[x as usize] + verts[y as usize]) * 0.5;
                    verts.push(p / p.length());
                    verts.len() as u32 - 1
                })
            };
            let (ab, bc, ca) = (m(a, b), m(b, c), m(c, a));
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        tris = next;
    }
    let waves = Waves::new(seed, 5, 1.6, false);
    let flat = Rng::keyed(seed, u32::MAX, 0, 0x5EED).range(0.55, 1.0);
    for p in &mut verts {
        let bump = 1.0 + roughness * waves.at(*p);
        // Flattened a little along y: rocks sit rather than stand.
        *p = Vec3::new(p.x, p.y * flat, p.z) * (radius * bump);
    }
    let indices = tris.into_iter().flatten().collect();
    (verts, indices)
}

/// The heights of [`MeshSpec::Seabed`].
pub fn seabed(seed: u64, columns: u32, rows: u32, cell: f32, height: f32) -> Vec<f32> {
    let waves = Waves::new(seed, 6, 0.08, true);
    let mut heights = Vec::with_capacity((columns as usize) * (rows as usize));
    for j in 0..rows {
        for i in 0..columns {
            let p = Vec3::new(i as f32 * cell, 0.0, j as f32 * cell);
            heights.push(height * waves.at(p));
        }
    }
    heights
}

/// The walls of [`MeshSpec::Terrain`]: a ridge's height and half width, a ravine's depth and
/// half width.
#[derive(Clone, Copy, Debug)]
pub struct Walls {
    /// Height of the ridge (0 = none).
    pub ridge: f32,
    /// Half the width of its foot.
    pub ridge_width: f32,
    /// Depth of the ravine (0 = none).
    pub ravine: f32,
    /// Half its width.
    pub ravine_width: f32,
}

/// 1 at `d = 0` falling to 0 at `|d| >= w` along a smoothstep (polynomial: the same bits
/// everywhere).
fn bump(d: f32, w: f32) -> f32 {
    let t = 1.0 - (d.abs() / w).at_most(1.0);
    t * t * (3.0 - 2.0 * t)
}

/// 1 inside `lo..hi`, fading to 0 over `fade` beyond either end.
fn span(x: f32, lo: f32, hi: f32, fade: f32) -> f32 {
    let out = (lo - x).at_least(x - hi).at_least(0.0);
    bump(out, fade)
}

/// The heights of [`MeshSpec::Terrain`].
pub fn terrain(seed: u64, columns: u32, rows: u32, cell: f32, height: f32, w: Walls) -> Vec<f32> {
    let mut heights = seabed(seed, columns, rows, cell, height);
    let (width, depth) = ((columns - 1) as f32 * cell, (rows - 1) as f32 * cell);
    for j in 0..rows {
        for i in 0..columns {
            let (x, z) = (i as f32 * cell, j as f32 * cell);
            let h = &mut heights[(j * columns + i) as usize];
            if w.ridge > 0.0 {
                // Straight sides up to a flat crest half the foot's width.
                let along = span(z, 0.15 * depth, 0.65 * depth, w.ridge_width);
                let t = 1.0 - ((x - 0.7 * width).abs() / w.ridge_width).at_most(1.0);
                *h += w.ridge * along * (2.0 * t).at_most(1.0);
            }
            if w.ravine > 0.0 {
                // A flat floor between near-vertical sides one cell wide.
                let along = span(x, 0.15 * width, 0.60 * width, cell);
                let inside =
                    ((w.ravine_width - (z - 0.82 * depth).abs()) / cell + 1.0).clamp(0.0, 1.0);
                *h -= w.ravine * along.at_most(inside);
            }
        }
    }
    heights
}
