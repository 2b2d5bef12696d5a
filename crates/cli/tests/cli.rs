//! The `boids` command as a user meets it: every output kind decodes and holds what it should;
//! every kind of bad input gives one error line, exit code 2, and leaves no file behind.

mod support;

use std::path::Path;
use std::process::Command;
use support::{boids, field, ok, refused};

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn no_arguments_writes_flock_gif() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&boids(
        &["run", "--boids", "300", "--steps", "40"],
        dir.path(),
    ));
    assert!(out.contains("wrote flock.gif"), "{out}");
    let gif = std::fs::File::open(dir.path().join("flock.gif")).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts.read_info(gif).unwrap();
    assert_eq!((dec.width(), dec.height()), (480, 360));
    let mut frames = 0;
    let mut colours = std::collections::BTreeSet::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        frames += 1;
        colours.extend(f.buffer.iter().copied());
    }
    // One frame at step 0, then every 4th step: 0, 4, ..., 40.
    assert_eq!(frames, 11);
    assert!(
        colours.len() > 2,
        "boids drawn on the background: {colours:?}"
    );
    assert_eq!(
        files(dir.path()),
        vec!["flock.gif"],
        "no temporary files left"
    );
}

fn decode_png(path: &Path) -> (u32, u32, usize) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let colours: std::collections::BTreeSet<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    (info.width, info.height, colours.len())
}

#[test]
fn every_output_kind() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&boids(
        &[
            "run",
            "--boids",
            "200",
            "--steps",
            "20",
            "--every",
            "5",
            "--width",
            "320",
            "--height",
            "200",
            "--projection",
            "top",
            "--out",
            "a.gif",
            "--out",
            "a.png",
            "--out",
            "t.csv",
            "--out",
            "t.json",
            "--metrics",
            "m.csv",
            "--metrics",
            "m.png",
        ],
        dir.path(),
    ));
    for f in ["a.gif", "a.png", "t.csv", "t.json", "m.csv", "m.png"] {
        assert!(out.contains(&format!("wrote {f}")), "{out}");
    }
    let (w, h, colours) = decode_png(&dir.path().join("a.png"));
    assert_eq!((w, h), (320, 200));
    assert!(colours > 2);
    let (w, h, colours) = decode_png(&dir.path().join("m.png"));
    assert!(w > 100 && h > 100 && colours > 2);
    // Trajectories: samples at steps 0, 5, 10, 15, 20, 200 boids each.
    let csv = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("step,time,flock,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5 * 200);
    assert!(rows.iter().all(|r| r.len() == 10 && r[2] == "school"));
    assert_eq!(rows.last().unwrap()[0], "20");
    assert!(
        rows.iter()
            .all(|r| r[4..].iter().all(|x| x.parse::<f32>().unwrap().is_finite()))
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("t.json")).unwrap()).unwrap();
    let samples = json["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 5);
    assert_eq!(samples[4]["step"], 20);
    assert_eq!(
        samples[0]["flocks"][0]["positions"]
            .as_array()
            .unwrap()
            .len(),
        200
    );
    // The JSON and CSV agree on the last sample's first boid.
    let x = samples[4]["flocks"][0]["positions"][0][0].as_f64().unwrap() as f32;
    assert_eq!(x, rows[4 * 200][4].parse::<f32>().unwrap());
    let m = std::fs::read_to_string(dir.path().join("m.csv")).unwrap();
    let mut ml = m.lines();
    assert_eq!(
        ml.next(),
        Some("step,time,flock,boids,polarisation,mean_nearest_distance,groups,mean_speed")
    );
    let rows: Vec<Vec<&str>> = ml.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5);
    for r in &rows {
        let p: f32 = r[4].parse().unwrap();
        assert!((0.0..=1.0).contains(&p), "polarisation {p}");
        assert!(r[6].parse::<usize>().unwrap() >= 1, "groups");
        assert!(
            r[7].parse::<f32>().unwrap() >= 2.0 - 1e-3,
            "speed at least the minimum"
        );
    }
}

