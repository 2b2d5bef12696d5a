// The C# hostile matrix (one row per public member of BoidsWorld, BoidsFlock, BoidsObstacle and
// BoidsMesh,
// enforced by reflection; FlockSettings and SpawnSettings covered property by property by type)
// and the C# round-trip property: 256 seeded random accepted settings and states.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using BoidsFlocking;

static unsafe partial class BoidsTests
{
    /// What every row works on: a live world and flock, a destroyed flock, a removed obstacle, a
    /// disposed world with its orphaned flock and obstacle.
    sealed class Fx : IDisposable
    {
        public BoidsWorld W, Disposed;
        public BoidsFlock F, Dead, Orphan;
        public BoidsObstacle O, Gone, OrphanObstacle;

        public Fx()
        {
            W = new BoidsWorld(11, 1);
            F = W.CreateFlock("f");
            F.Spawn(16);
            Dead = W.CreateFlock("dead");
            Dead.Destroy();
            O = W.AddObstacle(ObstacleShape.Sphere(V(30, 0, 0), 1f));
            Gone = W.AddObstacle(ObstacleShape.Sphere(V(40, 0, 0), 1f));
            Gone.Remove();
            Disposed = new BoidsWorld(12, 1);
            Orphan = Disposed.CreateFlock("o");
            OrphanObstacle = Disposed.AddObstacle(ObstacleShape.Sphere(V(0, 0, 0), 1f));
            Disposed.Dispose();
            W.Step(1f / 60);
        }

        public void Dispose() { W.Dispose(); }
    }

