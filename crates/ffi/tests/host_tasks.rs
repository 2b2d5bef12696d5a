//! A host's job system through `BoidsWorldDef`'s task interface, as a game engine provides it:
//! a small pool of its own threads that runs the engine's task ranges in a random order.
//! Every preset (and a flock large enough for the parallel path) gives the engine pool's bits
//! with 1, 2 and 7 host workers, stepped whole and by begin/end; every task handle the host
//! gives out is finished exactly once; a world loaded from a save steps on the host too.
//!
//! SAFETY, for every `unsafe` block here: pointers point to live locals of the right type;
//! `user_context` is a `Pool` that outlives every world using it; task contexts are passed back
//! to the engine's task function unchanged.
#![expect(
    unsafe_code,
    reason = "implements the C task callbacks as a C host does"
)]

use boids_ffi::*;
use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

#[path = "host_tasks/pool.rs"]
mod pool;
use pool::{Item, PROGRESS, Pool, Range, enqueue, finish, tick};

const DT: f32 = 1.0 / 60.0;

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn host_def(pool: &Arc<Pool>, workers: u32) -> BoidsWorldDef {
    let mut d = boids_default_world_def();
    d.seed = 5;
    d.enqueue_task = Some(enqueue);
    d.finish_task = Some(finish);
    d.worker_count = workers;
    d.user_context = pool.context();
    d
}

fn engine_world(threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.seed = 5;
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, BoidsResult::Ok);
    w
}

fn hash(w: BoidsWorldId) -> u64 {
    tick();
    let mut h = 0;
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut h) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    h
}

/// Fills a world: a preset by name, or a 6,000-boid school; returns its (first) flock.
fn fill(w: BoidsWorldId, scene: &str) -> BoidsFlockId {
    let name = std::ffi::CString::new(scene).unwrap();
    let mut f = BoidsFlockId::default();
    if scene == "school" {
        let mut d = boids_default_flock_def();
        d.name = name.as_ptr();
        assert_eq!(
            unsafe { boids_flock_create(w, &d, &mut f) },
            BoidsResult::Ok
        );
        let s = boids_default_spawn_def();
        let mut first = 0;
        assert_eq!(
            unsafe { boids_flock_spawn(f, 6000, &s, &mut first) },
            BoidsResult::Ok
        );
    } else {
        assert_eq!(
            unsafe { boids_flock_create_preset(w, name.as_ptr(), name.as_ptr(), &mut f) },
            BoidsResult::Ok,
            "{}",
            msg()
        );
    }
    f
}

fn run(w: BoidsWorldId, steps: usize, overlap: bool) -> u64 {
    for _ in 0..steps {
        tick();
        if overlap {
            assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok, "{}", msg());
            assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", msg());
        } else {
            assert_eq!(boids_world_step(w, DT), BoidsResult::Ok, "{}", msg());
        }
    }
    hash(w)
}

#[test]
fn every_preset_on_the_hosts_pool_gives_the_engines_bits() {
    let mut scenes: Vec<&str> = boids_sim::presets::all().iter().map(|p| p.name).collect();
    scenes.push("school");
    for workers in [1u32, 2, 7] {
        let pool = Pool::new(workers as usize, 77 + u64::from(workers));
        for scene in &scenes {
            let reference = engine_world(2);
            fill(reference, scene);
            let want = run(reference, 40, false);
            boids_world_destroy(reference);
            for overlap in [false, true] {
                let mut w = BoidsWorldId::default();
                let def = host_def(&pool, workers);
                assert_eq!(
                    unsafe { boids_world_create(&def, &mut w) },
                    BoidsResult::Ok,
                    "{}",
                    msg()
                );
                fill(w, scene);
                let ran = pool.ranges_run.load(Ordering::Relaxed);
                assert_eq!(
                    run(w, 40, overlap),
                    want,
                    "{scene}: {workers} host workers, begin/end {overlap}"
                );
                if *scene == "school" {
                    assert!(
                        pool.ranges_run.load(Ordering::Relaxed) > ran + 40,
                        "the host's workers ran the engine's ranges"
                    );
                }
                assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
            }
        }
        assert_eq!(
            pool.enqueued.load(Ordering::Relaxed),
            pool.finished.load(Ordering::Relaxed),
            "every task handle finished exactly once"
        );
        assert!(pool.enqueued.load(Ordering::Relaxed) > 0);
        pool.stop();
    }
}

