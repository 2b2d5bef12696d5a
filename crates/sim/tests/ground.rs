//! Grounded flocks and bodies in whole worlds, against an oracle in double precision: every
//! ground triangle of the scene (a hilly heightfield with a ridge too steep to climb, a cliff
//! and spikes; a mesh with a bridge deck over the terrain and a thin wall across it), every
//! solid obstacle (a fence of boxes, a ball rock), every pair of bodies, after every step.

#[path = "support/oracle.rs"]
mod oracle;

use boids_core::Rng;
use boids_core::fmath::{Extremes, Order};
use boids_sim::{
    Bounds, FlockId, FlockParams, Ground, MeshId, Obstacle, ObstacleAvoidance, Placed, Quat, Vec3,
    Weights, World, WorldConfig,
};

const DT: f32 = 1.0 / 60.0;
const SIZE: f32 = 32.0;
const WALL_X: f32 = 16.0;
const DECK: (f32, f32, f32) = (8.0, 12.0, 3.0); // x from, x to, height

fn terrain(x: f32, z: f32) -> f32 {
    let hills = 1.2 * (x / 4.0).sin() * (z / 5.0).cos();
    // A ridge too steep for the herd (70°) around x = 24, 2.5 high.
    let ridge = ((1.0 - (x - 24.0).abs() / 0.9) * 2.5).at_least(0.0);
    // A cliff: beyond z = 27 the ground is 4 lower.
    let cliff = if z > 27.0 { -4.0 } else { 0.0 };
    hills + ridge + cliff
}

/// A world with the scene, and its ground triangles and solids for the oracle.
struct Scene {
    world: World,
    /// The ground's triangles, bucketed (a lookup that sees what a scan of all would).
    ground: oracle::Surfaces,
    solids: Vec<Obstacle>,
}

fn scene(threads: usize) -> Scene {
    let mut world = World::new(WorldConfig {
        seed: 42,
        threads,
        ..WorldConfig::default()
    })
    .unwrap();
    let n = 65u32;
    let cell = SIZE / (n - 1) as f32;
    let mut heights = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (x, z) = (i as f32 * cell, j as f32 * cell);
            // Spikes: single samples 3 up.
            let spike = if (i, j) == (10, 40) || (i, j) == (50, 20) {
                3.0
            } else {
                0.0
            };
            heights.push(terrain(x, z) + spike);
        }
    }
    let field = world.add_heightfield(n, n, cell, cell, &heights).unwrap();
    let mut hf = Obstacle::Heightfield {
        field,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    };
    world.add_obstacle(hf).unwrap();
    // The bridge deck and the thin wall, one ground mesh.
    let (x0, x1, y) = DECK;
    let v = [
        Vec3::new(x0, y, 4.0),
        Vec3::new(x1, y, 4.0),
        Vec3::new(x1, y, 24.0),
        Vec3::new(x0, y, 24.0),
        Vec3::new(WALL_X, -8.0, -1.0),
        Vec3::new(WALL_X, -8.0, SIZE + 1.0),
        Vec3::new(WALL_X, 8.0, SIZE + 1.0),
        Vec3::new(WALL_X, 8.0, -1.0),
    ];
    let ix = [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7];
    let deck = world.add_mesh(&v, &ix).unwrap();
    let mesh = Obstacle::Mesh {
        mesh: deck,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    };
    world.add_obstacle(mesh).unwrap();
    let solids = vec![
        Obstacle::Box {
            min: Vec3::new(2.0, -6.0, 12.0),
            max: Vec3::new(6.0, 6.0, 12.4),
        },
        Obstacle::Box {
            min: Vec3::new(18.0, -6.0, 8.0),
            max: Vec3::new(18.4, 6.0, 14.0),
        },
        Obstacle::Sphere {
            centre: Vec3::new(20.0, 0.0, 20.0),
            radius: 1.5,
        },
    ];
    for s in &solids {
        world.add_obstacle(*s).unwrap();
    }
    // The oracle's triangles: the placements' own, in world space.
    let mut triangles = Vec::new();
    for p in world.placed_obstacles() {
        if let Placed::Mesh { .. } = p {
            p.for_each_triangle(|a, b, c| {
                let d = |v: Vec3| [f64::from(v.x), f64::from(v.y), f64::from(v.z)];
                triangles.push([d(a), d(b), d(c)]);
            });
        }
    }
    let _ = &mut hf;
    Scene {
        world,
        ground: oracle::Surfaces::new(triangles, 1.0),
        solids,
    }
}

