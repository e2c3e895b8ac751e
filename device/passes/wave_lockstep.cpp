// A clang pass plugin for the simulated device's compile: a wavefront's
// lanes access __shared__ memory in lockstep, as on a GPU.
//
// The runtime runs a block's lanes one after another between barriers, so
// warp-synchronous code (lanes of a wavefront exchanging values through
// __shared__ memory with no barrier, relying on the wavefront executing each
// instruction for all its lanes at once) would read values not yet written.
// This pass puts a wave step in front of such accesses: a call of the
// runtime where every running lane of the wavefront arrives before any goes
// on (a meeting, as at a warp function), so the lanes' accesses happen round
// by round, as the hardware's would.
//
// Three phases:
//  - before any optimisation, a step in front of every access that may
//    reach __shared__ memory (a thread_local variable of device code, as
//    hip_common.h makes __shared__), however its pointer got there: through
//    a pointer variable (float *row = &tile[...], kept in a local variable
//    until optimisation, or at -O0 for good), a device function's pointer
//    parameter, or directly; not an access to a lane's own stack, a device
//    global variable or what a kernel's parameters point to.  The step is a
//    call of __gpusym_wave_op (GPUSYM_WAVE_STEP) that takes the address, so
//    no optimisation moves, merges or vectorises the access across it;
//  - once a function's callees are inlined, the steps whose address is now
//    known to be elsewhere go, before the loop optimisations and the
//    vectorisers run;
//  - after optimisation (inlining done), the steps that cannot matter go: a
//    step is needed before a load only if a store may precede it since the
//    last barrier, warp function or kept step (the load must see what every
//    lane stored before it), unless the two addresses show that no other
//    lane of the wavefront can have stored where the load reads
//    (lane_conflicts.h; a store in an earlier trip of a loop always may);
//    before a volatile store, if any access may (every lane must have read
//    what it overwrites).  Kernels start with nothing before them; other
//    functions and calls of functions not inlined are assumed to have done
//    both.  The steps kept call __gpusym_wave_step, the runtime's fast
//    entry.
//
// A store that is not volatile gets no step of its own: warp-synchronous
// code overwrites what another lane of the wavefront reads at the same step
// only through volatile (or a warp function), as HIP's programming guide
// requires, and a step before every store would cost every kernel that
// uses __shared__ memory with barriers (a block reduction's store) a lane
// switch.
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "lane_conflicts.h"
#include "shared_memory.h"

using namespace llvm;
using gpusym_passes::Access;
using gpusym_passes::is_kernel;
using gpusym_passes::other_lane_may_write;
using gpusym_passes::shared_pointer;

namespace {

constexpr uint64_t kWaveStep = 17;  // GPUSYM_WAVE_STEP in gpusym/lane.h
constexpr const char *kWaveOp = "__gpusym_wave_op";
constexpr const char *kWaveStepEntry = "__gpusym_wave_step";
constexpr const char *kWaveMeet = "__gpusym_wave_meet";  // a warp function

// What an access does to memory, and whether it is volatile: bits of these.
enum Kind : unsigned { kLoad = 1, kStore = 2, kVolatile = 4 };

FunctionCallee wave_op(Module &module) {
  LLVMContext &context = module.getContext();
  auto *type = FunctionType::get(Type::getInt64Ty(context),
                                 {Type::getInt32Ty(context), Type::getInt64Ty(context),
                                  Type::getInt64Ty(context), Type::getInt32Ty(context)},
                                 false);
  return module.getOrInsertFunction(kWaveOp, type);
}

// Whether `alloca` is a local variable only ever loaded and stored whole
// (its address taken by nothing else): what a pointer read from it may be
// is what was stored into it.
bool plain_variable(const AllocaInst &alloca) {
  for (const User *user : alloca.users()) {
    if (const auto *store = dyn_cast<StoreInst>(user)) {
      if (store->getValueOperand() == &alloca) return false;
    } else if (!isa<LoadInst>(user) && !isa<LifetimeIntrinsic>(user) && !isa<DbgInfoIntrinsic>(user)) {
      return false;
    }
  }
  return true;
}

// Whether `pointer` may point into __shared__ memory, following pointers
// kept in plain local variables (`visited` ends cycles).  A lane's own
// stack, a device global variable, what a kernel's parameter points to and
// a pointer read from memory that is no plain variable count as elsewhere;
// another function's parameter may be anything.
bool may_be_shared(const Value *pointer, SmallPtrSetImpl<const Value *> &visited) {
  if (shared_pointer(pointer)) return true;
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const Value *object : objects) {
    if (!visited.insert(object).second) continue;
    if (const auto *argument = dyn_cast<Argument>(object)) {
      if (argument->getType()->isPointerTy() && !is_kernel(*argument->getParent())) return true;
    } else if (const auto *load = dyn_cast<LoadInst>(object)) {
      const auto *variable = dyn_cast<AllocaInst>(getUnderlyingObject(load->getPointerOperand()));
      if (!variable || !plain_variable(*variable)) continue;
      for (const User *user : variable->users())
        if (const auto *store = dyn_cast<StoreInst>(user);
            store && store->getValueOperand()->getType()->isPointerTy() &&
            may_be_shared(store->getValueOperand(), visited))
          return true;
    }
  }
  return false;
}

