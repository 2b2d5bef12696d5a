//! The C ABI's unsafe code, exercised as a C caller would: every export that reads or writes
//! through a caller's pointer, with buffers exactly full, too small, empty and aligned to 4 but
//! not 16 bytes; shape data from raw arrays; names in and out; save bytes out and back in;
//! stale ids; a step in flight read from another thread; a host's job system on its own thread.
//!
//! Small on purpose: `scripts/test` runs this module under Miri (`cargo miri test -p boids-ffi
//! --lib`), which fails on any access out of bounds or through a freed pointer, a misaligned
//! reference, a data race or a leak. The integration tests cover the same exports at full size.
//!
//! SAFETY, for every `unsafe` block here: each pointer is a live local or a vector's buffer of
//! the length passed with it, or NULL where the call allows it.

use crate::*;
use std::ffi::{CStr, c_void};
use std::ptr::{null, null_mut};

const DT: f32 = 1.0 / 60.0;

fn message() -> String {
    // SAFETY: the message is NUL-terminated and lives until this thread's next call.
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// A host's job system that makes every call of a task at once, inside `enqueue_task`, and
/// returns NULL ("every call made"): worlds without a thread of their own (Rayon's pools are
/// left out of the interpreter: its epoch-based collector leaves its last garbage for the
/// process's end, which Miri reports as leaks).
unsafe extern "C" fn inline_enqueue(
    call: BoidsTaskFn,
    items: u32,
    _min_range: u32,
    context: *mut c_void,
    _user: *mut c_void,
) -> *mut c_void {
    for k in 0..items {
        unsafe { call(k, k + 1, context) };
    }
    null_mut()
}

unsafe extern "C" fn inline_finish(_handle: *mut c_void, _user: *mut c_void) {
    unreachable!("a NULL handle is never finished");
}

/// The def of a world on the inline host.
fn inline_def() -> BoidsWorldDef {
    let mut def = boids_default_world_def();
    def.seed = 3;
    def.enqueue_task = Some(inline_enqueue);
    def.finish_task = Some(inline_finish);
    def.worker_count = 2;
    def
}

/// A world on the inline host.
fn world() -> BoidsWorldId {
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_create(&inline_def(), &mut w) },
        BoidsResult::Ok
    );
    w
}

/// A world on `host`'s worker thread.
fn hosted(h: &std::sync::Arc<host::Host>) -> BoidsWorldId {
    let mut def = boids_default_world_def();
    def.seed = 3;
    def.enqueue_task = Some(host::enqueue);
    def.finish_task = Some(host::finish);
    def.worker_count = 2;
    def.user_context = std::sync::Arc::as_ptr(h).cast_mut().cast();
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
    w
}

/// A flock of `n` fish named `name`.
fn flock(w: BoidsWorldId, name: &CStr, n: u32) -> BoidsFlockId {
    let mut def = boids_default_flock_def();
    def.name = name.as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::Ok,
        "{}",
        message()
    );
    let spawn = boids_default_spawn_def();
    let mut first = u32::MAX;
    assert_eq!(
        unsafe { boids_flock_spawn(f, n, &spawn, &mut first) },
        BoidsResult::Ok
    );
    assert_eq!(first, 0);
    f
}

/// Memory aligned to 16 bytes, seen from `offset` bytes in: `offset = 4` gives a buffer aligned
/// to 4 but not to 16 (what a C# array of structs may be).
struct Buffer {
    words: Vec<u128>,
}

impl Buffer {
    fn new(bytes: usize) -> Buffer {
        Buffer {
            words: vec![0; bytes.div_ceil(16) + 1],
        }
    }

    fn at<T>(&mut self, offset: usize) -> *mut T {
        // SAFETY: `offset` < 16 and the buffer has a spare word, so the pointer and every
        // element after it up to the requested size stay inside the allocation.
        unsafe { self.words.as_mut_ptr().cast::<u8>().add(offset).cast() }
    }
}

