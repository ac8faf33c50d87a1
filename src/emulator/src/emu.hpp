// Private declarations of the tt_emu runtime (libtt_emu.so): device model, per-core state, kernel threads,
// JIT, report. Kernel API entry points are in kapi_*.cpp, the host API in host.cpp, execution in launch.cpp.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core_lock.hpp"  // Core::mu
#include "l1_shards.hpp"  // sharded L1 buffers
#include "tt-metalium/host_api.hpp"
#include "tt_emu/counters.hpp"  // enum Counter, kCounterNames
#include "tt_emu/device_facts.hpp"  // kDramAllocatorAlignment

namespace tt_emu {

using tt::DataFormat;
using tt::tt_metal::CoreCoord;

// The device this process emulates (tt_emu/device_facts.hpp, from the backend spec's device records): the one
// $TT_EMU_DEVICE names (the host program's plan's device; tilelang sets it), else the spec's default. Read once.
const device::Facts& dev();
uint32_t device_index();  // dev()'s index in device::kDevices: the JIT builds kernels for it (-DTT_EMU_DEVICE)
// The backend spec's API profile, the default of $TT_EMU_PROFILE (default_profile.cpp, the one unit built with it).
const char* default_profile();

constexpr uint32_t kNumCbs = 32;
constexpr uint32_t kDramBankBytes = 1u << 30;
constexpr uint32_t kMaxRuntimeArgs = 341;
constexpr uint32_t kTileElems = 1024;
constexpr uint32_t kDstTiles = 16;

// Semaphores (tt-metal's NUM_SEMAPHORES, 16-byte aligned words). tt-metal keeps them in the reserved L1 below
// the CB allocator's base; the emulated CB space starts at 0, so the semaphore region sits just above it (at the
// device's L1 size) and CBs never overlap it.
constexpr uint32_t kNumSemaphores = 16;
constexpr uint32_t kSemaphoreStride = 16;
inline uint32_t semaphore_base() { return dev().l1_bytes; }
inline uint32_t l1_total_bytes() { return semaphore_base() + kNumSemaphores * kSemaphoreStride; }
constexpr uint32_t kMaxL1TotalBytes = device::kMaxL1Bytes + kNumSemaphores * kSemaphoreStride;

// Worker cores: logical (x, y) inside the device's compute grid is at NoC (dev().noc_x[x], dev().noc_y[y]). Not the
// identity, so code that confuses logical and NoC coordinates fails.
CoreCoord noc_of_logical(const CoreCoord& logical);  // logical must be inside the compute grid
bool logical_of_noc(uint32_t noc_x, uint32_t noc_y, CoreCoord& logical);  // false: not a worker core
std::string grid_text();  // "8x8": the compute grid, for messages

std::string hex(uint64_t value);
std::string core_name(const CoreCoord& c);
const char* format_name(DataFormat format);

// ------------------------------------------------------------------ DRAM

// One interleaved buffer: page i lives in bank i % B at `address + (i / B) * page_size` (B: the device's DRAM banks); the host copy
// keeps the pages in order (page i at byte i * page_size), which is what the tiled host layout expects.
struct DramBuffer {
    uint32_t address = 0;
    uint64_t size = 0;
    uint32_t page_size = 0;
    uint32_t num_pages = 0;
    uint32_t bank_bytes = 0;  // bytes reserved in each bank
    std::vector<uint8_t> data;
    std::string tensor;  // the plan's tensor it holds (sanitize.hpp), empty without a plan
    // An interleaved L1 buffer (BufferType::L1): the same address range [address, address + bank_bytes) on every
    // worker core (one L1 bank each), allocated from the top of L1 down; kernels use it as scratch. It holds no
    // host data: the emulator's L1 exists only while a program runs.
    bool l1 = false;
    std::shared_ptr<const L1Shards> shards;  // a sharded L1 buffer's (l1_shards.hpp); it holds host data
    uint32_t page_stride() const {
        const uint32_t align = dev().dram_alignment;
        return (page_size + align - 1) / align * align;
    }
    ~DramBuffer();
    std::string describe() const;
};

std::shared_ptr<DramBuffer> allocate_dram_buffer(uint64_t size, uint64_t page_size, const char* call);
std::shared_ptr<DramBuffer> find_dram_buffer(uint32_t address);           // by base address
std::shared_ptr<DramBuffer> find_dram_buffer_in_bank(uint32_t bank_addr);  // by any address inside
std::string list_dram_buffers();
std::vector<std::shared_ptr<DramBuffer>> dram_buffers();  // the live ones, in allocation order
std::shared_ptr<DramBuffer> allocate_l1_buffer(uint64_t size, uint64_t page_size, const char* call);
uint32_t l1_buffers_floor();  // the lowest address of a live L1 buffer (the L1 size if none): CBs must end below it
// The L1 address of a CB backed by a buffer (set_globally_allocated_address) on `cores`, after checking that each
// holds a bank of it (cb_global.cpp).
uint32_t global_cb_address(const tt::tt_metal::CircularBufferConfig& config, const std::vector<CoreCoord>& cores,
                           const char* call);
bool inside_l1_buffer(uint32_t addr, uint32_t size);  // [addr, addr + size) inside one live L1 buffer's bank range
std::string list_l1_buffers();
std::mutex& dram_mutex();  // DRAM is the only state cores share

// The host side of programs (kernels, CBs, semaphores) and the JIT: program.hpp, which uses the declarations above.
}  // namespace tt_emu
#include "program.hpp"  // IWYU pragma: export
namespace tt_emu {

// ------------------------------------------------------------------ per-core execution state

// enum Counter (kDramBytesRead, ..., kNumCounters) and kCounterNames: tt_emu/counters.hpp, from the counters record of
// specs/records/tt_report.yaml.
using Counters = std::array<uint64_t, kNumCounters>;

// The call a kernel thread is in, kept as numbers and formatted only for reports.
struct Call {
    const char* name = "kernel_main";
    uint8_t argc = 0;
    uint8_t hex_mask = 0;  // bit i: print argument i in hex
    int64_t args[6] = {};
    std::string str() const;
};

enum class WaitKind { None, Reserve, Front, Semaphore };
struct Wait {
    WaitKind kind = WaitKind::None;
    int cb = 0;          // Reserve, Front
    uint32_t pages = 0;  // Reserve, Front
    uint32_t sem = 0;    // Semaphore: its id, and the value waited for
    uint32_t value = 0;
    bool at_least = false;  // noc_semaphore_wait_min: the semaphore reaches `value` (else: equals it)
};

// Vector clock over the kernel threads of a program (index = KernelThread::index): the happens-before order
// that semaphores and CBs create. The multicast sanitizer uses it to require "the receiver reserved, then
// signalled the sender" rather than accepting a schedule that merely happened to reserve in time.
struct Clock {
    std::vector<uint32_t> v;
    void join(const Clock& other);  // element-wise maximum
};

struct Transfer {
    bool read = true;
    std::shared_ptr<DramBuffer> buffer;
    uint32_t page = 0;
    uint32_t offset = 0;
    uint32_t size = 0;
    uint32_t l1 = 0;
    std::string describe() const;
};

struct KernelThread;
struct Core;

// A noc_async_write_multicast, pending until it lands (write barrier, or a later semaphore write of the kernel).
struct Multicast {
    Call call;                  // the issuing call, named if landing fails
    uint32_t src = 0;           // L1 of the issuing core
    uint32_t dst = 0;           // same L1 address on every destination
    uint32_t size = 0;
    std::vector<Core*> dests;   // issuing core excluded
    Clock clock;                // the issuer's clock at issue
    std::string describe() const;
};

struct Cb {
    bool configured = false;
    uint8_t index = 0;
    DataFormat format = DataFormat::Invalid;
    uint32_t page_bytes = 0;
    uint32_t capacity = 0;  // pages
    uint32_t base = 0;      // L1 address
    uint64_t received = 0;  // pages pushed in total
    uint64_t acked = 0;     // pages popped in total
    uint32_t reserved = 0;  // pages reserved at the back (valid for get_write_ptr, push)
    uint32_t waited = 0;    // pages waited at the front (cumulative until popped)
    uint32_t packed = 0;    // pages pack_tile wrote since the last push
    bool scratch = false;   // its pointer was taken outside reserve/wait: L1 scratch, not a FIFO (kapi_dataflow.cpp)
    KernelThread* producer = nullptr;
    KernelThread* consumer = nullptr;
    Clock pushed;  // join of the producer's clocks at its pushes (acquired by cb_wait_front)
    Clock popped;  // join of the consumer's clocks at its pops (acquired by cb_reserve_back)
    std::vector<uint32_t> reserved_at;  // per page: the producer's own clock entry when it reserved the page
    std::vector<uint8_t> written;       // per page: written since reserved: 1 a tile, 2 row-major rows (sanitize.cpp)
    std::vector<uint64_t> push_end;     // per page: `received` after the cb_push_back that delivered it
    uint32_t occupied() const { return static_cast<uint32_t>(received - acked); }
    uint32_t wr_page() const { return static_cast<uint32_t>(received % capacity); }
    uint32_t rd_page() const { return static_cast<uint32_t>(acked % capacity); }
    uint32_t page_addr(uint32_t page) const { return base + page * page_bytes; }
};

enum class DstState { Released, Acquired, Committed, Waited };
// One configured data format of the unpacker (SrcA, SrcB) or the packer.
struct FormatSlot {
    DataFormat format = DataFormat::Invalid;
    uint32_t cb = 0;   // the CB whose format it is
    std::string by;    // the call that configured it
};
enum class FpuOp { None, Matmul, Add, Sub, Mul, Copy, Transpose, Reduce, AddBcastCols, SubBcastCols, MulBcastCols,
                   AddBcastRows, MulBcastRows, AddBcastScalar, SubBcastScalar, MulBcastScalar };

// The last reduce_init (kapi_reduce.cpp): its pool, dimension and CBs, and whether the packer packs only column 0
// (a row reduction) or row 0 (a column reduction) until reduce_uninit clears the mask.
struct ReduceState {
    bool max = false, mask = false, col = false;
    uint32_t icb = 0, scaler = 0, ocb = 0;
};

// Compute-kernel state: hardware start-up, the last FPU and SFPU inits, and the DST register file.
struct ComputeState {
    bool fp32_acc = false;
    int fidelity = 4;       // ComputeConfig math_fidelity (MathFidelity value; fidelity.cpp)
    uint32_t capacity = 8;  // DST tiles per acquire
    bool started = false;
    FpuOp fpu = FpuOp::None;
    uint32_t fpu_cb[2] = {0, 0};
    int sfpu = 0;
    DstState dst = DstState::Released;
    bool full_section = false;  // acquire_dst's section (kapi_dst_sections.cpp): the packer waits for release_dst
    uint32_t written = 0;  // bit i: DST tile i written since acquire
    uint32_t reduced = 0;  // bit i: DST tile i holds a reduce_tile result (SFPU math on it keeps the bit)
    std::vector<float> tiles = std::vector<float>(kDstTiles * kTileElems);  // row-major 32x32 each
    // What the hardware holds between calls (kapi_formats.cpp): the unpacker's SrcA/SrcB source formats and the
    // packer's destination format, each with the CB and the call that configured it, and whether a tile math
    // or pack call has run (after which a full hardware configuration is an error).
    FormatSlot srca, srcb, packer;
    bool computed = false;
    ReduceState reduce;
    // cumsum_tile (kapi_compute.cpp): whether cumsum_tile_init is the last SFPU init, and the running row the SFPU
    // carries from one call to the next (LREG 4-7 on the hardware; any other SFPU tile call overwrites it).
    bool cumsum_init = false, cumsum_carried = false;
    float cumsum_row[32] = {};
    // The formats of the last typecast_tile_init (tt::DataFormat values; typecast_init = false: none since).
    bool typecast_init = false;
    uint32_t typecast_from = 0, typecast_to = 0;
    bool where_init = false;  // where_tile_init is the last SFPU init (kapi_select.cpp)
    uint32_t layout[5] = {};  // tilize / pack_untilize set-up until its uninit: LayoutMode, icb, ocb, block, full
};

enum class ThreadStatus { NotStarted, Running, Blocked, Done, Failed, Aborted };
struct Fiber;  // sched.cpp

// A kernel of a core, run as a cooperative task (sched.cpp); "thread" is the emulator's word for it.
struct KernelThread {
    Core* core = nullptr;
    Fiber* fiber = nullptr;  // its task while the program runs
    uint32_t index = 0;  // in the program, for vector clocks
    Clock clock;
    const KernelSpec* spec = nullptr;
    std::shared_ptr<KernelBinary> binary;
    const std::vector<uint32_t>* args = nullptr;
    const std::vector<uint32_t>* common_args = nullptr;
    ThreadStatus status = ThreadStatus::NotStarted;
    Call call;
    Wait wait;
    std::vector<Transfer> reads;   // issued, not yet landed (until noc_async_read_barrier)
    std::vector<Transfer> writes;  // issued, not yet landed (until noc_async_write_barrier)
    std::vector<Multicast> mcasts;  // issued, not yet landed
    uint64_t linked_to = 0;  // NoC rectangle (upper address bits) of an open linked multicast transaction; 0: none
    // DPRINT (kapi_debug.cpp): the line being built, its format state, and the TRISC a DPRINT_<TRISC> scope names.
    std::string dprint_line;
    uint32_t dprint_base = 10, dprint_width = 0, dprint_precision = 6;
    bool dprint_fixed = false;
    int dprint_risc = -1;
    const std::string& name() const { return spec->name; }
    void tick() { clock.v[index] += 1; }
};

struct Semaphore {
    bool exists = false;  // created on this core
    Clock clock;          // join of the clocks of every write (acquired by noc_semaphore_wait)
    Clock last_set;       // the writer's clock at the last overwrite (sanitize.cpp: semaphore races)
};

// A core's L1: a window of the process's address space of its own (l1_window.cpp), below 2 GiB so that the
// 32-bit L1 addresses kernels hold (uint32_t, and int32_t in generated code) are host pointers into it. The
// addresses get_write_ptr, get_read_ptr, get_semaphore and the CB interface give a kernel are its core's window
// address of the L1 byte (the window's base plus the L1 offset); the API normalises an address back to the offset
// (l1_offset), and everything inside the emulator, and every report, speaks in L1 offsets as hardware does. Claimed
// zeroed when the core's run starts, inaccessible (PROT_NONE) once it ends.
class L1Memory {
public:
    L1Memory() = default;
    L1Memory(const L1Memory&) = delete;
    L1Memory& operator=(const L1Memory&) = delete;
    ~L1Memory();
    void claim(const CoreCoord& logical);  // the window of that core (logical x < 8, y < 8), zeroed and writable
    uint8_t& operator[](size_t i) { return bytes_[i]; }
    const uint8_t& operator[](size_t i) const { return bytes_[i]; }
    uint32_t base() const { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(bytes_)); }

private:
    uint8_t* bytes_ = nullptr;
};
// The L1 offset of `addr` if it lies in the window of `core`, of another core (`owner` set), or is an offset already
// (below l1_total_bytes()); false otherwise.
bool l1_window_offset(const CoreCoord& core, uint64_t addr, uint32_t& offset, CoreCoord* owner = nullptr);

