/* vulkan.c — the Vulkan compute back end, over libvulkan.so.1 opened at run time (Debian's
 * libvulkan-dev gives the types; VK_NO_PROTOTYPES: nothing is linked, every entry point comes
 * from vkGetInstanceProcAddr).
 *
 * It runs the bundle's VKSPIRV section (docs/bundle.md, "Vulkan"): each kernel a GLCompute
 * entry point whose parameters are a push-constant block (buffers as device addresses, so
 * there are no descriptor sets) and whose block shape is specialisation constants 0..2, so
 * that a pipeline is made per (kernel, block shape) on first use.
 *
 * One instance for the process; per device one VkDevice with one compute queue. Every
 * kcrt_queue submits to that queue, each submission a command buffer of its own that starts
 * with a full memory barrier: Vulkan orders nothing between submissions by itself, and the
 * barrier makes each wait for everything submitted before it (kcrt's queues are then
 * serialised on the device; batching and concurrency are later work). A launch returns once
 * submitted; its fence is waited by the queue's next sync. Copies between host and device go
 * through a host-visible staging buffer and wait for their own fence. Events are timestamp
 * queries written after all earlier work. */
#define VK_NO_PROTOTYPES
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

/* ---------------------------------------------------------------- loader */

#define VK_GLOBAL_FUNCS(X)                                                                         \
  X(vkCreateInstance)                                                                              \
  X(vkEnumerateInstanceVersion)
#define VK_INSTANCE_FUNCS(X)                                                                       \
  X(vkDestroyInstance)                                                                             \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkGetPhysicalDeviceProperties2)                                                                \
  X(vkGetPhysicalDeviceFeatures2)                                                                  \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkEnumerateDeviceExtensionProperties)                                                          \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkCreateDevice)                                                                                \
  X(vkDestroyDevice)                                                                               \
  X(vkGetDeviceQueue)                                                                              \
  X(vkDeviceWaitIdle)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkGetBufferMemoryRequirements)                                                                 \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkMapMemory)                                                                                   \
  X(vkUnmapMemory)                                                                                 \
  X(vkGetBufferDeviceAddress)                                                                      \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkFreeCommandBuffers)                                                                          \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkCmdCopyBuffer)                                                                               \
  X(vkCmdFillBuffer)                                                                               \
  X(vkCmdUpdateBuffer)                                                                             \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdPushConstants)                                                                            \
  X(vkCmdDispatch)                                                                                 \
  X(vkCmdWriteTimestamp)                                                                           \
  X(vkCmdResetQueryPool)                                                                           \
  X(vkQueueSubmit)                                                                                 \
  X(vkCreateSemaphore)                                                                             \
  X(vkDestroySemaphore)                                                                            \
  X(vkWaitSemaphores)                                                                              \
  X(vkGetSemaphoreCounterValue)                                                                    \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkDestroyPipelineLayout)                                                                       \
  X(vkCreateComputePipelines)                                                                      \
  X(vkCreatePipelineCache)                                                                         \
  X(vkDestroyPipelineCache)                                                                        \
  X(vkGetPipelineCacheData)                                                                        \
  X(vkDestroyPipeline)                                                                             \
  X(vkCreateQueryPool)                                                                             \
  X(vkDestroyQueryPool)                                                                            \
  X(vkGetQueryPoolResults)

static struct {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define DECL(name) PFN_##name name;
  VK_GLOBAL_FUNCS(DECL) VK_INSTANCE_FUNCS(DECL)
#undef DECL
} vk;

static VkInstance instance;
static char load_error[400];

static const char *vk_result_name(VkResult r) {
  switch (r) {
  case VK_SUCCESS: return "VK_SUCCESS";
  case VK_NOT_READY: return "VK_NOT_READY";
  case VK_TIMEOUT: return "VK_TIMEOUT";
  case VK_INCOMPLETE: return "VK_INCOMPLETE";
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
  case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
  default: return "VkResult";
  }
}

static kcrt_status status_of(VkResult r) {
  switch (r) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return KCRT_ERROR_OUT_OF_MEMORY;
  case VK_ERROR_DEVICE_LOST: return KCRT_ERROR_LAUNCH_FAILED;
  case VK_ERROR_INVALID_SHADER_NV: return KCRT_ERROR_BUILD_FAILED;
  default: return KCRT_ERROR_DRIVER;
  }
}

static kcrt_status fail(VkResult r, const char *what) {
  return kcrt_fail(status_of(r), "Vulkan: %s failed: %s (%d)", what, vk_result_name(r), (int)r);
}

/* Loads the loader and makes the process's instance (Vulkan 1.2: device addresses are core). */
static bool load(void) {
  void *h = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(load_error, sizeof load_error, "libvulkan.so.1 not found (%s)", dlerror());
    return false;
  }
  *(void **)&vk.vkGetInstanceProcAddr = dlsym(h, "vkGetInstanceProcAddr");
  if (!vk.vkGetInstanceProcAddr) {
    snprintf(load_error, sizeof load_error, "libvulkan.so.1 lacks vkGetInstanceProcAddr");
    return false;
  }
#define LOAD_GLOBAL(name) vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(NULL, #name);
  VK_GLOBAL_FUNCS(LOAD_GLOBAL)
#undef LOAD_GLOBAL
  uint32_t ver = VK_API_VERSION_1_0;
  if (!vk.vkCreateInstance || !vk.vkEnumerateInstanceVersion ||
      vk.vkEnumerateInstanceVersion(&ver) != VK_SUCCESS || ver < VK_API_VERSION_1_2) {
    snprintf(load_error, sizeof load_error,
             "the Vulkan loader is older than 1.2 (kcc needs buffer device addresses)");
    return false;
  }
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "libkcrt",
                           .pEngineName = "kcc",
                           .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                             .pApplicationInfo = &app};
  VkResult r = vk.vkCreateInstance(&ci, NULL, &instance);
  if (r != VK_SUCCESS) {
    snprintf(load_error, sizeof load_error, "vkCreateInstance failed: %s (%d)", vk_result_name(r),
             (int)r);
    return false;
  }
