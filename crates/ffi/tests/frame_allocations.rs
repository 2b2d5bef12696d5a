//! No allocation in a frame: once a world's buffers have their sizes, a step (blocking, or
//! begun and ended) and every bulk read a renderer makes (positions, velocities, ids,
//! orientations, matrices plain and transformed) allocate nothing, through the C ABI, on the
//! engine's own workers (1 and 2 threads; but for Rayon's queue of work entering its pool,
//! one allocation per 63 entries) and on a host's job system (2 workers; see the test for the
//! one case that depends on the host's scheduling), for flocks small enough to stay on the
//! calling thread and large enough to use the pool (10,000 and 100,000 boids). Counted by a
//! global allocator over every thread, with a host pool that allocates nothing itself.
//!
//! SAFETY, for every `unsafe` block here: pointers point to live locals or buffers of the right
//! type and length; `user_context` is a `Host` that outlives every world using it; task
//! contexts are passed back to the engine's task function unchanged.
#![expect(
    unsafe_code,
    reason = "a counting global allocator, and the C task callbacks as a C host writes them"
)]

use boids_ffi::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};

struct Counting;
/// Allocations (and growing reallocations) on every thread.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; the counter only observes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            ALLOCATIONS.fetch_add(1, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const DT: f32 = 1.0 / 60.0;

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// One task the engine handed the host: its function, context and items, how many items
/// workers have claimed and how many calls have returned.
#[derive(Clone, Copy)]
struct Slot {
    call: Option<BoidsTaskFn>,
    context: usize,
    items: u32,
    claimed: u32,
    returned: u32,
}

const SLOTS: usize = 64;

/// A host's job system with everything in fixed arrays: its workers claim one item at a time
/// from the tasks in its slots; `finish_task` waits for a task's calls.
struct Host {
    state: Mutex<([Slot; SLOTS], bool)>,
    work: Condvar,
    returned: Condvar,
}

impl Host {
    fn new() -> Host {
        let free = Slot {
            call: None,
            context: 0,
            items: 0,
            claimed: 0,
            returned: 0,
        };
        Host {
            state: Mutex::new(([free; SLOTS], false)),
            work: Condvar::new(),
            returned: Condvar::new(),
        }
    }

    fn worker(&self) {
        let mut st = self.state.lock().unwrap();
        loop {
            if st.1 {
                return;
            }
            let open =
                st.0.iter()
                    .position(|s| s.call.is_some() && s.claimed < s.items);
            let Some(k) = open else {
                st = self.work.wait(st).unwrap();
                continue;
            };
            let s = &mut st.0[k];
            let (call, context, item) = (s.call.unwrap(), s.context, s.claimed);
            s.claimed += 1;
            drop(st);
            unsafe { call(item, item + 1, context as *mut c_void) };
            st = self.state.lock().unwrap();
            st.0[k].returned += 1;
            self.returned.notify_all();
        }
    }
}

unsafe extern "C" fn enqueue(
    call: BoidsTaskFn,
    items: u32,
    _min_range: u32,
    context: *mut c_void,
    user: *mut c_void,
) -> *mut c_void {
    let host = unsafe { &*user.cast::<Host>() };
    let mut st = host.state.lock().unwrap();
    let k =
        st.0.iter()
            .position(|s| s.call.is_none())
            .expect("a free slot");
    st.0[k] = Slot {
        call: Some(call),
        context: context as usize,
        items,
        claimed: 0,
        returned: 0,
    };
    host.work.notify_all();
    std::ptr::without_provenance_mut(k + 1)
}

unsafe extern "C" fn finish(handle: *mut c_void, user: *mut c_void) {
    let host = unsafe { &*user.cast::<Host>() };
    let k = handle.addr() - 1;
    let mut st = host.state.lock().unwrap();
    while st.0[k].returned < st.0[k].items {
        st = host.returned.wait(st).unwrap();
    }
    st.0[k].call = None;
}

/// A renderer's buffers, allocated once.
struct Reader {
    positions: Vec<BoidsVec3>,
    velocities: Vec<BoidsVec3>,
    ids: Vec<u32>,
    orientations: Vec<BoidsQuat>,
    matrices: Vec<BoidsMat4>,
}

impl Reader {
    fn new(n: usize) -> Reader {
        let zero = BoidsVec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        let identity = BoidsMat4 {
            m: std::array::from_fn(|k| if k % 5 == 0 { 1.0 } else { 0.0 }),
        };
        Reader {
            positions: vec![zero; n],
            velocities: vec![zero; n],
            ids: vec![0; n],
            orientations: vec![
                BoidsQuat {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                    w: 1.0
                };
                n
            ],
            matrices: vec![identity; n],
        }
    }

