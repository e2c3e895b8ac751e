// A clang pass plugin for the simulated device's compile: the fast form of
// a kernel, a block's lanes as one loop.
//
// The runtime runs each lane of a block on a stack of its own, so that a
// debugger can stop any lane and the lanes can meet at barriers and warp
// functions (the debuggable form).  A kernel with neither needs none of
// that: its fast form is a clone whose body runs once per lane inside loops
// over threadIdx.z, .y and .x (x innermost, so that lanes next to each other
// are iterations next to each other, which LLVM's loop vectoriser can turn
// into SIMD code).  The runtime calls it once per block, as one lane whose
// coordinates are the block's (executor.cpp), when no debugger and no check
// has an interest in the dispatch.
//
// A kernel gets a fast form when, after inlining, everything it does is a
// lane's own: it calls no function but intrinsics, side-effect-free
// library functions and a failed assert() (a call may be a barrier, a warp
// function, a lockstep step, device printf or a check, each of which needs
// the lane), and it
// only reads its lane (gpusym/lane.h): threadIdx and the flat index become
// the loops' counters, blockIdx, blockDim, gridDim and the dispatch are
// read once before the loops.  The clone is private (no
// symbol: tools listing a code object's functions see the kernel once) and
// has no debug information (a breakpoint on a line of the kernel lands in
// the debuggable form only); the runtime finds it through a table of
// (kernel, fast form) pairs in the section gpusym_fast_forms, whose bounds
// __gpusym_fast_forms names (one definition per code object, whatever the
// number of translation units).  For tools, the section
// gpusym_fast_form_reasons says for each kernel, as two NUL-terminated
// strings, its mangled name and why it has no fast form ("" when it has one).
//
// It runs at the start of the optimiser (callees are inlined by then, the
// loop vectoriser comes later); not at -O0, whose code is for debugging.
//
// Kernels with barriers are made at the optimiser's end: in rounds (below),
// or, when every lane reaches the barriers alike (divergence.cpp tells), as
// a loop over the lanes between each two barriers (stretch_loops.cpp).
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/IndVarSimplify.h"
#include "llvm/Transforms/Scalar/LoopDeletion.h"
#include "llvm/Transforms/Scalar/LoopInstSimplify.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/LoopSimplifyCFG.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/IR/CFG.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "fast_form.h"
#include "shared_memory.h"

using namespace llvm;
using gpusym_passes::is_kernel;
using gpusym_passes::kLaneVariableName;
using gpusym_passes::lane_variable_address;

namespace gpusym_fast_form {

LaneCounter make_loop(Function &fast, BasicBlock *preheader, BasicBlock *body, Value *count, const char *name) {
  LLVMContext &context = fast.getContext();
  BasicBlock *header = BasicBlock::Create(context, std::string(name) + ".lanes", &fast, body);
  BasicBlock *latch = BasicBlock::Create(context, std::string(name) + ".next", &fast);
  preheader->getTerminator()->setSuccessor(0, header);
  IRBuilder<> builder(header);
  PHINode *counter = builder.CreatePHI(count->getType(), 2, name);
  counter->addIncoming(ConstantInt::get(count->getType(), 0), preheader);
  builder.CreateBr(body);
  builder.SetInsertPoint(latch);
  Value *next = builder.CreateAdd(counter, ConstantInt::get(count->getType(), 1), std::string(name) + ".1", true, true);
  counter->addIncoming(next, latch);
  // The latch's exit is set by the caller, once the loop around it exists.
  mark_lane_loop(*builder.CreateCondBr(builder.CreateICmpULT(next, count), header, header));
  return {counter, latch};
}

Value *flat_index(IRBuilder<> &builder, Value *x, Value *y, Value *z, Value *dim_x, Value *dim_y) {
  // Each below the block's size (at most 1024 lanes): no wrap.
  auto add = [&](Value *a, Value *b) { return builder.CreateAdd(a, b, "", true, true); };
  auto mul = [&](Value *a, Value *b) { return builder.CreateMul(a, b, "", true, true); };
  return add(x, mul(dim_x, add(y, mul(dim_y, z))));
}

void erase_lifetime_markers(AllocaInst &alloca) {
  for (User *user : make_early_inc_range(alloca.users()))
    if (auto *marker = dyn_cast<IntrinsicInst>(user); marker && marker->isLifetimeStartOrEnd())
      marker->eraseFromParent();
}

SmallVector<BasicBlock *, 16> clone_blocks(ArrayRef<BasicBlock *> blocks, ValueToValueMapTy &map, const Twine &suffix) {
  SmallVector<BasicBlock *, 16> copies;
  for (BasicBlock *block : blocks) {
    BasicBlock *copy = CloneBasicBlock(block, map, suffix, block->getParent());
    map[block] = copy;
    copies.push_back(copy);
  }
  remapInstructionsInBlocks(copies, map);
  return copies;
}

std::optional<SmallVector<BasicBlock *, 16>> copy_loop(Loop &loop, ValueToValueMapTy &map, const Twine &suffix) {
  BasicBlock *exit = loop.getExitBlock();
  if (!loop.getLoopPreheader() || !exit || !loop.hasDedicatedExits()) return std::nullopt;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &inst : *block)
      for (User *user : inst.users())
        if (auto *at = cast<Instruction>(user); !loop.contains(at) && !(isa<PHINode>(at) && at->getParent() == exit))
          return std::nullopt;
  SmallVector<BasicBlock *, 16> copies = clone_blocks(loop.getBlocks(), map, suffix);
  for (PHINode &phi : exit->phis())
    for (unsigned i = 0, count = phi.getNumIncomingValues(); i < count; i++)
      if (Value *block = map.lookup(phi.getIncomingBlock(i))) {
        Value *value = phi.getIncomingValue(i), *copy = map.lookup(value);
        phi.addIncoming(copy ? copy : value, cast<BasicBlock>(block));
      }
  return copies;
}

SmallVector<BasicBlock *, 16> region_blocks(BasicBlock *start, const Barriers &barriers) {
  SmallVector<BasicBlock *, 16> blocks{start};
  SmallPtrSet<BasicBlock *, 16> seen{start};
  for (size_t i = 0; i < blocks.size(); i++) {
    if (barriers.blocks.contains(blocks[i])) continue;
    for (BasicBlock *next : successors(blocks[i]))
      if (seen.insert(next).second) blocks.push_back(next);
  }
  return blocks;
}

}  // namespace gpusym_fast_form

