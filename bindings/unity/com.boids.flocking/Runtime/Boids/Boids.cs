// The idiomatic C# layer over Boids.Native: BoidsWorld (IDisposable over a SafeHandle),
// BoidsFlock, BoidsObstacle, BoidsException. Hot calls (Step, Read*, Write*) take caller arrays
// or raw pointers and allocate nothing. C# 7.2 at most (Unity and Mono's mcs).
using System;
using System.Runtime.InteropServices;
using System.Text;
using Boids.Native;

namespace Boids
{
    /// <summary>A call the native library refused: the result code and its sentence.</summary>
    public sealed class BoidsException : Exception
    {
        public BoidsResult Result { get; private set; }

        public BoidsException(BoidsResult result, string detail)
            : base(result + ": " + detail)
        {
            Result = result;
        }
    }

    internal static unsafe class Interop
    {
        static Interop()
        {
            CheckLayout();
        }

        /// <summary>Throws unless the native library speaks this wrapper's ABI with the same struct sizes.</summary>
        internal static void CheckLayout()
        {
            uint abi = NativeMethods.boids_abi_version();
            if (abi != BoidsConst.ABI_VERSION)
                throw new InvalidOperationException("boids native library has ABI " + abi + ", this wrapper expects " + BoidsConst.ABI_VERSION);
            Expect(BoidsConst.STRUCT_VEC3, sizeof(BoidsVec3), "BoidsVec3");
            Expect(BoidsConst.STRUCT_QUAT, sizeof(BoidsQuat), "BoidsQuat");
            Expect(BoidsConst.STRUCT_MAT4, sizeof(BoidsMat4), "BoidsMat4");
            Expect(BoidsConst.STRUCT_WORLD_ID, sizeof(BoidsWorldId), "BoidsWorldId");
            Expect(BoidsConst.STRUCT_FLOCK_ID, sizeof(BoidsFlockId), "BoidsFlockId");
            Expect(BoidsConst.STRUCT_OBSTACLE_ID, sizeof(BoidsObstacleId), "BoidsObstacleId");
            Expect(BoidsConst.STRUCT_WORLD_DEF, sizeof(BoidsWorldDef), "BoidsWorldDef");
            Expect(BoidsConst.STRUCT_BOUNDS, sizeof(BoidsBounds), "BoidsBounds");
            Expect(BoidsConst.STRUCT_FLOCK_PARAMS, sizeof(BoidsFlockParams), "BoidsFlockParams");
            Expect(BoidsConst.STRUCT_FLOCK_DEF, sizeof(BoidsFlockDef), "BoidsFlockDef");
            Expect(BoidsConst.STRUCT_SPAWN_DEF, sizeof(BoidsSpawnDef), "BoidsSpawnDef");
            Expect(BoidsConst.STRUCT_OBSTACLE_DEF, sizeof(BoidsObstacleDef), "BoidsObstacleDef");
        }

        static void Expect(int kind, int managed, string name)
        {
            uint native = NativeMethods.boids_struct_size(kind);
            if (native != managed)
                throw new InvalidOperationException(name + " is " + managed + " bytes in C# but " + native + " in the native library");
        }

        internal static string Utf8(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            byte* b = (byte*)p;
            int n = 0;
            while (b[n] != 0) n++;
            return Encoding.UTF8.GetString(b, n);
        }

        internal static string LastError()
        {
            return Utf8(NativeMethods.boids_last_error_message());
        }

        /// <summary>Capacity of raw memory, checked: never negative, and a null buffer holds nothing.</summary>
        internal static UIntPtr Capacity(void* buffer, int capacity)
        {
            if (capacity < 0)
                throw new ArgumentOutOfRangeException("capacity", capacity, "must not be negative");
            if (buffer == null && capacity > 0)
                throw new ArgumentNullException("buffer", "is null but capacity is " + capacity);
            return (UIntPtr)(uint)capacity;
        }

        /// <summary>Throws BoidsException unless r is Ok. Allocates nothing on success.</summary>
        internal static void Check(BoidsResult r)
        {
            if (r != BoidsResult.Ok) throw new BoidsException(r, LastError());
        }

