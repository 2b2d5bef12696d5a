//! The fuzz targets, as plain functions of the fuzzer's bytes: `fuzz/` runs them under
//! cargo-fuzz (libFuzzer, coverage-guided), and `tests/corpus.rs` replays the saved corpus in
//! every test run. A target panics only on a defect:
//!
//! - a panic inside the engine, or `BOIDS_RESULT_PANIC` from the C ABI;
//! - a state that is not finite or leaves `BOIDS_MAX_MAGNITUDE`;
//! - a refused call that changed the state;
//! - a value the API returned that it refuses when passed back, or that reads back changed;
//! - a world that does not save and load back to the same state.
#![expect(
    unsafe_code,
    reason = "the C ABI targets call the library exactly as C does, with pointers to locals"
)]

use arbitrary::Unstructured;
use boids_ffi::*;
use boids_sim::Extremes;
use boids_sim::Scene;
use std::ffi::CStr;

/// Most boids a fuzz input may create: more is legal, only slower.
const MAX_BOIDS: usize = 2000;

fn last_error() -> String {
    // SAFETY: the library returns a valid NUL-terminated string, never NULL.
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// Every position and velocity of every flock of `world` is finite and inside the limit.
fn check_sim_world(world: &boids_sim::World) {
    for id in world.flock_ids() {
        let f = world.flock(id).expect("listed");
        for v in f.positions().iter().chain(f.velocities()) {
            assert!(
                v.is_finite() && v.abs().largest() <= BOIDS_MAX_MAGNITUDE,
                "flock '{}' left the domain: {v}",
                f.name()
            );
        }
    }
}

/// Scenario files: parse any text; a scene that builds steps, stays in the domain, and writes
/// itself back as a file that parses to the same scene.
pub fn scenario(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scene) = Scene::from_toml(text, "fuzz.toml") else {
        return;
    };
    let total: usize = scene
        .flock
        .iter()
        .map(|f| f.count.saturating_add(f.boids.len()))
        .fold(0, usize::saturating_add);
    if total > MAX_BOIDS {
        return;
    }
    let Ok(mut world) = scene.build() else {
        return;
    };
    for _ in 0..3 {
        if world.step(scene.dt).is_err() {
            break;
        }
    }
    check_sim_world(&world);
    let bytes = world.save();
    let loaded = boids_sim::World::load(&bytes, boids_sim::WorldConfig::default())
        .unwrap_or_else(|e| panic!("a saved world must load: {e}"));
    assert_eq!(
        loaded.state_hash(),
        world.state_hash(),
        "the loaded world is the saved one"
    );
    assert!(loaded.save() == bytes, "save(load(b)) == b");
    let file = scene.to_toml().expect("an accepted scene serializes");
    let again = Scene::from_toml(&file, "again.toml").expect("a scene's own file parses");
    assert_eq!(again, scene, "a scene's file reads back as the same scene");
}

/// A float: often one of the values that break code, else any bit pattern.
fn float(u: &mut Unstructured) -> f32 {
    const EDGES: [f32; 14] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        5.0,
        1e9,
        -1e9,
        1.0000001e9,
        1e-30,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
    ];
    match u.int_in_range(0u8..=3).unwrap_or(0) {
        0 => f32::from_bits(u.arbitrary().unwrap_or(0)),
        1 => u.int_in_range(-100i32..=100).unwrap_or(0) as f32 * 0.25,
        _ => *u.choose(&EDGES).unwrap_or(&0.0),
    }
}

fn vec3(u: &mut Unstructured) -> BoidsVec3 {
    BoidsVec3 {
        x: float(u),
        y: float(u),
        z: float(u),
    }
}

/// An integer field: mostly small (valid enum values and flags), sometimes anything.
fn small(u: &mut Unstructured) -> i32 {
    if u.ratio(1u8, 8).unwrap_or(false) {
        u.arbitrary().unwrap_or(0)
    } else {
        u.int_in_range(-1i32..=6).unwrap_or(0)
    }
}

