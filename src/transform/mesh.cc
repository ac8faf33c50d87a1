// The mesh partition (hook partition_tt_mesh, pass PartitionTTMesh): the T.Kernel grid split over the devices of a
// mesh of chips. Every device runs the same kernel on its own blocks, so the split grid dims' launch extents become
// the per-device ones and a tensor whose index depends on a split block index becomes the device-local shard its
// blocks own; the rest are replicated. What each tensor is (shards per mesh axis) is the attribute tt.mesh.
// Split-K (option reduce_axis): that mesh axis splits the kernel's reduction loop instead, so every device sums
// its part of the loop's iterations and an output the loop does not index holds a partial result the host adds.
#include <algorithm>
#include <set>
#include <tuple>

#include "records.h"
#include "cpu_loops.h"
#include "engine_common.h"

namespace tl {
namespace {

using cpu::Analyzer;

// One mesh axis and the grid dim it splits.
struct Split {
  int axis = 0;           // 0: the mesh's rows, 1: its columns
  std::string tag;        // blockIdx.x / y / z
  int64_t parts = 1;      // devices along the axis
  int64_t local = 0;      // blocks per device
  Any var;                // the launch variable (set once the launch is found), or the reduction loop's
  bool reduce = false;    // split-K: the axis splits the reduction loop, not a grid dim
  int64_t rows = 1;       // grid_axes xx / yy: both mesh axes split one grid dim (parts = rows * cols), rows of them
};

// Per dim of one access of a tensor: the first index and the extent.
using Access = std::vector<std::pair<Any, Any>>;

bool uses_var(const Any& expr, const Any& v) {
  bool found = false;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& x) { found = found || x.same_as(v); })});
  return found;
}

Any substitute(const Any& node, const Any& from, const Any& to) {
  return map(node, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any { return v.same_as(from) ? to : v.any(); })});
}

Any op_sub(const Any& a, const Any& b) { return call("prim._OpSub", a, b, Any(nullptr)); }
Any op_eq(const Any& a, const Any& b) { return call("prim._OpEQ", a, b, Any(nullptr)); }
Any op_ge(const Any& a, const Any& b) { return call("prim._OpGE", a, b, Any(nullptr)); }

// The accesses of each buffer, by its variable.
struct Uses {
  std::vector<std::pair<Any, std::vector<Access>>> by_buffer;
  std::vector<Access>& operator[](const Any& buffer) {
    for (auto& [v, list] : by_buffer) {
      if (v.same_as(buffer)) return list;
    }
    return by_buffer.emplace_back(buffer, std::vector<Access>{}).second;
  }
};

// Every access of every tensor parameter: loads and stores (one element per dim) and tile-op regions.
Uses accesses(const Any& body) {
  Uses out;
  auto one = [](const Any& e) { return int_imm(1, cpu::dtype_of(e).c_str()); };
  walk(body, {
                 ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                   Access a;
                   for (const Any& i : l.indices()) a.emplace_back(i, one(i));
                   out[l.source().any()].push_back(a);
                 }),
                 ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                   Access a;
                   for (const Any& i : s.indices()) a.emplace_back(i, one(i));
                   out[s.buffer().any()].push_back(a);
                 }),
                 ir::visit<ir::TensorRegion>([&](const ir::TensorRegion& r) {
                   Access a;
                   for (const Any& range : r.region()) a.emplace_back(ir::Range(range).min(), ir::Range(range).extent());
                   out[r.source().any()].push_back(a);
                 }),
             });
  return out;
}

