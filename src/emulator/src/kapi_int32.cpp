// Kernel API: SFPU calls on Int32 tiles (specs/intrinsics/int32_sfpu.yaml). DST holds an integer as its 32 bits
// (tile.cpp): the unpacker and the packer move Int32 unchanged (tt-isa-documentation WormholeB0 Unpackers/ and
// Packers/FormatConversion.md: identity conversions), and tt-metal's integer SFPU kernels load with the plain INT32
// mode and compute in two's complement, as the host's int32 and ttnn's tensors hold it.
//   fill_tile_int: every element the 32 bits given (tt-llk ckernel_sfpu_fill.h _calculate_fill_int_, INT32 store);
//   sfpu_reduce<MAX, Int32, REDUCE_ROW>: per tile row of the block, the signed maximum of each row of its ct_dim
//   tiles into column 0 of its first tile (ttnn 0.81.1 wormhole_b0 ckernel_sfpu_reduce.h
//   perform_reduce_row_max_min_int32: a signed compare-and-swap, correct for INT32_MIN). The other elements of the
//   block are left as they were here; on the hardware they hold what the compare-and-swaps left, which no consumer
//   of a row reduction reads.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"
#include "tt_emu/sfpu_ops.hpp"

namespace tt_emu {
namespace kapi {

namespace {

// ComputeState::sfpu while sfpu_reduce_init<MAX, Int32> is the last SFPU init: below every op code of
// tt_emu/sfpu_ops.hpp, and every other SFPU init overwrites it.
constexpr int kReduceMaxInt32 = -1;

int32_t bits_of(float x) {
    int32_t v;
    std::memcpy(&v, &x, 4);
    return v;
}

float of_bits(int32_t v) {
    float x;
    std::memcpy(&x, &v, 4);
    return x;
}

void need_written(Session& s, const ComputeState& c, const char* call, uint32_t idst) {
    if (idst < c.capacity && !((c.written >> idst) & 1u)) {
        fail(s, std::string(call) + " reads DST tile " + std::to_string(idst) +
                    ", which no math call wrote since tile_regs_acquire (copy_tile the operand first)");
    }
}

}  // namespace

namespace detail {

void fill_int(uint32_t format, uint32_t idst, uint32_t bits) {
    Session s = enter("fill_tile_int", {format, idst, bits});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    const sfpu::Call& fill = sfpu::call(sfpu::Op::fill_tile);
    if (c.sfpu != static_cast<int>(fill.init)) {
        fail(s, std::string("missing math init: fill_tile_int needs ") + sfpu::call(fill.init).name +
                    " since the last SFPU init of another operation");
    }
    if (static_cast<tt::DataFormat>(format) != tt::DataFormat::Int32) {
        fail(s, std::string("fill_tile_int in format ") + format_name(static_cast<tt::DataFormat>(format)) +
                    " is not emulated (Int32 is)");
    }
    if (!c.fp32_acc) fail(s, "fill_tile_int<Int32> writes 32-bit values: it needs 32-bit DST (fp32_dest_acc_en)");
    float* d = math_dst(s, c, idst, false);
    c.computed = true;
    c.cumsum_carried = false;
    std::fill(d, d + kTileElems, of_bits(static_cast<int32_t>(bits)));
    s.core.counters[kSfpuTiles] += 1;
}

void sfpu_reduce_init(ktypes::PoolType pool, uint32_t format) {
    Session s = enter("sfpu_reduce_init", {static_cast<uint32_t>(pool), format});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (pool != ktypes::PoolType::MAX || static_cast<tt::DataFormat>(format) != tt::DataFormat::Int32) {
        fail(s, std::string("sfpu_reduce_init in format ") + format_name(static_cast<tt::DataFormat>(format)) +
                    " with this pool type is not emulated (PoolType::MAX of Int32 is)");
    }
    c.sfpu = kReduceMaxInt32;
    c.cumsum_init = false;
    c.typecast_init = false;
    c.where_init = false;
}

void sfpu_reduce(ktypes::PoolType pool, uint32_t format, ktypes::ReduceDim dim, uint32_t idst, uint32_t ct_dim,
                 uint32_t rt_dim) {
    Session s = enter("sfpu_reduce", {static_cast<uint32_t>(pool), format, idst, ct_dim, rt_dim});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (pool != ktypes::PoolType::MAX || static_cast<tt::DataFormat>(format) != tt::DataFormat::Int32 ||
        dim != ktypes::ReduceDim::REDUCE_ROW) {
        fail(s, "sfpu_reduce is emulated for PoolType::MAX, DataFormat::Int32 and ReduceDim::REDUCE_ROW only");
    }
    if (c.sfpu != kReduceMaxInt32) {
        fail(s, "missing math init: sfpu_reduce<MAX, Int32> needs sfpu_reduce_init<MAX, Int32> since the last SFPU "
                "init");
    }
    if (!c.fp32_acc) fail(s, "sfpu_reduce<MAX, Int32> reads 32-bit values: it needs 32-bit DST (fp32_dest_acc_en)");
    if (ct_dim == 0 || rt_dim == 0) fail(s, "sfpu_reduce needs ct_dim and rt_dim of at least 1");
    c.computed = true;
    c.cumsum_carried = false;
    for (uint32_t i = 0; i < rt_dim; ++i) {
        int32_t row_max[32];
        std::fill(row_max, row_max + 32, INT32_MIN);
        for (uint32_t j = 0; j < ct_dim; ++j) {
            const uint32_t tile = idst + i * ct_dim + j;
            need_written(s, c, "sfpu_reduce", tile);
            const float* src = math_dst(s, c, tile, false);
            for (uint32_t r = 0; r < 32; ++r) {
                for (uint32_t col = 0; col < 32; ++col) row_max[r] = std::max(row_max[r], bits_of(src[r * 32 + col]));
            }
        }
        float* first = math_dst(s, c, idst + i * ct_dim, false);
        for (uint32_t r = 0; r < 32; ++r) first[r * 32] = of_bits(row_max[r]);
    }
    s.core.counters[kSfpuTiles] += ct_dim * rt_dim;
}

}  // namespace detail

void fill_tile_int(uint32_t idst, uint32_t bits) {
    detail::fill_int(static_cast<uint32_t>(tt::DataFormat::Int32), idst, bits);
}

}  // namespace kapi
}  // namespace tt_emu
