// What the parts of the fast form's pass plugin share: fast_form.cpp makes
// the fast forms; divergence.cpp tells which values may differ between a
// block's lanes; stretch_loops.cpp makes the fast form of a kernel whose
// lanes reach their barriers alike, a loop over the lanes between each two.
#pragma once

#include <optional>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace gpusym_fast_form {

using namespace llvm;

// Byte offsets of a lane's fields (gpusym/lane.h, checked by the runtime).
constexpr int64_t kThreadIdx = 0, kBlockIdx = 12, kFlatThread = 56, kLaneSize = 72;
// The attribute of a kernel's fast form.
constexpr const char *kFastAttribute = "gpusym-fast-form";
constexpr const char *kLanesMemory = "__gpusym_fast_lanes_memory";  // (bytes): the block's per-lane memory
// (calls, gone, lanes): every lane of the block at one warp function, in
// the structured fast form.
constexpr const char *kFastWarp = "__gpusym_fast_warp";
constexpr const char *kWaveSize = "__gpusym_fast_wave_size";  // (): the running kernel's lanes a wavefront
// A lane waiting at a divergent step keeps the step's number in a byte,
// with kNextRound set while it waits for the next round.
constexpr unsigned kNextRound = 0x80;
constexpr size_t kMaxWaitsWithDivergentSteps = kNextRound - 1;

// A do-while loop from 0 to `count` around [body_begin, body_end): returns
// the counter; `body_end` then branches to the latch, which goes on to
// `after`.
struct LaneCounter {
  PHINode *counter;
  BasicBlock *latch;
};

LaneCounter make_loop(Function &fast, BasicBlock *preheader, BasicBlock *body, Value *count, const char *name);
// The flat index of the lane at (x, y, z) in a block of dim_x × dim_y × any.
Value *flat_index(IRBuilder<> &builder, Value *x, Value *y, Value *z, Value *dim_x, Value *dim_y);

// A kernel's clone for its fast form, before its lanes' loops: a new entry
// block holds the kernel's allocas and a copy of the lane, which the loads
// of the lane's pointer now name; each trip of the loops writes the copy's
// coordinates, and SROA then turns its fields into the loops' counters and
// values read once before them.
struct Clone {
  Function *fast;
  BasicBlock *entry;  // ends with a branch to `body`
  BasicBlock *body;   // the kernel's first block
  AllocaInst *copy;
  Value *dim_x, *dim_y, *dim_z;
};

// A lane's call of a warp function: its operands, stored in the lane's
// call (Barriers::call) before it waits, and the load of its result there
// after.
struct WarpCall {
  Value *op = nullptr, *value = nullptr, *arg = nullptr, *width = nullptr;
  SmallVector<StoreInst *, 4> stores;
  LoadInst *result = nullptr;
};

// A shuffle whose operation and width are constants, in the structured fast
// form (make_direct_shuffles): each lane's value, and its argument unless
// that is a constant, go into per-lane arrays before the wavefront meets;
// at the meeting, a loop over the block's lanes writes each one's result
// into a third, which the lane reads after.
struct DirectShuffle {
  uint32_t op = 0;
  int32_t width = 0;
  AllocaInst *value = nullptr, *result = nullptr, *arg = nullptr;
  Value *constant_arg = nullptr;  // the argument, when arg is null
};

// Where a clone's lanes wait (at a barrier, a step or a warp function):
// each wait block, its call gone, holds only a branch to the block the lane
// resumes at.
struct Barriers {
  SmallVector<BasicBlock *, 8> waits;    // the Kth barrier's or step's block is waits[K-1]
  SmallVector<BasicBlock *, 8> resumes;  // where a lane goes on after it
  SmallVector<unsigned, 8> kinds;        // what waits there: a barrier, a step or a warp function
  SmallVector<WarpCall, 8> calls;        // at a warp function, its call (else empty)
  SmallVector<DirectShuffle, 8> shuffles;  // at a direct shuffle, its arrays (else empty)
  SmallPtrSet<AllocaInst *, 8> lane_arrays;  // the direct shuffles' arrays: always one element a lane
  SmallPtrSet<BasicBlock *, 8> blocks;   // the waits, as a set
  AllocaInst *call = nullptr;            // a lane's call of a warp function (WaveCall), if any
};

enum WaitKind : unsigned { kAtBarrier, kAtStep, kAtWarpFunction };

void erase_lifetime_markers(AllocaInst &alloca);

// The allocas whose memory crosses a barrier, each now one array of the
// block's memory (the lanes' elements side by side).
struct PerLane {
  ArrayRef<AllocaInst *> allocas;
  ArrayRef<uint64_t> offsets, sizes;  // each array's start (per lane of the block) and element size
  Value *memory, *lanes;              // the block's memory and its count of lanes (i64)

  // Lane `lane`'s element of the ith array.
  Value *pointer(IRBuilder<> &builder, size_t i, Value *lane) const {
    Value *at = builder.CreateAdd(builder.CreateMul(lanes, builder.getInt64(offsets[i])),
                                  builder.CreateMul(lane, builder.getInt64(sizes[i])));
    return builder.CreateInBoundsGEP(builder.getInt8Ty(), memory, at, allocas[i]->getName() + ".lane");
  }
};

// Copies of `blocks` in their function, named with `suffix`, using each
// other's values and those `map` names (which gets the copies).
SmallVector<BasicBlock *, 16> clone_blocks(ArrayRef<BasicBlock *> blocks, ValueToValueMapTy &map, const Twine &suffix);

// Copies of `loop`'s blocks, as clone_blocks makes them, beside it: its
// exit's phis take the copies' values from the copies' edges.  None when
// the loop has no preheader, no single exit that only it reaches, or a
// value used outside it but by those phis.
std::optional<SmallVector<BasicBlock *, 16>> copy_loop(Loop &loop, ValueToValueMapTy &map, const Twine &suffix);

