// The value types of the public C# API: vectors, the parameters of a flock, bounds, spawn
// settings and obstacle shapes. PascalCase and C# enums throughout; the structs that cross into
// the native library have exactly the layout of their C twins (checked once per process), so
// arrays of them are passed without copying. C# 7.2 at most (Unity and Mono's mcs).
using System;
using System.Runtime.InteropServices;
using BoidsFlocking.Native;

namespace BoidsFlocking
{
    /// <summary>A 3-D vector (12 bytes; the layout of UnityEngine.Vector3).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vec3 : IEquatable<Vec3>
    {
        public float X, Y, Z;

        public Vec3(float x, float y, float z) { X = x; Y = y; Z = z; }

        public static readonly Vec3 Zero = new Vec3(0f, 0f, 0f);

        public float Length { get { return (float)Math.Sqrt(X * X + Y * Y + Z * Z); } }

        public static Vec3 operator +(Vec3 a, Vec3 b) { return new Vec3(a.X + b.X, a.Y + b.Y, a.Z + b.Z); }
        public static Vec3 operator -(Vec3 a, Vec3 b) { return new Vec3(a.X - b.X, a.Y - b.Y, a.Z - b.Z); }
        public static Vec3 operator *(Vec3 a, float s) { return new Vec3(a.X * s, a.Y * s, a.Z * s); }

        /// <summary>Bit-for-bit equality (so NaN equals NaN and -0 differs from 0).</summary>
        public bool Equals(Vec3 o)
        {
            return Bits.Same(X, o.X) && Bits.Same(Y, o.Y) && Bits.Same(Z, o.Z);
        }

        public override bool Equals(object o) { return o is Vec3 && Equals((Vec3)o); }
        public override int GetHashCode() { return X.GetHashCode() ^ (Y.GetHashCode() << 7) ^ (Z.GetHashCode() << 14); }
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    /// <summary>A rotation quaternion in Unity's memory order X, Y, Z, W (16 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Quat
    {
        public float X, Y, Z, W;

        public Quat(float x, float y, float z, float w) { X = x; Y = y; Z = z; W = w; }

        /// <summary>No rotation.</summary>
        public static readonly Quat Identity = new Quat(0f, 0f, 0f, 1f);
    }

    /// <summary>A 4x4 matrix, column-major, field for field UnityEngine.Matrix4x4 (64 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Mat4
    {
        public float M00, M10, M20, M30;
        public float M01, M11, M21, M31;
        public float M02, M12, M22, M32;
        public float M03, M13, M23, M33;
    }

    internal static unsafe class Bits
    {
        internal static bool Same(float a, float b) { return *(int*)&a == *(int*)&b; }

        /// <summary>Byte-for-byte equality of two blittable values.</summary>
        internal static bool Same(byte* a, byte* b, int size)
        {
            for (int i = 0; i < size; i++)
                if (a[i] != b[i]) return false;
            return true;
        }
    }

    /// <summary>Where a flock may go. Make one with the factories; which fields count depends on
    /// Kind (SoftBox: Min, Max, Distance; SoftSphere: Centre, Radius, Inner; Wrap, Clamp,
    /// TurnBack: Min, Max). Fields a kind does not use are kept as set.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FlockBounds
    {
        public BoundsKind Kind;
        public Vec3 Min, Max, Centre;
        public float Radius, Distance, Inner;

        /// <summary>No bounds.</summary>
        public static FlockBounds None() { return new FlockBounds { Kind = BoundsKind.None }; }

        /// <summary>Soft walls: within distance of a wall a boid is pushed back inside.</summary>
        public static FlockBounds SoftBox(Vec3 min, Vec3 max, float distance = 3f)
        {
            return new FlockBounds { Kind = BoundsKind.SoftBox, Min = min, Max = max, Distance = distance };
        }

        /// <summary>A soft sphere (a circle under a plane lock): pushed in beyond inner * radius.</summary>
        public static FlockBounds SoftSphere(Vec3 centre, float radius, float inner = 0.9f)
        {
            return new FlockBounds { Kind = BoundsKind.SoftSphere, Centre = centre, Radius = radius, Inner = inner };
        }

        /// <summary>A periodic box: leaving one face re-enters at the opposite one.</summary>
        public static FlockBounds Wrap(Vec3 min, Vec3 max) { return new FlockBounds { Kind = BoundsKind.Wrap, Min = min, Max = max }; }

        /// <summary>A hard box: positions clamped, the outward velocity reflected.</summary>
        public static FlockBounds Clamp(Vec3 min, Vec3 max) { return new FlockBounds { Kind = BoundsKind.Clamp, Min = min, Max = max }; }

        /// <summary>Outside the box a boid turns toward its centre (the goal-swarm preset).</summary>
        public static FlockBounds TurnBack(Vec3 min, Vec3 max) { return new FlockBounds { Kind = BoundsKind.TurnBack, Min = min, Max = max }; }
    }

    /// <summary>The target jumps to a random point of the box Min..Max with this chance per step.</summary>
    public struct TargetRelocation
    {
        public float Probability;
        public Vec3 Min, Max;

        public TargetRelocation(float probability, Vec3 min, Vec3 max)
        {
            Probability = probability;
            Min = min;
            Max = max;
        }
    }

    /// <summary>The shape of an obstacle, made by one of the static methods (a default-constructed
    /// one is refused by the library: it did not come from boids_default_obstacle_def). Field for
    /// field the C struct BoidsObstacleDef (84 bytes), passed without copying:
    /// Sphere (A = centre, Radius), Box (A = min, B = max, axis aligned), Plane (A = a point,
    /// B = the unit normal; the half-space behind it is solid), OrientedBox (A = centre,
    /// B = half extents, Rotation), Capsule (A, B = the ends of its axis, Radius), Mesh and
    /// Heightfield (shape data from BoidsWorld.AddMesh / AddHeightfield placed at A with
    /// Rotation and Scale; Ground makes them ground that grounded flocks walk on).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ObstacleShape
    {
        public ObstacleKind Kind;
        public Vec3 A, B;
        public float Radius;
        public Quat Rotation;
        public Vec3 Scale;
        // BoidsMeshId: the world's index and generation, then the mesh's.
        internal uint meshWorldIndex, meshWorldGeneration, meshIndex, meshGeneration;
        int ground;
        internal uint cookie;

        /// <summary>A Mesh or Heightfield that grounded flocks (FlockSettings.Grounded) walk on;
        /// to every other flock it is an obstacle as before. Only meshes and heightfields can be
        /// ground: the library refuses it on the other shapes.</summary>
        public bool Ground { get { return ground != 0; } set { ground = value ? 1 : 0; } }

        /// <summary>The library's default def (a ball of radius 1 at the origin, rotation identity,
        /// scale 1) with its cookie.</summary>
        static unsafe ObstacleShape Default()
        {
            Interop.EnsureReady();
            BoidsObstacleDef d = NativeMethods.boids_default_obstacle_def();
            return *(ObstacleShape*)&d;
        }

        public static ObstacleShape Sphere(Vec3 centre, float radius)
        {
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Sphere;
            s.A = centre;
            s.Radius = radius;
            return s;
        }

        public static ObstacleShape Box(Vec3 min, Vec3 max)
        {
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Box;
            s.A = min;
            s.B = max;
            return s;
        }

        public static ObstacleShape Plane(Vec3 point, Vec3 unitNormal)
        {
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Plane;
            s.A = point;
            s.B = unitNormal;
            return s;
        }

        /// <summary>A box of half extents halfExtents around centre, turned by the unit rotation
        /// (Unity's BoxCollider on a rotated object).</summary>
        public static ObstacleShape OrientedBox(Vec3 centre, Vec3 halfExtents, Quat rotation)
        {
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.OrientedBox;
            s.A = centre;
            s.B = halfExtents;
            s.Rotation = rotation;
            return s;
        }

        /// <summary>The points within radius of the segment a b (Unity's CapsuleCollider).</summary>
        public static ObstacleShape Capsule(Vec3 a, Vec3 b, float radius)
        {
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Capsule;
            s.A = a;
            s.B = b;
            s.Radius = radius;
            return s;
        }

        /// <summary>A triangle mesh (BoidsWorld.AddMesh) placed at position, turned by the unit
        /// rotation, scaled per axis (> 0): Unity's MeshCollider.</summary>
        public static ObstacleShape Mesh(BoidsMesh mesh, Vec3 position, Quat rotation, Vec3 scale)
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Mesh;
            s.Place(mesh, position, rotation, scale);
            return s;
        }

        /// <summary>A heightfield (BoidsWorld.AddHeightfield) with its sample (0, 0) at position,
        /// turned and scaled: Unity's TerrainCollider. Boids never end a step below it.</summary>
        public static ObstacleShape Heightfield(BoidsMesh field, Vec3 position, Quat rotation, Vec3 scale)
        {
            if (field == null) throw new ArgumentNullException("field");
            ObstacleShape s = Default();
            s.Kind = ObstacleKind.Heightfield;
            s.Place(field, position, rotation, scale);
            return s;
        }

        /// <summary>Moves a Mesh or Heightfield shape (no allocation: for every frame).</summary>
        public void Place(BoidsMesh mesh, Vec3 position, Quat rotation, Vec3 scale)
        {
            var id = mesh.NativeId;
            meshWorldIndex = id.world.index;
            meshWorldGeneration = id.world.generation;
            meshIndex = id.index;
            meshGeneration = id.generation;
            A = position;
            Rotation = rotation;
            Scale = scale;
        }
    }

