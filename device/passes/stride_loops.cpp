// Grid- and block-stride loops in a kernel's fast form (fast_form.h): the
// block runs them a trip at a time.
//
// `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x *
// gridDim.x)` is a loop of each lane's own.  In a loop over the block's
// lanes it runs one lane's whole loop after another: lane 0 reads in[i],
// in[i + S], in[i + 2S] ..., then lane 1 the element beside each, so memory
// is visited S elements apart and nothing is vectorised.  Here such a loop
// becomes one the block runs (j = base, base + S, ... while j < n), each trip
// the lanes together with i = j + threadIdx.x, a barrier of the fast form's
// own before each trip.  A lane takes part in a trip while its i < n, which
// keeps the lanes whose loops ended out; as i grows with j, a lane out of one
// trip is out of every later one.  The lane's values carried from trip to
// trip (a sum) and those its loop leaves go through variables, which the
// barriers make arrays of the lanes' values.
//
// The barriers only end the fast form's loops over the lanes where lanes of
// a GPU may run in any order anyway; a kernel whose loop the block does not
// reach alike (a loop in a branch on the lane's own value) keeps its loop as
// it was (fast_form.cpp tries again without).  Where the program's adds may
// wrap (an int index made of unsigned arithmetic, as `blockIdx.x *
// blockDim.x + threadIdx.x` is), the block runs a copy of the loop as
// written, lane by lane, unless a test made once for the block shows that
// no index can pass its type's end.  The loop's own exit block, and a block
// on the guard's way past the loop, are folded into the latch and the guard
// when they compute nothing that could not be computed anyway.  With adds
// that may not wrap, a stride of 0 or less would keep a thread's loop going
// for ever; the block's loop then stops after its first trip, where j would
// not grow.
#include "fast_form.h"
#include "shared_memory.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

namespace gpusym_fast_form {

namespace {

constexpr const char *kBarrier = gpusym_passes::kBarrierName;
constexpr const char *kWaits[] = {kBarrier, "__gpusym_wave_step", "__gpusym_wave_meet"};

// Whether every lane of the block computes `value` alike: constants, the
// kernel's arguments, the lane's fields that are the block's (blockIdx,
// blockDim, gridDim) and arithmetic on them.
bool same_for_block(Value *value, const Clone &clone, unsigned depth = 0) {
  if (isa<Constant>(value) || isa<Argument>(value)) return true;
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth > 12) return false;
  if (auto *load = dyn_cast<LoadInst>(inst))
    return load->isSimple() && getUnderlyingObject(load->getPointerOperand()) == clone.copy &&
           !reads_lane_coordinates(load, clone);
  if (!isa<BinaryOperator>(inst) && !isa<CastInst>(inst) && !isa<SelectInst>(inst) && !isa<CmpInst>(inst))
    return false;
  for (Value *operand : inst->operands())
    if (!same_for_block(operand, clone, depth + 1)) return false;
  return true;
}

// The lane's threadIdx.x (offset 0) or flat index (kFlatThread) that
// `value` is, perhaps widened: the load of it, else null.  Either is at
// least 0 and below 2^31.
LoadInst *lane_index(Value *value, const Clone &clone, bool &is_x) {
  if (isa<ZExtInst>(value) || isa<SExtInst>(value)) value = cast<CastInst>(value)->getOperand(0);
  auto *load = dyn_cast<LoadInst>(value);
  if (!load || !load->isSimple() || !load->getType()->isIntegerTy(32)) return nullptr;
  const DataLayout &layout = load->getDataLayout();
  APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperand()->getType()), 0);
  if (load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true) != clone.copy) return nullptr;
  is_x = offset == kThreadIdx;
  return offset == kThreadIdx || offset == kFlatThread ? load : nullptr;
}

// "continue while `left` < `right`", as the branch `taken_on_true` of a
// comparison says it: the unsigned or signed less-than, with the operands in
// that order; false for any other comparison.
bool less_than(ICmpInst *compare, bool taken_on_true, Value *&left, Value *&right, ICmpInst::Predicate &predicate) {
  if (!compare) return false;
  predicate = taken_on_true ? compare->getPredicate() : compare->getInversePredicate();
  left = compare->getOperand(0);
  right = compare->getOperand(1);
  if (predicate == ICmpInst::ICMP_SGT || predicate == ICmpInst::ICMP_UGT) {
    std::swap(left, right);
    predicate = ICmpInst::getSwappedPredicate(predicate);
  }
  return predicate == ICmpInst::ICMP_SLT || predicate == ICmpInst::ICMP_ULT;
}

