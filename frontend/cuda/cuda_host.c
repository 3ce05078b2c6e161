/* cuda_host.c — CUDA input: the host half of the CUDA runtime API (cuda_runtime_api.h and
 * cuda_runtime.h's C++ overloads), declared for the CUDA prelude (cuda.c).
 *
 * kcc compiles no host code, but it must read it: a kernel template launched from a host
 * function template is instantiated only when clang can instantiate that host template, and a
 * call of an undeclared function with dependent arguments (`cudaMalloc(&d, n * sizeof(T))`)
 * fails the whole instantiation (parse.c, "kernels host code names"). So the runtime API is
 * declared as the CUDA Runtime API reference documents it — types, the error codes with
 * their values, and the functions of device, error, stream, event, memory, execution,
 * occupancy, peer and version management — with no definitions: nothing here is ever
 * compiled. Device code calling one gets clang's "reference to __host__ function" error.
 * The driver API's handle types and result codes (cuda.h) come along, as projects mix them. */
#include "fe_cuda.h"

static const char cu_host_types[] =
    "typedef enum cudaError {\n"
    "  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,\n"
    "  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,\n"
    "  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12,\n"
    "  cudaErrorInvalidSymbol = 13, cudaErrorInvalidHostPointer = 16,\n"
    "  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidTexture = 18,\n"
    "  cudaErrorInvalidChannelDescriptor = 20, cudaErrorInvalidMemcpyDirection = 21,\n"
    "  cudaErrorInsufficientDriver = 35, cudaErrorDevicesUnavailable = 46,\n"
    "  cudaErrorMissingConfiguration = 52, cudaErrorInvalidDeviceFunction = 98,\n"
    "  cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101, cudaErrorStartupFailure = 127,\n"
    "  cudaErrorInvalidKernelImage = 200, cudaErrorNoKernelImageForDevice = 209,\n"
    "  cudaErrorPeerAccessUnsupported = 217, cudaErrorInvalidPtx = 218,\n"
    "  cudaErrorUnsupportedPtxVersion = 222, cudaErrorFileNotFound = 301,\n"
    "  cudaErrorOperatingSystem = 304, cudaErrorInvalidResourceHandle = 400,\n"
    "  cudaErrorSymbolNotFound = 500, cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,\n"
    "  cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,\n"
    "  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705,\n"
    "  cudaErrorAssert = 710, cudaErrorHostMemoryAlreadyRegistered = 712,\n"
    "  cudaErrorHostMemoryNotRegistered = 713, cudaErrorIllegalInstruction = 715,\n"
    "  cudaErrorMisalignedAddress = 716, cudaErrorLaunchFailure = 719,\n"
    "  cudaErrorCooperativeLaunchTooLarge = 720, cudaErrorNotPermitted = 800,\n"
    "  cudaErrorNotSupported = 801, cudaErrorStreamCaptureUnsupported = 900,\n"
    "  cudaErrorStreamCaptureInvalidated = 901, cudaErrorTimeout = 909,\n"
    "  cudaErrorUnknown = 999 } cudaError_t;\n"
    "enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,\n"
    "  cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };\n"
    "enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared,\n"
    "  cudaFuncCachePreferL1, cudaFuncCachePreferEqual };\n"
    "enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte,\n"
    "  cudaSharedMemBankSizeEightByte };\n"
    "enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,\n"
    "  cudaFuncAttributePreferredSharedMemoryCarveout = 9 };\n"
    "enum cudaLimit { cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize };\n"
    "enum cudaMemoryType { cudaMemoryTypeUnregistered, cudaMemoryTypeHost,\n"
    "  cudaMemoryTypeDevice, cudaMemoryTypeManaged };\n"
    "enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly,\n"
    "  cudaMemAdviseSetPreferredLocation, cudaMemAdviseUnsetPreferredLocation,\n"
    "  cudaMemAdviseSetAccessedBy, cudaMemAdviseUnsetAccessedBy };\n"
    "enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, "
    "cudaStreamCaptureModeThreadLocal,\n  cudaStreamCaptureModeRelaxed };\n"
    "enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone, "
    "cudaStreamCaptureStatusActive,\n  cudaStreamCaptureStatusInvalidated };\n"
    "enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX,\n"
    "  cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ, cudaDevAttrMaxGridDimX,\n"
    "  cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ, cudaDevAttrMaxSharedMemoryPerBlock,\n"
    "  cudaDevAttrTotalConstantMemory, cudaDevAttrWarpSize, cudaDevAttrMaxPitch,\n"
    "  cudaDevAttrMaxRegistersPerBlock, cudaDevAttrClockRate, cudaDevAttrTextureAlignment,\n"
    "  cudaDevAttrGpuOverlap, cudaDevAttrMultiProcessorCount,\n"
    "  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,\n"
    "  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,\n"
    "  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };\n"
    "struct CUstream_st; struct CUevent_st; struct CUgraph_st; struct CUgraphExec_st;\n"
    "struct CUfunc_st; struct CUmod_st; struct CUctx_st; struct cudaArray; struct "
    "CUmemPoolHandle_st;\n"
    "typedef struct CUevent_st *cudaEvent_t;\n"
    "typedef struct CUgraph_st *cudaGraph_t;\n"
    "typedef struct CUgraphExec_st *cudaGraphExec_t;\n"
    "typedef struct cudaArray *cudaArray_t;\n"
    "typedef const struct cudaArray *cudaArray_const_t;\n"
    "typedef struct CUmemPoolHandle_st *cudaMemPool_t;\n"
    "typedef struct CUfunc_st *cudaFunction_t;\n"
    "typedef unsigned long long cudaTextureObject_t, cudaSurfaceObject_t;\n"
    "typedef void (*cudaHostFn_t)(void *);\n"
    "typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);\n"
    "struct cudaUUID_st { char bytes[16]; }; typedef struct cudaUUID_st cudaUUID_t;\n"
    "struct cudaDeviceProp {\n"
    "  char name[256]; cudaUUID_t uuid; char luid[8]; unsigned int luidDeviceNodeMask;\n"
    "  size_t totalGlobalMem, sharedMemPerBlock; int regsPerBlock, warpSize; size_t memPitch;\n"
    "  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;\n"
    "  size_t totalConstMem; int major, minor; size_t textureAlignment, texturePitchAlignment;\n"
    "  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated,\n"
    "    canMapHostMemory, computeMode, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID,\n"
    "    pciDomainID, tccDriver, asyncEngineCount, unifiedAddressing, memoryClockRate,\n"
    "    memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,\n"
    "    streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;\n"
    "  size_t sharedMemPerMultiprocessor; int regsPerMultiprocessor, managedMemory,\n"
    "    isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,\n"
    "    singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess,\n"
    "    computePreemptionSupported, canUseHostPointerForRegisteredMem,\n"
    "    cooperativeLaunch, cooperativeMultiDeviceLaunch;\n"
    "  size_t sharedMemPerBlockOptin; int pageableMemoryAccessUsesHostPageTables,\n"
    "    directManagedMemAccessFromHost, maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;\n"
    "  size_t reservedSharedMemPerBlock; };\n"
    "struct cudaFuncAttributes { size_t sharedSizeBytes, constSizeBytes, localSizeBytes;\n"
    "  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,\n"
    "    maxDynamicSharedSizeBytes, preferredShmemCarveout; };\n"
    "struct cudaPointerAttributes { enum cudaMemoryType type; int device;\n"
    "  void *devicePointer, *hostPointer; };\n"
    "struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };\n"
    "struct cudaExtent { size_t width, height, depth; };\n"
    "#define cudaStreamDefault 0x00\n#define cudaStreamNonBlocking 0x01\n"
    "#define cudaStreamLegacy ((cudaStream_t)0x1)\n"
    "#define cudaStreamPerThread ((cudaStream_t)0x2)\n"
    "#define cudaEventDefault 0x00\n#define cudaEventBlockingSync 0x01\n"
    "#define cudaEventDisableTiming 0x02\n#define cudaEventInterprocess 0x04\n"
    "#define cudaHostAllocDefault 0x00\n#define cudaHostAllocPortable 0x01\n"
    "#define cudaHostAllocMapped 0x02\n#define cudaHostAllocWriteCombined 0x04\n"
    "#define cudaHostRegisterDefault 0x00\n#define cudaHostRegisterPortable 0x01\n"
    "#define cudaHostRegisterMapped 0x02\n"
    "#define cudaDeviceScheduleAuto 0x00\n#define cudaDeviceScheduleSpin 0x01\n"
    "#define cudaDeviceScheduleYield 0x02\n#define cudaDeviceScheduleBlockingSync 0x04\n"
    "#define cudaDeviceMapHost 0x08\n"
    "#define cudaMemAttachGlobal 0x01\n#define cudaMemAttachHost 0x02\n"
    "#define cudaCpuDeviceId ((int)-1)\n"
    /* The driver API's handles and result (cuda.h). */
    "typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1,\n"
    "  CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_NOT_INITIALIZED = 3,\n"
    "  CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,\n"
    "  CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_NOT_READY = 600,\n"
    "  CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;\n"
    "typedef int CUdevice; typedef unsigned long long CUdeviceptr;\n"
    "typedef struct CUctx_st *CUcontext; typedef struct CUmod_st *CUmodule;\n"
    "typedef struct CUfunc_st *CUfunction; typedef struct CUstream_st *CUstream;\n"
    "typedef struct CUevent_st *CUevent;\n"
    "extern \"C\" __host__ CUresult cuGetErrorString(CUresult, const char **);\n"
    "extern \"C\" __host__ CUresult cuGetErrorName(CUresult, const char **);\n";

