# Sourced by the scripts: installing what is missing, and timing steps.
# Every script that sources this sets ROOT to the repository first.

# Root runs apt-get itself; anyone else through sudo.
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

APT_UPDATED=""
# True when what a step needs is there: a command name, or an absolute path that must exist.
have() { # what
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

# Installs Debian packages (quietly) unless what a step needs is there already: `what` is a
# command name, or an absolute path (a header, a font, a library) that must exist. Packages are
# installed without their recommendations, so name every package the step needs, including
# what the first one only recommends (a cross compiler's C library headers, cmake's make).
need_pkg() { # what package...
  local what="$1"
  shift
  have "$what" && return 0
  apt_prefetch_wait
  have "$what" && return 0
  echo "installing $* (for $what)"
  if [ -z "$APT_UPDATED" ]; then
    sudo_ apt-get update -qq >/dev/null && APT_UPDATED=1
  fi
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Installs in one apt-get, in the background, the packages of every `what:package` pair whose
# `what` is missing, so that a fresh machine downloads and unpacks them while the first steps
# compile (minutes, one package at a time between the steps). need_pkg, and anything that runs
# apt-get, waits for it first (apt_prefetch_wait); a failed prefetch leaves the packages to
# need_pkg, one step at a time. Its log: $APT_PREFETCH_LOG.
APT_PREFETCH_PID=""
apt_prefetch() { # what:package...
  local pair missing=()
  for pair in "$@"; do
    have "${pair%%:*}" || missing+=("${pair#*:}")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  APT_PREFETCH_LOG="${APT_PREFETCH_LOG:-$ROOT/target/apt-prefetch.log}"
  mkdir -p "$(dirname "$APT_PREFETCH_LOG")"
  echo "installing in the background (log: ${APT_PREFETCH_LOG#$ROOT/}): ${missing[*]}"
  local t0=$SECONDS
  (
    sudo_ apt-get update -qq &&
      sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    status=$?
    echo "ended after $((SECONDS - t0)) s"
    exit $status
  ) > "$APT_PREFETCH_LOG" 2>&1 &
  APT_PREFETCH_PID=$!
  APT_PREFETCH_T0=$t0
}
apt_prefetch_wait() {
  [ -n "$APT_PREFETCH_PID" ] || return 0
  local pid="$APT_PREFETCH_PID"
  APT_PREFETCH_PID=""
  if wait "$pid"; then
    APT_UPDATED=1
    echo "(the background install $(tail -1 "$APT_PREFETCH_LOG"); waited for $((SECONDS - APT_PREFETCH_T0)) s after it began)"
  else
    echo "the background install failed (${APT_PREFETCH_LOG#$ROOT/}); each step installs what it needs"
    tail -3 "$APT_PREFETCH_LOG" | sed 's/^/  /'
  fi
}

# Installs a Rust target with rustup unless it is there; false when it cannot be installed.
need_target() { # target
  rustup target list --installed 2>/dev/null | grep -qx "$1" && return 0
  echo "installing the Rust target $1"
  timeout 300 rustup target add "$1" >/dev/null 2>&1
}

# The tools the scripts install themselves (zig and cargo-zigbuild, rcodesign, npm, TypeScript)
# live outside the checkout, each in a folder named by its version, so that a new clone, a
# `cargo clean` or CI's fresh checkout on the same machine finds them, as it finds what apt-get
# and rustup installed: BOIDS_TOOLS, or ~/.cache/boids-tools (XDG_CACHE_HOME). rcodesign alone
# takes minutes to build. A fresh machine installs each once (scripts/check-fresh proves it).
# Each is installed into a temporary folder and moved into place when whole, under a lock (two
# runs at once install it once).
TOOLS="${BOIDS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/boids-tools}"
ZIGLANG_VERSION=0.17.1
CARGO_ZIGBUILD_VERSION=0.24.1
RCODESIGN_VERSION=0.29.0

# Python tools in their own virtual environment (zig and cargo-zigbuild, from PyPI as prebuilt
# wheels: seconds, where `cargo install cargo-zigbuild` takes minutes). A virtual environment
# cannot move, so it is made in place and marked whole last. Puts cargo-zigbuild on PATH; false
# when they cannot be installed.
zig_venv() { echo "$TOOLS/py-ziglang-$ZIGLANG_VERSION-cargo-zigbuild-$CARGO_ZIGBUILD_VERSION"; }
need_zigbuild() {
  local venv
  venv="$(zig_venv)"
  if ! [ -f "$venv/.whole" ]; then
    need_pkg python3 python3 || return 1
    python3 -c 'import ensurepip' 2>/dev/null || need_pkg_force python3-venv || return 1
    mkdir -p "$TOOLS"
    (
      flock 9
      [ -f "$venv/.whole" ] && exit 0
      echo "installing ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION (PyPI) into $venv"
      rm -rf "$venv"
      python3 -m venv "$venv" >/dev/null &&
        "$venv/bin/pip" install -q --disable-pip-version-check \
          "ziglang==$ZIGLANG_VERSION" "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION" >/dev/null &&
        "$venv/bin/python" -c 'import ziglang' && touch "$venv/.whole"
    ) 9>"$TOOLS/.lock" || return 1
  fi
  case ":$PATH:" in *":$venv/bin:"*) ;; *) export PATH="$venv/bin:$PATH" ;; esac
  command -v cargo-zigbuild >/dev/null
}

