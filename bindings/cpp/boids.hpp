// boids.hpp: a header-only C++17 wrapper over the whole boids C ABI (include/boids.h).
//
// - Owners: boids::World, boids::Flock and boids::Obstacle own their native objects and release
//   them in their destructors. They move and never copy; a moved-from owner holds a null id and
//   is safe to destroy or assign to. A flock or obstacle whose world is gone has a stale id: its
//   destructor is then a no-op and every other call throws boids::Error (INVALID_ID).
// - Handles: boids::FlockRef is a non-owning flock handle with every flock operation (what
//   World::find_flock and World::flocks return); boids::Flock is a FlockRef that owns.
// - Errors: every refused call throws boids::Error with the result code and the library's
//   sentence. Nothing here swallows an error.
// - Reads: a pointer + capacity overload (a span; throws BUFFER_TOO_SMALL when it does not fit)
//   and a std::vector overload (resized to fit; a vector reused frame after frame allocates
//   nothing once it has grown).
// - Enums: enum classes in boids_enums.hpp, generated from the engine's tables like the C
//   constants.
//
// Which C export each method wraps is named in its comment; crates/ffi/tests/cpp_coverage.rs
// fails if an export of boids.h is neither used here nor listed there with a reason.
#pragma once

#include "boids.h"
#include "boids_enums.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace boids {

using Vec3 = BoidsVec3;
using Quat = BoidsQuat;
using Mat4 = BoidsMat4;
using FlockParams = BoidsFlockParams;
using Bounds = BoidsBounds;
using SpawnDef = BoidsSpawnDef;
using ObstacleDef = BoidsObstacleDef;

/// A refused call: the result code and the library's sentence about it.
class Error : public std::runtime_error {
public:
    Error(BoidsResult code, const std::string& detail)
        : std::runtime_error(std::string(boids_result_str(static_cast<std::int32_t>(code))) + ": " + detail),
          code_(code), detail_(detail) {}
    /// The result code (BOIDS_RESULT_*).
    BoidsResult code() const noexcept { return code_; }
    /// The library's sentence (boids_last_error_message at the time of the failure).
    const std::string& detail() const noexcept { return detail_; }

private:
    BoidsResult code_;
    std::string detail_;
};

/// Throws boids::Error unless `r` is BOIDS_RESULT_OK.
inline void check(BoidsResult r) {
    if (r != BOIDS_RESULT_OK) throw Error(r, boids_last_error_message());
}

/// The library's version, e.g. "0.3.0" (boids_version).
inline std::string version() { return boids_version(); }

/// The version of this wrapper (the release it came with); equal to version() when the header
/// and the library come from the same release.
inline constexpr const char *wrapper_version = "0.3.0";

/// The ABI version of the loaded library (boids_abi_version); BOIDS_ABI_VERSION is this
/// header's.
inline std::uint32_t abi_version() noexcept { return boids_abi_version(); }

/// Checks, once per process, that the loaded library has this header's ABI version and struct
/// sizes (boids_struct_size); throws boids::Error (INVALID_ARGUMENT) on a mismatch. The World
/// constructors call it.
inline void check_abi() {
    static std::once_flag once;
    static std::string problem;
    std::call_once(once, [] {
        if (boids_abi_version() != BOIDS_ABI_VERSION) {
            problem = "the library's ABI version is " + std::to_string(boids_abi_version()) +
                      ", this header's " + std::to_string(BOIDS_ABI_VERSION);
            return;
        }
        const std::pair<std::int32_t, std::size_t> sizes[] = {
            {BOIDS_STRUCT_VEC3, sizeof(BoidsVec3)},           {BOIDS_STRUCT_QUAT, sizeof(BoidsQuat)},
            {BOIDS_STRUCT_MAT4, sizeof(BoidsMat4)},           {BOIDS_STRUCT_WORLD_ID, sizeof(BoidsWorldId)},
            {BOIDS_STRUCT_FLOCK_ID, sizeof(BoidsFlockId)},    {BOIDS_STRUCT_OBSTACLE_ID, sizeof(BoidsObstacleId)},
            {BOIDS_STRUCT_WORLD_DEF, sizeof(BoidsWorldDef)},  {BOIDS_STRUCT_BOUNDS, sizeof(BoidsBounds)},
            {BOIDS_STRUCT_FLOCK_PARAMS, sizeof(BoidsFlockParams)}, {BOIDS_STRUCT_FLOCK_DEF, sizeof(BoidsFlockDef)},
            {BOIDS_STRUCT_SPAWN_DEF, sizeof(BoidsSpawnDef)},  {BOIDS_STRUCT_OBSTACLE_DEF, sizeof(BoidsObstacleDef)},
            {BOIDS_STRUCT_MESH_ID, sizeof(BoidsMeshId)},
        };
        for (const auto& s : sizes) {
            if (boids_struct_size(s.first) != s.second) {
                problem = "struct kind " + std::to_string(s.first) + " is " +
                          std::to_string(boids_struct_size(s.first)) + " bytes in the library, " +
                          std::to_string(s.second) + " in this header";
                return;
            }
        }
    });
    if (!problem.empty()) throw Error(BOIDS_RESULT_INVALID_ARGUMENT, problem);
}

