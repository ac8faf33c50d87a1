// The JSON run report ($TT_EMU_REPORT): status, the first error, per-core counters (summed over the
// programs the process ran), their total, and per-kernel JIT facts. Written atomically (tmp + rename).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "emu.hpp"

namespace tt_emu {

const char* const kCounterNames[kNumCounters] = {
    "dram_bytes_read", "dram_bytes_written", "noc_reads",  "noc_writes", "read_barriers",
    "write_barriers",  "matmul_tiles",       "eltwise_tiles", "sfpu_tiles", "copy_tiles",
    "pack_tiles",      "cb_pushes",          "cb_pops",    "cb_pages_pushed", "noc_multicast_writes",
    "noc_multicast_bytes", "noc_multicast_linked_bytes", "semaphore_incs", "semaphore_multicasts", "semaphore_waits"};

namespace {

struct KernelInfo {
    std::string path;
    double seconds = 0.0;
    bool cached = false;
};

struct ReportState {
    std::mutex mu;
    std::map<CoreCoord, Counters> cores;
    std::map<std::string, KernelInfo> kernels;  // by name (file stem; "#2" etc. when stems repeat)
    int programs = 0;
    double seconds = 0.0;
};
ReportState& state() {
    static ReportState* s = new ReportState;
    return *s;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out + "\"";
}

void counters_json(std::ostream& os, const Counters& c) {
    for (int i = 0; i < kNumCounters; ++i) os << (i ? ", " : "") << '"' << kCounterNames[i] << "\": " << c[i];
}

}  // namespace

void report_add_core(const CoreCoord& core, const Counters& counters) {
    std::lock_guard<std::mutex> lk(state().mu);
    Counters& total = state().cores[core];
    for (int i = 0; i < kNumCounters; ++i) total[i] += counters[i];
}

void report_add_kernel(const std::string& name, const KernelBinary& binary) {
    std::lock_guard<std::mutex> lk(state().mu);
    std::string key = name;
    for (int n = 2; state().kernels.count(key) && state().kernels[key].path != binary.path; ++n) {
        key = name + "#" + std::to_string(n);
    }
    state().kernels[key] = KernelInfo{binary.path, binary.seconds, binary.cached};
}

void report_program_done(double seconds) {
    std::lock_guard<std::mutex> lk(state().mu);
    state().programs += 1;
    state().seconds += seconds;
}

void write_report(const std::string* error) {
    const char* path = std::getenv("TT_EMU_REPORT");
    if (!path || !*path) return;
    std::lock_guard<std::mutex> lk(state().mu);
    std::ostringstream os;
    // "error" is the one-line diagnosis, "dump" the core state that follows it.
    std::string line, dump;
    if (error) {
        const size_t nl = error->find('\n');
        line = error->substr(0, nl);
        dump = nl == std::string::npos ? "" : error->substr(nl + 1);
    }
    os << "{\n  \"status\": \"" << (error ? "error" : "ok") << "\",\n  \"error\": "
       << (error ? json_string(line) : "null") << ",\n  \"dump\": " << (dump.empty() ? "null" : json_string(dump))
       << ",\n  \"profile\": "
       << json_string(std::getenv("TT_EMU_PROFILE") ? std::getenv("TT_EMU_PROFILE") : TT_EMU_DEFAULT_PROFILE)
       << ",\n  \"programs\": " << state().programs << ",\n  \"run_seconds\": " << state().seconds
       << ",\n  \"cores\": [";
    Counters total{};
    bool first = true;
    for (auto& [core, c] : state().cores) {
        os << (first ? "\n" : ",\n") << "    {\"core\": [" << core.x << ", " << core.y << "], ";
        counters_json(os, c);
        os << "}";
        for (int i = 0; i < kNumCounters; ++i) total[i] += c[i];
        first = false;
    }
    os << "\n  ],\n  \"total\": {";
    counters_json(os, total);
    os << "},\n  \"kernels\": {";
    first = true;
    for (auto& [name, k] : state().kernels) {
        os << (first ? "\n" : ",\n") << "    " << json_string(name) << ": {\"path\": " << json_string(k.path)
           << ", \"compile_seconds\": " << k.seconds << ", \"cached\": " << (k.cached ? "true" : "false") << "}";
        first = false;
    }
    os << "\n  }\n}\n";
    const std::string tmp = std::string(path) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << os.str();
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
}

void exit_with_error(int code, const std::string& text) {
    std::fputs(text.c_str(), stderr);
    if (!text.empty() && text.back() != '\n') std::fputc('\n', stderr);
    write_report(&text);
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(code);
}

}  // namespace tt_emu
