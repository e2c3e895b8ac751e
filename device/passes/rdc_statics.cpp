// A clang pass plugin for the device compiles of relocatable device code
// (-fgpu-rdc): references to a static device variable reach its definition.
//
// Under -fgpu-rdc, clang gives a `static __device__` or `static __constant__`
// variable that host code names (cudaMemcpyToSymbol, hipMemcpyFromSymbol) an
// external name of its own, the mangled name followed by `.static.` and the
// compilation unit's id, so that the host's registration can find it in the
// linked device code.  clang 19 decides this when it meets the host's use,
// though: a kernel emitted before that point still refers to the variable by
// its plain mangled name, which becomes an external declaration nobody
// defines, and the device link fails on it.  This pass, first of the
// pipeline, points every use of such a declaration at the renamed
// definition, if the module has one.
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

constexpr StringRef kCuidPrefix = "__hip_cuid_";

/// The compilation unit's id, from the variable clang defines for it.
std::string compilation_unit_id(const Module &module) {
  for (const GlobalVariable &global : module.globals())
    if (global.getName().starts_with(kCuidPrefix)) return global.getName().drop_front(kCuidPrefix.size()).str();
  return {};
}

struct ExternalizedStatics : PassInfoMixin<ExternalizedStatics> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    std::string cuid = compilation_unit_id(module);
    if (cuid.empty()) return PreservedAnalyses::all();
    std::vector<std::pair<GlobalVariable *, GlobalVariable *>> renamed;
    for (GlobalVariable &global : module.globals()) {
      if (!global.isDeclaration()) continue;
      GlobalVariable *definition = module.getGlobalVariable((global.getName() + ".static." + cuid).str(), true);
      if (definition && !definition->isDeclaration() && definition->getValueType() == global.getValueType() &&
          definition->getAddressSpace() == global.getAddressSpace())
        renamed.emplace_back(&global, definition);
    }
    for (auto [declaration, definition] : renamed) {
      declaration->replaceAllUsesWith(definition);
      declaration->eraseFromParent();
    }
    return renamed.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-rdc-statics", "1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(ExternalizedStatics()); });
          }};
}
