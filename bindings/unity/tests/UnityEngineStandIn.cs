// COMPILE CHECK ONLY: a minimal stand-in for the few UnityEngine types the package's scripts use,
// so the test script can prove they compile with Mono's mcs (C# 7.2). Nothing here runs; it is
// not Unity and says nothing about behaviour inside Unity.
using System;

namespace UnityEngine
{
    public class Object { public string name = ""; }
    public class Component : Object { public Transform transform = new Transform(); }
    public class Behaviour : Component { public bool enabled = true; }
    public class MonoBehaviour : Behaviour { }
    public class Transform { public Vector3 position; }
    public class Mesh : Object { }
    public class Material : Object { }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
    }

    public struct Matrix4x4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
    }

    public struct RenderParams
    {
        public Material material;
        public RenderParams(Material mat) { material = mat; }
    }

    public static class Graphics
    {
        public static void RenderMeshInstanced<T>(in RenderParams rparams, Mesh mesh, int submeshIndex, T[] instanceData, int instanceCount = -1, int startInstance = 0) where T : struct { }
    }

    public static class Time { public static float deltaTime; }
    public static class Mathf { public static float Clamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; } }
    public static class Debug { public static void LogError(object message) { } }

    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public sealed class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }
}
