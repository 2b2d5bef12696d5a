//! The hostile matrix's fixture: a world with a flock and an obstacle, ids that are stale,
//! forged or destroyed, a world busy stepping in another thread, and the checks rows share.
//! (SAFETY: see main.rs.)

use boids_ffi::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

pub(crate) use BoidsResult::{
    BufferTooSmall, Busy, InvalidArgument, InvalidDef, InvalidId, NotFound, NullPointer, Ok,
};

pub(crate) struct Fx {
    pub(crate) w: BoidsWorldId,
    pub(crate) f: BoidsFlockId,
    pub(crate) o: BoidsObstacleId,
    pub(crate) dead_w: BoidsWorldId,
    pub(crate) dead_f: BoidsFlockId,
    pub(crate) dead_o: BoidsObstacleId,
}

pub(crate) fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

pub(crate) fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(unsafe { boids_world_state_hash(w, &mut h) }, Ok);
    h
}

pub(crate) fn new_world(threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, Ok);
    w
}

pub(crate) fn new_flock(w: BoidsWorldId, name: &CStr, n: u32) -> BoidsFlockId {
    let mut d = boids_default_flock_def();
    d.name = name.as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &d, &mut f) },
        Ok,
        "{}",
        msg()
    );
    let s = boids_default_spawn_def();
    let mut first = 0;
    assert_eq!(unsafe { boids_flock_spawn(f, n, &s, &mut first) }, Ok);
    f
}

pub(crate) fn sphere() -> BoidsObstacleDef {
    BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3 {
            x: 20.0,
            y: 0.0,
            z: 0.0,
        },
        b: BoidsVec3::default(),
        radius: 1.0,
        ..boids_default_obstacle_def()
    }
}

pub(crate) fn fixture() -> Fx {
    let w = new_world(1);
    let f = new_flock(w, c"f", 64);
    let mut o = BoidsObstacleId::default();
    assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut o) }, Ok);
    let g = new_flock(w, c"gone", 3);
    assert_eq!(boids_flock_destroy(g), Ok);
    let mut dead_o = BoidsObstacleId::default();
    assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut dead_o) }, Ok);
    assert_eq!(boids_obstacle_remove(dead_o), Ok);
    let dead_w = new_world(1);
    assert_eq!(boids_world_destroy(dead_w), Ok);
    Fx {
        w,
        f,
        o,
        dead_w,
        dead_f: g,
        dead_o,
    }
}

/// Runs `call`, expects `code`, and checks the world did not change.
pub(crate) fn refused(fx: &Fx, case: &str, code: BoidsResult, call: impl FnOnce() -> BoidsResult) {
    let before = hash(fx.w);
    let got = call();
    assert_eq!(got, code, "{case}: {}", msg());
    assert!(!msg().is_empty(), "{case}: a message");
    assert_eq!(hash(fx.w), before, "{case}: state changed");
}

/// Every kind of bad flock id.
pub(crate) fn bad_flocks(fx: &Fx) -> Vec<(&'static str, BoidsFlockId)> {
    vec![
        ("null flock", BoidsFlockId::default()),
        (
            "forged flock",
            BoidsFlockId {
                world: fx.w,
                index: 999,
                generation: 1,
            },
        ),
        (
            "wrong generation",
            BoidsFlockId {
                generation: fx.f.generation + 7,
                ..fx.f
            },
        ),
        ("destroyed flock", fx.dead_f),
        (
            "flock of a destroyed world",
            BoidsFlockId {
                world: fx.dead_w,
                ..fx.f
            },
        ),
    ]
}

pub(crate) fn bad_worlds(fx: &Fx) -> Vec<(&'static str, BoidsWorldId)> {
    vec![
        ("null world", BoidsWorldId::default()),
        (
            "forged world",
            BoidsWorldId {
                index: 60_000,
                generation: 1,
            },
        ),
        (
            "wrong generation",
            BoidsWorldId {
                generation: fx.w.generation + 9,
                ..fx.w
            },
        ),
        ("destroyed world", fx.dead_w),
    ]
}

pub(crate) fn bad_obstacles(fx: &Fx) -> Vec<(&'static str, BoidsObstacleId)> {
    vec![
        ("null obstacle", BoidsObstacleId::default()),
        (
            "forged obstacle",
            BoidsObstacleId {
                world: fx.w,
                index: 77,
                generation: 1,
            },
        ),
        ("removed obstacle", fx.dead_o),
        (
            "obstacle of a destroyed world",
            BoidsObstacleId {
                world: fx.dead_w,
                ..fx.o
            },
        ),
    ]
}

/// Flock ids: every bad one gives INVALID_ID, the world unchanged.
pub(crate) fn flock_ids(fx: &Fx, mut call: impl FnMut(BoidsFlockId) -> BoidsResult) {
    for (case, id) in bad_flocks(fx) {
        refused(fx, case, InvalidId, || call(id));
    }
}

