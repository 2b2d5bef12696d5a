//! The JavaScript binding lays out the ABI's structs from its own field lists (`STRUCTS` in
//! `bindings/js/structs.mjs`): every struct of `include/boids.h` is there with the same fields,
//! in the same order, of the same types; and the TypeScript declarations' `FlockParams` names
//! the same fields. (At load, boids.mjs also compares each struct's size with
//! `boids_struct_size`.)

use std::collections::BTreeMap;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (field, type, count) with the JS type names.
type Fields = Vec<(String, String, usize)>;

/// Every struct of the header: its fields, with C types mapped to the binding's names.
fn header_structs() -> BTreeMap<String, Fields> {
    let text = std::fs::read_to_string(root().join("include/boids.h")).unwrap();
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Fields)> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("typedef struct ")
            && let Some(name) = rest.strip_suffix(" {")
        {
            current = Some((name.to_string(), vec![]));
            continue;
        }
        let Some((name, fields)) = current.as_mut() else {
            continue;
        };
        if t.starts_with('}') {
            out.insert(name.clone(), std::mem::take(fields));
            current = None;
            continue;
        }
        if t.starts_with("/*") || t.starts_with('*') || !t.ends_with(';') {
            continue;
        }
        let decl = t
            .trim_end_matches(';')
            .replace("const ", "")
            .replace("struct ", "");
        let (ty, field) = decl.rsplit_once(' ').unwrap();
        let pointer = field.starts_with('*') || ty.ends_with('*') || ty.ends_with("Fn");
        let field = field.trim_start_matches('*');
        let (field, count) = match field.split_once('[') {
            Some((f, n)) => (f, n.trim_end_matches(']').parse().unwrap()),
            None => (field, 1),
        };
        let js = if pointer {
            "ptr".to_string()
        } else {
            match ty.trim() {
                "float" => "f32".into(),
                "int32_t" => "i32".into(),
                "uint32_t" => "u32".into(),
                "uint64_t" => "u64".into(),
                other if other.starts_with("Boids") => other.into(),
                other => panic!("header type {other} has no JS name"),
            }
        };
        fields.push((field.to_string(), js, count));
    }
    out
}

/// `STRUCTS` of structs.mjs: each struct's `['field', 'type'(, count)]` entries.
fn js_structs() -> BTreeMap<String, Fields> {
    let text = std::fs::read_to_string(root().join("bindings/js/structs.mjs")).unwrap();
    let start = text
        .find("const STRUCTS = {")
        .expect("STRUCTS in structs.mjs");
    let body = &text[start..start + text[start..].find("\n};").unwrap()];
    let mut out = BTreeMap::new();
    let mut name = String::new();
    for line in body.lines().skip(1) {
        let t = line.trim();
        if let Some((n, rest)) = t.split_once(": [")
            && n.starts_with("Boids")
        {
            name = n.to_string();
            out.insert(name.clone(), vec![]);
            parse_entries(rest, out.get_mut(&name).unwrap());
        } else {
            parse_entries(t, out.get_mut(&name).expect("an entry outside a struct"));
        }
    }
    out
}

fn parse_entries(mut s: &str, fields: &mut Fields) {
    while let Some(open) = s.find("['") {
        let close = s[open..].find(']').unwrap() + open;
        let parts: Vec<&str> = s[open + 1..close]
            .split(',')
            .map(|p| p.trim().trim_matches('\''))
            .collect();
        let count = parts.get(2).map_or(1, |c| c.parse().unwrap());
        fields.push((parts[0].to_string(), parts[1].to_string(), count));
        s = &s[close + 1..];
    }
}

#[test]
fn every_struct_has_the_headers_fields_in_javascript() {
    let header = header_structs();
    let js = js_structs();
    assert!(header.len() >= 12, "{:?}", header.keys());
    assert_eq!(
        js.keys().collect::<Vec<_>>(),
        header.keys().collect::<Vec<_>>(),
        "the same structs"
    );
    for (name, fields) in &header {
        assert_eq!(
            &js[name], fields,
            "{name}: fields differ from include/boids.h"
        );
    }
}

#[test]
fn the_typescript_flock_params_name_every_field() {
    let header = header_structs();
    let dts = std::fs::read_to_string(root().join("bindings/js/boids.d.mts")).unwrap();
    let start = dts.find("export interface FlockParams {").unwrap();
    let body = &dts[start..start + dts[start..].find("\n}").unwrap()];
    let declared: Vec<&str> = body
        .lines()
        .skip(1)
        .flat_map(|l| l.split(';'))
        .filter_map(|d| d.split_once(':').map(|(n, _)| n.trim()))
        .filter(|n| !n.is_empty())
        .collect();
    let want: Vec<&str> = header["BoidsFlockParams"]
        .iter()
        .map(|f| f.0.as_str())
        .collect();
    assert_eq!(declared, want);
}

#[test]
fn the_parsers_see_what_they_must() {
    let js = js_structs();
    assert_eq!(js["BoidsMat4"], vec![("m".into(), "f32".into(), 16)]);
    let header = header_structs();
    assert_eq!(
        header["BoidsWorldDef"][4],
        ("enqueue_task".into(), "ptr".into(), 1)
    );
    assert_eq!(header["BoidsFlockDef"][0], ("name".into(), "ptr".into(), 1));
}
