// Readable state for error reports: thread and wait descriptions and the per-core state dump.
#include <sstream>

#include "emu.hpp"
#include "tt_emu/sfpu_ops.hpp"

namespace tt_emu {

namespace {
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

const char* sfpu_text(int op) { return sfpu::call(static_cast<sfpu::Op>(op)).name; }
std::string thread_label(const KernelThread* t) { return t ? t->name() : std::string("-"); }
}  // namespace

std::string thread_state(const KernelThread& t) {
    std::string out = t.name() + " " + status_text(t.status);
    if (t.status == ThreadStatus::Blocked) out += " in " + t.call.str();
    return out;
}


std::string wait_text(const Core& core, const Wait& w) {
    const Cb& cb = core.cbs[static_cast<size_t>(w.cb)];
    std::ostringstream os;
    if (w.kind == WaitKind::Semaphore) {
        os << "waits for semaphore " << w.sem << " (L1 " << hex(semaphore_base() + w.sem * kSemaphoreStride)
           << (w.at_least ? ") to reach " : ") to equal ") << w.value << " (it is " << core.sem_value(w.sem) << ")";
    } else if (w.kind == WaitKind::Reserve) {
        os << "waits for " << w.pages << " free page(s) of CB " << w.cb << " (" << cb.capacity - cb.occupied()
           << " free of " << cb.capacity << ")";
    } else {
        os << "waits for " << w.pages << " page(s) at the front of CB " << w.cb << " (" << cb.occupied()
           << " pushed and not popped)";
    }
    return os.str();
}

std::string dump_core(const Core& core) {
    std::ostringstream os;
    os << "core " << core_name(core.coord) << " state:\n  NoC coordinates: " << core_name(core.noc) << "\n  kernels:\n";
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
        for (const Multicast& m : t->mcasts) {
            any = true;
            os << "    " << t->name() << ": " << m.describe() << "\n";
        }
    }
    if (!any) os << "    (none)\n";
    os << "  semaphores:\n";
    any = false;
    for (uint32_t id = 0; id < kNumSemaphores; ++id) {
        if (!core.sems[id].exists) continue;
        any = true;
        os << "    semaphore " << id << " at L1 " << hex(semaphore_base() + id * kSemaphoreStride) << ": "
           << core.sem_value(id) << "\n";
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
        os << "; SFPU init " << sfpu_text(c->sfpu) << "\n  data formats:";
        const std::pair<const char*, const FormatSlot*> slots[] = {{"SrcA", &c->srca}, {"SrcB", &c->srcb},
                                                                  {"packer", &c->packer}};
        for (const auto& [unit, slot] : slots) {
            os << " " << unit << " " << format_name(slot->format);
            if (!slot->by.empty()) os << " (CB " << slot->cb << ")";
        }
        os << "\n";
    }
    return os.str();
}

}  // namespace tt_emu
