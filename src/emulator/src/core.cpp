// Kernel mechanics shared by every API call: entering a call under the core lock, failing with a
// report, blocking (switching to another task, sched.cpp) with deadlock detection (per core and over the whole program), calls that touch another
// core, and the per-core state dump.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "chips.hpp"
#include "emu.hpp"

namespace tt_emu {

namespace {
// Read by every API call: the initial-exec model makes it one load instead of a call to __tls_get_addr (the library is
// linked into the host program, never loaded later with dlopen, so its TLS block is allocated at start-up).
__attribute__((tls_model("initial-exec"))) thread_local KernelThread* t_current = nullptr;


bool satisfied(const Core& core, const Wait& w) {
    const Cb& cb = core.cbs[static_cast<size_t>(w.cb)];
    switch (w.kind) {
        case WaitKind::Reserve: return cb.capacity - cb.occupied() >= w.pages;
        case WaitKind::Front: return cb.occupied() >= w.pages;
        case WaitKind::Semaphore: return w.at_least ? core.sem_value(w.sem) >= w.value : core.sem_value(w.sem) == w.value;
        case WaitKind::None: return true;
    }
    return true;
}

}  // namespace

KernelThread* current_thread() { return t_current; }
void set_current_thread(KernelThread* t) { t_current = t; }

std::string hex(uint64_t value) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
    return buf;
}

