//! Reading a flock in id order: every public read sees the boids sorted by id, whatever the
//! storage order. The permutation is built by the step for the state it makes (or by the first
//! read after any other change); for the borrowing reads, a copy in id order is built on the
//! first read after a change. Both are kept until the next change.

use super::{Boids, Flock};
use boids_core::{BoidState, Extra, FlockParams, Vec3};
use boids_index::PARALLEL_MIN;
use boids_index::exec::{Exec, RayonExec, chunks_mut};
use boids_index::reads::{Form, Order};
use boids_index::{SimdLevel, reads};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

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

/// Matrices of a flock at least this large (64 bytes a boid: 4 MiB) are written with
/// streaming stores, which skip reading the lines they fill: an output that size leaves the
/// caches anyway.
const STREAM_MATRICES: usize = 65_536;

/// A state's positions and headings in id order, written by the step that made it when the
/// flock was read in id order within the last [`ORDERED_FOR`] steps: the reads of positions,
/// orientations and matrices then go through the arrays in order instead of gathering each
/// from storage order (a random permutation of it: after a step the gathers miss the caches).
#[derive(Clone, Default)]
pub(crate) struct Ordered {
    positions: Vec<Vec3>,
    headings: Vec<Vec3>,
}

impl Ordered {
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.positions.capacity() + self.headings.capacity()) * 12
    }
}

/// Steps a flock may go without a read of its positions, headings, orientations or matrices
/// in id order before its steps stop writing [`Ordered`] (a frame of several steps reads only
/// after the last).
const ORDERED_FOR: u8 = 8;

/// Steps since a state's line of states (each step's carries the count on) was last read in
/// id order, saturating; never read: `u8::MAX`. A hint for the step, not part of the state.
#[derive(Debug)]
pub(crate) struct Unread(AtomicU8);

impl Default for Unread {
    fn default() -> Self {
        Unread(AtomicU8::new(u8::MAX))
    }
}

impl Clone for Unread {
    fn clone(&self) -> Self {
        Unread(AtomicU8::new(self.0.load(Relaxed)))
    }
}

impl Unread {
    /// The state was read (a reader on any thread, even during a step that reads it too).
    fn read(&self) {
        self.0.store(0, Relaxed);
    }
}

/// Whether boids `st` of a flock with params `p` draw the orientation their last step kept (they
/// lean with the ground), not `LookRotation(heading)`.
fn leaning(p: &FlockParams, st: &Boids) -> bool {
    Flock::leans(p) && st.extras.len() == st.headings.len()
}

/// At the end of a step, with `next`'s id order built: carries the count of unread steps on
/// from `before`, and writes `next.ordered` (into `spare`'s buffers) if the flock was read
/// within the last [`ORDERED_FOR`] steps, in parallel on `exec`. A leaning flock (params `p`)
/// draws its kept orientations, not its headings: it gets none. Returns `spare` when it goes unused
/// (emptied once the flock has gone unread for longer: its memory goes too).
pub(crate) fn order_next(
    exec: &dyn Exec,
    before: &Boids,
    next: &mut Boids,
    p: &FlockParams,
    mut spare: Ordered,
) -> Ordered {
    let unread = before.unread.0.load(Relaxed).saturating_add(1);
    next.unread = Unread(AtomicU8::new(unread));
    next.ordered = OnceLock::new();
    if unread > ORDERED_FOR {
        return Ordered::default();
    }
    if leaning(p, next) {
        return spare;
    }
    let Some(slots) = next.id_slots.get() else {
        return spare;
    };
    let n = slots.len();
    spare.positions.resize(n, Vec3::ZERO);
    spare.headings.resize(n, Vec3::ZERO);
    gather(exec, slots, &mut spare.positions, |s| next.positions[s]);
    gather(exec, slots, &mut spare.headings, |s| next.headings[s]);
    next.ordered = OnceLock::from(spare);
    Ordered::default()
}

/// `f(start, out[start..start + len])` over chunks of `out`, in parallel on `exec` for large
/// flocks.
fn by_chunks<T: Send>(exec: &dyn Exec, out: &mut [T], f: impl Fn(usize, &mut [T]) + Sync) {
    if out.len() < PARALLEL_MIN || exec.workers() == 1 {
        f(0, out);
    } else {
        chunks_mut(exec, out, CHUNK, &f);
    }
}

