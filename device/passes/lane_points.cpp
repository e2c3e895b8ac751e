// A loop over a block's lanes whose code tests the lane's coordinate for
// equality with a value the same for every lane (a tile's halo: `if (tx
// == 0)`, `if (tx == TILE - 1)`) runs in pieces: the lanes between those
// points, where the tests are false, and each point's lane alone, where
// its own tests are true.  Each piece is a copy of the loop with its tests
// made constants, so LLVM's vectoriser sees the lanes between the points
// without their branches.  The pieces run the lanes in their order.
//
// A point is the counter's value at which a test holds: for a coordinate
// d + counter (or d - counter), d the same for every trip, `coordinate ==
// b` holds at counter b - d (or d - b).  The points used are the constant
// ones, in their order, or else a single one; tests at other points stay
// as they are.  A loop is cut only when nothing it computes is used after
// it, every value it carries from trip to trip counts its trips, and the
// pieces between its points come out straight (their other branches the
// same for every trip, on which each piece then gets a version for each
// way): else cutting buys no vector code, only more loops.
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "fast_form.h"

namespace gpusym_fast_form {

namespace {

using namespace PatternMatch;

constexpr size_t kMaxPoints = 4;
constexpr size_t kMaxConditions = 3;
constexpr size_t kMaxInstructions = 1000;  // in all the pieces or versions of a loop

// The loop's counter: from `start` by 1, the loop leaving when the next
// value is `end` (the loop runs at least one trip: start < end).
struct Counter {
  PHINode *phi;
  Value *start, *end;
  ICmpInst *test;  // the latch's
  unsigned end_operand;
};

std::optional<Counter> counter_of(Loop &loop) {
  BasicBlock *preheader = loop.getLoopPreheader(), *latch = loop.getLoopLatch(), *exit = loop.getExitBlock();
  if (!preheader || !latch || !exit || loop.getExitingBlock() != latch) return std::nullopt;
  auto *back = dyn_cast<BranchInst>(latch->getTerminator());
  auto *test = back && back->isConditional() ? dyn_cast<ICmpInst>(back->getCondition()) : nullptr;
  if (!test || !test->hasOneUse()) return std::nullopt;
  for (PHINode &phi : loop.getHeader()->phis()) {
    Value *next = phi.getIncomingValueForBlock(latch);
    if (!match(next, m_Add(m_Specific(&phi), m_One()))) continue;
    for (unsigned side : {0u, 1u}) {
      if (test->getOperand(side) != next || !loop.isLoopInvariant(test->getOperand(1 - side))) continue;
      // The loop leaves when `next == end`, or goes on while `next != end`
      // or `next < end`.
      ICmpInst::Predicate predicate = side == 0 ? test->getPredicate() : test->getSwappedPredicate();
      bool leaves_on_true = back->getSuccessor(0) == exit;
      if (leaves_on_true ? predicate != ICmpInst::ICMP_EQ
                         : predicate != ICmpInst::ICMP_NE && predicate != ICmpInst::ICMP_ULT &&
                               predicate != ICmpInst::ICMP_SLT)
        return std::nullopt;
      return Counter{&phi, phi.getIncomingValueForBlock(preheader), test->getOperand(1 - side), test, 1 - side};
    }
  }
  return std::nullopt;
}

// The counter's value at which `coordinate` is `bound`, when the
// coordinate steps by one with the trips of `loop` and the bound is the
// same for every trip.
const SCEV *point_of(Value *coordinate, const SCEV *bound, Loop &loop, const Counter &counter,
                     ScalarEvolution &scalars) {
  Type *type = counter.phi->getType();
  if (!coordinate->getType()->isIntegerTy() || !scalars.isLoopInvariant(bound, &loop)) return nullptr;
  // The coordinate's bits: those of the counter, or fewer but 32 at least,
  // which hold the counter (a block has fewer than 2^31 lanes).
  unsigned bits = coordinate->getType()->getIntegerBitWidth();
  if (bits > type->getIntegerBitWidth() || (bits < 32 && bits != type->getIntegerBitWidth())) return nullptr;
  auto *steps = dyn_cast<SCEVAddRecExpr>(scalars.getSCEV(coordinate));
  if (!steps || steps->getLoop() != &loop || !steps->isAffine()) return nullptr;
  const SCEV *step = steps->getStepRecurrence(scalars);
  const SCEV *trips = scalars.getTruncateOrSignExtend(scalars.getSCEV(counter.phi), steps->getType());
  const SCEV *point = nullptr;
  if (step->isOne()) {
    const SCEV *offset = scalars.getMinusSCEV(steps, trips);
    if (scalars.isLoopInvariant(offset, &loop)) point = scalars.getMinusSCEV(bound, offset);
  } else if (step->isAllOnesValue()) {
    const SCEV *offset = scalars.getAddExpr(steps, trips);
    if (scalars.isLoopInvariant(offset, &loop)) point = scalars.getMinusSCEV(offset, bound);
  }
  return point ? scalars.getTruncateOrSignExtend(point, type) : nullptr;
}

// A test of a coordinate at a point: an equality, or a case of a switch
// (LLVM makes a chain of equalities of one value a switch).
struct PointTest {
  Instruction *test;  // an ICmpInst or a SwitchInst
  const SCEV *point;
  ConstantInt *value = nullptr;  // a switch's case
};

// `inst`'s tests of a coordinate of `loop` at points.
void point_tests(Instruction &inst, Loop &loop, const Counter &counter, ScalarEvolution &scalars,
                 SmallVectorImpl<PointTest> &tests) {
  if (auto *test = dyn_cast<ICmpInst>(&inst); test && test->isEquality() && test != counter.test &&
                                              !test->use_empty()) {
    for (unsigned side : {0u, 1u})
      if (const SCEV *point = point_of(test->getOperand(side), scalars.getSCEV(test->getOperand(1 - side)), loop,
                                       counter, scalars)) {
        tests.push_back({test, point});
        return;
      }
  } else if (auto *cases = dyn_cast<SwitchInst>(&inst)) {
    for (const auto &one : cases->cases())
      if (const SCEV *point = point_of(cases->getCondition(), scalars.getSCEV(one.getCaseValue()), loop, counter,
                                       scalars))
        tests.push_back({cases, point, one.getCaseValue()});
  }
}

// In a piece's copy of `test` (at its point `at`, or between points when
// -1): the test a constant where the piece knows it.  A switch goes the
// way of its case at the point, or its default between points when it has
// no case at other points (`points` are those the pieces cut at).
void settle(const PointTest &test, Instruction *copy, int at, ArrayRef<const SCEV *> points,
            ArrayRef<PointTest> tests) {
  if (auto *equality = dyn_cast<ICmpInst>(copy)) {
    auto found = find(points, test.point);
    if (found == points.end()) return;  // a test at a point not used
    bool holds = at == found - points.begin();
    copy->replaceAllUsesWith(ConstantInt::getBool(copy->getContext(), holds == equality->isTrueWhenEqual()));
    copy->eraseFromParent();
    return;
  }
  auto *cases = cast<SwitchInst>(copy);
  if (at >= 0 && test.point == points[at]) {
    cases->setCondition(test.value);
    return;
  }
  SmallVector<const PointTest *, 4> its;
  for (const PointTest &other : tests)
    if (other.test == test.test) its.push_back(&other);
  if (its.front() != &test || !all_of(its, [&](const PointTest *one) { return is_contained(points, one->point); }) ||
      (at >= 0 && any_of(its, [&](const PointTest *one) { return one->point == points[at]; })))
    return;  // settled by its case at the point, or not known
  APInt other = APInt::getZero(test.value->getBitWidth());
  while (any_of(its, [&](const PointTest *one) { return one->value->getValue() == other; })) ++other;
  cases->setCondition(ConstantInt::get(test.value->getType(), other));
}

// Whether `value` is the same for every trip of `loop`: made outside it,
// or computed in it from such values by pure instructions.
bool same_every_trip(Loop &loop, Value *value, unsigned depth = 0) {
  if (loop.isLoopInvariant(value)) return true;
  auto *inst = dyn_cast<Instruction>(value);
  return inst && depth < 8 && !isa<PHINode>(inst) && !inst->mayReadOrWriteMemory() &&
         isSafeToSpeculativelyExecute(inst) &&
         all_of(inst->operands(), [&](Value *operand) { return same_every_trip(loop, operand, depth + 1); });
}

// What `condition` is between the points, if the tests at `points` tell:
// those tests are false there (`!=` true), whatever else their logic
// combines them with.
std::optional<bool> between_points(Value *condition, ArrayRef<const SCEV *> points, ArrayRef<PointTest> tests) {
  Value *a, *b;
  if (match(condition, m_Not(m_Value(a)))) {
    std::optional<bool> value = between_points(a, points, tests);
    return value ? std::optional<bool>(!*value) : std::nullopt;
  }
  bool is_and = match(condition, m_LogicalAnd(m_Value(a), m_Value(b)));
  if (is_and || match(condition, m_LogicalOr(m_Value(a), m_Value(b)))) {
    std::optional<bool> left = between_points(a, points, tests), right = between_points(b, points, tests);
    if (left == !is_and || right == !is_and) return !is_and;  // false for an and, true for an or
    return left && right ? std::optional<bool>(is_and) : std::nullopt;
  }
  for (const PointTest &test : tests)
    if (test.test == condition && is_contained(points, test.point))
      return !cast<ICmpInst>(test.test)->isTrueWhenEqual();
  return std::nullopt;
}

// Whether the pieces between `points` have straight code: each branch of
// the loop but its latch's, and each switch, that the lanes between the
// points reach, known there from the tests at the points, or the same for
// every trip (which versions then take away).  Code only a point's lane
// reaches (a halo's `if (tx == 0) tile[0] = x > 0 ? in[x - 1] : 0`) may
// branch as it likes.  Else cutting the loop buys no vector code, only
// more loops.
bool straight_between_points(Loop &loop, const Counter &counter, ArrayRef<const SCEV *> points,
                             ArrayRef<PointTest> tests) {
  SmallPtrSet<BasicBlock *, 16> reached;
  SmallVector<BasicBlock *, 16> work{loop.getHeader()};
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (!loop.contains(block) || !reached.insert(block).second) continue;
    Instruction *end = block->getTerminator();
    if (auto *branch = dyn_cast<BranchInst>(end); branch && branch->isConditional() &&
                                                 end != counter.test->user_back() &&
                                                 !same_every_trip(loop, branch->getCondition())) {
      std::optional<bool> known = between_points(branch->getCondition(), points, tests);
      if (!known) return false;
      work.push_back(branch->getSuccessor(*known ? 0 : 1));
      continue;
    }
    if (auto *cases = dyn_cast<SwitchInst>(end); cases && !same_every_trip(loop, cases->getCondition())) {
      unsigned known = count_if(tests, [&](const PointTest &test) {
        return test.test == cases && is_contained(points, test.point);
      });
      if (known != cases->getNumCases()) return false;
      work.push_back(cases->getDefaultDest());  // between the points, no case holds
      continue;
    }
    append_range(work, successors(block));
  }
  return true;
}

// Asks the vectoriser for one vector a trip of the loop whose latch ends
// with `latch_branch`: a piece between points has few trips (a tile's row
// less its ends, 14 of 16), which two vectors a trip would leave mostly to
// the scalar loop after it.
void interleave_once(BranchInst &latch_branch) {
  LLVMContext &context = latch_branch.getContext();
  Metadata *once = ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(context), 1));
  add_loop_property(latch_branch, MDNode::get(context, {MDString::get(context, "llvm.loop.interleave.count"), once}));
}

