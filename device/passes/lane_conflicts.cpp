// Whether one lane of a wavefront may read what another lane of it stored
// (lane_conflicts.h).
//
// An address is a base pointer and a byte offset, a polynomial modulo 2^64
// over atoms: threadIdx.x, and values every lane shares (a kernel's
// arguments, blockIdx, blockDim, gridDim, and what is computed from them,
// a loop's counter among them).  An i32 operation flagged nsw (nuw) is
// sign- (zero-) extended operand by operand: if it overflowed, its result
// is poison and the access through it undefined.
//
// With the load at A(x) = a·x + a0 and the store at B(x) = a·x + b0 (the
// same coefficient of x), two lanes x1 and x2 of a wavefront give
// A(x1) - B(x2) = a·(x1 - x2) + (a0 - b0), with |x1 - x2| < 64 (0 for lanes
// of a two- or three-dimensional block sharing an x).  When a and a0 - b0
// are constants every difference is tried.  When they are m·u and n·u for
// one shared atom u below 2^32 in magnitude (Blelloch's scan: the load at
// offset·(2x + 2) - 1, the store at offset·(2x + 1) - 1, so m = 2, n = 1),
// the difference is u·(m·d + n) exactly: as large as m·d + n at least,
// unless u is 0, which the load itself rules out when it would then be
// outside its object.
#include "lane_conflicts.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "shared_memory.h"