# rcodesign (crates.io: apple-codesign, without its notarization client): it reads and checks
# Mach-O code signatures on Linux. Built once, then reused. Sets RCODESIGN; false when it cannot
# be built. Built unoptimised: it only checks a few libraries of a few MB (11 ms a check at the
# release profile's opt-level 3, 27 ms at 0), and the build takes 154 s instead of 258 (2 cores,
# measured one after the other, same answers on a signed and on a tampered library).
need_rcodesign() {
  local root="$TOOLS/rcodesign-$RCODESIGN_VERSION"
  RCODESIGN="$root/bin/rcodesign"
  [ -x "$RCODESIGN" ] && return 0
  mkdir -p "$TOOLS"
  (
    flock 9
    [ -x "$RCODESIGN" ] && exit 0
    echo "building rcodesign (crates.io: apple-codesign $RCODESIGN_VERSION) into $root (once)"
    rm -rf "$root.tmp"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=off \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_DEBUG=false \
      cargo install -q --locked --no-default-features --root "$root.tmp" --bin rcodesign \
      "apple-codesign@$RCODESIGN_VERSION" && rm -rf "$root" && mv "$root.tmp" "$root"
  ) 9>"$TOOLS/.lock" && [ -x "$RCODESIGN" ]
}

# The one nightly toolchain of the repository, pinned by date so that a newer nightly never
# breaks the test command: ThreadSanitizer (the library and std built with -Zsanitizer=thread,
# -Zbuild-std needs rust-src) and Miri run on it. rustup installs it with those components in
# the minimal profile (about 700 MB, 10 s here). Change the date here only, and check that the
# channel has both components that day (rustup refuses a nightly without them).
NIGHTLY=nightly-2026-05-20
# Installs the pinned nightly with rust-src and miri unless they are there; false when rustup
# cannot install them.
need_nightly() {
  if rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src' &&
    rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^miri'; then
    return 0
  fi
  echo "installing Rust $NIGHTLY with rust-src and miri (minimal profile; the sanitizers run on it)"
  timeout 900 rustup toolchain install "$NIGHTLY" --profile minimal --component rust-src,miri >/dev/null
}

# Installs Debian packages whatever commands exist.
need_pkg_force() { # package...
  apt_prefetch_wait
  echo "installing $*"
  if [ -z "$APT_UPDATED" ]; then
    sudo_ apt-get update -qq >/dev/null && APT_UPDATED=1
  fi
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Steps with their elapsed time; `steps_table` prints them all at the end.
STEP_NAMES=()
STEP_TIMES=()
STEP_T0=""
step() { # title...
  steps_close
  STEP_NAMES+=("$*")
  STEP_T0="$SECONDS"
  printf '\n== %s (at %d s)\n' "$*" "$SECONDS"
}
steps_close() {
  if [ -n "$STEP_T0" ]; then
    STEP_TIMES+=("$((SECONDS - STEP_T0))")
    STEP_T0=""
  fi
}
steps_table() {
  steps_close
  printf '\n%6s  %s\n' seconds step
  local i
  for i in "${!STEP_NAMES[@]}"; do
    printf '%6s  %s\n' "${STEP_TIMES[$i]:-?}" "${STEP_NAMES[$i]}"
  done
  printf '%6s  %s\n' "$SECONDS" total
}

# TypeScript's compiler (no dependencies of its own) from the npm registry into the tools folder,
# fetched by Node itself (Debian's nodejs comes without npm). Sets TSC; false when unavailable.
TS_VERSION=5.6.3
# npm, for packing and installing the npm package (the registry's own tarball: it bundles its
# dependencies and runs on the Node Debian ships; Debian's npm package pulls in hundreds more).
NPM_VERSION=10.8.2

# Unpacks the registry's tarball of npm package NAME at VERSION into the tools folder (its
# files in NAME-VERSION/package), fetched by Node itself; true once FILE (under package/) is
# there.
registry_tool() { # name version file
  local name="$1" version="$2" file="$3" dir="$TOOLS/$1-$2"
  [ -f "$dir/package/$file" ] && return 0
  mkdir -p "$TOOLS"
  (
    flock 9
    [ -f "$dir/package/$file" ] && exit 0
    echo "installing $name $version (npm registry) into $dir"
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || exit 1
    node -e '
      const [url, file] = process.argv.slice(1);
      fetch(url).then(async (r) => {
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        require("fs").writeFileSync(file, Buffer.from(await r.arrayBuffer()));
      }).catch((e) => { console.error(String(e)); process.exit(1); });
    ' "https://registry.npmjs.org/$name/-/$name-$version.tgz" "$dir.tmp/pkg.tgz" &&
      tar -xzf "$dir.tmp/pkg.tgz" -C "$dir.tmp" && rm -f "$dir.tmp/pkg.tgz" &&
      [ -f "$dir.tmp/package/$file" ] && rm -rf "$dir" && mv "$dir.tmp" "$dir"
  ) 9>"$TOOLS/.lock" && [ -f "$dir/package/$file" ]
}

need_npm() {
  NPM="$TOOLS/npm-$NPM_VERSION/package/bin/npm-cli.js"
  registry_tool npm "$NPM_VERSION" bin/npm-cli.js
}

need_tsc() {
  TSC="$TOOLS/typescript-$TS_VERSION/package/bin/tsc"
  registry_tool typescript "$TS_VERSION" bin/tsc
}

# Runs the shell functions named side by side, each into its own log (DIR/NAME.log), then
# prints the logs in the order given; LANES_FAILED names those that failed. Call it as a plain
# command, never in an `if`, `&&` or `||`: there bash ignores `set -e` in the lanes too, and a
# lane would run on past a failing command.
side_by_side() { # dir function...
  local dir="$1" f k=0 pids=()
  shift
  LANES_FAILED=()
  for f in "$@"; do
    ( "$f" ) > "$dir/$f.log" 2>&1 &
    pids+=($!)
  done
  for f in "$@"; do
    wait "${pids[$k]}" || LANES_FAILED+=("$f")
    cat "$dir/$f.log"
    k=$((k + 1))
  done
}
