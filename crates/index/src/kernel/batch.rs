//! The batch kernel: eight or sixteen consecutive boids, one a lane, over candidates broadcast
//! in ascending slot order (see the module documentation of `super`).

use super::lanes::Lanes;
use super::*;

/// Field of view: all around.
pub(super) const FOV_ALL: u8 = 0;
/// Field of view: `(h·d)·(1/|d|) > cos` (a half-angle of 90° is Unity's `f32` cosine, just
/// below zero, as every other angle's).
pub(super) const FOV_COS: u8 = 2;

/// Separation: `d / |d|`.
pub(super) const SEP_UNIT: u8 = 0;
/// Separation: `d / |d|²`.
pub(super) const SEP_INV2: u8 = 1;
/// Separation: `d`.
pub(super) const SEP_OFFSET: u8 = 2;

// An instance's compile-time form `K`: the view (bits 0-1), a wrapping space (bit 2), a third
// axis that varies (bit 3), the separation form (bits 4-5; `SEP_ANY`: read from the spec).
/// `K`: space wraps.
pub(super) const PER: u8 = 4;
/// `K`: the third axis varies.
pub(super) const D3: u8 = 8;
/// `K`: the separation form's bits.
pub(super) const SEP_MASK: u8 = 0x30;
/// `K`: the separation form is read at run time.
pub(super) const SEP_ANY: u8 = 0x30;
/// `K`: the heading and speed sums, when the spec asks for them (bit 6).
pub(super) const XTRA: u8 = 0x40;
/// `K`: every boid in view is inside the separation radius (`s² >= r²`): the separation mask
/// and count are those of the view (bit 7).
pub(super) const SEP_ALL: u8 = 0x80;
/// `K`: the bits after the view, wrap and axis.
pub(super) const TAIL: u8 = SEP_MASK | XTRA | SEP_ALL;

/// A batch's constants, splatted once: its boids' positions and headings (one a lane), and the
/// spec's.
pub(super) struct Ctx<L: Lanes> {
    pub(super) q: [L; 3],
    pub(super) h: [L; 3],
    pub(super) r2: L,
    pub(super) s2: L,
    pub(super) cos: L,
    pub(super) zero: L,
    pub(super) one: L,
    pub(super) tiny: L,
    pub(super) size: [L; 3],
    pub(super) half: [L; 3],
    pub(super) neg_half: [L; 3],
    pub(super) sep: u8,
    pub(super) heads: bool,
    pub(super) speed: bool,
}

impl<L: Lanes> Ctx<L> {
    /// The constants of a query for the boids (one a lane) at `q`, heading `h`.
    #[inline(always)]
    pub(super) fn new(spec: &Spec, q: [L; 3], h: [L; 3], size: [f32; 3]) -> Self {
        Ctx {
            q,
            h,
            r2: L::splat(spec.r2),
            s2: L::splat(spec.s2),
            cos: L::splat(spec.cos),
            zero: L::splat(0.0),
            one: L::splat(1.0),
            tiny: L::splat(f32::MIN_POSITIVE),
            size: [L::splat(size[0]), L::splat(size[1]), L::splat(size[2])],
            half: [
                L::splat(0.5 * size[0]),
                L::splat(0.5 * size[1]),
                L::splat(0.5 * size[2]),
            ],
            neg_half: [
                L::splat(-(0.5 * size[0])),
                L::splat(-(0.5 * size[1])),
                L::splat(-(0.5 * size[2])),
            ],
            sep: sep_form(spec.sep),
            heads: spec.heads,
            speed: spec.speed,
        }
    }
}

/// Running sums of a query: 13 sums (the heading and speed sums only when asked for), and the
/// lane counters (in view, and in the separation radius unless that is every one in view).
pub(super) struct Acc<L: Lanes> {
    pub(super) s: [L; 13],
    pub(super) n: L::C,
    pub(super) ns: L::C,
}

