// A CUDA block's T.gemm on tensor cores (the hook bind_cuda_threads): the planned block (cuda_gemm.cc) on its
// threads. Tile copies and gemms become calls of the package's device header tl_cuda/gemm_mma.h (copy_g2s: the
// block's threads copy 16-byte pieces into a swizzled shared tile; gemm_ss: ldmatrix + mma.sync over the warps);
// each accumulator becomes a per-thread array in the mma accumulator layout, and a nest on it (its clear, its copy
// out) runs element i of each thread's array at (acc_row(i), acc_col(i)), fully unrolled so the array stays in
// registers. A barrier separates a tile copy from a gemm that reads shared memory after it, and a gemm from a copy
// that writes shared memory after it (at the top of each loop iteration too).
#include "cuda_gemm.h"

#include <attr_keys.h>

using tl::cpu::op_lt;

namespace tl::cuda {

namespace {

Any extern_call(const std::string& dtype, const std::string& name, const std::vector<Any>& args) {
  List all{string_imm(name)};
  for (const Any& a : args) all.push_back(a);
  return call_intrin(dtype, "tirx.call_extern", all);
}

Any address_of(const Any& buffer, const List& indices) {
  return call_intrin("handle", "tirx.address_of", List{call("tirx.BufferLoad", buffer, indices, Any(nullptr))});
}

std::string targs(const std::vector<std::string>& args) {
  std::string s = "<";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ">";
}

std::string num(int64_t v) { return std::to_string(v); }
std::string flag(bool v) { return v ? "true" : "false"; }

struct Emitter {
  const GemmPlan& plan;
  Parts parts;                          // accumulator -> its per-thread array
  // since the last barrier: whether a gemm read shared memory, the shared tiles copies wrote (StorageRewrite gives
  // two shared buffers one memory only where their lifetimes do not overlap, so tiles written in turn are distinct)
  bool read = false;
  VarSet written;

  Parts stage_buffers;  // staged tile -> its buffer of `stages` tiles, one below the other

  explicit Emitter(const GemmPlan& p) : plan(p) {
    for (const auto& [tile, stages] : plan.staged) {
      BufferInfo info = buffer_info(tile);
      List shape{int_imm(stages * info.shape[0]), int_imm(info.shape[1])};
      Any type = call("tirx.BufferType", String(info.scope), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                      Any(nullptr), List(), Any(nullptr));
      stage_buffers.emplace_back(tile, call("tirx.BufferVar", String(info.name), type, Any(nullptr)));
    }
    for (const auto& [acc, grid] : plan.accumulators) {
      BufferInfo info = buffer_info(acc);
      List shape{int_imm(info.shape[0] * info.shape[1] / plan.threads)};
      Any type = call("tirx.BufferType", String("local"), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                      Any(nullptr), List(), Any(nullptr));
      parts.emplace_back(acc, call("tirx.BufferVar", String(info.name), type, Any(nullptr)));
    }
  }

  WarpGrid grid_of(const Any& acc) const {
    for (const auto& [a, grid] : plan.accumulators) {
      if (a.same_as(acc)) return grid;
    }
    return {};
  }

