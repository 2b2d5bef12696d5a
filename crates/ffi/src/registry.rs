//! Worlds by generational id. The registry lock is held only to look a world up. Each world
//! sits behind a reader-writer lock: a call that changes the world takes it for writing with
//! `try_write`, so a second thread gets `BUSY` instead of racing or waiting; the reads allowed
//! during a step (`boids_world_step_begin`) share it for reading, so any number of them run at
//! once, and `boids_world_step_end` waits for them instead of failing.

use crate::boundary::Fail;
use crate::types::{BoidsFlockParams, BoidsResult, BoidsWorldId};
use boids_sim::FlockId;
use boids_sim::World;
use boids_sim::slotmap::{SlotKey, SlotMap};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

/// The world ids of the C ABI are keys of one [`SlotMap`]; their index is 1-based so that the
/// all-zero id is null.
impl SlotKey for BoidsWorldId {
    fn from_parts(index: u32, generation: u32) -> Self {
        BoidsWorldId {
            index: index + 1,
            generation,
        }
    }
    fn index(self) -> u32 {
        self.index.wrapping_sub(1)
    }
    fn generation(self) -> u32 {
        self.generation
    }
}

/// A world and what the C ABI remembers beside it: each flock's parameters as the caller last
/// set them, so that fields the engine does not use (a bounds field its kind ignores, the
/// target point of a flock without a target) read back as they were written.
pub(crate) struct Entry {
    pub world: World,
    pub raw: HashMap<FlockId, BoidsFlockParams>,
}

/// One world in the registry: its lock, and what calls need to know without taking it.
pub(crate) struct Cell {
    lock: RwLock<Entry>,
    /// Mirrors `World::is_stepping` (written under the write lock), so `is_stepping` answers
    /// whatever other threads hold.
    stepping: AtomicBool,
    /// How many `step_begin` / `step_end` calls want or hold the write lock (to start a step,
    /// or install one that is done): a read that finds the lock taken by one of them waits
    /// instead of returning `BUSY`, since either is short.
    brief: AtomicUsize,
    /// Counts the times such a call let the lock go (before it leaves `brief`): a read that
    /// finds the lock taken and `brief` at zero tells by it whether the holder it met was one
    /// of them that has just gone (then it tries again) or another thread's change (`BUSY`).
    brief_done: AtomicU64,
    /// One `step_end` at a time: a second waits for the first, then finds no step in flight.
    ending: Mutex<()>,
    /// Set (under the write lock) when the world is destroyed: a call that looked the cell up
    /// before and gets the lock after finds the world gone.
    dead: AtomicBool,
    /// The world's host job system (its address; 0 for none): the key of the thread-local
    /// marker that refuses calls made from inside the world's own step.
    host_key: usize,
}

type Worlds = SlotMap<BoidsWorldId, Arc<Cell>>;

static WORLDS: Mutex<Option<Worlds>> = Mutex::new(None);

/// Runs `f` on the registry. The lock is held only for a lookup or an insertion.
fn worlds<T>(f: impl FnOnce(&mut Worlds) -> T) -> T {
    // The registry holds plain data; a panic elsewhere cannot leave it half-written.
    let mut g = WORLDS.lock().unwrap_or_else(|p| p.into_inner());
    f(g.get_or_insert_with(Worlds::default))
}

/// Most worlds alive at once.
const MAX_WORLDS: usize = 1 << 16;

/// Adds a world; `host_key` is its host job system's address (`HostExec::key`), or 0.
pub(crate) fn insert(world: World, host_key: usize) -> Result<BoidsWorldId, Fail> {
    worlds(|w| {
        if w.len() >= MAX_WORLDS {
            return Err(Fail::new(
                BoidsResult::InvalidArgument,
                format!("too many worlds alive (at most {MAX_WORLDS})"),
            ));
        }
        w.insert(Arc::new(Cell {
            lock: RwLock::new(Entry {
                world,
                raw: HashMap::new(),
            }),
            stepping: AtomicBool::new(false),
            brief: AtomicUsize::new(0),
            brief_done: AtomicU64::new(0),
            ending: Mutex::new(()),
            dead: AtomicBool::new(false),
            host_key,
        }))
        .ok_or_else(|| Fail::new(BoidsResult::InvalidArgument, "too many worlds"))
    })
}

fn invalid(id: BoidsWorldId) -> Fail {
    Fail::new(
        BoidsResult::InvalidId,
        format!(
            "invalid world id (index {}, generation {}): null, destroyed or never issued",
            id.index, id.generation
        ),
    )
}

// The initializer is const; clippy's lint misfires on targets whose thread locals are emulated
// (armv7 Android), where the macro expands differently.
#[allow(clippy::missing_const_for_thread_local)]
mod in_step {
    use std::cell::RefCell;
    thread_local! {
        /// The host job systems (`Cell::host_key`) whose world's step this thread is inside:
        /// set while the engine runs a step's job here or calls the host's `enqueue_task` /
        /// `finish_task` from it. A call on such a world from here could only wait for itself.
        pub(super) static IN_STEP: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }
}
use in_step::IN_STEP;

