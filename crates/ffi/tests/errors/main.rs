//! Every failure of the C ABI, called the way C calls it: NULL pointers, stale, forged and
//! destroyed ids, bad numbers, bad buffers, bad defs, concurrent use. Each case checks the
//! result code, the message, and that the world did not change.
//! The cases share one fixture and one set of checks (with `session`: a whole session, reads,
//! two threads).
//!
//! SAFETY, for every `unsafe` block in these files: each pointer passed is either NULL on purpose
//! (the case under test) or points to a live local of the right type and length; strings are
//! NUL-terminated literals or CStrings alive for the call.
#![expect(unsafe_code, reason = "these tests call the C ABI exactly as C does")]

mod session;

use boids_ffi::*;
use std::ffi::{CStr, CString};
use std::ptr::{null, null_mut};

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn world(threads: u32) -> BoidsWorldId {
    let mut def = boids_default_world_def();
    def.seed = 3;
    def.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
    w
}

fn flock(w: BoidsWorldId, name: &str, n: u32) -> BoidsFlockId {
    let name = CString::new(name).unwrap();
    let mut def = boids_default_flock_def();
    def.name = name.as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    let spawn = boids_default_spawn_def();
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, n, &spawn, &mut first) },
        BoidsResult::Ok
    );
    f
}

fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut h) },
        BoidsResult::Ok
    );
    h
}

