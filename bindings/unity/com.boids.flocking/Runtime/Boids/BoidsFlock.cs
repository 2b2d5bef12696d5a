// BoidsFlock (a flock in a world: its settings, reads and writes), BoidsMesh and
// BoidsObstacle: the rest of the public C# API of Boids.cs.
using System;
using System.Runtime.InteropServices;
using System.Text;
using BoidsFlocking.Native;

namespace BoidsFlocking
{
    /// <summary>A flock in a world. Its methods throw ObjectDisposedException once the world is
    /// disposed, and BoidsException(InvalidId) once the flock itself is destroyed. Per-frame
    /// calls (Count, Read*, Write*) allocate nothing.</summary>
    public sealed unsafe class BoidsFlock
    {
        readonly BoidsWorld world;
        readonly BoidsFlockId id;

        internal BoidsFlock(BoidsWorld world, BoidsFlockId id)
        {
            this.world = world;
            this.id = id;
        }

        internal BoidsFlockId Id { get { world.ThrowIfDisposed(); return id; } }

        /// <summary>Two handles are equal when they name the same flock of the same world
        /// (World.Flocks() and FindFlock return new handles). Never throws, even after
        /// Dispose.</summary>
        public override bool Equals(object obj)
        {
            var o = obj as BoidsFlock;
            return o != null && ReferenceEquals(o.world, world) && o.id.index == id.index && o.id.generation == id.generation;
        }

        public override int GetHashCode()
        {
            return unchecked((int)(id.index * 397u ^ id.generation));
        }

        public BoidsWorld World { get { return world; } }

        /// <summary>True while the flock (and its world) exist.</summary>
        public bool IsValid { get { return !world.IsDisposed && NativeMethods.boids_flock_is_valid(id) == 1; } }

        /// <summary>Number of boids.</summary>
        public int Count
        {
            get
            {
                UIntPtr n;
                Interop.Check(NativeMethods.boids_flock_count(Id, &n));
                return (int)n.ToUInt64();
            }
        }

        BoidsFlockParams Raw
        {
            get
            {
                BoidsFlockParams p;
                Interop.Check(NativeMethods.boids_flock_get_params(Id, &p));
                return p;
            }
            set
            {
                Interop.Check(NativeMethods.boids_flock_set_params(Id, &value));
            }
        }

        /// <summary>Every setting (a copy: change it, then assign it back). Setting validates every
        /// field first; on an error nothing changes and the message names the field.</summary>
        public FlockSettings Settings
        {
            get { return new FlockSettings(Raw); }
            set
            {
                Interop.NotNull(value, "value");
                Raw = value.Raw;
            }
        }

        /// <summary>Where the flock's boids are kept (its settings' Bounds), read without
        /// allocating: for per-frame use, where Settings would make a FlockSettings.</summary>
        public FlockBounds Bounds
        {
            get
            {
                BoidsFlockParams p = Raw;
                return *(FlockBounds*)&p.bounds;
            }
        }

        // The settings tuned most, one at a time (no allocation).
        public float PerceptionRadius { get { return Raw.perception_radius; } set { BoidsFlockParams p = Raw; p.perception_radius = value; Raw = p; } }
        /// <summary>Half-angle of the view in degrees: 90 sees the front half, 180 all around.</summary>
        public float FovHalfAngleDegrees { get { return Raw.fov_half_angle_deg; } set { BoidsFlockParams p = Raw; p.fov_half_angle_deg = value; Raw = p; } }
        public float SeparationWeight { get { return Raw.weight_separation; } set { BoidsFlockParams p = Raw; p.weight_separation = value; Raw = p; } }
        public float AlignmentWeight { get { return Raw.weight_alignment; } set { BoidsFlockParams p = Raw; p.weight_alignment = value; Raw = p; } }
        public float CohesionWeight { get { return Raw.weight_cohesion; } set { BoidsFlockParams p = Raw; p.weight_cohesion = value; Raw = p; } }
        public float MinSpeed { get { return Raw.min_speed; } set { BoidsFlockParams p = Raw; p.min_speed = value; Raw = p; } }
        public float MaxSpeed { get { return Raw.max_speed; } set { BoidsFlockParams p = Raw; p.max_speed = value; Raw = p; } }

        /// <summary>Moves the target (the settings must have a Target).</summary>
        public void SetTarget(Vec3 point)
        {
            Interop.Check(NativeMethods.boids_flock_set_target(Id, *(BoidsVec3*)&point));
        }

        /// <summary>Replaces only the bounds.</summary>
        public void SetBounds(FlockBounds bounds)
        {
            Interop.Check(NativeMethods.boids_flock_set_bounds(Id, (BoidsBounds*)&bounds));
        }

