// A stand-in for the UnityEngine members the package uses, so Mono's mcs (C# 7.2) can compile the
// package's scripts and samples, and the Mono tests can run the component's engine calls. Every
// member the package uses is declared with the signature of Unity 2022.3's API reference (a
// wrong member fails the compile check), with one unavoidable difference: RenderMeshInstanced's
// `where T : unmanaged` is `where T : struct` here (C# 7.3; callers compile the same). The
// bodies are the least that lets the tests run, except the transform math (Quaternion.Euler in
// Unity's Z-X-Y order, Matrix4x4.TRS, TransformPoint), which follows Unity's conventions so the
// tests can check where the component draws: this is not Unity and says nothing about rendering
// inside Unity. Members marked "stand-in only" do not exist in Unity.
using System;
using System.Collections.Generic;
using System.Reflection;

namespace UnityEngine
{
    public class Object
    {
        /// <summary>Stand-in only: every object Destroy was called on, in order.</summary>
        public static readonly List<Object> StandInDestroyed = new List<Object>();
        internal bool destroyed;

        public string name { get; set; }

        public static void Destroy(Object obj)
        {
            if (ReferenceEquals(obj, null) || obj.destroyed) return;
            obj.destroyed = true;
            StandInDestroyed.Add(obj);
            var go = obj as GameObject;
            if (!ReferenceEquals(go, null)) go.StandInDestroy();
        }

        public static T FindObjectOfType<T>() where T : Object
        {
            foreach (GameObject go in GameObject.StandInAll)
            {
                if (!go.activeSelf) continue;
                foreach (Component c in go.StandInComponents)
                {
                    var t = c as T;
                    if (t != null) return t;
                }
            }
            return null;
        }

        public static T[] FindObjectsByType<T>(FindObjectsSortMode mode) where T : Object
        {
            var found = new List<T>();
            foreach (GameObject go in GameObject.StandInAll)
            {
                if (!go.activeSelf) continue;
                foreach (Component c in go.StandInComponents)
                {
                    var t = c as T;
                    if (t != null) found.Add(t);
                }
            }
            return found.ToArray();
        }

        // Unity's == says a destroyed object equals null.
        static bool Dead(Object o) { return ReferenceEquals(o, null) || o.destroyed; }
        public static bool operator ==(Object a, Object b) { return Dead(a) && Dead(b) || ReferenceEquals(a, b); }
        public static bool operator !=(Object a, Object b) { return !(a == b); }
        public static implicit operator bool(Object o) { return !Dead(o); }
        public override bool Equals(object o) { return ReferenceEquals(this, o); }
        public override int GetHashCode() { return base.GetHashCode(); }
    }

    public class Component : Object
    {
        internal GameObject go;
        /// <summary>As Unity: a component's name is its GameObject's.</summary>
        public new string name { get { return go.name; } set { go.name = value; } }
        public GameObject gameObject { get { return go; } }
        public Transform transform { get { return go.transform; } }
        public string tag { get { return go.tag; } }
        public T GetComponent<T>() where T : Component { return go.GetComponent<T>(); }
    }

    public class Behaviour : Component { public bool enabled { get; set; } = true; }