namespace {

using namespace gpusym_fast_form;

constexpr const char *kSection = "gpusym_fast_forms";
constexpr const char *kTable = "__gpusym_fast_forms";
constexpr const char *kReasons = "gpusym_fast_form_reasons";
constexpr const char *kAtO0 = "-O0: every kernel has its debuggable form only";
constexpr const char *kLaterAttribute = "gpusym-fast-form-later";  // barriers: made after optimisation
constexpr const char *kBarrier = gpusym_passes::kBarrierName;
constexpr const char *kAssertFail = "__gpusym_assert_fail";
constexpr const char *kAbort = "__gpusym_abort";
constexpr const char *kBarrierReason = "it waits at __syncthreads()";
// A lockstep step (wave_lockstep.cpp): __gpusym_wave_op(kWaveStepOp, ...)
// before optimisation, __gpusym_wave_step() after; a round's end, as a
// barrier's is, in the fast form.
constexpr const char *kWaveOp = "__gpusym_wave_op";
constexpr const char *kCheckMask = "__gpusym_check_mask";  // synccheck's, see unsuitable()
constexpr uint64_t kWaveStepOp = 17;  // GPUSYM_WAVE_STEP in gpusym/lane.h
constexpr const char *kWaveStep = "__gpusym_wave_step";
constexpr const char *kWaveMeets = "its wavefront's lanes meet at a warp function";
// A warp function: (op, value, arg, width) -> this lane's result, once the
// wavefront's lanes have met (gpusym/lane.h, warp_functions.h).
constexpr const char *kWaveMeet = "__gpusym_wave_meet";
// (calls, states, count) -> whether lanes go on: the wavefront's meeting.
constexpr const char *kFastMeet = "__gpusym_fast_meet";
// A lane's call of a warp function, as the runtime's WaveCall lays it out.
constexpr int64_t kCallOp = 0, kCallWidth = 4, kCallValue = 8, kCallArg = 16, kCallResult = 32, kCallSize = 40;
constexpr const char *kNotMade = "its fast form came out invalid (a bug of gpusym's compiler pass)";


// The loads of the lane pointer (__gpusym_lane) in `function`.
SmallVector<LoadInst *, 8> lane_pointer_loads(Function &function) {
  SmallVector<LoadInst *, 8> loads;
  for (Instruction &inst : instructions(function)) {
    auto *load = dyn_cast<LoadInst>(&inst);
    if (load && lane_variable_address(load->getPointerOperand())) loads.push_back(load);
  }
  return loads;
}

// Whether `call` of `callee` computes from its arguments alone: an
// intrinsic but a trap, the library's math (whose only side effect may be
// errno), or the device library's (__ocml_*, which the runtime computes
// over libm) unless it writes through a pointer (sincos, frexp).
bool pure_math(const CallBase &call, const Function &callee, const TargetLibraryInfo &library) {
  if (Intrinsic::ID id = callee.getIntrinsicID())
    return id != Intrinsic::trap && id != Intrinsic::debugtrap && id != Intrinsic::ubsantrap;
  LibFunc known;
  if (library.getLibFunc(callee, known) && (call.doesNotAccessMemory() || call.onlyAccessesInaccessibleMemory()))
    return true;
  return callee.getName().starts_with("__ocml_") &&
         none_of(call.args(), [](const Use &argument) { return argument->getType()->isPointerTy(); });
}

// Whether a call of `callee` may stay as it is in a fast form: a function
// of this module that, with whatever it calls, never names the runtime
// (its lane, its waits, its records: __gpusym*) and calls nothing but its
// like and pure math; a device function the inliner left out of line (a
// half-precision fma, called twice).  Its answer is kept in `known`, and a
// function is taken for such while its own calls are looked at (recursion).
bool lane_free(Function &callee, const TargetLibraryInfo &library, DenseMap<Function *, bool> &known) {
  if (callee.isDeclaration() || callee.getName().starts_with("__gpusym")) return false;
  if (auto found = known.find(&callee); found != known.end()) return found->second;
  known[&callee] = true;
  auto names_runtime = [](const Value *operand) {
    const auto *global = dyn_cast<GlobalValue>(operand->stripPointerCasts());
    return global && global->getName().starts_with("__gpusym");
  };
  bool free = true;
  for (Instruction &inst : instructions(callee)) {
    if (any_of(inst.operands(), names_runtime)) {
      free = false;
    } else if (auto *call = dyn_cast<CallBase>(&inst); call && !isa<DbgInfoIntrinsic>(call)) {
      Function *called = call->getCalledFunction();
      free = called && (pure_math(*call, *called, library) || lane_free(*called, library, known));
    }
    if (!free) break;
  }
  return known[&callee] = free;
}

// Why `function` has no fast form, or "" when it can have one;
// `lane_loads` gets its loads of its lane's pointer.
std::string unsuitable(Function &function, const TargetLibraryInfo &library, SmallVectorImpl<LoadInst *> &lane_loads,
                       bool barriers_allowed) {
  std::string call_reason;
  bool waits = false;  // at a barrier or a lockstep step
  DenseMap<Function *, bool> lane_free_functions;
  for (Instruction &inst : instructions(function)) {
    auto *call = dyn_cast<CallBase>(&inst);
    if (!call || isa<DbgInfoIntrinsic>(call)) continue;
    Function *callee = call->getCalledFunction();
    if (!callee) return "it calls through a pointer";
    if (pure_math(*call, *callee, library)) continue;
    if (callee->isIntrinsic()) return "it traps";
    StringRef name = callee->getName();
    auto *op = name == kWaveOp ? dyn_cast<ConstantInt>(call->getArgOperand(0)) : nullptr;
    if (name == kBarrier || name == kWaveStep || name == kWaveMeet || (op && op->getZExtValue() == kWaveStepOp)) {
      waits |= !barriers_allowed;
      continue;
    }
    // synccheck's call after a *_sync warp function runs only under
    // `gpusym check`, which runs the debuggable form.
    if (name == kCheckMask) continue;
    // A failed assert() or abort() in the fast form runs the block again in
    // the debuggable form, whose lane reports it, as a fault does.
    if (name == kAssertFail || name == kAbort) continue;
    // An extern __shared__ array's thread-local initialisation routine
    // (_ZTH..., which no source defines): a worker thread's own, in either form.
    if (name.starts_with("_ZTH")) continue;
    if (!call_reason.empty() || lane_free(*callee, library, lane_free_functions)) continue;
    if (name == kWaveOp)
      call_reason = kWaveMeets;
    else
      call_reason = "it calls " + demangle(name);
  }
  if (!call_reason.empty()) return call_reason;
  // The lane may be read in any way (its fields, through selects), never
  // written nor let go.
  for (LoadInst *pointer : lane_pointer_loads(function)) {
    SmallVector<Value *, 8> derived{pointer};
    SmallPtrSet<Value *, 8> seen{pointer};
    while (!derived.empty()) {
      Value *value = derived.pop_back_val();
      for (User *user : value->users()) {
        if (auto *load = dyn_cast<LoadInst>(user); load && !load->isVolatile()) continue;
        if (!isa<GetElementPtrInst>(user) && !isa<SelectInst>(user) && !isa<PHINode>(user))
          return "it uses its lane other than reading it";
        if (seen.insert(user).second) derived.push_back(user);
      }
    }
    lane_loads.push_back(pointer);
  }
  return waits ? kBarrierReason : "";
}

Clone start_clone(Function &kernel, ArrayRef<LoadInst *> lane_loads) {
  ValueToValueMapTy map;
  Function *fast = CloneFunction(&kernel, map);
  fast->setName(kernel.getName() + ".gpusym_fast");
  fast->setLinkage(GlobalValue::PrivateLinkage);
  fast->addFnAttr(kFastAttribute);
  fast->removeFnAttr(Attribute::NoInline);
  fast->removeFnAttr(kLaterAttribute);
  stripDebugInfo(*fast);
  LLVMContext &context = fast->getContext();
  Type *i32 = Type::getInt32Ty(context);

  BasicBlock *body = &fast->getEntryBlock();
  BasicBlock *entry = BasicBlock::Create(context, "block", fast, body);
  IRBuilder<> builder(entry);
  BranchInst *into = builder.CreateBr(body);
  for (Instruction &inst : make_early_inc_range(*body))
    if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && isa<Constant>(alloca->getArraySize()))
      alloca->moveBefore(into);
  builder.SetInsertPoint(into);
  Module &module = *fast->getParent();
  Value *lane = builder.CreateLoad(PointerType::getUnqual(context),
                                   builder.CreateThreadLocalAddress(module.getNamedGlobal(kLaneVariableName)), "lane");
  AllocaInst *copy = builder.CreateAlloca(ArrayType::get(builder.getInt8Ty(), kLaneSize), nullptr, "lane.copy");
  copy->setAlignment(Align(8));
  builder.CreateMemCpy(copy, Align(8), lane, Align(8), kLaneSize);
  auto field = [&](int64_t offset) {
    return builder.CreateLoad(i32, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), lane, offset));
  };
  Value *dim_x = field(24), *dim_y = field(28), *dim_z = field(32);
  for (LoadInst *load : lane_loads) {
    auto *cloned = cast<LoadInst>(map[load]);
    cloned->replaceAllUsesWith(copy);
    cloned->eraseFromParent();
  }
  return {fast, entry, body, copy, dim_x, dim_y, dim_z};
}

// Makes the fast form of `kernel` without barriers, whose loads of its
// lane's pointer are `lane_loads`: loops over threadIdx.z, .y and .x around
// its body (its allocas are one set for every lane, each lane's values
// being its own between its start and end).
Function *make_fast_form(Function &kernel, ArrayRef<LoadInst *> lane_loads, FunctionAnalysisManager &functions) {
  auto [fast, entry, body, copy, dim_x, dim_y, dim_z] = start_clone(kernel, lane_loads);
  LLVMContext &context = fast->getContext();
  IRBuilder<> builder(context);

  // Loops z, y, x; the body's returns go to x's latch.
  LaneCounter z = make_loop(*fast, entry, body, dim_z, "z");
  LaneCounter y = make_loop(*fast, cast<BasicBlock>(z.counter->getParent()), body, dim_y, "y");
  LaneCounter x = make_loop(*fast, cast<BasicBlock>(y.counter->getParent()), body, dim_x, "x");
  BasicBlock *exit = BasicBlock::Create(context, "block.done", fast);
  ReturnInst::Create(context, exit);
  cast<BranchInst>(x.latch->getTerminator())->setSuccessor(1, y.latch);
  cast<BranchInst>(y.latch->getTerminator())->setSuccessor(1, z.latch);
  cast<BranchInst>(z.latch->getTerminator())->setSuccessor(1, exit);
  for (BasicBlock &block : *fast)
    if (auto *ret = dyn_cast<ReturnInst>(block.getTerminator()); ret && &block != exit) {
      BranchInst::Create(x.latch, ret->getIterator());
      ret->eraseFromParent();
    }

  // Each trip: the thread's coordinates and flat index in the copy.
  builder.SetInsertPoint(cast<BasicBlock>(x.counter->getParent())->getTerminator());
  Value *flat = flat_index(builder, x.counter, y.counter, z.counter, dim_x, dim_y);
  std::pair<int64_t, Value *> coordinates[] = {
      {kThreadIdx, x.counter}, {kThreadIdx + 4, y.counter}, {kThreadIdx + 8, z.counter}, {kFlatThread, flat}};
  for (auto [offset, value] : coordinates)
    builder.CreateStore(value, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), copy, offset));

  FunctionPassManager cleanup;
  cleanup.addPass(SROAPass(SROAOptions::ModifyCFG));
  cleanup.addPass(EarlyCSEPass());
  cleanup.run(*fast, functions);
  return fast;
}

