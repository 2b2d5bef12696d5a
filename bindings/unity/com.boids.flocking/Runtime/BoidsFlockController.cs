// The Boids Flock Controller component: owns a native world with one flock (or a preset's whole
// scene: its flocks, obstacles and targets), steps it every frame, pushes inspector changes to
// the engine live in play mode, and draws every flock of the world with
// Graphics.RenderMeshInstanced in batches of 1023 from matrices the library writes straight into
// a Matrix4x4[] (no per-frame allocation, no per-boid call in C#).
//
// The world lives in this GameObject's local space: the preset's spawn, walls, rocks and targets
// (or the Custom box, centred on the object) are local coordinates, and the library multiplies
// every instance matrix by localToWorldMatrix when it writes them. Moving, rotating or scaling the
// object therefore carries the whole flock with it, as a child would.
//
// With Overlap Step (on by default), Update ends the step begun in the previous frame, reads the
// matrices, begins the next step on the engine's workers and draws: the simulation runs while
// the rest of the frame does (other scripts, culling, rendering), and the main thread pays only
// for the reads and the draw calls. The drawn state is one step behind the world's newest. Until
// the next Update the world refuses changes (BoidsException, Busy): change it before this
// component's Update (Script Execution Order) or call FinishStep() first.
using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.Rendering;

