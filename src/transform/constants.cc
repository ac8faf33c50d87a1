// The constants engine: a constant DRAM tensor (e.g. the reduce scaler tile) added as the kernel's last parameter
// when its body uses a tile primitive that needs it. Later passes treat it as any input tensor (layout, accessor,
// runtime argument); the host fills it from tt.constants instead of reading a user array.
#include "engine_common.h"
#include "records.h"

namespace tl::engines {

Any constants(const std::string& name, const Dict& options, const ConstantsParams& params) {
  std::string tensor = as_str(params.tensor), dtype = as_str(params.dtype);
  const Expr &shape = params.shape, &value = params.value, &filled = params.filled;
  List for_ops = as_list(params.for_ops);
  return prim_func_pass(name, [=](const Any& func) -> Any {
    ir::PrimFunc f(func);
    bool needed = false;
    walk(f.body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
           needed = needed || contains(for_ops, str(call.op().name()));
         })});
    if (!needed) return func;
    for (const BufferInfo& info : tensor_params(func)) {
      if (info.name == tensor) {
        fail("kernel parameter '" + tensor + "' has the name of the constant tensor the tenstorrent backend adds "
             "for " + join([&] {
               std::vector<std::string> ops;
               for (const Any& op : for_ops) ops.push_back(as_str(op));
               return ops;
             }()) + "; rename the parameter");
      }
    }
    Ctx ctx;
    List extents;
    for (const Any& e : as_list(shape(ctx))) extents.push_back(int_imm(as_int(e)));
    // A global buffer like a TileLang tensor parameter: no strides, offset 0, 64-byte aligned.
    Any type = call("tirx.BufferType", String("global"), String(dtype), extents, List(), int_imm(0), int64_t(64),
                    int64_t(1), Any(nullptr), List(), Any(nullptr));
    Any buffer = call("tirx.BufferVar", String(tensor), type, Any(nullptr));
    List func_params = f.params();
    func_params.push_back(buffer);
    List rows;  // the filled rows, listed for the host
    for (int64_t r = 0; r < as_int(as_list(shape(ctx))[0]); ++r) {
      if (truthy(filled(Ctx{{names::kRow, Any(r)}}))) {
        rows.push_back(Any(r));
      }
    }
    namespace tc = records::tensor_constant;
    Dict constant = ordered({{tc::kValue, value(ctx)}, {tc::kRows, rows}});
    Dict table = attr_dict(func, keys::kTtConstants);
    table.Set(String(tensor), constant);
    Any added = prim_func(func_params, f.body(), f.ret_type(), f.attrs());
    return with_attrs(added, {{keys::kTtConstants, table}});
  });
}

}  // namespace tl::engines
