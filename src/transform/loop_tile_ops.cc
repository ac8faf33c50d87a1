// Loops that are tile operations written element by element (hook loops_to_tile_ops, pass LowerTTLoopsToTileOps),
// as TileLang's own lowering treats them:
// - a T.Parallel / T.grid / T.serial nest whose body copies one element, `dst[...] = src[...]` (through casts), where
//   one side is a DRAM tensor and each index is affine in the nest's variables, every variable stepping one dim of
//   each buffer with stride 1 in the same order (a block slice: gemm_schedule's
//   `B_shared[k, j] = B[ko * 32 + k, bx * 64 + j]`, the CPU tests' `src[i, j] = A[i, j]`), is a T.copy of those
//   blocks; an outer loop of the nest whose variable only moves the block stays a loop around the copy;
// - a three-loop nest `C[i, j] += A[i, k] * B[k, j]` over whole on-chip buffers (operands read transposed as
//   A[k, i] / B[j, k] allowed) is a T.gemm.
// - an element-wise store over a nest whose operands (or destination) are DRAM blocks read in loop order stages each
//   block through an on-chip buffer of the nest's shape: a T.copy in before the loop (out after it).
// - `T.Tensor((rows, cols), dtype, tensor.data)` views that are a tensor's folded matrix become regions of the tensor.
// Index scalars are folded first (scalars.cc), so a nest that names its indices (`m = by * block_M + i`) is seen
// through. A copy-shaped nest over a DRAM tensor that is not a block slice (a gather such as an im2col load, a transposed or
// strided read) and a multiply-add nest that is not a whole-buffer product are refused naming the loop. Other nests
// are left to the element-wise recognition (tile_ops_eltwise.cc). In a statement sequence, a tile op writing an
// on-chip block whole that is written whole again before anything reads it is dropped (its CB would have no
// consumer).
#include <variant>

#include "cpu_loops.h"
#include "tile_dataflow.h"
#include "tile_ops_util.h"

