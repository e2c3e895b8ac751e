// Code objects and their kernels: the registration ABI clang emits
// (__hipRegisterFatBinary and friends) and the registry that modules loaded
// at run time (modules.cpp) share with it.
//
// A code object is written to a private directory and dlopen'ed, so that a
// debugger sees it as an ordinary shared library with its symbols and DWARF.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <elf.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cxxabi.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "internal.h"
#include "offload_bundle.h"

namespace gpusym {

struct Module {
  uint32_t id;
  gpusym_code_object_origin origin;
  std::string host_path;      // the host binary, or the file given to hipModuleLoad; empty for an image
  std::string path;           // the extracted code object, empty when none
  void *library = nullptr;    // dlopen handle
  size_t tls_module = 0;      // its thread-local storage's module id (__shared__ variables), 0 if none
  uint32_t wave_size = GPUSYM_WAVE_SIZE;  // what its device code was compiled for (__gpusym_wave_size)
  std::string target_id = kDefaultTarget;  // the target it was compiled as (__gpusym_target_id)
  bool loaded = true;         // until unregistered or unloaded
  std::unordered_map<std::string, std::string> signatures;
  std::unordered_map<std::string, Kernel *> kernels;   // by device name
};

namespace {

constexpr uint32_t kFatbinMagic = 0x48495046;  // "HIPF"

struct FatbinWrapper {
  uint32_t magic;
  uint32_t version;
  const void *binary;
  const void *unused;
};

struct Registry {
  std::deque<Module> modules;
  std::deque<Kernel> kernels;
  std::deque<Variable> variables;
  std::unordered_map<const void *, Kernel *> kernels_by_handle;
  std::unordered_map<const void *, Variable *> variables_by_shadow;
  std::map<uintptr_t, Variable *> variables_by_address;   // of loaded code objects
  std::vector<gpusym_debug_code_object> debug_code_objects;
  std::vector<gpusym_debug_kernel> debug_kernels;
};

Registry &registry() {
  static Registry *instance = new Registry;  // never destroyed: used until exit
  return *instance;
}

}  // namespace

std::pair<const uint8_t *, size_t> find_sim_entry(const uint8_t *bundle, size_t size) {
  if (size < kBundleMagicSize + 8 || memcmp(bundle, kBundleMagic, kBundleMagicSize) != 0) return {nullptr, 0};
  const uint8_t *cursor = bundle + kBundleMagicSize;
  const uint8_t *end = bundle + size;
  uint64_t count;
  memcpy(&count, cursor, 8);
  cursor += 8;
  for (uint64_t i = 0; i < count && i < 4096; i++) {
    uint64_t offset, entry_size, id_size;
    if (end - cursor < 24) break;
    memcpy(&offset, cursor, 8);
    memcpy(&entry_size, cursor + 8, 8);
    memcpy(&id_size, cursor + 16, 8);
    cursor += 24;
    if (id_size > 4096 || static_cast<uint64_t>(end - cursor) < id_size) break;
    std::string id(reinterpret_cast<const char *>(cursor), id_size);
    cursor += id_size;
    if (id == GPUSYM_SIM_BUNDLE_ID && offset <= size && entry_size <= size - offset)
      return {bundle + offset, entry_size};
  }
  return {nullptr, 0};
}

namespace {

// ${TMPDIR:-/tmp}/gpusym-UID/PID, the base checked to be 0700 and ours;
// directories of processes that are gone are removed on the way.  The
// directory itself is made by each load (the last unload removes it).
const std::string &private_directory() {
  static const std::string path = [] {
    const char *tmp = getenv("TMPDIR");
    std::string base = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpusym-" + std::to_string(getuid());
    mkdir(base.c_str(), 0700);
    struct stat info;
    if (lstat(base.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != getuid() ||
        (info.st_mode & 077) != 0) {
      warn("%s is not a private directory of this user; not loading device code", base.c_str());
      return std::string();
    }
    if (DIR *dir = opendir(base.c_str())) {
      while (dirent *entry = readdir(dir)) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;
        std::string stale = base + "/" + entry->d_name;
        if (DIR *files = opendir(stale.c_str())) {
          while (dirent *file = readdir(files))
            if (file->d_name[0] != '.') unlink((stale + "/" + file->d_name).c_str());
          closedir(files);
        }
        rmdir(stale.c_str());
      }
      closedir(dir);
    }
    return base + "/" + std::to_string(getpid());
  }();
  return path;
}

std::string host_path_of(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname && info.dli_fname[0]) return info.dli_fname;
  char exe[4096];
  ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
  return length > 0 ? std::string(exe, length) : std::string("program");
}

bool write_file(const std::string &path, const uint8_t *data, size_t size) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < size) {
    ssize_t wrote = write(fd, data + done, size - done);
    if (wrote <= 0) break;
    done += wrote;
  }
  close(fd);
  return done == size;
}