// A piece of the loop: the counter from `low` to `high` (none when low
// >= high), `point` the index of the point it runs, or -1.
struct Piece {
  Value *low, *high;
  int point;
  SmallVector<Value *, 2> starts;  // each other counter's first value
};

// Cuts `loop` at its points, when it can; the pieces' headers go into
// `made`.
bool cut_at_points(Loop &loop, ScalarEvolution &scalars, SmallPtrSetImpl<BasicBlock *> &made) {
  std::optional<Counter> counter = counter_of(loop);
  if (!counter) return false;
  BasicBlock *preheader = loop.getLoopPreheader(), *header = loop.getHeader(), *exit = loop.getExitBlock();
  if (!loop.hasDedicatedExits() || isa<PHINode>(exit->front())) return false;
  SmallVector<std::pair<PHINode *, const SCEVAddRecExpr *>, 2> others;
  for (PHINode &phi : header->phis()) {
    if (&phi == counter->phi) continue;
    auto *steps = phi.getType()->isIntegerTy() ? dyn_cast<SCEVAddRecExpr>(scalars.getSCEV(&phi)) : nullptr;
    if (!steps || steps->getLoop() != &loop || !steps->isAffine()) return false;
    others.push_back({&phi, steps});
  }
  size_t size = 0;
  SmallVector<PointTest, 8> tests;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &inst : *block) {
      size++;
      if (any_of(inst.users(), [&](User *user) { return !loop.contains(cast<Instruction>(user)); })) return false;
      point_tests(inst, loop, *counter, scalars, tests);
    }

  // The points: the constant ones in their order, else the first.
  SmallVector<const SCEV *, 4> points;
  for (const PointTest &test : tests)
    if (isa<SCEVConstant>(test.point) && !is_contained(points, test.point)) points.push_back(test.point);
  sort(points, [](const SCEV *a, const SCEV *b) {
    return cast<SCEVConstant>(a)->getAPInt().slt(cast<SCEVConstant>(b)->getAPInt());
  });
  if (points.empty() && !tests.empty()) points.push_back(tests.front().point);
  if (points.size() > kMaxPoints) points.resize(kMaxPoints);
  if (points.empty() || size * (2 * points.size() + 1) > kMaxInstructions ||
      !straight_between_points(loop, *counter, points, tests))
    return false;

  // The pieces' bounds and the other counters' first values, before the
  // loop: the lanes before the first point, the first point's, those
  // between it and the next, and so on.
  IRBuilder<> builder(preheader->getTerminator());
  SCEVExpander expander(scalars, header->getDataLayout(), "lanes");
  Type *type = counter->phi->getType();
  SmallVector<Value *, 4> at;
  for (const SCEV *point : points)
    at.push_back(builder.CreateFreeze(expander.expandCodeFor(point, type, preheader->getTerminator())));
  auto max = [&](Value *a, Value *b) { return builder.CreateBinaryIntrinsic(Intrinsic::smax, a, b); };
  auto min = [&](Value *a, Value *b) { return builder.CreateBinaryIntrinsic(Intrinsic::smin, a, b); };
  auto after = [&](Value *point) {
    return builder.CreateBinaryIntrinsic(Intrinsic::sadd_sat, point, ConstantInt::get(type, 1));
  };
  // The bounds of the pieces between points are frozen: LLVM's vectoriser
  // would take the few trips of a piece whose bounds it knows, a tile's
  // row between its first and last lane, as too few to be worth it.
  SmallVector<Piece, 9> pieces;
  for (size_t k = 0; k <= at.size(); k++) {
    pieces.push_back({builder.CreateFreeze(k == 0 ? counter->start : max(counter->start, after(at[k - 1]))),
                      builder.CreateFreeze(k == at.size() ? counter->end : min(counter->end, at[k])), -1, {}});
    if (k < at.size()) pieces.push_back({max(counter->start, at[k]), min(counter->end, after(at[k])), int(k), {}});
  }
  const SCEV *start = scalars.getSCEV(counter->start);
  for (Piece &piece : pieces)
    for (auto [phi, steps] : others) {
      const SCEV *skipped = scalars.getTruncateOrSignExtend(
          scalars.getMinusSCEV(scalars.getSCEV(piece.low), start), phi->getType());
      const SCEV *first = scalars.getAddExpr(steps->getStart(), scalars.getMulExpr(steps->getStepRecurrence(scalars), skipped));
      piece.starts.push_back(expander.expandCodeFor(first, phi->getType(), preheader->getTerminator()));
    }

  // Each piece: a test whether it has lanes, then its copy of the loop,
  // which goes on to the next piece's test.
  LLVMContext &context = header->getContext();
  Function *function = header->getParent();
  SmallVector<BasicBlock *, 16> blocks(loop.blocks());
  SmallVector<BasicBlock *, 9> checks;
  for (size_t i = 0; i < pieces.size(); i++) checks.push_back(BasicBlock::Create(context, "lanes.piece", function, exit));
  for (size_t i = 0; i < pieces.size(); i++) {
    const Piece &piece = pieces[i];
    BasicBlock *next = i + 1 < pieces.size() ? checks[i + 1] : exit;
    ValueToValueMapTy map;
    clone_blocks(blocks, map, ".piece" + Twine(i));
    auto *copy_header = cast<BasicBlock>(map[header]);
    made.insert(copy_header);
    auto *copy_test = cast<ICmpInst>(map[counter->test]);
    auto *copy_back = cast<BranchInst>(*copy_test->user_begin());
    if (piece.point >= 0) mark_point_piece(*copy_back);  // one lane: nothing more to do
    else interleave_once(*copy_back);
    BasicBlock *enter = BasicBlock::Create(context, "lanes.piece.run", function, copy_header);
    BranchInst::Create(copy_header, enter);
    builder.SetInsertPoint(checks[i]);
    builder.CreateCondBr(builder.CreateICmpSLT(piece.low, piece.high), enter, next);
    for (PHINode &phi : copy_header->phis()) phi.replaceIncomingBlockWith(preheader, enter);
    cast<PHINode>(map[counter->phi])->setIncomingValueForBlock(enter, piece.low);
    for (auto [other, first] : zip(others, piece.starts))
      cast<PHINode>(map[other.first])->setIncomingValueForBlock(enter, first);
    copy_test->setOperand(counter->end_operand, piece.high);
    copy_back->replaceSuccessorWith(exit, next);
    for (const PointTest &test : tests)
      if (Value *copy = map.lookup(test.test)) settle(test, cast<Instruction>(copy), piece.point, points, tests);
  }
  preheader->getTerminator()->replaceSuccessorWith(header, checks.front());
  DeleteDeadBlocks(blocks);
  return true;
}

