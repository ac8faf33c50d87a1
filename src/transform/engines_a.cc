// The annotate, partition, persistent, dataflow and lower_tiles engines (twins of the same functions of
// tilelang/tenstorrent/engines.py); engines_b.cc holds the kernel-level engines.
#include <algorithm>
#include <array>
#include <map>

#include "engine_util.h"
#include "tileops.h"

namespace tl {
namespace {

// A Python dict being built in insertion order (Set on an existing key keeps its position).
Dict ordered(std::initializer_list<std::pair<const char*, Any>> items) {
  Dict out;
  for (const auto& [k, v] : items) out.Set(String(k), v);
  return out;
}

// ------------------------------------------------------------------------------------------ partition

// divmod-balanced (start, size) ranges of `total` items over `parts`.
std::vector<std::pair<int64_t, int64_t>> balanced(int64_t total, int64_t parts) {
  if (parts == 0) fail_kind("ZeroDivisionError", "integer division or modulo by zero");
  int64_t base = total / parts, rem = total % parts, start = 0;
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t i = 0; i < parts; ++i) {
    int64_t size = base + (i < rem ? 1 : 0);
    out.emplace_back(start, size);
    start += size;
  }
  return out;
}

bool is_launch(const Any& stmt) {
  return as_str(field(stmt, "attr_key")) == "thread_extent" && is_a(field(stmt, "node"), "tirx.IterVar");
}

std::string thread_tag(const Any& stmt) { return as_str(field(field(stmt, "node"), "thread_tag")); }

// Launch extents by thread tag (sorted, which is all the callers need).
std::map<std::string, int64_t> launch_extents(const Any& func) {
  std::map<std::string, int64_t> extents;
  walk(field(func, "body"), {{"tirx.AttrStmt", [&](const Any& stmt) {
                                if (!is_launch(stmt)) return;
                                std::string tag = thread_tag(stmt);
                                Any value = field(stmt, "value");
                                if (!is_a(value, "ir.IntImm")) {
                                  fail("launch extent of " + tag + " is dynamic (" + py_str(value) + ")");
                                }
                                extents[tag] = as_int(value);
                              }}});
  return extents;
}

// Row-wise maximal ranges [x0, y0, x1, y1] covering the used cores, identical x-spans of consecutive rows merged.
List core_ranges(const std::vector<std::pair<int64_t, int64_t>>& cores) {
  std::map<int64_t, std::vector<int64_t>> by_row;
  for (const auto& [x, y] : cores) by_row[y].push_back(x);
  std::vector<std::array<int64_t, 4>> ranges;
  for (auto& [y, xs] : by_row) {
    std::sort(xs.begin(), xs.end());
    int64_t start = xs[0], prev = xs[0];
    for (size_t i = 1; i <= xs.size(); ++i) {
      if (i < xs.size() && xs[i] == prev + 1) {
        prev = xs[i];
        continue;
      }
      ranges.push_back({start, y, prev, y});
      if (i < xs.size()) start = prev = xs[i];
    }
  }
  std::vector<std::array<int64_t, 4>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && merged.back()[0] == r[0] && merged.back()[2] == r[2] && merged.back()[3] + 1 == r[1]) {
      merged.back()[3] = r[3];
    } else {
      merged.push_back(r);
    }
  }
  List out;
  for (const auto& r : merged) out.push_back(list({r[0], r[1], r[2], r[3]}));
  return out;
}

// ------------------------------------------------------------------------------------------ lower_tiles

const Expr& expr_of(const ExprMap& exprs, const std::string& key) {
  for (const auto& [name, e] : exprs) {
    if (name == key) return e;
  }
  fail_kind("KeyError", "'" + key + "'");
}

const Mode& mode_of(const std::vector<std::pair<std::string, Mode>>& modes, const std::string& key) {
  for (const auto& [name, m] : modes) {
    if (name == key) return m;
  }
  fail_kind("KeyError", "'" + key + "'");
}

// The CB descriptors of a kernel by stream key, in tt.cbs order.
struct CBs {
  std::vector<std::pair<std::string, Any>> by_stream;
  const Any* find(const std::string& key) const {
    for (const auto& [k, cb] : by_stream) {
      if (k == key) return &cb;
    }
    return nullptr;
  }
  const Any& at(const std::string& key) const {
    const Any* cb = find(key);
    if (cb == nullptr) fail_kind("KeyError", py_repr(Any(String(key))));
    return *cb;
  }
};

