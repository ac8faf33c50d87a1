// Index masks (index_masks.h): the condition of a T.if_then_else store as p * i + q * j + r >= 0 over its element
// indices, its tile table, and the index_masks engine of AddTTConstants (fold what the analyzer proves constant over
// the block, add a table for the rest).
#include "index_masks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "engine_common.h"
#include "tile_dataflow.h"
#include "tile_ops_util.h"
#include "records.h"

namespace tl::masks {
namespace im = records::index_mask;

namespace {

using tileops::constant_of;
using tileops::strip_casts;

std::string cond_text(const Any& cond) { return "condition " + format_value(cond); }

// A table value: a constant (+-inf included).
std::optional<double> value_of(const Any& e) { return constant_of(e); }

using Refuse = std::function<void(const std::string&)>;

// The values: two constants, or a buffer against +-inf (an added 0/inf table) or 0 (a multiplied 1/0 table).
void mask_values(IndexMask& mask, const Refuse& refuse) {
  auto t = value_of(mask.then_value), e = value_of(mask.else_value);
  if (t && e) {
    mask.on_true = *t, mask.on_false = *e;
    return;
  }
  if (!t && !e) {
    // x * a against x * b (TileLang's if_range test: A * 2.0 inside the guard, A * 0.5 outside): x times an a/b table.
    auto scaled = [](const Any& v) -> std::optional<std::pair<Any, double>> {
      auto mul = ir::Mul::from(strip_casts(v));
      if (!mul) return std::nullopt;
      for (bool left : {true, false}) {
        auto c = value_of(left ? mul->b() : mul->a());
        Any x = strip_casts(left ? mul->a() : mul->b());
        if (c && ir::TensorLoad::matches(x)) return std::make_pair(x, *c);
      }
      return std::nullopt;
    };
    auto a = scaled(mask.then_value), b = scaled(mask.else_value);
    if (a && b && call("ffi.StructuralEqual", a->first, b->first, false, false).cast<bool>()) {
      mask.operand = a->first, mask.combine = "mul", mask.on_true = a->second, mask.on_false = b->second;
      return;
    }
    refuse("selects between two buffer values; the tenstorrent backend lowers a mask between two constants, "
           "between a buffer value and -inf, +inf or 0, or between x * a and x * b (a, b constants)");
  }
  double c = t ? *t : *e;
  Any operand = strip_casts(t ? mask.else_value : mask.then_value);
  // A value computed from the element indices (retention's decay s[row, col] * T.exp2((row - col) * log_decay)) is
  // made by the ops of its expression tree (tile_ops_masks.cc), then masked as a buffer value.
  mask.operand = operand;
  if (std::isinf(c)) {
    mask.combine = "add";
    mask.on_true = t ? c : 0.0, mask.on_false = t ? 0.0 : c;
  } else if (c == 0.0) {
    mask.combine = "mul";
    mask.on_true = t ? 0.0 : 1.0, mask.on_false = t ? 1.0 : 0.0;
  } else {
    refuse("selects a buffer value against the constant " + format_value(t ? mask.then_value : mask.else_value) +
           "; against a buffer value the tenstorrent backend lowers -inf, +inf (an added 0/inf tile) and 0 (a "
           "multiplied 1/0 tile)");
  }
}

}  // namespace

std::optional<IndexMask> index_mask(const std::vector<Any>& lvars, const Any& store_any, int64_t max_coefficient) {
  ir::BufferStore store(store_any);
  Any value = strip_casts(store.value());
  auto ite = ir::Call::from(value);
  auto callee = ite ? ir::Op::from(ite->op()) : std::nullopt;
  if (!callee || callee->name() != "prim.if_then_else") return std::nullopt;
  BufferInfo out = buffer_info(store.buffer());
  IndexMask mask;
  mask.text = out.name + "[...] = " + format_value(store.value());
  mask.dtype = out.dtype;
  Any cond = ite->args()[0];
  // A condition reading on-chip blocks compares values (tile_ops_tree.cc selects by it), not indices.
  bool values = false;
  walk(cond, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         BufferInfo info = buffer_info(load.source());
         int64_t elems = 1;
         for (int64_t e : info.shape) elems *= e;
         values = values || (info.on_chip() && elems > 1);
       })});
  if (values) return std::nullopt;
  mask.then_value = ite->args()[1];
  mask.else_value = ite->args()[2];
  Refuse refuse = [&](const std::string& why) {
    fail("element-wise store '" + mask.text + "': " + cond_text(cond) + " " + why);
  };
  Any i = lvars.empty() ? Any(nullptr) : lvars[0];
  Any j = lvars.size() > 1 ? lvars[1] : Any(nullptr);
  Form form = form_of(cond, i, j, refuse);
  if (std::abs(form.p) > max_coefficient || std::abs(form.q) > max_coefficient) {
    refuse("has coefficient " + std::to_string(std::abs(form.p) > max_coefficient ? form.p : form.q) +
           " on an element index; the tenstorrent backend's mask tables cover coefficients of magnitude up to " +
           std::to_string(max_coefficient) + " (rows, columns, diagonals)");
  }
  int64_t tile_side = std::gcd(tileops::tile_shape().first, tileops::tile_shape().second);
  if (tile_side % form.div != 0) {
    refuse("divides the element indices by " + std::to_string(form.div) + ", which does not divide the tile's side " +
           std::to_string(tile_side) + " (the tenstorrent backend's mask tables hold i // d for d dividing it, or "
           "what the analyzer folds: i // 64 with i < 64 is 0)");
  }
  // One int32 value read from a DRAM tensor may move the bound (nsa's `i_t >= BlockIndices[...] * BS + j`, a key
  // length `j >= lens[b]`): the compute kernel reads it from a tile the reader pushes (tile_ops_gather.cc). In a
  // T.Parallel nest the element is already staged on chip, a one-element buffer (loop_dram_element.cc).
  int reads = 0;
  std::string bad;
  walk(form.r, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         BufferInfo info = buffer_info(load.source());
         ++reads;
         int64_t elems = 1;
         for (int64_t e : info.shape) elems *= e;
         bool value = (!info.on_chip() || elems == 1) && (info.dtype == "int32" || info.dtype == "uint32");
         for (const Any& index : load.indices()) {
           walk(index, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad&) { value = false; })});
         }
         if (!value && bad.empty()) bad = info.name;
       })});
  if (!bad.empty() || reads > 1) {
    refuse("reads " + (bad.empty() ? std::to_string(reads) + " values of tensors" : "'" + bad + "'") +
           "; an index mask's condition may use block indices, loop variables, constants and one int32 value of a "
           "DRAM tensor read at such indices");
  }
  mask.form = form;
  auto index = [&](const Any& v) { return form.div == 1 ? v : fn::floordiv(v, Any(form.div)); };
  Any lin = fn::add(fn::add(i != nullptr ? fn::mul(index(i), Any(form.p)) : Any(int64_t(0)),
                            j != nullptr ? fn::mul(index(j), Any(form.q)) : Any(int64_t(0))),
                    form.r);
  mask.lin = fn::expr(lin);
  if (form.p == 0 && form.q == 0 && ir::IntImm::from(form.r)) return mask;  // a constant: folded (index_masks)
  mask_values(mask, refuse);
  return mask;
}

