// The loops over a block's lanes run only the lanes their guards let in.
//
// A loop over the lanes (make_loop) runs a lane's code as one trip; code
// that begins `if (i < n)`, `if (t < stride)` or `if (t == 0)`, a test of
// the lane's coordinate against values the same for every lane, gives
// trips that do nothing.  Such a test, or a conjunction of them, lets in a
// range of the loop's counter: the loop then runs that range alone, the
// test gone from it, so LLVM's vectoriser sees straight code and a block
// reduction's tree or a scan's sweep runs the lanes that work.
//
// The range is worked out before the loop, in 128 bits (no overflow), and
// taken only when the coordinate does not wrap over the loop's trips and
// the range is not empty; else the loop runs as before, its tests in
// place.  An innermost loop gets a copy for the range, the loop before it
// choosing which runs; a loop with loops in it chooses its bounds and tests
// by a value the same for every trip, on which LLVM's loop unswitching may
// make two versions of it.
//
// A trip can be left out when what it does before the test is pure and
// used in the trip alone, and its way past the code to the loop's latch
// changes none of the loop's values (each is as the trip began, or set to
// one value every trip sets it to).
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "fast_form.h"

namespace gpusym_fast_form {

namespace {

using namespace PatternMatch;

constexpr const char *kLaneLoopMark = "gpusym.lanes";
constexpr const char *kPointPieceMark = "gpusym.lanes.point";
constexpr unsigned kMaxTests = 8;  // the tests looked at, from a trip's start

// A branch at a trip's start to the trip's code or to the loop's latch: to
// the code when its condition is `continue_on_true`.
struct Test {
  BranchInst *branch;
  bool continue_on_true;
};

// One term of a test's conjunction: its value, negated when `negated`.
struct Term {
  Value *value;
  bool negated;
};

// Whether `operand` of a loop's metadata is the mark `mark`.
bool is_mark(const Metadata *operand, StringRef mark = kLaneLoopMark) {
  auto *node = dyn_cast<MDNode>(operand);
  auto *name = node && node->getNumOperands() == 1 ? dyn_cast<MDString>(node->getOperand(0)) : nullptr;
  return name && name->getString() == mark;
}

// Whether the loop metadata `id` has the mark `mark` (by default that of
// make_loop's loops).
bool has_mark(const MDNode *id, StringRef mark = kLaneLoopMark) {
  return any_of(drop_begin(id->operands()), [&](const MDOperand &operand) { return is_mark(operand.get(), mark); });
}

// The terms of `value`'s conjunction (of its negation when `negated`).
void conjunction(Value *value, bool negated, SmallVectorImpl<Term> &terms) {
  Value *a, *b;
  if (terms.size() < 16 && ((!negated && match(value, m_LogicalAnd(m_Value(a), m_Value(b)))) ||
                            (negated && match(value, m_LogicalOr(m_Value(a), m_Value(b)))))) {
    conjunction(a, negated, terms);
    conjunction(b, negated, terms);
  } else if (match(value, m_Not(m_Value(a)))) {
    conjunction(a, !negated, terms);
  } else {
    terms.push_back({value, negated});
  }
}

// A term that tests the lane's coordinate, `start ± trip`, against a
// bound the same for every trip.
struct LaneTest {
  const SCEV *start, *bound;
  bool up;  // start + trip, else start - trip
  ICmpInst::Predicate predicate;
  Type *type;
};

// `term` as a LaneTest, if it is one that a range can hold.
std::optional<LaneTest> lane_test(Term term, Loop &loop, ScalarEvolution &scalars, const SCEVExpander &expander) {
  auto *test = dyn_cast<ICmpInst>(term.value);
  if (!test || !test->getOperand(0)->getType()->isIntegerTy() ||
      test->getOperand(0)->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  ICmpInst::Predicate predicate = term.negated ? test->getInversePredicate() : test->getPredicate();
  const SCEV *left = scalars.getSCEV(test->getOperand(0)), *right = scalars.getSCEV(test->getOperand(1));
  if (!isa<SCEVAddRecExpr>(left)) {
    std::swap(left, right);
    predicate = ICmpInst::getSwappedPredicate(predicate);
  }
  auto *lane = dyn_cast<SCEVAddRecExpr>(left);
  if (!lane || lane->getLoop() != &loop || !lane->isAffine() || !scalars.isLoopInvariant(right, &loop) ||
      predicate == ICmpInst::ICMP_NE)
    return std::nullopt;
  const SCEV *step = lane->getStepRecurrence(scalars);
  if (!step->isOne() && !step->isAllOnesValue()) return std::nullopt;
  Instruction *at = loop.getLoopPreheader()->getTerminator();
  if (!expander.isSafeToExpandAt(lane->getStart(), at) || !expander.isSafeToExpandAt(right, at))
    return std::nullopt;
  return LaneTest{lane->getStart(), right, step->isOne(), predicate, test->getOperand(0)->getType()};
}

// The range of trips a loop's tests let in, built before it in 128 bits:
// from 0 to the loop's trips, narrowed by each test.
class Range {
 public:
  Range(SCEVExpander &expander, IRBuilder<> &builder, Value *trips) : builder_(builder), expander_(expander) {
    wide_ = builder.getInt128Ty();
    trips_ = builder.CreateZExt(trips, wide_);
    low_ = ConstantInt::get(wide_, 0);
    high_ = trips_;
    ok_ = builder.getTrue();
  }

  // A term the same for every trip: the range holds while it is true.
  void hold_while(Term term) {
    Value *value = builder_.CreateFreeze(term.value);
    and_ok(term.negated ? builder_.CreateNot(value) : value);
  }

  // The trips whose coordinate passes `test`, when it does not wrap over
  // the loop's trips.
  void narrow(const LaneTest &test) {
    bool is_signed = ICmpInst::isSigned(test.predicate);
    Instruction *at = &*builder_.GetInsertPoint();
    auto widen = [&](const SCEV *scalar) {
      Value *value = builder_.CreateFreeze(expander_.expandCodeFor(scalar, test.type, at));
      return is_signed ? builder_.CreateSExt(value, wide_) : builder_.CreateZExt(value, wide_);
    };
    Value *start = widen(test.start), *bound = widen(test.bound);
    unsigned bits = test.type->getIntegerBitWidth(), width = wide_->getIntegerBitWidth();
    Value *last_trip = builder_.CreateSub(trips_, ConstantInt::get(wide_, 1));
    if (test.up) {
      APInt largest = is_signed ? APInt::getSignedMaxValue(bits).sext(width) : APInt::getMaxValue(bits).zext(width);
      and_ok(builder_.CreateICmpSLE(builder_.CreateAdd(start, last_trip), ConstantInt::get(wide_, largest)));
    } else {
      APInt smallest = is_signed ? APInt::getSignedMinValue(bits).sext(width) : APInt::getMinValue(bits).zext(width);
      and_ok(builder_.CreateICmpSGE(builder_.CreateSub(start, last_trip), ConstantInt::get(wide_, smallest)));
    }
    // With the coordinate start + trip, `coordinate < bound` is `trip <
    // bound - start`; with start - trip, it is `trip > start - bound`.
    ICmpInst::Predicate predicate = test.up ? test.predicate : ICmpInst::getSwappedPredicate(test.predicate);
    Value *offset = test.up ? builder_.CreateSub(bound, start) : builder_.CreateSub(start, bound);
    Value *past = builder_.CreateAdd(offset, ConstantInt::get(wide_, 1));
    switch (ICmpInst::isUnsigned(predicate) ? ICmpInst::getSignedPredicate(predicate) : predicate) {
      case ICmpInst::ICMP_SLT: below(offset); break;
      case ICmpInst::ICMP_SLE: below(past); break;
      case ICmpInst::ICMP_SGT: above(past); break;
      case ICmpInst::ICMP_SGE: above(offset); break;
      default:  // ICMP_EQ
        above(offset);
        below(past);
    }
  }

  // Whether the loop runs the range (not empty), its first trip and the
  // trip past its last, in the counter's type.
  std::tuple<Value *, Value *, Value *> finish(Type *type) {
    and_ok(builder_.CreateICmpSLT(low_, high_));
    return {builder_.CreateFreeze(ok_, "lanes.ranged"), builder_.CreateTrunc(low_, type, "lanes.first"),
            builder_.CreateTrunc(high_, type, "lanes.past")};
  }

 private:
  void and_ok(Value *value) { ok_ = builder_.CreateAnd(ok_, value); }
  void above(Value *first) { low_ = builder_.CreateBinaryIntrinsic(Intrinsic::smax, low_, first); }
  void below(Value *past) { high_ = builder_.CreateBinaryIntrinsic(Intrinsic::smin, high_, past); }

  IRBuilder<> &builder_;
  SCEVExpander &expander_;
  Type *wide_;
  Value *trips_, *low_, *high_, *ok_;
};

// Whether `value` is used outside `loop`.
bool used_outside(Value *value, const Loop &loop) {
  return any_of(value->users(), [&](User *user) { return !loop.contains(cast<Instruction>(user)); });
}

// A loop over lanes with its counter: from 0 by 1, `taken` trips after the
// first.
struct Counted {
  PHINode *counter;
  Value *next;
  BranchInst *back;
  const SCEV *taken;
};

std::optional<Counted> counted(Loop &loop, ScalarEvolution &scalars) {
  BasicBlock *preheader = loop.getLoopPreheader(), *header = loop.getHeader(), *latch = loop.getLoopLatch();
  if (!preheader || !latch || loop.getExitingBlock() != latch) return std::nullopt;
  auto *back = dyn_cast<BranchInst>(latch->getTerminator());
  if (!back || !back->isConditional() || !isa<ICmpInst>(back->getCondition())) return std::nullopt;
  PHINode *counter = nullptr;
  Value *next = nullptr;
  for (PHINode &phi : header->phis()) {
    Value *incoming = phi.getIncomingValueForBlock(latch);
    if (match(incoming, m_Add(m_Specific(&phi), m_One())) && match(phi.getIncomingValueForBlock(preheader), m_Zero())) {
      counter = &phi;
      next = incoming;
    }
  }
  if (!counter || cast<Instruction>(next)->getParent() != latch || used_outside(counter, loop) ||
      used_outside(next, loop) || !back->getCondition()->hasOneUse() ||
      !is_contained(cast<Instruction>(back->getCondition())->operands(), next))
    return std::nullopt;
  const SCEV *taken = scalars.getBackedgeTakenCount(&loop);
  if (isa<SCEVCouldNotCompute>(taken)) return std::nullopt;
  return Counted{counter, next, back, taken};
}

// The loop's trips, `taken` + 1, in the counter's type, made before it.
Value *trips_before(Loop &loop, const Counted &counted, ScalarEvolution &scalars, SCEVExpander &expander,
                    IRBuilder<> &builder) {
  Type *type = counted.counter->getType();
  Instruction *at = loop.getLoopPreheader()->getTerminator();
  return builder.CreateAdd(expander.expandCodeFor(scalars.getTruncateOrZeroExtend(counted.taken, type), type, at),
                           ConstantInt::get(type, 1), "lanes.trips");
}

// Runs `loop` over the range its tests let in, when it can; whether it did.
bool run_range(Loop &loop, ScalarEvolution &scalars) {
  std::optional<Counted> found = counted(loop, scalars);
  if (!found) return false;
  auto [counter, next, back, taken] = *found;
  BasicBlock *preheader = loop.getLoopPreheader(), *header = loop.getHeader(), *latch = loop.getLoopLatch();
  auto outside = [&](Value *value) { return used_outside(value, loop); };
  // The latch's only work is the counter's and its test.
  for (Instruction &inst : *latch)
    if (!inst.isTerminator() && (inst.mayHaveSideEffects() || (!isa<PHINode>(inst) && outside(&inst)))) return false;

  // The tests: a chain of blocks from the header, each pure, its values
  // used in the trip alone, and each a trip's way on or to the latch.
  SmallVector<Test, 4> tests;
  SmallPtrSet<BasicBlock *, 8> chain;
  for (BasicBlock *block = header; block && tests.size() < kMaxTests && !chain.contains(block);) {
    if (block != header && !chain.contains(block->getSinglePredecessor())) break;
    bool pure = all_of(*block, [&](Instruction &inst) {
      return inst.isTerminator() || (!inst.mayHaveSideEffects() && (&inst == counter || !outside(&inst)));
    });
    if (!pure) break;
    chain.insert(block);
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch) break;
    if (branch->isUnconditional()) {
      block = branch->getSuccessor(0) == latch ? nullptr : branch->getSuccessor(0);
      continue;
    }
    int way_on = branch->getSuccessor(1) == latch ? 0 : branch->getSuccessor(0) == latch ? 1 : -1;
    if (way_on < 0) break;
    tests.push_back({branch, way_on == 0});
    block = branch->getSuccessor(way_on);
  }
  if (tests.empty()) return false;

  // A trip that goes to the latch from the chain keeps every value of the
  // loop as it was, or sets it to the value every trip sets it to (which
  // the loop uses after it alone).
  SmallVector<std::pair<PHINode *, const SCEVAddRecExpr *>, 4> counters;
  for (PHINode &phi : header->phis()) {
    if (&phi == counter) continue;
    if (outside(&phi)) return false;
    Value *carried = phi.getIncomingValueForBlock(latch);
    if (carried == &phi) continue;
    auto *steps = phi.getType()->isIntegerTy() ? dyn_cast<SCEVAddRecExpr>(scalars.getSCEV(&phi)) : nullptr;
    if (steps && steps->getLoop() == &loop && steps->isAffine()) {
      counters.push_back({&phi, steps});  // another counter of the trips
      continue;
    }
    if (loop.isLoopInvariant(carried)) {
      if (any_of(phi.users(), [&](User *user) { return user != &phi && loop.contains(cast<Instruction>(user)); }))
        return false;
      continue;
    }
    auto *merged = dyn_cast<PHINode>(carried);
    if (!merged || merged->getParent() != latch) return false;
  }
  for (PHINode &merged : latch->phis())
    for (unsigned i = 0; i < merged.getNumIncomingValues(); i++) {
      if (!chain.contains(merged.getIncomingBlock(i))) continue;
      auto *kept = dyn_cast<PHINode>(merged.getIncomingValue(i));
      if (!kept || kept->getParent() != header || kept->getIncomingValueForBlock(latch) != &merged) return false;
    }

  // Each test's terms: those the range holds, the rest.
  SmallVector<SmallVector<Term, 4>, 4> rests;
  SmallVector<Term, 8> invariants;
  SmallVector<LaneTest, 8> lane_tests;
  SCEVExpander expander(scalars, header->getDataLayout(), "lanes");
  for (const Test &test : tests) {
    SmallVector<Term, 8> terms;
    conjunction(test.branch->getCondition(), !test.continue_on_true, terms);
    SmallVector<Term, 4> &rest = rests.emplace_back();
    for (const Term &term : terms) {
      if (loop.isLoopInvariant(term.value)) {
        invariants.push_back(term);
      } else if (std::optional<LaneTest> lane = lane_test(term, loop, scalars, expander)) {
        lane_tests.push_back(*lane);
      } else {
        rest.push_back(term);
      }
    }
  }
  if (lane_tests.empty()) return false;

  IRBuilder<> builder(preheader->getTerminator());
  Type *type = counter->getType();
  Range range(expander, builder, trips_before(loop, *found, scalars, expander, builder));
  for (const Term &term : invariants) range.hold_while(term);
  for (const LaneTest &test : lane_tests) range.narrow(test);
  auto [ranged, first, past] = range.finish(type);

  // Ranged, the counter goes from `first` to `past` and each test is the
  // terms the range does not hold.  An innermost loop gets a copy for
  // that, which the preheader branches to when ranged, the loop itself no
  // longer one over lanes (its tests are those of a range that does not
  // hold); a loop with loops in it chooses its bounds and tests by
  // `ranged` instead.
  ValueToValueMapTy map;
  bool copied = loop.isInnermost() && copy_loop(loop, map, ".ranged");
  auto in_range = [&](auto *value) {
    Value *copy = copied ? map.lookup(value) : nullptr;
    return cast<std::remove_pointer_t<decltype(value)>>(copy ? copy : value);
  };
  auto choose = [&](Value *when_ranged, Value *as_before) {
    return copied ? when_ranged : builder.CreateSelect(ranged, when_ranged, as_before);
  };
  in_range(counter)->setIncomingValueForBlock(preheader, choose(first, ConstantInt::get(type, 0)));
  for (auto [phi, steps] : counters) {
    const SCEV *start = scalars.getAddExpr(
        steps->getStart(), scalars.getMulExpr(steps->getStepRecurrence(scalars),
                                              scalars.getTruncateOrZeroExtend(scalars.getSCEV(first), phi->getType())));
    Value *from = expander.expandCodeFor(start, phi->getType(), preheader->getTerminator());
    in_range(phi)->setIncomingValueForBlock(preheader, choose(from, phi->getIncomingValueForBlock(preheader)));
  }
  BranchInst *ranged_back = in_range(back);
  builder.SetInsertPoint(ranged_back);
  Value *ranged_next = in_range(next);
  Value *again = back->getSuccessor(0) == header ? builder.CreateICmpNE(ranged_next, past)
                                                 : builder.CreateICmpEQ(ranged_next, past);
  ranged_back->setCondition(choose(again, back->getCondition()));
  for (auto [test, rest] : zip(tests, rests)) {
    BranchInst *branch = in_range(test.branch);
    builder.SetInsertPoint(branch);
    Value *on = builder.getTrue();
    for (const Term &term : rest) {
      Value *value = in_range(term.value);
      on = builder.CreateLogicalAnd(on, term.negated ? builder.CreateNot(value) : value);
    }
    if (!test.continue_on_true) on = builder.CreateNot(on);
    branch->setCondition(choose(on, test.branch->getCondition()));
  }
  if (copied) {
    preheader->getTerminator()->eraseFromParent();
    BranchInst::Create(cast<BasicBlock>(map[header]), header, ranged, preheader);
    unmark_lane_loop(*back);
  }
  return true;
}

// Gives an innermost loop over lanes whose trips test the lane's coordinate
// against a size midway (`a < n ? in[a] : 0`, `if (b < n)` after other
// work) a copy in which those tests are true, run when they are for every
// lane (a whole block inside the data): a straight trip that the
// vectoriser takes.  A size is a bound that is no constant (a test against
// one, `t < 128`, is the block's shape and often false for some lanes);
// the loop itself runs otherwise, no longer one over lanes.  Whether it did.
bool version_on_guards(Loop &loop, ScalarEvolution &scalars) {
  std::optional<Counted> found = loop.isInnermost() ? counted(loop, scalars) : std::nullopt;
  if (!found) return false;
  SCEVExpander expander(scalars, loop.getHeader()->getDataLayout(), "lanes");
  SmallVector<std::pair<ICmpInst *, LaneTest>, 4> guards;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &inst : *block)
      if (auto *test = dyn_cast<ICmpInst>(&inst);
          test && !test->use_empty() && test != found->back->getCondition() && guards.size() < kMaxTests)
        if (std::optional<LaneTest> lane = lane_test({test, false}, loop, scalars, expander);
            lane && !isa<SCEVConstant>(lane->bound))
          guards.push_back({test, *lane});
  if (guards.empty()) return false;
  ValueToValueMapTy map;
  BasicBlock *preheader = loop.getLoopPreheader();
  IRBuilder<> builder(preheader->getTerminator());
  Type *type = found->counter->getType();
  Value *trips = trips_before(loop, *found, scalars, expander, builder);
  Value *every_lane = builder.getTrue();
  for (auto &[test, lane] : guards) {
    Range range(expander, builder, trips);
    range.narrow(lane);
    auto [ok, first, past] = range.finish(type);
    every_lane = builder.CreateAnd(every_lane, builder.CreateAnd(ok, builder.CreateAnd(builder.CreateIsNull(first),
                                                                                        builder.CreateICmpEQ(past, trips))));
  }
  every_lane = builder.CreateFreeze(every_lane, "lanes.guarded");
  if (!copy_loop(loop, map, ".guarded")) {
    RecursivelyDeleteTriviallyDeadInstructions(every_lane);
    return false;
  }
  for (auto &[test, lane] : guards) {
    auto *copy = cast<Instruction>(map[test]);
    copy->replaceAllUsesWith(builder.getTrue());
    copy->eraseFromParent();
  }
  preheader->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(map[loop.getHeader()]), loop.getHeader(), every_lane, preheader);
  unmark_lane_loop(*found->back);
  return true;
}

}  // namespace

