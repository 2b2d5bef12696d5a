// The scene's colliders as engine obstacles: every enabled, non-trigger collider on the chosen
// layers becomes an obstacle of the flock's world, in the world's space (the controller's local
// space):
//   BoxCollider          -> an oriented box (centre, half extents, rotation)
//   SphereCollider       -> a sphere (Unity's rule: the radius times the largest |scale|)
//   CapsuleCollider      -> a capsule (height and radius scaled as Unity scales them)
//   CharacterController  -> a capsule along its up axis (the player)
//   MeshCollider         -> a triangle mesh, uploaded once per shared Mesh, placed with the
//                           collider's position, rotation and scale. A mesh a player cannot read
//                           (Read/Write off, the model importer's default) becomes its bounds as
//                           an oriented box, with one warning naming the mesh. A convex
//                           MeshCollider is its raw triangles too (not PhysX's hull).
//   TerrainCollider      -> a heightfield, uploaded once per TerrainData, placed at the terrain;
//                           whole (a heightmap finer than MaxTerrainSamples a side, which no
//                           Unity terrain is, would be uploaded at a coarser spacing)
// Colliders that never move are uploaded once, and set again (nothing rebuilt) when the space
// they are expressed in (the controller) moves. Moving ones (with a Rigidbody, or a
// BoidsMovingObstacle component) follow their transform every frame, without a per-frame
// allocation; one that cannot be an obstacle for a while (scaled to zero by a tween, disabled)
// leaves the world until it can again. A collider that cannot be an obstacle at all costs that
// obstacle only, with one warning: never the flock. Colliders added, destroyed or unloaded
// later: Add, Remove, Rescan and DropScene keep the list true.
// Ground layers: a TerrainCollider or (readable) MeshCollider on them is placed as ground, which
// flocks with FlockSettings.Grounded walk on (every other flock still avoids it); the other
// colliders on them are obstacles as on the obstacle layers.
using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>The colliders of a scene as obstacles of one world (see the file's comment).
    /// Used by BoidsFlockController (its Obstacle Layers); usable on its own with any world.</summary>
    public sealed class BoidsSceneObstacles
    {
        sealed class Entry
        {
            public Collider collider;
            /// <summary>Null while the collider cannot be an obstacle (it comes back when it can).</summary>
            public BoidsObstacle obstacle;
            public ObstacleShape shape;
            public bool moves;
            public Scene scene;
        }

        /// <summary>The most heightmap samples a side a terrain is uploaded with: 8193, the
        /// engine's limit (BoidsConst.MAX_HEIGHTFIELD_SAMPLES, 2^26 samples), so every Unity
        /// terrain (at most 4097 × 4097) is uploaded whole; a larger grid would take every
        /// second sample.</summary>
        public const int MaxTerrainSamples = 8193;

        readonly BoidsWorld world;
        readonly Transform space;
        readonly LayerMask layers;
        readonly LayerMask groundLayers;
        readonly List<Entry> moving = new List<Entry>();
        readonly List<Entry> fixedOnes = new List<Entry>();
        readonly Dictionary<Mesh, BoidsMesh> meshes = new Dictionary<Mesh, BoidsMesh>();
        readonly Dictionary<TerrainData, BoidsMesh> fields = new Dictionary<TerrainData, BoidsMesh>();
        readonly HashSet<UnityEngine.Object> warned = new HashSet<UnityEngine.Object>();
        Matrix4x4 spaceMatrix;

        /// <summary>Obstacles for every collider on <paramref name="layers"/> now in the scene, in
        /// <paramref name="world"/>, whose coordinates are <paramref name="space"/>'s local space
        /// (null: world space).</summary>
        public BoidsSceneObstacles(BoidsWorld world, Transform space, LayerMask layers)
            : this(world, space, layers, 0) { }

        /// <summary>As the other constructor, with the colliders on <paramref name="groundLayers"/>
        /// too: their terrains and meshes placed as ground (see the file's notes).</summary>
        public BoidsSceneObstacles(BoidsWorld world, Transform space, LayerMask layers, LayerMask groundLayers)
        {
            if (world == null) throw new ArgumentNullException("world");
            this.world = world;
            this.space = space;
            this.layers = layers;
            this.groundLayers = groundLayers;
            spaceMatrix = SpaceMatrix();
            if (space != null)
            {
                Vector3 s = Abs(space.lossyScale);
                float lo = Math.Min(s.x, Math.Min(s.y, s.z)), hi = Math.Max(s.x, Math.Max(s.y, s.z));
                if (hi > lo * 1.0001f)
                    Debug.LogWarning("Boids: '" + space.name + "' has a non-uniform scale " + space.lossyScale + ": in its space " +
                        "a sphere or capsule collider would be an ellipsoid, which no obstacle is, so each keeps its largest " +
                        "radius (boxes, meshes and terrains are exact). Scale the flock's object uniformly for exact spheres.", space);
            }
            foreach (Collider c in UnityEngine.Object.FindObjectsByType<Collider>(FindObjectsSortMode.None))
                if (Wanted(c)) Add(c);
        }

        /// <summary>Obstacles made from colliders that never move.</summary>
        public int StaticCount { get { return fixedOnes.Count; } }

        /// <summary>Obstacles that follow their collider every frame.</summary>
        public int MovingCount { get { return moving.Count; } }

        /// <summary>Meshes and heightfields uploaded (one per shared Mesh or TerrainData).</summary>
        public int UploadCount { get { return meshes.Count + fields.Count; } }

        /// <summary>The obstacle made from <paramref name="c"/>, or null (also while it cannot be one).</summary>
        public BoidsObstacle Find(Collider c)
        {
            Entry e = EntryOf(c);
            return e == null ? null : e.obstacle;
        }

        /// <summary>The shape the library was given for <paramref name="c"/> (last frame's, for a
        /// moving one).</summary>
        public bool TryGetShape(Collider c, out ObstacleShape shape)
        {
            Entry e = EntryOf(c);
            shape = e == null ? default(ObstacleShape) : e.shape;
            return e != null;
        }

        Entry EntryOf(Collider c)
        {
            foreach (Entry e in fixedOnes) if (ReferenceEquals(e.collider, c)) return e;
            foreach (Entry e in moving) if (ReferenceEquals(e.collider, c)) return e;
            return null;
        }

        bool Wanted(Collider c)
        {
            return c != null && c.enabled && !c.isTrigger && c.gameObject.activeInHierarchy &&
                ((layers.value | groundLayers.value) & (1 << c.gameObject.layer)) != 0;
        }

        /// <summary>The shape of <paramref name="c"/>'s obstacle, ground when it is a terrain or
        /// mesh on a ground layer.</summary>
        bool Shape(Collider c, out ObstacleShape shape, out string why)
        {
            if (!ColliderShape(c, out shape, out why)) return false;
            if (!Sized(shape)) { why = "scaled to zero (no size on some axis)"; return false; }
            shape.Ground = (groundLayers.value & (1 << c.gameObject.layer)) != 0 &&
                (shape.Kind == ObstacleKind.Mesh || shape.Kind == ObstacleKind.Heightfield);
            return true;
        }

        /// <summary>Makes <paramref name="c"/> an obstacle (any layer; a collider spawned after the
        /// scan, say). False, with one warning, when it cannot be one; false too when it already is
        /// one. Call when the world takes changes (no step in flight: the controller's
        /// FinishStep ends one).</summary>
        public bool Add(Collider c)
        {
            if (c == null) throw new ArgumentNullException("c");
            if (EntryOf(c) != null) return false;
            ObstacleShape shape;
            string why;
            BoidsObstacle o = null;
            try
            {
                if (Shape(c, out shape, out why)) o = world.AddObstacle(shape);
            }
            catch (Exception e)
            {
                // An engine refusal, or anything else this collider's data throws: this obstacle
                // is lost, never the flock.
                why = e.Message;
                shape = default(ObstacleShape);
            }
            if (o == null)
            {
                Debug.LogWarning("Boids: collider '" + c.name + "' is not an obstacle: " + why, c);
                return false;
            }
            var entry = new Entry { collider = c, obstacle = o, shape = shape, scene = c.gameObject.scene };
            entry.moves = c.attachedRigidbody != null || c.GetComponent<BoidsMovingObstacle>() != null;
            (entry.moves ? moving : fixedOnes).Add(entry);
            return true;
        }

        /// <summary>Removes <paramref name="c"/>'s obstacle; false when it had none. The shape data
        /// it used stays uploaded for other colliders of the same mesh or terrain.</summary>
        public bool Remove(Collider c)
        {
            return RemoveWhere(e => ReferenceEquals(e.collider, c)) > 0;
        }

        /// <summary>Drops the obstacles of the colliders of an unloaded scene, and of any
        /// destroyed collider (the controller calls this from SceneManager.sceneUnloaded).</summary>
        public int DropScene(Scene scene)
        {
            return RemoveWhere(e => e.collider == null || e.scene == scene);
        }

        /// <summary>The scene as it is now: drops the obstacles of colliders destroyed, disabled,
        /// made triggers or moved off the layers since, and adds colliders that are on the layers
        /// and not yet obstacles (spawned, or in a scene loaded since). Allocates: call it after a
        /// change to the level, not every frame. Returns how many were added.</summary>
        public int Rescan()
        {
            RemoveWhere(e => !(e.moves && e.collider != null) && !Wanted(e.collider));
            int added = 0;
            foreach (Collider c in UnityEngine.Object.FindObjectsByType<Collider>(FindObjectsSortMode.None))
                if (Wanted(c) && EntryOf(c) == null && Add(c)) added++;
            return added;
        }

        int RemoveWhere(Predicate<Entry> gone)
        {
            int n = 0;
            foreach (List<Entry> list in new[] { fixedOnes, moving })
            {
                for (int i = list.Count - 1; i >= 0; i--)
                {
                    if (!gone(list[i])) continue;
                    Hide(list[i]);
                    list.RemoveAt(i);
                    n++;
                }
            }
            return n;
        }

        /// <summary>Takes an entry's obstacle out of the world (it may come back).</summary>
        void Hide(Entry e)
        {
            if (e.obstacle == null) return;
            if (!world.IsDisposed)
            {
                // A script may have removed it already: then it is gone either way.
                try { e.obstacle.Remove(); }
                catch (BoidsException) { }
            }
            e.obstacle = null;
        }

        /// <summary>Puts the entry's obstacle where its collider is, or takes it out of the world for
        /// now when the collider cannot be one (disabled, scaled to zero, refused by the engine).</summary>
        void Follow(Entry e)
        {
            ObstacleShape shape = default(ObstacleShape);
            string why;
            bool ok;
            try { ok = e.collider.enabled && e.collider.gameObject.activeInHierarchy && Shape(e.collider, out shape, out why); }
            catch (Exception) { ok = false; }
            if (!ok)
            {
                Hide(e);
                return;
            }
            try
            {
                if (e.obstacle == null) e.obstacle = world.AddObstacle(shape);
                else e.obstacle.Set(shape);
                e.shape = shape;
            }
            catch (Exception) { Hide(e); }
        }

        /// <summary>Moves every moving obstacle to its collider's pose, brings back one that can be
        /// an obstacle again, and, when the space moved (the controller was moved, turned or
        /// scaled), sets every static one again. Call when the world takes changes (no step in
        /// flight); allocates nothing. A destroyed moving collider's obstacle is removed for
        /// good; one disabled or scaled to zero for a while leaves the world until it can come
        /// back.</summary>
        public void Sync()
        {
            for (int i = moving.Count - 1; i >= 0; i--)
            {
                Entry e = moving[i];
                if (e.collider == null)
                {
                    Hide(e);
                    moving.RemoveAt(i);
                    continue;
                }
                Follow(e);
            }
            Matrix4x4 m = SpaceMatrix();
            if (!m.Equals(spaceMatrix))
            {
                spaceMatrix = m;
                for (int i = fixedOnes.Count - 1; i >= 0; i--)
                {
                    Entry e = fixedOnes[i];
                    if (e.collider == null)
                    {
                        Hide(e);
                        fixedOnes.RemoveAt(i);
                        continue;
                    }
                    Follow(e);
                }
            }
        }

        /// <summary>Removes every obstacle and uploaded shape from the world.</summary>
        public void Clear()
        {
            if (world.IsDisposed) return;
            foreach (Entry e in fixedOnes) Hide(e);
            foreach (Entry e in moving) Hide(e);
            fixedOnes.Clear();
            moving.Clear();
            foreach (BoidsMesh m in meshes.Values) m.Destroy();
            foreach (BoidsMesh m in fields.Values) m.Destroy();
            meshes.Clear();
            fields.Clear();
        }

        // ---- From Unity's colliders to the engine's shapes, in the world's space ----

        /// <summary>Whether the sizes a collider's scale gives are ones the engine takes (more
        /// than zero on every axis): checked here, so that a collider scaled to zero (by a
        /// tween, say) leaves the world without an engine refusal, an exception and its garbage
        /// every frame.</summary>
        static bool Sized(ObstacleShape s)
        {
            switch (s.Kind)
            {
                case ObstacleKind.Sphere:
                case ObstacleKind.Capsule:
                    return s.Radius > 0f;
                case ObstacleKind.OrientedBox:
                    return s.B.X > 0f && s.B.Y > 0f && s.B.Z > 0f;
                case ObstacleKind.Mesh:
                case ObstacleKind.Heightfield:
                    return s.Scale.X > 0f && s.Scale.Y > 0f && s.Scale.Z > 0f;
                default:
                    return true;
            }
        }

        Matrix4x4 SpaceMatrix()
        {
            return space == null ? Matrix4x4.identity : space.localToWorldMatrix;
        }

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

        void WarnOnce(UnityEngine.Object about, string message, UnityEngine.Object context)
        {
            if (about == null || !warned.Add(about)) return;
            Debug.LogWarning(message, context);
        }

        /// <summary>The engine shape of one collider, in the world's space; false (and why) when
        /// it cannot be one. May upload shape data (once per mesh or terrain), which the engine
        /// may refuse (a BoidsException).</summary>
        bool ColliderShape(Collider c, out ObstacleShape shape, out string why)
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
                return Capsule(t, scale, capsule.center, capsule.radius, capsule.height, capsule.direction, out shape);
            var character = c as CharacterController;
            if (character != null)
                return Capsule(t, scale, character.center, character.radius, character.height, 1, out shape);
            var meshCollider = c as MeshCollider;
            if (meshCollider != null)
            {
                Mesh m = meshCollider.sharedMesh;
                if (m == null) { why = "its MeshCollider has no mesh"; return false; }
                if (scale.x <= 0f || scale.y <= 0f || scale.z <= 0f) { why = "a mirrored or flattened scale (" + scale + ")"; return false; }
                if (!m.isReadable)
                {
                    // A player cannot read such a mesh's triangles (Mesh.vertices is empty there):
                    // its bounds as a box, in the editor too, so that the flock behaves the same.
                    WarnOnce(m, "Boids: mesh '" + m.name + "' (collider '" + c.name + "') has Read/Write off in its " +
                        "import settings, so a player cannot read its triangles: the flock avoids its bounds as a box. " +
                        "Tick Read/Write (Model tab of the import settings) for its exact shape.", c);
                    return BoundsBox(t, scale, m.bounds, out shape, out why);
                }
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
                    data = Heightfield(td, c);
                    fields[td] = data;
                }
                // A terrain is neither rotated nor scaled by its transform.
                shape = ObstacleShape.Heightfield(data, Point(t.position).ToVec3(), Q(Rotation(Quaternion.identity)), Scale(Vector3.one).ToVec3());
                return true;
            }
            why = "a " + c.GetType().Name + " has no engine shape";
            return false;
        }

        bool Capsule(Transform t, Vector3 scale, Vector3 center, float radius, float height, int direction, out ObstacleShape shape)
        {
            // Unity: the radius scales with the larger of the two other axes, the height with
            // its own; the axis runs between the centres of the end caps.
            Vector3 a = Abs(scale);
            int d = direction;
            float along = d == 0 ? a.x : d == 1 ? a.y : a.z;
            float across = d == 0 ? Math.Max(a.y, a.z) : d == 1 ? Math.Max(a.x, a.z) : Math.Max(a.x, a.y);
            float r = radius * across;
            float half = Math.Max(0f, height * along * 0.5f - r);
            Vector3 axis = d == 0 ? new Vector3(1f, 0f, 0f) : d == 1 ? new Vector3(0f, 1f, 0f) : new Vector3(0f, 0f, 1f);
            Vector3 c = Point(t.TransformPoint(center));
            Vector3 dir = Rotation(t.rotation) * axis;
            shape = ObstacleShape.Capsule((c - dir * half).ToVec3(), (c + dir * half).ToVec3(), r);
            return true;
        }

        /// <summary>A mesh's local bounds, placed as its collider is, as an oriented box; a flat
        /// mesh (a plane) gets a thickness of a thousandth of its size.</summary>
        bool BoundsBox(Transform t, Vector3 scale, Bounds b, out ObstacleShape shape, out string why)
        {
            shape = default(ObstacleShape);
            why = null;
            Vector3 half = Vector3.Scale(Abs(scale), b.extents);
            float size = Math.Max(half.x, Math.Max(half.y, half.z));
            if (!(size > 0f)) { why = "its mesh has no size"; return false; }
            float thin = size * 1e-3f;
            half = new Vector3(Math.Max(half.x, thin), Math.Max(half.y, thin), Math.Max(half.z, thin));
            shape = ObstacleShape.OrientedBox(Point(t.TransformPoint(b.center)).ToVec3(), half.ToVec3(), Q(Rotation(t.rotation)));
            return true;
        }

        /// <summary>A terrain's heightmap as a heightfield, read a row at a time (no array of the
        /// whole heightmap), every step-th sample when it is finer than MaxTerrainSamples.</summary>
        BoidsMesh Heightfield(TerrainData td, Collider c)
        {
            int n = td.heightmapResolution;
            int step = 1;
            while ((n - 1) / step + 1 > MaxTerrainSamples) step++;
            int m = (n - 1) / step + 1;
            if (step > 1)
                WarnOnce(td, "Boids: terrain '" + td.name + "' has a " + n + " x " + n + " heightmap: uploaded at every " +
                    step + "th sample (" + m + " x " + m + "), the flock's floor is that much coarser.", c);
            Vector3 size = td.size;
            var heights = new float[m * m];
            for (int j = 0; j < m; j++)
            {
                // GetHeights is [z, x], normalised to size.y.
                float[,] row = td.GetHeights(0, j * step, n, 1);
                for (int i = 0; i < m; i++) heights[j * m + i] = row[0, i * step] * size.y;
            }
            float cellX = size.x / (n - 1) * step, cellZ = size.z / (n - 1) * step;
            return world.AddHeightfield(heights, m, m, cellX, cellZ);
        }
    }
}
