//! Worlds by generational id. The registry lock is held only to look a world up; each world has
//! its own lock, taken with `try_lock` so a second thread gets `BUSY` instead of waiting.

use crate::boundary::Fail;
use crate::types::{BoidsFlockParams, BoidsResult, BoidsWorldId};
use boids_sim::FlockId;
use boids_sim::World;
use boids_sim::slotmap::{SlotKey, SlotMap};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

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

type Worlds = SlotMap<BoidsWorldId, Arc<Mutex<Entry>>>;

static WORLDS: Mutex<Option<Worlds>> = Mutex::new(None);

/// Runs `f` on the registry. The lock is held only for a lookup or an insertion.
fn worlds<T>(f: impl FnOnce(&mut Worlds) -> T) -> T {
    // The registry holds plain data; a panic elsewhere cannot leave it half-written.
    let mut g = WORLDS.lock().unwrap_or_else(|p| p.into_inner());
    f(g.get_or_insert_with(Worlds::default))
}

/// Most worlds alive at once.
const MAX_WORLDS: usize = 1 << 16;

pub(crate) fn insert(world: World) -> Result<BoidsWorldId, Fail> {
    worlds(|w| {
        if w.len() >= MAX_WORLDS {
            return Err(Fail::new(
                BoidsResult::InvalidArgument,
                format!("too many worlds alive (at most {MAX_WORLDS})"),
            ));
        }
        w.insert(Arc::new(Mutex::new(Entry {
            world,
            raw: HashMap::new(),
        })))
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

/// The world behind `id` (index is 1-based so that the all-zero id is null).
pub(crate) fn get(id: BoidsWorldId) -> Result<Arc<Mutex<Entry>>, Fail> {
    worlds(|w| w.get(id).cloned()).ok_or_else(|| invalid(id))
}

pub(crate) fn is_valid(id: BoidsWorldId) -> bool {
    get(id).is_ok()
}

/// Locks a world for one call: `BUSY` when another thread holds it.
pub(crate) fn lock(cell: &Mutex<Entry>) -> Result<MutexGuard<'_, Entry>, Fail> {
    match cell.try_lock() {
        Ok(g) => Ok(g),
        Err(TryLockError::WouldBlock) => Err(Fail::new(
            BoidsResult::Busy,
            "world is in use by another thread (calls on one world must not overlap)",
        )),
        Err(TryLockError::Poisoned(_)) => Err(Fail::new(
            BoidsResult::Panic,
            "world was left inconsistent by an earlier internal panic; destroy it",
        )),
    }
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
    let mut g = lock(&cell)?;
    if g.world.is_stepping() {
        return Err(Fail::new(
            BoidsResult::Busy,
            "a step is in flight on this world (boids_world_step_begin): until \
             boids_world_step_end, only its boid reads are allowed",
        ));
    }
    f(&mut g)
}

/// Runs `f` on the locked world, also while a step is in flight: the reads that see the state
/// before the step, and the step's end.
pub(crate) fn with_world_in_flight<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&mut World) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let cell = get(id)?;
    let mut g = lock(&cell)?;
    f(&mut g.world)
}

/// Destroys a world; `BUSY` (and nothing destroyed) while another thread is using it. A step
/// in flight is waited for (after the world has left the registry, so other worlds' calls do
/// not wait with it).
pub(crate) fn remove(id: BoidsWorldId) -> Result<(), Fail> {
    let cell = worlds(|w| {
        let cell = w.get(id).ok_or_else(|| invalid(id))?;
        if let Err(TryLockError::WouldBlock) = cell.try_lock() {
            return Err(Fail::new(
                BoidsResult::Busy,
                "world is in use by another thread; destroy it when that call returns",
            ));
        }
        Ok(w.remove(id))
    })?;
    drop(cell);
    Ok(())
}