/// A `BoidsFlockParams` that starts from the defaults and changes some fields.
fn flock_params(u: &mut Unstructured) -> BoidsFlockParams {
    let mut c = boids_default_flock_params();
    let edits = u.int_in_range(0u8..=12).unwrap_or(0);
    for _ in 0..edits {
        match u.int_in_range(0u8..=31).unwrap_or(0) {
            0 => c.perception_radius = float(u),
            1 => c.fov_half_angle_deg = float(u),
            2 => c.separation_radius = float(u),
            3 => {
                c.max_neighbours = if u.ratio(1u8, 4).unwrap_or(false) {
                    u.arbitrary().unwrap_or(0)
                } else {
                    u.int_in_range(0u32..=1100).unwrap_or(0)
                }
            }
            4 => c.weight_separation = float(u),
            5 => c.weight_cohesion = float(u),
            6 => c.weight_target = float(u),
            7 => c.weight_obstacles = float(u),
            8 => c.separation_mode = small(u),
            9 => c.alignment_mode = small(u),
            10 => c.combine = small(u),
            11 => c.integrator = small(u),
            12 => (c.min_speed, c.max_speed) = (float(u), float(u)),
            13 => c.max_force = float(u),
            14 => c.velocity_smoothing = float(u),
            15 => c.bounds.kind = small(u),
            16 => (c.bounds.min, c.bounds.max) = (vec3(u), vec3(u)),
            17 => {
                (c.bounds.centre, c.bounds.radius, c.bounds.inner) = (vec3(u), float(u), float(u))
            }
            18 => c.bounds.distance = float(u),
            19 => c.plane = small(u),
            20 => (c.has_target, c.target_point) = (small(u), vec3(u)),
            21 => c.target_avoid_distance = float(u),
            22 => c.index = small(u),
            23 => c.obstacle_avoidance = small(u),
            24 => (c.look_ahead, c.boid_radius) = (float(u), float(u)),
            25 => (c.rule_probability, c.speed_change_probability) = (float(u), float(u)),
            26 => {
                c.has_target_relocation = small(u);
                c.target_relocation_probability = float(u);
                (c.target_relocation_min, c.target_relocation_max) = (vec3(u), vec3(u));
            }
            27 => c.cohesion_smooth_time = float(u),
            28 => {
                (c.wander_radius, c.wander_distance, c.wander_jitter) =
                    (float(u), float(u), float(u))
            }
            29 => c.update_every = u.arbitrary().unwrap_or(1),
            30 => c.sleep_distance = float(u),
            _ => c.reserved = u.arbitrary().unwrap_or(0),
        }
    }
    c
}

fn spawn_def(u: &mut Unstructured) -> BoidsSpawnDef {
    let mut s = boids_default_spawn_def();
    for _ in 0..u.int_in_range(0u8..=4).unwrap_or(0) {
        match u.int_in_range(0u8..=5).unwrap_or(0) {
            0 => s.shape = small(u),
            1 => (s.min, s.max) = (vec3(u), vec3(u)),
            2 => (s.centre, s.radius) = (vec3(u), float(u)),
            3 => (s.min_speed, s.max_speed) = (float(u), float(u)),
            4 => (s.has_direction, s.direction) = (small(u), vec3(u)),
            _ => s.internal_cookie = u.arbitrary().unwrap_or(0),
        }
    }
    s
}

fn obstacle_def(u: &mut Unstructured) -> BoidsObstacleDef {
    BoidsObstacleDef {
        shape: small(u),
        a: vec3(u),
        b: vec3(u),
        radius: float(u),
        ..boids_default_obstacle_def()
    }
}

fn hash(w: BoidsWorldId) -> Option<u64> {
    let mut h = 0;
    // SAFETY: a pointer to a local.
    (unsafe { boids_world_state_hash(w, &mut h) } == BoidsResult::Ok).then_some(h)
}

/// Reads every flock of `w`; each must be finite and inside the limit.
fn check_c_world(w: BoidsWorldId) {
    let mut ids = [BoidsFlockId::default(); 8];
    let mut n = 0;
    // SAFETY: a buffer of 8 locals and its true capacity.
    let r = unsafe { boids_world_list_flocks(w, ids.as_mut_ptr(), ids.len(), &mut n) };
    if r != BoidsResult::Ok {
        return;
    }
    for &f in &ids[..n] {
        let mut count = 0;
        // SAFETY: a pointer to a local.
        if unsafe { boids_flock_count(f, &mut count) } != BoidsResult::Ok {
            continue;
        }
        let mut p = vec![BoidsVec3::default(); count];
        let mut v = vec![BoidsVec3::default(); count];
        let mut k = 0;
        // SAFETY: buffers of `count` entries.
        unsafe {
            assert_eq!(
                boids_flock_read_positions(f, p.as_mut_ptr(), count, &mut k),
                BoidsResult::Ok
            );
            assert_eq!(
                boids_flock_read_velocities(f, v.as_mut_ptr(), count, &mut k),
                BoidsResult::Ok
            );
        }
        for q in p.iter().chain(&v) {
            for c in [q.x, q.y, q.z] {
                assert!(
                    c.is_finite() && c.abs() <= BOIDS_MAX_MAGNITUDE,
                    "left the domain: {q:?}"
                );
            }
        }
    }
}

