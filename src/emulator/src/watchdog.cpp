// The time limit of a run: $TT_EMU_TIMEOUT seconds (tilelang.tenstorrent.emulator.run sets it from its `timeout`
// argument). Deadlocks are found between API calls; a kernel that loops without calling the API is found only by
// this limit, which names it: its core, its role and the last API call it made.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "sanitize.hpp"

namespace tt_emu {

namespace {

// `core`'s lock, waited for a moment (a kernel holds it only inside an API call), or none.
std::unique_lock<CoreLock> lock_briefly(Core& core) {
    std::unique_lock<CoreLock> lk(core.mu, std::try_to_lock);
    for (int i = 0; i < 100 && !lk.owns_lock(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        lk.try_lock();
    }
    return lk;
}

std::string seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", s);
    return text;
}

std::string spinning_report(double limit) {
    std::vector<KernelThread*> spinning = kernels_in_flight();
    std::sort(spinning.begin(), spinning.end(), [](const KernelThread* a, const KernelThread* b) {
        return std::make_pair(a->core->coord, a->index) < std::make_pair(b->core->coord, b->index);
    });
    std::string first = "the run did not finish within " + seconds(limit) + " s", dumps;
    for (KernelThread* t : spinning) {
        std::unique_lock<CoreLock> lk = lock_briefly(*t->core);  // a spinning kernel holds no core lock
        const std::string text = "core " + core_name(t->core->coord) + " " + t->name() + " [" +
                                 kind_name(t->spec->kind) + "] spins without calling the API: still running after " +
                                 seconds(limit) + " s, its last API call was " + t->call.str();
        first = t == spinning.front() ? text : first;
        dumps += (t == spinning.front() ? "" : "also: " + text + "\n") + (lk.owns_lock() ? dump_core(*t->core) : "");
    }
    return "tt_emu: error: " + first + "; set TT_EMU_TIMEOUT (seconds) or the timeout argument to allow longer\n" +
           dumps;
}

}  // namespace

Watchdog::Watchdog() {
    const char* text = std::getenv("TT_EMU_TIMEOUT");
    const double limit = text && *text ? std::strtod(text, nullptr) : 0.0;
    if (!(limit > 0)) return;  // no limit set: the caller's own (tilelang sets one always)
    thread_ = std::thread([this, limit] {
        std::unique_lock<std::mutex> lk(mu_);
        if (cv_.wait_for(lk, std::chrono::duration<double>(limit), [this] { return done_; })) return;
        lk.unlock();
        exit_with_error(3, spinning_report(limit));
    });
}

Watchdog::~Watchdog() {
    {
        std::lock_guard<std::mutex> lk(mu_);
        done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

}  // namespace tt_emu