bool is_lane_loop(const Loop &loop) {
  MDNode *id = loop.getLoopID();
  return id && has_mark(id);
}

bool change_lane_loops(Function &function, FunctionAnalysisManager &analyses, function_ref<bool(Loop &)> change) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (Loop *loop : analyses.getResult<LoopAnalysis>(function).getLoopsInPreorder())
      if (is_lane_loop(*loop) && change(*loop)) {
        changed = again = true;
        analyses.invalidate(function, PreservedAnalyses::none());
        break;
      }
  }
  return changed;
}

// Gives the loop whose latch ends with `latch_branch` a loop ID of its
// own: the properties of the one it has, without the mark of loops over
// lanes unless `over_lanes`, and `added` when there is one.
void remake_loop_id(BranchInst &latch_branch, bool over_lanes, Metadata *added) {
  auto *id = cast<MDNode>(latch_branch.getMetadata(LLVMContext::MD_loop));
  SmallVector<Metadata *, 4> operands{nullptr};
  for (const MDOperand &operand : drop_begin(id->operands()))
    if (over_lanes || !is_mark(operand.get())) operands.push_back(operand.get());
  if (added) operands.push_back(added);
  MDNode *remade = MDNode::getDistinct(id->getContext(), operands);
  remade->replaceOperandWith(0, remade);
  latch_branch.setMetadata(LLVMContext::MD_loop, remade);
}

