// The engine's enums. Generated from its enum tables (c_enum!) by
// crates/ffi/tests/generated.rs; do not edit. C# 7.2.
namespace BoidsFlocking
{
    /// <summary>The bounds kind (`BoidsBounds::kind`, C: BOIDS_BOUNDS_*).</summary>
    public enum BoundsKind : int
    {
        /// <summary>No bounds.</summary>
        None = 0,
        /// <summary>Soft box walls (`min`, `max`, `distance`).</summary>
        SoftBox = 1,
        /// <summary>Soft sphere or circle (`centre`, `radius`, `inner`).</summary>
        SoftSphere = 2,
        /// <summary>Periodic box (`min`, `max`).</summary>
        Wrap = 3,
        /// <summary>Hard box, positions clamped (`min`, `max`).</summary>
        Clamp = 4,
        /// <summary>Outside the box (`min`, `max`) turn toward its centre, ignoring every other rule.</summary>
        TurnBack = 5,
    }

    /// <summary>The separation mode (`BoidsFlockParams::separation_mode`, C: BOIDS_SEPARATION_*).</summary>
    public enum SeparationMode : int
    {
        /// <summary>Mean of the unit vectors pointing away from each neighbour (fish-tank).</summary>
        UnitMean = 0,
        /// <summary>Sum of `-o / |o|²` over the offsets `o` to each neighbour (steering-obstacles); exactly coincident pairs are skipped.</summary>
        InverseSquare = 1,
        /// <summary>Mean of `-o` (target-flock, flock-2d).</summary>
        MeanOffset = 2,
        /// <summary>Sum of `-o` (goal-swarm).</summary>
        SumOffset = 3,
    }

    /// <summary>The alignment mode (`BoidsFlockParams::alignment_mode`, C: BOIDS_ALIGNMENT_*).</summary>
    public enum AlignmentMode : int
    {
        /// <summary>`mean v_j - v_i` (fish-tank).</summary>
        VelocityDifference = 0,
        /// <summary>Mean of the neighbours' headings; a boid alone uses its own heading (steering-obstacles, flock-2d).</summary>
        MeanHeading = 1,
        /// <summary>`mean v_j` (target-flock).</summary>
        MeanVelocity = 2,
        /// <summary>No turning: the scalar speed becomes `(0.01 + Σ |v_j|) / n` (goal-swarm's group speed; heading-speed integrator only).</summary>
        GroupSpeed = 3,
    }

    /// <summary>The combine mode (`BoidsFlockParams::combine`, C: BOIDS_COMBINE_*).</summary>
    public enum Combine : int
    {
        /// <summary>`Σ w_k m_k`.</summary>
        WeightedSum = 0,
        /// <summary>Reynolds steering: `Σ w_k clampLength(m̂_k · max_speed - v, max_force)` (steering-obstacles); the neighbour rules apply only when the boid has neighbours.</summary>
        Steer = 1,
        /// <summary>`Σ clampLength(w_k m_k, w_k)`, parts shorter than 1e-5 dropped, then times `drive_factor` (flock-2d).</summary>
        WeightedClamped = 2,
    }

    /// <summary>The integrator (`BoidsFlockParams::integrator`, C: BOIDS_INTEGRATOR_*).</summary>
    public enum Integrator : int
    {
        /// <summary>`v += a dt`, speed clamped to `[min_speed, max_speed]`, `p += v dt` (fish-tank, steering-obstacles).</summary>
        Acceleration = 0,
        /// <summary>`v += velocity_smoothing · a`, then `|v| &gt; max → max`, then `0 &lt; |v| &lt; min → min`, `p += v dt` (target-flock).</summary>
        VelocityBlend = 1,
        /// <summary>The heading turns toward `a` by at most `max_turn_rate · dt` of a slerp, the scalar speed is kept, `p += heading · speed · dt` (goal-swarm).</summary>
        HeadingSpeed = 2,
        /// <summary>The steering output is the velocity, clamped to `max_speed`; `p += v dt` (flock-2d).</summary>
        Kinematic = 3,
    }

    /// <summary>The plane lock (`BoidsFlockParams::plane`, C: BOIDS_PLANE_*).</summary>
    public enum PlaneLock : int
    {
        /// <summary>Full 3-D motion.</summary>
        None = 0,
        /// <summary>Motion in the XY plane (z = 0), as Unity 2-D.</summary>
        XY = 1,
        /// <summary>Motion in the XZ plane (y = 0), a ground plane.</summary>
        XZ = 2,
    }

    /// <summary>The index (`BoidsFlockParams::index`, C: BOIDS_INDEX_*).</summary>
    public enum IndexKind : int
    {
        /// <summary>The grid (for radius and k-nearest queries alike).</summary>
        Auto = 0,
        /// <summary>A uniform grid with cell size tied to the perception radius.</summary>
        Grid = 1,
        /// <summary>A k-d tree (kiddo).</summary>
        KdTree = 2,
        /// <summary>Every boid against every boid: the test oracle.</summary>
        BruteForce = 3,
    }

    /// <summary>The obstacle avoidance (`BoidsFlockParams::obstacle_avoidance`, C: BOIDS_OBSTACLES_*).</summary>
    public enum ObstacleAvoidance : int
    {
        /// <summary>Obstacles are ignored.</summary>
        None = 0,
        /// <summary>Steer toward the heading reflected about the hit surface (goal-swarm).</summary>
        Reflect = 1,
        /// <summary>Try 300 directions on a golden spiral around the heading, nearest first, and steer toward the first one whose look-ahead is clear (steering-obstacles).</summary>
        FreeDirection = 2,
    }

