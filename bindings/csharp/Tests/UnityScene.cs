// What a shipped game would hit with the Unity component (the package's fourth review), each
// against the UnityEngine stand-in: a mesh a player cannot read, a terrain finer than the engine
// takes, a failed obstacle, a moving collider scaled to zero or disabled for a while, the
// controller moved with static colliders around it, interpolation while the controller moves, a
// script's mistake in one controller, flocks made later, and a scene that changes (colliders
// spawned, destroyed, a scene unloaded).
using System;
using System.Collections.Generic;
using System.Linq;
using BoidsFlocking;
using BoidsFlocking.UnityIntegration;
using UnityEngine;
using UnityEngine.SceneManagement;

static unsafe partial class BoidsTests
{
    static void UnitySceneTests()
    {
        Test("Unity scene: a mesh without Read/Write becomes its bounds as a box (one warning naming it), a failed obstacle costs that obstacle only, a 4097² terrain is uploaded whole, a row at a time", UnityUnreadableMesh);
        Test("Unity scene: a moving collider scaled to zero or disabled leaves the world for a while and comes back; the flock and the controllers after it go on", UnityZeroScale);
        Test("Unity scene: moving, turning or scaling the controller sets its static obstacles again (the scene stays put)", UnityControllerMoved);
        Test("Unity scene: interpolation while the controller moves blends in its space: drawn between the last two states placed by this frame's transform", UnityInterpolateMoving);
        Test("Unity scene: one controller's script mistake (its flock destroyed) is logged and the others go on; flocks made later through World are drawn", UnityIsolation);
        Test("Unity scene: colliders spawned, destroyed or unloaded with a scene: Add, Remove, Rescan, and sceneUnloaded drop or add them", UnitySceneChanges);
        Test("Unity scene: a terrain and a mesh on the ground layers are ground a walking flock stands on; a box there, or a mesh on an obstacle layer, is an obstacle", UnityGroundLayers);
        Test("Unity Herd sample: a Terrain, rocks and a fence on its layer; the sheep stand on the hills, clear of the rocks, never past the ridge; all it made goes with it", UnityHerdSample);
        Test("Unity Maze sample: the preset's ground and walls drawn from the engine's triangles, the walkers drawn and their flow field as gizmos; all it made goes with it", UnityMazeSample);
    }

