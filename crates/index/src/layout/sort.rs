//! The stable counting sort by cell that orders the boids every step.

use crate::exec::{Exec, RayonExec, chunks_mut, for_pieces};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Stable counting sort of `keys` (each below `cells`): fills `cell_start` (`cells + 1`
/// entries) and `order` (`order[slot]` = the index in `keys` of the point in that slot). Points
/// of one cell keep their relative order, so the result is the same for any thread count. In
/// parallel, each of `parts` workers owns one contiguous range of cells and scans the keys
/// that may fall in it: the keys come in blocks summarised by their smallest and largest key,
/// and a part skips every block that holds none of its cells (keys almost in order, as a
/// flock's are from step to step, give each part about its share of the blocks).
pub fn counting_sort(keys: &[u32], cells: usize, cell_start: &mut Vec<u32>, order: &mut Vec<u32>) {
    counting_sort_with(&RayonExec::default(), keys, cells, cell_start, order);
}

/// [`counting_sort`] with its parallel loops on `exec`.
pub fn counting_sort_with(
    exec: &dyn Exec,
    keys: &[u32],
    cells: usize,
    cell_start: &mut Vec<u32>,
    order: &mut Vec<u32>,
) {
    let n = keys.len();
    cell_start.clear();
    cell_start.resize(cells + 1, 0);
    order.clear();
    order.resize(n, 0);
    let parts = if n < SORT_PARALLEL_MIN {
        1
    } else {
        exec.workers().clamp(1, MAX_PARTS)
    };
    if parts == 1 {
        for &k in keys {
            cell_start[k as usize + 1] += 1;
        }
        // The running sum in a register: `cell_start[c + 1] += cell_start[c]` waited on
        // the store it had just made, cell after cell (1-2 ms of a 1,000,000-boid sort).
        let mut run = 0u32;
        for c in cell_start.iter_mut() {
            run += *c;
            *c = run;
        }
        if keys.is_sorted() {
            // No boid changed cell since the last sort (the boids are stored in its order):
            // the stable sort keeps every boid where it is.
            for (i, o) in order.iter_mut().enumerate() {
                *o = i as u32;
            }
            return;
        }
        // `cell_start[c]` is the cursor of cell c; after the scatter it holds the end of c,
        // which is the start of c + 1: shift back by one.
        for (i, &k) in keys.iter().enumerate() {
            let s = &mut cell_start[k as usize];
            order[*s as usize] = i as u32;
            *s += 1;
        }
        cell_start.copy_within(0..cells, 1);
        cell_start[0] = 0;
        return;
    }
    // Cell boundaries of the parts, then each part's counts. (Arrays on the stack: a sort
    // allocates nothing once its outputs have their sizes.)
    let mut bounds = [0usize; MAX_PARTS + 1];
    for (p, b) in bounds.iter_mut().enumerate().take(parts + 1) {
        *b = cells * p / parts;
    }
    let bounds = &bounds[..=parts];
    // The smallest and largest key of each block, in parallel. (On the stack, as below.)
    let per = n.div_ceil(BLOCKS);
    let mut spans = [(0u32, 0u32); BLOCKS];
    let spans = &mut spans[..n.div_ceil(per)];
    chunks_mut(exec, spans, 64, &|b0, sp: &mut [(u32, u32)]| {
        for (b, s) in (b0..).zip(sp) {
            let ks = &keys[b * per..((b + 1) * per).min(n)];
            *s = ks
                .iter()
                .fold((u32::MAX, 0), |(lo, hi), &k| (lo.min(k), hi.max(k)));
        }
    });
    let spans = &*spans;
    // The blocks that may hold keys in `lo..hi`: (first index, keys, all of them inside).
    let blocks = move |lo: u32, hi: u32| {
        spans
            .iter()
            .enumerate()
            .filter(move |&(_, &(kmin, kmax))| kmax >= lo && kmin < hi)
            .map(move |(b, &(kmin, kmax))| {
                let start = b * per;
                (
                    start,
                    &keys[start..(start + per).min(n)],
                    kmin >= lo && kmax < hi,
                )
            })
    };
    let totals: [AtomicU32; MAX_PARTS] = std::array::from_fn(|_| AtomicU32::new(0));
    for_pieces(
        exec,
        split_by(&mut cell_start[1..], bounds.windows(2).map(|b| b[1] - b[0])),
        &|p, counts: &mut [u32]| {
            let (lo, hi) = (bounds[p] as u32, bounds[p + 1] as u32);
            for (_, ks, inside) in blocks(lo, hi) {
                for &k in ks {
                    if inside || (k >= lo && k < hi) {
                        counts[(k - lo) as usize] += 1;
                    }
                }
            }
            let mut sum = 0u32;
            for c in counts.iter_mut() {
                sum += *c;
                *c = sum;
            }
            totals[p].store(sum, Relaxed);
        },
    );
    // Offsets of the parts, then every part scatters its own points into its own slots.
    let mut offsets = [0u32; MAX_PARTS];
    let mut acc = 0u32;
    for (o, t) in offsets.iter_mut().zip(&totals).take(parts) {
        *o = acc;
        acc += t.load(Relaxed);
    }
    let ends = split_by(&mut cell_start[1..], bounds.windows(2).map(|b| b[1] - b[0]));
    let outs = split_by(
        order,
        totals.iter().take(parts).map(|t| t.load(Relaxed) as usize),
    );
    for_pieces(exec, ends.zip(outs), &|p,
                                       (ends, out): (
        &mut [u32],
        &mut [u32],
    )| {
        let (lo, hi) = (bounds[p] as u32, bounds[p + 1] as u32);
        // `ends[c]` holds the end of cell c within the part. Turn it into the start (the
        // previous end) to use as the cursor; after the scatter it is the end again.
        let m = ends.len();
        if m > 0 {
            ends.copy_within(0..m - 1, 1);
            ends[0] = 0;
        }
        for (start, ks, inside) in blocks(lo, hi) {
            for (i, &k) in (start as u32..).zip(ks) {
                if inside || (k >= lo && k < hi) {
                    let s = &mut ends[(k - lo) as usize];
                    out[*s as usize] = i;
                    *s += 1;
                }
            }
        }
        let base = offsets[p];
        for e in ends.iter_mut() {
            *e += base;
        }
    });
}

/// Most parts a parallel sort cuts the cells into.
const MAX_PARTS: usize = 16;

/// Keys below which the sort runs on one thread. The serial sort does one pass of each kind;
/// the parallel one adds a pass for the blocks' spans and two hand-overs, and only wins above
/// about 200,000 keys almost in order (2 threads, Intel Xeon: 100,000 keys 200 us serial,
/// 240 in parallel; 400,000 1,040 / 830; 1,000,000 2,600 / 2,130).
const SORT_PARALLEL_MIN: usize = 1 << 18;

/// Blocks of keys a parallel sort summarises (at most): 8 KiB of spans on the stack.
const BLOCKS: usize = 1024;

/// `data` cut into consecutive pieces of the given lengths.
fn split_by<'a>(
    mut data: &'a mut [u32],
    lens: impl Iterator<Item = usize> + 'a,
) -> impl Iterator<Item = &'a mut [u32]> + 'a {
    lens.map(move |len| {
        let (head, tail) = std::mem::take(&mut data).split_at_mut(len);
        data = tail;
        head
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_counting_sort_matches_the_serial_one() {
        let mut s = 12345u64;
        let keys: Vec<u32> = (0..SORT_PARALLEL_MIN + 40_000)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 33) % 5000) as u32
            })
            .collect();
        let (mut cs, mut order) = (Vec::new(), Vec::new());
        counting_sort(&keys, 5000, &mut cs, &mut order);
        let mut expect: Vec<u32> = (0..keys.len() as u32).collect();
        expect.sort_by_key(|&i| keys[i as usize]);
        assert_eq!(order, expect);
        for c in 0..5000 {
            for s in cs[c]..cs[c + 1] {
                assert_eq!(keys[order[s as usize] as usize], c as u32);
            }
        }
        assert_eq!(cs[5000], keys.len() as u32);
    }

    /// Keys already in cell order (no boid changed cell) keep every point in place, and one
    /// key out of order still sorts: the same result as sorting by key, stably.
    #[test]
    fn keys_in_order_keep_their_places_and_one_out_of_order_sorts() {
        let mut keys: Vec<u32> = (0..1000u32).map(|i| i / 7).collect();
        for swap in [false, true] {
            if swap {
                keys.swap(10, 900);
            }
            let (mut cs, mut order) = (Vec::new(), Vec::new());
            counting_sort(&keys, 200, &mut cs, &mut order);
            let mut expect: Vec<u32> = (0..keys.len() as u32).collect();
            expect.sort_by_key(|&i| keys[i as usize]);
            assert_eq!(order, expect, "swapped {swap}");
            for c in 0..200 {
                for s in cs[c]..cs[c + 1] {
                    assert_eq!(keys[order[s as usize] as usize], c as u32);
                }
            }
        }
    }

    /// Keys almost in order (a flock's from one step to the next), with some far from their
    /// places: blocks wholly inside one part, blocks across parts and blocks no part but one
    /// needs all sort as the stable sort does.
    #[test]
    fn keys_almost_in_order_sort_in_parallel() {
        let n = SORT_PARALLEL_MIN as u32 + 50_000;
        let cells = 70_000u32;
        let mut keys: Vec<u32> = (0..n)
            .map(|i| (i as u64 * cells as u64 / n as u64) as u32)
            .collect();
        let mut s = 99u64;
        for k in keys.iter_mut() {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (s >> 40) % 1000 {
                // A neighbour cell, or anywhere.
                0..=99 => *k = (*k + 1).min(cells - 1),
                100..=102 => *k = ((s >> 8) % u64::from(cells)) as u32,
                _ => {}
            }
        }
        // Three parts whatever the machine and RAYON_NUM_THREADS: the parallel path runs.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let exec = RayonExec::new(Some(std::sync::Arc::new(pool)));
        let (mut cs, mut order) = (Vec::new(), Vec::new());
        counting_sort_with(&exec, &keys, cells as usize, &mut cs, &mut order);
        let mut expect: Vec<u32> = (0..n).collect();
        expect.sort_by_key(|&i| keys[i as usize]);
        assert_eq!(order, expect);
        let mut want = vec![0u32; cells as usize + 1];
        for &k in &keys {
            want[k as usize + 1] += 1;
        }
        for c in 0..cells as usize {
            want[c + 1] += want[c];
        }
        assert_eq!(cs, want);
    }
}
