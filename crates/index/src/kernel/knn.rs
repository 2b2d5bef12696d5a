//! The k nearest, boids in lanes: each lane keeps its k nearest of the batch's candidates
//! without a branch, then adds them in slot order.

use super::batch::*;
use super::lanes::Lanes;
use super::*;

/// The most neighbours the batch k-nearest kernel keeps a boid ([`knn_fn`]).
pub const KNN_MAX: usize = 16;

/// The batch k-nearest kernel carries slots through its lanes as `f32` values, exact below
/// 2^24: it serves flocks up to this many boids.
pub const KNN_MAX_LEN: usize = 1 << 24;

/// Candidates gathered lane by lane: lane `l` reads slot `idx[l]`.
pub(super) struct Gathered<'a> {
    soa: &'a Soa<'a>,
    idx: [usize; MAX_WIDTH],
}

/// Lane `l` of the result is `x[idx[l]]`.
#[inline(always)]
pub(super) fn gather<L: Lanes>(x: &[f32], idx: &[usize; MAX_WIDTH]) -> L {
    let mut t = [0.0f32; MAX_WIDTH];
    for l in 0..L::W {
        t[l] = x[idx[l]];
    }
    // SAFETY: `t` holds MAX_WIDTH >= W values.
    unsafe { L::load(t.as_ptr()) }
}

impl<L: Lanes> Source<L> for Gathered<'_> {
    #[inline(always)]
    fn pos(&self, a: usize) -> L {
        gather(self.soa.p[a], &self.idx)
    }
    #[inline(always)]
    fn vel(&self, a: usize) -> L {
        gather(self.soa.v[a], &self.idx)
    }
    #[inline(always)]
    fn head(&self, a: usize) -> L {
        gather(self.soa.h[a], &self.idx)
    }
}

/// The neighbourhoods of the boids in slots `first..first + n` (`n <= W`, one a lane) over the
/// `k` nearest (`1..=KNN_MAX`) of the candidates `runs` strictly within the radius (ties by
/// slot), chosen without a branch per candidate: every lane keeps its k
/// nearest so far, sorted by distance, in `k` pairs of lanes (squared distance, slot as
/// `f32`); a candidate goes in front of every kept one it is strictly nearer than (the places
/// not yet filled hold the radius, so a candidate must be strictly within it; candidates come
/// in ascending slot order, so an equal distance keeps the lower slot in front). The squared
/// distance is the kernel's (`dist2`, the nearest image where space wraps), so the same
/// neighbours as the one-boid selection.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hoods_knn<L: Lanes, const K: u8>(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    first: usize,
    n: usize,
    runs: &[Run],
    k: usize,
) -> Batch {
    let len = soa.len();
    assert!(
        (1..=KNN_MAX).contains(&k) && len <= KNN_MAX_LEN,
        "kernel: a k-nearest batch outside its limits"
    );
    let c = batch::<L>(soa, spec, size, first, n);
    let inf = L::splat(f32::INFINITY);
    let mut bd = [c.r2; KNN_MAX];
    let mut bs = [inf; KNN_MAX];
    for i in 0..runs.spans() {
        let (a, b) = runs.span(i, len);
        for j in a..b {
            let (_, mut d2) = offset_d2::<L, _, K>(&c, &One { soa, j });
            if j >= first && j < first + n {
                // A boid is not its own neighbour (`+∞` is never strictly nearer).
                d2 = L::select(L::except((j - first) as i32), d2, inf);
            }
            let s = L::splat(j as f32);
            // From the back, so each place reads the one in front of it before it moves.
            let mut here = d2.lt(bd[k - 1]);
            for i in (1..k).rev() {
                let front = d2.lt(bd[i - 1]);
                bd[i] = L::select(here, L::select(front, bd[i - 1], d2), bd[i]);
                bs[i] = L::select(here, L::select(front, bs[i - 1], s), bs[i]);
                here = front;
            }
            bd[0] = L::select(here, d2, bd[0]);
            bs[0] = L::select(here, s, bs[0]);
        }
    }
    // The kept slots ascending, lane by lane (a transposition sort; unfilled places hold +∞
    // and stay last).
    for pass in 0..k {
        let mut i = pass % 2;
        while i + 1 < k {
            let swap = bs[i + 1].lt(bs[i]);
            let (x, y) = (bs[i], bs[i + 1]);
            bs[i] = L::select(swap, y, x);
            bs[i + 1] = L::select(swap, x, y);
            i += 2;
        }
    }
    // Each lane adds its own neighbours one by one in slot order: the kernel's step (`K` holds
    // the general view test, true for every finite product when the cosine is -∞, and the
    // run-time separation form and extra sums), as `one_boid` over them.
    let mut acc = Acc::<L>::new();
    for place in &bs[..k] {
        let mut t = [0.0f32; MAX_WIDTH];
        place.store(&mut t);
        if t[..n].iter().all(|&x| x == f32::INFINITY) {
            // Every later place is unfilled too.
            break;
        }
        let idx = std::array::from_fn(|l| {
            if t[l] < f32::INFINITY {
                t[l] as usize
            } else {
                first
            }
        });
        chunk::<L, _, K>(
            &mut acc,
            &c,
            Among::Of(place.lt(inf)),
            &Gathered { soa, idx },
        );
    }
    acc.finish(true, false)
}