// A stride loop, as LLVM leaves it: `guard` tests `init < bound` and enters
// `preheader`, or goes to `exit`; the header's `index` starts at init and
// steps by `stride`; the latch, the loop's one exit, goes on while the next
// index < bound.  init = base + lane (base 0 when absent).
struct StrideLoop {
  BasicBlock *guard, *preheader, *header, *latch, *exit;
  PHINode *index;
  Value *base, *lane, *stride, *bound;
  ICmpInst::Predicate less;
  bool by_x;      // the lane part is threadIdx.x
  bool may_wrap;  // an index may pass its type's end (the program's adds wrap)
  SmallVector<BasicBlock *, 8> blocks;  // the loop's
  BasicBlock *through;  // a block of the latch's alone between it and `exit`, or null
  BasicBlock *skip;     // a block of the guard's alone between it and `exit`, or null
  // A start made narrower (an index LLVM widened): base + lane in the
  // narrow type, which the adds may wrap, with its base and whether signed.
  Value *narrow_base;
  bool narrow_signed;
};

// init as base + a lane's index, with base the same for the block.
bool split_start(Value *init, const Clone &clone, BasicBlock *guard, StrideLoop &loop) {
  bool is_x = false;
  if (lane_index(init, clone, is_x)) {
    loop.base = ConstantInt::get(init->getType(), 0);
    loop.lane = init;
    loop.by_x = is_x;
    return true;
  }
  // (base + lane) widened, without wrapping, is base widened + lane widened.
  Instruction::CastOps widen = Instruction::CastOpsEnd;
  Value *sum = init;
  if (auto *cast = dyn_cast<CastInst>(init); cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast))) {
    widen = cast->getOpcode();
    sum = cast->getOperand(0);
  }
  auto *add = dyn_cast<BinaryOperator>(sum);
  if (!add || add->getOpcode() != Instruction::Add) return false;
  for (unsigned k = 0; k < 2; k++) {
    Value *lane = add->getOperand(k), *base = add->getOperand(1 - k);
    if (!lane_index(lane, clone, is_x) || !same_for_block(base, clone)) continue;
    bool is_signed = widen == Instruction::CastOpsEnd ? loop.less == ICmpInst::ICMP_SLT : widen == Instruction::SExt;
    if (is_signed ? !add->hasNoSignedWrap() : !add->hasNoUnsignedWrap()) {
      // (base + lane) widened is base widened + lane widened where the sum
      // does not wrap: tested with the rest (no_index_wraps).
      loop.may_wrap = true;
      if (widen != Instruction::CastOpsEnd) {
        loop.narrow_base = base;
        loop.narrow_signed = is_signed;
      }
    }
    if (widen != Instruction::CastOpsEnd) {
      IRBuilder<> builder(guard->getTerminator());
      base = builder.CreateCast(widen, base, init->getType(), "stride.base");
      lane = builder.CreateCast(widen, lane, init->getType(), "stride.lane");
    }
    loop.base = base;
    loop.lane = lane;
    loop.by_x = is_x;
    return true;
  }
  return false;
}

bool waits_inside(const Loop &loop) {
  for (BasicBlock *block : loop.blocks())
    for (Instruction &inst : *block)
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction(); callee && is_contained(kWaits, callee->getName()))
          return true;
  return false;
}

// `block`, the only successor of `from` but one, when it has no other
// predecessor, computes only what may be computed anyway, and goes on to
// one block: that block, else null.
BasicBlock *onward_of(BasicBlock *block, BasicBlock *from) {
  auto *onward = dyn_cast<BranchInst>(block->getTerminator());
  if (block->getSinglePredecessor() != from || !onward || onward->isConditional()) return nullptr;
  for (Instruction &inst : *block)
    if (!inst.isTerminator() && !isa<PHINode>(inst) && !isSafeToSpeculativelyExecute(&inst)) return nullptr;
  return onward->getSuccessor(0);
}

// Moves the code of `block`, between `from` and `to` alone (onward_of),
// to the end of `from`, which then goes to `to` directly.
void fold_into(BasicBlock *block, BasicBlock *from, BasicBlock *to) {
  for (PHINode &phi : make_early_inc_range(block->phis())) {
    phi.replaceAllUsesWith(phi.getIncomingValue(0));
    phi.eraseFromParent();
  }
  for (Instruction &inst : make_early_inc_range(*block))
    if (!inst.isTerminator()) inst.moveBefore(from->getTerminator());
  from->getTerminator()->replaceSuccessorWith(block, to);
  for (PHINode &phi : to->phis()) phi.replaceIncomingBlockWith(block, from);
  block->eraseFromParent();
}

