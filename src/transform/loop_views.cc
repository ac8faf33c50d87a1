// Tensor views and overwritten blocks (loop_blocks.h), the last steps of LowerTTLoopsToTileOps.
#include "loop_blocks.h"

namespace tl::loops {

// ------------------------------------------------------------------------------------------------------ views

// `T.Tensor((rows, cols), dtype, tensor.data)` over a tensor parameter whose last dim is `cols` is the tensor's
// folded matrix, which is how InferTTLayout tiles it (the convolution's `kernel_flat` (KH * KW * C, F) of (KH, KW,
// C, F)): tile ops on the view's blocks are tile ops on the tensor's regions (rows_region), and the view goes.
Any resolve_views(const Any& func, const Any& body, const cpu::Analyzer& analyzer) {
  std::vector<std::pair<Any, Any>> views;  // view var -> tensor var
  std::vector<BufferInfo> params = tensor_params(func);
  walk(body, {ir::visit<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) {
         BufferInfo view = buffer_info(decl.buffer());
         for (const BufferInfo& p : params) {
           bool over = false;
           walk(decl.data(), {ir::visit<ir::Var>([&](const ir::Var& v) { over |= v.same_as(p.var); })});
           if (!over || view.shape.size() != 2 || p.shape.size() < 2 || view.dtype != p.dtype ||
               view.shape[1] != p.shape.back() || view.shape[0] * view.shape[1] != [&] {
                 int64_t total = 1;
                 for (int64_t e : p.shape) total *= e;
                 return total;
               }()) {
             continue;
           }
           views.emplace_back(decl.buffer().any(), p.var);
         }
       })});
  if (views.empty()) return body;
  auto tensor_of = [&](const Any& var) -> std::optional<Any> {
    for (const auto& [view, tensor] : views) {
      if (view.same_as(var)) return tensor;
    }
    return std::nullopt;
  };
  auto rewritten = map(body, {ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& tile) -> Any {
                         List args;
                         bool changed = false;
                         for (const Any& arg : tile.args()) {
                           auto r = ir::TensorRegion::from(arg);
                           auto tensor = r ? tensor_of(r->source()) : std::nullopt;
                           if (!tensor) {
                             args.push_back(arg);
                             continue;
                           }
                           List ranges = r->region();
                           auto rows = ir::IntImm::from(ir::Range(ranges[0]).extent());
                           auto cols = ir::IntImm::from(ir::Range(ranges[1]).extent());
                           std::variant<Any, std::string> region = std::string("its extents are not constants");
                           if (rows && cols) {
                             region = rows_region(*tensor, ir::Range(ranges[0]).min(), rows->value(),
                                                  ir::Range(ranges[1]).min(), cols->value(), analyzer);
                           }
                           if (auto* why = std::get_if<std::string>(&region)) {
                             fail("a block of view '" + r->source().name() + "' of tensor '" + ir::Var(*tensor).name() +
                                  "' is not a block of the tensor's tiles: " + *why);
                           }
                           args.push_back(std::get<Any>(region));
                           changed = true;
                         }
                         if (!changed) return tile.any();
                         return call("tirx.TilePrimitiveCall", tile.op().any(), args, ffi::Map<String, Any>(),
                                     tile.config(), Any(nullptr), call("tirx.ExecScope", String("thread")));
                       }),
                       ir::rewrite<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) -> Any {
                         return tensor_of(decl.buffer()) ? evaluate(int_imm(0)) : decl.any();
                       })},
                       "post");
  return rewritten;
}

// ------------------------------------------------------------------------------------------ overwritten blocks

// The on-chip buffer a tile primitive writes whole without reading its old value (a copy into it, a fill, a
// reduction with clear=True), or nothing.
static std::optional<Any> overwrites(const Any& stmt) {
  auto tile = ir::TilePrimitiveCall::from(stmt);
  if (!tile) return std::nullopt;
  std::string op = tile->op().name();
  List args = tile->args();
  bool whole = op == "tirx.tile.copy" || op == "tirx.tile.fill" ||
               ((op == "tirx.tile.sum" || op == "tirx.tile.max" || op == "tirx.tile.min") && args.size() > 3 &&
                !truthy(to_plain(args[3])));
  if (!whole || !ir::TensorRegion::matches(args[0])) return std::nullopt;
  tileops::Region dst = tileops::region_of(args[0]);
  if (!dst.info.on_chip()) return std::nullopt;
  for (const Any& m : dst.mins) {
    if (!tileops::is_zero(m)) return std::nullopt;
  }
  if (dst.extents != dst.info.shape) return std::nullopt;
  for (size_t a = 1; a < args.size(); ++a) {  // reads its own old value: not an overwrite
    if (auto r = ir::TensorRegion::from(args[a]); r && r->source().same_as(dst.info.var)) return std::nullopt;
  }
  return dst.info.var;
}

static bool mentions(const Any& stmt, const Any& buffer) {
  bool found = false;
  walk(stmt, {ir::visit<ir::TensorRegion>([&](const ir::TensorRegion& r) { found |= r.source().same_as(buffer); }),
              ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { found |= l.source().same_as(buffer); }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) { found |= s.buffer().same_as(buffer); })});
  return found;
}

// In a statement sequence, a block written whole and written whole again before anything reads it is never read
// (the CPU tests' `dst[i] = Init[i]` before a clear=True reduction into dst): the first write goes, as every CB
// needs a consumer.
Any drop_overwritten(const Any& stmt) {
  std::vector<Any> seq = flatten(stmt);
  std::vector<Any> kept;
  for (size_t s = 0; s < seq.size(); ++s) {
    auto written = overwrites(seq[s]);
    bool dead = false;
    for (size_t n = s + 1; written && n < seq.size(); ++n) {
      if (auto again = overwrites(seq[n]); again && again->same_as(*written)) {
        dead = true;
        break;
      }
      if (mentions(seq[n], *written)) break;
    }
    if (!dead) kept.push_back(seq[s]);
  }
  return kept.size() == seq.size() ? stmt : seq_stmt(cpu::to_list(kept));
}

}  // namespace tl::loops
