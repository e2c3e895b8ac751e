/*
 * Lane context switching for the simulated device (x86-64 System V).
 *
 * gpusym_fiber_switch(void **save_sp, void *load_sp) saves the callee-saved
 * registers, MXCSR and the x87 control word on the current stack, stores the
 * stack pointer in *save_sp, switches to load_sp and restores the same frame
 * from there.
 *
 * gpusym_fiber_entry is where a new lane starts: the frame prepared for it
 * holds the lane in r12 and the function to run in r13.  Its return address
 * is marked undefined, so debuggers end a lane's backtrace here.
 */
        .text
        .globl  gpusym_fiber_switch
        .hidden gpusym_fiber_switch
        .type   gpusym_fiber_switch, @function
gpusym_fiber_switch:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        subq    $8, %rsp
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   gpusym_fiber_switch, .-gpusym_fiber_switch

        .globl  gpusym_fiber_entry
        .hidden gpusym_fiber_entry
        .type   gpusym_fiber_entry, @function
gpusym_fiber_entry:
        .cfi_startproc
        .cfi_undefined rip
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .cfi_endproc
        .size   gpusym_fiber_entry, .-gpusym_fiber_entry

        .section .note.GNU-stack, "", @progbits
