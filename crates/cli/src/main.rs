//! The `boids` command: run a flock and write pictures and data, list presets, benchmark.

/// `println!` that ignores a closed pipe (`boids run | head -1` must not panic).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// `eprintln!` that ignores a closed standard error (a terminal that went away, a reader that
/// exited): `eprintln!` panics there.
macro_rules! err {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod bench;
mod compare;
mod output;
mod render;

use boids_sim::metrics::measure;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use output::{GifOut, MetricsRow, Pending, Trajectories};
use render::{Camera, Projection};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "boids",
    version,
    about = "Native flocking engine: run, picture and benchmark flocks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a flock and write a GIF, a PNG, trajectories and metrics.
    #[command(after_help = "\
Examples:
  boids run                                   # 3-D school, 600 steps, writes flock.gif
  boids run --preset fish-tank --out tank.gif --out tank.png
  boids run --boids 5000 --steps 300 --out run.csv --out run.json --metrics m.csv --metrics m.png
  boids run --scenario my.toml --seed 7 --projection top

Outputs by extension: .gif (animation), .png (last frame with trails), .csv and .json
(trajectories every --every steps); --metrics takes .csv or .png. Files are written to a
temporary name and renamed when complete. Bad input: one error line, exit code 2.")]
    Run(RunArgs),
    /// Compare two trajectory CSVs: per flock, the first step where they diverge and the largest
    /// deviation. Exit 1 when they differ by more than --tolerance.
    #[command(
        after_help = "Examples:\n  boids run --preset shark --steps 300 --out a.csv\n  boids run --preset shark --steps 300 --threads 1 --out b.csv\n  boids compare a.csv b.csv\n  boids compare a.csv c.csv --tolerance 0.001"
    )]
    Compare(CompareArgs),
    /// List the presets, one a line: name, then what it is; or print one as a scenario file.
    #[command(after_help = "Examples:\n  boids presets\n  boids presets --show shark > shark.toml")]
    Presets(PresetsArgs),
    /// Time a benchmark scenario (fish-tank rules, ~25 neighbours per boid, dt 1/60; or
    /// torus2d, clustered).
    #[command(
        after_help = "Examples:\n  boids bench --boids 100000\n  boids bench --boids 10000 --threads 1 --index kdtree --steps 50\n  boids bench --scenario torus2d --boids 128000\n  boids bench --boids 1000 --index naive"
    )]
    Bench(bench::BenchArgs),
}

#[derive(clap::Args)]
struct PresetsArgs {
    /// Print this preset as a complete scenario file (every field written out).
    #[arg(long)]
    show: Option<String>,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Run a preset (see `boids presets`).
    #[arg(long, conflicts_with = "scenario")]
    preset: Option<String>,
    /// Run a scenario file (TOML; the schema, with every field, is in docs/scenario.md).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Boids: of the built-in school (default 2000), or of the preset's or scenario's flock
    /// (refused when the scenario spawns several flocks).
    #[arg(long, value_parser = positive::<usize>)]
    boids: Option<usize>,
    /// Steps to run (default: 600, or the scenario's).
    #[arg(long, allow_hyphen_values = true, value_parser = positive::<u64>)]
    steps: Option<u64>,
    /// Seed of every random draw (default: 1, or the scenario's).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads, 0 = one per core (default: 0, or the scenario's).
    #[arg(long)]
    threads: Option<usize>,
    /// Output file, by extension: .gif, .png, .csv, .json (repeat for several).
    #[arg(long = "out")]
    out: Vec<PathBuf>,
    /// Metrics file: .csv or .png (repeat for both).
    #[arg(long = "metrics")]
    metrics: Vec<PathBuf>,
    /// Record a frame / sample every this many steps.
    #[arg(long, default_value_t = 4)]
    every: u64,
    /// Camera.
    #[arg(long, value_enum, default_value_t = Projection::Perspective)]
    projection: Projection,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 480)]
    width: u32,
    /// Picture height in pixels.
    #[arg(long, default_value_t = 360)]
    height: u32,
    /// Print the rounded digest of the run (6 significant digits, every --every steps; see
    /// docs/snapshot-testing.md): pin it to catch a change of behaviour.
    #[arg(long)]
    digest: bool,
    /// Continue a world saved with --save: --steps more steps (default 600), dt --dt.
    #[arg(long, conflicts_with_all = ["preset", "scenario", "boids", "seed"])]
    load: Option<PathBuf>,
    /// Save the whole world to this file (at the end, or at --save-at); --load continues it
    /// exactly.
    #[arg(long)]
    save: Option<PathBuf>,
    /// The step (counted in this run) after which --save writes.
    #[arg(long, requires = "save", value_parser = positive::<u64>)]
    save_at: Option<u64>,
    /// Seconds a step (default: 1/60, or the scenario's).
    #[arg(long)]
    dt: Option<f32>,
}