bool may_be_shared(const Value *pointer) {
  SmallPtrSet<const Value *, 8> visited;
  return may_be_shared(pointer, visited);
}

// Whether `pointer` points into a lane's own stack or a device global
// variable, never __shared__ memory: a volatile access there (a spin loop's
// counter) is no exchange between lanes.
bool unshared_pointer(const Value *pointer) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const Value *object : objects) {
    const auto *global = dyn_cast<GlobalVariable>(object);
    if (!isa<AllocaInst>(object) && !(global && !global->isThreadLocal())) return false;
  }
  return true;
}

// The kinds of access a load or store of `pointer` makes to __shared__
// memory: any through a pointer that may point there, and any volatile one
// that is not surely elsewhere.
unsigned kinds_of(const Value *pointer, bool is_volatile, unsigned kind) {
  if (may_be_shared(pointer)) return kind | (is_volatile ? kVolatile : 0u);
  return is_volatile && !unshared_pointer(pointer) ? kind | kVolatile : 0u;
}

// The kinds of access `inst` makes to __shared__ memory, and its address.
std::pair<unsigned, Value *> shared_access(Instruction &inst) {
  if (auto *load = dyn_cast<LoadInst>(&inst))
    return {kinds_of(load->getPointerOperand(), load->isVolatile(), kLoad), load->getPointerOperand()};
  if (auto *store = dyn_cast<StoreInst>(&inst))
    return {kinds_of(store->getPointerOperand(), store->isVolatile(), kStore), store->getPointerOperand()};
  if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
    return {shared_pointer(rmw->getPointerOperand()) ? kLoad | kStore : 0u, rmw->getPointerOperand()};
  if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&inst))
    return {shared_pointer(cas->getPointerOperand()) ? kLoad | kStore : 0u, cas->getPointerOperand()};
  if (auto *transfer = dyn_cast<MemTransferInst>(&inst)) {
    unsigned kinds = (shared_pointer(transfer->getSource()) ? kLoad : 0u) |
                     (shared_pointer(transfer->getDest()) ? kStore : 0u);
    return {kinds, shared_pointer(transfer->getDest()) ? transfer->getDest() : transfer->getSource()};
  }
  if (auto *set = dyn_cast<MemSetInst>(&inst))
    return {shared_pointer(set->getDest()) ? kStore : 0u, set->getDest()};
  return {0u, nullptr};
}

// Phase one: a step in front of every access to __shared__ memory.
struct MarkSharedAccesses : PassInfoMixin<MarkSharedAccesses> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    FunctionCallee step = wave_op(module);
    bool changed = false;
    for (Function &function : module) {
      if (function.isDeclaration()) continue;
      SmallVector<std::pair<Instruction *, std::pair<unsigned, Value *>>, 16> accesses;
      for (Instruction &inst : instructions(function))
        if (auto access = shared_access(inst); access.first) accesses.push_back({&inst, access});
      for (auto &[inst, access] : accesses) {
        IRBuilder<> builder(inst);
        Value *address = builder.CreatePtrToInt(access.second, builder.getInt64Ty());
        CallInst *call = builder.CreateCall(step, {builder.getInt32(kWaveStep), builder.getInt64(access.first),
                                                   address, builder.getInt32(0)});
        call->setConvergent();
        call->setDebugLoc(inst->getDebugLoc());
        if (!call->getDebugLoc() && function.getSubprogram())
          call->setDebugLoc(DILocation::get(module.getContext(), 0, 0, function.getSubprogram()));
        changed = true;
      }
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

// The kinds a wave step stands for; 0 when `inst` is no wave step.
unsigned step_kinds(const Instruction &inst) {
  const auto *call = dyn_cast<CallInst>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || callee->getName() != kWaveOp) return 0;
  const auto *op = dyn_cast<ConstantInt>(call->getArgOperand(0));
  const auto *kinds = dyn_cast<ConstantInt>(call->getArgOperand(1));
  if (!op || op->getZExtValue() != kWaveStep || !kinds) return 0;
  return static_cast<unsigned>(kinds->getZExtValue()) & (kLoad | kStore | kVolatile);
}

// The pointer a wave step's address was taken from, if still in sight.
const Value *step_pointer(const CallInst &step) {
  const Value *address = step.getArgOperand(2);
  if (const auto *cast = dyn_cast<PtrToIntOperator>(address)) return cast->getPointerOperand();
  return nullptr;
}

