// The hook serialize_threads (pass SerializeThreads, specs/passes/serialize_threads.yaml): a block whose body runs per
// thread (T.get_thread_binding launched threadIdx.x/y/z) on a target without threads. The body becomes loops over the
// thread indices placed around each statement that depends on the thread (maximal loop sinking: a statement boundary
// is a barrier, which is what TileLang's ThreadSync may insert between any two statements that share memory, and
// which a race-free kernel with block-uniform control flow cannot tell from its own barriers). A statement that does
// not depend on the thread runs once: all threads would do the same. Per-thread locals that hold thread-dependent
// values become arrays indexed by the thread indices; an atomic add into on-chip memory is a plain add (the loop is
// serial). See the pass spec for what is refused.
#include "cuda_threads.h"

#include <attr_keys.h>

namespace tl {
namespace {

using cpu::op_add;
using cpu::to_list;
using cuda::VarSet;

struct Thread {
  Any var;
  Any extent;
};

bool references(const Any& node, const VarSet& vars) {
  bool found = false;
  walk(node, {ir::visit<ir::Var>([&](const ir::Var& v) { found = found || vars.has(v); })});
  return found;
}

bool is_thread_launch(const Any& stmt) {
  auto attr = ir::AttrStmt::from(stmt);
  if (!attr) return false;
  auto launch = launch_of(*attr);
  return launch && launch->thread_tag().rfind("threadIdx.", 0) == 0;
}

bool is_per_thread(const std::string& scope) { return scope == "local" || scope == "local.var"; }

class Serializer {
 public:
  Serializer(std::vector<Thread> threads, const Any& func_body) : threads_(std::move(threads)) {
    for (const Thread& t : threads_) varying_.add(t.var);
    walk(func_body, {ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& a) {
           if (is_per_thread(ir::BufferType(a.buffer().ty()).storage_scope())) locals_.add(a.buffer());
         })});
    for (bool changed = true; changed;) {
      changed = false;
      mark(func_body, false, changed);
    }
    for (const Any& b : locals_.items) {
      if (varying_.has(b)) widen(b);
    }
  }

  Any run(const Any& stmt) {
    if (auto seq = ir::SeqStmt::from(stmt)) return run_seq(flatten(stmt));
    if (!references(stmt, varying_)) return stmt;
    if (auto alloc = ir::AllocBuffer::from(stmt)) {
      Any w = widened(alloc->buffer());
      return is_none(w) ? stmt : call("tirx.AllocBuffer", w, ffi::Map<String, Any>(), Any(nullptr));
    }
    if (auto loop = ir::For::from(stmt)) {
      if (loop->kind() != 0 || references(loop->min(), varying_) || references(loop->extent(), varying_)) {
        return leaf(stmt);
      }
      return for_loop(loop->loop_var(), loop->min(), loop->extent(), 0, run(loop->body()), loop->annotations());
    }
    if (auto branch = ir::IfThenElse::from(stmt)) {
      if (references(branch->condition(), varying_)) return leaf(stmt);
      Any otherwise = is_none(branch->else_case()) ? Any(nullptr) : run(branch->else_case());
      return if_then_else(branch->condition(), run(branch->then_case()), otherwise);
    }
    if (auto tile = ir::TilePrimitiveCall::from(stmt)) return tile_op(*tile);
    if (ir::DeclBuffer::matches(stmt) || ir::Bind::matches(stmt)) {
      fail_tilelang("SerializeThreads: a view or scalar bound from per-thread values (" + describe(stmt) +
                    ") is not supported; assign to a T.alloc_local buffer instead");
    }
    return leaf(stmt);
  }

 private:
  std::vector<Thread> threads_;
  VarSet varying_, locals_;
  cuda::Parts widened_;

  static std::string describe(const Any& node) { return call("ffi.ReprPrint", node).cast<String>(); }

  Any widened(const Any& buffer) const { return cuda::part_of(widened_, buffer); }

