/* Another HIP runtime, as far as a debugger can tell: the entry points the
 * program calls, doing nothing (tests/programs/other_runtime.hip). */
void **__hipRegisterFatBinary(const void *wrapper) { (void)wrapper; return 0; }
void __hipUnregisterFatBinary(void **modules) { (void)modules; }
void __hipRegisterFunction(void) {}
int __hipPushCallConfiguration(void) { return 0; }
int __hipPopCallConfiguration(void) { return 0; }
int hipLaunchKernel(void) { return 0; }
