# Sourced by scripts/lib/dist.sh: the phone platforms, built on this Linux machine without an
# Android NDK or Xcode, and checked here (no phone runs here).
#
#   android  static libraries for arm64-v8a, armeabi-v7a and x86_64 (API 21+), a CMake package
#            that picks the library by ANDROID_ABI
#   ios      static libraries for the device (arm64, iOS 12+) and the simulator (arm64, iOS 14+,
#            and x86_64, iOS 12+, in one universal archive), and BoidsFFI.xcframework holding
#            both with the headers
#
# Static libraries only: rustc writes them without a linker. An Android shared library would
# need bionic's libraries to link against (the NDK's sysroot), which this machine does not have;
# Unity links a static plugin into its player (IL2CPP) and an NDK or Xcode project links it into
# its app, and that final link sets the page alignment (16 KB for Google Play) and the code
# signature. Each library is built with the standard library compiled in (cargo -Zbuild-std,
# under RUSTC_BOOTSTRAP=1 on the pinned stable toolchain: rustup has no prebuilt standard library
# for the simulator targets here), so link-time optimisation spans it too and nothing in it
# carries debug information.
#
# Every library is then made lean and private: the one object the link-time optimisation made,
# without debug information or the LLVM bitcode rustc embeds, and without the compiler-builtins
# object (the platform's compiler runtime provides those functions, and two copies could clash).
# Every defined symbol but the C ABI's is made local (ELF) or private extern (Mach-O, where
# rust_eh_personality also becomes a weak definition, so that two Rust libraries in one app do
# not clash), so the library exports exactly the functions of include/boids.h.
#
# Checks (check_phone_library), for every library, each time scripts/release builds them:
#   - the object format and architecture it claims (ELF AArch64, ARM, x86-64; Mach-O arm64 and
#     x86_64), and for iOS the platform (device or simulator) and the minimum OS stated above;
#   - it exports exactly the functions of include/boids.h;
#   - every symbol it needs from elsewhere is on the allow-list of its platform
#     (scripts/lib/phone-symbols/android.txt: libc, libm, libdl, liblog and the compiler
#     runtime; ios.txt: libSystem): a new one fails until it is listed;
#   - it carries the code tested elsewhere: its target has the architecture and the target
#     features every cfg of the engine's source asks about of the target whose library runs in
#     the tests (aarch64 and x86-64 Linux, armv7 Linux under qemu-arm), and the kernel's
#     instructions are there (NEON vector arithmetic on arm64; none on 32-bit ARM, whose kernel
#     is the scalar one).

ANDROID_TARGETS="aarch64-linux-android armv7-linux-androideabi x86_64-linux-android"
IOS_TARGETS="aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios"
# Minimum OS versions, stated in the docs and checked in every object.
IOS_MIN=12.0
IOS_SIM_ARM64_MIN=14.0 # the first iOS with an arm64 simulator
ANDROID_MIN_API=21

# The Android ABI name of a Rust target.
android_abi() { # target
  case "$1" in
    aarch64-*) echo arm64-v8a ;;
    armv7-*) echo armeabi-v7a ;;
    x86_64-*) echo x86_64 ;;
  esac
}

# The target whose library the tests run, with the same code.
tested_twin() { # target
  case "$1" in
    aarch64-*) echo aarch64-unknown-linux-gnu ;;
    armv7-*) echo armv7-unknown-linux-gnueabihf ;;
    x86_64-*) echo x86_64-unknown-linux-gnu ;;
  esac
}

# Makes sure rust-src (for -Zbuild-std) is here; on failure sets WHY.
phone_tools() {
  local src
  src="$(rustc --print sysroot)/lib/rustlib/src/rust/library/std"
  if [ ! -d "$src" ]; then
    if [ "${INSTALL:-0}" = 1 ]; then
      rustup component add rust-src >&2 || { WHY="rustup component add rust-src failed"; return 1; }
    else
      WHY="the rust-src component is missing (rustup component add rust-src)"
      return 1
    fi
  fi
}

