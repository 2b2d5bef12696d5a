//! Every point against every point: slow, obviously right, the oracle for the other indices.

use crate::{Hit, NeighbourIndex, Period, Points, at_or_zero, copy_into, offset};
use glam::Vec3;

/// Brute-force neighbour search (O(N) per query).
#[derive(Default)]
pub struct BruteForce {
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    period: Option<Period>,
}

impl BruteForce {
    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.positions.capacity() + self.velocities.capacity() + self.headings.capacity()) * 12
    }
}

impl NeighbourIndex for BruteForce {
    fn build(&mut self, points: Points<'_>, _radius: f32, period: Option<Period>) {
        copy_into(&mut self.positions, points.positions, period.as_ref());
        copy_into(&mut self.velocities, points.velocities, None);
        copy_into(&mut self.headings, points.headings, None);
        self.period = period;
    }
    fn len(&self) -> usize {
        self.positions.len()
    }
    fn velocity(&self, slot: u32) -> Vec3 {
        self.velocities[slot as usize]
    }
    fn heading(&self, slot: u32) -> Vec3 {
        at_or_zero(&self.headings, slot)
    }
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        let r2 = radius * radius;
        let q = self.period.map_or(q, |per| per.wrap(q));
        for (j, &p) in self.positions.iter().enumerate() {
            let o = offset(p, q, self.period.as_ref());
            let d2 = o.length_squared();
            if d2 < r2 && j as u32 != exclude {
                f(Hit {
                    index: j as u32,
                    slot: j as u32,
                    offset: o,
                    d2,
                });
            }
        }
    }
}
