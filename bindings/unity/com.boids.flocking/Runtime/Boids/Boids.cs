// The public C# API over the native boids library: BoidsWorld (IDisposable over a SafeHandle)
// and BoidsException here; BoidsFlock, BoidsMesh and BoidsObstacle in BoidsFlock.cs; the value
// types of Types.cs and the enums of Enums.cs. No C structs, no pointers in any public
// signature: reads and writes take arrays (or an IntPtr to memory the caller owns, such as a
// NativeArray) and allocate nothing per frame. Every refusal of the library is a BoidsException carrying its sentence; a bad argument
// the wrapper can see first is an ArgumentException naming the parameter. C# 7.2 at most.
using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using BoidsFlocking.Native;

// The Mono tests (bindings/csharp/Tests) time the bare native step against the wrapper.
[assembly: System.Runtime.CompilerServices.InternalsVisibleTo("BoidsTests")]

namespace BoidsFlocking
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
        static readonly object gate = new object();
        static volatile bool ready;

        /// <summary>Checks once per process that the native library speaks this wrapper's ABI with
        /// the same struct sizes; throws InvalidOperationException (every time) if not. Every
        /// way into the library (a world, a load, the version, default settings) passes here
        /// first, so on a platform without the library nothing is called natively.</summary>
        internal static void EnsureReady()
        {
            if (UnsupportedPlayer != null)
                throw new PlatformNotSupportedException(UnsupportedPlayer);
            if (ready) return;
            lock (gate)
            {
                if (ready) return;
                CheckLayout();
                ready = true;
            }
        }

        /// <summary>Why this player has no engine, or null: a WebGL player (no library yet) and an
        /// Android player built with Mono (the package's Android libraries are static).</summary>
        static readonly string UnsupportedPlayer =
#if UNITY_WEBGL && !UNITY_EDITOR
            "boids: WebGL is not supported yet: the package has no library for Unity's WebGL player (see the package documentation, \"WebGL\")";
#elif UNITY_ANDROID && !ENABLE_IL2CPP && !UNITY_EDITOR
            AndroidMonoMessage;
#else
            null;