/* The C API: "RETURN NAME(PARAMS)" each, declared extern "C" __host__. */
static const char *const cu_host_functions[] = {
    /* device management */
    "cudaError_t cudaChooseDevice(int *, const struct cudaDeviceProp *)",
    "cudaError_t cudaDeviceGetAttribute(int *, enum cudaDeviceAttr, int)",
    "cudaError_t cudaDeviceGetLimit(size_t *, enum cudaLimit)",
    "cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t)",
    "cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *)",
    "cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache)",
    "cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *)",
    "cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig)",
    "cudaError_t cudaDeviceGetStreamPriorityRange(int *, int *)",
    "cudaError_t cudaDeviceGetPCIBusId(char *, int, int)",
    "cudaError_t cudaDeviceGetByPCIBusId(int *, const char *)",
    "cudaError_t cudaDeviceReset(void)",
    "cudaError_t cudaDeviceSynchronize(void)",
    "cudaError_t cudaThreadSynchronize(void)",
    "cudaError_t cudaGetDevice(int *)",
    "cudaError_t cudaGetDeviceCount(int *)",
    "cudaError_t cudaGetDeviceFlags(unsigned int *)",
    "cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int)",
    "cudaError_t cudaSetDevice(int)",
    "cudaError_t cudaSetDeviceFlags(unsigned int)",
    "cudaError_t cudaInitDevice(int, unsigned int, unsigned int)",
    /* errors */
    "const char *cudaGetErrorName(cudaError_t)",
    "const char *cudaGetErrorString(cudaError_t)",
    "cudaError_t cudaGetLastError(void)",
    "cudaError_t cudaPeekAtLastError(void)",
    /* streams */
    "cudaError_t cudaStreamCreate(cudaStream_t *)",
    "cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int)",
    "cudaError_t cudaStreamCreateWithPriority(cudaStream_t *, unsigned int, int)",
    "cudaError_t cudaStreamDestroy(cudaStream_t)",
    "cudaError_t cudaStreamQuery(cudaStream_t)",
    "cudaError_t cudaStreamSynchronize(cudaStream_t)",
    "cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int __f = 0)",
    "cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void *, unsigned int)",
    "cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void *)",
    "cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned int *)",
    "cudaError_t cudaStreamGetPriority(cudaStream_t, int *)",
    "cudaError_t cudaStreamBeginCapture(cudaStream_t, enum cudaStreamCaptureMode)",
    "cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *)",
    "cudaError_t cudaStreamIsCapturing(cudaStream_t, enum cudaStreamCaptureStatus *)",
    "cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t __n = 0, "
    "unsigned int __f = 0x04)",
    /* events */
    "cudaError_t cudaEventCreate(cudaEvent_t *)",
    "cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int)",
    "cudaError_t cudaEventDestroy(cudaEvent_t)",
    "cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t)",
    "cudaError_t cudaEventQuery(cudaEvent_t)",
    "cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t __s = 0)",
    "cudaError_t cudaEventSynchronize(cudaEvent_t)",
    /* execution control and occupancy (the C forms take the kernel as const void *) */
    "cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *, const void *)",
    "cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int)",
    "cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache)",
    "cudaError_t cudaFuncSetSharedMemConfig(const void *, enum cudaSharedMemConfig)",
    "cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t)",
    "cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, "
    "cudaStream_t)",
    "cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, const void *, int, "
    "size_t)",
    "cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *, const void *, "
    "int, size_t, unsigned int)",
    /* memory */
    "cudaError_t cudaMalloc(void **, size_t)",
    "cudaError_t cudaMallocHost(void **, size_t)",
    "cudaError_t cudaMallocManaged(void **, size_t, unsigned int __f = 0x01)",
    "cudaError_t cudaMallocPitch(void **, size_t *, size_t, size_t)",
    "cudaError_t cudaMalloc3D(struct cudaPitchedPtr *, struct cudaExtent)",
    "cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t)",
    "cudaError_t cudaFree(void *)",
    "cudaError_t cudaFreeHost(void *)",
    "cudaError_t cudaFreeArray(cudaArray_t)",
    "cudaError_t cudaFreeAsync(void *, cudaStream_t)",
    "cudaError_t cudaHostAlloc(void **, size_t, unsigned int)",
    "cudaError_t cudaHostRegister(void *, size_t, unsigned int)",
    "cudaError_t cudaHostUnregister(void *)",
    "cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned int)",
    "cudaError_t cudaHostGetFlags(unsigned int *, void *)",
    "cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind)",
    "cudaError_t cudaMemcpyAsync(void *, const void *, size_t, enum cudaMemcpyKind, "
    "cudaStream_t __s = 0)",
    "cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, "
    "enum cudaMemcpyKind)",
    "cudaError_t cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, "
    "enum cudaMemcpyKind, cudaStream_t __s = 0)",
    "cudaError_t cudaMemcpyPeer(void *, int, const void *, int, size_t)",
    "cudaError_t cudaMemcpyPeerAsync(void *, int, const void *, int, size_t, "
    "cudaStream_t __s = 0)",
    "cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, size_t __o = 0, "
    "enum cudaMemcpyKind __k = cudaMemcpyHostToDevice)",
    "cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, size_t __o = 0, "
    "enum cudaMemcpyKind __k = cudaMemcpyDeviceToHost)",
    "cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t __o = 0, "
    "enum cudaMemcpyKind __k = cudaMemcpyHostToDevice, cudaStream_t __s = 0)",
    "cudaError_t cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t __o = 0, "
    "enum cudaMemcpyKind __k = cudaMemcpyDeviceToHost, cudaStream_t __s = 0)",
    "cudaError_t cudaGetSymbolAddress(void **, const void *)",
    "cudaError_t cudaGetSymbolSize(size_t *, const void *)",
    "cudaError_t cudaMemset(void *, int, size_t)",
    "cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t __s = 0)",
    "cudaError_t cudaMemset2D(void *, size_t, int, size_t, size_t)",
    "cudaError_t cudaMemGetInfo(size_t *, size_t *)",
    "cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t __s = 0)",
    "cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise, int)",
    "cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *, const void *)",
    /* peer access */
    "cudaError_t cudaDeviceCanAccessPeer(int *, int, int)",
    "cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int)",
    "cudaError_t cudaDeviceDisablePeerAccess(int)",
    /* graphs: capture, instantiate, launch */
    "cudaError_t cudaGraphCreate(cudaGraph_t *, unsigned int)",
    "cudaError_t cudaGraphDestroy(cudaGraph_t)",
    "cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long __f "
    "= 0)",
    "cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t)",
    "cudaError_t cudaGraphExecDestroy(cudaGraphExec_t)",
    /* versions */
    "cudaError_t cudaDriverGetVersion(int *)",
    "cudaError_t cudaRuntimeGetVersion(int *)",
};

