// A loop over a block's lanes that goes through device memory in more than
// one stream runs as one loop per stream.
//
// GPU code written for coalesced accesses gives each thread several
// elements a block's width apart (`out[a] += s; out[a + 256] += s`).  A
// loop over the lanes then walks two streams side by side, each a few
// cache lines long before the next block's, which the CPU's prefetchers
// follow far worse than one long stream: a block of 256 threads adding to
// two elements each ran at half the speed of one of 512 adding to one.
// Each stream's stores, with what they are computed from, become a loop of
// their own, one after the other, so each walks its memory in order.
//
// A lane's own order stays as it was: a load or store that moves past a
// store of another loop must not overlap it (LLVM's alias analysis says
// so), for the same lane.  Other lanes' order may change, as it may on a
// GPU, where the threads of a block run in any order between barriers.
// It runs after the vectoriser, on its vector loops and the loops it
// left, and splits only straight loops (one block), without calls,
// atomics or volatile accesses, and whose values carried from trip to trip
// count the trips.
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"
#include "fast_form.h"

namespace gpusym_fast_form {

namespace {

constexpr size_t kMaxStreams = 4;
// Bytes: stores closer than two cache lines (which CPUs fetch in pairs)
// are one stream, as a tile's rows a few values apart are.
constexpr int64_t kSameStream = 128;

// The memory instructions of `body` (a loop's only block) in their order,
// or none when it has an instruction the split cannot move.
std::optional<SmallVector<Instruction *, 16>> memory_of(BasicBlock &body) {
  SmallVector<Instruction *, 16> memory;
  for (Instruction &inst : body) {
    if (auto *load = dyn_cast<LoadInst>(&inst)) {
      if (!load->isSimple()) return std::nullopt;
      memory.push_back(load);
    } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
      if (!store->isSimple()) return std::nullopt;
      memory.push_back(store);
    } else if (inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects()) {
      return std::nullopt;
    }
  }
  return memory;
}

// The streams of `stores`: the index of each one's stream.  Stores to
// addresses a known number of bytes apart, kSameStream or more, are in
// different streams (a thread's elements a block's width apart); any
// other two share one.  None when a store's address is the same for
// every trip.
std::optional<SmallVector<unsigned, 8>> streams_of(ArrayRef<StoreInst *> stores, Loop &loop,
                                                   ScalarEvolution &scalars) {
  SmallVector<unsigned, 8> stream_of;
  SmallVector<const SCEV *, 4> firsts;  // each stream's first address
  for (StoreInst *store : stores) {
    const SCEV *address = scalars.getSCEV(store->getPointerOperand());
    if (scalars.isLoopInvariant(address, &loop)) return std::nullopt;
    unsigned found = firsts.size();
    for (unsigned i = 0; i < firsts.size(); i++) {
      auto *apart = dyn_cast<SCEVConstant>(scalars.getMinusSCEV(address, firsts[i]));
      if (!apart || apart->getAPInt().abs().slt(kSameStream)) {
        found = i;
        break;
      }
    }
    if (found == firsts.size()) firsts.push_back(address);
    stream_of.push_back(found);
  }
  return stream_of;
}

// Marks with `stream`'s bit the instructions of `body` that `value` is
// computed from.
void mark_slice(Value *value, BasicBlock &body, unsigned stream, DenseMap<Instruction *, unsigned> &streams) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || inst->getParent() != &body || isa<PHINode>(inst)) return;
  unsigned &bits = streams[inst];
  if (bits & (1u << stream)) return;
  bits |= 1u << stream;
  for (Value *operand : inst->operands()) mark_slice(operand, body, stream, streams);
}

// Whether `phi`, in a loop's only block `body`, counts its trips: each
// trip's value is computed from the last one's alone (and values from
// before the loop), as a counter or the vectoriser's vector of counters
// is, so that every copy of the loop computes it alike.
bool counts_trips(PHINode &phi, BasicBlock &body) {
  SmallVector<Value *, 8> work{phi.getIncomingValueForBlock(&body)};
  SmallPtrSet<Value *, 8> seen;
  while (!work.empty()) {
    auto *inst = dyn_cast<Instruction>(work.pop_back_val());
    if (!inst || inst->getParent() != &body || inst == &phi || !seen.insert(inst).second) continue;
    if (isa<PHINode>(inst) || inst->mayReadOrWriteMemory()) return false;
    append_range(work, inst->operands());
  }
  return true;
}

// A loop ID of its own for a copy of the loop whose latch is `latch`,
// with the same marks (a loop over lanes, already vectorised).
MDNode *copy_loop_id(BasicBlock &latch) {
  MDNode *id = latch.getTerminator()->getMetadata(LLVMContext::MD_loop);
  SmallVector<Metadata *, 4> operands{nullptr};
  append_range(operands, drop_begin(id->operands()));
  MDNode *copy = MDNode::getDistinct(latch.getContext(), operands);
  copy->replaceOperandWith(0, copy);
  return copy;
}

