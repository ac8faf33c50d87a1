// The CB formats that follow from block-float DRAM tensors (InferTTLayout's dram_format): a CB that a copy fills from
// such a tensor, or that a copy drains into one, holds the tensor's pages as they are (the NoC moves bytes), so it
// takes the tensor's data format and page size; the unpacker converts its tiles into DST and the packer converts DST
// into them. A block-float tensor is moved by whole-block copies only.
#include "tile_dataflow.h"

#include "engine_common.h"
#include "records.h"

namespace tl {

namespace {

std::string dram_format_of(const Dict& buffers, const std::string& tensor) {
  String key(tensor);
  if (!buffers.count(key)) return "";
  Dict entry = as_dict(buffers.at(key));
  String field(records::buffer::kDramFormat);
  return entry.count(field) ? as_str(entry.at(field)) : "";
}

std::string shown(const std::string& format) { return format.empty() ? "its dtype's format" : format; }

}  // namespace

std::map<std::string, BlockFloatCB> block_float_cbs(const Any& func, const std::vector<TileOp>& ops,
                                                   const std::vector<Stream>& streams) {
  Dict buffers = attr_dict(func, keys::kTtBuffers);
  for (const TileOp& op : ops) {
    if (!op.tensor || dram_format_of(buffers, op.tensor->name).empty()) continue;
    if (op.kind != tile_op::kCopyIn && op.kind != tile_op::kCopyOut) {
      fail("tensor '" + op.tensor->name + "' is stored as " + dram_format_of(buffers, op.tensor->name) +
           " in DRAM (pass_configs 'tl.tt.dram_format'), which a " + op.kind + " tile op cannot read or write: a "
           "block-float tensor moves between DRAM and on-chip buffers by whole-tile T.copy blocks only");
    }
  }
  std::map<std::string, BlockFloatCB> found;
  for (const Stream& s : streams) {
    std::vector<size_t> touching = s.consumer_ops;
    touching.push_back(s.producer_op);
    std::string tensor, format;
    bool any_block_float = false;
    for (size_t i : touching) {
      if (i >= ops.size() || !ops[i].tensor) continue;
      std::string name = ops[i].tensor->name, f = dram_format_of(buffers, name);
      any_block_float = any_block_float || !f.empty();
      if (!tensor.empty() && f != format) {
        fail("on-chip buffer '" + s.buffer.name + "' moves between DRAM tensors '" + tensor + "' (" + shown(format) +
             ") and '" + name + "' (" + shown(f) + ") through one CB, whose pages are copied as they are: store "
             "both in one format (pass_configs 'tl.tt.dram_format') or copy through a compute step");
      }
      tensor = name;
      format = f;
    }
    if (!any_block_float) continue;
    Dict entry = as_dict(buffers.at(String(tensor)));
    found[s.key] = {entry.at(String(records::buffer::kDataFormat)),
                    as_int(entry.at(String(records::buffer::kPageBytes)))};
  }
  return found;
}

}  // namespace tl