#[test]
fn presets_and_scenarios() {
    let dir = tempfile::tempdir().unwrap();
    let list = ok(&boids(&["presets"], dir.path()));
    assert!(
        list.lines()
            .any(|l| l.starts_with("fish-tank ") && l.contains("BoidFish")),
        "{list}"
    );
    let out = ok(&boids(
        &[
            "run",
            "--preset",
            "fish-tank",
            "--steps",
            "10",
            "--out",
            "tank.csv",
        ],
        dir.path(),
    ));
    assert!(
        out.contains("fish-tank") && out.contains("boids     100"),
        "{out}"
    );
    std::fs::write(
        dir.path().join("two.toml"),
        r#"
seed = 3
steps = 12
[[flock]]
name = "fish"
count = 150
[flock.params]
perception_radius = 1.5
separation = "inverse-square"
[flock.params.weights]
cohesion = 1.0
[flock.bounds]
kind = "wrap"
min = [0, 0, 0]
max = [12, 12, 12]
[flock.spawn]
shape = "box"
min = [0, 0, 0]
max = [12, 12, 12]
[[flock]]
name = "tank"
preset = "fish-tank"
[flock.path]
points = [[2, 2, 2], [10, 2, 2], [10, 10, 2]]
closed = true
[[relation]]
from = "fish"
to = "tank"
kind = "avoid"
radius = 2.0
weight = 3.0
[[obstacle]]
kind = "sphere"
centre = [6, 6, 6]
radius = 1.5
"#,
    )
    .unwrap();
    let out = ok(&boids(
        &["run", "--scenario", "two.toml", "--out", "two.json"],
        dir.path(),
    ));
    assert!(out.contains("steps 12") && out.contains("seed 3"), "{out}");
    assert!(out.contains("fish") && out.contains("tank"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("two.json")).unwrap())
            .unwrap();
    assert_eq!(json["samples"][0]["flocks"].as_array().unwrap().len(), 2);
    for p in json["samples"][3]["flocks"][0]["positions"]
        .as_array()
        .unwrap()
    {
        let v: Vec<f64> = p
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            v.iter().all(|&c| (0.0..12.0).contains(&c)),
            "wrapped inside the box: {v:?}"
        );
    }
}

#[test]
fn help_on_every_subcommand_has_examples() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["run", "bench", "compare"] {
        let out = ok(&boids(&[sub, "--help"], dir.path()));
        assert!(out.contains("Examples:"), "{sub}: {out}");
    }
    ok(&boids(&["presets", "--help"], dir.path()));
}

