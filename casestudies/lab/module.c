/* Kernel files as modules: a student's file is compiled with nvcc into a
 * shared object at check time; the starting kernels and the solutions were
 * compiled the same way by the build. Each is loaded with dlopen, privately
 * (RTLD_LOCAL), so that all of them can export the same entry point. They
 * share the lab's CUDA runtime (-cudart shared), hence its device pointers,
 * its default stream and its last-error state. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"

int lab_run_program(char *const argv[], const char *output) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool lab_compile(const char *nvcc, const char *source, const char *lab_dir, int arch,
                 const char *out_so, const char *report) {
  char arch_flag[32], include_flag[4096];
  snprintf(arch_flag, sizeof arch_flag, "-arch=sm_%d", arch);
  snprintf(include_flag, sizeof include_flag, "-I%s", lab_dir);
  /* The device code gets what the build gives the starting kernels and the
   * solutions (ptxas optimises at -O3 whatever the host flags), so the
   * versions are compared on equal terms. */
  char *argv[] = {(char *)nvcc, arch_flag, "-shared", "-Xcompiler", "-fPIC", "-cudart",
                  "shared", "-Xptxas", "-v", include_flag, "-o", (char *)out_so,
                  (char *)source, NULL};
  return lab_run_program(argv, report) == 0;
}

bool lab_module_open(const char *path, const char *symbol, lab_module *m, char *err,
                     size_t err_size) {
  m->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!m->handle) {
    snprintf(err, err_size, "cannot load %s: %s", path, dlerror());
    return false;
  }
  void *address = dlsym(m->handle, symbol);
  if (!address) {
    snprintf(err, err_size, "%s does not define %s (see lab_kernels.h)", path, symbol);
    dlclose(m->handle);
    m->handle = NULL;
    return false;
  }
  /* POSIX guarantees that dlsym's object pointer holds a function address. */
  memcpy(&m->entry, &address, sizeof m->entry);
  return true;
}

void lab_module_close(lab_module *m) {
  if (m->handle) dlclose(m->handle);
  m->handle = NULL;
  m->entry = NULL;
}
