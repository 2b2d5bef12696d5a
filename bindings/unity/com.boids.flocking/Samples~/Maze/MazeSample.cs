// Maze sample: the Maze preset (1,000 walkers crossing walled ground to a target behind a U-shaped
// wall whose cup opens toward them) with its flow field drawn. Add it to a GameObject in a scene
// and press Play. The ground and the walls are the preset's own, in the engine; the sample draws
// them from the engine's triangles as one mesh, so what you see is what the walkers walk on. The
// controller's Draw Flow Field is on: the arrows of the way to the target show in the Scene view,
// and in the Game view with Gizmos on. It uses the scene's Main Camera (or makes one) and looks
// down on the maze; it adds a light only when the scene has none. Whatever it makes it destroys.
using BoidsFlocking.UnityIntegration;
using UnityEngine;
using UnityEngine.Rendering;

namespace BoidsFlocking.Samples
{
    public sealed class MazeSample : MonoBehaviour
    {
        [Tooltip("The walkers' material (Enable GPU Instancing ticked). Empty: a lit material for the project's render pipeline is made at run time, if its shader is in the build.")]
        [SerializeField] Material walkerMaterial;
        [Tooltip("The ground's and walls' material. Empty: made at run time, as the walkers' is.")]
        [SerializeField] Material groundMaterial;

        Camera view;
        BoidsFlockController walkers;
        GameObject madeCamera, madeLight, mazeObject, ground;
        Mesh madeMesh, madeGround;
        Material madeMaterial, madeGroundMaterial;

        /// <summary>The walkers' controller (null before Start).</summary>
        public BoidsFlockController Walkers { get { return walkers; } }
        /// <summary>The ground and walls drawn from the engine's triangles (null before Start).</summary>
        public GameObject Ground { get { return ground; } }
        /// <summary>The camera the sample looks through: the scene's Main Camera, or its own.</summary>
        public Camera View { get { return view; } }
        /// <summary>Walkers at the target (within its arrival radius) as of the last frame.</summary>
        public int AtTarget { get; private set; }

        void Start()
        {
            view = BoidsQuickScene.MainCamera(new Color(0.62f, 0.75f, 0.85f, 1f), out madeCamera);
            madeLight = BoidsQuickScene.LightIfNone();

            walkers = BoidsQuickScene.NewController("Maze", transform.position, out mazeObject);
            walkers.Preset = FlockPreset.Maze;
            walkers.DrawFlowField = true;
            madeMesh = WalkerMesh();
            walkers.Mesh = madeMesh;
            walkers.Material = walkerMaterial != null ? walkerMaterial
                : (madeMaterial = BoidsQuickScene.LitInstanced("Sample Walker", new Color(0.95f, 0.55f, 0.2f, 1f), "Walker Material on the Maze sample", this));
            walkers.Scale = 1f;
            mazeObject.SetActive(true);
            if (walkers.World == null) return; // the controller logged why it could not start

            // The preset's ground (a heightfield) and walls (boxes) as one mesh in the maze's
            // space, both windings (the engine's triangles face either way).
            Vec3[] corners = walkers.World.ReadSceneTriangles();
            var vertices = new Vector3[corners.Length];
            var triangles = new int[2 * corners.Length];
            for (int i = 0; i < corners.Length; i++) vertices[i] = corners[i].ToVector3();
            for (int t = 0; t < corners.Length; t += 3)
            {
                triangles[t] = t; triangles[t + 1] = t + 1; triangles[t + 2] = t + 2;
                int b = corners.Length + t;
                triangles[b] = t; triangles[b + 1] = t + 2; triangles[b + 2] = t + 1;
            }
            madeGround = new Mesh();
            madeGround.name = "Sample Maze";
            madeGround.indexFormat = IndexFormat.UInt32; // 51,200 hill triangles: over 65,535 vertices
            madeGround.vertices = vertices;
            madeGround.triangles = triangles;
            madeGround.RecalculateNormals();
            madeGround.RecalculateBounds();
            ground = new GameObject("Sample Maze");
            ground.transform.position = transform.position;
            ground.AddComponent<MeshFilter>().sharedMesh = madeGround;
            ground.AddComponent<MeshRenderer>().sharedMaterial = groundMaterial != null ? groundMaterial
                : (madeGroundMaterial = BoidsQuickScene.LitInstanced("Sample Maze Ground", new Color(0.55f, 0.6f, 0.45f, 1f), "Ground Material on the Maze sample", this));

            // Above the walkers' start in the west, looking east over the U to the target.
            view.transform.position = transform.position + new Vector3(-110f, 90f, 0f);
            view.transform.LookAt(transform.position + new Vector3(10f, 0f, 0f));
        }

        /// <summary>A walker: a diamond 0.8 tall pointing along +Z (the boids' forward), its feet
        /// at y = -0.4 (the preset's pivot height).</summary>
        static Mesh WalkerMesh()
        {
            var m = new Mesh();
            m.name = "Sample Walker";
            m.vertices = new[]
            {
                new Vector3(0f, 0.4f, 0f), new Vector3(0f, -0.4f, 0f), new Vector3(0f, 0f, 0.5f),
                new Vector3(0.3f, 0f, 0f), new Vector3(0f, 0f, -0.3f), new Vector3(-0.3f, 0f, 0f),
            };
            m.triangles = new[]
            {
                0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 2,
                1, 3, 2, 1, 4, 3, 1, 5, 4, 1, 2, 5,
            };
            m.RecalculateNormals();
            m.RecalculateBounds();
            return m;
        }

        void Update()
        {
            if (walkers == null || walkers.Flock == null) return;
            // A count of the state before a step in flight: allowed while it runs.
            AtTarget = walkers.Flock.CountAtTarget();
        }

        void OnDestroy()
        {
            // What the sample made, it takes away (the scene's own camera and light stay).
            if (mazeObject != null) Destroy(mazeObject);
            if (ground != null) Destroy(ground);
            if (madeGround != null) Destroy(madeGround);
            if (madeGroundMaterial != null) Destroy(madeGroundMaterial);
            if (madeCamera != null) Destroy(madeCamera);
            if (madeLight != null) Destroy(madeLight);
            if (madeMesh != null) Destroy(madeMesh);
            if (madeMaterial != null) Destroy(madeMaterial);
        }
    }
}
