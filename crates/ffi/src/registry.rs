//! Worlds by generational id. The registry lock is held only to look a world up; each world has
//! its own lock, taken with `try_lock` so a second thread gets `BUSY` instead of waiting.

use crate::boundary::Fail;
use crate::types::{BoidsResult, BoidsWorldId};
use boids_sim::World;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

struct Slot {
    generation: u32,
    world: Option<Arc<Mutex<World>>>,
}

static WORLDS: Mutex<Vec<Slot>> = Mutex::new(Vec::new());

fn worlds() -> MutexGuard<'static, Vec<Slot>> {
    // The registry holds plain data; a panic elsewhere cannot leave it half-written.
    WORLDS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Most worlds alive at once.
const MAX_WORLDS: usize = 1 << 16;

pub(crate) fn insert(world: World) -> Result<BoidsWorldId, Fail> {
    let mut w = worlds();
    let cell = Some(Arc::new(Mutex::new(world)));
    if let Some((i, s)) = w.iter_mut().enumerate().find(|(_, s)| s.world.is_none()) {
        s.world = cell;
        return Ok(BoidsWorldId {
            index: i as u32 + 1,
            generation: s.generation,
        });
    }
    if w.len() >= MAX_WORLDS {
        return Err(Fail::new(
            BoidsResult::InvalidArgument,
            format!("too many worlds alive (at most {MAX_WORLDS})"),
        ));
    }
    w.push(Slot {
        generation: 1,
        world: cell,
    });
    Ok(BoidsWorldId {
        index: w.len() as u32,
        generation: 1,
    })
}

fn invalid(id: BoidsWorldId) -> Fail {
    Fail::new(
        BoidsResult::InvalidId,
        format!(
            "invalid world id {{ index: {}, generation: {} }} (null, destroyed or never issued)",
            id.index, id.generation
        ),
    )
}

/// The world behind `id` (index is 1-based so that the all-zero id is null).
pub(crate) fn get(id: BoidsWorldId) -> Result<Arc<Mutex<World>>, Fail> {
    let w = worlds();
    let slot = (id.index as usize)
        .checked_sub(1)
        .and_then(|i| w.get(i))
        .filter(|s| s.generation == id.generation);
    slot.and_then(|s| s.world.clone())
        .ok_or_else(|| invalid(id))
}

pub(crate) fn is_valid(id: BoidsWorldId) -> bool {
    get(id).is_ok()
}

/// Locks a world for one call: `BUSY` when another thread holds it.
pub(crate) fn lock(cell: &Mutex<World>) -> Result<MutexGuard<'_, World>, Fail> {
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

/// Runs `f` on the locked world.
pub(crate) fn with_world<T>(
    id: BoidsWorldId,
    f: impl FnOnce(&mut World) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let cell = get(id)?;
    let mut g = lock(&cell)?;
    f(&mut g)
}

/// Destroys a world; `BUSY` (and nothing destroyed) while another thread is using it.
pub(crate) fn remove(id: BoidsWorldId) -> Result<(), Fail> {
    let mut w = worlds();
    let slot = (id.index as usize)
        .checked_sub(1)
        .and_then(|i| w.get_mut(i))
        .filter(|s| s.generation == id.generation && s.world.is_some())
        .ok_or_else(|| invalid(id))?;
    {
        let cell = slot.world.as_ref().expect("checked above");
        if let Err(TryLockError::WouldBlock) = cell.try_lock() {
            return Err(Fail::new(
                BoidsResult::Busy,
                "world is in use by another thread; destroy it when that call returns",
            ));
        }
    }
    slot.world = None;
    slot.generation = slot.generation.wrapping_add(1).max(1);
    Ok(())
}