    // Physics and terrain colliders: what BoidsSceneObstacles reads of them.
    public class Collider : Component
    {
        public bool enabled { get; set; } = true;
        public bool isTrigger { get; set; }
        public Rigidbody attachedRigidbody { get { return gameObject.GetComponent<Rigidbody>(); } }
    }
    public sealed class BoxCollider : Collider { public Vector3 center { get; set; } public Vector3 size { get; set; } = new Vector3(1f, 1f, 1f); }
    public sealed class SphereCollider : Collider { public Vector3 center { get; set; } public float radius { get; set; } = 0.5f; }
    public sealed class CapsuleCollider : Collider { public Vector3 center { get; set; } public float radius { get; set; } = 0.5f; public float height { get; set; } = 2f; public int direction { get; set; } = 1; }
    public sealed class MeshCollider : Collider { public Mesh sharedMesh { get; set; } }
    public sealed class TerrainCollider : Collider { public TerrainData terrainData { get; set; } }
    public sealed class CharacterController : Collider { public Vector3 center { get; set; } public float radius { get; set; } = 0.5f; public float height { get; set; } = 2f; }
    public sealed class Rigidbody : Component { }
    public sealed class TerrainData : Object
    {
        public int heightmapResolution { get; set; } = 33;
        public Vector3 size { get; set; } = new Vector3(100f, 10f, 100f);
        /// <summary>Stand-in only: [z, x] heights, normalised.</summary>
        public float[,] StandInHeights;
        /// <summary>Stand-in only: the largest array GetHeights was asked for (samples).</summary>
        public long StandInLargestRead;
        public void SetHeights(int xBase, int yBase, float[,] heights)
        {
            int n = heightmapResolution;
            if (StandInHeights == null || StandInHeights.GetLength(0) != n) StandInHeights = new float[n, n];
            for (int j = 0; j < heights.GetLength(0); j++)
                for (int i = 0; i < heights.GetLength(1); i++)
                    StandInHeights[yBase + j, xBase + i] = Math.Max(0f, Math.Min(1f, heights[j, i]));
        }
        public float[,] GetHeights(int xBase, int yBase, int width, int height)
        {
            StandInLargestRead = Math.Max(StandInLargestRead, (long)width * height);
            var h = new float[height, width];
            for (int j = 0; j < height; j++)
                for (int i = 0; i < width; i++)
                    h[j, i] = StandInHeights == null ? 0f : StandInHeights[yBase + j, xBase + i];
            return h;
        }
    }

    public sealed class Terrain : Behaviour { public TerrainData terrainData { get; set; } }
    public sealed class MeshFilter : Component { public Mesh sharedMesh { get; set; } }
    public sealed class MeshRenderer : Behaviour { public Material sharedMaterial { get; set; } }
    public enum PrimitiveType { Sphere = 0, Capsule = 1, Cylinder = 2, Cube = 3, Plane = 4, Quad = 5 }

    public enum FindObjectsSortMode { None, InstanceID }