struct Run;

struct Core {
    Run* run = nullptr;
    CoreCoord coord;  // logical
    CoreCoord noc;    // NoC coordinates
    CoreLock mu;
    L1Memory l1;  // CB space, then the semaphore region (claimed by launch.cpp)
    std::array<Cb, kNumCbs> cbs;
    std::array<Semaphore, kNumSemaphores> sems;
    std::vector<std::unique_ptr<KernelThread>> threads;
    std::unique_ptr<ComputeState> compute;
    Counters counters{};
    bool failed = false;
    uint32_t sem_value(uint32_t id) const;
    void set_sem_value(uint32_t id, uint32_t value);
};

inline uint32_t l1_address(const Core& core, uint32_t offset) { return core.l1.base() + offset; }

// The cores of the program being run. Each core has its own lock; code never holds two core locks while
// waiting for a lock (cross-core calls release their own core first), so cores cannot deadlock on locks. A kernel
// never keeps a lock across a switch to another task (sched.cpp), so the pool's threads cannot either.
struct Run {
    const ProgramState* program = nullptr;
    std::vector<std::unique_ptr<Core>> cores;  // in CoreCoord order
    std::map<CoreCoord, Core*> by_coord;       // logical coordinates
    size_t num_threads = 0;
    // Kernel threads neither blocked nor finished. Whoever makes a blocked thread's wait satisfiable marks it
    // running again (wake_waiters) before it can block itself, so 0 with a blocked thread left is a deadlock.
    std::atomic<int> active{0};
    Core* core_at_noc(uint32_t noc_x, uint32_t noc_y) const;  // nullptr: no core of this program there
};

