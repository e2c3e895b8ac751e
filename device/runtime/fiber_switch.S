/*
 * Lane context switching for the simulated device (x86-64 System V).
 *
 * A suspended context is its stack pointer, pointing at the value of rbp and
 * then the address to go on at.  Device code calls __gpusym_barrier with
 * the preserve_none convention (device_builtins.h): it keeps no other
 * register of its own across the call, so a lane's context is those two
 * words and a switch costs a few stores and loads.
 *
 * gpusym_fiber_switch(void **save_sp, void *load_sp) suspends the caller,
 * storing its stack pointer in *save_sp, and resumes load_sp.  The
 * caller's context goes on at code that restores its callee-saved
 * registers.
 *
 * __gpusym_barrier(), called by device code, suspends the lane and
 * resumes the next one straight away (executor.cpp: gpusym_next_sp decides
 * all but the common cases, done here: the next lane in order waits at the
 * barrier too, or has not started and has a stack).  A waiting lane is
 * resumed with an indirect jump: it may wait at another call site than the
 * running one (the barrier before), where a return would be mispredicted.
 *
 * gpusym_lane_exit is how a lane that has exited leaves its stack for good.
 * It is called where kernels are called (gpusym_run_lanes), so it leaves
 * the processor's return predictions as they were before the lane's last
 * return from its kernel, which is what the lane it resumes needs; it jumps
 * to where that lane goes on instead of returning there.
 *
 * MXCSR and the x87 control word are not switched: the lanes of a worker
 * share one floating-point environment, as a GPU's threads share their mode
 * registers, and device code has no way to change it.
 *
 * gpusym_fiber_entry is where a new lane starts, at the top of its stack:
 * it calls gpusym_run_lanes (call_kernel.S) for the executor's dispatch and
 * the running lane.  Its return address is marked undefined, so debuggers
 * end a lane's backtrace here.  It calls gpusym_run_lanes through
 * gpusym_fiber_run, a frame for the gdb extension: it prints the launching
 * host stack in the place of the runtime's frames under a kernel, one host
 * frame numbered per runtime frame (gdbext/frames/device_frames.py), and three
 * show the stub, its caller and theirs.
 *
 * The executor keeps lanes past the block's last one that are never
 * waiting or unstarted, so the next lane and the one LANES_AHEAD further
 * are always lanes to read.
 */
#include "lane_switch.h"

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
        leaq    1f(%rip), %rax
        pushq   %rax
        pushq   %rbp
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %rbp
        ret
1:      popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   gpusym_fiber_switch, .-gpusym_fiber_switch

        .p2align 4
        .globl  __gpusym_barrier
        .type   __gpusym_barrier, @function
__gpusym_barrier:
        .cfi_startproc
        SWITCH_PROLOGUE
        movq    gpusym_executor@GOTTPOFF(%rip), %r8
        movq    %fs:(%r8), %r8
        movl    LANE_SIZE+LANE_STATE(%rax), %r9d        /* the next one's state */
        cmpl    $AT_BARRIER, %r9d
        jne     2f
        leaq    LANE_SIZE(%rax), %rdx
        movq    %rsp, LANE_SAVED_SP(%rax)
        movl    $AT_BARRIER, LANE_STATE(%rax)
        movq    EXECUTOR_RECORD(%r8), %r9
        RESUME_LANE %rdx, %r9, %r10
2:      cmpl    $UNSTARTED, %r9d                /* start the next lane on its stack */
        jne     1f
        leaq    LANE_SIZE(%rax), %rdx
        leaq    EXECUTOR_LANES(%r8), %r10
        movq    %rdx, %r11
        subq    %r10, %r11
        movabsq $INVERSE_OF_9, %r10
        imulq   %r10, %r11
        movq    EXECUTOR_STACKS(%r8,%r11), %r10
        testq   %r10, %r10
        jz      1f                              /* it has none yet */
        movq    %rsp, LANE_SAVED_SP(%rax)
        movl    $AT_BARRIER, LANE_STATE(%rax)
        movq    $1, EXECUTOR_WAITED(%r8)
        movq    EXECUTOR_RECORD(%r8), %r9
        ENTER_LANE %rdx, %r9, %rcx
        movq    %r10, %rsp
        jmp     gpusym_fiber_entry
1:      movq    %rsp, %rdi
        callq   gpusym_next_sp
        movq    %rax, %rsp                      /* a context like the one pushed above */
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   __gpusym_barrier, .-__gpusym_barrier

/*
 * __gpusym_wave_step(), preserve_none like __gpusym_barrier: device code
 * calls it before an access to __shared__ memory that must happen in
 * lockstep with the lane's wavefront (wave_lockstep.cpp); it is a meeting
 * of the wavefront as a warp function is (executor.cpp), where the lanes
 * at every step meet as at one site.  The common case
 * is done here: the next lane in order has met already and goes on, and
 * this one waits for the next meeting.
 */
        .p2align 4
        .globl  __gpusym_wave_step
        .type   __gpusym_wave_step, @function
