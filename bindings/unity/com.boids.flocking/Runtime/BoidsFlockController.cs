// The Boids Flock Controller component: owns a native world with one flock (or a preset's
// flocks), steps it every frame, pushes inspector changes to the engine live in play mode, moves
// the flock and its bounds with this GameObject, draws the bounds as gizmos, and renders every
// boid with Graphics.RenderMeshInstanced in batches of 1023 from matrices the library writes
// straight into a Matrix4x4[] (no per-frame allocation, no per-boid call).
using System;
using UnityEngine;

namespace Boids.Unity
{
    /// <summary>The six presets of the engine, and Custom for the inspector's own settings.</summary>
    public enum FlockPreset
    {
        Custom,
        FishTank,
        GoalSwarm,
        TargetFlock,
        SteeringObstacles,
        Flock2D,
        Shark,
    }

    [AddComponentMenu("Boids/Boids Flock Controller")]
    public sealed class BoidsFlockController : MonoBehaviour
    {
        [Header("Set-up (read when enabled)")]
        [Tooltip("A preset starts from the engine's tuning of one of the classic Unity boids tutorials; Custom uses the settings below.")]
        [SerializeField] FlockPreset preset = FlockPreset.Custom;
        [Tooltip("Boids of a Custom flock (presets bring their own count).")]
        [SerializeField] int count = 2000;
        [SerializeField] int seed = 1;
        [Tooltip("Worker threads. -1: all cores but two, left to Unity's main thread and job workers (at least 1). 0: one per core.")]
        [SerializeField] int threads = -1;

        [Header("Settings (pushed live in play mode)")]
        [SerializeField] float perceptionRadius = 1f;
        [Tooltip("Half-angle of the view: 90 sees the front half, 180 all around.")]
        [Range(0f, 180f)] [SerializeField] float fovHalfAngle = 90f;
        [SerializeField] float separationWeight = 5f;
        [SerializeField] float alignmentWeight = 2f;
        [SerializeField] float cohesionWeight = 3f;
        [SerializeField] float minSpeed = 2f;
        [SerializeField] float maxSpeed = 5f;
        [Tooltip("Size of the box, centred on this GameObject, the flock stays in (Custom flocks).")]
        [SerializeField] Vector3 boxSize = new Vector3(20f, 20f, 20f);
        [SerializeField] float wallDistance = 3f;

        [Header("Drawing")]
        [SerializeField] Mesh mesh;
        [SerializeField] Material material;
        [SerializeField] float scale = 0.3f;

        BoidsWorld world;
        BoidsFlock flock;
        Matrix4x4[] matrices = new Matrix4x4[0];
        FlockBounds presetBounds;
        Vector3 centredOn;
        Vec3[] carry = new Vec3[0];
        bool dirty;

        /// <summary>Set-up, read when the component is enabled (set them on an inactive
        /// GameObject, then activate it).</summary>
        public FlockPreset Preset { get { return preset; } set { preset = value; } }
        public int Count { get { return count; } set { count = value; } }
        public int Seed { get { return seed; } set { seed = value; } }
        public int Threads { get { return threads; } set { threads = value; } }
        /// <summary>Size of the box, centred on this GameObject, a Custom flock stays in.</summary>
        public Vector3 BoxSize { get { return boxSize; } set { boxSize = value; dirty = true; } }
        public Mesh Mesh { get { return mesh; } set { mesh = value; } }
        public Material Material { get { return material; } set { material = value; } }
        public float Scale { get { return scale; } set { scale = value; } }

        /// <summary>The native world (null while disabled).</summary>
        public BoidsWorld World { get { return world; } }

        /// <summary>The flock this component steps and draws (null while disabled).</summary>
        public BoidsFlock Flock { get { return flock; } }

        /// <summary>Number of boids drawn in the last frame.</summary>
        public int Drawn { get; private set; }

        static string PresetName(FlockPreset p)
        {
            switch (p)
            {
                case FlockPreset.FishTank: return "fish-tank";
                case FlockPreset.GoalSwarm: return "goal-swarm";
                case FlockPreset.TargetFlock: return "target-flock";
                case FlockPreset.SteeringObstacles: return "steering-obstacles";
                case FlockPreset.Flock2D: return "flock-2d";
                case FlockPreset.Shark: return "shark";
                default: return null;
            }
        }

        /// <summary>The threads setting as the world takes it.</summary>
        public static int WorkerThreads(int setting, int processorCount)
        {
            if (setting >= 0) return setting;
            return Math.Max(1, processorCount - 2);
        }