// Two versions of `loop`, when a branch in it has a condition the same
// for every trip: a copy where it is true and the loop itself where it is
// false, the preheader choosing.  Only when the loop has at most
// kMaxConditions such conditions and its versions for all of them stay
// small; each version then gets its own for the conditions left.
bool version_on_condition(Loop &loop) {
  SmallSetVector<Value *, 4> conditions;
  size_t size = 0;
  bool hoisted = false;  // instructions of a condition moved before the loop
  for (BasicBlock *block : loop.blocks()) {
    size += block->size();
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (branch && branch->isConditional() && !isa<Constant>(branch->getCondition()) &&
        loop.makeLoopInvariant(branch->getCondition(), hoisted))
      conditions.insert(branch->getCondition());
  }
  BasicBlock *preheader = loop.getLoopPreheader(), *header = loop.getHeader();
  ValueToValueMapTy map;
  if (conditions.empty() || conditions.size() > kMaxConditions || (size << conditions.size()) > kMaxInstructions ||
      !copy_loop(loop, map, ".if"))
    return hoisted;  // changed, when it hoisted
  Value *condition = conditions.front();
  LLVMContext &context = header->getContext();
  for (BasicBlock *block : loop.blocks())
    if (auto *branch = dyn_cast<BranchInst>(block->getTerminator());
        branch && branch->isConditional() && branch->getCondition() == condition) {
      branch->setCondition(ConstantInt::getFalse(context));
      cast<BranchInst>(map[branch])->setCondition(ConstantInt::getTrue(context));
    }
  preheader->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(map[header]), header, condition, preheader);
  return true;
}

// Cuts each innermost loop over lanes at its points, then versions it and
// its pieces on their conditions the same for every trip.
struct CutLaneLoops : PassInfoMixin<CutLaneLoops> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    // A loop is cut at most once, and its pieces not again; each is put in
    // LLVM's simple and loop-closed forms before it changes.
    SmallPtrSet<BasicBlock *, 8> cut;
    bool tidied = false;
    bool changed = change_lane_loops(function, analyses, [&](Loop &loop) {
      if (!loop.isInnermost()) return false;
      auto &loops = analyses.getResult<LoopAnalysis>(function);
      auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
      auto &scalars = analyses.getResult<ScalarEvolutionAnalysis>(function);
      tidied |= simplifyLoop(&loop, &dominators, &loops, &scalars, nullptr, nullptr, false);
      tidied |= formLCSSA(loop, dominators, &loops, &scalars);
      return (cut.insert(loop.getHeader()).second && cut_at_points(loop, scalars, cut)) ||
             version_on_condition(loop);
    });
    return changed || tidied ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

}  // namespace

void add_lane_point_pass(FunctionPassManager &passes) { passes.addPass(CutLaneLoops()); }

}  // namespace gpusym_fast_form
