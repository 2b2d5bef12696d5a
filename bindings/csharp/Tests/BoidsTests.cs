// Tests of the C# API on Mono: every public method, every error path (the hostile matrix, one
// row per public member, enforced by reflection), 256 random round trips, the hardening
// reproducers, no allocation per frame. Compiles the package's own files
// (bindings/unity/com.boids.flocking/Runtime/Boids/*.cs). Ends with "N passed, M failed".
// `mono BoidsTests.exe --bench [N]` measures the wrapper's per-frame cost instead;
// `mono BoidsTests.exe --frame-bench [N] [work ms] [frames] [interpolate] [fps=60]` the Unity controller's
// main-thread cost per frame with and without the overlapped step, at that frame rate with 1/60 s
// fixed steps (docs: Documentation~/index.md, "Threads");
// `--pool-bench [N] [frames]` two controllers sharing one pool: each one's read and draw.
// `--reads-bench [N] [threads]` the step and a renderer's reads after it, as `boids bench --frame`.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using BoidsFlocking;
using BoidsFlocking.Native;

static unsafe partial class BoidsTests
{
    static int passed, failed;

    static void Test(string name, Action body)
    {
        // BOIDS_TEST_ONLY=text runs only the tests whose name holds the text.
        var only = Environment.GetEnvironmentVariable("BOIDS_TEST_ONLY");
        if (only != null && !name.Contains(only)) return;
        try
        {
            body();
            passed++;
            Console.WriteLine("ok   " + name);
        }
        catch (Exception e)
        {
            failed++;
            Console.WriteLine("FAIL " + name + ": " + e);
        }
    }

    static void Assert(bool cond, string what)
    {
        if (!cond) throw new Exception("assertion failed: " + what);
    }

    static T Throws<T>(Action a) where T : Exception
    {
        try { a(); }
        catch (T e) { return e; }
        throw new Exception("expected " + typeof(T).Name);
    }

    static BoidsException Refused(BoidsResult code, Action a)
    {
        BoidsException e = Throws<BoidsException>(a);
        Assert(e.Result == code, "expected " + code + ", got " + e.Result + " (" + e.Message + ")");
        return e;
    }

    static Vec3 V(float x, float y, float z) { return new Vec3(x, y, z); }

