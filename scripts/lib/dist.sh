# Sourced by scripts/package-unity and scripts/install-c: the one command that builds what
# ships, so both reuse one build. Cargo profile `dist` (fat LTO, one codegen unit, stripped).
# On Linux the shared library is given the soname libboids_ffi.so.<major> (a link argument
# passed to this crate only, through `cargo rustc`).

# The workspace version, from Cargo.toml.
boids_version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -1
}

# Builds boids-ffi for `target` (the host when empty); prints the directory of the artifacts.
dist_build() { # [target]
  local target="${1:-}" host
  host="$(rustc -vV | sed -n 's/^host: //p')"
  local major="${BOIDS_VERSION_MAJOR:-$(boids_version | cut -d. -f1)}"
  local args=(--profile dist -p boids-ffi --lib)
  if [ -n "$target" ] && [ "$target" != "$host" ]; then args+=(--target "$target"); fi
  case "${target:-$host}" in
    *-linux-gnu)
      cargo rustc -q "${args[@]}" -- -C "link-arg=-Wl,-soname,libboids_ffi.so.$major" >&2 ;;
    *)
      cargo rustc -q "${args[@]}" >&2 ;;
  esac
  if [ -n "$target" ] && [ "$target" != "$host" ]; then
    echo "$ROOT/target/$target/dist"
  else
    echo "$ROOT/target/dist"
  fi
}