std::string core_name(const CoreCoord& c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

const char* kind_name(KernelKind kind) {
    switch (kind) {
        case KernelKind::Riscv0: return "riscv_0";
        case KernelKind::Riscv1: return "riscv_1";
        case KernelKind::Compute: return "compute";
    }
    return "?";
}

std::string Call::str() const {
    std::string out = std::string(name) + "(";
    for (int i = 0; i < argc; ++i) {
        if (i) out += ", ";
        out += (hex_mask >> i) & 1 ? hex(static_cast<uint64_t>(args[i])) : std::to_string(args[i]);
    }
    return out + ")";
}

namespace {

KernelThread& calling_thread(const char* name) {
    KernelThread* t = t_current;
    if (t == nullptr) {
        std::fprintf(stderr, "tt_emu: error: %s called outside a kernel thread\n", name);
        std::fflush(stderr);
        std::_Exit(3);
    }
    return *t;
}

Session locked(KernelThread& t) {
    Session s{t, *t.core, std::unique_lock<CoreLock>(t.core->mu)};
    if (s.core.failed || run_stopped()) throw Abort{};
    return s;
}

}  // namespace

Session enter(const Call& call) {
    KernelThread& t = calling_thread(call.name);
    t.call = call;
    return locked(t);
}

// Every kernel API call starts here: the call is recorded straight into the thread (a Call built by the caller and
// copied as a whole is read back as vectors from its byte and word stores, a store-forwarding stall per call).
Session enter(const char* name, std::initializer_list<int64_t> args, uint8_t hex_mask) {
    KernelThread& t = calling_thread(name);
    t.call.name = name;
    uint8_t argc = 0;
    for (int64_t a : args) t.call.args[argc++] = a;
    t.call.argc = argc;
    t.call.hex_mask = hex_mask;
    return locked(t);
}

void record_failure(Core& core, KernelThread& culprit, const std::string& message, const std::string& extra_dump) {
    if (core.failed) return;
    core.failed = true;
    culprit.status = ThreadStatus::Failed;
    std::string text = "tt_emu: error: " + chip_prefix() + "core " + core_name(core.coord) + " " + culprit.name() + ": " +
                       culprit.call.str() + ": " + message + "\n" + dump_core(core) + extra_dump;
    run_failed(text);
}

void fail(Session& s, const std::string& message, const std::string& extra_dump) {
    record_failure(s.core, s.t, message, extra_dump);
    throw Abort{};
}

namespace {

// Deadlock of one core: every kernel still alive on it is blocked on a CB. Only the core's own kernels move
// CB counters, so this is exact; semaphore waits can be released by other cores and are left to
// program_deadlock. Called by a thread about to block or about to finish, with the core lock held.
bool core_deadlock(Core& core, KernelThread* self) {
    KernelThread* first_blocked = nullptr;
    for (auto& t : core.threads) {
        if (t->status == ThreadStatus::Running || t->status == ThreadStatus::NotStarted) return false;
        if (t->status == ThreadStatus::Blocked) {
            if (t->wait.kind == WaitKind::Semaphore || satisfied(core, t->wait)) return false;
            if (first_blocked == nullptr) first_blocked = t.get();
        }
    }
    if (first_blocked == nullptr || core.failed) return false;
    KernelThread* culprit = self && self->status == ThreadStatus::Blocked ? self : first_blocked;
    std::string others;
    for (auto& t : core.threads) {
        if (t.get() != culprit) others += (others.empty() ? "" : ", ") + thread_state(*t);
    }
    record_failure(core, *culprit,
                   "deadlock: " + wait_text(core, culprit->wait) +
                       " and no other kernel on the core can make progress (" +
                       (others.empty() ? std::string("no other kernels") : others) + ")");
    return true;
}

// Deadlock of the program: no kernel thread of any core is running, and some are blocked. The culprit is the
// first thread (cores in order, then kernels) blocked on a semaphore: a core blocked on CBs alone has been
// reported by core_deadlock already. Called by the thread that stopped the
// last running one, holding its own core lock; nothing can change any more, so reading the other cores one
// lock at a time is safe (no other thread holds a lock while waiting for one).
void program_deadlock(Core& own) {
    constexpr size_t kMaxListed = 6, kMaxDumps = 4;
    // Each other core is read under its own lock, one at a time.
    auto for_each_core = [&own](const std::function<void(Core&)>& fn) {
        for (auto& core : own.run->cores) {
            std::unique_lock<CoreLock> lk(core->mu, std::defer_lock);
            if (core.get() != &own) lk.lock();
            fn(*core);
        }
    };
    KernelThread* culprit = nullptr;  // the first semaphore waiter, else (never seen) the first blocked thread
    bool failed = false;
    for_each_core([&](Core& core) {
        failed = failed || core.failed;
        for (auto& t : core.threads) {
            if (t->status != ThreadStatus::Blocked) continue;
            const bool sem = t->wait.kind == WaitKind::Semaphore;
            if (!culprit || (sem && culprit->wait.kind != WaitKind::Semaphore)) culprit = t.get();
        }
    });
    if (failed || !culprit) return;  // reported already, or every kernel finished
    Core& home = *culprit->core;
    std::vector<std::string> blocked;  // blocked kernels of the other cores
    std::string dumps;
    size_t dumped = 0;
    for_each_core([&](Core& core) {
        if (&core == &home) return;
        bool any = false;
        for (auto& t : core.threads) {
            if (t->status != ThreadStatus::Blocked) continue;
            blocked.push_back(chip_prefix() + "core " + core_name(core.coord) + " " + thread_state(*t));
            any = true;
        }
        if (any && dumped++ < kMaxDumps) dumps += dump_core(core);
    });
    std::string here, elsewhere;
    for (auto& t : home.threads) {
        if (t.get() != culprit) here += (here.empty() ? "" : ", ") + thread_state(*t);
    }
    for (size_t i = 0; i < blocked.size() && i < kMaxListed; ++i) elsewhere += (i ? ", " : "") + blocked[i];
    if (blocked.size() > kMaxListed) elsewhere += ", and " + std::to_string(blocked.size() - kMaxListed) + " more";
    if (dumped > kMaxDumps) dumps += "(" + std::to_string(dumped - kMaxDumps) + " more blocked cores not shown)\n";
    std::unique_lock<CoreLock> lk(home.mu, std::defer_lock);
    if (&home != &own) lk.lock();
    record_failure(home, *culprit,
                   "deadlock: " + wait_text(home, culprit->wait) +
                       " and no kernel of the program can make progress (on this core: " +
                       (here.empty() ? std::string("no other kernels") : here) + "; on other cores: " +
                       (elsewhere.empty() ? std::string("no kernel blocked") : elsewhere) + ")",
                   dumps);
}

// The calling thread stops running (blocks or finishes); the last one to stop looks for a program deadlock.
void leave_running(Core& core) {
    if (core.run->active.fetch_sub(1) == 1 && !run_stopped()) program_deadlock(core);
}

void park(Session& s) {
    s.t.status = ThreadStatus::Blocked;
    if (!core_deadlock(s.core, &s.t)) leave_running(s.core);
}

}  // namespace

void wake_waiters(Core& core) {
    for (auto& t : core.threads) {
        if (t->status == ThreadStatus::Blocked && satisfied(core, t->wait)) {
            t->status = ThreadStatus::Running;
            core.run->active.fetch_add(1);
            schedule_ready(*t);
        }
    }
}

void finish_thread(Core& core, KernelThread& self) {
    if (self.status == ThreadStatus::Failed) return;
    self.status = ThreadStatus::Done;
    if (!core_deadlock(core, nullptr)) leave_running(core);
}

void block_until(Session& s, const Wait& wait) {
    s.t.wait = wait;
    while (!satisfied(s.core, wait)) {
        // Running here means first pass, or woken by a change that another change undid (a semaphore).
        if (s.t.status == ThreadStatus::Running) park(s);
        if (s.core.failed || run_stopped()) throw Abort{};
        switch_out(s);  // resumed once a change satisfies the wait, or to unwind after a failure
        if (s.core.failed || run_stopped()) throw Abort{};
    }
    if (s.t.status == ThreadStatus::Blocked) {  // satisfied by a change that did not wake (defensive)
        s.t.status = ThreadStatus::Running;
        s.core.run->active.fetch_add(1);
    }
    s.t.wait = Wait{};
}

void with_core(Session& s, Core& target, const std::function<std::string(Core&)>& body) {
    std::string error, target_dump;
    if (&target == &s.core) {
        error = body(target);
    } else {
        s.lock.unlock();
        {
            std::lock_guard<CoreLock> lk(target.mu);
            if (!target.failed) error = body(target);
            if (!error.empty()) target_dump = dump_core(target);
        }
        s.lock.lock();
    }
    if (s.core.failed || run_stopped()) throw Abort{};
    if (!error.empty()) fail(s, error, target_dump);
}

// Cloned per x86 ISA: SSE2 has no unsigned 32-bit maximum (five instructions per four entries instead of one per
// sixteen at AVX-512); every CB push, pop, reserve and wait joins a clock of one entry per kernel of the program.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void Clock::join(const Clock& other) {
    if (v.size() < other.v.size()) v.resize(other.v.size(), 0);
    for (size_t i = 0; i < other.v.size(); ++i) v[i] = std::max(v[i], other.v[i]);
}

