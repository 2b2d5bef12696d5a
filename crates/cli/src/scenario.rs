//! Scenario files (TOML) and the built-in scenarios: what `boids run` simulates.
//!
//! The schema, with every field, is in `docs/scenario.md`.

use boids_sim::builtin::default_school;
use boids_sim::{
    AlignmentMode, Bounds, Combine, FlockParams, IndexKind, Integrator, Obstacle,
    ObstacleAvoidance, PlaneLock, RelationKind, SeparationMode, Spawn, SpawnShape, Target, Vec3,
    World, WorldConfig,
};
use serde::Deserialize;

/// A whole scenario file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub seed: Option<u64>,
    pub steps: Option<u64>,
    pub dt: Option<f32>,
    pub threads: Option<usize>,
    pub observer: Option<[f32; 3]>,
    #[serde(default)]
    pub flock: Vec<FlockSpec>,
    #[serde(default)]
    pub obstacle: Vec<ObstacleSpec>,
    #[serde(default)]
    pub relation: Vec<RelationSpec>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RelationSpec {
    from: String,
    to: String,
    kind: String,
    radius: f32,
    weight: f32,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    points: Vec<[f32; 3]>,
    closed: Option<bool>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RegionSpec {
    min: [f32; 3],
    max: [f32; 3],
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlockSpec {
    pub name: String,
    pub preset: Option<String>,
    pub count: Option<usize>,
    pub params: Option<ParamsSpec>,
    pub bounds: Option<BoundsSpec>,
    pub target: Option<TargetSpec>,
    pub spawn: Option<SpawnSpec>,
    pub path: Option<PathSpec>,
    pub wake_region: Option<RegionSpec>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ParamsSpec {
    perception_radius: Option<f32>,
    field_of_view_deg: Option<f32>,
    separation_radius: Option<f32>,
    max_neighbours: Option<u32>,
    min_speed: Option<f32>,
    max_speed: Option<f32>,
    max_force: Option<f32>,
    max_turn_rate: Option<f32>,
    velocity_smoothing: Option<f32>,
    drive_factor: Option<f32>,
    separation: Option<String>,
    alignment: Option<String>,
    combine: Option<String>,
    integrator: Option<String>,
    plane: Option<String>,
    index: Option<String>,
    obstacle_avoidance: Option<String>,
    look_ahead: Option<f32>,
    boid_radius: Option<f32>,
    rule_probability: Option<f32>,
    speed_change_probability: Option<f32>,
    cohesion_smooth_time: Option<f32>,
    fallback_to_nearest: Option<bool>,
    target_needs_neighbours: Option<bool>,
    obstacle_overrides: Option<bool>,
    weights: Option<WeightsSpec>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct WeightsSpec {
    separation: Option<f32>,
    alignment: Option<f32>,
    cohesion: Option<f32>,
    target: Option<f32>,
    target_avoid: Option<f32>,
    bounds: Option<f32>,
    obstacles: Option<f32>,
    wander: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BoundsSpec {
    kind: String,
    min: Option<[f32; 3]>,
    max: Option<[f32; 3]>,
    distance: Option<f32>,
    centre: Option<[f32; 3]>,
    radius: Option<f32>,
    inner: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    point: [f32; 3],
    avoid_distance: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SpawnSpec {
    shape: Option<String>,
    min: Option<[f32; 3]>,
    max: Option<[f32; 3]>,
    centre: Option<[f32; 3]>,
    radius: Option<f32>,
    min_speed: Option<f32>,
    max_speed: Option<f32>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    kind: String,
    centre: Option<[f32; 3]>,
    radius: Option<f32>,
    min: Option<[f32; 3]>,
    max: Option<[f32; 3]>,
    point: Option<[f32; 3]>,
    normal: Option<[f32; 3]>,
}

/// What to run: a world, how many steps and how long each is.
pub struct Setup {
    pub world: World,
    pub steps: u64,
    pub dt: f32,
}

fn v(a: [f32; 3]) -> Vec3 {
    Vec3::from_array(a)
}

fn need<T>(x: Option<T>, what: &str) -> Result<T, String> {
    x.ok_or_else(|| format!("{what} is required"))
}

fn choose<T: Copy>(field: &str, value: &str, options: &[(&str, T)]) -> Result<T, String> {
    options
        .iter()
        .find(|(n, _)| *n == value)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            format!("{field} = \"{value}\" is not one of: {}", names.join(", "))
        })
}

impl ParamsSpec {
    fn apply(&self, p: &mut FlockParams) -> Result<(), String> {
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(x) = self.$f { p.$f = x; } )* };
        }
        set!(
            perception_radius,
            field_of_view_deg,
            separation_radius,
            max_neighbours,
            min_speed,
            max_speed,
            max_force,
            max_turn_rate,
            velocity_smoothing,
            drive_factor,
            look_ahead,
            boid_radius,
            rule_probability,
            speed_change_probability,
            cohesion_smooth_time,
            fallback_to_nearest,
            target_needs_neighbours,
            obstacle_overrides
        );
        if let Some(s) = &self.separation {
            p.separation = choose(
                "separation",
                s,
                &[
                    ("unit-mean", SeparationMode::UnitMean),
                    ("inverse-square", SeparationMode::InverseSquare),
                    ("mean-offset", SeparationMode::MeanOffset),
                    ("sum-offset", SeparationMode::SumOffset),
                ],
            )?;
        }
        if let Some(s) = &self.alignment {
            p.alignment = choose(
                "alignment",
                s,
                &[
                    ("velocity-difference", AlignmentMode::VelocityDifference),
                    ("mean-heading", AlignmentMode::MeanHeading),
                    ("mean-velocity", AlignmentMode::MeanVelocity),
                ],
            )?;
        }
        if let Some(s) = &self.combine {
            p.combine = choose(
                "combine",
                s,
                &[
                    ("weighted-sum", Combine::WeightedSum),
                    ("steer", Combine::Steer),
                    ("weighted-clamped", Combine::WeightedClamped),
                ],
            )?;
        }
        if let Some(s) = &self.integrator {
            p.integrator = choose(
                "integrator",
                s,
                &[
                    ("acceleration", Integrator::Acceleration),
                    ("velocity-blend", Integrator::VelocityBlend),
                    ("heading-speed", Integrator::HeadingSpeed),
                    ("kinematic", Integrator::Kinematic),
                ],
            )?;
        }
        if let Some(s) = &self.plane {
            p.plane = choose(
                "plane",
                s,
                &[
                    ("none", PlaneLock::None),
                    ("xy", PlaneLock::XY),
                    ("xz", PlaneLock::XZ),
                ],
            )?;
        }
        if let Some(s) = &self.index {
            p.index = choose(
                "index",
                s,
                &[
                    ("auto", IndexKind::Auto),
                    ("grid", IndexKind::Grid),
                    ("kd-tree", IndexKind::KdTree),
                    ("brute-force", IndexKind::BruteForce),
                ],
            )?;
        }
        if let Some(s) = &self.obstacle_avoidance {
            p.obstacle_avoidance = choose(
                "obstacle_avoidance",
                s,
                &[
                    ("none", ObstacleAvoidance::None),
                    ("reflect", ObstacleAvoidance::Reflect),
                    ("free-direction", ObstacleAvoidance::FreeDirection),
                ],
            )?;
        }
        if let Some(w) = &self.weights {
            macro_rules! setw {
                ($($f:ident),*) => { $( if let Some(x) = w.$f { p.weights.$f = x; } )* };
            }
            setw!(
                separation,
                alignment,
                cohesion,
                target,
                target_avoid,
                bounds,
                obstacles,
                wander
            );
        }
        Ok(())
    }
}

impl BoundsSpec {
    fn to_bounds(&self) -> Result<Bounds, String> {
        Ok(match self.kind.as_str() {
            "none" => Bounds::None,
            "soft-box" => Bounds::SoftBox {
                min: v(need(self.min, "bounds.min")?),
                max: v(need(self.max, "bounds.max")?),
                distance: self.distance.unwrap_or(3.0),
            },
            "soft-sphere" => Bounds::SoftSphere {
                centre: v(self.centre.unwrap_or([0.0; 3])),
                radius: need(self.radius, "bounds.radius")?,
                inner: self.inner.unwrap_or(0.9),
            },
            "wrap" => Bounds::Wrap {
                min: v(need(self.min, "bounds.min")?),
                max: v(need(self.max, "bounds.max")?),
            },
            "clamp" => Bounds::Clamp {
                min: v(need(self.min, "bounds.min")?),
                max: v(need(self.max, "bounds.max")?),
            },
            "turn-back" => Bounds::TurnBack {
                min: v(need(self.min, "bounds.min")?),
                max: v(need(self.max, "bounds.max")?),
            },
            k => {
                return Err(format!(
                    "bounds.kind = \"{k}\" is not one of: none, soft-box, soft-sphere, wrap, clamp, turn-back"
                ));
            }
        })
    }
}

impl SpawnSpec {
    fn to_spawn(&self) -> Result<Spawn, String> {
        let d = Spawn::default();
        let shape = match self.shape.as_deref().unwrap_or("box") {
            "box" => SpawnShape::Box {
                min: v(self.min.unwrap_or([-5.0; 3])),
                max: v(self.max.unwrap_or([5.0; 3])),
            },
            "sphere" => SpawnShape::Sphere {
                centre: v(self.centre.unwrap_or([0.0; 3])),
                radius: self.radius.unwrap_or(5.0),
            },
            "disc" => SpawnShape::Disc {
                centre: v(self.centre.unwrap_or([0.0; 3])),
                radius: self.radius.unwrap_or(5.0),
            },
            s => {
                return Err(format!(
                    "spawn.shape = \"{s}\" is not one of: box, sphere, disc"
                ));
            }
        };
        Ok(Spawn {
            shape,
            min_speed: self.min_speed.unwrap_or(d.min_speed),
            max_speed: self.max_speed.unwrap_or(d.max_speed),
            direction: None,
        })
    }
}

impl ObstacleSpec {
    fn to_obstacle(&self) -> Result<Obstacle, String> {
        Ok(match self.kind.as_str() {
            "sphere" => Obstacle::Sphere {
                centre: v(self.centre.unwrap_or([0.0; 3])),
                radius: need(self.radius, "obstacle.radius")?,
            },
            "box" => Obstacle::Box {
                min: v(need(self.min, "obstacle.min")?),
                max: v(need(self.max, "obstacle.max")?),
            },
            "plane" => Obstacle::Plane {
                point: v(self.point.unwrap_or([0.0; 3])),
                normal: v(need(self.normal, "obstacle.normal")?),
            },
            k => {
                return Err(format!(
                    "obstacle.kind = \"{k}\" is not one of: sphere, box, plane"
                ));
            }
        })
    }
}

/// Parses a scenario file's text; errors carry the line and column.
pub fn parse(text: &str, path: &str) -> Result<ScenarioFile, String> {
    toml::from_str::<ScenarioFile>(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| {
                let before = &text[..s.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{path}:{line}:{col}: ")
            })
            .unwrap_or_else(|| format!("{path}: "));
        format!("{at}{}", e.message())
    })
}

