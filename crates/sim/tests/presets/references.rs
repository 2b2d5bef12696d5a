//! The five tutorials' updates, written from the equations of `shared/design/seed-models.md`:
//! brute force over all pairs, double-buffered, nothing shared with the engine's rule code.

use super::*;
use boids_core::fmath::{Extremes, Order};

// ----------------------------------------------------------------------------------------------
// fish-tank (the Unity fish-school script)

pub(super) fn ref000(bs: &[B], lo: Vec3, hi: Vec3) -> Vec<B> {
    let cos = 90f32.to_radians().cos();
    bs.iter()
        .enumerate()
        .map(|(i, b)| {
            let (mut n, mut sep, mut vel, mut pos) = (0.0f32, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
            for (j, o) in bs.iter().enumerate() {
                let d = o.p - b.p;
                if i == j || d.length() >= 1.0 || unit(b.v).dot(unit(d)) <= cos {
                    continue;
                }
                n += 1.0;
                sep += unit(b.p - o.p);
                vel += o.v;
                pos += o.p;
            }
            let mut a = Vec3::ZERO;
            if n > 0.0 {
                a += 5.0 * sep / n + 2.0 * (vel / n - b.v) + 3.0 * (pos / n - b.p);
            }
            for k in 0..3 {
                let (dl, dh) = (b.p[k] - lo[k], hi[k] - b.p[k]);
                if dl < 3.0 {
                    a[k] += 1.0 / (dl / 3.0).abs();
                }
                if dh < 3.0 {
                    a[k] -= 1.0 / (dh / 3.0).abs();
                }
            }
            let v = b.v + a * DT;
            let v = unit(v) * v.length().clamp(2.0, 5.0);
            B {
                p: b.p + v * DT,
                v,
                f: unit(v),
                ..*b
            }
        })
        .collect()
}

// ----------------------------------------------------------------------------------------------
// goal-swarm (Unity Learn's Flocking), with the goal fixed and the probabilities at 0 or 1 (`rules`).

pub(super) fn ref001(bs: &[B], goal: Vec3, rules: bool, obstacles: &[(Vec3, f32)]) -> Vec<B> {
    let (half, dist, turn) = (5.0f32, 3.0f32, 2.0f32);
    bs.iter()
        .enumerate()
        .map(|(i, b)| {
            let mut speed = b.v.length();
            let mut q = b.q;
            let f = q * Vec3::Z;
            let inside = b.p.abs().largest() <= half;
            let mut dir = None;
            if !inside {
                dir = Some(-b.p);
            } else if let Some(n) = ray_spheres(b.p, f, obstacles) {
                dir = Some(f - 2.0 * f.dot(n) * n);
            } else if rules {
                let (mut centre, mut avoid, mut gs, mut count) =
                    (Vec3::ZERO, Vec3::ZERO, 0.01f32, 0);
                for (j, o) in bs.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let d = (o.p - b.p).length();
                    if d < dist {
                        centre += o.p;
                        count += 1;
                        if d < 1.0 {
                            avoid += b.p - o.p;
                        }
                        gs += o.v.length();
                    }
                }
                if count > 0 {
                    centre = centre / count as f32 + (goal - b.p);
                    speed = gs / count as f32;
                    let d = (centre + avoid) - b.p;
                    if d != Vec3::ZERO {
                        dir = Some(d);
                    }
                }
            }
            if let Some(d) = dir {
                q = q.slerp(look(d), (turn * DT).at_most(1.0)).normalize();
            }
            let f = q * Vec3::Z;
            B {
                p: b.p + f * speed * DT,
                v: f * speed,
                f,
                q,
                ..*b
            }
        })
        .collect()
}

/// Normal of the first sphere the unlimited ray from `o` along `d` hits (not starting inside).
pub(super) fn ray_spheres(o: Vec3, d: Vec3, spheres: &[(Vec3, f32)]) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for &(c, r) in spheres {
        let m = o - c;
        let (b, cc) = (m.dot(d), m.length_squared() - r * r);
        if cc <= 0.0 || b > 0.0 || b * b - cc < 0.0 {
            continue;
        }
        let t = -b - (b * b - cc).sqrt();
        if best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, unit(o + d * t - c)));
        }
    }
    best.map(|(_, n)| n)
}

