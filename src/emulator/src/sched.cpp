// The kernel scheduler: every kernel of every core is a cooperative task (a fiber with its own stack), and a
// small pool of threads ($TT_EMU_THREADS, default: the machine's cores) runs the ready ones. The kernels of one
// core go to the queue of one thread of the pool (core ordinal modulo threads), which runs them unless it is busy
// when another thread is idle (which then takes only a kernel of a core with none running), so a core's lock is
// mostly contended only by the NoC calls of other cores: with any thread running any kernel, the two threads of a
// 2-core machine spent more CPU time passing core locks and cache lines back and forth than the one thread alone
// (GEMM 2048^3). Each thread's queue has a lock of its own. A kernel
// switches out only where it blocks (block_until: CB reserve/wait and semaphore waits); whoever makes its wait
// satisfiable puts it back on the ready queue (wake_waiters). A wait costs two user-space context switches, not a
// futex, an OS thread switch and a timed wake-up.
//
// Invariants:
// - a kernel holds its core lock from the moment it decides to block until it has switched out: the worker that
//   ran it releases the lock after the switch, so a waker (which needs that lock) never resumes a kernel whose
//   context is not saved yet;
// - nothing is queued except by a kernel in flight, so no kernel queued or in flight (Pool::pending, one counter)
//   means the run is over: every kernel finished, or the rest are blocked after a failure or a deadlock (both reported by
//   core.cpp before the last kernel stopped), and they are resumed one by one to unwind (block_until aborts);
// - thread-local state (the current kernel) is only read in functions that never span a switch: a fiber may
//   continue on another thread of the pool.
//
// On x86-64 Linux a switch is a few instructions of our own (tt_emu_switch: the callee-saved registers, MXCSR and
// the x87 control word, then the stack pointer): glibc's swapcontext also saves and restores the signal mask, a
// system call per switch (half a million in benchmarks/bench_tt_emulate.py's GEMM 2048^3). Elsewhere, ucontext.
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <thread>

#include "emu.hpp"
#include "sanitize.hpp"

