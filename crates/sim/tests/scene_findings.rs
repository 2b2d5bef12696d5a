//! The smaller findings of the scene review, each refused or fixed: an oriented box without
//! thickness, mesh ids in messages, the state hash and digest covering the scene, a heightfield
//! size that wrapped in its message, and save files whose content does not match their label.

use boids_core::fnv::Fnv1a;
use boids_sim::*;

fn world() -> World {
    World::new(WorldConfig {
        seed: 4,
        threads: 1,
        simd: None,
    })
    .unwrap()
}

fn message(e: Error) -> String {
    e.to_string()
}

#[test]
fn an_oriented_box_needs_thickness_on_every_axis() {
    let mut w = world();
    for half in [
        Vec3::ZERO,
        Vec3::new(0.0, 1.0, 1.0),
        Vec3::new(1.0, -1.0, 1.0),
    ] {
        let e = w
            .add_obstacle(Obstacle::OrientedBox {
                centre: Vec3::ZERO,
                half_extents: half,
                rotation: Quat::IDENTITY,
            })
            .unwrap_err();
        let m = message(e);
        assert!(
            m.contains("half_extents must be finite and in (0, 1e9] on every axis"),
            "{half}: {m}"
        );
    }
    assert!(w.obstacles().is_empty(), "nothing added");
    w.add_obstacle(Obstacle::OrientedBox {
        centre: Vec3::ZERO,
        half_extents: Vec3::new(1e-3, 1.0, 1.0),
        rotation: Quat::IDENTITY,
    })
    .unwrap();
}

#[test]
fn mesh_ids_in_messages_are_one_based_as_everywhere_else() {
    let mut w = world();
    let m = w
        .add_mesh(&[Vec3::ZERO, Vec3::X, Vec3::Y], &[0, 1, 2])
        .unwrap();
    assert_eq!(m.index, 0, "the first slot (the C ABI's index 1)");
    w.add_obstacle(Obstacle::Mesh {
        mesh: m,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: false,
    })
    .unwrap();
    let e = message(w.remove_mesh(m).unwrap_err());
    assert!(e.contains("mesh 1:1 "), "{e}");
    let f = w.add_heightfield(2, 2, 1.0, 1.0, &[0.0; 4]).unwrap();
    let e = message(
        w.add_obstacle(Obstacle::Mesh {
            mesh: f,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            ground: false,
        })
        .unwrap_err(),
    );
    assert!(e.contains("mesh 2:1 is a heightfield"), "{e}");
}

#[test]
fn the_state_hash_and_digest_cover_the_scene() {
    let mut w = world();
    let f = w.create_flock("fish", FlockParams::default()).unwrap();
    w.spawn(f, 50, &Spawn::default()).unwrap();
    let bare = (w.state_hash(), w.rounded_digest(6));
    let o = w
        .add_obstacle(Obstacle::Sphere {
            centre: Vec3::new(1.0, 2.0, 3.0),
            radius: 1.0,
        })
        .unwrap();
    let with_ball = (w.state_hash(), w.rounded_digest(6));
    assert_ne!(with_ball.0, bare.0, "an obstacle shows in the hash");
    assert_ne!(with_ball.1, bare.1, "and in the digest");
    // A refused change changes nothing, and the hash shows it.
    assert!(
        w.set_obstacle(
            o,
            Obstacle::Sphere {
                centre: Vec3::new(1.0, 2.0, 3.0),
                radius: -1.0,
            }
        )
        .is_err()
    );
    assert_eq!(w.state_hash(), with_ball.0);
    // Moved: another hash; moved back: the same again.
    let moved = Obstacle::Sphere {
        centre: Vec3::new(1.0, 2.0, 3.5),
        radius: 1.0,
    };
    w.set_obstacle(o, moved).unwrap();
    assert_ne!(w.state_hash(), with_ball.0);
    w.set_obstacle(
        o,
        Obstacle::Sphere {
            centre: Vec3::new(1.0, 2.0, 3.0),
            radius: 1.0,
        },
    )
    .unwrap();
    assert_eq!(w.state_hash(), with_ball.0);
    // Shape data shows by its content.
    let a = w.add_heightfield(2, 2, 1.0, 1.0, &[0.0; 4]).unwrap();
    let one_field = w.state_hash();
    assert_ne!(one_field, with_ball.0);
    w.remove_mesh(a).unwrap();
    let b = w
        .add_heightfield(2, 2, 1.0, 1.0, &[0.0, 0.0, 0.0, 1.0])
        .unwrap();
    assert_eq!(a.index, b.index, "the same slot, a new generation");
    assert_ne!(w.state_hash(), one_field, "other heights, another hash");
    // Gone again: the boids and the ball only, as before.
    w.remove_mesh(b).unwrap();
    w.remove_obstacle(o).unwrap();
    assert_eq!((w.state_hash(), w.rounded_digest(6)), bare);
}

#[test]
fn a_huge_heightfield_is_refused_with_its_true_size() {
    let mut w = world();
    let e = message(
        w.add_heightfield(u32::MAX, u32::MAX, 1.0, 1.0, &[0.0; 4])
            .unwrap_err(),
    );
    // Counted without overflow: (2^32 - 1)^2 samples.
    let samples = u64::from(u32::MAX) * u64::from(u32::MAX);
    assert!(e.contains(&format!("got {samples}")), "{e}");
}

/// The save file with its version, payload and checksum replaced.
fn relabel(bytes: &[u8], version: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = bytes[..8].to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&Fnv1a::of(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

#[test]
fn a_save_whose_content_does_not_match_its_label_is_refused() {
    let mut w = world();
    let f = w.create_flock("fish", FlockParams::default()).unwrap();
    w.spawn(f, 20, &Spawn::default()).unwrap();
    let config = WorldConfig {
        seed: 0,
        threads: 1,
        simd: None,
    };
    // Without shape data: the payload still has its (empty) meshes field.
    let bytes = w.save();
    let payload = &bytes[28..];
    assert!(World::load(&bytes, config).is_ok());
    let e = message(
        World::load(&relabel(&bytes, 1, payload), config)
            .err()
            .unwrap(),
    );
    assert!(
        e.contains("labelled version 1, but it holds shape data"),
        "{e}"
    );
    // Bytes after the payload's value, inside the announced length and checksum.
    let mut padded = payload.to_vec();
    padded.extend_from_slice(&[0xf6, 0xf6, 0x00]);
    let e = message(
        World::load(&relabel(&bytes, 2, &padded), config)
            .err()
            .unwrap(),
    );
    assert!(e.contains("3 bytes follow the payload's value"), "{e}");
    // A version-1 label with a version-2 obstacle kind (and no meshes field) is refused too.
    w.add_obstacle(Obstacle::Capsule {
        a: Vec3::ZERO,
        b: Vec3::X,
        radius: 0.5,
    })
    .unwrap();
    let bytes = w.save();
    assert!(World::load(&bytes, config).is_ok());
}