    public struct LayerMask
    {
        public int value { get; set; }
        public static implicit operator int(LayerMask m) { return m.value; }
        public static implicit operator LayerMask(int v) { return new LayerMask { value = v }; }
    }
    public class MonoBehaviour : Behaviour { }

    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Quaternion rotation { get; set; } = Quaternion.identity;
        public Vector3 localScale { get; set; } = new Vector3(1f, 1f, 1f);
        public Vector3 lossyScale { get { return localScale; } }
        public Matrix4x4 localToWorldMatrix { get { return Matrix4x4.TRS(position, rotation, localScale); } }
        public Matrix4x4 worldToLocalMatrix { get { return localToWorldMatrix.inverse; } }
        public Vector3 TransformPoint(Vector3 p) { return localToWorldMatrix.MultiplyPoint3x4(p); }
        public Vector3 InverseTransformPoint(Vector3 p) { return worldToLocalMatrix.MultiplyPoint3x4(p); }
        public void LookAt(Vector3 worldPosition) { }
    }

    public sealed class GameObject : Object
    {
        /// <summary>Stand-in only: every live GameObject.</summary>
        public static readonly List<GameObject> StandInAll = new List<GameObject>();
        readonly List<Component> components = new List<Component>();
        readonly Transform t;
        bool active = true;

        public GameObject(string name)
        {
            this.name = name;
            tag = "Untagged";
            t = new Transform();
            t.go = this;
            StandInAll.Add(this);
        }

        /// <summary>As Unity: a GameObject named after the shape, with its collider (the
        /// stand-in has no renderers).</summary>
        public static GameObject CreatePrimitive(PrimitiveType type)
        {
            var go = new GameObject(type.ToString());
            switch (type)
            {
                case PrimitiveType.Sphere: go.AddComponent<SphereCollider>(); break;
                case PrimitiveType.Cube: go.AddComponent<BoxCollider>(); break;
                case PrimitiveType.Capsule: go.AddComponent<CapsuleCollider>(); break;
                default: go.AddComponent<MeshCollider>(); break;
            }
            return go;
        }

        public Transform transform { get { return t; } }
        public string tag { get; set; }
        /// <summary>The scene it belongs to (stand-in: set by the tests; the default scene).</summary>
        public SceneManagement.Scene scene { get; set; } = SceneManagement.SceneManager.StandInDefault;
        public bool activeSelf { get { return active; } }
        public bool activeInHierarchy { get { return active; } }
        public int layer { get; set; }

        public T GetComponent<T>() where T : Component
        {
            foreach (var c in components) { var t = c as T; if (t != null) return t; }
            return null;
        }
        internal IEnumerable<Component> StandInComponents { get { return components; } }

        public T AddComponent<T>() where T : Component
        {
            T c = (T)Activator.CreateInstance(typeof(T), true);
            c.go = this;
            components.Add(c);
            if (active) Message(c, "OnEnable");
            return c;
        }

        public void SetActive(bool value)
        {
            if (value == active) return;
            active = value;
            foreach (var c in components) Message(c, value ? "OnEnable" : "OnDisable");
        }

        internal void StandInDestroy()
        {
            if (active) foreach (var c in components) Message(c, "OnDisable");
            foreach (var c in components) Message(c, "OnDestroy");
            // As Unity: the components go with their GameObject (each compares equal to null).
            foreach (var c in components) c.destroyed = true;
            active = false;
            StandInAll.Remove(this);
        }

        /// <summary>Stand-in only: calls a component's message (Update, OnDrawGizmos, ...) as
        /// Unity does: not on a disabled Behaviour (but OnDisable and OnDestroy always).</summary>
        public static void Message(Component c, string method)
        {
            var b = c as Behaviour;
            if (b != null && !b.enabled && method != "OnDisable" && method != "OnDestroy") return;
            MethodInfo m = c.GetType().GetMethod(method, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            if (m == null) return;
            try { m.Invoke(c, null); }
            catch (TargetInvocationException e) { throw e.InnerException; }
        }
    }

    public sealed class Camera : Behaviour
    {
        public CameraClearFlags clearFlags { get; set; }
        public Color backgroundColor { get; set; }

        public static Camera main
        {
            get
            {
                foreach (GameObject go in GameObject.StandInAll)
                {
                    if (!go.activeSelf || go.tag != "MainCamera") continue;
                    foreach (Component c in go.StandInComponents)
                    {
                        var cam = c as Camera;
                        if (cam != null && cam.enabled) return cam;
                    }
                }
                return null;
            }
        }
    }

    public enum CameraClearFlags { Skybox = 1, Color = 2, SolidColor = 2, Depth = 3, Nothing = 4 }

    public sealed class Light : Behaviour { public LightType type { get; set; } }

    public enum LightType { Spot = 0, Directional = 1, Point = 2 }

    public sealed class Shader : Object
    {
        /// <summary>Stand-in only: the shader names Find finds (all, when null).</summary>
        public static HashSet<string> StandInAvailable;

        public static Shader Find(string name)
        {
            if (StandInAvailable != null && !StandInAvailable.Contains(name)) return null;
            return new Shader { name = name };
        }
    }

    public class Material : Object
    {
        public Material(Shader shader) { this.shader = shader; }
        public Material(Material source) { shader = source.shader; enableInstancing = source.enableInstancing; color = source.color; name = source.name; }
        public Shader shader { get; set; }
        public bool enableInstancing { get; set; }
        public Color color { get; set; }
    }

    public sealed class Mesh : Object
    {
        Vector3[] v;
        int[] tris;
        /// <summary>As Unity: 16-bit indices unless set; more than 65,535 vertices need UInt32.</summary>
        public UnityEngine.Rendering.IndexFormat indexFormat { get; set; }
        /// <summary>As Unity in a player: a mesh without Read/Write gives empty arrays.</summary>
        public bool isReadable { get; set; } = true;
        public Vector3[] vertices { get { return isReadable ? v : new Vector3[0]; } set { v = value; } }
        public int[] triangles
        {
            get { return isReadable ? tris : new int[0]; }
            set
            {
                if (indexFormat == UnityEngine.Rendering.IndexFormat.UInt16)
                    foreach (int i in value)
                        if (i > 65535) throw new ArgumentException("Mesh.triangles: index " + i + " needs indexFormat UInt32");
                tris = value;
            }
        }
        public Bounds bounds { get; set; }
        /// <summary>As Unity: one submesh unless set.</summary>
        public int subMeshCount { get; set; } = 1;
        public void RecalculateNormals() { }
        public void RecalculateBounds()
        {
            if (v == null || v.Length == 0) { bounds = new Bounds(); return; }
            var b = new Bounds(v[0], Vector3.zero);
            foreach (Vector3 p in v) b.Encapsulate(p);
            bounds = b;
        }
    }

    public enum MotionVectorGenerationMode { Camera = 0, Object = 1, ForceNoMotion = 2 }

    public struct RenderParams
    {
        public MotionVectorGenerationMode motionVectorMode { get; set; }
        public Material material { get; set; }
        public int layer { get; set; }
        public Rendering.ShadowCastingMode shadowCastingMode { get; set; }
        public bool receiveShadows { get; set; }
        public Bounds worldBounds { get; set; }
        public Rendering.LightProbeUsage lightProbeUsage { get; set; }
        public Rendering.ReflectionProbeUsage reflectionProbeUsage { get; set; }
        public uint renderingLayerMask { get; set; }
        public RenderParams(Material mat) : this() { material = mat; }
    }

    public static class Graphics
    {
        /// <summary>Stand-in only: one draw call.</summary>
        public sealed class StandInDraw
        {
            public RenderParams Params;
            public Mesh Mesh;
            public int Submesh;
            public Vector3[] Positions;
            /// <summary>Where each instance was last frame (prevObjectToWorld), when given.</summary>
            public Vector3[] PrevPositions;
        }

        /// <summary>Stand-in only: the instance count of every call since the last clear.</summary>
        public static readonly List<int> Batches = new List<int>();
        /// <summary>Stand-in only: every call since the last clear, with where each instance is.</summary>
        public static readonly List<StandInDraw> Draws = new List<StandInDraw>();

        public static void RenderMeshInstanced<T>(in RenderParams rparams, Mesh mesh, int submeshIndex, T[] instanceData, int instanceCount = -1, int startInstance = 0) where T : struct
        {
            if (instanceCount > 1023 || startInstance + instanceCount > instanceData.Length)
                throw new ArgumentException("RenderMeshInstanced: " + instanceCount + " instances from " + startInstance + " of " + instanceData.Length);
            Batches.Add(instanceCount);
            if (!StandInRecord) return;
            var positions = new Vector3[instanceCount];
            Vector3[] prev = null;
            var matrices = instanceData as Matrix4x4[];
            if (matrices != null)
                for (int i = 0; i < instanceCount; i++)
                {
                    Matrix4x4 m = matrices[startInstance + i];
                    positions[i] = new Vector3(m.m03, m.m13, m.m23);
                }
            else
            {
                // As Unity: the fields named objectToWorld and prevObjectToWorld.
                var now = typeof(T).GetField("objectToWorld");
                var before = typeof(T).GetField("prevObjectToWorld");
                if (now == null) throw new ArgumentException("RenderMeshInstanced: " + typeof(T) + " has no objectToWorld field");
                if (before != null) prev = new Vector3[instanceCount];
                for (int i = 0; i < instanceCount; i++)
                {
                    object boxed = instanceData[startInstance + i];
                    Matrix4x4 m = (Matrix4x4)now.GetValue(boxed);
                    positions[i] = new Vector3(m.m03, m.m13, m.m23);
                    if (before != null)
                    {
                        Matrix4x4 p = (Matrix4x4)before.GetValue(boxed);
                        prev[i] = new Vector3(p.m03, p.m13, p.m23);
                    }
                }
            }
            Draws.Add(new StandInDraw { Params = rparams, Mesh = mesh, Submesh = submeshIndex, Positions = positions, PrevPositions = prev });
        }

        /// <summary>Stand-in only: whether calls record where each instance is (off for timing).</summary>
        public static bool StandInRecord = true;

        /// <summary>Stand-in only.</summary>
        public static void StandInClear() { Batches.Clear(); Draws.Clear(); }
    }

    public static class Gizmos
    {
        /// <summary>Stand-in only: the centre and size of every wire cube (in world space) and
        /// sphere (centre, radius in x) drawn.</summary>
        public static readonly List<KeyValuePair<Vector3, Vector3>> StandInShapes = new List<KeyValuePair<Vector3, Vector3>>();
        public static Color color { get; set; }
        public static Matrix4x4 matrix { get; set; } = Matrix4x4.identity;
        public static void DrawWireCube(Vector3 center, Vector3 size) { StandInShapes.Add(new KeyValuePair<Vector3, Vector3>(matrix.MultiplyPoint3x4(center), size)); }
        public static void DrawWireSphere(Vector3 center, float radius) { StandInShapes.Add(new KeyValuePair<Vector3, Vector3>(matrix.MultiplyPoint3x4(center), new Vector3(radius, 0f, 0f))); }
        /// <summary>Stand-in only: the ends of every line drawn (in world space), and its colour.</summary>
        public static readonly List<KeyValuePair<Vector3, Vector3>> StandInLines = new List<KeyValuePair<Vector3, Vector3>>();
        public static readonly List<Color> StandInLineColours = new List<Color>();
        public static void DrawLine(Vector3 from, Vector3 to)
        {
            StandInLines.Add(new KeyValuePair<Vector3, Vector3>(matrix.MultiplyPoint3x4(from), matrix.MultiplyPoint3x4(to)));
            StandInLineColours.Add(color);
        }
    }

    public static class Time
    {
        /// <summary>Stand-in only: what deltaTime and time return.</summary>
        public static float StandInDeltaTime = 1f / 60f, StandInTime;
        public static float deltaTime { get { return StandInDeltaTime; } }
        public static float time { get { return StandInTime; } }
    }

    public static class SystemInfo
    {
        /// <summary>Stand-in only: the core count processorCount reports (0: this machine's).</summary>
        public static int StandInProcessorCount;
        public static int processorCount { get { return StandInProcessorCount > 0 ? StandInProcessorCount : Environment.ProcessorCount; } }
    }

    // Unity's values for the platforms the package names.
    public enum RuntimePlatform { OSXEditor = 0, OSXPlayer = 1, WindowsPlayer = 2, WindowsEditor = 7, IPhonePlayer = 8, Android = 11, LinuxPlayer = 13, LinuxEditor = 16, WebGLPlayer = 17 }

    public static class Application
    {
        /// <summary>Stand-in only: the platform the game runs on.</summary>
        public static RuntimePlatform StandInPlatform = RuntimePlatform.LinuxPlayer;
        public static RuntimePlatform platform { get { return StandInPlatform; } }
    }

    public static class Mathf
    {
        public static float Clamp(float value, float min, float max) { return value < min ? min : value > max ? max : value; }
        public static float Min(float a, float b) { return a < b ? a : b; }
        public static float Sin(float f) { return (float)Math.Sin(f); }
        public static float Cos(float f) { return (float)Math.Cos(f); }
    }

    public static class Debug
    {
        /// <summary>Stand-in only: every message logged, with its level.</summary>
        public static readonly List<string> StandInLog = new List<string>();
        static void Log(string level, object message) { StandInLog.Add(level + ": " + message); Console.WriteLine(level + ": " + message); }
        public static void LogError(object message) { Log("LogError", message); }
        public static void LogError(object message, Object context) { Log("LogError", message); }
        public static void LogWarning(object message) { Log("LogWarning", message); }
        public static void LogWarning(object message, Object context) { Log("LogWarning", message); }
        public static void LogException(Exception exception, Object context) { Log("LogException", exception.GetType().Name + ": " + exception.Message); }
    }

    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class HideInInspector : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public abstract class PropertyAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true)] public class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
    [AttributeUsage(AttributeTargets.Field)] public class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class MinAttribute : Attribute { public MinAttribute(float min) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }
    public enum RuntimeInitializeLoadType { AfterSceneLoad = 0, BeforeSceneLoad = 1, AfterAssembliesLoaded = 2, BeforeSplashScreen = 3, SubsystemRegistration = 4 }
    [AttributeUsage(AttributeTargets.Method)] public sealed class RuntimeInitializeOnLoadMethodAttribute : Attribute { public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { } }
}