// The blocks a lane runs from `start` to its next wait or return: each
// wait block is one (its lane stops there), its resume block is not.
SmallVector<BasicBlock *, 16> region_blocks(BasicBlock *start, const Barriers &barriers);

// divergence.cpp
// Kernels whose barriers every lane reaches in the same order (barriers in
// straight code, in loops and in branches whose conditions are the same for
// every lane, as most kernels have them; lanes may return early) get a
// simpler fast form: the kernel's own control flow between its barriers,
// run once for the block, with each stretch from a barrier to the next as
// one loop over the block's lanes (pocl's and AdaptiveCpp's form).  Values
// the same for every lane are kept across a barrier in one variable, which
// LLVM then keeps in a register; the loops hold no lane's state, so LLVM's
// vectoriser can work on them.

// The values of `clone` that may differ between the lanes of a block, and
// whether every lane that goes on from a stretch between barriers stops at
// the same barrier next (barriers_uniform).
struct Uniformity {
  SmallPtrSet<Value *, 32> varying;
  bool barriers_uniform = true;
  // Steps only some lanes reach, between a varying branch and where its
  // ways meet again: each a meeting of the lanes there, the others waiting
  // at the next barrier meanwhile.
  SmallPtrSet<BasicBlock *, 8> divergent_steps;
};
// Whether `load` reads a field of the lane's copy that differs between
// lanes (threadIdx, the flat thread index and the lane's state), or reads
// it at an offset not known.
bool reads_lane_coordinates(LoadInst *load, const Clone &clone);

// A forward walk of `function`'s blocks from `starts`, not into `outside`
// and not past a block of `stops` (which it includes).
SmallPtrSet<BasicBlock *, 32> walk(ArrayRef<BasicBlock *> starts, const SmallPtrSetImpl<BasicBlock *> &outside,
                                   const SmallPtrSetImpl<BasicBlock *> &stops);

Uniformity analyse_uniformity(const Clone &clone, const Barriers &barriers);

// stretch_loops.cpp
// Makes the stretches' loops over the lanes; false for a kernel whose
// stretches it cannot build (code it leaves behind still uses the kernel's
// own blocks, which it would erase).  `needs_states` is set when the
// lanes' bytes (`gone` and the steps' after it, all 0 at the start) are
// written (a lane returned, or waits at a step) or read by the runtime's
// warp functions; else the form reads none.
bool make_uniform_region_loops(const Clone &clone, const Barriers &barriers, const PerLane &lane_values,
                               ArrayRef<AllocaInst *> scalars, const DenseMap<AllocaInst *, AllocaInst *> &kept,
                               const Uniformity &uniformity, Value *gone, Value *calls, bool &needs_states);
// Makes the shuffles of a structured form whose operation and width are
// constants direct ones (DirectShuffle), their results varying values.
void make_direct_shuffles(Barriers &barriers, BasicBlock *entry, SmallPtrSetImpl<Value *> &varying);

// stride_loops.cpp
// Makes each grid- or block-stride loop of `clone` (`for (i = base +
// threadIdx.x; i < n; i += stride)`, base, n and stride the same for the
// block) a loop the block runs, a barrier before each trip, each trip the
// lanes' iterations together: how many there were (at most 16).
unsigned run_stride_loops_by_block(const Clone &clone);

// lane_ranges.cpp
// Marks the loop whose latch ends with `latch_branch` as a loop over lanes.
void mark_lane_loop(BranchInst &latch_branch);
// Makes that loop one no longer over lanes, its other properties kept.
void unmark_lane_loop(BranchInst &latch_branch);
// Makes it a loop running one lane, a point's (lane_points.cpp), no longer
// one over lanes.
void mark_point_piece(BranchInst &latch_branch);
bool is_point_piece(const Loop &loop);
// Gives that loop a loop ID of its own with `property` (llvm.loop.*) added.
void add_loop_property(BranchInst &latch_branch, Metadata *property);
bool is_lane_loop(const Loop &loop);
// Calls `change` on `function`'s loops over lanes, outer ones first, until
// it changes none: after each change the analyses are made again (the
// function's blocks may have changed) and the calls start over.
bool change_lane_loops(Function &function, FunctionAnalysisManager &analyses, function_ref<bool(Loop &)> change);
// The passes that run each loop over lanes over the range of lanes its
// guards let in (then two versions of it: ranged and as before) and cut
// it at the lanes its equality tests single out, for a pipeline before the
// loop vectoriser.
void add_lane_range_passes(FunctionPassManager &passes);

// memory_spaces.cpp
// Marks a fast form's loads and stores with the memory they reach (shared,
// a kernel's argument, the per-lane arrays), which cannot overlap.
struct MarkMemorySpaces : PassInfoMixin<MarkMemorySpaces> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses);
};
// Whether `pointer` points into device memory on every path: a kernel's
// argument or a __device__ variable.
bool global_pointer(const Value *pointer);

// lane_streams.cpp
// The pass that splits a fast form's straight loop over lanes going
// through device memory in several streams into one loop per stream, for
// a pipeline after the loop vectoriser.
void add_lane_stream_pass(FunctionPassManager &passes);

// next_block_prefetch.cpp
// The pass that makes a fast form's loads of device memory whose address
// moves with blockIdx.x prefetch the next block's, for a pipeline after
// the loop vectoriser.
void add_next_block_prefetch_pass(FunctionPassManager &passes);

// lane_points.cpp
// The pass that cuts each innermost loop over lanes into pieces at the
// lanes its equality tests single out (the tests then constants in each).
void add_lane_point_pass(FunctionPassManager &passes);

}  // namespace gpusym_fast_form
