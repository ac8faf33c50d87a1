// Device-side kernel API of the tt_emu emulator (namespace tt_emu::kapi).
//
// Kernels are compiled by the emulator's JIT into shared objects and run as host threads (one per reader / compute
// / writer kernel and core). Everything with state (CBs, NoC, DST, tile math) lives in libtt_emu.so, which the kernel
// objects link against at dlopen time; this header only declares it and implements what must be compile-time
// (compile-time arguments, accessor types). Included by every kernel, it stays small: nothing that warns under -Wall.
#pragma once

#include <cstdint>
#include <cstring>

#include "tt_emu/cb_index.hpp"  // tt::CBIndex, as kernels name CBs

// Legacy compute entry `namespace NAMESPACE { void MAIN { ... } }` (2025 API); the runtime looks up both this symbol
// (tt_emu_kernel::kernel_main()) and the plain `void kernel_main()`.
#define NAMESPACE tt_emu_kernel
#define MAIN kernel_main()

// tt_l1_ptr marks L1 pointers (a section attribute on hardware); L1 addresses lie in the core's window (l1_window.cpp).
#ifndef tt_l1_ptr
#define tt_l1_ptr
#endif

#include "tt_emu/compile_time_args.hpp"  // KERNEL_COMPILE_TIME_ARGS and the array kernel_compile_time_args

// Value types live in tt_emu::ktypes, apart from the functions: argument-dependent lookup on an accessor
// must not find tt_emu::kapi::noc_async_read_page next to the generated global wrapper of the same name.
namespace tt_emu::ktypes {

// tt::DataFormat as kernels see it. A class rather than an enum so that both `DataFormat x =
// get_dataformat(cb)` and `uint32_t x = get_dataformat(cb)` work, and either can initialise the
// data_format member of InterleavedAddrGenFast.
struct DataFormat {
    uint8_t value;
    constexpr DataFormat(uint32_t v = 255) noexcept : value(static_cast<uint8_t>(v)) {}
    constexpr operator uint32_t() const noexcept { return value; }
    static const DataFormat Float32, Float16, Bfp8, Bfp4, Tf32, Float16_b, Bfp8_b, Bfp4_b, Int32, UInt16, Lf8,
        Bfp2, Int8, Bfp2_b, UInt32, UInt8, Invalid;
};
inline constexpr DataFormat DataFormat::Float32{0}, DataFormat::Float16{1}, DataFormat::Bfp8{2},
    DataFormat::Bfp4{3}, DataFormat::Tf32{4}, DataFormat::Float16_b{5}, DataFormat::Bfp8_b{6},
    DataFormat::Bfp4_b{7}, DataFormat::Int32{8}, DataFormat::UInt16{9}, DataFormat::Lf8{10}, DataFormat::Bfp2{11},
    DataFormat::Int8{14}, DataFormat::Bfp2_b{15}, DataFormat::UInt32{24}, DataFormat::UInt8{30},
    DataFormat::Invalid{255};

enum class SrcOrder { Regular, Reverse };
// reduce.h's template arguments (tt-llk's llk_defs.h ckernel enums; AVG, MIN and scalar reductions are not emulated).
enum class PoolType : uint8_t { SUM, AVG, MAX, MIN };
enum class ReduceDim : uint8_t { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };

}  // namespace tt_emu::ktypes

namespace tt_emu::sfpu {
enum class Op : int;  // the SFPU calls of the op map (tt_emu/sfpu_ops.hpp, rendered from specs/ops)
}  // namespace tt_emu::sfpu

