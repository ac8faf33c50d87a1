// Blocks of row-major tensors (tile_ops_util.h): which tensors are row-major, and the ops that read and write their
// blocks by rows (T.copy, T.im2col) and tilize / untilize them on chip.
#include "engine_common.h"
#include "records.h"
#include "tile_ops_util.h"

namespace tl {

namespace tileops {

namespace {
thread_local const std::set<std::string>* row_major_now = nullptr;  // the tensors of the kernel being recognised
}  // namespace

RowMajorLayouts::RowMajorLayouts(const Any& func) {
  for (const auto& [name, layout] : attr_dict(func, keys::kTtBuffers)) {
    if (as_str(attr(layout, records::buffer::kPageLayout)) == "row_major") names_.insert(as_str(name));
  }
  row_major_now = &names_;
}

RowMajorLayouts::~RowMajorLayouts() { row_major_now = nullptr; }

bool row_major(const BufferInfo& tensor) { return row_major_now != nullptr && row_major_now->count(tensor.name) > 0; }

void refuse_row_major_dram_copy(const Region& src, const Region& dst) {
  for (const Region* r : {&src, &dst}) {
    if (!row_major(r->info)) continue;
    fail("T.copy from tensor '" + src.info.name + "' to tensor '" + dst.info.name + "': tensor '" + r->info.name +
         "' (shape " + ints_str(r->info.shape) + ") is laid out row-major (a block of it is sliced across a leading "
         "dim), and a DRAM-to-DRAM copy of a row-major tensor is not supported; copy through an on-chip buffer");
  }
}

// A NoC transfer between DRAM and L1 keeps its two addresses equal modulo the device's DRAM alignment for the
// direction (noc_alignment of the device record: tt-metal's watcher, DebugSanitizeNocAlignment, and the emulator's
// sanitizer; hardware reads garbage or hangs). DRAM pages start aligned (the allocator rounds pages up), and a
// row-major run lands in L1 at a multiple of its bytes from a DRAM offset that is another multiple of them, so the run
// bytes must be a multiple of the alignment. Refused at compile time, naming the tensor, the run, the device.
namespace {
int64_t dram_noc_alignment(bool read) {
  return as_int(item(attr(device(), "NOC_ALIGNMENT"), Any(String(read ? "dram_read" : "dram_write"))));
}

void require_noc_aligned(const std::string& what, const BufferInfo& tensor, int64_t bytes, bool read,
                         const std::string& hint) {
  std::string direction = read ? "dram_read" : "dram_write";
  int64_t align = dram_noc_alignment(read);
  if (bytes % align == 0) return;
  fail(what + ": tensor '" + tensor.name + "' (" + tensor.dtype + ") is " + (read ? "read" : "written") +
       " in runs of " + std::to_string(bytes) + " bytes, and a NoC " + (read ? "read from" : "write to") +
       " DRAM on device " + as_str(attr(device(), "DEVICE")) + " keeps the L1 and DRAM addresses equal modulo " +
       std::to_string(align) + " bytes (noc_alignment." + direction + " of its device record), so every run must be "
       "a multiple of " + std::to_string(align) + " bytes" + hint);
}
}  // namespace

// A block of a row-major tensor (InferTTLayout: one DRAM page per row of its last dim): `rows x 32` rows of the whole
// last dim, each one page. The reader reads the rows into a CB in tilize_block's input format (row r of the block at
// r * row_bytes: 32 rows of `cols` tiles' width per tile row, CB page = tile size) and the compute kernel tilizes them
// into the on-chip buffer's CB (rows_in, tilize); out, the compute kernel untilizes the block into a row-major CB in
// the tensor's format and the writer writes its rows (untilize, rows_out).
std::vector<TileOp> rows_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip,
                              bool in) {
  const std::vector<int64_t>& shape = tensor.info.shape;
  size_t n = shape.size();
  std::string what = "T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(shape) + ", laid out "
                     "row-major: one DRAM page per row of its last dim) and '" + onchip.name + "'";
  std::vector<int64_t> spanned;
  for (size_t d = 0; d < n; ++d) {
    if (tensor.extents[d] != 1) spanned.push_back(static_cast<int64_t>(d));
  }
  if (spanned.size() != 2 || spanned.back() != static_cast<int64_t>(n - 1)) {
    fail(what + " has region extents " + ints_str(tensor.extents) + " (spans dims " + ints_str(spanned) + "); a "
         "block of a row-major tensor is rows of its last dim, whole or a part (one other dim spanned), which the "
         "tenstorrent backend tilizes on chip");
  }
  // A part of the last dim (upstream kda's `U[bb, s0:s1, bh, v0:v0 + 32]` of a (B, S, H, 64) tensor): each row is a
  // run of its page, read or written at the part's byte offset.
  bool part = !is_const_int(tensor.mins[n - 1], 0) || tensor.extents[n - 1] != shape[n - 1];
  size_t k = static_cast<size_t>(spanned.front());
  if (std::vector<int64_t>{tensor.extents[k], tensor.extents[n - 1]} != onchip.shape) {
    fail(what + " has region extents " + ints_str(tensor.extents) + ", not the on-chip shape " +
         ints_str(onchip.shape));
  }
  require_inside(tensor, onchip, k);
  auto [rows, cols] = tiles(onchip, "on-chip buffer");
  int64_t capacity = dst_capacity(true);
  if (!in && cols > capacity) {
    fail(what + ": the block is " + std::to_string(cols) + " tiles wide; pack_untilize holds one tile row of the "
         "block in DST, at most " + std::to_string(capacity) + " tiles (fp32), so the tenstorrent backend writes "
         "row-major blocks at most " + std::to_string(capacity * tile_shape().second) + " elements wide");
  }
  // The page of the block's first row: rows are numbered row-major over all dims but the last, of the padded shape
  // (tile_padding.cc: the dim blocks span is padded to whole blocks).
  const std::vector<int64_t> padded = padded_layout(tensor.info).padded;
  Any page(int64_t(0));
  for (size_t d = 0; d + 1 < n; ++d) page = fn::add(fn::mul(page, Any(padded[d])), tensor.mins[d]);
  int64_t stride = 1;  // pages between consecutive rows of the block
  for (size_t d = k + 1; d + 1 < n; ++d) stride *= padded[d];
  int64_t elem = as_int(fn::dtype_bytes(String(tensor.info.dtype)));
  int64_t row_bytes = (part ? tensor.extents[n - 1] : padded[n - 1]) * elem;
  Any col_bytes = fn::mul(tensor.mins[n - 1], Any(elem));
  if (part) {
    require_inside(tensor, onchip, n - 1);
    if (padded[n - 1] != shape[n - 1]) {
      fail(what + " reads or writes part of its last dim (from " + format_value(tensor.mins[n - 1]) + ", " +
           std::to_string(tensor.extents[n - 1]) + " elements), whose " + std::to_string(shape[n - 1]) + " elements "
           "are padded to " + std::to_string(padded[n - 1]) + " in DRAM; a part of a padded last dim is not supported");
    }
    require_noc_aligned(what, tensor.info, row_bytes, in, " (a run of each page: the block's width)");
    int64_t align = dram_noc_alignment(in);
    if (!truthy(fn::aligned(col_bytes, Any(align)))) {
      fail(what + ": tensor '" + tensor.info.name + "' (" + tensor.info.dtype + ") is " + (in ? "read" : "written") +
           " from element " + format_value(tensor.mins[n - 1]) + " of each row (byte " + format_value(col_bytes) +
           "), not provably a multiple of " + std::to_string(align) + " bytes, and a NoC " +
           (in ? "read from" : "write to") + " DRAM on device " + as_str(attr(device(), "DEVICE")) + " keeps the L1 "
           "and DRAM addresses equal modulo " + std::to_string(align) + " bytes (noc_alignment." +
           (in ? "dram_read" : "dram_write") + " of its device record); start the part at a multiple of " +
           std::to_string(std::max<int64_t>(align / elem, 1)) + " elements");
    }
  } else {
    require_noc_aligned(what, tensor.info, row_bytes, in, " (one page per row of its last dim, padded to whole tiles)");
  }
  BufferInfo rm = onchip;
  rm.var = Any();
  rm.name = onchip.name + "_rm";
  if (!in) rm.dtype = tensor.info.dtype;  // pack_untilize packs in the tensor's format
  std::vector<std::pair<std::string, Any>> fields = {
      {names::kTensor, tensor.info.var}, {names::kFirstPage, page}, {names::kPageStride, Any(stride)},
      {names::kRowBytes, Any(row_bytes)},
      {names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kValid, Any(tensor.extents[k])},
      {names::kPart, Any(part)}, {names::kColBytes, col_bytes}};
  std::vector<std::pair<std::string, Any>> block = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  if (in) {
    TileOp read{tile_op::kRowsIn, stmt, rm};
    read.tensor = tensor.info;
    read.fields = fields;
    if (padded[k] != shape[k]) {  // the last block's rows past the tensor's end are padding rows (tile_padding.cc)
      read.pad_rows = true;
      read.pad_row_start = fn::sub(Any(shape[k]), tensor.mins[k]);
    }
    if (tensor.extents[k] % tile_shape().first != 0) {  // rows past the buffer's height repeat its last row
      read.pad_rows = read.pad_rows_data = true;
      // where the tensor is padded too, the block's padding starts at one or the other: unknown
      read.pad_row_start = padded[k] == shape[k] ? Any(tensor.extents[k]) : Any();
    }
    if (!part && padded[n - 1] != shape[n - 1]) {  // a last dim not whole tiles: its padding holds the pad value
      read.pad_cols = true;
      read.pad_col_start = Any(shape[n - 1]);
    }
    TileOp tilize{tile_op::kTilize, stmt, onchip, {rm}};
    tilize.fields = block;
    return {read, tilize};
  }
  TileOp untilize{tile_op::kUntilize, stmt, rm, {onchip}};
  untilize.fields = block;
  TileOp write{tile_op::kRowsOut, stmt};
  write.ins = {rm};
  write.tensor = tensor.info;
  write.fields = fields;
  return {untilize, write};
}

// T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad), tl.tile.im2col(col, img, ...): the
// [block_M, block_K] tile of the im2col matrix of NHWC tensor img (laid out row-major: one page per pixel, its C
// channels) is read by rows (output pixels) in runs of min(C, block_K) channels of one pixel, each a part of a page
// (im2col_in; a run in the zero padding reads the constant tile of zeros, add_im2col_zeros), and tilized on chip
// into col's CB. A run never crosses a filter tap, so C and block_K must divide one another.
std::vector<TileOp> classify_im2col(const ir::TilePrimitiveCall& stmt) {
  List args = stmt.args();
  Region col = region_of(args[0]), img = region_of(args[1]);
  std::string what = "T.im2col(" + img.info.name + ", " + col.info.name + ")";
  if (!col.info.on_chip() || img.info.on_chip() || img.info.shape.size() != 4 || col.info.shape.size() != 2) {
    fail(what + ": the tenstorrent backend loads the im2col tile of a 4-D (N, H, W, C) DRAM tensor into a 2-D "
         "on-chip buffer");
  }
  require_full(col, what);
  auto [rows, cols] = tiles(col.info, "on-chip buffer");
  const std::vector<int64_t>& dims = img.info.shape;
  int64_t block_m = col.info.shape[0], block_k = col.info.shape[1], c = dims[3];
  if (c % block_k != 0 && block_k % c != 0) {
    fail(what + ": C = " + std::to_string(c) + " and block_K = " + std::to_string(block_k) + " do not divide one "
         "another; the tenstorrent reader reads each row of the tile as runs of channels of one pixel (one filter "
         "tap), min(C, block_K) channels each, so one must be a multiple of the other");
  }
  int64_t kernel = as_int(args[4]), stride = as_int(args[5]), dilation = as_int(args[6]), pad = as_int(args[7]);
  int64_t out_h = (dims[1] + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  int64_t out_w = (dims[2] + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  int64_t elem = as_int(fn::dtype_bytes(String(img.info.dtype))), seg = std::min(c, block_k);
  auto [th, tw] = tile_shape();
  if (seg * elem > th * tw * 2) {
    fail(what + ": a run of " + std::to_string(seg) + " channels is " + std::to_string(seg * elem) + " bytes, more "
         "than the zero tile's page (" + std::to_string(th * tw * 2) + " bytes) the reader copies padding from");
  }
  // Each run reads min(C, block_K) channels of one pixel into its row at a multiple of its bytes, from the pixel's page
  // at another (zeros: from offset 0). Padding C in DRAM would move the filter's rows too, so such runs are refused.
  require_noc_aligned(what, img.info, seg * elem, true, "; make min(C, block_K) (here " + std::to_string(seg) +
                      ") a multiple of " + std::to_string(std::max<int64_t>(dram_noc_alignment(true) / elem, 1)) +
                      " channels");
  BufferInfo rm = col.info;
  rm.var = Any();
  rm.name = col.info.name + "_rm";
  TileOp read{tile_op::kIm2colIn, stmt, rm};
  read.tensor = img.info;
  read.fields = {{names::kTensor, img.info.var}, {names::kZeros, Any(nullptr)},
                 {names::kFirstRow, fn::mul(args[2], Any(block_m))}, {names::kFirstCol, fn::mul(args[3], Any(block_k))},
                 {names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kRowBytes, Any(block_k * elem)},
                 {names::kSeg, Any(seg)}, {names::kSegBytes, Any(seg * elem)}, {names::kElemBytes, Any(elem)},
                 {names::kImgN, Any(dims[0])}, {names::kImgH, Any(dims[1])}, {names::kImgW, Any(dims[2])},
                 {names::kImgC, Any(c)}, {names::kOutH, Any(out_h)}, {names::kOutW, Any(out_w)},
                 {names::kFilter, Any(kernel)}, {names::kConvStride, Any(stride)}, {names::kDilation, Any(dilation)},
                 {names::kConvPad, Any(pad)}};
  TileOp tilize{tile_op::kTilize, stmt, col.info, {rm}};
  tilize.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  return {read, tilize};
}

// The constant tile of zeros (AddTTConstants: the constant tensor no row of which is filled) that every im2col read
// copies its padding from.
void add_im2col_zeros(std::vector<TileOp>& ops, const Any& func) {
  Dict constants = attr_dict(func, keys::kTtConstants);
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kIm2colIn) continue;
    for (const BufferInfo& info : tensor_params(func)) {
      auto it = constants.find(String(info.name));
      if (it == constants.end()) continue;
      Dict entry = as_dict((*it).second);
      namespace tc = records::tensor_constant;
      if (get(entry, tc::kMask) == nullptr && get(entry, tc::kIndex) == nullptr &&
          as_list(get(entry, tc::kRows)).empty()) {
        for (auto& [key, value] : op.fields) {
          if (key == names::kZeros) value = info.var;
        }
      }
    }
    if (op.get(names::kZeros) == nullptr) internal_error("T.im2col but no constant zero tile (run AddTTConstants)");
  }
}

}  // namespace tileops

using namespace tileops;  // NOLINT: the recognisers' shared helpers

std::set<std::string> row_major_tensors(const Any& func) {
  std::set<std::string> found;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         if (call.op().name() == "tl.tile.im2col") found.insert(region_of(call.args()[1]).info.name);
         if (call.op().name() != "tirx.tile.copy") return;
         for (const Any& operand : {call.args()[0], call.args()[1]}) {
           Region r = region_of(operand);
           size_t n = r.info.shape.size();
           if (r.info.on_chip() || n < 3 || r.extents[n - 2] != 1) continue;
           for (size_t d = 0; d + 2 < n; ++d) {
             if (r.extents[d] != 1) found.insert(r.info.name);
           }
         }
       })});
  return found;
}

}  // namespace tl
