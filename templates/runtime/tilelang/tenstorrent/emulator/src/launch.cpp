// Running a program: wait for the kernel JIT, then run the cores on a pool of hardware_concurrency()
// workers, each core as one thread per kernel (reader, compute, writer run concurrently, as on a Tensix).
// The first failure stops the run; its report is printed and the process exits.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "emu.hpp"

namespace tt_emu {

namespace {

struct RunControl {
    std::atomic<bool> stop{false};
    std::mutex mu;
    std::string report;  // first failure of the current run
};
RunControl& control() {
    static RunControl* r = new RunControl;
    return *r;
}

const std::vector<uint32_t> kNoArgs;

// A kernel that dereferences a bad pointer would otherwise take the process down silently.
void on_crash(int sig) {
    char buf[512];
    KernelThread* t = current_thread();
    if (t) {
        std::snprintf(buf, sizeof buf, "tt_emu: error: core (%zu,%zu) %s: crashed with signal %d in or after %s\n",
                      t->core->coord.x, t->core->coord.y, t->name().c_str(), sig, t->call.name);
    } else {
        std::snprintf(buf, sizeof buf, "tt_emu: error: crashed with signal %d outside kernel code\n", sig);
    }
    std::fputs(buf, stderr);
    std::fflush(stderr);
    std::_Exit(3);
}

void finish_kernel(KernelThread& t) {
    Core& core = *t.core;
    std::unique_lock<std::mutex> lk(core.mu);
    t.call = Call{};
    if (!core.failed && !run_stopped()) {
        if (!t.reads.empty()) {
            record_failure(core, t, "returned with " + std::to_string(t.reads.size()) +
                                        " NoC read(s) pending (missing noc_async_read_barrier): " +
                                        t.reads.front().describe());
        } else if (!t.writes.empty()) {
            record_failure(core, t, "returned with " + std::to_string(t.writes.size()) +
                                        " NoC write(s) pending (missing noc_async_write_barrier): " +
                                        t.writes.front().describe());
        } else if (t.spec->kind == KernelKind::Compute && core.compute->dst != DstState::Released) {
            record_failure(core, t, "returned while the DST section is still held (missing tile_regs_release)");
        }
    }
    if (t.status != ThreadStatus::Failed) t.status = ThreadStatus::Done;
    check_deadlock(core, nullptr);
    core.cv.notify_all();
}

void kernel_thread(KernelThread* t) {
    set_current_thread(t);
    {
        std::lock_guard<std::mutex> lk(t->core->mu);
        if (t->status == ThreadStatus::NotStarted) t->status = ThreadStatus::Running;
    }
    try {
        t->binary->entry();
        finish_kernel(*t);
    } catch (const Abort&) {
        std::lock_guard<std::mutex> lk(t->core->mu);
        if (t->status != ThreadStatus::Failed) t->status = ThreadStatus::Aborted;
        t->core->cv.notify_all();
    } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lk(t->core->mu);
        record_failure(*t->core, *t, std::string("uncaught exception: ") + e.what());
    }
    set_current_thread(nullptr);
}

void run_core(const ProgramState& program, const CoreCoord& coord, const std::vector<const KernelSpec*>& kernels) {
    Core core;
    core.coord = coord;
    core.l1.assign(kL1Bytes, 0);
    if (auto it = program.cbs.find(coord); it != program.cbs.end()) {
        for (const CbSpec& spec : it->second) {
            Cb& cb = core.cbs[spec.index];
            cb.configured = true;
            cb.index = spec.index;
            cb.format = spec.format;
            cb.page_bytes = spec.page_size;
            cb.capacity = spec.total_size / spec.page_size;
            cb.base = spec.address;
        }
    }
    for (const KernelSpec* k : kernels) {
        auto t = std::make_unique<KernelThread>();
        t->core = &core;
        t->spec = k;
        t->binary = k->binary.get();
        auto args = k->runtime_args.find(coord);
        t->args = args == k->runtime_args.end() ? &kNoArgs : &args->second;
        t->common_args = &k->common_args;
        if (k->kind == KernelKind::Compute) {
            core.compute = std::make_unique<ComputeState>();
            core.compute->fp32_acc = k->fp32_dest_acc;
            core.compute->capacity = (k->dst_full_sync ? 16u : 8u) / (k->fp32_dest_acc ? 2u : 1u);
        }
        core.threads.push_back(std::move(t));
    }
    std::vector<std::thread> threads;
    for (auto& t : core.threads) threads.emplace_back(kernel_thread, t.get());
    for (auto& th : threads) th.join();
    report_add_core(coord, core.counters);
}

}  // namespace

bool run_stopped() { return control().stop.load(std::memory_order_relaxed); }

void run_failed(const std::string& report) {
    std::lock_guard<std::mutex> lk(control().mu);
    if (control().report.empty()) control().report = report;
    control().stop = true;
}

void run_program(ProgramState& program) {
    static std::once_flag handlers;
    std::call_once(handlers, [] {
        std::signal(SIGSEGV, on_crash);
        std::signal(SIGBUS, on_crash);
        std::signal(SIGFPE, on_crash);
    });
    // Kernel binaries (compiled in the background since CreateKernel).
    for (const KernelSpec& k : program.kernels) {
        std::shared_ptr<KernelBinary> bin = k.binary.get();
        report_add_kernel(k.name, *bin);
        if (!bin->ok) exit_with_error(2, "tt_emu: error: kernel compilation failed: " + k.path + "\n" + bin->log);
    }
    std::map<CoreCoord, std::vector<const KernelSpec*>> by_core;
    for (const KernelSpec& k : program.kernels) {
        for (const CoreCoord& c : k.cores) by_core[c].push_back(&k);
    }
    std::vector<CoreCoord> cores;
    for (auto& [c, ks] : by_core) cores.push_back(c);

    control().stop = false;
    control().report.clear();
    const auto start = std::chrono::steady_clock::now();
    std::atomic<size_t> next{0};
    const size_t workers = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), cores.size());
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) {
        pool.emplace_back([&] {
            for (size_t i = next++; i < cores.size() && !run_stopped(); i = next++) run_core(program, cores[i], by_core.at(cores[i]));
        });
    }
    for (auto& th : pool) th.join();
    report_program_done(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!control().report.empty()) exit_with_error(3, control().report);
    write_report(nullptr);
}

}  // namespace tt_emu
