// The presets' inspector settings and every flock's bounds, as the engine makes them.
// Generated from the engine's presets by crates/ffi/tests/generated.rs; do not edit:
// BOIDS_REGEN=1 cargo test -p boids-ffi --test generated rewrites it.
using System.Collections.Generic;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>What the Boids Flock Controller needs of each preset in edit mode (the
    /// inspector's settings, the gizmos' bounds) without loading the native library.</summary>
    public static class PresetTable
    {
        /// <summary>One preset: its main flock's settings, every flock's bounds in order.</summary>
        public struct Entry
        {
            public float PerceptionRadius, FovHalfAngleDegrees, SeparationWeight, AlignmentWeight, CohesionWeight, MinSpeed, MaxSpeed;
            public FlockBounds[] Bounds;
        }

        static readonly Dictionary<string, Entry> entries = new Dictionary<string, Entry>
        {
            { "fish-tank", new Entry { PerceptionRadius = 1.0f, FovHalfAngleDegrees = 90.0f, SeparationWeight = 5.0f, AlignmentWeight = 2.0f, CohesionWeight = 3.0f, MinSpeed = 2.0f, MaxSpeed = 5.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-5.0f, -5.0f, -5.0f), Max = new Vec3(5.0f, 5.0f, 5.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 3.0f, Inner = 0.0f } } } },
            { "goal-swarm", new Entry { PerceptionRadius = 3.0f, FovHalfAngleDegrees = 360.0f, SeparationWeight = 1.0f, AlignmentWeight = 0.0f, CohesionWeight = 1.0f, MinSpeed = 0.5f, MaxSpeed = 2.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.TurnBack, Min = new Vec3(-5.0f, -5.0f, -5.0f), Max = new Vec3(5.0f, 5.0f, 5.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 0.0f, Inner = 0.0f } } } },
            { "target-flock", new Entry { PerceptionRadius = 30.0f, FovHalfAngleDegrees = 360.0f, SeparationWeight = 0.5f, AlignmentWeight = 0.01f, CohesionWeight = 0.15f, MinSpeed = 0.0f, MaxSpeed = 30.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.None, Min = new Vec3(0.0f, 0.0f, 0.0f), Max = new Vec3(0.0f, 0.0f, 0.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 0.0f, Inner = 0.0f } } } },
            { "steering-obstacles", new Entry { PerceptionRadius = 2.5f, FovHalfAngleDegrees = 360.0f, SeparationWeight = 1.0f, AlignmentWeight = 1.0f, CohesionWeight = 1.0f, MinSpeed = 2.0f, MaxSpeed = 5.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.None, Min = new Vec3(0.0f, 0.0f, 0.0f), Max = new Vec3(0.0f, 0.0f, 0.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 0.0f, Inner = 0.0f } } } },
            { "flock-2d", new Entry { PerceptionRadius = 1.5f, FovHalfAngleDegrees = 360.0f, SeparationWeight = 2.0f, AlignmentWeight = 1.0f, CohesionWeight = 4.0f, MinSpeed = 0.0f, MaxSpeed = 5.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftSphere, Min = new Vec3(0.0f, 0.0f, 0.0f), Max = new Vec3(0.0f, 0.0f, 0.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 15.0f, Distance = 0.0f, Inner = 0.9f } } } },
            { "reef", new Entry { PerceptionRadius = 1.5f, FovHalfAngleDegrees = 135.0f, SeparationWeight = 1.5f, AlignmentWeight = 1.0f, CohesionWeight = 1.0f, MinSpeed = 2.0f, MaxSpeed = 4.5f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-20.0f, -6.5f, -20.0f), Max = new Vec3(20.0f, 5.0f, 20.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 3.0f, Inner = 0.0f } } } },
            { "shark", new Entry { PerceptionRadius = 2.0f, FovHalfAngleDegrees = 135.0f, SeparationWeight = 6.0f, AlignmentWeight = 4.0f, CohesionWeight = 2.0f, MinSpeed = 2.0f, MaxSpeed = 5.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-14.0f, -14.0f, -14.0f), Max = new Vec3(14.0f, 14.0f, 14.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 4.0f, Inner = 0.0f }, new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-14.0f, -14.0f, -14.0f), Max = new Vec3(14.0f, 14.0f, 14.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 4.0f, Inner = 0.0f } } } },
            { "herd", new Entry { PerceptionRadius = 2.5f, FovHalfAngleDegrees = 150.0f, SeparationWeight = 2.0f, AlignmentWeight = 1.0f, CohesionWeight = 0.8f, MinSpeed = 0.0f, MaxSpeed = 2.5f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-73.6f, -17.44751f, -73.6f), Max = new Vec3(73.6f, 19.00299f, 73.6f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 5.0f, Inner = 0.0f }, new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-73.6f, -17.44751f, -73.6f), Max = new Vec3(73.6f, 19.00299f, 73.6f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 5.0f, Inner = 0.0f }, new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-80.0f, 15.00299f, -80.0f), Max = new Vec3(80.0f, 34.00299f, 80.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 6.0f, Inner = 0.0f } } } },
            { "maze", new Entry { PerceptionRadius = 2.5f, FovHalfAngleDegrees = 150.0f, SeparationWeight = 3.0f, AlignmentWeight = 0.5f, CohesionWeight = 0.0f, MinSpeed = 0.0f, MaxSpeed = 4.0f,
                Bounds = new[] { new FlockBounds { Kind = BoundsKind.SoftBox, Min = new Vec3(-76.0f, -20.0f, -76.0f), Max = new Vec3(76.0f, 20.0f, 76.0f), Centre = new Vec3(0.0f, 0.0f, 0.0f), Radius = 0.0f, Distance = 3.0f, Inner = 0.0f } } } },
        };

        /// <summary>The preset named <paramref name="name"/> (as boids_flock_create_preset
        /// takes it); false for an unknown name or null.</summary>
        public static bool TryGet(string name, out Entry entry)
        {
            if (name != null && entries.TryGetValue(name, out entry)) return true;
            entry = default(Entry);
            return false;
        }
    }
}