// ----------------------------------------------------------------------------------------------
// target-flock (Introduction to Game Design, Prototyping and Development)

pub(super) fn ref002(bs: &[B], target: Vec3) -> Vec<B> {
    bs.iter()
        .enumerate()
        .map(|(i, b)| {
            let mut near = vec![];
            let mut risks = vec![];
            let mut closest: Option<(f32, usize)> = None;
            for (j, o) in bs.iter().enumerate() {
                if i == j {
                    continue;
                }
                let d = (o.p - b.p).length();
                if closest.is_none_or(|(cd, _)| d < cd) {
                    closest = Some((d, j));
                }
                if d < 30.0 {
                    near.push(j);
                }
                if d < 5.0 {
                    risks.push(j);
                }
            }
            if near.is_empty() {
                near.extend(closest.map(|c| c.1));
            }
            let mut nv = b.v;
            if !near.is_empty() {
                let n = near.len() as f32;
                let avg_v = near.iter().map(|&j| bs[j].v).sum::<Vec3>() / n;
                let avg_p = near.iter().map(|&j| bs[j].p).sum::<Vec3>() / n;
                nv += avg_v * 0.01 + (avg_p - b.p) * 0.15;
            }
            if !risks.is_empty() {
                let avg = risks.iter().map(|&j| bs[j].p).sum::<Vec3>() / risks.len() as f32;
                nv += (avg - b.p) * -0.5;
            }
            let d = target - b.p;
            if d.length() > 15.0 {
                nv += d * 0.01;
            } else {
                nv -= unit(d) * 0.75;
            }
            let mut v = 0.75 * b.v + 0.25 * nv;
            if v.length() > 30.0 {
                v = unit(v) * 30.0;
            }
            B {
                p: b.p + v * DT,
                v,
                f: if v == Vec3::ZERO { b.f } else { unit(v) },
                ..*b
            }
        })
        .collect()
}

// ----------------------------------------------------------------------------------------------
// steering-obstacles (the Unity 3D AI bird and fish flocking): planes as (point, normal), spheres as (centre, radius).

pub(super) fn sphere_cast(
    o: Vec3,
    d: Vec3,
    planes: &[(Vec3, Vec3)],
    spheres: &[(Vec3, f32)],
) -> bool {
    let (r, len) = (0.27f32, 5.0f32);
    for &(c, rad) in spheres {
        let rr = rad + r;
        let m = o - c;
        let (b, cc) = (m.dot(d), m.length_squared() - rr * rr);
        if cc > 0.0 && b <= 0.0 && b * b - cc >= 0.0 && -b - (b * b - cc).sqrt() <= len {
            return true;
        }
    }
    for &(p, n) in planes {
        let p = p + n * r;
        let side = (o - p).dot(n);
        let den = d.dot(n);
        if side > 0.0 && den < 0.0 && (p - o).dot(n) / den <= len {
            return true;
        }
    }
    false
}