impl<L: Lanes> Acc<L> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Acc {
            s: [L::splat(0.0); 13],
            n: L::zero_count(),
            ns: L::zero_count(),
        }
    }

    /// The sums by lane (the heading and speed sums only with `xtra`: else they are `+0.0`, as
    /// nothing was added to them). (Not inlined: inlined, it changes how the compiler allocates the loop's registers, and
    /// the AVX2 loop spills: 1,270 against 1,147 instructions a boid at 10,000, callgrind.)
    #[inline(never)]
    pub(super) fn finish(&self, xtra: bool, sep_all: bool) -> Batch {
        let mut s = [[0.0f32; 16]; 13];
        for k in 0..if xtra { 13 } else { 9 } {
            self.s[k].store(&mut s[k]);
        }
        let mut count = [0u32; 16];
        L::store_counts(self.n, &mut count);
        let mut sep_count = count;
        if !sep_all {
            L::store_counts(self.ns, &mut sep_count);
        }
        let mut out = [Raw8::default(); 2];
        for (h, raw) in out.iter_mut().enumerate().take(L::W / 8) {
            let r = 8 * h..8 * h + 8;
            raw.count.copy_from_slice(&count[r.clone()]);
            raw.sep_count.copy_from_slice(&sep_count[r.clone()]);
            for k in 0..13 {
                raw.s[k].copy_from_slice(&s[k][r.clone()]);
            }
        }
        out
    }
}

/// Where a chunk's eight candidates come from.
pub(super) trait Source<L: Lanes> {
    fn pos(&self, a: usize) -> L;
    fn vel(&self, a: usize) -> L;
    fn head(&self, a: usize) -> L;
}

/// One candidate, the same for every lane (each lane is a boid asking).
pub(super) struct One<'a> {
    pub(super) soa: &'a Soa<'a>,
    pub(super) j: usize,
}

impl<L: Lanes> Source<L> for One<'_> {
    #[inline(always)]
    fn pos(&self, a: usize) -> L {
        // SAFETY: the caller checked `j < len` (`Cands::span`).
        L::splat(unsafe { *self.soa.p[a].get_unchecked(self.j) })
    }
    #[inline(always)]
    fn vel(&self, a: usize) -> L {
        // SAFETY: as in `pos`.
        L::splat(unsafe { *self.soa.v[a].get_unchecked(self.j) })
    }
    #[inline(always)]
    fn head(&self, a: usize) -> L {
        // SAFETY: as in `pos`.
        L::splat(unsafe { *self.soa.h[a].get_unchecked(self.j) })
    }
}

/// The nearest-image offset, lane by lane (as `boids_core::math::wrap_axis`; an odd function,
/// so it commutes exactly with the negated offsets).
#[inline(always)]
pub(super) fn wrap<L: Lanes>(o: L, half: L, neg_half: L, size: L) -> L {
    let down = o.sub(size);
    let up = o.add(size);
    L::select(o.gt(half), down, L::select(o.lt(neg_half), up, o))
}

/// `1/√max(d2, MIN_POSITIVE)`: `1/|d|`, finite for a coincident boid (whose offset is zero,
/// so its separation term is zero and `h·d·(1/|d|)` is zero).
#[inline(always)]
pub(super) fn inv_len<L: Lanes>(d2: L, c: &Ctx<L>) -> L {
    c.one.div(d2.max(c.tiny).sqrt())
}

/// The separation term of the offset `x`: `x/|x|`, `x/|x|²` or `x`, by form.
#[inline(always)]
pub(super) fn sep_term<L: Lanes>(x: [L; 3], unit: L, form: u8) -> [L; 3] {
    let by = match form {
        SEP_UNIT => unit,
        SEP_INV2 => unit.mul(unit),
        _ => return x,
    };
    [x[0].mul(by), x[1].mul(by), x[2].mul(by)]
}

