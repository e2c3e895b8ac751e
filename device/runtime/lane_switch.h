/*
 * What the lane assembly (call_kernel.S, fiber_switch.S) shares: the layouts
 * it reads, checked against the C++ ones in executor.cpp, and the two steps
 * every lane switch ends with.
 */
        .set    LANE_SIZE, 72           /* gpusym_lane */
        .set    LANE_STATE, 60
        .set    LANE_SAVED_SP, 64
        .set    UNSTARTED, 0
        .set    RUNNING, 1
        .set    AT_BARRIER, 2
        .set    EXITED, 3
        .set    AT_WAVE_OP, 4
        .set    WAVE_OP_DONE, 5
        .set    LANES_AHEAD, 4          /* whose context is prefetched; lanes past the last stand in */
        .set    EXECUTOR_RECORD, 8      /* gpusym::Executor */
        .set    EXECUTOR_KERNEL, 16
        .set    EXECUTOR_IMAGE, 24
        .set    EXECUTOR_WAITED, 32
        .set    EXECUTOR_STACKS, 40
        .set    EXECUTOR_LANES, 40+8*1024
        .set    EXECUTOR_CALLS, 82272   /* WaveCall calls[1024] */
        .set    CALL_SIZE, 40           /* WaveCall */
        .set    CALL_OP, 0
        .set    CALL_WIDTH, 4
        .set    CALL_VALUE, 8
        .set    CALL_ARG, 16
        .set    CALL_SITE, 24
        .set    CALL_RESULT, 32
        .set    WAVE_STEP, 17           /* GPUSYM_WAVE_STEP */
        .set    STEP_SITE, 1            /* executor.cpp: kStepSite */
        .set    RECORD_LANE, 8          /* gpusym_debug_executor */
        .set    DEBUG_WATCH_COUNT, 152  /* gpusym_debug.watch_count */

/* The start of a switch device code calls (preserve_none): rbp pushed, the
 * first word of the context it saves, and the running lane in %rax. */
.macro SWITCH_PROLOGUE
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    __gpusym_lane@GOTTPOFF(%rip), %rcx
        movq    %fs:(%rcx), %rax
.endm

/* The running `lane` waits at a meeting of its wavefront, its context at
 * the stack pointer, and the next lane, which has its result of the last
 * meeting, goes on: as many lanes wait as before. */
.macro WAIT_FOR_NEXT_LANE lane, executor
        movq    %rsp, LANE_SAVED_SP(\lane)
        movl    $AT_WAVE_OP, LANE_STATE(\lane)
        leaq    LANE_SIZE(\lane), %rdx
        movq    EXECUTOR_RECORD(\executor), %r9
        RESUME_LANE %rdx, %r9, %r10
.endm

/* `out` = &executor.calls[index of `lane`]: the lane's offset from the
 * first is index * 72, times the inverse of 9 is index * 8, times 5 is
 * index * CALL_SIZE. */
        .set    INVERSE_OF_9, 0x8e38e38e38e38e39
.macro CALL_OF lane, executor, out, scratch
        leaq    EXECUTOR_LANES(\executor), \scratch
        movq    \lane, \out
        subq    \scratch, \out
        movabsq $INVERSE_OF_9, \scratch
        imulq   \scratch, \out
        leaq    (\out,\out,4), \out
        leaq    EXECUTOR_CALLS(\executor,\out), \out
.endm

/* Makes `lane` the running lane, as executor.cpp's enter() does; `record`
 * is the executor's debugger record.  While a debugger watches lanes
 * (lane_watch.cpp), it hears of the switch; every register is kept. */
.macro ENTER_LANE lane, record, scratch
        movl    $RUNNING, LANE_STATE(\lane)
        movq    __gpusym_lane@GOTTPOFF(%rip), \scratch
        movq    \lane, %fs:(\scratch)
        movq    \lane, RECORD_LANE(\record)
        movq    gpusym_debug@GOTPCREL(%rip), \scratch
        cmpl    $0, DEBUG_WATCH_COUNT(\scratch)
        je      .Lunwatched\@
        callq   gpusym_lane_entered_watched
.Lunwatched\@:
.endm

/* Enters `lane`, which waits at a barrier, and goes on where it waits, after
 * prefetching the context of the lane LANES_AHEAD further. */
.macro RESUME_LANE lane, record, scratch
        ENTER_LANE \lane, \record, \scratch
        movq    LANES_AHEAD*LANE_SIZE+LANE_SAVED_SP(\lane), \scratch
        prefetcht0 (\scratch)
        movq    LANE_SAVED_SP(\lane), %rsp
        popq    %rbp
        popq    %rcx
        jmpq    *%rcx
.endm
