//! Files `boids run` writes: each goes to a temporary file beside its target and is renamed into
//! place only when complete, so a failed run leaves nothing half-written.

use crate::render::{Camera, Trails, draw, indexed, palette};
use boids_sim::metrics::{FlockMetrics, measure};
use boids_sim::{Vec3, World};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written: a temporary sibling, renamed over the target by [`Pending::commit`],
/// deleted if dropped uncommitted.
pub struct Pending {
    tmp: PathBuf,
    target: PathBuf,
    done: bool,
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
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let f =
            File::create(&tmp).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        Ok((
            Pending {
                tmp,
                target: target.to_path_buf(),
                done: false,
            },
            BufWriter::new(f),
        ))
    }

    pub fn commit(mut self, w: BufWriter<File>) -> Result<(), String> {
        let f = w
            .into_inner()
            .map_err(|e| format!("cannot write {}: {e}", self.target.display()))?;
        f.sync_all().ok();
        std::fs::rename(&self.tmp, &self.target)
            .map_err(|e| format!("cannot write {}: {e}", self.target.display()))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
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
            delay_cs: (100.0 / fps).round().max(2.0) as u16,
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

/// One flock in a sample: name, ids, positions, velocities.
pub type FlockSample = (String, Vec<u32>, Vec<Vec3>, Vec<Vec3>);

/// One sample of every flock.
pub struct Sample {
    pub step: u64,
    pub time: f32,
    pub flocks: Vec<FlockSample>,
}

impl Sample {
    pub fn take(world: &World, step: u64, time: f32) -> Sample {
        let flocks = world
            .flock_ids()
            .map(|id| {
                let f = world.flock(id).expect("live");
                (
                    f.name().to_owned(),
                    f.ids().to_vec(),
                    f.positions().to_vec(),
                    f.velocities().to_vec(),
                )
            })
            .collect();
        Sample { step, time, flocks }
    }
}

/// Trajectories as CSV: `step,time,flock,id,x,y,z,vx,vy,vz`.
pub fn write_csv(path: &Path, samples: &[Sample]) -> Result<(), String> {
    let (p, mut w) = Pending::create(path)?;
    let io = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    writeln!(w, "step,time,flock,id,x,y,z,vx,vy,vz").map_err(io)?;
    for s in samples {
        for (name, ids, pos, vel) in &s.flocks {
            for i in 0..ids.len() {
                let (q, v) = (pos[i], vel[i]);
                writeln!(
                    w,
                    "{},{},{},{},{},{},{},{},{},{}",
                    s.step, s.time, name, ids[i], q.x, q.y, q.z, v.x, v.y, v.z
                )
                .map_err(io)?;
            }
        }
    }
    p.commit(w)
}

/// Trajectories as JSON: `{"samples": [{"step", "time", "flocks": [{"name", "ids", "positions",
/// "velocities"}]}]}` with vectors as `[x, y, z]`.
pub fn write_json(path: &Path, samples: &[Sample]) -> Result<(), String> {
    let doc = serde_json::json!({
        "samples": samples.iter().map(|s| serde_json::json!({
            "step": s.step,
            "time": s.time,
            "flocks": s.flocks.iter().map(|(name, ids, pos, vel)| serde_json::json!({
                "name": name,
                "ids": ids,
                "positions": pos.iter().map(|v| v.to_array()).collect::<Vec<_>>(),
                "velocities": vel.iter().map(|v| v.to_array()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let (p, mut w) = Pending::create(path)?;
    serde_json::to_writer(&mut w, &doc)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    p.commit(w)
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

/// Metrics as CSV: `step,time,flock,boids,polarisation,mean_nearest_distance,groups,mean_speed`.
pub fn write_metrics_csv(path: &Path, rows: &[MetricsRow]) -> Result<(), String> {
    let (p, mut w) = Pending::create(path)?;
    let io = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    writeln!(
        w,
        "step,time,flock,boids,polarisation,mean_nearest_distance,groups,mean_speed"
    )
    .map_err(io)?;
    for r in rows {
        for (name, m) in &r.flocks {
            writeln!(
                w,
                "{},{},{},{},{},{},{},{}",
                r.step,
                r.time,
                name,
                m.count,
                m.polarisation,
                m.mean_nearest_distance,
                m.groups,
                m.mean_speed
            )
            .map_err(io)?;
        }
    }
    p.commit(w)
}

fn text(pm: &mut tiny_skia::Pixmap, x: i32, y: i32, s: &str, c: [u8; 3]) {
    let w = pm.width() as i32;
    let h = pm.height() as i32;
    let data = pm.data_mut();
    for (k, ch) in s.chars().enumerate() {
        let glyph = font8x8::legacy::BASIC_LEGACY
            .get(ch as usize)
            .copied()
            .unwrap_or([0; 8]);
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits >> col & 1 == 1 {
                    let (px, py) = (x + k as i32 * 8 + col, y + row as i32);
                    if px >= 0 && py >= 0 && px < w && py < h {
                        let i = ((py * w + px) * 4) as usize;
                        data[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
                    }
                }
            }
        }
    }
}

/// The four metrics over time as a PNG: one panel each, one line per flock.
pub fn write_metrics_png(path: &Path, rows: &[MetricsRow]) -> Result<(), String> {
    use tiny_skia::{Color, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};
    let (w, panel_h, pad) = (900u32, 170u32, 36.0f32);
    let h = panel_h * 4;
    let mut pm = Pixmap::new(w, h).expect("size");
    pm.fill(Color::from_rgba8(255, 255, 255, 255));
    let t_max = rows.last().map_or(1.0, |r| r.time).max(1e-6);
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
        ("number of groups", |m| m.groups as f32),
        ("mean speed", |m| m.mean_speed),
    ];
    for (k, (title, get)) in metrics.iter().enumerate() {
        let top = k as f32 * panel_h as f32;
        let (x0, x1, y0, y1) = (
            pad + 30.0,
            w as f32 - pad,
            top + 24.0,
            top + panel_h as f32 - 22.0,
        );
        let vmax = rows
            .iter()
            .flat_map(|r| r.flocks.iter().map(|f| get(&f.1)))
            .fold(0.0f32, f32::max)
            .max(1e-6)
            * 1.1;
        let mut frame = Paint::default();
        frame.set_color(Color::from_rgba8(200, 200, 200, 255));
        if let Some(r) = Rect::from_ltrb(x0, y0, x1, y1) {
            let path = PathBuilder::from_rect(r);
            pm.stroke_path(
                &path,
                &frame,
                &Stroke::default(),
                Transform::identity(),
                None,
            );
        }
        text(&mut pm, x0 as i32, top as i32 + 8, title, [30, 30, 30]);
        text(&mut pm, 4, y0 as i32, &format!("{vmax:.2}"), [90, 90, 90]);
        text(&mut pm, 4, y1 as i32 - 8, "0", [90, 90, 90]);
        text(
            &mut pm,
            x1 as i32 - 80,
            y1 as i32 + 6,
            &format!("t={t_max:.1}s"),
            [90, 90, 90],
        );
        for (fi, name) in names.iter().enumerate() {
            let c = crate::render::FLOCK_COLOURS[fi % crate::render::FLOCK_COLOURS.len()];
            let c = [c[0] / 4 * 3, c[1] / 4 * 3, c[2] / 4 * 3];
            let mut pb = PathBuilder::new();
            for (i, r) in rows.iter().enumerate() {
                let Some((_, m)) = r.flocks.iter().find(|f| &f.0 == name) else {
                    continue;
                };
                let x = x0 + (x1 - x0) * r.time / t_max;
                let y = y1 - (y1 - y0) * get(m) / vmax;
                if i == 0 {
                    pb.move_to(x, y)
                } else {
                    pb.line_to(x, y)
                }
            }
            if let Some(path) = pb.finish() {
                let mut p = Paint::default();
                p.set_color(Color::from_rgba8(c[0], c[1], c[2], 255));
                p.anti_alias = true;
                pm.stroke_path(
                    &path,
                    &p,
                    &Stroke {
                        width: 2.0,
                        ..Stroke::default()
                    },
                    Transform::identity(),
                    None,
                );
            }
            text(
                &mut pm,
                x1 as i32 - 8 * (name.len() as i32 + 1),
                y0 as i32 + 4 + 10 * fi as i32,
                name,
                c,
            );
        }
    }
    let bytes = pm.encode_png().map_err(|e| format!("PNG: {e}"))?;
    let (p, mut wtr) = Pending::create(path)?;
    wtr.write_all(&bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    p.commit(wtr)
}