        /// <summary>NUL-terminated UTF-8 (set-up calls only, never per frame). Throws
        /// ArgumentNullException / ArgumentException naming the caller's parameter when s is null
        /// or holds a NUL, which C would read as the end of the string.</summary>
        internal static byte[] CString(string s, string param)
        {
            if (s == null) throw new ArgumentNullException(param);
            if (s.IndexOf('\0') >= 0)
                throw new ArgumentException("must not contain a NUL character (C would cut the name there)", param);
            byte[] bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }
    }

    /// <summary>Owns one native world; releases it when disposed or finalised.</summary>
    public sealed class BoidsWorldHandle : SafeHandle
    {
        internal BoidsWorldId Id;

        internal BoidsWorldHandle(BoidsWorldId id) : base(IntPtr.Zero, true)
        {
            Id = id;
            SetHandle(new IntPtr(1));
        }

        public override bool IsInvalid { get { return Id.index == 0; } }

        protected override bool ReleaseHandle()
        {
            // BUSY only if another thread is inside a call on this world; retry until it returns.
            while (true)
            {
                BoidsResult r = NativeMethods.boids_world_destroy(Id);
                if (r != BoidsResult.Busy) return r == BoidsResult.Ok || r == BoidsResult.InvalidId;
                System.Threading.Thread.Sleep(0);
            }
        }
    }

    /// <summary>A simulation world: flocks, obstacles, a seed, worker threads.</summary>
    public sealed unsafe class BoidsWorld : IDisposable
    {
        readonly BoidsWorldHandle handle;

        /// <summary>Library version, e.g. "0.2.0".</summary>
        public static string Version { get { return Interop.Utf8(NativeMethods.boids_version()); } }

        /// <summary>A new world. threads = 0 uses one worker per core.</summary>
        public BoidsWorld(ulong seed = 0, uint threads = 0)
        {
            Interop.CheckLayout();
            BoidsWorldDef def = NativeMethods.boids_default_world_def();
            def.seed = seed;
            def.threads = threads;
            BoidsWorldId id;
            Interop.Check(NativeMethods.boids_world_create(&def, &id));
            handle = new BoidsWorldHandle(id);
        }

        /// <summary>The native id (throws ObjectDisposedException after Dispose).</summary>
        public BoidsWorldId Id { get { ThrowIfDisposed(); return handle.Id; } }

        public bool IsDisposed { get { return handle.IsClosed; } }

        internal void ThrowIfDisposed()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("BoidsWorld");
        }

