// Emulator version of tt-metal's <api/dataflow/endpoints.h> (ttnn 0.81.1): a core's L1 named by NoC coordinates as
// an end of a Noc transfer. UnicastEndpoint's src/dst arguments are `{.noc_x, .noc_y, .addr}` (kernel_lib's
// local_noc_addr builds them from my_x/my_y); a read from it is noc_async_read of get_noc_addr(noc_x, noc_y, addr), a
// write to it noc_async_write, checked as those are (alignment, bounds, the destination core's CB windows, landing
// at the barrier). MulticastEndpoint names a rectangle of cores as the destination of Noc::async_write_multicast
// (`{.noc_x_start, .noc_y_start, .noc_x_end, .noc_y_end, .addr}`, get_noc_multicast_addr of them). The precomposed
// and bank endpoints are not emulated.
#pragma once

#include "api/dataflow/noc.h"
#include "tt_emu/kernel_api.hpp"
#include "tt_emu/kernel_api_dm.hpp"

struct UnicastEndpoint {
    uint64_t get_noc_unicast_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc) const {
        (void)noc;
        return ::tt_emu::kapi::get_noc_addr(noc_x, noc_y, addr);
    }
};

template <>
struct noc_traits_t<UnicastEndpoint> {
    struct src_args_type {
        uint32_t noc_x{};
        uint32_t noc_y{};
        uint32_t addr{};
    };
    struct dst_args_type {
        uint32_t noc_x{};
        uint32_t noc_y{};
        uint32_t addr{};
    };
    static void read(const UnicastEndpoint& src, const src_args_type& args, uint32_t l1, uint32_t size) {
        ::tt_emu::kapi::noc_async_read(src.get_noc_unicast_addr(args.noc_x, args.noc_y, args.addr, 0), l1, size);
    }
    static void write(uint32_t l1, const UnicastEndpoint& dst, const dst_args_type& args, uint32_t size) {
        ::tt_emu::kapi::noc_async_write(l1, dst.get_noc_unicast_addr(args.noc_x, args.noc_y, args.addr, 0), size);
    }
};

struct MulticastEndpoint {
    uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end, uint32_t noc_y_end,
                                    uint32_t addr, uint8_t noc) const {
        (void)noc;
        return ::tt_emu::kapi::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr);
    }
};

template <>
struct noc_traits_t<MulticastEndpoint> {
    struct dst_args_mcast_type {
        uint32_t noc_x_start{};
        uint32_t noc_y_start{};
        uint32_t noc_x_end{};
        uint32_t noc_y_end{};
        uint32_t addr{};
    };
    static uint64_t mcast_addr(const MulticastEndpoint& dst, const dst_args_mcast_type& args) {
        return dst.get_noc_multicast_addr(args.noc_x_start, args.noc_y_start, args.noc_x_end, args.noc_y_end,
                                          args.addr, 0);
    }
};
