// A host library's interface with no HIP in it: plain C++ callers (g++)
// link it with the HIP runtime alone.
#pragma once

// Multiplies 0..count-1 by factor on the device; returns their sum, or -1.
long scaled_sum(int count, int factor);
