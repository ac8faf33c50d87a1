// Intrinsic records and the statement builder of the C++ passes (twins of intrinsics.py and builder.py).
//
// The generated protocol functions (protocols.cc) append calls, bindings, loops and conditions to a
// Builder; loops of one iteration and conditions known at lowering time are folded, as in Python.
#pragma once

#include "fn.h"

namespace tl {

/*! \brief One `tt.*` op of specs/intrinsics (generated table: intrinsics.cc). */
struct Intrinsic {
  std::string name;
  std::string level;                                        // "abstract" | "concrete"
  std::vector<std::string> roles;                           // reader | compute | writer
  std::vector<std::pair<std::string, std::string>> args;    // (name, spec value type)
  std::string returns;                                      // spec value type
  std::string dtype;                                        // TVM dtype of a call's result
  bool has_role(const std::string& role) const;
  std::string op_name() const { return "tt." + name; }
};

/*! \brief The record of intrinsic `name` (nullptr if none). */
const Intrinsic* find_intrinsic(const std::string& name);
/*! \brief The record of intrinsic `name` (a RuntimeError if none). */
const Intrinsic& intrinsic(const std::string& name);
/*! \brief The intrinsic record a call expression invokes (a `tt.*` op), or nullptr. */
const Intrinsic* intrinsic_of(const Any& expr);

/*! \brief A call of intrinsic `name`; ints, bools, floats and strings become TIR constants (builder.tt_call). */
Any tt_call(const std::string& name, const std::vector<Any>& args);

/*! \brief Call arguments by the intrinsic's argument names, constants as plain values (ir.named_args). */
std::vector<std::pair<std::string, Any>> named_args(const Intrinsic& record, const Any& call);

class Builder {
 public:
  explicit Builder(std::string profile);
  const std::string& profile() const { return profile_; }
  void emit(const Any& stmt);
  void call(const std::string& name, const std::vector<Any>& args);
  /*! \brief Bind the call's result to a new variable (uint32 results are bound as int32). */
  Any bind(const std::string& name, const std::string& callee, const std::vector<Any>& args);
  /*! \brief A loop of `count` iterations around what `body` appends (`body` gets the loop variable). */
  void repeat(const std::string& name, const Any& count, const std::function<void(const Any&)>& body);
  void when(const Any& cond, const std::function<void()>& body);
  /*! \brief The else branch of the preceding when(). */
  void otherwise(const std::function<void()>& body);
  Any finish();

 private:
  std::string profile_;
  std::vector<std::vector<Any>> frames_;
  bool has_last_when_ = false;
  Any last_cond_;          // condition of the last when(): an expression, or a folded bool
  int64_t last_index_ = -1;  // index of its statement in the frame, -1 when folded
};

/*! \brief The API profile the backend spec selects (generated: device.cc). */
const std::string& profile();

}  // namespace tl
