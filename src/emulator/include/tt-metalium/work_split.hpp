// tt_emu: tt-metal's work partitioning (tt_metal/api/tt-metalium/work_split.hpp), as its programs use it.
// split_work_to_cores(grid, units, row_wise) takes min(units, grid cores) cores in order - down each column, column
// after column (row_wise: along each row, row after row) - and gives each units / cores units; when that does not
// divide, the first units % cores of them (core_group_1) take one more and the rest form core_group_2. It returns
// (cores used, all of them, core_group_1, core_group_2, units per core of group 1, of group 2); units == 0 gives
// (0, {}, {}, {}, 0, 0). A run of cores in that order is a CoreRangeSet of at most three ranges: a partial
// column (row), the full ones, a partial one, as num_cores_to_corerangeset builds it.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "tt-metalium/host_api.hpp"

namespace tt::tt_metal {

namespace detail {
// The `count` cores from `start` on, in column (row_wise: row) order, as ranges.
inline CoreRangeSet core_run(CoreCoord start, uint32_t count, CoreCoord grid, bool row_wise) {
    const std::size_t line = row_wise ? grid.x : grid.y;  // cores along one column (row)
    auto along = [&](const CoreCoord& c) { return row_wise ? c.x : c.y; };
    auto across = [&](const CoreCoord& c) { return row_wise ? c.y : c.x; };
    auto at = [&](std::size_t a, std::size_t b) { return row_wise ? CoreCoord{a, b} : CoreCoord{b, a}; };
    const std::size_t first = across(start) * line + along(start);
    TT_FATAL(along(start) < line && across(start) < (row_wise ? grid.y : grid.x), "start core {} is outside the grid",
             start.str());
    TT_FATAL(first + count <= std::size_t{grid.x} * grid.y, "{} cores from {} do not fit in the {}x{} grid", count,
             start.str(), grid.x, grid.y);
    std::vector<CoreRange> ranges;
    std::size_t next = first, left = count;
    if (left > 0 && next % line != 0 && left > line - next % line) {  // a partial column (row) first
        ranges.emplace_back(at(next % line, next / line), at(line - 1, next / line));
        left -= line - next % line;
        next += line - next % line;
    }
    if (left > line) {  // whole columns (rows)
        const std::size_t lines = left / line;
        ranges.emplace_back(at(0, next / line), at(line - 1, next / line + lines - 1));
        next += lines * line;
        left -= lines * line;
    }
    if (left > 0) ranges.emplace_back(at(next % line, next / line), at(next % line + left - 1, next / line));
    return CoreRangeSet(ranges);
}
}  // namespace detail

inline CoreRangeSet num_cores_to_corerangeset(CoreCoord start_core, uint32_t target_num_cores, CoreCoord grid_size,
                                              bool row_wise = false) {
    return detail::core_run(start_core, target_num_cores, grid_size, row_wise);
}

inline CoreRangeSet num_cores_to_corerangeset(uint32_t target_num_cores, CoreCoord grid_size, bool row_wise = false) {
    return detail::core_run({0, 0}, target_num_cores, grid_size, row_wise);
}

inline std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    CoreCoord grid_size, uint32_t units_to_divide, bool row_wise = false) {
    if (units_to_divide == 0) return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    const uint32_t max_cores = static_cast<uint32_t>(grid_size.x * grid_size.y);
    const uint32_t cores = units_to_divide < max_cores ? units_to_divide : max_cores;
    const CoreRangeSet all = detail::core_run({0, 0}, cores, grid_size, row_wise);
    const uint32_t base = units_to_divide / cores, more = units_to_divide % cores;
    if (more == 0) return {cores, all, all, CoreRangeSet(), base, 0};
    const CoreRangeSet group_1 = detail::core_run({0, 0}, more, grid_size, row_wise);
    const std::size_t line = row_wise ? grid_size.x : grid_size.y;
    const CoreCoord start_2 = row_wise ? CoreCoord{more % line, more / line} : CoreCoord{more / line, more % line};
    const CoreRangeSet group_2 = detail::core_run(start_2, cores - more, grid_size, row_wise);
    return {cores, all, group_1, group_2, base + 1, base};
}

// The cores of a CoreRangeSet, range after range, each range in row (row_wise) or column order; at most max_cores.
inline std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores = {},
                                                 bool row_wise = false) {
    std::vector<CoreCoord> out;
    for (const CoreRange& r : crs.ranges()) {
        if (row_wise) {
            for (std::size_t y = r.start_coord.y; y <= r.end_coord.y; ++y)
                for (std::size_t x = r.start_coord.x; x <= r.end_coord.x; ++x) out.push_back({x, y});
        } else {
            for (std::size_t x = r.start_coord.x; x <= r.end_coord.x; ++x)
                for (std::size_t y = r.start_coord.y; y <= r.end_coord.y; ++y) out.push_back({x, y});
        }
    }
    if (max_cores && out.size() > *max_cores) out.resize(*max_cores);
    return out;
}

}  // namespace tt::tt_metal