#[test]
fn bad_input_is_one_line_exit_2_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let write = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap();
    write(
        "broken.toml",
        "seed = 1\n[[flock]]\nname = \"a\"\ncount = [oops\n",
    );
    write(
        "nan.toml",
        "[[flock]]\nname = \"a\"\n[flock.params]\nperception_radius = nan\n",
    );
    write(
        "negative.toml",
        "[[flock]]\nname = \"a\"\n[flock.params]\nperception_radius = -2.0\n",
    );
    write(
        "unknown.toml",
        "[[flock]]\nname = \"a\"\ncolour = \"red\"\n",
    );
    write("zero.toml", "[[flock]]\nname = \"a\"\ncount = 0\n");
    write("empty.toml", "seed = 4\n");
    write(
        "two.toml",
        "[[flock]]\nname = \"a\"\n[[flock]]\nname = \"b\"\npreset = \"flock-2d\"\n",
    );
    write(
        "relation.toml",
        "[[flock]]\nname = \"a\"\n[[relation]]\nfrom = \"a\"\nto = \"b\"\nkind = \"flee\"\nradius = 1.0\nweight = 1.0\n",
    );
    let before = files(d);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["run", "--preset", "no-such-thing"],
            "unknown preset 'no-such-thing'",
        ),
        (vec!["run", "--scenario", "broken.toml"], "broken.toml:4:"),
        (vec!["run", "--scenario", "nan.toml"], "perception_radius"),
        (
            vec!["run", "--scenario", "negative.toml"],
            "perception_radius",
        ),
        (
            vec!["run", "--scenario", "unknown.toml"],
            "unknown field `colour`",
        ),
        (
            vec!["run", "--scenario", "zero.toml"],
            "flock 'a' has no boids",
        ),
        (vec!["run", "--scenario", "empty.toml"], "no [[flock]]"),
        (
            vec!["run", "--scenario", "relation.toml"],
            "no flock named 'b'",
        ),
        (
            vec!["run", "--scenario", "missing.toml"],
            "cannot read missing.toml",
        ),
        (
            vec!["run", "--boids", "0"],
            "--boids <BOIDS>': must be a whole number of at least 1",
        ),
        (
            vec!["run", "--steps", "5", "--out", "no/such/dir/x.gif"],
            "does not exist",
        ),
        (
            vec!["run", "--steps", "5", "--out", "x.bmp"],
            "unknown kind",
        ),
        (
            vec!["run", "--steps", "5", "--metrics", "m.gif"],
            "unknown kind",
        ),
        (vec!["run", "--steps", "5", "--every", "0"], "--every"),
        (vec!["bench", "--boids", "0"], "at least 1"),
        (vec!["run", "--steps", "-5"], "at least 1, got '-5'"),
        (
            vec![
                "run",
                "--steps",
                "5",
                "--out",
                "x.csv",
                "--metrics",
                "x.csv",
            ],
            "x.csv is given as two outputs",
        ),
        (
            vec!["run", "--scenario", "two.toml", "--boids", "10"],
            "this scenario spawns 2 flocks",
        ),
    ];
    for (args, needle) in cases {
        refused(&boids(&args, d), needle);
    }
    // clap's own usage errors also exit 2.
    assert_eq!(boids(&["run", "--boids", "many"], d).status.code(), Some(2));
    assert_eq!(boids(&["fly"], d).status.code(), Some(2));
    assert_eq!(files(d), before, "nothing written, no temporary files left");
}

#[test]
fn boids_simd_forces_the_kernel_and_every_choice_gives_the_same_hash() {
    let dir = tempfile::tempdir().unwrap();
    let run = |simd: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_boids"))
            .args([
                "run",
                "--preset",
                "fish-tank",
                "--steps",
                "60",
                "--threads",
                "1",
            ])
            .env("BOIDS_SIMD", simd)
            .current_dir(dir.path())
            .output()
            .unwrap();
        ok(&out)
            .lines()
            .find(|l| l.contains("state hash"))
            .expect("a state hash line")
            .to_owned()
    };
    let scalar = run("scalar");
    for level in boids_sim::SimdLevel::supported() {
        assert_eq!(run(level.name()), scalar, "{level}");
    }
    // The bench line names the kernel it ran.
    let out = Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(["bench", "--boids", "500", "--steps", "2", "--warmup", "0"])
        .env("BOIDS_SIMD", "sse2")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(ok(&out).contains("simd=sse2"));
    // An unknown name, or a level this CPU lacks, is one error line.
    let out = Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(["run", "--boids", "50", "--steps", "2"])
        .env("BOIDS_SIMD", "avx3")
        .current_dir(dir.path())
        .output()
        .unwrap();
    refused(&out, "BOIDS_SIMD");
}

#[test]
fn a_flock_name_with_a_comma_stays_one_csv_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("comma.toml"),
        "steps = 3\n[[flock]]\nname = \"fish, \\\"big\\\"\"\ncount = 20\n",
    )
    .unwrap();
    ok(&boids(
        &[
            "run",
            "--scenario",
            "comma.toml",
            "--every",
            "1",
            "--out",
            "t.csv",
            "--metrics",
            "m.csv",
        ],
        dir.path(),
    ));
    for (file, fields) in [("t.csv", 10), ("m.csv", 8)] {
        let mut r = csv::Reader::from_path(dir.path().join(file)).unwrap();
        assert_eq!(r.headers().unwrap().len(), fields, "{file}");
        let mut n = 0;
        for rec in r.records() {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), fields, "{file}: {rec:?}");
            assert_eq!(&rec[2], "fish, \"big\"", "{file}");
            n += 1;
        }
        assert!(n >= 4, "{file}: {n} rows");
    }
}

