// 10,000 fish for 600 frames through the C# API, matrices read every frame, then a summary.
// Build and run: see the README's C# quick start.
using System;
using System.Diagnostics;
using BoidsFlocking;

static class Demo
{
    static int Main()
    {
        using (var world = new BoidsWorld(42))
        {
            var settings = new FlockSettings();
            settings.Bounds = FlockBounds.SoftBox(new Vec3(-20, -20, -20), new Vec3(20, 20, 20));
            var fish = world.CreateFlock("fish", settings);
            fish.Spawn(10000, SpawnSettings.Box(new Vec3(-15, -15, -15), new Vec3(15, 15, 15)));

            var matrices = new Mat4[10000];
            var velocities = new Vec3[10000];
            var sw = Stopwatch.StartNew();
            for (int frame = 0; frame < 600; frame++)
            {
                world.Step(1f / 60);
                fish.ReadMatrices(matrices);
            }
            double ms = sw.Elapsed.TotalMilliseconds / 600;
            int n = fish.ReadVelocities(velocities);
            double speed = 0;
            for (int i = 0; i < n; i++) speed += velocities[i].Length;
            Console.WriteLine("C#: boids " + BoidsWorld.Version + ", " + n + " fish, 600 frames, " + ms.ToString("F3") +
                              " ms/frame (step + matrices), mean speed " + (speed / n).ToString("F3") +
                              ", hash " + world.StateHash.ToString("x16"));
            try
            {
                fish.PerceptionRadius = float.NaN;
            }
            catch (BoidsException e)
            {
                Console.WriteLine("PerceptionRadius = NaN threw " + e.Message);
            }
        }
        return 0;
    }
}