        void OnEnable()
        {
            world = new BoidsWorld((ulong)Math.Max(seed, 0), WorkerThreads(threads, SystemInfo.processorCount));
            centredOn = transform.position;
            string name = PresetName(preset);
            if (name != null)
            {
                flock = world.CreatePreset(name, gameObject.name);
                // The inspector shows the preset's values; edits then push live.
                FlockSettings s = flock.Settings;
                perceptionRadius = s.PerceptionRadius;
                fovHalfAngle = Mathf.Min(s.FovHalfAngleDegrees, 180f);
                separationWeight = s.SeparationWeight;
                alignmentWeight = s.AlignmentWeight;
                cohesionWeight = s.CohesionWeight;
                minSpeed = s.MinSpeed;
                maxSpeed = s.MaxSpeed;
                presetBounds = s.Bounds;
                flock.SetBounds(Moved(presetBounds, centredOn));
            }
            else
            {
                flock = world.CreateFlock(gameObject.name, Apply(new FlockSettings()));
                Vector3 h = boxSize * 0.4f;
                Vec3 c = centredOn.ToVec3();
                flock.Spawn(Math.Max(count, 0), SpawnSettings.Box(c - h.ToVec3(), c + h.ToVec3()));
            }
            matrices = new Matrix4x4[Math.Max(flock.Count, 1)];
            dirty = false;
        }

        void OnValidate()
        {
            dirty = true;
        }

        /// <summary>The bounds of a preset moved by offset.</summary>
        static FlockBounds Moved(FlockBounds b, Vector3 offset)
        {
            Vec3 d = offset.ToVec3();
            b.Min = b.Min + d;
            b.Max = b.Max + d;
            b.Centre = b.Centre + d;
            return b;
        }

        FlockBounds CustomBounds()
        {
            Vec3 c = transform.position.ToVec3(), h = (boxSize * 0.5f).ToVec3();
            return FlockBounds.SoftBox(c - h, c + h, wallDistance);
        }

        FlockSettings Apply(FlockSettings s)
        {
            s.PerceptionRadius = perceptionRadius;
            s.FovHalfAngleDegrees = fovHalfAngle;
            s.SeparationWeight = separationWeight;
            s.AlignmentWeight = alignmentWeight;
            s.CohesionWeight = cohesionWeight;
            s.MinSpeed = minSpeed;
            s.MaxSpeed = maxSpeed;
            if (preset == FlockPreset.Custom)
            {
                s.SeparationRadius = perceptionRadius;
                s.Bounds = CustomBounds();
            }
            return s;
        }

        void Update()
        {
            if (flock == null) return;
            if (dirty)
            {
                dirty = false;
                try { flock.Settings = Apply(flock.Settings); }
                catch (BoidsException e) { Debug.LogError("Boids: " + e.Message); }
            }
            Vector3 here = transform.position;
            if (here.x != centredOn.x || here.y != centredOn.y || here.z != centredOn.z)
            {
                // The flock moves with this GameObject, as a child would: its bounds, and every
                // boid by the same offset.
                Vec3 delta = (here - centredOn).ToVec3();
                centredOn = here;
                flock.SetBounds(preset == FlockPreset.Custom ? CustomBounds() : Moved(presetBounds, here));
                int count = flock.Count;
                if (carry.Length != count) carry = new Vec3[count];
                flock.ReadPositions(carry);
                for (int i = 0; i < count; i++) carry[i] = carry[i] + delta;
                flock.WritePositions(carry);
            }
            world.Step(Mathf.Clamp(Time.deltaTime, 1e-4f, 0.1f));
            int n = flock.Count;
            if (matrices.Length < n) matrices = new Matrix4x4[n];
            n = flock.ReadMatrices(matrices, scale);
            Drawn = 0;
            if (mesh == null || material == null) return;
            RenderParams rp = new RenderParams(material);
            for (int start = 0; start < n; start += 1023)
            {
                int batch = Math.Min(1023, n - start);
                Graphics.RenderMeshInstanced(rp, mesh, 0, matrices, batch, start);
                Drawn += batch;
            }
        }

        void OnDrawGizmos()
        {
            Gizmos.color = new Color(0.3f, 0.8f, 1f, 0.6f);
            if (flock != null && preset != FlockPreset.Custom)
            {
                FlockBounds b = Moved(presetBounds, transform.position);
                if (b.Kind == BoundsKind.SoftSphere)
                    Gizmos.DrawWireSphere(b.Centre.ToVector3(), b.Radius);
                else if (b.Kind != BoundsKind.None)
                    Gizmos.DrawWireCube(((b.Min + b.Max) * 0.5f).ToVector3(), (b.Max - b.Min).ToVector3());
                return;
            }
            Gizmos.DrawWireCube(transform.position, boxSize);
        }

        void OnDisable()
        {
            flock = null;
            if (world != null) world.Dispose();
            world = null;
        }
    }
}
