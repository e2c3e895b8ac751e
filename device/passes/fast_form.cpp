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
// lane's own: it calls no function but intrinsics and side-effect-free
// library functions (a call may be a barrier, a warp function, a lockstep
// step, device printf or a check, each of which needs the lane), and it
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
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "shared_memory.h"

using namespace llvm;
using gpusym_passes::is_kernel;

namespace {

constexpr const char *kLaneVariable = "__gpusym_lane";
constexpr const char *kSection = "gpusym_fast_forms";
constexpr const char *kTable = "__gpusym_fast_forms";
constexpr const char *kReasons = "gpusym_fast_form_reasons";
constexpr const char *kAtO0 = "-O0: every kernel has its debuggable form only";
constexpr const char *kFastAttribute = "gpusym-fast-form";

// Byte offsets of a lane's fields (gpusym/lane.h, checked by the runtime).
constexpr int64_t kThreadIdx = 0, kFlatThread = 56, kLaneSize = 72;

// The loads of the lane pointer (__gpusym_lane) in `function`.
SmallVector<LoadInst *, 8> lane_pointer_loads(Function &function) {
  SmallVector<LoadInst *, 8> loads;
  for (Instruction &inst : instructions(function)) {
    auto *load = dyn_cast<LoadInst>(&inst);
    if (!load) continue;
    Value *address = load->getPointerOperand();
    if (auto *tls = dyn_cast<IntrinsicInst>(address); tls && tls->getIntrinsicID() == Intrinsic::threadlocal_address)
      address = tls->getArgOperand(0);
    if (auto *variable = dyn_cast<GlobalVariable>(address); variable && variable->getName() == kLaneVariable)
      loads.push_back(load);
  }
  return loads;
}

// Why `function` has no fast form, or "" when it can have one;
// `lane_loads` gets its loads of its lane's pointer.
std::string unsuitable(Function &function, const TargetLibraryInfo &library, SmallVectorImpl<LoadInst *> &lane_loads) {
  std::string call_reason;
  for (Instruction &inst : instructions(function)) {
    auto *call = dyn_cast<CallBase>(&inst);
    if (!call || isa<DbgInfoIntrinsic>(call)) continue;
    Function *callee = call->getCalledFunction();
    if (!callee) return "it calls through a pointer";
    if (Intrinsic::ID id = callee->getIntrinsicID()) {
      if (id == Intrinsic::trap || id == Intrinsic::debugtrap || id == Intrinsic::ubsantrap) return "it traps";
      continue;
    }
    // A library function's only side effect may be errno (math functions).
    LibFunc known;
    if (library.getLibFunc(*callee, known) && (call->doesNotAccessMemory() || call->onlyAccessesInaccessibleMemory()))
      continue;
    StringRef name = callee->getName();
    if (name == "__gpusym_barrier") return "it waits at __syncthreads()";
    if (!call_reason.empty()) continue;
    if (name == "__gpusym_wave_op" || name == "__gpusym_wave_meet")
      call_reason = "its wavefront's lanes meet (a warp function, or __shared__ memory accessed in lockstep)";
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
  return "";
}

// A do-while loop from 0 to `count` around [body_begin, body_end): returns
// the counter; `body_end` then branches to the latch, which goes on to
// `after`.
struct Loop {
  PHINode *counter;
  BasicBlock *latch;
};

Loop make_loop(Function &fast, BasicBlock *preheader, BasicBlock *body, Value *count, const char *name) {
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
  builder.CreateCondBr(builder.CreateICmpULT(next, count), header, header);
  return {counter, latch};
}

// Makes the fast form of `kernel`, whose loads of its lane's pointer are
// `lane_loads`: they become the address of a copy of the lane, whose
// coordinates each trip of the loops writes; SROA then turns the copy's
// fields into the loops' counters and values read once before them.
Function *make_fast_form(Function &kernel, ArrayRef<LoadInst *> lane_loads, FunctionAnalysisManager &functions) {
  ValueToValueMapTy map;
  Function *fast = CloneFunction(&kernel, map);
  fast->setName(kernel.getName() + ".gpusym_fast");
  fast->setLinkage(GlobalValue::PrivateLinkage);
  fast->addFnAttr(kFastAttribute);
  fast->removeFnAttr(Attribute::NoInline);
  stripDebugInfo(*fast);
  LLVMContext &context = fast->getContext();
  Type *i32 = Type::getInt32Ty(context);

  // The body's first block, and a new entry holding its allocas (one set for
  // every lane, each lane's values being its own between its start and end)
  // and the copy of the lane.
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
                                   builder.CreateThreadLocalAddress(module.getNamedGlobal(kLaneVariable)), "lane");
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

  // Loops z, y, x; the body's returns go to x's latch.
  Loop z = make_loop(*fast, entry, body, dim_z, "z");
  Loop y = make_loop(*fast, cast<BasicBlock>(z.counter->getParent()), body, dim_y, "y");
  Loop x = make_loop(*fast, cast<BasicBlock>(y.counter->getParent()), body, dim_x, "x");
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
  Value *flat = builder.CreateAdd(
      x.counter, builder.CreateMul(dim_x, builder.CreateAdd(y.counter, builder.CreateMul(dim_y, z.counter))));
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
struct RecordO0 : PassInfoMixin<RecordO0> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    for (Function &function : module)
      if (!function.isDeclaration() && is_kernel(function)) record_reason(module, function, kAtO0);
    return PreservedAnalyses::none();
  }
};