namespace UnityEngine.SceneManagement
{
    public struct Scene : IEquatable<Scene>
    {
        int handle;
        public string name { get; private set; }
        /// <summary>Stand-in only.</summary>
        public static Scene StandInNew(int handle, string name) { return new Scene { handle = handle, name = name }; }
        public bool Equals(Scene o) { return handle == o.handle; }
        public override bool Equals(object o) { return o is Scene && Equals((Scene)o); }
        public override int GetHashCode() { return handle; }
        public static bool operator ==(Scene a, Scene b) { return a.handle == b.handle; }
        public static bool operator !=(Scene a, Scene b) { return a.handle != b.handle; }
    }

    public static class SceneManager
    {
        /// <summary>Stand-in only: the scene objects belong to unless a test says otherwise.</summary>
        public static readonly Scene StandInDefault = Scene.StandInNew(1, "Main");
        public static event UnityEngine.Events.UnityAction<Scene> sceneUnloaded;
        /// <summary>Stand-in only: unloads a scene: destroys its objects, then tells the listeners.</summary>
        public static void StandInUnload(Scene s)
        {
            foreach (GameObject go in new List<GameObject>(GameObject.StandInAll))
                if (go.scene == s) Object.Destroy(go);
            if (sceneUnloaded != null) sceneUnloaded(s);
        }
    }
}

