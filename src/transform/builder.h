// Intrinsic calls and the statement builder the protocol functions (generated: protocols.cc) append to.
//
// Loops of one iteration and conditions known at lowering time are folded, so a protocol's output does not
// depend on whether a count or a flag is a constant or a symbolic value that happens to be one.
#pragma once

#include "attr_keys.h"
#include "expr_runtime.h"
#include "intrinsics.h"
#include "ir_nodes.h"

namespace tl {

/*! \brief The record of intrinsic `name` (a RuntimeError if none). */
const Intrinsic& intrinsic(const std::string& name);
/*! \brief The intrinsic record a call expression invokes, or nullptr. */
const Intrinsic* intrinsic_of(const Any& expr);

/*! \brief A call of intrinsic `name`; ints, bools, floats and strings become TIR constants. */
Any tt_call(const std::string& name, const std::vector<Any>& args);

/*! \brief Call arguments by the intrinsic's argument names, constants as plain values. */
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
  Any last_cond_;            // condition of the last when(): an expression, or a folded bool
  int64_t last_index_ = -1;  // index of its statement in the frame, -1 when folded
};

/*! \brief The API profile the backend spec selects (generated: device.cc). */
const std::string& profile();
/*! \brief The tiles one half-sync DST section holds with 16- or 32-bit accumulation (generated: device.cc). */
int64_t dst_capacity(bool fp32_acc);
/*! \brief Compile-time arguments of one interleaved tensor accessor in the selected profile (generated: device.cc). */
int64_t accessor_compile_time_args();

}  // namespace tl
