// The Unity component and the sample, driven as Unity drives them (OnEnable, Update, OnDisable,
// OnDrawGizmos, Start, OnDestroy) through the UnityEngine stand-in, which records every draw
// call with where each instance is. Each test asserts what is drawn and where: for moved,
// rotated, scaled and paused objects, a preset with two flocks, several controllers, a failed
// set-up, edit-mode gizmos, and the sample's camera, material and clean-up. Unity itself does
// not run here; these check the package's engine calls and the transform math only.
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
    static void UnityTests()
    {
        Test("Unity: a moved, rotated and scaled object carries its flock: drawn where the object puts it, inside its box", UnityMovedRotatedScaled);
        Test("Unity: a paused game (deltaTime 0) steps nothing and still draws", UnityPaused);
        Test("Unity: the shark preset away from the origin: its scene follows the object, both flocks drawn with their own looks", UnityTwoFlocks);
        Test("Unity: the step overlaps the frame by default: one step behind, the same bits, changes after FinishStep", UnityOverlap);
        Test("Unity: several controllers share one worker pool", UnitySharedPool);
        Test("Unity: on Android and iOS the default is two workers (all cores but two elsewhere); a setting overrides it", UnityPhoneWorkers);
        Test("Unity: a set-up that fails frees its world and disables the component", UnityFailedSetup);
        Test("Unity: edit-mode gizmos show the preset's own bounds where the object is", UnityGizmos);
        Test("Unity: the maze preset's flow field drawn as gizmos: arrows on the ground along the engine's way, out of the U's cup, where the object puts them", UnityFlowOverlay);
        Test("Unity: the sample uses the scene's camera, a pipeline's shader, and destroys what it made", UnitySample);
        Test("Unity: gameplay scripts change the world in Update and LateUpdate, ordered before or after the controller, with the step overlapping", UnityScriptOrder);
        Test("Unity: controllers sharing a pool: every step ends before the reads, and begins after them", UnitySharedPoolFrame);
        Test("Unity: a reader on another thread never wedges the controller", UnityNoWedge);
        Test("Unity: a material without GPU instancing: one warning, drawn with an instanced copy", UnityNonInstancedMaterial);
        Test("Unity: fixed steps: 60 and 144 frames a second reach the same state at the same simulated time; interpolated draws lie between the last two states", UnityFixedSteps);
        Test("Unity: the preset table (edit mode, no native library) holds what the engine makes", UnityPresetTable);
        Test("Unity: without interpolation each new state is read once; interpolated, once too; every submesh is drawn", UnityReadsAndSubmeshes);
        Test("Unity: drawn after every LateUpdate: a parent moved in a later script's LateUpdate carries the flock the same frame; culled by a box around the boids", UnityDrawAfterLateUpdate);
        Test("Unity: per-object motion vectors: each boid drawn with last frame's matrix (none when nothing moved, none when off)", UnityMotionVectors);
        Test("Unity: colliders on the obstacle layers become obstacles (box, sphere, capsule, mesh once per shared mesh, terrain), in the object's space; moving ones follow without allocating", UnityColliders);
        UnitySceneTests();
    }

    static UnityEngine.Vector3 U(Vec3 v) { return new UnityEngine.Vector3(v.X, v.Y, v.Z); }

    static BoidsFlockController Controller(string name, FlockPreset preset, UnityEngine.Vector3 at, UnityEngine.Quaternion rot,
        UnityEngine.Vector3 scale, Action<BoidsFlockController> setUp = null)
    {
        var go = new GameObject(name);
        go.transform.position = at;
        go.transform.rotation = rot;
        go.transform.localScale = scale;
        go.SetActive(false);
        var c = go.AddComponent<BoidsFlockController>();
        c.Preset = preset;
        c.Mesh = new UnityEngine.Mesh();
        c.Mesh.vertices = new[] { new UnityEngine.Vector3(0f, 0f, 1f), new UnityEngine.Vector3(0f, 0f, -1f) };
        c.Mesh.RecalculateBounds();
        c.Material = new UnityEngine.Material(Shader.Find("Standard")) { enableInstancing = true };
        // Drawn exactly as the engine holds the state (the tests of interpolation turn it on).
        c.Interpolate = false;
        if (setUp != null) setUp(c);
        go.SetActive(true);
        return c;
    }

    /// One frame as Unity runs it: the player loop's systems (the controllers' step end and
    /// begin) around every script's Update and LateUpdate, in the order given.
    static void Frame(BoidsFlockController c, float dt = 1f / 60f)
    {
        Frame(dt, c);
    }

    static void Frame(float dt, params MonoBehaviour[] scripts)
    {
        Time.StandInDeltaTime = dt;
        Graphics.StandInClear();
        UnityEngine.LowLevel.PlayerLoop.StandInFrame(scripts);
    }

    /// Every instance drawn for `flock` must be where the object's transform puts the boid the
    /// engine holds (its local position), and inside the draw call's world bounds.
    static void DrawnWhereTheObjectPutsThem(BoidsFlockController c, BoidsFlock flock, Graphics.StandInDraw[] draws, string what)
    {
        var local = new UnityEngine.Vector3[flock.Count];
        BoidsUnityExtensions.ReadPositions(flock, local);
        var drawn = draws.SelectMany(d => d.Positions).ToArray();
        Assert(drawn.Length == flock.Count, what + ": " + drawn.Length + " drawn of " + flock.Count);
        for (int i = 0; i < drawn.Length; i++)
        {
            UnityEngine.Vector3 want = c.transform.TransformPoint(local[i]);
            Assert(UnityEngine.Vector3.Distance(want, drawn[i]) < 1e-3f * (1f + want.magnitude),
                what + ": boid " + i + " drawn at " + drawn[i] + ", the object puts it at " + want);
        }
        foreach (var d in draws)
            foreach (var p in d.Positions)
                Assert(d.Params.worldBounds.Contains(p), what + ": " + p + " outside the draw call's worldBounds");
    }

    static void UnityMovedRotatedScaled()
    {
        var size = new UnityEngine.Vector3(20f, 10f, 20f);
        var c = Controller("school", FlockPreset.Custom, new UnityEngine.Vector3(100f, 0f, 50f),
            UnityEngine.Quaternion.Euler(0f, 30f, 0f), new UnityEngine.Vector3(2f, 2f, 2f), x =>
            {
                x.Count = 2500;
                x.BoxSize = size;
                x.Layer = 7;
                x.CastShadows = UnityEngine.Rendering.ShadowCastingMode.Off;
                x.ReceiveShadows = false;
            });
        Assert(c.Flock != null && c.Flock.Count == 2500 && c.Flocks.Length == 1, "one flock of 2500 once enabled");
        int worstOut = 0;
        for (int frame = 0; frame < 300; frame++)
        {
            Time.StandInTime = frame / 60f;
            if (frame == 100)
            {
                // Moved, turned and squashed at once: the whole flock goes along, as a child would.
                c.transform.position = new UnityEngine.Vector3(-40f, 12f, 7f);
                c.transform.rotation = UnityEngine.Quaternion.Euler(20f, 75f, -10f);
                c.transform.localScale = new UnityEngine.Vector3(1f, 0.5f, 3f);
            }
            Frame(c);
            Assert(Graphics.Batches.Sum() == 2500 && Graphics.Batches.Max() <= 1023 && c.Drawn == 2500,
                "frame " + frame + ": drew " + string.Join(",", Graphics.Batches));
            var draws = Graphics.Draws.ToArray();
            foreach (var d in draws)
                Assert(d.Params.layer == 7 && d.Params.shadowCastingMode == UnityEngine.Rendering.ShadowCastingMode.Off &&
                       !d.Params.receiveShadows, "layer and shadow settings reach the draw call");
            if (frame % 50 == 0 || frame == 100 || frame == 101) DrawnWhereTheObjectPutsThem(c, c.Flock, draws, "frame " + frame);
            // In the object's own frame the fish stay in the box (0.5 of slack for soft walls).
            foreach (var p in draws.SelectMany(d => d.Positions))
            {
                UnityEngine.Vector3 l = c.transform.InverseTransformPoint(p);
                if (Math.Abs(l.x) > size.x / 2 + 0.5f || Math.Abs(l.y) > size.y / 2 + 0.5f || Math.Abs(l.z) > size.z / 2 + 0.5f) worstOut++;
            }
        }
        Assert(worstOut == 0, worstOut + " fish outside the object's box in some frame");
        var world = c.World;
        c.gameObject.SetActive(false);
        Assert(c.Flock == null && world.IsDisposed, "disabling frees the native world");
    }

    static UnityEngine.Vector3[] DrawnPositions()
    {
        return Graphics.Draws.SelectMany(d => d.Positions).ToArray();
    }

    static UnityEngine.Vector3[] DrawnPositions(BoidsFlockController c)
    {
        return Graphics.Draws.Where(d => d.Mesh == c.Mesh).SelectMany(d => d.Positions).ToArray();
    }

    static void UnityOverlap()
    {
        Action<BoidsFlockController> custom = x => { x.Count = 3000; x.Seed = 5; };
        var over = Controller("overlapping", FlockPreset.Custom, new UnityEngine.Vector3(3f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), custom);
        var plain = Controller("stepping in Update", FlockPreset.Custom, new UnityEngine.Vector3(3f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => { custom(x); x.OverlapStep = false; });
        Assert(over.OverlapStep && !plain.OverlapStep, "on by default");
        UnityEngine.Vector3[] plainBefore = null;
        for (int frame = 0; frame < 90; frame++)
        {
            // One frame for both, as Unity runs every script.
            Frame(1f / 60f, plain, over);
            UnityEngine.Vector3[] plainNow = DrawnPositions(plain);
            Assert(over.IsStepping && over.World.IsStepping, "a step runs after the frame's LateUpdates");
            UnityEngine.Vector3[] overNow = DrawnPositions(over);
            // Overlapping draws the state one step behind: what the plain controller drew in the
            // previous frame (the first frame draws the spawn).
            if (plainBefore != null)
            {
                Assert(overNow.Length == plainBefore.Length, "as many drawn");
                for (int i = 0; i < overNow.Length; i++)
                    Assert(overNow[i].Equals(plainBefore[i]), "frame " + frame + ", boid " + i + ": drawn " + overNow[i] + ", one step behind is " + plainBefore[i]);
            }
            plainBefore = plainNow;
        }
        // Between frames (while Unity renders) the step runs: a change from there (a rendering
        // callback, an end-of-frame coroutine) is refused until FinishStep.
        Refused(BoidsResult.Busy, () => over.Flock.SetTarget(V(1, 1, 1)));
        over.FinishStep();
        Assert(!over.IsStepping && over.World.StateHash == plain.World.StateHash, "the same bits as stepping in Update");
        over.Flock.MaxSpeed = 4f;
        plain.Flock.MaxSpeed = 4f;
        // Switched off live: the next frame ends nothing (none in flight) and steps in Update.
        Frame(1f / 60f, plain, over);
        over.OverlapStep = false;
        Frame(1f / 60f, plain, over);
        Assert(!over.IsStepping, "no step in flight without overlap");
        Assert(over.World.StateHash == plain.World.StateHash, "switching off loses no step");
        // Disabling with a step in flight waits for it and frees the world.
        over.OverlapStep = true;
        Frame(1f / 60f, plain, over);
        var world = over.World;
        over.gameObject.SetActive(false);
        Assert(world.IsDisposed && !over.IsStepping, "disabled mid-step: world freed");
        plain.gameObject.SetActive(false);
    }

    /// The main thread's cost of the controller per frame (its Update: step or end + begin, the
    /// matrix reads, the draw calls), for n fish, with and without the overlapped step, while the
    /// rest of the frame keeps the main thread busy for workMs. The two controllers take turns
    /// in blocks of 20 frames (the one not timed has no step in flight), so both see the same
    /// machine.
    static int FrameBench(int n, double workMs, int frames, bool interpolate, int fps)
    {
        Graphics.StandInRecord = false;
        var cs = new[] { true, false }.Select(overlap => Controller(overlap ? "overlap" : "in update", FlockPreset.Custom,
            UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity, new UnityEngine.Vector3(1f, 1f, 1f), x =>
            {
                x.Count = n;
                x.OverlapStep = overlap;
                x.Interpolate = interpolate;
            })).ToArray();
        var times = new[] { new List<double>(), new List<double>() };
        var sw = new System.Diagnostics.Stopwatch();
        const int block = 20;
        // Frames of 1/fps s, fixed steps of 1/60 s (two a frame at 30 fps); interpolated, the
        // frames are a little longer (1/59 s at 60 fps, 1/29.5 s at 30) so that nearly every
        // frame blends.
        Time.StandInDeltaTime = interpolate ? 1f / (fps - fps / 60f) : 1f / fps;
        for (int round = 0; round * block < frames; round++)
        {
            for (int k = 0; k < 2; k++)
            {
                // Only the one timed is enabled: the frame loop runs every enabled controller.
                cs[1 - k].gameObject.SetActive(false);
                cs[k].gameObject.SetActive(true);
                for (int frame = 0; frame < block + 2; frame++)
                {
                    Graphics.StandInClear();
                    sw.Restart();
                    // Everything the controller does on the main thread in a frame: the loop's
                    // end of the step, Update, LateUpdate (read and draw), the loop's begin.
                    UnityEngine.LowLevel.PlayerLoop.StandInFrame(new MonoBehaviour[] { cs[k] });
                    double ms = sw.Elapsed.TotalMilliseconds;
                    if (frame >= 2) times[k].Add(ms);
                    // The rest of the frame: other scripts, culling, rendering (busy, on this
                    // thread).
                    sw.Restart();
                    while (sw.Elapsed.TotalMilliseconds < workMs) { }
                }
                cs[k].FinishStep();
            }
        }
        int workers = BoidsFlockController.WorkerThreads(-1, SystemInfo.processorCount);
        double on = Median(times[0]), off = Median(times[1]);
        Console.WriteLine("Unity controller, " + n + " fish (Custom), " + workers + " worker thread(s), " + frames +
                          " frames each at " + fps + " fps (1/60 s steps), " + workMs.ToString("F1") +
                          " ms of other main-thread work per frame, " +
                          (interpolate ? "interpolated, " : "") + "Mono:");
        Console.WriteLine("  main thread per frame, step in Update (OverlapStep off)  " + off.ToString("F3") + " ms (median)");
        Console.WriteLine("  main thread per frame, overlapped step (OverlapStep on)  " + on.ToString("F3") + " ms (median)");
        Console.WriteLine("unity_frame_bench n=" + n + " fps=" + fps + " work_ms=" + workMs.ToString("F1") + " workers=" + workers +
                          " interpolate=" + (interpolate ? 1 : 0) +
                          " in_update_ms=" + off.ToString("F3") + " overlap_ms=" + on.ToString("F3"));
        foreach (var c in cs) c.gameObject.SetActive(false);
        Graphics.StandInRecord = true;
        return 0;
    }

    /// Stamps the time in its LateUpdate (put between controllers to time each one's).
    sealed class Stamp : MonoBehaviour
    {
        public System.Diagnostics.Stopwatch Clock;
        public double At;
        void LateUpdate() { At = Clock.Elapsed.TotalMilliseconds; }
    }

    /// Two overlapped controllers of n fish on one shared pool, 8 ms of other main-thread work a
    /// frame: the median time of each one's LateUpdate (the read of every matrix and the draw).
    static int PoolBench(int n, int frames)
    {
        Graphics.StandInRecord = false;
        int threads = Math.Max(2, SystemInfo.processorCount);
        var cs = new[] { "A", "B" }.Select(name => Controller(name, FlockPreset.Custom, UnityEngine.Vector3.zero,
            UnityEngine.Quaternion.identity, new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = n; x.Threads = threads; })).ToArray();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var stamps = Enumerable.Range(0, 3).Select(i => new GameObject("stamp " + i).AddComponent<Stamp>()).ToArray();
        foreach (var st in stamps) st.Clock = clock;
        var order = new MonoBehaviour[] { stamps[0], cs[0], stamps[1], cs[1], stamps[2] };
        var a = new List<double>();
        var b = new List<double>();
        Time.StandInDeltaTime = 1f / 60f;
        for (int frame = 0; frame < frames + 2; frame++)
        {
            Graphics.StandInClear();
            UnityEngine.LowLevel.PlayerLoop.StandInFrame(order);
            if (frame >= 2)
            {
                a.Add(stamps[1].At - stamps[0].At);
                b.Add(stamps[2].At - stamps[1].At);
            }
            var sw = System.Diagnostics.Stopwatch.StartNew();
            while (sw.Elapsed.TotalMilliseconds < 8.0) { }
        }
        Console.WriteLine("Unity controllers A and B, " + n + " fish each, one pool of " + threads + " threads, overlapped, " +
                          frames + " frames, 8 ms of other main-thread work per frame, Mono:");
        Console.WriteLine("unity_pool_bench n=" + n + " threads=" + threads + " a_late_update_ms=" + Median(a).ToString("F3") +
                          " b_late_update_ms=" + Median(b).ToString("F3"));
        foreach (var c in cs) c.gameObject.SetActive(false);
        foreach (var st in stamps) UnityEngine.Object.Destroy(st.gameObject);
        Graphics.StandInRecord = true;
        return 0;
    }

    static void UnityPaused()
    {
        var c = Controller("paused", FlockPreset.FishTank, new UnityEngine.Vector3(5f, 0f, 0f), UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f));
        Frame(c);
        Assert(c.IsStepping, "overlapping by default: a step runs after Update");
        c.FinishStep();
        ulong before = c.World.StateHash;
        for (int frame = 0; frame < 10; frame++)
        {
            Frame(c, 0f);
            Assert(!c.IsStepping, "a paused game begins no step");
            Assert(c.Drawn == c.Flock.Count && c.Drawn > 0, "a paused flock is still drawn");
        }
        Assert(c.World.StateHash == before, "deltaTime 0 stepped the flock");
        Frame(c, -0.5f);
        Assert(c.World.StateHash == before, "a negative deltaTime stepped the flock");
        Frame(c);
        c.FinishStep();
        Assert(c.World.StateHash != before, "unpaused, it moves again");
        Frame(c, 5f); // a long frame is clamped, not refused
        c.gameObject.SetActive(false);
    }

    static void UnityTwoFlocks()
    {
        var at = new UnityEngine.Vector3(300f, -20f, 80f);
        var rot = UnityEngine.Quaternion.Euler(0f, 90f, 0f);
        var sharkMesh = new UnityEngine.Mesh();
        var sharkMaterial = new UnityEngine.Material(Shader.Find("Standard")) { enableInstancing = true };
        var c = Controller("reef", FlockPreset.Shark, at, rot, new UnityEngine.Vector3(1f, 1f, 1f), x =>
            x.OtherFlocks = new[] { new FlockLook { mesh = sharkMesh, material = sharkMaterial, scale = 2f } });
        Assert(c.Flocks.Length == 2, "the shark preset has two flocks, got " + c.Flocks.Length);
        Assert(c.Flocks[0] == c.Flock && c.Flock.Count == 400 && c.Flocks[1].Count == 1, "the school first, then the shark");
        // The reference: the same preset in a world of its own, at the origin.
        using (var alone = new BoidsWorld(1, 1))
        {
            alone.CreatePreset("shark", "reef");
            FlockBounds box = alone.Flocks()[0].Settings.Bounds;
            for (int frame = 0; frame < 120; frame++)
            {
                Frame(c);
                var school = Graphics.Draws.Where(d => d.Mesh == c.Mesh).ToArray();
                var shark = Graphics.Draws.Where(d => d.Mesh == sharkMesh).ToArray();
                Assert(school.Sum(d => d.Positions.Length) == 400 && shark.Sum(d => d.Positions.Length) == 1,
                    "frame " + frame + ": 400 fish with the controller's mesh and 1 shark with its own");
                Assert(shark.All(d => d.Params.material == sharkMaterial), "the shark's own material");
                if (frame % 40 == 0)
                {
                    DrawnWhereTheObjectPutsThem(c, c.Flocks[0], school, "school, frame " + frame);
                    DrawnWhereTheObjectPutsThem(c, c.Flocks[1], shark, "shark, frame " + frame);
                }
                alone.Step(1f / 60);
            }
            // The engine holds the preset exactly as at the origin: the same state, bit for bit, so
            // spawn, rocks, targets and the second flock all moved with the object. (The last
            // frame's step is still running: overlapping is the default.)
            c.FinishStep();
            Assert(c.World.StateHash == alone.StateHash, "the preset's scene is the preset's, in local space");
            Assert(box.Kind != BoundsKind.None, "the preset has bounds");
        }
        c.gameObject.SetActive(false);
    }

    /// The threads named prefix*, once there are want of them or the count stops changing for
    /// a minute: workers of pools that ended earlier leave a little after (a loaded machine
    /// ends threads slowly).
    static int SettledThreads(string prefix, int want)
    {
        int workers = ThreadsNamed(prefix);
        var changed = System.Diagnostics.Stopwatch.StartNew();
        while (workers != want && changed.Elapsed.TotalSeconds < 60)
        {
            System.Threading.Thread.Sleep(10);
            int now = ThreadsNamed(prefix);
            if (now != workers) { workers = now; changed.Restart(); }
        }
        return workers;
    }

    static int ThreadsNamed(string prefix)
    {
        int n = 0;
        foreach (string dir in Directory.GetDirectories("/proc/self/task"))
        {
            try { if (File.ReadAllText(Path.Combine(dir, "comm")).StartsWith(prefix)) n++; }
            catch (IOException) { }
        }
        return n;
    }

    static void UnitySharedPool()
    {
        if (!Directory.Exists("/proc/self/task")) { Console.WriteLine("     (no /proc: skipped)"); return; }
        var cs = new List<BoidsFlockController>();
        for (int k = 0; k < 4; k++)
            cs.Add(Controller("pool " + k, FlockPreset.Custom, new UnityEngine.Vector3(k * 50f, 0f, 0f), UnityEngine.Quaternion.identity,
                new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Threads = 3; x.Count = 3000; }));
        foreach (var c in cs) Frame(c);
        int workers = SettledThreads("boids-3-", 3);
        Assert(workers == 3, "four controllers of 3 threads run on " + workers + " workers (want 3, not 12)");
        foreach (var c in cs) c.gameObject.SetActive(false);
    }

    static void UnityPhoneWorkers()
    {
        Assert(BoidsFlockController.WorkerThreads(-1, 8, true) == 2, "an 8-core phone: 2 workers");
        Assert(BoidsFlockController.WorkerThreads(-1, 6, true) == 2, "a 6-core iPhone: 2 workers");
        Assert(BoidsFlockController.WorkerThreads(-1, 3, true) == 1, "a 3-core phone: all cores but two, at least 1");
        Assert(BoidsFlockController.WorkerThreads(-1, 8, false) == 6, "an 8-core desktop: all cores but two");
        Assert(BoidsFlockController.WorkerThreads(5, 8, true) == 5, "a phone with Threads = 5: 5");
        Assert(BoidsFlockController.WorkerThreads(0, 8, true) == 0, "a phone with Threads = 0: one per core");
        if (!Directory.Exists("/proc/self/task")) { Console.WriteLine("     (no /proc: the controller's pool not counted)"); return; }
        // Through the controller, as a player on an 8-core phone starts it: its pool has the
        // phone's two workers (named boids-2-*), where a desktop's would have 6.
        var platform = UnityEngine.Application.StandInPlatform;
        UnityEngine.SystemInfo.StandInProcessorCount = 8;
        try
        {
            foreach (var p in new[] { UnityEngine.RuntimePlatform.Android, UnityEngine.RuntimePlatform.IPhonePlayer })
            {
                UnityEngine.Application.StandInPlatform = p;
                var c = Controller("phone " + p, FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
                    new UnityEngine.Vector3(1f, 1f, 1f), x => { x.Count = 3000; });
                Frame(c);
                int two = SettledThreads("boids-2-", 2);
                Assert(two == 2, p + ": the controller's pool has " + two + " boids-2-* workers, want 2");
                Assert(ThreadsNamed("boids-6-") == 0, p + ": a pool of 6 workers was made");
                c.gameObject.SetActive(false);
            }
        }
        finally
        {
            UnityEngine.Application.StandInPlatform = platform;
            UnityEngine.SystemInfo.StandInProcessorCount = 0;
        }
    }

    static void UnityFailedSetup()
    {
        // The next world takes the slot a probe world frees (generation + 1); if the failed
        // set-up freed its world, the world after it takes that slot again (generation + 2).
        BoidsWorldId probe;
        using (var w = new BoidsWorld(0, 0)) probe = w.Id;
        Debug.StandInLog.Clear();
        var c = Controller("", FlockPreset.Custom, UnityEngine.Vector3.zero, UnityEngine.Quaternion.identity,
            new UnityEngine.Vector3(1f, 1f, 1f), x => x.Threads = 0); // an empty name: refused by the engine
        Assert(c.World == null && c.Flock == null && !c.enabled, "a failed set-up leaves no world and disables the component");
        Assert(Debug.StandInLog.Any(l => l.StartsWith("LogException") && l.Contains("name")), "the refusal is logged: " + string.Join(" | ", Debug.StandInLog));
        Frame(c); // Unity calls no Update on a disabled component; the stand-in neither
        using (var next = new BoidsWorld(0, 0))
        {
            BoidsWorldId id = next.Id;
            Assert(id.index == probe.index && id.generation == probe.generation + 2,
                "the failed set-up's world was freed (the slot came back at generation " + id.generation + ", probe " + probe.generation + ")");
        }
        c.gameObject.SetActive(false);
    }

    static void UnityGizmos()
    {
        var go = new GameObject("edit mode");
        go.transform.position = new UnityEngine.Vector3(10f, 20f, 30f);
        go.transform.rotation = UnityEngine.Quaternion.Euler(0f, 45f, 0f);
        go.SetActive(false); // edit mode: never enabled, no world
        var c = go.AddComponent<BoidsFlockController>();
        c.Preset = FlockPreset.Shark;
        Gizmos.StandInShapes.Clear();
        GameObject.Message(c, "OnDrawGizmos");
        using (var w = new BoidsWorld(0, 1))
        {
            w.CreatePreset("shark", "x");
            var want = w.Flocks().Select(f => f.Settings.Bounds).Where(b => b.Kind != BoundsKind.None).ToArray();
            Assert(want.Length > 0 && Gizmos.StandInShapes.Count == want.Length,
                Gizmos.StandInShapes.Count + " shapes drawn, the preset has " + want.Length + " bounded flocks");
            for (int i = 0; i < want.Length; i++)
            {
                FlockBounds b = want[i];
                UnityEngine.Vector3 centre = b.Kind == BoundsKind.SoftSphere ? U(b.Centre) : U((b.Min + b.Max) * 0.5f);
                UnityEngine.Vector3 at = go.transform.TransformPoint(centre);
                Assert(UnityEngine.Vector3.Distance(Gizmos.StandInShapes[i].Key, at) < 1e-3f,
                    "gizmo " + i + " at " + Gizmos.StandInShapes[i].Key + ", the preset's bounds are at " + at);
            }
        }
        Assert(Gizmos.matrix.m00 == 1f && Gizmos.matrix.m03 == 0f, "the gizmo matrix is reset");
    }

    static void UnityFlowOverlay()
    {
        var c = Controller("maze", FlockPreset.Maze, new UnityEngine.Vector3(5f, 1f, -3f), UnityEngine.Quaternion.Euler(0f, 30f, 0f),
            UnityEngine.Vector3.one, x => { x.DrawFlowField = true; x.FlowFieldArrows = 32; });
        try
        {
            for (int f = 0; f < 4; f++) Frame(c);
            // The overlay was read before the frame's step began; the field stays (the target
            // does not move), so the engine's reads after it agree.
            c.FinishStep();
            BoidsFlowOverlay o = c.FlowOverlay;
            // 161 x 161 cells of 1, at most 32 arrows a side: every 6th cell.
            Assert(o.Stride == 6 && o.Count > 300 && o.Count <= 27 * 27, "arrows: " + o.Count + " every " + o.Stride + " cells");
            Vec3 origin;
            float cell;
            int columns, rows;
            Assert(c.Flock.TryGetFlowGrid(out origin, out cell, out columns, out rows), "a field");
            var way = c.Flock.ReadFlowDirections();
            var dist = c.Flock.ReadFlowDistances();
            Gizmos.StandInLines.Clear();
            Gizmos.StandInLineColours.Clear();
            GameObject.Message(c, "OnDrawGizmos");
            Assert(Gizmos.StandInLines.Count == 3 * o.Count, Gizmos.StandInLines.Count + " lines for " + o.Count + " arrows");
            int inCup = 0;
            float nearest = float.MaxValue, farthest = -1f;
            Color nearColour = default(Color), farColour = default(Color);
            for (int k = 0; k < o.Count; k++)
            {
                UnityEngine.Vector3 tail, tip;
                o.Arrow(k, out tail, out tip);
                UnityEngine.Vector3 mid = (tail + tip) * 0.5f;
                // On the ground under its middle, 0.2 cells up.
                float ground;
                Assert(c.World.TryGetGroundHeight(mid.x, mid.z, out ground) && Math.Abs(mid.y - 0.2f - ground) < 1e-4f,
                    "arrow " + k + " at " + mid + ", the ground at " + ground);
                // Along the engine's way at its cell.
                int i = (int)Math.Floor((mid.x - origin.X) / cell), j = (int)Math.Floor((mid.z - origin.Z) / cell);
                Vec3 d = way[j * columns + i];
                UnityEngine.Vector3 along = (tip - tail) / (6f * 0.8f);
                Assert(Math.Abs(along.x - d.X) < 1e-4f && Math.Abs(along.z - d.Z) < 1e-4f && along.y == 0f,
                    "arrow " + k + " along " + along + ", the way " + d);
                // Inside the U's cup (x -10..20, z -25..25) the way leads out west, never on toward
                // the target east of the wall.
                if (mid.x > 0f && mid.x < 15f && Math.Abs(mid.z) < 15f)
                {
                    inCup++;
                    Assert(tip.x < tail.x, "arrow " + k + " in the cup at " + mid + " points " + along);
                }
                float dk = dist[j * columns + i];
                if (dk < nearest) { nearest = dk; nearColour = o.Colour(k); }
                if (dk > farthest) { farthest = dk; farColour = o.Colour(k); }
                // Drawn where the object puts it.
                var line = Gizmos.StandInLines[3 * k];
                Assert(UnityEngine.Vector3.Distance(line.Key, c.transform.TransformPoint(tail)) < 1e-3f &&
                       UnityEngine.Vector3.Distance(line.Value, c.transform.TransformPoint(tip)) < 1e-3f, "arrow " + k + " drawn in the object's space");
            }
            Assert(inCup > 4, inCup + " arrows in the cup");
            Assert(nearColour.g > nearColour.r && farColour.r > farColour.g, "green near the target, red far");
            // Off: nothing drawn.
            c.DrawFlowField = false;
            Gizmos.StandInLines.Clear();
            GameObject.Message(c, "OnDrawGizmos");
            Assert(Gizmos.StandInLines.Count == 0, "no arrows when off");
        }
        finally
        {
            UnityEngine.Object.Destroy(c.gameObject);
        }
    }

    sealed class UniversalRenderPipelineAsset : UnityEngine.Rendering.RenderPipelineAsset { }

    static void UnitySample()
    {
        // A scene with its own Main Camera and light: the sample uses them and makes neither.
        var cam = new GameObject("Main Camera");
        cam.tag = "MainCamera";
        var mainCamera = cam.AddComponent<Camera>();
        var light = new GameObject("Directional Light");
        light.AddComponent<Light>();
        UnityEngine.Rendering.GraphicsSettings.StandInPipeline = new UniversalRenderPipelineAsset();
        Shader.StandInAvailable = new HashSet<string> { "Universal Render Pipeline/Lit" };
        var host = new GameObject("sample");
        host.transform.position = new UnityEngine.Vector3(0f, 5f, 0f);
        var sample = host.AddComponent<BoidsFlocking.Samples.FishSchoolSample>();
        GameObject.Message(sample, "Start");
        Assert(sample.View == mainCamera, "the scene's Main Camera is used");
        Assert(GameObject.StandInAll.Count(g => g.name == "Sample Camera" || g.name == "Sample Light") == 0, "no second camera or light");
        Assert(sample.School.Material != null && sample.School.Material.shader.name == "Universal Render Pipeline/Lit" &&
               sample.School.Material.enableInstancing, "URP's Lit, instanced");
        for (int frame = 0; frame < 10; frame++)
        {
            Time.StandInTime = frame / 60f;
            Frame(1f / 60f, sample, sample.School);
            Assert(sample.School.Drawn == 3000, "the sample's school is drawn");
            // The sample sets the observer every frame and keeps the step overlapping.
            Assert(sample.School.IsStepping && sample.School.StepsTaken == frame + 1, "the sample keeps its overlap");
        }
        var made = new UnityEngine.Object[] { sample.School.Mesh, sample.School.Material, sample.School.gameObject };
        var world = sample.School.World;
        UnityEngine.Object.Destroy(host);
        foreach (var o in made) Assert(UnityEngine.Object.StandInDestroyed.Contains(o), o.name + " (made by the sample) is destroyed");
        Assert(!UnityEngine.Object.StandInDestroyed.Contains(cam) && !UnityEngine.Object.StandInDestroyed.Contains(light), "the scene's camera and light stay");
        Assert(world.IsDisposed, "destroying the sample frees its world");

        // An empty scene, the built-in pipeline without the Standard shader in the build: the
        // sample makes a tagged camera and a light, and says it has no material.
        UnityEngine.Object.Destroy(cam);
        UnityEngine.Object.Destroy(light);
        UnityEngine.Rendering.GraphicsSettings.StandInPipeline = null;
        Shader.StandInAvailable = new HashSet<string>();
        Debug.StandInLog.Clear();
        var host2 = new GameObject("sample 2");
        var sample2 = host2.AddComponent<BoidsFlocking.Samples.FishSchoolSample>();
        GameObject.Message(sample2, "Start");
        Assert(sample2.View != null && sample2.View.gameObject.tag == "MainCamera" && Camera.main == sample2.View, "its own Main Camera");
        Assert(UnityEngine.Object.FindObjectOfType<Light>() != null, "its own light");
        Assert(sample2.School.Material == null && Debug.StandInLog.Any(l => l.StartsWith("LogWarning") && l.Contains("Standard")),
            "no shader, no material, and a warning naming the shader");
        Graphics.StandInClear();
        ulong hash = sample2.School.World.StateHash;
        Frame(1f / 60f, sample2.School);
        sample2.School.FinishStep();
        Assert(Graphics.Draws.Count == 0 && sample2.School.World.StateHash != hash, "steps, draws nothing without a material");
        UnityEngine.Object.Destroy(host2);
        Assert(Camera.main == null && UnityEngine.Object.FindObjectOfType<Light>() == null, "its camera and light go with it");
        Shader.StandInAvailable = null;
    }

    static T Put<T>(string name, int layer, UnityEngine.Vector3 at, UnityEngine.Quaternion rot, UnityEngine.Vector3 scale) where T : Component
    {
        var go = new GameObject(name);
        go.layer = layer;
        go.transform.position = at;
        go.transform.rotation = rot;
        go.transform.localScale = scale;
        return go.AddComponent<T>();
    }

    static bool Near(Vec3 a, UnityEngine.Vector3 b, float eps = 1e-4f)
    {
        return Math.Abs(a.X - b.x) < eps && Math.Abs(a.Y - b.y) < eps && Math.Abs(a.Z - b.z) < eps;
    }
}
