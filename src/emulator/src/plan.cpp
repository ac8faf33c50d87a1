// Sanitizer checks against tt.plan.json, the plan a generated program comes from (see sanitize.hpp). The plan is
// JSON written by tilelang (json.dumps): a small reader for its values is all it takes.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sanitize.hpp"
#include "tt_emu/records.hpp"

namespace tt_emu {

namespace {

namespace rec = tl::records;  // the plan's keys (specs/records/tt_plan.yaml)

struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    double number = 0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
    const Json& operator[](const std::string& key) const {
        static const Json none;
        for (const auto& [k, v] : members) {
            if (k == key) return v;
        }
        return none;
    }
};

class Reader {
public:
    explicit Reader(std::string text) : s_(std::move(text)) {}
    Json document() {
        Json v = value();
        skip();
        if (i_ != s_.size()) throw std::runtime_error("text after the JSON value");
        return v;
    }

private:
    void skip() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    char next() {
        skip();
        if (i_ >= s_.size()) throw std::runtime_error("unexpected end");
        return s_[i_];
    }
    void expect(char c) {
        if (next() != c) throw std::runtime_error(std::string("expected '") + c + "' at byte " + std::to_string(i_));
        ++i_;
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c == '\\' && i_ < s_.size()) {
                c = s_[i_++];
                if (c == 'u') {  // the plan's names are ASCII; other characters are kept as '?'
                    out += '?';
                    i_ += 4;
                    continue;
                }
                c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == 'b' ? '\b' : c == 'f' ? '\f' : c;
            }
            out += c;
        }
        expect('"');
        return out;
    }
    Json value() {
        Json v;
        const char c = next();
        if (c == '{' || c == '[') {
            ++i_;
            v.kind = c == '{' ? Json::Object : Json::Array;
            for (bool first = true; next() != (c == '{' ? '}' : ']'); first = false) {
                if (!first) expect(',');
                if (c == '[') {
                    v.items.push_back(value());
                    continue;
                }
                std::string key = string();
                expect(':');
                v.members.emplace_back(std::move(key), value());
            }
            ++i_;
        } else if (c == '"') {
            v.kind = Json::String;
            v.text = string();
        } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0 || s_.compare(i_, 4, "null") == 0) {
            v.kind = s_[i_] == 'n' ? Json::Null : Json::Bool;
            v.number = s_[i_] == 't';
            i_ += s_[i_] == 'f' ? 5 : 4;
        } else {
            char* end = nullptr;
            v.kind = Json::Number;
            v.number = std::strtod(s_.c_str() + i_, &end);
            if (end == s_.c_str() + i_) throw std::runtime_error("unexpected '" + std::string(1, c) + "'");
            i_ = static_cast<size_t>(end - s_.c_str());
        }
        return v;
    }
    std::string s_;
    size_t i_ = 0;
};

// What the kernels must agree with, from the loaded plan: per kernel (by file stem) its tensor per accessor offset.
struct PlanFacts {
    std::string path;
    std::map<std::string, std::map<int32_t, std::string>> accessors;
};
PlanFacts* g_plan = nullptr;  // set before a run, read-only while kernels run

[[noreturn]] void plan_error(const char* call, const std::string& message) {
    exit_with_error(3, std::string("tt_emu: error: host: ") + call + ": " + message + "\n");
}

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

// The buffers that hold the plan's tensors: the DRAM buffers, then the sharded L1 ones (tensors with l1_shard).
std::vector<std::shared_ptr<DramBuffer>> planned_buffers() {
    std::vector<std::shared_ptr<DramBuffer>> out = dram_buffers(), l1 = l1_sharded_buffers();
    out.insert(out.end(), l1.begin(), l1.end());
    return out;
}

// The value the host must have passed for one entry of the plan's runtime_arg_values (false: not checkable).
bool planned_value(const Json& v, const Json& plan, uint32_t& out) {
    if (v.kind == Json::Number) {
        out = static_cast<uint32_t>(static_cast<int64_t>(v.number));
        return true;
    }
    if (const Json& t = v[rec::tensor_address::kTensor]; t.kind == Json::String) {
        for (const auto& buf : planned_buffers()) {
            if (buf->tensor == t.text) out = buf->address;
        }
        return true;
    }
    for (const char* axis : {rec::noc_x::kNocX, rec::noc_y::kNocY}) {
        if (const Json& c = v[axis]; c.kind == Json::Array && c.items.size() == 2) {
            const CoreCoord noc = noc_of_logical(CoreCoord{static_cast<size_t>(c.items[0].number),
                                                           static_cast<size_t>(c.items[1].number)});
            out = static_cast<uint32_t>(axis[4] == 'x' ? noc.x : noc.y);
            return true;
        }
    }
    if (const Json& name = v[rec::semaphore_id::kSemaphore]; name.kind == Json::String) {
        const auto& sems = plan[rec::plan::kSemaphores].items;
        for (size_t i = 0; i < sems.size(); ++i) {
            if (sems[i][rec::semaphore::kName].text == name.text) out = static_cast<uint32_t>(i);
        }
        return true;
    }
    return false;
}

