//! A control for `scripts/check-heap --qemu64 --control`: a program with none of the library's
//! code that does what the `boids` command does in the qemu64 check, in the same shape: a
//! worker thread that takes jobs from the main thread and hands results back (Rayon's pool of
//! one), a thread parked on a signal pipe (the interrupt handler), buffers of a few thousand
//! floats allocated, grown and freed every step, float arithmetic, and a CSV file written
//! through a buffer. A failure of this program under qemu lies in qemu user-mode or the C
//! library, not in the engine.
//!
//! `qemu_control N`: N = 1 or 2 picks the workload's size; prints `checksum HEX`, the same on
//! every run, native or emulated.

use std::io::Write;
use std::sync::mpsc;

fn main() -> std::io::Result<()> {
    let size: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let boids = 1500 * size;
    // The interrupt handler's thread: parked on a pipe that is never written.
    let (_hold, parked) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let _ = parked.recv();
    });
    // The worker: takes a state, returns the next one.
    let (to_worker, jobs) = mpsc::channel::<Vec<f32>>();
    let (to_main, results) = mpsc::channel::<Vec<f32>>();
    let worker = std::thread::spawn(move || {
        for state in jobs {
            let n = state.len() / 3;
            let mut next = Vec::with_capacity(state.len());
            let mut cells: Vec<Vec<u32>> = vec![Vec::new(); 64];
            for i in 0..n {
                let c = ((state[3 * i].abs() * 7.0) as usize) % 64;
                cells[c].push(i as u32);
            }
            for i in 0..n {
                let (x, y, z) = (state[3 * i], state[3 * i + 1], state[3 * i + 2]);
                let c = ((x.abs() * 7.0) as usize) % 64;
                let mut sum = [0.0f32; 3];
                for &j in cells[c].iter().take(32) {
                    let j = j as usize;
                    sum[0] += state[3 * j] - x;
                    sum[1] += state[3 * j + 1] - y;
                    sum[2] += state[3 * j + 2] - z;
                }
                let d = (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]).sqrt() + 1.0;
                next.extend_from_slice(&[x + 0.01 * sum[0] / d, y + 0.01 * sum[1] / d, z - 0.003]);
            }
            if to_main.send(next).is_err() {
                return;
            }
        }
    });
    let mut state: Vec<f32> = (0..3 * boids)
        .map(|k| ((k as u64 * 2_654_435_761) % 1000) as f32 / 100.0 - 5.0)
        .collect();
    let mut out = std::io::BufWriter::new(std::fs::File::create("x.csv")?);
    writeln!(out, "step,id,x,y,z")?;
    for step in 0..120 {
        to_worker.send(state).expect("the worker is there");
        state = results.recv().expect("the worker answers");
        if step % 10 == 0 {
            for (i, p) in state.chunks_exact(3).enumerate() {
                writeln!(out, "{step},{i},{},{},{}", p[0], p[1], p[2])?;
            }
        }
    }
    out.flush()?;
    drop(to_worker);
    worker.join().expect("the worker ends");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in &state {
        h = (h ^ u64::from(v.to_bits())).wrapping_mul(0x100_0000_01b3);
    }
    println!("checksum {h:016x}");
    Ok(())
}