namespace tt_emu::kapi {

using ktypes::DataFormat;
using ktypes::PoolType;
using ktypes::ReduceDim;
using ktypes::SrcOrder;

namespace detail {

template <uint32_t... V>
struct CtArgs {
    static constexpr uint32_t count = sizeof...(V);
    static constexpr uint32_t values[sizeof...(V) + 1] = {V..., 0u};
};
using KernelCtArgs = CtArgs<KERNEL_COMPILE_TIME_ARGS>;

// Not constexpr on purpose: reaching it in a constant expression is a compile error naming it.
[[noreturn]] void compile_time_arg_index_out_of_range(uint32_t idx, uint32_t count);
uint32_t runtime_arg(int idx, bool common);
[[noreturn]] uint32_t runtime_arg_addr(int idx);  // get_arg_addr: refused at the call
enum class NocCall : uint8_t { ReadPage, WritePage, ReadTile, WriteTile };
// cta_offset: the TensorAccessorArgs offset of the accessor used (-1: another address generator).
void noc_page(NocCall call, uint32_t id, uint32_t bank_base_address, uint32_t page_size, uint32_t l1_addr,
              uint32_t size, uint32_t offset, int32_t cta_offset);
uint64_t dram_noc_addr(uint32_t bank_base_address, uint32_t page_size, uint32_t id, uint32_t offset);
// A sharded tensor's page: its bank's NoC address (get_noc_addr's form), a transfer through it (kapi_shards.cpp).
uint64_t shard_noc_addr(const uint32_t* shard_args, uint32_t bank_base_address, uint32_t id, uint32_t offset);
void noc_shard_page(NocCall call, uint32_t id, uint32_t bank_base_address, const uint32_t* shard_args, uint32_t l1_addr,
                    uint32_t size, uint32_t offset, int32_t cta_offset);
void noc_write_zeros(uint32_t l1_addr, uint32_t size);  // Noc::async_write_zeros: zeros landing at the read barrier

void hw_startup(bool reverse, int operands, uint32_t icb0, uint32_t icb1, uint32_t ocb);
void pack(uint32_t ifrom_dst, uint32_t icb, bool out_of_order, uint32_t output_tile_index);
void reduce_init(PoolType pool, ReduceDim dim, uint32_t icb, uint32_t icb_scaler, uint32_t ocb);
void reduce_tile(PoolType pool, ReduceDim dim, uint32_t icb, uint32_t icb_scaler, uint32_t itile,
                 uint32_t itile_scaler, uint32_t idst);
// The SFPU: the rendered kernel API headers forward every SFPU call of the op map here with its code. Template flags
// of the real calls (approximation modes) are not declared: kernels use their defaults; the emulator computes in fp32.
void sfpu_init(sfpu::Op op);
void sfpu(sfpu::Op op, uint32_t idst, float value);                        // DST[idst] = f(DST[idst], value)
void sfpu_bounds(sfpu::Op op, uint32_t idst, float lo, float hi);              // DST[idst] = f(DST[idst], lo, hi)
void sfpu_binary(sfpu::Op op, uint32_t idst0, uint32_t idst1, uint32_t odst);  // DST[odst] = f(DST[idst0], DST[idst1])
// A scalar the API takes as the bits of an fp32 value (binop_with_scalar.h, clamp.h).
inline float float_of_bits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace detail

// ---------------------------------------------------------------- arguments

namespace detail {
template <typename T>
T arg_as(int arg_idx, bool common) {
    static_assert(sizeof(T) == 4, "get_arg_val, get_common_arg_val: runtime arguments are 4-byte values");
    const uint32_t raw = runtime_arg(arg_idx, common);
    T out;
    __builtin_memcpy(&out, &raw, sizeof out);
    return out;
}
}  // namespace detail
template <typename T>
T get_arg_val(int arg_idx) { return detail::arg_as<T>(arg_idx, false); }
template <typename T>
T get_common_arg_val(int arg_idx) { return detail::arg_as<T>(arg_idx, true); }

constexpr uint32_t get_compile_time_arg_val(uint32_t idx) {
    using A = detail::KernelCtArgs;
    return idx < A::count ? A::values[idx] : (detail::compile_time_arg_index_out_of_range(idx, A::count), 0u);
}

// ---------------------------------------------------------------- circular buffers

void cb_reserve_back(int32_t cb_id, int32_t num_pages);
void cb_push_back(int32_t cb_id, int32_t num_pages);
void cb_wait_front(int32_t cb_id, int32_t num_pages);
void cb_pop_front(int32_t cb_id, int32_t num_pages);
bool cb_pages_reservable_at_back(int32_t cb_id, int32_t num_pages);
bool cb_pages_available_at_front(int32_t cb_id, int32_t num_pages);
uint32_t get_write_ptr(uint32_t cb_id);
uint32_t get_read_ptr(uint32_t cb_id);
DataFormat get_dataformat(int32_t cb_id);
int32_t get_tile_size(int32_t cb_id);

// ---------------------------------------------------------------- the core running the kernel

uint8_t get_absolute_logical_x();
uint8_t get_absolute_logical_y();
uint8_t get_relative_logical_x();  // one sub-device at the grid's origin: the absolute coordinates
uint8_t get_relative_logical_y();

}  // namespace tt_emu::kapi

// ---------------------------------------------------------------- tensor addressing

namespace tt_emu::ktypes {

namespace kd = ::tt_emu::kapi::detail;
// Interleaved DRAM tensors (config 2, aligned page size) and sharded L1 ones (config 1, ttnn 0.81's layout: aligned
// page size, rank, banks, tensor and shard pages, banks' NoC coordinates two to a word), as the host appends them.
template <uint32_t CTA_OFFSET, uint32_t CRTA_OFFSET = 0>
struct TensorAccessorArgs {
    static_assert(CTA_OFFSET + 2 <= kd::KernelCtArgs::count, "TensorAccessorArgs<CTA_OFFSET>: the kernel has fewer "
                  "compile-time arguments than an interleaved tensor needs (2, from CTA_OFFSET)");
    static constexpr uint32_t ct(uint32_t i) { return i < kd::KernelCtArgs::count ? kd::KernelCtArgs::values[i] : 0u; }
    static constexpr uint32_t ArgsConfig = ct(CTA_OFFSET);
    static constexpr uint32_t AlignedPageSize = ct(CTA_OFFSET + 1);
    static constexpr bool is_sharded = (ArgsConfig & 1u) != 0;
    static constexpr uint32_t NumArgs = is_sharded ? 8 + (ct(CTA_OFFSET + 3) + 1) / 2 : 2;
    static_assert(!is_sharded || (ArgsConfig == 1u && ct(CTA_OFFSET + 2) == 2 && CTA_OFFSET + NumArgs <= kd::KernelCtArgs::count),
                  "TensorAccessorArgs: a sharded tensor is emulated in L1 with every argument compile-time and rank 2");
    // The host's TensorAccessorArgs() (config 0, page size 0) is a placeholder kernels may build an unused accessor from.
    static_assert(is_sharded || (ArgsConfig & 2u) != 0 || (ArgsConfig == 0 && AlignedPageSize == 0),
                  "TensorAccessorArgs: only DRAM interleaved and L1 sharded tensors are emulated");
    static constexpr uint32_t next_compile_time_args_offset() { return CTA_OFFSET + NumArgs; }
    static constexpr uint32_t get_aligned_page_size() { return AlignedPageSize; }
};

struct TensorAccessor {
    uint32_t bank_base_address;
    uint32_t page_size;
    int32_t cta_offset;  // which TensorAccessorArgs built it: tt.plan.json names the tensor it must reach
    const uint32_t* shard_args;  // a sharded tensor's compile-time arguments (from its config word), else null

