// Where in Unity's frame the controllers end and begin their steps: two systems of the player
// loop (UnityEngine.LowLevel.PlayerLoop), inserted once, that run for every enabled controller.
//
//   Initialization (first thing in the frame): every controller ends the step begun last frame
//       (the world takes changes again), moves its moving obstacles, pushes edited settings.
//   ... FixedUpdate, Update, LateUpdate: gameplay scripts may change the world freely, in any
//       script order ...
//   PostLateUpdate (after every LateUpdate, before rendering): every controller reads and draws
//       (placed by its transform as every LateUpdate left it), then every controller begins its
//       next step, which runs while Unity renders and until the next frame's Initialization.
//
// One pass ends every controller's step before any reads, and one begins them all after every
// read: controllers that share a worker pool never wait for each other's steps. Each controller
// runs on its own: one that throws (a script destroyed its flock, say) is logged and the others go
// on. A script that replaces the player loop (PlayerLoop.SetPlayerLoop) loses the two systems;
// the controllers notice in their LateUpdate and insert them again. The list of controllers is
// reset when a play session starts (SubsystemRegistration), also without a domain reload.
using System;
using System.Collections.Generic;
using UnityEngine.LowLevel;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>The player-loop systems that end and begin the controllers' steps.</summary>
    public static class BoidsFrameLoop
    {
        /// <summary>Marker type of the system that ends the steps (in Initialization).</summary>
        public struct EndSteps { }

        /// <summary>Marker type of the system that draws and begins the steps (in PostLateUpdate).</summary>
        public struct BeginSteps { }

        static readonly List<BoidsFlockController> controllers = new List<BoidsFlockController>();

        /// <summary>Controllers the loop runs now.</summary>
        public static int Count { get { return controllers.Count; } }

        internal static void Add(BoidsFlockController c)
        {
            Install();
            if (!controllers.Contains(c)) controllers.Add(c);
        }

        internal static void Remove(BoidsFlockController c)
        {
            controllers.Remove(c);
        }

        /// <summary>Frames the end system has run in (how a controller sees a replaced loop).</summary>
        internal static int EndRuns;

        static void RunEnd()
        {
            EndRuns++;
            // Indexed loops over a list that a callback may shrink: no enumerator, no allocation.
            for (int i = controllers.Count - 1; i >= 0; i--)
            {
                if (i >= controllers.Count) continue;
                BoidsFlockController c = controllers[i];
                try { c.FrameStart(); }
                catch (Exception e) { UnityEngine.Debug.LogException(e, c); }
            }
        }

        static void RunBegin()
        {
            // Every controller reads and draws first, then every one begins its steps: no read
            // waits behind a step of a shared pool.
            for (int i = controllers.Count - 1; i >= 0; i--)
            {
                if (i >= controllers.Count) continue;
                BoidsFlockController c = controllers[i];
                try { c.FrameDraw(); }
                catch (Exception e) { UnityEngine.Debug.LogException(e, c); }
            }
            for (int i = controllers.Count - 1; i >= 0; i--)
            {
                if (i >= controllers.Count) continue;
                BoidsFlockController c = controllers[i];
                try { c.FrameEnd(); }
                catch (Exception e) { UnityEngine.Debug.LogException(e, c); }
            }
        }

        /// <summary>A play session starts (with or without a domain reload): no controller is
        /// left over from the last one.</summary>
        [UnityEngine.RuntimeInitializeOnLoadMethod(UnityEngine.RuntimeInitializeLoadType.SubsystemRegistration)]
        static void ResetForPlay()
        {
            controllers.Clear();
            EndRuns = 0;
        }

        /// <summary>Inserts the two systems into the current player loop unless they are there
        /// (idempotent: safe across domain reloads and play-mode entries).</summary>
        public static void Install()
        {
            PlayerLoopSystem root = PlayerLoop.GetCurrentPlayerLoop();
            if (Contains(root, typeof(EndSteps))) return;
            PlayerLoopSystem[] phases = root.subSystemList;
            if (phases == null) return;
            for (int i = 0; i < phases.Length; i++)
            {
                if (phases[i].type == typeof(UnityEngine.PlayerLoop.Initialization))
                    phases[i].subSystemList = Insert(phases[i].subSystemList, new PlayerLoopSystem { type = typeof(EndSteps), updateDelegate = RunEnd }, true);
                else if (phases[i].type == typeof(UnityEngine.PlayerLoop.PostLateUpdate))
                    phases[i].subSystemList = Insert(phases[i].subSystemList, new PlayerLoopSystem { type = typeof(BeginSteps), updateDelegate = RunBegin }, true);
            }
            root.subSystemList = phases;
            PlayerLoop.SetPlayerLoop(root);
        }

        static PlayerLoopSystem[] Insert(PlayerLoopSystem[] list, PlayerLoopSystem system, bool first)
        {
            var l = new List<PlayerLoopSystem>(list ?? new PlayerLoopSystem[0]);
            if (first) l.Insert(0, system);
            else l.Add(system);
            return l.ToArray();
        }

        static bool Contains(PlayerLoopSystem s, Type t)
        {
            if (s.type == t) return true;
            if (s.subSystemList == null) return false;
            foreach (PlayerLoopSystem sub in s.subSystemList)
                if (Contains(sub, t)) return true;
            return false;
        }
    }
}