    /// A step (blocking, or `overlapped`: begun, then ended; `Begun(2)`: two steps in one
    /// begin), then every read; checks each call and that every boid was read.
    fn frame(&mut self, w: BoidsWorldId, f: BoidsFlockId, how: How) {
        let n = self.ids.len();
        let ok = |r: BoidsResult, count: usize, what: &str| {
            assert_eq!(r, BoidsResult::Ok, "{what}: {}", msg());
            assert_eq!(count, n, "{what}");
        };
        match how {
            How::Blocking => assert_eq!(boids_world_step(w, DT), BoidsResult::Ok, "{}", msg()),
            How::Begun(1) => {
                assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok, "{}", msg());
                assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", msg());
            }
            How::Begun(k) => {
                assert_eq!(
                    boids_world_step_begin_n(w, DT, k),
                    BoidsResult::Ok,
                    "{}",
                    msg()
                );
                assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", msg());
            }
        }
        let mut c = 0;
        let r = unsafe { boids_flock_read_positions(f, self.positions.as_mut_ptr(), n, &mut c) };
        ok(r, c, "positions");
        let r = unsafe { boids_flock_read_velocities(f, self.velocities.as_mut_ptr(), n, &mut c) };
        ok(r, c, "velocities");
        let r = unsafe { boids_flock_read_ids(f, self.ids.as_mut_ptr(), n, &mut c) };
        ok(r, c, "ids");
        let r =
            unsafe { boids_flock_read_orientations(f, self.orientations.as_mut_ptr(), n, &mut c) };
        ok(r, c, "orientations");
        let r = unsafe { boids_flock_read_matrices(f, 0.5, self.matrices.as_mut_ptr(), n, &mut c) };
        ok(r, c, "matrices");
        let parent = BoidsMat4 {
            m: std::array::from_fn(|k| match k {
                0 | 5 | 10 | 15 => 2.0,
                12 => 3.0,
                _ => 0.0,
            }),
        };
        let r = unsafe {
            boids_flock_read_matrices_transformed(
                f,
                &parent,
                0.5,
                self.matrices.as_mut_ptr(),
                n,
                &mut c,
            )
        };
        ok(r, c, "transformed matrices");
    }
}

/// How a frame steps.
#[derive(Clone, Copy, Debug, PartialEq)]
enum How {
    Blocking,
    /// Begun, then ended: this many steps in one begin.
    Begun(u32),
}

/// Allocations in each of `rounds` runs of 5 frames, after 3 (the buffers take their sizes in
/// the first).
fn allocations_in_frames(def: &BoidsWorldDef, n: u32, rounds: usize, how: How) -> Vec<usize> {
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_create(def, &mut w) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    let name = c"fish";
    let mut d = boids_default_flock_def();
    d.name = name.as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &d, &mut f) },
        BoidsResult::Ok
    );
    let s = boids_default_spawn_def();
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, n, &s, &mut first) },
        BoidsResult::Ok
    );
    let mut reader = Reader::new(n as usize);
    for _ in 0..3 {
        reader.frame(w, f, how);
    }
    let mut made = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let before = ALLOCATIONS.load(Relaxed);
        for _ in 0..5 {
            reader.frame(w, f, how);
        }
        made.push(ALLOCATIONS.load(Relaxed) - before);
    }
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    made
}

#[test]
fn a_step_and_every_read_allocate_nothing_on_the_engines_workers_and_a_hosts() {
    let host = Host::new();
    /// Stops the host's workers however the test ends (else the scope would wait for them).
    struct Stop<'a>(&'a Host);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
            self.0.work.notify_all();
        }
    }
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| host.worker());
        }
        let _stop = Stop(&host);
        for (n, how) in [10_000, 100_000]
            .into_iter()
            .flat_map(|n| [(n, How::Blocking), (n, How::Begun(1)), (n, How::Begun(2))])
        {
            let overlapped = how != How::Blocking;
            for threads in [1, 2] {
                let mut d = boids_default_world_def();
                d.threads = threads;
                // Work entering a Rayon pool from outside it (a step over `PARALLEL_MIN`
                // boids, a read over `READ_PARALLEL_MIN`, the start of an overlapped step)
                // goes through Rayon's queue for it, a list of 63-slot blocks: one allocation
                // every 63 entries, and nothing else in a frame allocates. Enough frames that
                // every pattern crosses a block.
                let entries = if threads == 1 {
                    usize::from(overlapped)
                } else {
                    usize::from(overlapped || n >= 2_048) + if n >= 65_536 { 6 } else { 0 }
                };
                let rounds = if n >= 65_536 { 2 } else { 13 };
                let made = allocations_in_frames(&d, n, rounds, how);
                let most = (rounds * 5 * entries).div_ceil(63) + 1;
                assert!(
                    made.iter().sum::<usize>() <= most,
                    "{n} boids, {threads} engine threads, steps {how:?}: allocations in {rounds} \
                     rounds of 5 frames: {made:?}, more than {most} ({entries} entries into \
                     Rayon's pool a frame)"
                );
                if entries == 0 {
                    assert!(made.iter().all(|&m| m == 0), "{made:?}");
                }
            }
            let mut d = boids_default_world_def();
            d.enqueue_task = Some(enqueue);
            d.finish_task = Some(finish);
            d.worker_count = 2;
            d.user_context = std::ptr::from_ref(&host).cast_mut().cast();
            // A loop's task is reused once the host's workers have let go of it; a worker
            // descheduled between its last call and letting go (a loaded machine) makes the
            // engine take a new one, which it then keeps for reuse (up to 32). So: once those
            // are there, a round of 5 frames allocates nothing (the code before made 5 and
            // more a frame, every frame).
            let made = allocations_in_frames(&d, n, 5, how);
            assert!(
                made.contains(&0),
                "{n} boids, 2 host workers, steps {how:?}: allocations in five rounds of 5 frames: {made:?}"
            );
        }
    });
}
