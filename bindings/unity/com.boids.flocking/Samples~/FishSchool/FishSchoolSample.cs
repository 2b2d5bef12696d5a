// Fish School sample: a school of 3,000 fish with a Boids Flock Controller, built at run time so
// it needs no .unity file. Add it to a GameObject in a scene and press Play. It uses the scene's
// Main Camera (or makes one when there is none) and circles it around the school; it adds a light
// only when the scene has none. Give it a material (any instanced, lit material of your render
// pipeline) or let it make one; whatever it makes it destroys again.
using BoidsFlocking.UnityIntegration;
using UnityEngine;

namespace BoidsFlocking.Samples
{
    public sealed class FishSchoolSample : MonoBehaviour
    {
        [Min(0)] [SerializeField] int fish = 3000;
        [SerializeField] Vector3 tankSize = new Vector3(40f, 20f, 40f);
        [Min(1f)] [SerializeField] float orbitSeconds = 60f;
        [Tooltip("The fish's material (Enable GPU Instancing ticked). Empty: a lit material for the project's render pipeline is made at run time, if its shader is in the build.")]
        [SerializeField] Material fishMaterial;

        Camera view;
        BoidsFlockController school;
        GameObject madeCamera, madeLight, schoolObject;
        Mesh madeMesh;
        Material madeMaterial;

        /// <summary>The controller this sample made (null before Start).</summary>
        public BoidsFlockController School { get { return school; } }

        /// <summary>The camera the sample circles: the scene's Main Camera, or its own.</summary>
        public Camera View { get { return view; } }

        void Start()
        {
            view = BoidsQuickScene.MainCamera(new Color(0.04f, 0.16f, 0.26f, 1f), out madeCamera);
            madeLight = BoidsQuickScene.LightIfNone();

            school = BoidsQuickScene.NewController("Fish School", transform.position, out schoolObject);
            school.Preset = FlockPreset.Custom;
            school.Count = fish;
            school.BoxSize = tankSize;
            madeMesh = FishMesh();
            school.Mesh = madeMesh;
            school.Material = fishMaterial != null ? fishMaterial : (madeMaterial = BoidsQuickScene.LitInstanced("Sample Fish", new Color(1f, 0.62f, 0.2f, 1f), "Fish Material on the Fish School sample", this));
            school.Scale = 0.5f;
            schoolObject.SetActive(true);
        }

        /// <summary>A small fish: a diamond body along +Z (the boids' forward) with a tail fin.</summary>
        static Mesh FishMesh()
        {
            var m = new Mesh();
            m.name = "Sample Fish";
            m.vertices = new[]
            {
                new Vector3(0f, 0f, 1f), new Vector3(0.25f, 0f, 0f), new Vector3(0f, 0.3f, 0f),
                new Vector3(-0.25f, 0f, 0f), new Vector3(0f, -0.3f, 0f), new Vector3(0f, 0f, -0.8f),
                new Vector3(0f, 0.3f, -1.2f), new Vector3(0f, -0.3f, -1.2f),
            };
            m.triangles = new[]
            {
                0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1,
                5, 2, 1, 5, 3, 2, 5, 4, 3, 5, 1, 4,
                5, 6, 7, 5, 7, 6,
            };
            m.RecalculateNormals();
            m.RecalculateBounds();
            return m;
        }

        void Update()
        {
            if (view == null || school == null || school.World == null) return;
            float a = Time.time * 6.2831853f / orbitSeconds;
            Vector3 c = transform.position;
            view.transform.position = c + new Vector3(Mathf.Sin(a) * 55f, 12f, Mathf.Cos(a) * 55f);
            view.transform.LookAt(c);
            school.SetObserver(view.transform.position);
        }

        void OnDestroy()
        {
            // What the sample made, it takes away (the scene's own camera and light stay).
            if (schoolObject != null) Destroy(schoolObject);
            if (madeCamera != null) Destroy(madeCamera);
            if (madeLight != null) Destroy(madeLight);
            if (madeMesh != null) Destroy(madeMesh);
            if (madeMaterial != null) Destroy(madeMaterial);
        }
    }
}
