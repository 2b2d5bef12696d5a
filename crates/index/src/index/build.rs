//! Building an [`Index`]: the layout, the keys and the counting sort into cell order, the copy
//! into the kernel's nine coordinate arrays, and the k-d tree for that kind.

use super::*;

impl Index {
    /// [`NeighbourIndex::build`] with its parallel loops on `exec` (Rayon, or a host's job
    /// system): the same index either way.
    pub fn build_with(
        &mut self,
        exec: &dyn Exec,
        points: Points<'_>,
        radius: f32,
        period: Option<Period>,
    ) {
        let n = points.positions.len();
        let wrap = |p: Vec3| period.map_or(p, |per| per.wrap(p));
        self.radius = radius;
        self.layout = Layout::choose_with(exec, points.positions, radius, period);
        let layout = self.layout;
        // Cell of every boid, then the stable sort by cell.
        // Every key is written below: no need to clear what is kept.
        self.keys.resize(n, 0);
        let key = |start: usize, keys: &mut [u32]| {
            let pos = &points.positions[start..start + keys.len()];
            if period.is_none() {
                // Positions need no wrap: one plain loop (AVX2 callgrind, 10,000 boids: sort
                // and index 161 -> 130 instructions a boid against the wrapping loop alone).
                for (k, p) in keys.iter_mut().zip(pos) {
                    *k = layout.key(*p);
                }
            } else {
                for (k, p) in keys.iter_mut().zip(pos) {
                    *k = layout.key(wrap(*p));
                }
            }
        };
        if n < PARALLEL_MIN {
            key(0, &mut self.keys);
        } else {
            chunks_mut(exec, &mut self.keys, 4096, &key);
        }
        counting_sort_with(
            exec,
            &self.keys,
            layout.cells(),
            &mut self.cell_start,
            &mut self.order,
        );
        // Everything in cell order, one array per coordinate: positions (wrapped into the
        // period), velocities, headings; the padding reads as far away and still.
        let order = &self.order;
        for (c, pad) in self
            .p
            .iter_mut()
            .map(|c| (c, f32::INFINITY))
            .chain(self.v.iter_mut().map(|c| (c, 0.0)))
            .chain(self.h.iter_mut().map(|c| (c, 0.0)))
        {
            // Slots `..n` are all written below: only the padding needs its value.
            c.resize(n + PAD, pad);
            c[n..].fill(pad);
        }
        let (pos, vel, heads) = (points.positions, points.velocities, points.headings);
        // One piece of every array per chunk of slots, so each call writes its own.
        let fill = |start: usize, p: &mut Piece<'_>| {
            let [px, py, pz, vx, vy, vz, hx, hy, hz] = p;
            let len = px.len();
            let ord = &order[start..start + len];
            // Every array of the piece has `len` entries: said once, so the loops below check
            // no index but the gathered one.
            for c in [&*py, &*pz, &*vx, &*vy, &*vz, &*hx, &*hy, &*hz] {
                assert_eq!(c.len(), len);
            }
            // Positions, velocities and headings in three passes, three arrays written
            // each: written together, the nine streams of stores were the build's bottleneck
            // once the arrays outgrow the caches (100,000 boids, one thread: the build 2.9-3.5
            // -> 1.4-1.9 ms). Each pass in plain loops for the common case (no wrap, every
            // boid with a heading).
            if period.is_none() {
                for (k, &i) in ord.iter().enumerate() {
                    let q = pos[i as usize];
                    (px[k], py[k], pz[k]) = (q.x, q.y, q.z);
                }
            } else {
                for (k, &i) in ord.iter().enumerate() {
                    let q = wrap(pos[i as usize]);
                    (px[k], py[k], pz[k]) = (q.x, q.y, q.z);
                }
            }
            for (k, &i) in ord.iter().enumerate() {
                let v = vel[i as usize];
                (vx[k], vy[k], vz[k]) = (v.x, v.y, v.z);
            }
            if heads.len() == pos.len() {
                for (k, &i) in ord.iter().enumerate() {
                    let h = heads[i as usize];
                    (hx[k], hy[k], hz[k]) = (h.x, h.y, h.z);
                }
            } else {
                for (k, &i) in ord.iter().enumerate() {
                    let h = heads.get(i as usize).copied().unwrap_or(Vec3::ZERO);
                    (hx[k], hy[k], hz[k]) = (h.x, h.y, h.z);
                }
            }
        };
        const CH: usize = 4096;
        let [p0, p1, p2] = &mut self.p;
        let [v0, v1, v2] = &mut self.v;
        let [h0, h1, h2] = &mut self.h;
        let mut all: Piece<'_> = [
            &mut p0[..n],
            &mut p1[..n],
            &mut p2[..n],
            &mut v0[..n],
            &mut v1[..n],
            &mut v2[..n],
            &mut h0[..n],
            &mut h1[..n],
            &mut h2[..n],
        ];
        if n < PARALLEL_MIN {
            // One piece, on this thread.
            fill(0, &mut all);
        } else {
            fill_in_pieces(exec, all, n, CH, &fill);
        }
        // A flat axis (every boid at the same coordinate: a plane lock) goes last and is
        // skipped by the kernel: its offsets are exactly zero.
        let flat = (0..3).rev().find(|&a| {
            let c = &self.p[a][..n];
            c.iter().all(|&x| x.to_bits() == c[0].to_bits())
        });
        (self.axes, self.d3) = match flat {
            Some(2) | None => ([0, 1, 2], flat.is_none()),
            Some(1) => ([0, 2, 1], false),
            Some(_) => ([1, 2, 0], false),
        };
        self.tree = if self.kind == IndexKind::KdTree && n > 0 {
            Tree::build(&self.p, n, exec.is_rayon())
        } else {
            None
        };
    }
}

/// Slots `start..start + len` of the nine coordinate arrays (positions, velocities, headings).
type Piece<'a> = [&'a mut [f32]; 9];

/// Splits the nine arrays (`n` slots each) into pieces of `ch` slots (or a multiple of it:
/// `piece_grain`) and runs `fill(start, piece)` on each, in parallel on `exec`, allocating
/// nothing.
fn fill_in_pieces(
    exec: &dyn Exec,
    mut rest: Piece<'_>,
    n: usize,
    ch: usize,
    fill: &(dyn Fn(usize, &mut Piece<'_>) + Sync),
) {
    let ch = crate::exec::piece_grain(n, ch);
    let pieces = std::iter::from_fn(move || {
        let len = ch.min(rest[0].len());
        (len > 0).then(|| {
            rest.each_mut().map(|r| {
                let (head, tail) = std::mem::take(r).split_at_mut(len);
                *r = tail;
                head
            })
        })
    });
    crate::exec::for_pieces(exec, pieces, &|k, mut piece: Piece<'_>| {
        fill(k * ch, &mut piece)
    });
}