namespace UnityEngine.Events
{
    public delegate void UnityAction<T0>(T0 arg0);
}

namespace UnityEngine.Rendering
{
    public enum ShadowCastingMode { Off = 0, On = 1, TwoSided = 2, ShadowsOnly = 3 }
    public enum IndexFormat { UInt16 = 0, UInt32 = 1 }
    public enum LightProbeUsage { Off = 0, BlendProbes = 1, UseProxyVolume = 2, CustomProvided = 4 }
    public enum ReflectionProbeUsage { Off = 0, BlendProbes = 1, BlendProbesAndSkybox = 2, Simple = 3 }

    public abstract class RenderPipelineAsset : Object { }

    public static class GraphicsSettings
    {
        /// <summary>Stand-in only: what currentRenderPipeline returns (null: the built-in pipeline).</summary>
        public static RenderPipelineAsset StandInPipeline;
        public static RenderPipelineAsset currentRenderPipeline { get { return StandInPipeline; } }
    }
}

namespace Unity.Collections
{
    public enum Allocator { Invalid = 0, None = 1, Temp = 2, TempJob = 3, Persistent = 4 }

    public unsafe struct NativeArray<T> : IDisposable where T : struct
    {
        internal void* buffer;
        internal int length;

        public NativeArray(int length, Allocator allocator, NativeArrayOptions options = NativeArrayOptions.ClearMemory)
        {
            this.length = length;
            buffer = (void*)System.Runtime.InteropServices.Marshal.AllocHGlobal(Math.Max(1, length * System.Runtime.InteropServices.Marshal.SizeOf(typeof(T))));
        }