namespace tl {
namespace {

using cpu::op_add;
using tileops::eltwise_nest;
using tileops::strip_casts;

std::string loop_names(const std::vector<ir::For>& loops) {
  std::string out;
  for (const ir::For& l : loops) out += (out.empty() ? "" : ", ") + format_value(l.loop_var());
  return out;
}

std::string nest_text(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  std::string idx;
  for (const Any& i : store.indices()) idx += (idx.empty() ? "" : ", ") + format_value(i);
  return "loop (" + loop_names(loops) + ") storing " + ir::Var(store.buffer()).name() + "[" + idx +
         "] = " + format_value(store.value());
}

// How one buffer access depends on the nest's variables: per dim, the loop (index into the nest) that steps it
// (-1: none) and the index with the nest's variables at zero.
struct Placement {
  std::vector<int> loop_of_dim;
  std::vector<Any> base;
};

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
  for (size_t v = 0; v < loops.size(); ++v) {
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

Any tile_call(const char* op, const List& args) {
  return call("tirx.TilePrimitiveCall", call("ir.GetOp", String(op)), args, ffi::Map<String, Any>(),
              ffi::Map<String, Any>(), Any(nullptr), call("tirx.ExecScope", String("thread")));
}

// The nest with its innermost `inner` loops replaced by `body` (the outer loops kept as they are).
Any wrap_outer(const std::vector<ir::For>& loops, size_t outer, Any body) {
  for (size_t l = outer; l-- > 0;) {
    const ir::For& f = loops[l];
    body = for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
  }
  return body;
}

// A block of a buffer that a nest moves: its region, and the loops in the order of the dims they step.
struct Block {
  Any region;
  std::vector<int> order;
};

Any simplified(const cpu::Analyzer& analyzer, const Any& expr) {
  return call("sym.AnalyzerSimplify", analyzer.handle, expr, 2);
}

Any floordiv(const Any& a, int64_t b) { return call("prim._OpFloorDiv", a, int_imm(b), Any(nullptr)); }
Any floormod(const Any& a, int64_t b) { return call("prim._OpFloorMod", a, int_imm(b), Any(nullptr)); }

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
std::variant<Block, std::string> folded_block(const Any& buffer, const List& indices, const std::vector<ir::For>& loops,
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

// `dst[...] = src[...]` over the loops from `outer` on: the copy, or why it is not a block copy.
std::variant<Any, std::string> as_copy(const std::vector<ir::For>& loops, size_t outer, const ir::BufferStore& store,
                                       const ir::TensorLoad& load, const cpu::Analyzer& analyzer) {
  std::vector<ir::For> inner(loops.begin() + static_cast<std::ptrdiff_t>(outer), loops.end());
  // An outer loop kept around the copy may only move the DRAM block: CBs hold whole on-chip blocks.
  for (const auto& [buffer, indices] : {std::make_pair(store.buffer().any(), store.indices()),
                                        std::make_pair(load.source().any(), load.indices())}) {
    if (!buffer_info(buffer).on_chip()) continue;
    for (size_t l = 0; l < outer; ++l) {
      bool uses = false;
      Any v = loops[l].loop_var();
      for (const Any& index : indices) walk(index, {ir::visit<ir::Var>([&](const ir::Var& x) { uses |= x.same_as(v); })});
      if (uses) return "loop '" + format_value(v) + "' steps on-chip buffer '" + ir::Var(buffer).name() + "'";
    }
  }
  for (const ir::For& l : inner) {
    if (!ir::IntImm::matches(l.extent())) {
      return "loop '" + format_value(l.loop_var()) + "' has extent " + format_value(l.extent()) +
             ", not a constant (a block has a static shape)";
    }
  }
  auto d = block_of(store.buffer(), store.indices(), inner, analyzer);
  if (auto* why = std::get_if<std::string>(&d)) return *why;
  auto s = block_of(load.source(), load.indices(), inner, analyzer);
  if (auto* why = std::get_if<std::string>(&s)) return *why;
  const Block& db = std::get<Block>(d);
  const Block& sb = std::get<Block>(s);
  if (db.order != sb.order) {
    return "the loops step the dims of " + ir::Var(load.source()).name() + " and " +
           ir::Var(store.buffer()).name() + " in another order (a transposed copy)";
  }
  return wrap_outer(loops, outer, tile_call("tirx.tile.copy", List{db.region, sb.region}));
}

Any lower_copy_nest(const std::vector<ir::For>& loops, const ir::BufferStore& store, const ir::TensorLoad& load,
                    const cpu::Analyzer& analyzer) {
  std::string why;
  for (size_t outer = 0; outer < loops.size(); ++outer) {
    auto copy = as_copy(loops, outer, store, load, analyzer);
    if (auto* stmt = std::get_if<Any>(&copy)) return *stmt;
    if (why.empty()) why = std::get<std::string>(copy);
  }
  fail(nest_text(loops, store) + " moves elements of a DRAM tensor that are not a block slice: " + why + "; the " +
       "tenstorrent backend reads and writes DRAM by blocks, so such a loop must be a T.copy of a block (each loop "
       "variable stepping one dim with stride 1, in the same dim order on both sides, from a start computed from "
       "block indices and outer loops)");
}

// ------------------------------------------------------------------------------------------------------- gemm

template <typename Node>
std::optional<std::pair<Any, Any>> operands_of(const Any& value) {
  auto node = Node::from(strip_casts(value));
  if (!node) return std::nullopt;
  return std::make_pair(strip_casts(node->a()), strip_casts(node->b()));
}

// Whether `load` reads `buffer` at exactly the variables `a`, `b`.
bool reads_at(const ir::TensorLoad& load, const Any& a, const Any& b) {
  List idx = load.indices();
  return idx.size() == 2 && idx[0].same_as(a) && idx[1].same_as(b);
}

bool whole(const Any& buffer, const Any& x, const Any& y, const std::vector<ir::For>& loops) {
  auto extent_of = [&](const Any& v) -> int64_t {
    for (const ir::For& l : loops) {
      auto e = ir::IntImm::from(l.extent());
      if (l.loop_var().same_as(v) && e && tileops::is_zero(l.min())) return e->value();
    }
    return -1;
  };
  BufferInfo info = buffer_info(buffer);
  return info.shape == std::vector<int64_t>{extent_of(x), extent_of(y)};
}

// `C[i, j] = C[i, j] + A[.] * B[.]` (in either operand order) over three loops: the gemm, nothing when the store is
// no multiply-add, a refusal naming the loop when it is one the tenstorrent backend has no product for.
std::optional<Any> as_gemm(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  auto sum = operands_of<ir::Add>(store.value());
  if (!sum) return std::nullopt;
  Any acc = sum->first, product = sum->second;
  auto acc_load = ir::TensorLoad::from(acc);
  if (!acc_load || !acc_load->source().same_as(store.buffer())) std::swap(acc, product);
  acc_load = ir::TensorLoad::from(acc);
  auto mul = operands_of<ir::Mul>(product);
  if (!acc_load || !acc_load->source().same_as(store.buffer()) || !mul) return std::nullopt;
  auto a = ir::TensorLoad::from(mul->first), b = ir::TensorLoad::from(mul->second);
  if (!a || !b) return std::nullopt;
  auto refuse = [&](const std::string& why) -> Any {
    fail(nest_text(loops, store) + " is a multiply-add that the tenstorrent backend lowers only as a T.gemm: " + why +
         " (write T.gemm(A, B, C) for a product of on-chip blocks)");
  };
  // A reduction over a third loop k (both factors read at k, the accumulator not): anything else is element-wise.
  List out = store.indices();
  if (loops.size() != 3 || out.size() != 2 || !reads_at(*acc_load, out[0], out[1])) return std::nullopt;
  Any i = out[0], j = out[1];
  std::vector<Any> rest;  // the loop variables other than the accumulator's indices: k
  for (const ir::For& l : loops) {
    if (!l.loop_var().same_as(i) && !l.loop_var().same_as(j)) rest.push_back(l.loop_var());
  }
  if (rest.size() != 1) return std::nullopt;
  Any k = rest[0];
  auto reads_k = [&](const ir::TensorLoad& x) {
    bool uses = false;
    for (const Any& index : x.indices()) uses |= index.same_as(k);
    return uses;
  };
  if (!reads_k(*a) || !reads_k(*b)) return std::nullopt;
  // A[i, k] (or A[k, i] transposed) and B[k, j] (or B[j, k]), in either order of the product.
  auto lhs_of = [&](const ir::TensorLoad& x) { return reads_at(x, i, k) || reads_at(x, k, i); };
  if (!lhs_of(*a)) std::swap(a, b);
  if (!lhs_of(*a) || !(reads_at(*b, k, j) || reads_at(*b, j, k))) {
    refuse("the operands must be read as A[i, k] (or A[k, i]) and B[k, j] (or B[j, k])");
  }
  bool ta = reads_at(*a, k, i), tb = reads_at(*b, j, k);
  for (const Any& buf : {store.buffer().any(), a->source().any(), b->source().any()}) {
    if (!buffer_info(buf).on_chip()) refuse("'" + ir::Var(buf).name() + "' is a DRAM tensor");
  }
  if (!whole(store.buffer(), i, j, loops) || !whole(a->source(), ta ? k : i, ta ? i : k, loops) ||
      !whole(b->source(), tb ? j : k, tb ? k : j, loops)) {
    refuse("the loops must run from 0 over the whole buffers");
  }
  Any c = full_region(store.buffer());
  return tile_call("tirx.tile.gemm", List{c, full_region(a->source()), full_region(b->source()), c,
                                          make_const(Any(ta), "bool"), make_const(Any(tb), "bool"),
                                          float_imm(1.0), float_imm(1.0)});
}

// ------------------------------------------------------------------------------------- element-wise over DRAM

// An on-chip buffer of `shape` (a block staged through a CB).
Any staging_buffer(const std::string& name, const std::string& dtype, const std::vector<ir::For>& loops) {
  List shape;
  for (const ir::For& l : loops) shape.push_back(l.extent());
  Any type = call("tirx.BufferType", String("shared"), String(dtype), shape, List(), int_imm(0), -1, 0, Any(nullptr),
                  List(), Any(nullptr));
  return call("tirx.BufferVar", String(name), type, Any(nullptr));
}

// Whether `indices` read a block of the nest in loop order: loop l steps the l-th stepped dim, from a start free of
// the nest's variables.
std::optional<Placement> block_in_loop_order(const List& indices, const std::vector<ir::For>& loops) {
  auto p = place(indices, loops);
  auto* placement = std::get_if<Placement>(&p);
  if (placement == nullptr) return std::nullopt;
  std::vector<int> order = dim_order(*placement);
  for (size_t l = 0; l < order.size(); ++l) {
    if (order[l] != static_cast<int>(l)) return std::nullopt;
  }
  return *placement;
}

// An element-wise store over the whole nest whose operands or destination are DRAM blocks read (written) in loop
// order: each such block is staged through an on-chip buffer of the nest's shape (`<tensor>_blk<n>`: a T.copy in
// before the loop, or out after it), which the store then reads (writes) at the loop variables. Nothing when no
// operand is such a block (a 1-D tensor read as w[j] broadcasts as it is).
std::optional<Any> stage_dram_operands(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  for (const ir::For& l : loops) {
    if (!ir::IntImm::matches(l.extent()) || !tileops::is_zero(l.min())) return std::nullopt;
  }
  List lvars;
  for (const ir::For& l : loops) lvars.push_back(l.loop_var());
  // An on-chip destination is written at the loop variables, the whole nest (not an inner loop of a wider nest).
  if (buffer_info(store.buffer()).on_chip()) {
    List idx = store.indices();
    if (idx.size() != lvars.size()) return std::nullopt;
    for (size_t l = 0; l < idx.size(); ++l) {
      if (!idx[l].same_as(lvars[l])) return std::nullopt;
    }
  }
  std::vector<Any> before, allocs;
  std::vector<std::pair<Any, Any>> staged;  // load -> staging buffer
  int n = 0;
  auto stage = [&](const Any& tensor, const Placement& p) {
    Any buf = staging_buffer(ir::Var(tensor).name() + "_blk" + std::to_string(n++), buffer_info(tensor).dtype, loops);
    allocs.push_back(call("tirx.AllocBuffer", buf, ffi::Map<String, Any>(), Any(nullptr)));
    return std::make_pair(buf, region(tensor, p, loops));
  };
  Any value = map(store.value(), {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                    if (buffer_info(load.source()).on_chip()) return load.any();
                    auto p = block_in_loop_order(load.indices(), loops);
                    if (!p) return load.any();
                    auto [buf, src] = stage(load.source(), *p);
                    before.push_back(tile_call("tirx.tile.copy", List{full_region(buf), src}));
                    return call("tirx.BufferLoad", buf, lvars, Any(nullptr));
                  })},
                  "post");
  Any out = store.buffer();
  std::vector<Any> after;
  if (!buffer_info(out).on_chip()) {
    auto p = block_in_loop_order(store.indices(), loops);
    if (!p) return std::nullopt;
    auto [buf, dst] = stage(out, *p);
    after.push_back(tile_call("tirx.tile.copy", List{dst, full_region(buf)}));
    out = buf;
  }
  if (allocs.empty()) return std::nullopt;
  Any body = call("tirx.BufferStore", out, value, lvars, Any(nullptr));
  for (size_t l = loops.size(); l-- > 0;) {
    const ir::For& f = loops[l];
    body = for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
  }
  std::vector<Any> seq = allocs;
  seq.insert(seq.end(), before.begin(), before.end());
  seq.push_back(body);
  seq.insert(seq.end(), after.begin(), after.end());
  return seq_stmt(cpu::to_list(seq));
}

Any rewrite_nest(const Any& stmt, const cpu::Analyzer& analyzer) {
  auto nest = eltwise_nest(stmt);
  if (!nest) return stmt;
  const auto& [loops, store] = *nest;
  // A bounds mask the loop ranges prove true (a 1x1 convolution's im2col load) is no mask.
  Any value = strip_casts(store.value());
  auto callee = ir::Call::from(value) ? ir::Op::from(ir::Call(value).op()) : std::nullopt;
  if (auto call = ir::Call::from(value); callee && (callee->name() == "prim.if_then_else" ||
                                                    callee->name() == "tirx.if_then_else")) {
    Any cond = simplified(analyzer, call->args()[0]);
    if (auto c = ir::IntImm::from(cond); c && c->value() != 0) value = strip_casts(call->args()[1]);
  }
  auto load = ir::TensorLoad::from(value);
  bool dram = !buffer_info(store.buffer()).on_chip() || (load && !buffer_info(load->source()).on_chip());
  if (load && dram) return lower_copy_nest(loops, store, *load, analyzer);
  if (auto gemm = as_gemm(loops, store)) return *gemm;
  if (auto staged = stage_dram_operands(loops, store)) return *staged;
  // A DRAM element read that is no block of the nest (the convolution's im2col load under its bounds mask).
  std::optional<ir::TensorLoad> gather;
  walk(store.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         if (!gather && !buffer_info(l.source()).on_chip() && !block_in_loop_order(l.indices(), loops) &&
             std::holds_alternative<std::string>(place(l.indices(), loops))) {
           gather = l;
         }
       })});
  if (gather && gather->indices().size() > 1) {  // a 1-D tensor read as w[j] broadcasts as a row vector
    std::string why = std::get<std::string>(place(gather->indices(), loops));
    fail(nest_text(loops, store) + " reads DRAM tensor '" + ir::Var(gather->source()).name() + "' element by element " +
         "at " + format_value(gather->any()) + ", which is not a block of the loop (" + why + "); the tenstorrent " +
         "backend reads DRAM by blocks (a T.copy, or a loop whose every index steps one dim with stride 1), and has no "
         "element gather (an im2col load; T.if_then_else bounds masks are a separate feature)");
  }
  return stmt;
}

