// Tensor views and overwritten blocks (loop_blocks.h), the last steps of LowerTTLoopsToTileOps.
#include "loop_blocks.h"

namespace tl::loops {

// ------------------------------------------------------------------------------------------------------ views

namespace {

int64_t product(const std::vector<int64_t>& shape) {
  int64_t total = 1;
  for (int64_t e : shape) total *= e;
  return total;
}

// The tensor parameter whose storage `decl` views, if any.
std::optional<BufferInfo> viewed_tensor(const ir::DeclBuffer& decl, const std::vector<BufferInfo>& params) {
  for (const BufferInfo& p : params) {
    bool over = false;
    walk(decl.data(), {ir::visit<ir::Var>([&](const ir::Var& v) { over |= v.same_as(p.var); })});
    if (over) return p;
  }
  return std::nullopt;
}

// The 2-D `T.Tensor((rows, cols), dtype, tensor.data)` declarations (and `T.reshape`s) over tensor parameters whose
// elements they all cover (view var -> tensor var). A view whose cols is the tensor's last dim is its folded
// matrix; any other (a 1-D tensor reshaped to [rows, cols]) is a matrix only if the tensor becomes it (matrices()).
std::vector<std::pair<Any, Any>> folded_views(const Any& func, const Any& body) {
  std::vector<std::pair<Any, Any>> views;
  std::vector<BufferInfo> params = tensor_params(func);
  walk(body, {ir::visit<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) {
         BufferInfo view = buffer_info(decl.buffer());
         auto p = viewed_tensor(decl, params);
         if (p && view.shape.size() == 2 && view.dtype == p->dtype && view.scope == p->scope &&
             product(view.shape) == product(p->shape)) {
           views.emplace_back(decl.buffer().any(), p->var);
         }
       })});
  return views;
}

// Whether `view` (2-D) is the folded matrix of `tensor`: an N-D tensor whose last dim is the view's cols.
bool folds(const Any& view, const Any& tensor) {
  std::vector<int64_t> v = buffer_info(view).shape, t = buffer_info(tensor).shape;
  return t.size() >= 2 && v[1] == t.back();
}

// A view of a tensor parameter that no rule above lowers: refused naming the view, the tensor and why.
[[noreturn]] void refuse_view(const ir::DeclBuffer& decl, const BufferInfo& tensor, const std::string& why) {
  BufferInfo view = buffer_info(decl.buffer());
  std::string name = decl.buffer().name();
  fail((name.empty() ? std::string("a view") : "view '" + name + "'") + " (shape " + tileops::ints_str(view.shape) +
       ", " + view.dtype + ") of tensor '" + ir::Var(tensor.var).name() + "' (shape " + tileops::ints_str(tensor.shape) + ", " +
       tensor.dtype + "), a T.reshape or T.Tensor(shape, dtype, " + ir::Var(tensor.var).name() +
       ".data), is not lowered: " + why);
}

// Refuses every view of a tensor parameter that resolve_views leaves (`views`: those it lowers).
void refuse_other_views(const Any& func, const Any& body, const std::vector<std::pair<Any, Any>>& views,
                        const std::vector<std::pair<Any, Any>>& retyped) {
  std::vector<BufferInfo> params = tensor_params(func);
  walk(body, {ir::visit<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) {
         auto p = viewed_tensor(decl, params);
         if (!p) return;
         BufferInfo view = buffer_info(decl.buffer());
         bool lowered = false;
         for (const auto& [v, t] : views) lowered |= v.same_as(decl.buffer().any());
         if (!lowered && view.shape.size() != 2) refuse_view(decl, *p, "only 2-D views are lowered");
         if (!lowered) refuse_view(decl, *p, "a view must have the tensor's dtype and element count");
         bool matrix = false;
         for (const auto& [t, m] : retyped) matrix |= t.same_as(p->var);
         if (!matrix && !folds(decl.buffer().any(), p->var)) {
           refuse_view(decl, *p, "a view whose last dim is not the tensor's is lowered only where the kernel "
                                 "accesses the tensor through views of that one shape and by whole tile ops (it is "
                                 "then laid out as that matrix)");
         }
       })});
}