// Kernels with barriers.  Their fast form runs the block in rounds: each
// round runs every lane that has not returned, the lanes at one place one
// after another, from where it stopped to its next barrier or its return
// (make_region_loops below), so every lane reaches
// a barrier before any goes past it (lanes that returned no longer take
// part, as on a GPU of sm_70 or later).  A lockstep step or a warp
// function ends a lane's pass too: when a kernel has either, a round is a
// pass over each wavefront in turn, again while a lane of it stopped at
// one.  After each pass the runtime (__gpusym_fast_meet) lets the lanes at
// the first such place go on, as the debuggable form does: every step is
// one place, before any warp function, and the lanes at a warp function get
// their results.  So every lane of the wavefront has made its accesses
// before a step when any goes on.  A lane's state says where it goes on: 0
// at the kernel's start, K after the Kth barrier, step or warp function
// (kWarpFunctionBit | K for a warp function), with the parity of the round
// it may go on in (kRoundBit: a lane at a barrier waits for the next) and
// kMeeting while it meets its wavefront, kReturned once it returned.
// The values an SSA register or an alloca carries across a barrier are each
// lane's own: they move to per-lane memory (one array per
// value, indexed by the flat thread), which the runtime gives the block
// (__gpusym_fast_lanes_memory); every other value is the running lane's
// alone, as in the loops of a kernel without barriers.
constexpr uint32_t kWarpFunctionBit = 1u << 28, kMeeting = 1u << 29, kRoundShift = 30, kRoundBit = 1u << kRoundShift,
                   kReturned = kWarpFunctionBit - 1;  // as __gpusym_fast_meet (executor.cpp) reads them

// Splits `fast`'s body at its barriers, steps and warp functions, whose
// calls go: a warp function's arguments are stored in the lane's call
// before it waits, and its result is loaded from there after.
Barriers split_at_barriers(Function &fast, BasicBlock *entry) {
  SmallVector<std::pair<CallInst *, unsigned>, 8> calls;
  for (Instruction &inst : instructions(fast)) {
    auto *call = dyn_cast<CallInst>(&inst);
    StringRef name = call && call->getCalledFunction() ? call->getCalledFunction()->getName() : "";
    if (name == kBarrier || name == kWaveStep || name == kWaveMeet)
      calls.push_back({call, name == kBarrier ? kAtBarrier : name == kWaveStep ? kAtStep : kAtWarpFunction});
  }
  Barriers barriers;
  LLVMContext &context = fast.getContext();
  for (auto [call, kind] : calls) {
    const char *names[] = {"barrier", "step", "warp"};
    BasicBlock *wait = call->getParent()->splitBasicBlock(call->getIterator(), names[kind]);
    BasicBlock *resume = wait->splitBasicBlock(std::next(call->getIterator()), "resume");
    if (kind == kAtWarpFunction) {
      if (!barriers.call) {
        barriers.call = new AllocaInst(ArrayType::get(Type::getInt8Ty(context), kCallSize), 0, "wave.call",
                                       entry->getTerminator()->getIterator());
        barriers.call->setAlignment(Align(8));
      }
      IRBuilder<> builder(wait->getSinglePredecessor()->getTerminator());
      WarpCall &site = barriers.calls.emplace_back();
      site = {call->getArgOperand(0), call->getArgOperand(1), call->getArgOperand(2), call->getArgOperand(3)};
      std::pair<int64_t, Value *> fields[] = {
          {kCallOp, site.op}, {kCallValue, site.value}, {kCallArg, site.arg}, {kCallWidth, site.width}};
      for (auto [offset, value] : fields)
        site.stores.push_back(builder.CreateStore(
            value, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), barriers.call, offset)));
      builder.SetInsertPoint(resume, resume->getFirstInsertionPt());
      site.result = builder.CreateLoad(
          call->getType(), builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), barriers.call, kCallResult));
      call->replaceAllUsesWith(site.result);
    } else {
      barriers.calls.emplace_back();
    }
    call->eraseFromParent();
    barriers.kinds.push_back(kind);
    barriers.waits.push_back(wait);
    barriers.resumes.push_back(resume);
    barriers.blocks.insert(wait);
  }
  return barriers;
}

// Whether a path from the end of `from` reaches a block of `targets` (or,
// with `phi_value`, an edge into a block whose phi takes it along that
// edge) through a wait block, not passing through `kill` (a block that
// defines the value anew) on the way.
bool reaches_through_barrier(BasicBlock *from, const SmallPtrSetImpl<BasicBlock *> &targets, const Barriers &barriers,
                             BasicBlock *kill, Value *phi_value) {
  SmallVector<std::pair<BasicBlock *, bool>, 32> work;
  SmallPtrSet<BasicBlock *, 32> seen[2];
  auto edge = [&](BasicBlock *source, BasicBlock *target, bool crossed) {
    if (crossed && phi_value)
      for (PHINode &phi : target->phis())
        if (phi.getIncomingValueForBlock(source) == phi_value) return true;
    crossed |= barriers.blocks.contains(target);
    if (crossed && targets.contains(target)) return true;
    if (target != kill && seen[crossed].insert(target).second) work.push_back({target, crossed});
    return false;
  };
  for (BasicBlock *next : successors(from))
    if (edge(from, next, false)) return true;
  while (!work.empty()) {
    auto [block, crossed] = work.pop_back_val();
    for (BasicBlock *next : successors(block))
      if (edge(block, next, crossed)) return true;
  }
  return false;
}

// Whether `value` is used after a wait (a barrier, a step or a warp
// function) on some path from its definition.
bool live_across_barrier(Instruction &value, const Barriers &barriers) {
  SmallPtrSet<BasicBlock *, 8> uses;
  bool phi_uses = false;
  for (User *user : value.users()) {
    auto *inst = cast<Instruction>(user);
    if (isa<PHINode>(inst))
      phi_uses = true;
    else if (inst->getParent() != value.getParent())
      uses.insert(inst->getParent());
  }
  if (uses.empty() && !phi_uses) return false;
  return reaches_through_barrier(value.getParent(), uses, barriers, value.getParent(), phi_uses ? &value : nullptr);
}

// A value made in a loop without waits (an inner loop's sum between two
// barriers) and carried across a wait after it reaches its uses from the
// loop's exits, through phis there (LLVM's loop-closed form): kept in
// memory from there, not stored at each trip, the loop keeps it in a
// register.  The phis vary between lanes where the values do.
SmallVector<PHINode *, 16> leave_loops_without_waits(Function &fast, const Barriers &barriers,
                                                     ArrayRef<Instruction *> carried, SmallPtrSetImpl<Value *> &varying) {
  DominatorTree tree(fast);
  LoopInfo loops(tree);
  SmallVector<Instruction *, 16> in_loops;
  for (Instruction *value : carried) {
    Loop *loop = loops.getLoopFor(value->getParent());
    if (loop && none_of(loop->blocks(), [&](BasicBlock *block) { return barriers.blocks.contains(block); }))
      in_loops.push_back(value);
  }
  SmallVector<PHINode *, 16> inserted, unused, phis;
  if (in_loops.empty()) return phis;
  formLCSSAForInstructions(in_loops, tree, loops, nullptr, &unused, &inserted);
  for (PHINode *phi : inserted) {
    if (is_contained(unused, phi) && phi->use_empty()) continue;
    phis.push_back(phi);
    if (any_of(phi->incoming_values(), [&](Value *value) { return varying.contains(value); }) ||
        phi->getNumIncomingValues() > 1)
      varying.insert(phi);
  }
  for (PHINode *phi : unused)
    if (phi->use_empty()) phi->eraseFromParent();
  return phis;
}

