//! Every export of include/boids.h has its C++ counterpart in bindings/cpp/boids.hpp: the
//! export is called (or passed) in the wrapper's code, comments not counted, or it is listed in
//! `RAW` with the reason C++ users call it directly.

use std::collections::BTreeSet;
use std::path::PathBuf;

/// Exports deliberately left to the C API, with why. Empty today: the wrapper covers all.
const RAW: &[(&str, &str)] = &[];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Names of the functions the header declares (a declaration starts at column 0 with its
/// return type; doc comments are indented with ` *`).
fn exports(header: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in header.lines() {
        if line.starts_with(' ') || line.starts_with('#') || line.starts_with('/') {
            continue;
        }
        let Some(at) = line.find("boids_") else {
            continue;
        };
        let rest = &line[at..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if rest[name.len()..].starts_with('(') {
            out.insert(name);
        }
    }
    out
}

/// The wrapper's code without `//` comments.
fn code(hpp: &str) -> String {
    hpp.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn uses(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

#[test]
fn every_export_has_a_cpp_counterpart() {
    let header = std::fs::read_to_string(root().join("include/boids.h")).unwrap();
    let hpp = std::fs::read_to_string(root().join("bindings/cpp/boids.hpp")).unwrap();
    let all = exports(&header);
    assert!(all.len() >= 46, "parsed only {} exports", all.len());
    let code = code(&hpp);
    let raw: BTreeSet<&str> = RAW.iter().map(|r| r.0).collect();
    let missing: Vec<&String> = all
        .iter()
        .filter(|n| !uses(&code, n) && !raw.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "exports with no C++ counterpart in boids.hpp (wrap them, or list them in RAW with a reason): {missing:?}"
    );
    for (name, why) in RAW {
        assert!(all.contains(*name), "RAW lists {name}, not an export");
        assert!(!why.is_empty(), "RAW lists {name} without a reason");
    }
}

#[test]
fn the_parser_sees_what_it_must() {
    let h = "BoidsResult boids_world_step(struct BoidsWorldId world, float dt);\n \
             * boids_not_this(1)\nuint32_t boids_abi_version(void);\n";
    let e = exports(h);
    assert_eq!(
        e.into_iter().collect::<Vec<_>>(),
        ["boids_abi_version", "boids_world_step"]
    );
    let c = code("x(boids_world_step); // boids_abi_version(\n");
    assert!(uses(&c, "boids_world_step"));
    assert!(!uses(&c, "boids_abi_version"), "comments do not count");
    assert!(!uses("boids_world_step_x()", "boids_world_step"));
}