// "name descriptor\n" lines embedded by the driver as __gpusym_signatures.
void read_signatures(Module &module) {
  auto *table = static_cast<const char *>(dlsym(module.library, "__gpusym_signatures"));
  if (!table) return;
  for (const char *line = table; *line;) {
    const char *end = strchr(line, '\n');
    if (!end) end = line + strlen(line);
    const char *space = static_cast<const char *>(memchr(line, ' ', end - line));
    if (space)
      module.signatures.emplace(std::string(line, space), std::string(space + 1, end));
    line = *end ? end + 1 : end;
  }
}

// Code objects resolve the runtime's device built-ins (lanes, barriers) by
// name.  When the runtime itself came in through a library that a program
// dlopen'ed, it is not in the global scope: it is promoted there once.
void make_runtime_global() {
  static std::once_flag once;
  std::call_once(once, [] {
    Dl_info self;
    if (dladdr(reinterpret_cast<void *>(&make_runtime_global), &self) && self.dli_fname)
      dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  });
}

void load_code_object(Module &module, const uint8_t *image, size_t size) {
  make_runtime_global();
  const std::string &directory = private_directory();
  if (directory.empty()) return;
  mkdir(directory.c_str(), 0700);
  std::string base = module.host_path.empty() ? "image" : module.host_path.substr(module.host_path.rfind('/') + 1);
  // The marks tell a debugger where to find the kernels (debug_interface.h).
  const char *kind = module.origin == GPUSYM_ORIGIN_FAT_BINARY ? GPUSYM_FAT_BINARY_CODE_OBJECT_MARK
                                                               : GPUSYM_MODULE_CODE_OBJECT_MARK;
  std::string path = directory + "/" + base + kind + std::to_string(module.id) + ".so";
  if (!write_file(path, image, size)) {
    warn("cannot write the device code object %s: %s", path.c_str(), strerror(errno));
    return;
  }
  // The driver links code objects with -Bsymbolic, so the device code's own
  // symbols never resolve to the host's handles and shadows of the same name.
  module.library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module.library) {
    // A runtime function the code object calls and this runtime lacks: the
    // program runs with an older runtime than gpusym's compile, as a prefix
    // made before gpusym changed links.
    const char *why = dlerror();
    bool older = strstr(why, "undefined symbol: __gpusym") != nullptr;
    warn("cannot load the device code object of %s: %s%s",
         module.host_path.empty() ? "a module image" : module.host_path.c_str(), why,
         older ? " (the program runs with an older simulated runtime than the one its device code was built for: "
                 "make its prefix again with gpusym rocm-prefix, or relink it)"
               : "");
    unlink(path.c_str());
    return;
  }
  module.path = path;
  if (dlinfo(module.library, RTLD_DI_TLS_MODID, &module.tls_module) != 0) module.tls_module = 0;
  if (auto *size = static_cast<const uint32_t *>(dlsym(module.library, "__gpusym_wave_size"));
      size && (*size == 32 || *size == 64))
    module.wave_size = *size;
  if (auto *id = static_cast<const char *>(dlsym(module.library, "__gpusym_target_id")); id && *id)
    module.target_id = id;
  if (__gpusym_checks && !dlsym(module.library, "__gpusym_checked"))
    warn("GPUSYM_CHECK: the device code of %s was built without checks (by an older gpusym?): its kernels' "
         "accesses are not checked; rebuild it",
         module.host_path.empty() ? "a module image" : module.host_path.c_str());
  read_signatures(module);
}

