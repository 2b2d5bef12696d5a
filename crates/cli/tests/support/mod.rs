//! What both CLI test files need: run `boids`, require success or a clean refusal, read a
//! field of its summary.
#![allow(dead_code, reason = "each test file uses only some of these")]

use std::path::Path;
use std::process::{Command, Output};

pub fn boids(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run boids")
}

pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exit code 2, exactly one line on stderr starting with "error:", containing `needle`.
pub fn refused(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one error line, got: {err}");
    assert!(lines[0].starts_with("error:"), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
}

/// The line of `out` that starts (after spaces) with `key`, its next word.
pub fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no '{key}' in: {out}"))
}
