//! Random sequences of API calls (create, spawn, add, remove, step, set params, destroy) through
//! the C ABI, against a simple model of what should exist: which flocks are alive, how many
//! boids each has, which ids. After every call the library must agree with the model, and no
//! position or velocity may ever be NaN.
//!
//! SAFETY, for every `unsafe` block: pointers are live locals of the right type and length.
#![expect(unsafe_code, reason = "calls the C ABI as C does")]

use boids_ffi::*;
use proptest::prelude::*;
use std::ffi::CString;

#[derive(Clone, Debug)]
enum Op {
    Create(u8),
    Destroy(u8),
    Spawn(u8, u16),
    Add(u8, u8),
    Remove(u8, u16),
    RemoveUnknown(u8),
    Step(u8),
    SetParams(u8, f32, f32, bool),
    Resize(u8, u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..4).prop_map(Op::Create),
        (0u8..4).prop_map(Op::Destroy),
        (0u8..4, 0u16..300).prop_map(|(f, n)| Op::Spawn(f, n)),
        (0u8..4, 0u8..20).prop_map(|(f, n)| Op::Add(f, n)),
        (0u8..4, any::<u16>()).prop_map(|(f, k)| Op::Remove(f, k)),
        (0u8..4).prop_map(Op::RemoveUnknown),
        (1u8..4).prop_map(Op::Step),
        (0u8..4, -2.0f32..4.0, -1.0f32..8.0, any::<bool>())
            .prop_map(|(f, r, s, w)| Op::SetParams(f, r, s, w)),
        (0u8..4, 0u16..400).prop_map(|(f, n)| Op::Resize(f, n)),
    ]
}

/// What should exist in one flock slot.
#[derive(Default, Clone)]
struct Model {
    id: Option<BoidsFlockId>,
    ids: Vec<u32>,
    next_id: u32,
    dead: Vec<BoidsFlockId>,
}

fn ids_of(f: BoidsFlockId) -> Vec<u32> {
    let mut n = 0usize;
    let r = unsafe { boids_flock_read_ids(f, std::ptr::null_mut(), 0, &mut n) };
    assert!(r == BoidsResult::Ok || r == BoidsResult::BufferTooSmall);
    let mut v = vec![0u32; n];
    assert_eq!(
        unsafe { boids_flock_read_ids(f, v.as_mut_ptr(), n, &mut n) },
        BoidsResult::Ok
    );
    v
}

fn finite(f: BoidsFlockId, n: usize) {
    let mut p = vec![BoidsVec3::default(); n];
    let mut v = vec![BoidsVec3::default(); n];
    let mut k = 0;
    assert_eq!(
        unsafe { boids_flock_read_positions(f, p.as_mut_ptr(), n, &mut k) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_read_velocities(f, v.as_mut_ptr(), n, &mut k) },
        BoidsResult::Ok
    );
    for x in p.iter().chain(&v) {
        assert!(
            x.x.is_finite() && x.y.is_finite() && x.z.is_finite(),
            "NaN or Inf in the state"
        );
    }
}

