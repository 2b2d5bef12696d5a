// boids.hpp: a header-only C++17 RAII wrapper over the boids C ABI (include/boids.h).
//
// boids::World and boids::Flock own their native objects and release them in their destructors;
// both are move-only. Every failure throws boids::Error carrying the result code and the
// library's detail message. Reads fill std::vectors (resized only when too small, so a vector
// reused frame after frame allocates nothing).
#pragma once

#include "boids.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace boids {

/// A refused call: the code and the library's sentence about it.
class Error : public std::runtime_error {
public:
    Error(BoidsResult code, const std::string& detail)
        : std::runtime_error(std::string(boids_result_str(static_cast<int32_t>(code))) + ": " + detail),
          code_(code) {}
    BoidsResult code() const noexcept { return code_; }

private:
    BoidsResult code_;
};

/// Throws boids::Error unless `r` is BOIDS_RESULT_OK.
inline void check(BoidsResult r) {
    if (r != BOIDS_RESULT_OK) throw Error(r, boids_last_error_message());
}

/// A simulation world.
class World {
public:
    explicit World(std::uint64_t seed = 0, std::uint32_t threads = 0) {
        BoidsWorldDef def = boids_default_world_def();
        def.seed = seed;
        def.threads = threads;
        check(boids_world_create(&def, &id_));
    }
    ~World() {
        if (id_.index != 0) boids_world_destroy(id_);
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;
    World(World&& o) noexcept : id_(std::exchange(o.id_, BoidsWorldId{})) {}
    World& operator=(World&& o) noexcept {
        if (this != &o) {
            if (id_.index != 0) boids_world_destroy(id_);
            id_ = std::exchange(o.id_, BoidsWorldId{});
        }
        return *this;
    }

    /// Advances every flock by `dt` seconds.
    void step(float dt) { check(boids_world_step(id_, dt)); }
    /// Hash of the whole state (determinism checks).
    std::uint64_t state_hash() const {
        std::uint64_t h = 0;
        check(boids_world_state_hash(id_, &h));
        return h;
    }
    /// Sets the observer (player) point.
    void set_observer(BoidsVec3 p) { check(boids_world_set_observer(id_, &p)); }
    /// Clears the observer point.
    void clear_observer() { check(boids_world_set_observer(id_, nullptr)); }
    /// Adds an obstacle.
    BoidsObstacleId add_obstacle(const BoidsObstacleDef& def) {
        BoidsObstacleId id{};
        check(boids_obstacle_add(id_, &def, &id));
        return id;
    }
    BoidsWorldId id() const noexcept { return id_; }
    bool valid() const noexcept { return boids_world_is_valid(id_) == 1; }

private:
    BoidsWorldId id_{};
};

/// A flock in a world.
class Flock {
public:
    /// A flock named `name` with `params`.
    Flock(World& world, const std::string& name,
          const BoidsFlockParams& params = boids_default_flock_params()) {
        BoidsFlockDef def = boids_default_flock_def();
        def.name = name.c_str();
        def.params = params;
        check(boids_flock_create(world.id(), &def, &id_));
    }
    /// A flock from a preset (see `boids presets`).
    static Flock preset(World& world, const std::string& preset, const std::string& name) {
        BoidsFlockId id{};
        check(boids_flock_create_preset(world.id(), preset.c_str(), name.c_str(), &id));
        return Flock(id);
    }
    ~Flock() {
        // The world may already be gone; then the id is stale and this is a no-op.
        if (id_.index != 0) boids_flock_destroy(id_);
    }
    Flock(const Flock&) = delete;
    Flock& operator=(const Flock&) = delete;
    Flock(Flock&& o) noexcept : id_(std::exchange(o.id_, BoidsFlockId{})) {}
    Flock& operator=(Flock&& o) noexcept {
        if (this != &o) {
            if (id_.index != 0) boids_flock_destroy(id_);
            id_ = std::exchange(o.id_, BoidsFlockId{});
        }
        return *this;
    }

    /// Spawns `n` boids; returns the first new id.
    std::uint32_t spawn(std::uint32_t n, const BoidsSpawnDef& spawn = boids_default_spawn_def()) {
        std::uint32_t first = 0;
        check(boids_flock_spawn(id_, n, &spawn, &first));
        return first;
    }
    /// Adds boids with given positions and velocities; returns the first new id.
    std::uint32_t add(const std::vector<BoidsVec3>& positions, const std::vector<BoidsVec3>& velocities) {
        if (positions.size() != velocities.size())
            throw Error(BOIDS_RESULT_INVALID_ARGUMENT, "positions and velocities differ in length");
        std::uint32_t first = 0;
        check(boids_flock_add_boids(id_, positions.data(), velocities.data(), positions.size(), &first));
        return first;
    }
    /// Removes boids by id (all or nothing); returns how many went.
    std::size_t remove(const std::vector<std::uint32_t>& ids) {
        std::size_t n = 0;
        check(boids_flock_remove_boids(id_, ids.data(), ids.size(), &n));
        return n;
    }
    std::size_t size() const {
        std::size_t n = 0;
        check(boids_flock_count(id_, &n));
        return n;
    }
    BoidsFlockParams params() const {
        BoidsFlockParams p{};
        check(boids_flock_get_params(id_, &p));
        return p;
    }
    void set_params(const BoidsFlockParams& p) { check(boids_flock_set_params(id_, &p)); }
    void set_target(BoidsVec3 p) { check(boids_flock_set_target(id_, p)); }

    void read_positions(std::vector<BoidsVec3>& out) const { read(out, boids_flock_read_positions); }
    void read_velocities(std::vector<BoidsVec3>& out) const { read(out, boids_flock_read_velocities); }
    void read_ids(std::vector<std::uint32_t>& out) const { read(out, boids_flock_read_ids); }
    void read_orientations(std::vector<BoidsQuat>& out) const { read(out, boids_flock_read_orientations); }
    void read_matrices(std::vector<BoidsMat4>& out, float scale = 1.0f) const {
        read(out, [scale](BoidsFlockId f, BoidsMat4* p, std::size_t cap, std::size_t* n) {
            return boids_flock_read_matrices(f, scale, p, cap, n);
        });
    }

    BoidsFlockId id() const noexcept { return id_; }
    bool valid() const noexcept { return boids_flock_is_valid(id_) == 1; }

private:
    explicit Flock(BoidsFlockId id) : id_(id) {}

    template <typename T, typename F>
    void read(std::vector<T>& out, F fn) const {
        std::size_t n = 0;
        BoidsResult r = fn(id_, out.data(), out.size(), &n);
        if (r == BOIDS_RESULT_BUFFER_TOO_SMALL) {
            out.resize(n);
            r = fn(id_, out.data(), out.size(), &n);
        }
        check(r);
        out.resize(n);
    }

    BoidsFlockId id_{};
};

}  // namespace boids
