// Which block of a buffer a loop nest moves (loop_blocks.h): affine indices whose every loop steps one dim with
// stride 1, or consecutive rows of an N-D tensor's folded matrix (the (prod(leading dims) * rows, cols) matrix
// InferTTLayout tiles it as).
#include "loop_blocks.h"

namespace tl::loops {

using cpu::op_add;

bool same(const Any& a, const Any& b) { return call("ffi.StructuralEqual", a, b, false, false).cast<bool>(); }

bool names(const Any& node, const Any& var) {
  bool found = false;
  walk(node, {ir::visit<ir::Var>([&](const ir::Var& v) { found |= v.same_as(var); })});
  return found;
}

bool reads(const Any& expr, const Any& buffer) {
  bool found = false;
  walk(expr, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { found |= l.source().same_as(buffer); })});
  return found;
}

static std::string loop_names_of(const std::vector<ir::For>& loops) {
  std::string out;
  for (const ir::For& l : loops) out += (out.empty() ? "" : ", ") + format_value(l.loop_var());
  return out;
}

std::string nest_text(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  std::string idx;
  for (const Any& i : store.indices()) idx += (idx.empty() ? "" : ", ") + format_value(i);
  return "loop (" + loop_names_of(loops) + ") storing " + ir::Var(store.buffer()).name() + "[" + idx +
         "] = " + format_value(store.value());
}

// The placement of `indices`, or the reason it is not a block slice of the nest's loops.
std::variant<Placement, std::string> place(const List& indices, const std::vector<ir::For>& loops) {
  List vars;
  for (const ir::For& l : loops) vars.push_back(l.loop_var());
  Placement p;
  std::vector<int> dims_of_loop(loops.size(), 0);
  for (const Any& index : indices) {
    List form = call("sym.DetectLinearEquation", index, vars).cast<List>();
    if (form.size() != vars.size() + 1) return "index " + format_value(index) + " is not affine in the loop variables";
    int stepped = -1;
    for (size_t v = 0; v < vars.size(); ++v) {
      auto coef = ir::IntImm::from(form[v]);
      if (!coef) return "index " + format_value(index) + " has a non-constant stride";
      if (coef->value() == 0) continue;
      if (coef->value() != 1) {
        return "index " + format_value(index) + " steps by " + std::to_string(coef->value()) + " with loop '" +
               format_value(vars[v]) + "' (a block slice steps by 1)";
      }
      if (stepped >= 0) return "index " + format_value(index) + " combines two loop variables";
      stepped = static_cast<int>(v);
      ++dims_of_loop[v];
    }
    p.loop_of_dim.push_back(stepped);
    p.base.push_back(form[vars.size()]);
  }
  for (size_t v = 0; v < loops.size(); ++v) {  // a loop of one iteration may index nothing (`mean_row[0]`, blk_m = 1)
    if (dims_of_loop[v] == 0 && tileops::is_const_int(loops[v].extent(), 1)) continue;
    if (dims_of_loop[v] != 1) {
      return "loop '" + format_value(vars[v]) + "' indexes " + std::to_string(dims_of_loop[v]) + " dims (a block " +
             "slice gives each loop one dim)";
    }
  }
  return p;
}

// The loops in the order of the dims they step.
std::vector<int> dim_order(const Placement& p) {
  std::vector<int> out;
  for (int l : p.loop_of_dim) {
    if (l >= 0) out.push_back(l);
  }
  return out;
}

Any region(const Any& buffer, const Placement& p, const std::vector<ir::For>& loops) {
  List ranges;
  for (size_t d = 0; d < p.base.size(); ++d) {
    int l = p.loop_of_dim[d];
    Any min = l < 0 ? p.base[d] : op_add(p.base[d], loops[static_cast<size_t>(l)].min());
    Any extent = l < 0 ? int_imm(1) : loops[static_cast<size_t>(l)].extent().any();
    ranges.push_back(call("ir.Range_from_min_extent", min, extent, Any(nullptr)));
  }
  return call("tirx.BufferRegion", buffer, ranges);
}

Any full_region(const Any& buffer) {
  List ranges;
  for (const Any& e : ir::BufferType(ir::Var(buffer).ty()).shape()) {
    ranges.push_back(call("ir.Range_from_min_extent", int_imm(0), e, Any(nullptr)));
  }
  return call("tirx.BufferRegion", buffer, ranges);
}

Any onchip_buffer(const std::string& name, const std::string& dtype, const List& shape, const char* scope) {
  Any type = call("tirx.BufferType", String(scope), String(dtype), shape, List(), int_imm(0), -1, 0, Any(nullptr),
                  List(), Any(nullptr));
  return call("tirx.BufferVar", String(name), type, Any(nullptr));
}

Any tile_call(const char* op, const List& args) {
  return call("tirx.TilePrimitiveCall", call("ir.GetOp", String(op)), args, ffi::Map<String, Any>(),
              ffi::Map<String, Any>(), Any(nullptr), call("tirx.ExecScope", String("thread")));
}

