// Running a program: wait for the kernel JIT, then run every kernel of every core as a cooperative task
// (sched.cpp), all at once (reader, compute, writer run concurrently, as on a Tensix, and a core waiting on a
// semaphore needs the other cores to make progress). Results do not depend on the schedule: kernels only interact through CBs,
// semaphores and barriers. The first failure stops the run; its report is printed and the process exits.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>

#include "cb_fresh.hpp"  // l1_acc_reset
#include "emu.hpp"
#include "metal2.hpp"
#include "sanitize.hpp"

namespace tt_emu {

namespace {

struct RunControl {
    std::atomic<bool> stop{false};
    std::mutex mu;
    std::string report;          // first failure of the current run
};
RunControl& control() {
    static RunControl* r = new RunControl;
    return *r;
}

const std::vector<uint32_t> kNoArgs;

// Where emulated L1 address `addr` of `core` lies: a CB's reserved or waited pages, elsewhere in a CB, a semaphore.
void l1_place(const Core& core, uintptr_t addr, char* out, size_t n) {
    std::snprintf(out, n, "outside every CB and semaphore");
    for (const Cb& cb : core.cbs) {
        if (!cb.configured || addr < cb.base || addr >= cb.base + uint64_t{cb.capacity} * cb.page_bytes) continue;
        const uint64_t wr = cb.page_addr(cb.wr_page()), rd = cb.page_addr(cb.rd_page());
        const char* part = addr >= wr && addr < wr + uint64_t{cb.reserved} * cb.page_bytes ? "reserved pages"
                           : addr >= rd && addr < rd + uint64_t{cb.waited} * cb.page_bytes ? "waited pages"
                                                                                            : "pages it does not hold";
        std::snprintf(out, n, "in CB %u (%s)", unsigned{cb.index}, part);
    }
    if (addr >= semaphore_base() && addr < l1_total_bytes()) {
        std::snprintf(out, n, "at semaphore %u", unsigned((addr - semaphore_base()) / kSemaphoreStride));
    }
}

// A kernel that dereferences a bad pointer would otherwise take the process down silently. Each core's L1 is a
// window of the address space (l1_window.cpp): a fault below l1_total_bytes() is a load or store through an L1 offset
// held as an integer (not an address of the core's window), one in another window is L1 of a core this program does
// not run (windows are inaccessible outside their core's run); the report names the address and what it holds.
void on_crash(int sig, siginfo_t* info, void*) {
    char buf[768];
    KernelThread* t = current_thread();
    const uintptr_t addr = info ? reinterpret_cast<uintptr_t>(info->si_addr) : ~uintptr_t{0};
    uint32_t offset = 0;
    CoreCoord owner;
    const bool l1 = t && sig == SIGSEGV && l1_window_offset(t->core->coord, addr, offset, &owner);
    if (l1 && addr < l1_total_bytes()) {
        char place[128];
        l1_place(*t->core, offset, place, sizeof place);
        std::snprintf(buf, sizeof buf,
                      "tt_emu: error: core (%zu,%zu) %s: a load or store through L1 address 0x%zx (%s) held as an "
                      "integer, in or after %s: it is an L1 offset, not an address of this core's L1 (at 0x%x + "
                      "offset): dereference the addresses get_write_ptr, get_read_ptr, get_semaphore and the runtime "
                      "arguments give\n",
                      t->core->coord.x, t->core->coord.y, t->name().c_str(), size_t{addr}, place, t->call.name,
                      unsigned{t->core->l1.base()});
    } else if (l1) {
        std::snprintf(buf, sizeof buf,
                      "tt_emu: error: core (%zu,%zu) %s: a load or store through 0x%zx, L1 0x%x of core (%zu,%zu), "
                      "which runs no kernel of this program, in or after %s: a kernel reaches another core's L1 "
                      "only through the NoC\n",
                      t->core->coord.x, t->core->coord.y, t->name().c_str(), size_t{addr}, unsigned{offset}, owner.x,
                      owner.y, t->call.name);
    } else if (t) {
        std::snprintf(buf, sizeof buf, "tt_emu: error: core (%zu,%zu) %s: crashed with signal %d in or after %s\n",
                      t->core->coord.x, t->core->coord.y, t->name().c_str(), sig, t->call.name);
    } else {
        std::snprintf(buf, sizeof buf, "tt_emu: error: crashed with signal %d outside kernel code\n", sig);
    }
    std::fputs(buf, stderr);
    std::fflush(stderr);
    std::_Exit(3);
}

std::string pending_at_end(const KernelThread& t) {
    if (t.linked_to) return "returned with " + open_linked_transaction(t);
    if (!t.reads.empty()) {
        return "returned with " + std::to_string(t.reads.size()) +
               " NoC read(s) pending (missing noc_async_read_barrier): " + t.reads.front().describe();
    }
    if (!t.writes.empty()) {
        return "returned with " + std::to_string(t.writes.size()) +
               " NoC write(s) pending (missing noc_async_write_barrier): " + t.writes.front().describe();
    }
    if (!t.mcasts.empty()) {
        return "returned with " + std::to_string(t.mcasts.size()) +
               " NoC multicast(s) pending (missing noc_async_write_barrier): " + t.mcasts.front().describe();
    }
    if (t.spec->kind == KernelKind::Compute && t.core->compute->dst != DstState::Released) {
        return "returned while the DST section is still held (missing tile_regs_release)";
    }
    return "";
}

void finish_kernel(KernelThread& t) {
    Core& core = *t.core;
    std::unique_lock<CoreLock> lk(core.mu);
    t.call = Call{};
    if (!core.failed && !run_stopped()) {
        const std::string error = pending_at_end(t);
        if (!error.empty()) record_failure(core, t, error);
    }
    finish_thread(core, t);
}

// The body of a kernel's task (the scheduler sets the current thread around it).
void kernel_thread(KernelThread* t) {
    {
        std::lock_guard<CoreLock> lk(t->core->mu);
        if (t->status == ThreadStatus::NotStarted) t->status = ThreadStatus::Running;
    }
    try {
        t->binary->entry();
        finish_kernel(*t);
    } catch (const Abort&) {
        std::lock_guard<CoreLock> lk(t->core->mu);
        if (t->status != ThreadStatus::Failed) t->status = ThreadStatus::Aborted;
    } catch (const std::exception& e) {
        std::lock_guard<CoreLock> lk(t->core->mu);
        record_failure(*t->core, *t, std::string("uncaught exception: ") + e.what());
    }
}

// A core's state at enqueue: its CBs, its semaphores at their initial values, one thread per kernel.
std::unique_ptr<Core> make_core(Run& run, const CoreCoord& coord, const std::vector<const KernelSpec*>& kernels) {
    auto core = std::make_unique<Core>();
    core->run = &run;
    core->coord = coord;
    core->noc = noc_of_logical(coord);
    core->l1.claim(coord);
    if (auto it = run.program->cbs.find(coord); it != run.program->cbs.end()) {
        for (const CbSpec& spec : it->second) {
            Cb& cb = core->cbs[spec.index];
            cb.configured = true;
            cb.index = spec.index;
            cb.format = spec.format;
            cb.page_bytes = spec.page_size;
            cb.capacity = spec.total_size / spec.page_size;
            cb.base = spec.address;
            cb.reserved_at.assign(cb.capacity, 0);
        }
    }
    for (const SemaphoreSpec& sem : run.program->semaphores) {
        if (std::find(sem.cores.begin(), sem.cores.end(), coord) == sem.cores.end()) continue;
        core->sems[sem.id].exists = true;
        core->set_sem_value(sem.id, sem.initial_value);
    }
    for (const KernelSpec* k : kernels) {
        auto t = std::make_unique<KernelThread>();
        t->core = core.get();
        t->index = static_cast<uint32_t>(run.num_threads++);
        t->spec = k;
        t->binary = k->binary.get();
        auto args = k->runtime_args.find(coord);
        t->args = args == k->runtime_args.end() ? &kNoArgs : &args->second;
        t->common_args = &k->common_args;
        if (k->kind == KernelKind::Compute) {
            core->compute = std::make_unique<ComputeState>();
            core->compute->fp32_acc = k->fp32_dest_acc;
            core->compute->fidelity = k->math_fidelity;
            core->compute->capacity = (k->dst_full_sync ? 16u : 8u) / (k->fp32_dest_acc ? 2u : 1u);
            l1_acc_reset(*core);
        }
        core->threads.push_back(std::move(t));
    }
    return core;
}

// Sharded L1 buffers live in their cores' L1 while a program runs: their pages go in before it (marked written, as
// the host wrote them) and come back out after it, for the host to read (and the next program to find).
void move_shards(Run& run, bool in) {
    std::lock_guard<std::mutex> dram(dram_mutex());
    for (const std::shared_ptr<DramBuffer>& buf : l1_sharded_buffers()) {
        for (uint32_t page = 0; page < buf->num_pages; ++page) {
            const auto [bank, offset] = buf->shards->locate(page);
            auto core = run.by_coord.find(buf->shards->cores[bank]);
            if (core == run.by_coord.end()) continue;  // a core the program does not run keeps its L1
            uint8_t* l1 = &core->second->l1[buf->address + offset];
            uint8_t* host = &buf->data[size_t{page} * buf->page_size];
            if (in) {
                std::memcpy(l1, host, buf->page_size);
                l1_written(*core->second, buf->address + offset, buf->page_size);
            } else {
                std::memcpy(host, l1, buf->page_size);
            }
        }
    }
}

}  // namespace

bool run_stopped() { return control().stop.load(std::memory_order_relaxed); }

void run_failed(const std::string& report) {
    std::lock_guard<std::mutex> lk(control().mu);
    if (control().report.empty()) control().report = report;
    control().stop = true;  // blocked kernels stay switched out; the scheduler unwinds them at the end
}

void run_program(ProgramState& program) {
    static std::once_flag handlers;
    std::call_once(handlers, [] {
        struct sigaction action = {};
        action.sa_sigaction = on_crash;
        action.sa_flags = SA_SIGINFO;
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &action, nullptr);
    });
    // A data-movement kernel made with CreateKernel compiles now, when its program's CBs are known: tt-metal's JIT
    // gives every kernel the CB descriptors (chlkc_descriptors.h; the formats on the kernel's first core).
    for (KernelSpec& k : program.kernels) {
        if (k.binary.valid()) continue;
        std::vector<DataFormat> formats(kNumCbs, DataFormat::Invalid);
        if (auto cbs = program.cbs.find(k.cores.front()); cbs != program.cbs.end()) {
            for (const CbSpec& cb : cbs->second) formats[cb.index] = cb.format;
        }
        k.generated_headers = {metal2::dm_descriptors(formats)};
        k.binary = compile_kernel_async(k);
    }
    // Kernel binaries (compiled in the background since CreateKernel, or just now).
    for (const KernelSpec& k : program.kernels) {
        std::shared_ptr<KernelBinary> bin = k.binary.get();
        report_add_kernel(k.name, *bin);
        if (!bin->ok) exit_with_error(2, "tt_emu: error: kernel compilation failed: " + k.path + "\n" + bin->log);
    }
    std::map<CoreCoord, std::vector<const KernelSpec*>> by_core;
    for (const KernelSpec& k : program.kernels) {
        for (const CoreCoord& c : k.cores) by_core[c].push_back(&k);
    }
    Run run;
    run.program = &program;
    for (auto& [coord, kernels] : by_core) {
        run.cores.push_back(make_core(run, coord, kernels));
        run.by_coord[coord] = run.cores.back().get();
    }
    for (auto& core : run.cores) {
        for (auto& t : core->threads) {
            t->clock.v.assign(run.num_threads, 0);
            t->clock.v[t->index] = 1;
        }
    }
    run.active = static_cast<int>(run.num_threads);
    move_shards(run, true);
    {
        std::lock_guard<std::mutex> dram(dram_mutex());
        reset_page_writers();
    }

    {
        std::lock_guard<std::mutex> lk(control().mu);
        control().stop = false;
        control().report.clear();
    }
    const auto start = std::chrono::steady_clock::now();
    {
        Watchdog watchdog;
        run_kernels(run, kernel_thread);
    }
    move_shards(run, false);
    for (auto& core : run.cores) report_add_core(core->coord, core->counters);
    report_program_done(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!control().report.empty()) exit_with_error(3, control().report);
    write_report(nullptr);
}

}  // namespace tt_emu
