/*
 * A lane's call of its kernel (x86-64 System V).
 *
 * gpusym_call_kernel(const uint64_t *image, void *kernel) calls kernel with
 * the arguments a dispatch laid out once in its call image (internal.h,
 * Signature): the stack words are copied below the return address, xmm0-xmm7
 * are loaded when the image says they carry arguments, then rdi..r9.
 * A frame-pointer frame, so debuggers unwind through it.
 */
        .text
        .globl  gpusym_call_kernel
        .hidden gpusym_call_kernel
        .type   gpusym_call_kernel, @function
gpusym_call_kernel:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        movq    %rsi, %r11
        movq    %rdi, %rax
        movq    0(%rax), %rcx           /* stack words: even, the stack stays aligned */
        testq   %rcx, %rcx
        jz      2f
        leaq    (,%rcx,8), %rdx
        subq    %rdx, %rsp
        xorl    %edx, %edx
1:      movq    128(%rax,%rdx,8), %rsi
        movq    %rsi, (%rsp,%rdx,8)
        incq    %rdx
        cmpq    %rcx, %rdx
        jne     1b
2:      cmpq    $0, 8(%rax)
        je      3f
        movq    64(%rax), %xmm0
        movq    72(%rax), %xmm1
        movq    80(%rax), %xmm2
        movq    88(%rax), %xmm3
        movq    96(%rax), %xmm4
        movq    104(%rax), %xmm5
        movq    112(%rax), %xmm6
        movq    120(%rax), %xmm7
3:      movq    16(%rax), %rdi
        movq    24(%rax), %rsi
        movq    32(%rax), %rdx
        movq    40(%rax), %rcx
        movq    48(%rax), %r8
        movq    56(%rax), %r9
        callq   *%r11
        leave
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   gpusym_call_kernel, .-gpusym_call_kernel

        .section .note.GNU-stack, "", @progbits