Table table_of(const Form& form, int64_t tile_rows, int64_t tile_cols, int64_t step, int64_t residue) {
  int64_t rows = tile_rows / form.div, cols = tile_cols / form.div;  // i // div takes `rows` values in a tile
  int64_t lo = std::min<int64_t>(form.p, 0) * (rows - 1) + std::min<int64_t>(form.q, 0) * (cols - 1);
  int64_t hi = std::max<int64_t>(form.p, 0) * (rows - 1) + std::max<int64_t>(form.q, 0) * (cols - 1);
  // o <= -hi - 1: no element holds; o >= -lo: every element holds (a band: o > width - lo holds none again). The
  // first offset of the residue at or below the all-false one, then steps until one at or above the all-true one
  // (a band: the all-false one above it).
  int64_t none = -hi - 1, all = form.width < 0 ? -lo : form.width - lo + 1;
  int64_t first = none - (((none - residue) % step) + step) % step;
  int64_t pages = (all - first + step - 1) / step + 1;
  return Table{first, step, pages};
}

Dict mask_entry(const IndexMask& mask, const Table& table) {
  return ordered({{im::kP, Any(mask.form.p)}, {im::kQ, Any(mask.form.q)}, {im::kDiv, Any(mask.form.div)},
                  {im::kWidth, Any(mask.form.width)}, {im::kFirst, Any(table.first)},
                  {im::kStep, Any(table.step)}, {im::kOnTrue, Any(mask.on_true)}, {im::kOnFalse, Any(mask.on_false)}});
}