// ------------------------------------------------------------------------------------------------------ views

// `T.Tensor((rows, cols), dtype, tensor.data)` over a tensor parameter whose last dim is `cols` is the tensor's
// folded matrix, which is how InferTTLayout tiles it (the convolution's `kernel_flat` (KH * KW * C, F) of (KH, KW,
// C, F)): tile ops on the view's blocks are tile ops on the tensor's regions (rows_region), and the view goes.
Any resolve_views(const Any& func, const Any& body, const cpu::Analyzer& analyzer) {
  std::vector<std::pair<Any, Any>> views;  // view var -> tensor var
  std::vector<BufferInfo> params = tensor_params(func);
  walk(body, {ir::visit<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) {
         BufferInfo view = buffer_info(decl.buffer());
         for (const BufferInfo& p : params) {
           bool over = false;
           walk(decl.data(), {ir::visit<ir::Var>([&](const ir::Var& v) { over |= v.same_as(p.var); })});
           if (!over || view.shape.size() != 2 || p.shape.size() < 2 || view.dtype != p.dtype ||
               view.shape[1] != p.shape.back() || view.shape[0] * view.shape[1] != [&] {
                 int64_t total = 1;
                 for (int64_t e : p.shape) total *= e;
                 return total;
               }()) {
             continue;
           }
           views.emplace_back(decl.buffer().any(), p.var);
         }
       })});
  if (views.empty()) return body;
  auto tensor_of = [&](const Any& var) -> std::optional<Any> {
    for (const auto& [view, tensor] : views) {
      if (view.same_as(var)) return tensor;
    }
    return std::nullopt;
  };
  auto rewritten = map(body, {ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& tile) -> Any {
                         List args;
                         bool changed = false;
                         for (const Any& arg : tile.args()) {
                           auto r = ir::TensorRegion::from(arg);
                           auto tensor = r ? tensor_of(r->source()) : std::nullopt;
                           if (!tensor) {
                             args.push_back(arg);
                             continue;
                           }
                           List ranges = r->region();
                           auto rows = ir::IntImm::from(ir::Range(ranges[0]).extent());
                           auto cols = ir::IntImm::from(ir::Range(ranges[1]).extent());
                           std::variant<Any, std::string> region = std::string("its extents are not constants");
                           if (rows && cols) {
                             region = rows_region(*tensor, ir::Range(ranges[0]).min(), rows->value(),
                                                  ir::Range(ranges[1]).min(), cols->value(), analyzer);
                           }
                           if (auto* why = std::get_if<std::string>(&region)) {
                             fail("a block of view '" + r->source().name() + "' of tensor '" + ir::Var(*tensor).name() +
                                  "' is not a block of the tensor's tiles: " + *why);
                           }
                           args.push_back(std::get<Any>(region));
                           changed = true;
                         }
                         if (!changed) return tile.any();
                         return call("tirx.TilePrimitiveCall", tile.op().any(), args, ffi::Map<String, Any>(),
                                     tile.config(), Any(nullptr), call("tirx.ExecScope", String("thread")));
                       }),
                       ir::rewrite<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) -> Any {
                         return tensor_of(decl.buffer()) ? evaluate(int_imm(0)) : decl.any();
                       })},
                       "post");
  return rewritten;
}

