/*
 * cufftXt.h of gpusym: cuFFT's extensible plan calls for one device, which
 * describe a transform by its data types (cudaDataType) rather than a
 * cufftType: cufftXtMakePlanMany, cufftXtGetSizeMany and cufftXtExec, over
 * gpusym's hipFFT.  The kinds of transform are cufft.h's (C2C, R2C, C2R in
 * single and double precision); half precision and the multi-GPU calls
 * (cufftXtSetGPUs, descriptors, cufftXtMemcpy) are not provided.
 */
#ifndef GPUSYM_CUFFTXT_H
#define GPUSYM_CUFFTXT_H
#define _CUFFTXT_H_

#include "cufft.h"

#ifdef __cplusplus
extern "C" {
#endif

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int *onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t *workSize,
                                cudaDataType executiontype);
cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, cudaDataType inputtype,
                               long long int *onembed, long long int ostride, long long int odist,
                               cudaDataType outputtype, long long int batch, size_t *workSize,
                               cudaDataType executiontype);
/* The plan's transform; `direction` counts for complex-to-complex ones. */
cufftResult cufftXtExec(cufftHandle plan, void *input, void *output, int direction);

#ifdef __cplusplus
}
#endif

#endif