// Tags the live DRAM buffers and sharded L1 buffers with the plan's tensors (those with l1_shard the L1 ones), in
// creation order (main.cpp creates them in plan order).
void tag_buffers(const Json& plan, const char* call) {
    const auto dram = dram_buffers(), l1 = l1_sharded_buffers();
    std::vector<const Json*> in_dram, in_l1;
    for (const Json& t : plan[rec::plan::kTensors].items) (t[rec::tensor::kL1Shard].kind == Json::Array ? in_l1 : in_dram).push_back(&t);
    if (dram.size() != in_dram.size() || l1.size() != in_l1.size()) {
        plan_error(call, "the program created " + std::to_string(dram.size()) + " DRAM buffers and " +
                             std::to_string(l1.size()) + " sharded L1 buffers, but " + g_plan->path + " lists " +
                             std::to_string(in_dram.size()) + " DRAM tensors and " + std::to_string(in_l1.size()) +
                             " L1-sharded ones");
    }
    std::vector<std::shared_ptr<DramBuffer>> buffers = dram;
    buffers.insert(buffers.end(), l1.begin(), l1.end());
    in_dram.insert(in_dram.end(), in_l1.begin(), in_l1.end());
    for (size_t i = 0; i < buffers.size(); ++i) {
        const Json& t = *in_dram[i];
        if (buffers[i]->num_pages != t[rec::tensor::kPages].number ||
            buffers[i]->page_size != t[rec::tensor::kPageBytes].number) {
            plan_error(call, buffers[i]->describe() + " is the program's DRAM buffer " + std::to_string(i) +
                                 ", but the plan's tensor " + t[rec::tensor::kName].text + " has " +
                                 std::to_string(int64_t(t[rec::tensor::kPages].number)) + " pages");
        }
        buffers[i]->tensor = t[rec::tensor::kName].text;
    }
}

void check_runtime_args(const KernelSpec& k, const Json& role, const Json& plan, const char* call) {
    const auto& names = role[rec::kernel::kRuntimeArgs].items;
    for (const Json& row : role[rec::kernel::kRuntimeArgValues].items) {
        const CoreCoord core{static_cast<size_t>(row[rec::core_args::kCore].items.at(0).number),
                             static_cast<size_t>(row[rec::core_args::kCore].items.at(1).number)};
        auto set = k.runtime_args.find(core);
        const size_t given = set == k.runtime_args.end() ? 0 : set->second.size();
        if (given != row[rec::core_args::kArgs].items.size()) {
            plan_error(call, k.name + " on core " + core_name(core) + " was given " + std::to_string(given) +
                                 " runtime arguments; " + g_plan->path + " has " +
                                 std::to_string(row[rec::core_args::kArgs].items.size()));
        }
        for (size_t i = 0; i < given; ++i) {
            uint32_t want = 0;
            if (!planned_value(row[rec::core_args::kArgs].items[i], plan, want) || set->second[i] == want) continue;
            const std::string name = i < names.size() ? " (" + names[i].text + ")" : "";
            plan_error(call, "runtime argument " + std::to_string(i) + name + " of " + k.name + " on core " +
                                 core_name(core) + " is " + std::to_string(set->second[i]) + ", but " +
                                 g_plan->path + " says " + std::to_string(want) +
                                 " (the core's arguments do not follow the plan: swapped between cores or tensors?)");
        }
    }
}

// Every CB the host program creates must be the plan's: same index, data format and page size.
void check_cbs(const ProgramState& program, const Json& plan, const char* call) {
    for (const auto& [core, cbs] : program.cbs) {
        for (const CbSpec& cb : cbs) {
            const Json* planned = nullptr;
            for (const Json& p : plan[rec::plan::kCbs].items) {
                if (p[rec::cb::kIndex].number == cb.index) planned = &p;
            }
            const std::string name = "CB c_" + std::to_string(cb.index) + " on core " + core_name(core);
            if (!planned) plan_error(call, name + " is not in " + g_plan->path + " (the host program creates a CB "
                                                  "the kernels were not planned with)");
            const std::string what = name + " (" + (*planned)[rec::cb::kBuffer].text + ")";
            if ((*planned)[rec::cb::kDataFormat].text != format_name(cb.format)) {
                plan_error(call, what + " has data format " + format_name(cb.format) + " in the host program, but " +
                                     (*planned)[rec::cb::kDataFormat].text + " in " + g_plan->path);
            }
            if ((*planned)[rec::cb::kPageBytes].number != cb.page_size) {
                plan_error(call, what + " has pages of " + std::to_string(cb.page_size) + " B in the host program, but " +
                                     std::to_string(int64_t((*planned)[rec::cb::kPageBytes].number)) + " B in " + g_plan->path);
            }
        }
    }
}