// Splits `loop` into one loop per stream when it can; the loops' blocks go
// into `made`.
bool split_streams(Loop &loop, ScalarEvolution &scalars, AAResults &aliases, SmallPtrSetImpl<BasicBlock *> &made) {
  BasicBlock *body = loop.getHeader(), *before = loop.getLoopPredecessor(), *exit = loop.getExitBlock();
  if (loop.getNumBlocks() != 1 || !before || !exit || !loop.hasDedicatedExits() || isa<PHINode>(exit->front()))
    return false;
  for (PHINode &phi : body->phis())
    if (!counts_trips(phi, *body)) return false;
  for (Instruction &inst : *body)
    for (User *user : inst.users())
      if (cast<Instruction>(user)->getParent() != body) return false;
  std::optional<SmallVector<Instruction *, 16>> memory = memory_of(*body);
  if (!memory) return false;
  SmallVector<StoreInst *, 8> stores;
  for (Instruction *inst : *memory)
    if (auto *store = dyn_cast<StoreInst>(inst)) stores.push_back(store);
  if (stores.size() < 2) return false;
  std::optional<SmallVector<unsigned, 8>> stream_of = streams_of(stores, loop, scalars);
  if (!stream_of) return false;
  unsigned count = *std::max_element(stream_of->begin(), stream_of->end()) + 1;
  if (count < 2 || count > kMaxStreams) return false;
  // Each store's stream, and the streams each instruction is computed for.
  DenseMap<Instruction *, unsigned> streams;
  for (auto [store, stream] : zip(stores, *stream_of)) mark_slice(store, *body, stream, streams);
  // Only device memory gains: two streams of it at least.
  unsigned global = 0;
  for (Instruction *inst : *memory)
    if (global_pointer(getLoadStorePointerOperand(inst))) global |= streams.lookup(inst);
  if (llvm::popcount(global) < 2) return false;
  // The loops run stream 0 first: a lane's own accesses keep their order
  // but where one moves past a store of another stream, which it must not
  // overlap.
  DenseMap<Instruction *, unsigned> place;
  for (auto [i, inst] : enumerate(*memory)) place[inst] = i;
  for (Instruction *inst : *memory)
    for (auto [store, stream] : zip(stores, *stream_of)) {
      unsigned mine = streams.lookup(inst);
      for (unsigned other = 0; other < count; other++) {
        if (!(mine & (1u << other)) || other == stream) continue;
        bool earlier = place[inst] < place[store], runs_earlier = other < stream;
        if (earlier != runs_earlier && !aliases.isNoAlias(MemoryLocation::get(inst), MemoryLocation::get(store)))
          return false;
      }
    }

  // A copy of the loop for each stream after the first, each made before
  // any is linked, in turn after it; each keeps its stream's stores.
  SmallVector<BasicBlock *, 4> loops{body};
  for (unsigned stream = 1; stream < count; stream++) {
    ValueToValueMapTy map;
    BasicBlock *copy = clone_blocks({body}, map, ".stream" + Twine(stream)).front();
    copy->getTerminator()->setMetadata(LLVMContext::MD_loop, copy_loop_id(*body));
    for (auto [store, own] : zip(stores, *stream_of))
      if (own != stream) cast<Instruction>(map[store])->eraseFromParent();
    loops.push_back(copy);
  }
  for (unsigned stream = 1; stream < count; stream++) {
    BasicBlock *copy = loops[stream];
    BasicBlock *enter = BasicBlock::Create(body->getContext(), "lanes.stream", body->getParent(), copy);
    BranchInst::Create(copy, enter);
    loops[stream - 1]->getTerminator()->replaceSuccessorWith(exit, enter);
    for (PHINode &phi : copy->phis()) phi.replaceIncomingBlockWith(before, enter);
  }
  for (auto [store, own] : zip(stores, *stream_of))
    if (own != 0) store->eraseFromParent();
  for (BasicBlock *block : loops) {
    made.insert(block);
    for (bool again = true; again;) {
      again = false;
      for (Instruction &inst : make_early_inc_range(*block))
        if (isInstructionTriviallyDead(&inst)) {
          inst.eraseFromParent();
          again = true;
        }
    }
  }
  return true;
}

struct SplitLaneStreams : PassInfoMixin<SplitLaneStreams> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    if (!function.hasFnAttribute(kFastAttribute)) return PreservedAnalyses::all();
    SmallPtrSet<BasicBlock *, 8> tried;  // a loop is looked at once, and its copies not again
    bool changed = change_lane_loops(function, analyses, [&](Loop &loop) {
      if (!loop.isInnermost() || !tried.insert(loop.getHeader()).second) return false;
      auto &scalars = analyses.getResult<ScalarEvolutionAnalysis>(function);
      return split_streams(loop, scalars, analyses.getResult<AAManager>(function), tried);
    });
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

}  // namespace

void add_lane_stream_pass(FunctionPassManager &passes) { passes.addPass(SplitLaneStreams()); }

}  // namespace gpusym_fast_form