#[test]
fn null_pointers_are_refused_everywhere_and_change_nothing() {
    let w = world(1);
    let f = flock(w, "f", 10);
    let before = hash(w);
    let wdef = boids_default_world_def();
    let fdef = boids_default_flock_def();
    let params = boids_default_flock_params();
    let spawn = boids_default_spawn_def();
    let bounds = params.bounds;
    let odef = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3::default(),
        b: BoidsVec3::default(),
        radius: 1.0,
        ..boids_default_obstacle_def()
    };
    let name = c"f";
    let v = BoidsVec3::default();
    let mut out_w = BoidsWorldId::default();
    let mut out_f = BoidsFlockId::default();
    let mut out_o = BoidsObstacleId::default();
    let mut out_u32 = 0u32;
    let mut out_usize = 0usize;
    let mut out_i32 = 0i32;
    let mut out_p = boids_default_flock_params();
    let mut buf = [BoidsVec3::default(); 16];
    let cases: Vec<(&str, BoidsResult)> = unsafe {
        vec![
            ("world_create def", boids_world_create(null(), &mut out_w)),
            ("world_create out", boids_world_create(&wdef, null_mut())),
            ("state_hash out", boids_world_state_hash(w, null_mut())),
            (
                "flock_create def",
                boids_flock_create(w, null(), &mut out_f),
            ),
            ("flock_create out", boids_flock_create(w, &fdef, null_mut())),
            (
                "flock_create name",
                boids_flock_create(w, &fdef, &mut out_f),
            ),
            (
                "create_preset preset",
                boids_flock_create_preset(w, null(), name.as_ptr(), &mut out_f),
            ),
            (
                "create_preset name",
                boids_flock_create_preset(w, c"fish-tank".as_ptr(), null(), &mut out_f),
            ),
            (
                "create_preset out",
                boids_flock_create_preset(w, c"fish-tank".as_ptr(), name.as_ptr(), null_mut()),
            ),
            ("find name", boids_flock_find(w, null(), &mut out_f)),
            ("find out", boids_flock_find(w, name.as_ptr(), null_mut())),
            ("get_params out", boids_flock_get_params(f, null_mut())),
            ("set_params params", boids_flock_set_params(f, null())),
            ("set_bounds bounds", boids_flock_set_bounds(f, null())),
            (
                "wake_region half",
                boids_flock_set_wake_region(f, &v, null()),
            ),
            ("is_asleep out", boids_flock_is_asleep(f, null_mut())),
            ("spawn def", boids_flock_spawn(f, 1, null(), &mut out_u32)),
            ("spawn out", boids_flock_spawn(f, 1, &spawn, null_mut())),
            ("resize def", boids_flock_resize(f, 1, null())),
            (
                "add positions",
                boids_flock_add_boids(f, null(), &v, 1, &mut out_u32),
            ),
            (
                "add velocities",
                boids_flock_add_boids(f, &v, null(), 1, &mut out_u32),
            ),
            ("add out", boids_flock_add_boids(f, &v, &v, 1, null_mut())),
            (
                "remove ids",
                boids_flock_remove_boids(f, null(), 1, &mut out_usize),
            ),
            ("count out", boids_flock_count(f, null_mut())),
            (
                "read buffer",
                boids_flock_read_positions(f, null_mut(), 16, &mut out_usize),
            ),
            (
                "read count",
                boids_flock_read_positions(f, buf.as_mut_ptr(), 16, null_mut()),
            ),
            (
                "read velocities",
                boids_flock_read_velocities(f, null_mut(), 16, &mut out_usize),
            ),
            (
                "read ids",
                boids_flock_read_ids(f, null_mut(), 16, &mut out_usize),
            ),
            (
                "read orientations",
                boids_flock_read_orientations(f, null_mut(), 16, &mut out_usize),
            ),
            (
                "read matrices",
                boids_flock_read_matrices(f, 1.0, null_mut(), 16, &mut out_usize),
            ),
            (
                "write positions",
                boids_flock_write_positions(f, null(), 10),
            ),
            (
                "write velocities",
                boids_flock_write_velocities(f, null(), 10),
            ),
            (
                "obstacle_add def",
                boids_obstacle_add(w, null(), &mut out_o),
            ),
            ("obstacle_add out", boids_obstacle_add(w, &odef, null_mut())),
            ("obstacle_set def", boids_obstacle_set(out_o, null())),
        ]
    };
    let _ = (&mut out_i32, &mut out_p, bounds);
    for (name, r) in cases {
        assert_eq!(r, BoidsResult::NullPointer, "{name}: {}", msg());
        assert!(msg().contains("NULL"), "{name}: {}", msg());
    }
    assert_eq!(hash(w), before);
    assert_eq!(
        out_w,
        BoidsWorldId::default(),
        "out-parameters untouched on failure"
    );
    assert_eq!(out_f, BoidsFlockId::default());
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn stale_forged_and_destroyed_ids() {
    let w = world(1);
    let f = flock(w, "f", 10);
    let forged = BoidsFlockId {
        world: w,
        index: 77,
        generation: 1,
    };
    let null_flock = BoidsFlockId::default();
    let mut n = 0usize;
    for id in [
        forged,
        null_flock,
        BoidsFlockId {
            world: w,
            index: f.index,
            generation: f.generation + 1,
        },
    ] {
        assert_eq!(
            unsafe { boids_flock_count(id, &mut n) },
            BoidsResult::InvalidId
        );
        assert_eq!(boids_flock_is_valid(id), 0);
        assert!(
            msg().contains("invalid") && msg().contains("id"),
            "{}",
            msg()
        );
    }
    assert_eq!(boids_flock_is_valid(f), 1);
    assert_eq!(boids_flock_destroy(f), BoidsResult::Ok);
    assert_eq!(
        boids_flock_destroy(f),
        BoidsResult::InvalidId,
        "double destroy"
    );
    assert_eq!(boids_flock_is_valid(f), 0);
    // The slot is reused, but the old id stays stale.
    let g = flock(w, "g", 5);
    assert_eq!(g.index, f.index);
    assert_eq!(
        unsafe { boids_flock_count(f, &mut n) },
        BoidsResult::InvalidId
    );
    assert_eq!(unsafe { boids_flock_count(g, &mut n) }, BoidsResult::Ok);
    assert_eq!(n, 5);

    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert_eq!(
        boids_world_destroy(w),
        BoidsResult::InvalidId,
        "double destroy"
    );
    assert_eq!(boids_world_is_valid(w), 0);
    assert_eq!(boids_world_step(w, 0.016), BoidsResult::InvalidId);
    assert!(msg().contains("invalid world id"));
    assert_eq!(
        unsafe { boids_flock_count(g, &mut n) },
        BoidsResult::InvalidId,
        "flock of a dead world"
    );
    assert_eq!(
        boids_world_step(
            BoidsWorldId {
                index: 9999,
                generation: 3
            },
            0.016
        ),
        BoidsResult::InvalidId
    );
    assert_eq!(
        boids_world_step(BoidsWorldId::default(), 0.016),
        BoidsResult::InvalidId
    );
    // Obstacles too.
    let w = world(1);
    let def = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3::default(),
        b: BoidsVec3::default(),
        radius: 1.0,
        ..boids_default_obstacle_def()
    };
    let mut o = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &def, &mut o) },
        BoidsResult::Ok
    );
    assert_eq!(boids_obstacle_remove(o), BoidsResult::Ok);
    assert_eq!(boids_obstacle_remove(o), BoidsResult::InvalidId);
    assert_eq!(
        unsafe { boids_obstacle_set(o, &def) },
        BoidsResult::InvalidId
    );
    assert_eq!(
        boids_obstacle_remove(BoidsObstacleId::default()),
        BoidsResult::InvalidId
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn bad_numbers_are_refused_with_the_field_named() {
    let w = world(2);
    let f = flock(w, "f", 50);
    let before = hash(w);
    let base = boids_default_flock_params();
    type Edit = fn(&mut BoidsFlockParams);
    let edits: Vec<(&str, Edit)> = vec![
        ("perception_radius", |p| p.perception_radius = f32::NAN),
        ("perception_radius", |p| p.perception_radius = -1.0),
        ("perception_radius", |p| p.perception_radius = f32::INFINITY),
        ("fov_half_angle_deg", |p| p.fov_half_angle_deg = 400.0),
        ("separation_radius", |p| p.separation_radius = -0.5),
        ("weights.cohesion", |p| p.weight_cohesion = f32::NAN),
        ("weights.separation", |p| p.weight_separation = 1e30),
        ("min_speed", |p| p.min_speed = 9.0),
        ("max_speed", |p| p.max_speed = f32::NEG_INFINITY),
        ("velocity_smoothing", |p| p.velocity_smoothing = 2.0),
        ("bounds", |p| p.bounds.max.x = p.bounds.min.x - 1.0),
        ("bounds.kind", |p| p.bounds.kind = 42),
        ("separation_mode", |p| p.separation_mode = -1),
        ("integrator", |p| p.integrator = 9),
        ("has_target", |p| p.has_target = 2),
        ("target.point", |p| {
            p.has_target = 1;
            p.target_point = BoidsVec3 {
                x: 0.0,
                y: f32::NAN,
                z: 0.0,
            }
        }),
        ("target_point is not set", |p| p.has_target = 1),
        ("reserved must be 0", |p| p.reserved = 1),
        ("bounds.radius is not used", |p| {
            p.bounds.radius = f32::INFINITY
        }),
        ("max_neighbours", |p| p.max_neighbours = u32::MAX),
        ("look_ahead", |p| p.look_ahead = -3.0),
    ];
    for (field, edit) in edits {
        let mut p = base;
        edit(&mut p);
        assert_eq!(
            unsafe { boids_flock_set_params(f, &p) },
            BoidsResult::InvalidArgument,
            "{field}"
        );
        assert!(msg().contains(field), "{field}: {}", msg());
        // Creating a flock with the same params fails the same way.
        let mut def = boids_default_flock_def();
        def.name = c"other".as_ptr();
        def.params = p;
        let mut g = BoidsFlockId::default();
        assert_eq!(
            unsafe { boids_flock_create(w, &def, &mut g) },
            BoidsResult::InvalidArgument
        );
    }
    let mut now = boids_default_flock_params();
    assert_eq!(
        unsafe { boids_flock_get_params(f, &mut now) },
        BoidsResult::Ok
    );
    assert_eq!(
        format!("{now:?}"),
        format!("{base:?}"),
        "params unchanged (NaN too)"
    );
    for dt in [0.0, -0.016, f32::NAN, f32::INFINITY, 5.0] {
        assert_eq!(
            boids_world_step(w, dt),
            BoidsResult::InvalidArgument,
            "dt {dt}"
        );
        assert!(msg().contains("dt"));
    }
    let nan = BoidsVec3 {
        x: f32::NAN,
        y: 0.0,
        z: 0.0,
    };
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_add_boids(f, &nan, &nan, 1, &mut first) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(
        boids_flock_set_target(f, BoidsVec3::default()),
        BoidsResult::InvalidArgument,
        "no target"
    );
    let mut bad_obstacle = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_PLANE,
        a: BoidsVec3::default(),
        b: BoidsVec3 {
            x: 0.0,
            y: 3.0,
            z: 0.0,
        },
        radius: 0.0,
        ..boids_default_obstacle_def()
    };
    let mut o = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &bad_obstacle, &mut o) },
        BoidsResult::InvalidArgument
    );
    bad_obstacle.shape = 7;
    assert_eq!(
        unsafe { boids_obstacle_add(w, &bad_obstacle, &mut o) },
        BoidsResult::InvalidArgument
    );
    let mut spawn = boids_default_spawn_def();
    spawn.min_speed = 10.0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, 5, &spawn, &mut first) },
        BoidsResult::InvalidArgument
    );
    // Huge counts: refused, nothing allocated.
    let spawn = boids_default_spawn_def();
    assert_eq!(
        unsafe { boids_flock_spawn(f, u32::MAX, &spawn, &mut first) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("at most"), "{}", msg());
    assert_eq!(
        unsafe { boids_flock_resize(f, u32::MAX - 1, &spawn) },
        BoidsResult::InvalidArgument
    );
    let long = CString::new("x".repeat(300)).unwrap();
    let mut g = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create_preset(w, c"fish-tank".as_ptr(), long.as_ptr(), &mut g) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(
        unsafe { boids_flock_create_preset(w, c"no-such".as_ptr(), c"x".as_ptr(), &mut g) },
        BoidsResult::NotFound
    );
    assert_eq!(
        unsafe { boids_flock_find(w, c"nobody".as_ptr(), &mut g) },
        BoidsResult::NotFound
    );
    assert_eq!(hash(w), before, "nothing changed");
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn defs_not_from_their_default_function_are_refused() {
    let mut wdef = boids_default_world_def();
    wdef.internal_cookie = 0;
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_create(&wdef, &mut w) },
        BoidsResult::InvalidDef
    );
    let zeroed: BoidsWorldDef = BoidsWorldDef {
        seed: 0,
        threads: 0,
        internal_cookie: 0,
        worker_count: 0,
        enqueue_task: None,
        finish_task: None,
        user_context: std::ptr::null_mut(),
    };
    assert_eq!(
        unsafe { boids_world_create(&zeroed, &mut w) },
        BoidsResult::InvalidDef
    );
    let mut wdef = boids_default_world_def();
    wdef.threads = 5000;
    assert_eq!(
        unsafe { boids_world_create(&wdef, &mut w) },
        BoidsResult::InvalidArgument
    );
    let w = world(1);
    let mut fdef = boids_default_flock_def();
    fdef.name = c"f".as_ptr();
    fdef.internal_cookie ^= 1;
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &fdef, &mut f) },
        BoidsResult::InvalidDef
    );
    let f = flock(w, "f", 1);
    let mut spawn = boids_default_spawn_def();
    spawn.internal_cookie = 1;
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, 1, &spawn, &mut first) },
        BoidsResult::InvalidDef
    );
    assert!(msg().contains("boids_default_spawn_def"));
    let mut fdef = boids_default_flock_def();
    fdef.name = c"f".as_ptr();
    assert_eq!(
        unsafe { boids_flock_create(w, &fdef, &mut f.clone()) },
        BoidsResult::InvalidArgument,
        "duplicate name"
    );
    fdef.name = c"".as_ptr();
    assert_eq!(
        unsafe { boids_flock_create(w, &fdef, &mut f.clone()) },
        BoidsResult::InvalidArgument,
        "empty name"
    );
    let bad_utf8 = [0xffu8, 0xfe, 0];
    fdef.name = bad_utf8.as_ptr().cast();
    assert_eq!(
        unsafe { boids_flock_create(w, &fdef, &mut f.clone()) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("UTF-8"));
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

#[test]
fn buffers_too_small_report_the_size_needed() {
    let w = world(1);
    let f = flock(w, "f", 40);
    let mut n = 123usize;
    // A size query: NULL with capacity 0.
    assert_eq!(
        unsafe { boids_flock_read_positions(f, null_mut(), 0, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(n, 40);
    let mut small = [BoidsVec3::default(); 39];
    n = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, small.as_mut_ptr(), 39, &mut n) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(n, 40);
    assert!(
        small.iter().all(|v| *v == BoidsVec3::default()),
        "nothing written"
    );
    let mut m = vec![BoidsMat4::default(); 10];
    assert_eq!(
        unsafe { boids_flock_read_matrices(f, 1.0, m.as_mut_ptr(), 10, &mut n) },
        BoidsResult::BufferTooSmall
    );
    let mut m = vec![BoidsMat4::default(); 40];
    assert_eq!(
        unsafe { boids_flock_read_matrices(f, f32::NAN, m.as_mut_ptr(), 40, &mut n) },
        BoidsResult::InvalidArgument
    );
    assert_eq!(
        unsafe { boids_flock_read_matrices(f, 1.0, m.as_mut_ptr(), 40, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(m[0].m[15], 1.0);
    let mut ids = vec![0u32; 64];
    assert_eq!(
        unsafe { boids_flock_read_ids(f, ids.as_mut_ptr(), 64, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(n, 40);
    assert_eq!(&ids[..3], &[0, 1, 2]);
    // Writes must cover every boid.
    let p = vec![BoidsVec3::default(); 39];
    assert_eq!(
        unsafe { boids_flock_write_positions(f, p.as_ptr(), 39) },
        BoidsResult::InvalidArgument
    );
    // An empty flock reads into a zero-size buffer fine.
    let e = flock(w, "empty", 0);
    assert_eq!(
        unsafe { boids_flock_read_positions(e, null_mut(), 0, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(n, 0);
    assert_eq!(
        unsafe { boids_flock_write_positions(e, null(), 0) },
        BoidsResult::Ok
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}
