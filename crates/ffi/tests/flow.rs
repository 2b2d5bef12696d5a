//! Flow fields through the C ABI, as a C host uses them: the maze preset's world has a cell
//! size, its flock reads a field whose grid, distances and directions come back; a cell size
//! of 0 turns them off; the count at the target.
//!
//! SAFETY, for every `unsafe` block here: pointers point to live locals of the right type and
//! length; strings are NUL-terminated literals.
#![expect(unsafe_code, reason = "calls the C ABI as C does")]

use boids_ffi::*;
use std::ffi::CStr;
use std::ptr::null_mut;

use BoidsResult::{BufferTooSmall, NotFound, Ok};

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// A world with the maze preset's walkers.
fn maze() -> (BoidsWorldId, BoidsFlockId) {
    let d = boids_default_world_def();
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, Ok);
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create_preset(w, c"maze".as_ptr(), c"walkers".as_ptr(), &mut f) },
        Ok,
        "{}",
        msg()
    );
    (w, f)
}

#[test]
fn a_maze_flock_reads_its_field_back_through_the_c_abi() {
    let (w, f) = maze();
    let mut cell = -1.0f32;
    assert_eq!(unsafe { boids_world_get_flow_cell_size(w, &mut cell) }, Ok);
    assert_eq!(cell, 1.0, "the preset sets its cell size");
    // No field before the first step.
    let (mut o, mut c, mut x, mut z) = (BoidsVec3::default(), 0.0f32, 0u32, 0u32);
    assert_eq!(
        unsafe { boids_flock_get_flow_grid(f, &mut o, &mut c, &mut x, &mut z) },
        NotFound
    );
    let mut at = 99usize;
    assert_eq!(unsafe { boids_flock_count_at_target(f, &mut at) }, Ok);
    assert_eq!(at, 0);
    assert_eq!(boids_world_step(w, 1.0 / 60.0), Ok);
    assert_eq!(
        unsafe { boids_flock_get_flow_grid(f, &mut o, &mut c, &mut x, &mut z) },
        Ok,
        "{}",
        msg()
    );
    // The preset's 161 x 161 samples, spacing 1, centred: 161 cells of 1 each way (the
    // placement's bounds are grown by a rounding margin).
    assert_eq!((c, x, z), (1.0, 161, 161));
    assert!((o.x + 80.0).abs() < 0.01 && (o.z + 80.0).abs() < 0.01 && o.y == 0.0);
    let n = (x * z) as usize;
    // Too small: the count needed, nothing else.
    let mut dist = vec![0.0f32; n];
    let mut got = 0usize;
    assert_eq!(
        unsafe { boids_flock_read_flow_distances(f, dist.as_mut_ptr(), 10, &mut got) },
        BufferTooSmall
    );
    assert_eq!(got, n);
    assert_eq!(
        unsafe { boids_flock_read_flow_distances(f, dist.as_mut_ptr(), n, &mut got) },
        Ok
    );
    let mut dirs = vec![BoidsVec3::default(); n];
    assert_eq!(
        unsafe { boids_flock_read_flow_directions(f, dirs.as_mut_ptr(), n, &mut got) },
        Ok
    );
    assert_eq!(got, n);
    // The target's cell (48, 0 in the world: cell 128, 80) is 0 away, with no way on; its
    // neighbour to the west one cell, pointing east.
    let cell_of = |i: u32, k: u32| (k * x + i) as usize;
    assert_eq!(dist[cell_of(128, 80)], 0.0);
    assert_eq!(dirs[cell_of(128, 80)], BoidsVec3::default());
    assert!((dist[cell_of(127, 80)] - 1.0).abs() < 0.5);
    assert_eq!(
        dirs[cell_of(127, 80)],
        BoidsVec3 {
            x: 1.0,
            y: 0.0,
            z: 0.0
        }
    );
    // Every distance is -1 (no way) or at least 0; every direction unit or zero.
    for (d, v) in dist.iter().zip(&dirs) {
        assert!(*d == -1.0 || *d >= 0.0, "{d}");
        let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
        assert!(len == 0.0 || (len - 1.0).abs() < 1e-6, "{len}");
    }
    // In the U's cup (x 0, z 0: cell 80, 80) the way leads out of the cup (west), and it is
    // far longer than the straight line (48).
    assert!(dirs[cell_of(80, 80)].x < 0.0);
    assert!(dist[cell_of(80, 80)] > 100.0);
    // Cell size 0: no field any more after the next step.
    assert_eq!(boids_world_set_flow_cell_size(w, 0.0), Ok);
    assert_eq!(boids_world_step(w, 1.0 / 60.0), Ok);
    assert_eq!(
        unsafe { boids_flock_read_flow_distances(f, null_mut(), 0, &mut got) },
        NotFound
    );
    assert!(msg().contains("no flow field"), "{}", msg());
    assert_eq!(boids_world_destroy(w), Ok);
}

