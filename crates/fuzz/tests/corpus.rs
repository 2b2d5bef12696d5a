//! Replays the saved fuzz corpus (`fuzz/corpus/<target>/`, grown by cargo-fuzz runs and
//! minimised with `cargo fuzz cmin`) and the inputs that once found a defect
//! (`fuzz/regressions/<target>/`) through every target: each input must run clean.

use std::path::PathBuf;
use std::sync::Mutex;

/// Held by each replay: the targets share the process's one registry of worlds, and `calls`
/// forges ids (small indices and generations) that name another target's live world when two
/// run at once. Then a forged call could change or lock that world in the middle of the other
/// target's checks (a save refused as busy between its size query and the save itself was
/// seen once). libFuzzer runs one input at a time; so do these.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn replay(target: &str, run: fn(&[u8])) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "{target}: only {} corpus inputs",
        files.len()
    );
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if let Err(e) = std::panic::catch_unwind(|| run(&data)) {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{target} corpus input {name} fails: {why}");
        }
    }
}

#[test]
fn scenario_corpus_replays_clean() {
    replay("scenario", boids_fuzz::scenario);
}

#[test]
fn params_corpus_replays_clean() {
    replay("params", boids_fuzz::params);
}

#[test]
fn calls_corpus_replays_clean() {
    replay("calls", boids_fuzz::calls);
}
