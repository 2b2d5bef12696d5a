# Sourced by scripts/release, scripts/package-unity, scripts/install-c and scripts/test: the one
# place that knows how to build what ships, for every platform, and what each artifact holds.
# Cargo profile `dist` (fat LTO, one codegen unit, stripped).
#
# Linux libraries get the soname libboids_ffi.so.<major> (crates/ffi/build.rs, through
# BOIDS_VERSIONED_SONAME below) and ship with the .so.<major> and .so symlinks.
#
# Platforms, each built from this Linux machine:
#   linux-x86_64     cargo zigbuild, glibc 2.17 (runs on every glibc Linux since 2012)
#   linux-aarch64    cargo zigbuild, glibc 2.17
#   windows-x86_64   the mingw-w64 linker; import libraries for MSVC (llvm-dlltool) and mingw
#   macos-universal  x86_64 and arm64 linked by ld64.lld against zig's libSystem stubs, joined by
#                    llvm-lipo; each slice ad-hoc signed by the linker (-adhoc_codesign), the
#                    signature redone by llvm-strip (built and inspected here, never run: no Mac)
#   android, ios     static libraries (scripts/lib/phones.sh: built and checked here, never run)
# Callers set ROOT to the repository and source scripts/lib/common.sh first.

PLATFORMS="linux-x86_64 linux-aarch64 windows-x86_64 macos-universal android ios"
# shellcheck source=scripts/lib/phones.sh
. "$ROOT/scripts/lib/phones.sh"

# The workspace version, from Cargo.toml.
boids_version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -1
}

# The functions of include/boids.h, one a line, sorted.
header_functions() {
  grep -oE '\bboids_[a-z0-9_]+\(' "$ROOT/include/boids.h" | tr -d '(' | LC_ALL=C sort -u
}

# What ships has a versioned soname on Linux (crates/ffi/build.rs).
export BOIDS_VERSIONED_SONAME=1

# Builds boids-ffi for the host; prints the directory of the artifacts.
dist_build() {
  cargo build -q --profile dist -p boids-ffi --lib >&2
  echo "$ROOT/target/dist"
}

# The Rust targets of a platform.
platform_targets() { # platform
  case "$1" in
    linux-x86_64) echo x86_64-unknown-linux-gnu ;;
    linux-aarch64) echo aarch64-unknown-linux-gnu ;;
    windows-x86_64) echo x86_64-pc-windows-gnu ;;
    macos-universal) echo "x86_64-apple-darwin aarch64-apple-darwin" ;;
    android | ios) ;; # built with the standard library from source (scripts/lib/phones.sh)
    *) return 1 ;;
  esac
}

# What a program needs beside the static library (rustc --print native-static-libs, plus the
# C runtime the platform's compiler links anyway).
static_libs() { # platform
  case "$1" in
    linux-*) echo "-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc" ;;
    windows-*) echo "-lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp -lbcrypt" ;;
    macos-*) echo "-lSystem -lc -lm" ;;
  esac
}

# Makes sure the tools of a platform are here, installing them when INSTALL=1. On failure
# sets WHY to one line and returns 1.
WHY=""
platform_tools() { # platform
  local t
  WHY=""
  for t in $(platform_targets "$1"); do
    if [ "${INSTALL:-0}" = 1 ]; then
      need_target "$t" || { WHY="the Rust target $t could not be installed (rustup target add $t)"; return 1; }
    elif ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
      WHY="the Rust target $t is not installed (rustup target add $t, or run scripts/release)"
      return 1
    fi
  done
  tool() { # command debian-package
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "${INSTALL:-0}" = 1 ]; then need_pkg "$1" "$2" && return 0; fi
    WHY="$1 is missing (Debian package $2)"
    return 1
  }
  tool llvm-nm llvm && tool llvm-strip llvm || return 1
  case "$1" in
    android | ios)
      tool llvm-objdump llvm && tool llvm-readelf llvm && tool python3 python3 || return 1
      lipo_tool >/dev/null || { WHY="llvm-lipo is missing (Debian package llvm)"; return 1; }
      phone_tools || return 1 ;;
    linux-*)
      if [ "${INSTALL:-0}" = 1 ]; then
        need_zigbuild || { WHY="zig and cargo-zigbuild could not be installed from PyPI"; return 1; }
      elif ! command -v cargo-zigbuild >/dev/null; then
        WHY="cargo-zigbuild is missing (pip install ziglang cargo-zigbuild, or run scripts/release)"
        return 1
      fi ;;
    windows-*) tool x86_64-w64-mingw32-gcc mingw-w64 && tool llvm-dlltool llvm || return 1 ;;
    macos-*)
      tool clang clang && tool llvm-objdump llvm || return 1
      # clang finds ld64.lld in LLVM's own folder; Debian puts only versioned names on PATH.
      ls /usr/bin/ld64.lld* /usr/lib/llvm-*/bin/ld64.lld >/dev/null 2>&1 || tool ld64.lld lld || return 1
      lipo_tool >/dev/null || { WHY="llvm-lipo is missing (Debian package llvm)"; return 1; }
      if [ "${INSTALL:-0}" = 1 ]; then
        need_zigbuild || { WHY="zig (for the macOS system library stubs) could not be installed"; return 1; }
      fi
      macos_sdk_stub >/dev/null || { WHY="no macOS system library stubs (zig's libSystem.tbd)"; return 1; } ;;
  esac
}