/// The engine's default flock parameters (boids_default_flock_params): the fish-tank model.
inline FlockParams default_params() { return boids_default_flock_params(); }

/// Spawn settings (a BoidsSpawnDef from boids_default_spawn_def, with helpers).
struct Spawn {
    SpawnDef def = boids_default_spawn_def();

    /// Uniform in the box [min, max].
    static Spawn box(Vec3 min, Vec3 max) {
        Spawn s;
        s.def.shape = static_cast<std::int32_t>(SpawnKind::Box);
        s.def.min = min;
        s.def.max = max;
        return s;
    }
    /// Uniform in the ball around `centre`.
    static Spawn sphere(Vec3 centre, float radius) {
        Spawn s;
        s.def.shape = static_cast<std::int32_t>(SpawnKind::Sphere);
        s.def.centre = centre;
        s.def.radius = radius;
        return s;
    }
    /// Speeds drawn in [min_speed, max_speed].
    Spawn& speeds(float min_speed, float max_speed) {
        def.min_speed = min_speed;
        def.max_speed = max_speed;
        return *this;
    }
    /// Every boid heading along `direction` instead of a random direction.
    Spawn& heading(Vec3 direction) {
        def.has_direction = 1;
        def.direction = direction;
        return *this;
    }
};

/// Bounds helpers (BoidsBounds).
struct BoundsOf {
    static Bounds none() {
        Bounds b = default_params().bounds;
        b.kind = static_cast<std::int32_t>(BoundsKind::None);
        return b;
    }
    static Bounds soft_box(Vec3 min, Vec3 max, float distance = 3.0f) {
        Bounds b = none();
        b.kind = static_cast<std::int32_t>(BoundsKind::SoftBox);
        b.min = min;
        b.max = max;
        b.distance = distance;
        return b;
    }
    static Bounds soft_sphere(Vec3 centre, float radius, float inner = 0.0f) {
        Bounds b = none();
        b.kind = static_cast<std::int32_t>(BoundsKind::SoftSphere);
        b.centre = centre;
        b.radius = radius;
        b.inner = inner;
        return b;
    }
    static Bounds wrap(Vec3 min, Vec3 max) { return box(BoundsKind::Wrap, min, max); }
    static Bounds clamp(Vec3 min, Vec3 max) { return box(BoundsKind::Clamp, min, max); }
    static Bounds turn_back(Vec3 min, Vec3 max) { return box(BoundsKind::TurnBack, min, max); }

private:
    static Bounds box(BoundsKind k, Vec3 min, Vec3 max) {
        Bounds b = none();
        b.kind = static_cast<std::int32_t>(k);
        b.min = min;
        b.max = max;
        return b;
    }
};

/// Obstacle shapes (BoidsObstacleDef, from boids_default_obstacle_def()).
struct Shape {
    static ObstacleDef sphere(Vec3 centre, float radius) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::Sphere);
        d.a = centre;
        d.radius = radius;
        return d;
    }
    static ObstacleDef box(Vec3 min, Vec3 max) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::Box);
        d.a = min;
        d.b = max;
        return d;
    }
    /// The plane through `point` with outward `normal`.
    static ObstacleDef plane(Vec3 point, Vec3 normal) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::Plane);
        d.a = point;
        d.b = normal;
        return d;
    }
    /// A box of half extents `half` around `centre`, turned by the unit `rotation`.
    static ObstacleDef oriented_box(Vec3 centre, Vec3 half, Quat rotation) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::OrientedBox);
        d.a = centre;
        d.b = half;
        d.rotation = rotation;
        return d;
    }
    /// The points within `radius` of the segment `a b`.
    static ObstacleDef capsule(Vec3 a, Vec3 b, float radius) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::Capsule);
        d.a = a;
        d.b = b;
        d.radius = radius;
        return d;
    }
    /// A triangle mesh (World::add_mesh) placed at `position`, turned by `rotation`, scaled.
    static ObstacleDef mesh(BoidsMeshId mesh, Vec3 position, Quat rotation = Quat{0, 0, 0, 1},
                            Vec3 scale = Vec3{1, 1, 1}) {
        ObstacleDef d = boids_default_obstacle_def();
        d.shape = static_cast<std::int32_t>(ObstacleKind::Mesh);
        d.mesh = mesh;
        d.a = position;
        d.rotation = rotation;
        d.scale = scale;
        return d;
    }
    /// A heightfield (World::add_heightfield) with sample (0, 0) at `position`.
    static ObstacleDef heightfield(BoidsMeshId field, Vec3 position, Quat rotation = Quat{0, 0, 0, 1},
                                   Vec3 scale = Vec3{1, 1, 1}) {
        ObstacleDef d = mesh(field, position, rotation, scale);
        d.shape = static_cast<std::int32_t>(ObstacleKind::Heightfield);
        return d;
    }
    /// `def` (a mesh or heightfield placement) as ground: flocks with `grounded` = 1 walk on it;
    /// to every other flock it is an obstacle.
    static ObstacleDef ground(ObstacleDef def) {
        def.ground = 1;
        return def;
    }
};