/// `out[k] = from[k]` (converted) for every k of `from`, in parallel on `exec` for large flocks.
fn copy_into<T: From<Vec3> + Send>(exec: &dyn Exec, from: &[Vec3], out: &mut [T]) {
    by_chunks(exec, &mut out[..from.len()], |start, o| {
        for (o, &v) in o.iter_mut().zip(&from[start..]) {
            *o = v.into();
        }
    });
}

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
#[allow(
    unsafe_code,
    reason = "a measured hot loop: the slots as atomics for a parallel scatter"
)]
pub(crate) fn build_id_slots(exec: &dyn Exec, rank: &[u32], slots: &mut Vec<u32>) {
    let n = rank.len();
    slots.clear();
    slots.resize(n, 0);
    if n < SCATTER_PARALLEL_MIN || exec.workers() == 1 {
        for (s, &r) in rank.iter().enumerate() {
            slots[r as usize] = s as u32;
        }
        return;
    }
    // Each worker scatters a range of slots. The ranks are a permutation, so no two writes
    // meet; written as atomics (plain stores on every target), a broken permutation could give
    // wrong slots but never a data race.
    const _: () = assert!(align_of::<AtomicU32>() == align_of::<u32>());
    // SAFETY: `AtomicU32` has the size and bit validity of `u32`, and (asserted above) its
    // alignment; `slots` is borrowed mutably for as long as `cells` lives, so nothing else
    // reads or writes it meanwhile.
    let cells: &[AtomicU32] =
        unsafe { std::slice::from_raw_parts(slots.as_mut_ptr().cast::<AtomicU32>(), n) };
    exec.for_ranges(n, CHUNK, &|range| {
        for s in range {
            if let Some(c) = cells.get(rank[s] as usize) {
                c.store(s as u32, Relaxed);
            }
        }
    });
}

/// Flocks smaller than this build their id order on one thread: one pass of scattered writes
/// into an array that fits the caches takes less than waking the workers.
const SCATTER_PARALLEL_MIN: usize = 1 << 16;

/// `f(slots[range], out[range])` over chunks of `slots`, in parallel on `exec` for large flocks:
/// the reads whose kernels take a block of boids at once.
fn gather_chunks<T: Send>(
    exec: &dyn Exec,
    slots: &[u32],
    out: &mut [T],
    f: impl Fn(&[u32], &mut [T]) + Sync,
) {
    by_chunks(exec, &mut out[..slots.len()], |start, o| {
        f(&slots[start..start + o.len()], o)
    });
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
        let (st, exec) = (&*self.st, RayonExec::default());
        st.unread.read();
        match st.ordered.get() {
            Some(o) => copy_into(&exec, &o.headings, out),
            None => gather(&exec, self.id_slots(), out, |s| st.headings[s].into()),
        }
    }
    /// Copies the ids, ascending, into `out[..len]`; as [`Flock::read_positions`].
    pub fn read_ids(&self, out: &mut [u32]) {
        self.read_ids_with(&RayonExec::default(), out);
    }

    pub(crate) fn read_positions_with<T: From<Vec3> + Send>(&self, exec: &dyn Exec, out: &mut [T]) {
        let st = &*self.st;
        st.unread.read();
        match st.ordered.get() {
            Some(o) => copy_into(exec, &o.positions, out),
            None => gather(exec, self.id_slots_with(exec), out, |s| {
                st.positions[s].into()
            }),
        }
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
        st.unread.read();
        if self.leaning() {
            gather(exec, self.id_slots_with(exec), out, |s| {
                st.extras[s].orientation.to_array()
            });
        } else if let Some(o) = st.ordered.get() {
            by_chunks(exec, &mut out[..o.headings.len()], |start, out| {
                let h = &o.headings[start..start + out.len()];
                reads::orientations(level, Order::Each, h, out)
            });
        } else {
            gather_chunks(exec, self.id_slots_with(exec), out, |slots, out| {
                reads::orientations(level, Order::Slots(slots), &st.headings, out)
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
        st.unread.read();
        // Decided for the whole flock, not for each of the parts it is written in.
        let stream = st.headings.len() >= STREAM_MATRICES;
        if self.leaning() {
            gather(exec, self.id_slots_with(exec), out, |s| {
                let m = self.leaning_matrix(s, scale);
                transform.map_or(m, |t| *t * m).to_cols_array()
            });
        } else if let Some(o) = st.ordered.get() {
            by_chunks(exec, &mut out[..o.headings.len()], |start, out| {
                let end = start + out.len();
                let form = Form {
                    scale,
                    transform,
                    stream,
                };
                let (p, h) = (&o.positions[start..end], &o.headings[start..end]);
                reads::matrices(level, Order::Each, p, h, form, out)
            });
        } else {
            gather_chunks(exec, self.id_slots_with(exec), out, |slots, out| {
                let form = Form {
                    scale,
                    transform,
                    stream,
                };
                let at = Order::Slots(slots);
                reads::matrices(level, at, &st.positions, &st.headings, form, out)
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
        leaning(&self.params, &self.st)
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
