// Blocks read at a row computed from a value read from an index tensor (issue 28, a gather): deepseek_nsa reads
// the K/V block of each selected block, `T.copy(K[i_b, i_s:i_s + BS, i_h, :], K_shared)` with
// `i_s = BlockIndices[i_b, i_t, i_h, i] * BS`, and a paged KV cache reads `KV[block_table[bx, p] * page + ...]`.
//
// Only the reader moves the block, so only the reader needs the value: it reads the aligned chunk of the index
// tensor's page that holds it into the block's own reservation (the reader's until it pushes, so no CB is added),
// reads the value's 32-bit word from L1 after the barrier (l1_word, the word read of a block-sparse branch's flag),
// and reads the block's pages over it at first_tile + value * scale (protocol reader_block_at). The compute and
// writer kernels see the block as any other. The row must be a multiple of the tile's height per unit of the value
// (nsa's BS, a page size: whole tiles), and the rest of it tile-aligned as for any block (lower_tiles' require).
#include <algorithm>

#include "builder.h"
#include "engine_common.h"
#include "records.h"
#include "tile_ops_util.h"
#include "traversal.h"

namespace tl::tileops {
namespace {

std::string tensor_read(const Any& expr, std::vector<ir::TensorLoad>* loads) {
  std::string first;
  walk(expr, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         BufferInfo b = buffer_info(l.source());
         if (b.index_scalar()) return;
         if (loads) loads->push_back(l);
         if (first.empty()) first = b.name;
       })});
  return first;
}

Any replaced(const Any& expr, const Any& load, const Any& by) {
  return map(expr, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& l) -> Any {
               return l.any().same_as(load) ? by : l.any();
             })});
}

std::optional<int64_t> int_of(const Any& analyzer, const Any& e) {
  auto c = ir::IntImm::from(call("sym.AnalyzerSimplify", analyzer, e, 2));
  return c ? std::optional<int64_t>(c->value()) : std::nullopt;
}

// Where the element at `indices` of a tiled tensor lies in its padded matrix (InferTTLayout: leading dims fold into
// the rows, a 1-D tensor is row 0 of its tiles).
std::pair<Any, Any> padded_place(const BufferInfo& tensor, const ffi::Array<Any>& indices) {
  size_t n = tensor.shape.size();
  std::vector<int64_t> padded = padded_layout(tensor).padded;
  Any row(int64_t(0)), col = indices[n - 1];
  if (n > 1) {
    Any lead(int64_t(0));
    for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(tensor.shape[d])), indices[d]);
    row = fn::add(fn::mul(lead, Any(padded[n - 2])), indices[n - 2]);
  }
  return {row, col};
}

// Its page, and its byte in the page (a tile is four 16x16 faces in row-major order, each row-major).
std::pair<Any, Any> element_place(const BufferInfo& tensor, const ffi::Array<Any>& indices, int64_t bytes) {
  auto [th, tw] = tile_shape();
  std::vector<int64_t> padded = padded_layout(tensor).padded;
  auto [row, col] = padded_place(tensor, indices);
  Any page = fn::add(fn::mul(fn::floordiv(row, Any(th)), Any(padded.back() / tw)), fn::floordiv(col, Any(tw)));
  Any r = fn::mod(row, Any(th)), c = fn::mod(col, Any(tw));
  const Any half(th / 2), face_side(tw / 2);
  Any face = fn::add(fn::mul(fn::floordiv(r, half), Any(int64_t(2))), fn::floordiv(c, face_side));
  Any at = fn::add(fn::add(fn::mul(face, Any((th / 2) * (tw / 2))), fn::mul(fn::mod(r, half), face_side)),
                   fn::mod(c, face_side));
  return {page, fn::mul(at, Any(bytes))};
}

void plain(TileOp& op) {
  op.fields.insert(op.fields.end(), {{names::kGather, Any(false)}, {names::kIndex, op.get(names::kTensor)},
                                     {names::kIndexTile, Any(int64_t(0))}, {names::kIndexByte, Any(int64_t(0))},
                                     {names::kIndexBytes, Any(int64_t(0))}, {names::kIndexWord, Any(int64_t(0))},
                                     {names::kIndexScale, Any(int64_t(0))}});
}