# A minimal macOS "SDK" for ld64.lld: zig's text stub of libSystem (which names the symbols every
# macOS since 11 exports), with arm64 listed beside arm64e, the one edit LLVM 14 needs to read it.
# Prints its directory.
macos_sdk_stub() {
  local dir py tbd
  dir="$(zig_venv)/macos-sdk-2" # -2: with libiconv.tbd
  if [ ! -f "$dir/usr/lib/libSystem.tbd" ]; then
    py="$(zig_venv)/bin/python"
    [ -x "$py" ] || py=python3
    tbd="$("$py" -c 'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "lib/libc/darwin/libSystem.tbd"))' 2>/dev/null)" || return 1
    [ -f "$tbd" ] || return 1
    rm -rf "$dir.tmp.$$"
    mkdir -p "$dir.tmp.$$/usr/lib"
    "$py" - "$tbd" "$dir.tmp.$$/usr/lib/libSystem.tbd" <<'PY' || return 1
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'arm64e\.x1-(macos|maccatalyst)\s*,?\s*', '', text)  # unknown to LLVM 14
text = text.replace('arm64e-macos', 'arm64-macos, arm64e-macos')
text = re.sub(r',\s*\]', ' ]', text)
open(sys.argv[2], 'w').write(text)
PY
    ln -sf libSystem.tbd "$dir.tmp.$$/usr/lib/libc.tbd"
    ln -sf libSystem.tbd "$dir.tmp.$$/usr/lib/libm.tbd"
    # The libc crate names libiconv for its iconv bindings (rustc then passes -liconv), which
    # the engine never calls: resolved against libSystem, the library gets no libiconv load
    # command, and a call to iconv would fail the link here instead of passing unnoticed.
    ln -sf libSystem.tbd "$dir.tmp.$$/usr/lib/libiconv.tbd"
    # Another run may have made it meanwhile: theirs is the same.
    mv -T "$dir.tmp.$$" "$dir" 2>/dev/null || rm -rf "$dir.tmp.$$"
  fi
  echo "$dir"
}

# llvm-lipo, which Debian installs under a versioned name only.
lipo_tool() {
  command -v llvm-lipo 2>/dev/null || ls /usr/bin/llvm-lipo-* 2>/dev/null | sort -V | tail -1 | grep .
}

# Builds boids-ffi for one Rust target; prints the directory of the artifacts.
target_build() { # platform target
  local env_target
  env_target="$(echo "$2" | tr 'a-z-' 'A-Z_')"
  case "$1" in
    linux-*)
      cargo zigbuild -q --profile dist -p boids-ffi --lib --target "$2.2.17" >&2 || return 1 ;;
    windows-*)
      cargo build -q --profile dist -p boids-ffi --lib --target "$2" >&2 || return 1 ;;
    macos-*)
      local sdk clang_target
      sdk="$(macos_sdk_stub)"
      case "$2" in
        aarch64-*) clang_target=arm64-apple-macos11 ;;
        x86_64-*) clang_target=x86_64-apple-macos10.12 ;;
      esac
      env "CARGO_TARGET_${env_target}_LINKER=clang" \
        "CARGO_TARGET_${env_target}_RUSTFLAGS=-C link-arg=-fuse-ld=lld -C link-arg=--target=$clang_target -C link-arg=-isysroot -C link-arg=$sdk -C link-arg=-Wl,-adhoc_codesign" \
        cargo build -q --profile dist -p boids-ffi --lib --target "$2" >&2 || return 1 ;;
  esac
  echo "$ROOT/target/$2/dist"
}