/// The candidate's offset from each lane's boid, `d = p - q` (the nearest image when the space
/// wraps; a flat third axis left at zero), and its square `(dx·dx + dy·dy) + dz·dz`: the start
/// of every use of a candidate (the sums, the k-nearest selection).
#[inline(always)]
pub(super) fn offset_d2<L: Lanes, S: Source<L>, const K: u8>(c: &Ctx<L>, src: &S) -> ([L; 3], L) {
    let (per, d3) = (K & PER != 0, K & D3 != 0);
    // d = p - q (the candidate's coordinates first, so the query's can be read from
    // memory: fewer registers held across the loop).
    let mut d = [src.pos(0).sub(c.q[0]), src.pos(1).sub(c.q[1]), c.zero];
    if d3 {
        d[2] = src.pos(2).sub(c.q[2]);
    }
    if per {
        for a in 0..3 {
            d[a] = wrap(d[a], c.half[a], c.neg_half[a], c.size[a]);
        }
    }
    let mut d2 = d[0].mul(d[0]).add(d[1].mul(d[1]));
    if d3 {
        d2 = d2.add(d[2].mul(d[2]));
    }
    (d, d2)
}

/// Which lanes a candidate may count in, as [`chunk`] is told.
#[derive(Clone, Copy)]
pub(super) enum Among<M> {
    /// Every lane that has it within its radius.
    All,
    /// The lanes of the mask that have it within its radius (a batch's own slots, where a
    /// lane must skip itself; the k nearest).
    Of(M),
    /// Exactly the lanes of the mask: the filter's (`Kept`), which are already those that
    /// have it strictly within their radius, computed from the same offset (so the test is
    /// not made twice: the same lanes, the same bits).
    Within(M),
}

/// One candidate into every lane's sums, in the lanes `m` says (lanes past the batch's boids
/// compute sums nobody reads).
#[inline(always)]
pub(super) fn chunk<L: Lanes, S: Source<L>, const K: u8>(
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    m: Among<L::M>,
    src: &S,
) {
    let (fov, d3, sep_all) = (K & 3, K & D3 != 0, K & SEP_ALL != 0);
    let sep_form = if K & SEP_MASK == SEP_ANY {
        c.sep
    } else {
        (K & SEP_MASK) >> 4
    };
    let (d, d2) = offset_d2::<L, S, K>(c, src);
    let inr = match m {
        Among::All => d2.lt(c.r2),
        Among::Of(m) => L::and(m, d2.lt(c.r2)),
        Among::Within(m) => m,
    };
    // 1/|d|, when the view or the separation needs it. (No closures here: a closure does not
    // inherit the instance's target features, and one the compiler declines to inline calls
    // every intrinsic out of line.)
    let needs_inv = fov == FOV_COS || sep_form == SEP_UNIT || sep_form == SEP_INV2;
    let unit = if needs_inv {
        inv_len::<L>(d2, c)
    } else {
        c.zero
    };
    let ok = if fov == FOV_ALL {
        inr
    } else {
        let mut dot = c.h[0].mul(d[0]).add(c.h[1].mul(d[1]));
        if d3 {
            dot = dot.add(c.h[2].mul(d[2]));
        }
        // (h·d)/|d| > cos
        dot.mul(unit).gt_in(c.cos, inr)
    };
    acc.n = L::tally(acc.n, ok);
    let sep = if sep_all {
        ok
    } else {
        let sep = L::and(ok, d2.lt(c.s2));
        acc.ns = L::tally(acc.ns, sep);
        sep
    };
    let v = [src.vel(0), src.vel(1), src.vel(2)];
    if L::MASKED {
        // One masked add a sum.
        for a in 0..3 {
            acc.s[a] = acc.s[a].acc(d[a], ok);
            acc.s[3 + a] = acc.s[3 + a].acc(v[a], ok);
        }
        // Separation pushes away: `f(d)` subtracted.
        let f = sep_term(d, unit, sep_form);
        for a in 0..3 {
            acc.s[6 + a] = acc.s[6 + a].dec(f[a], sep);
        }
    } else {
        // Each term zeroed once where it does not count, then added: the same bits (a zero
        // term adds `+0.0` or subtracts it, and scaling a zero offset by a finite `1/|d|`
        // keeps it `+0.0`).
        let dz = [d[0].keep(ok), d[1].keep(ok), d[2].keep(ok)];
        for a in 0..3 {
            acc.s[a] = acc.s[a].add(dz[a]);
            acc.s[3 + a] = acc.s[3 + a].add(v[a].keep(ok));
        }
        let f = if sep_all {
            sep_term(dz, unit, sep_form)
        } else {
            let f = sep_term(d, unit, sep_form);
            [f[0].keep(sep), f[1].keep(sep), f[2].keep(sep)]
        };
        // Separation pushes away: `f(d)` subtracted.
        for a in 0..3 {
            acc.s[6 + a] = acc.s[6 + a].sub(f[a]);
        }
    }
    if K & XTRA != 0 && c.heads {
        for a in 0..3 {
            acc.s[9 + a] = acc.s[9 + a].acc(src.head(a), ok);
        }
    }
    if K & XTRA != 0 && c.speed {
        let spd = v[0]
            .mul(v[0])
            .add(v[1].mul(v[1]))
            .add(v[2].mul(v[2]))
            .sqrt();
        acc.s[12] = acc.s[12].acc(spd, ok);
    }
}