// ------------------------------------------------------------------------------------------ overwritten blocks

// The on-chip buffer a tile primitive writes whole without reading its old value (a copy into it, a fill, a
// reduction with clear=True), or nothing.
std::optional<Any> overwrites(const Any& stmt) {
  auto tile = ir::TilePrimitiveCall::from(stmt);
  if (!tile) return std::nullopt;
  std::string op = tile->op().name();
  List args = tile->args();
  bool whole = op == "tirx.tile.copy" || op == "tirx.tile.fill" ||
               ((op == "tirx.tile.sum" || op == "tirx.tile.max" || op == "tirx.tile.min") && args.size() > 3 &&
                !truthy(to_plain(args[3])));
  if (!whole || !ir::TensorRegion::matches(args[0])) return std::nullopt;
  tileops::Region dst = tileops::region_of(args[0]);
  if (!dst.info.on_chip()) return std::nullopt;
  for (const Any& m : dst.mins) {
    if (!tileops::is_zero(m)) return std::nullopt;
  }
  if (dst.extents != dst.info.shape) return std::nullopt;
  for (size_t a = 1; a < args.size(); ++a) {  // reads its own old value: not an overwrite
    if (auto r = ir::TensorRegion::from(args[a]); r && r->source().same_as(dst.info.var)) return std::nullopt;
  }
  return dst.info.var;
}

