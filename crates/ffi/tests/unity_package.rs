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
    for doc in [
        "Documentation~/index.md",
        "Runtime/BoidsFlocking.Runtime.asmdef",
    ] {
        assert!(package().join(doc).is_file(), "{doc} missing");
    }
}

/// Every file and folder of the package source has its committed `.meta` (Unity ignores an
/// asset without one in an immutable package, and a GUID must survive renames and builds), no
/// `.meta` is left without its asset, and every GUID is 32 hex digits and unique.
#[test]
fn every_asset_has_a_committed_meta_with_a_unique_guid() {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            out.push(p.clone());
            if p.is_dir() {
                walk(&p, out);
            }
        }
    }
    let mut all = Vec::new();
    walk(&package(), &mut all);
    let mut guids = std::collections::BTreeMap::new();
    let mut assets = 0;
    for p in &all {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(asset) = name.strip_suffix(".meta") {
            assert!(
                p.with_file_name(asset).exists(),
                "{} has no asset",
                p.display()
            );
            let text = std::fs::read_to_string(p).unwrap();
            let guid = text
                .lines()
                .find_map(|l| l.strip_prefix("guid: "))
                .unwrap_or_else(|| panic!("{}: no guid", p.display()));
            assert!(
                guid.len() == 32
                    && guid
                        .bytes()
                        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
                "{}: malformed GUID {guid}",
                p.display()
            );
            if let Some(other) = guids.insert(guid.to_string(), p.clone()) {
                panic!("GUID {guid} twice: {} and {}", other.display(), p.display());
            }
            assert!(
                text.starts_with("fileFormatVersion: 2\n"),
                "{}",
                p.display()
            );
        } else if name.ends_with('~') {
            // Unity ignores this folder itself (its contents keep their metas for the sample's
            // import into Assets/).
            continue;
        } else {
            assets += 1;
            let meta = p.with_file_name(format!("{name}.meta"));
            assert!(
                meta.is_file(),
                "{} has no .meta (run scripts/package-unity --write-metas and commit it)",
                p.display()
            );
        }
    }
    assert_eq!(guids.len(), assets);
    // The component keeps the GUID it had in 0.2.0's tarball, so scenes that use it still do.
    let controller =
        std::fs::read_to_string(package().join("Runtime/BoidsFlockController.cs.meta")).unwrap();
    assert!(controller.contains("guid: acdb713dfcaed8fdfdfdf328688d977b"));
}

/// The licence texts and the changelog in the package are copies, not links: a link breaks in
/// Package Manager's cache and in a Windows checkout. Each equals the repository's file;
/// `BOIDS_REGEN=1 cargo test -p boids-ffi --test unity_package` copies them again.
#[test]
fn the_licences_and_changelog_are_copies_of_the_repository_files() {
    let root = package().join("../../..");
    for (copy, original) in [
        ("CHANGELOG.md", "CHANGELOG.md"),
        ("LICENSE-MIT", "LICENSE-MIT"),
        ("LICENSE-APACHE", "LICENSE-APACHE"),
        ("Third Party Notices.md", "THIRD-PARTY-LICENSES.md"),
    ] {
        let path = package().join(copy);
        let want = std::fs::read(root.join(original)).unwrap();
        if std::env::var_os("BOIDS_REGEN").is_some() {
            let _ = std::fs::remove_file(&path);
            std::fs::write(&path, &want).unwrap();
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(meta.is_file(), "{copy} must be a file, not a link");
        assert!(
            std::fs::read(&path).unwrap() == want,
            "{copy} differs from {original}: BOIDS_REGEN=1 cargo test -p boids-ffi --test unity_package"
        );
    }
}

/// Folders Unity ignores (a name ending in `~`) get no `.meta`: Unity warns about an orphan
/// `.meta` on every refresh.
#[test]
fn ignored_folders_have_no_meta() {
    for e in std::fs::read_dir(package()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !(name.ends_with("~.meta")),
            "{name}: the folder it belongs to is ignored by Unity"
        );
    }
}

/// The sample ships a material asset with GPU instancing on: in a player build with Graphics ›
/// Instancing Variants = Strip Unused (the default), a shader keeps its instancing variant only
/// when a material in the build has instancing on, so a material made at run time (or the
/// controller's instanced copy of one) may draw nothing there.
#[test]
fn the_sample_ships_an_instanced_material() {
    let dir = package().join("Samples~/FishSchool");
    let mat = std::fs::read_to_string(dir.join("Fish (Instanced).mat")).unwrap();
    assert!(
        mat.starts_with("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!21 &2100000\nMaterial:")
    );
    assert!(
        mat.contains("\n  m_EnableInstancingVariants: 1\n"),
        "instancing on"
    );
    assert!(
        mat.contains("m_Shader: {fileID: 46, guid: 0000000000000000f000000000000000, type: 0}"),
        "the Standard shader"
    );
    let meta = std::fs::read_to_string(dir.join("Fish (Instanced).mat.meta")).unwrap();
    assert!(meta.contains("NativeFormatImporter:") && meta.contains("mainObjectFileID: 2100000"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("Fish (Instanced).mat") && readme.contains("Strip Unused"));
}
