// A clang pass plugin for the simulated device's compile: every load and
// store that may reach device memory is preceded by a check the runtime
// turns on (gpusym check --tool memcheck, GPUSYM_CHECK=memcheck).
//
// Checked off, the cost is a load of one byte (__gpusym_checks) at each
// function's entry and, at each access, a branch that is not taken (each
// check has its bit: memcheck's calls are made only with memcheck on).
// With memcheck on, the runtime's __gpusym_check_access is called with the
// address, the size, whether it writes, the alignment the code assumes and
// the source line, and reports an access outside its allocation to the
// byte, as the page guards of hipMalloc cannot (an allocation's pages are
// rounded up), and a misaligned one.
//
// Accesses of __shared__ memory (thread_local variables) call
// __gpusym_check_shared instead, with the variable's bounds (an extern
// __shared__ array's are the launch's dynamic shared memory), and each
// __syncthreads is preceded by __gpusym_check_barrier: racecheck's and
// synccheck's.  Each device free() is preceded by __gpusym_check_free, which
// tells memcheck its line, and synccheck's check of a *_sync warp
// function's mask (__gpusym_check_mask) is given the call's line.  Accesses
// that reach neither are left alone: a lane's own stack (allocas), device
// global variables, the runtime's own functions (__gpusym*) and records, and
// kernels' fast forms (fast_form.cpp), which run only with every check off.
// It runs last, after optimisation: accesses that optimisation removed
// are not checked, as they do not happen.
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "shared_memory.h"

using namespace llvm;

namespace {

constexpr const char *kChecks = "__gpusym_checks";       // nonzero: checks on
constexpr const char *kCheck = "__gpusym_check_access";  // (address, size, flags, file, line)
constexpr const char *kChecked = "__gpusym_checked";     // defined by every code object checked
constexpr const char *kCheckShared = "__gpusym_check_shared";    // __shared__ memory: the same arguments
constexpr const char *kCheckBarrier = "__gpusym_check_barrier";  // (file, line) before each __syncthreads
constexpr const char *kBarrier = gpusym_passes::kBarrierName;
constexpr const char *kCheckMask = "__gpusym_check_mask";       // (mask, function) after a *_sync warp function
constexpr const char *kCheckMaskAt = "__gpusym_check_mask_at";  // the same, then (file, line)
constexpr const char *kCheckFree = "__gpusym_check_free";  // (pointer, file, line) before each device free()
constexpr const char *kFree = "__gpusym_device_free";
// Bits of the flags argument; the alignment the code assumes is above them
// (GPUSYM_ACCESS_* in gpusym/debug_interface.h).
constexpr uint64_t kWrite = 1, kAtomic = 2;  // an atomic never races (racecheck), but writes (initcheck)
// The size __gpusym_check_shared is given for an extern __shared__ array:
// the launch's dynamic shared memory (kDynamicShared in the runtime's checks.cpp).
constexpr uint64_t kDynamicShared = UINT64_MAX;
// Bits of __gpusym_checks (kCheck* in the runtime's internal.h).
constexpr uint8_t kMemcheck = 1, kRacecheck = 2, kSynccheck = 4, kInitcheck = 8;
constexpr unsigned kAlignShift = 8;

// Whether `object` is a record of the runtime's, reached through one of its
// variables (the lane that __gpusym_lane points to: threadIdx, blockIdx).
bool runtime_record(const Value *object) {
  const auto *load = dyn_cast<LoadInst>(object);
  if (!load) return false;
  const Value *from = getUnderlyingObject(load->getPointerOperand());
  if (const auto *intrinsic = dyn_cast<IntrinsicInst>(from);
      intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
    from = intrinsic->getArgOperand(0)->stripPointerCasts();
  const auto *global = dyn_cast<GlobalVariable>(from);
  return global && global->getName().starts_with("__gpusym");
}

// Whether `object` is a call of a thread-local wrapper (_ZTW*): what
// unoptimised code reads an extern __shared__ array's address from.
bool wrapper_call(const Value *object) {
  const auto *call = dyn_cast<CallBase>(object);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName().starts_with("_ZTW");
}

// Whether `pointer` may point into device memory: not only into allocas or
// global variables (device globals, __shared__ memory), whose bounds the
// compiler already knows.
bool may_reach_device_memory(const Value *pointer) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const Value *object : objects)
    if (!isa<AllocaInst>(object) && !isa<GlobalVariable>(object) && !runtime_record(object) && !wrapper_call(object))
      return true;
  return false;
}

