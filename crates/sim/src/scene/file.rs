//! Scenario files: a [`Scene`] in TOML (docs/scenario.md), with two conveniences for writing
//! them by hand: a flock may start from a preset (`preset = "shark"`) and override any of its
//! fields, and every field left out keeps its default. The schema is the engine's own types
//! ([`Scene`], `FlockParams`): an unknown field is an error, and nothing here lists the
//! parameters again.

use super::{FlockSpec, Scene};
use crate::presets;
use toml::{Table, Value};

/// Keys whose tables are replaced as a whole by an override, not merged field by field: they
/// are tagged by a kind (`bounds.kind`, `spawn.shape`) or mean one thing only together.
const REPLACED: &[&str] = &[
    "bounds",
    "target",
    "target_relocation",
    "spawn",
    "path",
    "wake_region",
    "boids",
];

/// `over` merged into `base`: tables field by field, except the [`REPLACED`] keys and non-table
/// values, which `over` replaces.
fn merge(base: &mut Table, over: Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(Value::Table(b)), Value::Table(o)) if !REPLACED.contains(&k.as_str()) => {
                merge(b, o)
            }
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn to_table<T: serde::Serialize>(x: &T) -> Result<Table, String> {
    Table::try_from(x).map_err(|e| e.to_string())
}

/// The line and column of a byte offset, for messages.
fn at(text: &str, path: &str, offset: Option<usize>) -> String {
    match offset {
        Some(o) => {
            let before = &text[..o.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("{path}:{line}:{col}: ")
        }
        None => format!("{path}: "),
    }
}

impl Scene {
    /// Parses a scenario file's text (docs/scenario.md); `path` names the file in messages,
    /// which give the line and column where the TOML itself is at fault, or the flock and field
    /// otherwise.
    pub fn from_toml(text: &str, path: &str) -> Result<Scene, String> {
        parse(text, path)
    }

    /// The scene as a complete scenario file, every field written out;
    /// [`Scene::from_toml`] reads it back to an equal scene.
    pub fn to_toml(&self) -> Result<String, String> {
        toml::to_string(self).map_err(|e| e.to_string())
    }
}

fn parse(text: &str, path: &str) -> Result<Scene, String> {
    let doc: Table = toml::from_str(text).map_err(|e| {
        format!(
            "{}{}",
            at(text, path, e.span().map(|s| s.start)),
            e.message()
        )
    })?;
    let fail = |m: String| format!("{path}: {m}");
    let mut doc = doc;
    let mut out = Table::new();
    let mut flocks: Vec<Value> = Vec::new();
    let mut relations: Vec<Value> = Vec::new();
    let mut obstacles: Vec<Value> = Vec::new();
    // The file's own meshes keep their places (0, 1, ...); a preset's come after them.
    let mut meshes: Vec<Value> = match doc.remove("mesh") {
        Some(Value::Array(list)) => list,
        Some(_) => return Err(fail("mesh must be an array of tables ([[mesh]])".into())),
        None => Vec::new(),
    };
    for (key, value) in doc {
        match (key.as_str(), value) {
            ("flock", Value::Array(list)) => {
                for (i, f) in list.into_iter().enumerate() {
                    let Value::Table(t) = f else {
                        return Err(fail(format!("flock {} is not a table", i + 1)));
                    };
                    let (spec, extra) =
                        flock_table(t).map_err(|m| fail(format!("flock {}: {m}", i + 1)))?;
                    flocks.push(Value::Table(spec));
                    if let Some(extra) = extra {
                        for f in &extra.flock {
                            flocks.push(Value::Table(to_table(f)?));
                        }
                        for r in &extra.relation {
                            relations.push(Value::Table(to_table(r)?));
                        }
                        // The preset's obstacles name its meshes by their places in its
                        // own list: moved past the meshes already in this file's.
                        let offset = meshes.len() as i64;
                        for m in &extra.mesh {
                            meshes.push(Value::Table(to_table(m)?));
                        }
                        for o in &extra.obstacle {
                            let mut t = to_table(o)?;
                            for key in ["mesh", "field"] {
                                if let Some(Value::Table(id)) = t.get_mut(key)
                                    && let Some(Value::Integer(i)) = id.get_mut("index")
                                {
                                    *i += offset;
                                }
                            }
                            obstacles.push(Value::Table(t));
                        }
                    }
                }
            }
            ("relation", Value::Array(list)) => relations.extend(list),
            ("obstacle", Value::Array(list)) => obstacles.extend(list),
            (k, v) => {
                out.insert(k.to_owned(), v);
            }
        }
    }
    if flocks.is_empty() {
        return Err(fail("the scenario has no [[flock]]".into()));
    }
    out.insert("flock".into(), Value::Array(flocks));
    out.insert("relation".into(), Value::Array(relations));
    out.insert("obstacle".into(), Value::Array(obstacles));
    out.insert("mesh".into(), Value::Array(meshes));
    let scene: Scene = out
        .try_into()
        .map_err(|e: toml::de::Error| fail(e.message().to_owned()))?;
    for f in &scene.flock {
        if f.count == 0 && f.boids.is_empty() {
            return Err(fail(format!("flock '{}' has no boids (count = 0)", f.name)));
        }
    }
    Ok(scene)
}

/// One `[[flock]]` table made complete: the preset's flock (or the defaults) with the table's
/// fields merged in; also the rest of the preset's scene (its other flocks, obstacles and
/// relations), if any.
fn flock_table(mut t: Table) -> Result<(Table, Option<Scene>), String> {
    let name = match t.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err("name must be a string".into()),
        None => return Err("name is required".into()),
    };
    let (base, extra) = match t.remove("preset") {
        Some(Value::String(p)) => {
            let mut scene = presets::get(&p).map_err(|e| e.to_string())?.scene(&name);
            let first = scene.flock.remove(0);
            (first, Some(scene))
        }
        Some(_) => return Err("preset must be a string".into()),
        None => (FlockSpec::new(&name, 500), None),
    };
    // Shorthands of the older format: `[flock.bounds]`, `[flock.target]` are parameters.
    for key in ["bounds", "target"] {
        if let Some(v) = t.remove(key) {
            let params = t
                .entry("params")
                .or_insert_with(|| Value::Table(Table::new()));
            match params {
                Value::Table(p) => {
                    p.insert(key.into(), v);
                }
                _ => return Err("params must be a table".into()),
            }
        }
    }
    let mut table = to_table(&base)?;
    merge(&mut table, t);
    // Check now, so the message names this flock.
    let _: FlockSpec = table
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| format!("'{name}': {}", e.message()))?;
    Ok((table, extra))
}
