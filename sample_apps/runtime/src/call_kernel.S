/*
 * Lanes calling their kernel (x86-64 System V).
 *
 * gpusym_run_lanes(const uint64_t *image, void *kernel, gpusym_lane *lane)
 * runs lanes on the stack it is called on, from lane, the running one, and
 * never returns.  Each lane calls kernel with the arguments a dispatch laid
 * out once in its call image (internal.h, Signature): the stack words are
 * copied below the return address, xmm0-xmm7 are loaded when the image says
 * they carry arguments, then rdi..r9.  When the call returns, the lane has
 * exited; while the next lane of the block has not started, that one is
 * made the running lane and called the
 * same way.  Then gpusym_lane_resume, when the next lane waits at a
 * barrier, or else gpusym_lane_exit, is called from the same call
 * instruction as the kernel (see fiber_switch.S).
 *
 * A frame-pointer frame, so debuggers unwind through it.
 */
#include "lane_switch.h"

        .text
        .p2align 4
        .globl  gpusym_run_lanes
        .hidden gpusym_run_lanes
        .type   gpusym_run_lanes, @function
gpusym_run_lanes:
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
        movq    %rdi, %r14              /* the image */
        movq    %rsi, %r15              /* the function */
        movq    %rdx, %r12              /* the lane */
        movq    gpusym_executor@GOTTPOFF(%rip), %rax
        movq    %fs:(%rax), %rax
        movq    EXECUTOR_RECORD(%rax), %r13
1:      movq    0(%r14), %rcx           /* stack words: even */
        testq   %rcx, %rcx
        jz      3f
        leaq    (,%rcx,8), %rdx
        subq    %rdx, %rsp
        xorl    %edx, %edx
2:      movq    128(%r14,%rdx,8), %rsi
        movq    %rsi, (%rsp,%rdx,8)
        incq    %rdx
        cmpq    %rcx, %rdx
        jne     2b
3:      cmpq    $0, 8(%r14)
        je      4f
        movq    64(%r14), %xmm0
        movq    72(%r14), %xmm1
        movq    80(%r14), %xmm2
        movq    88(%r14), %xmm3
        movq    96(%r14), %xmm4
        movq    104(%r14), %xmm5
        movq    112(%r14), %xmm6
        movq    120(%r14), %xmm7
4:      movq    16(%r14), %rdi
        movq    24(%r14), %rsi
        movq    32(%r14), %rdx
        movq    40(%r14), %rcx
        movq    48(%r14), %r8
        movq    56(%r14), %r9
7:      callq   *%r15
        leaq    -32(%rbp), %rsp
        movl    $EXITED, LANE_STATE(%r12)
        leaq    LANE_SIZE(%r12), %rax
        cmpl    $UNSTARTED, LANE_STATE(%rax)
        jne     5f
        movq    %rax, %r12
        ENTER_LANE %r12, %r13, %rax
        jmp     1b
5:      cmpl    $AT_BARRIER, LANE_STATE(%rax)
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

        .section .note.GNU-stack, "", @progbits
