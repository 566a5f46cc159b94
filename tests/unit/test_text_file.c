/* read_text_file: whole contents (past the first buffer and with embedded
 * NULs), NUL-terminated, and errno on a missing file. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "testing.h"
#include "text_file.h"

static void reads_large_file_with_nuls(void) {
  char path[] = "/tmp/warpmem_text_file_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  /* 200,000 bytes: larger than the first 64 KiB buffer, and a length that
   * does not land on a buffer boundary. */
  const size_t size = 200000;
  char *data = malloc(size);
  for (size_t i = 0; i < size; i++) data[i] = (char)(i % 251);
  CHECK(write(fd, data, size) == (ssize_t)size);
  close(fd);
  size_t len = 0;
  char *text = read_text_file(path, &len);
  CHECK(text != NULL);
  if (text) {
    CHECK(len == size);
    CHECK(memcmp(text, data, size) == 0);
    CHECK(text[len] == '\0');
  }
  free(text);
  free(data);
  unlink(path);
}

static void empty_file_is_empty_string(void) {
  char path[] = "/tmp/warpmem_text_file_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  size_t len = 99;
  char *text = read_text_file(path, &len);
  CHECK(text != NULL && len == 0 && text[0] == '\0');
  free(text);
  unlink(path);
}

static void missing_file_sets_errno(void) {
  size_t len = 0;
  errno = 0;
  CHECK(read_text_file("/nonexistent/warpmem/file.txt", &len) == NULL);
  CHECK(errno == ENOENT);
}

int main(void) {
  reads_large_file_with_nuls();
  empty_file_is_empty_string();
  missing_file_sets_errno();
  return test_summary();
}