Variable &add_variable(Module &module, const void *host_shadow, const char *device_name, void *address, size_t size) {
  Registry &r = registry();
  Variable &variable = r.variables.emplace_back(Variable{host_shadow, device_name, &module, address, size});
  if (host_shadow) r.variables_by_shadow[host_shadow] = &variable;
  if (address) r.variables_by_address[reinterpret_cast<uintptr_t>(address)] = &variable;
  return variable;
}

// The kernels the code object names in __gpusym_kernels (see the build
// driver's signatures.py), registered under handles of their own.
void register_kernel_table(Module &module) {
  auto *table = static_cast<const char *>(dlsym(module.library, "__gpusym_kernels"));
  for (const char *line = table; line && *line;) {
    const char *end = strchr(line, '\n');
    if (!end) end = line + strlen(line);
    register_kernel(module, nullptr, std::string(line, end));
    line = *end ? end + 1 : end;
  }
}

// GPUSYM_LEAK_CHECK=1: at exit, after every library's destructors (the
// runtime is finalised after the code that uses it), names each code object
// still registered.
__attribute__((destructor)) void report_leaked_modules() {
  if (!env_long("GPUSYM_LEAK_CHECK", 0)) return;
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const Module &module : registry().modules) {
    if (!module.loaded) continue;
    bool fat_binary = module.origin == GPUSYM_ORIGIN_FAT_BINARY;
    warn("leak check: %s %s (code object %u, %zu kernels) was never %s", fat_binary ? "the fat binary of" : "module",
         module.host_path.empty() ? "loaded from memory" : module.host_path.c_str(), module.id,
         module.kernels.size(), fat_binary ? "unregistered" : "unloaded (hipModuleUnload)");
  }
}

}  // namespace

Module &register_module(gpusym_code_object_origin origin, const std::string &host_path, const void *fatbin_wrapper,
                        const uint8_t *image, size_t size) {
  Registry &r = registry();
  Module &module = r.modules.emplace_back();
  module.id = static_cast<uint32_t>(r.modules.size() - 1);
  module.origin = origin;
  module.host_path = host_path;
  if (image) load_code_object(module, image, size);
  uintptr_t load_address = 0;
  link_map *map = nullptr;
  if (module.library && dlinfo(module.library, RTLD_DI_LINKMAP, &map) == 0) load_address = map->l_addr;
  r.debug_code_objects.push_back({module.id, 1, fatbin_wrapper, module.host_path.c_str(),
                                  module.path.empty() ? nullptr : module.path.c_str(), load_address,
                                  static_cast<uint32_t>(origin), 0});
  gpusym_debug.code_objects = r.debug_code_objects.data();
  gpusym_debug.code_object_count = static_cast<uint32_t>(r.debug_code_objects.size());
  notify(GPUSYM_EVENT_CODE_OBJECT_LOADED, module.id);
  if (origin != GPUSYM_ORIGIN_FAT_BINARY && module.library) register_kernel_table(module);
  return module;
}

bool has_code(const Module &module) { return module.library != nullptr; }

uint32_t device_wave_size() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const Module &module : registry().modules)
    if (module.library) return module.wave_size;
  return GPUSYM_WAVE_SIZE;
}

std::string device_target_id() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const Module &module : registry().modules)
    if (module.library) return module.target_id;
  return kDefaultTarget;
}

namespace {

// The fast form of the kernel at `entry` (device/passes/fast_form.cpp): the
// code object's table of (kernel, fast form) pairs, which its
// __gpusym_fast_forms bounds; null when it has none.
void *fast_form_of(const Module &module, void *entry) {
  struct Pair {
    void *kernel, *fast;
  };
  struct Bounds {
    const Pair *start, *stop;
  };
  if (!entry) return nullptr;
  auto *bounds = static_cast<const Bounds *>(dlsym(module.library, "__gpusym_fast_forms"));
  if (!bounds) return nullptr;
  for (const Pair *pair = bounds->start; pair < bounds->stop; pair++)
    if (pair->kernel == entry) return pair->fast;
  return nullptr;
}

}  // namespace

