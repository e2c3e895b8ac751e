/* The HIP release whose API the simulated runtime follows
 * (hipRuntimeGetVersion, hipDriverGetVersion, hipconfig --version). */
#pragma once

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH "gpusym"
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME "gpusym"
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
