// Fish School sample: builds its whole scene at run time (camera, light, a fish mesh, an
// instanced material) and a school of 3,000 fish with a Boids Flock Controller, so it needs no
// .unity file. Add it to an empty GameObject in an empty scene and press Play. The camera circles
// the school; the world's observer follows the camera.
using Boids.Unity;
using UnityEngine;

namespace Boids.Samples
{
    public sealed class FishSchoolSample : MonoBehaviour
    {
        [SerializeField] int fish = 3000;
        [SerializeField] Vector3 tankSize = new Vector3(40f, 20f, 40f);
        [SerializeField] float orbitSeconds = 60f;

        Camera view;
        BoidsFlockController school;

        /// <summary>The controller this sample made (null before Start).</summary>
        public BoidsFlockController School { get { return school; } }

        void Start()
        {
            view = new GameObject("Sample Camera").AddComponent<Camera>();
            view.clearFlags = CameraClearFlags.SolidColor;
            view.backgroundColor = new Color(0.04f, 0.16f, 0.26f, 1f);
            var sun = new GameObject("Sample Light").AddComponent<Light>();
            sun.type = LightType.Directional;
            sun.transform.rotation = Quaternion.Euler(50f, -30f, 0f);

            var go = new GameObject("Fish School");
            go.transform.position = transform.position;
            go.SetActive(false);
            school = go.AddComponent<BoidsFlockController>();
            school.Preset = FlockPreset.Custom;
            school.Count = fish;
            school.BoxSize = tankSize;
            school.Mesh = FishMesh();
            school.Material = FishMaterial();
            school.Scale = 0.5f;
            go.SetActive(true);
        }

        /// <summary>A small fish: a diamond body along +Z (the boids' forward) with a tail fin.</summary>
        static Mesh FishMesh()
        {
            var m = new Mesh();
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

        /// <summary>A lit, instanced material for whichever render pipeline the project uses.</summary>
        static Material FishMaterial()
        {
            Shader shader = Shader.Find("Universal Render Pipeline/Lit");
            if (shader == null) shader = Shader.Find("HDRP/Lit");
            if (shader == null) shader = Shader.Find("Standard");
            var mat = new Material(shader);
            mat.enableInstancing = true;
            mat.color = new Color(1f, 0.62f, 0.2f, 1f);
            return mat;
        }

        void Update()
        {
            if (view == null || school == null || school.World == null) return;
            float a = Time.time * 6.2831853f / orbitSeconds;
            Vector3 c = transform.position;
            view.transform.position = c + new Vector3(Mathf.Sin(a) * 55f, 12f, Mathf.Cos(a) * 55f);
            view.transform.LookAt(c);
            school.World.SetObserver(view.transform.position.ToVec3());
        }
    }
}