// Whether `wide` is `narrow` sign- or zero-extended (`widening`, the same
// for every call that sets it): extended itself, or, for a sum that does
// not wrap, the sum of its operands extended (as LLVM widens an index).
bool widens(Value *wide, Value *narrow, Instruction::CastOps &widening, unsigned depth = 0) {
  auto same_kind = [&](Instruction::CastOps kind) {
    if (widening == Instruction::CastOpsEnd) widening = kind;
    return widening == kind;
  };
  if (auto *cast = dyn_cast<CastInst>(wide); cast && (isa<SExtInst>(cast) || isa<ZExtInst>(cast)))
    return cast->getOperand(0) == narrow && same_kind(cast->getOpcode());
  if (auto *constant = dyn_cast<ConstantInt>(wide)) {  // either extension, where the kind is still open
    auto *small = dyn_cast<ConstantInt>(narrow);
    if (!small || small->getBitWidth() >= constant->getBitWidth()) return false;
    bool as_signed = small->getValue().sext(constant->getBitWidth()) == constant->getValue();
    bool as_unsigned = small->getValue().zext(constant->getBitWidth()) == constant->getValue();
    if (widening == Instruction::CastOpsEnd) return as_signed || as_unsigned;
    return widening == Instruction::SExt ? as_signed : as_unsigned;
  }
  auto *sum = dyn_cast<BinaryOperator>(wide), *parts = dyn_cast<BinaryOperator>(narrow);
  if (depth > 0 || !sum || !parts || sum->getOpcode() != Instruction::Add || parts->getOpcode() != Instruction::Add)
    return false;
  for (unsigned k = 0; k < 2; k++) {
    Instruction::CastOps kind = widening;
    if (widens(sum->getOperand(0), parts->getOperand(k), kind, depth + 1) &&
        widens(sum->getOperand(1), parts->getOperand(1 - k), kind, depth + 1) && kind != Instruction::CastOpsEnd &&
        (kind == Instruction::SExt ? parts->hasNoSignedWrap() : parts->hasNoUnsignedWrap()) && same_kind(kind))
      return true;
  }
  return false;
}

// Whether `loop` is a stride loop (filling `found`).
bool match(Loop &loop, const Clone &clone, StrideLoop &found) {
  BasicBlock *preheader = loop.getLoopPreheader(), *header = loop.getHeader(), *latch = loop.getLoopLatch();
  BasicBlock *exit = loop.getExitBlock();
  if (!preheader || !latch || !exit || loop.getExitingBlock() != latch || waits_inside(loop)) return false;
  BasicBlock *guard = preheader->getSinglePredecessor();
  if (!guard) return false;
  // The loop's own exit block, where the guard's other way joins after it:
  // what it computes (from the lane's last values) can be computed on each
  // trip instead.
  BasicBlock *through = nullptr, *skip = nullptr;
  if (exit->getSinglePredecessor() == latch && !is_contained(successors(guard), exit)) {
    through = exit;
    if (!(exit = onward_of(through, latch))) return false;
  }
  // Likewise a block on the guard's way to the exit.
  auto *guard_branch = dyn_cast<BranchInst>(guard->getTerminator());
  if (!guard_branch || !guard_branch->isConditional()) return false;
  BasicBlock *other = guard_branch->getSuccessor(guard_branch->getSuccessor(0) == preheader ? 1 : 0);
  if (other != exit) {
    skip = other;
    if (onward_of(skip, guard) != exit) return false;
  }
  if (pred_size(exit) != 2 || !is_contained(predecessors(exit), skip ? skip : guard) ||
      !is_contained(predecessors(exit), through ? through : latch))
    return false;
  for (Instruction &inst : *preheader)
    if (!inst.isTerminator() && !isSafeToSpeculativelyExecute(&inst)) return false;

  auto *latch_branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!latch_branch || !latch_branch->isConditional()) return false;
  Value *next, *bound, *init, *guard_bound;
  ICmpInst::Predicate less, guard_less;
  if (!less_than(dyn_cast<ICmpInst>(latch_branch->getCondition()), latch_branch->getSuccessor(0) == header, next,
                 bound, less) ||
      !less_than(dyn_cast<ICmpInst>(guard_branch->getCondition()), guard_branch->getSuccessor(0) == preheader, init,
                 guard_bound, guard_less))
    return false;
  if (guard_less != less || !same_for_block(bound, clone)) return false;
  auto *step = dyn_cast<BinaryOperator>(next);
  if (!step || step->getOpcode() != Instruction::Add) return false;
  PHINode *index = nullptr;
  Value *stride = nullptr;
  for (unsigned k = 0; k < 2; k++)
    if (auto *phi = dyn_cast<PHINode>(step->getOperand(k)); phi && phi->getParent() == header) {
      index = phi;
      stride = step->getOperand(1 - k);
    }
  if (!index || index->getIncomingValueForBlock(latch) != step || !same_for_block(stride, clone)) return false;
  // The index starts where the guard's does, or there widened (LLVM widens
  // an index used as an address), its bound then the guard's widened.
  Value *start = index->getIncomingValueForBlock(preheader);
  if (start != init) {
    Instruction::CastOps widening = Instruction::CastOpsEnd;
    if (!widens(start, init, widening) || !widens(bound, guard_bound, widening)) return false;
  } else if (guard_bound != bound) {
    return false;
  }
  for (PHINode &phi : header->phis())
    if (!phi.getType()->isFirstClassType() || phi.getType()->isTokenTy()) return false;
  bool may_wrap = less == ICmpInst::ICMP_SLT ? !step->hasNoSignedWrap() : !step->hasNoUnsignedWrap();
  found = {guard, preheader, header, latch, exit, index, nullptr, nullptr, stride, bound, less, false, may_wrap, {},
           through, skip, nullptr, false};
  found.blocks.assign(loop.block_begin(), loop.block_end());
  return split_start(start, clone, guard, found);
}