uint32_t Core::sem_value(uint32_t id) const {
    uint32_t value;
    std::memcpy(&value, &l1[semaphore_base() + id * kSemaphoreStride], 4);
    return value;
}

void Core::set_sem_value(uint32_t id, uint32_t value) {
    std::memcpy(&l1[semaphore_base() + id * kSemaphoreStride], &value, 4);
}

CoreCoord noc_of_logical(const CoreCoord& logical) {
    return CoreCoord{dev().noc_x[logical.x], dev().noc_y[logical.y]};
}

bool logical_of_noc(uint32_t noc_x, uint32_t noc_y, CoreCoord& logical) {
    const uint8_t* xs = dev().noc_x;
    const uint8_t* ys = dev().noc_y;
    const uint8_t* x = std::find(xs, xs + dev().grid_x, noc_x);
    const uint8_t* y = std::find(ys, ys + dev().grid_y, noc_y);
    if (x == xs + dev().grid_x || y == ys + dev().grid_y) return false;
    logical = CoreCoord{static_cast<size_t>(x - xs), static_cast<size_t>(y - ys)};
    return true;
}

std::string grid_text() { return std::to_string(dev().grid_x) + "x" + std::to_string(dev().grid_y); }

Core* Run::core_at_noc(uint32_t noc_x, uint32_t noc_y) const {
    CoreCoord logical;
    if (!logical_of_noc(noc_x, noc_y, logical)) return nullptr;
    auto it = by_coord.find(logical);
    return it == by_coord.end() ? nullptr : it->second;
}


}  // namespace tt_emu
