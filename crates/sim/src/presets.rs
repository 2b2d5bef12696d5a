//! Presets: each seed tutorial as a ready-made flock (see docs/migrating-from-unity-tutorials.md).

use crate::flock::{Spawn, SpawnShape};
use crate::world::{FlockId, World};
use crate::{Bounds, Error, FlockParams};
use boids_core::Vec3;

/// A named, ready-made flock set-up.
pub struct Preset {
    /// Name, as given to `boids run --preset` and `boids_flock_create_preset`.
    pub name: &'static str,
    /// One line: what it is and which tutorial it reproduces.
    pub description: &'static str,
    build: fn(&mut World, &str) -> Result<FlockId, Error>,
}

impl Preset {
    /// Creates the preset's flock (and anything it needs) in `world`, named `flock_name`.
    pub fn create(&self, world: &mut World, flock_name: &str) -> Result<FlockId, Error> {
        (self.build)(world, flock_name)
    }
}

/// Every preset.
pub fn all() -> &'static [Preset] {
    &PRESETS
}

/// The preset with this name.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// Creates preset `preset` in `world` as a flock named `flock_name`.
pub fn create(world: &mut World, preset: &str, flock_name: &str) -> Result<FlockId, Error> {
    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
    find(preset)
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown preset '{preset}' (known: {})",
                names.join(", ")
            ))
        })?
        .create(world, flock_name)
}

static PRESETS: [Preset; 1] = [Preset {
    name: "fish-tank",
    description: "fish in a box with a field of view and inverse-distance walls (seed 000, BoidFish)",
    build: fish_tank,
}];

/// Seed 000: 100 fish in a 10-unit box, spawned in its inner half at speed 2, radius 1, 90°
/// field of view, weights 5/2/3, walls at distance 3; the flock sleeps while the observer is
/// outside the box.
fn fish_tank(world: &mut World, name: &str) -> Result<FlockId, Error> {
    let half = Vec3::splat(5.0);
    let params = FlockParams {
        bounds: Bounds::SoftBox {
            min: -half,
            max: half,
            distance: 3.0,
        },
        ..FlockParams::default()
    };
    let id = world.create_flock(name, params)?;
    world.spawn(
        id,
        100,
        &Spawn {
            shape: SpawnShape::Box {
                min: -half * 0.5,
                max: half * 0.5,
            },
            min_speed: 2.0,
            max_speed: 2.0,
        },
    )?;
    world.set_wake_region(id, Some((-half, half)))?;
    Ok(id)
}