/// Marks this thread as inside the step of the world whose host job system is `key` while
/// `f` runs (nested marks stack).
pub(crate) fn inside_step<T>(key: usize, f: impl FnOnce() -> T) -> T {
    struct Unmark;
    impl Drop for Unmark {
        fn drop(&mut self) {
            IN_STEP.with(|m| m.borrow_mut().pop());
        }
    }
    IN_STEP.with(|m| m.borrow_mut().push(key));
    let _unmark = Unmark;
    f()
}

/// `BUSY` for a call made from inside the world's own step (a host callback).
fn not_from_own_step(cell: &Cell) -> Result<(), Fail> {
    if cell.host_key != 0 && IN_STEP.with(|m| m.borrow().contains(&cell.host_key)) {
        return Err(Fail::new(
            BoidsResult::Busy,
            "called from inside this world's own step (from the host's enqueue_task or \
             finish_task, or a task the engine is running): a task callback may call other \
             worlds, never the world whose step it serves",
        ));
    }
    Ok(())
}

/// The world behind `id` (index is 1-based so that the all-zero id is null).
fn get(id: BoidsWorldId) -> Result<Arc<Cell>, Fail> {
    worlds(|w| w.get(id).cloned()).ok_or_else(|| invalid(id))
}

pub(crate) fn is_valid(id: BoidsWorldId) -> bool {
    get(id).is_ok()
}

fn poisoned() -> Fail {
    Fail::new(
        BoidsResult::Panic,
        "world was left inconsistent by an earlier internal panic; destroy it",
    )
}

fn busy(cell: &Cell) -> Fail {
    if cell.stepping.load(Ordering::Acquire) {
        step_in_flight()
    } else {
        Fail::new(
            BoidsResult::Busy,
            "world is in use by another thread (calls that change one world must not overlap)",
        )
    }
}

fn step_in_flight() -> Fail {
    Fail::new(
        BoidsResult::Busy,
        "a step is in flight on this world (boids_world_step_begin): until \
         boids_world_step_end, only its boid reads are allowed",
    )
}

/// `g`, unless the world was destroyed while this call waited for it.
fn alive<G>(cell: &Cell, id: BoidsWorldId, g: G) -> Result<G, Fail> {
    if cell.dead.load(Ordering::Acquire) {
        return Err(invalid(id));
    }
    Ok(g)
}

/// The world for a change: `BUSY` while a step is in flight or another thread changes it;
/// reads on other threads are waited for (they never wait on anything: a read copies on the
/// calling thread, never through a host's job system).
fn write(cell: &Cell, id: BoidsWorldId) -> Result<RwLockWriteGuard<'_, Entry>, Fail> {
    if cell.stepping.load(Ordering::Acquire) {
        return Err(step_in_flight());
    }
    let g = match cell.lock.try_write() {
        Ok(g) => g,
        Err(TryLockError::WouldBlock) => match cell.lock.try_read() {
            // Only readers hold it: wait for them (new readers wait behind this writer).
            Ok(r) => {
                drop(r);
                cell.lock.write().map_err(|_| poisoned())?
            }
            Err(TryLockError::WouldBlock) => return Err(busy(cell)),
            Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
        },
        Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
    };
    alive(cell, id, g)
}

/// The world for a read: shared with other readers; waits for a step's start or install;
/// `BUSY` while another thread changes it.
fn read(cell: &Cell, id: BoidsWorldId) -> Result<RwLockReadGuard<'_, Entry>, Fail> {
    // A brief writer counts itself in `brief` before it takes the lock, and after it lets go
    // adds to `brief_done` and only then counts itself out. So when a try fails and `brief` is
    // zero, the holder met was either another thread's change (`brief_done` as before the try:
    // BUSY) or a brief writer that has let go since (`brief_done` moved: try again).
    let g = loop {
        let done = cell.brief_done.load(Ordering::Acquire);
        match cell.lock.try_read() {
            Ok(g) => break g,
            Err(TryLockError::WouldBlock) => {
                if cell.brief.load(Ordering::Acquire) > 0 {
                    break cell.lock.read().map_err(|_| poisoned())?;
                }
                if cell.brief_done.load(Ordering::Acquire) == done {
                    return Err(busy(cell));
                }
            }
            Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
        }
    };
    alive(cell, id, g)
}

/// Runs `f` on the locked world (refused with `BUSY` while a step begun by
/// `boids_world_step_begin` is in flight).
pub(crate) fn with_world<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&mut World) -> Result<T, Fail>,
) -> Result<T, Fail> {
    with_entry(id, |e| f(&mut e.world))
}

/// Runs `f` on the locked world and what the C ABI keeps beside it (refused with `BUSY` while
/// a step is in flight).
pub(crate) fn with_entry<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&mut Entry) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    let mut g = write(&cell, id)?;
    if g.world.is_stepping() {
        return Err(step_in_flight());
    }
    f(&mut g)
}

/// Counts a `step_begin` / `step_end` in its cell's `brief` for as long as it lives; declared
/// before the write guard, so it ends after the lock is let go.
struct Brief<'a>(&'a Cell);