fn run(ops: Vec<Op>) {
    let mut d = boids_default_world_def();
    d.threads = 2;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, BoidsResult::Ok);
    let mut model = vec![Model::default(); 4];
    let spawn = boids_default_spawn_def();
    for op in ops {
        match op {
            Op::Create(k) => {
                let m = &mut model[k as usize];
                let name = CString::new(format!("flock{k}")).unwrap();
                let mut def = boids_default_flock_def();
                def.name = name.as_ptr();
                let mut id = BoidsFlockId::default();
                let r = unsafe { boids_flock_create(w, &def, &mut id) };
                if m.id.is_some() {
                    assert_eq!(r, BoidsResult::InvalidArgument, "duplicate name refused");
                } else {
                    assert_eq!(r, BoidsResult::Ok);
                    *m = Model {
                        id: Some(id),
                        dead: m.dead.clone(),
                        ..Model::default()
                    };
                }
            }
            Op::Destroy(k) => {
                let m = &mut model[k as usize];
                if let Some(id) = m.id.take() {
                    assert_eq!(boids_flock_destroy(id), BoidsResult::Ok);
                    m.dead.push(id);
                    m.ids.clear();
                }
            }
            Op::Spawn(k, n) => {
                let m = &mut model[k as usize];
                if let Some(id) = m.id {
                    let mut first = 0;
                    assert_eq!(
                        unsafe { boids_flock_spawn(id, u32::from(n), &spawn, &mut first) },
                        BoidsResult::Ok
                    );
                    assert_eq!(first, m.next_id);
                    m.ids.extend(m.next_id..m.next_id + u32::from(n));
                    m.next_id += u32::from(n);
                }
            }
            Op::Add(k, n) => {
                let m = &mut model[k as usize];
                if let Some(id) = m.id {
                    let p = vec![
                        BoidsVec3 {
                            x: 1.0,
                            y: 2.0,
                            z: 3.0
                        };
                        n as usize
                    ];
                    let mut first = 0;
                    let r = unsafe {
                        boids_flock_add_boids(id, p.as_ptr(), p.as_ptr(), n as usize, &mut first)
                    };
                    assert_eq!(r, BoidsResult::Ok);
                    m.ids.extend(m.next_id..m.next_id + u32::from(n));
                    m.next_id += u32::from(n);
                }
            }
            Op::Remove(k, pick) => {
                let m = &mut model[k as usize];
                if let (Some(id), false) = (m.id, m.ids.is_empty()) {
                    let victim = m.ids[pick as usize % m.ids.len()];
                    let mut n = 0usize;
                    assert_eq!(
                        unsafe { boids_flock_remove_boids(id, &victim, 1, &mut n) },
                        BoidsResult::Ok
                    );
                    assert_eq!(n, 1);
                    m.ids.retain(|&x| x != victim);
                }
            }
            Op::RemoveUnknown(k) => {
                let m = &model[k as usize];
                if let Some(id) = m.id {
                    let mut n = 0usize;
                    let unknown = m.next_id + 5;
                    assert_eq!(
                        unsafe { boids_flock_remove_boids(id, &unknown, 1, &mut n) },
                        BoidsResult::InvalidArgument
                    );
                }
            }
            Op::Step(n) => {
                for _ in 0..n {
                    assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
                }
            }
            Op::SetParams(k, radius, max_speed, wrap) => {
                let m = &model[k as usize];
                if let Some(id) = m.id {
                    let mut p = boids_default_flock_params();
                    p.perception_radius = radius;
                    p.max_speed = max_speed;
                    if wrap {
                        p.bounds.kind = BOIDS_BOUNDS_WRAP;
                    }
                    let valid = radius >= 0.0 && max_speed >= p.min_speed;
                    let r = unsafe { boids_flock_set_params(id, &p) };
                    assert_eq!(
                        r == BoidsResult::Ok,
                        valid,
                        "radius {radius}, max speed {max_speed}: {r:?}"
                    );
                }
            }
            Op::Resize(k, n) => {
                let m = &mut model[k as usize];
                if let Some(id) = m.id {
                    assert_eq!(
                        unsafe { boids_flock_resize(id, u32::from(n), &spawn) },
                        BoidsResult::Ok
                    );
                    let n = n as usize;
                    if n < m.ids.len() {
                        m.ids.truncate(n);
                    } else {
                        let more = (n - m.ids.len()) as u32;
                        m.ids.extend(m.next_id..m.next_id + more);
                        m.next_id += more;
                    }
                }
            }
        }
        // The library agrees with the model after every call.
        for m in &model {
            for &dead in &m.dead {
                assert_eq!(
                    boids_flock_is_valid(dead),
                    0,
                    "destroyed flocks stay invalid"
                );
            }
            if let Some(id) = m.id {
                assert_eq!(boids_flock_is_valid(id), 1);
                assert_eq!(
                    ids_of(id),
                    m.ids,
                    "ids in ascending order, as the model says"
                );
                finite(id, m.ids.len());
            }
        }
    }
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn api_sequences_agree_with_the_model(ops in proptest::collection::vec(op(), 1..40)) {
        run(ops);
    }
}