#[derive(clap::Args)]
struct CompareArgs {
    /// Trajectories written by `boids run --out a.csv`.
    a: PathBuf,
    /// The other run's trajectories.
    b: PathBuf,
    /// Largest position difference (world units) still counted as equal.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    tolerance: f64,
}

/// What a run steps: a world, how many steps, how long each.
struct Setup {
    world: boids_sim::World,
    steps: u64,
    dt: f32,
}

/// A whole number of at least 1, with our own message (`--steps -5` included).
fn positive<T: std::str::FromStr + PartialOrd + From<u8>>(s: &str) -> Result<T, String> {
    match s.parse::<T>() {
        Ok(v) if v >= T::from(1) => Ok(v),
        _ => Err(format!("must be a whole number of at least 1, got '{s}'")),
    }
}

fn ext(p: &Path) -> String {
    p.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// `n` with a comma between each group of three digits: 1,874.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn run(a: &RunArgs) -> Result<(), String> {
    if a.every == 0 {
        return Err("--every must be at least 1".into());
    }
    if !(16..=4096).contains(&a.width) || !(16..=4096).contains(&a.height) {
        return Err("--width and --height must be 16..=4096".into());
    }
    let mut outs = a.out.clone();
    if outs.is_empty() && a.metrics.is_empty() {
        outs.push(PathBuf::from("flock.gif"));
    }
    for p in &outs {
        if !matches!(ext(p).as_str(), "gif" | "png" | "csv" | "json") {
            return Err(format!(
                "--out {}: unknown kind (use .gif, .png, .csv or .json)",
                p.display()
            ));
        }
    }
    for p in &a.metrics {
        if !matches!(ext(p).as_str(), "csv" | "png") {
            return Err(format!(
                "--metrics {}: unknown kind (use .csv or .png)",
                p.display()
            ));
        }
    }
    // Two outputs to one path would overwrite each other.
    let all: Vec<&PathBuf> = outs.iter().chain(&a.metrics).collect();
    for (i, p) in all.iter().enumerate() {
        if all[..i].iter().any(|q| q == p) {
            return Err(format!(
                "{} is given as two outputs; each output needs its own path",
                p.display()
            ));
        }
    }
    // Refuse unwritable targets before simulating anything.
    for p in outs.iter().chain(&a.metrics) {
        drop(Pending::create(p)?);
    }

    // Everything runs as a scene; the flags override it, field by field.
    let mut scene = match (&a.preset, &a.scenario) {
        (Some(p), _) => boids_sim::presets::get(p)
            .map_err(|e| e.to_string())?
            .scene(p),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            boids_sim::Scene::from_toml(&text, &path.display().to_string())?
        }
        (None, None) => boids_sim::builtin::default_school_scene(a.boids.unwrap_or(2000)),
    };
    if let Some(n) = a.boids {
        let spawned: Vec<usize> = (0..scene.flock.len())
            .filter(|&i| scene.flock[i].count > 0)
            .collect();
        match spawned.as_slice() {
            [i] => scene.flock[*i].count = n,
            _ => {
                return Err(format!(
                    "--boids sets one flock's count, but this scenario spawns {} flocks: set `count` in the file",
                    spawned.len()
                ));
            }
        }
    }
    if let Some(seed) = a.seed {
        scene.seed = seed;
    }
    if let Some(t) = a.threads {
        scene.threads = t;
    }
    if let Some(s) = a.steps {
        scene.steps = s;
    }
    let mut setup = match &a.load {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let world = boids_sim::World::load(
                &bytes,
                boids_sim::WorldConfig {
                    threads: a.threads.unwrap_or(0),
                    ..boids_sim::WorldConfig::default()
                },
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
            Setup {
                world,
                steps: a.steps.unwrap_or(600),
                dt: 1.0 / 60.0,
            }
        }
        None => Setup {
            world: scene.build().map_err(|e| e.to_string())?,
            steps: scene.steps,
            dt: scene.dt,
        },
    };
    if let Some(dt) = a.dt {
        if !(dt.is_finite() && dt > 0.0 && dt <= boids_sim::MAX_DT) {
            return Err(format!(
                "--dt must be in (0, {}], got {dt}",
                boids_sim::MAX_DT
            ));
        }
        setup.dt = dt;
    }
    let save_at = match (&a.save, a.save_at) {
        (Some(_), Some(n)) if n > setup.steps => {
            return Err(format!(
                "--save-at {n} is after the last step ({})",
                setup.steps
            ));
        }
        (Some(_), at) => Some(at.unwrap_or(setup.steps)),
        (None, _) => None,
    };
    if let Some(p) = &a.save {
        drop(Pending::create(p)?);
    }
    let mut recorder = a.digest.then(|| boids_sim::Recorder::new(a.every, 6));
    let world = &mut setup.world;
    let cam = Camera::fit(world, a.projection, a.width, a.height);
    let mut gifs: Vec<GifOut> = outs
        .iter()
        .filter(|p| ext(p) == "gif")
        .map(|p| GifOut::new(p, a.width, a.height, 60.0 / a.every as f32))
        .collect::<Result<_, _>>()?;
    let mut trajectories: Vec<Trajectories> = outs
        .iter()
        .filter(|p| matches!(ext(p).as_str(), "csv" | "json"))
        .map(|p| Trajectories::create(p, ext(p) == "csv"))
        .collect::<Result<_, _>>()?;
    let mut metrics = Vec::new();
    let trail_len = 12usize;
    let mut trails: render::Trails = world.flock_ids().map(|id| (id, Vec::new())).collect();
    let record = |world: &boids_sim::World,
                  step: u64,
                  gifs: &mut Vec<GifOut>,
                  trajectories: &mut Vec<Trajectories>,
                  metrics: &mut Vec<MetricsRow>,
                  trails: &mut Vec<(boids_sim::FlockId, Vec<Vec<boids_sim::Vec3>>)>|
     -> Result<(), String> {
        let t = step as f32 * setup.dt;
        for g in gifs.iter_mut() {
            g.frame(world, &cam)?;
        }
        for out in trajectories.iter_mut() {
            out.sample(world, step, t)?;
        }
        if !a.metrics.is_empty() {
            metrics.push(MetricsRow::take(world, step, t));
        }
        for (id, frames) in trails.iter_mut() {
            if let Some(f) = world.flock(*id) {
                frames.push(f.positions().to_vec());
                if frames.len() > trail_len {
                    frames.remove(0);
                }
            }
        }
        Ok(())
    };

    let pb = ProgressBar::with_draw_target(Some(setup.steps), ProgressDrawTarget::hidden());
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {per_sec}, eta {eta}")
            .map_err(|e| e.to_string())?,
    );
    let start = Instant::now();
    let mut shown = false;
    record(
        world,
        0,
        &mut gifs,
        &mut trajectories,
        &mut metrics,
        &mut trails,
    )?;
    if let Some(r) = recorder.as_mut() {
        r.record(world);
    }
    let mut saved_at = None;
    if save_at == Some(0) {
        saved_at = Some(save_world(
            world,
            a.save.as_deref().expect("save_at needs save"),
            0,
        )?);
    }
    let mut sim_secs = 0.0;
    for step in 1..=setup.steps {
        let t = Instant::now();
        world.step(setup.dt).map_err(|e| e.to_string())?;
        sim_secs += t.elapsed().as_secs_f64();
        if let Some(r) = recorder.as_mut() {
            r.record(world);
        }
        if save_at == Some(step) {
            saved_at = Some(save_world(
                world,
                a.save.as_deref().expect("save_at needs save"),
                step,
            )?);
        }
        if step % a.every == 0 || step == setup.steps {
            record(
                world,
                step,
                &mut gifs,
                &mut trajectories,
                &mut metrics,
                &mut trails,
            )?;
        }
        if !shown && start.elapsed().as_secs_f32() > 1.0 {
            pb.set_draw_target(ProgressDrawTarget::stderr());
            shown = true;
        }
        pb.set_position(step);
    }
    pb.finish_and_clear();

    for g in gifs {
        g.finish()?;
    }
    for t in trajectories {
        t.finish()?;
    }
    for p in outs.iter().filter(|p| ext(p) == "png") {
        output::write_png(p, world, &cam, &trails)?;
    }
    for p in &a.metrics {
        match ext(p).as_str() {
            "csv" => output::write_metrics_csv(p, &metrics)?,
            _ => output::write_metrics_png(p, &metrics)?,
        }
    }

    let ms = if setup.steps > 0 {
        sim_secs * 1e3 / setup.steps as f64
    } else {
        0.0
    };
    out!(
        "steps {} (dt {:.4} s), threads {}, seed {}, {ms:.3} ms/step",
        setup.steps,
        setup.dt,
        world.threads(),
        world.seed()
    );
    for id in world.flock_ids() {
        let f = world.flock(id).expect("live");
        let m = measure(f);
        // A flock of fewer than two boids has no nearest flockmate.
        let nearest = if m.has_nearest() {
            format!("{:.3}", m.mean_nearest_distance)
        } else {
            "n/a".to_owned()
        };
        out!(
            "  {:<16} boids {:>7}  polarisation {:.3}  mean speed {:.3}  mean nearest distance {}  groups {}",
            f.name(),
            m.count,
            m.polarisation,
            m.mean_speed,
            nearest,
            m.groups
        );
        if let Some(k) = f.at_target() {
            out!(
                "  {:<16} at target {} / {} (within {} of it)",
                "",
                grouped(k),
                grouped(f.len()),
                f.target_radius()
            );
        }
    }
    out!("  state hash {:016x}", world.state_hash());
    if let Some(r) = &recorder {
        out!(
            "  digest {} (every {} steps, 6 significant digits)",
            r.digest(),
            a.every
        );
    }
    if let (Some(p), Some(text)) = (&a.save, saved_at) {
        out!("saved {} ({text})", p.display());
    }
    for p in outs.iter().chain(&a.metrics) {
        out!("wrote {}", p.display());
    }
    Ok(())
}