struct Abort {};  // unwinds a kernel thread once its core failed (or another core failed first)

// One API call of a kernel thread: the current thread, its call recorded, the core lock held.
struct Session {
    KernelThread& t;
    Core& core;
    std::unique_lock<CoreLock> lock;
};
Session enter(const Call& call);
Session enter(const char* name, std::initializer_list<int64_t> args, uint8_t hex_mask = 0);  // the call built in place
Call make_call(const char* name, std::initializer_list<int64_t> args, uint8_t hex_mask = 0);
Cb& cb_of(Session& s, int64_t index);
// An L1 address a kernel passed as argument `arg` of its call: in its core's window (what get_write_ptr and friends
// return; another core's window names the same offset), an L1 offset, or else left as it is for the call's checks;
// returns the L1 offset and records it as the call's argument, so reports name L1 offsets as hardware does.
uint32_t l1_offset(Session& s, uint64_t addr, int arg);
inline uint32_t l1_address(const Core& core, uint32_t offset);  // the kernel's address of an L1 offset of `core`                  // a configured CB, else fail
void claim(Session& s, Cb& cb, bool producer);         // one producer and one consumer thread per CB
[[noreturn]] void fail(Session& s, const std::string& message, const std::string& extra_dump = "");
// Marks the core failed naming `culprit`, records the report (the core's dump, then `extra_dump`), wakes
// everyone; caller holds the lock.
void record_failure(Core& core, KernelThread& culprit, const std::string& message,
                    const std::string& extra_dump = "");