namespace detail {
/// Reads into a caller span; throws BUFFER_TOO_SMALL (with the count needed) if it does not fit.
template <typename Id, typename T, typename F>
std::size_t read_span(Id id, T* out, std::size_t capacity, F fn) {
    std::size_t n = 0;
    check(fn(id, out, capacity, &n));
    return n;
}
/// Reads into a vector, growing it to fit.
template <typename Id, typename T, typename F>
void read_vector(Id id, std::vector<T>& out, F fn) {
    std::size_t n = 0;
    BoidsResult r = fn(id, out.data(), out.size(), &n);
    if (r == BOIDS_RESULT_BUFFER_TOO_SMALL) {
        out.resize(n);
        r = fn(id, out.data(), out.size(), &n);
    }
    check(r);
    out.resize(n);
}
/// boids_flock_read_matrices with its scale bound, shaped like the other reads.
struct Matrices {
    float scale;
    BoidsResult operator()(BoidsFlockId f, Mat4* p, std::size_t cap, std::size_t* n) const {
        return boids_flock_read_matrices(f, scale, p, cap, n);
    }
};
/// boids_flock_read_matrices_transformed with its transform and scale bound.
struct TransformedMatrices {
    const Mat4* transform;
    float scale;
    BoidsResult operator()(BoidsFlockId f, Mat4* p, std::size_t cap, std::size_t* n) const {
        return boids_flock_read_matrices_transformed(f, transform, scale, p, cap, n);
    }
};
}  // namespace detail

/// A flock handle that does not own the flock: every flock operation.
class FlockRef {
public:
    FlockRef() = default;
    explicit FlockRef(BoidsFlockId id) noexcept : id_(id) {}

    BoidsFlockId id() const noexcept { return id_; }
    /// Whether the flock still exists (boids_flock_is_valid).
    bool valid() const noexcept { return boids_flock_is_valid(id_) == 1; }
    /// Number of boids (boids_flock_count).
    std::size_t size() const {
        std::size_t n = 0;
        check(boids_flock_count(id_, &n));
        return n;
    }

    /// The flock's name (boids_flock_name).
    std::string name() const {
        std::size_t len = 0;
        BoidsResult r = boids_flock_name(id_, nullptr, 0, &len);
        if (r != BOIDS_RESULT_BUFFER_TOO_SMALL) check(r);
        std::string out(len + 1, '\0');
        check(boids_flock_name(id_, out.data(), out.size(), &len));
        out.resize(len);
        return out;
    }

    /// Spawns `n` boids; returns the first new id (boids_flock_spawn).
    std::uint32_t spawn(std::uint32_t n, const Spawn& spawn = Spawn()) {
        std::uint32_t first = 0;
        check(boids_flock_spawn(id_, n, &spawn.def, &first));
        return first;
    }
    /// Grows (spawning) or shrinks (highest ids first) the flock to `n` (boids_flock_resize).
    void resize(std::uint32_t n, const Spawn& spawn = Spawn()) { check(boids_flock_resize(id_, n, &spawn.def)); }
    /// Adds boids at given positions and velocities; returns the first new id
    /// (boids_flock_add_boids).
    std::uint32_t add(const Vec3* positions, const Vec3* velocities, std::size_t count) {
        std::uint32_t first = 0;
        check(boids_flock_add_boids(id_, positions, velocities, count, &first));
        return first;
    }
    std::uint32_t add(const std::vector<Vec3>& positions, const std::vector<Vec3>& velocities) {
        if (positions.size() != velocities.size())
            throw Error(BOIDS_RESULT_INVALID_ARGUMENT, "add: " + std::to_string(positions.size()) +
                                                           " positions but " + std::to_string(velocities.size()) +
                                                           " velocities");
        return add(positions.data(), velocities.data(), positions.size());
    }
    /// Removes boids by id, all or nothing; returns how many went (boids_flock_remove_boids).
    std::size_t remove(const std::uint32_t* ids, std::size_t count) {
        std::size_t n = 0;
        check(boids_flock_remove_boids(id_, ids, count, &n));
        return n;
    }
    std::size_t remove(const std::vector<std::uint32_t>& ids) { return remove(ids.data(), ids.size()); }

