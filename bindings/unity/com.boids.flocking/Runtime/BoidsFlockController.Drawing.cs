// The Boids Flock Controller's drawing: after every LateUpdate (BoidsFrameLoop's system, just
// before the steps begin) it reads the newest state's matrices from the library, blends the last
// two states when interpolating, and draws every flock with Graphics.RenderMeshInstanced in
// batches of 1023: every submesh of the mesh, with each boid's last-frame matrix beside its
// matrix for per-object motion vectors (TAA, DLSS, motion blur), culled by a box around the boids
// drawn. Nothing here allocates once the buffers have their sizes.
using System;
using System.Runtime.InteropServices;
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>One drawn boid as RenderMeshInstanced takes it: Unity reads the fields named
    /// objectToWorld and prevObjectToWorld (the latter for per-object motion vectors).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BoidInstance
    {
        public Matrix4x4 objectToWorld;
        public Matrix4x4 prevObjectToWorld;
    }

    public sealed partial class BoidsFlockController
    {
        // Per flock: what the last draw gave the renderer (instances with last frame's matrices,
        // how many, whether previous = current already) and the box around it.
        BoidInstance[][] instances = new BoidInstance[0][];
        int[] instanceCounts = new int[0];
        bool[] instancesStill = new bool[0];
        Bounds[] drawnBounds = new Bounds[0];

        /// <summary>The drawing's per-flock buffers for n flocks (when the flock list is made).</summary>
        void ResetDrawing(int n)
        {
            instances = new BoidInstance[n][];
            for (int i = 0; i < n; i++) instances[i] = new BoidInstance[0];
            instanceCounts = new int[n];
            instancesStill = new bool[n];
            drawnBounds = new Bounds[n];
        }

        /// <summary>The newest state read (into the interpolation buffers, or only counted) and
        /// every flock drawn, placed by the transform as this frame's scripts left it.</summary>
        void ReadAndDraw()
        {
            if (stepping) return;
            if (newState)
            {
                if (Interpolating)
                {
                    if (!previousReady)
                    {
                        Swap(ref previous, ref current);
                        Swap(ref previousCounts, ref counts);
                        // Counts kept without their matrices (interpolation was off): nothing
                        // to blend from yet.
                        if (!currentHeld) for (int i = 0; i < previousCounts.Length; i++) previousCounts[i] = -1;
                    }
                    ReadInto(current, counts);
                    currentHeld = true;
                }
                else
                {
                    // Drawn unblended: the draw reads the state once, placed by the transform.
                    CountInto(counts);
                    currentHeld = false;
                }
                if (drawFlowField) flowOverlay.Read(world, flock, flowFieldArrows);
                newState = false;
                previousReady = false;
                drawnCurrent = false;
            }
            Draw(transform.localToWorldMatrix);
        }

        static void Swap<T>(ref T a, ref T b)
        {
            T t = a;
            a = b;
            b = t;
        }

        /// <summary>The mesh, material and scale flock i is drawn with.</summary>
        void Look(int i, out Mesh m, out Material mat, out float s)
        {
            m = mesh;
            mat = material;
            s = scale;
            FlockLook look = i > 0 && i - 1 < otherFlocks.Length ? otherFlocks[i - 1] : null;
            if (look != null)
            {
                if (look.mesh != null) m = look.mesh;
                if (look.material != null) mat = look.material;
                s = look.scale;
            }
        }

        /// <summary>Every drawn flock's matrices, in the world's (this object's local) space, into
        /// buffers.</summary>
        void ReadInto(Matrix4x4[][] into, int[] sizes)
        {
            for (int i = 0; i < flocks.Length; i++)
            {
                Mesh m;
                Material mat;
                float s;
                Look(i, out m, out mat, out s);
                int n = flocks[i].Count;
                if (into[i].Length < n) into[i] = new Matrix4x4[n];
                if (m == null || mat == null)
                {
                    sizes[i] = 0;
                    continue;
                }
                sizes[i] = flocks[i].ReadMatrices(into[i], s);
                MatrixReads++;
            }
        }

        /// <summary>Every drawn flock's boid count (what ReadInto would read) without reading.</summary>
        void CountInto(int[] sizes)
        {
            for (int i = 0; i < flocks.Length; i++)
            {
                Mesh m;
                Material mat;
                float s;
                Look(i, out m, out mat, out s);
                sizes[i] = m == null || mat == null ? 0 : flocks[i].Count;
            }
        }

        /// <summary>How far between the previous state and the current one the frame is drawn:
        /// the time since the state before the newest, in steps, over the steps between the two
        /// (more than one when a frame's steps were begun together).</summary>
        float Blend()
        {
            if (!fixedStep || !interpolate) return 1f;
            float t = Mathf.Clamp((float)(accumulator / fixedTimeStep), 0f, 1f);
            return (blendSteps - 1 + t) / blendSteps;
        }

        /// <summary>Draws every flock: the newest state (or the blend of the last two) placed by
        /// toWorld, in batches of 1023, every submesh, with each boid's last-frame matrix for
        /// per-object motion vectors, inside a box around what is drawn.</summary>
        void Draw(Matrix4x4 toWorld)
        {
            Drawn = 0;
            float t = Blend();
            for (int i = 0; i < flocks.Length; i++)
            {
                Mesh m;
                Material mat;
                float s;
                Look(i, out m, out mat, out s);
                mat = Drawable(mat);
                int n = counts[i];
                if (m == null || mat == null || n == 0)
                {
                    instanceCounts[i] = 0;
                    continue;
                }
                Matrix4x4[] o = drawn[i];
                if (o.Length < n) drawn[i] = o = new Matrix4x4[n];
                bool fresh = true;
                if (t < 1f && previousCounts[i] == n)
                {
                    // Interpolated, as Rigidbody interpolation: component by component (the
                    // steps are short, so the blend of two rotations stays near a rotation), in
                    // the world's space, then placed by this frame's transform.
                    Matrix4x4[] a = previous[i], b = current[i];
                    for (int k = 0; k < n; k++) LerpPlaced(ref toWorld, ref a[k], ref b[k], t, out o[k]);
                }
                else if (!drawnCurrent || !toWorld.Equals(drawnToWorld))
                {
                    // The newest state, placed by this frame's transform (by the library).
                    n = flocks[i].ReadMatrices(o, toWorld, s);
                    MatrixReads++;
                }
                else
                {
                    fresh = false; // drawn as last frame: the same matrices
                }
                // Culled by a box around the boids drawn, not the flock's whole space.
                if (fresh) drawnBounds[i] = BoundsOf(o, n, Reach(m, s, toWorld));
                RenderParams rp = new RenderParams(mat);
                rp.layer = layer;
                rp.shadowCastingMode = castShadows;
                rp.receiveShadows = receiveShadows;
                rp.lightProbeUsage = lightProbes;
                rp.reflectionProbeUsage = reflectionProbes;
                rp.renderingLayerMask = renderingLayerMask;
                // One box for every batch: Unity need not compute bounds per draw.
                rp.worldBounds = drawnBounds[i];
                // Every submesh (a mesh of several materials' parts), each with the flock's
                // material.
                int parts = Math.Max(1, m.subMeshCount);
                // The two batch loops differ only in the instance type: one generic helper would
                // need RenderMeshInstanced's `where T : unmanaged` constraint, which C# 7.2 (the
                // Mono compiler the tests build with) cannot state.
                if (motionVectors)
                {
                    rp.motionVectorMode = MotionVectorGenerationMode.Object;
                    BoidInstance[] inst = Instances(i, o, n, fresh);
                    for (int start = 0; start < n; start += 1023)
                    {
                        int batch = Math.Min(1023, n - start);
                        for (int sub = 0; sub < parts; sub++)
                            Graphics.RenderMeshInstanced(rp, m, sub, inst, batch, start);
                        Drawn += batch;
                    }
                }
                else
                {
                    rp.motionVectorMode = MotionVectorGenerationMode.Camera;
                    instanceCounts[i] = 0;
                    for (int start = 0; start < n; start += 1023)
                    {
                        int batch = Math.Min(1023, n - start);
                        for (int sub = 0; sub < parts; sub++)
                            Graphics.RenderMeshInstanced(rp, m, sub, o, batch, start);
                        Drawn += batch;
                    }
                }
            }
            // `drawn` holds the newest state under toWorld unless this frame blended.
            drawnCurrent = !(t < 1f);
            drawnToWorld = toWorld;
        }

        /// <summary>Flock i's instances for this frame's draw: each boid's matrix o[k] with the
        /// one it was drawn with last frame (the same boid: both are in id order), for the
        /// renderer's per-object motion vectors. Unchanged matrices (no new state, the same
        /// transform) have no motion: previous = current. A flock whose count changed since
        /// (spawns, removals) starts without motion. Reuses its buffer: no allocation once sized.</summary>
        unsafe BoidInstance[] Instances(int i, Matrix4x4[] o, int n, bool fresh)
        {
            BoidInstance[] inst = instances[i];
            if (inst.Length < n)
            {
                instances[i] = inst = new BoidInstance[n];
                instanceCounts[i] = 0;
            }
            if (fresh)
            {
                // Last frame's matrices move to prevObjectToWorld, this frame's come in: 8-byte
                // words through pointers (Mono copies a 64-byte struct field by field, at
                // several times the cost).
                bool carry = instanceCounts[i] == n;
                fixed (BoidInstance* pi = inst)
                fixed (Matrix4x4* po = o)
                {
                    long* d = (long*)pi;
                    long* src = (long*)po;
                    for (int k = 0; k < n; k++, d += 16, src += 8)
                    {
                        long* from = carry ? d : src;
                        d[8] = from[0]; d[9] = from[1]; d[10] = from[2]; d[11] = from[3];
                        d[12] = from[4]; d[13] = from[5]; d[14] = from[6]; d[15] = from[7];
                        d[0] = src[0]; d[1] = src[1]; d[2] = src[2]; d[3] = src[3];
                        d[4] = src[4]; d[5] = src[5]; d[6] = src[6]; d[7] = src[7];
                    }
                }
                instancesStill[i] = false;
            }
            else if (!instancesStill[i])
            {
                fixed (BoidInstance* pi = inst)
                {
                    long* d = (long*)pi;
                    for (int k = 0; k < n; k++, d += 16)
                    {
                        d[8] = d[0]; d[9] = d[1]; d[10] = d[2]; d[11] = d[3];
                        d[12] = d[4]; d[13] = d[5]; d[14] = d[6]; d[15] = d[7];
                    }
                }
                instancesStill[i] = true;
            }
            instanceCounts[i] = n;
            return inst;
        }

        /// <summary>How far a boid's mesh reaches from its position, in world units: the mesh's
        /// bounds (from its pivot) times the boid scale times the transform's largest axis scale.</summary>
        static float Reach(Mesh m, float s, Matrix4x4 toWorld)
        {
            Bounds b = m.bounds;
            float mesh = b.center.magnitude + b.extents.magnitude;
            float ax = new Vector3(toWorld.m00, toWorld.m10, toWorld.m20).magnitude;
            float ay = new Vector3(toWorld.m01, toWorld.m11, toWorld.m21).magnitude;
            float az = new Vector3(toWorld.m02, toWorld.m12, toWorld.m22).magnitude;
            return mesh * Math.Abs(s) * Math.Max(ax, Math.Max(ay, az));
        }

        /// <summary>The world box around the first n drawn boids' positions (the matrices'
        /// translations), grown by reach on every side.</summary>
        static Bounds BoundsOf(Matrix4x4[] o, int n, float reach)
        {
            float x0 = float.PositiveInfinity, y0 = float.PositiveInfinity, z0 = float.PositiveInfinity;
            float x1 = float.NegativeInfinity, y1 = float.NegativeInfinity, z1 = float.NegativeInfinity;
            for (int k = 0; k < n; k++)
            {
                float x = o[k].m03, y = o[k].m13, z = o[k].m23;
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
                if (z < z0) z0 = z;
                if (z > z1) z1 = z;
            }
            var lo = new Vector3(x0 - reach, y0 - reach, z0 - reach);
            var hi = new Vector3(x1 + reach, y1 + reach, z1 + reach);
            return new Bounds((lo + hi) * 0.5f, hi - lo);
        }

        /// <summary>r = w (a + (b - a) t) for affine matrices (the last rows stay 0 0 0 1): the
        /// blend of two states in the world's space, placed by w; by reference, as the matrices
        /// are 64 bytes.</summary>
        static void LerpPlaced(ref Matrix4x4 w, ref Matrix4x4 a, ref Matrix4x4 b, float t, out Matrix4x4 r)
        {
            float u = 1f - t;
            float l00 = a.m00 * u + b.m00 * t, l10 = a.m10 * u + b.m10 * t, l20 = a.m20 * u + b.m20 * t;
            float l01 = a.m01 * u + b.m01 * t, l11 = a.m11 * u + b.m11 * t, l21 = a.m21 * u + b.m21 * t;
            float l02 = a.m02 * u + b.m02 * t, l12 = a.m12 * u + b.m12 * t, l22 = a.m22 * u + b.m22 * t;
            float l03 = a.m03 * u + b.m03 * t, l13 = a.m13 * u + b.m13 * t, l23 = a.m23 * u + b.m23 * t;
            r.m00 = w.m00 * l00 + w.m01 * l10 + w.m02 * l20;
            r.m10 = w.m10 * l00 + w.m11 * l10 + w.m12 * l20;
            r.m20 = w.m20 * l00 + w.m21 * l10 + w.m22 * l20;
            r.m01 = w.m00 * l01 + w.m01 * l11 + w.m02 * l21;
            r.m11 = w.m10 * l01 + w.m11 * l11 + w.m12 * l21;
            r.m21 = w.m20 * l01 + w.m21 * l11 + w.m22 * l21;
            r.m02 = w.m00 * l02 + w.m01 * l12 + w.m02 * l22;
            r.m12 = w.m10 * l02 + w.m11 * l12 + w.m12 * l22;
            r.m22 = w.m20 * l02 + w.m21 * l12 + w.m22 * l22;
            r.m03 = w.m00 * l03 + w.m01 * l13 + w.m02 * l23 + w.m03;
            r.m13 = w.m10 * l03 + w.m11 * l13 + w.m12 * l23 + w.m13;
            r.m23 = w.m20 * l03 + w.m21 * l13 + w.m22 * l23 + w.m23;
            r.m30 = 0f; r.m31 = 0f; r.m32 = 0f; r.m33 = 1f;
        }
    }
}
