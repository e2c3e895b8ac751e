/* host_only: a program with no GPU code, for crash capture.
 *   crash    dereferences a null pointer in parse_config
 *   spin     never ends
 *   echo     copies stdin to stdout, says so on stderr, exits 3 */
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
  fputs("usage: host_only crash | spin | echo\n", stderr);
  return 2;
}
