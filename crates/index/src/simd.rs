//! Which instruction set the neighbour kernel runs on, chosen at run time.
//!
//! One build runs on every x86-64 CPU: the kernel is compiled for baseline SSE2, for AVX2 and for
//! AVX-512, and [`SimdLevel::detect`] picks the widest the CPU has: AVX-512, else AVX2, else
//! SSE2. On aarch64 it picks NEON (every aarch64 CPU has it). Every path gives the same bits
//! (see the kernel module), so the choice changes speed only. `BOIDS_SIMD` (or
//! `WorldConfig::simd`) forces a path, to check exactly that (`crates/sim/tests/simd.rs` runs
//! every path the machine at hand has).
//!
//! AVX-512 is the default where the CPU has it: on a Zen 5 (AMD EPYC, 2 vCPU, benchmark
//! scenario, 10,000 boids, 1 thread) its sixteen-lane kernel took 0.79x the AVX2 kernel's time
//! per step in one sitting (README, "Benchmarks").

use std::fmt;
use std::str::FromStr;

/// An instruction set for the neighbour kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SimdLevel {
    /// Plain Rust, one candidate at a time: every CPU and architecture.
    Scalar,
    /// 8 lanes in two 4-lane registers, SSE2: every x86-64 CPU.
    Sse2,
    /// 8 lanes, AVX2 (x86-64-v3: Intel Haswell, AMD Excavator and later).
    Avx2,
    /// 16 lanes, AVX-512 (F, VL, BW, DQ: x86-64-v4): mask registers, 32 vector registers.
    Avx512,
    /// 8 lanes in two 4-lane registers, NEON: every aarch64 CPU.
    Neon,
    /// 8 lanes in two 4-lane registers, WebAssembly simd128 (builds with the `simd128` target
    /// feature, as `scripts/web` makes them).
    Simd128,
}

/// Every level (of every architecture).
pub const ALL_LEVELS: [SimdLevel; 6] = [
    SimdLevel::Scalar,
    SimdLevel::Sse2,
    SimdLevel::Avx2,
    SimdLevel::Avx512,
    SimdLevel::Neon,
    SimdLevel::Simd128,
];

impl SimdLevel {
    /// The name used by `BOIDS_SIMD` and the CLI: `scalar`, `sse2`, `avx2`, `avx512`, `neon`.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Scalar => "scalar",
            SimdLevel::Sse2 => "sse2",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
            SimdLevel::Neon => "neon",
            SimdLevel::Simd128 => "simd128",
        }
    }

    /// Whether this CPU can run the level.
    pub fn is_supported(self) -> bool {
        match self {
            SimdLevel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512dq")
            }
            #[cfg(target_arch = "aarch64")]
            SimdLevel::Neon => true,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            SimdLevel::Simd128 => true,
            #[allow(
                unreachable_patterns,
                reason = "which levels remain depends on the target"
            )]
            _ => false,
        }
    }

    /// The level a world uses unless told otherwise: AVX-512 when the CPU has it, else AVX2,
    /// else SSE2, on x86-64; NEON on aarch64; simd128 on WebAssembly built with it; scalar
    /// elsewhere. Cached after the first call.
    pub fn detect() -> SimdLevel {
        static BEST: std::sync::OnceLock<SimdLevel> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            [
                SimdLevel::Neon,
                SimdLevel::Simd128,
                SimdLevel::Avx512,
                SimdLevel::Avx2,
                SimdLevel::Sse2,
            ]
            .into_iter()
            .find(|l| l.is_supported())
            .unwrap_or(SimdLevel::Scalar)
        })
    }

    /// Every level this CPU supports, slowest first.
    pub fn supported() -> Vec<SimdLevel> {
        ALL_LEVELS
            .into_iter()
            .filter(|l| l.is_supported())
            .collect()
    }

    /// The level `BOIDS_SIMD` asks for: `None` when unset or `auto`; an error names the
    /// accepted values or the missing CPU feature.
    pub fn from_env() -> Result<Option<SimdLevel>, String> {
        match std::env::var("BOIDS_SIMD") {
            Err(_) => Ok(None),
            Ok(s) if s.is_empty() || s == "auto" => Ok(None),
            Ok(s) => {
                let level: SimdLevel = s.parse().map_err(|e| format!("BOIDS_SIMD: {e}"))?;
                level.check()?;
                Ok(Some(level))
            }
        }
    }

    /// `Ok` when this CPU can run the level, else an error that says why.
    pub fn check(self) -> Result<SimdLevel, String> {
        if self.is_supported() {
            Ok(self)
        } else {
            Err(format!(
                "the {} kernel needs a CPU feature this machine lacks (supported here: {})",
                self.name(),
                SimdLevel::supported()
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
}

impl fmt::Display for SimdLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimdLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ALL_LEVELS
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                format!("'{s}' is not one of: auto, scalar, sse2, avx2, avx512, neon, simd128")
            })
    }
}