struct MakeFastForms : PassInfoMixin<MakeFastForms> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &analyses) {
    if (!module.getNamedGlobal(kLaneVariable)) return PreservedAnalyses::all();
    auto &functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
    SmallVector<std::pair<Function *, SmallVector<LoadInst *, 8>>, 8> suitable;
    for (Function &function : module) {
      if (function.isDeclaration() || !is_kernel(function)) continue;
      SmallVector<LoadInst *, 8> lane_loads;
      const TargetLibraryInfo &library = functions.getResult<TargetLibraryAnalysis>(function);
      std::string why = unsuitable(function, library, lane_loads);
      record_reason(module, function, why);
      if (!why.empty())
        explain(function, why);
      else
        suitable.push_back({&function, std::move(lane_loads)});
    }
    if (suitable.empty()) return PreservedAnalyses::all();
    LLVMContext &context = module.getContext();
    PointerType *pointer = PointerType::getUnqual(context);
    StructType *pair = StructType::get(pointer, pointer);
    for (auto &[kernel, lane_loads] : suitable) {
      Function *fast = make_fast_form(*kernel, lane_loads, functions);
      auto *entry = new GlobalVariable(module, pair, true, GlobalValue::PrivateLinkage,
                                       ConstantStruct::get(pair, {kernel, fast}), "gpusym.fast_form");
      entry->setSection(kSection);
      entry->setAlignment(Align(8));
      appendToUsed(module, {entry});
    }
    // The table's bounds, defined once in the code object (linkonce_odr).
    if (!module.getNamedGlobal(kTable)) {
      auto bound = [&](const char *name) {
        return new GlobalVariable(module, pair, true, GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                                  GlobalValue::NotThreadLocal, std::nullopt, true);
      };
      GlobalVariable *start = bound("__start_gpusym_fast_forms"), *stop = bound("__stop_gpusym_fast_forms");
      start->setVisibility(GlobalValue::HiddenVisibility);
      stop->setVisibility(GlobalValue::HiddenVisibility);
      StructType *bounds = StructType::get(pointer, pointer);
      auto *table = new GlobalVariable(module, bounds, true, GlobalValue::LinkOnceODRLinkage,
                                       ConstantStruct::get(bounds, {start, stop}), kTable);
      table->setComdat(module.getOrInsertComdat(kTable));
      appendToUsed(module, {table});
    }
    return PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-fast-form", "1", [](PassBuilder &builder) {
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