pub(crate) fn world_ids(fx: &Fx, mut call: impl FnMut(BoidsWorldId) -> BoidsResult) {
    for (case, id) in bad_worlds(fx) {
        refused(fx, case, InvalidId, || call(id));
    }
}

/// A world stepping in another thread for the whole test binary: calls on it must get BUSY.
pub(crate) struct BusyWorld {
    pub(crate) w: BoidsWorldId,
    pub(crate) f: BoidsFlockId,
    pub(crate) o: BoidsObstacleId,
}

pub(crate) fn busy_world() -> &'static BusyWorld {
    static B: OnceLock<BusyWorld> = OnceLock::new();
    B.get_or_init(|| {
        let w = new_world(1);
        let f = new_flock(w, c"heavy", 150_000);
        let mut o = BoidsObstacleId::default();
        assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut o) }, Ok);
        let started = Arc::new(AtomicBool::new(false));
        let s = started.clone();
        std::thread::spawn(move || {
            loop {
                s.store(true, Ordering::SeqCst);
                let _ = boids_world_step(w, 0.001);
            }
        });
        while !started.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        BusyWorld { w, f, o }
    })
}

/// While the world steps in another thread, `call` is refused with BUSY (retried: the stepping
/// thread briefly releases the world between steps).
pub(crate) fn busy(case: &str, mut call: impl FnMut(&BusyWorld) -> BoidsResult) {
    let b = busy_world();
    for _ in 0..10_000 {
        let mut h = 0;
        if unsafe { boids_world_state_hash(b.w, &mut h) } != Busy {
            std::thread::yield_now();
            continue;
        }
        if call(b) == Busy {
            assert!(msg().contains("another thread"), "{case}: {}", msg());
            return;
        }
    }
    panic!("{case}: never refused with BUSY while the world was stepping");
}

/// A host job system that runs every task at once, on the calling thread.
pub(crate) unsafe extern "C" fn inline_enqueue(
    task: BoidsTaskFn,
    items: u32,
    _min: u32,
    task_context: *mut std::ffi::c_void,
    _user: *mut std::ffi::c_void,
) -> *mut std::ffi::c_void {
    unsafe { task(0, items, task_context) };
    null_mut()
}

/// Never called: `inline_enqueue` returns no handle.
pub(crate) unsafe extern "C" fn no_finish(
    _task: *mut std::ffi::c_void,
    _user: *mut std::ffi::c_void,
) {
    unreachable!("no handle was given out")
}

pub(crate) fn cstr(s: &str) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.push(0);
    v
}

pub(crate) type Row = (&'static str, fn(&Fx));

pub(crate) fn v3(x: f32, y: f32, z: f32) -> BoidsVec3 {
    BoidsVec3 { x, y, z }
}

pub(crate) fn boids_flock_clear_leader_call(f: BoidsFlockId) -> BoidsResult {
    boids_flock_clear_leader(f)
}

pub(crate) type ParamEdit = (&'static str, fn(&mut BoidsFlockParams));

pub(crate) fn bad_params() -> Vec<ParamEdit> {
    vec![
        ("radius NaN", |p| p.perception_radius = f32::NAN),
        ("radius negative", |p| p.perception_radius = -1.0),
        ("radius absurd", |p| p.perception_radius = 1e20),
        ("fov 361", |p| p.fov_half_angle_deg = 361.0),
        ("weight Inf", |p| p.weight_alignment = f32::INFINITY),
        ("weight absurd", |p| p.weight_wander = -1e12),
        ("min over max", |p| p.min_speed = 99.0),
        ("max speed NaN", |p| p.max_speed = f32::NAN),
        ("smoothing 2", |p| p.velocity_smoothing = 2.0),
        ("turn rate negative", |p| p.max_turn_rate = -1.0),
        ("separation mode 7", |p| p.separation_mode = 7),
        ("alignment mode -1", |p| p.alignment_mode = -1),
        ("combine 3", |p| p.combine = 3),
        ("integrator 4", |p| p.integrator = 4),
        ("plane 3", |p| p.plane = 3),
        ("index 4", |p| p.index = 4),
        ("obstacle mode 3", |p| p.obstacle_avoidance = 3),
        ("has_target 5", |p| p.has_target = 5),
        ("target NaN", |p| {
            p.has_target = 1;
            p.target_point.x = f32::NAN;
        }),
        ("rule probability 1.5", |p| p.rule_probability = 1.5),
        ("speed change probability NaN", |p| {
            p.speed_change_probability = f32::NAN
        }),
        ("relocation flag 3", |p| p.has_target_relocation = 3),
        ("relocation min above max", |p| {
            p.has_target_relocation = 1;
            p.target_relocation_min = v3(1.0, 1.0, 1.0);
        }),
        ("smooth time negative", |p| p.cohesion_smooth_time = -0.5),
        ("fallback flag -1", |p| p.fallback_to_nearest = -1),
        ("bounds kind 6", |p| p.bounds.kind = 6),
        ("update every 0", |p| p.update_every = 0),
        ("update every 5000", |p| p.update_every = 5000),
        ("sleep distance NaN", |p| p.sleep_distance = f32::NAN),
        ("wander radius negative", |p| p.wander_radius = -1.0),
        ("arrival radius Inf", |p| p.arrival_radius = f32::INFINITY),
        ("path weight NaN", |p| p.weight_path = f32::NAN),
    ]
}

/// A tetrahedron's vertices and indices.
pub(crate) fn tetra_vertices() -> [BoidsVec3; 4] {
    [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ]
}
pub(crate) const TETRA: [u32; 12] = [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3];

/// A tetrahedron in world `w`.
pub(crate) fn tetra(w: BoidsWorldId) -> BoidsMeshId {
    let mut m = BoidsMeshId::default();
    let v = tetra_vertices();
    assert_eq!(
        unsafe { boids_mesh_create(w, v.as_ptr(), 4, TETRA.as_ptr(), 12, &mut m) },
        Ok,
        "{}",
        msg()
    );
    m
}

impl Fx {
    /// A live world other than `w` (for ids of another world).
    pub(crate) fn dead_w_alive(&self) -> BoidsWorldId {
        new_world(1)
    }
}

pub(crate) fn bad_obstacle_defs() -> Vec<BoidsObstacleDef> {
    let s = sphere();
    vec![
        BoidsObstacleDef { shape: 7, ..s },
        BoidsObstacleDef { shape: -1, ..s },
        // A placement without a mesh.
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_MESH,
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_HEIGHTFIELD,
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_ORIENTED_BOX,
            b: v3(1.0, -1.0, 1.0),
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_ORIENTED_BOX,
            b: v3(1.0, 1.0, 1.0),
            rotation: BoidsQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 0.0,
            },
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_CAPSULE,
            b: v3(f32::NAN, 0.0, 0.0),
            ..s
        },
        BoidsObstacleDef { radius: 0.0, ..s },
        BoidsObstacleDef { radius: -1.0, ..s },
        BoidsObstacleDef {
            radius: f32::NAN,
            ..s
        },
        BoidsObstacleDef {
            a: v3(f32::INFINITY, 0.0, 0.0),
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_BOX,
            a: v3(1.0, 1.0, 1.0),
            b: v3(0.0, 0.0, 0.0),
            radius: 0.0,
            ..boids_default_obstacle_def()
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_PLANE,
            a: v3(0.0, 0.0, 0.0),
            b: v3(0.0, 0.0, 0.0),
            radius: 0.0,
            ..boids_default_obstacle_def()
        },
    ]
}