#define LOAD_INSTANCE(name)                                                                        \
  if (!(vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(instance, #name))) {                        \
    snprintf(load_error, sizeof load_error, "the Vulkan loader lacks %s", #name);                  \
    return false;                                                                                  \
  }
  VK_INSTANCE_FUNCS(LOAD_INSTANCE)
#undef LOAD_INSTANCE
  return true;
}

/* ---------------------------------------------------------------- devices */

/* What enumeration learnt of a physical device: what it can enable. */
typedef struct VkPhys {
  VkPhysicalDevice pd;
  uint32_t family; /* the queue family with compute */
  VkPhysicalDeviceFeatures2 f;
  VkPhysicalDeviceVulkan11Features f11;
  VkPhysicalDeviceVulkan12Features f12;
  VkPhysicalDeviceLimits limits;
  uint32_t timestamp_bits;
  uint8_t cache_uuid[VK_UUID_SIZE]; /* the driver's pipeline cache compatibility */
  bool szinp32, szinp64;            /* shaderSignedZeroInfNanPreserveFloat32/64 */
  bool dp32, dp64;                  /* shaderDenormPreserveFloat32/64 */
  uint32_t subgroup_ops;            /* VkSubgroupFeatureFlags in compute shaders, else 0 */
  uint32_t subgroup_size;           /* the device's (VkPhysicalDeviceVulkan11Properties) */
  bool zero_fixes;                  /* its compiler needs kcc's zero fixes (below) */
  bool fma_fused;                   /* its Fma rounds once (below) */
} VkPhys;

static const char *vendor_name(uint32_t id) {
  switch (id) {
  case 0x10de: return "NVIDIA";
  case 0x1002: return "AMD";
  case 0x8086: return "Intel";
  case 0x10005: return "Mesa";
  case 0x13b5: return "ARM";
  case 0x5143: return "Qualcomm";
  case 0x106b: return "Apple";
  default: return NULL;
  }
}

/* Whether KCC_DEVICE asks for the Vulkan back end ("vulkan", "vulkan:N", "vk", "vk:N"). */
static bool vulkan_asked(void) {
  const char *s = getenv("KCC_DEVICE");
  return s &&
         (!strncasecmp(s, "vulkan", 6) || (!strncasecmp(s, "vk", 2) && (!s[2] || s[2] == ':')));
}

/* Whether physical device pd has device extension `name`. */
static bool has_extension(VkPhysicalDevice pd, const char *name) {
  uint32_t n = 0;
  if (vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || !n) return false;
  VkExtensionProperties *e = calloc(n, sizeof *e);
  bool found = false;
  if (e && vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) >= 0)
    for (uint32_t i = 0; i < n && !found; i++) found = !strcmp(e[i].extensionName, name);
  free(e);
  return found;
}

/* The device's compute units, where its vendor's extension says (Vulkan itself does not):
 * NVIDIA's SMs, AMD's compute units; 0 elsewhere. Launch sizes that fill the device (a
 * grid-stride loop's blocks per unit) depend on it. */
static uint32_t compute_units(VkPhysicalDevice pd) {
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCorePropertiesAMD amd = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  if (has_extension(pd, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    props.pNext = &nv;
    vk.vkGetPhysicalDeviceProperties2(pd, &props);
    return nv.shaderSMCount;
  }
  if (has_extension(pd, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    props.pNext = &amd;
    vk.vkGetPhysicalDeviceProperties2(pd, &props);
    return amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
  }
  return 0;
}

#if defined(__SANITIZE_ADDRESS__)
#define KCRT_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KCRT_LSAN 1
#endif
#endif

/* No device kept: the instance and the drivers it loaded are given back at once. Not under
 * LeakSanitizer: the loader then unloads the drivers, and what a driver keeps for the life of
 * the process in its own globals (lavapipe: Mesa's CPU detection, 128 bytes on AMD CPUs)
 * becomes unreachable, a leak that is not one and whose stack names no module to suppress. */
static void drop_instance(void) {
#ifndef KCRT_LSAN
  vk.vkDestroyInstance(instance, NULL);
  instance = VK_NULL_HANDLE;
#endif
}

static void vk_enumerate(KcrtDevEntry **list, int *n, char *why, size_t whylen) {
  if (!load()) {
    snprintf(why, whylen, "%s", load_error);
    return;
  }
  uint32_t count = 0;
  if (vk.vkEnumeratePhysicalDevices(instance, &count, NULL) != VK_SUCCESS || !count) {
    snprintf(why, whylen, "no Vulkan device");
    drop_instance();
    return;
  }
  VkPhysicalDevice *pds = calloc(count, sizeof *pds);
  if (!pds || vk.vkEnumeratePhysicalDevices(instance, &count, pds) < 0) {
    free(pds);
    return;
  }
  /* CPU implementations (lavapipe) are listed only when KCC_DEVICE asks for Vulkan: the same
   * CPU is PoCL's OpenCL device already (docs/runtime.md, "Vulkan"). */
  bool cpus = vulkan_asked();
  int skipped_cpu = 0, index = 0;
  char skipped[256] = "";
  for (uint32_t i = 0; i < count; i++) {
    VkPhys *p = calloc(1, sizeof *p);
    if (!p) break;
    p->pd = pds[i];
    VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceFloatControlsProperties fc = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES, .pNext = &drv};
    VkPhysicalDeviceVulkan11Properties p11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &fc};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = &p11};
    vk.vkGetPhysicalDeviceProperties2(pds[i], &props);
    const VkPhysicalDeviceProperties *pr = &props.properties;
    if (pr->apiVersion < VK_API_VERSION_1_2) {
      free(p);
      continue; /* no buffer device addresses in core */
    }
    p->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    p->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    p->f11.pNext = &p->f12;
    p->f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    p->f.pNext = &p->f11;
    vk.vkGetPhysicalDeviceFeatures2(pds[i], &p->f);
    p->f.pNext = p->f11.pNext = p->f12.pNext = NULL;
    uint32_t nf = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &nf, NULL);
    VkQueueFamilyProperties *qf = calloc(nf ? nf : 1, sizeof *qf);
    if (qf) vk.vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &nf, qf);
    int fam = -1;
    for (uint32_t j = 0; qf && j < nf && fam < 0; j++)
      if (qf[j].queueFlags & VK_QUEUE_COMPUTE_BIT) fam = (int)j;
    if (fam >= 0) p->timestamp_bits = qf[fam].timestampValidBits;
    free(qf);
    if (fam < 0 || !p->f12.bufferDeviceAddress || !p->f.features.shaderInt64 ||
        !p->f12.timelineSemaphore) {
      /* kcc's modules need a compute queue, device addresses and 64-bit integers; the
         runtime, timeline semaphores (all three are Vulkan 1.2 features) */
      free(p);
      continue;
    }
    p->family = (uint32_t)fam;
    p->limits = pr->limits;
    memcpy(p->cache_uuid, pr->pipelineCacheUUID, VK_UUID_SIZE);
    p->szinp32 = fc.shaderSignedZeroInfNanPreserveFloat32;
    p->szinp64 = fc.shaderSignedZeroInfNanPreserveFloat64;
    p->dp32 = fc.shaderDenormPreserveFloat32;
    p->dp64 = fc.shaderDenormPreserveFloat64;
    if (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
      p->subgroup_ops = p11.subgroupSupportedOperations;
    p->subgroup_size = p11.subgroupSize;
    /* kcc's Vulkan form guards float arithmetic with zeros against compilers that fold it
     * wrongly (Mesa's: docs/driver-bugs.md 21, 22) under specialisation constant 7; it is
     * turned off only for drivers whose arithmetic tests/vulkan/ieee.c and divzero.c have
     * found right without it (NVIDIA's, on an H200: bench/RESULTS.md, session 29). */
    const char *zf = getenv("KCC_VULKAN_ZERO_FIXES"); /* 0 or 1: for checking a driver */
    p->zero_fixes = zf && *zf ? *zf != '0' : drv.driverID != VK_DRIVER_ID_NVIDIA_PROPRIETARY;
    /* Specialisation constant 9: Fma is fused (one rounding) on NVIDIA's driver, whose FFMA
     * and DFMA are; tests/vulkan's ieee, divzero and mathfn check the exact quotients, square
     * roots, fma and double math that rely on it there (bench/RESULTS.md). Other drivers keep
     * Dekker's products: Vulkan does not promise a fused Fma, and lavapipe's is not. */
    const char *ff = getenv("KCC_VULKAN_FMA_FUSED"); /* 0 or 1: for checking a driver */
    p->fma_fused = ff && *ff ? *ff != '0' : drv.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
    bool cpu = pr->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    if (cpu && !cpus) {
      if (!skipped_cpu++) snprintf(skipped, sizeof skipped, "%s", pr->deviceName);
      free(p);
      continue;
    }
    KcrtDevEntry *l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
    if (!l) {
      free(p);
      break;
    }
    *list = l;
    KcrtDevEntry *e = &l[(*n)++];
    memset(e, 0, sizeof *e);
    kcrt_device_info *f = &e->info;
    f->backend = KCRT_BACKEND_VULKAN;
    f->type = cpu                                               ? KCRT_DEVICE_CPU
              : pr->deviceType == VK_PHYSICAL_DEVICE_TYPE_OTHER ? KCRT_DEVICE_OTHER
                                                                : KCRT_DEVICE_GPU;
    f->backend_index = index++;
    snprintf(f->name, sizeof f->name, "%s", pr->deviceName);
    const char *vn = vendor_name(pr->vendorID);
    if (vn)
      snprintf(f->vendor, sizeof f->vendor, "%s", vn);
    else
      snprintf(f->vendor, sizeof f->vendor, "vendor 0x%x", pr->vendorID);
    snprintf(f->platform, sizeof f->platform, "Vulkan %u.%u", VK_API_VERSION_MAJOR(pr->apiVersion),
             VK_API_VERSION_MINOR(pr->apiVersion));
    snprintf(f->driver_version, sizeof f->driver_version, "%.60s %.60s", drv.driverName,
             drv.driverInfo);
    VkPhysicalDeviceMemoryProperties mp;
    vk.vkGetPhysicalDeviceMemoryProperties(pds[i], &mp);
    for (uint32_t h = 0; h < mp.memoryHeapCount; h++)
      if ((mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
          mp.memoryHeaps[h].size > f->global_mem_bytes)
        f->global_mem_bytes = mp.memoryHeaps[h].size;
    f->max_alloc_bytes = p11.maxMemoryAllocationSize;
    if (f->global_mem_bytes && f->max_alloc_bytes > f->global_mem_bytes)
      f->max_alloc_bytes = f->global_mem_bytes;
    f->compute_units = compute_units(pds[i]);
    for (int k = 0; k < 3; k++) {
      f->max_block_dim[k] = pr->limits.maxComputeWorkGroupSize[k];
      f->max_grid_dim[k] = pr->limits.maxComputeWorkGroupCount[k];
    }
    f->max_threads_per_block = pr->limits.maxComputeWorkGroupInvocations;
    f->max_shared_bytes = pr->limits.maxComputeSharedMemorySize;
    f->fp64 = p->f.features.shaderFloat64 ? 1 : 0;
    f->denormals = (p->dp32 ? KCRT_DENORMALS_F32 : 0) | (p->dp64 ? KCRT_DENORMALS_F64 : 0);
    e->be = &kcrt_vulkan_backend;
    e->h1 = p;
  }
  free(pds);
  if (!*n) {
    drop_instance();
  }
  if (skipped_cpu)
    snprintf(why, whylen, "%d CPU device%s (%s) listed only for KCC_DEVICE=vulkan", skipped_cpu,
             skipped_cpu == 1 ? "" : "s", skipped);
  else if (!*n)
    snprintf(why, whylen,
             "no Vulkan 1.2 device with compute, device addresses, int64 and timeline semaphores");
}

/* ---------------------------------------------------------------- device state */

typedef struct VkStage {
  VkBuffer buf;
  VkDeviceMemory mem;
  void *map;
  VkDeviceSize size;
} VkStage;

/* A buffer: its VkBuffer, and where in it this kcrt_buffer starts (views share their
 * parent's). */
typedef struct VkBuf {
  VkBuffer buf;
  VkDeviceMemory mem;
  VkDeviceSize off;
  bool owner;
} VkBuf;

typedef struct VkCmd VkCmd;
typedef struct VkGrave VkGrave;

typedef struct VkDev {
  const VkPhys *p;
  VkDevice dev;
  VkQueue queue;
  VkCommandPool pool;
  VkPhysicalDeviceMemoryProperties mp;
  float timestamp_period; /* nanoseconds per tick */
  uint32_t push_limit;
  /* The queue, the command pool and the staging buffer are used by one thread at a time. */
  pthread_mutex_t lock;
  VkStage stage;
  /* The frames of kernels whose locals' addresses escape (docs/bundle.md, "Vulkan"): one
   * buffer for every launch, which the submissions' barriers keep from overlapping. */
  VkBuf scratch;
  VkDeviceSize scratch_size;
  uint64_t scratch_addr;
  /* Batches (below): the timeline semaphore each signals, the last value submitted and the
   * last seen done, the one being recorded, those submitted and not seen done (in value
   * order), the last submitted, and command buffers to reuse. */
  VkSemaphore tl;
  uint64_t submitted, done;
  VkCmd *open, *last;
  int open_launches;
  VkCmd **flight, **spare;
  int nflight, capflight, nspare, capspare;
  VkGrave *graves; /* buffers freed while batches that may use them were to run */
  int ngraves, capgraves;
} VkDev;

static VkDev *vd(kcrt_device *d) {
  return d->priv;
}

static kcrt_status vk_open(kcrt_device *dev) {
  const VkPhys *p = dev->entry->h1;
  VkDev *c = calloc(1, sizeof *c);
  if (!c) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  c->p = p;
  /* Everything the device has of what kcc's modules may declare (docs/bundle.md). */
  VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.bufferDeviceAddress = VK_TRUE;
  f12.timelineSemaphore = VK_TRUE;
  f12.shaderInt8 = p->f12.shaderInt8;
  f12.storageBuffer8BitAccess = p->f12.storageBuffer8BitAccess;
  f12.shaderBufferInt64Atomics = p->f12.shaderBufferInt64Atomics;
  f12.shaderSharedInt64Atomics = p->f12.shaderSharedInt64Atomics;
  f12.shaderSubgroupExtendedTypes = p->f12.shaderSubgroupExtendedTypes;
  VkPhysicalDeviceVulkan11Features f11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
  f11.storageBuffer16BitAccess = p->f11.storageBuffer16BitAccess;
  VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                 .pNext = &f11};
  f.features.shaderInt64 = VK_TRUE;
  f.features.shaderInt16 = p->f.features.shaderInt16;
  f.features.shaderFloat64 = p->f.features.shaderFloat64;
  float prio = 1.0f;
  VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                               .queueFamilyIndex = p->family,
                               .queueCount = 1,
                               .pQueuePriorities = &prio};
  VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                           .pNext = &f,
                           .queueCreateInfoCount = 1,
                           .pQueueCreateInfos = &q};
  VkResult r = vk.vkCreateDevice(p->pd, &ci, NULL, &c->dev);
  if (r != VK_SUCCESS) {
    free(c);
    return fail(r, "vkCreateDevice");
  }
  vk.vkGetDeviceQueue(c->dev, p->family, 0, &c->queue);
  VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                .queueFamilyIndex = p->family};
  r = vk.vkCreateCommandPool(c->dev, &pi, NULL, &c->pool);
  if (r != VK_SUCCESS) {
    vk.vkDestroyDevice(c->dev, NULL);
    free(c);
    return fail(r, "vkCreateCommandPool");
  }
  VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                  .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
  VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
  r = vk.vkCreateSemaphore(c->dev, &si, NULL, &c->tl);
  if (r != VK_SUCCESS) {
    vk.vkDestroyCommandPool(c->dev, c->pool, NULL);
    vk.vkDestroyDevice(c->dev, NULL);
    free(c);
    return fail(r, "vkCreateSemaphore");
  }
  vk.vkGetPhysicalDeviceMemoryProperties(p->pd, &c->mp);
  c->timestamp_period = p->limits.timestampPeriod;
  c->push_limit = p->limits.maxPushConstantsSize;
  pthread_mutex_init(&c->lock, NULL);
  dev->priv = c;
  return KCRT_SUCCESS;
}

