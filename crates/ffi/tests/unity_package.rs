//! The Unity package's manifest: valid JSON that Package Manager accepts, the workspace's
//! version, the Unity version the C# needs (`Graphics.RenderMeshInstanced`: 2022.1+; the LTS we
//! target is 2022.3), and every listed sample and doc present. `scripts/check-unity-package`
//! checks the tarball built from it (metas, GUIDs, plugin settings).

use std::path::PathBuf;

fn package() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bindings/unity/com.boids.flocking")
}

#[test]
fn package_json_is_a_valid_manifest_of_this_version() {
    let text = std::fs::read_to_string(package().join("package.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    assert_eq!(m["name"], "com.boids.flocking");
    assert_eq!(
        m["version"],
        env!("CARGO_PKG_VERSION"),
        "package.json version"
    );
    assert_eq!(m["unity"], "2022.3");
    assert!(m["displayName"].as_str().is_some_and(|s| !s.is_empty()));
    let samples = m["samples"].as_array().expect("samples");
    assert!(!samples.is_empty());
    for s in samples {
        let path = s["path"].as_str().expect("sample path");
        assert!(
            path.ends_with('~') || path.contains("~/"),
            "{path}: samples live in Samples~"
        );
        let dir = package().join(path);
        let scripts = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "cs")
            })
            .count();
        assert!(scripts >= 1, "{path} has no script");
    }
    for doc in ["Documentation~/index.md", "Runtime/Boids.Runtime.asmdef"] {
        assert!(package().join(doc).is_file(), "{doc} missing");
    }
}
