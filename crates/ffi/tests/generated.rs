//! Every surface's enum constants come from the engine's one table per enum (the `c_enum!`
//! definitions, `boids_core::table`): this test generates
//!
//! - `crates/ffi/src/consts.rs`, the `BOIDS_*` constants cbindgen copies into include/boids.h;
//! - `bindings/unity/com.boids.flocking/Runtime/Boids/Enums.cs`, the C# enums and `BoidsConst`'s
//!   integers (the package's `Runtime/` is the one C# source);
//! - `bindings/cpp/boids_enums.hpp`, the C++ `enum class`es (valued by the C constants);
//! - `bindings/js/enums.mjs`, the JavaScript enum objects and their text names;
//!
//! and fails on any difference. `BOIDS_REGEN=1 cargo test -p boids-ffi --test generated` rewrites
//! them (then regenerate the header: `BOIDS_REGEN_HEADER=1 cargo test -p boids-ffi --test header`).
//!
//! SAFETY, for every `unsafe` block in this file: each pointer passed points to a live local of
//! the right type; strings are NUL-terminated literals.
#![expect(
    unsafe_code,
    reason = "the round-trip test calls the C ABI exactly as C does"
)]

use boids_sim::{
    AlignmentMode, BoundsKind, CEnum, Combine, GroundUp, IndexKind, Integrator, ObstacleAvoidance,
    ObstacleKind, PlaneLock, RelationKind, SeparationMode, SpawnKind,
};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One enum's table, as the generators need it.
struct Table {
    what: &'static str,
    c_prefix: &'static str,
    cs_name: &'static str,
    /// Where the C ABI takes the value.
    used: &'static str,
    /// (C suffix, value, C# variant, doc).
    rows: Vec<(&'static str, i32, &'static str, &'static str)>,
    /// The text name of each row (scenario files), in the same order.
    texts: Vec<&'static str>,
}

fn table<T: CEnum>(used: &'static str) -> Table {
    Table {
        what: T::WHAT,
        c_prefix: T::C_PREFIX,
        cs_name: T::CS_NAME,
        used,
        rows: T::TABLE.iter().map(|r| (r.3, r.1, r.4, r.5)).collect(),
        texts: T::TABLE.iter().map(|r| r.2).collect(),
    }
}

/// Every enum of the C ABI, in header order.
fn tables() -> Vec<Table> {
    vec![
        table::<BoundsKind>("`BoidsBounds::kind`"),
        table::<SeparationMode>("`BoidsFlockParams::separation_mode`"),
        table::<AlignmentMode>("`BoidsFlockParams::alignment_mode`"),
        table::<Combine>("`BoidsFlockParams::combine`"),
        table::<Integrator>("`BoidsFlockParams::integrator`"),
        table::<PlaneLock>("`BoidsFlockParams::plane`"),
        table::<IndexKind>("`BoidsFlockParams::index`"),
        table::<ObstacleAvoidance>("`BoidsFlockParams::obstacle_avoidance`"),
        table::<GroundUp>("`BoidsFlockParams::ground_up`"),
        table::<SpawnKind>("`BoidsSpawnDef::shape`"),
        table::<ObstacleKind>("`BoidsObstacleDef::shape`"),
        table::<RelationKind>("`boids_world_set_relation` kind"),
    ]
}

fn consts_rs() -> String {
    let mut s = String::from(
        "//! The `BOIDS_*` enum constants of the C ABI, one group per engine enum.\n\
         //!\n\
         //! Generated from the engine's enum tables (`c_enum!`) by crates/ffi/tests/generated.rs;\n\
         //! do not edit: `BOIDS_REGEN=1 cargo test -p boids-ffi --test generated` rewrites it.\n",
    );
    let _ = write!(
        s,
        "\n/// Largest magnitude accepted for any coordinate, length, speed or weight; every message\n\
         /// that refuses a number states it.\n\
         pub const BOIDS_MAX_MAGNITUDE: f32 = {:e};\n\
         \n/// Most triangles in one mesh (`boids_mesh_create`).\n\
         pub const BOIDS_MAX_TRIANGLES: u32 = {};\n\
         \n/// Most vertices in one mesh (`boids_mesh_create`): three a triangle.\n\
         pub const BOIDS_MAX_VERTICES: u32 = {};\n\
         \n/// Most samples in one heightfield (`boids_heightfield_create`): 2^26, e.g. 8193 x 8193\n\
         /// (256 MB of heights; a heightfield stores no triangles).\n\
         pub const BOIDS_MAX_HEIGHTFIELD_SAMPLES: u32 = {};\n",
        boids_sim::MAX_MAGNITUDE,
        boids_sim::MAX_TRIANGLES,
        boids_sim::MAX_VERTICES,
        boids_sim::MAX_HEIGHTFIELD_SAMPLES
    );
    for t in tables() {
        let _ = write!(s, "\n// {}: {}\n", t.what, t.used);
        for (suffix, value, _, doc) in &t.rows {
            let _ = writeln!(s, "/// {}: {doc}", t.used);
            let _ = writeln!(s, "pub const {}{suffix}: i32 = {value};", t.c_prefix);
        }
    }
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn enums_cs() -> String {
    let mut s = String::from(
        "// The engine's enums. Generated from its enum tables (c_enum!) by\n\
         // crates/ffi/tests/generated.rs; do not edit. C# 7.2.\n\
         namespace BoidsFlocking\n{\n",
    );
    let all = tables();
    for t in &all {
        let c_names = format!("{}*", t.c_prefix);
        let _ = writeln!(
            s,
            "    /// <summary>The {} ({}, C: {c_names}).</summary>",
            t.what,
            xml(t.used)
        );
        let _ = writeln!(s, "    public enum {} : int\n    {{", t.cs_name);
        for (_, value, variant, doc) in &t.rows {
            let _ = writeln!(s, "        /// <summary>{}</summary>", xml(doc));
            let _ = writeln!(s, "        {variant} = {value},");
        }
        s.push_str("    }\n\n");
    }
    s.push_str(
        "}\n\nnamespace BoidsFlocking.Native\n{\n    internal static partial class BoidsConst\n    {\n",
    );
    let _ = writeln!(
        s,
        "        /// <summary>Largest magnitude accepted for any coordinate, length, speed or weight.</summary>\n        public const float MAX_MAGNITUDE = {:e}f;\n        \
         /// <summary>Most triangles in one mesh.</summary>\n        public const uint MAX_TRIANGLES = {};\n        \
         /// <summary>Most vertices in one mesh.</summary>\n        public const uint MAX_VERTICES = {};\n        \
         /// <summary>Most samples in one heightfield (2^26, e.g. 8193 x 8193).</summary>\n        public const uint MAX_HEIGHTFIELD_SAMPLES = {};",
        boids_sim::MAX_MAGNITUDE,
        boids_sim::MAX_TRIANGLES,
        boids_sim::MAX_VERTICES,
        boids_sim::MAX_HEIGHTFIELD_SAMPLES
    );
    for t in &all {
        let short = t.c_prefix.trim_start_matches("BOIDS_");
        let list: Vec<String> = t
            .rows
            .iter()
            .map(|(suffix, value, _, _)| format!("{short}{suffix} = {value}"))
            .collect();
        let _ = writeln!(s, "        public const int {};", list.join(", "));
    }
    s.push_str("    }\n}\n");
    s
}

fn enums_hpp() -> String {
    let mut s = String::from(
        "// The engine's enums as C++ enum classes, valued by the C constants of boids.h.\n\
         // Generated from the engine's enum tables (c_enum!) by crates/ffi/tests/generated.rs;\n\
         // do not edit. Included by boids.hpp.\n\
         #pragma once\n\n\
         #include \"boids.h\"\n\n\
         #include <cstdint>\n\n\
         namespace boids {\n",
    );
    for t in tables() {
        let _ = write!(
            s,
            "\n/// The {} ({}; C: {}*).\nenum class {} : std::int32_t {{\n",
            t.what,
            t.used.replace('`', ""),
            t.c_prefix,
            t.cs_name
        );
        for (suffix, _, variant, doc) in &t.rows {
            let _ = writeln!(s, "    /// {doc}");
            let _ = writeln!(s, "    {variant} = {}{suffix},", t.c_prefix);
        }
        s.push_str("};\n");
    }
    s.push_str("\n}  // namespace boids\n");
    s
}

fn enums_mjs() -> String {
    let mut s = String::from(
        "// The engine's enums for JavaScript (boids.mjs re-exports them): each an object of the C\n\
         // constants' values by their suffix, and its text names (scenario files) by value.\n\
         // Generated from the engine's enum tables (c_enum!) by crates/ffi/tests/generated.rs;\n\
         // do not edit: BOIDS_REGEN=1 cargo test -p boids-ffi --test generated rewrites it.\n",
    );
    let _ = write!(
        s,
        "\n/** Largest magnitude accepted for any coordinate, length, speed or weight. */\n\
         export const MAX_MAGNITUDE = {:e};\n\
         \n/** Most triangles in one mesh. */\nexport const MAX_TRIANGLES = {};\n\
         \n/** Most vertices in one mesh. */\nexport const MAX_VERTICES = {};\n\
         \n/** Most samples in one heightfield (2^26, e.g. 8193 x 8193). */\nexport const MAX_HEIGHTFIELD_SAMPLES = {};\n",
        boids_sim::MAX_MAGNITUDE,
        boids_sim::MAX_TRIANGLES,
        boids_sim::MAX_VERTICES,
        boids_sim::MAX_HEIGHTFIELD_SAMPLES
    );
    for t in tables() {
        let _ = write!(
            s,
            "\n/** The {} ({}; C: {}*). */\nexport const {} = Object.freeze({{\n",
            t.what,
            t.used.replace('`', ""),
            t.c_prefix,
            t.cs_name
        );
        for (suffix, value, _, doc) in &t.rows {
            let _ = writeln!(s, "  /** {doc} */");
            let _ = writeln!(s, "  {suffix}: {value},");
        }
        s.push_str("});\n");
        let _ = write!(
            s,
            "\n/** {}'s text names (scenario files), by value. */\nexport const {}Names = Object.freeze({{\n",
            t.cs_name, t.cs_name
        );
        for ((_, value, _, _), text) in t.rows.iter().zip(&t.texts) {
            let _ = writeln!(s, "  {value}: '{text}',");
        }
        s.push_str("});\n");
    }
    s
}

fn enums_d_mts() -> String {
    let mut s = String::from(
        "// TypeScript declarations of enums.mjs. Generated from the engine's enum tables by\n\
         // crates/ffi/tests/generated.rs; do not edit.\n\
         \n/** Largest magnitude accepted for any coordinate, length, speed or weight. */\n\
         export declare const MAX_MAGNITUDE: number;\n\
         \n/** Most triangles in one mesh. */\nexport declare const MAX_TRIANGLES: number;\n\
         \n/** Most vertices in one mesh. */\nexport declare const MAX_VERTICES: number;\n\
         \n/** Most samples in one heightfield (2^26, e.g. 8193 x 8193). */\nexport declare const MAX_HEIGHTFIELD_SAMPLES: number;\n",
    );
    for t in tables() {
        let _ = write!(
            s,
            "\n/** The {} (C: {}*). */\nexport declare const {}: Readonly<{{\n",
            t.what, t.c_prefix, t.cs_name
        );
        for (suffix, value, _, _) in &t.rows {
            let _ = writeln!(s, "  {suffix}: {value};");
        }
        s.push_str("}>;\n");
        let _ = writeln!(
            s,
            "/** {}'s text names (scenario files), by value. */\nexport declare const {}Names: Readonly<Record<number, string>>;",
            t.cs_name, t.cs_name
        );
    }
    s
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(path: &str, fresh: &str) {
    let p = root().join(path);
    if std::env::var_os("BOIDS_REGEN").is_some() {
        std::fs::write(&p, fresh).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&p).unwrap_or_default();
    assert!(
        current == fresh,
        "{path} differs from what the enum tables generate; rewrite it with \
         BOIDS_REGEN=1 cargo test -p boids-ffi --test generated"
    );
}

#[test]
fn c_constants_are_generated_from_the_tables() {
    check("crates/ffi/src/consts.rs", &consts_rs());
}

#[test]
fn csharp_enums_are_generated_from_the_tables() {
    let cs = enums_cs();
    check(
        "bindings/unity/com.boids.flocking/Runtime/Boids/Enums.cs",
        &cs,
    );
}

#[test]
fn javascript_enums_are_generated_from_the_tables() {
    check("bindings/js/enums.mjs", &enums_mjs());
    check("bindings/js/enums.d.mts", &enums_d_mts());
}

#[test]
fn cpp_enums_are_generated_from_the_tables() {
    check("bindings/cpp/boids_enums.hpp", &enums_hpp());
}

/// Every value of every table through the C ABI: the constant the header declares, the value
/// the library accepts, and the value it gives back.
#[test]
fn every_value_round_trips_through_the_c_abi() {
    use boids_ffi::*;
    let header = std::fs::read_to_string(root().join("include/boids.h")).unwrap();
    for t in tables() {
        for (suffix, value, _, _) in &t.rows {
            let decl = format!("#define {}{suffix} {value}", t.c_prefix);
            assert!(header.contains(&decl), "include/boids.h lacks `{decl}`");
        }
    }
    let mut world = BoidsWorldId::default();
    unsafe {
        assert_eq!(
            boids_world_create(&boids_default_world_def(), &mut world),
            BoidsResult::Ok
        );
    }
    let mut def = boids_default_flock_def();
    def.name = c"f".as_ptr();
    let mut flock = BoidsFlockId::default();
    unsafe {
        assert_eq!(boids_flock_create(world, &def, &mut flock), BoidsResult::Ok);
    }
    type Field = fn(&mut BoidsFlockParams) -> &mut i32;
    let fields: [(&str, Field, Vec<i32>); 7] = [
        (
            "separation",
            |p| &mut p.separation_mode,
            values::<SeparationMode>(),
        ),
        (
            "alignment",
            |p| &mut p.alignment_mode,
            values::<AlignmentMode>(),
        ),
        ("combine", |p| &mut p.combine, values::<Combine>()),
        ("integrator", |p| &mut p.integrator, values::<Integrator>()),
        ("plane", |p| &mut p.plane, values::<PlaneLock>()),
        ("index", |p| &mut p.index, values::<IndexKind>()),
        (
            "obstacles",
            |p| &mut p.obstacle_avoidance,
            values::<ObstacleAvoidance>(),
        ),
    ];
    for (what, field, vals) in fields {
        for v in vals {
            let mut p = boids_default_flock_params();
            *field(&mut p) = v;
            // group-speed needs the heading-speed integrator.
            if what == "alignment" && v == AlignmentMode::GroupSpeed.c_value() {
                p.integrator = Integrator::HeadingSpeed.c_value();
            }
            let mut back = BoidsFlockParams::default();
            unsafe {
                assert_eq!(
                    boids_flock_set_params(flock, &p),
                    BoidsResult::Ok,
                    "{what} {v}"
                );
                assert_eq!(boids_flock_get_params(flock, &mut back), BoidsResult::Ok);
            }
            assert_eq!(*field(&mut back), v, "{what}");
        }
        // One past the table is refused, naming the field and the constants.
        let mut p = boids_default_flock_params();
        *field(&mut p) = 99;
        unsafe {
            assert_eq!(
                boids_flock_set_params(flock, &p),
                BoidsResult::InvalidArgument
            );
            let msg = std::ffi::CStr::from_ptr(boids_last_error_message()).to_string_lossy();
            assert!(
                msg.contains("must be one of BOIDS_") && msg.contains("got 99"),
                "{msg}"
            );
        }
    }
    for kind in values::<BoundsKind>() {
        let mut p = boids_default_flock_params();
        p.bounds.kind = kind;
        (p.bounds.min, p.bounds.max) = (
            BoidsVec3 {
                x: -5.0,
                y: -5.0,
                z: -5.0,
            },
            BoidsVec3 {
                x: 5.0,
                y: 5.0,
                z: 5.0,
            },
        );
        (p.bounds.radius, p.bounds.inner, p.bounds.distance) = (5.0, 0.9, 2.0);
        let mut back = BoidsFlockParams::default();
        unsafe {
            assert_eq!(
                boids_flock_set_params(flock, &p),
                BoidsResult::Ok,
                "bounds {kind}"
            );
            assert_eq!(boids_flock_get_params(flock, &mut back), BoidsResult::Ok);
        }
        assert_eq!(back.bounds.kind, kind);
    }
    for shape in values::<SpawnKind>() {
        let mut s = boids_default_spawn_def();
        s.shape = shape;
        let mut first = 0u32;
        unsafe {
            assert_eq!(
                boids_flock_spawn(flock, 3, &s, &mut first),
                BoidsResult::Ok,
                "spawn {shape}"
            );
        }
    }
    // A mesh and a heightfield for the two placement kinds.
    let mut mesh = BoidsMeshId::default();
    let mut field = BoidsMeshId::default();
    let v = [
        BoidsVec3::default(),
        BoidsVec3 {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        BoidsVec3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        },
    ];
    let heights = [0.0f32; 4];
    unsafe {
        assert_eq!(
            boids_mesh_create(world, v.as_ptr(), 3, [0u32, 1, 2].as_ptr(), 3, &mut mesh),
            BoidsResult::Ok
        );
        assert_eq!(
            boids_heightfield_create(world, heights.as_ptr(), 2, 2, 1.0, 1.0, &mut field),
            BoidsResult::Ok
        );
    }
    for shape in values::<ObstacleKind>() {
        let up = BoidsVec3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        };
        let d = BoidsObstacleDef {
            shape,
            a: BoidsVec3::default(),
            // An oriented box's half extents need thickness on every axis; a plane's normal is
            // unit length.
            b: if shape == BOIDS_OBSTACLE_ORIENTED_BOX {
                BoidsVec3 {
                    x: 1.0,
                    y: 1.0,
                    z: 1.0,
                }
            } else {
                up
            },
            radius: 1.0,
            mesh: if shape == BOIDS_OBSTACLE_HEIGHTFIELD {
                field
            } else {
                mesh
            },
            ..boids_default_obstacle_def()
        };
        let mut id = BoidsObstacleId::default();
        unsafe {
            assert_eq!(
                boids_obstacle_add(world, &d, &mut id),
                BoidsResult::Ok,
                "obstacle {shape}"
            );
        }
    }
    def.name = c"g".as_ptr();
    let mut other = BoidsFlockId::default();
    unsafe {
        assert_eq!(boids_flock_create(world, &def, &mut other), BoidsResult::Ok);
    }
    for kind in values::<RelationKind>() {
        assert_eq!(
            boids_world_set_relation(world, flock, other, kind, 1.0, 1.0),
            BoidsResult::Ok,
            "relation {kind}"
        );
    }
    assert_eq!(boids_world_destroy(world), BoidsResult::Ok);
}

fn values<T: CEnum>() -> Vec<i32> {
    T::TABLE.iter().map(|r| r.1).collect()
}

/// Every value of every table through the scenario format: its text name parses to the variant
/// with that C value, and the variant writes back the same name.
#[test]
fn every_value_round_trips_through_toml() {
    fn each<T>(key: &str)
    where
        T: CEnum + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        #[derive(serde::Deserialize, serde::Serialize)]
        struct One<T> {
            v: T,
        }
        for &(variant, value, text, _, _, _) in T::TABLE {
            let parsed: One<T> = toml::from_str(&format!("v = \"{text}\"")).unwrap();
            assert_eq!(parsed.v, variant, "{key} = \"{text}\"");
            assert_eq!(T::TABLE.iter().find(|r| r.0 == parsed.v).unwrap().1, value);
            let written = toml::to_string(&One { v: variant }).unwrap();
            assert_eq!(written.trim(), format!("v = \"{text}\""));
        }
    }
    each::<SeparationMode>("separation");
    each::<AlignmentMode>("alignment");
    each::<Combine>("combine");
    each::<Integrator>("integrator");
    each::<PlaneLock>("plane");
    each::<IndexKind>("index");
    each::<ObstacleAvoidance>("obstacle_avoidance");
    each::<BoundsKind>("bounds.kind");
    each::<SpawnKind>("spawn.shape");
    each::<ObstacleKind>("obstacle.kind");
    each::<RelationKind>("relation.kind");
}

/// A float as C# source: the shortest text that reads back to the same `f32`.
fn cs_float(x: f32) -> String {
    format!("{x:?}f")
}

fn cs_vec3(v: boids_sim::Vec3) -> String {
    format!(
        "new Vec3({}, {}, {})",
        cs_float(v.x),
        cs_float(v.y),
        cs_float(v.z)
    )
}

/// `Runtime/PresetTable.cs`: every preset's main-flock settings the controller's inspector shows,
/// and every flock's bounds (for the edit-mode gizmos), as the engine makes them: the Unity
/// package reads them without loading the native library (which would lock it in the editor).
fn preset_table_cs() -> String {
    use boids_sim::{Bounds, World, WorldConfig};
    let mut s = String::from(
        "// The presets' inspector settings and every flock's bounds, as the engine makes them.\n\
         // Generated from the engine's presets by crates/ffi/tests/generated.rs; do not edit:\n\
         // BOIDS_REGEN=1 cargo test -p boids-ffi --test generated rewrites it.\n\
         using System.Collections.Generic;\n\n\
         namespace BoidsFlocking.UnityIntegration\n{\n    \
         /// <summary>What the Boids Flock Controller needs of each preset in edit mode (the\n    \
         /// inspector's settings, the gizmos' bounds) without loading the native library.</summary>\n    \
         public static class PresetTable\n    {\n        \
         /// <summary>One preset: its main flock's settings, every flock's bounds in order.</summary>\n        \
         public struct Entry\n        {\n            \
         public float PerceptionRadius, FovHalfAngleDegrees, SeparationWeight, AlignmentWeight, CohesionWeight, MinSpeed, MaxSpeed;\n            \
         public FlockBounds[] Bounds;\n        }\n\n        \
         static readonly Dictionary<string, Entry> entries = new Dictionary<string, Entry>\n        {\n",
    );
    for p in boids_sim::presets::all() {
        let mut w = World::new(WorldConfig::default()).unwrap();
        let main = p.create(&mut w, "gizmo").unwrap();
        let m = *w.flock(main).unwrap().params();
        let mut ids: Vec<_> = vec![main];
        ids.extend(w.flock_ids().filter(|&id| id != main));
        let mut bounds = Vec::new();
        for id in ids {
            let b = w.flock(id).unwrap().params().bounds;
            let kind = b.kind();
            let variant = <boids_sim::BoundsKind as boids_sim::CEnum>::TABLE
                .iter()
                .find(|r| r.0 == kind)
                .expect("every kind is in its table")
                .4;
            let (min, max, centre, radius, distance, inner) = match b {
                Bounds::SoftBox { min, max, distance } => {
                    (min, max, boids_sim::Vec3::ZERO, 0.0, distance, 0.0)
                }
                Bounds::Wrap { min, max }
                | Bounds::Clamp { min, max }
                | Bounds::TurnBack { min, max } => (min, max, boids_sim::Vec3::ZERO, 0.0, 0.0, 0.0),
                Bounds::SoftSphere {
                    centre,
                    radius,
                    inner,
                } => (
                    boids_sim::Vec3::ZERO,
                    boids_sim::Vec3::ZERO,
                    centre,
                    radius,
                    0.0,
                    inner,
                ),
                Bounds::None => (
                    boids_sim::Vec3::ZERO,
                    boids_sim::Vec3::ZERO,
                    boids_sim::Vec3::ZERO,
                    0.0,
                    0.0,
                    0.0,
                ),
            };
            bounds.push(format!(
                "new FlockBounds {{ Kind = BoundsKind.{}, Min = {}, Max = {}, Centre = {}, Radius = {}, Distance = {}, Inner = {} }}",
                variant,
                cs_vec3(min),
                cs_vec3(max),
                cs_vec3(centre),
                cs_float(radius),
                cs_float(distance),
                cs_float(inner)
            ));
        }
        let _ = write!(
            s,
            "            {{ \"{}\", new Entry {{ PerceptionRadius = {}, FovHalfAngleDegrees = {}, SeparationWeight = {}, AlignmentWeight = {}, CohesionWeight = {}, MinSpeed = {}, MaxSpeed = {},\n                Bounds = new[] {{ {} }} }} }},\n",
            p.name,
            cs_float(m.perception_radius),
            cs_float(m.fov_half_angle_deg),
            cs_float(m.weights.separation),
            cs_float(m.weights.alignment),
            cs_float(m.weights.cohesion),
            cs_float(m.min_speed),
            cs_float(m.max_speed),
            bounds.join(", ")
        );
    }
    s.push_str(
        "        };\n\n        \
         /// <summary>The preset named <paramref name=\"name\"/> (as boids_flock_create_preset\n        \
         /// takes it); false for an unknown name or null.</summary>\n        \
         public static bool TryGet(string name, out Entry entry)\n        {\n            \
         if (name != null && entries.TryGetValue(name, out entry)) return true;\n            \
         entry = default(Entry);\n            return false;\n        }\n    }\n}\n",
    );
    s
}

#[test]
fn the_unity_preset_table_is_generated_from_the_presets() {
    check(
        "bindings/unity/com.boids.flocking/Runtime/PresetTable.cs",
        &preset_table_cs(),
    );
}