bool is_table_of(const Dict& constant, const IndexMask& mask, const Table& table) {
  Any entry = get(constant, records::tensor_constant::kMask);
  if (entry == nullptr) return false;
  Dict m = as_dict(entry);
  auto same = [](const Any& a, double b) {
    double x = as_float(a);
    return x == b || (std::isnan(x) && std::isnan(b));
  };
  return as_int(get(m, im::kP)) == mask.form.p && as_int(get(m, im::kQ)) == mask.form.q &&
         as_int(get(m, im::kDiv)) == mask.form.div && as_int(get(m, im::kWidth)) == mask.form.width &&
         as_int(get(m, im::kFirst)) == table.first && as_int(get(m, im::kStep)) == table.step &&
         same(get(m, im::kOnTrue), mask.on_true) && same(get(m, im::kOnFalse), mask.on_false);
}

namespace {
const Any* tables_now = nullptr;
}  // namespace

const Any* current_tables() { return tables_now; }
MaskTables::MaskTables(const Any& func) : func_(func) { tables_now = &func_; }
MaskTables::~MaskTables() { tables_now = nullptr; }

std::pair<BufferInfo, Table> table_for(const IndexMask& mask, const Any& annotation) {
  if (tables_now == nullptr) internal_error("index-mask tables looked up outside tile_ops()");
  Dict constants = attr_dict(*tables_now, keys::kTtConstants);
  if (annotation != nullptr) {
    for (const BufferInfo& info : tensor_params(*tables_now)) {
      Any entry = get(constants, info.name);
      if (info.name != as_str(annotation) || entry == nullptr) continue;
      Dict m = as_dict(get(as_dict(entry), records::tensor_constant::kMask));
      Table table{as_int(get(m, im::kFirst)), as_int(get(m, im::kStep)), 0};
      table.pages = info.shape[0] / tileops::tile_shape().first;
      return {info, table};
    }
  }
  internal_error("no index-mask table for '" + mask.text + "' (run AddTTConstants first)");
}

}  // namespace tl::masks