// Phase two: once a function's callees are inlined, the steps whose address
// is now known to be elsewhere than __shared__ memory go.
struct DropUnsharedSteps : PassInfoMixin<DropUnsharedSteps> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &) {
    SmallVector<CallInst *, 16> elsewhere;
    for (Instruction &inst : instructions(function))
      if (unsigned kinds = step_kinds(inst)) {
        auto &step = cast<CallInst>(inst);
        const Value *pointer = step_pointer(step);
        if (pointer && !kinds_of(pointer, kinds & kVolatile, kinds & (kLoad | kStore))) elsewhere.push_back(&step);
      }
    for (CallInst *step : elsewhere) {
      auto *address = dyn_cast<Instruction>(step->getArgOperand(2));
      step->eraseFromParent();
      if (address && address->use_empty()) address->eraseFromParent();
    }
    return elsewhere.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

// Whether `inst` joins the lanes: a barrier or a warp function.
bool joins(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee) return false;
  StringRef name = callee->getName();
  return name == gpusym_passes::kBarrierName || name == kWaveStepEntry || name == kWaveMeet || (name == kWaveOp && !step_kinds(inst));
}

// Whether `inst` may access __shared__ memory with no step of its own: a
// call of a function with a body here (not inlined) or through a pointer.
bool opaque_call(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  if (!call || isa<IntrinsicInst>(call) || joins(inst) || step_kinds(inst)) return false;
  const Function *callee = call->getCalledFunction();
  return !callee || !callee->isDeclaration();
}

// The access a step guards, when known: the next instruction that touches
// memory, if it does so at the step's address.
std::optional<Access> guarded_access(const CallInst &step) {
  const Value *pointer = step_pointer(step);
  if (!pointer) return std::nullopt;
  for (const Instruction *inst = step.getNextNode(); inst; inst = inst->getNextNode()) {
    if (!inst->mayReadOrWriteMemory()) continue;
    Type *type = nullptr;
    if (const auto *load = dyn_cast<LoadInst>(inst); load && load->getPointerOperand() == pointer)
      type = load->getType();
    else if (const auto *store = dyn_cast<StoreInst>(inst); store && store->getPointerOperand() == pointer)
      type = store->getValueOperand()->getType();
    else if (const auto *rmw = dyn_cast<AtomicRMWInst>(inst); rmw && rmw->getPointerOperand() == pointer)
      type = rmw->getValOperand()->getType();
    if (!type) return std::nullopt;
    TypeSize size = inst->getModule()->getDataLayout().getTypeStoreSize(type);
    if (size.isScalable()) return std::nullopt;
    return Access{pointer, size.getFixedValue(), step.getParent()};
  }
  return std::nullopt;
}

// What may have happened since the lanes last joined: the kinds of access,
// the steps of the stores among them made in the same trip of every loop
// around them, and whether there were others (a store in an earlier trip,
// at an address not known, in a call or in the caller).
struct Since {
  static constexpr size_t kMaxStores = 16;
  unsigned kinds = 0;
  SmallVector<const CallInst *, 4> stores;  // in address order
  bool other_stores = false;

  bool operator==(const Since &other) const {
    return kinds == other.kinds && stores == other.stores && other_stores == other.other_stores;
  }
  void add_store(const CallInst &step, bool known) {
    if (!known) {
      other_stores = true;
    } else if (!is_contained(stores, &step)) {
      stores.insert(llvm::upper_bound(stores, &step), &step);
    }
    if (stores.size() > kMaxStores) {
      stores.clear();
      other_stores = true;
    }
  }
  // Adds what comes in along an edge, a back edge making its stores an
  // earlier trip's.
  void merge(const Since &other, bool back_edge) {
    kinds |= other.kinds;
    other_stores |= other.other_stores || (back_edge && !other.stores.empty());
    if (!back_edge)
      for (const CallInst *store : other.stores) add_store(*store, true);
  }
};

