//! Flock parameters: one generic model whose settings reproduce each of the seed tutorials.

use crate::limits::{self, MAX_MAGNITUDE};
use glam::Vec3;
use std::fmt;

crate::c_enum! {
    /// How separation is measured from the neighbours within the separation radius.
    pub enum SeparationMode: "separation mode", "BOIDS_SEPARATION_", "SeparationMode" {
        /// Mean of the unit vectors pointing away from each neighbour (fish-tank).
        UnitMean = 0, "unit-mean", "UNIT_MEAN",
        /// Sum of `-o / |o|²` over the offsets `o` to each neighbour (steering-obstacles); exactly coincident pairs are skipped.
        InverseSquare = 1, "inverse-square", "INVERSE_SQUARE",
        /// Mean of `-o` (target-flock, flock-2d).
        MeanOffset = 2, "mean-offset", "MEAN_OFFSET",
        /// Sum of `-o` (goal-swarm).
        SumOffset = 3, "sum-offset", "SUM_OFFSET",
    }
}

crate::c_enum! {
    /// How alignment is measured.
    pub enum AlignmentMode: "alignment mode", "BOIDS_ALIGNMENT_", "AlignmentMode" {
        /// `mean v_j - v_i` (fish-tank).
        VelocityDifference = 0, "velocity-difference", "VELOCITY_DIFFERENCE",
        /// Mean of the neighbours' headings; a boid alone uses its own heading (steering-obstacles, flock-2d).
        MeanHeading = 1, "mean-heading", "MEAN_HEADING",
        /// `mean v_j` (target-flock).
        MeanVelocity = 2, "mean-velocity", "MEAN_VELOCITY",
        /// No turning: the scalar speed becomes `(0.01 + Σ |v_j|) / n` (goal-swarm's group speed; heading-speed integrator only).
        GroupSpeed = 3, "group-speed", "GROUP_SPEED",
    }
}

crate::c_enum! {
    /// How the rule outputs combine into one steering vector.
    pub enum Combine: "combine mode", "BOIDS_COMBINE_", "Combine" {
        /// `Σ w_k m_k`.
        WeightedSum = 0, "weighted-sum", "WEIGHTED_SUM",
        /// Reynolds steering: `Σ w_k clampLength(m̂_k · max_speed - v, max_force)` (steering-obstacles); the neighbour rules apply only when the boid has neighbours.
        Steer = 1, "steer", "STEER",
        /// `Σ clampLength(w_k m_k, w_k)`, parts shorter than 1e-5 dropped, then times `drive_factor` (flock-2d).
        WeightedClamped = 2, "weighted-clamped", "WEIGHTED_CLAMPED",
    }
}

crate::c_enum! {
    /// How the combined steering vector changes the state.
    pub enum Integrator: "integrator", "BOIDS_INTEGRATOR_", "Integrator" {
        /// `v += a dt`, speed clamped to `[min_speed, max_speed]`, `p += v dt` (fish-tank, steering-obstacles).
        Acceleration = 0, "acceleration", "ACCELERATION",
        /// `v += velocity_smoothing · a`, then `|v| > max → max`, then `0 < |v| < min → min`, `p += v dt` (target-flock).
        VelocityBlend = 1, "velocity-blend", "VELOCITY_BLEND",
        /// The heading turns toward `a` by at most `max_turn_rate · dt` of a slerp, the scalar speed is kept, `p += heading · speed · dt` (goal-swarm).
        HeadingSpeed = 2, "heading-speed", "HEADING_SPEED",
        /// The steering output is the velocity, clamped to `max_speed`; `p += v dt` (flock-2d).
        Kinematic = 3, "kinematic", "KINEMATIC",
    }
}

crate::c_enum! {
    /// The kind of a flock's [`Bounds`].
    pub enum BoundsKind: "bounds kind", "BOIDS_BOUNDS_", "BoundsKind" {
        /// No bounds.
        None = 0, "none", "NONE",
        /// Soft box walls (`min`, `max`, `distance`).
        SoftBox = 1, "soft-box", "SOFT_BOX",
        /// Soft sphere or circle (`centre`, `radius`, `inner`).
        SoftSphere = 2, "soft-sphere", "SOFT_SPHERE",
        /// Periodic box (`min`, `max`).
        Wrap = 3, "wrap", "WRAP",
        /// Hard box, positions clamped (`min`, `max`).
        Clamp = 4, "clamp", "CLAMP",
        /// Outside the box (`min`, `max`) turn toward its centre, ignoring every other rule.
        TurnBack = 5, "turn-back", "TURN_BACK",
    }
}

