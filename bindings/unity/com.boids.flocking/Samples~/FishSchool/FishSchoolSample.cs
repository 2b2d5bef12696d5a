// Fish School sample: adds a BoidsFlock with the fish-tank preset's look to an empty scene and
// moves the observer with the camera. Put it on any GameObject, assign a fish mesh and a material
// with GPU instancing enabled.
using Boids.Native;
using UnityEngine;

namespace Boids.Samples
{
    public sealed class FishSchoolSample : MonoBehaviour
    {
        [SerializeField] Boids.Unity.BoidsFlock school;
        [SerializeField] Transform player;

        void Update()
        {
            if (school == null || school.Flock == null || player == null) return;
            Vector3 p = player.position;
            school.Flock.World.SetObserver(new BoidsVec3(p.x, p.y, p.z));
        }
    }
}
