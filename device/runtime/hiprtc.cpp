// Runtime compilation (hip/hiprtc.h): a program's source, its headers and
// options go to `gpusym build --genco`, run as a child process, whose
// diagnostics become the program's log and whose bundle its code.
//
// Name expressions (hiprtcAddNameExpression) are lowered by the compiler
// itself: for each, the source gets a host variable holding the address of
// the entity the expression names; the host side alone is compiled to an
// object, and the symbol that variable's relocation names is the lowered
// name (a kernel's host handle has its device name).
//
// The program's text and headers are kept where a debugger finds them: in
// the cache (see kept_directory), the debug information naming that copy.
#include <elf.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hip/hiprtc.h"
#include "internal.h"

extern char **environ;

struct _hiprtcProgram {
  std::string source, name;
  std::vector<std::pair<std::string, std::string>> headers;  // include name, text
  std::vector<std::string> name_expressions;
  std::map<std::string, std::string> lowered;
  std::string log;
  std::vector<char> code;
  bool compiled = false;
  bool cuda = false;  // an NVRTC program: CUDA, compiled by gpusym-nvcc
};

namespace {

#ifndef GPUSYM_BUILD_COMMAND
#define GPUSYM_BUILD_COMMAND "gpusym"
#endif

constexpr const char *kProbe = "__gpusym_hiprtc_name_";

std::mutex &programs_mutex() {
  static std::mutex *mutex = new std::mutex;
  return *mutex;
}
std::set<const _hiprtcProgram *> &programs() {
  static std::set<const _hiprtcProgram *> *live = new std::set<const _hiprtcProgram *>;
  return *live;
}

bool live(hiprtcProgram prog) {
  std::lock_guard<std::mutex> lock(programs_mutex());
  return prog && programs().count(prog);
}

bool write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// `name` as a path inside a directory: without its root, "." or ".." parts
// ("/src/../k.hip" is "src/k.hip"); "default_program" if nothing is left.
std::string relative_inside(const std::string &name) {
  std::string path;
  for (size_t start = 0; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    std::string part = name.substr(start, end - start);
    if (!part.empty() && part != "." && part != "..") path += (path.empty() ? "" : "/") + part;
    start = end + 1;
  }
  return path.empty() ? "default_program" : path;
}

// Writes `text` to directory/`name` (its folders made), unless it holds it
// already; a private file renamed into place, so that processes keeping the
// same text at once never see half of it.
bool keep_file(const std::string &directory, const std::string &name, const std::string &text) {
  std::string path = directory + "/" + relative_inside(name);
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error) return false;
  {
    std::ifstream in(path, std::ios::binary);
    if (in && std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()) == text) return true;
  }
  static std::atomic<unsigned> writes{0};
  std::string temporary = path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(writes++);
  if (!write_file(temporary, text) || rename(temporary.c_str(), path.c_str()) != 0) {
    unlink(temporary.c_str());
    return false;
  }
  return true;
}