namespace BoidsFlocking.UnityIntegration
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

    /// <summary>How one flock of the world is drawn.</summary>
    [Serializable]
    public sealed class FlockLook
    {
        [Tooltip("Mesh of each boid (+Z forward, +Y up). Empty: the controller's mesh.")]
        public Mesh mesh;
        [Tooltip("Material with Enable GPU Instancing ticked. Empty: the controller's material.")]
        public Material material;
        [Min(0f)] public float scale = 1f;
    }

    [AddComponentMenu("Boids/Boids Flock Controller")]
    public sealed class BoidsFlockController : MonoBehaviour
    {
        [Header("Set-up (read when enabled)")]
        [Tooltip("A preset starts from the engine's tuning of one of the classic Unity boids tutorials, with its whole scene (second flock, rocks, targets) in this object's local space; Custom uses the settings below.")]
        [SerializeField] FlockPreset preset = FlockPreset.Custom;
        [Tooltip("Boids of a Custom flock (presets bring their own count).")]
        [Min(0)] [SerializeField] int count = 2000;
        [SerializeField] int seed = 1;
        [Tooltip("Worker threads. -1: all cores but two, left to Unity's main thread and job workers (at least 1). 0: one per core. Controllers with the same count share one pool of workers.")]
        [Min(-1)] [SerializeField] int threads = -1;
        [Tooltip("Run each step while the rest of the frame goes on: Update ends last frame's step, draws, and begins the next. The world refuses changes until the next Update unless FinishStep() is called first.")]
        [SerializeField] bool overlapStep = true;

        [Tooltip("Colliders on these layers become obstacles of the flock (boxes, spheres, capsules, meshes, terrains), read when enabled; moving ones (with a Rigidbody or a Boids Moving Obstacle) follow every frame.")]
        [SerializeField] LayerMask obstacleLayers;

        [Header("Settings (pushed live in play mode)")]
        [Min(0f)] [SerializeField] float perceptionRadius = 1f;
        [Tooltip("Half-angle of the view: 90 sees the front half, 180 all around.")]
        [Range(0f, 180f)] [SerializeField] float fovHalfAngle = 90f;
        [SerializeField] float separationWeight = 5f;
        [SerializeField] float alignmentWeight = 2f;
        [SerializeField] float cohesionWeight = 3f;
        [Min(0f)] [SerializeField] float minSpeed = 2f;
        [Min(0f)] [SerializeField] float maxSpeed = 5f;
        [Tooltip("Size of the box, centred on this GameObject in its local space, a Custom flock stays in.")]
        [SerializeField] Vector3 boxSize = new Vector3(20f, 20f, 20f);
        [Min(0f)] [SerializeField] float wallDistance = 3f;

        [Header("Drawing")]
        [Tooltip("Mesh of each boid (+Z forward, +Y up).")]
        [SerializeField] Mesh mesh;
        [Tooltip("Material with Enable GPU Instancing ticked.")]
        [SerializeField] Material material;
        [Min(0f)] [SerializeField] float scale = 0.3f;
        [Tooltip("Looks of the world's other flocks, in order (the shark preset's shark is the first). A flock without one is drawn with the mesh and material above.")]
        [SerializeField] FlockLook[] otherFlocks = new FlockLook[0];
        [Tooltip("Layer the boids are drawn on (cameras' culling masks apply).")]
        [SerializeField] int layer;
        [SerializeField] ShadowCastingMode castShadows = ShadowCastingMode.On;
        [SerializeField] bool receiveShadows = true;

        BoidsWorld world;
        BoidsFlock flock;
        BoidsFlock[] flocks = new BoidsFlock[0];
        FlockBounds[] bounds = new FlockBounds[0];
        Matrix4x4[][] matrices = new Matrix4x4[0][];
        int[] counts = new int[0];
        bool dirty;
        bool stepping;
        BoidsSceneObstacles sceneObstacles;

        /// <summary>Set-up, read when the component is enabled (set them on an inactive
        /// GameObject, then activate it).</summary>
        public FlockPreset Preset { get { return preset; } set { preset = value; } }
        public int Count { get { return count; } set { count = value; } }
        public int Seed { get { return seed; } set { seed = value; } }
        /// <summary>Worker threads (see the field's tooltip); read when enabled.</summary>
        public int Threads { get { return threads; } set { threads = value; } }
        /// <summary>Whether the step overlaps the frame (see the field's tooltip); may change at
        /// any time, and takes effect in the next Update.</summary>
        public bool OverlapStep { get { return overlapStep; } set { overlapStep = value; } }
        /// <summary>True from the Update that began a step until the step is ended (next Update,
        /// FinishStep, or disabling).</summary>
        public bool IsStepping { get { return stepping; } }
        /// <summary>Size of the box, centred on this GameObject, a Custom flock stays in.</summary>
        public Vector3 BoxSize { get { return boxSize; } set { boxSize = value; dirty = true; } }
        public Mesh Mesh { get { return mesh; } set { mesh = value; } }
        public Material Material { get { return material; } set { material = value; } }
        public float Scale { get { return scale; } set { scale = value; } }
        /// <summary>Looks of the other flocks, in the world's order after the main one.</summary>
        public FlockLook[] OtherFlocks { get { return otherFlocks; } set { otherFlocks = value ?? new FlockLook[0]; } }
        public int Layer { get { return layer; } set { layer = value; } }
        public ShadowCastingMode CastShadows { get { return castShadows; } set { castShadows = value; } }
        public bool ReceiveShadows { get { return receiveShadows; } set { receiveShadows = value; } }

        /// <summary>Layers whose colliders become obstacles; read when enabled.</summary>
        public LayerMask ObstacleLayers { get { return obstacleLayers; } set { obstacleLayers = value; } }

        /// <summary>The scene's colliders as obstacles (null while disabled or with no
        /// Obstacle Layers).</summary>
        public BoidsSceneObstacles SceneObstacles { get { return sceneObstacles; } }

        /// <summary>The native world (null while disabled). Its coordinates are this
        /// GameObject's local space.</summary>
        public BoidsWorld World { get { return world; } }

        /// <summary>The main flock (null while disabled).</summary>
        public BoidsFlock Flock { get { return flock; } }

        /// <summary>Every flock of the world, the main one first (empty while disabled).</summary>
        public BoidsFlock[] Flocks { get { return flocks; } }

        /// <summary>Boids drawn in the last frame, all flocks together.</summary>
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
            BoidsWorld made = null;
            try
            {
                made = new BoidsWorld((ulong)Math.Max(seed, 0), WorkerThreads(threads, SystemInfo.processorCount));
                string name = PresetName(preset);
                BoidsFlock main;
                if (name != null)
                {
                    main = made.CreatePreset(name, gameObject.name);
                    // The inspector shows the preset's values; edits then push live.
                    FlockSettings s = main.Settings;
                    perceptionRadius = s.PerceptionRadius;
                    fovHalfAngle = Mathf.Min(s.FovHalfAngleDegrees, 180f);
                    separationWeight = s.SeparationWeight;
                    alignmentWeight = s.AlignmentWeight;
                    cohesionWeight = s.CohesionWeight;
                    minSpeed = s.MinSpeed;
                    maxSpeed = s.MaxSpeed;
                }
                else
                {
                    main = made.CreateFlock(gameObject.name, Apply(new FlockSettings()));
                    Vec3 h = (boxSize * 0.4f).ToVec3();
                    main.Spawn(Math.Max(count, 0), SpawnSettings.Box(new Vec3(0f, 0f, 0f) - h, h));
                }
                if (obstacleLayers.value != 0)
                    sceneObstacles = new BoidsSceneObstacles(made, transform, obstacleLayers);
                world = made;
                flock = main;
                Collect();
                dirty = false;
            }
            catch (Exception e)
            {
                // A half-made world is freed, never leaked; the component switches itself off.
                if (made != null) made.Dispose();
                world = null;
                flock = null;
                flocks = new BoidsFlock[0];
                Debug.LogException(e, this);
                enabled = false;
            }
        }

        /// <summary>The world's flocks (main first), their bounds, and a matrix buffer each.</summary>
        void Collect()
        {
            var all = new List<BoidsFlock> { flock };
            foreach (BoidsFlock f in world.Flocks())
                if (!f.Equals(flock)) all.Add(f);
            flocks = all.ToArray();
            bounds = new FlockBounds[flocks.Length];
            matrices = new Matrix4x4[flocks.Length][];
            for (int i = 0; i < flocks.Length; i++)
            {
                bounds[i] = flocks[i].Settings.Bounds;
                matrices[i] = new Matrix4x4[Math.Max(flocks[i].Count, 1)];
            }
        }

        void OnValidate()
        {
            dirty = true;
        }

        FlockBounds CustomBounds()
        {
            Vec3 h = (boxSize * 0.5f).ToVec3();
            return FlockBounds.SoftBox(new Vec3(0f, 0f, 0f) - h, h, wallDistance);
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

        /// <summary>Ends the step this component began, if one is running (waiting for it), so
        /// the world takes changes again. Update does this itself at the start of each frame; call
        /// it from a script that changes the world (targets, settings, boids) after this
        /// component's Update.</summary>
        public void FinishStep()
        {
            if (!stepping) return;
            stepping = false;
            world.EndStep();
        }

        /// <summary>Sets the world's observer (sleep and wake regions) from a point in world
        /// space, e.g. the camera's position.</summary>
        public void SetObserver(Vector3 worldPoint)
        {
            if (world == null) return;
            FinishStep();
            world.SetObserver(transform.InverseTransformPoint(worldPoint).ToVec3());
        }

        /// <summary>A flock's positions in world space (id order); returns the count. Reads are
        /// in the world's local space otherwise (flock.ReadPositions).</summary>
        public int ReadWorldPositions(BoidsFlock which, Vector3[] buffer)
        {
            if (which == null) throw new ArgumentNullException("which");
            int n = which.ReadPositions(buffer);
            for (int i = 0; i < n; i++) buffer[i] = transform.TransformPoint(buffer[i]);
            return n;
        }

        void Update()
        {
            if (flock == null) return;
            // The step begun last frame becomes this frame's state.
            FinishStep();
            // Moving colliders carry their obstacles (no allocation).
            if (sceneObstacles != null) sceneObstacles.Sync();
            if (dirty)
            {
                dirty = false;
                try
                {
                    flock.Settings = Apply(flock.Settings);
                    bounds[0] = flock.Settings.Bounds;
                }
                catch (BoidsException e) { Debug.LogError("Boids: " + e.Message, this); }
            }
            // A paused game (timeScale 0) steps nothing; the flock is still drawn.
            float dt = Mathf.Min(Time.deltaTime, 0.1f);
            Matrix4x4 toWorld = transform.localToWorldMatrix;
            if (overlapStep)
            {
                // Read while the workers are idle (the read runs on them), then step while the
                // frame goes on, and draw what was read.
                Read(toWorld);
                if (dt > 0f)
                {
                    world.BeginStep(dt);
                    stepping = true;
                }
            }
            else
            {
                if (dt > 0f) world.Step(dt);
                Read(toWorld);
            }
            Draw(toWorld);
        }

        /// <summary>The mesh, material and scale flock i is drawn with.</summary>
        void Look(int i, out Mesh m, out Material mat, out float s)
        {
            m = mesh;
            mat = material;
            s = scale;
            FlockLook look = i > 0 && i - 1 < otherFlocks.Length ? otherFlocks[i - 1] : null;
            if (look != null)
            {
                if (look.mesh != null) m = look.mesh;
                if (look.material != null) mat = look.material;
                s = look.scale;
            }
        }

        /// <summary>Every drawn flock's matrices, in world space, into its buffer.</summary>
        void Read(Matrix4x4 toWorld)
        {
            if (counts.Length != flocks.Length) counts = new int[flocks.Length];
            for (int i = 0; i < flocks.Length; i++)
            {
                Mesh m;
                Material mat;
                float s;
                Look(i, out m, out mat, out s);
                int n = flocks[i].Count;
                if (matrices[i].Length < n) matrices[i] = new Matrix4x4[n];
                counts[i] = m == null || mat == null ? 0 : flocks[i].ReadMatrices(matrices[i], toWorld, s);
            }
        }

        void Draw(Matrix4x4 toWorld)
        {
            Drawn = 0;
            for (int i = 0; i < flocks.Length; i++)
            {
                Mesh m;
                Material mat;
                float s;
                Look(i, out m, out mat, out s);
                int n = counts[i];
                if (m == null || mat == null || n == 0) continue;
                RenderParams rp = new RenderParams(mat);
                rp.layer = layer;
                rp.shadowCastingMode = castShadows;
                rp.receiveShadows = receiveShadows;
                // One box for every batch: Unity need not compute bounds per draw.
                rp.worldBounds = WorldBounds(bounds[i], toWorld, m.bounds.extents.magnitude * s);
                for (int start = 0; start < n; start += 1023)
                {
                    int batch = Math.Min(1023, n - start);
                    Graphics.RenderMeshInstanced(rp, m, 0, matrices[i], batch, start);
                    Drawn += batch;
                }
            }
        }

        /// <summary>The local box a flock's bounds keep it in (soft walls let boids overshoot a
        /// little, so a quarter of the size is added), or null when its bounds do not hold it.</summary>
        static bool LocalBox(FlockBounds b, out Vector3 min, out Vector3 max)
        {
            switch (b.Kind)
            {
                case BoundsKind.SoftSphere:
                    Vector3 c = b.Centre.ToVector3(), r = new Vector3(b.Radius, b.Radius, b.Radius);
                    min = c - r * 1.25f;
                    max = c + r * 1.25f;
                    return true;
                case BoundsKind.SoftBox:
                case BoundsKind.TurnBack:
                case BoundsKind.Wrap:
                case BoundsKind.Clamp:
                    Vector3 lo = b.Min.ToVector3(), hi = b.Max.ToVector3(), pad = (hi - lo) * 0.25f;
                    min = lo - pad;
                    max = hi + pad;
                    return true;
                default:
                    min = max = Vector3.zero;
                    return false;
            }
        }

        /// <summary>World-space bounds of a flock's local box under toWorld, grown by one boid.</summary>
        static Bounds WorldBounds(FlockBounds b, Matrix4x4 toWorld, float boid)
        {
            Vector3 min, max;
            if (!LocalBox(b, out min, out max))
                return new Bounds(toWorld.MultiplyPoint3x4(Vector3.zero), new Vector3(2e6f, 2e6f, 2e6f));
            var box = new Bounds(toWorld.MultiplyPoint3x4(min), Vector3.zero);
            for (int k = 1; k < 8; k++)
            {
                var corner = new Vector3((k & 1) != 0 ? max.x : min.x, (k & 2) != 0 ? max.y : min.y, (k & 4) != 0 ? max.z : min.z);
                box.Encapsulate(toWorld.MultiplyPoint3x4(corner));
            }
            box.Expand(2f * boid);
            return box;
        }

        static readonly Dictionary<FlockPreset, FlockBounds[]> presetBounds = new Dictionary<FlockPreset, FlockBounds[]>();

        /// <summary>A preset's bounds, every flock's, from a throw-away world (edit mode has no
        /// world), cached.</summary>
        static FlockBounds[] PresetBounds(FlockPreset p)
        {
            FlockBounds[] found;
            if (presetBounds.TryGetValue(p, out found)) return found;
            var list = new List<FlockBounds>();
            try
            {
                using (var w = new BoidsWorld(0, 1))
                {
                    w.CreatePreset(PresetName(p), "gizmo");
                    foreach (BoidsFlock f in w.Flocks()) list.Add(f.Settings.Bounds);
                }
            }
            catch (Exception e)
            {
                // No native library for the editor's platform: nothing to draw; say why once.
                Debug.LogWarning("Boids: cannot draw the preset's bounds: " + e.Message);
            }
            found = list.ToArray();
            presetBounds[p] = found;
            return found;
        }

        void OnDrawGizmos()
        {
            Gizmos.color = new Color(0.3f, 0.8f, 1f, 0.6f);
            Gizmos.matrix = transform.localToWorldMatrix;
            if (preset == FlockPreset.Custom)
            {
                Gizmos.DrawWireCube(Vector3.zero, boxSize);
            }
            else
            {
                FlockBounds[] shown = world != null ? bounds : PresetBounds(preset);
                foreach (FlockBounds b in shown)
                {
                    if (b.Kind == BoundsKind.SoftSphere)
                        Gizmos.DrawWireSphere(b.Centre.ToVector3(), b.Radius);
                    else if (b.Kind != BoundsKind.None)
                        Gizmos.DrawWireCube(((b.Min + b.Max) * 0.5f).ToVector3(), (b.Max - b.Min).ToVector3());
                }
            }
            Gizmos.matrix = Matrix4x4.identity;
        }

        void OnDisable()
        {
            // Disposing the world waits for a step in flight.
            stepping = false;
            flock = null;
            flocks = new BoidsFlock[0];
            sceneObstacles = null; // the world owns every obstacle and mesh
            if (world != null) world.Dispose();
            world = null;
        }
    }
}
