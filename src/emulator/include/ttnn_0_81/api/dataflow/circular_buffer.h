// Emulator version of tt-metal's <api/dataflow/circular_buffer.h> (ttnn 0.81.1): CircularBuffer, a CB by its index
// whose calls are the CB calls, checked as they are, and (in a data-movement kernel) an end of a Noc transfer at its
// write pointer as a destination, its read pointer as a source. The tile-value reads of compute kernels
// (get_tile_address, read_tile_value: mailbox writes between the TRISCs) are not emulated.
#pragma once

#include <cstdint>

#include "internal/circular_buffer_interface.h"
#include "tt_emu/kernel_api.hpp"

class CircularBuffer {
public:
    explicit CircularBuffer(uint32_t cb_id) : cb_id_(cb_id) {}

    uint32_t get_cb_id() const { return cb_id_; }

    void reserve_back(int32_t num_pages) { ::tt_emu::kapi::cb_reserve_back(cb_id_, num_pages); }
    void push_back(int32_t num_pages) { ::tt_emu::kapi::cb_push_back(cb_id_, num_pages); }
    void wait_front(int32_t num_pages) { ::tt_emu::kapi::cb_wait_front(cb_id_, num_pages); }
    void pop_front(int32_t num_pages) { ::tt_emu::kapi::cb_pop_front(cb_id_, num_pages); }

    bool pages_reservable_at_back(int32_t num_pages) const {
        return ::tt_emu::kapi::cb_pages_reservable_at_back(cb_id_, num_pages);
    }
    bool pages_available_at_front(int32_t num_pages) const {
        return ::tt_emu::kapi::cb_pages_available_at_front(cb_id_, num_pages);
    }

    uint32_t get_write_ptr() const { return ::tt_emu::kapi::get_write_ptr(cb_id_); }
    uint32_t get_read_ptr() const { return ::tt_emu::kapi::get_read_ptr(cb_id_); }

private:
    uint32_t cb_id_;
};

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#include "api/dataflow/noc.h"

template <>
struct noc_traits_t<CircularBuffer> {
    struct src_args_type {
        uint32_t offset_bytes{};
    };
    struct dst_args_type {
        uint32_t offset_bytes{};
    };
    template <typename Args>
    static uint32_t l1_addr(const CircularBuffer& cb, const Args& args, bool destination) {
        return (destination ? cb.get_write_ptr() : cb.get_read_ptr()) + args.offset_bytes;
    }
};
template <>
inline constexpr bool noc_zero_l1_endpoint_v<CircularBuffer> = true;
#endif
