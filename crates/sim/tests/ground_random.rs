//! Grounded flocks on random scenes, against a brute-force oracle in double precision (a
//! property test): each scene is a hilly heightfield (turned and scaled at random, with a cliff
//! and spikes, and the flock's bounds reaching past its edges), ground meshes (decks over the
//! terrain: bridges and overhangs; ramps, some steeper than the flock may climb; thin walls as
//! tall as the scene), and solids (boxes, balls, a closed rock mesh). The flock's settings are
//! random too. After each of 600 steps, every boid:
//! - stands on a ground triangle at its pivot height, and one no steeper than the max slope;
//! - climbed or dropped no more than the step height since the step before;
//! - did not pass through a thin wall;
//! - keeps its body clear of every solid (no centre inside one);
//!
//! and no two bodies overlap by more than 1% of the radius. The oracle's triangles are the
//! placements' own (`Placed::for_each_triangle`: the vertices the engine's casts test).
//! `PROPTEST_CASES` runs more scenes (the default is a few, for the test command's time).

#[path = "support/oracle.rs"]
mod oracle;

use boids_core::Rng;
use boids_core::fmath::Order;
use boids_sim::{
    Bounds, FlockParams, Ground, GroundUp, Obstacle, ObstacleAvoidance, Placed, Quat, Target, Vec3,
    Weights, World, WorldConfig,
};
use oracle::{Surfaces, V, box_distance, distance, inside, length, sub, v};
use proptest::prelude::*;

const DT: f32 = 1.0 / 60.0;
const STEPS: usize = 600;

/// A thin wall: a vertical rectangle from `a` to `b` in the xz plane, taller than the scene.
struct Wall {
    a: [f64; 2],
    b: [f64; 2],
}

impl Wall {
    /// Which side of the wall's line `p` is on (0: on it), and whether it is within the wall's
    /// length with `margin` to spare at each end.
    fn side(&self, p: V, margin: f64) -> (f64, bool) {
        let d = [self.b[0] - self.a[0], self.b[1] - self.a[1]];
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
        let rel = [p[0] - self.a[0], p[2] - self.a[1]];
        let along = (rel[0] * d[0] + rel[1] * d[1]) / len;
        let across = (d[0] * rel[1] - d[1] * rel[0]) / len;
        (across, along > margin && along < len - margin)
    }
}

enum Solid {
    Box(Vec3, Vec3),
    Ball(V, f64),
    Rock(Vec<[V; 3]>),
}

impl Solid {
    /// The distance from `p` to the solid's surface, negative inside.
    fn clearance(&self, p: V) -> f64 {
        match self {
            Solid::Box(lo, hi) => box_distance(*lo, *hi, p),
            Solid::Ball(c, r) => length(sub(p, *c)) - r,
            Solid::Rock(tris) => {
                let d = tris
                    .iter()
                    .map(|t| distance(p, *t))
                    .fold(f64::INFINITY, f64::at_most);
                if inside(p, tris) { -d } else { d }
            }
        }
    }
}

struct Case {
    world: World,
    /// The terrain's box.
    lo: Vec3,
    hi: Vec3,
    ground: Surfaces,
    walls: Vec<Wall>,
    solids: Vec<Solid>,
    params: FlockParams,
}

/// The world's triangles of every placement added since `from`.
fn triangles_since(world: &World, from: usize) -> Vec<[V; 3]> {
    let mut out = Vec::new();
    for p in &world.placed_obstacles()[from..] {
        if let Placed::Mesh { .. } = p {
            p.for_each_triangle(|a, b, c| out.push([v(a), v(b), v(c)]));
        }
    }
    out
}

/// A quad `a b c d` as a mesh of two triangles (both windings: ground has no inside).
fn quad(world: &mut World, q: [Vec3; 4]) -> boids_sim::MeshId {
    world.add_mesh(&q, &[0, 1, 2, 0, 2, 3]).unwrap()
}

fn place_mesh(world: &mut World, mesh: boids_sim::MeshId, ground: bool) {
    world
        .add_obstacle(Obstacle::Mesh {
            mesh,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            ground,
        })
        .unwrap();
}

