/*
 * <hipfft/hipfftXt.h>: hipFFT's extended API.  hipfftXtMakePlanMany,
 * hipfftXtGetSizeMany and hipfftXtExec work for the types of hipfft.h (32-
 * and 64-bit floating point); callbacks, half precision and the
 * multi-device functions answer HIPFFT_NOT_SUPPORTED, saying so once on
 * stderr.  C and C++.
 */
#ifndef HIPFFTXT_H_
#define HIPFFTXT_H_

#include "hipfft/hipfft.h"
#include "hipfft/hiplibxt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* LD callbacks load input elements, ST ones store output elements. */
typedef enum hipfftXtCallbackType_t {
  HIPFFT_CB_LD_COMPLEX = 0x0,
  HIPFFT_CB_LD_COMPLEX_DOUBLE = 0x1,
  HIPFFT_CB_LD_REAL = 0x2,
  HIPFFT_CB_LD_REAL_DOUBLE = 0x3,
  HIPFFT_CB_ST_COMPLEX = 0x4,
  HIPFFT_CB_ST_COMPLEX_DOUBLE = 0x5,
  HIPFFT_CB_ST_REAL = 0x6,
  HIPFFT_CB_ST_REAL_DOUBLE = 0x7,
  HIPFFT_CB_UNDEFINED = 0x8
} hipfftXtCallbackType;

typedef hipfftComplex (*hipfftCallbackLoadC)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef hipfftDoubleComplex (*hipfftCallbackLoadZ)(void *dataIn, size_t offset, void *callerInfo,
                                                   void *sharedPointer);
typedef hipfftReal (*hipfftCallbackLoadR)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef hipfftDoubleReal (*hipfftCallbackLoadD)(void *dataIn, size_t offset, void *callerInfo,
                                                void *sharedPointer);
typedef void (*hipfftCallbackStoreC)(void *dataOut, size_t offset, hipfftComplex element, void *callerInfo,
                                     void *sharedPointer);
typedef void (*hipfftCallbackStoreZ)(void *dataOut, size_t offset, hipfftDoubleComplex element,
                                     void *callerInfo, void *sharedPointer);
typedef void (*hipfftCallbackStoreR)(void *dataOut, size_t offset, hipfftReal element, void *callerInfo,
                                     void *sharedPointer);
typedef void (*hipfftCallbackStoreD)(void *dataOut, size_t offset, hipfftDoubleReal element, void *callerInfo,
                                     void *sharedPointer);

HIPFFT_EXPORT hipfftResult hipfftXtSetCallback(hipfftHandle plan, void **callbacks, hipfftXtCallbackType cbtype,
                                               void **callbackData);
HIPFFT_EXPORT hipfftResult hipfftXtClearCallback(hipfftHandle plan, hipfftXtCallbackType cbtype);
HIPFFT_EXPORT hipfftResult hipfftXtSetCallbackSharedSize(hipfftHandle plan, hipfftXtCallbackType cbtype,
                                                         size_t sharedSize);

/* A plan by the data types of input, output and computation. */
HIPFFT_EXPORT hipfftResult hipfftXtMakePlanMany(hipfftHandle plan, int rank, long long int *n,
                                                long long int *inembed, long long int istride,
                                                long long int idist, hipDataType inputType,
                                                long long int *onembed, long long int ostride,
                                                long long int odist, hipDataType outputType, long long int batch,
                                                size_t *workSize, hipDataType executionType);
HIPFFT_EXPORT hipfftResult hipfftXtGetSizeMany(hipfftHandle plan, int rank, long long int *n,
                                               long long int *inembed, long long int istride, long long int idist,
                                               hipDataType inputType, long long int *onembed,
                                               long long int ostride, long long int odist, hipDataType outputType,
                                               long long int batch, size_t *workSize, hipDataType executionType);
/* Any plan's transform (direction is used by complex-to-complex ones). */
HIPFFT_EXPORT hipfftResult hipfftXtExec(hipfftHandle plan, void *input, void *output, int direction);

/* Several devices. */
HIPFFT_EXPORT hipfftResult hipfftXtSetGPUs(hipfftHandle plan, int count, int *gpus);

typedef enum hipfftXtSubFormat_t {
  HIPFFT_XT_FORMAT_INPUT = 0x00,
  HIPFFT_XT_FORMAT_OUTPUT = 0x01,
  HIPFFT_XT_FORMAT_INPLACE = 0x02,
  HIPFFT_XT_FORMAT_INPLACE_SHUFFLED = 0x03,
  HIPFFT_XT_FORMAT_1D_INPUT_SHUFFLED = 0x04,
  HIPFFT_FORMAT_UNDEFINED = 0x05
} hipfftXtSubFormat;

HIPFFT_EXPORT hipfftResult hipfftXtMalloc(hipfftHandle plan, hipLibXtDesc **desc, hipfftXtSubFormat format);
HIPFFT_EXPORT hipfftResult hipfftXtMemcpy(hipfftHandle plan, void *dest, void *src, hipfftXtCopyType type);
HIPFFT_EXPORT hipfftResult hipfftXtFree(hipLibXtDesc *desc);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorC2C(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output,
                                                     int direction);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorR2C(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorC2R(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorZ2Z(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output,
                                                     int direction);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorD2Z(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptorZ2D(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output);
HIPFFT_EXPORT hipfftResult hipfftXtExecDescriptor(hipfftHandle plan, hipLibXtDesc *input, hipLibXtDesc *output,
                                                  int direction);

#ifdef __cplusplus
}
#endif

#endif