    static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--bench") return Bench(args.Length > 1 ? int.Parse(args[1]) : 100000);
        if (args.Length > 0 && args[0] == "--reads-bench")
            return ReadsBench(args.Length > 1 ? int.Parse(args[1]) : 10000, args.Length > 2 ? int.Parse(args[2]) : 1);
        if (args.Length > 0 && args[0] == "--pool-bench")
            return PoolBench(args.Length > 1 ? int.Parse(args[1]) : 10000, args.Length > 2 ? int.Parse(args[2]) : 120);
        if (args.Length > 0 && args[0] == "--frame-bench")
            return FrameBench(args.Length > 1 ? int.Parse(args[1]) : 10000,
                args.Length > 2 ? double.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture) : 8.0,
                args.Length > 3 ? int.Parse(args[3]) : 120,
                args.Skip(4).Contains("interpolate"),
                args.Skip(4).Where(a => a.StartsWith("fps=")).Select(a => int.Parse(a.Substring(4))).DefaultIfEmpty(60).First());

        Test("version and layout", () =>
        {
            Assert(BoidsWorld.Version == BoidsWorld.WrapperVersion,
                "the native library is " + BoidsWorld.Version + ", the C# sources " + BoidsWorld.WrapperVersion);
            Assert(NativeMethods.boids_abi_version() == BoidsConst.ABI_VERSION, "abi");
            Assert(sizeof(Mat4) == 64 && sizeof(Vec3) == 12 && sizeof(Quat) == 16, "Unity's sizes");
            Assert(sizeof(FlockBounds) == NativeMethods.boids_struct_size(BoidsConst.STRUCT_BOUNDS), "Bounds is its C twin");
        });

        Test("the P/Invoke layer is internal: no public member takes or returns a C struct or a pointer", () =>
        {
            var asm = typeof(BoidsWorld).Assembly;
            foreach (var t in asm.GetExportedTypes())
            {
                Assert(t.Namespace == "BoidsFlocking", "public type outside namespace BoidsFlocking: " + t.FullName);
                foreach (var m in t.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
                {
                    var types = new List<Type>();
                    var mi = m as MethodInfo;
                    if (mi != null) { types.Add(mi.ReturnType); types.AddRange(mi.GetParameters().Select(p => p.ParameterType)); }
                    var fi = m as FieldInfo;
                    if (fi != null) types.Add(fi.FieldType);
                    foreach (var x in types)
                    {
                        Type y = x.IsArray || x.IsByRef || x.IsPointer ? x.GetElementType() : x;
                        Assert(!x.IsPointer, t.Name + "." + m.Name + " takes a pointer");
                        Assert(y.Namespace != "BoidsFlocking.Native", t.Name + "." + m.Name + " exposes " + y.Name);
                    }
                }
            }
        });

        Test("world: step, hash, determinism", () =>
        {
            ulong h1, h2;
            using (var a = new BoidsWorld(7, 2))
            using (var b = new BoidsWorld(7, 1))
            {
                a.CreateFlock("fish").Spawn(500);
                b.CreateFlock("fish").Spawn(500);
                for (int i = 0; i < 20; i++) { a.Step(1f / 60); b.Step(1f / 60); }
                h1 = a.StateHash;
                h2 = b.StateHash;
            }
            Assert(h1 == h2, "same seed, different thread counts, same state");
        });

        Test("flock: create, spawn, count, find, settings, destroy", () =>
        {
            using (var w = new BoidsWorld(1))
            {
                var f = w.CreateFlock("fish");
                Assert(f.Spawn(100) == 0, "first id");
                Assert(f.Spawn(50) == 100, "ids continue");
                Assert(f.Count == 150, "count");
                Assert(w.FindFlock("fish").Count == 150, "find");
                Assert(f.Name == "fish" && w.FindFlock("fish").Name == "fish", "name");
                Assert(w.CreateFlock("poisson \u00e9t\u00e9").Name == "poisson \u00e9t\u00e9", "a UTF-8 name round trip");
                Assert(w.FindFlock("nobody") == null, "not found is null");
                Refused(BoidsResult.InvalidArgument, () => w.CreateFlock("fish"));
                f.PerceptionRadius = 2.5f;
                f.MaxSpeed = 7f;
                f.MinSpeed = 1f;
                f.SeparationWeight = 4f;
                f.AlignmentWeight = 3f;
                f.CohesionWeight = 1f;
                f.FovHalfAngleDegrees = 120f;
                var s = f.Settings;
                Assert(s.PerceptionRadius == 2.5f && s.MaxSpeed == 7f && s.MinSpeed == 1f, "live settings");
                Assert(f.PerceptionRadius == 2.5f && f.FovHalfAngleDegrees == 120f && f.CohesionWeight == 1f, "getters");
                s.Alignment = AlignmentMode.MeanHeading;
                s.Bounds = FlockBounds.SoftSphere(V(0, 0, 0), 12f);
                s.Target = V(1, 2, 3);
                s.TargetWeight = 0.5f;
                f.Settings = s;
                Assert(f.Settings.Equals(s), "settings read back bit for bit");
                Assert(f.Settings.Target.Value.Equals(V(1, 2, 3)) && f.Settings.Bounds.Kind == BoundsKind.SoftSphere, "typed fields");
                f.Destroy();
                Assert(!f.IsValid, "destroyed");
                Refused(BoidsResult.InvalidId, () => { var n = f.Count; });
                Refused(BoidsResult.InvalidId, () => f.Destroy());
            }
        });

        Test("every value of every enum round-trips through the native library", () =>
        {
            using (var w = new BoidsWorld(2))
            {
                var f = w.CreateFlock("f");
                var g = w.CreateFlock("g");
                int n = 0;
                Action<Action<FlockSettings>, Func<FlockSettings, bool>, string> each = (set, check, what) =>
                {
                    var s = f.Settings;
                    set(s);
                    f.Settings = s;
                    Assert(check(f.Settings), what);
                    n++;
                };
                foreach (SeparationMode v in Enum.GetValues(typeof(SeparationMode))) each(s => s.Separation = v, s => s.Separation == v, "separation " + v);
                foreach (AlignmentMode v in Enum.GetValues(typeof(AlignmentMode)))
                    // group-speed belongs to the heading-speed integrator.
                    each(s => { s.Alignment = v; s.Integrator = v == AlignmentMode.GroupSpeed ? Integrator.HeadingSpeed : Integrator.Acceleration; }, s => s.Alignment == v, "alignment " + v);
                each(s => { s.Alignment = AlignmentMode.VelocityDifference; s.Integrator = Integrator.Acceleration; }, s => true, "reset");
                n--;
                foreach (Combine v in Enum.GetValues(typeof(Combine))) each(s => s.Combine = v, s => s.Combine == v, "combine " + v);
                foreach (Integrator v in Enum.GetValues(typeof(Integrator))) each(s => s.Integrator = v, s => s.Integrator == v, "integrator " + v);
                foreach (PlaneLock v in Enum.GetValues(typeof(PlaneLock))) each(s => s.Plane = v, s => s.Plane == v, "plane " + v);
                foreach (IndexKind v in Enum.GetValues(typeof(IndexKind))) each(s => s.Index = v, s => s.Index == v, "index " + v);
                foreach (ObstacleAvoidance v in Enum.GetValues(typeof(ObstacleAvoidance))) each(s => s.ObstacleAvoidance = v, s => s.ObstacleAvoidance == v, "obstacles " + v);
                foreach (BoundsKind v in Enum.GetValues(typeof(BoundsKind)))
                {
                    var b = new FlockBounds { Kind = v, Min = V(-5, -5, -5), Max = V(5, 5, 5), Radius = 5f, Inner = 0.9f, Distance = 2f };
                    f.SetBounds(b);
                    Assert(f.Settings.Bounds.Kind == v, "bounds " + v);
                    n++;
                }
                foreach (SpawnKind v in Enum.GetValues(typeof(SpawnKind)))
                {
                    var s = new SpawnSettings();
                    s.Shape = v;
                    f.Spawn(2, s);
                    n++;
                }
                var tetra = w.AddMesh(new[] { V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1) }, new[] { 0, 1, 2, 0, 1, 3 });
                var ground = w.AddHeightfield(new float[4], 2, 2, 1f, 1f);
                foreach (ObstacleKind v in Enum.GetValues(typeof(ObstacleKind)))
                {
                    var shape = v == ObstacleKind.Mesh ? ObstacleShape.Mesh(tetra, V(0, 0, 0), Quat.Identity, V(1, 1, 1))
                        : v == ObstacleKind.Heightfield ? ObstacleShape.Heightfield(ground, V(0, 0, 0), Quat.Identity, V(1, 1, 1))
                        : ObstacleShape.Sphere(V(0, 0, 0), 1f);
                    shape.Kind = v;
                    shape.B = v == ObstacleKind.Plane ? V(0, 1, 0) : V(1, 1, 1); // a unit normal; else a box's max corner, a capsule's end, half extents
                    w.AddObstacle(shape);
                    n++;
                }
                foreach (RelationKind v in Enum.GetValues(typeof(RelationKind))) { w.SetRelation(f, g, v, 2f, 1f); n++; }
                Assert(n == 4 + 4 + 3 + 4 + 3 + 4 + 3 + 6 + 4 + 7 + 5, "every value visited: " + n);
                Assert((int)SeparationMode.InverseSquare == BoidsConst.SEPARATION_INVERSE_SQUARE, "enum and constant agree");
                var bad = f.Settings;
                bad.Combine = (Combine)99;
                var e = Refused(BoidsResult.InvalidArgument, () => f.Settings = bad);
                Assert(e.Message.Contains("BOIDS_COMBINE_STEER (1)"), e.Message);
            }
        });

        Test("bad settings are refused with the field named, nothing changes", () =>
        {
            using (var w = new BoidsWorld(1))
            {
                var f = w.CreateFlock("f");
                f.Spawn(20);
                ulong before = w.StateHash;
                var e = Refused(BoidsResult.InvalidArgument, () => f.PerceptionRadius = float.NaN);
                Assert(e.Message.Contains("perception_radius"), e.Message);
                Refused(BoidsResult.InvalidArgument, () => f.MinSpeed = 99f);
                var s = new FlockSettings();
                s.CohesionWeight = float.PositiveInfinity;
                Refused(BoidsResult.InvalidArgument, () => w.CreateFlock("g", s));
                Refused(BoidsResult.InvalidArgument, () => w.Step(0f));
                Refused(BoidsResult.InvalidArgument, () => w.Step(-1f));
                Refused(BoidsResult.InvalidArgument, () => w.Step(float.NaN));
                Refused(BoidsResult.InvalidArgument, () => f.SetTarget(V(0, 0, 0)));
                Refused(BoidsResult.InvalidArgument, () => f.Spawn(int.MaxValue));
                Throws<ArgumentOutOfRangeException>(() => f.Spawn(-1));
                Assert(w.StateHash == before, "state unchanged");
                Assert(f.PerceptionRadius == 1f, "settings unchanged");
            }
        });

        Test("reads: positions, velocities, ids, orientations, matrices; too-small buffers", () =>
        {
            using (var w = new BoidsWorld(3))
            {
                var f = w.CreateFlock("f");
                f.Spawn(300);
                w.Step(1f / 60);
                var pos = new Vec3[300];
                var vel = new Vec3[300];
                var ids = new uint[400];
                var q = new Quat[300];
                var m = new Mat4[300];
                Assert(f.ReadPositions(pos) == 300, "positions");
                Assert(f.ReadVelocities(vel) == 300, "velocities");
                Assert(f.ReadIds(ids) == 300 && ids[299] == 299, "ids");
                Assert(f.ReadOrientations(q) == 300, "orientations");
                Assert(f.ReadMatrices(m, 2f) == 300, "matrices");
                for (int i = 0; i < 300; i++)
                {
                    Assert(m[i].M03 == pos[i].X && m[i].M13 == pos[i].Y && m[i].M23 == pos[i].Z && m[i].M33 == 1f, "translation");
                    float len = (float)Math.Sqrt(m[i].M02 * m[i].M02 + m[i].M12 * m[i].M12 + m[i].M22 * m[i].M22);
                    Assert(Math.Abs(len - 2f) < 1e-4f, "scaled forward column");
                    float ql = q[i].X * q[i].X + q[i].Y * q[i].Y + q[i].Z * q[i].Z + q[i].W * q[i].W;
                    Assert(Math.Abs(ql - 1f) < 1e-4f, "unit quaternion");
                }
                var e = Refused(BoidsResult.BufferTooSmall, () => f.ReadPositions(new Vec3[299]));
                Assert(e.Message.Contains("300"), e.Message);
                Refused(BoidsResult.BufferTooSmall, () => f.ReadMatrices(new Mat4[0]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadIds(new uint[10]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadOrientations(new Quat[1]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadVelocities(new Vec3[2]));
                // Caller memory, as a Unity NativeArray gives it.
                IntPtr mem = Marshal.AllocHGlobal(300 * 64);
                try
                {
                    Assert(f.ReadMatrices(mem, 300, 2f) == 300, "IntPtr read");
                    Mat4 m17 = ((Mat4*)mem)[17];
                    Assert(m17.M03 == m[17].M03 && m17.M22 == m[17].M22, "IntPtr read = array read");
                    Assert(f.ReadPositions(mem, 300) == 300 && ((Vec3*)mem)[5].Equals(pos[5]), "IntPtr positions");
                }
                finally { Marshal.FreeHGlobal(mem); }
                var empty = w.CreateFlock("empty");
                Assert(empty.ReadPositions(new Vec3[0]) == 0, "empty read");
            }
        });

        Test("writes, add, remove, resize", () =>
        {
            using (var w = new BoidsWorld(3))
            {
                var f = w.CreateFlock("f");
                f.Spawn(10);
                var pos = new Vec3[10];
                for (int i = 0; i < 10; i++) pos[i] = V(i, 0, 0);
                f.WritePositions(pos);
                var back = new Vec3[10];
                f.ReadPositions(back);
                Assert(back[7].X == 7f, "write positions");
                var vel = new Vec3[10];
                for (int i = 0; i < 10; i++) vel[i] = V(0, 0, 3);
                f.WriteVelocities(vel);
                f.ReadVelocities(back);
                Assert(back[3].Z == 3f, "write velocities");
                Refused(BoidsResult.InvalidArgument, () => f.WritePositions(new Vec3[9]));
                var nan = new Vec3[10];
                nan[4] = V(float.NaN, 0, 0);
                Refused(BoidsResult.InvalidArgument, () => f.WriteVelocities(nan));
                Assert(f.Add(new[] { V(1, 1, 1), V(2, 2, 2) }, new[] { V(0, 1, 0), V(0, 1, 0) }) == 10, "add");
                Assert(Throws<ArgumentException>(() => f.Add(new Vec3[2], new Vec3[1])).ParamName == "velocities", "lengths");
                Assert(f.Remove(new uint[] { 0, 11 }) == 2, "remove");
                Refused(BoidsResult.InvalidArgument, () => f.Remove(new uint[] { 0 }));
                Assert(f.Count == 10, "count after add/remove");
                f.Resize(25);
                Assert(f.Count == 25, "grow");
                f.Resize(5, SpawnSettings.Sphere(V(0, 0, 0), 2f));
                Assert(f.Count == 5, "shrink");
                var dir = new SpawnSettings();
                dir.Direction = V(0, 0, 0);
                Refused(BoidsResult.InvalidArgument, () => f.Spawn(1, dir));
            }
        });

        Test("targets, bounds, obstacles, observer and wake regions, presets", () =>
        {
            using (var w = new BoidsWorld(5))
            {
                var s = new FlockSettings();
                s.Target = V(0, 0, 0);
                s.TargetWeight = 1f;
                var f = w.CreateFlock("f", s);
                f.Spawn(50);
                f.SetTarget(V(3, 0, 0));
                Assert(f.Settings.Target.Value.X == 3f, "target");
                f.SetBounds(FlockBounds.Wrap(V(-5, -5, -5), V(5, 5, 5)));
                Assert(f.Settings.Bounds.Kind == BoundsKind.Wrap, "bounds");
                var b = FlockBounds.Wrap(V(-5, -5, -5), V(5, 5, 5));
                b.Kind = (BoundsKind)17;
                Refused(BoidsResult.InvalidArgument, () => f.SetBounds(b));
                var o = w.AddObstacle(ObstacleShape.Sphere(V(0, 0, 0), 1f));
                o.Set(ObstacleShape.Box(V(-1, -1, -1), V(1, 1, 1)));
                Refused(BoidsResult.InvalidArgument, () => o.Set(ObstacleShape.Plane(V(0, 0, 0), V(0, 5, 0))));
                o.Remove();
                Refused(BoidsResult.InvalidId, () => o.Remove());
                var tank = w.CreatePreset("fish-tank", "tank");
                Assert(tank.Count == 100, "preset boids");
                Refused(BoidsResult.NotFound, () => w.CreatePreset("no-such-preset", "x"));
                w.SetObserver(V(100, 0, 0));
                w.Step(1f / 60);
                Assert(tank.IsAsleep, "tank sleeps while the player is away");
                Assert(!f.IsAsleep, "no wake region: awake");
                f.SetWakeRegion(V(-1, -1, -1), V(1, 1, 1));
                w.Step(1f / 60);
                Assert(f.IsAsleep, "wake region set");
                f.ClearWakeRegion();
                w.ClearObserver();
                w.Step(1f / 60);
                Assert(!tank.IsAsleep, "no observer: awake");
            }
        });

        Test("flow fields: the maze's walkers read a field around the wall and reach the target; a cell size of 0 turns it off", () =>
        {
            using (var w = new BoidsWorld(3))
            {
                var f = w.CreatePreset("maze", "walkers");
                Assert(w.FlowCellSize == 1f, "the preset's cell size");
                Assert(f.CountAtTarget() == 0, "nobody there yet");
                w.Step(1f / 60);
                Vec3 o;
                float c;
                int x, z;
                Assert(f.TryGetFlowGrid(out o, out c, out x, out z), "a field");
                Assert(c == 1f && x == 161 && z == 161, "161 x 161 cells of 1");
                var d = f.ReadFlowDistances();
                var v = f.ReadFlowDirections();
                Assert(d.Length == x * z && v.Length == x * z, "one value a cell");
                // The target (48, 0): cell (128, 80); inside the U's cup (0, 0): the way leads back
                // out (west), far longer than the 48 of the straight line.
                Assert(d[80 * x + 128] == 0f, "0 at the target");
                Assert(v[80 * x + 80].X < 0f && d[80 * x + 80] > 100f, "out of the cup");
                Refused(BoidsResult.BufferTooSmall, () => f.ReadFlowDistances(new float[10]));
                // The ground under each walker, for an overlay: it stands its pivot height (0.4) above.
                var at = new Vec3[f.Count];
                f.ReadPositions(at);
                foreach (Vec3 q in at)
                {
                    float g;
                    Assert(w.TryGetGroundHeight(q.X, q.Z, out g) && Math.Abs(q.Y - 0.4f - g) < 1e-3f, "on the ground: " + q.Y + " over " + g);
                }
                float none;
                Assert(!w.TryGetGroundHeight(85f, 0f, out none), "no ground beyond the hills");
                for (int s = 0; s < 3000; s++) w.Step(1f / 60);
                Assert(f.CountAtTarget() > 0, "some arrive along the field: " + f.CountAtTarget());
                // A budget: a new target's field is built over several steps, the old one read
                // meanwhile; a save keeps the budget.
                Assert(w.FlowBudget == 0u, "no limit by default");
                w.FlowBudget = 3000u;
                Assert(w.FlowBudget == 3000u, "the budget set");
                f.SetTarget(V(-40, 0, 50));
                w.Step(1f / 60);
                Assert(f.ReadFlowDistances()[80 * x + 128] == 0f, "the old field meanwhile");
                int steps = 1;
                while (f.ReadFlowDistances()[80 * x + 128] == 0f && steps < 500) { w.Step(1f / 60); steps++; }
                Assert(steps > 3 && steps < 500, "the new field after " + steps + " steps");
                using (var loaded = BoidsWorld.Load(w.Save()))
                    Assert(loaded.FlowBudget == 3000u, "a save keeps the budget");
                w.FlowCellSize = 0f;
                w.Step(1f / 60);
                Assert(!f.TryGetFlowGrid(out o, out c, out x, out z), "no field without a cell size");
                Refused(BoidsResult.InvalidArgument, () => w.FlowCellSize = 0.001f);
            }
        });

        Test("scene geometry: a mesh wall turns a school away, a heightfield keeps it above, boxes and capsules", () =>
        {
            using (var w = new BoidsWorld(4, 1))
            {
                var s = new FlockSettings();
                s.Bounds = FlockBounds.None();
                s.ObstacleAvoidance = ObstacleAvoidance.FreeDirection;
                s.LookAhead = 3f;
                s.ObstacleWeight = 10f;
                s.Combine = Combine.Steer; // the steering-obstacles tutorial's steering
                s.MaxForce = 3f;
                var f = w.CreateFlock("school", s);
                var spawn = new SpawnSettings();
                spawn.Shape = SpawnKind.Box;
                spawn.Min = V(-4, 1, -4);
                spawn.Max = V(0, 5, 4);
                spawn.MinSpeed = 2f;
                spawn.MaxSpeed = 2f;
                spawn.Direction = V(1, -0.3f, 0);
                f.Spawn(200, spawn);
                // A wall at x = 6 (two triangles, 100 x 100), placed by a mesh; a floor at y = 0.
                var quad = w.AddMesh(new[] { V(0, -50, -50), V(0, 50, -50), V(0, 50, 50), V(0, -50, 50) }, new[] { 0, 1, 2, 0, 2, 3 });
                var wall = w.AddObstacle(ObstacleShape.Mesh(quad, V(6, 0, 0), Quat.Identity, V(1, 1, 1)));
                var ground = w.AddHeightfield(new float[4], 2, 2, 100f, 100f);
                w.AddObstacle(ObstacleShape.Heightfield(ground, V(-50, 0, -50), Quat.Identity, V(1, 1, 1)));
                w.AddObstacle(ObstacleShape.OrientedBox(V(-20, 3, 0), V(1, 2, 3), new Quat(0, 0.3826834f, 0, 0.9238795f)));
                w.AddObstacle(ObstacleShape.Capsule(V(-20, 3, 10), V(-20, 3, 14), 1f));
                // The scene's faces for drawing: the wall's 2 triangles, the floor's 2, the box's
                // 12, in slot order (the capsule has none); the wall's first point placed.
                var faces = w.ReadSceneTriangles();
                Assert(faces.Length == 3 * (2 + 2 + 12), "scene points: " + faces.Length);
                Assert(faces[0].X == 6f && faces[0].Y == -50f && faces[0].Z == -50f, "the wall's first point, placed");
                Assert(faces[6].X == -50f && faces[6].Y == 0f && faces[6].Z == -50f, "the floor's first sample, placed");
                var pos = new Vec3[200];
                for (int i = 0; i < 240; i++)
                {
                    w.Step(1f / 60);
                    f.ReadPositions(pos);
                    foreach (var p in pos)
                        Assert(p.Y >= 0f, "a boid ended a step below the heightfield: " + p.Y);
                }
                // The school turns away (without the wall, boids are past x = 6 by now).
                int through = pos.Count(p => p.X > 6f);
                Assert(through == 0, through + " of 200 boids went through the mesh wall");
                // Moved every frame without a rebuild; the data refuses to go while placed.
                var moved = ObstacleShape.Mesh(quad, V(7, 0, 0), Quat.Identity, V(1, 1, 1));
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 100; i++)
                {
                    moved.Place(quad, V(7f + i * 0.01f, 0, 0), Quat.Identity, V(1, 1, 1));
                    wall.Set(moved);
                }
                Assert(GC.GetAllocatedBytesForCurrentThread() == before, "moving an obstacle allocates nothing");
                Refused(BoidsResult.InvalidArgument, () => quad.Destroy());
                wall.Remove();
                quad.Destroy();
            }
        });

        Test("predators, paths, leaders, level of detail", () =>
        {
            using (var w = new BoidsWorld(6))
            {
                var fish = w.CreatePreset("shark", "fish");
                var shark = w.FindFlock("fish-predator");
                Assert(w.Flocks().Length == 2, "the world lists its two flocks");
                Assert(shark != null && shark.Count == 1, "the shark preset makes a predator flock");
                var birds = w.CreateFlock("birds");
                birds.Spawn(50);
                w.SetRelation(birds, fish, RelationKind.Avoid, 3f, 2f);
                w.SetRelation(birds, fish, RelationKind.Ignore, 3f, 2f);
                Refused(BoidsResult.InvalidArgument, () => w.SetRelation(birds, birds, RelationKind.Flee, 3f, 1f));
                Refused(BoidsResult.InvalidArgument, () => w.SetRelation(birds, fish, (RelationKind)9, 3f, 1f));
                var s = birds.Settings;
                s.PathWeight = 2f;
                s.UpdateEvery = 2;
                s.WanderWeight = 1f;
                birds.Settings = s;
                birds.SetPath(new[] { V(0, 0, 0), V(5, 0, 0), V(5, 0, 5) }, true);
                Refused(BoidsResult.InvalidArgument, () => birds.SetPath(new[] { V(float.NaN, 0, 0), V(1, 0, 0) }, false));
                birds.SetLeader(0, V(0, 0, -2));
                Refused(BoidsResult.InvalidArgument, () => birds.SetLeader(9999, V(0, 0, 0)));
                for (int i = 0; i < 30; i++) w.Step(1f / 60);
                birds.ClearLeader();
                Assert(birds.Settings.UpdateEvery == 2, "level of detail");
                var s2 = birds.Settings;
                s2.SleepDistance = 1f;
                birds.Settings = s2;
                w.SetObserver(V(500, 0, 0));
                w.Step(1f / 60);
                Assert(birds.IsAsleep, "asleep far from the observer");
            }
        });

        Test("no allocation across 1000 steps with reads", () =>
        {
            using (var w = new BoidsWorld(9, 2))
            {
                var f = w.CreateFlock("f");
                f.Spawn(2000);
                var pos = new Vec3[2000];
                var m = new Mat4[2000];
                var q = new Quat[2000];
                // Warm up: JIT, static constructors.
                for (int i = 0; i < 5; i++) { w.Step(1f / 60); f.ReadPositions(pos); f.ReadMatrices(m); f.ReadOrientations(q); var c = f.Count; f.MaxSpeed = 5f; }
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 1000; i++)
                {
                    w.Step(1f / 60);
                    f.ReadPositions(pos);
                    f.ReadMatrices(m);
                    f.ReadOrientations(q);
                    var c = f.Count;
                    f.MaxSpeed = 5f;
                }
                long grew = GC.GetAllocatedBytesForCurrentThread() - before;
                Assert(grew == 0, "allocated " + grew + " bytes over 1000 frames");
            }
        });

        Test("hardening: negative capacities, NULs in names, parameter names", () =>
        {
            using (var w = new BoidsWorld(4))
            {
                var f = w.CreateFlock("fish");
                f.Spawn(4);
                ulong before = w.StateHash;
                IntPtr mem = Marshal.AllocHGlobal(4 * 64);
                try
                {
                    var e = Throws<ArgumentOutOfRangeException>(() => f.ReadPositions(mem, -1));
                    Assert(e.ParamName == "capacity", "capacity named: " + e.ParamName);
                    Throws<ArgumentOutOfRangeException>(() => f.ReadVelocities(mem, int.MinValue));
                    Throws<ArgumentOutOfRangeException>(() => f.ReadOrientations(mem, -1));
                    Throws<ArgumentOutOfRangeException>(() => f.ReadMatrices(mem, -1));
                }
                finally { Marshal.FreeHGlobal(mem); }
                Assert(Throws<ArgumentNullException>(() => f.ReadPositions(IntPtr.Zero, 4)).ParamName == "buffer", "null buffer named");
                var nul = Throws<ArgumentException>(() => w.CreateFlock("ab\0cd"));
                Assert(nul.ParamName == "name", "NUL: " + nul.ParamName);
                Assert(w.FindFlock("ab") == null, "nothing named 'ab' was created");
                Assert(Throws<ArgumentNullException>(() => w.CreateFlock(null)).ParamName == "name", "CreateFlock null");
                Assert(Throws<ArgumentNullException>(() => w.FindFlock(null)).ParamName == "name", "FindFlock null");
                Assert(Throws<ArgumentNullException>(() => w.CreatePreset(null, "x")).ParamName == "preset", "CreatePreset preset");
                Assert(Throws<ArgumentNullException>(() => w.CreatePreset("shark", null)).ParamName == "name", "CreatePreset name");
                Assert(Throws<ArgumentException>(() => w.CreatePreset("shark\0", "x")).ParamName == "preset", "CreatePreset NUL");
                Assert(w.StateHash == before, "nothing changed");
            }
        });

        Test("error messages come from the native library", () =>
        {
            using (var w = new BoidsWorld())
            {
                var e = Refused(BoidsResult.InvalidArgument, () => w.Step(5f));
                Assert(e.Message.Contains("dt must be finite"), e.Message);
            }
        });

        Test("save at step 100, load, run to 300: the same state as never stopping, every preset", () =>
        {
            string[] presets = { "fish-tank", "goal-swarm", "target-flock", "steering-obstacles", "flock-2d", "reef", "shark", "herd" };
            foreach (var name in presets)
            {
                ulong straight;
                using (var w = new BoidsWorld(1, 1))
                {
                    w.CreatePreset(name, name);
                    for (int i = 0; i < 300; i++) w.Step(1f / 60);
                    straight = w.StateHash;
                }
                byte[] saved;
                using (var w = new BoidsWorld(1, 1))
                {
                    w.CreatePreset(name, name);
                    for (int i = 0; i < 100; i++) w.Step(1f / 60);
                    var stream = new System.IO.MemoryStream();
                    w.Save(stream);
                    saved = stream.ToArray();
                }
                using (var loaded = BoidsWorld.Load(new System.IO.MemoryStream(saved), 2))
                {
                    Assert(loaded.FindFlock(name) != null, name + ": the flock is found by name");
                    for (int i = 0; i < 200; i++) loaded.Step(1f / 60);
                    Assert(loaded.StateHash == straight, name + ": saved at 100 and loaded, the hash at 300 differs");
                }
            }
        });
        Test("BeginStep/EndStep: Step's bits on every preset; reads in between see the state before; every other call is Busy and changes nothing; Dispose waits", () =>
        {
            string[] presets = { "fish-tank", "goal-swarm", "target-flock", "steering-obstacles", "flock-2d", "reef", "shark", "herd" };
            foreach (string p in presets)
            {
                using (var a = new BoidsWorld(4, 2))
                using (var b = new BoidsWorld(4, 2))
                {
                    a.CreatePreset(p, p);
                    BoidsFlock fb = b.CreatePreset(p, p);
                    var before = new Vec3[fb.Count];
                    var during = new Vec3[fb.Count];
                    var m0 = new Mat4[fb.Count];
                    var m1 = new Mat4[fb.Count];
                    for (int i = 0; i < 60; i++)
                    {
                        a.Step(1f / 60);
                        fb.ReadPositions(before);
                        fb.ReadMatrices(m0);
                        b.BeginStep(1f / 60);
                        Assert(b.IsStepping, "stepping");
                        Assert(fb.Count == before.Length && fb.ReadPositions(during) == before.Length, "reads run during a step");
                        fb.ReadMatrices(m1);
                        for (int k = 0; k < before.Length; k++)
                            Assert(during[k].Equals(before[k]) && m0[k].Equals(m1[k]), p + ": a read during the step saw the state before it");
                        b.EndStep();
                        Assert(!b.IsStepping, "ended");
                    }
                    Assert(a.StateHash == b.StateHash, p + ": BeginStep/EndStep gives Step's bits");
                }
            }
            using (var w = new BoidsWorld(5, 2))
            {
                BoidsFlock f = w.CreateFlock("school");
                f.Spawn(5000);
                w.Step(1f / 60);
                byte[] saved = w.Save();
                w.BeginStep(1f / 60);
                var busy = new Dictionary<string, Action>
                {
                    { "Step", () => w.Step(1f / 60) },
                    { "BeginStep", () => w.BeginStep(1f / 60) },
                    { "StateHash", () => { ulong h = w.StateHash; } },
                    { "Save", () => w.Save() },
                    { "CreateFlock", () => w.CreateFlock("x") },
                    { "FindFlock", () => w.FindFlock("school") },
                    { "Spawn", () => f.Spawn(3) },
                    { "Settings", () => f.Settings = new FlockSettings() },
                    { "SetTarget", () => f.SetTarget(V(1, 2, 3)) },
                    { "AddObstacle", () => w.AddObstacle(ObstacleShape.Sphere(V(0, 0, 0), 1f)) },
                    { "Destroy", () => f.Destroy() },
                };
                foreach (var kv in busy)
                {
                    BoidsException e = Refused(BoidsResult.Busy, kv.Value);
                    Assert(e.Message.Contains("in flight"), kv.Key + ": " + e.Message);
                }
                w.EndStep();
                using (var twin = BoidsWorld.Load(saved, 1))
                {
                    twin.Step(1f / 60);
                    Assert(twin.StateHash == w.StateHash, "nothing refused changed anything");
                }
                Refused(BoidsResult.InvalidArgument, () => w.EndStep());
                w.BeginStep(1f / 60);
            } // disposed with a step in flight: Dispose waits for it
        });
        Test("round trip: 256 random accepted settings and states read back equal and are accepted again", RoundTrips);
        Test("hostile matrix: one row per public member, every row refused cleanly with the state unchanged", HostileMatrix);
        UnityTests();
        ThirtyFpsTests();
        PhoneTests();

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    static double Median(List<double> v)
    {
        v.Sort();
        return v[v.Count / 2];
    }

    /// The benchmark scenario (fish-tank rules, ~25 boids within the radius, a soft-walled cube,
    /// speeds 2..5) of n boids in `w`, as `boids bench` builds it.
    static BoidsFlock BenchFlock(BoidsWorld w, int n)
    {
        float side = (float)Math.Pow(n / (25.0 / (4.0 / 3.0 * Math.PI)), 1.0 / 3.0);
        var s = new FlockSettings();
        s.Bounds = FlockBounds.SoftBox(V(0, 0, 0), V(side, side, side), 3f);
        var spawn = SpawnSettings.Box(V(0, 0, 0), V(side, side, side));
        spawn.MinSpeed = 2f;
        spawn.MaxSpeed = 5f;
        var f = w.CreateFlock("bench", s);
        f.Spawn(n, spawn);
        return f;
    }

    /// The step and a renderer's reads after it (positions, orientations, matrices into arrays
    /// allocated once), each timed after every step as `boids bench --frame` times them; ns a
    /// boid, medians of 20 steps after 3.
    static int ReadsBench(int n, int threads)
    {
        const int steps = 20, warmup = 3;
        using (var w = new BoidsWorld(1, threads))
        {
            var f = BenchFlock(w, n);
            var p = new Vec3[n];
            var q = new Quat[n];
            var m = new Mat4[n];
            var t = new List<double>[4];
            for (int i = 0; i < 4; i++) t[i] = new List<double>(steps);
            var sw = new Stopwatch();
            var mark = new double[5];
            for (int k = 0; k < warmup + steps; k++)
            {
                sw.Restart();
                w.Step(1f / 60);
                mark[1] = sw.Elapsed.TotalMilliseconds;
                f.ReadPositions(p);
                mark[2] = sw.Elapsed.TotalMilliseconds;
                f.ReadOrientations(q);
                mark[3] = sw.Elapsed.TotalMilliseconds;
                f.ReadMatrices(m);
                mark[4] = sw.Elapsed.TotalMilliseconds;
                if (k < warmup) continue;
                for (int i = 0; i < 4; i++) t[i].Add((mark[i + 1] - mark[i]) * 1e6 / n);
            }
            double step = Median(t[0]), pos = Median(t[1]), rot = Median(t[2]), mat = Median(t[3]);
            double reads = pos + rot + mat;
            var ci = System.Globalization.CultureInfo.InvariantCulture;
            Console.WriteLine("boids " + n + ", " + threads + " thread(s), " + steps + " steps after " + warmup + ", ns a boid: step " +
                              step.ToString("F1", ci) + ", reads " + reads.ToString("F2", ci) + " (" + (100 * reads / step).ToString("F1", ci) + " % of the step)");
            Console.WriteLine("bench frame csharp n=" + n + " threads=" + threads + " step_ns_per_boid=" + step.ToString("F3", ci) +
                              " positions_ns_per_boid=" + pos.ToString("F3", ci) + " orientations_ns_per_boid=" + rot.ToString("F3", ci) +
                              " matrices_ns_per_boid=" + mat.ToString("F3", ci) + " reads_ns_per_boid=" + reads.ToString("F3", ci) +
                              " reads_share=" + (reads / step).ToString("F4", ci));
            return 0;
        }
    }

    /// Step + read matrices through the wrapper against the bare native step, interleaved.
    static int Bench(int n)
    {
        const int steps = 40;
        using (var a = new BoidsWorld(1, 2))
        using (var b = new BoidsWorld(1, 2))
        {
            BenchFlock(a, n);
            var fb = BenchFlock(b, n);
            var m = new Mat4[n];
            BoidsWorldId ida = a.Id;
            var ta = new List<double>(steps);
            var tb = new List<double>(steps);
            var sw = new Stopwatch();
            long allocBefore = 0;
            for (int k = 0; k < steps + 3; k++)
            {
                if (k == 3) allocBefore = GC.GetAllocatedBytesForCurrentThread();
                sw.Restart();
                NativeMethods.boids_world_step(ida, 1f / 60);
                double x = sw.Elapsed.TotalMilliseconds;
                sw.Restart();
                b.Step(1f / 60);
                fb.ReadMatrices(m);
                double y = sw.Elapsed.TotalMilliseconds;
                if (k >= 3) { ta.Add(x); tb.Add(y); }
            }
            long alloc = GC.GetAllocatedBytesForCurrentThread() - allocBefore;
            if (a.StateHash != b.StateHash) { Console.WriteLine("worlds diverged"); return 1; }
            double ma = Median(ta), mb = Median(tb);
            Console.WriteLine("boids " + n + ", 2 threads, " + steps + " steps, interleaved");
            Console.WriteLine("  native step alone (P/Invoke, no read)      " + ma.ToString("F3") + " ms");
            Console.WriteLine("  wrapper Step + ReadMatrices(Mat4[])        " + mb.ToString("F3") + " ms");
            Console.WriteLine("  overhead " + ((mb / ma - 1) * 100).ToString("F1") + " %, " + (alloc / steps) + " bytes allocated per frame");
            Console.WriteLine("csharp_bench n=" + n + " native_ms=" + ma.ToString("F4") + " wrapper_ms=" + mb.ToString("F4") +
                              " overhead_pct=" + ((mb / ma - 1) * 100).ToString("F2") + " bytes_per_frame=" + (alloc / steps));
            return 0;
        }
    }
}