void block_until(Session& s, const Wait& wait);
// A blocked thread whose wait `core`'s state now satisfies becomes running again; call after every change
// of CB counters or semaphores, with that core's lock held.
void wake_waiters(Core& core);
// The calling thread (`self`, holding its core lock) leaves the running set by finishing.
void finish_thread(Core& core, KernelThread& self);
std::string dump_core(const Core& core);
// "reader@(0,0) blocked in cb_wait_front(...)": a thread and where it waits.
std::string thread_state(const KernelThread& t);
// What a blocked thread waits for, with the CB or semaphore state that keeps it waiting.
std::string wait_text(const Core& core, const Wait& w);
// Lands the calling kernel's pending multicasts in issue order (kapi_multicast.cpp).
void land_multicasts(Session& s);
bool write_to_core_l1(Session& s, uint32_t src, uint64_t dst_noc_addr, uint32_t size);  // kapi_multicast.cpp
// Runs `body` (returning an error message, empty if none) under `target`'s lock: releases the caller's own
// core lock meanwhile if target is another core, and fails the call with the error after relocking.
void with_core(Session& s, Core& target, const std::function<std::string(Core&)>& body);

KernelThread* current_thread();
void set_current_thread(KernelThread* t);

// ------------------------------------------------------------------ scheduler (sched.cpp)

// Runs every kernel of `run` through `body` as a cooperative task on a pool of $TT_EMU_THREADS threads (default:
// the machine's cores) until all have finished, or until the run failed and the blocked ones have unwound.
void run_kernels(Run& run, void (*body)(KernelThread*));
// The calling kernel (blocked, holding s.lock) switches out; its core lock is released once it has, and taken
// again when the kernel is resumed (by schedule_ready, or to unwind after a failure).
void switch_out(Session& s);
// A kernel whose wait became satisfiable (its core lock held) is queued to run again.
void schedule_ready(KernelThread& t);
bool run_stopped();                          // a core failed: the others abort quietly
void run_failed(const std::string& report);  // the first failure of a run is the one reported

// ------------------------------------------------------------------ run and report (launch.cpp, report.cpp)

void run_program(ProgramState& program);
void report_add_core(const CoreCoord& core, const Counters& counters);
void report_add_kernel(const std::string& name, const KernelBinary& binary);
void report_program_done(double seconds);
void write_report(const std::string* error);
[[noreturn]] void exit_with_error(int code, const std::string& text);

}  // namespace tt_emu
