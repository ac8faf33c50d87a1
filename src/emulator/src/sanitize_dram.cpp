// Sanitizer: DRAM pages that two kernels of a program touch must be ordered by the program itself (sanitize.hpp).
// Each byte of a page remembers the kernel whose write landed last and that kernel's own vector-clock entry then.
// Another kernel may read or overwrite the page only once its clock has caught up with that entry, i.e. after it
// waited for a semaphore (or a CB) the writer signalled after its write barrier; otherwise the hardware may let
// the read see the old value, or the older write land last (a lost update of a split-K T.atomic_add).
#include <map>
#include <string>
#include <vector>

#include "sanitize.hpp"

namespace tt_emu {

namespace {

// The bytes [offset, offset + size) of a DRAM page whose write landed last in this program, the kernel that wrote
// them and its own clock entry then. Bytes, not whole pages: kernels writing disjoint runs of one page (the parts of
// a row-major tensor's last dim two cores write) never lose each other's update, since the NoC writes only the
// bytes it is given.
struct PageWriter {
    const KernelThread* thread = nullptr;
    uint32_t epoch = 0;
    uint32_t offset = 0, size = 0;
};

// Per DRAM buffer, per page, the runs of their last writers (guarded by the DRAM lock; cleared when a program
// starts).
std::map<const DramBuffer*, std::vector<std::vector<PageWriter>>>& page_writers() {
    static std::map<const DramBuffer*, std::vector<std::vector<PageWriter>>> writers;
    return writers;
}

std::string kernel_name(const KernelThread& t) { return "core " + core_name(t.core->coord) + " " + t.name(); }

std::string page_name(const Transfer& x) {
    const DramBuffer& b = *x.buffer;
    return "page " + std::to_string(x.page) + " of " + (b.tensor.empty() ? b.describe() : "tensor " + b.tensor);
}

bool overlaps(const PageWriter& w, const Transfer& x) {
    return w.offset < x.offset + x.size && x.offset < w.offset + w.size;
}

// A landed write of bytes of the transfer, when it is another kernel's and not ordered before `s`'s thread.
const KernelThread* unordered_writer(const Session& s, const Transfer& x) {
    auto it = page_writers().find(x.buffer.get());
    if (it == page_writers().end() || x.page >= it->second.size()) return nullptr;
    for (const PageWriter& w : it->second[x.page]) {
        if (w.thread == nullptr || w.thread == &s.t || !overlaps(w, x)) continue;
        const uint32_t seen = w.thread->index < s.t.clock.v.size() ? s.t.clock.v[w.thread->index] : 0;
        if (seen < w.epoch) return w.thread;
    }
    return nullptr;
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
    std::vector<std::vector<PageWriter>>& pages = page_writers()[x.buffer.get()];
    if (pages.size() != x.buffer->num_pages) pages.assign(x.buffer->num_pages, {});
    // The earlier runs keep only their bytes outside this write.
    std::vector<PageWriter> kept;
    for (const PageWriter& w : pages[x.page]) {
        if (!overlaps(w, x)) {
            kept.push_back(w);
            continue;
        }
        if (w.offset < x.offset) kept.push_back(PageWriter{w.thread, w.epoch, w.offset, x.offset - w.offset});
        if (w.offset + w.size > x.offset + x.size) {
            kept.push_back(PageWriter{w.thread, w.epoch, x.offset + x.size, w.offset + w.size - x.offset - x.size});
        }
    }
    kept.push_back(PageWriter{&s.t, s.t.clock.v[s.t.index], x.offset, x.size});
    pages[x.page] = std::move(kept);
}

}  // namespace tt_emu
