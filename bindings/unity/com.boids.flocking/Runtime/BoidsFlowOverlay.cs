// The flow field overlay of a Boids Flock Controller (Draw Flow Field): one arrow every few cells
// along the way a walking flock's flow field leads to its target, on the ground, coloured from
// near the target (green) to far (red). Read from the engine when a new state is drawn (never
// while a step runs), kept in buffers that grow only when the field does, drawn with Gizmos (the
// Scene view, and the Game view with Gizmos on).
using System;
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>The arrows of one flock's flow field, in the world's (the controller's local)
    /// space.</summary>
    public sealed class BoidsFlowOverlay
    {
        float[] distances = new float[0];
        Vec3[] directions = new Vec3[0];
        // Each arrow: its tail, its tip and the two ends of its head's barbs.
        Vector3[] lines = new Vector3[0];
        Color[] colours = new Color[0];

        /// <summary>Arrows read by the last Read (0: the flock read no field).</summary>
        public int Count { get; private set; }
        /// <summary>Cells between arrows along x and z in the last Read.</summary>
        public int Stride { get; private set; }

        /// <summary>Arrow k's tail and tip (k below Count), in the world's space.</summary>
        public void Arrow(int k, out Vector3 tail, out Vector3 tip)
        {
            if (k < 0 || k >= Count) throw new ArgumentOutOfRangeException("k");
            tail = lines[4 * k];
            tip = lines[4 * k + 1];
        }

        /// <summary>Arrow k's colour: green at the target, red at the farthest reached cell.</summary>
        public Color Colour(int k)
        {
            if (k < 0 || k >= Count) throw new ArgumentOutOfRangeException("k");
            return colours[k];
        }

        /// <summary>Reads the field flock read in the world's last step: at most maxArrows arrows a
        /// side (a larger grid is drawn every Stride cells), each across most of its cells, lifted
        /// 0.2 cell widths over the ground at its centre (cells with no ground under them, no way
        /// to the target, or the target itself get none). Not while a step is in flight.</summary>
        public void Read(BoidsWorld world, BoidsFlock flock, int maxArrows)
        {
            Count = 0;
            Stride = 0;
            Vec3 origin;
            float cell;
            int columns, rows;
            if (world == null || flock == null || !flock.IsValid) return;
            if (!flock.TryGetFlowGrid(out origin, out cell, out columns, out rows)) return;
            int n = columns * rows;
            if (distances.Length < n)
            {
                distances = new float[n];
                directions = new Vec3[n];
            }
            flock.ReadFlowDistances(distances);
            flock.ReadFlowDirections(directions);
            int most = Math.Max(maxArrows, 1);
            int stride = Math.Max(1, (Math.Max(columns, rows) + most - 1) / most);
            int arrows = ((columns + stride - 1) / stride) * ((rows + stride - 1) / stride);
            if (colours.Length < arrows)
            {
                lines = new Vector3[4 * arrows];
                colours = new Color[arrows];
            }
            float far = 0f;
            for (int c = 0; c < n; c++) far = Math.Max(far, distances[c]);
            float half = 0.4f * cell * stride, barb = 0.3f * half, lift = 0.2f * cell;
            for (int k = stride / 2; k < rows; k += stride)
                for (int i = stride / 2; i < columns; i += stride)
                {
                    int c = k * columns + i;
                    Vec3 d = directions[c];
                    if ((d.X == 0f && d.Z == 0f) || distances[c] < 0f) continue;
                    float x = origin.X + (i + 0.5f) * cell, z = origin.Z + (k + 0.5f) * cell, y;
                    if (!world.TryGetGroundHeight(x, z, out y)) continue;
                    var mid = new Vector3(x, y + lift, z);
                    var along = new Vector3(d.X, 0f, d.Z);
                    var side = new Vector3(-d.Z, 0f, d.X);
                    Vector3 tip = mid + along * half;
                    lines[4 * Count] = mid - along * half;
                    lines[4 * Count + 1] = tip;
                    lines[4 * Count + 2] = tip - along * barb + side * barb;
                    lines[4 * Count + 3] = tip - along * barb - side * barb;
                    float t = far > 0f ? distances[c] / far : 0f;
                    colours[Count] = new Color(t, 1f - t, 0.1f, 1f);
                    Count++;
                }
            Stride = stride;
        }

        /// <summary>Draws the arrows with Gizmos under toWorld (the controller's localToWorldMatrix).</summary>
        public void Draw(Matrix4x4 toWorld)
        {
            if (Count == 0) return;
            Gizmos.matrix = toWorld;
            for (int k = 0; k < Count; k++)
            {
                Gizmos.color = colours[k];
                Vector3 tip = lines[4 * k + 1];
                Gizmos.DrawLine(lines[4 * k], tip);
                Gizmos.DrawLine(tip, lines[4 * k + 2]);
                Gizmos.DrawLine(tip, lines[4 * k + 3]);
            }
            Gizmos.matrix = Matrix4x4.identity;
        }
    }
}
