//! `boids compare a.csv b.csv`: where two trajectory files (from `boids run --out x.csv`)
//! part, flock by flock.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
struct Row {
    step: u64,
    flock: String,
    id: u32,
    x: f64,
    y: f64,
    z: f64,
}

/// (flock, step, id) -> position.
type Table = BTreeMap<(String, u64, u32), [f64; 3]>;

fn read(path: &Path) -> Result<Table, String> {
    let mut r =
        csv::Reader::from_path(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut t = Table::new();
    for (line, row) in r.deserialize::<Row>().enumerate() {
        let row = row.map_err(|e| format!("{}: row {}: {e}", path.display(), line + 2))?;
        t.insert((row.flock, row.step, row.id), [row.x, row.y, row.z]);
    }
    Ok(t)
}

/// What one flock's comparison found.
#[derive(Default)]
struct Flock {
    /// First step with a deviation above the tolerance, or a boid in one file only.
    first: Option<u64>,
    /// Largest deviation and where.
    worst: f64,
    worst_at: Option<(u64, u32)>,
    only_in_a: usize,
    only_in_b: usize,
    compared: usize,
}

/// Prints the comparison; `Ok(true)` when every flock agrees within `tolerance`.
pub fn compare(a: &Path, b: &Path, tolerance: f64) -> Result<bool, String> {
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(format!(
            "--tolerance must be finite and >= 0, got {tolerance}"
        ));
    }
    let (ta, tb) = (read(a)?, read(b)?);
    let mut flocks: BTreeMap<&str, Flock> = BTreeMap::new();
    let earliest = |f: &mut Flock, step: u64| f.first = Some(f.first.map_or(step, |s| s.min(step)));
    for (key, pa) in &ta {
        let f = flocks.entry(key.0.as_str()).or_default();
        match tb.get(key) {
            None => {
                f.only_in_a += 1;
                earliest(f, key.1);
            }
            Some(pb) => {
                f.compared += 1;
                let d =
                    ((pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2) + (pa[2] - pb[2]).powi(2))
                        .sqrt();
                if f.worst_at.is_none() || d > f.worst {
                    f.worst = d;
                    f.worst_at = Some((key.1, key.2));
                }
                if d > tolerance {
                    earliest(f, key.1);
                }
            }
        }
    }
    for key in tb.keys().filter(|k| !ta.contains_key(*k)) {
        let f = flocks.entry(key.0.as_str()).or_default();
        f.only_in_b += 1;
        earliest(f, key.1);
    }
    if flocks.is_empty() {
        return Err(format!("{} and {} hold no rows", a.display(), b.display()));
    }
    let mut same = true;
    for (name, f) in &flocks {
        let worst = match f.worst_at {
            Some((step, id)) => {
                format!("largest deviation {:.6e} (step {step}, boid {id})", f.worst)
            }
            None => "no boid in both".to_owned(),
        };
        let missing = if f.only_in_a + f.only_in_b > 0 {
            format!(
                ", {} rows only in the first file, {} only in the second",
                f.only_in_a, f.only_in_b
            )
        } else {
            String::new()
        };
        match f.first {
            None => out!(
                "{name}: same within {tolerance} over {} rows; {worst}",
                f.compared
            ),
            Some(step) => {
                same = false;
                out!("{name}: diverges at step {step}; {worst}{missing}");
            }
        }
    }
    Ok(same)
}
