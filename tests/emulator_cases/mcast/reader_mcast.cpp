// Multicast reader (both API profiles): the sender core reads each block of tiles from DRAM into CB 0 and
// multicasts it to the receivers with tt-metal's handshake (reader_bmm_tile_layout_in0_sender/receiver);
// the receivers take each block from the multicast. FAULT_* blocks seed bugs for tests (FAULT_X = core index).
//
// Runtime args: in_addr, num_blocks, block_tiles, is_sender, sender NoC x, y, multicast rectangle start x, y,
// end x, y (in the order of this kernel's NoC), num_dests, sender semaphore id, receiver semaphore id, core index.
#include <cstdint>

#if __has_include("api/dataflow/dataflow_api.h")
#include "api/dataflow/dataflow_api.h"
#define MCAST_TENSOR_ACCESSOR 1  // metal_d5f9bc4a: TensorAccessor + noc_async_read_page
#else
#include "dataflow_api.h"  // tilelang_tt_2025: InterleavedAddrGenFast + noc_async_read_tile
#endif

constexpr uint32_t kTileBytes = 2048;
constexpr int32_t kCb = 0;
constexpr uint32_t kInvalid = 0;
constexpr uint32_t kValid = 1;

void kernel_main() {
    const uint32_t in_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_blocks = get_arg_val<uint32_t>(1);
    const uint32_t block_tiles = get_arg_val<uint32_t>(2);
    const bool is_sender = get_arg_val<uint32_t>(3) != 0;
    const uint32_t sender_x = get_arg_val<uint32_t>(4);
    const uint32_t sender_y = get_arg_val<uint32_t>(5);
    uint32_t start_x = get_arg_val<uint32_t>(6);
    uint32_t start_y = get_arg_val<uint32_t>(7);
    uint32_t end_x = get_arg_val<uint32_t>(8);
    uint32_t end_y = get_arg_val<uint32_t>(9);
    const uint32_t num_dests = get_arg_val<uint32_t>(10);
    const uint32_t sender_sem_id = get_arg_val<uint32_t>(11);
    const uint32_t receiver_sem_id = get_arg_val<uint32_t>(12);
    [[maybe_unused]] const uint32_t core = get_arg_val<uint32_t>(13);
#ifdef MCAST_TENSOR_ACCESSOR
    constexpr auto in_args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(in_args, in_addr, kTileBytes);
#else
    const auto in = InterleavedAddrGenFast<true>{in_addr, kTileBytes, get_dataformat(kCb)};
#endif
    uint32_t mcast_dests = num_dests;
#ifdef FAULT_WRONG_NUM_DESTS
    if (core == FAULT_WRONG_NUM_DESTS) mcast_dests -= 1;  // the handshake still waits for every receiver
#endif
#ifdef FAULT_WRONG_RECT_ORDER
    if (core == FAULT_WRONG_RECT_ORDER) {  // the other NoC's corner order
        const uint32_t x = start_x, y = start_y;
        start_x = end_x;
        start_y = end_y;
        end_x = x;
        end_y = y;
    }
#endif

    const uint32_t receiver_sem_addr = get_semaphore(receiver_sem_id);
    volatile tt_l1_ptr uint32_t* receiver_sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem_addr);
    const uint32_t sender_sem_addr = get_semaphore(sender_sem_id);
    volatile tt_l1_ptr uint32_t* sender_sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sender_sem_addr);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        [[maybe_unused]] const bool last = block + 1 == num_blocks;
        cb_reserve_back(kCb, block_tiles);
        const uint32_t l1 = get_write_ptr(kCb);
        if (is_sender) {
            for (uint32_t i = 0; i < block_tiles; ++i) {
#ifdef MCAST_TENSOR_ACCESSOR
                noc_async_read_page(block * block_tiles + i, in, l1 + i * kTileBytes);
#else
                noc_async_read_tile(block * block_tiles + i, in, l1 + i * kTileBytes);
#endif
            }
            noc_async_read_barrier();
            // Every receiver has reserved its CB pages and said so.
#ifdef FAULT_SKIP_HANDSHAKE
            if (core != FAULT_SKIP_HANDSHAKE)
#endif
            {
                noc_semaphore_wait(sender_sem, num_dests);
                noc_semaphore_set(sender_sem, 0);
            }
            const uint64_t data_mcast = get_noc_multicast_addr(start_x, start_y, end_x, end_y, l1);
            bool linked = false;  // a linked transaction must be closed by the flag multicast below
#ifdef FAULT_LINKED_THEN_BARRIER
            linked = linked || core == FAULT_LINKED_THEN_BARRIER;
#endif
#ifdef FAULT_LINKED_AT_END
            linked = linked || (core == FAULT_LINKED_AT_END && last);
#endif
            noc_async_write_multicast(l1, data_mcast, block_tiles * kTileBytes, mcast_dests, linked);
#ifdef FAULT_LINKED_THEN_BARRIER
            if (core == FAULT_LINKED_THEN_BARRIER) noc_async_write_barrier();  // before the flag closes the link
#endif
#ifdef FAULT_LINKED_AT_END
            if (core == FAULT_LINKED_AT_END && last) return;
#endif
#ifdef FAULT_PENDING_MCAST_AT_END
            if (core == FAULT_PENDING_MCAST_AT_END && last) return;  // neither the VALID flag nor a barrier
#endif
            // The flag follows the data on the same NoC, so no barrier is needed in between.
            noc_semaphore_set(receiver_sem, kValid);
            const uint64_t sem_mcast = get_noc_multicast_addr(start_x, start_y, end_x, end_y, receiver_sem_addr);
            noc_semaphore_set_multicast(receiver_sem_addr, sem_mcast, mcast_dests);
            noc_async_write_barrier();
        } else {
            noc_semaphore_set(receiver_sem, kInvalid);
            uint32_t x = sender_x, y = sender_y, sem = sender_sem_addr;
#ifdef FAULT_INC_LOGICAL_COORDS
            if (core == FAULT_INC_LOGICAL_COORDS) x = y = 0;  // the sender's logical coordinates
#endif
#ifdef FAULT_INC_NOT_A_SEMAPHORE
            if (core == FAULT_INC_NOT_A_SEMAPHORE) sem += 4;
#endif
            noc_semaphore_inc(get_noc_addr(x, y, sem), 1);
            uint32_t valid = kValid;
#ifdef FAULT_SEMAPHORE_DEADLOCK
            if (core == FAULT_SEMAPHORE_DEADLOCK && last) valid = kValid + 1;  // nobody sets 2
#endif
            noc_semaphore_wait(receiver_sem, valid);
        }
        cb_push_back(kCb, block_tiles);
    }
}
