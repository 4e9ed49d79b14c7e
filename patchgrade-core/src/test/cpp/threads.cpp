// A threaded C++ program as candidates write them: a pool of std::threads over a shared map under a mutex
// and a condition variable, a shared_mutex, std::async, std::random_device and a temporary directory of
// std::filesystem. Prints "threads ok total=N"; with "leak", also leaks 100 bytes (LeakSanitizer's report).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char **argv) {
    std::mutex lock;
    std::condition_variable done;
    std::shared_mutex readers;
    long total = 0;
    int finished = 0;
    std::vector<std::thread> pool;
    for (int t = 0; t < 8; t++) {
        pool.emplace_back([&, t] {
            std::map<int, std::string> local;
            for (int i = 0; i < 2000; i++) local[i] = std::to_string(i * t);
            { std::shared_lock<std::shared_mutex> read(readers); }
            std::unique_lock<std::mutex> held(lock);
            total += (long)local.size();
            finished++;
            done.notify_all();
        });
    }
    {
        std::unique_lock<std::mutex> held(lock);
        done.wait_for(held, std::chrono::seconds(60), [&] { return finished == 8; });
    }
    for (auto &thread : pool) thread.join();
    auto roll = std::async(std::launch::async, [] {
        std::random_device device;
        std::mt19937 generator(device());
        return (int)(generator() % 7);
    });
    std::atomic<int> rolled{0};
    rolled.fetch_add(roll.get() + 1);
    auto directory = std::filesystem::temp_directory_path() / ("threads-" + std::to_string(getpid()));
    std::filesystem::create_directories(directory);
    { std::ofstream(directory / "total") << total << "\n"; }
    long back = 0;
    std::ifstream(directory / "total") >> back;
    std::filesystem::remove_all(directory);
    if (argc > 1 && std::strcmp(argv[1], "leak") == 0) {
        char *lost = new char[100];
        std::strcpy(lost, "lost");
        lost = nullptr;
    }
    std::cout << "threads ok total=" << back << (rolled > 0 ? "" : " no roll") << std::endl;
    return back == total ? 0 : 1;
}
