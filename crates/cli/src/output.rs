//! Files `boids run` writes. Each goes to a temporary file beside its target (tempfile) and is
//! persisted into place only when complete, so a failed run leaves nothing half-written; on
//! SIGINT or SIGTERM the temporaries are removed before the process exits
//! ([`remove_temporaries_on_interrupt`]). Trajectories are written sample by sample, so memory
//! stays the size of one sample however long the run.

use crate::render::{Camera, Trails, draw, indexed, palette};
use boids_sim::Order;
use boids_sim::metrics::{FlockMetrics, measure};
use boids_sim::{Vec3, World};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files alive now, removed by the interrupt handler.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner())
}

/// On SIGINT, SIGTERM or SIGHUP: remove every temporary output file, say so, exit with 130.
/// Whatever happens to the message (standard error closed: the terminal went away, which is
/// what SIGHUP means, or its reader exited), the process exits.
pub fn remove_temporaries_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        // A panic elsewhere while holding the list must not keep the files (or the exit) back.
        let files = TEMPORARIES
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        for p in &files {
            let _ = std::fs::remove_file(p);
        }
        // Not `eprintln!`: it panics when standard error is closed, and the panic would end
        // this thread before the exit below.
        let _ = std::io::stderr().write_all(b"error: interrupted; no output file was written\n");
        std::process::exit(130);
    });
}

/// A file being written: a temporary sibling, persisted over the target by
/// [`Pending::commit`], deleted if dropped uncommitted.
pub struct Pending {
    tmp: Option<tempfile::NamedTempFile>,
    target: PathBuf,
}

impl Pending {
    pub fn create(target: &Path) -> Result<(Pending, BufWriter<File>), String> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(format!(
                "cannot write {}: directory {} does not exist",
                target.display(),
                dir.display()
            ));
        }
        let name = target
            .file_name()
            .ok_or_else(|| format!("cannot write {}: not a file name", target.display()))?;
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", target.display());
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        // An output file, not a secret: 0o666 less the umask, like any file the user creates.
        #[cfg(unix)]
        b.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = b.tempfile_in(&dir).map_err(fail)?;
        let file = tmp.reopen().map_err(fail)?;
        temporaries().push(tmp.path().to_path_buf());
        Ok((
            Pending {
                tmp: Some(tmp),
                target: target.to_path_buf(),
            },
            BufWriter::new(file),
        ))
    }

    pub fn commit(mut self, w: BufWriter<File>) -> Result<(), String> {
        let fail = |e: String| format!("cannot write {}: {e}", self.target.display());
        let f = w.into_inner().map_err(|e| fail(e.to_string()))?;
        f.sync_all().ok();
        let tmp = self.tmp.take().expect("commit once");
        let path = tmp.path().to_path_buf();
        tmp.persist(&self.target).map_err(|e| fail(e.to_string()))?;
        temporaries().retain(|p| *p != path);
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let path = tmp.path().to_path_buf();
            drop(tmp);
            temporaries().retain(|p| *p != path);
        }
    }
}

/// Writes every frame handed to it into an animated GIF.
pub struct GifOut {
    pending: Option<Pending>,
    enc: gif::Encoder<BufWriter<File>>,
    pal: Vec<[u8; 3]>,
    delay_cs: u16,
}

impl GifOut {
    pub fn new(path: &Path, width: u32, height: u32, fps: f32) -> Result<GifOut, String> {
        let (pending, w) = Pending::create(path)?;
        let pal = palette();
        let flat: Vec<u8> = pal.iter().flatten().copied().collect();
        let mut enc =
            gif::Encoder::new(w, width as u16, height as u16, &flat).map_err(|e| e.to_string())?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        Ok(GifOut {
            pending: Some(pending),
            enc,
            pal,
            delay_cs: (100.0 / fps).round().at_least(2.0) as u16,
        })
    }

    pub fn frame(&mut self, world: &World, cam: &Camera) -> Result<(), String> {
        let pm = draw(world, cam, None);
        let mut f = gif::Frame::from_indexed_pixels(
            pm.width() as u16,
            pm.height() as u16,
            indexed(&pm, &self.pal),
            None,
        );
        f.delay = self.delay_cs;
        self.enc.write_frame(&f).map_err(|e| format!("GIF: {e}"))
    }

    pub fn finish(mut self) -> Result<(), String> {
        let pending = self.pending.take().expect("finish once");
        let w = self.enc.into_inner().map_err(|e| format!("GIF: {e}"))?;
        pending.commit(w)
    }
}