Any simplified(const cpu::Analyzer& analyzer, const Any& expr) {
  return call("sym.AnalyzerSimplify", analyzer.handle, expr, 2);
}

static Any floordiv(const Any& a, int64_t b) { return call("prim._OpFloorDiv", a, int_imm(b), Any(nullptr)); }
static Any floormod(const Any& a, int64_t b) { return call("prim._OpFloorMod", a, int_imm(b), Any(nullptr)); }

// Rows [r0, r0 + rows) and columns [c0, c0 + cols) of a tensor's folded matrix as a region of the tensor, when
// the rows start and end on whole sub-blocks of the dims they span; or why not.
std::variant<Any, std::string> rows_region(const Any& buffer, const Any& r0, int64_t rows, const Any& c0, int64_t cols,
                                           const cpu::Analyzer& analyzer) {
  BufferInfo info = buffer_info(buffer);
  size_t n = info.shape.size();
  std::vector<Any> mins(n), extents(n);
  int64_t stride = 1, remaining = rows;
  for (size_t d = n - 1; d-- > 0;) {
    int64_t dim = info.shape[d];
    int64_t take = remaining >= dim ? dim : remaining;
    if ((remaining >= dim && remaining % dim) || (remaining < dim && dim % remaining)) {
      return std::to_string(rows) + " rows do not split into whole blocks of dim " + std::to_string(d) + " (" +
             std::to_string(dim) + ")";
    }
    if (take > 1 && !analyzer.can_prove(call("prim._OpEQ", floormod(r0, stride * take), int_imm(0), Any(nullptr)))) {
      return "the block's first row " + format_value(simplified(analyzer, r0)) + " is not a multiple of " +
             std::to_string(stride * take) + " (the block would wrap dim " + std::to_string(d) + ")";
    }
    mins[d] = simplified(analyzer, floormod(floordiv(r0, stride), dim));
    extents[d] = int_imm(take);
    remaining /= take;
    stride *= dim;
  }
  mins[n - 1] = c0;
  extents[n - 1] = int_imm(cols);
  List ranges;
  for (size_t d = 0; d < n; ++d) ranges.push_back(call("ir.Range_from_min_extent", mins[d], extents[d], Any(nullptr)));
  return call("tirx.BufferRegion", buffer, ranges);
}

// A tensor of more than two dims is tiled as its (prod(leading dims) * rows, cols) matrix (InferTTLayout): a nest
// whose indices step that matrix's rows as one (the convolution's `data[m // (OH * OW), m % (OH * OW) // OW, m % OW,
// c]` with m = by * block_M + i) reads a block of consecutive rows, which is a region of the tensor when it starts
// and ends on whole sub-blocks of the dims it spans (64 rows of (H, W) = (4, 32) starting at a multiple of 64: two
// whole W rows of H). The region, or why not.
static std::variant<Block, std::string> folded_block(const Any& buffer, const List& indices, const std::vector<ir::For>& loops,
                                              const cpu::Analyzer& analyzer) {
  BufferInfo info = buffer_info(buffer);
  size_t n = info.shape.size();
  Any row = indices[0];
  for (size_t d = 1; d + 1 < n; ++d) row = op_add(cpu::op_mul(row, int_imm(info.shape[d])), indices[d]);
  row = simplified(analyzer, row);
  auto p = place(List{row, indices[n - 1]}, loops);
  if (auto* why = std::get_if<std::string>(&p)) return "as rows of its folded matrix, " + *why;
  const Placement& fp = std::get<Placement>(p);
  auto start_extent = [&](size_t dim) -> std::pair<Any, int64_t> {
    int l = fp.loop_of_dim[dim];
    if (l < 0) return {fp.base[dim], 1};
    const ir::For& f = loops[static_cast<size_t>(l)];
    return {op_add(fp.base[dim], f.min()), ir::IntImm(f.extent()).value()};
  };
  auto [r0, rows] = start_extent(0);
  auto [c0, cols] = start_extent(1);
  auto r = rows_region(buffer, r0, rows, c0, cols, analyzer);
  if (auto* why = std::get_if<std::string>(&r)) return "as rows of its folded matrix, " + *why;
  return Block{std::get<Any>(r), dim_order(fp)};
}

std::variant<Block, std::string> block_of(const Any& buffer, const List& raw, const std::vector<ir::For>& loops,
                                          const cpu::Analyzer& analyzer) {
  List indices;
  for (const Any& index : raw) indices.push_back(simplified(analyzer, index));
  auto p = place(indices, loops);
  if (auto* placement = std::get_if<Placement>(&p)) return Block{region(buffer, *placement, loops), dim_order(*placement)};
  std::string why = ir::Var(buffer).name() + ": " + std::get<std::string>(p);
  BufferInfo info = buffer_info(buffer);
  if (info.on_chip() || info.shape.size() <= 2) return why;
  auto folded = folded_block(buffer, indices, loops, analyzer);
  if (auto* block = std::get_if<Block>(&folded)) return *block;
  return why + "; " + std::get<std::string>(folded);
}

}  // namespace tl::loops