/* cuda_runtime.h's C++ forms: typed pointers for the void ** allocators, kernels and device
 * symbols by reference or pointer of any type. */
static const char cu_host_templates[] =
    "template <class T> __host__ cudaError_t cudaMalloc(T **__p, size_t __n) "
    "{ return cudaMalloc((void **)__p, __n); }\n"
    "template <class T> __host__ cudaError_t cudaMallocHost(T **__p, size_t __n, "
    "unsigned int __f = 0) { return cudaHostAlloc((void **)__p, __n, __f); }\n"
    "template <class T> __host__ cudaError_t cudaHostAlloc(T **__p, size_t __n, unsigned int "
    "__f) { return cudaHostAlloc((void **)__p, __n, __f); }\n"
    "template <class T> __host__ cudaError_t cudaMallocManaged(T **__p, size_t __n, "
    "unsigned int __f = 0x01) { return cudaMallocManaged((void **)__p, __n, __f); }\n"
    "template <class T> __host__ cudaError_t cudaMallocPitch(T **__p, size_t *__pitch, "
    "size_t __w, size_t __h) { return cudaMallocPitch((void **)__p, __pitch, __w, __h); }\n"
    "template <class T> __host__ cudaError_t cudaMallocAsync(T **__p, size_t __n, "
    "cudaStream_t __s) { return cudaMallocAsync((void **)__p, __n, __s); }\n"
    "template <class T> __host__ cudaError_t cudaHostGetDevicePointer(T **__p, void *__h, "
    "unsigned int __f) { return cudaHostGetDevicePointer((void **)__p, __h, __f); }\n"
    "template <class T> __host__ cudaError_t cudaMemcpyToSymbol(const T &__sym, const void "
    "*__src, size_t __n, size_t __o = 0, enum cudaMemcpyKind __k = cudaMemcpyHostToDevice) "
    "{ return cudaMemcpyToSymbol((const void *)&__sym, __src, __n, __o, __k); }\n"
    "template <class T> __host__ cudaError_t cudaMemcpyFromSymbol(void *__dst, const T "
    "&__sym, size_t __n, size_t __o = 0, enum cudaMemcpyKind __k = cudaMemcpyDeviceToHost) "
    "{ return cudaMemcpyFromSymbol(__dst, (const void *)&__sym, __n, __o, __k); }\n"
    "template <class T> __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &__sym, const "
    "void *__src, size_t __n, size_t __o = 0, enum cudaMemcpyKind __k = "
    "cudaMemcpyHostToDevice, cudaStream_t __s = 0) { return cudaMemcpyToSymbolAsync((const "
    "void *)&__sym, __src, __n, __o, __k, __s); }\n"
    "template <class T> __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *__dst, const T "
    "&__sym, size_t __n, size_t __o = 0, enum cudaMemcpyKind __k = cudaMemcpyDeviceToHost, "
    "cudaStream_t __s = 0) { return cudaMemcpyFromSymbolAsync(__dst, (const void *)&__sym, "
    "__n, __o, __k, __s); }\n"
    "template <class T> __host__ cudaError_t cudaGetSymbolAddress(void **__p, const T &__sym) "
    "{ return cudaGetSymbolAddress(__p, (const void *)&__sym); }\n"
    "template <class T> __host__ cudaError_t cudaGetSymbolSize(size_t *__n, const T &__sym) "
    "{ return cudaGetSymbolSize(__n, (const void *)&__sym); }\n"
    "template <class T> __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes "
    "*__a, T *__f) { return cudaFuncGetAttributes(__a, (const void *)__f); }\n"
    "template <class T> __host__ cudaError_t cudaFuncSetAttribute(T *__f, enum "
    "cudaFuncAttribute __a, int __v) { return cudaFuncSetAttribute((const void *)__f, __a, "
    "__v); }\n"
    "template <class T> __host__ cudaError_t cudaFuncSetCacheConfig(T *__f, enum "
    "cudaFuncCache __c) { return cudaFuncSetCacheConfig((const void *)__f, __c); }\n"
    "template <class T> __host__ cudaError_t cudaLaunchKernel(T *__f, dim3 __g, dim3 __b, "
    "void **__args, size_t __shm = 0, cudaStream_t __s = 0) { return cudaLaunchKernel((const "
    "void *)__f, __g, __b, __args, __shm, __s); }\n"
    "template <class T> __host__ cudaError_t cudaLaunchCooperativeKernel(T *__f, dim3 __g, "
    "dim3 __b, void **__args, size_t __shm = 0, cudaStream_t __s = 0) { return "
    "cudaLaunchCooperativeKernel((const void *)__f, __g, __b, __args, __shm, __s); }\n"
    "template <class T> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor("
    "int *__n, T __f, int __b, size_t __shm) { return "
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor(__n, (const void *)__f, __b, __shm); }\n"
    "template <class T> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *__grid, "
    "int *__block, T __f, size_t __shm = 0, int __limit = 0);\n"
    "static __host__ inline cudaError_t cudaEventCreate(cudaEvent_t *__e, unsigned int __f) "
    "{ return cudaEventCreateWithFlags(__e, __f); }\n";

void fe_cu_host_decls(KBuf *b) {
  kbuf_puts(b, cu_host_types);
  for (size_t i = 0; i < sizeof cu_host_functions / sizeof *cu_host_functions; i++)
    kbuf_printf(b, "extern \"C\" __host__ %s;\n", cu_host_functions[i]);
  kbuf_puts(b, cu_host_templates);
}