# The names a library exports, one a line (without the Mach-O leading underscore).
exported() { # file [arch]
  case "$1" in
    *.so | *.so.*) llvm-nm -D --defined-only "$1" | awk '{print $3}' ;;
    *.dll) llvm-readobj --coff-exports "$1" | sed -n 's/^ *Name: //p' ;;
    *.dylib) llvm-nm --arch="$2" -gU "$1" | awk '{print $3}' | sed 's/^_//' ;;
    *.dll.a | *.lib) # import libraries: the __imp_ entries name the DLL's functions
      llvm-nm --no-llvm-bc "$1" 2>/dev/null | awk '{print $NF}' | sed -n 's/^__imp_\(boids_.*\)/\1/p' ;;
    *.a) # objects carry LLVM bitcode of a newer LLVM than Debian's: read the machine code only
      llvm-nm --no-llvm-bc ${2:+--arch="$2"} --defined-only "$1" 2>/dev/null |
        awk '$2 == "T" {print $3}' | sed 's/^_//' | grep '^boids_' ;;
  esac | LC_ALL=C sort -u
}

# The names a library needs from elsewhere, one a line (without the Mach-O leading underscore
# or an ELF version). Import libraries (.dll.a, .lib) name only the DLL's own functions: none.
imported() { # file
  case "$1" in
    *.dll.a | *.lib) ;;
    *.so | *.so.*) llvm-nm -D --undefined-only "$1" | awk '{print $NF}' | sed 's/@.*//' ;;
    *.dll) llvm-readobj --coff-imports "$1" | sed -n 's/^ *Symbol: \([^ ]*\).*/\1/p' ;;
    *.wasm) # the module's imports, as the engine that loads it sees them
      node -e 'for (const i of WebAssembly.Module.imports(new WebAssembly.Module(require("fs").readFileSync(process.argv[1])))) console.log(i.name)' "$1" ;;
    *.dylib | *.a) # machine code only (the bitcode is a newer LLVM's than Debian's)
      llvm-nm --no-llvm-bc --undefined-only "$1" 2>/dev/null | awk 'NF >= 2 {print $NF}' | sed 's/^_//' ;;
  esac | LC_ALL=C sort -u
}

# Fails (WHY set) if a library calls a C library's float max or min (fmax, fminf, fmaximum,
# ...): those leave the sign of a zero result to the platform, so the engine's own compares
# (boids_core::fmath::Order) must stand everywhere. 32-bit ARM, where no instruction does it,
# is where they would appear.
check_no_libm_order() { # file
  local names bad
  names="$(set -o pipefail; imported "$1")" || { WHY="could not list what $(basename "$1") imports"; return 1; }
  bad="$(grep -E '^(fmax|fmin)(imum|imum_num|imum_mag|imum_mag_num)?[fl]?$' <<<"$names" | tr '\n' ' ')"
  [ -z "$bad" ] || { WHY="$(basename "$1") calls the C library's float max/min: $bad"; return 1; }
}

# Fails (WHY set) unless every slice of a Mach-O library carries a valid ad-hoc signature: a code
# directory whose page hashes match the file (what macOS checks before it maps an arm64 library;
# a strip after signing breaks them). `rcodesign verify` lists problems per slice ("@0: ...");
# an ad-hoc signature has no CMS signature by definition, so that one line per slice is expected,
# and anything else (no signature, a digest mismatch, __LINKEDIT out of place) is a failure.
check_macos_signature() { # file
  local out slice want=""
  out="$("$RCODESIGN" verify "$1" 2>&1 | grep '^@' || true)"
  for slice in 0 1; do want+="@$slice: no cryptographic signature present"$'\n'; done
  if [ "$out"$'\n' != "$want" ]; then
    WHY="its code signature: $(echo "$out" | grep -v 'no cryptographic signature present' | head -3 | tr '\n' ' ')"
    [ -n "$out" ] || WHY="its code signature: rcodesign found no slices"
    return 1
  fi
}

