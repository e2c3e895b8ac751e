// A fast form's loads of device memory fetch early what the same load reads
// in the block a worker runs next.
//
// A worker runs a dispatch's blocks in runs of consecutive ones, the x
// index first, and a tiled kernel's block reads a few values of each of
// many rows: a 16x16 stencil tile and its halo, 18 rows of one cache line.
// Each block then touches one new line of each row (the right halo's,
// which the next block reads as its tile), too many streams, too far
// apart in time, for the CPU's prefetchers to follow: in the stencil the
// loads of those lines took a fifth of the kernel's time.
//
// Each load of device memory whose address moves with blockIdx.x gets,
// just before it, a prefetch of its address worked out with blockIdx.x +
// 1, when the two are a known distance apart (a tile's width, a constant).
// Only loads off the lanes' streams, which the prefetchers follow: those
// of a point's piece of a loop over lanes, or of a loop of the kernel's
// own that they do not walk a line at a time.  Not when the next block's
// address is less than a line from one this block reads or prefetches
// already (the next column, a tile's first lane that is the last one's
// halo), nor when the address comes through a phi or from memory (the one
// for the next block is not known).  A prefetch never faults: an address
// past the grid's edge, or past the buffer's end, costs nothing more.  It
// runs last, on the loops the vectoriser made.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "fast_form.h"
#include "shared_memory.h"

