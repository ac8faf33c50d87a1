// Helpers shared by the tile-op recognisers (tile_ops.cc: copies, gemm, fill, the walk; tile_ops_eltwise.cc:
// element-wise stores).
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "eltwise_ops.h"
#include "index_masks.h"
#include "tile_ops.h"

namespace tl::tileops {

/*! \brief Extents and shapes in messages: "[64, 32]". */
std::string ints_str(const std::vector<int64_t>& xs);
/*! \brief The device tile (rows, cols). */
std::pair<int64_t, int64_t> tile_shape();
Any strip_casts(Any expr);
bool is_zero(const Any& e);
bool is_const_int(const Any& e, int64_t value);
/*! \brief The tiles of a 2-D on-chip buffer (rows, cols), or of a 1-D one [M] held as a column vector
 * (ceil(M/32), 1); a shape that is not whole tiles is padded to them. Other ranks are refused naming `what` and the
 * buffer. */
std::pair<int64_t, int64_t> tiles(const BufferInfo& info, const std::string& what);

/*! \brief A tile-op operand: its buffer, where the region starts and its (static) extents. */
struct Region {
  BufferInfo info;
  std::vector<Any> mins;
  std::vector<int64_t> extents;
};
Region region_of(const Any& operand);
/*! \brief CBs hold whole blocks: an on-chip operand must be the whole buffer. */
void require_full(const Region& r, const std::string& op);

/*! \brief A constant's fp32 bit pattern (the scalar argument of binop_with_scalar tile calls). */
int64_t fp32_bits(double value);
/*! \brief A constant operand (looking through casts). */
std::optional<double> constant_of(const Any& e);
/*! \brief An op-map entry matched by a value of one operand: the operand, and the constant of a node form. */
struct Match {
  const eltwise::Op* op;
  Any operand;
  double constant;
};
/*! \brief The first entry of `unit` (call or node-with-constant form) that `value` is. */
std::optional<Match> first_match(eltwise::Unit unit, const Any& value);
/*! \brief The first binary entry (FPU or SFPU) whose node `value` is, with the node's operands. */
const eltwise::Op* binary_of(const Any& value, std::pair<Any, Any>* operands);
/*! \brief The op-map entry of `unit` named `name`, or nullptr. */
const eltwise::Op* op_named(eltwise::Unit unit, const std::string& name);

/*! \brief What the op map accepts, for messages: " (supported: ...)". */
std::string supported();
/*! \brief Why a node of a buffer and a constant that no sfpu_scalar entry matches (T.max(x, 0.5)) is refused. */
std::string constant_form_refusal();
/*! \brief Why `expr`, an operand of an element-wise store to `out` over loop variables `lvars`, is not a value the
 * FPU/SFPU can read, in the kernel author's terms. */
std::string refusal(const Any& expr, const BufferInfo& out, const std::vector<Any>& lvars);

/*! \brief The names of the op-map entries an element-wise tile op runs ("none" for absent ones). */
struct EltwiseUnits {
  std::string binary, sfpu_binary, sfpu, scalar, bcast;
  std::string bcast_dim = "none";  // cols (bcast with a column vector) or rows (with a row vector)
  std::string where = "none";      // a selection: then / else (which branch the second input is)
  double where_value = 0.0;        // the constant of the other branch
  std::string clamp = "none";      // an sfpu_clamp entry (max, min) bounding the value after `scalar`
  int64_t clamp_lo = 0, clamp_hi = 0;  // its bounds as fp32 bits
};
/*! \brief The fields of an element-wise tile op writing `out` (`bits`: the scalar op's constant as fp32 bits). */
std::vector<std::pair<std::string, Any>> eltwise_fields(const BufferInfo& out, const EltwiseUnits& units,
                                                        int64_t bits);

/*! \brief While it lives, is_index() takes 0 for the variable of each of `loops` whose extent is 1 (TVM's Simplify
 * substitutes it: a [1, N] block's store reads x[0, j]). */
class UnitLoops {
 public:
  explicit UnitLoops(const std::vector<ir::For>& loops);
  ~UnitLoops();
  UnitLoops(const UnitLoops&) = delete;
  UnitLoops& operator=(const UnitLoops&) = delete;