/// A child process killed when dropped: a failed assertion never leaves a 20,000-boid run
/// going.
#[cfg(unix)]
struct KillOnDrop(std::process::Child);

#[cfg(unix)]
impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// How much work a child has done: its processor time (Linux: `/proc/PID/stat`'s user and
/// system times; elsewhere the wall time). A limit on it fails a child that works without doing
/// what it should, not one that a loaded machine runs slowly; a child that uses no processor
/// time for two minutes is hung.
#[cfg(unix)]
struct Watch {
    pid: u32,
    start: std::time::Instant,
    last: (f64, std::time::Instant),
}

#[cfg(unix)]
impl Watch {
    fn new(pid: u32) -> Watch {
        let now = std::time::Instant::now();
        let mut w = Watch {
            pid,
            start: now,
            last: (0.0, now),
        };
        w.last.0 = w.cpu();
        w
    }

    fn cpu(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).unwrap_or_default();
        // The fields after the command name, which is in parentheses and may hold spaces;
        // utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<f64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|v| v.parse().ok())
            .collect();
        match f[..] {
            [u, s] => (u + s) / 100.0,
            _ => self.start.elapsed().as_secs_f64(),
        }
    }

    /// The processor seconds used so far; panics when the child has used none for two minutes.
    fn used(&mut self, case: &str) -> f64 {
        let now = self.cpu();
        if now > self.last.0 {
            self.last = (now, std::time::Instant::now());
        }
        assert!(
            self.last.1.elapsed().as_secs() < 120,
            "{case}: hung (no processor time used for two minutes)"
        );
        now
    }
}

