// Emulator version of tt-metal's <api/dataflow/noc.h> (ttnn 0.81.1): the Noc class, whose transfers name their
// two ends as objects (a TensorAccessor page, a DataflowBuffer) with per-end arguments (`{.page_id = i}`,
// `{.offset_bytes = 0}`), resolved by `noc_traits_t<End>`. The emulator's traits say, per end type, either how to
// move bytes between L1 and the end (`read`/`write`: a tensor page) or which L1 address the end stands for
// (`l1_addr`: a DataflowBuffer's write pointer as a destination, its read pointer as a source); each transfer is
// then the dataflow API's call for it, with the emulator's checks. Transaction ids, custom virtual channels and
// posted writes are not modelled: the flags are refused at compile time, naming the flag.
#pragma once

// tt-metal's dataflow API brings in <algorithm> (api/debug/kernel_profiler.hpp -> internal/profiler/
// event_metadata.hpp), and ttnn's writers call std::min without including it.
#include <algorithm>

#include "api/dataflow/dataflow_buffer.h"
#include "tt_emu/kernel_api.hpp"

// Concrete arg struct for the DFB-specific Noc overloads (as noc.h defines it).
struct DataflowBufferArgs {
    uint32_t offset_bytes{};
};

template <typename T>
struct noc_traits_t {
    static_assert(sizeof(T) == 0, "NoC transactions are not supported for this type");
};

// May T be a local-L1 end of noc.async_write_zeros? (as noc.h declares it; set by each such end's header)
template <typename T>
inline constexpr bool noc_zero_l1_endpoint_v = false;

enum class NocOptions : uint32_t {
    DEFAULT = 0,
    TXN_ID = 1u << 0,
    POSTED = 1u << 1,
    CUSTOM_VC = 1u << 2,
    MCAST_INCL_SRC = 1u << 3,
    INLINE_L1 = 1u << 4,
    INLINE_REG = 1u << 5,
};

constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept {
    return static_cast<NocOptions>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept {
    return (static_cast<uint32_t>(opts) & static_cast<uint32_t>(flag)) != 0;
}

struct NocOptVals {
    uint32_t vc = 0;
    uint32_t trid = 0;
};

class Noc {
public:
    enum class AddressType { NOC, LOCAL_L1 };

    static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

    Noc() : noc_id_(NOC_INDEX) {}
    explicit Noc(uint8_t noc_id) : noc_id_(noc_id) {}

    uint8_t get_noc_id() const { return noc_id_; }

    // Reads `size_bytes` from `src` (a NoC end: a tensor page) into the L1 that `dst` stands for.
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = 0, bool enable_noc_tracing = true,
              typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes,
                    const typename noc_traits_t<Src>::src_args_type& src_args,
                    const typename noc_traits_t<Dst>::dst_args_type& dst_args, const NocOptVals& = {}) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_read: NocOptions (transaction ids, virtual channels) "
                                                   "are not emulated");
        noc_traits_t<Src>::read(src, src_args, noc_traits_t<Dst>::l1_addr(dst, dst_args, true), size_bytes);
    }

    // Writes `size_bytes` of the L1 that `src` stands for to `dst` (a NoC end: a tensor page).
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = 0, bool enable_noc_tracing = true,
              typename Src, typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes,
                     const typename noc_traits_t<Src>::src_args_type& src_args,
                     const typename noc_traits_t<Dst>::dst_args_type& dst_args, const NocOptVals& = {}) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_write: NocOptions (transaction ids, posted writes, "
                                                   "virtual channels) are not emulated");
        noc_traits_t<Dst>::write(noc_traits_t<Src>::l1_addr(src, src_args, false), dst, dst_args, size_bytes);
    }

    // Zeroes `size_bytes` of a local-L1 end (a DataflowBuffer's or CircularBuffer's write pointer, a CoreLocalMem): on
    // Wormhole a NoC read from the core's zero region (tt-1xx noc_zero_l1.inl), so the bytes are undefined until
    // write_zeros_l1_barrier, which is a read barrier.
    template <typename Dst>
    void async_write_zeros(const Dst& dst, uint32_t size_bytes,
                           const typename noc_traits_t<Dst>::dst_args_type& args = {}) const {
        static_assert(noc_zero_l1_endpoint_v<Dst>, "noc.async_write_zeros: unsupported local-L1 destination "
                                                   "(the emulator zeroes a DataflowBuffer, CircularBuffer or "
                                                   "CoreLocalMem; the DRAM overload is not emulated)");
        ::tt_emu::kapi::detail::noc_write_zeros(noc_traits_t<Dst>::l1_addr(dst, args, true), size_bytes);
    }
    void write_zeros_l1_barrier() const { ::tt_emu::kapi::noc_async_read_barrier(); }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_read_barrier(const NocOptVals& = {}) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_read_barrier: transaction ids are not emulated");
        ::tt_emu::kapi::noc_async_read_barrier();
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_write_barrier(const NocOptVals& = {}) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_write_barrier: transaction ids are not emulated");
        ::tt_emu::kapi::noc_async_write_barrier();
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_writes_flushed(const NocOptVals& = {}) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_writes_flushed: transaction ids are not emulated");
        ::tt_emu::kapi::noc_async_writes_flushed();
    }

    // Multicasts `size_bytes` of the L1 that `src` stands for to the rectangle `dst_args` names (a MulticastEndpoint:
    // `{.noc_x_start, .noc_y_start, .noc_x_end, .noc_y_end, .addr}`), `num_dsts` cores, the sender excluded: the
    // dataflow API's noc_async_write_multicast, checked as it is (the rectangle's corner order for this kernel's NoC,
    // the destination count, each destination's reserved CB pages, landing at the write barrier). The loopback form
    // (NocOptions::MCAST_INCL_SRC) is not emulated.
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = 0, bool enable_noc_tracing = true,
              typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const typename noc_traits_t<Src>::src_args_type& src_args,
                               const typename noc_traits_t<Dst>::dst_args_mcast_type& dst_args,
                               bool linked = false) const {
        static_assert(opts == NocOptions::DEFAULT, "Noc::async_write_multicast: NocOptions (the loopback form "
                                                   "MCAST_INCL_SRC, transaction ids, posted writes) are not emulated");
        ::tt_emu::kapi::noc_async_write_multicast(noc_traits_t<Src>::l1_addr(src, src_args, false),
                                                  noc_traits_t<Dst>::mcast_addr(dst, dst_args), size_bytes, num_dsts,
                                                  linked);
    }

    // The kernel's NoC atomics (semaphore increments) have been acknowledged: the emulator applies an increment
    // when it is issued, so there is nothing left to wait for.
    void async_atomic_barrier() const { ::tt_emu::kapi::noc_async_atomic_barrier(); }

private:
    uint8_t noc_id_;
};

// A DataflowBuffer is an L1 end: its write pointer as a destination, its read pointer as a source.
template <>
struct noc_traits_t<DataflowBuffer> {
    using src_args_type = DataflowBufferArgs;
    using dst_args_type = DataflowBufferArgs;
    static uint32_t l1_addr(const DataflowBuffer& dfb, const DataflowBufferArgs& args, bool destination) {
        return (destination ? dfb.get_write_ptr() : dfb.get_read_ptr()) + args.offset_bytes;
    }
};
template <>
inline constexpr bool noc_zero_l1_endpoint_v<DataflowBuffer> = true;