// The dim of `tensor` that split `s` shards (-1: none, the tensor is replicated along the axis), checked: every
// access indexes it by the block index, device d's blocks reach the d-th shard of it and nothing outside.
// A split shards a tensor dim of either orientation; `orient` says which (0: rows, 1: columns of the tiled matrix):
// one that is not its mesh axis's is restacked by the host.
int shard_dim(const BufferInfo& tensor, const std::vector<Access>& uses, const Split& s, const Analyzer& analyzer,
              int& orient) {
  std::set<size_t> dims;
  for (const Access& a : uses) {
    for (size_t d = 0; d < a.size(); ++d) {
      if (uses_var(a[d].second, s.var)) {
        fail("tensor '" + tensor.name + "': the extent of its block in dim " + std::to_string(d) + " depends on " +
             s.tag + ", which the mesh splits; a mesh shards blocks of one extent");
      }
      if (uses_var(a[d].first, s.var)) dims.insert(d);
    }
  }
  if (dims.empty()) return -1;
  const std::string what = "tensor '" + tensor.name + "' (shape " + join([&] {
    std::vector<std::string> e;
    for (int64_t x : tensor.shape) e.push_back(std::to_string(x));
    return e;
  }()) + ")";
  const std::string axis = s.axis == 0 ? "rows" : "columns";
  if (dims.size() > 1) fail(what + " is indexed by " + s.tag + " in several dims; the mesh's " + axis + " split " + s.tag + ", so it cannot be sharded");
  // The mesh's rows split the rows of the tensor's tiled matrix (prod(leading dims) * rows, cols): its
  // second-to-last dim, or a leading dim (heads) when every dim before it has extent 1 (each shard a run of rows).
  // A dim of the other orientation is restacked: the host lays the shards side by side along the mesh axis.
  const size_t d = *dims.begin(), n = tensor.shape.size();
  orient = d + 1 == n ? 1 : 0;
  // Leading dims: checked by lead_dims once every split of the tensor is known (another split may make them 1).
  const int64_t extent = tensor.shape[d];
  int64_t shard_rows = extent / s.parts;  // rows (or columns) of the tiled matrix in one shard
  for (size_t inner = d + 1; orient == 0 && inner + 1 < n; ++inner) shard_rows *= tensor.shape[inner];
  if (extent % s.parts != 0 || shard_rows % 32 != 0) {
    fail(what + ": dim " + std::to_string(d) + " of " + std::to_string(extent) + " does not split into " +
         std::to_string(s.parts) + " shards of whole 32-element tiles over the mesh's " + axis);
  }
  const int64_t shard = extent / s.parts;
  Any shifted = cpu::op_add(s.var, int_imm(s.local, cpu::dtype_of(s.var).c_str()));
  for (const Access& a : uses) {
    const Any& min = a[d].first;
    const bool steps = uses_var(min, s.var) &&
                       analyzer.can_prove(op_eq(op_sub(substitute(min, s.var, shifted), min), int_imm(shard, cpu::dtype_of(min).c_str())));
    const bool inside = analyzer.can_prove(op_ge(min, int_imm(0, cpu::dtype_of(min).c_str()))) &&
                        analyzer.can_prove(cpu::op_le(cpu::op_add(min, a[d].second), int_imm(shard, cpu::dtype_of(min).c_str())));
    if (!steps || !inside) {
      fail(what + " is read or written at " + format_value(min) + " in dim " + std::to_string(d) + ", which is not within the " +
           std::to_string(shard) + "-element shard the blocks of " + s.tag + " own on a device (the mesh's " + axis +
           " split " + s.tag + " into " + std::to_string(s.parts) + " x " + std::to_string(s.local) + " blocks)");
    }
  }
  return static_cast<int>(d);
}