    static void UnityHerdSample()
    {
        const int Layer = 12;
        Shader.StandInAvailable = null;
        UnityEngine.Rendering.GraphicsSettings.StandInPipeline = null;
        var host = new GameObject("herd sample");
        host.transform.position = new UnityEngine.Vector3(10f, 2f, -5f);
        var sample = host.AddComponent<BoidsFlocking.Samples.HerdSample>();
        sample.GroundLayer = Layer;
        sample.Sheep = 300;
        GameObject.Message(sample, "Start");
        var herd = sample.Herd;
        try
        {
            for (int j = 0; j <= 128; j++)
                for (int i = 0; i <= 128; i++)
                {
                    float h = BoidsFlocking.Samples.HerdSample.Height(i, j);
                    Assert(h > 0f && h < BoidsFlocking.Samples.HerdSample.Top, "the hills fit the Terrain's heights (Unity clamps to 0..1): " + h + " at " + i + ", " + j);
                }
            Assert(sample.Hills.layer == Layer && sample.Hills.GetComponent<TerrainCollider>() != null &&
                   sample.Props.Count == 24 && sample.Props.All(p => p.layer == Layer), "hills, 12 rocks and 12 boards on the sample's layer");
            ObstacleShape sh;
            Assert(herd.SceneObstacles.TryGetShape(sample.Hills.GetComponent<TerrainCollider>(), out sh) && sh.Ground, "the Terrain is ground");
            Assert(sample.Props.All(p => herd.SceneObstacles.TryGetShape(p.GetComponent<Collider>(), out sh) && !sh.Ground), "the rocks and boards are obstacles");
            Assert(herd.Flock.Settings.Grounded && herd.Flock.Settings.BodyRadius == 0.4f &&
                   herd.Flock.Settings.PerceptionRadius == 2.5f, "the sheep walk, with bodies and the sample's rules");
            Frame(1f / 60f, sample, herd);
            herd.FinishStep();
            var first = new Vec3[herd.Flock.Count];
            herd.Flock.ReadPositions(first);
            for (int frame = 1; frame < 60; frame++) Frame(1f / 60f, sample, herd);
            herd.FinishStep();
            Assert(herd.StepsTaken >= 59 && herd.Drawn == 300, "it steps and draws the herd");
            var at = new Vec3[herd.Flock.Count];
            herd.Flock.ReadPositions(at);
            UnityEngine.Vector3 corner = host.transform.position - new UnityEngine.Vector3(64f, 0f, 64f);
            foreach (Vec3 local in at)
            {
                // The controller is at the sample; the Terrain's corner 64 units west and south.
                float x = local.X + 64f, z = local.Z + 64f, feet = local.Y + host.transform.position.y - 0.5f - corner.y;
                int i = (int)Math.Floor(x), j = (int)Math.Floor(z);
                Assert(i >= 0 && j >= 0 && i < 128 && j < 128, "on the hills: " + x + ", " + z);
                float lo = float.MaxValue, hi = float.MinValue;
                foreach (var c in new[] { new[] { i, j }, new[] { i + 1, j }, new[] { i, j + 1 }, new[] { i + 1, j + 1 } })
                {
                    float h = BoidsFlocking.Samples.HerdSample.Height(c[0], c[1]);
                    lo = Math.Min(lo, h);
                    hi = Math.Max(hi, h);
                }
                Assert(feet >= lo - 1e-3f && feet <= hi + 1e-3f, "standing on the hills: feet at " + feet + " between samples " + lo + " and " + hi);
            }
            // The rocks are balls of half their largest size (Unity's SphereCollider rule).
            foreach (GameObject rock in sample.Props.Where(p => p.name == "Sample Rock"))
            {
                UnityEngine.Vector3 c = rock.transform.position - host.transform.position, s = rock.transform.localScale;
                float r = 0.5f * Math.Max(s.x, Math.Max(s.y, s.z));
                foreach (Vec3 p in at)
                {
                    float dx = p.X - c.x, dy = p.Y - c.y, dz = p.Z - c.z;
                    double d = Math.Sqrt(dx * dx + dy * dy + dz * dz);
                    Assert(d >= r * (1f - 1e-4f), "a sheep inside a rock of radius " + r + ": " + d);
                }
            }
            // The ridge (x = 88 on the Terrain) is a wall: a sheep clear of it after the first
            // step is on the same side after the last.
            for (int b = 0; b < at.Length; b++)
            {
                float x0 = first[b].X + 64f, x1 = at[b].X + 64f;
                if (Math.Abs(x0 - 88f) > 1.5f)
                    Assert((x0 < 88f) == (x1 < 88f), "sheep " + b + " crossed the ridge: x " + x0 + " -> " + x1);
            }
        }
        finally
        {
            var made = new List<UnityEngine.Object> { herd.gameObject, sample.Hills, herd.Mesh };
            made.AddRange(sample.Props.Cast<UnityEngine.Object>());
            var world = herd.World;
            UnityEngine.Object.Destroy(host);
            foreach (var o in made) Assert(UnityEngine.Object.StandInDestroyed.Contains(o), o.name + " (made by the sample) is destroyed");
            Assert(world.IsDisposed, "destroying the sample frees its world");
        }
    }