Kernel &register_kernel(Module &module, const void *handle, const std::string &device_name) {
  Registry &r = registry();
  Kernel &kernel = r.kernels.emplace_back();
  kernel.handle = handle ? handle : &kernel;
  kernel.device_name = device_name;
  kernel.module = &module;
  kernel.entry = module.library ? dlsym(module.library, device_name.c_str()) : nullptr;
  kernel.fast_entry = fast_form_of(module, kernel.entry);
  kernel.wave_size = module.wave_size;
  kernel.index = static_cast<uint32_t>(r.debug_kernels.size());
  r.kernels_by_handle[kernel.handle] = &kernel;
  module.kernels.emplace(device_name, &kernel);
  r.debug_kernels.push_back({kernel.handle, kernel.device_name.c_str(),
                             reinterpret_cast<uintptr_t>(kernel.entry), module.id, 0, 0});
  gpusym_debug.kernels = r.debug_kernels.data();
  gpusym_debug.kernel_count = static_cast<uint32_t>(r.debug_kernels.size());
  notify(GPUSYM_EVENT_KERNEL_REGISTERED, kernel.index);
  return kernel;
}

void unregister_module(Module &module) {
  Registry &r = registry();
  for (auto it = r.kernels_by_handle.begin(); it != r.kernels_by_handle.end();)
    it = it->second->module == &module ? r.kernels_by_handle.erase(it) : std::next(it);
  for (auto it = r.variables_by_shadow.begin(); it != r.variables_by_shadow.end();)
    it = it->second->module == &module ? r.variables_by_shadow.erase(it) : std::next(it);
  for (auto it = r.variables_by_address.begin(); it != r.variables_by_address.end();)
    it = it->second->module == &module ? r.variables_by_address.erase(it) : std::next(it);
  module.loaded = false;
  r.debug_code_objects[module.id].loaded = 0;
  notify(GPUSYM_EVENT_CODE_OBJECT_UNLOADED, module.id);
  if (module.library) dlclose(module.library);
  module.library = nullptr;
  if (!module.path.empty()) unlink(module.path.c_str());
  // The last module out removes the directory (it fails while others remain).
  rmdir(private_directory().c_str());
}

struct TlsIndex {
  unsigned long module, offset;
};
extern "C" void *__tls_get_addr(TlsIndex *index);  // the dynamic linker's

void allocate_thread_storage(const Kernel &kernel) {
  if (!kernel.module->tls_module) return;
  TlsIndex index{kernel.module->tls_module, 0};
  __tls_get_addr(&index);
}

namespace {

// A thread-local symbol of a code object: a __shared__ variable, at `offset`
// in the code object's thread-local storage.
struct TlsSymbol {
  uint64_t offset, size;
  std::string name;
};

// The thread-local symbols of the code object file at `path`, from its
// .symtab (function-local __shared__ variables are in no other).
std::vector<TlsSymbol> tls_symbols(const std::string &path) {
  std::vector<TlsSymbol> found;
  int descriptor = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return found;
  struct stat status {};
  void *mapped = MAP_FAILED;
  if (fstat(descriptor, &status) == 0 && status.st_size > 0)
    mapped = mmap(nullptr, static_cast<size_t>(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0);
  close(descriptor);
  if (mapped == MAP_FAILED) return found;
  const auto *data = static_cast<const uint8_t *>(mapped);
  size_t size = static_cast<size_t>(status.st_size);
  auto fits = [size](uint64_t offset, uint64_t length) { return offset <= size && length <= size - offset; };
  const auto *header = reinterpret_cast<const Elf64_Ehdr *>(data);
  if (fits(0, sizeof *header) && memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 &&
      fits(header->e_shoff, uint64_t{header->e_shnum} * sizeof(Elf64_Shdr))) {
    const auto *sections = reinterpret_cast<const Elf64_Shdr *>(data + header->e_shoff);
    for (unsigned i = 0; i < header->e_shnum; i++) {
      const Elf64_Shdr &table = sections[i];
      if (table.sh_type != SHT_SYMTAB || table.sh_link >= header->e_shnum || !fits(table.sh_offset, table.sh_size))
        continue;
      const Elf64_Shdr &strings = sections[table.sh_link];
      if (!fits(strings.sh_offset, strings.sh_size)) continue;
      const auto *symbols = reinterpret_cast<const Elf64_Sym *>(data + table.sh_offset);
      for (size_t n = 0; n < table.sh_size / sizeof(Elf64_Sym); n++) {
        const Elf64_Sym &symbol = symbols[n];
        if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_size == 0 || symbol.st_name >= strings.sh_size)
          continue;
        const char *name = reinterpret_cast<const char *>(data + strings.sh_offset + symbol.st_name);
        found.push_back({symbol.st_value, symbol.st_size, std::string(name, strnlen(name, strings.sh_size - symbol.st_name))});
      }
    }
  }
  munmap(mapped, size);
  return found;
}

}  // namespace

