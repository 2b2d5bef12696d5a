// The UnityEngine stand-in's value types: Vector3, Quaternion, Matrix4x4, Bounds, Color (see
// UnityEngineStandIn.cs: Unity 2022.3's signatures, and Unity's conventions for the transform
// math, so the tests can check where the component draws). Compiled with it, into the same
// UnityEngine stand-in assembly.
using System;

namespace UnityEngine
{
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0f, 0f, 0f); } }
        public static Vector3 one { get { return new Vector3(1f, 1f, 1f); } }
        public static Vector3 Scale(Vector3 a, Vector3 b) { return new Vector3(a.x * b.x, a.y * b.y, a.z * b.z); }
        public float magnitude { get { return (float)Math.Sqrt(x * x + y * y + z * z); } }
        public static Vector3 Min(Vector3 a, Vector3 b) { return new Vector3(Math.Min(a.x, b.x), Math.Min(a.y, b.y), Math.Min(a.z, b.z)); }
        public static Vector3 Max(Vector3 a, Vector3 b) { return new Vector3(Math.Max(a.x, b.x), Math.Max(a.y, b.y), Math.Max(a.z, b.z)); }
        public static float Distance(Vector3 a, Vector3 b) { return (a - b).magnitude; }
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator -(Vector3 a) { return new Vector3(-a.x, -a.y, -a.z); }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
        public static Vector3 operator *(float d, Vector3 a) { return a * d; }
        public static Vector3 operator /(Vector3 a, float d) { return new Vector3(a.x / d, a.y / d, a.z / d); }
        public override string ToString() { return "(" + x + ", " + y + ", " + z + ")"; }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }
        public static Quaternion Inverse(Quaternion q) { return new Quaternion(-q.x, -q.y, -q.z, q.w); }

        public static Quaternion AngleAxis(float degrees, Vector3 axis)
        {
            float h = degrees * (float)Math.PI / 360f, s = (float)Math.Sin(h), l = axis.magnitude;
            return new Quaternion(axis.x / l * s, axis.y / l * s, axis.z / l * s, (float)Math.Cos(h));
        }

        /// <summary>Unity's order: about z, then x, then y.</summary>
        public static Quaternion Euler(float x, float y, float z)
        {
            return AngleAxis(y, new Vector3(0f, 1f, 0f)) * AngleAxis(x, new Vector3(1f, 0f, 0f)) * AngleAxis(z, new Vector3(0f, 0f, 1f));
        }

        public static Quaternion operator *(Quaternion a, Quaternion b)
        {
            return new Quaternion(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z,
                a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        public static Vector3 operator *(Quaternion q, Vector3 v)
        {
            Matrix4x4 m = Matrix4x4.TRS(Vector3.zero, q, new Vector3(1f, 1f, 1f));
            return m.MultiplyPoint3x4(v);
        }
    }

    public struct Matrix4x4 : IEquatable<Matrix4x4>
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;

        public bool Equals(Matrix4x4 o)
        {
            return m00 == o.m00 && m10 == o.m10 && m20 == o.m20 && m30 == o.m30 && m01 == o.m01 && m11 == o.m11 &&
                m21 == o.m21 && m31 == o.m31 && m02 == o.m02 && m12 == o.m12 && m22 == o.m22 && m32 == o.m32 &&
                m03 == o.m03 && m13 == o.m13 && m23 == o.m23 && m33 == o.m33;
        }

        public static Matrix4x4 identity
        {
            get { var m = new Matrix4x4(); m.m00 = m.m11 = m.m22 = m.m33 = 1f; return m; }
        }

        public float this[int row, int column]
        {
            get { return Get(row + column * 4); }
        }

        float Get(int i)
        {
            switch (i)
            {
                case 0: return m00; case 1: return m10; case 2: return m20; case 3: return m30;
                case 4: return m01; case 5: return m11; case 6: return m21; case 7: return m31;
                case 8: return m02; case 9: return m12; case 10: return m22; case 11: return m32;
                case 12: return m03; case 13: return m13; case 14: return m23; default: return m33;
            }
        }

        static Matrix4x4 FromColumnMajor(float[] e)
        {
            return new Matrix4x4
            {
                m00 = e[0], m10 = e[1], m20 = e[2], m30 = e[3], m01 = e[4], m11 = e[5], m21 = e[6], m31 = e[7],
                m02 = e[8], m12 = e[9], m22 = e[10], m32 = e[11], m03 = e[12], m13 = e[13], m23 = e[14], m33 = e[15],
            };
        }

        // Allocation-free, as Unity's is (the package's per-frame paths are measured through it).
        public static Matrix4x4 TRS(Vector3 pos, Quaternion q, Vector3 s)
        {
            float x = q.x, y = q.y, z = q.z, w = q.w;
            return new Matrix4x4
            {
                m00 = (1 - 2 * (y * y + z * z)) * s.x, m10 = 2 * (x * y + w * z) * s.x, m20 = 2 * (x * z - w * y) * s.x, m30 = 0f,
                m01 = 2 * (x * y - w * z) * s.y, m11 = (1 - 2 * (x * x + z * z)) * s.y, m21 = 2 * (y * z + w * x) * s.y, m31 = 0f,
                m02 = 2 * (x * z + w * y) * s.z, m12 = 2 * (y * z - w * x) * s.z, m22 = (1 - 2 * (x * x + y * y)) * s.z, m32 = 0f,
                m03 = pos.x, m13 = pos.y, m23 = pos.z, m33 = 1f,
            };
        }

        public static Matrix4x4 operator *(Matrix4x4 a, Matrix4x4 b)
        {
            var e = new float[16];
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++)
                {
                    float v = 0f;
                    for (int k = 0; k < 4; k++) v += a[r, k] * b[k, c];
                    e[r + c * 4] = v;
                }
            return FromColumnMajor(e);
        }

        public Vector3 MultiplyPoint3x4(Vector3 p)
        {
            return new Vector3(m00 * p.x + m01 * p.y + m02 * p.z + m03, m10 * p.x + m11 * p.y + m12 * p.z + m13,
                m20 * p.x + m21 * p.y + m22 * p.z + m23);
        }

        /// <summary>The inverse of an affine matrix (what Transform makes).</summary>
        public Matrix4x4 inverse
        {
            get
            {
                // 3x3 part by cofactors, then the translation.
                float a = m00, b = m01, c = m02, d = m10, e = m11, f = m12, g = m20, h = m21, i = m22;
                float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
                float det = a * A + b * B + c * C;
                var r = new Matrix4x4
                {
                    m00 = A / det, m01 = -(b * i - c * h) / det, m02 = (b * f - c * e) / det,
                    m10 = B / det, m11 = (a * i - c * g) / det, m12 = -(a * f - c * d) / det,
                    m20 = C / det, m21 = -(a * h - b * g) / det, m22 = (a * e - b * d) / det,
                    m33 = 1f,
                };
                Vector3 t = r.MultiplyPoint3x4(new Vector3(m03, m13, m23));
                r.m03 = -t.x; r.m13 = -t.y; r.m23 = -t.z;
                return r;
            }
        }
    }

    public struct Bounds
    {
        public Vector3 center { get; set; }
        public Vector3 extents { get; set; }
        public Bounds(Vector3 center, Vector3 size) { this.center = center; extents = size * 0.5f; }
        public Vector3 size { get { return extents * 2f; } }
        public Vector3 min { get { return center - extents; } }
        public Vector3 max { get { return center + extents; } }

        public void Encapsulate(Vector3 p)
        {
            Vector3 lo = Vector3.Min(min, p), hi = Vector3.Max(max, p);
            center = (lo + hi) * 0.5f;
            extents = (hi - lo) * 0.5f;
        }

        public void Expand(float amount) { extents = extents + new Vector3(amount, amount, amount) * 0.5f; }

        public bool Contains(Vector3 p)
        {
            Vector3 lo = min, hi = max;
            return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
        }
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
        public Color(float r, float g, float b) : this(r, g, b, 1f) { }
    }
}