__gpusym_wave_step:
        .cfi_startproc
        SWITCH_PROLOGUE
        movq    gpusym_executor@GOTTPOFF(%rip), %r8
        movq    %fs:(%r8), %r8
        CALL_OF %rax, %r8, %r11, %r10
        movl    $WAVE_STEP, CALL_OP(%r11)       /* a meeting with no values: only these are read */
        movq    $STEP_SITE, CALL_SITE(%r11)
        cmpl    $WAVE_OP_DONE, LANE_SIZE+LANE_STATE(%rax)
        jne     1f
        WAIT_FOR_NEXT_LANE %rax, %r8
1:      movq    %rsp, %rdi
        callq   gpusym_wave_meet_sp
        movq    %rax, %rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        jmp     *%rcx
        .cfi_endproc
        .size   __gpusym_wave_step, .-__gpusym_wave_step

/*
 * __gpusym_wave_meet(op, value, arg, width), preserve_none (arguments in
 * r12, r13, r14, r15; the result in rax): a warp function of device code
 * (warp_functions.h), the meeting __gpusym_wave_op is in C.  The lane's
 * call is recorded and its context saved to go on at gpusym_wave_result,
 * which returns the call's result once the wavefront has met; the common
 * case, where the next lane in order has its result of the last meeting, is
 * done here.
 */
        .p2align 4
        .globl  __gpusym_wave_meet
        .type   __gpusym_wave_meet, @function
__gpusym_wave_meet:
        .cfi_startproc
        leaq    gpusym_wave_result(%rip), %r10
        pushq   %r10
        .cfi_adjust_cfa_offset 8
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    __gpusym_lane@GOTTPOFF(%rip), %rcx
        movq    %fs:(%rcx), %rax                /* the lane */
        movq    gpusym_executor@GOTTPOFF(%rip), %r8
        movq    %fs:(%r8), %r8
        CALL_OF %rax, %r8, %r11, %r10
        movl    %r12d, CALL_OP(%r11)
        movl    %r15d, CALL_WIDTH(%r11)
        movq    %r13, CALL_VALUE(%r11)
        movq    %r14, CALL_ARG(%r11)
        movq    16(%rsp), %r10                  /* where it was called */
        movq    %r10, CALL_SITE(%r11)
        cmpl    $WAVE_OP_DONE, LANE_SIZE+LANE_STATE(%rax)
        jne     1f
        WAIT_FOR_NEXT_LANE %rax, %r8
1:      movq    %rsp, %rdi
        subq    $8, %rsp                        /* aligned for the call */
        .cfi_adjust_cfa_offset 8
        callq   gpusym_wave_meet_sp
        movq    %rax, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        jmp     *%rcx
        .cfi_endproc
        .size   __gpusym_wave_meet, .-__gpusym_wave_meet

/* Where a lane that met its wavefront in __gpusym_wave_meet goes on, its
 * caller's return address on top: returns its call's result. */
        .p2align 4
        .type   gpusym_wave_result, @function
gpusym_wave_result:
        .cfi_startproc
        movq    __gpusym_lane@GOTTPOFF(%rip), %rcx
        movq    %fs:(%rcx), %rax
        movq    gpusym_executor@GOTTPOFF(%rip), %r8
        movq    %fs:(%r8), %r8
        CALL_OF %rax, %r8, %r11, %r10
        movq    CALL_RESULT(%r11), %rax
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        jmp     *%rcx
        .cfi_endproc
        .size   gpusym_wave_result, .-gpusym_wave_result

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
        movq    gpusym_executor@GOTTPOFF(%rip), %rax
        movq    %fs:(%rax), %rax
        movq    EXECUTOR_IMAGE(%rax), %rdi
        movq    EXECUTOR_KERNEL(%rax), %rsi
        movq    __gpusym_lane@GOTTPOFF(%rip), %rdx
        movq    %fs:(%rdx), %rdx
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

/*
 * gpusym_lane_entered_watched: ENTER_LANE calls it while a debugger
 * watches lanes, from places where any register may be live; it keeps them
 * all around gpusym_watch_lane_entered() (lane_watch.cpp).
 */
        .p2align 4
        .globl  gpusym_lane_entered_watched
        .hidden gpusym_lane_entered_watched
        .type   gpusym_lane_entered_watched, @function
gpusym_lane_entered_watched:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp
        pushq   %rax
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        subq    $8, %rsp
        movq    __gpusym_lane@GOTTPOFF(%rip), %rdi
        movq    %fs:(%rdi), %rdi
        callq   gpusym_watch_lane_entered
        addq    $8, %rsp
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        popq    %rax
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   gpusym_lane_entered_watched, .-gpusym_lane_entered_watched

        .section .note.GNU-stack, "", @progbits
