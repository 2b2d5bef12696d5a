// A snapshot test in C# (docs/snapshot-testing.md): run a preset and assert the rounded
// digest (and the exact state hash) against pinned values. Works the same in NUnit or Unity's
// Test Runner: replace the checks by Assert.AreEqual.
using System;
using BoidsFlocking;

static class SnapshotTest
{
    const ulong PinnedStateHash = 0x9f7cf49a81c20410UL;  // exact bits
    const ulong PinnedDigest = 0x0cbe5d962a3a3bfbUL;   // 6 significant digits: across compilers and platforms

    static int Main()
    {
        using (var world = new BoidsWorld(seed: 7))
        {
            var bees = world.CreatePreset("goal-swarm", "bees");
            for (int step = 0; step < 180; step++) world.Step(1f / 60);
            ulong digest = world.RoundedDigest(6), hash = world.StateHash;
            Console.WriteLine("C#: " + bees.Count + " bees, state hash " + hash.ToString("x16") +
                              ", rounded digest " + digest.ToString("x16"));
            if (digest != PinnedDigest || hash != PinnedStateHash)
            {
                Console.Error.WriteLine("the bees changed their behaviour");
                return 1;
            }
        }
        return 0;
    }
}