 private:
  std::vector<Any> vars_;
};
/*! \brief Whether `index` is the loop variable `var` (or 0 for a loop of extent 1, under UnitLoops). */
bool is_index(const Any& index, const Any& var);
/*! \brief Whether the first indices are the loop variables themselves (as many as both have; is_index). */
bool same_indices(const List& indices, const std::vector<Any>& lvars);
/*! \brief (loops, store) when `stmt` is a loop nest whose innermost body is one BufferStore (after values bound in
 * the body, which the store reads substituted). */
std::optional<std::pair<std::vector<ir::For>, ir::BufferStore>> eltwise_nest(Any stmt);
/*! \brief The element-wise op of a T.Parallel store, or a refusal naming the construct. */
TileOp classify_eltwise(const std::vector<ir::For>& loops, const ir::BufferStore& store);
/*! \brief The tile ops of a T.Parallel store (tile_ops_tree.cc): a value nesting several operations, or combining
 * a block with a [block_M] column vector, is split into single-operation ops through new on-chip values (named after
 * the store's buffer and `first`, the index its first op gets), in evaluation order; every other store is the one op
 * of classify_eltwise. */
std::vector<TileOp> classify_store(const std::vector<ir::For>& loops, const ir::BufferStore& store, size_t first);

/*! \brief The ops of a T.copy (tile_ops_copy.cc), or a refusal naming the construct. */
std::vector<TileOp> classify_copy(const ir::TilePrimitiveCall& stmt);
/*! \brief A block of `tensor` copied to or from `onchip` at a constant offset must lie inside dim `d` of the tensor;
 * at a moving offset a block of a row-major tensor must divide the dim (a tiled tensor is padded to whole blocks),
 * else a refusal naming the copy. */
void require_inside(const Region& tensor, const BufferInfo& onchip, size_t d);
/*! \brief While it lives, the tensors tt.buffers lays out row-major are what row_major() answers for (tile_ops()). */
class RowMajorLayouts {
 public:
  explicit RowMajorLayouts(const Any& func);
  ~RowMajorLayouts();
  RowMajorLayouts(const RowMajorLayouts&) = delete;
  RowMajorLayouts& operator=(const RowMajorLayouts&) = delete;

 private:
  std::set<std::string> names_;
};
/*! \brief While it lives, padded_layout() answers with the padded layouts tt.buffers records (tile_padding.cc). */
class PaddedLayouts {
 public:
  explicit PaddedLayouts(const Any& func);
  ~PaddedLayouts();
  PaddedLayouts(const PaddedLayouts&) = delete;
  PaddedLayouts& operator=(const PaddedLayouts&) = delete;

 private:
  std::map<std::string, PaddedLayout> layouts_;
};
/*! \brief An op-map binary entry (add, sub, rsub, mul, div, max, min) of two constants, or nullopt for another
 * (tile_padding_math.cc). */
std::optional<double> pad_math(const std::string& op, double a, double b);
/*! \brief An op-map unary entry (exp, log, the comparisons with zero, ...) of a constant, or nullopt for another. */
std::optional<double> pad_math(const std::string& f, double x);
/*! \brief A tensor's padded DRAM layout (InferTTLayout), or its own shape where tt.buffers has none. */
PaddedLayout padded_layout(const BufferInfo& tensor);
/*! \brief Where a block of `tensor` starts in dim `d` of its padded layout (a block of e < whole tiles: at
 * start / e * roundup(e, tile); one that does not start at a multiple of e is refused naming the tensor). */
Any padded_offset(const Region& tensor, size_t d);
/*! \brief Whether InferTTLayout laid `tensor` out row-major (one DRAM page per row of its last dim). */
bool row_major(const BufferInfo& tensor);
/*! \brief A DRAM-to-DRAM copy of a row-major tensor is refused naming the tensor and its layout. */
void refuse_row_major_dram_copy(const Region& src, const Region& dst);
/*! \brief A block of a row-major tensor (tile_ops_rows.cc): read by rows and tilized (rows_in, tilize) or untilized
 * and written by rows (untilize, rows_out). */
std::vector<TileOp> rows_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip,
                              bool in);
/*! \brief T.im2col (tile_ops_rows.cc): the im2col rows read from the row-major NHWC tensor (im2col_in), tilized. */
std::vector<TileOp> classify_im2col(const ir::TilePrimitiveCall& stmt);
/*! \brief Points every im2col_in op at the constant tile of zeros AddTTConstants added. */
void add_im2col_zeros(std::vector<TileOp>& ops, const Any& func);
/*! \brief A block of a tensor moved to (`in`) or from an on-chip buffer: a copy_in or copy_out op. */
TileOp tensor_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip, bool in);
/*! \brief T.atomic_add's tile form (tile_ops_atomic.cc): atomic_in, an element-wise add, atomic_out. */
std::vector<TileOp> classify_atomic(const ir::TilePrimitiveCall& stmt);
/*! \brief The element form (a T.Parallel nest over a whole fragment) as the same three ops, or nullopt. */
std::optional<std::vector<TileOp>> atomic_nest(const ir::For& loop);
/*! \brief The turn fields of the atomic ops: member (blockIdx.z), members (the grid's z extent), step. */
void atomic_order(std::vector<TileOp>& ops, const Any& func);
/*! \brief In PartitionTTWork's streamk mode (T.atomic_add in a while loop or a branch, no blockIdx.z): the turn fields
 * of the atomic ops in program order and the writer's turn_pass after their loop (tile_ops_turns.cc); false in any
 * other mode. */