        /// <summary>Advances every flock by dt seconds (0 &lt; dt &lt;= 1). No allocation.</summary>
        public void Step(float dt)
        {
            ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_world_step(handle.Id, dt));
        }

        /// <summary>64-bit hash of the whole state, for determinism checks.</summary>
        public ulong StateHash
        {
            get
            {
                ThrowIfDisposed();
                ulong h;
                Interop.Check(NativeMethods.boids_world_state_hash(handle.Id, &h));
                return h;
            }
        }

        /// <summary>Creates a flock named name with parameters p (BoidsFlock.DefaultParams() to start from).</summary>
        public BoidsFlock CreateFlock(string name, BoidsFlockParams p)
        {
            ThrowIfDisposed();
            byte[] n = Interop.CString(name, "name");
            BoidsFlockDef def = NativeMethods.boids_default_flock_def();
            def.flock_params = p;
            BoidsFlockId id;
            fixed (byte* np = n)
            {
                def.name = (IntPtr)np;
                Interop.Check(NativeMethods.boids_flock_create(handle.Id, &def, &id));
            }
            return new BoidsFlock(this, id);
        }

        /// <summary>Creates a flock with the fish-tank preset's default parameters.</summary>
        public BoidsFlock CreateFlock(string name)
        {
            return CreateFlock(name, BoidsFlock.DefaultParams());
        }

        /// <summary>Creates a flock from a preset (see `boids presets`), with the preset's boids.</summary>
        public BoidsFlock CreatePreset(string preset, string name)
        {
            ThrowIfDisposed();
            byte[] p = Interop.CString(preset, "preset"), n = Interop.CString(name, "name");
            BoidsFlockId id;
            fixed (byte* pp = p)
            fixed (byte* np = n)
                Interop.Check(NativeMethods.boids_flock_create_preset(handle.Id, pp, np, &id));
            return new BoidsFlock(this, id);
        }

        /// <summary>The flock with this name, or null.</summary>
        public BoidsFlock FindFlock(string name)
        {
            ThrowIfDisposed();
            byte[] n = Interop.CString(name, "name");
            BoidsFlockId id;
            BoidsResult r;
            fixed (byte* np = n) r = NativeMethods.boids_flock_find(handle.Id, np, &id);
            if (r == BoidsResult.NotFound) return null;
            Interop.Check(r);
            return new BoidsFlock(this, id);
        }

        /// <summary>Every live flock of the world (allocates: a set-up call, not a per-frame one).</summary>
        public BoidsFlock[] Flocks()
        {
            ThrowIfDisposed();
            UIntPtr n;
            BoidsResult r = NativeMethods.boids_world_list_flocks(handle.Id, null, UIntPtr.Zero, &n);
            if (r != BoidsResult.Ok && r != BoidsResult.BufferTooSmall) Interop.Check(r);
            var ids = new BoidsFlockId[(int)n.ToUInt64()];
            fixed (BoidsFlockId* p = ids)
                Interop.Check(NativeMethods.boids_world_list_flocks(handle.Id, p, (UIntPtr)ids.Length, &n));
            var flocks = new BoidsFlock[(int)n.ToUInt64()];
            for (int i = 0; i < flocks.Length; i++) flocks[i] = new BoidsFlock(this, ids[i]);
            return flocks;
        }

        /// <summary>Sets the observer (player) point; flocks with a wake region move only while it is inside.</summary>
        public void SetObserver(BoidsVec3 point)
        {
            ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_world_set_observer(handle.Id, &point));
        }

        /// <summary>Clears the observer: every flock is awake.</summary>
        public void ClearObserver()
        {
            ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_world_set_observer(handle.Id, null));
        }

        /// <summary>How flock `from` reacts to flock `to`: flee or chase the nearest of its boids in
        /// range with prediction, avoid them, or move with them; Ignore removes the relation.</summary>
        public void SetRelation(BoidsFlock from, BoidsFlock to, RelationKind kind, float radius, float weight)
        {
            SetRelation(from, to, (int)kind, radius, weight);
        }

        /// <summary>SetRelation with the raw C value (BoidsConst.RELATION_*).</summary>
        public void SetRelation(BoidsFlock from, BoidsFlock to, int kind, float radius, float weight)
        {
            ThrowIfDisposed();
            if (from == null) throw new ArgumentNullException("from");
            if (to == null) throw new ArgumentNullException("to");
            Interop.Check(NativeMethods.boids_world_set_relation(handle.Id, from.Id, to.Id, kind, radius, weight));
        }

        /// <summary>Adds an obstacle every flock avoids (per its params).</summary>
        public BoidsObstacle AddObstacle(BoidsObstacleDef def)
        {
            ThrowIfDisposed();
            BoidsObstacleId id;
            Interop.Check(NativeMethods.boids_obstacle_add(handle.Id, &def, &id));
            return new BoidsObstacle(this, id);
        }

        /// <summary>Destroys the native world and everything in it. Idempotent.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }

    /// <summary>A flock in a world. Its methods throw ObjectDisposedException once the world is disposed,
    /// and BoidsException(InvalidId) once the flock itself is destroyed.</summary>
    public sealed unsafe class BoidsFlock
    {
        readonly BoidsWorld world;
        BoidsFlockId id;

        internal BoidsFlock(BoidsWorld world, BoidsFlockId id)
        {
            this.world = world;
            this.id = id;
        }

        /// <summary>The fish-tank preset's fish: radius 1, 90° field of view, weights 5/2/3, speeds 2..5, walls of a 10-unit box.</summary>
        public static BoidsFlockParams DefaultParams()
        {
            Interop.CheckLayout();
            return NativeMethods.boids_default_flock_params();
        }

        /// <summary>Spawn settings: the box -5..5 at speeds 2..5.</summary>
        public static BoidsSpawnDef DefaultSpawn()
        {
            return NativeMethods.boids_default_spawn_def();
        }

        public BoidsFlockId Id { get { world.ThrowIfDisposed(); return id; } }
        public BoidsWorld World { get { return world; } }

        /// <summary>True while the flock (and its world) exist.</summary>
        public bool IsValid { get { return !world.IsDisposed && NativeMethods.boids_flock_is_valid(id) == 1; } }

        BoidsFlockId Live { get { world.ThrowIfDisposed(); return id; } }

        /// <summary>Number of boids.</summary>
        public int Count
        {
            get
            {
                UIntPtr n;
                Interop.Check(NativeMethods.boids_flock_count(Live, &n));
                return (int)n.ToUInt64();
            }
        }

        /// <summary>All parameters; setting replaces them live (validated; on error nothing changes).</summary>
        public BoidsFlockParams Params
        {
            get
            {
                BoidsFlockParams p;
                Interop.Check(NativeMethods.boids_flock_get_params(Live, &p));
                return p;
            }
            set
            {
                Interop.Check(NativeMethods.boids_flock_set_params(Live, &value));
            }
        }

        public float PerceptionRadius { get { return Params.perception_radius; } set { BoidsFlockParams p = Params; p.perception_radius = value; Params = p; } }
        /// <summary>Half-angle of the view in degrees: 90 sees the front half, 180 all around.</summary>
        public float FovHalfAngleDegrees { get { return Params.fov_half_angle_deg; } set { BoidsFlockParams p = Params; p.fov_half_angle_deg = value; Params = p; } }
        [Obsolete("a half-angle: renamed FovHalfAngleDegrees")]
        public float FieldOfViewDegrees { get { return FovHalfAngleDegrees; } set { FovHalfAngleDegrees = value; } }
        public float SeparationWeight { get { return Params.weight_separation; } set { BoidsFlockParams p = Params; p.weight_separation = value; Params = p; } }
        public float AlignmentWeight { get { return Params.weight_alignment; } set { BoidsFlockParams p = Params; p.weight_alignment = value; Params = p; } }
        public float CohesionWeight { get { return Params.weight_cohesion; } set { BoidsFlockParams p = Params; p.weight_cohesion = value; Params = p; } }
        public float MinSpeed { get { return Params.min_speed; } set { BoidsFlockParams p = Params; p.min_speed = value; Params = p; } }
        public float MaxSpeed { get { return Params.max_speed; } set { BoidsFlockParams p = Params; p.max_speed = value; Params = p; } }
        public SeparationMode Separation { get { return (SeparationMode)Params.separation_mode; } set { BoidsFlockParams p = Params; p.separation_mode = (int)value; Params = p; } }
        public AlignmentMode Alignment { get { return (AlignmentMode)Params.alignment_mode; } set { BoidsFlockParams p = Params; p.alignment_mode = (int)value; Params = p; } }
        public Combine Combine { get { return (Combine)Params.combine; } set { BoidsFlockParams p = Params; p.combine = (int)value; Params = p; } }
        public Integrator Integrator { get { return (Integrator)Params.integrator; } set { BoidsFlockParams p = Params; p.integrator = (int)value; Params = p; } }
        public PlaneLock Plane { get { return (PlaneLock)Params.plane; } set { BoidsFlockParams p = Params; p.plane = (int)value; Params = p; } }
        public IndexKind Index { get { return (IndexKind)Params.index; } set { BoidsFlockParams p = Params; p.index = (int)value; Params = p; } }
        public ObstacleAvoidance ObstacleAvoidance { get { return (ObstacleAvoidance)Params.obstacle_avoidance; } set { BoidsFlockParams p = Params; p.obstacle_avoidance = (int)value; Params = p; } }
        /// <summary>The kind of the bounds (set them whole with SetBounds).</summary>
        public BoundsKind BoundsKind { get { return (BoundsKind)Params.bounds.kind; } }

        /// <summary>Moves the target (the params must have has_target = 1).</summary>
        public void SetTarget(BoidsVec3 point)
        {
            Interop.Check(NativeMethods.boids_flock_set_target(Live, point));
        }

        /// <summary>Replaces only the bounds.</summary>
        public void SetBounds(BoidsBounds bounds)
        {
            Interop.Check(NativeMethods.boids_flock_set_bounds(Live, &bounds));
        }

        /// <summary>The box the observer must be in for the flock to move.</summary>
        public void SetWakeRegion(BoidsVec3 min, BoidsVec3 max)
        {
            Interop.Check(NativeMethods.boids_flock_set_wake_region(Live, &min, &max));
        }

        public void ClearWakeRegion()
        {
            Interop.Check(NativeMethods.boids_flock_set_wake_region(Live, null, null));
        }

        /// <summary>True if the last step skipped this flock (observer outside its wake region).</summary>
        public bool IsAsleep
        {
            get
            {
                int a;
                Interop.Check(NativeMethods.boids_flock_is_asleep(Live, &a));
                return a == 1;
            }
        }

        /// <summary>Spawns n boids; returns the first new id (ids are consecutive).</summary>
        public uint Spawn(int n, BoidsSpawnDef spawn)
        {
            if (n < 0) throw new ArgumentOutOfRangeException("n", n, "must not be negative");
            uint first;
            Interop.Check(NativeMethods.boids_flock_spawn(Live, (uint)n, &spawn, &first));
            return first;
        }

        public uint Spawn(int n)
        {
            return Spawn(n, DefaultSpawn());
        }

        /// <summary>Grows (spawning) or shrinks (newest first) to n boids.</summary>
        public void Resize(int n, BoidsSpawnDef spawn)
        {
            if (n < 0) throw new ArgumentOutOfRangeException("n", n, "must not be negative");
            Interop.Check(NativeMethods.boids_flock_resize(Live, (uint)n, &spawn));
        }

        /// <summary>Adds boids with these positions and velocities (same length); returns the first new id.</summary>
        public uint Add(BoidsVec3[] positions, BoidsVec3[] velocities)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            if (velocities == null) throw new ArgumentNullException("velocities");
            if (positions.Length != velocities.Length) throw new ArgumentException("positions and velocities differ in length");
            uint first;
            fixed (BoidsVec3* p = positions)
            fixed (BoidsVec3* v = velocities)
                Interop.Check(NativeMethods.boids_flock_add_boids(Live, p, v, (UIntPtr)positions.Length, &first));
            return first;
        }

        /// <summary>Removes boids by id, all or nothing; returns how many went.</summary>
        public int Remove(uint[] ids)
        {
            if (ids == null) throw new ArgumentNullException("ids");
            UIntPtr n;
            fixed (uint* p = ids)
                Interop.Check(NativeMethods.boids_flock_remove_boids(Live, p, (UIntPtr)ids.Length, &n));
            return (int)n.ToUInt64();
        }

        static int Done(BoidsResult r, UIntPtr n)
        {
            Interop.Check(r);
            return (int)n.ToUInt64();
        }

        /// <summary>Copies positions (id order) into buffer; returns the count. Throws BufferTooSmall if it does not fit. No allocation.</summary>
        public int ReadPositions(BoidsVec3[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            fixed (BoidsVec3* p = buffer) return Done(NativeMethods.boids_flock_read_positions(Live, p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>As ReadPositions, into raw memory (e.g. NativeArray.GetUnsafePtr()) holding capacity entries.</summary>
        public int ReadPositions(BoidsVec3* buffer, int capacity)
        {
            UIntPtr n;
            return Done(NativeMethods.boids_flock_read_positions(Live, buffer, Interop.Capacity(buffer, capacity), &n), n);
        }

        public int ReadVelocities(BoidsVec3[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            fixed (BoidsVec3* p = buffer) return Done(NativeMethods.boids_flock_read_velocities(Live, p, (UIntPtr)buffer.Length, &n), n);
        }

        public int ReadVelocities(BoidsVec3* buffer, int capacity)
        {
            UIntPtr n;
            return Done(NativeMethods.boids_flock_read_velocities(Live, buffer, Interop.Capacity(buffer, capacity), &n), n);
        }

        public int ReadIds(uint[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            fixed (uint* p = buffer) return Done(NativeMethods.boids_flock_read_ids(Live, p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>Orientations (Unity's LookRotation of each heading), x y z w.</summary>
        public int ReadOrientations(BoidsQuat[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            fixed (BoidsQuat* p = buffer) return Done(NativeMethods.boids_flock_read_orientations(Live, p, (UIntPtr)buffer.Length, &n), n);
        }

        public int ReadOrientations(BoidsQuat* buffer, int capacity)
        {
            UIntPtr n;
            return Done(NativeMethods.boids_flock_read_orientations(Live, buffer, Interop.Capacity(buffer, capacity), &n), n);
        }

        /// <summary>4x4 instance matrices, Unity's Matrix4x4 layout, ready for Graphics.RenderMeshInstanced.</summary>
        public int ReadMatrices(BoidsMat4[] buffer, float scale = 1f)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            UIntPtr n;
            fixed (BoidsMat4* p = buffer) return Done(NativeMethods.boids_flock_read_matrices(Live, scale, p, (UIntPtr)buffer.Length, &n), n);
        }

        /// <summary>As ReadMatrices, into raw memory: pass NativeArray&lt;Matrix4x4&gt;.GetUnsafePtr() cast to BoidsMat4*.</summary>
        public int ReadMatrices(BoidsMat4* buffer, int capacity, float scale = 1f)
        {
            UIntPtr n;
            return Done(NativeMethods.boids_flock_read_matrices(Live, scale, buffer, Interop.Capacity(buffer, capacity), &n), n);
        }

        /// <summary>Overwrites every position (id order; length must equal Count).</summary>
        public void WritePositions(BoidsVec3[] positions)
        {
            if (positions == null) throw new ArgumentNullException("positions");
            fixed (BoidsVec3* p = positions)
                Interop.Check(NativeMethods.boids_flock_write_positions(Live, p, (UIntPtr)positions.Length));
        }

        public void WriteVelocities(BoidsVec3[] velocities)
        {
            if (velocities == null) throw new ArgumentNullException("velocities");
            fixed (BoidsVec3* p = velocities)
                Interop.Check(NativeMethods.boids_flock_write_velocities(Live, p, (UIntPtr)velocities.Length));
        }

        /// <summary>The polyline the flock follows with weight_path (fewer than two points clears it).</summary>
        public void SetPath(BoidsVec3[] points, bool closed)
        {
            if (points == null) throw new ArgumentNullException("points");
            fixed (BoidsVec3* p = points)
                Interop.Check(NativeMethods.boids_flock_set_path(Live, p, (UIntPtr)points.Length, closed ? 1 : 0));
        }

        /// <summary>Boid `boidId` leads: the target follows it at `offset` in its frame (+Z ahead).</summary>
        public void SetLeader(uint boidId, BoidsVec3 offset)
        {
            Interop.Check(NativeMethods.boids_flock_set_leader(Live, boidId, offset));
        }

        public void ClearLeader()
        {
            Interop.Check(NativeMethods.boids_flock_clear_leader(Live));
        }

        /// <summary>Destroys the flock; later calls on it throw BoidsException(InvalidId).</summary>
        public void Destroy()
        {
            Interop.Check(NativeMethods.boids_flock_destroy(Live));
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

        public static BoidsObstacleDef Sphere(BoidsVec3 centre, float radius)
        {
            BoidsObstacleDef d = new BoidsObstacleDef();
            d.shape = BoidsConst.OBSTACLE_SPHERE;
            d.a = centre;
            d.radius = radius;
            return d;
        }

        public static BoidsObstacleDef Box(BoidsVec3 min, BoidsVec3 max)
        {
            BoidsObstacleDef d = new BoidsObstacleDef();
            d.shape = BoidsConst.OBSTACLE_BOX;
            d.a = min;
            d.b = max;
            return d;
        }

        public static BoidsObstacleDef Plane(BoidsVec3 point, BoidsVec3 unitNormal)
        {
            BoidsObstacleDef d = new BoidsObstacleDef();
            d.shape = BoidsConst.OBSTACLE_PLANE;
            d.a = point;
            d.b = unitNormal;
            return d;
        }

        /// <summary>Moves or reshapes the obstacle.</summary>
        public void Set(BoidsObstacleDef def)
        {
            world.ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_obstacle_set(id, &def));
        }

        public void Remove()
        {
            world.ThrowIfDisposed();
            Interop.Check(NativeMethods.boids_obstacle_remove(id));
        }
    }
}