# Builds the static library of one phone target; prints its path. The phone builds have their
# own target folder (phones/ in cargo's): RUSTC_BOOTSTRAP=1, which -Zbuild-std needs, is in the
# fingerprint of proc-macro2's build script, so in a shared folder every phone build made cargo
# rebuild the proc-macros, and all after them, for the next desktop build, and back (measured:
# the Windows library rebuilt in 24 s after an Android one, with no source changed).
phone_build_target() { # target
  local extra=() dir="${CARGO_TARGET_DIR:-$ROOT/target}/phones"
  # generator 0.8 (a dependency of kiddo's) picks its Mach-O context-switch assembly on x86-64 for
  # target_os = "macos" only, and the ELF one for the x86-64 iOS simulator, which does not
  # assemble. The simulator is Darwin on x86-64 like macOS: build that one crate as for macOS.
  case "$1" in
    x86_64-apple-ios)
      extra=(-Zprofile-rustflags --config 'profile.dist.package.generator.rustflags=["--cfg","target_os=\"macos\""]') ;;
  esac
  env RUSTC_BOOTSTRAP=1 "IPHONEOS_DEPLOYMENT_TARGET=$IOS_MIN" "CARGO_TARGET_DIR=$dir" \
    cargo rustc -q -Zbuild-std=std,panic_unwind "${extra[@]}" --profile dist -p boids-ffi --lib \
    --target "$1" --crate-type staticlib >&2 || return 1
  echo "$dir/$1/dist/libboids_ffi.a"
}

# The defined external symbols of an object (ELF or Mach-O; Mach-O names keep their "_").
defined_symbols() { # object
  llvm-nm --no-llvm-bc --defined-only --extern-only "$1" 2>/dev/null | awk 'NF == 3 {print $3}'
}

# The undefined symbols of an ELF object or archive, one a line.
undefined_symbols() { # file
  llvm-nm --no-llvm-bc -u "$1" 2>/dev/null | awk 'NF == 2 {print $2}' | LC_ALL=C sort -u
}