    /// <summary>Every setting of a flock. new FlockSettings() holds the defaults (the fish-tank
    /// preset's fish: radius 1, 90° half-angle view, weights 5/2/3, speeds 2..5, soft walls of a
    /// 10-unit box). Read a flock's with BoidsFlock.Settings, change fields, assign it back;
    /// the library validates every field and names the one it refuses. Set-up calls, not per
    /// frame: reading BoidsFlock.Settings allocates this object.</summary>
    public sealed unsafe class FlockSettings : IEquatable<FlockSettings>
    {
        internal BoidsFlockParams Raw;

        public FlockSettings()
        {
            Interop.EnsureReady();
            Raw = NativeMethods.boids_default_flock_params();
        }

        internal FlockSettings(BoidsFlockParams raw) { Raw = raw; }

        public FlockSettings Clone() { return new FlockSettings(Raw); }

        /// <summary>Neighbours are the others strictly closer than this.</summary>
        public float PerceptionRadius { get { return Raw.perception_radius; } set { Raw.perception_radius = value; } }
        /// <summary>Half-angle of the view in degrees: 90 sees the front half, 180 all around.</summary>
        public float FovHalfAngleDegrees { get { return Raw.fov_half_angle_deg; } set { Raw.fov_half_angle_deg = value; } }
        /// <summary>Only neighbours closer than this count for separation.</summary>
        public float SeparationRadius { get { return Raw.separation_radius; } set { Raw.separation_radius = value; } }
        /// <summary>Only the k nearest within the radius count (0 = all; at most 1024).</summary>
        public int MaxNeighbours
        {
            get { return (int)Raw.max_neighbours; }
            set
            {
                if (value < 0) throw new ArgumentOutOfRangeException("value", value, "MaxNeighbours must not be negative");
                Raw.max_neighbours = (uint)value;
            }
        }
        public float SeparationWeight { get { return Raw.weight_separation; } set { Raw.weight_separation = value; } }
        public float AlignmentWeight { get { return Raw.weight_alignment; } set { Raw.weight_alignment = value; } }
        public float CohesionWeight { get { return Raw.weight_cohesion; } set { Raw.weight_cohesion = value; } }
        public float TargetWeight { get { return Raw.weight_target; } set { Raw.weight_target = value; } }
        public float TargetAvoidWeight { get { return Raw.weight_target_avoid; } set { Raw.weight_target_avoid = value; } }
        public float BoundsWeight { get { return Raw.weight_bounds; } set { Raw.weight_bounds = value; } }
        public float ObstacleWeight { get { return Raw.weight_obstacles; } set { Raw.weight_obstacles = value; } }
        public float WanderWeight { get { return Raw.weight_wander; } set { Raw.weight_wander = value; } }
        public float PathWeight { get { return Raw.weight_path; } set { Raw.weight_path = value; } }
        public SeparationMode Separation { get { return (SeparationMode)Raw.separation_mode; } set { Raw.separation_mode = (int)value; } }
        public AlignmentMode Alignment { get { return (AlignmentMode)Raw.alignment_mode; } set { Raw.alignment_mode = (int)value; } }
        public Combine Combine { get { return (Combine)Raw.combine; } set { Raw.combine = (int)value; } }
        public Integrator Integrator { get { return (Integrator)Raw.integrator; } set { Raw.integrator = (int)value; } }
        public float MinSpeed { get { return Raw.min_speed; } set { Raw.min_speed = value; } }
        public float MaxSpeed { get { return Raw.max_speed; } set { Raw.max_speed = value; } }
        /// <summary>Largest steering force (Combine.Steer).</summary>
        public float MaxForce { get { return Raw.max_force; } set { Raw.max_force = value; } }
        /// <summary>Slerp fraction per second (Integrator.HeadingSpeed).</summary>
        public float MaxTurnRate { get { return Raw.max_turn_rate; } set { Raw.max_turn_rate = value; } }
        /// <summary>0..1 (Integrator.VelocityBlend).</summary>
        public float VelocitySmoothing { get { return Raw.velocity_smoothing; } set { Raw.velocity_smoothing = value; } }
        /// <summary>Multiplies the combined steering (Combine.WeightedClamped).</summary>
        public float DriveFactor { get { return Raw.drive_factor; } set { Raw.drive_factor = value; } }
        public FlockBounds Bounds
        {
            get { BoidsBounds b = Raw.bounds; return *(FlockBounds*)&b; }
            set { Raw.bounds = *(BoidsBounds*)&value; }
        }
        public PlaneLock Plane { get { return (PlaneLock)Raw.plane; } set { Raw.plane = (int)value; } }
        /// <summary>The point the flock is drawn to (TargetWeight) or kept away from inside
        /// TargetAvoidDistance; null for none.</summary>
        public Vec3? Target
        {
            get { if (Raw.has_target != 1) return null; BoidsVec3 t = Raw.target_point; return *(Vec3*)&t; }
            set
            {
                Raw.has_target = value.HasValue ? 1 : 0;
                if (value.HasValue) { Vec3 t = value.Value; Raw.target_point = *(BoidsVec3*)&t; }
            }
        }
        public float TargetAvoidDistance { get { return Raw.target_avoid_distance; } set { Raw.target_avoid_distance = value; } }
        public TargetRelocation? TargetRelocation
        {
            get
            {
                if (Raw.has_target_relocation != 1) return null;
                BoidsVec3 a = Raw.target_relocation_min, b = Raw.target_relocation_max;
                return new TargetRelocation(Raw.target_relocation_probability, *(Vec3*)&a, *(Vec3*)&b);
            }
            set
            {
                Raw.has_target_relocation = value.HasValue ? 1 : 0;
                if (!value.HasValue) return;
                TargetRelocation r = value.Value;
                Raw.target_relocation_probability = r.Probability;
                Raw.target_relocation_min = *(BoidsVec3*)&r.Min;
                Raw.target_relocation_max = *(BoidsVec3*)&r.Max;
            }
        }
        public IndexKind Index { get { return (IndexKind)Raw.index; } set { Raw.index = (int)value; } }
        public ObstacleAvoidance ObstacleAvoidance { get { return (ObstacleAvoidance)Raw.obstacle_avoidance; } set { Raw.obstacle_avoidance = (int)value; } }
        /// <summary>How far ahead obstacles are looked for.</summary>
        public float LookAhead { get { return Raw.look_ahead; } set { Raw.look_ahead = value; } }
        /// <summary>Radius of the swept sphere (0 = a ray).</summary>
        public float BoidRadius { get { return Raw.boid_radius; } set { Raw.boid_radius = value; } }
        public bool ObstacleOverrides { get { return Raw.obstacle_overrides == 1; } set { Raw.obstacle_overrides = value ? 1 : 0; } }
        public float RuleProbability { get { return Raw.rule_probability; } set { Raw.rule_probability = value; } }
        public float SpeedChangeProbability { get { return Raw.speed_change_probability; } set { Raw.speed_change_probability = value; } }
        public bool TargetNeedsNeighbours { get { return Raw.target_needs_neighbours == 1; } set { Raw.target_needs_neighbours = value ? 1 : 0; } }
        public float CohesionSmoothTime { get { return Raw.cohesion_smooth_time; } set { Raw.cohesion_smooth_time = value; } }
        public bool FallbackToNearest { get { return Raw.fallback_to_nearest == 1; } set { Raw.fallback_to_nearest = value ? 1 : 0; } }
        public float WanderRadius { get { return Raw.wander_radius; } set { Raw.wander_radius = value; } }
        public float WanderDistance { get { return Raw.wander_distance; } set { Raw.wander_distance = value; } }
        public float WanderJitter { get { return Raw.wander_jitter; } set { Raw.wander_jitter = value; } }
        public float ArrivalRadius { get { return Raw.arrival_radius; } set { Raw.arrival_radius = value; } }
        public float PathLookahead { get { return Raw.path_lookahead; } set { Raw.path_lookahead = value; } }
        /// <summary>Level of detail: step only every this many world steps (1..1000).</summary>
        public int UpdateEvery
        {
            get { return (int)Raw.update_every; }
            set
            {
                if (value < 0) throw new ArgumentOutOfRangeException("value", value, "UpdateEvery must not be negative");
                Raw.update_every = (uint)value;
            }
        }
        /// <summary>Level of detail: sleep while the observer is farther than this (0 = never).</summary>
        public float SleepDistance { get { return Raw.sleep_distance; } set { Raw.sleep_distance = value; } }
        /// <summary>Walk on the world's ground (mesh and heightfield obstacles marked as ground), steering in the horizontal plane; steeper slopes, bigger drops, edges and other obstacles are walls. A grounded flock takes no plane lock and no wrap or clamp bounds.</summary>
        public bool Grounded { get { return Raw.grounded != 0; } set { Raw.grounded = value ? 1 : 0; } }
        /// <summary>Grounded: the steepest walkable slope, degrees in [0, 89].</summary>
        public float GroundMaxSlopeDegrees { get { return Raw.ground_max_slope_deg; } set { Raw.ground_max_slope_deg = value; } }
        /// <summary>Grounded: the most a boid climbs or drops in one step (units).</summary>
        public float GroundStepHeight { get { return Raw.ground_step_height; } set { Raw.ground_step_height = value; } }
        /// <summary>Grounded: how far a boid's position is above its feet (units).</summary>
        public float GroundPivotHeight { get { return Raw.ground_pivot_height; } set { Raw.ground_pivot_height = value; } }
        /// <summary>Grounded: up in the orientations read back (world up, or the ground's normal).</summary>
        public GroundUp GroundUp { get { return (GroundUp)Raw.ground_up; } set { Raw.ground_up = (int)value; } }
        /// <summary>Radius of each boid's body: after every step no two bodies overlap by more than 1% of it, and none is inside an obstacle by more than that (0 = points).</summary>
        public float BodyRadius { get { return Raw.body_radius; } set { Raw.body_radius = value; } }

