// Tests of the C# wrapper on Mono: every wrapper method, every error path, no allocation per
// frame. Ends with "N passed, M failed". `mono BoidsTests.exe --bench [N]` measures the wrapper's
// per-frame cost instead.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using Boids;
using Boids.Native;

static unsafe class BoidsTests
{
    static int passed, failed;

    static void Test(string name, Action body)
    {
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

    static BoidsVec3 V(float x, float y, float z) { return new BoidsVec3(x, y, z); }

    static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--bench") return Bench(args.Length > 1 ? int.Parse(args[1]) : 100000);

        Test("version and layout", () =>
        {
            Assert(BoidsWorld.Version.Length > 0, "version");
            Assert(NativeMethods.boids_abi_version() == BoidsConst.ABI_VERSION, "abi");
            Assert(sizeof(BoidsFlockParams) == NativeMethods.boids_struct_size(BoidsConst.STRUCT_FLOCK_PARAMS), "params size");
            Assert(sizeof(BoidsMat4) == 64, "mat4 is Unity's Matrix4x4 size");
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

        Test("disposed world throws ObjectDisposedException everywhere", () =>
        {
            var w = new BoidsWorld();
            var f = w.CreateFlock("f");
            f.Spawn(10);
            w.Dispose();
            w.Dispose(); // idempotent
            Assert(w.IsDisposed, "IsDisposed");
            Throws<ObjectDisposedException>(() => w.Step(0.016f));
            Throws<ObjectDisposedException>(() => { var h = w.StateHash; });
            Throws<ObjectDisposedException>(() => w.CreateFlock("g"));
            Throws<ObjectDisposedException>(() => w.FindFlock("f"));
            Throws<ObjectDisposedException>(() => w.SetObserver(V(0, 0, 0)));
            Throws<ObjectDisposedException>(() => { var id = w.Id; });
            Throws<ObjectDisposedException>(() => { var n = f.Count; });
            Throws<ObjectDisposedException>(() => f.ReadPositions(new BoidsVec3[10]));
            Assert(!f.IsValid, "flock of a disposed world is not valid");
        });

        Test("flock: create, spawn, count, find, params, destroy", () =>
        {
            using (var w = new BoidsWorld(1))
            {
                var f = w.CreateFlock("fish");
                Assert(f.Spawn(100) == 0, "first id");
                Assert(f.Spawn(50) == 100, "ids continue");
                Assert(f.Count == 150, "count");
                Assert(w.FindFlock("fish").Id.index == f.Id.index, "find");
                Assert(w.FindFlock("nobody") == null, "not found is null");
                Refused(BoidsResult.InvalidArgument, () => w.CreateFlock("fish"));
                f.PerceptionRadius = 2.5f;
                f.MaxSpeed = 7f;
                f.MinSpeed = 1f;
                f.SeparationWeight = 4f;
                f.AlignmentWeight = 3f;
                f.CohesionWeight = 1f;
                f.FovHalfAngleDegrees = 120f;
                var p = f.Params;
                Assert(p.perception_radius == 2.5f && p.max_speed == 7f && p.min_speed == 1f, "live params");
                Assert(f.PerceptionRadius == 2.5f && f.FovHalfAngleDegrees == 120f && f.CohesionWeight == 1f, "getters");
                f.Destroy();
                Assert(!f.IsValid, "destroyed");
                Refused(BoidsResult.InvalidId, () => { var n = f.Count; });
                Refused(BoidsResult.InvalidId, () => f.Destroy());
                Refused(BoidsResult.InvalidId, () => f.ReadPositions(new BoidsVec3[1]));
            }
        });

        Test("every value of every enum round-trips through the native library", () =>
        {
            using (var w = new BoidsWorld(2))
            {
                var f = w.CreateFlock("f");
                var g = w.CreateFlock("g");
                int n = 0;
                foreach (SeparationMode v in Enum.GetValues(typeof(SeparationMode))) { f.Separation = v; Assert(f.Separation == v, "separation " + v); n++; }
                foreach (AlignmentMode v in Enum.GetValues(typeof(AlignmentMode)))
                {
                    // group-speed belongs to the heading-speed integrator.
                    f.Integrator = v == AlignmentMode.GroupSpeed ? Integrator.HeadingSpeed : Integrator.Acceleration;
                    f.Alignment = v; Assert(f.Alignment == v, "alignment " + v); n++;
                }
                f.Alignment = AlignmentMode.VelocityDifference;
                foreach (Combine v in Enum.GetValues(typeof(Combine))) { f.Combine = v; Assert(f.Combine == v, "combine " + v); n++; }
                foreach (Integrator v in Enum.GetValues(typeof(Integrator))) { f.Integrator = v; Assert(f.Integrator == v, "integrator " + v); n++; }
                foreach (PlaneLock v in Enum.GetValues(typeof(PlaneLock))) { f.Plane = v; Assert(f.Plane == v, "plane " + v); n++; }
                foreach (IndexKind v in Enum.GetValues(typeof(IndexKind))) { f.Index = v; Assert(f.Index == v, "index " + v); n++; }
                foreach (ObstacleAvoidance v in Enum.GetValues(typeof(ObstacleAvoidance))) { f.ObstacleAvoidance = v; Assert(f.ObstacleAvoidance == v, "obstacles " + v); n++; }
                foreach (BoundsKind v in Enum.GetValues(typeof(BoundsKind)))
                {
                    var b = f.Params.bounds;
                    b.kind = (int)v;
                    b.min = V(-5, -5, -5); b.max = V(5, 5, 5); b.radius = 5f; b.inner = 0.9f; b.distance = 2f;
                    f.SetBounds(b);
                    Assert(f.BoundsKind == v, "bounds " + v); n++;
                }
                foreach (SpawnKind v in Enum.GetValues(typeof(SpawnKind)))
                {
                    var s = BoidsFlock.DefaultSpawn();
                    s.shape = (int)v;
                    f.Spawn(2, s); n++;
                }
                foreach (ObstacleKind v in Enum.GetValues(typeof(ObstacleKind)))
                {
                    var d = new BoidsObstacleDef { shape = (int)v, a = V(0, 0, 0), b = V(0, 1, 0), radius = 1f };
                    w.AddObstacle(d); n++;
                }
                foreach (RelationKind v in Enum.GetValues(typeof(RelationKind))) { w.SetRelation(f, g, v, 2f, 1f); n++; }
                Assert(n == 4 + 4 + 3 + 4 + 3 + 4 + 3 + 6 + 4 + 3 + 5, "every value visited: " + n);
                Assert((int)SeparationMode.InverseSquare == BoidsConst.SEPARATION_INVERSE_SQUARE, "enum and constant agree");
                var p = f.Params;
                p.combine = 99;
                var e = Refused(BoidsResult.InvalidArgument, () => f.Params = p);
                Assert(e.Message.Contains("BOIDS_COMBINE_STEER (1)"), e.Message);
            }
        });

        Test("bad params are refused with the field named, nothing changes", () =>
        {
            using (var w = new BoidsWorld(1))
            {
                var f = w.CreateFlock("f");
                f.Spawn(20);
                ulong before = w.StateHash;
                var e = Refused(BoidsResult.InvalidArgument, () => f.PerceptionRadius = float.NaN);
                Assert(e.Message.Contains("perception_radius"), e.Message);
                Refused(BoidsResult.InvalidArgument, () => f.MinSpeed = 99f);
                var p = BoidsFlock.DefaultParams();
                p.integrator = 42;
                Refused(BoidsResult.InvalidArgument, () => f.Params = p);
                p = BoidsFlock.DefaultParams();
                p.weight_cohesion = float.PositiveInfinity;
                Refused(BoidsResult.InvalidArgument, () => w.CreateFlock("g", p));
                Refused(BoidsResult.InvalidArgument, () => w.Step(0f));
                Refused(BoidsResult.InvalidArgument, () => w.Step(-1f));
                Refused(BoidsResult.InvalidArgument, () => w.Step(float.NaN));
                Refused(BoidsResult.InvalidArgument, () => f.SetTarget(V(0, 0, 0)));
                Refused(BoidsResult.InvalidArgument, () => f.Spawn(int.MaxValue));
                Throws<ArgumentOutOfRangeException>(() => f.Spawn(-1));
                Assert(w.StateHash == before, "state unchanged");
                Assert(f.Params.perception_radius == 1f, "params unchanged");
            }
        });

        Test("reads: positions, velocities, ids, orientations, matrices; too-small buffers", () =>
        {
            using (var w = new BoidsWorld(3))
            {
                var f = w.CreateFlock("f");
                f.Spawn(300);
                w.Step(1f / 60);
                var pos = new BoidsVec3[300];
                var vel = new BoidsVec3[300];
                var ids = new uint[400];
                var q = new BoidsQuat[300];
                var m = new BoidsMat4[300];
                Assert(f.ReadPositions(pos) == 300, "positions");
                Assert(f.ReadVelocities(vel) == 300, "velocities");
                Assert(f.ReadIds(ids) == 300 && ids[299] == 299, "ids");
                Assert(f.ReadOrientations(q) == 300, "orientations");
                Assert(f.ReadMatrices(m, 2f) == 300, "matrices");
                for (int i = 0; i < 300; i++)
                {
                    Assert(m[i].m03 == pos[i].x && m[i].m13 == pos[i].y && m[i].m23 == pos[i].z && m[i].m33 == 1f, "translation");
                    float len = (float)Math.Sqrt(m[i].m02 * m[i].m02 + m[i].m12 * m[i].m12 + m[i].m22 * m[i].m22);
                    Assert(Math.Abs(len - 2f) < 1e-4f, "scaled forward column");
                    float ql = q[i].x * q[i].x + q[i].y * q[i].y + q[i].z * q[i].z + q[i].w * q[i].w;
                    Assert(Math.Abs(ql - 1f) < 1e-4f, "unit quaternion");
                }
                var e = Refused(BoidsResult.BufferTooSmall, () => f.ReadPositions(new BoidsVec3[299]));
                Assert(e.Message.Contains("300"), e.Message);
                Refused(BoidsResult.BufferTooSmall, () => f.ReadMatrices(new BoidsMat4[0]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadIds(new uint[10]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadOrientations(new BoidsQuat[1]));
                Refused(BoidsResult.BufferTooSmall, () => f.ReadVelocities(new BoidsVec3[2]));
                Throws<ArgumentNullException>(() => f.ReadPositions((BoidsVec3[])null));
                // Raw pointers, as a Unity NativeArray gives them.
                var raw = new BoidsMat4[300];
                fixed (BoidsMat4* p = raw) Assert(f.ReadMatrices(p, 300, 2f) == 300, "pointer read");
                Assert(raw[17].m03 == m[17].m03 && raw[17].m22 == m[17].m22, "pointer read = array read");
                fixed (BoidsVec3* p = pos) Assert(f.ReadPositions(p, 300) == 300, "pointer positions");
                fixed (BoidsVec3* p = vel) Assert(f.ReadVelocities(p, 300) == 300, "pointer velocities");
                fixed (BoidsQuat* p = q) Assert(f.ReadOrientations(p, 300) == 300, "pointer orientations");
                Assert(Throws<ArgumentNullException>(() => f.ReadMatrices((BoidsMat4*)null, 5)).ParamName == "buffer", "null buffer");
                // An empty flock reads into an empty array.
                var empty = w.CreateFlock("empty");
                Assert(empty.ReadPositions(new BoidsVec3[0]) == 0, "empty read");
            }
        });

        Test("writes, add, remove, resize", () =>
        {
            using (var w = new BoidsWorld(3))
            {
                var f = w.CreateFlock("f");
                f.Spawn(10);
                var pos = new BoidsVec3[10];
                for (int i = 0; i < 10; i++) pos[i] = V(i, 0, 0);
                f.WritePositions(pos);
                var back = new BoidsVec3[10];
                f.ReadPositions(back);
                Assert(back[7].x == 7f, "write positions");
                var vel = new BoidsVec3[10];
                for (int i = 0; i < 10; i++) vel[i] = V(0, 0, 3);
                f.WriteVelocities(vel);
                f.ReadVelocities(back);
                Assert(back[3].z == 3f, "write velocities");
                Refused(BoidsResult.InvalidArgument, () => f.WritePositions(new BoidsVec3[9]));
                var nan = new BoidsVec3[10];
                nan[4] = V(float.NaN, 0, 0);
                Refused(BoidsResult.InvalidArgument, () => f.WriteVelocities(nan));
                Assert(f.Add(new[] { V(1, 1, 1), V(2, 2, 2) }, new[] { V(0, 1, 0), V(0, 1, 0) }) == 10, "add");
                Throws<ArgumentException>(() => f.Add(new BoidsVec3[2], new BoidsVec3[1]));
                Assert(f.Remove(new uint[] { 0, 11 }) == 2, "remove");
                Refused(BoidsResult.InvalidArgument, () => f.Remove(new uint[] { 0 }));
                Assert(f.Count == 10, "count after add/remove");
                f.Resize(25, BoidsFlock.DefaultSpawn());
                Assert(f.Count == 25, "grow");
                f.Resize(5, BoidsFlock.DefaultSpawn());
                Assert(f.Count == 5, "shrink");
                var bad = BoidsFlock.DefaultSpawn();
                bad.internal_cookie = 0;
                Refused(BoidsResult.InvalidDef, () => f.Spawn(1, bad));
            }
        });

        Test("targets, bounds, obstacles, observer and wake regions, presets", () =>
        {
            using (var w = new BoidsWorld(5))
            {
                var p = BoidsFlock.DefaultParams();
                p.has_target = 1;
                p.target_point = V(0, 0, 0);
                p.weight_target = 1f;
                var f = w.CreateFlock("f", p);
                f.Spawn(50);
                f.SetTarget(V(3, 0, 0));
                Assert(f.Params.target_point.x == 3f, "target");
                var b = f.Params.bounds;
                b.kind = BoidsConst.BOUNDS_WRAP;
                f.SetBounds(b);
                Assert(f.Params.bounds.kind == BoidsConst.BOUNDS_WRAP, "bounds");
                b.kind = 17;
                Refused(BoidsResult.InvalidArgument, () => f.SetBounds(b));
                var o = w.AddObstacle(BoidsObstacle.Sphere(V(0, 0, 0), 1f));
                o.Set(BoidsObstacle.Box(V(-1, -1, -1), V(1, 1, 1)));
                Refused(BoidsResult.InvalidArgument, () => o.Set(BoidsObstacle.Plane(V(0, 0, 0), V(0, 5, 0))));
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
                w.SetRelation(birds, fish, BoidsConst.RELATION_IGNORE, 3f, 2f);
                Refused(BoidsResult.InvalidArgument, () => w.SetRelation(birds, birds, RelationKind.Flee, 3f, 1f));
                Refused(BoidsResult.InvalidArgument, () => w.SetRelation(birds, fish, 9, 3f, 1f));
                Throws<ArgumentNullException>(() => w.SetRelation(null, fish, BoidsConst.RELATION_FLEE, 1f, 1f));
                var p = birds.Params;
                p.weight_path = 2f;
                p.update_every = 2;
                p.weight_wander = 1f;
                birds.Params = p;
                birds.SetPath(new[] { V(0, 0, 0), V(5, 0, 0), V(5, 0, 5) }, true);
                Refused(BoidsResult.InvalidArgument, () => birds.SetPath(new[] { V(float.NaN, 0, 0), V(1, 0, 0) }, false));
                birds.SetLeader(0, V(0, 0, -2));
                Refused(BoidsResult.InvalidArgument, () => birds.SetLeader(9999, V(0, 0, 0)));
                for (int i = 0; i < 30; i++) w.Step(1f / 60);
                birds.ClearLeader();
                Assert(birds.Params.update_every == 2, "level of detail");
                var p2 = birds.Params;
                p2.sleep_distance = 1f;
                birds.Params = p2;
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
                var pos = new BoidsVec3[2000];
                var m = new BoidsMat4[2000];
                var q = new BoidsQuat[2000];
                // Warm up: JIT, static constructors.
                for (int i = 0; i < 5; i++) { w.Step(1f / 60); f.ReadPositions(pos); f.ReadMatrices(m); f.ReadOrientations(q); }
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 1000; i++)
                {
                    w.Step(1f / 60);
                    f.ReadPositions(pos);
                    f.ReadMatrices(m);
                    f.ReadOrientations(q);
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
                IntPtr mem = System.Runtime.InteropServices.Marshal.AllocHGlobal(4 * 64);
                try
                {
                    var e = Throws<ArgumentOutOfRangeException>(() => f.ReadPositions((BoidsVec3*)mem, -1));
                    Assert(e.ParamName == "capacity", "capacity named: " + e.ParamName);
                    Throws<ArgumentOutOfRangeException>(() => f.ReadVelocities((BoidsVec3*)mem, int.MinValue));
                    Throws<ArgumentOutOfRangeException>(() => f.ReadOrientations((BoidsQuat*)mem, -1));
                    Throws<ArgumentOutOfRangeException>(() => f.ReadMatrices((BoidsMat4*)mem, -1));
                }
                finally { System.Runtime.InteropServices.Marshal.FreeHGlobal(mem); }
                Assert(Throws<ArgumentNullException>(() => f.ReadPositions((BoidsVec3*)null, 4)).ParamName == "buffer", "null buffer named");
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

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    static double Median(List<double> v)
    {
        v.Sort();
        return v[v.Count / 2];
    }

    /// Step + read matrices through the wrapper against the bare native step, interleaved.
    static int Bench(int n)
    {
        const int steps = 40;
        using (var a = new BoidsWorld(1, 2))
        using (var b = new BoidsWorld(1, 2))
        {
            float side = (float)Math.Pow(n / (25.0 / (4.0 / 3.0 * Math.PI)), 1.0 / 3.0);
            var p = BoidsFlock.DefaultParams();
            p.bounds.min = V(0, 0, 0);
            p.bounds.max = V(side, side, side);
            var spawn = BoidsFlock.DefaultSpawn();
            spawn.min = V(0, 0, 0);
            spawn.max = V(side, side, side);
            a.CreateFlock("bench", p).Spawn(n, spawn);
            var fb = b.CreateFlock("bench", p);
            fb.Spawn(n, spawn);
            var m = new BoidsMat4[n];
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
            Console.WriteLine("  wrapper Step + ReadMatrices(BoidsMat4[])   " + mb.ToString("F3") + " ms");
            Console.WriteLine("  overhead " + ((mb / ma - 1) * 100).ToString("F1") + " %, " + (alloc / steps) + " bytes allocated per frame");
            Console.WriteLine("csharp_bench n=" + n + " native_ms=" + ma.ToString("F4") + " wrapper_ms=" + mb.ToString("F4") +
                              " overhead_pct=" + ((mb / ma - 1) * 100).ToString("F2") + " bytes_per_frame=" + (alloc / steps));
            return 0;
        }
    }
}
