/* host_only: a program with no GPU code, for crash capture.
 *   crash    dereferences a null pointer in parse_config
 *   spin     never ends
 *   echo     copies stdin to stdout, says so on stderr, exits 3
 *   killed   prints two lines, then kills itself with SIGKILL */
#include <signal.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int parse_config(const int *config) { return config[1] + 1; }

__attribute__((noinline)) static void spin_forever(void) {
  for (volatile unsigned long i = 0;; i++) {
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "crash") == 0) {
    const int *volatile config = NULL;
    return parse_config(config);
  }
  if (strcmp(mode, "spin") == 0) spin_forever();
  if (strcmp(mode, "echo") == 0) {
    char line[256];
    while (fgets(line, sizeof line, stdin)) fputs(line, stdout);
    fputs("echo done\n", stderr);
    return 3;
  }
  if (strcmp(mode, "killed") == 0) {
    puts("one");
    puts("two");
    raise(SIGKILL);
  }
  fputs("usage: host_only crash | spin | echo | killed\n", stderr);
  return 2;
}
