/*
 * Lane context switching for the simulated device (x86-64 System V).
 *
 * A suspended context is its stack pointer, pointing at the callee-saved
 * general registers (r15, r14, r13, r12, rbx, rbp, from the lowest address)
 * and then the address to return to.
 *
 * gpusym_fiber_switch(void **save_sp, void *load_sp) suspends the caller,
 * storing its stack pointer in *save_sp, and resumes load_sp.
 *
 * __gpusym_syncthreads(), called by device code, suspends the lane and
 * resumes the next one straight away (executor.cpp: gpusym_next_sp decides
 * all but the common case, done here: the next lane in order waits at the
 * barrier too).  Lanes waiting at one barrier return to the same place, so
 * the processor predicts the return.  A new lane is started with a jump to
 * gpusym_fiber_entry, not with a return the processor would mispredict.
 *
 * gpusym_lane_exit is how a lane that has exited leaves its stack for good.
 * It is called where kernels are called (gpusym_run_lanes), so it leaves
 * the processor's return predictions as they were before the lane's last
 * return from its kernel, which is what the lane it resumes needs; it jumps
 * to where that lane returns instead of returning there.
 *
 * MXCSR and the x87 control word are not switched: the lanes of a worker
 * share one floating-point environment, as a GPU's threads share their mode
 * registers, and device code has no way to change it.
 *
 * gpusym_fiber_entry is where a new lane starts: the frame prepared for it
 * holds the arguments of gpusym_run_lanes (call_kernel.S) in r12, r13 and
 * r14.  Its return address is marked undefined, so debuggers end a
 * lane's backtrace here.  It calls gpusym_run_lanes through
 * gpusym_fiber_run, a frame for the gdb extension: it prints the launching
 * host stack in the place of the runtime's frames under a kernel, one host
 * frame numbered per runtime frame (gdbext/device_frames.py), and three
 * show the stub, its caller and theirs.
 */
        .set    LANE_SIZE, 72           /* gpusym_lane, see executor.cpp */
        .set    LANE_STATE, 60
        .set    LANE_SAVED_SP, 64
        .set    RUNNING, 1
        .set    AT_BARRIER, 2
        .set    EXECUTOR_END, 0         /* gpusym::Executor */
        .set    EXECUTOR_RECORD, 8
        .set    RECORD_LANE, 8          /* gpusym_debug_executor */

        .text
        .p2align 4
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
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   gpusym_fiber_switch, .-gpusym_fiber_switch

        .p2align 4
        .globl  __gpusym_syncthreads
        .type   __gpusym_syncthreads, @function
__gpusym_syncthreads:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbx, 0
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r12, 0
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r13, 0
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r14, 0
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r15, 0
        movq    __gpusym_lane@GOTTPOFF(%rip), %rcx
        movq    %fs:(%rcx), %rax                /* the lane */
        leaq    LANE_SIZE(%rax), %rdx           /* the next one */
        movq    gpusym_executor@GOTTPOFF(%rip), %r8
        movq    %fs:(%r8), %r8
        cmpq    EXECUTOR_END(%r8), %rdx
        je      1f
        cmpl    $AT_BARRIER, LANE_STATE(%rdx)
        jne     1f
        movq    %rsp, LANE_SAVED_SP(%rax)
        movl    $AT_BARRIER, LANE_STATE(%rax)
        movl    $RUNNING, LANE_STATE(%rdx)
        movq    %rdx, %fs:(%rcx)
        movq    EXECUTOR_RECORD(%r8), %r9
        movq    %rdx, RECORD_LANE(%r9)
        leaq    4*LANE_SIZE(%rdx), %r10
        cmpq    EXECUTOR_END(%r8), %r10
        jae     4f
        movq    LANE_SAVED_SP(%r10), %r10
        prefetcht0 (%r10)
4:      movq    LANE_SAVED_SP(%rdx), %rsp
        jmp     2f
1:      movq    %rsp, %rdi
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        callq   gpusym_next_sp
        movq    %rax, %rsp                      /* a context like the one pushed above */
        .cfi_adjust_cfa_offset -8
        leaq    gpusym_fiber_entry(%rip), %rcx
        cmpq    %rcx, 48(%rsp)
        je      3f
2:      popq    %r15
        .cfi_adjust_cfa_offset -8
        popq    %r14
        .cfi_adjust_cfa_offset -8
        popq    %r13
        .cfi_adjust_cfa_offset -8
        popq    %r12
        .cfi_adjust_cfa_offset -8
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
3:      movq    8(%rsp), %r14                   /* a new lane */
        movq    16(%rsp), %r13
        movq    24(%rsp), %r12
        addq    $56, %rsp
        jmp     gpusym_fiber_entry
        .cfi_endproc
        .size   __gpusym_syncthreads, .-__gpusym_syncthreads

        .p2align 4
        .globl  gpusym_lane_exit
        .hidden gpusym_lane_exit
        .type   gpusym_lane_exit, @function
gpusym_lane_exit:
        .cfi_startproc
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        xorl    %edi, %edi
        callq   gpusym_next_sp
        movq    %rax, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        popq    %rcx
        jmp     *%rcx
        .cfi_endproc
        .size   gpusym_lane_exit, .-gpusym_lane_exit

        .p2align 4
        .globl  gpusym_fiber_entry
        .hidden gpusym_fiber_entry
        .type   gpusym_fiber_entry, @function
gpusym_fiber_entry:
        .cfi_startproc
        .cfi_undefined rip
        movq    %r12, %rdi
        movq    %r13, %rsi
        movq    %r14, %rdx
        callq   gpusym_fiber_run
        ud2
        .cfi_endproc
        .size   gpusym_fiber_entry, .-gpusym_fiber_entry

        .p2align 4
        .type   gpusym_fiber_run, @function
gpusym_fiber_run:
        .cfi_startproc
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        callq   gpusym_run_lanes
        ud2
        .cfi_endproc
        .size   gpusym_fiber_run, .-gpusym_fiber_run

        .section .note.GNU-stack, "", @progbits
