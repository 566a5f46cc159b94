/* warplint stand-in for cuda_gl_interop.h: registering OpenGL buffers and
 * images as CUDA graphics resources (mapped with the calls in
 * cuda_runtime_api.h), and the deprecated buffer-object calls, from the
 * CUDA Runtime API's "OpenGL Interoperability". GLuint and GLenum are
 * declared as <GL/gl.h> declares them, so either may come first. */
#ifndef WARPLINT_CUDA_GL_INTEROP_H
#define WARPLINT_CUDA_GL_INTEROP_H
typedef unsigned int GLuint;
typedef unsigned int GLenum;
enum cudaGLDeviceList { cudaGLDeviceListAll = 1, cudaGLDeviceListCurrentFrame = 2, cudaGLDeviceListNextFrame = 3 };
cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices, unsigned int cudaDeviceCount,
                             enum cudaGLDeviceList deviceList);
cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource, GLuint buffer, unsigned int flags);
cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, GLuint image, GLenum target,
                                        unsigned int flags);
cudaError_t cudaGLSetGLDevice(int device);
cudaError_t cudaGLRegisterBufferObject(GLuint bufObj);
cudaError_t cudaGLUnregisterBufferObject(GLuint bufObj);
cudaError_t cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
cudaError_t cudaGLUnmapBufferObject(GLuint bufObj);
#endif