pub(super) fn ref003(bs: &[B], planes: &[(Vec3, Vec3)], spheres: &[(Vec3, f32)]) -> Vec<B> {
    let (vmin, vmax, force) = (2.0f32, 5.0f32, 3.0f32);
    let steer = |x: Vec3, v: Vec3| clamp_len(unit(x) * vmax - v, force);
    let phi = (1.0 + 5f32.sqrt()) / 2.0;
    let dirs: Vec<Vec3> = (0..300)
        .map(|k| {
            let t = k as f32 / 300.0;
            let (inc, az) = (
                (1.0 - 2.0 * t).acos(),
                std::f32::consts::TAU * phi * k as f32,
            );
            Vec3::new(inc.sin() * az.cos(), inc.sin() * az.sin(), inc.cos())
        })
        .collect();
    bs.iter()
        .enumerate()
        .map(|(i, b)| {
            let (mut n, mut heading, mut centre, mut sep) = (0, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
            for (j, o) in bs.iter().enumerate() {
                let off = o.p - b.p;
                let d2 = off.length_squared();
                if i == j || d2 >= 2.5 * 2.5 {
                    continue;
                }
                n += 1;
                heading += o.f;
                centre += o.p;
                if d2 < 1.0 && d2 > 0.0 {
                    sep -= off / d2;
                }
            }
            let mut a = Vec3::ZERO;
            if n > 0 {
                let c = centre / n as f32 - b.p;
                a += steer(heading, b.v) + steer(c, b.v) + steer(sep, b.v);
            }
            if sphere_cast(b.p, b.f, planes, spheres) {
                let rot = look(b.f);
                let free = dirs
                    .iter()
                    .map(|&d| rot * d)
                    .find(|&d| !sphere_cast(b.p, unit(d), planes, spheres))
                    .unwrap_or(b.f);
                a += steer(free, b.v) * 10.0;
            }
            let v = b.v + a * DT;
            let dir = if v == Vec3::ZERO { b.f } else { unit(v) };
            let v = dir * v.length().clamp(vmin, vmax);
            B {
                p: b.p + v * DT,
                v,
                f: dir,
                ..*b
            }
        })
        .collect()
}

// ----------------------------------------------------------------------------------------------
// flock-2d (the Advanced Game Programming flock simulation): weights avoidance 2, alignment 1, steered cohesion 4, stay in radius 0.1.

pub(super) fn smooth_damp(cur: Vec3, target: Vec3, vel: &mut Vec3, t: f32, dt: f32) -> Vec3 {
    let omega = 2.0 / t;
    let x = omega * dt;
    let e = 1.0 / (1.0 + x + 0.48 * x * x + 0.235 * x * x * x);
    let change = cur - target;
    let temp = (*vel + omega * change) * dt;
    *vel = (*vel - omega * temp) * e;
    let mut out = target + (change + temp) * e;
    if (target - cur).dot(out - target) > 0.0 {
        out = target;
        *vel = (out - target) / dt;
    }
    out
}

pub(super) fn ref004(bs: &[B]) -> Vec<B> {
    bs.iter()
        .enumerate()
        .map(|(i, b)| {
            let ctx: Vec<usize> = (0..bs.len())
                .filter(|&j| j != i && (bs[j].p - b.p).length() < 1.5)
                .collect();
            let mut damp = b.damp;
            let avoid = {
                let close: Vec<usize> = ctx
                    .iter()
                    .copied()
                    .filter(|&j| (bs[j].p - b.p).length_squared() < 0.75 * 0.75)
                    .collect();
                if close.is_empty() {
                    Vec3::ZERO
                } else {
                    close.iter().map(|&j| b.p - bs[j].p).sum::<Vec3>() / close.len() as f32
                }
            };
            let align = if ctx.is_empty() {
                b.f
            } else {
                ctx.iter().map(|&j| bs[j].f).sum::<Vec3>() / ctx.len() as f32
            };
            let cohesion = if ctx.is_empty() {
                Vec3::ZERO
            } else {
                let c = ctx.iter().map(|&j| bs[j].p).sum::<Vec3>() / ctx.len() as f32 - b.p;
                smooth_damp(b.f, c, &mut damp, 0.5, DT)
            };
            let stay = {
                let o = -b.p;
                let t = o.length() / 15.0;
                if t < 0.9 { Vec3::ZERO } else { o * t * t }
            };
            let mut mv = Vec3::ZERO;
            for (m, w) in [(avoid, 2.0f32), (align, 1.0), (cohesion, 4.0), (stay, 0.1)] {
                let part = m * w;
                if part.length_squared() >= 1e-10 {
                    mv += clamp_len(part, w);
                }
            }
            let mv = clamp_len(mv * 10.0, 5.0);
            let f = if mv == Vec3::ZERO { b.f } else { unit(mv) };
            B {
                p: b.p + mv * DT,
                v: mv,
                f,
                damp,
                ..*b
            }
        })
        .collect()
}