    static void UnityMazeSample()
    {
        Shader.StandInAvailable = null;
        UnityEngine.Rendering.GraphicsSettings.StandInPipeline = null;
        var host = new GameObject("maze sample");
        host.transform.position = new UnityEngine.Vector3(4f, 1f, -2f);
        var sample = host.AddComponent<BoidsFlocking.Samples.MazeSample>();
        GameObject.Message(sample, "Start");
        var walkers = sample.Walkers;
        try
        {
            Assert(walkers.Preset == FlockPreset.Maze && walkers.World.FlowCellSize == 1f && walkers.DrawFlowField, "the maze preset, with its flow cells, drawn");
            var corners = walkers.World.ReadSceneTriangles();
            var mesh = sample.Ground.GetComponent<MeshFilter>().sharedMesh;
            // 160 x 160 cells of hills (two triangles each) and five walls (boxes of 12).
            Assert(corners.Length == 3 * (2 * 160 * 160 + 5 * 12), corners.Length + " corners");
            Assert(mesh.indexFormat == UnityEngine.Rendering.IndexFormat.UInt32 && mesh.vertices.Length == corners.Length &&
                   mesh.triangles.Length == 2 * corners.Length, "one mesh, both windings, 32-bit indices");
            for (int i = 0; i < corners.Length; i += 997)
                Assert(mesh.vertices[i].x == corners[i].X && mesh.vertices[i].y == corners[i].Y && mesh.vertices[i].z == corners[i].Z, "the engine's corners");
            Assert(sample.Ground.transform.position.x == 4f && sample.Ground.GetComponent<MeshRenderer>().sharedMaterial != null, "placed with the maze, a material");
            for (int frame = 0; frame < 10; frame++)
            {
                Frame(1f / 60f, sample, walkers);
                Assert(walkers.Drawn == 1000, "the walkers drawn: " + walkers.Drawn);
            }
            Assert(sample.AtTarget == 0 && walkers.FlowOverlay.Count > 100, "nobody at the target yet; " + walkers.FlowOverlay.Count + " arrows");
            Gizmos.StandInLines.Clear();
            GameObject.Message(walkers, "OnDrawGizmos");
            Assert(Gizmos.StandInLines.Count == 3 * walkers.FlowOverlay.Count, "the arrows drawn");
        }
        finally
        {
            var made = new UnityEngine.Object[] { walkers.gameObject, walkers.Mesh, walkers.Material, sample.Ground,
                sample.Ground.GetComponent<MeshFilter>().sharedMesh, sample.Ground.GetComponent<MeshRenderer>().sharedMaterial };
            var world = walkers.World;
            UnityEngine.Object.Destroy(host);
            foreach (var o in made) Assert(UnityEngine.Object.StandInDestroyed.Contains(o), o.name + " (made by the sample) is destroyed");
            Assert(world.IsDisposed, "destroying the sample frees its world");
        }
    }

    static void UnityGroundLayers()
    {
        const int Ground = 13, Rocks = 14;
        var id = UnityEngine.Quaternion.identity;
        // A 64 x 64 hill rising 2 along x (heights normalised to size.y = 8).
        var td = new TerrainData { heightmapResolution = 33, size = new UnityEngine.Vector3(64f, 8f, 64f), name = "hill" };
        td.StandInHeights = new float[33, 33];
        for (int j = 0; j < 33; j++)
            for (int i = 0; i < 33; i++) td.StandInHeights[j, i] = 0.25f * i / 32f;
        var hill = Put<TerrainCollider>("hill", Ground, new UnityEngine.Vector3(-32f, 0f, -32f), id, One);
        hill.terrainData = td;
        var ledge = Put<MeshCollider>("ledge", Ground, new UnityEngine.Vector3(25f, 0f, 25f), id, One);
        ledge.sharedMesh = Tetrahedron(true);
        var crate = Put<BoxCollider>("crate", Ground, new UnityEngine.Vector3(20f, 0f, -20f), id, One);
        var rock = Put<MeshCollider>("rock", Rocks, new UnityEngine.Vector3(-20f, 0f, 20f), id, One);
        rock.sharedMesh = Tetrahedron(true);
        var c = Controller("walkers", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x =>
        {
            x.Count = 40;
            x.GroundLayers = 1 << Ground;
            x.ObstacleLayers = 1 << Rocks;
            x.Walk = true;
            x.PivotHeight = 0.5f;
            x.BodyRadius = 0.3f;
        });
        try
        {
            var so = c.SceneObstacles;
            ObstacleShape sh;
            Assert(so.TryGetShape(hill, out sh) && sh.Kind == ObstacleKind.Heightfield && sh.Ground, "the terrain is ground");
            Assert(so.TryGetShape(ledge, out sh) && sh.Kind == ObstacleKind.Mesh && sh.Ground, "the mesh on a ground layer is ground");
            Assert(so.TryGetShape(crate, out sh) && sh.Kind == ObstacleKind.OrientedBox && !sh.Ground, "a box there is an obstacle");
            Assert(so.TryGetShape(rock, out sh) && sh.Kind == ObstacleKind.Mesh && !sh.Ground, "a mesh on an obstacle layer is not ground");
            Assert(c.Flock.Settings.Grounded && c.Flock.Settings.BodyRadius == 0.3f, "the flock walks, with bodies");
            for (int k = 0; k < 10; k++) Frame(c);
            c.FinishStep();
            var at = new Vec3[c.Flock.Count];
            Assert(c.Flock.ReadPositions(at) == 40, "forty walkers");
            foreach (Vec3 p in at)
            {
                float h = 2f * (p.X + 32f) / 64f + 0.5f;
                Assert(Math.Abs(p.Y - h) < 1e-3f, "standing on the hill at its pivot height: " + p.Y + " at x " + p.X + ", want " + h);
            }
        }
        finally { DestroyAll(c, hill, ledge, crate, rock); }
    }

