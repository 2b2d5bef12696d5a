// The Unity component in a game's frame, through the UnityEngine stand-in (the rest of the
// Unity tests, and their list, are in UnityTests.cs): scene colliders as obstacles, script
// order and gameplay jobs beside the step, a shared pool across a frame, no wedged step, a
// material without instancing, fixed steps, and the preset table.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using BoidsFlocking;
using BoidsFlocking.Native;
using BoidsFlocking.UnityIntegration;
using UnityEngine;

static unsafe partial class BoidsTests
{
    static void UnityColliders()
    {
        const int Rocks = 8;
        var one = new UnityEngine.Vector3(1f, 1f, 1f);
        var id = UnityEngine.Quaternion.identity;
        var turned = UnityEngine.Quaternion.Euler(0f, 90f, 0f);
        var box = Put<BoxCollider>("crate", Rocks, new UnityEngine.Vector3(10f, 0f, 0f), turned, new UnityEngine.Vector3(2f, 1f, 1f));
        box.size = new UnityEngine.Vector3(1f, 2f, 3f);
        box.center = new UnityEngine.Vector3(0f, 1f, 0f);
        var ball = Put<SphereCollider>("ball", Rocks, new UnityEngine.Vector3(0f, 5f, 0f), id, new UnityEngine.Vector3(1f, 3f, 2f));
        ball.radius = 0.5f;
        var pillar = Put<CapsuleCollider>("pillar", Rocks, new UnityEngine.Vector3(-5f, 0f, 0f), id, new UnityEngine.Vector3(2f, 1f, 1f));
        pillar.radius = 0.5f;
        pillar.height = 4f;
        pillar.direction = 1;
        var rockMesh = new UnityEngine.Mesh();
        rockMesh.vertices = new[] { new UnityEngine.Vector3(0f, 0f, 0f), new UnityEngine.Vector3(1f, 0f, 0f), new UnityEngine.Vector3(0f, 1f, 0f), new UnityEngine.Vector3(0f, 0f, 1f) };
        rockMesh.triangles = new[] { 0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3 };
        var rockA = Put<MeshCollider>("rock a", Rocks, new UnityEngine.Vector3(0f, 0f, 8f), turned, new UnityEngine.Vector3(2f, 2f, 2f));
        rockA.sharedMesh = rockMesh;
        var rockB = Put<MeshCollider>("rock b", Rocks, new UnityEngine.Vector3(0f, 0f, -8f), id, new UnityEngine.Vector3(1f, 3f, 1f));
        rockB.sharedMesh = rockMesh; // the same Mesh: one upload
        var mirrored = Put<MeshCollider>("mirrored", Rocks, new UnityEngine.Vector3(0f, 0f, -20f), id, new UnityEngine.Vector3(-1f, 1f, 1f));
        mirrored.sharedMesh = rockMesh;
        var data = new TerrainData { heightmapResolution = 5, size = new UnityEngine.Vector3(40f, 10f, 40f) };
        data.StandInHeights = new float[5, 5];
        data.StandInHeights[2, 3] = 0.5f; // z 2, x 3: 5 units up
        var ground = Put<TerrainCollider>("ground", Rocks, new UnityEngine.Vector3(-20f, -10f, -20f), id, one);
        ground.terrainData = data;
        var boat = Put<BoxCollider>("boat", Rocks, new UnityEngine.Vector3(0f, 8f, 0f), id, one);
        boat.gameObject.AddComponent<Rigidbody>();
        // Not obstacles: another layer, a trigger.
        Put<SphereCollider>("elsewhere", 3, UnityEngine.Vector3.zero, id, one);
        Put<SphereCollider>("trigger", Rocks, UnityEngine.Vector3.zero, id, one).isTrigger = true;

        // The controller away from the origin: its world is its local space.
        var at = new UnityEngine.Vector3(3f, 0f, 0f);
        var c = Controller("reef", FlockPreset.Custom, at, id, one, x => { x.Count = 50; x.ObstacleLayers = 1 << Rocks; });
        var so = c.SceneObstacles;
        Assert(so != null, "obstacle layers set: scene obstacles made");
        Assert(so.StaticCount == 6 && so.MovingCount == 1, "static " + so.StaticCount + ", moving " + so.MovingCount);
        Assert(so.UploadCount == 2, "one mesh upload for two placements, one terrain: " + so.UploadCount);
        Assert(Debug.StandInLog.Any(l => l.Contains("mirrored")), "the mirrored mesh is skipped with a warning");
        Assert(so.Find(rockA) != null && so.Find(mirrored) == null, "Find");
        ObstacleShape sh;
        // The box: centre through its transform, half extents times |scale|, its rotation.
        Assert(so.TryGetShape(box, out sh) && sh.Kind == ObstacleKind.OrientedBox, "box kind");
        Assert(Near(sh.A, box.transform.TransformPoint(box.center) - at), "box centre " + sh.A);
        Assert(Near(sh.B, new UnityEngine.Vector3(1f, 1f, 1.5f)), "box half extents " + sh.B);
        Assert(Math.Abs(sh.Rotation.Y - turned.y) < 1e-5f && Math.Abs(sh.Rotation.W - turned.w) < 1e-5f, "box rotation");
        // The sphere: radius times the largest |scale| (Unity's rule).
        Assert(so.TryGetShape(ball, out sh) && sh.Kind == ObstacleKind.Sphere && Math.Abs(sh.Radius - 1.5f) < 1e-5f, "sphere radius " + sh.Radius);
        Assert(Near(sh.A, new UnityEngine.Vector3(-3f, 5f, 0f)), "sphere centre " + sh.A);
        // The capsule: radius times the larger other scale (2), height 4: the ends 2 - 1 = 1 from the centre.
        Assert(so.TryGetShape(pillar, out sh) && sh.Kind == ObstacleKind.Capsule && Math.Abs(sh.Radius - 1f) < 1e-5f, "capsule radius " + sh.Radius);
        Assert(Near(sh.A, new UnityEngine.Vector3(-8f, -1f, 0f)) && Near(sh.B, new UnityEngine.Vector3(-8f, 1f, 0f)), "capsule ends " + sh.A + " " + sh.B);
        // The meshes: position, rotation and scale of each placement.
        Assert(so.TryGetShape(rockA, out sh) && sh.Kind == ObstacleKind.Mesh && Near(sh.A, new UnityEngine.Vector3(-3f, 0f, 8f)) && Near(sh.Scale, new UnityEngine.Vector3(2f, 2f, 2f)), "mesh a");
        Assert(so.TryGetShape(rockB, out sh) && Near(sh.Scale, new UnityEngine.Vector3(1f, 3f, 1f)), "mesh b's scale");
        // The terrain: a heightfield at the terrain's position; its bump is where the terrain puts it.
        Assert(so.TryGetShape(ground, out sh) && sh.Kind == ObstacleKind.Heightfield && Near(sh.A, new UnityEngine.Vector3(-23f, -10f, -20f)), "terrain " + sh.A);

        // The engine sees them: boids never end a frame below the terrain, none inside the box.
        for (int f = 0; f < 120; f++) Frame(c);
        var pos = new Vec3[c.Flock.Count];
        c.Flock.ReadPositions(pos);
        foreach (var p in pos) Assert(p.Y >= -10f - 1e-3f, "a boid below the terrain: " + p.Y);

        // A moving collider: the obstacle follows, and following allocates nothing. Moved by a
        // script as late as its LateUpdate (after the controller's), the step begun at the end of
        // that frame already sees it there.
        var mover = new GameObject("mover").AddComponent<Scripted>();
        mover.OnLateUpdate = () => boat.transform.position = new UnityEngine.Vector3(0f, 9f, 1f);
        Frame(1f / 60f, c, mover);
        Assert(c.IsStepping, "a step runs");
        Assert(so.TryGetShape(boat, out sh) && Near(sh.A, new UnityEngine.Vector3(-3f, 9f, 1f)), "the boat moved: " + sh.A);
        UnityEngine.Object.Destroy(mover.gameObject);
        c.FinishStep();
        so.Sync();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 200; i++)
        {
            boat.transform.position = new UnityEngine.Vector3(i * 0.01f, 9f, 1f);
            so.Sync();
        }
        Assert(GC.GetAllocatedBytesForCurrentThread() == before, "Sync allocated " + (GC.GetAllocatedBytesForCurrentThread() - before) + " bytes");
        // Scaled to zero (a tween shrinking it away), it leaves the world, and frame after frame
        // of that allocates nothing (no engine refusal, no exception); scaled back, it returns.
        boat.transform.localScale = new UnityEngine.Vector3(0f, 0f, 0f);
        so.Sync();
        Assert(so.Find(boat) == null && so.MovingCount == 1, "the zero-scaled boat is out of the world, still followed");
        before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 200; i++)
        {
            boat.transform.position = new UnityEngine.Vector3(i * 0.01f, 9f, 1f);
            so.Sync();
        }
        Assert(GC.GetAllocatedBytesForCurrentThread() == before, "a zero-scaled collider's Sync allocated " + (GC.GetAllocatedBytesForCurrentThread() - before) + " bytes");
        boat.transform.localScale = one;
        so.Sync();
        Assert(so.Find(boat) != null && so.TryGetShape(boat, out sh) && Near(sh.B, new UnityEngine.Vector3(0.5f, 0.5f, 0.5f)), "scaled back, the boat is an obstacle again");
        // A destroyed collider's obstacle goes with it.
        UnityEngine.Object.Destroy(boat.gameObject);
        so.Sync();
        Assert(so.MovingCount == 0, "the destroyed boat's obstacle removed");
        var world = c.World;
        c.gameObject.SetActive(false);
        Assert(world.IsDisposed && c.SceneObstacles == null, "disabling frees the world and its obstacles");
        foreach (var go in new[] { box.gameObject, ball.gameObject, pillar.gameObject, rockA.gameObject, rockB.gameObject, mirrored.gameObject, ground.gameObject })
            UnityEngine.Object.Destroy(go);
    }

    /// A script that runs what it is given in its LateUpdate.
    sealed class Scripted : MonoBehaviour
    {
        public Action OnLateUpdate;
        void LateUpdate() { if (OnLateUpdate != null) OnLateUpdate(); }
    }

    /// A gameplay script: changes the world from its Update and LateUpdate.
    sealed class Gameplay : MonoBehaviour
    {
        public BoidsFlockController Target;
        public int Changes;
        public readonly List<string> Failures = new List<string>();

        void Change(string when)
        {
            if (Target == null || Target.World == null) return;
            try
            {
                Target.Flock.MaxSpeed = 4f + (Changes % 3) * 0.25f;
                Target.World.SetObserver(V(Changes, 0, 0));
                Target.Flock.SetBounds(FlockBounds.SoftBox(V(-10, -10, -10), V(10, 10, 10)));
                Changes++;
            }
            catch (Exception e) { Failures.Add(when + ": " + e.Message); }
        }

        void Update() { Change("Update"); }
        void LateUpdate() { Change("LateUpdate"); }
    }

    static void UnityScriptOrder()
    {
        foreach (bool before in new[] { true, false })
        {
            var c = Controller("played", FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
                new UnityEngine.Vector3(1f, 1f, 1f), x => x.Count = 2500);
            Assert(c.OverlapStep, "overlapping (the default)");
            var g = new GameObject("gameplay").AddComponent<Gameplay>();
            g.Target = c;
            for (int frame = 0; frame < 30; frame++)
            {
                Frame(1f / 60f, before ? new MonoBehaviour[] { g, c } : new MonoBehaviour[] { c, g });
                Assert(c.IsStepping, "the step overlaps rendering");
            }
            Assert(g.Failures.Count == 0, "script " + (before ? "before" : "after") + " the controller: " + string.Join("; ", g.Failures));
            Assert(g.Changes == 60 && c.StepsTaken == 30, "every change landed, every step ran");
            c.FinishStep();
            Assert(c.Flock.MaxSpeed == 4f + (59 % 3) * 0.25f, "the last change is the world's");
            c.gameObject.SetActive(false);
            UnityEngine.Object.Destroy(g.gameObject);
        }
    }

    /// Records, in its LateUpdate, whether any of the controllers' worlds is stepping.
    sealed class Probe : MonoBehaviour
    {
        public BoidsFlockController[] Watched;
        public int Stepping, Seen;

        void LateUpdate()
        {
            foreach (var c in Watched)
            {
                Seen++;
                if (c.World.IsStepping) Stepping++;
            }
        }
    }

    static void UnitySharedPoolFrame()
    {
        var a = Controller("a", FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 10000; x.Threads = 2; });
        var b = Controller("b", FlockPreset.Custom, new UnityEngine.Vector3(30f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 10000; x.Threads = 2; });
        var probe = new GameObject("probe").AddComponent<Probe>();
        probe.Watched = new[] { a, b };
        for (int frame = 0; frame < 20; frame++)
        {
            // The probe's LateUpdate between the two controllers' reads.
            Frame(1f / 60f, a, probe, b);
            Assert(a.IsStepping && b.IsStepping, "both step while Unity renders");
            Assert(a.Drawn == 10000 && b.Drawn == 10000, "both drawn");
        }
        Assert(probe.Seen == 40 && probe.Stepping == 0, probe.Stepping + " of " + probe.Seen + " reads met a step of the shared pool");
        a.gameObject.SetActive(false);
        b.gameObject.SetActive(false);
        UnityEngine.Object.Destroy(probe.gameObject);
    }

    static void UnityNoWedge()
    {
        var c = Controller("read elsewhere", FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => x.Count = 4000);
        var world = c.World;
        var flock = c.Flock;
        bool stop = false;
        int reads = 0;
        var reader = new System.Threading.Thread(() =>
        {
            var buf = new Vec3[4000];
            while (!System.Threading.Volatile.Read(ref stop))
            {
                flock.ReadPositions(buf); // allowed during a step; never fails the step's end
                reads++;
            }
        });
        reader.Start();
        for (int frame = 0; frame < 200; frame++)
        {
            Frame(c);
            Assert(c.Drawn == 4000, "frame " + frame + ": drawn");
        }
        System.Threading.Volatile.Write(ref stop, true);
        reader.Join();
        Assert(c.StepsTaken == 200 && reads > 0, "200 steps with a reader (" + reads + " reads)");
        Assert(!Debug.StandInLog.Any(l => l.Contains("the step failed")), "no failed step");
        c.gameObject.SetActive(false);
    }

    static void UnityNonInstancedMaterial()
    {
        Debug.StandInLog.Clear();
        var plain = new UnityEngine.Material(Shader.Find("Standard"));
        plain.name = "no instancing";
        var c = Controller("plain material", FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 500; x.Material = plain; });
        for (int frame = 0; frame < 5; frame++)
        {
            Frame(c);
            Assert(c.Drawn == 500, "drawn anyway");
            Assert(Graphics.Draws.All(d => d.Params.material != plain && d.Params.material.enableInstancing), "with an instanced copy");
        }
        Assert(Debug.StandInLog.Count(l => l.StartsWith("LogWarning") && l.Contains("no instancing")) == 1, "warned once: " + string.Join(" | ", Debug.StandInLog));
        // The warning says why a build may draw nothing: the instancing variant stripped.
        Assert(Debug.StandInLog.Any(l => l.Contains("no instancing") && l.Contains("Instancing Variants") && l.Contains("Strip Unused")),
            "the warning names Instancing Variants = Strip Unused");
        var copy = Graphics.Draws[0].Params.material;
        Assert(!plain.enableInstancing, "the user's material is left as it was");
        c.gameObject.SetActive(false);
        Assert(UnityEngine.Object.StandInDestroyed.Contains(copy), "the copy is destroyed with the component");
    }

    static void UnityReadsAndSubmeshes()
    {
        foreach (bool interpolate in new[] { false, true })
        {
            var c = Controller("reads " + interpolate, FlockPreset.Custom, new UnityEngine.Vector3(2f, 0f, 0f), UnityEngine.Quaternion.identity,
                new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 1500; x.Interpolate = interpolate; });
            c.Mesh.subMeshCount = 2;
            for (int f = 0; f < 5; f++) Frame(c);
            long reads = c.MatrixReads, steps = c.StepsTaken;
            // 60 frames a second, steps of 1/60 s: one new state a frame (now and then none or
            // two, as the frame times add up), each read from the engine once: for the draw
            // (placed by the transform) without interpolation, into the newest state with it
            // (the draw blends from there). A frame of two steps reads the state between them
            // too when interpolating.
            for (int f = 0; f < 60; f++) Frame(c);
            long r = c.MatrixReads - reads, s = c.StepsTaken - steps;
            Assert(s >= 55 && s <= 65, "steps " + s);
            Assert(r <= s && r >= s - 3, (interpolate ? "interpolated" : "unblended") + ": " + r + " matrix reads for " + s + " new states");
            // A mesh of two submeshes: both drawn, with every boid each.
            int n = c.Flock.Count;
            var parts = Graphics.Draws.Where(d => d.Mesh == c.Mesh).GroupBy(d => d.Submesh)
                .ToDictionary(g => g.Key, g => g.Sum(d => d.Positions.Length));
            Assert(parts.Count == 2 && parts[0] == n && parts[1] == n,
                "submeshes drawn: " + string.Join(", ", parts.Select(kv => kv.Key + ": " + kv.Value)));
            c.FinishStep();
            c.gameObject.SetActive(false);
        }
    }

    static void UnityDrawAfterLateUpdate()
    {
        var c = Controller("late parent", FlockPreset.Custom, new UnityEngine.Vector3(5f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 1200; x.BoxSize = new UnityEngine.Vector3(200f, 200f, 200f); });
        // A camera rig, say: a script whose LateUpdate runs after the controller's moves it.
        var mover = new GameObject("rig").AddComponent<Scripted>();
        int frame = 0;
        mover.OnLateUpdate = () => c.transform.position = new UnityEngine.Vector3(5f + frame, 2f * frame, 0f);
        for (frame = 0; frame < 20; frame++)
        {
            Frame(1f / 60f, c, mover);
            var draws = Graphics.Draws.Where(d => d.Mesh == c.Mesh).ToArray();
            // Where this frame's transform (set in the later LateUpdate) puts the boids.
            DrawnWhereTheObjectPutsThem(c, c.Flock, draws, "frame " + frame);
            // The box is around the boids drawn (a spawn in the middle of a 200-unit space),
            // grown by the mesh's reach: not the flock's whole space.
            var all = draws.SelectMany(d => d.Positions).ToArray();
            var lo = new UnityEngine.Vector3(all.Min(p => p.x), all.Min(p => p.y), all.Min(p => p.z));
            var hi = new UnityEngine.Vector3(all.Max(p => p.x), all.Max(p => p.y), all.Max(p => p.z));
            float reach = (c.Mesh.bounds.center.magnitude + c.Mesh.bounds.extents.magnitude) * c.Scale;
            foreach (var d in draws)
            {
                UnityEngine.Vector3 size = d.Params.worldBounds.size, spread = hi - lo;
                Assert(size.x <= spread.x + 2f * reach + 1e-3f && size.y <= spread.y + 2f * reach + 1e-3f && size.z <= spread.z + 2f * reach + 1e-3f,
                    "frame " + frame + ": culling box " + size + " for boids spread over " + spread + " (reach " + reach + ")");
            }
            c.FinishStep();
        }
        UnityEngine.Object.Destroy(mover.gameObject);
        c.gameObject.SetActive(false);
    }

    static void UnityMotionVectors()
    {
        var c = Controller("motion", FlockPreset.Custom, new UnityEngine.Vector3(1f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 1500; x.Interpolate = true; });
        Assert(c.MotionVectors, "on by default, as a MeshRenderer's Per Object Motion");
        UnityEngine.Vector3[] last = null;
        for (int frame = 0; frame < 30; frame++)
        {
            // Frame times that are not a step each: some frames blend, some take two steps.
            Frame(frame % 3 == 0 ? 1f / 90f : 1f / 45f, c);
            var draws = Graphics.Draws.Where(d => d.Mesh == c.Mesh && d.Submesh == 0).ToArray();
            foreach (var d in draws)
                Assert(d.Params.motionVectorMode == MotionVectorGenerationMode.Object && d.PrevPositions != null, "per-object motion vectors");
            var now = draws.SelectMany(d => d.Positions).ToArray();
            var prev = draws.SelectMany(d => d.PrevPositions).ToArray();
            Assert(now.Length == 1500 && prev.Length == 1500, "every boid drawn");
            if (last != null)
            {
                int moved = 0;
                for (int i = 0; i < now.Length; i++)
                {
                    Assert(prev[i].Equals(last[i]), "frame " + frame + ", boid " + i + ": previous " + prev[i] + ", drawn last frame at " + last[i]);
                    if (!now[i].Equals(last[i])) moved++;
                }
                // (The first frames draw the spawn: the overlapped steps show a frame later.)
                if (frame >= 3) Assert(moved > 1000, "frame " + frame + ": only " + moved + " boids moved");
            }
            last = now;
            c.FinishStep();
        }
        // Paused (no step, the same transform): the first paused frame shows the step that was
        // in flight; the next has no motion.
        Frame(0f, c);
        Frame(0f, c);
        var still = Graphics.Draws.Where(d => d.Mesh == c.Mesh).ToArray();
        foreach (var d in still)
            for (int i = 0; i < d.Positions.Length; i++)
                Assert(d.PrevPositions[i].Equals(d.Positions[i]), "paused: boid " + i + " has motion");
        // Off: camera motion only, plain matrices.
        c.MotionVectors = false;
        Frame(1f / 60f, c);
        foreach (var d in Graphics.Draws.Where(d => d.Mesh == c.Mesh))
            Assert(d.Params.motionVectorMode == MotionVectorGenerationMode.Camera && d.PrevPositions == null, "off");
        c.FinishStep();
        c.gameObject.SetActive(false);
    }

    static void UnityFixedSteps()
    {
        // The same flock at 60 and at 144 frames a second, fixed steps of 1/60 s. Only one of
        // the two is enabled at a time: the frame loop steps every enabled controller.
        Func<string, BoidsFlockController> make = name => Controller(name, FlockPreset.Custom, UnityEngine.Vector3.zero,
            UnityEngine.Quaternion.identity, new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 3000; x.Seed = 9; x.Interpolate = true; });
        var sixty = make("fixed 60");
        Assert(sixty.FixedStep && sixty.FixedTimeStep == 1f / 60f, "fixed steps of 1/60 s by default");
        int frames = 0;
        while (sixty.StepsTaken < 120) { Frame(1f / 60f, sixty); frames++; }
        sixty.FinishStep();
        Assert(frames == 120 && sixty.StepsTaken == 120, "60 frames a second: one step a frame (" + frames + " frames)");
        ulong at60 = sixty.World.StateHash;
        // A long frame takes at most MaxStepsPerFrame steps, and drops the rest.
        Frame(1f, sixty);
        sixty.FinishStep();
        Assert(sixty.StepsTaken - 120 == sixty.MaxStepsPerFrame, "capped at " + sixty.MaxStepsPerFrame + " steps: " + (sixty.StepsTaken - 120));
        sixty.gameObject.SetActive(false);

        var fast = make("fixed 144");
        const int n = 3000;
        float h = fast.FixedTimeStep;
        // The state after every step, read between frames (ending a step early changes nothing).
        var states = new Dictionary<long, UnityEngine.Vector3[]>();
        Func<UnityEngine.Vector3[]> read = () =>
        {
            var v = new UnityEngine.Vector3[n];
            BoidsUnityExtensions.ReadPositions(fast.Flock, v);
            return v;
        };
        states[0] = read();
        double acc = 0;
        int blended = 0;
        frames = 0;
        while (fast.StepsTaken < 120)
        {
            long k = fast.StepsTaken;
            Frame(1f / 144f, fast);
            frames++;
            // Drawn in this frame's LateUpdate: the newest state k blended with state k - 1 by
            // the time left over after the steps, as a fraction of a step.
            var d = DrawnPositions(fast);
            Assert(d.Length == n, "every boid drawn");
            if (k >= 1)
            {
                double alpha = acc / h;
                UnityEngine.Vector3[] a = states[k - 1], b = states[k];
                for (int i = 0; i < n; i++)
                {
                    UnityEngine.Vector3 want = a[i] + (b[i] - a[i]) * (float)alpha;
                    Assert(UnityEngine.Vector3.Distance(want, d[i]) < 1e-3f,
                        "frame " + frames + ", boid " + i + ": drawn at " + d[i] + ", want " + want + " (blend " + alpha + " between steps " + (k - 1) + " and " + k + ")");
                }
                if (alpha > 0.05 && alpha < 0.95) blended++;
            }
            acc += (double)(1f / 144f);
            long steps = (long)Math.Floor(acc / h);
            acc -= steps * (double)h;
            fast.FinishStep();
            Assert(fast.StepsTaken == k + steps, "frame " + frames + ": " + (fast.StepsTaken - k) + " steps, the accumulator calls for " + steps);
            if (fast.StepsTaken != k) states[fast.StepsTaken] = read();
        }
        Assert(frames >= 287 && frames <= 289, "144 frames a second took " + frames + " frames for 120 steps");
        Assert(blended > 100, "drawn between two states in " + blended + " frames");
        Assert(fast.World.StateHash == at60, "the same state after 2 s of simulated time at 60 and 144 fps");
        // Without interpolation the newest state is drawn as it is.
        fast.Interpolate = false;
        var now = states[fast.StepsTaken];
        Frame(1f / 144f, fast);
        var last = DrawnPositions(fast);
        fast.FinishStep();
        Assert(last.Zip(now, (x, y) => UnityEngine.Vector3.Distance(x, y)).Max() < 1e-4f, "not interpolated: the newest state");
        fast.gameObject.SetActive(false);
    }

    static void UnityPresetTable()
    {
        foreach (FlockPreset p in Enum.GetValues(typeof(FlockPreset)))
        {
            if (p == FlockPreset.Custom) continue;
            string name = p == FlockPreset.Flock2D ? "flock-2d" : string.Concat(p.ToString().Select((ch, i) => i > 0 && char.IsUpper(ch) ? "-" + char.ToLower(ch) : char.ToLower(ch).ToString()));
            PresetTable.Entry e;
            Assert(PresetTable.TryGet(name, out e), "the table has " + name);
            using (var w = new BoidsWorld(1, 1))
            {
                var f = w.CreatePreset(name, "x");
                var s = f.Settings;
                Assert(e.PerceptionRadius == s.PerceptionRadius && e.MaxSpeed == s.MaxSpeed && e.SeparationWeight == s.SeparationWeight, name + ": settings");
                var all = w.Flocks();
                Assert(e.Bounds.Length == all.Length, name + ": every flock's bounds");
                Assert(e.Bounds[0].Kind == s.Bounds.Kind && e.Bounds[0].Min.X == s.Bounds.Min.X && e.Bounds[0].Radius == s.Bounds.Radius, name + ": bounds");
            }
        }
        PresetTable.Entry none;
        Assert(!PresetTable.TryGet("no-such", out none) && !PresetTable.TryGet(null, out none), "unknown names");
    }
}
