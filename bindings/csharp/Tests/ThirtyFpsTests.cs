// A 30 fps game with 1/60 s fixed steps (what phones default to): BoidsWorld.BeginSteps runs both
// of a frame's steps in one begin with the bits of two Steps, and the controller begins all of a
// frame's steps together, so none runs on the main thread; interpolated, it blends across them.
using System;
using System.Collections.Generic;
using System.Linq;
using BoidsFlocking;
using BoidsFlocking.UnityIntegration;
using UnityEngine;

static unsafe partial class BoidsTests
{
    static void ThirtyFpsTests()
    {
        Test("BeginSteps: the bits of as many Steps on every preset; reads during them see the state before the first", () =>
        {
            string[] presets = { "fish-tank", "goal-swarm", "target-flock", "steering-obstacles", "flock-2d", "reef", "shark", "herd", "maze" };
            foreach (string p in presets)
            {
                using (var a = new BoidsWorld(4, 2))
                using (var b = new BoidsWorld(4, 2))
                {
                    a.CreatePreset(p, p);
                    BoidsFlock fb = b.CreatePreset(p, p);
                    var before = new Vec3[fb.Count];
                    var during = new Vec3[fb.Count];
                    for (int i = 0; i < 12; i++)
                    {
                        int n = 2 + i % 2;
                        for (int k = 0; k < n; k++) a.Step(1f / 60);
                        fb.ReadPositions(before);
                        b.BeginSteps(1f / 60, n);
                        Assert(b.IsStepping && fb.ReadPositions(during) == before.Length, "reads run during the steps");
                        for (int k = 0; k < before.Length; k++)
                            Assert(during[k].Equals(before[k]), p + ": a read during the steps saw the state before them");
                        b.EndStep();
                    }
                    Assert(a.StateHash == b.StateHash, p + ": BeginSteps gives the bits of as many Steps");
                }
            }
        });
        Test("Unity: at 30 fps a frame's steps begin together: none runs on the main thread, the same bits, and interpolated draws blend across them", UnityThirtyFps);
    }

    /// Reads a controller's flock in its LateUpdate: the state the frame's scripts see.
    sealed class LateReader : MonoBehaviour
    {
        public BoidsFlockController Of;
        public Vector3[] Seen = new Vector3[0];
        void LateUpdate()
        {
            if (Seen.Length != Of.Flock.Count) Seen = new Vector3[Of.Flock.Count];
            BoidsUnityExtensions.ReadPositions(Of.Flock, Seen);
        }
    }

    static void UnityThirtyFps()
    {
        const int n = 2000;
        Func<string, bool, BoidsFlockController> make = (name, overlap) => Controller(name, FlockPreset.Custom,
            Vector3.zero, Quaternion.identity, new Vector3(1f, 1f, 1f),
            x => { x.Count = n; x.Seed = 4; x.Interpolate = true; x.OverlapStep = overlap; });
        // Frames a little longer than 1/30 s: two 1/60 s steps a frame, now and then three.
        const float frame = 1f / 29.5f;
        const int frames = 90;
        var over = make("30 fps, overlapped", true);
        var reader = new GameObject("late reader").AddComponent<LateReader>();
        reader.Of = over;
        float h = over.FixedTimeStep;
        Func<Vector3[]> read = () =>
        {
            var v = new Vector3[n];
            BoidsUnityExtensions.ReadPositions(over.Flock, v);
            return v;
        };
        var states = new Dictionary<long, Vector3[]> { { 0, read() } };
        double acc = 0;
        long drawnBefore = -1;
        int threes = 0, blended = 0;
        for (int f = 0; f < frames; f++)
        {
            long k = over.StepsTaken;
            Frame(frame, over, reader);
            // Drawn: the state drawn last frame blended with the newest, across the steps begun
            // together between them, by the time left over after them.
            if (drawnBefore >= 0 && k > drawnBefore)
            {
                int m = (int)(k - drawnBefore);
                float t = ((m - 1) + (float)(acc / h)) / m;
                Vector3[] a = states[drawnBefore], b = states[k], d = DrawnPositions(over);
                Assert(d.Length == n, "every boid drawn");
                for (int i = 0; i < n; i++)
                {
                    Vector3 want = a[i] + (b[i] - a[i]) * t;
                    Assert(Vector3.Distance(want, d[i]) < 1e-3f,
                        "frame " + f + ", boid " + i + ": drawn at " + d[i] + ", want " + want + " (" + t + " from step " + drawnBefore + " to " + k + ")");
                }
                if (m >= 2 && t > 0.05f && t < 0.95f) blended++;
            }
            drawnBefore = k;
            acc += (double)frame;
            long steps = (long)Math.Floor(acc / h);
            acc -= steps * (double)h;
            Assert(over.IsStepping && over.StepsTaken == k + steps, "frame " + f + ": " + (over.StepsTaken - k) + " steps begun, the accumulator calls for " + steps);
            if (steps == 3) threes++;
            // None of them ran on this thread: while they run, the world still reads as the
            // frame's LateUpdate saw it (one step run here first would have moved it).
            var during = read();
            Assert(during.SequenceEqual(reader.Seen), "frame " + f + ": a step ran on the main thread before the others began");
            over.FinishStep();
            states[over.StepsTaken] = read();
        }
        Assert(threes >= 2 && blended > frames / 2, threes + " frames of three steps, " + blended + " blended across two or more");
        long total = over.StepsTaken;
        ulong hash = over.World.StateHash;
        over.gameObject.SetActive(false);
        reader.gameObject.SetActive(false);
        // The same frames with the steps in Update, one by one: the same state.
        var plain = make("30 fps, in Update", false);
        for (int f = 0; f < frames; f++) Frame(frame, plain);
        Assert(plain.StepsTaken == total && plain.World.StateHash == hash, "the same bits as the steps one by one");
        plain.gameObject.SetActive(false);
    }
}
