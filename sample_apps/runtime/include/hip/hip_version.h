/*
 * The HIP release whose API these headers follow, as HIP's generated
 * hip_version.h gives it (hipRuntimeGetVersion and hipDriverGetVersion
 * answer HIP_VERSION).
 */
#ifndef GPUSYM_HIP_VERSION_H
#define GPUSYM_HIP_VERSION_H

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif
