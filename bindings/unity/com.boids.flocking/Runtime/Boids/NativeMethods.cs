// Raw P/Invoke layer over the boids C ABI (include/boids.h): one [DllImport] per export, the ABI
// structs with the same layout, nothing else. Internal: user code goes through Boids.cs. Checked
// against the header by crates/ffi/tests/csharp_decls.rs and against the native struct sizes
// once per process. C# 7.2 at most, so Unity's compiler and Mono's mcs both accept it.
using System;
using System.Runtime.InteropServices;

namespace BoidsFlocking
{
    /// <summary>Result of every fallible call (BOIDS_RESULT_*); BoidsException.Result.</summary>
    public enum BoidsResult : int
    {
        Ok = 0,
        NullPointer = 1,
        InvalidId = 2,
        InvalidArgument = 3,
        BufferTooSmall = 4,
        Busy = 5,
        Panic = 6,
        InvalidDef = 7,
        NotFound = 8,
    }
}

namespace BoidsFlocking.Native
{

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsVec3
    {
        public float x, y, z;
        public BoidsVec3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public override string ToString() { return "(" + x + ", " + y + ", " + z + ")"; }
    }

    /// <summary>Quaternion in Unity's memory order x, y, z, w.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsQuat
    {
        public float x, y, z, w;
    }

