// Unity-only helpers over the C# API: reads straight into Vector3[], Quaternion[], Matrix4x4[]
// and NativeArray<T> (no copy, no allocation, no unsafe code in the caller), and conversions
// between BoidsFlocking.Vec3 and UnityEngine.Vector3 (the same 12 bytes).
using System;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    public static unsafe class BoidsUnityExtensions
    {
        public static Vector3 ToVector3(this Vec3 v) { return new Vector3(v.X, v.Y, v.Z); }
        public static Vec3 ToVec3(this Vector3 v) { return new Vec3(v.x, v.y, v.z); }

        /// <summary>Positions (id order) into a Vector3[]; returns the count.</summary>
        public static int ReadPositions(this BoidsFlock flock, Vector3[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            fixed (Vector3* p = buffer) return flock.ReadPositions((IntPtr)p, buffer.Length);
        }

        public static int ReadVelocities(this BoidsFlock flock, Vector3[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            fixed (Vector3* p = buffer) return flock.ReadVelocities((IntPtr)p, buffer.Length);
        }

        public static int ReadOrientations(this BoidsFlock flock, Quaternion[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            fixed (Quaternion* p = buffer) return flock.ReadOrientations((IntPtr)p, buffer.Length);
        }

        /// <summary>Instance matrices for Graphics.RenderMeshInstanced.</summary>
        public static int ReadMatrices(this BoidsFlock flock, Matrix4x4[] buffer, float scale = 1f)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            fixed (Matrix4x4* p = buffer) return flock.ReadMatrices((IntPtr)p, buffer.Length, scale);
        }

        /// <summary>Instance matrices multiplied on the left by transform (e.g. the owning
        /// object's localToWorldMatrix, for a flock simulated in that object's local space).</summary>
        public static int ReadMatrices(this BoidsFlock flock, Matrix4x4[] buffer, Matrix4x4 transform, float scale = 1f)
        {
            if (buffer == null) throw new ArgumentNullException("buffer");
            fixed (Matrix4x4* p = buffer) return flock.ReadMatrices((IntPtr)p, buffer.Length, *(Mat4*)&transform, scale);
        }

        public static int ReadPositions(this BoidsFlock flock, NativeArray<Vector3> buffer)
        {
            return flock.ReadPositions((IntPtr)buffer.GetUnsafePtr(), buffer.Length);
        }

        public static int ReadVelocities(this BoidsFlock flock, NativeArray<Vector3> buffer)
        {
            return flock.ReadVelocities((IntPtr)buffer.GetUnsafePtr(), buffer.Length);
        }

        public static int ReadOrientations(this BoidsFlock flock, NativeArray<Quaternion> buffer)
        {
            return flock.ReadOrientations((IntPtr)buffer.GetUnsafePtr(), buffer.Length);
        }

        public static int ReadMatrices(this BoidsFlock flock, NativeArray<Matrix4x4> buffer, float scale = 1f)
        {
            return flock.ReadMatrices((IntPtr)buffer.GetUnsafePtr(), buffer.Length, scale);
        }

        public static int ReadMatrices(this BoidsFlock flock, NativeArray<Matrix4x4> buffer, Matrix4x4 transform, float scale = 1f)
        {
            return flock.ReadMatrices((IntPtr)buffer.GetUnsafePtr(), buffer.Length, *(Mat4*)&transform, scale);
        }
    }
}