/// The box size in the kernel's axis order (zeros when not periodic).
#[inline]
pub fn kernel_size(axes: [usize; 3], period: Option<Vec3>) -> [f32; 3] {
    period.map_or([0.0; 3], |p| {
        let p = p.to_array();
        [p[axes[0]], p[axes[1]], p[axes[2]]]
    })
}

/// The context of a batch: the boids in slots `first..first + n` (one a lane) at their
/// positions and headings, lanes from `n` on masked out.
#[inline(always)]
pub(super) fn batch<L: Lanes>(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    first: usize,
    n: usize,
) -> Ctx<L> {
    assert!(
        n <= L::W && first + L::W <= soa.p[0].len(),
        "kernel: a batch outside the arrays"
    );
    // SAFETY: `first + W <= len` for every array (checked above; all nine have one length).
    let at = |x: &[f32]| unsafe { L::load(x.as_ptr().add(first)) };
    let q = [at(soa.p[0]), at(soa.p[1]), at(soa.p[2])];
    let h = [at(soa.h[0]), at(soa.h[1]), at(soa.h[2])];
    Ctx::new(spec, q, h, size)
}

/// An instance's out-of-line [`Kept::add`], compiled with the instance's target features
/// (`dispatch::instances!`): the sums' code is most of an instance, so it is one copy an
/// instance (inlined at both calls, the Windows DLL was 3,379,200 bytes, over its 3 MiB
/// guard; out of line 3,138,048), and out of the filter's function it leaves the filter loop
/// its registers (AVX2, 10,000 boids: kernel 1,098 -> 1,053 instructions a boid).
pub(super) type AddFn<L> = unsafe fn(&Kept<L>, usize, &mut Acc<L>, &Ctx<L>, &Soa<'_>);

/// How many kept candidates the filter holds before their sums are added.
const KEPT: usize = 64;

/// The filter's output: candidates some lane has within its radius, in slot order, with those
/// lanes. (The count is kept in a local by the callers: in the struct, behind a reference, it
/// went through memory every candidate, a store-to-load chain that cost most of the gain.)
pub(super) struct Kept<L: Lanes> {
    j: [u32; KEPT],
    m: [L::M; KEPT],
}

impl<L: Lanes> Kept<L> {
    #[inline(always)]
    fn new(c: &Ctx<L>) -> Self {
        let none = c.zero.lt(c.zero);
        Kept {
            j: [0; KEPT],
            m: [none; KEPT],
        }
    }

    /// Adds the first `n` kept candidates into the lanes that have them within their radius,
    /// in the order kept.
    #[inline(always)]
    pub(super) fn add<const K: u8>(&self, n: usize, acc: &mut Acc<L>, c: &Ctx<L>, soa: &Soa<'_>) {
        for i in 0..n {
            let j = self.j[i] as usize;
            chunk::<L, _, K>(acc, c, Among::Within(self.m[i]), &One { soa, j });
        }
    }
}

/// Runs `$body` for each slot `$j` of `a..b` (ascending) with `$own`, the lanes that may have
/// it: `None` (every lane) outside the batch's own slots `first..first + n`, all but its own
/// lane inside. One split for the filter ([`span`]) and the cheap forms ([`every`]); a macro,
/// not a function taking a closure: a closure would not inherit the instance's target features.
macro_rules! around_own {
    ($L:ty, $first:expr, $n:expr, $a:expr, $b:expr, |$j:ident, $own:ident| $body:block) => {{
        let (a, b, first): (usize, usize, usize) = ($a, $b, $first);
        // Before, inside and after the batch's own slots: only inside does a lane skip itself.
        let (o0, o1) = (first.clamp(a, b), (first + $n).clamp(a, b));
        for $j in a..o0 {
            let $own: Option<<$L as Lanes>::M> = None;
            $body
        }
        for $j in o0..o1 {
            let $own = Some(<$L as Lanes>::except(($j - first) as i32));
            $body
        }
        for $j in o1..b {
            let $own: Option<<$L as Lanes>::M> = None;
            $body
        }
    }};
}

/// Candidates `a..b` (ascending) through the filter, after the `n` already kept: each
/// candidate's squared distance to every lane's boid, and the lanes that have it strictly
/// within their radius (a lane never has itself: the batch's own slots mask their lane). The
/// candidates no lane has add `+0.0` to every sum, so only the others go on to the sums, in the
/// same order, which changes no bit (the benchmark scenario: 42-43 % of an 8-boid batch's
/// candidates go on, 46-48 % of a 16-boid batch's). Returns how many are kept now.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn span<L: Lanes, const K: u8>(
    add: AddFn<L>,
    kept: &mut Kept<L>,
    mut n_kept: usize,
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    soa: &Soa<'_>,
    first: usize,
    n: usize,
    a: usize,
    b: usize,
) -> usize {
    around_own!(L, first, n, a, b, |j, own| {
        n_kept = offer::<L, K>(add, kept, n_kept, acc, c, soa, j, own);
    });
    n_kept
}