    static readonly UnityEngine.Vector3 One = new UnityEngine.Vector3(1f, 1f, 1f);

    static void DestroyAll(params Component[] cs)
    {
        foreach (Component c in cs) if (c != null) UnityEngine.Object.Destroy(c.gameObject);
    }

    static UnityEngine.Mesh Tetrahedron(bool readable)
    {
        var m = new UnityEngine.Mesh();
        m.name = readable ? "rock" : "unreadable rock";
        m.vertices = new[] { new UnityEngine.Vector3(0f, 0f, 0f), new UnityEngine.Vector3(2f, 0f, 0f), new UnityEngine.Vector3(0f, 1f, 0f), new UnityEngine.Vector3(0f, 0f, 4f) };
        m.triangles = new[] { 0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3 };
        m.RecalculateBounds();
        m.isReadable = readable;
        return m;
    }

    static void UnityUnreadableMesh()
    {
        const int Layer = 9;
        var id = UnityEngine.Quaternion.identity;
        Debug.StandInLog.Clear();
        var shut = Put<MeshCollider>("shut rock", Layer, new UnityEngine.Vector3(10f, 0f, 0f), id, new UnityEngine.Vector3(2f, 1f, 1f));
        shut.sharedMesh = Tetrahedron(false);
        var twin = Put<MeshCollider>("shut rock twin", Layer, new UnityEngine.Vector3(-10f, 0f, 0f), id, One);
        twin.sharedMesh = shut.sharedMesh;
        var empty = Put<MeshCollider>("empty rock", Layer, new UnityEngine.Vector3(0f, 0f, 10f), id, One);
        empty.sharedMesh = new UnityEngine.Mesh { name = "empty", vertices = new UnityEngine.Vector3[0], triangles = new int[0] };
        var fine = Put<SphereCollider>("fine ball", Layer, new UnityEngine.Vector3(0f, 5f, 0f), id, One);
        var big = new TerrainData { heightmapResolution = 4097, size = new UnityEngine.Vector3(400f, 20f, 400f), name = "big terrain" };
        var ground = Put<TerrainCollider>("ground", Layer, new UnityEngine.Vector3(-200f, -10f, -200f), id, One);
        ground.terrainData = big;
        var c = Controller("unreadable", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x => { x.Count = 30; x.ObstacleLayers = 1 << Layer; });
        try
        {
            Assert(c.enabled && c.World != null, "the flock lives");
            var so = c.SceneObstacles;
            ObstacleShape sh;
            Assert(so.TryGetShape(shut, out sh) && sh.Kind == ObstacleKind.OrientedBox, "the unreadable mesh is a box");
            // Bounds: centre (1, 0.5, 2), extents (1, 0.5, 2), scaled by (2, 1, 1), placed at (10, 0, 0).
            Assert(Near(sh.A, new UnityEngine.Vector3(12f, 0.5f, 2f)) && Near(sh.B, new UnityEngine.Vector3(2f, 0.5f, 2f)), "its bounds: " + sh.A + " " + sh.B);
            Assert(so.TryGetShape(twin, out sh) && sh.Kind == ObstacleKind.OrientedBox, "its twin too");
            var warnings = Debug.StandInLog.Where(l => l.Contains("unreadable rock")).ToArray();
            Assert(warnings.Length == 1 && warnings[0].Contains("Read/Write"), "one warning naming the mesh and the setting: " + string.Join(" | ", warnings));
            Assert(so.Find(empty) == null && Debug.StandInLog.Any(l => l.Contains("empty rock")), "a mesh the engine refuses costs that obstacle, with a warning");
            Assert(so.Find(fine) != null, "the others are obstacles");
            Assert(so.TryGetShape(ground, out sh) && sh.Kind == ObstacleKind.Heightfield, "the terrain is one");
            Assert(big.StandInLargestRead <= 4097, "read a row at a time, not as a " + big.StandInLargestRead + "-sample array");
            Assert(!Debug.StandInLog.Any(l => l.Contains("big terrain")), "uploaded whole: no coarser upload to warn of");
            Frame(c);
            Frame(c);
            c.FinishStep();
            Assert(c.StepsTaken >= 1, "it steps");
        }
        finally { DestroyAll(c, shut, twin, empty, fine, ground); }
    }

