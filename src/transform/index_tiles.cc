// Index tiles (index_masks.h): a T.Parallel store that selects one of its element indices as a value (upstream
// top-k's `T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])`) reads that index from a
// constant table AddTTConstants adds: tile t holds p * ii + q * jj + step * t (the column index of the t-th tile
// column for j, the row index of the t-th tile row for i), filled by the host from its tt.constants `index` entry.
// The compute kernel copies, per block tile, the table tile of its tile column (row) into the index's block (a mask
// op, tile_ops_masks.cc's protocol), which the selection then reads as any block.
#include <algorithm>

#include "engine_common.h"
#include "records.h"
#include "index_masks.h"
#include "tile_ops_util.h"

namespace tl::masks {

int index_axis(const std::vector<Any>& lvars, const Any& value) {
  Any v = tileops::strip_casts(value);
  for (size_t k = 0; k < lvars.size(); ++k) {
    if (v.same_as(lvars[k])) return static_cast<int>(k);
  }
  return -1;
}

namespace rec_index = records::index_tile;

// The (axis, pages) an index table must serve for each index `store` (2-D) uses as a value: selected as a value
// (T.if_then_else(c, j, x)) or in arithmetic (retention's `T.exp2((row - col) * log_decay)`), not as a buffer index
// nor in a condition of indices only (an index mask's table serves those); a condition that reads a buffer is made
// as values (tile_ops_tree_select.cc: gdn's `G_diff[i, j] <= 0 and i > j`), its indices too.
std::vector<std::pair<int, int64_t>> selected_indices(const std::vector<Any>& lvars, const ir::BufferStore& store) {
  std::vector<std::pair<int, int64_t>> found;
  BufferInfo out = buffer_info(store.buffer());
  if (lvars.size() != 2 || out.shape.size() != 2) return found;
  auto [tile_rows, tile_cols] = tileops::tile_shape();
  std::vector<Any> values = {store.value()};
  while (!values.empty()) {
    Any value = values.back();
    values.pop_back();
    Any outside = map(value, {ir::rewrite<ir::TensorLoad>([](const ir::TensorLoad&) -> Any { return int_imm(0); }),
                              ir::rewrite<ir::Call>([&](const ir::Call& c) -> Any {
                                auto op = ir::Op::from(c.op());
                                if (!op || op->name() != "prim.if_then_else") return c.any();
                                bool reads = false;
                                walk(c.args()[0], {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad&) { reads = true; })});
                                if (reads) values.push_back(c.args()[0]);
                                values.push_back(c.args()[1]);
                                values.push_back(c.args()[2]);
                                return int_imm(0);
                              })}, "pre");
    walk(outside, {ir::visit<ir::Var>([&](const ir::Var& v) {
           int axis = index_axis(lvars, v.any());
           int64_t side = axis == 0 ? tile_rows : tile_cols;
           if (axis >= 0) found.emplace_back(axis, (out.shape[axis] + side - 1) / side);
         })});
  }
  return found;
}

bool is_index_table(const Dict& entry, int axis, int64_t pages, const std::string& dtype, const BufferInfo& info) {
  Any index = get(entry, records::tensor_constant::kIndex);
  if (index == nullptr || info.dtype != dtype) return false;
  Dict m = as_dict(index);
  return as_int(get(m, rec_index::kP)) == (axis == 0 ? 1 : 0) && as_int(get(m, rec_index::kQ)) == (axis == 1 ? 1 : 0) &&
         info.shape[0] / tileops::tile_shape().first >= pages;
}

std::pair<BufferInfo, int64_t> index_table_for(int axis, int64_t pages, const std::string& dtype) {
  const Any* func = current_tables();
  if (func == nullptr) internal_error("index tables looked up outside tile_ops()");
  Dict constants = attr_dict(*func, keys::kTtConstants);
  for (const BufferInfo& info : tensor_params(*func)) {
    Any entry = get(constants, info.name);
    if (entry != nullptr && is_index_table(as_dict(entry), axis, pages, dtype, info)) {
      return {info, info.shape[0] / tileops::tile_shape().first};
    }
  }
  internal_error("no index table of axis " + std::to_string(axis) + " (run AddTTConstants first)");
}

}  // namespace tl::masks

namespace tl::engines {

namespace rec_index = records::index_tile;

// AddTTConstants' index tables: one constant parameter `<prefix>_<n>` per (axis, pages, dtype) an element-wise store
// selects an index of as a value, with its tt.constants `index` entry. Whether it added any.
bool add_index_tables(const ir::PrimFunc& f, const std::string& prefix, List& func_params, Dict& constants) {
  auto [tile_rows, tile_cols] = tileops::tile_shape();
  std::vector<std::tuple<int, int64_t, std::string>> wanted;
  walk(f.body(), {ir::visit<ir::For>([&](const ir::For& loop) {
         auto nest = tileops::eltwise_nest(loop.any());
         if (!nest) return;
         std::vector<Any> lvars;
         for (const ir::For& l : nest->first) lvars.push_back(l.loop_var());
         std::string dtype = buffer_info(nest->second.buffer()).dtype;
         for (const auto& [axis, pages] : masks::selected_indices(lvars, nest->second)) {
           wanted.emplace_back(axis, pages, dtype);
         }
       })});
  bool added = false;
  for (const auto& [axis, pages, dtype] : wanted) {
    bool have = false;
    size_t tables = 0;
    for (const auto& [key, entry] : constants) {
      if (get(as_dict(entry), records::tensor_constant::kIndex) == nullptr) continue;
      ++tables;
      for (const Any& p : func_params) {
        BufferInfo info = buffer_info(p);
        have = have || (info.name == as_str(key) && masks::is_index_table(as_dict(entry), axis, pages, dtype, info));
      }
    }
    if (have) continue;
    std::string tensor = prefix + "_" + std::to_string(tables);
    for (const BufferInfo& info : tensor_params(f.any())) {
      if (info.name == tensor) {
        fail("kernel parameter '" + tensor + "' has the name of the index table the tenstorrent backend adds for "
             "a store selecting an element index as a value; rename the parameter");
      }
    }
    List extents = {int_imm(pages * tile_rows), int_imm(tile_cols)};
    Any type = call("tirx.BufferType", String("global"), String(dtype), extents, List(), int_imm(0), int64_t(64),
                    int64_t(1), Any(nullptr), List(), Any(nullptr));
    func_params.push_back(call("tirx.BufferVar", String(tensor), type, Any(nullptr)));
    Dict index = ordered({{rec_index::kP, Any(int64_t(axis == 0 ? 1 : 0))},
                          {rec_index::kQ, Any(int64_t(axis == 1 ? 1 : 0))},
                          {rec_index::kStep, Any(axis == 0 ? tile_rows : tile_cols)}});
    constants.Set(String(tensor), ordered({{records::tensor_constant::kValue, Any(0.0)},
                                           {records::tensor_constant::kRows, List()},
                                           {records::tensor_constant::kIndex, index}}));
    added = true;
  }
  return added;
}

}  // namespace tl::engines