bool program_order(std::vector<TileOp>& ops, const Any& func);
/*! \brief A transpose inside a loop of a 1-D on-chip buffer made before it, which nothing else reads, made once before
 * the loop instead (tile_ops_hoist.cc): its row tiles are then a loop-invariant value. */
void hoist_invariant_transposes(std::vector<TileOp>& ops);
/*! \brief A row reduction (tile_ops_reduce.cc; a column reduction is a transpose, then one), or a refusal naming
 * the construct and what is accepted. */
std::vector<TileOp> classify_reduce(const ir::TilePrimitiveCall& stmt);
// T.cumsum of a 2-D on-chip block along dim 0 (cumsum_block) or dim 1 (between two on-chip transposes).
std::vector<TileOp> classify_cumsum(const ir::TilePrimitiveCall& stmt);
// T.transpose(src, dst) of a 2-D on-chip block (transpose_block; tile_ops_transpose.cc).
std::vector<TileOp> classify_transpose(const ir::TilePrimitiveCall& stmt);
/*! \brief A gemm that is one whole product onto a value other than a zero fill: a product and an element-wise add
 * (tile_ops_gemm_acc.cc). */
void gemm_accumulation(std::vector<TileOp>& ops);
/*! \brief Sets each gemm's shares_dst: other compute ops run in its K loop (tile_ops_gemm_acc.cc). */
void mark_dst_sharing(std::vector<TileOp>& ops);
/*! \brief int32 <-> float T.Cast stores as typecast_tile ops (tile_ops_integers.cc); other conversions refused. */
void integer_casts(std::vector<TileOp>& ops);
/*! \brief A gemm's fields of a condition read from a tensor (tile_ops_flag.cc); `flag` null: none. */
void set_flag_fields(TileOp& gemm, const BufferInfo* flag, Any word = Any(int64_t(0)), Any scale = Any(int64_t(1)),
                     int64_t modulus = 0, int64_t lo = 0, int64_t hi = 0, bool inside = true);
/*! \brief An if whose condition reads a value of a DRAM tensor at an index of block indices, loop variables and
 * index scalars, around the loads and K steps of gemms (a block-sparse GEMM's `if BlockMask[by, bx, k]`): the
 * reader reads the tile holding the value and the gemms run their products only where it holds (tile_ops_flag.cc);
 * around other ops too, or with an else arm, a whole step that every kernel branches around (flag_step). False when the condition reads no tensor value that way; a refusal naming the construct when the rest breaks a
 * rule. */
bool flag_branch(const ir::IfThenElse& cond, const std::vector<Any>& loops, std::vector<TileOp>& ops,
                 const std::function<void(const Any&, std::vector<TileOp>&)>& visit);
/*! \brief A value a condition reads from a DRAM tensor (tile_ops_flag.cc): the tensor, the first row and column of the
 * tile holding it, its 32-bit word in that tile, its place in the word (scale, modulus: 0 for a whole word) and the
 * range [lo, hi] the condition accepts (inside) or rejects. */
struct FlagValue {
  BufferInfo tensor;
  Any row, col, word, scale;
  int64_t modulus = 0, lo = 0, hi = 0;
  bool inside = true;
  Any load;              // the condition's read of the value (an int32 value: the arms' reads of it share the word)
  bool general = false;  // an int32 value in another condition (nsa's `i_s <= i_t and i_s >= 0`): the word stands in
};
/*! \brief The gemm ops[g] as one whole product into `<acc>_product` and an element-wise add of it onto its accumulator
 * (inserted after it; tile_ops_gemm_acc.cc). */
void product_onto(std::vector<TileOp>& ops, size_t g);
/*! \brief A whole step under such a condition (tile_ops_flag_step.cc): the reader, compute and, where it has ops in
 * the branch, writer kernels each read the value their own way into one variable, and the if tests it, so all three
 * take the same arm; `then_ops` / `else_ops` are the arms' ops. */
void flag_step(const ir::IfThenElse& cond, const std::vector<Any>& loops, std::vector<TileOp>& ops,
               std::vector<TileOp> then_ops, std::vector<TileOp> else_ops, const FlagValue& value);
