//! Call patterns that once hung for ever (a library call waiting for another while that one
//! waited for the host: a cycle through a busy host worker), each under the hang detector
//! (`within`), and reads that never enter the host's job system.

use super::*;

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
