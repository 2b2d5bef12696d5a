//! One version on every surface: the workspace (Cargo.toml), the C function `boids_version`,
//! the C++ wrapper's `wrapper_version`, the C# sources' `BoidsWorld.WrapperVersion` (the C#
//! tests also require it to equal the native library's `BoidsWorld.Version`), the Unity
//! package.json, and the CMake package and pkg-config file that scripts/lib/dist.sh writes.
#![expect(unsafe_code, reason = "reads the C string boids_version returns")]

use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text between `before` and the next `"` after it.
fn quoted_after<'a>(text: &'a str, before: &str, what: &str) -> &'a str {
    let i = text
        .find(before)
        .unwrap_or_else(|| panic!("{what}: no '{before}'"))
        + before.len();
    let rest = &text[i..];
    &rest[..rest.find('"').expect("closing quote")]
}

#[test]
fn every_surface_reports_the_workspace_version() {
    let cargo = read("Cargo.toml");
    assert_eq!(
        quoted_after(&cargo, "[workspace.package]\nversion = \"", "Cargo.toml"),
        VERSION
    );
    // SAFETY: boids_version returns a static NUL-terminated string.
    let c = unsafe { CStr::from_ptr(boids_ffi::boids_version()) };
    assert_eq!(c.to_str().unwrap(), VERSION, "boids_version()");
    let hpp = read("bindings/cpp/boids.hpp");
    assert_eq!(
        quoted_after(&hpp, "wrapper_version = \"", "boids.hpp"),
        VERSION,
        "bindings/cpp/boids.hpp wrapper_version"
    );
    let cs = read("bindings/unity/com.boids.flocking/Runtime/Boids/Boids.cs");
    assert_eq!(
        quoted_after(&cs, "const string WrapperVersion = \"", "Boids.cs"),
        VERSION,
        "C# BoidsWorld.WrapperVersion"
    );
    let json: serde_json::Value =
        serde_json::from_str(&read("bindings/unity/com.boids.flocking/package.json")).unwrap();
    assert_eq!(json["version"], VERSION, "Unity package.json");
    for (file, needle) in [
        ("crates/sim/src/world/save.rs", "e.g. `\"boids "),
        ("crates/ffi/src/library.rs", "e.g. \""),
    ] {
        assert_eq!(
            quoted_after(&read(file), needle, file).trim_start_matches("boids "),
            VERSION,
            "{file}: the example version in the docs"
        );
    }
}

#[test]
fn the_cmake_package_and_pkg_config_file_carry_the_workspace_version() {
    let out = tempfile_dir();
    let script = format!(
        "set -e; ROOT='{root}'; . '{root}/scripts/lib/dist.sh'; mkdir -p '{out}/lib'; write_c_package linux-x86_64 '{out}'",
        root = root().display(),
        out = out.display()
    );
    let status = Command::new("bash")
        .args(["-c", &script])
        .status()
        .expect("bash");
    assert!(status.success(), "write_c_package failed");
    let cmake =
        std::fs::read_to_string(out.join("lib/cmake/boids/boidsConfigVersion.cmake")).unwrap();
    assert_eq!(
        quoted_after(&cmake, "set(PACKAGE_VERSION \"", "CMake"),
        VERSION
    );
    let config = std::fs::read_to_string(out.join("lib/cmake/boids/boidsConfig.cmake")).unwrap();
    assert_eq!(
        quoted_after(&config, "set(boids_VERSION \"", "CMake"),
        VERSION
    );
    let pc = std::fs::read_to_string(out.join("lib/pkgconfig/boids.pc")).unwrap();
    let line = pc
        .lines()
        .find(|l| l.starts_with("Version: "))
        .expect("Version line");
    assert_eq!(&line["Version: ".len()..], VERSION, "boids.pc");
    for text in [
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "THIRD-PARTY-LICENSES.md",
        "README.txt",
    ] {
        assert!(out.join(text).is_file(), "the C package carries {text}");
    }
    std::fs::remove_dir_all(&out).ok();
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boids-versions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