// The expression context of one tile op (engines.lower_tiles: op fields, device, absorbed, out, ins, ...).
Ctx op_context(const TileOp& op, const CBs& cbs, bool absorbed) {
  Ctx ctx;
  for (const auto& [k, v] : op.fields) ctx.set(k, v);
  ctx.set("device", device());
  ctx.set("absorbed", Any(absorbed));
  ctx.set("out", cbs.find(op.writes) ? attr(cbs.at(op.writes), "index") : Any(int64_t(-1)));
  List ins;
  for (const std::string& k : op.reads) ins.push_back(attr(cbs.at(k), "index"));
  ctx.set("ins", ins);
  Any page_bytes(int64_t(0));
  std::vector<std::string> keys = {op.writes};
  keys.insert(keys.end(), op.reads.begin(), op.reads.end());
  for (const std::string& k : keys) {
    if (const Any* cb = cbs.find(k)) {
      page_bytes = attr(*cb, "page_bytes");
      break;
    }
  }
  ctx.set("page_bytes", page_bytes);
  ctx.set("partial", op.partial.empty() ? Any(int64_t(-1)) : attr(cbs.at(op.partial), "index"));
  return ctx;
}

std::string spaced(std::string kind) {
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

}  // namespace

namespace engines {

// ------------------------------------------------------------------------------------------ annotate

Any annotate(const std::string& name, const Dict& options, const Any& attr, const Any& foreach, const ExprMap& fields,
             const Checks& require) {
  std::string key = as_str(attr);
  bool tensors = as_str(foreach) == "tensors";
  return prim_func_pass(name, [=](const Any& func) -> Any {
    std::vector<BufferInfo> items = tensors ? tensor_params(func) : onchip_buffers(func);
    std::string what = tensors ? "tensor" : "on-chip buffer";
    Dict table;
    for (const BufferInfo& info : items) {
      Ctx ctx{{"buffer", info.ns()}, {"device", device()}, {"options", options_ns(options)}};
      check(require, what + " '" + info.name + "'", ctx);
      Dict row;
      for (const auto& [field_name, e] : fields) row.Set(String(field_name), e(ctx));
      table.Set(String(info.name), row);
    }
    return with_attrs(func, {{key, table}});
  });
}

// ------------------------------------------------------------------------------------------ partition

Any partition(const std::string& name, const Dict& options, const Checks& require,
              const std::optional<Expr>& auto_shard) {
  return prim_func_pass(name, [=](const Any& func) -> Any {
    std::map<std::string, int64_t> extents = launch_extents(func);
    for (const auto& [tag, extent] : extents) {  // sorted: the first unknown one is reported
      if (tag.rfind("blockIdx.", 0) != 0 || tag == "blockIdx.z") {
        fail("launch dimension " + tag + " is not supported by the tenstorrent backend (T.Kernel grids are 1-D or 2-D)");
      }
    }
    int64_t gx = extents.count("blockIdx.x") ? extents["blockIdx.x"] : 1;
    int64_t gy = extents.count("blockIdx.y") ? extents["blockIdx.y"] : 1;
    Any grid = option(options, "core_grid");
    int64_t cx = as_int(item(grid, Any(int64_t(0)))), cy = as_int(item(grid, Any(int64_t(1))));
    Ctx ctx{{"grid_x", Any(gx)}, {"grid_y", Any(gy)}, {"cores_x", Any(cx)}, {"cores_y", Any(cy)}, {"device", device()}};
    check(require, "", ctx);
    std::string mode = as_str(option(options, "mode"));
    if (mode == "auto") mode = auto_shard && truthy((*auto_shard)(ctx)) ? "shard" : "global";
    List work;
    std::vector<std::pair<int64_t, int64_t>> cores;
    if (mode == "global") {
      int64_t total = gx * gy;
      auto ranges = balanced(total, std::min(total, cx * cy));
      for (size_t i = 0; i < ranges.size(); ++i) {
        int64_t x = static_cast<int64_t>(i) % cx, y = static_cast<int64_t>(i) / cx;
        cores.emplace_back(x, y);
        work.push_back(ordered({{"core", list({x, y})}, {"start", ranges[i].first}, {"count", ranges[i].second}}));
      }
    } else {
      auto rows = balanced(gy, std::min(gy, cy));
      auto cols = balanced(gx, std::min(gx, cx));
      for (size_t y = 0; y < rows.size(); ++y) {
        for (size_t x = 0; x < cols.size(); ++x) {
          auto [row0, nrows] = rows[y];
          auto [col0, ncols] = cols[x];
          cores.emplace_back(x, y);
          work.push_back(ordered({{"core", list({int64_t(x), int64_t(y)})}, {"row0", row0}, {"col0", col0},
                                  {"rows", nrows}, {"cols", ncols}, {"count", nrows * ncols}}));
        }
      }
    }
    return with_attrs(func, {{"tt.core_grid", list({cx, cy})},
                             {"tt.grid_blocks", list({gx, gy})},
                             {"tt.partition_mode", String(mode)},
                             {"tt.work_partition", work},
                             {"tt.core_ranges", core_ranges(cores)}});
  });
}

// ------------------------------------------------------------------------------------------ persistent

Any persistent(const std::string& name, const Dict& options, const std::vector<std::pair<std::string, Mode>>& modes) {
  return prim_func_pass(name, [=](const Any& func) -> Any {
    const Mode& spec = mode_of(modes, as_str(get_attr(func, "tt.partition_mode")));
    Any blocks = get_attr(func, "tt.grid_blocks");
    Any gx = item(blocks, Any(int64_t(0))), gy = item(blocks, Any(int64_t(1)));
    List arg_names, values;
    std::vector<Any> arg_vars;
    for (const auto& [arg, e] : spec.args) {
      arg_names.push_back(String(arg));
      arg_vars.push_back(var(arg, "int32"));
    }
    for (const Any& w : as_list(get_attr(func, "tt.work_partition"))) {
      Dict row;
      for (const auto& [arg, e] : spec.args) row.Set(String(arg), Any(as_int(e(Ctx{{"work", w}}))));
      values.push_back(row);
    }
    Any i = var("i", "int32");
    std::vector<std::pair<std::string, Any>> launches;  // tag -> launch var, in the order they are met
    Any inner = map(field(func, "body"), {{"tirx.AttrStmt", [&](const Any& stmt) -> Any {
                                            if (!is_launch(stmt)) return stmt;
                                            std::string tag = thread_tag(stmt);
                                            Any v = field(field(stmt, "node"), "var");
                                            auto it = std::find_if(launches.begin(), launches.end(),
                                                                   [&](const auto& l) { return l.first == tag; });
                                            if (it == launches.end()) {
                                              launches.emplace_back(tag, v);
                                            } else {
                                              it->second = v;
                                            }
                                            return field(stmt, "body");
                                          }}},
                    "post");
    Ctx ctx;
    for (size_t k = 0; k < arg_vars.size(); ++k) ctx.set(spec.args[k].first, arg_vars[k]);
    ctx.set("i", i).set("grid_x", gx).set("grid_y", gy);
    auto sorted = launches;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Any> stmts;
    for (const auto& [tag, v] : sorted) stmts.push_back(bind(v, fn::expr(expr_of(spec.bindings, tag)(ctx))));
    for (const Any& s : flatten(inner)) stmts.push_back(s);
    Dict annotations = dict({{String(PERSISTENT_LOOP), Any(int64_t(1))}});
    Any loop = for_loop(i, int_imm(0), spec.iterations(ctx), 0, seq(stmts), annotations);
    Dict launch_vars;
    for (const auto& [tag, v] : launches) launch_vars.Set(String(tag), field(v, "name"));
    return with_attrs(with_body(func, loop),
                      {{"tt.work_args", arg_names}, {"tt.work_values", values}, {"tt.launch_vars", launch_vars}});
  });
}

// ------------------------------------------------------------------------------------------ dataflow

Any dataflow(const std::string& name, const Dict& options, const ExprMap& depth) {
  return prim_func_pass(name, [=](const Any& func) -> Any {
    std::vector<TileOp> ops = tile_ops(field(func, "body"));
    std::vector<Stream> streams = tl::dataflow(ops, as_int(option(options, "stages")), depth);
    std::stable_sort(streams.begin(), streams.end(), [](const Stream& a, const Stream& b) { return a.index < b.index; });
    Any tile = attr(device(), "TILE");
    int64_t tile_elems = as_int(item(tile, Any(int64_t(0)))) * as_int(item(tile, Any(int64_t(1))));
    List cbs;
    for (const Stream& s : streams) {
      Any dtype = String(s.dtype);
      int64_t page = truthy(fn::supported_dtype(dtype)) ? tile_elems * as_int(fn::dtype_bytes(dtype)) : 0;
      if (!page) {
        std::vector<std::string> formats;
        for (const auto& [k, v] : as_dict(attr(device(), "DATA_FORMATS"))) formats.push_back(as_str(k));
        std::sort(formats.begin(), formats.end());
        std::string joined;
        for (const std::string& f : formats) joined += (joined.empty() ? "" : ", ") + f;
        fail("on-chip buffer '" + s.buffer.name + "' has dtype " + s.dtype + "; the tenstorrent backend supports " +
             joined);
      }
      cbs.push_back(ordered({{"index", s.index},
                             {"stream", String(s.key)},
                             {"buffer", String(s.buffer.name)},
                             {"buffer_dtype", String(s.buffer.dtype)},
                             {"class", String(s.cls)},
                             {"dtype", dtype},
                             {"data_format", fn::data_format(dtype)},
                             {"page_bytes", page},
                             {"block_pages", s.pages},
                             {"depth", s.pages_depth},
                             {"producer", String(s.producer)},
                             {"consumer", String(s.consumers[0])}}));
    }
    return with_attrs(func, {{"tt.cbs", cbs}});
  });
}

// ------------------------------------------------------------------------------------------ lower_tiles

Any lower_tiles(const std::string& name, const Dict& options, const Cases& cases) {
  return prim_func_pass(name, [=](const Any& func) -> Any {
    CBs cbs;
    for (const Any& cb : as_list(get_attr(func, "tt.cbs"))) cbs.by_stream.emplace_back(as_str(attr(cb, "stream")), cb);
    Any body = field(func, "body");
    std::vector<TileOp> ops = tile_ops(body);
    Expr pages = [](const Ctx& c) { return c.get("pages"); };
    tl::dataflow(ops, 2, {{"input", pages}, {"output", pages}, {"intermediate", pages}});
    std::vector<std::string> absorbed;
    for (const TileOp& op : ops) {
      if (op.kind == "fill" && !cbs.find(op.writes)) absorbed.push_back(op.writes);
    }
    std::vector<std::pair<Any, Any>> replacement;  // statement -> its lowering, in op order
    static const std::vector<Case> none;
    for (const TileOp& op : ops) {
      bool is_absorbed = std::find(absorbed.begin(), absorbed.end(), op.writes) != absorbed.end();
      Ctx ctx = op_context(op, cbs, is_absorbed);
      const std::vector<Case>* options_of_op = cases_of(cases, op.kind);
      const Case* c = choose_case(options_of_op ? *options_of_op : none, ctx, spaced(op.kind) + ":");
      if (c == nullptr) fail("no rule of " + name + " lowers a " + op.kind + " tile op");
      if (c->emit.empty()) {
        replacement.emplace_back(op.stmt, evaluate(int_imm(0)));
        continue;
      }
      std::vector<Any> args;
      for (const auto& [arg, type] : intrinsic(c->emit).args) {
        if (!c->args) fail_kind("KeyError", "'args'");
        args.push_back(expr_of(*c->args, arg)(ctx));
      }
      replacement.emplace_back(op.stmt, evaluate(tt_call(c->emit, args)));
    }
    Rewrite swap = [&](const Any& stmt) -> Any {
      for (const auto& [old, replaced] : replacement) {
        if (stmt.same_as(old)) return replaced;
      }
      return stmt;
    };
    Any new_body = map(body, {{"tirx.TilePrimitiveCall", swap}, {"tirx.For", swap}}, "pre");
    return with_body(func, strip_onchip_allocs(new_body));
  });
}

}  // namespace engines
}  // namespace tl
