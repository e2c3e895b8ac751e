// What device code's pointers may point to, where it finds its lane, which
// functions are kernels and which calls are barriers, for the simulated
// device's pass plugins (wave_lockstep.cpp, lane_conflicts.cpp,
// access_checks.cpp, fast_form.cpp, stride_loops.cpp).
#pragma once

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"

namespace gpusym_passes {

using namespace llvm;

// Whether `function` is a kernel (clang marks them so for every target).
inline bool is_kernel(const Function &function) { return function.hasFnAttribute("uniform-work-group-size"); }

// The runtime's barrier, which __syncthreads() calls.
constexpr const char *kBarrierName = "__gpusym_barrier";

// Whether `inst` calls the barrier.
inline bool is_barrier(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == kBarrierName;
}

// The thread-local variable through which device code finds its running
// lane (its coordinates), as the runtime names it.
constexpr const char *kLaneVariableName = "__gpusym_lane";

// Whether `address` is that of the running lane's variable: the variable,
// its thread-local address, or a phi or select of such (GVN joins the
// addresses taken on two paths).
inline bool lane_variable_address(const Value *address, unsigned depth = 0) {
  if (const auto *phi = dyn_cast<PHINode>(address))
    return depth < 4 && all_of(phi->incoming_values(), [&](const Value *incoming) {
             return incoming == phi || lane_variable_address(incoming, depth + 1);
           });
  if (const auto *select = dyn_cast<SelectInst>(address))
    return depth < 4 && lane_variable_address(select->getTrueValue(), depth + 1) &&
           lane_variable_address(select->getFalseValue(), depth + 1);
  if (const auto *intrinsic = dyn_cast<IntrinsicInst>(address);
      intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
    address = intrinsic->getArgOperand(0);
  const auto *global = dyn_cast<GlobalVariable>(address->stripPointerCasts());
  return global && global->getName() == kLaneVariableName;
}

// Whether `global` is a __shared__ variable: a thread_local variable of
// device code (the runtime's own, named __gpusym*, are not).
inline bool shared_variable(const GlobalVariable &global) {
  return global.isThreadLocal() && !global.getName().starts_with("__gpusym");
}

// Whether `pointer` may point into __shared__ memory: into a __shared__
// variable, or what a thread_local wrapper (_ZTW*, for extern __shared__)
// returns.
inline bool shared_pointer(const Value *pointer) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const Value *object : objects) {
    if (const auto *call = dyn_cast<CallBase>(object)) {
      if (const auto *intrinsic = dyn_cast<IntrinsicInst>(call);
          intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
        object = intrinsic->getArgOperand(0)->stripPointerCasts();
      else if (const Function *callee = call->getCalledFunction();
               callee && callee->getName().starts_with("_ZTW"))
        return true;
    }
    if (const auto *global = dyn_cast<GlobalVariable>(object); global && shared_variable(*global)) return true;
  }
  return false;
}

}  // namespace gpusym_passes