#[test]
fn every_bulk_read_fills_exactly_what_it_says_and_nothing_when_too_small() {
    let w = world();
    let f = flock(w, c"fish", 20);
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    let mut n = 0usize;
    // A size query: NULL with capacity 0.
    assert_eq!(
        unsafe { boids_flock_read_positions(f, null_mut(), 0, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(n, 20);
    for offset in [0, 4] {
        // Exactly full, aligned to 16 or only to 4.
        let mut b = Buffer::new(20 * 64);
        let p = b.at::<BoidsVec3>(offset);
        assert_eq!(
            unsafe { boids_flock_read_positions(f, p, 20, &mut n) },
            BoidsResult::Ok
        );
        let positions = unsafe { std::slice::from_raw_parts(p, 20) };
        assert!(positions.iter().all(|v| v.x.is_finite() && v.x != 0.0));
        let v = b.at::<BoidsVec3>(offset);
        assert_eq!(
            unsafe { boids_flock_read_velocities(f, v, 20, &mut n) },
            BoidsResult::Ok
        );
        let q = b.at::<BoidsQuat>(offset);
        assert_eq!(
            unsafe { boids_flock_read_orientations(f, q, 20, &mut n) },
            BoidsResult::Ok
        );
        let quats = unsafe { std::slice::from_raw_parts(q, 20) };
        assert!(quats.iter().all(|q| {
            let l = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            (l - 1.0).abs() < 1e-4
        }));
        let m = b.at::<BoidsMat4>(offset);
        assert_eq!(
            unsafe { boids_flock_read_matrices(f, 1.0, m, 20, &mut n) },
            BoidsResult::Ok
        );
        let parent = BoidsMat4 {
            m: [
                2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 2.0, 3.0, 1.0,
            ],
        };
        assert_eq!(
            unsafe { boids_flock_read_matrices_transformed(f, &parent, 1.0, m, 20, &mut n) },
            BoidsResult::Ok
        );
        let ids = b.at::<u32>(offset);
        assert_eq!(
            unsafe { boids_flock_read_ids(f, ids, 20, &mut n) },
            BoidsResult::Ok
        );
        let ids = unsafe { std::slice::from_raw_parts(ids, 20) };
        assert_eq!(ids, (0..20).collect::<Vec<u32>>());
    }
    // One entry short: BUFFER_TOO_SMALL, the count needed, the buffer untouched.
    let mut short = vec![
        BoidsVec3 {
            x: 7.0,
            y: 7.0,
            z: 7.0
        };
        19
    ];
    n = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, short.as_mut_ptr(), 19, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(n, 20);
    assert!(short.iter().all(|v| v.x == 7.0));
    let mut mats = vec![BoidsMat4 { m: [7.0; 16] }; 19];
    assert_eq!(
        unsafe { boids_flock_read_matrices(f, 1.0, mats.as_mut_ptr(), 19, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert!(mats.iter().all(|m| m.m == [7.0; 16]));
    // NULL with room claimed: refused before any write.
    assert_eq!(
        unsafe { boids_flock_read_positions(f, null_mut(), 20, &mut n) },
        BoidsResult::NullPointer
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn writes_adds_and_removes_read_exactly_the_callers_arrays() {
    let w = world();
    let f = flock(w, c"fish", 8);
    let mut b = Buffer::new(8 * 12);
    let p = b.at::<BoidsVec3>(4);
    for i in 0..8 {
        unsafe {
            p.add(i).write(BoidsVec3 {
                x: i as f32,
                y: 1.0,
                z: -2.0,
            })
        };
    }
    assert_eq!(
        unsafe { boids_flock_write_positions(f, p, 8) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_write_velocities(f, p, 8) },
        BoidsResult::Ok
    );
    let mut back = vec![BoidsVec3::default(); 8];
    let mut n = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, back.as_mut_ptr(), 8, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(back[5].x, 5.0);
    // A count other than the flock's size is refused before the array is read.
    assert_eq!(
        unsafe { boids_flock_write_positions(f, p, 9) },
        BoidsResult::InvalidArgument
    );
    let add = [BoidsVec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    }; 3];
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_add_boids(f, add.as_ptr(), add.as_ptr(), 3, &mut first) },
        BoidsResult::Ok
    );
    assert_eq!(first, 8);
    // All or nothing: an unknown id removes none; then ids 1 and 9 (9 given twice) go.
    let mut removed = 7;
    let unknown = [1u32, 10_000];
    assert_eq!(
        unsafe { boids_flock_remove_boids(f, unknown.as_ptr(), 2, &mut removed) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(removed, 7, "written only on success");
    let gone = [1u32, 9, 9];
    assert_eq!(
        unsafe { boids_flock_remove_boids(f, gone.as_ptr(), gone.len(), &mut removed) },
        BoidsResult::Ok
    );
    assert_eq!(removed, 2, "ids 1 and 9, duplicates once");
    let path = [add[0], back[2], back[3]];
    assert_eq!(
        unsafe { boids_flock_set_path(f, path.as_ptr(), path.len(), 1) },
        BoidsResult::Ok,
        "{}",
        message()
    );
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    assert_eq!(unsafe { boids_flock_count(f, &mut n) }, BoidsResult::Ok);
    assert_eq!(n, 9);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn names_and_lists_go_out_through_the_callers_buffers() {
    let w = world();
    let a = flock(w, c"alpha", 1);
    let b = flock(w, c"beta", 1);
    let mut found = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_find(w, c"beta".as_ptr(), &mut found) },
        BoidsResult::Ok
    );
    assert_eq!(found, b);
    // The name: a size query, one byte short (no room for the NUL), exactly enough.
    let mut len = 0;
    assert_eq!(
        unsafe { boids_flock_name(a, null_mut(), 0, &mut len) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(len, 5, "\"alpha\", without its NUL");
    let mut name = vec![b'x' as std::ffi::c_char; 6];
    assert_eq!(
        unsafe { boids_flock_name(a, name.as_mut_ptr(), 5, &mut len) },
        BoidsResult::BufferTooSmall
    );
    assert!(name.iter().all(|&c| c == b'x' as std::ffi::c_char));
    assert_eq!(
        unsafe { boids_flock_name(a, name.as_mut_ptr(), 6, &mut len) },
        BoidsResult::Ok
    );
    assert_eq!(unsafe { CStr::from_ptr(name.as_ptr()) }, c"alpha");
    let mut ids = [BoidsFlockId::default(); 2];
    let mut n = 0;
    assert_eq!(
        unsafe { boids_world_list_flocks(w, ids.as_mut_ptr(), 2, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!((n, ids), (2, [a, b]));
    // Invalid UTF-8 and an over-long name are refused, with a message.
    let mut def = boids_default_flock_def();
    def.name = c"\xff".as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::InvalidArgument
    );
    assert!(message().contains("UTF-8"), "{}", message());
    let long = std::ffi::CString::new(vec![b'a'; 300]).unwrap();
    def.name = long.as_ptr();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::InvalidArgument
    );
    assert!(
        unsafe { CStr::from_ptr(boids_result_str(BoidsResult::Busy as i32)) }
            .to_bytes()
            .len()
            > 3
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn shape_data_is_copied_from_raw_arrays_and_placed() {
    let w = world();
    let _f = flock(w, c"fish", 12);
    let vertices = [
        BoidsVec3::default(),
        BoidsVec3 {
            x: 4.0,
            y: 0.0,
            z: 0.0,
        },
        BoidsVec3 {
            x: 0.0,
            y: 4.0,
            z: 0.0,
        },
        BoidsVec3 {
            x: 0.0,
            y: 0.0,
            z: 4.0,
        },
    ];
    let indices = [0u32, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3];
    let mut mesh = BoidsMeshId::default();
    assert_eq!(
        unsafe {
            boids_mesh_create(
                w,
                vertices.as_ptr(),
                4,
                indices.as_ptr(),
                indices.len(),
                &mut mesh,
            )
        },
        BoidsResult::Ok
    );
    // An index out of range, and counts past the limits with no array behind them: refused
    // before the arrays are read.
    let bad = [0u32, 1, 4];
    assert_eq!(
        unsafe { boids_mesh_create(w, vertices.as_ptr(), 4, bad.as_ptr(), 3, &mut mesh) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(
        unsafe { boids_mesh_create(w, null(), usize::MAX, null(), usize::MAX, &mut mesh) },
        BoidsResult::InvalidArgument
    );
    let heights = [0.0f32, 1.0, 0.5, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0];
    let mut field = BoidsMeshId::default();
    assert_eq!(
        unsafe { boids_heightfield_create(w, heights.as_ptr(), 3, 3, 2.0, 2.0, &mut field) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_heightfield_create(w, null(), u32::MAX, u32::MAX, 1.0, 1.0, &mut field) },
        BoidsResult::InvalidArgument
    );
    let mut def = boids_default_obstacle_def();
    def.shape = BOIDS_OBSTACLE_MESH;
    def.mesh = mesh;
    def.a = BoidsVec3 {
        x: 2.0,
        y: 0.0,
        z: 0.0,
    };
    let mut rock = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &def, &mut rock) },
        BoidsResult::Ok,
        "{}",
        message()
    );
    def.shape = BOIDS_OBSTACLE_HEIGHTFIELD;
    def.mesh = field;
    def.a.y = -8.0;
    let mut ground = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &def, &mut ground) },
        BoidsResult::Ok,
        "{}",
        message()
    );
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    // The scene's triangles: 4 of the mesh and 8 of the field, three corners each.
    let mut n = 0;
    assert_eq!(
        unsafe { boids_world_read_scene_triangles(w, null_mut(), 0, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(n, 3 * (4 + 8));
    let mut corners = vec![BoidsVec3::default(); n];
    assert_eq!(
        unsafe { boids_world_read_scene_triangles(w, corners.as_mut_ptr(), n, &mut n) },
        BoidsResult::Ok
    );
    // A placed mesh cannot be destroyed; once its obstacle is removed it can, and its id goes
    // stale.
    assert_eq!(boids_mesh_destroy(mesh), BoidsResult::InvalidArgument);
    assert_eq!(boids_obstacle_remove(rock), BoidsResult::Ok);
    assert_eq!(boids_mesh_destroy(mesh), BoidsResult::Ok);
    assert_eq!(boids_mesh_is_valid(mesh), 0);
    assert_eq!(boids_mesh_destroy(mesh), BoidsResult::InvalidId);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn a_save_goes_out_and_comes_back_in_through_the_callers_bytes() {
    let w = world();
    let f = flock(w, c"fish", 10);
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    let mut len = 0;
    assert_eq!(
        unsafe { boids_world_save(w, null_mut(), 0, &mut len) },
        BoidsResult::BufferTooSmall
    );
    let mut bytes = vec![0u8; len + 1];
    assert_eq!(
        unsafe { boids_world_save(w, bytes.as_mut_ptr(), len - 1, &mut len) },
        BoidsResult::BufferTooSmall
    );
    assert!(
        bytes.iter().all(|&b| b == 0),
        "a refused save writes nothing"
    );
    // From an odd address: bytes have no alignment.
    assert_eq!(
        unsafe { boids_world_save(w, bytes.as_mut_ptr().add(1), len, &mut len) },
        BoidsResult::Ok
    );
    let def = inline_def();
    let mut copy = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_load(&def, bytes.as_ptr().add(1), len, &mut copy) },
        BoidsResult::Ok,
        "{}",
        message()
    );
    // A truncated save is refused, whole.
    let mut none = BoidsWorldId::default();
    assert_ne!(
        unsafe { boids_world_load(&def, bytes.as_ptr().add(1), len / 2, &mut none) },
        BoidsResult::Ok
    );
    assert_eq!(none, BoidsWorldId::default());
    let (mut a, mut b) = (0u64, 1u64);
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    assert_eq!(boids_world_step(copy, DT), BoidsResult::Ok);
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut a) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_world_state_hash(copy, &mut b) },
        BoidsResult::Ok
    );
    assert_eq!(a, b, "the loaded world steps to the same bits");
    // Stale ids after a destroy: refused, never followed.
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    let mut n = 0;
    assert_eq!(
        unsafe { boids_flock_count(f, &mut n) },
        BoidsResult::InvalidId
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::InvalidId);
    assert_eq!(boids_world_destroy(copy), BoidsResult::Ok);
}

#[test]
fn a_step_in_flight_is_read_from_another_thread_while_it_runs() {
    let h = host::start();
    let w = hosted(&h);
    let f = flock(w, c"fish", 24);
    let mut before = vec![BoidsVec3::default(); 24];
    let mut n = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, before.as_mut_ptr(), 24, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
    let reader = std::thread::spawn(move || {
        let mut seen = vec![BoidsVec3::default(); 24];
        let mut n = 0;
        let r = unsafe { boids_flock_read_positions(f, seen.as_mut_ptr(), 24, &mut n) };
        (r, seen)
    });
    let (r, seen) = reader.join().unwrap();
    assert_eq!(r, BoidsResult::Ok);
    assert_eq!(
        seen.iter().map(|v| v.x.to_bits()).collect::<Vec<_>>(),
        before.iter().map(|v| v.x.to_bits()).collect::<Vec<_>>(),
        "a read during the step sees the state before it"
    );
    assert_eq!(boids_world_step(w, DT), BoidsResult::Busy);
    assert_eq!(boids_world_step_end(w), BoidsResult::Ok);
    // Destroyed with a step in flight: cancelled, and nothing leaks.
    assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    h.stop();
}

/// A host's job system with one worker thread of its own: ranges go through a channel, the
/// task handle is a counter the finish call waits on.
mod host {
    use super::*;
    use std::sync::mpsc::{Sender, channel};
    use std::sync::{Arc, Condvar, Mutex};

    /// One call to make: the engine's function, its range and context, and its task.
    type Call = (BoidsTaskFn, u32, u32, usize, Arc<Task>);

    pub struct Host {
        pub queue: Mutex<Option<Sender<Call>>>,
        pub worker: Mutex<Option<std::thread::JoinHandle<()>>>,
    }

    #[derive(Default)]
    pub struct Task {
        left: Mutex<u32>,
        done: Condvar,
    }

    pub fn start() -> Arc<Host> {
        let (tx, rx) = channel::<Call>();
        let worker = std::thread::spawn(move || {
            for (call, start, end, context, task) in rx {
                unsafe { call(start, end, std::ptr::without_provenance_mut(context)) };
                let mut left = task.left.lock().unwrap();
                *left -= 1;
                task.done.notify_all();
            }
        });
        Arc::new(Host {
            queue: Mutex::new(Some(tx)),
            worker: Mutex::new(Some(worker)),
        })
    }

    pub unsafe extern "C" fn enqueue(
        call: BoidsTaskFn,
        items: u32,
        _min_range: u32,
        context: *mut c_void,
        user: *mut c_void,
    ) -> *mut c_void {
        let host = unsafe { &*user.cast::<Host>() };
        let task = Arc::new(Task {
            left: Mutex::new(items),
            done: Condvar::new(),
        });
        let queue = host.queue.lock().unwrap();
        for k in 0..items {
            let item = (call, k, k + 1, context.addr(), Arc::clone(&task));
            queue.as_ref().unwrap().send(item).unwrap();
        }
        Arc::into_raw(task).cast_mut().cast()
    }

    pub unsafe extern "C" fn finish(handle: *mut c_void, _user: *mut c_void) {
        let task = unsafe { Arc::from_raw(handle.cast_const().cast::<Task>()) };
        let mut left = task.left.lock().unwrap();
        while *left > 0 {
            left = task.done.wait(left).unwrap();
        }
    }

    impl Host {
        pub fn stop(&self) {
            self.queue.lock().unwrap().take();
            if let Some(t) = self.worker.lock().unwrap().take() {
                t.join().unwrap();
            }
        }
    }
}

#[test]
fn a_hosts_job_system_runs_the_steps_and_hears_nothing_after_the_destroy() {
    let h = host::start();
    let w = hosted(&h);
    flock(w, c"fish", 16);
    let reference = world();
    flock(reference, c"fish", 16);
    for _ in 0..2 {
        assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", message());
        assert_eq!(boids_world_step(reference, DT), BoidsResult::Ok);
    }
    let (mut a, mut b) = (0u64, 1u64);
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut a) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_world_state_hash(reference, &mut b) },
        BoidsResult::Ok
    );
    assert_eq!(a, b, "the host's bits are the engine's");
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert_eq!(boids_world_destroy(reference), BoidsResult::Ok);
    h.stop();
}
