// Emulator version of tt-metal's <api/tensor/noc_traits.h> (ttnn 0.81.1): a TensorAccessor as an end of a Noc
// transfer, one page (`{.page_id = i, .offset_bytes = 0}`); the transfer is noc_async_read_page /
// noc_async_write_page of that page, `size_bytes` from `offset_bytes`, checked as they are (the page and its bounds
// in the DRAM buffer, the L1 window of the CB).
#pragma once

#include "api/dataflow/noc.h"
#include "tt_emu/kernel_api.hpp"

template <>
struct noc_traits_t<::tt_emu::ktypes::TensorAccessor> {
    struct src_args_type {
        uint32_t page_id{};
        uint32_t offset_bytes = 0;
    };
    struct dst_args_type {
        uint32_t page_id{};
        uint32_t offset_bytes = 0;
    };
    static void read(const ::tt_emu::ktypes::TensorAccessor& src, const src_args_type& args, uint32_t l1,
                     uint32_t size) {
        ::tt_emu::kapi::noc_async_read_page(args.page_id, src, l1, size, args.offset_bytes);
    }
    static void write(uint32_t l1, const ::tt_emu::ktypes::TensorAccessor& dst, const dst_args_type& args,
                      uint32_t size) {
        ::tt_emu::kapi::noc_async_write_page(args.page_id, dst, l1, size, args.offset_bytes);
    }
};