std::string shared_variable_at(const Kernel &kernel, uintptr_t address) {
  Module *module = kernel.module;
  if (!module || !module->tls_module || module->path.empty()) return "";
  TlsIndex index{module->tls_module, 0};
  uintptr_t block = reinterpret_cast<uintptr_t>(__tls_get_addr(&index));
  static std::mutex mutex;
  static auto *symbols = new std::map<const Module *, std::vector<TlsSymbol>>;  // never destroyed: used until exit
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, fresh] = symbols->try_emplace(module);
  if (fresh) entry->second = tls_symbols(module->path);
  for (const TlsSymbol &symbol : entry->second) {
    if (address - block - symbol.offset >= symbol.size) continue;
    int status = 0;
    char *demangled = abi::__cxa_demangle(symbol.name.c_str(), nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : symbol.name;
    free(demangled);
    if (size_t local = name.rfind(")::"); local != std::string::npos) name = name.substr(local + 3);  // a function's static
    return name + "+" + std::to_string(address - block - symbol.offset);
  }
  return "";
}

Module *find_loaded_module(const void *handle) {
  for (Module &module : registry().modules)
    if (&module == handle) return module.loaded && module.origin != GPUSYM_ORIGIN_FAT_BINARY ? &module : nullptr;
  return nullptr;
}

Kernel *find_module_kernel(Module &module, const char *device_name) {
  auto found = module.kernels.find(device_name);
  return found == module.kernels.end() ? nullptr : found->second;
}

Variable *find_module_global(Module &module, const char *name) {
  if (!module.library) return nullptr;
  void *address = dlsym(module.library, name);
  Dl_info info;
  void *entry = nullptr;
  if (!address || !dladdr1(address, &info, &entry, RTLD_DL_SYMENT) || !entry) return nullptr;
  auto *symbol = static_cast<const ElfW(Sym) *>(entry);
  if (ELF64_ST_TYPE(symbol->st_info) != STT_OBJECT) return nullptr;
  auto known = registry().variables_by_address.find(reinterpret_cast<uintptr_t>(address));
  if (known != registry().variables_by_address.end()) return known->second;
  return &add_variable(module, nullptr, name, address, symbol->st_size);
}

bool is_device_variable_range(const void *pointer, size_t size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto &variables = registry().variables_by_address;
  auto after = variables.upper_bound(start);
  if (after == variables.begin()) return false;
  auto containing = std::prev(after);
  return start - containing->first + size <= containing->second->size;
}

Kernel *find_kernel(const void *handle) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto found = registry().kernels_by_handle.find(handle);
  return found == registry().kernels_by_handle.end() ? nullptr : found->second;
}

// A kernel launched only by device code may have no host stub, so none
// registered: it is registered under its code object's symbol.
Kernel *find_kernel_by_entry(const void *entry) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  Registry &r = registry();
  for (Kernel &kernel : r.kernels)
    if (kernel.entry == entry && kernel.module->loaded) return &kernel;
  Dl_info symbol;
  if (!dladdr(entry, &symbol) || !symbol.dli_sname || symbol.dli_saddr != entry) return nullptr;
  for (Module &module : r.modules)
    if (module.loaded && module.library && dlsym(module.library, symbol.dli_sname) == entry)
      return &register_kernel(module, nullptr, symbol.dli_sname);
  return nullptr;
}

Variable *find_variable(const void *host_shadow) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto found = registry().variables_by_shadow.find(host_shadow);
  return found == registry().variables_by_shadow.end() ? nullptr : found->second;
}