    /// The parameters (boids_flock_get_params).
    FlockParams params() const {
        FlockParams p{};
        check(boids_flock_get_params(id_, &p));
        return p;
    }
    /// Replaces the parameters, all or nothing (boids_flock_set_params).
    void set_params(const FlockParams& p) { check(boids_flock_set_params(id_, &p)); }
    /// Moves the target point (boids_flock_set_target).
    void set_target(Vec3 p) { check(boids_flock_set_target(id_, p)); }
    /// Replaces the bounds (boids_flock_set_bounds).
    void set_bounds(const Bounds& b) { check(boids_flock_set_bounds(id_, &b)); }
    /// Makes boid `boid_id` the leader: the target follows it at `offset` (boids_flock_set_leader).
    void set_leader(std::uint32_t boid_id, Vec3 offset) { check(boids_flock_set_leader(id_, boid_id, offset)); }
    /// Stops following a leader (boids_flock_clear_leader).
    void clear_leader() { check(boids_flock_clear_leader(id_)); }
    /// Follows the polyline `points` (empty: no path) (boids_flock_set_path).
    void set_path(const Vec3* points, std::size_t count, bool closed) {
        check(boids_flock_set_path(id_, points, count, closed ? 1 : 0));
    }
    void set_path(const std::vector<Vec3>& points, bool closed) { set_path(points.data(), points.size(), closed); }
    /// How many boids are at the target (boids_flock_count_at_target; throws without a target).
    std::size_t count_at_target() const {
        std::size_t n = 0;
        check(boids_flock_count_at_target(id_, &n));
        return n;
    }
    /// The grid of a flow field: the corner of least x and z, the cell width, the cells along x
    /// and z; its per-cell reads list the cells row by row, x fastest.
    struct FlowGrid {
        Vec3 origin{};
        float cell = 0.0f;
        std::uint32_t columns = 0;
        std::uint32_t rows = 0;
    };
    /// The grid of the flow field the flock read in the last step; false when it read none
    /// (boids_flock_get_flow_grid).
    bool flow_grid(FlowGrid& out) const {
        FlowGrid g;
        BoidsResult r = boids_flock_get_flow_grid(id_, &g.origin, &g.cell, &g.columns, &g.rows);
        if (r == BOIDS_RESULT_NOT_FOUND) return false;
        check(r);
        out = g;
        return true;
    }
    /// Each cell's distance to the target along the field's way, -1 where none leads
    /// (boids_flock_read_flow_distances).
    void read_flow_distances(std::vector<float>& out) const {
        detail::read_vector(id_, out, boids_flock_read_flow_distances);
    }
    /// Each cell's unit direction along the field's way, zero where it ends or none leads
    /// (boids_flock_read_flow_directions).
    void read_flow_directions(std::vector<Vec3>& out) const {
        detail::read_vector(id_, out, boids_flock_read_flow_directions);
    }
    /// The flock moves only while the observer is inside [min, max] (boids_flock_set_wake_region).
    void set_wake_region(Vec3 min, Vec3 max) { check(boids_flock_set_wake_region(id_, &min, &max)); }
    /// The flock moves wherever the observer is (boids_flock_set_wake_region with NULLs).
    void clear_wake_region() { check(boids_flock_set_wake_region(id_, nullptr, nullptr)); }
    /// Whether the last step skipped the flock (boids_flock_is_asleep).
    bool asleep() const {
        std::int32_t a = 0;
        check(boids_flock_is_asleep(id_, &a));
        return a == 1;
    }

