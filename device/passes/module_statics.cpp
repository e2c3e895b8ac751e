// A clang pass plugin for the module compiles of CUDA sources (gpusym-nvcc
// -cubin/-fatbin/-ptx and NVRTC): a `static __device__` or `static
// __constant__` variable keeps its name, as NVIDIA's modules keep it.
//
// A program finds a module's variables by name (cuModuleGetGlobal(...,
// "d_OptionData")), static ones included.  clang gives such a variable
// internal linkage and a mangled name (_ZL12d_OptionData), and, since no host
// code registers it, folds the kernels' reads of a zero-initialised one to 0
// and drops it.  This pass, first of the pipeline, gives each of them
// external linkage under its own name, as clang defines a device variable
// that is not static (externally initialised: the host writes it).
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

/// The identifier of a namespace-scope static variable's mangled name
/// (_ZL<length><identifier>), or an empty one.
StringRef static_identifier(StringRef mangled) {
  if (!mangled.consume_front("_ZL")) return {};
  size_t length = 0;
  if (mangled.consumeInteger(10, length) || length == 0 || length != mangled.size()) return {};
  return mangled;
}

struct NamedStatics : PassInfoMixin<NamedStatics> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    std::vector<GlobalVariable *> statics;  // device variables: not __shared__ (thread-local), not const
    for (GlobalVariable &global : module.globals())
      if (global.hasLocalLinkage() && !global.isDeclaration() && !global.isThreadLocal() && !global.isConstant() &&
          !static_identifier(global.getName()).empty())
        statics.push_back(&global);
    bool changed = false;
    for (GlobalVariable *global : statics) {
      std::string name = static_identifier(global->getName()).str();
      if (module.getNamedValue(name)) continue;  // the name is taken: the variable stays as clang made it
      global->setName(name);
      global->setLinkage(GlobalValue::ExternalLinkage);
      global->setVisibility(GlobalValue::DefaultVisibility);
      global->setExternallyInitialized(true);
      changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpusym-module-statics", "1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(NamedStatics()); });
          }};
}