fn herd_params() -> FlockParams {
    FlockParams {
        perception_radius: 2.0,
        separation_radius: 0.8,
        min_speed: 0.5,
        max_speed: 3.0,
        weights: Weights {
            wander: 2.0,
            bounds: 4.0,
            obstacles: 12.0,
            ..Weights::default()
        },
        bounds: Bounds::SoftBox {
            min: Vec3::new(1.0, -50.0, 1.0),
            max: Vec3::new(SIZE - 1.0, 50.0, SIZE - 1.0),
            distance: 2.0,
        },
        obstacle_avoidance: ObstacleAvoidance::FreeDirection,
        look_ahead: 1.5,
        ground: Some(Ground {
            max_slope_deg: 40.0,
            step_height: 0.4,
            pivot_height: 0.3,
            ..Ground::default()
        }),
        body_radius: 0.25,
        ..FlockParams::default()
    }
}

/// How far `p` is inside the solid (negative: outside by that much).
fn depth(o: &Obstacle, p: Vec3) -> f64 {
    let p = [f64::from(p.x), f64::from(p.y), f64::from(p.z)];
    match *o {
        Obstacle::Box { min, max } => {
            let (lo, hi) = (min.to_array(), max.to_array());
            let mut out2 = 0.0;
            let mut inside = f64::INFINITY;
            for k in 0..3 {
                let (l, h) = (f64::from(lo[k]), f64::from(hi[k]));
                let d = (l - p[k]).at_least(p[k] - h).at_least(0.0);
                out2 += d * d;
                inside = inside.at_most((p[k] - l).at_most(h - p[k]));
            }
            if out2 > 0.0 { -out2.sqrt() } else { inside }
        }
        Obstacle::Sphere { centre, radius } => {
            let c = centre.to_array();
            let d = (0..3)
                .map(|k| (p[k] - f64::from(c[k])).powi(2))
                .sum::<f64>()
                .sqrt();
            f64::from(radius) - d
        }
        _ => unreachable!(),
    }
}

/// Spawn points where the oracle finds walkable ground on top, clear of the solids and the
/// wall, on the deck for every fifth.
fn spawn_points(s: &Scene, n: usize, p: &FlockParams) -> Vec<Vec3> {
    let g = p.ground.unwrap();
    let cos = f64::from(g.max_slope_deg).to_radians().cos();
    let mut rng = Rng::keyed(7, 0, 0, 0);
    let mut out: Vec<Vec3> = Vec::new();
    while out.len() < n {
        let on_deck = out.len().is_multiple_of(5);
        let (x, z) = if on_deck {
            (rng.range(DECK.0 + 0.5, DECK.1 - 0.5), rng.range(5.0, 23.0))
        } else {
            (rng.range(1.0, SIZE - 1.0), rng.range(1.0, SIZE - 1.0))
        };
        let surfaces = s.ground.under(f64::from(x), f64::from(z));
        let Some(&(h, ny)) = surfaces.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else {
            continue;
        };
        let p = Vec3::new(x, h as f32 + g.pivot_height, z);
        let clear = s.solids.iter().all(|o| depth(o, p) < -0.6)
            && (x - WALL_X).abs() > 0.6
            && out.iter().all(|q| (*q - p).length() > 0.6);
        if ny > cos + 0.02 && clear {
            out.push(p);
        }
    }
    out
}