// Whether `alloca`'s memory may carry a value across a barrier: it is used
// in ways other than loads, stores to it and memory intrinsics, or a path
// from one of its uses reaches another through a barrier.
bool alloca_across_barrier(AllocaInst &alloca, const Barriers &barriers) {
  SmallPtrSet<BasicBlock *, 8> uses;
  SmallVector<Value *, 8> pointers{&alloca};
  while (!pointers.empty()) {
    Value *pointer = pointers.pop_back_val();
    for (User *user : pointer->users()) {
      auto *inst = cast<Instruction>(user);
      if (isa<GetElementPtrInst>(inst) || isa<BitCastInst>(inst) || isa<AddrSpaceCastInst>(inst)) {
        pointers.push_back(inst);
        continue;
      }
      if (auto *store = dyn_cast<StoreInst>(inst); store && store->getValueOperand() == pointer) return true;
      if (!isa<LoadInst>(inst) && !isa<StoreInst>(inst) && !isa<MemIntrinsic>(inst) &&
          !(isa<IntrinsicInst>(inst) && cast<IntrinsicInst>(inst)->isLifetimeStartOrEnd()))
        return true;
      uses.insert(inst->getParent());
    }
  }
  for (BasicBlock *use : uses)
    if (reaches_through_barrier(use, uses, barriers, nullptr, nullptr)) return true;
  return false;
}

// Whether `value` is cheap to compute again after a barrier rather than
// keep: a read of the lane's copy (its coordinates), or arithmetic on such
// reads, the kernel's arguments and what the entry computes, within
// `budget` instructions.
bool recomputable(Value *value, const Clone &clone, unsigned &budget) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || inst->getParent() == clone.entry) return true;
  if (budget == 0) return false;
  budget--;
  if (auto *load = dyn_cast<LoadInst>(inst))
    return load->isSimple() && getUnderlyingObject(load->getPointerOperand()) == clone.copy &&
           recomputable(load->getPointerOperand(), clone, budget);
  if (!isa<BinaryOperator>(inst) && !isa<CastInst>(inst) && !isa<GetElementPtrInst>(inst) && !isa<CmpInst>(inst) &&
      !isa<SelectInst>(inst))
    return false;
  if (isa<BinaryOperator>(inst) && !isSafeToSpeculativelyExecute(inst)) return false;  // a division may trap
  for (Value *operand : inst->operands())
    if (!recomputable(operand, clone, budget)) return false;
  return true;
}

// A copy of recomputable `value`'s instructions in front of `before`.
Value *recompute(Value *value, const Clone &clone, Instruction *before) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || inst->getParent() == clone.entry) return value;
  Instruction *copy = inst->clone();
  copy->insertBefore(before);
  for (Use &operand : copy->operands()) operand.set(recompute(operand.get(), clone, copy));
  return copy;
}

// The bit of a round's or pass's mask of regions that stands for region r
// (the regions after the 62nd share the last).
uint64_t region_bit(size_t region) { return uint64_t(1) << std::min<size_t>(region, 62); }
constexpr uint64_t kAllLanes = uint64_t(1) << 63;  // in __gpusym_fast_meet's answer