/*! \brief Refuses arithmetic, fills and gemms on integer blocks, naming the op and the buffer. */
void refuse_integer_math(const std::vector<TileOp>& ops);
// The row maxima of int32 blocks (the SFPU's signed row reduction, tile_ops_int_reduce.cc): field sfpu_int32 = 1.
void integer_reductions(std::vector<TileOp>& ops);
/*! \brief Before the first reduction of `ops`: the read of the scaler tile (the constant tensor of `func`) that
 * every reduction then reads as its second input. */
void add_reduce_scaler(std::vector<TileOp>& ops, const Any& func);
/*! \brief The ops of an index mask the analyzer did not fold (tile_ops_masks.cc): its table's tiles copied on chip
 * into the mask's block, and a buffer selected against +-inf or 0 added to or multiplied by that block. */
std::vector<TileOp> mask_ops(const std::vector<ir::For>& loops, const BufferInfo& out, const masks::IndexMask& mask,
                             size_t first);
/*! \brief The block `name` of the element index `axis` (0: i, 1: j) of a 2-D store to `out`: tile (R, C) is tile R
 * (C) of AddTTConstants' index table, copied on chip (a mask op; tile_ops_select.cc). */
TileOp index_op(const BufferInfo& out, int axis, const Any& stmt, const std::string& name);
/*! \brief out = where(ins[0], ins[1], ins[2]) of blocks of the store's shape (where_tile of three DST tiles). */
TileOp select_op(const BufferInfo& out, const Any& stmt, const std::string& name, std::vector<BufferInfo> ins);
/*! \brief A fill op's value where it is a constant; nullopt where the compute kernel computes it from its block's
 * indices (a uniform value of an element-wise tree, tile_ops_tree.h). */
std::optional<double> fill_constant(const TileOp& op);
/*! \brief T.fill of int32 blocks (fill_tile_int of the value's bits): every fill op gets its int32 and bits fields;
 * a value that is no int32 is refused naming the fill. */
void integer_fills(std::vector<TileOp>& ops);
/*! \brief Before the first mask op reading each index-mask table (tile_ops_tree.cc): its read, once per kernel block
 * (before the outermost loop around that mask). */
void add_mask_tables(std::vector<TileOp>& ops);
/*! \brief A value a loop carries (reads, then rewrites) and reads again after the rewrite in the same iteration (online
 * softmax's running maximum): the rewrite makes `<buffer>_next`, which the later reads of the iteration read, and an
 * on-chip copy at the end of the loop body makes it the carried value (tile_loops.cc). */
void defer_carried_writes(std::vector<TileOp>& ops);
/*! \brief After a T.copy from DRAM into a value a later loop carries (reads, then rewrites; upstream top-k's
 * `logits_frag` across its `for k in T.serial(topk)`): the reader reads into `<buffer>_in` and an on-chip copy makes
 * the carried value (tile_loops.cc): the carried CB's producer is the compute kernel only. */
void copy_in_carried(std::vector<TileOp>& ops);
/*! \brief Before every T.copy out of a value carried across a loop (tile_loops.cc): a copy on chip into a buffer of
 * its own, which the writer reads (the carried CB's reader is the compute kernel). */
void copy_out_carried(std::vector<TileOp>& ops);
/*! \brief Refuses an on-chip value read in an if/else branch it was not made in, or after the if/else that makes it
 * (tile_ops_branches.cc): each branch pushes and frees its own CB pages. */
void balance_branches(const std::vector<TileOp>& ops);
/*! \brief Sets every copy_in's gather fields: a block at a row computed from a value read from an index tensor is
 * read at base + value * scale (tile_ops_gather.cc); other reads of a tensor in a block's place are refused. */
void gathered_reads(std::vector<TileOp>& ops);
/*! \brief Before each index mask whose origin moves by a value read from a DRAM tensor: the reader's read of the
 * value's tile into a flag CB the mask reads last (tile_ops_gather.cc). */
void bound_reads(std::vector<TileOp>& ops);
/*! \brief A value made before an if/else and written to DRAM in a branch is copied on chip there first (the compute
 * kernel reads it in every branch: a CB has one consumer kernel; tile_ops_branches.cc). */
void route_branch_values(std::vector<TileOp>& ops);
/*! \brief An if/else whose arms are each one T.copy of a block of one DRAM tensor into one on-chip buffer, the
 * blocks differing only in where they start, as the one T.copy from the block the condition picks (block-causal
 * attention's K and V reads), or nullopt. */
std::optional<Any> merged_branch_copies(const ir::IfThenElse& cond);

}  // namespace tl::tileops
