// Emulator version of tt-metal's <api/dataflow/dataflow_buffer.h> (ttnn 0.81.1), in its Wormhole/Blackhole form
// (tt-1xx): a DataflowBuffer is a CB by its index, and its calls are the CB calls, checked as they are
// (cb_reserve_back, cb_push_back, cb_wait_front, cb_pop_front, get_write_ptr, get_read_ptr). On tt-1xx every
// operation moves one contiguous entry, so the shares and strides are 1 and the local, ring-span and total views
// coincide, as the real header says. In a data-movement kernel it also brings in the Noc class (noc.h) and the
// DataflowBuffer's NoC traits, as the real header does outside TRISC builds.
#pragma once

#include "api/dataflow/dfb_binding_token.h"
#include "internal/circular_buffer_interface.h"
#include "tt_emu/kernel_api.hpp"

class DataflowBuffer {
public:
    using DFBInterface = LocalCBInterface;

    // A Metal 2.0 kernel's binding (`DataflowBuffer dfb(dfb::in)`, kernel_bindings_generated.h).
    template <dfb::AccessPattern TokPap, dfb::AccessPattern TokCap>
    DataflowBuffer(DFBBindingToken<TokPap, TokCap> token) : DataflowBuffer(static_cast<uint16_t>(token)) {}

    DataflowBuffer(uint16_t logical_dfb_id) : logical_dfb_id_(logical_dfb_id) {}

    uint16_t get_id() const { return logical_dfb_id_; }

    // Bytes, in every kernel (tt-1xx dataflow_buffer.inl: the interface's units << cb_addr_shift).
    uint32_t get_entry_size() const { return iface().fifo_page_size << cb_addr_shift; }
    uint32_t get_stride_size() const { return iface().fifo_page_size << cb_addr_shift; }
    uint32_t get_total_num_entries() const { return iface().fifo_num_pages; }
    uint32_t get_total_size_bytes() const { return iface().fifo_size << cb_addr_shift; }
    uint32_t get_local_num_entries() const { return get_total_num_entries(); }
    uint32_t get_local_size_bytes() const { return get_total_size_bytes(); }
    uint32_t get_ring_span_bytes() const { return get_total_size_bytes(); }
    uint32_t get_ring_span_num_entries() const { return get_total_num_entries(); }
    uint16_t get_producer_share() const { return 1; }
    uint16_t get_consumer_share() const { return 1; }
    uint16_t get_producer_stride_tiles() const { return 1; }
    uint16_t get_consumer_stride_tiles() const { return 1; }

    void reserve_back(uint16_t num_entries) { ::tt_emu::kapi::cb_reserve_back(logical_dfb_id_, num_entries); }
    void push_back(uint16_t num_entries) { ::tt_emu::kapi::cb_push_back(logical_dfb_id_, num_entries); }
    void wait_front(uint16_t num_entries) { ::tt_emu::kapi::cb_wait_front(logical_dfb_id_, num_entries); }
    void pop_front(uint16_t num_entries) { ::tt_emu::kapi::cb_pop_front(logical_dfb_id_, num_entries); }

    bool pages_reservable_at_back(int32_t num_pages) const {
        return ::tt_emu::kapi::cb_pages_reservable_at_back(logical_dfb_id_, num_pages);
    }
    bool pages_available_at_front(int32_t num_pages) const {
        return ::tt_emu::kapi::cb_pages_available_at_front(logical_dfb_id_, num_pages);
    }

    // Deprecated no-op on tt-1xx (the real header's words).
    void finish() {}

#ifdef DFB_DESCRIPTORS_DEFINED
    // The JIT's descriptor values of the DFB (chlkc_descriptors.h, for kernels made from a ProgramSpec).
    uint32_t get_tile_size() const { return unpack_tile_size[logical_dfb_id_]; }
    uint32_t get_tile_r_dim() const { return unpack_tile_r_dim[logical_dfb_id_]; }
    uint32_t get_tile_c_dim() const { return unpack_tile_c_dim[logical_dfb_id_]; }
#endif

    uint32_t get_write_ptr() const { return ::tt_emu::kapi::get_write_ptr(logical_dfb_id_); }
    uint32_t get_read_ptr() const { return ::tt_emu::kapi::get_read_ptr(logical_dfb_id_); }

private:
    LocalCBInterface iface() const { return get_local_cb_interface(logical_dfb_id_); }
    uint16_t logical_dfb_id_;
};

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#include "api/dataflow/noc.h"
#endif
