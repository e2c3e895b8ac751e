/*
 * Lanes calling their kernel (x86-64 System V).
 *
 * gpusym_run_lanes(const uint64_t *image, void *kernel, gpusym_lane *lane)
 * runs lanes on the stack it is called on, from lane, the running one, and
 * never returns.  Each lane calls kernel with the arguments a dispatch laid
 * out once in its call image (internal.h, Signature): its call area (the
 * values of rdi..r9, then the stack words) is copied below a 64-byte aligned
 * stack pointer, the words the image lists get that stack pointer added (the
 * addresses of by-reference arguments' copies, which lie above the stack
 * arguments), xmm0-xmm7 are loaded when the image says they carry
 * arguments, and rdi..r9 popped from the stack.  When the call returns, the lane has
 * exited; while the next lane of the block has not started, that one is
 * made the running lane and called the
 * same way.  Then gpusym_lane_resume, when the next lane waits at a
 * barrier, or else gpusym_lane_exit, is called from the same call
 * instruction as the kernel (see fiber_switch.S).
 *
 * A frame-pointer frame, so debuggers unwind through it.
 */
#include "lane_switch.h"

/* The start of a function that calls kernels: a frame-pointer frame,
 * through which debuggers unwind, r12-r15 saved, the call image (the first
 * argument) in %r14 and the function (the second) in %r15. */
.macro CALL_FRAME
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %r12
        .cfi_offset %r12, -24
        pushq   %r13
        .cfi_offset %r13, -32
        pushq   %r14
        .cfi_offset %r14, -40
        pushq   %r15
        .cfi_offset %r15, -48
        movq    %rdi, %r14
        movq    %rsi, %r15
.endm

/*
 * The arguments of a call of a kernel, from the call image at %r14: its
 * call area copied below a 64-byte aligned stack pointer, the relative
 * words made addresses, xmm0-xmm7 loaded when the image says they carry
 * arguments and rdi..r9 popped from the stack.  The call comes next.
 */
.macro LOAD_ARGUMENTS
        movq    0(%r14), %rcx           /* call area words: 6 registers, then the stack */
        andq    $-64, %rsp              /* arguments aligned to up to 64 bytes */
        leaq    (,%rcx,8), %rdx
        subq    %rdx, %rsp
        xorl    %edx, %edx
2:      movq    160(%r14,%rdx,8), %rsi
        movq    %rsi, (%rsp,%rdx,8)
        incq    %rdx
        cmpq    %rcx, %rdx
        jne     2b
        leaq    160(%r14,%rcx,8), %rsi  /* the indices of the relative words */
        movq    16(%r14), %rcx
        leaq    48(%rsp), %rax          /* the stack pointer at the call */
        jmp     4f
3:      movq    -8(%rsi,%rcx,8), %rdx
        addq    %rax, (%rsp,%rdx,8)
        decq    %rcx
4:      testq   %rcx, %rcx
        jnz     3b
        cmpq    $0, 8(%r14)
        je      5f
        movdqu  32(%r14), %xmm0
        movdqu  48(%r14), %xmm1
        movdqu  64(%r14), %xmm2
        movdqu  80(%r14), %xmm3
        movdqu  96(%r14), %xmm4
        movdqu  112(%r14), %xmm5
        movdqu  128(%r14), %xmm6
        movdqu  144(%r14), %xmm7
5:      popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        popq    %r8
        popq    %r9
.endm

        .text
        .p2align 4
        .globl  gpusym_run_lanes
        .hidden gpusym_run_lanes
        .type   gpusym_run_lanes, @function
gpusym_run_lanes:
        CALL_FRAME
        movq    %rdx, %r12              /* the lane */
        movq    gpusym_executor@GOTTPOFF(%rip), %rax
        movq    %fs:(%rax), %rax
        movq    EXECUTOR_RECORD(%rax), %r13
1:      LOAD_ARGUMENTS
7:      callq   *%r15
        .globl  gpusym_lane_returned
        .hidden gpusym_lane_returned
gpusym_lane_returned:                   /* where a debugger sees a lane finish (gdbext/lanes/stepping.py) */
        leaq    -32(%rbp), %rsp
        movl    $EXITED, LANE_STATE(%r12)
        leaq    LANE_SIZE(%r12), %rax
        cmpl    $UNSTARTED, LANE_STATE(%rax)
        jne     8f
        movq    %rax, %r12
        ENTER_LANE %r12, %r13, %rax
        jmp     1b
8:      cmpl    $AT_BARRIER, LANE_STATE(%rax)
        jne     6f
        leaq    gpusym_lane_resume(%rip), %r15  /* the next lane waits at a barrier */
        jmp     7b
6:      leaq    gpusym_lane_exit(%rip), %r15
        jmp     1b
        .cfi_endproc
        .size   gpusym_run_lanes, .-gpusym_run_lanes

/*
 * gpusym_lane_resume resumes the lane after the one that has exited (in
 * %rax), which waits at a barrier, as a return from __gpusym_barrier.
 * gpusym_run_lanes calls it from where it calls kernels, for the same
 * reason as gpusym_lane_exit.
 */
        .p2align 4
        .type   gpusym_lane_resume, @function
gpusym_lane_resume:
        .cfi_startproc
        RESUME_LANE %rax, %r13, %rdx
        .cfi_endproc
        .size   gpusym_lane_resume, .-gpusym_lane_resume

/*
 * gpusym_call_kernel(const uint64_t *image, void *kernel) calls kernel once
 * with the arguments of its call image, on the stack it is called on, and
 * returns: a block in its kernel's fast form, one lane looping over the
 * block's threads, which never waits for another lane.
 */
        .p2align 4
        .globl  gpusym_call_kernel
        .hidden gpusym_call_kernel
        .type   gpusym_call_kernel, @function
gpusym_call_kernel:
        CALL_FRAME
        LOAD_ARGUMENTS
        callq   *%r15
        leaq    -32(%rbp), %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        retq
        .cfi_endproc
        .size   gpusym_call_kernel, .-gpusym_call_kernel

        .section .note.GNU-stack, "", @progbits