    template <uint32_t CTA, uint32_t CRTA>
    TensorAccessor(const TensorAccessorArgs<CTA, CRTA>&, uint32_t bank_base_address_in,
                   uint32_t page_size_in = TensorAccessorArgs<CTA, CRTA>::AlignedPageSize)
        : bank_base_address(bank_base_address_in), page_size(page_size_in), cta_offset(int32_t(CTA)),
          shard_args(TensorAccessorArgs<CTA, CRTA>::is_sharded ? &kd::KernelCtArgs::values[CTA] : nullptr) {}

    uint64_t get_noc_addr(uint32_t page_id, uint32_t offset = 0) const {
        return shard_args ? kd::shard_noc_addr(shard_args, bank_base_address, page_id, offset)
                          : kd::dram_noc_addr(bank_base_address, page_size, page_id, offset);
    }
};

// Must stay an aggregate: kernels write InterleavedAddrGenFast<true>{addr, page_size, data_format}.
template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    static_assert(DRAM, "InterleavedAddrGenFast<false> (L1-interleaved tensors) is not emulated");
    uint32_t bank_base_address;
    uint32_t page_size;
    DataFormat data_format;

    uint64_t get_noc_addr(uint32_t id, uint32_t offset = 0) const {
        return kd::dram_noc_addr(bank_base_address, page_size, id, offset);
    }
};

}  // namespace tt_emu::ktypes

