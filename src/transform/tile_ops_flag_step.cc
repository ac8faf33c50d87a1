// A whole step under a condition read from a DRAM tensor (issue 28): TileLang's block-sparse attention writes
//
//     for k in T.Pipelined(loop_range):
//         if block_mask[k] != 0:   # BlockSparseMask[bz, by, bx, k] (fold_condition_copies)
//             T.copy(K[...], K_shared); T.gemm(Q_shared, K_shared, acc_s, ...); ...online softmax...; T.gemm(...)
//
// Unlike gemm K steps (tile_ops_flag.cc), such a step makes values the reader, compute and writer kernels move
// between them, so all three must take the same arm. Each reads the value its own way into one variable, which the
// if then tests: the reader reads the tensor's tile holding the value into the flag CB and reads its word from L1
// before pushing the page (read_flag), the compute kernel reads the same word from that page (take_flag:
// read_tile_value), and the writer, where it has ops in the branch, reads the tile into a CB of its own
// (read_own_flag). SplitTTKernels keeps each binding in the kernels of its intrinsic's role, and LowerTTProtocols
// expands each into its protocol, whose binding `value` is the word. Inside the arms the branch planner's rules hold
// (tile_ops_branches.cc): each arm balances its CBs, values made before the loop are held around it, and values the
// step carries across the loop stay at the CB's front in the iterations whose arm is not taken.
// Cost: one tile of the tensor per step for the reader (and for the writer where it has ops in the branch).
#include <algorithm>

#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

bool writer_op(const TileOp& op) {
  return op.kind == tile_op::kCopyOut || op.kind == tile_op::kRowsOut || op.kind == tile_op::kAtomicOut ||
         op.kind == tile_op::kTurnPass;
}

bool dataflow_op(const TileOp& op) {
  return writer_op(op) || op.kind == tile_op::kCopyIn || op.kind == tile_op::kRowsIn ||
         op.kind == tile_op::kIm2colIn || op.kind == tile_op::kAtomicIn || op.kind == tile_op::kCopyLocal;
}

// The condition on the word: the value (the word, or its byte at `scale`) inside or outside [lo, hi]. A byte is taken
// from the word as a uint32: the top byte of a word read as an int32 would be negative, and the kernels' C++ divides
// toward zero.
Any test_of(const Any& word, const FlagValue& v) {
  Any value = v.modulus == 0 ? word
                             : cast("int32", fn::mod(fn::floordiv(cast("uint32", word), cast("uint32", v.scale)),
                                                     cast("uint32", Any(v.modulus))));
  Any lo(v.lo), hi(v.hi);
  if (v.lo == v.hi) return v.inside ? fn::eq(value, lo) : fn::ne(value, lo);
  return v.inside ? fn::and_({fn::ge(value, lo), fn::le(value, hi)}) : fn::or_({fn::lt(value, lo), fn::gt(value, hi)});
}

// The arms' reads of the condition's int32 value (nsa's K/V block at `BlockIndices[...] * BS` and its causal mask's
// bound, under `if i_s >= 0` with `i_s` that value times BS) become the word each kernel has read for the if: the
// reader moves the block by it and the compute kernel moves the mask's table by it, with no second read of the element
// (tile_ops_gather.cc's gather and bound read are for values no condition around them has read).
Any shared_value(const Any& expr, const FlagValue& v, const Any& word) {
  return map(expr, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& l) -> Any {
               bool same = call("ffi.StructuralEqual", l.any(), v.load, false, false).cast<bool>();
               return same ? word : l.any();
             })});
}

BufferInfo flag_buffer(const FlagValue& v, const std::string& suffix) {
  auto [th, tw] = tile_shape();
  BufferInfo flag = v.tensor;
  flag.name = v.tensor.name + suffix;
  flag.shape = {th, tw};
  flag.var = Any();
  flag.scope = "shared";
  flag.index = -1;
  return flag;
}

}  // namespace

void flag_step(const ir::IfThenElse& cond, const std::vector<Any>& loops, std::vector<TileOp>& ops,
               std::vector<TileOp> then_ops, std::vector<TileOp> else_ops, const FlagValue& value) {
  std::string text = "a condition around tile operations (" + format_value(cond.condition()) + ")";
  bool compute = false, writer = false;
  for (const auto* arm : {&then_ops, &else_ops}) {
    for (const TileOp& op : *arm) {
      compute = compute || !dataflow_op(op);
      writer = writer || writer_op(op);
    }
  }
  if (!compute) {
    fail(text + " reads '" + value.tensor.name + "' around copies only; the tenstorrent backend branches on a value "
         "read from a tensor where the compute kernel has ops in the branch (it reads the value the reader pushes)");
  }
  // A gemm accumulating across the loop (its accumulator made before the if) would hold DST from its first K step to
  // its last, which a skipped step would leave unacquired or unpacked: it is made one whole product per step added
  // onto the accumulator (below). A gemm after a value made in the arm is a whole product already.
  for (auto* arm : {&then_ops, &else_ops}) {
    for (size_t g = 0; g < arm->size(); ++g) {
      const TileOp op = (*arm)[g];
      if (op.kind != tile_op::kGemm || truthy(op.get(names::kClear))) continue;
      bool made = std::any_of(arm->begin(), arm->begin() + static_cast<std::ptrdiff_t>(g),
                              [&](const TileOp& w) { return w.out && w.out->name == op.out->name; });
      if (made) continue;
      // nsa decode's `T.gemm(acc_s_cast, V_shared, acc_o)` onto the output carried across the loop: one whole
      // product per step added onto the accumulator (a value the step carries), so a skipped step holds no DST.
      product_onto(*arm, g);
    }
  }
  Any word = var(value.tensor.name + "_word", "int32");
  Any test = value.general ? shared_value(cond.condition(), value, word) : test_of(word, value);
  if (value.modulus == 0 && !is_none(value.load)) {
    for (auto* arm : {&then_ops, &else_ops}) {
      for (TileOp& op : *arm) {
        for (auto& field : op.fields) field.second = shared_value(field.second, value, word);
      }
    }
  }
  Any row_tiles(padded_layout(value.tensor).padded.back() / tile_shape().second);
  auto read_op = [&](const char* kind, const BufferInfo& flag) {
    TileOp op{kind, cond.any(), flag};
    op.tensor = value.tensor;
    op.loops = loops;
    op.fields = {{names::kTensor, value.tensor.var}, {names::kRow, value.row}, {names::kCol, value.col},
                 {names::kRowTiles, row_tiles}, {names::kWord, value.word}, {names::kBind, word}};
    return op;
  };
  BufferInfo flag = flag_buffer(value, "_flag");
  TileOp in = read_op(tile_op::kFlagIn, flag);
  in.fields.emplace_back(names::kTest, test);
  ops.push_back(in);
  TileOp take{tile_op::kFlagRead, cond.any(), std::nullopt, {flag}};
  take.loops = loops;
  take.fields = {{names::kWord, value.word}, {names::kBind, word}};
  ops.push_back(take);
  if (writer) ops.push_back(read_op(tile_op::kFlagOwn, flag_buffer(value, "_flag_own")));
  for (bool then : {true, false}) {
    Any body = then ? cond.then_case().any() : cond.else_case();
    for (TileOp& op : then ? then_ops : else_ops) {
      op.branches.insert(op.branches.begin(), {body, test, then});
      ops.push_back(std::move(op));
    }
  }
}

}  // namespace tl::tileops