fn build(seed: u64) -> Case {
    let mut rng = Rng::keyed(seed, 0, 0, 0);
    let mut world = World::new(WorldConfig {
        seed,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();

    // The terrain: hills, a cliff across it, spikes; turned about y and scaled at random.
    let (cols, rows) = (
        17 + (rng.next_u64() % 24) as u32,
        17 + (rng.next_u64() % 24) as u32,
    );
    let (cx, cz) = (rng.range(0.5, 0.9), rng.range(0.5, 0.9));
    let (amp, fx, fz) = (
        rng.range(0.0, 1.6),
        rng.range(2.0, 6.0),
        rng.range(2.0, 6.0),
    );
    let cliff = (rng.range(0.3, 0.8), rng.range(1.0, 4.0));
    let mut heights = Vec::new();
    for j in 0..rows {
        for i in 0..cols {
            let (x, z) = (i as f32 * cx, j as f32 * cz);
            let drop = if (j as f32) > cliff.0 * rows as f32 {
                -cliff.1
            } else {
                0.0
            };
            heights.push(amp * (x / fx).sin() * (z / fz).cos() + drop);
        }
    }
    for _ in 0..(rng.next_u64() % 5) {
        let k = (rng.next_u64() % heights.len() as u64) as usize;
        heights[k] += rng.range(1.0, 5.0);
    }
    let field = world.add_heightfield(cols, rows, cx, cz, &heights).unwrap();
    let turn = if rng.chance(0.5) {
        Quat::from_rotation_y(rng.range(-3.1, 3.1))
    } else {
        Quat::IDENTITY
    };
    let scale = if rng.chance(0.5) {
        Vec3::new(
            rng.range(0.7, 1.4),
            rng.range(0.5, 1.5),
            rng.range(0.7, 1.4),
        )
    } else {
        Vec3::ONE
    };
    world
        .add_obstacle(Obstacle::Heightfield {
            field,
            position: Vec3::ZERO,
            rotation: turn,
            scale,
            ground: true,
        })
        .unwrap();
    let terrain = triangles_since(&world, 0);
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for t in &terrain {
        for p in t {
            let p = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
            (lo, hi) = (lo.at_most(p), hi.at_least(p));
        }
    }
    let at = |rng: &mut Rng| {
        Vec3::new(
            rng.range(lo.x + 1.0, hi.x - 1.0),
            0.0,
            rng.range(lo.z + 1.0, hi.z - 1.0),
        )
    };

    // Decks over the terrain (bridges: their edges are drops), tilted at random; ramps through
    // the terrain at random slopes; thin walls as tall as the scene.
    for _ in 0..(rng.next_u64() % 3) {
        let c = at(&mut rng);
        let (w, d) = (rng.range(1.5, 4.0), rng.range(2.0, 6.0));
        let y = hi.y + rng.range(0.3, 2.0);
        let tilt = rng.range(-0.3, 0.3);
        let q = Quat::from_rotation_y(rng.range(-3.1, 3.1));
        let corner = |sx: f32, sz: f32| c + q * Vec3::new(sx * w, y + tilt * sx * w, sz * d);
        let m = quad(
            &mut world,
            [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ],
        );
        place_mesh(&mut world, m, true);
    }
    for _ in 0..(rng.next_u64() % 3) {
        let c = at(&mut rng);
        let (w, d) = (rng.range(1.0, 3.0), rng.range(2.0, 5.0));
        let slope = rng.range(0.05, 1.4).tan();
        let base = (lo.y + hi.y) * 0.5;
        let q = Quat::from_rotation_y(rng.range(-3.1, 3.1));
        let corner = |sx: f32, sz: f32| c + q * Vec3::new(sx * w, base + slope * sz * d, sz * d);
        let m = quad(
            &mut world,
            [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ],
        );
        place_mesh(&mut world, m, true);
    }
    let mut walls = Vec::new();
    for _ in 0..(rng.next_u64() % 3) {
        let a = at(&mut rng);
        let dir = Quat::from_rotation_y(rng.range(-3.1, 3.1)) * Vec3::X;
        let b = a + dir * rng.range(3.0, 10.0);
        let (y0, y1) = (lo.y - 10.0, hi.y + 10.0);
        let m = quad(
            &mut world,
            [
                Vec3::new(a.x, y0, a.z),
                Vec3::new(b.x, y0, b.z),
                Vec3::new(b.x, y1, b.z),
                Vec3::new(a.x, y1, a.z),
            ],
        );
        place_mesh(&mut world, m, true);
        walls.push(Wall {
            a: [f64::from(a.x), f64::from(a.z)],
            b: [f64::from(b.x), f64::from(b.z)],
        });
    }
    let ground = Surfaces::new(triangles_since(&world, 0), 1.0);

    // Solids: boxes and balls on the terrain, and a closed rock (an octahedron, turned).
    let mut solids = Vec::new();
    for _ in 0..(rng.next_u64() % 3) {
        let c = at(&mut rng);
        let half = Vec3::new(rng.range(0.2, 2.0), 8.0, rng.range(0.2, 2.0));
        let (min, max) = (
            Vec3::new(c.x, lo.y - 4.0, c.z) - Vec3::new(half.x, 0.0, half.z),
            Vec3::new(c.x, hi.y + 4.0, c.z) + Vec3::new(half.x, 0.0, half.z),
        );
        world.add_obstacle(Obstacle::Box { min, max }).unwrap();
        solids.push(Solid::Box(min, max));
    }
    for _ in 0..(rng.next_u64() % 3) {
        let c = at(&mut rng) + Vec3::Y * rng.range(lo.y, hi.y);
        let radius = rng.range(0.5, 2.0);
        world
            .add_obstacle(Obstacle::Sphere { centre: c, radius })
            .unwrap();
        solids.push(Solid::Ball(v(c), f64::from(radius)));
    }
    if rng.chance(0.7) {
        let from = world.placed_obstacles().len();
        let s = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
        let ix = [
            0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5,
        ];
        let rock = world.add_mesh(&s, &ix).unwrap();
        let c = at(&mut rng) + Vec3::Y * rng.range(lo.y, hi.y);
        world
            .add_obstacle(Obstacle::Mesh {
                mesh: rock,
                position: c,
                rotation: Quat::from_rotation_y(rng.range(0.0, 3.0))
                    * Quat::from_rotation_x(rng.range(0.0, 1.0)),
                scale: Vec3::new(
                    rng.range(0.8, 2.5),
                    rng.range(1.0, 4.0),
                    rng.range(0.8, 2.5),
                ),
                ground: false,
            })
            .unwrap();
        solids.push(Solid::Rock(triangles_since(&world, from)));
    }

    // The flock's settings; its bounds reach 2 past the terrain's edges.
    let ground_settings = Ground {
        max_slope_deg: rng.range(20.0, 55.0),
        step_height: rng.range(0.15, 0.7),
        pivot_height: rng.range(0.0, 0.5),
        up: if rng.chance(0.5) {
            GroundUp::Normal
        } else {
            GroundUp::World
        },
    };
    let params = FlockParams {
        perception_radius: rng.range(1.0, 3.0),
        separation_radius: rng.range(0.3, 1.0),
        min_speed: rng.range(0.0, 0.5),
        max_speed: rng.range(1.0, 4.0),
        weights: Weights {
            wander: rng.range(0.0, 3.0),
            bounds: 4.0,
            obstacles: rng.range(0.0, 12.0),
            target: 3.0,
            ..Weights::default()
        },
        target: rng.chance(0.5).then(|| Target {
            point: at(&mut rng),
            avoid_distance: 0.0,
        }),
        bounds: Bounds::SoftBox {
            min: lo - Vec3::new(2.0, 50.0, 2.0),
            max: hi + Vec3::new(2.0, 50.0, 2.0),
            distance: 1.0,
        },
        obstacle_avoidance: if rng.chance(0.5) {
            ObstacleAvoidance::FreeDirection
        } else {
            ObstacleAvoidance::None
        },
        look_ahead: rng.range(0.0, 2.0),
        ground: Some(ground_settings),
        body_radius: if rng.chance(0.2) {
            0.0
        } else {
            rng.range(0.1, 0.35)
        },
        ..FlockParams::default()
    };
    Case {
        world,
        lo,
        hi,
        ground,
        walls,
        solids,
        params,
    }
}

/// Spawn points on walkable ground (a random surface of the ones over the point whose next
/// surface up is more than a step and a body above it: under a deck, or on it), clear of the
/// solids, the walls and each other.
fn spawn(case: &Case, n: usize, seed: u64) -> Vec<Vec3> {
    let g = case.params.ground.unwrap();
    let r = f64::from(case.params.body_radius);
    let cos = f64::from(g.max_slope_deg).to_radians().cos();
    let mut rng = Rng::keyed(seed, 1, 0, 0);
    let mut out: Vec<Vec3> = Vec::new();
    for _ in 0..200 * n {
        if out.len() == n {
            break;
        }
        let (x, z) = (
            f64::from(rng.range(case.lo.x, case.hi.x)),
            f64::from(rng.range(case.lo.z, case.hi.z)),
        );
        let mut s = case.ground.under(x, z);
        s.sort_by(|a, b| a.0.total_cmp(&b.0));
        let ok: Vec<usize> = (0..s.len())
            .filter(|&k| {
                s[k].1 > cos + 0.02
                    && s.get(k + 1).is_none_or(|u| {
                        u.0 - s[k].0 > f64::from(g.step_height + g.pivot_height) + 2.0 * r + 0.5
                    })
                    && (k == 0 || s[k].0 - s[k - 1].0 > 0.05)
            })
            .collect();
        if ok.is_empty() {
            continue;
        }
        let h = s[ok[(rng.next_u64() % ok.len() as u64) as usize]].0;
        let p = [x, h + f64::from(g.pivot_height), z];
        let clear = case.solids.iter().all(|o| o.clearance(p) > r + 0.1)
            && case.walls.iter().all(|w| {
                let (across, within) = w.side(p, -r - 0.2);
                across.abs() > r + 0.2 || !within
            })
            && out.iter().all(|q| length(sub(v(*q), p)) > 2.0 * r + 0.05);
        if clear {
            out.push(Vec3::new(x as f32, p[1] as f32, z as f32));
        }
    }
    out
}

/// Every boid against the oracle after `step`; `before` holds the positions before it.
/// `sides` remembers, per boid and wall, which side of the wall the boid was last seen clearly
/// on while within the wall's length.
fn check(
    case: &Case,
    id: boids_sim::FlockId,
    before: &[Vec3],
    sides: &mut [Option<bool>],
    step: usize,
) -> Result<(), String> {
    let p = &case.params;
    let g = p.ground.unwrap();
    let r = f64::from(p.body_radius);
    let cos = f64::from(g.max_slope_deg).to_radians().cos();
    let pos = case.world.flock(id).unwrap().positions();
    for (b, &q) in pos.iter().enumerate() {
        let at = v(q);
        let feet = at[1] - f64::from(g.pivot_height);
        let surfaces = case.ground.under(at[0], at[2]);
        let stood: Vec<_> = surfaces
            .iter()
            .filter(|(h, _)| (h - feet).abs() <= 1e-3)
            .collect();
        if stood.is_empty() {
            let near: Vec<_> = case
                .ground
                .triangles()
                .iter()
                .filter_map(|t| oracle::shadow(*t, at[0], at[2], 0.05).map(|s| (s, *t)))
                .collect();
            return Err(format!(
                "step {step}, boid {b} at {q}: not on ground ({surfaces:?}); near: {near:?}; before {}",
                before[b]
            ));
        }
        if !stood.iter().any(|(_, ny)| *ny >= cos - 1e-4) {
            return Err(format!(
                "step {step}, boid {b} at {q}: on ground steeper than {}° ({stood:?}); before {}",
                g.max_slope_deg, before[b]
            ));
        }
        let was = v(before[b]);
        let rise = (at[1] - was[1]).abs();
        if rise > f64::from(g.step_height) + 1e-3 {
            return Err(format!(
                "step {step}, boid {b}: from {} to {q}: a climb or drop of {rise}, over the step",
                before[b]
            ));
        }
        // A zero-thickness wall: a boid may end on it (within rounding, either side); it must
        // not turn up clearly on its other side without having gone round one of its ends.
        for (k, w) in case.walls.iter().enumerate() {
            let (across, within) = w.side(at, 0.05);
            let memory = &mut sides[b * case.walls.len() + k];
            if !within {
                *memory = None;
            } else if across.abs() > oracle::EDGE {
                if memory.is_some_and(|m| m != (across > 0.0)) {
                    return Err(format!(
                        "step {step}, boid {b}: from {} to {q}, through wall {k} ({across} across, {} before)",
                        before[b],
                        w.side(was, 0.05).0
                    ));
                }
                *memory = Some(across > 0.0);
            }
        }
        for (k, o) in case.solids.iter().enumerate() {
            let c = o.clearance(at);
            if c < r * 0.99 - 1e-3 {
                return Err(format!(
                    "step {step}, boid {b} at {q}: {c} from solid {k} (radius {r}; {}), before {} ({} from it)",
                    match o {
                        Solid::Box(lo, hi) => format!("box {lo} .. {hi}"),
                        Solid::Ball(c, r) => format!("ball {c:?} radius {r}"),
                        Solid::Rock(t) => format!("rock of {} triangles", t.len()),
                    },
                    before[b],
                    o.clearance(v(before[b]))
                ));
            }
        }
    }
    if r > 0.0 {
        let mut order: Vec<usize> = (0..pos.len()).collect();
        order.sort_by(|&a, &b| pos[a].x.total_cmp(&pos[b].x));
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                if f64::from(pos[j].x) - f64::from(pos[i].x) >= 2.0 * r {
                    break;
                }
                let d = length(sub(v(pos[i]), v(pos[j])));
                if d < 2.0 * r - 0.01 * r {
                    return Err(format!(
                        "step {step}: bodies {i} and {j} overlap by {} of the radius",
                        (2.0 * r - d) / r
                    ));
                }
            }
        }
    }
    Ok(())
}