namespace gpusym_passes {

namespace {

constexpr int64_t kWaveLanes = 64;  // the widest wavefront
// Byte offsets in struct gpusym_lane (gpusym/lane.h): threadIdx.x, then
// the fields every lane of a block shares (blockIdx to the dispatch).
constexpr int64_t kThreadX = 0, kSharedFields = 12, kFlatThread = 56;
constexpr unsigned kMaxDepth = 16, kMaxTerms = 16, kMaxDegree = 3;
constexpr int64_t kMaxFactor = int64_t(1) << 24;  // m and n, so that u·(m·d + n) stays below 2^63

enum Extension { kNone, kSigned, kUnsigned };

// A factor of a term: a value widened to 64 bits, or a field of the lane
// (any read of it: they are all below 2^31, so widened either way alike).
struct Atom {
  const Value *value;  // null for a field
  int64_t field;
  Extension extension;
  auto key() const { return std::make_tuple(value, field, int(extension)); }
  bool operator<(const Atom &other) const { return key() < other.key(); }
  bool operator==(const Atom &other) const { return key() == other.key(); }
};

using Term = SmallVector<Atom, 2>;            // its atoms in order; none for the constant
using Polynomial = std::map<Term, uint64_t>;  // each term's coefficient, modulo 2^64

const Atom kThreadXAtom{nullptr, kThreadX, kNone};

void add(Polynomial &sum, const Polynomial &other, uint64_t times = 1) {
  for (const auto &[term, coefficient] : other)
    if (uint64_t result = sum[term] += coefficient * times; result == 0) sum.erase(term);
}

std::optional<Polynomial> product(const Polynomial &left, const Polynomial &right) {
  Polynomial result;
  for (const auto &[left_term, left_coefficient] : left)
    for (const auto &[right_term, right_coefficient] : right) {
      Term term(left_term);
      term.append(right_term.begin(), right_term.end());
      if (term.size() > kMaxDegree) return std::nullopt;
      llvm::sort(term);
      add(result, Polynomial{{term, left_coefficient * right_coefficient}});
    }
  return result;
}

Polynomial constant(uint64_t value) { return value ? Polynomial{{Term{}, value}} : Polynomial{}; }

// Whether `pointer` is the running lane's: loaded from the thread-local
// __gpusym_lane, or a phi of such loads (a loop reloading it).
bool lane_pointer(const Value *pointer, unsigned depth = 0) {
  if (const auto *phi = dyn_cast<PHINode>(pointer))
    return depth < 4 && all_of(phi->incoming_values(), [&](const Value *incoming) {
             return incoming == phi || lane_pointer(incoming, depth + 1);
           });
  const auto *load = dyn_cast<LoadInst>(pointer);
  return load && lane_variable_address(load->getPointerOperand());
}

// The field of the running lane that `value` reads, if it is such a read:
// an i32 loaded from the lane's pointer.
std::optional<int64_t> lane_field(const Value *value) {
  const auto *load = dyn_cast<LoadInst>(value);
  if (!load || !load->getType()->isIntegerTy(32)) return std::nullopt;
  APInt offset(64, 0);
  const Value *lane = load->getPointerOperand()->stripAndAccumulateConstantOffsets(load->getDataLayout(), offset, true);
  if (!lane_pointer(lane)) return std::nullopt;
  return offset.getSExtValue();
}

// `value`, an integer, widened to 64 bits as `extension` says, as a
// polynomial; none past the limits on size.
std::optional<Polynomial> polynomial(const Value *value, Extension extension, unsigned depth = 0) {
  unsigned width = value->getType()->getIntegerBitWidth();
  if (width > 64) return std::nullopt;
  if (width == 64) extension = kNone;
  if (const auto *integer = dyn_cast<ConstantInt>(value))
    return constant(extension == kUnsigned ? integer->getValue().zext(64).getZExtValue()
                                           : integer->getValue().sext(64).getZExtValue());
  const auto *op = dyn_cast<Operator>(value);
  if (op && depth < kMaxDepth) {
    // Whether the operation, widened operand by operand, gives the same.
    auto exact = [&] {
      if (extension == kNone) return true;
      const auto *flagged = dyn_cast<OverflowingBinaryOperator>(op);
      return flagged && (extension == kSigned ? flagged->hasNoSignedWrap() : flagged->hasNoUnsignedWrap());
    };
    auto operand = [&](unsigned i) { return polynomial(op->getOperand(i), extension, depth + 1); };
    switch (op->getOpcode()) {
      case Instruction::Or:  // with no bit in common, an add that never carries, signed or not
        if (const auto *disjoint = dyn_cast<PossiblyDisjointInst>(op); !disjoint || !disjoint->isDisjoint()) break;
        [[fallthrough]];
      case Instruction::Add:
      case Instruction::Sub:
        if (op->getOpcode() == Instruction::Or || exact()) {
          auto left = operand(0), right = operand(1);
          if (!left || !right) return std::nullopt;
          add(*left, *right, op->getOpcode() == Instruction::Sub ? ~uint64_t(0) : 1);
          if (left->size() > kMaxTerms) return std::nullopt;
          return left;
        }
        break;
      case Instruction::Mul:
        if (exact()) {
          auto left = operand(0), right = operand(1);
          if (!left || !right) return std::nullopt;
          auto result = product(*left, *right);
          if (!result || result->size() > kMaxTerms) return std::nullopt;
          return result;
        }
        break;
      case Instruction::Shl:
        if (const auto *shift = dyn_cast<ConstantInt>(op->getOperand(1)); shift && shift->getZExtValue() < width && exact()) {
          auto left = operand(0);
          if (!left) return std::nullopt;
          Polynomial result;
          add(result, *left, uint64_t(1) << shift->getZExtValue());
          return result;
        }
        break;
      case Instruction::SExt:
        if (extension != kUnsigned) return polynomial(op->getOperand(0), kSigned, depth + 1);
        break;
      case Instruction::ZExt:  // not negative in its width, so widened either way alike
        return polynomial(op->getOperand(0), kUnsigned, depth + 1);
      default:
        break;
    }
  }
  if (auto field = lane_field(value)) return Polynomial{{Term{Atom{nullptr, *field, kNone}}, 1}};
  return Polynomial{{Term{Atom{value, 0, extension}}, 1}};
}

// A pointer as a base and a byte offset from it: the base a __shared__
// variable (for every reference to it), or the pointer the GEPs start from.
struct Address {
  const Value *base;
  Polynomial offset;
};

std::optional<Address> address(const Value *pointer, const DataLayout &layout) {
  Address result{nullptr, {}};
  for (unsigned depth = 0; const auto *gep = dyn_cast<GEPOperator>(pointer); ++depth) {
    if (depth == kMaxDepth || gep->getType()->isVectorTy()) return std::nullopt;
    for (auto step = gep_type_begin(gep), end = gep_type_end(gep); step != end; ++step) {
      if (StructType *record = step.getStructTypeOrNull()) {
        uint64_t field = cast<ConstantInt>(step.getOperand())->getZExtValue();
        add(result.offset, constant(layout.getStructLayout(record)->getElementOffset(field)));
        continue;
      }
      auto index = polynomial(step.getOperand(), kSigned);
      if (!index) return std::nullopt;
      add(result.offset, *index, step.getSequentialElementStride(layout));
      if (result.offset.size() > kMaxTerms) return std::nullopt;
    }
    pointer = gep->getPointerOperand();
  }
  pointer = pointer->stripPointerCasts();
  if (const auto *intrinsic = dyn_cast<IntrinsicInst>(pointer);
      intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
    pointer = intrinsic->getArgOperand(0)->stripPointerCasts();
  result.base = pointer;
  return result;
}

// Whether every lane leaves `loop` after the same trip: every trip runs a
// barrier (its block dominates the loop's latch), which every lane of the
// block reaches as often.
bool same_trips(const Loop &loop, const DominatorTree &tree) {
  const BasicBlock *latch = loop.getLoopLatch();
  if (!latch) return false;
  for (const BasicBlock *block : loop.blocks())
    if (tree.dominates(block, latch) && any_of(*block, [](const Instruction &inst) { return is_barrier(inst); }))
      return true;
  return false;
}

// Whether `value` is the same for every lane of a wavefront wherever it
// is used in `blocks`: a constant, a kernel's argument, a field the lanes
// of a block share, or an instruction of such operands that reads no
// memory.  One in a loop that leaves out one of `blocks` must be in loops
// every lane leaves after the same trip.  A phi may be a loop's counter
// (one value entering the loop, one coming back), or join one value for
// each way of a branch that tests a value every lane shares.
bool uniform(const Value *value, ArrayRef<const BasicBlock *> blocks, const LaneOrder &order,
             SmallPtrSetImpl<const Value *> &assumed, unsigned depth = 0) {
  if (isa<Constant>(value)) return true;
  if (const auto *argument = dyn_cast<Argument>(value)) return is_kernel(*argument->getParent());
  if (auto field = lane_field(value)) return *field >= kSharedFields && *field < kFlatThread;
  const auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth == kMaxDepth) return false;
  const LoopInfo &loops = order.loops;
  for (const Loop *loop = loops.getLoopFor(inst->getParent()); loop; loop = loop->getParentLoop()) {
    bool around = all_of(blocks, [&](const BasicBlock *block) { return loop->contains(block); });
    if (around) break;
    if (!same_trips(*loop, order.tree)) return false;
  }
  if (!assumed.insert(inst).second) return true;  // a loop's counter, uniform if the rest is
  if (const auto *phi = dyn_cast<PHINode>(inst)) {
    const BasicBlock *join = phi->getParent();
    const Loop *loop = loops.getLoopFor(join);
    // The values that may come in, in two groups: entering a loop and
    // coming back; else by the way a branch of a value every lane shares
    // sends lanes to the join, from its immediate dominator.
    const BasicBlock *top = nullptr;
    if (!loop || loop->getHeader() != join) {
      const DomTreeNode *node = order.tree.getNode(join);
      top = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      const auto *branch = top ? dyn_cast<BranchInst>(top->getTerminator()) : nullptr;
      if (!branch || !branch->isConditional() ||
          !uniform(branch->getCondition(), {top}, order, assumed, depth + 1))
        top = nullptr;
    }
    const Value *groups[2] = {nullptr, nullptr};
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      const BasicBlock *from = phi->getIncomingBlock(i);
      int group = 0;
      if (loop && loop->getHeader() == join) {
        group = loop->contains(from);
      } else if (top) {
        const BasicBlock *ways[] = {top->getTerminator()->getSuccessor(0), top->getTerminator()->getSuccessor(1)};
        if (ways[0] == ways[1]) return false;
        auto took = [&](int way) { return from == top ? ways[way] == join : order.tree.dominates(ways[way], from); };
        if (took(0) == took(1)) return false;
        group = took(1);
      }
      const Value *&seen = groups[group];
      if (seen && seen != phi->getIncomingValue(i)) return false;
      seen = phi->getIncomingValue(i);
    }
    for (const Value *incoming : groups)
      if (incoming && !uniform(incoming, blocks, order, assumed, depth + 1)) return false;
    return true;
  }
  if (inst->mayReadOrWriteMemory() || inst->mayHaveSideEffects() ||
      !(isa<BinaryOperator>(inst) || isa<CastInst>(inst) || isa<CmpInst>(inst) || isa<SelectInst>(inst) ||
        isa<GetElementPtrInst>(inst)))
    return false;
  for (const Value *operand : inst->operands())
    if (!uniform(operand, blocks, order, assumed, depth + 1)) return false;
  return true;
}

// An offset split by threadIdx.x: offset = per_x·x + rest.  None when x
// comes in more than once in a term, or another coordinate of the lane
// (threadIdx.y or .z, the flat index) or a value not uniform comes in.
struct Split {
  Polynomial per_x, rest;
};

std::optional<Split> split(const Polynomial &offset, ArrayRef<const BasicBlock *> blocks, const LaneOrder &order) {
  Split result;
  for (const auto &[term, coefficient] : offset) {
    Term others;
    unsigned xs = 0;
    for (const Atom &atom : term) {
      if (atom == kThreadXAtom) {
        ++xs;
        continue;
      }
      SmallPtrSet<const Value *, 8> assumed;
      bool shared = atom.value ? uniform(atom.value, blocks, order, assumed)
                               : atom.field >= kSharedFields && atom.field < kFlatThread;
      if (!shared) return std::nullopt;
      others.push_back(atom);
    }
    if (xs > 1) return std::nullopt;
    (xs ? result.per_x : result.rest)[others] = coefficient;
  }
  return result;
}

// Whether [difference, difference + load) and [0, store) overlap.
bool overlap(int64_t difference, uint64_t store, uint64_t load) {
  return difference < int64_t(store) && difference > -int64_t(load);
}

// The bytes of the object `base` points to the start of, if known: a
// __shared__ variable's (its address is its own for every lane); 0 for an
// unsized one (extern __shared__) or another pointer.
std::optional<uint64_t> object_size(const Value *base) {
  const auto *global = dyn_cast<GlobalVariable>(base);
  if (!global || !global->isThreadLocal() || !shared_pointer(global)) return std::nullopt;
  return global->getDataLayout().getTypeAllocSize(global->getValueType()).getFixedValue();
}

// Whether, with `atom` 0, the load at `offset` would fall outside the
// object at `base`: then the atom is not 0 wherever the load runs.
bool zero_is_outside(const Atom &atom, const Polynomial &offset, uint64_t size, const Value *base) {
  auto known = object_size(base);
  if (!known) return false;
  int64_t rest = 0;
  for (const auto &[term, coefficient] : offset) {
    if (llvm::is_contained(term, atom)) continue;
    if (!term.empty()) return false;
    rest = int64_t(coefficient);
  }
  return rest < 0 || (*known > 0 && rest > int64_t(*known) - int64_t(size));
}

// The one atom, below 2^32 in magnitude, of which every term of `per_x`
// and `difference` is a multiple, and those multiples.
struct Multiples {
  Atom atom;
  int64_t of_per_x = 0, of_difference = 0;
};

std::optional<Multiples> multiples(const Polynomial &per_x, const Polynomial &difference) {
  std::optional<Multiples> result;
  for (const auto *polynomial : {&per_x, &difference})
    for (const auto &[term, coefficient] : *polynomial) {
      if (term.size() != 1) return std::nullopt;
      const Atom &atom = term.front();
      bool narrow = !atom.value || (atom.extension != kNone && atom.value->getType()->getIntegerBitWidth() <= 32);
      if (!narrow || (result && !(result->atom == atom))) return std::nullopt;
      if (!result) result = Multiples{atom};
      (polynomial == &per_x ? result->of_per_x : result->of_difference) = int64_t(coefficient);
    }
  if (!result || std::abs(result->of_per_x) >= kMaxFactor || std::abs(result->of_difference) >= kMaxFactor)
    return std::nullopt;
  return result;
}

}  // namespace