#[test]
fn a_flow_budget_spreads_the_field_over_steps_through_the_c_abi() {
    let (w, f) = maze();
    let d = boids_default_world_def();
    let mut units = 7u32;
    assert_eq!(unsafe { boids_world_get_flow_budget(w, &mut units) }, Ok);
    assert_eq!(units, 0, "no limit by default");
    assert_eq!(
        unsafe { boids_world_get_flow_budget(w, null_mut()) },
        BoidsResult::NullPointer
    );
    assert_eq!(boids_world_set_flow_budget(w, 5_000), Ok);
    assert_eq!(unsafe { boids_world_get_flow_budget(w, &mut units) }, Ok);
    assert_eq!(units, 5_000);
    // 161² cells: the survey (about 10 units a cell), then the field (about 1.2): several steps
    // before the flock reads a field.
    let (mut o, mut c, mut x, mut z) = (BoidsVec3::default(), 0.0f32, 0u32, 0u32);
    let mut steps = 0;
    while unsafe { boids_flock_get_flow_grid(f, &mut o, &mut c, &mut x, &mut z) } == NotFound {
        assert_eq!(boids_world_step(w, 1.0 / 60.0), Ok);
        steps += 1;
        assert!(steps < 500);
    }
    assert!(steps > 3, "{steps} steps");
    assert_eq!((x, z), (161, 161));
    // A save holds the budget.
    let mut len = 0usize;
    assert_eq!(
        unsafe { boids_world_save(w, null_mut(), 0, &mut len) },
        BufferTooSmall
    );
    let mut bytes = vec![0u8; len];
    assert_eq!(
        unsafe { boids_world_save(w, bytes.as_mut_ptr(), len, &mut len) },
        Ok
    );
    let mut l = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_load(&d, bytes.as_ptr(), len, &mut l) },
        Ok,
        "{}",
        msg()
    );
    assert_eq!(unsafe { boids_world_get_flow_budget(l, &mut units) }, Ok);
    assert_eq!(units, 5_000);
    assert_eq!(boids_world_destroy(l), Ok);
    assert_eq!(boids_world_destroy(w), Ok);
    assert_eq!(boids_world_set_flow_budget(w, 1), BoidsResult::InvalidId);
}

#[test]
fn the_ground_height_puts_an_overlay_where_the_walkers_stand() {
    let (w, f) = maze();
    for _ in 0..30 {
        assert_eq!(boids_world_step(w, 1.0 / 60.0), Ok);
    }
    let mut n = 0usize;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, null_mut(), 0, &mut n) },
        BufferTooSmall
    );
    let mut p = vec![BoidsVec3::default(); n];
    assert_eq!(
        unsafe { boids_flock_read_positions(f, p.as_mut_ptr(), n, &mut n) },
        Ok
    );
    // Each walker stands its pivot height (0.4) above the ground under it.
    for q in &p {
        let mut h = f32::NAN;
        assert_eq!(
            unsafe { boids_world_get_ground_height(w, q.x, q.z, &mut h) },
            Ok
        );
        assert!((q.y - 0.4 - h).abs() < 1e-3, "{q:?} over ground at {h}");
    }
    // The hills' corners are at ±80; beyond them no ground (out left as it was).
    let mut h = 7.0f32;
    assert_eq!(
        unsafe { boids_world_get_ground_height(w, 85.0, 0.0, &mut h) },
        NotFound
    );
    assert_eq!(h, 7.0);
    assert!(msg().contains("no ground"), "{}", msg());
    assert_eq!(
        unsafe { boids_world_get_ground_height(w, f32::NAN, 0.0, &mut h) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(boids_world_destroy(w), Ok);
}
