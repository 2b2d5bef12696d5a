//! What the shipped libraries carry is listed, with an accepted licence: every crate that
//! `boids-ffi` is built from, for every platform of scripts/lib/about.toml, appears in
//! THIRD-PARTY-LICENSES.md with its version and licence, and nothing else does; every licence
//! expression is satisfied by the accepted list. (scripts/third-party regenerates the file with
//! cargo-about; this test needs only cargo, so it runs on every `cargo test`.)

use std::collections::BTreeSet;
use std::process::Command;

const ABOUT: &str = include_str!("../../../scripts/lib/about.toml");
const LIST: &str = include_str!("../../../THIRD-PARTY-LICENSES.md");

fn about() -> (Vec<String>, Vec<String>) {
    let t: toml::Table = toml::from_str(ABOUT).expect("about.toml parses");
    let strings = |k: &str| -> Vec<String> {
        t[k].as_array()
            .unwrap_or_else(|| panic!("about.toml: {k} is a list"))
            .iter()
            .map(|v| v.as_str().expect("a string").to_string())
            .collect()
    };
    (strings("accepted"), strings("targets"))
}

/// "name version: licence" for every normal dependency of boids-ffi on `target`.
fn shipped(target: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-q",
            "--offline",
            "-p",
            "boids-ffi",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--target", target, "--format", "{p}|{l}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let (p, lic) = l.split_once('|').expect("package|licence");
            let mut w = p.split_whitespace();
            let name = w.next().expect("name");
            let version = w.next().expect("version").trim_start_matches('v');
            // cargo-about writes the old "A/B" form as "A OR B".
            let lic = lic.trim_end_matches(" (*)").replace('/', " OR ");
            format!("{name} {version}: {lic}")
        })
        .collect()
}

/// Whether an SPDX expression holds under the accepted licences (OR: any term; AND: all).
fn satisfied(expr: &str, accepted: &[String]) -> bool {
    fn or(tokens: &[String], i: &mut usize, ok: &dyn Fn(&str) -> bool) -> bool {
        let mut any = and(tokens, i, ok);
        while tokens.get(*i).is_some_and(|t| t == "OR") {
            *i += 1;
            any |= and(tokens, i, ok);
        }
        any
    }
    fn and(tokens: &[String], i: &mut usize, ok: &dyn Fn(&str) -> bool) -> bool {
        let mut all = factor(tokens, i, ok);
        while tokens.get(*i).is_some_and(|t| t == "AND") {
            *i += 1;
            all &= factor(tokens, i, ok);
        }
        all
    }
    fn factor(tokens: &[String], i: &mut usize, ok: &dyn Fn(&str) -> bool) -> bool {
        let t = tokens[*i].clone();
        *i += 1;
        if t == "(" {
            let v = or(tokens, i, ok);
            assert_eq!(tokens[*i], ")", "unbalanced licence expression");
            *i += 1;
            return v;
        }
        if tokens.get(*i).is_some_and(|w| w == "WITH") {
            let exception = tokens[*i + 1].clone();
            *i += 2;
            return ok(&format!("{t} WITH {exception}"));
        }
        ok(&t)
    }
    let spaced = expr.replace('(', " ( ").replace(')', " ) ");
    let tokens: Vec<String> = spaced.split_whitespace().map(String::from).collect();
    let ok = |id: &str| accepted.iter().any(|a| a == id);
    let mut i = 0;
    let v = or(&tokens, &mut i, &ok);
    assert_eq!(i, tokens.len(), "trailing tokens in '{expr}'");
    v
}

#[test]
fn every_shipped_crate_is_listed_with_an_accepted_licence() {
    let (accepted, targets) = about();
    let mut crates = BTreeSet::new();
    for t in &targets {
        crates.extend(shipped(t));
    }
    assert!(
        crates.len() > 20,
        "cargo tree listed too little: {crates:?}"
    );
    let listed: BTreeSet<String> = LIST
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect();
    let missing: Vec<_> = crates.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&crates).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "THIRD-PARTY-LICENSES.md is out of date (run scripts/third-party): missing {missing:?}, stale {stale:?}"
    );
    for c in &crates {
        let (_, lic) = c.split_once(": ").expect("name version: licence");
        assert!(
            satisfied(lic, &accepted),
            "{c}: not covered by scripts/lib/about.toml's accepted licences"
        );
    }
    // The texts are there too, not only the names.
    for name in ["MIT License", "Apache License 2.0"] {
        assert!(LIST.contains(&format!("### {name}")), "no {name} text");
    }
    assert!(LIST.contains("Permission is hereby granted, free of charge"));
}

#[test]
fn licence_expressions_are_evaluated_not_matched() {
    let accepted: Vec<String> = ["MIT", "Apache-2.0", "Apache-2.0 WITH LLVM-exception"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(satisfied("MIT OR GPL-3.0", &accepted));
    assert!(!satisfied("MIT AND GPL-3.0", &accepted));
    assert!(satisfied(
        "(MIT OR Apache-2.0) AND Apache-2.0 WITH LLVM-exception",
        &accepted
    ));
    assert!(!satisfied(
        "GPL-2.0 WITH Classpath-exception-2.0",
        &accepted
    ));
    assert!(!satisfied("(GPL-3.0 OR AGPL-3.0) AND MIT", &accepted));
}
