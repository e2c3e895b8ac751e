// The fast form of a kernel whose lanes reach their barriers alike
// (fast_form.h): the kernel's control flow between barriers once for the
// block, each stretch between two barriers a loop over the block's lanes.
#include "fast_form.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

namespace gpusym_fast_form {


namespace {

// The warp functions' operations (gpusym/lane.h) a direct shuffle does.
enum ShuffleOp : uint32_t { kShuffle = 0, kShuffleUp = 1, kShuffleDown = 2, kShuffleXor = 3 };
constexpr uint32_t kMaxWaveSize = 64;  // GPUSYM_MAX_WAVE_SIZE

}  // namespace

void make_direct_shuffles(Barriers &barriers, BasicBlock *entry, SmallPtrSetImpl<Value *> &varying) {
  barriers.shuffles.resize(barriers.waits.size());
  for (size_t k = 0; k < barriers.waits.size(); k++) {
    WarpCall &call = barriers.calls[k];
    auto *op = dyn_cast_or_null<ConstantInt>(call.op);
    auto *width = dyn_cast_or_null<ConstantInt>(call.width);
    if (!call.result || !op || !width || op->getZExtValue() > kShuffleXor) continue;
    // A value widened to the call's 64 bits is kept at its own width.
    Value *value = call.value;
    if (auto *widened = dyn_cast<ZExtInst>(value)) value = widened->getOperand(0);
    Type *type = value->getType();
    DirectShuffle &shuffle = barriers.shuffles[k];
    shuffle.op = uint32_t(op->getZExtValue());
    shuffle.width = int32_t(width->getSExtValue());
    IRBuilder<> builder(entry->getTerminator());
    shuffle.value = builder.CreateAlloca(type, nullptr, "shuffle.value");
    shuffle.result = builder.CreateAlloca(type, nullptr, "shuffle.result");
    if (isa<Constant>(call.arg))
      shuffle.constant_arg = call.arg;
    else
      shuffle.arg = builder.CreateAlloca(call.arg->getType(), nullptr, "shuffle.arg");
    builder.SetInsertPoint(call.stores.front());
    builder.CreateStore(value, shuffle.value);
    if (shuffle.arg) builder.CreateStore(call.arg, shuffle.arg);
    for (StoreInst *store : call.stores) {
      auto *field = dyn_cast<Instruction>(store->getPointerOperand());
      store->eraseFromParent();
      if (field && field->use_empty()) field->eraseFromParent();
    }
    // The lane's own value, used again right after the meeting (`sum +=
    // __shfl_down(sum, d)`), is read back from its array rather than kept
    // in one more: in the block the lane resumes at, unless that block
    // computes it anew.
    Value *own = value;
    if (auto *cast = dyn_cast<BitCastInst>(own)) own = cast->getOperand(0);
    BasicBlock *resume = call.result->getParent();
    if (auto *def = dyn_cast<Instruction>(own); def && def->getParent() != resume)
      for (Use &use : make_early_inc_range(own->uses())) {
        auto *user = cast<Instruction>(use.getUser());
        if (user->getParent() != resume || isa<PHINode>(user)) continue;
        builder.SetInsertPoint(user);
        Value *again = builder.CreateLoad(type, shuffle.value);
        varying.insert(again);
        if (again->getType() != own->getType()) varying.insert(again = builder.CreateBitCast(again, own->getType()));
        use.set(again);
      }
    builder.SetInsertPoint(call.result);
    Value *result = builder.CreateLoad(type, shuffle.result);
    varying.insert(result);
    if (type != call.result->getType()) varying.insert(result = builder.CreateZExt(result, call.result->getType()));
    auto *field = dyn_cast<Instruction>(call.result->getPointerOperand());
    call.result->replaceAllUsesWith(result);
    call.result->eraseFromParent();
    if (field && field->use_empty()) field->eraseFromParent();
    call = WarpCall();
    for (AllocaInst *array : {shuffle.value, shuffle.result, shuffle.arg})
      if (array) barriers.lane_arrays.insert(array);
  }
  if (barriers.call && barriers.call->use_empty()) {
    barriers.call->eraseFromParent();
    barriers.call = nullptr;
  }
}

namespace {

// The lanes a shuffle of `asked` width spans (shuffle_width in waves.cpp):
// the wavefront's unless a smaller positive width is asked for.
Value *shuffle_width(IRBuilder<> &builder, int32_t asked, Value *wave) {
  if (asked <= 0) return wave;
  Value *width = builder.getInt64(uint64_t(asked));
  return builder.CreateSelect(builder.CreateICmpULE(width, wave), width, wave);
}

// A loop writing lane l's result for each l in [from, to): the value of lane
// l + shift, or 0 without a shift.
void fill_results(IRBuilder<> &builder, const DirectShuffle &shuffle, const PerLane &lane_values, Value *from,
                  Value *to, std::optional<int64_t> shift) {
  auto array = [&](AllocaInst *alloca) { return size_t(find(lane_values.allocas, alloca) - lane_values.allocas.begin()); };
  BasicBlock *before = builder.GetInsertBlock();
  Function *fast = before->getParent();
  BasicBlock *body = BasicBlock::Create(fast->getContext(), before->getName() + ".fill", fast);
  BasicBlock *after = BasicBlock::Create(fast->getContext(), before->getName() + ".filled", fast);
  builder.CreateCondBr(builder.CreateICmpULT(from, to), body, after);
  builder.SetInsertPoint(body);
  PHINode *lane = builder.CreatePHI(builder.getInt64Ty(), 2, "lane");
  lane->addIncoming(from, before);
  Type *type = shuffle.value->getAllocatedType();
  Value *value = Constant::getNullValue(type);
  if (shift)
    value = builder.CreateLoad(type, lane_values.pointer(builder, array(shuffle.value),
                                                         builder.CreateAdd(lane, builder.getInt64(uint64_t(*shift)))));
  builder.CreateStore(value, lane_values.pointer(builder, array(shuffle.result), lane));
  Value *next = builder.CreateAdd(lane, builder.getInt64(1), "", true, true);
  lane->addIncoming(next, body);
  builder.CreateCondBr(builder.CreateICmpULT(next, to), body, after);
  builder.SetInsertPoint(after);
}

// A shuffle up or down by a constant delta over a width of a power of two,
// when no lane has returned: each segment of `width` lanes is one range of
// lanes reading the lane `delta` away, and one range reading their own
// value (and, down, one of lanes whose source is past the block's last,
// reading 0), each a loop LLVM vectorises.  Goes on to `then`.
void meet_by_segments(IRBuilder<> &builder, const DirectShuffle &shuffle, const PerLane &lane_values, Value *wave,
                      int64_t delta, BasicBlock *then) {
  BasicBlock *before = builder.GetInsertBlock();
  Function *fast = before->getParent();
  BasicBlock *segment = BasicBlock::Create(fast->getContext(), before->getName() + ".segment", fast);
  Value *width = shuffle_width(builder, shuffle.width, wave);
  Value *lanes = lane_values.lanes;
  builder.CreateBr(segment);
  builder.SetInsertPoint(segment);
  PHINode *first = builder.CreatePHI(builder.getInt64Ty(), 2, "segment.first");
  first->addIncoming(builder.getInt64(0), before);
  Value *end = builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.CreateAdd(first, width), lanes);
  Value *shift = builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.getInt64(uint64_t(delta)), width);
  if (shuffle.op == kShuffleDown) {
    // Lane l reads lane l + delta while that is in its segment and block.
    Value *split = builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.CreateSub(builder.CreateAdd(first, width), shift), end);
    Value *in_block = builder.CreateSub(lanes, builder.CreateBinaryIntrinsic(Intrinsic::umin, lanes, builder.getInt64(uint64_t(delta))));
    Value *reading = builder.CreateBinaryIntrinsic(Intrinsic::umax, first,
                                                   builder.CreateBinaryIntrinsic(Intrinsic::umin, split, in_block));
    fill_results(builder, shuffle, lane_values, first, reading, delta);
    fill_results(builder, shuffle, lane_values, reading, split, std::nullopt);
    fill_results(builder, shuffle, lane_values, split, end, 0);
  } else {
    // Lane l reads lane l - delta from the segment's delta-th lane on.
    Value *split = builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.CreateAdd(first, shift), end);
    fill_results(builder, shuffle, lane_values, first, split, 0);
    fill_results(builder, shuffle, lane_values, split, end, -delta);
  }
  Value *next = builder.CreateAdd(first, width);
  first->addIncoming(next, builder.GetInsertBlock());
  builder.CreateCondBr(builder.CreateICmpULT(next, lanes), segment, then);
}

