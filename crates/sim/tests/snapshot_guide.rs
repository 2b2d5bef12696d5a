//! The Rust example of docs/snapshot-testing.md, exactly as printed there (a test below checks
//! the guide still holds this file's example verbatim).

// --- example: begin
use boids_sim::{Recorder, World, WorldConfig, presets};

#[test]
fn my_bees_keep_their_behaviour() {
    let mut world = World::new(WorldConfig {
        seed: 7,
        ..WorldConfig::default()
    })
    .unwrap();
    presets::create(&mut world, "goal-swarm", "bees").unwrap();

    // Every 60th step of the bees, 6 significant digits: steps 0, 60, 120, 180.
    let mut recorder = Recorder::new(60, 6).flocks(&["bees"]);
    recorder.run(&mut world, 180, 1.0 / 60.0).unwrap();

    // The whole trajectory, one line per bee per recorded step: a failing snapshot shows
    // which bee moved where (`cargo insta review`).
    insta::assert_snapshot!(recorder.text());
    // Or only the digest of it, for a one-line pin.
    assert_eq!(recorder.digest(), "f610cbaab234c2a1");
}
// --- example: end

#[test]
fn the_guide_prints_this_example() {
    let me = include_str!("snapshot_guide.rs");
    let example = me
        .split("// --- example: begin\n")
        .nth(1)
        .and_then(|s| s.split("// --- example: end").next())
        .unwrap();
    let guide = include_str!("../../../docs/snapshot-testing.md");
    assert!(
        guide.contains(example),
        "docs/snapshot-testing.md must hold the example of tests/snapshot_guide.rs verbatim"
    );
    // The C and C# examples too (scripts/test compiles and runs those files).
    for (path, text) in [
        (
            "examples/c/snapshot.c",
            include_str!("../../../examples/c/snapshot.c"),
        ),
        (
            "examples/csharp/SnapshotTest.cs",
            include_str!("../../../examples/csharp/SnapshotTest.cs"),
        ),
    ] {
        assert!(
            guide.contains(text),
            "docs/snapshot-testing.md must hold {path} verbatim"
        );
    }
}
