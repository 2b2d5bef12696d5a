// A MonoBehaviour that owns a native boids world with one flock, steps it in Update and draws
// every boid with Graphics.RenderMeshInstanced from the matrices the library writes directly into
// a Matrix4x4[] (no per-frame allocation, no per-boid call).
using System;
using Boids.Native;
using UnityEngine;

namespace Boids.Unity
{
    [AddComponentMenu("Boids/Boids Flock")]
    public sealed unsafe class BoidsFlock : MonoBehaviour
    {
        [Header("Set-up (read when enabled)")]
        [Tooltip("A preset name such as fish-tank; empty to use the parameters below.")]
        [SerializeField] string preset = "";
        [SerializeField] int count = 2000;
        [SerializeField] int seed = 1;
        [Tooltip("Worker threads; 0 = one per core.")]
        [SerializeField] int threads = 0;

        [Header("Parameters (live)")]
        [SerializeField] float perceptionRadius = 1f;
        [Range(0f, 180f)] [SerializeField] float fieldOfView = 90f;
        [SerializeField] float separationWeight = 5f;
        [SerializeField] float alignmentWeight = 2f;
        [SerializeField] float cohesionWeight = 3f;
        [SerializeField] float minSpeed = 2f;
        [SerializeField] float maxSpeed = 5f;
        [Tooltip("Size of the box around this object the flock stays in.")]
        [SerializeField] Vector3 boxSize = new Vector3(20f, 20f, 20f);
        [SerializeField] float wallDistance = 3f;

        [Header("Drawing")]
        [SerializeField] Mesh mesh;
        [SerializeField] Material material;
        [SerializeField] float scale = 0.3f;

        BoidsWorld world;
        global::Boids.BoidsFlock flock;
        Matrix4x4[] matrices = new Matrix4x4[0];
        bool paramsDirty;

        /// <summary>The native flock (null while disabled).</summary>
        public global::Boids.BoidsFlock Flock { get { return flock; } }

        void OnEnable()
        {
            world = new BoidsWorld((ulong)Math.Max(seed, 0), (uint)Math.Max(threads, 0));
            if (!string.IsNullOrEmpty(preset))
            {
                flock = world.CreatePreset(preset, name);
            }
            else
            {
                flock = world.CreateFlock(name, CurrentParams(global::Boids.BoidsFlock.DefaultParams()));
                BoidsSpawnDef spawn = global::Boids.BoidsFlock.DefaultSpawn();
                Vector3 c = transform.position, h = boxSize * 0.4f;
                spawn.min = new BoidsVec3(c.x - h.x, c.y - h.y, c.z - h.z);
                spawn.max = new BoidsVec3(c.x + h.x, c.y + h.y, c.z + h.z);
                flock.Spawn(Math.Max(count, 0), spawn);
            }
            matrices = new Matrix4x4[Math.Max(flock.Count, 1)];
        }

        void OnValidate()
        {
            paramsDirty = true;
        }

        BoidsFlockParams CurrentParams(BoidsFlockParams p)
        {
            p.perception_radius = perceptionRadius;
            p.separation_radius = perceptionRadius;
            p.fov_half_angle_deg = fieldOfView;
            p.weight_separation = separationWeight;
            p.weight_alignment = alignmentWeight;
            p.weight_cohesion = cohesionWeight;
            p.min_speed = minSpeed;
            p.max_speed = maxSpeed;
            Vector3 c = transform.position, h = boxSize * 0.5f;
            p.bounds.kind = BoidsConst.BOUNDS_SOFT_BOX;
            p.bounds.min = new BoidsVec3(c.x - h.x, c.y - h.y, c.z - h.z);
            p.bounds.max = new BoidsVec3(c.x + h.x, c.y + h.y, c.z + h.z);
            p.bounds.distance = wallDistance;
            return p;
        }

        void Update()
        {
            if (flock == null) return;
            if (paramsDirty && string.IsNullOrEmpty(preset))
            {
                paramsDirty = false;
                try { flock.Params = CurrentParams(flock.Params); }
                catch (BoidsException e) { Debug.LogError("Boids: " + e.Message); }
            }
            float dt = Mathf.Clamp(Time.deltaTime, 1e-4f, 0.1f);
            world.Step(dt);
            int n = flock.Count;
            if (matrices.Length < n) matrices = new Matrix4x4[n];
            fixed (Matrix4x4* m = matrices)
                n = flock.ReadMatrices((BoidsMat4*)m, matrices.Length, scale);
            if (mesh == null || material == null) return;
            RenderParams rp = new RenderParams(material);
            for (int start = 0; start < n; start += 1023)
                Graphics.RenderMeshInstanced(rp, mesh, 0, matrices, Math.Min(1023, n - start), start);
        }

        void OnDisable()
        {
            flock = null;
            if (world != null) world.Dispose();
            world = null;
        }
    }
}