// A direct shuffle's meeting (DirectShuffle), from `at` on to `then`: a
// loop over the block's lanes giving each the value of its source lane in
// its wavefront, as the runtime's resolve_wave (waves.cpp) does: a lane out
// of range for an up, down or xor shuffle reads its own, and a source lane
// past the block's last or returned (`gone`) gives 0.  Shuffles up and down
// by a constant go by segments (meet_by_segments) while no lane has
// returned (`some_gone`).
void meet_directly(const DirectShuffle &shuffle, const PerLane &lane_values, Value *gone, Value *some_gone,
                   Value *wave, BasicBlock *at, BasicBlock *then) {
  Function *fast = at->getParent();
  LLVMContext &context = fast->getContext();
  BasicBlock *loop = BasicBlock::Create(context, at->getName() + ".lanes", fast);
  IRBuilder<> builder(at);
  auto *delta = dyn_cast_or_null<ConstantInt>(shuffle.constant_arg);
  if ((shuffle.op == kShuffleDown || shuffle.op == kShuffleUp) && delta && !delta->isNegative() &&
      (shuffle.width <= 0 || shuffle.width >= kMaxWaveSize || isPowerOf2_32(uint32_t(shuffle.width)))) {
    BasicBlock *segments = BasicBlock::Create(context, at->getName() + ".segments", fast);
    builder.CreateCondBr(builder.CreateLoad(builder.getInt1Ty(), some_gone), loop, segments);
    IRBuilder<> by_segments(segments);
    meet_by_segments(by_segments, shuffle, lane_values, wave, int64_t(std::min<uint64_t>(delta->getZExtValue(), kMaxWaveSize)), then);
  } else {
    builder.CreateBr(loop);
  }
  builder.SetInsertPoint(loop);
  Type *i64 = builder.getInt64Ty();
  PHINode *lane = builder.CreatePHI(i64, 2, "lane");
  lane->addIncoming(builder.getInt64(0), at);
  auto array = [&](AllocaInst *alloca) { return size_t(find(lane_values.allocas, alloca) - lane_values.allocas.begin()); };
  Value *last = builder.CreateSub(wave, builder.getInt64(1));
  Value *self = builder.CreateAnd(lane, last);
  Value *first = builder.CreateSub(lane, self);  // the wavefront's first lane
  Value *count = builder.CreateBinaryIntrinsic(Intrinsic::umin, wave, builder.CreateSub(lane_values.lanes, first));
  Value *width = shuffle_width(builder, shuffle.width, wave);
  Value *arg = shuffle.arg ? builder.CreateLoad(shuffle.arg->getAllocatedType(),
                                                lane_values.pointer(builder, array(shuffle.arg), lane))
                           : shuffle.constant_arg;
  arg = builder.CreateSExtOrTrunc(arg, i64);
  Value *base = builder.CreateAnd(self, builder.CreateNeg(width));
  Value *index = nullptr;
  switch (shuffle.op) {
    case kShuffle: index = builder.CreateAdd(arg, base); break;
    case kShuffleUp: {
      Value *up = builder.CreateSub(self, arg);
      index = builder.CreateSelect(builder.CreateICmpSLT(up, base), self, up);
      break;
    }
    case kShuffleDown: {
      Value *in_segment = builder.CreateAnd(self, builder.CreateSub(width, builder.getInt64(1)));
      index = builder.CreateSelect(builder.CreateICmpSGE(builder.CreateAdd(in_segment, arg), width), self,
                                   builder.CreateAdd(self, arg));
      break;
    }
    default: {
      Value *other = builder.CreateXor(self, arg);
      Value *end = builder.CreateAnd(builder.CreateAdd(self, width), builder.CreateNeg(width));
      index = builder.CreateSelect(builder.CreateICmpSGE(other, end), self, other);
      break;
    }
  }
  Value *source = builder.CreateAnd(index, last);
  Value *exists = builder.CreateICmpULT(source, count);
  Value *from = builder.CreateSelect(exists, builder.CreateAdd(first, source), lane);
  Value *returned = builder.CreateICmpNE(builder.CreateLoad(builder.getInt8Ty(), builder.CreateInBoundsGEP(builder.getInt8Ty(), gone, from)),
                                         builder.getInt8(0));
  Type *type = shuffle.value->getAllocatedType();
  Value *value = builder.CreateLoad(type, lane_values.pointer(builder, array(shuffle.value), from));
  Value *result = builder.CreateSelect(builder.CreateAnd(exists, builder.CreateNot(returned)), value,
                                       Constant::getNullValue(type));
  builder.CreateStore(result, lane_values.pointer(builder, array(shuffle.result), lane));
  Value *next = builder.CreateAdd(lane, builder.getInt64(1), "", true, true);
  lane->addIncoming(next, loop);
  builder.CreateCondBr(builder.CreateICmpULT(next, lane_values.lanes), loop, then);
}