    static void UnityZeroScale()
    {
        const int Layer = 10;
        var id = UnityEngine.Quaternion.identity;
        var ball = Put<SphereCollider>("popping ball", Layer, new UnityEngine.Vector3(0f, 2f, 0f), id, One);
        ball.gameObject.AddComponent<Rigidbody>();
        var rock = Put<MeshCollider>("moving rock", Layer, new UnityEngine.Vector3(0f, -3f, 0f), id, One);
        rock.sharedMesh = Tetrahedron(true);
        rock.gameObject.AddComponent<BoidsMovingObstacle>();
        var first = Controller("zero scale", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x => { x.Count = 30; x.ObstacleLayers = 1 << Layer; });
        var second = Controller("after it", FlockPreset.Custom, new UnityEngine.Vector3(50f, 0f, 0f), id, One, x => { x.Count = 30; });
        try
        {
            var so = first.SceneObstacles;
            Assert(so.MovingCount == 2 && so.Find(ball) != null && so.Find(rock) != null, "two moving obstacles");
            Debug.StandInLog.Clear();
            long a = first.StepsTaken, b = second.StepsTaken;
            // A pop-in tween: scale 0 for a few frames.
            ball.transform.localScale = new UnityEngine.Vector3(0f, 0f, 0f);
            rock.enabled = false;
            for (int f = 0; f < 3; f++) Frame(1f / 60f, first, second);
            first.FinishStep();
            second.FinishStep();
            Assert(first.StepsTaken > a && second.StepsTaken > b, "both flocks step: " + first.StepsTaken + " " + second.StepsTaken);
            Assert(!Debug.StandInLog.Any(l => l.StartsWith("LogException") || l.StartsWith("LogError")), "nothing thrown or logged as an error: " + string.Join(" | ", Debug.StandInLog));
            Assert(so.Find(ball) == null && so.Find(rock) == null && so.MovingCount == 2, "out of the world for now, still followed");
            ball.transform.localScale = new UnityEngine.Vector3(2f, 2f, 2f);
            rock.enabled = true;
            Frame(1f / 60f, first, second);
            first.FinishStep();
            ObstacleShape sh;
            Assert(so.Find(ball) != null && so.TryGetShape(ball, out sh) && Math.Abs(sh.Radius - 1f) < 1e-5f, "the ball is back, grown");
            Assert(so.Find(rock) != null, "the rock is back");
        }
        finally { DestroyAll(first, second, ball, rock); }
    }

