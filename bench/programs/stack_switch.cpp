// The least a barrier between simulated threads can cost on this machine:
// contexts on stacks of their own, each in a loop that waits, and every wait
// a switch to the next context of a ring.  A switch keeps two words of the
// waiting context on its stack (rbp and where it goes on), stores its stack
// pointer and resumes the next one, which is what __gpusym_barrier does in
// its common case, without the runtime's bookkeeping (lane states, the
// running lane's pointer, the debugger's record).  x86-64 System V.
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
__attribute__((visibility("hidden"))) void **ring_begin, **ring_end, **ring_at;
__attribute__((visibility("hidden"))) void *ring_caller_sp;
__attribute__((visibility("hidden"))) uint64_t ring_rounds;
void ring_run();
void ring_body();
}

// ring_run starts the first context and returns when one has waited
// ring_rounds times; ring_body is each context's loop, its count in rbp,
// which the switch keeps.
asm(R"(
        .text
        .p2align 4
        .type   ring_switch, @function
ring_switch:
        pushq   %rbp
        movq    ring_at(%rip), %rax
        movq    %rsp, (%rax)
        addq    $8, %rax
        cmpq    ring_end(%rip), %rax
        jne     1f
        movq    ring_begin(%rip), %rax
1:      movq    %rax, ring_at(%rip)
        movq    (%rax), %rsp
        popq    %rbp
        popq    %rcx
        jmpq    *%rcx
        .size   ring_switch, .-ring_switch

        .p2align 4
        .type   ring_body, @function
ring_body:
        movq    ring_rounds(%rip), %rbp
2:      callq   ring_switch
        decq    %rbp
        jnz     2b
        movq    ring_caller_sp(%rip), %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        retq
        .size   ring_body, .-ring_body

        .p2align 4
        .type   ring_run, @function
ring_run:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, ring_caller_sp(%rip)
        movq    ring_begin(%rip), %rax
        movq    %rax, ring_at(%rip)
        movq    (%rax), %rsp
        popq    %rbp
        popq    %rcx
        jmpq    *%rcx
        .size   ring_run, .-ring_run
)");

// Nanoseconds per switch in a ring of `contexts`, each waiting `rounds`
// times.  Stack tops are staggered as the runtime staggers its lanes'.
double stack_switch_ns(int contexts, uint64_t rounds) {
  const size_t size = 64 * 1024;
  std::vector<void *> slots(contexts);
  std::vector<char *> stacks;
  for (int i = 0; i < contexts; i++) {
    void *base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      perror("stack_switch: mmap");
      exit(1);
    }
    stacks.push_back(static_cast<char *>(base));
    auto *context = reinterpret_cast<uint64_t *>(stacks.back() + size - i * 128 % 4096) - 2;
    context[0] = 0;
    context[1] = reinterpret_cast<uint64_t>(&ring_body);
    slots[i] = context;
  }
  ring_begin = slots.data();
  ring_end = slots.data() + contexts;
  ring_rounds = rounds;
  auto start = std::chrono::steady_clock::now();
  ring_run();
  double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  for (char *base : stacks) munmap(base, size);
  return ns / (static_cast<double>(contexts) * rounds);
}