// The runtime's cache: $GPUSYM_CACHE_DIR, else $XDG_CACHE_HOME/gpusym, else
// ~/.cache/gpusym (as the runtime's own builds are cached); empty if none.
std::string cache_root() {
  const char *home = getenv("HOME");
  if (const char *explicit_dir = getenv("GPUSYM_CACHE_DIR"); explicit_dir && *explicit_dir) {
    std::string root = explicit_dir;
    bool under_home = root[0] == '~' && (root.size() == 1 || root[1] == '/');
    return under_home && home && *home ? home + root.substr(1) : root;
  }
  if (const char *xdg = getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/gpusym";
  return home && *home ? std::string(home) + "/.cache/gpusym" : std::string();
}

// The directory keeping the program's text (under its name) and headers
// (under their include names), which the compile reads, so that the debug
// information names these files and gdb shows the kernel's source at a stop,
// with list, next and step; empty if it cannot be written.
//
// It lies in the cache, named by a hash of the name, the text and the
// headers: a temporary directory would be gone when gdb reads it, and a
// per-process one removed at exit misses the usual end of a debugging
// session (gdb kills the program) and any core file.  Keyed by content, each
// program keeps its own text (two programs of one name differ in it), a
// program run again reuses its entry, and nothing grows in /tmp: the cache
// grows by one small entry per distinct program, as it does per build.
std::string kept_directory(const _hiprtcProgram &program) {
  std::string root = cache_root();
  if (root.empty()) return std::string();
  uint64_t hash = 14695981039346656037ull;  // FNV-1a over each part, its length first
  auto mix = [&](const std::string &part) {
    for (unsigned char c : std::to_string(part.size()) + ":" + part) hash = (hash ^ c) * 1099511628211ull;
  };
  mix(program.name);
  mix(program.source);
  for (const auto &[name, text] : program.headers) {
    mix(name);
    mix(text);
  }
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  std::string directory = root + "/runtime-compiled/" + hex;
  bool kept = keep_file(directory, program.name, program.source);
  for (const auto &[name, text] : program.headers) kept = kept && keep_file(directory, name, text);
  return kept ? directory : std::string();
}

// Runs `argv`; its output and errors go into `output`.  The exit status, or -1.
int run(const std::vector<std::string> &argv, std::string &output) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  std::vector<char *> args;
  for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    output += std::string("cannot run ") + argv[0] + ": " + strerror(spawned) + "\n";
    return -1;
  }
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) output.append(buffer, static_cast<size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The command compiling the program: gpusym build, or gpusym-nvcc (beside
// it) for CUDA.
std::vector<std::string> compiler(const _hiprtcProgram &program) {
  if (program.cuda) return {std::string(GPUSYM_BUILD_COMMAND) + "-nvcc"};
  return {GPUSYM_BUILD_COMMAND, "build"};
}

std::string source_path(const _hiprtcProgram &program, const std::string &directory) {
  return directory + (program.cuda ? "/program.cu" : "/program.hip");
}

// The entity a name expression names, without a leading '&'.
std::string entity(const std::string &expression) {
  size_t start = expression.find_first_not_of(" \t&");
  return start == std::string::npos ? std::string() : expression.substr(start);
}

// The source given to the compiler: HIP's declarations (hiprtc programs
// include none), the program's own text under its name, then a probe per
// name expression: a host variable, whose reference to a kernel template
// also has the device side instantiate it.
std::string full_source(const _hiprtcProgram &program) {
  std::ostringstream text;
  if (!program.cuda) text << "#include <hip/hip_runtime.h>\n";  // gpusym-nvcc includes cuda_runtime.h
  text << "#line 1 \"";
  for (char c : program.name) text << (c == '"' || c == '\\' ? "\\" : "") << c;
  text << "\"\n" << program.source << "\n";
  for (size_t i = 0; i < program.name_expressions.size(); i++) {
    text << "extern \"C\" __attribute__((used)) const void *const " << kProbe << i
         << " = reinterpret_cast<const void *>(&(" << entity(program.name_expressions[i]) << "));\n";
  }
  return text.str();
}

// Probe variable name -> the symbol its relocation names, in the
// relocatable x86-64 ELF object `image`.
std::map<std::string, std::string> probed_symbols(const std::vector<char> &image) {
  std::map<std::string, std::string> found;
  if (image.size() < sizeof(Elf64_Ehdr) || memcmp(image.data(), ELFMAG, SELFMAG) != 0) return found;
  const auto *header = reinterpret_cast<const Elf64_Ehdr *>(image.data());
  if (header->e_shoff + uint64_t{header->e_shnum} * sizeof(Elf64_Shdr) > image.size()) return found;
  const auto *sections = reinterpret_cast<const Elf64_Shdr *>(image.data() + header->e_shoff);
  auto inside = [&](uint64_t offset, uint64_t size) { return offset + size <= image.size(); };
  for (unsigned i = 0; i < header->e_shnum; i++) {
    const Elf64_Shdr &relocations = sections[i];
    if (relocations.sh_type != SHT_RELA || relocations.sh_link >= header->e_shnum ||
        relocations.sh_info >= header->e_shnum)
      continue;
    const Elf64_Shdr &symtab = sections[relocations.sh_link];
    if (symtab.sh_link >= header->e_shnum) continue;
    const Elf64_Shdr &strtab = sections[symtab.sh_link];
    if (!inside(relocations.sh_offset, relocations.sh_size) || !inside(symtab.sh_offset, symtab.sh_size) ||
        !inside(strtab.sh_offset, strtab.sh_size))
      continue;
    const auto *symbols = reinterpret_cast<const Elf64_Sym *>(image.data() + symtab.sh_offset);
    size_t symbol_count = symtab.sh_size / sizeof(Elf64_Sym);
    auto name = [&](uint32_t index) {
      return index < strtab.sh_size ? std::string(image.data() + strtab.sh_offset + index) : std::string();
    };
    const auto *entries = reinterpret_cast<const Elf64_Rela *>(image.data() + relocations.sh_offset);
    for (size_t r = 0; r < relocations.sh_size / sizeof(Elf64_Rela); r++) {
      size_t target = ELF64_R_SYM(entries[r].r_info);
      if (target >= symbol_count) continue;
      for (size_t s = 0; s < symbol_count; s++) {  // the probe this relocation fills
        if (symbols[s].st_shndx == relocations.sh_info && symbols[s].st_value == entries[r].r_offset &&
            name(symbols[s].st_name).rfind(kProbe, 0) == 0)
          found[name(symbols[s].st_name)] = name(symbols[target].st_name);
      }
    }
  }
  return found;
}

// Where a compile of `program` finds its headers: the directory holding
// those it gave, then, for a quoted include it did not give, its name's
// directory taken from the current one, as NVRTC reads it (NVIDIA's samples
// copy their headers beside the program for that).
void add_include_paths(std::vector<std::string> &argv, const _hiprtcProgram &program, const std::string &headers) {
  argv.insert(argv.end(), {"-I", headers});
  std::error_code no_directory;
  std::filesystem::path beside = std::filesystem::absolute(program.name, no_directory).parent_path();
  if (!no_directory) argv.insert(argv.end(), {"-iquote", beside.string()});
}

// The lowered names of the name expressions: the host side compiled alone.
hiprtcResult lower_names(_hiprtcProgram &program, const std::string &directory, const std::string &headers,
                         const std::vector<std::string> &options) {
  std::vector<std::string> argv = compiler(program);
  argv.insert(argv.end(), {"--cuda-host-only", "-c"});
  add_include_paths(argv, program, headers);
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {source_path(program, directory), "-o", directory + "/names.o"});
  std::string output;
  if (run(argv, output) != 0) {
    program.log += output;
    return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  }
  std::ifstream in(directory + "/names.o", std::ios::binary);
  std::vector<char> object((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::map<std::string, std::string> symbols = probed_symbols(object);
  hiprtcResult result = HIPRTC_SUCCESS;
  for (size_t i = 0; i < program.name_expressions.size(); i++) {
    auto found = symbols.find(kProbe + std::to_string(i));
    if (found == symbols.end()) {
      result = HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
      continue;
    }
    program.lowered[program.name_expressions[i]] = found->second;
  }
  return result;
}

hiprtcResult compile(_hiprtcProgram &program, int count, const char *const *options) {
  const char *tmp = getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpusym-hiprtc-XXXXXX";
  std::vector<char> buffer(templ.begin(), templ.end());
  buffer.push_back('\0');
  const char *made = mkdtemp(buffer.data());
  if (!made) return HIPRTC_ERROR_INTERNAL_ERROR;
  std::string directory = made;  // the compile's own files, removed after it
  std::string kept = kept_directory(program);
  // The headers, found by -I: the kept ones, else copies beside the source.
  std::string headers = kept.empty() ? directory : kept;
  bool written = write_file(source_path(program, directory), full_source(program));
  if (kept.empty()) {
    for (const auto &[name, text] : program.headers) written = written && keep_file(directory, name, text);
  }
  if (!written) {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  std::vector<std::string> given;  // the program's options, as gpusym build spells them
  for (int i = 0; i < count; i++) {
    std::string option = options[i] ? options[i] : "";
    for (const char *arch : {"--gpu-architecture=", "-arch="}) {
      if (option.rfind(arch, 0) == 0 && !program.cuda) option = "--offload-arch=" + option.substr(strlen(arch));
    }
    given.push_back(option);
  }
  // With line information: a kernel compiled at run time is debugged like
  // any other.  The source's lines carry the program's name (#line), which
  // the debug information maps to the kept text (a name holding '=' cannot
  // be mapped: gdb then finds no file).
  std::vector<std::string> argv = compiler(program);
  argv.insert(argv.end(), {"--genco", "-g"});
  add_include_paths(argv, program, headers);
  if (!kept.empty() && program.name.find('=') == std::string::npos)
    argv.push_back("-fdebug-prefix-map=" + program.name + "=" + kept + "/" + relative_inside(program.name));
  argv.insert(argv.end(), given.begin(), given.end());
  argv.insert(argv.end(), {source_path(program, directory), "-o", directory + "/program.co"});
  int status = run(argv, program.log);
  hiprtcResult result = HIPRTC_ERROR_COMPILATION;
  if (status == 0) {
    std::ifstream in(directory + "/program.co", std::ios::binary);
    program.code.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    program.compiled = !program.code.empty();
    result = !program.compiled                      ? HIPRTC_ERROR_INTERNAL_ERROR
             : program.name_expressions.empty() ? HIPRTC_SUCCESS
                                                : lower_names(program, directory, headers, given);
  }
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return result;
}

}  // namespace

void gpusym::compile_as_cuda(_hiprtcProgram *program) { program->cuda = true; }

extern "C" {

const char *hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
    case HIPRTC_ERROR_LINKING: return "HIPRTC_ERROR_LINKING";
  }
  return "HIPRTC_ERROR_UNKNOWN";
}

hiprtcResult hiprtcVersion(int *major, int *minor) {
  if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
  *major = HIP_VERSION_MAJOR;
  *minor = HIP_VERSION_MINOR;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                 const char *const *headers, const char *const *includeNames) {
  if (!prog || !src || numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames)))
    return HIPRTC_ERROR_INVALID_INPUT;
  auto *program = new _hiprtcProgram;
  program->source = src;
  program->name = name && *name ? name : "default_program";
  for (int i = 0; i < numHeaders; i++) {
    if (!headers[i] || !includeNames[i]) {
      delete program;
      return HIPRTC_ERROR_INVALID_INPUT;
    }
    program->headers.emplace_back(includeNames[i], headers[i]);
  }
  std::lock_guard<std::mutex> lock(programs_mutex());
  programs().insert(program);
  *prog = program;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog) {
  if (!prog || !live(*prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  {
    std::lock_guard<std::mutex> lock(programs_mutex());
    programs().erase(*prog);
  }
  delete *prog;
  *prog = nullptr;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || entity(name_expression).empty()) return HIPRTC_ERROR_INVALID_INPUT;
  if (prog->compiled) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  prog->name_expressions.emplace_back(name_expression);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char *const *options) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && !options)) return HIPRTC_ERROR_INVALID_INPUT;
  prog->log.clear();
  prog->code.clear();
  prog->lowered.clear();
  prog->compiled = false;
  return compile(*prog, numOptions, options);
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression, const char **lowered_name) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled) return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  auto found = prog->lowered.find(name_expression);
  if (found == prog->lowered.end()) return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  *lowered_name = found->second.c_str();
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!logSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
  *logSizeRet = prog->log.empty() ? 0 : prog->log.size() + 1;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!log) return HIPRTC_ERROR_INVALID_INPUT;
  memcpy(log, prog->log.c_str(), prog->log.size() + 1);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!codeSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
  *codeSizeRet = prog->code.size();
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code) {
  if (!live(prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!code) return HIPRTC_ERROR_INVALID_INPUT;
  memcpy(code, prog->code.data(), prog->code.size());
  return HIPRTC_SUCCESS;
}

}  // extern "C"