/// Every grounded boid, against the oracle; `sides` says which side of the wall each started.
fn check(s: &Scene, id: FlockId, p: &FlockParams, sides: &[bool], deck: &[bool], step: usize) {
    let g = p.ground.unwrap();
    let cos = f64::from(g.max_slope_deg).to_radians().cos();
    let r = f64::from(p.body_radius);
    let f = s.world.flock(id).unwrap();
    let pos = f.positions();
    for (b, &q) in pos.iter().enumerate() {
        let feet = f64::from(q.y - g.pivot_height);
        let surfaces = s.ground.under(f64::from(q.x), f64::from(q.z));
        let tol = 1e-3;
        let stood: Vec<_> = surfaces
            .iter()
            .filter(|(h, _)| (h - feet).abs() <= tol)
            .collect();
        assert!(
            !stood.is_empty(),
            "step {step}, boid {b} at {q}: not on ground ({surfaces:?})"
        );
        assert!(
            stood.iter().any(|(_, ny)| *ny >= cos - 1e-4),
            "step {step}, boid {b} at {q}: on ground steeper than {}° ({stood:?})",
            g.max_slope_deg
        );
        for o in &s.solids {
            let d = depth(o, q);
            assert!(
                d <= -r + 1e-3,
                "step {step}, boid {b} at {q}: {d} into {o:?}"
            );
        }
        // The wall is a mesh face of no thickness at x = WALL_X: a boid may end on it (its
        // feet's ray stops there), never past it.
        assert!(
            if sides[b] {
                q.x <= WALL_X
            } else {
                q.x >= WALL_X
            },
            "step {step}, boid {b} at {q}: through the wall"
        );
        if deck[b] {
            assert!(
                (feet - f64::from(DECK.2)).abs() < tol,
                "step {step}: boid {b} left the deck: {q}"
            );
        }
    }
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let d = f64::from((pos[i] - pos[j]).length());
            assert!(
                d >= 2.0 * r - 0.01 * r,
                "step {step}: bodies {i} and {j} overlap by {} of the radius",
                (2.0 * r - d) / r
            );
        }
    }
}

fn herd(threads: usize, n: usize) -> (Scene, FlockId, FlockParams, Vec<Vec3>) {
    let mut s = scene(threads);
    let p = herd_params();
    let id = s.world.create_flock("herd", p).unwrap();
    let at = spawn_points(&s, n, &p);
    let mut rng = Rng::keyed(9, 0, 0, 0);
    let v: Vec<Vec3> = (0..n)
        .map(|_| Vec3::new(rng.range(-2.0, 2.0), 0.0, rng.range(-2.0, 2.0)))
        .collect();
    s.world.add_boids(id, &at, &v).unwrap();
    (s, id, p, at)
}

#[test]
fn a_grounded_herd_stands_on_walkable_ground_clear_of_walls_and_of_each_other_for_600_steps() {
    let (mut s, id, p, at) = herd(1, 240);
    let sides: Vec<bool> = at.iter().map(|q| q.x < WALL_X).collect();
    let deck: Vec<bool> = at
        .iter()
        .map(|q| (q.y - p.ground.unwrap().pivot_height - DECK.2).abs() < 1e-3)
        .collect();
    assert!(deck.iter().filter(|d| **d).count() >= 40);
    let mut travelled = 0.0;
    for step in 0..600 {
        let before = s.world.flock(id).unwrap().positions().to_vec();
        s.world.step(DT).unwrap();
        check(&s, id, &p, &sides, &deck, step);
        let after = s.world.flock(id).unwrap().positions();
        travelled += before
            .iter()
            .zip(after)
            .map(|(a, b)| (*a - *b).length())
            .sum::<f32>();
    }
    // They walked: a mean of more than 5 units each over 10 s.
    assert!(travelled / 240.0 > 5.0, "{}", travelled / 240.0);
}

#[test]
fn the_same_bits_on_one_and_two_threads() {
    let hashes: Vec<u64> = [1, 2]
        .iter()
        .map(|&t| {
            let (mut s, ..) = herd(t, 400);
            for _ in 0..120 {
                s.world.step(DT).unwrap();
            }
            s.world.state_hash()
        })
        .collect();
    assert_eq!(hashes[0], hashes[1]);
}