        /// <summary>Bit-for-bit equality of every field, unused ones included.</summary>
        public bool Equals(FlockSettings o)
        {
            if (ReferenceEquals(o, null)) return false;
            BoidsFlockParams a = Raw, b = o.Raw;
            return Bits.Same((byte*)&a, (byte*)&b, sizeof(BoidsFlockParams));
        }

        public override bool Equals(object o) { return Equals(o as FlockSettings); }
        public override int GetHashCode() { return Raw.perception_radius.GetHashCode() ^ Raw.max_speed.GetHashCode(); }
    }

    /// <summary>Where BoidsFlock.Spawn places new boids: uniform in a box, a ball, a disc in the
    /// flock's plane or a flattened ball, at speeds MinSpeed..MaxSpeed, heading along Direction
    /// (or every way, when null). new SpawnSettings() is the box -5..5 at speeds 2..5.</summary>
    public sealed unsafe class SpawnSettings
    {
        internal BoidsSpawnDef Raw;

        public SpawnSettings()
        {
            Interop.EnsureReady();
            Raw = NativeMethods.boids_default_spawn_def();
        }

        public static SpawnSettings Box(Vec3 min, Vec3 max)
        {
            var s = new SpawnSettings();
            s.Shape = SpawnKind.Box;
            s.Min = min;
            s.Max = max;
            return s;
        }