namespace tl::engines {
namespace tc = records::tensor_constant;

namespace {

struct Nest {
  Any loop;
  masks::IndexMask mask;
};

// The element-wise nests with an index mask, outermost loops only (the walk may see an inner loop of a nest first).
std::vector<Nest> masked_nests(const ir::PrimFunc& f, int64_t max_coefficient) {
  std::vector<std::pair<Any, std::vector<ir::For>>> found;
  walk(f.body(), {ir::visit<ir::For>([&](const ir::For& loop) {
         if (auto nest = tileops::eltwise_nest(loop.any())) found.emplace_back(loop.any(), nest->first);
       })});
  std::vector<Nest> nests;
  for (const auto& [loop, loops] : found) {
    bool inner = false;
    for (const auto& [other, other_loops] : found) {
      for (size_t d = 1; d < other_loops.size(); ++d) inner = inner || other_loops[d].same_as(loop);
    }
    if (inner) continue;
    auto nest = tileops::eltwise_nest(loop);
    std::vector<Any> lvars;
    for (const ir::For& l : nest->first) lvars.push_back(l.loop_var());
    if (auto mask = masks::index_mask(lvars, nest->second.any(), max_coefficient)) nests.push_back({loop, *mask});
  }
  return nests;
}

// What the analyzer knows: the range of every launch index and loop variable, and every bound value. A variable
// bound twice (one Var object in two loops) stays unbound: its range is not one range.
Any bound_analyzer(const ir::PrimFunc& f) {
  std::vector<std::pair<Any, Any>> launches, bindings;
  walk(f.body(), {ir::visit<ir::AttrStmt>([&](const ir::AttrStmt& stmt) {
                    if (auto launch = launch_of(stmt)) {
                      launches.emplace_back(launch->var().any(), call("ir.Range_from_min_extent", int_imm(0),
                                                                      stmt.value().any(), Any(nullptr)));
                    }
                  }),
                  ir::visit<ir::Bind>([&](const ir::Bind& b) {
                    bindings.emplace_back(b.var().any(), b.value().any());
                  }),
                  ir::visit<ir::For>([&](const ir::For& loop) {
                    bindings.emplace_back(loop.loop_var().any(), call("ir.Range_from_min_extent", loop.min().any(),
                                                                      loop.extent().any(), Any(nullptr)));
                  })});
  Any analyzer = call("sym.Analyzer");
  launches.insert(launches.end(), bindings.begin(), bindings.end());
  for (const auto& [v, range] : launches) {
    size_t n = std::count_if(launches.begin(), launches.end(), [&](const auto& b) { return b.first.same_as(v); });
    if (n == 1) call("sym.AnalyzerBind", analyzer, v, range, false);
  }
  return analyzer;
}

// The nest with its T.if_then_else replaced by the branch the analyzer proves always holds, if one does.
std::optional<Any> folded_nest(const Nest& nest, const Any& analyzer) {
  const masks::IndexMask& m = nest.mask;
  auto proves = [&](const Any& e) { return truthy(call("sym.AnalyzerCanProve", analyzer, e, 0)); };
  std::optional<Any> branch;
  Any below = call("prim._OpLT", m.lin, int_imm(0), Any(nullptr)), above = Any(nullptr);
  Any within = call("prim._OpGE", m.lin, int_imm(0), Any(nullptr));
  if (m.form.width >= 0) {  // a band: also lin <= width
    above = call("prim._OpGT", m.lin, int_imm(m.form.width), Any(nullptr));
    within = call("prim.And", within, call("prim._OpLE", m.lin, int_imm(m.form.width), Any(nullptr)), Any(nullptr));
  }
  if (proves(within)) branch = m.then_value;
  else if (proves(below) || (above != nullptr && proves(above))) branch = m.else_value;
  if (!branch) return std::nullopt;
  return map(nest.loop, {ir::rewrite<ir::Call>([&](const ir::Call& c) -> Any {
               auto op = ir::Op::from(c.op());
               return op && op->name() == "prim.if_then_else" ? *branch : c.any();
             })});
}

// The table a mask reads: an existing one of the same (form, values, dtype), else a new parameter `<prefix>_<n>`
// whose tt.constants entry the host fills.
std::string table_for(const masks::IndexMask& m, const Any& analyzer, int64_t tile_rows, int64_t tile_cols,
                      const std::string& prefix, const Any& func, List& func_params, Dict& constants) {
  // Every offset r + 32 (p R + q C) of the store is one residue modulo the tile where r % 32 simplifies to a
  // constant (block sizes and past_len multiples of 32 in causal attention): the table needs those offsets only.
  int64_t step = std::gcd(tile_rows, tile_cols) / m.form.div, residue = 0;
  Any mod = call("sym.AnalyzerSimplify", analyzer,
                 call("prim._OpFloorMod", fn::expr(m.form.r), int_imm(step), Any(nullptr)), 2);
  if (auto c = ir::IntImm::from(mod)) {
    residue = c->value();
  } else {
    step = 1;
  }
  masks::Table table = masks::table_of(m.form, tile_rows, tile_cols, step, residue);
  for (const auto& [key, entry] : constants) {
    if (masks::is_table_of(as_dict(entry), m, table)) return as_str(key);
  }
  size_t tables = 0;
  for (const auto& [key, entry] : constants) tables += get(as_dict(entry), tc::kMask) != nullptr ? 1 : 0;
  std::string tensor = prefix + "_" + std::to_string(tables);
  for (const BufferInfo& info : tensor_params(func)) {
    if (info.name == tensor) {
      fail("kernel parameter '" + tensor + "' has the name of the index-mask table the tenstorrent backend adds "
           "for '" + m.text + "'; rename the parameter");
    }
  }
  List extents = {int_imm(table.pages * tile_rows), int_imm(tile_cols)};
  Any type = call("tirx.BufferType", String("global"), String(m.dtype), extents, List(), int_imm(0), int64_t(64),
                  int64_t(1), Any(nullptr), List(), Any(nullptr));
  func_params.push_back(call("tirx.BufferVar", String(tensor), type, Any(nullptr)));
  constants.Set(String(tensor), ordered({{tc::kValue, Any(0.0)}, {tc::kRows, List()}, {tc::kMask, masks::mask_entry(m, table)}}));
  return tensor;
}

}  // namespace

// AddTTConstants' index masks: fold a store the analyzer proves constant over the block (every block index, loop
// variable and element index in its range) into the branch that always holds; add one constant table per other
// (form, values, dtype), a parameter the host fills from its tt.constants `mask` entry.
Any index_masks(const std::string& name, const Dict& options, const IndexMasksParams& params) {
  std::string prefix = as_str(params.tensor);
  std::string index_prefix = as_str(params.index_tensor);
  const Expr &tile_expr = params.tile, &max_expr = params.max_coefficient;
  return prim_func_pass(name, [=](const Any& original) -> Any {
    // Scalars a T.Parallel body assigns from indices (TileLang's `q_idx = bx * block_M + i + past_len`) read as
    // their values, as the tile-op recognisers see them.
    Any func = fold_constant_scalars(original);
    Any analyzer = bound_analyzer(ir::PrimFunc(func));
    // Choices made by conditions free of the element indices (block-causal masks) become branches around the nest.
    func = with_body(func, masks::unswitch_masks(ir::PrimFunc(func).body(), analyzer));
    Ctx ctx;
    List tile = as_list(tile_expr(ctx));
    int64_t tile_rows = as_int(tile[0]), tile_cols = as_int(tile[1]);
    auto [masked_body, kept] = masks::padding_masks(ir::PrimFunc(func).body(), tile_cols);
    func = with_body(func, masked_body);
    ir::PrimFunc f(func);
    std::vector<Nest> nests = masked_nests(f, as_int(max_expr(ctx)));
    List func_params = f.params();
    Dict constants = attr_dict(func, keys::kTtConstants);
    bool indexed = add_index_tables(f, index_prefix, func_params, constants);  // index_tiles.cc
    if (nests.empty() && !indexed) return original;
    std::vector<std::pair<Any, Any>> folded;  // nest -> the nest with the branch that always holds
    std::vector<std::pair<Any, std::string>> annotated;  // nest -> its table (the loop's tt.index_mask)
    for (const Nest& nest : nests) {
      bool keep = std::any_of(kept.begin(), kept.end(), [&](const Any& k) { return k.same_as(nest.loop); });
      if (auto replaced = keep ? std::nullopt : folded_nest(nest, analyzer)) {
        folded.emplace_back(nest.loop, *replaced);
      } else {
        annotated.emplace_back(nest.loop, table_for(nest.mask, analyzer, tile_rows, tile_cols, prefix, func,
                                                    func_params, constants));
      }
    }
    for (const auto& [loop, tensor] : annotated) {
      ir::For l(loop);
      Dict notes = l.annotations();
      notes.Set(String(keys::kTtIndexMask), String(tensor));
      folded.emplace_back(loop, for_loop(l.loop_var().any(), l.min().any(), l.extent().any(),
                                         static_cast<int>(l.kind()), l.body().any(), notes));
    }
    Any body = map(f.body(), {ir::rewrite<ir::For>([&](const ir::For& loop) -> Any {
                     for (const auto& [from, to] : folded) {
                       if (from.same_as(loop.any())) return to;
                     }
                     return loop.any();
                   })});
    Any out = prim_func(func_params, body, f.ret_type(), f.attrs());
    return constants.empty() ? out : with_attrs(out, {{keys::kTtConstants, constants}});
  });
}

}  // namespace tl::engines