static void stage_free(VkDev *c) {
  if (c->stage.map) vk.vkUnmapMemory(c->dev, c->stage.mem);
  if (c->stage.buf) vk.vkDestroyBuffer(c->dev, c->stage.buf, NULL);
  if (c->stage.mem) vk.vkFreeMemory(c->dev, c->stage.mem, NULL);
  memset(&c->stage, 0, sizeof c->stage);
}

static VkResult wait_all(VkDev *c);
static void batches_free(VkDev *c);
static void bury(VkDev *c, VkBuffer buf, VkDeviceMemory mem);

static void vk_close(kcrt_device *dev) {
  VkDev *c = vd(dev);
  pthread_mutex_lock(&c->lock);
  wait_all(c);
  pthread_mutex_unlock(&c->lock);
  vk.vkDeviceWaitIdle(c->dev);
  batches_free(c);
  stage_free(c);
  if (c->scratch.buf) vk.vkDestroyBuffer(c->dev, c->scratch.buf, NULL);
  if (c->scratch.mem) vk.vkFreeMemory(c->dev, c->scratch.mem, NULL);
  vk.vkDestroyCommandPool(c->dev, c->pool, NULL);
  vk.vkDestroyDevice(c->dev, NULL);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

/* ---------------------------------------------------------------- memory */

static int memory_type(const VkDev *c, uint32_t bits, VkMemoryPropertyFlags want) {
  for (uint32_t i = 0; i < c->mp.memoryTypeCount; i++)
    if ((bits >> i & 1) && (c->mp.memoryTypes[i].propertyFlags & want) == want) return (int)i;
  return -1;
}

/* A buffer of size bytes in memory with the properties `want` (device-addressable when
 * `address`). */
static VkResult make_buffer(VkDev *c, VkDeviceSize size, VkBufferUsageFlags usage,
                            VkMemoryPropertyFlags want, bool address, VkBuffer *buf,
                            VkDeviceMemory *mem) {
  VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                           .size = size ? size : 4, /* Vulkan has no empty buffer */
                           .usage = usage,
                           .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult r = vk.vkCreateBuffer(c->dev, &bi, NULL, buf);
  if (r != VK_SUCCESS) return r;
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(c->dev, *buf, &req);
  int t = memory_type(c, req.memoryTypeBits, want);
  if (t < 0) {
    vk.vkDestroyBuffer(c->dev, *buf, NULL);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  VkMemoryAllocateFlagsInfo fl = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                  .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                             .pNext = address ? &fl : NULL,
                             .allocationSize = req.size,
                             .memoryTypeIndex = (uint32_t)t};
  r = vk.vkAllocateMemory(c->dev, &ai, NULL, mem);
  if (r == VK_SUCCESS) r = vk.vkBindBufferMemory(c->dev, *buf, *mem, 0);
  if (r != VK_SUCCESS) {
    if (*mem) vk.vkFreeMemory(c->dev, *mem, NULL);
    vk.vkDestroyBuffer(c->dev, *buf, NULL);
    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
  }
  return r;
}

static kcrt_status vk_mem_alloc(kcrt_buffer *b) {
  VkDev *c = vd(b->dev);
  VkBuf *v = calloc(1, sizeof *v);
  if (!v) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  VkResult r =
      make_buffer(c, b->size,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true, &v->buf, &v->mem);
  if (r != VK_SUCCESS) {
    free(v);
    return kcrt_fail(status_of(r), "Vulkan: cannot allocate %zu bytes on %s: %s", b->size,
                     b->dev->info.name, vk_result_name(r));
  }
  v->owner = true;
  VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                  .buffer = v->buf};
  b->dptr = vk.vkGetBufferDeviceAddress(c->dev, &ai);
  b->mem = v;
  return KCRT_SUCCESS;
}

static void vk_mem_free(kcrt_buffer *b) {
  VkBuf *v = b->mem;
  if (!v) return;
  if (v->owner) {
    VkDev *c = vd(b->dev);
    pthread_mutex_lock(&c->lock);
    bury(c, v->buf, v->mem);
    pthread_mutex_unlock(&c->lock);
  }
  free(v);
  b->mem = NULL;
}

static kcrt_status vk_mem_view(kcrt_buffer *v, kcrt_buffer *parent, size_t off) {
  VkBuf *p = parent->mem, *w = calloc(1, sizeof *w);
  if (!w) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  w->buf = p->buf;
  w->mem = p->mem;
  w->off = p->off + off;
  v->mem = w;
  v->dptr = parent->dptr + off;
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- batches
 *
 * Work reaches the GPU in batches: a command buffer recorded with one command after another
 * (each after a full barrier, which orders it after everything before it, as a CUDA stream
 * does) and submitted to the device's one queue, signalling the next value of the device's
 * timeline semaphore when it is done. A submission per launch, each with a fence and a
 * command buffer of its own, cost NVIDIA's driver 0.6 ms per launch on an H200 (bench/
 * RESULTS.md, session 29); command buffers, their end timestamps and their parameter buffers
 * are now reused once the semaphore says their batch is done.
 *
 * When a batch goes: at once when the GPU has fewer than two batches to run (so it never
 * waits for work the host has already given), otherwise with the next call that finds it so,
 * when it holds BATCH_LAUNCHES launches, and at every wait (queue or event synchronize, a
 * transfer, which are blocking, a free that must wait). A launch may therefore start only at
 * the host's next kcrt call when the GPU is busy: docs/runtime.md, "Vulkan".
 *
 * Events are timestamps: one written in the open batch after the work before it, or, when
 * nothing has been recorded since the last batch went, that batch's end timestamp (every
 * batch ends with one), so an event after a launch costs no submission of its own. */

enum { BATCH_LAUNCHES = 128, PARAMS_BYTES = 65536 };

typedef struct VkEv VkEv;

/* A command buffer and what it keeps until its batch is done. */
struct VkCmd {
  VkCommandBuffer cb;
  VkQueryPool end; /* its end timestamp (none without timestamps) */
  uint64_t value;  /* the timeline value its batch signals */
  uint64_t end_ts; /* the end timestamp, once done */
  VkBuffer params; /* spilled kernel parameters (vkCmdUpdateBuffer'd), made on first need */
  VkDeviceMemory params_mem;
  uint64_t params_addr;
  VkDeviceSize params_size, params_used;
  VkEv **waiters; /* events that are this batch's end */
  int nwaiters, capwaiters;
};

/* A buffer freed while a batch that may use it was still to run. */
struct VkGrave {
  VkBuffer buf;
  VkDeviceMemory mem;
  uint64_t value;
};

/* An event: its own timestamp query (written in a batch), or the end of a batch. */
struct VkEv {
  VkQueryPool pool;
  uint64_t value; /* complete once the semaphore reaches it (0: never recorded) */
  VkCmd *alias;   /* the batch whose end it is, until that is done */
  bool own;       /* its time is its own query's (else ts) */
  uint64_t ts;
};

/* Room for element n of the array *pp (a pointer to any array pointer) of *cap elements of
 * `size` bytes, doubling it when full. */
static bool grow(void *pp, int *cap, int n, size_t size) {
  if (n < *cap) return true;
  int nc = *cap ? 2 * *cap : 8;
  void *old, *q;
  memcpy(&old, pp, sizeof old);
  if (!(q = realloc(old, (size_t)nc * size))) return false;
  memcpy(pp, &q, sizeof q);
  *cap = nc;
  return true;
}

/* The barrier before every command: all earlier work on the queue, its writes made visible to
 * what follows. */
static void full_barrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

static void cmd_destroy(VkDev *c, VkCmd *m) {
  if (m->params) vk.vkDestroyBuffer(c->dev, m->params, NULL);
  if (m->params_mem) vk.vkFreeMemory(c->dev, m->params_mem, NULL);
  if (m->end) vk.vkDestroyQueryPool(c->dev, m->end, NULL);
  if (m->cb) vk.vkFreeCommandBuffers(c->dev, c->pool, 1, &m->cb);
  free(m->waiters);
  free(m);
}

static void unalias(VkEv *ev) {
  VkCmd *m = ev->alias;
  if (!m) return;
  for (int i = 0; i < m->nwaiters; i++)
    if (m->waiters[i] == ev) {
      m->waiters[i] = m->waiters[--m->nwaiters];
      break;
    }
  ev->alias = NULL;
}

/* Takes in what the semaphore says is done: batches back to the spares (their end timestamps
 * read and given to the events that are their end), buffers freed after them destroyed. */
static void poll(VkDev *c) {
  uint64_t v = 0;
  if (vk.vkGetSemaphoreCounterValue(c->dev, c->tl, &v) == VK_SUCCESS && v > c->done) c->done = v;
  int keep = 0;
  for (int i = 0; i < c->nflight; i++) {
    VkCmd *m = c->flight[i];
    if (m->value > c->done) {
      c->flight[keep++] = m;
      continue;
    }
    m->end_ts = 0;
    if (m->end && m->nwaiters) /* read only for the events that are its end */
      vk.vkGetQueryPoolResults(c->dev, m->end, 0, 1, sizeof m->end_ts, &m->end_ts, sizeof m->end_ts,
                               VK_QUERY_RESULT_64_BIT);
    for (int j = 0; j < m->nwaiters; j++) {
      m->waiters[j]->ts = m->end_ts;
      m->waiters[j]->alias = NULL;
    }
    m->nwaiters = 0;
    /* A spare keeps its buffer and pool; past a few, the rest are given back. */
    if (c->nspare < 8 && grow(&c->spare, &c->capspare, c->nspare, sizeof *c->spare))
      c->spare[c->nspare++] = m;
    else
      cmd_destroy(c, m);
  }
  c->nflight = keep;
  keep = 0;
  for (int i = 0; i < c->ngraves; i++) {
    VkGrave *g = &c->graves[i];
    if (g->value > c->done) {
      c->graves[keep++] = *g;
      continue;
    }
    vk.vkDestroyBuffer(c->dev, g->buf, NULL);
    vk.vkFreeMemory(c->dev, g->mem, NULL);
  }
  c->ngraves = keep;
}

/* The open batch, begun if there is none (the device lock held). */
static VkResult open_batch(VkDev *c, VkCmd **out) {
  if (c->open) {
    *out = c->open;
    return VK_SUCCESS;
  }
  VkCmd *m = c->nspare ? c->spare[--c->nspare] : calloc(1, sizeof *m);
  if (!m) return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult r = VK_SUCCESS;
  if (!m->cb) {
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = c->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    r = vk.vkAllocateCommandBuffers(c->dev, &ai, &m->cb);
  }
  if (r == VK_SUCCESS && !m->end && c->p->timestamp_bits) {
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 1};
    r = vk.vkCreateQueryPool(c->dev, &qi, NULL, &m->end);
  }
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  if (r == VK_SUCCESS) r = vk.vkBeginCommandBuffer(m->cb, &bi); /* resets it (the pool's flag) */
  if (r != VK_SUCCESS) {
    cmd_destroy(c, m);
    return r;
  }
  if (m->end) vk.vkCmdResetQueryPool(m->cb, m->end, 0, 1);
  m->value = c->submitted + 1;
  m->params_used = 0;
  c->open = m;
  c->open_launches = 0;
  *out = m;
  return VK_SUCCESS;
}