/// Writes a PNG of the final state with each boid's recent path as a fading trail.
pub fn write_png(path: &Path, world: &World, cam: &Camera, trails: &Trails) -> Result<(), String> {
    let pm = draw(world, cam, Some(trails));
    let bytes = pm.encode_png().map_err(|e| format!("PNG: {e}"))?;
    let (p, mut w) = Pending::create(path)?;
    w.write_all(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    p.commit(w)
}

/// Trajectories (`.csv` or `.json`), written sample by sample as the run goes.
pub enum Trajectories {
    /// `step,time,flock,id,x,y,z,vx,vy,vz`, one row per boid and sample, quoted where needed.
    Csv(Pending, Box<csv::Writer<BufWriter<File>>>, PathBuf),
    /// `{"samples": [{"step", "time", "flocks": [{"name", "ids", "positions", "velocities"}]}]}`,
    /// vectors as `[x, y, z]`; `first` until the first sample is written.
    Json(Pending, BufWriter<File>, PathBuf, bool),
}

#[derive(serde::Serialize)]
struct CsvRow<'a> {
    step: u64,
    time: f32,
    flock: &'a str,
    id: u32,
    x: f32,
    y: f32,
    z: f32,
    vx: f32,
    vy: f32,
    vz: f32,
}

#[derive(serde::Serialize)]
struct JsonFlock<'a> {
    name: &'a str,
    ids: &'a [u32],
    positions: &'a [Vec3],
    velocities: &'a [Vec3],
}

#[derive(serde::Serialize)]
struct JsonSample<'a> {
    step: u64,
    time: f32,
    flocks: Vec<JsonFlock<'a>>,
}

impl Trajectories {
    /// Opens `path` (by extension, `.csv` or `.json`).
    pub fn create(path: &Path, csv: bool) -> Result<Trajectories, String> {
        let (p, mut w) = Pending::create(path)?;
        let io = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        if csv {
            let mut c = csv::WriterBuilder::new().has_headers(false).from_writer(w);
            c.write_record([
                "step", "time", "flock", "id", "x", "y", "z", "vx", "vy", "vz",
            ])
            .map_err(|e| e.to_string())?;
            Ok(Trajectories::Csv(p, Box::new(c), path.to_path_buf()))
        } else {
            w.write_all(b"{\"samples\":[").map_err(io)?;
            Ok(Trajectories::Json(p, w, path.to_path_buf(), true))
        }
    }

    /// Appends the state of every flock at `step`.
    pub fn sample(&mut self, world: &World, step: u64, time: f32) -> Result<(), String> {
        let flocks = world.flock_ids().filter_map(|id| world.flock(id));
        match self {
            Trajectories::Csv(_, c, path) => {
                let fail = |e: csv::Error| format!("cannot write {}: {e}", path.display());
                for f in flocks {
                    for ((&id, &p), &v) in f.ids().iter().zip(f.positions()).zip(f.velocities()) {
                        c.serialize(CsvRow {
                            step,
                            time,
                            flock: f.name(),
                            id,
                            x: p.x,
                            y: p.y,
                            z: p.z,
                            vx: v.x,
                            vy: v.y,
                            vz: v.z,
                        })
                        .map_err(fail)?;
                    }
                }
                Ok(())
            }
            Trajectories::Json(_, w, path, first) => {
                let fail = |e: String| format!("cannot write {}: {e}", path.display());
                if !std::mem::take(first) {
                    w.write_all(b",").map_err(|e| fail(e.to_string()))?;
                }
                let sample = JsonSample {
                    step,
                    time,
                    flocks: flocks
                        .map(|f| JsonFlock {
                            name: f.name(),
                            ids: f.ids(),
                            positions: f.positions(),
                            velocities: f.velocities(),
                        })
                        .collect(),
                };
                serde_json::to_writer(&mut *w, &sample).map_err(|e| fail(e.to_string()))
            }
        }
    }

    /// Completes the file and moves it into place.
    pub fn finish(self) -> Result<(), String> {
        match self {
            Trajectories::Csv(p, c, path) => {
                let w = (*c)
                    .into_inner()
                    .map_err(|e| format!("cannot write {}: {}", path.display(), e.error()))?;
                p.commit(w)
            }
            Trajectories::Json(p, mut w, path, _) => {
                w.write_all(b"]}")
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                p.commit(w)
            }
        }
    }
}

/// Metrics of every flock at one step.
pub struct MetricsRow {
    pub step: u64,
    pub time: f32,
    pub flocks: Vec<(String, FlockMetrics)>,
}

impl MetricsRow {
    pub fn take(world: &World, step: u64, time: f32) -> MetricsRow {
        let flocks = world
            .flock_ids()
            .map(|id| {
                let f = world.flock(id).expect("live");
                (f.name().to_owned(), measure(f))
            })
            .collect();
        MetricsRow { step, time, flocks }
    }
}