#endif

        /// <summary>Why an Android player built with Mono has no engine (the editor's build
        /// check refuses such a build with the same advice).</summary>
        internal const string AndroidMonoMessage = "boids: this Android player was built with the Mono scripting backend, " +
            "which cannot link the package's static Android libraries: set Project Settings > Player > Android > " +
            "Other Settings > Configuration > Scripting Backend to IL2CPP (see the package documentation, \"Platforms\")";

        static void CheckLayout()
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
            Expect(BoidsConst.STRUCT_MESH_ID, sizeof(BoidsMeshId), "BoidsMeshId");
            // The public twins are passed as their C structs without copying.
            Same(sizeof(Vec3), sizeof(BoidsVec3), "Vec3");
            Same(sizeof(Quat), sizeof(BoidsQuat), "Quat");
            Same(sizeof(Mat4), sizeof(BoidsMat4), "Mat4");
            Same(sizeof(FlockBounds), sizeof(BoidsBounds), "FlockBounds");
            Same(sizeof(ObstacleShape), sizeof(BoidsObstacleDef), "ObstacleShape");
        }

        static void Expect(int kind, int managed, string name)
        {
            uint native = NativeMethods.boids_struct_size(kind);
            if (native != managed)
                throw new InvalidOperationException(name + " is " + managed + " bytes in C# but " + native + " in the native library");
        }

        static void Same(int a, int b, string name)
        {
            if (a != b) throw new InvalidOperationException(name + " is " + a + " bytes, its C twin " + b);
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
            // A lone UTF-16 surrogate has no UTF-8 form: Encoding.UTF8 would write U+FFFD in its
            // place, and two different names would find the same flock.
            for (int i = 0; i < s.Length; i++)
            {
                if (char.IsHighSurrogate(s[i]) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1])) { i++; continue; }
                if (char.IsSurrogate(s[i]))
                    throw new ArgumentException("is not valid Unicode: a lone UTF-16 surrogate at index " + i, param);
            }
            byte[] bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Capacity of caller memory, checked: never negative, and a null buffer holds nothing.</summary>
        internal static UIntPtr Capacity(IntPtr buffer, int capacity)
        {
            if (capacity < 0)
                throw new ArgumentOutOfRangeException("capacity", capacity, "must not be negative");
            if (buffer == IntPtr.Zero && capacity > 0)
                throw new ArgumentNullException("buffer", "is null but capacity is " + capacity);
            return (UIntPtr)(uint)capacity;
        }

        internal static void NotNull(object o, string param)
        {
            if (o == null) throw new ArgumentNullException(param);
        }

        internal static uint Count(int n, string param)
        {
            if (n < 0) throw new ArgumentOutOfRangeException(param, n, "must not be negative");
            return (uint)n;
        }
    }

    /// <summary>Owns one native world; releases it when disposed or finalised.</summary>
    internal sealed class BoidsWorldHandle : SafeHandle
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

    /// <summary>A simulation world: flocks, obstacles, a seed, worker threads. Dispose it (or let
    /// the finaliser) to free the native world; every method then throws ObjectDisposedException.
    /// Calls on one world must not overlap from two threads (the second gets BoidsResult.Busy).
    /// A step may overlap the frame: BeginStep, draw, EndStep.</summary>
    public sealed unsafe class BoidsWorld : IDisposable
    {
        readonly BoidsWorldHandle handle;

        /// <summary>Library version, e.g. "0.3.0".</summary>
        public static string Version
        {
            get { Interop.EnsureReady(); return Interop.Utf8(NativeMethods.boids_version()); }
        }

        /// <summary>The version of these C# sources (the package's); equal to Version when the
        /// package and its native library come from the same release.</summary>
        public const string WrapperVersion = "0.3.0";

        /// <summary>A new world. threads = 0 uses one worker per core; 1..1024 gives the world
        /// its own pool of that many (Unity: leave cores to the job system, see the docs).</summary>
        public BoidsWorld(ulong seed = 0, int threads = 0)
        {
            if (threads < 0) throw new ArgumentOutOfRangeException("threads", threads, "must not be negative");
            Interop.EnsureReady();
            BoidsWorldDef def = NativeMethods.boids_default_world_def();
            def.seed = seed;
            def.threads = (uint)threads;
            BoidsWorldId id;
            Interop.Check(NativeMethods.boids_world_create(&def, &id));
            handle = new BoidsWorldHandle(id);
        }

        BoidsWorld(BoidsWorldId loaded)
        {
            handle = new BoidsWorldHandle(loaded);
        }

        /// <summary>A 64-bit digest of the state with every coordinate rounded to digits
        /// significant digits (1..9): unlike StateHash (exact), the fingerprint to pin in a
        /// snapshot test meant to hold across compilers and platforms.</summary>
        public ulong RoundedDigest(int digits = 6)
        {
            if (digits < 1 || digits > 9) throw new ArgumentOutOfRangeException("digits", digits, "must be 1..9");
            ulong d;
            Interop.Check(NativeMethods.boids_world_rounded_digest(Id, (uint)digits, &d));
            return d;
        }

        /// <summary>The whole world as bytes (every flock, its settings and boids, obstacles,
        /// relations, the seed and step count): a save game, or a lockstep checkpoint.
        /// BoidsWorld.Load reads them into a world that continues exactly as this one would.</summary>
        public byte[] Save()
        {
            BoidsWorldId id = Id;
            UIntPtr n;
            BoidsResult r = NativeMethods.boids_world_save(id, null, UIntPtr.Zero, &n);
            if (r != BoidsResult.BufferTooSmall && r != BoidsResult.Ok) Interop.Check(r);
            byte[] bytes = new byte[(long)n.ToUInt64()];
            fixed (byte* p = bytes)
            {
                Interop.Check(NativeMethods.boids_world_save(id, p, new UIntPtr((ulong)bytes.Length), &n));
            }
            return bytes;
        }

        /// <summary>Writes Save()'s bytes to a stream.</summary>
        public void Save(Stream stream)
        {
            if (stream == null) throw new ArgumentNullException("stream");
            byte[] bytes = Save();
            stream.Write(bytes, 0, bytes.Length);
        }

        /// <summary>A world from bytes Save wrote; it continues exactly as the saved world would.
        /// The seed, step count and flocks come from the bytes (find flocks by name);
        /// threads never changes results. Bytes that are not a save, truncated, corrupt or from a
        /// newer version throw BoidsException (InvalidArgument) saying which.</summary>
        public static BoidsWorld Load(byte[] bytes, int threads = 0)
        {
            if (bytes == null) throw new ArgumentNullException("bytes");
            if (threads < 0) throw new ArgumentOutOfRangeException("threads", threads, "must not be negative");
            Interop.EnsureReady();
            BoidsWorldDef def = NativeMethods.boids_default_world_def();
            def.threads = (uint)threads;
            BoidsWorldId id;
            fixed (byte* p = bytes)
            {
                Interop.Check(NativeMethods.boids_world_load(&def, p, new UIntPtr((ulong)bytes.Length), &id));
            }
            return new BoidsWorld(id);
        }

        /// <summary>Load from the rest of a stream.</summary>
        public static BoidsWorld Load(Stream stream, int threads = 0)
        {
            if (stream == null) throw new ArgumentNullException("stream");
            using (var copy = new MemoryStream())
            {
                stream.CopyTo(copy);
                return Load(copy.ToArray(), threads);
            }
        }

        internal BoidsWorldId Id { get { ThrowIfDisposed(); return handle.Id; } }

        public bool IsDisposed { get { return handle.IsClosed; } }

        internal void ThrowIfDisposed()
        {
            if (handle.IsClosed) throw new ObjectDisposedException("BoidsWorld");
        }

        /// <summary>Advances every flock by dt seconds (0 &lt; dt &lt;= 1). No allocation.</summary>
        public void Step(float dt)
        {
            Interop.Check(NativeMethods.boids_world_step(Id, dt));
        }

        /// <summary>Starts a step of dt seconds on the world's worker threads and returns at once,
        /// so the step runs while the frame goes on. Until EndStep, each flock's Count and Read*
        /// methods (positions, velocities, ids, orientations, matrices) return the state before
        /// the step; every other call on the world throws BoidsException (Busy) and changes
        /// nothing. EndStep gives exactly the bits of Step. Disposing the world waits for the
        /// step.</summary>
        public void BeginStep(float dt)
        {
            Interop.Check(NativeMethods.boids_world_step_begin(Id, dt));
        }

        /// <summary>Starts count steps of dt seconds each on the world's worker threads and returns
        /// at once: BeginStep for a frame longer than the fixed step (30 fps with 1/60 s steps), so
        /// that all of its steps run while the frame goes on. EndStep gives exactly the bits of
        /// count calls of Step; until then reads see the state before the first step. If a step
        /// fails, EndStep throws (Panic) with the steps before it installed. count 0 throws
        /// (InvalidArgument); 1 is BeginStep.</summary>
        public void BeginSteps(float dt, int count)
        {
            if (count < 1)
                throw new ArgumentOutOfRangeException(nameof(count), count, "at least 1 step");
            Interop.Check(NativeMethods.boids_world_step_begin_n(Id, dt, (uint)count));
        }

        /// <summary>Waits for the step BeginStep started and makes it the world's state. Without
        /// a step in flight: BoidsException (InvalidArgument).</summary>
        public void EndStep()
        {
            Interop.Check(NativeMethods.boids_world_step_end(Id));
        }

        /// <summary>True between BeginStep and EndStep.</summary>
        public bool IsStepping
        {
            get
            {
                int s;
                Interop.Check(NativeMethods.boids_world_is_stepping(Id, &s));
                return s != 0;
            }
        }

        /// <summary>A 64-bit hash of every boid's state: equal hashes, equal worlds.</summary>
        public ulong StateHash
        {
            get
            {
                ulong h;
                Interop.Check(NativeMethods.boids_world_state_hash(Id, &h));
                return h;
            }
        }

        /// <summary>Creates a flock named name (unique in the world) with these settings
        /// (defaults when null). It starts with no boids: Spawn or Add them.</summary>
        public BoidsFlock CreateFlock(string name, FlockSettings settings = null)
        {
            byte[] n = Interop.CString(name, "name");
            BoidsWorldId w = Id;
            BoidsFlockDef def = NativeMethods.boids_default_flock_def();
            if (settings != null) def.flock_params = settings.Raw;
            BoidsFlockId id;
            fixed (byte* np = n)
            {
                def.name = (IntPtr)np;
                Interop.Check(NativeMethods.boids_flock_create(w, &def, &id));
            }
            return new BoidsFlock(this, id);
        }

        /// <summary>Creates a flock from a preset (fish-tank, goal-swarm, target-flock,
        /// steering-obstacles, flock-2d, reef, shark), with the preset's boids, obstacles and, for
        /// shark, its second flock "name-predator".</summary>
        public BoidsFlock CreatePreset(string preset, string name)
        {
            byte[] p = Interop.CString(preset, "preset"), n = Interop.CString(name, "name");
            BoidsWorldId w = Id;
            BoidsFlockId id;
            fixed (byte* pp = p)
            fixed (byte* np = n)
                Interop.Check(NativeMethods.boids_flock_create_preset(w, pp, np, &id));
            return new BoidsFlock(this, id);
        }

        /// <summary>The flock with this name, or null.</summary>
        public BoidsFlock FindFlock(string name)
        {
            byte[] n = Interop.CString(name, "name");
            BoidsWorldId w = Id;
            BoidsFlockId id;
            BoidsResult r;
            fixed (byte* np = n) r = NativeMethods.boids_flock_find(w, np, &id);
            if (r == BoidsResult.NotFound) return null;
            Interop.Check(r);
            return new BoidsFlock(this, id);
        }

        /// <summary>How many live flocks the world has (allocates nothing: per frame is fine).</summary>
        public int FlockCount
        {
            get
            {
                UIntPtr n;
                BoidsResult r = NativeMethods.boids_world_list_flocks(Id, null, UIntPtr.Zero, &n);
                if (r != BoidsResult.Ok && r != BoidsResult.BufferTooSmall) Interop.Check(r);
                return (int)n.ToUInt64();
            }
        }

        /// <summary>Every live flock of the world (allocates: a set-up call, not a per-frame one).</summary>
        public BoidsFlock[] Flocks()
        {
            BoidsWorldId w = Id;
            UIntPtr n;
            BoidsResult r = NativeMethods.boids_world_list_flocks(w, null, UIntPtr.Zero, &n);
            if (r != BoidsResult.Ok && r != BoidsResult.BufferTooSmall) Interop.Check(r);
            var ids = new BoidsFlockId[(int)n.ToUInt64()];
            fixed (BoidsFlockId* p = ids)
                Interop.Check(NativeMethods.boids_world_list_flocks(w, p, (UIntPtr)ids.Length, &n));
            var flocks = new BoidsFlock[(int)n.ToUInt64()];
            for (int i = 0; i < flocks.Length; i++) flocks[i] = new BoidsFlock(this, ids[i]);
            return flocks;
        }

        /// <summary>The scene's faces, for drawing or checking them: three points a triangle, in world
        /// space, for every box, mesh and heightfield obstacle in slot order (spheres, capsules
        /// and planes have none). Allocates: a set-up or editor call, not a per-frame one.</summary>
        public Vec3[] ReadSceneTriangles()
        {
            BoidsWorldId w = Id;
            UIntPtr n;
            BoidsResult r = NativeMethods.boids_world_read_scene_triangles(w, null, UIntPtr.Zero, &n);
            if (r != BoidsResult.Ok && r != BoidsResult.BufferTooSmall) Interop.Check(r);
            if (n.ToUInt64() > int.MaxValue)
                throw new BoidsException(BoidsResult.BufferTooSmall, "the scene has " + n.ToUInt64() + " triangle points, more than a C# array holds");
            var points = new Vec3[(int)n.ToUInt64()];
            fixed (Vec3* p = points)
                Interop.Check(NativeMethods.boids_world_read_scene_triangles(w, (BoidsVec3*)p, (UIntPtr)points.Length, &n));
            return points;
        }

        /// <summary>The width of the cells of the world's flow fields: above 0, a grounded flock with
        /// a target seeks it around walls, cliffs and obstacles along a flow field over the ground
        /// (straight once in clear sight); 0, the default, none (a straight line). Refused
        /// (BoidsException InvalidArgument) when NaN, infinite or below 0, or when the grid over the
        /// ground would have more than 16,777,216 cells.</summary>
        public float FlowCellSize
        {
            get
            {
                float c;
                Interop.Check(NativeMethods.boids_world_get_flow_cell_size(Id, &c));
                return c;
            }
            set { Interop.Check(NativeMethods.boids_world_set_flow_cell_size(Id, value)); }
        }

        /// <summary>The work a step may spend building flow fields, in units of about the time one
        /// cell takes to settle (about 17 ns on an AMD EPYC Zen 4; a field takes about 1.2 units a cell).
        /// 0, the default: no limit, a field is built whole in the step that first needs it. With a
        /// budget, a target's new field is built over several steps (counted in units, never in
        /// time: the same bits everywhere) and the flock reads its last whole field meanwhile, or
        /// seeks in a straight line if it has none. The terrain's survey (when the scene changes)
        /// is built a budget at a time too, before its fields. A save keeps the budget and where
        /// each survey and build stands.</summary>
        public uint FlowBudget
        {
            get
            {
                uint u;
                Interop.Check(NativeMethods.boids_world_get_flow_budget(Id, &u));
                return u;
            }
            set { Interop.Check(NativeMethods.boids_world_set_flow_budget(Id, value)); }
        }

        /// <summary>The height of the highest ground surface at (x, z) (of the obstacles placed as
        /// ground: the meshes and heightfields walking flocks stand on), as a flow field's terrain
        /// surveys it: for placing a target or a flow field's overlay on the ground. False where no
        /// ground lies under the point. Throws BoidsException InvalidArgument for NaN, infinite or
        /// beyond 1e9.</summary>
        public bool TryGetGroundHeight(float x, float z, out float height)
        {
            float h;
            BoidsResult r = NativeMethods.boids_world_get_ground_height(Id, x, z, &h);
            if (r == BoidsResult.NotFound)
            {
                height = 0f;
                return false;
            }
            Interop.Check(r);
            height = h;
            return true;
        }

        /// <summary>Sets the observer (player) point: flocks with a wake region move only while it
        /// is inside, flocks with a sleep distance only while it is near.</summary>
        public void SetObserver(Vec3 point)
        {
            Interop.Check(NativeMethods.boids_world_set_observer(Id, (BoidsVec3*)&point));
        }

        /// <summary>Clears the observer: every flock is awake.</summary>
        public void ClearObserver()
        {
            Interop.Check(NativeMethods.boids_world_set_observer(Id, null));
        }

        /// <summary>How flock from reacts to flock to within radius: flee or chase the nearest of
        /// its boids with prediction, avoid them, or move with them; Ignore removes it.</summary>
        public void SetRelation(BoidsFlock from, BoidsFlock to, RelationKind kind, float radius, float weight)
        {
            Interop.NotNull(from, "from");
            Interop.NotNull(to, "to");
            Interop.Check(NativeMethods.boids_world_set_relation(Id, from.Id, to.Id, (int)kind, radius, weight));
        }

        /// <summary>Adds an obstacle every flock avoids (per its settings). With a FlowCellSize, ground
        /// that would take the flow grid past 16,777,216 cells is refused (BoidsException
        /// InvalidArgument): set a larger cell size first.</summary>
        public BoidsObstacle AddObstacle(ObstacleShape shape)
        {
            BoidsObstacleId id;
            Interop.Check(NativeMethods.boids_obstacle_add(Id, (BoidsObstacleDef*)&shape, &id));
            return new BoidsObstacle(this, id);
        }

        /// <summary>Uploads a triangle mesh: vertices, and indices three a triangle (Unity's
        /// Mesh.vertices and Mesh.triangles), copied; its hierarchy is built once. Place it with
        /// ObstacleShape.Mesh, as many times as you like. Throws ArgumentNullException, or
        /// BoidsException(InvalidArgument) naming the field (a vertex not finite, an index out of
        /// range or negative, no triangle, more than 2^24 triangles). Set-up call.</summary>
        public BoidsMesh AddMesh(Vec3[] vertices, int[] indices)
        {
            if (vertices == null) throw new ArgumentNullException("vertices");
            if (indices == null) throw new ArgumentNullException("indices");
            fixed (Vec3* v = vertices)
            fixed (int* i = indices)
                return AddMesh((IntPtr)v, vertices.Length, (IntPtr)i, indices.Length);
        }

        /// <summary>AddMesh from raw memory: vertexCount Vec3 (12 bytes each) and indexCount 32-bit
        /// indices, e.g. from NativeArray.GetUnsafeReadOnlyPtr(). A negative index reads as a large
        /// one and is refused as out of range.</summary>
        public BoidsMesh AddMesh(IntPtr vertices, int vertexCount, IntPtr indices, int indexCount)
        {
            ThrowIfDisposed();
            if (vertexCount < 0) throw new ArgumentOutOfRangeException("vertexCount");
            if (indexCount < 0) throw new ArgumentOutOfRangeException("indexCount");
            BoidsMeshId id;
            Interop.Check(NativeMethods.boids_mesh_create(Id, (BoidsVec3*)vertices, (UIntPtr)(uint)vertexCount,
                (uint*)indices, (UIntPtr)(uint)indexCount, &id));
            return new BoidsMesh(this, id);
        }

        /// <summary>Uploads a heightfield (Unity's TerrainData): columns x rows heights in world
        /// units, x fastest (heights[row * columns + column]), samples cellX apart along x and
        /// cellZ along z. Place it with ObstacleShape.Heightfield. Throws BoidsException
        /// (InvalidArgument) naming the field, also for sizes past the sample limit
        /// (BoidsConst.MAX_HEIGHTFIELD_SAMPLES, 2^26: 8193 x 8193) whatever the array holds.
        /// Set-up call.</summary>
        public BoidsMesh AddHeightfield(float[] heights, int columns, int rows, float cellX, float cellZ)
        {
            ThrowIfDisposed();
            if (heights == null) throw new ArgumentNullException("heights");
            BoidsMeshId id;
            // Sizes past the limit: the library refuses them before it reads any height, with
            // its own message (so it is said in one place).
            if (columns >= 2 && rows >= 2 && (long)columns * rows > BoidsConst.MAX_HEIGHTFIELD_SAMPLES)
                Interop.Check(NativeMethods.boids_heightfield_create(Id, null, (uint)columns, (uint)rows, cellX, cellZ, &id));
            if (columns < 0 || rows < 0 || (long)columns * rows != heights.Length)
                throw new ArgumentException("heights holds " + heights.Length + " values, columns x rows = "
                    + ((long)columns * rows), "heights");
            fixed (float* h = heights)
                Interop.Check(NativeMethods.boids_heightfield_create(Id, h, (uint)columns, (uint)rows, cellX, cellZ, &id));
            return new BoidsMesh(this, id);
        }

        /// <summary>Destroys the native world and everything in it. Idempotent.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }
}