# Fails (WHY set) unless a library exports exactly the header's functions.
check_exports() { # file [arch]
  local want got
  want="$(header_functions)"
  got="$(exported "$@")"
  if [ "$want" != "$got" ]; then
    WHY="$(basename "$1")${2:+ ($2)}: exports differ from include/boids.h: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -3 | tr '\n' ' ')"
    return 1
  fi
}

# The Linux libraries from a build directory into LIBDIR: libboids_ffi.so.X.Y.Z with the soname
# symlinks libboids_ffi.so.X and libboids_ffi.so, and the static library without debug info.
install_linux_libs() { # build-dir libdir
  local v major
  v="$(boids_version)"
  major="${v%%.*}"
  mkdir -p "$2"
  install -m 0755 "$1/libboids_ffi.so" "$2/libboids_ffi.so.$v"
  ln -sf "libboids_ffi.so.$v" "$2/libboids_ffi.so.$major"
  ln -sf "libboids_ffi.so.$major" "$2/libboids_ffi.so"
  slim_static "$1/libboids_ffi.a" "$2/libboids_ffi.a"
}

# A static library without debug info and without the LLVM bitcode rustc embeds in every object
# (for cross-language LTO with rustc's own LLVM only): 22 MB becomes about 7 on Linux.
slim_static() { # in out
  local sections="--remove-section=.llvmbc --remove-section=.llvmcmd"
  case "$1" in *-apple-*) sections="--remove-section=__LLVM,__bitcode --remove-section=__LLVM,__cmdline" ;; esac
  local objcopy=llvm-objcopy
  command -v llvm-objcopy >/dev/null || objcopy=objcopy # GNU binutils reads ELF and COFF too
  $objcopy --strip-debug $sections "$1" "$2"
  chmod 0644 "$2"
}

# Builds a platform's libraries into DIR/lib (and DIR/bin for Windows), stripped, exports
# checked. On failure sets WHY and returns 1.
platform_build() { # platform dir
  local p="$1" dir="$2" v major t out
  v="$(boids_version)"
  major="${v%%.*}"
  mkdir -p "$dir/lib"
  case "$p" in
    linux-*)
      t="$(platform_targets "$p")"
      out="$(target_build "$p" "$t" 2>"$dir/build.log")" ||
        { WHY="the build failed: $(tail -1 "$dir/build.log")"; return 1; }
      install_linux_libs "$out" "$dir/lib"
      local glibc
      glibc="$(llvm-readelf --dyn-syms -V "$dir/lib/libboids_ffi.so.$v" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)"
      if [ "$(printf '%s\n2.17\n' "$glibc" | sort -V | tail -1)" != 2.17 ]; then
        WHY="libboids_ffi.so needs glibc $glibc (more than 2.17)"
        return 1
      fi
      check_exports "$dir/lib/libboids_ffi.so.$v" && check_exports "$dir/lib/libboids_ffi.a" || return 1 ;;
    windows-*)
      t="$(platform_targets "$p")"
      out="$(target_build "$p" "$t" 2>"$dir/build.log")" ||
        { WHY="the build failed: $(tail -1 "$dir/build.log")"; return 1; }
      mkdir -p "$dir/bin"
      install -m 0755 "$out/boids_ffi.dll" "$dir/bin/boids_ffi.dll"
      install -m 0644 "$out/libboids_ffi.dll.a" "$dir/lib/libboids_ffi.dll.a"
      slim_static "$out/libboids_ffi.a" "$dir/lib/libboids_ffi.a"
      { echo "LIBRARY boids_ffi.dll"; echo "EXPORTS"; header_functions | sed 's/^/    /'; } > "$dir/lib/boids_ffi.def"
      llvm-dlltool -m i386:x86-64 -d "$dir/lib/boids_ffi.def" -l "$dir/lib/boids_ffi.lib"
      check_exports "$dir/bin/boids_ffi.dll" && check_exports "$dir/lib/boids_ffi.lib" &&
        check_exports "$dir/lib/libboids_ffi.dll.a" && check_exports "$dir/lib/libboids_ffi.a" || return 1 ;;
    macos-*)
      local dylibs=() archives=()
      for t in $(platform_targets "$p"); do
        out="$(target_build "$p" "$t" 2>"$dir/build.log")" ||
          { WHY="the $t build failed: $(tail -1 "$dir/build.log")"; return 1; }
        dylibs+=("$out/libboids_ffi.dylib")
        slim_static "$out/libboids_ffi.a" "$dir/lib/$t.a"
        archives+=("$dir/lib/$t.a")
      done
      "$(lipo_tool)" -create "${dylibs[@]}" -output "$dir/lib/libboids_ffi.dylib"
      "$(lipo_tool)" -create "${archives[@]}" -output "$dir/lib/libboids_ffi.a"
      rm -f "${archives[@]}"
      llvm-strip -x "$dir/lib/libboids_ffi.dylib"
      local arch
      for arch in x86_64 arm64; do
        check_exports "$dir/lib/libboids_ffi.dylib" "$arch" && check_exports "$dir/lib/libboids_ffi.a" "$arch" || return 1
      done ;;
    android | ios) phone_platform_build "$p" "$dir" || return 1 ;;
    *) WHY="unknown platform $p (known: $PLATFORMS)"; return 1 ;;
  esac
  rm -f "$dir/build.log"
}

# The shared library of a built platform directory.
platform_shared_lib() { # platform dir
  case "$1" in
    linux-*) echo "$2/lib/libboids_ffi.so.$(boids_version)" ;;
    windows-*) echo "$2/bin/boids_ffi.dll" ;;
    macos-*) echo "$2/lib/libboids_ffi.dylib" ;;
  esac
}

# Headers, CMake package, pkg-config file, licence texts and a README into DIR (which already
# holds lib/ and, on Windows, bin/); the texts go to DOCDIR (default DIR). The CMake and
# pkg-config files find the prefix from their own path, so the tree can be moved.
write_c_package() { # platform dir [docdir]
  case "$1" in android | ios) write_phone_package "$@"; return ;; esac
  local p="$1" dir="$2" doc="${3:-$2}" v major minor
  v="$(boids_version)"
  major="${v%%.*}"
  minor="$(echo "$v" | cut -d. -f2)"
  mkdir -p "$dir/include" "$dir/lib/cmake/boids" "$dir/lib/pkgconfig"
  install -m 0644 "$ROOT/include/boids.h" "$ROOT/bindings/cpp/boids.hpp" "$ROOT/bindings/cpp/boids_enums.hpp" "$dir/include/"
  mkdir -p "$doc"
  install -m 0644 "$ROOT/LICENSE-MIT" "$ROOT/LICENSE-APACHE" "$ROOT/THIRD-PARTY-LICENSES.md" "$doc/"

  local system cmake_shared cmake_static libs
  libs="$(static_libs "$p")"
  case "$p" in
    linux-*)
      system=Linux
      cmake_shared="IMPORTED_LOCATION \"\${_boids_prefix}/lib/libboids_ffi.so.$v\"
    IMPORTED_SONAME \"libboids_ffi.so.$major\"" ;;
    macos-*)
      system=Darwin
      cmake_shared="IMPORTED_LOCATION \"\${_boids_prefix}/lib/libboids_ffi.dylib\"
    IMPORTED_SONAME \"@rpath/libboids_ffi.dylib\"" ;;
    windows-*)
      system=Windows
      cmake_shared="IMPORTED_LOCATION \"\${_boids_prefix}/bin/boids_ffi.dll\"
    IMPORTED_IMPLIB \"\${_boids_prefix}/lib/\${_boids_implib}\"" ;;
  esac
  # CMake link items: -lfoo -> foo, and Threads through its own target.
  cmake_static="Threads::Threads"
  for l in $libs; do
    case "$l" in -lpthread | -lc) ;; -l*) cmake_static="$cmake_static;${l#-l}" ;; esac
  done

  {
    echo "# boids $v for $p: imported targets boids::boids (shared) and boids::boids_static."
    echo "# Written by scripts/lib/dist.sh; finds the prefix from this file's own path."
    echo 'get_filename_component(_boids_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)'
    echo 'include(CMakeFindDependencyMacro)'
    echo 'find_dependency(Threads)'
    if [ "$system" = Windows ]; then
      echo '# MSVC (and clang-cl) link the DLL through boids_ffi.lib; mingw through libboids_ffi.dll.a.'
      echo 'if(MSVC)'
      echo '  set(_boids_implib "boids_ffi.lib")'
      echo 'else()'
      echo '  set(_boids_implib "libboids_ffi.dll.a")'
      echo 'endif()'
    fi
    echo 'if(NOT TARGET boids::boids)'
    echo '  add_library(boids::boids SHARED IMPORTED)'
    echo '  set_target_properties(boids::boids PROPERTIES'
    echo "    $cmake_shared"
    echo '    INTERFACE_INCLUDE_DIRECTORIES "${_boids_prefix}/include")'
    echo 'endif()'
    if [ "$system" = Windows ]; then
      echo '# The static library is a mingw (GNU) archive: MSVC links the DLL instead.'
      echo 'if(NOT TARGET boids::boids_static AND NOT MSVC)'
    else
      echo 'if(NOT TARGET boids::boids_static)'
    fi
    echo '  add_library(boids::boids_static STATIC IMPORTED)'
    echo '  set_target_properties(boids::boids_static PROPERTIES'
    echo '    IMPORTED_LOCATION "${_boids_prefix}/lib/libboids_ffi.a"'
    echo '    IMPORTED_LINK_INTERFACE_LANGUAGES "C"'
    echo '    INTERFACE_INCLUDE_DIRECTORIES "${_boids_prefix}/include"'
    echo "    INTERFACE_LINK_LIBRARIES \"$cmake_static\")"
    echo 'endif()'
    echo "set(boids_VERSION \"$v\")"
    echo 'unset(_boids_prefix)'
    [ "$system" = Windows ] && echo 'unset(_boids_implib)'
  } > "$dir/lib/cmake/boids/boidsConfig.cmake"

  cat > "$dir/lib/cmake/boids/boidsConfigVersion.cmake" <<EOF