/// A bulk read: NULL buffer with capacity, NULL count, too-small buffer (count reports the
/// need), zero-size size query, bad ids, BUSY. `f32` storage is big enough for every element
/// type (read functions are given element capacities).
pub(crate) fn identity() -> BoidsMat4 {
    let mut t = BoidsMat4::default();
    for k in [0, 5, 10, 15] {
        t.m[k] = 1.0;
    }
    t
}

pub(crate) fn reads(fx: &Fx, read: fn(BoidsFlockId, &mut [f32], *mut usize) -> BoidsResult) {
    let mut n = 0usize;
    let mut big = vec![0.0f32; 64 * 16];
    let mut small = vec![0.0f32; 16];
    refused(fx, "NULL count", NullPointer, || {
        read(fx.f, &mut big, null_mut())
    });
    refused(fx, "too small", BufferTooSmall, || {
        read(fx.f, &mut small, &mut n)
    });
    assert_eq!(n, 64, "the size needed");
    refused(fx, "zero-size query", BufferTooSmall, || {
        read(fx.f, &mut [], &mut n)
    });
    assert_eq!(n, 64);
    assert_eq!(read(fx.f, &mut big, &mut n), Ok);
    flock_ids(fx, |f| read(f, &mut big, &mut n));
    busy("read", |b| {
        read(b.f, &mut vec![0.0f32; 150_000 * 16], &mut n)
    });
}

pub(crate) fn writes(
    fx: &Fx,
    write: unsafe fn(BoidsFlockId, *const BoidsVec3, usize) -> BoidsResult,
) {
    let good = vec![v3(0.5, 0.5, 0.5); 64];
    refused(fx, "NULL data", NullPointer, || unsafe {
        write(fx.f, null(), 64)
    });
    for count in [0usize, 63, 65, usize::MAX] {
        refused(fx, "wrong count", InvalidArgument, || unsafe {
            write(fx.f, good.as_ptr(), count)
        });
    }
    let mut bad = good.clone();
    bad[40] = v3(0.0, f32::NAN, 0.0);
    refused(fx, "NaN", InvalidArgument, || unsafe {
        write(fx.f, bad.as_ptr(), 64)
    });
    bad[40] = v3(2e9, 0.0, 0.0);
    refused(fx, "absurd", InvalidArgument, || unsafe {
        write(fx.f, bad.as_ptr(), 64)
    });
    flock_ids(fx, |f| unsafe { write(f, good.as_ptr(), 64) });
    busy("write", |b| unsafe { write(b.f, null(), 0) });
}
