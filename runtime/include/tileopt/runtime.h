/* TileOpt runtime: loads a TileOpt artifact (cubins + manifest.json, see
 * docs/artifact-format.md) and launches its kernels on a CUDA stream.
 *
 * A plain C ABI so that C, C++ and Python (ctypes) can all call it. The
 * header needs no CUDA header: streams are passed as `void*` (a CUstream)
 * and device pointers as `uint64_t` (a CUdeviceptr).
 *
 * Errors: every function that can fail returns a tileopt_status; on failure
 * tileopt_last_error() holds a message for the calling thread. Nothing in
 * the library aborts the process.
 *
 * The CUDA driver (libcuda.so.1) is loaded when the first artifact is
 * loaded, not when this library is, so programs that link it start on
 * machines without a GPU and get TILEOPT_ERROR_NO_DEVICE from
 * tileopt_artifact_load instead. */
#ifndef TILEOPT_RUNTIME_H
#define TILEOPT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TILEOPT_RUNTIME_BUILDING)
#define TILEOPT_API __attribute__((visibility("default")))
#else
#define TILEOPT_API
#endif

/* The manifest version this runtime reads ("version" in manifest.json). */
#define TILEOPT_ARTIFACT_VERSION 1
/* The most dimensions a buffer may have. */
#define TILEOPT_MAX_RANK 8

typedef enum tileopt_status {
  TILEOPT_OK = 0,
  TILEOPT_ERROR_INVALID_ARGUMENT = 1, /* null pointer, index out of range */
  TILEOPT_ERROR_IO = 2,               /* a file of the artifact is unreadable */
  TILEOPT_ERROR_MANIFEST = 3,         /* bad JSON or an invalid manifest */
  TILEOPT_ERROR_NO_DEVICE = 4,        /* no CUDA driver or GPU found */
  TILEOPT_ERROR_CUDA = 5,             /* a CUDA driver call failed */
  TILEOPT_ERROR_UNSUPPORTED_DEVICE = 6 /* the GPU cannot run the cubins */
} tileopt_status;

/* Values match the order of the dtype names in docs/artifact-format.md. */
typedef enum tileopt_dtype {
  TILEOPT_F16 = 0,
  TILEOPT_BF16 = 1,
  TILEOPT_F32 = 2,
  TILEOPT_F64 = 3,
  TILEOPT_I8 = 4,
  TILEOPT_I32 = 5,
  TILEOPT_I64 = 6
} tileopt_dtype;

typedef enum tileopt_role {
  TILEOPT_INPUT = 0,   /* the caller allocates and fills it */
  TILEOPT_OUTPUT = 1,  /* the caller allocates it; the artifact writes it */
  TILEOPT_SCRATCH = 2, /* the caller allocates it; any content on entry */
  /* Contents fixed by the artifact (the manifest's "data": weights, masks).
   * The artifact allocates it and uploads its bytes when it loads, binds
   * that copy in every launch and frees it when destroyed: the caller
   * neither allocates nor passes it (tileopt_artifact_launch takes 0 in its
   * slot). Kernels must not write it. */
  TILEOPT_CONSTANT = 3
} tileopt_role;

typedef struct tileopt_buffer_info {
  const char *name; /* owned by the artifact */
  tileopt_role role;
  tileopt_dtype dtype;
  int32_t rank;
  int64_t shape[TILEOPT_MAX_RANK];
  int64_t strides[TILEOPT_MAX_RANK]; /* in elements */
  /* Bytes the caller must allocate: the span from element 0 to the last
   * element the strides reach, inclusive. For a constant buffer, the bytes
   * the artifact allocated and uploaded (the caller allocates nothing). */
  uint64_t size_bytes;
} tileopt_buffer_info;

typedef struct tileopt_artifact tileopt_artifact;

/* The message of the last failed call on this thread ("" if none). */
TILEOPT_API const char *tileopt_last_error(void);

/* Reads <dir>/manifest.json, validates it, reads the cubins and the files
 * of the constant buffers (each file once; a missing or too short one is a
 * TILEOPT_ERROR_IO naming the file and the buffer), then loads the cubins
 * into the calling thread's current CUDA context or, if it has none, into
 * device 0's primary context, which it then makes current. There it
 * allocates each constant buffer and copies its bytes in, and returns once
 * they are on the device (so launches on any stream see them). */
TILEOPT_API tileopt_status tileopt_artifact_load(const char *dir,
                                                 tileopt_artifact **out);
/* Unloads the modules and frees the constant buffers; accepts NULL. */
TILEOPT_API void tileopt_artifact_destroy(tileopt_artifact *artifact);

TILEOPT_API int32_t tileopt_artifact_num_buffers(const tileopt_artifact *artifact);
TILEOPT_API tileopt_status tileopt_artifact_buffer(const tileopt_artifact *artifact,
                                                   int32_t index,
                                                   tileopt_buffer_info *info);
/* The manifest's "reference" ("" when it has none); owned by the artifact. */
TILEOPT_API const char *tileopt_artifact_reference(const tileopt_artifact *artifact);
/* A number from the manifest's "reference_args". */
TILEOPT_API tileopt_status tileopt_artifact_reference_arg(
    const tileopt_artifact *artifact, const char *name, double *value);

/* Enqueues every launch of the manifest, in order, on `stream` (a CUstream;
 * NULL is the legacy default stream). `buffers[i]` is the device pointer of
 * buffer i, indexed as tileopt_artifact_buffer indexes them, and
 * `num_buffers` must equal tileopt_artifact_num_buffers: constant buffers
 * keep their slots. The slot of a constant buffer (TILEOPT_CONSTANT) must
 * be 0: the artifact binds its own copy there (in pointer args and tensor
 * maps alike); every other slot must be non-null. Both are
 * TILEOPT_ERROR_INVALID_ARGUMENT otherwise. Does not synchronize. The
 * first launch with a new set of buffer addresses of an
 * artifact with TMA tensor maps encodes them and copies them to the device
 * (an allocation: not inside a CUDA graph capture); later ones reuse them.
 * A kernel whose blocks wait for each other (manifest "grid_sync") keeps its
 * grid barrier in its module: two launches of such an artifact must not run
 * at the same time (on two streams), or they would mix their arrivals; and
 * its blocks must all be resident at once, which loading checks against
 * the device's occupancy (an SM limit set later, e.g. by MPS, is not seen). */
TILEOPT_API tileopt_status tileopt_artifact_launch(const tileopt_artifact *artifact,
                                                   const uint64_t *buffers,
                                                   int32_t num_buffers,
                                                   void *stream);

TILEOPT_API const char *tileopt_dtype_name(tileopt_dtype dtype);
TILEOPT_API size_t tileopt_dtype_size(tileopt_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* TILEOPT_RUNTIME_H */