# boids $v ($p) is compatible with a request for the same major version at or below it
# (find_package(boids 0.$minor) accepts it, 1.0 does not), on $system with 64-bit pointers.
# Written by scripts/lib/dist.sh.
set(PACKAGE_VERSION "$v")
if(PACKAGE_FIND_VERSION_MAJOR STREQUAL "" OR PACKAGE_FIND_VERSION_MAJOR EQUAL "$major")
  if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  else()
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
    if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
      set(PACKAGE_VERSION_EXACT TRUE)
    endif()
  endif()
else()
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
endif()
if(NOT CMAKE_SIZEOF_VOID_P STREQUAL "" AND NOT CMAKE_SIZEOF_VOID_P EQUAL "8")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
elseif(NOT CMAKE_SYSTEM_NAME STREQUAL "$system")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} ($system)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
EOF

  cat > "$dir/lib/pkgconfig/boids.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: boids
Description: Deterministic flocking engine (boids): the C ABI, and a C++17 header-only wrapper
Version: $v
Libs: -L\${libdir} -lboids_ffi
Libs.private: $libs
Cflags: -I\${includedir}
EOF

  local link run
  case "$p" in
    linux-*)
      link="cc -std=c11 main.c -Iinclude -Llib -lboids_ffi -Wl,-rpath,'\$ORIGIN/lib'"
      run="The program finds lib/libboids_ffi.so.$major through its rpath; or copy the library next to it." ;;
    macos-*)
      link="cc -std=c11 main.c -Iinclude -Llib -lboids_ffi -Wl,-rpath,@executable_path/lib"
      run="The library's install name is @rpath/libboids_ffi.dylib: give your program an rpath (as above), or put the library next to it with -Wl,-rpath,@executable_path." ;;
    windows-*)
      link="x86_64-w64-mingw32-gcc -std=c11 main.c -Iinclude -Llib -lboids_ffi   (MSVC: cl main.c /Iinclude lib\\boids_ffi.lib)"
      run="Put bin/boids_ffi.dll next to your program." ;;
  esac
  cat > "$doc/README.txt" <<EOF
boids $v for $p: the C ABI of a deterministic flocking engine.

Link (shared library):
    $link
$run

Static library: lib/libboids_ffi.a, plus $libs
(pkg-config --static --libs boids prints them).
CMake: find_package(boids $major.$minor REQUIRED) with -DCMAKE_PREFIX_PATH=<this folder>, then
target_link_libraries(app PRIVATE boids::boids) or boids::boids_static.
C++: #include "boids.hpp" (C++17, header-only, over the same library).

Every platform's library gives the same bits: the same calls and seed give the same state hash
and the same save files on Linux, Windows and macOS, on x86-64 and arm64.
Licence: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE); the libraries carry the Rust standard
library and the crates listed in THIRD-PARTY-LICENSES.md.
EOF
}