namespace tt_emu::kapi::detail {
// A page transfer through an address generator: a sharded accessor's to its bank's L1, any other's to DRAM (an
// accessor names its TensorAccessorArgs offset: tt.plan.json names the tensor it must reach).
inline void page_transfer(NocCall call, uint32_t id, const ktypes::TensorAccessor& a, uint32_t l1_addr, uint32_t size,
                          uint32_t offset) {
    if (a.shard_args) return noc_shard_page(call, id, a.bank_base_address, a.shard_args, l1_addr, size, offset, a.cta_offset);
    noc_page(call, id, a.bank_base_address, a.page_size, l1_addr, size, offset, a.cta_offset);
}
template <typename AddrGen>
void page_transfer(NocCall call, uint32_t id, const AddrGen& a, uint32_t l1_addr, uint32_t size, uint32_t offset) {
    noc_page(call, id, a.bank_base_address, a.page_size, l1_addr, size, offset, -1);
}
}  // namespace tt_emu::kapi::detail

namespace tt_emu::kapi {

using ktypes::InterleavedAddrGenFast;
using ktypes::TensorAccessor;
using ktypes::TensorAccessorArgs;

// ---------------------------------------------------------------- NoC

template <typename AddrGen>
void noc_async_read_page(uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr, uint32_t size = 0,
                         uint32_t offset = 0) {
    detail::page_transfer(detail::NocCall::ReadPage, id, addrgen, dst_local_l1_addr, size, offset);
}

template <typename AddrGen>
void noc_async_write_page(uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr, uint32_t size = 0,
                          uint32_t offset = 0) {
    detail::page_transfer(detail::NocCall::WritePage, id, addrgen, src_local_l1_addr, size, offset);
}

template <typename AddrGen>
void noc_async_read_tile(uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr, uint32_t offset = 0) {
    detail::page_transfer(detail::NocCall::ReadTile, id, addrgen, dst_local_l1_addr, 0, offset);
}

template <typename AddrGen>
void noc_async_write_tile(uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr) {
    detail::page_transfer(detail::NocCall::WriteTile, id, addrgen, src_local_l1_addr, 0, 0);
}

// Raw forms: a DRAM NoC address from get_noc_addr(); the transfer must stay inside one page.
void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size);
void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size);
void noc_async_read_barrier();
void noc_async_write_barrier();  // also lands the kernel's multicasts
void noc_async_writes_flushed();  // the writes have left L1: the emulator lands them (not the multicasts)

// ---------------------------------------------------------------- semaphores and multicast

// NoC addresses (64 bits): tt-metal's layout (36 local address bits, then 6-bit x/y fields; a multicast has
// x_end, y_end, x_start, y_start) under a 4-bit tag in bits 60..63 that marks which call produced them.
uint32_t get_semaphore(uint32_t semaphore_id);
uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr);
uint64_t get_noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end, uint32_t addr);
void noc_semaphore_wait(volatile uint32_t* sem_addr, uint32_t val);
void noc_semaphore_wait_min(volatile uint32_t* sem_addr, uint32_t val);
void noc_semaphore_set(volatile uint32_t* sem_addr, uint32_t val);
void noc_semaphore_inc(uint64_t addr, uint32_t incr);
void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                               uint32_t num_dests, bool linked = false);
void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t num_dests);
void noc_async_atomic_barrier();  // increments apply when issued: nothing to wait for

// ---------------------------------------------------------------- compute: start-up and inits

template <SrcOrder order = SrcOrder::Regular>
void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    detail::hw_startup(order == SrcOrder::Reverse, 3, icb0, icb1, ocb);
}

template <SrcOrder order = SrcOrder::Regular>
void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb) {
    detail::hw_startup(order == SrcOrder::Reverse, 2, icb0, icb0, ocb);
}

void mm_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, uint32_t transpose = 0);
void mm_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose = 0);
void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose = 0);
void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb);
void add_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false);
void sub_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false);
void mul_tiles_init(uint32_t icb0, uint32_t icb1);
void init_sfpu(uint32_t icb, uint32_t ocb);
void unary_op_init_common(uint32_t icb, uint32_t ocb);
void copy_tile_init(uint32_t cbid);
void copy_tile_to_dst_init_short(uint32_t cbid, uint32_t transpose = 0);
void transpose_init(uint32_t icb);
void transpose_wh_init_short(uint32_t icb);
// ttnn 0.81 names of the short inits.
void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false);
void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false);
void mul_init(uint32_t icb0, uint32_t icb1);
void copy_init(uint32_t cbid);

// ---------------------------------------------------------------- compute: tilize / untilize (kapi_tilize.cpp)