// The rounds and passes of a fast form with barriers (see above), as a loop
// over the lanes of a pass for each region: the code from the kernel's
// start, or from a wait, to the next waits and returns.  A pass runs, for
// each region in turn that it has lanes at (its mask), that region's loop
// over the pass's lanes, each of which goes on to a wait or returns.  Each
// region's code is a copy of its blocks, so that its loop is an ordinary
// loop for LLVM's optimisers; when every lane of the pass is at the region
// (the common case: the wavefront after a warp function, the block after a
// barrier) the loop does not read the lanes' states.  `wave` is the lanes of
// a pass (a wavefront's, when the kernel has steps or warp functions, whose
// lanes meet after each pass: __gpusym_fast_meet), nullptr for the block's.
void make_region_loops(const Clone &clone, const Barriers &barriers, const PerLane &lane_values, Value *states,
                       Value *calls, Value *wave) {
  Function *fast = clone.fast;
  BasicBlock *entry = clone.entry, *body = clone.body;
  Value *copy = clone.copy, *dim_x = clone.dim_x, *dim_y = clone.dim_y, *dim_z = clone.dim_z;
  LLVMContext &context = fast->getContext();
  Type *i1 = Type::getInt1Ty(context), *i32 = Type::getInt32Ty(context), *i64 = Type::getInt64Ty(context),
       *i8 = Type::getInt8Ty(context);
  Value *lanes = lane_values.lanes;
  IRBuilder<> builder(context);
  SmallVector<BasicBlock *, 32> original;
  for (BasicBlock &block : *fast)
    if (&block != entry) original.push_back(&block);
  auto state_of = [&](size_t region) {  // a lane's state when it may go on in `region`
    return region == 0 ? 0 : uint32_t(region) | (barriers.kinds[region - 1] == kAtWarpFunction ? kWarpFunctionBit : 0);
  };

  // A round's mask of regions with lanes, and whether all its lanes are at
  // one; a pass's first lane, mask and the same; the round's number, the
  // barriers lanes stop at in it, and whether any lane has returned.
  builder.SetInsertPoint(entry->getTerminator());
  auto variable = [&](Type *type, Value *initial, const char *name) {
    AllocaInst *at = builder.CreateAlloca(type, nullptr, name);
    if (initial) builder.CreateStore(initial, at);
    return at;
  };
  AllocaInst *round_mask = variable(i64, builder.getInt64(1), "round.mask");
  AllocaInst *round_all = variable(i1, builder.getTrue(), "round.all");
  AllocaInst *pass_first = variable(i64, nullptr, "pass.first"), *pass_mask = variable(i64, nullptr, "pass.mask");
  AllocaInst *pass_all = variable(i1, nullptr, "pass.all");
  AllocaInst *round_number = variable(i32, builder.getInt32(0), "round.number");
  AllocaInst *held = variable(i64, nullptr, "held");  // the mask of the barriers lanes stopped at this round
  AllocaInst *returned = variable(i1, builder.getFalse(), "returned");  // a lane has returned
  if (!wave) wave = lanes;

  BasicBlock *round = BasicBlock::Create(context, "round", fast);
  BasicBlock *pass = BasicBlock::Create(context, "pass", fast);
  BasicBlock *pass_end = BasicBlock::Create(context, "pass.done", fast);
  entry->getTerminator()->setSuccessor(0, round);
  builder.SetInsertPoint(round);
  builder.CreateStore(builder.getInt64(0), held);
  Value *number = builder.CreateLoad(i32, round_number, "round");
  // A lane's state while it may go on in this round, and where it waits
  // for the next at a barrier: the round's parity, in bit kRoundBit.
  Value *this_round = builder.CreateShl(builder.CreateAnd(number, 1), kRoundShift);
  Value *next_round = builder.CreateXor(this_round, kRoundBit);
  auto start_pass = [&](Value *first, Value *mask, Value *all) {
    builder.CreateStore(first, pass_first);
    builder.CreateStore(mask, pass_mask);
    builder.CreateStore(all, pass_all);
    builder.CreateBr(pass);
  };
  start_pass(builder.getInt64(0), builder.CreateLoad(i64, round_mask), builder.CreateLoad(i1, round_all));

  // pass: its lanes [first, last), the first's coordinates.
  builder.SetInsertPoint(pass);
  Value *first = builder.CreateLoad(i64, pass_first, "first");
  Value *last = builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.CreateAdd(first, wave), lanes, nullptr, "last");
  Value *mask = builder.CreateLoad(i64, pass_mask, "mask");
  Value *all = builder.CreateLoad(i1, pass_all, "all");
  // The loop over the pass's lanes, entered from `check`'s first successor
  // and left for `exit`: over the block's, loops z, y and x, x innermost; a
  // wavefront's, one loop from its first lane's coordinates.  Returns its
  // header, which a lane's code ends, and its latch.
  struct LaneLoop {
    BasicBlock *header, *latch;
    Value *lane, *x, *y, *z;
  };
  auto lane_loop = [&](BasicBlock *check, BasicBlock *run, BasicBlock *exit, const std::string &name) -> LaneLoop {
    if (wave == lanes) {
      LaneCounter z = make_loop(*fast, check, run, dim_z, "z");
      LaneCounter y = make_loop(*fast, cast<BasicBlock>(z.counter->getParent()), run, dim_y, "y");
      LaneCounter x = make_loop(*fast, cast<BasicBlock>(y.counter->getParent()), run, dim_x, "x");
      cast<BranchInst>(x.latch->getTerminator())->setSuccessor(1, y.latch);
      cast<BranchInst>(y.latch->getTerminator())->setSuccessor(1, z.latch);
      cast<BranchInst>(z.latch->getTerminator())->setSuccessor(1, exit);
      BasicBlock *header = x.counter->getParent();
      header->getTerminator()->eraseFromParent();
      builder.SetInsertPoint(header);
      Value *flat = flat_index(builder, x.counter, y.counter, z.counter, dim_x, dim_y);
      return {header, x.latch, builder.CreateZExt(flat, i64, "flat"), x.counter, y.counter, z.counter};
    }
    BasicBlock *header = BasicBlock::Create(context, name + ".lane", fast, run);
    BasicBlock *latch = BasicBlock::Create(context, name + ".next", fast, run);
    check->getTerminator()->setSuccessor(0, header);
    builder.SetInsertPoint(check->getTerminator());
    Value *first32 = builder.CreateTrunc(first, i32), *first_yz = builder.CreateUDiv(first32, dim_x);
    Value *first_x = builder.CreateURem(first32, dim_x), *first_y = builder.CreateURem(first_yz, dim_y);
    Value *first_z = builder.CreateUDiv(first_yz, dim_y);
    builder.SetInsertPoint(header);
    PHINode *lane = builder.CreatePHI(i64, 2, "flat");
    PHINode *x = builder.CreatePHI(i32, 2, "x"), *y = builder.CreatePHI(i32, 2, "y"), *z = builder.CreatePHI(i32, 2, "z");
    for (auto [phi, value] : {std::pair<PHINode *, Value *>{lane, first}, {x, first_x}, {y, first_y}, {z, first_z}})
      phi->addIncoming(value, check);
    // The next lane's coordinates, x fastest, with no division.
    builder.SetInsertPoint(latch);
    Value *next = builder.CreateAdd(lane, builder.getInt64(1), "flat.1", true, true);
    Value *next_x = builder.CreateAdd(x, builder.getInt32(1)), *x_wraps = builder.CreateICmpEQ(next_x, dim_x);
    Value *next_y = builder.CreateAdd(y, builder.CreateZExt(x_wraps, i32));
    Value *y_wraps = builder.CreateICmpEQ(next_y, dim_y);
    lane->addIncoming(next, latch);
    x->addIncoming(builder.CreateSelect(x_wraps, builder.getInt32(0), next_x), latch);
    y->addIncoming(builder.CreateSelect(y_wraps, builder.getInt32(0), next_y), latch);
    z->addIncoming(builder.CreateAdd(z, builder.CreateZExt(y_wraps, i32)), latch);
    builder.CreateCondBr(builder.CreateICmpULT(next, last), header, exit);
    builder.SetInsertPoint(header);
    return {header, latch, lane, x, y, z};
  };

  BasicBlock *next_check = pass_end;  // the region loops are made last to first
  for (size_t r = barriers.waits.size() + 1; r-- > 0;) {
    BasicBlock *start = r == 0 ? body : barriers.resumes[r - 1];
    SmallVector<BasicBlock *, 16> blocks = region_blocks(start, barriers);
    ValueToValueMapTy map;
    SmallVector<BasicBlock *, 16> copies = clone_blocks(blocks, map, ".r" + Twine(r));
    SmallPtrSet<BasicBlock *, 16> copy_set(copies.begin(), copies.end());
    for (BasicBlock *copy_block : copies)  // edges from other regions are gone
      for (PHINode &phi : make_early_inc_range(copy_block->phis()))
        for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
          if (!copy_set.contains(phi.getIncomingBlock(i))) phi.removeIncomingValue(i, false);

    // check: does the pass have lanes there?  Then the loop over them: its
    // header passes over a lane that is elsewhere, unless all are there.
    std::string name = "region" + std::to_string(r);
    BasicBlock *check = BasicBlock::Create(context, name, fast, copies.front());
    BasicBlock *run = BasicBlock::Create(context, name + ".run", fast, copies.front());
    builder.SetInsertPoint(check);
    Value *there = builder.CreateAnd(mask, region_bit(r));
    builder.CreateCondBr(builder.CreateICmpNE(there, builder.getInt64(0)), run, next_check);
    auto [header, latch, lane, x, y, z] = lane_loop(check, run, next_check, name);
    Value *state_at = builder.CreateInBoundsGEP(i32, states, lane, "state");
    Value *here = builder.CreateICmpEQ(builder.CreateLoad(i32, state_at), builder.CreateOr(this_round, state_of(r)));
    builder.CreateCondBr(builder.CreateOr(all, here), run, latch);

    builder.SetInsertPoint(run);
    std::pair<int64_t, Value *> coordinates[] = {
        {kThreadIdx, x}, {kThreadIdx + 4, y}, {kThreadIdx + 8, z}, {kFlatThread, builder.CreateTrunc(lane, i32)}};
    for (auto [offset, value] : coordinates) builder.CreateStore(value, builder.CreateConstInBoundsGEP1_64(i8, copy, offset));
    for (size_t i = 0; i < lane_values.allocas.size(); i++) {
      Value *pointer = lane_values.pointer(builder, i, lane);
      lane_values.allocas[i]->replaceUsesWithIf(pointer, [&](Use &use) {
        return copy_set.contains(cast<Instruction>(use.getUser())->getParent());
      });
    }
    builder.CreateBr(copies.front());

    // A lane's wait: at a barrier until the next round, or meeting its
    // wavefront; its return: done.
    for (BasicBlock *block : blocks) {
      auto *copy_block = cast<BasicBlock>(map[block]);
      Instruction *end = copy_block->getTerminator();
      if (!barriers.blocks.contains(block) && !isa<ReturnInst>(end)) continue;
      builder.SetInsertPoint(end);
      if (barriers.blocks.contains(block)) {
        size_t k = find(barriers.waits, block) - barriers.waits.begin();
        bool barrier = barriers.kinds[k] == kAtBarrier;
        builder.CreateStore(builder.CreateOr(barrier ? next_round : this_round, state_of(k + 1) | (barrier ? 0 : kMeeting)),
                            state_at);
        if (barrier) builder.CreateStore(builder.CreateOr(builder.CreateLoad(i64, held), region_bit(k + 1)), held);
      } else {
        builder.CreateStore(builder.getInt32(kReturned), state_at);
        builder.CreateStore(builder.getTrue(), returned);
      }
      builder.CreateBr(latch);
      end->eraseFromParent();
    }
    next_check = check;
  }
  BranchInst::Create(next_check, pass);

  // The kernel's own blocks are all copied; then the per-lane allocas,
  // whose uses were all there or in the copies, go.
  for (BasicBlock *block : original) block->dropAllReferences();
  for (BasicBlock *block : original) block->eraseFromParent();
  for (AllocaInst *alloca : lane_values.allocas) {
    erase_lifetime_markers(*alloca);
    alloca->eraseFromParent();
  }

  // After a pass over a wavefront, its lanes meet: a pass again over those
  // that go on, else the next wavefront with the round's mask.
  BasicBlock *next_wave = BasicBlock::Create(context, "wave.next", fast);
  builder.SetInsertPoint(pass_end);
  if (wave != lanes) {
    FunctionCallee fast_meet = fast->getParent()->getOrInsertFunction(kFastMeet, i64, PointerType::getUnqual(context),
                                                                      PointerType::getUnqual(context), i32);
    Value *going = builder.CreateCall(
        fast_meet, {builder.CreateGEP(i8, calls, builder.CreateMul(first, builder.getInt64(kCallSize))),
                    builder.CreateInBoundsGEP(i32, states, first), builder.CreateTrunc(builder.CreateSub(last, first), i32)});
    BasicBlock *again = BasicBlock::Create(context, "wave.again", fast);
    builder.CreateCondBr(builder.CreateICmpNE(going, builder.getInt64(0)), again, next_wave);
    builder.SetInsertPoint(again);
    start_pass(first, builder.CreateAnd(going, ~kAllLanes), builder.CreateICmpNE(builder.CreateAnd(going, kAllLanes), builder.getInt64(0)));
  } else {
    builder.CreateBr(next_wave);
  }
  BasicBlock *round_end = BasicBlock::Create(context, "round.done", fast);
  builder.SetInsertPoint(next_wave);
  BasicBlock *next_pass = BasicBlock::Create(context, "wave.first", fast);
  builder.CreateCondBr(builder.CreateICmpULT(last, lanes), next_pass, round_end);
  builder.SetInsertPoint(next_pass);
  start_pass(last, builder.CreateLoad(i64, round_mask), builder.CreateLoad(i1, round_all));

  // Every lane at a barrier or returned: while some wait, another round,
  // in which all lanes go on at one barrier's region when none has returned
  // and they stopped at that one alone.
  BasicBlock *done = BasicBlock::Create(context, "block.done", fast);
  BasicBlock *next_round_block = BasicBlock::Create(context, "round.next", fast);
  builder.SetInsertPoint(round_end);
  Value *stopped = builder.CreateLoad(i64, held, "stopped");
  builder.CreateCondBr(builder.CreateICmpNE(stopped, builder.getInt64(0)), next_round_block, done);
  builder.SetInsertPoint(next_round_block);
  builder.CreateStore(stopped, round_mask);
  Value *one_region = builder.CreateAnd(builder.CreateICmpEQ(builder.CreateAnd(stopped, builder.CreateSub(stopped, builder.getInt64(1))), builder.getInt64(0)),
                                        builder.CreateICmpULT(stopped, builder.getInt64(region_bit(62))));
  builder.CreateStore(builder.CreateAnd(one_region, builder.CreateNot(builder.CreateLoad(i1, returned))), round_all);
  builder.CreateStore(builder.CreateAdd(number, builder.getInt32(1)), round_number);
  builder.CreateBr(round);
  ReturnInst::Create(context, done);
}