// A dim of the tiled matrix's rows shards it in runs of rows only when every dim before it is 1 on a device;
// a tensor split by both mesh axes in two row dims is laid out by restacking the outer one (the columns' split) and
// cutting each of its shards into the rows' (the inner one), so the outer one must leave one index per device.
void lead_dims(const BufferInfo& t, const std::vector<std::tuple<const Split*, int, int>>& found,
               const std::vector<int64_t>& local) {
  const std::string what = "tensor '" + t.name + "'";
  for (const auto& [s, d, orient] : found) {
    if (orient != 0) continue;
    for (int lead = 0; lead < d; ++lead) {
      const bool split_outer = std::any_of(found.begin(), found.end(), [&](const auto& f) {
        return std::get<1>(f) == lead && std::get<0>(f)->axis == 1 && s->axis == 0;
      });
      const int64_t extent = split_outer ? local[lead] : t.shape[lead];
      if (extent != 1) {
        fail(what + " is sharded in dim " + std::to_string(d) + " with a dim of extent " + std::to_string(extent) +
             (split_outer ? " on a device" : "") + " before it; a shard must be one run of the tiled matrix's rows" +
             (split_outer ? " (the mesh's columns split the outer dim: one index of it per device)" : ""));
      }
    }
  }
  if (found.size() == 2 && std::get<1>(found[0]) != std::get<1>(found[1])) {
    const auto& [rs, rd, ro] = found[0];
    const auto& [cs, cd, co] = found[1];
    const bool rows_restacked = ro != rs->axis, cols_restacked = co != cs->axis;
    if (rows_restacked || (cols_restacked && cd > rd)) {
      fail(what + " is split over both mesh axes (dims " + std::to_string(rd) + " and " + std::to_string(cd) +
           ") and restacked; the host restacks a tensor whose columns' split (" + cs->tag + ") is an outer row dim "
           "and whose rows' split is an inner one; choose grid_axes (tl.PartitionTTMesh.grid_axes) so it is");
    }
  }
}

// The launch of `s.tag` with its per-device extent.
Any split_launches(const Any& body, std::vector<Split>& splits) {
  return map(body, {ir::rewrite<ir::AttrStmt>([&](const ir::AttrStmt& stmt) -> Any {
               auto launch = launch_of(stmt);
               if (!launch) return stmt.any();
               for (Split& s : splits) {
                 if (launch->thread_tag() != s.tag) continue;
                 if (!ir::IntImm::matches(stmt.value())) fail("launch extent of " + s.tag + " is dynamic; a mesh splits static grids");
                 const int64_t extent = ir::IntImm(stmt.value()).value();
                 if (extent % s.parts != 0) {
                   fail("the grid's " + s.tag + " extent " + std::to_string(extent) + " does not split evenly over the " +
                        std::to_string(s.parts) + " devices of the mesh's " + (s.axis == 0 ? "rows" : "columns"));
                 }
                 s.local = extent / s.parts;
                 s.var = launch->var().any();
                 const std::string dtype = cpu::dtype_of(stmt.value());
                 Any extent_local = int_imm(s.local, dtype.c_str());
                 Any iter_var = call("tirx.IterVar", call("ir.Range_from_min_extent", int_imm(0, dtype.c_str()), extent_local, Any(nullptr)),
                                     launch->var().any(), 1, String(s.tag), Any(nullptr));
                 return call("tirx.AttrStmt", iter_var, String(keys::kThreadExtent), extent_local, stmt.body().any(), Any(nullptr));
               }
               return stmt.any();
             })});
}

// Split-K: the one serial loop whose variable indexes a tensor parameter (GEMM's K), its extent made one device's.
Any split_reduction(const Any& func, const Any& body, Split& s) {
  Uses uses = accesses(body);
  std::vector<ir::For> found;
  std::vector<std::string> names;
  walk(body, {ir::visit<ir::For>([&](const ir::For& loop) {
         if (loop.kind() != 0) return;
         for (const BufferInfo& t : tensor_params(func)) {
           for (const Access& a : uses[t.var]) {
             for (const auto& dim : a) {
               if (!uses_var(dim.first, loop.loop_var().any())) continue;
               found.push_back(loop);
               names.push_back(loop.loop_var().name());
               return;
             }
           }
         }
       })});
  const std::string axis = s.axis == 0 ? "rows" : "columns";
  if (found.size() != 1) {
    fail("the mesh's " + axis + " split the kernel's reduction loop (reduce_axis), the one serial loop whose variable "
         "indexes a tensor; the kernel has " + (found.empty() ? std::string("none") : join(names)));
  }
  const ir::For loop = found[0];
  s.tag = "the reduction loop '" + names[0] + "'";
  if (!ir::IntImm::matches(loop.extent()) || !ir::IntImm::matches(loop.min()) || ir::IntImm(loop.min()).value() != 0) {
    fail(s.tag + " does not run from 0 over a static extent; split-K splits static loops");
  }
  const int64_t extent = ir::IntImm(loop.extent()).value();
  if (extent % s.parts != 0) {
    fail(s.tag + " of " + std::to_string(extent) + " iterations does not split evenly over the " +
         std::to_string(s.parts) + " devices of the mesh's " + axis);
  }
  s.local = extent / s.parts;
  s.var = loop.loop_var().any();
  const Any var = s.var;
  const int64_t local = s.local;
  return map(body, {ir::rewrite<ir::For>([&](const ir::For& l) -> Any {
               if (!l.loop_var().same_as(var)) return l.any();
               return for_loop(var, l.min().any(), int_imm(local, cpu::dtype_of(l.extent()).c_str()), 0, l.body().any(),
                               l.annotations());
             })});
}

