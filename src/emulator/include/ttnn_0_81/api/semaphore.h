// Emulator version of tt-metal's <api/semaphore.h> (ttnn 0.81.1) for data-movement kernels: `Semaphore<>` built from a
// program semaphore's id (`Semaphore<> s(get_compile_time_arg_val(i))`, the legacy form ttnn's multicast readers
// use; on Wormhole the DM scope is LOCAL_NONATOMIC: plain L1 loads and stores of the semaphore's word). Each
// operation is the dataflow API's call for it, checked as that call is (races by vector clocks, the multicast
// rectangle and count): set -> noc_semaphore_set, wait -> noc_semaphore_wait, wait_min -> noc_semaphore_wait_min,
// up(noc, x, y, v) -> noc_semaphore_inc of get_noc_addr(x, y, addr), set_multicast -> noc_semaphore_set_multicast.
// The address is resolved (get_semaphore) at each operation, as a semaphore object may be built for an id a kernel
// never uses (ttnn's OpSignaler holds `Semaphore<>{0}`). The Metal 2.0 token form, `Semaphore s(sem::name)` (a
// SemaphoreBindingToken the host generates from the ProgramSpec's SemaphoreBindings), takes the token's id; its
// scope must be LOCAL_NONATOMIC, the only one Wormhole's data-movement bindings resolve to (the others are Quasar's
// and the compute kernels' of Blackhole and Quasar, refused). The relay and increment multicasts and compute-kernel
// semaphores are not emulated.
#pragma once

#include <cstdint>

#include "api/dataflow/noc.h"
#include "api/dataflow/semaphore_binding_token.h"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu::kapi::detail {
[[noreturn]] void kernel_assert_failed(const char* condition, const char* file, int line);
}  // namespace tt_emu::kapi::detail

enum class ProgrammableCoreType { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2 };

template <ProgrammableCoreType core_type = ProgrammableCoreType::TENSIX>
class Semaphore {
    static_assert(core_type == ProgrammableCoreType::TENSIX, "Semaphore: only Tensix semaphores are emulated");

public:
    explicit Semaphore(std::uint32_t semaphore_id) : id_(semaphore_id) {}
    explicit Semaphore(SemaphoreBindingToken token) : id_(token.id) {
        if (token.scope != SemScope::LOCAL_NONATOMIC) {
            ::tt_emu::kapi::detail::kernel_assert_failed(
                "token.scope == SemScope::LOCAL_NONATOMIC (the only scope of a Wormhole data-movement semaphore "
                "binding; the others are not emulated)", __FILE__, __LINE__);
        }
    }

    void up(std::uint32_t value) { set(this->value() + value); }  // LOCAL_NONATOMIC: an L1 read-modify-write
    void down(std::uint32_t value) {                                 // blocks until sufficient, then subtracts
        wait_min(value);
        set(this->value() - value);
    }
    void wait(std::uint32_t value) const { ::tt_emu::kapi::noc_semaphore_wait(ptr(), value); }
    void wait_min(std::uint32_t value) const { ::tt_emu::kapi::noc_semaphore_wait_min(ptr(), value); }
    void set(std::uint32_t value) { ::tt_emu::kapi::noc_semaphore_set(ptr(), value); }
    std::uint32_t value() const { return *ptr(); }

    // Atomically increments the same semaphore on core (noc_x, noc_y).
    void up(const Noc& noc, std::uint32_t noc_x, std::uint32_t noc_y, std::uint32_t value, std::uint8_t vc = 0) {
        (void)noc;
        (void)vc;
        ::tt_emu::kapi::noc_semaphore_inc(::tt_emu::kapi::get_noc_addr(noc_x, noc_y, addr()), value);
    }

    // Sets the same semaphore on the rectangle's cores to this core's value (`num_dests` cores, this one
    // excluded). `linked` reserves the path for the next multicast on hardware; the emulator's multicasts land in
    // issue order either way.
    template <NocOptions opts = NocOptions::DEFAULT>
    void set_multicast(const Noc& noc, std::uint32_t noc_x_start, std::uint32_t noc_y_start, std::uint32_t noc_x_end,
                       std::uint32_t noc_y_end, std::uint32_t num_dests, bool linked = false) {
        static_assert(opts == NocOptions::DEFAULT, "Semaphore::set_multicast: NocOptions are not emulated");
        (void)noc;
        (void)linked;
        const std::uint32_t a = addr();
        ::tt_emu::kapi::noc_semaphore_set_multicast(
            a, ::tt_emu::kapi::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, a), num_dests);
    }

private:
    std::uint32_t addr() const { return ::tt_emu::kapi::get_semaphore(id_); }
    volatile std::uint32_t* ptr() const { return reinterpret_cast<volatile std::uint32_t*>(addr()); }
    std::uint32_t id_;
};