        /// <summary>How many boids are at the target: within the arrival radius of it (or without
        /// one the target's avoid distance, or without that the perception radius), in the
        /// horizontal plane for a grounded flock. Throws BoidsException(NotFound) without a
        /// target.</summary>
        public int CountAtTarget()
        {
            UIntPtr n;
            return Done(NativeMethods.boids_flock_count_at_target(Id, &n), n);
        }

        /// <summary>The grid of the flow field this flock read in the last step (with the world's
        /// FlowCellSize above 0, grounded, with a target): the corner of least x and z, the cell
        /// width, and the cells along x (columns) and z (rows); ReadFlowDistances and
        /// ReadFlowDirections list the cells row by row, x fastest. False when it read none.</summary>
        public bool TryGetFlowGrid(out Vec3 origin, out float cell, out int columns, out int rows)
        {
            BoidsVec3 o;
            float c;
            uint x, z;
            BoidsResult r = NativeMethods.boids_flock_get_flow_grid(Id, &o, &c, &x, &z);
            if (r == BoidsResult.NotFound)
            {
                origin = default(Vec3);
                cell = 0f;
                columns = rows = 0;
                return false;
            }
            Interop.Check(r);
            origin = *(Vec3*)&o;
            cell = c;
            columns = (int)x;
            rows = (int)z;
            return true;
        }

        /// <summary>Each cell's distance to the target along the flow field's way (world units;
        /// -1 where no way leads), row by row, x fastest; null when the flock read no field.
        /// Allocates: a debugging or drawing call, not a per-frame one (the overload taking a
        /// buffer does not).</summary>
        public float[] ReadFlowDistances()
        {
            Vec3 o;
            float c;
            int x, z;
            if (!TryGetFlowGrid(out o, out c, out x, out z)) return null;
            var d = new float[x * z];
            ReadFlowDistances(d);
            return d;
        }

