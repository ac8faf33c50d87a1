// Sanitizer: DRAM pages that two kernels of a program touch must be ordered by the program itself (sanitize.hpp).
// Each page remembers the kernel whose write landed last and that kernel's own vector-clock entry at the landing.
// Another kernel may read or overwrite the page only once its clock has caught up with that entry, i.e. after it
// waited for a semaphore (or a CB) the writer signalled after its write barrier; otherwise the hardware may let
// the read see the old value, or the older write land last (a lost update of a split-K T.atomic_add).
#include <map>
#include <string>
#include <vector>

#include "sanitize.hpp"

namespace tt_emu {

namespace {

// The kernel whose write of a DRAM page landed last in this program, and its own clock entry then.
struct PageWriter {
    const KernelThread* thread = nullptr;
    uint32_t epoch = 0;
};

// Per DRAM buffer, per page (guarded by the DRAM lock; cleared when a program starts).
std::map<const DramBuffer*, std::vector<PageWriter>>& page_writers() {
    static std::map<const DramBuffer*, std::vector<PageWriter>> writers;
    return writers;
}

std::string kernel_name(const KernelThread& t) { return "core " + core_name(t.core->coord) + " " + t.name(); }

std::string page_name(const Transfer& x) {
    const DramBuffer& b = *x.buffer;
    return "page " + std::to_string(x.page) + " of " + (b.tensor.empty() ? b.describe() : "tensor " + b.tensor);
}

// The last landed write of the page, when it is another kernel's and not ordered before `s`'s thread.
const KernelThread* unordered_writer(const Session& s, const Transfer& x) {
    auto it = page_writers().find(x.buffer.get());
    if (it == page_writers().end() || x.page >= it->second.size()) return nullptr;
    const PageWriter& w = it->second[x.page];
    if (w.thread == nullptr || w.thread == &s.t) return nullptr;
    const uint32_t seen = w.thread->index < s.t.clock.v.size() ? s.t.clock.v[w.thread->index] : 0;
    return seen >= w.epoch ? nullptr : w.thread;
}

}  // namespace

void reset_page_writers() { page_writers().clear(); }

void dram_read_landed(Session& s, const Transfer& x) {
    if (const KernelThread* w = unordered_writer(s, x)) {
        fail(s, "read of " + page_name(x) + " lands while nothing orders it after " + kernel_name(*w) + "'s write "
                "of that page (wait for a semaphore the writer increments after its noc_async_write_barrier): on "
                "hardware the read may see the page's old value");
    }
}

void dram_write_landed(Session& s, const Transfer& x) {
    if (const KernelThread* w = unordered_writer(s, x)) {
        fail(s, "write of " + page_name(x) + " lands while nothing orders it after " + kernel_name(*w) + "'s write "
                "of that page: two writers of one page with no semaphore between them, so on hardware either may "
                "land last and the other's update is lost");
    }
    std::vector<PageWriter>& pages = page_writers()[x.buffer.get()];
    if (pages.size() != x.buffer->num_pages) pages.assign(x.buffer->num_pages, PageWriter{});
    pages[x.page] = PageWriter{&s.t, s.t.clock.v[s.t.index]};
}

}  // namespace tt_emu