  /*! \brief The nest's body at accumulator element `i` (an expression), its row and column loops at `row`, `col`. */
  Any element_body(const Nest& nest, const Any& i, const Any& row, const Any& col) const {
    Any body = map(nest.inner, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                                  Any part = part_of(parts, load.source());
                                  if (is_none(part)) return load.any();
                                  return call("tirx.BufferLoad", part, List{i}, Any(nullptr));
                                }),
                                ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                                  Any part = part_of(parts, store.buffer());
                                  if (is_none(part)) return store.any();
                                  return call("tirx.BufferStore", part, Any(store.value()), List{i}, Any(nullptr));
                                })},
                   "post");
    std::vector<std::pair<Any, Any>> values;  // loop variable -> its value
    int dim = 0;
    for (const ir::For& l : nest.loops) {
      std::string dtype = cpu::dtype_of(l.loop_var());
      Any value = int_imm(0, dtype.c_str());
      if (const_int(l.extent()) != 1) value = dim++ == 0 ? row : col;
      if (dtype != "int32") value = cast(dtype, value);
      values.emplace_back(Any(l.loop_var()), value);
    }
    return map(body, {ir::rewrite<ir::Var>([&values](const ir::Var& v) -> Any {
                 for (const auto& [loop_var, value] : values) {
                   if (v.same_as(loop_var)) return value;
                 }
                 return v.any();
               })},
               "post");
  }

  /*! \brief Whether every global or shared access of `body` starts at an even element with `v` at 0. */
  static bool even(const Any& body, const Any& v) {
    cpu::Analyzer analyzer;
    bool ok = true;
    auto check = [&](const Any& buffer, const List& indices) {
      BufferInfo info = buffer_info(buffer);
      if (info.scope != "global" && !is_shared(info.scope)) return;
      Any offset = int_imm(0);
      for (size_t d = 0; d < indices.size(); ++d) {
        int64_t stride = 1;
        for (size_t e = d + 1; e < info.shape.size(); ++e) stride *= info.shape[e];
        offset = cpu::op_add(offset, cpu::op_mul(indices[d], int_imm(stride)));
      }
      offset = map(offset, {ir::rewrite<ir::Var>([&v](const ir::Var& x) -> Any {
                     return x.same_as(v) ? int_imm(0) : x.any();
                   })},
                   "post");
      Any rem = call("prim._OpFloorMod", offset, int_imm(2), Any(nullptr));
      ok = ok && analyzer.can_prove(call("prim._OpEQ", rem, int_imm(0), Any(nullptr)));
    };
    walk(body, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { check(l.source(), l.indices()); }),
                ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) { check(st.buffer(), st.indices()); })});
    return ok;
  }

  /*! \brief `for i in unroll(elements a thread)`: the nest's element at (acc_row(i), acc_col(i)); as pairs of
   * adjacent columns (elements 2p and 2p + 1: columns 2 * acc_pair(2p) + v of row acc_row(2p)), vectorized, where
   * every global access of a pair is provably even (aligned for a 2-element vector access). */
  Any acc_nest(const Nest& nest) const {
    Any acc;
    walk(nest.inner, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                        if (is_none(acc) && !is_none(part_of(parts, l.source()))) acc = l.source();
                      }),
                      ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                        if (is_none(acc) && !is_none(part_of(parts, s.buffer()))) acc = s.buffer();
                      })});
    BufferInfo info = buffer_info(acc);
    WarpGrid grid = grid_of(acc);
    std::string layout = targs({num(info.shape[0]), num(info.shape[1]), num(grid.wm), num(grid.wn)});
    auto layout_call = [&](const char* fn, const Any& i) {
      return extern_call("int32", "tl_cuda::" + (fn + layout), {i});
    };
    int64_t per = info.shape[0] * info.shape[1] / plan.threads;
    Any p = var("p", "int32"), v = var("v", "int32");
    Any first = cpu::op_mul(p, int_imm(2));
    Any pairs = element_body(nest, cpu::op_add(first, v), layout_call("acc_row", first),
                             cpu::op_add(cpu::op_mul(layout_call("acc_pair", first), int_imm(2)), v));
    if (even(pairs, v)) {
      return for_loop(p, int_imm(0), int_imm(per / 2), 3, for_loop(v, int_imm(0), int_imm(2), 2, pairs));
    }
    Any i = var("i", "int32");
    Any body = element_body(nest, i, layout_call("acc_row", i), layout_call("acc_col", i));
    return for_loop(i, int_imm(0), int_imm(per), 3, body);  // 3: unrolled
  }

  /*! \brief The address of a tile's first element; of stage `stage` (an expression) when it is staged. */
  Any tile_address(const Any& tile, const Any& stage) const {
    Any staged = part_of(stage_buffers, tile);
    if (is_none(staged)) return address_of(tile, List{int_imm(0), int_imm(0)});
    return address_of(staged, List{cpu::op_mul(stage, int_imm(buffer_info(tile).shape[0])), int_imm(0)});
  }

  /*! \brief The copy; into stage `stage` with cp.async, its start at loop iteration `iteration`, when pipelined. */
  Any copy(const TileCopy& c, const Any& stage = Any(nullptr), const Any& loop_var = Any(nullptr),
           const Any& iteration = Any(nullptr)) const {
    bool async = !is_none(stage);
    std::string name = "tl_cuda::copy_g2s" + targs({num(c.rows), num(c.cols), num(plan.threads), flag(c.vec),
                                                    flag(async)});
    List start;
    for (const Any& index : c.start) {
      start.push_back(!async ? index : map(index, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
                                             return v.same_as(loop_var) ? iteration : v.any();
                                           })},
                                           "post"));
    }
    return evaluate(extern_call("void", name, {tile_address(c.shared, async ? stage : int_imm(0)),
                                               address_of(c.global, start), int_imm(c.ld)}));
  }

  Any gemm(const Gemm& g, const Any& stage = int_imm(0)) const {
    WarpGrid grid = grid_of(g.c);
    std::string name = "tl_cuda::gemm_ss" + targs({num(g.m), num(g.n), num(g.k), num(grid.wm), num(grid.wn),
                                                   flag(g.ta), flag(g.tb)});
    return evaluate(extern_call("void", name, {tile_address(g.a, stage), tile_address(g.b, stage),
                                               address_of(part_of(parts, g.c), List{int_imm(0)})}));
  }

  void sync(std::vector<Any>& out) {
    out.push_back(barrier());
    read = false;
    written.clear();
  }

  std::vector<Any> emit(const std::vector<GemmItem>& items) {
    std::vector<Any> out;
    for (const GemmItem& item : items) {
      switch (item.role) {
        case GemmRole::kAlloc: {
          Any buffer = ir::AllocBuffer(item.stmt).buffer();
          Any part = is_none(part_of(parts, buffer)) ? part_of(stage_buffers, buffer) : part_of(parts, buffer);
          out.push_back(is_none(part) ? item.stmt : call("tirx.AllocBuffer", part, ffi::Map<String, Any>(),
                                                         Any(nullptr)));
          break;
        }
        case GemmRole::kAccNest:
          out.push_back(acc_nest(*item.nest));
          break;
        case GemmRole::kCopy:
          if (read || written.has(item.copy.shared)) sync(out);
          out.push_back(copy(item.copy));
          written.add(item.copy.shared);
          break;
        case GemmRole::kGemm:
          if (!written.items.empty()) sync(out);
          out.push_back(gemm(item.gemm));
          read = true;
          break;
        case GemmRole::kLoop:
          if (stages_of(plan.pipelines, item.stmt) >= 2) {
            for (Any& st : pipelined_loop(item, stages_of(plan.pipelines, item.stmt))) out.push_back(st);
            break;
          }
          out.push_back(loop(item));
          break;
      }
    }
    return out;
  }

  /*! \brief The serial loop with a barrier at the top of its body (the previous iteration's and the preceding
   * statements' shared accesses before this iteration's); after it, what its body or the statements before left. */
  Any loop(const GemmItem& item) {
    ir::For l(item.stmt);
    bool was_read = read;
    VarSet was_written = written;
    std::vector<Any> body;
    sync(body);
    for (Any& s : emit(item.body)) body.push_back(s);
    read = read || was_read;  // the loop may run no iteration
    for (const Any& b : was_written.items) written.add(b);
    return for_loop(l.loop_var(), l.min(), l.extent(), 0, seq(body), Any(l.annotations()));
  }

  /*! \brief The loop as cp.async multi-buffering over `stages` tile buffers: a prologue starts the copies of the
   * first stages - 1 iterations (one commit group each); iteration k waits for its group (at most stages - 2 left
   * pending), a barrier makes every thread's copies visible and ends every thread's gemm of iteration k - 1, the
   * copies of iteration k + stages - 1 start into the buffers that gemm read, and the gemms read stage k % stages. */
  std::vector<Any> pipelined_loop(const GemmItem& item, int64_t stages) {
    ir::For l(item.stmt);
    Any k = l.loop_var(), lo = l.min(), end = cpu::op_add(l.min(), l.extent());
    std::vector<Any> out;
    if (read || !written.items.empty()) sync(out);
    auto copies = [&](const Any& iteration, const Any& stage) {
      std::vector<Any> group;
      for (const GemmItem& c : item.body) {
        if (c.role == GemmRole::kCopy) group.push_back(copy(c.copy, stage, k, iteration));
      }
      return if_then_else(op_lt(iteration, end), seq(group));
    };
    Any commit = evaluate(extern_call("void", "tl_cuda::async_commit", {}));
    for (int64_t s = 0; s + 1 < stages; ++s) {
      out.push_back(copies(cpu::op_add(lo, int_imm(s)), int_imm(s)));
      out.push_back(commit);
    }
    auto stage_of = [&](int64_t ahead) {
      Any rel = cpu::op_add(call("prim._OpSub", k, lo, Any(nullptr)), int_imm(ahead));
      return call("prim._OpFloorMod", rel, int_imm(stages), Any(nullptr));
    };
    std::vector<Any> body{evaluate(extern_call("void", "tl_cuda::async_wait<" + num(stages - 2) + ">", {})),
                          barrier()};
    body.push_back(copies(cpu::op_add(k, int_imm(stages - 1)), stage_of(stages - 1)));
    body.push_back(commit);
    for (const GemmItem& g : item.body) {
      if (g.role == GemmRole::kGemm) body.push_back(gemm(g.gemm, stage_of(0)));
    }
    out.push_back(for_loop(k, lo, l.extent(), 0, seq(body)));
    read = true;
    written.clear();
    return out;
  }
};

}  // namespace

Any emit_gemm_block(const GemmPlan& plan) {
  Emitter emitter(plan);
  Any body = seq(emitter.emit(plan.items));
  Any tx = var("tx", "int32");
  Any iter_var = call("tirx.IterVar",
                      call("ir.Range_from_min_extent", int_imm(0), int_imm(plan.threads), Any(nullptr)), tx, 1,
                      String("threadIdx.x"), Any(nullptr));
  return call("tirx.AttrStmt", iter_var, String(keys::kThreadExtent), int_imm(plan.threads), body, Any(nullptr));
}

}  // namespace tl::cuda