/// Values a scene file may leave out.
#[cfg(feature = "serde")]
mod serde_defaults {
    pub fn wall_distance() -> f32 {
        3.0
    }
    pub fn inner() -> f32 {
        0.9
    }
    pub fn max_slope() -> f32 {
        45.0
    }
    pub fn step_height() -> f32 {
        0.5
    }
}

/// The space a flock lives in, and how it is kept there.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)
)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bounds {
    /// No bounds.
    None,
    /// Six walls of an axis-aligned box; within `distance` of a wall a boid is pushed inward by
    /// `weight / max(|d / distance|, 1e-6)` (fish-tank, with the sign defect corrected). The push
    /// also applies outside the box, so an escaped boid comes back.
    SoftBox {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
        /// Distance from a wall at which the push starts (3 when a scene file leaves it out).
        #[cfg_attr(feature = "serde", serde(default = "serde_defaults::wall_distance"))]
        distance: f32,
    },
    /// A sphere (a circle under a plane lock): with `t = |c - p| / radius`, no push while
    /// `t < inner`, else `(c - p) t²` (the flock-2d preset's stay-in-radius, `inner` = 0.9).
    SoftSphere {
        /// Centre (the origin when a scene file leaves it out).
        #[cfg_attr(feature = "serde", serde(default))]
        centre: Vec3,
        /// Radius.
        radius: f32,
        /// Fraction of the radius at which the push starts (0.9 when a scene file leaves it
        /// out).
        #[cfg_attr(feature = "serde", serde(default = "serde_defaults::inner"))]
        inner: f32,
    },
    /// Periodic box: leaving one face re-enters at the opposite one; neighbours are found across
    /// faces (minimal image).
    Wrap {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
    },
    /// Outside the box the boid turns toward its centre and ignores every other rule (goal-swarm).
    TurnBack {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
    },
    /// Hard box: positions are clamped and the outward velocity component is reflected.
    Clamp {
        /// Minimum corner.
        min: Vec3,
        /// Maximum corner.
        max: Vec3,
    },
}

crate::c_enum! {
    /// Locks motion to a plane through the origin, giving the 2-D models.
    pub enum PlaneLock: "plane lock", "BOIDS_PLANE_", "PlaneLock" {
        /// Full 3-D motion.
        None = 0, "none", "NONE",
        /// Motion in the XY plane (z = 0), as Unity 2-D.
        XY = 1, "xy", "XY",
        /// Motion in the XZ plane (y = 0), a ground plane.
        XZ = 2, "xz", "XZ",
    }
}

crate::c_enum! {
    /// How a boid avoids obstacles it sees ahead (a look-ahead ray or swept sphere along its heading).
    pub enum ObstacleAvoidance: "obstacle avoidance", "BOIDS_OBSTACLES_", "ObstacleAvoidance" {
        /// Obstacles are ignored.
        None = 0, "none", "IGNORE",
        /// Steer toward the heading reflected about the hit surface (goal-swarm).
        Reflect = 1, "reflect", "REFLECT",
        /// Try 300 directions on a golden spiral around the heading, nearest first, and steer toward the first one whose look-ahead is clear (steering-obstacles).
        FreeDirection = 2, "free-direction", "FREE_DIRECTION",
    }
}

impl Bounds {
    /// Which kind of bounds.
    pub fn kind(&self) -> BoundsKind {
        match self {
            Bounds::None => BoundsKind::None,
            Bounds::SoftBox { .. } => BoundsKind::SoftBox,
            Bounds::SoftSphere { .. } => BoundsKind::SoftSphere,
            Bounds::Wrap { .. } => BoundsKind::Wrap,
            Bounds::Clamp { .. } => BoundsKind::Clamp,
            Bounds::TurnBack { .. } => BoundsKind::TurnBack,
        }
    }
}

