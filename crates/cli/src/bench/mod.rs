//! `boids bench`: the benchmark scenario, timed step by step from one saved state.

use boids_sim::BoidState;
use boids_sim::IndexKind;
use boids_sim::builtin::{
    CLUSTER_RADIUS, CLUSTERS, LevelGround, ReefObstacles, TORUS2D_DT, bench_cube_side, bench_world,
    clustered_world, level_ground, level_world, naive_step, reef_layout, reef_world, torus2d_side,
    torus2d_world,
};
use boids_sim::scene::MeshSpec;
use boids_sim::{FlockId, FlockSnapshot, SimdLevel, World, WorldConfig};
use boids_sim::{Obstacle, ObstacleAvoidance, Quat, Vec3};
use std::time::Instant;

mod herd;
mod maze;
mod worlds;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Number of boids.
    #[arg(long, default_value_t = 100_000)]
    boids: usize,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Neighbour index.
    #[arg(long, value_enum, default_value_t = IndexArg::Grid)]
    index: IndexArg,
    /// Timed steps (the median is reported).
    #[arg(long, default_value_t = 30)]
    steps: usize,
    /// Untimed warm-up steps.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Use only the k nearest neighbours (k-d tree path); 0 = all within the radius.
    #[arg(long, default_value_t = 0)]
    k: u32,
    /// Let the flock move freely instead of restarting every step from the saved state.
    #[arg(long)]
    free: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Which scenario (shared/design/bench-scenario.md): `bench`, the 3-D fish cube;
    /// `torus2d`, krABMaga's Flockers load (2-D torus, radius 10, ~31 neighbours, wander);
    /// `clustered`, 32 dense balls far apart in a large cube; `reef`, fish among generated
    /// rocks (about 20,000 triangles at 100,000 boids) over a heightfield seabed, timed three
    /// ways: with the meshes, with bounding spheres and a plane instead, and with no obstacles;
    /// `level`, the reef's school over a game level's ground, a 1,015,808-triangle mesh
    /// (terrain and rocks) and a 2049 x 2049 heightfield: the ground's create, memory and move
    /// costs, and the step with free-direction search, reflect, and avoidance off; `herd`, the
    /// herd preset's sheep over a 2049 x 2049 heightfield with rocks, walking with bodies,
    /// walking without, and flying (the ground off); `maze`, the maze preset's walls over a
    /// 2049 x 2049 heightfield with flow cells of 2: the terrain's survey, a field after the
    /// target moves, and walkers reading the field against seeking in a straight line;
    /// `worlds`, 16 worlds of the benchmark scenario with `--boids` each (a game's many small
    /// flocks): a frame of one step each, one after another against overlapped on the engine's
    /// pool and on a host's job system.
    #[arg(long, value_enum, default_value_t = ScenarioArg::Bench)]
    scenario: ScenarioArg,
    /// `--scenario level` only: the side of the level's square, in units (its triangles and
    /// samples packed closer on a smaller one; 32 gives heightfield cells of 0.016).
    #[arg(long, default_value_t = boids_sim::builtin::LEVEL_SIDE)]
    level_side: f32,
    /// Force the kernel's instruction set (default: the fastest this CPU has; BOIDS_SIMD
    /// also works). Every choice gives the same bits.
    #[arg(long, value_enum)]
    simd: Option<SimdArg>,
    /// `--scenario bench`, `torus2d` or `clustered`: also time what a renderer reads after
    /// each step (positions, orientations and 4x4 matrices, in id order, through the same
    /// calls as the C ABI's bulk reads), in ns a boid and as a share of the step.
    #[arg(long)]
    frame: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ScenarioArg {
    Bench,
    Torus2d,
    Clustered,
    Reef,
    Level,
    Herd,
    Maze,
    Worlds,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SimdArg {
    Scalar,
    Sse2,
    Avx2,
    Avx512,
    Neon,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum IndexArg {
    Grid,
    Kdtree,
    Brute,
    /// The tutorials' algorithm: every boid scans every other, one thread (the baseline).
    Naive,
}

pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

/// Peak resident set of this process, bytes (Linux), if known.
fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn bench(a: &BenchArgs) -> Result<(), String> {
    if a.boids == 0 || a.steps == 0 {
        return Err("--boids and --steps must be at least 1".into());
    }
    let (kind, name) = match a.index {
        IndexArg::Grid => (IndexKind::Grid, "grid"),
        IndexArg::Kdtree => (IndexKind::KdTree, "kdtree"),
        IndexArg::Brute => (IndexKind::BruteForce, "brute"),
        IndexArg::Naive => (IndexKind::BruteForce, "naive"),
    };
    let naive = matches!(a.index, IndexArg::Naive);
    if naive && a.scenario != ScenarioArg::Bench {
        return Err("--index naive runs on --scenario bench only".into());
    }
    let simd = a.simd.map(|s| match s {
        SimdArg::Scalar => SimdLevel::Scalar,
        SimdArg::Sse2 => SimdLevel::Sse2,
        SimdArg::Avx2 => SimdLevel::Avx2,
        SimdArg::Avx512 => SimdLevel::Avx512,
        SimdArg::Neon => SimdLevel::Neon,
    });
    let config = WorldConfig {
        seed: a.seed,
        threads: a.threads,
        simd,
    };
    if a.scenario != ScenarioArg::Level && a.level_side != boids_sim::builtin::LEVEL_SIDE {
        return Err("--level-side runs on --scenario level only".into());
    }
    if a.frame
        && !matches!(
            a.scenario,
            ScenarioArg::Bench | ScenarioArg::Torus2d | ScenarioArg::Clustered
        )
    {
        return Err("--frame runs on --scenario bench, torus2d or clustered".into());
    }
    if a.frame && naive {
        return Err("--frame times the engine's reads, not --index naive".into());
    }
    if a.scenario == ScenarioArg::Level {
        if !(a.level_side >= 4.0 && a.level_side <= 4096.0) {
            return Err(format!(
                "--level-side must be in [4, 4096], got {}",
                a.level_side
            ));
        }
        if a.k > 0 {
            return Err("--k runs on the other scenarios".into());
        }
        return level(a, config, kind);
    }
    if a.scenario == ScenarioArg::Herd {
        if a.k > 0 {
            return Err("--k runs on the other scenarios".into());
        }
        return herd::herd(a, config, kind);
    }
    if a.scenario == ScenarioArg::Worlds {
        if a.k > 0 {
            return Err("--k runs on the other scenarios".into());
        }
        return worlds::worlds(a, config, kind);
    }
    if a.scenario == ScenarioArg::Maze {
        if a.k > 0 {
            return Err("--k runs on the other scenarios".into());
        }
        return maze::maze_bench(a, config, kind);
    }
    let rss0 = peak_rss();
    let (mut world, id) = match a.scenario {
        ScenarioArg::Bench => bench_world(a.boids, config, kind),
        ScenarioArg::Torus2d => torus2d_world(a.boids, config, kind),
        ScenarioArg::Clustered => clustered_world(a.boids, config, kind),
        ScenarioArg::Reef => reef_world(a.boids, config, kind, ReefObstacles::Meshes),
        ScenarioArg::Level | ScenarioArg::Herd | ScenarioArg::Maze | ScenarioArg::Worlds => {
            unreachable!("timed above")
        }
    }
    .map_err(|e| e.to_string())?;
    if a.k > 0 {
        let mut p = *world.flock(id).expect("bench flock").params();
        p.max_neighbours = a.k;
        world.set_params(id, p).map_err(|e| e.to_string())?;
    }
    let dt = if a.scenario == ScenarioArg::Torus2d {
        TORUS2D_DT
    } else {
        1.0 / 60.0
    };
    let t = time_steps(&mut world, id, a, dt, naive)?;
    if a.scenario == ScenarioArg::Reef {
        // The same scene with stand-ins for the rocks and seabed, and with nothing at all.
        let other = |o| -> Result<Timed, String> {
            let (mut w, id) = reef_world(a.boids, config, kind, o).map_err(|e| e.to_string())?;
            time_steps(&mut w, id, a, dt, false)
        };
        let spheres = other(ReefObstacles::StandIns)?;
        let none = other(ReefObstacles::None)?;
        let layout = reef_layout(a.boids);
        let mut triangles = 0usize;
        for o in world.placed_obstacles() {
            if let boids_sim::Placed::Mesh { shape, .. } = o
                && !shape.is_heightfield()
            {
                triangles += shape.triangle_count();
            }
        }
        let side = (2.0 * layout.half) as u32 + 1;
        out!(
            "scenario reef: {} rocks ({triangles} triangles) on a {side}x{side} heightfield seabed, water {} deep, free-direction search, dt 1/60",
            layout.rocks,
            layout.depth
        );
        out!("  boids                {}", a.boids);
        out!("  threads              {}", world.threads());
        out!(
            "  timed steps          {} (after {} warm-up), {}",
            a.steps,
            a.warmup,
            if a.free {
                "a free-moving flock"
            } else {
                "every step from the saved state"
            }
        );
        out!("  ms/step, meshes      {:.3}", t.ms);
        out!(
            "  ms/step, stand-ins   {:.3} (bounding spheres and a plane)",
            spheres.ms
        );
        out!("  ms/step, no obstacles {:.3}", none.ms);
        let ratio = t.ms / spheres.ms;
        let cast = (t.ms - none.ms) * 1e6 / a.boids as f64;
        let cast_spheres = (spheres.ms - none.ms) * 1e6 / a.boids as f64;
        out!("  meshes / stand-ins   {ratio:.2}x");
        out!("  casts per boid       {cast:.0} ns (stand-ins {cast_spheres:.0} ns)");
        out!(
            "bench scenario=reef n={} threads={} rocks={} triangles={triangles} ms_per_step={:.4} stand_ins_ms={:.4} no_obstacles_ms={:.4} ratio={ratio:.3} cast_ns_per_boid={cast:.1} stand_in_cast_ns_per_boid={cast_spheres:.1}",
            a.boids,
            world.threads(),
            layout.rocks,
            t.ms,
            spheres.ms,
            none.ms
        );
        return Ok(());
    }
    let Timed {
        ms,
        build,
        neighbours,
        in_radius,
        reads,
    } = t;
    let flock = world.flock(id).expect("bench flock");
    let per_boid = neighbours as f64 / (a.steps * a.boids) as f64;
    let radius_per_boid = in_radius as f64 / (a.steps * a.boids) as f64;
    let bytes = flock.heap_bytes() as f64 / a.boids as f64;
    let rss = match (rss0, peak_rss()) {
        (Some(a0), Some(a1)) => format!("{:.1}", (a1.saturating_sub(a0)) as f64 / a.boids as f64),
        _ => "n/a".into(),
    };
    let threads = if naive { 1 } else { world.threads() };
    // Nanoseconds of one core per neighbour within the radius: comparable across machines,
    // sizes and thread counts (the cost the kernel pays per pair it sums over).
    let cores = if a.boids < boids_sim::STEP_PARALLEL_MIN {
        1
    } else {
        threads
    };
    let ns_per_pair = if in_radius == 0 {
        0.0 // the naive baseline counts no pairs
    } else {
        ms * 1e6 * cores as f64 / in_radius as f64 * a.steps as f64
    };
    match a.scenario {
        ScenarioArg::Bench => out!(
            "scenario bench: fish-tank rules, radius 1, fov 90 deg, cube side {:.2}, dt 1/60",
            bench_cube_side(a.boids)
        ),
        ScenarioArg::Torus2d => out!(
            "scenario torus2d: 2-D torus of side {}, radius 10, fov 360 deg, speed 0.7, wander, dt 1",
            torus2d_side(a.boids)
        ),
        ScenarioArg::Clustered => out!(
            "scenario clustered: fish-tank rules, {CLUSTERS} balls of radius {CLUSTER_RADIUS} in a 1000-unit cube, dt 1/60"
        ),
        ScenarioArg::Reef
        | ScenarioArg::Level
        | ScenarioArg::Herd
        | ScenarioArg::Maze
        | ScenarioArg::Worlds => {
            unreachable!("reported above")
        }
    }
    out!("  boids                {}", a.boids);
    out!("  threads              {threads}");
    out!("  kernel               {}", world.simd());
    out!(
        "  index                {name}{}",
        if a.k > 0 {
            format!(" (k = {})", a.k)
        } else {
            String::new()
        }
    );
    out!(
        "  mode                 {}",
        if a.free {
            "free-moving flock"
        } else {
            "every step from the saved state"
        }
    );
    out!(
        "  timed steps          {} (after {} warm-up)",
        a.steps,
        a.warmup
    );
    out!("  ms/step (median)     {ms:.3}");
    out!("  index build (median) {build:.3} ms");
    out!("  ns/boid/step         {:.1}", ms * 1e6 / a.boids as f64);
    out!("  neighbours/boid      {per_boid:.2} used ({radius_per_boid:.2} within the radius)");
    if !naive {
        out!("  ns per in-radius neighbour per core {ns_per_pair:.2}");
    }
    out!("  engine bytes/boid    {bytes:.1}");
    out!("  peak RSS growth/boid {rss}");
    if let Some([p, o, m]) = reads {
        let ns = |ms: f64| ms * 1e6 / a.boids as f64;
        let all = p + o + m;
        out!(
            "  frame reads (median) positions {:.2}, orientations {:.2}, matrices {:.2} ns/boid",
            ns(p),
            ns(o),
            ns(m)
        );
        out!(
            "  frame                {:.1} ns/boid: the step {:.1} + the reads {:.2} ({:.1}% of the step)",
            ns(ms + all),
            ns(ms),
            ns(all),
            100.0 * all / ms
        );
        out!(
            "bench frame n={} threads={threads} simd={} step_ns_per_boid={:.3} positions_ns_per_boid={:.3} orientations_ns_per_boid={:.3} matrices_ns_per_boid={:.3} reads_ns_per_boid={:.3} reads_share={:.4}",
            a.boids,
            world.simd(),
            ns(ms),
            ns(p),
            ns(o),
            ns(m),
            ns(all),
            all / ms
        );
    }
    out!(
        "bench scenario={} n={} threads={threads} index={name} simd={} ms_per_step={ms:.4} build_ms={build:.4} neighbours_per_boid={per_boid:.3} in_radius_per_boid={radius_per_boid:.3} ns_per_in_radius_neighbour_core={ns_per_pair:.2} bytes_per_boid={bytes:.1} k={}",
        match a.scenario {
            ScenarioArg::Bench => "bench",
            ScenarioArg::Torus2d => "torus2d",
            ScenarioArg::Clustered => "clustered",
            ScenarioArg::Reef => "reef",
            ScenarioArg::Level => "level",
            ScenarioArg::Herd => "herd",
            ScenarioArg::Maze => "maze",
            ScenarioArg::Worlds => "worlds",
        },
        a.boids,
        world.simd(),
        a.k
    );
    Ok(())
}

/// `--scenario level`: for each ground, its create, memory and move costs, then the step with
/// the free-direction search, with reflect, and with avoidance off, in one run.
fn level(a: &BenchArgs, config: WorldConfig, kind: IndexKind) -> Result<(), String> {
    let dt = 1.0 / 60.0;
    out!(
        "scenario level: the reef's school over a {side}x{side} game level, dt 1/60",
        side = a.level_side
    );
    out!("  boids                {}", a.boids);
    let mut off_ms = None;
    for ground in [LevelGround::Mesh, LevelGround::Heightfield] {
        let (spec, corner) = level_ground(a.boids, ground, a.level_side);
        let name = match ground {
            LevelGround::Mesh => "mesh",
            LevelGround::Heightfield => "heightfield",
        };
        let mut times = Vec::new();
        for avoid in [
            ObstacleAvoidance::FreeDirection,
            ObstacleAvoidance::Reflect,
            ObstacleAvoidance::None,
        ] {
            if avoid == ObstacleAvoidance::None
                && let Some(ms) = off_ms
            {
                times.push(ms);
                continue;
            }
            let (mut world, id) =
                level_world(a.boids, config, kind, avoid).map_err(|e| e.to_string())?;
            if avoid == ObstacleAvoidance::FreeDirection {
                // Create, memory, place and move, timed once (the first world only).
                let t = Instant::now();
                let mesh = add_level_data(&mut world, &spec)?;
                let create = t.elapsed().as_secs_f64() * 1e3;
                let shape = world.mesh(mesh).expect("just added");
                let (tris, bytes) = (shape.triangle_count(), shape.heap_bytes());
                let at = |x: f32| level_obstacle(mesh, corner + Vec3::new(x, 0.0, 0.0), ground);
                let t = Instant::now();
                let o = world.add_obstacle(at(0.0)).map_err(|e| e.to_string())?;
                let place = t.elapsed().as_secs_f64() * 1e3;
                let mut moves = Vec::new();
                for k in 0..21 {
                    let t = Instant::now();
                    world
                        .set_obstacle(o, at(if k % 2 == 0 { 0.5 } else { 0.0 }))
                        .map_err(|e| e.to_string())?;
                    moves.push(t.elapsed().as_secs_f64() * 1e3);
                }
                world.set_obstacle(o, at(0.0)).map_err(|e| e.to_string())?;
                out!(
                    "  {name:<12} {tris} triangles: create {create:.1} ms, {:.1} MB held (heights or vertices: {:.1} MB), place {place:.3} ms, move {:.4} ms",
                    bytes as f64 / 1e6,
                    match &spec {
                        MeshSpec::Heightfield { heights, .. } => heights.len() as f64 * 4e-6,
                        MeshSpec::Mesh { vertices, .. } => vertices.len() as f64 * 12e-6,
                        _ => 0.0,
                    },
                    median(&mut moves)
                );
                out!(
                    "bench scenario=level ground={name} triangles={tris} create_ms={create:.3} held_bytes={bytes} place_ms={place:.4} move_ms={:.5}",
                    median(&mut moves)
                );
            } else if avoid != ObstacleAvoidance::None {
                let mesh = add_level_data(&mut world, &spec)?;
                world
                    .add_obstacle(level_obstacle(mesh, corner, ground))
                    .map_err(|e| e.to_string())?;
            }
            let t = time_steps(&mut world, id, a, dt, false)?;
            times.push(t.ms);
            if avoid == ObstacleAvoidance::None {
                off_ms = Some(t.ms);
                out!("  threads              {}", world.threads());
            }
        }
        let [free, reflect, off] = [times[0], times[1], times[2]];
        out!(
            "  {name:<12} ms/step: free-direction {free:.3} ({:.1}x off), reflect {reflect:.3} ({:.1}x off), avoidance off {off:.3}",
            free / off,
            reflect / off
        );
        out!(
            "bench scenario=level ground={name} n={} free_ms={free:.4} reflect_ms={reflect:.4} off_ms={off:.4} free_ratio={:.2} reflect_ratio={:.2}",
            a.boids,
            free / off,
            reflect / off
        );
    }
    Ok(())
}

/// Uploads the level's ground data to `world`.
fn add_level_data(world: &mut World, spec: &MeshSpec) -> Result<boids_sim::MeshId, String> {
    match spec {
        MeshSpec::Mesh { vertices, indices } => world.add_mesh(vertices, indices),
        MeshSpec::Heightfield {
            columns,
            rows,
            cell_x,
            cell_z,
            heights,
        } => world.add_heightfield(*columns, *rows, *cell_x, *cell_z, heights),
        _ => unreachable!("the level's ground is data"),
    }
    .map_err(|e| e.to_string())
}

/// The level's ground placed at `position`.
fn level_obstacle(mesh: boids_sim::MeshId, position: Vec3, ground: LevelGround) -> Obstacle {
    match ground {
        LevelGround::Mesh => Obstacle::Mesh {
            mesh,
            position,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            ground: false,
        },
        LevelGround::Heightfield => Obstacle::Heightfield {
            field: mesh,
            position,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
            ground: false,
        },
    }
}

/// Medians of a run of timed steps.
pub(crate) struct Timed {
    ms: f64,
    build: f64,
    neighbours: u64,
    in_radius: u64,
    /// With `--frame`: the medians of the reads after each step, ms (positions, orientations,
    /// matrices).
    reads: Option<[f64; 3]>,
}

/// A renderer's buffers, allocated once, and the times of its reads after each step.
struct FrameReads {
    positions: Vec<[f32; 3]>,
    orientations: Vec<[f32; 4]>,
    matrices: Vec<[f32; 16]>,
    ms: [Vec<f64>; 3],
}

impl FrameReads {
    fn new(n: usize) -> Self {
        FrameReads {
            positions: vec![[0.0; 3]; n],
            orientations: vec![[0.0; 4]; n],
            matrices: vec![[0.0; 16]; n],
            ms: Default::default(),
        }
    }

    /// Reads the flock as a renderer would after a step, timing each read.
    fn read(&mut self, world: &World, id: FlockId) -> Result<(), String> {
        let err = |e: boids_sim::Error| e.to_string();
        let t = Instant::now();
        world.read_positions(id, &mut self.positions).map_err(err)?;
        let t1 = Instant::now();
        world
            .read_orientations(id, &mut self.orientations)
            .map_err(err)?;
        let t2 = Instant::now();
        world
            .read_matrices(id, 1.0, &mut self.matrices)
            .map_err(err)?;
        let t3 = Instant::now();
        for (v, (a, b)) in self.ms.iter_mut().zip([(t, t1), (t1, t2), (t2, t3)]) {
            v.push((b - a).as_secs_f64() * 1e3);
        }
        Ok(())
    }
}

/// Restores the saved state before a timed step: not part of the step, so `scripts/profile`
/// leaves it out of its counts by this function's name (never inlined, so the name is there).
#[inline(never)]
pub(crate) fn bench_restore(
    world: &mut World,
    id: FlockId,
    snapshot: &FlockSnapshot,
) -> Result<(), String> {
    world.restore(id, snapshot).map_err(|e| e.to_string())
}

/// Times `a.steps` steps of flock `id` (after `a.warmup`), each from the same saved state
/// unless `a.free`.
fn time_steps(
    world: &mut World,
    id: FlockId,
    a: &BenchArgs,
    dt: f32,
    naive: bool,
) -> Result<Timed, String> {
    // The saved state is the one after a first step: the engine keeps its boids in the grid's
    // cell order from step to step, so this is the state a running world steps from. Every timed
    // step restores it and pays the whole step (sort, neighbours, rules) again.
    if !naive {
        world.step(dt).map_err(|e| e.to_string())?;
    }
    let snapshot = world.flock(id).expect("bench flock").snapshot();
    let mut step_ms = Vec::with_capacity(a.steps);
    let mut build_ms = Vec::with_capacity(a.steps);
    let mut neighbours = 0u64;
    let mut in_radius = 0u64;
    let mut last_pairs = 0u64;
    let mut frame =
        (a.frame && !naive).then(|| FrameReads::new(world.flock(id).expect("bench flock").len()));
    for k in 0..a.warmup + a.steps {
        if !a.free {
            bench_restore(world, id, &snapshot)?;
        }
        if k >= a.warmup && !naive {
            // The pairs within the radius of the state this step starts from (counted apart,
            // untimed; the same every step unless `--free`).
            if a.free || k == a.warmup {
                last_pairs = world.flock(id).expect("bench flock").pairs_within_radius();
            }
            in_radius += last_pairs;
        }
        let (b, s) = if naive {
            let f = world.flock(id).expect("bench flock");
            let state: Vec<BoidState> = (0..f.len()).map(|i| f.boid(i)).collect();
            let params = *f.params();
            let t = Instant::now();
            let (next, used) = naive_step(&state, &params, dt);
            let s = t.elapsed().as_secs_f64() * 1e3;
            if k >= a.warmup {
                neighbours += used;
            }
            let pos: Vec<_> = next.iter().map(|b| b.position).collect();
            let vel: Vec<_> = next.iter().map(|b| b.velocity).collect();
            world
                .write_state(id, Some(&pos), Some(&vel))
                .map_err(|e| e.to_string())?;
            (0.0, s)
        } else {
            // The index build, timed alone (then the state restored, untimed); then the whole
            // step, which sorts and indexes first, as a caller pays it: one hand-over to the
            // pool, not one for the build and one for the rest.
            // (`--free` cannot restore: there the build is timed first, inside the step's
            // time, as the two calls.)
            let t = Instant::now();
            world.build_indices();
            let b = t.elapsed().as_secs_f64() * 1e3;
            let t = if a.free {
                t
            } else {
                bench_restore(world, id, &snapshot)?;
                Instant::now()
            };
            world.step(dt).map_err(|e| e.to_string())?;
            (b, t.elapsed().as_secs_f64() * 1e3)
        };
        if k >= a.warmup {
            step_ms.push(s);
            build_ms.push(b);
            if !naive {
                let f = world.flock(id).expect("bench flock");
                neighbours += f.last_step_neighbours();
            }
            if let Some(frame) = &mut frame {
                frame.read(world, id)?;
            }
        }
    }
    Ok(Timed {
        ms: median(&mut step_ms),
        build: median(&mut build_ms),
        neighbours,
        in_radius,
        reads: frame.map(|mut f| f.ms.each_mut().map(|v| median(v))),
    })
}