// A value the same for every lane is kept across barriers in one variable
// (`slot`) that each lane writes.  The lanes run a stretch one after the
// other, so a lane's read there may come after a later write of an earlier
// lane's.  In the stretch's code (`copy_set`), each lane reads and writes its
// own view of the variable instead (an alloca that SROA makes registers),
// which starts from what the variable held at the stretch's start (`before`,
// read ahead of the loop over lanes, or after a divergent step what the lane
// kept there; stored in `run`, where each lane starts); its writes go to the
// variable too.
void read_from_stretch_start(AllocaInst *slot, const SmallPtrSetImpl<BasicBlock *> &copy_set, Value *before,
                             BasicBlock *run) {
  SmallVector<LoadInst *, 8> loads;
  SmallVector<StoreInst *, 8> writes;
  for (User *user : slot->users())
    if (auto *inst = dyn_cast<Instruction>(user); inst && copy_set.contains(inst->getParent())) {
      if (auto *load = dyn_cast<LoadInst>(inst))
        loads.push_back(load);
      else if (auto *store = dyn_cast<StoreInst>(inst))
        writes.push_back(store);
    }
  if (loads.empty()) return;
  auto *view = new AllocaInst(slot->getAllocatedType(), slot->getAddressSpace(), slot->getName() + ".lane",
                              slot->getNextNode()->getIterator());
  new StoreInst(before, view, run->getTerminator()->getIterator());
  for (LoadInst *load : loads) load->setOperand(load->getPointerOperandIndex(), view);
  for (StoreInst *write : writes) {
    auto *own = cast<StoreInst>(write->clone());
    own->setOperand(own->getPointerOperandIndex(), view);
    own->insertAfter(write);
  }
}

}  // namespace

