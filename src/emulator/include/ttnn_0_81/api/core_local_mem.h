// Emulator version of tt-metal's <api/core_local_mem.h> (ttnn 0.81.1): CoreLocalMem<T>, an address in the core's L1
// with pointer arithmetic in elements of T, dereferenceable (`*`, `[]`, `->`: each core's L1 is a window of the
// kernel's address space, and the address is the core's own, as get_write_ptr gives it), and an end of a Noc
// transfer (`{.offset_bytes}`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#include "api/dataflow/noc.h"
#endif

template <typename T, typename AddressType = uintptr_t>
class CoreLocalMem {
    using difference_type = std::ptrdiff_t;
    static_assert(std::is_integral<AddressType>::value && std::is_unsigned<AddressType>::value,
                  "AddressType must be an unsigned integral type");

public:
    CoreLocalMem(AddressType address) : address_(address) {}
    CoreLocalMem(T* ptr) : address_(reinterpret_cast<AddressType>(ptr)) {}
    CoreLocalMem(const CoreLocalMem&) = default;
    CoreLocalMem& operator=(const CoreLocalMem&) = default;

    AddressType get_address() const { return address_; }

    T& operator*() const { return *get_unsafe_ptr(); }
    T* operator->() const { return get_unsafe_ptr(); }
    T& operator[](uint32_t index) const { return get_unsafe_ptr()[index]; }
    T* get_unsafe_ptr() const { return reinterpret_cast<T*>(static_cast<uintptr_t>(address_)); }

    CoreLocalMem& operator+=(difference_type offset) {
        address_ += offset * sizeof(T);
        return *this;
    }
    CoreLocalMem& operator-=(difference_type offset) {
        address_ -= offset * sizeof(T);
        return *this;
    }
    CoreLocalMem& operator++() { return *this += 1; }
    CoreLocalMem& operator--() { return *this -= 1; }
    CoreLocalMem operator+(difference_type offset) const { return CoreLocalMem(address_ + offset * sizeof(T)); }
    CoreLocalMem operator-(difference_type offset) const { return CoreLocalMem(address_ - offset * sizeof(T)); }
    difference_type operator-(const CoreLocalMem& other) const {
        return (static_cast<difference_type>(address_) - static_cast<difference_type>(other.address_)) /
               static_cast<difference_type>(sizeof(T));
    }

private:
    AddressType address_;
};

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
// An L1 end of a Noc transfer: its address plus `offset_bytes`.
template <typename T, typename AddressType>
struct noc_traits_t<CoreLocalMem<T, AddressType>> {
    struct src_args_type {
        AddressType offset_bytes = 0;
    };
    struct dst_args_type {
        AddressType offset_bytes = 0;
    };
    template <typename Args>
    static uint32_t l1_addr(const CoreLocalMem<T, AddressType>& mem, const Args& args, bool) {
        return static_cast<uint32_t>(mem.get_address() + args.offset_bytes);
    }
};
template <typename T, typename AddressType>
inline constexpr bool noc_zero_l1_endpoint_v<CoreLocalMem<T, AddressType>> = true;
#endif