void unmark_lane_loop(BranchInst &latch_branch) { remake_loop_id(latch_branch, false, nullptr); }

void mark_point_piece(BranchInst &latch_branch) {
  LLVMContext &context = latch_branch.getContext();
  remake_loop_id(latch_branch, false, MDNode::get(context, MDString::get(context, kPointPieceMark)));
}

void add_loop_property(BranchInst &latch_branch, Metadata *property) {
  remake_loop_id(latch_branch, true, property);
}

bool is_point_piece(const Loop &loop) {
  MDNode *id = loop.getLoopID();
  return id && has_mark(id, kPointPieceMark);
}

void mark_lane_loop(BranchInst &latch_branch) {
  LLVMContext &context = latch_branch.getContext();
  Metadata *mark = MDNode::get(context, MDString::get(context, kLaneLoopMark));
  MDNode *id = MDNode::getDistinct(context, {nullptr, mark});
  id->replaceOperandWith(0, id);
  latch_branch.setMetadata(LLVMContext::MD_loop, id);
}

namespace {

// The ranges themselves, on a function whose loops are in LLVM's simple form.
struct NarrowLaneLoops : PassInfoMixin<NarrowLaneLoops> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses);
};

PreservedAnalyses NarrowLaneLoops::run(Function &function, FunctionAnalysisManager &analyses) {
  SmallPtrSet<BasicBlock *, 8> seen;  // each loop is looked at once
  bool changed = change_lane_loops(function, analyses, [&](Loop &loop) {
    return seen.insert(loop.getHeader()).second &&
           run_range(loop, analyses.getResult<ScalarEvolutionAnalysis>(function));
  });
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

// The copies of loops whose guards let every lane in, on a function whose
// loops are in LLVM's simple form.
struct GuardLaneLoops : PassInfoMixin<GuardLaneLoops> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    bool changed = change_lane_loops(function, analyses, [&](Loop &loop) {
      return version_on_guards(loop, analyses.getResult<ScalarEvolutionAnalysis>(function));
    });
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

// For a function with loops over lanes: its code tidied, so that a trip's
// tests come first; the ranges; the cuts at points (lane_points.cpp); the
// copies for guards every lane passes; then versions of the loops that
// choose by `ranged`.
struct LaneRanges : PassInfoMixin<LaneRanges> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    bool has_lane_loops = any_of(function, [](BasicBlock &block) {
      MDNode *id = block.getTerminator() ? block.getTerminator()->getMetadata(LLVMContext::MD_loop) : nullptr;
      return id && has_mark(id);
    });
    if (!has_lane_loops) return PreservedAnalyses::all();
    FunctionPassManager passes;
    passes.addPass(SimplifyCFGPass());
    passes.addPass(InstCombinePass());
    passes.addPass(LoopSimplifyPass());
    passes.addPass(NarrowLaneLoops());
    passes.addPass(LoopSimplifyPass());
    add_lane_point_pass(passes);
    passes.addPass(LoopSimplifyPass());
    passes.addPass(GuardLaneLoops());
    LoopPassManager versions;
    versions.addPass(LICMPass(LICMOptions()));
    versions.addPass(SimpleLoopUnswitchPass(true));
    passes.addPass(createFunctionToLoopPassAdaptor(std::move(versions), true));
    passes.addPass(InstCombinePass());
    passes.addPass(SimplifyCFGPass());
    return passes.run(function, analyses);
  }
};

}  // namespace

void add_lane_range_passes(FunctionPassManager &passes) {
  passes.addPass(MarkMemorySpaces());
  passes.addPass(LaneRanges());
}

}  // namespace gpusym_fast_form