#[derive(serde::Serialize)]
struct MetricsCsvRow<'a> {
    step: u64,
    time: f32,
    flock: &'a str,
    boids: usize,
    polarisation: f32,
    mean_nearest_distance: f32,
    groups: usize,
    mean_speed: f32,
}

/// Metrics as CSV: `step,time,flock,boids,polarisation,mean_nearest_distance,groups,mean_speed`.
pub fn write_metrics_csv(path: &Path, rows: &[MetricsRow]) -> Result<(), String> {
    let (p, w) = Pending::create(path)?;
    let fail = |e: csv::Error| format!("cannot write {}: {e}", path.display());
    let mut c = csv::WriterBuilder::new().has_headers(false).from_writer(w);
    c.write_record([
        "step",
        "time",
        "flock",
        "boids",
        "polarisation",
        "mean_nearest_distance",
        "groups",
        "mean_speed",
    ])
    .map_err(fail)?;
    for r in rows {
        for (name, m) in &r.flocks {
            c.serialize(MetricsCsvRow {
                step: r.step,
                time: r.time,
                flock: name,
                boids: m.count,
                polarisation: m.polarisation,
                mean_nearest_distance: m.mean_nearest_distance,
                groups: m.groups,
                mean_speed: m.mean_speed,
            })
            .map_err(fail)?;
        }
    }
    let w = c
        .into_inner()
        .map_err(|e| format!("cannot write {}: {}", path.display(), e.error()))?;
    p.commit(w)
}

/// The four metrics over time as a PNG: one panel each, time on x, one line per flock, axes
/// with ticks and labels (plotters, text in an embedded DejaVu Sans).
pub fn write_metrics_png(path: &Path, rows: &[MetricsRow]) -> Result<(), String> {
    use plotters::prelude::*;
    static FONT: std::sync::Once = std::sync::Once::new();
    FONT.call_once(|| {
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
    let (w, h) = (900u32, 720u32);
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    let plot = |e: &dyn std::fmt::Display| format!("metrics plot: {e}");
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| plot(&e))?;
        let t_max = rows.last().map_or(1.0, |r| r.time).at_least(1e-6);
        let names: Vec<String> = rows
            .first()
            .map(|r| r.flocks.iter().map(|f| f.0.clone()).collect())
            .unwrap_or_default();
        type Metric = (&'static str, fn(&FlockMetrics) -> f32);
        let metrics: [Metric; 4] = [
            ("polarisation", |m| m.polarisation),
            ("mean nearest-neighbour distance", |m| {
                m.mean_nearest_distance
            }),
            ("groups", |m| m.groups as f32),
            ("mean speed", |m| m.mean_speed),
        ];
        for (area, (title, get)) in root.split_evenly((4, 1)).iter().zip(metrics) {
            let top = rows
                .iter()
                .flat_map(|r| r.flocks.iter().map(|f| get(&f.1)))
                .fold(0.0f32, f32::at_least)
                .at_least(1e-6)
                * 1.1;
            let mut chart = ChartBuilder::on(area)
                .caption(title, ("sans-serif", 16))
                .margin(6)
                .x_label_area_size(32)
                .y_label_area_size(56)
                .build_cartesian_2d(0f32..t_max, 0f32..top)
                .map_err(|e| plot(&e))?;
            chart
                .configure_mesh()
                .x_desc("time (s)")
                .x_labels(10)
                .y_labels(5)
                .label_style(("sans-serif", 12))
                .draw()
                .map_err(|e| plot(&e))?;
            for (fi, name) in names.iter().enumerate() {
                let c = crate::render::FLOCK_COLOURS[fi % crate::render::FLOCK_COLOURS.len()];
                let colour = RGBColor(c[0] / 4 * 3, c[1] / 4 * 3, c[2] / 4 * 3);
                let points = rows.iter().filter_map(|r| {
                    let (_, m) = r.flocks.iter().find(|f| &f.0 == name)?;
                    Some((r.time, get(m)))
                });
                chart
                    .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                    .map_err(|e| plot(&e))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .label_font(("sans-serif", 12))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK.mix(0.3))
                .draw()
                .map_err(|e| plot(&e))?;
        }
        root.present().map_err(|e| plot(&e))?;
    }
    let mut pm = tiny_skia::Pixmap::new(w, h).expect("size");
    for (px, c) in pm.data_mut().chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        px.copy_from_slice(&[c[0], c[1], c[2], 255]);
    }
    let bytes = pm.encode_png().map_err(|e| format!("PNG: {e}"))?;
    let (p, mut wtr) = Pending::create(path)?;
    wtr.write_all(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    p.commit(wtr)
}
