// The engine's enums as C++ enum classes, valued by the C constants of boids.h.
// Generated from the engine's enum tables (c_enum!) by crates/ffi/tests/generated.rs;
// do not edit. Included by boids.hpp.
#pragma once

#include "boids.h"

#include <cstdint>

namespace boids {

/// The bounds kind (BoidsBounds::kind; C: BOIDS_BOUNDS_*).
enum class BoundsKind : std::int32_t {
    /// No bounds.
    None = BOIDS_BOUNDS_NONE,
    /// Soft box walls (`min`, `max`, `distance`).
    SoftBox = BOIDS_BOUNDS_SOFT_BOX,
    /// Soft sphere or circle (`centre`, `radius`, `inner`).
    SoftSphere = BOIDS_BOUNDS_SOFT_SPHERE,
    /// Periodic box (`min`, `max`).
    Wrap = BOIDS_BOUNDS_WRAP,
    /// Hard box, positions clamped (`min`, `max`).
    Clamp = BOIDS_BOUNDS_CLAMP,
    /// Outside the box (`min`, `max`) turn toward its centre, ignoring every other rule.
    TurnBack = BOIDS_BOUNDS_TURN_BACK,
};

/// The separation mode (BoidsFlockParams::separation_mode; C: BOIDS_SEPARATION_*).
enum class SeparationMode : std::int32_t {
    /// Mean of the unit vectors pointing away from each neighbour (fish-tank).
    UnitMean = BOIDS_SEPARATION_UNIT_MEAN,
    /// Sum of `-o / |o|²` over the offsets `o` to each neighbour (steering-obstacles); exactly coincident pairs are skipped.
    InverseSquare = BOIDS_SEPARATION_INVERSE_SQUARE,
    /// Mean of `-o` (target-flock, flock-2d).
    MeanOffset = BOIDS_SEPARATION_MEAN_OFFSET,
    /// Sum of `-o` (goal-swarm).
    SumOffset = BOIDS_SEPARATION_SUM_OFFSET,
};

/// The alignment mode (BoidsFlockParams::alignment_mode; C: BOIDS_ALIGNMENT_*).
enum class AlignmentMode : std::int32_t {
    /// `mean v_j - v_i` (fish-tank).
    VelocityDifference = BOIDS_ALIGNMENT_VELOCITY_DIFFERENCE,
    /// Mean of the neighbours' headings; a boid alone uses its own heading (steering-obstacles, flock-2d).
    MeanHeading = BOIDS_ALIGNMENT_MEAN_HEADING,
    /// `mean v_j` (target-flock).
    MeanVelocity = BOIDS_ALIGNMENT_MEAN_VELOCITY,
    /// No turning: the scalar speed becomes `(0.01 + Σ |v_j|) / n` (goal-swarm's group speed; heading-speed integrator only).
    GroupSpeed = BOIDS_ALIGNMENT_GROUP_SPEED,
};

/// The combine mode (BoidsFlockParams::combine; C: BOIDS_COMBINE_*).
enum class Combine : std::int32_t {
    /// `Σ w_k m_k`.
    WeightedSum = BOIDS_COMBINE_WEIGHTED_SUM,
    /// Reynolds steering: `Σ w_k clampLength(m̂_k · max_speed - v, max_force)` (steering-obstacles); the neighbour rules apply only when the boid has neighbours.
    Steer = BOIDS_COMBINE_STEER,
    /// `Σ clampLength(w_k m_k, w_k)`, parts shorter than 1e-5 dropped, then times `drive_factor` (flock-2d).
    WeightedClamped = BOIDS_COMBINE_WEIGHTED_CLAMPED,
};

/// The integrator (BoidsFlockParams::integrator; C: BOIDS_INTEGRATOR_*).
enum class Integrator : std::int32_t {
    /// `v += a dt`, speed clamped to `[min_speed, max_speed]`, `p += v dt` (fish-tank, steering-obstacles).
    Acceleration = BOIDS_INTEGRATOR_ACCELERATION,
    /// `v += velocity_smoothing · a`, then `|v| > max → max`, then `0 < |v| < min → min`, `p += v dt` (target-flock).
    VelocityBlend = BOIDS_INTEGRATOR_VELOCITY_BLEND,
    /// The heading turns toward `a` by at most `max_turn_rate · dt` of a slerp, the scalar speed is kept, `p += heading · speed · dt` (goal-swarm).
    HeadingSpeed = BOIDS_INTEGRATOR_HEADING_SPEED,
    /// The steering output is the velocity, clamped to `max_speed`; `p += v dt` (flock-2d).
    Kinematic = BOIDS_INTEGRATOR_KINEMATIC,
};

/// The plane lock (BoidsFlockParams::plane; C: BOIDS_PLANE_*).
enum class PlaneLock : std::int32_t {
    /// Full 3-D motion.
    None = BOIDS_PLANE_NONE,
    /// Motion in the XY plane (z = 0), as Unity 2-D.
    XY = BOIDS_PLANE_XY,
    /// Motion in the XZ plane (y = 0), a ground plane.
    XZ = BOIDS_PLANE_XZ,
};

/// The index (BoidsFlockParams::index; C: BOIDS_INDEX_*).
enum class IndexKind : std::int32_t {
    /// The grid (for radius and k-nearest queries alike).
    Auto = BOIDS_INDEX_AUTO,
    /// A uniform grid with cell size tied to the perception radius.
    Grid = BOIDS_INDEX_GRID,
    /// A k-d tree (kiddo).
    KdTree = BOIDS_INDEX_KD_TREE,
    /// Every boid against every boid: the test oracle.
    BruteForce = BOIDS_INDEX_BRUTE_FORCE,
};

/// The obstacle avoidance (BoidsFlockParams::obstacle_avoidance; C: BOIDS_OBSTACLES_*).
enum class ObstacleAvoidance : std::int32_t {
    /// Obstacles are ignored.
    None = BOIDS_OBSTACLES_IGNORE,
    /// Steer toward the heading reflected about the hit surface (goal-swarm).
    Reflect = BOIDS_OBSTACLES_REFLECT,
    /// Try 300 directions on a golden spiral around the heading, nearest first, and steer toward the first one whose look-ahead is clear (steering-obstacles).
    FreeDirection = BOIDS_OBSTACLES_FREE_DIRECTION,
};

/// The ground up (BoidsFlockParams::ground_up; C: BOIDS_GROUND_UP_*).
enum class GroundUp : std::int32_t {
    /// World up: the boid pitches with the slope it walks along, never rolls.
    World = BOIDS_GROUND_UP_WORLD,
    /// The normal of the ground under it: the boid leans with the terrain, across it too.
    Normal = BOIDS_GROUND_UP_NORMAL,
};

/// The spawn shape (BoidsSpawnDef::shape; C: BOIDS_SPAWN_*).
enum class SpawnKind : std::int32_t {
    /// Uniform in the box `min`..`max`.
    Box = BOIDS_SPAWN_BOX,
    /// Uniform in the ball `centre`, `radius`.
    Sphere = BOIDS_SPAWN_SPHERE,
    /// Uniform in the disc `centre`, `radius` in the flock's plane.
    Disc = BOIDS_SPAWN_DISC,
    /// Uniform in the ball `centre`, `radius`, then flattened onto y = centre.y.
    FlatBall = BOIDS_SPAWN_FLAT_BALL,
};

/// The obstacle shape (BoidsObstacleDef::shape; C: BOIDS_OBSTACLE_*).
enum class ObstacleKind : std::int32_t {
    /// A ball (`a` = centre, `radius`).
    Sphere = BOIDS_OBSTACLE_SPHERE,
    /// An axis-aligned box (`a` = min, `b` = max).
    Box = BOIDS_OBSTACLE_BOX,
    /// The half-space behind a plane (`a` = a point, `b` = unit normal).
    Plane = BOIDS_OBSTACLE_PLANE,
    /// A box with a rotation (`a` = centre, `b` = half extents, `rotation`).
    OrientedBox = BOIDS_OBSTACLE_ORIENTED_BOX,
    /// A capsule (`a`, `b` = the ends of its axis, `radius`).
    Capsule = BOIDS_OBSTACLE_CAPSULE,
    /// A placed triangle mesh (`mesh`, `a` = position, `rotation`, `scale`).
    Mesh = BOIDS_OBSTACLE_MESH,
    /// A placed heightfield (`mesh`, `a` = position, `rotation`, `scale`); boids stay above.
    Heightfield = BOIDS_OBSTACLE_HEIGHTFIELD,
};

/// The relation kind (boids_world_set_relation kind; C: BOIDS_RELATION_*).
enum class RelationKind : std::int32_t {
    /// No reaction (removes a relation).
    Ignore = BOIDS_RELATION_IGNORE,
    /// Move with the other flock's boids in range: toward their centre and along their mean heading.
    FlockTogether = BOIDS_RELATION_FLOCK_TOGETHER,
    /// Keep away from the other flock's boids in range (mean unit vector away).
    Avoid = BOIDS_RELATION_AVOID,
    /// Prey: evade the nearest boid in range, from where it will be (Reynolds evasion).
    Flee = BOIDS_RELATION_FLEE,
    /// Predator: pursue the nearest boid in range, toward where it will be (Reynolds pursuit).
    Chase = BOIDS_RELATION_CHASE,
};

}  // namespace boids