#[test]
fn a_loaded_world_and_a_destroyed_step_in_flight_on_the_hosts_pool() {
    let pool = Pool::new(3, 9);
    let def = host_def(&pool, 3);
    let reference = engine_world(1);
    fill(reference, "school");
    run(reference, 5, false);
    let mut n = 0;
    let _ = unsafe { boids_world_save(reference, std::ptr::null_mut(), 0, &mut n) };
    let mut bytes = vec![0u8; n];
    assert_eq!(
        unsafe { boids_world_save(reference, bytes.as_mut_ptr(), n, &mut n) },
        BoidsResult::Ok
    );
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_load(&def, bytes.as_ptr(), bytes.len(), &mut w) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    assert_eq!(run(w, 10, true), run(reference, 10, false));
    // A step in flight on the host's pool, then the world destroyed: the destroy waits.
    for _ in 0..5 {
        assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        assert_eq!(boids_world_step_end(w), BoidsResult::Ok);
    }
    assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert_eq!(
        pool.enqueued.load(Ordering::Relaxed),
        pool.finished.load(Ordering::Relaxed)
    );
    boids_world_destroy(reference);
    pool.stop();
}

/// A host whose workers are busy with the game's own work for the whole frame and come after
/// it (played here: the test runs the queued ranges between frames). Every step ends without
/// them, with the engine's bits; no task is finished before its calls have come (the host's
/// `finish_task` never waits); the ones whose calls came are finished by the next call that
/// steps the world; after the world is destroyed every handle has been finished once.
#[test]
fn a_host_whose_workers_come_after_the_frame_still_steps() {
    within("workers after the frame", || {
        workers_after_the_frame(Pool::new(0, 1))
    });
}

fn workers_after_the_frame(pool: Arc<Pool>) {
    let def = host_def(&pool, 4);
    let reference = engine_world(1);
    fill(reference, "school");
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
    fill(w, "school");
    let late_workers = |pool: &Pool| {
        for item in pool.take_all() {
            if let Item::Range(r) = item {
                r.run(pool);
            }
        }
    };
    for overlap in [true, false] {
        for _ in 0..6 {
            assert_eq!(run(w, 1, overlap), run(reference, 1, false));
            let (enqueued, finished) = (
                pool.enqueued.load(Ordering::Relaxed),
                pool.finished.load(Ordering::Relaxed),
            );
            assert!(pool.queued() > 0, "the step handed the host its tasks");
            assert!(
                finished < enqueued,
                "no task is finished before its calls come"
            );
            late_workers(&pool);
        }
    }
    // The next call that steps the world finishes what came.
    let before = pool.finished.load(Ordering::Relaxed);
    assert_eq!(run(w, 1, false), run(reference, 1, false));
    assert!(pool.finished.load(Ordering::Relaxed) > before);
    late_workers(&pool);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert_eq!(
        pool.enqueued.load(Ordering::Relaxed),
        pool.finished.load(Ordering::Relaxed),
        "every handle finished exactly once"
    );
    boids_world_destroy(reference);
}