/// C ABI params and defs: anything a C caller can put in a `BoidsFlockParams`, a spawn def and
/// an obstacle def. Accepted params read back bit for bit and are accepted again; the flock
/// steps inside the domain.
pub fn params(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut w = BoidsWorldId::default();
    // SAFETY: pointers to locals.
    assert_eq!(
        unsafe { boids_world_create(&boids_default_world_def(), &mut w) },
        BoidsResult::Ok
    );
    let c = flock_params(&mut u);
    let mut def = boids_default_flock_def();
    def.name = c"fuzz".as_ptr();
    def.params = c;
    let mut f = BoidsFlockId::default();
    // SAFETY: pointers to locals; the name is a literal.
    let r = unsafe { boids_flock_create(w, &def, &mut f) };
    assert_ne!(r, BoidsResult::Panic, "{}", last_error());
    if r == BoidsResult::Ok {
        let mut back = BoidsFlockParams::default();
        // SAFETY: pointers to locals.
        unsafe {
            assert_eq!(boids_flock_get_params(f, &mut back), BoidsResult::Ok);
            assert_eq!(
                format!("{back:?}"),
                format!("{c:?}"),
                "params read back changed"
            );
            assert_eq!(
                boids_flock_set_params(f, &back),
                BoidsResult::Ok,
                "{}",
                last_error()
            );
        }
        let s = spawn_def(&mut u);
        let n = u.int_in_range(0u32..=200).unwrap_or(0);
        let mut first = 0;
        // SAFETY: pointers to locals.
        let r = unsafe { boids_flock_spawn(f, n, &s, &mut first) };
        assert_ne!(r, BoidsResult::Panic, "{}", last_error());
        let o = obstacle_def(&mut u);
        let mut oid = BoidsObstacleId::default();
        // SAFETY: pointers to locals.
        let r = unsafe { boids_obstacle_add(w, &o, &mut oid) };
        assert_ne!(r, BoidsResult::Panic, "{}", last_error());
        for _ in 0..3 {
            let r = boids_world_step(w, 1.0 / 60.0);
            assert_eq!(r, BoidsResult::Ok, "{}", last_error());
        }
        check_c_world(w);
        save_and_load(w);
        // SAFETY: pointers to locals.
        unsafe {
            assert_eq!(boids_flock_get_params(f, &mut back), BoidsResult::Ok);
            assert_eq!(
                boids_flock_set_params(f, &back),
                BoidsResult::Ok,
                "{}",
                last_error()
            );
        }
    }
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Ids the sequence has seen, and forged ones.
#[derive(Default)]
struct Ids {
    worlds: Vec<BoidsWorldId>,
    flocks: Vec<BoidsFlockId>,
    obstacles: Vec<BoidsObstacleId>,
}

fn pick<T: Copy + Default>(u: &mut Unstructured, known: &[T], forge: impl Fn(u32, u32) -> T) -> T {
    if !known.is_empty() && !u.ratio(1u8, 10).unwrap_or(false) {
        return *u.choose(known).unwrap_or(&known[0]);
    }
    forge(
        u.int_in_range(0u32..=4).unwrap_or(0),
        u.int_in_range(0u32..=3).unwrap_or(0),
    )
}

/// Random sequences of C ABI calls, with live, stale and forged ids: no call panics, a refused
/// call changes no world's state, and every state stays finite and inside the limit.
///
/// With `BOIDS_FUZZ_TRACE` set, prints each call and its result, to triage a crash.
pub fn calls(data: &[u8]) {
    let trace = std::env::var_os("BOIDS_FUZZ_TRACE").is_some();
    let mut u = Unstructured::new(data);
    let mut ids = Ids::default();
    let mut boids_made = 0usize;
    for _ in 0..u.int_in_range(1u16..=64).unwrap_or(1) {
        if u.is_empty() {
            break;
        }
        let w = pick(&mut u, &ids.worlds, |i, g| BoidsWorldId {
            index: i,
            generation: g,
        });
        let f = pick(&mut u, &ids.flocks, |i, g| BoidsFlockId {
            world: w,
            index: i,
            generation: g,
        });
        let o = pick(&mut u, &ids.obstacles, |i, g| BoidsObstacleId {
            world: w,
            index: i,
            generation: g,
        });
        let before: Vec<Option<u64>> = ids.worlds.iter().map(|&w| hash(w)).collect();
        let op = u.int_in_range(0u8..=22).unwrap_or(0);
        // SAFETY (every call below): pointers to locals or to buffers of the length passed.
        let r = unsafe {
            match op {
                0 => {
                    let mut def = boids_default_world_def();
                    def.threads = u.int_in_range(0u32..=3).unwrap_or(0);
                    let mut nw = BoidsWorldId::default();
                    let r = boids_world_create(&def, &mut nw);
                    if r == BoidsResult::Ok && ids.worlds.len() < 3 {
                        ids.worlds.push(nw);
                    } else if r == BoidsResult::Ok {
                        boids_world_destroy(nw);
                    }
                    r
                }
                1 => boids_world_destroy(w),
                2 => {
                    let mut def = boids_default_flock_def();
                    let names = [c"a", c"b", c"c", c""];
                    def.name = u.choose(&names).unwrap_or(&c"a").as_ptr();
                    def.params = flock_params(&mut u);
                    let mut nf = BoidsFlockId::default();
                    let r = boids_flock_create(w, &def, &mut nf);
                    if r == BoidsResult::Ok {
                        ids.flocks.push(nf);
                    }
                    r
                }
                3 => {
                    let presets = [
                        c"fish-tank",
                        c"goal-swarm",
                        c"target-flock",
                        c"steering-obstacles",
                        c"flock-2d",
                        c"shark",
                        c"nope",
                    ];
                    let p = u.choose(&presets).unwrap_or(&c"nope");
                    let mut nf = BoidsFlockId::default();
                    let r = boids_flock_create_preset(w, p.as_ptr(), c"p".as_ptr(), &mut nf);
                    if r == BoidsResult::Ok {
                        ids.flocks.push(nf);
                        boids_made += 400;
                    }
                    r
                }
                4 => boids_flock_destroy(f),
                5 | 6 => {
                    let n = u.int_in_range(0u32..=300).unwrap_or(0);
                    if boids_made + n as usize > MAX_BOIDS {
                        continue;
                    }
                    boids_made += n as usize;
                    let s = spawn_def(&mut u);
                    let mut first = 0;
                    if op == 5 {
                        boids_flock_spawn(f, n, &s, &mut first)
                    } else {
                        boids_flock_resize(f, n, &s)
                    }
                }
                7 => {
                    let n = u.int_in_range(0usize..=8).unwrap_or(0);
                    boids_made += n;
                    let p: Vec<BoidsVec3> = (0..n).map(|_| vec3(&mut u)).collect();
                    let v: Vec<BoidsVec3> = (0..n).map(|_| vec3(&mut u)).collect();
                    let mut first = 0;
                    boids_flock_add_boids(f, p.as_ptr(), v.as_ptr(), n, &mut first)
                }
                8 => {
                    let list: Vec<u32> = (0..u.int_in_range(0usize..=4).unwrap_or(0))
                        .map(|_| u.int_in_range(0u32..=400).unwrap_or(0))
                        .collect();
                    let mut removed = 0;
                    boids_flock_remove_boids(f, list.as_ptr(), list.len(), &mut removed)
                }
                9 if u.ratio(1u8, 4).unwrap_or(false) => {
                    // Several steps in one begin (0 steps is refused), ended at once.
                    let n = u.int_in_range(0u32..=3).unwrap_or(0);
                    match boids_world_step_begin_n(w, float(&mut u), n) {
                        BoidsResult::Ok => boids_world_step_end(w),
                        r => r,
                    }
                }
                9 => boids_world_step(w, float(&mut u)),
                10 => boids_flock_set_params(f, &flock_params(&mut u)),
                11 => boids_flock_set_target(f, vec3(&mut u)),
                12 => boids_flock_set_bounds(f, &flock_params(&mut u).bounds),
                13 => {
                    boids_flock_set_leader(f, u.int_in_range(0u32..=50).unwrap_or(0), vec3(&mut u))
                }
                14 => boids_flock_clear_leader(f),
                15 => {
                    let pts: Vec<BoidsVec3> = (0..u.int_in_range(0usize..=4).unwrap_or(0))
                        .map(|_| vec3(&mut u))
                        .collect();
                    boids_flock_set_path(f, pts.as_ptr(), pts.len(), small(&mut u))
                }
                16 => {
                    let d = obstacle_def(&mut u);
                    let mut no = BoidsObstacleId::default();
                    let r = boids_obstacle_add(w, &d, &mut no);
                    if r == BoidsResult::Ok {
                        ids.obstacles.push(no);
                    }
                    r
                }
                17 => boids_obstacle_set(o, &obstacle_def(&mut u)),
                18 => boids_obstacle_remove(o),
                19 => {
                    let g = pick(&mut u, &ids.flocks, |i, g| BoidsFlockId {
                        world: w,
                        index: i,
                        generation: g,
                    });
                    boids_world_set_relation(w, f, g, small(&mut u), float(&mut u), float(&mut u))
                }
                20 => {
                    let cap = u.int_in_range(0usize..=40).unwrap_or(0);
                    let mut buf = vec![BoidsMat4::default(); cap];
                    let mut n = 0;
                    match u.int_in_range(0u8..=4).unwrap_or(0) {
                        0 => boids_flock_read_positions(f, buf.as_mut_ptr().cast(), cap, &mut n),
                        1 => boids_flock_read_velocities(f, buf.as_mut_ptr().cast(), cap, &mut n),
                        2 => boids_flock_read_ids(f, buf.as_mut_ptr().cast(), cap, &mut n),
                        3 => boids_flock_read_orientations(f, buf.as_mut_ptr().cast(), cap, &mut n),
                        _ => boids_flock_read_matrices(
                            f,
                            float(&mut u),
                            buf.as_mut_ptr(),
                            cap,
                            &mut n,
                        ),
                    }
                }
                21 => {
                    let n = u.int_in_range(0usize..=12).unwrap_or(0);
                    let v: Vec<BoidsVec3> = (0..n).map(|_| vec3(&mut u)).collect();
                    if u.arbitrary().unwrap_or(false) {
                        boids_flock_write_positions(f, v.as_ptr(), n)
                    } else {
                        boids_flock_write_velocities(f, v.as_ptr(), n)
                    }
                }
                _ => {
                    let (a, b) = (vec3(&mut u), vec3(&mut u));
                    match u.int_in_range(0u8..=2).unwrap_or(0) {
                        0 => boids_world_set_observer(w, &a),
                        1 => boids_flock_set_wake_region(f, &a, &b),
                        _ => boids_world_set_observer(w, std::ptr::null()),
                    }
                }
            }
        };
        if trace {
            eprintln!(
                "op {op:2} world {w:?} flock {f:?} obstacle {o:?} -> {r:?} {}",
                last_error()
            );
            for &w in &ids.worlds {
                eprintln!("    {w:?} hash {:?}", hash(w));
            }
        }
        assert_ne!(r, BoidsResult::Panic, "op {op}: {}", last_error());
        let refused = !matches!(r, BoidsResult::Ok | BoidsResult::BufferTooSmall);
        // Destroying changes what exists, not the state of the worlds that remain.
        if refused {
            for (k, &w) in ids.worlds.iter().enumerate() {
                assert_eq!(
                    hash(w),
                    before[k],
                    "op {op} was refused ({r:?}: {}) but changed a world",
                    last_error()
                );
            }
        }
        for &w in &ids.worlds {
            check_c_world(w);
        }
    }
    for w in ids.worlds {
        save_and_load(w);
        boids_world_destroy(w);
    }
}

/// Any state the API can reach saves, and loads back into a world with the same hash and the
/// same bytes.
fn save_and_load(w: BoidsWorldId) {
    let mut n = 0usize;
    // SAFETY: a size query, then a buffer of the size given; pointers to locals.
    unsafe {
        if boids_world_save(w, std::ptr::null_mut(), 0, &mut n) != BoidsResult::BufferTooSmall {
            return; // not a live world
        }
        let mut bytes = vec![0u8; n];
        assert_eq!(
            boids_world_save(w, bytes.as_mut_ptr(), n, &mut n),
            BoidsResult::Ok
        );
        let mut loaded = BoidsWorldId::default();
        let r = boids_world_load(&boids_default_world_def(), bytes.as_ptr(), n, &mut loaded);
        assert_eq!(
            r,
            BoidsResult::Ok,
            "a saved world must load: {}",
            last_error()
        );
        assert_eq!(hash(loaded), hash(w), "the loaded world is the saved one");
        let mut again = vec![0u8; n];
        assert_eq!(
            boids_world_save(loaded, again.as_mut_ptr(), n, &mut n),
            BoidsResult::Ok
        );
        assert!(again == bytes, "save(load(b)) == b");
        boids_world_destroy(loaded);
    }
}
