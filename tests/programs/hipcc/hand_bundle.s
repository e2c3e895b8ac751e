# A fat binary made by hand, as programs with hand-written device code do:
# the bundle's bytes under the symbol clang's host code refers to.
  .globl __hip_fatbin
  .section .hip_fatbin,"a",@progbits
  .p2align 12
__hip_fatbin:
  .incbin "BUNDLE"
  .section .note.GNU-stack,"",@progbits
