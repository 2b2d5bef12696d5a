// 10,000 fish in a tank with a rock and a floor, hunted by two sharks: the fish flee, the sharks
// chase. 600 frames at 60 Hz with the fish's matrices read every frame, then a summary. Uses the
// header-only C++17 wrapper (boids.hpp): owners that free themselves, errors as exceptions.
//
// Build (after scripts/install-c --prefix DIR): see examples/cmake/, or
//   g++ -std=c++17 flock.cpp $(pkg-config --cflags --libs boids)
#include "boids.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    const int frames = argc > 1 && std::atoi(argv[1]) > 0 ? std::atoi(argv[1]) : 600;
    try {
        boids::World world(42);

        boids::FlockParams params = boids::default_params();
        params.bounds = boids::BoundsOf::soft_box({-20, -20, -20}, {20, 20, 20});
        boids::Flock fish = world.create_flock("fish", params);
        fish.spawn(10000, boids::Spawn::box({-15, -15, -15}, {15, 15, 15}).speeds(1, 3));

        boids::FlockParams hunter = boids::default_params();
        hunter.bounds = params.bounds;
        hunter.perception_radius = 8.0f;
        hunter.min_speed = 2.0f;
        hunter.max_speed = 4.5f;
        boids::Flock sharks = world.create_flock("sharks", hunter);
        sharks.spawn(3, boids::Spawn::sphere({0, 0, 0}, 5));
        world.set_relation(fish, sharks, boids::RelationKind::Flee, 6.0f, 4.0f);
        world.set_relation(sharks, fish, boids::RelationKind::Chase, 12.0f, 1.0f);

        boids::Obstacle rock = world.add_obstacle(boids::Shape::sphere({5, 0, 5}, 3));
        boids::Obstacle floor = world.add_obstacle(boids::Shape::plane({0, -18, 0}, {0, 1, 0}));

        std::vector<boids::Mat4> matrices;
        std::vector<boids::Vec3> velocities;
        auto start = std::chrono::steady_clock::now();
        for (int frame = 0; frame < frames; ++frame) {
            world.step(1.0f / 60.0f);
            fish.read_matrices(matrices);  // grows once, then reuses its memory
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / frames;
        fish.read_velocities(velocities);
        double speed = 0;
        for (const boids::Vec3& v : velocities) speed += std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
        std::printf("C++: boids %s, %zu fish and %zu sharks, %d frames, %.3f ms/frame (step + matrices), "
                    "mean fish speed %.3f, hash %016llx\n",
                    boids::version().c_str(), fish.size(), sharks.size(), frames, ms, speed / velocities.size(),
                    (unsigned long long)world.state_hash());

        try {
            world.step(0.0f);
        } catch (const boids::Error& e) {
            std::printf("step(0) threw %s\n", e.what());
        }
        return 0;
    } catch (const boids::Error& e) {
        std::fprintf(stderr, "boids error: %s\n", e.what());
        return 1;
    }
}
