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

mod hangs;
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
