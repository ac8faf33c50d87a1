// Sanitizer checks beyond each call's own contract: what the hardware would silently get wrong (issue 19).
// - CB pages written since reserve (sanitize.cpp): cb_reserve_back fills the pages it newly reserves with a poison
//   pattern and clears their marks; a NoC read or multicast landing in a page, or pack_tile, marks it; cb_push_back
//   of a page that is unmarked and still holds the whole pattern is an error. Stores through get_write_ptr are not
//   seen one by one, so a page counts as written once any of its bytes differs from the pattern (a kernel that
//   stores exactly the pattern is the one case taken for "nothing wrote").
// - Operand CBs of tile math (sanitize.cpp): matmul_tiles, add/sub/mul_tiles and their *_tiles_bcast_cols/rows read
//   the CBs, in the order, that the last init of their operation was given.
// - Broadcast operands (kapi_bcast.cpp): a *_tiles_bcast_cols operand laid out as a row vector (values in row 0 only)
//   or a *_tiles_bcast_rows operand laid out as a column vector (values in column 0 only) is an error (the hardware
//   reads only column or row 0, so the result would silently be x op one value and zeros).
// - tt.plan.json (plan.cpp): when the kernels' folder holds the plan the program was generated from, the DRAM
//   buffers are tagged with the tensors they hold (in creation order), every core's runtime arguments must be the
//   plan's, and a NoC page transfer through a TensorAccessor must reach the tensor the plan binds to its
//   TensorAccessorArgs offset.
// - Linked multicasts (kapi_multicast.cpp): noc_async_write_multicast(..., linked = true) opens a NoC transaction
//   that only multicasts to the same rectangle may continue, and an unlinked one closes; any other NoC request or
//   barrier of the kernel meanwhile, or returning with it open, is an error (on hardware the NoC stops).
// - NoC alignment (sanitize.cpp, issue 29): as tt-metal's watcher NoC sanitizer (hw/inc/debug/sanitize_noc.h), a
//   transfer's local L1 address and its remote address must agree modulo the remote endpoint's alignment for the
//   direction (the device record's noc_alignment, generated into tt_emu/device_facts.hpp). DRAM pages start aligned
//   (tt-metal's allocator rounds pages up to the DRAM alignment), so a page transfer compares the offset in the page.
// - Reduce mode left on (kapi_reduce.cpp): reduce_init sets the packer's edge mask until reduce_uninit (tt-metal
//   api/compute/reduce.h); packing a DST tile no reduce_tile wrote while the mask is set is an error.
// - Semaphore races (sanitize.cpp): an overwrite (noc_semaphore_set, a multicast set) must be ordered after every
//   earlier write of the semaphore, and an increment after its last overwrite (the writer's vector clock has reached
//   theirs); otherwise the schedule decides whether an increment is lost.
// - L1 through pointers (l1_window.cpp, launch.cpp): kernels load and store through their core's window addresses; a
//   load or store through an L1 offset held as an integer, or into a core the program does not run, faults and is
//   reported with the address and the CB window or semaphore it falls in.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "emu.hpp"

namespace tt_emu {

// `count` pages of `cb` from ring page `first` were newly reserved (caller holds the core lock).
void pages_reserved(Core& core, Cb& cb, uint32_t first, uint32_t count);
// [addr, addr + size) of `core`'s L1 was written by a NoC transfer or pack_tile (caller holds the core lock); what the
// pages now hold: `content` 1 a tile, 2 row-major rows, 0 inferred (a write smaller than a page is a row of a
// row-major tensor, unless it comes from a DRAM page as large as the CB's page, `source_page_bytes`, and lands where
// it lay there, `source_offset`: part of a tile, as when a reader fetches a tile in pieces; a whole page a tile).
void l1_written(Core& core, uint32_t addr, uint32_t size, uint8_t content = 0, uint32_t source_page_bytes = 0,
                uint32_t source_offset = 0);
// `count` pages at the front of `cb` must hold row-major rows (`rows`: tilize_block's input) or tiles (tile math),
// and must have been written since they were reserved (a producer may push a page it did not write, as ttnn's
// layernorm pushes a block's unused tail; the read of such a page is the error).
void need_page_content(Session& s, const Cb& cb, uint32_t first, uint32_t count, bool rows);
// cb_push_back of `count` pages of `cb` (before its count moves): records the push that delivered each.
void pages_pushed(Cb& cb, uint32_t count);
// cb_pop_front of `count` pages: the consumer must know they are there, by waiting for them or for a page pushed by
// the same cb_push_back (one push moves the producer's count at once; ttnn's layernorm pops a block's unread tail).
void need_known_pages(Session& s, const Cb& cb, uint32_t count);
// A NoC write or multicast from L1 [addr, addr + size): no waited CB page in it may be one its producer pushed unwritten.
void need_written_source(Session& s, uint32_t addr, uint32_t size);
// A tile math call of `op` reading CBs cb0 and cb1: they must be the CBs its init was given.
void need_init_operands(Session& s, const ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1);

// A NoC transfer between L1 `l1` and `remote` (an address in DRAM, or in another core's L1 when !dram).
void need_noc_alignment(Session& s, bool dram, bool read, uint32_t l1, uint64_t remote);
// A write of semaphore `id` of `core` by `writer`: empty if ordered as above, else the diagnosis. `overwrite`: a set
// (else an increment). Records the write.
std::string semaphore_write_race(Core& core, uint32_t id, const KernelThread& writer, bool overwrite);

// Before a program runs: loads tt.plan.json from its kernels' folder (if there is one), tags the DRAM buffers and
// checks the runtime arguments; a mismatch is a host error of `call`.
void check_program_against_plan(const ProgramState& program, const char* call);
// A NoC page transfer through the accessor of TensorAccessorArgs<cta_offset> (-1: not a TensorAccessor) reaching
// `buffer`: the plan's tensor for that offset must be the one the buffer holds.
void need_planned_tensor(Session& s, int32_t cta_offset, const DramBuffer& buffer, uint32_t page);

// DRAM pages shared by kernels (sanitize_dram.cpp): a read or a write landing on a page whose last write is another
// kernel's must be ordered after that write (the reading/writing thread's vector clock has reached the writer's
// entry at its landing: a semaphore or CB handshake after the writer's barrier). Callers hold the DRAM lock.
void reset_page_writers();
void dram_read_landed(Session& s, const Transfer& x);
void dram_write_landed(Session& s, const Transfer& x);

// The kernels a thread of the scheduler's pool is running right now (sched.cpp): not blocked, not queued.
std::vector<KernelThread*> kernels_in_flight();

// The time limit of a run (watchdog.cpp): while it exists, at most $TT_EMU_TIMEOUT seconds pass; then the process
// reports the kernels still running (core, role, last API call) and exits with code 3.
class Watchdog {
public:
    Watchdog();
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

// Every NoC request and barrier first checks the kernel's open linked transaction (`multicast_dest`: 0 unless the
// request multicasts); the text of an open one for reports at kernel end, empty if none (kapi_multicast.cpp).
void noc_request(Session& s, uint64_t multicast_dest);
std::string open_linked_transaction(const KernelThread& t);

}  // namespace tt_emu
