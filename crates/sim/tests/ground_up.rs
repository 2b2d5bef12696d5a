//! How a grounded flock is drawn, and what a save and the state hash keep of the ground: on a
//! hillside that falls along x, boids walking along z lean with it (`GroundUp::Normal`: +Y of
//! their orientation and matrix is the ground's normal) or stand upright (`GroundUp::World`: no
//! roll, +X horizontal); a world saved in mid-run loads with its ground settings, obstacle
//! flags and leaning orientations, and continues bit for bit.

use boids_sim::{
    Bounds, FlockId, FlockParams, Ground, GroundUp, Obstacle, ObstacleAvoidance, Quat, Vec3,
    Weights, World, WorldConfig,
};

const DT: f32 = 1.0 / 60.0;
/// The hillside's rise per unit of x.
const SLOPE: f32 = 0.3;

fn world() -> (World, FlockId, FlockId) {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let n = 41;
    let heights: Vec<f32> = (0..n * n).map(|k| SLOPE * (k % n) as f32).collect();
    let field = w.add_heightfield(n, n, 1.0, 1.0, &heights).unwrap();
    w.add_obstacle(Obstacle::Heightfield {
        field,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    })
    .unwrap();
    let params = |up| FlockParams {
        weights: Weights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            ..Weights::default()
        },
        bounds: Bounds::None,
        obstacle_avoidance: ObstacleAvoidance::None,
        min_speed: 1.0,
        max_speed: 1.0,
        ground: Some(Ground {
            up,
            pivot_height: 0.5,
            ..Ground::default()
        }),
        body_radius: 0.3,
        ..FlockParams::default()
    };
    let at: Vec<Vec3> = (0..6)
        .map(|k| Vec3::new(10.0 + 3.0 * k as f32, 20.0, 5.0))
        .collect();
    let along = vec![Vec3::Z; at.len()];
    let upright = w.create_flock("upright", params(GroundUp::World)).unwrap();
    let leaning = w.create_flock("leaning", params(GroundUp::Normal)).unwrap();
    for f in [upright, leaning] {
        w.add_boids(f, &at, &along).unwrap();
    }
    (w, upright, leaning)
}

fn reads(w: &World, f: FlockId) -> (Vec<[f32; 4]>, Vec<[f32; 16]>) {
    let f = w.flock(f).unwrap();
    let mut q = vec![[0.0; 4]; f.len()];
    let mut m = vec![[0.0; 16]; f.len()];
    f.write_orientations(&mut q);
    f.write_matrices(2.0, &mut m);
    (q, m)
}

#[test]
fn a_leaning_flock_is_drawn_with_the_grounds_normal_up_an_upright_one_without_roll() {
    let (mut w, upright, leaning) = world();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let normal = Vec3::new(-SLOPE, 1.0, 0.0).normalize();
    let (q, m) = reads(&w, leaning);
    let heads = w.flock(leaning).unwrap().headings().to_vec();
    for ((q, m), h) in q.iter().zip(&m).zip(&heads) {
        let q = Quat::from_array(*q);
        assert!(
            (q * Vec3::Y - normal).length() < 1e-5,
            "{q}: up {}",
            q * Vec3::Y
        );
        assert!(
            (q * Vec3::Z - *h).length() < 1e-5,
            "{q}: forward {}",
            q * Vec3::Z
        );
        // The matrix: the same axes, scaled.
        let y = Vec3::new(m[4], m[5], m[6]);
        assert!((y - normal * 2.0).length() < 1e-4, "{y}");
    }
    // Walking along z on ground that falls along x: the heading stays level.
    assert!(heads.iter().all(|h| (h.z - 1.0).abs() < 1e-5), "{heads:?}");
    let (q, _) = reads(&w, upright);
    for q in &q {
        let q = Quat::from_array(*q);
        assert!((q * Vec3::X).y.abs() < 1e-6, "{q}: rolled");
        assert!(
            (q * Vec3::Y - Vec3::Y).length() < 1e-5,
            "{q}: up {}",
            q * Vec3::Y
        );
    }
}

#[test]
fn a_save_keeps_the_ground_the_lean_and_the_bits_and_the_hash_covers_the_ground() {
    let (mut w, _, leaning) = world();
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    let saved = w.save();
    let mut loaded = World::load(&saved, WorldConfig::default()).unwrap();
    let id = loaded.find_flock("leaning").unwrap();
    assert_eq!(
        loaded.flock(id).unwrap().params(),
        w.flock(leaning).unwrap().params()
    );
    assert!(
        loaded
            .obstacle_ids()
            .all(|o| loaded.obstacle(o).unwrap().is_ground())
    );
    assert_eq!(reads(&loaded, id), reads(&w, leaning));
    assert_eq!(loaded.state_hash(), w.state_hash());
    for _ in 0..20 {
        w.step(DT).unwrap();
        loaded.step(DT).unwrap();
    }
    assert_eq!(loaded.state_hash(), w.state_hash());
    assert_eq!(reads(&loaded, id), reads(&w, leaning));

    // The same boids with other ground settings, or a placement no longer ground, hash apart.
    let before = w.state_hash();
    let mut p = *w.flock(leaning).unwrap().params();
    p.ground = Some(Ground {
        step_height: 0.25,
        ..p.ground.unwrap()
    });
    w.set_params(leaning, p).unwrap();
    assert_ne!(w.state_hash(), before);
    let (mut a, _, _) = world();
    let h = a.state_hash();
    let o = a.obstacle_ids().next().unwrap();
    let mut flat = a.obstacle(o).unwrap();
    if let Obstacle::Heightfield { ground, .. } = &mut flat {
        *ground = false;
    }
    a.set_obstacle(o, flat).unwrap();
    assert_ne!(a.state_hash(), h);
}
