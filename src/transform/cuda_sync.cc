// Barriers for a CUDA kernel that launches its own threads (T.get_thread_binding, TileLang's SIMT gemv examples; the
// hook bind_cuda_threads, cuda_threads.h): TVM's ThreadSync("shared"), with T.atomic_add's atomicAdd calls shown to it
// as the reads and writes of shared memory they are.
#include "cuda_threads.h"

#include <attr_keys.h>

namespace tl::cuda {

bool launches_own_threads(const Any& body) {
  bool found = false;
  walk(body, {ir::visit<ir::AttrStmt>([&found](const ir::AttrStmt& attr) {
         auto launch = launch_of(attr);
         found = found || (launch && launch->thread_tag().rfind("threadIdx.", 0) == 0);
       })});
  return found;
}

/*! \brief `atomicAdd(&dst[i], v)` (LowerTileOpsToLoops on cuda) -> the element of dst and v, else nullopt. */
static std::optional<std::pair<ir::TensorLoad, Any>> atomic_add_of(const ir::Evaluate& eval) {
  auto c = ir::Call::from(eval.value());
  if (!c || !ir::Op::matches(c->op()) || ir::Op(c->op()).name() != "tirx.call_extern" || c->args().size() != 3) {
    return std::nullopt;
  }
  auto name = ir::StringImm::from(c->args()[0]);
  auto address = ir::Call::from(c->args()[1]);
  if (!name || name->value() != "atomicAdd" || !address || address->args().size() != 1) return std::nullopt;
  auto element = ir::TensorLoad::from(address->args()[0]);
  if (!element) return std::nullopt;
  return std::make_pair(*element, c->args()[2]);
}

Any sync_own_threads(const Any& func) {
  // ThreadSync does not count an access through address_of: each atomicAdd becomes the store `dst[i] = dst[i] + v`
  // it stands for while ThreadSync runs, then the atomicAdd again (the pass rebuilds only the statements around the
  // barriers it inserts, so the stores keep their identity)
  std::vector<std::pair<Any, Any>> atomics;  // store -> the atomicAdd statement
  Any body = map(ir::PrimFunc(func).body(), {ir::rewrite<ir::Evaluate>([&atomics](const ir::Evaluate& eval) -> Any {
                   auto atomic = atomic_add_of(eval);
                   if (!atomic) return eval.any();
                   const ir::TensorLoad& dst = atomic->first;
                   Any store = call("tirx.BufferStore", dst.source().any(), cpu::op_add(dst.any(), atomic->second),
                                    Any(dst.indices()), Any(nullptr));
                   atomics.emplace_back(store, eval.any());
                   return store;
                 })},
                 "post");
  Dict functions;
  functions.Set(call("ir.GlobalVar", String("main")), with_body(func, body));
  Any mod = call("transform.RunPass", call("s_tir.transform.ThreadSync", String("shared")),
                 call("ir.IRModule", functions, Any(nullptr), Dict()));
  Any synced;
  for (const auto& [gvar, f] : ir::IRModule(mod).functions()) synced = f;
  Any restored = map(ir::PrimFunc(synced).body(), {ir::rewrite<ir::BufferStore>([&atomics](const ir::BufferStore& st) -> Any {
                       for (const auto& [store, eval] : atomics) {
                         if (st.same_as(store)) return eval;
                       }
                       return st.any();
                     })},
                     "post");
  return with_body(synced, restored);
}

}  // namespace tl::cuda