    static readonly Vec3[] Tetra = { V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1) };
    static readonly int[] TetraIndices = { 0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3 };

    /// Runs a refused call: it must throw T, and the live world must not change.
    static T No<T>(Fx fx, string what, Action a) where T : Exception
    {
        ulong before = fx.W.StateHash;
        T e;
        try { e = Throws<T>(a); }
        catch (Exception x) { throw new Exception(what + ": " + x.Message, x); }
        Assert(fx.W.StateHash == before, what + ": a refused call changed the world");
        return e;
    }

    static void Param<T>(Fx fx, string what, string param, Action a) where T : ArgumentException
    {
        var e = No<T>(fx, what, a);
        Assert(e.ParamName == param, what + ": names '" + e.ParamName + "', not '" + param + "'");
    }

    static BoidsException Code(Fx fx, string what, BoidsResult code, Action a)
    {
        var e = No<BoidsException>(fx, what, a);
        Assert(e.Result == code, what + ": " + e.Result + " (" + e.Message + "), expected " + code);
        return e;
    }

    /// The rows every flock member shares: a flock of a disposed world, a destroyed flock.
    static void Gone(Fx fx, string what, Action<BoidsFlock> call)
    {
        No<ObjectDisposedException>(fx, what + " on a flock of a disposed world", () => call(fx.Orphan));
        Code(fx, what + " on a destroyed flock", BoidsResult.InvalidId, () => call(fx.Dead));
    }

    static Dictionary<string, Action<Fx>> Rows()
    {
        var r = new Dictionary<string, Action<Fx>>();
        // BoidsWorld
        r["BoidsWorld..ctor"] = fx => No<ArgumentOutOfRangeException>(fx, "negative threads", () => new BoidsWorld(0, -1));
        r["BoidsWorld.Version"] = fx => Assert(BoidsWorld.Version.Length > 0, "version");
        r["BoidsFlock.Equals"] = fx =>
        {
            Assert(fx.F.Equals(fx.W.FindFlock("f")) && !fx.F.Equals(null) && !fx.F.Equals("fish") && !fx.F.Equals(fx.Dead),
                "equal to another handle of the same flock only");
            Assert(fx.Orphan.Equals(fx.Orphan), "a flock of a disposed world still equals itself, without throwing");
        };
        r["BoidsFlock.GetHashCode"] = fx =>
            Assert(fx.F.GetHashCode() == fx.W.FindFlock("f").GetHashCode() && fx.Orphan.GetHashCode() == fx.Orphan.GetHashCode(),
                "equal handles hash alike; no throw after Dispose");
        r["BoidsWorld.WrapperVersion"] = fx => Assert(BoidsWorld.WrapperVersion == BoidsWorld.Version, "a constant: nothing to refuse");
        r["BoidsWorld.IsDisposed"] = fx => Assert(fx.Disposed.IsDisposed && !fx.W.IsDisposed, "IsDisposed");
        r["BoidsWorld.Dispose"] = fx => fx.Disposed.Dispose(); // twice: a no-op
        r["BoidsWorld.Step"] = fx =>
        {
            foreach (float dt in new[] { 0f, -0f, -1f, float.NaN, float.PositiveInfinity, float.NegativeInfinity, 1.5f, float.MaxValue })
                Code(fx, "Step(" + dt + ")", BoidsResult.InvalidArgument, () => fx.W.Step(dt));
            No<ObjectDisposedException>(fx, "Step disposed", () => fx.Disposed.Step(0.1f));
        };
        r["BoidsWorld.BeginStep"] = fx =>
        {
            foreach (float dt in new[] { 0f, -1f, float.NaN, float.PositiveInfinity, 1.5f })
                Code(fx, "BeginStep(" + dt + ")", BoidsResult.InvalidArgument, () => fx.W.BeginStep(dt));
            Assert(!fx.W.IsStepping, "a refused BeginStep starts nothing");
            No<ObjectDisposedException>(fx, "BeginStep disposed", () => fx.Disposed.BeginStep(0.1f));
            fx.W.BeginStep(1f / 60);
            Refused(BoidsResult.Busy, () => fx.W.BeginStep(1f / 60));
            fx.W.EndStep();
        };
        r["BoidsWorld.BeginSteps"] = fx =>
        {
            foreach (float dt in new[] { 0f, -1f, float.NaN, float.PositiveInfinity, 1.5f })
                Code(fx, "BeginSteps(" + dt + ", 2)", BoidsResult.InvalidArgument, () => fx.W.BeginSteps(dt, 2));
            foreach (int n in new[] { 0, -1, int.MinValue })
                Param<ArgumentOutOfRangeException>(fx, "BeginSteps(1/60, " + n + ")", "count", () => fx.W.BeginSteps(1f / 60, n));
            Assert(!fx.W.IsStepping, "a refused BeginSteps starts nothing");
            No<ObjectDisposedException>(fx, "BeginSteps disposed", () => fx.Disposed.BeginSteps(0.1f, 2));
            fx.W.BeginSteps(1f / 60, 2);
            Refused(BoidsResult.Busy, () => fx.W.BeginSteps(1f / 60, 2));
            Refused(BoidsResult.Busy, () => fx.W.BeginStep(1f / 60));
            fx.W.EndStep();
        };
        r["BoidsWorld.EndStep"] = fx =>
        {
            var e = Code(fx, "EndStep without BeginStep", BoidsResult.InvalidArgument, () => fx.W.EndStep());
            Assert(e.Message.Contains("without step_begin"), e.Message);
            No<ObjectDisposedException>(fx, "EndStep disposed", () => fx.Disposed.EndStep());
        };
        r["BoidsWorld.IsStepping"] = fx =>
        {
            No<ObjectDisposedException>(fx, "IsStepping disposed", () => { bool s = fx.Disposed.IsStepping; });
            Assert(!fx.W.IsStepping, "idle");
        };
        r["BoidsWorld.RoundedDigest"] = fx =>
        {
            No<ObjectDisposedException>(fx, "RoundedDigest disposed", () => fx.Disposed.RoundedDigest());
            foreach (int d in new[] { 0, 10, -1 })
                Param<ArgumentOutOfRangeException>(fx, "RoundedDigest(" + d + ")", "digits", () => fx.W.RoundedDigest(d));
            Assert(fx.W.RoundedDigest() == fx.W.RoundedDigest(6), "6 digits by default");
        };
        r["BoidsWorld.Save"] = fx =>
        {
            No<ObjectDisposedException>(fx, "Save disposed", () => fx.Disposed.Save());
            Param<ArgumentNullException>(fx, "Save(null stream)", "stream", () => fx.W.Save((System.IO.Stream)null));
            var bytes = fx.W.Save();
            using (var copy = BoidsWorld.Load(bytes, 1))
                Assert(copy.StateHash == fx.W.StateHash, "Save then Load: the same state");
        };
        r["BoidsWorld.Load"] = fx =>
        {
            var good = fx.W.Save();
            Param<ArgumentNullException>(fx, "Load(null)", "bytes", () => BoidsWorld.Load((byte[])null));
            Param<ArgumentNullException>(fx, "Load(null stream)", "stream", () => BoidsWorld.Load((System.IO.Stream)null));
            Param<ArgumentOutOfRangeException>(fx, "Load threads -1", "threads", () => BoidsWorld.Load(good, -1));
            var cut = new byte[good.Length - 1];
            Array.Copy(good, cut, cut.Length);
            var flipped = (byte[])good.Clone();
            flipped[flipped.Length / 2] ^= 8;
            var newer = (byte[])good.Clone();
            newer[8] = 7;
            var cases = new[] { new byte[0], cut, flipped, newer, System.Text.Encoding.ASCII.GetBytes("not a save file") };
            var words = new[] { "BOIDSAVE", "truncated", "checksum", "version", "BOIDSAVE" };
            for (int i = 0; i < cases.Length; i++)
            {
                var c = cases[i];
                var e = No<BoidsException>(fx, "Load bad bytes " + i, () => BoidsWorld.Load(c));
                Assert(e.Result == BoidsResult.InvalidArgument && e.Message.Contains(words[i]),
                       "Load bad bytes " + i + ": " + e.Message);
            }
        };
        r["BoidsWorld.StateHash"] = fx => No<ObjectDisposedException>(fx, "StateHash disposed", () => { var h = fx.Disposed.StateHash; });
        r["BoidsWorld.CreateFlock"] = fx =>
        {
            Param<ArgumentNullException>(fx, "CreateFlock(null)", "name", () => fx.W.CreateFlock(null));
            Param<ArgumentException>(fx, "CreateFlock NUL", "name", () => fx.W.CreateFlock("a\0b"));
            // A lone surrogate would become U+FFFD in UTF-8: "\ud800x" and "\ufffdx" would be one name.
            Param<ArgumentException>(fx, "CreateFlock lone high surrogate", "name", () => fx.W.CreateFlock("\ud800x"));
            Param<ArgumentException>(fx, "CreateFlock lone low surrogate", "name", () => fx.W.CreateFlock("x\udc00"));
            Param<ArgumentException>(fx, "FindFlock lone surrogate", "name", () => fx.W.FindFlock("\ud800"));
            var pair = fx.W.CreateFlock("fish \ud83d\udc1f"); // a surrogate pair is one code point: fine
            Assert(fx.W.FindFlock("fish \ud83d\udc1f") != null && fx.W.FindFlock("fish \ufffd") == null, "surrogate pair name");
            pair.Destroy();
            Code(fx, "CreateFlock empty", BoidsResult.InvalidArgument, () => fx.W.CreateFlock(""));
            Code(fx, "CreateFlock long", BoidsResult.InvalidArgument, () => fx.W.CreateFlock(new string('x', 300)));
            Code(fx, "CreateFlock duplicate", BoidsResult.InvalidArgument, () => fx.W.CreateFlock("f"));
            var s = new FlockSettings();
            s.MaxSpeed = float.NaN;
            Code(fx, "CreateFlock NaN", BoidsResult.InvalidArgument, () => fx.W.CreateFlock("g", s));
            No<ObjectDisposedException>(fx, "CreateFlock disposed", () => fx.Disposed.CreateFlock("g"));
        };
        r["BoidsWorld.CreatePreset"] = fx =>
        {
            Param<ArgumentNullException>(fx, "CreatePreset(null, ..)", "preset", () => fx.W.CreatePreset(null, "x"));
            Param<ArgumentNullException>(fx, "CreatePreset(.., null)", "name", () => fx.W.CreatePreset("shark", null));
            Param<ArgumentException>(fx, "CreatePreset NUL", "preset", () => fx.W.CreatePreset("shark\0x", "x"));
            Code(fx, "CreatePreset unknown", BoidsResult.NotFound, () => fx.W.CreatePreset("whale", "x"));
            Code(fx, "CreatePreset duplicate", BoidsResult.InvalidArgument, () => fx.W.CreatePreset("shark", "f"));
            No<ObjectDisposedException>(fx, "CreatePreset disposed", () => fx.Disposed.CreatePreset("shark", "x"));
        };
        r["BoidsWorld.FindFlock"] = fx =>
        {
            Param<ArgumentNullException>(fx, "FindFlock(null)", "name", () => fx.W.FindFlock(null));
            Param<ArgumentException>(fx, "FindFlock NUL", "name", () => fx.W.FindFlock("f\0"));
            Assert(fx.W.FindFlock("dead") == null, "a destroyed flock is not found");
            No<ObjectDisposedException>(fx, "FindFlock disposed", () => fx.Disposed.FindFlock("o"));
        };
        r["BoidsWorld.Flocks"] = fx =>
        {
            Assert(fx.W.Flocks().Length == 1, "only the live flock is listed");
            No<ObjectDisposedException>(fx, "Flocks disposed", () => fx.Disposed.Flocks());
        };
        r["BoidsWorld.FlockCount"] = fx =>
        {
            Assert(fx.W.FlockCount == 1, "only the live flock is counted");
            No<ObjectDisposedException>(fx, "FlockCount disposed", () => { int n = fx.Disposed.FlockCount; });
        };
        r["BoidsWorld.ReadSceneTriangles"] = fx =>
        {
            Assert(fx.W.ReadSceneTriangles().Length % 3 == 0, "whole triangles");
            No<ObjectDisposedException>(fx, "ReadSceneTriangles disposed", () => fx.Disposed.ReadSceneTriangles());
        };
        r["BoidsWorld.SetObserver"] = fx =>
        {
            Code(fx, "SetObserver NaN", BoidsResult.InvalidArgument, () => fx.W.SetObserver(V(float.NaN, 0, 0)));
            Code(fx, "SetObserver beyond the limit", BoidsResult.InvalidArgument, () => fx.W.SetObserver(V(2e9f, 0, 0)));
            No<ObjectDisposedException>(fx, "SetObserver disposed", () => fx.Disposed.SetObserver(V(0, 0, 0)));
        };
        r["BoidsWorld.FlowCellSize"] = fx =>
        {
            foreach (float bad in new[] { float.NaN, float.PositiveInfinity, -1f })
                Code(fx, "FlowCellSize = " + bad, BoidsResult.InvalidArgument, () => fx.W.FlowCellSize = bad);
            Assert(fx.W.FlowCellSize == 0f, "a refused size changes nothing");
            No<ObjectDisposedException>(fx, "FlowCellSize disposed", () => { var c = fx.Disposed.FlowCellSize; });
            No<ObjectDisposedException>(fx, "FlowCellSize set disposed", () => fx.Disposed.FlowCellSize = 1f);
        };
        r["BoidsWorld.FlowBudget"] = fx =>
        {
            No<ObjectDisposedException>(fx, "FlowBudget disposed", () => { var u = fx.Disposed.FlowBudget; });
            No<ObjectDisposedException>(fx, "FlowBudget set disposed", () => fx.Disposed.FlowBudget = 1u);
            fx.W.FlowBudget = uint.MaxValue;
            Assert(fx.W.FlowBudget == uint.MaxValue, "the largest budget");
            fx.W.FlowBudget = 0u;
        };
        r["BoidsWorld.TryGetGroundHeight"] = fx =>
        {
            float h;
            foreach (float bad in new[] { float.NaN, float.NegativeInfinity, 2e9f })
                Code(fx, "TryGetGroundHeight(" + bad + ", 0)", BoidsResult.InvalidArgument, () => fx.W.TryGetGroundHeight(bad, 0f, out h));
            No<ObjectDisposedException>(fx, "TryGetGroundHeight disposed", () => fx.Disposed.TryGetGroundHeight(0f, 0f, out h));
        };
        r["BoidsWorld.ClearObserver"] = fx => No<ObjectDisposedException>(fx, "ClearObserver disposed", () => fx.Disposed.ClearObserver());
        r["BoidsWorld.SetRelation"] = fx =>
        {
            var g = fx.W.CreateFlock("g");
            Param<ArgumentNullException>(fx, "SetRelation(null, ..)", "from", () => fx.W.SetRelation(null, fx.F, RelationKind.Flee, 1f, 1f));
            Param<ArgumentNullException>(fx, "SetRelation(.., null)", "to", () => fx.W.SetRelation(fx.F, null, RelationKind.Flee, 1f, 1f));
            Code(fx, "SetRelation to itself", BoidsResult.InvalidArgument, () => fx.W.SetRelation(fx.F, fx.F, RelationKind.Flee, 1f, 1f));
            Code(fx, "SetRelation bad kind", BoidsResult.InvalidArgument, () => fx.W.SetRelation(fx.F, g, (RelationKind)42, 1f, 1f));
            Code(fx, "SetRelation radius 0", BoidsResult.InvalidArgument, () => fx.W.SetRelation(fx.F, g, RelationKind.Flee, 0f, 1f));
            Code(fx, "SetRelation NaN weight", BoidsResult.InvalidArgument, () => fx.W.SetRelation(fx.F, g, RelationKind.Flee, 1f, float.NaN));
            Code(fx, "SetRelation destroyed", BoidsResult.InvalidId, () => fx.W.SetRelation(fx.F, fx.Dead, RelationKind.Flee, 1f, 1f));
            No<ObjectDisposedException>(fx, "SetRelation orphan", () => fx.W.SetRelation(fx.F, fx.Orphan, RelationKind.Flee, 1f, 1f));
            g.Destroy();
        };
        r["BoidsWorld.AddObstacle"] = fx =>
        {
            Code(fx, "AddObstacle radius 0", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Sphere(V(0, 0, 0), 0f)));
            Code(fx, "AddObstacle NaN", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Box(V(float.NaN, 0, 0), V(1, 1, 1))));
            Code(fx, "AddObstacle bad normal", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Plane(V(0, 0, 0), V(0, 0, 0))));
            var badKind = ObstacleShape.Sphere(V(0, 0, 0), 1f);
            badKind.Kind = (ObstacleKind)9;
            Code(fx, "AddObstacle bad kind", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(badKind));
            // Not from the library's default def (a default-constructed struct): refused.
            Code(fx, "AddObstacle default(ObstacleShape)", BoidsResult.InvalidDef, () => fx.W.AddObstacle(new ObstacleShape { Kind = ObstacleKind.Sphere, Radius = 1f }));
            // Placements: a zero or negative scale, a rotation that is not unit, a mesh of the
            // other kind, a destroyed mesh, a mesh of another world.
            var tetra = fx.W.AddMesh(Tetra, TetraIndices);
            var field = fx.W.AddHeightfield(new float[4], 2, 2, 1f, 1f);
            Code(fx, "AddObstacle mesh scale 0", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(tetra, V(0, 0, 0), Quat.Identity, V(1, 0, 1))));
            Code(fx, "AddObstacle mesh scale -1", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(tetra, V(0, 0, 0), Quat.Identity, V(-1, 1, 1))));
            Code(fx, "AddObstacle mesh rotation", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(tetra, V(0, 0, 0), new Quat(0, 0, 0, 2), V(1, 1, 1))));
            Code(fx, "AddObstacle heightfield as mesh", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(field, V(0, 0, 0), Quat.Identity, V(1, 1, 1))));
            Code(fx, "AddObstacle mesh as heightfield", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Heightfield(tetra, V(0, 0, 0), Quat.Identity, V(1, 1, 1))));
            using (var other = new BoidsWorld(3, 1))
            {
                var foreign = other.AddMesh(Tetra, TetraIndices);
                var e = Code(fx, "AddObstacle another world's mesh", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(foreign, V(0, 0, 0), Quat.Identity, V(1, 1, 1))));
                Assert(e.Message.Contains("world"), "names the world: " + e.Message);
            }
            tetra.Destroy();
            Code(fx, "AddObstacle destroyed mesh", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(tetra, V(0, 0, 0), Quat.Identity, V(1, 1, 1))));
            Param<ArgumentNullException>(fx, "ObstacleShape.Mesh(null)", "mesh", () => ObstacleShape.Mesh(null, V(0, 0, 0), Quat.Identity, V(1, 1, 1)));
            No<ObjectDisposedException>(fx, "AddObstacle disposed", () => fx.Disposed.AddObstacle(ObstacleShape.Sphere(V(0, 0, 0), 1f)));
        };
        r["BoidsWorld.AddMesh"] = fx =>
        {
            Param<ArgumentNullException>(fx, "AddMesh(null, ..)", "vertices", () => fx.W.AddMesh(null, TetraIndices));
            Param<ArgumentNullException>(fx, "AddMesh(.., null)", "indices", () => fx.W.AddMesh(Tetra, null));
            var nan = (Vec3[])Tetra.Clone();
            nan[2] = V(float.NaN, 0, 0);
            Assert(Code(fx, "AddMesh NaN vertex", BoidsResult.InvalidArgument, () => fx.W.AddMesh(nan, TetraIndices)).Message.Contains("vertices[2]"), "names vertices[2]");
            Assert(Code(fx, "AddMesh index out of range", BoidsResult.InvalidArgument, () => fx.W.AddMesh(Tetra, new[] { 0, 1, 4 })).Message.Contains("indices[2]"), "names indices[2]");
            Code(fx, "AddMesh negative index", BoidsResult.InvalidArgument, () => fx.W.AddMesh(Tetra, new[] { 0, -1, 2 }));
            Assert(Code(fx, "AddMesh no triangle", BoidsResult.InvalidArgument, () => fx.W.AddMesh(Tetra, new int[0])).Message.Contains("no triangle"), "no triangle");
            Code(fx, "AddMesh 2 indices", BoidsResult.InvalidArgument, () => fx.W.AddMesh(Tetra, new[] { 0, 1 }));
            Param<ArgumentOutOfRangeException>(fx, "AddMesh(ptr, -1, ..)", "vertexCount", () => fx.W.AddMesh(IntPtr.Zero, -1, IntPtr.Zero, 0));
            // Counts past the limits, with no memory behind them: refused before anything is read.
            int tooManyIndices = 3 * ((int)BoidsFlocking.Native.BoidsConst.MAX_TRIANGLES + 1);
            Assert(Code(fx, "AddMesh over the triangle limit", BoidsResult.InvalidArgument,
                () => fx.W.AddMesh(IntPtr.Zero, 4, IntPtr.Zero, tooManyIndices)).Message.Contains("2^24"), "names the limit");
            Assert(Code(fx, "AddMesh over the vertex limit", BoidsResult.InvalidArgument,
                () => fx.W.AddMesh(IntPtr.Zero, (int)BoidsFlocking.Native.BoidsConst.MAX_VERTICES + 1, IntPtr.Zero, 3)).Message.Contains("at most"), "names the limit");
            No<ObjectDisposedException>(fx, "AddMesh disposed", () => fx.Disposed.AddMesh(Tetra, TetraIndices));
        };
        r["BoidsWorld.AddHeightfield"] = fx =>
        {
            Param<ArgumentNullException>(fx, "AddHeightfield(null)", "heights", () => fx.W.AddHeightfield(null, 2, 2, 1f, 1f));
            Param<ArgumentException>(fx, "AddHeightfield 3 heights for 2x2", "heights", () => fx.W.AddHeightfield(new float[3], 2, 2, 1f, 1f));
            Code(fx, "AddHeightfield one column", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new float[3], 1, 3, 1f, 1f));
            Code(fx, "AddHeightfield cell 0", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new float[4], 2, 2, 0f, 1f));
            Assert(Code(fx, "AddHeightfield NaN height", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new[] { 0f, float.NaN, 0f, 0f }, 2, 2, 1f, 1f)).Message.Contains("heights[1]"), "names heights[1]");
            foreach (float bad in new[] { float.PositiveInfinity, float.NegativeInfinity, 2e9f })
                Code(fx, "AddHeightfield height " + bad, BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new[] { 0f, bad, 0f, 0f }, 2, 2, 1f, 1f));
            Code(fx, "AddHeightfield cell NaN", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new float[4], 2, 2, float.NaN, 1f));
            // Sizes past the sample limit, whatever the array holds: the limit is named.
            Assert(Code(fx, "AddHeightfield 8193 x 8193", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new float[4], 8193, 8193, 1f, 1f)).Message.Contains("2^26"), "names the limit");
            Assert(Code(fx, "AddHeightfield 2 x 2^25 + 1", BoidsResult.InvalidArgument, () => fx.W.AddHeightfield(new float[4], 2, (1 << 25) + 1, 1f, 1f)).Message.Contains("2^26"), "names the limit");
            No<ObjectDisposedException>(fx, "AddHeightfield disposed", () => fx.Disposed.AddHeightfield(new float[4], 2, 2, 1f, 1f));
        };
        // BoidsMesh
        r["BoidsMesh.World"] = fx => Assert(fx.W.AddMesh(Tetra, TetraIndices).World == fx.W, "World");
        r["BoidsMesh.IsValid"] = fx =>
        {
            var m = fx.W.AddMesh(Tetra, TetraIndices);
            Assert(m.IsValid, "a new mesh is valid");
            m.Destroy();
            Assert(!m.IsValid, "a destroyed mesh is not");
        };
        r["BoidsMesh.Destroy"] = fx =>
        {
            var m = fx.W.AddMesh(Tetra, TetraIndices);
            var o = fx.W.AddObstacle(ObstacleShape.Mesh(m, V(5, 0, 0), Quat.Identity, V(1, 1, 1)));
            Assert(Code(fx, "Destroy a placed mesh", BoidsResult.InvalidArgument, () => m.Destroy()).Message.Contains("placed by 1"), "placed by 1");
            Assert(m.IsValid, "still there");
            // Placed twice, the mesh outlives the first removal; the obstacle left still steps.
            var o2 = fx.W.AddObstacle(ObstacleShape.Mesh(m, V(-5, 0, 0), Quat.Identity, V(1, 1, 1)));
            o.Remove();
            Assert(Code(fx, "Destroy a mesh placed once more", BoidsResult.InvalidArgument, () => m.Destroy()).Message.Contains("placed by 1"), "placed by 1");
            fx.W.Step(1f / 60);
            o2.Remove();
            m.Destroy();
            Code(fx, "Destroy twice", BoidsResult.InvalidId, () => m.Destroy());
            Code(fx, "Place a destroyed mesh", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Mesh(m, V(5, 0, 0), Quat.Identity, V(1, 1, 1))));
            var field = fx.W.AddHeightfield(new float[9], 3, 3, 1f, 1f);
            field.Destroy();
            Code(fx, "Place a destroyed heightfield", BoidsResult.InvalidArgument, () => fx.W.AddObstacle(ObstacleShape.Heightfield(field, V(0, -5, 0), Quat.Identity, V(1, 1, 1))));
        };
        // BoidsFlock
        r["BoidsFlock.World"] = fx => Assert(fx.F.World == fx.W && fx.Orphan.World == fx.Disposed, "World");
        r["BoidsFlock.IsValid"] = fx => Assert(fx.F.IsValid && !fx.Dead.IsValid && !fx.Orphan.IsValid, "IsValid");
        r["BoidsFlock.Count"] = fx => Gone(fx, "Count", f => { var n = f.Count; });
        r["BoidsFlock.Settings"] = fx =>
        {
            Param<ArgumentNullException>(fx, "Settings = null", "value", () => fx.F.Settings = null);
            Gone(fx, "Settings get", f => { var s = f.Settings; });
            Gone(fx, "Settings set", f => f.Settings = new FlockSettings());
        };
        foreach (var name in new[] { "PerceptionRadius", "FovHalfAngleDegrees", "SeparationWeight", "AlignmentWeight", "CohesionWeight", "MinSpeed", "MaxSpeed" })
        {
            string n = name;
            r["BoidsFlock." + n] = fx =>
            {
                var p = typeof(BoidsFlock).GetProperty(n);
                foreach (float bad in new[] { float.NaN, float.PositiveInfinity, -2e9f })
                    Code(fx, n + " = " + bad, BoidsResult.InvalidArgument, () => Set(p, fx.F, bad));
                Gone(fx, n, f => Get(p, f));
            };
        }
        r["BoidsFlock.SetTarget"] = fx =>
        {
            Code(fx, "SetTarget without a target", BoidsResult.InvalidArgument, () => fx.F.SetTarget(V(0, 0, 0)));
            Gone(fx, "SetTarget", f => f.SetTarget(V(0, 0, 0)));
        };
        r["BoidsFlock.CountAtTarget"] = fx =>
        {
            Code(fx, "CountAtTarget without a target", BoidsResult.NotFound, () => fx.F.CountAtTarget());
            Gone(fx, "CountAtTarget", f => f.CountAtTarget());
        };
        r["BoidsFlock.TryGetFlowGrid"] = fx =>
        {
            Vec3 o;
            float c;
            int x, z;
            Assert(!fx.F.TryGetFlowGrid(out o, out c, out x, out z) && x == 0, "no field: false");
            Gone(fx, "TryGetFlowGrid", f => f.TryGetFlowGrid(out o, out c, out x, out z));
        };
        r["BoidsFlock.ReadFlowDistances"] = fx =>
        {
            Assert(fx.F.ReadFlowDistances() == null, "no field: null");
            Param<ArgumentNullException>(fx, "ReadFlowDistances(null)", "buffer", () => fx.F.ReadFlowDistances(null));
            Code(fx, "ReadFlowDistances without a field", BoidsResult.NotFound, () => fx.F.ReadFlowDistances(new float[4]));
            Gone(fx, "ReadFlowDistances", f => f.ReadFlowDistances(new float[4]));
        };
        r["BoidsFlock.ReadFlowDirections"] = fx =>
        {
            Assert(fx.F.ReadFlowDirections() == null, "no field: null");
            Param<ArgumentNullException>(fx, "ReadFlowDirections(null)", "buffer", () => fx.F.ReadFlowDirections(null));
            Code(fx, "ReadFlowDirections without a field", BoidsResult.NotFound, () => fx.F.ReadFlowDirections(new Vec3[4]));
            Gone(fx, "ReadFlowDirections", f => f.ReadFlowDirections(new Vec3[4]));
        };
        r["BoidsFlock.SetBounds"] = fx =>
        {
            Code(fx, "SetBounds min above max", BoidsResult.InvalidArgument, () => fx.F.SetBounds(FlockBounds.SoftBox(V(1, 1, 1), V(0, 0, 0))));
            Code(fx, "SetBounds bad kind", BoidsResult.InvalidArgument, () => fx.F.SetBounds(new FlockBounds { Kind = (BoundsKind)99 }));
            Code(fx, "SetBounds unused infinity", BoidsResult.InvalidArgument, () => { var b = FlockBounds.None(); b.Radius = float.PositiveInfinity; fx.F.SetBounds(b); });
            Gone(fx, "SetBounds", f => f.SetBounds(FlockBounds.None()));
        };
        r["BoidsFlock.SetWakeRegion"] = fx =>
        {
            Code(fx, "SetWakeRegion NaN", BoidsResult.InvalidArgument, () => fx.F.SetWakeRegion(V(float.NaN, 0, 0), V(1, 1, 1)));
            Code(fx, "SetWakeRegion min above max", BoidsResult.InvalidArgument, () => fx.F.SetWakeRegion(V(1, 1, 1), V(0, 0, 0)));
            Gone(fx, "SetWakeRegion", f => f.SetWakeRegion(V(0, 0, 0), V(1, 1, 1)));
        };
        r["BoidsFlock.ClearWakeRegion"] = fx => Gone(fx, "ClearWakeRegion", f => f.ClearWakeRegion());
        r["BoidsFlock.IsAsleep"] = fx => Gone(fx, "IsAsleep", f => { var a = f.IsAsleep; });
        r["BoidsFlock.Name"] = fx => Gone(fx, "Name", f => { var n = f.Name; });
        r["BoidsFlock.Spawn"] = fx =>
        {
            Param<ArgumentOutOfRangeException>(fx, "Spawn(-1)", "n", () => fx.F.Spawn(-1));
            Code(fx, "Spawn too many", BoidsResult.InvalidArgument, () => fx.F.Spawn(int.MaxValue));
            var s = new SpawnSettings();
            s.MaxSpeed = float.NaN;
            Code(fx, "Spawn NaN speed", BoidsResult.InvalidArgument, () => fx.F.Spawn(3, s));
            s = new SpawnSettings();
            s.Shape = (SpawnKind)7;
            Code(fx, "Spawn bad shape", BoidsResult.InvalidArgument, () => fx.F.Spawn(3, s));
            Gone(fx, "Spawn", f => f.Spawn(1));
        };
        r["BoidsFlock.Resize"] = fx =>
        {
            Param<ArgumentOutOfRangeException>(fx, "Resize(-1)", "n", () => fx.F.Resize(-1));
            Code(fx, "Resize too many", BoidsResult.InvalidArgument, () => fx.F.Resize(int.MaxValue));
            Gone(fx, "Resize", f => f.Resize(1));
        };
        r["BoidsFlock.Add"] = fx =>
        {
            Param<ArgumentNullException>(fx, "Add(null, ..)", "positions", () => fx.F.Add(null, new Vec3[1]));
            Param<ArgumentNullException>(fx, "Add(.., null)", "velocities", () => fx.F.Add(new Vec3[1], null));
            Param<ArgumentException>(fx, "Add lengths", "velocities", () => fx.F.Add(new Vec3[2], new Vec3[1]));
            Code(fx, "Add NaN", BoidsResult.InvalidArgument, () => fx.F.Add(new[] { V(float.NaN, 0, 0) }, new Vec3[1]));
            Code(fx, "Add beyond the limit", BoidsResult.InvalidArgument, () => fx.F.Add(new[] { V(0, 0, 2e9f) }, new Vec3[1]));
            Gone(fx, "Add", f => f.Add(new Vec3[1], new Vec3[1]));
        };
        r["BoidsFlock.Remove"] = fx =>
        {
            Param<ArgumentNullException>(fx, "Remove(null)", "ids", () => fx.F.Remove(null));
            Code(fx, "Remove unknown id", BoidsResult.InvalidArgument, () => fx.F.Remove(new uint[] { 0, 999 }));
            Gone(fx, "Remove", f => f.Remove(new uint[0]));
        };
        Action<string, Func<BoidsFlock, object, int>, Func<int, object>, Func<BoidsFlock, IntPtr, int, int>> read = (name, arr, make, raw) =>
        {
            r["BoidsFlock." + name] = fx =>
            {
                Param<ArgumentNullException>(fx, name + "(null)", "buffer", () => arr(fx.F, null));
                Code(fx, name + " too small", BoidsResult.BufferTooSmall, () => arr(fx.F, make(15)));
                Code(fx, name + " empty", BoidsResult.BufferTooSmall, () => arr(fx.F, make(0)));
                if (raw != null)
                {
                    Param<ArgumentOutOfRangeException>(fx, name + " negative capacity", "capacity", () => raw(fx.F, new IntPtr(64), -1));
                    Param<ArgumentOutOfRangeException>(fx, name + " int.MinValue capacity", "capacity", () => raw(fx.F, new IntPtr(64), int.MinValue));
                    Param<ArgumentNullException>(fx, name + " null pointer", "buffer", () => raw(fx.F, IntPtr.Zero, 4));
                    IntPtr mem = Marshal.AllocHGlobal(15 * 64);
                    try { Code(fx, name + " raw too small", BoidsResult.BufferTooSmall, () => raw(fx.F, mem, 15)); }
                    finally { Marshal.FreeHGlobal(mem); }
                }
                Gone(fx, name, f => arr(f, make(64)));
            };
        };
        read("ReadPositions", (f, b) => f.ReadPositions((Vec3[])b), n => new Vec3[n], (f, p, c) => f.ReadPositions(p, c));
        read("ReadVelocities", (f, b) => f.ReadVelocities((Vec3[])b), n => new Vec3[n], (f, p, c) => f.ReadVelocities(p, c));
        read("ReadIds", (f, b) => f.ReadIds((uint[])b), n => new uint[n], null);
        read("ReadOrientations", (f, b) => f.ReadOrientations((Quat[])b), n => new Quat[n], (f, p, c) => f.ReadOrientations(p, c));
        read("ReadMatrices", (f, b) => f.ReadMatrices((Mat4[])b), n => new Mat4[n], (f, p, c) => f.ReadMatrices(p, c));
        var readMatrices = r["BoidsFlock.ReadMatrices"];
        r["BoidsFlock.ReadMatrices"] = fx =>
        {
            readMatrices(fx);
            Code(fx, "ReadMatrices NaN scale", BoidsResult.InvalidArgument, () => fx.F.ReadMatrices(new Mat4[16], float.NaN));
            // The transformed read: a bad element anywhere in the transform is refused, naming it.
            var identity = new Mat4 { M00 = 1, M11 = 1, M22 = 1, M33 = 1 };
            Code(fx, "ReadMatrices(transform) NaN scale", BoidsResult.InvalidArgument, () => fx.F.ReadMatrices(new Mat4[64], identity, float.NaN));
            foreach (float bad in new[] { float.NaN, float.PositiveInfinity, -2e9f })
            {
                var t = identity;
                t.M31 = bad;
                var e = Code(fx, "ReadMatrices(transform " + bad + ")", BoidsResult.InvalidArgument, () => fx.F.ReadMatrices(new Mat4[64], t));
                Assert(e.Message.Contains("transform[7]"), "the element is named: " + e.Message);
            }
            Param<ArgumentNullException>(fx, "ReadMatrices(null, transform)", "buffer", () => fx.F.ReadMatrices(null, identity));
            Code(fx, "ReadMatrices(transform) too small", BoidsResult.BufferTooSmall, () => fx.F.ReadMatrices(new Mat4[3], identity));
            Param<ArgumentOutOfRangeException>(fx, "ReadMatrices(IntPtr, -1, transform)", "capacity", () => fx.F.ReadMatrices(IntPtr.Zero, -1, identity));
        };
        foreach (var name in new[] { "WritePositions", "WriteVelocities" })
        {
            string n = name;
            r["BoidsFlock." + n] = fx =>
            {
                var m = typeof(BoidsFlock).GetMethod(n);
                Action<BoidsFlock, Vec3[]> call = (f, v) => Invoke(m, f, v);
                Param<ArgumentNullException>(fx, n + "(null)", n == "WritePositions" ? "positions" : "velocities", () => call(fx.F, null));
                Code(fx, n + " wrong count", BoidsResult.InvalidArgument, () => call(fx.F, new Vec3[15]));
                var nan = new Vec3[16];
                nan[9] = V(0, float.NaN, 0);
                Code(fx, n + " NaN", BoidsResult.InvalidArgument, () => call(fx.F, nan));
                var far = new Vec3[16];
                far[3] = V(0, -3e9f, 0);
                Code(fx, n + " beyond the limit", BoidsResult.InvalidArgument, () => call(fx.F, far));
                Gone(fx, n, f => call(f, new Vec3[16]));
            };
        }
        r["BoidsFlock.SetPath"] = fx =>
        {
            Param<ArgumentNullException>(fx, "SetPath(null)", "points", () => fx.F.SetPath(null, false));
            Code(fx, "SetPath NaN", BoidsResult.InvalidArgument, () => fx.F.SetPath(new[] { V(0, 0, 0), V(float.NaN, 0, 0) }, false));
            Gone(fx, "SetPath", f => f.SetPath(new Vec3[0], false));
        };
        r["BoidsFlock.SetLeader"] = fx =>
        {
            Code(fx, "SetLeader unknown boid", BoidsResult.InvalidArgument, () => fx.F.SetLeader(999, V(0, 0, 0)));
            Code(fx, "SetLeader huge offset", BoidsResult.InvalidArgument, () => fx.F.SetLeader(0, V(float.MaxValue, 0, 0)));
            Gone(fx, "SetLeader", f => f.SetLeader(0, V(0, 0, 0)));
        };
        r["BoidsFlock.ClearLeader"] = fx => Gone(fx, "ClearLeader", f => f.ClearLeader());
        r["BoidsFlock.Destroy"] = fx => Gone(fx, "Destroy", f => f.Destroy());
        r["BoidsFlock.Bounds"] = fx =>
        {
            Assert(fx.F.Bounds.Kind == fx.F.Settings.Bounds.Kind, "Bounds is the settings' bounds");
            Gone(fx, "Bounds", f => { var b = f.Bounds; });
        };
        // BoidsObstacle
        r["BoidsObstacle.World"] = fx => Assert(fx.O.World == fx.W, "World");
        r["BoidsObstacle.Set"] = fx =>
        {
            Code(fx, "Set radius -1", BoidsResult.InvalidArgument, () => fx.O.Set(ObstacleShape.Sphere(V(0, 0, 0), -1f)));
            Code(fx, "Set on a removed obstacle", BoidsResult.InvalidId, () => fx.Gone.Set(ObstacleShape.Sphere(V(0, 0, 0), 1f)));
            No<ObjectDisposedException>(fx, "Set disposed", () => fx.OrphanObstacle.Set(ObstacleShape.Sphere(V(0, 0, 0), 1f)));
        };
        r["BoidsObstacle.Remove"] = fx =>
        {
            Code(fx, "Remove twice", BoidsResult.InvalidId, () => fx.Gone.Remove());
            No<ObjectDisposedException>(fx, "Remove disposed", () => fx.OrphanObstacle.Remove());
        };
        return r;
    }

    static void Set(PropertyInfo p, object target, object value)
    {
        try { p.SetValue(target, value, null); }
        catch (TargetInvocationException e) { throw e.InnerException; }
    }

    static object Get(PropertyInfo p, object target)
    {
        try { return p.GetValue(target, null); }
        catch (TargetInvocationException e) { throw e.InnerException; }
    }

    static void Invoke(MethodInfo m, object target, params object[] args)
    {
        try { m.Invoke(target, args); }
        catch (TargetInvocationException e) { throw e.InnerException; }
    }

    /// Every bad value of every FlockSettings / SpawnSettings property, by its type: refused when
    /// the settings are applied (or at once, for a negative count), nothing changed.
    static void SettingsRows(Fx fx)
    {
        foreach (var p in typeof(FlockSettings).GetProperties())
        {
            if (!p.CanWrite) continue;
            var s = fx.F.Settings;
            Type t = p.PropertyType;
            if (t == typeof(float))
            {
                foreach (float bad in new[] { float.NaN, float.NegativeInfinity })
                {
                    var x = fx.F.Settings;
                    Set(p, x, bad);
                    Code(fx, "FlockSettings." + p.Name + " = " + bad, BoidsResult.InvalidArgument, () => fx.F.Settings = x);
                }
            }
            else if (t == typeof(int))
            {
                Param<ArgumentOutOfRangeException>(fx, "FlockSettings." + p.Name + " = -1", "value", () => Set(p, s, -1));
            }
            else if (t.IsEnum)
            {
                Set(p, s, Enum.ToObject(t, 77));
                Code(fx, "FlockSettings." + p.Name + " = 77", BoidsResult.InvalidArgument, () => fx.F.Settings = s);
            }
            else if (t == typeof(Vec3?))
            {
                Set(p, s, (Vec3?)V(float.NaN, 1, 1));
                Code(fx, "FlockSettings." + p.Name + " = NaN", BoidsResult.InvalidArgument, () => fx.F.Settings = s);
            }
            else if (t == typeof(FlockBounds))
            {
                Set(p, s, FlockBounds.Clamp(V(0, 0, 0), V(0, 0, 0)));
                Code(fx, "FlockSettings.Bounds empty box", BoidsResult.InvalidArgument, () => fx.F.Settings = s);
            }
            else if (t == typeof(TargetRelocation?))
            {
                Set(p, s, (TargetRelocation?)new TargetRelocation(2f, V(0, 0, 0), V(1, 1, 1)));
                Code(fx, "FlockSettings.TargetRelocation probability 2", BoidsResult.InvalidArgument, () => fx.F.Settings = s);
            }
            else
            {
                Assert(t == typeof(bool), "FlockSettings." + p.Name + " (" + t.Name + ") has no hostile case");
            }
        }
        foreach (var p in typeof(SpawnSettings).GetProperties())
        {
            if (!p.CanWrite) continue;
            var s = new SpawnSettings();
            Type t = p.PropertyType;
            if (t == typeof(float)) Set(p, s, float.NaN);
            else if (t == typeof(Vec3)) Set(p, s, V(float.PositiveInfinity, 0, 0));
            else if (t == typeof(Vec3?)) Set(p, s, (Vec3?)V(0, 0, 0));
            else if (t.IsEnum) Set(p, s, Enum.ToObject(t, 77));
            else throw new Exception("SpawnSettings." + p.Name + " (" + t.Name + ") has no hostile case");
            if (p.Name == "Min" || p.Name == "Max") s.Shape = SpawnKind.Box;
            if (p.Name == "Centre" || p.Name == "Radius") s.Shape = SpawnKind.Sphere;
            Code(fx, "SpawnSettings." + p.Name + " bad", BoidsResult.InvalidArgument, () => fx.F.Spawn(2, s));
        }
    }

    static void HostileMatrix()
    {
        var rows = Rows();
        // Every public member of the three handle classes has a row (overloads share one).
        foreach (var t in new[] { typeof(BoidsWorld), typeof(BoidsFlock), typeof(BoidsObstacle), typeof(BoidsMesh) })
        {
            foreach (var m in t.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
            {
                string name = m.Name;
                if (name.StartsWith("get_") || name.StartsWith("set_")) name = name.Substring(4);
                Assert(rows.ContainsKey(t.Name + "." + name), t.Name + "." + name + " has no row in the C# hostile matrix");
            }
        }
        int cases = 0;
        foreach (var row in rows)
        {
            using (var fx = new Fx())
            {
                try { row.Value(fx); }
                catch (Exception e) { throw new Exception(row.Key + ": " + e.Message, e); }
                // Still usable afterwards.
                fx.W.Step(1f / 60);
                cases++;
            }
        }
        using (var fx = new Fx()) SettingsRows(fx);
        Console.WriteLine("     hostile matrix: " + cases + " rows, plus FlockSettings and SpawnSettings by property");
    }

    /// A random accepted FlockSettings: every field in its valid range, extremes often.
    static FlockSettings RandomSettings(Random rng)
    {
        Func<float> mag = () =>
        {
            switch (rng.Next(6))
            {
                case 0: return 0f;
                case 1: return 1e9f;
                case 2: return (float)rng.NextDouble() * 1e9f;
                default: return (float)rng.NextDouble() * 20f;
            }
        };
        Func<float> signed = () => (rng.Next(2) == 0 ? -1f : 1f) * mag();
        Func<float> unit = () => (float)rng.NextDouble();
        Func<Vec3> point = () => V(signed(), signed(), signed());
        var s = new FlockSettings();
        s.PerceptionRadius = mag();
        s.FovHalfAngleDegrees = unit() * 360f;
        s.SeparationRadius = mag();
        s.MaxNeighbours = rng.Next(3) == 0 ? rng.Next(1025) : 0;
        s.SeparationWeight = signed(); s.AlignmentWeight = signed(); s.CohesionWeight = signed();
        s.TargetWeight = signed(); s.TargetAvoidWeight = signed(); s.BoundsWeight = signed();
        s.ObstacleWeight = signed(); s.WanderWeight = signed(); s.PathWeight = signed();
        s.Separation = (SeparationMode)rng.Next(4);
        s.Integrator = (Integrator)rng.Next(4);
        s.Alignment = s.Integrator == Integrator.HeadingSpeed ? (AlignmentMode)rng.Next(4) : (AlignmentMode)rng.Next(3);
        s.Combine = (Combine)rng.Next(3);
        float a = mag(), b = mag();
        s.MinSpeed = Math.Min(a, b);
        s.MaxSpeed = Math.Max(a, b);
        s.MaxForce = mag(); s.MaxTurnRate = mag(); s.VelocitySmoothing = unit(); s.DriveFactor = mag();
        Vec3 lo = V(-10 - mag(), -10 - mag(), -10 - mag()), hi = V(10 + mag(), 10 + mag(), 10 + mag());
        var bounds = new[] { FlockBounds.None(), FlockBounds.SoftBox(lo, hi, mag()), FlockBounds.SoftSphere(point(), 1f + mag(), unit()), FlockBounds.Wrap(lo, hi), FlockBounds.Clamp(lo, hi), FlockBounds.TurnBack(lo, hi) };
        var chosen = bounds[rng.Next(bounds.Length)];
        // Fields the kind does not use keep whatever the caller wrote.
        if (chosen.Kind != BoundsKind.SoftSphere) chosen.Radius = signed();
        s.Bounds = chosen;
        s.Plane = (PlaneLock)rng.Next(3);
        s.Target = rng.Next(2) == 0 ? (Vec3?)point() : null;
        s.TargetAvoidDistance = mag();
        s.TargetRelocation = rng.Next(3) == 0 ? (TargetRelocation?)new TargetRelocation(unit(), lo, hi) : null;
        s.Index = (IndexKind)rng.Next(4);
        s.ObstacleAvoidance = (ObstacleAvoidance)rng.Next(3);
        s.LookAhead = mag(); s.BoidRadius = mag();
        s.ObstacleOverrides = rng.Next(2) == 0;
        s.RuleProbability = unit(); s.SpeedChangeProbability = unit();
        s.TargetNeedsNeighbours = rng.Next(2) == 0;
        s.CohesionSmoothTime = mag();
        s.FallbackToNearest = rng.Next(2) == 0;
        s.WanderRadius = mag(); s.WanderDistance = mag(); s.WanderJitter = mag();
        s.ArrivalRadius = mag(); s.PathLookahead = mag();
        s.UpdateEvery = 1 + rng.Next(4);
        s.SleepDistance = mag();
        return s;
    }

    static void RoundTrips()
    {
        var rng = new Random(20261130);
        for (int c = 0; c < 256; c++)
        {
            using (var w = new BoidsWorld((ulong)c, 1))
            {
                var s = RandomSettings(rng);
                BoidsFlock f;
                try { f = w.CreateFlock("f", s); }
                catch (BoidsException e) { throw new Exception("case " + c + ": random accepted settings refused: " + e.Message); }
                Assert(f.Settings.Equals(s), "case " + c + ": settings read back differ");
                f.Spawn(1 + rng.Next(40), SpawnSettings.Box(V(-8, -8, -8), V(8, 8, 8)));
                f.SetLeader(0, V((float)rng.NextDouble(), 0, -2));
                for (int k = rng.Next(20); k > 0; k--) w.Step(1f / 60);
                var now = f.Settings;
                f.Settings = now;
                Assert(f.Settings.Equals(now), "case " + c + ": settings read back after a step are not accepted unchanged");
                ulong before = w.StateHash;
                var p = new Vec3[f.Count];
                var v = new Vec3[f.Count];
                f.ReadPositions(p);
                f.ReadVelocities(v);
                f.WritePositions(p);
                f.WriteVelocities(v);
                Assert(w.StateHash == before, "case " + c + ": writing back what was read changed the state");
            }
        }
    }
}
