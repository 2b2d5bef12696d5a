//! [`crate::BoidsSet::Step`] and [`crate::BoidsSet::WriteBack`]: the step, the read of its
//! result into each flock's buffers, and every boid's `Transform` from them.

use bevy::ecs::prelude::*;
use bevy::log::error;
use bevy::math::{Quat as BQuat, Vec3 as BVec3};
use bevy::prelude::{Fixed, Time, Transform};
use boids_core::Vec3;
use boids_sim::World;

use crate::convert::{bevy_forward, to_bevy};
use crate::{BoidSlot, Boids, FlockEntry};

/// A flock's last two states in id order: positions and the engine's orientations (+Z along
/// the heading, or a leaning flock's kept orientation), the older one re-mapped to the newer
/// one's ids. Reused from step to step: a read allocates only when the flock outgrows every
/// earlier size.
#[derive(Default)]
pub(crate) struct States {
    pos: [Vec<Vec3>; 2],
    rot: [Vec<[f32; 4]>; 2],
    /// Which of the two is the newer.
    cur: usize,
    /// The ids of the newer state, and of the one read before it.
    ids: Vec<u32>,
    read_ids: Vec<u32>,
    scratch_pos: Vec<Vec3>,
    scratch_rot: Vec<[f32; 4]>,
    /// Members changed since the last read: read again before the next write back.
    pub(crate) stale: bool,
}

impl States {
    /// Reads flock `entry`'s state as the newer one; the newer becomes the older.
    fn read(&mut self, world: &World, entry: &FlockEntry) {
        let Some(f) = world.flock(entry.id) else {
            return;
        };
        let n = f.len();
        let new = 1 - self.cur;
        // Members change only through the plugin, which marks the flock stale: otherwise the
        // ids are those of the last read.
        let members = self.stale || self.ids.len() != n;
        if members {
            self.read_ids.resize(n, 0);
            let _ = world.read_ids(entry.id, &mut self.read_ids);
        }
        self.pos[new].resize(n, Vec3::ZERO);
        self.rot[new].resize(n, [0.0, 0.0, 0.0, 1.0]);
        // The engine's reads: in its pool (or on this thread for a small flock), SIMD.
        let _ = world.read_positions(entry.id, &mut self.pos[new]);
        let _ = world.read_orientations(entry.id, &mut self.rot[new]);
        if members && self.read_ids != self.ids {
            // Members came or went: the older state re-mapped to the new ids (a new boid's is
            // its new one, so it does not move in from elsewhere).
            let old = self.cur;
            self.scratch_pos.clear();
            self.scratch_rot.clear();
            let mut j = 0;
            for (i, &id) in self.read_ids.iter().enumerate() {
                while j < self.ids.len() && self.ids[j] < id {
                    j += 1;
                }
                if j < self.ids.len() && self.ids[j] == id && j < self.pos[old].len() {
                    self.scratch_pos.push(self.pos[old][j]);
                    self.scratch_rot.push(self.rot[old][j]);
                } else {
                    self.scratch_pos.push(self.pos[new][i]);
                    self.scratch_rot.push(self.rot[new][i]);
                }
            }
            std::mem::swap(&mut self.scratch_pos, &mut self.pos[old]);
            std::mem::swap(&mut self.scratch_rot, &mut self.rot[old]);
            std::mem::swap(&mut self.ids, &mut self.read_ids);
        }
        self.cur = new;
        self.stale = false;
    }

    /// Boid `i`'s `Transform` parts at `alpha` between the older (0) and newer (1) state: the
    /// positions blended, and the rotations (normalised linear blend the short way: a tick
    /// turns a boid a few degrees, where it is as good as a slerp and costs no trigonometry).
    #[inline]
    fn at(&self, i: usize, alpha: f32) -> Option<(BVec3, BQuat)> {
        let (new, old) = (self.cur, 1 - self.cur);
        let p1 = to_bevy(*self.pos[new].get(i)?);
        let q1 = BQuat::from_array(*self.rot[new].get(i)?);
        // Blended as the engine has them, turned to Bevy's forward once (the turn is a fixed
        // rotation: blending before or after it is the same).
        let (p, q) = if alpha >= 1.0 {
            (p1, q1)
        } else {
            let (p0, q0) = (
                to_bevy(self.pos[old][i]),
                BQuat::from_array(self.rot[old][i]),
            );
            if alpha <= 0.0 {
                (p0, q0)
            } else {
                (p0.lerp(p1, alpha), q0.lerp(q1, alpha))
            }
        };
        Some((p, bevy_forward(q.to_array())))
    }
}

/// Reads every flock whose state changed (after a step, or members that came or went).
fn read_all(b: &mut Boids, after_step: bool) {
    let Boids { world, flocks, .. } = b;
    for entry in flocks.iter_mut().flatten() {
        if after_step || entry.states.stale {
            let mut s = std::mem::take(&mut entry.states);
            s.read(world, entry);
            entry.states = s;
        }
    }
}

/// Ends an overlapped step in flight (its result read), and reads flocks whose members changed.
pub(crate) fn finish(mut boids: ResMut<Boids>) {
    finish_step(&mut boids);
}

/// [`finish`] on the plugin's resource.
pub(crate) fn finish_step(b: &mut Boids) {
    let mut stepped = false;
    if b.in_flight {
        b.in_flight = false;
        match b.world.step_end() {
            Ok(()) => stepped = true,
            Err(err) => error!("boids: step refused: {err}"),
        }
    }
    if stepped || b.flocks.iter().flatten().any(|f| f.states.stale) {
        read_all(b, stepped);
    }
}

/// One step of the schedule's time (`Time<Fixed>` in a fixed schedule): blocking, its result
/// read; or, overlapped, begun.
pub(crate) fn step(mut boids: ResMut<Boids>, time: Res<Time>) {
    let dt = time.delta_secs();
    if dt.is_nan() || dt <= 0.0 {
        return;
    }
    let b = &mut *boids;
    if b.overlapped {
        match b.world.step_begin(dt) {
            Ok(()) => b.in_flight = true,
            Err(err) => error!("boids: step refused: {err}"),
        }
        return;
    }
    match b.world.step(dt) {
        Ok(()) => read_all(b, true),
        Err(err) => error!("boids: step refused: {err}"),
    }
}

/// Boids whose place in their flock's buffers moved (others left) learn their new one.
pub(crate) fn reindex(mut boids: ResMut<Boids>, mut slots: Query<&mut BoidSlot>) {
    for entry in boids.flocks.iter_mut().flatten() {
        if !entry.reindex {
            continue;
        }
        entry.reindex = false;
        for (i, &e) in entry.boids.iter().enumerate() {
            if let Ok(mut s) = slots.get_mut(e) {
                s.index = i as u32;
            }
        }
    }
}

/// Every boid's `Transform`, between the last two states by the fixed clock's overstep (or the
/// last state), in parallel over Bevy's compute pool; nothing allocated.
pub(crate) fn transforms(
    boids: Res<Boids>,
    fixed: Option<Res<Time<Fixed>>>,
    mut fish: Query<(&BoidSlot, &mut Transform)>,
) {
    let alpha = match (&fixed, boids.interpolate) {
        (Some(t), true) => t.overstep_fraction(),
        _ => 1.0,
    };
    let flocks = &boids.flocks;
    fish.par_iter_mut().for_each(|(slot, mut t)| {
        let Some(Some(entry)) = flocks.get(slot.flock as usize) else {
            return;
        };
        if let Some((p, q)) = entry.states.at(slot.index as usize, alpha) {
            t.translation = p;
            t.rotation = q;
        }
    });
}
