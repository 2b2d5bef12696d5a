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

    /// <summary>Fails a player build, before anything is compiled, when the project has no
    /// native library for one of the players it builds: each Android ABI the player settings
    /// target, the iOS SDK they name, or the desktop platform. Without it the build would fail
    /// late, in the native link, on undefined boids_* symbols (a package added from disk or a
    /// git URL carries no libraries: they are build outputs). One message names every missing
    /// library and what to install. Also sets the iOS libraries' include-in-build decision
    /// (<see cref="BoidsIosSdk"/>), in case the editor has not loaded it since they were
    /// imported.</summary>
    public sealed class BoidsNativeLibraryCheck : IPreprocessBuildWithReport
    {
        /// <summary>Before other build callbacks.</summary>
        public int callbackOrder { get { return -1000; } }

        /// <summary>Refuses a build that lacks a library.</summary>
        public void OnPreprocessBuild(BuildReport report)
        {
            BuildTarget target = report.summary.platform;
            if (target == BuildTarget.iOS)
                BoidsIosSdk.Install();
            string missing = Missing(target, PluginImporter.GetAllImporters());
            if (missing != null)
                throw new BuildFailedException(Message(missing));
        }

        /// <summary>One library a player needs: what to call it, its file name, the CPU its
        /// import settings must name (null: any), and for iOS the end of its path.</summary>
        struct Need
        {
            public string What, File, Cpu, PathEnd;
        }

        static Need[] Needs(BuildTarget target)
        {
            switch (target)
            {
                case BuildTarget.StandaloneWindows64:
                    return new[] { new Need { What = "Windows x86-64 (Plugins/Windows/x86_64/boids_ffi.dll)", File = "boids_ffi.dll" } };
                case BuildTarget.StandaloneLinux64:
                    return new[] { new Need { What = "Linux (Plugins/Linux/x86_64/libboids_ffi.so)", File = "libboids_ffi.so" } };
                case BuildTarget.StandaloneOSX:
                    return new[] { new Need { What = "macOS (Plugins/macOS/libboids_ffi.dylib)", File = "libboids_ffi.dylib" } };
                case BuildTarget.iOS:
                    bool simulator = PlayerSettings.iOS.sdkVersion == iOSSdkVersion.SimulatorSDK;
                    return new[] { simulator
                        ? new Need { What = "the iOS simulator SDK (Plugins/iOS/Simulator/libboids_ffi.a)", File = "libboids_ffi.a", PathEnd = BoidsIosSdk.SimulatorSuffix }
                        : new Need { What = "the iOS device SDK (Plugins/iOS/Device/libboids_ffi.a)", File = "libboids_ffi.a", PathEnd = BoidsIosSdk.DeviceSuffix } };
                case BuildTarget.Android:
                    var needs = new System.Collections.Generic.List<Need>();
                    AndroidArchitecture abis = PlayerSettings.Android.targetArchitectures;
                    if ((abis & AndroidArchitecture.ARMv7) != 0)
                        needs.Add(new Need { What = "Android armeabi-v7a (Plugins/Android/armeabi-v7a/libboids_ffi.a)", File = "libboids_ffi.a", Cpu = "ARMv7" });
                    if ((abis & AndroidArchitecture.ARM64) != 0)
                        needs.Add(new Need { What = "Android arm64-v8a (Plugins/Android/arm64-v8a/libboids_ffi.a)", File = "libboids_ffi.a", Cpu = "ARM64" });
                    // X86_64 by value: Unity 6000.5 marks the name obsolete.
                    if ((abis & (AndroidArchitecture)8) != 0)
                        needs.Add(new Need { What = "Android x86_64 (Plugins/Android/x86_64/libboids_ffi.a)", File = "libboids_ffi.a", Cpu = "X86_64" });
                    return needs.ToArray();
                default:
                    // WebGL and the rest: not supported, and the package documentation says so.
                    return new Need[0];
            }
        }

        /// <summary>The libraries a build for target lacks among importers, listed for the
        /// message; null when it has them all. A library counts where its import settings
        /// enable it for the target (and its CPU, on Android), in the package or anywhere in
        /// the project (a library of your own under Assets/Plugins).</summary>
        public static string Missing(BuildTarget target, PluginImporter[] importers)
        {
            var missing = new System.Collections.Generic.List<string>();
            foreach (Need need in Needs(target))
            {
                bool found = false;
                foreach (PluginImporter importer in importers)
                {
                    string path = importer.assetPath ?? "";
                    if (!(path == need.File || path.EndsWith("/" + need.File, StringComparison.Ordinal)))
                        continue;
                    if (!importer.GetCompatibleWithPlatform(target))
                        continue;
                    if (need.Cpu != null && importer.GetPlatformData(target, "CPU") != need.Cpu)
                        continue;
                    // iOS: the device and the simulator library share a name; the other SDK's
                    // is not this one.
                    string other = need.PathEnd == BoidsIosSdk.DeviceSuffix ? BoidsIosSdk.SimulatorSuffix
                        : need.PathEnd == BoidsIosSdk.SimulatorSuffix ? BoidsIosSdk.DeviceSuffix : null;
                    if (other != null && path.EndsWith(other, StringComparison.Ordinal))
                        continue;
                    found = true;
                    break;
                }
                if (!found) missing.Add(need.What);
            }
            return missing.Count == 0 ? null : string.Join("; ", missing.ToArray());
        }

        /// <summary>What the build failure says.</summary>
        public static string Message(string missing)
        {
            return "boids: this build needs the package's native library for " + missing +
                ", and the project has none. A package added from disk or a git URL carries no native libraries " +
                "(they are build outputs): install the release's com.boids.flocking tarball (Package Manager > " +
                "Add package from tarball), which carries every platform's, or copy a release's libraries into the " +
                "package's Runtime/Plugins/<platform>/ (see the package documentation, Install).";
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
