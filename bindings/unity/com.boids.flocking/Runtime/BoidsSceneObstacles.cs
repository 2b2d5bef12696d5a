// The scene's colliders as engine obstacles: every enabled, non-trigger collider on the chosen
// layers becomes an obstacle of the flock's world, in the world's space (the controller's local
// space):
//   BoxCollider      -> an oriented box (centre, half extents, rotation)
//   SphereCollider   -> a sphere (Unity's rule: the radius times the largest |scale|)
//   CapsuleCollider  -> a capsule (height and radius scaled as Unity scales them)
//   MeshCollider     -> a triangle mesh, uploaded once per shared Mesh, placed with the
//                       collider's position, rotation and scale
//   TerrainCollider  -> a heightfield, uploaded once per TerrainData, placed at the terrain
// Colliders that never move are uploaded once. Moving ones (with a Rigidbody, or a
// BoidsMovingObstacle component) follow their transform every frame, without a per-frame
// allocation. A collider this cannot express (a mirrored mesh: a negative scale) is skipped with
// one warning.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>The colliders of a scene as obstacles of one world (see the file's comment).
    /// Used by BoidsFlockController (its Obstacle Layers); usable on its own with any world.</summary>
    public sealed class BoidsSceneObstacles
    {
        sealed class Entry
        {
            public Collider collider;
            public BoidsObstacle obstacle;
            public ObstacleShape shape;
        }

        readonly BoidsWorld world;
        readonly Transform space;
        readonly List<Entry> moving = new List<Entry>();
        readonly List<Entry> fixedOnes = new List<Entry>();
        readonly Dictionary<Mesh, BoidsMesh> meshes = new Dictionary<Mesh, BoidsMesh>();
        readonly Dictionary<TerrainData, BoidsMesh> fields = new Dictionary<TerrainData, BoidsMesh>();

        /// <summary>Obstacles for every collider on <paramref name="layers"/> now in the scene, in
        /// <paramref name="world"/>, whose coordinates are <paramref name="space"/>'s local space
        /// (null: world space).</summary>
        public BoidsSceneObstacles(BoidsWorld world, Transform space, LayerMask layers)
        {
            if (world == null) throw new ArgumentNullException("world");
            this.world = world;
            this.space = space;
            foreach (Collider c in UnityEngine.Object.FindObjectsByType<Collider>(FindObjectsSortMode.None))
            {
                if (c == null || !c.enabled || c.isTrigger || !c.gameObject.activeInHierarchy) continue;
                if ((layers.value & (1 << c.gameObject.layer)) == 0) continue;
                Add(c);
            }
        }

        /// <summary>Obstacles made from colliders that never move.</summary>
        public int StaticCount { get { return fixedOnes.Count; } }

        /// <summary>Obstacles that follow their collider every frame.</summary>
        public int MovingCount { get { return moving.Count; } }

        /// <summary>Meshes and heightfields uploaded (one per shared Mesh or TerrainData).</summary>
        public int UploadCount { get { return meshes.Count + fields.Count; } }

        /// <summary>The obstacle made from <paramref name="c"/>, or null.</summary>
        public BoidsObstacle Find(Collider c)
        {
            foreach (Entry e in fixedOnes) if (e.collider == c) return e.obstacle;
            foreach (Entry e in moving) if (e.collider == c) return e.obstacle;
            return null;
        }

        /// <summary>The shape the library was given for <paramref name="c"/> (last frame's, for a
        /// moving one).</summary>
        public bool TryGetShape(Collider c, out ObstacleShape shape)
        {
            foreach (Entry e in fixedOnes) if (e.collider == c) { shape = e.shape; return true; }
            foreach (Entry e in moving) if (e.collider == c) { shape = e.shape; return true; }
            shape = default(ObstacleShape);
            return false;
        }

        void Add(Collider c)
        {
            ObstacleShape shape;
            string why;
            if (!Shape(c, out shape, out why))
            {
                Debug.LogWarning("Boids: collider '" + c.name + "' is not an obstacle: " + why, c);
                return;
            }
            BoidsObstacle o;
            try { o = world.AddObstacle(shape); }
            catch (BoidsException e)
            {
                Debug.LogWarning("Boids: collider '" + c.name + "' is not an obstacle: " + e.Message, c);
                return;
            }
            var entry = new Entry { collider = c, obstacle = o, shape = shape };
            bool moves = c.attachedRigidbody != null || c.GetComponent<BoidsMovingObstacle>() != null;
            (moves ? moving : fixedOnes).Add(entry);
        }

        /// <summary>Moves every moving obstacle to its collider's pose. Call when the world takes
        /// changes (no step in flight); allocates nothing. A destroyed or disabled collider's
        /// obstacle is removed.</summary>
        public void Sync()
        {
            for (int i = moving.Count - 1; i >= 0; i--)
            {
                Entry e = moving[i];
                ObstacleShape shape;
                string why;
                if (e.collider == null || !e.collider.enabled || !e.collider.gameObject.activeInHierarchy || !Shape(e.collider, out shape, out why))
                {
                    e.obstacle.Remove();
                    moving.RemoveAt(i);
                    continue;
                }
                e.shape = shape;
                e.obstacle.Set(shape);
            }
        }

        /// <summary>Removes every obstacle and uploaded shape from the world.</summary>
        public void Clear()
        {
            if (world.IsDisposed) return;
            foreach (Entry e in fixedOnes) e.obstacle.Remove();
            foreach (Entry e in moving) e.obstacle.Remove();
            fixedOnes.Clear();
            moving.Clear();
            foreach (BoidsMesh m in meshes.Values) m.Destroy();
            foreach (BoidsMesh m in fields.Values) m.Destroy();
            meshes.Clear();
            fields.Clear();
        }

        // ---- From Unity's colliders to the engine's shapes, in the world's space ----

        Vector3 Point(Vector3 worldPoint)
        {
            return space == null ? worldPoint : space.InverseTransformPoint(worldPoint);
        }

        Quaternion Rotation(Quaternion worldRotation)
        {
            return space == null ? worldRotation : Quaternion.Inverse(space.rotation) * worldRotation;
        }

        Vector3 Scale(Vector3 lossy)
        {
            if (space == null) return lossy;
            Vector3 s = space.lossyScale;
            return new Vector3(lossy.x / s.x, lossy.y / s.y, lossy.z / s.z);
        }

        static Vector3 Abs(Vector3 v) { return new Vector3(Math.Abs(v.x), Math.Abs(v.y), Math.Abs(v.z)); }

        static Quat Q(Quaternion q) { return new Quat(q.x, q.y, q.z, q.w); }

        /// <summary>The engine shape of one collider, in the world's space; false (and why) when
        /// it cannot be one.</summary>
        bool Shape(Collider c, out ObstacleShape shape, out string why)
        {
            shape = default(ObstacleShape);
            why = null;
            Transform t = c.transform;
            Vector3 scale = Scale(t.lossyScale);
            var box = c as BoxCollider;
            if (box != null)
            {
                Vector3 half = Vector3.Scale(Abs(scale), box.size) * 0.5f;
                shape = ObstacleShape.OrientedBox(Point(t.TransformPoint(box.center)).ToVec3(), half.ToVec3(), Q(Rotation(t.rotation)));
                return true;
            }
            var sphere = c as SphereCollider;
            if (sphere != null)
            {
                Vector3 a = Abs(scale);
                float r = sphere.radius * Math.Max(a.x, Math.Max(a.y, a.z));
                shape = ObstacleShape.Sphere(Point(t.TransformPoint(sphere.center)).ToVec3(), r);
                return true;
            }
            var capsule = c as CapsuleCollider;
            if (capsule != null)
            {
                // Unity: the radius scales with the larger of the two other axes, the height with
                // its own; the axis runs between the centres of the end caps.
                Vector3 a = Abs(scale);
                int d = capsule.direction;
                float along = d == 0 ? a.x : d == 1 ? a.y : a.z;
                float across = d == 0 ? Math.Max(a.y, a.z) : d == 1 ? Math.Max(a.x, a.z) : Math.Max(a.x, a.y);
                float r = capsule.radius * across;
                float half = Math.Max(0f, capsule.height * along * 0.5f - r);
                Vector3 axis = d == 0 ? new Vector3(1f, 0f, 0f) : d == 1 ? new Vector3(0f, 1f, 0f) : new Vector3(0f, 0f, 1f);
                Vector3 centre = Point(t.TransformPoint(capsule.center));
                Vector3 dir = Rotation(t.rotation) * axis;
                shape = ObstacleShape.Capsule((centre - dir * half).ToVec3(), (centre + dir * half).ToVec3(), r);
                return true;
            }
            var meshCollider = c as MeshCollider;
            if (meshCollider != null)
            {
                Mesh m = meshCollider.sharedMesh;
                if (m == null) { why = "its MeshCollider has no mesh"; return false; }
                if (scale.x <= 0f || scale.y <= 0f || scale.z <= 0f) { why = "a mirrored or flattened scale (" + scale + ")"; return false; }
                BoidsMesh data;
                if (!meshes.TryGetValue(m, out data))
                {
                    Vector3[] v = m.vertices;
                    var verts = new Vec3[v.Length];
                    for (int i = 0; i < v.Length; i++) verts[i] = v[i].ToVec3();
                    data = world.AddMesh(verts, m.triangles);
                    meshes[m] = data;
                }
                shape = ObstacleShape.Mesh(data, Point(t.position).ToVec3(), Q(Rotation(t.rotation)), scale.ToVec3());
                return true;
            }
            var terrain = c as TerrainCollider;
            if (terrain != null)
            {
                TerrainData td = terrain.terrainData;
                if (td == null) { why = "its TerrainCollider has no TerrainData"; return false; }
                BoidsMesh data;
                if (!fields.TryGetValue(td, out data))
                {
                    int n = td.heightmapResolution;
                    float[,] h = td.GetHeights(0, 0, n, n);
                    Vector3 size = td.size;
                    var heights = new float[n * n];
                    // GetHeights is [z, x], normalised to size.y.
                    for (int j = 0; j < n; j++)
                        for (int i = 0; i < n; i++)
                            heights[j * n + i] = h[j, i] * size.y;
                    data = world.AddHeightfield(heights, n, n, size.x / (n - 1), size.z / (n - 1));
                    fields[td] = data;
                }
                // A terrain is neither rotated nor scaled by its transform.
                shape = ObstacleShape.Heightfield(data, Point(t.position).ToVec3(), Q(Rotation(Quaternion.identity)), Scale(Vector3.one).ToVec3());
                return true;
            }
            why = "a " + c.GetType().Name + " has no engine shape";
            return false;
        }
    }
}