impl<'a> Brief<'a> {
    fn set(cell: &'a Cell) -> Self {
        cell.brief.fetch_add(1, Ordering::AcqRel);
        Brief(cell)
    }
}

impl Drop for Brief<'_> {
    fn drop(&mut self) {
        self.0.brief_done.fetch_add(1, Ordering::AcqRel);
        self.0.brief.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Runs `f` on the world for a call that only reads it (parameters, the state hash, a save,
/// a flock by name): refused with `BUSY` while a step is in flight, like every call but the boid
/// reads, and shared with the boid reads and other such calls on other threads (only a call
/// that changes the world excludes it).
pub(crate) fn with_entry_shared<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&Entry) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    if cell.stepping.load(Ordering::Acquire) {
        return Err(step_in_flight());
    }
    let g = read(&cell, id)?;
    if g.world.is_stepping() {
        return Err(step_in_flight());
    }
    f(&g)
}

/// [`with_entry_shared`] on the world alone.
pub(crate) fn with_world_shared<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&World) -> Result<T, Fail>,
) -> Result<T, Fail> {
    with_entry_shared(id, |e| f(&e.world))
}

/// Starts a step (`boids_world_step_begin`).
pub(crate) fn step_begin(id: BoidsWorldId, dt: f32, count: u32) -> Result<(), Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    let _brief = Brief::set(&cell);
    let mut g = write(&cell, id)?;
    if g.world.is_stepping() {
        return Err(step_in_flight());
    }
    // In flight from before the host is handed the step's task: a worker that takes the task
    // and ends the step at once (from its job wrapper) finds it, and waits for this call to
    // return before it ends it.
    cell.stepping.store(true, Ordering::Release);
    let r = g.world.step_begin_n(dt, count);
    cell.stepping
        .store(g.world.is_stepping(), Ordering::Release);
    Ok(r?)
}

/// Ends the step in flight (`boids_world_step_end`): waits for it while readers go on, then
/// waits for the readers and installs it. Never `BUSY` but from inside the world's own step.
pub(crate) fn step_end(id: BoidsWorldId) -> Result<(), Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    let _one = cell.ending.lock().unwrap_or_else(|p| p.into_inner());
    // `stepping` changes only under the write lock, and only `step_end` clears it: with none
    // set, no step is in flight (whatever another thread is doing with the world).
    if !cell.stepping.load(Ordering::Acquire) {
        return Err(Fail::new(
            BoidsResult::InvalidArgument,
            "step_end without step_begin: no step is in flight on this world \
             (boids_world_step_begin starts one)",
        ));
    }
    {
        // Shared: reads on other threads go on while the step finishes.
        let g = alive(&cell, id, cell.lock.read().map_err(|_| poisoned())?)?;
        g.world.step_wait();
    }
    let _brief = Brief::set(&cell);
    let mut g = alive(&cell, id, cell.lock.write().map_err(|_| poisoned())?)?;
    let r = g.world.step_end();
    cell.stepping
        .store(g.world.is_stepping(), Ordering::Release);
    drop(g);
    Ok(r?)
}

/// Whether a step is in flight: answers whatever other threads are doing.
pub(crate) fn is_stepping(id: BoidsWorldId) -> Result<bool, Fail> {
    Ok(get(id)?.stepping.load(Ordering::Acquire))
}

/// Runs `f` on the world, also while a step is in flight: the reads that see the state before
/// the step. Any number of them run at once.
pub(crate) fn with_world_in_flight<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&World) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    let g = read(&cell, id)?;
    f(&g.world)
}

/// Destroys a world; `BUSY` (and nothing destroyed) while another thread is using it. The world
/// is torn down here, before this returns: a step in flight is cancelled (a begun step no
/// worker has started never runs; one a worker runs is waited for) and the host's job system,
/// if any, is let go (its tasks finished, or forgotten once the host has made no call for
/// `host::DESTROY_WAIT`), so the host's callbacks are never called after `boids_world_destroy`
/// returns.
pub(crate) fn remove(id: BoidsWorldId) -> Result<(), Fail> {
    let cell = get(id)?;
    not_from_own_step(&cell)?;
    let mut g = match cell.lock.try_write() {
        Ok(g) => g,
        Err(TryLockError::WouldBlock) => {
            return Err(Fail::new(
                BoidsResult::Busy,
                "world is in use by another thread; destroy it when that call returns",
            ));
        }
        // A world left inconsistent by a panic may still be destroyed.
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
    };
    let g = alive(&cell, id, &mut *g)?;
    // What the cell holds from now on (a world on no thread pool: nothing to start).
    let spare = World::with_exec(
        boids_sim::WorldConfig {
            simd: Some(boids_sim::SimdLevel::Scalar),
            ..boids_sim::WorldConfig::default()
        },
        Arc::new(boids_sim::SerialExec),
    )
    .map_err(|e| Fail::new(BoidsResult::Panic, e.to_string()))?;
    worlds(|w| w.remove(id));
    cell.dead.store(true, Ordering::Release);
    let world = std::mem::replace(&mut g.world, spare);
    g.raw.clear();
    drop(world);
    cell.stepping.store(false, Ordering::Release);
    Ok(())
}
