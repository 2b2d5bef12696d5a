//! Link settings that belong to the shared library itself, so every build of it (cargo build,
//! cargo zigbuild, a user's own build on a Mac) names itself the same way:
//! - Linux: the soname `libboids_ffi.so.<major>`, so programs linked against it keep working
//!   across compatible releases (`scripts/install-c` installs the symlinks).
//! - macOS and iOS: the install name `@rpath/libboids_ffi.dylib` instead of the build
//!   directory's absolute path, so a program (or Unity) finds it next to itself or on its rpath.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    match os.as_str() {
        "linux" => println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libboids_ffi.so.{major}"),
        "macos" | "ios" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libboids_ffi.dylib")
        }
        _ => {}
    }
}