struct Access {
  Instruction *inst;
  Value *pointer;
  Type *type;  // null: `length` bytes (memcpy, memmove, memset)
  Align align;
  bool write;
  bool atomic;
  const char *check = nullptr;  // kCheck, kCheckShared, or none
  Value *length = nullptr;
};

class CheckAccesses : public PassInfoMixin<CheckAccesses> {
 public:
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    // The runtime tells code objects built with checks from those without.
    auto *int8 = Type::getInt8Ty(module.getContext());
    bool changed = !module.getGlobalVariable(kChecked);
    if (changed)
      new GlobalVariable(module, int8, true, GlobalValue::WeakODRLinkage, ConstantInt::get(int8, 1), kChecked);
    for (Function &function : module)
      if (!function.isDeclaration() && !function.getName().starts_with("__gpusym") &&
          !function.hasFnAttribute("gpusym-fast-form"))  // never run with checks on
        changed |= check(function);
    changed |= tell_mask_lines(module);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  static bool isRequired() { return true; }  // also at -O0

 private:
  // synccheck's check of a *_sync form's mask (warp_functions.h calls it
  // after the warp function) is given the call's line: each call of
  // kCheckMask(mask, function) becomes one of kCheckMaskAt(mask, function, file, line).
  bool tell_mask_lines(Module &module) {
    Function *check = module.getFunction(kCheckMask);
    if (!check) return false;
    LLVMContext &context = module.getContext();
    auto *int32 = Type::getInt32Ty(context);
    FunctionCallee at = module.getOrInsertFunction(
        kCheckMaskAt, FunctionType::get(Type::getVoidTy(context),
                                        {Type::getInt64Ty(context), PointerType::getUnqual(context),
                                         PointerType::getUnqual(context), int32},
                                        false));
    SmallVector<CallInst *, 8> calls;
    for (User *user : check->users())
      if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledFunction() == check) calls.push_back(call);
    for (CallInst *call : calls) {
      IRBuilder<> builder(call);
      auto [file, line] = location(builder, *call);
      CallInst *replaced = builder.CreateCall(
          at, {call->getArgOperand(0), call->getArgOperand(1), file, ConstantInt::get(int32, line)});
      replaced->setDebugLoc(call->getDebugLoc());
      call->eraseFromParent();
    }
    return !calls.empty();
  }

  StringMap<Constant *> files_;

  bool check(Function &function) {
    SmallVector<Access, 32> accesses;
    SmallVector<CallBase *, 4> barriers, frees;
    for (Instruction &inst : instructions(function)) {
      if (auto *load = dyn_cast<LoadInst>(&inst))  // an atomic load or store is an atomic too
        accesses.push_back(
            {load, load->getPointerOperand(), load->getType(), load->getAlign(), false, load->isAtomic()});
      else if (auto *store = dyn_cast<StoreInst>(&inst))
        accesses.push_back({store, store->getPointerOperand(), store->getValueOperand()->getType(),
                            store->getAlign(), true, store->isAtomic()});
      else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
        accesses.push_back(
            {rmw, rmw->getPointerOperand(), rmw->getValOperand()->getType(), rmw->getAlign(), true, true});
      else if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&inst))
        accesses.push_back({exchange, exchange->getPointerOperand(), exchange->getNewValOperand()->getType(),
                            exchange->getAlign(), true, true});
      else if (auto *transfer = dyn_cast<MemTransferInst>(&inst)) {
        accesses.push_back({transfer, transfer->getDest(), nullptr, Align(1), true, false, nullptr,
                            transfer->getLength()});
        accesses.push_back({transfer, transfer->getSource(), nullptr, Align(1), false, false, nullptr,
                            transfer->getLength()});
      } else if (auto *set = dyn_cast<MemSetInst>(&inst))
        accesses.push_back({set, set->getDest(), nullptr, Align(1), true, false, nullptr, set->getLength()});
      else if (auto *call = dyn_cast<CallBase>(&inst); call && call->getCalledFunction()) {
        if (call->getCalledFunction()->getName() == kBarrier) barriers.push_back(call);
        if (call->getCalledFunction()->getName() == kFree) frees.push_back(call);
      }
    }
    for (Access &access : accesses)
      access.check = may_reach_device_memory(access.pointer)                    ? kCheck
                     : gpusym_passes::shared_pointer(access.pointer) ? kCheckShared
                                                                     : nullptr;
    llvm::erase_if(accesses, [](const Access &access) { return access.check == nullptr; });
    if (accesses.empty() && barriers.empty() && frees.empty()) return false;
    // Read once, at entry: each access then branches on a register.
    Module &module = *function.getParent();
    auto *int8 = Type::getInt8Ty(module.getContext());
    GlobalVariable *checks = module.getGlobalVariable(kChecks);
    if (!checks)
      checks = new GlobalVariable(module, int8, false, GlobalValue::ExternalLinkage, nullptr, kChecks);
    IRBuilder<> entry(&*function.getEntryBlock().getFirstInsertionPt());
    Value *flags = entry.CreateLoad(int8, checks, "gpusym.checks");
    auto on = [&](uint8_t bit) { return entry.CreateICmpNE(entry.CreateAnd(flags, bit), ConstantInt::get(int8, 0)); };
    Value *memcheck = on(kMemcheck | kInitcheck), *shared_checked = on(kRacecheck | kMemcheck | kInitcheck);
    Value *barriers_checked = on(kRacecheck | kSynccheck);
    Value *frees_checked = frees.empty() ? nullptr : on(kMemcheck);
    for (Access &access : accesses) insert_check(function, access, access.check == kCheck ? memcheck : shared_checked);
    for (CallBase *barrier : barriers) insert_barrier_check(*barrier, barriers_checked);
    for (CallBase *free : frees) insert_free_check(*free, frees_checked);
    return true;
  }

  // Before a device free(): its pointer and line, for memcheck's report of
  // an invalid free.
  void insert_free_check(CallBase &free, Value *on) {
    Module &module = *free.getModule();
    LLVMContext &context = module.getContext();
    auto *pointer_type = PointerType::getUnqual(context);
    auto *int32 = Type::getInt32Ty(context);
    FunctionCallee check = module.getOrInsertFunction(
        kCheckFree, FunctionType::get(Type::getVoidTy(context), {pointer_type, pointer_type, int32}, false));
    MDNode *unlikely = MDBuilder(context).createBranchWeights(1, 1 << 20);
    Instruction *then = SplitBlockAndInsertIfThen(on, free.getIterator(), false, unlikely);
    IRBuilder<> builder(then);
    auto [file, line] = location(builder, free);
    builder.CreateCall(check, {free.getArgOperand(0), file, ConstantInt::get(int32, line)})
        ->setDebugLoc(free.getDebugLoc());
  }

  // Before a __syncthreads: the lane is past one more barrier (racecheck),
  // at this site (synccheck).
  void insert_barrier_check(CallBase &barrier, Value *on) {
    Module &module = *barrier.getModule();
    LLVMContext &context = module.getContext();
    auto *pointer_type = PointerType::getUnqual(context);
    auto *int32 = Type::getInt32Ty(context);
    FunctionCallee check = module.getOrInsertFunction(
        kCheckBarrier, FunctionType::get(Type::getVoidTy(context), {pointer_type, int32}, false));
    cast<Function>(check.getCallee())->setCallingConv(CallingConv::PreserveAll);
    MDNode *unlikely = MDBuilder(context).createBranchWeights(1, 1 << 20);
    Instruction *then = SplitBlockAndInsertIfThen(on, barrier.getIterator(), false, unlikely);
    IRBuilder<> builder(then);
    auto [file, line] = location(builder, barrier);
    CallInst *call = builder.CreateCall(check, {file, ConstantInt::get(int32, line)});
    call->setCallingConv(CallingConv::PreserveAll);
    call->setDebugLoc(barrier.getDebugLoc());
  }

  // The thread-local variable whose address `object` is: the variable, the
  // argument of a threadlocal_address, or what a wrapper returns; or null.
  static const GlobalVariable *thread_local_variable(const Value *object) {
    if (const auto *intrinsic = dyn_cast<IntrinsicInst>(object);
        intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
      object = intrinsic->getArgOperand(0)->stripPointerCasts();
    else if (wrapper_call(object) && !cast<CallBase>(object)->getCalledFunction()->isDeclaration())
      for (const Instruction &inst : instructions(*cast<CallBase>(object)->getCalledFunction()))
        if (const auto *returned = dyn_cast<ReturnInst>(&inst); returned && returned->getReturnValue())
          return thread_local_variable(getUnderlyingObject(returned->getReturnValue(), 0));
    const auto *global = dyn_cast<GlobalVariable>(object);
    return global && global->isThreadLocal() ? global : nullptr;
  }

  // The __shared__ variable `pointer` points into and its size (kDynamicShared
  // for an extern array), when it is one known variable; else null, 0 (a
  // pointer that may be into several).  A thread-local variable is this
  // lane's thread's copy wherever it is used.
  static std::pair<Value *, uint64_t> shared_variable(Value *pointer, const DataLayout &layout) {
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(pointer, objects, nullptr, 0);
    const GlobalVariable *global = nullptr;
    for (const Value *object : objects) {
      const GlobalVariable *variable = thread_local_variable(object);
      if (!variable || (global && variable != global)) return {nullptr, 0};
      global = variable;
    }
    if (!global) return {nullptr, 0};
    auto *start = const_cast<GlobalVariable *>(global);
    if (!global->isDeclaration()) return {start, layout.getTypeAllocSize(global->getValueType()).getFixedValue()};
    auto *array = dyn_cast<ArrayType>(global->getValueType());
    if (array && array->getNumElements() == 0) return {start, kDynamicShared};
    return {nullptr, 0};
  }

  // The source file (a string of the module's; null when unknown) and line of `inst`.
  std::pair<Constant *, unsigned> location(IRBuilder<> &builder, const Instruction &inst) {
    if (const DILocation *where = inst.getDebugLoc().get())
      return {file_name(builder, where->getFilename()), where->getLine()};
    return {ConstantPointerNull::get(PointerType::getUnqual(inst.getContext())), 0};
  }

  void insert_check(Function &function, const Access &access, Value *on) {
    Module &module = *function.getParent();
    LLVMContext &context = module.getContext();
    const DataLayout &layout = module.getDataLayout();
    auto *int32 = Type::getInt32Ty(context), *int64 = Type::getInt64Ty(context);
    auto *pointer_type = PointerType::getUnqual(context);
    bool shared = access.check == kCheckShared;  // with the variable's start and size, for memcheck
    SmallVector<Type *, 7> parameters{pointer_type, int64, int64, pointer_type, int32};
    if (shared) parameters.append({pointer_type, int64});
    FunctionCallee check =
        module.getOrInsertFunction(access.check, FunctionType::get(Type::getVoidTy(context), parameters, false));
    // It keeps every register (preserve_all): the code around it keeps its
    // values where they are, as if the check were not there.
    cast<Function>(check.getCallee())->setCallingConv(CallingConv::PreserveAll);

    IRBuilder<> builder(access.inst);
    MDNode *unlikely = MDBuilder(context).createBranchWeights(1, 1 << 20);
    Instruction *then = SplitBlockAndInsertIfThen(on, access.inst->getIterator(), false, unlikely);
    builder.SetInsertPoint(then);
    Value *size = access.type ? ConstantInt::get(int64, layout.getTypeStoreSize(access.type).getFixedValue())
                              : builder.CreateZExtOrTrunc(access.length, int64);
    uint64_t flags = (access.write ? kWrite : 0) | (access.atomic ? kAtomic : 0) | (access.align.value() << kAlignShift);
    auto [file, line] = location(builder, *access.inst);
    SmallVector<Value *, 7> arguments{access.pointer, size, ConstantInt::get(int64, flags), file,
                                      ConstantInt::get(int32, line)};
    if (shared) {
      auto [start, bytes] = shared_variable(access.pointer, layout);
      arguments.append({start ? start : ConstantPointerNull::get(pointer_type), ConstantInt::get(int64, bytes)});
    }
    CallInst *call = builder.CreateCall(check, arguments);
    call->setCallingConv(CallingConv::PreserveAll);
    call->setDebugLoc(access.inst->getDebugLoc());
  }

  // One private string per file name, shared by the checks of its lines.
  Constant *file_name(IRBuilder<> &builder, StringRef name) {
    Constant *&string = files_[name];
    if (!string) string = builder.CreateGlobalStringPtr(name, "gpusym.file");
    return string;
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-access-checks", "1", [](PassBuilder &builder) {
            builder.registerOptimizerLastEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(CheckAccesses()); });
          }};
}
