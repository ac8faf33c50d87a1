// Kernel-thread mechanics shared by every API call: entering a call under the core lock, failing with a
// report, blocking with deadlock detection, and the per-core state dump.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "emu.hpp"

namespace tt_emu {

namespace {
thread_local KernelThread* t_current = nullptr;

const char* status_text(ThreadStatus s) {
    switch (s) {
        case ThreadStatus::NotStarted: return "not started";
        case ThreadStatus::Running: return "running";
        case ThreadStatus::Blocked: return "blocked";
        case ThreadStatus::Done: return "done";
        case ThreadStatus::Failed: return "failed";
        case ThreadStatus::Aborted: return "stopped";
    }
    return "?";
}

const char* dst_text(DstState s) {
    switch (s) {
        case DstState::Released: return "released";
        case DstState::Acquired: return "acquired (math)";
        case DstState::Committed: return "committed (waiting for pack)";
        case DstState::Waited: return "waited (pack)";
    }
    return "?";
}

const char* fpu_text(FpuOp op) {
    switch (op) {
        case FpuOp::None: return "none";
        case FpuOp::Matmul: return "matmul";
        case FpuOp::Add: return "add_tiles";
        case FpuOp::Sub: return "sub_tiles";
        case FpuOp::Mul: return "mul_tiles";
        case FpuOp::Copy: return "copy_tile";
    }
    return "?";
}

const char* sfpu_text(int op) {
    switch (op) {
        case 1: return "exp_tile";
        case 2: return "relu_tile";
        case 3: return "fill_tile";
        default: return "none";
    }
}

std::string thread_label(const KernelThread* t) { return t ? t->name() : std::string("-"); }

bool satisfied(const Core& core, const Wait& w) {
    const Cb& cb = core.cbs[static_cast<size_t>(w.cb)];
    switch (w.kind) {
        case WaitKind::Reserve: return cb.capacity - cb.occupied() >= w.pages;
        case WaitKind::Front: return cb.occupied() >= w.pages;
        case WaitKind::None: return true;
    }
    return true;
}

std::string wait_text(const Core& core, const Wait& w) {
    const Cb& cb = core.cbs[static_cast<size_t>(w.cb)];
    std::ostringstream os;
    if (w.kind == WaitKind::Reserve) {
        os << "waits for " << w.pages << " free page(s) of CB " << w.cb << " (" << cb.capacity - cb.occupied()
           << " free of " << cb.capacity << ")";
    } else {
        os << "waits for " << w.pages << " page(s) at the front of CB " << w.cb << " (" << cb.occupied()
           << " pushed and not popped)";
    }
    return os.str();
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

Session enter(const Call& call) {
    KernelThread* t = t_current;
    if (t == nullptr) {
        std::fprintf(stderr, "tt_emu: error: %s called outside a kernel thread\n", call.name);
        std::fflush(stderr);
        std::_Exit(3);
    }
    t->call = call;
    Session s{*t, *t->core, std::unique_lock<std::mutex>(t->core->mu)};
    if (s.core.failed || run_stopped()) throw Abort{};
    return s;
}

void record_failure(Core& core, KernelThread& culprit, const std::string& message) {
    if (core.failed) return;
    core.failed = true;
    culprit.status = ThreadStatus::Failed;
    std::string text = "tt_emu: error: core " + core_name(core.coord) + " " + culprit.name() + ": " +
                       culprit.call.str() + ": " + message + "\n" + dump_core(core);
    run_failed(text);
    core.cv.notify_all();
}

void fail(Session& s, const std::string& message) {
    record_failure(s.core, s.t, message);
    throw Abort{};
}

// Deadlock: every kernel still alive on the core is blocked, and no blocked call could proceed. Cores
// share nothing but DRAM, so this is exact. Called by a thread about to block or about to finish.
void check_deadlock(Core& core, KernelThread* self) {
    KernelThread* first_blocked = nullptr;
    for (auto& t : core.threads) {
        if (t->status == ThreadStatus::Running || t->status == ThreadStatus::NotStarted) return;
        if (t->status == ThreadStatus::Blocked) {
            if (satisfied(core, t->wait)) return;
            if (first_blocked == nullptr) first_blocked = t.get();
        }
    }
    if (first_blocked == nullptr || core.failed) return;
    KernelThread* culprit = self && self->status == ThreadStatus::Blocked ? self : first_blocked;
    std::string others;
    for (auto& t : core.threads) {
        if (t.get() == culprit) continue;
        others += (others.empty() ? "" : ", ") + t->name() + " " + status_text(t->status);
        if (t->status == ThreadStatus::Blocked) others += " in " + t->call.str();
    }
    record_failure(core, *culprit,
                   "deadlock: " + wait_text(core, culprit->wait) +
                       " and no other kernel on the core can make progress (" +
                       (others.empty() ? std::string("no other kernels") : others) + ")");
}

void block_until(Session& s, const Wait& wait) {
    if (satisfied(s.core, wait)) return;
    s.t.status = ThreadStatus::Blocked;
    s.t.wait = wait;
    check_deadlock(s.core, &s.t);
    // A timed wait so that a failure on another core (which does not notify this core) is noticed.
    while (!s.core.failed && !run_stopped() && !satisfied(s.core, wait)) {
        s.core.cv.wait_for(s.lock, std::chrono::milliseconds(50));
    }
    if (s.core.failed || run_stopped()) throw Abort{};
    s.t.status = ThreadStatus::Running;
    s.t.wait = Wait{};
}

std::string dump_core(const Core& core) {
    std::ostringstream os;
    os << "core " << core_name(core.coord) << " state:\n  kernels:\n";
    for (auto& t : core.threads) {
        os << "    " << t->name() << " [" << kind_name(t->spec->kind) << ", " << t->spec->path << "]: "
           << status_text(t->status);
        if (t->status == ThreadStatus::Blocked || t->status == ThreadStatus::Failed ||
            t->status == ThreadStatus::Running) {
            os << " in " << t->call.str();
        }
        if (t->wait.kind != WaitKind::None) os << ", " << wait_text(core, t->wait);
        os << "\n";
    }
    os << "  circular buffers:\n";
    bool any = false;
    for (const Cb& cb : core.cbs) {
        if (!cb.configured) continue;
        any = true;
        os << "    CB " << int(cb.index) << ": " << format_name(cb.format) << ", " << cb.capacity << " x "
           << cb.page_bytes << " B at L1 " << hex(cb.base) << "; received " << cb.received << ", acked "
           << cb.acked << " (" << cb.occupied() << " in flight); reserved " << cb.reserved << ", waited "
           << cb.waited << "; write page " << cb.wr_page() << ", read page " << cb.rd_page() << "; producer "
           << thread_label(cb.producer) << ", consumer " << thread_label(cb.consumer) << "\n";
    }
    if (!any) os << "    (none)\n";
    os << "  pending NoC transfers:\n";
    any = false;
    for (auto& t : core.threads) {
        for (auto* list : {&t->reads, &t->writes}) {
            for (const Transfer& x : *list) {
                any = true;
                os << "    " << t->name() << ": " << x.describe() << "\n";
            }
        }
    }
    if (!any) os << "    (none)\n";
    if (const ComputeState* c = core.compute.get()) {
        os << "  DST: " << dst_text(c->dst) << "; " << c->capacity << " tiles per acquire ("
           << (c->fp32_acc ? "fp32" : "bf16") << " accumulation); written since acquire:";
        bool written = false;
        for (uint32_t i = 0; i < kDstTiles; ++i) {
            if ((c->written >> i) & 1) {
                os << " " << i;
                written = true;
            }
        }
        os << (written ? "" : " none") << "\n  math: hardware start-up " << (c->started ? "done" : "not done")
           << "; FPU init " << fpu_text(c->fpu);
        if (c->fpu != FpuOp::None) os << " (CB " << c->fpu_cb[0] << ", " << c->fpu_cb[1] << ")";
        os << "; SFPU init " << sfpu_text(c->sfpu) << "\n";
    }
    return os.str();
}

}  // namespace tt_emu
