// A core's lock (emu.hpp: Core, Run). A kernel holds it for one API call, and the kernels of a core are queued on
// one thread of the pool (sched.cpp), so it is rarely contended: a spin lock whose lock is one atomic exchange and
// unlock one store, where std::mutex paid two atomic read-modify-writes and two calls (17 % of the CPU time of
// benchmarks/bench_tt_emulate.py's GEMM 2048^3 emulation). A waiter spins briefly, then yields the CPU a few times,
// then polls every 50 us: on a loaded machine the holder may be descheduled for a time slice, and a waiter yielding
// in a loop made 10^5 system calls per run. Nothing blocks while holding it:
// a kernel that must wait switches out (sched.cpp), and its thread releases the lock right after the switch.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace tt_emu {

class CoreLock {
public:
    void lock() {
        while (held_.exchange(true, std::memory_order_acquire)) wait();
    }
    bool try_lock() {
        return !held_.load(std::memory_order_relaxed) && !held_.exchange(true, std::memory_order_acquire);
    }
    void unlock() { held_.store(false, std::memory_order_release); }

private:
    void wait() const {  // until the lock looks free
        for (uint32_t spins = 0; held_.load(std::memory_order_relaxed); ++spins) {
            if (spins < 128) {
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            } else if (spins < 160) {
                std::this_thread::yield();
            } else {  // the holder is descheduled (a loaded machine): poll slowly rather than yield in a loop
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
        }
    }
    std::atomic<bool> held_{false};
};

}  // namespace tt_emu