# The lean, private static library of one target (see the top of this file). On failure sets WHY.
slim_phone_archive() { # in out target
  local x main m in
  in="$(realpath "$1")"
  x="$(mktemp -d "${TMPDIR:-/tmp}/boids-phone.XXXXXX")"
  (cd "$x" && llvm-ar x "$in")
  main="$(ls "$x"/boids_ffi-*.o 2>/dev/null)"
  if [ "$(echo "$main" | grep -c .)" != 1 ]; then
    WHY="$(basename "$in") ($3): expected one object from link-time optimisation, found: $(ls "$x" | tr '\n' ' ')"
    rm -rf "$x"; return 1
  fi
  # The only other member is compiler-builtins: the platform's compiler runtime (clang's
  # builtins, linked by every NDK and Xcode link) provides what the code uses of it, which the
  # allow-list check then sees among the symbols the library needs.
  for m in "$x"/*.o; do
    [ "$m" = "$main" ] && continue
    case "$(basename "$m")" in
      compiler_builtins-*) ;;
      *) WHY="$3: an unexpected object in the static library: $(basename "$m")"; rm -rf "$x"; return 1 ;;
    esac
  done
  case "$3" in
    *-apple-*)
      llvm-objcopy --strip-debug --remove-section=__LLVM,__bitcode --remove-section=__LLVM,__cmdline "$main" "$x/boids_ffi.o"
      python3 "$ROOT/scripts/lib/macho.py" hide "$x/boids_ffi.o"
      rm -f "$2"
      llvm-ar --format=darwin rcsD "$2" "$x/boids_ffi.o" ;;
    *)
      llvm-objcopy --wildcard --keep-global-symbol='boids_*' --strip-debug \
        --remove-section=.llvmbc --remove-section=.llvmcmd "$main" "$x/boids_ffi.o"
      llvm-objcopy --strip-unneeded "$x/boids_ffi.o"
      rm -f "$2"
      llvm-ar --format=gnu rcsD "$2" "$x/boids_ffi.o" ;;
  esac
  chmod 0644 "$2"
  rm -rf "$x"
}

# Runs f on each thin archive of a (possibly universal) Mach-O archive: f archive arch.
each_slice() { # file f
  local arch t
  # A universal file starts with FAT_MAGIC (llvm-lipo 14 crashes on some thin archives' -info).
  if [ "$(od -An -tx1 -N4 "$1" | tr -d ' \n')" = cafebabe ]; then
    t="$(mktemp -d "${TMPDIR:-/tmp}/boids-slice.XXXXXX")"
    for arch in $("$(lipo_tool)" -archs "$1"); do
      "$(lipo_tool)" -thin "$arch" "$1" -output "$t/$arch.a"
      "$2" "$t/$arch.a" "$arch" || { rm -rf "$t"; return 1; }
    done
    rm -rf "$t"
  else
    "$2" "$1" "" # a thin archive: the objects say their architecture
  fi
}

# The checks of one phone library (see the top of this file); on failure sets WHY.
# kind: android-<abi> | ios-device | ios-simulator
check_phone_library() { # file kind
  local lib kind="$2" name x
  lib="$(realpath "$1")"
  name="${lib#$ROOT/}"
  x="$(mktemp -d "${TMPDIR:-/tmp}/boids-check.XXXXXX")"
  case "$kind" in
    android-*)
      local want_class want_machine got
      case "$kind" in
        android-arm64-v8a) want_class=ELF64 want_machine=AArch64 ;;
        android-armeabi-v7a) want_class=ELF32 want_machine=ARM ;;
        android-x86_64) want_class=ELF64 want_machine=X86-64 ;;
      esac
      got="$(llvm-readelf -h "$lib" 2>/dev/null | awk -F: '/Class:|Machine:/ {gsub(/^ +/, "", $2); printf "%s ", $2}')"
      case "$got" in
        *"$want_class "*"$want_machine "*) ;;
        *) WHY="$name: expected $want_class $want_machine objects, found: $got"; rm -rf "$x"; return 1 ;;
      esac
      defined_symbols "$lib" | LC_ALL=C sort -u > "$x/exports"
      undefined_symbols "$lib" > "$x/needs"
      allowed="$ROOT/scripts/lib/phone-symbols/android.txt" ;;
    ios-*)
      local want_platform
      case "$kind" in ios-device) want_platform=ios ;; ios-simulator) want_platform=iossimulator ;; esac
      slice_check() { # thin-archive arch
        local y o p a
        a="$(realpath "$1")"
        y="$(mktemp -d "${TMPDIR:-/tmp}/boids-slice.XXXXXX")"
        (cd "$y" && llvm-ar x "$a")
        for o in "$y"/*.o; do
          read -r p min cpu <<<"$(python3 "$ROOT/scripts/lib/macho.py" platform "$o")"
          local want_min="$IOS_MIN" arch="${2:-$cpu}"
          [ "$want_platform/$cpu" = iossimulator/arm64 ] && want_min="$IOS_SIM_ARM64_MIN"
          if [ "$p $min $cpu" != "$want_platform $want_min $arch" ]; then
            WHY="$name ($arch): $(basename "$o") is for '$p $min $cpu', want '$want_platform $want_min $arch'"
            rm -rf "$y"; return 1
          fi
          python3 "$ROOT/scripts/lib/macho.py" exports "$o" | sed 's/^_//' >> "$x/exports.$arch"
          python3 "$ROOT/scripts/lib/macho.py" undefined "$o" | awk '{print $1}' | sed 's/^_//' >> "$x/needs"
          echo "$arch" >> "$x/archs"
        done
        rm -rf "$y"
      }
      each_slice "$lib" slice_check || { rm -rf "$x"; return 1; }
      local archs
      archs="$(LC_ALL=C sort -u "$x/archs" | tr '\n' ' ')"
      case "$kind" in
        ios-device) [ "$archs" = "arm64 " ] || { WHY="$name: architectures '$archs', want 'arm64'"; rm -rf "$x"; return 1; } ;;
        ios-simulator) [ "$archs" = "arm64 x86_64 " ] || { WHY="$name: architectures '$archs', want 'arm64 x86_64'"; rm -rf "$x"; return 1; } ;;
      esac
      for a in $archs; do
        LC_ALL=C sort -u "$x/exports.$a" > "$x/exports"
        if [ "$(header_functions)" != "$(cat "$x/exports")" ]; then
          WHY="$name ($a): exports differ from include/boids.h: $(diff <(header_functions) "$x/exports" | grep '^[<>]' | head -3 | tr '\n' ' ')"
          rm -rf "$x"; return 1
        fi
      done
      LC_ALL=C sort -u -o "$x/needs" "$x/needs"
      allowed="$ROOT/scripts/lib/phone-symbols/ios.txt" ;;
  esac
  if [ "$(header_functions)" != "$(cat "$x/exports")" ]; then
    WHY="$name: exports differ from include/boids.h: $(diff <(header_functions) "$x/exports" | grep '^[<>]' | head -3 | tr '\n' ' ')"
    rm -rf "$x"; return 1
  fi
  sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$allowed" | LC_ALL=C sort -u > "$x/allowed"
  if LC_ALL=C comm -23 "$x/needs" "$x/allowed" | grep -q .; then
    WHY="$name needs symbols not on ${allowed#$ROOT/}: $(LC_ALL=C comm -23 "$x/needs" "$x/allowed" | head -5 | tr '\n' ' ')"
    rm -rf "$x"; return 1
  fi
  rm -rf "$x"
}

# Fails (WHY set) unless a phone target compiles the engine as the target whose library the
# tests run does: the same architecture, and the same answer for every target feature a cfg of
# the engine's source asks about. Prints the kernel path it takes.
check_same_code() { # target
  local t="$1" twin features f a b
  twin="$(tested_twin "$t")"
  features="$(grep -rhoE 'target_feature ?= ?"[a-z0-9_.]+"' "$ROOT"/crates/*/src | sed 's/.*"\(.*\)"/\1/' | LC_ALL=C sort -u)"
  for f in target_arch target_pointer_width target_endian; do
    a="$(rustc --print cfg --target "$t" | grep "^$f=")"
    b="$(rustc --print cfg --target "$twin" | grep "^$f=")"
    [ "$a" = "$b" ] || { WHY="$t: $a, but the tested $twin has $b"; return 1; }
  done
  for f in $features; do
    a="$(rustc --print cfg --target "$t" | grep -cx "target_feature=\"$f\"")"
    b="$(rustc --print cfg --target "$twin" | grep -cx "target_feature=\"$f\"")"
    [ "$a" = "$b" ] || { WHY="$t and the tested $twin differ in target feature $f, which the engine's source asks about"; return 1; }
  done
}

