using System;
using UnityEditor;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;

namespace BoidsFlocking.Editor
{
    /// <summary>The phone players: an Android player built with Mono fails with one clear
    /// message (the package's Android libraries are static, and only IL2CPP links a static
    /// plugin into the player), and an iOS player gets the device library or the simulator
    /// library, whichever SDK its player settings name.</summary>
    public sealed class BoidsAndroidBackendCheck : IPreprocessBuildWithReport
    {
        /// <summary>Before other build callbacks.</summary>
        public int callbackOrder { get { return -1000; } }

        /// <summary>Refuses an Android build whose scripting backend is not IL2CPP.</summary>
        public void OnPreprocessBuild(BuildReport report)
        {
            if (report.summary.platform != BuildTarget.Android)
                return;
            ScriptingImplementation backend = PlayerSettings.GetScriptingBackend(NamedBuildTarget.Android);
            if (backend != ScriptingImplementation.IL2CPP)
                throw new BuildFailedException(Message(backend));
        }

        /// <summary>What the build failure says.</summary>
        public static string Message(ScriptingImplementation backend)
        {
            return "boids: an Android player needs the IL2CPP scripting backend (this one uses " + backend +
                "): the package's Android libraries are static, which only IL2CPP links into the player. " +
                "Set Project Settings > Player > Android > Other Settings > Configuration > Scripting Backend " +
                "to IL2CPP (ARM64 and Google Play need it anyway).";
        }
    }

    /// <summary>Includes in an iOS build the package's device library (Plugins/iOS/Device) or its
    /// simulator library (Plugins/iOS/Simulator), whichever PlayerSettings.iOS.sdkVersion asks for,
    /// never both: the two .meta files enable both for iOS, and
    /// PluginImporter.SetIncludeInBuildDelegate decides per build without changing them (a package
    /// installed from a tarball is read-only).</summary>
    [InitializeOnLoad]
    public static class BoidsIosSdk
    {
        /// <summary>The end of each library's asset path (the package may sit under Packages/ or
        /// be copied into Assets/).</summary>
        public const string DeviceSuffix = "/Runtime/Plugins/iOS/Device/libboids_ffi.a";
        /// <summary>See <see cref="DeviceSuffix"/>.</summary>
        public const string SimulatorSuffix = "/Runtime/Plugins/iOS/Simulator/libboids_ffi.a";

        static BoidsIosSdk()
        {
            Install();
        }

        /// <summary>Sets the include-in-build decision of every copy of the two libraries.</summary>
        public static void Install()
        {
            foreach (PluginImporter importer in PluginImporter.GetAllImporters())
            {
                string path = importer.assetPath ?? "";
                if (path.EndsWith(DeviceSuffix, StringComparison.Ordinal))
                    importer.SetIncludeInBuildDelegate(p => Wanted(false));
                else if (path.EndsWith(SimulatorSuffix, StringComparison.Ordinal))
                    importer.SetIncludeInBuildDelegate(p => Wanted(true));
            }
        }

        /// <summary>Whether the library for the simulator (or the device) goes into the build.</summary>
        public static bool Wanted(bool simulator)
        {
            return (PlayerSettings.iOS.sdkVersion == iOSSdkVersion.SimulatorSDK) == simulator;
        }
    }
}
