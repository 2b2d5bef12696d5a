//! The reproducers of the independent attack on the C ABI (issue 16), one test each, called the
//! way C calls them. Each failed before the fix; docs/reliability.md lists them.
//!
//! SAFETY, for every `unsafe` block in this file: each pointer passed points to a live local of
//! the right type and length; strings are NUL-terminated literals.
#![expect(unsafe_code, reason = "these tests call the C ABI exactly as C does")]

use boids_ffi::*;
use std::ffi::CStr;

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn world() -> BoidsWorldId {
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_create(&boids_default_world_def(), &mut w) },
        BoidsResult::Ok
    );
    w
}

fn flock_with(w: BoidsWorldId, p: BoidsFlockParams, n: u32) -> BoidsFlockId {
    let mut def = boids_default_flock_def();
    def.name = c"f".as_ptr();
    def.params = p;
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, n, &boids_default_spawn_def(), &mut first) },
        BoidsResult::Ok
    );
    f
}

fn get(f: BoidsFlockId) -> BoidsFlockParams {
    let mut p = BoidsFlockParams::default();
    assert_eq!(
        unsafe { boids_flock_get_params(f, &mut p) },
        BoidsResult::Ok
    );
    p
}

fn positions(f: BoidsFlockId, n: usize) -> Vec<BoidsVec3> {
    let mut buf = vec![BoidsVec3::default(); n];
    let mut count = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, buf.as_mut_ptr(), n, &mut count) },
        BoidsResult::Ok
    );
    buf
}

/// Attack 1: `max_neighbours = UINT32_MAX` with the k-d tree made a step allocate 34 GB and abort.
#[test]
fn an_unbounded_max_neighbours_is_refused_and_the_largest_allowed_steps() {
    let w = world();
    let mut p = boids_default_flock_params();
    p.index = BOIDS_INDEX_KD_TREE;
    p.max_neighbours = u32::MAX;
    let mut def = boids_default_flock_def();
    def.name = c"f".as_ptr();
    def.params = p;
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::InvalidArgument
    );
    assert!(
        msg().contains("max_neighbours") && msg().contains("1024"),
        "{}",
        msg()
    );
    p.max_neighbours = 1024;
    let f = flock_with(w, p, 300);
    for _ in 0..3 {
        assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    }
    assert_eq!(get(f).max_neighbours, 1024);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attack 3: Accepted parameters drove boids past the 1e9 input limit (x = 1.67e10), and read-back
