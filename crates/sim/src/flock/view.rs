//! Reading a flock in id order: every public read sees the boids sorted by id, whatever the
//! storage order. The permutation (and, for the borrowing reads, a copy in id order) is built on
//! the first read after a change and kept until the next change.

use super::Flock;
use boids_core::math::{look_basis, look_rotation};
use boids_core::{BoidState, Extra, Vec3};
use boids_index::PARALLEL_MIN;
use boids_index::exec::{Exec, RayonExec, chunks_mut};

/// The boids in id order.
#[derive(Clone)]
pub(crate) struct IdView {
    ids: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
}

impl IdView {
    pub(crate) fn heap_bytes(&self) -> usize {
        self.ids.capacity() * 4
            + (self.positions.capacity() + self.velocities.capacity() + self.headings.capacity())
                * 12
    }
}

const CHUNK: usize = 4096;

/// `out[k] = f(slots[k])` for every k, in parallel on `exec` for large flocks.
fn gather<T: Send>(exec: &dyn Exec, slots: &[u32], out: &mut [T], f: impl Fn(usize) -> T + Sync) {
    let out = &mut out[..slots.len()];
    let fill = |start: usize, o: &mut [T]| {
        for (o, &s) in o.iter_mut().zip(&slots[start..]) {
            *o = f(s as usize);
        }
    };
    if slots.len() < PARALLEL_MIN {
        fill(0, out);
    } else {
        chunks_mut(exec, out, CHUNK, &fill);
    }
}

impl Flock {
    /// Storage slot of each boid in id order.
    pub(crate) fn id_slots(&self) -> &[u32] {
        self.id_slots_with(&RayonExec::default())
    }

    /// [`Flock::id_slots`], built (if not yet) in parallel on `exec`.
    ///
    /// Readers on several threads may build it at once (the first to finish keeps its copy):
    /// building inside `OnceLock::get_or_init` would deadlock, since a pool worker waiting for
    /// its own parallel build may take up another reader's job, which would then wait on the
    /// build its own thread is in the middle of.
    pub(crate) fn id_slots_with(&self, exec: &dyn Exec) -> &[u32] {
        let st = &*self.st;
        if let Some(s) = st.id_slots.get() {
            return s;
        }
        let built = {
            let n = st.rank.len();
            let mut slots = vec![0u32; n];
            let parts = if n < PARALLEL_MIN {
                1
            } else {
                exec.workers().clamp(1, 16)
            };
            if parts == 1 {
                for (s, &r) in st.rank.iter().enumerate() {
                    slots[r as usize] = s as u32;
                }
            } else {
                // Each part owns a range of ranks and scans every slot (a scatter without
                // races).
                let per = n.div_ceil(parts);
                chunks_mut(exec, &mut slots, per, &|start: usize, out: &mut [u32]| {
                    let lo = start as u32;
                    let hi = lo + out.len() as u32;
                    for (s, &r) in st.rank.iter().enumerate() {
                        if r >= lo && r < hi {
                            out[(r - lo) as usize] = s as u32;
                        }
                    }
                });
            }
            slots
        };
        st.id_slots.get_or_init(|| built)
    }

    fn view(&self) -> &IdView {
        let exec = RayonExec::default();
        let st = &*self.st;
        if let Some(v) = st.id_view.get() {
            return v;
        }
        // Built outside `get_or_init`, as in `id_slots_with`.
        let built = {
            let slots = self.id_slots();
            let n = slots.len();
            let mut v = IdView {
                ids: vec![0; n],
                positions: vec![Vec3::ZERO; n],
                velocities: vec![Vec3::ZERO; n],
                headings: vec![Vec3::ZERO; n],
            };
            gather(&exec, slots, &mut v.ids, |s| st.ids[s]);
            gather(&exec, slots, &mut v.positions, |s| st.positions[s]);
            gather(&exec, slots, &mut v.velocities, |s| st.velocities[s]);
            gather(&exec, slots, &mut v.headings, |s| st.headings[s]);
            v
        };
        st.id_view.get_or_init(|| built)
    }

    /// Stable ids, ascending (the order of every other read).
    pub fn ids(&self) -> &[u32] {
        &self.view().ids
    }
    /// Positions, in id order.
    pub fn positions(&self) -> &[Vec3] {
        &self.view().positions
    }
    /// Velocities, in id order.
    pub fn velocities(&self) -> &[Vec3] {
        &self.view().velocities
    }
    /// Unit headings, in id order.
    pub fn headings(&self) -> &[Vec3] {
        &self.view().headings
    }

    /// Copies the positions, in id order, into `out[..len]` (converted to `T`), without
    /// keeping a copy. `out` must hold at least [`Flock::len`] entries.
    pub fn read_positions<T: From<Vec3> + Send>(&self, out: &mut [T]) {
        self.read_positions_with(&RayonExec::default(), out);
    }
    /// Copies the velocities, in id order, into `out[..len]`; as [`Flock::read_positions`].
    pub fn read_velocities<T: From<Vec3> + Send>(&self, out: &mut [T]) {
        self.read_velocities_with(&RayonExec::default(), out);
    }
    /// Copies the headings, in id order, into `out[..len]`; as [`Flock::read_positions`].
    pub fn read_headings<T: From<Vec3> + Send>(&self, out: &mut [T]) {
        let st = &*self.st;
        gather(&RayonExec::default(), self.id_slots(), out, |s| {
            st.headings[s].into()
        });
    }
    /// Copies the ids, ascending, into `out[..len]`; as [`Flock::read_positions`].
    pub fn read_ids(&self, out: &mut [u32]) {
        self.read_ids_with(&RayonExec::default(), out);
    }