/// Writes the world's save file to `path` (through a temporary file); says what it wrote.
fn save_world(world: &boids_sim::World, path: &Path, step: u64) -> Result<String, String> {
    use std::io::Write as _;
    let bytes = world.save();
    let (pending, mut w) = Pending::create(path)?;
    w.write_all(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    pending.commit(w)?;
    Ok(format!(
        "{} bytes, after step {step} of this run, world step {}, state hash {:016x}",
        bytes.len(),
        world.steps(),
        world.state_hash()
    ))
}

fn presets(a: &PresetsArgs) -> Result<(), String> {
    if let Some(name) = &a.show {
        let p = boids_sim::presets::get(name).map_err(|e| e.to_string())?;
        out!("# The {name} preset as a scenario file: boids run --scenario FILE builds the very");
        out!("# same world as boids run --preset {name}. Schema: docs/scenario.md.");
        out!("{}", p.scene(name).to_toml()?);
        return Ok(());
    }
    for p in boids_sim::presets::all() {
        out!("{:<18} {}", p.name, p.description);
    }
    Ok(())
}

fn main() -> ExitCode {
    output::remove_temporaries_on_interrupt();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and --version print as clap writes them; a usage error is one line, exit 2,
        // like every other refusal.
        Err(e) if e.use_stderr() => {
            let text = e.to_string();
            err!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    let result = match &cli.command {
        Command::Run(a) => run(a),
        Command::Presets(a) => presets(a),
        Command::Bench(a) => bench::bench(a),
        Command::Compare(a) => match compare::compare(&a.a, &a.b, a.tolerance) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            err!("error: {e}");
            ExitCode::from(2)
        }
    }
}