        /// <summary>As ReadFlowDistances, into buffer (one float a cell); returns the cell count.
        /// Throws BoidsException(BufferTooSmall) when it does not fit, (NotFound) without a
        /// field.</summary>
        public int ReadFlowDistances(float[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            UIntPtr n;
            fixed (float* p = buffer) return Done(NativeMethods.boids_flock_read_flow_distances(Id, p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>Each cell's direction along the flow field's way (unit and horizontal; zero at
        /// the target and where no way leads), row by row, x fastest; null when the flock read no
        /// field. Allocates, as ReadFlowDistances.</summary>
        public Vec3[] ReadFlowDirections()
        {
            Vec3 o;
            float c;
            int x, z;
            if (!TryGetFlowGrid(out o, out c, out x, out z)) return null;
            var d = new Vec3[x * z];
            ReadFlowDirections(d);
            return d;
        }

        /// <summary>As ReadFlowDirections, into buffer; returns the cell count.</summary>
        public int ReadFlowDirections(Vec3[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            UIntPtr n;
            fixed (Vec3* p = buffer) return Done(NativeMethods.boids_flock_read_flow_directions(Id, (BoidsVec3*)p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>The box the observer must be in for the flock to move.</summary>
        public void SetWakeRegion(Vec3 min, Vec3 max)
        {
            Interop.Check(NativeMethods.boids_flock_set_wake_region(Id, (BoidsVec3*)&min, (BoidsVec3*)&max));
        }

        public void ClearWakeRegion()
        {
            Interop.Check(NativeMethods.boids_flock_set_wake_region(Id, null, null));
        }

        /// <summary>The flock's name (boids_flock_name).</summary>
        public string Name
        {
            get
            {
                UIntPtr len;
                BoidsResult r = NativeMethods.boids_flock_name(Id, null, UIntPtr.Zero, &len);
                if (r != BoidsResult.BufferTooSmall) Interop.Check(r);
                byte[] buf = new byte[(int)len + 1];
                fixed (byte* p = buf)
                {
                    Interop.Check(NativeMethods.boids_flock_name(Id, p, (UIntPtr)buf.Length, &len));
                }
                return Encoding.UTF8.GetString(buf, 0, (int)len);
            }
        }

        /// <summary>True if the last step skipped this flock (observer outside its wake region, or
        /// farther than its sleep distance).</summary>
        public bool IsAsleep
        {
            get
            {
                int a;
                Interop.Check(NativeMethods.boids_flock_is_asleep(Id, &a));
                return a == 1;
            }
        }

        /// <summary>Spawns n boids (default spawn settings when null); returns the first new id
        /// (ids are consecutive).</summary>
        public uint Spawn(int n, SpawnSettings spawn = null)
        {
            uint count = Interop.Count(n, "n");
            BoidsSpawnDef def = spawn != null ? spawn.Raw : NativeMethods.boids_default_spawn_def();
            uint first;
            Interop.Check(NativeMethods.boids_flock_spawn(Id, count, &def, &first));
            return first;
        }

        /// <summary>Grows (spawning with these settings) or shrinks (newest first) to n boids.</summary>
        public void Resize(int n, SpawnSettings spawn = null)
        {
            uint count = Interop.Count(n, "n");
            BoidsSpawnDef def = spawn != null ? spawn.Raw : NativeMethods.boids_default_spawn_def();
            Interop.Check(NativeMethods.boids_flock_resize(Id, count, &def));
        }

        /// <summary>Adds boids with these positions and velocities (same length); returns the
        /// first new id.</summary>
        public uint Add(Vec3[] positions, Vec3[] velocities)
        {
            Interop.NotNull(positions, "positions");
            Interop.NotNull(velocities, "velocities");
            if (positions.Length != velocities.Length)
                throw new ArgumentException("positions and velocities differ in length (" + positions.Length + ", " + velocities.Length + ")", "velocities");
            uint first;
            fixed (Vec3* p = positions)
            fixed (Vec3* v = velocities)
                Interop.Check(NativeMethods.boids_flock_add_boids(Id, (BoidsVec3*)p, (BoidsVec3*)v, (UIntPtr)positions.Length, &first));
            return first;
        }

        /// <summary>Removes the boids with these ids (all or none); returns how many went.</summary>
        public int Remove(uint[] ids)
        {
            Interop.NotNull(ids, "ids");
            UIntPtr n;
            fixed (uint* p = ids)
                Interop.Check(NativeMethods.boids_flock_remove_boids(Id, p, (UIntPtr)ids.Length, &n));
            return (int)n.ToUInt64();
        }

        static int Done(BoidsResult r, UIntPtr n)
        {
            Interop.Check(r);
            return (int)n.ToUInt64();
        }

        /// <summary>Copies every position (id order) into buffer; returns the count. Throws
        /// BoidsException(BufferTooSmall) when it does not fit. No allocation.</summary>
        public int ReadPositions(Vec3[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            fixed (Vec3* p = buffer) return ReadPositions((IntPtr)p, buffer.Length);
        }

        /// <summary>As ReadPositions, into caller memory holding capacity 12-byte vectors (a
        /// NativeArray's pointer; BoidsFlocking.UnityIntegration has the NativeArray overloads).</summary>
        public int ReadPositions(IntPtr buffer, int capacity)
        {
            UIntPtr cap = Interop.Capacity(buffer, capacity), n;
            return Done(NativeMethods.boids_flock_read_positions(Id, (BoidsVec3*)buffer, cap, &n), n);
        }

        public int ReadVelocities(Vec3[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            fixed (Vec3* p = buffer) return ReadVelocities((IntPtr)p, buffer.Length);
        }

        public int ReadVelocities(IntPtr buffer, int capacity)
        {
            UIntPtr cap = Interop.Capacity(buffer, capacity), n;
            return Done(NativeMethods.boids_flock_read_velocities(Id, (BoidsVec3*)buffer, cap, &n), n);
        }

        /// <summary>Every boid's id, ascending (the order of every read).</summary>
        public int ReadIds(uint[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            UIntPtr n;
            fixed (uint* p = buffer) return Done(NativeMethods.boids_flock_read_ids(Id, p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>Orientations (Unity's LookRotation of each heading).</summary>
        public int ReadOrientations(Quat[] buffer)
        {
            Interop.NotNull(buffer, "buffer");
            fixed (Quat* p = buffer) return ReadOrientations((IntPtr)p, buffer.Length);
        }

        public int ReadOrientations(IntPtr buffer, int capacity)
        {
            UIntPtr cap = Interop.Capacity(buffer, capacity), n;
            return Done(NativeMethods.boids_flock_read_orientations(Id, (BoidsQuat*)buffer, cap, &n), n);
        }

        /// <summary>4x4 instance matrices in Unity's Matrix4x4 layout, ready for
        /// Graphics.RenderMeshInstanced (scale multiplies each boid's size).</summary>
        public int ReadMatrices(Mat4[] buffer, float scale = 1f)
        {
            Interop.NotNull(buffer, "buffer");
            fixed (Mat4* p = buffer) return ReadMatrices((IntPtr)p, buffer.Length, scale);
        }

        public int ReadMatrices(IntPtr buffer, int capacity, float scale = 1f)
        {
            UIntPtr cap = Interop.Capacity(buffer, capacity), n;
            return Done(NativeMethods.boids_flock_read_matrices(Id, scale, (BoidsMat4*)buffer, cap, &n), n);
        }

        /// <summary>As ReadMatrices, each matrix multiplied on the left by transform (column-major,
        /// Unity's layout; every element finite and within 1e9): for a flock that lives in a parent
        /// object's local space, pass that object's localToWorldMatrix and draw the result. No
        /// per-boid work in C#.</summary>
        public int ReadMatrices(Mat4[] buffer, Mat4 transform, float scale = 1f)
        {
            Interop.NotNull(buffer, "buffer");
            fixed (Mat4* p = buffer) return ReadMatrices((IntPtr)p, buffer.Length, transform, scale);
        }

        public int ReadMatrices(IntPtr buffer, int capacity, Mat4 transform, float scale = 1f)
        {
            UIntPtr cap = Interop.Capacity(buffer, capacity), n;
            return Done(NativeMethods.boids_flock_read_matrices_transformed(Id, (BoidsMat4*)&transform, scale, (BoidsMat4*)buffer, cap, &n), n);
        }

        /// <summary>Overwrites every position (id order; length must equal Count).</summary>
        public void WritePositions(Vec3[] positions)
        {
            Interop.NotNull(positions, "positions");
            fixed (Vec3* p = positions)
                Interop.Check(NativeMethods.boids_flock_write_positions(Id, (BoidsVec3*)p, (UIntPtr)positions.Length));
        }

        /// <summary>Overwrites every velocity (id order; length must equal Count).</summary>
        public void WriteVelocities(Vec3[] velocities)
        {
            Interop.NotNull(velocities, "velocities");
            fixed (Vec3* p = velocities)
                Interop.Check(NativeMethods.boids_flock_write_velocities(Id, (BoidsVec3*)p, (UIntPtr)velocities.Length));
        }

        /// <summary>The polyline the flock follows with PathWeight (fewer than two points clears it).</summary>
        public void SetPath(Vec3[] points, bool closed)
        {
            Interop.NotNull(points, "points");
            fixed (Vec3* p = points)
                Interop.Check(NativeMethods.boids_flock_set_path(Id, (BoidsVec3*)p, (UIntPtr)points.Length, closed ? 1 : 0));
        }

        /// <summary>Boid boidId leads: the target follows it at offset in its frame (+Z ahead,
        /// +Y up), and the others steer to it with TargetWeight.</summary>
        public void SetLeader(uint boidId, Vec3 offset)
        {
            Interop.Check(NativeMethods.boids_flock_set_leader(Id, boidId, *(BoidsVec3*)&offset));
        }

        public void ClearLeader()
        {
            Interop.Check(NativeMethods.boids_flock_clear_leader(Id));
        }

        /// <summary>Destroys the flock; later calls on it throw BoidsException(InvalidId).</summary>
        public void Destroy()
        {
            Interop.Check(NativeMethods.boids_flock_destroy(Id));
        }
    }

    /// <summary>Shape data in a world: a triangle mesh or a heightfield, placed by any number of
    /// obstacles (ObstacleShape.Mesh / Heightfield).</summary>
    public sealed unsafe class BoidsMesh
    {
        readonly BoidsWorld world;
        readonly BoidsMeshId id;

        internal BoidsMesh(BoidsWorld world, BoidsMeshId id)
        {
            this.world = world;
            this.id = id;
        }

        internal BoidsMeshId NativeId { get { return id; } }

        public BoidsWorld World { get { return world; } }

        /// <summary>Whether the data is still alive.</summary>
        public bool IsValid { get { return !world.IsDisposed && NativeMethods.boids_mesh_is_valid(id) == 1; } }

        /// <summary>Destroys the data. Throws BoidsException(InvalidArgument) while an obstacle
        /// places it (remove those first), InvalidId when already destroyed.</summary>
        public void Destroy()
        {
            world.ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_mesh_destroy(id));
        }
    }

    /// <summary>An obstacle in a world.</summary>
    public sealed unsafe class BoidsObstacle
    {
        readonly BoidsWorld world;
        readonly BoidsObstacleId id;

        internal BoidsObstacle(BoidsWorld world, BoidsObstacleId id)
        {
            this.world = world;
            this.id = id;
        }

        public BoidsWorld World { get { return world; } }

        /// <summary>Moves or reshapes the obstacle.</summary>
        public void Set(ObstacleShape shape)
        {
            world.ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_obstacle_set(id, (BoidsObstacleDef*)&shape));
        }

        /// <summary>Removes the obstacle; later calls on it throw BoidsException(InvalidId).</summary>
        public void Remove()
        {
            world.ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_obstacle_remove(id));
        }
    }
}
