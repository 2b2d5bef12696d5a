//! Shape data in a [`Scene`](super::Scene): given as data (a triangle mesh, a heightfield) or
//! generated from a seed (a rock, a seabed), so that a scene with thousands of triangles is
//! still a few lines of a scenario file. Generation uses only operations with one correctly
//! rounded result and the engine's own sine and cosine (`boids_core::fmath`), so every
//! platform generates the same bits.

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