// Whether the body reads or writes `buffer` other than through tile-op regions (an element load or store).
bool accessed_by_element(const Any& body, const Any& buffer) {
  bool found = false;
  walk(body, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { found |= l.source().same_as(buffer); }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) { found |= s.buffer().same_as(buffer); })});
  return found;
}

// The tensors the body accesses only through folded views of one shape: each becomes that matrix (a parameter of
// the view's 2-D type under the tensor's name), so it is laid out, padded and addressed as a 2-D tensor. The bytes
// the host moves are the same (a C-order tensor is its folded matrix), and no block of the view has to be a block
// of the N-D tensor's tiles (a filter block of 64 rows over (KH, KW, C) = (3, 3, 32) crosses a KW row; a 40-row
// output of (N, OH, OW) = (2, 4, 5) would be padded per 5-row matrix). Tensor var -> its matrix's var.
std::vector<std::pair<Any, Any>> matrices(const Any& body, const std::vector<std::pair<Any, Any>>& views) {
  std::vector<std::pair<Any, Any>> out;
  for (const auto& [view, tensor] : views) {
    bool seen = false;
    for (const auto& done : out) seen |= done.first.same_as(tensor);
    if (seen) continue;
    bool sole = !accessed_by_element(body, tensor);
    for (const auto& [other, of] : views) {
      if (!of.same_as(tensor)) continue;
      sole = sole && !accessed_by_element(body, other) && buffer_info(other).shape == buffer_info(view).shape;
    }
    walk(body, {ir::visit<ir::TensorRegion>([&](const ir::TensorRegion& r) { sole &= !r.source().same_as(tensor); })});
    if (sole) out.emplace_back(tensor, call("ir.Var", String(ir::Var(tensor).name()), ir::Var(view).ty().any(), Any(nullptr)));
  }
  return out;
}

std::optional<Any> lookup(const std::vector<std::pair<Any, Any>>& pairs, const Any& key) {
  for (const auto& [k, v] : pairs) {
    if (k.same_as(key)) return v;
  }
  return std::nullopt;
}

}  // namespace

// `T.Tensor((rows, cols), dtype, tensor.data)` over a tensor parameter whose last dim is `cols` is the tensor's
// folded matrix; a T.reshape of a tensor to [rows, cols] (its elements in C order) is one where the tensor becomes it (the convolution's `kernel_flat` (KH * KW * C, F) of (KH, KW, C, F)). A tensor accessed only
// through such views becomes the matrix (matrices()); otherwise tile ops on the view's blocks are tile ops on the
// tensor's regions (rows_region), which must be blocks of its tiles. The views go.
Any resolve_views(const Any& func, const Any& body, const cpu::Analyzer& analyzer) {
  std::vector<std::pair<Any, Any>> views = folded_views(func, body);
  if (views.empty()) {
    refuse_other_views(func, body, views, {});
    return with_body(func, body);
  }
  std::vector<std::pair<Any, Any>> retyped = matrices(body, views);
  refuse_other_views(func, body, views, retyped);
  auto rewritten = map(body, {ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& tile) -> Any {
                         List args;
                         bool changed = false;
                         for (const Any& arg : tile.args()) {
                           auto r = ir::TensorRegion::from(arg);
                           auto tensor = r ? lookup(views, r->source()) : std::nullopt;
                           if (!tensor) {
                             args.push_back(arg);
                             continue;
                           }
                           changed = true;
                           if (auto matrix = lookup(retyped, *tensor)) {
                             args.push_back(call("tirx.BufferRegion", *matrix, r->region()));
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
                                  "' is not a block of the tensor's tiles: " + *why + " (the tensor is also accessed "
                                  "other than through views of one shape, so it keeps its own tiling)");
                           }
                           args.push_back(std::get<Any>(region));
                         }
                         if (!changed) return tile.any();
                         return call("tirx.TilePrimitiveCall", tile.op().any(), args, ffi::Map<String, Any>(),
                                     tile.config(), Any(nullptr), call("tirx.ExecScope", String("thread")));
                       }),
                       ir::rewrite<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) -> Any {
                         return lookup(views, decl.buffer()) ? evaluate(int_imm(0)) : decl.any();
                       })},
                       "post");
  ir::PrimFunc f(func);
  List params;
  for (const Any& p : f.params()) params.push_back(lookup(retyped, p).value_or(p));
  return prim_func(params, rewritten, f.ret_type(), f.attrs());
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