void gather(TileOp& op, const ir::TensorLoad& load) {
  auto [th, tw] = tile_shape();
  BufferInfo index = buffer_info(load.source());
  std::string text = "T.copy from '" + op.tensor->name + "' at row " + format_value(op.get(names::kRow));
  if (index.dtype != "int32" && index.dtype != "uint32") {
    fail(text + " reads " + index.dtype + " tensor '" + index.name + "'; the tenstorrent backend's reader reads an "
         "index as a 32-bit word (int32 or uint32 index tensors)");
  }
  if (row_major(index)) {
    fail(text + " reads '" + index.name + "', which is laid out row-major; the reader reads an index from a tiled "
         "tensor");
  }
  for (const Any& i : load.indices()) {
    if (std::string read = tensor_read(i, nullptr); !read.empty()) {
      fail(text + " reads '" + index.name + "' at an index read from '" + read + "'; the reader computes the "
           "index's place from constants, block indices, loop variables and index scalars");
    }
  }
  // row = base + value * a, with a a whole number of tile rows.
  Any analyzer = call("sym.Analyzer");
  Any row = op.get(names::kRow);
  const char* dtype = index.dtype.c_str();  // the value's own dtype: the row's arithmetic stays well typed
  Any base = call("sym.AnalyzerSimplify", analyzer, replaced(row, load.any(), int_imm(0, dtype)), 2);
  std::optional<int64_t> a = int_of(analyzer, fn::sub(replaced(row, load.any(), int_imm(1, dtype)), base));
  std::optional<int64_t> twice = int_of(analyzer, fn::sub(replaced(row, load.any(), int_imm(2, dtype)), base));
  if (!a || !twice || *twice != 2 * *a) {
    fail(text + " is not a value read from '" + index.name + "' times a constant plus an offset; the tenstorrent "
         "backend's reader moves a block by a multiple of such a value");
  }
  if (*a % th != 0) {
    fail(text + " moves by " + std::to_string(*a) + " rows per unit of the value read from '" + index.name +
         "'; the tenstorrent backend's reader moves a block by whole tiles of " + std::to_string(th) +
         " rows (a block size that is a multiple of " + std::to_string(th) + ")");
  }
  int64_t align = as_int(item(attr(device(), "NOC_ALIGNMENT"), Any(String("dram_read"))));
  auto [page, byte] = element_place(index, load.indices(), 4);
  for (auto& [key, value] : op.fields) {
    if (key == names::kRow) value = base;
  }
  op.fields.insert(op.fields.end(),
                   {{names::kGather, Any(true)}, {names::kIndex, index.var}, {names::kIndexTile, page},
                    {names::kIndexByte, fn::mul(fn::floordiv(byte, Any(align)), Any(align))},
                    {names::kIndexBytes, Any(align)},
                    {names::kIndexWord, fn::floordiv(fn::mod(byte, Any(align)), Any(int64_t(4)))},
                    {names::kIndexScale, Any(*a / th * as_int(op.get(names::kRowTiles)))}});
}

}  // namespace

void gathered_reads(std::vector<TileOp>& ops) {
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kCopyIn) continue;
    std::vector<ir::TensorLoad> loads;
    tensor_read(op.get(names::kRow), &loads);
    std::vector<ir::TensorLoad> col_loads;
    std::string col_read = tensor_read(op.get(names::kCol), &col_loads);
    if (!col_read.empty()) {
      fail("T.copy from '" + op.tensor->name + "' at column " + format_value(op.get(names::kCol)) + " reads '" +
           col_read + "'; the tenstorrent backend's reader moves a block by a value read from a tensor along its "
           "rows only");
    }
    if (loads.empty()) {
      plain(op);
      continue;
    }
    if (loads.size() != 1) {
      fail("T.copy from '" + op.tensor->name + "' at row " + format_value(op.get(names::kRow)) + " reads " +
           std::to_string(loads.size()) + " values of tensors; the tenstorrent backend's reader reads one");
    }
    gather(op, loads[0]);
  }
}

