//! Pictures of a world: a projection (top-down or perspective), frames drawn with tiny-skia, an
//! animated GIF (gif crate, fixed palette) and single PNG frames with motion trails.

use boids_sim::{Bounds, FlockId, Placed, PlaneLock, Vec3, World};
use boids_sim::{Extremes, Order};
use std::cell::OnceCell;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// How 3-D positions become pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Projection {
    /// Looking straight down (onto XZ; onto XY for flocks locked to the XY plane).
    Top,
    /// A camera above and to the side, with depth.
    Perspective,
}

pub const BACKGROUND: [u8; 3] = [11, 29, 46];
pub const OBSTACLE: [u8; 3] = [96, 125, 139];
pub const FLOCK_COLOURS: [[u8; 3]; 6] = [
    [255, 176, 0],
    [79, 195, 247],
    [255, 82, 82],
    [156, 204, 101],
    [206, 147, 216],
    [240, 240, 240],
];

/// A fixed camera for a whole run.
pub struct Camera {
    projection: Projection,
    xy: bool,
    centre: Vec3,
    half: f32,
    width: u32,
    height: u32,
    eye: Vec3,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
    /// The obstacles drawn once (a run's obstacles do not move).
    background: OnceCell<Pixmap>,
}

impl Camera {
    /// Frames every flock's bounds (or, without bounds, its boids) and the obstacles.
    pub fn fit(world: &World, projection: Projection, width: u32, height: u32) -> Camera {
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        let mut grow = |a: Vec3, b: Vec3| {
            lo = lo.at_most(a);
            hi = hi.at_least(b);
        };
        let mut xy = true;
        for id in world.flock_ids() {
            let f = world.flock(id).expect("live");
            xy &= f.params().plane == PlaneLock::XY;
            match f.params().bounds {
                Bounds::SoftBox { min, max, .. }
                | Bounds::Wrap { min, max }
                | Bounds::Clamp { min, max }
                | Bounds::TurnBack { min, max } => grow(min, max),
                Bounds::SoftSphere { centre, radius, .. } => {
                    grow(centre - Vec3::splat(radius), centre + Vec3::splat(radius))
                }
                Bounds::None => {
                    for &p in f.positions() {
                        grow(p, p);
                    }
                }
            }
        }
        for o in world.placed_obstacles() {
            match o {
                Placed::Ball { centre, radius } => grow(
                    *centre - Vec3::splat(*radius),
                    *centre + Vec3::splat(*radius),
                ),
                Placed::Capsule { a, b, radius } => grow(
                    a.at_most(*b) - Vec3::splat(*radius),
                    a.at_least(*b) + Vec3::splat(*radius),
                ),
                Placed::Mesh { place, .. } => grow(place.bounds.lo, place.bounds.hi),
                // Boxes and planes are walls and rooms: the flocks' bounds frame them.
                Placed::Box { .. } | Placed::Plane { .. } => {}
            }
        }
        if !lo.is_finite() || !hi.is_finite() {
            lo = Vec3::splat(-10.0);
            hi = Vec3::splat(10.0);
        }
        let centre = (lo + hi) * 0.5;
        let half = ((hi - lo).largest() * 0.5).at_least(1.0) * 1.08;
        let forward = Vec3::new(-1.0, -0.9, -1.4).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        Camera {
            projection,
            xy,
            centre,
            half,
            width,
            height,
            eye: centre - forward * half * 3.2,
            right,
            up,
            forward,
            background: OnceCell::new(),
        }
    }

    /// Pixel position and a size factor (1 at the centre's depth), or None behind the camera.
    pub fn project(&self, p: Vec3) -> Option<(f32, f32, f32)> {
        let s = self.width.min(self.height) as f32 * 0.5;
        let (cx, cy) = (self.width as f32 * 0.5, self.height as f32 * 0.5);
        match self.projection {
            Projection::Top => {
                let d = p - self.centre;
                let (u, v) = if self.xy { (d.x, -d.y) } else { (d.x, d.z) };
                Some((cx + u / self.half * s, cy + v / self.half * s, 1.0))
            }
            Projection::Perspective => {
                let d = p - self.eye;
                let z = d.dot(self.forward);
                if z <= 0.01 {
                    return None;
                }
                let f = 3.2 * self.half / z;
                let u = d.dot(self.right) * f / self.half;
                let v = -d.dot(self.up) * f / self.half;
                Some((cx + u * s * 1.25, cy + v * s * 1.25, f))
            }
        }
    }
}