/* Submits the open batch, if any (the device lock held). */
static VkResult flush(VkDev *c) {
  VkCmd *m = c->open;
  if (!m) return VK_SUCCESS;
  c->open = NULL;
  if (m->end) {
    full_barrier(m->cb);
    vk.vkCmdWriteTimestamp(m->cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m->end, 0);
  }
  VkResult r = vk.vkEndCommandBuffer(m->cb);
  VkTimelineSemaphoreSubmitInfo ti = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                      .signalSemaphoreValueCount = 1,
                                      .pSignalSemaphoreValues = &m->value};
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                     .pNext = &ti,
                     .commandBufferCount = 1,
                     .pCommandBuffers = &m->cb,
                     .signalSemaphoreCount = 1,
                     .pSignalSemaphores = &c->tl};
  if (r == VK_SUCCESS && !grow(&c->flight, &c->capflight, c->nflight, sizeof *c->flight))
    r = VK_ERROR_OUT_OF_HOST_MEMORY;
  if (r == VK_SUCCESS) r = vk.vkQueueSubmit(c->queue, 1, &si, VK_NULL_HANDLE);
  if (r != VK_SUCCESS) {
    /* Nothing of it will run: its events complete at once, with no time. */
    for (int j = 0; j < m->nwaiters; j++) m->waiters[j]->alias = NULL;
    cmd_destroy(c, m);
    return r;
  }
  c->submitted = m->value;
  c->last = m;
  c->flight[c->nflight++] = m;
  return VK_SUCCESS;
}

/* Waits until the semaphore reaches v, submitting the open batch first if v is its value (the
 * device lock held). */
static VkResult wait_value(VkDev *c, uint64_t v) {
  VkResult r = v > c->submitted ? flush(c) : VK_SUCCESS;
  if (r == VK_SUCCESS && v > c->done) {
    VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                              .semaphoreCount = 1,
                              .pSemaphores = &c->tl,
                              .pValues = &v};
    r = vk.vkWaitSemaphores(c->dev, &wi, UINT64_MAX);
  }
  poll(c);
  return r;
}

/* Everything recorded so far submitted and done (the device lock held). */
static VkResult wait_all(VkDev *c) {
  return wait_value(c, c->open ? c->open->value : c->submitted);
}

/* After a command was recorded in the open batch: submits it if the GPU would otherwise run
 * short of work, or if it is full. */
static VkResult maybe_flush(VkDev *c) {
  poll(c);
  if (c->submitted - c->done < 2 || c->open_launches >= BATCH_LAUNCHES) return flush(c);
  return VK_SUCCESS;
}

/* Frees a buffer once no batch recorded so far can use it (Vulkan frees at once). */
static void bury(VkDev *c, VkBuffer buf, VkDeviceMemory mem) {
  flush(c); /* one that fails is destroyed: nothing of it will run */
  poll(c);
  if (c->done >= c->submitted || !grow(&c->graves, &c->capgraves, c->ngraves, sizeof *c->graves)) {
    if (c->done < c->submitted) wait_all(c);
    vk.vkDestroyBuffer(c->dev, buf, NULL);
    vk.vkFreeMemory(c->dev, mem, NULL);
    return;
  }
  c->graves[c->ngraves++] = (VkGrave){buf, mem, c->submitted};
}

/* Gives back every batch's resources (the device idle). */
static void batches_free(VkDev *c) {
  poll(c);
  for (int i = 0; i < c->nflight; i++) cmd_destroy(c, c->flight[i]);
  for (int i = 0; i < c->nspare; i++) cmd_destroy(c, c->spare[i]);
  if (c->open) cmd_destroy(c, c->open);
  for (int i = 0; i < c->ngraves; i++) {
    vk.vkDestroyBuffer(c->dev, c->graves[i].buf, NULL);
    vk.vkFreeMemory(c->dev, c->graves[i].mem, NULL);
  }
  free(c->flight);
  free(c->spare);
  free(c->graves);
  vk.vkDestroySemaphore(c->dev, c->tl, NULL);
}

/* Records one blocking command (copy, fill) in the open batch, submits it and waits. */
typedef void (*RecordFn)(VkCommandBuffer cb, void *ctx);
static VkResult run_blocking(VkDev *c, RecordFn rec, void *ctx) {
  VkCmd *m;
  VkResult r = open_batch(c, &m);
  if (r != VK_SUCCESS) return r;
  full_barrier(m->cb);
  rec(m->cb, ctx);
  return wait_all(c);
}

/* The staging buffer, at least n bytes (at most 8 MiB: larger copies go in pieces). */
enum { STAGE_MAX = 8 << 20 };

static VkResult stage_get(VkDev *c, VkDeviceSize n) {
  if (c->stage.buf && c->stage.size >= n) return VK_SUCCESS;
  stage_free(c);
  VkDeviceSize size = n < 65536 ? 65536 : n;
  VkResult r =
      make_buffer(c, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, false,
                  &c->stage.buf, &c->stage.mem);
  if (r != VK_SUCCESS) return r;
  c->stage.size = size;
  r = vk.vkMapMemory(c->dev, c->stage.mem, 0, VK_WHOLE_SIZE, 0, &c->stage.map);
  if (r != VK_SUCCESS) stage_free(c);
  return r;
}

/* A buffer-to-buffer copy, and whether the host reads its destination afterwards. */
typedef struct Copy {
  VkBuffer src, dst;
  VkBufferCopy bc;
  bool host_reads;
} Copy;

static void record_copy(VkCommandBuffer cb, void *ctx) {
  Copy *cp = ctx;
  vk.vkCmdCopyBuffer(cb, cp->src, cp->dst, 1, &cp->bc);
  if (!cp->host_reads) return;
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                          0, NULL, 0, NULL);
}

/* Copies between v's bytes [off, off + n) and the host through the staging buffer, in
 * pieces, each after all earlier work (the device lock held). */
static VkResult transfer_locked(VkDev *c, const VkBuf *v, size_t off, void *host, size_t n,
                                bool to_device, const char **failed) {
  VkResult r = stage_get(c, n < STAGE_MAX ? n : STAGE_MAX);
  *failed = "staging buffer";
  for (size_t done = 0; r == VK_SUCCESS && done < n;) {
    size_t k = n - done < STAGE_MAX ? n - done : STAGE_MAX;
    if (to_device) memcpy(c->stage.map, (char *)host + done, k);
    Copy cp = {.bc = {.size = k}, .host_reads = !to_device};
    if (to_device)
      cp.src = c->stage.buf, cp.dst = v->buf, cp.bc.dstOffset = v->off + off + done;
    else
      cp.src = v->buf, cp.dst = c->stage.buf, cp.bc.srcOffset = v->off + off + done;
    *failed = "copy";
    r = run_blocking(c, record_copy, &cp);
    if (r == VK_SUCCESS && !to_device) memcpy((char *)host + done, c->stage.map, k);
    done += k;
  }
  return r;
}

static kcrt_status transfer(kcrt_buffer *b, size_t off, void *host, size_t n, bool to_device) {
  VkDev *c = vd(b->dev);
  const char *what = NULL;
  pthread_mutex_lock(&c->lock);
  VkResult r = transfer_locked(c, b->mem, off, host, n, to_device, &what);
  pthread_mutex_unlock(&c->lock);
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, what);
}

static kcrt_status vk_mem_write(kcrt_buffer *b, size_t off, const void *src, size_t n) {
  return transfer(b, off, (void *)src, n, true);
}

static kcrt_status vk_mem_read(kcrt_buffer *b, size_t off, void *dst, size_t n) {
  return transfer(b, off, dst, n, false);
}

static kcrt_status vk_mem_copy(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff, size_t n) {
  VkDev *c = vd(d->dev);
  VkBuf *dv = d->mem, *sv = s->mem;
  Copy cp = {.src = sv->buf,
             .dst = dv->buf,
             .bc = {.srcOffset = sv->off + soff, .dstOffset = dv->off + doff, .size = n}};
  pthread_mutex_lock(&c->lock);
  VkResult r = run_blocking(c, record_copy, &cp);
  pthread_mutex_unlock(&c->lock);
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, "vkCmdCopyBuffer");
}

typedef struct Fill {
  VkBuffer buf;
  VkDeviceSize off, n;
  uint32_t word;
} Fill;

static void record_fill(VkCommandBuffer cb, void *ctx) {
  Fill *f = ctx;
  vk.vkCmdFillBuffer(cb, f->buf, f->off, f->n, f->word);
}

static kcrt_status vk_mem_fill(kcrt_buffer *b, size_t off, unsigned char byte, size_t n) {
  VkBuf *v = b->mem;
  if ((v->off + off) % 4 || n % 4) {
    /* vkCmdFillBuffer writes whole words only: the bytes go from the host instead. */
    unsigned char *tmp = malloc(n ? n : 1);
    if (!tmp) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    memset(tmp, byte, n);
    kcrt_status st = transfer(b, off, tmp, n, true);
    free(tmp);
    return st;
  }
  VkDev *c = vd(b->dev);
  Fill f = {.buf = v->buf, .off = v->off + off, .n = n, .word = byte * 0x01010101u};
  pthread_mutex_lock(&c->lock);
  VkResult r = run_blocking(c, record_fill, &f);
  pthread_mutex_unlock(&c->lock);
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, "vkCmdFillBuffer");
}

/* ---------------------------------------------------------------- queues and events */

/* A kcrt_queue: the timeline value after which all its work is done. */
typedef struct VkQ {
  uint64_t last;
} VkQ;

static kcrt_status vk_queue_create(kcrt_queue *q) {
  q->h = calloc(1, sizeof(VkQ));
  return q->h ? KCRT_SUCCESS : kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
}

static kcrt_status wait_status(VkResult r, const char *what) {
  if (r == VK_ERROR_DEVICE_LOST)
    return kcrt_fail(KCRT_ERROR_LAUNCH_FAILED, "Vulkan: the device was lost while running a "
                                               "kernel (VK_ERROR_DEVICE_LOST)");
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, what);
}

static kcrt_status vk_queue_sync(kcrt_queue *q) {
  VkDev *c = vd(q->dev);
  pthread_mutex_lock(&c->lock);
  VkResult r = wait_value(c, ((VkQ *)q->h)->last);
  pthread_mutex_unlock(&c->lock);
  return wait_status(r, "vkWaitSemaphores");
}

static void vk_queue_destroy(kcrt_queue *q) {
  vk_queue_sync(q);
  free(q->h);
}

static kcrt_status vk_event_create(kcrt_event *e) {
  VkDev *c = vd(e->dev);
  VkEv *ev = calloc(1, sizeof *ev);
  if (!ev) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  if (c->p->timestamp_bits) {
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 1};
    VkResult r = vk.vkCreateQueryPool(c->dev, &qi, NULL, &ev->pool);
    if (r != VK_SUCCESS) {
      free(ev);
      return fail(r, "vkCreateQueryPool");
    }
  }
  e->h = ev;
  return KCRT_SUCCESS;
}