# Prints the kernel path a library carries, or why the kernel's instructions are not what they
# must be (and returns 1): NEON vector arithmetic on arm64 (the NEON kernel), none on 32-bit ARM
# (the scalar kernel: the ARMv7 targets have no NEON). llvm-objdump writes Mach-O's in Apple's
# syntax (fadd.4s v0, v1, v2) and ELF's in ARM's (fadd v0.4s, v1.4s, v2.4s).
check_kernel_code() { # archive target
  local n
  case "$2" in
    aarch64-*)
      n="$(llvm-objdump -d --no-show-raw-insn "$1" 2>/dev/null |
        grep -cE '\b(fadd|fsub|fmul|fdiv|fcmgt|fcmge|fmax|fmin)(\.4s\s+v[0-9]+|\s+v[0-9]+\.4s)' || true)"
      if [ "$n" -lt 200 ]; then
        echo "$(basename "$1") ($2): only $n NEON vector float instructions: the NEON kernel is missing"
        return 1
      fi
      echo "NEON kernel ($n vector float instructions)" ;;
    armv7-*)
      n="$(llvm-objdump -d --no-show-raw-insn "$1" 2>/dev/null | grep -cE '\bv(add|sub|mul|div|max|min)\.f32\s+q[0-9]+' || true)"
      if [ "$n" != 0 ]; then
        echo "$(basename "$1") ($2): $n NEON vector instructions in a library whose kernel must be the scalar one"
        return 1
      fi
      echo "scalar kernel (no NEON vector instructions)" ;;
    x86_64-*) echo "run-time dispatch: SSE2, AVX2 or AVX-512, as on Linux x86-64" ;;
  esac
}