    /// Positions, in ascending id order (boids_flock_read_positions).
    std::size_t read_positions(Vec3* out, std::size_t capacity) const {
        return detail::read_span(id_, out, capacity, boids_flock_read_positions);
    }
    void read_positions(std::vector<Vec3>& out) const { detail::read_vector(id_, out, boids_flock_read_positions); }
    /// Velocities (boids_flock_read_velocities).
    std::size_t read_velocities(Vec3* out, std::size_t capacity) const {
        return detail::read_span(id_, out, capacity, boids_flock_read_velocities);
    }
    void read_velocities(std::vector<Vec3>& out) const { detail::read_vector(id_, out, boids_flock_read_velocities); }
    /// Boid ids, ascending (boids_flock_read_ids).
    std::size_t read_ids(std::uint32_t* out, std::size_t capacity) const {
        return detail::read_span(id_, out, capacity, boids_flock_read_ids);
    }
    void read_ids(std::vector<std::uint32_t>& out) const { detail::read_vector(id_, out, boids_flock_read_ids); }
    /// Orientations (boids_flock_read_orientations).
    std::size_t read_orientations(Quat* out, std::size_t capacity) const {
        return detail::read_span(id_, out, capacity, boids_flock_read_orientations);
    }
    void read_orientations(std::vector<Quat>& out) const {
        detail::read_vector(id_, out, boids_flock_read_orientations);
    }
    /// Column-major 4x4 instance matrices, uniformly scaled (boids_flock_read_matrices).
    std::size_t read_matrices(Mat4* out, std::size_t capacity, float scale = 1.0f) const {
        return detail::read_span(id_, out, capacity, detail::Matrices{scale});
    }
    void read_matrices(std::vector<Mat4>& out, float scale = 1.0f) const {
        detail::read_vector(id_, out, detail::Matrices{scale});
    }
    /// The instance matrices multiplied on the left by `transform` (column-major), for a flock
    /// that lives in a parent's local space (boids_flock_read_matrices_transformed).
    std::size_t read_matrices(Mat4* out, std::size_t capacity, const Mat4& transform, float scale = 1.0f) const {
        return detail::read_span(id_, out, capacity, detail::TransformedMatrices{&transform, scale});
    }
    void read_matrices(std::vector<Mat4>& out, const Mat4& transform, float scale = 1.0f) const {
        detail::read_vector(id_, out, detail::TransformedMatrices{&transform, scale});
    }
    /// Overwrites every position, in id order; `count` must be the flock's size
    /// (boids_flock_write_positions).
    void write_positions(const Vec3* p, std::size_t count) { check(boids_flock_write_positions(id_, p, count)); }
    void write_positions(const std::vector<Vec3>& p) { write_positions(p.data(), p.size()); }
    /// Overwrites every velocity (boids_flock_write_velocities).
    void write_velocities(const Vec3* v, std::size_t count) { check(boids_flock_write_velocities(id_, v, count)); }
    void write_velocities(const std::vector<Vec3>& v) { write_velocities(v.data(), v.size()); }

protected:
    BoidsFlockId id_{};

};

/// A flock that owns its native flock: destroyed with it (boids_flock_destroy).
class Flock : public FlockRef {
public:
    Flock() = default;
    /// Takes ownership of an existing flock (for example one found by name).
    explicit Flock(FlockRef r) noexcept : FlockRef(r.id()) {}
    ~Flock() { reset(); }
    Flock(const Flock&) = delete;
    Flock& operator=(const Flock&) = delete;
    Flock(Flock&& o) noexcept : FlockRef(std::exchange(o.id_, BoidsFlockId{})) {}
    Flock& operator=(Flock&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, BoidsFlockId{});
        }
        return *this;
    }
    /// Destroys the flock now (boids_flock_destroy); throws if it was already gone.
    void destroy() {
        BoidsFlockId id = std::exchange(id_, BoidsFlockId{});
        check(boids_flock_destroy(id));
    }
    /// Gives up ownership: the flock lives on in its world.
    FlockRef release() noexcept { return FlockRef(std::exchange(id_, BoidsFlockId{})); }

private:
    void reset() noexcept {
        // A stale id (its world already destroyed) is refused, which is what we want here.
        if (id_.index != 0) boids_flock_destroy(id_);
        id_ = BoidsFlockId{};
    }
};

/// Shape data (a triangle mesh or a heightfield) that owns its native data: destroyed with it
/// (boids_mesh_destroy). Destroy the obstacles that place it first: the native call refuses a
/// mesh still placed, and the destructor then leaves it to the world.
class Mesh {
public:
    Mesh() = default;
    explicit Mesh(BoidsMeshId id) noexcept : id_(id) {}
    ~Mesh() { reset(); }
    Mesh(const Mesh&) = delete;
    Mesh& operator=(const Mesh&) = delete;
    Mesh(Mesh&& o) noexcept : id_(std::exchange(o.id_, BoidsMeshId{})) {}
    Mesh& operator=(Mesh&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, BoidsMeshId{});
        }
        return *this;
    }
    BoidsMeshId id() const noexcept { return id_; }
    /// Whether the data is still alive (boids_mesh_is_valid).
    bool valid() const noexcept { return boids_mesh_is_valid(id_) == 1; }
    /// Destroys the data now (boids_mesh_destroy); throws while an obstacle places it.
    void destroy() {
        check(boids_mesh_destroy(id_));
        id_ = BoidsMeshId{};
    }
    /// Gives up ownership: the data stays in its world.
    BoidsMeshId release() noexcept { return std::exchange(id_, BoidsMeshId{}); }

