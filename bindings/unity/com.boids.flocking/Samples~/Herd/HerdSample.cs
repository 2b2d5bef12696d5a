// Herd sample: 2,000 sheep walking on a Unity Terrain, built at run time so it needs no .unity
// file. Add it to a GameObject in a scene and press Play. It makes a 128 x 128 Terrain of hills
// with a ridge too steep for the sheep and a ravine they must not walk into, rocks (spheres) and a
// fence (boxes), all on one layer (Ground Layer): the sheep's Boids Flock Controller takes that
// layer's Terrain as ground and its other colliders as obstacles. It uses the scene's Main
// Camera (or makes one) and circles it around the herd; it adds a light only when the scene has
// none. Whatever it makes it destroys again. The hills are placed at the GameObject's position
// (a Terrain does not turn or scale: the sample ignores its rotation and scale).
using BoidsFlocking.UnityIntegration;
using UnityEngine;

namespace BoidsFlocking.Samples
{
    public sealed class HerdSample : MonoBehaviour
    {
        /// <summary>The hills' side, in units (a heightmap of Resolution samples a side).</summary>
        public const float Side = 128f;
        /// <summary>Heightmap samples a side: one a unit.</summary>
        public const int Resolution = 129;
        /// <summary>The height of a heightmap value of 1.</summary>
        public const float Top = 20f;
        /// <summary>The sheep's steepest walkable slope, degrees.</summary>
        public const float SheepMaxSlope = 35f;

        [Min(0)] [SerializeField] int sheep = 2000;
        [Tooltip("The layer the sample puts its hills, rocks and fence on: the sheep's ground (the Terrain) and obstacles (the rest). Pick a layer nothing else in the scene uses.")]
        [Layer] [SerializeField] int groundLayer = 8;
        [Min(1f)] [SerializeField] float orbitSeconds = 90f;
        [Tooltip("The sheep's material (Enable GPU Instancing ticked). Empty: a lit material for the project's render pipeline is made at run time, if its shader is in the build.")]
        [SerializeField] Material sheepMaterial;

        Camera view;
        BoidsFlockController herd;
        GameObject madeCamera, madeLight, herdObject, hills;
        readonly System.Collections.Generic.List<GameObject> props = new System.Collections.Generic.List<GameObject>();
        TerrainData madeTerrain;
        Mesh madeMesh;
        Material madeMaterial;

        /// <summary>The sheep's controller (null before Start).</summary>
        public BoidsFlockController Herd { get { return herd; } }
        /// <summary>The Terrain the sample made (null before Start).</summary>
        public GameObject Hills { get { return hills; } }
        /// <summary>The rocks and fence boards the sample made.</summary>
        public System.Collections.Generic.IList<GameObject> Props { get { return props; } }
        /// <summary>The camera the sample circles: the scene's Main Camera, or its own.</summary>
        public Camera View { get { return view; } }
        public int GroundLayer { get { return groundLayer; } set { groundLayer = value; } }
        public int Sheep { get { return sheep; } set { sheep = value; } }

        /// <summary>The hills' height at (x, z), in the Terrain's own space (0..Side): rolling
        /// hills between 6.5 and 9.5; a ridge along x = 88 rising 4 over 1.5 units each side (69°,
        /// a wall to the sheep); a ravine along z = 100, 5 deep with sides falling over one unit
        /// (a drop). Always between 1 and 14, inside the Terrain's 0..Top (a heightmap holds only
        /// 0..1 of its height: Unity clamps the rest).</summary>
        public static float Height(float x, float z)
        {
            float h = 8f + 1.5f * Mathf.Sin(x / 9f) * Mathf.Cos(z / 11f);
            float ridge = 4f * (1f - System.Math.Abs(x - 88f) / 1.5f);
            if (ridge > 0f) h += ridge;
            float ravine = System.Math.Abs(z - 100f);
            if (ravine < 4f) h -= ravine < 3f ? 5f : 5f * (4f - ravine);
            return h;
        }