// A barrier fast form's last steps: nullptr when it came out invalid (a bug
// of this pass: the kernel then has its debuggable form only), else a
// clean-up (its variables in registers, what its loops do not change taken
// out of them).
Function *finish_barrier_fast_form(Function *fast, FunctionAnalysisManager &functions, bool structured) {
  if (verifyFunction(*fast)) {
    fast->eraseFromParent();
    return nullptr;
  }
  FunctionPassManager cleanup;
  cleanup.addPass(SROAPass(SROAOptions::ModifyCFG));
  cleanup.addPass(InstCombinePass());
  cleanup.addPass(SimplifyCFGPass());
  cleanup.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), true));
  cleanup.addPass(EarlyCSEPass());
  if (structured) {
    // What the optimiser does to loops, for the loops over lanes made after
    // it: what is the same for every lane out of them, a branch on such a
    // value out of the loop too, then the vectoriser.
    LoopPassManager loops;
    loops.addPass(LoopInstSimplifyPass());
    loops.addPass(LoopSimplifyCFGPass());
    loops.addPass(LoopRotatePass());
    loops.addPass(LICMPass(LICMOptions()));
    loops.addPass(SimpleLoopUnswitchPass(true));
    cleanup.addPass(createFunctionToLoopPassAdaptor(std::move(loops), true));
    cleanup.addPass(SimplifyCFGPass());
    cleanup.addPass(InstCombinePass());
    LoopPassManager counters;
    counters.addPass(IndVarSimplifyPass());
    counters.addPass(LoopDeletionPass());
    cleanup.addPass(createFunctionToLoopPassAdaptor(std::move(counters)));
    add_lane_range_passes(cleanup);
    cleanup.addPass(LoopVectorizePass());
    cleanup.addPass(InstCombinePass());
    cleanup.addPass(SimplifyCFGPass());
    cleanup.addPass(EarlyCSEPass());
  }
  cleanup.run(*fast, functions);
  return fast;
}

