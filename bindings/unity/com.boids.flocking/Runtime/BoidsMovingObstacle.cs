// A marker for BoidsSceneObstacles: this GameObject's collider moves, so the flock's obstacle
// follows its transform every frame. (A MonoBehaviour lives in a file of its own name: Unity
// finds the script by it.)
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>Marks a collider's GameObject as moving: the flock's obstacle follows its
    /// transform every frame (a collider with a Rigidbody does so without this).</summary>
    [AddComponentMenu("Boids/Boids Moving Obstacle")]
    public sealed class BoidsMovingObstacle : MonoBehaviour
    {
    }
}
