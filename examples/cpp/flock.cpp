// A world, a flock of 10,000 fish, 600 frames at 60 Hz with matrices read every frame, then a
// summary. Uses the header-only RAII wrapper bindings/cpp/boids.hpp.
#include "boids.hpp"
#include "boids.h"  // double inclusion is fine

#include <chrono>
#include <cmath>
#include <cstdio>

#include <cstdlib>

int main(int argc, char** argv) {
    const int frames = argc > 1 && std::atoi(argv[1]) > 0 ? std::atoi(argv[1]) : 600;
    try {
        boids::World world(42);
        BoidsFlockParams params = boids_default_flock_params();
        params.bounds.min = BoidsVec3{-20.0f, -20.0f, -20.0f};
        params.bounds.max = BoidsVec3{20.0f, 20.0f, 20.0f};
        boids::Flock fish(world, "fish", params);
        BoidsSpawnDef spawn = boids_default_spawn_def();
        spawn.min = BoidsVec3{-15.0f, -15.0f, -15.0f};
        spawn.max = BoidsVec3{15.0f, 15.0f, 15.0f};
        fish.spawn(10000, spawn);

        std::vector<BoidsMat4> matrices;
        std::vector<BoidsVec3> velocities;
        auto start = std::chrono::steady_clock::now();
        for (int frame = 0; frame < frames; ++frame) {
            world.step(1.0f / 60.0f);
            fish.read_matrices(matrices);
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / frames;
        fish.read_velocities(velocities);
        double speed = 0;
        for (const BoidsVec3& v : velocities) speed += std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
        std::printf("C++: %zu fish, %d frames, %.3f ms/frame (step + matrices), mean speed %.3f, hash %016llx\n",
                    fish.size(), frames, ms, speed / velocities.size(), (unsigned long long)world.state_hash());

        try {
            world.step(0.0f);
        } catch (const boids::Error& e) {
            std::printf("step(0) threw: %s\n", e.what());
        }
        return 0;
    } catch (const boids::Error& e) {
        std::fprintf(stderr, "boids error: %s\n", e.what());
        return 1;
    }
}
