//! Every preset for N steps (default 120) on one thread, one line each: `name hash`, the same
//! lines `scripts/check-portable` gets from `boids run --preset NAME --steps N --threads 1`.
//! A lean program (boids-sim only) for checking that another build gives the same bits:
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p boids-examples --example preset_hashes`.

use boids_sim::presets;

fn main() -> Result<(), boids_sim::Error> {
    let steps: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    for p in presets::all() {
        let mut scene = p.scene(p.name);
        scene.threads = 1;
        let mut world = scene.build()?;
        for _ in 0..steps {
            world.step(scene.dt)?;
        }
        println!("{} {:016x}", p.name, world.state_hash());
    }
    Ok(())
}