#[test]
fn a_dense_crowd_pushed_into_a_corner_settles_without_overlap_or_explosion() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let field = w.add_heightfield(2, 2, 20.0, 20.0, &[0.0; 4]).unwrap();
    w.add_obstacle(Obstacle::Heightfield {
        field,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    })
    .unwrap();
    // Two walls meeting in the corner (2, 2).
    for o in [
        Obstacle::Box {
            min: Vec3::new(0.0, -1.0, 0.0),
            max: Vec3::new(2.0, 3.0, 20.0),
        },
        Obstacle::Box {
            min: Vec3::new(0.0, -1.0, 0.0),
            max: Vec3::new(20.0, 3.0, 2.0),
        },
    ] {
        w.add_obstacle(o).unwrap();
    }
    let r = 0.3;
    let p = FlockParams {
        perception_radius: 1.0,
        separation_radius: 0.6,
        min_speed: 0.0,
        max_speed: 2.0,
        weights: Weights {
            target: 4.0,
            separation: 1.0,
            alignment: 0.0,
            cohesion: 0.0,
            ..Weights::default()
        },
        target: Some(boids_sim::Target {
            point: Vec3::new(2.0, 0.0, 2.0),
            avoid_distance: 0.0,
        }),
        bounds: Bounds::None,
        obstacle_avoidance: ObstacleAvoidance::None,
        ground: Some(Ground::default()),
        body_radius: r,
        ..FlockParams::default()
    };
    let id = w.create_flock("crowd", p).unwrap();
    let mut at = Vec::new();
    for i in 0..12 {
        for j in 0..12 {
            at.push(Vec3::new(6.0 + i as f32 * 0.65, 0.0, 6.0 + j as f32 * 0.65));
        }
    }
    w.add_boids(id, &at, &vec![Vec3::ZERO; at.len()]).unwrap();
    let mut last = Vec::new();
    for step in 0..900 {
        w.step(DT).unwrap();
        let f = w.flock(id).unwrap();
        let (pos, vel) = (f.positions(), f.velocities());
        for v in vel {
            assert!(
                v.length() <= 2.0 * 1.0001,
                "step {step}: speed {}",
                v.length()
            );
        }
        for (i, a) in pos.iter().enumerate() {
            assert!(
                a.x >= 2.0 + r - 1e-3 && a.z >= 2.0 + r - 1e-3,
                "step {step}: {a} in a wall"
            );
            for b in &pos[i + 1..] {
                let d = (*a - *b).length();
                assert!(d >= 2.0 * r * 0.995, "step {step}: overlap {}", 2.0 * r - d);
            }
        }
        if step == 840 {
            last = pos.to_vec();
        }
    }
    // Settled: in the last second the crowd moved a mean of under a tenth of a body.
    let f = w.flock(id).unwrap();
    let moved: f32 = f
        .positions()
        .iter()
        .zip(&last)
        .map(|(a, b)| (*a - *b).length())
        .sum::<f32>()
        / last.len() as f32;
    assert!(moved < 0.1 * r, "still moving {moved} per boid");
}