bool is_const(const Any& v, double x) {
  return (ir::FloatImm::matches(v) && ir::FloatImm(v).value() == x) ||
         (ir::IntImm::matches(v) && static_cast<double>(ir::IntImm(v).value()) == x);
}

// Split-K's result is the sum of the devices' partials only when the kernel is linear in its loop's iterations:
// tile copies, gemms accumulating into their own accumulator (beta 1) and fills with 0, nothing else.
void check_sum_of_partials(const Any& body, const std::string& loop) {
  const std::string why = "; split-K over chips (reduce_axis) adds the devices' partial outputs, which is the result only "
                          "for tile copies, gemms accumulating with beta 1 and fills with 0";
  walk(body, {
                 ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& c) {
                   const std::string op = c.op().name();
                   List args = c.args();
                   if (op == "tirx.tile.copy") return;
                   if (op == "tirx.tile.fill" && args.size() >= 2 && is_const(args[1], 0.0)) return;
                   if (op == "tirx.tile.gemm" && args.size() >= 8 && is_const(args[7], 1.0) &&
                       ir::TensorRegion(args[0]).source().same_as(ir::TensorRegion(args[3]).source())) {
                     return;
                   }
                   fail("the kernel split over " + loop + " has a " + op + " that is none of these" + why);
                 }),
                 ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) {
                   fail("the kernel split over " + loop + " stores to '" + st.buffer().name() + "' element by element" + why);
                 }),
             });
}

