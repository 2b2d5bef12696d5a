// The Boids Flock Controller component: owns a native world with one flock (or a preset's whole
// scene: its flocks, obstacles and targets), steps it, pushes inspector changes to the engine
// live in play mode, and draws every flock of the world with Graphics.RenderMeshInstanced in
// batches of 1023 from matrices the library writes straight into a Matrix4x4[] (no per-frame
// allocation, no per-boid call in C#).
//
// The world lives in this GameObject's local space: the preset's spawn, walls, rocks and targets
// (or the Custom box, centred on the object) are local coordinates, and the library multiplies
// every instance matrix by localToWorldMatrix when it writes them. Moving, rotating or scaling the
// object therefore carries the whole flock with it, as a child would.
//
// Time: with Fixed Step (on by default) the world advances in steps of Fixed Time Step, as many as
// the frame's time calls for (at most Max Steps Per Frame), so the result does not depend on the
// frame rate; with Interpolate the drawn boids are blended between the last two states, as a
// Rigidbody's are: in the world's (this object's local) space, then placed by the object's
// transform of the frame drawn, so a moving object does not shake its flock. Without Fixed Step,
// one step of Time.deltaTime (at most 0.1 s) a frame.
//
// Overlap Step (on by default): the steps run while Unity renders, all of a frame's steps in one
// begin (two at 30 fps with 1/60 s steps: none runs on the main thread; interpolated, the draw
// then blends from the state before them). BoidsFrameLoop ends them at the
// very start of the next frame and begins them after every LateUpdate, so from FixedUpdate to
// LateUpdate the world takes changes from any script in any order. Reading and drawing
// (BoidsFlockController.Drawing.cs) happen after every LateUpdate, in the frame loop's system
// just before the steps begin, so a parent moved by any script's LateUpdate carries the flock
// the same frame. Without Overlap Step, the steps run in Update.
using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.Rendering;
using UnityEngine.SceneManagement;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>The presets of the engine, and Custom for the inspector's own settings. (Values are
    /// what scenes store: new presets go at the end.)</summary>
    public enum FlockPreset
    {
        Custom = 0,
        FishTank = 1,
        GoalSwarm = 2,
        TargetFlock = 3,
        SteeringObstacles = 4,
        Flock2D = 5,
        Shark = 6,
        Reef = 7,
        /// <summary>Sheep walking over generated hills with a sheepdog and birds (its own
        /// terrain, in the engine: not a Unity Terrain).</summary>
        Herd = 8,
        /// <summary>Walkers crossing walled ground to a target behind a U-shaped wall, along a
        /// flow field (its own terrain and walls, in the engine: not Unity objects; Draw Flow
        /// Field shows the way).</summary>
        Maze = 9,
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
    public sealed partial class BoidsFlockController : MonoBehaviour
    {
        [Header("Set-up (read when enabled)")]
        [Tooltip("A preset starts from the engine's tuning of one of the classic Unity boids tutorials, with its whole scene (second flock, rocks, targets) in this object's local space; Custom uses the settings below.")]
        [SerializeField] FlockPreset preset = FlockPreset.Custom;
        [Tooltip("Boids of a Custom flock (presets bring their own count).")]
        [Min(0)] [SerializeField] int count = 2000;
        [SerializeField] int seed = 1;
        [Tooltip("Worker threads. -1: all cores but two, left to Unity's main thread and job workers (at least 1), and at most 2 on Android and iOS (heat, throttling, the render thread). 0: one per core. Controllers with the same count share one pool of workers.")]
        [Min(-1)] [SerializeField] int threads = -1;
        [Tooltip("Run the steps while Unity renders: all of a frame's steps begin together after every LateUpdate and end at the start of the next frame, so none runs on the main thread (two a frame at 30 fps) and scripts may change the world from FixedUpdate to LateUpdate in any order.")]
        [SerializeField] bool overlapStep = true;
        [Tooltip("Colliders on these layers become obstacles of the flock (boxes, spheres, capsules, meshes, terrains), read when enabled; moving ones (with a Rigidbody or a Boids Moving Obstacle) follow every frame.")]
        [SerializeField] LayerMask obstacleLayers;
        [Tooltip("Terrains and meshes on these layers become ground a walking flock (Walk, below) stands on; other colliders on them are obstacles. Read when enabled.")]
        [SerializeField] LayerMask groundLayers;

        [Header("Time")]
        [Tooltip("Advance in steps of Fixed Time Step, as many as the frame's time calls for: the same states at any frame rate. Off: one step of the frame's deltaTime.")]
        [SerializeField] bool fixedStep = true;
        [Min(0.001f)] [SerializeField] float fixedTimeStep = 1f / 60f;
        [Tooltip("Most steps one frame may take; time beyond is dropped (a long frame slows the flock rather than stalling the game).")]
        [Min(1)] [SerializeField] int maxStepsPerFrame = 4;
        [Tooltip("Draw the boids blended between the last two states (fixed steps only), as a Rigidbody's interpolation does.")]
        [SerializeField] bool interpolate = true;

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
        [Tooltip("A Custom flock walks on the ground (Ground Layers) instead of flying: steep slopes, big drops and obstacles are walls.")]
        [SerializeField] bool walk;
        [Range(0f, 89f)] [SerializeField] float maxSlope = 45f;
        [Tooltip("The most a walking boid climbs or drops in one step.")]
        [Min(0f)] [SerializeField] float stepHeight = 0.5f;
        [Tooltip("How far a walking boid's position is above its feet.")]
        [Min(0f)] [SerializeField] float pivotHeight = 0f;
        [Tooltip("Draw walking boids leaning with the ground (its normal as up) instead of upright.")]
        [SerializeField] bool leanWithGround;
        [Tooltip("Radius of each boid's body: bodies never overlap, nor enter obstacles (0: points).")]
        [Min(0f)] [SerializeField] float bodyRadius = 0f;
        // The preset whose values the settings above hold: a new preset's values are loaded once,
        // and edits made after that survive entering play mode.
        [HideInInspector] [SerializeField] FlockPreset settingsFrom = FlockPreset.Custom;

        [Header("Drawing")]
        [Tooltip("Mesh of each boid (+Z forward, +Y up).")]
        [SerializeField] Mesh mesh;
        [Tooltip("Material with Enable GPU Instancing ticked (without it, an instanced copy is drawn with, and a warning logged once).")]
        [SerializeField] Material material;
        [Min(0f)] [SerializeField] float scale = 0.3f;
        [Tooltip("Looks of the world's other flocks, in order (the shark preset's shark is the first). A flock without one is drawn with the mesh and material above.")]
        [SerializeField] FlockLook[] otherFlocks = new FlockLook[0];
        [Tooltip("Layer the boids are drawn on (cameras' culling masks apply).")]
        [Layer] [SerializeField] int layer;
        [SerializeField] ShadowCastingMode castShadows = ShadowCastingMode.On;
        [SerializeField] bool receiveShadows = true;
        [Tooltip("How the boids take light from light probes (baked lighting in scenes that have probes).")]
        [SerializeField] LightProbeUsage lightProbes = LightProbeUsage.BlendProbes;
        [Tooltip("How the boids take reflections from reflection probes.")]
        [SerializeField] ReflectionProbeUsage reflectionProbes = ReflectionProbeUsage.BlendProbes;
        [Tooltip("Rendering layers the boids are on (URP and HDRP light and decal layers).")]
        [SerializeField] uint renderingLayerMask = 1;
        [Tooltip("Per-object motion vectors: each boid's last-frame matrix goes with it, so TAA, DLSS, FSR and motion blur see the fish move (as a MeshRenderer's Per Object Motion). Off: camera motion only.")]
        [SerializeField] bool motionVectors = true;

        [Header("Debug")]
        [Tooltip("Draw the main flock's flow field with Gizmos (a walking flock with a target, in a world with a flow cell size, such as the Maze preset): arrows along the way to the target, on the ground, green near it and red far. Read from the engine only while on.")]
        [SerializeField] bool drawFlowField;
        [Tooltip("Most arrows along each side of the field: a larger field is drawn every few cells.")]
        [Min(1)] [SerializeField] int flowFieldArrows = 64;

        BoidsWorld world;
        BoidsFlock flock;
        BoidsFlock[] flocks = new BoidsFlock[0];
        FlockBounds[] bounds = new FlockBounds[0];
        // Per flock: the state before the newest (for interpolation) and the newest, both in the
        // world's (this object's local) space; what is drawn, in world space.
        Matrix4x4[][] previous = new Matrix4x4[0][], current = new Matrix4x4[0][], drawn = new Matrix4x4[0][];
        int[] previousCounts = new int[0], counts = new int[0];
        // What `drawn` holds when it is the newest state unblended: under which transform.
        Matrix4x4 drawnToWorld;
        bool drawnCurrent;
        bool dirty;
        bool stepping;
        // A state the draw has not read yet (steps ran since), and whether `previous` already
        // holds the state just before it (read between the steps of one frame).
        bool newState, previousReady;
        // Whether `current` holds the newest state's matrices (read for interpolation); without
        // interpolation only `counts` is kept, and the draw reads each state once.
        bool currentHeld;
        double accumulator;
        // How many steps lie between `previous` and `current`: more than 1 when a frame's steps
        // were begun together (the states between them never reach this side).
        int blendSteps = 1;
        long stepsTaken;
        BoidsSceneObstacles sceneObstacles;
        readonly Dictionary<Material, Material> instanced = new Dictionary<Material, Material>();
        readonly HashSet<Material> warned = new HashSet<Material>();
        readonly BoidsFlowOverlay flowOverlay = new BoidsFlowOverlay();

        /// <summary>Set-up, read when the component is enabled (set them on an inactive
        /// GameObject, then activate it).</summary>
        public FlockPreset Preset { get { return preset; } set { preset = value; } }
        public int Count { get { return count; } set { count = value; } }
        public int Seed { get { return seed; } set { seed = value; } }
        /// <summary>Worker threads (see the field's tooltip); read when enabled.</summary>
        public int Threads { get { return threads; } set { threads = value; } }
        /// <summary>Whether the steps overlap rendering (see the field's tooltip); may change at
        /// any time, and takes effect from the next frame.</summary>
        public bool OverlapStep { get { return overlapStep; } set { overlapStep = value; } }
        /// <summary>Steps of FixedTimeStep (the same states at any frame rate), or one step of
        /// deltaTime a frame.</summary>
        public bool FixedStep { get { return fixedStep; } set { fixedStep = value; } }
        public float FixedTimeStep { get { return fixedTimeStep; } set { fixedTimeStep = Math.Max(value, 0.001f); } }
        public int MaxStepsPerFrame { get { return maxStepsPerFrame; } set { maxStepsPerFrame = Math.Max(value, 1); } }
        /// <summary>Draw blended between the last two states (fixed steps only).</summary>
        public bool Interpolate { get { return interpolate; } set { interpolate = value; } }
        /// <summary>True while a step this component began runs (from the end of a frame's
        /// LateUpdates to the start of the next frame, with Overlap Step).</summary>
        public bool IsStepping { get { return stepping; } }
        /// <summary>Steps the world has taken since enabled.</summary>
        public long StepsTaken { get { return stepsTaken; } }
        /// <summary>The rules' settings (the inspector's Settings; a preset loads its own when
        /// enabled): pushed to the engine at the start of the next frame.</summary>
        public float PerceptionRadius { get { return perceptionRadius; } set { perceptionRadius = value; dirty = true; } }
        public float FovHalfAngle { get { return fovHalfAngle; } set { fovHalfAngle = value; dirty = true; } }
        public float SeparationWeight { get { return separationWeight; } set { separationWeight = value; dirty = true; } }
        public float AlignmentWeight { get { return alignmentWeight; } set { alignmentWeight = value; dirty = true; } }
        public float CohesionWeight { get { return cohesionWeight; } set { cohesionWeight = value; dirty = true; } }
        public float MinSpeed { get { return minSpeed; } set { minSpeed = value; dirty = true; } }
        public float MaxSpeed { get { return maxSpeed; } set { maxSpeed = value; dirty = true; } }
        public float WallDistance { get { return wallDistance; } set { wallDistance = value; dirty = true; } }
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
        public LightProbeUsage LightProbes { get { return lightProbes; } set { lightProbes = value; } }
        public ReflectionProbeUsage ReflectionProbes { get { return reflectionProbes; } set { reflectionProbes = value; } }
        public uint RenderingLayerMask { get { return renderingLayerMask; } set { renderingLayerMask = value; } }
        /// <summary>Per-object motion vectors (see the field's tooltip).</summary>
        public bool MotionVectors { get { return motionVectors; } set { motionVectors = value; } }
        /// <summary>Draw the main flock's flow field with Gizmos (see the field's tooltip).</summary>
        public bool DrawFlowField { get { return drawFlowField; } set { drawFlowField = value; } }
        /// <summary>Most arrows along each side of the drawn flow field.</summary>
        public int FlowFieldArrows { get { return flowFieldArrows; } set { flowFieldArrows = Math.Max(value, 1); } }
        /// <summary>The flow field's arrows as last read (while Draw Flow Field is on).</summary>
        public BoidsFlowOverlay FlowOverlay { get { return flowOverlay; } }
        /// <summary>Layers whose colliders become obstacles; read when enabled.</summary>
        public LayerMask ObstacleLayers { get { return obstacleLayers; } set { obstacleLayers = value; } }
        /// <summary>Layers whose terrains and meshes become ground; read when enabled.</summary>
        public LayerMask GroundLayers { get { return groundLayers; } set { groundLayers = value; } }
        /// <summary>A Custom flock walks on the ground.</summary>
        public bool Walk { get { return walk; } set { walk = value; } }
        public float MaxSlope { get { return maxSlope; } set { maxSlope = value; } }
        public float StepHeight { get { return stepHeight; } set { stepHeight = value; } }
        public float PivotHeight { get { return pivotHeight; } set { pivotHeight = value; } }
        public bool LeanWithGround { get { return leanWithGround; } set { leanWithGround = value; } }
        public float BodyRadius { get { return bodyRadius; } set { bodyRadius = value; } }

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

        /// <summary>How many times the controller has read a flock's matrices from the engine
        /// (each read is a pass over the flock: one per new state and flock, plus one for the
        /// state before the last step of a frame that took several, when interpolating).</summary>
        public long MatrixReads { get; private set; }

        /// <summary>Draws blend the last two states (fixed steps with interpolation on).</summary>
        bool Interpolating { get { return fixedStep && interpolate; } }

        static string PresetName(FlockPreset p)
        {
            switch (p)
            {
                case FlockPreset.FishTank: return "fish-tank";
                case FlockPreset.GoalSwarm: return "goal-swarm";
                case FlockPreset.TargetFlock: return "target-flock";
                case FlockPreset.SteeringObstacles: return "steering-obstacles";
                case FlockPreset.Flock2D: return "flock-2d";
                case FlockPreset.Reef: return "reef";
                case FlockPreset.Shark: return "shark";
                case FlockPreset.Herd: return "herd";
                case FlockPreset.Maze: return "maze";
                default: return null;
            }
        }

        /// <summary>The workers a phone gets by default (Threads = -1 on Android and iOS). A phone's
        /// 6 or 8 cores are not a desktop's: half are small, efficiency cores; every core
        /// running through the frame heats the phone until it throttles (a lower clock for the
        /// whole game); and Unity's main and render threads want the big cores. Two workers
        /// beside the main thread keep a step short without that. Set Threads to override.</summary>
        public const int PhoneWorkers = 2;

        /// <summary>Android and iOS: where Threads = -1 means at most <see cref="PhoneWorkers"/>.</summary>
        public static bool IsPhone(RuntimePlatform platform)
        {
            return platform == RuntimePlatform.Android || platform == RuntimePlatform.IPhonePlayer;
        }

        /// <summary>The threads setting as the world takes it, on the platform the game runs on.</summary>
        public static int WorkerThreads(int setting, int processorCount)
        {
            return WorkerThreads(setting, processorCount, IsPhone(Application.platform));
        }

        /// <summary>The threads setting as the world takes it: a setting of 0 or more as it is;
        /// -1 all cores but two (at least one), and at most <see cref="PhoneWorkers"/> on a phone.</summary>
        public static int WorkerThreads(int setting, int processorCount, bool phone)
        {
            if (setting >= 0) return setting;
            int spare = Math.Max(1, processorCount - 2);
            return phone ? Math.Min(PhoneWorkers, spare) : spare;
        }

        /// <summary>The inspector's settings take a newly chosen preset's values (once: later
        /// edits stay), from the generated table (no native library in edit mode).</summary>
        void LoadPresetSettings()
        {
            if (preset == settingsFrom) return;
            settingsFrom = preset;
            PresetTable.Entry e;
            if (!PresetTable.TryGet(PresetName(preset), out e)) return;
            perceptionRadius = e.PerceptionRadius;
            fovHalfAngle = Mathf.Min(e.FovHalfAngleDegrees, 180f);
            separationWeight = e.SeparationWeight;
            alignmentWeight = e.AlignmentWeight;
            cohesionWeight = e.CohesionWeight;
            minSpeed = e.MinSpeed;
            maxSpeed = e.MaxSpeed;
        }

        void OnEnable()
        {
            LoadPresetSettings();
            CheckMaterial(material);
            BoidsWorld made = null;
            try
            {
                made = new BoidsWorld((ulong)Math.Max(seed, 0), WorkerThreads(threads, SystemInfo.processorCount));
                string name = PresetName(preset);
                BoidsFlock main;
                if (name != null)
                {
                    main = made.CreatePreset(name, gameObject.name);
                    // The inspector's values (the preset's, unless edited) win.
                    main.Settings = Apply(main.Settings);
                }
                else
                {
                    main = made.CreateFlock(gameObject.name, Apply(new FlockSettings()));
                    Vec3 h = (boxSize * 0.4f).ToVec3();
                    main.Spawn(Math.Max(count, 0), SpawnSettings.Box(new Vec3(0f, 0f, 0f) - h, h));
                }
                if (obstacleLayers.value != 0 || groundLayers.value != 0)
                    sceneObstacles = new BoidsSceneObstacles(made, transform, obstacleLayers, groundLayers);
                world = made;
                flock = main;
                Collect();
                dirty = false;
                accumulator = 0;
                blendSteps = 1;
                stepsTaken = 0;
                newState = true;
                previousReady = false;
                drawnCurrent = false;
                SceneManager.sceneUnloaded += OnSceneUnloaded;
                BoidsFrameLoop.Add(this);
            }
            catch (Exception e)
            {
                // A half-made world is freed, never leaked; the component switches itself off.
                if (made != null) made.Dispose();
                world = null;
                flock = null;
                flocks = new BoidsFlock[0];
                sceneObstacles = null;
                Debug.LogException(e, this);
                enabled = false;
            }
        }

        /// <summary>The obstacles of an unloaded scene's colliders leave the world.</summary>
        void OnSceneUnloaded(Scene scene)
        {
            if (sceneObstacles == null || world == null) return;
            FinishStep();
            sceneObstacles.DropScene(scene);
        }

        /// <summary>The world's flocks (main first, while it lives), their bounds, and matrix
        /// buffers each. Again whenever a flock was destroyed or created through World.</summary>
        void Collect()
        {
            var all = new List<BoidsFlock>();
            if (flock != null && flock.IsValid) all.Add(flock);
            foreach (BoidsFlock f in world.Flocks())
                if (!f.Equals(flock)) all.Add(f);
            if (flock == null || !flock.IsValid) flock = all.Count > 0 ? all[0] : null;
            flocks = all.ToArray();
            int n = flocks.Length;
            bounds = new FlockBounds[n];
            previous = new Matrix4x4[n][];
            current = new Matrix4x4[n][];
            drawn = new Matrix4x4[n][];
            previousCounts = new int[n];
            counts = new int[n];
            ResetDrawing(n);
            for (int i = 0; i < n; i++)
            {
                bounds[i] = flocks[i].Bounds;
                int c = Math.Max(flocks[i].Count, 1);
                previous[i] = new Matrix4x4[c];
                current[i] = new Matrix4x4[c];
                drawn[i] = new Matrix4x4[c];
            }
            flockCount = world.FlockCount;
            newState = true;
            previousReady = false;
            drawnCurrent = false;
        }

        int flockCount;

        /// <summary>Whether the flock list is out of date: a flock destroyed (by a script, say) or
        /// created through World since it was made. Allocates nothing.</summary>
        bool FlocksChanged()
        {
            if (world.FlockCount != flockCount) return true;
            for (int i = 0; i < flocks.Length; i++)
                if (!flocks[i].IsValid) return true;
            return false;
        }

        void OnValidate()
        {
            LoadPresetSettings();
            CheckMaterial(material);
            dirty = true;
        }

        /// <summary>Warns once about a material without GPU instancing (RenderMeshInstanced
        /// refuses it); the draw uses an instanced copy.</summary>
        void CheckMaterial(Material m)
        {
            if (m == null || m.enableInstancing || warned.Contains(m)) return;
            warned.Add(m);
            Debug.LogWarning("Boids: material '" + m.name + "' does not have Enable GPU Instancing ticked; drawing with an " +
                "instanced copy made at run time. In a player build that copy may draw nothing or the wrong variant: with " +
                "Project Settings > Graphics > Instancing Variants = Strip Unused (the default), a build keeps a shader's " +
                "instancing variant only when a material in the build has instancing on. Tick Enable GPU Instancing on this material.", this);
        }

        /// <summary>The material to draw with: m itself, or its instanced copy (made once).</summary>
        Material Drawable(Material m)
        {
            if (m == null || m.enableInstancing) return m;
            Material copy;
            if (!instanced.TryGetValue(m, out copy) || copy == null)
            {
                CheckMaterial(m);
                copy = new Material(m);
                copy.name = m.name + " (instanced)";
                copy.enableInstancing = true;
                instanced[m] = copy;
            }
            return copy;
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
                s.Grounded = walk;
                s.GroundMaxSlopeDegrees = maxSlope;
                s.GroundStepHeight = stepHeight;
                s.GroundPivotHeight = pivotHeight;
                s.GroundUp = leanWithGround ? GroundUp.Normal : GroundUp.World;
                s.BodyRadius = bodyRadius;
            }
            return s;
        }

        /// <summary>Ends the step this component began, if one is running (waiting for it), so
        /// the world takes changes again. The frame loop does this at the start of every frame;
        /// call it only to change the world from a rendering callback or an end-of-frame
        /// coroutine, the one window in which a step runs.</summary>
        public void FinishStep()
        {
            if (world == null || !stepping) return;
            try { world.EndStep(); }
            catch (BoidsException e) { Debug.LogError("Boids: the step failed: " + e.Message, this); }
            // From the world, whatever happened: a failed end never leaves this flag wrong.
            stepping = world.IsStepping;
            newState = true;
        }

        /// <summary>Sets the world's observer (sleep and wake regions) from a point in world
        /// space, e.g. the camera's position.</summary>
        public void SetObserver(Vector3 worldPoint)
        {
            if (world == null) return;
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

        /// <summary>BoidsFrameLoop, first thing in the frame: the step begun last frame becomes
        /// the state; edited settings reach the engine.</summary>
        internal void FrameStart()
        {
            if (world == null) return;
            drewInLateUpdate = false;
            FinishStep();
            if (FlocksChanged()) Collect();
            if (dirty && flock != null)
            {
                dirty = false;
                try
                {
                    flock.Settings = Apply(flock.Settings);
                }
                catch (BoidsException e) { Debug.LogError("Boids: " + e.Message, this); }
            }
            // Every flock's culling box, as scripts may have changed any (no allocation).
            for (int i = 0; i < flocks.Length; i++) bounds[i] = flocks[i].Bounds;
        }

        void Update()
        {
            // Without overlap, the frame's steps run here, before the draw.
            if (world != null && !overlapStep) RunSteps(false);
        }

        /// <summary>BoidsFrameLoop, after every LateUpdate: the frame's steps begin (the last
        /// runs while Unity renders).</summary>
        internal void FrameEnd()
        {
            if (world != null && overlapStep && !stepping) RunSteps(true);
        }

        /// <summary>The steps the frame's time calls for: all begun together on the workers when
        /// <paramref name="begin"/>, else all run here.</summary>
        void RunSteps(bool begin)
        {
            float dt = Time.deltaTime;
            // A paused game (timeScale 0) steps nothing; the flock is still drawn.
            if (!(dt > 0f)) return;
            // Moving colliders where this frame's scripts, animation and physics left them.
            if (sceneObstacles != null) sceneObstacles.Sync();
            int n;
            float h;
            if (fixedStep)
            {
                h = fixedTimeStep;
                accumulator += dt;
                n = (int)Math.Floor(accumulator / h);
                if (n > maxStepsPerFrame)
                {
                    n = maxStepsPerFrame;
                    accumulator = 0; // the time beyond the cap is dropped
                }
                else
                {
                    accumulator -= n * (double)h;
                }
            }
            else
            {
                h = Mathf.Min(dt, 0.1f);
                n = 1;
            }
            if (n == 0) return;
            if (begin)
            {
                // One begin for all of them (the same bits as one by one): none runs on this
                // thread. Interpolated, the draw blends from the state drawn before them.
                world.BeginSteps(h, n);
                stepping = true;
                stepsTaken += n;
                newState = true;
                blendSteps = n;
                return;
            }
            blendSteps = 1;
            for (int k = 0; k < n; k++)
            {
                bool last = k == n - 1;
                if (last && n > 1 && Interpolating)
                {
                    // The state just before the last step, for interpolation.
                    ReadInto(previous, previousCounts);
                    previousReady = true;
                }
                world.Step(h);
                stepsTaken++;
                newState = true;
            }
        }

        int endRunsSeen = -1;
        // Drawn in LateUpdate this frame (the player loop had lost its systems): the frame loop's
        // draw then skips, so the flock is drawn once.
        bool drewInLateUpdate;

        void LateUpdate()
        {
            if (world == null) return;
            // The frame loop's end system ran since the last LateUpdate, unless a script replaced
            // the player loop: then put the two systems back (from the next frame on), and read
            // and draw here this frame.
            if (endRunsSeen == BoidsFrameLoop.EndRuns)
            {
                BoidsFrameLoop.Install();
                ReadAndDraw();
                drewInLateUpdate = true;
            }
            endRunsSeen = BoidsFrameLoop.EndRuns;
        }

        /// <summary>BoidsFrameLoop, after every LateUpdate (before any step begins): the newest
        /// state read and drawn, placed by the transform as every script left it.</summary>
        internal void FrameDraw()
        {
            if (world == null) return;
            if (drewInLateUpdate)
            {
                drewInLateUpdate = false;
                return;
            }
            ReadAndDraw();
        }

        void OnDrawGizmos()
        {
            // From C# alone (the generated preset table in edit mode): no native library is
            // loaded, so the editor never holds it locked.
            Gizmos.color = new Color(0.3f, 0.8f, 1f, 0.6f);
            Gizmos.matrix = transform.localToWorldMatrix;
            if (preset == FlockPreset.Custom)
            {
                Gizmos.DrawWireCube(Vector3.zero, boxSize);
            }
            else
            {
                FlockBounds[] shown = bounds;
                PresetTable.Entry e;
                if (world == null && PresetTable.TryGet(PresetName(preset), out e)) shown = e.Bounds;
                foreach (FlockBounds b in shown)
                {
                    if (b.Kind == BoundsKind.SoftSphere)
                        Gizmos.DrawWireSphere(b.Centre.ToVector3(), b.Radius);
                    else if (b.Kind != BoundsKind.None)
                        Gizmos.DrawWireCube(((b.Min + b.Max) * 0.5f).ToVector3(), (b.Max - b.Min).ToVector3());
                }
            }
            Gizmos.matrix = Matrix4x4.identity;
            if (drawFlowField && world != null) flowOverlay.Draw(transform.localToWorldMatrix);
        }

        void OnDisable()
        {
            BoidsFrameLoop.Remove(this);
            SceneManager.sceneUnloaded -= OnSceneUnloaded;
            // Disposing the world cancels a step in flight no worker has started, and waits for one
            // that is running.
            stepping = false;
            flock = null;
            flocks = new BoidsFlock[0];
            sceneObstacles = null; // the world owns every obstacle and mesh
            if (world != null) world.Dispose();
            world = null;
            foreach (Material copy in instanced.Values)
                if (copy != null) Destroy(copy);
            instanced.Clear();
        }
    }
}