impl PlaneLock {
    /// `v` with the locked coordinate set to 0.
    #[inline]
    pub fn apply(self, v: Vec3) -> Vec3 {
        match self {
            PlaneLock::None => v,
            PlaneLock::XY => Vec3::new(v.x, v.y, 0.0),
            PlaneLock::XZ => Vec3::new(v.x, 0.0, v.z),
        }
    }
}

crate::c_enum! {
    /// Which neighbour index a flock uses.
    pub enum IndexKind: "index", "BOIDS_INDEX_", "IndexKind" {
        /// The grid (for radius and k-nearest queries alike).
        Auto = 0, "auto", "AUTO",
        /// A uniform grid with cell size tied to the perception radius.
        Grid = 1, "grid", "GRID",
        /// A k-d tree (kiddo).
        KdTree = 2, "kd-tree", "KD_TREE",
        /// Every boid against every boid: the test oracle.
        BruteForce = 3, "brute-force", "BRUTE_FORCE",
    }
}

/// A target point: attract from beyond `avoid_distance`, push away inside it.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The point (the host may move it every step).
    pub point: Vec3,
    /// Inside this distance the boid is pushed away (unit vector times `Weights::target_avoid`);
    /// beyond it, attracted (offset times `Weights::target`). 0 = always attract.
    #[cfg_attr(feature = "serde", serde(default))]
    pub avoid_distance: f32,
}

/// The target jumps to a random point of a box now and then (the goal-swarm preset's goal).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetRelocation {
    /// Chance per step (0..=1).
    pub probability: f32,
    /// Minimum corner of the box the new point is drawn from.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

crate::c_enum! {
    /// Which way is up in a grounded boid's drawn orientation (its yaw always follows the
    /// velocity).
    pub enum GroundUp: "ground up", "BOIDS_GROUND_UP_", "GroundUp" {
        /// World up: the boid pitches with the slope it walks along, never rolls.
        World = 0, "world", "WORLD",
        /// The normal of the ground under it: the boid leans with the terrain, across it too.
        Normal = 1, "normal", "NORMAL",
    }
}

/// A grounded flock walks on the scene's ground (every mesh and heightfield placement marked as
/// ground): it steers in the horizontal plane and each step places it on the surface. See
/// [`crate::ground`] for the whole rule.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The steepest ground a boid walks on, degrees from horizontal, in `[0, 89]`; steeper
    /// ground is a wall (45 when a scene file leaves it out).
    #[cfg_attr(feature = "serde", serde(default = "serde_defaults::max_slope"))]
    pub max_slope_deg: f32,
    /// The most a boid climbs or drops in one step; a bigger drop, or no ground at all, is an
    /// edge it does not walk over, a bigger rise a wall (0.5 when a scene file leaves it out).
    #[cfg_attr(feature = "serde", serde(default = "serde_defaults::step_height"))]
    pub step_height: f32,
    /// How far above its feet a boid's position (its pivot) is (0 when a scene file leaves it
    /// out: the position is the feet).
    #[cfg_attr(feature = "serde", serde(default))]
    pub pivot_height: f32,
    /// Up in the drawn orientation (world up when a scene file leaves it out).
    #[cfg_attr(feature = "serde", serde(default))]
    pub up: GroundUp,
}

impl Default for GroundUp {
    /// [`GroundUp::World`].
    fn default() -> Self {
        GroundUp::World
    }
}

impl Default for Ground {
    /// 45° slopes, a step of 0.5, the position at the feet.
    fn default() -> Self {
        Ground {
            max_slope_deg: 45.0,
            step_height: 0.5,
            pivot_height: 0.0,
            up: GroundUp::World,
        }
    }
}

/// Rule weights.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Separation.
    pub separation: f32,
    /// Alignment.
    pub alignment: f32,
    /// Cohesion.
    pub cohesion: f32,
    /// Attraction to the target (beyond its avoid distance).
    pub target: f32,
    /// Push away from the target (inside its avoid distance).
    pub target_avoid: f32,
    /// Soft bounds push.
    pub bounds: f32,
    /// Obstacle avoidance.
    pub obstacles: f32,
    /// Random wander (Reynolds' jittered circle).
    pub wander: f32,
    /// Following the flock's path.
    pub path: f32,
}