/// Candidates `a..b` (ascending) into every lane's sums, without the filter (forms whose step
/// is cheap: [`filters`]); the batch's own slots mask their lane.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn every<L: Lanes, const K: u8>(
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    soa: &Soa<'_>,
    first: usize,
    n: usize,
    a: usize,
    b: usize,
) {
    around_own!(L, first, n, a, b, |j, own| {
        let m = own.map_or(Among::All, Among::Of);
        chunk::<L, _, K>(acc, c, m, &One { soa, j });
    });
}

/// Whether a form's candidates go through the filter: only where the step after it is costly
/// (the inverse length: a view narrower than all around, or a unit or inverse-square
/// separation; or a form read at run time). Where it is cheap (all around, the separation
/// the plain offset: the target-flock tutorial) the candidates go straight into the sums, as
/// before the filter: through the filter, or through the kept block without it, that preset
/// at 100,000 boids took 12.9-13.0 ms a step against 11.9-12.0 (Zen 4, fastest of 2-5).
#[inline(always)]
const fn filters<const K: u8>() -> bool {
    let sep = K & SEP_MASK;
    K & 3 == FOV_COS || sep == SEP_UNIT << 4 || sep == SEP_INV2 << 4 || sep == SEP_ANY
}

/// Candidate `j` through the filter (`own`: the lanes that may have it, when it is one of the
/// batch's own boids): written in any case, kept (no branch) when some lane has it; a full
/// block is added to the sums. Returns how many are kept now. (A function, not a closure: a
/// closure would not inherit the instance's target features.)
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn offer<L: Lanes, const K: u8>(
    add: AddFn<L>,
    kept: &mut Kept<L>,
    n_kept: usize,
    acc: &mut Acc<L>,
    c: &Ctx<L>,
    soa: &Soa<'_>,
    j: usize,
    own: Option<L::M>,
) -> usize {
    let (_, d2) = offset_d2::<L, _, K>(c, &One { soa, j });
    let inr = d2.lt(c.r2);
    let m = match own {
        Some(m) => L::and(m, inr),
        None => inr,
    };
    // SAFETY: `n_kept < KEPT`: a full block is added and emptied below before the next offer.
    unsafe {
        *kept.j.get_unchecked_mut(n_kept) = j as u32;
        *kept.m.get_unchecked_mut(n_kept) = m;
    }
    let n_kept = n_kept + usize::from(L::any(m));
    if n_kept == KEPT {
        // SAFETY: `add` is this instance's own (`hoods`), compiled for the features the
        // instance runs with.
        unsafe { add(kept, KEPT, acc, c, soa) };
        return 0;
    }
    n_kept
}

