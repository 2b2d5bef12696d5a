//! Instances per instruction set and compile-time form, chosen once per walk.

use super::batch::*;
use super::knn::hoods_knn;
use super::lanes::Scalar;
use super::*;

/// A runs kernel instance: `(soa, spec, size, first, n, runs)`: the boids in slots
/// `first..first + n` (n <= 8) over the candidate runs; see [`runs_fn`].
pub type RunsFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[Run]) -> Batch;

/// A list kernel instance: `(soa, spec, size, first, n, list)`; see [`list_fn`].
pub type ListFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[u32]) -> Batch;

/// A k-nearest kernel instance: `(soa, spec, size, first, n, runs, k)`; see [`knn_fn`].
pub type KnnFn = fn(&Soa<'_>, &Spec, [f32; 3], usize, usize, &[Run], usize) -> Batch;

macro_rules! instances {
    // `$feat`: the target features the instance is compiled with (checked by the caller's
    // choice of level), or none for a baseline set.
    ($runs:ident, $list:ident, $knn:ident, $L:ty $(, $feat:literal)?) => {
        instances!(@one $runs, &[Run], $L $(, $feat)?);
        instances!(@one $list, &[u32], $L $(, $feat)?);
        fn $knn<const K: u8>(
            soa: &Soa<'_>,
            spec: &Spec,
            size: [f32; 3],
            first: usize,
            n: usize,
            runs: &[Run],
            k: usize,
        ) -> Batch {
            $(#[target_feature(enable = $feat)])?
            fn inner<const K: u8>(
                soa: &Soa<'_>,
                spec: &Spec,
                size: [f32; 3],
                first: usize,
                n: usize,
                runs: &[Run],
                k: usize,
            ) -> Batch {
                hoods_knn::<$L, K>(soa, spec, size, first, n, runs, k)
            }
            #[allow(unused_unsafe)]
            // SAFETY: as for the other instances.
            unsafe {
                inner::<K>(soa, spec, size, first, n, runs, k)
            }
        }
    };
    (@one $name:ident, $C:ty, $L:ty $(, $feat:literal)?) => {
        fn $name<const K: u8>(
            soa: &Soa<'_>,
            spec: &Spec,
            size: [f32; 3],
            first: usize,
            n: usize,
            cands: $C,
        ) -> Batch {
            $(#[target_feature(enable = $feat)])?
            fn inner<const K: u8>(
                soa: &Soa<'_>,
                spec: &Spec,
                size: [f32; 3],
                first: usize,
                n: usize,
                cands: $C,
            ) -> Batch {
                // Through `black_box`: a pointer the optimizer can see is inlined (twice)
                // whatever `inline(never)` says.
                let add: AddFn<$L> = std::hint::black_box(add_kept::<K>);
                hoods::<$L, K, $C>(soa, spec, size, first, n, cands, add)
            }
            /// The kept candidates into the sums, out of line, with this instance's features.
            ///
            /// # Safety
            /// Only where the instance runs: the CPU has its features.
            // Never inlined: the filter's two calls would each take a copy.
            #[inline(never)]
            $(#[target_feature(enable = $feat)])?
            unsafe fn add_kept<const K: u8>(
                kept: &Kept<$L>,
                n: usize,
                acc: &mut Acc<$L>,
                c: &Ctx<$L>,
                soa: &Soa<'_>,
            ) {
                kept.add::<K>(n, acc, c, soa)
            }
            #[allow(unused_unsafe)]
            // SAFETY: the level of this instance is chosen only when the CPU has its features
            // (`SimdLevel::is_supported`), or they are the target's baseline.
            unsafe {
                inner::<K>(soa, spec, size, first, n, cands)
            }
        }
    };
}

instances!(runs_scalar, list_scalar, knn_scalar, Scalar);
#[cfg(target_arch = "x86_64")]
instances!(runs_sse2, list_sse2, knn_sse2, super::lanes::Sse2);
#[cfg(target_arch = "x86_64")]
instances!(
    runs_avx2,
    list_avx2,
    knn_avx2,
    super::lanes::Avx,
    "avx2,popcnt"
);
#[cfg(target_arch = "x86_64")]
instances!(
    runs_avx512,
    list_avx512,
    knn_avx512,
    super::lanes::Avx512,
    "avx2,popcnt,avx512f,avx512vl,avx512bw,avx512dq"
);
#[cfg(target_arch = "aarch64")]
instances!(runs_neon, list_neon, knn_neon, super::lanes::Neon);
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
instances!(runs_simd128, list_simd128, knn_simd128, super::lanes::Wasm);

/// The kernel's compile-time form of a spec (`K`): with `sep`, the separation form, or (when
/// the spec asks for heading or speed sums) `SEP_ANY | XTRA`; without, `SEP_ANY | XTRA`.
pub(super) fn form(spec: &Spec, d3: bool, sep: bool) -> u8 {
    let fov = if spec.cos == f32::NEG_INFINITY {
        FOV_ALL
    } else {
        FOV_COS
    };
    let per = if spec.period.is_some() { PER } else { 0 };
    let d3 = if d3 { D3 } else { 0 };
    let sep = if sep && !(spec.heads || spec.speed) {
        let all = if spec.s2 >= spec.r2 { SEP_ALL } else { 0 };
        (sep_form(spec.sep) << 4) | all
    } else {
        SEP_ANY | XTRA
    };
    fov | per | d3 | sep
}

/// `$f::<K>` for the form `$k`: every view, wrap and axis form, with the separation form
/// `$sep` (each of them, or `SEP_ANY`).
macro_rules! pick {
    ($f:ident, $k:expr, [$($sep:expr),*]) => {{
        let k = $k;
        let mut chosen = None;
        $(
            if chosen.is_none() && k & TAIL == $sep {
                chosen = Some(pick!(@views $f, k, $sep));
            }
        )*
        chosen.expect("kernel: a form without an instance")
    }};
    (@views $f:ident, $k:expr, $sep:expr) => {
        match $k & !TAIL {
            0 => $f::<{ $sep }>,
            2 => $f::<{ 2 | $sep }>,
            4 => $f::<{ 4 | $sep }>,
            6 => $f::<{ 6 | $sep }>,
            8 => $f::<{ 8 | $sep }>,
            10 => $f::<{ 10 | $sep }>,
            12 => $f::<{ 12 | $sep }>,
            _ => $f::<{ 14 | $sep }>,
        }
    };
}

/// The separation forms the runs kernel is compiled for, and the one with heading or speed
/// sums. (Unused where only the fallback instruction sets exist: 32-bit ARM, say.)
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    expect(unused_macros)
)]
macro_rules! pick_runs {
    ($f:ident, $k:expr) => {
        pick!($f, $k, [0x00, 0x10, 0x20, 0x80, 0x90, 0xa0, 0x70])
    };
}

/// The fallback instruction sets (plain arrays, SSE2: used only on x86-64 CPUs without AVX2,
/// or when asked for) read the separation form and the extra sums from the spec at run time:
/// the same bits in a twelfth of the code.
macro_rules! pick_runs_any {
    ($f:ident, $k:expr) => {
        pick!($f, ($k & !TAIL) | 0x70, [0x70])
    };
}

/// The list kernel reads the separation form and the extra sums from the spec at run time.
macro_rules! pick_list {
    ($f:ident, $k:expr) => {
        pick!($f, $k, [0x70])
    };
}

/// The runs kernel for a spec on its instruction set, over arrays whose third axis varies
/// (`d3`, [`Soa::d3`]) or not: resolved once per walk.
pub fn runs_fn(spec: &Spec, d3: bool) -> RunsFn {
    let k = form(spec, d3, true);
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_runs_any!(runs_sse2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_runs!(runs_avx2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_runs!(runs_avx512, k),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_runs!(runs_neon, k),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_runs!(runs_simd128, k),
        _ => pick_runs_any!(runs_scalar, k),
    }
}

/// The list kernel for a spec on its instruction set (`d3` as for [`runs_fn`]).
pub fn list_fn(spec: &Spec, d3: bool) -> ListFn {
    let k = form(spec, d3, false);
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_list!(list_sse2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_list!(list_avx2, k),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_list!(list_avx512, k),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_list!(list_neon, k),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_list!(list_simd128, k),
        _ => pick_list!(list_scalar, k),
    }
}

/// The batch k-nearest kernel for a spec on its instruction set (`d3` as for [`runs_fn`]):
/// compiled for the wrap and axis forms only, with the general view test and the separation
/// form and extra sums read at run time.
pub fn knn_fn(spec: &Spec, d3: bool) -> KnnFn {
    const TAIL: u8 = FOV_COS | SEP_ANY | XTRA;
    let k = form(spec, d3, false) & (PER | D3);
    macro_rules! pick_nearest {
        ($f:ident) => {
            match k {
                0 => $f::<TAIL>,
                PER => $f::<{ PER | TAIL }>,
                D3 => $f::<{ D3 | TAIL }>,
                _ => $f::<{ PER | D3 | TAIL }>,
            }
        };
    }
    match spec.level {
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Sse2 => pick_nearest!(knn_sse2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => pick_nearest!(knn_avx2),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => pick_nearest!(knn_avx512),
        #[cfg(target_arch = "aarch64")]
        SimdLevel::Neon => pick_nearest!(knn_neon),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        SimdLevel::Simd128 => pick_nearest!(knn_simd128),
        _ => pick_nearest!(knn_scalar),
    }
}