static void vk_event_destroy(kcrt_event *e) {
  VkDev *c = vd(e->dev);
  VkEv *ev = e->h;
  pthread_mutex_lock(&c->lock);
  /* Its query may be written by a batch not yet done. */
  if (ev->own && ev->value > c->done) wait_value(c, ev->value);
  unalias(ev);
  pthread_mutex_unlock(&c->lock);
  if (ev->pool) vk.vkDestroyQueryPool(c->dev, ev->pool, NULL);
  free(ev);
}

static kcrt_status vk_event_record(kcrt_event *e, kcrt_queue *q) {
  (void)q; /* one device queue: the barriers order the event after all earlier work */
  VkDev *c = vd(e->dev);
  VkEv *ev = e->h;
  pthread_mutex_lock(&c->lock);
  VkResult r = VK_SUCCESS;
  /* Its query is written again only once the batch that wrote it last is done. */
  if (ev->own && ev->value > c->done) r = wait_value(c, ev->value);
  unalias(ev);
  poll(c);
  if (r == VK_SUCCESS && !c->open && c->submitted > c->done && c->last &&
      grow(&c->last->waiters, &c->last->capwaiters, c->last->nwaiters, sizeof *c->last->waiters)) {
    /* Nothing recorded since the last batch went, which is still to finish: its end. */
    ev->own = false;
    ev->alias = c->last;
    ev->value = c->last->value;
    c->last->waiters[c->last->nwaiters++] = ev;
  } else if (r == VK_SUCCESS) {
    VkCmd *m;
    r = open_batch(c, &m);
    if (r == VK_SUCCESS) {
      ev->own = true;
      ev->value = m->value;
      if (ev->pool) {
        vk.vkCmdResetQueryPool(m->cb, ev->pool, 0, 1);
        full_barrier(m->cb);
        vk.vkCmdWriteTimestamp(m->cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ev->pool, 0);
      }
      /* An event after launches still in the batch goes with them; one in an empty batch (the
         GPU idle) waits for the work that follows it, so that it times that work's start. */
      if (c->open_launches) r = maybe_flush(c);
    }
  }
  pthread_mutex_unlock(&c->lock);
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, "recording an event");
}

static kcrt_status vk_event_sync(kcrt_event *e) {
  VkDev *c = vd(e->dev);
  VkEv *ev = e->h;
  pthread_mutex_lock(&c->lock);
  VkResult r = wait_value(c, ev->value);
  pthread_mutex_unlock(&c->lock);
  return wait_status(r, "vkWaitSemaphores (event)");
}

static kcrt_status vk_event_elapsed(kcrt_event *a, kcrt_event *b, double *ms) {
  VkDev *c = vd(a->dev);
  VkEv *ea = a->h, *eb = b->h;
  if (!ea->pool || !eb->pool)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "Vulkan: %s has no timestamps on its compute queue",
                     a->dev->info.name);
  kcrt_status st = vk_event_sync(a);
  if (!st) st = vk_event_sync(b);
  if (st) return st;
  uint64_t t[2] = {ea->ts, eb->ts};
  VkEv *ev[2] = {ea, eb};
  for (int i = 0; i < 2; i++) {
    if (!ev[i]->own) continue;
    VkResult r =
        vk.vkGetQueryPoolResults(c->dev, ev[i]->pool, 0, 1, sizeof t[i], &t[i], sizeof t[i],
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS) return fail(r, "vkGetQueryPoolResults");
  }
  *ms = ((double)t[1] - (double)t[0]) * c->timestamp_period / 1e6;
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- modules and kernels */

/* A module: its shader module and the pipeline cache its pipelines are built with, which
 * starts from the on-disk cache entry of (device, driver, bundle) and goes back to it after
 * each pipeline built, so a second run skips the driver's compiler. */
typedef struct VkMod {
  VkShaderModule shader;
  VkPipelineCache cache;
  KcrtKey key;
  uint32_t frame;   /* bytes of each invocation's frame (specialisation constant 4), or 0 */
  uint32_t wgframe; /* bytes of each workgroup's shared block (specialisation constant 5), or 0 */
  uint32_t print;   /* bytes of the print buffer (specialisation constant 6), or 0 */
  bool zero_fixes;  /* it has specialisation constant 7, kcc.zero_fixes */
  bool fma_fused;   /* it has specialisation constant 9, kcc.fma_fused */
  bool dyn_block;   /* specialisation constant 8: dynamic shared memory ends each shared block */
  char **formats;   /* printf formats, by number ("kcc.printf:" OpStrings) */
  char **strings;   /* string literals printed by %s, by number ("kcc.str:" OpStrings) */
  uint32_t nformats, nstrings;
} VkMod;

/* The few SPIR-V numbers the runtime reads (spirv.h's SpvOpDecorate, SpvDecorationSpecId,
 * SpvOpSpecConstant). */
enum {
  SPV_OP_STRING = 7,
  SPV_OP_CAPABILITY = 17,
  SPV_OP_DECORATE = 71,
  SPV_DECORATION_SPEC_ID = 1,
  SPV_OP_SPEC_CONSTANT = 50,
  SPV_CAP_FLOAT64 = 10,
  SPV_CAP_INT64_ATOMICS = 12,
  SPV_CAP_SIGNED_ZERO_INF_NAN_PRESERVE = 4466,
  SPV_CAP_DENORM_PRESERVE = 4464,
  SPV_CAP_GROUP_NON_UNIFORM = 61, /* then Vote, Arithmetic, Ballot, Shuffle, ShuffleRelative,
                                     Clustered: 62 to 67 */
  SPV_OP_EXECUTION_MODE = 16,
  SPV_MODE_DENORM_PRESERVE = 4459,
};

/* Whether the module declares capability `cap` (its OpCapability instructions lead it). */
static bool has_capability(const uint32_t *w, size_t n, uint32_t cap) {
  for (size_t i = 5; i < n && (w[i] & 0xffff) == SPV_OP_CAPABILITY && (w[i] >> 16) == 2; i += 2)
    if (w[i + 1] == cap) return true;
  return false;
}

/* The default value of the specialisation constant with SpecId `spec` in a SPIR-V module
 * (kcc's frame size), or 0 when there is none. */
static uint32_t spec_default(const uint32_t *w, size_t n, uint32_t spec) {
  uint32_t id = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 5; i < n;) {
      uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
      if (wc == 0 || i + wc > n) return 0;
      if (pass == 0 && op == SPV_OP_DECORATE && wc >= 4 && w[i + 2] == SPV_DECORATION_SPEC_ID &&
          w[i + 3] == spec)
        id = w[i + 1];
      if (pass == 1 && op == SPV_OP_SPEC_CONSTANT && wc >= 4 && id && w[i + 2] == id)
        return w[i + 3];
      i += wc;
    }
  return 0;
}

/* Takes out of the module's n words the DenormPreserve execution modes of the widths the
 * device cannot keep denormals of (kcc asks for them where C needs them, and where a device
 * does not offer it, it is not asked: docs/runtime.md, "Exact math"), and the capability
 * once none is left. Returns the new word count. */
static size_t drop_denorm_modes(uint32_t *w, size_t n, bool keep32, bool keep64) {
  size_t out = 5, kept = 0;
  for (int pass = 0; pass < 2; pass++) {
    out = 5;
    for (size_t i = 5; i < n;) {
      uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
      if (wc == 0 || i + wc > n) return n;
      bool mode = op == SPV_OP_EXECUTION_MODE && wc == 4 && w[i + 2] == SPV_MODE_DENORM_PRESERVE;
      bool drop = mode && !(w[i + 3] == 32 ? keep32 : keep64);
      if (pass == 0) {
        kept += mode && !drop;
        i += wc;
        continue;
      }
      if (op == SPV_OP_CAPABILITY && wc == 2 && w[i + 1] == SPV_CAP_DENORM_PRESERVE && !kept)
        drop = true;
      if (!drop) memmove(w + out, w + i, wc * sizeof *w), out += wc;
      i += wc;
    }
  }
  return out;
}

/* What the module's subgroup capabilities (OpenCL C's sub_group_* functions) ask that the
 * device's compute shaders lack, or NULL. */
static const char *subgroup_lack(const VkPhys *p, const uint32_t *w, size_t n) {
  static const struct {
    uint32_t cap, bit;
    const char *what;
  } need[] = {
      {SPV_CAP_GROUP_NON_UNIFORM, VK_SUBGROUP_FEATURE_BASIC_BIT, "subgroups (basic)"},
      {SPV_CAP_GROUP_NON_UNIFORM + 1, VK_SUBGROUP_FEATURE_VOTE_BIT, "subgroup votes"},
      {SPV_CAP_GROUP_NON_UNIFORM + 2, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT,
       "subgroup reductions and scans"},
      {SPV_CAP_GROUP_NON_UNIFORM + 3, VK_SUBGROUP_FEATURE_BALLOT_BIT, "subgroup ballots"},
      {SPV_CAP_GROUP_NON_UNIFORM + 4, VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "subgroup shuffles"},
      {SPV_CAP_GROUP_NON_UNIFORM + 5, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT,
       "relative subgroup shuffles"},
      {SPV_CAP_GROUP_NON_UNIFORM + 6, VK_SUBGROUP_FEATURE_CLUSTERED_BIT,
       "clustered subgroup reductions"},
  };
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    if (has_capability(w, n, need[i].cap) && !(p->subgroup_ops & need[i].bit)) return need[i].what;
  return NULL;
}

/* Whether the module has a specialisation constant with SpecId `spec`. */
static bool has_spec(const uint32_t *w, size_t n, uint32_t spec) {
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    if (wc == 0 || i + wc > n) return false;
    if (op == SPV_OP_DECORATE && wc >= 4 && w[i + 2] == SPV_DECORATION_SPEC_ID && w[i + 3] == spec)
      return true;
    i += wc;
  }
  return false;
}

/* The module's OpStrings whose text starts with `prefix`, in order, without it. */
static char **module_strings(const uint32_t *w, size_t n, const char *prefix, uint32_t *count) {
  char **out = NULL;
  size_t len = strlen(prefix);
  *count = 0;
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    if (wc == 0 || i + wc > n) break;
    if (op == SPV_OP_STRING && wc >= 3) {
      const char *s = (const char *)(w + i + 2);
      size_t max = (wc - 2) * 4, sl = strnlen(s, max);
      if (sl < max && !strncmp(s, prefix, len)) {
        char **grown = realloc(out, (*count + 1) * sizeof *out);
        if (!grown) break;
        out = grown;
        out[(*count)++] = strdup(s + len);
      }
    }
    i += wc;
  }
  return out;
}

static void free_strings(char **s, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) free(s[i]);
  free(s);
}