// The structured fast form (above) of a clone split at its barriers, whose
// kernel has barriers only (no steps, no warp functions).  Stretch r's code
// (0 from the kernel's start, k from after the kth barrier) starts with its
// prefix: the blocks every lane runs alike (values and branches the same
// for every lane, reads and writes of the block's variables of such values
// only, as `stride /= 2; if (stride > 0)` after a barrier), run once for
// the block.  Where the prefix goes on, a loop over the block's lanes runs
// the rest, each lane to a barrier or a return: a lane at a barrier records
// which in `next`, a lane that returns is marked in `gone` (one byte a lane,
// read only once a lane has returned: `some_gone`).  After the loop, the
// block goes on at the stretch after the barrier the lanes reached, or ends
// when none did.  A lane at a divergent step (one only some lanes reach)
// records the step's number in its byte of `at` instead (a byte a lane
// after `gone`'s: both in the lanes' states, four bytes a lane), counted in
// `waiting`.  While any lane waits so, the block runs
// in rounds, the others waiting at their barrier meanwhile: in each round,
// every lane waiting at a step goes on to its next wait (the stretch after
// one step over the lanes waiting there, then another's, the first waiting
// lane's step first), as a wavefront's lanes go on together from a step.
// A lane that reaches a step in a round waits for the next: its byte has
// kNextRound set until the round ends.
// `uniformity` is the analysis's; `scalars` are the block's variables,
// `kept` the per-lane arrays in which a lane keeps those it reads after a
// divergent step when it reaches one (its view of them from there on).
bool make_uniform_region_loops(const Clone &clone, const Barriers &barriers, const PerLane &lane_values,
                               ArrayRef<AllocaInst *> scalars, const DenseMap<AllocaInst *, AllocaInst *> &kept,
                               const Uniformity &uniformity, Value *gone, Value *calls, bool &needs_states) {
  const SmallPtrSetImpl<Value *> &varying = uniformity.varying;
  Function *fast = clone.fast;
  BasicBlock *entry = clone.entry, *body = clone.body;
  LLVMContext &context = fast->getContext();
  Type *i1 = Type::getInt1Ty(context), *i32 = Type::getInt32Ty(context), *i8 = Type::getInt8Ty(context),
       *i64 = Type::getInt64Ty(context);
  IRBuilder<> builder(entry->getTerminator());
  AllocaInst *next = builder.CreateAlloca(i32, nullptr, "next");
  AllocaInst *some_gone = builder.CreateAlloca(i1, nullptr, "some.gone");
  builder.CreateStore(builder.getFalse(), some_gone);
  AllocaInst *waiting = builder.CreateAlloca(i32, nullptr, "waiting");
  builder.CreateStore(builder.getInt32(0), waiting);
  Value *at = builder.CreateInBoundsGEP(i8, gone, lane_values.lanes, "at");
  SmallVector<BasicBlock *, 32> original;
  for (BasicBlock &block : *fast)
    if (&block != entry) original.push_back(&block);
  SmallPtrSet<Value *, 16> block_variables(scalars.begin(), scalars.end());
  PointerType *pointer = PointerType::getUnqual(context);
  FunctionCallee warp = fast->getParent()->getOrInsertFunction(kFastWarp, Type::getVoidTy(context), pointer, pointer, i32);
  Value *wave = nullptr;  // the lanes of a wavefront, for direct shuffles
  if (any_of(barriers.shuffles, [](const DirectShuffle &shuffle) { return shuffle.value; }))
    wave = builder.CreateZExt(builder.CreateCall(fast->getParent()->getOrInsertFunction(kWaveSize, i32)), i64);

  size_t count = barriers.waits.size() + 1;
  SmallVector<BasicBlock *, 8> starts;  // each stretch's first block
  for (size_t r = 0; r < count; r++) starts.push_back(BasicBlock::Create(context, "stretch" + Twine(r), fast));
  BasicBlock *done = BasicBlock::Create(context, "block.done", fast);
  ReturnInst::Create(context, done);
  entry->getTerminator()->setSuccessor(0, starts[0]);
  auto divergent = [&](size_t k) { return uniformity.divergent_steps.contains(barriers.waits[k]); };

  // Where the block goes on while lanes wait at divergent steps: the stretch
  // after the first lane's step that waits in this round; when none does,
  // the next round.
  BasicBlock *pick = nullptr;
  if (!uniformity.divergent_steps.empty()) {
    pick = BasicBlock::Create(context, "pick", fast);
    BasicBlock *look = BasicBlock::Create(context, "pick.lane", fast);
    BasicBlock *found = BasicBlock::Create(context, "pick.found", fast);
    BasicBlock *next_lane = BasicBlock::Create(context, "pick.next", fast);
    BasicBlock *round = BasicBlock::Create(context, "next.round", fast);
    BranchInst::Create(look, pick);
    IRBuilder<> picker(look);
    PHINode *lane = picker.CreatePHI(i64, 2, "lane");
    lane->addIncoming(picker.getInt64(0), pick);
    Value *step = picker.CreateLoad(i8, picker.CreateInBoundsGEP(i8, at, lane));
    Value *now = picker.CreateICmpULT(picker.CreateSub(step, picker.getInt8(1)), picker.getInt8(kNextRound - 1));
    picker.CreateCondBr(now, found, next_lane);
    picker.SetInsertPoint(next_lane);
    Value *after_lane = picker.CreateAdd(lane, picker.getInt64(1));
    lane->addIncoming(after_lane, next_lane);
    picker.CreateCondBr(picker.CreateICmpULT(after_lane, lane_values.lanes), look, round);
    // The next round: every waiting lane's byte without kNextRound.
    picker.SetInsertPoint(round);
    BasicBlock *clear = BasicBlock::Create(context, "next.round.lane", fast);
    picker.CreateBr(clear);
    picker.SetInsertPoint(clear);
    PHINode *cleared = picker.CreatePHI(i64, 2, "lane");
    cleared->addIncoming(picker.getInt64(0), round);
    Value *byte = picker.CreateInBoundsGEP(i8, at, cleared);
    picker.CreateStore(picker.CreateAnd(picker.CreateLoad(i8, byte), picker.getInt8(kNextRound - 1)), byte);
    Value *after_cleared = picker.CreateAdd(cleared, picker.getInt64(1));
    cleared->addIncoming(after_cleared, clear);
    picker.CreateCondBr(picker.CreateICmpULT(after_cleared, lane_values.lanes), clear, pick);
    picker.SetInsertPoint(found);
    SwitchInst *to = picker.CreateSwitch(step, done);
    for (size_t k = 0; k < barriers.waits.size(); k++)
      if (divergent(k)) to->addCase(picker.getInt8(uint8_t(k + 1)), starts[k + 1]);
  }

  // Whether every lane runs `block` alike, its code aside from the lanes'.
  auto alike = [&](BasicBlock *block) {
    if (barriers.blocks.contains(block)) return false;
    auto *end = dyn_cast<BranchInst>(block->getTerminator());
    if (!end || (end->isConditional() && varying.contains(end->getCondition()))) return false;
    for (Instruction &inst : *block) {
      if (isa<DbgInfoIntrinsic>(inst) || inst.isTerminator()) continue;
      if (auto *load = dyn_cast<LoadInst>(&inst)) {
        // The block's variables, and the lane's fields the same for all (blockDim, ...).
        const Value *object = getUnderlyingObject(load->getPointerOperand());
        if (!load->isSimple() || (!block_variables.contains(load->getPointerOperand()) &&
                                  (object != clone.copy || reads_lane_coordinates(load, clone))))
          return false;
      } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
        if (!store->isSimple() || !block_variables.contains(store->getPointerOperand()) ||
            varying.contains(store->getValueOperand()))
          return false;
      } else if (isa<CallBase>(inst) || inst.mayReadOrWriteMemory() || varying.contains(&inst)) {
        return false;
      }
    }
    return true;
  };

  // The loop over the lanes that runs stretch r's code from `from`, entered
  // from the prefix's `prefix_block` (null: from the stretch's start),
  // whose values `prefix_map` names; returns the block it starts at.
  // When `selective` (r is a divergent step's), the loop runs the lanes waiting there only.
  auto lane_loop = [&](size_t r, BasicBlock *from, BasicBlock *prefix_block, const ValueToValueMapTy &prefix_map,
                       bool selective) {
    SmallVector<BasicBlock *, 16> blocks = region_blocks(from, barriers);
    ValueToValueMapTy map;
    for (auto entry : prefix_map) map[entry.first] = entry.second;
    SmallVector<BasicBlock *, 16> copies = clone_blocks(blocks, map, ".s" + Twine(r));
    SmallPtrSet<BasicBlock *, 16> copy_set(copies.begin(), copies.end());

    std::string name = "stretch" + std::to_string(r);
    BasicBlock *start = BasicBlock::Create(context, name + ".lanes", fast, copies.front());
    BasicBlock *check = BasicBlock::Create(context, name + ".lane", fast, copies.front());
    BasicBlock *ask = BasicBlock::Create(context, name + ".gone", fast, copies.front());
    BasicBlock *run = BasicBlock::Create(context, name + ".run", fast, copies.front());
    BasicBlock *after = BasicBlock::Create(context, name + ".after", fast);
    // Edges from elsewhere are gone; the prefix's comes from `run`.
    for (BasicBlock *copy_block : copies)
      for (PHINode &phi : make_early_inc_range(copy_block->phis()))
        for (unsigned i = phi.getNumIncomingValues(); i-- > 0;) {
          BasicBlock *incoming = phi.getIncomingBlock(i);
          if (copy_block == copies.front() && prefix_block && incoming == prefix_map.lookup(prefix_block))
            phi.setIncomingBlock(i, run);
          else if (!copy_set.contains(incoming))
            phi.removeIncomingValue(i, false);
        }

    // The loops z, y, x around the code; a lane that has returned passes.
    builder.SetInsertPoint(start);
    if (!selective) builder.CreateStore(builder.getInt32(0), next);  // (else the others' barrier)
    SmallVector<Value *, 16> befores;
    for (AllocaInst *slot : scalars) befores.push_back(builder.CreateLoad(slot->getAllocatedType(), slot));
    builder.CreateBr(check);
    LaneCounter z = make_loop(*fast, start, check, clone.dim_z, "z");
    LaneCounter y = make_loop(*fast, cast<BasicBlock>(z.counter->getParent()), check, clone.dim_y, "y");
    LaneCounter x = make_loop(*fast, cast<BasicBlock>(y.counter->getParent()), check, clone.dim_x, "x");
    cast<BranchInst>(x.latch->getTerminator())->setSuccessor(1, y.latch);
    cast<BranchInst>(y.latch->getTerminator())->setSuccessor(1, z.latch);
    cast<BranchInst>(z.latch->getTerminator())->setSuccessor(1, after);
    builder.SetInsertPoint(check);
    Value *flat32 = flat_index(builder, x.counter, y.counter, z.counter, clone.dim_x, clone.dim_y);
    Value *lane = builder.CreateZExt(flat32, i64, "flat");
    std::pair<int64_t, Value *> coordinates[] = {
        {kThreadIdx, x.counter}, {kThreadIdx + 4, y.counter}, {kThreadIdx + 8, z.counter}, {kFlatThread, flat32}};
    for (auto [offset, value] : coordinates)
      builder.CreateStore(value, builder.CreateConstInBoundsGEP1_64(i8, clone.copy, offset));
    Value *gone_at = builder.CreateInBoundsGEP(i8, gone, lane, "gone");
    Value *at_lane = builder.CreateInBoundsGEP(i8, at, lane, "at.lane");
    if (selective) {
      builder.CreateCondBr(builder.CreateICmpEQ(builder.CreateLoad(i8, at_lane), builder.getInt8(uint8_t(r))), ask,
                           x.latch);
      builder.SetInsertPoint(ask);
      builder.CreateStore(builder.getInt8(0), at_lane);
      builder.CreateStore(builder.CreateSub(builder.CreateLoad(i32, waiting), builder.getInt32(1)), waiting);
      builder.CreateBr(run);
    } else {
      builder.CreateCondBr(builder.CreateLoad(i1, some_gone), ask, run);
      builder.SetInsertPoint(ask);
      builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(i8, gone_at), builder.getInt8(0)), x.latch, run);
    }
    builder.SetInsertPoint(run);
    for (size_t i = 0; i < lane_values.allocas.size(); i++) {
      Value *pointer = lane_values.pointer(builder, i, lane);
      lane_values.allocas[i]->replaceUsesWithIf(pointer, [&](Use &use) {
        return copy_set.contains(cast<Instruction>(use.getUser())->getParent());
      });
    }
    builder.CreateBr(copies.front());
    for (auto [slot, before] : zip(scalars, befores)) {
      Value *start = before;
      if (AllocaInst *own = selective ? kept.lookup(slot) : nullptr) {
        IRBuilder<> at_run(run->getTerminator());
        size_t i = find(lane_values.allocas, own) - lane_values.allocas.begin();
        start = at_run.CreateLoad(slot->getAllocatedType(), lane_values.pointer(at_run, i, lane));
      }
      read_from_stretch_start(slot, copy_set, start, run);
    }

    // A lane at a barrier records which (at a divergent step, in its byte of
    // `at`); a lane that returns, that it has (unless no lane can go on
    // from here).
    SmallVector<size_t, 4> reached;  // the barriers the block may go on at
    bool waits = false;
    for (BasicBlock *block : blocks)
      if (barriers.blocks.contains(block)) {
        size_t k = find(barriers.waits, block) - barriers.waits.begin();
        waits = true;
        if (!divergent(k)) reached.push_back(k + 1);
      }
    for (BasicBlock *block : blocks) {
      auto *copy_block = cast<BasicBlock>(map[block]);
      Instruction *end = copy_block->getTerminator();
      if (!barriers.blocks.contains(block) && !isa<ReturnInst>(end)) continue;
      builder.SetInsertPoint(end);
      if (barriers.blocks.contains(block)) {
        size_t k = find(barriers.waits, block) - barriers.waits.begin();
        if (divergent(k)) {
          builder.CreateStore(builder.getInt8(uint8_t(selective ? (k + 1) | kNextRound : k + 1)), at_lane);
          needs_states = true;
          builder.CreateStore(builder.CreateAdd(builder.CreateLoad(i32, waiting), builder.getInt32(1)), waiting);
        } else {
          builder.CreateStore(builder.getInt32(uint32_t(k + 1)), next);
        }
      } else if (waits) {
        builder.CreateStore(builder.getInt8(1), gone_at);
        needs_states = true;
        builder.CreateStore(builder.getTrue(), some_gone);
      }
      builder.CreateBr(x.latch);
      end->eraseFromParent();
    }
    // After a warp function, each wavefront's lanes get their results.
    builder.SetInsertPoint(after);
    if (pick) {
      BasicBlock *dispatch = BasicBlock::Create(context, name + ".next", fast);
      builder.CreateCondBr(builder.CreateICmpNE(builder.CreateLoad(i32, waiting), builder.getInt32(0)), pick,
                           dispatch);
      builder.SetInsertPoint(dispatch);
    }
    SwitchInst *go_on = builder.CreateSwitch(builder.CreateLoad(i32, next), done, reached.size());
    for (size_t k : reached) {
      BasicBlock *to = starts[k];
      if (barriers.kinds[k - 1] == kAtWarpFunction) {
        to = BasicBlock::Create(context, name + ".warp", fast);
        needs_states = true;  // a meeting reads each source lane's `gone`
        if (k - 1 < barriers.shuffles.size() && barriers.shuffles[k - 1].value) {
          meet_directly(barriers.shuffles[k - 1], lane_values, gone, some_gone, wave, to, starts[k]);
        } else {
          IRBuilder<> meet(to);
          Value *count = meet.CreateTrunc(lane_values.lanes, i32);
          meet.CreateCall(warp, {calls, gone, count});
          meet.CreateBr(starts[k]);
        }
      }
      go_on->addCase(builder.getInt32(uint32_t(k)), to);
    }
    return start;
  };

  for (size_t r = 0; r < count; r++) {
    BasicBlock *from = r == 0 ? body : barriers.resumes[r - 1];
    SmallVector<BasicBlock *, 16> blocks = region_blocks(from, barriers);
    SmallPtrSet<BasicBlock *, 16> region(blocks.begin(), blocks.end());
    // The prefix: blocks run alike, entered from the stretch's start or
    // from the prefix alone (none after a divergent step: its lanes alone
    // run on from there).
    bool selective = r > 0 && divergent(r - 1);
    SmallVector<BasicBlock *, 8> prefix;
    SmallPtrSet<BasicBlock *, 8> in_prefix;
    for (bool grew = !selective; grew;) {
      grew = false;
      for (BasicBlock *block : blocks) {
        if (in_prefix.contains(block) || !alike(block)) continue;
        bool entered = block == from, only_prefix = true;
        for (BasicBlock *before : predecessors(block)) {
          if (!region.contains(before) || barriers.blocks.contains(before)) continue;  // a wait ends the stretch
          entered |= in_prefix.contains(before);
          only_prefix &= in_prefix.contains(before);
        }
        if (block == from && !only_prefix) continue;
        if (entered && only_prefix) {
          prefix.push_back(block);
          in_prefix.insert(block);
          grew = true;
        }
      }
    }
    ValueToValueMapTy prefix_map;
    SmallVector<BasicBlock *, 16> prefix_copies = clone_blocks(prefix, prefix_map, ".p" + Twine(r));
    // Edges from blocks of other stretches are gone.
    for (BasicBlock *copy_block : prefix_copies)
      for (PHINode &phi : copy_block->phis())
        for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
          if (!is_contained(prefix_copies, phi.getIncomingBlock(i))) phi.removeIncomingValue(i, false);
    if (prefix.empty()) {
      BranchInst::Create(lane_loop(r, from, nullptr, prefix_map, selective), starts[r]);
      continue;
    }
    BranchInst::Create(cast<BasicBlock>(prefix_map[from]), starts[r]);
    // Where the prefix goes on: a loop over the lanes for each edge.
    for (BasicBlock *block : prefix) {
      Instruction *end = cast<BasicBlock>(prefix_map[block])->getTerminator();
      DenseMap<BasicBlock *, BasicBlock *> loops;
      for (unsigned i = 0; i < end->getNumSuccessors(); i++) {
        BasicBlock *to = block->getTerminator()->getSuccessor(i);
        if (in_prefix.contains(to)) continue;
        auto [loop, added] = loops.try_emplace(to, nullptr);
        if (added) loop->second = lane_loop(r, to, block, prefix_map, false);
        end->setSuccessor(i, loop->second);
      }
    }
  }

  SmallPtrSet<BasicBlock *, 32> old(original.begin(), original.end());
  auto outside = [&](User *user) {
    auto *inst = dyn_cast<Instruction>(user);
    return inst && !old.contains(inst->getParent());
  };
  for (BasicBlock *block : original) {
    if (any_of(block->users(), outside)) return false;
    for (Instruction &inst : *block)
      if (any_of(inst.users(), outside)) return false;
  }
  for (BasicBlock *block : original) block->dropAllReferences();
  for (BasicBlock *block : original) block->eraseFromParent();
  for (AllocaInst *alloca : lane_values.allocas) {
    erase_lifetime_markers(*alloca);
    alloca->eraseFromParent();
  }
  return true;
}

}  // namespace gpusym_fast_form
