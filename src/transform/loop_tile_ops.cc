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
// - `T.Tensor((rows, cols), dtype, tensor.data)` views that are a tensor's folded matrix become that 2-D tensor
//   where the tensor is accessed only through them, else regions of the tensor (loop_views.cc).
// Which block a nest moves (a block slice, or consecutive rows of an N-D tensor's folded matrix) is loop_blocks.cc.
// Index scalars are folded first (scalars.cc), so a nest that names its indices (`m = by * block_M + i`) is seen
// through. A copy-shaped nest over a DRAM tensor that is not a block slice (a gather such as an im2col load, a
// transposed or strided read) and a multiply-add nest that is not a whole-buffer product are refused naming the loop. Other nests
// are left to the element-wise recognition (tile_ops_eltwise.cc). In a statement sequence, a tile op writing an
// on-chip block whole that is written whole again before anything reads it is dropped (its CB would have no
// consumer). Fixed parts of on-chip buffers become buffers of their own (loop_onchip_parts.cc).
#include "loop_blocks.h"
#include "tile_ops_util.h"
#include "tile_dataflow.h"

namespace tl {
namespace {

using cpu::op_add;
using loops::Block;
using loops::Placement;
using loops::block_of;
using loops::dim_order;
using loops::full_region;
using loops::nest_text;
using loops::place;
using loops::region;
using loops::simplified;
using loops::tile_call;
using tileops::eltwise_nest;
using tileops::strip_casts;

// The nest with its innermost `inner` loops replaced by `body` (the outer loops kept as they are).
Any wrap_outer(const std::vector<ir::For>& loops, size_t outer, Any body) {
  for (size_t l = outer; l-- > 0;) {
    const ir::For& f = loops[l];
    body = for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
  }
  return body;
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
  auto stepping = [&](std::vector<int> order) {  // a loop of one iteration moves nothing, in any order
    order.erase(std::remove_if(order.begin(), order.end(), [&](int l) {
                  return tileops::is_const_int(inner[static_cast<size_t>(l)].extent(), 1);
                }), order.end());
    return order;
  };
  if (stepping(db.order) != stepping(sb.order)) {
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

// An on-chip buffer of the nest's shape (a block staged through a CB).
Any staging_buffer(const std::string& name, const std::string& dtype, const std::vector<ir::For>& loops) {
  List shape;
  for (const ir::For& l : loops) shape.push_back(l.extent());
  return loops::onchip_buffer(name, dtype, shape, "shared");
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
                    for (const auto& [seen, buf] : staged) {  // one block read twice (if_range's A * 2 | A * 0.5)
                      if (call("ffi.StructuralEqual", seen, load.any(), false, false).cast<bool>()) {
                        return call("tirx.BufferLoad", buf, lvars, Any(nullptr));
                      }
                    }
                    auto [buf, src] = stage(load.source(), *p);
                    staged.emplace_back(load.any(), buf);
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

Any rewrite_nest(const Any& stmt, const cpu::Analyzer& analyzer, int* elements, const std::vector<Any>& kept) {
  auto nest = eltwise_nest(stmt);
  if (!nest) return stmt;
  if (auto staged = loops::stage_dram_element(kept, nest->first, nest->second, elements)) {  // `Sinks[by]`: on chip
    std::vector<Any> seq = staged->first;
    seq.push_back(rewrite_nest(staged->second, analyzer, elements, kept));
    return seq_stmt(cpu::to_list(seq));
  }
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
  if (auto column = load && dram ? loops::broadcast_dram_column(loops, store, *load) : std::nullopt) {
    std::vector<Any> seq = flatten(*column);  // the column's own loop is a block copy
    seq[1] = rewrite_nest(seq[1], analyzer, elements, kept);
    return seq_stmt(cpu::to_list(seq));
  }
  if (load && dram) return lower_copy_nest(loops, store, *load, analyzer);
  if (auto gemm = as_gemm(loops, store)) return *gemm;
  if (auto sum = loops::as_row_sum(loops, store)) return *sum;
  if (auto staged = stage_dram_operands(loops, store)) return *staged;
  // A DRAM element read that is no block of the nest (the convolution's im2col load under its bounds mask).
  std::optional<ir::TensorLoad> gather;
  walk(store.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         bool for_if = std::any_of(kept.begin(), kept.end(), [&](const Any& k) { return loops::same(k, l.any()); });
         if (!gather && !for_if && !buffer_info(l.source()).on_chip() && !block_in_loop_order(l.indices(), loops) &&
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

}  // namespace

namespace hooks {

Any loops_to_tile_ops() {
  return prim_func_pass("LowerTTLoopsToTileOps", [](const Any& func) {
    // Several T.Kernel launches in one function (flash decoding's split then combine) are one program each:
    // SplitTTPrograms splits the launches at the function's top level; launches under a loop or branch remain.
    int grids = 0;
    walk(ir::PrimFunc(func).body(), {ir::visit<ir::AttrStmt>([&grids](const ir::AttrStmt& stmt) {
           auto launch = launch_of(stmt);
           if (launch && launch->thread_tag() == "blockIdx.x") ++grids;
         })});
    if (grids > 1) {
      fail("the function launches " + std::to_string(grids) + " T.Kernel grids inside one statement (a loop or "
           "branch around them); the tenstorrent backend makes one program of each T.Kernel launch at the function's "
           "top level (SplitTTPrograms), run in order; write the launches one after another");
    }
    // T.alloc_global (a DRAM workspace the kernel makes for itself: deepseek_mla's split partials): the host
    // programs allocate and lay out the tensor parameters only; there is no kernel-made DRAM buffer to plan.
    walk(ir::PrimFunc(func).body(), {ir::visit<ir::AllocBuffer>([](const ir::AllocBuffer& a) {
           BufferInfo info = buffer_info(a.buffer());
           if (!info.on_chip()) {
             fail("T.alloc_global('" + info.name + "', shape " + tileops::ints_str(info.shape) + "): the tenstorrent "
                  "backend allocates a DRAM workspace for a function of several T.Kernel launches (its programs share "
                  "it), not inside one launch; pass the workspace as a tensor parameter");
           }
         })});
    Any folded = loops::guards_to_selects(ir::PrimFunc(fold_constant_scalars(func)).body());
    folded = loops::dram_scalars_on_chip(folded);  // `s = G[...]`: tensor data, held on chip
    folded = map(folded, {{ir::IfThenElse::kTypeKey, [](const Any& stmt) {  // one T.copy from the block c picks
                   return tileops::merged_branch_copies(ir::IfThenElse(stmt)).value_or(stmt);
                 }}}, "post");
    folded = map(loops::normalize_thread_arrays(folded), {{ir::For::kTypeKey, loops::split_nest}}, "pre");
    folded = loops::settle_thread_arrays(folded);
    cpu::Analyzer analyzer = cpu::range_analyzer(folded);  // the ranges of the loops and block indices
    auto elements = std::make_shared<int>(0);  // one-element buffers made so far
    std::vector<Any> kept;  // DRAM elements if conditions read
    walk(folded, {ir::visit<ir::IfThenElse>([&kept](const ir::IfThenElse& i) {
           walk(i.condition(), {ir::visit<ir::TensorLoad>([&kept](const ir::TensorLoad& l) {
                  if (!buffer_info(l.source()).on_chip()) kept.push_back(l.any());
                })});
         })});
    Any nests = map(folded, {{ir::For::kTypeKey, [analyzer, elements, kept](const Any& stmt) {
                      return rewrite_nest(stmt, analyzer, elements.get(), kept);
                    }}},
                    "pre");
    Any body = loops::split_onchip_parts(nests);  // parts of on-chip buffers as buffers of their own
    Any resolved = loops::resolve_views(func, body, analyzer);
    auto drop = [analyzer](const Any& stmt) { return loops::drop_overwritten(stmt, analyzer); };
    return with_body(resolved, map(ir::PrimFunc(resolved).body(), {{ir::SeqStmt::kTypeKey, drop}}, "post"));
  });
}

}  // namespace hooks
}  // namespace tl
