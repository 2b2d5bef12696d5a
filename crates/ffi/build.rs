//! Link settings that belong to the shared library itself:
//! - macOS and iOS: the install name `@rpath/libboids_ffi.dylib` instead of the build
//!   directory's absolute path, so a program (or Unity) finds it next to itself or on its
//!   rpath. Every build.
//! - Linux: the soname `libboids_ffi.so.<major>`, so programs linked against an installed
//!   library keep working across compatible releases. Only when `BOIDS_VERSIONED_SONAME=1` (set
//!   by scripts/lib/dist.sh for what ships, which installs the `.so.<major>` symlink beside the
//!   library): a plain `cargo build` leaves no soname, so a program linked against
//!   `target/release/libboids_ffi.so` finds that very file.
//! - Android: 16 KB page alignment (`-z max-page-size=16384`), which Google Play requires of
//!   apps targeting Android 15 and which NDKs before r28 do not give by default.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=BOIDS_VERSIONED_SONAME");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    let versioned = std::env::var("BOIDS_VERSIONED_SONAME").is_ok_and(|v| v == "1");
    match os.as_str() {
        "linux" if versioned => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libboids_ffi.so.{major}")
        }
        "android" => println!("cargo:rustc-cdylib-link-arg=-Wl,-z,max-page-size=16384"),
        "macos" | "ios" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libboids_ffi.dylib")
        }
        _ => {}
    }
}