    static void UnityControllerMoved()
    {
        const int Layer = 11;
        var id = UnityEngine.Quaternion.identity;
        var pillar = Put<SphereCollider>("pillar", Layer, new UnityEngine.Vector3(10f, 0f, 0f), id, One);
        var crate = Put<BoxCollider>("crate", Layer, new UnityEngine.Vector3(0f, 0f, 10f), id, One);
        var c = Controller("moved", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x => { x.Count = 30; x.ObstacleLayers = 1 << Layer; });
        try
        {
            var so = c.SceneObstacles;
            ObstacleShape sh;
            Frame(c);
            // Moved, turned and scaled: the pillar and the crate stay where they are in the scene,
            // so in the controller's space they move the other way.
            c.transform.position = new UnityEngine.Vector3(4f, 0f, 0f);
            c.transform.rotation = UnityEngine.Quaternion.Euler(0f, 90f, 0f);
            c.transform.localScale = new UnityEngine.Vector3(2f, 2f, 2f);
            Frame(c);
            c.FinishStep();
            Assert(so.TryGetShape(pillar, out sh), "the pillar");
            Assert(Near(sh.A, c.transform.InverseTransformPoint(pillar.transform.position)), "the pillar where the scene has it: " + sh.A + ", want " + c.transform.InverseTransformPoint(pillar.transform.position));
            Assert(Math.Abs(sh.Radius - 0.25f) < 1e-5f, "its radius in the controller's scale: " + sh.Radius);
            Assert(so.TryGetShape(crate, out sh) && Near(sh.A, c.transform.InverseTransformPoint(crate.transform.position)), "the crate where the scene has it: " + sh.A);
        }
        finally { DestroyAll(c, pillar, crate); }
    }

    static void UnityInterpolateMoving()
    {
        var id = UnityEngine.Quaternion.identity;
        const int n = 500;
        var c = Controller("moving and blended", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x => { x.Count = n; x.Seed = 3; x.Interpolate = true; });
        try
        {
            float h = c.FixedTimeStep, dt = 1f / 144f;
            var states = new Dictionary<long, UnityEngine.Vector3[]>();
            Func<UnityEngine.Vector3[]> read = () => { var v = new UnityEngine.Vector3[n]; BoidsUnityExtensions.ReadPositions(c.Flock, v); return v; };
            states[0] = read();
            double acc = 0;
            int checkedFrames = 0;
            var speed = new UnityEngine.Vector3(10f, 0f, 0f); // 10 m/s, as a moving ship
            for (int frame = 0; frame < 60; frame++)
            {
                long k = c.StepsTaken;
                // The object moves before the frame's scripts run (animation, a parent).
                c.transform.position = speed * (frame * dt);
                Frame(dt, c);
                var d = DrawnPositions(c);
                if (k >= 1)
                {
                    double alpha = acc / h;
                    UnityEngine.Vector3[] a = states[k - 1], b = states[k];
                    for (int i = 0; i < n; i++)
                    {
                        UnityEngine.Vector3 want = c.transform.TransformPoint(a[i] + (b[i] - a[i]) * (float)alpha);
                        Assert(UnityEngine.Vector3.Distance(want, d[i]) < 1e-3f, "frame " + frame + ", boid " + i + ": drawn at " + d[i] + ", want " + want);
                    }
                    checkedFrames++;
                }
                acc += (double)dt;
                long steps = (long)Math.Floor(acc / h);
                acc -= steps * (double)h;
                c.FinishStep();
                if (c.StepsTaken != k) states[c.StepsTaken] = read();
            }
            Assert(checkedFrames > 40, "frames checked: " + checkedFrames);
        }
        finally { DestroyAll(c); }
    }

