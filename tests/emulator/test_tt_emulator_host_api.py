"""The emulator's host API where tt-metal's own programs reach beyond what the generated host programs use: L1
buffers (kernel scratch, allocated from the top of L1 down; CBs must stay below them; the host cannot read or
write them, with the reason), and the run-time conventions of tt-metal's headers (TT_FATAL's message, fmt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelang.tenstorrent import emulator

PRELUDE = """
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/work_split.hpp>
using namespace tt::tt_metal;
"""


def _run(tmp_path: Path, body: str) -> dict:
    main = tmp_path / "main.cpp"
    main.write_text(PRELUDE + "int main() {\n" + body + "\n}\n")
    return emulator.run(emulator.build_host(main), [])


def test_host_writes_to_an_l1_buffer_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=r"EnqueueWriteBuffer: L1 buffer 0x[0-9a-f]+ \(1 pages of "
                                                       r"2048 B\): the emulator models interleaved L1 buffers as "
                                                       r"kernel scratch"):
        _run(tmp_path, """
    IDevice* device = CreateDevice(0);
    auto l1 = CreateBuffer(InterleavedBufferConfig{device, 2048, 2048, BufferType::L1});
    std::vector<uint32_t> data(512, 1);
    EnqueueWriteBuffer(device->command_queue(), l1, data, true);
""")


def test_l1_buffers_are_allocated_from_the_top_of_l1_and_cbs_stay_below(tmp_path: Path) -> None:
    """64 worker cores hold one page of 2 KiB each of a 64-page buffer; a CB that would reach it is refused."""
    with pytest.raises(emulator.TTEmulatorError,
                       match=r"CreateCircularBuffer: CB c_0 \(1499136 B\) does not fit in the L1 of core \(0,0\): "
                             r"0 B are already used by CBs and the limit is 1497088 B "
                             r"\(1464 KiB less the L1 buffers\)"):
        _run(tmp_path, """
    IDevice* device = CreateDevice(0);
    auto l1 = CreateBuffer(InterleavedBufferConfig{device, 64 * 2048, 2048, BufferType::L1});
    TT_FATAL(l1->address() == 1464 * 1024 - 2048, "L1 buffer at {}", l1->address());
    TT_FATAL(l1->buffer_type() == BufferType::L1, "an L1 buffer");
    Program program = CreateProgram();
    CreateCircularBuffer(program, CoreCoord{0, 0}, CircularBufferConfig(1464 * 1024, {{0, tt::DataFormat::Float16_b}})
                                                       .set_page_size(0, 1464 * 1024));
""")


def test_tt_fatal_throws_its_formatted_message(tmp_path: Path) -> None:
    report = _run(tmp_path, """
    try {
        TT_FATAL(2 + 2 == 5, "arithmetic: {} + {} is not {:.1f}", 2, 2, 5.0);
    } catch (const std::runtime_error& e) {
        fmt::print("{}\\n", e.what());
        return 0;
    }
    return 1;
""")
    assert "2 + 2 == 5" in report["stdout"] and "arithmetic: 2 + 2 is not 5.0" in report["stdout"]


@pytest.mark.parametrize(("fmt_call", "printed"), [
    ('fmt::format("{:>6}|{:<4}|{:^5}|", 42, "ab", "c")', "    42|ab  |  c  |"),
    ('fmt::format("{:08.3f} {:x} {:#X} {:b}", -3.14159, 255, 255, 5)', "-003.142 ff 0XFF 101"),
    ('fmt::format("{1} {0} {{}}", "a", "b")', "b a {}"),
    ('fmt::format("{} {} {}", true, (unsigned char)7, \'c\')', "true 7 c"),
    ('fmt::format("[{}]", fmt::join(std::vector<int>{1, 2, 3}, ", "))', "[1, 2, 3]"),
    ('fmt::format("{}", bfloat16(1.00390625f))', "1"),  # round to nearest even: 1 + 2^-8 is a tie
    ('fmt::format("{}", bfloat16(1.01171875f))', "1.01562"),  # 1 + 3 * 2^-8 rounds up to 1 + 2^-6
])
def test_fmt_formats_as_fmt_does(tmp_path: Path, fmt_call: str, printed: str) -> None:
    report = _run(tmp_path, f'std::string s = {fmt_call}; std::printf("%s\\n", s.c_str()); return 0;')
    assert report["stdout"] == printed + "\n"


@pytest.mark.parametrize(("grid", "units", "row_wise", "expected"), [
    # 100 units on 64 cores: the first 36 (down the columns) take 2, the other 28 take 1.
    ("8, 8", 100, "false", "64 [(0,0)-(7,7)] [(0,0)-(3,7) (4,0)-(4,3)] [(4,4)-(4,7) (5,0)-(7,7)] 2 1"),
    ("8, 8", 100, "true", "64 [(0,0)-(7,7)] [(0,0)-(7,3) (0,4)-(3,4)] [(4,4)-(7,4) (0,5)-(7,7)] 2 1"),
    ("8, 8", 10, "false", "10 [(0,0)-(0,7) (1,0)-(1,1)] [(0,0)-(0,7) (1,0)-(1,1)] [] 1 0"),
    ("8, 8", 128, "false", "64 [(0,0)-(7,7)] [(0,0)-(7,7)] [] 2 0"),
    ("8, 8", 0, "false", "0 [] [] [] 0 0"),
])
def test_split_work_to_cores_partitions_as_tt_metal_does(tmp_path: Path, grid: str, units: int, row_wise: str,
                                                         expected: str) -> None:
    report = _run(tmp_path, f"""
    auto show = [](const CoreRangeSet& s) {{
        std::string out = "[";
        for (const auto& r : s.ranges())
            out += fmt::format("{{}}({{}},{{}})-({{}},{{}})", out.size() > 1 ? " " : "", r.start_coord.x,
                               r.start_coord.y, r.end_coord.x, r.end_coord.y);
        return out + "]";
    }};
    auto [n, all, g1, g2, u1, u2] = split_work_to_cores(CoreCoord{{{grid}}}, {units}, {row_wise});
    fmt::print("{{}} {{}} {{}} {{}} {{}} {{}}\\n", n, show(all), show(g1), show(g2), u1, u2);
    auto cores = corerange_to_cores(all, std::nullopt, {row_wise});
    TT_FATAL(cores.size() == n, "{{}} cores listed, {{}} used", cores.size(), n);
    for (const auto& c : cores)
        TT_FATAL(g1.contains(c) != g2.contains(c), "core {{}} in both groups or neither", c.str());
    return 0;
