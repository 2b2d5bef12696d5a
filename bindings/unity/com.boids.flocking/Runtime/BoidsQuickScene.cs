// What the package's samples make when a scene lacks it (a camera, a light, a lit instanced
// material for the project's render pipeline), in one place; public, so a prototype scene built
// from code can use them too. Whatever they make, the caller destroys.
using UnityEngine;
using UnityEngine.Rendering;

namespace BoidsFlocking.UnityIntegration
{
    public static class BoidsQuickScene
    {
        /// <summary>The scene's Main Camera; when there is none, a new one (tagged MainCamera,
        /// cleared to background) on a new GameObject "Sample Camera", returned in made (else
        /// null).</summary>
        public static Camera MainCamera(Color background, out GameObject made)
        {
            made = null;
            Camera view = Camera.main;
            if (view != null) return view;
            made = new GameObject("Sample Camera");
            made.tag = "MainCamera";
            view = made.AddComponent<Camera>();
            view.clearFlags = CameraClearFlags.SolidColor;
            view.backgroundColor = background;
            return view;
        }

        /// <summary>A directional light "Sample Light" when the scene has no light at all (returned,
        /// for the caller to destroy); null when it has one.</summary>
        public static GameObject LightIfNone()
        {
#if UNITY_2023_1_OR_NEWER
            if (Object.FindAnyObjectByType<Light>() != null) return null;
#else
            if (Object.FindObjectOfType<Light>() != null) return null;
#endif
            var made = new GameObject("Sample Light");
            var sun = made.AddComponent<Light>();
            sun.type = LightType.Directional;
            made.transform.rotation = Quaternion.Euler(50f, -30f, 0f);
            return made;
        }

        /// <summary>A Boids Flock Controller on a new GameObject called name at position, the object
        /// inactive (returned in made) so that its set-up can be filled before SetActive(true)
        /// creates the world.</summary>
        public static BoidsFlockController NewController(string name, Vector3 position, out GameObject made)
        {
            made = new GameObject(name);
            made.transform.position = position;
            made.SetActive(false);
            return made.AddComponent<BoidsFlockController>();
        }

        /// <summary>A lit material with GPU instancing on, for the project's render pipeline:
        /// URP's or HDRP's Lit when one is active, else the built-in Standard. Shader.Find finds
        /// only shaders that are in the build: when none is, it logs a warning that names the
        /// shaders and what to assign instead (assign, on context) and returns null.</summary>
        public static Material LitInstanced(string name, Color colour, string assign, Object context)
        {
            string[] names;
            RenderPipelineAsset pipeline = GraphicsSettings.currentRenderPipeline;
            if (pipeline == null)
                names = new[] { "Standard" };
            else if (pipeline.GetType().Name.Contains("HDRenderPipeline"))
                names = new[] { "HDRP/Lit" };
            else
                names = new[] { "Universal Render Pipeline/Lit", "Universal Render Pipeline/Simple Lit" };
            foreach (string n in names)
            {
                Shader shader = Shader.Find(n);
                if (shader == null) continue;
                var made = new Material(shader);
                made.name = name;
                made.enableInstancing = true;
                made.color = colour;
                return made;
            }
            Debug.LogWarning(name + ": no shader " + string.Join(" or ", names) + " in this build; assign " + assign +
                " (an instanced, lit material).", context);
            return null;
        }
    }
}