bool mentions(const Any& stmt, const Any& buffer) {
  bool found = false;
  walk(stmt, {ir::visit<ir::TensorRegion>([&](const ir::TensorRegion& r) { found |= r.source().same_as(buffer); }),
              ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { found |= l.source().same_as(buffer); }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) { found |= s.buffer().same_as(buffer); })});
  return found;
}

// In a statement sequence, a block written whole and written whole again before anything reads it is never read
// (the CPU tests' `dst[i] = Init[i]` before a clear=True reduction into dst): the first write goes, as every CB
// needs a consumer.
Any drop_overwritten(const Any& stmt) {
  std::vector<Any> seq = flatten(stmt);
  std::vector<Any> kept;
  for (size_t s = 0; s < seq.size(); ++s) {
    auto written = overwrites(seq[s]);
    bool dead = false;
    for (size_t n = s + 1; written && n < seq.size(); ++n) {
      if (auto again = overwrites(seq[n]); again && again->same_as(*written)) {
        dead = true;
        break;
      }
      if (mentions(seq[n], *written)) break;
    }
    if (!dead) kept.push_back(seq[s]);
  }
  return kept.size() == seq.size() ? stmt : seq_stmt(cpu::to_list(kept));
}

}  // namespace

namespace hooks {

Any loops_to_tile_ops() {
  return prim_func_pass("LowerTTLoopsToTileOps", [](const Any& func) {
    Any folded = ir::PrimFunc(fold_constant_scalars(func)).body();
    cpu::Analyzer analyzer = cpu::range_analyzer(folded);  // the ranges of the loops and block indices
    Any body = map(folded, {{ir::For::kTypeKey, [analyzer](const Any& stmt) { return rewrite_nest(stmt, analyzer); }}},
                   "pre");
    body = resolve_views(func, body, analyzer);
    return with_body(func, map(body, {{ir::SeqStmt::kTypeKey, drop_overwritten}}, "post"));
  });
}

}  // namespace hooks
}  // namespace tl