namespace gpusym_fast_form {

namespace {

constexpr int64_t kCacheLine = 64;
constexpr unsigned kMaxDepth = 12;  // instructions from blockIdx.x to an address

// Whether `load` reads the running lane's blockIdx.x: an i32 at
// kBlockIdx of the lane the lane variable points to.
bool loads_block_x(const LoadInst &load) {
  if (!load.getType()->isIntegerTy(32)) return false;
  int64_t offset = 0;
  const Value *base = GetPointerBaseWithConstantOffset(load.getPointerOperand(), offset, load.getDataLayout());
  const auto *lane = dyn_cast<LoadInst>(base);
  return offset == kBlockIdx && lane && gpusym_passes::lane_variable_address(lane->getPointerOperand());
}

// `value` as it is in the next block: a copy of the pure instructions
// (arithmetic, casts, address arithmetic, selects, freezes, minima and
// maxima) between blockIdx.x and it, placed after each original, with
// blockIdx.x + 1; `value` itself when it does not depend on blockIdx.x, or
// a phi, a load or a call is in the way.  `next` holds the copies made so
// far.  The copies keep their flags, for ScalarEvolution to see through
// their extensions: an address past its object is then poison, which only
// makes the prefetch worthless.
Value *in_next_block(Value *value, DenseMap<Value *, Value *> &next, unsigned depth = 0) {
  if (auto found = next.find(value); found != next.end()) return found->second;
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth > kMaxDepth || isa<PHINode>(inst) || inst->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(inst) || (isa<CallBase>(inst) && !isa<MinMaxIntrinsic>(inst)))
    return value;
  SmallVector<Value *, 4> operands;
  bool moves = false;
  for (Value *operand : inst->operands()) {
    operands.push_back(in_next_block(operand, next, depth + 1));
    moves |= operands.back() != operand;
  }
  Value *result = value;
  if (moves) {
    Instruction *copy = inst->clone();
    for (auto [index, operand] : enumerate(operands)) copy->setOperand(index, operand);
    copy->setName(inst->getName() + ".next");
    copy->insertAfter(inst);
    result = copy;
  }
  next[value] = result;
  return result;
}

// An address as a constant and a sum of terms each with its factor:
// extensions and truncations are looked through, as if they never wrapped,
// and so are freezes (the answer only chooses where to prefetch); a loop's
// recurrence is its first value and a term of its steps, or its first
// value alone in a point's piece of a loop over lanes, which runs one trip
// (lane_points.cpp).
struct Linear {
  int64_t constant = 0;
  SmallDenseMap<const SCEV *, int64_t, 4> terms;
};

void add_term(Linear &sum, const SCEV *term, int64_t factor) {
  if ((sum.terms[term] += factor) == 0) sum.terms.erase(term);
}

void add_to(Linear &sum, const SCEV *expr, int64_t factor, ScalarEvolution &scalars) {
  if (const auto *number = dyn_cast<SCEVConstant>(expr)) {
    sum.constant += factor * number->getAPInt().getSExtValue();
  } else if (const auto *extension = dyn_cast<SCEVCastExpr>(expr)) {
    add_to(sum, extension->getOperand(), factor, scalars);
  } else if (const auto *terms = dyn_cast<SCEVAddExpr>(expr)) {
    for (const SCEV *term : terms->operands()) add_to(sum, term, factor, scalars);
  } else if (const auto *product = dyn_cast<SCEVMulExpr>(expr);
             product && product->getNumOperands() == 2 && isa<SCEVConstant>(product->getOperand(0))) {
    int64_t scale = cast<SCEVConstant>(product->getOperand(0))->getAPInt().getSExtValue();
    add_to(sum, product->getOperand(1), factor * scale, scalars);
  } else if (const auto *unknown = dyn_cast<SCEVUnknown>(expr); unknown && isa<FreezeInst>(unknown->getValue())) {
    add_to(sum, scalars.getSCEV(cast<FreezeInst>(unknown->getValue())->getOperand(0)), factor, scalars);
  } else if (const auto *steps = dyn_cast<SCEVAddRecExpr>(expr); steps && steps->isAffine() &&
                                                                 !steps->getStart()->isZero()) {
    add_to(sum, steps->getStart(), factor, scalars);
    if (!is_point_piece(*steps->getLoop()))
      add_term(sum,
               scalars.getAddRecExpr(scalars.getZero(steps->getType()), steps->getStepRecurrence(scalars),
                                     steps->getLoop(), SCEV::FlagAnyWrap),
               factor);
  } else {
    add_term(sum, expr, factor);
  }
}

Linear linear(Value *address, ScalarEvolution &scalars) {
  Linear sum;
  add_to(sum, scalars.getSCEV(address), 1, scalars);
  return sum;
}

// How many bytes `a` is past `b`, when their terms are the same.
std::optional<int64_t> bytes_apart(const Linear &a, const Linear &b) {
  if (a.terms.size() != b.terms.size()) return std::nullopt;
  for (auto [term, factor] : a.terms)
    if (b.terms.lookup(term) != factor) return std::nullopt;
  return a.constant - b.constant;
}

// By how many bytes `address` moves from one trip of `loop` to the next,
// when it is known.
std::optional<int64_t> bytes_a_trip(const Linear &address, const Loop &loop, ScalarEvolution &scalars) {
  int64_t bytes = 0;
  for (auto [term, factor] : address.terms) {
    if (scalars.isLoopInvariant(term, &loop)) continue;
    const auto *steps = dyn_cast<SCEVAddRecExpr>(term);
    const auto *step = steps && steps->getLoop() == &loop ? dyn_cast<SCEVConstant>(steps->getStepRecurrence(scalars))
                                                          : nullptr;
    if (!step) return std::nullopt;
    bytes += factor * step->getAPInt().getSExtValue();
  }
  return bytes;
}

// Whether `load` may read lines its block's lanes do not stream through:
// it is in a point's piece of a loop over lanes (lane_points.cpp), one
// lane's value a trip of the loops around it, or in a loop of the kernel's
// own, along which it does not walk a cache line at a time.  The loads of
// the loops over lanes, and of the code around their vector loops, walk
// the lanes' streams, which the CPU's prefetchers follow.
bool off_the_streams(LoadInst &load, LoopInfo &loops, ScalarEvolution &scalars) {
  Loop *loop = loops.getLoopFor(load.getParent());
  if (!loop || is_lane_loop(*loop)) return false;
  if (is_point_piece(*loop)) return true;
  std::optional<int64_t> step = bytes_a_trip(linear(load.getPointerOperand(), scalars), *loop, scalars);
  return !step || *step <= -kCacheLine || *step >= kCacheLine;
}

struct PrefetchNextBlock : PassInfoMixin<PrefetchNextBlock> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    if (!function.hasFnAttribute(kFastAttribute)) return PreservedAnalyses::all();
    DenseMap<Value *, Value *> next;
    for (Instruction &inst : instructions(function))
      if (auto *load = dyn_cast<LoadInst>(&inst); load && loads_block_x(*load)) {
        // A grid has fewer than 2^31 blocks in x: the next index wraps neither way.
        auto *plus_one = BinaryOperator::CreateAdd(load, ConstantInt::get(load->getType(), 1), "block.x.next");
        plus_one->setHasNoSignedWrap();
        plus_one->setHasNoUnsignedWrap();
        plus_one->insertAfter(load);
        next[load] = plus_one;
      }
    if (next.empty()) return PreservedAnalyses::all();
    auto &loops = analyses.getResult<LoopAnalysis>(function);
    auto &scalars = analyses.getResult<ScalarEvolutionAnalysis>(function);
    // The addresses this block reads, and those it prefetches: a next
    // block's address near one of them is on a line the block fetches
    // already (a tile's first lane, a block's width on, is its right halo;
    // the next block's own first lane is this one's).
    SmallVector<Linear, 32> fetched;
    for (Instruction &inst : instructions(function))
      if (auto *load = dyn_cast<LoadInst>(&inst); load && global_pointer(load->getPointerOperand()))
        fetched.push_back(linear(load->getPointerOperand(), scalars));
    SmallVector<std::pair<LoadInst *, Value *>, 16> prefetches;
    for (Instruction &inst : instructions(function)) {
      auto *load = dyn_cast<LoadInst>(&inst);
      if (!load || !load->isSimple() || !global_pointer(load->getPointerOperand()) ||
          !off_the_streams(*load, loops, scalars))
        continue;
      Value *next_address = in_next_block(load->getPointerOperand(), next);
      if (next_address == load->getPointerOperand()) continue;
      Linear there = linear(next_address, scalars);
      if (!bytes_apart(there, linear(load->getPointerOperand(), scalars))) continue;  // how far, not known
      if (any_of(fetched, [&](const Linear &address) {
            std::optional<int64_t> bytes = bytes_apart(there, address);
            return bytes && *bytes > -kCacheLine && *bytes < kCacheLine;
          }))
        continue;
      prefetches.push_back({load, next_address});
      fetched.push_back(std::move(there));
    }
    for (auto [load, address] : prefetches) {
      IRBuilder<> builder(load);
      builder.CreateIntrinsic(Intrinsic::prefetch, {address->getType()},
                              {address, builder.getInt32(0), builder.getInt32(3), builder.getInt32(1)});
    }
    // The copies no prefetch uses, and blockIdx.x + 1 where none does.
    for (bool again = true; again;) {
      again = false;
      for (auto &[original, copy] : next)
        if (auto *made = dyn_cast<Instruction>(copy); made && made != original && made->use_empty()) {
          made->eraseFromParent();
          copy = original;
          again = true;
        }
    }
    return PreservedAnalyses::none();
  }
};

}  // namespace

void add_next_block_prefetch_pass(FunctionPassManager &passes) { passes.addPass(PrefetchNextBlock()); }

}  // namespace gpusym_fast_form