/// What a re-entrant host's callbacks did: each call they made, its result and message.
struct Reentrant {
    pool: Arc<Pool>,
    /// The world these callbacks serve, and another one (both as `index << 32 | generation`).
    world: AtomicU64,
    other: AtomicU64,
    calls: Mutex<Vec<(&'static str, BoidsResult, String)>>,
}

fn unpack(x: u64) -> BoidsWorldId {
    BoidsWorldId {
        index: (x >> 32) as u32,
        generation: x as u32,
    }
}

fn pack(w: BoidsWorldId) -> u64 {
    (u64::from(w.index) << 32) | u64::from(w.generation)
}

impl Reentrant {
    fn record(&self, what: &'static str, r: BoidsResult) {
        self.calls.lock().unwrap().push((what, r, msg()));
    }
}

/// `enqueue_task` that first calls the library back: every call a confused host could make on
/// the world it serves, and a read of another world; then queues the task on the pool.
unsafe extern "C" fn enqueue_reentrant(
    call: BoidsTaskFn,
    items: u32,
    min_range: u32,
    context: *mut c_void,
    user: *mut c_void,
) -> *mut c_void {
    let r = unsafe { &*user.cast::<Reentrant>() };
    let (w, other) = (
        unpack(r.world.load(Ordering::SeqCst)),
        unpack(r.other.load(Ordering::SeqCst)),
    );
    r.record("step_end", boids_world_step_end(w));
    r.record("step_begin", boids_world_step_begin(w, DT));
    r.record("step", boids_world_step(w, DT));
    r.record("destroy", boids_world_destroy(w));
    let mut h = 0;
    r.record("state_hash", unsafe { boids_world_state_hash(w, &mut h) });
    let mut n = 0;
    r.record("list_flocks", unsafe {
        boids_world_list_flocks(w, std::ptr::null_mut(), 0, &mut n)
    });
    r.record("other world", unsafe {
        boids_world_state_hash(other, &mut h)
    });
    unsafe {
        enqueue(
            call,
            items,
            min_range,
            context,
            Arc::as_ptr(&r.pool).cast_mut().cast(),
        )
    }
}

/// `finish_task` that tries to destroy the world it serves before it waits.
unsafe extern "C" fn finish_reentrant(handle: *mut c_void, user: *mut c_void) {
    let r = unsafe { &*user.cast::<Reentrant>() };
    let w = unpack(r.world.load(Ordering::SeqCst));
    r.record("destroy from finish", boids_world_destroy(w));
    r.record("step_end from finish", boids_world_step_end(w));
    unsafe { finish(handle, Arc::as_ptr(&r.pool).cast_mut().cast()) }
}

/// A host whose task callbacks call back into the library, for the world whose step they serve,
/// from the stepping thread and from the host's worker running a begun step: every such call
/// returns BUSY ("inside this world's own step") instead of deadlocking, a call on another
/// world succeeds, and the steps give the engine's bits.
#[test]
fn calls_from_inside_the_worlds_own_step_are_busy_not_a_deadlock() {
    let r = Arc::new(Reentrant {
        pool: Pool::new(2, 3),
        world: AtomicU64::new(0),
        other: AtomicU64::new(0),
        calls: Mutex::new(Vec::new()),
    });
    let mut def = boids_default_world_def();
    def.seed = 5;
    def.enqueue_task = Some(enqueue_reentrant);
    def.finish_task = Some(finish_reentrant);
    def.worker_count = 2;
    def.user_context = Arc::as_ptr(&r).cast_mut().cast();
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
    fill(w, "school");
    let other = engine_world(1);
    fill(other, "fish-tank");
    r.world.store(pack(w), Ordering::SeqCst);
    r.other.store(pack(other), Ordering::SeqCst);
    let reference = engine_world(2);
    fill(reference, "school");
    for overlap in [false, true] {
        r.calls.lock().unwrap().clear();
        assert_eq!(
            run(w, 3, overlap),
            run(reference, 3, false),
            "begin/end {overlap}"
        );
        // The engine calls `finish_task` only for a task whose calls the host's workers have
        // made; on a loaded machine they may not have made any by the third step. Once the
        // host's queue is drained every task's calls have returned, so the next step's first
        // loop finishes them (a counted handshake: no time in it).
        r.pool.wait_until_drained(0);
        assert_eq!(
            run(w, 1, overlap),
            run(reference, 1, false),
            "begin/end {overlap}, stepped on"
        );
        let finished = r
            .calls
            .lock()
            .unwrap()
            .iter()
            .any(|c| c.0 == "destroy from finish");
        assert!(finished, "a task was finished (begin/end {overlap})");
        let calls = r.calls.lock().unwrap();
        assert!(calls.len() > 10, "the callbacks ran: {}", calls.len());
        for (what, code, m) in calls.iter() {
            if *what == "other world" {
                assert_eq!(*code, BoidsResult::Ok, "{what}: {m}");
            } else {
                assert_eq!(
                    *code,
                    BoidsResult::Busy,
                    "{what} (begin/end {overlap}): {m}"
                );
                assert!(m.contains("inside this world's own step"), "{what}: {m}");
            }
        }
    }
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    boids_world_destroy(other);
    boids_world_destroy(reference);
    r.pool.stop();
}

/// Hosts that break the contract, as the header says they must not: one whose `enqueue_task`
/// returns NULL ("every call made") and makes the calls later from its own thread, and one
/// whose `finish_task` returns at once while its workers make the calls late. The engine never
/// reads freed memory (the task context is a token; a late call finds nothing): each step
/// either gives the engine's bits, or fails with PANIC naming the broken contract and keeps
/// the state before it.
#[test]
fn a_host_that_breaks_its_contract_gets_an_error_not_a_crash() {
    struct Late {
        calls: Mutex<Vec<(BoidsTaskFn, u32, usize)>>,
        late_calls: AtomicUsize,
    }
    unsafe extern "C" fn enqueue_null(
        call: BoidsTaskFn,
        items: u32,
        _min: u32,
        context: *mut c_void,
        user: *mut c_void,
    ) -> *mut c_void {
        let l = unsafe { &*user.cast::<Late>() };
        l.calls
            .lock()
            .unwrap()
            .push((call, items, context as usize));
        std::ptr::null_mut()
    }
    unsafe extern "C" fn enqueue_handle(
        call: BoidsTaskFn,
        items: u32,
        _min: u32,
        context: *mut c_void,
        user: *mut c_void,
    ) -> *mut c_void {
        let l = unsafe { &*user.cast::<Late>() };
        l.calls
            .lock()
            .unwrap()
            .push((call, items, context as usize));
        std::ptr::dangling_mut::<u8>().cast()
    }
    unsafe extern "C" fn finish_at_once(_handle: *mut c_void, _user: *mut c_void) {}
    for null in [true, false] {
        let late = Arc::new(Late {
            calls: Mutex::new(Vec::new()),
            late_calls: AtomicUsize::new(0),
        });
        let mut def = boids_default_world_def();
        def.seed = 5;
        def.enqueue_task = Some(if null { enqueue_null } else { enqueue_handle });
        def.finish_task = Some(finish_at_once);
        def.worker_count = 4;
        def.user_context = Arc::as_ptr(&late).cast_mut().cast();
        let mut w = BoidsWorldId::default();
        assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
        fill(w, "school");
        let reference = engine_world(1);
        fill(reference, "school");
        let mut failed = 0;
        for overlap in [false, true] {
            for _ in 0..4 {
                let before = hash(w);
                let r = if overlap {
                    assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
                    boids_world_step_end(w)
                } else {
                    boids_world_step(w, DT)
                };
                // The host makes its calls late: after the loop, the step or its end.
                for (call, items, context) in late.calls.lock().unwrap().drain(..) {
                    unsafe { call(0, items, context as *mut c_void) };
                    late.late_calls.fetch_add(1, Ordering::Relaxed);
                }
                if r == BoidsResult::Ok {
                    assert_eq!(boids_world_step(reference, DT), BoidsResult::Ok);
                    assert_eq!(hash(w), hash(reference), "NULL {null}");
                } else {
                    assert_eq!(r, BoidsResult::Panic, "{}", msg());
                    assert!(msg().contains("broke its contract"), "{}", msg());
                    assert_eq!(hash(w), before, "a failed step changes nothing");
                    failed += 1;
                }
            }
        }
        assert!(late.late_calls.load(Ordering::Relaxed) > 0);
        if null {
            assert!(failed > 0, "a NULL handle with calls left is reported");
        }
        assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
        boids_world_destroy(reference);
    }
}

// ---------------------------------------------------------------------------------------------
// Call patterns that once hung for ever: a library call that waited for another call while
// that one waited for the host, closing a cycle through a busy host worker. Each runs under a
// hang detector, so a hang fails the test instead of never ending.

/// Runs `f` on a thread of its own and fails when nothing has made progress for a minute: no
/// call through a host's pool and no library call of the tests' helpers (`pool::PROGRESS`). A
/// loaded machine makes the calls slowly, but makes them; a hang makes none. (Another test of
/// this binary making progress meanwhile only delays the verdict until it ends.)
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let quiet = Duration::from_secs(60);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    let mut seen = (PROGRESS.load(Ordering::Relaxed), Instant::now());
    loop {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(v) => return v,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = PROGRESS.load(Ordering::Relaxed);
                if now != seen.0 {
                    seen = (now, Instant::now());
                } else if seen.1.elapsed() >= quiet {
                    panic!("{what}: hung (no progress in {quiet:?}, at {now} calls)");
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
        }
    }
}