    /// <summary>The ground up (`BoidsFlockParams::ground_up`, C: BOIDS_GROUND_UP_*).</summary>
    public enum GroundUp : int
    {
        /// <summary>World up: the boid pitches with the slope it walks along, never rolls.</summary>
        World = 0,
        /// <summary>The normal of the ground under it: the boid leans with the terrain, across it too.</summary>
        Normal = 1,
    }

    /// <summary>The spawn shape (`BoidsSpawnDef::shape`, C: BOIDS_SPAWN_*).</summary>
    public enum SpawnKind : int
    {
        /// <summary>Uniform in the box `min`..`max`.</summary>
        Box = 0,
        /// <summary>Uniform in the ball `centre`, `radius`.</summary>
        Sphere = 1,
        /// <summary>Uniform in the disc `centre`, `radius` in the flock's plane.</summary>
        Disc = 2,
        /// <summary>Uniform in the ball `centre`, `radius`, then flattened onto y = centre.y.</summary>
        FlatBall = 3,
    }

    /// <summary>The obstacle shape (`BoidsObstacleDef::shape`, C: BOIDS_OBSTACLE_*).</summary>
    public enum ObstacleKind : int
    {
        /// <summary>A ball (`a` = centre, `radius`).</summary>
        Sphere = 0,
        /// <summary>An axis-aligned box (`a` = min, `b` = max).</summary>
        Box = 1,
        /// <summary>The half-space behind a plane (`a` = a point, `b` = unit normal).</summary>
        Plane = 2,
        /// <summary>A box with a rotation (`a` = centre, `b` = half extents, `rotation`).</summary>
        OrientedBox = 3,
        /// <summary>A capsule (`a`, `b` = the ends of its axis, `radius`).</summary>
        Capsule = 4,
        /// <summary>A placed triangle mesh (`mesh`, `a` = position, `rotation`, `scale`).</summary>
        Mesh = 5,
        /// <summary>A placed heightfield (`mesh`, `a` = position, `rotation`, `scale`); boids stay above.</summary>
        Heightfield = 6,
    }

    /// <summary>The relation kind (`boids_world_set_relation` kind, C: BOIDS_RELATION_*).</summary>
    public enum RelationKind : int
    {
        /// <summary>No reaction (removes a relation).</summary>
        Ignore = 0,
        /// <summary>Move with the other flock's boids in range: toward their centre and along their mean heading.</summary>
        FlockTogether = 1,
        /// <summary>Keep away from the other flock's boids in range (mean unit vector away).</summary>
        Avoid = 2,
        /// <summary>Prey: evade the nearest boid in range, from where it will be (Reynolds evasion).</summary>
        Flee = 3,
        /// <summary>Predator: pursue the nearest boid in range, toward where it will be (Reynolds pursuit).</summary>
        Chase = 4,
    }

}

namespace BoidsFlocking.Native
{
    internal static partial class BoidsConst
    {
        /// <summary>Largest magnitude accepted for any coordinate, length, speed or weight.</summary>
        public const float MAX_MAGNITUDE = 1e9f;
        /// <summary>Most triangles in one mesh.</summary>
        public const uint MAX_TRIANGLES = 16777216;
        /// <summary>Most vertices in one mesh.</summary>
        public const uint MAX_VERTICES = 50331648;
        /// <summary>Most samples in one heightfield (2^26, e.g. 8193 x 8193).</summary>
        public const uint MAX_HEIGHTFIELD_SAMPLES = 67108864;
        public const int BOUNDS_NONE = 0, BOUNDS_SOFT_BOX = 1, BOUNDS_SOFT_SPHERE = 2, BOUNDS_WRAP = 3, BOUNDS_CLAMP = 4, BOUNDS_TURN_BACK = 5;
        public const int SEPARATION_UNIT_MEAN = 0, SEPARATION_INVERSE_SQUARE = 1, SEPARATION_MEAN_OFFSET = 2, SEPARATION_SUM_OFFSET = 3;
        public const int ALIGNMENT_VELOCITY_DIFFERENCE = 0, ALIGNMENT_MEAN_HEADING = 1, ALIGNMENT_MEAN_VELOCITY = 2, ALIGNMENT_GROUP_SPEED = 3;
        public const int COMBINE_WEIGHTED_SUM = 0, COMBINE_STEER = 1, COMBINE_WEIGHTED_CLAMPED = 2;
        public const int INTEGRATOR_ACCELERATION = 0, INTEGRATOR_VELOCITY_BLEND = 1, INTEGRATOR_HEADING_SPEED = 2, INTEGRATOR_KINEMATIC = 3;
        public const int PLANE_NONE = 0, PLANE_XY = 1, PLANE_XZ = 2;
        public const int INDEX_AUTO = 0, INDEX_GRID = 1, INDEX_KD_TREE = 2, INDEX_BRUTE_FORCE = 3;
        public const int OBSTACLES_IGNORE = 0, OBSTACLES_REFLECT = 1, OBSTACLES_FREE_DIRECTION = 2;
        public const int GROUND_UP_WORLD = 0, GROUND_UP_NORMAL = 1;
        public const int SPAWN_BOX = 0, SPAWN_SPHERE = 1, SPAWN_DISC = 2, SPAWN_FLAT_BALL = 3;
        public const int OBSTACLE_SPHERE = 0, OBSTACLE_BOX = 1, OBSTACLE_PLANE = 2, OBSTACLE_ORIENTED_BOX = 3, OBSTACLE_CAPSULE = 4, OBSTACLE_MESH = 5, OBSTACLE_HEIGHTFIELD = 6;
        public const int RELATION_IGNORE = 0, RELATION_FLOCK_TOGETHER = 1, RELATION_AVOID = 2, RELATION_FLEE = 3, RELATION_CHASE = 4;
    }
}
