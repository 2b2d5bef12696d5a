// The phone players' editor checks (bindings/unity/com.boids.flocking/Editor/BoidsPlatformChecks.cs)
// against the UnityEditor stand-in: an Android build with Mono fails with a message that names
// IL2CPP, one with IL2CPP goes on, and an iOS build includes exactly one of the package's two
// libraries, the one for the SDK the player settings name; a build without the native library
// it needs fails before anything is compiled, with one message.
using System;
using BoidsFlocking.Editor;
using UnityEditor;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;

static unsafe partial class BoidsTests
{
    static void PhoneTests()
    {
        Test("phones: an Android build with Mono fails with one message naming IL2CPP; IL2CPP and other platforms pass", () =>
        {
            var check = new BoidsAndroidBackendCheck();
            var android = new BuildReport { summary = new BuildSummary { platform = BuildTarget.Android } };
            PlayerSettings.SetScriptingBackend(NamedBuildTarget.Android, ScriptingImplementation.Mono2x);
            var e = Throws<BuildFailedException>(() => check.OnPreprocessBuild(android));
            Assert(e.Message.Contains("IL2CPP") && e.Message.Contains("Scripting Backend"), e.Message);
            PlayerSettings.SetScriptingBackend(NamedBuildTarget.Android, ScriptingImplementation.IL2CPP);
            check.OnPreprocessBuild(android);
            PlayerSettings.SetScriptingBackend(NamedBuildTarget.Android, ScriptingImplementation.Mono2x);
            check.OnPreprocessBuild(new BuildReport { summary = new BuildSummary { platform = BuildTarget.iOS } });
            check.OnPreprocessBuild(new BuildReport { summary = new BuildSummary { platform = BuildTarget.StandaloneLinux64 } });
        });

        Test("phones: an iOS build takes the device library or the simulator library, as the SDK setting says, never both", () =>
        {
            PluginImporter.StandInImporters.Clear();
            var device = new PluginImporter { assetPath = "Packages/com.boids.flocking/Runtime/Plugins/iOS/Device/libboids_ffi.a" };
            var simulator = new PluginImporter { assetPath = "Packages/com.boids.flocking/Runtime/Plugins/iOS/Simulator/libboids_ffi.a" };
            var copied = new PluginImporter { assetPath = "Assets/Plugins/com.boids.flocking/Runtime/Plugins/iOS/Simulator/libboids_ffi.a" };
            var other = new PluginImporter { assetPath = "Assets/Plugins/iOS/libsomething.a" };
            PluginImporter.StandInImporters.AddRange(new[] { device, simulator, copied, other });
            BoidsIosSdk.Install();
            Assert(other.StandInIncludeInBuild == null, "another plugin is left alone");
            PlayerSettings.iOS.sdkVersion = iOSSdkVersion.DeviceSDK;
            Assert(device.ShouldIncludeInBuild() && !simulator.ShouldIncludeInBuild() && !copied.ShouldIncludeInBuild(), "device SDK");
            PlayerSettings.iOS.sdkVersion = iOSSdkVersion.SimulatorSDK;
            Assert(!device.ShouldIncludeInBuild() && simulator.ShouldIncludeInBuild() && copied.ShouldIncludeInBuild(), "simulator SDK");
            PluginImporter.StandInImporters.Clear();
        });

        Test("phones: a build without the native library fails early with one message naming each missing one; the iOS decision is set at build time", () =>
        {
            const string pkg = "Packages/com.boids.flocking/Runtime/Plugins/";
            // What the release tarball holds, with the import settings scripts/package-unity writes.
            Func<string, BuildTarget, string, PluginImporter> lib = (path, target, cpu) =>
            {
                var i = new PluginImporter { assetPath = path };
                i.SetCompatibleWithPlatform(target, true);
                if (cpu != null) i.SetPlatformData(target, "CPU", cpu);
                return i;
            };
            var v7 = lib(pkg + "Android/armeabi-v7a/libboids_ffi.a", BuildTarget.Android, "ARMv7");
            var arm64 = lib(pkg + "Android/arm64-v8a/libboids_ffi.a", BuildTarget.Android, "ARM64");
            var x64 = lib(pkg + "Android/x86_64/libboids_ffi.a", BuildTarget.Android, "X86_64");
            var device = lib(pkg + "iOS/Device/libboids_ffi.a", BuildTarget.iOS, "ARM64");
            var simulator = lib(pkg + "iOS/Simulator/libboids_ffi.a", BuildTarget.iOS, "AnyCPU");
            var linux = lib(pkg + "Linux/x86_64/libboids_ffi.so", BuildTarget.StandaloneLinux64, "x86_64");
            var windows = lib(pkg + "Windows/x86_64/boids_ffi.dll", BuildTarget.StandaloneWindows64, "x86_64");
            var mac = lib(pkg + "macOS/libboids_ffi.dylib", BuildTarget.StandaloneOSX, "AnyCPU");
            var all = new[] { v7, arm64, x64, device, simulator, linux, windows, mac };
            var everyAbi = AndroidArchitecture.ARMv7 | AndroidArchitecture.ARM64 | AndroidArchitecture.X86_64;
            Func<BuildTarget, BuildReport> report = t => new BuildReport { summary = new BuildSummary { platform = t } };
            var check = new BoidsNativeLibraryCheck();
            var targets = new[] { BuildTarget.Android, BuildTarget.iOS, BuildTarget.StandaloneLinux64, BuildTarget.StandaloneWindows64, BuildTarget.StandaloneOSX };
            try
            {
                // The tarball: every player builds.
                PluginImporter.StandInImporters.AddRange(all);
                PlayerSettings.Android.targetArchitectures = everyAbi;
                foreach (var sdk in new[] { iOSSdkVersion.DeviceSDK, iOSSdkVersion.SimulatorSDK })
                {
                    PlayerSettings.iOS.sdkVersion = sdk;
                    foreach (var t in targets) check.OnPreprocessBuild(report(t));
                }
                // A package from git: no library at all. Each build fails with one message that
                // names every missing library and the tarball.
                PluginImporter.StandInImporters.Clear();
                var e = Throws<BuildFailedException>(() => check.OnPreprocessBuild(report(BuildTarget.Android)));
                Assert(e.Message.Contains("armeabi-v7a") && e.Message.Contains("arm64-v8a") && e.Message.Contains("x86_64") &&
                       e.Message.Contains("tarball"), e.Message);
                foreach (var t in targets)
                    Throws<BuildFailedException>(() => check.OnPreprocessBuild(report(t)));
                // One ABI missing: only a build that targets it fails, and only it is named.
                PluginImporter.StandInImporters.AddRange(new[] { arm64, device });
                PlayerSettings.Android.targetArchitectures = AndroidArchitecture.ARM64;
                check.OnPreprocessBuild(report(BuildTarget.Android));
                PlayerSettings.Android.targetArchitectures = AndroidArchitecture.ARMv7 | AndroidArchitecture.ARM64;
                e = Throws<BuildFailedException>(() => check.OnPreprocessBuild(report(BuildTarget.Android)));
                Assert(e.Message.Contains("armeabi-v7a") && !e.Message.Contains("arm64-v8a"), e.Message);
                // A library for the wrong CPU does not count.
                PluginImporter.StandInImporters.Add(lib("Assets/Plugins/Android/libboids_ffi.a", BuildTarget.Android, "X86_64"));
                Throws<BuildFailedException>(() => check.OnPreprocessBuild(report(BuildTarget.Android)));
                // iOS: the device library does not stand in for the simulator's.
                PlayerSettings.iOS.sdkVersion = iOSSdkVersion.DeviceSDK;
                check.OnPreprocessBuild(report(BuildTarget.iOS));
                PlayerSettings.iOS.sdkVersion = iOSSdkVersion.SimulatorSDK;
                e = Throws<BuildFailedException>(() => check.OnPreprocessBuild(report(BuildTarget.iOS)));
                Assert(e.Message.Contains("simulator") && !e.Message.Contains("device SDK"), e.Message);
                // A library of the project's own (Linux arm64's way: under Assets/Plugins) counts.
                PluginImporter.StandInImporters.Add(lib("Assets/Plugins/Linux/libboids_ffi.so", BuildTarget.StandaloneLinux64, "x86_64"));
                check.OnPreprocessBuild(report(BuildTarget.StandaloneLinux64));
                // An iOS build sets which library goes in, even where the editor never loaded
                // BoidsIosSdk since the libraries were imported.
                PluginImporter.StandInImporters.Clear();
                device.StandInIncludeInBuild = null;
                simulator.StandInIncludeInBuild = null;
                PluginImporter.StandInImporters.AddRange(new[] { device, simulator });
                PlayerSettings.iOS.sdkVersion = iOSSdkVersion.DeviceSDK;
                check.OnPreprocessBuild(report(BuildTarget.iOS));
                Assert(device.StandInIncludeInBuild != null && device.ShouldIncludeInBuild() && !simulator.ShouldIncludeInBuild(),
                    "the build set the device library in and the simulator's out");
            }
            finally
            {
                PluginImporter.StandInImporters.Clear();
                PlayerSettings.Android.targetArchitectures = AndroidArchitecture.ARMv7 | AndroidArchitecture.ARM64;
                PlayerSettings.iOS.sdkVersion = iOSSdkVersion.DeviceSDK;
            }
        });
    }
}