private:
    void reset() noexcept {
        if (id_.index != 0) boids_mesh_destroy(id_);
        id_ = BoidsMeshId{};
    }
    BoidsMeshId id_{};
};

/// An obstacle that owns its native obstacle: removed with it (boids_obstacle_remove).
class Obstacle {
public:
    Obstacle() = default;
    explicit Obstacle(BoidsObstacleId id) noexcept : id_(id) {}
    ~Obstacle() { reset(); }
    Obstacle(const Obstacle&) = delete;
    Obstacle& operator=(const Obstacle&) = delete;
    Obstacle(Obstacle&& o) noexcept : id_(std::exchange(o.id_, BoidsObstacleId{})) {}
    Obstacle& operator=(Obstacle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, BoidsObstacleId{});
        }
        return *this;
    }
    BoidsObstacleId id() const noexcept { return id_; }
    /// Replaces the shape (boids_obstacle_set).
    void set(const ObstacleDef& def) { check(boids_obstacle_set(id_, &def)); }
    /// Removes the obstacle now (boids_obstacle_remove); throws if it was already gone.
    void remove() {
        BoidsObstacleId id = std::exchange(id_, BoidsObstacleId{});
        check(boids_obstacle_remove(id));
    }
    /// Gives up ownership: the obstacle stays in its world.
    BoidsObstacleId release() noexcept { return std::exchange(id_, BoidsObstacleId{}); }

private:
    void reset() noexcept {
        if (id_.index != 0) boids_obstacle_remove(id_);
        id_ = BoidsObstacleId{};
    }
    BoidsObstacleId id_{};
};

/// A host's job system (a game engine's workers) that runs a world's parallel work instead of
/// the engine's own threads: BoidsWorldDef's enqueue_task / finish_task as an interface, like
/// Jolt's JobSystem. Implement it over your scheduler and pass it to World's constructor; it
/// must outlive every world that uses it. The bits of every step are the same for any
/// implementation, worker count and order of running the ranges.
class JobSystem {
public:
    virtual ~JobSystem() = default;
    /// Workers that may run the engine's ranges at once (1..=1024).
    virtual std::uint32_t workers() const = 0;
    /// Run `task(start, end, context)` for ranges [start, end) covering 0..items exactly once
    /// (each at least `min_range` long but the last), on your workers, in any order, without
    /// waiting for a worker here. Return a handle for finish(), or nullptr when every call has
    /// already been made here. Called from any thread that steps, ends or destroys the world
    /// and from the worker running a begun step: thread-safe, and never calling back into
    /// boids for that world.
    virtual void* enqueue(BoidsTaskFn task, std::uint32_t items, std::uint32_t min_range, void* context) = 0;
    /// Forget the task `handle` (wait until every call of it has returned). boids calls it only
    /// once every call has returned, so it never waits; at most once per non-null handle (a
    /// task a worker still holds when the world is destroyed is never finished: forget it when
    /// its call returns). Never throws.
    virtual void finish(void* handle) noexcept = 0;

    /// The C callbacks over this object (what World's constructor puts in the def).
    void fill(BoidsWorldDef& def) {
        def.threads = 0;
        def.worker_count = workers();
        def.enqueue_task = &JobSystem::enqueue_c;
        def.finish_task = &JobSystem::finish_c;
        def.user_context = this;
    }

private:
    static void* enqueue_c(BoidsTaskFn task, std::uint32_t items, std::uint32_t min_range, void* context,
                           void* user) {
        // An exception must not cross the C library: a host that cannot queue runs the task here.
        try {
            return static_cast<JobSystem*>(user)->enqueue(task, items, min_range, context);
        } catch (...) {
            task(0, items, context);
            return nullptr;
        }
    }
    static void finish_c(void* handle, void* user) { static_cast<JobSystem*>(user)->finish(handle); }
};

