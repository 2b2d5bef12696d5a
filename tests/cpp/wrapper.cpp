// The C++ wrapper's contract, through every method of boids.hpp: results, errors (code and
// message), move semantics (a moved-from owner is safe to destroy and to assign to), owners
// outliving their world, span reads that do not fit. Built by scripts/test with -Werror and
// run under -fsanitize=address,undefined. Exits non-zero on the first failed check.
#include "boids.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

static int checks = 0;
#define CHECK(cond)                                                              \
    do {                                                                         \
        ++checks;                                                                \
        if (!(cond)) {                                                           \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

// Runs `f`, which must throw boids::Error with `code`; returns its message.
template <typename F>
static std::string throws(BoidsResult code, F f) {
    try {
        f();
    } catch (const boids::Error& e) {
        CHECK(e.code() == code);
        CHECK(!e.detail().empty());
        CHECK(std::string(e.what()).find(e.detail()) != std::string::npos);
        return e.detail();
    }
    std::fprintf(stderr, "expected boids::Error %d, nothing thrown\n", (int)code);
    std::exit(1);
}

static_assert(!std::is_copy_constructible<boids::World>::value, "worlds never copy");
static_assert(!std::is_copy_assignable<boids::World>::value, "worlds never copy");
static_assert(std::is_nothrow_move_constructible<boids::World>::value, "worlds move");
static_assert(std::is_nothrow_move_assignable<boids::World>::value, "worlds move");
static_assert(!std::is_copy_constructible<boids::Flock>::value, "owning flocks never copy");
static_assert(std::is_nothrow_move_constructible<boids::Flock>::value, "owning flocks move");
static_assert(!std::is_copy_constructible<boids::Obstacle>::value, "obstacles never copy");
static_assert(std::is_nothrow_move_constructible<boids::Obstacle>::value, "obstacles move");
static_assert(std::is_copy_constructible<boids::FlockRef>::value, "handles copy");

int main() {
    CHECK(boids::abi_version() == BOIDS_ABI_VERSION);
    CHECK(boids::version() == boids::wrapper_version);
    boids::check_abi();

    boids::World world(7, 2);
    CHECK(world.valid());
    boids::FlockParams p = boids::default_params();
    p.bounds = boids::BoundsOf::soft_box({-10, -10, -10}, {10, 10, 10});
    p.has_target = 1;  // set_target and set_leader move a target the params must have
    p.target_point = boids::Vec3{0, 0, 0};
    boids::Flock fish = world.create_flock("fish", p);
    CHECK(fish.valid());
    CHECK(fish.name() == "fish");
    CHECK(fish.size() == 0);
    CHECK(fish.spawn(100, boids::Spawn::box({-5, -5, -5}, {5, 5, 5}).speeds(1, 2)) == 0);
    CHECK(fish.spawn(10, boids::Spawn::sphere({0, 0, 0}, 2).heading({0, 0, 1})) == 100);
    CHECK(fish.size() == 110);
    std::vector<boids::Vec3> pos{{1, 2, 3}, {4, 5, 6}}, vel{{0, 0, 1}, {1, 0, 0}};
    CHECK(fish.add(pos, vel) == 110);
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.add(pos, std::vector<boids::Vec3>(1)); });
    CHECK(fish.remove(std::vector<std::uint32_t>{110, 111}) == 2);
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.remove(std::vector<std::uint32_t>{110}); });
    fish.resize(50);
    CHECK(fish.size() == 50);

    // Params: read, change, write; a bad value is refused and changes nothing.
    boids::FlockParams q = fish.params();
    q.perception_radius = 3.5f;
    q.index = static_cast<std::int32_t>(boids::IndexKind::KdTree);
    fish.set_params(q);
    CHECK(fish.params().perception_radius == 3.5f);
    q.perception_radius = NAN;
    std::string msg = throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.set_params(q); });
    CHECK(msg.find("perception_radius") != std::string::npos);
    CHECK(fish.params().perception_radius == 3.5f);
    fish.set_bounds(boids::BoundsOf::soft_sphere({0, 0, 0}, 12));
    CHECK(fish.params().bounds.kind == static_cast<std::int32_t>(boids::BoundsKind::SoftSphere));
    fish.set_bounds(boids::BoundsOf::wrap({-10, -10, -10}, {10, 10, 10}));
    fish.set_bounds(boids::BoundsOf::clamp({-10, -10, -10}, {10, 10, 10}));
    fish.set_bounds(boids::BoundsOf::turn_back({-10, -10, -10}, {10, 10, 10}));
    fish.set_bounds(boids::BoundsOf::none());
    fish.set_bounds(boids::BoundsOf::soft_box({-10, -10, -10}, {10, 10, 10}));
    fish.set_target({1, 1, 1});
    fish.set_leader(3, {0, 0, -2});
    fish.clear_leader();
    std::vector<boids::Vec3> path{{0, 0, 0}, {5, 0, 0}, {5, 0, 5}};
    fish.set_path(path, true);
    fish.set_path(nullptr, 0, false);
    fish.set_wake_region({-50, -50, -50}, {50, 50, 50});
    world.set_observer({0, 0, 0});
    world.step(1.0f / 60);
    CHECK(!fish.asleep());
    world.set_observer({100, 0, 0});
    world.step(1.0f / 60);
    CHECK(fish.asleep());
    fish.clear_wake_region();
    world.clear_observer();
    world.step(1.0f / 60);
    CHECK(!fish.asleep());

    // Reads: vectors grow to fit; spans that do not fit throw BUFFER_TOO_SMALL.
    std::vector<boids::Vec3> positions, velocities;
    std::vector<std::uint32_t> ids;
    std::vector<boids::Quat> rot;
    std::vector<boids::Mat4> mats;
    fish.read_positions(positions);
    fish.read_velocities(velocities);
    fish.read_ids(ids);
    fish.read_orientations(rot);
    fish.read_matrices(mats, 2.0f);
    CHECK(positions.size() == 50 && velocities.size() == 50 && ids.size() == 50 && rot.size() == 50 && mats.size() == 50);
    for (std::size_t i = 1; i < ids.size(); ++i) CHECK(ids[i - 1] < ids[i]);
    for (const auto& v : positions) CHECK(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
    CHECK(mats[0].m[15] == 1.0f);
    // The same matrices moved 10 along x and scaled by 2 by a parent transform.
    boids::Mat4 parent{};
    parent.m[0] = parent.m[5] = parent.m[10] = 2.0f;
    parent.m[12] = 10.0f;
    parent.m[15] = 1.0f;
    std::vector<boids::Mat4> placed;
    fish.read_matrices(placed, parent, 2.0f);
    CHECK(placed.size() == 50);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        CHECK(placed[i].m[12] == 2.0f * mats[i].m[12] + 10.0f);
        CHECK(placed[i].m[13] == 2.0f * mats[i].m[13] && placed[i].m[0] == 2.0f * mats[i].m[0]);
    }
    parent.m[3] = std::nanf("");
    CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.read_matrices(placed, parent); }).find("transform[3]") != std::string::npos);
    boids::Vec3 small[10];
    throws(BOIDS_RESULT_BUFFER_TOO_SMALL, [&] { fish.read_positions(small, 10); });
    throws(BOIDS_RESULT_BUFFER_TOO_SMALL, [&] { fish.read_velocities(small, 10); });
    std::vector<boids::Vec3> exact(50);
    CHECK(fish.read_positions(exact.data(), exact.size()) == 50);
    CHECK(fish.read_velocities(exact.data(), exact.size()) == 50);
    std::vector<std::uint32_t> id_span(50);
    CHECK(fish.read_ids(id_span.data(), id_span.size()) == 50);
    std::vector<boids::Quat> rot_span(50);
    CHECK(fish.read_orientations(rot_span.data(), rot_span.size()) == 50);
    std::vector<boids::Mat4> mat_span(50);
    CHECK(fish.read_matrices(mat_span.data(), mat_span.size()) == 50);

    // Writes: read -> write changes nothing; a wrong count is refused.
    std::uint64_t before = world.state_hash();
    fish.write_positions(positions);
    fish.write_velocities(velocities);
    CHECK(world.state_hash() == before);
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.write_positions(positions.data(), 3); });
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { fish.write_velocities(velocities.data(), 3); });
    CHECK(world.state_hash() == before);

    // Presets, names, lists, relations.
    boids::Flock sharks = world.create_preset("shark", "sharks");
    CHECK(sharks.size() > 0);
    throws(BOIDS_RESULT_NOT_FOUND, [&] { world.create_preset("no-such-preset", "x"); });
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.create_flock("fish"); });
    boids::FlockRef found = world.find_flock("sharks");
    CHECK(found.id().index == sharks.id().index && found.id().generation == sharks.id().generation);
    throws(BOIDS_RESULT_NOT_FOUND, [&] { world.find_flock("nobody"); });
    // The shark preset is a school and its predator: "sharks" and "sharks-predator".
    CHECK(world.flocks().size() == 3);
    CHECK(world.find_flock("sharks-predator").size() == 1);
    world.set_relation(fish, sharks, boids::RelationKind::Flee, 5, 3);
    world.set_relation(sharks, fish, boids::RelationKind::Chase, 10, 1);
    world.step(1.0f / 60);

    // Obstacles: add, reshape, remove; a bad shape is refused.
    boids::Obstacle rock = world.add_obstacle(boids::Shape::sphere({3, 0, 3}, 1));
    rock.set(boids::Shape::box({-1, -1, -1}, {1, 1, 1}));
    boids::Obstacle wall = world.add_obstacle(boids::Shape::plane({0, -9, 0}, {0, 1, 0}));
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { rock.set(boids::Shape::sphere({0, 0, 0}, -1)); });
    world.step(1.0f / 60);
    wall.remove();
    throws(BOIDS_RESULT_INVALID_ID, [&] { wall.remove(); });
    BoidsObstacleId kept = rock.release();
    CHECK(kept.index != 0 && rock.id().index == 0);
    boids::Obstacle again(kept);

    // Scene geometry: a mesh placed twice, a heightfield, a rotated box and a capsule; the
    // data's owner refuses to go while placed; a bad mesh names its field.
    {
        std::vector<boids::Vec3> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        std::vector<std::uint32_t> idx = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3};
        boids::Mesh tetra = world.add_mesh(v, idx);
        CHECK(tetra.valid());
        boids::Obstacle a1 = world.add_obstacle(boids::Shape::mesh(tetra.id(), {6, 0, 0}));
        boids::Obstacle a2 =
            world.add_obstacle(boids::Shape::mesh(tetra.id(), {-6, 0, 0}, {0, 0.7071068f, 0, 0.7071068f}, {2, 1, 3}));
        a2.set(boids::Shape::mesh(tetra.id(), {-7, 1, 0}));  // moved: nothing rebuilt
        CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { tetra.destroy(); }).find("placed by 2") != std::string::npos);
        CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] {
                  world.add_obstacle(boids::Shape::mesh(tetra.id(), {0, 0, 0}, {0, 0, 0, 1}, {1, 0, 1}));
              }).find("scale") != std::string::npos);
        CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.add_mesh(v, {0, 1, 9}); }).find("indices[2]") !=
              std::string::npos);
        std::vector<float> h(9, 0.0f);
        h[4] = 1.0f;
        boids::Mesh ground = world.add_heightfield(h, 3, 3, 2.0f, 2.0f);
        boids::Obstacle floor = world.add_obstacle(boids::Shape::heightfield(ground.id(), {-2, -8, -2}));
        CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.add_obstacle(boids::Shape::mesh(ground.id(), {0, 0, 0})); })
                  .find("heightfield") != std::string::npos);
        CHECK(throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.add_heightfield(h, 2, 3, 1.0f, 1.0f); })
                  .find("heights") != std::string::npos);
        // The scene's faces: the heightfield's centre sample among them, a box's 12 triangles
        // more once one is added, none for a capsule.
        std::vector<boids::Vec3> faces;
        world.read_scene_triangles(faces);
        CHECK(faces.size() % 3 == 0 && faces.size() >= 3 * (4 + 4 + 8));
        bool centre = false;
        for (const boids::Vec3& p : faces) centre = centre || (p.x == 0.0f && p.y == -7.0f && p.z == 0.0f);
        CHECK(centre);
        std::size_t before = faces.size();
        boids::Obstacle ob = world.add_obstacle(boids::Shape::oriented_box({0, 4, 0}, {1, 2, 3}, {0, 0.3826834f, 0, 0.9238795f}));
        boids::Obstacle cap = world.add_obstacle(boids::Shape::capsule({-3, 0, 3}, {3, 0, 3}, 0.5f));
        world.read_scene_triangles(faces);
        CHECK(faces.size() == before + 36);
        world.step(1.0f / 60);
        a1.remove();
        a2.remove();
        tetra.destroy();
        CHECK(!tetra.valid() && tetra.id().index == 0);
    }

    // Save and load: the loaded world continues exactly; bad bytes are refused.
    {
        std::vector<std::uint8_t> bytes = world.save();
        CHECK(bytes.size() > 28);
        boids::World copy = boids::World::load(bytes, 1);
        CHECK(copy.state_hash() == world.state_hash());
        CHECK(copy.rounded_digest() == world.rounded_digest(6));
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { copy.rounded_digest(0); });
        CHECK(copy.find_flock("fish").size() == fish.size());
        std::uint64_t h0 = world.state_hash();
        for (int i = 0; i < 20; ++i) {
            world.step(1.0f / 60);
            copy.step(1.0f / 60);
        }
        CHECK(copy.state_hash() == world.state_hash());
        CHECK(world.state_hash() != h0);
        bytes.resize(bytes.size() / 2);
        std::string why = throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { boids::World::load(bytes); });
        CHECK(why.find("truncated") != std::string::npos);
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { boids::World::load(nullptr, 0); });
    }

    // Moves: the moved-from owner is null, safe to destroy and to assign to.
    boids::Flock moved = std::move(fish);
    CHECK(!fish.valid() && moved.valid());
    throws(BOIDS_RESULT_INVALID_ID, [&] { fish.size(); });
    fish = std::move(moved);
    CHECK(fish.valid() && !moved.valid());
    boids::Flock temp = world.create_flock("temp");
    temp.destroy();
    throws(BOIDS_RESULT_INVALID_ID, [&] { temp.destroy(); });
    boids::FlockRef loose = world.create_flock("loose").release();
    CHECK(loose.valid());
    boids::Flock owner(loose);
    owner = boids::Flock();
    CHECK(!loose.valid());

    // Errors: dt out of range, a stale world.
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.step(0.0f); });
    throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { world.step(NAN); });
    boids::World other = std::move(world);
    CHECK(!world.valid() && other.valid());
    throws(BOIDS_RESULT_INVALID_ID, [&] { world.step(0.1f); });
    world = boids::World(8, 1);
    CHECK(world.valid());

    // Owners that outlive their world: destroying them is a no-op, using them throws.
    {
        boids::World short_lived(1, 1);
        boids::Flock orphan = short_lived.create_flock("orphan");
        boids::Obstacle o = short_lived.add_obstacle(boids::Shape::sphere({0, 0, 0}, 1));
        short_lived = boids::World();
        throws(BOIDS_RESULT_INVALID_ID, [&] { orphan.size(); });
        throws(BOIDS_RESULT_INVALID_ID, [&] { o.set(boids::Shape::sphere({0, 0, 0}, 2)); });
    }

    // A step in flight: reads see the state before it, everything else throws BUSY; the same
    // bits as step(); and the same on a host's job system (one that runs every task at once).
    {
        boids::World a(3, 2), b(3, 2);
        boids::Flock fa = a.create_preset("shark", "shark");
        boids::Flock fb = b.create_preset("shark", "shark");
        std::vector<boids::Vec3> before, during;
        for (int i = 0; i < 30; ++i) {
            a.step(1.0f / 60.0f);
            fb.read_positions(before);
            b.step_begin(1.0f / 60.0f);
            CHECK(b.stepping());
            fb.read_positions(during);
            CHECK(during.size() == before.size());
            CHECK(std::memcmp(during.data(), before.data(), before.size() * sizeof(boids::Vec3)) == 0);
            std::string why = throws(BOIDS_RESULT_BUSY, [&] { b.state_hash(); });
            CHECK(why.find("in flight") != std::string::npos);
            throws(BOIDS_RESULT_BUSY, [&] { fb.set_target({1, 2, 3}); });
            throws(BOIDS_RESULT_BUSY, [&] { b.step(0.1f); });
            b.step_end();
            CHECK(!b.stepping());
        }
        CHECK(a.state_hash() == b.state_hash());
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { b.step_end(); });
        // A 30 fps frame: two 1/60 s steps in one begin, the bits of two steps.
        for (int i = 0; i < 5; ++i) {
            a.step(1.0f / 60.0f);
            a.step(1.0f / 60.0f);
            b.step_begin(1.0f / 60.0f, 2);
            CHECK(b.stepping());
            throws(BOIDS_RESULT_BUSY, [&] { b.step_begin(1.0f / 60.0f, 2); });
            b.step_end();
        }
        CHECK(a.state_hash() == b.state_hash());
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { b.step_begin(1.0f / 60.0f, 0); });
        CHECK(!b.stepping());

        struct Inline final : boids::JobSystem {
            int enqueued = 0;
            std::uint32_t workers() const override { return 4; }
            void* enqueue(BoidsTaskFn task, std::uint32_t items, std::uint32_t, void* context) override {
                ++enqueued;
                task(0, items, context);
                return nullptr;
            }
            void finish(void*) noexcept override { std::abort(); }
        } jobs;
        boids::World h(3, jobs), e(3, 1);
        for (boids::World* w : {&h, &e}) {
            boids::Flock f = w->create_flock("school");
            f.spawn(5000);
            f.release();
        }
        for (int i = 0; i < 5; ++i) {
            h.step_begin(1.0f / 60.0f);
            h.step_end();
            e.step(1.0f / 60.0f);
        }
        CHECK(h.state_hash() == e.state_hash());
        CHECK(jobs.enqueued > 5);
        boids::World loaded = boids::World::load(e.save(), jobs);
        loaded.step(1.0f / 60.0f);
        e.step(1.0f / 60.0f);
        CHECK(loaded.state_hash() == e.state_hash());
        // Destroying a world with a step in flight waits for it.
        h.step_begin(1.0f / 60.0f);
        h = boids::World();
    }

    // Flow fields: the maze preset's cell size and field, read back; the count at its target.
    {
        boids::World maze(3, 2);
        boids::Flock walkers = maze.create_preset("maze", "walkers");
        CHECK(maze.flow_cell_size() == 1.0f);
        boids::FlockRef::FlowGrid g;
        CHECK(!walkers.flow_grid(g));
        CHECK(walkers.count_at_target() == 0);
        maze.step(1.0f / 60);
        CHECK(walkers.flow_grid(g));
        CHECK(g.cell == 1.0f && g.columns == 161 && g.rows == 161);
        std::vector<float> d;
        std::vector<boids::Vec3> v;
        walkers.read_flow_distances(d);
        walkers.read_flow_directions(v);
        CHECK(d.size() == 161u * 161u && v.size() == d.size());
        CHECK(d[80 * 161 + 128] == 0.0f);
        CHECK(v[80 * 161 + 80].x < 0.0f && d[80 * 161 + 80] > 100.0f);
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { maze.set_flow_cell_size(-1.0f); });
        // The ground under the field, for drawing it: the walkers stand their pivot (0.4) above.
        std::vector<boids::Vec3> at;
        walkers.read_positions(at);
        for (const boids::Vec3& p : at) {
            float h = -1.0f;
            CHECK(maze.ground_height(p.x, p.z, h) && std::fabs(p.y - 0.4f - h) < 1e-3f);
        }
        float none = 7.0f;
        CHECK(!maze.ground_height(85.0f, 0.0f, none) && none == 7.0f);
        throws(BOIDS_RESULT_INVALID_ARGUMENT, [&] { maze.ground_height(NAN, 0.0f, none); });
        // A budget: the moved target's field comes over several steps, the old one meanwhile.
        CHECK(maze.flow_budget() == 0u);
        maze.set_flow_budget(3000u);
        CHECK(maze.flow_budget() == 3000u);
        walkers.set_target(boids::Vec3{-40.0f, 0.0f, 50.0f});
        maze.step(1.0f / 60);
        walkers.read_flow_distances(d);
        CHECK(d[80 * 161 + 128] == 0.0f);
        int steps = 1;
        while (d[80 * 161 + 128] == 0.0f && steps < 500) {
            maze.step(1.0f / 60);
            walkers.read_flow_distances(d);
            ++steps;
        }
        CHECK(steps > 3 && steps < 500);
        maze.set_flow_cell_size(0.0f);
        maze.step(1.0f / 60);
        CHECK(!walkers.flow_grid(g));
        throws(BOIDS_RESULT_NOT_FOUND, [&] { walkers.read_flow_distances(d); });
    }

    std::printf("C++ wrapper: %d checks passed\n", checks);
    return 0;
}