/// positions were then refused by a write.
#[test]
fn the_state_stays_inside_the_limit_and_read_then_write_round_trips() {
    let w = world();
    let mut p = boids_default_flock_params();
    p.bounds.kind = BOIDS_BOUNDS_NONE;
    (p.min_speed, p.max_speed) = (1e9, 1e9);
    let f = flock_with(w, p, 20);
    let mut at_wall = false;
    let mut pos = Vec::new();
    for _ in 0..40 {
        assert_eq!(boids_world_step(w, 1.0), BoidsResult::Ok);
        pos = positions(f, 20);
        let coords: Vec<f32> = pos.iter().flat_map(|q| [q.x, q.y, q.z]).collect();
        assert!(
            coords.iter().all(|c| c.is_finite() && c.abs() <= 1e9),
            "{pos:?}"
        );
        at_wall |= coords.iter().any(|c| c.abs() == 1e9);
    }
    assert!(at_wall, "the boids reached the wall");
    assert_eq!(
        unsafe { boids_flock_write_positions(f, pos.as_ptr(), pos.len()) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attack 4: `set_leader` with offset FLT_MAX put the target at infinity, and then
/// `set_params(get_params())` was refused.
#[test]
fn a_leader_offset_beyond_the_limit_is_refused_and_the_target_stays_inside() {
    let w = world();
    let f = flock_with(w, boids_default_flock_params(), 10);
    let huge = BoidsVec3 {
        x: f32::MAX,
        y: 0.0,
        z: 0.0,
    };
    assert_eq!(
        boids_flock_set_leader(f, 0, huge),
        BoidsResult::InvalidArgument
    );
    assert!(
        msg().contains("leader offset") && msg().contains("1e9"),
        "{}",
        msg()
    );
    // The largest offset allowed, from a boid at the wall: the target is clamped to the limit.
    let wall = [BoidsVec3 {
        x: 1e9,
        y: 0.0,
        z: 0.0,
    }; 10];
    assert_eq!(
        unsafe { boids_flock_write_positions(f, wall.as_ptr(), 10) },
        BoidsResult::Ok
    );
    let far = BoidsVec3 {
        x: 1e9,
        y: 1e9,
        z: 1e9,
    };
    assert_eq!(boids_flock_set_leader(f, 0, far), BoidsResult::Ok);
    assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    let p = get(f);
    let t = p.target_point;
    assert!(
        [t.x, t.y, t.z]
            .iter()
            .all(|c| c.is_finite() && c.abs() <= 1e9),
        "{t:?}"
    );
    assert_eq!(
        unsafe { boids_flock_set_params(f, &p) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attack 6: Nonzero `reserved` was accepted; fields unused by the current kind read back as 0.
#[test]
fn reserved_must_be_zero_and_unused_fields_read_back_as_written() {
    let w = world();
    let f = flock_with(w, boids_default_flock_params(), 10);
    let mut p = get(f);
    p.reserved = 7;
    assert_eq!(
        unsafe { boids_flock_set_params(f, &p) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("reserved must be 0"), "{}", msg());
    let mut p = get(f);
    // Soft box: centre, radius and inner are unused; so are the target fields.
    p.bounds.centre = BoidsVec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    };
    (p.bounds.radius, p.bounds.inner) = (7.5, 0.25);
    p.target_point = BoidsVec3 {
        x: 4.0,
        y: 5.0,
        z: 6.0,
    };
    p.target_avoid_distance = 2.0;
    p.target_relocation_probability = 0.5;
    assert_eq!(
        unsafe { boids_flock_set_params(f, &p) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    assert_eq!(
        format!("{:?}", get(f)),
        format!("{p:?}"),
        "read back as written"
    );
    // Replacing only the bounds keeps the rest as written too.
    let mut b = p.bounds;
    b.kind = BOIDS_BOUNDS_SOFT_SPHERE;
    assert_eq!(unsafe { boids_flock_set_bounds(f, &b) }, BoidsResult::Ok);
    let q = get(f);
    assert_eq!(q.bounds.kind, BOIDS_BOUNDS_SOFT_SPHERE);
    assert_eq!(
        (q.bounds.min, q.bounds.distance),
        (p.bounds.min, p.bounds.distance)
    );
    assert_eq!(q.target_point, p.target_point);
    // Unused, but still a number: infinity is refused.
    p.bounds.radius = f32::INFINITY;
    assert_eq!(
        unsafe { boids_flock_set_params(f, &p) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("bounds.radius is not used"), "{}", msg());
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attacks 7 and 9: Limits named in messages, no 45-digit decimals, no Rust internals.
#[test]
fn messages_name_limits_and_no_internals() {
    let w = world();
    let f = flock_with(w, boids_default_flock_params(), 10);
    let mut p = get(f);
    p.bounds.kind = BOIDS_BOUNDS_SOFT_SPHERE;
    (p.bounds.radius, p.bounds.inner) = (0.0, 0.9);
    assert_eq!(
        unsafe { boids_flock_set_params(f, &p) },
        BoidsResult::InvalidArgument
    );
    let m = msg();
    assert!(m.contains("bounds.radius") && m.contains("(0, 1e9]"), "{m}");
    assert!(!m.contains("0000000"), "{m}");
    let sphere = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3::default(),
        b: BoidsVec3::default(),
        radius: 1e30,
        ..boids_default_obstacle_def()
    };
    let mut o = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &sphere, &mut o) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("1e9"), "{}", msg());
    let mut s = boids_default_spawn_def();
    s.max_speed = 1e30;
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_spawn(f, 1, &s, &mut first) },
        BoidsResult::InvalidArgument
    );
    assert!(
        msg().contains("max_speed") && msg().contains("1e9"),
        "{}",
        msg()
    );
    // A flock without a target: no "params.target is None".
    assert_eq!(
        boids_flock_set_target(f, BoidsVec3::default()),
        BoidsResult::InvalidArgument
    );
    assert!(
        !msg().contains("None") && msg().contains("has_target"),
        "{}",
        msg()
    );
    // A stale id: no "{ index: .., generation: .. }".
    assert_eq!(boids_flock_destroy(f), BoidsResult::Ok);
    assert_eq!(boids_flock_destroy(f), BoidsResult::InvalidId);
    assert!(!msg().contains('{'), "{}", msg());
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attack 11: A size query returns BUFFER_TOO_SMALL and sets the last error; a success leaves it.
#[test]
fn size_queries_and_the_last_error_behave_as_documented() {
    let w = world();
    let f = flock_with(w, boids_default_flock_params(), 10);
    let mut count = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, std::ptr::null_mut(), 0, &mut count) },
        BoidsResult::BufferTooSmall
    );
    assert_eq!(count, 10);
    let after_query = msg();
    assert!(after_query.contains("10"), "{after_query}");
    assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    assert_eq!(msg(), after_query, "a success leaves the last error");
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

/// Attack 12: `has_target = 1` with no point set put the target at the origin unnoticed.
#[test]
fn a_target_without_a_point_is_refused() {
    let w = world();
    let mut p = boids_default_flock_params();
    p.has_target = 1;
    let mut def = boids_default_flock_def();
    def.name = c"f".as_ptr();
    def.params = p;
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::InvalidArgument
    );
    assert!(msg().contains("target_point is not set"), "{}", msg());
    p.target_point = BoidsVec3::default();
    def.params = p;
    assert_eq!(
        unsafe { boids_flock_create(w, &def, &mut f) },
        BoidsResult::Ok,
        "an explicit origin is fine"
    );
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}
