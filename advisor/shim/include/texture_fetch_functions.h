/* warplint stand-in for texture_fetch_functions.h and
 * surface_functions.h: fetches through texture objects and surface reads
 * and writes (CUDA C++ Programming Guide, "Texture Functions" and "Surface
 * Functions"), in the returning and the pointer forms. The texture
 * references that CUDA 12 removed are not declared. */
#ifndef WARPLINT_TEXTURE_FETCH_FUNCTIONS_H
#define WARPLINT_TEXTURE_FETCH_FUNCTIONS_H
#include "driver_types.h"

#define WL_TEX(name, ...) \
  template <class T> __device__ T name(cudaTextureObject_t texObj, __VA_ARGS__); \
  template <class T> __device__ void name(T *ret, cudaTextureObject_t texObj, __VA_ARGS__);
WL_TEX(tex1Dfetch, int x)
WL_TEX(tex1D, float x)
WL_TEX(tex2D, float x, float y)
WL_TEX(tex3D, float x, float y, float z)
WL_TEX(tex1DLayered, float x, int layer)
WL_TEX(tex2DLayered, float x, float y, int layer)
WL_TEX(texCubemap, float x, float y, float z)
WL_TEX(texCubemapLayered, float x, float y, float z, int layer)
WL_TEX(tex1DLod, float x, float level)
WL_TEX(tex2DLod, float x, float y, float level)
WL_TEX(tex3DLod, float x, float y, float z, float level)
WL_TEX(tex2DLayeredLod, float x, float y, int layer, float level)
WL_TEX(tex1DGrad, float x, float dPdx, float dPdy)
WL_TEX(tex2DGrad, float x, float y, float2 dPdx, float2 dPdy)
WL_TEX(tex3DGrad, float x, float y, float z, float4 dPdx, float4 dPdy)
WL_TEX(tex2Dgather, float x, float y, int comp = 0)
#undef WL_TEX

#define WL_SURF(name, ...) \
  template <class T> __device__ T name##read(cudaSurfaceObject_t surfObj, __VA_ARGS__, \
                                             enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap); \
  template <class T> __device__ void name##read(T *ret, cudaSurfaceObject_t surfObj, __VA_ARGS__, \
                                                enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap); \
  template <class T> __device__ void name##write(T data, cudaSurfaceObject_t surfObj, __VA_ARGS__, \
                                                 enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
WL_SURF(surf1D, int x)
WL_SURF(surf2D, int x, int y)
WL_SURF(surf3D, int x, int y, int z)
WL_SURF(surf1DLayered, int x, int layer)
WL_SURF(surf2DLayered, int x, int y, int layer)
WL_SURF(surfCubemap, int x, int y, int face)
WL_SURF(surfCubemapLayered, int x, int y, int layerFace)
#undef WL_SURF
#endif
