// The protocol-rewriting engines: `rewrite` replaces intrinsic calls by what the first applying case of their
// rule emits (another call, the same call with arguments set, or a protocol's statements); `compute_init`
// puts the compute kernel's startup protocol in front and marks the calls that must re-initialise their unit.
#include "engine_common.h"
#include "records.h"

namespace tl {
namespace {

// The binding a protocol that a bound call becomes names the call's result by (specs/protocols/reader_flag.yaml).
constexpr const char kResult[] = "result";

// The facts every rewrite case sees besides the call's arguments. fp32_acc: whether a compute result
// accumulates in fp32, i.e. whether a CB the compute kernel produces holds a 4-byte dtype; dst_capacity: the
// tiles one DST section holds then.
Ctx kernel_facts(const Any& func) {
  List acc_dtypes;
  bool fp32 = false;
  for (const Any& cb : attr_list(func, keys::kTtCbs)) {
    bool computed = as_str(item(cb, str(records::cb::kProducer))) == roles::kCompute;
    if (as_str(item(cb, str(records::cb::kClass))) != "input" && computed) {
      Any d = item(cb, str(records::cb::kBufferDtype));
      if (!contains(acc_dtypes, d)) acc_dtypes.push_back(d);
    }
    // Integer tiles the compute kernel unpacks or packs travel through 32-bit DST (tt-metal's Int32/UInt32 need
    // fp32_dest_acc_en; the narrower unsigned formats are held there the same way).
    if (computed || as_str(item(cb, str(records::cb::kConsumer))) == roles::kCompute) {
      if (is_integer_dtype(as_str(item(cb, str(records::cb::kDtype))))) fp32 = true;
    }
    // An fp32 tile the compute kernel unpacks keeps its precision only in 32-bit DST (a 16-bit DST holds it rounded
    // to bfloat16, then the packer rounds again: mha_bwd's float32 dQ copied into float16 dQ_out).
    if (as_str(item(cb, str(records::cb::kConsumer))) == roles::kCompute &&
        accumulates_fp32(item(cb, str(records::cb::kDtype)))) {
      fp32 = true;
    }
  }
  for (const Any& d : acc_dtypes) {
    if (accumulates_fp32(d)) fp32 = true;
  }
  Ctx facts;
  facts.set(names::kFp32Acc, Any(fp32))
      .set(names::kProfile, str(profile()))
      .set(names::kDstCapacity, Any(dst_capacity(fp32)));
  return facts;
}

// The statement a call becomes under case `c` (its rule matched the call's intrinsic `record`).
Any apply_case(const Case& c, const Intrinsic& record, const ir::Call& value, const Ctx& ctx) {
  if (c.set) {
    List raw = value.args();
    strict_zip(record.args.size(), raw.size());
    std::vector<Any> call_args(raw.begin(), raw.end());
    for (const auto& [key, e] : *c.set) {
      Any v = fn::expr(e(ctx));
      for (size_t i = 0; i < record.args.size(); ++i) {  // keys that name no argument are dropped
        if (record.args[i].first == key) call_args[i] = v;
      }
    }
    return evaluate(tt_call(record.name, call_args));
  }
  if (!c.args) internal_error("a rewrite case of " + record.name + " has neither set nor args");
  if (!c.emit.empty()) {
    std::vector<Any> call_args;
    for (const auto& a : intrinsic(c.emit).args) call_args.push_back(expr_of(*c.args, a.first)(ctx));
    return evaluate(tt_call(c.emit, call_args));
  }
  Builder b(profile());
  run_protocol(c.protocol, b, eval_args(*c.args, ctx));
  return b.finish();
}

const Expr* family_of(const std::vector<std::pair<std::string, Expr>>& families, const std::string& op) {
  for (const auto& [k, e] : families) {
    if (k == op) return &e;
  }
  return nullptr;
}

const ExprMap& operands_of(const std::vector<std::pair<std::string, ExprMap>>& operands, const std::string& op) {
  for (const auto& [k, m] : operands) {
    if (k == op) return m;
  }
  internal_error("the rule gives no operands for " + op);
}

// What the hardware must be configured for to run a call: its family and the data formats of its operand CBs
// (the unpacker's and packer's formats: a T.Cast store packs into another format than the op before it).
List configuration(const Any& func, const std::vector<std::pair<std::string, Expr>>& families,
                   const std::vector<std::pair<std::string, ExprMap>>& operands, const Intrinsic* record,
                   const Any& call) {
  Ctx ctx = named_ctx(*record, call);
  List out{(*family_of(families, record->name))(ctx)};
  for (const auto& [name, e] : operands_of(operands, record->name)) {
    int64_t cb = as_int(e(ctx));
    for (const Any& desc : attr_list(func, keys::kTtCbs)) {
      if (as_int(item(desc, str(records::cb::kIndex))) == cb) out.push_back(item(desc, str(records::cb::kDataFormat)));
    }
  }
  return out;
}

// The calls of a family with `init` set, when the kernel mixes configurations (each must re-initialise its unit).
Any mark_reinit(const Any& body, const std::vector<std::pair<std::string, Expr>>& families) {
  return map_evaluates(body, [&](const ir::Evaluate& ev) -> std::optional<Any> {
    const Intrinsic* rec = intrinsic_of(ev.value());
    if (rec == nullptr || family_of(families, rec->name) == nullptr) return std::nullopt;
    List raw = ir::Call(ev.value()).args();
    strict_zip(rec->args.size(), raw.size());
    std::vector<Any> call_args;
    for (size_t i = 0; i < raw.size(); ++i) call_args.push_back(rec->args[i].first == "init" ? int_imm(1) : raw[i]);
    return evaluate(tt_call(rec->name, call_args));
  });
}

}  // namespace

namespace engines {

Any rewrite(const std::string& name, const Dict& options, const RewriteParams& params) {
  const Cases& cases = params.cases;
  const Any& roles = params.roles;
  List role_list = is_none(roles) ? all_roles() : as_list(roles);
  auto body = [cases](const Any& func) -> Any {
    Ctx facts = kernel_facts(func);
    Any new_body = map_evaluates(ir::PrimFunc(func).body(), [&](const ir::Evaluate& ev) -> std::optional<Any> {
      const Intrinsic* record = intrinsic_of(ev.value());
      if (record == nullptr) return std::nullopt;
      const std::vector<Case>* op_cases = cases_of(cases, record->name);
      if (op_cases == nullptr) return std::nullopt;
      ir::Call value(ev.value());
      Ctx ctx = merge(named_ctx(*record, value), facts,
                      {names::kFp32Acc, names::kProfile, names::kDstCapacity});
      const Case* c = choose_case(*op_cases, ctx, record->op_name + ":");
      if (c == nullptr) return std::nullopt;
      return apply_case(*c, *record, value, ctx);
    });
    // A binding of an abstract call's result (a branch's flag, each kernel's own read of it): the protocol's
    // statements, then the variable bound to the protocol's binding `result` (kResult).
    new_body = map(new_body, {ir::rewrite<ir::Bind>([&](const ir::Bind& bound) -> Any {
                     Any call_value = bound.value();
                     while (auto cast_value = ir::Cast::from(call_value)) call_value = cast_value->value();
                     const Intrinsic* record = intrinsic_of(call_value);
                     const std::vector<Case>* op_cases = record ? cases_of(cases, record->name) : nullptr;
                     if (op_cases == nullptr) return bound.any();
                     ir::Call value(call_value);
                     Ctx ctx = merge(named_ctx(*record, value), facts,
                                     {names::kFp32Acc, names::kProfile, names::kDstCapacity});
                     const Case* c = choose_case(*op_cases, ctx, record->op_name + ":");
                     if (c == nullptr) return bound.any();
                     if (c->protocol.empty() || !c->args) {
                       internal_error("a bound " + record->name + " call is rewritten by a case without a protocol");
                     }
                     Builder b(profile());
                     Dict out = run_protocol(c->protocol, b, eval_args(*c->args, ctx));
                     if (!out.count(String(kResult))) {
                       internal_error("protocol " + c->protocol + " binds no '" + kResult + "' for the bound " +
                                      record->name);
                     }
                     std::vector<Any> stmts = flatten(b.finish());
                     stmts.push_back(bind(bound.var(), item(out, String(kResult))));
                     return seq(stmts);
                   })},
                   "post");
    return with_body(func, new_body);
  };
  return role_pass(name, role_list, body);
}

Any compute_init(const std::string& name, const Dict& options, const ComputeInitParams& params) {
  const Any& protocol = params.protocol;
  const std::vector<std::pair<std::string, Expr>>& families = params.families;
  const std::vector<std::pair<std::string, ExprMap>>& operands = params.operands;
  std::string protocol_name = as_str(protocol);
  auto body = [=](const Any& func) -> Any {
    std::vector<std::pair<const Intrinsic*, Any>> ops;
    for (const auto& rc : tt_calls(ir::PrimFunc(func).body())) {
      if (family_of(families, rc.first->name) != nullptr) ops.push_back(rc);
    }
    if (ops.empty()) return func;
    const auto& [record, first] = ops[0];  // the startup protocol configures the units for the first op
    Ctx ctx = named_ctx(*record, first);
    Ctx protocol_args;
    protocol_args.set("family", (*family_of(families, record->name))(ctx));  // the startup protocol's parameter
    Builder b(profile());
    run_protocol(protocol_name, b, eval_args(operands_of(operands, record->name), ctx, protocol_args));
    List kinds;  // the configurations the ops need: one start-up serves them only if they all need the same
    for (const auto& [r, c] : ops) {
      Any k = configuration(func, families, operands, r, c);
      if (!contains(kinds, k)) kinds.push_back(k);
    }
    Any marked = ir::PrimFunc(func).body();
    if (kinds.size() > 1) marked = mark_reinit(marked, families);
    std::vector<Any> stmts = flatten(b.finish());
    for (const Any& s : flatten(marked)) stmts.push_back(s);
    return with_body(func, seq(stmts));
  };
  return role_pass(name, list({str(roles::kCompute)}), body);
}

}  // namespace engines

// Code generation asks the same question as the rewrite rules: does the compute kernel accumulate in fp32?
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("tl.tt.KernelAccumulatesFp32", [](const Any& func) {
    return truthy(kernel_facts(func).get(names::kFp32Acc));
  });
}

}  // namespace tl