fn colour(c: [u8; 3], alpha: u8) -> Color {
    Color::from_rgba8(c[0], c[1], c[2], alpha)
}

fn paint(c: [u8; 3], alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(colour(c, alpha));
    p.anti_alias = true;
    p
}

/// Draws the obstacles and every flock (boids as short strokes along their heading). `trails`,
/// if given, holds earlier positions per flock (oldest first) to draw fading.
/// Earlier positions of each flock's boids, oldest first.
pub type Trails = Vec<(FlockId, Vec<Vec<Vec3>>)>;

pub fn draw(world: &World, cam: &Camera, trails: Option<&Trails>) -> Pixmap {
    let mut pm = cam
        .background
        .get_or_init(|| obstacle_layer(world, cam))
        .clone();
    for (k, id) in world.flock_ids().enumerate() {
        let f = world.flock(id).expect("live");
        let c = FLOCK_COLOURS[k % FLOCK_COLOURS.len()];
        if let Some(tr) = trails.and_then(|t| t.iter().find(|(i, _)| *i == id)) {
            let frames = &tr.1;
            for (age, pos) in frames.iter().enumerate() {
                let alpha = (40.0 + 140.0 * (age as f32 + 1.0) / frames.len() as f32) as u8;
                let mut pb = PathBuilder::new();
                for &p in pos {
                    if let Some((x, y, _)) = cam.project(p) {
                        pb.push_rect(
                            tiny_skia::Rect::from_xywh(x - 0.5, y - 0.5, 1.0, 1.0).expect("finite"),
                        );
                    }
                }
                if let Some(path) = pb.finish() {
                    pm.fill_path(
                        &path,
                        &paint(c, alpha),
                        FillRule::Winding,
                        Transform::identity(),
                        None,
                    );
                }
            }
        }
        let mut pb = PathBuilder::new();
        // A few boids (a predator, a leader) are drawn larger than a school's.
        let big = if f.len() < 10 { 3.0 } else { 1.0 };
        let len = (cam.half * 0.018).at_least(0.05) * big;
        for (i, &p) in f.positions().iter().enumerate() {
            let h = f.headings()[i];
            if let (Some((x0, y0, s)), Some((x1, y1, _))) =
                (cam.project(p - h * len), cam.project(p + h * len))
            {
                let (dx, dy) = (x1 - x0, y1 - y0);
                let min_len = 2.0 * s.clamp(0.5, 2.0);
                let l = (dx * dx + dy * dy).sqrt();
                let (ex, ey) = if l < min_len && l > 0.0 {
                    (x0 + dx / l * min_len, y0 + dy / l * min_len)
                } else if l == 0.0 {
                    (x0 + 1.0, y0)
                } else {
                    (x1, y1)
                };
                pb.move_to(x0, y0);
                pb.line_to(ex, ey);
            }
        }
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width: 1.6 * big,
                line_cap: tiny_skia::LineCap::Round,
                ..Stroke::default()
            };
            pm.stroke_path(&path, &paint(c, 255), &stroke, Transform::identity(), None);
        }
    }
    pm
}

/// The shade of an obstacle face lit at `light` (0 = facing away, 1 = facing the light).
fn shade(light: f32) -> [u8; 3] {
    let t = 0.45 + 0.75 * light.clamp(0.0, 1.0);
    OBSTACLE.map(|c| (c as f32 * t).round().at_most(255.0) as u8)
}

/// Shades of obstacle faces in the palette.
const SHADES: usize = 8;