""")
    assert report["stdout"] == expected + "\n"


def test_a_core_range_iterates_row_after_row_and_cores_print_as_tt_metal_prints_them(tmp_path: Path) -> None:
    report = _run(tmp_path, """
    std::vector<CoreCoord> seen;
    for (const CoreCoord& core : CoreRange({1, 2}, {2, 3})) seen.push_back(core);
    fmt::print("{}\\n", fmt::join(seen, " "));
    return 0;
""")
    assert report["stdout"] == "(x=1,y=2) (x=2,y=2) (x=1,y=3) (x=2,y=3)\n"


def test_the_headers_tt_metals_matmul_examples_include(tmp_path: Path) -> None:
    """matmul_common/bmm_op.hpp restates `using CoreCoord = tt_xy_pair;` (UMD's xy_pair.hpp): the alias names the
    emulator's CoreCoord, so both compile together; util.hpp's bytes per bank (pages round-robin over the banks, each
    at the page size aligned up) and preferred DRAM NoCs; hostdevcommon/kernel_structs.h's CB names on the host."""
    main = tmp_path / "main.cpp"
    main.write_text("""
#include <type_traits>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/util.hpp>
#include <tt-metalium/tt_backend_api_types.hpp>
#include <umd/device/types/xy_pair.hpp>
#include "hostdevcommon/kernel_structs.h"
using CoreCoord = tt_xy_pair;
using namespace tt::tt_metal;
static_assert(std::is_same_v<CoreCoord, tt::tt_metal::CoreCoord> && tt::CBIndex::c_16 == tt::CB::c_out0);
int main() {
    fmt::print("{} {} {} {}\\n", detail::SizeBytesPerBank(30 * 20, 20, 12, 32), detail::SizeBytesPerBank(0, 0, 12, 32),
               int(detail::GetPreferredNOCForDRAMRead(tt::ARCH::WORMHOLE_B0)),
               int(detail::GetPreferredNOCForDRAMWrite(tt::ARCH::WORMHOLE_B0)));
    return 0;
}
""")
    # 30 pages of 20 B over 12 banks: 3 pages in the fullest bank, each at 32 B.
    assert emulator.run(emulator.build_host(main), [])["stdout"] == "96 0 0 1\n"


def test_a_core_range_set_from_a_std_set_and_the_values_tt_metal_hpp_brings(tmp_path: Path) -> None:
    """tt-metal's reduce_max_mcast builds its receivers' CoreRangeSet from a std::set<CoreRange> (ordered by start,
    then end, as core_coord.hpp orders ranges; cores x first, as umd's xy_pair orders them); its mcast matmul host
    creates semaphores INVALID, which tt_metal.hpp brings in (hostdevcommon/common_values.hpp)."""
    main = tmp_path / "main.cpp"
    main.write_text("""
#include <set>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tt_metal.hpp>
using namespace tt::tt_metal;
int main() {
    std::set<CoreRange> ranges{CoreRange({3, 2}, {3, 3}), CoreRange({0, 0}, {1, 0}), CoreRange({1, 1})};
    CoreRangeSet set(ranges);
    for (const CoreCoord& c : std::set<CoreCoord>{{2, 0}, {0, 1}, {1, 1}}) fmt::print("{} ", c);
    for (const CoreRange& r : set.ranges()) fmt::print("{}-{} ", r.start_coord, r.end_coord);
    fmt::print("{} {} {}\\n", set.num_cores(), INVALID, VALID);
    return 0;
}
""")
    expected = "(x=0,y=1) (x=1,y=1) (x=2,y=0) (x=0,y=0)-(x=1,y=0) (x=1,y=1)-(x=1,y=1) (x=3,y=2)-(x=3,y=3) 5 0 1\n"
    assert emulator.run(emulator.build_host(main), [])["stdout"] == expected
