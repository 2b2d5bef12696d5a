//! Reading a flock in id order: every public read sees the boids sorted by id, whatever the
//! storage order. The permutation is built by the step for the state it makes (or by the first
//! read after any other change); for the borrowing reads, a copy in id order is built on the
//! first read after a change. Both are kept until the next change.

use super::Flock;
use boids_core::{BoidState, Extra, Vec3};
use boids_index::PARALLEL_MIN;
use boids_index::exec::{Exec, RayonExec, chunks_mut};
use boids_index::{SimdLevel, reads};

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
    gather_chunks(exec, slots, out, |slots, out| {
        for (o, &s) in out.iter_mut().zip(slots) {
            *o = f(s as usize);
        }
    });
}

/// Writes into `slots` (its allocation reused) the storage slot of each boid in id order, from
/// `rank` (each slot's place in id order). A step builds it for the state it makes, so a read
/// after a step finds it; a change to the boids leaves it to the first read.
pub(crate) fn build_id_slots(exec: &dyn Exec, rank: &[u32], slots: &mut Vec<u32>) {
    let n = rank.len();
    slots.clear();
    slots.resize(n, 0);
    let parts = if n < PARALLEL_MIN {
        1
    } else {
        exec.workers().clamp(1, 16)
    };
    if parts == 1 {
        for (s, &r) in rank.iter().enumerate() {
            slots[r as usize] = s as u32;
        }
    } else {
        // Each part owns a range of ranks and scans every slot (a scatter without races).
        let per = n.div_ceil(parts);
        chunks_mut(exec, slots, per, &|start: usize, out: &mut [u32]| {
            let lo = start as u32;
            let hi = lo + out.len() as u32;
            for (s, &r) in rank.iter().enumerate() {
                if r >= lo && r < hi {
                    out[(r - lo) as usize] = s as u32;
                }
            }
        });
    }
}

/// `f(slots[range], out[range])` over chunks of `slots`, in parallel on `exec` for large flocks:
/// the reads whose kernels take a block of boids at once.
fn gather_chunks<T: Send>(
    exec: &dyn Exec,
    slots: &[u32],
    out: &mut [T],
    f: impl Fn(&[u32], &mut [T]) + Sync,
) {
    let out = &mut out[..slots.len()];
    if slots.len() < PARALLEL_MIN || exec.workers() == 1 {
        f(slots, out);
    } else {
        chunks_mut(exec, out, CHUNK, &|start: usize, o: &mut [T]| {
            f(&slots[start..start + o.len()], o)
        });
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
        let mut built = Vec::new();
        build_id_slots(exec, &st.rank, &mut built);
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
        self.write_orientations_with(&RayonExec::default(), SimdLevel::detect(), out);
    }

    pub(crate) fn write_orientations_with(
        &self,
        exec: &dyn Exec,
        level: SimdLevel,
        out: &mut [[f32; 4]],
    ) {
        let st = &*self.st;
        let slots = self.id_slots_with(exec);
        if self.leaning() {
            gather(exec, slots, out, |s| st.extras[s].orientation.to_array());
        } else {
            gather_chunks(exec, slots, out, |slots, out| {
                reads::orientations(level, slots, &st.headings, out)
            });
        }
    }

    /// Writes each boid's 4×4 instance matrix, column-major (Unity's `Matrix4x4` memory layout):
    /// rotation `LookRotation(heading)`, uniform `scale`, translation = position; in id order.
    /// `out` must hold at least [`Flock::len`] entries.
    pub fn write_matrices(&self, scale: f32, out: &mut [[f32; 16]]) {
        self.write_matrices_with(&RayonExec::default(), SimdLevel::detect(), scale, out);
    }

    pub(crate) fn write_matrices_with(
        &self,
        exec: &dyn Exec,
        level: SimdLevel,
        scale: f32,
        out: &mut [[f32; 16]],
    ) {
        self.matrices_into(exec, level, None, scale, out);
    }

    /// The instance matrices, each `transform ×` it when there is one.
    fn matrices_into(
        &self,
        exec: &dyn Exec,
        level: SimdLevel,
        transform: Option<&glam::Mat4>,
        scale: f32,
        out: &mut [[f32; 16]],
    ) {
        let st = &*self.st;
        let slots = self.id_slots_with(exec);
        if self.leaning() {
            gather(exec, slots, out, |s| {
                let m = self.leaning_matrix(s, scale);
                transform.map_or(m, |t| *t * m).to_cols_array()
            });
        } else {
            gather_chunks(exec, slots, out, |slots, out| {
                reads::matrices(
                    level,
                    slots,
                    &st.positions,
                    &st.headings,
                    scale,
                    transform,
                    out,
                )
            });
        }
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
        self.write_matrices_transformed_with(
            &RayonExec::default(),
            SimdLevel::detect(),
            transform,
            scale,
            out,
        );
    }

    pub(crate) fn write_matrices_transformed_with(
        &self,
        exec: &dyn Exec,
        level: SimdLevel,
        transform: &[f32; 16],
        scale: f32,
        out: &mut [[f32; 16]],
    ) {
        let t = glam::Mat4::from_cols_array(transform);
        self.matrices_into(exec, level, Some(&t), scale, out);
    }

    /// The flock draws the orientation its last step kept (it leans with the ground), not
    /// `LookRotation(heading)`.
    fn leaning(&self) -> bool {
        Flock::leans(&self.params) && self.st.extras.len() == self.st.headings.len()
    }

    /// The instance matrix of the boid in slot `s` of a leaning flock: its kept orientation's
    /// axes times `scale`, translated to its position.
    fn leaning_matrix(&self, s: usize, scale: f32) -> glam::Mat4 {
        let st = &*self.st;
        let m = glam::Mat3::from_quat(st.extras[s].orientation);
        glam::Mat4::from_cols(
            (m.x_axis * scale).extend(0.0),
            (m.y_axis * scale).extend(0.0),
            (m.z_axis * scale).extend(0.0),
            st.positions[s].extend(1.0),
        )
    }
}