static kcrt_status vk_module_load(kcrt_module *m) {
  VkDev *c = vd(m->dev);
  const KcbSection *s = kcb_section(m->b, KCB_SEC_VKSPIRV, 0);
  if ((!s || !s->size) && !m->b->nkernels) {
    /* A file without a kernel (kcc warns): Vulkan has no shader module without an entry
     * point, so kcc writes none; there is nothing to launch, but its variables still load. */
    VkMod *vm = calloc(1, sizeof *vm);
    if (!vm) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    m->h = vm;
    return KCRT_SUCCESS;
  }
  if (!s || !s->size)
    return kcrt_fail(KCRT_ERROR_NO_BINARY,
                     "the bundle%s%s has no Vulkan SPIR-V, which %s needs: kcc leaves it out of "
                     "modules that use what its Vulkan form does not support yet (`kcc -v` on the "
                     "source says what; docs/cli.md, \"The Vulkan form\")",
                     *m->b->source ? " of " : "", m->b->source, m->dev->info.name);
  if (s->size % 4)
    return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                     "the bundle's Vulkan SPIR-V is %zu bytes, not whole "
                     "words",
                     s->size);
  uint32_t *words = malloc(s->size); /* the section may not be 4-byte aligned in memory */
  VkMod *vm = calloc(1, sizeof *vm);
  if (!words || !vm) {
    free(words);
    free(vm);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  memcpy(words, s->data, s->size);
  vm->frame = spec_default(words, s->size / 4, 4);
  vm->wgframe = spec_default(words, s->size / 4, 5);
  vm->print = spec_default(words, s->size / 4, 6);
  vm->zero_fixes = has_spec(words, s->size / 4, 7);
  vm->dyn_block = has_spec(words, s->size / 4, 8);
  vm->fma_fused = has_spec(words, s->size / 4, 9);
  /* What the module needs of the device, named, rather than a driver's failure (kcc's exact
   * float division, square root and fmaf go through double: docs/runtime.md, "Vulkan"). */
  const char *lacks = NULL;
  if (has_capability(words, s->size / 4, SPV_CAP_FLOAT64) && !c->p->f.features.shaderFloat64)
    lacks = "shaderFloat64 (double precision, which kcc's IEEE float division, sqrt and fmaf "
            "also use; -ffast-math does without)";
  else if (has_capability(words, s->size / 4, SPV_CAP_INT64_ATOMICS) &&
           !c->p->f12.shaderBufferInt64Atomics)
    lacks = "shaderBufferInt64Atomics (64-bit atomics)";
  else if ((lacks = subgroup_lack(c->p, words, s->size / 4)))
    ;
  else if (has_capability(words, s->size / 4, SPV_CAP_SIGNED_ZERO_INF_NAN_PRESERVE) &&
           (!c->p->szinp32 ||
            (has_capability(words, s->size / 4, SPV_CAP_FLOAT64) && !c->p->szinp64)))
    lacks = "shaderSignedZeroInfNanPreserveFloat32/64 (C's signed zeros, infinities and NaN; "
            "-ffast-math does without)";
  /* CUDA's warp operations are subgroup operations on 32 lanes (spirv_expr.c, "CUDA's
   * warps"): a device whose compute subgroups are another width cannot run them. */
  const KcbKernel *wk = NULL;
  for (uint32_t i = 0; i < m->b->nkernels && !wk && !lacks; i++)
    if (m->b->kernels[i].flags & KCB_KERNEL_WARP) wk = &m->b->kernels[i];
  if (wk && c->p->subgroup_size != 32) {
    free(words);
    free(vm);
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kernel '%s' uses warp-level operations, which need 32-wide subgroups; "
                     "device '%s' runs compute shaders in subgroups of %u",
                     wk->name, m->dev->info.name, c->p->subgroup_size);
  }
  if (lacks) {
    free(words);
    free(vm);
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "the bundle%s%s needs %s, which %s does not have",
                     *m->b->source ? " of " : "", m->b->source, lacks, m->dev->info.name);
  }
  size_t nwords = drop_denorm_modes(words, s->size / 4, c->p->dp32, c->p->dp64);
  if (nwords != s->size / 4)
    kcrt_log("vulkan: %s does not offer to keep %s denormals: the module runs without "
             "DenormPreserve for them",
             m->dev->info.name,
             !c->p->dp32 && !c->p->dp64 ? "float and double"
             : !c->p->dp32              ? "float"
                                        : "double");
  VkShaderModuleCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = nwords * 4, .pCode = words};
  VkResult r = vk.vkCreateShaderModule(c->dev, &ci, NULL, &vm->shader);
  if (r == VK_SUCCESS && vm->print) {
    vm->formats = module_strings(words, s->size / 4, "kcc.printf:", &vm->nformats);
    vm->strings = module_strings(words, s->size / 4, "kcc.str:", &vm->nstrings);
  }
  free(words);
  if (r != VK_SUCCESS) {
    free(vm);
    return kcrt_fail(r == VK_ERROR_INVALID_SHADER_NV ? KCRT_ERROR_BUILD_FAILED : status_of(r),
                     "Vulkan: %s refused the module's SPIR-V: %s (%d)", m->dev->info.name,
                     vk_result_name(r), (int)r);
  }
  char uuid[2 * VK_UUID_SIZE + 1];
  for (unsigned i = 0; i < VK_UUID_SIZE; i++)
    snprintf(uuid + 2 * i, 3, "%02x", c->p->cache_uuid[i]);
  kcrt_key_init(&vm->key, "vulkan-pipelines");
  kcrt_key_add(&vm->key, m->dev->info.name);
  kcrt_key_add(&vm->key, m->dev->info.driver_version);
  kcrt_key_add(&vm->key, uuid);
  kcrt_key_add_u64(&vm->key, m->b->hash);
  size_t len = 0;
  void *data = kcrt_cache_get(&vm->key, &len);
  VkPipelineCacheCreateInfo pc = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                  .initialDataSize = data ? len : 0,
                                  .pInitialData = data};
  r = vk.vkCreatePipelineCache(c->dev, &pc, NULL, &vm->cache);
  if (r != VK_SUCCESS && data) { /* data the driver does not take: start empty */
    pc.initialDataSize = 0;
    pc.pInitialData = NULL;
    r = vk.vkCreatePipelineCache(c->dev, &pc, NULL, &vm->cache);
  }
  if (r != VK_SUCCESS) vm->cache = VK_NULL_HANDLE; /* pipelines are built without one */
  if (data) kcrt_log("vulkan: pipeline cache of %zu bytes from disk", len);
  free(data);
  m->h = vm;
  return KCRT_SUCCESS;
}

/* The module's pipeline cache back to disk (after a pipeline was built into it). */
static void save_pipelines(VkDev *c, VkMod *vm) {
  size_t len = 0;
  if (!vm->cache || vk.vkGetPipelineCacheData(c->dev, vm->cache, &len, NULL) != VK_SUCCESS || !len)
    return;
  void *data = malloc(len);
  if (data && vk.vkGetPipelineCacheData(c->dev, vm->cache, &len, data) == VK_SUCCESS)
    kcrt_cache_put(&vm->key, data, len);
  free(data);
}

static void vk_module_unload(kcrt_module *m) {
  VkMod *vm = m->h;
  if (!vm) return;
  if (vm->cache) vk.vkDestroyPipelineCache(vd(m->dev)->dev, vm->cache, NULL);
  if (vm->shader) vk.vkDestroyShaderModule(vd(m->dev)->dev, vm->shader, NULL);
  free_strings(vm->formats, vm->nformats);
  free_strings(vm->strings, vm->nstrings);
  free(vm);
}

static kcrt_status vk_symbol_init(kcrt_module *m, const KcbSymbol *s, kcrt_buffer *b) {
  (void)m;
  (void)s; /* a buffer whose device address the kernels that use it take (vk_launch) */
  kcrt_status st = vk_mem_alloc(b);
  if (!st && b->size) st = vk_mem_fill(b, 0, 0, b->size);
  return st;
}

/* A kernel: its push-constant layout and its pipelines, one per block shape. */
typedef struct VkPipe {
  uint32_t key[4]; /* block x, y, z and the dynamic shared bytes (specialisation constants) */
  VkPipeline pipe;
} VkPipe;

typedef struct VkKern {
  VkPipelineLayout layout;
  uint32_t *offs; /* each parameter's offset in the push constants (then the scratch's) */
  uint32_t push;  /* their size */
  bool spill;     /* past SPILL_PUSH bytes: in a buffer whose address is the push constant */
  VkPipe *pipes;
  int npipes;
  pthread_mutex_t lock;
} VkKern;

/* ---------------------------------------------------------------- images (issue 30)
 * An image is a buffer of its texels, tightly packed as the host copy is (kcrt_image_write),
 * and a kernel's image parameter receives img->kdesc with the buffer's device address first:
 * kcc's Vulkan form samples in software over plain loads and stores, as its PTX does over
 * surface loads (docs/design.md, "Images on Vulkan"), so no VkImage or VkSampler is made and a
 * sampler is only its CLK_* bits. */

_Static_assert(sizeof(((kcrt_image *)0)->kdesc) == 32, "an image parameter is 32 bytes");

static kcrt_status vk_image_create(kcrt_image *img) {
  VkDev *c = vd(img->dev);
  const kcrt_image_desc *d = &img->desc;
  if (img->bytes > img->dev->info.max_alloc_bytes)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_image_create: %zu bytes of texels, more than %s can allocate",
                     img->bytes, img->dev->info.name);
  /* The kernel's texel offsets are 64-bit, its extents 32-bit (the descriptor's). */
  if (d->width > INT32_MAX || d->height > INT32_MAX || d->depth > INT32_MAX ||
      d->array_size > INT32_MAX)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: an extent beyond 2^31 - 1");
  VkBuf *v = calloc(1, sizeof *v);
  if (!v) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  VkResult r =
      make_buffer(c, img->bytes,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true, &v->buf, &v->mem);
  if (r != VK_SUCCESS) {
    free(v);
    return kcrt_fail(status_of(r), "Vulkan: cannot allocate an image of %zu bytes on %s: %s",
                     img->bytes, img->dev->info.name, vk_result_name(r));
  }
  v->owner = true;
  VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                  .buffer = v->buf};
  img->mem = v;
  kcrt_image_set_kdesc(img, vk.vkGetBufferDeviceAddress(c->dev, &ai));
  return KCRT_SUCCESS;
}

static void vk_image_free(kcrt_image *img) {
  VkBuf *v = img->mem;
  if (!v) return;
  VkDev *c = vd(img->dev);
  pthread_mutex_lock(&c->lock);
  bury(c, v->buf, v->mem);
  pthread_mutex_unlock(&c->lock);
  free(v);
  img->mem = NULL;
}

static kcrt_status image_transfer(kcrt_image *img, void *host, bool to_device) {
  VkDev *c = vd(img->dev);
  const char *what = NULL;
  pthread_mutex_lock(&c->lock);
  VkResult r = transfer_locked(c, img->mem, 0, host, img->bytes, to_device, &what);
  pthread_mutex_unlock(&c->lock);
  return r == VK_SUCCESS ? KCRT_SUCCESS : fail(r, what);
}

static kcrt_status vk_image_write(kcrt_image *img, const void *src) {
  return image_transfer(img, (void *)src, true);
}

static kcrt_status vk_image_read(kcrt_image *img, void *dst) {
  return image_transfer(img, dst, false);
}

static kcrt_status vk_sampler_create(kcrt_sampler *s) {
  (void)s; /* its bits (image.c) are all a kernel needs */
  return KCRT_SUCCESS;
}

static void vk_sampler_free(kcrt_sampler *s) {
  (void)s;
}

/* kcc's Vulkan form keeps at most this many bytes of parameters in push constants (the least
 * maxPushConstantsSize a device may have); more go to a buffer (docs/bundle.md, "Vulkan"). */
enum { SPILL_PUSH = 128 };

