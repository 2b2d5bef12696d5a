// The phone players' editor checks (bindings/unity/com.boids.flocking/Editor/BoidsPlatformChecks.cs)
// against the UnityEditor stand-in: an Android build with Mono fails with a message that names
// IL2CPP, one with IL2CPP goes on, and an iOS build includes exactly one of the package's two
// libraries, the one for the SDK the player settings name.
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
    }
}