        public int Length { get { return length; } }

        public void Dispose() { System.Runtime.InteropServices.Marshal.FreeHGlobal((IntPtr)buffer); }
    }

    public enum NativeArrayOptions { UninitializedMemory = 0, ClearMemory = 1 }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static unsafe class NativeArrayUnsafeUtility
    {
        public static void* GetUnsafePtr<T>(this NativeArray<T> nativeArray) where T : struct { return nativeArray.buffer; }
    }
}

// The player loop: the phases Unity runs each frame, and the systems a package inserts. The
// stand-in keeps the loop a package sets and runs a frame as Unity does: every system of
// Initialization, then each script's Update and LateUpdate in the order given, then every
// system of PostLateUpdate (the phases' own engine systems are left out).
namespace UnityEngine.PlayerLoop
{
    public struct Initialization { }
    public struct EarlyUpdate { }
    public struct FixedUpdate { }
    public struct PreUpdate { }
    public struct Update { }
    public struct PreLateUpdate { }
    public struct PostLateUpdate { }
}

namespace UnityEngine.LowLevel
{
    using System;
    using System.Collections.Generic;

    public struct PlayerLoopSystem
    {
        public Type type;
        public PlayerLoopSystem[] subSystemList;
        public UpdateFunction updateDelegate;
        public IntPtr updateFunction;
        public IntPtr loopConditionFunction;
        public delegate void UpdateFunction();
    }

