// A divergence analysis of a kernel's fast-form clone (fast_form.h): which
// values may differ between the lanes of a block, and whether every lane
// reaches the kernel's barriers alike.
#include "fast_form.h"

#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"

namespace gpusym_fast_form {


// Whether `load` reads a field of the lane's copy that differs between
// lanes (threadIdx, the flat thread index and the lane's state), or reads
// it at an offset not known.
bool reads_lane_coordinates(LoadInst *load, const Clone &clone) {
  const DataLayout &layout = load->getDataLayout();
  APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperand()->getType()), 0);
  Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
  if (base != clone.copy) return true;
  int64_t begin = offset.getSExtValue(), end = begin + int64_t(layout.getTypeStoreSize(load->getType()));
  auto overlaps = [&](int64_t from, int64_t to) { return begin < to && from < end; };
  return overlaps(kThreadIdx, kThreadIdx + 12) || overlaps(kFlatThread, kLaneSize);
}

// Whether `inst`, its operands aside, may give each lane its own value:
// a read of its coordinates or of private memory, an atomic, a call.
namespace {

bool varies_by_itself(Instruction &inst, const Clone &clone) {
  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    if (!load->isSimple()) return true;
    // Memory shared by the block (global, __shared__) read at one address
    // gives every lane the value, unless lanes race on it.
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(load->getPointerOperand(), objects, nullptr, 0);
    for (const Value *object : objects)
      if (object == clone.copy ? reads_lane_coordinates(load, clone)
                               : isa<AllocaInst>(object) ||
                                     (!isa<GlobalValue>(object) && !isa<Argument>(object) && !isa<Instruction>(object)))
        return true;
    return false;
  }
  if (auto *call = dyn_cast<CallInst>(&inst)) {
    auto *intrinsic = dyn_cast<IntrinsicInst>(call);
    if (intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address) return false;
    return !call->doesNotAccessMemory() || !call->getCalledFunction() || call->getType()->isVoidTy();
  }
  return isa<AtomicRMWInst>(inst) || isa<AtomicCmpXchgInst>(inst);
}

}  // namespace

// A forward walk of `function`'s blocks from `starts`, not into `outside`
// and not past a block of `stops` (which it includes).
SmallPtrSet<BasicBlock *, 32> walk(ArrayRef<BasicBlock *> starts, const SmallPtrSetImpl<BasicBlock *> &outside,
                                   const SmallPtrSetImpl<BasicBlock *> &stops) {
  SmallPtrSet<BasicBlock *, 32> seen;
  SmallVector<BasicBlock *, 32> work;
  for (BasicBlock *start : starts)
    if (!outside.contains(start) && seen.insert(start).second) work.push_back(start);
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (stops.contains(block)) continue;
    for (BasicBlock *next : successors(block))
      if (!outside.contains(next) && seen.insert(next).second) work.push_back(next);
  }
  return seen;
}

