// A clang pass plugin for the simulated device's compile: every load and
// store that may reach device memory is preceded by a check the runtime
// turns on (gpusym check --tool memcheck, GPUSYM_CHECK=memcheck).
//
// Checked off, the cost is a load of one byte (__gpusym_checks) and a branch
// that is not taken; on, the runtime's __gpusym_check_access is called with
// the address, the size, whether it writes, the alignment the code assumes
// and the source line, and reports an access outside its allocation to the
// byte, as the page guards of hipMalloc cannot (an allocation's pages are
// rounded up), and a misaligned one.
//
// Accesses that cannot reach device memory are left alone: a lane's own
// stack (allocas), device global variables and __shared__ memory
// (thread_local variables), and the runtime's own functions (__gpusym*).
// It runs last, after optimisation: accesses that optimisation removed
// are not checked, as they do not happen.
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace {

constexpr const char *kChecks = "__gpusym_checks";       // nonzero: checks on
constexpr const char *kCheck = "__gpusym_check_access";  // (address, size, flags, file, line)
constexpr const char *kChecked = "__gpusym_checked";     // defined by every code object checked
// Bits of the flags argument; the alignment the code assumes is above them
// (GPUSYM_ACCESS_* in gpusym/debug_interface.h).
constexpr uint64_t kWrite = 1;
constexpr unsigned kAlignShift = 8;

// Whether `pointer` may point into device memory: not only into allocas or
// global variables (device globals, __shared__ memory), whose bounds the
// compiler already knows.
bool may_reach_device_memory(const Value *pointer) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const Value *object : objects)
    if (!isa<AllocaInst>(object) && !isa<GlobalVariable>(object)) return true;
  return false;
}

struct Access {
  Instruction *inst;
  Value *pointer;
  Type *type;
  Align align;
  bool write;
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
      if (!function.isDeclaration() && !function.getName().starts_with("__gpusym")) changed |= check(function);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  static bool isRequired() { return true; }  // also at -O0

 private:
  StringMap<Constant *> files_;

  bool check(Function &function) {
    SmallVector<Access, 32> accesses;
    for (Instruction &inst : instructions(function)) {
      if (auto *load = dyn_cast<LoadInst>(&inst))
        accesses.push_back({load, load->getPointerOperand(), load->getType(), load->getAlign(), false});
      else if (auto *store = dyn_cast<StoreInst>(&inst))
        accesses.push_back({store, store->getPointerOperand(), store->getValueOperand()->getType(),
                            store->getAlign(), true});
      else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
        accesses.push_back({rmw, rmw->getPointerOperand(), rmw->getValOperand()->getType(), rmw->getAlign(), true});
      else if (auto *exchange = dyn_cast<AtomicCmpXchgInst>(&inst))
        accesses.push_back({exchange, exchange->getPointerOperand(), exchange->getNewValOperand()->getType(),
                            exchange->getAlign(), true});
    }
    bool changed = false;
    for (Access &access : accesses) {
      if (!may_reach_device_memory(access.pointer)) continue;
      insert_check(function, access);
      changed = true;
    }
    return changed;
  }

  void insert_check(Function &function, const Access &access) {
    Module &module = *function.getParent();
    LLVMContext &context = module.getContext();
    const DataLayout &layout = module.getDataLayout();
    auto *int8 = Type::getInt8Ty(context), *int32 = Type::getInt32Ty(context), *int64 = Type::getInt64Ty(context);
    auto *pointer_type = PointerType::getUnqual(context);
    GlobalVariable *checks = module.getGlobalVariable(kChecks);
    if (!checks)
      checks = new GlobalVariable(module, int8, false, GlobalValue::ExternalLinkage, nullptr, kChecks);
    FunctionCallee check = module.getOrInsertFunction(
        kCheck, FunctionType::get(Type::getVoidTy(context), {pointer_type, int64, int64, pointer_type, int32}, false));

    IRBuilder<> builder(access.inst);
    Value *on = builder.CreateICmpNE(builder.CreateLoad(int8, checks, "gpusym.checks"), ConstantInt::get(int8, 0));
    MDNode *unlikely = MDBuilder(context).createBranchWeights(1, 1 << 20);
    Instruction *then = SplitBlockAndInsertIfThen(on, access.inst->getIterator(), false, unlikely);
    builder.SetInsertPoint(then);
    uint64_t size = layout.getTypeStoreSize(access.type).getFixedValue();
    uint64_t flags = (access.write ? kWrite : 0) | (access.align.value() << kAlignShift);
    Constant *file = ConstantPointerNull::get(pointer_type);
    unsigned line = 0;
    if (const DILocation *location = access.inst->getDebugLoc().get()) {
      file = file_name(builder, location->getFilename());
      line = location->getLine();
    }
    builder.CreateCall(check, {access.pointer, ConstantInt::get(int64, size), ConstantInt::get(int64, flags), file,
                               ConstantInt::get(int32, line)})
        ->setDebugLoc(access.inst->getDebugLoc());
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
