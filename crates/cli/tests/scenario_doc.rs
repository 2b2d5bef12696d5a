//! docs/scenario.md cannot drift from the engine: every TOML block on the page runs through
//! `boids run --scenario`, the "Every field" block holds the true defaults and names every key
//! a scene can serialize, and `boids presets --show` round-trips every preset to its state hash.

mod support;

use boids_sim::{FlockParams, Scene, Spawn};
use std::collections::BTreeSet;
use support::{boids, field, ok};

const DOC: &str = include_str!("../../../docs/scenario.md");

/// The ```toml blocks of the page, each with the heading above it.
fn blocks() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut body: Option<String> = None;
    for line in DOC.lines() {
        match (&mut body, line.trim_end()) {
            (None, "```toml") => body = Some(String::new()),
            (Some(b), "```") => {
                out.push((heading.clone(), std::mem::take(b)));
                body = None;
            }
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            (None, l) if l.starts_with('#') => heading = l.trim_start_matches('#').trim().into(),
            _ => {}
        }
    }
    assert!(body.is_none(), "unclosed block");
    out
}

#[test]
fn every_block_of_the_page_runs() {
    let all = blocks();
    assert!(all.len() >= 4, "found {} blocks", all.len());
    let dir = tempfile::tempdir().unwrap();
    for (i, (heading, text)) in all.iter().enumerate() {
        let file = format!("block{i}.toml");
        std::fs::write(dir.path().join(&file), text).unwrap();
        let out = boids(
            &["run", "--scenario", &file, "--steps", "3", "--out", "x.csv"],
            dir.path(),
        );
        let stdout = ok(&out);
        assert!(
            stdout.contains("steps 3"),
            "block under '{heading}': {stdout}"
        );
        // The same text through the Rust API.
        Scene::from_toml(text, &file).unwrap_or_else(|e| panic!("'{heading}': {e}"));
    }
}

/// Key paths of a TOML value (`flock.params.weights.cohesion`); arrays of tables add no index.
fn keys(prefix: &str, v: &toml::Value, out: &mut BTreeSet<String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(p.clone());
                keys(&p, v, out);
            }
        }
        toml::Value::Array(a) => a
            .iter()
            .filter(|x| x.is_table())
            .for_each(|x| keys(prefix, x, out)),
        _ => {}
    }
}

#[test]
fn the_every_field_block_holds_the_defaults_and_names_every_key() {
    let (_, text) = blocks()
        .into_iter()
        .find(|(h, _)| h == "Every field")
        .expect("an 'Every field' section");
    let scene = Scene::from_toml(&text, "every-field").unwrap();

    // "Each value below is the default."
    let d = Scene::default();
    assert_eq!(
        (scene.seed, scene.steps, scene.dt, scene.threads),
        (d.seed, d.steps, d.dt, d.threads)
    );
    let fish = &scene.flock[0];
    assert_eq!(fish.count, 500);
    assert_eq!(fish.spawn, Spawn::default());
    let mut params = fish.params;
    assert!(params.target.is_some() && params.target_relocation.is_some());
    (params.target, params.target_relocation) = (None, None);
    // The ground table is shown with its defaults; left out, a flock flies.
    let ground = params.ground.take().expect("a [flock.params.ground] table");
    assert_eq!(ground, boids_sim::Ground::default());
    assert_eq!(params, FlockParams::default());

    // Every key any preset or the defaults serialize is in the block, as a key or, for the
    // fields of one kind of a tagged table (bounds, spawn, obstacle), named in its comments.
    let mut documented = BTreeSet::new();
    keys("", &toml::from_str(&text).unwrap(), &mut documented);
    let mut serialized = BTreeSet::new();
    let mut scenes: Vec<Scene> = boids_sim::presets::all()
        .iter()
        .map(|p| p.scene(p.name))
        .collect();
    scenes.push(scene.clone());
    for s in &scenes {
        let t: toml::Value = toml::from_str(&s.to_toml().unwrap()).unwrap();
        keys("", &t, &mut serialized);
    }
    let words: BTreeSet<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for k in &serialized {
        let (parent, leaf) = k.rsplit_once('.').unwrap_or(("", k));
        assert!(
            documented.contains(k) || (documented.contains(parent) && words.contains(leaf)),
            "docs/scenario.md's 'Every field' block does not mention {k}"
        );
    }
}

#[test]
fn presets_show_round_trips_to_the_same_state_hash() {
    let dir = tempfile::tempdir().unwrap();
    for p in boids_sim::presets::all() {
        let shown = ok(&boids(&["presets", "--show", p.name], dir.path()));
        let file = format!("{}.toml", p.name);
        std::fs::write(dir.path().join(&file), &shown).unwrap();
        let steps = ["--steps", "40", "--out", "x.csv"];
        let a = ok(&boids(
            &[&["run", "--preset", p.name][..], &steps].concat(),
            dir.path(),
        ));
        let b = ok(&boids(
            &[&["run", "--scenario", &file][..], &steps].concat(),
            dir.path(),
        ));
        assert_eq!(
            field(&a, "state hash"),
            field(&b, "state hash"),
            "{}",
            p.name
        );
        // The file is complete: reading it back gives the preset's scene, field for field.
        let scene = Scene::from_toml(&shown, &file).unwrap();
        assert_eq!(scene, p.scene(p.name), "{}", p.name);
    }
}

#[test]
fn flags_override_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("one.toml"),
        "seed = 5\nsteps = 7\nthreads = 1\n[[flock]]\nname = \"a\"\ncount = 50\n",
    )
    .unwrap();
    let out = ok(&boids(
        &[
            "run",
            "--scenario",
            "one.toml",
            "--threads",
            "2",
            "--seed",
            "9",
            "--steps",
            "4",
            "--boids",
            "37",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    assert!(
        out.contains("steps 4") && out.contains("threads 2") && out.contains("seed 9"),
        "{out}"
    );
    assert!(out.contains("boids      37"), "{out}");
    let preset = ok(&boids(
        &[
            "run",
            "--preset",
            "fish-tank",
            "--boids",
            "37",
            "--steps",
            "2",
            "--out",
            "y.csv",
        ],
        dir.path(),
    ));
    assert!(preset.contains("boids      37"), "{preset}");
}
