// The JSON run report ($TT_EMU_REPORT): status, the first error, per-core counters (summed over the
// programs the process ran), their total, and per-kernel JIT facts. Written atomically (tmp + rename).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "chips.hpp"
#include "emu.hpp"
#include "tt_emu/records.hpp"

namespace tt_emu {

namespace {

struct KernelInfo {
    std::string path;
    double seconds = 0.0;
    bool cached = false;
};

struct ReportState {
    std::mutex mu;
    std::map<std::pair<uint32_t, CoreCoord>, Counters> cores;  // by chip (0 on a single chip), then core
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

namespace rec = tl::records;  // the report's keys (specs/records/tt_report.yaml)

// `"key": ` of a JSON object member.
std::string key(const char* name) { return std::string("\"") + name + "\": "; }

void counters_json(std::ostream& os, const Counters& c) {
    for (int i = 0; i < kNumCounters; ++i) os << (i ? ", " : "") << '"' << kCounterNames[i] << "\": " << c[i];
}

}  // namespace

void report_add_core(const CoreCoord& core, const Counters& counters) {
    std::lock_guard<std::mutex> lk(state().mu);
    Counters& total = state().cores[{current_chip(), core}];
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
    os << "{\n  " << key(rec::report::kStatus) << '"' << (error ? "error" : "ok") << "\",\n  "
       << key(rec::report::kError) << (error ? json_string(line) : "null") << ",\n  " << key(rec::report::kDump)
       << (dump.empty() ? "null" : json_string(dump)) << ",\n  " << key(rec::report::kProfile)
       << json_string(std::getenv("TT_EMU_PROFILE") ? std::getenv("TT_EMU_PROFILE") : default_profile())
       << ",\n  " << key(rec::report::kDevice) << json_string(dev().name) << ",\n  " << key(rec::report::kPrograms) << state().programs << ",\n  " << key(rec::report::kRunSeconds)
       << state().seconds << ",\n  " << key(rec::report::kCores) << "[";
    Counters total{};
    std::map<uint32_t, Counters> devices;  // on a mesh of more than one chip (mesh_columns() > 0)
    const uint32_t cols = mesh_columns();
    auto device_json = [&](uint32_t chip, const char* name) {
        return key(name) + "[" + std::to_string(chip / cols) + ", " + std::to_string(chip % cols) + "], ";
    };
    bool first = true;
    for (auto& [at, c] : state().cores) {
        const auto& [chip, core] = at;
        os << (first ? "\n" : ",\n") << "    {" << (cols ? device_json(chip, rec::core_counters::kDevice) : "")
           << key(rec::core_counters::kCore) << "[" << core.x << ", " << core.y << "], ";
        counters_json(os, c);
        os << "}";
        for (int i = 0; i < kNumCounters; ++i) total[i] += c[i];
        if (cols) {
            Counters& d = devices[chip];
            for (int i = 0; i < kNumCounters; ++i) d[i] += c[i];
        }
        first = false;
    }
    os << "\n  ],\n  " << key(rec::report::kTotal) << "{";
    counters_json(os, total);
    if (cols) {
        os << "},\n  " << key(rec::report::kDevices) << "[";
        first = true;
        for (auto& [chip, c] : devices) {
            os << (first ? "\n" : ",\n") << "    {" << device_json(chip, rec::device_counters::kDevice);
            counters_json(os, c);
            os << "}";
            first = false;
        }
        os << "\n  ]";
    } else {
        os << "}";
    }
    os << ",\n  " << key(rec::report::kKernels) << "{";
    first = true;
    for (auto& [name, k] : state().kernels) {
        os << (first ? "\n" : ",\n") << "    " << json_string(name) << ": {" << key(rec::kernel_build::kPath)
           << json_string(k.path) << ", " << key(rec::kernel_build::kCompileSeconds) << k.seconds << ", "
           << key(rec::kernel_build::kCached) << (k.cached ? "true" : "false") << "}";
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