/// The candidates of a kernel call: ascending, disjoint spans of slots (runs of the grid, or a
/// list from the k-d tree, a slot a span). (Methods, not a closure: a closure would not inherit
/// the instance's target features.)
pub(super) trait Cands: Copy {
    /// How many spans.
    fn spans(self) -> usize;
    /// Span `i`, checked to lie inside `len` slots.
    fn span(self, i: usize, len: usize) -> (usize, usize);
}

impl Cands for &[Run] {
    #[inline(always)]
    fn spans(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn span(self, i: usize, len: usize) -> (usize, usize) {
        let (a, b) = self[i];
        assert!(
            a <= b && b as usize <= len,
            "kernel: a run outside the arrays"
        );
        (a as usize, b as usize)
    }
}

impl Cands for &[u32] {
    #[inline(always)]
    fn spans(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn span(self, i: usize, len: usize) -> (usize, usize) {
        let j = self[i] as usize;
        assert!(j < len, "kernel: a slot outside the arrays");
        (j, j + 1)
    }
}

/// The neighbourhoods of the boids in slots `first..first + n` (`n <= W`, one a lane) over the
/// candidates `cands`. Each lane adds its candidates one by one in slot order (the others add
/// `+0.0`, which changes no bits), so a boid's sums are the same whatever batch it is in,
/// however the candidates are grouped into runs or lists and whatever else they include: every
/// index kind, walk and single query gives the same bits.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hoods<L: Lanes, const K: u8, C: Cands>(
    soa: &Soa<'_>,
    spec: &Spec,
    size: [f32; 3],
    first: usize,
    n: usize,
    cands: C,
    add: AddFn<L>,
) -> Batch {
    let len = soa.len();
    let c = batch::<L>(soa, spec, size, first, n);
    let mut acc = Acc::<L>::new();
    if !filters::<K>() {
        // A cheap step: every candidate straight into the sums.
        for i in 0..cands.spans() {
            let (a, b) = cands.span(i, len);
            every::<L, K>(&mut acc, &c, soa, first, n, a, b);
        }
        return acc.finish(K & XTRA != 0, K & SEP_ALL != 0);
    }
    let mut kept = Kept::<L>::new(&c);
    let mut n_kept = 0;
    for i in 0..cands.spans() {
        let (a, b) = cands.span(i, len);
        n_kept = span::<L, K>(add, &mut kept, n_kept, &mut acc, &c, soa, first, n, a, b);
    }
    // SAFETY: `add` is the calling instance's own, compiled for the features it runs with.
    unsafe { add(&kept, n_kept, &mut acc, &c, soa) };
    acc.finish(K & XTRA != 0, K & SEP_ALL != 0)
}

/// The separation form as the kernel's constant.
pub(super) fn sep_form(sep: SeparationMode) -> u8 {
    match sep {
        SeparationMode::UnitMean => SEP_UNIT,
        SeparationMode::InverseSquare => SEP_INV2,
        SeparationMode::MeanOffset | SeparationMode::SumOffset => SEP_OFFSET,
    }
}