# The Info.plist of BoidsFFI.xcframework, as Xcode's own `xcodebuild -create-xcframework` writes it.
xcframework_plist() {
  cat <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>AvailableLibraries</key>
	<array>
		<dict>
			<key>BinaryPath</key>
			<string>libboids_ffi.a</string>
			<key>HeadersPath</key>
			<string>Headers</string>
			<key>LibraryIdentifier</key>
			<string>ios-arm64</string>
			<key>LibraryPath</key>
			<string>libboids_ffi.a</string>
			<key>SupportedArchitectures</key>
			<array>
				<string>arm64</string>
			</array>
			<key>SupportedPlatform</key>
			<string>ios</string>
		</dict>
		<dict>
			<key>BinaryPath</key>
			<string>libboids_ffi.a</string>
			<key>HeadersPath</key>
			<string>Headers</string>
			<key>LibraryIdentifier</key>
			<string>ios-arm64_x86_64-simulator</string>
			<key>LibraryPath</key>
			<string>libboids_ffi.a</string>
			<key>SupportedArchitectures</key>
			<array>
				<string>arm64</string>
				<string>x86_64</string>
			</array>
			<key>SupportedPlatform</key>
			<string>ios</string>
			<key>SupportedPlatformVariant</key>
			<string>simulator</string>
		</dict>
	</array>
	<key>CFBundlePackageType</key>
	<string>XFWK</string>
	<key>XCFrameworkFormatVersion</key>
	<string>1.0</string>
</dict>
</plist>
EOF
}

# Fails (WHY set) unless an xcframework's Info.plist names each slice, each slice's library is
# there with the headers, and each library passes check_phone_library for its kind.
check_xcframework() { # dir
  local fw="$1" id
  python3 - "$fw" <<'PY' || { WHY="$(basename "$fw"): its Info.plist does not describe its slices"; return 1; }
import os, plistlib, sys
fw = sys.argv[1]
p = plistlib.load(open(os.path.join(fw, "Info.plist"), "rb"))
assert p["CFBundlePackageType"] == "XFWK" and p["XCFrameworkFormatVersion"] == "1.0"
got = {}
for lib in p["AvailableLibraries"]:
    ident = lib["LibraryIdentifier"]
    assert os.path.isfile(os.path.join(fw, ident, lib["LibraryPath"])), ident
    assert os.path.isfile(os.path.join(fw, ident, lib["HeadersPath"], "boids.h")), ident
    got[ident] = (lib["SupportedPlatform"], lib.get("SupportedPlatformVariant"), sorted(lib["SupportedArchitectures"]))
assert got == {"ios-arm64": ("ios", None, ["arm64"]),
               "ios-arm64_x86_64-simulator": ("ios", "simulator", ["arm64", "x86_64"])}, got
PY
  check_phone_library "$fw/ios-arm64/libboids_ffi.a" ios-device &&
    check_phone_library "$fw/ios-arm64_x86_64-simulator/libboids_ffi.a" ios-simulator
}

