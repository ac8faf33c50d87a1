// Loop lowering of the tile primitives beyond copy/fill/gemm (the pass LowerTileOpsToLoops, cpu_lowering.cc,
// dispatches here): the reductions TVM 0.27 names tirx.tile.sum/max/min (TileLang's T.reduce_*), and the project's
// tl.tile.cumsum, tl.tile.transpose, tl.tile.atomic_add and tl.tile.im2col (python/tilelang/language/_tile_builders.py builds them).
#include <limits>

#include "cpu_loops.h"

namespace tl {
namespace cpu {
namespace {

Any op_sub(const Any& a, const Any& b) { return call("prim._OpSub", a, b, Any(nullptr)); }

/*! \brief A region's dims other than `axis` whose extent is not 1, and their extents. */
std::pair<std::vector<size_t>, std::vector<Any>> other_dims(const ir::TensorRegion& region, size_t axis) {
  std::vector<size_t> dims;
  std::vector<Any> extents;
  size_t d = 0;
  for (const Any& r : region.region()) {
    Any extent = ir::Range(r).extent();
    if (d != axis && !is_unit(extent)) {
      dims.push_back(d);
      extents.push_back(extent);
    }
    ++d;
  }
  if (axis >= d) fail_tilelang("CPU lowering: axis " + std::to_string(axis) + " of '" + region.source().name() +
                               "' is out of range for its " + std::to_string(d) + " dims");
  return {dims, extents};
}

Any extent_at(const ir::TensorRegion& region, size_t axis) { return ir::Range(region.region()[axis]).extent(); }

bool is_float(const std::string& dtype) { return dtype.rfind("float", 0) == 0 || dtype.rfind("bfloat", 0) == 0; }

/*! \brief The identity of a reduction: 0 for sum, -inf / +inf (the dtype's lowest / highest integer) for max / min. */
Any reduce_identity(const std::string& kind, const std::string& dtype) {
  if (kind == "sum") return zero(dtype);
  bool is_max = kind == "max";
  if (is_float(dtype)) {
    double inf = std::numeric_limits<double>::infinity();
    return make_const(Any(is_max ? -inf : inf), dtype.c_str());
  }
  return call(is_max ? "prim.min_value" : "prim.max_value", dtype, Any(nullptr));
}

Any combine(const std::string& kind, const Any& acc, const Any& value) {
  if (kind == "sum") return op_add(acc, value);
  return call(kind == "max" ? "prim._OpMax" : "prim._OpMin", acc, value, Any(nullptr));
}

}  // namespace

/*! \brief tirx.tile.<kind>(dst, src, axes, accum) (config abs=True: of |src|): for each kept index, dst = identity
 * unless accumulating, then dst = combine(dst, src[..., r, ...]) over the reduced axis, in dst's dtype. */
Any lower_reduce(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  List args = tile_call.args();
  std::string op = tile_call.op().name();
  std::string kind = op.substr(op.rfind('.') + 1);
  ir::TensorRegion dst(args[0]), src(args[1]);
  List axes = as_list(args[2]);
  if (axes.size() != 1) {
    fail_tilelang("CPU lowering: " + op + " of '" + src.source().name() + "' over " + std::to_string(axes.size()) +
                  " axes; one axis per reduction is supported");
  }
  size_t axis = static_cast<size_t>(as_int(axes[0]));
  bool accum = as_int(args[3]) != 0;
  auto config = tile_call.config();
  bool absolute = config.count(String("abs")) && as_int(config.at(String("abs"))) != 0;
  auto [kept, kept_extents] = other_dims(src, axis);
  Access s(src, 0, analyzer), d(dst, kept.size(), analyzer);
  s.axes = kept;
  s.axes.push_back(axis);
  std::string acc = buffer_dtype(dst.source());
  Any identity = reduce_identity(kind, acc);
  return loop_nest(kept_extents, [&](const std::vector<Any>& lvs) {
    Any update = loop_nest({extent_at(src, axis)}, [&](const std::vector<Any>& rs) {
      std::vector<Any> idx = lvs;
      idx.push_back(rs[0]);
      Any value = s.load(idx, acc);
      if (absolute) value = call("tirx.abs", value, Any(nullptr));
      return d.store(lvs, combine(kind, d.load(lvs, acc), value));
    }, "r");
    return accum ? update : seq_stmt(to_list({d.store(lvs, identity), update}));
  });
}

/*! \brief tl.tile.cumsum(dst, src, dim, reverse): along dim, dst[first] = src[first], then
 * dst[next] = src[next] + dst[previous] (in place when dst is src: src[next] is read before it is written). */
Any lower_cumsum(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  List args = tile_call.args();
  ir::TensorRegion dst(args[0]), src(args[1]);
  size_t axis = static_cast<size_t>(as_int(args[2]));
  bool reverse = as_int(args[3]) != 0;
  auto [outer, outer_extents] = other_dims(src, axis);
  Access s(src, 0, analyzer), d(dst, 0, analyzer);
  s.axes = outer;
  s.axes.push_back(axis);
  d.axes = s.axes;
  Any n = extent_at(src, axis);
  std::string index_dtype = dtype_of(n), dtype = buffer_dtype(dst.source());
  Any one = int_imm(1, index_dtype.c_str());
  auto position = [&](const Any& j) { return reverse ? op_sub(op_sub(n, one), j) : j; };
  return loop_nest(outer_extents, [&](const std::vector<Any>& lvs) {
    auto at = [&](const Any& j) {
      std::vector<Any> idx = lvs;
      idx.push_back(position(j));
      return idx;
    };
    Any first = d.store(at(int_imm(0, index_dtype.c_str())), s.load(at(int_imm(0, index_dtype.c_str())), dtype));
    Any rest = loop_nest({op_sub(n, one)}, [&](const std::vector<Any>& ks) {
      Any next = op_add(ks[0], one);
      return d.store(at(next), op_add(s.load(at(next), dtype), d.load(at(ks[0]), dtype)));
    }, "k");
    return seq_stmt(to_list({first, rest}));
  });
}

/*! \brief tl.tile.transpose(dst, src): dst[j, i] = src[i, j] over src's (M, N) extents. */
Any lower_transpose(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  List args = tile_call.args();
  ir::TensorRegion dst(args[0]), src(args[1]);
  Access s(src, 0, analyzer), d(dst, 0, analyzer);
  s.axes = {0, 1};
  d.axes = {1, 0};
  std::string dtype = buffer_dtype(dst.source());
  return loop_nest({extent_at(src, 0), extent_at(src, 1)}, [&](const std::vector<Any>& lvs) {
    return d.store(lvs, s.load(lvs, dtype));
  });
}

/*! \brief tl.tile.atomic_add(dst, value): dst += value, element-wise for a tile value. Blocks run one after another
 * on the CPU backends, so a read-modify-write is atomic there. */
Any lower_atomic_add(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  List args = tile_call.args();
  ir::TensorRegion dst(args[0]);
  std::string dtype = buffer_dtype(dst.source());
  if (ir::TensorRegion::matches(args[1])) {
    ir::TensorRegion src(args[1]);
    std::vector<Any> extents = non_unit_extents(src);
    Access d(dst, extents.size(), analyzer), s(src, extents.size(), analyzer);
    return loop_nest(extents, [&](const std::vector<Any>& lvs) {
      return d.store(lvs, op_add(d.load(lvs, dtype), s.load(lvs, dtype)));
    });
  }
  Access d(dst, 0, analyzer);
  return d.store({}, op_add(d.load({}, dtype), cast_to(args[1], dtype)));
}

/*! \brief tl.tile.atomic_add on a cuda target (its blocks and threads run in parallel): each update of dst is CUDA's
 * atomicAdd(&dst[i], v), as TVM's own cuda_atomic_add wraps it (BindCudaThreads shows ThreadSync these as the
 * reads and writes they are). */
Any lower_atomic_add_cuda(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  Any dst = ir::TensorRegion(tile_call.args()[0]).source();
  std::string dtype = buffer_dtype(dst);
  return map(lower_atomic_add(tile_call, analyzer), {ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& st) -> Any {
               auto add = ir::Add::from(st.value());
               if (!st.buffer().same_as(dst) || !add) return st.any();
               Any element = call("tirx.BufferLoad", st.buffer().any(), Any(st.indices()), Any(nullptr));
               Any address = call_intrin("handle", "tirx.address_of", List{element});
               return evaluate(call_intrin(dtype, "tirx.call_extern", List{string_imm("atomicAdd"), address,
                                                                             add->b()}));
             })},
             "post");
}