    public static class PlayerLoop
    {
        static PlayerLoopSystem current = GetDefaultPlayerLoop();

        public static PlayerLoopSystem GetDefaultPlayerLoop()
        {
            Type[] phases =
            {
                typeof(UnityEngine.PlayerLoop.Initialization), typeof(UnityEngine.PlayerLoop.EarlyUpdate),
                typeof(UnityEngine.PlayerLoop.FixedUpdate), typeof(UnityEngine.PlayerLoop.PreUpdate),
                typeof(UnityEngine.PlayerLoop.Update), typeof(UnityEngine.PlayerLoop.PreLateUpdate),
                typeof(UnityEngine.PlayerLoop.PostLateUpdate),
            };
            var list = new PlayerLoopSystem[phases.Length];
            for (int i = 0; i < phases.Length; i++) list[i] = new PlayerLoopSystem { type = phases[i], subSystemList = new PlayerLoopSystem[0] };
            return new PlayerLoopSystem { subSystemList = list };
        }

        public static PlayerLoopSystem GetCurrentPlayerLoop() { return current; }
        public static void SetPlayerLoop(PlayerLoopSystem loop) { current = loop; }

        static void RunPhase(Type phase)
        {
            foreach (PlayerLoopSystem p in current.subSystemList)
                if (p.type == phase && p.subSystemList != null)
                    foreach (PlayerLoopSystem s in p.subSystemList)
                        if (s.updateDelegate != null) s.updateDelegate();
        }

        /// <summary>Stand-in only: one frame, scripts updated in the order given.</summary>
        public static void StandInFrame(IEnumerable<MonoBehaviour> scripts)
        {
            RunPhase(typeof(UnityEngine.PlayerLoop.Initialization));
            foreach (MonoBehaviour m in scripts) GameObject.Message(m, "Update");
            foreach (MonoBehaviour m in scripts) GameObject.Message(m, "LateUpdate");
            RunPhase(typeof(UnityEngine.PlayerLoop.PostLateUpdate));
        }
    }
}