namespace tt_emu {

#if defined(__x86_64__) && defined(__linux__)
#define TT_EMU_OWN_SWITCH 1
// Saves the callee-saved state on the current stack and its stack pointer in *save, then continues the context
// whose stack pointer is `load` (saved by this function, or laid out by make_fiber to start in tt_emu_fiber_start).
extern "C" __attribute__((visibility("hidden"))) void tt_emu_switch(void** save, void* load);
extern "C" __attribute__((visibility("hidden"))) void tt_emu_fiber_start();
extern "C" __attribute__((visibility("hidden"))) void tt_emu_fiber_main(void* fiber);
asm(R"(
    .text
    .globl tt_emu_switch
    .hidden tt_emu_switch
    .type tt_emu_switch, @function
tt_emu_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size tt_emu_switch, .-tt_emu_switch

    .globl tt_emu_fiber_start
    .hidden tt_emu_fiber_start
    .type tt_emu_fiber_start, @function
tt_emu_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    call tt_emu_fiber_main
    ud2
    .cfi_endproc
    .size tt_emu_fiber_start, .-tt_emu_fiber_start
)");
#endif

// A saved context: where a fiber or the thread that resumed it continues.
struct Context {
#ifdef TT_EMU_OWN_SWITCH
    void* sp = nullptr;
#else
    ucontext_t uc{};
#endif
};

void jump(Context& save, Context& load) {
#ifdef TT_EMU_OWN_SWITCH
    tt_emu_switch(&save.sp, load.sp);
#else
    swapcontext(&save.uc, &load.uc);
#endif
}

struct Fiber {
    Context ctx;
    Context* home = nullptr;        // the context of the thread that resumed it, switched back to
    CoreLock* release = nullptr;    // the core lock its thread releases once it has switched out
    bool waiting = false;           // switched out in block_until, not yet queued again (core lock)
    bool finished = false;
    size_t worker = 0;              // the thread of the pool that runs it
    size_t core = 0;                // its core's ordinal in the run
    KernelThread* thread = nullptr;
    void (*body)(KernelThread*) = nullptr;
    uint8_t* stack = nullptr;
    size_t stack_bytes = 0;
};

namespace {

// As a thread's default stack; pages are committed only when touched. One guard page below it.
constexpr size_t kStackBytes = size_t{8} << 20;

// One thread of the pool: its queue of ready fibers, under a lock of its own (a spin lock: held for a few
// instructions; with one std::mutex for all queues the two threads of a 2-core machine spent 8 % of the GEMM 2048^3
// emulation in the futex wake-ups of its contention, and with one spin lock for all, 10 % passing it back and
// forth), and where it sleeps when it has nothing to run.
struct alignas(64) Worker {
    CoreLock mu;
    std::deque<Fiber*> ready;
    bool asleep = false;  // waiting for `wake` (mu)
    std::mutex sleep_mu;
    std::condition_variable cv;
    bool wake = false;  // sleep_mu
    std::atomic<Fiber*> current{nullptr};  // the fiber it runs (the watchdog names them)
};

struct Pool {
    Pool(size_t threads, size_t cores) : workers(threads), busy(cores) {}
    std::vector<Worker> workers;
    // Fibers queued or being run: 0 means none can ever be queued again (only a running fiber queues one), so the
    // run is over. One counter, so that no thread can see a fiber in neither state while it moves between them.
    std::atomic<int> pending{0};
    std::vector<std::atomic<uint32_t>> busy;  // per core: its kernels being run (a hint for pick)
};

// Thread `w`'s sleep ends (its lock held by the caller, which notifies once it has unlocked: see notify).
bool to_wake(Worker& worker) {
    if (!worker.asleep) return false;
    worker.asleep = false;
    return true;
}

void notify(Worker& worker) {
    std::lock_guard<std::mutex> lk(worker.sleep_mu);
    worker.wake = true;
    worker.cv.notify_one();
}

void wake_all(Pool& pool) {
    for (Worker& worker : pool.workers) {
        bool wake;
        {
            std::lock_guard<CoreLock> lk(worker.mu);
            wake = to_wake(worker);
        }
        if (wake) notify(worker);
    }
}

// The next fiber for thread `w`: from its own queue, the first whose core has no kernel running on another thread
// (else the first); from another thread's queue only one whose core has none (two threads running kernels of one
// core would pass its lock back and forth on every API call). nullptr: nothing to take.
Fiber* pick(Pool& pool, size_t w) {
    auto take = [&pool](Worker& worker, bool any) -> Fiber* {
        std::lock_guard<CoreLock> lk(worker.mu);
        std::deque<Fiber*>& queue = worker.ready;
        auto idle = [&pool](Fiber* f) { return pool.busy[f->core].load(std::memory_order_relaxed) == 0; };
        auto it = std::find_if(queue.begin(), queue.end(), idle);
        if (it == queue.end()) {
            if (!any || queue.empty()) return nullptr;
            it = queue.begin();
        }
        Fiber* f = *it;
        queue.erase(it);
        return f;
    };
    if (Fiber* f = take(pool.workers[w], true)) return f;
    for (size_t i = 1; i < pool.workers.size(); ++i) {
        if (Fiber* f = take(pool.workers[(w + i) % pool.workers.size()], false)) return f;
    }
    return nullptr;
}

Pool* g_pool = nullptr;  // the pool of the run in progress

void run_fiber(Fiber* f) {
    f->body(f->thread);
    f->finished = true;
    jump(f->ctx, *f->home);  // never resumed again
}

#ifndef TT_EMU_OWN_SWITCH
void entry(unsigned hi, unsigned lo) { run_fiber(reinterpret_cast<Fiber*>((static_cast<uintptr_t>(hi) << 32) | lo)); }
#endif

// Runs `f` on the calling thread until it blocks or finishes.
void resume(Fiber* f) {
    Context home;
    f->home = &home;
    set_current_thread(f->thread);
    jump(home, f->ctx);
    set_current_thread(nullptr);
    if (f->release != nullptr) {
        CoreLock* lock = f->release;
        f->release = nullptr;
        lock->unlock();
    }
}

void work(Pool& pool, size_t w) {
    Worker& me = pool.workers[w];
    for (;;) {
        Fiber* f = pick(pool, w);
        if (f == nullptr) {
            if (pool.pending.load() == 0) break;  // nothing queued, nothing that could queue: the run is over
            {
                std::lock_guard<CoreLock> lk(me.mu);
                if (!me.ready.empty()) continue;
                me.asleep = true;
            }
            // The end of the run wakes only threads marked asleep: whoever ended it after this mark wakes us, and
            // if it ended before, pending is 0 here.
            if (pool.pending.load() == 0) {
                std::lock_guard<CoreLock> lk(me.mu);
                me.asleep = false;
                break;
            }
            std::unique_lock<std::mutex> sleep(me.sleep_mu);
            me.cv.wait(sleep, [&me] { return me.wake; });
            me.wake = false;
            continue;
        }
        pool.busy[f->core].fetch_add(1, std::memory_order_relaxed);
        me.current.store(f);
        resume(f);
        me.current.store(nullptr);
        pool.busy[f->core].fetch_sub(1, std::memory_order_relaxed);
        if (pool.pending.fetch_sub(1) == 1) wake_all(pool);  // it was the last one: every sleeping thread leaves
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
#ifdef TT_EMU_OWN_SWITCH
    // What tt_emu_switch pops, below a 16-byte aligned top: MXCSR and x87 control word (their defaults), r15..r12
    // (r12: the fiber, for tt_emu_fiber_start), rbx, rbp, and the return address: tt_emu_fiber_start, entered
    // with the stack 16-byte aligned so that its call is ABI-aligned.
    auto* top = reinterpret_cast<uint64_t*>(f.stack + f.stack_bytes - 16);
    uint64_t* sp = top - 8;
    const uint32_t control[2] = {0x1f80u, 0x037fu};
    std::memcpy(&sp[0], control, sizeof control);
    sp[1] = sp[2] = sp[3] = 0;                       // r15, r14, r13
    sp[4] = reinterpret_cast<uint64_t>(&f);          // r12
    sp[5] = sp[6] = 0;                               // rbx, rbp
    sp[7] = reinterpret_cast<uint64_t>(&tt_emu_fiber_start);
    f.ctx.sp = sp;
#else
    getcontext(&f.ctx.uc);
    f.ctx.uc.uc_stack.ss_sp = f.stack + page;
    f.ctx.uc.uc_stack.ss_size = kStackBytes;
    f.ctx.uc.uc_link = nullptr;
    const auto bits = reinterpret_cast<uintptr_t>(&f);
    makecontext(&f.ctx.uc, reinterpret_cast<void (*)()>(entry), 2, static_cast<unsigned>(bits >> 32),
                static_cast<unsigned>(bits & 0xffffffffu));
#endif
}

size_t pool_threads(size_t cores) {
    size_t n = std::thread::hardware_concurrency();
    if (const char* env = std::getenv("TT_EMU_THREADS"); env && *env) n = std::strtoul(env, nullptr, 10);
    return std::max<size_t>(1, std::min(n == 0 ? 1 : n, cores));
}

}  // namespace

std::vector<KernelThread*> kernels_in_flight() {
    std::vector<KernelThread*> out;
    if (g_pool == nullptr) return out;
    for (Worker& worker : g_pool->workers) {
        if (Fiber* f = worker.current.load()) out.push_back(f->thread);
    }
    return out;
}

void switch_out(Session& s) {
    Fiber* f = s.t.fiber;
    CoreLock* lock = s.lock.release();  // still locked: the thread that ran us unlocks it after the switch
    f->release = lock;
    f->waiting = true;
    jump(f->ctx, *f->home);
    s.lock = std::unique_lock<CoreLock>(*lock);
}

void schedule_ready(KernelThread& t) {
    Fiber* f = t.fiber;
    if (f == nullptr || !f->waiting) return;  // running (it sees the change itself) or unwinding
    f->waiting = false;
    Worker& worker = g_pool->workers[f->worker];  // its own thread; an idle other one takes it only when woken otherwise
    g_pool->pending.fetch_add(1);  // before the waker (running, so counted) stops
    bool wake;
    {
        std::lock_guard<CoreLock> lk(worker.mu);
        worker.ready.push_back(f);
        wake = to_wake(worker);
    }
    if (wake) notify(worker);
}

void run_kernels(Run& run, void (*body)(KernelThread*)) {
    std::vector<Fiber> fibers(run.num_threads);
    const size_t threads = pool_threads(run.cores.size());  // more than one per core would have nothing to run
    Pool pool(threads, run.cores.size());
    size_t i = 0;
    for (size_t c = 0; c < run.cores.size(); ++c) {
        for (auto& t : run.cores[c]->threads) {
            Fiber& f = fibers[i++];
            make_fiber(f, *t, body);
            f.worker = c % threads;
            f.core = c;
            pool.workers[f.worker].ready.push_back(&f);
            pool.pending.fetch_add(1);
        }
    }
    g_pool = &pool;
    std::vector<std::thread> helpers;
    for (size_t w = 1; w < threads; ++w) helpers.emplace_back(work, std::ref(pool), w);
    work(pool, 0);
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

#ifdef TT_EMU_OWN_SWITCH
extern "C" void tt_emu_fiber_main(void* fiber) { tt_emu::run_fiber(static_cast<tt_emu::Fiber*>(fiber)); }
#endif
