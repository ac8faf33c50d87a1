// The TileLang tile operations of a kernel body (T.copy, T.fill, T.gemm and element-wise T.Parallel nests),
// recognised structurally; a kernel the Tenstorrent backend cannot lower is rejected here with a message naming
// the buffer or op and the rule it breaks.
#pragma once

#include <map>
#include <set>

#include "engines.h"
#include "records.h"

namespace tl {

/*! \brief One branch of an if/else around a tile op (its condition computed from index scalars, block indices and
 * loop variables, which every kernel evaluates itself): `body` is the then or else statement. */
struct Branch {
  Any body, condition;
  bool then = true;
};

struct TileOp {
  // one of tile_op::k* (records.h): the kinds and their fields are declared by specs/records/tile_ops.yaml
  std::string kind;
  Any stmt;          // the statement the op replaces (the ops of one statement replace it in order)
  std::optional<BufferInfo> out;
  std::vector<BufferInfo> ins;
  /*! \brief What lower_tiles cases see of the op (names:: constants; the fields of its kind in
   * specs/records/tile_ops.yaml). */
  std::vector<std::pair<std::string, Any>> fields;
  std::optional<BufferInfo> tensor;  // copy_in/copy_out: the DRAM tensor
  std::vector<std::string> reads;    // stream keys (set by dataflow)
  std::vector<int64_t> waits;        // per read: 1 when this op waits for the CB's block (its first reader)
  std::vector<int64_t> pops;         // per read: 1 when this op frees the CB's block after it (its last reader)
  std::string writes;                // stream key
  std::string partial;               // gemm: stream key of the partial-sum CB, if one is needed
  std::string place;                 // "": replaces `stmt`; "before"/"after": goes before/after the loop `stmt`
  std::vector<Any> loops;            // the loops (For) around the op inside the block, outermost first
  std::vector<Branch> branches;      // the if/else branches around the op, outermost first (tile_ops_branches.cc)
  /*! \brief copy_in: whether the block holds tensor padding in its rows / cols (beyond the tensor's end in an edge
   * block, or the rest of the tiles of a block that is not whole tiles); tile_padding.cc follows it. */
  bool pad_rows = false, pad_cols = false;
  /*! \brief copy_in: the first row / col of the block that is padding (an expression of block indices and loop
   * variables, past the block's end where it does not hang over), or null where unknown. */
  Any pad_row_start, pad_col_start;
  /*! \brief rows_in: the block's rows past an on-chip buffer that is not whole tiles hold a copy of its last row
   * (reader_rows `rest`): finite data, whatever the tensor's pad value. */
  bool pad_rows_data = false;
  /*! \brief atomic_in/atomic_out: the target block's start in each dim of its tensor (an N-D tensor's rows are
   * folded into the row field, so the output-block check reads the dims here). */
  std::vector<Any> target_mins;
  /*! \brief A field by name (an internal error if absent). */
  const Any& get(const char* name) const;
};

/*! \brief A loop of TileOp::loops in messages: "'k'" (a For), or "the while loop (while cond)" (a While: a work
 * range walked by index scalars, whose trip count every kernel finds at run time). */
std::string loop_label(const Any& loop);
/*! \brief What identifies a loop of TileOp::loops through rewrites of its body: a For's variable, a While's
 * condition. */
Any loop_key(const Any& loop);

/*! \brief The tensors a T.copy block slices across a leading dim while holding the second-to-last dim at one index
 * ((B, S, H, D) per head): InferTTLayout lays them out row-major (buffer.row_major). */
std::set<std::string> row_major_tensors(const Any& func);
/*! \brief A tensor's DRAM layout of whole tiles (tile_padding.cc): its shape with the tiled dims (the last two; a
 * 1-D tensor's one) padded so that every block a T.copy moves lies inside (a block hanging over the end reads and
 * writes padding), and per dim the extent e of blocks that are not whole tiles (0 otherwise): each such block is
 * laid out on a run of its own of ceil(e / tile) tiles, element i at (i / e) * roundup(e, tile) + i % e. */
struct PaddedLayout {
  std::vector<int64_t> shape, padded, blocks;
  /*! \brief A 2-D tensor every T.copy moves one column of to or from a 1-D on-chip buffer (upstream top-k's
   * `gates[bx * blk_m + i, k] = max_val[i]`): DRAM holds its (cols, rows) transpose, whose shape, padded and blocks
   * these are (a column of the tensor is a row there, moved as a 1-D buffer moves a row; tile_ops_copy.cc). */
  bool transposed = false;
};
/*! \brief The padded layout of every tensor parameter (`row_major`: the tensors laid out row-major, left as they
 * are); blocks of one sub-tile dim with different extents are refused naming the tensor. */
std::map<std::string, PaddedLayout> padded_layouts(const Any& func, const std::set<std::string>& row_major);
/*! \brief Each tensor's pad_value: what the host fills its padding with, picked among the values of `identities`
 * (consumer: "sum", "max" (a row reduction's pool), "gemm" (K) -> the value its operand's padding must hold) so that
 * every reduction and gemm reads its identity across padding; a kernel where no choice does is refused naming the
 * value, its consumer and what its padding holds (tile_padding.cc). */
std::map<std::string, double> pad_values(const std::vector<TileOp>& ops, const Any& func,
                                         const std::map<std::string, double>& identities);
/*! \brief The padding check of one choice of pad values (tile_padding_values.cc): what each reduction and gemm
 * reads in padding other than its identity, one message each (none: the choice keeps every result exact). */
std::vector<std::string> padding_violations(const std::vector<TileOp>& ops, const std::map<std::string, double>& pads,
                                            const std::map<std::string, double>& identities,
                                            const std::set<std::string>& index_tables);
/*! \brief An op of the else arm of the if/else at `depth` (1: the outermost around the op) making, last in that arm,
 * a value its then arm makes too (block-causal attention's `if needs_mask: acc_s = mask else: T.clear(acc_s)`, then
 * a gemm onto acc_s): the index of the then arm's last writer of the value, or nullopt. Each arm makes the whole
 * block (made_in_arms) and neither arm reads the value after making it, so the arms push one CB that the ops after
 * the if/else read (tile_ops_branches.cc, tile_dataflow.cc). */
std::optional<size_t> arm_twin(const std::vector<TileOp>& ops, size_t w, size_t depth);
/*! \brief Whether op `w` makes the whole value of its buffer for the arm at `depth` (the ops' branches): it is
 * directly in that arm, or in the else arm of each if/else nested deeper, each with an arm_twin. */
bool made_in_arms(const std::vector<TileOp>& ops, size_t w, size_t depth);
/*! \brief Whether the if/else of `arm` lies inside `loop` (a For or While around the op). */
bool if_inside(const Any& loop, const Branch& arm);
/*! \brief Whether the value op `w` makes is read by op `r` inside a loop `w` is not in, through if/else arms
 * that all lie inside that loop, and is not rewritten in that loop: it is held around the loop (waited for before
 * it, freed after it), so the arms neither wait for it nor free it. */
bool held_around_loop(const std::vector<TileOp>& ops, size_t w, size_t r);
/*! \brief Whether the value op `w` makes and op `r` reads (from the previous iteration, in an arm, or after the
 * loop) is carried across a loop whose ops touching it all lie in one arm of an if inside that loop: the arm taken
 * waits for the old block, frees it and pushes the new one; the arm not taken leaves the old one at the CB's front. */
bool carried_through_arm(const std::vector<TileOp>& ops, size_t w, size_t r);
/*! \brief The tile operations of a kernel's body, in program order (a tensor tt.buffers lays out row-major is read
 * and written by rows and tilized / untilized on chip). */
std::vector<TileOp> tile_ops(const Any& func);

}  // namespace tl