        void Start()
        {
            view = BoidsQuickScene.MainCamera(new Color(0.55f, 0.72f, 0.86f, 1f), out madeCamera);
            madeLight = BoidsQuickScene.LightIfNone();

            // The hills: a Terrain and its collider on the ground layer.
            Vector3 corner = transform.position - new Vector3(Side * 0.5f, 0f, Side * 0.5f);
            madeTerrain = new TerrainData();
            madeTerrain.name = "Sample Hills";
            madeTerrain.heightmapResolution = Resolution;
            madeTerrain.size = new Vector3(Side, Top, Side);
            var heights = new float[Resolution, Resolution];
            float cell = Side / (Resolution - 1);
            for (int j = 0; j < Resolution; j++)
                for (int i = 0; i < Resolution; i++)
                    heights[j, i] = Height(i * cell, j * cell) / Top;
            madeTerrain.SetHeights(0, 0, heights);
            hills = new GameObject("Sample Hills");
            hills.layer = groundLayer;
            hills.transform.position = corner;
            hills.AddComponent<Terrain>().terrainData = madeTerrain;
            hills.AddComponent<TerrainCollider>().terrainData = madeTerrain;

            // Rocks west of the ridge, half sunk; a fence of 12 boards across the south-west.
            var rng = new System.Random(7);
            for (int k = 0; k < 12; k++)
            {
                float x = 12f + (float)rng.NextDouble() * 70f, z = 12f + (float)rng.NextDouble() * 80f;
                float size = 2f + (float)rng.NextDouble() * 3f;
                Prop(PrimitiveType.Sphere, "Sample Rock", corner + new Vector3(x, Height(x, z), z), new Vector3(size, size * 0.7f, size));
            }
            for (int k = 0; k < 12; k++)
            {
                float x = 10f + k * 2f, z = 34f;
                Prop(PrimitiveType.Cube, "Sample Fence", corner + new Vector3(x + 1f, Height(x + 1f, z) + 0.3f, z), new Vector3(2f, 2.6f, 0.2f));
            }

            // The sheep: a walking Custom flock in a box over the hills' west (the ground layer
            // gives the Terrain as ground, the rocks and boards as obstacles).
            herd = BoidsQuickScene.NewController("Herd", transform.position, out herdObject);
            herd.Preset = FlockPreset.Custom;
            herd.Count = sheep;
            herd.GroundLayers = 1 << groundLayer;
            herd.Walk = true;
            herd.MaxSlope = SheepMaxSlope;
            herd.StepHeight = 0.6f;
            herd.PivotHeight = 0.5f;
            herd.BodyRadius = 0.4f;
            herd.LeanWithGround = true;
            herd.PerceptionRadius = 2.5f;
            herd.FovHalfAngle = 150f;
            herd.SeparationWeight = 2f;
            herd.AlignmentWeight = 1f;
            herd.CohesionWeight = 0.8f;
            herd.MinSpeed = 0f;
            herd.MaxSpeed = 2.5f;
            herd.BoxSize = new Vector3(Side - 12f, 2f * Top, Side - 12f);
            madeMesh = SheepMesh();
            herd.Mesh = madeMesh;
            herd.Material = sheepMaterial != null ? sheepMaterial : (madeMaterial = BoidsQuickScene.LitInstanced("Sample Sheep", new Color(0.93f, 0.91f, 0.85f, 1f), "Sheep Material on the Herd sample", this));
            herd.Scale = 1f;
            herdObject.SetActive(true);
        }

        void Prop(PrimitiveType type, string name, Vector3 at, Vector3 size)
        {
            GameObject go = GameObject.CreatePrimitive(type);
            go.name = name;
            go.layer = groundLayer;
            go.transform.position = at;
            go.transform.localScale = size;
            props.Add(go);
        }

        /// <summary>A sheep: a box of a body along +Z (the boids' forward) with a head in front,
        /// its feet at y = -0.5 (the flock's pivot height).</summary>
        static Mesh SheepMesh()
        {
            var m = new Mesh();
            m.name = "Sample Sheep";
            var v = new System.Collections.Generic.List<Vector3>();
            var t = new System.Collections.Generic.List<int>();
            Box(v, t, new Vector3(-0.35f, -0.2f, -0.6f), new Vector3(0.35f, 0.4f, 0.5f));
            Box(v, t, new Vector3(-0.15f, 0.1f, 0.5f), new Vector3(0.15f, 0.45f, 0.85f));
            Box(v, t, new Vector3(-0.3f, -0.5f, -0.5f), new Vector3(0.3f, -0.2f, 0.4f));
            m.vertices = v.ToArray();
            m.triangles = t.ToArray();
            m.RecalculateNormals();
            m.RecalculateBounds();
            return m;
        }

        static void Box(System.Collections.Generic.List<Vector3> v, System.Collections.Generic.List<int> t, Vector3 lo, Vector3 hi)
        {
            int b = v.Count;
            for (int k = 0; k < 8; k++)
                v.Add(new Vector3((k & 1) == 0 ? lo.x : hi.x, (k & 2) == 0 ? lo.y : hi.y, (k & 4) == 0 ? lo.z : hi.z));
            int[] faces = { 0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5 };
            for (int f = 0; f < 24; f += 4)
            {
                t.Add(b + faces[f]); t.Add(b + faces[f + 1]); t.Add(b + faces[f + 2]);
                t.Add(b + faces[f]); t.Add(b + faces[f + 2]); t.Add(b + faces[f + 3]);
            }
        }

        void Update()
        {
            if (view == null || herd == null || herd.World == null) return;
            float a = Time.time * 6.2831853f / orbitSeconds;
            Vector3 c = transform.position + new Vector3(0f, 6f, 0f);
            view.transform.position = c + new Vector3(Mathf.Sin(a) * 80f, 40f, Mathf.Cos(a) * 80f);
            view.transform.LookAt(c);
            herd.SetObserver(view.transform.position);
        }

        void OnDestroy()
        {
            // What the sample made, it takes away (the scene's own camera and light stay).
            if (herdObject != null) Destroy(herdObject);
            foreach (GameObject p in props) if (p != null) Destroy(p);
            if (hills != null) Destroy(hills);
            if (madeTerrain != null) Destroy(madeTerrain);
            if (madeCamera != null) Destroy(madeCamera);
            if (madeLight != null) Destroy(madeLight);
            if (madeMesh != null) Destroy(madeMesh);
            if (madeMaterial != null) Destroy(madeMaterial);
        }
    }
}