// Phase three: the steps that cannot matter go.
struct DropNeedlessSteps : PassInfoMixin<DropNeedlessSteps> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    bool changed = false;
    for (Function &function : module)
      if (!function.isDeclaration()) changed |= prune(function);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  // A function's loops, and the accesses its steps guard where the
  // addresses of two lanes' accesses can be compared (lane_conflicts.h):
  // not in a function with cycles that are no loops.
  struct Conflicts {
    DominatorTree tree;
    LoopInfo loops;
    DenseMap<const CallInst *, Access> accesses;

    explicit Conflicts(Function &function) : tree(function), loops(tree) {
      SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> back_edges;
      FindFunctionBackedges(function, back_edges);
      for (auto [from, to] : back_edges)
        if (!tree.dominates(to, from)) return;
      for (Instruction &inst : instructions(function))
        if (step_kinds(inst))
          if (auto access = guarded_access(cast<CallInst>(inst))) accesses[&cast<CallInst>(inst)] = *access;
    }
    bool back_edge(const BasicBlock &from, const BasicBlock &to) const { return tree.dominates(&to, &from); }
    bool known(const CallInst &step) const { return accesses.contains(&step); }
    // Whether the load `step` guards may read what another lane of the
    // wavefront stored since they last joined.
    bool may_read_stored(const CallInst &step, const Since &since) const {
      if (since.other_stores) return true;
      if (since.stores.empty()) return false;
      auto load = accesses.find(&step);
      if (load == accesses.end()) return true;
      for (const CallInst *store : since.stores)
        if (other_lane_may_write(accesses.at(store), load->second, {tree, loops})) return true;
      return false;
    }
  };

  // What may have happened since the lanes last joined, after `block`,
  // given what came before it and the steps kept.  With `decide`, a step
  // needed there is kept from then on; `added` says whether one was.
  static Since through(BasicBlock &block, Since since, SmallPtrSetImpl<Instruction *> &kept, bool decide,
                       bool &added, const Conflicts &conflicts) {
    for (Instruction &inst : block) {
      if (joins(inst)) {
        since = Since();
      } else if (unsigned kinds = step_kinds(inst)) {
        auto &step = cast<CallInst>(inst);
        bool need = (kinds & kLoad) && conflicts.may_read_stored(step, since);
        if (kinds & kVolatile) need |= (kinds & kStore) && since.kinds;
        if (decide && need && kept.insert(&inst).second) added = true;
        if (kept.contains(&inst)) since = Since();
        since.kinds |= kinds & (kLoad | kStore);
        if (kinds & kStore) since.add_store(step, conflicts.known(step));
      } else if (opaque_call(inst)) {
        since.kinds = kLoad | kStore;
        since.other_stores = true;
      }
    }
    return since;
  }

  // Keeps the steps needed given the states the steps kept so far leave,
  // until no more are: then every step dropped is needless.
  static bool prune(Function &function) {
    SmallVector<Instruction *, 16> steps;
    for (Instruction &inst : instructions(function))
      if (step_kinds(inst)) steps.push_back(&inst);
    if (steps.empty()) return false;
    Since at_entry;
    if (!is_kernel(function)) {
      at_entry.kinds = kLoad | kStore;
      at_entry.other_stores = true;
    }
    Conflicts conflicts(function);
    SmallPtrSet<Instruction *, 16> kept;
    DenseMap<BasicBlock *, Since> out;
    auto in = [&](BasicBlock &block) {
      Since since = &block == &function.getEntryBlock() ? at_entry : Since();
      for (BasicBlock *before : predecessors(&block))
        if (auto found = out.find(before); found != out.end())
          since.merge(found->second, conflicts.back_edge(*before, block));
      return since;
    };
    for (bool added = true; added;) {
      out.clear();  // the states at each block's end, to a fixed point (they only grow)
      for (bool moved = true; moved;) {
        moved = false;
        for (BasicBlock &block : function) {
          bool unused = false;
          Since after = through(block, in(block), kept, false, unused, conflicts);
          if (auto found = out.find(&block); found == out.end() || !(found->second == after)) {
            out[&block] = std::move(after);
            moved = true;
          }
        }
      }
      added = false;
      for (BasicBlock &block : function) through(block, in(block), kept, true, added, conflicts);
    }
    // Those kept become calls of the runtime's fast entry, which keeps no
    // register (its lanes' contexts are a stack pointer, as at a barrier).
    Module &module = *function.getParent();
    FunctionCallee fast =
        module.getOrInsertFunction(kWaveStepEntry, FunctionType::get(Type::getVoidTy(module.getContext()), false));
    cast<Function>(fast.getCallee())->setCallingConv(CallingConv::PreserveNone);
    for (Instruction *step : steps) {
      if (kept.contains(step)) {
        CallInst *call = CallInst::Create(fast, "", step->getIterator());
        call->setCallingConv(CallingConv::PreserveNone);
        call->setConvergent();
        call->setDebugLoc(step->getDebugLoc());
      }
      Instruction *address = dyn_cast<Instruction>(cast<CallInst>(step)->getArgOperand(2));
      step->eraseFromParent();
      if (address && address->use_empty()) address->eraseFromParent();
    }
    return true;
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-wave-lockstep", "1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(MarkSharedAccesses()); });
            builder.registerPeepholeEPCallback(
                [](FunctionPassManager &passes, OptimizationLevel) { passes.addPass(DropUnsharedSteps()); });
            builder.registerOptimizerLastEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(DropNeedlessSteps()); });
          }};
}