bool other_lane_may_write(const Access &store, const Access &load, const LaneOrder &order) {
  const DataLayout &layout = load.block->getModule()->getDataLayout();
  auto to = address(load.pointer, layout), from = address(store.pointer, layout);
  if (!to || !from) return true;
  if (to->base != from->base) {
    // Two __shared__ variables never overlap.
    return !(object_size(to->base) && object_size(from->base));
  }
  const BasicBlock *blocks[] = {store.block, load.block};
  SmallPtrSet<const Value *, 8> assumed;
  if (!uniform(to->base, blocks, order, assumed)) return true;
  auto loaded = split(to->offset, blocks, order), stored = split(from->offset, blocks, order);
  if (!loaded || !stored || loaded->per_x != stored->per_x) return true;
  Polynomial difference = loaded->rest;
  add(difference, stored->rest, ~uint64_t(0));
  const Polynomial &per_x = loaded->per_x;
  auto constant_of = [](const Polynomial &polynomial) -> std::optional<uint64_t> {
    if (polynomial.empty()) return 0;
    if (polynomial.size() == 1 && polynomial.begin()->first.empty()) return polynomial.begin()->second;
    return std::nullopt;
  };
  if (auto a = constant_of(per_x), d = constant_of(difference); a && d) {
    for (int64_t lanes = -(kWaveLanes - 1); lanes < kWaveLanes; ++lanes)
      if (overlap(int64_t(*a * uint64_t(lanes) + *d), store.size, load.size)) return true;
    return false;
  }
  auto factors = multiples(per_x, difference);
  if (!factors || !zero_is_outside(factors->atom, to->offset, load.size, to->base)) return true;
  // u·(m·d + n), with u not 0, is at least m·d + n in magnitude.
  for (int64_t lanes = -(kWaveLanes - 1); lanes < kWaveLanes; ++lanes) {
    int64_t times = factors->of_per_x * lanes + factors->of_difference;
    if (std::abs(times) < int64_t(std::max(store.size, load.size))) return true;
  }
  return false;
}

}  // namespace gpusym_passes
