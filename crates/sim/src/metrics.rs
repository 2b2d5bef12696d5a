//! Flock-level measurements: polarisation, speed, nearest-neighbour distance.

use crate::flock::Flock;
use boids_core::Vec3;
use boids_index::exec::{RayonExec, chunks_mut};
use boids_index::{Hit, Index, IndexKind, NeighbourIndex, Points};

/// Summary measurements of one flock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockMetrics {
    /// Boids measured.
    pub count: usize,
    /// `|Σ v̂| / n`: 1 when all move the same way, near 0 when directions are random.
    pub polarisation: f32,
    /// Mean speed.
    pub mean_speed: f32,
    /// Mean distance from each boid to its nearest flockmate (0 with fewer than two boids, where
    /// there is none: see [`FlockMetrics::has_nearest`]).
    pub mean_nearest_distance: f32,
    /// Number of groups: connected components of the graph linking boids closer than the
    /// flock's perception radius.
    pub groups: usize,
}

impl FlockMetrics {
    /// Whether [`FlockMetrics::mean_nearest_distance`] means anything: a flock of fewer than two
    /// boids has no nearest flockmate.
    pub fn has_nearest(&self) -> bool {
        self.count >= 2
    }
}

/// Measures a flock. The sums run in a fixed order (deterministic).
pub fn measure(flock: &Flock) -> FlockMetrics {
    let n = flock.len();
    if n == 0 {
        return FlockMetrics::default();
    }
    let vel = flock.velocities();
    let heading_sum: Vec3 = vel.iter().map(|v| v.normalize_or_zero()).sum();
    let speed_sum: f64 = vel.iter().map(|v| f64::from(v.length())).sum();
    let mut nearest = 0.0f64;
    if n > 1 {
        let mut tree = Index::new(IndexKind::Grid);
        tree.build(
            Points {
                positions: flock.positions(),
                velocities: vel,
                headings: &[],
            },
            1.0,
            None,
        );
        // On the executor every loop of the engine uses (Rayon's global pool, or the calling
        // thread where there are no threads), not on Rayon directly.
        let positions = flock.positions();
        let mut d = vec![0.0f32; n];
        chunks_mut(
            &RayonExec::default(),
            &mut d,
            1024,
            &|start, out: &mut [f32]| {
                let mut hits = Vec::<Hit>::new();
                for (k, o) in out.iter_mut().enumerate() {
                    let i = start + k;
                    tree.k_nearest(positions[i], f32::INFINITY, 1, i as u32, &mut hits);
                    *o = hits.first().map_or(0.0, |h| h.d2.sqrt());
                }
            },
        );
        nearest = d.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64;
    }
    FlockMetrics {
        count: n,
        polarisation: heading_sum.length() / n as f32,
        mean_speed: (speed_sum / n as f64) as f32,
        mean_nearest_distance: nearest as f32,
        groups: count_groups(flock.positions(), flock.params().perception_radius),
    }
}

/// Connected components of the "closer than `link`" graph over `positions`.
pub fn count_groups(positions: &[Vec3], link: f32) -> usize {
    let n = positions.len();
    if n == 0 {
        return 0;
    }
    let mut grid = Index::new(IndexKind::Grid);
    grid.build(
        Points {
            positions,
            velocities: positions,
            headings: &[],
        },
        link,
        None,
    );
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    for (i, &p) in positions.iter().enumerate() {
        grid.for_each_within(p, link, i as u32, |h| {
            let (a, b) = (find(&mut parent, i as u32), find(&mut parent, h.index));
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        });
    }
    (0..n as u32).filter(|&i| find(&mut parent, i) == i).count()
}