// A store of one element of a DRAM tensor outside any loop (`T.copy(A[bx * n], B[bx * n])` of one element, TileLang's
// alloc_var initializer test), and the tensor it writes.
static std::optional<ir::BufferStore> dram_element_store(const Any& stmt) {
  auto store = ir::BufferStore::from(stmt);
  if (!store || buffer_info(store->buffer()).on_chip()) return std::nullopt;
  return store;
}

// Whether the tile op `stmt` writes a DRAM block of `store`'s tensor that the analyzer proves holds its element, and
// reads nothing of that tensor.
static bool covers_element(const Any& stmt, const ir::BufferStore& store, const cpu::Analyzer& analyzer) {
  auto tile = ir::TilePrimitiveCall::from(stmt);
  if (!tile) return false;
  std::string op = tile->op().name();
  List args = tile->args();
  if ((op != "tirx.tile.copy" && op != "tirx.tile.fill") || !ir::TensorRegion::matches(args[0])) return false;
  tileops::Region dst = tileops::region_of(args[0]);
  List idx = store.indices();
  if (!dst.info.var.same_as(store.buffer().any()) || dst.mins.size() != idx.size()) return false;
  for (size_t a = 1; a < args.size(); ++a) {
    if (auto r = ir::TensorRegion::from(args[a]); r && r->source().same_as(dst.info.var)) return false;
  }
  for (size_t d = 0; d < idx.size(); ++d) {
    auto off = ir::IntImm::from(simplified(analyzer, fn::sub(idx[d], dst.mins[d])));
    if (!off || off->value() < 0 || off->value() >= dst.extents[d]) return false;
  }
  return true;
}

// Whether `stmt` writes `buffer` whole before anything reads it (1), mentions it first (-1), or neither (0); a loop
// that surely runs (a constant extent of at least 1) counts as its body's first iteration (TileLang's gemm_with_stride:
// T.clear(A_shared) before the K loop whose first statement copies a block into it).
static int first_touch(const Any& stmt, const Any& buffer, const cpu::Analyzer& analyzer) {
  if (auto again = overwrites(stmt); again && again->same_as(buffer)) return 1;
  if (auto loop = ir::For::from(stmt)) {
    auto extent = ir::IntImm::from(simplified(analyzer, loop->extent()));
    if (extent && extent->value() >= 1) {
      for (const Any& inner : flatten(loop->body())) {
        if (int touch = first_touch(inner, buffer, analyzer)) return touch;
      }
      return 0;
    }
  }
  return mentions(stmt, buffer) ? -1 : 0;
}

// In a statement sequence, a block written whole and written whole again before anything reads it is never read
// (the CPU tests' `dst[i] = Init[i]` before a clear=True reduction into dst): the first write goes, as every CB
// needs a consumer. So does a store of one DRAM element that a later copy or fill of a block holding it overwrites
// before anything else mentions the tensor (TileLang's `T.copy(A[bx * n], B[bx * n])` before a loop writing
// B[bx * n + i] for every i): the tensor's last value there is the block's.
Any drop_overwritten(const Any& stmt, const cpu::Analyzer& analyzer) {
  std::vector<Any> seq = flatten(stmt);
  std::vector<Any> kept;
  for (size_t s = 0; s < seq.size(); ++s) {
    auto written = overwrites(seq[s]);
    auto element = dram_element_store(seq[s]);
    if (element) written = element->buffer().any();
    bool dead = false;
    for (size_t n = s + 1; written && n < seq.size(); ++n) {
      if (int touch = element ? 0 : first_touch(seq[n], *written, analyzer)) {
        dead = touch > 0;
        break;
      }
      if (element && covers_element(seq[n], *element, analyzer)) {
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