    /// <summary>4x4 matrix, column-major, field for field Unity's Matrix4x4 (m00 m10 m20 m30 m01 ...).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsMat4
    {
        public float m00, m10, m20, m30;
        public float m01, m11, m21, m31;
        public float m02, m12, m22, m32;
        public float m03, m13, m23, m33;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsWorldId
    {
        public uint index, generation;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsFlockId
    {
        public BoidsWorldId world;
        public uint index, generation;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsObstacleId
    {
        public BoidsWorldId world;
        public uint index, generation;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsWorldDef
    {
        public ulong seed;
        public uint threads;
        public uint internal_cookie;
        /// <summary>A host job system's workers; with enqueue_task only (C/C++ hosts: see the
        /// docs' "Threads"; the C# API stays on the engine's pool).</summary>
        public uint worker_count;
        public IntPtr enqueue_task;
        public IntPtr finish_task;
        public IntPtr user_context;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsBounds
    {
        public int kind;
        public BoidsVec3 min, max, centre;
        public float radius, distance, inner;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsFlockParams
    {
        public float perception_radius, fov_half_angle_deg, separation_radius;
        public uint max_neighbours;
        public float weight_separation, weight_alignment, weight_cohesion, weight_target;
        public float weight_target_avoid, weight_bounds, weight_obstacles, weight_wander;
        public int separation_mode, alignment_mode, combine, integrator;
        public float min_speed, max_speed, max_force, max_turn_rate, velocity_smoothing, drive_factor;
        public BoidsBounds bounds;
        public int plane, has_target;
        public BoidsVec3 target_point;
        public float target_avoid_distance;
        public int index, obstacle_avoidance;
        public float look_ahead, boid_radius;
        public int obstacle_overrides;
        public float rule_probability, speed_change_probability;
        public int target_needs_neighbours, has_target_relocation;
        public float target_relocation_probability;
        public BoidsVec3 target_relocation_min, target_relocation_max;
        public float cohesion_smooth_time;
        public int fallback_to_nearest;
        public float weight_path, wander_radius, wander_distance, wander_jitter, arrival_radius, path_lookahead;
        public uint update_every;
        public float sleep_distance;
        public int grounded;
        public float ground_max_slope_deg, ground_step_height, ground_pivot_height;
        public int ground_up;
        public float body_radius;
        public uint reserved;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsFlockDef
    {
        public IntPtr name;
        public BoidsFlockParams flock_params;
        public uint internal_cookie;
        public uint reserved;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsSpawnDef
    {
        public int shape;
        public BoidsVec3 min, max, centre;
        public float radius, min_speed, max_speed;
        public int has_direction;
        public BoidsVec3 direction;
        public uint internal_cookie;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsMeshId
    {
        public BoidsWorldId world;
        public uint index, generation;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidsObstacleDef
    {
        public int shape;
        public BoidsVec3 a, b;
        public float radius;
        public BoidsQuat rotation;
        public BoidsVec3 scale;
        public BoidsMeshId mesh;
        public int ground;
        public uint internal_cookie;
    }

    /// <summary>Constants of include/boids.h. The enum values (BOUNDS_*, SEPARATION_*, ...) are in
    /// Enums.cs, generated from the engine's enum tables, as are the typed enums of namespace BoidsFlocking.</summary>
    internal static partial class BoidsConst
    {
        public const uint ABI_VERSION = 4;
        public const int STRUCT_VEC3 = 0, STRUCT_QUAT = 1, STRUCT_MAT4 = 2, STRUCT_WORLD_ID = 3, STRUCT_FLOCK_ID = 4,
            STRUCT_OBSTACLE_ID = 5, STRUCT_WORLD_DEF = 6, STRUCT_BOUNDS = 7, STRUCT_FLOCK_PARAMS = 8,
            STRUCT_FLOCK_DEF = 9, STRUCT_SPAWN_DEF = 10, STRUCT_OBSTACLE_DEF = 11, STRUCT_MESH_ID = 12;
    }

    /// <summary>One [DllImport] per export of include/boids.h, Cdecl, pointers as pointers.</summary>
    internal static unsafe class NativeMethods
    {
#if (UNITY_IOS || (UNITY_ANDROID && ENABLE_IL2CPP)) && !UNITY_EDITOR
        /// <summary>Statically linked into the player: iOS, and Android with IL2CPP (the package
        /// carries static libraries for both).</summary>
        public const string Lib = "__Internal";
#else
        /// <summary>libboids_ffi.so / boids_ffi.dll / libboids_ffi.dylib. On WebGL and on an
        /// Android player built with Mono too, on purpose: the package has no library either can
        /// load, and IL2CPP links an `__Internal` import directly (a build would fail on the
        /// missing symbols), while this name is looked up only when called, which
        /// Interop.EnsureReady prevents with a clear exception.</summary>
        public const string Lib = "boids_ffi";
#endif
        const CallingConvention CC = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = CC)] public static extern IntPtr boids_version();
        [DllImport(Lib, CallingConvention = CC)] public static extern uint boids_abi_version();
        [DllImport(Lib, CallingConvention = CC)] public static extern uint boids_struct_size(int kind);
        [DllImport(Lib, CallingConvention = CC)] public static extern IntPtr boids_result_str(int result);
        [DllImport(Lib, CallingConvention = CC)] public static extern IntPtr boids_last_error_message();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsWorldDef boids_default_world_def();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsFlockParams boids_default_flock_params();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsFlockDef boids_default_flock_def();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsSpawnDef boids_default_spawn_def();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsObstacleDef boids_default_obstacle_def();
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_create(BoidsWorldDef* def, BoidsWorldId* out_world);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_destroy(BoidsWorldId world);
        [DllImport(Lib, CallingConvention = CC)] public static extern int boids_world_is_valid(BoidsWorldId world);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_step(BoidsWorldId world, float dt);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_step_begin(BoidsWorldId world, float dt);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_step_begin_n(BoidsWorldId world, float dt, uint count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_step_end(BoidsWorldId world);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_is_stepping(BoidsWorldId world, int* out_stepping);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_state_hash(BoidsWorldId world, ulong* out_hash);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_rounded_digest(BoidsWorldId world, uint digits, ulong* out_digest);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_save(BoidsWorldId world, byte* out_buf, UIntPtr capacity, UIntPtr* out_len);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_load(BoidsWorldDef* def, byte* bytes, UIntPtr len, BoidsWorldId* out_world);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_list_flocks(BoidsWorldId world, BoidsFlockId* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_read_scene_triangles(BoidsWorldId world, BoidsVec3* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_set_observer(BoidsWorldId world, BoidsVec3* point);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_set_flow_cell_size(BoidsWorldId world, float cell);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_get_flow_cell_size(BoidsWorldId world, float* out_cell);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_set_flow_budget(BoidsWorldId world, uint units);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_get_flow_budget(BoidsWorldId world, uint* out_units);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_get_ground_height(BoidsWorldId world, float x, float z, float* out_height);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_create(BoidsWorldId world, BoidsFlockDef* def, BoidsFlockId* out_flock);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_create_preset(BoidsWorldId world, byte* preset, byte* name, BoidsFlockId* out_flock);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_destroy(BoidsFlockId flock);
        [DllImport(Lib, CallingConvention = CC)] public static extern int boids_flock_is_valid(BoidsFlockId flock);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_find(BoidsWorldId world, byte* name, BoidsFlockId* out_flock);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_get_params(BoidsFlockId flock, BoidsFlockParams* out_params);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_params(BoidsFlockId flock, BoidsFlockParams* flock_params);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_target(BoidsFlockId flock, BoidsVec3 point);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_bounds(BoidsFlockId flock, BoidsBounds* bounds);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_wake_region(BoidsFlockId flock, BoidsVec3* min, BoidsVec3* max);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_is_asleep(BoidsFlockId flock, int* out_asleep);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_name(BoidsFlockId flock, byte* out_buf, UIntPtr capacity, UIntPtr* out_len);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_spawn(BoidsFlockId flock, uint count, BoidsSpawnDef* spawn, uint* out_first_id);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_resize(BoidsFlockId flock, uint count, BoidsSpawnDef* spawn);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_add_boids(BoidsFlockId flock, BoidsVec3* positions, BoidsVec3* velocities, UIntPtr count, uint* out_first_id);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_remove_boids(BoidsFlockId flock, uint* ids, UIntPtr count, UIntPtr* out_removed);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_count(BoidsFlockId flock, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_count_at_target(BoidsFlockId flock, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_get_flow_grid(BoidsFlockId flock, BoidsVec3* out_origin, float* out_cell, uint* out_columns, uint* out_rows);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_flow_distances(BoidsFlockId flock, float* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_flow_directions(BoidsFlockId flock, BoidsVec3* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_positions(BoidsFlockId flock, BoidsVec3* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_velocities(BoidsFlockId flock, BoidsVec3* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_ids(BoidsFlockId flock, uint* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_orientations(BoidsFlockId flock, BoidsQuat* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_matrices(BoidsFlockId flock, float scale, BoidsMat4* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_read_matrices_transformed(BoidsFlockId flock, BoidsMat4* transform, float scale, BoidsMat4* out_buf, UIntPtr capacity, UIntPtr* out_count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_write_positions(BoidsFlockId flock, BoidsVec3* positions, UIntPtr count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_write_velocities(BoidsFlockId flock, BoidsVec3* velocities, UIntPtr count);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_obstacle_add(BoidsWorldId world, BoidsObstacleDef* def, BoidsObstacleId* out_obstacle);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_obstacle_set(BoidsObstacleId obstacle, BoidsObstacleDef* def);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_obstacle_remove(BoidsObstacleId obstacle);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_mesh_create(BoidsWorldId world, BoidsVec3* vertices, UIntPtr vertex_count, uint* indices, UIntPtr index_count, BoidsMeshId* out_mesh);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_heightfield_create(BoidsWorldId world, float* heights, uint columns, uint rows, float cell_x, float cell_z, BoidsMeshId* out_mesh);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_mesh_destroy(BoidsMeshId mesh);
        [DllImport(Lib, CallingConvention = CC)] public static extern int boids_mesh_is_valid(BoidsMeshId mesh);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_world_set_relation(BoidsWorldId world, BoidsFlockId from, BoidsFlockId to, int kind, float radius, float weight);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_path(BoidsFlockId flock, BoidsVec3* points, UIntPtr count, int closed);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_set_leader(BoidsFlockId flock, uint boid_id, BoidsVec3 offset);
        [DllImport(Lib, CallingConvention = CC)] public static extern BoidsResult boids_flock_clear_leader(BoidsFlockId flock);
    }
}
