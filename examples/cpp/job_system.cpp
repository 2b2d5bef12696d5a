// The engine on a game's own job system, with the step overlapping the frame: a boids::JobSystem
// over a small std::thread pool, 20,000 fish chased by sharks, and a frame loop that begins the
// next step, draws the state before it (the matrices) while the step runs, then ends it. The
// result is checked against the same world stepped whole on the engine's own workers: the same
// bits.
//
// Build (from the repository, after cargo build --release -p boids-ffi):
//   g++ -std=c++17 -Iinclude -Ibindings/cpp examples/cpp/job_system.cpp -Ltarget/release -lboids_ffi -lpthread
#include "boids.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// A minimal job system: one queue, n threads, tasks counted down as their ranges return.
class Pool final : public boids::JobSystem {
public:
    explicit Pool(unsigned n) {
        for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
    }
    ~Pool() override {
        {
            std::lock_guard<std::mutex> g(lock_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : threads_) t.join();
    }

    std::uint32_t workers() const override { return static_cast<std::uint32_t>(threads_.size()); }

    void* enqueue(BoidsTaskFn task, std::uint32_t items, std::uint32_t min_range, void* context) override {
        auto* t = new Task;
        std::uint32_t len = std::max<std::uint32_t>(min_range, items / (workers() * 4) + 1);
        {
            std::lock_guard<std::mutex> g(lock_);
            for (std::uint32_t start = 0; start < items; start += len) {
                std::uint32_t end = items - start < len ? items : start + len;
                queue_.push_back([=] { task(start, end, context); });
                tasks_.push_back(t);
                ++t->left;
            }
        }
        wake_.notify_all();
        return t;
    }

    void finish(void* handle) noexcept override {
        std::unique_ptr<Task> t(static_cast<Task*>(handle));
        std::unique_lock<std::mutex> g(lock_);
        done_.wait(g, [&] { return t->left == 0; });
    }

private:
    struct Task {
        int left = 0;
    };
    void work() {
        std::unique_lock<std::mutex> g(lock_);
        for (;;) {
            wake_.wait(g, [&] { return stop_ || !queue_.empty(); });
            if (stop_) return;
            std::function<void()> job = std::move(queue_.front());
            Task* t = tasks_.front();
            queue_.pop_front();
            tasks_.pop_front();
            g.unlock();
            job();
            g.lock();
            if (--t->left == 0) done_.notify_all();
        }
    }

    std::mutex lock_;
    std::condition_variable wake_, done_;
    std::deque<std::function<void()>> queue_;
    std::deque<Task*> tasks_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

// Fish that flee two sharks, in a soft box.
static void populate(boids::World& world) {
    boids::FlockParams params = boids::default_params();
    params.bounds = boids::BoundsOf::soft_box({-25, -25, -25}, {25, 25, 25});
    boids::FlockRef fish = world.create_flock("fish", params).release();
    fish.spawn(20000, boids::Spawn::box({-20, -20, -20}, {20, 20, 20}).speeds(1, 3));
    boids::FlockParams hunter = params;
    hunter.perception_radius = 8.0f;
    boids::FlockRef sharks = world.create_flock("sharks", hunter).release();
    sharks.spawn(2, boids::Spawn::sphere({0, 0, 0}, 5));
    world.set_relation(fish, sharks, boids::RelationKind::Flee, 6.0f, 4.0f);
    world.set_relation(sharks, fish, boids::RelationKind::Chase, 12.0f, 1.0f);
}

int main(int argc, char** argv) {
    const int frames = argc > 1 && std::atoi(argv[1]) > 0 ? std::atoi(argv[1]) : 120;
    const unsigned workers = argc > 2 && std::atoi(argv[2]) > 0 ? unsigned(std::atoi(argv[2])) : 3;
    try {
        Pool pool(workers);
        boids::World game(7, pool);
        boids::World reference(7, 2);
        populate(game);
        populate(reference);
        boids::FlockRef fish = game.find_flock("fish");

        std::vector<boids::Mat4> matrices;
        double busy_ms = 0, wait_ms = 0;
        for (int frame = 0; frame < frames; ++frame) {
            auto t0 = std::chrono::steady_clock::now();
            game.step_begin(1.0f / 60.0f);
            fish.read_matrices(matrices);  // the frame draws the state before the step ...
            auto t1 = std::chrono::steady_clock::now();
            // ... while the step runs; the game's own frame work would go here.
            auto t2 = std::chrono::steady_clock::now();
            game.step_end();
            auto t3 = std::chrono::steady_clock::now();
            busy_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
            wait_ms += std::chrono::duration<double, std::milli>(t3 - t2).count();
            reference.step(1.0f / 60.0f);
        }
        bool same = game.state_hash() == reference.state_hash();
        // With no frame work between draw and end here, end waits for the whole step; a game's
        // frame work of that length would hide it.
        std::printf("C++ job system: %u workers, %zu fish, %d frames; main thread per frame: begin + draw "
                    "%.3f ms, waiting in end %.3f ms; hash %016llx, %s the engine's own workers\n",
                    workers, fish.size(), frames, busy_ms / frames, wait_ms / frames,
                    (unsigned long long)game.state_hash(), same ? "same bits as" : "DIFFERENT from");
        return same ? 0 : 1;
    } catch (const boids::Error& e) {
        std::fprintf(stderr, "boids error: %s\n", e.what());
        return 1;
    }
}