  /*! \brief Adds to varying_ the per-thread locals stored in a thread-dependent context or value. */
  void mark(const Any& stmt, bool dependent, bool& changed) {
    auto add = [&](const Any& buffer) {
      if (locals_.has(buffer) && !varying_.has(buffer)) {
        varying_.add(buffer);
        changed = true;
      }
    };
    if (auto store = ir::BufferStore::from(stmt)) {
      if (dependent || references(store->value(), varying_) || references(Any(store->indices()), varying_)) {
        add(store->buffer());
      }
    } else if (auto tile = ir::TilePrimitiveCall::from(stmt)) {
      if (dependent || references(Any(tile->args()), varying_)) {
        for (const Any& arg : tile->args()) {
          if (auto region = ir::TensorRegion::from(arg)) add(region->source());
        }
      }
    } else if (auto loop = ir::For::from(stmt)) {
      mark(loop->body(), dependent || references(loop->min(), varying_) || references(loop->extent(), varying_),
           changed);
    } else if (auto branch = ir::IfThenElse::from(stmt)) {
      bool d = dependent || references(branch->condition(), varying_);
      mark(branch->then_case(), d, changed);
      if (!is_none(branch->else_case())) mark(branch->else_case(), d, changed);
    } else if (auto w = ir::While::from(stmt)) {
      mark(w->body(), dependent || references(w->condition(), varying_), changed);
    } else if (auto attr = ir::AttrStmt::from(stmt)) {
      mark(attr->body(), dependent, changed);
    } else if (ir::SeqStmt::matches(stmt)) {
      for (const Any& s : flatten(stmt)) mark(s, dependent, changed);
    } else if (auto b = ir::Bind::from(stmt)) {
      if ((dependent || references(b->value(), varying_)) && !varying_.has(b->var())) {
        varying_.add(b->var());
        changed = true;
      }
    }
  }

  /*! \brief A per-thread local -> one element per thread: shape (threads z, y, x) followed by its own shape unless
   * that is a single element. */
  void widen(const Any& buffer) {
    BufferInfo info = buffer_info(buffer);
    List shape;
    for (auto t = threads_.rbegin(); t != threads_.rend(); ++t) shape.push_back(t->extent);
    int64_t elements = 1;
    for (int64_t e : info.shape) elements *= e;
    if (elements != 1) {
      for (int64_t e : info.shape) shape.push_back(int_imm(e));
    }
    Any type = call("tirx.BufferType", String("local.fragment"), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                    Any(nullptr), List(), Any(nullptr));
    widened_.emplace_back(buffer, call("tirx.BufferVar", String(info.name), type, Any(nullptr)));
  }

  /*! \brief The indices of a widened buffer's element: the thread indices, then the original ones (when kept). */
  List widened_indices(const Any& wide, const std::vector<Any>& thread_vars, const List& indices) const {
    List out;
    for (auto t = thread_vars.rbegin(); t != thread_vars.rend(); ++t) out.push_back(*t);
    if (ir::BufferType(ir::Var(wide).ty()).shape().size() > threads_.size()) {
      for (const Any& i : indices) out.push_back(i);
    }
    return out;
  }

  Any run_seq(const std::vector<Any>& stmts) {
    std::vector<Any> out;
    for (const Any& s : stmts) out.push_back(run(s));
    return seq(out);
  }

