/*
 * <hip/hip_profile.h>: older HIP's profiler markers, which HIP itself has
 * long made into nothing; so are they here.
 */
#ifndef GPUSYM_HIP_PROFILE_H
#define GPUSYM_HIP_PROFILE_H

#define HIP_SCOPED_MARKER(markerName, group)
#define HIP_BEGIN_MARKER(markerName, group)
#define HIP_END_MARKER()

#endif