fn run(seed: u64) -> Result<(), String> {
    let mut case = build(seed);
    let id = case.world.create_flock("walkers", case.params).unwrap();
    let at = spawn(&case, 60, seed);
    if at.len() < 10 {
        return Ok(()); // a scene with hardly any walkable ground: nothing to check
    }
    let mut rng = Rng::keyed(seed, 2, 0, 0);
    let vel: Vec<Vec3> = at
        .iter()
        .map(|_| Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)))
        .collect();
    case.world.add_boids(id, &at, &vel).unwrap();
    let mut walked = 0.0;
    let mut sides = vec![None; at.len() * case.walls.len()];
    for step in 0..STEPS {
        let before = case.world.flock(id).unwrap().positions().to_vec();
        case.world.step(DT).unwrap();
        check(&case, id, &before, &mut sides, step)?;
        let after = case.world.flock(id).unwrap().positions();
        walked += before
            .iter()
            .zip(after)
            .map(|(a, b)| f64::from((*a - *b).length()))
            .sum::<f64>();
    }
    // They walked: the walls and bodies did not just freeze them.
    let mean = walked / at.len() as f64;
    if mean < 0.5 {
        return Err(format!(
            "the flock hardly moved: {mean} each over {STEPS} steps"
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // PROPTEST_CASES=N runs N scenes.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(6),
        ..ProptestConfig::default()
    })]

    #[test]
    fn grounded_boids_on_random_scenes_stand_on_walkable_ground_clear_of_walls_and_each_other(
        seed in any::<u64>(),
    ) {
        if let Err(e) = run(seed) {
            prop_assert!(false, "scene {seed}: {e}");
        }
    }
}

/// One scene by its seed, with what it holds: `SEED=n cargo test -p boids-sim --test
/// ground_random one_scene -- --ignored --nocapture`.
#[test]
#[ignore = "a tool: runs the scene SEED names"]
fn one_scene() {
    let seed: u64 = std::env::var("SEED")
        .expect("SEED=n")
        .parse()
        .expect("SEED: a u64");
    let case = build(seed);
    println!(
        "terrain {} .. {}; {} ground triangles, {} walls, {} solids; {:?}",
        case.lo,
        case.hi,
        case.ground.triangles().len(),
        case.walls.len(),
        case.solids.len(),
        case.params
    );
    if let Err(e) = run(seed) {
        panic!("scene {seed}: {e}");
    }
}