        public static SpawnSettings Sphere(Vec3 centre, float radius)
        {
            var s = new SpawnSettings();
            s.Shape = SpawnKind.Sphere;
            s.Centre = centre;
            s.Radius = radius;
            return s;
        }

        public SpawnKind Shape { get { return (SpawnKind)Raw.shape; } set { Raw.shape = (int)value; } }
        public Vec3 Min { get { BoidsVec3 v = Raw.min; return *(Vec3*)&v; } set { Raw.min = *(BoidsVec3*)&value; } }
        public Vec3 Max { get { BoidsVec3 v = Raw.max; return *(Vec3*)&v; } set { Raw.max = *(BoidsVec3*)&value; } }
        public Vec3 Centre { get { BoidsVec3 v = Raw.centre; return *(Vec3*)&v; } set { Raw.centre = *(BoidsVec3*)&value; } }
        public float Radius { get { return Raw.radius; } set { Raw.radius = value; } }
        public float MinSpeed { get { return Raw.min_speed; } set { Raw.min_speed = value; } }
        public float MaxSpeed { get { return Raw.max_speed; } set { Raw.max_speed = value; } }
        public Vec3? Direction
        {
            get { if (Raw.has_direction != 1) return null; BoidsVec3 v = Raw.direction; return *(Vec3*)&v; }
            set
            {
                Raw.has_direction = value.HasValue ? 1 : 0;
                if (value.HasValue) { Vec3 v = value.Value; Raw.direction = *(BoidsVec3*)&v; }
            }
        }
    }
}
