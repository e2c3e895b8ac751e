/*
 * NVTX, the annotations programs give profilers (ranges, marks, names), as
 * the toolkit's header-only nvtx3 declares them.  No profiler is attached
 * to the simulated device, so each call does nothing and answers as NVTX
 * does without a tool: a push or pop has no nesting level to report
 * (NVTX_NO_PUSH_POP_TRACKING), a range id and a handle are 0.
 */
#ifndef GPUSYM_NVTOOLSEXT_H
#define GPUSYM_NVTOOLSEXT_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define NVTX_VERSION 3
#define NVTX_SUCCESS 0
#define NVTX_FAIL 1
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char *ascii;
  const wchar_t *unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

#define GPUSYM_NVTX static inline

GPUSYM_NVTX void nvtxInitialize(const void *reserved) { (void)reserved; }
GPUSYM_NVTX void nvtxMarkA(const char *message) { (void)message; }
GPUSYM_NVTX void nvtxMarkW(const wchar_t *message) { (void)message; }
GPUSYM_NVTX void nvtxMarkEx(const nvtxEventAttributes_t *attributes) { (void)attributes; }
GPUSYM_NVTX nvtxRangeId_t nvtxRangeStartA(const char *message) { return (void)message, 0; }
GPUSYM_NVTX nvtxRangeId_t nvtxRangeStartW(const wchar_t *message) { return (void)message, 0; }
GPUSYM_NVTX nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attributes) { return (void)attributes, 0; }
GPUSYM_NVTX void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
GPUSYM_NVTX int nvtxRangePushA(const char *message) { return (void)message, NVTX_NO_PUSH_POP_TRACKING; }
GPUSYM_NVTX int nvtxRangePushW(const wchar_t *message) { return (void)message, NVTX_NO_PUSH_POP_TRACKING; }
GPUSYM_NVTX int nvtxRangePushEx(const nvtxEventAttributes_t *attributes) {
  return (void)attributes, NVTX_NO_PUSH_POP_TRACKING;
}
GPUSYM_NVTX int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }
GPUSYM_NVTX void nvtxNameCategoryA(uint32_t category, const char *name) { (void)category, (void)name; }
GPUSYM_NVTX void nvtxNameCategoryW(uint32_t category, const wchar_t *name) { (void)category, (void)name; }
GPUSYM_NVTX void nvtxNameOsThreadA(uint32_t thread, const char *name) { (void)thread, (void)name; }
GPUSYM_NVTX void nvtxNameOsThreadW(uint32_t thread, const wchar_t *name) { (void)thread, (void)name; }

GPUSYM_NVTX nvtxDomainHandle_t nvtxDomainCreateA(const char *name) { return (void)name, (nvtxDomainHandle_t)0; }
GPUSYM_NVTX nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *name) { return (void)name, (nvtxDomainHandle_t)0; }
GPUSYM_NVTX void nvtxDomainDestroy(nvtxDomainHandle_t domain) { (void)domain; }
GPUSYM_NVTX void nvtxDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes) {
  (void)domain, (void)attributes;
}
GPUSYM_NVTX nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes) {
  return (void)domain, (void)attributes, 0;
}
GPUSYM_NVTX void nvtxDomainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id) { (void)domain, (void)id; }
GPUSYM_NVTX int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes) {
  return (void)domain, (void)attributes, NVTX_NO_PUSH_POP_TRACKING;
}
GPUSYM_NVTX int nvtxDomainRangePop(nvtxDomainHandle_t domain) { return (void)domain, NVTX_NO_PUSH_POP_TRACKING; }
GPUSYM_NVTX void nvtxDomainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char *name) {
  (void)domain, (void)category, (void)name;
}
GPUSYM_NVTX nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t domain, const char *string) {
  return (void)domain, (void)string, (nvtxStringHandle_t)0;
}

#endif