    static void UnityIsolation()
    {
        var id = UnityEngine.Quaternion.identity;
        var shark = Controller("shark", FlockPreset.Shark, UnityEngine.Vector3.zero, id, One);
        var other = Controller("bystander", FlockPreset.Custom, new UnityEngine.Vector3(100f, 0f, 0f), id, One, x => { x.Count = 40; });
        try
        {
            Frame(1f / 60f, shark, other);
            Assert(shark.Flocks.Length == 2, "the shark preset draws two flocks");
            Debug.StandInLog.Clear();
            // A script destroys the predator while no step runs.
            shark.FinishStep();
            shark.Flocks[1].Destroy();
            long b = other.StepsTaken;
            for (int f = 0; f < 3; f++) Frame(1f / 60f, shark, other);
            other.FinishStep();
            Assert(other.StepsTaken > b, "the other controller steps");
            Assert(shark.Flocks.Length == 1 && shark.Drawn == shark.Flock.Count, "the shark controller draws what is left: " + shark.Drawn);
            // A flock made later through World is drawn too.
            shark.FinishStep();
            BoidsFlock extra = shark.World.CreateFlock("extra", new FlockSettings());
            extra.Spawn(25, SpawnSettings.Box(new Vec3(-1f, -1f, -1f), new Vec3(1f, 1f, 1f)));
            Frame(1f / 60f, shark, other);
            Assert(shark.Flocks.Length == 2 && shark.Drawn == shark.Flock.Count + 25, "the new flock is drawn: " + shark.Drawn);
            // A controller that throws does not stop the others: a frame-loop callback that fails
            // is logged, once a frame, and the rest run.
            Assert(!Debug.StandInLog.Any(l => l.StartsWith("LogException")), "nothing thrown: " + string.Join(" | ", Debug.StandInLog));
        }
        finally { DestroyAll(shark, other); }
    }

    static void UnitySceneChanges()
    {
        const int Layer = 12;
        var id = UnityEngine.Quaternion.identity;
        var stays = Put<SphereCollider>("stays", Layer, new UnityEngine.Vector3(5f, 0f, 0f), id, One);
        var goes = Put<SphereCollider>("goes", Layer, new UnityEngine.Vector3(-5f, 0f, 0f), id, One);
        Scene extra = Scene.StandInNew(2, "Additive");
        var visiting = Put<BoxCollider>("additive crate", Layer, new UnityEngine.Vector3(0f, 0f, 5f), id, One);
        visiting.gameObject.scene = extra;
        var c = Controller("scene", FlockPreset.Custom, UnityEngine.Vector3.zero, id, One, x => { x.Count = 30; x.ObstacleLayers = 1 << Layer; });
        SphereCollider spawned = null, elsewhere = null;
        try
        {
            var so = c.SceneObstacles;
            Assert(so.StaticCount == 3, "three static obstacles: " + so.StaticCount);
            // Destroyed: gone at the next Rescan, not a ghost.
            UnityEngine.Object.Destroy(goes.gameObject);
            spawned = Put<SphereCollider>("spawned", Layer, new UnityEngine.Vector3(0f, 0f, -5f), id, One);
            Frame(c);
            c.FinishStep();
            Assert(so.Rescan() == 1 && so.StaticCount == 3 && so.Find(spawned) != null, "rescan: one gone, one added: " + so.StaticCount);
            // An additive scene unloaded: its colliders' obstacles leave with it.
            SceneManager.StandInUnload(extra);
            Assert(so.StaticCount == 2 && so.Find(visiting) == null, "the unloaded scene's crate is gone: " + so.StaticCount);
            // Add and Remove by hand (any layer).
            elsewhere = Put<SphereCollider>("other layer", 3, new UnityEngine.Vector3(0f, 5f, 0f), id, One);
            Assert(so.Add(elsewhere) && !so.Add(elsewhere) && so.Find(elsewhere) != null, "Add, once");
            Assert(so.Remove(elsewhere) && !so.Remove(elsewhere) && so.Find(elsewhere) == null, "Remove, once");
            Frame(c);
            c.FinishStep();
            Assert(c.StepsTaken >= 1 && so.Find(stays) != null, "the flock goes on with the rest");
        }
        finally { DestroyAll(c, stays, spawned, elsewhere); }
    }
}