/// Every setting of a flock. [`FlockParams::default`] is the fish-tank preset's fish school.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockParams {
    /// Neighbours are the others strictly closer than this.
    pub perception_radius: f32,
    /// Half-angle of the field of view, degrees: a neighbour counts when the angle between the
    /// boid's heading and the direction to it is below this. 180 or more = all around.
    #[cfg_attr(feature = "serde", serde(alias = "field_of_view_deg"))]
    pub fov_half_angle_deg: f32,
    /// Only neighbours strictly closer than this count for separation.
    pub separation_radius: f32,
    /// Keep only the k nearest within the radius (ties by index); 0 = all; at most
    /// [`crate::MAX_NEIGHBOURS`] (1024).
    pub max_neighbours: u32,
    /// Rule weights.
    pub weights: Weights,
    /// Separation form.
    pub separation: SeparationMode,
    /// Alignment form.
    pub alignment: AlignmentMode,
    /// Minimum speed (units/s).
    pub min_speed: f32,
    /// Maximum speed (units/s).
    pub max_speed: f32,
    /// Maximum steering force for [`Combine::Steer`] (units/s²).
    pub max_force: f32,
    /// Turn rate for [`Integrator::HeadingSpeed`]: slerp fraction per second.
    pub max_turn_rate: f32,
    /// Blend factor for [`Integrator::VelocityBlend`], in `[0, 1]`.
    pub velocity_smoothing: f32,
    /// Multiplier of the combined move for [`Combine::WeightedClamped`].
    pub drive_factor: f32,
    /// How rule outputs combine.
    pub combine: Combine,
    /// How the state integrates.
    pub integrator: Integrator,
    /// Bounds.
    pub bounds: Bounds,
    /// Plane lock for 2-D models.
    pub plane: PlaneLock,
    /// Target, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub target: Option<Target>,
    /// Obstacle avoidance.
    pub obstacle_avoidance: ObstacleAvoidance,
    /// How far ahead the look-ahead reaches.
    pub look_ahead: f32,
    /// Radius of the swept sphere for the look-ahead (0 = a ray).
    pub boid_radius: f32,
    /// When the obstacle rule fires, it replaces every other rule for that step (goal-swarm).
    pub obstacle_overrides: bool,
    /// Neighbour index.
    pub index: IndexKind,
    /// Chance per step that the neighbour and target rules apply at all (the goal-swarm preset's 20 %).
    pub rule_probability: f32,
    /// Chance per step of a new speed drawn from `min_speed..max_speed`
    /// ([`Integrator::HeadingSpeed`] only; the goal-swarm preset's 10 %).
    pub speed_change_probability: f32,
    /// The target rule applies only when the boid has neighbours (goal-swarm).
    pub target_needs_neighbours: bool,
    /// The target relocates at random (the goal-swarm preset's goal), if set; only while
    /// `target` is set too.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub target_relocation: Option<TargetRelocation>,
    /// Cohesion is smoothed with Unity's `SmoothDamp` from the heading toward the centre, with
    /// this smooth time in seconds and a damping state per boid (the flock-2d preset's steered cohesion);
    /// 0 = plain cohesion.
    pub cohesion_smooth_time: f32,
    /// A boid with no neighbour in range uses the single nearest boid instead (target-flock).
    pub fallback_to_nearest: bool,
    /// Wander: radius of the circle ahead of the boid its wander target moves on.
    pub wander_radius: f32,
    /// Wander: how far ahead that circle is.
    pub wander_distance: f32,
    /// Wander: how far the target may jitter per second.
    pub wander_jitter: f32,
    /// Arrival: inside this distance of the target the boid slows down in proportion
    /// (0 = no arrival behaviour).
    pub arrival_radius: f32,
    /// Path following: how far ahead along the path a boid aims.
    pub path_lookahead: f32,
    /// Level of detail: step this flock only every this many world steps, with `dt` times as
    /// long (1 = every step).
    pub update_every: u32,
    /// Level of detail: the flock sleeps (frozen, no cost) while the world's observer is farther
    /// than this from its centre (0 = never).
    pub sleep_distance: f32,
    /// Walk on the scene's ground instead of flying (see [`Ground`]); `None` (the default) =
    /// free motion in 3-D or in the plane lock's plane.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub ground: Option<Ground>,
    /// Radius of each boid's body: after every step no two bodies of the flock overlap by more
    /// than 1% of it, and no body is inside an obstacle by more than that (a grounded body's
    /// moves stop at obstacles; any body found overlapping one is pushed out). 0, the default
    /// = points, which may pass through each other and obstacles.
    #[cfg_attr(feature = "serde", serde(default))]
    pub body_radius: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            separation: 5.0,
            alignment: 2.0,
            cohesion: 3.0,
            target: 0.0,
            target_avoid: 0.0,
            bounds: 1.0,
            obstacles: 10.0,
            wander: 0.0,
            path: 0.0,
        }
    }
}

