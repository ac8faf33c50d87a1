// Index masks (index_masks.cc): element-wise stores T.if_then_else(cond, a, b) whose condition is affine in the
// store's element indices. AddTTConstants folds the ones constant over the block and adds a constant tile table per
// other one (the index_masks engine); LowerTileOpsToTT copies the table tile of each block tile on chip (op mask).
#pragma once

#include <functional>
#include <optional>

#include "ir.h"

namespace tl::masks {

/*! \brief A condition v >= 0 (and v <= width where width >= 0), v = p * (i // div) + q * (j // div) + r, over the
 * element indices (i, j) of a 2-D store (j absent: q = 0). */
struct Form {
  int64_t p = 0, q = 0;
  Any r;  // a plain int or an expression of block indices, loop variables and constants
  int64_t div = 1;     // the element indices' divisor (block-causal masks: i // 16)
  int64_t width = -1;  // a band's width (a conjunction of two opposite comparisons, or ==); -1: none
};

/*! \brief The operands a and b of a node of type `key` (prim.And, prim.FloorDiv: no IR view has their fields). */
std::optional<std::pair<Any, Any>> operands(const Any& e, const char* key);

/*! \brief The form of an index-mask condition (index_masks_forms.cc): a comparison (>=, >, <=, <, ==) or a
 * conjunction of two opposite ones (16 < row < 96) of expressions affine in i // div, j // div (div 1: i, j), after
 * T.if_then_else(c, 1, 0) flags compared with constants read as c; true and false as constant forms. `refuse` (it
 * throws) is called with why it is none of those. */
Form form_of(const Any& cond, const Any& i, const Any& j, const std::function<void(const std::string&)>& refuse);

/*! \brief The element-wise nests of `body` whose store's T.if_then_else condition holds T.if_then_else choices made
 * by conditions free of the element indices (block-causal attention's `is_noisy_diag`, `q_is_noisy`), each as an
 * IfThenElse over copies of the nest with the choice made (index_masks_forms.cc); `analyzer` simplifies the
 * conditions left (i // 64 with i < 64 is 0). */
Any unswitch_masks(const Any& body, const Any& analyzer);

/*! \brief Padding masks (index_masks_padding.cc): before each T.reduce_max over the rows of a gemm's product whose
 * columns are not whole tiles (`tile_cols`), the store S[i, j] = T.if_then_else(j < N, S[i, j], -inf), which makes
 * the padded columns -inf; the body with them, and the nests (their outer loops, which the engine does not fold). */
std::pair<Any, std::vector<Any>> padding_masks(const Any& body, int64_t tile_cols);

/*! \brief What a masked store is: out = table (constants a, b), or out = x + table / x * table (a buffer x selected
 * against +-inf or 0), where the table holds on_true where the condition holds and on_false elsewhere. */
struct IndexMask {
  Form form;
  double on_true = 0.0, on_false = 0.0;
  std::optional<Any> operand;  // the buffer value x (a TensorLoad), when one branch is one
  std::string combine;         // "add" or "mul" when operand
  std::string dtype;           // the store's dtype, the table's
  Any then_value, else_value;  // the T.if_then_else branches (what a folded store becomes)
  Any lin;                     // p * i + q * j + r as an expression (the condition is lin >= 0)
  std::string text;            // "acc_s[...] = T.if_then_else(...)" for messages
};

/*! \brief The index mask of an element-wise store (loops outermost first, the store's indices their variables), or
 * nullopt when its value is not a T.if_then_else. A T.if_then_else of another form is refused naming the condition
 * and why (not affine in the element indices, a coefficient larger than `max_coefficient`, an unsupported
 * comparison, or values that are neither constants nor a buffer against +-inf or 0). */
std::optional<IndexMask> index_mask(const std::vector<Any>& lvars, const Any& store, int64_t max_coefficient);

/*! \brief Whether the condition of `form` holds at every element (i, j) of [i_lo, i_hi) x [j_lo, j_hi) (true), at
 * none (false), or the arithmetic analyzer cannot tell (nullopt) (index_masks_region.cc): what a mask holds over a
 * region of its block, such as the padding of a block hanging over its tensor's end (tile_padding_values.cc). */
std::optional<bool> over_box(const Form& form, const Any& i_lo, const Any& i_hi, const Any& j_lo, const Any& j_hi);

/*! \brief A table: tile t holds the pattern of offset first + step * t (t < pages); tile 0 is all false, the last
 * all true, so a tile's page is clamp((o - first) / step, 0, pages - 1). step is the tile's side where every offset
 * of the store is one residue modulo it (the analyzer proves r % 32 constant: causal attention's diagonal needs 3
 * tiles, not 64), else 1. */
struct Table {
  int64_t first = 0, step = 1, pages = 0;
};
/*! \brief The table of `form` whose offsets are `residue` modulo `step` (step 1: every offset). */
Table table_of(const Form& form, int64_t tile_rows, int64_t tile_cols, int64_t step, int64_t residue);

/*! \brief The tt.constants `mask` entry of a table, and whether an entry is the one of `mask` and `table`. */
Dict mask_entry(const IndexMask& mask, const Table& table);
bool is_table_of(const Dict& constant, const IndexMask& mask, const Table& table);

/*! \brief While it lives, the index-mask tables of `func` (its tt.constants `mask` entries and their parameters) are
 * what table_for() finds (tile_ops()). */
class MaskTables {
 public:
  explicit MaskTables(const Any& func);
  ~MaskTables();
  MaskTables(const MaskTables&) = delete;
  MaskTables& operator=(const MaskTables&) = delete;

 private:
  Any func_;
};
/*! \brief The table tensor AddTTConstants recorded on a mask's loop (`annotation`: its tt.index_mask), and its
 * pages (an internal error when there is none). */
std::pair<BufferInfo, Table> table_for(const IndexMask& mask, const Any& annotation);

/*! \brief The function whose tables table_for() and index_table_for() read (a MaskTables alive), or nullptr. */
const Any* current_tables();

/*! \brief Index tables (index_tiles.cc): the element index `value` is (0: i, 1: j of `lvars`), or -1. */
int index_axis(const std::vector<Any>& lvars, const Any& value);
/*! \brief The (axis, tiles along it) of every element index a 2-D element-wise store selects as a value
 * (T.if_then_else(cond, j, x)). */
std::vector<std::pair<int, int64_t>> selected_indices(const std::vector<Any>& lvars, const ir::BufferStore& store);
/*! \brief Whether tt.constants `entry` of tensor `info` is an index table of `axis` with at least `pages` tiles. */
bool is_index_table(const Dict& entry, int axis, int64_t pages, const std::string& dtype, const BufferInfo& info);
/*! \brief The index table AddTTConstants added for `axis` (at least `pages` tiles, dtype `dtype`), and its tiles. */
std::pair<BufferInfo, int64_t> index_table_for(int axis, int64_t pages, const std::string& dtype);

}  // namespace tl::masks

namespace tl::engines {
/*! \brief AddTTConstants' index tables (index_tiles.cc): a `<prefix>_<n>` parameter with a tt.constants `index`
 * entry per (axis, tiles, dtype) an element-wise store of `f` selects an element index of; whether it added any. */
bool add_index_tables(const ir::PrimFunc& f, const std::string& prefix, List& func_params, Dict& constants);
}  // namespace tl::engines