/// Builds the world a scenario file describes.
pub fn build(
    file: &ScenarioFile,
    seed_override: Option<u64>,
    threads: usize,
) -> Result<Setup, String> {
    let seed = seed_override.or(file.seed).unwrap_or(1);
    let mut world = World::new(WorldConfig {
        seed,
        threads: file.threads.unwrap_or(threads),
        ..WorldConfig::default()
    })
    .map_err(|e| e.to_string())?;
    if file.flock.is_empty() {
        return Err("the scenario has no [[flock]]".into());
    }
    for (i, f) in file.flock.iter().enumerate() {
        let ctx = |e: String| format!("flock {} ('{}'): {e}", i + 1, f.name);
        let id = match &f.preset {
            Some(p) => boids_sim::presets::create(&mut world, p, &f.name)
                .map_err(|e| ctx(e.to_string()))?,
            None => world
                .create_flock(&f.name, FlockParams::default())
                .map_err(|e| ctx(e.to_string()))?,
        };
        let mut params = *world.flock(id).expect("just created").params();
        if let Some(p) = &f.params {
            p.apply(&mut params).map_err(ctx)?;
        }
        if let Some(b) = &f.bounds {
            params.bounds = b.to_bounds().map_err(ctx)?;
        }
        if let Some(t) = &f.target {
            params.target = Some(Target {
                point: v(t.point),
                avoid_distance: t.avoid_distance.unwrap_or(0.0),
            });
        }
        world
            .set_params(id, params)
            .map_err(|e| ctx(e.to_string()))?;
        if let Some(t) = &f.target {
            world
                .set_target(id, v(t.point))
                .map_err(|e| ctx(e.to_string()))?;
        }
        let spawn = match &f.spawn {
            Some(s) => s.to_spawn().map_err(ctx)?,
            None => Spawn::default(),
        };
        let count = match (f.count, &f.preset) {
            (Some(n), _) => Some(n),
            (None, None) => Some(500),
            (None, Some(_)) => None,
        };
        if let Some(n) = count {
            if n == 0 {
                return Err(ctx("count must be at least 1".into()));
            }
            world
                .resize_flock(id, n, &spawn)
                .map_err(|e| ctx(e.to_string()))?;
        }
    }
    for f in &file.flock {
        let id = world.find_flock(&f.name).expect("created above");
        let ctx = |e: String| format!("flock '{}': {e}", f.name);
        if let Some(p) = &f.path {
            let pts: Vec<Vec3> = p.points.iter().map(|&a| v(a)).collect();
            world
                .set_path(id, &pts, p.closed.unwrap_or(false))
                .map_err(|e| ctx(e.to_string()))?;
        }
        if let Some(r) = &f.wake_region {
            world
                .set_wake_region(id, Some((v(r.min), v(r.max))))
                .map_err(|e| ctx(e.to_string()))?;
        }
    }
    for (i, r) in file.relation.iter().enumerate() {
        let ctx = |e: String| format!("relation {}: {e}", i + 1);
        let find = |name: &str| {
            world
                .find_flock(name)
                .ok_or_else(|| ctx(format!("no flock named '{name}'")))
        };
        let (from, to) = (find(&r.from)?, find(&r.to)?);
        let kind = choose(
            "kind",
            &r.kind,
            &[
                ("ignore", RelationKind::Ignore),
                ("flock-together", RelationKind::FlockTogether),
                ("avoid", RelationKind::Avoid),
                ("flee", RelationKind::Flee),
                ("chase", RelationKind::Chase),
            ],
        )
        .map_err(ctx)?;
        world
            .set_relation(from, to, kind, r.radius, r.weight)
            .map_err(|e| ctx(e.to_string()))?;
    }
    for (i, o) in file.obstacle.iter().enumerate() {
        let shape = o
            .to_obstacle()
            .map_err(|e| format!("obstacle {}: {e}", i + 1))?;
        world
            .add_obstacle(shape)
            .map_err(|e| format!("obstacle {}: {e}", i + 1))?;
    }
    if let Some(o) = file.observer {
        world.set_observer(Some(v(o))).map_err(|e| e.to_string())?;
    }
    let dt = file.dt.unwrap_or(1.0 / 60.0);
    Ok(Setup {
        world,
        steps: file.steps.unwrap_or(600),
        dt,
    })
}

/// The built-in 3-D school of `boids run` with no scenario.
pub fn default_setup(boids: usize, seed: u64, threads: usize) -> Result<Setup, String> {
    if boids == 0 {
        return Err("--boids must be at least 1".into());
    }
    let (world, _) = default_school(boids, seed, threads).map_err(|e| e.to_string())?;
    Ok(Setup {
        world,
        steps: 600,
        dt: 1.0 / 60.0,
    })
}

/// A preset in a world of its own.
pub fn preset_setup(name: &str, seed: u64, threads: usize) -> Result<Setup, String> {
    let mut world = World::new(WorldConfig {
        seed,
        threads,
        ..WorldConfig::default()
    })
    .map_err(|e| e.to_string())?;
    boids_sim::presets::create(&mut world, name, name).map_err(|e| e.to_string())?;
    Ok(Setup {
        world,
        steps: 600,
        dt: 1.0 / 60.0,
    })
}
