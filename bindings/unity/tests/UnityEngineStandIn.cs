// A stand-in for the UnityEngine members the package uses, so Mono's mcs (C# 7.2) can compile the
// package's scripts and samples, and the Mono tests can run the component's engine calls. Every
// member the package uses is declared with the signature of Unity 2022.3's API reference (a
// wrong member fails the compile check), with one unavoidable difference: RenderMeshInstanced's
// `where T : unmanaged` is `where T : struct` here (C# 7.3; callers compile the same). The
// bodies are the least that lets the tests run: this is not Unity and says nothing about
// rendering or behaviour inside Unity. Members marked "stand-in only" do not exist in Unity.
using System;
using System.Collections.Generic;
using System.Reflection;

namespace UnityEngine
{
    public class Object
    {
        public string name { get; set; }
        public static void Destroy(Object obj) { }
        public static bool operator ==(Object a, Object b) { return ReferenceEquals(a, b) || (ReferenceEquals(a, null) && ReferenceEquals(b, null)); }
        public static bool operator !=(Object a, Object b) { return !(a == b); }
        public override bool Equals(object o) { return ReferenceEquals(this, o); }
        public override int GetHashCode() { return base.GetHashCode(); }
    }

    public class Component : Object
    {
        internal GameObject go;
        public GameObject gameObject { get { return go; } }
        public Transform transform { get { return go.transform; } }
    }

    public class Behaviour : Component { public bool enabled { get; set; } }
    public class MonoBehaviour : Behaviour { }

    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Quaternion rotation { get; set; }
        public void LookAt(Vector3 worldPosition) { }
    }

    public sealed class GameObject : Object
    {
        readonly List<Component> components = new List<Component>();
        readonly Transform t;
        bool active = true;

        public GameObject(string name)
        {
            this.name = name;
            t = new Transform();
            t.go = this;
        }

        public Transform transform { get { return t; } }

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

        /// <summary>Stand-in only: calls a component's message (Update, OnDrawGizmos, ...) as Unity does.</summary>
        public static void Message(Component c, string method)
        {
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
    }

    public enum CameraClearFlags { Skybox = 1, Color = 2, SolidColor = 2, Depth = 3, Nothing = 4 }

    public sealed class Light : Behaviour { public LightType type { get; set; } }

    public enum LightType { Spot = 0, Directional = 1, Point = 2 }

    public sealed class Shader : Object
    {
        public static Shader Find(string name) { return new Shader(); }
    }

    public class Material : Object
    {
        public Material(Shader shader) { }
        public bool enableInstancing { get; set; }
        public Color color { get; set; }
    }

    public sealed class Mesh : Object
    {
        public Vector3[] vertices { get; set; }
        public int[] triangles { get; set; }
        public void RecalculateNormals() { }
        public void RecalculateBounds() { }
    }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0f, 0f, 0f); } }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public static Quaternion Euler(float x, float y, float z) { return new Quaternion(); }
    }

    public struct Matrix4x4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
        public Color(float r, float g, float b) : this(r, g, b, 1f) { }
    }

    public struct RenderParams
    {
        public Material material { get; set; }
        public RenderParams(Material mat) : this() { material = mat; }
    }

    public static class Graphics
    {
        /// <summary>Stand-in only: the instance count of every call since the last clear.</summary>
        public static readonly List<int> Batches = new List<int>();

        public static void RenderMeshInstanced<T>(in RenderParams rparams, Mesh mesh, int submeshIndex, T[] instanceData, int instanceCount = -1, int startInstance = 0) where T : struct
        {
            if (instanceCount > 1023 || startInstance + instanceCount > instanceData.Length)
                throw new ArgumentException("RenderMeshInstanced: " + instanceCount + " instances from " + startInstance + " of " + instanceData.Length);
            Batches.Add(instanceCount);
        }
    }

    public static class Gizmos
    {
        public static Color color { get; set; }
        public static void DrawWireCube(Vector3 center, Vector3 size) { }
        public static void DrawWireSphere(Vector3 center, float radius) { }
    }

    public static class Time
    {
        /// <summary>Stand-in only: what deltaTime and time return.</summary>
        public static float StandInDeltaTime = 1f / 60f, StandInTime;
        public static float deltaTime { get { return StandInDeltaTime; } }
        public static float time { get { return StandInTime; } }
    }

    public static class SystemInfo { public static int processorCount { get { return Environment.ProcessorCount; } } }

    public static class Mathf
    {
        public static float Clamp(float value, float min, float max) { return value < min ? min : value > max ? max : value; }
        public static float Min(float a, float b) { return a < b ? a : b; }
        public static float Sin(float f) { return (float)Math.Sin(f); }
        public static float Cos(float f) { return (float)Math.Cos(f); }
    }

    public static class Debug { public static void LogError(object message) { Console.WriteLine("LogError: " + message); } }

    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true)] public class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
    [AttributeUsage(AttributeTargets.Field)] public class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }
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
