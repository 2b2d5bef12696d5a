//! The worlds the overlapped-step tests (`overlap.rs`, `chain.rs`) step both ways and compare:
//! every preset, and a flock large enough for the parallel path.
#![allow(dead_code)]

use boids_sim::*;

/// A named way to fill a world.
pub type Scene = (String, Box<dyn Fn(&mut World)>);

/// Every preset, then a school of 6,000 (over `PARALLEL_MIN`: its step runs on the pool).
pub fn scenes() -> Vec<Scene> {
    let mut out: Vec<Scene> = Vec::new();
    for p in presets::all() {
        let name = p.name.to_string();
        let n2 = name.clone();
        out.push((
            name,
            Box::new(move |w: &mut World| {
                presets::create(w, &n2, &n2).unwrap();
            }),
        ));
    }
    out.push((
        "school of 6000".into(),
        Box::new(|w: &mut World| {
            let f = w.create_flock("school", FlockParams::default()).unwrap();
            w.spawn(f, 6000, &Spawn::default()).unwrap();
        }),
    ));
    out
}