/// A world on the pool with a 6,000-boid school (reads of it are large enough for the
/// parallel path); its flock.
fn host_world(pool: &Arc<Pool>, workers: u32) -> (BoidsWorldId, BoidsFlockId) {
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_create(&host_def(pool, workers), &mut w) },
        BoidsResult::Ok
    );
    let f = fill(w, "school");
    (w, f)
}

/// Reads the flock's positions; the result.
fn read(f: BoidsFlockId, buf: &mut Vec<BoidsVec3>) -> BoidsResult {
    tick();
    buf.resize(6000, BoidsVec3::default());
    let mut n = 0;
    unsafe { boids_flock_read_positions(f, buf.as_mut_ptr(), buf.len(), &mut n) }
}

fn observer(w: BoidsWorldId, x: f32) -> BoidsResult {
    tick();
    let p = BoidsVec3 { x, y: 0.0, z: 0.0 };
    unsafe { boids_world_set_observer(w, &p) }
}

/// Every bulk read (and the count) runs on the calling thread: a read never hands the host a
/// task, so it never waits for a host worker.
#[test]
fn reads_never_go_through_the_hosts_job_system() {
    // No worker: a begun step's job waits in the queue while the reads run (and then runs in
    // step_end), so nothing else enqueues meanwhile.
    let pool = Pool::new(0, 4);
    within("reads", move || reads_enqueue_nothing(&pool));
}