// Whether no lane's index can pass its type's end, tested before `before`:
// the stride is positive, the bound at most the type's largest value less
// the stride (an index below the bound plus the stride fits), and the base
// at most that value less the block's lanes (so does the first index).
Value *no_index_wraps(const StrideLoop &loop, const Clone &clone, Instruction *before) {
  IRBuilder<> builder(before);
  auto largest_of = [](Type *type, bool is_signed) {
    unsigned bits = type->getIntegerBitWidth();
    return ConstantInt::get(type, is_signed ? APInt::getSignedMaxValue(bits) : APInt::getMaxValue(bits));
  };
  Type *type = loop.index->getType();
  bool is_signed = loop.less == ICmpInst::ICMP_SLT;
  Constant *largest = largest_of(type, is_signed);
  Value *lanes = loop.by_x ? clone.dim_x : builder.CreateMul(builder.CreateMul(clone.dim_x, clone.dim_y), clone.dim_z);
  lanes = builder.CreateZExtOrTrunc(lanes, type);
  ICmpInst::Predicate at_most = is_signed ? ICmpInst::ICMP_SLE : ICmpInst::ICMP_ULE;
  Value *positive = is_signed ? builder.CreateICmpSGT(loop.stride, ConstantInt::get(type, 0))
                              : builder.CreateICmpNE(loop.stride, ConstantInt::get(type, 0));
  Value *bound_fits = builder.CreateICmp(at_most, loop.bound, builder.CreateSub(largest, loop.stride));
  Value *base_fits;
  if (loop.narrow_base) {  // the first index, in its narrow type
    Type *narrow = loop.narrow_base->getType();
    base_fits = builder.CreateICmp(
        loop.narrow_signed ? ICmpInst::ICMP_SLE : ICmpInst::ICMP_ULE, loop.narrow_base,
        builder.CreateSub(largest_of(narrow, loop.narrow_signed), builder.CreateZExtOrTrunc(lanes, narrow)));
  } else {
    base_fits = builder.CreateICmp(at_most, loop.base, builder.CreateSub(largest, lanes));
  }
  return builder.CreateAnd(positive, builder.CreateAnd(bound_fits, base_fits), "stride.no_wrap");
}

// `value`, the same for the block (same_for_block), computed before
// `before`: itself, or where the loop computes it (the loop reads blockDim
// again on each trip where it may not know that its stores leave the lane's
// fields alone), a copy of its arithmetic and reads of the lane's fields.
Value *before_loop(Value *value, Instruction *before, const StrideLoop &loop) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || !is_contained(loop.blocks, inst->getParent())) return value;
  Instruction *copy = inst->clone();
  for (Use &operand : copy->operands()) operand.set(before_loop(operand.get(), before, loop));
  copy->insertBefore(before);
  return copy;
}

