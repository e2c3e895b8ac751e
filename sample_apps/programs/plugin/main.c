/* plugin: a plain C host program that loads a library of kernels with
 * dlopen, runs it, unloads it with dlclose, and loads it again: each load
 * registers the library's kernels anew, each unload unregisters them.
 * `plugin [ROUNDS [ELEMENTS]]` loads and unloads ROUNDS times (default 2) and
 * squares ELEMENTS numbers each time (default 10000). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library built beside this program: lib<program>_kernels.so. */
static void library_path(char *path, size_t size) {
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  self[length > 0 ? length : 0] = '\0';
  char *slash = strrchr(self, '/');
  snprintf(path, size, "%.*s/lib%s_kernels.so", slash ? (int)(slash - self) : 1, slash ? self : ".",
           slash ? slash + 1 : self);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2;
  int count = argc > 2 ? atoi(argv[2]) : 10000;
  char path[PATH_MAX + 32];
  library_path(path, sizeof path);
  int wrong = 0;
  for (int round = 0; round < rounds; round++) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      fprintf(stderr, "plugin: %s\n", dlerror());
      return 1;
    }
    int (*square)(int) = (int (*)(int))dlsym(library, "plugin_square");
    int result = square ? square(count) : -1;
    if (result < 0) {
      fprintf(stderr, "plugin: round %d failed\n", round + 1);
      return 1;
    }
    wrong += result;
    dlclose(library);
  }
  printf("plugin: %d loads and unloads of the kernel library, %d elements each, %d wrong\n", rounds, count,
         wrong);
  return wrong == 0 ? 0 : 1;
}