fn reads_enqueue_nothing(pool: &Arc<Pool>) {
    let (w, f) = host_world(pool, 2);
    assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
    let before = pool.enqueued.load(Ordering::Relaxed);
    let n = 6000;
    let mut v = vec![BoidsVec3::default(); n];
    let mut q = vec![BoidsQuat::default(); n];
    let mut m = vec![BoidsMat4::default(); n];
    let mut ids = vec![0u32; n];
    let mut c = 0;
    let t = BoidsMat4 {
        m: std::array::from_fn(|i| if i % 5 == 0 { 1.0 } else { 0.0 }),
    };
    for in_flight in [false, true] {
        if in_flight {
            assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        }
        let before = pool.enqueued.load(Ordering::Relaxed);
        unsafe {
            assert_eq!(boids_flock_count(f, &mut c), BoidsResult::Ok);
            assert_eq!(
                boids_flock_read_positions(f, v.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_velocities(f, v.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_ids(f, ids.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_orientations(f, q.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_matrices(f, 1.0, m.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_matrices_transformed(f, &t, 1.0, m.as_mut_ptr(), n, &mut c),
                BoidsResult::Ok
            );
        }
        assert_eq!(
            pool.enqueued.load(Ordering::Relaxed),
            before,
            "a read enqueued a task (step in flight: {in_flight})"
        );
        if in_flight {
            assert_eq!(boids_world_step_end(w), BoidsResult::Ok);
        }
    }
    assert!(pool.enqueued.load(Ordering::Relaxed) > before);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Case a: a host worker that has taken a range first makes a changing call on the world the
/// main thread is reading, from its job wrapper (`boids_world_step`, `boids_world_step_begin`
/// then `_end`, `boids_world_set_observer`). Another world on the same host, stepped on a
/// thread of its own, keeps the workers taking ranges all along. Once, the read handed its
/// copy to the host and waited for the range the worker held, while the worker's change waited
/// for the read. Now every read and every change returns (OK, or BUSY for one that met another
/// change), and the changes happen.
#[test]
fn a_change_from_a_workers_wrapper_while_the_main_thread_reads() {
    for change in ["step", "step_begin", "set_observer"] {
        let pool = Pool::new(2, 21);
        let (w, f) = host_world(&pool, 2);
        let (other, _) = host_world(&pool, 2);
        let results = Arc::new(Mutex::new(Vec::new()));
        let active = Arc::new(AtomicUsize::new(0));
        let (r2, p2, a2) = (
            Arc::clone(&results),
            Arc::downgrade(&pool),
            Arc::clone(&active),
        );
        pool.set_wrapper(Some(Box::new(move |range: Range| {
            a2.fetch_add(1, Ordering::SeqCst);
            let r = match change {
                "step" => boids_world_step(w, DT),
                "step_begin" => match boids_world_step_begin(w, DT) {
                    BoidsResult::Ok => boids_world_step_end(w),
                    r => r,
                },
                _ => observer(w, 1.0),
            };
            r2.lock().unwrap().push(r);
            a2.fetch_sub(1, Ordering::SeqCst);
            if let Some(p) = p2.upgrade() {
                range.run(&p);
            }
        })));
        let reads = within(change, move || {
            let stepper = std::thread::spawn(move || {
                for _ in 0..60 {
                    assert_eq!(boids_world_step(other, DT), BoidsResult::Ok);
                }
            });
            let mut buf = Vec::new();
            let mut ok = 0;
            while !stepper.is_finished() {
                match read(f, &mut buf) {
                    BoidsResult::Ok => ok += 1,
                    // A change holds the world at this instant.
                    BoidsResult::Busy => {}
                    r => panic!("read: {r:?} {}", msg()),
                }
            }
            stepper.join().unwrap();
            ok
        });
        assert!(reads > 0, "{change}: the main thread read");
        // No worker makes a change from now on.
        pool.set_wrapper(None);
        while active.load(Ordering::SeqCst) > 0 {
            std::thread::yield_now();
        }
        let results = results.lock().unwrap().clone();
        assert!(
            results.contains(&BoidsResult::Ok),
            "{change}: a change was made"
        );
        assert!(
            results
                .iter()
                .all(|r| matches!(r, BoidsResult::Ok | BoidsResult::Busy)),
            "{change}: {results:?}"
        );
        assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
        assert_eq!(boids_world_destroy(other), BoidsResult::Ok);
        pool.stop();
    }
}

/// Case b, a game's ordinary day: the host has one worker, busy with a gameplay job of its own
/// that sets the observer again and again, while the main thread reads; `finish_task` waits
/// without helping. Once, the read's ranges sat in the queue behind the gameplay job, whose
/// change waited for the read: a hang. Now both go on.
#[test]
fn a_gameplay_job_that_changes_the_world_while_it_is_read_on_a_one_worker_host() {
    let pool = Pool::fifo(1);
    let (w, f) = host_world(&pool, 1);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let changes = Arc::new(AtomicUsize::new(0));
    let (ended_tx, ended) = mpsc::channel();
    let (s2, c2) = (Arc::clone(&stop), Arc::clone(&changes));
    pool.push_game(move || {
        let mut x = 0.0;
        while !s2.load(Ordering::SeqCst) {
            x += 1.0;
            match observer(w, x) {
                BoidsResult::Ok => {
                    c2.fetch_add(1, Ordering::Relaxed);
                }
                BoidsResult::Busy => {}
                r => panic!("set_observer: {r:?}"),
            }
        }
        ended_tx.send(()).unwrap();
    });
    let reads = within("reads beside a gameplay job", move || {
        let mut buf = Vec::new();
        let mut ok = 0;
        let start = Instant::now();
        while ok < 300 || start.elapsed() < Duration::from_millis(200) {
            match read(f, &mut buf) {
                BoidsResult::Ok => ok += 1,
                BoidsResult::Busy => {}
                r => panic!("read: {r:?} {}", msg()),
            }
        }
        stop.store(true, Ordering::SeqCst);
        ok
    });
    assert!(reads >= 300);
    // The gameplay job ends, and the world steps on the host's one worker as before.
    within("the gameplay job's end", move || ended.recv().unwrap());
    assert!(
        changes.load(Ordering::Relaxed) > 0,
        "the gameplay job changed the world"
    );
    within("a step after", move || {
        assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
        assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    });
    pool.stop();
}

/// `end_in_job`: the worker that takes the task `boids_world_step_begin` handed the host calls
/// `boids_world_step_end` from its job wrapper before running it. Once, the end waited in
/// `finish_task` for the task that very worker held. Now the end runs the step there (no
/// worker had started it) and leaves the task's handle for later; the worker then runs the task
/// and finds nothing left. One worker (every range of the step's loops waits for the worker
/// that is ending the step) and two.
#[test]
fn a_worker_that_ends_the_step_whose_task_it_holds() {
    for workers in [1u32, 2] {
        let pool = Pool::new(workers as usize, 31);
        let (w, _) = host_world(&pool, workers);
        let reference = engine_world(1);
        fill(reference, "school");
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let p2 = Arc::downgrade(&pool);
        pool.set_wrapper(Some(Box::new(move |range: Range| {
            if range.marked {
                let r = boids_world_step_end(w);
                tx.lock().unwrap().send((r, msg())).unwrap();
            }
            if let Some(p) = p2.upgrade() {
                range.run(&p);
            }
        })));
        let p3 = Arc::clone(&pool);
        within("end_in_job", move || {
            for _ in 0..5 {
                p3.arm();
                assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
                let (r, m) = rx.recv().unwrap();
                assert_eq!(r, BoidsResult::Ok, "step_end in the job wrapper: {m}");
                assert_eq!(boids_world_step(reference, DT), BoidsResult::Ok);
                assert_eq!(hash(w), hash(reference), "the step the worker ended");
                assert_eq!(
                    boids_world_step_end(w),
                    BoidsResult::InvalidArgument,
                    "no step in flight"
                );
            }
            // Whole steps and begun steps go on as ever.
            assert_eq!(run(w, 3, false), run(reference, 3, false));
            assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
        });
        assert_eq!(
            pool.enqueued.load(Ordering::Relaxed),
            pool.finished.load(Ordering::Relaxed),
            "{workers} workers: every handle finished once its calls came"
        );
        pool.stop();
        boids_world_destroy(reference);
    }
}

/// `destroy_in_job`: the same, with `boids_world_destroy` from the job wrapper. The destroy
/// cancels the step no worker had started (it never runs: the host is handed none of its
/// loops) and returns; the task the worker holds can only be called after that, so its handle
/// is never finished (the header says so), and its call finds nothing. Every other task is
/// finished.
///
/// Deterministic: before it destroys, the worker waits until the host has run every other
/// range it was given (a counted handshake), so the destroy finds every other task's calls
/// returned, whatever the machine's speed; the test learns that the held range ran from the
/// worker itself.
#[test]
fn a_worker_that_destroys_the_world_whose_step_task_it_holds() {
    let pool = Pool::new(2, 41);
    let (w, _) = host_world(&pool, 2);
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let (begun_tx, begun) = mpsc::channel::<()>();
    let begun = Mutex::new(begun);
    let p2 = Arc::downgrade(&pool);
    pool.set_wrapper(Some(Box::new(move |range: Range| {
        let Some(p) = p2.upgrade() else { return };
        if range.marked {
            // After step_begin has returned (during it, a destroy is BUSY: another thread is
            // inside a call on the world).
            begun.lock().unwrap().recv().unwrap();
            // Every other range has run: only this worker's own item is in flight.
            p.wait_until_drained(1);
            let r = boids_world_destroy(w);
            let m = msg();
            range.run(&p);
            tx.lock().unwrap().send((r, m)).unwrap();
        } else {
            range.run(&p);
        }
    })));
    let p3 = Arc::clone(&pool);
    let (r, m) = within("destroy_in_job", move || {
        run(w, 2, true);
        p3.arm();
        assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        begun_tx.send(()).unwrap();
        rx.recv().unwrap()
    });
    assert_eq!(r, BoidsResult::Ok, "destroy in the job wrapper: {m}");
    assert_eq!(boids_world_is_valid(w), 0);
    assert_eq!(boids_world_step_end(w), BoidsResult::InvalidId);
    // The held range has run (and found nothing); nothing is left in the queue.
    assert_eq!(pool.queued(), 0);
    assert_eq!(
        pool.enqueued.load(Ordering::Relaxed) - pool.finished.load(Ordering::Relaxed),
        1,
        "only the task the destroying worker held is left unfinished"
    );
    pool.stop();
}

/// A world destroyed with a begun step that no worker has started: the step never runs (its
/// result would be dropped), so the destroy hands the host none of its loops. Once, the destroy
/// ran the whole step on its own thread first, enqueueing every loop of it.
#[test]
fn destroying_a_world_cancels_a_begun_step_no_worker_has_started() {
    let pool = Pool::new(0, 7);
    let (w, _) = host_world(&pool, 4);
    let counts = within("a destroy with a step waiting", move || {
        let count = || pool.enqueued.load(Ordering::Relaxed);
        let start = count();
        assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        let begun = count();
        assert_eq!(boids_world_destroy(w), BoidsResult::Ok, "{}", msg());
        let destroyed = count();
        // The host never ran the step's task: its one call comes now, and finds nothing.
        for item in pool.take_all() {
            if let Item::Range(r) = item {
                r.run(&pool);
            }
        }
        (start, begun, destroyed)
    });
    assert_eq!(
        counts.1,
        counts.0 + 1,
        "step_begin handed the host the step's task"
    );
    assert_eq!(
        counts.2, counts.1,
        "the destroy handed the host no task: the cancelled step did not run"
    );
}

/// A host whose queue is never drained (no worker ever comes) and whose `finish_task` waits
/// without helping: a read, a begun step (ended, and read while in flight) and whole steps all
/// return with the engine's bits. Once, the read and the step's end waited in `finish_task` for
/// ever. `finish_task` is never called for a task whose calls have not come, and once
/// `MAX_OUTSTANDING` (256) of the world's tasks wait for theirs the engine hands the host no more.
#[test]
fn a_host_whose_queue_is_never_drained() {
    let pool = Pool::new(0, 5);
    let (w, f) = host_world(&pool, 4);
    let reference = engine_world(1);
    fill(reference, "school");
    within("a queue never drained", move || {
        let mut buf = Vec::new();
        assert_eq!(read(f, &mut buf), BoidsResult::Ok, "a read");
        for _ in 0..3 {
            assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
            assert_eq!(read(f, &mut buf), BoidsResult::Ok, "a read during the step");
            assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", msg());
        }
        assert_eq!(hash(w), run(reference, 3, false));
        assert_eq!(run(w, 120, false), run(reference, 120, false));
        assert_eq!(read(f, &mut buf), BoidsResult::Ok);
    });
    let enqueued = pool.enqueued.load(Ordering::Relaxed);
    assert!(
        (64..=256).contains(&enqueued),
        "the host was handed tasks until 256 waited: {enqueued}"
    );
    assert_eq!(pool.finished.load(Ordering::Relaxed), 0);
    within("destroy", move || {
        assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    });
    assert_eq!(pool.finished.load(Ordering::Relaxed), 0);
    boids_world_destroy(reference);
}

/// `boids_world_destroy` is the last time the host hears of a world: when it returns, every
/// task handle the world was given has been finished, and no callback comes later (the host may
/// free its job system right after). Destroyed with a step in flight that a worker is running,
/// again and again.
#[test]
fn no_host_callback_after_the_destroy_returns() {
    let pool = Pool::new(3, 61);
    let p2 = Arc::clone(&pool);
    within("destroys", move || {
        for round in 0..40 {
            let (w, _) = host_world(&p2, 3);
            assert_eq!(boids_world_step(w, DT), BoidsResult::Ok);
            assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
            if round % 2 == 1 {
                // Let a worker take the step first.
                std::thread::sleep(Duration::from_millis(1));
            }
            assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
            let at_return = (
                p2.enqueued.load(Ordering::SeqCst),
                p2.finished.load(Ordering::SeqCst),
            );
            assert_eq!(
                at_return.0, at_return.1,
                "round {round}: every handle finished by the destroy"
            );
            std::thread::sleep(Duration::from_millis(5));
            assert_eq!(
                p2.finished.load(Ordering::SeqCst),
                at_return.1,
                "round {round}: finish_task called after the destroy returned"
            );
        }
    });
    pool.stop();
}