/* Where each parameter goes in the push constants (docs/bundle.md, "Vulkan"). */
static kcrt_status push_layout(const KcbKernel *k, bool frame, uint32_t *offs, uint32_t *size) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < k->nparams + k->nhidden; i++) {
    const KcbParam *p = &k->params[i];
    uint32_t slot, align;
    if (p->kind == KCB_PARAM_POINTER || p->kind == KCB_PARAM_BOUNDS_RECORD)
      slot = align = 8;
    else if ((p->kind == KCB_PARAM_SCALAR && !p->vec_len) || p->kind == KCB_PARAM_BOUNDS_SIZE)
      slot = align = p->size < 4 ? 4 : p->size;
    else if (p->kind == KCB_PARAM_SCALAR) /* a vector: its bytes at its own alignment */
      slot = p->size, align = p->align < 4 ? 4 : p->align;
    else if (p->kind == KCB_PARAM_STRUCT)
      slot = p->size, align = p->align < 4 ? 4 : p->align;
    else if (p->kind == KCB_PARAM_IMAGE || p->kind == KCB_PARAM_TEXTURE ||
             p->kind == KCB_PARAM_SURFACE) /* its image's descriptor (kdesc) */
      slot = 32, align = 8;
    else if (p->kind == KCB_PARAM_SAMPLER || p->kind == KCB_PARAM_TEX_SAMPLER) /* CLK_* bits */
      slot = align = 4;
    else
      return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                       "kernel '%s': parameter '%s' is of a kind the Vulkan form does not pass",
                       k->name, p->name);
    if (!align || align > 256) align = 4;
    off = (off + align - 1) / align * align;
    offs[i] = off;
    off += slot;
  }
  for (uint32_t j = 0; j < k->nsymbols; j++) { /* the host-filled variables' addresses */
    off = (off + 7) / 8 * 8;
    offs[k->nparams + k->nhidden + j] = off;
    off += 8;
  }
  if (frame) { /* the scratch buffer's address, after them */
    off = (off + 7) / 8 * 8;
    offs[k->nparams + k->nhidden + k->nsymbols] = off;
    off += 8;
  }
  *size = off;
  return KCRT_SUCCESS;
}

static kcrt_status vk_kernel_init(kcrt_kernel *k) {
  VkDev *c = vd(k->mod->dev);
  VkKern *vk_k = calloc(1, sizeof *vk_k);
  uint32_t np = k->k->nparams + k->k->nhidden;
  if (vk_k) vk_k->offs = calloc(np + k->k->nsymbols + 1, sizeof *vk_k->offs);
  if (!vk_k || !vk_k->offs) {
    if (vk_k) free(vk_k->offs);
    free(vk_k);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  const VkMod *vm = k->mod->h;
  kcrt_status st = push_layout(k->k, vm->frame || vm->wgframe || vm->dyn_block || vm->print,
                               vk_k->offs, &vk_k->push);
  vk_k->spill = vk_k->push > SPILL_PUSH;
  if (!st && vk_k->push > 65536) /* vkCmdUpdateBuffer's most */
    st = kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "kernel '%s' takes %u bytes of parameters", k->k->name,
                   vk_k->push);
  if (!st && !vk_k->spill && vk_k->push > c->push_limit) /* not with kcc's own output */
    st = kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                   "kernel '%s' takes %u bytes of parameters; %s allows %u bytes of push "
                   "constants",
                   k->k->name, vk_k->push, k->mod->dev->info.name, c->push_limit);
  if (!st) {
    VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                              .size = vk_k->spill ? 8 : (vk_k->push + 3) & ~3u};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .pushConstantRangeCount = pr.size ? 1 : 0,
                                     .pPushConstantRanges = &pr};
    VkResult r = vk.vkCreatePipelineLayout(c->dev, &li, NULL, &vk_k->layout);
    if (r != VK_SUCCESS) st = fail(r, "vkCreatePipelineLayout");
  }
  if (st) {
    free(vk_k->offs);
    free(vk_k);
    return st;
  }
  pthread_mutex_init(&vk_k->lock, NULL);
  k->max_threads = k->mod->dev->info.max_threads_per_block;
  k->h = vk_k;
  return KCRT_SUCCESS;
}

static void vk_kernel_release(kcrt_kernel *k) {
  VkKern *kk = k->h;
  if (!kk) return;
  VkDev *c = vd(k->mod->dev);
  pthread_mutex_lock(&c->lock);
  wait_all(c); /* a pipeline may still be running, or recorded in the open batch */
  pthread_mutex_unlock(&c->lock);
  for (int i = 0; i < kk->npipes; i++) vk.vkDestroyPipeline(c->dev, kk->pipes[i].pipe, NULL);
  vk.vkDestroyPipelineLayout(c->dev, kk->layout, NULL);
  pthread_mutex_destroy(&kk->lock);
  free(kk->pipes);
  free(kk->offs);
  free(kk);
}

/* The pipeline of k for this block shape (and dynamic shared size, for a kernel with
 * dynamic shared memory), made on first use. */
static kcrt_status pipeline(kcrt_kernel *k, const uint64_t block[3], size_t dyn, VkPipeline *out) {
  VkKern *kk = k->h;
  VkDev *c = vd(k->mod->dev);
  bool has_dyn = (k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) != 0;
  /* An empty dynamic array is still one element in SPIR-V: 0 bytes are asked as 1. */
  uint32_t b[6] = {(uint32_t)block[0],         (uint32_t)block[1],
                   (uint32_t)block[2],         has_dyn ? (dyn ? (uint32_t)dyn : 1u) : 0u,
                   c->p->zero_fixes ? 1u : 0u, c->p->fma_fused ? 1u : 0u};
  pthread_mutex_lock(&kk->lock);
  for (int i = 0; i < kk->npipes; i++)
    if (!memcmp(kk->pipes[i].key, b, sizeof kk->pipes[i].key)) {
      *out = kk->pipes[i].pipe;
      pthread_mutex_unlock(&kk->lock);
      return KCRT_SUCCESS;
    }
  /* SpecIds 0-2 the block, 3 the dynamic shared bytes, 7 kcc.zero_fixes and 9 kcc.fma_fused
     (VkBool32s), each where the module has it. */
  static const uint32_t ids[6] = {0, 1, 2, 3, 7, 9};
  VkMod *vm = k->mod->h;
  bool has[6] = {true, true, true, has_dyn, vm->zero_fixes, vm->fma_fused};
  VkSpecializationMapEntry me[6];
  uint32_t nme = 0;
  for (uint32_t d = 0; d < 6; d++)
    if (has[d])
      me[nme++] = (VkSpecializationMapEntry){.constantID = ids[d], .offset = d * 4, .size = 4};
  VkSpecializationInfo spec = {
      .mapEntryCount = nme, .pMapEntries = me, .dataSize = sizeof b, .pData = b};
  VkComputePipelineCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = vm->shader,
                .pName = k->k->name,
                .pSpecializationInfo = &spec},
      .layout = kk->layout};
  double t0 = kcrt_now_ms();
  VkPipeline p = VK_NULL_HANDLE;
  VkResult r = vk.vkCreateComputePipelines(c->dev, vm->cache, 1, &ci, NULL, &p);
  if (r == VK_SUCCESS) save_pipelines(c, vm);
  kcrt_status st = KCRT_SUCCESS;
  VkPipe *np = r == VK_SUCCESS ? realloc(kk->pipes, (size_t)(kk->npipes + 1) * sizeof *np) : NULL;
  if (r != VK_SUCCESS) {
    st = kcrt_fail(r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY
                       ? KCRT_ERROR_OUT_OF_MEMORY
                       : KCRT_ERROR_BUILD_FAILED,
                   "Vulkan: %s could not build kernel '%s' for blocks of %u x %u x %u: %s (%d)",
                   k->mod->dev->info.name, k->k->name, b[0], b[1], b[2], vk_result_name(r), (int)r);
  } else if (!np) {
    vk.vkDestroyPipeline(c->dev, p, NULL);
    st = kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } else {
    kk->pipes = np;
    kk->pipes[kk->npipes].pipe = p;
    memcpy(kk->pipes[kk->npipes++].key, b, sizeof kk->pipes[0].key);
    *out = p;
    kcrt_log("vulkan: pipeline for '%s' (%u x %u x %u) built in %.1f ms", k->k->name, b[0], b[1],
             b[2], kcrt_now_ms() - t0);
  }
  pthread_mutex_unlock(&kk->lock);
  return st;
}

/* The scratch buffer of at least `size` bytes (the device lock held): a larger one replaces
 * it once every submission is done with it. */
static VkResult scratch_get(VkDev *c, VkDeviceSize size) {
  if (c->scratch.buf && c->scratch_size >= size) return VK_SUCCESS;
  VkResult r = wait_all(c); /* the batches recorded so far have its address */
  if (r != VK_SUCCESS) return r;
  if (c->scratch.buf) vk.vkDestroyBuffer(c->dev, c->scratch.buf, NULL);
  if (c->scratch.mem) vk.vkFreeMemory(c->dev, c->scratch.mem, NULL);
  memset(&c->scratch, 0, sizeof c->scratch);
  c->scratch_size = 0;
  /* (Transfers: the print buffer in it is cleared and read back.) */
  r = make_buffer(c, size,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true, &c->scratch.buf, &c->scratch.mem);
  if (r != VK_SUCCESS) return r;
  VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                  .buffer = c->scratch.buf};
  c->scratch_addr = vk.vkGetBufferDeviceAddress(c->dev, &ai);
  c->scratch_size = size;
  return VK_SUCCESS;
}

/* printf: the records kcc's Vulkan form wrote to the print buffer (docs/bundle.md, "Vulkan"),
 * formatted as C's printf formats them, to stdout. */
static void print_records(const VkMod *vm, const unsigned char *buf, size_t n) {
  for (size_t at = 0; at + 8 <= n;) {
    uint32_t id, nargs;
    memcpy(&id, buf + at, 4);
    memcpy(&nargs, buf + at + 4, 4);
    const unsigned char *args = buf + at + 8;
    if (id >= vm->nformats || at + 8 + 8 * (size_t)nargs > n) break;
    at += 8 + 8 * (size_t)nargs;
    const char *f = vm->formats[id];
    uint32_t next = 0;
    while (*f) {
      if (*f != '%') {
        const char *e = strchr(f, '%');
        size_t len = e ? (size_t)(e - f) : strlen(f);
        fwrite(f, 1, len, stdout);
        f += len;
        continue;
      }
      if (f[1] == '%') {
        fputc('%', stdout);
        f += 2;
        continue;
      }
      /* One conversion: flags, width, precision, length, then the conversion character. */
      const char *start = f++;
      while (*f && strchr("-+ #0", *f)) f++;
      while (*f >= '0' && *f <= '9') f++;
      if (*f == '.')
        for (f++; *f >= '0' && *f <= '9'; f++) continue;
      bool wide = false;
      while (*f && strchr("hlLqjzt", *f)) wide |= *f != 'h', f++;
      if (!*f) break;
      char conv = *f++, spec[64];
      size_t sl = (size_t)(f - start);
      if (sl >= sizeof spec) break;
      memcpy(spec, start, sl);
      spec[sl] = 0;
      uint64_t v = 0;
      if (next < nargs) memcpy(&v, args + 8 * (size_t)next, 8);
      next++;
      switch (conv) {
      case 'd':
      case 'i':
        if (wide)
          printf(spec, (long long)v);
        else
          printf(spec, (int)v);
        break;
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        if (wide)
          printf(spec, (unsigned long long)v);
        else
          printf(spec, (unsigned)v);
        break;
      case 'c': printf(spec, (int)v); break;
      case 'p': printf(spec, (void *)(uintptr_t)v); break;
      case 's': printf(spec, v < vm->nstrings ? vm->strings[v] : "(null)"); break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        double d;
        memcpy(&d, &v, 8);
        printf(spec, d);
        break;
      }
      default: fputs(spec, stdout); break; /* kcc refuses others: never reached */
      }
    }
  }
  fflush(stdout);
}

