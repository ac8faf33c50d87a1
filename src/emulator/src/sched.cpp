// The kernel scheduler: every kernel of every core is a cooperative task (a ucontext fiber with its own stack),
// and a small pool of threads ($TT_EMU_THREADS, default: the machine's cores) runs the ready ones. A kernel
// switches out only where it blocks (block_until: CB reserve/wait and semaphore waits); whoever makes its wait
// satisfiable puts it back on the ready queue (wake_waiters). A wait costs two user-space context switches, not a
// futex, an OS thread switch and a timed wake-up.
//
// Invariants:
// - a kernel holds its core lock from the moment it decides to block until it has switched out: the worker that
//   ran it releases the lock after the switch, so a waker (which needs that lock) never resumes a kernel whose
//   context is not saved yet;
// - nothing is queued except by a kernel in flight, so an empty queue with no kernel in flight means the run
//   is over: every kernel finished, or the rest are blocked after a failure or a deadlock (both reported by
//   core.cpp before the last kernel stopped), and they are resumed one by one to unwind (block_until aborts);
// - thread-local state (the current kernel) is only read in functions that never span a switch: a fiber may
//   continue on another thread of the pool.
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <thread>

#include "emu.hpp"
#include "sanitize.hpp"

namespace tt_emu {

struct Fiber {
    ucontext_t ctx{};
    ucontext_t* home = nullptr;     // the context of the thread that resumed it, switched back to
    std::mutex* release = nullptr;  // the core lock its thread releases once it has switched out
    bool waiting = false;           // switched out in block_until, not yet queued again (core lock)
    bool finished = false;
    KernelThread* thread = nullptr;
    void (*body)(KernelThread*) = nullptr;
    uint8_t* stack = nullptr;
    size_t stack_bytes = 0;
};

namespace {

// As a thread's default stack; pages are committed only when touched. One guard page below it.
constexpr size_t kStackBytes = size_t{8} << 20;

struct Pool {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Fiber*> ready;
    int in_flight = 0;  // fibers being run by a thread of the pool
    std::vector<Fiber*> running;  // which ones (the watchdog names them)
};
Pool* g_pool = nullptr;  // the pool of the run in progress

void entry(unsigned hi, unsigned lo) {
    Fiber* f = reinterpret_cast<Fiber*>((static_cast<uintptr_t>(hi) << 32) | lo);
    f->body(f->thread);
    f->finished = true;
    setcontext(f->home);
}

// Runs `f` on the calling thread until it blocks or finishes.
void resume(Fiber* f) {
    ucontext_t home;
    f->home = &home;
    set_current_thread(f->thread);
    swapcontext(&home, &f->ctx);
    set_current_thread(nullptr);
    if (f->release != nullptr) {
        std::mutex* lock = f->release;
        f->release = nullptr;
        lock->unlock();
    }
}

void work(Pool& pool) {
    std::unique_lock<std::mutex> lk(pool.mu);
    for (;;) {
        pool.cv.wait(lk, [&pool] { return !pool.ready.empty() || pool.in_flight == 0; });
        if (pool.ready.empty()) break;  // nothing queued and nothing that could queue: the run is over
        Fiber* f = pool.ready.front();
        pool.ready.pop_front();
        ++pool.in_flight;
        pool.running.push_back(f);
        lk.unlock();
        resume(f);
        lk.lock();
        pool.running.erase(std::find(pool.running.begin(), pool.running.end(), f));
        if (--pool.in_flight == 0 && pool.ready.empty()) pool.cv.notify_all();
    }
}

void make_fiber(Fiber& f, KernelThread& t, void (*body)(KernelThread*)) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    f.stack_bytes = kStackBytes + page;
    void* mem = mmap(nullptr, f.stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (mem == MAP_FAILED) exit_with_error(3, "tt_emu: error: cannot map a kernel stack\n");
    f.stack = static_cast<uint8_t*>(mem);
    mprotect(f.stack, page, PROT_NONE);  // a stack overflow faults (and is reported) instead of corrupting memory
    f.thread = &t;
    f.body = body;
    t.fiber = &f;
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = f.stack + page;
    f.ctx.uc_stack.ss_size = kStackBytes;
    f.ctx.uc_link = nullptr;
    const auto bits = reinterpret_cast<uintptr_t>(&f);
    makecontext(&f.ctx, reinterpret_cast<void (*)()>(entry), 2, static_cast<unsigned>(bits >> 32),
                static_cast<unsigned>(bits & 0xffffffffu));
}

size_t pool_threads(size_t fibers) {
    size_t n = std::thread::hardware_concurrency();
    if (const char* env = std::getenv("TT_EMU_THREADS"); env && *env) n = std::strtoul(env, nullptr, 10);
    return std::max<size_t>(1, std::min(n == 0 ? 1 : n, fibers));
}

}  // namespace

std::vector<KernelThread*> kernels_in_flight() {
    std::vector<KernelThread*> out;
    if (g_pool == nullptr) return out;
    std::lock_guard<std::mutex> lk(g_pool->mu);
    for (Fiber* f : g_pool->running) out.push_back(f->thread);
    return out;
}

void switch_out(Session& s) {
    Fiber* f = s.t.fiber;
    std::mutex* lock = s.lock.release();  // still locked: the thread that ran us unlocks it after the switch
    f->release = lock;
    f->waiting = true;
    swapcontext(&f->ctx, f->home);
    s.lock = std::unique_lock<std::mutex>(*lock);
}

void schedule_ready(KernelThread& t) {
    Fiber* f = t.fiber;
    if (f == nullptr || !f->waiting) return;  // running (it sees the change itself) or unwinding
    f->waiting = false;
    {
        std::lock_guard<std::mutex> lk(g_pool->mu);
        g_pool->ready.push_back(f);
    }
    g_pool->cv.notify_one();
}

void run_kernels(Run& run, void (*body)(KernelThread*)) {
    std::vector<Fiber> fibers(run.num_threads);
    Pool pool;
    size_t i = 0;
    for (auto& core : run.cores) {
        for (auto& t : core->threads) {
            make_fiber(fibers[i], *t, body);
            pool.ready.push_back(&fibers[i++]);
        }
    }
    g_pool = &pool;
    std::vector<std::thread> helpers;
    for (size_t n = pool_threads(fibers.size()); n > 1; --n) helpers.emplace_back(work, std::ref(pool));
    work(pool);
    for (auto& th : helpers) th.join();
    // Kernels still blocked: the run failed (every failure and deadlock is reported when it happens), so they
    // abort where they wait. One blocked with the run going on would be a scheduler fault; it is reported too.
    for (Fiber& f : fibers) {
        if (f.finished) continue;
        if (!run_stopped()) {
            run_failed("tt_emu: error: internal: core " + core_name(f.thread->core->coord) + " " +
                       thread_state(*f.thread) + " was never resumed\n");
        }
        f.waiting = false;
        resume(&f);
    }
    g_pool = nullptr;
    for (Fiber& f : fibers) {
        f.thread->fiber = nullptr;
        munmap(f.stack, f.stack_bytes);
    }
}

}  // namespace tt_emu