/// SIGTERM, SIGINT or SIGHUP mid-run, with standard error open and with it closed (a terminal
/// that went away, a reader that exited): exit code 130 within seconds of the child's processor
/// time, the error line when it can be written, and no temporary file left. The signal goes through the C library: a
/// minimal Debian has no `kill` program.
#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_no_file_behind() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    use std::io::Read;
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        for stderr_closed in [false, true] {
            let case = format!("{signal}, stderr closed {stderr_closed}");
            let dir = tempfile::tempdir().unwrap();
            let mut child = KillOnDrop(
                Command::new(env!("CARGO_BIN_EXE_boids"))
                    .args([
                        "run", "--boids", "20000", "--steps", "100000", "--out", "x.gif", "--out",
                        "x.json",
                    ])
                    .current_dir(dir.path())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap(),
            );
            let mut stderr = child.0.stderr.take();
            // Wait until the run is writing (its temporary files exist).
            let mut watch = Watch::new(child.0.id());
            while files(dir.path()).len() < 2 {
                assert!(
                    watch.used(&case) < 60.0,
                    "{case}: no temporary files appeared"
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            assert!(
                files(dir.path()).iter().all(|f| f.starts_with('.')),
                "{case}: only temporaries while running: {:?}",
                files(dir.path())
            );
            if stderr_closed {
                drop(stderr.take());
            }
            kill(Pid::from_raw(child.0.id() as i32), signal).unwrap();
            let used = watch.used(&case);
            let status = loop {
                if let Some(s) = child.0.try_wait().unwrap() {
                    break s;
                }
                assert!(
                    watch.used(&case) - used < 20.0,
                    "{case}: still running after 20 s of its own time since the signal"
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            assert_eq!(status.code(), Some(130), "{case}");
            if let Some(mut e) = stderr {
                let mut err = String::new();
                e.read_to_string(&mut err).unwrap();
                assert!(err.contains("interrupted"), "{case}: {err}");
            }
            assert_eq!(files(dir.path()), Vec::<String>::new(), "{case}");
        }
    }
}

#[test]
fn save_at_100_then_load_continues_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let straight = ok(&boids(
        &[
            "run",
            "--preset",
            "goal-swarm",
            "--steps",
            "300",
            "--out",
            "a.csv",
            "--digest",
        ],
        d,
    ));
    let first = ok(&boids(
        &[
            "run",
            "--preset",
            "goal-swarm",
            "--steps",
            "150",
            "--threads",
            "1",
            "--save-at",
            "100",
            "--save",
            "s.boids",
            "--out",
            "x.csv",
        ],
        d,
    ));
    assert!(
        first.contains("saved s.boids") && first.contains("world step 100"),
        "{first}"
    );
    let resumed = ok(&boids(
        &[
            "run",
            "--load",
            "s.boids",
            "--steps",
            "200",
            "--threads",
            "2",
            "--out",
            "b.csv",
        ],
        d,
    ));
    assert_eq!(
        field(&resumed, "state hash"),
        field(&straight, "state hash")
    );
    // The digest does not depend on the thread count either.
    let again = ok(&boids(
        &[
            "run",
            "--preset",
            "goal-swarm",
            "--steps",
            "300",
            "--threads",
            "1",
            "--out",
            "c.csv",
            "--digest",
        ],
        d,
    ));
    assert_eq!(field(&again, "digest"), field(&straight, "digest"));
    assert_eq!(field(&straight, "digest").len(), 16);

    // Bad save files: one line, exit 2.
    std::fs::write(d.join("junk.boids"), b"hello").unwrap();
    refused(&boids(&["run", "--load", "junk.boids"], d), "BOIDSAVE");
    let mut cut = std::fs::read(d.join("s.boids")).unwrap();
    cut.truncate(cut.len() - 10);
    std::fs::write(d.join("cut.boids"), cut).unwrap();
    refused(&boids(&["run", "--load", "cut.boids"], d), "truncated");
    refused(&boids(&["run", "--load", "none.boids"], d), "cannot read");
    refused(
        &boids(&["run", "--load", "s.boids", "--preset", "fish-tank"], d),
        "cannot be used with",
    );
    refused(
        &boids(
            &[
                "run",
                "--steps",
                "10",
                "--save-at",
                "20",
                "--save",
                "t.boids",
            ],
            d,
        ),
        "after the last step",
    );
    assert!(!d.join("t.boids").exists());
}

#[test]
fn compare_finds_where_two_runs_part() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |seed: &str, threads: &str, out: &str| {
        ok(&boids(
            &[
                "run",
                "--preset",
                "shark",
                "--steps",
                "120",
                "--every",
                "20",
                "--seed",
                seed,
                "--threads",
                threads,
                "--out",
                out,
            ],
            d,
        ))
    };
    run("1", "1", "a.csv");
    run("1", "2", "b.csv");
    run("2", "1", "c.csv");
    let same = boids(&["compare", "a.csv", "b.csv"], d);
    let text = ok(&same);
    assert!(
        text.contains("shark: same within 0") && text.contains("shark-predator: same within 0"),
        "{text}"
    );
    let differ = boids(&["compare", "a.csv", "c.csv", "--tolerance", "0.001"], d);
    assert_eq!(differ.status.code(), Some(1));
    let text = String::from_utf8_lossy(&differ.stdout);
    assert!(text.contains("shark: diverges at step"), "{text}");
    assert!(text.contains("largest deviation"), "{text}");
    // A huge tolerance hides the difference.
    ok(&boids(
        &["compare", "a.csv", "c.csv", "--tolerance", "1e9"],
        d,
    ));
    refused(&boids(&["compare", "a.csv", "nope.csv"], d), "cannot read");
    refused(
        &boids(&["compare", "a.csv", "b.csv", "--tolerance", "-1"], d),
        "tolerance",
    );
}

/// A flock of one boid has no nearest flockmate: the summary says n/a, not a distance of 0.
#[test]
fn a_one_boid_flock_has_no_nearest_distance() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&boids(
        &["run", "--boids", "1", "--steps", "3", "--out", "x.csv"],
        dir.path(),
    ));
    assert!(out.contains("mean nearest distance n/a"), "{out}");
    let two = ok(&boids(
        &["run", "--boids", "2", "--steps", "3", "--out", "x.csv"],
        dir.path(),
    ));
    assert!(!two.contains("n/a"), "{two}");
}
