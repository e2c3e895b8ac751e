// The clang offload bundle, the container of a HIP program's device code:
// every bundle starts with this magic (its layout: symbols/offload_bundle.py).
#pragma once

#include <cstddef>

namespace gpusym {

constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kBundleMagicSize = sizeof kBundleMagic - 1;

}  // namespace gpusym