    pub(crate) fn read_positions_with<T: From<Vec3> + Send>(&self, exec: &dyn Exec, out: &mut [T]) {
        let st = &*self.st;
        gather(exec, self.id_slots_with(exec), out, |s| {
            st.positions[s].into()
        });
    }

    pub(crate) fn read_velocities_with<T: From<Vec3> + Send>(
        &self,
        exec: &dyn Exec,
        out: &mut [T],
    ) {
        let st = &*self.st;
        gather(exec, self.id_slots_with(exec), out, |s| {
            st.velocities[s].into()
        });
    }

    pub(crate) fn read_ids_with(&self, exec: &dyn Exec, out: &mut [u32]) {
        let st = &*self.st;
        gather(exec, self.id_slots_with(exec), out, |s| st.ids[s]);
    }

    /// Position of the boid with this id in id order (the index into every read).
    pub fn position_of(&self, id: u32) -> Option<usize> {
        self.ids().binary_search(&id).ok()
    }

    /// One boid's state, by its position in id order.
    pub fn boid(&self, i: usize) -> BoidState {
        self.boid_in_slot(self.id_slots()[i] as usize)
    }

    pub(crate) fn boid_in_slot(&self, s: usize) -> BoidState {
        let st = &*self.st;
        BoidState {
            position: st.positions[s],
            velocity: st.velocities[s],
            heading: st.headings[s],
            extra: st.extras.get(s).copied().unwrap_or_else(Extra::default),
        }
    }

    /// Every boid's full state (extra state included), in id order.
    pub fn states(&self) -> Vec<BoidState> {
        self.id_slots()
            .iter()
            .map(|&s| self.boid_in_slot(s as usize))
            .collect()
    }

    /// Writes each boid's orientation (Unity's `LookRotation(heading)`: +Z forward, +Y up as
    /// near world up as possible) as `[x, y, z, w]` into `out[..len]`, in id order, in parallel
    /// in the current Rayon pool. Plain `f32` arrays (alignment 4) so callers can pass any float
    /// buffer. `out` must hold at least [`Flock::len`] entries.
    pub fn write_orientations(&self, out: &mut [[f32; 4]]) {
        self.write_orientations_with(&RayonExec::default(), out);
    }

    pub(crate) fn write_orientations_with(&self, exec: &dyn Exec, out: &mut [[f32; 4]]) {
        gather(exec, self.id_slots_with(exec), out, |s| {
            self.orientation(s).to_array()
        });
    }

    /// Writes each boid's 4×4 instance matrix, column-major (Unity's `Matrix4x4` memory layout):
    /// rotation `LookRotation(heading)`, uniform `scale`, translation = position; in id order.
    /// `out` must hold at least [`Flock::len`] entries.
    pub fn write_matrices(&self, scale: f32, out: &mut [[f32; 16]]) {
        self.write_matrices_with(&RayonExec::default(), scale, out);
    }

    pub(crate) fn write_matrices_with(&self, exec: &dyn Exec, scale: f32, out: &mut [[f32; 16]]) {
        gather(exec, self.id_slots_with(exec), out, |s| {
            self.local_matrix(s, scale).to_cols_array()
        });
    }

    /// As [`Flock::write_matrices`], each matrix multiplied on the left by `transform`
    /// (column-major): `transform × boid`, e.g. a Unity object's `localToWorldMatrix` when the
    /// flock lives in that object's local space. For drawing only: the product is not part of
    /// the model's state.
    pub fn write_matrices_transformed(
        &self,
        transform: &[f32; 16],
        scale: f32,
        out: &mut [[f32; 16]],
    ) {
        self.write_matrices_transformed_with(&RayonExec::default(), transform, scale, out);
    }

    pub(crate) fn write_matrices_transformed_with(
        &self,
        exec: &dyn Exec,
        transform: &[f32; 16],
        scale: f32,
        out: &mut [[f32; 16]],
    ) {
        let t = glam::Mat4::from_cols_array(transform);
        gather(exec, self.id_slots_with(exec), out, |s| {
            (t * self.local_matrix(s, scale)).to_cols_array()
        });
    }

    /// The drawn orientation of the boid in slot `s`: `LookRotation(heading)`, or for a flock
    /// that leans with the ground, the one its last step kept.
    fn orientation(&self, s: usize) -> glam::Quat {
        match self.st.extras.get(s) {
            Some(e) if Flock::leans(&self.params) => e.orientation,
            _ => look_rotation(self.st.headings[s]),
        }
    }

    fn local_matrix(&self, s: usize, scale: f32) -> glam::Mat4 {
        if Flock::leans(&self.params) && s < self.st.extras.len() {
            let m = glam::Mat3::from_quat(self.st.extras[s].orientation);
            return glam::Mat4::from_cols(
                (m.x_axis * scale).extend(0.0),
                (m.y_axis * scale).extend(0.0),
                (m.z_axis * scale).extend(0.0),
                self.st.positions[s].extend(1.0),
            );
        }
        let (r, u, f) = look_basis(self.st.headings[s]);
        glam::Mat4::from_cols(
            (r * scale).extend(0.0),
            (u * scale).extend(0.0),
            (f * scale).extend(0.0),
            self.st.positions[s].extend(1.0),
        )
    }
}