namespace {

Any op_floordiv(const Any& a, const Any& b) { return call("prim._OpFloorDiv", a, b, Any(nullptr)); }
Any op_floormod(const Any& a, const Any& b) { return call("prim._OpFloorMod", a, b, Any(nullptr)); }
Any op_ge(const Any& a, const Any& b) { return call("prim._OpGE", a, b, Any(nullptr)); }

int64_t static_dim(const Any& extent, const std::string& what) {
  if (!ir::IntImm::matches(extent)) fail_tilelang("CPU lowering: T.im2col needs a constant " + what);
  return as_int(extent);
}

}  // namespace

/*! \brief tl.tile.im2col(col, img, nhw_step, c_step, kernel, stride, dilation, pad): for i, j over the
 * [block_M, block_K] tile, col[i, j] = img[n, h, w, c] of output pixel m = nhw_step * block_M + i and im2col column
 * k = c_step * block_K + j (specs/language/tilelang.yaml states the indices), 0 where (n, h, w) lies outside img or
 * k past kernel * kernel * C: every index is bounds-checked before the load. */
Any lower_im2col(const ir::TilePrimitiveCall& tile_call, const Analyzer&) {
  List args = tile_call.args();
  ir::TensorRegion col(args[0]), img(args[1]);
  std::vector<Any> shape = to_vector(ir::BufferType(ir::Var(img.source()).ty()).shape());
  std::vector<int64_t> dims;  // N, H, W, C
  for (size_t d = 0; d < shape.size(); ++d) dims.push_back(static_dim(shape[d], "img shape"));
  int64_t kernel = as_int(args[4]), stride = as_int(args[5]), dilation = as_int(args[6]), pad = as_int(args[7]);
  int64_t oh = (dims[1] + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  int64_t ow = (dims[2] + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  List ranges = col.region();
  size_t nd = ranges.size();
  Any block_m = ir::Range(ranges[nd - 2]).extent(), block_k = ir::Range(ranges[nd - 1]).extent();
  std::string dtype = buffer_dtype(col.source()), idx = dtype_of(block_m);
  auto c = [&](int64_t v) { return int_imm(v, idx.c_str()); };
  return loop_nest({block_m, block_k}, [&](const std::vector<Any>& ij) {
    Any m = op_add(op_mul(cast_to(args[2], idx), block_m), ij[0]);
    Any k = op_add(op_mul(cast_to(args[3], idx), block_k), ij[1]);
    Any n = op_floordiv(m, c(oh * ow)), kh = op_floordiv(k, c(kernel * dims[3]));
    Any h = op_sub(op_add(op_mul(op_floordiv(op_floormod(m, c(oh * ow)), c(ow)), c(stride)),
                          op_mul(kh, c(dilation))), c(pad));
    Any w = op_sub(op_add(op_mul(op_floormod(m, c(ow)), c(stride)),
                          op_mul(op_floormod(op_floordiv(k, c(dims[3])), c(kernel)), c(dilation))), c(pad));
    Any inside = all_of({op_lt(n, c(dims[0])), op_lt(kh, c(kernel)), op_ge(h, c(0)), op_lt(h, c(dims[1])),
                         op_ge(w, c(0)), op_lt(w, c(dims[2]))});
    Any load = call("tirx.BufferLoad", img.source().any(), to_list({n, h, w, op_floormod(k, c(dims[3]))}), Any(nullptr));
    Any value = call("prim._OpIfThenElse", inside, cast_to(load, dtype), zero(dtype), Any(nullptr));
    std::vector<Any> at;
    for (size_t d = 0; d < nd; ++d) at.push_back(ir::Range(ranges[d]).min());
    at[nd - 2] = op_add(at[nd - 2], ij[0]);
    at[nd - 1] = op_add(at[nd - 1], ij[1]);
    return call("tirx.BufferStore", col.source().any(), value, to_list(at), Any(nullptr));
  });
}

}  // namespace cpu
}  // namespace tl