// A divergence analysis of the clone after split_at_barriers: a value
// varies when it reads the lane's coordinates or private memory, or is
// computed from one that varies, or is a phi where lanes that took
// different ways from a branch on a varying condition meet, or is used
// outside a loop that lanes leave on a varying condition.  Only code from
// which a barrier can be reached matters: a lane that leaves it (the
// "tail", toward a return) never comes back to a barrier, and the values
// it computes there cross none.  The ways from a varying branch must then
// meet again before any barrier, or reach one barrier, the same, first.
Uniformity analyse_uniformity(const Clone &clone, const Barriers &barriers) {
  Function &fast = *clone.fast;
  SmallPtrSet<BasicBlock *, 32> to_barrier;  // blocks from which a barrier can be reached
  SmallVector<BasicBlock *, 32> work(barriers.waits.begin(), barriers.waits.end());
  to_barrier.insert(work.begin(), work.end());
  while (!work.empty())
    for (BasicBlock *before : predecessors(work.pop_back_val()))
      if (to_barrier.insert(before).second) work.push_back(before);
  SmallPtrSet<BasicBlock *, 32> tail;
  for (BasicBlock &block : fast)
    if (!to_barrier.contains(&block)) tail.insert(&block);

  Uniformity result;
  PostDominatorTree after(fast);
  // A lane's private variables are its own in the fast form (arrays of the
  // block's lanes where they cross a barrier): their addresses differ
  // between lanes, though LLVM sees one alloca.
  for (Instruction &inst : *clone.entry)
    if (isa<AllocaInst>(inst) && &inst != clone.copy) result.varying.insert(&inst);
  SmallPtrSet<BasicBlock *, 32> varying_joins;  // blocks whose phis vary
  SmallPtrSet<Instruction *, 16> leaving;        // branches already followed
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock &block : fast) {
      if (&block == clone.entry) continue;
      for (Instruction &inst : block) {
        if (result.varying.contains(&inst)) continue;
        bool varies = isa<PHINode>(inst) ? varying_joins.contains(&block) : varies_by_itself(inst, clone);
        for (Value *operand : inst.operands()) varies |= result.varying.contains(operand);
        if (varies) changed |= result.varying.insert(&inst).second;
      }
      Instruction *end = block.getTerminator();
      Value *condition = isa<BranchInst>(end) && cast<BranchInst>(end)->isConditional() ? cast<BranchInst>(end)->getCondition()
                         : isa<SwitchInst>(end) ? cast<SwitchInst>(end)->getCondition()
                                                : nullptr;
      if (!condition || tail.contains(&block) || !result.varying.contains(condition) || !leaving.insert(end).second)
        continue;
      changed = true;
      SmallVector<BasicBlock *, 4> ways;
      for (BasicBlock *next : successors(&block))
        if (!tail.contains(next) && !is_contained(ways, next)) ways.push_back(next);
      if (ways.size() < 2) continue;  // the other lanes leave for a return
      // Where the lanes meet again: the block every way reaches first, when
      // no way passes a barrier or a warp function before it (`if (t < d)
      // ...` in a loop that waits at its top), else the first barrier each
      // way reaches, when that is one, the same for all.  Steps on the ways
      // to the first are divergent steps.
      BasicBlock *meeting = nullptr;
      SmallPtrSet<BasicBlock *, 32> region;
      SmallVector<BasicBlock *, 4> steps;
      if (DomTreeNode *join = after.getNode(&block)->getIDom(); join && join->getBlock()) {
        region = walk(ways, tail, SmallPtrSet<BasicBlock *, 1>{join->getBlock()});
        meeting = join->getBlock();
        for (BasicBlock *inside : region) {
          if (inside == meeting || !barriers.blocks.contains(inside)) continue;
          size_t k = find(barriers.waits, inside) - barriers.waits.begin();
          if (barriers.kinds[k] == kAtStep && barriers.waits.size() < kMaxWaitsWithDivergentSteps)
            steps.push_back(inside);
          else
            meeting = nullptr;
        }
        if (meeting) result.divergent_steps.insert(steps.begin(), steps.end());
      }
      if (!meeting) {
        for (BasicBlock *way : ways)
          for (BasicBlock *reached : walk({way}, tail, barriers.blocks))
            if (barriers.blocks.contains(reached)) {
              if (meeting && meeting != reached) {
                result.barriers_uniform = false;
                return result;
              }
              meeting = reached;
            }
        region = walk(ways, tail, SmallPtrSet<BasicBlock *, 1>{meeting});
      }
      varying_joins.insert(region.begin(), region.end());
      if (!region.contains(&block)) continue;
      // A loop left on a varying condition: its values, read after it,
      // are each lane's last.
      for (BasicBlock *inside : region)
        for (Instruction &inst : *inside)
          for (User *user : inst.users())
            if (cast<Instruction>(user)->getParent() != inside) result.varying.insert(&inst);
    }
  }
  return result;
}

}  // namespace gpusym_fast_form