void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb);
void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb);
void tilize_uninit(uint32_t icb, uint32_t ocb);
void pack_untilize_uninit(uint32_t ocb);
namespace detail {
void pack_untilize_init(uint32_t block_ct_dim, uint32_t full_ct_dim, uint32_t icb, uint32_t ocb);
void pack_untilize_block(uint32_t block_ct_dim, uint32_t full_ct_dim, uint32_t icb, uint32_t block_rt_dim,
                         uint32_t ocb, uint32_t block_c_index);
}  // namespace detail
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
void pack_untilize_init(uint32_t icb, uint32_t ocb) {
    detail::pack_untilize_init(block_ct_dim, full_ct_dim, icb, ocb);
}
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
void pack_untilize_block(uint32_t icb, uint32_t block_rt_dim, uint32_t ocb, uint32_t block_c_index = 0) {
    detail::pack_untilize_block(block_ct_dim, full_ct_dim, icb, block_rt_dim, ocb, block_c_index);
}

// ---------------------------------------------------------------- compute: data-format reconfiguration

// SrcA takes `srca_cb`'s format and SrcB `srcb_cb`'s (tt-metal's SrcOrder::Regular argument order).
void reconfig_data_format(uint32_t srca_cb, uint32_t srcb_cb);
void reconfig_data_format_srca(uint32_t srca_cb);
void pack_reconfig_data_format(uint32_t ocb);
void pack_reconfig_l1_acc(uint32_t l1_acc_en);  // 1: pack_tile adds to what L1 holds (kapi_l1_acc.cpp)

// ---------------------------------------------------------------- compute: DST and tile operations

void tile_regs_acquire();
void tile_regs_commit();
void tile_regs_wait();
void tile_regs_release();
void acquire_dst();  // the deprecated one-call section of math and pack (kapi_dst_sections.cpp)
void release_dst();

void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                  uint32_t idst, uint32_t transpose = 0);
void add_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void sub_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void mul_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index);
// The broadcast calls (bcast.h) are declared in tt_emu/kernel_api_bcast.hpp, included below.
void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst);
void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst);
// SFPU column-wise cumulative sum with the running row carried between calls (kapi_compute.cpp).
void cumsum_tile_init();
void cumsum_tile(uint32_t idst, bool first = true);
// SFPU conversion between data formats named by their tt::DataFormat values (kapi_compute.cpp).
namespace detail {
void typecast_init(uint32_t in_format, uint32_t out_format);
void typecast(uint32_t in_format, uint32_t out_format, uint32_t idst);
}  // namespace detail
template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
void typecast_tile_init() {
    detail::typecast_init(IN_DTYPE, OUT_DTYPE);
}
template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE, bool fp32_dest_acc = false>
void typecast_tile(uint32_t idst) {
    detail::typecast(IN_DTYPE, OUT_DTYPE, idst);
}

// Row reduction (kapi_reduce.cpp); the trailing template flag (fp32 accumulation) is accepted and ignored.
template <PoolType pool, ReduceDim dim, bool flag = false>
void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb) {
    detail::reduce_init(pool, dim, icb, icb_scaler, ocb);
}
template <PoolType pool, ReduceDim dim, bool flag = false>
void reduce_tile(uint32_t icb, uint32_t icb_scaler, uint32_t itile, uint32_t itile_scaler, uint32_t idst) {
    detail::reduce_tile(pool, dim, icb, icb_scaler, itile, itile_scaler, idst);
}
void reduce_uninit(uint32_t icb);
void reduce_uninit();

template <bool out_of_order_output = false>
void pack_tile(uint32_t ifrom_dst, uint32_t icb, uint32_t output_tile_index = 0) {
    detail::pack(ifrom_dst, icb, out_of_order_output, output_tile_index);
}

}  // namespace tt_emu::kapi

// Types kernels name unqualified (DataFormat::Float16_b, compute_kernel_hw_startup<SrcOrder::Reverse>).
using ::tt_emu::ktypes::DataFormat;
using ::tt_emu::ktypes::PoolType;
using ::tt_emu::ktypes::ReduceDim;
using ::tt_emu::ktypes::SrcOrder;

#include "tt_emu/kernel_api_bcast.hpp"  // *_tiles_bcast_cols/rows/scalar
#include "tt_emu/kernel_api_ttnn.hpp"  // binary_tiles_init, EltwiseBinaryType