  /*! \brief `stmt` for every thread: serial loops over the thread indices (x innermost) around it, with fresh loop
   * variables and the widened locals indexed by them. */
  Any leaf(const Any& stmt) {
    std::vector<Any> vars;
    for (const Thread& t : threads_) vars.push_back(var(ir::Var(t.var).name(), cpu::dtype_of(t.var)));
    auto thread_var = [&](const Any& v) -> Any {
      for (size_t i = 0; i < threads_.size(); ++i) {
        if (threads_[i].var.same_as(v)) return vars[i];
      }
      return Any(nullptr);
    };
    Any body = map(stmt, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                            Any w = widened(load.source());
                            if (is_none(w)) return load.any();
                            return call("tirx.BufferLoad", w, widened_indices(w, vars, load.indices()), Any(nullptr));
                          }),
                          ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                            Any w = widened(store.buffer());
                            if (is_none(w)) return store.any();
                            return call("tirx.BufferStore", w, Any(store.value()),
                                        widened_indices(w, vars, store.indices()), Any(nullptr));
                          }),
                          ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& tile) -> Any {
                            fail_tilelang("SerializeThreads: " + tile.op().name() + " in per-thread code (under a "
                                          "condition or loop that depends on the thread index) is not supported: " +
                                          describe(tile.any()));
                          }),
                          ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
                            Any t = thread_var(v);
                            return is_none(t) ? v.any() : t;
                          })},
                    "post");
    for (size_t i = 0; i < threads_.size(); ++i) {
      body = for_loop(vars[i], int_imm(0, cpu::dtype_of(vars[i]).c_str()), threads_[i].extent, 0, body);
    }
    return body;
  }

  /*! \brief A tile operation that depends on the thread: an atomic add into on-chip memory is a plain add (the
   * threads run one after another); a fill of per-thread locals fills every thread's element at once. */
  Any tile_op(const ir::TilePrimitiveCall& tile) {
    std::string op = tile.op().name();
    List args = tile.args();
    if (op == "tl.tile.atomic_add" && !ir::TensorRegion::matches(args[1])) {
      ir::TensorRegion dst(args[0]);
      if (buffer_info(dst.source()).on_chip()) {
        List idx;
        for (const Any& r : dst.region()) idx.push_back(ir::Range(r).min());
        std::string dtype = cpu::buffer_dtype(dst.source());
        Any old = call("tirx.BufferLoad", dst.source().any(), idx, Any(nullptr));
        return leaf(call("tirx.BufferStore", dst.source().any(), op_add(old, cpu::cast_to(args[1], dtype)), idx,
                         Any(nullptr)));
      }
    }
    if (op == "tirx.tile.fill" && !references(args[1], varying_)) {
      ir::TensorRegion dst(args[0]);
      Any w = widened(dst.source());
      if (!is_none(w) && !references(Any(dst.region()), varying_)) {
        List ranges;
        for (auto t = threads_.rbegin(); t != threads_.rend(); ++t) {
          ranges.push_back(call("ir.Range_from_min_extent", int_imm(0), t->extent, Any(nullptr)));
        }
        if (ir::BufferType(ir::Var(w).ty()).shape().size() > threads_.size()) {
          for (const Any& r : dst.region()) ranges.push_back(r);
        }
        List new_args{call("tirx.BufferRegion", w, ranges), args[1]};
        return call("tirx.TilePrimitiveCall", tile.op().any(), new_args, ffi::Map<String, Any>(), tile.config(),
                    Any(nullptr), call("tirx.ExecScope", String("thread")));
      }
    }
    fail_tilelang("SerializeThreads: " + op + " on per-thread values or at a thread-dependent place is not "
                  "supported on this target (its threads run as loops): " + describe(tile.any()));
  }
};

/*! \brief The launch and its directly nested thread launches (threadIdx.x, then y, z) -> loops over the threads. */
Any serialize_launch(const ir::AttrStmt& launch, const Any& func_body) {
  std::vector<Thread> threads;
  Any body = launch.any();
  while (is_thread_launch(body)) {
    ir::AttrStmt attr(body);
    threads.push_back({launch_of(attr)->var().any(), attr.value().any()});
    body = attr.body();
  }
  Serializer serializer(threads, func_body);
  return serializer.run(body);
}

}  // namespace

namespace hooks {

Any serialize_threads() {
  return prim_func_pass("SerializeThreads", [](const Any& func) {
    Any body = ir::PrimFunc(func).body();
    bool has_threads = false;
    walk(body, {ir::visit<ir::AttrStmt>([&](const ir::AttrStmt& a) { has_threads = has_threads || is_thread_launch(a); })});
    if (!has_threads) return func;
    return with_body(func, map(body, {ir::rewrite<ir::AttrStmt>([&](const ir::AttrStmt& a) -> Any {
                                 return is_thread_launch(a) ? serialize_launch(a, body) : a.any();
                               })},
                               "pre"));
  });
}

}  // namespace hooks
}  // namespace tl