impl Default for FlockParams {
    /// The fish-tank preset's fish: radius 1, 90° field of view, weights 5/2/3, speed 2..5, walls of a
    /// 10-unit box at distance 3.
    fn default() -> Self {
        FlockParams {
            perception_radius: 1.0,
            fov_half_angle_deg: 90.0,
            separation_radius: 1.0,
            max_neighbours: 0,
            weights: Weights::default(),
            separation: SeparationMode::UnitMean,
            alignment: AlignmentMode::VelocityDifference,
            min_speed: 2.0,
            max_speed: 5.0,
            max_force: 3.0,
            max_turn_rate: 2.0,
            velocity_smoothing: 0.25,
            drive_factor: 1.0,
            combine: Combine::WeightedSum,
            integrator: Integrator::Acceleration,
            bounds: Bounds::SoftBox {
                min: Vec3::splat(-5.0),
                max: Vec3::splat(5.0),
                distance: 3.0,
            },
            plane: PlaneLock::None,
            target: None,
            obstacle_avoidance: ObstacleAvoidance::FreeDirection,
            look_ahead: 3.0,
            boid_radius: 0.0,
            obstacle_overrides: false,
            rule_probability: 1.0,
            speed_change_probability: 0.0,
            target_needs_neighbours: false,
            target_relocation: None,
            cohesion_smooth_time: 0.0,
            fallback_to_nearest: false,
            wander_radius: 1.0,
            wander_distance: 2.0,
            wander_jitter: 4.0,
            arrival_radius: 0.0,
            path_lookahead: 2.0,
            update_every: 1,
            sleep_distance: 0.0,
            index: IndexKind::Auto,
            ground: None,
            body_radius: 0.0,
        }
    }
}

/// The steepest walkable slope a grounded flock may have, degrees.
pub const MAX_SLOPE_DEG: f32 = 89.0;

/// A parameter that was refused, with the reason.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    /// The field, e.g. `perception_radius`.
    pub field: &'static str,
    /// What was wrong, e.g. `must be finite and >= 0, got NaN`.
    pub reason: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.field, self.reason)
    }
}

impl std::error::Error for ParamError {}

fn check(field: &'static str, x: f32, lo: f32, hi: f32) -> Result<(), ParamError> {
    limits::in_range(x, lo, hi).map_err(|reason| ParamError { field, reason })
}

fn check_vec(field: &'static str, v: Vec3) -> Result<(), ParamError> {
    limits::point(v).map_err(|reason| ParamError { field, reason })
}

fn check_box(min_f: &'static str, min: Vec3, max: Vec3) -> Result<(), ParamError> {
    check_vec(min_f, min)?;
    check_vec(min_f, max)?;
    if !(min.cmplt(max).all()) {
        return Err(ParamError {
            field: min_f,
            reason: format!("box min {min} must be below max {max} on every axis"),
        });
    }
    Ok(())
}