// An index mask whose bound is a value read from a DRAM tensor: only the compute kernel makes the mask, and it
// reads an L1 value through the kernel API (read_tile_value; as the block-sparse gemm's flag, tile_ops_flag.cc), so
// the reader reads the tensor's tile holding the value into a flag CB just before the mask (one tile each time the
// mask is made) and the mask reads its word and moves the table's origin by it. Chosen over the reader building the
// mask tile: that needs the reader to write a tile's worth of patterns from the value (the table already holds every
// pattern), and over the reader choosing the table's page: the table is read once per block and held in its CB.
void bound_reads(std::vector<TileOp>& ops) {
  auto [th, tw] = tile_shape();
  for (size_t m = 0; m < ops.size(); ++m) {
    if (ops[m].kind != tile_op::kMask) continue;
    // Every mask op (an index mask's, tile_ops_masks.cc; an index tile's, tile_ops_select.cc): no bound read yet.
    ops[m].fields.insert(ops[m].fields.end(), {{names::kFlag, Any(false)}, {names::kFlagWord, Any(int64_t(0))},
                                               {names::kPerValue, Any(int64_t(0))}});
    std::vector<ir::TensorLoad> loads;
    tensor_read(ops[m].get(names::kOrigin), &loads);
    if (loads.empty()) continue;
    const ir::TensorLoad& load = loads[0];
    BufferInfo tensor = buffer_info(load.source());
    std::string text = "the index mask into '" + ops[m].out->name + "' (bound read from '" + tensor.name + "')";
    const Intrinsic* read_value = find_intrinsic("read_tile_value");
    if (read_value == nullptr || std::find(read_value->profiles.begin(), read_value->profiles.end(), profile()) ==
                                     read_value->profiles.end()) {
      fail(text + ": the compute kernel reads the bound with read_tile_value, which API profile " + profile() +
           " does not have (its compute cb_api.h offers only cb_get_tile, which hands out an L1 pointer)");
    }
    const char* dtype = tensor.dtype.c_str();
    Any analyzer = call("sym.Analyzer");
    Any origin = ops[m].get(names::kOrigin);
    Any base = call("sym.AnalyzerSimplify", analyzer, replaced(origin, load.any(), int_imm(0, dtype)), 2);
    std::optional<int64_t> a = int_of(analyzer, fn::sub(replaced(origin, load.any(), int_imm(1, dtype)), base));
    std::optional<int64_t> twice = int_of(analyzer, fn::sub(replaced(origin, load.any(), int_imm(2, dtype)), base));
    if (!a || !twice || *twice != 2 * *a) {
      fail(text + ": its table's origin " + format_value(origin) + " is not the value times a constant plus an "
           "offset; the tenstorrent backend moves a mask's table by a multiple of a value read from a tensor");
    }
    if (tensor.on_chip()) {
      // The element staged on chip (loop_dram_element.cc): its CB holds the tile with the value at (0, 0).
      ops[m].ins.push_back(tensor);
      for (auto& [key, value] : ops[m].fields) {
        if (key == names::kOrigin) value = base;
        if (key == names::kFlag) value = Any(true);
        if (key == names::kPerValue) value = Any(*a);
      }
      continue;
    }
    if (row_major(tensor)) {
      fail(text + ": '" + tensor.name + "' is laid out row-major; the reader reads a bound from a tiled tensor");
    }
    Any byte = element_place(tensor, load.indices(), 4).second;
    auto [row, col] = padded_place(tensor, load.indices());
    BufferInfo flag = tensor;
    flag.name = tensor.name + "_bound";
    flag.shape = {th, tw};
    flag.var = Any();
    flag.scope = "shared";
    flag.index = -1;
    TileOp read{tile_op::kCopyIn, ops[m].stmt, flag};
    read.tensor = tensor;
    read.loops = ops[m].loops;
    read.branches = ops[m].branches;
    read.place = ops[m].place;
    read.fields = {{names::kTensor, tensor.var}, {names::kRow, fn::mul(fn::floordiv(row, Any(th)), Any(th))},
                   {names::kCol, fn::mul(fn::floordiv(col, Any(tw)), Any(tw))}, {names::kRows, Any(int64_t(1))},
                   {names::kCols, Any(int64_t(1))},
                   {names::kRowTiles, Any(padded_layout(tensor).padded.back() / tw)}};
    ops[m].ins.push_back(flag);
    for (auto& [key, value] : ops[m].fields) {
      if (key == names::kOrigin) value = base;
      if (key == names::kFlag) value = Any(true);
      if (key == names::kFlagWord) value = fn::floordiv(byte, Any(int64_t(4)));
      if (key == names::kPerValue) value = Any(*a);
    }
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(m), read);
    ++m;
  }
}

}  // namespace tl::tileops