/// The obstacles: balls as discs, capsules as thick strokes, boxes, meshes and heightfields as
/// triangles lit from above, drawn back to front.
fn obstacle_layer(world: &World, cam: &Camera) -> Pixmap {
    let mut pm = Pixmap::new(cam.width, cam.height).expect("non-zero size");
    pm.fill(colour(BACKGROUND, 255));
    let light = Vec3::new(0.3, 1.0, 0.45).normalize();
    // Every triangle of every box, mesh and heightfield: depth, its three points, its shade.
    let mut tris: Vec<(f32, [Vec3; 3], u8)> = Vec::new();
    let mut push = |a: Vec3, b: Vec3, c: Vec3| {
        let n = (b - a).cross(c - a).normalize_or_zero();
        let lit = n.dot(light).abs();
        let depth = match cam.projection {
            Projection::Top if cam.xy => -(a.z + b.z + c.z),
            Projection::Top => -(a.y + b.y + c.y),
            Projection::Perspective => ((a + b + c) / 3.0 - cam.eye).dot(cam.forward),
        };
        tris.push((depth, [a, b, c], (lit * (SHADES - 1) as f32).round() as u8));
    };
    let mut discs = PathBuilder::new();
    let mut sticks = Vec::new();
    for o in world.placed_obstacles() {
        match o {
            Placed::Ball { centre, radius } => {
                if let (Some((x, y, f)), Some((x2, _, _))) = (
                    cam.project(*centre),
                    cam.project(*centre + cam.right * *radius),
                ) {
                    let r = ((x2 - x).abs()).at_least(radius * f);
                    discs.push_circle(x, y, r.at_least(1.0));
                }
            }
            Placed::Capsule { a, b, radius } => sticks.push((*a, *b, *radius)),
            Placed::Box { .. } | Placed::Mesh { .. } => o.for_each_triangle(&mut push),
            Placed::Plane { .. } => {}
        }
    }
    tris.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, [a, b, c], lit) in &tris {
        let (Some(pa), Some(pb_), Some(pc)) = (cam.project(*a), cam.project(*b), cam.project(*c))
        else {
            continue;
        };
        let mut pb = PathBuilder::new();
        pb.move_to(pa.0, pa.1);
        pb.line_to(pb_.0, pb_.1);
        pb.line_to(pc.0, pc.1);
        pb.close();
        if let Some(path) = pb.finish() {
            let c = shade(f32::from(*lit) / (SHADES - 1) as f32);
            let mut p = paint(c, 255);
            // Edges of neighbouring triangles would show the background through seams.
            p.anti_alias = false;
            pm.fill_path(&path, &p, FillRule::Winding, Transform::identity(), None);
        }
    }
    if let Some(path) = discs.finish() {
        pm.fill_path(
            &path,
            &paint(OBSTACLE, 255),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    for (a, b, r) in sticks {
        if let (Some((x0, y0, f)), Some((x1, y1, _)), Some((xr, _, _))) = (
            cam.project(a),
            cam.project(b),
            cam.project(a + cam.right * r),
        ) {
            let mut pb = PathBuilder::new();
            pb.move_to(x0, y0);
            pb.line_to(x1, y1);
            if let Some(path) = pb.finish() {
                let stroke = Stroke {
                    width: (2.0 * (xr - x0).abs()).at_least(2.0 * r * f).at_least(1.0),
                    line_cap: tiny_skia::LineCap::Round,
                    ..Stroke::default()
                };
                pm.stroke_path(
                    &path,
                    &paint(OBSTACLE, 255),
                    &stroke,
                    Transform::identity(),
                    None,
                );
            }
        }
    }
    pm
}

/// The GIF palette: background, obstacle (and its shades), each flock colour, and blends of
/// each toward the background (so anti-aliased edges map to something close).
pub fn palette() -> Vec<[u8; 3]> {
    let mut p = vec![BACKGROUND, OBSTACLE];
    for k in 0..SHADES {
        p.push(shade(k as f32 / (SHADES - 1) as f32));
    }
    for c in FLOCK_COLOURS {
        for t in [1.0f32, 0.66, 0.4, 0.2] {
            let mix = |a: u8, b: u8| (a as f32 * t + b as f32 * (1.0 - t)).round() as u8;
            p.push([
                mix(c[0], BACKGROUND[0]),
                mix(c[1], BACKGROUND[1]),
                mix(c[2], BACKGROUND[2]),
            ]);
        }
    }
    p
}

/// Maps a frame onto the fixed palette (nearest colour).
pub fn indexed(pm: &Pixmap, pal: &[[u8; 3]]) -> Vec<u8> {
    let mut cache = std::collections::HashMap::new();
    pm.pixels()
        .iter()
        .map(|px| {
            let c = px.demultiply();
            let key = (c.red(), c.green(), c.blue());
            *cache.entry(key).or_insert_with(|| {
                let d = |p: &[u8; 3]| {
                    let (r, g, b) = (
                        p[0] as i32 - key.0 as i32,
                        p[1] as i32 - key.1 as i32,
                        p[2] as i32 - key.2 as i32,
                    );
                    r * r + g * g + b * b
                };
                (0..pal.len()).min_by_key(|&i| d(&pal[i])).unwrap_or(0) as u8
            })
        })
        .collect()
}