// Makes `loop` one that the block runs a trip at a time (above).
void rewrite(StrideLoop &loop, const Clone &clone) {
  Function &fast = *clone.fast;
  LLVMContext &context = fast.getContext();
  Module &module = *fast.getParent();
  IRBuilder<> builder(clone.entry->getTerminator());
  if (loop.through) fold_into(loop.through, loop.latch, loop.exit);  // computed on each trip
  if (loop.skip) fold_into(loop.skip, loop.guard, loop.exit);
  // Where the program's adds may wrap, the loop as written, which the
  // block runs unless no index can pass its type's end (below).
  ValueToValueMapTy as_written;
  BasicBlock *wrapping = nullptr;
  if (loop.may_wrap) {
    SmallVector<BasicBlock *, 16> blocks{loop.preheader};
    blocks.append(loop.blocks.begin(), loop.blocks.end());
    clone_blocks(blocks, as_written, ".as_written");
    wrapping = BasicBlock::Create(context, "stride.as_written", &fast, loop.exit);
    Instruction *test = loop.guard->getTerminator()->clone();
    test->insertInto(wrapping, wrapping->end());
    test->replaceSuccessorWith(loop.preheader, cast<BasicBlock>(as_written[loop.preheader]));
  }
  // What the preheader computes (the stride) comes before the loop, and so
  // do the bound and the stride, which the block's loop uses.
  for (Instruction &inst : make_early_inc_range(*loop.preheader))
    if (!inst.isTerminator()) inst.moveBefore(loop.guard->getTerminator());
  loop.bound = before_loop(loop.bound, loop.guard->getTerminator(), loop);
  loop.stride = before_loop(loop.stride, loop.guard->getTerminator(), loop);

  // A variable for each value the lane carries from trip to trip, and for
  // each the loop leaves; each starts as it would without a trip.
  SmallVector<std::pair<PHINode *, AllocaInst *>, 4> carried, left;
  for (PHINode &phi : loop.header->phis())
    if (&phi != loop.index)
      carried.push_back({&phi, builder.CreateAlloca(phi.getType(), nullptr, phi.getName() + ".trips")});
  for (PHINode &phi : loop.exit->phis())
    left.push_back({&phi, builder.CreateAlloca(phi.getType(), nullptr, phi.getName() + ".left")});
  builder.SetInsertPoint(loop.guard->getTerminator());
  for (auto [phi, slot] : carried) builder.CreateStore(phi->getIncomingValueForBlock(loop.preheader), slot);
  for (auto [phi, slot] : left) builder.CreateStore(phi->getIncomingValueForBlock(loop.guard), slot);

  // The block's loop: a barrier before each trip, then whether there is
  // one (a test after each barrier, so that no block after a barrier is
  // entered from two: j's phi is the trip's, in no stretch's start).
  Type *type = loop.index->getType();
  FunctionCallee barrier = module.getOrInsertFunction(kBarrier, Type::getVoidTy(context));
  BasicBlock *first = BasicBlock::Create(context, "stride.first", &fast, loop.header);
  BasicBlock *trip = BasicBlock::Create(context, "stride.trip", &fast, loop.header);
  BasicBlock *next = BasicBlock::Create(context, "stride.next", &fast, loop.exit);
  BasicBlock *again = BasicBlock::Create(context, "stride.again", &fast, loop.exit);
  Instruction *old_guard = loop.guard->getTerminator();
  if (wrapping)
    BranchInst::Create(first, wrapping, no_index_wraps(loop, clone, old_guard), old_guard->getIterator());
  else
    BranchInst::Create(first, old_guard->getIterator());
  old_guard->eraseFromParent();
  builder.SetInsertPoint(first);
  builder.CreateCall(barrier);
  builder.CreateCondBr(builder.CreateICmp(loop.less, loop.base, loop.bound), trip, loop.exit);
  builder.SetInsertPoint(trip);
  PHINode *j = builder.CreatePHI(type, 2, "stride.j");
  j->addIncoming(loop.base, first);

  // A trip: the lane's index is j + its own; it takes part while below the
  // bound.  With threadIdx.x, that is threadIdx.x < bound - j (which the
  // fast form turns into the bound of its loop over the lanes).
  builder.SetInsertPoint(trip);
  Value *index = builder.CreateAdd(j, loop.lane, "stride.i", loop.less == ICmpInst::ICMP_ULT,
                                   loop.less == ICmpInst::ICMP_SLT);
  Value *takes_part;
  if (loop.by_x) {
    Type *i64 = builder.getInt64Ty();
    bool is_signed = loop.less == ICmpInst::ICMP_SLT;
    Value *left_over = builder.CreateSub(builder.CreateIntCast(loop.bound, i64, is_signed),
                                         builder.CreateIntCast(j, i64, is_signed));
    Value *lanes = builder.CreateTrunc(
        builder.CreateBinaryIntrinsic(Intrinsic::umin, left_over, builder.getInt64(UINT32_MAX)), builder.getInt32Ty());
    Value *x = builder.CreateLoad(builder.getInt32Ty(), clone.copy, "x");
    takes_part = builder.CreateICmpULT(x, lanes, "stride.lane.in");
  } else {
    takes_part = builder.CreateICmp(loop.less, index, loop.bound, "stride.lane.in");
  }
  builder.CreateCondBr(takes_part, loop.header, next);

  // The header's values: the index, the others from their variables.
  Value *step = loop.index->getIncomingValueForBlock(loop.latch);
  loop.index->replaceAllUsesWith(index);
  loop.index->eraseFromParent();
  builder.SetInsertPoint(loop.header, loop.header->getFirstInsertionPt());
  SmallVector<Value *, 4> carried_next;
  for (auto [phi, slot] : carried) {
    carried_next.push_back(phi->getIncomingValueForBlock(loop.latch));
    Value *value = builder.CreateLoad(phi->getType(), slot, phi->getName());
    for (Value *&next_value : carried_next)
      if (next_value == phi) next_value = value;
    phi->replaceAllUsesWith(value);
    phi->eraseFromParent();
  }
  // The latch keeps the next values and what the loop would leave.
  Instruction *latch_end = loop.latch->getTerminator();
  builder.SetInsertPoint(latch_end);
  for (size_t k = 0; k < carried.size(); k++) builder.CreateStore(carried_next[k], carried[k].second);
  for (auto [phi, slot] : left) builder.CreateStore(phi->getIncomingValueForBlock(loop.latch), slot);
  if (wrapping) {
    builder.SetInsertPoint(cast<BasicBlock>(as_written[loop.latch])->getTerminator());
    for (auto [phi, slot] : left) {
      Value *value = phi->getIncomingValueForBlock(loop.latch);
      Value *copy = as_written.lookup(value);
      builder.CreateStore(copy ? copy : value, slot);
    }
  }
  BranchInst::Create(next, latch_end->getIterator());
  auto *test = dyn_cast<Instruction>(cast<BranchInst>(latch_end)->getCondition());
  latch_end->eraseFromParent();
  if (test && test->use_empty()) test->eraseFromParent();
  if (auto *unused = dyn_cast<Instruction>(step); unused && unused->use_empty()) unused->eraseFromParent();

  // The next trip's j, whether it came without wrapping, and whether a
  // lane has a trip there.
  builder.SetInsertPoint(next);
  Value *next_j = builder.CreateAdd(j, loop.stride, "stride.j.next");
  Value *grew = builder.CreateICmp(loop.less == ICmpInst::ICMP_SLT ? ICmpInst::ICMP_SGT : ICmpInst::ICMP_UGT, next_j, j);
  builder.CreateCall(barrier);
  builder.CreateBr(again);
  builder.SetInsertPoint(again);
  builder.CreateCondBr(builder.CreateAnd(grew, builder.CreateICmp(loop.less, next_j, loop.bound)), trip, loop.exit);
  j->addIncoming(next_j, again);

  // After the loop: what it left, from the variables.
  builder.SetInsertPoint(loop.exit, loop.exit->getFirstInsertionPt());
  for (auto [phi, slot] : left) {
    phi->replaceAllUsesWith(builder.CreateLoad(phi->getType(), slot, phi->getName()));
    phi->eraseFromParent();
  }
  loop.preheader->eraseFromParent();
}

}  // namespace

unsigned run_stride_loops_by_block(const Clone &clone) {
  unsigned count = 0;
  for (; count < 16; count++) {
    DominatorTree dominators(*clone.fast);
    LoopInfo loops(dominators);
    for (Loop *loop : loops.getLoopsInPreorder())  // a loop entered from its guard gets a block of its own
      if (!loop->getLoopPreheader() && loop->getLoopPredecessor())
        InsertPreheaderForLoop(loop, &dominators, &loops, nullptr, false);
    StrideLoop found;
    auto matches = [&](Loop *loop) { return match(*loop, clone, found); };
    if (none_of(loops.getLoopsInPreorder(), matches)) break;
    rewrite(found, clone);
  }
  return count;
}

}  // namespace gpusym_fast_form