// Makes the fast form of `kernel`, which waits at barriers (or has stride
// loops); `per_lane_bytes` gets the bytes each lane keeps across them.  With
// `by_block_strides`, its stride loops become the block's (stride_loops.cpp;
// `stride_loops` gets how many), unless the block then reaches its barriers
// other than alike: the form is then made without.  With `only_strides`
// (a kernel without barriers), none is made without a stride loop.
Function *make_barrier_fast_form(Function &kernel, ArrayRef<LoadInst *> lane_loads,
                                 FunctionAnalysisManager &functions, uint64_t &per_lane_bytes, bool &structured,
                                 unsigned &stride_loops, bool by_block_strides = true, bool only_strides = false) {
  const Clone clone = start_clone(kernel, lane_loads);
  auto [fast, entry, body, copy, dim_x, dim_y, dim_z] = clone;
  stride_loops = by_block_strides ? run_stride_loops_by_block(clone) : 0;
  if (only_strides && !stride_loops) {
    fast->eraseFromParent();
    return nullptr;
  }
  LLVMContext &context = fast->getContext();
  const DataLayout &layout = fast->getParent()->getDataLayout();
  Type *i32 = Type::getInt32Ty(context), *i64 = Type::getInt64Ty(context), *i8 = Type::getInt8Ty(context);
  Barriers barriers = split_at_barriers(*fast, entry);

  // The addresses of __shared__ variables (thread-local: the worker's), the
  // same for every lane, are taken once in the entry.
  DenseMap<Value *, Instruction *> shared_addresses;
  for (BasicBlock &block : *fast)
    for (Instruction &inst : make_early_inc_range(block))
      if (auto *tls = dyn_cast<IntrinsicInst>(&inst); tls && &block != entry &&
                                                       tls->getIntrinsicID() == Intrinsic::threadlocal_address &&
                                                       isa<GlobalVariable>(tls->getArgOperand(0))) {
        auto [at, added] = shared_addresses.try_emplace(tls->getArgOperand(0), tls);
        if (added)
          tls->moveBefore(entry->getTerminator());
        else {
          tls->replaceAllUsesWith(at->second);
          tls->eraseFromParent();
        }
      }

  // The values carried across a barrier: computed again where they are
  // used when that is cheap (a thread's coordinates and arithmetic on
  // them), kept in memory otherwise (allocas in the entry).
  auto carried_values = [&] {
    SmallVector<Instruction *, 16> carried;
    for (BasicBlock &block : *fast) {
      if (&block == entry) continue;
      for (Instruction &inst : block)
        if (!isa<AllocaInst>(inst) && !inst.getType()->isVoidTy() && live_across_barrier(inst, barriers))
          carried.push_back(&inst);
    }
    return carried;
  };
  for (Instruction *inst : carried_values()) {
    unsigned budget = 16;
    if (isa<PHINode>(inst) || !recomputable(inst, clone, budget)) continue;
    for (Use &use : make_early_inc_range(inst->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      if (auto *phi = dyn_cast<PHINode>(user))
        use.set(recompute(inst, clone, phi->getIncomingBlock(use)->getTerminator()));
      else if (user->getParent() != inst->getParent())
        use.set(recompute(inst, clone, user));
    }
  }
  // Kernels whose lanes reach their barriers alike (see divergence.cpp) get
  // the structured form, whose values the same for every lane stay scalar.
  bool by_wavefront = any_of(barriers.kinds, [](unsigned kind) { return kind != kAtBarrier; });
  Uniformity uniformity;
  structured = (uniformity = analyse_uniformity(clone, barriers)).barriers_uniform;
  if (stride_loops && !structured) {
    fast->eraseFromParent();
    return only_strides ? nullptr
                        : make_barrier_fast_form(kernel, lane_loads, functions, per_lane_bytes, structured,
                                                 stride_loops, false);
  }
  if (structured) make_direct_shuffles(barriers, entry, uniformity.varying);
  SmallVector<Instruction *, 16> carried = carried_values();
  SmallVector<PHINode *, 16> exits = leave_loops_without_waits(*fast, barriers, carried, uniformity.varying);
  if (!exits.empty()) carried = carried_values();
  BasicBlock::iterator allocas_end = entry->getTerminator()->getIterator();
  SmallSetVector<AllocaInst *, 16> scalar;  // carried values' slots, one for the block

  // A phi's value goes through memory as LLVM demotes a phi: stored at the
  // end of each block it comes from, loaded where the phi was.  When that
  // load is carried across a barrier, it is made again at each use: the
  // blocks the phi's values come from first get the phi's block as their
  // only successor, so that no path from the load to a use stores a new
  // value without passing the load again (a loop's exit from its latch
  // would, after storing the next trip's value), and a reload in such a
  // block comes before the phi's store there.
  SmallVector<Instruction *, 16> values;
  for (Instruction *inst : carried) {
    auto *phi = dyn_cast<PHINode>(inst);
    if (!phi || is_contained(exits, phi)) {  // a loop's exit value: stored where it is made, after the loop
      values.push_back(inst);
      continue;
    }
    BasicBlock *block = phi->getParent();
    bool phi_varies = uniformity.varying.contains(phi);
    bool split = true;
    for (BasicBlock *from : SmallSetVector<BasicBlock *, 4>(pred_begin(block), pred_end(block)))
      if (from->getTerminator()->getNumSuccessors() > 1)
        split &= SplitCriticalEdge(from, block, CriticalEdgeSplittingOptions().setMergeIdenticalEdges()) != nullptr;
    AllocaInst *slot = DemotePHIToStack(phi, allocas_end);
    if (structured && !phi_varies) scalar.insert(slot);
    LoadInst *load = nullptr;
    DenseMap<BasicBlock *, Instruction *> stores;  // the phi's store in each block its values come from
    for (User *user : slot->users())
      if (auto *store = dyn_cast<StoreInst>(user))
        stores[store->getParent()] = store;
      else if (cast<Instruction>(user)->getParent() == block)
        load = cast<LoadInst>(user);
    if (!load || !live_across_barrier(*load, barriers)) continue;
    if (!split) {
      if (phi_varies) uniformity.varying.insert(load);
      values.push_back(load);
      continue;
    }
    for (Use &use : make_early_inc_range(load->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      auto *user_phi = dyn_cast<PHINode>(user);
      Instruction *before = user_phi ? user_phi->getIncomingBlock(use)->getTerminator() : user;
      if (auto store = stores.find(before->getParent());
          store != stores.end() && !before->comesBefore(store->second))
        before = store->second;
      use.set(new LoadInst(load->getType(), slot, load->getName() + ".reload", before->getIterator()));
    }
    load->eraseFromParent();
  }
  for (Instruction *value : values) {
    bool varies = uniformity.varying.contains(value);
    AllocaInst *slot = DemoteRegToStack(*value, false, allocas_end);
    if (structured && !varies) scalar.insert(slot);
  }
  // A lane waiting at a divergent step goes on after lanes that went past
  // it may have changed the block's variables: it keeps those it reads
  // after the step in an array of the block's lanes when it reaches the
  // step, and reads them from there when it goes on.
  SmallPtrSet<BasicBlock *, 32> after_steps;
  for (size_t k = 0; k < barriers.waits.size(); k++)
    if (uniformity.divergent_steps.contains(barriers.waits[k]))
      for (BasicBlock *block : region_blocks(barriers.resumes[k], barriers)) after_steps.insert(block);
  DenseMap<AllocaInst *, AllocaInst *> kept_at_steps;
  for (AllocaInst *slot : scalar)
    if (any_of(slot->users(), [&](User *user) {
          return isa<LoadInst>(user) && after_steps.contains(cast<Instruction>(user)->getParent());
        })) {
      auto *kept = new AllocaInst(slot->getAllocatedType(), slot->getAddressSpace(), slot->getName() + ".at.step",
                                  allocas_end);
      barriers.lane_arrays.insert(kept);
      kept_at_steps[slot] = kept;
      for (size_t k = 0; k < barriers.waits.size(); k++)
        if (uniformity.divergent_steps.contains(barriers.waits[k])) {
          IRBuilder<> at_step(barriers.waits[k]->getTerminator());
          at_step.CreateStore(at_step.CreateLoad(slot->getAllocatedType(), slot), kept);
        }
    }

  // The allocas whose memory crosses a barrier become per-lane arrays: one
  // region of the block's memory each, lanes side by side.
  SmallVector<AllocaInst *, 16> per_lane;
  for (Instruction &inst : *entry)
    if (auto *alloca = dyn_cast<AllocaInst>(&inst);
        alloca && alloca != copy && !scalar.contains(alloca) &&
        (alloca == barriers.call || barriers.lane_arrays.contains(alloca) || alloca_across_barrier(*alloca, barriers)))
      per_lane.push_back(alloca);
  // The most aligned first, so that no padding comes between them.
  llvm::stable_sort(per_lane, [](AllocaInst *a, AllocaInst *b) { return a->getAlign() > b->getAlign(); });
  SmallVector<uint64_t, 16> offsets, sizes;
  uint64_t calls_offset = 0;  // the region of the lanes' calls of warp functions
  uint64_t bytes = 0;
  for (AllocaInst *alloca : per_lane) {
    uint64_t alignment = std::max<uint64_t>(alloca->getAlign().value(), 1);
    uint64_t size = alignTo(alloca->getAllocationSize(layout)->getFixedValue(), alignment);
    bytes = alignTo(bytes, alignment);
    if (alloca == barriers.call) calls_offset = bytes;
    offsets.push_back(bytes);
    sizes.push_back(size);
    bytes += size;
  }
  bytes = alignTo(bytes, 16);
  per_lane_bytes = bytes;

  // The entry: the lanes' count, their memory and states (all 0; four bytes
  // a lane: the rounds' states, or the structured form's `gone` and `at`
  // bytes), and the lanes a pass runs: a wavefront's when the kernel has
  // steps, else all.
  IRBuilder<> builder(entry->getTerminator());
  Value *lanes = builder.CreateZExt(builder.CreateMul(builder.CreateMul(dim_x, dim_y), dim_z), i64, "lanes");
  Module &module = *fast->getParent();
  // The memory is the worker's own, which no other pointer of the kernel
  // reaches (noalias, as malloc's): LLVM may keep a lane's values in
  // registers across loops that read other memory.
  AttributeList no_other_pointer =
      AttributeList::get(context, AttributeList::ReturnIndex, ArrayRef<Attribute::AttrKind>{Attribute::NoAlias});
  FunctionCallee lanes_memory =
      module.getOrInsertFunction(kLanesMemory, no_other_pointer, PointerType::getUnqual(context), i64);
  Value *memory = builder.CreateCall(lanes_memory, {builder.CreateMul(lanes, builder.getInt64(bytes + 4))}, "memory");
  Value *states = builder.CreateGEP(i8, memory, builder.CreateMul(lanes, builder.getInt64(bytes)), "states");
  CallInst *clear = builder.CreateMemSet(states, builder.getInt8(0), builder.CreateMul(lanes, builder.getInt64(4)),
                                         Align(4));
  if (structured) {
    Value *calls = builder.CreateGEP(i8, memory, builder.CreateMul(lanes, builder.getInt64(calls_offset)), "calls");
    bool needs_states = false;
    bool made = make_uniform_region_loops(clone, barriers, PerLane{per_lane, offsets, sizes, memory, lanes},
                                          scalar.getArrayRef(), kept_at_steps, uniformity, states, calls, needs_states);
    if (made && !needs_states) clear->eraseFromParent();
    if (!made || verifyFunction(*fast)) {
      fast->eraseFromParent();
      return stride_loops && !only_strides ? make_barrier_fast_form(kernel, lane_loads, functions, per_lane_bytes,
                                                                    structured, stride_loops, false)
                                           : nullptr;
    }
    return finish_barrier_fast_form(fast, functions, true);
  }
  Value *wave =
      by_wavefront ? builder.CreateZExt(builder.CreateCall(module.getOrInsertFunction(kWaveSize, i32)), i64) : nullptr;
  Value *calls = builder.CreateGEP(i8, memory, builder.CreateMul(lanes, builder.getInt64(calls_offset)), "calls");
  make_region_loops(clone, barriers, PerLane{per_lane, offsets, sizes, memory, lanes}, states, calls, wave);
  return finish_barrier_fast_form(fast, functions, false);
}

// Under the driver's -v (GPUSYM_EXPLAIN_FAST_FORMS): why `kernel` has no fast form.
void explain(const Function &kernel, const std::string &why) {
  static const bool wanted = getenv("GPUSYM_EXPLAIN_FAST_FORMS") != nullptr;
  if (wanted) errs() << "gpusym: kernel " << demangle(kernel.getName()) << " has no fast form: " << why << "\n";
}

// Records in kReasons why `kernel` has no fast form ("": it has one).
void record_reason(Module &module, const Function &kernel, StringRef why) {
  std::string text = (kernel.getName() + Twine('\0') + why).str();
  Constant *bytes = ConstantDataArray::getString(module.getContext(), text);
  auto *entry =
      new GlobalVariable(module, bytes->getType(), true, GlobalValue::PrivateLinkage, bytes, "gpusym.fast_form_reason");
  entry->setSection(kReasons);
  entry->setAlignment(Align(1));
  appendToUsed(module, {entry});
}

// At -O0: every kernel's reason.
// Before optimisation: a device function that waits (at a barrier, a
// lockstep step or a warp function, however deep in its calls) and that a
// kernel of the module calls (however deep) is inlined into its callers, as
// the inliner would not always do for a large one (a block reduction of
// CUB's in a helper of the program's), so that its kernels can have a fast
// form.  What the program marked noinline stays so, and so does a function
// that would grow past kMaxInlinedSize instructions with the waiting
// functions it calls inlined in turn: the lockstep pass makes every access
// through a pointer parameter wait until optimisation shows where it goes,
// so a deep tree of small functions (a field's arithmetic on references)
// would grow exponentially.
struct InlineWaitingFunctions : PassInfoMixin<InlineWaitingFunctions> {
  static constexpr uint64_t kMaxInlinedSize = 20000;

  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    SmallPtrSet<Function *, 16> waiting;
    SmallVector<Function *, 16> work;
    for (StringRef name : {kBarrier, kWaveStep, kWaveMeet, kWaveOp})
      if (Function *wait = module.getFunction(name)) work.push_back(wait);
    while (!work.empty()) {  // the callers of what waits, transitively
      Function *callee = work.pop_back_val();
      for (User *user : callee->users())
        if (auto *call = dyn_cast<CallBase>(user); call && call->getCalledFunction() == callee)
          if (Function *caller = call->getFunction(); waiting.insert(caller).second) work.push_back(caller);
    }
    SmallPtrSet<Function *, 16> reached;  // what the module's kernels call, transitively
    for (Function &function : module)
      if (is_kernel(function) && reached.insert(&function).second) work.push_back(&function);
    while (!work.empty())
      for (Instruction &instruction : instructions(*work.pop_back_val()))
        if (auto *call = dyn_cast<CallBase>(&instruction))
          if (Function *callee = call->getCalledFunction(); callee && reached.insert(callee).second)
            work.push_back(callee);
    DenseMap<Function *, uint64_t> sizes;
    bool changed = false;
    for (Function *function : waiting) {
      if (function->isDeclaration() || is_kernel(*function) || function->hasFnAttribute(Attribute::NoInline) ||
          function->hasFnAttribute(Attribute::AlwaysInline) || !reached.contains(function) ||
          inlined_size(*function, waiting, sizes) > kMaxInlinedSize)
        continue;
      function->addFnAttr(Attribute::AlwaysInline);
      changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  // The instructions of `function` with the waiting functions it calls
  // inlined, theirs in turn (memoized in `sizes`; a call back into a
  // function being counted counts as one instruction).
  static uint64_t inlined_size(Function &function, const SmallPtrSetImpl<Function *> &waiting,
                               DenseMap<Function *, uint64_t> &sizes) {
    if (auto found = sizes.find(&function); found != sizes.end()) return found->second;
    sizes[&function] = 1;
    uint64_t size = 0;
    for (Instruction &instruction : instructions(function)) {
      size++;
      if (auto *call = dyn_cast<CallBase>(&instruction))
        if (Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration() && waiting.contains(callee))
          size += inlined_size(*callee, waiting, sizes);
      if (size > kMaxInlinedSize) break;
    }
    sizes[&function] = size;
    return size;
  }
};

struct RecordO0 : PassInfoMixin<RecordO0> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    for (Function &function : module)
      if (!function.isDeclaration() && is_kernel(function)) record_reason(module, function, kAtO0);
    return PreservedAnalyses::none();
  }
};

// Lists (kernel, fast) in the table of fast forms, whose bounds it defines
// once in the code object (linkonce_odr).
void add_to_table(Module &module, Function &kernel, Function &fast) {
  PointerType *pointer = PointerType::getUnqual(module.getContext());
  StructType *pair = StructType::get(pointer, pointer);
  auto *entry = new GlobalVariable(module, pair, true, GlobalValue::PrivateLinkage,
                                   ConstantStruct::get(pair, {&kernel, &fast}), "gpusym.fast_form");
  entry->setSection(kSection);
  entry->setAlignment(Align(8));
  appendToUsed(module, {entry});
  if (module.getNamedGlobal(kTable)) return;
  auto bound = [&](const char *name) {
    auto *variable = new GlobalVariable(module, pair, true, GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                                        GlobalValue::NotThreadLocal, std::nullopt, true);
    variable->setVisibility(GlobalValue::HiddenVisibility);
    return variable;
  };
  GlobalVariable *start = bound("__start_gpusym_fast_forms"), *stop = bound("__stop_gpusym_fast_forms");
  auto *table = new GlobalVariable(module, pair, true, GlobalValue::LinkOnceODRLinkage,
                                   ConstantStruct::get(pair, {start, stop}), kTable);
  table->setComdat(module.getOrInsertComdat(kTable));
  appendToUsed(module, {table});
}

// Under -v: what the fast form of `kernel` with barriers (its own or those
// between its stride loops' trips) keeps and runs.
void explain_made(const Function &kernel, uint64_t per_lane_bytes, bool structured, unsigned stride_loops) {
  static const bool wanted = getenv("GPUSYM_EXPLAIN_FAST_FORMS") != nullptr;
  if (!wanted) return;
  errs() << "gpusym: kernel " << demangle(kernel.getName()) << " keeps " << per_lane_bytes
         << " bytes a thread across its barriers in its fast form, which runs "
         << (structured ? "a loop over the block's threads between each two barriers" : "the block's threads in rounds");
  if (stride_loops)
    errs() << ", and " << stride_loops << " stride loop" << (stride_loops > 1 ? "s" : "")
           << " a trip of the block's threads at a time";
  errs() << "\n";
}

// At the start of the optimiser: the fast forms of kernels without
// barriers, before the loop vectoriser (one with stride loops gets the form
// of kernels with barriers, its trips between barriers of its own); kernels
// whose barriers are all that keeps them from one are left for
// MakeBarrierFastForms.
struct MakeFastForms : PassInfoMixin<MakeFastForms> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &analyses) {
    if (!module.getNamedGlobal(kLaneVariableName)) return PreservedAnalyses::all();
    auto &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
    SmallVector<std::pair<Function *, SmallVector<LoadInst *, 8>>, 8> suitable;
    for (Function &function : module) {
      if (function.isDeclaration() || !is_kernel(function)) continue;
      SmallVector<LoadInst *, 8> lane_loads;
      const TargetLibraryInfo &library = functions.getResult<TargetLibraryAnalysis>(function);
      std::string why = unsuitable(function, library, lane_loads, false);
      if (why == kBarrierReason) {
        function.addFnAttr(kLaterAttribute);
        continue;
      }
      record_reason(module, function, why);
      if (!why.empty())
        explain(function, why);
      else
        suitable.push_back({&function, std::move(lane_loads)});
    }
    if (suitable.empty()) return PreservedAnalyses::all();
    for (auto &[kernel, lane_loads] : suitable) {
      uint64_t per_lane_bytes = 0;
      bool structured = false;
      unsigned stride_loops = 0;
      if (Function *fast = make_barrier_fast_form(*kernel, lane_loads, functions, per_lane_bytes, structured,
                                                  stride_loops, true, true)) {
        explain_made(*kernel, per_lane_bytes, structured, stride_loops);
        add_to_table(module, *kernel, *fast);
      } else {
        add_to_table(module, *kernel, *make_fast_form(*kernel, lane_loads, functions));
      }
    }
    return PreservedAnalyses::none();
  }
};

