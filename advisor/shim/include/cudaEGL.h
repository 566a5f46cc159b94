/* warplint stand-in for cudaEGL.h: EGL interoperability of the driver API
 * (EGL streams, frames, images, syncs), from the CUDA Driver API's "EGL
 * Interoperability". The EGL types come from the system's EGL headers, as
 * the real header takes them. Declarations only. */
#ifndef WARPLINT_CUDAEGL_H
#define WARPLINT_CUDAEGL_H
#include "cuda.h"
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define MAX_PLANES 3
typedef enum CUeglFrameType_enum { CU_EGL_FRAME_TYPE_ARRAY = 0, CU_EGL_FRAME_TYPE_PITCH = 1 } CUeglFrameType;
typedef enum CUeglResourceLocationFlags_enum {
  CU_EGL_RESOURCE_LOCATION_SYSMEM = 0, CU_EGL_RESOURCE_LOCATION_VIDMEM = 1
} CUeglResourceLocationFlags;
typedef enum CUeglColorFormat_enum {
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR = 0, CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR = 1,
  CU_EGL_COLOR_FORMAT_YUV422_PLANAR = 2,
  CU_EGL_COLOR_FORMAT_YUV422_SEMIPLANAR = 3, CU_EGL_COLOR_FORMAT_RGB = 4, CU_EGL_COLOR_FORMAT_BGR = 5,
  CU_EGL_COLOR_FORMAT_ARGB = 6, CU_EGL_COLOR_FORMAT_RGBA = 7, CU_EGL_COLOR_FORMAT_L = 8, CU_EGL_COLOR_FORMAT_R = 9
} CUeglColorFormat;
typedef enum CUarray_format_enum {
  CU_AD_FORMAT_UNSIGNED_INT8 = 0x01, CU_AD_FORMAT_UNSIGNED_INT16 = 0x02, CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
  CU_AD_FORMAT_SIGNED_INT8 = 0x08, CU_AD_FORMAT_SIGNED_INT16 = 0x09, CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
  CU_AD_FORMAT_HALF = 0x10, CU_AD_FORMAT_FLOAT = 0x20
} CUarray_format;
typedef struct CUeglFrame_st {
  union { CUarray pArray[MAX_PLANES]; void *pPitch[MAX_PLANES]; } frame;
  unsigned int width, height, depth, pitch, planeCount, numChannels;
  CUeglFrameType frameType;
  CUeglColorFormat eglColorFormat;
  CUarray_format cuFormat;
} CUeglFrame_v1;
typedef CUeglFrame_v1 CUeglFrame;
typedef struct CUeglStreamConnection_st *CUeglStreamConnection;
#ifdef __cplusplus
extern "C" {
#endif
CUresult cuEGLStreamConsumerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream);
CUresult cuEGLStreamConsumerConnectWithFlags(CUeglStreamConnection *conn, EGLStreamKHR stream, unsigned int flags);
CUresult cuEGLStreamConsumerDisconnect(CUeglStreamConnection *conn);
CUresult cuEGLStreamConsumerAcquireFrame(CUeglStreamConnection *conn, CUgraphicsResource *pCudaResource,
                                         CUstream *pStream, unsigned int timeout);
CUresult cuEGLStreamConsumerReleaseFrame(CUeglStreamConnection *conn, CUgraphicsResource pCudaResource,
                                         CUstream *pStream);
CUresult cuEGLStreamProducerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream, EGLint width, EGLint height);
CUresult cuEGLStreamProducerDisconnect(CUeglStreamConnection *conn);
CUresult cuEGLStreamProducerPresentFrame(CUeglStreamConnection *conn, CUeglFrame eglframe, CUstream *pStream);
CUresult cuEGLStreamProducerReturnFrame(CUeglStreamConnection *conn, CUeglFrame *eglframe, CUstream *pStream);
CUresult cuGraphicsEGLRegisterImage(CUgraphicsResource *pCudaResource, EGLImageKHR image, unsigned int flags);
CUresult cuGraphicsResourceGetMappedEglFrame(CUeglFrame *eglFrame, CUgraphicsResource resource, unsigned int index,
                                             unsigned int mipLevel);
CUresult cuEventCreateFromEGLSync(CUevent *phEvent, EGLSyncKHR eglSync, unsigned int flags);
#ifdef __cplusplus
}
#endif
#endif
