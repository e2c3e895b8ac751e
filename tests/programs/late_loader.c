/* late_loader: a program with no GPU code of its own that, from a second
 * thread named "late-loader", dlopens a kernel library (argv[1], built with
 * gpusym build -shared: it brings the runtime) and launches through it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

typedef int (*malloc_fn)(void **, size_t);
typedef int (*square_fn)(int *, int);
typedef int (*synchronize_fn)(void);

static void *load_and_launch(void *path) {
  pthread_setname_np(pthread_self(), "late-loader");
  void *library = dlopen(path, RTLD_NOW);
  if (!library) {
    fprintf(stderr, "late_loader: %s\n", dlerror());
    return "dlopen failed";
  }
  malloc_fn device_malloc = (malloc_fn)dlsym(library, "hipMalloc");
  square_fn library_square = (square_fn)dlsym(library, "library_square");
  synchronize_fn synchronize = (synchronize_fn)dlsym(library, "hipDeviceSynchronize");
  int *data = NULL;
  device_malloc((void **)&data, 300 * sizeof(int));
  int launched = library_square(data, 300);
  printf("late_loader: library_square %d, synchronize %d\n", launched, synchronize());
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: late_loader LIBRARY\n", stderr);
    return 2;
  }
  pthread_t thread;
  void *failure = NULL;
  pthread_create(&thread, NULL, load_and_launch, argv[1]);
  pthread_join(thread, &failure);
  return failure ? 1 : 0;
}
