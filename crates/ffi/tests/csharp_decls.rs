//! Every export of `include/boids.h` has a `[DllImport]` in `bindings/unity/com.boids.flocking/Runtime/Boids/NativeMethods.cs`
//! with the same name, return type and parameter types (mapped C -> C#), and nothing extra;
//! every ABI struct has a C# twin with the same fields in the same order.

use std::collections::BTreeMap;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// C type -> the C# type the raw layer must use.
fn cs_type(c: &str) -> String {
    let c = c.replace("const ", "").replace("struct ", "");
    let c = c.trim();
    let (base, ptr) = match c.strip_suffix('*') {
        Some(b) => (b.trim(), "*"),
        None => (c, ""),
    };
    let base = match base {
        "int32_t" => "int",
        "uint32_t" => "uint",
        "uint64_t" => "ulong",
        "uint8_t" => "byte",
        "size_t" => "UIntPtr",
        "float" => "float",
        "void" => "void",
        "char" if ptr == "*" => return "char*".into(),
        other => other,
    };
    format!("{base}{ptr}")
}

/// (return, [param types]) by function name, from the header's prototypes.
fn header_functions() -> BTreeMap<String, (String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("include/boids.h")).unwrap();
    // Join continuation lines, drop comments.
    let mut code = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("/*") {
            in_comment = !t.ends_with("*/");
            continue;
        }
        if in_comment {
            in_comment = !t.ends_with("*/");
            continue;
        }
        if t.starts_with('#') || t.starts_with("//") || t.starts_with("extern \"C\"") {
            continue;
        }
        if t.starts_with('}') && t.contains("extern \"C\"") {
            continue;
        }
        code.push_str(t);
        code.push(' ');
    }
    let mut out = BTreeMap::new();
    for stmt in code.split(';') {
        let s = stmt.trim();
        let Some(open) = s.find("boids_") else {
            continue;
        };
        if !s.contains('(') || s.contains('{') || s.starts_with("typedef") {
            continue;
        }
        let paren = s.find('(').unwrap();
        if paren < open {
            continue;
        }
        let name = s[open..paren].trim().to_string();
        let ret = cs_type(&s[..open]);
        let inner = s[paren + 1..s.rfind(')').unwrap()].trim();
        let params = if inner == "void" {
            vec![]
        } else {
            inner
                .split(',')
                .map(|p| {
                    let p = p.trim();
                    // Type is everything up to the last identifier.
                    let cut = p
                        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap();
                    cs_type(&p[..=cut])
                })
                .collect()
        };
        out.insert(name, (ret, params));
    }
    out
}

fn csharp_functions() -> BTreeMap<String, (String, Vec<String>)> {
    let text = std::fs::read_to_string(
        root().join("bindings/unity/com.boids.flocking/Runtime/Boids/NativeMethods.cs"),
    )
    .unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(at) = line.find("public static extern ") else {
            continue;
        };
        assert!(
            line.contains("[DllImport(Lib, CallingConvention = CC)]"),
            "{line}"
        );
        let decl = &line[at + "public static extern ".len()..];
        let paren = decl.find('(').unwrap();
        let head: Vec<&str> = decl[..paren].split_whitespace().collect();
        let (ret, name) = (head[0].to_string(), head[1].to_string());
        let inner = &decl[paren + 1..decl.rfind(')').unwrap()];
        let params = inner
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| p.rsplit_once(' ').unwrap().0.trim().to_string())
            .collect();
        out.insert(name, (ret, params));
    }
    out
}

#[test]
fn every_export_has_a_matching_dllimport() {
    let c = header_functions();
    let cs = csharp_functions();
    assert!(c.len() >= 40, "parsed {} header functions", c.len());
    for (name, (ret, params)) in &c {
        let (cs_ret, cs_params) = cs
            .get(name)
            .unwrap_or_else(|| panic!("{name} has no [DllImport] in NativeMethods.cs"));
        // Strings: `const char*` returns are IntPtr, parameters byte*.
        let want_ret = if ret == "char*" {
            "IntPtr".to_string()
        } else {
            ret.clone()
        };
        let want_params: Vec<String> = params
            .iter()
            .map(|p| {
                if p == "char*" {
                    "byte*".into()
                } else {
                    p.clone()
                }
            })
            .collect();
        assert_eq!(cs_ret, &want_ret, "{name}: return type");
        assert_eq!(cs_params, &want_params, "{name}: parameters");
    }
    for name in cs.keys() {
        assert!(
            c.contains_key(name),
            "{name} is imported in C# but not exported"
        );
    }
}

#[test]
fn every_struct_has_the_same_fields_in_csharp() {
    let header = std::fs::read_to_string(root().join("include/boids.h")).unwrap();
    let cs = std::fs::read_to_string(
        root().join("bindings/unity/com.boids.flocking/Runtime/Boids/NativeMethods.cs"),
    )
    .unwrap();
    let mut checked = 0;
    for chunk in header.split("typedef struct ").skip(1) {
        let name: String = chunk.chars().take_while(|c| c.is_alphanumeric()).collect();
        let body = &chunk[chunk.find('{').unwrap() + 1..chunk.find('}').unwrap()];
        let c_fields: Vec<String> = body
            .lines()
            .map(str::trim)
            .filter(|l| l.ends_with(';'))
            .map(|l| {
                let l = l.trim_end_matches(';');
                let l = l.split('[').next().unwrap();
                l.rsplit(' ')
                    .next()
                    .unwrap()
                    .trim_start_matches('*')
                    .to_string()
            })
            .collect();
        let cs_body = cs
            .split(&format!("internal struct {name}\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("no C# struct {name}"));
        let cs_body = &cs_body[..cs_body.find("\n    }").unwrap()];
        let mut cs_fields = vec![];
        for l in cs_body.lines().map(str::trim) {
            if let Some(rest) = l.strip_prefix("public ") {
                if rest.contains('(') || !rest.ends_with(';') {
                    continue;
                }
                let names = rest.trim_end_matches(';');
                let names = names.split_once(' ').unwrap().1;
                cs_fields.extend(names.split(',').map(|n| n.trim().to_string()));
            }
        }
        let c_fields: Vec<String> = if name == "BoidsMat4" {
            // One float[16] in C, sixteen named floats (Unity's m00 m10 ...) in C#.
            assert_eq!(cs_fields.len(), 16);
            cs_fields.clone()
        } else if name == "BoidsFlockDef" {
            c_fields
                .iter()
                .map(|f| {
                    if f == "params" {
                        "flock_params".into()
                    } else {
                        f.clone()
                    }
                })
                .collect()
        } else {
            c_fields
        };
        assert_eq!(cs_fields, c_fields, "{name}: fields differ");
        checked += 1;
    }
    assert!(checked >= 12, "checked {checked} structs");
}