const char* fidelity_name(int f) { return f == 0 ? "LoFi" : f == 2 ? "HiFi2" : f == 3 ? "HiFi3" : f == 4 ? "HiFi4" : "?"; }

// The compute kernel's ComputeConfig must be the plan's: math fidelity, fp32_dest_acc_en, and no unpack-to-dest mode
// (the plan's kernels unpack every CB to the source registers: UnpackToDestMode::Default).
void check_compute_config(const KernelSpec& k, const Json& role, const char* call) {
    const std::string where = "ComputeConfig of " + k.name + ": ";
    const Json& fidelity = role[rec::compute_kernel::kMathFidelity];
    if (fidelity.kind == Json::String && fidelity.text != fidelity_name(k.math_fidelity)) {
        plan_error(call, where + "math_fidelity is MathFidelity::" + fidelity_name(k.math_fidelity) + ", but " +
                             g_plan->path + " says " + fidelity.text);
    }
    const Json& fp32 = role[rec::compute_kernel::kFp32DestAcc];
    if (fp32.kind == Json::Bool && fp32.number != double(k.fp32_dest_acc)) {
        plan_error(call, where + "fp32_dest_acc_en is " + (k.fp32_dest_acc ? "true" : "false") + ", but " +
                             g_plan->path + " says " + (k.fp32_dest_acc ? "false" : "true"));
    }
    for (size_t cb = 0; cb < k.unpack_to_dest.size(); ++cb) {
        if (k.unpack_to_dest[cb] == 0) continue;
        plan_error(call, where + "unpack_to_dest_mode[" + std::to_string(cb) + "] is UnpackToDestFp32, but " +
                             g_plan->path + " plans every CB with UnpackToDestMode::Default");
    }
}

}  // namespace

void check_program_against_plan(const ProgramState& program, const char* call) {
    delete g_plan;
    g_plan = nullptr;
    if (program.kernels.empty()) return;
    const std::filesystem::path path = std::filesystem::path(program.kernels[0].path).parent_path() / "tt.plan.json";
    std::ifstream in(path);
    if (!in) return;  // not a generated program: nothing to hold it to
    std::stringstream text;
    text << in.rdbuf();
    Json plan;
    try {
        plan = Reader(text.str()).document();
    } catch (const std::exception& e) {
        plan_error(call, "cannot read " + path.string() + ": " + e.what());
    }
    g_plan = new PlanFacts{path.string(), {}};
    tag_buffers(plan, call);
    check_cbs(program, plan, call);
    for (const auto& [role, entry] : plan[rec::plan::kKernels].members) {
        auto& offsets = g_plan->accessors[stem(entry[rec::kernel::kFile].text)];
        for (const Json& a : entry[rec::kernel::kCompileTimeArgs].items) {
            offsets[int32_t(a[rec::accessor_args::kOffset].number)] = a[rec::accessor_args::kTensor].text;
        }
        for (const KernelSpec& k : program.kernels) {
            if (stem(k.path) != stem(entry[rec::kernel::kFile].text)) continue;
            check_runtime_args(k, entry, plan, call);
            if (k.kind == KernelKind::Compute) check_compute_config(k, entry, call);
        }
    }
}

void need_planned_tensor(Session& s, int32_t cta_offset, const DramBuffer& buffer, uint32_t page) {
    if (g_plan == nullptr || cta_offset < 0) return;
    auto kernel = g_plan->accessors.find(s.t.name());
    if (kernel == g_plan->accessors.end()) return;
    auto planned = kernel->second.find(cta_offset);
    if (planned == kernel->second.end() || planned->second == buffer.tensor) return;
    fail(s, "the accessor of TensorAccessorArgs<" + std::to_string(cta_offset) + "> is tensor " + planned->second +
                "'s in " + g_plan->path + ", but this transfer reaches page " + std::to_string(page) + " of " +
                buffer.describe() + ": the accessor was built with another tensor's address");
}

}  // namespace tt_emu