const Signature &kernel_signature(Kernel &kernel) {
  std::call_once(kernel.signature_once, [&kernel] {
    // Named as the demangler names it, for a fault report, which cannot
    // demangle (it runs in a signal handler).
    int status = -1;
    char *demangled = abi::__cxa_demangle(kernel.device_name.c_str(), nullptr, nullptr, &status);
    kernel.display_name = status == 0 && demangled ? demangled : kernel.device_name;
    free(demangled);
    auto found = kernel.module->signatures.find(kernel.device_name);
    if (!kernel.entry)
      kernel.signature.error = "no code for the simulated device in " +
                               (kernel.module->host_path.empty() ? std::string("its code object") : kernel.module->host_path) +
                               " (hipErrorNoBinaryForGpu): build it with gpusym build or gpusym-hipcc";
    else if (found == kernel.module->signatures.end())
      kernel.signature.error = "the code object does not describe its parameters";
    else
      parse_signature(found->second, kernel.signature);
    if (!kernel.signature.error.empty())
      warn("cannot launch %s: %s", kernel.display_name.c_str(), kernel.signature.error.c_str());
  });
  return kernel.signature;
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

void **__hipRegisterFatBinary(const void *data) {
  auto *wrapper = static_cast<const FatbinWrapper *>(data);
  std::string host_path = host_path_of(data);
  std::pair<const uint8_t *, size_t> entry{nullptr, 0};
  if (wrapper->magic != kFatbinMagic)
    warn("%s: fat binary wrapper has a bad magic number", host_path.c_str());
  else  // clang's wrapper gives no size: the bundle's header bounds what is read
    entry = find_sim_entry(static_cast<const uint8_t *>(wrapper->binary), SIZE_MAX / 2);
  std::lock_guard<std::mutex> lock(registry_mutex());
  Module &module = register_module(GPUSYM_ORIGIN_FAT_BINARY, host_path, data, entry.first, entry.second);
  return reinterpret_cast<void **>(&module);
}

void __hipRegisterFunction(void **modules, const void *host_function, char *device_function,
                           const char *device_name, unsigned int, void *, void *, void *, void *,
                           int *) {
  (void)device_function;
  std::lock_guard<std::mutex> lock(registry_mutex());
  register_kernel(*reinterpret_cast<Module *>(modules), host_function, device_name);
}

void __hipRegisterVar(void **modules, void *var, char *host_var, char *device_var, int, size_t size,
                      int, int) {
  (void)host_var;
  auto *module = reinterpret_cast<Module *>(modules);
  std::lock_guard<std::mutex> lock(registry_mutex());
  void *address = module->library ? dlsym(module->library, device_var) : nullptr;
  add_variable(*module, var, device_var, address, size);
}

// A __managed__ variable: clang makes `pointer` (the host's variable) and
// the device code's variable of the same name pointers to its storage,
// which the runtime allocates as managed memory, from `initial` (the
// initializer's bytes).  Both sides then share one copy, as on a GPU.
void __hipRegisterManagedVar(void **modules, void **pointer, void *initial, const char *name, size_t size,
                             unsigned int) {
  auto *module = reinterpret_cast<Module *>(modules);
  void *storage = nullptr;
  if (allocate(&storage, size, true) != hipSuccess) {
    warn("cannot allocate %zu bytes for the __managed__ variable %s", size, name);
    return;
  }
  memcpy(storage, initial, size);
  *pointer = storage;
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (void **device_pointer = module->library ? static_cast<void **>(dlsym(module->library, name)) : nullptr)
    *device_pointer = storage;
  add_variable(*module, pointer, name, storage, size).managed = true;
}

const char *gpusym_function_module(const void *function) {
  Kernel *kernel = find_kernel(function);
  return kernel ? kernel->module->host_path.c_str() : nullptr;
}

void __hipUnregisterFatBinary(void **modules) {
  synchronize_all();
  auto *module = reinterpret_cast<Module *>(modules);
  std::vector<void *> managed;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    for (const Variable &variable : registry().variables)
      if (variable.module == module && variable.managed) managed.push_back(variable.device_address);
    unregister_module(*module);
  }
  for (void *storage : managed) hipFree(storage);
}

}  // extern "C"