Any partition(const Any& func, const std::vector<Split>& wanted, const List& mesh, const std::string& grid_axes) {
  std::vector<Split> splits = wanted;
  Any body = split_launches(ir::PrimFunc(func).body(), splits);
  for (Split& s : splits) {
    if (!s.reduce) continue;
    body = split_reduction(func, body, s);
    check_sum_of_partials(body, s.tag);
  }
  for (const Split& s : splits) {
    if (is_none(s.var)) fail("the mesh's " + std::string(s.axis == 0 ? "rows" : "columns") + " split " + s.tag + ", which the kernel does not launch; choose grid_axes (tl.PartitionTTMesh.grid_axes)");
  }
  Analyzer analyzer = cpu::range_analyzer(body);
  auto uses = accesses(body);
  List params = ir::PrimFunc(func).params();
  List new_params;
  Dict shards;
  List restacked;
  List restacked_rows;  // restacked tensors whose column shards lie along the mesh rows (the rest: along columns)
  for (const BufferInfo& t : tensor_params(func)) {
    std::vector<int64_t> shape = t.shape;
    List parts{Any(int64_t{1}), Any(int64_t{1})};
    std::vector<std::tuple<const Split*, int, int>> found;
    for (const Split& s : splits) {
      int orient = s.axis;
      int d = shard_dim(t, uses[t.var], s, analyzer, orient);
      if (d < 0) continue;
      found.emplace_back(&s, d, orient);
      shape[d] /= s.parts;
      if (s.rows > 1) {  // both axes split one grid dim: the shards are restacked along the other orientation's axis
        parts.Set(0, Any(s.rows));
        parts.Set(1, Any(s.parts / s.rows));
        restacked.push_back(str(t.name));
        if (orient == 1) restacked_rows.push_back(str(t.name));
        continue;
      }
      if (orient != s.axis) {
        restacked.push_back(str(t.name));
        if (orient == 1) restacked_rows.push_back(str(t.name));
      }
      parts.Set(s.axis, Any(s.parts));
    }
    lead_dims(t, found, shape);
    shards.Set(String(t.name), parts);
    if (shape == t.shape) continue;
    walk(body, {ir::visit<ir::DeclBuffer>([&](const ir::DeclBuffer& decl) {
           if (uses_var(decl.data(), t.var)) fail("tensor '" + t.name + "' is sharded over the mesh and viewed as another T.Tensor; a mesh shards tensors the kernel indexes directly");
         })});
    List extents;
    for (int64_t e : shape) extents.push_back(int_imm(e));
    Any type = call("tirx.BufferType", String("global"), String(t.dtype), extents, List(), int_imm(0), int64_t(64),
                    int64_t(1), Any(nullptr), List(), Any(nullptr));
    Any local = call("tirx.BufferVar", String(t.name), type, Any(nullptr));
    body = substitute(body, t.var, local);
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].same_as(t.var)) params.Set(i, local);
    }
  }
  Dict mesh_attr =
      ordered({{records::mesh::kShape, mesh}, {records::mesh::kGridAxes, str(grid_axes)}, {"shards", shards}});
  mesh_attr.Set(String("restacked"), restacked);
  mesh_attr.Set(String("restacked_rows"), restacked_rows);
  for (const Split& s : splits) {
    if (!s.reduce) continue;
    mesh_attr.Set(String(records::mesh::kReduceAxis), Any(int64_t{s.axis}));
    mesh_attr.Set(String(records::mesh::kReduceLoop), str(ir::Var(s.var).name()));
  }
  ir::PrimFunc f(func);
  return with_attrs(prim_func(params, body, f.ret_type(), f.attrs()), {{keys::kTtMesh, mesh_attr}});
}

}  // namespace

namespace hooks {

Any partition_tt_mesh(const Dict& options) {
  List mesh = as_list(option(options, "mesh"));
  const std::string grid_axes = as_str(option(options, "grid_axes"));
  const std::string reduce_axis = as_str(option(options, "reduce_axis"));
  const int reduce = reduce_axis == "rows" ? 0 : reduce_axis == "cols" ? 1 : -1;
  std::vector<Split> splits;
  const int64_t rows = as_int(mesh[0]), cols = as_int(mesh[1]);
  const bool combined = grid_axes[0] == grid_axes[1] && reduce < 0 && rows > 1 && cols > 1;
  if (combined) {
    // xx / yy: both mesh axes split one grid dim, device (r, c) a run of its blocks (the host restacks the shards).
    splits.push_back(Split{1, std::string("blockIdx.") + grid_axes[0], rows * cols, 0, Any(nullptr), false, rows});
  }
  for (int axis = 0; axis < 2 && !combined; ++axis) {
    const int64_t parts = as_int(mesh[axis]);
    if (axis == reduce && parts == 1) {
      fail("tl.PartitionTTMesh.reduce_axis is " + reduce_axis + ", but the mesh has one device along its " +
           (axis == 0 ? "rows" : "columns") + ": nothing to split the reduction over");
    }
    // The reduction loop's split has no launch tag (split_reduction names it), so split_launches leaves it alone.
    const std::string tag = axis == reduce ? std::string() : std::string("blockIdx.") + grid_axes[axis];
    if (parts > 1) splits.push_back(Split{axis, tag, parts, 0, Any(nullptr), axis == reduce});
  }
  return prim_func_pass("PartitionTTMesh", [splits, mesh, grid_axes](const Any& func) -> Any {
    if (splits.empty()) return func;  // a single chip (a 1x1 mesh): nothing to split
    return partition(func, splits, mesh, grid_axes);
  });
}

}  // namespace hooks
}  // namespace tl
