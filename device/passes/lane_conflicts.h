// Whether one lane of a wavefront may read what another lane of it stored
// (lane_conflicts.cpp), for wave_lockstep.cpp: a load after a store with no
// lockstep step between them is safe when no two lanes' addresses overlap.
#pragma once

#include <cstdint>

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

namespace gpusym_passes {

using namespace llvm;

// An access to memory a lockstep step guards: where, how many bytes, and
// the block it is in.
struct Access {
  const Value *pointer;
  uint64_t size;
  const BasicBlock *block;
};

// A function with no irreducible cycles: its dominator tree and loops.
struct LaneOrder {
  const DominatorTree &tree;
  const LoopInfo &loops;
};

// Whether `load`, by one lane of a wavefront, may read bytes that `store`,
// by another lane of the wavefront, wrote before it in the same trip of
// every loop around them (no back edge lies between them).  True unless
// the two addresses are known: the same object at offsets that are
// polynomials in threadIdx.x and values every lane of the wavefront
// shares, which cannot overlap for two lanes whose threadIdx.x differ by
// less than a wavefront.
bool other_lane_may_write(const Access &store, const Access &load, const LaneOrder &order);

}  // namespace gpusym_passes
