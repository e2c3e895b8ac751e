// A fast form's accesses named by the memory they reach, so that LLVM knows
// which cannot overlap.
//
// On a GPU, __shared__ memory, device memory and a thread's own memory are
// apart; on the simulated device all three are one address space, and a
// loop over the lanes that reads a kernel's argument and writes its tile
// in shared memory gets run-time checks that the two do not overlap, which
// cost more than a row of 16 lanes' work.  Each load and store whose
// pointer comes, on every path, from one of
//   - a __shared__ variable (a thread_local of device code),
//   - a pointer argument of the kernel or a __device__ variable (the host
//     passes device or host memory, never a block's shared memory or its
//     per-lane arrays),
//   - the per-lane arrays the runtime hands the fast form,
// gets that space's alias scope and the others' noalias: LLVM's scoped
// alias analysis then tells the vectoriser, LICM and GVN they are apart.
// Accesses through anything else (a pointer loaded from memory, a call's
// result) keep no mark and alias all three.
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "fast_form.h"
#include "shared_memory.h"

namespace gpusym_fast_form {

namespace {

enum Space { kShared, kGlobal, kLanes, kSpaces };

// The space `object` (an underlying object of a pointer) is in, or kSpaces
// when none or unknown.  A global variable not __shared__ and not the
// runtime's own (__gpusym*) is in device memory, as the kernel's arguments
// are.
Space space_of(const Value *object) {
  if (isa<Argument>(object)) return kGlobal;
  if (const auto *intrinsic = dyn_cast<IntrinsicInst>(object);
      intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
    object = intrinsic->getArgOperand(0)->stripPointerCasts();
  if (const auto *global = dyn_cast<GlobalVariable>(object)) {
    if (gpusym_passes::shared_variable(*global)) return kShared;
    return global->getName().starts_with("__gpusym") ? kSpaces : kGlobal;
  }
  const auto *call = dyn_cast<CallBase>(object);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == kLanesMemory ? kLanes : kSpaces;
}

// The one space every object `pointer` may be based on is in, or kSpaces.
Space space_of_pointer(const Value *pointer) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  Space found = kSpaces;
  for (const Value *object : objects) {
    Space space = space_of(object);
    if (space == kSpaces || (found != kSpaces && space != found)) return kSpaces;
    found = space;
  }
  return found;
}

}  // namespace

bool global_pointer(const Value *pointer) { return pointer && space_of_pointer(pointer) == kGlobal; }

PreservedAnalyses MarkMemorySpaces::run(Function &function, FunctionAnalysisManager &) {
  if (!function.hasFnAttribute(kFastAttribute)) return PreservedAnalyses::all();
  LLVMContext &context = function.getContext();
  MDBuilder metadata(context);
  MDNode *domain = metadata.createAnonymousAliasScopeDomain("gpusym memory spaces");
  const char *names[kSpaces] = {"shared memory", "global memory", "per-lane arrays"};
  MDNode *scopes[kSpaces];
  for (int space = 0; space < kSpaces; space++)
    scopes[space] = metadata.createAnonymousAliasScope(domain, names[space]);
  bool changed = false;
  for (Instruction &inst : instructions(function)) {
    Value *pointer = getLoadStorePointerOperand(&inst);
    if (!pointer) continue;
    Space space = space_of_pointer(pointer);
    if (space == kSpaces) continue;
    SmallVector<Metadata *, 2> others;
    for (int other = 0; other < kSpaces; other++)
      if (other != space) others.push_back(scopes[other]);
    MDNode *in = MDNode::get(context, scopes[space]), *apart = MDNode::get(context, others);
    MDNode *scope = inst.getMetadata(LLVMContext::MD_alias_scope), *noalias = inst.getMetadata(LLVMContext::MD_noalias);
    inst.setMetadata(LLVMContext::MD_alias_scope, MDNode::concatenate(scope, in));
    inst.setMetadata(LLVMContext::MD_noalias, MDNode::concatenate(noalias, apart));
    changed = true;
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

}  // namespace gpusym_fast_form