/// A simulation world (boids_world_create / boids_world_destroy). Destroying it makes every
/// id of its flocks and obstacles stale; a step in flight is waited for first.
class World {
public:
    /// `threads`: 0 one per core, 1 the calling thread, n a pool of n.
    explicit World(std::uint64_t seed = 0, std::uint32_t threads = 0) {
        check_abi();
        BoidsWorldDef def = boids_default_world_def();
        def.seed = seed;
        def.threads = threads;
        check(boids_world_create(&def, &id_));
    }
    /// A world whose steps run on the host's job system `jobs` (which must outlive it).
    World(std::uint64_t seed, JobSystem& jobs) {
        check_abi();
        BoidsWorldDef def = boids_default_world_def();
        def.seed = seed;
        jobs.fill(def);
        check(boids_world_create(&def, &id_));
    }
    ~World() { reset(); }
    World(const World&) = delete;
    World& operator=(const World&) = delete;
    World(World&& o) noexcept : id_(std::exchange(o.id_, BoidsWorldId{})) {}
    World& operator=(World&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, BoidsWorldId{});
        }
        return *this;
    }

    BoidsWorldId id() const noexcept { return id_; }
    /// Whether the world exists (boids_world_is_valid); false once moved from.
    bool valid() const noexcept { return boids_world_is_valid(id_) == 1; }

    /// Advances every flock by `dt` seconds, 0 < dt <= 1 (boids_world_step).
    void step(float dt) { check(boids_world_step(id_, dt)); }
    /// Starts a step of `dt` seconds on the world's workers and returns at once
    /// (boids_world_step_begin). Until step_end, the flocks' reads (size, positions,
    /// velocities, ids, orientations, matrices) see the state before the step; every other call
    /// on the world throws BUSY and changes nothing.
    void step_begin(float dt) { check(boids_world_step_begin(id_, dt)); }
    /// Starts `count` steps of `dt` seconds each and returns at once (boids_world_step_begin_n):
    /// a frame longer than the step (30 fps, 1/60 s steps) runs all of them off the caller's
    /// thread. step_end gives the bits of `count` calls of step(); if one fails, it throws
    /// PANIC with the steps before it installed. `count` 0 throws INVALID_ARGUMENT.
    void step_begin(float dt, std::uint32_t count) {
        check(boids_world_step_begin_n(id_, dt, count));
    }
    /// Waits for the step step_begin started and installs it; the same bits as step()
    /// (boids_world_step_end). Without a step in flight: throws INVALID_ARGUMENT.
    void step_end() { check(boids_world_step_end(id_)); }
    /// Whether a step begun by step_begin has not been ended (boids_world_is_stepping).
    bool stepping() const {
        std::int32_t s = 0;
        check(boids_world_is_stepping(id_, &s));
        return s != 0;
    }
    /// Hash of the whole state: equal hashes, equal bits (boids_world_state_hash).
    std::uint64_t state_hash() const {
        std::uint64_t h = 0;
        check(boids_world_state_hash(id_, &h));
        return h;
    }

    /// A flock named `name` (boids_flock_create).
    Flock create_flock(const std::string& name, const FlockParams& params = default_params()) {
        BoidsFlockDef def = boids_default_flock_def();
        def.name = name.c_str();
        def.params = params;
        BoidsFlockId id{};
        check(boids_flock_create(id_, &def, &id));
        return Flock(FlockRef(id));
    }
    /// A flock from a preset: fish-tank, goal-swarm, target-flock, steering-obstacles, flock-2d,
    /// shark (boids_flock_create_preset).
    Flock create_preset(const std::string& preset, const std::string& name) {
        BoidsFlockId id{};
        check(boids_flock_create_preset(id_, preset.c_str(), name.c_str(), &id));
        return Flock(FlockRef(id));
    }
    /// The flock named `name`, not owned (boids_flock_find; throws NOT_FOUND).
    FlockRef find_flock(const std::string& name) const {
        BoidsFlockId id{};
        check(boids_flock_find(id_, name.c_str(), &id));
        return FlockRef(id);
    }
    /// Every flock, in creation order, not owned (boids_world_list_flocks).
    std::vector<FlockRef> flocks() const {
        std::vector<BoidsFlockId> ids;
        detail::read_vector(id_, ids, boids_world_list_flocks);
        return std::vector<FlockRef>(ids.begin(), ids.end());
    }
    /// The scene's faces, for drawing: three points a triangle, in world space (boxes, meshes,
    /// heightfields; boids_world_read_scene_triangles).
    void read_scene_triangles(std::vector<Vec3>& out) const {
        detail::read_vector(id_, out, boids_world_read_scene_triangles);
    }
    /// How `from` reacts to `to` within `radius` (boids_world_set_relation).
    void set_relation(const FlockRef& from, const FlockRef& to, RelationKind kind, float radius, float weight) {
        check(boids_world_set_relation(id_, from.id(), to.id(), static_cast<std::int32_t>(kind), radius, weight));
    }
    /// Digest of the state rounded to `digits` significant digits, 1..=9: the fingerprint to
    /// pin across compilers and OSes (boids_world_rounded_digest).
    std::uint64_t rounded_digest(std::uint32_t digits = 6) const {
        std::uint64_t d = 0;
        check(boids_world_rounded_digest(id_, digits, &d));
        return d;
    }
    /// Sets the width of the flow fields' cells; 0 turns them off (boids_world_set_flow_cell_size).
    void set_flow_cell_size(float cell) { check(boids_world_set_flow_cell_size(id_, cell)); }
    /// The width of the flow fields' cells, 0 for none (boids_world_get_flow_cell_size).
    float flow_cell_size() const {
        float c = 0.0f;
        check(boids_world_get_flow_cell_size(id_, &c));
        return c;
    }
    /// Sets the work a step may spend building flow fields, in units of about one cell settled;
    /// 0, the default, for no limit (boids_world_set_flow_budget).
    void set_flow_budget(std::uint32_t units) { check(boids_world_set_flow_budget(id_, units)); }
    /// The work a step may spend building flow fields, 0 for no limit (boids_world_get_flow_budget).
    std::uint32_t flow_budget() const {
        std::uint32_t u = 0;
        check(boids_world_get_flow_budget(id_, &u));
        return u;
    }
    /// The height of the highest ground surface at (x, z) into `out`; false where no ground lies
    /// under the point (boids_world_get_ground_height; NaN or infinite x or z throws).
    bool ground_height(float x, float z, float& out) const {
        float h = 0.0f;
        BoidsResult r = boids_world_get_ground_height(id_, x, z, &h);
        if (r == BOIDS_RESULT_NOT_FOUND) return false;
        check(r);
        out = h;
        return true;
    }
    /// Sets the observer (player) point (boids_world_set_observer).
    void set_observer(Vec3 p) { check(boids_world_set_observer(id_, &p)); }
    /// Clears the observer point (boids_world_set_observer with NULL).
    void clear_observer() { check(boids_world_set_observer(id_, nullptr)); }
    /// Adds an obstacle (boids_obstacle_add).
    Obstacle add_obstacle(const ObstacleDef& def) {
        BoidsObstacleId id{};
        check(boids_obstacle_add(id_, &def, &id));
        return Obstacle(id);
    }
    /// Uploads a triangle mesh, three indices a triangle (boids_mesh_create); place it with
    /// Shape::mesh.
    Mesh add_mesh(const std::vector<Vec3>& vertices, const std::vector<std::uint32_t>& indices) {
        BoidsMeshId id{};
        check(boids_mesh_create(id_, vertices.data(), vertices.size(), indices.data(), indices.size(), &id));
        return Mesh(id);
    }
    /// Uploads a heightfield of columns x rows heights, x fastest (boids_heightfield_create);
    /// place it with Shape::heightfield.
    Mesh add_heightfield(const std::vector<float>& heights, std::uint32_t columns, std::uint32_t rows,
                         float cell_x, float cell_z) {
        if (heights.size() != static_cast<std::size_t>(columns) * rows)
            throw Error(BOIDS_RESULT_INVALID_ARGUMENT,
                        "heights holds " + std::to_string(heights.size()) + " values, columns x rows = " +
                            std::to_string(static_cast<std::size_t>(columns) * rows));
        BoidsMeshId id{};
        check(boids_heightfield_create(id_, heights.data(), columns, rows, cell_x, cell_z, &id));
        return Mesh(id);
    }

    /// The whole world as bytes, for World::load: a save game, or a lockstep checkpoint
    /// (boids_world_save).
    std::vector<std::uint8_t> save() const {
        std::vector<std::uint8_t> bytes;
        detail::read_vector(id_, bytes, boids_world_save);
        return bytes;
    }
    /// A world from bytes World::save wrote; it continues exactly as the saved one would.
    /// Seed, step count and every flock come from the bytes; `threads` never changes results
    /// (boids_world_load). Flocks keep their index and generation: find them by name.
    static World load(const std::uint8_t* bytes, std::size_t len, std::uint32_t threads = 0) {
        check_abi();
        BoidsWorldDef def = boids_default_world_def();
        def.threads = threads;
        BoidsWorldId id{};
        check(boids_world_load(&def, bytes, len, &id));
        return World(Adopt{}, id);
    }
    static World load(const std::vector<std::uint8_t>& bytes, std::uint32_t threads = 0) {
        return load(bytes.data(), bytes.size(), threads);
    }
    /// As load, the world's steps running on the host's job system `jobs`.
    static World load(const std::vector<std::uint8_t>& bytes, JobSystem& jobs) {
        check_abi();
        BoidsWorldDef def = boids_default_world_def();
        jobs.fill(def);
        BoidsWorldId id{};
        check(boids_world_load(&def, bytes.data(), bytes.size(), &id));
        return World(Adopt{}, id);
    }

private:
    struct Adopt {};
    World(Adopt, BoidsWorldId id) noexcept : id_(id) {}
    void reset() noexcept {
        if (id_.index != 0) boids_world_destroy(id_);
        id_ = BoidsWorldId{};
    }
    BoidsWorldId id_{};
};

}  // namespace boids
