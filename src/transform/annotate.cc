// The annotate engine: a function attribute holding one row of expression values per tensor parameter or per
// on-chip buffer (layouts, accessor configurations).
#include "engine_common.h"
#include "tile_ops.h"

namespace tl::engines {

Any annotate(const std::string& name, const Dict& options, const AnnotateParams& params) {
  const Any& attr = params.attr;
  const Any& foreach = params.foreach;
  const ExprMap& fields = params.fields;
  const Checks& require = params.require;
  std::string key = as_str(attr);
  bool tensors = as_str(foreach) == "tensors";
  return prim_func_pass(name, [=](const Any& func) -> Any {
    std::vector<BufferInfo> items = tensors ? tensor_params(func) : onchip_buffers(func);
    if (tensors) {  // the layout fact expressions read as buffer.row_major, buffer.padded, buffer.blocks
      std::set<std::string> row_major = row_major_tensors(func);
      std::map<std::string, PaddedLayout> padded = padded_layouts(func, row_major);
      for (BufferInfo& info : items) {
        info.row_major = row_major.count(info.name) > 0;
        info.transposed = padded.at(info.name).transposed;
        info.padded = padded.at(info.name).padded;
        info.blocks = padded.at(info.name).blocks;
      }
    }
    std::string what = tensors ? "tensor" : "on-chip buffer";
    // A tensor laid out already (InferTTLayout's tt.buffers) shows its layout as buffer.dram: the page size and
    // data format stated there, once (a block-float DRAM format's among them).
    Dict layouts = tensors ? attr_dict(func, keys::kTtBuffers) : Dict();
    Dict table;
    for (const BufferInfo& info : items) {
      Dict ns = info.ns();
      if (layouts.count(String(info.name))) ns.Set(String("dram"), layouts.at(String(info.name)));
      Ctx ctx{{names::kBuffer, ns}};
      check(require, what + " '" + info.name + "'", ctx);
      Dict row;
      for (const auto& [field_name, e] : fields) row.Set(String(field_name), e(ctx));
      table.Set(String(info.name), row);
    }
    return with_attrs(func, {{key, table}});
  });
}

}  // namespace tl::engines