static kcrt_status vk_launch(kcrt_kernel *k, kcrt_queue *q, const uint64_t grid[3],
                             const uint64_t block[3], size_t dyn, const kcrt_arg *args) {
  VkKern *kk = k->h;
  VkDev *c = vd(k->mod->dev);
  VkPipeline pipe = VK_NULL_HANDLE;
  kcrt_status st = pipeline(k, block, dyn, &pipe);
  if (st) return st;
  unsigned char small[256] = {0}, *push = small;
  if (kk->push > sizeof small && !(push = calloc(1, (kk->push + 15) & ~(size_t)15)))
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  for (uint32_t i = 0; i < k->k->nparams + k->k->nhidden; i++) {
    const KcbParam *p = &k->k->params[i];
    if (p->kind == KCB_PARAM_POINTER || p->kind == KCB_PARAM_BOUNDS_RECORD) {
      uint64_t a = args[i].buffer ? args[i].buffer->dptr : 0;
      memcpy(push + kk->offs[i], &a, 8);
    } else if (p->kind == KCB_PARAM_IMAGE) { /* checked by kcrt_check_image_arg */
      kcrt_image *img;
      memcpy(&img, args[i].value, sizeof img);
      memcpy(push + kk->offs[i], &img->kdesc, 32);
    } else if (p->kind == KCB_PARAM_SAMPLER) {
      kcrt_sampler *smp;
      memcpy(&smp, args[i].value, sizeof smp);
      memcpy(push + kk->offs[i], &smp->bits, 4);
    } else if (p->kind == KCB_PARAM_TEXTURE || p->kind == KCB_PARAM_TEX_SAMPLER) {
      const kcrt_texture *t = kcrt_texture_of(k->mod->dev, &args[i]); /* checked */
      if (t && p->kind == KCB_PARAM_TEXTURE) memcpy(push + kk->offs[i], &t->img->kdesc, 32);
      if (t && p->kind == KCB_PARAM_TEX_SAMPLER) memcpy(push + kk->offs[i], &t->smp->bits, 4);
    } else if (p->kind == KCB_PARAM_SURFACE) {
      const kcrt_surface *sf = kcrt_surface_of(k->mod->dev, &args[i]); /* checked */
      if (sf) memcpy(push + kk->offs[i], &sf->img->kdesc, 32);
    } else {
      memcpy(push + kk->offs[i], args[i].value, args[i].size); /* checked: the table's size */
    }
  }
  uint32_t np = k->k->nparams + k->k->nhidden;
  for (uint32_t j = 0; j < k->k->nsymbols; j++) { /* each host-filled variable's buffer */
    const kcrt_buffer *s = k->mod->symbols[k->k->symbols[j]];
    memcpy(push + kk->offs[np + j], &s->dptr, 8);
  }
  VkQ *vq = q->h;
  const VkMod *vm = k->mod->h;
  uint32_t frame = vm->frame;
  uint64_t wgframe = vm->wgframe;
  if (vm->dyn_block) {
    /* The block ends with dynamic shared memory: the launch's bytes (specialisation constant
     * 3, as pipeline() sets it; left at its default 1 for a kernel without any) rounded to
     * 16, as the kernel steps from block to block. */
    uint64_t d = (k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) && dyn ? (uint64_t)dyn : 1;
    wgframe += (d + 15) & ~(uint64_t)15;
  }
  uint64_t blocks = grid[0] * grid[1] * grid[2], per = block[0] * block[1] * block[2], need = 0;
  uint64_t threads = 0, shared = 0;
  /* Every invocation's frame, then every workgroup's shared block (docs/bundle.md). */
  if ((frame || wgframe || vm->print) &&
      (__builtin_mul_overflow(blocks, per, &threads) ||
       __builtin_mul_overflow(threads, (uint64_t)frame, &need) ||
       __builtin_mul_overflow(blocks, wgframe, &shared) ||
       __builtin_add_overflow(need, shared, &need) ||
       __builtin_add_overflow(need, (uint64_t)vm->print, &need) ||
       need > k->mod->dev->info.max_alloc_bytes)) {
    if (push != small) free(push);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY,
                     "Vulkan: '%s' keeps %u bytes per thread (locals whose address is taken) "
                     "and %llu per block (shared arrays whose address is taken) in memory; "
                     "%llu blocks of %llu threads need more than %s can allocate",
                     k->k->name, frame, (unsigned long long)wgframe, (unsigned long long)blocks,
                     (unsigned long long)per, k->mod->dev->info.name);
  }
  bool frame_push = frame || wgframe || vm->print;
  uint64_t print_at = need - vm->print; /* the print buffer: after the frames and blocks */
  VkDeviceSize psize = (kk->push + 15) & ~(VkDeviceSize)15;
  pthread_mutex_lock(&c->lock);
  VkResult r = VK_SUCCESS;
  if (frame_push) {
    r = scratch_get(c, need);
    if (r == VK_SUCCESS) memcpy(push + kk->offs[np + k->k->nsymbols], &c->scratch_addr, 8);
  }
  VkCmd *m = NULL;
  if (r == VK_SUCCESS) r = open_batch(c, &m);
  uint64_t spilled = 0;
  if (r == VK_SUCCESS && kk->spill) {
    /* The parameters past the push constants: written by the batch itself into its parameter
     * buffer (a full one sends the batch and takes a new one); the push constant is their
     * address. */
    if (m->params_used + psize > m->params_size && m->params_used) {
      r = flush(c);
      if (r == VK_SUCCESS) r = open_batch(c, &m);
    }
    if (r == VK_SUCCESS && psize > m->params_size) {
      if (m->params) vk.vkDestroyBuffer(c->dev, m->params, NULL);
      if (m->params_mem) vk.vkFreeMemory(c->dev, m->params_mem, NULL);
      m->params = VK_NULL_HANDLE;
      m->params_mem = VK_NULL_HANDLE;
      m->params_size = 0;
      VkDeviceSize size = psize > PARAMS_BYTES ? psize : PARAMS_BYTES;
      r = make_buffer(c, size,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                          VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true, &m->params, &m->params_mem);
      if (r == VK_SUCCESS) {
        VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                        .buffer = m->params};
        m->params_addr = vk.vkGetBufferDeviceAddress(c->dev, &ai);
        m->params_size = size;
      }
    }
    if (r == VK_SUCCESS) {
      spilled = m->params_addr + m->params_used;
      /* vkCmdUpdateBuffer takes at most 64 KiB at a time. */
      for (VkDeviceSize at = 0; at < psize; at += 65536)
        vk.vkCmdUpdateBuffer(m->cb, m->params, m->params_used + at,
                             psize - at < 65536 ? psize - at : 65536, push + at);
      m->params_used += psize;
    }
  }
  if (r == VK_SUCCESS) {
    full_barrier(m->cb);
    if (vm->print) /* the print buffer starts empty */
      vk.vkCmdFillBuffer(m->cb, c->scratch.buf, print_at, 16, 0);
    if (vm->print || kk->spill) /* the writes above, before the kernel reads them */
      full_barrier(m->cb);
    vk.vkCmdBindPipeline(m->cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    if (kk->spill)
      vk.vkCmdPushConstants(m->cb, kk->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &spilled);
    else if (kk->push)
      vk.vkCmdPushConstants(m->cb, kk->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, (kk->push + 3) & ~3u,
                            push);
    vk.vkCmdDispatch(m->cb, (uint32_t)grid[0], (uint32_t)grid[1], (uint32_t)grid[2]);
    c->open_launches++;
    vq->last = m->value;
    /* printf: the launch is waited for and its buffer read back before the next can reuse it
     * (so a kernel that prints runs synchronously on Vulkan). */
    r = vm->print ? wait_value(c, m->value) : maybe_flush(c);
  }
  unsigned char *printed = NULL;
  size_t nprinted = 0;
  if (r == VK_SUCCESS && vm->print) {
    const char *what = NULL;
    uint32_t head[4];
    r = transfer_locked(c, &c->scratch, print_at, head, 16, false, &what);
    nprinted = head[0] < vm->print - 16 ? head[0] : vm->print - 16;
    if (r == VK_SUCCESS && nprinted && (printed = malloc(nprinted)))
      r = transfer_locked(c, &c->scratch, print_at + 16, printed, nprinted, false, &what);
    if (r == VK_SUCCESS && head[0] > vm->print - 16) {
      char msg[300];
      snprintf(msg, sizeof msg,
               "Vulkan: '%s' printed more than its %u-byte print buffer holds: the rest is lost",
               k->k->name, vm->print);
      kcrt_warn(msg);
    }
  }
  pthread_mutex_unlock(&c->lock);
  if (printed) {
    if (r == VK_SUCCESS) print_records(vm, printed, nprinted);
    free(printed);
  }
  if (push != small) free(push);
  if (r != VK_SUCCESS)
    return kcrt_fail(status_of(r) == KCRT_ERROR_DRIVER ? KCRT_ERROR_LAUNCH_FAILED : status_of(r),
                     "Vulkan: launching '%s' failed: %s (%d)", k->k->name, vk_result_name(r),
                     (int)r);
  return KCRT_SUCCESS;
}

const KcrtBackend kcrt_vulkan_backend = {
    .id = KCRT_BACKEND_VULKAN,
    .name = "Vulkan",
    .enumerate = vk_enumerate,
    .open = vk_open,
    .close = vk_close,
    .mem_alloc = vk_mem_alloc,
    .mem_free = vk_mem_free,
    .mem_write = vk_mem_write,
    .mem_read = vk_mem_read,
    .mem_copy = vk_mem_copy,
    .mem_fill = vk_mem_fill,
    .mem_view = vk_mem_view,
    .queue_create = vk_queue_create,
    .queue_destroy = vk_queue_destroy,
    .queue_sync = vk_queue_sync,
    .event_create = vk_event_create,
    .event_destroy = vk_event_destroy,
    .event_record = vk_event_record,
    .event_sync = vk_event_sync,
    .event_elapsed = vk_event_elapsed,
    .module_load = vk_module_load,
    .module_unload = vk_module_unload,
    .symbol_init = vk_symbol_init,
    .kernel_init = vk_kernel_init,
    .kernel_release = vk_kernel_release,
    .launch = vk_launch,
    .image_create = vk_image_create,
    .image_free = vk_image_free,
    .image_write = vk_image_write,
    .image_read = vk_image_read,
    .sampler_create = vk_sampler_create,
    .sampler_free = vk_sampler_free,
};
