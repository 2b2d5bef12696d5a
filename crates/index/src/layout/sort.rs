//! The stable counting sort by cell that orders the boids every step.

use crate::exec::{Exec, RayonExec};

/// Stable counting sort of `keys` (each below `cells`): fills `cell_start` (`cells + 1`
/// entries) and `order` (`order[slot]` = the index in `keys` of the point in that slot). Points
/// of one cell keep their relative order, so the result is the same for any thread count. In
/// parallel, each of `parts` workers owns one contiguous range of cells and scans every key.
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
    let parts = if n < 32_768 {
        1
    } else {
        exec.workers().clamp(1, 16)
    };
    if parts == 1 {
        for &k in keys {
            cell_start[k as usize + 1] += 1;
        }
        for c in 0..cells {
            cell_start[c + 1] += cell_start[c];
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
    // Cell boundaries of the parts, then each part's counts.
    let bounds: Vec<usize> = (0..=parts).map(|p| cells * p / parts).collect();
    let counts = &mut cell_start[1..];
    let mut pieces: Vec<&mut [u32]> = Vec::with_capacity(parts);
    let mut rest = counts;
    for p in 0..parts {
        let (head, tail) = rest.split_at_mut(bounds[p + 1] - bounds[p]);
        pieces.push(head);
        rest = tail;
    }
    let totals: Vec<std::sync::Mutex<u32>> = (0..parts).map(|_| 0.into()).collect();
    let pieces: Vec<std::sync::Mutex<&mut [u32]>> =
        pieces.into_iter().map(std::sync::Mutex::new).collect();
    exec.for_ranges(parts, 1, &|r: std::ops::Range<usize>| {
        for p in r {
            let mut counts = pieces[p].lock().unwrap_or_else(|e| e.into_inner());
            let (lo, hi) = (bounds[p] as u32, bounds[p + 1] as u32);
            for &k in keys {
                if k >= lo && k < hi {
                    counts[(k - lo) as usize] += 1;
                }
            }
            let mut sum = 0u32;
            for c in counts.iter_mut() {
                sum += *c;
                *c = sum;
            }
            *totals[p].lock().unwrap_or_else(|e| e.into_inner()) = sum;
        }
    });
    let totals: Vec<u32> = totals
        .into_iter()
        .map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    // Offsets of the parts, then every part scatters its own points into its own slots.
    let mut offsets = Vec::with_capacity(parts);
    let mut acc = 0u32;
    for &t in &totals {
        offsets.push(acc);
        acc += t;
    }
    let mut order_pieces: Vec<&mut [u32]> = Vec::with_capacity(parts);
    let mut rest: &mut [u32] = order;
    for &t in &totals {
        let (head, tail) = rest.split_at_mut(t as usize);
        order_pieces.push(head);
        rest = tail;
    }
    let work: Vec<std::sync::Mutex<(&mut [u32], &mut [u32])>> = pieces
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .zip(order_pieces)
        .map(std::sync::Mutex::new)
        .collect();
    exec.for_ranges(parts, 1, &|r: std::ops::Range<usize>| {
        for p in r {
            let mut guard = work[p].lock().unwrap_or_else(|e| e.into_inner());
            let (ends, out) = &mut *guard;
            let (lo, hi) = (bounds[p] as u32, bounds[p + 1] as u32);
            // `ends[c]` holds the end of cell c within the part. Turn it into the start (the
            // previous end) to use as the cursor; after the scatter it is the end again.
            let m = ends.len();
            if m > 0 {
                ends.copy_within(0..m - 1, 1);
                ends[0] = 0;
            }
            for (i, &k) in keys.iter().enumerate() {
                if k >= lo && k < hi {
                    let s = &mut ends[(k - lo) as usize];
                    out[*s as usize] = i as u32;
                    *s += 1;
                }
            }
            let base = offsets[p];
            for e in ends.iter_mut() {
                *e += base;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_counting_sort_matches_the_serial_one() {
        let mut s = 12345u64;
        let keys: Vec<u32> = (0..100_000)
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
}