#[test]
fn a_three_d_school_with_bodies_never_overlaps_nor_enters_a_ball_a_box_or_a_mesh() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let r = 0.2;
    let p = FlockParams {
        body_radius: r,
        ..FlockParams::default()
    };
    // Inside the school's box, so that some fish spawn inside them: a ball, a box, and a
    // cube mesh turned and scaled (its oracle: the box in its own frame).
    let (ball, radius) = (Vec3::new(-2.5, 0.0, 0.0), 1.2);
    let (lo, hi) = (Vec3::new(1.0, -1.0, -3.5), Vec3::new(3.0, 1.0, -1.5));
    let (at, turn, half) = (
        Vec3::new(1.5, 0.5, 2.5),
        Quat::from_rotation_y(0.7) * Quat::from_rotation_z(0.4),
        Vec3::new(1.2, 0.8, 1.0),
    );
    let corners: Vec<Vec3> = (0..8)
        .map(|k| {
            let s = |b: i32| if k & b == 0 { -1.0 } else { 1.0 };
            Vec3::new(s(1), s(2), s(4))
        })
        .collect();
    let faces = [
        0, 1, 3, 0, 3, 2, 4, 5, 7, 4, 7, 6, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4,
        1, 5, 7, 1, 7, 3,
    ];
    let cube = w.add_mesh(&corners, &faces).unwrap();
    for o in [
        Obstacle::Sphere {
            centre: ball,
            radius,
        },
        Obstacle::Box { min: lo, max: hi },
        Obstacle::Mesh {
            mesh: cube,
            position: at,
            rotation: turn,
            scale: half,
            ground: false,
        },
    ] {
        w.add_obstacle(o).unwrap();
    }
    let id = w.create_flock("fish", p).unwrap();
    w.spawn(id, 600, &boids_sim::Spawn::default()).unwrap();
    let clear = r * 0.99 - 1e-4;
    for step in 0..300 {
        w.step(DT).unwrap();
        let pos = w.flock(id).unwrap().positions();
        for (i, a) in pos.iter().enumerate() {
            for b in &pos[i + 1..] {
                let d = (*a - *b).length();
                assert!(d >= 0.4 - 0.002, "step {step}: overlap {}", 0.4 - d);
            }
            let to_ball = (*a - ball).length() - radius;
            let to_box = (*a - a.within(lo, hi)).length();
            let local = turn.inverse() * (*a - at);
            let to_mesh = (local - local.within(-half, half)).length();
            assert!(
                to_ball >= clear && to_box >= clear && to_mesh >= clear,
                "step {step}: fish {i} at {a}: {to_ball} from the ball, {to_box} from the box, \
                 {to_mesh} from the mesh"
            );
        }
    }
}

#[test]
fn ground_removed_or_moved_in_mid_run_and_bodies_spawned_inside_a_rock() {
    let (mut s, id, p, _) = herd(1, 60);
    for _ in 0..30 {
        s.world.step(DT).unwrap();
    }
    // Move every ground placement 2 up: the herd on the terrain comes up through it (onto the
    // lowest ground above its feet); on the deck, it drops onto the terrain below (the highest
    // ground below its feet).
    let ids: Vec<_> = s.world.obstacle_ids().collect();
    for &o in &ids {
        let mut moved = s.world.obstacle(o).unwrap();
        if let Obstacle::Heightfield { position, .. } | Obstacle::Mesh { position, .. } = &mut moved
        {
            *position += Vec3::Y * 2.0;
        }
        s.world.set_obstacle(o, moved).unwrap();
    }
    let before = s.world.flock(id).unwrap().positions().to_vec();
    s.world.step(DT).unwrap();
    let after = s.world.flock(id).unwrap().positions();
    let deck = |q: &Vec3| (q.y - 0.3 - DECK.2).abs() < 1e-3;
    assert!(before.iter().any(deck) && !before.iter().all(deck));
    for (a, b) in before.iter().zip(after) {
        if deck(a) {
            let terrain = terrain(a.x, a.z) + 2.0 + 0.3;
            assert!(
                (b.y - terrain).abs() < 0.1,
                "dropped onto the terrain: {a} -> {b}"
            );
        } else {
            assert!(
                (b.y - a.y - 2.0).abs() < 1e-3,
                "came up through the ground: {a} -> {b}"
            );
        }
        assert_eq!((a.x, a.z), (b.x, b.z), "placed, not moved");
    }
    // Remove the ground: the herd stays where it is, with no velocity.
    for &o in &ids[..2] {
        s.world.remove_obstacle(o).unwrap();
    }
    s.world.step(DT).unwrap();
    let frozen = s.world.flock(id).unwrap().positions().to_vec();
    for _ in 0..10 {
        s.world.step(DT).unwrap();
    }
    let f = s.world.flock(id).unwrap();
    assert_eq!(f.positions(), &frozen[..]);
    assert!(f.velocities().iter().all(|v| *v == Vec3::ZERO));
    let _ = p;
}