# Builds a phone platform into DIR (libraries, checked); prints one line per library with its
# kernel path. On failure sets WHY and returns 1.
phone_platform_build() { # platform dir
  local p="$1" dir="$2" t out lib kernel
  phone_tools || return 1
  case "$p" in
    android)
      for t in $ANDROID_TARGETS; do
        out="$(phone_build_target "$t" 2>"$dir.build.log")" ||
          { WHY="the $t build failed: $(tail -1 "$dir.build.log")"; return 1; }
        lib="$dir/lib/$(android_abi "$t")/libboids_ffi.a"
        mkdir -p "$(dirname "$lib")"
        slim_phone_archive "$out" "$lib" "$t" || return 1
        check_phone_library "$lib" "android-$(android_abi "$t")" || return 1
        check_same_code "$t" || return 1
        kernel="$(check_kernel_code "$lib" "$t")" || { WHY="$kernel"; return 1; }
        echo "   $(android_abi "$t"): $(stat -c %s "$lib") bytes, $kernel" >&2
      done ;;
    ios)
      local fw="$dir/BoidsFFI.xcframework" sims=()
      for t in $IOS_TARGETS; do
        out="$(phone_build_target "$t" 2>"$dir.build.log")" ||
          { WHY="the $t build failed: $(tail -1 "$dir.build.log")"; return 1; }
        mkdir -p "$dir/slices"
        slim_phone_archive "$out" "$dir/slices/$t.a" "$t" || return 1
        check_same_code "$t" || return 1
        kernel="$(check_kernel_code "$dir/slices/$t.a" "$t")" || { WHY="$kernel"; return 1; }
        echo "   $t: $(stat -c %s "$dir/slices/$t.a") bytes, $kernel" >&2
        case "$t" in *-sim | x86_64-*) sims+=("$dir/slices/$t.a") ;; esac
      done
      mkdir -p "$fw/ios-arm64/Headers" "$fw/ios-arm64_x86_64-simulator/Headers"
      cp "$dir/slices/aarch64-apple-ios.a" "$fw/ios-arm64/libboids_ffi.a"
      "$(lipo_tool)" -create "${sims[@]}" -output "$fw/ios-arm64_x86_64-simulator/libboids_ffi.a"
      chmod 0644 "$fw"/*/libboids_ffi.a
      rm -rf "$dir/slices"
      for id in ios-arm64 ios-arm64_x86_64-simulator; do
        install -m 0644 "$ROOT/include/boids.h" "$ROOT/bindings/cpp/boids.hpp" \
          "$ROOT/bindings/cpp/boids_enums.hpp" "$fw/$id/Headers/"
        printf 'module BoidsFFI {\n    header "boids.h"\n    export *\n}\n' > "$fw/$id/Headers/module.modulemap"
      done
      xcframework_plist > "$fw/Info.plist"
      check_xcframework "$fw" || return 1
      echo "   BoidsFFI.xcframework: device $(stat -c %s "$fw/ios-arm64/libboids_ffi.a") bytes, simulator $(stat -c %s "$fw/ios-arm64_x86_64-simulator/libboids_ffi.a") bytes" >&2 ;;
  esac
  rm -f "$dir.build.log"
}

# Headers, licence texts, a README with the link steps, and (Android) a CMake package that picks
# the library by ANDROID_ABI, into DIR (which already holds the libraries).
write_phone_package() { # platform dir [docdir]
  local p="$1" dir="$2" doc="${3:-$2}" v major minor
  v="$(boids_version)"
  major="${v%%.*}"
  minor="$(echo "$v" | cut -d. -f2)"
  mkdir -p "$dir/include" "$doc"
  install -m 0644 "$ROOT/include/boids.h" "$ROOT/bindings/cpp/boids.hpp" "$ROOT/bindings/cpp/boids_enums.hpp" "$dir/include/"
  install -m 0644 "$ROOT/LICENSE-MIT" "$ROOT/LICENSE-APACHE" "$ROOT/THIRD-PARTY-LICENSES.md" "$doc/"
  case "$p" in
    android)
      mkdir -p "$dir/lib/cmake/boids"
      cat > "$dir/lib/cmake/boids/boidsConfig.cmake" <<CMAKE
# boids $v for Android: imported targets boids::boids_static (the static library of the ABI
# being built, ANDROID_ABI) and boids::boids (the same). Written by scripts/lib/phones.sh; finds
# the prefix from this file's own path.
get_filename_component(_boids_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT ANDROID_ABI)
  message(FATAL_ERROR "boids: this package is for Android (ANDROID_ABI is not set: configure with the NDK's toolchain file)")
endif()
set(_boids_lib "\${_boids_prefix}/lib/\${ANDROID_ABI}/libboids_ffi.a")
if(NOT EXISTS "\${_boids_lib}")
  message(FATAL_ERROR "boids: no library for ANDROID_ABI \${ANDROID_ABI} (there are arm64-v8a, armeabi-v7a and x86_64)")
endif()
if(NOT TARGET boids::boids_static)
  add_library(boids::boids_static STATIC IMPORTED)
  set_target_properties(boids::boids_static PROPERTIES
    IMPORTED_LOCATION "\${_boids_lib}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_boids_prefix}/include"
    INTERFACE_LINK_LIBRARIES "dl;m")
endif()
if(NOT TARGET boids::boids)
  add_library(boids::boids INTERFACE IMPORTED)
  set_target_properties(boids::boids PROPERTIES INTERFACE_LINK_LIBRARIES boids::boids_static)
endif()
set(boids_VERSION "$v")
unset(_boids_lib)
unset(_boids_prefix)
CMAKE
      cat > "$dir/lib/cmake/boids/boidsConfigVersion.cmake" <<CMAKE
# boids $v (Android) is compatible with a request for the same major version at or below it.
# Written by scripts/lib/phones.sh.
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
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Android")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (Android)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
CMAKE
      cat > "$doc/README.txt" <<TXT
boids $v for Android: the C ABI of a deterministic flocking engine, as static libraries.

    lib/arm64-v8a/libboids_ffi.a     64-bit ARM (every phone since 2015; Google Play requires it)
    lib/armeabi-v7a/libboids_ffi.a   32-bit ARM
    lib/x86_64/libboids_ffi.a        Chromebooks and the emulator
    include/                         boids.h (C), boids.hpp + boids_enums.hpp (C++17)

Android 5.0 (API level $ANDROID_MIN_API) or newer. Each library needs only libc, libm and libdl, and the
functions every NDK link adds (the compiler runtime and libunwind).

CMake (the NDK's toolchain file sets ANDROID_ABI; the package picks the library by it):
    find_package(boids $major.$minor REQUIRED PATHS /path/to/boids-$v-android NO_DEFAULT_PATH)
    target_link_libraries(yourlib PRIVATE boids::boids)

ndk-build (Android.mk):
    include \$(CLEAR_VARS)
    LOCAL_MODULE := boids
    LOCAL_SRC_FILES := /path/to/boids-$v-android/lib/\$(TARGET_ARCH_ABI)/libboids_ffi.a
    LOCAL_EXPORT_C_INCLUDES := /path/to/boids-$v-android/include
    include \$(PREBUILT_STATIC_LIBRARY)
and LOCAL_STATIC_LIBRARIES += boids in your module.

Why static libraries: they link into your own shared library (or Unity's player, with IL2CPP),
so that link sets the page alignment: Google Play asks apps that target Android 15+ for 16 KB
aligned LOAD segments in 64-bit .so files, which NDK r28 and newer give by default (older NDKs:
add -Wl,-z,max-page-size=16384 to your library's link flags). A shared library of ours is not
shipped: it would have to be linked against bionic's libraries from an NDK, which the machine
that builds the release does not have.

These libraries were built and inspected (object format, architecture, exports, the symbols
they need) but never run on a phone; the same code (armv7, aarch64 and x86-64 Linux builds of
the same source) gives the same state hashes and save files in the tests.
Licence: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE); the libraries carry the Rust standard
library and the crates listed in THIRD-PARTY-LICENSES.md.
TXT
      ;;
    ios)
      cat > "$doc/README.txt" <<TXT
boids $v for iOS: the C ABI of a deterministic flocking engine, as static libraries.

    BoidsFFI.xcframework             the device library (arm64, iOS $IOS_MIN+) and the simulator
                                     library (arm64, iOS $IOS_SIM_ARM64_MIN+, and x86_64, iOS $IOS_MIN+), each
                                     with the headers and a module map (module BoidsFFI)
    include/                         boids.h (C), boids.hpp + boids_enums.hpp (C++17)

Xcode: drag BoidsFFI.xcframework into your target's "Frameworks, Libraries, and Embedded
Content" and choose "Do Not Embed" (it is static: nothing is embedded in the app, so the App
Store's rule against embedded .dylib files does not apply). Xcode picks the device or the
simulator library by itself. Then #include "boids.h" (C, Objective-C), #include "boids.hpp"
(C++17), or import BoidsFFI (Swift). The libraries need only libSystem.

Without Xcode's project editor: link ios-arm64/libboids_ffi.a (device) or
ios-arm64_x86_64-simulator/libboids_ffi.a (simulator) and add its Headers/ to the include path.

These libraries were built and inspected (architectures, platform and minimum OS of every
object, exports, the symbols they need) but never run on an iPhone; the same code (aarch64 and
x86-64 builds of the same source) gives the same state hashes and save files in the tests.
Licence: MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE); the libraries carry the Rust standard
library and the crates listed in THIRD-PARTY-LICENSES.md.
TXT
      ;;
  esac
}