// After optimisation (the lockstep steps that cannot matter are gone, and
// before the checks' calls are put in): the fast forms of kernels with
// barriers.
struct MakeBarrierFastForms : PassInfoMixin<MakeBarrierFastForms> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &analyses) {
    auto &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
    SmallVector<Function *, 8> later;
    for (Function &function : module)
      if (function.hasFnAttribute(kLaterAttribute)) later.push_back(&function);
    for (Function *kernel : later) {
      kernel->removeFnAttr(kLaterAttribute);
      SmallVector<LoadInst *, 8> lane_loads;
      const TargetLibraryInfo &library = functions.getResult<TargetLibraryAnalysis>(*kernel);
      std::string why = unsuitable(*kernel, library, lane_loads, true);
      if (!why.empty()) {
        record_reason(module, *kernel, why);
        explain(*kernel, why);
        continue;
      }
      uint64_t per_lane_bytes = 0;
      bool structured = false;
      unsigned stride_loops = 0;
      Function *fast = make_barrier_fast_form(*kernel, lane_loads, functions, per_lane_bytes, structured, stride_loops);
      if (!fast) {
        record_reason(module, *kernel, kNotMade);
        explain(*kernel, kNotMade);
        continue;
      }
      add_to_table(module, *kernel, *fast);
      record_reason(module, *kernel, "");
      explain_made(*kernel, per_lane_bytes, structured, stride_loops);
    }
    return later.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-fast-form", "1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback([](ModulePassManager &passes, OptimizationLevel level) {
              if (level != OptimizationLevel::O0) passes.addPass(InlineWaitingFunctions());
            });
            builder.registerVectorizerStartEPCallback(
                [](FunctionPassManager &passes, OptimizationLevel) { add_lane_range_passes(passes); });
            builder.registerOptimizerLastEPCallback([](ModulePassManager &passes, OptimizationLevel level) {
              if (level == OptimizationLevel::O0) return;
              passes.addPass(MakeBarrierFastForms());
              FunctionPassManager streams;
              add_lane_stream_pass(streams);
              add_next_block_prefetch_pass(streams);
              passes.addPass(createModuleToFunctionPassAdaptor(std::move(streams)));
            });
            builder.registerOptimizerEarlyEPCallback(
                [](ModulePassManager &passes, OptimizationLevel level) {
                  if (level != OptimizationLevel::O0) {
                    passes.addPass(MakeFastForms());
                    return;
                  }
                  passes.addPass(RecordO0());
                  if (getenv("GPUSYM_EXPLAIN_FAST_FORMS")) errs() << "gpusym: " << kAtO0 << "\n";
                });
          }};
}