#[test]
fn grounded_settings_out_of_range_are_refused_by_name() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let base = herd_params();
    let g = base.ground.unwrap();
    for (field, p) in [
        (
            "ground.max_slope_deg",
            Ground {
                max_slope_deg: f32::NAN,
                ..g
            },
        ),
        (
            "ground.max_slope_deg",
            Ground {
                max_slope_deg: -1.0,
                ..g
            },
        ),
        (
            "ground.max_slope_deg",
            Ground {
                max_slope_deg: 90.0,
                ..g
            },
        ),
        (
            "ground.step_height",
            Ground {
                step_height: f32::INFINITY,
                ..g
            },
        ),
        (
            "ground.step_height",
            Ground {
                step_height: -0.1,
                ..g
            },
        ),
        (
            "ground.pivot_height",
            Ground {
                pivot_height: f32::NAN,
                ..g
            },
        ),
    ] {
        let params = FlockParams {
            ground: Some(p),
            ..base
        };
        let e = w.create_flock("x", params).unwrap_err().to_string();
        assert!(e.contains(field), "{e}");
    }
    for r in [f32::NAN, -1.0, f32::INFINITY] {
        let e = w
            .create_flock(
                "x",
                FlockParams {
                    body_radius: r,
                    ..base
                },
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("body_radius"), "{e}");
    }
    let e = w
        .create_flock(
            "x",
            FlockParams {
                plane: boids_sim::PlaneLock::XZ,
                ..base
            },
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("plane"), "{e}");
    let e = w
        .create_flock(
            "x",
            FlockParams {
                bounds: Bounds::Wrap {
                    min: Vec3::ZERO,
                    max: Vec3::ONE,
                },
                ..base
            },
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("bounds"), "{e}");
    assert_eq!(w.flock_ids().count(), 0, "nothing was made");
    let _ = MeshId::default();
}

#[test]
fn the_ground_height_is_the_highest_ground_surface_the_oracle_finds() {
    let s = scene(1);
    let mut rng = Rng::keyed(7, 0, 0, 0);
    let (mut checked, mut decks, mut none) = (0, 0, 0);
    let (x0, x1, y) = DECK;
    // Points within a hair of an edge (the deck's, the terrain's) are where the oracle and
    // the engine may each see a triangle the other does not: not checked.
    let near = |v: f32, lines: &[f32]| lines.iter().any(|l| (v - l).abs() < 0.01);
    for _ in 0..3000 {
        let x = rng.next_f32() * (SIZE + 8.0) - 4.0;
        let z = rng.next_f32() * (SIZE + 8.0) - 4.0;
        if near(x, &[0.0, SIZE, x0, x1]) || near(z, &[0.0, SIZE, 4.0, 24.0]) {
            continue;
        }
        let top = (s.ground.under(f64::from(x), f64::from(z)).iter())
            .map(|u| u.0)
            .reduce(f64::at_least);
        match (s.world.ground_height(x, z).unwrap(), top) {
            (None, None) => none += 1,
            (Some(h), Some(top)) => {
                assert!(
                    (f64::from(h) - top).abs() < 1e-3,
                    "({x}, {z}): {h}, the oracle {top}"
                );
                checked += 1;
                decks += usize::from((h - y).abs() < 1e-4);
            }
            (h, top) => panic!("({x}, {z}): {h:?}, the oracle {top:?}"),
        }
    }
    assert!(
        checked > 1500 && decks > 100 && none > 500,
        "{checked} points, {decks} on the deck, {none} off the ground"
    );
    // Hostile: not finite, or beyond the world's range.
    for (x, z) in [(f32::NAN, 0.0), (0.0, f32::INFINITY), (2e9, 0.0)] {
        assert!(matches!(
            s.world.ground_height(x, z),
            Err(boids_sim::Error::InvalidArgument(_))
        ));
    }
}
