//! The `boids` command.

mod bench;

use boids_sim::metrics::measure;
use boids_sim::scenario::default_school;
use clap::{Parser, Subcommand};
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
    /// Run a flock headless and print a summary.
    #[command(
        after_help = "Examples:\n  boids run\n  boids run --boids 10000 --steps 600 --seed 7"
    )]
    Run(RunArgs),
    /// Time the benchmark scenario (seed 000's rules, ~25 neighbours per boid, dt 1/60).
    #[command(
        after_help = "Examples:\n  boids bench --boids 100000\n  boids bench --boids 10000 --threads 1 --index kdtree --steps 50"
    )]
    Bench(bench::BenchArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    /// Number of boids.
    #[arg(long, default_value_t = 2000)]
    boids: usize,
    /// Steps to run (at 60 Hz).
    #[arg(long, default_value_t = 600)]
    steps: u64,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

fn run(args: &RunArgs) -> Result<(), String> {
    if args.boids == 0 {
        return Err("--boids must be at least 1".into());
    }
    let (mut world, id) =
        default_school(args.boids, args.seed, args.threads).map_err(|e| e.to_string())?;
    let start = Instant::now();
    for _ in 0..args.steps {
        world.step(1.0 / 60.0).map_err(|e| e.to_string())?;
    }
    let secs = start.elapsed().as_secs_f64();
    let flock = world.flock(id).expect("flock just created");
    let m = measure(flock);
    let ms = if args.steps > 0 {
        secs * 1e3 / args.steps as f64
    } else {
        0.0
    };
    println!(
        "boids {} steps {} threads {} seed {}",
        m.count,
        args.steps,
        world.threads(),
        args.seed
    );
    println!("  ms/step                 {ms:.3}");
    println!("  mean speed              {:.3}", m.mean_speed);
    println!("  polarisation            {:.3}", m.polarisation);
    println!("  mean nearest distance   {:.3}", m.mean_nearest_distance);
    println!("  state hash              {:016x}", world.state_hash());
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Run(a) => run(a),
        Command::Bench(a) => bench::bench(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
