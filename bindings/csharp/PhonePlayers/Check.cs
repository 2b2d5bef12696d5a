// The C# binding as Unity compiles it for an Android player (UNITY_ANDROID, with or without
// ENABLE_IL2CPP), run on Mono by scripts/test:
//   Check.exe mono     a Mono Android player: the first use throws one PlatformNotSupportedException
//                      that names IL2CPP (never a DllNotFoundException), and no native call is made
//   Check.exe il2cpp   an IL2CPP Android player: the imports are bound to "__Internal" (the library
//                      linked into the player), so they resolve only against what the process has
//                      loaded: with the library preloaded (LD_PRELOAD) a world steps; without it the
//                      first call finds no entry point instead of loading libboids_ffi by name.
using System;
using BoidsFlocking;

static class Check
{
    static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "";
        try
        {
            using (var world = new BoidsWorld(5, 1))
            {
                BoidsFlock fish = world.CreatePreset("fish-tank", "fish");
                world.Step(1f / 60f);
                Console.WriteLine(mode + ": a world stepped, " + fish.Count + " fish, hash " + world.StateHash.ToString("x16"));
                return mode == "il2cpp" ? 0 : 1;
            }
        }
        catch (PlatformNotSupportedException e) when (mode == "mono")
        {
            bool ok = e.Message.Contains("IL2CPP") && e.Message.Contains("Scripting Backend");
            Console.WriteLine("mono: " + (ok ? "refused as it must: " : "WRONG MESSAGE: ") + e.Message);
            return ok ? 0 : 1;
        }
        catch (EntryPointNotFoundException e) when (mode == "il2cpp-unloaded")
        {
            Console.WriteLine("il2cpp without the library in the process: " + e.GetType().Name + ", as it must");
            return 0;
        }
    }
}
