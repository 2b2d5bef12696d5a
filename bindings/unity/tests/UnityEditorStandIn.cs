// The UnityEditor types the package's editor scripts use, for compiling them under Mono (the
// editor itself does not run here).
using System;
using UnityEngine;

namespace UnityEngine
{
    public struct Rect { public float x, y, width, height; }
    public class GUIContent { public string text; public GUIContent(string text) { this.text = text; } }
}

namespace UnityEditor
{
    public enum SerializedPropertyType { Generic = -1, Integer = 0, Boolean = 1, Float = 2, String = 3 }

    public class SerializedProperty
    {
        public SerializedPropertyType propertyType { get; set; }
        public int intValue { get; set; }
    }

    public abstract class PropertyDrawer
    {
        public virtual void OnGUI(Rect position, SerializedProperty property, GUIContent label) { }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class CustomPropertyDrawer : Attribute { public CustomPropertyDrawer(Type type) { } }

    public static class EditorGUI
    {
        public static int LayerField(Rect position, GUIContent label, int layer) { return layer; }
        public static void LabelField(Rect position, string label, string label2) { }
        public static GUIContent BeginProperty(Rect totalPosition, GUIContent label, SerializedProperty property) { return label; }
        public static void EndProperty() { }
    }
}

namespace UnityEditor
{
    public enum BuildTarget { StandaloneOSX = 2, StandaloneWindows64 = 19, iOS = 9, Android = 13, StandaloneLinux64 = 24 }
    public enum BuildTargetGroup { Standalone = 1, iOS = 4, Android = 7 }
    public enum ScriptingImplementation { Mono2x = 0, IL2CPP = 1 }
    public enum iOSSdkVersion { DeviceSDK = 988, SimulatorSDK = 989 }
    [Flags]
    public enum AndroidArchitecture : uint { None = 0, ARMv7 = 1, ARM64 = 2, X86_64 = 8, All = 4294967295 }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class InitializeOnLoadAttribute : Attribute { }

    /// <summary>The player settings the package reads; the tests set them (stand-in only).</summary>
    public static class PlayerSettings
    {
        static readonly System.Collections.Generic.Dictionary<string, ScriptingImplementation> backends =
            new System.Collections.Generic.Dictionary<string, ScriptingImplementation>();
        public static ScriptingImplementation GetScriptingBackend(Build.NamedBuildTarget target)
        {
            ScriptingImplementation b;
            return backends.TryGetValue(target.TargetName, out b) ? b : ScriptingImplementation.Mono2x;
        }
        public static void SetScriptingBackend(Build.NamedBuildTarget target, ScriptingImplementation b) { backends[target.TargetName] = b; }
        public static class iOS { public static iOSSdkVersion sdkVersion { get; set; } }
        public static class Android { public static AndroidArchitecture targetArchitectures { get; set; } = AndroidArchitecture.ARMv7 | AndroidArchitecture.ARM64; }
    }

    public class AssetImporter
    {
        public string assetPath { get; set; }
    }

    /// <summary>Unity's plugin importer: the tests register importers (StandInImporters) and
    /// read back the include-in-build delegate a script set (stand-in only).</summary>
    public class PluginImporter : AssetImporter
    {
        public delegate bool IncludeInBuildDelegate(string path);
        public static readonly System.Collections.Generic.List<PluginImporter> StandInImporters =
            new System.Collections.Generic.List<PluginImporter>();
        public IncludeInBuildDelegate StandInIncludeInBuild;
        public static PluginImporter[] GetAllImporters() { return StandInImporters.ToArray(); }
        public void SetIncludeInBuildDelegate(IncludeInBuildDelegate d) { StandInIncludeInBuild = d; }
        public bool ShouldIncludeInBuild() { return StandInIncludeInBuild == null || StandInIncludeInBuild(assetPath); }
        readonly System.Collections.Generic.HashSet<BuildTarget> compatible = new System.Collections.Generic.HashSet<BuildTarget>();
        readonly System.Collections.Generic.Dictionary<string, string> data = new System.Collections.Generic.Dictionary<string, string>();
        public bool GetCompatibleWithPlatform(BuildTarget platform) { return compatible.Contains(platform); }
        public void SetCompatibleWithPlatform(BuildTarget platform, bool enable) { if (enable) compatible.Add(platform); else compatible.Remove(platform); }
        public string GetPlatformData(BuildTarget platform, string key) { string v; return data.TryGetValue(platform + "/" + key, out v) ? v : ""; }
        public void SetPlatformData(BuildTarget platform, string key, string value) { data[platform + "/" + key] = value; }
    }
}

namespace UnityEditor.Build
{
    public struct NamedBuildTarget
    {
        public string TargetName { get; private set; }
        public static readonly NamedBuildTarget Android = new NamedBuildTarget { TargetName = "Android" };
        public static readonly NamedBuildTarget iOS = new NamedBuildTarget { TargetName = "iPhone" };
    }

    public interface IOrderedCallback { int callbackOrder { get; } }
    public interface IPreprocessBuildWithReport : IOrderedCallback { void OnPreprocessBuild(Reporting.BuildReport report); }

    public class BuildFailedException : Exception
    {
        public BuildFailedException(string message) : base(message) { }
    }
}

namespace UnityEditor.Build.Reporting
{
    public struct BuildSummary { public BuildTarget platform; }
    public class BuildReport { public BuildSummary summary; }
}