impl FlockParams {
    /// Checks every field: finite, within range, consistent. The error names the field.
    pub fn validate(&self) -> Result<(), ParamError> {
        let m = MAX_MAGNITUDE;
        check("perception_radius", self.perception_radius, 0.0, m)?;
        check("fov_half_angle_deg", self.fov_half_angle_deg, 0.0, 360.0)?;
        if self.max_neighbours > limits::MAX_NEIGHBOURS {
            return Err(ParamError {
                field: "max_neighbours",
                reason: format!(
                    "must be 0 (all) or at most {}, got {}",
                    limits::MAX_NEIGHBOURS,
                    self.max_neighbours
                ),
            });
        }
        check("separation_radius", self.separation_radius, 0.0, m)?;
        let w = &self.weights;
        for (name, x) in [
            ("weights.separation", w.separation),
            ("weights.alignment", w.alignment),
            ("weights.cohesion", w.cohesion),
            ("weights.target", w.target),
            ("weights.target_avoid", w.target_avoid),
            ("weights.bounds", w.bounds),
            ("weights.obstacles", w.obstacles),
            ("weights.wander", w.wander),
            ("weights.path", w.path),
        ] {
            check(name, x, -m, m)?;
        }
        check("min_speed", self.min_speed, 0.0, m)?;
        check("max_speed", self.max_speed, 0.0, m)?;
        if self.min_speed > self.max_speed {
            return Err(ParamError {
                field: "min_speed",
                reason: format!(
                    "must not exceed max_speed ({} > {})",
                    self.min_speed, self.max_speed
                ),
            });
        }
        check("max_force", self.max_force, 0.0, m)?;
        check("max_turn_rate", self.max_turn_rate, 0.0, m)?;
        check("velocity_smoothing", self.velocity_smoothing, 0.0, 1.0)?;
        check("drive_factor", self.drive_factor, 0.0, m)?;
        match self.bounds {
            Bounds::None => {}
            Bounds::SoftBox { min, max, distance } => {
                check_box("bounds.min/max", min, max)?;
                check("bounds.distance", distance, 0.0, m)?;
            }
            Bounds::SoftSphere {
                centre,
                radius,
                inner,
            } => {
                check_vec("bounds.centre", centre)?;
                limits::positive(radius).map_err(|reason| ParamError {
                    field: "bounds.radius",
                    reason,
                })?;
                check("bounds.inner", inner, 0.0, 1.0)?;
            }
            Bounds::Wrap { min, max }
            | Bounds::Clamp { min, max }
            | Bounds::TurnBack { min, max } => check_box("bounds.min/max", min, max)?,
        }
        check("rule_probability", self.rule_probability, 0.0, 1.0)?;
        check(
            "speed_change_probability",
            self.speed_change_probability,
            0.0,
            1.0,
        )?;
        check("cohesion_smooth_time", self.cohesion_smooth_time, 0.0, m)?;
        check("wander_radius", self.wander_radius, 0.0, m)?;
        check("wander_distance", self.wander_distance, 0.0, m)?;
        check("wander_jitter", self.wander_jitter, 0.0, m)?;
        check("arrival_radius", self.arrival_radius, 0.0, m)?;
        check("path_lookahead", self.path_lookahead, 0.0, m)?;
        check("sleep_distance", self.sleep_distance, 0.0, m)?;
        if !(1..=1000).contains(&self.update_every) {
            return Err(ParamError {
                field: "update_every",
                reason: format!("must be 1..=1000, got {}", self.update_every),
            });
        }
        if let Some(r) = self.target_relocation {
            check("target_relocation.probability", r.probability, 0.0, 1.0)?;
            check_vec("target_relocation.min", r.min)?;
            check_vec("target_relocation.max", r.max)?;
            if !r.min.cmple(r.max).all() {
                return Err(ParamError {
                    field: "target_relocation.min",
                    reason: format!("box min {} must not exceed max {}", r.min, r.max),
                });
            }
        }
        check("look_ahead", self.look_ahead, 0.0, m)?;
        check("boid_radius", self.boid_radius, 0.0, m)?;
        check("body_radius", self.body_radius, 0.0, m)?;
        if let Some(g) = self.ground {
            check("ground.max_slope_deg", g.max_slope_deg, 0.0, MAX_SLOPE_DEG)?;
            check("ground.step_height", g.step_height, 0.0, m)?;
            check("ground.pivot_height", g.pivot_height, 0.0, m)?;
            if self.plane != PlaneLock::None {
                return Err(ParamError {
                    field: "plane",
                    reason: format!(
                        "must be none for a grounded flock (it walks on the ground), got {}",
                        self.plane.text()
                    ),
                });
            }
            if matches!(self.bounds, Bounds::Wrap { .. } | Bounds::Clamp { .. }) {
                return Err(ParamError {
                    field: "bounds",
                    reason: format!(
                        "a grounded flock takes soft bounds (none, soft-box, soft-sphere or \
                         turn-back), not {}: a wrap or clamp would move it off the ground",
                        self.bounds.kind().text()
                    ),
                });
            }
        }
        if let Some(t) = self.target {
            check_vec("target.point", t.point)?;
            check("target.avoid_distance", t.avoid_distance, 0.0, m)?;
        }
        Ok(())
    }
}
